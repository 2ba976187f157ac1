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
 * Pacing and the order of jobs.  Each instance runs fio's do_io loop as
 * a state machine (step() below): check the runtime, the flow, draw the
 * next I/O, wait for its turn under a rate, queue it (the batch goes to
 * the drive at iodepth_batch), reap completions when the queue is full
 * (at least iodepth_batch_complete_min, at most ..._max, until the depth
 * is down to iodepth_low), think, check rate_min; at the end wait for
 * everything in flight and flush (end_fsync).  Where fio's thread would
 * block, the instance records what it waits for (W_*) and what comes
 * next (R_*), and the event that ends the wait resumes it.  Completions
 * are counted when they are reaped, as fio measures them.  Every step is
 * O(1) per I/O: the rate is a token computation (the time the issued
 * bytes are due), not a scan.
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
 *
 * Latency target (fio's latency profiling).  The instance's slots in use
 * are held to lt_qd (iodepth without a target): a full queue is used >=
 * lt_qd.  The search runs as fio's: lt_qd starts at 1 (again at the end
 * of the ramp); at the bottom of the loop, once latency_window has passed
 * since the cycle began, the share of the cycle's completions within the
 * target decides: met, the depth doubles (or bisects towards the lowest
 * depth that failed); missed, it bisects down towards the highest that
 * met it, after waiting for what is in flight.  With
 * latency_percentile=100 each completion over the target is a miss at
 * once (at depth 1: the job ends, ETIMEDOUT).  A met window that leaves
 * the depth unchanged converges: the instance waits for its commands, its
 * measured window opens again at that moment (figures, runtime and rate
 * schedule start over, as fio's reset_all_stats), and the next such
 * window ends the job -- unless latency_run.  Work is O(1) per completion
 * (a compare and a count) and per loop turn (a compare of times).
 */
#include "run/sim.h"
#include "machine/stack.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/progress.h"
#include "base/ofile.h"
#include "run/engine.h"
#include "job/steadystate.h"
#include "stats/series.h"
#include "machine/verify.h"
#include "job/workload.h"

enum { EV_COMPLETE, EV_WAKE, EV_RAMP, EV_START, EV_SS, EV_DEVICE };
#define EV_KIND(k) ((k) & 0xff)
#define EV_GEN(k) ((k) >> 8)

/* What an instance waits for. */
enum { W_NEW,      /* not started (startdelay, wait_for) */
       W_RUN,      /* in step() */
       W_FULL,     /* a full queue: completions to reap */
       W_QUIESCE,  /* everything in flight to complete */
       W_TIMER,    /* its EV_WAKE (rate turn, think time, flow_sleep) */
       W_FLOW,     /* another job of its flow to issue */
       W_DONE };
/* Where step() resumes. */
enum { R_TOP, R_TURN, R_SLEEP, R_ISSUE, R_AFTER_REAP, R_THINK, R_AFTER_THINK,
       R_FLOW_SLEEP, R_END, R_END_SYNC, R_FINISH, R_LAT_CYCLE, R_LAT_RESET };

/* Phases of a job instance (verification, above). */
enum { PH_IO, PH_VWAIT, PH_VERIFY };

/* What the last command of an instance was (backlog triggers). */
enum { LAST_STREAM, LAST_TRIM, LAST_VERIFY };

/* struct cmd's flags: a read to check when it goes to the drive, and one
 * that found bad data (the job ends when it is reaped). */
#define CMD_CHECK 0x1u
#define CMD_BAD 0x2u
/* errors, exits and command modes: a command the drive refused that the
 * job goes on after (continue_on_error), and what a write of the stream
 * is sent as (write_mode, sg_write_mode) */
#define CMD_ERR 0x4u
#define CMD_AS_TRIM 0x8u   /* write zeroes, write uncorrectable */
#define CMD_AS_READ 0x10u  /* verify */
#define CMD_WAV 0x20u      /* write, then read back (write and verify) */

#define NEVER INT64_MAX

/* Commands are drawn from the generator LOOKAHEAD ahead of their
 * submission, and the drive is told about them early (ssd_dev_prefetch),
 * so the cache misses of a random workload's map lookups overlap instead
 * of stalling one command after another: stage 0 at LOOKAHEAD commands
 * ahead (the map entry), stage 1 at half of it (what the entry points
 * to), stage 2 at a quarter (the GC index's neighbours; on big drives
 * only).  The stream and every result are unchanged. */
#define LOOKAHEAD 16

struct inst {
	/* what every command reads and writes, together: first touched
	 * after the drive's work for the command before (next_plain) */
	const struct ssd_job *job;
	struct ssd_wl *wl;
	struct ssd_job_result *res; /* shared by clones with group_reporting */
	int plain;                  /* none of the loop's options: the fast
	                               path (next_plain) */
	int plain_replay;           /* the same for a replayed trace
	                               (next_replay) */
	uint32_t fua;               /* SSD_DEV_FUA on its writes, or 0 */
	uint32_t dflag;             /* SSD_BLK_DIRECT on all its commands when
	                               it is direct on a machine with a page
	                               cache (ssd_dev.direct_flag), or 0 */
	uint32_t ddir_flags[SSD_DDIR_N]; /* what goes with a command of each
	                               direction: dflag, and fua on writes */
	int counted;                /* completions feed only its figures: no
	                               series, progress, steady state, logs
	                               or latency target (account) */
	int wait, resume;           /* W_*, R_* */
	int done;                   /* no more submissions */
	uint32_t inflight;
	uint32_t used;              /* I/O units in use (fio's cur_depth) */
	uint32_t queued;            /* queued, not yet at the drive */
	uint32_t ready;             /* completed, not yet reaped */
	uint32_t min_evts;          /* W_FULL: completions to wait for */
	uint32_t lt_qd;             /* depth limit: iodepth without a target */
	uint32_t iodepth_low;       /* the job's */
	uint32_t complete_min;      /* iodepth_batch_complete_min, >= 1 */
	int64_t ramp_end, deadline;
	struct ssd_io cur;          /* the I/O drawn, waiting for its turn */
	int cur_check;              /* in->cur is a read to check */
	int last;                   /* LAST_* */
	uint64_t writes;            /* writes the stream has issued */
	uint64_t issued_rw, reaped_rw;
	int last_sync;              /* the last command issued was a flush */
	int wrote;
	uint32_t since_sync;        /* writes since the last flush (fsync) */
	uint32_t ahead_head, ahead_n;
	int wl_ended;               /* the generator has no more */
	uint64_t rate_bytes[SSD_DDIR_N];
	uint64_t done_bytes[SSD_DDIR_N], done_ios[SSD_DDIR_N];
	struct ssd_io ahead[LOOKAHEAD]; /* ring of drawn commands */
	int group;
	uint32_t since_think;       /* completions since the last think */
	int finished;               /* done and nothing in flight */
	int ramped;                 /* the measured window has opened */
	int64_t end;
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
	struct ssd_wl *vwl, *twl;   /* verify and trim cursors */
	uint64_t vpos, tpos;        /* writes each cursor has passed */
	uint64_t vbatch, tbatch;    /* backlog reads / trims left in a batch */
	struct ssd_rng trng;        /* trim_percentage draws */
	char vmsg[256];             /* the first verify failure */
	uint64_t bytes_done;        /* progress reports: bytes completed */
	/* pacing and the order of jobs */
	int jobidx;                 /* index of its job in the file */
	uint32_t gen;               /* EV_WAKE generation: older ones are stale */
	int started;
	int64_t start;              /* the job's start, ns */
	int64_t last_issue;         /* read_iolog: the latest issue, ns */
	struct ssd_ofile *iolog_of; /* write_iolog: the log being written
	                               (base/ofile.h) ... */
	FILE *iolog;                /* ... and its stream */
	uint32_t clone;             /* which of the job's numjobs, from 0 */
	char iolog_file[80];        /* ... the file its lines name */
	uint64_t iolog_base;        /* ... whose offset 0 is this, bytes */
	int64_t epoch;              /* rate and rate_min count from here */
	uint32_t q_head, q_tail;    /* queued commands, a list through cmd */
	uint32_t r_head, r_tail;    /* completed commands */
	int mixed;                  /* a read/write mix (rate may switch) */
	int has_min;                /* rate_min or rate_iops_min is set */
	int64_t sleep;              /* R_SLEEP: ns to wait for the turn */
	uint64_t rate_bps[SSD_DDIR_N];
	int64_t rate_next[SSD_DDIR_N], last_ns[SSD_DDIR_N]; /* from epoch */
	uint32_t min_bs;
	struct ssd_rng rng;         /* poisson gaps, startdelay ranges */
	uint64_t think_mark;
	int64_t last_think;
	uint64_t rm_bytes[SSD_DDIR_N], rm_ios[SSD_DDIR_N];
	int64_t rm_time[SSD_DDIR_N];
	struct flow *flow;
	uint64_t flow_counter;
	int flow_next;              /* next instance waiting on the flow */
	struct ssrun *ss;           /* steady state of its result, or NULL */
	/* latency target (fio's latency_qd search, see the top) */
	uint32_t lt_low, lt_high;   /* the bounds of the search */
	uint32_t lt_stable;         /* met windows in a row at high - 1 */
	int lt_end_run;             /* converged: the final window runs */
	int lt_quiesce;             /* a miss: wait for what is in flight */
	int lt_resume;              /* R_* after that wait */
	int64_t lt_ts;              /* the cycle's start */
	uint64_t lt_ios, lt_failed; /* completions at its start, misses */
	/* errors, exits and command modes */
	uint64_t wm_n[SSD_WMODE_N]; /* writes sent in each write mode */
	uint64_t wm_total;
};

/* fio's token flow: jobs of one flow_id issue in the ratio of weights. */
struct flow {
	uint32_t id;
	uint64_t counter;           /* starts at 1, as fio's */
	uint64_t weight;            /* of the running jobs */
	int waiting;                /* first instance in W_FLOW, or -1 */
};

/* Steady state of one result (a job, or its clones reported together). */
struct ssrun {
	struct ssd_job_result *res;
	int first, n;               /* its instances */
	int ticking;
	int64_t epoch, next;        /* samples from epoch every interval */
	uint64_t ios, bytes, prev_ios, prev_bytes;
	double lat_sum, prev_lat_sum;
	uint64_t lat_n, prev_lat_n;
};

void ssd_run_result_free(struct ssd_run_result *r)
{
	for (int i = 0; i < r->njobs; i++)
		ssd_ss_free(&r->jobs[i].ss);
	free(r->jobs);
	r->jobs = NULL;
	r->njobs = 0;
	free(r->nodes);
	r->nodes = NULL;
	r->nnodes = 0;
}

int ssd_run_snapshot_nodes(const struct ssd_dev *dev, struct ssd_run_result *res)
{
	int n = 0, depth;
	while (ssd_dev_node(dev, n, NULL))
		n++;
	if (!n)
		return 0;
	res->nodes = calloc((size_t)n, sizeof *res->nodes);
	if (!res->nodes)
		return SSD_ENOMEM;
	res->nnodes = n;
	for (int i = 0; i < n; i++) {
		const struct ssd_blk *b = ssd_dev_node(dev, i, &depth);
		struct ssd_node_result *x = &res->nodes[i];
		snprintf(x->name, sizeof x->name, "%s", b->name);
		x->kind = b->ops->kind;
		x->depth = depth;
		x->capacity = b->capacity;
		x->io = b->io;
		while (b->ops->stat && x->nrows < SSD_NODE_ROWS &&
		       b->ops->stat(b, x->nrows, &x->rows[x->nrows]))
			x->nrows++;
	}
	return 0;
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
		struct ssd_log *l;
		int rc = ssd_log_create(path, kind[i], &o, &l, err, errlen);
		if (rc)
			return rc;
		in->log[in->nlogs++] = l;
	}
	return 0;
}

