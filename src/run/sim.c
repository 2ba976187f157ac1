/*
 * sim.c -- the job runner's entry points (see sim.h): the run's tables
 * set up from the job sections (an instance per numjobs, a result per
 * reported job), the stonewall groups run one after the other, the
 * results finished and the logs closed.
 *
 * What a run does is spread over the files of src/run (run_int.h has
 * the map): the per-command loop and its pacing in loop.c, the
 * latency_target search in latency.c, verification in verify.c, an
 * instance's start and end in lifecycle.c, errors in errors.c, the
 * per-job results in results.c, logs in logs.c, progress in progress.c.
 */
#include "run/run_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/progress.h"
#include "job/steadystate.h"

uint64_t ssd_sim_mem(const struct ssd_job *jobs, int njobs, uint64_t volume,
		     unsigned *uses)
{
	const struct run *r = NULL; /* for sizeof only */
	const struct ssd_run_result *res = NULL;
	uint64_t ninst = 0, nres = 0, depth = 0;
	int check = 0, phase = 0;
	for (int j = 0; j < njobs; j++) {
		ninst += jobs[j].numjobs;
		nres += jobs[j].group_reporting ? 1 : jobs[j].numjobs;
		depth += (uint64_t)jobs[j].numjobs * jobs[j].iodepth;
		check |= jobs[j].verify == SSD_VERIFY_DATA;
		phase |= jobs[j].verify != SSD_VERIFY_NONE && jobs[j].do_verify;
	}
	*uses = check ? SSD_MEM_VERIFY : 0;
	uint64_t events = depth + 4 * ninst + nres + 1;
	/* zonemode=zbd: the drive's zone table and each instance's view */
	uint64_t zbd = 0;
	for (int j = 0; j < njobs && !zbd; j++)
		if (jobs[j].zonemode == SSD_ZONEMODE_ZBD && jobs[j].zonesize)
			zbd = (volume / jobs[j].zonesize + 1) *
			      sizeof(struct ssd_zbd_zone) + sizeof *r->zbd +
			      ninst * sizeof *r->zjobs;
	/* data placement: each instance's identifiers */
	for (int j = 0; j < njobs; j++)
		if (jobs[j].dp_type != SSD_DP_NONE || jobs[j].fdp) {
			zbd += ninst * sizeof *r->dps;
			break;
		}
	return zbd + ninst * (sizeof *r->in + sizeof *r->flows) +
	       nres * (sizeof *res->jobs + sizeof *r->ss + sizeof(int)) +
	       (uint64_t)njobs * sizeof *r->job_left +
	       (depth + 1) * sizeof *r->cmd + events * sizeof *r->eng.heap +
	       (phase ? (volume / SSD_LPAGE + 1) * sizeof *r->vseen : 0);
}

int ssd_sim_run(struct ssd_dev *dev, const struct ssd_job *jobs, int njobs,
		uint64_t seed, struct ssd_run_result *res, char *err,
		size_t errlen)
{
	return ssd_sim_run_series(dev, jobs, njobs, seed, NULL, res, err,
				  errlen);
}

int ssd_sim_run_series(struct ssd_dev *dev, const struct ssd_job *jobs,
		       int njobs, uint64_t seed, struct ssd_series *series,
		       struct ssd_run_result *res, char *err, size_t errlen)
{
	return ssd_sim_run_progress(dev, jobs, njobs, seed, series, NULL,
				    NULL, 0, res, err, errlen);
}

int ssd_sim_run_prog(struct ssd_dev *dev, const struct ssd_job *jobs,
		     int njobs, uint64_t seed, struct ssd_series *series,
		     struct ssd_prog *pg, struct ssd_run_result *res, char *err,
		     size_t errlen)
{
	if (!ssd_prog_on(pg))
		return ssd_sim_run_series(dev, jobs, njobs, seed, series, res,
					  err, errlen);
	pg->run_t0 = ssd_dev_time(dev);
	return ssd_sim_run_progress(dev, jobs, njobs, seed, series,
				    ssd_sim_prog_report, pg, 0, res, err,
				    errlen);
}

