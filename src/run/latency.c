/*
 * latency.c -- latency_target: fio's latency profiling, a search of the
 * queue depth that keeps latency_percentile of the completions within
 * the target.
 *
 * The instance's slots in use are held to lt_qd (iodepth without a
 * target): a full queue is used >= lt_qd.  The search runs as fio's:
 * lt_qd starts at 1 (again at the end of the ramp); at the bottom of the
 * loop, once latency_window has passed since the cycle began, the share
 * of the cycle's completions within the target decides: met, the depth
 * doubles (or bisects towards the lowest depth that failed); missed, it
 * bisects down towards the highest that met it, after waiting for what is
 * in flight.  With latency_percentile=100 each completion over the target
 * is a miss at once (at depth 1: the job ends, ETIMEDOUT).  A met window
 * that leaves the depth unchanged converges: the instance waits for its
 * commands, its measured window opens again at that moment (figures,
 * runtime and rate schedule start over, as fio's reset_all_stats), and
 * the next such window ends the job -- unless latency_run.  Work is O(1)
 * per completion (a compare and a count) and per loop turn (a compare of
 * times); the loop calls in only for a job with a target.
 */
#include "run/run_int.h"

#include <stdio.h>

/* fio's lat_new_cycle: a window of the search begins at t. */
void run_lat_new_cycle(struct inst *in, int64_t t)
{
	in->lt_ts = t;
	in->lt_ios = in->reaped_rw;
	in->lt_failed = 0;
}

/* fio's lat_target_init, at the job's start and the end of its ramp: the
 * search starts over at depth 1 (the misses counted so far stay, as in
 * fio). */
void run_lat_init(struct inst *in, int64_t t)
{
	const struct ssd_job *j = in->job;
	in->lt_end_run = 0;
	if (!j->latency_target) {
		in->lt_qd = j->iodepth;
		return;
	}
	in->lt_ts = t;
	in->lt_qd = 1;
	in->lt_high = j->iodepth;
	in->lt_low = 1;
	in->lt_ios = in->reaped_rw;
}

/* fio's __lat_target_failed at t: the depth bisects down towards the
 * last one that met the target, and the job waits for what is in flight
 * (lt_quiesce: at its next turn) before the next window.  1 at depth 1:
 * nothing lower to try. */
static int lat_missed(struct inst *in, int64_t t)
{
	if (in->lt_qd == 1)
		return 1;
	in->lt_high = in->lt_qd;
	if (in->lt_qd == in->lt_low)
		in->lt_low--;
	in->lt_qd = (in->lt_qd + in->lt_low) / 2;
	in->lt_stable = 0;
	in->lt_quiesce = 1;
	run_lat_new_cycle(in, t);
	return 0;
}

/* A read or write of latency lat completed at t, over the target: with
 * latency_percentile=100 a miss at once (at depth 1 the job ends with
 * ETIMEDOUT, fio's lat_fatal), else one more miss of the window. */
void run_lat_over(struct run *r, struct inst *in, const struct cmd *cm,
		     int64_t lat, int64_t t)
{
	const struct ssd_job *j = in->job;
	if (j->latency_percentile < 100.0) {
		in->lt_failed++;
		return;
	}
	if (!lat_missed(in, t) || in->res->error)
		return;
	char msg[200];
	snprintf(msg, sizeof msg,
		 "latency of %lld nsec exceeds specified max (%lld nsec): %s "
		 "at offset %llu, %u bytes", (long long)lat,
		 (long long)j->latency_target, ddir_word((int)cm->ddir),
		 (unsigned long long)cm->offset, cm->len);
	run_job_fail(r, in, SSD_ETIMEDOUT, msg);
}

/* The result's figures start over at t (a converged latency_target
 * search, fio's reset_all_stats): the measured window opens again, the
 * runtime and the rate schedule count from t.  Clones reporting together
 * share their figures, so theirs keep the search (only the runtime and
 * the schedule start over). */
void run_lat_restart(struct run *r, struct inst *in, int64_t t)
{
	const struct ssd_job *j = in->job;
	struct ssd_job_result *res = in->res;
	if (res->clones <= 1) {
		ssd_job_result_restart(res);
		in->ramp_end = t;
		run_open_window(r, in, t);
	}
	in->deadline = j->runtime ? t + j->runtime : NEVER;
	run_pacing_reset(in, t);
}

/* fio's lat_target_check at the bottom of the loop, at t: once the
 * window has passed, its share of completions within the target decides
 * (lat_target_success / __lat_target_failed).  0 to go on, else what to
 * wait for (the quiesce before the final window), with *wait set. */
int run_lat_check(struct run *r, struct inst *in, int64_t t, int *wait)
{
	const struct ssd_job *j = in->job;
	*wait = 0;
	if (t - in->lt_ts < j->latency_window)
		return 0;
	uint64_t ios = in->reaped_rw - in->lt_ios;
	/* fio's arithmetic: no completion in the window (0/0) is a miss */
	double ok = ios ? (double)(ios - in->lt_failed) / (double)ios * 100.0
			: -1.0;
	if (ok < j->latency_percentile) {
		if (lat_missed(in, t))
			return 0; /* depth 1: it stays, the window grows */
		in->lt_quiesce = 0;
		in->lt_resume = R_TOP;
		*wait = 1;
		return run_quiesce(r, in, t, R_LAT_CYCLE);
	}
	uint32_t qd = in->lt_qd;
	in->lt_low = qd;
	if (qd + 1 == in->lt_high && ++in->lt_stable >= 3) {
		/* stuck one below a failed depth: try it again, slowly */
		in->lt_high++;
		in->lt_stable = 0;
	}
	if (in->lt_high != j->iodepth)
		in->lt_qd = (qd + in->lt_high) / 2;
	else
		in->lt_qd = qd * 2;
	if (in->lt_qd > j->iodepth)
		in->lt_qd = j->iodepth;
	if (!j->latency_run && in->lt_qd == qd) {
		if (in->lt_end_run) {
			in->done = 1; /* the final window met it: the end */
		} else {
			in->lt_end_run = 1;
			*wait = 1;
			return run_quiesce(r, in, t, R_LAT_RESET);
		}
	}
	run_lat_new_cycle(in, t);
	return 0;
}
