/*
 * loop.c -- the job runner's per-command path: fio's do_io loop for each
 * instance with its queueing and pacing (iodepth, batches, rate, think
 * time, flow), the submission, completion and reaping of its commands,
 * and the event loop that drives it all.
 *
 * The event loop pops the earliest event: a completion (count it, then
 * submit the instance's next command), a deferred submission (after think
 * time) or the end of an instance's ramp (its measured window opens: the
 * drive counters are read).  Submissions happen in event order, so the
 * drive sees commands in non-decreasing time and its busy-until stamps
 * stay causal; the drive is told of every moment the host moves on
 * without a command (a job's end, a ramp's end), so idle time the host
 * spends is idle time the drive has for background work.
 *
 * Each instance runs fio's do_io loop as a state machine (run_step()
 * below): check the runtime, the flow, draw the next I/O, wait for its
 * turn under a rate, queue it (the batch goes to the drive at
 * iodepth_batch), reap completions when the queue is full (at least
 * iodepth_batch_complete_min, at most ..._max, until the depth is down to
 * iodepth_low), think, check rate_min; at the end wait for everything in
 * flight and flush (end_fsync).  Where fio's thread would block, the
 * instance records what it waits for (W_*) and what comes next (R_*),
 * and the event that ends the wait resumes it.  Completions are counted
 * when they are reaped, as fio measures them.  Every step is O(1) per
 * I/O: the rate is a token computation (the time the issued bytes are
 * due), not a scan.
 *
 * Pacing.  rate / rate_iops give each direction a schedule: the next I/O
 * is due when the bytes issued so far would take at that rate (poisson:
 * after an exponential gap from the instance's own random stream).  The
 * schedule and rate_min's counters count from the instance's epoch: its
 * start, the end of its ramp, and the start of a latency_target search's
 * final window (run_pacing_reset).  flow: jobs of one flow_id issue in
 * the ratio of their weights, by fio's tokens.
 *
 * Cost.  This is the hot path: every function a command passes through
 * is here (or static inline in run_int.h), pacing included, so that the
 * compiler inlines them into each other; a plain job (no option of the
 * loop) takes the short path next_plain.  The rarer options live in their
 * own files -- latency_target (latency.c), verification (verify.c), errors
 * (errors.c), logs (logs.c) -- and the loop tests the job before it calls
 * into them.
 */
#include "run/run_int.h"

#include <math.h>
#include <stdio.h>


static int next_plain(struct run *r, struct inst *in, int64_t t);
static int next_replay(struct run *r, struct inst *in, int64_t t);

/* ---- the stream: lookahead ---- */

/* Fill the lookahead ring; 1 if the instance has a next command. */
static int has_next_io(struct run *r, struct inst *in)
{
	while (in->ahead_n < LOOKAHEAD && !in->wl_ended) {
		struct ssd_io *x =
			&in->ahead[(in->ahead_head + in->ahead_n) % LOOKAHEAD];
		if (!ssd_wl_next(in->wl, x)) {
			in->wl_ended = 1;
			break;
		}
		in->ahead_n++;
		if (x->len)
			ssd_dev_prefetch(r->dev, x->offset, x->len, 0);
	}
	return in->ahead_n > 0;
}

/* Next command of the instance from the lookahead ring; 0 at the end. */
static int next_io(struct run *r, struct inst *in, struct ssd_io *io)
{
	if (!has_next_io(r, in))
		return 0;
	*io = in->ahead[in->ahead_head];
	in->ahead_head = (in->ahead_head + 1) % LOOKAHEAD;
	in->ahead_n--;
	if (in->ahead_n > LOOKAHEAD / 2) {
		const struct ssd_io *x =
			&in->ahead[(in->ahead_head + LOOKAHEAD / 2) % LOOKAHEAD];
		ssd_dev_prefetch(r->dev, x->offset, x->len, 1);
	}
	if (r->pf_deep && in->ahead_n > LOOKAHEAD / 4) {
		const struct ssd_io *x =
			&in->ahead[(in->ahead_head + LOOKAHEAD / 4) % LOOKAHEAD];
		ssd_dev_prefetch(r->dev, x->offset, x->len, 2);
	}
	return 1;
}

/* The instance's next command: 1 with *io set (*check: a read to check),
 * 0 to wait for the commands in flight, -1 when it has no more. */
