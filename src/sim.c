/*
 * sim.c -- the job runner (see sim.h).
 *
 * The loop pops the earliest event: a completion (count it, then submit
 * the instance's next command), a deferred submission (after think time)
 * or the end of an instance's ramp (its measured window opens: the drive
 * counters are read).  Submissions happen in event order, so the drive
 * sees commands in non-decreasing time and its busy-until stamps stay
 * causal; the drive is told of every moment the host moves on without a
 * command (a job's end, a ramp's end), so idle time the host spends is
 * idle time the drive has for background work.
 *
 * Verification (verify=, see verify.h).  A job that writes with verify
 * set runs in phases, as fio's thread loop does: its I/O stream (with
 * verify_backlog, a batch of verify reads after every N writes; with
 * trim_backlog and trim_percentage, a batch of trims of chosen written
 * blocks), then, once every command has completed, a flush (fio syncs
 * the file) and the verify phase, which reads back every block the job
 * wrote, iodepth at a time, until done or the runtime ends.  The blocks
 * to read back are the job's write stream replayed: a second generator
 * with the same seed (O(1) memory, where fio keeps a list of written
 * blocks) is the verify cursor, and a third the trim cursor; a block read
 * back since its latest write is skipped (unless experimental_verify).
 * A read job with verify checks every read.  Checks are made when the
 * read is submitted (the drive's state then is what it returns) and a
 * failure ends the job when that read completes, with EILSEQ.  Every
 * write and trim of every job updates the host's record once one exists.
 */
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "series.h"
#include "verify.h"
#include "workload.h"

enum { EV_COMPLETE, EV_SUBMIT, EV_RAMP };

/* Phases of a job instance (verification, above). */
enum { PH_IO, PH_VWAIT, PH_VERIFY };

/* What the last command of an instance was (backlog triggers). */
enum { LAST_STREAM, LAST_TRIM, LAST_VERIFY };

/* OR'd into struct cmd's ddir: a checked read that found bad data. */
#define CMD_BAD 0x100u

#define NEVER INT64_MAX

/* Commands are drawn from the generator LOOKAHEAD ahead of their
 * submission, and the drive is told about them early (ssd_dev_prefetch),
 * so the cache misses of a random workload's map lookups overlap instead
 * of stalling one command after another.  The stream and every result are
 * unchanged. */
#define LOOKAHEAD 16

struct inst {
	const struct ssd_job *job;
	struct ssd_wl *wl;
	struct ssd_io ahead[LOOKAHEAD]; /* ring of drawn commands */
	uint32_t ahead_head, ahead_n;
	int wl_ended;               /* the generator has no more */
	struct ssd_job_result *res; /* shared by clones with group_reporting */
	int group;
	uint32_t inflight;
	uint32_t since_think;       /* completions since the last think */
	uint32_t since_sync;        /* writes since the last flush (fsync) */
	int done;                   /* no more submissions */
	int finished;               /* done and nothing in flight */
	int ramped;                 /* the measured window has opened */
	int64_t ramp_end, deadline, end;
	struct ssd_counters ctr0;   /* drive counters when the window opened */
	struct ssd_log *log[6];
	int nlogs;
	int index;                  /* 1-based, in job-file order (log names) */
	/* verification (above) */
	uint64_t seed;              /* of the stream, for its replays */
	int vcheck;                 /* reads are checked (verify, not null) */
	int vreads;                 /* a read job: check the stream's reads */
	int vafter;                 /* a verify phase follows the stream */
	int phase;                  /* PH_* */
	int vsync;                  /* the flush before the verify phase is in
	                               flight */
	int last;                   /* LAST_* */
	struct ssd_wl *vwl, *twl;   /* verify and trim cursors */
	uint64_t writes;            /* writes the stream has issued */
	uint64_t vpos, tpos;        /* writes each cursor has passed */
	uint64_t vbatch, tbatch;    /* backlog reads / trims left in a batch */
	struct ssd_rng trng;        /* trim_percentage draws */
	char vmsg[256];             /* the first verify failure */
	uint32_t queued;            /* commands at the drive (not thinking) */
	uint64_t bytes_done;        /* progress reports: bytes completed */
};

void ssd_run_result_free(struct ssd_run_result *r)
{
	free(r->jobs);
	r->jobs = NULL;
	r->njobs = 0;
}

/* ---- logs and output ---- */

