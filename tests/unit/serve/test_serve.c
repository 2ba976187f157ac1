/*
 * test_serve.c -- the served drive (serve/serve.h): the data store, the
 * clocks, the mapping of NBD's commands onto the drive, the report.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "t.h"
#include "t_sim.h"
#include "base/ofile.h"
#include "ftl/ftl.h"
#include "machine/device.h"
#include "report/report.h"
#include "serve/serve.h"

static char err[512];

static struct ssd_config cfg;

/* The drive file `name` with sets[0..n) ("KEY=VALUE") set, finished. */
static const struct ssd_config *drive(const char *name, const char *const *sets, int n)
{
	return t_sim_config(&cfg, name, sets, n, err, sizeof err) ? NULL : &cfg;
}

static struct ssd_srv *srv_with(const struct ssd_config *c, int clock, uint32_t qd,
				const char *data)
{
	struct ssd_srv *s = NULL;
	if (!c)
		return NULL;
	struct ssd_srv_opts o = {.cfg = c, .seed = 1, .clock = clock, .fast_qd = qd,
				 .data = data, .output = "/dev/null"};
	if (ssd_srv_open(&o, &s, err, sizeof err))
		return NULL;
	return s;
}

static struct ssd_srv *fast_tiny(void)
{
	return srv_with(drive("tiny", NULL, 0), SSD_SRV_FAST, 1, NULL);
}

static void fill(uint8_t *b, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)(seed * 131 + i * 7 + (i >> 9));
}

static int all_zero(const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (b[i])
			return 0;
	return 1;
}

TEST(serve_reads_back_what_was_written_and_zeros_elsewhere)
{
	struct ssd_srv *s = fast_tiny();
	CHECKF(s, "%s", err);
	static uint8_t w[3 * 4096 + 100], r[sizeof w];
	fill(w, sizeof w, 1);
	/* not aligned to anything, across four pages */
	CHECK(ssd_srv_write(s, w, sizeof w, 4096 * 10 + 1234, 0) == 0);
	CHECK(ssd_srv_read(s, r, sizeof r, 4096 * 10 + 1234) == 0);
	CHECK(!memcmp(w, r, sizeof w));
	/* the bytes around it were never written */
	CHECK(ssd_srv_read(s, r, 1234, 4096 * 10) == 0 && all_zero(r, 1234));
	CHECK(ssd_srv_read(s, r, 4096, 4096 * 20) == 0 && all_zero(r, 4096));
	uint64_t pages, bytes;
	ssd_srv_store_usage(s, &pages, &bytes);
	CHECKF(pages == 4, "%llu", (unsigned long long)pages);
	CHECK(bytes >= 4 * 4096 && bytes < 4 * 4096 + 64 * 1024);
	/* the drive saw them: 4 pages written, partial ones merged */
	const struct ssd_counters *c = ssd_dev_counters(ssd_srv_dev(s));
	CHECK(c->host_write_lp == 4 && c->host_write_bytes == sizeof w);
	CHECK(ssd_srv_report(s) == 0 || (fprintf(stderr, "%s\n", ssd_srv_error(s)), 0));
	CHECK(ssd_srv_close(s) == 0);
	/* the report went to /dev/null, which is still a device (a report
	 * is written in place into anything but a regular file) */
	struct stat sb;
	CHECK(stat("/dev/null", &sb) == 0 && S_ISCHR(sb.st_mode));
}

/* A TRIM frees the whole pages inside it, in the drive and in the
 * store; the pages at its ends, covered in part, keep every byte (the
 * trimmed ones too), as the drive keeps them mapped: what the client
 * reads back is what the drive holds.  A TRIM within one page changes
 * nothing. */
TEST(serve_trim_frees_whole_pages_and_keeps_parts)
{
	struct ssd_srv *s = fast_tiny();
	CHECKF(s, "%s", err);
	static uint8_t w[4 * 4096], r[sizeof w];
	fill(w, sizeof w, 2);
	CHECK(ssd_srv_write(s, w, sizeof w, 0, 0) == 0);
	struct ssd_dev *d = ssd_srv_dev(s);
	uint64_t tl = ssd_dev_counters(d)->host_trim_lp;
	/* from the middle of page 0 to the middle of page 3 */
	CHECK(ssd_srv_trim(s, 3 * 4096, 2048, 0) == 0);
	CHECK(ssd_srv_read(s, r, sizeof r, 0) == 0);
	CHECK(!memcmp(r, w, 4096));
	CHECK(all_zero(r + 4096, 2 * 4096));
	CHECK(!memcmp(r + 3 * 4096, w + 3 * 4096, 4096));
	uint64_t pages, bytes;
	ssd_srv_store_usage(s, &pages, &bytes);
	CHECKF(pages == 2, "%llu", (unsigned long long)pages); /* 1 and 2 freed */
	CHECK(ssd_dev_counters(d)->host_trim_lp == tl + 2);
	CHECK(ssd_ftl_map_slot(d->ftl, 0) != SSD_UNMAPPED &&
	      ssd_ftl_map_slot(d->ftl, 3) != SSD_UNMAPPED);
	/* 4 KiB at 512: inside no whole page, nothing is trimmed */
	CHECK(ssd_srv_trim(s, 4096, 512, 0) == 0);
	CHECK(ssd_srv_read(s, r, 4096, 0) == 0 && !memcmp(r, w, 4096));
	CHECK(ssd_dev_counters(d)->host_trim_lp == tl + 2);
	/* every page gone: the leaf goes too */
	CHECK(ssd_srv_trim(s, sizeof w, 0, 0) == 0);
	ssd_srv_store_usage(s, &pages, &bytes);
	CHECK(pages == 0 && bytes < 4096);
	CHECK(ssd_srv_close(s) == 0);
}