/* write_iolog: the job's I/O as fio logs it (iolog.c's log_io_u), a
 * version 3 iolog: issue time in microseconds since the job started, the
 * file, the action, the offset in the file and the length.  The file is
 * named as fio names a job's file (NAME.CLONE.0); offsets are in the
 * job's file (its region), or the drive's when it names none, as fio's
 * are in the file or device (offset= included). */
static int open_iolog(struct inst *in, uint32_t clone, char *err, size_t errlen)
{
	const struct ssd_job *j = in->job;
	if (!j->write_iolog[0])
		return 0;
	int rc = ssd_ofile_open(j->write_iolog, SSD_OFILE_REPLACE, &in->iolog_of,
				err, errlen);
	if (rc)
		return rc;
	in->iolog = ssd_ofile_stream(in->iolog_of);
	if (j->nfiles && j->regions)
		in->iolog_base = j->regions[(size_t)clone * j->nfiles].start;
	snprintf(in->iolog_file, sizeof in->iolog_file, "%.60s.%u.0", j->name, clone);
	fprintf(in->iolog, "fio version 3 iolog\n0 %s add\n0 %s open\n",
		in->iolog_file, in->iolog_file);
	return 0;
}

static void log_iolog(struct inst *in, const struct ssd_io *io, int64_t t)
{
	static const char *const act[] = {"read", "write", "trim", "sync"};
	unsigned long long us = (unsigned long long)((t - in->start) / 1000);
	if (io->ddir == SSD_DDIR_SYNC)
		fprintf(in->iolog, "%llu %s sync 0 0\n", us, in->iolog_file);
	else
		fprintf(in->iolog, "%llu %s %s %llu %u\n", us, in->iolog_file,
			act[io->ddir], (unsigned long long)(io->offset - in->iolog_base),
			io->len);
}

