/*
 * job_int.h -- the inside of the fio job-file reader, shared by its
 * pieces:
 *
 *   job_opts.c   the option table, job_opts[]: one row per option, as
 *                data -- name, alias, type, field, range, the function
 *                that reads its value, accepted values, default, help.
 *                The same rows drive parsing, the messages' "accepted:
 *                ...", the report's options without effect,
 *                docs/jobfiles.md, the manual page (tools/man.py reads
 *                `ssdlab job doc`) and the fuzz dictionary
 *                fuzz/jobfile.dict (`ssdlab job doc --format=dict`).
 *   job_value.c  the value readers of the table's OT_FN and OT_NOEFFECT
 *                rows (job_fn_*, job_ne_*): one option's value, checked
 *                and stored in the job.
 *   job_parse.c  the text: lines, sections, includes, ${VAR}, arithmetic
 *                in values, one key=value applied through its row, and
 *                the messages "FILE:LINE: option 'KEY': ...".
 *   job_build.c  a job as a whole when its section ends (percentages
 *                resolved, regions, limits of the file), the files of
 *                all jobs laid out when the file ends, and jobs built in
 *                code (ssd_jobs_*), which is the parser without the text.
 *   job_doc.c    docs/jobfiles.md and fuzz/jobfile.dict, printed from
 *                the table.
 *   job_zbd.c    a zonemode=zbd job's checks (fio's words), its Nz
 *                values and its region aligned to whole zones.
 *   job_dp.c     data placement: plids, dp_scheme's file, and the
 *                job's placement options checked together.
 *
 * The parser's state (struct parser) lives from the first line to the
 * last: the [global] defaults, the job being read (struct jstate), the
 * jobs done, and what the limits of the file count.  Units: sizes in
 * bytes, times in nanoseconds of simulated time, percentages as given.
 */
#ifndef SSD_JOB_INT_H
#define SSD_JOB_INT_H

#include <stddef.h>
#include <stdint.h>

#include "job/job.h"

/* ---- limits ---- */

#define JOB_LINE_MAX 4096             /* longest accepted line, chars */
#define JOB_FILE_MAX (16u << 20)      /* largest accepted job file, bytes */
#define JOB_SECTOR 512u               /* block sizes and offsets: multiples */
#define JOB_PAGE 4096u                /* the drive's page: files start on it */
#define JOB_BS_MAX (128u << 20)       /* largest block size, bytes */
#define JOB_ZBD_BS_MAX (1u << 31)     /* ... of a zbd job's trims (zone
                                         resets of the zone size) */
#define JOB_MAX_OPTS 512              /* rows of job_opts[] (job_opts.c
                                         checks it) */
#define JOB_ADD_MAX (1ULL << 50)      /* largest rw=PATTERN:N hole, bytes */
#define JOB_IOS_MAX (1ULL << 62)      /* largest number_ios */

/* What one file may ask of the runner, checked when each job ends so that
 * the message names the file and line: the runner allocates a command
 * slot per I/O in flight and an instance per clone for the whole file,
 * and keeps simulated time in int64_t ns, which holds 292 years. */
