/*
 * lifecycle.c -- an instance's life and the order of jobs: its start
 * (startdelay, wait_for), the end of its ramp, its end (runtime reached,
 * exitall, steady state), and a stonewall group run from its first start
 * to its last end.
 *
 * startdelay counts from the start of the run (fio's genesis), never
 * before the instance's group; wait_for holds a job until every instance
 * of the named job of its group has ended.  exitall ends the reporting
 * group of any job that ends, exitall_on_error that of a job ending in
 * error: an instance told to end stops submitting, its commands in
 * flight complete, and one not started yet ends empty.  steadystate
 * samples each result every ss_interval from the end of its ramp and
 * ends its instances when the criterion holds.  The drive is told of
 * every moment the host reaches without a command (the end of a ramp or
 * of a job), so an idle gap there is idle time for its background work.
 * Nothing here runs per command.
 */
#include "run/run_int.h"

#include <stdio.h>
#include <string.h>

#include "job/steadystate.h"

/* The host has reached t without a command for the drive (the end of a
 * ramp or of a job): the drive is told, so an idle gap up to t is idle
 * time for its background work.  A failure of the invariant checker in
 * that work is the job's error. */
static void host_reaches(struct run *r, struct inst *in, int64_t t)
{
	int failed = ssd_dev_check_failure(r->dev) != NULL;
	int rc = ssd_dev_idle(r->dev, t);
	if (rc && !r->rc)
		run_job_error(r, in, rc, "idle time");
	else if (!failed && ssd_dev_check_failure(r->dev) && !r->rc)
		run_job_error(r, in, SSD_ESTATE, "idle time");
}

/* The measured window of `in` opens at t (its ramp is over): the drive is
 * told the host has reached t, so background work of an idle gap across
 * t counts in the ramp up to t and in the window after it, and the drive
 * counters are read.  Commands submitted from t on are the ones fio's
 * figures count (account(), loop.c), so both cover the same commands. */
void run_open_window(struct run *r, struct inst *in, int64_t t)
{
	host_reaches(r, in, t);
	in->ctr0 = *ssd_dev_counters(r->dev);
	in->ramped = 1;
}

static int after_end(struct run *r, struct inst *in, int64_t t);

/* The instance ends at t (its last completion, or the end of its last
 * think time): the drive is told the host has reached t, so an idle tail
 * is idle time for the drive, inside this job's window, and the next
 * group starts after it. */
void run_finish_inst(struct run *r, struct inst *in, int64_t t)
{
	in->finished = 1;
	in->end = t;
	char err[sizeof in->res->errmsg];
	if (run_close_iolog(in, err, sizeof err))
		run_res_error(in, SSD_EIO, err);
	host_reaches(r, in, t);
	struct ssd_dev *dev = r->dev;
	/* with --check, every job ends with a full check of the maps */
	int failed = ssd_dev_check_failure(dev) != NULL;
	if (ssd_dev_audit(dev) && !failed && !r->rc)
		run_job_error(r, in, SSD_ESTATE, "end of job");
	run_result_end(r, in, t);
	int rc = after_end(r, in, t);
	if (rc && !r->rc) {
		r->rc = rc;
		snprintf(r->err, r->errlen, "out of memory");
	}
}

/* ---- the order of jobs ---- */

/* End the instance as soon as it can (exitall, steady state, the run's
 * end): no more submissions; a wait for a turn or a flow ends now. */
void run_terminate(struct run *r, struct inst *in)
{
	if (in->done || in->finished)
		return;
	in->done = 1;
	if (in->wait == W_NEW && !in->finished) {
		/* never started: ends now, with nothing done */
		in->ramp_end = in->end = r->now;
		run_timer(r, in, r->now, R_FINISH);
	} else if (in->wait == W_FLOW) {
		run_flow_wake(r, in->flow); /* all look again; this one ends */
	} else if (in->wait == W_TIMER) {
		run_timer(r, in, r->now, R_TOP);
	}
}

/* exitall when `in` ends (fio's fio_terminate_threads with the job's
 * exit_what): every other instance of its reporting group ends; with
 * exit_what=stonewall every instance running (started, of the stonewall
 * group running); with all, those and every instance not started yet,
 * the later groups included (they then do not run). */
