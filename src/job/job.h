/*
 * job.h -- fio job files: the workload language storage people already
 * write.  ssd_jobfile_parse() reads a job file into an array of struct
 * ssd_job, one per job section ([global] values are inherited by every job
 * that follows, as in fio); numjobs is kept as a count, not expanded.
 *
 * Times in job files are simulated time.  Sizes take fio's suffixes
 * (under kb_base, 1024 or 1000, with fio's rule for KiB and kB) and, for
 * size/io_size/offset, a percentage of the drive's user capacity.  An option ssdlab does not know, or knows but does not
 * support, is an error naming file, line and option -- never ignored.
 * The options that have no meaning for a simulated target -- the engine
 * and its options, host CPUs and processes, the page cache, files, buffer
 * contents (ioengine, direct, cpus_allowed, directory, ...) -- are
 * accepted with their values checked, and each job lists the ones it
 * took (ssd_job_noeffect()) so that the report can show them.  fio's
 * files (filename lists, nrfiles, filesize) are regions of the drive,
 * laid out when the whole file has been read (layout.h).
 */
#ifndef SSD_JOB_H
#define SSD_JOB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/io.h"
#include "base/util.h"

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

/* verify=: every checksum fio knows means "check the data" here (the
 * drive keeps no data, only which write of each page a slot holds); null
 * pretends, as in fio. */
enum ssd_verify { SSD_VERIFY_NONE = 0, SSD_VERIFY_NULL, SSD_VERIFY_DATA };

enum ssd_dist {
	SSD_DIST_RANDOM,  /* uniform */
	SSD_DIST_ZIPF,    /* zipf:theta */
	SSD_DIST_PARETO,  /* pareto:h */
	SSD_DIST_ZONED,   /* zoned:access%/size%:... */
	SSD_DIST_NORMAL,  /* normal:deviation% (gauss) */
	SSD_DIST_ZONED_ABS, /* zoned_abs:access%/bytes:... */
	SSD_DIST_SEQUENCE  /* sequence:B,B,...: fixed block indices */
};

enum ssd_rw_seq { SSD_RWSEQ_SEQUENTIAL, SSD_RWSEQ_IDENTICAL };
enum ssd_randgen { SSD_RANDGEN_TAUSWORTHE, SSD_RANDGEN_LFSR,
		   SSD_RANDGEN_TAUSWORTHE64 };

#define SSD_JOB_MAX_BSSPLIT 64
#define SSD_JOB_MAX_ZONES 64
#define SSD_JOB_MAX_FILES 524288 /* file instances (files x clones) per
                                     job file: about 0.7 KiB each, 340 MiB
                                     at the cap (BENCHMARKS.md) */
/* ns of simulated time a job file's jobs may span, and the longest one
 * time option (or replayed gap) may be: half of int64_t (146 years), so
 * a time within the span plus any one of them does not overflow. */
#define SSD_JOB_MAX_SPAN (INT64_MAX / 2)

/* How a job with several files picks the file of each I/O (fio's
 * file_service_type). */
enum ssd_fsrv {
	SSD_FSRV_ROUNDROBIN, /* N I/Os to a file, then the next one */
	SSD_FSRV_SEQUENTIAL, /* a file's whole size, then the next one */
	SSD_FSRV_RANDOM,     /* N I/Os to a file drawn at random */
	SSD_FSRV_ZIPF,       /* file drawn by zipf:theta, file 0 hottest */
	SSD_FSRV_PARETO,     /* pareto:h */
	SSD_FSRV_NORMAL      /* normal:dev%, centred on the middle file */
};

/* Data placement (docs/fdp.md): the directive a job's writes carry, how
 * each one's identifier is chosen, and dp_scheme's ranges (fio's
 * dataplacement.h: 128 identifiers, 32 ranges). */