static int next_cmd(struct run *r, struct inst *in, struct ssd_io *io,
		    int *check, int64_t t)
{
	*check = 0;
	if (in->phase == PH_IO) {
		if (in->twl && run_backlog_trim(in, io)) {
			in->last = LAST_TRIM;
			return 1;
		}
		if (in->vwl && in->job->verify_backlog &&
		    run_backlog_verify(r, in, io)) {
			in->last = LAST_VERIFY;
			*check = in->vcheck;
			return 1;
		}
		int k = in->zj ? run_zbd_next(r, in, io, t) : next_io(r, in, io);
		if (k < 0)
			return 0; /* a zone command first (draw) */
		if (k) {
			in->last = LAST_STREAM;
			in->writes += io->ddir == SSD_DDIR_WRITE;
			*check = in->vreads && io->ddir == SSD_DDIR_READ;
			return 1;
		}
		if (!in->vafter)
			return -1;
		in->phase = PH_VWAIT;
	}
	if (in->phase == PH_VWAIT) {
		/* every write completes first; then a flush, as fio syncs
		 * the file before its verify phase */
		if (in->used)
			return 0;
		in->phase = PH_VERIFY;
		in->vsync = 1;
		*io = (struct ssd_io){.ddir = SSD_DDIR_SYNC};
		return 1;
	}
	if (in->vsync)
		return 0;
	if (run_verify_next(r, in, io)) {
		*check = in->vcheck;
		return 1;
	}
	return -1;
}

/* ---- the queue: fio's io_u's ---- */

static uint32_t list_pop(struct run *r, uint32_t *head, uint32_t *tail)
{
	uint32_t id = *head;
	*head = r->cmd[id].next_free;
	if (*head == UINT32_MAX)
		*tail = UINT32_MAX;
	return id;
}

static void list_push(struct run *r, uint32_t *head, uint32_t *tail,
		      uint32_t id)
{
	r->cmd[id].next_free = UINT32_MAX;
	if (*tail == UINT32_MAX)
		*head = id;
	else
		r->cmd[*tail].next_free = id;
	*tail = id;
}

/* ---- submission ---- */

/* A read, write or trim of command cm to the drive at t, as the drive
 * gets it: a write may go as a trim or a read (write_mode), with FUA
 * (sync, writefua); a trim carries num_range ranges, the stream's next
 * trims (its completion: the last of them).  The host's record takes
 * what changes the drive.  The completion time, or a negative SSD_E*. */
static int64_t submit_io(struct run *r, struct inst *in, struct cmd *cm,
			 struct ssd_io *io, int64_t t)
{
	const struct ssd_job *j = in->job;
	int ddir = (int)cm->ddir;
	if (cm->flags & CMD_AS_TRIM)
		ddir = SSD_DDIR_TRIM;
	else if (cm->flags & CMD_AS_READ)
		ddir = SSD_DDIR_READ;
	struct ssd_io dio = {.ddir = ddir, .offset = cm->offset,
			     .len = cm->len};
	int rec = r->vtrack && ddir != SSD_DDIR_READ;
	int dflags = (int)in->ddir_flags[ddir];
	uint64_t off = cm->offset;
	/* one test for a plain job: zones or data placement */
	if (__builtin_expect(((uintptr_t)in->zj | (uintptr_t)in->dp) != 0, 0)) {
		if (in->zj && ddir == SSD_DDIR_TRIM)
			return run_zbd_submit(r, in, cm, t); /* a zone reset */
		if (in->zj && ddir == SSD_DDIR_WRITE && j->zone_append &&
		    r->zoned) {
			/* a Zone Append to the zone's start; the host
			 * predicts it lands at the write pointer, as fio */
			dflags |= SSD_BLK_APPEND;
			off -= off % r->zbd->zone_size;
		}
		/* the stream's writes take the turns; a write sent as
		 * one carries the identifier */
		if (in->dp && cm->ddir == SSD_DDIR_WRITE && in->phase == PH_IO) {
			uint32_t pid = run_dp_next(in, cm->offset);
			if (ddir == SSD_DDIR_WRITE)
				dflags |= SSD_BLK_PLACEMENT(pid);
		}
	}
	if (rec)
		run_record_io(r, &dio);
	int64_t c = ssd_dev_submit(r->dev, ddir | dflags, off, cm->len, t);
	if (rec && c < 0)
		run_record_lost(r, &dio);
	if (c < 0 || cm->ddir != SSD_DDIR_TRIM || j->num_range <= 1 ||
	    in->phase != PH_IO)
		return c;
	for (uint32_t k = 1; k < j->num_range; k++) {
		struct ssd_io x;
		if (!next_io(r, in, &x))
			break;
		if (rec)
			run_record_io(r, &x);
		int64_t c2 = ssd_dev_submit(r->dev, SSD_DDIR_TRIM | (int)in->dflag,
					    x.offset, x.len, t);
		if (c2 < 0) {
			if (rec)
				run_record_lost(r, &x);
			return c2;
		}
		if (c2 > c)
			c = c2;
		cm->len += x.len;
		in->rate_bytes[SSD_DDIR_TRIM] += x.len;
	}
	io->len = cm->len;
	return c;
}

/* Command id is the one the drive's latest submission left waiting: it
 * gets its tag, and the drive's next decision an EV_DEVICE, unless one
 * comes as soon. */
