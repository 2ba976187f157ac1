/* The public interface (include/ssdlab.h), used as an embedder would. */
#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "ssdlab.h"
#include "t.h"
#include "t_alloc.h"

/* The tiny preset, finished, or NULL. */
static ssdlab_drive *tiny(void)
{
	ssdlab_drive *d;
	if (ssdlab_drive_new(&d) ||
	    ssdlab_drive_load(d, "tiny", NULL, NULL, 0) ||
	    ssdlab_drive_finish(d, NULL, 0)) {
		ssdlab_drive_free(d);
		return NULL;
	}
	return d;
}

TEST(api_version_and_errors)
{
	CHECK(!strcmp(ssdlab_version(), SSDLAB_VERSION));
	CHECK(strstr(ssdlab_strerror(SSDLAB_EROFS), "read-only"));
	CHECK(strcmp(ssdlab_strerror(SSDLAB_ENOMEM), ssdlab_strerror(SSDLAB_EIO)));
}

TEST(api_drive_errors_name_what_is_wrong)
{
	ssdlab_drive *d;
	char err[512];
	CHECK(ssdlab_drive_new(&d) == 0);
	CHECK(ssdlab_drive_load(d, "no-such-drive", NULL, err, sizeof err) ==
	      SSDLAB_ENOENT);
	CHECKF(strstr(err, "no-such-drive"), "%s\n", err);
	CHECK(ssdlab_drive_set(d, "no_such_key", "1", err, sizeof err) ==
	      SSDLAB_ENOENT);
	CHECKF(strstr(err, "no_such_key"), "%s\n", err);
	CHECK(ssdlab_drive_set(d, "op", "lots", err, sizeof err) < 0);
	CHECKF(strstr(err, "op"), "%s\n", err);
	/* not finished: no device */
	ssdlab_dev *dev;
	CHECK(ssdlab_drive_load(d, "tiny", NULL, err, sizeof err) == 0);
	CHECK(ssdlab_dev_open(d, 1, &dev) == SSDLAB_EINVAL && !dev);
	CHECK(ssdlab_drive_set(d, "capacity", "32m", err, sizeof err) == 0);
	CHECK(ssdlab_drive_finish(d, err, sizeof err) == 0);
	CHECK(ssdlab_drive_capacity(d) == 32u << 20);
	CHECK(ssdlab_drive_physical_bytes(d) > ssdlab_drive_capacity(d));
	ssdlab_drive_free(d);
}

/* The memory estimate: 0 before the drive is finished; the program's 3
 * MiB and about 8 bytes per 4 KiB of flash after; verification adds its
 * tables (about 8 bytes more).  What is available is read here (the
 * refusal itself: tests/cli/memory.sh, under ulimit -v). */
TEST(api_drive_memory)
{
	char err[256];
	ssdlab_drive *d;
	CHECK(ssdlab_drive_new(&d) == 0);
	CHECK(ssdlab_drive_load(d, "default", NULL, err, sizeof err) == 0);
	CHECK(ssdlab_drive_set(d, "capacity", "16g", err, sizeof err) == 0);
	CHECK(ssdlab_drive_memory(d, 0) == 0); /* not finished */
	CHECK(ssdlab_drive_finish(d, err, sizeof err) == 0);
	uint64_t m = ssdlab_drive_memory(d, 0), v = ssdlab_drive_memory(d, SSDLAB_MEM_VERIFY);
	uint64_t flash = ssdlab_drive_physical_bytes(d) / 4096;
	ssdlab_drive_free(d);
	CHECKF(m > (3u << 20) + flash * 7 && m < (3u << 20) + flash * 9, "%llu",
	       (unsigned long long)m);
	CHECKF(v > m + flash * 7 && v < m + flash * 9, "%llu", (unsigned long long)v);
	uint64_t avail = 0;
	if (ssdlab_memory_available(&avail))
		SKIP("nothing here says how much memory is available");
	CHECK(avail > 0);
}