/* The log files a job writes, in the order open_logs opens them: their
 * kinds and file prefixes. */
static int log_kinds(const struct ssd_job *j, int kind[6],
		     const char *prefix[6])
{
	const struct {
		const char *prefix;
		int kind;
	} want[] = {
		{j->write_iops_log, SSD_LOG_IOPS},
		{j->write_bw_log, SSD_LOG_BW},
		{j->write_lat_log, SSD_LOG_LAT},
		{j->write_lat_log, SSD_LOG_CLAT},
		{j->write_lat_log, SSD_LOG_SLAT},
		{j->write_hist_log, SSD_LOG_HIST},
	};
	int n = 0;
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		if (!want[i].prefix[0])
			continue;
		kind[n] = want[i].kind;
		prefix[n++] = want[i].prefix;
	}
	return n;
}

/* Path of the instance's log number l: with per_job_logs=0 without the
 * job number (fio). */
static void log_path(const struct inst *in, int l, char *path, size_t len)
{
	int kind[6];
	const char *prefix[6];
	log_kinds(in->job, kind, prefix);
	ssd_log_name(path, len, prefix[l], kind[l],
		     in->job->per_job_logs ? in->index : 0);
}

static int open_logs(struct inst *in, char *err, size_t errlen)
{
	int kind[6];
	const char *prefix[6];
	const struct ssd_job *j = in->job;
	int n = log_kinds(j, kind, prefix);
	struct ssd_log_opts o = {
		.avg_ns = j->log_avg_msec * SSD_MS,
		.offset = j->log_offset,
		.prio_hex = j->log_prio,
		.append = !j->per_job_logs,
		.hist_ms = j->log_hist_msec,
		.hist_coarseness = j->log_hist_coarseness,
	};
	for (int i = 0; i < n; i++) {
		char path[600];
		log_path(in, i, path, sizeof path);
		struct ssd_log *l = ssd_log_open_opts(path, kind[i], &o, err,
						      errlen);
		if (!l)
			return SSD_EIO;
		in->log[in->nlogs++] = l;
	}
	return 0;
}

/* A command in flight; its event's id indexes run.cmd. */
struct cmd {
	uint64_t offset;
	int64_t submitted;
	uint32_t len;
	uint32_t ddir;
	uint32_t inst;
	uint32_t next_free;
};

struct run {
	struct ssd_dev *dev;
	uint32_t *vrec;             /* the host's record, or NULL (verify.h) */
	uint16_t *vseen;            /* [lpn] the instance (index) that read it
	                               back since its latest write, 0 = none
	                               (or NULL) */
	int vtrack;                 /* vrec or vseen: writes are recorded */
	struct ssd_series *series;  /* or NULL */
	struct cmd *cmd;            /* commands in flight, and a free list */
	uint32_t cmd_free;
	struct ssd_engine eng;
	struct inst *in;
	int ninst;
	int rc;                     /* the error that ended the run, or 0 */
	char *err;
	size_t errlen;
	int64_t t0;                 /* the run's start (device time) */
	/* progress reports (ssd_sim_run_progress): none when fn is NULL */
	ssd_sim_progress_fn progress;
	void *progress_ctx;
	uint32_t progress_every, since_progress;
	int group;                  /* the group running */
	int64_t group_t0;           /* its start */
	uint64_t pios[SSD_DDIR_N], pbytes[SSD_DDIR_N];
};

static void job_error(struct run *r, struct inst *in, int rc,
		      const char *what);

/* The host has reached t without a command for the drive (the end of a
 * ramp or of a job): the drive is told, so an idle gap up to t is idle
 * time for its background work.  A failure of the invariant checker in
 * that work is the job's error. */
static void host_reaches(struct run *r, struct inst *in, int64_t t)
{
	int failed = r->dev->ftl->check_failed;
	int rc = ssd_dev_idle(r->dev, t);
	if (rc && !r->rc)
		job_error(r, in, rc, "idle time");
	else if (!failed && r->dev->ftl->check_failed && !r->rc)
		job_error(r, in, SSD_ESTATE, "idle time");
}

/* The measured window of `in` opens at t (its ramp is over): the drive is
 * told the host has reached t, so background work of an idle gap across
 * t counts in the ramp up to t and in the window after it, and the drive
 * counters are read.  Commands submitted from t on are the ones fio's
 * figures count (complete()), so both cover the same commands. */
