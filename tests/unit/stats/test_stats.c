/* Unit tests for stats.c: fio's histogram and percentiles, moments, the
 * bandwidth/IOPS window sampler and fio-format log files. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/ofile.h"
#include "stats/stats.h"
#include "t.h"

/* ---- histogram ---- */

TEST(hist_index_value_round_trip)
{
	uint64_t prev = 0;
	for (unsigned i = 0; i < SSD_HIST_N; i++) {
		uint64_t v = ssd_hist_value(i);
		CHECKF(ssd_hist_index(v) == i, "idx %u value %llu -> %u", i,
		       (unsigned long long)v, ssd_hist_index(v));
		CHECKF(i == 0 || v > prev, "values not increasing at %u", i);
		prev = v;
	}
}

TEST(hist_known_fio_values)
{
	/* exact below 128 ns, then 64 buckets per power of two */
	CHECK(ssd_hist_index(0) == 0);
	CHECK(ssd_hist_index(127) == 127);
	CHECK(ssd_hist_index(128) == 128);
	CHECK(ssd_hist_index(129) == 128);
	CHECK(ssd_hist_index(255) == 191);
	CHECK(ssd_hist_index(256) == 192);
	CHECK(ssd_hist_value(127) == 127);
	CHECK(ssd_hist_value(128) == 129);  /* 128 + 0.5 * 2 */
	CHECK(ssd_hist_value(192) == 258);  /* 256 + 0.5 * 4 */
	/* last bucket: 2^33 + 63.5 * 2^27 ns; everything slower lands there */
	CHECK(ssd_hist_value(SSD_HIST_N - 1) == 17112760320ULL);
	CHECK(ssd_hist_index(UINT64_MAX) == SSD_HIST_N - 1);
	CHECK(ssd_hist_index(1ULL << 40) == SSD_HIST_N - 1);
	CHECK(ssd_hist_index((1ULL << 34) - 1) == SSD_HIST_N - 1);
	CHECK(ssd_hist_index((1ULL << 33) - 1) == SSD_HIST_N - 65);
}

TEST(hist_index_monotonic_and_accurate)
{
	unsigned prev = 0;
	/* every value up to 2^20, then a geometric sweep to 2^34 */
	for (uint64_t v = 0; v < (1u << 20); v++) {
		unsigned i = ssd_hist_index(v);
		CHECKF(i >= prev, "index decreased at %llu", (unsigned long long)v);
		prev = i;
		double rep = (double)ssd_hist_value(i);
		CHECKF(fabs(rep - (double)v) <= (double)v / 128.0 + 1e-9,
		       "value %llu represented by %.0f", (unsigned long long)v,
		       rep);
	}
	for (double x = 1 << 20; x < 0x1p34; x *= 1.001) {
		uint64_t v = (uint64_t)x;
		unsigned i = ssd_hist_index(v);
		CHECK(i >= prev);
		prev = i;
		CHECK(fabs((double)ssd_hist_value(i) - x) <= x / 128.0 + 1);
	}
}

TEST(hist_percentile_small_exact)
{
	struct ssd_hist *h = calloc(1, sizeof *h);
	CHECK(ssd_hist_percentile(h, 50) == 0); /* empty */
	for (uint64_t v = 1; v <= 4; v++)
		ssd_hist_add(h, v);
	CHECK(h->n == 4);
	CHECK(ssd_hist_percentile(h, 1) == 1);
	CHECK(ssd_hist_percentile(h, 25) == 1);
	CHECK(ssd_hist_percentile(h, 50) == 2);
	CHECK(ssd_hist_percentile(h, 50.1) == 3);
	CHECK(ssd_hist_percentile(h, 100) == 4);
	free(h);
}