TEST(api_commands_and_counters)
{
	ssdlab_drive *d = tiny();
	CHECK(d);
	ssdlab_dev *dev;
	CHECK(ssdlab_dev_open(d, 7, &dev) == 0);
	ssdlab_drive_free(d); /* the device keeps its own copy */
	uint64_t cap = ssdlab_dev_capacity(dev);
	CHECK(cap == 64u << 20);

	int64_t t = ssdlab_submit(dev, SSDLAB_WRITE, 0, 65536, 0);
	CHECK(t > 0);
	int64_t r = ssdlab_submit(dev, SSDLAB_READ, 0, 4096, t);
	CHECK(r > t);
	CHECK(ssdlab_now(dev) == r);
	/* time may not go back; ranges stay inside the drive; ops exist */
	CHECK(ssdlab_submit(dev, SSDLAB_READ, 0, 4096, t - 1) == SSDLAB_EINVAL);
	CHECK(ssdlab_submit(dev, SSDLAB_WRITE, cap, 4096, r) == SSDLAB_EINVAL);
	CHECK(ssdlab_submit(dev, 7, 0, 4096, r) == SSDLAB_EINVAL);
	CHECK(ssdlab_submit(dev, SSDLAB_READ | SSDLAB_FUA, 0, 4096, r) ==
	      SSDLAB_EINVAL);
	int64_t f = ssdlab_submit(dev, SSDLAB_WRITE | SSDLAB_FUA, 65536, 4096, r);
	CHECK(f > r);
	CHECK(ssdlab_flush(dev, f) >= f);

	struct ssdlab_counters c, c2, dc;
	CHECK(ssdlab_counters(dev, &c) == 0);
	CHECK(c.host_write_lp == 17 && c.host_read_lp == 1);
	CHECK(c.host_write_bytes == 17 * 4096);
	CHECK(c.nand_prog_lp >= 17);
	/* a TRIM, then idle time: counted, and the snapshot difference is
	 * just that */
	int64_t tr = ssdlab_submit(dev, SSDLAB_TRIM, 0, 65536, ssdlab_now(dev));
	CHECK(tr >= 0);
	CHECK(ssdlab_idle(dev, ssdlab_now(dev) + 1000000000) == 0);
	CHECK(ssdlab_counters(dev, &c2) == 0);
	ssdlab_counters_sub(&c2, &c, &dc);
	CHECK(dc.host_trim_lp == 16 && dc.host_write_lp == 0);
	CHECK(isnan(ssdlab_waf(&dc))); /* no host writes in the window */

	struct ssdlab_health h;
	CHECK(ssdlab_health(dev, &h) == 0);
	CHECK(!h.read_only && h.host_bytes_written == 17 * 4096);
	CHECK(h.free_blocks > 0 && h.available_spare > 99);
	ssdlab_dev_close(dev);
}

/* Fill then random writes, built in code; the same as text. */
static int build(ssdlab_jobs *w)
{
	ssdlab_jobs_global(w);
	ssdlab_jobs_set(w, "bs", "4k");
	ssdlab_jobs_add(w, "fill");
	ssdlab_jobs_set(w, "rw", "write");
	ssdlab_jobs_set(w, "bs", "128k");
	ssdlab_jobs_add(w, "random");
	ssdlab_jobs_set(w, "stonewall", NULL);
	ssdlab_jobs_set(w, "rw", "randwrite");
	ssdlab_jobs_set(w, "iodepth", "16");
	ssdlab_jobs_set(w, "io_size", "100%");
	return ssdlab_jobs_set(w, "norandommap", NULL);
}

static const char text[] =
	"[global]\nbs=4k\n"
	"[fill]\nrw=write\nbs=128k\n"
	"[random]\nstonewall\nrw=randwrite\niodepth=16\nio_size=100%\n"
	"norandommap\n";

/* Run a workload on a fresh tiny drive; the result and its device. */
static int run(int built, ssdlab_dev **dev, ssdlab_result **res)
{
	ssdlab_drive *d = tiny();
	ssdlab_jobs *w = NULL;
	char err[512];
	int rc = d ? ssdlab_dev_open(d, 3, dev) : SSDLAB_EINVAL;
	if (!rc)
		rc = ssdlab_jobs_new("t", ssdlab_dev_capacity(*dev), &w);
	if (!rc)
		rc = built ? build(w) : ssdlab_jobs_parse(w, text, err, sizeof err);
	if (!rc)
		rc = ssdlab_run(*dev, w, 11, res, err, sizeof err);
	ssdlab_jobs_free(w); /* the result keeps what it needs */
	ssdlab_drive_free(d);
	return rc;
}

