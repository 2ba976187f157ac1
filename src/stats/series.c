/*
 * series.c -- per-interval time series (see series.h).
 */
#include "stats/series.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void ssd_series_init(struct ssd_series *s, int64_t t0, int64_t step)
{
	memset(s, 0, sizeof *s);
	s->t0 = t0;
	s->step = step > 0 ? step : SSD_S;
}

void ssd_series_free(struct ssd_series *s)
{
	free(s->pt);
	s->pt = NULL;
	s->n = s->cap = 0;
}

static int grow(struct ssd_series *s, uint32_t n)
{
	if (n <= s->cap)
		return 0;
	uint32_t cap = s->cap ? s->cap : 256;
	while (cap < n)
		cap *= 2;
	struct ssd_series_pt *p = realloc(s->pt, (size_t)cap * sizeof *p);
	if (!p) {
		s->oom = 1;
		return SSD_ENOMEM;
	}
	memset(p + s->cap, 0, (size_t)(cap - s->cap) * sizeof *p);
	s->pt = p;
	s->cap = cap;
	return 0;
}

void ssd_series_extend(struct ssd_series *s, int64_t t)
{
	if (t <= s->t0)
		return;
	uint64_t n = (uint64_t)((t - s->t0 + s->step - 1) / s->step);
	if (n > UINT32_MAX / 2 || grow(s, (uint32_t)n))
		return;
	if (n > s->n)
		s->n = (uint32_t)n;
}

void ssd_series_add(struct ssd_series *s, int64_t t, int ddir, uint64_t bytes,
		    int64_t lat)
{
	if (t < s->t0 || ddir < 0 || ddir >= SSD_DDIR_N)
		return;
	uint64_t i = (uint64_t)((t - s->t0) / s->step);
	if (i >= s->n) {
		if (i >= UINT32_MAX / 2 || grow(s, (uint32_t)i + 1))
			return;
		s->n = (uint32_t)i + 1;
	}
	struct ssd_series_pt *p = &s->pt[i];
	p->ios[ddir]++;
	p->bytes[ddir] += bytes;
	p->lat_sum[ddir] += lat;
	if (lat > p->lat_max[ddir])
		p->lat_max[ddir] = lat;
}

double ssd_series_iops(const struct ssd_series *s, uint32_t i, int ddir)
{
	return (double)s->pt[i].ios[ddir] * 1e9 / (double)s->step;
}

double ssd_series_mbps(const struct ssd_series *s, uint32_t i, int ddir)
{
	return (double)s->pt[i].bytes[ddir] * 1e3 / (double)s->step;
}

static double mean_us(const struct ssd_series_pt *p, int d)
{
	return p->ios[d] ? (double)p->lat_sum[d] / (double)p->ios[d] / 1e3 : 0;
}

int ssd_series_write_csv(const struct ssd_series *s, FILE *out)
{
	fprintf(out, "time_s,read_iops,write_iops,trim_iops,read_mbps,"
		     "write_mbps,read_lat_mean_us,write_lat_mean_us,"
		     "read_lat_max_us,write_lat_max_us\n");
	for (uint32_t i = 0; i < s->n; i++) {
		const struct ssd_series_pt *p = &s->pt[i];
		fprintf(out, "%.3f,%.1f,%.1f,%.1f,%.3f,%.3f,%.1f,%.1f,%.1f,%.1f\n",
			(double)(i + 1) * (double)s->step / 1e9,
			ssd_series_iops(s, i, SSD_DDIR_READ),
			ssd_series_iops(s, i, SSD_DDIR_WRITE),
			ssd_series_iops(s, i, SSD_DDIR_TRIM),
			ssd_series_mbps(s, i, SSD_DDIR_READ),
			ssd_series_mbps(s, i, SSD_DDIR_WRITE),
			mean_us(p, SSD_DDIR_READ), mean_us(p, SSD_DDIR_WRITE),
			(double)p->lat_max[SSD_DDIR_READ] / 1e3,
			(double)p->lat_max[SSD_DDIR_WRITE] / 1e3);
	}
	return ferror(out) ? SSD_EIO : 0;
}
