/* Job-runner tests: windows, idle time the host spends, errors. */
#include <stdlib.h>
#include <string.h>

#include "machine/device.h"
#include "run/sim.h"
#include "t.h"
#include "t_sim.h"

static char err[512];

/* The tiny preset, a fresh drive. */
static struct ssd_dev *tiny(void)
{
	return t_sim_drive("tiny", NULL, 0, err, sizeof err);
}

/* Run job text on d.  Returns ssd_sim_run's code; *res is filled either
 * way (free it), or zeroed if the text does not parse. */
static int run(struct ssd_dev *d, const char *text, struct ssd_run_result *res)
{
	return t_sim_run(d, text, res, err, sizeof err);
}

/* Fill, then overwrite every page once at random: full of garbage, down
 * to its foreground GC threshold, work for background GC to do. */
static struct ssd_dev *preconditioned(void)
{
	struct ssd_dev *d = tiny();
	struct ssd_run_result res;
	if (!d)
		return NULL;
	int rc = run(d, "[fill]\nrw=write\nbs=128k\niodepth=32\n"
		     "[over]\nstonewall\nrw=randwrite\nbs=4k\niodepth=32\n", &res);
	ssd_run_result_free(&res);
	if (rc) {
		ssd_dev_destroy(d);
		return NULL;
	}
	return d;
}

/* A job's think time at its end is idle time for the drive, exactly as
 * an explicit idle period of the same length, and the next group starts
 * after it: one write and 60 s of thinking lets background GC free
 * blocks before the next job. */
TEST(sim_think_time_at_a_job_end_is_idle_time_for_the_drive)
{
	struct ssd_dev *a = preconditioned(), *b = preconditioned();
	CHECKF(a && b, "%s", err);
	uint64_t free0 = ssd_ftl_free_blocks(a->ftl);
	CHECK(free0 == ssd_ftl_free_blocks(b->ftl));

	struct ssd_run_result ra, rb, rb2;
	CHECKF(run(a, "[idle]\nrw=randwrite\nbs=4k\nio_size=4k\nthinktime=60s\n"
		   "[next]\nstonewall\nrw=randwrite\nbs=4k\nio_size=4k\n",
		   &ra) == 0, "%s", err);
	CHECK(ra.njobs == 2);
	const struct ssd_job_result *idle = &ra.jobs[0], *next = &ra.jobs[1];
	CHECK(idle->dir[SSD_DDIR_WRITE].ios == 1);
	/* the job lasted its write and its think time */
	CHECK(idle->runtime_ns > 60 * SSD_S && idle->runtime_ns < 61 * SSD_S);
	CHECK(next->start_ns >= idle->start_ns + idle->runtime_ns);
	CHECKF(idle->ctr.gc_bg_copy_lp > 0 && idle->free_blocks > free0,
	       "background GC in 60 s of idle time: %llu copies, %llu -> %llu free blocks",
	       (unsigned long long)idle->ctr.gc_bg_copy_lp,
	       (unsigned long long)free0, (unsigned long long)idle->free_blocks);

	/* the same write, then the same 60 s as an explicit idle period */
	CHECKF(run(b, "[idle]\nrw=randwrite\nbs=4k\nio_size=4k\n", &rb) == 0,
	       "%s", err);
	struct ssd_counters c0 = *ssd_dev_counters(b), c1;
	int64_t end = rb.jobs[0].start_ns + rb.jobs[0].runtime_ns;
	ssd_dev_idle(b, end + 60 * SSD_S);
	c1 = *ssd_dev_counters(b);
	CHECK(c1.gc_bg_copy_lp - c0.gc_bg_copy_lp == idle->ctr.gc_bg_copy_lp);
	CHECK(c1.nand_erase - c0.nand_erase + rb.jobs[0].ctr.nand_erase ==
	      idle->ctr.nand_erase);
	CHECKF(run(b, "[next]\nrw=randwrite\nbs=4k\nio_size=4k\n", &rb2) == 0,
	       "%s", err);
	CHECK(rb2.jobs[0].free_blocks == next->free_blocks);
	CHECK(rb2.jobs[0].start_ns == next->start_ns);
	ssd_run_result_free(&ra);
	ssd_run_result_free(&rb);
	ssd_run_result_free(&rb2);
	ssd_dev_destroy(a);
	ssd_dev_destroy(b);
}

