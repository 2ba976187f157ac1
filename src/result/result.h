/*
 * result.h -- what a run of jobs leaves: per reported job its figures
 * over the measured window (fio's per-direction statistics, the drive's
 * counters and health, errors), and the run around them.
 *
 * The runner (sim.h) fills a struct ssd_run_result and owns what it
 * points to: free it with ssd_run_result_free (result.c, with the other
 * functions of the result alone).  The writers that turn it
 * into text and JSON live above, in report.h; the methods read the
 * figures directly.
 */
#ifndef SSD_RESULT_H
#define SSD_RESULT_H

#include <stdint.h>

#include "base/config.h"
#include "base/counters.h"
#include "machine/blk.h"
#include "job/job.h"
#include "job/steadystate.h"
#include "stats/series.h"
#include "stats/stats.h"

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
	const struct ssd_job *job; /* the job it reports; under
	                           group_reporting the first of the jobs of
	                           its reporting group it merges, which names
	                           it (fio's rule: __show_run_stats) */
	uint32_t nsections;     /* job sections it merges: job[0] ..
	                           job[nsections - 1], one after another in
	                           the job file (0 is taken as 1) */
	struct ssd_dstat dir[SSD_DDIR_N]; /* read, write, trim */
	int64_t start_ns;       /* simulated start (after ramp) */
	int64_t runtime_ns;     /* measured duration (excluding ramp) */
	int64_t dir_runtime_ns[SSD_DDIR_N]; /* per direction, the longest
	                           runtime of the instances that did I/O that
	                           way (fio's runtime[ddir]); 0: runtime_ns */
	int64_t runtime_sum_ns; /* the instances' runtimes summed (fio's
	                           job_runtime, total_run_time) */
	struct ssd_counters ctr;/* drive counters over the job's window */
	struct ssd_ss ss;       /* steady state (ss_dur), n = 0: none; the
	                           runner owns its arrays */
	uint32_t erase_min, erase_max; /* per-block erase counts at job end */
	double erase_mean;
	uint64_t free_blocks;   /* free blocks at job end */
	double frag_run;        /* mean physically consecutive run at job
	                           end, 4 KiB pages (ssd_dev_frag_run) */
	uint64_t lat_over_1s;   /* completions slower than 1 s */
	uint64_t verify_pages;  /* 4 KiB pages verify found holding their
	                           latest write */
	uint64_t verify_zero_pages; /* pages it found reading as zeros, as
	                               their last trim asks */
	struct ssd_health health; /* the drive at the job's end */
	int error;              /* 0, or the SSD_E* code that ended the job
	                           (e.g. SSD_EROFS) */
	char errmsg[512];       /* what failed, when error is set: "write
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
	/* zonemode=zbd */
	int zbd;                /* a zbd job: its lines show zone resets */
	uint64_t zone_resets;   /* zones it reset (fio's nr_zone_resets):
	                           full zones it chose, trims, verify's
	                           resets at its start; summed over clones */
	/* a run that keeps a series (ssd_sim_run_series) */
	struct ssd_series *series; /* its own completions, on the run's
	                           series' steps (its clones' together);
	                           NULL without one; owned, freed by
	                           ssd_run_result_free */
};

/* One node of a machine (stack.h) at the end of a run: what it was
 * asked and its own figures, since the drive was created. */
#define SSD_NODE_ROWS 24
struct ssd_node_result {
	char name[24];          /* "page_cache", "mft", "raid0", "ssd0"... */
	const char *kind;       /* its ops' kind (static) */
	int depth;              /* 0 = the top */
	uint64_t capacity;      /* bytes it offers above */
	struct ssd_blk_io io;   /* what it was asked */
	int nrows;
	struct ssd_blk_stat rows[SSD_NODE_ROWS];
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
	int nnodes;             /* a machine's nodes, top down; 0 for a bare
	                           SSD */
	struct ssd_node_result *nodes;
};

struct ssd_dev;

/* Free what the runner allocated for r (its jobs, their steady-state
 * samples and series, the nodes) and empty it; r may be empty (njobs 0). */
void ssd_run_result_free(struct ssd_run_result *r);
/* Free what one job's result holds (ssd_run_result_free does it for
 * each of r->njobs). */
void ssd_job_result_free(struct ssd_job_result *j);

/* The last job section j merges (fio takes its "job options",
 * percentile settings, continue_on_error and latency target from it). */
static inline const struct ssd_job *
ssd_job_result_last(const struct ssd_job_result *j)
{
	return j->job && j->nsections > 1 ? j->job + j->nsections - 1 : j->job;
}
/* Direction d's runtime: dir_runtime_ns[d], else runtime_ns. */
static inline int64_t ssd_job_result_dir_runtime(const struct ssd_job_result *j,
						 int d)
{
	return j->dir_runtime_ns[d] ? j->dir_runtime_ns[d] : j->runtime_ns;
}

/* Each job's figures computed over its measured runtime (ssd_dstat_finish
 * of every direction and of the flushes), once its instances have ended. */
void ssd_run_result_finish(struct ssd_run_result *r);

/* A job's figures start over (a converged latency_target search, fio's
 * reset_all_stats): the directions' statistics, the flushes', the depth
 * buckets and the slow completions, each statistic keeping its window
 * length (win_ns). */
void ssd_job_result_restart(struct ssd_job_result *res);

/* The machine's nodes as they are now, into res->nodes (none for a bare
 * SSD; what a run's report shows in its "Machine" section).  0 or
 * SSD_ENOMEM.  ssd_run_result_free frees them. */
int ssd_run_snapshot_nodes(const struct ssd_dev *dev, struct ssd_run_result *res);

#endif
