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

#include "ssdlab.h"        /* SSDLAB_VERSION, defined once there */
#include "base/config.h"
#include "base/json.h"
#include "host/job.h"
#include "stats/stats.h"
#include "host/steadystate.h"

/* fio's I/O depth buckets (io_u_mark_depth): 1, 2, 4, 8, 16, 32, >=64,
 * each holding depths up to the next. */
#define SSD_DEPTH_N 7
static inline unsigned ssd_depth_index(uint32_t depth)
{
	return depth >= 64 ? 6 : depth >= 32 ? 5 : depth >= 16 ? 4
	     : depth >= 8 ? 3 : depth >= 4 ? 2 : depth >= 2 ? 1 : 0;
}

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
	struct ssd_ss ss;       /* steady state (ss_dur), n = 0: none; the
	                           runner owns its arrays */
	uint32_t erase_min, erase_max; /* per-block erase counts at job end */
	double erase_mean;
	uint64_t free_blocks;   /* free blocks at job end */
	uint64_t lat_over_1s;   /* completions slower than 1 s */
	uint64_t verify_pages;  /* 4 KiB pages verify found holding their
	                           latest write */
	uint64_t verify_zero_pages; /* pages it found reading as zeros, as
	                               their last trim asks */
	struct ssd_health health; /* the drive at the job's end */
	int error;              /* 0, or the SSD_E* code that ended the job
	                           (e.g. SSD_EROFS) */
	char errmsg[256];       /* what failed, when error is set: "write
	                           command at offset N, L bytes: no free block" */
	/* logs and output */
	struct ssd_dstat sync;  /* flush commands (fsync=N): latency, fio's
	                           "sync" figures (bytes 0) */
	uint64_t depth[SSD_DEPTH_N]; /* submissions (flushes included) by the
	                           commands at the drive, this one included:
	                           fio's iodepth_level buckets 1, 2-3, 4-7,
	                           8-15, 16-31, 32-63, >= 64 */
	int64_t end_ns;         /* when the job ended, ns of simulated time
	                           from the run's start (fio's "elapsed") */
	/* pacing and the order of jobs */
	uint32_t latency_depth; /* the queue depth the latency_target search
	                           reached (iodepth without one; 0: unset) */
	/* errors the job went on after (continue_on_error) */
	uint64_t total_err;     /* fio's total_err */
	int first_error;        /* errno of the first one (fio's first_error;
	                           errmsg names its command) */
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

/* fio's json+: the JSON above with each latency histogram also written
 * as "bins" ({"<ns>" : count} for the non-empty buckets, keyed by the
 * value the bucket stands for), under clat_ns and sync.lat_ns. */
void ssd_report_json_plus(const struct ssd_run_result *r, FILE *out);
/* fio's terse (--minimal) output, version 3: one line of
 * semicolon-separated fields per job, in fio's order, latencies in usec;
 * the host's CPU use and the disk's kernel counters are zeros. */
void ssd_report_terse(const struct ssd_run_result *r, FILE *out);

/* Output formats, fio's --output-format: several may be combined. */
enum { SSD_OUT_NORMAL = 1, SSD_OUT_JSON = 2, SSD_OUT_JSON_PLUS = 4,
       SSD_OUT_TERSE = 8 };
/* Parse "normal", "json", "json+", "terse" or a comma list of them into
 * *formats; SSD_EPARSE for anything else. */
int ssd_output_formats(const char *list, unsigned *formats);
/* Write the report in every format of `formats`, in fio's order: the
 * normal output's job lines, then terse, JSON (json+ if both), the
 * normal report. */
void ssd_report(const struct ssd_run_result *r, unsigned formats, FILE *out);


#endif