/* runtime cuts a think time short, and the job ends at its runtime. */
TEST(sim_runtime_interrupts_think_time)
{
	struct ssd_dev *d = tiny();
	CHECKF(d, "%s", err);
	struct ssd_run_result r;
	CHECKF(run(d, "[j]\nrw=randwrite\nbs=4k\nthinktime=10s\nruntime=25s\n"
		   "[next]\nstonewall\nrw=read\nbs=4k\nio_size=4k\n", &r) == 0,
	       "%s", err);
	CHECK(r.jobs[0].dir[SSD_DDIR_WRITE].ios == 3); /* at 0, 10 s, 20 s */
	CHECK(r.jobs[0].runtime_ns == 25 * SSD_S);
	CHECK(r.jobs[1].start_ns == 25 * SSD_S);
	ssd_run_result_free(&r);
	ssd_dev_destroy(d);
}

/* Every per-job figure covers the commands submitted after the ramp: the
 * drive counters are read when the ramp ends, so the host pages the
 * drive saw are exactly the pages of the I/Os fio's figures count. */
TEST(sim_ramp_time_counts_in_no_figure)
{
	struct ssd_dev *d = tiny();
	CHECKF(d, "%s", err);
	struct ssd_run_result r;
	CHECKF(run(d, "[fill]\nrw=write\nbs=128k\niodepth=32\n"
		   /* a stream busy across the ramp's end */
		   "[busy]\nstonewall\nrw=randrw\nbs=8k\niodepth=32\n"
		   "ramp_time=300ms\nruntime=300ms\ntime_based\n"
		   /* clones reported as one, sharing the window */
		   "[clones]\nstonewall\nrw=randwrite\nbs=4k\niodepth=4\n"
		   "numjobs=3\ngroup_reporting\nramp_time=200ms\nruntime=200ms\n"
		   "time_based\n"
		   /* the ramp ends while the job thinks */
		   "[thinker]\nstonewall\nrw=randwrite\nbs=16k\n"
		   "thinktime=25ms\nramp_time=110ms\nruntime=500ms\n"
		   /* the job is over before its ramp is */
		   "[short]\nstonewall\nrw=randwrite\nbs=4k\nio_size=64k\n"
		   "ramp_time=10s\n", &r) == 0, "%s", err);
	CHECK(r.njobs == 5);
	static const uint32_t pages[] = {32, 2, 1, 4, 1};
	for (int i = 1; i < r.njobs; i++) {
		const struct ssd_job_result *j = &r.jobs[i];
		uint64_t wr = j->dir[SSD_DDIR_WRITE].ios * pages[i];
		uint64_t rd = j->dir[SSD_DDIR_READ].ios * pages[i];
		CHECKF(j->ctr.host_write_lp == wr && j->ctr.host_read_lp == rd,
		       "%s: %llu/%llu pages written/read in the window, fio "
		       "counts %llu/%llu", j->name,
		       (unsigned long long)j->ctr.host_write_lp,
		       (unsigned long long)j->ctr.host_read_lp,
		       (unsigned long long)wr, (unsigned long long)rd);
	}
	CHECK(r.jobs[1].dir[SSD_DDIR_WRITE].ios > 0 &&
	      r.jobs[1].dir[SSD_DDIR_READ].ios > 0);
	CHECK(r.jobs[2].clones == 3 && r.jobs[2].dir[SSD_DDIR_WRITE].ios > 0);
	/* 500 ms from the ramp's end at 110 ms: at most 20 writes (one per
	 * 25 ms of thinking plus its latency) */
	CHECK(r.jobs[3].dir[SSD_DDIR_WRITE].ios > 5 &&
	      r.jobs[3].dir[SSD_DDIR_WRITE].ios <= 20);
	CHECK(r.jobs[3].runtime_ns == 500 * SSD_MS);
	CHECK(r.jobs[4].dir[SSD_DDIR_WRITE].ios == 0 &&
	      r.jobs[4].ctr.host_write_lp == 0 && r.jobs[4].runtime_ns == 0);
	ssd_run_result_free(&r);
	ssd_dev_destroy(d);
}