static void terminate_group(struct run *r, struct inst *in)
{
	int what = in->job->exit_what;
	if (what == SSD_EXIT_ALL)
		r->exit_all = 1;
	for (int i = 0; i < r->ninst; i++) {
		struct inst *o = &r->in[i];
		if (o == in)
			continue;
		if (what == SSD_EXIT_GROUP ? o->res->groupid == in->res->groupid
		    : what == SSD_EXIT_STONEWALL ? o->started && o->group == r->group
		    : o->group == r->group)
			run_terminate(r, o);
	}
}

/* The instance starts at t: its window opens (or its ramp is queued),
 * and the rate schedule starts. */
static int start_inst(struct run *r, struct inst *in, int64_t t)
{
	const struct ssd_job *j = in->job;
	/* a log written when the job starts, as fio opens it: a later job
	 * of the file may replay it */
	if (j->write_iolog[0]) {
		char err[200];
		if (run_open_iolog(in, in->clone, err, sizeof err))
			/* the job runs, unrecorded, and ends in this error */
			run_res_error(in, SSD_EIO, err);
	}
	in->started = 1;
	in->wait = W_RUN;
	in->start = t;
	in->last_think = t;
	in->ramp_end = t + j->ramp_time;
	in->deadline = j->runtime ? in->ramp_end + j->runtime : NEVER;
	run_pacing_reset(in, t);
	run_lat_init(in, t);
	if (in->zj)
		run_zbd_start(r, in, t);
	if (j->flow) {
		in->flow = run_flow_of(r, j->flow_id);
		in->flow->weight += j->flow;
	}
	if (in->ss && !in->ss->ticking) {
		/* samples from the window's start, as fio's epoch */
		in->ss->ticking = 1;
		in->ss->epoch = in->ramp_end;
		in->ss->next = in->ramp_end + j->ss_interval;
		struct ssd_event ev = {.time = in->ss->next,
				       .id = (uint32_t)(in->ss - r->ss),
				       .kind = EV_SS};
		int rc = ssd_engine_push(&r->eng, &ev);
		if (rc)
			return rc;
	}
	if (!j->ramp_time) {
		run_open_window(r, in, t);
		return 0;
	}
	/* queued before any command, so it runs before every other event
	 * at the same nanosecond */
	struct ssd_event ev = {.time = in->ramp_end,
			       .id = (uint32_t)(in - r->in), .kind = EV_RAMP};
	return ssd_engine_push(&r->eng, &ev);
}

/* When the instance may start: its startdelay from the run's start (fio
 * counts it from the start of the run), not before the group starts;
 * NEVER while the job it waits for runs. */
static int64_t start_time(struct run *r, struct inst *in, int64_t t0)
{
	const struct ssd_job *j = in->job;
	int64_t delay = j->startdelay;
	if (j->startdelay_hi > j->startdelay)
		delay += (int64_t)ssd_rng_below(&in->rng,
			(uint64_t)(j->startdelay_hi - j->startdelay) + 1);
	int64_t at = r->genesis + delay;
	return at > t0 ? at : t0;
}

/* A waitee's instances have all ended at t: its waiters may start. */
static int wake_waiters(struct run *r, struct inst *done, int64_t t)
{
	for (int i = 0; i < r->ninst; i++) {
		struct inst *in = &r->in[i];
		const struct ssd_job *j = in->job;
		if (in->started || in->finished || in->group != done->group ||
		    !j->wait_for[0] || strcmp(j->wait_for, done->job->name))
			continue;
		int64_t at = in->start > t ? in->start : t;
		struct ssd_event ev = {.time = at, .id = (uint32_t)i,
				       .kind = EV_START};
		int rc = ssd_engine_push(&r->eng, &ev);
		if (rc)
			return rc;
	}
	return 0;
}

/* The waitee of a job has instances still to end in this group. */
static int waitee_running(struct run *r, const struct inst *in)
{
	const struct ssd_job *j = in->job;
	if (!j->wait_for[0])
		return 0;
	for (int i = 0; i < r->ninst; i++)
		if (!r->in[i].finished && r->in[i].group == in->group &&
		    !strcmp(r->in[i].job->name, j->wait_for))
			return 1;
	return 0;
}

/* What follows an instance's end: its flow share goes, the rest of its
 * reporting group ends with exitall (and exitall_on_error after an
 * error), the jobs waiting for its job may start. */
static int after_end(struct run *r, struct inst *in, int64_t t)
{
	const struct ssd_job *j = in->job;
	if (in->flow) {
		struct flow *f = in->flow;
		f->counter -= in->flow_counter;
		f->weight -= j->flow;
		in->flow = NULL;
		run_flow_wake(r, f);
	}
	if (r->exitall || (j->exitall_on_error && in->res->error))
		terminate_group(r, in);
	if (--r->job_left[in->jobidx] == 0)
		return wake_waiters(r, in, t);
	return 0;
}