TEST(api_built_jobs_run_as_parsed_ones)
{
	ssdlab_dev *da = NULL, *db = NULL;
	ssdlab_result *a = NULL, *b = NULL;
	CHECK(run(1, &da, &a) == 0 && a);
	CHECK(run(0, &db, &b) == 0 && b);
	CHECK(ssdlab_result_jobs(a) == 2 && ssdlab_result_jobs(b) == 2);
	for (int j = 0; j < 2; j++) {
		struct ssdlab_job_stats sa, sb;
		CHECK(ssdlab_result_job(a, j, &sa) == 0);
		CHECK(ssdlab_result_job(b, j, &sb) == 0);
		CHECK(!strcmp(sa.name, sb.name) && sa.error == 0);
		CHECK(sa.dir[SSDLAB_WRITE].ios == sb.dir[SSDLAB_WRITE].ios);
		CHECK(sa.runtime_ns == sb.runtime_ns);
		CHECK(!memcmp(&sa.ctr, &sb.ctr, sizeof sa.ctr));
		CHECK(ssdlab_result_percentile(a, j, SSDLAB_WRITE, 99) ==
		      ssdlab_result_percentile(b, j, SSDLAB_WRITE, 99));
	}
	struct ssdlab_job_stats fill, rnd;
	ssdlab_result_job(a, 0, &fill);
	ssdlab_result_job(a, 1, &rnd);
	CHECK(fill.dir[SSDLAB_WRITE].bytes == 64u << 20);
	CHECK(rnd.dir[SSDLAB_WRITE].bytes == 64u << 20);
	/* sequential fill: no GC; random writes into a full drive: GC, and
	 * a latency tail above the fill's */
	CHECK(fill.ctr.gc_copy_lp == 0 && fabs(fill.waf - 1) < 0.01);
	CHECK(rnd.ctr.gc_copy_lp > 0 && rnd.waf > 1.5);
	CHECK(rnd.waf == ssdlab_waf(&rnd.ctr));
	CHECK(ssdlab_result_percentile(a, 1, SSDLAB_WRITE, 99.9) >
	      ssdlab_result_percentile(a, 1, SSDLAB_WRITE, 50));
	CHECK(rnd.health.erase_max > 0);

	/* the report, as the tool writes it */
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	CHECK(f);
	CHECK(ssdlab_report(a, "json", f) == 0);
	CHECK(ssdlab_report(a, "yaml", f) == SSDLAB_EPARSE);
	fclose(f);
	CHECK(strstr(buf, "\"jobname\" : \"random\""));
	free(buf);
	ssdlab_result_free(a);
	ssdlab_result_free(b);
	ssdlab_dev_close(da);
	ssdlab_dev_close(db);
}

TEST(api_job_errors_stick_and_name_the_option)
{
	ssdlab_jobs *w;
	char err[512] = "";
	CHECK(ssdlab_jobs_new("mine", 64u << 20, &w) == 0);
	CHECK(ssdlab_jobs_set(w, "rw", "write") == SSDLAB_EINVAL); /* no section */
	ssdlab_jobs_add(w, "a");
	CHECK(ssdlab_jobs_set(w, "rw", "sideways") < 0);
	CHECK(ssdlab_jobs_set(w, "bs", "4k") < 0); /* sticky */
	CHECK(ssdlab_jobs_end(w, err, sizeof err) < 0);
	CHECKF(strstr(err, "mine") && strstr(err, "'rw'"), "%s\n", err);
	CHECK(ssdlab_jobs_count(w) == 0);
	ssdlab_jobs_free(w);

	/* text into a workload that has sections: refused */
	CHECK(ssdlab_jobs_new(NULL, 64u << 20, &w) == 0);
	ssdlab_jobs_add(w, "a");
	CHECK(ssdlab_jobs_parse(w, "[b]\n", err, sizeof err) == SSDLAB_EINVAL);
	ssdlab_jobs_free(w);

	/* a parse error names file, line and option */
	CHECK(ssdlab_jobs_new("file.fio", 64u << 20, &w) == 0);
	CHECK(ssdlab_jobs_parse(w, "[a]\niodepth=lots\n", err, sizeof err) < 0);
	CHECKF(strstr(err, "file.fio:2") && strstr(err, "iodepth"), "%s\n", err);
	ssdlab_jobs_free(w);
}

/* The whole public path once: drive, commands, a built job, a run and
 * its report.  0, or the first error met. */