/* The same in a data file: holes are punched for whole pages only. */
TEST(serve_trim_in_a_file_keeps_the_parts_of_pages)
{
	char path[] = "/tmp/ssdlab-trim-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	struct ssd_srv *s = srv_with(drive("tiny", NULL, 0), SSD_SRV_FAST, 1, path);
	CHECKF(s, "%s", err);
	static uint8_t w[4 * 4096], r[sizeof w];
	fill(w, sizeof w, 5);
	CHECK(ssd_srv_write(s, w, sizeof w, 0, 0) == 0);
	CHECK(ssd_srv_trim(s, 4096, 512, 0) == 0);
	CHECK(ssd_srv_trim(s, 8192, 4096 + 2048, 0) == 0); /* page 2 */
	CHECK(ssd_srv_read(s, r, sizeof r, 0) == 0);
	CHECK(!memcmp(r, w, 2 * 4096));
	CHECK(all_zero(r + 2 * 4096, 4096));
	CHECK(!memcmp(r + 3 * 4096, w + 3 * 4096, 4096));
	CHECK(ssd_srv_close(s) == 0);
	unlink(path);
}

/* On a machine with MFT the unit a TRIM frees is an MFT block (16 KiB):
 * a TRIM of whole 4 KiB pages inside one block leaves it mapped in the
 * MFT, and the store keeps its data too. */
TEST(serve_trim_unit_follows_the_machine)
{
	static const char *const kv[] = {"mft=yes"};
	struct ssd_srv *s = srv_with(drive("tiny", kv, 1), SSD_SRV_FAST, 1, NULL);
	CHECKF(s, "%s", err);
	CHECK(ssd_srv_trim_unit(s) == 16384);
	static uint8_t w[2 * 16384], r[sizeof w];
	fill(w, sizeof w, 6);
	CHECK(ssd_srv_write(s, w, sizeof w, 0, 0) == 0);
	/* pages 1 and 2 of block 0, and from its page 3 to the end of block 1 */
	CHECK(ssd_srv_trim(s, 8192, 4096, 0) == 0);
	CHECK(ssd_srv_trim(s, 20480, 12288, 0) == 0);
	CHECK(ssd_srv_read(s, r, sizeof r, 0) == 0);
	CHECK(!memcmp(r, w, 16384));
	CHECK(all_zero(r + 16384, 16384));
	/* write zeroes that may trim, inside one block: written, not trimmed */
	const struct ssd_counters *c = ssd_dev_counters(ssd_srv_dev(s));
	uint64_t wl = c->host_write_lp, tl = c->host_trim_lp;
	CHECK(ssd_srv_zero(s, 8192, 4096, SSD_SRV_MAY_TRIM) == 0);
	c = ssd_dev_counters(ssd_srv_dev(s));
	CHECK(c->host_write_lp == wl + 2 && c->host_trim_lp == tl);
	CHECK(ssd_srv_read(s, r, 16384, 0) == 0);
	CHECK(!memcmp(r, w, 4096) && all_zero(r + 4096, 8192) &&
	      !memcmp(r + 12288, w + 12288, 4096));
	CHECK(ssd_srv_close(s) == 0);
}

TEST(serve_write_zeroes_is_a_trim_only_when_it_may_be)
{
	struct ssd_srv *s = fast_tiny();
	CHECKF(s, "%s", err);
	static uint8_t w[8 * 4096], r[sizeof w];
	fill(w, sizeof w, 3);
	CHECK(ssd_srv_write(s, w, sizeof w, 0, 0) == 0);
	const struct ssd_counters *c = ssd_dev_counters(ssd_srv_dev(s));
	uint64_t wl = c->host_write_lp, tl = c->host_trim_lp;
	/* NBD's NO_HOLE: the drive writes the zeros */
	CHECK(ssd_srv_zero(s, 4 * 4096, 0, 0) == 0);
	c = ssd_dev_counters(ssd_srv_dev(s));
	CHECK(c->host_write_lp == wl + 4 && c->host_trim_lp == tl);
	/* may trim: the whole pages are trimmed, the part at the end written */
	CHECK(ssd_srv_zero(s, 3 * 4096 + 100, 4 * 4096, SSD_SRV_MAY_TRIM) == 0);
	c = ssd_dev_counters(ssd_srv_dev(s));
	CHECKF(c->host_write_lp == wl + 5 && c->host_trim_lp == tl + 3, "%llu %llu",
	       (unsigned long long)c->host_write_lp, (unsigned long long)c->host_trim_lp);
	CHECK(ssd_srv_read(s, r, sizeof r, 0) == 0);
	CHECK(all_zero(r, 7 * 4096 + 100));
	CHECK(!memcmp(r + 7 * 4096 + 100, w + 7 * 4096 + 100, 4096 - 100));
	CHECK(ssd_srv_close(s) == 0);
}

/* A drive with trim = no: TRIM is not offered, a TRIM is refused as
 * NBD's EOPNOTSUPP, and write zeroes that may trim writes the zeros;
 * MFT above it takes TRIM (it unmaps its own blocks). */
TEST(serve_drive_without_trim_offers_none)
{
	static const char *const kv[] = {"trim=no"};
	struct ssd_srv *s = srv_with(drive("tiny", kv, 1), SSD_SRV_FAST, 1, NULL);
	CHECKF(s, "%s", err);
	CHECK(!ssd_srv_can_trim(s));
	static uint8_t w[4 * 4096], r[sizeof w];
	fill(w, sizeof w, 9);
	CHECK(ssd_srv_write(s, w, sizeof w, 0, 0) == 0);
	CHECK(ssd_srv_trim(s, 0, 4096, 0) == -EOPNOTSUPP);
	const struct ssd_counters *c = ssd_dev_counters(ssd_srv_dev(s));
	uint64_t wl = c->host_write_lp, tl = c->host_trim_lp;
	CHECK(ssd_srv_zero(s, 2 * 4096, 0, SSD_SRV_MAY_TRIM) == 0);
	c = ssd_dev_counters(ssd_srv_dev(s));
	CHECKF(c->host_write_lp == wl + 2 && c->host_trim_lp == tl, "%llu %llu",
	       (unsigned long long)c->host_write_lp, (unsigned long long)c->host_trim_lp);
	CHECK(ssd_srv_read(s, r, sizeof r, 0) == 0);
	CHECK(all_zero(r, 2 * 4096) && !memcmp(r + 2 * 4096, w + 2 * 4096, 2 * 4096));
	CHECK(ssd_srv_close(s) == 0);
	static const char *const kvm[] = {"trim=no", "mft=yes"};
	s = srv_with(drive("tiny", kvm, 2), SSD_SRV_FAST, 1, NULL);
	CHECKF(s, "%s", err);
	CHECK(ssd_srv_can_trim(s));
	CHECK(ssd_srv_close(s) == 0);
}