static void open_window(struct run *r, struct inst *in, int64_t t)
{
	host_reaches(r, in, t);
	in->ctr0 = r->dev->ftl->ctr;
	in->ramped = 1;
}

/* The instance ends at t (its last completion, or the end of its last
 * think time): the drive is told the host has reached t, so an idle tail
 * is idle time for the drive, inside this job's window, and the next
 * group starts after it. */
static void finish_inst(struct run *r, struct inst *in, int64_t t)
{
	in->finished = 1;
	in->end = t;
	host_reaches(r, in, t);
	struct ssd_job_result *res = in->res;
	struct ssd_ftl *f = r->dev->ftl;
	/* with --check, every job ends with a full check of the maps */
	int failed = f->check_failed;
	if (f->check_every && ssd_ftl_audit(f) && !failed && !r->rc)
		job_error(r, in, SSD_ESTATE, "end of job");
	struct ssd_counters now = f->ctr, d;
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
	res->start_ns = in->ramp_end;
	if (t - r->t0 > res->end_ns)
		res->end_ns = t - r->t0;
	ssd_ftl_health(f, &res->health);
	ssd_nand_erase_stats(&f->flash.nand, &res->erase_min, &res->erase_mean,
			     &res->erase_max);
	res->free_blocks = ssd_ftl_free_blocks(f);
}

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
	return 1;
}

static const char *ddir_word(int ddir)
{
	return ddir == SSD_DDIR_READ ? "read" :
	       ddir == SSD_DDIR_WRITE ? "write" :
	       ddir == SSD_DDIR_TRIM ? "trim" : "flush";
}

/* An error rc while `in` did `what`: the job ends, with the error and a
 * message in its result.  A drive turned read-only (SSD_EROFS) ends only
 * that job: it is the drive's state, reads still work and the jobs after
 * it run.  Any other error is a failure of the simulation and ends the
 * run: every job of the group stops submitting (commands in flight still
 * complete and count), the groups after it do not run, and ssd_sim_run
 * returns rc with the same message in err. */
static void job_error(struct run *r, struct inst *in, int rc,
		      const char *what)
{
	struct ssd_job_result *res = in->res;
	char msg[sizeof res->errmsg];
	const char *why = r->dev->ftl->err_msg;
	if (rc == SSD_EILSEQ)
		snprintf(msg, sizeof msg, "%s", what); /* fio's verify line */
	else if (rc == SSD_ESTATE && why[0])
		snprintf(msg, sizeof msg, "%s: %s", what, why);
	else if (rc == SSD_ESTATE && r->dev->ftl->check_failed)
		snprintf(msg, sizeof msg, "%s: invariant check failed: %s",
			 what, r->dev->ftl->check_msg);
	else
		snprintf(msg, sizeof msg, "%s: %s", what, ssd_strerror(rc));
	if (!res->error) {
		res->error = rc;
		snprintf(res->errmsg, sizeof res->errmsg, "%s", msg);
	}
	in->done = 1;
	if (rc == SSD_EROFS || rc == SSD_EILSEQ || r->rc)
		return;
	r->rc = rc;
	snprintf(r->err, r->errlen, "job '%s': %s", in->job->name, msg);
	for (int i = 0; i < r->ninst; i++)
		if (r->in[i].group == in->group)
			r->in[i].done = 1;
}

/* ---- verification (see the top of the file) ---- */

/* The host is about to write or trim io: the host's record takes it, and
 * its pages count as not read back since. */
static void record_io(struct run *r, const struct ssd_io *io)
{
	uint32_t lpn, n;
	ssd_verify_pages(io->offset, io->len, &lpn, &n);
	if ((uint64_t)lpn + n > r->dev->ftl->nlp)
		return; /* the drive refuses it */
	if (r->vrec) {
		if (io->ddir == SSD_DDIR_WRITE)
			ssd_vrec_write(r->vrec, lpn, n);
		else
			ssd_vrec_trim(r->vrec, lpn, n);
	}
	if (r->vseen)
		memset(&r->vseen[lpn], 0, (size_t)n * sizeof *r->vseen);
}

/* The write or trim io failed: what its pages hold is undefined. */
static void record_lost(struct run *r, const struct ssd_io *io)
{
	uint32_t lpn, n;
	ssd_verify_pages(io->offset, io->len, &lpn, &n);
	if (r->vrec && (uint64_t)lpn + n <= r->dev->ftl->nlp)
		ssd_vrec_lost(r->vrec, lpn, n);
}

