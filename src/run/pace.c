/*
 * pace.c -- how fast an instance may go: rate and rate_iops (a schedule
 * per direction), rate_min and rate_iops_min (checked per ratecycle),
 * think time, and flow (jobs of one flow_id issuing in the ratio of their
 * weights).
 *
 * rate / rate_iops give each direction a schedule: the next I/O is due
 * when the bytes issued so far would take at that rate (poisson: after an
 * exponential gap from the instance's own random stream).  The schedule
 * is a token computation, O(1) per I/O.  The schedule and rate_min's
 * counters count from the instance's epoch: its start, the end of its
 * ramp, and the start of a latency_target search's final window.  The
 * loop (loop.c) calls into this file only for a job that has the option.
 */
#include "run/run_int.h"

#include <math.h>
#include <stdio.h>

/* ---- rate ---- */

/* When the direction's next I/O is due, ns from the epoch: fio's
 * usec_for_io after an issue. */
int64_t run_rate_due(struct inst *in, int d)
{
	const struct ssd_job *j = in->job;
	uint64_t bps = in->rate_bps[d];
	if (j->rate_poisson) {
		uint64_t iops = bps / in->min_bs;
		double u = 1.0 - ssd_rng_unit(&in->rng); /* (0, 1] */
		in->last_ns[d] += (int64_t)((double)(SSD_S / (iops ? iops : 1)) *
					    -log(u));
		return in->last_ns[d];
	}
	if (!j->rate[d] && j->min_bs[d] != j->max_bs[d]) {
		/* rate_iops with mixed sizes (bssplit, bsrange): one I/O per
		 * 1/rate_iops */
		in->last_ns[d] += SSD_S / (int64_t)j->rate_iops[d];
		return in->last_ns[d];
	}
	uint64_t b = in->rate_bytes[d];
	return (int64_t)(b / bps) * SSD_S +
	       (int64_t)((unsigned __int128)(b % bps) * SSD_S / bps);
}

/* The rate schedule and the rate_min counters start over at t (the job's
 * start, and the end of its ramp, as fio resets them). */
void run_pacing_reset(struct inst *in, int64_t t)
{
	in->epoch = t;
	for (int d = 0; d < SSD_DDIR_N; d++) {
		in->rate_bytes[d] = 0;
		in->rate_next[d] = 0;
		in->last_ns[d] = 0;
		in->done_bytes[d] = in->done_ios[d] = 0;
		in->rm_bytes[d] = in->rm_ios[d] = 0;
		in->rm_time[d] = t;
	}
}

/* fio's check_min_rate after a completion round: 0, or 1 when a
 * direction's rate over the last ratecycle is below its minimum (the
 * job's error is set). */
int run_min_rate_failed(struct run *r, struct inst *in, int64_t t)
{
	const struct ssd_job *j = in->job;
	if (!in->has_min || t < in->ramp_end)
		return 0;
	for (int d = 0; d < SSD_DDIR_N; d++) {
		if (!in->done_bytes[d] || (!j->rate_min[d] && !j->rate_iops_min[d]))
			continue;
		if (t - in->epoch < 2 * SSD_S)
			continue; /* fio's settling time */
		if (in->rm_bytes[d] || in->rm_ios[d]) {
			uint64_t ms = (uint64_t)((t - in->rm_time[d]) / SSD_MS);
			if (!ms || (int64_t)ms * SSD_MS < j->ratecycle)
				continue;
			/* bytes against rate_min, else I/Os against
			 * rate_iops_min, over the cycle */
			int bw = j->rate_min[d] != 0;
			uint64_t want = bw ? j->rate_min[d] : j->rate_iops_min[d];
			uint64_t done = bw ? in->done_bytes[d] - in->rm_bytes[d]
					   : in->done_ios[d] - in->rm_ios[d];
			/* 128 bits: bytes over a long ratecycle times 1000
			 * pass 2^64 */
			uint64_t got = (uint64_t)((unsigned __int128)done *
						  1000 / ms);
			if (got < want) {
				char msg[160];
				snprintf(msg, sizeof msg,
					 "%s=%llu%s not met, got %llu%s",
					 bw ? "rate_min" : "rate_iops_min",
					 (unsigned long long)want, bw ? "B/s" : "",
					 (unsigned long long)got,
					 bw ? "B/s" : " IOPS");
				run_job_fail(r, in, SSD_EIO, msg);
				return 1;
			}
		}
		in->rm_bytes[d] = in->done_bytes[d];
		in->rm_ios[d] = in->done_ios[d];
		in->rm_time[d] = t;
	}
	return 0;
}

/* ---- think time ---- */

/* The think time due after an issue (fio's handle_thinktime test). */
int run_think_due(const struct inst *in, int64_t t)
{
	const struct ssd_job *j = in->job;
	if (!j->thinktime)
		return 0;
	if (j->thinktime_iotime) {
		if (t - in->last_think >= j->thinktime_iotime)
			return 1;
		if (!j->thinktime_blocks_set)
			return 0;
	}
	uint64_t b = j->thinktime_issue ? in->issued_rw : in->reaped_rw;
	return b >= in->think_mark + j->thinktime_blocks;
}

/* The think time at t: spin, then sleep the rest (fio's
 * handle_thinktime), cut at the runtime; with rate_ignore_thinktime the
 * rate schedule skips the time thought. */
int run_think(struct run *r, struct inst *in, int64_t t)
{
	const struct ssd_job *j = in->job;
	uint64_t b = j->thinktime_issue ? in->issued_rw : in->reaped_rw;
	int64_t total = j->thinktime; /* spin <= thinktime, then the rest */
	if (total > in->deadline - t)
		total = in->deadline - t;
	int d = in->cur.ddir;
	if (total > 0 && is_rw(d) && in->rate_bps[d] && j->rate_ignore_thinktime) {
		uint64_t bps = in->rate_bps[d];
		uint64_t missed = (uint64_t)((unsigned __int128)bps *
					     (uint64_t)total / SSD_S);
		uint64_t per_op = (uint64_t)((unsigned __int128)in->min_bs *
					     SSD_S / bps);
		uint64_t over = per_op <= (uint64_t)total ? in->min_bs : 0;
		in->rate_bytes[d] += missed > over ? missed - over : 0;
		in->last_ns[d] += total;
	}
	in->think_mark = b;
	in->last_think = t + (total > 0 ? total : 0);
	if (total > 0)
		return run_timer(r, in, t + total, R_AFTER_THINK);
	return run_step(r, in, t, R_AFTER_THINK);
}

/* ---- flow ---- */

struct flow *run_flow_of(struct run *r, uint32_t id)
{
	for (int i = 0; i < r->nflows; i++)
		if (r->flows[i].id == id)
			return &r->flows[i];
	struct flow *f = &r->flows[r->nflows++];
	*f = (struct flow){.id = id, .counter = 1, .waiting = -1};
	return f;
}

/* The shares of a flow changed: the jobs waiting on it look again. */
void run_flow_wake(struct run *r, struct flow *f)
{
	while (f->waiting >= 0) {
		struct inst *o = &r->in[f->waiting];
		f->waiting = o->flow_next;
		run_timer(r, o, r->now, R_TOP);
	}
}

/* fio's flow_threshold_exceeded: 1 when the job is ahead of its share of
 * its flow; else it takes a token. */
int run_flow_exceeded(struct run *r, struct inst *in)
{
	struct flow *f = in->flow;
	if ((double)in->flow_counter / (double)f->counter >
	    (double)in->job->flow / (double)f->weight)
		return 1;
	f->counter++;
	in->flow_counter++;
	run_flow_wake(r, f);
	return 0;
}
