/*
 * job.h -- fio job files: the workload language storage people already
 * write.  ssd_jobfile_parse() reads a job file into an array of struct
 * ssd_job, one per job section ([global] values are inherited by every job
 * that follows, as in fio); numjobs is kept as a count, not expanded.
 *
 * Times in job files are simulated time.  Sizes take fio's suffixes
 * (kb_base=1024) and, for size/io_size/offset, a percentage of the drive's
 * user capacity.  An option ssdlab does not know, or knows but does not
 * support, is an error naming file, line and option -- never ignored.
 * A small set of options that have no meaning for a simulated target
 * (ioengine, direct, filename, ...) is accepted and documented as such.
 */
#ifndef SSD_JOB_H
#define SSD_JOB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

enum ssd_ddir { SSD_DDIR_READ = 0, SSD_DDIR_WRITE = 1, SSD_DDIR_TRIM = 2,
	        SSD_DDIR_SYNC = 3 /* a flush: no data, not in the stats */ };
#define SSD_DDIR_N 3 /* directions with statistics */

enum ssd_rw {
	SSD_RW_READ,      /* sequential read */
	SSD_RW_WRITE,     /* sequential write */
	SSD_RW_TRIM,      /* sequential trim */
	SSD_RW_RANDREAD,
	SSD_RW_RANDWRITE,
	SSD_RW_RANDTRIM,
	SSD_RW_READWRITE, /* sequential mixed read/write (fio: rw, readwrite) */
	SSD_RW_RANDRW     /* random mixed read/write */
};

enum ssd_dist {
	SSD_DIST_RANDOM,  /* uniform */
	SSD_DIST_ZIPF,    /* zipf:theta */
	SSD_DIST_PARETO,  /* pareto:h */
	SSD_DIST_ZONED    /* zoned:access%/size%:... */
};

#define SSD_JOB_MAX_BSSPLIT 64
#define SSD_JOB_MAX_ZONES 64

struct ssd_bssplit {
	uint32_t bs;      /* bytes */
	uint32_t pct;     /* percent of I/Os with this size */
};

struct ssd_zone {
	double access_pct; /* percent of accesses landing in this zone */
	double size_pct;   /* percent of the job's region the zone covers */
};

struct ssd_job {
	char name[64];        /* section name */
	char file[256];       /* job file path, for messages */
	int line;             /* line of the section header */

	int rw;               /* enum ssd_rw */
	uint32_t rwmixread;   /* percent of reads in mixed workloads */
	uint32_t bs;          /* block size, bytes (used when nbssplit == 0) */
	int nbssplit;
	struct ssd_bssplit bssplit[SSD_JOB_MAX_BSSPLIT];
	uint32_t iodepth;     /* outstanding I/Os per job instance */
	uint64_t offset;      /* start of the job's region, bytes */
	uint64_t size;        /* length of the region, bytes (resolved; default:
	                         capacity - offset) */
	uint64_t io_size;     /* bytes to transfer before the job ends
	                         (default: size) */
	int64_t runtime;      /* ns of simulated time; 0 = no limit */
	int time_based;       /* keep going until runtime even past io_size */
	int64_t ramp_time;    /* ns; I/O in this window is not counted */
	int dist;             /* enum ssd_dist */
	double dist_param;    /* zipf theta or pareto h */
	int nzones;
	struct ssd_zone zones[SSD_JOB_MAX_ZONES];
	int norandommap;      /* 1: random offsets drawn with replacement;
	                         0 (fio's default): every block of the region
	                         once per pass, in random order */
	int64_t thinktime;    /* ns of idle after an I/O completes */
	uint32_t thinktime_blocks; /* I/Os between think times (default 1) */
	uint32_t fsync_every; /* flush after every N writes (0 = never) */
	int sync_writes;      /* every write is FUA (fio's sync=1) */
	int stonewall;        /* wait for all earlier jobs before starting */
	uint32_t numjobs;     /* clones of this job run side by side */
	int group_reporting;  /* report the clones as one job */
	uint64_t randseed;    /* seed of this job's generator */
	int has_randseed;     /* randseed was given */
	char write_iops_log[256]; /* log file prefix, "" = none */
	char write_bw_log[256];
	char write_lat_log[256];
	int64_t log_avg_msec; /* averaging window of the logs, ms; 0 = per I/O */