/* The log's last line, and the file renamed into place; 0, or SSD_EIO
 * when it could not be written whole (then it is not there), with the
 * message in err. */
static int close_iolog(struct inst *in, char *err, size_t errlen)
{
	if (!in->iolog)
		return 0;
	unsigned long long us = (unsigned long long)
		((in->end > in->start ? in->end - in->start : 0) / 1000);
	fprintf(in->iolog, "%llu %s close\n", us, in->iolog_file);
	in->iolog = NULL;
	int rc = ssd_ofile_commit(in->iolog_of, err, errlen);
	in->iolog_of = NULL;
	return rc;
}

/* A command in flight; its event's id indexes run.cmd. */
struct cmd {
	uint64_t offset;
	int64_t submitted;
	uint32_t len;
	uint32_t ddir;
	uint32_t inst;
	uint32_t flags;             /* CMD_* */
	uint32_t next_free;         /* free list, or the instance's queue */
};

struct run {
	struct ssd_dev *dev;
	int pf_deep;                /* prefetch stage 2 (ssd_dev_prefetch_deep) */
	int64_t dev_ev;             /* a drive that queues (ssd_dev.queues):
	                               its EV_DEVICE is due at, or INT64_MAX */
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
	int64_t genesis;            /* the run's start (startdelay) */
	int exitall;                /* a job of the file has exitall */
	int exit_all;               /* exit_what=all fired: later groups do
	                               not run */
	struct flow *flows;
	int nflows;
	struct ssrun *ss;
	int nss;
	int *job_left;              /* per job: instances not finished */
	int64_t now;                /* time of the event being handled */
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
static void job_fail(struct run *r, struct inst *in, int rc, const char *msg);
static void terminate(struct run *r, struct inst *in);
static int after_end(struct run *r, struct inst *in, int64_t t);

/* The host has reached t without a command for the drive (the end of a
 * ramp or of a job): the drive is told, so an idle gap up to t is idle
 * time for its background work.  A failure of the invariant checker in
 * that work is the job's error. */
static void host_reaches(struct run *r, struct inst *in, int64_t t)
{
	int failed = ssd_dev_check_failure(r->dev) != NULL;
	int rc = ssd_dev_idle(r->dev, t);
	if (rc && !r->rc)
		job_error(r, in, rc, "idle time");
	else if (!failed && ssd_dev_check_failure(r->dev) && !r->rc)
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
	in->ctr0 = *ssd_dev_counters(r->dev);
	in->ramped = 1;
}

/* The instance ends at t (its last completion, or the end of its last
 * think time): the drive is told the host has reached t, so an idle tail
 * is idle time for the drive, inside this job's window, and the next
 * group starts after it. */
static int close_iolog(struct inst *in, char *err, size_t errlen);

static void finish_inst(struct run *r, struct inst *in, int64_t t)
{
	in->finished = 1;
	in->end = t;
	char err[sizeof in->res->errmsg];
	if (close_iolog(in, err, sizeof err) && !in->res->error) {
		in->res->error = SSD_EIO;
		snprintf(in->res->errmsg, sizeof in->res->errmsg, "%s", err);
	}
	host_reaches(r, in, t);
	struct ssd_job_result *res = in->res;
	struct ssd_dev *dev = r->dev;
	/* with --check, every job ends with a full check of the maps */
	int failed = ssd_dev_check_failure(dev) != NULL;
	if (ssd_dev_audit(dev) && !failed && !r->rc)
		job_error(r, in, SSD_ESTATE, "end of job");
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
	int rc = after_end(r, in, t);
	if (rc && !r->rc) {
		r->rc = rc;
		snprintf(r->err, r->errlen, "out of memory");
	}
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
static void job_stop(struct run *r, struct inst *in, int rc, const char *msg);
static void job_error(struct run *r, struct inst *in, int rc,
		      const char *what)
{
	char msg[sizeof in->res->errmsg];
	const char *why = ssd_dev_error(r->dev);
	if (rc == SSD_EILSEQ)
		snprintf(msg, sizeof msg, "%s", what); /* fio's verify line */
	else if (rc == SSD_ESTATE && why[0])
		snprintf(msg, sizeof msg, "%s: %s", what, why);
	else if (rc == SSD_ESTATE && ssd_dev_check_failure(r->dev))
		snprintf(msg, sizeof msg, "%s: invariant check failed: %s",
			 what, ssd_dev_check_failure(r->dev));
	else
		snprintf(msg, sizeof msg, "%s: %s", what, ssd_strerror(rc));
	job_stop(r, in, rc, msg);
}

/* The end of job_error: the job ends in error rc, message msg. */
static void job_stop(struct run *r, struct inst *in, int rc, const char *msg)
{
	struct ssd_job_result *res = in->res;
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
			terminate(r, &r->in[i]);
}

/* ---- errors: continue_on_error ---- */

/* The errno fio would see for a drive's refusal rc (those a job can go
 * on after), or 0. */
static int coe_errno(int rc)
{
	return rc == SSD_EROFS ? EROFS : rc == SSD_EILSEQ ? EILSEQ
	     : rc == SSD_EIO ? EIO : 0;
}

/* fio's td_non_fatal_error: an error rc of a command in direction ddir
 * that continue_on_error covers (its kind: verify for a failed check,
 * read for a read, write for a write, trim or flush) and that is in the
 * kind's ignore_error list (by default EIO, EROFS, EILSEQ) does not end
 * the job: it is counted (total_err, the first one's errno) and the job
 * goes on.  Returns 1 then. */
static int go_on(struct inst *in, int ddir, int rc, const char *what)
{
	const struct ssd_job *j = in->job;
	int no = coe_errno(rc);
	int kind = rc == SSD_EILSEQ ? 2 : ddir == SSD_DDIR_READ ? 0 : 1;
	if (!no || !(j->continue_on_error & (1 << kind)))
		return 0;
	const uint32_t *list = j->ignore_error[kind];
	int hit = 0;
	if (!list[0])
		hit = no == EIO || no == EROFS || no == EILSEQ;
	for (int i = 0; i < SSD_JOB_MAX_IGNORE && list[i] && !hit; i++)
		hit = (int)list[i] == no;
	if (!hit)
		return 0;
	struct ssd_job_result *res = in->res;
	if (!res->total_err++) {
		res->first_error = no;
		if (!res->errmsg[0])
			snprintf(res->errmsg, sizeof res->errmsg, "%s", what);
	}
	return 1;
}

/* The job ends in error rc with message msg (rate_min not met): only
 * this job, as fio's td_verror; the run goes on. */
static void job_fail(struct run *r, struct inst *in, int rc, const char *msg)
{
	struct ssd_job_result *res = in->res;
	if (!res->error) {
		res->error = rc;
		snprintf(res->errmsg, sizeof res->errmsg, "%s", msg);
	}
	in->done = 1;
}

/* ---- verification (see the top of the file) ---- */

/* The host is about to write or trim io: the host's record takes it, and
 * its pages count as not read back since.  A trim changes only the pages
 * wholly inside it (ssd_verify_pages). */
static void record_io(struct run *r, const struct ssd_io *io)
{
	uint32_t lpn, n;
	ssd_verify_pages(io->ddir, io->offset, io->len, &lpn, &n);
	if (io->offset + io->len > ssd_dev_capacity(r->dev))
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
	ssd_verify_pages(io->ddir, io->offset, io->len, &lpn, &n);
	if (r->vrec && io->offset + io->len <= ssd_dev_capacity(r->dev))
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
	ssd_verify_pages(SSD_DDIR_READ, io->offset, io->len, &lpn, &n);
	if (!r->vseen || (io->offset | io->len) % SSD_LPAGE ||
	    (uint64_t)lpn + n > (ssd_dev_capacity(r->dev) / SSD_LPAGE))
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
		if (in->used)
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

/* Check what the read io, going to the drive at t in command cm,
 * returns; a failure marks the command (the job ends when it is
 * reaped). */
static void check_read(struct run *r, struct inst *in, const struct ssd_io *io,
		       int64_t t, struct cmd *cm)
{
	struct ssd_vcount vc = {0, 0};
	char msg[sizeof in->vmsg];
	if (ssd_verify_read(r->dev, io->offset, io->len,
			    in->job->trim_verify_zero, r->dev->cfg.name, &vc,
			    msg, sizeof msg)) {
		cm->flags |= CMD_BAD;
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

static void cmd_free(struct run *r, struct inst *in, uint32_t id)
{
	r->cmd[id].next_free = r->cmd_free;
	r->cmd_free = id;
	in->used--;
}

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
	if (rec)
		record_io(r, &dio);
	int64_t c = ssd_dev_submit(r->dev, ddir | dflags, cm->offset, cm->len,
				   t);
	if (rec && c < 0)
		record_lost(r, &dio);
	if (c < 0 || cm->ddir != SSD_DDIR_TRIM || j->num_range <= 1 ||
	    in->phase != PH_IO)
		return c;
	for (uint32_t k = 1; k < j->num_range; k++) {
		struct ssd_io x;
		if (!next_io(r, in, &x))
			break;
		if (rec)
			record_io(r, &x);
		int64_t c2 = ssd_dev_submit(r->dev, SSD_DDIR_TRIM | (int)in->dflag,
					    x.offset, x.len, t);
		if (c2 < 0) {
			if (rec)
				record_lost(r, &x);
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

/* Command id, sent to the drive at t, was refused (c, a negative SSD_E*):
 * the job ends (job_error), unless continue_on_error covers it; then it
 * is counted and answered after the controller's time, returned.  Cold:
 * kept out of the per-command path it branches from. */
__attribute__((cold, noinline)) static int64_t refused(struct run *r, struct inst *in, uint32_t id, int64_t t,
		       int64_t c)
{
	struct cmd *cm = &r->cmd[id];
	char what[128];
	if (cm->ddir == SSD_DDIR_SYNC)
		snprintf(what, sizeof what, "flush command");
	else
		snprintf(what, sizeof what,
			 "%s command at offset %llu, %u bytes",
			 ddir_word((int)cm->ddir),
			 (unsigned long long)cm->offset, cm->len);
	if (go_on(in, (int)cm->ddir, (int)c, what)) {
		/* refused: answered after the controller's time */
		int64_t o = r->dev->cfg.cmd_overhead;
		cm->flags = (cm->flags | CMD_ERR) & ~(CMD_CHECK | CMD_WAV);
		return t + (o > SSD_US ? o : SSD_US);
	}
	const struct ssd_config *cfg = &r->dev->cfg;
	int no_trim = c == SSD_EUNSUP && cm->ddir == SSD_DDIR_TRIM &&
		      cfg->type != SSD_TYPE_HDD && !cfg->trim;
	cmd_free(r, in, id);
	if (no_trim) {
		/* the drive has no TRIM: say which, and the key */
		char msg[sizeof in->res->errmsg];
		snprintf(msg, sizeof msg, "%s: %s: drive '%s' has no TRIM "
			 "(trim = no)", what, ssd_strerror((int)c), cfg->name);
		job_stop(r, in, (int)c, msg);
	} else {
		job_error(r, in, (int)c, what);
	}
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
		c = refused(r, in, id, t, c);
		if (c < 0)
			return 0;
	}
	cm->submitted = t;
	if (cm->flags & CMD_CHECK)
		check_read(r, in, io, t, cm);
	in->inflight++;
	/* fio's iodepth_level: the commands at the drive */
	if (t >= in->ramp_end)
		in->res->depth[ssd_depth_index(in->inflight)]++;
	return ssd_engine_schedule(&r->eng, c, id, EV_COMPLETE);
}

/* Command id goes to the drive at t.  A command the drive refuses ends
 * the job (job_error), unless continue_on_error covers it: it is then
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

/* ---- latency target (see the top of the file) ---- */

/* fio's lat_new_cycle: a window of the search begins at t. */
static void lat_new_cycle(struct inst *in, int64_t t)
{
	in->lt_ts = t;
	in->lt_ios = in->reaped_rw;
	in->lt_failed = 0;
}

/* fio's lat_target_init, at the job's start and the end of its ramp: the
 * search starts over at depth 1 (the misses counted so far stay, as in
 * fio). */
static void lat_init(struct inst *in, int64_t t)
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
	lat_new_cycle(in, t);
	return 0;
}

/* A read or write of latency lat completed at t, over the target: with
 * latency_percentile=100 a miss at once (at depth 1 the job ends with
 * ETIMEDOUT, fio's lat_fatal), else one more miss of the window. */
static void lat_over(struct run *r, struct inst *in, const struct cmd *cm,
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
	job_fail(r, in, SSD_ETIMEDOUT, msg);
}

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
	if (r->series)
		ssd_series_add(r->series, t, (int)cm.ddir, cm.len, lat);
	if ((cm.flags & CMD_BAD) && !in->res->error &&
	    !go_on(in, (int)cm.ddir, SSD_EILSEQ, in->vmsg))
		job_error(r, in, SSD_EILSEQ, in->vmsg);
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
		lat_over(r, in, &cm, lat, t);
	if (r->progress) {
		r->pios[cm.ddir]++;
		r->pbytes[cm.ddir] += cm.len;
		in->bytes_done += cm.len;
		if (++r->since_progress >= r->progress_every)
			progress_report(r, t);
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

static int step(struct run *r, struct inst *in, int64_t t, int at);
static int next_plain(struct run *r, struct inst *in, int64_t t);
static int next_replay(struct run *r, struct inst *in, int64_t t);

static int timer(struct run *r, struct inst *in, int64_t at, int resume)
{
	in->wait = W_TIMER;
	in->resume = resume;
	in->gen++;
	struct ssd_event ev = {.time = at, .id = (uint32_t)(in - r->in),
			       .kind = EV_WAKE | (in->gen << 8)};
	return ssd_engine_push(&r->eng, &ev);
}

/* fio's io_u_quiesce: the queue goes out and the job waits until every
 * command has completed (and reaps each as it does), then goes on at
 * `next`. */
static int quiesce(struct run *r, struct inst *in, int64_t t, int next)
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
	return step(r, in, t, next);
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
		if (!go_on(in, SSD_DDIR_READ, (int)c, what))
			job_error(r, in, (int)c, what);
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
		return step(r, in, t, in->resume);
	}
	list_push(r, &in->r_head, &in->r_tail, ev->id);
	in->ready++;
	if (in->wait == W_QUIESCE) {
		reap(r, in, t, UINT32_MAX);
		if (!in->inflight)
			return step(r, in, t, in->resume);
	} else if (in->wait == W_FULL) {
		if (!full_wait(r, in, t))
			return step(r, in, t, in->resume);
	} else if (in->job->io_submit_offload ||
		   (in->wait == W_TIMER && in->job->read_iolog[0])) {
		/* offload: completions are reaped as they come; so are a
		 * replay's while it waits for the trace's time (fio's
		 * iolog_delay reaps as it waits) */
		reap(r, in, t, UINT32_MAX);
	}
	return 0;
}

/* ---- pacing ---- */

static int is_rw(int ddir)
{
	return ddir < SSD_DDIR_N;
}

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
static void pacing_reset(struct inst *in, int64_t t)
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
				job_fail(r, in, SSD_EIO, msg);
				return 1;
			}
		}
		in->rm_bytes[d] = in->done_bytes[d];
		in->rm_ios[d] = in->done_ios[d];
		in->rm_time[d] = t;
	}
	return 0;
}