/* The next write of a replayed stream that the stream itself has issued
 * (*pos of them passed so far, `limit` issued): 1 with *io set. */
static int replay_write(struct ssd_wl *wl, uint64_t *pos, uint64_t limit,
			struct ssd_io *io)
{
	while (*pos < limit) {
		if (!ssd_wl_next(wl, io))
			return 0;
		if (io->ddir == SSD_DDIR_WRITE) {
			(*pos)++;
			return 1;
		}
	}
	return 0;
}

/* 1 if instance `in` read back every page of io since its latest
 * write; else marks them read back by it now.  Blocks that are not whole
 * 4 KiB pages are always read (several share a page). */
static int seen_before(struct run *r, const struct inst *in,
		       const struct ssd_io *io)
{
	uint32_t lpn, n;
	ssd_verify_pages(io->offset, io->len, &lpn, &n);
	if (!r->vseen || (io->offset | io->len) % SSD_LPAGE ||
	    (uint64_t)lpn + n > r->dev->ftl->nlp)
		return 0;
	uint16_t me = (uint16_t)in->index;
	int all = 1;
	for (uint32_t l = lpn; l < lpn + n && all; l++)
		all = r->vseen[l] == me;
	if (all)
		return 1;
	for (uint32_t l = lpn; l < lpn + n; l++)
		r->vseen[l] = me;
	return 0;
}

/* The verify cursor's next read: the next block the job wrote, skipping
 * blocks read back since their latest write unless experimental_verify
 * asks to replay every write. */
static int verify_next(struct run *r, struct inst *in, struct ssd_io *io)
{
	while (replay_write(in->vwl, &in->vpos, in->writes, io)) {
		io->ddir = SSD_DDIR_READ;
		if (!in->job->experimental_verify && seen_before(r, in, io))
			continue;
		return 1;
	}
	return 0;
}

/* verify_backlog: after every N blocks written and not yet verified, a
 * batch of verify_backlog_batch reads of the oldest (fio: its history
 * list reaching a multiple of N). */
static int backlog_verify(struct run *r, struct inst *in, struct ssd_io *io)
{
	const struct ssd_job *j = in->job;
	if (!j->verify_backlog || !in->vwl)
		return 0;
	uint64_t u = in->writes - in->vpos;
	if (!in->vbatch && u && !(u % j->verify_backlog) &&
	    in->last != LAST_VERIFY)
		in->vbatch = j->verify_backlog_batch ? j->verify_backlog_batch
						     : j->verify_backlog;
	if (!in->vbatch)
		return 0;
	in->vbatch--;
	if (verify_next(r, in, io))
		return 1;
	in->vbatch = 0; /* caught up with the writes */
	return 0;
}

/* trim_backlog with trim_percentage: after every N blocks written, trim
 * trim_backlog_batch of the oldest written blocks chosen (each with
 * probability trim_percentage) and not trimmed yet; the verify phase
 * then finds them zero. */
static int backlog_trim(struct inst *in, struct ssd_io *io)
{
	const struct ssd_job *j = in->job;
	if (!in->twl)
		return 0;
	if (!in->tbatch && in->writes && !(in->writes % j->trim_backlog) &&
	    in->last != LAST_TRIM)
		in->tbatch = j->trim_backlog_batch ? j->trim_backlog_batch
						   : j->trim_backlog;
	while (in->tbatch) {
		in->tbatch--;
		while (replay_write(in->twl, &in->tpos, in->writes, io)) {
			if (ssd_rng_below(&in->trng, 100) >= j->trim_percentage)
				continue;
			io->ddir = SSD_DDIR_TRIM;
			return 1;
		}
		in->tbatch = 0;
	}
	return 0;
}

/* The instance's next command: 1 with *io set (*check: a read to check),
 * 0 to wait for the commands in flight, -1 when it has no more. */