enum ssd_dp_type { SSD_DP_NONE, SSD_DP_FDP, SSD_DP_STREAMS };
enum ssd_dp_select { SSD_DP_RANDOM, SSD_DP_RR, SSD_DP_SCHEME };
#define SSD_DP_MAX_IDS 128
#define SSD_DP_MAX_SCHEME 32
struct ssd_dp_range {
	uint64_t start, end;      /* bytes: start <= offset < end */
	uint32_t pid;             /* the identifier written */
};

/* zonemode: none; strided (fio's classic zones: zonesize bytes of each
 * zonerange); zbd (a zoned block device: writes at the write pointers of
 * zonesize zones, src/run/zbd.h; on a conventional drive fio's emulated
 * zones). */
enum ssd_zonemode { SSD_ZONEMODE_NONE, SSD_ZONEMODE_STRIDED,
		    SSD_ZONEMODE_ZBD };

/* Where one clone works in one of its files, in bytes from the start of
 * the drive: I/O in [start, start + size); strided zones run on to
 * `end`, the end of the file (the drive's capacity for the drive). */
struct ssd_job_region {
	uint64_t start, size, end;
};
#define SSD_JOB_RAW_MAX 8192 /* bytes of options as written, per job */

struct ssd_bssplit {
	uint32_t bs;      /* bytes */
	uint32_t pct;     /* percent of I/Os with this size */
};

struct ssd_zone {
	double access_pct; /* percent of accesses landing in this zone */
	double size_pct;   /* percent of the job's region the zone covers */
	uint64_t size_bytes; /* zoned_abs: bytes the zone covers */
};

/* continue_on_error: the kinds of error a job goes on after. */
#define SSD_COE_READ   1
#define SSD_COE_WRITE  2
#define SSD_COE_VERIFY 4
#define SSD_COE_ALL    7
#define SSD_JOB_MAX_IGNORE 16     /* errno values per ignore_error list */
#define SSD_JOB_MAX_PERCENTILES 20 /* fio's FIO_IO_U_LIST_MAX_LEN */
#define SSD_JOB_MAX_SEQUENCE 64   /* fio's FIO_SEQ_MAX */

/* exit_what: which jobs exitall ends (fio): the job's reporting group,
 * every running job (the next stonewalled group then starts), or every
 * job, the later groups included. */
enum ssd_exit_what { SSD_EXIT_GROUP, SSD_EXIT_STONEWALL, SSD_EXIT_ALL };

/* What a write of the stream is sent to the drive as (write_mode,
 * sg_write_mode); the statistics count it as a write, as fio's do. */
enum ssd_wmode {
	SSD_WMODE_WRITE,   /* a write (write, write_same, write_stream...) */
	SSD_WMODE_ZEROES,  /* write zeroes: a trim, the drive reads zeros */
	SSD_WMODE_UNCOR,   /* write uncorrectable: a trim (no data) */
	SSD_WMODE_VERIFY,  /* the drive reads the range (verify) */
	SSD_WMODE_WAV,     /* write, then read the range back (write and
	                      verify) */
	SSD_WMODE_N
};

