/*
 * report.h -- a finished run as people and programs read it: text shaped
 * like fio's, and JSON in fio's layout (jobs[].read/write/trim with
 * io_bytes, bw, iops, runtime, lat_ns/clat_ns and percentiles) plus
 * ssdlab's own objects.
 */
#ifndef SSD_REPORT_H
#define SSD_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "job.h"
#include "stats.h"
#include "steadystate.h"

struct ssd_job_result {
	char name[64];          /* job name */
	int groupid;            /* stonewall group, from 0 */
	uint32_t jobid;         /* 0-based index in report order */
	uint32_t clones;        /* instances merged (group_reporting) */
	const struct ssd_job *job;
	struct ssd_dstat dir[SSD_DDIR_N]; /* read, write, trim */
	int64_t start_ns;       /* simulated start (after ramp) */
	int64_t runtime_ns;     /* measured duration (excluding ramp) */
	struct ssd_counters ctr;/* drive counters over the job's window */
	uint32_t erase_min, erase_max; /* per-block erase counts at job end */
	double erase_mean;
	uint64_t free_blocks;   /* free blocks at job end */
	uint64_t lat_over_1s;   /* completions slower than 1 s */
	struct ssd_health health; /* the drive at the job's end */
	int error;              /* 0, or the SSD_E* code that ended the job
	                           (e.g. SSD_EROFS) */
	char errmsg[256];       /* what failed, when error is set: "write
	                           command at offset N, L bytes: no free block" */
	struct ssd_ss ss;       /* steady state (ss_dur), n = 0: none; the
	                           runner owns its arrays */
};

struct ssd_run_result {
	const struct ssd_config *cfg;
	const char *jobfile;    /* path, or a scenario name */
	uint64_t seed;
	int64_t sim_ns;         /* simulated time of the whole run */
	double wall_s;          /* wall-clock seconds (not deterministic) */
	uint64_t host_ios;      /* host I/Os simulated */
	int njobs;
	struct ssd_job_result *jobs;
};

/* fio-like text.  Deterministic apart from the wall-time line. */
void ssd_report_normal(const struct ssd_run_result *r, FILE *out);
/* fio-shaped JSON.  Wall-time fields live only in the top-level "ssdlab"
 * object ("wall_seconds", "host_ios_per_wall_second"); everything else is
 * a function of the inputs and seed.  "fio version" is "ssdlab-<ver>". */
void ssd_report_json(const struct ssd_run_result *r, FILE *out);

/* Small JSON writer helpers used by the report and scenarios: write a
 * JSON string literal (quoted, escaped). */
void ssd_json_str(FILE *out, const char *s);

#define SSDLAB_VERSION "0.1.0"

#endif
