/*
 * stats.c -- what a run measures.
 *
 * Four small machines, all fed in simulated time and none reading a clock:
 *
 * Latency histogram.  fio's log-linear layout (stat.c, plat_val_to_idx and
 * plat_idx_to_val): values below 2*64 = 128 ns get a bucket each; above
 * that, each power of two [2^m, 2^(m+1)) is cut into 64 equal buckets, so a
 * bucket is at most 1/64 of its value wide and its midpoint is within
 * 1/128 (0.8%) of any value in it.  29 groups of 64 buckets cover up to
 * 2^34 ns (about 17 s); slower samples go to the last bucket.  Adding a
 * sample is a bit scan, a shift, a mask and an increment.  Percentiles are
 * fio's calc_clat_percentiles: the first bucket at which the running count
 * reaches p% of the samples, reported as that bucket's value.
 *
 * Moments.  n, min, max, sum and sum of squares; mean and sample standard
 * deviation (n - 1), as fio's calc_lat.
 *
 * Window sampler.  fio's bw_avg_time / iops_avg_time: every 500 ms fio
 * takes the bytes and I/Os completed since the last sample and adds
 * bytes*1000/ms/1024 (KiB/s) and ios*1000/ms to its bw and iops statistics,
 * in integer arithmetic, skipping directions that completed nothing in the
 * window (stat.c, __add_samples: "No entries for interval").  Here windows
 * are (k*win, (k+1)*win] of the job's measured time; a window is closed by
 * the first completion after it or by ssd_dstat_finish(); the partial last
 * window is dropped because fio stops sampling when the job ends.
 *
 * Logs.  fio's write_{iops,bw,lat}_log text format; lines are formatted
 * by hand into a 64 KiB buffer handed to stdio when full (no printf and no
 * stdio locking per I/O).
 */
#include "stats/stats.h"

#include "base/config.h"
#include "base/ofile.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- latency histogram ---- */

static inline unsigned hist_index(uint64_t ns)
{
	if (ns < 2 * SSD_HIST_VAL)
		return (unsigned)ns;
	unsigned msb = 63u - (unsigned)__builtin_clzll(ns);
	unsigned error_bits = msb - SSD_HIST_BITS;
	unsigned idx = ((error_bits + 1) << SSD_HIST_BITS) +
		       (unsigned)((ns >> error_bits) & (SSD_HIST_VAL - 1));
	return idx < SSD_HIST_N - 1 ? idx : SSD_HIST_N - 1;
}

unsigned ssd_hist_index(uint64_t ns)
{
	return hist_index(ns);
}

uint64_t ssd_hist_value(unsigned idx)
{
	if (idx >= SSD_HIST_N)
		idx = SSD_HIST_N - 1;
	if (idx < 2 * SSD_HIST_VAL)
		return idx;
	unsigned error_bits = (idx >> SSD_HIST_BITS) - 1;
	uint64_t base = 1ULL << (error_bits + SSD_HIST_BITS);
	uint64_t k = idx % SSD_HIST_VAL;
	/* fio: base + (k + 0.5) * 2^error_bits, exact since error_bits >= 1 */
	return base + ((2 * k + 1) << (error_bits - 1));
}

void ssd_hist_add(struct ssd_hist *h, uint64_t ns)
{
	h->n++;
	h->bucket[hist_index(ns)]++;
}

uint64_t ssd_hist_percentile(const struct ssd_hist *h, double p)
{
	if (!h->n)
		return 0;
	/* fio compares in long double; so do we, for the same answers */
	long double target = (long double)p / 100.0 * (long double)h->n;
	uint64_t sum = 0;
	for (unsigned i = 0; i < SSD_HIST_N; i++) {
		sum += h->bucket[i];
		if ((long double)sum >= target)
			return ssd_hist_value(i);
	}
	return ssd_hist_value(SSD_HIST_N - 1);
}

void ssd_hist_merge(struct ssd_hist *into, const struct ssd_hist *h)
{
	into->n += h->n;
	for (unsigned i = 0; i < SSD_HIST_N; i++)
		into->bucket[i] += h->bucket[i];
}

const double ssd_percentiles[] = {
	1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0,
	95.0, 99.0, 99.5, 99.9, 99.95, 99.99
};
const int ssd_npercentiles =
	(int)(sizeof ssd_percentiles / sizeof ssd_percentiles[0]);

/* ---- moments ---- */

void ssd_moments_add(struct ssd_moments *m, double v)
{
	if (!m->n || v < m->min)
		m->min = v;
	if (!m->n || v > m->max)
		m->max = v;
	m->n++;
	m->sum += v;
	m->sumsq += v * v;
}