#define SSD_JOB_NOEFFECT_WORDS 8
#define SSD_JOB_STDIN "<stdin>"  /* the name of a job file read from - */

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
	/* A size written in bytes (size=, filesize=) that is not whole
	 * blocks of the job's smallest block size: the region is cut down
	 * to whole blocks, as fio's I/O is, and the report says so (a job
	 * built in code is not cut: its size is a multiple of 4 KiB and
	 * its region as asked).  cut_key is "size" or "filesize" (NULL:
	 * nothing was cut);
	 * cut_lo..cut_hi the value as written, bytes (a filesize range:
	 * its ends). */
	const char *cut_key;
	uint64_t cut_lo, cut_hi;
	int64_t runtime;      /* ns of simulated time; 0 = no limit */
	int time_based;       /* keep going until runtime even past io_size */
	int time_based_no_runtime; /* time_based was given without a
	                         runtime: dropped, as fio drops it with its
	                         warning, which the report repeats */
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

	/* the I/O stream (more): files and regions of the drive.  With
	 * nfiles = 0 the job works in [offset, offset + size) of the drive
	 * and every clone alike.  Otherwise each clone c works in the
	 * regions[c * nfiles + i], i < nfiles, and transfers clone_io[c]
	 * bytes; both arrays belong to the block the parser returned. */
	uint32_t nrfiles;     /* files per clone without filename */
	uint32_t nfiles;      /* regions per clone; 0: the plain region */
	const struct ssd_job_region *regions;
	const uint64_t *clone_io;
	int file_service;     /* enum ssd_fsrv */
	uint32_t file_service_nr;   /* I/Os per turn (roundrobin, random) */
	double file_service_param;  /* zipf theta, pareto h, normal dev % */
	uint64_t offset_increment;  /* bytes between the clones' offsets */
	uint64_t offset_align;      /* a percentage offset is aligned up to
	                               this (0: to the smallest block) */
	int fill_device;      /* write until the drive's end */
	int zonemode;         /* enum ssd_zonemode */
	uint64_t zonesize;    /* bytes transferred in a zone */
	uint64_t zonerange;   /* bytes of a zone */
	uint64_t zoneskip;    /* bytes skipped after a zone */
	/* zonemode=zbd (docs/fio-zoned.md): zonesize is the zone size
	 * (0: the zoned drive's), the job's region whole zones */
	uint64_t zonecapacity;    /* bytes writable in an emulated zone (0:
	                             zonesize); a zoned drive has its own */
	uint32_t max_open_zones;  /* write target zones of the drive, shared
	                             by its jobs (0: the drive's limit, or
	                             none) */
	uint32_t job_max_open_zones; /* ... of this job (0: no limit) */
	int ignore_zone_limits;   /* do not take the drive's open limit */
	double zone_reset_threshold; /* 0..1: valid data / region above
	                                which zone_reset_frequency resets */
	double zone_reset_frequency; /* 0..1: a reset per 1/this writes */
	int read_beyond_wp;       /* reads go past the write pointers */
	int write_zone_remainder; /* a zone's last partial block is written
	                             short instead of the zone finished */
	int recover_zbd_write_error; /* accepted (needs continue_on_error) */
	int zone_append;          /* write_mode=zone_append: writes are
	                             Zone Appends */
	/* data placement (fdp, dataplacement, plids, plid_select,
	 * dp_scheme; docs/fdp.md): each write's identifier */
	int fdp;                  /* fdp=1: dataplacement=fdp */
	int dp_type;              /* enum ssd_dp_type */
	int dp_select;            /* enum ssd_dp_select */
	uint32_t dp_nids;         /* plids given (0: the drive's, fdp) */
	uint16_t dp_ids[SSD_DP_MAX_IDS]; /* sorted */
	uint32_t dp_nscheme;      /* dp_scheme's lines */
	struct ssd_dp_range dp_scheme[SSD_DP_MAX_SCHEME];
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
	int64_t latency_target;   /* ns; 0 = no search of the queue depth */
	int64_t latency_window;   /* ns each depth is judged over */
	double latency_percentile;/* percent of I/Os within latency_target */
	int latency_run;          /* keep adjusting the depth after the search
	                             converged (else the job ends then) */

	/* data verification */
	int verify;           /* enum ssd_verify */
	char verify_name[16]; /* the checksum as written ("md5"), for reports */
	int do_verify;        /* verify phase after the writes (default 1) */
	int verify_only;      /* no writes: only the verify phase */
	uint64_t verify_backlog;       /* verify after every N writes (0 = at
	                                  the end only) */
	uint64_t verify_backlog_batch; /* blocks per backlog verify (0 = N) */
	int verify_fatal;     /* accepted: the job ends at the first bad block */
	int verify_dump;      /* accepted: there is no data to dump */
	uint32_t verify_interval, verify_offset; /* accepted (header layout) */
	int experimental_verify; /* replay every write, also blocks already
	                            verified since their last write */
	uint32_t trim_percentage;    /* percent of written blocks trimmed */
	int trim_verify_zero;        /* trimmed blocks must read as zeros
	                                (default 1) */
	uint64_t trim_backlog;       /* trim after every N writes */
	uint64_t trim_backlog_batch; /* blocks per trim (0 = trim_backlog) */

	/* logs and output (more) */
	char write_hist_log[256]; /* completion-latency histogram log prefix
	                             ("" = none): PREFIX_clat_hist.N.log */
	int64_t log_hist_msec;   /* histogram log interval, ms; 0 = the file
	                            is created but stays empty (fio) */
	uint32_t log_hist_coarseness; /* 0..6: 2^N histogram bins summed
	                                 into one column */
	int log_offset;          /* logs carry each I/O's byte offset */
	int log_prio;            /* priority column in fio's hex form */
	int per_job_logs;        /* 1 (default): log names carry the job
	                            number; 0: PREFIX_KIND.log, appended to,
	                            shared by jobs with the same prefix */
	/* The options as written, for the report's "global options" and
	 * "job options" (fio's JSON): "key\0value\0" pairs in the order
	 * set, a later setting of a key replacing the earlier one, bare keys
	 * (no value) left out as fio does.  The first raw_global bytes are
	 * the [global] pairs in force when the job's section began; the
	 * job's own follow, up to raw_len. */
	char raw[SSD_JOB_RAW_MAX];
	uint32_t raw_global, raw_len;

	/* traces (docs/traces.md) */
	char read_iolog[256];  /* the trace replayed ("" = none): fio's iolog
	                          v2/v3 or a blktrace file, plain or gzip */
	char write_iolog[256]; /* the issued I/O recorded as fio's iolog v3
	                          ("" = none) */
	int replay_no_stall;   /* issue as fast as the queue allows */
	uint32_t replay_time_scale; /* percent: a gap of the trace lasts
	                          gap x 100 / this (default 100) */
	uint32_t replay_align; /* offsets aligned down to this power of 2 (0:
	                          as they are) */
	uint32_t replay_scale; /* offsets divided by this (default 1) */
	unsigned replay_skip;  /* 1 << SSD_TOP_* of the actions left out */

	/* errors, exits, percentiles and command modes */
	int continue_on_error; /* SSD_COE_* bits: errors that do not end
	                          the job (fio's continue_on_error) */
	uint32_t ignore_error[3][SSD_JOB_MAX_IGNORE]; /* fio's ignore_error:
	                          errno values per read, write, verify;
	                          0 ends a list */
	int error_dump;       /* accepted (default 1) */
	int exit_what;        /* enum ssd_exit_what: scope of exitall */
	int clat_percentiles_off; /* clat_percentiles=0: no completion
	                         latency percentiles (a zeroed job reports
	                         them, fio's default) */
	int lat_percentiles;  /* total latency percentiles (= clat here) */
	int slat_percentiles; /* submission latency percentiles (all 0) */
	int percentile_list_set; /* percentile_list was given */
	uint32_t npercentiles; /* its entries (a 0 ends fio's list) */
	uint32_t percentile_prec; /* digits after the point in the report */
	double percentile_list[SSD_JOB_MAX_PERCENTILES]; /* sorted */
	int write_fua;        /* writefua: every write is FUA (as sync=1) */
	int read_fua;         /* readfua: accepted (see the option help) */
	uint32_t num_range;   /* trim ranges per trim command (default 1) */
	/* write_mode (io_uring_cmd) and sg_write_mode (sg): the command a
	 * write of the stream becomes, a mix of SSD_WMODE_* in percent */
	uint32_t wmode_pct[SSD_WMODE_N];
	int wmode_set;        /* a write mode other than plain writes */
	int verify_write_sequence; /* accepted (default 1) */
	/* random_distribution=sequence: the random I/O of each direction
	 * goes to these block indices (units of the direction's smallest
	 * block size), in turn, over and over; with random_sequence_stride
	 * each new round is shifted by nsequence blocks */
	uint32_t nsequence;
	uint32_t sequence[SSD_JOB_MAX_SEQUENCE];
	int sequence_stride;

	/* options taken without effect, as written */
	uint64_t noeffect[SSD_JOB_NOEFFECT_WORDS]; /* bit i: row i of the
	                         option table was given; ssd_job_noeffect()
	                         names them for the report */
	int buffered;         /* direct=0 or buffered=1 given: through the
	                         machine's page cache, or noted in the
	                         report when the machine has none */
	int direct;           /* direct=1 or buffered=0 given: past the
	                         machine's page cache (without either the
	                         job is buffered, fio's default) */
};