static int waits(struct run *r, uint32_t id)
{
	ssd_dev_tag_waiting(r->dev, id);
	int64_t at = ssd_dev_next_decision(r->dev);
	if (at >= r->dev_ev)
		return 0;
	r->dev_ev = at;
	return ssd_engine_schedule(&r->eng, at, 0, EV_DEVICE);
}

/* Command id waits in the drive's queue since t (SSD_EPENDING): it is
 * in flight as at_drive counts it (no read check: a drive that queues
 * is a disk, which verify does not take), and the drive's next decision
 * gets an EV_DEVICE, unless one comes as soon.  Cold: only a drive that
 * queues answers so. */
__attribute__((cold, noinline)) static int queued(struct run *r,
						  struct inst *in, uint32_t id,
						  int64_t t)
{
	r->cmd[id].submitted = t;
	in->inflight++;
	if (t >= in->ramp_end)
		in->res->depth[ssd_depth_index(in->inflight)]++;
	return waits(r, id);
}

/* EV_DEVICE at t: the drive decides what it serves next; each decided
 * command's completion is queued, and the next decision gets its event.
 * With t = INT64_MAX (before a flush) every waiting command is decided.
 * *last, if not NULL, gets the latest completion. */
static int device_decides(struct run *r, int64_t t, int64_t *last)
{
	uint32_t tag;
	int64_t done;
	if (t != INT64_MAX) /* this is the event due: it is spent */
		r->dev_ev = INT64_MAX;
	while (ssd_dev_decide(r->dev, t, &tag, &done)) {
		if (last && done > *last)
			*last = done;
		int rc = ssd_engine_schedule(&r->eng, done, tag, EV_COMPLETE);
		if (rc)
			return rc;
	}
	int64_t at = ssd_dev_next_decision(r->dev);
	if (at == INT64_MAX || at >= r->dev_ev)
		return 0;
	r->dev_ev = at;
	return ssd_engine_schedule(&r->eng, at, 0, EV_DEVICE);
}

/* Command id went to the drive at t, the drive's answer c (its completion
 * time, or a negative SSD_E*): its completion is queued; io is what went
 * (a read to check). */
static inline int at_drive(struct run *r, struct inst *in, uint32_t id,
			   int64_t t, int64_t c, const struct ssd_io *io)
{
	struct cmd *cm = &r->cmd[id];
	if (c >= 0 && ssd_dev_check_failure(r->dev))
		c = SSD_ESTATE;
	if (c < 0) {
		if (c == SSD_EPENDING)
			return queued(r, in, id, t);
		c = run_refused(r, in, id, t, c);
		if (c < 0)
			return 0;
	}
	cm->submitted = t;
	if (cm->flags & CMD_CHECK)
		run_check_read(r, in, io, t, cm);
	in->inflight++;
	/* fio's iodepth_level: the commands at the drive */
	if (t >= in->ramp_end)
		in->res->depth[ssd_depth_index(in->inflight)]++;
	return ssd_engine_schedule(&r->eng, c, id, EV_COMPLETE);
}

/* Command id goes to the drive at t.  A command the drive refuses ends
 * the job (run_job_error), unless continue_on_error covers it: it is then
 * counted and answered after the controller's time. */
static int send(struct run *r, struct inst *in, uint32_t id, int64_t t)
{
	struct cmd *cm = &r->cmd[id];
	struct ssd_io io = {.ddir = (int)cm->ddir, .offset = cm->offset,
			    .len = cm->len};
	int64_t c;
	if (cm->ddir == SSD_DDIR_SYNC) {
		/* a drive's queue is served before a flush (SATA's FLUSH
		 * CACHE is not queued): it completes after them */
		int64_t last = t;
		if (r->dev->queues && device_decides(r, INT64_MAX, &last))
			return SSD_ENOMEM;
		c = ssd_dev_flush(r->dev, t);
		if (c >= 0 && c < last)
			c = last;
	} else {
		c = submit_io(r, in, cm, &io, t);
	}
	return at_drive(r, in, id, t, c, &io);
}