/* A command the drive refuses ends its job and the run: the error and a
 * message naming the command are in the job's result, the job's figures
 * cover what it did until then, the other job of its group stops, the
 * group after it does not run, and the run returns the error with the
 * result kept for the report.  The drive here is told its capacity is 8
 * MiB after the job was laid out for 64 MiB, so the write at 8 MiB fails
 * (SSD_EINVAL: outside the user capacity). */
TEST(sim_error_ends_the_job_and_the_run_and_keeps_the_result)
{
	struct ssd_dev *d = tiny();
	CHECKF(d, "%s", err);
	struct ssd_job *jobs = NULL;
	int n = 0;
	CHECKF(ssd_jobfile_parse_string(
		       "[writer]\nrw=write\nbs=1m\n"
		       "[reader]\nrw=randread\nbs=4k\nsize=4m\nruntime=10s\ntime_based\n"
		       "[later]\nstonewall\nrw=read\nbs=4k\nio_size=4k\n",
		       "t.fio", d->cfg.capacity, &jobs, &n, err, sizeof err) == 0,
	       "%s", err);
	d->capacity = d->top->capacity = 8 << 20;
	struct ssd_run_result r;
	int rc = ssd_sim_run(d, jobs, n, 1, &r, err, sizeof err);
	free(jobs);
	CHECK(rc == SSD_EINVAL);
	CHECKF(!strcmp(err, "job 'writer': write command at offset 8388608, "
		       "1048576 bytes: invalid argument"), "%s", err);
	CHECK(r.njobs == 2); /* 'later' did not run */
	const struct ssd_job_result *w = &r.jobs[0], *rd = &r.jobs[1];
	CHECK(w->error == SSD_EINVAL);
	CHECKF(!strcmp(w->errmsg, err + strlen("job 'writer': ")), "%s", w->errmsg);
	CHECK(w->dir[SSD_DDIR_WRITE].ios == 8);
	CHECK(w->ctr.host_write_lp == 8 * 256);
	/* the reader stopped with the writer, far short of its 10 s */
	CHECK(rd->error == 0 && rd->dir[SSD_DDIR_READ].ios > 0);
	CHECK(rd->runtime_ns < SSD_S && rd->runtime_ns >= w->runtime_ns);
	ssd_run_result_free(&r);
	ssd_dev_destroy(d);
}

/* A failed invariant check ends the job at once, with the checker's
 * message. */
TEST(sim_failed_invariant_check_ends_the_run)
{
	struct ssd_dev *d = tiny();
	CHECKF(d, "%s", err);
	ssd_ftl_fault_check(d->ftl, "block 7: test");
	struct ssd_run_result r;
	CHECK(run(d, "[w]\nrw=write\nbs=4k\nio_size=8k\n"
		  "[x]\nstonewall\nrw=write\nbs=4k\nio_size=8k\n", &r) == SSD_ESTATE);
	CHECK(r.njobs == 1 && r.jobs[0].error == SSD_ESTATE);
	CHECKF(strstr(r.jobs[0].errmsg, "write command at offset 0, 4096 bytes: "
		      "invariant check failed: block 7: test") != NULL,
	       "%s", r.jobs[0].errmsg);
	CHECK(r.jobs[0].dir[SSD_DDIR_WRITE].ios == 0);
	ssd_run_result_free(&r);
	ssd_dev_destroy(d);
}

/* A drive turned read-only is the drive's state, not a failure: the job
 * ends with SSD_EROFS and the run goes on (reads still work). */
TEST(sim_read_only_drive_ends_only_the_writing_job)
{
	struct ssd_dev *d = tiny();
	CHECKF(d, "%s", err);
	ssd_ftl_fault_readonly(d->ftl);
	struct ssd_run_result r;
	CHECKF(run(d, "[w]\nrw=write\nbs=4k\nio_size=8k\n"
		   "[r]\nstonewall\nrw=read\nbs=4k\nio_size=8k\n", &r) == 0,
	       "%s", err);
	CHECK(r.njobs == 2 && r.jobs[0].error == SSD_EROFS);
	CHECKF(!strcmp(r.jobs[0].errmsg, "write command at offset 0, 4096 bytes: "
		       "drive is read-only"), "%s", r.jobs[0].errmsg);
	CHECK(r.jobs[1].error == 0 && r.jobs[1].dir[SSD_DDIR_READ].ios == 2);
	ssd_run_result_free(&r);
	ssd_dev_destroy(d);
}