/* EV_START at ev->time: the instance starts (its startdelay has passed,
 * or the job it waits for has ended), unless it ended before. */
int run_start_event(struct run *r, const struct ssd_event *ev)
{
	struct inst *in = &r->in[ev->id];
	if (in->started || in->finished)
		return 0;
	if (in->done) { /* terminated while waiting */
		in->wait = W_DONE;
		in->ramp_end = ev->time;
		run_finish_inst(r, in, ev->time);
		return 0;
	}
	int rc = start_inst(r, in, ev->time);
	if (!rc)
		rc = run_step(r, in, ev->time, R_TOP);
	return rc;
}

/* EV_RAMP at ev->time: the instance's ramp is over, its measured window
 * opens and its rate schedule (and latency search) start over. */
void run_ramp_event(struct run *r, const struct ssd_event *ev)
{
	struct inst *in = &r->in[ev->id];
	if (!in->finished) {
		run_open_window(r, in, ev->time);
		run_pacing_reset(in, ev->time);
		if (!in->lt_end_run)
			run_lat_init(in, ev->time);
	}
}

/* ---- steady state ---- */

/* One steady-state sample of a result at t (fio's steadystate_check). */
int run_ss_tick(struct run *r, struct ssrun *ss, int64_t t)
{
	const struct ssd_job *j = ss->job;
	struct ssd_ss *st = &ss->res->ss;
	int running = 0;
	for (int i = 0; i < r->ninst && !running; i++)
		running = r->in[i].ss == ss && !r->in[i].finished;
	if (!running || (st->state & SSD_SS_ATTAINED)) {
		ss->ticking = 0;
		return 0;
	}
	int64_t iv = j->ss_interval;
	if (t - ss->epoch >= j->ss_ramp + iv) {
		uint64_t dios = ss->ios - ss->prev_ios;
		uint64_t dbytes = ss->bytes - ss->prev_bytes;
		uint64_t dn = ss->lat_n - ss->prev_lat_n;
		double lat = dn ? (ss->lat_sum - ss->prev_lat_sum) / (double)dn
				: 0.0;
		uint64_t iops = (uint64_t)((unsigned __int128)dios * SSD_S /
					   (uint64_t)iv);
		uint64_t bw = (uint64_t)((unsigned __int128)dbytes * SSD_S /
					 (uint64_t)iv);
		if (ssd_ss_add(st, iops, bw, (uint64_t)lat))
			/* every instance reported with them ends (fio ends
			 * the jobs of the group) */
			for (int i = 0; i < r->ninst; i++)
				if (r->in[i].res == ss->res)
					run_terminate(r, &r->in[i]);
	}
	ss->prev_ios = ss->ios;
	ss->prev_bytes = ss->bytes;
	ss->prev_lat_sum = ss->lat_sum;
	ss->prev_lat_n = ss->lat_n;
	if (st->state & SSD_SS_ATTAINED) {
		ss->ticking = 0;
		return 0;
	}
	ss->next = t + iv;
	struct ssd_event ev = {.time = ss->next, .id = (uint32_t)(ss - r->ss),
			       .kind = EV_SS};
	return ssd_engine_push(&r->eng, &ev);
}

/* ---- groups ---- */

/* Run one stonewall group from the drive's current time until every job
 * of it has ended. */
int run_group(struct run *r, int group)
{
	int64_t t0 = ssd_dev_time(r->dev);
	r->now = t0;
	r->group = group;
	r->group_t0 = t0;
	int rc;
	/* windows first, then commands, so every window opens before any
	 * command of the group */
	for (int i = 0; i < r->ninst; i++) {
		struct inst *in = &r->in[i];
		if (in->group != group)
			continue;
		in->start = start_time(r, in, t0);
		if (waitee_running(r, in))
			continue;
		if (in->start > t0) {
			struct ssd_event ev = {.time = in->start, .id = (uint32_t)i,
					       .kind = EV_START};
			rc = ssd_engine_push(&r->eng, &ev);
		} else {
			rc = start_inst(r, in, t0);
		}
		if (rc)
			return rc;
	}
	for (int i = 0; i < r->ninst; i++) {
		struct inst *in = &r->in[i];
		if (in->group != group || !in->started || in->finished)
			continue;
		rc = run_step(r, in, t0, R_TOP);
		if (rc)
			return rc;
	}
	return run_events(r);
}
