/*
 * results.c -- the per-job results of a run (struct ssd_job_result,
 * result.h): one per job instance, or one per reporting group entry of
 * fio's group_reporting (a job's clones, and the jobs after it in its
 * reporting group that report with it: sim.c), set up before the run and
 * filled as its instances end.
 *
 * Every per-job figure covers the same window: the commands submitted
 * from the end of the ramp until the job ends.  fio's figures count those
 * commands as they are reaped (loop.c); the drive counters are read when
 * the window opens (lifecycle.c) and here, when the instance ends, so
 * host_pages_written is exactly the pages of the writes fio counts.
 * Instances reported together share a window: the widest of theirs.  The
 * drive's state at the job's end (health, wear, free blocks,
 * fragmentation) is read here too.
 */
#include "run/run_int.h"

#include <stdio.h>
#include <stdlib.h>

#include "job/steadystate.h"

/* Result res, number jobid of the run, reports job `job` (and the
 * jobs that join it: sim.c) in reporting group groupid; in a run that
 * keeps a series, it has a series of its own on the same steps.  0, or
 * SSD_ENOMEM. */
int run_result_new(struct run *r, struct ssd_job_result *res,
		   const struct ssd_job *job, uint32_t jobid, int groupid)
{
	snprintf(res->name, sizeof res->name, "%s", job->name);
	res->groupid = groupid;
	res->jobid = jobid;
	res->job = job;
	res->nsections = 1;
	if (r->series) {
		res->series = malloc(sizeof *res->series);
		if (!res->series)
			return SSD_ENOMEM;
		ssd_series_init(res->series, r->series->t0, r->series->step);
	}
	return 0;
}

int run_result_ss(struct run *r, struct ssd_job_result *res,
		  const struct ssd_job *job)
{
	struct ssrun *ss = &r->ss[r->nss++];
	ss->res = res;
	ss->job = job;
	if (ssd_ss_init(&res->ss, job->ss_state, job->ss_limit,
			(uint32_t)(job->ss_dur / job->ss_interval),
			(uint32_t)(job->ss_dur / SSD_S)))
		return SSD_ENOMEM;
	return 0;
}

/* The instance has ended at t: its result takes the drive counters over
 * its window (the widest of its clones'), its runtime and end, and the
 * drive's state now. */
void run_result_end(struct run *r, struct inst *in, int64_t t)
{
	struct ssd_job_result *res = in->res;
	struct ssd_dev *dev = r->dev;
	struct ssd_counters now = *ssd_dev_counters(dev), d;
	if (!in->ramped)
		in->ctr0 = now; /* ended within its ramp: an empty window */
	ssd_counters_sub(&d, &now, &in->ctr0);
	/* clones reporting together share a window: keep the widest */
	if (d.host_write_lp + d.host_read_lp + d.host_trim_lp >=
	    res->ctr.host_write_lp + res->ctr.host_read_lp + res->ctr.host_trim_lp)
		res->ctr = d;
	int64_t rt = t > in->ramp_end ? t - in->ramp_end : 0;
	if (rt > res->runtime_ns)
		res->runtime_ns = rt;
	/* fio's runtime[ddir]: the longest of the instances that did I/O
	 * that way (jobs of different directions reported together) */
	for (int dd = 0; dd < SSD_DDIR_N; dd++)
		if (in->done_ios[dd] && rt > res->dir_runtime_ns[dd])
			res->dir_runtime_ns[dd] = rt;
	res->runtime_sum_ns += rt;
	res->start_ns = in->ramp_end;
	if (t - r->t0 > res->end_ns)
		res->end_ns = t - r->t0;
	ssd_dev_health(dev, &res->health);
	res->latency_depth = in->lt_qd;
	res->erase_min = res->health.erase_min;
	res->erase_mean = res->health.erase_mean;
	res->erase_max = res->health.erase_max;
	res->free_blocks = ssd_dev_free_blocks(dev);
	res->frag_run = ssd_dev_frag_run(dev);
	if (in->zj)
		res->zone_resets += in->zj->resets;
}