/* With the checker on, every job ends with a full check of the maps:
 * state broken by a job that runs no GC is caught when it ends, and the
 * next group does not run. */
TEST(sim_checker_runs_at_the_end_of_every_job)
{
	struct ssd_dev *d = tiny();
	CHECKF(d, "%s", err);
	ssd_ftl_set_check_every(d->ftl, 1000000); /* no GC victim would trigger it */
	ssd_ftl_fault_books(d->ftl); /* books that do not add up */
	struct ssd_run_result r;
	CHECK(run(d, "[w]\nrw=write\nbs=4k\nio_size=8k\n"
		  "[x]\nstonewall\nrw=write\nbs=4k\nio_size=8k\n", &r) == SSD_ESTATE);
	CHECK(r.njobs == 1 && r.jobs[0].error == SSD_ESTATE);
	CHECKF(strstr(r.jobs[0].errmsg, "end of job: invariant check failed") != NULL,
	       "%s", r.jobs[0].errmsg);
	CHECK(r.jobs[0].dir[SSD_DDIR_WRITE].ios == 2);
	ssd_run_result_free(&r);
	ssd_dev_destroy(d);
}

/* group_reporting, as fio's __show_run_stats: an instance with it joins
 * the entry of the instance before it when that one is in the same
 * reporting group, whatever its own setting; new_group and stonewall start
 * another group.  The entry is named after its first job and counts every
 * instance; each direction keeps the runtime of the instances that did
 * I/O that way. */
TEST(sim_group_reporting_merges_a_reporting_group)
{
	struct ssd_dev *d = tiny();
	CHECKF(d, "%s", err);
	struct ssd_run_result r;
	CHECKF(run(d, "[global]\nsize=4m\nbs=4k\n"
		   "[a]\nnumjobs=2\nrw=write\n"            /* two entries */
		   "[b]\ngroup_reporting\nnumjobs=2\nrw=read\nsize=1m\n" /* joins a's 2nd */
		   "[c]\nnew_group\ngroup_reporting\nrw=randwrite\n"
		   "[d]\ngroup_reporting\nnumjobs=3\nrw=randread\n" /* joins c */
		   "[e]\nstonewall\ngroup_reporting\nrw=write\n"
		   "[f]\nrw=read\n", &r) == 0, "%s", err); /* its own */
	CHECKF(r.njobs == 5, "%d entries", r.njobs);
	static const char *const name[] = {"a", "a", "c", "e", "f"};
	static const int gid[] = {0, 0, 1, 2, 2};
	static const uint32_t clones[] = {1, 3, 4, 1, 1}, secs[] = {1, 2, 2, 1, 1};
	for (int i = 0; i < r.njobs && i < 5; i++) {
		const struct ssd_job_result *j = &r.jobs[i];
		CHECKF(!strcmp(j->name, name[i]) && j->groupid == gid[i] &&
		       j->clones == clones[i] && j->nsections == secs[i],
		       "entry %d: %s group %d, %u instances, %u jobs", i,
		       j->name, j->groupid, j->clones, j->nsections);
	}
	/* a's second clone and b's two: 4 MiB written, 2 MiB read, each
	 * direction its own runtime (the reads end first) */
	const struct ssd_job_result *ab = &r.jobs[1];
	CHECK(ab->dir[SSD_DDIR_WRITE].bytes == 4u << 20 &&
	      ab->dir[SSD_DDIR_READ].bytes == 2u << 20);
	CHECK(ab->dir_runtime_ns[SSD_DDIR_READ] > 0 &&
	      ab->dir_runtime_ns[SSD_DDIR_READ] < ab->dir_runtime_ns[SSD_DDIR_WRITE] &&
	      ab->dir_runtime_ns[SSD_DDIR_WRITE] == ab->runtime_ns);
	CHECK(ab->runtime_sum_ns > ab->runtime_ns);
	/* the last job section it reports (its jobs are freed by now: the
	 * pointer only) */
	CHECK(ssd_job_result_last(ab) == ab->job + 1);
	CHECK(r.jobs[2].dir[SSD_DDIR_READ].bytes == 12u << 20 &&
	      r.jobs[2].dir[SSD_DDIR_WRITE].bytes == 4u << 20);
	ssd_run_result_free(&r);
	ssd_dev_destroy(d);
}