void ssd_moments_merge(struct ssd_moments *into, const struct ssd_moments *m)
{
	if (!m->n)
		return;
	if (!into->n) {
		*into = *m;
		return;
	}
	if (m->min < into->min)
		into->min = m->min;
	if (m->max > into->max)
		into->max = m->max;
	into->n += m->n;
	into->sum += m->sum;
	into->sumsq += m->sumsq;
}

double ssd_moments_mean(const struct ssd_moments *m)
{
	return m->n ? m->sum / (double)m->n : 0.0;
}

/* Sum of squared deviations from the mean. */
static double moments_s(const struct ssd_moments *m)
{
	if (!m->n)
		return 0.0;
	double s = m->sumsq - m->sum * m->sum / (double)m->n;
	return s > 0.0 ? s : 0.0;
}

double ssd_moments_stddev(const struct ssd_moments *m)
{
	if (m->n < 2)
		return 0.0;
	return sqrt(moments_s(m) / (double)(m->n - 1));
}

/*
 * fio's sum_stat(..., pure_sum = true) for group_reporting of bw and iops:
 * min, max, mean and S (the sum of squared deviations) of the clones are
 * added, and so are the sample counts.  Re-expressed in sum / sumsq.
 */
static void moments_pure_sum(struct ssd_moments *into,
			     const struct ssd_moments *m)
{
	if (!m->n)
		return;
	if (!into->n) {
		*into = *m;
		return;
	}
	double mean = ssd_moments_mean(into) + ssd_moments_mean(m);
	double s = moments_s(into) + moments_s(m);
	into->min += m->min;
	into->max += m->max;
	into->n += m->n;
	into->sum = mean * (double)into->n;
	into->sumsq = s + into->sum * into->sum / (double)into->n;
}

/* ---- one direction of one job ---- */

#define SSD_DSTAT_WIN_DEFAULT (500 * SSD_MS)

/* fio's 10 ranges within one unit, for v in [0, 999]: ends 2, 4, 10, 20,
 * 50, 100, 250, 500, 750, 1000.  Counted without branches: latencies are
 * spread over the ranges, and mispredicted branches cost more than nine
 * compares. */
static inline unsigned latdist_range(uint64_t v)
{
	return (unsigned)(v >= 2) + (v >= 4) + (v >= 10) + (v >= 20) +
	       (v >= 50) + (v >= 100) + (v >= 250) + (v >= 500) + (v >= 750);
}

/* fio's io_u_mark_latency: nsec below 1 us, usec below 1 ms, else msec. */
static inline unsigned latdist_index(uint64_t ns)
{
	if (ns < 1000)
		return latdist_range(ns);
	if (ns < 1000000)
		return 10 + latdist_range(ns / 1000);
	uint64_t ms = ns / 1000000;
	if (ms >= 2000)
		return 31;
	if (ms >= 1000)
		return 30;
	return 20 + latdist_range(ms);
}

static inline int64_t dstat_win(const struct ssd_dstat *d)
{
	return d->win_ns > 0 ? d->win_ns : SSD_DSTAT_WIN_DEFAULT;
}

/* Close the current window of `win` ns: one bw and one iops sample if the
 * direction completed anything in it (fio's integer rates). */
static void dstat_sample(struct ssd_dstat *d, int64_t win)
{
	if (d->win_ios) {
		unsigned __int128 b = (unsigned __int128)d->win_bytes * SSD_S;
		uint64_t bw = (uint64_t)(b / (uint64_t)win) / 1024;
		uint64_t iops = (uint64_t)((unsigned __int128)d->win_ios *
					   SSD_S / (uint64_t)win);
		ssd_moments_add(&d->bw, (double)bw);
		ssd_moments_add(&d->iops, (double)iops);
	}
	d->win_bytes = 0;
	d->win_ios = 0;
}

void ssd_dstat_add(struct ssd_dstat *d, int64_t now, uint64_t bytes,
		   int64_t lat)
{
	uint64_t ns = lat > 0 ? (uint64_t)lat : 0;
	int64_t win = dstat_win(d);

	d->ios++;
	d->bytes += bytes;
	ssd_moments_add(&d->lat, (double)ns);
	ssd_hist_add(&d->hist, ns);
	d->lat_dist[latdist_index(ns)]++;

	if (now > d->win_start + win) {
		/* past the current window: close it; empty windows in
		 * between give no sample (fio) */
		dstat_sample(d, win);
		d->win_start = (now - 1) / win * win;
	}
	d->win_bytes += bytes;
	d->win_ios++;
}

