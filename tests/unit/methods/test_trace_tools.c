/* Unit tests for trace_tools.c: folding against hand-computed offsets,
 * the device numbers --device takes, the statistic of `trace stat` on a
 * hand-computed trace (counts, sizes, footprint, sequential share,
 * inter-arrival percentiles, the write working set in both modes), its
 * memory on sparse and huge address ranges and its limit, failing
 * allocations, random records against invariants, and `trace convert`
 * of small files line by line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "base/ofile.h"
#include "methods/trace_tools.h"
#include "t.h"
#include "t_alloc.h"

#define KiB 1024ULL
#define MiB (1024ULL * 1024)
#define GiB (1024ULL * MiB)
#define US 1000LL

/* ---- folding ---- */

static int fold_is(int mode, uint64_t cap, uint64_t max_end, uint64_t off,
		   uint64_t len, uint64_t want_off, uint64_t want_len, int changed)
{
	int c = ssd_trace_fold(mode, cap, max_end, &off, &len);
	return c == changed && off == want_off && len == want_len;
}

TEST(trace_tools_fold_modulo)
{
	uint64_t cap = 64 * MiB;
	/* inside: as it is */
	CHECK(fold_is(SSD_FOLD_MODULO, cap, 0, 4096, 8192, 4096, 8192, 0));
	CHECK(fold_is(SSD_FOLD_MODULO, cap, 0, 1000, 512, 1000, 512, 0));
	/* past it: offset % capacity, aligned down to 4 KiB */
	CHECK(fold_is(SSD_FOLD_MODULO, cap, 0, 96 * MiB, 8192, 32 * MiB, 8192, 1));
	CHECK(fold_is(SSD_FOLD_MODULO, cap, 0, 96 * MiB + 5000, 512,
		      32 * MiB + 4096, 512, 1));
	CHECK(fold_is(SSD_FOLD_MODULO, cap, 0, cap, 4096, 0, 4096, 1));
	CHECK(fold_is(SSD_FOLD_MODULO, cap, 0, UINT64_MAX - 8191, 4096,
		      (UINT64_MAX - 8191) % cap & ~4095ULL, 4096, 1));
	/* crossing the end: moved to end at it, the size kept */
	CHECK(fold_is(SSD_FOLD_MODULO, cap, 0, cap - 4096, 8192, cap - 8192, 8192, 1));
	CHECK(fold_is(SSD_FOLD_MODULO, cap, 0, 2 * cap - 4096, 6000,
		      (cap - 6000) & ~4095ULL, 6000, 1));
	/* larger than the capacity: cut to it */
	CHECK(fold_is(SSD_FOLD_MODULO, cap, 0, 5 * MiB, 2 * cap, 0, cap, 1));
	/* no capacity: nothing */
	CHECK(fold_is(SSD_FOLD_MODULO, 0, 0, 96 * MiB, 4096, 96 * MiB, 4096, 0));
}

TEST(trace_tools_fold_scale)
{
	uint64_t cap = 64 * MiB;
	/* a trace of 128 MiB halves */
	CHECK(fold_is(SSD_FOLD_SCALE, cap, 128 * MiB, 100 * MiB, 4096, 50 * MiB,
		      4096, 1));
	CHECK(fold_is(SSD_FOLD_SCALE, cap, 128 * MiB, 12 * KiB, 4096, 4 * KiB,
		      4096, 1));
	CHECK(fold_is(SSD_FOLD_SCALE, cap, 128 * MiB, 0, 4096, 0, 4096, 0));
	/* the last request of the range ends at the capacity */
	CHECK(fold_is(SSD_FOLD_SCALE, cap, 128 * MiB, 128 * MiB - 8192, 8192,
		      cap - 8192, 8192, 1));
	/* the sample of the CLI test: 96 MiB + 8 KiB into 64 MiB */
	uint64_t me = 96 * MiB + 8192;
	CHECK(fold_is(SSD_FOLD_SCALE, cap, me, MiB, 8192, 696320, 8192, 1));
	CHECK(fold_is(SSD_FOLD_SCALE, cap, me, 2 * MiB, 65536, 1396736, 65536, 1));
	CHECK(fold_is(SSD_FOLD_SCALE, cap, me, 96 * MiB, 8192, cap - 8192, 8192, 1));
	/* a trace that fits is left as it is */
	CHECK(fold_is(SSD_FOLD_SCALE, cap, cap, 1000, 512, 1000, 512, 0));
	CHECK(fold_is(SSD_FOLD_SCALE, cap, 32 * MiB, 5 * MiB, 4096, 5 * MiB, 4096, 0));
	/* the full 64-bit range does not overflow */
	CHECK(fold_is(SSD_FOLD_SCALE, cap, UINT64_MAX, UINT64_MAX - 4096, 4096,
		      cap - 4096, 4096, 1));
}

