/* The host interface's and the job runner's timing checks (device.h
 * "Timing checks", the runner's clock in run/errors.c): each broken on
 * purpose and caught with the command, its times and its number; and the
 * checks change no result. */
#include <stdlib.h>
#include <string.h>

#include "machine/device.h"
#include "run/sim.h"
#include "nand/flash.h"
#include "t.h"
#include "t_sim.h"

static char err[512];

/* The tiny preset with the "key=value" settings of `set` (NULL-
 * terminated, or NULL), a fresh drive; the checker on if `check`. */
static struct ssd_dev *drive(const char *const *set, int check)
{
	int n = 0;
	while (set && set[n])
		n++;
	struct ssd_dev *d = t_sim_drive("tiny", set, n, err, sizeof err);
	if (d && check)
		ssd_dev_set_check_every(d, 1);
	return d;
}

static const char *failure(const struct ssd_dev *d)
{
	const char *m = ssd_dev_check_failure(d);
	return m ? m : "";
}

static int run(struct ssd_dev *d, const char *text, struct ssd_run_result *res)
{
	return t_sim_run(d, text, res, err, sizeof err);
}

TEST(dev_a_completion_before_its_submission_is_caught)
{
	struct ssd_dev *d = drive(NULL, 1);
	CHECKF(d, "%s", err);
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE, 0, 4096, 0) > 0);
	CHECK(!ssd_dev_check_failure(d));
	ssd_dev_fault_early(d, SSD_S, 0);
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE, 8192, 8192, SSD_MS) < SSD_MS);
	const char *m = failure(d);
	CHECKF(strstr(m, "write command 2 at offset 8192, 8192 bytes, submitted "
		      "at 1000000 ns: completes at -") &&
	       strstr(m, "before it was submitted"), "%s", m);
	ssd_dev_destroy(d);
}

/* A read of a page never written: no flash work, but cmd_overhead and
 * the host link; a completion 1 ns short of them is caught. */
TEST(dev_a_latency_below_its_work_is_caught)
{
	struct ssd_dev *d = drive(NULL, 1);
	CHECKF(d, "%s", err);
	int64_t c = ssd_dev_submit(d, SSD_DDIR_READ, 0, 65536, 0);
	CHECK(c > 0 && !ssd_dev_check_failure(d));
	ssd_dev_fault_early(d, 1, 0);
	c = ssd_dev_submit(d, SSD_DDIR_READ, 0, 65536, SSD_MS);
	const char *m = failure(d);
	CHECKF(strstr(m, "read command 2 at offset 0, 65536 bytes, submitted at "
		      "1000000 ns: completes at ") &&
	       strstr(m, "less than its work (") &&
	       strstr(m, "(20725 ns: cmd_overhead 2000, link 18725)"), "%s", m);
	ssd_dev_destroy(d);
}

/* A write waits at least for its data to cross the link and enter a
 * cache register; with FUA also for a program: a timing table that
 * programs in 1 ns is caught.  (4 KiB pages: the write fills its page,
 * which programs before the flush, so the FTL's flush has no program of
 * its own to answer for and the host interface is the one to see it.) */
TEST(dev_a_fua_write_faster_than_a_program_is_caught)
{
	struct ssd_dev *d = drive(NULL, 1);
	CHECKF(d, "%s", err);
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE | SSD_DEV_FUA, 0, 4096, 0) > 200 * SSD_US);
	CHECKF(!ssd_dev_check_failure(d), "%s", failure(d));
	ssd_ftl_fault_timing(d->ftl, SSD_FLASH_FAULT_T_PROG, 0, 1);
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE | SSD_DEV_FUA, 0, 4096, SSD_S) > SSD_S);
	const char *m = failure(d);
	CHECKF(strstr(m, "write (FUA) command 2 at offset 0, 4096 bytes, submitted "
		      "at 1000000000 ns") &&
	       strstr(m, "less than its work (") && strstr(m, ", program 2"), "%s", m);
	ssd_dev_destroy(d);
}