/*
 * Parse the job file at `path` ("-": standard input, named "<stdin>" in
 * messages).  "include FILE" lines are read in place (a relative FILE
 * from the current directory if it is there, else from the including
 * file's directory, as fio does; an included file holds options only),
 * and values expand ${VAR}, $pagesize, $mb_memory, $ncpus and
 * "(arithmetic)" as in fio.  `capacity` (user bytes of the drive)
 * resolves percentages and default sizes.  Offsets and block sizes are
 * multiples of the 512 B sector (the device rounds a partial 4 KiB page
 * up to a whole one); a size written in bytes is cut down to whole
 * blocks (cut_key above).  On success *jobs is a malloc'd array of
 * *njobs entries (free with free()); the jobs' regions and clone_io
 * arrays live in the same block, after the jobs, so a job copied out of
 * the array is valid only while the array is.  On error, returns a negative SSD_E*
 * code and writes one line "FILE:LINE: option 'KEY': what is wrong
 * (accepted: ...)" into err.
 */
int ssd_jobfile_parse(const char *path, uint64_t capacity,
		      struct ssd_job **jobs, int *njobs, char *err,
		      size_t errlen);

/* The zones of a zoned drive, for the checks of zonemode=zbd jobs (its
 * zone size, Nz values, its open limit).  zoned = 0: a conventional
 * drive, where zbd jobs emulate zones as fio does on a regular file. */