static int session(void)
{
	ssdlab_drive *d = NULL;
	ssdlab_dev *dev = NULL;
	ssdlab_jobs *w = NULL;
	ssdlab_result *res = NULL;
	int rc = ssdlab_drive_new(&d);
	if (!rc)
		rc = ssdlab_drive_load(d, "tiny", NULL, NULL, 0);
	if (!rc)
		rc = ssdlab_drive_set(d, "capacity", "16m", NULL, 0);
	if (!rc)
		rc = ssdlab_drive_finish(d, NULL, 0);
	if (!rc)
		rc = ssdlab_dev_open(d, 1, &dev);
	if (!rc) {
		int64_t t = ssdlab_submit(dev, SSDLAB_WRITE, 0, 1 << 20, 0);
		rc = t < 0 ? (int)t : 0;
	}
	if (!rc)
		rc = ssdlab_jobs_new("s", ssdlab_dev_capacity(dev), &w);
	if (!rc) {
		ssdlab_jobs_add(w, "r");
		ssdlab_jobs_set(w, "rw", "randrw");
		ssdlab_jobs_set(w, "bssplit", "4k/50:64k/50");
		ssdlab_jobs_set(w, "io_size", "2m");
		rc = ssdlab_jobs_end(w, NULL, 0);
	}
	if (!rc)
		rc = ssdlab_run(dev, w, 1, &res, NULL, 0);
	if (!rc) {
		struct ssdlab_job_stats st;
		ssdlab_result_job(res, 0, &st);
		rc = st.error;
	}
	if (!rc) {
		FILE *f = tmpfile();
		rc = f ? ssdlab_report(res, "json+,normal", f) : SSDLAB_EIO;
		if (f)
			fclose(f);
	}
	ssdlab_result_free(res);
	ssdlab_jobs_free(w);
	ssdlab_dev_close(dev);
	ssdlab_drive_free(d);
	return rc;
}

/* Every allocation of that path, failed in turn, is SSDLAB_ENOMEM: never
 * a crash, an exit or a leak (ASan checks the last two). */
TEST(api_out_of_memory_is_an_error_code)
{
	long n = 1;
	for (; n < 100000; n++) {
		t_alloc_fail_at(n);
		int rc = session();
		int hit = t_alloc_failed();
		t_alloc_fail_at(0);
		if (!hit) {
			CHECKF(rc == 0, "no failure, returned %d\n", rc);
			break;
		}
		CHECKF(rc == SSDLAB_ENOMEM, "allocation %ld failed: %d (%s)\n",
		       n, rc, ssdlab_strerror(rc));
	}
	CHECKF(n > 20, "only %ld allocations\n", n);
}

/* FUA and flush wait for the program of a page that is already full: on
 * the tiny drive one 4 KiB write fills a whole write unit, which goes to
 * the flash at once and programs for its tPROG (hundreds of us, by page type) after the write
 * completes. */
TEST(api_fua_and_flush_wait_for_a_full_page_programming)
{
	ssdlab_drive *d = tiny();
	CHECK(d);
	ssdlab_dev *dev;
	CHECK(ssdlab_dev_open(d, 1, &dev) == 0);
	ssdlab_drive_free(d);
	const int64_t s = 1000000000;
	int64_t plain = ssdlab_submit(dev, SSDLAB_WRITE, 0, 4096, 0);
	CHECK(plain > 0);
	int64_t fua = ssdlab_submit(dev, SSDLAB_WRITE | SSDLAB_FUA, 4096, 4096, s);
	CHECK(fua > s);
	CHECKF(fua - s > 100000 && fua - s > 10 * plain,
	       "plain write %lld ns, FUA write %lld ns\n", (long long)plain,
	       (long long)(fua - s));
	int64_t w = ssdlab_submit(dev, SSDLAB_WRITE, 8192, 4096, 2 * s);
	CHECK(w > 2 * s);
	int64_t f = ssdlab_flush(dev, w);
	CHECKF(f - w > 100000, "flush after a full page: %lld ns\n",
	       (long long)(f - w));
	/* nothing in flight: a flush is quick */
	int64_t f2 = ssdlab_flush(dev, 3 * s);
	CHECK(f2 >= 3 * s && f2 - 3 * s < 100000);
	ssdlab_dev_close(dev);
}