/* The queued commands go to the drive at t, in order. */
static int commit(struct run *r, struct inst *in, int64_t t)
{
	while (in->queued) {
		uint32_t id = list_pop(r, &in->q_head, &in->q_tail);
		in->queued--;
		int rc = send(r, in, id, t);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- completion ---- */

/* account() of a command with every feed but the figures (see below). */
static void account_all(struct run *r, struct inst *in, uint32_t id,
			int64_t t)
{
	struct cmd cm = r->cmd[id];
	cmd_free(r, in, id);
	int64_t lat = t - cm.submitted;
	if (cm.flags & CMD_ERR) {
		/* refused, the job goes on: fio counts no data or latency */
		if (cm.ddir < SSD_DDIR_N)
			in->reaped_rw++;
		else if (in->vsync)
			in->vsync = 0;
		return;
	}
	if (r->series) {
		ssd_series_add(r->series, t, (int)cm.ddir, cm.len, lat);
		ssd_series_add(in->res->series, t, (int)cm.ddir, cm.len, lat);
	}
	if ((cm.flags & CMD_BAD) && !in->res->error &&
	    !run_go_on(in, (int)cm.ddir, SSD_EILSEQ, in->vmsg))
		run_job_error(r, in, SSD_EILSEQ, in->vmsg);
	if (cm.ddir >= SSD_DDIR_N) {
		if (cm.ddir == SSD_DDIR_SYNC && in->vsync)
			in->vsync = 0; /* the verify phase reads from now */
		if (cm.ddir == SSD_DDIR_SYNC && cm.submitted >= in->ramp_end)
			/* fio's "sync" figures: flush latency */
			ssd_dstat_add(&in->res->sync, t - in->ramp_end, 0, lat);
		return;
	}
	in->reaped_rw++;
	if (in->job->latency_target && lat > in->job->latency_target &&
	    cm.ddir != SSD_DDIR_TRIM)
		run_lat_over(r, in, &cm, lat, t);
	if (r->progress) {
		r->pios[cm.ddir]++;
		r->pbytes[cm.ddir] += cm.len;
		in->bytes_done += cm.len;
		if (++r->since_progress >= r->progress_every)
			run_progress_report(r, t);
	}
	if (in->ss) {
		in->ss->ios++;
		in->ss->bytes += cm.len;
		in->ss->lat_sum += (double)lat;
		in->ss->lat_n++;
	}
	if (cm.submitted >= in->ramp_end) {
		struct ssd_job_result *res = in->res;
		ssd_dstat_add(&res->dir[cm.ddir], t - in->ramp_end, cm.len, lat);
		if (lat > SSD_S)
			res->lat_over_1s++;
		for (int i = 0; i < in->nlogs; i++)
			ssd_log_add(in->log[i], t - in->ramp_end, (int)cm.ddir,
				    cm.len, cm.offset, lat);
		in->done_bytes[cm.ddir] += cm.len;
		in->done_ios[cm.ddir]++;
	}
}

/* Count a completed command at t, when the job reaps it (fio measures
 * completion latency there).  A read, write or trim of a job that feeds
 * nothing else (in->counted) only counts in the job's figures. */
static inline void account(struct run *r, struct inst *in, uint32_t id,
			   int64_t t)
{
	const struct cmd *cm = &r->cmd[id];
	if (!in->counted || cm->flags || cm->ddir >= SSD_DDIR_N) {
		account_all(r, in, id, t);
		return;
	}
	int64_t lat = t - cm->submitted;
	int d = (int)cm->ddir;
	uint32_t len = cm->len;
	int window = cm->submitted >= in->ramp_end;
	cmd_free(r, in, id);
	in->reaped_rw++;
	if (window) {
		struct ssd_job_result *res = in->res;
		ssd_dstat_add(&res->dir[d], t - in->ramp_end, len, lat);
		if (lat > SSD_S)
			res->lat_over_1s++;
		in->done_bytes[d] += len;
		in->done_ios[d]++;
	}
}

/* Reap up to max completed commands at t. */
static void reap(struct run *r, struct inst *in, int64_t t, uint32_t max)
{
	while (in->ready && max--) {
		uint32_t id = list_pop(r, &in->r_head, &in->r_tail);
		in->ready--;
		account(r, in, id, t);
	}
}

/* ---- waiting ---- */

/* fio's io_u_quiesce: the queue goes out and the job waits until every
 * command has completed (and reaps each as it does), then goes on at
 * `next`. */
int run_quiesce(struct run *r, struct inst *in, int64_t t, int next)
{
	int rc = commit(r, in, t);
	if (rc)
		return rc;
	reap(r, in, t, UINT32_MAX);
	if (in->inflight) {
		in->wait = W_QUIESCE;
		in->resume = next;
		return 0;
	}
	return run_step(r, in, t, next);
}

/* fio's wait_for_completions with a full queue: at least min_evts
 * completions, at most iodepth_batch_complete_max at a time, until the
 * depth is down to iodepth_low.  Returns 1 while it has to wait. */
static int full_wait(struct run *r, struct inst *in, int64_t t)
{
	const struct ssd_job *j = in->job;
	for (;;) {
		uint32_t depth = in->inflight + in->ready;
		if (!depth)
			return 0;
		uint32_t need = in->min_evts < depth ? in->min_evts : depth;
		if (in->ready < need) {
			in->wait = W_FULL;
			return 1;
		}
		uint32_t max = j->iodepth_batch_complete_max;
		if (max > depth)
			max = depth;
		if (need > max)
			max = need;
		reap(r, in, t, max);
		if (in->used <= j->iodepth_low)
			return 0;
	}
}

/* A command completed at t: the job reaps it now if it waits for it,
 * else it stays ready until the job's next reaping (fio reaps only when
 * its queue is full, or when it waits for everything). */
static int completed(struct run *r, const struct ssd_event *ev)
{
	struct inst *in = &r->in[r->cmd[ev->id].inst];
	int64_t t = ev->time;
	struct cmd *cm = &r->cmd[ev->id];
	if (cm->flags & CMD_WAV) {
		/* write and verify: the write is done, the read back goes */
		cm->flags &= ~CMD_WAV;
		int64_t c = ssd_dev_submit(r->dev, SSD_DDIR_READ | (int)in->dflag,
					   cm->offset, cm->len, t);
		if (c >= 0 && ssd_dev_check_failure(r->dev))
			c = SSD_ESTATE;
		if (c >= 0) {
			struct ssd_event e = {.time = c, .id = ev->id,
					      .kind = EV_COMPLETE};
			return ssd_engine_push(&r->eng, &e);
		}
		if (c == SSD_EPENDING) /* in the drive's queue, still in flight */
			return waits(r, ev->id);
		char what[128];
		snprintf(what, sizeof what, "read back (write and verify) at "
			 "offset %llu, %u bytes",
			 (unsigned long long)cm->offset, cm->len);
		cm->flags |= CMD_ERR;
		if (!run_go_on(in, SSD_DDIR_READ, (int)c, what))
			run_job_error(r, in, (int)c, what);
	}
	in->inflight--;
	if (in->wait == W_FULL && !in->ready && in->min_evts <= 1) {
		/* the common case, one completion awaited: reaped at once
		 * (what full_wait would do, without the list) */
		account(r, in, ev->id, t);
		if (in->used > in->iodepth_low && in->inflight)
			return 0;
		if (in->plain && in->resume == R_AFTER_REAP)
			return next_plain(r, in, t);
		if (in->plain_replay && in->resume == R_AFTER_REAP)
			return next_replay(r, in, t);
		return run_step(r, in, t, in->resume);
	}
	list_push(r, &in->r_head, &in->r_tail, ev->id);
	in->ready++;
	if (in->wait == W_QUIESCE) {
		reap(r, in, t, UINT32_MAX);
		if (!in->inflight)
			return run_step(r, in, t, in->resume);
	} else if (in->wait == W_FULL) {
		if (!full_wait(r, in, t))
			return run_step(r, in, t, in->resume);
	} else if (in->job->io_submit_offload ||
		   (in->wait == W_TIMER && in->job->read_iolog[0])) {
		/* offload: completions are reaped as they come; so are a
		 * replay's while it waits for the trace's time (fio's
		 * iolog_delay reaps as it waits) */
		reap(r, in, t, UINT32_MAX);
	}
	return 0;
}

/* ---- pacing: rate, rate_min ---- */

/* When the direction's next I/O is due, ns from the epoch: fio's
 * usec_for_io after an issue. */
static int64_t rate_due(struct inst *in, int d)
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
static int min_rate_failed(struct run *r, struct inst *in, int64_t t)
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
static int think_due(const struct inst *in, int64_t t)
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
static int think(struct run *r, struct inst *in, int64_t t)
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
static int flow_exceeded(struct run *r, struct inst *in)
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

/* ---- issuing ---- */

/* The next I/O of the job into in->cur: a flush when fsync=N is due
 * (before the next I/O, so none after the job's last, as fio), else the
 * next command of its phase (next_cmd).  1 with in->cur set, 0 when the
 * job has no more, -1 when it must wait for its commands in flight (the
 * verify phase starts after them). */
static int draw(struct run *r, struct inst *in, int64_t t)
{
	const struct ssd_job *j = in->job;
	in->cur_check = 0;
	if (j->fsync_every && in->since_sync >= j->fsync_every &&
	    in->phase == PH_IO && (in->zj ? !in->zbd_eof : has_next_io(r, in))) {
		in->since_sync = 0;
		in->cur = (struct ssd_io){.ddir = SSD_DDIR_SYNC};
		return 1;
	}
	int k = next_cmd(r, in, &in->cur, &in->cur_check, t);
	if (k < 0 && ssd_wl_error(in->wl)) /* a replayed trace broke off */
		run_job_fail(r, in, SSD_EPARSE, ssd_wl_error(in->wl));
	return k > 0 ? 1 : k < 0 ? 0 : -1;
}

/* The write mode of the stream's next write: the mode furthest behind
 * its share (write_mode's percentages), so that every prefix of the
 * stream keeps to them; O(modes). */
static uint32_t write_mode_flags(struct inst *in)
{
	const struct ssd_job *j = in->job;
	int best = SSD_WMODE_WRITE;
	double gap = -1e300;
	in->wm_total++;
	for (int m = 0; m < SSD_WMODE_N; m++) {
		if (!j->wmode_pct[m])
			continue;
		double g = (double)j->wmode_pct[m] * (double)in->wm_total / 100.0
			   - (double)in->wm_n[m];
		if (g > gap) {
			gap = g;
			best = m;
		}
	}
	in->wm_n[best]++;
	static const uint32_t flags[SSD_WMODE_N] = {
		[SSD_WMODE_WRITE] = 0, [SSD_WMODE_ZEROES] = CMD_AS_TRIM,
		[SSD_WMODE_UNCOR] = CMD_AS_TRIM, [SSD_WMODE_VERIFY] = CMD_AS_READ,
		[SSD_WMODE_WAV] = CMD_WAV};
	return flags[best];
}

/* A free command slot for in->cur, submitted at t (flags cleared). */
static inline uint32_t cmd_take(struct run *r, struct inst *in, int64_t t)
{
	const struct ssd_io *io = &in->cur;
	uint32_t id = r->cmd_free;
	struct cmd *cm = &r->cmd[id];
	r->cmd_free = cm->next_free;
	cm->offset = io->offset;
	cm->submitted = t;
	cm->len = io->len;
	cm->ddir = (uint32_t)io->ddir;
	cm->inst = (uint32_t)(in - r->in);
	cm->flags = 0;
	in->used++;
	return id;
}

/* Queue in->cur at t: the batch goes to the drive at iodepth_batch. */
static int issue(struct run *r, struct inst *in, int64_t t)
{
	const struct ssd_job *j = in->job;
	const struct ssd_io *io = &in->cur;
	uint32_t id = cmd_take(r, in, t);
	struct cmd *cm = &r->cmd[id];
	if (in->cur_check)
		cm->flags = CMD_CHECK;
	if (j->wmode_set && io->ddir == SSD_DDIR_WRITE &&
	    in->last == LAST_STREAM && in->phase == PH_IO)
		cm->flags |= write_mode_flags(in);
	in->last_sync = io->ddir == SSD_DDIR_SYNC;
	in->last_issue = t;
	if (in->iolog)
		run_log_iolog(in, io, t);
	if (is_rw(io->ddir)) {
		int d = io->ddir;
		in->issued_rw++;
		if (d == SSD_DDIR_WRITE) {
			in->wrote = 1;
			in->since_sync++;
		}
		in->rate_bytes[d] += io->len;
		if (in->rate_bps[d])
			in->rate_next[d] = rate_due(in, d);
	}
	/* no batch: straight out; nor for a zbd job on a zoned drive, whose
	 * writes reach the drive in the order their zones took them */
	if (!in->queued && (j->io_submit_offload || j->iodepth_batch <= 1 ||
			    (in->zj && r->zoned)))
		return send(r, in, id, t);
	list_push(r, &in->q_head, &in->q_tail, id);
	in->queued++;
	if (j->io_submit_offload || in->queued >= j->iodepth_batch)
		return commit(r, in, t);
	return 0;
}

/* issue() and send() of a plain job's stream I/O in->cur, a read, write
 * or trim (next_plain): no check, no write mode, no batch, no rate; a
 * replay keeps the time of its last issue. */
static inline __attribute__((always_inline)) int
issue_plain(struct run *r, struct inst *in, int64_t t, int replay)
{
	const struct ssd_io *io = &in->cur;
	int d = io->ddir;
	uint32_t id = cmd_take(r, in, t);
	in->last_sync = 0;
	if (replay)
		in->last_issue = t;
	in->issued_rw++;
	if (d == SSD_DDIR_WRITE) {
		in->wrote = 1;
		in->since_sync++;
	}
	in->rate_bytes[d] += io->len;
	if (r->vtrack || d == SSD_DDIR_TRIM)
		return send(r, in, id, t); /* the host's record, num_range */
	int64_t c = ssd_dev_submit(r->dev,
				   d | (int)in->ddir_flags[d],
				   io->offset, io->len, t);
	return at_drive(r, in, id, t, c, io);
}

/* ---- the loop ---- */

/* run_step() from R_AFTER_REAP for a plain job (in->plain: no think time,
 * rate, rate_min, latency target, flow, fsync=N, verification, write
 * modes, submission batches, offload, iolog recording, zbd zones or data
 * placement, whose identifiers submit_io adds): what is left of
 * fio's loop is the end test, the draw and the issue, until the queue is
 * full.  The rest of the loop is run_step()'s, and so is a replayed trace's
 * sync or request that waits for its time (replay: next_replay; a drawn
 * workload has none, and next_plain does not look). */
static inline __attribute__((always_inline)) int
plain_loop(struct run *r, struct inst *in, int64_t t, int replay)
{
	in->wait = W_RUN;
	for (;;) {
		if (in->done || t >= in->deadline)
			return run_step(r, in, t, R_END);
		in->cur_check = 0;
		if (!next_io(r, in, &in->cur)) {
			if (replay && ssd_wl_error(in->wl)) /* as draw() */
				run_job_fail(r, in, SSD_EPARSE, ssd_wl_error(in->wl));
			return run_step(r, in, t, R_END);
		}
		in->last = LAST_STREAM;
		in->writes += in->cur.ddir == SSD_DDIR_WRITE;
		if (replay && (in->cur.wait || !is_rw(in->cur.ddir)))
			return run_step(r, in, t, R_TURN);
		if (in->used >= in->lt_qd)
			return run_step(r, in, t, R_ISSUE);
		int rc = issue_plain(r, in, t, replay);
		if (rc)
			return rc;
		if (in->used >= in->lt_qd && !in->done) {
			/* nothing is queued: every command went out */
			in->min_evts = in->complete_min;
			in->resume = R_AFTER_REAP;
			if (!in->ready && in->inflight) {
				in->wait = W_FULL; /* full_wait's answer */
				return 0;
			}
			if (full_wait(r, in, t))
				return 0;
		}
	}
}

static int next_plain(struct run *r, struct inst *in, int64_t t)
{
	return plain_loop(r, in, t, 0);
}

static int next_replay(struct run *r, struct inst *in, int64_t t)
{
	return plain_loop(r, in, t, 1);
}

/* fio's do_io loop for one instance from `at`, until it has to wait. */
int run_step(struct run *r, struct inst *in, int64_t t, int at)
{
	const struct ssd_job *j = in->job;
	int rc;
	in->wait = W_RUN; /* every way out sets what it waits for */
	for (;;) {
		switch (at) {
		case R_TOP:
			if (in->done || t >= in->deadline) {
				at = R_END;
				break;
			}
			if (in->flow && flow_exceeded(r, in)) {
				if (j->flow_sleep)
					return run_quiesce(r, in, t, R_FLOW_SLEEP);
				in->wait = W_FLOW;
				in->flow_next = in->flow->waiting;
				in->flow->waiting = (int)(in - r->in);
				return 0;
			}
			rc = draw(r, in, t);
			if (rc < 0 && in->zj && in->zbd_ready > t)
				/* its next write waits for the zone commands
				 * sent for it (a zoned drive's reset or
				 * finish), then is adjusted again */
				return run_timer(r, in, in->zbd_ready, R_TOP);
			if (rc < 0)
				return run_quiesce(r, in, t, R_TOP);
			if (!rc) {
				at = R_END;
				break;
			}
			at = R_TURN;
			break;
		case R_TURN: {
			/* a replayed trace's time: fio's iolog_delay waits for
			 * the trace's gap after the previous issue (a version 2
			 * wait: until its time after the start) */
			if (in->cur.wait && j->read_iolog[0]) {
				int64_t due = in->cur.wait == SSD_IO_GAP
					? in->last_issue + in->cur.delay
					: in->start + in->cur.delay;
				in->cur.wait = SSD_IO_NOW;
				if (due > t) {
					in->sleep = (due < in->deadline ? due : in->deadline) - t;
					at = R_SLEEP;
					break;
				}
			}
			/* fio's rate_ddir: the drawn direction if its turn
			 * has come; in a mixed job the other one if its turn
			 * has; else sleep until the nearer turn */
			int d = in->cur.ddir;
			if (!is_rw(d) || !in->rate_bps[d] ||
			    in->epoch + in->rate_next[d] <= t) {
				at = R_ISSUE;
				break;
			}
			int64_t due = in->epoch + in->rate_next[d];
			int o = d == SSD_DDIR_READ ? SSD_DDIR_WRITE : SSD_DDIR_READ;
			uint32_t share = o == SSD_DDIR_READ ? j->rwmixread
							    : 100 - j->rwmixread;
			/* (a replayed trace's direction is the trace's) */
			if (in->mixed && d != SSD_DDIR_TRIM && share &&
			    !j->read_iolog[0]) {
				int64_t odue = in->epoch + in->rate_next[o];
				if (!in->rate_bps[o] || odue <= t) {
					in->cur.ddir = o;
					at = R_ISSUE;
					break;
				}
				if (odue < due) {
					in->cur.ddir = o;
					due = odue;
				}
			}
			/* the sleep is counted from now; fio's inline
			 * thread first waits for what it has in flight */
			in->sleep = (due < in->deadline ? due : in->deadline) - t;
			if (!j->io_submit_offload)
				return run_quiesce(r, in, t, R_SLEEP);
			at = R_SLEEP;
			break;
		}
		case R_SLEEP:
			return run_timer(r, in, t + in->sleep, R_ISSUE);
		case R_ISSUE:
			if (in->done || t >= in->deadline) {
				at = R_END;
				break;
			}
			if (in->used >= in->lt_qd) {
				/* offload: the turn came with no free slot */
				in->min_evts = 1;
				in->resume = R_ISSUE;
				if (full_wait(r, in, t))
					return 0;
			}
			if (in->lt_quiesce) {
				/* a miss while reaping: fio waits for what is
				 * in flight before it issues at the new depth */
				in->lt_quiesce = 0;
				in->lt_resume = R_ISSUE;
				return run_quiesce(r, in, t, R_LAT_CYCLE);
			}
			if (in->zj && in->last == LAST_STREAM &&
			    in->phase == PH_IO && is_rw(in->cur.ddir)) {
				rc = run_zbd_issue(r, in, t);
				if (rc < 0)
					return run_timer(r, in, in->zbd_ready,
							 R_ISSUE);
				if (!rc) {
					at = R_TOP;
					break;
				}
			}
			rc = issue(r, in, t);
			if (rc)
				return rc;
			at = R_AFTER_REAP;
			if (in->used >= in->lt_qd && !in->done) {
				rc = commit(r, in, t);
				if (rc)
					return rc;
				in->min_evts = j->iodepth_batch_complete_min
					? j->iodepth_batch_complete_min : 1;
				in->resume = R_AFTER_REAP;
				if (full_wait(r, in, t))
					return 0;
			}
			break;
		case R_AFTER_REAP:
			if (in->lt_quiesce) {
				in->lt_quiesce = 0;
				in->lt_resume = R_AFTER_REAP;
				return run_quiesce(r, in, t, R_LAT_CYCLE);
			}
			at = R_AFTER_THINK;
			if (!in->done && in->phase == PH_IO &&
			    is_rw(in->cur.ddir) && think_due(in, t))
				return run_quiesce(r, in, t, R_THINK);
			break;
		case R_THINK:
			return think(r, in, t);
		case R_AFTER_THINK:
			if (!in->done && min_rate_failed(r, in, t)) {
				at = R_END;
				break;
			}
			at = R_TOP;
			/* fio checks the latency target after the first
			 * completion of the measured window, once its
			 * latency_window has passed */
			if (j->latency_target && !in->done &&
			    t >= in->ramp_end &&
			    in->done_ios[0] + in->done_ios[1] + in->done_ios[2] &&
			    t - in->lt_ts >= j->latency_window) {
				int wait;
				rc = run_lat_check(r, in, t, &wait);
				if (rc || wait)
					return rc;
			}
			break;
		case R_LAT_CYCLE:
			/* a miss: what was in flight has completed (misses
			 * among it lowered the depth further, as in fio) */
			in->lt_quiesce = 0;
			run_lat_new_cycle(in, t);
			at = in->lt_resume;
			break;
		case R_LAT_RESET:
			/* converged: the final window, from a fresh start */
			run_lat_restart(r, in, t);
			run_lat_new_cycle(in, t);
			at = R_TOP;
			break;
		case R_FLOW_SLEEP:
			return run_timer(r, in, t + j->flow_sleep, R_TOP);
		case R_END:
			in->done = 1;
			return run_quiesce(r, in, t, R_END_SYNC);
		case R_END_SYNC:
			/* end_fsync / fsync_on_close: one flush, if the job
			 * wrote, did not end in error and its last command
			 * was not a flush (fio's should_fsync) */
			if ((j->end_fsync || j->fsync_on_close) && in->wrote &&
			    !in->last_sync && !in->res->error && !r->rc) {
				in->cur = (struct ssd_io){.ddir = SSD_DDIR_SYNC};
				rc = issue(r, in, t);
				if (rc)
					return rc;
				return run_quiesce(r, in, t, R_FINISH);
			}
			at = R_FINISH;
			break;
		case R_FINISH:
			in->wait = W_DONE;
			run_finish_inst(r, in, t);
			return 0;
		}
	}
}

/* ---- events ---- */

static int wake(struct run *r, const struct ssd_event *ev)
{
	struct inst *in = &r->in[ev->id];
	if (EV_GEN(ev->kind) != (in->gen & 0xffffff) || in->wait != W_TIMER)
		return 0; /* superseded */
	in->wait = W_RUN;
	if (!in->started && !in->finished) {
		/* ended before it started (run_terminate) */
		in->wait = W_DONE;
		in->ramp_end = ev->time;
		run_finish_inst(r, in, ev->time);
		return 0;
	}
	return run_step(r, in, ev->time, in->resume);
}


/* Every event in order until the queue is empty: the group has ended. */
int run_events(struct run *r)
{
	struct ssd_event ev;
	int rc;
	while (ssd_engine_pop(&r->eng, &ev)) {
		if (__builtin_expect(ev.time < r->now, 0) &&
		    ssd_dev_checking(r->dev))
			run_clock_back(r, &ev);
		r->now = ev.time;
		rc = 0;
		switch (EV_KIND(ev.kind)) {
		case EV_COMPLETE:
			rc = completed(r, &ev);
			break;
		case EV_WAKE:
			rc = wake(r, &ev);
			break;
		case EV_START:
			rc = run_start_event(r, &ev);
			break;
		case EV_RAMP:
			run_ramp_event(r, &ev);
			break;
		case EV_SS:
			rc = run_ss_tick(r, &r->ss[ev.id], ev.time);
			break;
		case EV_DEVICE:
			rc = device_decides(r, ev.time, NULL);
			break;
		}
		if (rc)
			return rc;
	}
	return 0;
}