TEST(serve_refuses_ranges_outside_the_drive)
{
	struct ssd_srv *s = fast_tiny();
	CHECKF(s, "%s", err);
	uint8_t b[4096] = {0};
	uint64_t size = ssd_srv_size(s);
	CHECK(size == 64ull << 20);
	CHECK(ssd_srv_write(s, b, 4096, size - 2048, 0) == -EINVAL);
	CHECK(strstr(ssd_srv_error(s), "outside the drive") != NULL);
	CHECK(ssd_srv_read(s, b, 4096, UINT64_MAX - 100) == -EINVAL);
	CHECK(ssd_srv_trim(s, 4096, size, 0) == -EINVAL);
	CHECK(ssd_srv_write(s, b, 4096, size - 4096, 0) == 0);
	CHECK(ssd_srv_close(s) == 0);
}

/* The fast clock at depth 1: each command enters when the one before
 * completed, as a synchronous client. */
TEST(serve_fast_clock_depth_one_is_a_synchronous_client)
{
	const struct ssd_config *c = drive("tiny", NULL, 0);
	CHECKF(c, "%s", err);
	struct ssd_dev *ref = NULL;
	CHECK(ssd_dev_create(c, 1, &ref) == 0);
	struct ssd_srv *s = srv_with(c, SSD_SRV_FAST, 1, NULL);
	CHECKF(s, "%s", err);
	static uint8_t b[4096];
	int64_t t = 0;
	for (int i = 0; i < 50; i++) {
		CHECK(ssd_srv_read(s, b, 4096, 0) == 0 || 1);
		CHECK(ssd_srv_write(s, b, 4096, (uint64_t)i * 8192, SSD_SRV_FUA) == 0);
		int64_t c1 = ssd_dev_submit(ref, SSD_DDIR_READ, 0, 4096, t);
		int64_t c2 = ssd_dev_submit(ref, SSD_DDIR_WRITE | SSD_DEV_FUA,
					    (uint64_t)i * 8192, 4096, c1);
		CHECK(c1 > t && c2 > c1);
		t = c2;
	}
	/* the next command would enter at the last completion */
	CHECK(ssd_srv_flush(s, NULL) == 0);
	int64_t f = ssd_dev_flush(ref, t);
	CHECKF(ssd_srv_now(s) == t, "%lld %lld", (long long)ssd_srv_now(s), (long long)t);
	(void)f;
	ssd_dev_destroy(ref);
	CHECK(ssd_srv_close(s) == 0);
}

/* At depth 4 the first four commands enter together; the fifth waits
 * for the earliest completion. */
TEST(serve_fast_clock_keeps_its_depth_in_flight)
{
	struct ssd_srv *s = srv_with(drive("tiny", NULL, 0), SSD_SRV_FAST, 4, NULL);
	CHECKF(s, "%s", err);
	static uint8_t b[4096];
	for (int i = 0; i < 4; i++) {
		CHECK(ssd_srv_write(s, b, 4096, (uint64_t)i << 20, SSD_SRV_FUA) == 0);
		CHECK(ssd_srv_now(s) == 0);
	}
	CHECK(ssd_srv_write(s, b, 4096, 5 << 20, SSD_SRV_FUA) == 0);
	CHECK(ssd_srv_now(s) > 0);
	CHECK(ssd_srv_close(s) == 0);
}