TEST(api_promises_kept_at_the_edges)
{
	ssdlab_jobs *w;
	char err[512] = "";
	CHECK(ssdlab_jobs_new("x", 4095, &w) == SSDLAB_EINVAL && !w);
	/* an error sticks for section calls too */
	CHECK(ssdlab_jobs_new("x", 64u << 20, &w) == 0);
	CHECK(ssdlab_jobs_add(w, "a") == 0);
	int rc = ssdlab_jobs_set(w, "bs", "banana");
	CHECK(rc < 0);
	CHECK(ssdlab_jobs_add(w, "b") == rc && ssdlab_jobs_global(w) == rc);
	CHECK(ssdlab_jobs_end(w, err, sizeof err) == rc);
	ssdlab_jobs_free(w);

	/* jobs made for another capacity are refused, saying so */
	ssdlab_drive *d = tiny();
	ssdlab_dev *dev;
	CHECK(d && ssdlab_dev_open(d, 1, &dev) == 0);
	CHECK(ssdlab_jobs_new("big", 256u << 20, &w) == 0);
	ssdlab_jobs_add(w, "a");
	ssdlab_jobs_set(w, "rw", "write");
	ssdlab_result *res = NULL;
	CHECK(ssdlab_run(dev, w, 1, &res, err, sizeof err) == SSDLAB_EINVAL);
	CHECKF(!res && strstr(err, "268435456") && strstr(err, "67108864"),
	       "%s\n", err);
	ssdlab_jobs_free(w);

	/* a report or a drive that cannot be written is SSDLAB_EIO */
	CHECK(ssdlab_jobs_new("w", ssdlab_dev_capacity(dev), &w) == 0);
	ssdlab_jobs_add(w, "a");
	ssdlab_jobs_set(w, "rw", "write");
	ssdlab_jobs_set(w, "size", "1m");
	CHECK(ssdlab_run(dev, w, 1, &res, err, sizeof err) == 0);
	for (int i = 0; i < 4; i++) {
		FILE *full = fopen("/dev/full", "w"); /* each call its own */
		if (!full) {
			ssdlab_result_free(res);
			ssdlab_jobs_free(w);
			ssdlab_dev_close(dev);
			ssdlab_drive_free(d);
			SKIP("no /dev/full here: the reports' write errors");
		}
		rc = i == 0 ? ssdlab_report(res, "normal", full)
		   : i == 1 ? ssdlab_report(res, "terse", full)
		   : i == 2 ? ssdlab_drive_json(d, full)
			    : ssdlab_drive_print(d, full);
		fclose(full);
		CHECKF(rc == SSDLAB_EIO, "case %d: %d\n", i, rc);
	}
	ssdlab_result_free(res);
	ssdlab_jobs_free(w);
	ssdlab_dev_close(dev);
	ssdlab_drive_free(d);
}

TEST(api_machine_page_cache_and_direct)
{
	/* a drive file with a page cache: commands are buffered unless
	 * SSDLAB_DIRECT; on a bare drive the flag changes nothing */
	ssdlab_drive *d;
	char err[512];
	CHECK(ssdlab_drive_new(&d) == 0);
	CHECK(ssdlab_drive_load(d, "tiny", NULL, err, sizeof err) == 0);
	CHECK(ssdlab_drive_finish(d, err, sizeof err) == 0);
	ssdlab_dev *bare;
	CHECK(ssdlab_dev_open(d, 1, &bare) == 0);
	int64_t a = ssdlab_submit(bare, SSDLAB_WRITE, 0, 4096, 0);
	int64_t b = ssdlab_submit(bare, SSDLAB_WRITE | SSDLAB_DIRECT, 4096, 4096, a);
	CHECK(a > 0 && b - a == a); /* the same write, the same time */
	ssdlab_dev_close(bare);
	CHECK(ssdlab_drive_set(d, "page_cache", "8m", err, sizeof err) == 0);
	CHECK(ssdlab_drive_finish(d, err, sizeof err) == 0);
	ssdlab_dev *m;
	CHECK(ssdlab_dev_open(d, 1, &m) == 0);
	int64_t buf = ssdlab_submit(m, SSDLAB_WRITE, 0, 4096, 0);
	int64_t dir = ssdlab_submit(m, SSDLAB_WRITE | SSDLAB_DIRECT, 4096, 4096, buf);
	CHECKF(buf < 5000 && dir - buf >= a, "buffered %lld, direct %lld",
	       (long long)buf, (long long)(dir - buf));
	/* the buffered page reaches the drive with a flush */
	struct ssdlab_counters c;
	CHECK(ssdlab_counters(m, &c) == 0);
	CHECK(c.host_write_bytes == 8192);
	CHECK(ssdlab_flush(m, dir) > dir);
	CHECK(ssdlab_counters(m, &c) == 0);
	CHECK(c.nand_prog_lp * 4096 >= 8192);
	ssdlab_dev_close(m);
	ssdlab_drive_free(d);
}

