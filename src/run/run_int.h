/*
 * run_int.h -- the job runner's state, shared by the .c files of src/run
 * and by nothing else (callers see sim.h).
 *
 * A run is a struct run: the drive, the event queue (engine.h), the
 * commands in flight (struct cmd, a free list and per-instance queues)
 * and one struct inst per job instance (numjobs of each job section).
 * Each instance runs fio's do_io loop as a state machine; what it waits
 * for is its W_* state, where it goes on its R_* label.  The files:
 *
 *   sim.c        the entry points (sim.h): the tables set up, one group
 *                after the other, the results and logs closed
 *   loop.c       the per-command path: fio's do_io loop (run_step) with
 *                its queueing and pacing (iodepth, batches, rate, think
 *                time, flow), its short path for plain jobs (next_plain),
 *                submission, completion and reaping, and the event loop
 *                -- kept in one file so the compiler can inline the
 *                per-command functions into each other
 *   latency.c    latency_target's search of the queue depth
 *   verify.c     verify=: the host's record, the verify phase, backlogs
 *   lifecycle.c  an instance's life: start (startdelay, wait_for), ramp,
 *                end (runtime, exitall), a stonewall group run, steady
 *                state's end
 *   errors.c     errors that end a job or the run, continue_on_error
 *   results.c    the per-job results: one per reported job, filled when
 *                an instance ends
 *   logs.c       the job's log files and write_iolog
 *   progress.c   progress reports while a run goes on
 *   zbd.c        zonemode=zbd's zone logic, pure (zbd.h: fio's zbd.c)
 *   zoned.c      ... between a zbd job's stream and the drive: emulated
 *                zones on a conventional drive, a zoned drive's own
 *
 * Functions shared between the files are named run_*; the few that the
 * per-command path needs from other files are static inline below.  Cost:
 * the options that live outside loop.c (latency target, verification)
 * each sit behind a test of the job, so a job without them pays no call
 * into another file per command.
 */
#ifndef SSD_RUN_INT_H
#define SSD_RUN_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/counters.h"
#include "base/ofile.h"
#include "base/util.h"
#include "job/job.h"
#include "job/workload.h"
#include "machine/device.h"
#include "machine/verify.h"
#include "result/result.h"
#include "run/engine.h"
#include "run/sim.h"
#include "run/zbd.h"
#include "stats/series.h"

/* The events of the queue (kind; an EV_WAKE carries the instance's timer
 * generation above the low byte): a command completes, an instance wakes
 * (rate turn, think time), an instance's ramp ends, an instance starts, a
 * steady-state sample is due, a drive that queues decides. */
enum { EV_COMPLETE, EV_WAKE, EV_RAMP, EV_START, EV_SS, EV_DEVICE };
#define EV_KIND(k) ((k) & 0xff)
#define EV_GEN(k) ((k) >> 8)

/* What an instance waits for. */
enum { W_NEW,      /* not started (startdelay, wait_for) */
       W_RUN,      /* in run_step() */
       W_FULL,     /* a full queue: completions to reap */
       W_QUIESCE,  /* everything in flight to complete */
       W_TIMER,    /* its EV_WAKE (rate turn, think time, flow_sleep) */
       W_FLOW,     /* another job of its flow to issue */
       W_DONE };
/* Where run_step() resumes. */
enum { R_TOP, R_TURN, R_SLEEP, R_ISSUE, R_AFTER_REAP, R_THINK, R_AFTER_THINK,
       R_FLOW_SLEEP, R_END, R_END_SYNC, R_FINISH, R_LAT_CYCLE, R_LAT_RESET };

/* Phases of a job instance (verification: verify.c). */
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
	                               or latency target (account, loop.c) */
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
	/* verification (verify.c) */
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
	/* latency target (fio's latency_qd search: latency.c) */
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
	/* zonemode=zbd (zbd.c, zoned.c): its view of the zones, or NULL */
	struct ssd_zbd_job *zj;
	int zbd_eof;                /* no zone can take its next I/O */
	uint64_t zbd_pass;          /* bytes drawn since its pass began */
	int64_t zbd_ready;          /* its next I/O waits until then for
	                               the resets and finishes sent */
	struct ssd_io zbd_held;     /* ... the I/O drawn, adjusted again
	                               then (zbd_has_held) */
	int zbd_has_held;
	struct zbd_write *zlog;     /* with a verify phase: where its writes
	                               went, in order (fio's io_hist): the
	                               zones moved them, so a replay of the
	                               stream would read elsewhere */
	uint64_t zlog_n, zlog_cap;
	/* data placement (placement.c): its writes' identifiers, or NULL */
	struct run_dp *dp;
};

