/*
 * steadystate.h -- fio's steady-state detection (steadystate=, ss_dur=,
 * ss_ramp=, ss_interval=): a job ends once its IOPS, bandwidth or mean
 * latency over a rolling window of ss_dur / ss_interval samples is
 * steady.
 *
 * The runner takes one sample per ss_interval of simulated time (after
 * ss_ramp plus one interval): the I/Os, bytes and mean completion latency
 * of the interval, as whole numbers per second (fio's integer
 * arithmetic).  Once the window is full every new sample is judged:
 *
 *   iops, bw, lat            the largest |sample - mean| of the window
 *                            (with N%: 100 x that / mean) below the limit;
 *   iops_slope, bw_slope,    the least-squares slope of the samples
 *   lat_slope                against their index (with N%: 100 x slope /
 *                            the integer mean) below the limit in absolute
 *                            value.
 *
 * The sums of the slope are updated in O(1) per sample, as fio does; the
 * deviation scans the window (ss_dur / ss_interval samples, once a
 * second).  Pure: no time, no I/O.
 */
#ifndef SSD_STEADYSTATE_H
#define SSD_STEADYSTATE_H

#include <stdint.h>

enum {
	SSD_SS_IOPS = 1 << 0,
	SSD_SS_BW = 1 << 1,
	SSD_SS_SLOPE = 1 << 2,
	SSD_SS_PCT = 1 << 3,
	SSD_SS_LAT = 1 << 4,
	SSD_SS_ATTAINED = 1 << 5,
	SSD_SS_BUFFER_FULL = 1 << 6,
};

struct ssd_ss {
	int state;            /* SSD_SS_* */
	double limit;
	uint32_t n;           /* samples in the window */
	uint32_t dur_s;       /* ss_dur, seconds (reports) */
	uint32_t head, tail;  /* the window as a ring */
	uint64_t *iops, *bw, *lat; /* [n] each */
	uint64_t samples;     /* samples taken */
	double slope, deviation, criterion;
	uint64_t sum_y, sum_x, sum_x_sq, sum_xy, oldest_y;
};

/* 0, or SSD_ENOMEM.  n >= 2. */
int ssd_ss_init(struct ssd_ss *s, int state, double limit, uint32_t n,
		uint32_t dur_s);
void ssd_ss_free(struct ssd_ss *s);
/* One sample; returns 1 when it makes the window steady (ATTAINED set). */
int ssd_ss_add(struct ssd_ss *s, uint64_t iops, uint64_t bw, uint64_t lat);
/* Integer mean of a window array (fio: sum / samples in the window). */
uint64_t ssd_ss_mean(const struct ssd_ss *s, const uint64_t *v);
/* Index of the oldest sample, for printing the window in order. */
uint32_t ssd_ss_first(const struct ssd_ss *s);

#endif