TEST(api_disk_answers_every_command_with_its_completion)
{
	/* a disk with NCQ behind the library's synchronous calls: served
	 * in arrival order, every call answered */
	ssdlab_drive *d;
	char err[512];
	CHECK(ssdlab_drive_new(&d) == 0);
	CHECK(ssdlab_drive_load(d, "hitachi-hdt725032vla360", NULL, err,
				sizeof err) == 0);
	CHECK(ssdlab_drive_finish(d, err, sizeof err) == 0);
	ssdlab_dev *dev;
	CHECK(ssdlab_dev_open(d, 1, &dev) == 0);
	int64_t a = ssdlab_submit(dev, SSDLAB_READ, 0, 4096, 0);
	int64_t b = ssdlab_submit(dev, SSDLAB_READ, 200000000000ull, 4096, 0);
	int64_t w = ssdlab_submit(dev, SSDLAB_WRITE | SSDLAB_FUA, 50000000000ull,
				  4096, 0);
	CHECKF(a > 0 && b > a && w > b, "%lld %lld %lld", (long long)a,
	       (long long)b, (long long)w);
	CHECK(ssdlab_flush(dev, 0) >= w);
	ssdlab_dev_close(dev);
	ssdlab_drive_free(d);
}

/* n random writes and reads from generator state *g from *t on: the sum
 * of their completions (negative: an error). */
static int64_t api_work(ssdlab_dev *dev, uint64_t *g, int n, int64_t *t)
{
	int64_t sum = 0;
	uint64_t pages = ssdlab_dev_capacity(dev) / 4096;
	for (int i = 0; i < n; i++) {
		*g = *g * 6364136223846793005ULL + 1442695040888963407ULL;
		uint64_t r = *g >> 11;
		*t += (int64_t)(r % 5000);
		int64_t c = ssdlab_submit(dev, r % 4 ? SSDLAB_WRITE : SSDLAB_READ,
					  r / 7 % pages * 4096, 4096, *t);
		if (c < 0)
			return c;
		sum += c;
	}
	return sum;
}

TEST(api_snapshot_goes_on_as_the_saved_drive)
{
	ssdlab_drive *d = tiny();
	CHECK(d);
	ssdlab_dev *a, *b = NULL;
	CHECK(ssdlab_dev_open(d, 3, &a) == 0);
	uint64_t g = 5;
	int64_t t = 0;
	CHECK(api_work(a, &g, 50000, &t) > 0);
	char path[64], err[640];
	snprintf(path, sizeof path, "/tmp/ssdlab-api-snap-%d", (int)getpid());
	CHECKF(ssdlab_dev_save(a, path, err, sizeof err) == 0, "%s", err);
	CHECKF(ssdlab_dev_load(path, d, &b, err, sizeof err) == 0, "%s", err);
	CHECK(ssdlab_now(a) == ssdlab_now(b));
	uint64_t g2 = g;
	int64_t t2 = t;
	int64_t sa = api_work(a, &g, 20000, &t), sb = api_work(b, &g2, 20000, &t2);
	CHECK(sa > 0 && sa == sb);
	struct ssdlab_counters ca, cb;
	CHECK(!ssdlab_counters(a, &ca) && !ssdlab_counters(b, &cb));
	CHECK(!memcmp(&ca, &cb, sizeof ca));
	ssdlab_dev_close(b);
	/* another drive is refused by its key; without one, the file's */
	CHECK(ssdlab_drive_set(d, "op", "0.2", NULL, 0) == 0 &&
	      ssdlab_drive_finish(d, NULL, 0) == 0);
	CHECK(ssdlab_dev_load(path, d, &b, err, sizeof err) == SSDLAB_EPARSE && !b);
	CHECKF(strstr(err, "op is 0.07 in it, 0.2 here"), "%s", err);
	CHECK(ssdlab_dev_load(path, NULL, &b, err, sizeof err) == 0);
	ssdlab_dev_close(b);
	CHECK(ssdlab_dev_load("/nonexistent/snap", NULL, &b, err, sizeof err) ==
	      SSDLAB_EIO && !b);
	unlink(path);
	ssdlab_dev_close(a);
	ssdlab_drive_free(d);
}

/* A zoned drive through the public interface: the namespace, writes at
 * the write pointer and the NVMe status off it, Zone Append, a reset
 * that erases and reads back zeros, a zone's descriptor; a conventional
 * drive says it is not zoned and refuses zone commands. */