TEST(trace_tools_fold_and_dev_names)
{
	int m = -1;
	CHECK(ssd_fold_parse("modulo", &m) == 0 && m == SSD_FOLD_MODULO);
	CHECK(ssd_fold_parse("scale", &m) == 0 && m == SSD_FOLD_SCALE);
	CHECK(ssd_fold_parse("wrap", &m) == -1);
	uint32_t d = 0;
	CHECK(ssd_trace_dev_parse("0", &d) == 0 && d == 0);
	CHECK(ssd_trace_dev_parse("4294967295", &d) == 0 && d == UINT32_MAX);
	CHECK(ssd_trace_dev_parse("8,0", &d) == 0 && d == 8u << 20);
	CHECK(ssd_trace_dev_parse("8,16", &d) == 0 && d == (8u << 20 | 16));
	CHECK(ssd_trace_dev_parse("4095,1048575", &d) == 0 && d == UINT32_MAX);
	const char *bad[] = {"", "x", "-1", "+1", "1x", "4294967296", "8,", ",8",
			     "8,x", "8,0,0", "4096,0", "1,1048576", " 8"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECKF(ssd_trace_dev_parse(bad[i], &d) == -1, "'%s'", bad[i]);
}

/* ---- the histograms ---- */

TEST(trace_tools_size_buckets)
{
	CHECK(ssd_tstat_size_bucket(0) == 0);
	CHECK(ssd_tstat_size_bucket(512) == 0);
	CHECK(ssd_tstat_size_bucket(1023) == 0);
	CHECK(ssd_tstat_size_bucket(1024) == 1);
	CHECK(ssd_tstat_size_bucket(4096) == 3);
	CHECK(ssd_tstat_size_bucket(8191) == 3);
	CHECK(ssd_tstat_size_bucket(8192) == 4);
	CHECK(ssd_tstat_size_bucket(512 * KiB) == 10);
	CHECK(ssd_tstat_size_bucket(MiB - 1) == 10);
	CHECK(ssd_tstat_size_bucket(MiB) == 11);
	CHECK(ssd_tstat_size_bucket(UINT64_MAX) == 11);
	CHECK(!strcmp(ssd_tstat_size_names[3], "4k"));
	CHECK(!strcmp(ssd_tstat_size_names[11], ">=1M"));
}

TEST(trace_tools_gap_buckets)
{
	/* one value a bucket below 128 ns */
	for (uint64_t v = 0; v < 128; v++)
		CHECK(ssd_tstat_gap_index(v) == v && ssd_tstat_gap_value((unsigned)v) == v);
	/* above: monotone, the value's bucket holds it, 1/64 wide */
	unsigned last = 127;
	for (uint64_t v = 128; v && v < UINT64_MAX / 3; v = v * 3 / 2 + 7) {
		unsigned i = ssd_tstat_gap_index(v);
		CHECKF(i >= last && i < SSD_TSTAT_GAP_N, "v %llu i %u",
		       (unsigned long long)v, i);
		uint64_t mid = ssd_tstat_gap_value(i);
		double rel = ((double)mid - (double)v) / (double)v;
		CHECKF(rel < 1.0 / 64 && rel > -1.0 / 64, "v %llu mid %llu",
		       (unsigned long long)v, (unsigned long long)mid);
		last = i;
	}
	CHECK(ssd_tstat_gap_index(UINT64_MAX) == SSD_TSTAT_GAP_N - 1);
	CHECK(ssd_tstat_gap_index(1ULL << 63) == SSD_TSTAT_GAP_N - 64);
}

/* ---- the statistic ---- */

static struct ssd_trace_rec R(int64_t ts_us, int op, uint64_t off, uint64_t len)
{
	return (struct ssd_trace_rec){.ts = ts_us < 0 ? -1 : ts_us * US, .op = op,
				      .offset = off, .len = len};
}

/* The trace of the CLI test (tests/cli/traces_tools.sh, stat.log). */
static const struct ssd_trace_rec *sample(int *n)
{
	static struct ssd_trace_rec r[10];
	int k = 0;
	r[k++] = R(0, SSD_TOP_FILE, 0, 0);
	r[k++] = R(0, SSD_TOP_WRITE, 0, 8192);         /* pages 0, 1 */
	r[k++] = R(100, SSD_TOP_WRITE, 8192, 4096);    /* 2, sequential */
	r[k++] = R(200, SSD_TOP_WRITE, 0, 4096);       /* 0 again */
	r[k++] = R(1000, SSD_TOP_WRITE, 4096, 8192);   /* 1, 2: sequential */
	r[k++] = R(1500, SSD_TOP_READ, 0, 16384);      /* 0..3 */
	r[k++] = R(2500, SSD_TOP_WRITE, 65536, 4096);  /* 16 */
	r[k++] = R(2600, SSD_TOP_TRIM, MiB, 4096);     /* 256 */
	r[k++] = R(2600, SSD_TOP_SYNC, 0, 0);
	*n = k;
	return r;
}

static struct ssd_tstat *stat_of(const struct ssd_trace_rec *r, int n,
				 int64_t interval)
{
	struct ssd_tstat *s = ssd_tstat_new(interval, 0);
	if (!s)
		return NULL;
	for (int i = 0; i < n; i++)
		if (ssd_tstat_add(s, &r[i])) {
			ssd_tstat_free(s);
			return NULL;
		}
	int rc = ssd_tstat_begin_series(s);
	if (rc < 0) {
		ssd_tstat_free(s);
		return NULL;
	}
	if (rc > 0)
		for (int i = 0; i < n; i++)
			if (ssd_tstat_add_series(s, &r[i])) {
				ssd_tstat_free(s);
				return NULL;
			}
	ssd_tstat_end(s);
	return s;
}

TEST(trace_tools_stat_counts_footprint_sequential)
{
	int n;
	const struct ssd_trace_rec *r = sample(&n);
	struct ssd_tstat *s = stat_of(r, n, 1000 * US);
	CHECK(s);
	CHECK(s->requests == 8 && s->syncs == 1);
	const struct ssd_tstat_dir *rd = &s->dir[SSD_TOP_READ],
		*wr = &s->dir[SSD_TOP_WRITE], *tr = &s->dir[SSD_TOP_TRIM];
	CHECK(rd->requests == 1 && rd->bytes == 16384 && rd->sequential == 0);
	CHECK(wr->requests == 5 && wr->bytes == 28672 && wr->sequential == 2);
	CHECK(tr->requests == 1 && tr->bytes == 4096 && tr->sequential == 0);
	CHECK(wr->sizes[3] == 3 && wr->sizes[4] == 2);
	CHECK(rd->sizes[5] == 1 && tr->sizes[3] == 1);
	CHECK(s->pages == 6 && s->written_pages == 4 && s->read_pages == 4);
	CHECK(s->max_offset == MiB && s->max_end == MiB + 4096);
	CHECK(ssd_tstat_sequential(s) == 2.0 / 7);
	CHECK(s->timed && s->first_ts == 0 && s->last_ts == 2600 * US);
	ssd_tstat_free(s);
}

TEST(trace_tools_stat_interarrival)
{
	int n;
	const struct ssd_trace_rec *r = sample(&n);
	struct ssd_tstat *s = stat_of(r, n, 0);
	CHECK(s);
	/* gaps: 100, 100, 800, 500, 1000, 100, 0 us */
	CHECK(s->gaps == 7 && s->gap_min == 0 && s->gap_max == 1000 * US);
	CHECKF(ssd_tstat_gap_mean(s) == 2600.0 * US / 7, "%g", ssd_tstat_gap_mean(s));
	CHECK(ssd_tstat_gap_percentile(s, 50) == 100 * US);
	CHECK(ssd_tstat_gap_percentile(s, 99) == 1000 * US);
	CHECK(ssd_tstat_gap_percentile(s, 100) == 1000 * US);
	CHECK(ssd_tstat_gap_percentile(s, 10) == 0);
	CHECK(ssd_tstat_gap_percentile(s, 57) == 100 * US);
	CHECK(ssd_tstat_gap_percentile(s, 60) == 500 * US);
	CHECK(ssd_tstat_gap_percentile(s, 70) == 500 * US);
	ssd_tstat_free(s);
	/* distinct gaps in one bucket: their mean, inside the bucket */
	struct ssd_tstat *t = ssd_tstat_new(0, 0);
	CHECK(t);
	struct ssd_trace_rec a = R(-1, SSD_TOP_READ, 0, 512);
	int64_t ts[] = {0, 1000000, 2000002, 3000006};
	for (int i = 0; i < 4; i++) {
		a.ts = ts[i];
		CHECK(ssd_tstat_add(t, &a) == 0);
	}
	CHECK(ssd_tstat_gap_percentile(t, 50) == 1000002);
	ssd_tstat_free(t);
}

TEST(trace_tools_stat_working_set_given_interval)
{
	int n;
	const struct ssd_trace_rec *r = sample(&n);
	struct ssd_tstat *s = stat_of(r, n, 1000 * US);
	CHECK(s);
	CHECK(s->interval == 1000 * US && s->fixed);
	CHECKF(s->nint == 3, "nint %llu", (unsigned long long)s->nint);
	CHECK(s->int_pages[0] == 3 && s->int_total[0] == 3);
	CHECK(s->int_pages[1] == 2 && s->int_total[1] == 3);
	CHECK(s->int_pages[2] == 1 && s->int_total[2] == 4);
	ssd_tstat_free(s);
	/* intervals without a write are in the series, and so is the time
	 * after the last write */
	struct ssd_trace_rec q[] = {R(0, SSD_TOP_WRITE, 0, 4096),
				    R(3500, SSD_TOP_WRITE, 0, 4096),
				    R(5200, SSD_TOP_READ, 0, 4096)};
	s = stat_of(q, 3, 1000 * US);
	CHECK(s && s->nint == 6);
	uint64_t want[6][2] = {{1, 1}, {0, 1}, {0, 1}, {1, 1}, {0, 1}, {0, 1}};
	for (int i = 0; i < 6; i++)
		CHECKF(s->int_pages[i] == want[i][0] && s->int_total[i] == want[i][1],
		       "interval %d: %llu %llu", i, (unsigned long long)s->int_pages[i],
		       (unsigned long long)s->int_total[i]);
	ssd_tstat_free(s);
}

TEST(trace_tools_stat_working_set_default_interval)
{
	int n;
	const struct ssd_trace_rec *r = sample(&n);
	struct ssd_tstat *s = stat_of(r, n, 0);
	CHECK(s);
	/* 2.6 ms / 20: 130 us; the last instant in the last interval */
	CHECK(s->interval == 130 * US && !s->fixed && s->nint == 20);
	for (uint64_t i = 0; i < 20; i++) {
		uint64_t p = i == 0 ? 3 : i == 1 ? 1 : i == 7 ? 2 : i == 19 ? 1 : 0;
		uint64_t t = i < 19 ? 3 : 4;
		CHECKF(s->int_pages[i] == p && s->int_total[i] == t,
		       "interval %llu: %llu %llu", (unsigned long long)i,
		       (unsigned long long)s->int_pages[i],
		       (unsigned long long)s->int_total[i]);
	}
	/* the first pass's footprint is kept */
	CHECK(s->written_pages == 4 && s->pages == 6);
	ssd_tstat_free(s);
	/* a trace of one instant: one interval */
	struct ssd_trace_rec one = R(7, SSD_TOP_WRITE, 0, 4096);
	s = stat_of(&one, 1, 0);
	CHECK(s && s->nint == 1 && s->interval == 1 && s->int_pages[0] == 1);
	ssd_tstat_free(s);
}

TEST(trace_tools_stat_untimed_and_empty)
{
	/* an iolog version 2: no times, no gaps, no series */
	struct ssd_trace_rec q[] = {R(-1, SSD_TOP_WRITE, 0, 4096),
				    R(-1, SSD_TOP_WAIT, 0, 0),
				    R(-1, SSD_TOP_WRITE, 4096, 4096)};
	q[1].ts = 5000000;
	struct ssd_tstat *s = stat_of(q, 3, 0);
	CHECK(s && !s->timed && !s->gaps && s->requests == 2 && !s->nint);
	CHECK(s->dir[SSD_TOP_WRITE].sequential == 1);
	ssd_tstat_free(s);
	s = stat_of(q, 0, 0);
	CHECK(s && !s->requests && !s->have_data && ssd_tstat_sequential(s) == 0);
	CHECK(ssd_tstat_gap_percentile(s, 99) == 0 && ssd_tstat_gap_mean(s) == 0);
	ssd_tstat_free(s);
}

TEST(trace_tools_stat_sparse_memory_and_limit)
{
	struct ssd_tstat *s = ssd_tstat_new(0, 0);
	CHECK(s);
	/* two pages 2^62 bytes apart: two chunks, not 2^50 bits */
	struct ssd_trace_rec a = R(0, SSD_TOP_WRITE, 0, 4096);
	struct ssd_trace_rec b = R(1, SSD_TOP_WRITE, 1ULL << 62, 4096);
	struct ssd_trace_rec c = R(2, SSD_TOP_READ, UINT64_MAX - 4095, 4095);
	CHECK(ssd_tstat_add(s, &a) == 0 && ssd_tstat_add(s, &b) == 0 &&
	      ssd_tstat_add(s, &c) == 0);
	CHECK(s->pages == 3 && s->written_pages == 2 && s->read_pages == 1);
	CHECK(s->max_end == UINT64_MAX && s->max_offset == UINT64_MAX - 4095);
	/* an extent past 2^64 (no reader makes one) ends at 2^64 - 1 */
	c.offset = UINT64_MAX - 100;
	CHECK(ssd_tstat_add(s, &c) == 0 && s->max_end == UINT64_MAX);
	CHECKF(s->map_bytes < MiB, "%llu", (unsigned long long)s->map_bytes);
	ssd_tstat_free(s);
	/* a trim of 16 GiB: 16 chunks, counted a word at a time */
	s = ssd_tstat_new(0, 0);
	struct ssd_trace_rec t = R(0, SSD_TOP_TRIM, 4096, 16 * GiB);
	CHECK(s && ssd_tstat_add(s, &t) == 0);
	CHECK(s->pages == 16 * GiB / 4096 && !s->written_pages);
	CHECK(s->map_bytes < 3 * MiB);
	ssd_tstat_free(s);
	/* past the limit: SSD_ERANGE, not the machine's memory */
	s = ssd_tstat_new(0, 300 * KiB); /* a leaf and two chunks */
	struct ssd_trace_rec w = R(0, SSD_TOP_WRITE, 0, 4096);
	CHECK(s && ssd_tstat_add(s, &w) == 0);
	w.offset = 2 * GiB;
	CHECK(ssd_tstat_add(s, &w) == 0);
	w.offset = 4 * GiB;
	CHECK(ssd_tstat_add(s, &w) == SSD_ERANGE && s->over == 1);
	ssd_tstat_free(s);
	/* one request wider than the limit: at once, nothing allocated */
	s = ssd_tstat_new(0, 300 * KiB);
	struct ssd_trace_rec huge = R(0, SSD_TOP_TRIM, 0, UINT64_MAX);
	CHECK(s && ssd_tstat_add(s, &huge) == SSD_ERANGE && s->over == 1);
	CHECK(s->map_bytes == 0);
	ssd_tstat_free(s);
	/* a series too long: SSD_ERANGE */
	s = ssd_tstat_new(1, 0);
	w.offset = 0;
	CHECK(s && ssd_tstat_add(s, &w) == 0);
	w.ts = (int64_t)SSD_TSTAT_MAX_INTERVALS + 5;
	CHECK(ssd_tstat_add(s, &w) == SSD_ERANGE && s->over == 2);
	ssd_tstat_free(s);
}

TEST(trace_tools_stat_failed_allocations)
{
	int n;
	const struct ssd_trace_rec *r = sample(&n);
	for (long k = 1; k < 40; k++) {
		t_alloc_fail_at(k);
		struct ssd_tstat *s = stat_of(r, n, k & 1 ? 0 : 1000 * US);
		int failed = t_alloc_failed();
		t_alloc_fail_at(0);
		CHECKF((s == NULL) == failed, "allocation %ld", k);
		ssd_tstat_free(s);
	}
}

TEST(trace_tools_stat_random_invariants)
{
	struct ssd_rng g;
	ssd_rng_seed(&g, 7);
	for (int round = 0; round < 20; round++) {
		struct ssd_tstat *s = ssd_tstat_new(round & 1 ? 0 : 1000 + round, 0);
		CHECK(s);
		uint64_t bytes = 0, reqs = 0;
		int64_t ts = 0;
		for (int i = 0; i < 2000; i++) {
			struct ssd_trace_rec q = {0};
			q.op = (int)ssd_rng_below(&g, 4);
			q.offset = ssd_rng_below(&g, 1ULL << (20 + round % 12));
			q.len = q.op == SSD_TOP_SYNC ? 0 : ssd_rng_below(&g, 300000);
			ts += (int64_t)ssd_rng_below(&g, 5000) - 500;
			q.ts = ts < 0 ? 0 : ts;
			CHECK(ssd_tstat_add(s, &q) == 0);
			reqs++;
			bytes += q.len;
		}
		if (ssd_tstat_begin_series(s) > 0)
			CHECK(s->nint <= 20);
		ssd_tstat_end(s);
		uint64_t b = 0, q = s->syncs;
		for (int d = 0; d < 3; d++) {
			uint64_t inb = 0;
			for (int i = 0; i < SSD_TSTAT_NSIZES; i++)
				inb += s->dir[d].sizes[i];
			CHECK(inb == s->dir[d].requests);
			CHECK(s->dir[d].sequential <= s->dir[d].requests);
			b += s->dir[d].bytes;
			q += s->dir[d].requests;
		}
		CHECK(q == reqs && b == bytes && s->requests == reqs);
		CHECK(s->written_pages <= s->pages && s->read_pages <= s->pages);
		CHECK(s->pages <= (s->max_end + 4095) / 4096);
		CHECK(ssd_tstat_gap_percentile(s, 50) <= ssd_tstat_gap_percentile(s, 99));
		CHECK(ssd_tstat_gap_percentile(s, 99) <= s->gap_max);
		/* the series (pass one's, when given) sums to no fewer than
		 * the distinct pages, and its running total ends at them */
		if (s->fixed && s->nint) {
			uint64_t sum = 0;
			for (uint64_t i = 0; i < s->nint; i++) {
				sum += s->int_pages[i];
				CHECK(!i || s->int_total[i] >= s->int_total[i - 1]);
			}
			CHECK(sum >= s->written_pages);
			CHECK(s->int_total[s->nint - 1] == s->written_pages);
		}
		ssd_tstat_free(s);
	}
}

/* ---- trace convert of files ---- */

static char in_path[64], out_path[80];
static char err[1024];

static const char *write_tmp(const char *text)
{
	strcpy(in_path, "/tmp/ssdlab_tt_XXXXXX");
	int fd = mkstemp(in_path);
	if (fd < 0)
		return NULL;
	size_t n = strlen(text);
	ssize_t w = write(fd, text, n);
	close(fd);
	snprintf(out_path, sizeof out_path, "%s.log", in_path);
	return w == (ssize_t)n ? in_path : NULL;
}

/* The output file's text (static), or NULL if there is none. */
static const char *read_out(void)
{
	static char buf[4096];
	FILE *f = fopen(out_path, "r");
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	return buf;
}

static void clean(void)
{
	unlink(in_path);
	unlink(out_path);
}

static const char msr[] =
	"Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
	"128166372000000000,usr,0,Write,0,4096,1000\n"
	"128166372000010000,usr,1,Read,1048576,8192,1000\n"
	"128166372000020000,usr,0,Write,4096,4096,1000\n"
	"128166372000035000,usr,0,Read,512,1024,1000\n"
	"128166372000100000,usr,1,Write,2097152,65536,1000\n"
	"128166372010000000,usr,0,Write,100663296,8192,1000\n";

TEST(trace_tools_convert_msr_device_and_fold)
{
	CHECK(write_tmp(msr));
	struct ssd_tconv c = {.in = in_path, .fmt = SSD_TRACE_MSR, .out = out_path,
			      .has_dev = 1, .dev = 1};
	struct ssd_tconv_counts n;
	int input = -1;
	CHECK(ssd_trace_convert(&c, &n, err, sizeof err, &input) == 0 && !input);
	const char *got = read_out();
	CHECKF(got && !strcmp(got, "fio version 3 iolog\n0 trace add\n0 trace open\n"
			      "0 trace read 1048576 8192\n"
			      "9000 trace write 2097152 65536\n"
			      "9000 trace close\n"), "%s", got);
	CHECK(n.requests == 2 && n.reads == 1 && n.writes == 1 && !n.unaligned);
	/* device 0 past 64 MiB: an error naming the line, no output */
	c.dev = 0;
	c.capacity = 64 * MiB;
	CHECK(ssd_trace_convert(&c, &n, err, sizeof err, &input) == SSD_ERANGE && input);
	char want[200];
	snprintf(want, sizeof want, "%s:7: a write at offset 100663296, 8192 bytes "
		 "ends past --capacity 64 MiB", in_path);
	CHECKF(!strncmp(err, want, strlen(want)), "%s", err);
	/* OUT as it was: the first conversion's */
	got = read_out();
	CHECKF(got && strstr(got, "9000 trace write 2097152 65536\n"), "%s", got);
	/* folded by modulo, with a file name and 4 KiB alignment */
	c.fold = SSD_FOLD_MODULO;
	c.file = "/dev/nvme0n1";
	c.align = 4096;
	CHECK(ssd_trace_convert(&c, &n, err, sizeof err, &input) == 0);
	got = read_out();
	CHECKF(got && !strcmp(got, "fio version 3 iolog\n0 /dev/nvme0n1 add\n"
			      "0 /dev/nvme0n1 open\n"
			      "0 /dev/nvme0n1 write 0 4096\n"
			      "2000 /dev/nvme0n1 write 4096 4096\n"
			      "3500 /dev/nvme0n1 read 512 1024\n"
			      "1000000 /dev/nvme0n1 write 33554432 8192\n"
			      "1000000 /dev/nvme0n1 close\n"), "%s", got);
	CHECK(n.requests == 4 && n.unaligned == 1 && n.folded == 1);
	/* scaled: two passes */
	c.fold = SSD_FOLD_SCALE;
	c.file = NULL;
	CHECK(ssd_trace_convert(&c, &n, err, sizeof err, &input) == 0);
	got = read_out();
	CHECKF(got && !strcmp(got, "fio version 3 iolog\n0 trace add\n0 trace open\n"
			      "0 trace write 0 4096\n"
			      "2000 trace write 0 4096\n"
			      "3500 trace read 0 1024\n"
			      "1000000 trace write 67100672 8192\n"
			      "1000000 trace close\n"), "%s", got);
	/* both disks without a device chosen: an error at the second's first
	 * request (they were merged into one stream), in either pass, OUT
	 * left as it was */
	c.has_dev = 0;
	for (int f = 0; f < 2; f++) {
		c.fold = f ? SSD_FOLD_SCALE : SSD_FOLD_NONE;
		c.capacity = f ? 64 * MiB : 0;
		CHECK(ssd_trace_convert(&c, &n, err, sizeof err, &input) == SSD_EPARSE && input);
		char two[400];
		snprintf(two, sizeof two, "%s:3: a request of device 1 after those "
			 "of device 0 (expected one device: the trace holds several; "
			 "--device of ssdlab trace convert or stat picks one)", in_path);
		CHECKF(!strcmp(err, two), "%s", err);
		got = read_out();
		CHECKF(got && strstr(got, "1000000 trace write 67100672 8192\n"), "%s", got);
	}
	c.has_dev = 1;
	c.fold = SSD_FOLD_SCALE;
	/* bad options */
	c.file = "a b";
	CHECK(ssd_trace_convert(&c, &n, err, sizeof err, &input) == SSD_EINVAL && input);
	c.file = NULL;
	c.capacity = 1000;
	CHECK(ssd_trace_convert(&c, &n, err, sizeof err, &input) == SSD_EINVAL);
	c.capacity = 64 * MiB;
	c.out = in_path;
	CHECK(ssd_trace_convert(&c, &n, err, sizeof err, &input) == SSD_EINVAL);
	CHECK(strstr(err, "the output is the input"));
	clean();
}

/* OUT that cannot be written (each write, sync, rename failing in turn,
 * plain and gzip): an error naming it with the reason, OUT as it was. */
TEST(trace_tools_convert_write_faults_leave_out_as_it_was)
{
	CHECK(write_tmp(msr));
	static const char *const faults[] = {"write:1", "fsync:1", "rename:1",
					     "close:1", "open:1"};
	for (int gz = 0; gz < 2; gz++) {
		char out[300];
		snprintf(out, sizeof out, "%s%s", out_path, gz ? ".gz" : "");
		FILE *f = fopen(out, "w");
		CHECK(f && fputs("old\n", f) >= 0 && !fclose(f));
		struct ssd_tconv c = {.in = in_path, .fmt = SSD_TRACE_MSR, .out = out,
				      .has_dev = 1, .dev = 0};
		struct ssd_tconv_counts n;
		int input = -1;
		for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++) {
			CHECK(!ssd_ofile_faults(faults[i]));
			int rc = ssd_trace_convert(&c, &n, err, sizeof err, &input);
			ssd_ofile_faults("");
			CHECKF(rc == SSD_EIO && !input, "%s: rc %d", faults[i], rc);
			CHECKF(strstr(err, out) && strstr(err, faults[i][0] == 'w'
							 ? "No space left" : "Input/output"),
			       "%s: %s", faults[i], err);
			char buf[16] = "";
			f = fopen(out, "r");
			CHECK(f);
			CHECK(fgets(buf, sizeof buf, f) && !strcmp(buf, "old\n"));
			fclose(f);
		}
		CHECK(ssd_trace_convert(&c, &n, err, sizeof err, &input) == 0);
		unlink(out);
	}
	clean();
}

