/*
 * sim.h -- runs fio jobs against a simulated drive.
 *
 * Each job section becomes numjobs instances; each instance runs fio's
 * do_io loop in simulated time: it queues commands until iodepth are in
 * use (they reach the drive in batches of iodepth_batch), then reaps
 * completions (at least iodepth_batch_complete_min at a time, until the
 * depth is down to iodepth_low) and refills.  A completion counts when it
 * is reaped, as fio measures it.  thinktime: after thinktime_blocks
 * completions (or issues), or thinktime_iotime of I/O, the instance
 * waits for its commands in flight and then thinks; runtime cuts a think
 * time short.  Jobs run side by side in groups; a job with stonewall
 * starts a new group, which begins when every job of the previous group
 * has ended: its last completion, or the end of its last think time.
 * ramp_time runs the workload unmeasured; runtime then bounds the
 * measured part (fio's semantics: total time = ramp_time + runtime).
 *
 * Pacing.  rate / rate_iops give each direction a schedule: the next I/O
 * is due when the bytes issued so far would take at that rate (poisson:
 * after an exponential gap from the instance's own random stream).  An
 * instance ahead of its schedule waits -- first for its commands in
 * flight with io_submit_mode=inline, as fio's job thread does -- and one
 * behind it issues at once up to iodepth, so a drive slower than the rate
 * sees a full queue.  The schedule and rate_min's counters start over at
 * the end of the ramp.  rate_min / rate_iops_min end the job with SSD_EIO
 * when a ratecycle falls short (after 2 s, as fio).
 *
 * Order.  startdelay counts from the start of the run (fio's genesis),
 * never before the instance's group; wait_for holds a job until every
 * instance of the named job of its group has ended.  new_group and
 * stonewall start reporting groups (groupid).  exitall ends the reporting
 * group of any job that ends, exitall_on_error that of a job ending in
 * error: an instance told to end stops submitting, its commands in flight
 * complete, and one not started yet ends empty.  flow holds an instance
 * back while its share of its flow_id's issues passes its weight's.
 * end_fsync / fsync_on_close flush the drive when a job that wrote ends.
 * steadystate samples each result every ss_interval from the end of its
 * ramp and ends its instances when the criterion holds (steadystate.h).
 * latency_target searches the queue depth as fio: the instance's slots in
 * use are held to a limit that starts at 1, doubles or bisects at the end
 * of each latency_window by whether latency_percentile of its completions
 * met the target, and on convergence the job's figures start over for a
 * final window (then it ends, unless latency_run); the depth reached is
 * the result's latency_depth.
 *
 * Idle time.  Whenever the host waits with nothing outstanding -- think
 * time between commands, think time at a job's end, the gap before the
 * next group -- the drive has that time for background work (GC, TRIM,
 * folding): a command after the gap tells it (ssd_dev_submit), and so
 * does the end of a job or of a ramp (ssd_dev_idle).
 *
 * Windows.  Every per-job figure covers the same window: the commands
 * submitted from the end of the ramp until the job ends (all of them
 * complete before it ends).  fio's figures count those commands; the
 * drive counters are read when the ramp ends (before any command at that
 * nanosecond) and when the job ends, so host_pages_written is exactly the
 * pages of the writes fio counts (the counters are the whole drive's:
 * jobs side by side each see all of the drive's work).  Background work in an idle gap across
 * the ramp's end is split there.  A job that ends within its ramp has an
 * empty window.  Instances reported together (group_reporting: a
 * reporting group's jobs and clones, as fio's __show_run_stats joins
 * them) share a window: the widest of theirs.  The drive persists across calls, so a
 * caller can precondition it with one run and measure it with the next.
 *
 * Errors.  A command the drive refuses ends its job, with the code in the
 * job's result (error) and a message naming the command (errmsg).  A
 * drive turned read-only (SSD_EROFS) ends only that job: the other jobs,
 * and the groups after it, still run (reads work).  So do the other
 * refusals a drive gives a host (a zone's rule, SSD_ZNS_*; a command it
 * lacks, SSD_EUNSUP), as fio's io_u error ends only its job, and a verify
 * failure (SSD_EILSEQ, with fio's verify message as errmsg).  Any other error --
 * the drive or its invariant checker failing -- ends the run at that
 * moment: the group's other jobs stop submitting, commands in flight
 * complete and count, and the groups after it do not run (their jobs are
 * not in the result).  A log file that cannot be written is that job's
 * error too.
 */