TEST(dev_a_submission_before_the_previous_one_is_caught)
{
	struct ssd_dev *d = drive(NULL, 1);
	CHECKF(d, "%s", err);
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE, 0, 4096, 2 * SSD_MS) > 0);
	CHECK(ssd_dev_submit(d, SSD_DDIR_TRIM, 0, 4096, SSD_MS) > 0);
	const char *m = failure(d);
	CHECKF(strstr(m, "trim command 2 at offset 0, 4096 bytes, submitted at "
		      "1000000 ns: before the previous submission at 2000000 ns"),
	       "%s", m);
	ssd_dev_destroy(d);
}

/* The same commands on the same drive with the checker on and off get
 * the same completions, on every road: write buffer, read-ahead,
 * partial pages, FUA, TRIM, flush, GC, a map cache, SLC cache, read
 * retries. */
TEST(dev_timing_checks_change_no_completion)
{
	static const char *const a[] = {"write_buffer=64k", "read_ahead=64k",
					"page_size=16k", "pages_per_block=16", NULL};
	static const char *const b[] = {"map_cache=16k", "slc_cache=dynamic",
					"slc_cache_size=4m", "read_retry_rate=0.2",
					"trim_mode=background", NULL};
	static const char *const *const sets[] = {NULL, a, b};
	for (int s = 0; s < 3; s++) {
		struct ssd_dev *on = drive(sets[s], 1), *off = drive(sets[s], 0);
		CHECKF(on && off, "%s", err);
		struct ssd_rng r;
		ssd_rng_seed(&r, 11);
		uint64_t cap = on->cfg.capacity;
		int64_t t = 0;
		for (int i = 0; i < 60000; i++) {
			uint64_t x = ssd_rng_below(&r, 100);
			uint32_t len = 512 * (1 + (uint32_t)ssd_rng_below(&r, 64));
			uint64_t off_b = ssd_rng_below(&r, cap / 512 - 64) * 512;
			if (i % 1000 < 200) /* a sequential stretch */
				off_b = (uint64_t)(i % 1000) * 65536 % (cap - 65536);
			int ddir = x < 50 ? SSD_DDIR_WRITE : x < 85 ? SSD_DDIR_READ
				: x < 93 ? SSD_DDIR_TRIM : x < 97
				? SSD_DDIR_WRITE | SSD_DEV_FUA : SSD_DDIR_SYNC;
			int64_t c1, c2;
			if (ddir == SSD_DDIR_SYNC) {
				c1 = ssd_dev_flush(on, t);
				c2 = ssd_dev_flush(off, t);
			} else {
				c1 = ssd_dev_submit(on, ddir, off_b, len, t);
				c2 = ssd_dev_submit(off, ddir, off_b, len, t);
			}
			CHECKF(c1 == c2 && c1 >= t, "set %d command %d: %lld vs %lld", s,
			       i, (long long)c1, (long long)c2);
			CHECKF(!ssd_dev_check_failure(on), "set %d: %s", s, failure(on));
			/* queue depth about 4: the next one comes before this ends */
			t += (c1 - t) / 4 + (int64_t)ssd_rng_below(&r, 20000);
			if (i % 5000 == 4999)
				t += SSD_S; /* idle time: background GC */
		}
		CHECK(ssd_dev_audit(on) == 0);
		CHECKF(!ssd_dev_check_failure(on), "set %d: %s", s, failure(on));
		CHECKF(ssd_dev_counters(on)->gc_victims > 0, "set %d", s);
		ssd_dev_destroy(on);
		ssd_dev_destroy(off);
	}
}

/* A completion handed out early past the drive's own checks reaches the
 * runner as an event before its clock: the run ends with it. */
