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

#include "base/counters.h"
#include "base/util.h"

#define SSD_HIST_BITS 6
#define SSD_HIST_VAL (1 << SSD_HIST_BITS)
#define SSD_HIST_GROUPS 29
#define SSD_HIST_N (SSD_HIST_GROUPS * SSD_HIST_VAL)

struct ssd_hist {
	uint64_t n;
	uint64_t bucket[SSD_HIST_N];
};

/* Count one sample of `ns` nanoseconds.  O(1), no allocation. */
void ssd_hist_add(struct ssd_hist *h, uint64_t ns);
/* The p-th percentile (0 < p <= 100) in ns, fio's method (bucket's
 * representative value); 0 if empty. */
uint64_t ssd_hist_percentile(const struct ssd_hist *h, double p);
/* into += h, bucket by bucket. */
void ssd_hist_merge(struct ssd_hist *into, const struct ssd_hist *h);
/* The bucket a value falls in (fio's plat_val_to_idx): values below 128 ns
 * have a bucket each, above that 64 buckets per power of two; values past
 * the last group (>= 2^34 ns, about 17 s) land in the last bucket. */
unsigned ssd_hist_index(uint64_t ns);
/* The value a bucket stands for (fio's plat_idx_to_val): the bucket's own
 * value below 128, else the middle of its range, in ns.  idx is clamped to
 * SSD_HIST_N - 1. */
uint64_t ssd_hist_value(unsigned idx);

/* fio's default percentile list, as printed in its output. */
extern const double ssd_percentiles[];
extern const int ssd_npercentiles;

/* Running min/max/mean/stddev.  A zeroed struct is empty; min and max are
 * meaningful only when n > 0. */
struct ssd_moments {
	uint64_t n;
	double min, max, sum, sumsq;
};
void ssd_moments_add(struct ssd_moments *m, double v);
/* into becomes the moments of both sample sets together. */
void ssd_moments_merge(struct ssd_moments *into, const struct ssd_moments *m);
double ssd_moments_mean(const struct ssd_moments *m);   /* 0 if empty */
double ssd_moments_stddev(const struct ssd_moments *m); /* sample stddev
                                                           (n - 1); 0 if
                                                           n < 2 */

/* fio's completion-latency distribution ("lat (usec)   : 250=12.5%, ..."
 * and the JSON latency_ns/latency_us/latency_ms objects): exact counts in
 * 32 ranges, [0..9] nsec, [10..19] usec, [20..31] msec.  Within each unit
 * the ranges end at 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000 (and, for
 * msec, 2000 and >= 2000). */
#define SSD_LATDIST_N 32

/* One direction (read, write or trim) of one job.  Start from a zeroed
 * struct (win_ns may then be set). */
struct ssd_dstat {
	uint64_t ios;
	uint64_t bytes;
	struct ssd_moments lat;    /* completion latency, ns */
	struct ssd_hist hist;      /* completion latency, ns */
	uint64_t lat_dist[SSD_LATDIST_N]; /* completions per latency range */
	/* bandwidth/IOPS samples over fixed windows, like fio's bw_avg_time
	 * and iops_avg_time (500 ms).  Window k covers (k*win, (k+1)*win]
	 * of the job's measured time.  As in fio, a window in which this
	 * direction completed nothing gives no sample, and values are whole
	 * numbers (fio's integer arithmetic). */
	int64_t win_ns;            /* window length, ns (0 = 500 ms) */
	int64_t win_start;         /* start of the current window, ns */
	uint64_t win_bytes, win_ios;
	struct ssd_moments bw;     /* KiB/s per window */
	struct ssd_moments iops;   /* I/Os per second per window */
};

/* Count one completed I/O: `now` is the completion time relative to the
 * job's measurement start (ns), `lat` the latency in ns.  Completion times
 * must not decrease.  O(1), no allocation. */
void ssd_dstat_add(struct ssd_dstat *d, int64_t now, uint64_t bytes,
		   int64_t lat);
/* Close the window sampler at `end` (relative ns) -- a partial last
 * window is dropped, as fio does. */
void ssd_dstat_finish(struct ssd_dstat *d, int64_t end);
/* Merge for group_reporting, as fio's sum_thread_stats: counts, latency
 * moments and histograms combine as one sample set; bw and iops window
 * statistics are summed (min, max, mean and variance of the clones add
 * up, samples add), so the merged "mean" is the group's aggregate rate. */
void ssd_dstat_merge(struct ssd_dstat *into, const struct ssd_dstat *d);