/* An instance's data placement: the identifiers it chooses among and
 * where its choice stands (fio's fio_ruhs_info). */
struct run_dp {
	uint32_t n;                 /* identifiers in pid */
	uint32_t next;              /* roundrobin: the next one's index */
	struct ssd_rng rng;         /* random */
	uint32_t pid[SSD_DP_MAX_IDS];
};

/* One write of a zbd job, as the zones placed it. */
struct zbd_write {
	uint64_t offset;
	uint32_t len;
};

/* fio's token flow: jobs of one flow_id issue in the ratio of weights. */
struct flow {
	uint32_t id;
	uint64_t counter;           /* starts at 1, as fio's */
	uint64_t weight;            /* of the running jobs */
	int waiting;                /* first instance in W_FLOW, or -1 */
};

/* Steady state of one result (a job, or the jobs and clones reported
 * together): the instances whose ss points here feed it. */
struct ssrun {
	struct ssd_job_result *res;
	const struct ssd_job *job;  /* whose steadystate settings it takes */
	int ticking;
	int64_t epoch, next;        /* samples from epoch every interval */
	uint64_t ios, bytes, prev_ios, prev_bytes;
	double lat_sum, prev_lat_sum;
	uint64_t lat_n, prev_lat_n;
};
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
	/* zonemode=zbd: the drive's zones, shared by its zbd jobs, and each
	 * zbd instance's view (NULL: no zbd job) */
	struct ssd_zbd *zbd;
	struct ssd_zbd_job *zjobs;
	struct run_dp *dps;         /* [instance] data placement, or NULL
	                               (placement.c) */
	int zoned;                  /* the drive is zoned (its zones, its
	                               write pointers) */
	uint32_t zmax_active;       /* its active limit, 0: none */
};

static inline int is_rw(int ddir)
{
	return ddir < SSD_DDIR_N;
}

static inline const char *ddir_word(int ddir)
{
	return ddir == SSD_DDIR_READ ? "read" :
	       ddir == SSD_DDIR_WRITE ? "write" :
	       ddir == SSD_DDIR_TRIM ? "trim" : "flush";
}

/* Command slot id goes back to the free list. */
static inline void cmd_free(struct run *r, struct inst *in, uint32_t id)
{
	r->cmd[id].next_free = r->cmd_free;
	r->cmd_free = id;
	in->used--;
}

/* The instance waits for its EV_WAKE at `at`, then goes on at `resume`
 * (a newer timer supersedes it: the generation in the event's kind). */
static inline int run_timer(struct run *r, struct inst *in, int64_t at,
			    int resume)
{
	in->wait = W_TIMER;
	in->resume = resume;
	in->gen++;
	struct ssd_event ev = {.time = at, .id = (uint32_t)(in - r->in),
			       .kind = EV_WAKE | (in->gen << 8)};
	return ssd_engine_push(&r->eng, &ev);
}

/* verify.c's per-command part, inline: every write and trim of a run
 * whose drive has the host's record (or a verify phase) goes through it. */
/* The host is about to write or trim io: the host's record takes it, and
 * its pages count as not read back since.  A trim changes only the pages
 * wholly inside it (ssd_verify_pages). */
static inline void run_record_io(struct run *r, const struct ssd_io *io)
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
static inline void run_record_lost(struct run *r, const struct ssd_io *io)
{
	uint32_t lpn, n;
	ssd_verify_pages(io->ddir, io->offset, io->len, &lpn, &n);
	if (r->vrec && io->offset + io->len <= ssd_dev_capacity(r->dev))
		ssd_vrec_lost(r->vrec, lpn, n);
}

/* ---- loop.c: the per-command path, pacing ---- */

/* fio's do_io loop for one instance from `at`, until it has to wait. */
int run_step(struct run *r, struct inst *in, int64_t t, int at);
/* fio's io_u_quiesce: the queue goes out and the instance waits until
 * every command has completed, then goes on at `next`. */