TEST(trace_tools_convert_errors_leave_no_output)
{
	CHECK(write_tmp("fio version 3 iolog\n0 f add\n5 f write 0 4096\n"
			"7 f wrote 0 4096\n"));
	struct ssd_tconv c = {.in = in_path, .out = out_path};
	struct ssd_tconv_counts n;
	int input = 0;
	CHECK(ssd_trace_convert(&c, &n, err, sizeof err, &input) == SSD_EPARSE && input);
	char want[200];
	snprintf(want, sizeof want, "%s:4: unknown action 'wrote'", in_path);
	CHECKF(!strncmp(err, want, strlen(want)), "%s", err);
	CHECK(!read_out());
	/* the same with scale: the first pass finds it */
	c.capacity = 4096;
	c.fold = SSD_FOLD_SCALE;
	CHECK(ssd_trace_convert(&c, &n, err, sizeof err, &input) == SSD_EPARSE && input);
	CHECKF(!strncmp(err, want, strlen(want)), "%s", err);
	CHECK(!read_out());
	clean();
	/* an output that cannot be made */
	CHECK(write_tmp("fio version 3 iolog\n"));
	c = (struct ssd_tconv){.in = in_path, .out = "/nonexistent/dir/x.log"};
	CHECK(ssd_trace_convert(&c, &n, err, sizeof err, &input) == SSD_EIO);
	CHECK(strstr(err, "cannot write '/nonexistent/dir/x.log'"));
	/* a device that fails is reported, and stays */
	struct stat st;
	if (stat("/dev/full", &st) || !S_ISCHR(st.st_mode)) {
		clean();
		SKIP("no /dev/full here: a device that fails");
	}
	c.out = "/dev/full";
	CHECK(ssd_trace_convert(&c, &n, err, sizeof err, &input) == SSD_EIO &&
	      !input);
	CHECK(!stat("/dev/full", &st) && S_ISCHR(st.st_mode));
	clean();
}