/* The result's figures start over at t (a converged latency_target
 * search, fio's reset_all_stats): the measured window opens again, the
 * runtime and the rate schedule count from t.  Clones reporting together
 * share their figures, so theirs keep the search (only the runtime and
 * the schedule start over). */
static void lat_restart(struct run *r, struct inst *in, int64_t t)
{
	const struct ssd_job *j = in->job;
	struct ssd_job_result *res = in->res;
	if (res->clones <= 1) {
		for (int d = 0; d < SSD_DDIR_N; d++) {
			int64_t w = res->dir[d].win_ns;
			memset(&res->dir[d], 0, sizeof res->dir[d]);
			res->dir[d].win_ns = w;
		}
		int64_t w = res->sync.win_ns;
		memset(&res->sync, 0, sizeof res->sync);
		res->sync.win_ns = w;
		memset(res->depth, 0, sizeof res->depth);
		res->lat_over_1s = 0;
		in->ramp_end = t;
		open_window(r, in, t);
	}
	in->deadline = j->runtime ? t + j->runtime : NEVER;
	pacing_reset(in, t);
}

/* fio's lat_target_check at the bottom of the loop, at t: once the
 * window has passed, its share of completions within the target decides
 * (lat_target_success / __lat_target_failed).  0 to go on, else what to
 * wait for (the quiesce before the final window), with *wait set. */