static int next_cmd(struct run *r, struct inst *in, struct ssd_io *io,
		    int *check)
{
	*check = 0;
	if (in->phase == PH_IO) {
		if (backlog_trim(in, io)) {
			in->last = LAST_TRIM;
			return 1;
		}
		if (backlog_verify(r, in, io)) {
			in->last = LAST_VERIFY;
			*check = in->vcheck;
			return 1;
		}
		if (next_io(r, in, io)) {
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
		if (in->inflight)
			return 0;
		in->phase = PH_VERIFY;
		in->vsync = 1;
		*io = (struct ssd_io){.ddir = SSD_DDIR_SYNC};
		return 1;
	}
	if (in->vsync)
		return 0;
	if (verify_next(r, in, io)) {
		*check = in->vcheck;
		return 1;
	}
	return -1;
}

/* Check what the read io, just submitted at t in command cm, returns;
 * a failure marks the command (the job ends when it completes). */
static void check_read(struct run *r, struct inst *in, const struct ssd_io *io,
		       int64_t t, struct cmd *cm)
{
	struct ssd_vcount vc = {0, 0};
	char msg[sizeof in->vmsg];
	if (ssd_verify_read(r->dev, io->offset, io->len,
			    in->job->trim_verify_zero, r->dev->cfg.name, &vc,
			    msg, sizeof msg)) {
		cm->ddir |= CMD_BAD;
		if (!in->vmsg[0])
			snprintf(in->vmsg, sizeof in->vmsg, "%s", msg);
	}
	if (t >= in->ramp_end) {
		in->res->verify_pages += vc.pages;
		in->res->verify_zero_pages += vc.zero_pages;
	}
}

/* How instance `in` verifies (job options; see the top of the file). */
static void verify_init(struct inst *in, uint32_t clone)
{
	const struct ssd_job *j = in->job;
	int w = j->rw == SSD_RW_WRITE || j->rw == SSD_RW_RANDWRITE ||
		j->rw == SSD_RW_READWRITE || j->rw == SSD_RW_RANDRW;
	int rd = j->rw == SSD_RW_READ || j->rw == SSD_RW_RANDREAD;
	in->vcheck = j->verify == SSD_VERIFY_DATA;
	in->vreads = rd && in->vcheck;
	in->vafter = w && j->verify != SSD_VERIFY_NONE && j->do_verify;
	in->phase = PH_IO;
	if (!in->vafter)
		return;
	in->vwl = ssd_wl_create(j, clone, in->seed);
	if (j->trim_backlog && j->trim_percentage) {
		in->twl = ssd_wl_create(j, clone, in->seed);
		ssd_rng_seed(&in->trng, ssd_mix64(in->seed ^ 0x7472696dULL));
	}
	if (j->verify_only) {
		/* the writes are phantoms: every one can be read back */
		in->phase = PH_VWAIT;
		in->writes = UINT64_MAX;
	}
}

/* Submit the instance's next command at t, or mark it done.  A command
 * the drive refuses ends the job (job_error); the return is an error
 * only when the runner itself cannot go on. */
static int submit(struct run *r, struct inst *in, int64_t t)
{
	struct ssd_io io;
	if (in->done)
		return 0;
	if (t >= in->deadline) {
		in->done = 1;
		return 0;
	}
	const struct ssd_job *j = in->job;
	int64_t c;
	int check = 0;
	if (j->fsync_every && in->since_sync >= j->fsync_every &&
	    has_next_io(r, in)) {
		/* fio's fsync=N: a flush after every N writes, issued
		 * before the next I/O (none after the job's last) */
		in->since_sync = 0;
		io = (struct ssd_io){.ddir = SSD_DDIR_SYNC};
		c = ssd_dev_flush(r->dev, t);
	} else {
		int k = next_cmd(r, in, &io, &check);
		if (k <= 0) {
			in->done = k < 0;
			return 0;
		}
		int ddir = io.ddir;
		if (ddir == SSD_DDIR_WRITE) {
			in->since_sync++;
			if (j->sync_writes)
				ddir |= SSD_DEV_FUA;
		}
		int rec = r->vtrack && ddir != SSD_DDIR_READ &&
			  ddir != SSD_DDIR_SYNC;
		if (rec)
			record_io(r, &io);
		if (ddir == SSD_DDIR_SYNC)
			c = ssd_dev_flush(r->dev, t);
		else
			c = ssd_dev_submit(r->dev, ddir, io.offset, io.len, t);
		if (rec && c < 0)
			record_lost(r, &io);
	}
	if (c >= 0 && r->dev->ftl->check_failed)
		c = SSD_ESTATE;
	if (c < 0) {
		char what[128];
		if (io.ddir == SSD_DDIR_SYNC)
			snprintf(what, sizeof what, "flush command");
		else
			snprintf(what, sizeof what,
				 "%s command at offset %llu, %u bytes",
				 ddir_word(io.ddir),
				 (unsigned long long)io.offset, io.len);
		job_error(r, in, (int)c, what);
		return 0;
	}
	uint32_t id = r->cmd_free;
	struct cmd *cm = &r->cmd[id];
	r->cmd_free = cm->next_free;
	cm->offset = io.offset;
	cm->submitted = t;
	cm->len = io.len;
	cm->ddir = (uint32_t)io.ddir;
	cm->inst = (uint32_t)(in - r->in);
	if (check)
		check_read(r, in, &io, t, cm);
	struct ssd_event ev = {.time = c, .id = id, .kind = EV_COMPLETE};
	in->inflight++;
	in->queued++;
	if (t >= in->ramp_end)
		in->res->depth[ssd_depth_index(in->queued)]++;
	return ssd_engine_push(&r->eng, &ev);
}

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
static void progress_report(struct run *r, int64_t t)
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

static int complete(struct run *r, const struct ssd_event *ev)
{
	struct cmd cm = r->cmd[ev->id];
	r->cmd[ev->id].next_free = r->cmd_free;
	r->cmd_free = ev->id;
	struct inst *in = &r->in[cm.inst];
	in->inflight--;
	int bad = (cm.ddir & CMD_BAD) != 0;
	cm.ddir &= ~CMD_BAD;
	in->queued--;
	int64_t t = ev->time, lat = t - cm.submitted;
	if (r->series)
		ssd_series_add(r->series, t, (int)cm.ddir, cm.len, lat);
	if (cm.submitted >= in->ramp_end && cm.ddir < SSD_DDIR_N) {
		struct ssd_job_result *res = in->res;
		ssd_dstat_add(&res->dir[cm.ddir], t - in->ramp_end, cm.len, lat);
		if (lat > SSD_S)
			res->lat_over_1s++;
		for (int i = 0; i < in->nlogs; i++)
			ssd_log_add(in->log[i], t - in->ramp_end, (int)cm.ddir,
				    cm.len, cm.offset, lat);
	} else if (cm.ddir == SSD_DDIR_SYNC && cm.submitted >= in->ramp_end) {
		/* fio's "sync" figures: flush latency */
		ssd_dstat_add(&in->res->sync, t - in->ramp_end, 0, lat);
	}
	if (r->progress && cm.ddir < SSD_DDIR_N) {
		r->pios[cm.ddir]++;
		r->pbytes[cm.ddir] += cm.len;
		in->bytes_done += cm.len;
		if (++r->since_progress >= r->progress_every)
			progress_report(r, t);
	}
	const struct ssd_job *j = in->job;
	if (bad && !in->res->error)
		job_error(r, in, SSD_EILSEQ, in->vmsg);
	if (cm.ddir == SSD_DDIR_SYNC && in->vsync) {
		/* the flush before the verify phase is done: read back
		 * iodepth at a time (no think time, as in fio) */
		in->vsync = 0;
		while (!in->done && in->inflight < j->iodepth) {
			int rc = submit(r, in, t);
			if (rc)
				return rc;
		}
	} else if (in->phase == PH_VERIFY) {
		int rc = submit(r, in, t);
		if (rc)
			return rc;
	} else if (j->thinktime && ++in->since_think >= j->thinktime_blocks) {
		in->since_think = 0;
		if (t >= in->deadline)
			in->done = 1; /* no think time past the runtime */
		if (!in->done) {
			/* runtime interrupts the think time, as in fio */
			int64_t at = t + j->thinktime;
			struct ssd_event s = {.time = at < in->deadline ? at : in->deadline,
					      .id = cm.inst, .kind = EV_SUBMIT};
			in->inflight++; /* the slot is reserved while thinking */
			return ssd_engine_push(&r->eng, &s);
		}
	} else {
		int rc = submit(r, in, t);
		if (rc)
			return rc;
	}
	if (in->done && !in->inflight)
		finish_inst(r, in, t);
	return 0;
}

/* Run one stonewall group from the drive's current time until every job
 * of it has ended (the last completion or think time of each). */
static int run_group(struct run *r, int group)
{
	int64_t t0 = ssd_dev_time(r->dev);
	r->group = group;
	r->group_t0 = t0;
	for (int i = 0; i < r->ninst; i++) {
		struct inst *in = &r->in[i];
		if (in->group != group)
			continue;
		const struct ssd_job *j = in->job;
		in->ramp_end = t0 + j->ramp_time;
		in->deadline = j->runtime ? in->ramp_end + j->runtime : NEVER;
		if (!j->ramp_time) {
			open_window(r, in, t0);
			continue;
		}
		/* queued before any command, so it runs before every other
		 * event at the same nanosecond */
		struct ssd_event ev = {.time = in->ramp_end, .id = (uint32_t)i,
				       .kind = EV_RAMP};
		int rc = ssd_engine_push(&r->eng, &ev);
		if (rc)
			return rc;
	}
	for (int i = 0; i < r->ninst; i++) {
		struct inst *in = &r->in[i];
		if (in->group != group)
			continue;
		for (uint32_t q = 0; q < in->job->iodepth && !in->done; q++) {
			int rc = submit(r, in, t0);
			if (rc)
				return rc;
		}
		if (in->done && !in->inflight)
			finish_inst(r, in, t0);
	}
	struct ssd_event ev;
	while (ssd_engine_pop(&r->eng, &ev)) {
		int rc = 0;
		if (ev.kind == EV_COMPLETE) {
			rc = complete(r, &ev);
		} else if (ev.kind == EV_SUBMIT) {
			struct inst *in = &r->in[ev.id];
			in->inflight--;
			rc = submit(r, in, ev.time);
			if (!rc && in->done && !in->inflight)
				finish_inst(r, in, ev.time);
		} else if (!r->in[ev.id].finished) {
			open_window(r, &r->in[ev.id], ev.time);
		}
		if (rc)
			return rc;
	}
	return 0;
}

/* The run's verification state: the drive's host record when a job
 * checks data (created once per drive, then kept up to date by every
 * run), and the read-back bitmap when a job has a verify phase. */
static int verify_setup(struct run *r, const struct ssd_job *jobs, int njobs)
{
	int check = 0, phase = 0;
	for (int j = 0; j < njobs; j++) {
		check |= jobs[j].verify == SSD_VERIFY_DATA;
		phase |= jobs[j].verify != SSD_VERIFY_NONE && jobs[j].do_verify;
	}
	if (check && ssd_verify_attach(r->dev))
		return SSD_ENOMEM;
	r->vrec = r->dev->vrec;
	if (phase) {
		r->vseen = calloc((size_t)r->dev->ftl->nlp + 1, sizeof *r->vseen);
		if (!r->vseen)
			return SSD_ENOMEM;
	}
	r->vtrack = r->vrec || r->vseen;
	return 0;
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

int ssd_sim_run_progress(struct ssd_dev *dev, const struct ssd_job *jobs,
			 int njobs, uint64_t seed, struct ssd_series *series,
			 ssd_sim_progress_fn progress, void *ctx,
			 uint32_t every, struct ssd_run_result *res,
			 char *err, size_t errlen)
{
	memset(res, 0, sizeof *res);
	struct run r = {.dev = dev, .series = series, .err = err,
			.errlen = errlen, .progress = progress,
			.progress_ctx = ctx,
			.progress_every = every ? every : 1024,
			.t0 = ssd_dev_time(dev)};
	int ninst = 0, nres = 0;
	for (int j = 0; j < njobs; j++) {
		ninst += (int)jobs[j].numjobs;
		nres += jobs[j].group_reporting ? 1 : (int)jobs[j].numjobs;
	}
	r.in = calloc((size_t)ninst, sizeof *r.in);
	res->jobs = calloc((size_t)nres, sizeof *res->jobs);
	uint64_t depth = 0; /* command slots: numjobs x iodepth, 64-bit */
	for (int j = 0; j < njobs; j++)
		depth += (uint64_t)jobs[j].numjobs * jobs[j].iodepth;
	r.cmd = depth + ninst < UINT32_MAX ? calloc((size_t)depth + 1, sizeof *r.cmd) : NULL;
	/* events: a completion or a think time per command slot, and the
	 * end of each instance's ramp */
	if (!r.in || !res->jobs || !r.cmd ||
	    ssd_engine_init(&r.eng, (uint32_t)depth + (uint32_t)ninst + 1)) {
		free(r.in);
		free(r.cmd);
		free(res->jobs);
		snprintf(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	r.ninst = ninst;
	int rc = 0;
	for (uint32_t i = 0; i <= depth; i++)
		r.cmd[i].next_free = i + 1;
	r.cmd_free = 0;
	res->cfg = &dev->cfg;
	res->seed = seed;
	rc = verify_setup(&r, jobs, njobs);
	if (rc) {
		free(r.in);
		free(r.cmd);
		free(res->jobs);
		ssd_engine_free(&r.eng);
		snprintf(err, errlen, "out of memory");
		return rc;
	}
	int group = 0, k = 0, ri = 0;
	uint64_t ios0 = dev->host_ios;
	int64_t t_start = ssd_dev_time(dev);
	for (int j = 0; j < njobs; j++) {
		const struct ssd_job *job = &jobs[j];
		if (j > 0 && job->stonewall)
			group++;
		struct ssd_job_result *shared = NULL;
		for (uint32_t c = 0; c < job->numjobs; c++, k++) {
			struct inst *in = &r.in[k];
			in->job = job;
			in->group = group;
			in->index = k + 1;
			if (!shared || !job->group_reporting) {
				shared = &res->jobs[ri];
				snprintf(shared->name, sizeof shared->name, "%s",
					 job->name);
				shared->groupid = group;
				shared->jobid = (uint32_t)ri;
				shared->job = job;
				ri++;
			}
			in->res = shared;
			shared->clones++;
			uint64_t s = job->has_randseed
				? job->randseed
				: ssd_mix64(seed ^ ssd_mix64(((uint64_t)j << 20) + c));
			in->wl = ssd_wl_create(job, c, s);
			in->seed = s;
			verify_init(in, c);
			if (!in->wl || (in->vafter && !in->vwl) ||
			    (job->trim_backlog && job->trim_percentage &&
			     in->vafter && !in->twl)) {
				snprintf(err, errlen, "out of memory");
				rc = SSD_ENOMEM;
				goto out;
			}
			rc = open_logs(in, err, errlen);
			if (rc)
				goto out;
		}
	}
	int last = group; /* the last group that ran */
	for (int g = 0; g <= group; g++) {
		rc = run_group(&r, g);
		if (rc && !r.rc) {
			/* the runner itself could not go on (out of memory):
			 * the group's jobs end where they are */
			snprintf(err, errlen, "out of memory");
			r.rc = rc;
			for (int i = 0; i < ninst; i++)
				if (r.in[i].group == g && !r.in[i].finished)
					finish_inst(&r, &r.in[i], ssd_dev_time(dev));
		}
		rc = r.rc;
		if (rc) {
			last = g;
			break;
		}
	}
	/* jobs of the groups after a failure did not run: not reported */
	while (ri > 0 && res->jobs[ri - 1].groupid > last)
		ri--;
	res->njobs = ri;
	for (int i = 0; i < ri; i++) {
		for (int d = 0; d < SSD_DDIR_N; d++)
			ssd_dstat_finish(&res->jobs[i].dir[d],
					 res->jobs[i].runtime_ns);
		ssd_dstat_finish(&res->jobs[i].sync, res->jobs[i].runtime_ns);
	}
	if (progress && !rc && !r.rc) {
		r.group = group + 1; /* all done */
		progress_report(&r, ssd_dev_time(dev));
	}
	res->sim_ns = ssd_dev_time(dev) - t_start;
	res->host_ios = dev->host_ios - ios0;
	if (!rc && dev->ftl->check_failed) {
		snprintf(err, errlen, "invariant check failed: %s",
			 dev->ftl->check_msg);
		rc = SSD_ESTATE;
	}
out:
	for (int i = 0; i < ninst; i++) {
		struct inst *in = &r.in[i];
		for (int l = 0; l < in->nlogs; l++) {
			int64_t len = in->end > in->ramp_end ? in->end - in->ramp_end : 0;
			if (!ssd_log_close(in->log[l], len))
				continue;
			char path[600];
			log_path(in, l, path, sizeof path);
			if (!in->res->error) {
				in->res->error = SSD_EIO;
				snprintf(in->res->errmsg, sizeof in->res->errmsg,
					 "cannot write its log '%.200s'", path);
			}
			if (!rc) {
				snprintf(err, errlen, "job '%s': cannot write its log '%s'",
					 in->job->name, path);
				rc = SSD_EIO;
			}
		}
		ssd_wl_destroy(in->wl);
		ssd_wl_destroy(in->vwl);
		ssd_wl_destroy(in->twl);
	}
	free(r.vseen);
	free(r.in);
	free(r.cmd);
	ssd_engine_free(&r.eng);
	if (!res->njobs)
		ssd_run_result_free(res); /* nothing ran */
	return rc;
}