TEST(trace_tools_convert_v2_waits_empty_and_huge)
{
	/* version 2: the requests at their latest wait; 0 bytes left out */
	CHECK(write_tmp("fio version 2 iolog\nf add\nf open\nf write 0 4096\n"
			"f wait 250 0\nf read 0 4096\nf read 4096 0\nf sync 0 0\n"
			"f close\n"));
	struct ssd_tconv c = {.in = in_path, .out = out_path};
	struct ssd_tconv_counts n;
	int input = 0;
	CHECK(ssd_trace_convert(&c, &n, err, sizeof err, &input) == 0);
	const char *got = read_out();
	CHECKF(got && !strcmp(got, "fio version 3 iolog\n0 trace add\n0 trace open\n"
			      "0 trace write 0 4096\n"
			      "250000 trace read 0 4096\n"
			      "250000 trace sync 0 0\n"
			      "250000 trace close\n"), "%s", got);
	CHECK(n.requests == 3 && n.empty == 1 && n.syncs == 1);
	clean();
	/* a discard of 5 GiB (blkparse): pieces of 2 GiB */
	CHECK(write_tmp("  8,0 0 1 0.000000000 1 Q D 0 + 10485760 [blkdiscard]\n"));
	c.fmt = SSD_TRACE_BLKPARSE;
	CHECK(ssd_trace_convert(&c, &n, err, sizeof err, &input) == 0);
	got = read_out();
	CHECKF(got && !strcmp(got, "fio version 3 iolog\n0 trace add\n0 trace open\n"
			      "0 trace trim 0 2147483648\n"
			      "0 trace trim 2147483648 2147483648\n"
			      "0 trace trim 4294967296 1073741824\n"
			      "0 trace close\n"), "%s", got);
	CHECK(n.trims == 3 && n.split == 1);
	clean();
	/* one of 2 TiB: an error, unless folded into a capacity */
	CHECK(write_tmp("  8,0 0 1 0.000000000 1 Q D 0 + 4294967296 [blkdiscard]\n"));
	CHECK(ssd_trace_convert(&c, &n, err, sizeof err, &input) == SSD_ERANGE && input);
	CHECKF(strstr(err, ":1: a trim of 2199023255552 bytes is larger than 1 TiB"), "%s", err);
	c.capacity = 8 * GiB;
	c.fold = SSD_FOLD_MODULO;
	CHECK(ssd_trace_convert(&c, &n, err, sizeof err, &input) == 0);
	CHECK(n.trims == 4 && n.folded == 1);
	clean();
}