static int lat_check(struct run *r, struct inst *in, int64_t t, int *wait)
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
		return quiesce(r, in, t, R_LAT_CYCLE);
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
			return quiesce(r, in, t, R_LAT_RESET);
		}
	}
	lat_new_cycle(in, t);
	return 0;
}

/* The shares of a flow changed: the jobs waiting on it look again. */
static void flow_wake(struct run *r, struct flow *f)
{
	while (f->waiting >= 0) {
		struct inst *o = &r->in[f->waiting];
		f->waiting = o->flow_next;
		timer(r, o, r->now, R_TOP);
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
	flow_wake(r, f);
	return 0;
}

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

/* The next I/O of the job into in->cur: a flush when fsync=N is due
 * (before the next I/O, so none after the job's last, as fio), else the
 * next command of its phase (next_cmd).  1 with in->cur set, 0 when the
 * job has no more, -1 when it must wait for its commands in flight (the
 * verify phase starts after them). */
static int draw(struct run *r, struct inst *in)
{
	const struct ssd_job *j = in->job;
	in->cur_check = 0;
	if (j->fsync_every && in->since_sync >= j->fsync_every &&
	    in->phase == PH_IO && has_next_io(r, in)) {
		in->since_sync = 0;
		in->cur = (struct ssd_io){.ddir = SSD_DDIR_SYNC};
		return 1;
	}
	int k = next_cmd(r, in, &in->cur, &in->cur_check);
	if (k < 0 && ssd_wl_error(in->wl)) /* a replayed trace broke off */
		job_fail(r, in, SSD_EPARSE, ssd_wl_error(in->wl));
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
		log_iolog(in, io, t);
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
	if (!in->queued && (j->io_submit_offload || j->iodepth_batch <= 1))
		return send(r, in, id, t); /* no batch: straight out */
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
		return timer(r, in, t + total, R_AFTER_THINK);
	return step(r, in, t, R_AFTER_THINK);
}

/* ---- the loop ---- */

/* step() from R_AFTER_REAP for a plain job (in->plain: no think time,
 * rate, rate_min, latency target, flow, fsync=N, verification, write
 * modes, submission batches, offload or iolog recording): what is left of
 * fio's loop is the end test, the draw and the issue, until the queue is
 * full.  The rest of the loop is step()'s, and so is a replayed trace's
 * sync or request that waits for its time (replay: next_replay; a drawn
 * workload has none, and next_plain does not look). */
static inline __attribute__((always_inline)) int
plain_loop(struct run *r, struct inst *in, int64_t t, int replay)
{
	in->wait = W_RUN;
	for (;;) {
		if (in->done || t >= in->deadline)
			return step(r, in, t, R_END);
		in->cur_check = 0;
		if (!next_io(r, in, &in->cur)) {
			if (replay && ssd_wl_error(in->wl)) /* as draw() */
				job_fail(r, in, SSD_EPARSE, ssd_wl_error(in->wl));
			return step(r, in, t, R_END);
		}
		in->last = LAST_STREAM;
		in->writes += in->cur.ddir == SSD_DDIR_WRITE;
		if (replay && (in->cur.wait || !is_rw(in->cur.ddir)))
			return step(r, in, t, R_TURN);
		if (in->used >= in->lt_qd)
			return step(r, in, t, R_ISSUE);
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
static int step(struct run *r, struct inst *in, int64_t t, int at)
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
					return quiesce(r, in, t, R_FLOW_SLEEP);
				in->wait = W_FLOW;
				in->flow_next = in->flow->waiting;
				in->flow->waiting = (int)(in - r->in);
				return 0;
			}
			rc = draw(r, in);
			if (rc < 0)
				return quiesce(r, in, t, R_TOP);
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
				return quiesce(r, in, t, R_SLEEP);
			at = R_SLEEP;
			break;
		}
		case R_SLEEP:
			return timer(r, in, t + in->sleep, R_ISSUE);
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
				return quiesce(r, in, t, R_LAT_CYCLE);
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
				return quiesce(r, in, t, R_LAT_CYCLE);
			}
			at = R_AFTER_THINK;
			if (!in->done && in->phase == PH_IO &&
			    is_rw(in->cur.ddir) && think_due(in, t))
				return quiesce(r, in, t, R_THINK);
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
			 * completion of the measured window */
			if (j->latency_target && !in->done &&
			    t >= in->ramp_end &&
			    in->done_ios[0] + in->done_ios[1] + in->done_ios[2]) {
				int wait;
				rc = lat_check(r, in, t, &wait);
				if (rc || wait)
					return rc;
			}
			break;
		case R_LAT_CYCLE:
			/* a miss: what was in flight has completed (misses
			 * among it lowered the depth further, as in fio) */
			in->lt_quiesce = 0;
			lat_new_cycle(in, t);
			at = in->lt_resume;
			break;
		case R_LAT_RESET:
			/* converged: the final window, from a fresh start */
			lat_restart(r, in, t);
			lat_new_cycle(in, t);
			at = R_TOP;
			break;
		case R_FLOW_SLEEP:
			return timer(r, in, t + j->flow_sleep, R_TOP);
		case R_END:
			in->done = 1;
			return quiesce(r, in, t, R_END_SYNC);
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
				return quiesce(r, in, t, R_FINISH);
			}
			at = R_FINISH;
			break;
		case R_FINISH:
			in->wait = W_DONE;
			finish_inst(r, in, t);
			return 0;
		}
	}
}

