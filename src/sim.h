/*
 * sim.h -- runs fio jobs against a simulated drive.
 *
 * Each job section becomes numjobs instances; each instance keeps iodepth
 * commands in flight, submitting the next one when a completion arrives
 * (after thinktime, every thinktime_blocks commands).  Jobs run side by
 * side in groups; a job with stonewall starts a new group, which begins
 * when every job of the previous group has finished.  ramp_time runs the
 * workload unmeasured; runtime then bounds the measured part (fio's
 * semantics: total time = ramp_time + runtime).
 *
 * The drive persists across calls, so a caller can precondition it with
 * one run and measure it with the next; each job's drive counters cover
 * exactly that job's window.
 */
#ifndef SSD_SIM_H
#define SSD_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "device.h"
#include "job.h"
#include "report.h"

/* Run njobs jobs on dev starting at its current time.  seed derives the
 * per-job random streams of jobs without randseed.  On success fills *r
 * (r->jobs malloc'd: free with ssd_run_result_free) and returns 0.  On
 * failure returns a negative SSD_E* code with a one-line message in err
 * (a job whose drive turns read-only is not a failure: its result carries
 * error = SSD_EROFS). */
int ssd_sim_run(struct ssd_dev *dev, const struct ssd_job *jobs, int njobs,
		uint64_t seed, struct ssd_run_result *r, char *err,
		size_t errlen);

/* The same, with every completion also added to `series` (NULL: none). */
struct ssd_series;
int ssd_sim_run_series(struct ssd_dev *dev, const struct ssd_job *jobs,
		       int njobs, uint64_t seed, struct ssd_series *series,
		       struct ssd_run_result *r, char *err, size_t errlen);

void ssd_run_result_free(struct ssd_run_result *r);

#endif