TEST(api_zoned_drive)
{
	ssdlab_drive *d = tiny();
	ssdlab_dev *dev;
	struct ssdlab_zoned z;
	struct ssdlab_zone zd;
	CHECK(d && ssdlab_dev_open(d, 1, &dev) == 0);
	CHECK(ssdlab_zoned(dev, &z) == 0);
	CHECK(ssdlab_zone_send(dev, SSDLAB_ZONE_RESET, 0, 0, 0) == SSDLAB_EUNSUP);
	CHECK(ssdlab_submit(dev, SSDLAB_WRITE | SSDLAB_APPEND, 0, 4096, 0) ==
	      SSDLAB_EINVAL);
	ssdlab_dev_close(dev);
	CHECK(ssdlab_drive_set(d, "mapping", "zone", NULL, 0) == 0 &&
	      ssdlab_drive_set(d, "max_open_zones", "2", NULL, 0) == 0 &&
	      ssdlab_drive_finish(d, NULL, 0) == 0);
	CHECK(ssdlab_dev_open(d, 1, &dev) == 0);
	CHECK(ssdlab_zoned(dev, &z) == 1);
	CHECK(z.nzones == 64 && z.zone_size == 1 << 20 && z.max_open == 2 &&
	      z.lba == 4096 && ssdlab_dev_capacity(dev) == 64ull << 20);
	int64_t t = ssdlab_submit(dev, SSDLAB_WRITE, 0, 65536, 0);
	CHECK(t > 0);
	CHECK(ssdlab_submit(dev, SSDLAB_WRITE, 0, 4096, t) == SSDLAB_ZNS_EWRITE);
	CHECK(strstr(ssdlab_strerror(SSDLAB_ZNS_EWRITE), "write pointer"));
	CHECK(ssdlab_submit(dev, SSDLAB_TRIM, 0, 4096, t) == SSDLAB_EUNSUP);
	t = ssdlab_submit(dev, SSDLAB_WRITE | SSDLAB_APPEND, 0, 8192, t);
	CHECK(t > 0 && ssdlab_append_offset(dev) == 65536);
	CHECK(ssdlab_zone_report(dev, 0, &zd) == 0);
	CHECK(zd.state == SSDLAB_ZS_IMPLICITLY_OPENED && zd.wp == 73728 &&
	      zd.written == 73728 && zd.cap == 1 << 20);
	CHECK(ssdlab_zone_report(dev, 64, &zd) == SSDLAB_EINVAL);
	t = ssdlab_zone_send(dev, SSDLAB_ZONE_FINISH, 0, 0, t);
	CHECK(t > 0);
	CHECK(ssdlab_zone_send(dev, SSDLAB_ZONE_OPEN, 0, 0, t) ==
	      SSDLAB_ZNS_ETRANSITION);
	t = ssdlab_zone_send(dev, SSDLAB_ZONE_RESET, 0, 1, t);
	CHECK(t > 0);
	struct ssdlab_counters c0, c1;
	ssdlab_counters(dev, &c0);
	CHECK(c0.nand_erase == 4);
	CHECK(ssdlab_submit(dev, SSDLAB_READ, 0, 65536, t) > t);
	ssdlab_counters(dev, &c1);
	CHECK(c1.host_unmapped_read_lp - c0.host_unmapped_read_lp == 16);
	CHECK(ssdlab_zone_report(dev, 0, &zd) == 0 && zd.state == SSDLAB_ZS_EMPTY);
	/* no random write areas on this drive; flags checked */
	CHECK(ssdlab_zone_send(dev, SSDLAB_ZONE_OPEN, 0, SSDLAB_ZONE_ZRWAA, t) ==
	      SSDLAB_ZNS_EFIELD);
	CHECK(ssdlab_zone_send(dev, SSDLAB_ZONE_OPEN, 0, 8, t) == SSDLAB_EINVAL);
	ssdlab_dev_close(dev);
	/* with them: an overwrite in DRAM, a flush */
	CHECK(ssdlab_drive_set(d, "zrwa_size", "32k", NULL, 0) == 0 &&
	      ssdlab_drive_finish(d, NULL, 0) == 0 &&
	      ssdlab_dev_open(d, 1, &dev) == 0);
	t = ssdlab_zone_send(dev, SSDLAB_ZONE_OPEN, 0, SSDLAB_ZONE_ZRWAA, 0);
	t = ssdlab_submit(dev, SSDLAB_WRITE, 4096, 4096, t);
	t = ssdlab_submit(dev, SSDLAB_WRITE, 4096, 4096, t);
	t = ssdlab_zone_send(dev, SSDLAB_ZONE_ZRWA_FLUSH, 4096, 0, t);
	CHECK(t > 0 && ssdlab_zone_report(dev, 0, &zd) == 0 && zd.wp == 8192);
	ssdlab_counters(dev, &c1);
	CHECK(c1.host_write_lp == 1 && c1.host_write_bytes == 8192);
	ssdlab_dev_close(dev);
	ssdlab_drive_free(d);
}