int run_quiesce(struct run *r, struct inst *in, int64_t t, int next);
/* Every event of the queue, in order, until none is left. */
int run_events(struct run *r);

/* The rate schedule and rate_min's counters start over at t (the job's
 * start, the end of its ramp, a latency_target search's final window). */
void run_pacing_reset(struct inst *in, int64_t t);
/* The flow of id, made when first asked for (flows: one per flow_id). */
struct flow *run_flow_of(struct run *r, uint32_t id);
/* The shares of flow f changed: the jobs waiting on it look again. */
void run_flow_wake(struct run *r, struct flow *f);

/* ---- latency.c: latency_target ---- */

/* A window of the search begins at t (fio's lat_new_cycle). */
void run_lat_new_cycle(struct inst *in, int64_t t);
/* The search starts over at depth 1 (the job's start, its ramp's end);
 * without a target the depth limit is iodepth. */
void run_lat_init(struct inst *in, int64_t t);
/* A read or write completed at t over the target, latency lat. */
void run_lat_over(struct run *r, struct inst *in, const struct cmd *cm,
		  int64_t lat, int64_t t);
/* At the bottom of the loop, once the window has passed: the depth
 * moves; 0 to go on, else *wait set (the instance waits first). */
int run_lat_check(struct run *r, struct inst *in, int64_t t, int *wait);
/* Converged: the figures, runtime and rate schedule start over at t. */
void run_lat_restart(struct run *r, struct inst *in, int64_t t);

/* ---- verify.c: verify= ---- */

/* The verify cursor's next read: 1 with *io set, 0 when none is left. */
int run_verify_next(struct run *r, struct inst *in, struct ssd_io *io);
/* verify_backlog's and trim_backlog's next command, if a batch is due. */
int run_backlog_verify(struct run *r, struct inst *in, struct ssd_io *io);
int run_backlog_trim(struct inst *in, struct ssd_io *io);
/* Check what the read io, going to the drive at t, returns. */
void run_check_read(struct run *r, struct inst *in, const struct ssd_io *io,
		    int64_t t, struct cmd *cm);
/* How the instance verifies: its flags, phase and cursors. */
void run_verify_init(struct inst *in, uint32_t clone);
/* The run's record and read-back marks: 0, SSD_EUNSUP or SSD_ENOMEM. */
int run_verify_setup(struct run *r, const struct ssd_job *jobs, int njobs);

/* ---- lifecycle.c: start, ramp, end, groups, steady state ---- */

/* The instance's measured window opens at t (the drive counters read). */
void run_open_window(struct run *r, struct inst *in, int64_t t);
/* The instance ends at t: its result filled, what follows its end. */
void run_finish_inst(struct run *r, struct inst *in, int64_t t);
/* End the instance as soon as it can (exitall, steady state, errors). */
void run_terminate(struct run *r, struct inst *in);
/* EV_START and EV_RAMP of the event loop. */
int run_start_event(struct run *r, const struct ssd_event *ev);
void run_ramp_event(struct run *r, const struct ssd_event *ev);
/* EV_SS: one steady-state sample of a result at t. */
int run_ss_tick(struct run *r, struct ssrun *ss, int64_t t);
/* Run stonewall group `group` until every job of it has ended: 0, or
 * SSD_ENOMEM when the runner itself cannot go on. */
int run_group(struct run *r, int group);

/* ---- errors.c ---- */

/* The job ends with error rc while it did `what` (the run too, unless
 * rc is a drive's refusal -- SSD_EROFS, SSD_EUNSUP, SSD_ZNS_* -- or
 * SSD_EILSEQ); run_job_stop with the message made. */
void run_job_error(struct run *r, struct inst *in, int rc, const char *what);
void run_job_stop(struct run *r, struct inst *in, int rc, const char *msg);
/* The instance's result takes error rc and message msg unless it has one
 * (the message naming the job in an entry of several jobs). */
void run_res_error(struct inst *in, int rc, const char *msg);
/* Only the job ends, with error rc and message msg (rate_min...). */
void run_job_fail(struct run *r, struct inst *in, int rc, const char *msg);
/* 1 when continue_on_error covers error rc of a command of direction
 * ddir (it is counted), else 0. */