TEST(hist_percentile_uniform)
{
	struct ssd_hist *h = calloc(1, sizeof *h);
	for (uint64_t v = 1; v <= 100000; v++)
		ssd_hist_add(h, v);
	uint64_t prev = 0;
	for (int i = 0; i < ssd_npercentiles; i++) {
		double p = ssd_percentiles[i];
		double want = p * 1000.0;
		uint64_t got = ssd_hist_percentile(h, p);
		CHECKF(fabs((double)got - want) <= want * 0.016,
		       "p%.2f = %llu, want ~%.0f", p, (unsigned long long)got,
		       want);
		CHECK(got >= prev);
		prev = got;
	}
	uint64_t p50 = ssd_hist_percentile(h, 50);
	CHECKF(fabs((double)p50 - 50000.0) <= 50000.0 * 0.016, "p50 %llu",
	       (unsigned long long)p50);

	struct ssd_hist *g = calloc(1, sizeof *g);
	ssd_hist_merge(g, h);
	ssd_hist_merge(g, h);
	CHECK(g->n == 200000);
	CHECK(ssd_hist_percentile(g, 50) == p50);
	free(g);
	free(h);
}

TEST(percentile_list_is_fios)
{
	CHECK(ssd_npercentiles == 17);
	CHECK(ssd_percentiles[0] == 1.0);
	CHECK(ssd_percentiles[6] == 50.0);
	CHECK(ssd_percentiles[13] == 99.5);
	CHECK(ssd_percentiles[16] == 99.99);
}

/* ---- moments ---- */

TEST(moments_basic_and_merge)
{
	static const double v[] = {2, 4, 4, 4, 5, 5, 7, 9};
	struct ssd_moments all = {0}, a = {0}, b = {0}, e = {0};
	CHECK(ssd_moments_mean(&e) == 0 && ssd_moments_stddev(&e) == 0);
	for (int i = 0; i < 8; i++) {
		ssd_moments_add(&all, v[i]);
		ssd_moments_add(i < 3 ? &a : &b, v[i]);
	}
	CHECK(all.n == 8 && all.min == 2 && all.max == 9);
	CHECK(fabs(ssd_moments_mean(&all) - 5.0) < 1e-12);
	CHECK(fabs(ssd_moments_stddev(&all) - sqrt(32.0 / 7.0)) < 1e-12);
	ssd_moments_merge(&a, &b);
	CHECK(a.n == 8 && a.min == 2 && a.max == 9);
	CHECK(fabs(ssd_moments_mean(&a) - 5.0) < 1e-12);
	CHECK(fabs(ssd_moments_stddev(&a) - ssd_moments_stddev(&all)) < 1e-12);
	ssd_moments_merge(&e, &all);
	CHECK(e.n == 8 && e.min == 2);

	struct ssd_moments one = {0};
	ssd_moments_add(&one, 42);
	CHECK(ssd_moments_mean(&one) == 42 && ssd_moments_stddev(&one) == 0);
}

/* ---- window sampler ---- */

TEST(dstat_windows_empty_and_partial)
{
	struct ssd_dstat *d = calloc(1, sizeof *d); /* 500 ms windows */
	ssd_dstat_add(d, 100 * SSD_MS, 4096, 50000);
	ssd_dstat_add(d, 200 * SSD_MS, 4096, 50000);
	ssd_dstat_add(d, 500 * SSD_MS, 4096, 50000); /* window end: (0,500] */
	ssd_dstat_add(d, 600 * SSD_MS, 4096, 50000); /* closes window 0 */
	ssd_dstat_add(d, 2100 * SSD_MS, 4096, 50000); /* 1 closed, 2-3 empty */
	ssd_dstat_add(d, 2200 * SSD_MS, 4096, 50000);
	ssd_dstat_finish(d, 2300 * SSD_MS); /* (2000,2500] partial: dropped */

	CHECK(d->ios == 6 && d->bytes == 6 * 4096);
	/* window 0: 3 x 4 KiB in 0.5 s = 24 KiB/s, 6 IOPS; window 1: 8, 2;
	 * windows with no completion give no sample, as fio */
	CHECKF(d->bw.n == 2, "bw samples %llu", (unsigned long long)d->bw.n);
	CHECK(d->bw.min == 8 && d->bw.max == 24);
	CHECK(fabs(ssd_moments_mean(&d->bw) - 16.0) < 1e-9);
	CHECK(d->iops.n == 2 && d->iops.min == 2 && d->iops.max == 6);
	CHECK(d->lat.n == 6 && d->hist.n == 6);
	free(d);
}

