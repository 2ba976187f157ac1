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
	SSD_RW_RANDRW,    /* random mixed read/write */
	SSD_RW_TRIMWRITE, /* trim a block, then write the same block */
	SSD_RW_RANDTRIMWRITE /* the same at random offsets */
};

enum ssd_dist {
	SSD_DIST_RANDOM,  /* uniform */
	SSD_DIST_ZIPF,    /* zipf:theta */
	SSD_DIST_PARETO,  /* pareto:h */
	SSD_DIST_ZONED,   /* zoned:access%/size%:... */
	SSD_DIST_NORMAL,  /* normal:deviation% (gauss) */
	SSD_DIST_ZONED_ABS /* zoned_abs:access%/bytes:... */
};

enum ssd_rw_seq { SSD_RWSEQ_SEQUENTIAL, SSD_RWSEQ_IDENTICAL };
enum ssd_randgen { SSD_RANDGEN_TAUSWORTHE, SSD_RANDGEN_LFSR,
		   SSD_RANDGEN_TAUSWORTHE64 };

#define SSD_JOB_MAX_BSSPLIT 64
#define SSD_JOB_MAX_ZONES 64

struct ssd_bssplit {
	uint32_t bs;      /* bytes */
	uint32_t pct;     /* percent of I/Os with this size */
};

struct ssd_zone {
	double access_pct; /* percent of accesses landing in this zone */
	double size_pct;   /* percent of the job's region the zone covers */
	uint64_t size_bytes; /* zoned_abs: bytes the zone covers */
};

struct ssd_job {
	char name[64];        /* section name */
	char file[256];       /* job file path, for messages */
	int line;             /* line of the section header */

	int rw;               /* enum ssd_rw */
	uint32_t rwmixread;   /* percent of reads in mixed workloads */
	/* Block sizes per direction, indexed by enum ssd_ddir (read, write,
	 * trim): fio's bs=R,W,T and bssplit=R,W,T. */
	uint32_t bs[SSD_DDIR_N]; /* bytes (used when nbssplit == 0 and no
	                            bsrange) */
	int nbssplit[SSD_DDIR_N];
	struct ssd_bssplit bssplit[SSD_DDIR_N][SSD_JOB_MAX_BSSPLIT];
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
	double dist_param;    /* zipf theta, pareto h or normal deviation % */
	int nzones[SSD_DDIR_N]; /* zoned, zoned_abs: zones per direction */
	struct ssd_zone zones[SSD_DDIR_N][SSD_JOB_MAX_ZONES];
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
	uint32_t min_bs[SSD_DDIR_N]; /* I/O sizes per direction, bytes, as */
	uint32_t max_bs[SSD_DDIR_N]; /* fio resolves them: bssplit's smallest
	                                and largest, else bsrange, else bs */
	int bs_unaligned;     /* bsrange sizes: any multiple of 512 B */
	uint32_t blockalign[SSD_DDIR_N]; /* random offsets are multiples of
	                                    this (bytes; default min_bs) */
	int blockalign_set;   /* blockalign differs from min_bs somewhere
	                         (fio then turns the random map off) */
	uint32_t perc_random[SSD_DDIR_N]; /* percentage_random, 0..100 */
	int64_t seq_add;      /* rw=PATTERN:N, sequential: bytes added to
	                         each next offset (negative: backwards) */
	uint32_t seq_nr;      /* rw=PATTERN:N, random: I/Os per new random
	                         offset (1 = every I/O) */
	int rw_sequencer;     /* enum ssd_rw_seq: the I/Os in between */
	double dist_center;   /* zipf/pareto/normal ':center' 0..1; -1 =
	                         default */
	int random_generator; /* enum ssd_randgen */
	uint64_t number_ios;  /* stop after this many I/Os per loop; 0 = no
	                         limit */
	uint32_t loops;       /* passes of the whole job (>= 1) */
	int io_size_set;      /* io_size was given: a sequential walk with
	                         holes wraps instead of ending the pass */

	/* pacing and the order of jobs */

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

/* rw is a random pattern (randread ... randtrimwrite). */
int ssd_rw_is_random(int rw);

/* The directions whose block sizes and offsets pattern rw uses, as bits
 * 1 << SSD_DDIR_*: in trimwrite the write repeats the trim's block. */
unsigned ssd_rw_ddirs(int rw);

/* Smallest and largest I/O size of any direction the job issues. */
uint32_t ssd_job_min_bs(const struct ssd_job *j);
uint32_t ssd_job_max_bs(const struct ssd_job *j);

/* Markdown list of supported options (docs/jobfiles.md). */
void ssd_job_print_doc(FILE *out);

#endif
