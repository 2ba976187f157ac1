/*
 * series.h -- per-interval time series of a run: for each step of
 * simulated time (1 s, 0.5 s...), the I/Os, bytes and latencies completed
 * in it, per direction.  Scenarios plot them (IOPS every second, MB/s
 * every half second) and write them as CSV.
 *
 * Adding a completion is O(1) amortised (the array grows by doubling as
 * time advances); memory is one point per step of the run.
 */
#ifndef SSD_SERIES_H
#define SSD_SERIES_H

#include <stdint.h>
#include <stdio.h>

#include "base/io.h"

struct ssd_series_pt {
	uint64_t ios[SSD_DDIR_N];
	uint64_t bytes[SSD_DDIR_N];
	int64_t lat_sum[SSD_DDIR_N];  /* ns */
	int64_t lat_max[SSD_DDIR_N];  /* ns */
};

struct ssd_series {
	int64_t t0;      /* start of point 0, simulated ns */
	int64_t step;    /* ns per point */
	uint32_t n, cap; /* points used, allocated */
	struct ssd_series_pt *pt;
	int oom;         /* an allocation failed: later points are lost */
};

/* Start an empty series at t0 with points `step` ns long. */
void ssd_series_init(struct ssd_series *s, int64_t t0, int64_t step);
void ssd_series_free(struct ssd_series *s);
/* A command completed at t (>= t0) after lat ns. */
void ssd_series_add(struct ssd_series *s, int64_t t, int ddir, uint64_t bytes,
		    int64_t lat);
/* Extend the series with empty points up to time t (idle periods show as
 * zeros). */
void ssd_series_extend(struct ssd_series *s, int64_t t);
/* Rate helpers for point i: I/Os per second and MB/s (10^6 B/s). */
double ssd_series_iops(const struct ssd_series *s, uint32_t i, int ddir);
double ssd_series_mbps(const struct ssd_series *s, uint32_t i, int ddir);
/* CSV: "time_s,read_iops,write_iops,trim_iops,read_mbps,write_mbps,
 * read_lat_mean_us,write_lat_mean_us,read_lat_max_us,write_lat_max_us",
 * one line per point (time = the point's end, seconds from t0). */
int ssd_series_write_csv(const struct ssd_series *s, FILE *out);

#endif