TEST(dstat_window_closed_at_finish_and_custom_length)
{
	struct ssd_dstat *d = calloc(1, sizeof *d);
	d->win_ns = SSD_S;
	for (int i = 1; i <= 10; i++) /* 10 I/Os of 1 MiB in (0, 1 s] */
		ssd_dstat_add(d, i * 100 * SSD_MS, 1 << 20, SSD_MS);
	ssd_dstat_finish(d, SSD_S); /* ends exactly at the window's end */
	CHECK(d->bw.n == 1 && d->bw.min == 10240);
	CHECK(d->iops.n == 1 && d->iops.min == 10);

	/* integer rates as fio: 3 x 1000 B in 0.5 s = 5.86 -> 5 KiB/s */
	struct ssd_dstat *e = calloc(1, sizeof *e);
	for (int i = 0; i < 3; i++)
		ssd_dstat_add(e, 10 * SSD_MS, 1000, 1000);
	ssd_dstat_finish(e, 500 * SSD_MS);
	CHECK(e->bw.n == 1 && e->bw.min == 5);
	free(e);
	free(d);
}

TEST(dstat_short_job_has_no_samples)
{
	struct ssd_dstat *d = calloc(1, sizeof *d);
	ssd_dstat_add(d, 10 * SSD_MS, 4096, 1000);
	ssd_dstat_finish(d, 499 * SSD_MS);
	CHECK(d->ios == 1 && d->bw.n == 0 && d->iops.n == 0);
	free(d);
}

TEST(dstat_latency_distribution)
{
	struct ssd_dstat *d = calloc(1, sizeof *d);
	ssd_dstat_add(d, 1, 512, 1);                    /* nsec "2" */
	ssd_dstat_add(d, 2, 512, 999);                  /* nsec "1000" */
	ssd_dstat_add(d, 3, 512, 1500);                 /* usec "2" */
	ssd_dstat_add(d, 4, 512, 300 * SSD_US);         /* usec "500" */
	ssd_dstat_add(d, 5, 512, 999999);               /* usec "1000" */
	ssd_dstat_add(d, 6, 512, 3 * SSD_MS);           /* msec "4" */
	ssd_dstat_add(d, 7, 512, 1500 * SSD_MS);        /* msec "2000" */
	ssd_dstat_add(d, 8, 512, 3 * SSD_S);            /* msec ">=2000" */
	CHECK(d->lat_dist[0] == 1 && d->lat_dist[9] == 1);
	CHECK(d->lat_dist[10] == 1 && d->lat_dist[17] == 1);
	CHECK(d->lat_dist[19] == 1 && d->lat_dist[21] == 1);
	CHECK(d->lat_dist[30] == 1 && d->lat_dist[31] == 1);
	uint64_t sum = 0;
	for (int i = 0; i < SSD_LATDIST_N; i++)
		sum += d->lat_dist[i];
	CHECK(sum == 8);
	free(d);
}

TEST(dstat_merge_group_reporting)
{
	struct ssd_dstat *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
	for (int i = 1; i <= 4; i++) {
		ssd_dstat_add(a, i * 250 * SSD_MS, 4096, 1000);
		ssd_dstat_add(b, i * 250 * SSD_MS, 8192, 3000);
	}
	ssd_dstat_finish(a, SSD_S);
	ssd_dstat_finish(b, SSD_S);
	/* a: 2 windows of 16 KiB/s; b: 2 windows of 32 KiB/s */
	ssd_dstat_merge(a, b);
	CHECK(a->ios == 8 && a->bytes == 4 * 4096 + 4 * 8192);
	CHECK(a->lat.n == 8 && a->lat.min == 1000 && a->lat.max == 3000);
	CHECK(a->hist.n == 8);
	/* fio's pure sum: samples add, min/max/mean add (aggregate rate) */
	CHECK(a->bw.n == 4);
	CHECK(a->bw.min == 48 && a->bw.max == 48);
	CHECK(fabs(ssd_moments_mean(&a->bw) - 48.0) < 1e-9);
	CHECK(ssd_moments_stddev(&a->bw) < 1e-6);
	free(a);
	free(b);
}