	/* the I/O stream (more) */

	/* pacing and the order of jobs */
	uint64_t rate[SSD_DDIR_N];      /* bytes/s per direction; 0 = none */
	uint64_t rate_iops[SSD_DDIR_N]; /* I/Os per second per direction */
	uint64_t rate_min[SSD_DDIR_N];  /* bytes/s the job must keep */
	uint64_t rate_iops_min[SSD_DDIR_N];
	int64_t ratecycle;    /* ns over which rate_min is measured */
	int rate_poisson;     /* rate_process=poisson */
	int rate_ignore_thinktime;
	int io_submit_offload; /* io_submit_mode=offload */
	int64_t startdelay;   /* ns after the run's start ... */
	int64_t startdelay_hi;/* ... up to this (a range; = startdelay if not) */
	uint32_t iodepth_batch;          /* I/Os queued before a submission */
	uint32_t iodepth_batch_complete_min; /* completions waited for */
	uint32_t iodepth_batch_complete_max; /* completions taken at once */
	uint32_t iodepth_low; /* a full queue is refilled at this depth */
	int64_t thinktime_spin;   /* ns of the think time the host spins */
	int thinktime_issue;      /* thinktime_blocks counts issued I/Os */
	int64_t thinktime_iotime; /* ns of I/O between think times; 0 = off */
	int thinktime_blocks_set; /* thinktime_blocks was given */
	int new_group;        /* starts a reporting group */
	char wait_for[64];    /* job to wait for, "" = none */
	int exitall;          /* when a job ends its reporting group ends */
	int exitall_on_error; /* ... when a job ends in error */
	uint32_t flow_id;
	uint32_t flow;        /* weight in its flow; 0 = not throttled */
	int64_t flow_sleep;   /* ns a throttled job waits before retrying */
	int end_fsync;        /* flush at the end of a job that wrote */
	int fsync_on_close;   /* the same (one flush per file: the drive) */
	int ss_state;         /* SSD_SS_* criterion flags; 0 = off */
	double ss_limit;
	int64_t ss_dur;       /* ns, whole seconds, a multiple of ss_interval */
	int64_t ss_ramp;      /* ns */
	int64_t ss_interval;  /* ns, whole seconds */

	/* data verification */

	/* logs and output (more) */

	/* options taken without effect, as written */
};

/*
 * Parse the job file at `path`.  `capacity` (user bytes of the drive)
 * resolves percentages and default sizes; `sector` (4096) is the unit
 * every offset and block size must be a multiple of... except that block
 * sizes of 512 B and up are accepted and rounded up to whole 4 KiB pages
 * by the device (documented).  On success *jobs is a malloc'd array of
 * *njobs entries (free with free()).  On error, returns a negative SSD_E*
 * code and writes one line "FILE:LINE: option 'KEY': what is wrong
 * (accepted: ...)" into err.
 */
int ssd_jobfile_parse(const char *path, uint64_t capacity,
		      struct ssd_job **jobs, int *njobs, char *err,
		      size_t errlen);

/* Same, from a string (tests, built-in scenarios); `name` is used as the
 * file name in messages. */
int ssd_jobfile_parse_string(const char *text, const char *name,
			     uint64_t capacity, struct ssd_job **jobs,
			     int *njobs, char *err, size_t errlen);

/* "randwrite" etc. */
const char *ssd_rw_name(int rw);

/* Markdown list of supported options (docs/jobfiles.md). */
void ssd_job_print_doc(FILE *out);

#endif