#define JOB_MAX_CLONES 4096           /* numjobs summed over the file
                                         (fio's own limit on jobs) */
#define JOB_MAX_INFLIGHT (1u << 20)   /* numjobs x iodepth summed over the
                                         file: 1 Mi command slots */
#define JOB_MAX_SPAN SSD_JOB_MAX_SPAN /* ns of simulated time the file's
                                         jobs may span (146 years): half
                                         of int64_t, so no sum of times
                                         can overflow */
#define JOB_TIME_MAX SSD_JOB_MAX_SPAN /* longest time one option takes:
                                         the runner adds any one of them
                                         to a time within the span */

/* ---- the parser's state ---- */

enum { RV_SIZE, RV_IO_SIZE, RV_OFFSET, RV_N };
enum { LOG_IOPS, LOG_BW, LOG_LAT, LOG_HIST, LOG_N };

/* size, io_size and offset as written: bytes or a percentage, resolved
 * when the job ends (the percentage base is the capacity, or for io_size
 * the job's size). */
struct region_val {
	int given;
	int is_pct;
	double pct;
	uint64_t bytes;
	int is_zones;         /* Nz: `zones` zones of the job's zone size */
	uint64_t zones;
};

/* A job being read (or the [global] defaults). */
struct jstate {
	struct ssd_job j;
	struct region_val rv[RV_N];
	int log_bare[LOG_N];          /* write_*_log given without a prefix */
	int line_of[JOB_MAX_OPTS];    /* line each option was last set on */
	/* files and regions, as written (resolved when the file ends) */
	char filename[JOB_LINE_MAX + 1]; /* fio's NAME:NAME:...; "" = none */
	char filename_format[256];    /* "" = $jobname.$jobnum.$filenum */
	uint64_t filesize_lo, filesize_hi; /* 0 = not given */
	struct region_val incr;       /* offset_increment */
	struct region_val zskip;      /* zoneskip given as Nz (is_zones) */
	const char *file_of[JOB_MAX_OPTS]; /* and in which file (includes) */
	const char **blame;           /* where opt_line() leaves that file
	                                 for the next message (&p->blame) */
	unsigned kb_base;             /* 1024 or 1000 (kb_base) */
};

/* A job's files, kept from its section to the end of the file, when the
 * files of every job are placed together (job_build.c). */
struct jfiles {
	char *filename;               /* copy of jstate.filename, or NULL */
	char *format;                 /* copy of filename_format, or NULL */
	uint64_t fs_lo, fs_hi;        /* filesize; 0 = not given */
	int size_given, size_pct, incr_pct, off_pct;
	struct region_val io;         /* io_size as written */
	int ln_filename, ln_nrfiles, ln_size, ln_filesize, ln_incr, ln_offset,
	    ln_zone, ln_fill;         /* lines, for messages */
};

enum { SEC_NONE, SEC_GLOBAL, SEC_JOB };

/* One line of the file with its includes expanded: a section header or
 * an option, and where it was written. */
struct entry {
	char *text;                   /* trimmed, comment cut */
	const char *file;             /* interned in parser.files */
	int line;
};

/* The reader of one file (or the builder of one set of jobs), from the
 * first line to the last. */
struct parser {
	const char *file;             /* file of the current line */
	uint64_t capacity;            /* user bytes of the drive */
	/* zonemode=zbd: the zoned drive's zones (zoned = 0: a conventional
	 * drive, fio's emulated zones), and what the first zbd job set for
	 * the drive, which every later one shares (job_zbd.c) */
	struct ssd_job_zoned zdev;
	uint64_t zbd_zone_size;       /* 0: no zbd job yet */
	uint32_t zbd_max_write;       /* write target zones of the drive */
	int line;                     /* current line, 1-based */
	const char *blame;            /* file of the line the next message
	                                 names, when not `file` (opt_line) */
	unsigned kb_base;             /* of the section being read */
	char unset_var[64];           /* a ${VAR} of the current value that
	                                 is not set (it expanded to "") */
	struct entry *ents;           /* the file, includes expanded */
	int nents, capents;
	char **files;                 /* names of the files read */
	int nfiles;
	size_t text_bytes;            /* read so far, over all files */
	const char *key;              /* current key, as written */
	char *err;
	size_t errlen;
	int section;                  /* SEC_* */
	struct jstate global, cur;
	struct ssd_job *jobs;
	int njobs, cap;
	uint64_t clones;              /* numjobs so far */
	uint64_t inflight;            /* numjobs x iodepth so far */
	double span_done;             /* ns: stonewall groups before this one */
	double span_group;            /* ns: the longest job of this group */
	struct jfiles *jf;            /* one per job, as p->jobs */
	int jfcap;
	int built;                    /* jobs built in code (ssd_jobs_*):
	                                 messages name no line */
};

/* ---- the option table's rows ---- */

struct jopt;
/* A value reader: val as written, non-empty (NULL for a bare key only
 * in job_fn_clat_percentiles; an OT_NOEFFECT row gets "1"), checked and
 * stored in js; 0 or a negative SSD_E* code with the message in p. */
typedef int (*jopt_fn)(struct parser *p, struct jstate *js,
		       const struct jopt *o, char *val);

enum {
	OT_BOOL,      /* int field; a bare key means 1 */
	OT_U32,       /* uint32_t field in [min, max] */
	OT_I64,       /* int64_t field, plain integer in [min, max] */
	OT_TIME,      /* int64_t ns; a bare number is in `unit` ns */
	OT_BS,        /* uint32_t block size */
	OT_REGION,    /* size, io_size, offset: bytes or N% */
	OT_LOG,       /* log prefix; bare key: the job's name */
	OT_WORD,      /* int field: the index of the value in `words` */
	OT_FN,        /* parsed by fn */
	OT_NOEFFECT,  /* accepted and checked by fn, no effect */
	OT_UNSUP      /* known fio option that ssdlab refuses */
};

/* A row of the option table (job_opts.c). */
struct jopt {
	const char *name;
	const char *alias;    /* second name fio accepts, or NULL */
	int type;             /* OT_* */
	size_t off;           /* field in struct ssd_job */
	size_t size;          /* OT_LOG: size of the field */
	int idx;              /* OT_REGION: RV_*, OT_LOG: LOG_* */
	uint64_t min, max;    /* OT_U32, OT_I64 range */
	int64_t unit;         /* OT_TIME: ns per bare number */
	jopt_fn fn;           /* OT_FN, OT_NOEFFECT */
	const char *const *words; /* OT_WORD: the values, NULL-terminated */
	const char *value;    /* accepted values (messages, docs) */
	const char *def;      /* default (docs) */
	const char *help;     /* meaning; for OT_NOEFFECT/OT_UNSUP: why */
};

/* In .min of a job_ne_choice row: its word may be followed by
 * ":ARGUMENT". */
#define NE_ARG 1

/* Groups of the options accepted without effect (OT_NOEFFECT rows keep
 * theirs in .idx), each with its reason, for docs/jobfiles.md. */
enum { NEG_ENGINE, NEG_CACHE, NEG_FILES, NEG_CPU, NEG_CLOCK, NEG_BUFFERS,
       NEG_MEMORY, NEG_TRACE, NEG_OTHER, NEG_N };

/* ---- the table (job_opts.c) ---- */

struct job_group {
	const char *title, *why;
};
extern const struct job_group job_ne_groups[NEG_N];
extern const struct jopt job_opts[];
extern const int job_nopts;   /* rows of job_opts[] */

/* The row of key (a name or an alias), or -1. */
int job_find_opt(const char *key);

/* ---- errors and one key=value (job_parse.c) ---- */

/* "FILE:LINE: " and the printf message into the parser's err (for a
 * built job "NAME: ", no line); FILE is p->blame when opt_line() set it,
 * else p->file.  Returns code. */
int job_perr(struct parser *p, int line, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* An error of a file an option names, in that file's own words ("PATH:LINE:
 * what", a trace's line), with the option's place as context:
 * "MSG (KEY of FILE:LINE)" (a built job: "MSG (KEY of NAME)").  Returns
 * code. */
int job_file_err(struct parser *p, int code, const char *msg);
/* "out of memory": SSD_ENOMEM. */
int job_nomem(struct parser *p);
/* "option 'KEY': what (accepted: o->value)" at the current line. */
int job_opt_err(struct parser *p, const struct jopt *o, int code,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The short names every piece of the reader calls them by. */
#define perr job_perr
#define nomem job_nomem
#define opt_err job_opt_err
/* "unknown option", with the nearest name if it is a plausible typo. */
int job_unknown_option(struct parser *p, const char *key);
/* Apply row oi to js with val (NULL: the bare key): 0 or SSD_E*. */
int job_set_option(struct parser *p, struct jstate *js, int oi, char *val);

/* ---- values (job_value.c) ---- */

/* A size with fio's suffixes under the section's kb_base, in bytes. */
int job_size(struct parser *p, const char *s, uint64_t *out);
/* A time into ns; a bare number counts unit ns. */
int job_time(struct parser *p, const struct jopt *o, const char *s,
	     int64_t unit, int64_t *out);
/* ns as years, for messages. */
double job_years(double ns);
/* fio's zone suffix: 1 with *n set when val is "Nz" (N zones) and o
 * takes it, 0 when val does not end in z; else the error ("'z' suffix
 * isn't applicable", "unexpected zone value"). */
int job_zones(struct parser *p, const struct jopt *o, const char *val,
	      uint64_t *n);
/* One block size: a multiple of 512 B, 512 B..JOB_BS_MAX. */
int job_parse_bs(struct parser *p, const struct jopt *o, const char *s,
		 uint32_t *out);

/* The value readers the rows name (jopt_fn). */
#define JOB_FN(name) int name(struct parser *p, struct jstate *js, \
			      const struct jopt *o, char *val)
JOB_FN(job_fn_name);
JOB_FN(job_fn_rw);
JOB_FN(job_fn_rwmixwrite);
JOB_FN(job_fn_bs_ddir);
JOB_FN(job_fn_bsrange);
JOB_FN(job_fn_bssplit);
JOB_FN(job_fn_perc_random);
JOB_FN(job_fn_dist);
JOB_FN(job_fn_number_ios);
JOB_FN(job_fn_randseed);
JOB_FN(job_fn_rate);
JOB_FN(job_fn_startdelay);
JOB_FN(job_fn_wait_for);
JOB_FN(job_fn_read_iolog);
JOB_FN(job_fn_write_iolog);
JOB_FN(job_fn_replay_align);
JOB_FN(job_fn_replay_skip);
JOB_FN(job_fn_latency_percentile);
JOB_FN(job_fn_steadystate);
JOB_FN(job_fn_kb_base);
JOB_FN(job_fn_verify);
JOB_FN(job_fn_blocks);
JOB_FN(job_fn_vbytes);
JOB_FN(job_fn_filename);
JOB_FN(job_fn_filename_format);
JOB_FN(job_fn_filesize);
JOB_FN(job_fn_fsrv);
JOB_FN(job_fn_openfiles);
JOB_FN(job_fn_offset_increment);
JOB_FN(job_fn_size64);
JOB_FN(job_fn_zonemode);
JOB_FN(job_fn_plids);
JOB_FN(job_fn_dp_scheme);
JOB_FN(job_fn_zone_limit);
JOB_FN(job_fn_zone_frac);
JOB_FN(job_fn_coe);
JOB_FN(job_fn_ignore_error);
JOB_FN(job_fn_exit_what);
JOB_FN(job_fn_clat_percentiles);
JOB_FN(job_fn_percentile_list);
JOB_FN(job_fn_write_mode);
JOB_FN(job_fn_sg_write_mode);
/* accepted without effect: the value is checked, nothing is set */
JOB_FN(job_ne_text);
JOB_FN(job_ne_bool);
JOB_FN(job_ne_uint);
JOB_FN(job_ne_uint_list);
JOB_FN(job_ne_nice);
JOB_FN(job_ne_size);
JOB_FN(job_ne_choice);
JOB_FN(job_ne_cpus);
JOB_FN(job_ne_direct);
JOB_FN(job_ne_pattern);
#undef JOB_FN

/* ---- a job, the file, the parser's life (job_build.c) ---- */

/* fio's defaults, before any option. */
void job_defaults(struct ssd_job *j);
/* The state before the first section: 0, or SSD_EINVAL for a capacity
 * too small for any job (the message in err). */
int job_parser_init(struct parser *p, uint64_t capacity, char *err,
		    size_t errlen);
/* ---- data placement (job_dp.c) ---- */

/* fio's checks of the job's placement options together (fdp=1 against
 * dataplacement, streams' identifiers, a scheme's file): 0 or the
 * error. */
int job_dp_finish(struct parser *p, struct jstate *js);

/* ---- zonemode=zbd (job_zbd.c) ---- */

/* Nz values of the job in js turned into bytes (its zone size, or the
 * zoned drive's): 0 or the error. */
int job_zbd_zones(struct parser *p, struct jstate *js);
/* fio's checks of a zbd job whose region is [*off, *off + *size), and
 * its region aligned to whole zones as fio aligns it; io_size follows a
 * rounded size unless it was given.  0 or the error. */
int job_zbd_check(struct parser *p, struct jstate *js, uint64_t *off,
		  uint64_t *size, uint64_t *io_size);

/* The line option `name` was last set on in js (its section's line if
 * not), and whether it was set. */
int job_opt_line(const struct jstate *js, const char *name);
int job_was_set(const struct jstate *js, const char *name);

/* The job section in p->cur ends: checked as a whole, appended. */
int job_finish_job(struct parser *p);
/* The file ends: its last section, then every job's files laid out. */
int job_finish_file(struct parser *p);
/* Hand the jobs over (rc == 0) or free them, and free p. */
void job_parser_done(struct parser *p, int rc, struct ssd_job **jobs,
		     int *njobs);

#endif