TEST(sim_a_runner_clock_going_back_is_caught)
{
	struct ssd_dev *d = drive(NULL, 1);
	CHECKF(d, "%s", err);
	ssd_dev_fault_early(d, 100 * SSD_MS, 1); /* the job starts at 1 s */
	struct ssd_run_result r;
	int rc = run(d, "[w]\nstartdelay=1\nrw=write\nbs=4k\nio_size=64k\n"
		     "[x]\nstonewall\nrw=read\nbs=4k\nio_size=8k\n", &r);
	CHECKF(rc == SSD_ESTATE, "%d %s", rc, err);
	CHECK(r.njobs == 1 && r.jobs[0].error == SSD_ESTATE);
	const char *m = r.jobs[0].errmsg;
	CHECKF(strstr(m, "job runner: invariant check failed: the job runner's "
		      "clock goes back from 1000000000 to 9") &&
	       strstr(m, "a completion event of the write command at offset 0, "
		      "4096 bytes, submitted at "), "%s", m);
	CHECKF(strstr(err, "invariant check failed: the job runner's clock goes back"),
	       "%s", err);
	ssd_run_result_free(&r);
	ssd_dev_destroy(d);
}

/* The flash's timing is part of the full check the runner makes at the
 * end of every job: a die accounted busier than time allows, in a job
 * that runs no GC, ends it. */
TEST(sim_timing_is_checked_at_the_end_of_every_job)
{
	struct ssd_dev *d = drive(NULL, 0);
	CHECKF(d, "%s", err);
	ssd_dev_set_check_every(d, 1000000); /* no GC victim would trigger it */
	ssd_ftl_fault_timing(d->ftl, SSD_FLASH_FAULT_BUSY, 1, SSD_S);
	struct ssd_run_result r;
	CHECK(run(d, "[w]\nrw=write\nbs=4k\nio_size=8k\n"
		  "[x]\nstonewall\nrw=write\nbs=4k\nio_size=8k\n", &r) == SSD_ESTATE);
	CHECK(r.njobs == 1 && r.jobs[0].error == SSD_ESTATE);
	CHECKF(strstr(r.jobs[0].errmsg, "end of job: invariant check failed: die 1 "
		      "was busy ") != NULL, "%s", r.jobs[0].errmsg);
	CHECK(r.jobs[0].dir[SSD_DDIR_WRITE].ios == 2);
	ssd_run_result_free(&r);
	ssd_dev_destroy(d);
}

/* gc_copies = host: GC copies begin host pages on every unit, and the
 * host stream used to stay on any unit with a page open -- one over its
 * limit too, page after page, until the checker found more valid data in
 * it than its blocks hold beside the GC reserve.  The stream now stays
 * only in a page it began (a case the property test drew). */
TEST(dev_gc_copies_host_keeps_units_within_their_limits)
{
	const char *set[] = {"capacity=64m", "page_size=8k", "pages_per_block=32",
		"channels=2", "dies_per_channel=2", "planes_per_die=2",
		"multiplane=yes", "cell=qlc", "op=0.10", "gc_policy=greedy",
		"gc_pacing=yes", "wl_static=no", "gc_copies=host",
		"write_buffer=16k", NULL};
	struct ssd_dev *d = drive(set, 0);
	CHECKF(d, "%s", err);
	ssd_dev_set_check_every(d, 64);
	struct ssd_run_result res;
	int rc = run(d, "[j0]\nrw=randtrim\nbs=64k\niodepth=32\nsize=25%\n"
		     "io_size=50%\nnorandommap\n"
		     "[j1]\nstonewall\nrw=write\nbs=8k\niodepth=32\nnumjobs=3\n"
		     "size=100%\nio_size=200%\n"
		     "[j2]\nstonewall\nrw=randwrite\nbs=512\niodepth=4\nsize=25%\n"
		     "offset=25%\nio_size=200%\nnorandommap\n", &res);
	CHECKF(rc == 0, "%s", err);
	CHECKF(!ssd_dev_check_failure(d), "%s", failure(d));
	ssd_run_result_free(&res);
	ssd_dev_destroy(d);
}