static double wall(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The real clock holds a request until its simulated completion: a
 * random read on the hard disk takes its milliseconds of seek and
 * rotation in wall time too (a lower bound: a busy machine only adds). */
TEST(serve_real_clock_waits_for_the_simulated_completion)
{
	struct ssd_srv *s = srv_with(drive("hitachi-hdt725032vla360", NULL, 0),
				     SSD_SRV_REAL, 0, NULL);
	CHECKF(s, "%s", err);
	CHECK(!ssd_srv_can_trim(s));
	static uint8_t b[4096];
	double w0 = wall();
	int64_t t0 = ssd_srv_now(s);
	CHECK(ssd_srv_read(s, b, 4096, 100ull << 30) == 0);
	double dw = wall() - w0;
	int64_t dt = ssd_srv_now(s) - t0;
	CHECKF(dw >= 0.002 && dt >= 2000000, "%.6f s wall, %lld ns simulated", dw,
	       (long long)dt);
	/* a disk has no TRIM; write zeroes then writes */
	CHECK(ssd_srv_trim(s, 4096, 0, 0) == -EOPNOTSUPP);
	CHECK(ssd_srv_zero(s, 4096, 0, SSD_SRV_MAY_TRIM) == 0);
	CHECK(ssd_dev_counters(ssd_srv_dev(s))->host_write_lp == 1);
	CHECK(ssd_srv_close(s) == 0);
}

/* Idle time on the wire is idle time for the drive: background GC runs
 * between requests under the real clock. */
TEST(serve_real_clock_idle_time_runs_background_gc)
{
	static const char *const kv[] = {"capacity=16m", "op=0.25", "gc_bg_blocks=8"};
	struct ssd_srv *s = srv_with(drive("tiny", kv, 3), SSD_SRV_REAL, 0, NULL);
	CHECKF(s, "%s", err);
	static uint8_t b[65536];
	uint64_t size = ssd_srv_size(s);
	/* fill, then overwrite at random to leave invalid pages everywhere */
	for (uint64_t off = 0; off < size; off += sizeof b)
		CHECK(ssd_srv_write(s, b, sizeof b, off, 0) == 0);
	uint64_t x = 1;
	for (int i = 0; i < 6000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		CHECK(ssd_srv_write(s, b, 4096, (x >> 20) % (size / 4096) * 4096, 0) == 0);
	}
	uint64_t bg0 = ssd_dev_counters(ssd_srv_dev(s))->gc_bg_copy_lp;
	uint64_t free0 = ssd_dev_free_blocks(ssd_srv_dev(s));
	struct timespec ts = {0, 300000000};
	nanosleep(&ts, NULL);
	CHECK(ssd_srv_tick(s) == 0);
	uint64_t bg1 = ssd_dev_counters(ssd_srv_dev(s))->gc_bg_copy_lp;
	/* (free blocks are not compared: a victim half moved holds one) */
	CHECKF(bg1 > bg0, "bg copies %llu -> %llu, free %llu", (unsigned long long)bg0,
	       (unsigned long long)bg1, (unsigned long long)free0);
	CHECK(ssd_srv_close(s) == 0);
}

TEST(serve_read_only_drive_refuses_writes_and_still_reads)
{
	struct ssd_srv *s = fast_tiny();
	CHECKF(s, "%s", err);
	static uint8_t w[4096], r[4096];
	fill(w, sizeof w, 4);
	CHECK(ssd_srv_write(s, w, 4096, 0, 0) == 0);
	ssd_ftl_fault_readonly(ssd_srv_dev(s)->ftl);
	static uint8_t other[4096];
	fill(other, sizeof other, 5);
	CHECK(ssd_srv_write(s, other, 4096, 0, 0) == -EROFS);
	CHECK(strstr(ssd_srv_error(s), "read-only") != NULL);
	/* the refused write did not reach the data */
	CHECK(ssd_srv_read(s, r, 4096, 0) == 0 && !memcmp(r, w, 4096));
	CHECK(ssd_srv_close(s) == 0);
}

static int count_runs(void *ctx, uint64_t off, uint64_t len, int zero)
{
	uint64_t *v = ctx;
	/* v[0] runs; v[1 + 2k] offset, v[2 + 2k] zero */
	if (v[0] < 8) {
		v[1 + 2 * v[0]] = off;
		v[2 + 2 * v[0]] = (uint64_t)zero;
	}
	v[0]++;
	(void)len;
	return 0;
}

TEST(serve_extents_follow_the_store)
{
	struct ssd_srv *s = fast_tiny();
	CHECKF(s, "%s", err);
	static uint8_t w[8192];
	fill(w, sizeof w, 6);
	CHECK(ssd_srv_write(s, w, 8192, 40960, 0) == 0);
	uint64_t v[17] = {0};
	CHECK(ssd_srv_extents(s, 0, 64 << 20, count_runs, v) == 0);
	CHECKF(v[0] == 3, "%llu runs", (unsigned long long)v[0]);
	CHECK(v[1] == 0 && v[2] == 1);
	CHECK(v[3] == 40960 && v[4] == 0);
	CHECK(v[5] == 49152 && v[6] == 1);
	CHECK(ssd_srv_close(s) == 0);
}

TEST(serve_file_store_punches_holes_and_refuses_a_file_with_data)
{
	char path[] = "/tmp/ssdlab-serve-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	struct ssd_srv *s = srv_with(drive("tiny", NULL, 0), SSD_SRV_FAST, 1, path);
	CHECKF(s, "%s", err);
	static uint8_t w[1 << 20], r[1 << 20];
	fill(w, sizeof w, 7);
	CHECK(ssd_srv_write(s, w, sizeof w, 1 << 20, 0) == 0);
	CHECK(ssd_srv_flush(s, NULL) == 0);
	struct stat a, b;
	CHECK(stat(path, &a) == 0 && a.st_size == 64 << 20);
	CHECK(ssd_srv_trim(s, 1 << 19, 1 << 20, 0) == 0);
	CHECK(stat(path, &b) == 0);
	CHECKF(b.st_blocks < a.st_blocks, "%lld -> %lld blocks", (long long)a.st_blocks,
	       (long long)b.st_blocks);
	CHECK(ssd_srv_read(s, r, sizeof r, 1 << 20) == 0);
	CHECK(all_zero(r, 1 << 19) && !memcmp(r + (1 << 19), w + (1 << 19), 1 << 19));
	CHECK(ssd_srv_close(s) == 0);
	/* it now holds data: a new drive would read back what it never wrote */
	struct ssd_srv_opts o = {.cfg = drive("tiny", NULL, 0), .clock = SSD_SRV_FAST,
				 .data = path};
	CHECK(ssd_srv_open(&o, &s, err, sizeof err) == -EEXIST);
	CHECKF(strstr(err, "exists and is not empty") != NULL, "%s", err);
	unlink(path);
}

/* The report is `ssdlab run`'s: the requests as one job, the drive's
 * counters and latencies; the series has a row per interval. */
TEST(serve_report_and_series)
{
	char rep[] = "/tmp/ssdlab-serve-rep-XXXXXX", log[] = "/tmp/ssdlab-serve-log-XXXXXX";
	int fd = mkstemp(rep);
	CHECK(fd >= 0);
	close(fd);
	fd = mkstemp(log);
	CHECK(fd >= 0);
	close(fd);
	struct ssd_srv *s = NULL;
	struct ssd_srv_opts o = {.cfg = drive("tiny", NULL, 0), .clock = SSD_SRV_FAST,
				 .output = rep, .formats = SSD_OUT_JSON,
				 .stats_interval = 1000000, .stats_log = log,
				 .name = "clients"};
	CHECKF(ssd_srv_open(&o, &s, err, sizeof err) == 0, "%s", err);
	static uint8_t b[4096];
	for (int i = 0; i < 2000; i++)
		CHECK(ssd_srv_write(s, b, 4096, (uint64_t)(i % 1000) * 4096, 0) == 0);
	CHECK(ssd_srv_report(s) == 0);
	CHECK(ssd_srv_close(s) == 0);
	FILE *f = fopen(rep, "r");
	CHECK(f);
	static char text[1 << 20];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = 0;
	CHECK(strstr(text, "\"jobname\" : \"clients\"") != NULL);
	CHECK(strstr(text, "\"total_ios\" : 2000") != NULL);
	CHECK(strstr(text, "\"waf\"") != NULL);
	f = fopen(log, "r");
	CHECK(f);
	n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = 0;
	CHECK(!strncmp(text, "time_s,read_iops,write_iops", 27));
	int rows = 0;
	for (char *p = text; (p = strchr(p, '\n')); p++)
		rows++;
	CHECKF(rows > 3, "%d rows", rows);
	/* the rows' writes add up to every write: the last, partial
	 * interval is a row too */
	double sum = 0, prev = 0;
	char *line = strchr(text, '\n') + 1;
	for (; *line; line = strchr(line, '\n') + 1) {
		double ts, wr;
		CHECK(sscanf(line, "%lf,%*f,%lf", &ts, &wr) == 2);
		sum += wr * (ts - prev);
		prev = ts;
	}
	CHECKF(sum > 1995 && sum < 2005, "%.3f writes in the rows", sum); /* rounded rates */
	unlink(rep);
	unlink(log);
}

/* NBD's write zeroes with NO_HOLE leaves the range allocated (only a
 * may-trim one deallocates it), in memory and in a file. */
TEST(serve_write_zeroes_without_may_trim_stays_allocated)
{
	struct ssd_srv *s = fast_tiny();
	CHECKF(s, "%s", err);
	static uint8_t w[2 * 4096], r[sizeof w];
	fill(w, sizeof w, 8);
	CHECK(ssd_srv_write(s, w, sizeof w, 0, 0) == 0);
	CHECK(ssd_srv_zero(s, sizeof w, 0, 0) == 0);
	uint64_t pages, bytes;
	ssd_srv_store_usage(s, &pages, &bytes);
	CHECK(pages == 2);
	CHECK(ssd_srv_read(s, r, sizeof r, 0) == 0 && all_zero(r, sizeof r));
	uint64_t v[17] = {0};
	CHECK(ssd_srv_extents(s, 0, 8192, count_runs, v) == 0);
	CHECK(v[0] == 1 && v[2] == 0); /* data, not a hole */
	CHECK(ssd_srv_zero(s, sizeof w, 0, SSD_SRV_MAY_TRIM) == 0);
	ssd_srv_store_usage(s, &pages, &bytes);
	CHECK(pages == 0);
	CHECK(ssd_srv_close(s) == 0);

	char path[] = "/tmp/ssdlab-serve-z-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	s = srv_with(drive("tiny", NULL, 0), SSD_SRV_FAST, 1, path);
	CHECKF(s, "%s", err);
	static uint8_t big[1 << 20];
	fill(big, sizeof big, 9);
	CHECK(ssd_srv_write(s, big, sizeof big, 0, 0) == 0);
	struct stat a, b;
	CHECK(stat(path, &a) == 0);
	CHECK(ssd_srv_zero(s, sizeof big, 0, 0) == 0);
	CHECK(stat(path, &b) == 0);
	CHECKF(b.st_blocks == a.st_blocks, "%lld -> %lld", (long long)a.st_blocks,
	       (long long)b.st_blocks);
	CHECK(ssd_srv_read(s, big, sizeof big, 0) == 0 && all_zero(big, sizeof big));
	CHECK(ssd_srv_close(s) == 0);
	unlink(path);
}

/* A server that fails to open removes the data file it made, so that the
 * corrected command can use the name. */
TEST(serve_failed_open_leaves_no_data_file)
{
	char path[] = "/tmp/ssdlab-serve-f-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	unlink(path);
	struct ssd_srv *s = NULL;
	struct ssd_srv_opts o = {.cfg = drive("tiny", NULL, 0), .clock = SSD_SRV_FAST,
				 .data = path, .stats_interval = 1000000000,
				 .stats_log = "/nonexistent-dir/s.csv"};
	CHECK(ssd_srv_open(&o, &s, err, sizeof err) < 0);
	CHECKF(strstr(err, "stats log: cannot write '/nonexistent-dir/s.csv': No such "
		      "file") != NULL, "%s", err);
	CHECK(access(path, F_OK) != 0);
}

/* The server's files under faults (base/ofile.h): a report that cannot
 * be written leaves the old one and fails the close; a stats log that
 * cannot be written is removed and named; the data file's failed write
 * or sync is the request's error, naming the file. */
TEST(serve_files_that_cannot_be_written)
{
	char rep[] = "/tmp/ssdlab-serve-rep-XXXXXX", log[] = "/tmp/ssdlab-serve-log-XXXXXX";
	int fd = mkstemp(rep);
	CHECK(fd >= 0 && write(fd, "old\n", 4) == 4);
	close(fd);
	fd = mkstemp(log);
	CHECK(fd >= 0);
	close(fd);
	struct ssd_srv *s = NULL;
	struct ssd_srv_opts o = {.cfg = drive("tiny", NULL, 0), .clock = SSD_SRV_FAST,
				 .output = rep, .stats_interval = 1000000,
				 .stats_log = log};
	CHECKF(ssd_srv_open(&o, &s, err, sizeof err) == 0, "%s", err);
	static uint8_t b[4096];
	/* a row of the log fails (the counts start here) */
	CHECK(!ssd_ofile_faults("write:2"));
	for (int i = 0; i < 200; i++)
		CHECK(ssd_srv_write(s, b, 4096, (uint64_t)i * 4096, 0) == 0);
	char ferr[400];
	CHECK(ssd_srv_file_error(s, ferr, sizeof ferr));
	CHECKF(strstr(ferr, "stats log: cannot write '") && strstr(ferr, log) &&
	       strstr(ferr, "No space left on device"), "%s", ferr);
	CHECK(access(log, F_OK) && errno == ENOENT);
	/* the report's rename fails: the old report stays */
	CHECK(!ssd_ofile_faults("rename:1"));
	CHECK(ssd_srv_report(s) == -EIO);
	CHECKF(strstr(ssd_srv_error(s), "report: cannot write '") &&
	       strstr(ssd_srv_error(s), "Input/output error"), "%s", ssd_srv_error(s));
	char text[16] = "";
	FILE *f = fopen(rep, "r");
	CHECK(f && fgets(text, sizeof text, f) && !strcmp(text, "old\n"));
	fclose(f);
	ssd_ofile_faults("");
	/* the final report is written, but the session lost a file */
	CHECK(ssd_srv_close(s) == -EIO);
	CHECKF(strstr(ssd_srv_error(s), "stats log: cannot write"), "%s", ssd_srv_error(s));
	f = fopen(rep, "r");
	CHECK(f && fgets(text, sizeof text, f) && strcmp(text, "old\n"));
	fclose(f);
	unlink(rep);

	/* the data file */
	char path[] = "/tmp/ssdlab-serve-d-XXXXXX";
	fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	s = srv_with(drive("tiny", NULL, 0), SSD_SRV_FAST, 1, path);
	CHECKF(s, "%s", err);
	CHECK(!ssd_ofile_faults("write:1"));
	int rc = ssd_srv_write(s, b, 4096, 8192, 0);
	CHECK(!ssd_ofile_faults("fsync:1"));
	int frc = ssd_srv_flush(s, NULL);
	ssd_ofile_faults("");
	CHECK(rc == -ENOSPC && frc == -EIO);
	CHECKF(strstr(ssd_srv_error(s), "the data file ") &&
	       strstr(ssd_srv_error(s), path), "%s", ssd_srv_error(s));
	CHECK(ssd_srv_write(s, b, 4096, 8192, 0) == 0 && ssd_srv_flush(s, NULL) == 0);
	CHECK(ssd_srv_close(s) == 0);
	unlink(path);
}

/* The report's I/O depths count the reads, writes and trims (fio's),
 * not the flushes between them: they add up to 100%. */
TEST(serve_depths_count_the_data_commands)
{
	struct ssd_srv *s = fast_tiny();
	CHECKF(s, "%s", err);
	static uint8_t b[4096];
	CHECK(ssd_srv_write(s, b, 4096, 0, 0) == 0);
	for (int i = 0; i < 3; i++)
		CHECK(ssd_srv_flush(s, NULL) == 0);
	CHECK(ssd_srv_write(s, b, 4096, 4096, 0) == 0);
	CHECK(ssd_srv_write(s, b, 4096, 1u << 30, 0) == -EINVAL); /* refused */
	char rep[] = "/tmp/ssdlab-serve-d-XXXXXX";
	int fd = mkstemp(rep);
	CHECK(fd >= 0);
	close(fd);
	CHECK(ssd_srv_close(s) == 0);
	struct ssd_srv_opts o = {.cfg = drive("tiny", NULL, 0), .clock = SSD_SRV_FAST,
				 .output = rep};
	CHECK(ssd_srv_open(&o, &s, err, sizeof err) == 0);
	CHECK(ssd_srv_write(s, b, 4096, 0, 0) == 0);
	for (int i = 0; i < 3; i++)
		CHECK(ssd_srv_flush(s, NULL) == 0);
	CHECK(ssd_srv_close(s) == 0);
	FILE *f = fopen(rep, "r");
	CHECK(f);
	static char text[1 << 16];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = 0;
	CHECKF(strstr(text, "IO depths    : 1=100.0%") != NULL, "%s", text);
	unlink(rep);
}

static struct ssd_srv *srv_power_qd(const struct ssd_config *c, int clock, uint32_t qd)
{
	struct ssd_srv *s = NULL;
	if (!c)
		return NULL;
	struct ssd_srv_opts o = {.cfg = c, .seed = 1, .clock = clock, .fast_qd = qd,
				 .output = "/dev/null", .power_cuts = 1};
	if (ssd_srv_open(&o, &s, err, sizeof err))
		return NULL;
	return s;
}

static struct ssd_srv *srv_power(const struct ssd_config *c, int clock)
{
	return srv_power_qd(c, clock, 1);
}

/* A cut brings back, page by page, what the drive kept: the flushed
 * content where the unflushed one was lost, the unflushed one where it
 * was programmed in time; a trim lost reads its data again. */
TEST(serve_power_cut_store_follows_the_drive)
{
	static const char *const kv[] = {"page_size=16k", "capacity=256m",
					 "write_buffer=1m"};
	struct ssd_srv *s = srv_power(drive("tiny", kv, 3), SSD_SRV_FAST);
	CHECK(s);
	uint8_t *a = malloc(1 << 20), *b = malloc(1 << 20), *r = malloc(1 << 20);
	CHECK(a && b && r);
	fill(a, 1 << 20, 1);
	fill(b, 1 << 20, 2);
	CHECK(!ssd_srv_write(s, a, 1 << 20, 0, 0));
	CHECK(!ssd_srv_flush(s, NULL));
	CHECK(!ssd_srv_write(s, b, 1 << 20, 0, 0));
	CHECK(!ssd_srv_trim(s, 1 << 16, 1 << 20, 0)); /* never written: zeros */
	uint64_t lost = 0;
	int64_t rec = -1;
	CHECK(!ssd_srv_power_cut(s, &lost, &rec));
	CHECK(lost > 0 && rec >= 0);
	CHECK(!ssd_srv_read(s, r, 1 << 20, 0));
	uint64_t older = 0;
	for (uint32_t p = 0; p < 256; p++) {
		const uint8_t *got = r + p * 4096;
		int is_a = !memcmp(got, a + p * 4096, 4096);
		CHECK(is_a || !memcmp(got, b + p * 4096, 4096));
		older += is_a;
	}
	CHECK(older == lost);
	/* a second cut with nothing in flight loses nothing */
	CHECK(!ssd_srv_flush(s, NULL));
	CHECK(!ssd_srv_power_cut(s, &lost, NULL));
	CHECK(lost == 0);
	free(a);
	free(b);
	free(r);
	CHECK(!ssd_srv_close(s));
	/* without power_cuts the call is refused */
	s = fast_tiny();
	CHECK(s);
	CHECK(ssd_srv_power_cut(s, NULL, NULL) == -EINVAL);
	CHECK(!ssd_srv_close(s));
}

/* A page a TRIM covers in part keeps its data through a cut: 8 KiB
 * written and flushed, 4 KiB at 512 trimmed and flushed, then part of
 * page 1 rewritten and the power cut before a flush.  The rewrite is
 * lost, and the pages come back whole as they were flushed -- not the
 * trimmed bytes as zeros, nor page 1 as zeros, as a record of the TRIM
 * taking every page it touches brought them back. */
TEST(serve_power_cut_keeps_a_page_trimmed_in_part)
{
	static const char *const kv[] = {"write_buffer=1m"};
	struct ssd_srv *s = srv_power(drive("tiny", kv, 1), SSD_SRV_FAST);
	CHECK(s);
	static uint8_t a[8192], b[2048], r[8192];
	fill(a, sizeof a, 7);
	fill(b, sizeof b, 8);
	CHECK(!ssd_srv_write(s, a, sizeof a, 0, 0));
	CHECK(!ssd_srv_flush(s, NULL));
	CHECK(!ssd_srv_trim(s, 4096, 512, 0));
	CHECK(!ssd_srv_flush(s, NULL));
	CHECK(!ssd_srv_write(s, b, sizeof b, 6144, 0));
	uint64_t lost = 0;
	CHECKF(!ssd_srv_power_cut(s, &lost, NULL), "%s", ssd_srv_error(s));
	CHECK(lost == 1);
	CHECK(!ssd_srv_read(s, r, sizeof r, 0));
	CHECK(!memcmp(r, a, sizeof a));
	CHECK(!ssd_srv_close(s));
}

/* A client that was answered writes before a cut and flushes after it
 * is not told they are durable: each connection open at a cut that lost
 * pages fails every flush from then on; one opened after it flushes, and
 * a cut that lost nothing (plp) fails none. */
TEST(serve_power_cut_fails_the_flushes_of_the_clients_it_caught)
{
	for (int plp = 0; plp < 2; plp++) {
		const char *const kv[] = {"page_size=16k", "capacity=256m",
					  "write_buffer=1m", plp ? "plp=yes" : "plp=no"};
		struct ssd_srv *s = srv_power(drive("tiny", kv, 4), SSD_SRV_FAST);
		CHECK(s);
		struct ssd_srv_conn a, late;
		ssd_srv_conn_init(s, &a);
		uint8_t *w = malloc(1 << 20);
		CHECK(w);
		fill(w, 1 << 20, 3);
		CHECK(!ssd_srv_write(s, w, 1 << 20, 0, 0));
		CHECK(!ssd_srv_flush(s, &a));
		CHECK(!ssd_srv_write(s, w, 1 << 20, 1 << 20, 0));
		uint64_t lost = 0;
		CHECK(!ssd_srv_power_cut(s, &lost, NULL));
		CHECK(plp ? lost == 0 : lost > 0);
		ssd_srv_conn_init(s, &late);
		CHECK(!ssd_srv_flush(s, &late));
		int want = plp ? 0 : -EIO;
		for (int i = 0; i < 3; i++) {
			int rc = ssd_srv_flush(s, &a);
			CHECKF(rc == want, "plp=%d: flush %d after the cut: %d", plp, i, rc);
			if (rc)
				CHECKF(strstr(ssd_srv_error(s), "reconnect") != NULL, "%s",
				       ssd_srv_error(s));
		}
		/* writes and reads go on; a cut with nothing in flight loses
		 * nothing and fails no flush of a client that came after */
		CHECK(!ssd_srv_write(s, w, 4096, 0, 0));
		CHECK(!ssd_srv_read(s, w, 4096, 0));
		CHECK(!ssd_srv_flush(s, &late));
		CHECK(!ssd_srv_power_cut(s, &lost, NULL));
		CHECK(lost == 0);
		CHECK(!ssd_srv_flush(s, &late));
		free(w);
		CHECK(!ssd_srv_close(s));
	}
}

/* A client that never flushes: the history holds what a cut may still
 * bring back -- about the drive's work in flight -- not every page it
 * rewrote, and a cut still finds every surviving content it needs.
 * (Rewriting pages while their latest write is still in flight keeps
 * each older content: the region is larger than the work in flight.) */
TEST(serve_power_history_follows_the_work_in_flight)
{
	static const char *const kv[] = {"page_size=16k", "capacity=256m",
					 "write_buffer=1m"};
	struct ssd_srv *s = srv_power(drive("tiny", kv, 3), SSD_SRV_FAST);
	CHECK(s);
	enum { PAGES = 2048, ROUNDS = 6, W = 16 };
	uint8_t *b = malloc(W * 4096), *r = malloc(PAGES * 4096);
	CHECK(b && r);
	uint64_t most = 0;
	for (unsigned v = 0; v < ROUNDS; v++) {
		for (uint32_t p = 0; p < PAGES; p += W) {
			for (uint32_t i = 0; i < W; i++)
				fill(b + i * 4096, 4096, v * 7919 + p + i);
			CHECK(!ssd_srv_write(s, b, W * 4096, (uint64_t)p * 4096, 0));
		}
		uint64_t h = ssd_srv_power_history(s);
		most = h > most ? h : most;
	}
	/* kept without settling it would be (ROUNDS - 1) x PAGES */
	CHECKF(most <= 4096 + W, "history %llu pages", (unsigned long long)most);
	uint64_t lost = 0;
	CHECKF(!ssd_srv_power_cut(s, &lost, NULL), "%s", ssd_srv_error(s));
	CHECK(lost > 0);
	CHECK(!ssd_srv_read(s, r, PAGES * 4096, 0));
	uint64_t older = 0;
	for (uint32_t p = 0; p < PAGES; p++) {
		unsigned v = ROUNDS;
		while (v-- > 0) {
			fill(b, 4096, v * 7919 + p);
			if (!memcmp(r + (size_t)p * 4096, b, 4096))
				break;
		}
		CHECKF(v < ROUNDS, "page %u holds no content it was given", p);
		older += v != ROUNDS - 1;
	}
	CHECK(older == lost);
	free(b);
	free(r);
	CHECK(!ssd_srv_close(s));
}

/* Random writes, trims and now and then a flush at depth 4, and cuts
 * between them: every cut finds the content each lost page must hold
 * again (the history kept what it needed: no page "not kept"), and each
 * page holds one of the contents it was given, or zeros. */
static void history_case(const char *paired, unsigned flush_permille)
{
	char pp[64];
	snprintf(pp, sizeof pp, "paired_pages=%s", paired);
	const char *const kv[] = {"page_size=16k", "capacity=256m",
				  "write_buffer=2m", pp};
	struct ssd_srv *s = srv_power_qd(drive("tiny", kv, 4), SSD_SRV_FAST, 4);
	CHECK(s);
	enum { PAGES = 8192, OPS = 24000, W = 16 };
	uint32_t *ver = calloc(PAGES, sizeof *ver);
	uint8_t *b = malloc(W * 4096), *r = malloc(4096);
	CHECK(ver && b && r);
	uint64_t x = 12345, cuts_lost = 0, most = 0;
	for (int op = 1; op <= OPS; op++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		uint32_t p = (uint32_t)(x >> 33) % PAGES, n = 1 + (uint32_t)(x >> 20) % W;
		unsigned kind = (unsigned)(x >> 8) % 1000;
		if (p + n > PAGES)
			n = PAGES - p;
		if (kind < 20) {
			CHECK(!ssd_srv_trim(s, n * 4096, (uint64_t)p * 4096, 0));
		} else if (kind < 20 + flush_permille) {
			CHECK(!ssd_srv_flush(s, NULL));
		} else {
			for (uint32_t i = 0; i < n; i++)
				fill(b + i * 4096, 4096, (p + i) * 65537u + ++ver[p + i]);
			CHECK(!ssd_srv_write(s, b, n * 4096, (uint64_t)p * 4096, 0));
		}
		uint64_t h = ssd_srv_power_history(s);
		most = h > most ? h : most;
		if (op % 6000)
			continue;
		uint64_t lost = 0;
		CHECKF(!ssd_srv_power_cut(s, &lost, NULL), "%s", ssd_srv_error(s));
		cuts_lost += lost;
		for (uint32_t q = 0; q < PAGES; q++) {
			CHECK(!ssd_srv_read(s, r, 4096, (uint64_t)q * 4096));
			int ok = all_zero(r, 4096);
			for (uint32_t v = ver[q]; v > 0 && !ok; v--) {
				fill(b, 4096, q * 65537u + v);
				ok = !memcmp(r, b, 4096);
			}
			CHECKF(ok, "page %u after cut %d", q, op / 6000);
		}
	}
	CHECK(cuts_lost > 0);
	/* the history settled: more than it keeps was rewritten between
	 * flushes */
	CHECKF((flush_permille > 1 || most > 2048) && most <= 4096 + W, "history %llu",
	       (unsigned long long)most);
	free(ver);
	free(b);
	free(r);
	CHECK(!ssd_srv_close(s));
}

/* ... and so with paired pages: unprotected, a cut may take flushed
 * content too, and the history must still hold what comes back. */
TEST(serve_power_history_settles_only_what_cannot_come_back)
{
	history_case("independent", 1);
	history_case("protected", 1);
	history_case("unprotected", 1);
	/* flushes often: a flushed page in a lower page is lost and its
	 * older content must come back */
	history_case("independent", 50);
	history_case("unprotected", 50);
}

struct fua_arg {
	struct ssd_srv *s;
	uint8_t *buf;
	int rc;
};

static void *fua_write(void *p)
{
	struct fua_arg *a = p;
	a->rc = ssd_srv_write(a->s, a->buf, 4096, 0, SSD_SRV_FUA);
	return NULL;
}

/* The real clock: a request still waiting for its completion when the
 * power goes fails with EIO -- it was never acknowledged -- and one
 * after the cut is served. */
TEST(serve_power_cut_fails_the_requests_in_flight)
{
	static const char *const kv[] = {"t_prog=300ms", "slc_t_prog=300ms"};
	struct ssd_srv *s = srv_power(drive("tiny", kv, 2), SSD_SRV_REAL);
	CHECK(s);
	ssd_srv_start_clock(s);
	uint8_t *b = calloc(1, 4096);
	CHECK(b);
	struct fua_arg a = {s, b, 1};
	pthread_t th;
	CHECK(!pthread_create(&th, NULL, fua_write, &a));
	/* once the write is in the drive it waits for its 300 ms program */
	struct timespec ts = {0, 1000 * 1000};
	for (int i = 0; i < 5000 && !__atomic_load_n(&ssd_srv_dev(s)->clk->host_ios, __ATOMIC_ACQUIRE); i++)
		nanosleep(&ts, NULL);
	CHECK(!ssd_srv_power_cut(s, NULL, NULL));
	pthread_join(th, NULL);
	CHECK(a.rc == -EIO);
	CHECK(!ssd_srv_read(s, b, 4096, 0));
	free(b);
	CHECK(!ssd_srv_close(s));
}

/* The real clock answers client_overhead before the completion (the
 * client's stack takes that long to deliver it): an answered FUA write
 * is a promise, so a cut right after the answer comes no earlier than
 * its completion and keeps it. */
TEST(serve_power_cut_keeps_what_was_answered_early)
{
	static const char *const kv[] = {"t_prog=300ms", "slc_t_prog=300ms"};
	const struct ssd_config *c = drive("tiny", kv, 2);
	CHECK(c);
	struct ssd_srv *s = NULL;
	struct ssd_srv_opts o = {.cfg = c, .seed = 1, .clock = SSD_SRV_REAL,
				 .client_overhead = 250000000, .output = "/dev/null",
				 .power_cuts = 1};
	CHECKF(!ssd_srv_open(&o, &s, err, sizeof err), "%s", err);
	ssd_srv_start_clock(s);
	uint8_t *b = malloc(4096), *r = malloc(4096);
	CHECK(b && r);
	fill(b, 4096, 9);
	CHECK(!ssd_srv_write(s, b, 4096, 0, SSD_SRV_FUA));
	uint64_t lost = 1;
	CHECK(!ssd_srv_power_cut(s, &lost, NULL));
	CHECKF(lost == 0, "%llu pages of an answered FUA write lost",
	       (unsigned long long)lost);
	CHECK(!ssd_srv_read(s, r, 4096, 0));
	CHECK(!memcmp(r, b, 4096));
	free(b);
	free(r);
	CHECK(!ssd_srv_close(s));
}