void ssd_dstat_finish(struct ssd_dstat *d, int64_t end)
{
	int64_t win = dstat_win(d);
	if (end >= d->win_start + win)
		dstat_sample(d, win);
	/* whatever is left belongs to a partial window: dropped */
	d->win_bytes = 0;
	d->win_ios = 0;
	if (end > d->win_start)
		d->win_start = end / win * win;
}

void ssd_dstat_merge(struct ssd_dstat *into, const struct ssd_dstat *d)
{
	into->ios += d->ios;
	into->bytes += d->bytes;
	ssd_moments_merge(&into->lat, &d->lat);
	ssd_hist_merge(&into->hist, &d->hist);
	for (int i = 0; i < SSD_LATDIST_N; i++)
		into->lat_dist[i] += d->lat_dist[i];
	moments_pure_sum(&into->bw, &d->bw);
	moments_pure_sum(&into->iops, &d->iops);
	if (!into->win_ns)
		into->win_ns = d->win_ns;
}

/* ---- fio-format logs ---- */

#define LOG_NDIR 3                  /* read, write, trim */
#define LOG_BUFSIZE (64u << 10)     /* bytes gathered per fwrite: ~1000
                                       lines, small enough for many logs */
#define LOG_LINE_MAX 128            /* longest line: 6 fields of <= 20
                                       digits and 5 separators */
#define LOG_NUM_MAX 22              /* a number and its separator */

struct ssd_log {
	struct ssd_ofile *of;       /* the file (base/ofile.h) */
	FILE *f;                    /* its stream */
	char *buf;                  /* lines not yet written */
	size_t len;                 /* bytes in buf */
	int kind;                   /* enum ssd_log_kind */
	int offset;                 /* an offset column */
	int prio_hex;               /* priority as 0x0000, else 0 */
	int64_t avg_ns;             /* averaging window, 0 = per I/O */
	int64_t win_start;          /* averaging: start of the open window */
	uint64_t n[LOG_NDIR];       /* averaging: I/Os in the open window */
	uint64_t sum[LOG_NDIR];     /* averaging: ns (lat kinds) or bytes */
	/* histogram log */
	int64_t hist_ms;            /* interval, ms; 0 = no lines */
	unsigned stride;            /* bins summed per column: 2^coarseness */
	int64_t hist_last[LOG_NDIR];/* ms of the direction's last line */
	uint64_t *hist;             /* LOG_NDIR x SSD_HIST_N completions
	                               since the direction's last line */
};

static const char *const log_kind_name[] = {
	[SSD_LOG_IOPS] = "iops",
	[SSD_LOG_BW] = "bw",
	[SSD_LOG_LAT] = "lat",
	[SSD_LOG_CLAT] = "clat",
	[SSD_LOG_SLAT] = "slat",
	[SSD_LOG_HIST] = "clat_hist",
};
#define LOG_NKINDS ((int)(sizeof log_kind_name / sizeof log_kind_name[0]))

void ssd_log_name(char *buf, size_t n, const char *prefix, int kind,
		  int index)
{
	const char *k = kind >= 0 && kind < LOG_NKINDS ? log_kind_name[kind]
						       : "unknown";
	if (index > 0)
		snprintf(buf, n, "%s_%s.%d.log", prefix, k, index);
	else
		snprintf(buf, n, "%s_%s.log", prefix, k);
}

int ssd_log_create(const char *path, int kind, const struct ssd_log_opts *o,
		   struct ssd_log **out, char *err, size_t errlen)
{
	static const struct ssd_log_opts none;
	*out = NULL;
	if (!o)
		o = &none;
	if (kind < 0 || kind >= LOG_NKINDS) {
		snprintf(err, errlen, "%s: unknown log kind %d", path, kind);
		return SSD_EINVAL;
	}
	if (o->hist_coarseness > 6) {
		snprintf(err, errlen, "%s: histogram coarseness %u (accepted: "
			 "0..6)", path, o->hist_coarseness);
		return SSD_EINVAL;
	}
	/* the memory first: out of it, no file is created */
	struct ssd_log *l = calloc(1, sizeof *l);
	if (l && kind == SSD_LOG_HIST && o->hist_ms > 0)
		l->hist = calloc(LOG_NDIR * SSD_HIST_N, sizeof *l->hist);
	if (l)
		l->buf = calloc(1, LOG_BUFSIZE);
	if (!l || !l->buf || (kind == SSD_LOG_HIST && o->hist_ms > 0 &&
			      !l->hist)) {
		if (l) {
			free(l->hist);
			free(l->buf);
		}
		free(l);
		snprintf(err, errlen, "%s: out of memory", path);
		return SSD_ENOMEM;
	}
	int rc = ssd_ofile_open(path, o->append ? SSD_OFILE_APPEND
					      : SSD_OFILE_REPLACE, &l->of, err, errlen);
	if (rc) {
		free(l->hist);
		free(l->buf);
		free(l);
		return rc;
	}
	l->f = ssd_ofile_stream(l->of);
	l->kind = kind;
	l->offset = o->offset;
	l->prio_hex = o->prio_hex;
	l->avg_ns = kind != SSD_LOG_HIST && o->avg_ns > 0 ? o->avg_ns : 0;
	if (kind == SSD_LOG_HIST) {
		l->hist_ms = o->hist_ms > 0 ? o->hist_ms : 0;
		l->stride = 1u << o->hist_coarseness;
	}
	*out = l;
	return 0;
}

