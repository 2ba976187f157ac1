/*
 * progress.c -- where a run is, for a status line like fio's ETA
 * (ssd_sim_run_progress, sim.h): every progress_every completions the
 * callback gets the share of the run done, the simulated time, the
 * completions so far and a running job.  O(instances) a report, off the
 * per-command path (which only counts); the simulation never reads the
 * wall clock, so results are the same with or without reports.
 */
#include "run/run_int.h"

#include "base/progress.h"

/* How far the instance is, 0..1: its bytes against io_size, or its
 * time against ramp_time + runtime, whichever is further. */
static double inst_done(const struct run *r, const struct inst *in,
			int64_t t)
{
	if (in->finished || in->group < r->group)
		return 1.0;
	if (in->group > r->group)
		return 0.0;
	const struct ssd_job *j = in->job;
	double f = 0.0;
	if (!j->time_based && j->io_size)
		f = (double)in->bytes_done / (double)j->io_size;
	if (j->runtime) {
		double ft = (double)(t - r->group_t0) /
			    (double)(j->ramp_time + j->runtime);
		if (ft > f)
			f = ft;
	}
	return f < 1.0 ? f : 1.0;
}

/* Tell the progress callback where the run is (every progress_every
 * completions: O(instances), off the per-I/O path). */
void run_progress_report(struct run *r, int64_t t)
{
	struct ssd_sim_progress p = {.sim_ns = t - r->t0};
	double sum = 0.0;
	for (int i = 0; i < r->ninst; i++) {
		const struct inst *in = &r->in[i];
		sum += inst_done(r, in, t);
		if (in->group == r->group && !in->finished) {
			if (!p.job)
				p.job = in->job->name;
			p.running++;
		}
	}
	p.done = r->ninst ? sum / r->ninst : 1.0;
	for (int d = 0; d < SSD_DDIR_N; d++) {
		p.ios[d] = r->pios[d];
		p.bytes[d] = r->pbytes[d];
	}
	r->since_progress = 0;
	r->progress(r->progress_ctx, &p);
}

void ssd_sim_prog_report(void *ctx, const struct ssd_sim_progress *p)
{
	struct ssd_prog *pg = ctx;
	ssd_prog_at(pg, ssd_prog_share(pg, p->done), pg->run_t0 + p->sim_ns,
		    p->job);
}