int run_go_on(struct inst *in, int ddir, int rc, const char *what);
/* Command id, sent at t, refused with c: the job ends, or the command
 * is answered after the controller's time (returned). */
__attribute__((cold)) int64_t run_refused(struct run *r, struct inst *in,
					   uint32_t id, int64_t t, int64_t c);
/* With the checker on: event ev is due before the last one handled. */
__attribute__((cold)) void run_clock_back(struct run *r,
					  const struct ssd_event *ev);

/* ---- results.c ---- */

/* Result res, number jobid, reports job `job` (and the jobs after it
 * that join it), in reporting group groupid: 0, or SSD_ENOMEM. */
int run_result_new(struct run *r, struct ssd_job_result *res,
		   const struct ssd_job *job, uint32_t jobid, int groupid);
/* Result res gets its steady-state sampler (r->ss), with the settings of
 * job, its first instance with ss_dur: 0, or SSD_ENOMEM. */
int run_result_ss(struct run *r, struct ssd_job_result *res,
		  const struct ssd_job *job);
/* The instance has ended at t: its result takes its window's figures. */
void run_result_end(struct run *r, struct inst *in, int64_t t);

/* ---- logs.c ---- */

/* The job's log files created (0, or an SSD_E* code with err). */
int run_open_logs(struct inst *in, char *err, size_t errlen);
/* ... and closed at the run's end: the run's error, rc until then. */
int run_close_logs(struct inst *in, int rc, char *err, size_t errlen);
/* write_iolog: opened at the job's start, a line per issue at t, closed
 * (renamed into place) at its end; 0, or SSD_EIO with err. */
int run_open_iolog(struct inst *in, uint32_t clone, char *err, size_t errlen);
void run_log_iolog(struct inst *in, const struct ssd_io *io, int64_t t);
int run_close_iolog(struct inst *in, char *err, size_t errlen);

/* ---- zoned.c: zonemode=zbd ---- */

/* The run's zones, when a job is zbd: emulated on a conventional drive,
 * the drive's on a zoned one; instances' views.  0, or SSD_ENOMEM or
 * SSD_EINVAL (a zone size that is not the zoned drive's) with the
 * message in r->err. */
int run_zbd_setup(struct run *r, const struct ssd_job *jobs, int njobs);
void run_zbd_free(struct run *r);

/* ---- data placement (placement.c) ---- */

/* Each instance with dataplacement set gets its identifiers from the
 * drive's list: 0, or the job's error (its message in r->err). */
int run_dp_setup(struct run *r);
void run_dp_free(struct run *r);
/* The identifier of instance in's next write, at offset (bytes). */
uint32_t run_dp_next(struct inst *in, uint64_t offset);
/* The instance starts at t: its view of the zones (zbd_file_reset). */
int run_zbd_start(struct run *r, struct inst *in, int64_t t);
/* The stream's next I/O of a zbd instance, as drawn (one at a time: a
 * sequential stream goes on from where its last I/O was moved): 1 with
 * *io set, 0 at its end, -1 while it waits (in->zbd_ready) for what its
 * start sent. */
int run_zbd_next(struct run *r, struct inst *in, struct ssd_io *io,
		 int64_t t);
/* The drawn stream I/O in->cur, about to be issued at t, adjusted to the
 * zones, as fio's zbd_adjust_block, and its write pointer moved: 1 to
 * issue it, 0 when there is none after all (its pass or its I/O ended:
 * draw again), -1 when it waits until in->zbd_ready for the zone
 * commands sent for it (then adjusted again: other jobs may have
 * written the zone meanwhile, which fio's zone lock orders).  Adjusting
 * at the issue, not the draw, keeps each zone's writes in write pointer
 * order whatever waits (rate, think time) come between. */
int run_zbd_issue(struct run *r, struct inst *in, int64_t t);
/* A trim cm of a zbd instance at t: a zone reset.  The completion time,
 * or a negative SSD_E*. */
int64_t run_zbd_submit(struct run *r, struct inst *in, const struct cmd *cm,
		       int64_t t);
/* The file a job names in fio's messages (its filename, else its name). */
const char *run_zbd_file(const struct ssd_job *j);

/* ---- progress.c ---- */

/* Tell the progress callback where the run is at t. */
void run_progress_report(struct run *r, int64_t t);

#endif