/* ---- the order of jobs ---- */

/* End the instance as soon as it can (exitall, steady state, the run's
 * end): no more submissions; a wait for a turn or a flow ends now. */
static void terminate(struct run *r, struct inst *in)
{
	if (in->done || in->finished)
		return;
	in->done = 1;
	if (in->wait == W_NEW && !in->finished) {
		/* never started: ends now, with nothing done */
		in->ramp_end = in->end = r->now;
		timer(r, in, r->now, R_FINISH);
	} else if (in->wait == W_FLOW) {
		flow_wake(r, in->flow); /* all look again; this one ends */
	} else if (in->wait == W_TIMER) {
		timer(r, in, r->now, R_TOP);
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
			terminate(r, o);
	}
}

static struct flow *flow_of(struct run *r, uint32_t id)
{
	for (int i = 0; i < r->nflows; i++)
		if (r->flows[i].id == id)
			return &r->flows[i];
	struct flow *f = &r->flows[r->nflows++];
	*f = (struct flow){.id = id, .counter = 1, .waiting = -1};
	return f;
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
		if (open_iolog(in, in->clone, err, sizeof err) && !in->res->error) {
			/* the job runs, unrecorded, and ends in this error */
			in->res->error = SSD_EIO;
			snprintf(in->res->errmsg, sizeof in->res->errmsg, "%s", err);
		}
	}
	in->started = 1;
	in->wait = W_RUN;
	in->start = t;
	in->last_think = t;
	in->ramp_end = t + j->ramp_time;
	in->deadline = j->runtime ? in->ramp_end + j->runtime : NEVER;
	pacing_reset(in, t);
	lat_init(in, t);
	if (j->flow) {
		in->flow = flow_of(r, j->flow_id);
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
		open_window(r, in, t);
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
		flow_wake(r, f);
	}
	if (r->exitall || (j->exitall_on_error && in->res->error))
		terminate_group(r, in);
	if (--r->job_left[in->jobidx] == 0)
		return wake_waiters(r, in, t);
	return 0;
}