struct ssd_log *ssd_log_open_opts(const char *path, int kind,
				  const struct ssd_log_opts *o, char *err,
				  size_t errlen)
{
	struct ssd_log *l;
	ssd_log_create(path, kind, o, &l, err, errlen);
	return l;
}

struct ssd_log *ssd_log_open(const char *path, int kind, int64_t avg_ns,
			     char *err, size_t errlen)
{
	struct ssd_log_opts o = {.avg_ns = avg_ns};
	return ssd_log_open_opts(path, kind, &o, err, errlen);
}

/* Hand the gathered lines to stdio (a failure stays in the stream, for
 * the close). */
static void log_flush_buf(struct ssd_log *l)
{
	if (l->len)
		fwrite(l->buf, 1, l->len, l->f);
	l->len = 0;
}

/* Decimal digits of v at p, two at a time; returns the end. */
static inline char *put_u64(char *p, uint64_t v)
{
	static const char pairs[201] =
		"00010203040506070809101112131415161718192021222324252627282930"
		"31323334353637383940414243444546474849505152535455565758596061"
		"62636465666768697071727374757677787980818283848586878889909192"
		"93949596979899";
	char tmp[20];
	int n = 20;
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		tmp[--n] = pairs[2 * r + 1];
		tmp[--n] = pairs[2 * r];
	}
	if (v >= 10) {
		tmp[--n] = pairs[2 * v + 1];
		tmp[--n] = pairs[2 * v];
	} else {
		tmp[--n] = (char)('0' + v);
	}
	memcpy(p, tmp + n, (size_t)(20 - n));
	return p + (20 - n);
}

static inline char *put_sep(char *p)
{
	p[0] = ',';
	p[1] = ' ';
	return p + 2;
}

/* fio 3.33's line, "time_ms, value, ddir, bs[, offset], prio\n",
 * appended to the buffer (one fwrite per LOG_BUFSIZE bytes keeps stdio's
 * locking off the hot path).  The simulated host gives its commands no
 * I/O priority: prio is 0 (not the highest real-time class), or with
 * log_prio fio's hex priority value 0x0000. */
static void log_line(struct ssd_log *l, int64_t t_ns, uint64_t value,
		     int ddir, uint64_t bs, uint64_t offset)
{
	if (l->len > LOG_BUFSIZE - LOG_LINE_MAX)
		log_flush_buf(l);
	char *p = l->buf + l->len;
	p = put_u64(p, t_ns > 0 ? (uint64_t)t_ns / SSD_MS : 0);
	p = put_sep(p);
	p = put_u64(p, value);
	p = put_sep(p);
	p = put_u64(p, (uint64_t)ddir);
	p = put_sep(p);
	p = put_u64(p, bs);
	p = put_sep(p);
	if (l->offset) {
		p = put_u64(p, offset);
		p = put_sep(p);
	}
	if (l->prio_hex) {
		memcpy(p, "0x0000", 6);
		p += 6;
	} else {
		*p++ = '0';
	}
	*p++ = '\n';
	l->len = (size_t)(p - l->buf);
}

/* fio's histogram log line: "time_ms, ddir, bs, c0, c1, ...\n", the
 * direction's completions per bin (summed `stride` bins at a time) since
 * its last line; the counts are then cleared. */