TEST(trace_tools_stat_file_device)
{
	CHECK(write_tmp(msr));
	struct ssd_tstat_opts o = {.path = in_path, .fmt = SSD_TRACE_MSR,
				   .has_dev = 1, .dev = 1};
	struct ssd_tstat *s;
	int fmt, input;
	CHECK(ssd_trace_stat(&o, &s, &fmt, err, sizeof err, &input) == 0);
	CHECK(fmt == SSD_TRACE_MSR && s->requests == 2);
	CHECK(s->first_ts == 1000 * US && s->last_ts == 10000 * US);
	CHECK(s->gaps == 1 && s->gap_max == 9000 * US);
	CHECK(s->pages == 2 + 16 && s->written_pages == 16 && s->read_pages == 2);
	CHECK(s->nint == 20 && s->int_total[19] == 16 && s->int_pages[19] == 16);
	ssd_tstat_free(s);
	/* a bad line: its file and line */
	clean();
	CHECK(write_tmp("Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
			"128166372000000000,usr,0,Write,0,4096,1000\n"
			"128166372000000001,usr,0,Writ,0,4096,1000\n"));
	CHECK(ssd_trace_stat(&o, &s, &fmt, err, sizeof err, &input) == SSD_EPARSE);
	CHECK(input && !s);
	char want[100];
	snprintf(want, sizeof want, "%s:3: field 4 (Type)", in_path);
	CHECKF(!strncmp(err, want, strlen(want)), "%s", err);
	clean();
	/* requests of 0 bytes: counted apart, not as requests (once as
	 * writes of the smallest size) */
	o.has_dev = 0;
	CHECK(write_tmp("Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
			"128166372000000000,usr,0,Write,0,4096,1000\n"
			"128166372000000001,usr,0,Write,8192,0,1000\n"
			"128166372000000002,usr,0,Read,0,0,1000\n"));
	CHECK(ssd_trace_stat(&o, &s, &fmt, err, sizeof err, &input) == 0);
	CHECK(s->requests == 1 && s->empty == 2 && s->first_empty == 3);
	CHECK(s->dir[SSD_TOP_WRITE].requests == 1 && !s->dir[SSD_TOP_READ].requests);
	CHECK(s->dir[SSD_TOP_WRITE].sizes[0] == 0 && s->max_end == 4096);
	ssd_tstat_free(s);
	clean();
}
