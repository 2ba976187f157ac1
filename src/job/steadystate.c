/*
 * steadystate.c -- fio's steady-state criteria (see steadystate.h).
 */
#include "job/steadystate.h"

#include <math.h>
#include <stdlib.h>

#include "base/util.h"

int ssd_ss_init(struct ssd_ss *s, int state, double limit, uint32_t n,
		uint32_t dur_s)
{
	*s = (struct ssd_ss){.state = state, .limit = limit, .n = n,
			     .dur_s = dur_s};
	s->iops = calloc(n, sizeof *s->iops);
	s->bw = calloc(n, sizeof *s->bw);
	s->lat = calloc(n, sizeof *s->lat);
	if (!s->iops || !s->bw || !s->lat) {
		ssd_ss_free(s);
		return SSD_ENOMEM;
	}
	uint64_t m = n;
	s->sum_x = m * (m - 1) / 2;
	s->sum_x_sq = (m - 1) * m * (2 * m - 1) / 6;
	return 0;
}

void ssd_ss_free(struct ssd_ss *s)
{
	free(s->iops);
	free(s->bw);
	free(s->lat);
	s->iops = s->bw = s->lat = NULL;
}

/* The series the criterion looks at. */
static const uint64_t *series(const struct ssd_ss *s)
{
	return s->state & SSD_SS_IOPS ? s->iops
	     : s->state & SSD_SS_BW ? s->bw : s->lat;
}

uint64_t ssd_ss_mean(const struct ssd_ss *s, const uint64_t *v)
{
	uint64_t sum = 0;
	for (uint32_t i = 0; i < s->n; i++)
		sum += v[i];
	return s->n ? sum / s->n : 0;
}

uint32_t ssd_ss_first(const struct ssd_ss *s)
{
	if ((s->state & SSD_SS_ATTAINED) || !(s->state & SSD_SS_BUFFER_FULL))
		return s->head;
	return s->head ? s->head - 1 : s->n - 1;
}

static int window_full(const struct ssd_ss *s)
{
	return (s->state & SSD_SS_BUFFER_FULL) || s->tail - s->head == s->n - 1;
}

/* The least-squares slope over the window (x = 0..n-1, oldest first). */
static int judge_slope(struct ssd_ss *s, const uint64_t *y, uint64_t v)
{
	if (!(s->state & SSD_SS_BUFFER_FULL)) {
		s->sum_y = s->sum_xy = 0;
		for (uint32_t i = 0; i < s->n; i++) {
			s->sum_y += y[i];
			s->sum_xy += (uint64_t)i * y[(s->head + i) % s->n];
		}
		s->state |= SSD_SS_BUFFER_FULL;
	} else {
		/* every x moves down by one and v enters at n - 1 */
		s->sum_y = s->sum_y - s->oldest_y + v;
		s->sum_xy = s->sum_xy - s->sum_y + (uint64_t)s->n * v;
	}
	s->oldest_y = y[s->head];
	double n = s->n;
	s->slope = ((double)s->sum_xy - (double)s->sum_x * (double)s->sum_y / n) /
		   ((double)s->sum_x_sq - (double)s->sum_x * (double)s->sum_x / n);
	s->criterion = s->state & SSD_SS_PCT
		? 100.0 * s->slope / (double)(s->sum_y / s->n) : s->slope;
	return fabs(s->criterion) < s->limit;
}

/* The largest distance of a sample from the window's mean. */
static int judge_deviation(struct ssd_ss *s, const uint64_t *y)
{
	if (!(s->state & SSD_SS_BUFFER_FULL)) {
		s->sum_y = 0;
		for (uint32_t i = 0; i < s->n; i++)
			s->sum_y += y[i];
		s->state |= SSD_SS_BUFFER_FULL;
	} else {
		s->sum_y = s->sum_y - s->oldest_y + y[s->tail];
	}
	s->oldest_y = y[s->head];
	double mean = (double)s->sum_y / s->n;
	s->deviation = 0;
	for (uint32_t i = 0; i < s->n; i++) {
		double d = fabs((double)y[i] - mean);
		if (d > s->deviation)
			s->deviation = d;
	}
	s->criterion = s->state & SSD_SS_PCT ? 100.0 * s->deviation / mean
					     : s->deviation;
	return s->criterion < s->limit;
}

int ssd_ss_add(struct ssd_ss *s, uint64_t iops, uint64_t bw, uint64_t lat)
{
	if (s->state & SSD_SS_ATTAINED)
		return 0;
	s->iops[s->tail] = iops;
	s->bw[s->tail] = bw;
	s->lat[s->tail] = lat;
	s->samples++;
	const uint64_t *y = series(s);
	if (window_full(s)) {
		int ok = s->state & SSD_SS_SLOPE ? judge_slope(s, y, y[s->tail])
						 : judge_deviation(s, y);
		if (ok) {
			s->state |= SSD_SS_ATTAINED;
			return 1;
		}
	}
	s->tail = (s->tail + 1) % s->n;
	if (s->tail == s->head)
		s->head = (s->head + 1) % s->n;
	return 0;
}