static void log_hist_line(struct ssd_log *l, int64_t ms, int ddir,
			  uint64_t bs)
{
	unsigned cols = SSD_HIST_N / l->stride;
	if (l->len + (size_t)(cols + 3) * LOG_NUM_MAX + 1 > LOG_BUFSIZE)
		log_flush_buf(l);
	uint64_t *h = l->hist + (size_t)ddir * SSD_HIST_N;
	char *p = l->buf + l->len;
	p = put_u64(p, (uint64_t)ms);
	p = put_sep(p);
	p = put_u64(p, (uint64_t)ddir);
	p = put_sep(p);
	p = put_u64(p, bs);
	for (unsigned c = 0; c < cols; c++) {
		uint64_t sum = 0;
		for (unsigned k = 0; k < l->stride; k++)
			sum += h[c * l->stride + k];
		p = put_sep(p);
		p = put_u64(p, sum);
	}
	*p++ = '\n';
	l->len = (size_t)(p - l->buf);
	memset(h, 0, SSD_HIST_N * sizeof *h);
}

/* KiB/s of `bytes` over `ns`, fio's integer truncation. */
static inline uint64_t rate_kib(uint64_t bytes, int64_t ns)
{
	if (ns <= 0)
		return 0;
	return (uint64_t)((unsigned __int128)bytes * SSD_S / (uint64_t)ns) /
	       1024;
}

static inline uint64_t rate_ios(uint64_t ios, int64_t ns)
{
	if (ns <= 0)
		return 0;
	return (uint64_t)((unsigned __int128)ios * SSD_S / (uint64_t)ns);
}

/* Write the open window, ending at `t`, one line per direction that saw
 * I/O, and empty it. */
static void log_flush_window(struct ssd_log *l, int64_t t)
{
	int64_t dur = t - l->win_start;
	for (int d = 0; d < LOG_NDIR; d++) {
		uint64_t n = l->n[d];
		if (!n)
			continue;
		uint64_t v;
		switch (l->kind) {
		case SSD_LOG_IOPS: v = rate_ios(n, dur); break;
		case SSD_LOG_BW: v = rate_kib(l->sum[d], dur); break;
		case SSD_LOG_SLAT: v = 0; break;
		default: v = (l->sum[d] + n / 2) / n; break; /* fio: +0.5 */
		}
		log_line(l, t, v, d, 0, 0);
		l->n[d] = 0;
		l->sum[d] = 0;
	}
}

void ssd_log_add(struct ssd_log *l, int64_t now, int ddir, uint32_t bs,
		 uint64_t offset, int64_t lat)
{
	if (!l || ddir < 0 || ddir >= LOG_NDIR)
		return;
	uint64_t ns = lat > 0 ? (uint64_t)lat : 0;

	if (l->kind == SSD_LOG_HIST) {
		if (!l->hist)
			return;
		l->hist[(size_t)ddir * SSD_HIST_N + ssd_hist_index(ns)]++;
		int64_t ms = now > 0 ? now / SSD_MS : 0;
		if (ms - l->hist_last[ddir] >= l->hist_ms) {
			log_hist_line(l, ms, ddir, bs);
			l->hist_last[ddir] = ms;
		}
		return;
	}

	if (!l->avg_ns) {
		uint64_t v;
		switch (l->kind) {
		case SSD_LOG_IOPS: v = 1; break;
		case SSD_LOG_BW: v = rate_kib(bs, (int64_t)ns); break;
		case SSD_LOG_SLAT: v = 0; break;
		default: v = ns; break;
		}
		log_line(l, now, v, ddir, bs, offset);
		return;
	}

	if (now > l->win_start + l->avg_ns) {
		log_flush_window(l, l->win_start + l->avg_ns);
		l->win_start = (now - 1) / l->avg_ns * l->avg_ns;
	}
	l->n[ddir]++;
	l->sum[ddir] += l->kind == SSD_LOG_BW ? bs : ns;
}

void ssd_log_discard(struct ssd_log *l)
{
	if (!l)
		return;
	ssd_ofile_discard(l->of);
	free(l->hist);
	free(l->buf);
	free(l);
}

int ssd_log_close(struct ssd_log *l, int64_t end, char *err, size_t errlen)
{
	if (!l)
		return 0;
	if (l->avg_ns) {
		/* fio flushes the latency logs' open window at the job's
		 * end; its bandwidth and IOPS logs keep whole windows only */
		int64_t wend = l->win_start + l->avg_ns;
		int lat = l->kind != SSD_LOG_IOPS && l->kind != SSD_LOG_BW;
		if (lat || end >= wend)
			log_flush_window(l, end < wend ? end : wend);
	}
	log_flush_buf(l);
	/* a failed write shows in the stream: the commit says why */
	int rc = ssd_ofile_commit(l->of, err, errlen);
	free(l->hist);
	free(l->buf);
	free(l);
	return rc;
}