TEST(counters_sub_every_field)
{
	struct ssd_counters a, b, c;
	uint64_t *pa = (uint64_t *)&a, *pb = (uint64_t *)&b;
	size_t n = sizeof a / sizeof(uint64_t);
	for (size_t i = 0; i < n; i++) {
		pa[i] = 100 + 7 * i;
		pb[i] = i;
	}
	ssd_counters_sub(&c, &a, &b);
	uint64_t *pc = (uint64_t *)&c;
	for (size_t i = 0; i < n; i++)
		CHECK(pc[i] == 100 + 6 * i);
}

/* ---- logs ---- */

static void tmp_path(char *buf, size_t n)
{
	const char *dir = getenv("TMPDIR");
	snprintf(buf, n, "%s/ssdlab-test-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(buf);
	if (fd >= 0)
		close(fd);
}

/* The whole file as a string (static buffer). */
static char *slurp(const char *path)
{
	static char buf[65536];
	FILE *f = fopen(path, "r");
	buf[0] = 0;
	if (!f)
		return buf;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

TEST(log_names)
{
	char buf[128];
	ssd_log_name(buf, sizeof buf, "run", SSD_LOG_IOPS, 1);
	CHECK(!strcmp(buf, "run_iops.1.log"));
	ssd_log_name(buf, sizeof buf, "a/b", SSD_LOG_BW, 3);
	CHECK(!strcmp(buf, "a/b_bw.3.log"));
	ssd_log_name(buf, sizeof buf, "x", SSD_LOG_LAT, 2);
	CHECK(!strcmp(buf, "x_lat.2.log"));
	ssd_log_name(buf, sizeof buf, "x", SSD_LOG_CLAT, 2);
	CHECK(!strcmp(buf, "x_clat.2.log"));
	ssd_log_name(buf, sizeof buf, "x", SSD_LOG_HIST, 2);
	CHECK(!strcmp(buf, "x_clat_hist.2.log"));
	ssd_log_name(buf, sizeof buf, "x", SSD_LOG_BW, 0); /* per_job_logs=0 */
	CHECK(!strcmp(buf, "x_bw.log"));
	ssd_log_name(buf, sizeof buf, "x", SSD_LOG_SLAT, 2);
	CHECK(!strcmp(buf, "x_slat.2.log"));
}

TEST(log_per_io)
{
	char path[256], err[256];
	tmp_path(path, sizeof path);
	static const struct {
		int kind;
		const char *want;
	} cases[] = {
		/* fio 3.33's columns: time, value, ddir, bs, prio */
		{SSD_LOG_IOPS, "1, 1, 1, 4096, 0\n"
			       "2, 1, 0, 8192, 0\n"
			       "1000, 1, 2, 4096, 0\n"},
		{SSD_LOG_BW, "1, 40000, 1, 4096, 0\n"
			     "2, 40000, 0, 8192, 0\n"
			     "1000, 0, 2, 4096, 0\n"},
		{SSD_LOG_CLAT, "1, 100000, 1, 4096, 0\n"
			       "2, 200000, 0, 8192, 0\n"
			       "1000, 0, 2, 4096, 0\n"},
		{SSD_LOG_SLAT, "1, 0, 1, 4096, 0\n"
			       "2, 0, 0, 8192, 0\n"
			       "1000, 0, 2, 4096, 0\n"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct ssd_log *l =
			ssd_log_open(path, cases[i].kind, 0, err, sizeof err);
		CHECKF(l, "open: %s", err);
		ssd_log_add(l, 1500 * SSD_US, 1, 4096, 8192, 100000);
		ssd_log_add(l, 2 * SSD_MS, 0, 8192, 0, 200000);
		ssd_log_add(l, SSD_S, 2, 4096, 4096, 0);
		ssd_log_add(l, SSD_S, 7, 4096, 4096, 0); /* bad ddir: ignored */
		CHECK(ssd_log_close(l, 2 * SSD_S, NULL, 0) == 0);
		const char *got = slurp(path);
		CHECKF(!strcmp(got, cases[i].want), "kind %d got:\n%s",
		       cases[i].kind, got);
	}
	/* log_offset: the offset before prio; log_prio: prio in hex */
	struct ssd_log_opts o = {.offset = 1, .prio_hex = 1};
	struct ssd_log *l = ssd_log_open_opts(path, SSD_LOG_CLAT, &o, err,
					      sizeof err);
	CHECKF(l, "open: %s", err);
	ssd_log_add(l, 1500 * SSD_US, 1, 4096, 8192, 100000);
	CHECK(ssd_log_close(l, SSD_S, NULL, 0) == 0);
	const char *got = slurp(path);
	CHECKF(!strcmp(got, "1, 100000, 1, 4096, 8192, 0x0000\n"), "got %s",
	       got);
	o.prio_hex = 0;
	l = ssd_log_open_opts(path, SSD_LOG_IOPS, &o, err, sizeof err);
	ssd_log_add(l, 1500 * SSD_US, 0, 4096, 12288, 100000);
	CHECK(ssd_log_close(l, SSD_S, NULL, 0) == 0);
	got = slurp(path);
	CHECKF(!strcmp(got, "1, 1, 0, 4096, 12288, 0\n"), "got %s", got);
	unlink(path);
	ssd_log_add(NULL, 0, 0, 0, 0, 0);
	CHECK(ssd_log_close(NULL, 0, NULL, 0) == 0);
}

/* per_job_logs=0: files are appended to, each log's lines in one block
 * even when two logs of the same file are open at once */
TEST(log_append_blocks)
{
	char path[256], err[256];
	tmp_path(path, sizeof path);
	unlink(path);
	struct ssd_log_opts o = {.append = 1};
	struct ssd_log *a = ssd_log_open_opts(path, SSD_LOG_IOPS, &o, err,
					      sizeof err);
	struct ssd_log *b = ssd_log_open_opts(path, SSD_LOG_IOPS, &o, err,
					      sizeof err);
	CHECKF(a && b, "open: %s", err);
	ssd_log_add(a, 1 * SSD_MS, 1, 4096, 0, 10);
	ssd_log_add(b, 2 * SSD_MS, 0, 4096, 0, 10);
	ssd_log_add(a, 3 * SSD_MS, 1, 4096, 0, 10);
	CHECK(ssd_log_close(a, SSD_S, NULL, 0) == 0);
	CHECK(ssd_log_close(b, SSD_S, NULL, 0) == 0);
	const char *got = slurp(path);
	CHECKF(!strcmp(got, "1, 1, 1, 4096, 0\n3, 1, 1, 4096, 0\n"
			    "2, 1, 0, 4096, 0\n"), "got:\n%s", got);
	/* appended to, not replaced */
	a = ssd_log_open_opts(path, SSD_LOG_IOPS, &o, err, sizeof err);
	ssd_log_add(a, 4 * SSD_MS, 2, 4096, 0, 10);
	CHECK(ssd_log_close(a, SSD_S, NULL, 0) == 0);
	got = slurp(path);
	CHECKF(strstr(got, "2, 1, 0, 4096, 0\n4, 1, 2, 4096, 0\n"),
	       "got:\n%s", got);
	unlink(path);
}

/* fio's histogram log: per direction, a line at its first completion
 * log_hist_msec after its last line, with the bins since then */
TEST(log_histogram)
{
	char path[256], err[256];
	tmp_path(path, sizeof path);
	struct ssd_log_opts o = {.hist_ms = 10};
	struct ssd_log *l = ssd_log_open_opts(path, SSD_LOG_HIST, &o, err,
					      sizeof err);
	CHECKF(l, "open: %s", err);
	ssd_log_add(l, 1 * SSD_MS, 1, 4096, 0, 100);      /* bucket 100 */
	ssd_log_add(l, 5 * SSD_MS, 1, 4096, 0, 100);
	ssd_log_add(l, 10 * SSD_MS, 1, 8192, 0, 50000);   /* line at 10 */
	ssd_log_add(l, 12 * SSD_MS, 0, 4096, 0, 7);       /* read: line */
	ssd_log_add(l, 15 * SSD_MS, 1, 4096, 0, 100);     /* not yet */
	ssd_log_add(l, 21 * SSD_MS, 1, 4096, 0, 100);     /* line at 21 */
	ssd_log_add(l, 25 * SSD_MS, 1, 4096, 0, 100);     /* never written */
	CHECK(ssd_log_close(l, SSD_S, NULL, 0) == 0);
	char *got = slurp(path);
	int lines = 0;
	for (char *line = strtok(got, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned long long v[SSD_HIST_N + 3];
		int n = 0;
		char *p = line;
		while (n < SSD_HIST_N + 3) {
			char *e;
			v[n++] = strtoull(p, &e, 10);
			if (*e != ',')
				break;
			p = e + 2;
		}
		CHECKF(n == SSD_HIST_N + 3, "%d columns", n);
		unsigned long long sum = 0;
		for (int i = 3; i < n; i++)
			sum += v[i];
		if (lines == 0) {
			CHECK(v[0] == 10 && v[1] == 1 && v[2] == 8192 && sum == 3);
			CHECK(v[3 + ssd_hist_index(100)] == 2);
			CHECK(v[3 + ssd_hist_index(50000)] == 1);
		} else if (lines == 1) {
			CHECK(v[0] == 12 && v[1] == 0 && sum == 1);
			CHECK(v[3 + 7] == 1);
		} else {
			CHECK(v[0] == 21 && v[1] == 1 && sum == 2);
		}
		lines++;
	}
	CHECK(lines == 3);
	/* coarseness 6: 1856 / 64 = 29 columns; no interval: empty file */
	o.hist_coarseness = 6;
	l = ssd_log_open_opts(path, SSD_LOG_HIST, &o, err, sizeof err);
	ssd_log_add(l, 20 * SSD_MS, 1, 4096, 0, 100);
	CHECK(ssd_log_close(l, SSD_S, NULL, 0) == 0);
	got = slurp(path);
	int commas = 0;
	for (char *c = got; *c; c++)
		commas += *c == ',';
	CHECKF(commas == 29 + 2, "%d commas: %s", commas, got);
	CHECK(strstr(got, "20, 1, 4096, 0, 1, 0")); /* 100 ns: bins 64..127 */
	o.hist_ms = 0;
	l = ssd_log_open_opts(path, SSD_LOG_HIST, &o, err, sizeof err);
	ssd_log_add(l, 20 * SSD_MS, 1, 4096, 0, 100);
	CHECK(ssd_log_close(l, SSD_S, NULL, 0) == 0);
	got = slurp(path);
	CHECK(!got[0]);
	o.hist_coarseness = 7;
	CHECK(!ssd_log_open_opts(path, SSD_LOG_HIST, &o, err, sizeof err));
	unlink(path);
}

TEST(log_averaged)
{
	char path[256], err[256];
	tmp_path(path, sizeof path);

	struct ssd_log *l =
		ssd_log_open(path, SSD_LOG_LAT, 100 * SSD_MS, err, sizeof err);
	CHECKF(l, "open: %s", err);
	ssd_log_add(l, 10 * SSD_MS, 1, 4096, 0, 100);
	ssd_log_add(l, 50 * SSD_MS, 1, 4096, 4096, 201);
	ssd_log_add(l, 60 * SSD_MS, 0, 4096, 8192, 50);
	/* (100, 200] passes empty: no line */
	ssd_log_add(l, 250 * SSD_MS, 1, 4096, 0, 1000);
	CHECK(ssd_log_close(l, 280 * SSD_MS, NULL, 0) == 0);
	const char *got = slurp(path);
	/* latency logs: the last, partial window once, at the end */
	CHECKF(!strcmp(got, "100, 50, 0, 0, 0\n"
			    "100, 151, 1, 0, 0\n"
			    "280, 1000, 1, 0, 0\n"),
	       "lat got:\n%s", got);

	l = ssd_log_open(path, SSD_LOG_IOPS, 100 * SSD_MS, err, sizeof err);
	CHECK(l);
	for (int i = 1; i <= 3; i++)
		ssd_log_add(l, i * 30 * SSD_MS, 1, 4096, 0, 100);
	ssd_log_add(l, 250 * SSD_MS, 1, 4096, 0, 100);
	CHECK(ssd_log_close(l, 280 * SSD_MS, NULL, 0) == 0);
	got = slurp(path);
	/* iops and bw logs keep whole windows only (fio 3.33) */
	CHECKF(!strcmp(got, "100, 30, 1, 0, 0\n"), "iops got:\n%s", got);
	l = ssd_log_open(path, SSD_LOG_IOPS, 100 * SSD_MS, err, sizeof err);
	ssd_log_add(l, 250 * SSD_MS, 1, 4096, 0, 100);
	CHECK(ssd_log_close(l, 300 * SSD_MS, NULL, 0) == 0); /* ends on a boundary */
	got = slurp(path);
	CHECKF(!strcmp(got, "300, 10, 1, 0, 0\n"), "iops got:\n%s", got);

	l = ssd_log_open(path, SSD_LOG_BW, 100 * SSD_MS, err, sizeof err);
	CHECK(l);
	for (int i = 1; i <= 3; i++)
		ssd_log_add(l, i * 30 * SSD_MS, 1, 4096, 0, 100);
	ssd_log_add(l, 100 * SSD_MS, 2, 1 << 20, 0, 100);
	CHECK(ssd_log_close(l, 500 * SSD_MS, NULL, 0) == 0);
	got = slurp(path);
	CHECKF(!strcmp(got, "100, 120, 1, 0, 0\n100, 10240, 2, 0, 0\n"),
	       "bw got:\n%s", got);
	unlink(path);
}

TEST(log_open_failure)
{
	char err[256] = "";
	struct ssd_log *l = ssd_log_open("/nonexistent-dir/x/y.log",
					 SSD_LOG_BW, 0, err, sizeof err);
	CHECK(l == NULL);
	CHECK(strstr(err, "/nonexistent-dir/x/y.log") != NULL);
	l = ssd_log_open("/tmp/whatever.log", 99, 0, err, sizeof err);
	CHECK(l == NULL);
}

TEST(log_write_error_reported)
{
	char err[256];
	struct ssd_log *l = ssd_log_open("/dev/full", SSD_LOG_CLAT, 0, err,
					 sizeof err);
	if (!l)
		SKIP("no /dev/full here");
	ssd_log_add(l, SSD_MS, 1, 4096, 0, 1000);
	CHECK(ssd_log_close(l, SSD_S, err, sizeof err) == SSD_EIO);
	CHECKF(!strcmp(err, "cannot write '/dev/full': No space left on device"),
	       "%s", err);
}

/* A log that cannot be written whole is not left looking complete: a new
 * one is not there, an appended one has the lines it had. */
TEST(log_that_fails_is_not_left)
{
	char path[256], err[256];
	tmp_path(path, sizeof path);
	unlink(path);
	CHECK(!ssd_ofile_faults("write:1"));
	struct ssd_log *l = ssd_log_open(path, SSD_LOG_IOPS, 0, err, sizeof err);
	CHECKF(l, "open: %s", err);
	ssd_log_add(l, SSD_MS, 1, 4096, 0, 1000);
	int rc = ssd_log_close(l, SSD_S, err, sizeof err);
	ssd_ofile_faults("");
	CHECK(rc == SSD_EIO);
	CHECKF(strstr(err, path) && strstr(err, "No space left on device"), "%s", err);
	CHECK(access(path, F_OK) && errno == ENOENT);
	/* appended: the second block's copy into the log fails */
	struct ssd_log_opts o = {.append = 1};
	for (int k = 0; k < 2; k++) {
		CHECK(!ssd_ofile_faults(k ? "fsync:1" : ""));
		l = ssd_log_open_opts(path, SSD_LOG_IOPS, &o, err, sizeof err);
		CHECKF(l, "open: %s", err);
		ssd_log_add(l, (k + 1) * SSD_MS, 1, 4096, 0, 1000);
		rc = ssd_log_close(l, SSD_S, err, sizeof err);
		ssd_ofile_faults("");
		CHECK(rc == (k ? SSD_EIO : 0));
	}
	const char *got = slurp(path);
	CHECKF(!strcmp(got, "1, 1, 1, 4096, 0\n"), "got:\n%s", got);
	unlink(path);
}