/* Flexible data placement through the public interface: a write names
 * its handle; one the drive does not have fails. */
TEST(api_fdp_placement)
{
	ssdlab_drive *d = tiny();
	ssdlab_dev *dev;
	CHECK(d && ssdlab_drive_set(d, "fdp", "yes", NULL, 0) == 0 &&
	      ssdlab_drive_set(d, "fdp_handles", "2", NULL, 0) == 0 &&
	      ssdlab_drive_set(d, "op", "0.2", NULL, 0) == 0 &&
	      ssdlab_drive_finish(d, NULL, 0) == 0);
	CHECK(ssdlab_dev_open(d, 1, &dev) == 0);
	int64_t t = ssdlab_submit(dev, SSDLAB_WRITE | SSDLAB_PLACEMENT(1), 0,
				  4096, 0);
	CHECK(t > 0);
	CHECK(ssdlab_submit(dev, SSDLAB_WRITE | SSDLAB_PLACEMENT(2), 0, 4096, t) ==
	      SSDLAB_FDP_EPID);
	CHECK(ssdlab_submit(dev, SSDLAB_READ, 0, 4096, t) > t);
	ssdlab_dev_close(dev);
	ssdlab_drive_free(d);
}

/* Reclaim groups, a handle update and the events log through the public
 * interface: the identifiers as the handle status lists them, a write to
 * group 1's handle 1, its reclaim unit updated (left part written: an
 * event), an identifier the drive does not have refused. */
TEST(api_fdp_update_and_events)
{
	ssdlab_drive *d = tiny();
	ssdlab_dev *dev;
	CHECK(d && ssdlab_drive_set(d, "fdp", "yes", NULL, 0) == 0 &&
	      ssdlab_drive_set(d, "fdp_handles", "2", NULL, 0) == 0 &&
	      ssdlab_drive_set(d, "fdp_groups", "2", NULL, 0) == 0 &&
	      ssdlab_drive_set(d, "op", "0.2", NULL, 0) == 0 &&
	      ssdlab_drive_finish(d, NULL, 0) == 0);
	CHECK(ssdlab_dev_open(d, 1, &dev) == 0);
	uint32_t pids[8], want[4] = {0, 0x8000, 1, 0x8001};
	CHECK(ssdlab_placement_ids(dev, pids, 8) == 4 &&
	      memcmp(pids, want, sizeof want) == 0);
	int64_t t = ssdlab_submit(dev, SSDLAB_WRITE | SSDLAB_PLACEMENT(0x8001),
				  0, 16384, 0);
	CHECK(t > 0);
	uint32_t bad = 0x8002, pid = 0x8001;
	CHECK(ssdlab_fdp_update(dev, &bad, 1, t) == SSDLAB_FDP_EPID);
	CHECK(ssdlab_fdp_update(dev, &pid, 1, -1) == SSDLAB_EINVAL);
	int64_t done = ssdlab_fdp_update(dev, &pid, 1, t);
	CHECK(done >= t);
	CHECK(ssdlab_submit(dev, SSDLAB_WRITE | SSDLAB_PLACEMENT(2), 0, 4096,
			    done) == SSDLAB_FDP_EPID);
	struct ssdlab_fdp_event ev[4];
	CHECK(ssdlab_fdp_events(dev, ev, 4) == 2);
	CHECK(ev[0].type == SSDLAB_FDP_EV_RU_UNFILLED && ev[0].pid == 0x8001 &&
	      ev[0].group == 1 && ev[0].handle == 1 && ev[0].t == t);
	CHECK(ev[1].type == SSDLAB_FDP_EV_BAD_PID && ev[1].pid == 2 &&
	      ev[1].t == done);
	CHECK(ssdlab_submit(dev, SSDLAB_READ, 0, 16384, done) > done);
	ssdlab_dev_close(dev);
	ssdlab_drive_free(d);
	/* a drive without FDP: no identifiers, no update */
	d = tiny();
	CHECK(d && ssdlab_dev_open(d, 1, &dev) == 0);
	CHECK(ssdlab_placement_ids(dev, pids, 8) == 0 &&
	      ssdlab_fdp_update(dev, &pid, 1, 0) == SSDLAB_EUNSUP &&
	      ssdlab_fdp_events(dev, ev, 4) == 0);
	ssdlab_dev_close(dev);
	ssdlab_drive_free(d);
}
