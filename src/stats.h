/*
 * stats.h -- what a run measures: drive counters, per-direction latency
 * histograms and bandwidth/IOPS samples, and fio-format log files.
 *
 * Latency histogram: fio's log-linear layout (FIO_IO_U_PLAT_BITS = 6, 64
 * buckets per power of two, 29 groups, values in ns), so percentiles have
 * fio's resolution (< 1.6% relative error) in fixed memory.  Adding a
 * sample is O(1): a bit scan and an increment.
 *
 * Everything is in simulated time; nothing here reads a clock.
 */
#ifndef SSD_STATS_H
#define SSD_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "util.h"

/* Drive-wide counters, kept by the FTL and device; a job's figures are
 * the difference of two snapshots.  "lp" = 4 KiB logical page. */
struct ssd_counters {
	uint64_t host_read_lp;     /* host 4 KiB pages read */
	uint64_t host_write_lp;    /* host 4 KiB pages written */
	uint64_t host_trim_lp;     /* host 4 KiB pages trimmed */
	uint64_t host_unmapped_read_lp; /* reads of unmapped pages (no NAND) */
	uint64_t nand_read;        /* NAND page reads */
	uint64_t nand_prog;        /* NAND page programs */
	uint64_t nand_prog_lp;     /* 4 KiB units programmed (incl. padding) */
	uint64_t nand_erase;       /* block erases */
	uint64_t gc_copy_lp;       /* 4 KiB units moved by GC */
	uint64_t gc_victims;       /* blocks cleaned by GC */
	uint64_t gc_bg_copy_lp;    /* of which in idle-time background GC */
	uint64_t pad_lp;           /* 4 KiB units of padding (flush) */
	uint64_t flushes;          /* host flush commands */
};

/* c = a - b, field by field. */
void ssd_counters_sub(struct ssd_counters *c, const struct ssd_counters *a,
		      const struct ssd_counters *b);

#define SSD_HIST_BITS 6
#define SSD_HIST_VAL (1 << SSD_HIST_BITS)
#define SSD_HIST_GROUPS 29
#define SSD_HIST_N (SSD_HIST_GROUPS * SSD_HIST_VAL)

struct ssd_hist {
	uint64_t n;
	uint64_t bucket[SSD_HIST_N];
};

void ssd_hist_add(struct ssd_hist *h, uint64_t ns);
/* The p-th percentile (0 < p <= 100) in ns, fio's method (bucket's
 * representative value); 0 if empty. */
uint64_t ssd_hist_percentile(const struct ssd_hist *h, double p);
void ssd_hist_merge(struct ssd_hist *into, const struct ssd_hist *h);

/* fio's default percentile list, as printed in its output. */
extern const double ssd_percentiles[];
extern const int ssd_npercentiles;

/* Running min/max/mean/stddev. */
struct ssd_moments {
	uint64_t n;
	double min, max, sum, sumsq;
};
void ssd_moments_add(struct ssd_moments *m, double v);
void ssd_moments_merge(struct ssd_moments *into, const struct ssd_moments *m);
double ssd_moments_mean(const struct ssd_moments *m);
double ssd_moments_stddev(const struct ssd_moments *m); /* sample stddev */

/* One direction (read, write or trim) of one job. */
struct ssd_dstat {
	uint64_t ios;
	uint64_t bytes;
	struct ssd_moments lat;    /* completion latency, ns */
	struct ssd_hist hist;      /* completion latency, ns */
	/* bandwidth/IOPS samples over fixed windows, like fio's bw_avg_time
	 * and iops_avg_time (500 ms): */
	int64_t win_ns;            /* window length, ns (0 = 500 ms) */
	int64_t win_start;         /* start of the current window, ns */
	uint64_t win_bytes, win_ios;
	struct ssd_moments bw;     /* KiB/s per window */
	struct ssd_moments iops;   /* I/Os per second per window */
};

/* Count one completed I/O: `now` is the completion time relative to the
 * job's measurement start (ns), `lat` the latency in ns. */
void ssd_dstat_add(struct ssd_dstat *d, int64_t now, uint64_t bytes,
		   int64_t lat);
/* Close the window sampler at `end` (relative ns) -- a partial last
 * window is dropped, as fio does. */
void ssd_dstat_finish(struct ssd_dstat *d, int64_t end);
void ssd_dstat_merge(struct ssd_dstat *into, const struct ssd_dstat *d);

/*
 * fio-format logs (write_iops_log, write_bw_log, write_lat_log).  Each line
 * is "time_ms, value, ddir, bs, offset" as fio 3 writes it; with
 * log_avg_msec > 0 values are averaged over windows of that length (and bs
 * and offset are 0), else one line per I/O.  Units as fio: bw in KiB/s,
 * latency in ns, iops in I/Os per second.
 */
enum ssd_log_kind { SSD_LOG_IOPS, SSD_LOG_BW, SSD_LOG_LAT, SSD_LOG_CLAT,
		    SSD_LOG_SLAT };
struct ssd_log;
/* Open `path` for writing.  Returns NULL and fills err on failure. */
struct ssd_log *ssd_log_open(const char *path, int kind, int64_t avg_ns,
			     char *err, size_t errlen);
/* One completed I/O at `now` (ns from the job's start). */
void ssd_log_add(struct ssd_log *l, int64_t now, int ddir, uint32_t bs,
		 uint64_t offset, int64_t lat);
/* Flush the last window (if averaging) and close.  Returns 0 or SSD_EIO. */
int ssd_log_close(struct ssd_log *l, int64_t end);

/* fio's log file name: "<prefix>_<kind>.<index>.log", kind one of iops,
 * bw, lat, clat, slat; index is the 1-based job number. */
void ssd_log_name(char *buf, size_t n, const char *prefix, int kind,
		  int index);

#endif