/* The run's tables freed (not the results). */
static void run_free(struct run *r)
{
	free(r->in);
	free(r->cmd);
	free(r->flows);
	free(r->ss);
	free(r->job_left);
	free(r->vseen);
	run_zbd_free(r);
	run_dp_free(r);
	ssd_engine_free(&r->eng);
}

/* Instance in, clone c of job number j, set up: its streams (from the
 * run's seed unless the job has randseed), verification, pacing, the
 * path it takes (plain: next_plain) and its logs.  0, or an SSD_E* code
 * with the message in err. */
static int inst_init(struct run *r, struct inst *in, int j, uint32_t c,
		     uint64_t seed, char *err, size_t errlen)
{
	const struct ssd_job *job = in->job;
	uint64_t s = job->has_randseed
		? job->randseed
		: ssd_mix64(seed ^ ssd_mix64(((uint64_t)j << 20) + c));
	in->wl = ssd_wl_create(job, c, s);
	in->seed = s;
	in->clone = c;
	run_verify_init(in, c);
	if (!in->wl || (in->vafter && !in->vwl) ||
	    (job->trim_backlog && job->trim_percentage &&
	     in->vafter && !in->twl)) {
		snprintf(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	/* pacing: its own stream beside the generator's */
	ssd_rng_seed(&in->rng, ssd_mix64(s ^ 0x7261746570616365ull));
	in->mixed = job->rw == SSD_RW_READWRITE ||
		    job->rw == SSD_RW_RANDRW;
	in->min_bs = ssd_job_min_bs(job);
	for (int d = 0; d < SSD_DDIR_N; d++) {
		in->rate_bps[d] = job->rate[d] ? job->rate[d]
			: job->rate_iops[d] * in->min_bs;
		in->has_min |= job->rate_min[d] ||
			       job->rate_iops_min[d];
	}
	in->iodepth_low = job->iodepth_low;
	in->complete_min = job->iodepth_batch_complete_min
			   ? job->iodepth_batch_complete_min : 1;
	in->fua = job->sync_writes || job->write_fua
		  ? SSD_DEV_FUA : 0;
	in->dflag = job->direct ? (uint32_t)r->dev->direct_flag : 0;
	for (int d = 0; d < SSD_DDIR_N; d++)
		in->ddir_flags[d] = in->dflag |
			(d == SSD_DDIR_WRITE ? in->fua : 0);
	int plain = !job->thinktime && !in->has_min &&
		    !job->write_iolog[0] &&
		    !job->latency_target && !job->flow &&
		    !job->fsync_every && !in->vafter &&
		    !in->vreads && !job->wmode_set &&
		    !job->io_submit_offload &&
		    job->iodepth_batch <= 1 &&
		    job->zonemode != SSD_ZONEMODE_ZBD &&
		    job->dp_type == SSD_DP_NONE;
	for (int d = 0; d < SSD_DDIR_N; d++)
		plain &= !in->rate_bps[d];
	in->plain = plain && !job->read_iolog[0];
	in->plain_replay = plain && job->read_iolog[0];
	int rc = run_open_logs(in, err, errlen);
	if (rc)
		return rc;
	in->counted = !r->series && !r->progress && !in->ss &&
		      !in->nlogs && !job->latency_target;
	return 0;
}

int ssd_sim_run_progress(struct ssd_dev *dev, const struct ssd_job *jobs,
			 int njobs, uint64_t seed, struct ssd_series *series,
			 ssd_sim_progress_fn progress, void *ctx,
			 uint32_t every, struct ssd_run_result *res,
			 char *err, size_t errlen)
{
	memset(res, 0, sizeof *res);
	struct run r = {.dev = dev, .dev_ev = INT64_MAX, .series = series, .err = err,
			.errlen = errlen, .progress = progress,
			.progress_ctx = ctx,
			.progress_every = every ? every : 1024,
			.t0 = ssd_dev_time(dev),
			.pf_deep = ssd_dev_prefetch_deep(dev)};
	int ninst = 0, nres = 0;
	for (int j = 0; j < njobs; j++) {
		ninst += (int)jobs[j].numjobs;
		nres += jobs[j].group_reporting ? 1 : (int)jobs[j].numjobs;
	}
	r.in = calloc((size_t)ninst, sizeof *r.in);
	res->jobs = calloc((size_t)nres, sizeof *res->jobs);
	r.flows = calloc((size_t)ninst, sizeof *r.flows);
	r.ss = calloc((size_t)nres, sizeof *r.ss);
	r.job_left = calloc((size_t)njobs, sizeof *r.job_left);
	int *rgroup = calloc((size_t)nres, sizeof *rgroup);
	uint64_t depth = 0; /* command slots: numjobs x iodepth, 64-bit */
	for (int j = 0; j < njobs; j++)
		depth += (uint64_t)jobs[j].numjobs * jobs[j].iodepth;
	r.cmd = depth + ninst < UINT32_MAX / 2 ? calloc((size_t)depth + 1, sizeof *r.cmd) : NULL;
	/* events: a completion per command slot; per instance a wake (and
	 * one superseded), its start and the end of its ramp; a steady-state
	 * sample per result (the queue grows if ever needed) */
	if (!r.in || !res->jobs || !r.cmd || !r.flows || !r.ss || !r.job_left ||
	    !rgroup ||
	    ssd_engine_init(&r.eng, (uint32_t)depth + 4 * (uint32_t)ninst +
				    (uint32_t)nres + 1)) {
		run_free(&r);
		free(res->jobs);
		free(rgroup);
		res->jobs = NULL;
		snprintf(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	r.ninst = ninst;
	for (uint32_t i = 0; i <= depth; i++)
		r.cmd[i].next_free = i + 1;
	r.cmd_free = 0;
	res->cfg = &dev->cfg;
	res->seed = seed;
	int rc = run_verify_setup(&r, jobs, njobs);
	if (rc) {
		run_free(&r);
		free(res->jobs);
		free(rgroup);
		res->jobs = NULL;
		if (rc == SSD_EUNSUP)
			snprintf(err, errlen, "verify checks data against a bare "
				 "SSD's pages; this drive file describes a "
				 "machine (type = hdd or host layers): run "
				 "verify without them");
		else
			snprintf(err, errlen, "out of memory");
		return rc;
	}
	ssd_dev_set_queueing(dev, 1); /* the runner takes the drive's decisions */
	int group = 0, rgroupid = 0, k = 0, ri = 0;
	uint64_t ios0 = ssd_dev_host_ios(dev);
	int64_t t_start = ssd_dev_time(dev);
	r.genesis = t_start;
	struct ssd_job_result *shared = NULL; /* the entry being filled */
	struct ssrun *shared_ss = NULL;       /* ... and its sampler */
	for (int j = 0; j < njobs; j++) {
		const struct ssd_job *job = &jobs[j];
		r.exitall |= job->exitall;
		r.job_left[j] = (int)job->numjobs;
		/* fio: stonewall and new_group start a reporting group */
		int newgroup = j > 0 && (job->stonewall || job->new_group);
		if (j > 0 && job->stonewall)
			group++;
		if (newgroup)
			rgroupid++;
		for (uint32_t c = 0; c < job->numjobs; c++, k++) {
			struct inst *in = &r.in[k];
			in->job = job;
			in->jobidx = j;
			in->group = group;
			in->index = k + 1;
			in->wait = W_NEW;
			in->q_head = in->q_tail = UINT32_MAX;
			in->r_head = in->r_tail = UINT32_MAX;
			/* fio's __show_run_stats: an instance with
			 * group_reporting joins the entry of the instance
			 * before it when that one is in the same reporting
			 * group (whatever its own group_reporting); any other
			 * starts an entry, named after its job */
			if (!shared || !job->group_reporting ||
			    (c == 0 && newgroup)) {
				shared = &res->jobs[ri];
				shared_ss = NULL;
				rgroup[ri] = group;
				rc = run_result_new(&r, shared, job, (uint32_t)ri,
						    rgroupid);
				ri++;
				if (rc) {
					snprintf(err, errlen, "out of memory");
					goto out;
				}
			} else if (c == 0) {
				shared->nsections++; /* the next job joins */
			}
			in->res = shared;
			shared->clones++;
			/* fio HEAD counts zone resets of zbd jobs that write
			 * or trim */
			shared->zbd |= job->zonemode == SSD_ZONEMODE_ZBD &&
				(ssd_rw_ddirs(job->rw) &
				 (1u << SSD_DDIR_WRITE | 1u << SSD_DDIR_TRIM));
			if (job->ss_dur) {
				/* one sampler for the entry: fio sums the
				 * group's jobs in its check */
				if (!shared_ss) {
					rc = run_result_ss(&r, shared, job);
					shared_ss = &r.ss[r.nss - 1];
					if (rc) {
						snprintf(err, errlen, "out of memory");
						goto out;
					}
				}
				in->ss = shared_ss;
			}
			rc = inst_init(&r, in, j, c, seed, err, errlen);
			if (rc)
				goto out;
		}
	}
	rc = run_zbd_setup(&r, jobs, njobs); /* its message in err */
	if (!rc)
		rc = run_dp_setup(&r);
	if (rc)
		goto out;
	int last = group; /* the last group that ran */
	for (int g = 0; g <= group; g++) {
		if (r.exit_all) {
			/* exit_what=all: the group ends before it starts */
			int64_t now = ssd_dev_time(dev);
			r.group = g;
			r.now = now;
			for (int i = 0; i < ninst; i++) {
				struct inst *in = &r.in[i];
				if (in->group != g)
					continue;
				in->done = 1;
				in->wait = W_DONE;
				in->ramp_end = now;
				run_finish_inst(&r, in, now);
			}
			continue;
		}
		rc = run_group(&r, g);
		if (rc && !r.rc) {
			/* the runner itself could not go on (out of memory):
			 * the group's jobs end where they are */
			snprintf(err, errlen, "out of memory");
			r.rc = rc;
			for (int i = 0; i < ninst; i++)
				if (r.in[i].group == g && !r.in[i].finished)
					run_finish_inst(&r, &r.in[i], ssd_dev_time(dev));
		}
		rc = r.rc;
		if (rc) {
			last = g;
			break;
		}
	}
	/* jobs of the groups after a failure did not run: not reported */
	while (ri > 0 && rgroup[ri - 1] > last)
		ssd_ss_free(&res->jobs[--ri].ss);
	res->njobs = ri;
	ssd_run_result_finish(res);
	if (progress && !rc && !r.rc) {
		r.group = group + 1; /* all done */
		run_progress_report(&r, ssd_dev_time(dev));
	}
	res->sim_ns = ssd_dev_time(dev) - t_start;
	res->host_ios = ssd_dev_host_ios(dev) - ios0;
	if (ssd_run_snapshot_nodes(dev, res) && !rc) {
		snprintf(err, errlen, "out of memory");
		rc = SSD_ENOMEM;
	}
	if (!rc && ssd_dev_check_failure(dev)) {
		snprintf(err, errlen, "invariant check failed: %s",
			 ssd_dev_check_failure(dev));
		rc = SSD_ESTATE;
	}
out:
	for (int i = 0; i < ninst; i++) {
		struct inst *in = &r.in[i];
		char msg[sizeof in->res->errmsg];
		if (run_close_iolog(in, msg, sizeof msg))
			run_res_error(in, SSD_EIO, msg);
		rc = run_close_logs(in, rc, err, errlen);
		ssd_wl_destroy(in->wl);
		free(in->zlog);
		ssd_wl_destroy(in->vwl);
		ssd_wl_destroy(in->twl);
	}
	if (!res->njobs) /* the results made so far, not yet counted */
		for (int i = 0; i < ri; i++)
			ssd_job_result_free(&res->jobs[i]);
	run_free(&r);
	free(rgroup);
	ssd_dev_set_queueing(dev, 0);
	if (!res->njobs)
		ssd_run_result_free(res); /* nothing ran */
	return rc;
}