struct ssd_job_zoned {
	int zoned;
	uint64_t zone_size;   /* bytes */
	uint64_t zone_cap;    /* bytes writable in a zone */
	uint32_t max_open;    /* 0: no limit */
};

/* ssd_jobfile_parse for a zoned drive (zi NULL: as ssd_jobfile_parse). */
int ssd_jobfile_parse_zoned(const char *path, uint64_t capacity,
			    const struct ssd_job_zoned *zi,
			    struct ssd_job **jobs, int *njobs, char *err,
			    size_t errlen);

/* ssd_jobfile_parse_string for a zoned drive (zi NULL: a conventional
 * one). */
int ssd_jobfile_parse_string_zoned(const char *text, const char *name,
				   uint64_t capacity,
				   const struct ssd_job_zoned *zi,
				   struct ssd_job **jobs, int *njobs,
				   char *err, size_t errlen);

/* Same, from a string (tests, built-in scenarios); `name` is used as the
 * file name in messages. */
int ssd_jobfile_parse_string(const char *text, const char *name,
			     uint64_t capacity, struct ssd_job **jobs,
			     int *njobs, char *err, size_t errlen);

/* The options of job j as written ("key\0value\0" pairs): its own
 * (global = 0) or the [global] ones in force at its section (global = 1).
 * Iterate with ssd_job_raw_next: start with *pos = 0; returns 0 at the
 * end, else sets *key and *val. */
int ssd_job_raw_next(const struct ssd_job *j, int global, uint32_t *pos,
		     const char **key, const char **val);
/* The options job j took without effect (ioengine, direct, cpus_allowed,
 * ...), in the order of the option table: up to max names into names[]
 * (static strings); returns how many there are. */
int ssd_job_noeffect(const struct ssd_job *j, const char **names, int max);

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
/* The libFuzzer dictionary of job files (fuzz/jobfile.dict): every
 * option and alias ssdlab takes, the words of their values, values in
 * fio's units and the job-file syntax. */
void ssd_job_print_dict(FILE *out);