#ifndef SSD_SIM_H
#define SSD_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "machine/device.h"
#include "job/job.h"
#include "result/result.h"

/* Run njobs jobs on dev starting at its current time.  seed derives the
 * per-job random streams of jobs without randseed.  Fills *r with the
 * jobs that ran (r->jobs malloc'd: free with ssd_run_result_free,
 * whatever the return) and returns 0, or a negative SSD_E* code with a
 * one-line message in err when the run failed.  A failure during the jobs
 * leaves r filled up to it (r->njobs > 0, the failing job's error set), so
 * the report of a failed run can still be written; a failure before any
 * job ran (out of memory, a log file that cannot be created) leaves
 * r->njobs = 0.  A job whose drive turns read-only is not a failure: its
 * result carries error = SSD_EROFS and the return is 0. */
int ssd_sim_run(struct ssd_dev *dev, const struct ssd_job *jobs, int njobs,
		uint64_t seed, struct ssd_run_result *r, char *err,
		size_t errlen);

/* The same, with every completion also added to `series` (NULL: none). */
/* What running the jobs on a drive of `volume` bytes allocates beyond
 * the drive, bytes (the runner's tables: instances, results, commands in
 * flight, events, the verify phase's marks), and in *uses what the jobs
 * ask of the drive (SSD_MEM_VERIFY when one checks data: ssd_dev_mem). */
uint64_t ssd_sim_mem(const struct ssd_job *jobs, int njobs, uint64_t volume,
		     unsigned *uses);

struct ssd_series;
int ssd_sim_run_series(struct ssd_dev *dev, const struct ssd_job *jobs,
		       int njobs, uint64_t seed, struct ssd_series *series,
		       struct ssd_run_result *r, char *err, size_t errlen);

/* Progress while a run goes on (a status line like fio's ETA): every
 * `every` completions (0: 1024) the callback gets where the run is, and
 * once more at its end (done = 1).  Counting costs an increment per
 * completion; the callback may read the wall clock, the simulation never
 * does, so results are the same with or without it. */
struct ssd_sim_progress {
	const char *job;            /* a running job, or NULL */
	int running;                /* job instances running */
	double done;                /* share of the run's work done, 0..1
	                               (per instance: bytes against io_size
	                               or time against ramp + runtime) */
	int64_t sim_ns;             /* simulated time since the run began */
	uint64_t ios[SSD_DDIR_N];   /* completed since the run began */
	uint64_t bytes[SSD_DDIR_N];
};
typedef void (*ssd_sim_progress_fn)(void *ctx,
				    const struct ssd_sim_progress *p);
int ssd_sim_run_progress(struct ssd_dev *dev, const struct ssd_job *jobs,
			 int njobs, uint64_t seed, struct ssd_series *series,
			 ssd_sim_progress_fn progress, void *ctx,
			 uint32_t every, struct ssd_run_result *r,
			 char *err, size_t errlen);

/* ssd_sim_run_series reporting to pg (base/progress.h): every 1024
 * completions the share of the run done (as ssd_prog_span maps it into
 * the phase), the drive's time and the running job.  Without a listener
 * (pg NULL or without a callback) exactly ssd_sim_run_series. */
struct ssd_prog;
int ssd_sim_run_prog(struct ssd_dev *dev, const struct ssd_job *jobs,
		     int njobs, uint64_t seed, struct ssd_series *series,
		     struct ssd_prog *pg, struct ssd_run_result *r, char *err,
		     size_t errlen);
/* The callback ssd_sim_run_prog gives the runner (ctx: the reporter,
 * its run_t0 the drive's time as the run began): for a caller that runs
 * with a progress callback of its own and passes the reports on. */
void ssd_sim_prog_report(void *pg, const struct ssd_sim_progress *p);

/* ssd_run_snapshot_nodes and ssd_run_result_free: result/result.h. */

#endif