/*
 * fio-format logs (write_iops_log, write_bw_log, write_lat_log,
 * write_hist_log), in fio 3.33's layout.  Each line is "time_ms, value,
 * ddir, bs, prio", with the offset before prio under log_offset=1
 * ("time_ms, value, ddir, bs, offset, prio").  time_ms is ms since the
 * job's measurement start, ddir 0 read, 1 write, 2 trim; prio is 0 (the
 * simulated host sets no I/O priority), or fio's hex form 0x0000 under
 * log_prio=1.  Without averaging there is one line per I/O: iops logs 1,
 * bw logs bs / latency in KiB/s, latency logs the latency in ns (slat:
 * 0, a simulated submission takes no time).  With log_avg_msec > 0 there
 * is one line per window and direction that saw I/O, stamped with the
 * window's end, bs and offset 0 (as fio): latency logs the mean
 * (rounded), iops and bw logs the rate over the window.  At close, as
 * fio 3.33 does, the latency logs write the last, partial window once,
 * stamped `end`; the iops and bw logs, whose windows are fio's bw/iops
 * samples, keep whole windows only (a last window that ends exactly at
 * `end` is whole).
 *
 * The histogram log (SSD_LOG_HIST, fio's PREFIX_clat_hist.N.log) has
 * lines "time_ms, ddir, bs, c0, c1, ..., cK": at the first completion of
 * a direction at least hist_ms after that direction's last line (or the
 * start), the completions of that direction since then, counted in the
 * latency histogram's SSD_HIST_N bins (fio's FIO_IO_U_PLAT_NR, 1856),
 * 2^coarseness neighbouring bins summed per column; bs is that I/O's.
 * Completions after the last line are not written (fio).  hist_ms = 0:
 * the file stays empty.  Adding is O(1); a line costs O(SSD_HIST_N).
 *
 * Lines are gathered in a 64 KiB buffer and handed to stdio when it
 * fills.  The file is written through base/ofile.h: under a temporary
 * name, renamed into place at close; with `append` (fio's
 * per_job_logs=0) the lines are gathered there and added to the file's
 * end at close, so each log's lines form one block.  A log that cannot
 * be written whole is not left (an appended one goes back to its length).
 */
enum ssd_log_kind { SSD_LOG_IOPS, SSD_LOG_BW, SSD_LOG_LAT, SSD_LOG_CLAT,
		    SSD_LOG_SLAT, SSD_LOG_HIST };
struct ssd_log;
struct ssd_log_opts {
	int64_t avg_ns;           /* averaging window (not HIST), 0 = per I/O */
	int offset;               /* offset column (log_offset) */
	int prio_hex;             /* prio as 0x0000 (log_prio) */
	int append;               /* append to the file (per_job_logs=0) */
	int64_t hist_ms;          /* HIST: interval in ms, 0 = no lines */
	unsigned hist_coarseness; /* HIST: 0..6 */
};
/* Open `path` for writing into *out.  Returns 0, or SSD_EINVAL (a kind
 * or coarseness out of range), SSD_EIO (the file cannot be created) or
 * SSD_ENOMEM, with *out NULL and a message in err.  o may be NULL (per
 * I/O, fio's default columns). */
int ssd_log_create(const char *path, int kind, const struct ssd_log_opts *o,
		   struct ssd_log **out, char *err, size_t errlen);
/* The same, returning the log, or NULL (err filled) on failure. */
struct ssd_log *ssd_log_open_opts(const char *path, int kind,
				  const struct ssd_log_opts *o, char *err,
				  size_t errlen);
/* The same with only an averaging window. */
struct ssd_log *ssd_log_open(const char *path, int kind, int64_t avg_ns,
			     char *err, size_t errlen);
/* One completed I/O at `now` (ns from the job's start), `bs` bytes at
 * byte `offset`, completion latency `lat` ns.  Times must not decrease.
 * No allocation; a NULL log is ignored. */
void ssd_log_add(struct ssd_log *l, int64_t now, int ddir, uint32_t bs,
		 uint64_t offset, int64_t lat);
/* Flush what is due (see above) and close; frees l (NULL is a no-op).
 * Returns 0, or SSD_EIO if any write failed, with a message naming the
 * file and the reason in err (err may be NULL). */
int ssd_log_close(struct ssd_log *l, int64_t end, char *err, size_t errlen);
/* Abandon the log (its job never ran): no file is made, one there is
 * left as it was.  Frees l (NULL is a no-op). */
void ssd_log_discard(struct ssd_log *l);

/* fio's log file name: "<prefix>_<kind>.<index>.log", kind one of iops,
 * bw, lat, clat, slat, clat_hist; index is the 1-based job number, and
 * index <= 0 leaves it out ("<prefix>_<kind>.log", per_job_logs=0).
 * (fio's write_lat_log writes three files: _lat, _clat and _slat.) */
void ssd_log_name(char *buf, size_t n, const char *prefix, int kind,
		  int index);

#endif