/* ---- building a job file in code ----
 *
 * A workload built in code goes through the parser's own steps, without
 * the text: ssd_jobs_global() and ssd_jobs_add() begin a section as a
 * "[global]" or "[name]" line does, ssd_jobs_set() applies key=value
 * through the option table (the same per-option code as a line of a
 * file), and each job section ends, and the whole file ends, in the same
 * functions as a file read by ssd_jobfile_parse_string(): defaults that
 * depend on other options, resolved sizes, the region and the limits of
 * the file.  So
 *
 *     ssd_jobs_new("calibrate", capacity, &b);
 *     struct ssd_job *j = ssd_jobs_add(b, "write");
 *     j->rw = SSD_RW_WRITE;
 *     ssd_job_set_bs(j, 128 << 10);
 *     j->iodepth = 32;
 *     j->size = bytes;
 *     rc = ssd_jobs_end(b, &jobs, &njobs, err, sizeof err);
 *
 * gives the jobs that parsing "[write]
rw=write
bs=128k
iodepth=32

 * size=BYTES
" gives, except that a built job has line 0 (the report
 * then shows its resolved options, not the options as written) and its
 * raw options hold only what went through ssd_jobs_set().
 *
 * The job a section call returns may be assigned directly (valid until
 * the next section call or ssd_jobs_end): the plain fields (rw,
 * rwmixread, iodepth, norandommap, stonewall, numjobs, runtime,
 * ramp_time, time_based, thinktime, randseed with has_randseed, rate[],
 * ...), bs[] (ssd_job_set_bs for all three directions), and offset,
 * size and io_size in bytes (a non-zero value counts as given; a
 * percentage, or a 0 that replaces a [global] value, goes through
 * ssd_jobs_set).  Assigned values are checked when the section ends
 * against the ranges of the option table.  Options that fill several
 * fields or record that they were given (bssplit, bsrange,
 * random_distribution, thinktime_blocks, files, verify, ...) go through
 * ssd_jobs_set.
 *
 * Errors stick: after the first one every call does nothing, a section
 * call returns a scratch job, and ssd_jobs_end returns that error.  The
 * message is the parser's, "NAME: option 'KEY': what is wrong
 * (accepted: ...)", without a line, given to the caller of
 * ssd_jobs_end.
 */
struct ssd_jobs;

/* The values of a section with no options (no [global]) before it ends:
 * what parsing "[name]\n" starts the job from.  name may be NULL. */
void ssd_job_defaults(struct ssd_job *j, const char *name);
/* bs= one size for reads, writes and trims (bytes). */
void ssd_job_set_bs(struct ssd_job *j, uint32_t bs);

/* A new job file named `name` (for messages) for a drive of `capacity`
 * user bytes.  Returns 0 or SSD_ENOMEM (*out NULL); a capacity below
 * 4 KiB is the error ssd_jobs_end returns. */
int ssd_jobs_new(const char *name, uint64_t capacity, struct ssd_jobs **out);
/* Begin the [global] section (ending the job in progress): the returned
 * template is copied into every job added after it. */
struct ssd_job *ssd_jobs_global(struct ssd_jobs *b);
/* Begin job section `name` (ending the one in progress): a copy of the
 * [global] template, to assign or set options on. */
struct ssd_job *ssd_jobs_add(struct ssd_jobs *b, const char *name);
/* key=value in the current section, as a line of a job file (val NULL:
 * a bare key).  Returns 0 or the (sticky) error. */
int ssd_jobs_set(struct ssd_jobs *b, const char *key, const char *val);
int ssd_jobs_setf(struct ssd_jobs *b, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* End the last section and the file and free b.  On success *jobs is
 * the same kind of block ssd_jobfile_parse returns (free with free());
 * on error a negative SSD_E* with the first error's message in err
 * (errlen bytes), *jobs NULL. */
int ssd_jobs_end(struct ssd_jobs *b, struct ssd_job **jobs, int *njobs,
		 char *err, size_t errlen);
/* Free a builder without ending it (NULL: nothing). */
void ssd_jobs_free(struct ssd_jobs *b);

#endif