/* ---- steady state ---- */

/* One steady-state sample of a result at t (fio's steadystate_check). */
static int ss_tick(struct run *r, struct ssrun *ss, int64_t t)
{
	const struct ssd_job *j = ss->res->job;
	struct ssd_ss *st = &ss->res->ss;
	int running = 0;
	for (int i = ss->first; i < ss->first + ss->n; i++)
		running |= !r->in[i].finished;
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
			for (int i = ss->first; i < ss->first + ss->n; i++)
				terminate(r, &r->in[i]);
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

static int wake(struct run *r, const struct ssd_event *ev)
{
	struct inst *in = &r->in[ev->id];
	if (EV_GEN(ev->kind) != (in->gen & 0xffffff) || in->wait != W_TIMER)
		return 0; /* superseded */
	in->wait = W_RUN;
	if (!in->started && !in->finished) {
		/* ended before it started (terminate) */
		in->wait = W_DONE;
		in->ramp_end = ev->time;
		finish_inst(r, in, ev->time);
		return 0;
	}
	return step(r, in, ev->time, in->resume);
}

/* With the checker on: event ev is due before the event handled last,
 * so the runner's clock would go back (a completion the drive handed out
 * before the time its command went, or a timer set in the past).  The
 * drive's checker records it and the event's job (or the group's first)
 * ends with it, which ends the run. */
__attribute__((cold, noinline)) static void clock_back(struct run *r,
						       const struct ssd_event *ev)
{
	static const char *const kind[] = {"completion", "wake", "ramp end",
					   "start", "steady-state tick",
					   "drive decision"};
	uint32_t k = EV_KIND(ev->kind), inst = UINT32_MAX;
	char msg[320], what[160] = "";
	if (k == EV_COMPLETE) {
		const struct cmd *cm = &r->cmd[ev->id];
		inst = cm->inst;
		snprintf(what, sizeof what, " of the %s command at offset %llu, "
			 "%u bytes, submitted at %lld ns", ddir_word((int)cm->ddir),
			 (unsigned long long)cm->offset, cm->len,
			 (long long)cm->submitted);
	} else if (k == EV_WAKE || k == EV_RAMP || k == EV_START) {
		inst = ev->id;
	}
	snprintf(msg, sizeof msg, "the job runner's clock goes back from %lld "
		 "to %lld ns: a %s event%s (%llu events scheduled so far)",
		 (long long)r->now, (long long)ev->time,
		 k < sizeof kind / sizeof kind[0] ? kind[k] : "unknown", what,
		 (unsigned long long)r->eng.seq);
	ssd_dev_check_report(r->dev, msg);
	struct inst *in = NULL;
	if (inst < (uint32_t)r->ninst)
		in = &r->in[inst];
	for (int i = 0; !in && i < r->ninst; i++)
		if (r->in[i].group == r->group)
			in = &r->in[i];
	if (in)
		job_error(r, in, SSD_ESTATE, ssd_dev_check_failure(r->dev)
			  ? "job runner" : msg);
}

/* Run one stonewall group from the drive's current time until every job
 * of it has ended. */
static int run_group(struct run *r, int group)
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
		rc = step(r, in, t0, R_TOP);
		if (rc)
			return rc;
	}
	struct ssd_event ev;
	while (ssd_engine_pop(&r->eng, &ev)) {
		if (__builtin_expect(ev.time < r->now, 0) &&
		    ssd_dev_checking(r->dev))
			clock_back(r, &ev);
		r->now = ev.time;
		rc = 0;
		switch (EV_KIND(ev.kind)) {
		case EV_COMPLETE:
			rc = completed(r, &ev);
			break;
		case EV_WAKE:
			rc = wake(r, &ev);
			break;
		case EV_START: {
			struct inst *in = &r->in[ev.id];
			if (in->started || in->finished)
				break;
			if (in->done) { /* terminated while waiting */
				in->wait = W_DONE;
				in->ramp_end = ev.time;
				finish_inst(r, in, ev.time);
				break;
			}
			rc = start_inst(r, in, ev.time);
			if (!rc)
				rc = step(r, in, ev.time, R_TOP);
			break;
		}
		case EV_RAMP: {
			struct inst *in = &r->in[ev.id];
			if (!in->finished) {
				open_window(r, in, ev.time);
				pacing_reset(in, ev.time);
				if (!in->lt_end_run)
					lat_init(in, ev.time);
			}
			break;
		}
		case EV_SS:
			rc = ss_tick(r, &r->ss[ev.id], ev.time);
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
	if (check && ssd_dev_is_machine(r->dev))
		return SSD_EUNSUP; /* the record lives in an SSD's pages */
	if (check && ssd_verify_attach(r->dev))
		return SSD_ENOMEM;
	r->vrec = r->dev->vrec;
	if (phase) {
		r->vseen = calloc((size_t)(ssd_dev_capacity(r->dev) / SSD_LPAGE) + 1, sizeof *r->vseen);
		if (!r->vseen)
			return SSD_ENOMEM;
	}
	r->vtrack = r->vrec || r->vseen;
	return 0;
}

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
	return ninst * (sizeof *r->in + sizeof *r->flows) +
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

void ssd_sim_prog_report(void *ctx, const struct ssd_sim_progress *p)
{
	struct ssd_prog *pg = ctx;
	ssd_prog_at(pg, ssd_prog_share(pg, p->done), pg->run_t0 + p->sim_ns,
		    p->job);
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
		free(r.in);
		free(r.cmd);
		free(res->jobs);
		free(r.flows);
		free(r.ss);
		free(r.job_left);
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
	int rc = verify_setup(&r, jobs, njobs);
	if (rc) {
		free(r.in);
		free(r.cmd);
		free(res->jobs);
		free(r.flows);
		free(r.ss);
		free(r.job_left);
		free(rgroup);
		free(r.vseen);
		res->jobs = NULL;
		ssd_engine_free(&r.eng);
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
	for (int j = 0; j < njobs; j++) {
		const struct ssd_job *job = &jobs[j];
		r.exitall |= job->exitall;
		r.job_left[j] = (int)job->numjobs;
		/* fio: stonewall and new_group start a reporting group */
		if (j > 0 && job->stonewall)
			group++;
		if (j > 0 && (job->stonewall || job->new_group))
			rgroupid++;
		struct ssd_job_result *shared = NULL;
		for (uint32_t c = 0; c < job->numjobs; c++, k++) {
			struct inst *in = &r.in[k];
			in->job = job;
			in->jobidx = j;
			in->group = group;
			in->index = k + 1;
			in->wait = W_NEW;
			in->q_head = in->q_tail = UINT32_MAX;
			in->r_head = in->r_tail = UINT32_MAX;
			if (!shared || !job->group_reporting) {
				shared = &res->jobs[ri];
				snprintf(shared->name, sizeof shared->name, "%s",
					 job->name);
				shared->groupid = rgroupid;
				shared->jobid = (uint32_t)ri;
				shared->job = job;
				rgroup[ri] = group;
				if (job->ss_dur) {
					struct ssrun *ss = &r.ss[r.nss++];
					ss->res = shared;
					ss->first = k;
					if (ssd_ss_init(&shared->ss, job->ss_state,
							job->ss_limit,
							(uint32_t)(job->ss_dur /
								   job->ss_interval),
							(uint32_t)(job->ss_dur / SSD_S))) {
						snprintf(err, errlen, "out of memory");
						rc = SSD_ENOMEM;
						ri++;
						goto out;
					}
				}
				ri++;
			}
			in->res = shared;
			shared->clones++;
			if (job->ss_dur) {
				in->ss = &r.ss[r.nss - 1];
				in->ss->n++;
			}
			uint64_t s = job->has_randseed
				? job->randseed
				: ssd_mix64(seed ^ ssd_mix64(((uint64_t)j << 20) + c));
			in->wl = ssd_wl_create(job, c, s);
			in->seed = s;
			in->clone = c;
			verify_init(in, c);
			if (!in->wl || (in->vafter && !in->vwl) ||
			    (job->trim_backlog && job->trim_percentage &&
			     in->vafter && !in->twl)) {
				snprintf(err, errlen, "out of memory");
				rc = SSD_ENOMEM;
				goto out;
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
			in->dflag = job->direct ? (uint32_t)dev->direct_flag : 0;
			for (int d = 0; d < SSD_DDIR_N; d++)
				in->ddir_flags[d] = in->dflag |
					(d == SSD_DDIR_WRITE ? in->fua : 0);
			int plain = !job->thinktime && !in->has_min &&
				    !job->write_iolog[0] &&
				    !job->latency_target && !job->flow &&
				    !job->fsync_every && !in->vafter &&
				    !in->vreads && !job->wmode_set &&
				    !job->io_submit_offload &&
				    job->iodepth_batch <= 1;
			for (int d = 0; d < SSD_DDIR_N; d++)
				plain &= !in->rate_bps[d];
			in->plain = plain && !job->read_iolog[0];
			in->plain_replay = plain && job->read_iolog[0];
			rc = open_logs(in, err, errlen);
			if (rc)
				goto out;
			in->counted = !series && !progress && !in->ss &&
				      !in->nlogs && !job->latency_target;
		}
	}
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
				finish_inst(&r, in, now);
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
					finish_inst(&r, &r.in[i], ssd_dev_time(dev));
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
		if (close_iolog(in, msg, sizeof msg) && !in->res->error) {
			in->res->error = SSD_EIO;
			snprintf(in->res->errmsg, sizeof in->res->errmsg, "%s", msg);
		}
		for (int l = 0; l < in->nlogs; l++) {
			if (!in->started && !in->finished) { /* it never ran: no log */
				ssd_log_discard(in->log[l]);
				continue;
			}
			int64_t len = in->end > in->ramp_end ? in->end - in->ramp_end : 0;
			if (!ssd_log_close(in->log[l], len, msg, sizeof msg))
				continue;
			if (!in->res->error) {
				in->res->error = SSD_EIO;
				snprintf(in->res->errmsg, sizeof in->res->errmsg, "%s", msg);
			}
			if (!rc) {
				snprintf(err, errlen, "job '%s': %s", in->job->name, msg);
				rc = SSD_EIO;
			}
		}
		ssd_wl_destroy(in->wl);
		ssd_wl_destroy(in->vwl);
		ssd_wl_destroy(in->twl);
	}
	free(r.vseen);
	if (rc && !res->njobs)
		for (int i = 0; i < ri; i++)
			ssd_ss_free(&res->jobs[i].ss);
	free(r.in);
	free(r.cmd);
	free(r.flows);
	free(r.ss);
	free(r.job_left);
	free(rgroup);
	ssd_engine_free(&r.eng);
	ssd_dev_set_queueing(dev, 0);
	if (!res->njobs)
		ssd_run_result_free(res); /* nothing ran */
	return rc;
}
