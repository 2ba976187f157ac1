/*
 * job.c -- the fio job-file reader.
 *
 * A job file is INI text: a [global] section sets defaults, every other
 * [name] section is a job that starts from a copy of the defaults as they
 * stand at that point (a later [global] changes only the jobs after it).
 * Lines are "key=value", or a bare "key" for a boolean; '#' and ';' start
 * comments, at the start of a line or after white space.
 *
 * Everything the parser knows is in one table, opts[] below: the options
 * ssdlab implements, the ones it accepts because they only choose the host
 * side of a real fio run (engine, file name, page cache), and the
 * well-known fio options it refuses with a reason.  The same rows drive
 * parsing, error messages ("accepted: ...") and ssd_job_print_doc(), which
 * generates docs/jobfiles.md.
 *
 * Values are checked where they are read (type, range, alignment), and a
 * job is checked as a whole when its section ends: percentages are
 * resolved against the drive's capacity, the region [offset, offset+size)
 * must lie on the drive and hold at least one block, and the file so far
 * must stay within what the runner holds (JOB_MAX_*: clones, I/Os in
 * flight, simulated time that int64_t ns can count).  A mistake is
 * reported once, as one line "FILE:LINE: option 'KEY': what (accepted:
 * ...)", and parsing stops there.  Integers are fio's: decimal, or hex
 * after 0x; a leading 0 is not octal.
 *
 * Units: sizes in bytes (fio's suffixes, kb_base=1024), times in
 * nanoseconds of simulated time, percentages as given.
 */
#include "job/job.h"
#include "trace/trace.h"
#include "job/layout.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "job/steadystate.h"

#define JOB_LINE_MAX 4096             /* longest accepted line, chars */
#define JOB_FILE_MAX (16u << 20)      /* largest accepted job file, bytes */
#define JOB_SECTOR 512u               /* block sizes and offsets: multiples */
#define JOB_PAGE 4096u                /* the drive's page: files start on it */
#define JOB_BS_MAX (128u << 20)       /* largest block size, bytes */
#define JOB_MAX_OPTS 512              /* rows of opts[] (checked below) */
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
	const char *file_of[JOB_MAX_OPTS]; /* and in which file (includes) */
	const char **blame;           /* where opt_line() leaves that file
	                                 for the next message (&p->blame) */
	unsigned kb_base;             /* 1024 or 1000 (kb_base) */
};


/* A job's files, kept from its section to the end of the file, when the
 * files of every job are placed together (resolve_files). */
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

struct parser {
	const char *file;             /* file of the current line */
	uint64_t capacity;            /* user bytes of the drive */
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

struct jopt;
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

/* ---- errors ---- */

__attribute__((format(printf, 4, 5)))
static int perr(struct parser *p, int line, int code, const char *fmt, ...)
{
	if (!p->err || !p->errlen)
		return code;
	const char *file = p->blame ? p->blame : p->file;
	p->blame = NULL;
	int n = p->built ? snprintf(p->err, p->errlen, "%s: ", file)
			 : snprintf(p->err, p->errlen, "%s:%d: ", file, line);
	if (n < 0 || (size_t)n >= p->errlen)
		return code;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	if (p->unset_var[0]) {
		/* say why a value is empty or odd: "; ${X} is not set" goes
		 * before the "(accepted: ...)" part, or at the end */
		char note[128], *acc = strstr(p->err + n, " (accepted:");
		snprintf(note, sizeof note, "; ${%s} is not set in the "
			 "environment and expands to nothing", p->unset_var);
		size_t len = strlen(p->err), nl = strlen(note);
		if (len + nl < p->errlen) {
			char *at = acc ? acc : p->err + len;
			memmove(at + nl, at, strlen(at) + 1);
			memcpy(at, note, nl);
		}
	}
	/* One printable line, whatever bytes the quoted input held. */
	for (char *c = p->err; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return code;
}

/* An allocation failed: "out of memory", and SSD_ENOMEM. */
static int nomem(struct parser *p)
{
	ssd_seterr(p->err, p->errlen, "out of memory");
	return SSD_ENOMEM;
}

/* "option 'KEY': WHAT (accepted: VALUES)" at the current line. */
__attribute__((format(printf, 4, 5)))
static int opt_err(struct parser *p, const struct jopt *o, int code,
		   const char *fmt, ...)
{
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return perr(p, p->line, code, "option '%.64s': %s (accepted: %s)",
		    p->key, what, o->value);
}

/* ---- value parsers (OT_FN) ---- */

/* A size as fio reads it, under the kb_base of the section being read. */
static int job_size(struct parser *p, const char *s, uint64_t *out)
{
	return ssd_parse_size_kb(s, p->kb_base ? p->kb_base : 1024, out);
}

/* Years, for messages about simulated time. */
static double years_of(double ns)
{
	return ns / (365.25 * 86400.0 * (double)SSD_S);
}

/* A time of option o (a bare number is in `unit` ns), at most
 * JOB_TIME_MAX; the message names o. */
static int job_time(struct parser *p, const struct jopt *o, const char *s,
		    int64_t unit, int64_t *out)
{
	int rc = ssd_parse_time(s, unit, out);
	if (rc == SSD_EPARSE)
		return opt_err(p, o, rc, "'%.64s' is not a time", s);
	if (rc || *out > JOB_TIME_MAX)
		return opt_err(p, o, SSD_ERANGE, "%.64s is too long, more than %.0f "
			       "years of simulated time", s,
			       floor(years_of((double)JOB_TIME_MAX)));
	return 0;
}

static const char *const rw_names[] = {
	[SSD_RW_READ] = "read",           [SSD_RW_WRITE] = "write",
	[SSD_RW_TRIM] = "trim",           [SSD_RW_RANDREAD] = "randread",
	[SSD_RW_RANDWRITE] = "randwrite", [SSD_RW_RANDTRIM] = "randtrim",
	[SSD_RW_READWRITE] = "readwrite", [SSD_RW_RANDRW] = "randrw",
	[SSD_RW_TRIMWRITE] = "trimwrite",
	[SSD_RW_RANDTRIMWRITE] = "randtrimwrite",
};

const char *ssd_rw_name(int rw)
{
	if (rw < 0 || rw >= (int)(sizeof rw_names / sizeof rw_names[0]))
		return NULL;
	return rw_names[rw];
}

int ssd_rw_is_random(int rw)
{
	return rw == SSD_RW_RANDREAD || rw == SSD_RW_RANDWRITE ||
	       rw == SSD_RW_RANDTRIM || rw == SSD_RW_RANDRW ||
	       rw == SSD_RW_RANDTRIMWRITE;
}

unsigned ssd_rw_ddirs(int rw)
{
	switch (rw) {
	case SSD_RW_READ:
	case SSD_RW_RANDREAD:
		return 1u << SSD_DDIR_READ;
	case SSD_RW_WRITE:
	case SSD_RW_RANDWRITE:
		return 1u << SSD_DDIR_WRITE;
	case SSD_RW_TRIM:
	case SSD_RW_RANDTRIM:
	case SSD_RW_TRIMWRITE:     /* the write repeats the trim's block */
	case SSD_RW_RANDTRIMWRITE:
		return 1u << SSD_DDIR_TRIM;
	default:
		return 1u << SSD_DDIR_READ | 1u << SSD_DDIR_WRITE;
	}
}

uint32_t ssd_job_min_bs(const struct ssd_job *j)
{
	uint32_t v = UINT32_MAX;
	for (int d = 0; d < SSD_DDIR_N; d++)
		if ((ssd_rw_ddirs(j->rw) >> d & 1) && j->min_bs[d] < v)
			v = j->min_bs[d];
	return v;
}

uint32_t ssd_job_max_bs(const struct ssd_job *j)
{
	uint32_t v = 0;
	for (int d = 0; d < SSD_DDIR_N; d++)
		if ((ssd_rw_ddirs(j->rw) >> d & 1) && j->max_bs[d] > v)
			v = j->max_bs[d];
	return v;
}

/* "PATTERN[:N]".  For a random pattern N is a count of I/Os (fio's
 * integer syntax, k/m suffixes allowed: 1..2^32-1); for a sequential
 * one a size, negative to go backwards (a multiple of 512 B). */
static int fn_rw(struct parser *p, struct jstate *js, const struct jopt *o,
		 char *val)
{
	char *mod = strchr(val, ':');
	if (mod)
		*mod++ = 0;
	char *name = ssd_strtrim(val);
	int rw = -1;
	if (!strcmp(name, "rw"))
		rw = SSD_RW_READWRITE;
	for (int i = 0; rw < 0 && i < (int)(sizeof rw_names /
					    sizeof rw_names[0]); i++)
		if (!strcmp(name, rw_names[i]))
			rw = i;
	if (rw < 0) {
		static const char *const unsup[] = {"filecreate", "filestat",
						    "filedelete"};
		for (size_t i = 0; i < sizeof unsup / sizeof unsup[0]; i++)
			if (!strcmp(name, unsup[i]))
				return opt_err(p, o, SSD_EUNSUP,
					       "'%s' is not supported by "
					       "ssdlab", name);
		return opt_err(p, o, SSD_EPARSE, "unknown I/O pattern '%.64s'",
			       name);
	}
	int64_t add = 0;
	uint32_t nr = 1;
	if (mod) {
		char *m = ssd_strtrim(mod);
		int neg = *m == '-';
		uint64_t v;
		int rc = job_size(p, neg ? m + 1 : m, &v);
		if (rc == SSD_EPARSE || !*m)
			return opt_err(p, o, SSD_EPARSE,
				       "offset modifier '%.64s' is not %s", m,
				       ssd_rw_is_random(rw)
					       ? "a number of I/Os"
					       : "a size");
		if (ssd_rw_is_random(rw)) {
			if (neg || rc || v == 0 || v > UINT32_MAX)
				return opt_err(p, o, SSD_ERANGE,
					       "offset modifier %.64s is out "
					       "of range (random patterns: "
					       "I/Os per new offset, 1.."
					       "4294967295)", m);
			nr = (uint32_t)v;
		} else {
			if (rc || v > JOB_ADD_MAX)
				return opt_err(p, o, SSD_ERANGE,
					       "offset modifier %.64s is too "
					       "large", m);
			if (v % JOB_SECTOR)
				return opt_err(p, o, SSD_ERANGE,
					       "offset modifier %.64s is not "
					       "a multiple of 512 B", m);
			add = neg ? -(int64_t)v : (int64_t)v;
		}
	}
	js->j.rw = rw;
	js->j.seq_add = add;
	js->j.seq_nr = nr;
	return 0;
}

static int fn_rwmixwrite(struct parser *p, struct jstate *js,
			 const struct jopt *o, char *val)
{
	uint64_t v;
	int rc = ssd_parse_u64(val, &v);
	if (rc == SSD_EPARSE)
		return opt_err(p, o, rc, "'%.64s' is not an integer", val);
	if (rc || v > 100)
		return opt_err(p, o, SSD_ERANGE, "%.64s is out of range", val);
	js->j.rwmixread = 100 - (uint32_t)v;
	return 0;
}

/* fio's per-direction values "READ,WRITE,TRIM": at most three fields;
 * an empty field keeps what the direction had, and a last field that is
 * not followed by a comma applies to the directions after it as well
 * ("8k,32k" is 8k for reads, 32k for writes and trims; "8k,32k," leaves
 * trims alone).  f[d] is the field for direction d, or NULL. */
static int split_ddir(struct parser *p, const struct jopt *o, char *val,
		      char *f[SSD_DDIR_N])
{
	char *field[SSD_DDIR_N];
	int n = 0;
	for (char *c = val;;) {
		char *comma = strchr(c, ',');
		if (n == SSD_DDIR_N)
			return opt_err(p, o, SSD_EPARSE,
				       "more than three comma-separated "
				       "values (READ,WRITE,TRIM)");
		if (comma)
			*comma = 0;
		field[n++] = ssd_strtrim(c);
		if (!comma)
			break;
		c = comma + 1;
	}
	for (int d = 0; d < SSD_DDIR_N; d++) {
		char *v = d < n ? field[d] : field[n - 1];
		f[d] = *v ? v : NULL;
	}
	return 0;
}

/* A block size: a multiple of 512 B, 512 B..128 MiB. */
static int parse_bs(struct parser *p, const struct jopt *o, const char *s,
		    uint32_t *out)
{
	uint64_t v;
	int rc = job_size(p, s, &v);
	if (rc == SSD_EPARSE)
		return opt_err(p, o, rc, "'%.64s' is not a size", s);
	if (rc || v < JOB_SECTOR || v > JOB_BS_MAX)
		return opt_err(p, o, SSD_ERANGE,
			       "block size %.64s is out of range", s);
	if (v % JOB_SECTOR)
		return opt_err(p, o, SSD_ERANGE,
			       "block size %.64s is not a multiple of 512 B",
			       s);
	*out = (uint32_t)v;
	return 0;
}

/* bs=R,W,T and blockalign=R,W,T: one block size per direction. */
static int fn_bs_ddir(struct parser *p, struct jstate *js,
		      const struct jopt *o, char *val)
{
	char *f[SSD_DDIR_N];
	uint32_t v[SSD_DDIR_N];
	uint32_t *field = (uint32_t *)((char *)&js->j + o->off);
	int rc = split_ddir(p, o, val, f);
	for (int d = 0; !rc && d < SSD_DDIR_N; d++)
		if (f[d])
			rc = parse_bs(p, o, f[d], &v[d]);
	if (rc)
		return rc;
	for (int d = 0; d < SSD_DDIR_N; d++)
		if (f[d])
			field[d] = v[d];
	return 0;
}

/* bsrange=MIN-MAX[,MIN-MAX[,MIN-MAX]] (fio also takes MIN:MAX). */
static int fn_bsrange(struct parser *p, struct jstate *js,
		      const struct jopt *o, char *val)
{
	char *f[SSD_DDIR_N];
	uint32_t lo[SSD_DDIR_N], hi[SSD_DDIR_N];
	int rc = split_ddir(p, o, val, f);
	if (rc)
		return rc;
	for (int d = 0; d < SSD_DDIR_N; d++) {
		if (!f[d] || (d && f[d] == f[d - 1]))
			continue;
		char *sep = strpbrk(f[d], "-:");
		if (!sep)
			return opt_err(p, o, SSD_EPARSE,
				       "'%.64s' is not a range MIN-MAX", f[d]);
		*sep = 0;
		rc = parse_bs(p, o, ssd_strtrim(f[d]), &lo[d]);
		if (!rc)
			rc = parse_bs(p, o, ssd_strtrim(sep + 1), &hi[d]);
		if (rc)
			return rc;
		if (lo[d] > hi[d])
			return opt_err(p, o, SSD_ERANGE,
				       "range %.32s-%.32s runs backwards",
				       f[d], sep + 1);
	}
	for (int d = 0; d < SSD_DDIR_N; d++) {
		if (!f[d])
			continue;
		int s = d && f[d] == f[d - 1] ? d - 1 : d;
		lo[d] = lo[s];
		hi[d] = hi[s];
		js->j.min_bs[d] = lo[d];
		js->j.max_bs[d] = hi[d];
	}
	return 0;
}

/* One direction's "SIZE/PERCENT:SIZE/PERCENT:..." */
static int parse_bssplit(struct parser *p, const struct jopt *o, char *val,
			 struct ssd_bssplit *sp, int *nout)
{
	int n = 0, missing = 0;
	uint32_t sum = 0;
	char *save = NULL;
	for (char *e = strtok_r(val, ":", &save); e;
	     e = strtok_r(NULL, ":", &save)) {
		if (n == SSD_JOB_MAX_BSSPLIT)
			return opt_err(p, o, SSD_ERANGE,
				       "more than %d entries",
				       SSD_JOB_MAX_BSSPLIT);
		char *slash = strchr(e, '/');
		char *pct = NULL;
		if (slash) {
			*slash = 0;
			pct = ssd_strtrim(slash + 1);
		}
		char *size = ssd_strtrim(e);
		int rc = parse_bs(p, o, size, &sp[n].bs);
		if (rc)
			return rc;
		if (!pct || !*pct) {
			sp[n].pct = UINT32_MAX; /* share of the rest */
			missing++;
		} else {
			uint64_t v;
			rc = ssd_parse_u64(pct, &v);
			if (rc == SSD_EPARSE)
				return opt_err(p, o, rc,
					       "'%.64s' is not a whole "
					       "percentage", pct);
			if (rc || v > 100)
				return opt_err(p, o, SSD_ERANGE,
					       "percentage %.64s is out of "
					       "range", pct);
			sp[n].pct = (uint32_t)v;
			sum += (uint32_t)v;
		}
		n++;
	}
	if (!n)
		return opt_err(p, o, SSD_EPARSE, "no entries");
	if (sum > 100 || (!missing && sum != 100))
		return opt_err(p, o, SSD_ERANGE,
			       "percentages add up to %u, not 100", sum);
	/* Entries without a percentage share what is left, as in fio; the
	 * remainder of the division goes to the first of them so that the
	 * total is exactly 100. */
	if (missing) {
		uint32_t rest = 100 - sum, each = rest / (uint32_t)missing;
		uint32_t extra = rest % (uint32_t)missing;
		for (int i = 0; i < n; i++) {
			if (sp[i].pct != UINT32_MAX)
				continue;
			sp[i].pct = each + (extra ? 1 : 0);
			if (extra)
				extra--;
		}
	}
	*nout = n;
	return 0;
}

static int fn_bssplit(struct parser *p, struct jstate *js,
		      const struct jopt *o, char *val)
{
	char *f[SSD_DDIR_N];
	struct ssd_bssplit sp[SSD_DDIR_N][SSD_JOB_MAX_BSSPLIT];
	int n[SSD_DDIR_N] = {0};
	int rc = split_ddir(p, o, val, f);
	for (int d = 0; !rc && d < SSD_DDIR_N; d++) {
		if (!f[d])
			continue;
		if (d && f[d] == f[d - 1]) {
			memcpy(sp[d], sp[d - 1], sizeof sp[d]);
			n[d] = n[d - 1];
			continue;
		}
		rc = parse_bssplit(p, o, f[d], sp[d], &n[d]);
	}
	if (rc)
		return rc;
	for (int d = 0; d < SSD_DDIR_N; d++) {
		if (!f[d])
			continue;
		memcpy(js->j.bssplit[d], sp[d], (size_t)n[d] * sizeof sp[d][0]);
		js->j.nbssplit[d] = n[d];
	}
	return 0;
}

/* percentage_random=R[,W[,T]]: integers 0..100. */
static int fn_perc_random(struct parser *p, struct jstate *js,
			  const struct jopt *o, char *val)
{
	char *f[SSD_DDIR_N];
	uint32_t v[SSD_DDIR_N];
	int rc = split_ddir(p, o, val, f);
	if (rc)
		return rc;
	for (int d = 0; d < SSD_DDIR_N; d++) {
		uint64_t x;
		if (!f[d])
			continue;
		rc = ssd_parse_u64(f[d], &x);
		if (rc == SSD_EPARSE)
			return opt_err(p, o, rc, "'%.64s' is not an integer",
				       f[d]);
		if (rc || x > 100)
			return opt_err(p, o, SSD_ERANGE,
				       "%.64s is out of range", f[d]);
		v[d] = (uint32_t)x;
	}
	for (int d = 0; d < SSD_DDIR_N; d++)
		if (f[d])
			js->j.perc_random[d] = v[d];
	return 0;
}

/* One direction's zones "A/S:A/S..." (after "zoned:" or "zoned_abs:"):
 * S is a percentage of the region, or for zoned_abs a size; an empty S
 * on the last zone takes the rest of the region (for zoned_abs its
 * size_bytes stays 0 until the job's size is known). */
static int parse_zones(struct parser *p, const struct jopt *o, char *list,
		       int abs, struct ssd_zone *z, int *nout)
{
	int n = 0, rest = 0;
	double asum = 0, ssum = 0;
	char *save = NULL;
	for (char *e = strtok_r(list, ":", &save); e;
	     e = strtok_r(NULL, ":", &save)) {
		if (n == SSD_JOB_MAX_ZONES)
			return opt_err(p, o, SSD_ERANGE,
				       "more than %d zones", SSD_JOB_MAX_ZONES);
		if (rest)
			return opt_err(p, o, SSD_EPARSE,
				       "only the last zone may leave its size "
				       "empty");
		char *slash = strchr(e, '/');
		if (!slash)
			return opt_err(p, o, SSD_EPARSE,
				       "zone '%.64s' is not ACCESS%%/%s",
				       ssd_strtrim(e), abs ? "SIZE" : "SIZE%");
		*slash = 0;
		char *a = ssd_strtrim(e), *s = ssd_strtrim(slash + 1);
		memset(&z[n], 0, sizeof z[n]);
		if (ssd_parse_double(a, &z[n].access_pct))
			return opt_err(p, o, SSD_EPARSE,
				       "zone '%.32s/%.32s': '%.32s' is not a "
				       "percentage", a, s, a);
		if (z[n].access_pct < 0 || z[n].access_pct > 100)
			return opt_err(p, o, SSD_ERANGE,
				       "zone '%.32s/%.32s' is out of range",
				       a, s);
		if (!*s) {
			rest = 1;
		} else if (abs) {
			int rc = job_size(p, s, &z[n].size_bytes);
			if (rc == SSD_EPARSE)
				return opt_err(p, o, rc,
					       "zone '%.32s/%.32s': '%.32s' is "
					       "not a size", a, s, s);
			if (rc)
				return opt_err(p, o, rc,
					       "zone '%.32s/%.32s': the size "
					       "is too large", a, s);
			if (!z[n].size_bytes)
				return opt_err(p, o, SSD_ERANGE,
					       "zone '%.32s/%.32s': the size "
					       "is 0", a, s);
			ssum += (double)z[n].size_bytes;
		} else {
			if (ssd_parse_double(s, &z[n].size_pct))
				return opt_err(p, o, SSD_EPARSE,
					       "zone '%.32s/%.32s' is not "
					       "ACCESS%%/SIZE%%", a, s);
			if (z[n].size_pct <= 0 || z[n].size_pct > 100)
				return opt_err(p, o, SSD_ERANGE,
					       "zone '%.32s/%.32s' is out of "
					       "range", a, s);
			ssum += z[n].size_pct;
		}
		asum += z[n].access_pct;
		n++;
	}
	if (!n)
		return opt_err(p, o, SSD_EPARSE, "no zones after '%s:'",
			       abs ? "zoned_abs" : "zoned");
	if (asum < 100 - 1e-9 || asum > 100 + 1e-9)
		return opt_err(p, o, SSD_ERANGE,
			       "zone access percentages add up to %g, not 100",
			       asum);
	if (!abs && ssum > 100 + 1e-9)
		return opt_err(p, o, SSD_ERANGE,
			       "zone size percentages add up to %g, more "
			       "than 100", ssum);
	if (!abs && rest) {
		if (ssum >= 100 - 1e-9)
			return opt_err(p, o, SSD_ERANGE,
				       "the zones before the last cover the "
				       "whole region: the last has no room");
		z[n - 1].size_pct = 100 - ssum;
	}
	*nout = n;
	return 0;
}

/* zoned:LIST[,LIST[,LIST]]: zones per direction as bs=R,W,T. */
static int parse_zoned(struct parser *p, struct jstate *js,
		       const struct jopt *o, char *arg, int abs)
{
	char *f[SSD_DDIR_N];
	struct ssd_zone z[SSD_DDIR_N][SSD_JOB_MAX_ZONES];
	int n[SSD_DDIR_N] = {0};
	int rc = split_ddir(p, o, arg, f);
	for (int d = 0; !rc && d < SSD_DDIR_N; d++) {
		if (!f[d]) {
			/* no zones: uniform over the whole region */
			memset(&z[d][0], 0, sizeof z[d][0]);
			z[d][0].access_pct = 100;
			z[d][0].size_pct = abs ? 0 : 100;
			n[d] = 1;
			continue;
		}
		if (d && f[d] == f[d - 1]) {
			memcpy(z[d], z[d - 1], sizeof z[d]);
			n[d] = n[d - 1];
			continue;
		}
		rc = parse_zones(p, o, f[d], abs, z[d], &n[d]);
	}
	if (rc)
		return rc;
	for (int d = 0; d < SSD_DDIR_N; d++) {
		memcpy(js->j.zones[d], z[d], (size_t)n[d] * sizeof z[d][0]);
		js->j.nzones[d] = n[d];
	}
	js->j.dist = abs ? SSD_DIST_ZONED_ABS : SSD_DIST_ZONED;
	js->j.dist_param = 0;
	js->j.dist_center = -1;
	return 0;
}

/* random_distribution=sequence:B,B,... (fio): up to 64 block indices. */
static int parse_sequence(struct parser *p, struct jstate *js,
			  const struct jopt *o, char *arg)
{
	struct ssd_job *j = &js->j;
	if (!arg || !*arg)
		return opt_err(p, o, SSD_EPARSE,
			       "'sequence' needs its block indices");
	uint32_t n = 0;
	char *rest = arg;
	for (char *e; (e = strsep(&rest, ",")) != NULL;) {
		e = ssd_strtrim(e);
		uint64_t v;
		if (n >= SSD_JOB_MAX_SEQUENCE)
			return opt_err(p, o, SSD_ERANGE,
				       "more than %d block indices",
				       SSD_JOB_MAX_SEQUENCE);
		if (ssd_parse_u64(e, &v) || v > UINT32_MAX)
			return opt_err(p, o, SSD_EPARSE,
				       "'%.64s' is not a block index", e);
		j->sequence[n++] = (uint32_t)v;
	}
	j->nsequence = n;
	j->dist = SSD_DIST_SEQUENCE;
	j->dist_param = 0;
	j->dist_center = -1;
	return 0;
}

static int fn_dist(struct parser *p, struct jstate *js, const struct jopt *o,
		   char *val)
{
	char *colon = strchr(val, ':');
	char *arg = NULL;
	if (colon) {
		*colon = 0;
		arg = ssd_strtrim(colon + 1);
	}
	char *kind = ssd_strtrim(val);
	if (!strcmp(kind, "zoned") || !strcmp(kind, "zoned_abs")) {
		if (!arg || !*arg)
			return opt_err(p, o, SSD_EPARSE,
				       "'%s' needs its zones", kind);
		return parse_zoned(p, js, o, arg, kind[5] == '_');
	}
	if (!strcmp(kind, "sequence"))
		return parse_sequence(p, js, o, arg);
	if (strchr(kind, ',') || (arg && strchr(arg, ',')))
		return opt_err(p, o, SSD_EPARSE,
			       "only zoned and zoned_abs take values per "
			       "direction (READ,WRITE,TRIM)");
	if (!strcmp(kind, "random")) {
		if (arg)
			return opt_err(p, o, SSD_EPARSE,
				       "'random' takes no parameter");
		js->j.dist = SSD_DIST_RANDOM;
		js->j.dist_param = 0;
		js->j.dist_center = -1;
		return 0;
	}
	int dist;
	double v;
	if (!strcmp(kind, "zipf")) {
		dist = SSD_DIST_ZIPF;
		v = 1.1;               /* fio's default theta */
	} else if (!strcmp(kind, "pareto")) {
		dist = SSD_DIST_PARETO;
		v = 0.2;               /* fio's default h */
	} else if (!strcmp(kind, "normal") || !strcmp(kind, "gauss")) {
		dist = SSD_DIST_NORMAL;
		v = -1;                /* must be given */
	} else {
		return opt_err(p, o, SSD_EPARSE,
			       "unknown distribution '%.64s'", kind);
	}
	double center = -1;
	if (arg) {
		char *c2 = strchr(arg, ':');
		if (c2) {
			*c2 = 0;
			char *cs = ssd_strtrim(c2 + 1);
			if (ssd_parse_double(cs, &center))
				return opt_err(p, o, SSD_EPARSE,
					       "center '%.64s' is not a number",
					       cs);
			if (center < 0 || center > 1)
				return opt_err(p, o, SSD_ERANGE,
					       "center %g is out of range "
					       "(0 <= center <= 1)", center);
		}
		arg = ssd_strtrim(arg);
		if (ssd_parse_double(arg, &v))
			return opt_err(p, o, SSD_EPARSE,
				       "'%.64s' is not a number", arg);
	}
	if (dist == SSD_DIST_ZIPF && (v <= 0 || v > 100))
		return opt_err(p, o, SSD_ERANGE,
			       "zipf theta %g is out of range, 0 < theta <= "
			       "100", v);
	if (dist == SSD_DIST_PARETO && (v <= 0 || v >= 1))
		return opt_err(p, o, SSD_ERANGE,
			       "pareto h %g is out of range (0 < h < 1)", v);
	if (dist == SSD_DIST_NORMAL && !arg)
		return opt_err(p, o, SSD_EPARSE,
			       "'%s' needs its deviation (%s:D)", kind, kind);
	if (dist == SSD_DIST_NORMAL && (v <= 0 || v >= 100))
		return opt_err(p, o, SSD_ERANGE,
			       "deviation %g is out of range (0 < D < 100, "
			       "percent of the region)", v);
	js->j.dist = dist;
	js->j.dist_param = v;
	js->j.dist_center = center;
	return 0;
}

static int fn_number_ios(struct parser *p, struct jstate *js,
			 const struct jopt *o, char *val)
{
	uint64_t v;
	int rc = job_size(p, val, &v);  /* fio takes k/m/g suffixes */
	if (rc == SSD_EPARSE)
		return opt_err(p, o, rc, "'%.64s' is not an integer", val);
	if (rc || v > JOB_IOS_MAX)
		return opt_err(p, o, SSD_ERANGE, "%.64s is out of range", val);
	js->j.number_ios = v;
	return 0;
}

static int fn_name(struct parser *p, struct jstate *js, const struct jopt *o,
		   char *val)
{
	if (strlen(val) >= sizeof js->j.name)
		return opt_err(p, o, SSD_ERANGE, "name is too long");
	/* In [global] the name has no effect: each job takes its section's
	 * name when it starts (fio does the same). */
	snprintf(js->j.name, sizeof js->j.name, "%s", val);
	return 0;
}

static int fn_randseed(struct parser *p, struct jstate *js,
		       const struct jopt *o, char *val)
{
	uint64_t v;
	int rc = ssd_parse_u64(val, &v);
	if (rc == SSD_EPARSE)
		return opt_err(p, o, rc, "'%.64s' is not an integer", val);
	if (rc)
		return opt_err(p, o, rc, "%.64s is out of range", val);
	js->j.randseed = v;
	js->j.has_randseed = 1;
	return 0;
}

/* ---- pacing and the order of jobs ---- */

/* "R,W,T" as fio reads per-direction values: one value is all three
 * directions; with commas an empty entry leaves its direction unlimited
 * ("500k," limits reads only, ",500k" writes only). */
static int parse_per_dir(struct parser *p, const struct jopt *o, char *val,
			 int sizes, uint64_t out[SSD_DDIR_N])
{
	uint64_t v[SSD_DDIR_N] = {0, 0, 0};
	int n = 0, commas = strchr(val, ',') != NULL;
	char *s = val;
	for (;;) {
		char *comma = strchr(s, ',');
		if (comma)
			*comma = 0;
		char *e = ssd_strtrim(s);
		if (n == SSD_DDIR_N)
			return opt_err(p, o, SSD_EPARSE,
				       "more than three values");
		if (*e) {
			int rc = sizes ? job_size(p, e, &v[n])
				       : ssd_parse_u64(e, &v[n]);
			if (rc == SSD_EPARSE)
				return opt_err(p, o, rc, "'%.64s' is not %s", e,
					       sizes ? "a size" : "an integer");
			if (rc || v[n] > (sizes ? (1ull << 50) : (1ull << 32)))
				return opt_err(p, o, SSD_ERANGE,
					       "%.64s is out of range", e);
		}
		n++;
		if (!comma)
			break;
		s = comma + 1;
	}
	if (!commas)
		v[1] = v[2] = v[0];
	memcpy(out, v, sizeof v);
	return 0;
}

static int fn_rate(struct parser *p, struct jstate *js, const struct jopt *o,
		   char *val)
{
	uint64_t *f = (uint64_t *)((char *)&js->j + o->off);
	return parse_per_dir(p, o, val, o->size, f);
}

/* startdelay=T or startdelay=LOW-HIGH (fio's irange of times). */
static int fn_startdelay(struct parser *p, struct jstate *js,
			 const struct jopt *o, char *val)
{
	char *dash = strchr(val, '-');
	char *hi = NULL;
	if (dash) {
		*dash = 0;
		hi = ssd_strtrim(dash + 1);
	}
	char *lo = ssd_strtrim(val);
	int64_t a, b;
	const char *at = lo;          /* the time a message is about */
	int rc = ssd_parse_time(lo, SSD_S, &a);
	b = a;
	if (!rc && hi) {
		at = hi;
		rc = ssd_parse_time(hi, SSD_S, &b);
	}
	if (rc == SSD_EPARSE)
		return opt_err(p, o, rc, "'%.64s' is not a time or a range",
			       at);
	if (rc || a > JOB_TIME_MAX || b > JOB_TIME_MAX)
		return opt_err(p, o, SSD_ERANGE, "%.64s is too long, more than %.0f "
			       "years of simulated time",
			       !rc && a > JOB_TIME_MAX ? lo : at,
			       floor(years_of((double)JOB_TIME_MAX)));
	if (b < a)
		return opt_err(p, o, SSD_ERANGE,
			       "the range ends before it starts");
	js->j.startdelay = a;
	js->j.startdelay_hi = b;
	return 0;
}

static int fn_wait_for(struct parser *p, struct jstate *js,
		       const struct jopt *o, char *val)
{
	if (strlen(val) >= sizeof js->j.wait_for)
		return opt_err(p, o, SSD_ERANGE, "name is too long");
	snprintf(js->j.wait_for, sizeof js->j.wait_for, "%s", val);
	return 0;
}

/* read_iolog=FILE: checked here, that a job file naming a missing or
 * malformed trace fails as it is read (its first records; the rest is
 * read as the job runs). */
static int fn_read_iolog(struct parser *p, struct jstate *js,
			 const struct jopt *o, char *val)
{
	if (!*val || strlen(val) >= sizeof js->j.read_iolog)
		return opt_err(p, o, SSD_ERANGE, "'%s' is %s", val,
			       *val ? "too long a name" : "empty");
	/* a trace an earlier job of the file records (write_iolog) is there
	 * only once that job has run: it is read then */
	for (int i = 0; i < p->njobs; i++)
		if (!strcmp(p->jobs[i].write_iolog, val)) {
			snprintf(js->j.read_iolog, sizeof js->j.read_iolog, "%s", val);
			return 0;
		}
	struct ssd_trace *t; /* NULL when it does not open */
	char err[512];
	int rc = ssd_trace_open(val, SSD_TRACE_AUTO, &t, err, sizeof err);
	struct ssd_trace_rec r;
	for (int i = 0; !rc && i < 16; i++) {
		int k = ssd_trace_next(t, &r);
		if (k < 0) {
			snprintf(err, sizeof err, "%s", ssd_trace_error(t));
			rc = k;
		}
		if (k <= 0)
			break;
	}
	ssd_trace_close(t);
	if (rc)
		return opt_err(p, o, rc == SSD_ENOENT ? SSD_EIO : rc, "%s", err);
	snprintf(js->j.read_iolog, sizeof js->j.read_iolog, "%s", val);
	return 0;
}

static int fn_write_iolog(struct parser *p, struct jstate *js,
			  const struct jopt *o, char *val)
{
	if (!*val || strlen(val) >= sizeof js->j.write_iolog)
		return opt_err(p, o, SSD_ERANGE, "'%s' is %s", val,
			       *val ? "too long a name" : "empty");
	snprintf(js->j.write_iolog, sizeof js->j.write_iolog, "%s", val);
	return 0;
}

static int fn_replay_align(struct parser *p, struct jstate *js,
			   const struct jopt *o, char *val)
{
	uint64_t v;
	if (ssd_parse_size(val, &v) || !v || v > (1u << 31) || (v & (v - 1)))
		return opt_err(p, o, SSD_ERANGE, "'%s' is not a power of 2", val);
	js->j.replay_align = (uint32_t)v;
	return 0;
}

static int fn_replay_skip(struct parser *p, struct jstate *js,
			  const struct jopt *o, char *val)
{
	unsigned m = 0;
	for (char *save = NULL, *w = strtok_r(val, ",", &save); w;
	     w = strtok_r(NULL, ",", &save)) {
		if (!strcmp(w, "read"))
			m |= 1u << SSD_TOP_READ;
		else if (!strcmp(w, "write"))
			m |= 1u << SSD_TOP_WRITE;
		else if (!strcmp(w, "trim"))
			m |= 1u << SSD_TOP_TRIM;
		else if (!strcmp(w, "sync"))
			m |= 1u << SSD_TOP_SYNC | 1u << SSD_TOP_DATASYNC;
		else
			return opt_err(p, o, SSD_EPARSE, "'%s' is not an action", w);
	}
	js->j.replay_skip = m;
	return 0;
}

/* latency_percentile=P: a percentage 0..100 (a trailing '%' is taken,
 * as fio). */
static int fn_latency_percentile(struct parser *p, struct jstate *js,
				 const struct jopt *o, char *val)
{
	size_t n = strlen(val);
	char num[64];
	if (n && val[n - 1] == '%')
		n--;
	if (n >= sizeof num)
		return opt_err(p, o, SSD_EPARSE, "'%.64s' is not a number", val);
	memcpy(num, val, n);
	num[n] = 0;
	double v;
	if (ssd_parse_double(ssd_strtrim(num), &v))
		return opt_err(p, o, SSD_EPARSE, "'%.64s' is not a number", val);
	if (!(v >= 0.0 && v <= 100.0))
		return opt_err(p, o, SSD_ERANGE, "%.64s is out of range", val);
	js->j.latency_percentile = v;
	return 0;
}

/* steadystate=CRITERION:LIMIT[%] (fio's iops, iops_slope, bw, bw_slope,
 * lat, lat_slope; a bandwidth limit is a size per second). */
static int fn_steadystate(struct parser *p, struct jstate *js,
			  const struct jopt *o, char *val)
{
	static const struct {
		const char *name;
		int state;
	} crit[] = {
		{"iops", SSD_SS_IOPS},
		{"iops_slope", SSD_SS_IOPS | SSD_SS_SLOPE},
		{"bw", SSD_SS_BW},
		{"bw_slope", SSD_SS_BW | SSD_SS_SLOPE},
		{"lat", SSD_SS_LAT},
		{"lat_slope", SSD_SS_LAT | SSD_SS_SLOPE},
	};
	char *colon = strchr(val, ':');
	if (!colon)
		return opt_err(p, o, SSD_EPARSE,
			       "'%.64s' has no limit after ':'", val);
	*colon = 0;
	char *name = ssd_strtrim(val), *lim = ssd_strtrim(colon + 1);
	int state = 0;
	for (size_t i = 0; i < sizeof crit / sizeof crit[0]; i++)
		if (!strcmp(name, crit[i].name))
			state = crit[i].state;
	if (!state)
		return opt_err(p, o, SSD_EPARSE, "unknown criterion '%.64s'",
			       name);
	size_t n = strlen(lim);
	double v;
	if (n && lim[n - 1] == '%') {
		lim[n - 1] = 0;
		lim = ssd_strtrim(lim);
		if (ssd_parse_double(lim, &v))
			return opt_err(p, o, SSD_EPARSE,
				       "'%.64s%%' is not a percentage", lim);
		state |= SSD_SS_PCT;
	} else if (state & SSD_SS_BW) {
		uint64_t b;
		if (ssd_parse_size(lim, &b))
			return opt_err(p, o, SSD_EPARSE,
				       "'%.64s' is not a size per second", lim);
		v = (double)b;
	} else if (ssd_parse_double(lim, &v)) {
		return opt_err(p, o, SSD_EPARSE, "'%.64s' is not a number",
			       lim);
	}
	if (v < 0)
		return opt_err(p, o, SSD_ERANGE, "a negative limit");
	js->j.ss_state = state;
	js->j.ss_limit = v;
	return 0;
}


/* OT_NOEFFECT checks: the value must still make sense for fio, so that a
 * typo is caught here as fio would catch it.  They are generous where
 * fio is (any text for names and paths) and strict where fio is (a
 * boolean is a boolean, a percentage is 0..100). */
static int ne_text(struct parser *p, struct jstate *js, const struct jopt *o,
		   char *val)
{
	return 0;
}

static int ne_bool(struct parser *p, struct jstate *js, const struct jopt *o,
		   char *val)
{
	int b;
	if (ssd_parse_bool(val, &b))
		return opt_err(p, o, SSD_EPARSE, "'%.64s' is not a boolean",
			       val);
	return 0;
}

/* One unsigned integer within [o->min, o->max] (max 0: no limit). */
static int ne_uint_one(struct parser *p, const struct jopt *o, char *val)
{
	uint64_t v;
	int rc = ssd_parse_u64(val, &v);
	if (rc == SSD_EPARSE)
		return opt_err(p, o, rc, "'%.64s' is not an integer", val);
	if (rc || v < o->min || (o->max && v > o->max))
		return opt_err(p, o, SSD_ERANGE, "%.64s is out of range", val);
	return 0;
}

static int ne_uint(struct parser *p, struct jstate *js, const struct jopt *o,
		   char *val)
{
	return ne_uint_one(p, o, val);
}

/* "int[,int][,int]": one value per direction (cmdprio_percentage...). */
static int ne_uint_list(struct parser *p, struct jstate *js,
			const struct jopt *o, char *val)
{
	char *save = NULL;
	int n = 0;
	for (char *e = strtok_r(val, ",", &save); e;
	     e = strtok_r(NULL, ",", &save), n++) {
		int rc = ne_uint_one(p, o, ssd_strtrim(e));
		if (rc)
			return rc;
	}
	if (!n || n > 3)
		return opt_err(p, o, SSD_EPARSE, "%d values", n);
	return 0;
}

/* A signed integer in [-20, 19]: nice. */
static int ne_nice(struct parser *p, struct jstate *js, const struct jopt *o,
		   char *val)
{
	const char *s = val[0] == '-' ? val + 1 : val;
	uint64_t v;
	if (!*s || ssd_parse_u64(s, &v))
		return opt_err(p, o, SSD_EPARSE, "'%.64s' is not an integer",
			       val);
	if (val[0] == '-' ? v > 20 : v > 19)
		return opt_err(p, o, SSD_ERANGE, "%.64s is out of range", val);
	return 0;
}

static int ne_size(struct parser *p, struct jstate *js, const struct jopt *o,
		   char *val)
{
	uint64_t v;
	int rc = job_size(p, val, &v);
	if (rc == SSD_EPARSE)
		return opt_err(p, o, rc, "'%.64s' is not a size", val);
	if (rc)
		return opt_err(p, o, rc, "%.64s is too large", val);
	return 0;
}

/* One of the words in o->value ("a, b, c"); for the options marked
 * below, a ":ARGUMENT" may follow (iomem=mmap:FILE, numa_mem_policy=
 * bind:0-1, lockfile=readwrite:4). */
static int ne_choice(struct parser *p, struct jstate *js,
		     const struct jopt *o, char *val)
{
	char word[64];
	size_t n = strcspn(val, ":");
	if (val[n] && !(o->min & 1))
		n = strlen(val);
	snprintf(word, sizeof word, "%.*s", (int)(n < 63 ? n : 63), val);
	const char *c = o->value;
	size_t wl = strlen(word);
	while (n < 64 && (c = strstr(c, word)) != NULL) {
		int start = c == o->value || c[-1] == ' ';
		int end = c[wl] == ',' || c[wl] == 0 || c[wl] == ' ';
		if (start && end)
			return 0;
		c += wl ? wl : 1;
	}
	return opt_err(p, o, SSD_EPARSE, "unknown value '%.64s'", val);
}
#define NE_ARG 1 /* .min of ne_choice rows: ":ARGUMENT" allowed */

/* A CPU list: N, N-M, comma-separated (cpus_allowed, numa_cpu_nodes). */
static int ne_cpus(struct parser *p, struct jstate *js, const struct jopt *o,
		   char *val)
{
	for (const char *c = val; *c; c++)
		if (!isdigit((unsigned char)*c) && !strchr(",-^ ", *c))
			return opt_err(p, o, SSD_EPARSE,
				       "'%.64s' is not a CPU list", val);
	if (!isdigit((unsigned char)val[0]) && val[0] != '^')
		return opt_err(p, o, SSD_EPARSE, "'%.64s' is not a CPU list",
			       val);
	return 0;
}

/* direct and buffered: both values are accepted; direct=0 or
 * buffered=1 goes through the machine's page cache, or is noted in the
 * report when the machine has none (every I/O then reaches the drive). */
static int ne_direct(struct parser *p, struct jstate *js,
		     const struct jopt *o, char *val)
{
	int b;
	if (ssd_parse_bool(val, &b))
		return opt_err(p, o, SSD_EPARSE, "'%.64s' is not a boolean",
			       val);
	js->j.buffered = strcmp(o->name, "direct") == 0 ? !b : b;
	js->j.direct = !js->j.buffered;
	return 0;
}

/* kb_base: 1024 or 1000 (fio's two; the job's sizes parse with it). */
static int fn_kb_base(struct parser *p, struct jstate *js,
		      const struct jopt *o, char *val)
{
	uint64_t v;
	if (ssd_parse_u64(val, &v) || (v != 1024 && v != 1000))
		return opt_err(p, o, SSD_EPARSE, "'%.64s' is not a base", val);
	js->kb_base = (unsigned)v;
	p->kb_base = (unsigned)v;
	return 0;
}

/* ---- data verification ---- */

/* verify=: the names fio accepts.  Each checksum means "check the data"
 * on the simulated drive; null pretends (no check), 0 turns it off. */
static int fn_verify(struct parser *p, struct jstate *js,
		     const struct jopt *o, char *val)
{
	static const char *const names[] = {
		"md5", "crc64", "crc32c", "crc32c-intel", "crc32", "crc16",
		"crc7", "xxhash", "sha1", "sha256", "sha512", "sha3-224",
		"sha3-256", "sha3-384", "sha3-512", "meta", "pattern",
		"pattern_hdr", "null"};
	if (!strcmp(val, "0")) {
		js->j.verify = SSD_VERIFY_NONE;
		js->j.verify_name[0] = 0;
		return 0;
	}
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (strcmp(val, names[i]))
			continue;
		js->j.verify = strcmp(val, "null") ? SSD_VERIFY_DATA
						   : SSD_VERIFY_NULL;
		snprintf(js->j.verify_name, sizeof js->j.verify_name, "%s",
			 val);
		return 0;
	}
	return opt_err(p, o, SSD_EPARSE, "unknown verify method '%.64s'", val);
}

/* A count of blocks (verify_backlog and the like): an integer, fio's
 * suffixes allowed. */
static int fn_blocks(struct parser *p, struct jstate *js,
		     const struct jopt *o, char *val)
{
	uint64_t v;
	int rc = job_size(p, val, &v);
	if (rc == SSD_EPARSE)
		return opt_err(p, o, rc, "'%.64s' is not an integer", val);
	if (rc || v > UINT32_MAX)
		return opt_err(p, o, SSD_ERANGE, "%.64s is out of range", val);
	*(uint64_t *)((char *)&js->j + o->off) = v;
	return 0;
}

/* A byte count with a lower bound (verify_interval, verify_offset). */
static int fn_vbytes(struct parser *p, struct jstate *js,
		     const struct jopt *o, char *val)
{
	uint64_t v;
	int rc = job_size(p, val, &v);
	if (rc == SSD_EPARSE)
		return opt_err(p, o, rc, "'%.64s' is not a size", val);
	if (rc || v < o->min || v > o->max)
		return opt_err(p, o, SSD_ERANGE, "%.64s is out of range", val);
	*(uint32_t *)((char *)&js->j + o->off) = (uint32_t)v;
	return 0;
}

/* verify_pattern: fio's pattern syntax -- a sequence of hex numbers
 * (0x...), decimal numbers, quoted strings and the %o offset format.
 * Checked, then unused: the drive keeps no data. */
static int ne_pattern(struct parser *p, struct jstate *js,
		      const struct jopt *o, char *val)
{
	const char *c = val;
	while (*c) {
		if (isspace((unsigned char)*c) || *c == ',') {
			c++;
		} else if (c[0] == '0' && (c[1] == 'x' || c[1] == 'X')) {
			const char *d = c + 2;
			while (isxdigit((unsigned char)*d))
				d++;
			if (d == c + 2)
				return opt_err(p, o, SSD_EPARSE,
					       "'0x' without hex digits in "
					       "'%.64s'", val);
			c = d;
		} else if (isdigit((unsigned char)*c) ||
			   (*c == '-' && isdigit((unsigned char)c[1]))) {
			c++;
			while (isdigit((unsigned char)*c))
				c++;
		} else if (*c == '"' || *c == '\'') {
			const char *q = strchr(c + 1, *c);
			if (!q)
				return opt_err(p, o, SSD_EPARSE,
					       "unterminated string in "
					       "'%.64s'", val);
			c = q + 1;
		} else if (c[0] == '%' && c[1] == 'o') {
			c += 2;
		} else {
			return opt_err(p, o, SSD_EPARSE,
				       "'%.32s' is not part of a pattern", c);
		}
	}
	return 0;
}

/* ---- files and regions: values ---- */

static int fn_filename(struct parser *p, struct jstate *js,
		       const struct jopt *o, char *val)
{
	size_t n = strlen(val);
	if (n >= sizeof js->filename)
		return opt_err(p, o, SSD_ERANGE, "the list is too long");
	/* Names are checked when they are split (split_names). */
	if (val[n - 1] == ':' && (n < 2 || val[n - 2] != '\\'))
		return opt_err(p, o, SSD_EPARSE, "empty file name after ':'");
	if (val[0] == ':' || strstr(val, "::"))
		return opt_err(p, o, SSD_EPARSE, "empty file name in the list");
	memcpy(js->filename, val, n + 1);
	return 0;
}

static int fn_filename_format(struct parser *p, struct jstate *js,
			      const struct jopt *o, char *val)
{
	if (strlen(val) >= sizeof js->filename_format)
		return opt_err(p, o, SSD_ERANGE, "the format is too long");
	snprintf(js->filename_format, sizeof js->filename_format, "%s", val);
	return 0;
}

/* A size of a file: 1 B .. 2^62.  As in fio, the file's I/O covers its
 * whole blocks only (clone_region). */
static int parse_file_size(struct parser *p, const struct jopt *o,
			   const char *s, uint64_t *out)
{
	int rc = job_size(p, s, out);
	if (rc == SSD_EPARSE)
		return opt_err(p, o, rc, "'%.64s' is not a size", s);
	if (rc || *out > (1ULL << 62))
		return opt_err(p, o, SSD_ERANGE, "%.64s is too large", s);
	if (!*out)
		return opt_err(p, o, SSD_ERANGE, "0 is out of range");
	return 0;
}

static int fn_filesize(struct parser *p, struct jstate *js,
		       const struct jopt *o, char *val)
{
	if (strchr(val, ','))
		return opt_err(p, o, SSD_EUNSUP,
			       "per-direction values are not supported by "
			       "ssdlab");
	char *dash = strchr(val, '-');
	uint64_t lo, hi;
	if (dash)
		*dash = 0;
	int rc = parse_file_size(p, o, ssd_strtrim(val), &lo);
	if (rc)
		return rc;
	hi = lo;
	if (dash) {
		rc = parse_file_size(p, o, ssd_strtrim(dash + 1), &hi);
		if (rc)
			return rc;
		if (hi < lo)
			return opt_err(p, o, SSD_ERANGE,
				       "the range %.32s-%.32s is empty", val,
				       ssd_strtrim(dash + 1));
	}
	js->filesize_lo = lo;
	js->filesize_hi = hi;
	return 0;
}

static int fn_fsrv(struct parser *p, struct jstate *js, const struct jopt *o,
		   char *val)
{
	static const char *const names[] = {
		[SSD_FSRV_ROUNDROBIN] = "roundrobin",
		[SSD_FSRV_SEQUENTIAL] = "sequential",
		[SSD_FSRV_RANDOM] = "random", [SSD_FSRV_ZIPF] = "zipf",
		[SSD_FSRV_PARETO] = "pareto", [SSD_FSRV_NORMAL] = "normal"};
	char *colon = strchr(val, ':');
	char *arg = NULL;
	if (colon) {
		*colon = 0;
		arg = ssd_strtrim(colon + 1);
	}
	char *kind = ssd_strtrim(val);
	int t = -1;
	for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
		if (!strcmp(kind, names[i]))
			t = i;
	if (!strcmp(kind, "gauss"))
		t = SSD_FSRV_NORMAL;
	if (t < 0)
		return opt_err(p, o, SSD_EPARSE, "unknown type '%.64s'", kind);
	if (arg && !*arg)
		return opt_err(p, o, SSD_EPARSE, "empty value after ':'");
	uint32_t nr = 1;
	double v = t == SSD_FSRV_ZIPF ? 1.1 : t == SSD_FSRV_PARETO ? 0.2 : 0;
	if (arg && t <= SSD_FSRV_RANDOM) {
		uint64_t x;
		int rc = ssd_parse_u64(arg, &x);
		if (rc == SSD_EPARSE)
			return opt_err(p, o, rc, "'%.64s' is not an integer",
				       arg);
		if (rc || x < 1 || x > UINT32_MAX)
			return opt_err(p, o, SSD_ERANGE,
				       "%.64s I/Os per file is out of range",
				       arg);
		nr = (uint32_t)x;
	} else if (arg) {
		if (strchr(arg, ':'))
			return opt_err(p, o, SSD_EUNSUP,
				       "the ':CENTER' parameter is not "
				       "supported by ssdlab");
		if (ssd_parse_double(arg, &v))
			return opt_err(p, o, SSD_EPARSE,
				       "'%.64s' is not a number", arg);
	}
	if (t == SSD_FSRV_ZIPF && (!(v > 0) || v == 1 || v > 100))
		return opt_err(p, o, SSD_ERANGE,
			       "zipf theta %g is out of range (0 < theta <= "
			       "100, not 1)", v);
	if (t == SSD_FSRV_PARETO && !(v > 0 && v < 1))
		return opt_err(p, o, SSD_ERANGE,
			       "pareto h %g is out of range (0 < h < 1)", v);
	if (t == SSD_FSRV_NORMAL && !(v >= 0 && v < 100))
		return opt_err(p, o, SSD_ERANGE,
			       "normal deviation %g is out of range (0 <= dev "
			       "< 100)", v);
	js->j.file_service = t;
	js->j.file_service_nr = nr;
	js->j.file_service_param = v;
	return 0;
}

static int fn_openfiles(struct parser *p, struct jstate *js,
			const struct jopt *o, char *val)
{
	uint64_t v;
	int rc = ssd_parse_u64(val, &v);
	if (rc == SSD_EPARSE)
		return opt_err(p, o, rc, "'%.64s' is not an integer", val);
	if (rc || v < 1 || v > SSD_JOB_MAX_FILES)
		return opt_err(p, o, SSD_ERANGE, "%.64s is out of range", val);
	return 0;
}

static int fn_offset_increment(struct parser *p, struct jstate *js,
			       const struct jopt *o, char *val)
{
	struct region_val rv = {.given = 1};
	size_t n = strlen(val);
	if (val[n - 1] == '%') {
		val[n - 1] = 0;
		char *num = ssd_strtrim(val);
		if (ssd_parse_double(num, &rv.pct))
			return opt_err(p, o, SSD_EPARSE,
				       "'%.64s%%' is not a percentage", num);
		if (!(rv.pct >= 0 && rv.pct <= 100))
			return opt_err(p, o, SSD_ERANGE,
				       "%.64s%% is out of range", num);
		rv.is_pct = 1;
	} else {
		int rc = job_size(p, val, &rv.bytes);
		if (rc == SSD_EPARSE)
			return opt_err(p, o, rc, "'%.64s' is not a size", val);
		if (rc || rv.bytes > (1ULL << 62))
			return opt_err(p, o, SSD_ERANGE, "%.64s is too large",
				       val);
		if (rv.bytes % JOB_SECTOR)
			return opt_err(p, o, SSD_ERANGE,
				       "%.64s is not a multiple of 512 B, the "
				       "drive's sector", val);
	}
	js->incr = rv;
	return 0;
}

/* zonerange: a size, a multiple of 4 KiB (fio lets a zone's last block
 * cross its end, ssdlab would shorten it); offset_align, zoneskip,
 * zonesize: a multiple of the 512 B sector (0 only for zoneskip and
 * offset_align). */
static int fn_size64(struct parser *p, struct jstate *js, const struct jopt *o,
		     char *val)
{
	uint64_t v;
	int rc = job_size(p, val, &v);
	if (rc == SSD_EPARSE)
		return opt_err(p, o, rc, "'%.64s' is not a size", val);
	if (rc || v > (1ULL << 62))
		return opt_err(p, o, SSD_ERANGE, "%.64s is too large", val);
	if (v < o->min)
		return opt_err(p, o, SSD_ERANGE, "%.64s is too small", val);
	if (o->max && v % o->max)
		return opt_err(p, o, SSD_ERANGE,
			       "%.64s is not a multiple of %s", val,
			       o->max == JOB_PAGE ? "4 KiB"
						  : "512 B, the drive's sector");
	*(uint64_t *)((char *)&js->j + o->off) = v;
	return 0;
}

static int fn_zonemode(struct parser *p, struct jstate *js,
		       const struct jopt *o, char *val)
{
	if (!strcmp(val, "none"))
		js->j.zonemode = SSD_ZONEMODE_NONE;
	else if (!strcmp(val, "strided"))
		js->j.zonemode = SSD_ZONEMODE_STRIDED;
	else if (!strcmp(val, "zbd"))
		return opt_err(p, o, SSD_EUNSUP,
			       "'zbd' is not supported by ssdlab: the "
			       "simulated drive is a conventional block "
			       "device, not a zoned one");
	else
		return opt_err(p, o, SSD_EPARSE, "unknown zone mode '%.64s'",
			       val);
	return 0;
}

/* ---- errors, exits, percentiles and command modes ---- */

/* continue_on_error: fio's words, and its 0/1 aliases. */
static int fn_coe(struct parser *p, struct jstate *js, const struct jopt *o,
		  char *val)
{
	static const struct { const char *w; int bits; } m[] = {
		{"none", 0}, {"0", 0}, {"read", SSD_COE_READ},
		{"write", SSD_COE_WRITE},
		{"io", SSD_COE_READ | SSD_COE_WRITE},
		{"verify", SSD_COE_VERIFY}, {"all", SSD_COE_ALL},
		{"1", SSD_COE_ALL}};
	for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
		if (!strcmp(val, m[i].w)) {
			js->j.continue_on_error = m[i].bits;
			return 0;
		}
	return opt_err(p, o, SSD_EPARSE, "unknown value '%.64s'", val);
}

/* The errno names fio's ignore_error takes (those an I/O can return). */
static const struct { const char *name; int no; } errnames[] = {
	{"EPERM", EPERM}, {"ENOENT", ENOENT}, {"EINTR", EINTR},
	{"EIO", EIO}, {"ENXIO", ENXIO}, {"E2BIG", E2BIG},
	{"EBADF", EBADF}, {"EAGAIN", EAGAIN}, {"ENOMEM", ENOMEM},
	{"EACCES", EACCES}, {"EFAULT", EFAULT}, {"EBUSY", EBUSY},
	{"EEXIST", EEXIST}, {"ENODEV", ENODEV}, {"EINVAL", EINVAL},
	{"ENFILE", ENFILE}, {"EMFILE", EMFILE}, {"EFBIG", EFBIG},
	{"ENOSPC", ENOSPC}, {"ESPIPE", ESPIPE}, {"EROFS", EROFS},
	{"EPIPE", EPIPE}, {"ERANGE", ERANGE}, {"ENODATA", ENODATA},
	{"ETIME", ETIME}, {"ENOLINK", ENOLINK}, {"EPROTO", EPROTO},
	{"EBADMSG", EBADMSG}, {"EOVERFLOW", EOVERFLOW},
	{"EILSEQ", EILSEQ}, {"EOPNOTSUPP", EOPNOTSUPP},
	{"ETIMEDOUT", ETIMEDOUT}, {"ECANCELED", ECANCELED},
	{"EDQUOT", EDQUOT}, {"EREMOTEIO", EREMOTEIO},
	{"EMEDIUMTYPE", EMEDIUMTYPE}, {"ENOMEDIUM", ENOMEDIUM},
	{"EUCLEAN", EUCLEAN}, {"ENOTSUP", ENOTSUP},
	{"EWOULDBLOCK", EWOULDBLOCK}, {"EDEADLK", EDEADLK},
	{"ENOLCK", ENOLCK}, {"ENOSYS", ENOSYS}, {"ENOTBLK", ENOTBLK},
	{"ETXTBSY", ETXTBSY}, {"ENOTTY", ENOTTY}, {"ECONNRESET", ECONNRESET},
};

/* ignore_error=READ_LIST,WRITE_LIST,VERIFY_LIST, each "E:E:..." of
 * errno names or numbers (fio's): a list replaces the errors the job
 * goes on after for that kind and turns continue_on_error on for it. */
static int fn_ignore_error(struct parser *p, struct jstate *js,
			   const struct jopt *o, char *val)
{
	struct ssd_job *j = &js->j;
	char *rest = val;
	int kind = 0;
	static const int bit[3] = {SSD_COE_READ, SSD_COE_WRITE,
				   SSD_COE_VERIFY};
	for (char *list; (list = strsep(&rest, ",")) != NULL; kind++) {
		if (kind >= 3)
			return opt_err(p, o, SSD_EPARSE,
				       "more than three lists");
		uint32_t *dst = j->ignore_error[kind];
		int n = 0;
		char *lr = list;
		for (char *e; (e = strsep(&lr, ":")) != NULL;) {
			e = ssd_strtrim(e);
			if (!*e)
				break; /* fio: an empty entry ends the list */
			long no = 0;
			if (e[0] == 'E') {
				for (size_t i = 0;
				     i < sizeof errnames / sizeof errnames[0];
				     i++)
					if (!strcmp(e, errnames[i].name))
						no = errnames[i].no;
			} else {
				char *end;
				int base = !strncasecmp(e, "0x", 2) ? 16 : 10;
				no = strtol(e, &end, base);
				if (*end)
					no = 0;
				if (no < 0)
					no = -no;
			}
			if (no <= 0 || no > 4095)
				return opt_err(p, o, SSD_EPARSE,
					       "unknown error '%.64s'", e);
			if (n >= SSD_JOB_MAX_IGNORE)
				return opt_err(p, o, SSD_ERANGE,
					       "more than %d errors in a list",
					       SSD_JOB_MAX_IGNORE);
			dst[n++] = (uint32_t)no;
		}
		if (n) {
			if (n < SSD_JOB_MAX_IGNORE)
				dst[n] = 0;
			j->continue_on_error |= bit[kind];
		}
	}
	return 0;
}

static int fn_exit_what(struct parser *p, struct jstate *js,
			const struct jopt *o, char *val)
{
	if (!strcmp(val, "group"))
		js->j.exit_what = SSD_EXIT_GROUP;
	else if (!strcmp(val, "stonewall"))
		js->j.exit_what = SSD_EXIT_STONEWALL;
	else if (!strcmp(val, "all"))
		js->j.exit_what = SSD_EXIT_ALL;
	else
		return opt_err(p, o, SSD_EPARSE, "unknown value '%.64s'", val);
	return 0;
}

static int fn_clat_percentiles(struct parser *p, struct jstate *js,
			       const struct jopt *o, char *val)
{
	int b = 1; /* a bare key means 1 */
	if (val && ssd_parse_bool(val, &b))
		return opt_err(p, o, SSD_EPARSE, "'%.64s' is not a boolean",
			       val);
	js->j.clat_percentiles_off = !b;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* percentile_list=P:P:... (fio's float list): up to 20 values in
 * 0..100; a 0 ends the list, as in fio.  They are reported in ascending
 * order, with as many digits after the point as the most precise one
 * was written with. */
static int fn_percentile_list(struct parser *p, struct jstate *js,
			      const struct jopt *o, char *val)
{
	struct ssd_job *j = &js->j;
	double v[SSD_JOB_MAX_PERCENTILES];
	uint32_t n = 0, prec = 0;
	int ended = 0;
	char *rest = val;
	for (char *e; (e = strsep(&rest, ":")) != NULL;) {
		e = ssd_strtrim(e);
		double x;
		if (n >= SSD_JOB_MAX_PERCENTILES)
			return opt_err(p, o, SSD_ERANGE,
				       "more than %d values",
				       SSD_JOB_MAX_PERCENTILES);
		if (ssd_parse_double(e, &x))
			return opt_err(p, o, SSD_EPARSE,
				       "'%.64s' is not a number", e);
		if (!(x >= 0.0 && x <= 100.0))
			return opt_err(p, o, SSD_ERANGE,
				       "%.64s is out of range", e);
		const char *dot = strchr(e, '.');
		if (dot) {
			uint32_t d = 0;
			while (isdigit((unsigned char)*++dot))
				d++;
			if (d > prec)
				prec = d;
		}
		if (x == 0.0)
			ended = 1;
		v[n++] = ended ? 0.0 : x;
	}
	uint32_t k = 0;
	while (k < n && v[k] != 0.0)
		k++;
	qsort(v, k, sizeof v[0], cmp_double);
	memcpy(j->percentile_list, v, k * sizeof v[0]);
	j->npercentiles = k;
	j->percentile_prec = prec;
	j->percentile_list_set = 1;
	return 0;
}

/* write_mode=MODE or MODE/PCT:MODE/PCT:... (io_uring_cmd): the command
 * each write becomes.  Percentages add up to 100; the ones left out
 * share what remains evenly (the first ones get the odd percents). */
static int fn_write_mode(struct parser *p, struct jstate *js,
			 const struct jopt *o, char *val)
{
	static const struct { const char *w; int mode; } m[] = {
		{"write", SSD_WMODE_WRITE}, {"zeroes", SSD_WMODE_ZEROES},
		{"uncor", SSD_WMODE_UNCOR}, {"verify", SSD_WMODE_VERIFY}};
	struct ssd_job *j = &js->j;
	int mode[16], pct[16], n = 0, sum = 0, unset = 0;
	char *rest = val;
	for (char *e; (e = strsep(&rest, ":")) != NULL; n++) {
		if (n >= 16)
			return opt_err(p, o, SSD_ERANGE, "more than 16 entries");
		char *slash = strchr(e, '/');
		if (slash)
			*slash = 0;
		char *w = ssd_strtrim(e);
		if (!strcmp(w, "zone_append"))
			return opt_err(p, o, SSD_EUNSUP,
				       "'zone_append' is not supported by "
				       "ssdlab: it needs a zoned drive "
				       "(zonemode=zbd), the simulated one is "
				       "conventional");
		mode[n] = -1;
		for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
			if (!strcmp(w, m[i].w))
				mode[n] = m[i].mode;
		if (mode[n] < 0)
			return opt_err(p, o, SSD_EPARSE, "unknown mode '%.64s'",
				       w);
		pct[n] = -1;
		char *ps = slash ? ssd_strtrim(slash + 1) : NULL;
		if (ps && *ps) {
			uint64_t v;
			if (ssd_parse_u64(ps, &v) || v > 100)
				return opt_err(p, o, SSD_ERANGE,
					       "percentage '%.64s' of '%s' is "
					       "not 0..100", ps, w);
			pct[n] = (int)v;
			sum += (int)v;
		} else {
			unset++;
		}
	}
	if (n == 1 && pct[0] < 0)
		pct[0] = 100, unset = 0, sum = 100;
	if (sum > 100 || (!unset && sum != 100))
		return opt_err(p, o, SSD_ERANGE,
			       "the percentages add up to %d, not 100", sum);
	int left = 100 - sum, share = unset ? left / unset : 0,
	    odd = unset ? left % unset : 0;
	memset(j->wmode_pct, 0, sizeof j->wmode_pct);
	for (int i = 0; i < n; i++) {
		int v = pct[i];
		if (v < 0)
			v = share + (odd-- > 0);
		j->wmode_pct[mode[i]] += (uint32_t)v;
	}
	j->wmode_set = j->wmode_pct[SSD_WMODE_WRITE] != 100;
	return 0;
}

/* sg_write_mode (sg engine): the SCSI command each write becomes. */
static int fn_sg_write_mode(struct parser *p, struct jstate *js,
			    const struct jopt *o, char *val)
{
	static const struct { const char *w; int mode; } m[] = {
		{"write", SSD_WMODE_WRITE}, {"write_same", SSD_WMODE_WRITE},
		{"same", SSD_WMODE_WRITE}, {"write_same_ndob", SSD_WMODE_WRITE},
		{"write_stream", SSD_WMODE_WRITE},
		{"write_and_verify", SSD_WMODE_WAV},
		{"verify", SSD_WMODE_WAV},
		{"verify_bytchk_00", SSD_WMODE_VERIFY},
		{"verify_bytchk_01", SSD_WMODE_VERIFY},
		{"verify_bytchk_11", SSD_WMODE_VERIFY}};
	struct ssd_job *j = &js->j;
	for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
		if (!strcmp(val, m[i].w)) {
			memset(j->wmode_pct, 0, sizeof j->wmode_pct);
			j->wmode_pct[m[i].mode] = 100;
			j->wmode_set = m[i].mode != SSD_WMODE_WRITE;
			return 0;
		}
	return opt_err(p, o, SSD_EPARSE, "unknown value '%.64s'", val);
}

/* ---- the option table ---- */

/* Groups of the options accepted without effect (OT_NOEFFECT rows keep
 * theirs in .idx), with the reason, for docs/jobfiles.md. */
enum { NEG_ENGINE, NEG_CACHE, NEG_FILES, NEG_CPU, NEG_CLOCK, NEG_BUFFERS,
       NEG_MEMORY, NEG_TRACE, NEG_OTHER, NEG_N };
static const struct { const char *title, *why; } ne_groups[NEG_N] = {
	[NEG_ENGINE] = {"The I/O engine and its options",
		"ssdlab is the engine: the simulated drive takes the I/Os "
		"directly, so the choice of a real engine and the options of "
		"fio's engines (io_uring, libaio, sg, network, RBD, HTTP, "
		"NFS, libblkio, xNVMe, exec, cpuio...) have nothing to act "
		"on.  Placement (fdp, dataplacement) and command priorities "
		"(cmdprio) are not modelled by the drive: every write goes to "
		"its write points, every command is served as it comes."},
	[NEG_CACHE] = {"The host page cache",
		"The page cache belongs to the machine, not to the job: with "
		"page_cache set in the drive file (docs/stack.md), direct=0 "
		"jobs (fio's default) read and write through it and direct=1 "
		"jobs bypass it; without one every I/O reaches the drive as "
		"with direct=1, and a job with direct=0 or buffered=1 says so "
		"in its report.  The cache's other knobs (invalidate, "
		"pre_read, fadvise) have no effect."},
	[NEG_FILES] = {"Files and the file system",
		"The target is the simulated drive itself, not a file in a "
		"file system: there is nothing to create, lay out, lock, "
		"allocate or unlink."},
	[NEG_CPU] = {"Host CPUs, scheduling and processes",
		"The host's CPUs, processes, priorities, NUMA nodes and "
		"cgroups are not modelled: I/O is submitted the moment a job "
		"is ready, at no CPU cost."},
	[NEG_CLOCK] = {"The clock and the cost of statistics",
		"The simulator's clock is exact and reading it costs nothing, "
		"so the knobs that trade accuracy for CPU time have nothing "
		"to save; every latency is still measured and reported."},
	[NEG_BUFFERS] = {"What the data buffers hold",
		"The simulated drive stores no data and neither compresses "
		"nor deduplicates it, so what the buffers hold does not "
		"change its timing."},
	[NEG_MEMORY] = {"Host memory",
		"Host memory for I/O buffers is not modelled."},
	[NEG_TRACE] = {"Reading a replayed trace",
		"A replayed trace (read_iolog) is always read a line at a time, "
		"in constant memory, which read_iolog_chunked asks of fio, and "
		"every file it names is replayed onto the job's region, which "
		"replay_redirect asks of fio."},
	[NEG_OTHER] = {"Descriptions, repeatability and report units",
		"These change nothing a simulated run measures."},
};

#define FIELD(f) .off = offsetof(struct ssd_job, f)
#define TIME_HELP_S "time; a bare number is seconds"
#define WORDS(...) .type = OT_WORD, .words = (const char *const[]){__VA_ARGS__, NULL}

static const struct jopt opts[] = {
	/* what the job does */
	{.name = "name", .type = OT_FN, .fn = fn_name,
	 .value = "text, 1..63 characters", .def = "the section name",
	 .help = "Job name in reports and default log prefixes; overrides "
		 "the section name (no effect in [global])."},
	{.name = "rw", .alias = "readwrite", .type = OT_FN, .fn = fn_rw,
	 .value = "read, write, trim, randread, randwrite, randtrim, rw, "
		  "readwrite, randrw, trimwrite, randtrimwrite; each with an "
		  "optional :N",
	 .def = "read",
	 .help = "I/O pattern: sequential or random reads, writes, trims, "
		 "a read/write mix (rw = readwrite: sequential mix), or "
		 "trimwrite/randtrimwrite: trim a block, then write the same "
		 "block (io_size and number_ios count the writes).  "
		 "Sequential pattern:SIZE adds SIZE (a multiple of 512 B) "
		 "after each I/O: write:8k leaves 8 KiB holes, read:-8k "
		 "walks backwards.  Random pattern:N takes a new random "
		 "offset every N I/Os (see rw_sequencer)."},
	{.name = "rwmixread", .type = OT_U32, FIELD(rwmixread), .min = 0,
	 .max = 100, .value = "integer 0..100", .def = "50",
	 .help = "Percent of reads in a mixed (rw, randrw) job; each I/O is "
		 "a read with this probability."},
	{.name = "rwmixwrite", .type = OT_FN, .fn = fn_rwmixwrite,
	 .value = "integer 0..100", .def = "50",
	 .help = "Percent of writes in a mixed job: sets rwmixread to 100 "
		 "minus this (the later of the two wins)."},
	{.name = "bs", .alias = "blocksize", .type = OT_FN, .fn = fn_bs_ddir,
	 FIELD(bs),
	 .value = "size, a multiple of 512 B, 512 B..128 MiB; or R,W,T per "
		  "direction",
	 .def = "4k",
	 .help = "Bytes per I/O.  R,W,T as fio: bs=8k,32k is 8k reads, "
		 "32k writes and trims; an empty field keeps the value "
		 "before (bs=,8k sets writes and trims only; bs=8k,32k, "
		 "leaves trims alone).  The drive works in 4 KiB pages: "
		 "smaller or unaligned sizes cost whole pages."},
	{.name = "bssplit", .type = OT_FN, .fn = fn_bssplit,
	 .value = "SIZE/PERCENT:SIZE/PERCENT:... (up to 64; an empty "
		  "percent shares the rest); or R,W,T lists",
	 .def = "none",
	 .help = "Block sizes drawn at random with these weights; overrides "
		 "bsrange and bs.  Percentages add up to 100.  "
		 "Comma-separated lists per direction as for bs."},
	{.name = "iodepth", .type = OT_U32, FIELD(iodepth), .min = 1,
	 .max = 65536, .value = "integer 1..65536", .def = "1",
	 .help = "I/Os each job instance keeps outstanding."},
	{.name = "size", .type = OT_REGION, .idx = RV_SIZE,
	 .value = "size, or N% of the drive capacity with 0 < N <= 100",
	 .def = "capacity - offset",
	 .help = "Length of the region the job works in, from offset.  "
		 "offset + size must fit on the drive.  As in fio, the I/O "
		 "covers whole blocks of the smallest block size: a size in "
		 "bytes that is not (size=1000000000 with 4 KiB blocks) is "
		 "cut down to whole blocks and the report says so.  A "
		 "percentage is rounded down to 4 KiB, and the default "
		 "(to the drive's end) covers the drive: the last I/O is "
		 "shortened if a whole block does not fit."},
	{.name = "io_size", .alias = "io_limit", .type = OT_REGION,
	 .idx = RV_IO_SIZE,
	 .value = "size, or N% of the job's size with N > 0",
	 .def = "size",
	 .help = "Bytes each job instance transfers before it ends; may be "
		 "larger than size (the region is covered again)."},
	{.name = "offset", .alias = "fileoffset", .type = OT_REGION, .idx = RV_OFFSET,
	 .value = "size, a multiple of the 512 B sector, or N% of the "
		  "drive capacity with 0 <= N < 100",
	 .def = "0",
	 .help = "Start of the job's region, bytes from the start of the "
		 "drive (a percentage is aligned up as offset_align says).  "
		 "Inside a 4 KiB page, every I/O straddles pages (a "
		 "misaligned partition: partial pages are read and merged)."},
	{.name = "runtime", .alias = "timeout", .type = OT_TIME, FIELD(runtime), .unit = SSD_S,
	 .value = TIME_HELP_S, .def = "0 (no limit)",
	 .help = "Simulated time after which the job stops, even if io_size "
		 "is not done; as in fio, ramp_time comes on top."},
	{.name = "time_based", .type = OT_BOOL, FIELD(time_based),
	 .value = "boolean; a bare key means 1", .def = "0",
	 .help = "Run for the whole runtime, going over the region again as "
		 "often as needed; needs runtime."},
	{.name = "ramp_time", .type = OT_TIME, FIELD(ramp_time), .unit = SSD_S,
	 .value = TIME_HELP_S, .def = "0",
	 .help = "Simulated time the job runs before anything is counted: "
		 "fio's figures and the drive's (the ssdlab section) both "
		 "cover the I/Os submitted after it."},
	{.name = "random_distribution", .type = OT_FN, .fn = fn_dist,
	 .value = "random, zipf[:THETA[:C]], pareto[:H[:C]], normal:D[:C] "
		  "(gauss), zoned:A/S:A/S:..., zoned_abs:A/SIZE:..., "
		  "sequence:B,B,...",
	 .def = "random",
	 .help = "Where random I/O lands: uniform; zipf (theta > 0, default "
		 "1.1); pareto (0 < h < 1, default 0.2); normal: a bell with "
		 "standard deviation D% of the region (0 < D < 100).  Ranks "
		 "of zipf, pareto and normal are scattered over the region "
		 "by a fixed permutation, as fio hashes them; the center C "
		 "(0..1) puts the most popular block at that fraction of "
		 "the region.  zoned: A% of the I/Os go to the next S% of "
		 "the region (A adds up to 100, S to at most 100; an empty "
		 "last S takes the rest); zoned_abs: the same with sizes.  "
		 "Zones per direction as bs: zoned:R,W,T lists, an empty one "
		 "is uniform.  sequence: up to 64 block indices (units of "
		 "the direction's smallest block size), each random I/O of a "
		 "direction the next one, over and over (fio; see "
		 "random_sequence_stride); each must lie inside the job's "
		 "region (with files, a block past a file's end ends that "
		 "file's pass)."},
	{.name = "norandommap", .type = OT_BOOL, FIELD(norandommap),
	 .value = "boolean; a bare key means 1", .def = "0",
	 .help = "Uniform random offsets are drawn with replacement.  "
		 "Without it each pass visits every block once."},
	{.name = "thinktime", .type = OT_TIME, FIELD(thinktime), .unit = SSD_US,
	 .value = "time; a bare number is microseconds", .def = "0",
	 .help = "Idle time after thinktime_blocks I/Os complete, before "
		 "issuing more: the job first waits for its I/Os in flight "
		 "(fio); the drive has the time for background work.  A "
		 "think time after the last I/O is part of the job; runtime "
		 "cuts one short."},
	{.name = "thinktime_blocks", .type = OT_U32, FIELD(thinktime_blocks),
	 .min = 1, .max = UINT32_MAX, .value = "integer >= 1", .def = "1",
	 .help = "I/Os between think times (see thinktime_blocks_type); "
		 "with thinktime_blocks_type=issue it caps the queue depth."},
	{.name = "fsync", .alias = "fdatasync", .type = OT_U32,
	 FIELD(fsync_every), .min = 0, .max = UINT32_MAX,
	 .value = "integer >= 0", .def = "0 (never)",
	 .help = "Issue a flush after every N writes; the job waits for it "
		 "(on a block device fsync and fdatasync both flush the "
		 "drive's write cache)."},
	{.name = "sync", .type = OT_BOOL, FIELD(sync_writes),
	 .value = "boolean; a bare key means 1", .def = "0",
	 .help = "Synchronous writes (O_SYNC): every write is sent with FUA "
		 "and completes only once its data is on NAND."},
	{.name = "stonewall", .alias = "wait_for_previous", .type = OT_BOOL,
	 FIELD(stonewall), .value = "boolean; a bare key means 1",
	 .def = "0",
	 .help = "Start only when every job above has ended (its last I/O "
		 "complete, and its last think time over)."},
	{.name = "numjobs", .type = OT_U32, FIELD(numjobs), .min = 1,
	 .max = 1024, .value = "integer 1..1024", .def = "1",
	 .help = "Clones of the job running side by side, each over the "
		 "whole region with its own random stream."},
	{.name = "group_reporting", .type = OT_BOOL, FIELD(group_reporting),
	 .value = "boolean; a bare key means 1", .def = "0",
	 .help = "Report the clones of a job as one."},
	{.name = "randseed", .type = OT_FN, .fn = fn_randseed,
	 .value = "integer", .def = "derived from the run seed",
	 .help = "Seed of the job's random stream."},
	{.name = "write_iops_log", .type = OT_LOG, FIELD(write_iops_log),
	 .size = sizeof(((struct ssd_job *)0)->write_iops_log),
	 .idx = LOG_IOPS,
	 .value = "file prefix; a bare key means the job's name",
	 .def = "none",
	 .help = "Write an IOPS log with this file prefix (fio: "
		 "PREFIX_iops.N.log)."},
	{.name = "write_bw_log", .type = OT_LOG, FIELD(write_bw_log),
	 .size = sizeof(((struct ssd_job *)0)->write_bw_log), .idx = LOG_BW,
	 .value = "file prefix; a bare key means the job's name",
	 .def = "none",
	 .help = "Write a bandwidth log with this file prefix (fio: "
		 "PREFIX_bw.N.log)."},
	{.name = "write_lat_log", .type = OT_LOG, FIELD(write_lat_log),
	 .size = sizeof(((struct ssd_job *)0)->write_lat_log), .idx = LOG_LAT,
	 .value = "file prefix; a bare key means the job's name",
	 .def = "none",
	 .help = "Write latency logs with this file prefix (fio: "
		 "PREFIX_lat.N.log, _clat, _slat)."},
	{.name = "log_avg_msec", .type = OT_I64, FIELD(log_avg_msec),
	 .min = 0, .max = 86400000, .value = "integer milliseconds",
	 .def = "0",
	 .help = "Average log entries over this window; 0 logs every I/O.  "
		 "At the job's end the latency logs write the last, partial "
		 "window once; the iops and bw logs keep whole windows only "
		 "(fio 3.33; docs/output.md)."},

	/* the I/O stream: sizes, offsets, patterns, files (more) */
	{.name = "filename", .type = OT_FN, .fn = fn_filename,
	 .value = "a path, or NAME:NAME:... (\\: for a colon in a name)",
	 .def = "the drive",
	 .help = "One name (a /dev/ path or any file) is the drive, as "
		 "before, unless filesize is given or another job lays the "
		 "name out as a file.  Several names are files: regions of "
		 "the drive laid out as a fresh file system would (each "
		 "contiguous, 4 KiB aligned, one after another from byte 0 "
		 "in the order the job file first names them); every job "
		 "naming a file works on the same region.  Overrides "
		 "nrfiles.  A list of /dev/ names is refused (one drive)."},
	{.name = "nrfiles", .alias = "nr_files", .type = OT_U32, FIELD(nrfiles), .min = 1,
	 .max = SSD_JOB_MAX_FILES, .value = "integer 1..524288", .def = "1",
	 .help = "Files of each clone when filename is not given, named by "
		 "filename_format (default: each clone its own files).  size "
		 "is split over them unless filesize is given.  At most 524288 "
		 "files x clones in a job file."},
	{.name = "filename_format", .type = OT_FN, .fn = fn_filename_format,
	 .value = "text with $jobname, $jobnum, $filenum, $clientuid",
	 .def = "$jobname.$jobnum.$filenum",
	 .help = "Names of the files of nrfiles; equal names are one file "
		 "(e.g. data.$filenum: all clones and jobs share the set)."},
	{.name = "filesize", .type = OT_FN, .fn = fn_filesize,
	 .value = "size or LOW-HIGH", .def = "size / files",
	 .help = "Size of each file (a range: each file's size drawn in it, "
		 "LOW plus a multiple of 4 KiB, from its name); the job does "
		 "I/O from offset to the file's last whole block (as in fio: "
		 "a file that is not whole blocks keeps its tail; the report "
		 "says so).  size then only caps the bytes done (default: all "
		 "the files), as in fio."},
	{.name = "file_service_type", .type = OT_FN, .fn = fn_fsrv,
	 .value = "roundrobin[:N], sequential[:N], random[:N], "
		  "zipf[:THETA], pareto[:H], normal[:DEV] (gauss)",
	 .def = "roundrobin",
	 .help = "File of each I/O: N I/Os to a file then the next one "
		 "(roundrobin) or one drawn at random (random), a whole file "
		 "then the next (sequential; its N changes nothing, as in "
		 "fio); a file that has had its size "
		 "is left out until all have (then all start again).  zipf "
		 "(theta > 0, not 1; default 1.1), pareto (0 < h < 1, default "
		 "0.2), normal (deviation 0..100%, default 0) draw each I/O's "
		 "file, file 0 hottest (normal: the middle one), as fio."},
	{.name = "openfiles", .type = OT_FN, .fn = fn_openfiles,
	 .value = "integer 1..524288", .def = "nrfiles",
	 .help = "Accepted: opening a file costs nothing on the simulated "
		 "drive, so the limit on open files changes no I/O."},
	{.name = "offset_increment", .type = OT_FN, .fn = fn_offset_increment,
	 .value = "size (a multiple of 512 B) or N% of the drive (0..100)",
	 .def = "0",
	 .help = "Clone k (numjobs) starts at offset + k x this, with its "
		 "own size (default: to the drive's or the file's end); a "
		 "percentage is aligned up as offset_align says.  Every "
		 "clone's region must fit."},
	{.name = "offset_align", .type = OT_FN, .fn = fn_size64,
	 FIELD(offset_align), .min = 0, .max = JOB_SECTOR,
	 .value = "size, a multiple of 512 B", .def = "0 (the smallest block)",
	 .help = "A percentage offset or offset_increment is aligned up to "
		 "this; 0: to the smallest block size (at least 4 KiB)."},
	{.name = "fill_device", .alias = "fill_fs", .type = OT_BOOL,
	 FIELD(fill_device), .value = "boolean (a bare key means 1)",
	 .def = "0",
	 .help = "Work from offset to the end of the drive (its user "
		 "capacity), whatever size says, as fio does on a block "
		 "device: a write job fills the drive.  Not with files."},
	{.name = "zonemode", .type = OT_FN, .fn = fn_zonemode,
	 .value = "none, strided", .def = "none (strided if zonesize is set)",
	 .help = "strided: fio's classic zones.  zbd is refused: the "
		 "simulated drive is a conventional block device."},
	{.name = "zonesize", .type = OT_FN, .fn = fn_size64, FIELD(zonesize),
	 .min = 512, .max = 512, .value = "size, a multiple of 512 B",
	 .def = "0",
	 .help = "strided: bytes done in a zone before moving on (less than "
		 "zonerange: only the zone's start is used; more: the zone is "
		 "covered again)."},
	{.name = "zonerange", .type = OT_FN, .fn = fn_size64, FIELD(zonerange),
	 .min = JOB_PAGE, .max = JOB_PAGE, .value = "size, a multiple of 4 KiB",
	 .def = "zonesize",
	 .help = "strided: length of a zone; I/O (sequential or random) stays "
		 "inside it.  Zones start at offset and go to the end of the "
		 "drive (or the file), then wrap to the first; size only sets "
		 "the bytes done, as in fio."},
	{.name = "zoneskip", .type = OT_FN, .fn = fn_size64, FIELD(zoneskip),
	 .min = 0, .max = JOB_SECTOR, .value = "size, a multiple of 512 B",
	 .def = "0",
	 .help = "strided: bytes skipped after each zone (the next zone "
		 "starts zonerange + zoneskip after this one)."},
	{.name = "bsrange", .alias = "blocksize_range", .type = OT_FN,
	 .fn = fn_bsrange,
	 .value = "MIN-MAX (or MIN:MAX) block sizes; or R,W,T ranges",
	 .def = "none",
	 .help = "I/O sizes drawn in the range as fio draws them: MIN + a "
		 "uniform fraction of MAX, rounded down to a multiple of "
		 "MIN, at most MAX (bsrange=4k-16k gives 4, 8, 12 and 16k "
		 "alike).  Overrides bs; bssplit overrides it."},
	{.name = "bs_unaligned", .alias = "blocksize_unaligned",
	 .type = OT_BOOL, FIELD(bs_unaligned),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "bsrange sizes need not be multiples of MIN: any multiple "
		 "of 512 B in the range (fio allows any byte count; ssdlab's "
		 "unit is the 512 B sector)."},
	{.name = "blockalign", .alias = "ba", .type = OT_FN, .fn = fn_bs_ddir,
	 FIELD(blockalign),
	 .value = "size, a multiple of 512 B; or R,W,T", .def = "min block size",
	 .help = "Random offsets are multiples of this (from the region's "
		 "start) instead of the smallest block size.  As in fio, a "
		 "value other than the smallest block size turns the random "
		 "map off (norandommap)."},
	{.name = "percentage_random", .type = OT_FN, .fn = fn_perc_random,
	 .value = "integer 0..100; or R,W,T", .def = "100",
	 .help = "In a random job, the percentage of I/Os at a random "
		 "offset; the others continue sequentially from the end of "
		 "the direction's last I/O (0 makes the job sequential)."},
	{.name = "rw_sequencer", WORDS("sequential", "identical"),
	 FIELD(rw_sequencer),
	 .value = "sequential, identical", .def = "sequential",
	 .help = "With rw=RANDOM:N, the N-1 I/Os after each random one: "
		 "sequential continues from it; identical repeats its "
		 "offset.  No effect on sequential patterns."},
	{.name = "random_generator",
	 WORDS("tausworthe", "lfsr", "tausworthe64"), FIELD(random_generator),
	 .value = "tausworthe, lfsr, tausworthe64", .def = "tausworthe",
	 .help = "fio's offset generators.  tausworthe and tausworthe64 "
		 "both stand for ssdlab's one stream (xoshiro256**), with "
		 "the random map unless norandommap.  lfsr, which in fio "
		 "visits every block once per period without a map, is "
		 "ssdlab's random-map permutation, even with norandommap "
		 "(one block size only; with several, offsets are drawn "
		 "with replacement, as fio's lfsr then repeats blocks)."},
	{.name = "number_ios", .type = OT_FN, .fn = fn_number_ios,
	 .value = "integer >= 0 (k/m/g suffixes)", .def = "0 (no limit)",
	 .help = "Stop after this many I/Os (in trimwrite: trim+write "
		 "pairs), in each loop, if io_size or runtime do not end "
		 "the job first; also ends a time_based job."},
	{.name = "loops", .type = OT_U32, FIELD(loops), .min = 1,
	 .max = 1000000, .value = "integer 1..1000000", .def = "1",
	 .help = "Run the job's whole I/O pass this many times: each loop "
		 "issues io_size (or number_ios) anew, sequential walks "
		 "start again at the region's start and the random map "
		 "starts a new pass.  No effect with time_based."},

	/* pacing and the order of jobs */
	{.name = "rate", .type = OT_FN, .fn = fn_rate, FIELD(rate), .size = 1,
	 .value = "size per second, or READ,WRITE,TRIM (an empty entry: no "
		  "limit)",
	 .def = "0 (no limit)",
	 .help = "Bandwidth cap, bytes/s of simulated time per direction: an "
		 "I/O is submitted no earlier than its turn (issued bytes / "
		 "rate); a drive slower than that keeps the queue at iodepth.  "
		 "A mixed job waits for the direction it drew (fio may switch "
		 "to the other one)."},
	{.name = "rate_iops", .type = OT_FN, .fn = fn_rate, FIELD(rate_iops),
	 .value = "integer, or READ,WRITE,TRIM", .def = "0 (no limit)",
	 .help = "The same cap in I/Os per second (rate_iops x the smallest "
		 "block size; with bssplit each I/O takes 1/rate_iops).  "
		 "Not together with rate."},
	{.name = "rate_min", .alias = "ratemin", .type = OT_FN, .fn = fn_rate,
	 FIELD(rate_min), .size = 1,
	 .value = "size per second, or READ,WRITE,TRIM", .def = "0",
	 .help = "The job ends with an I/O error (err=5) when its bandwidth "
		 "over a ratecycle falls below this, checked as fio does: "
		 "after 2 s, once per ratecycle, at completions."},
	{.name = "rate_iops_min", .type = OT_FN, .fn = fn_rate,
	 FIELD(rate_iops_min), .value = "integer, or READ,WRITE,TRIM",
	 .def = "0",
	 .help = "The same minimum in I/Os per second."},
	{.name = "rate_cycle", .alias = "ratecycle", .type = OT_TIME,
	 FIELD(ratecycle), .unit = SSD_MS,
	 .value = "time; a bare number is milliseconds", .def = "1000",
	 .help = "Window of the rate_min and rate_iops_min checks."},
	{.name = "rate_process", WORDS("linear", "poisson"),
	 FIELD(rate_poisson),
	 .value = "linear, poisson", .def = "linear",
	 .help = "linear: the I/Os of a rated job are evenly spaced; "
		 "poisson: exponential gaps of mean 1/IOPS drawn from the "
		 "job's random stream (the same seed, the same arrivals)."},
	{.name = "rate_ignore_thinktime", .type = OT_BOOL,
	 FIELD(rate_ignore_thinktime),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "After a think time keep to the rate instead of catching "
		 "up on the I/Os the think time cost."},
	{.name = "io_submit_mode", WORDS("inline", "offload"),
	 FIELD(io_submit_offload),
	 .value = "inline, offload", .def = "inline",
	 .help = "inline: a rated job that is ahead of its rate first waits "
		 "for its I/Os in flight, then for its turn (fio's job thread "
		 "does both); offload: I/Os go out at their turn whatever is "
		 "in flight, each submitted at once and reaped as it "
		 "completes.  No host threads exist here, so the modes "
		 "differ only in that order; no submission cost is added."},
	{.name = "startdelay", .type = OT_FN, .fn = fn_startdelay,
	 .value = "time, or LOW-HIGH (a bare number is seconds)", .def = "0",
	 .help = "The job starts this long after the start of the run (as "
		 "fio: not of its stonewall group); with a range each clone "
		 "draws its own delay from its random stream."},
	{.name = "iodepth_batch", .alias = "iodepth_batch_submit",
	 .type = OT_U32, FIELD(iodepth_batch), .min = 0, .max = 65536,
	 .value = "integer 0..65536 (0: iodepth)", .def = "1",
	 .help = "I/Os queued before they go to the drive together (also "
		 "when the job waits for completions or stops)."},
	{.name = "iodepth_batch_complete_min",
	 .alias = "iodepth_batch_complete", .type = OT_U32,
	 FIELD(iodepth_batch_complete_min), .min = 0, .max = 65536,
	 .value = "integer 0..65536", .def = "1",
	 .help = "With a full queue, the job waits until this many I/Os have "
		 "completed and reaps them together: latency counts to the "
		 "reaping."},
	{.name = "iodepth_batch_complete_max", .type = OT_U32,
	 FIELD(iodepth_batch_complete_max), .min = 0, .max = 65536,
	 .value = "integer 0..65536", .def = "iodepth_batch_complete_min",
	 .help = "Most completions reaped at once."},
	{.name = "iodepth_low", .type = OT_U32, FIELD(iodepth_low), .min = 0,
	 .max = 65536, .value = "integer 0..65536 (0 or > iodepth: iodepth)",
	 .def = "iodepth",
	 .help = "A full queue is refilled only once it has drained to this "
		 "depth."},
	{.name = "thinktime_spin", .type = OT_TIME, FIELD(thinktime_spin),
	 .unit = SSD_US, .value = "time; a bare number is microseconds",
	 .def = "0",
	 .help = "Of each think time, the part the host spins (busy, no "
		 "I/O) before it sleeps the rest; at most thinktime.  To the "
		 "drive both are idle time, so the think time is unchanged."},
	{.name = "thinktime_blocks_type", WORDS("complete", "issue"),
	 FIELD(thinktime_issue),
	 .value = "complete, issue", .def = "complete",
	 .help = "Whether thinktime_blocks counts completed or issued I/Os."},
	{.name = "thinktime_iotime", .type = OT_TIME, FIELD(thinktime_iotime),
	 .unit = SSD_S, .value = TIME_HELP_S, .def = "0",
	 .help = "Think after this much time of I/O (or after "
		 "thinktime_blocks I/Os if that is given, whichever comes "
		 "first)."},
	{.name = "new_group", .type = OT_BOOL, FIELD(new_group),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Start a new reporting group (groupid) without waiting for "
		 "the jobs above."},
	{.name = "wait_for", .type = OT_FN, .fn = fn_wait_for,
	 .value = "the name of a job above", .def = "none",
	 .help = "Start when every clone of that job has ended.  The job "
		 "must come earlier in the file and its name must be unique."},
	{.name = "exitall", .type = OT_BOOL, FIELD(exitall),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "When any job ends, the other jobs of its reporting group "
		 "end too (their I/Os in flight complete)."},
	{.name = "exitall_on_error", .type = OT_BOOL, FIELD(exitall_on_error),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "When this job ends in error, the other jobs of its "
		 "reporting group end."},
	{.name = "flow_id", .type = OT_U32, FIELD(flow_id), .min = 0,
	 .max = UINT32_MAX, .value = "integer", .def = "0",
	 .help = "The flow the job's flow weight counts in."},
	{.name = "flow", .type = OT_U32, FIELD(flow), .min = 0, .max = 1000,
	 .value = "integer 0..1000", .def = "0",
	 .help = "fio's token flow control: jobs of one flow_id issue I/Os "
		 "in the ratio of their weights; a job ahead of its share "
		 "waits (flow_sleep, else until another job of the flow "
		 "issues)."},
	{.name = "flow_sleep", .type = OT_TIME, FIELD(flow_sleep),
	 .unit = SSD_US, .value = "time; a bare number is microseconds",
	 .def = "0",
	 .help = "How long a job held back by its flow waits, after its I/Os "
		 "in flight complete, before it tries again."},
	{.name = "end_fsync", .type = OT_BOOL, FIELD(end_fsync),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "A job that wrote ends with a flush of the drive's write "
		 "cache, and waits for it (part of its runtime)."},
	{.name = "fsync_on_close", .type = OT_BOOL, FIELD(fsync_on_close),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "The same flush when the job closes its file: one file, the "
		 "drive, so with end_fsync too it is still one flush (fio "
		 "skips a sync right after a sync)."},
	{.name = "steadystate", .alias = "ss", .type = OT_FN,
	 .fn = fn_steadystate,
	 .value = "iops, iops_slope, bw, bw_slope, lat, lat_slope, then "
		  ":LIMIT or :LIMIT%",
	 .def = "iops_slope:0.01%",
	 .help = "fio's steady-state end (with ss_dur): deviation from the "
		 "window's mean, or the slope of its samples, below the limit; "
		 "reported as fio's \"steadystate\" object."},
	{.name = "steadystate_duration", .alias = "ss_dur", .type = OT_TIME,
	 FIELD(ss_dur), .unit = SSD_S, .value = TIME_HELP_S,
	 .def = "0 (off)",
	 .help = "Rolling window of the steady-state check: a multiple of "
		 "ss_interval, longer than it."},
	{.name = "steadystate_ramp_time", .alias = "ss_ramp", .type = OT_TIME,
	 FIELD(ss_ramp), .unit = SSD_S, .value = TIME_HELP_S, .def = "0",
	 .help = "Time before steady-state samples are taken."},
	{.name = "steadystate_check_interval", .alias = "ss_interval",
	 .type = OT_TIME, FIELD(ss_interval), .unit = SSD_S,
	 .value = "whole seconds, >= 1 (the same in every job)", .def = "1",
	 .help = "One steady-state sample per interval of simulated time."},
	{.name = "latency_target", .type = OT_TIME, FIELD(latency_target),
	 .unit = SSD_US, .value = "time; a bare number is microseconds",
	 .def = "0 (off)",
	 .help = "fio's latency profiling: search for the deepest queue, "
		 "1..iodepth, at which latency_percentile of the I/Os of "
		 "every latency_window complete within this latency "
		 "(submission to completion).  The depth starts at 1 and "
		 "doubles after each window that meets the target; a window "
		 "that misses it (with latency_percentile=100, a single I/O "
		 "over the target, at once) halves the step back towards the "
		 "last depth that met it, as a bisection.  When a window "
		 "leaves the depth unchanged the job waits for its I/Os, its "
		 "figures start over (and its runtime), one more window runs "
		 "at that depth and the job ends (unless latency_run).  An "
		 "I/O over the target at depth 1 with "
		 "latency_percentile=100 ends the job with err=110; with a "
		 "lower percentile the job stays at depth 1.  The depth "
		 "reached is reported as latency_depth."},
	{.name = "latency_window", .type = OT_TIME, FIELD(latency_window),
	 .unit = SSD_US, .value = "time; a bare number is microseconds",
	 .def = "0",
	 .help = "Simulated time each queue depth of the latency_target "
		 "search runs before it is judged (0: judged at every turn of "
		 "the job's loop, as fio)."},
	{.name = "latency_percentile", .type = OT_FN,
	 .fn = fn_latency_percentile, .value = "a number 0..100",
	 .def = "100",
	 .help = "Percent of the I/Os of a latency_window that must complete "
		 "within latency_target."},
	{.name = "latency_run", .type = OT_BOOL, FIELD(latency_run),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Keep adjusting the queue depth to latency_target for the "
		 "whole job instead of ending once the search converged."},
	{.name = "flow_watermark", .type = OT_NOEFFECT, .fn = ne_text,
	 .value = "an integer",
	 .help = "Deprecated in fio, which ignores it as well."},

	/* data verification */
	{.name = "verify", .type = OT_FN, .fn = fn_verify,
	 .value = "0, md5, crc64, crc32c, crc32c-intel, crc32, crc16, crc7, "
		  "xxhash, sha1, sha256, sha512, sha3-224, sha3-256, sha3-384, "
		  "sha3-512, meta, pattern, pattern_hdr, null",
	 .def = "0 (off)",
	 .help = "Check what the drive returns.  The drive keeps no data, "
		 "but every 4 KiB slot holds which logical page and which "
		 "write of it it carries (the out-of-band area): a checked "
		 "read must find the latest write of each page, or zeros "
		 "where the run last trimmed it (a TRIM frees the 4 KiB "
		 "pages wholly inside it; a page it covers in part keeps its "
		 "data); anything else is a verify failure (err=84).  Every "
		 "checksum means the same here; null checks nothing, as in "
		 "fio.  Write jobs read back every "
		 "block they wrote after the write phase (after a flush, "
		 "within the runtime); read jobs check every read."},
	{.name = "do_verify", .type = OT_BOOL, FIELD(do_verify),
	 .value = "boolean (a bare key means 1)", .def = "1",
	 .help = "Run the verify phase after the writes of a job with "
		 "verify set."},
	{.name = "verify_only", .type = OT_BOOL, FIELD(verify_only),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Write nothing: replay the job's writes as verify reads "
		 "of what an earlier job wrote (not with time_based)."},
	{.name = "verify_backlog", .type = OT_FN, .fn = fn_blocks,
	 FIELD(verify_backlog), .value = "integer (blocks), 0 = off",
	 .def = "0",
	 .help = "Verify while writing: after every N blocks written, read "
		 "back verify_backlog_batch of the oldest unverified ones."},
	{.name = "verify_backlog_batch", .type = OT_FN, .fn = fn_blocks,
	 FIELD(verify_backlog_batch), .value = "integer (blocks)",
	 .def = "verify_backlog",
	 .help = "Blocks read back each time verify_backlog triggers."},
	{.name = "verify_fatal", .type = OT_BOOL, FIELD(verify_fatal),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Accepted: a job always ends at its first failed block, "
		 "as fio's does without continue_on_error."},
	{.name = "verify_dump", .type = OT_BOOL, FIELD(verify_dump),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Accepted: there is no data to dump; the failure message "
		 "names the offset and the expected and found write."},
	{.name = "verify_interval", .type = OT_FN, .fn = fn_vbytes,
	 FIELD(verify_interval), .min = 80, .max = JOB_BS_MAX,
	 .value = "size, 80 B..128 MiB", .def = "the block size",
	 .help = "Accepted: headers are not modelled; every 4 KiB page of a "
		 "block is checked."},
	{.name = "verify_offset", .type = OT_FN, .fn = fn_vbytes,
	 FIELD(verify_offset), .min = 40, .max = JOB_BS_MAX,
	 .value = "size, 40 B..128 MiB", .def = "0",
	 .help = "Accepted: headers are not modelled."},
	{.name = "experimental_verify", .type = OT_BOOL,
	 FIELD(experimental_verify), .value = "boolean (a bare key means 1)",
	 .def = "0",
	 .help = "The verify phase replays every write of the job, also "
		 "blocks already read back since their last write (without "
		 "it each block is read once after its latest write)."},
	{.name = "trim_percentage", .type = OT_U32, FIELD(trim_percentage),
	 .min = 0, .max = 100, .value = "integer 0..100", .def = "0",
	 .help = "fio's trim verification (with verify and trim_backlog): "
		 "this percent of the written blocks, drawn at random, are "
		 "trimmed again, and the verify phase checks they read as "
		 "zeros (their whole 4 KiB pages: a page a block covers in "
		 "part keeps its data)."},
	{.name = "trim_verify_zero", .type = OT_BOOL, FIELD(trim_verify_zero),
	 .value = "boolean (a bare key means 1)", .def = "1",
	 .help = "Trimmed blocks must read as zeros; with 0 they are not "
		 "checked."},
	{.name = "trim_backlog", .type = OT_FN, .fn = fn_blocks,
	 FIELD(trim_backlog), .value = "integer (blocks), 0 = off",
	 .def = "0",
	 .help = "Trim after every N blocks written: trim_backlog_batch of "
		 "the oldest blocks chosen by trim_percentage."},
	{.name = "verify_pattern", .type = OT_NOEFFECT, .fn = ne_pattern,
	 .value = "fio's pattern: 0xHEX, decimal, \"text\", %o, in sequence",
	 .help = "Data content is not modelled: what is checked is which "
		 "write of each page the drive returns, not its bytes."},
	{.name = "verify_async", .type = OT_NOEFFECT, .fn = ne_uint,
	 .max = 1024, .value = "integer 0..1024",
	 .help = "Checking costs no host time in the simulation."},
	{.name = "verify_async_cpus", .type = OT_NOEFFECT, .fn = ne_cpus,
	 .value = "a CPU list", .help = "Host CPUs are not modelled."},
	{.name = "verify_state_save", .type = OT_NOEFFECT, .fn = ne_bool,
	 .value = "boolean",
	 .help = "Jobs are not interrupted by triggers, so there is no "
		 "state to save."},
	{.name = "verify_state_load", .type = OT_NOEFFECT, .fn = ne_bool,
	 .value = "boolean",
	 .help = "The drive's own record of every write replaces fio's "
		 "state files: a later job verifies what earlier jobs of "
		 "the run wrote."},
	{.name = "trim_backlog_batch", .type = OT_FN, .fn = fn_blocks,
	 FIELD(trim_backlog_batch), .value = "integer (blocks)",
	 .def = "trim_backlog",
	 .help = "Blocks trimmed each time trim_backlog triggers."},

	/* logs and output (more) */
	{.name = "write_hist_log", .type = OT_LOG, FIELD(write_hist_log),
	 .size = sizeof(((struct ssd_job *)0)->write_hist_log),
	 .idx = LOG_HIST,
	 .value = "file prefix (a bare key means the job's name)",
	 .def = "none",
	 .help = "Write a completion-latency histogram log with this file "
		 "prefix (fio: PREFIX_clat_hist.N.log): every log_hist_msec, "
		 "per direction, the completions since the last line in "
		 "fio's 1856 latency bins (fewer with log_hist_coarseness); "
		 "fio's fiologparser_hist.py reads it.  Empty unless "
		 "log_hist_msec is set."},
	{.name = "log_hist_msec", .type = OT_I64, FIELD(log_hist_msec),
	 .min = 0, .max = 86400000, .value = "integer milliseconds",
	 .def = "0",
	 .help = "Interval of the histogram log: a line is written at the "
		 "first completion of a direction at least this long after "
		 "its last line, stamped with that completion's time (fio); "
		 "the completions after the last line are not written."},
	{.name = "log_hist_coarseness", .type = OT_U32,
	 FIELD(log_hist_coarseness), .min = 0, .max = 6,
	 .value = "integer 0..6", .def = "0",
	 .help = "Each step halves the histogram log's columns by summing "
		 "neighbouring bins (1856 bins at 0, 29 at 6)."},
	{.name = "log_offset", .type = OT_BOOL, FIELD(log_offset),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Log lines carry the I/O's byte offset, before the "
		 "priority column (0 in averaged lines)."},
	{.name = "log_prio", .type = OT_BOOL, FIELD(log_prio),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "The priority column shows fio's 16-bit priority in hex "
		 "(0x0000: the simulated host sets no I/O priority) instead "
		 "of 0/1 for the highest real-time class (always 0)."},
	{.name = "per_job_logs", .type = OT_BOOL, FIELD(per_job_logs),
	 .value = "boolean (a bare key means 1)", .def = "1",
	 .help = "Log names carry the job's number (PREFIX_KIND.N.log).  "
		 "With 0 they do not (PREFIX_KIND.log): files are appended "
		 "to, not replaced, and jobs with the same prefix share "
		 "them, each job's lines in one block as fio writes them."},

	/* errors, exits, percentiles and command modes */
	{.name = "continue_on_error", .type = OT_FN, .fn = fn_coe,
	 .value = "none, read, write, io, verify, all, 0 (none), 1 (all)",
	 .def = "none",
	 .help = "Errors of these kinds do not end the job (fio): a write "
		 "or trim the drive refuses once worn out to read-only "
		 "(reported as EROFS: ssdlab counts it with fio's non-fatal "
		 "EIO) is a write error, a failed data check (EILSEQ) a "
		 "verify error.  The command is answered after the "
		 "controller's cmd_overhead (at least 1 us) and not counted "
		 "in the statistics, as fio does not count a failed I/O; the "
		 "job goes on to the end of its io_size or runtime.  The "
		 "report adds fio's total_err and first_error (text: "
		 "\"errors    : total=N, first_error=E/<...>\") and the job's "
		 "error is the first one.  Failures of the simulation itself "
		 "(an invariant broken, out of memory) always end the run."},
	{.name = "ignore_error", .type = OT_FN, .fn = fn_ignore_error,
	 .value = "READ_LIST,WRITE_LIST,VERIFY_LIST, each a ':' list of "
		  "errno names (EIO, EROFS, ENOSPC...) or numbers",
	 .def = "EIO:EROFS:EILSEQ for every kind",
	 .help = "fio's lists of the errors continue_on_error goes on "
		 "after, per kind; a non-empty list replaces that kind's "
		 "list and turns continue_on_error on for it "
		 "(ignore_error=,EROFS: go on after refused writes only)."},
	{.name = "error_dump", .type = OT_BOOL, FIELD(error_dump),
	 .value = "boolean (a bare key means 1)", .def = "1",
	 .help = "Accepted: fio writes a line per error; ssdlab's report "
		 "names the first failed command and counts the others."},
	{.name = "exit_what", .type = OT_FN, .fn = fn_exit_what,
	 .value = "group, stonewall, all", .def = "group",
	 .help = "What exitall ends when this job ends (fio): the jobs of "
		 "its reporting group; every running job of its stonewall "
		 "group (the next group then starts); or every job, the "
		 "later groups then do not run (they are reported with "
		 "nothing done, as fio reports them)."},
	{.name = "clat_percentiles", .type = OT_FN, .fn = fn_clat_percentiles,
	 .value = "boolean (a bare key means 1)", .def = "1",
	 .help = "Report completion latency percentiles (normal and JSON "
		 "output)."},
	{.name = "lat_percentiles", .type = OT_BOOL, FIELD(lat_percentiles),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Also report total latency percentiles, as fio prints them "
		 "(\"lat percentiles\", lat_ns.percentile; the terse line's "
		 "percentiles then are these).  No submission latency is "
		 "modelled, so total latency equals completion latency and "
		 "the two lists hold the same values."},
	{.name = "slat_percentiles", .type = OT_BOOL, FIELD(slat_percentiles),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Report submission latency percentiles: submission takes "
		 "no simulated time, so every value is 0 (JSON slat_ns)."},
	{.name = "percentile_list", .type = OT_FN, .fn = fn_percentile_list,
	 .value = "up to 20 numbers 0..100, ':'-separated",
	 .def = "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99",
	 .help = "The latency percentiles to report, instead of fio's "
		 "default list (sorted; a 0 ends the list, as in fio).  "
		 "They are printed with as many digits after the point as "
		 "the most precise value was written with."},
	{.name = "writefua", .type = OT_BOOL, FIELD(write_fua),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Every write has Force Unit Access: as sync=1, the write "
		 "completes once its data is on flash, not in the drive's "
		 "write buffer."},
	{.name = "readfua", .type = OT_BOOL, FIELD(read_fua),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Accepted, no effect: FUA on a read asks for data from the "
		 "medium, not a cache, and the simulated drive ignores it (a "
		 "page its write buffer holds in part is merged and drained "
		 "before a read of it is served; a read may take a page from "
		 "read-ahead, or the page a read of part of it brought in)."},
	{.name = "num_range", .type = OT_U32, FIELD(num_range), .min = 1,
	 .max = 256, .value = "integer 1..256", .def = "1",
	 .help = "Trim ranges per trim command (io_uring_cmd): each command "
		 "carries this many of the job's trims, each of its own size "
		 "at its own offset, and completes when the last of them "
		 "has; it counts as one I/O of their total size.  Only for "
		 "trim-only jobs (rw=trim, randtrim), as in fio."},
	{.name = "write_mode", .type = OT_FN, .fn = fn_write_mode,
	 .value = "write, zeroes, uncor, verify; or MODE/PCT:MODE/PCT:... "
		  "adding up to 100 (a PCT left out shares the rest)",
	 .def = "write",
	 .help = "The command a write becomes (io_uring_cmd); it still "
		 "counts as a write, as in fio.  zeroes (Write Zeroes) is a "
		 "trim: the drive reads zeros after a trim and programs "
		 "nothing; uncor (Write Uncorrectable) is a trim too: the "
		 "drive drops the pages' mapping without programming, but "
		 "reads then return zeros, not an error; verify is a read of "
		 "the range (the drive reads and checks the medium).  A mix "
		 "picks each write's command in turn so that the counts "
		 "keep to the percentages.  zone_append is refused (a zoned "
		 "drive)."},
	{.name = "sg_write_mode", .type = OT_FN, .fn = fn_sg_write_mode,
	 .value = "write, write_and_verify, verify, write_same, same, "
		  "write_same_ndob, write_stream, verify_bytchk_00, "
		  "verify_bytchk_01, verify_bytchk_11",
	 .def = "write",
	 .help = "The SCSI command a write becomes (sg engine), as the "
		 "drive does it: write, write_same(_ndob), write_stream: a "
		 "write of the whole range; write_and_verify (verify): a "
		 "write, then a read of the range, the command completing "
		 "after both; verify_bytchk_*: a read of the range."},
	{.name = "random_sequence_stride", .type = OT_BOOL,
	 FIELD(sequence_stride), .value = "boolean (a bare key means 1)",
	 .def = "0",
	 .help = "With random_distribution=sequence: 0 repeats the block "
		 "indices as they are; 1 shifts each new round of them by "
		 "their count (2,0,1 then 5,3,4, ...), as fio, until a block "
		 "lies past the region's end, which ends the pass."},
	{.name = "verify_write_sequence", .type = OT_BOOL,
	 FIELD(verify_write_sequence),
	 .value = "boolean (a bare key means 1)", .def = "1",
	 .help = "Accepted: the host's record is shared by every job (each "
		 "page's latest write, whoever wrote it), so writes of "
		 "other jobs never fail a check, which is what fio's 0 is "
		 "for; a stale copy of a page is always an error (it is the "
		 "FTL's)."},

	/* traces (docs/traces.md) */
	{.name = "read_iolog", .type = OT_FN, .fn = fn_read_iolog,
	 .value = "a trace file: fio's iolog (version 2 or 3) or a blktrace "
		  "file, plain or gzip-compressed", .def = "none",
	 .help = "Replay the trace instead of drawing I/O: its reads, writes, "
		 "trims and syncs in its order, at offsets in the job's file "
		 "(its one file, or the drive up to offset + size; offset= "
		 "does not move them, as in fio; every file the trace names is "
		 "that one, as fio's replay_redirect makes it).  A request "
		 "waits for the trace's gap after the one before it, as fio "
		 "waits, and completions are reaped while it waits "
		 "(replay_no_stall=1: no waiting, as fast as iodepth allows); a "
		 "version 2 log's wait waits until that many ms after the job "
		 "started, as fio does.  The trace is opened when the job "
		 "starts (an earlier job may record it) and read as it goes, "
		 "in constant memory; loops= replays it again.  Other formats: "
		 "ssdlab trace convert."},
	{.name = "write_iolog", .type = OT_FN, .fn = fn_write_iolog,
	 .value = "a file name", .def = "none",
	 .help = "Record every I/O the job issues, as fio does: an iolog "
		 "version 3 (issue time in microseconds since the job "
		 "started, file, action, offset, length), which read_iolog here "
		 "and real fio replay.  The file in the log is named NAME.0.0, "
		 "as fio names a job's file; offsets are in the job's one file, "
		 "or the drive's (offset= included), as fio's are in the file "
		 "or device.  It is written from the job's start to its end."},
	{.name = "replay_no_stall", .type = OT_BOOL, FIELD(replay_no_stall),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "read_iolog: ignore the trace's times, issue each request as "
		 "soon as the queue has room."},
	{.name = "replay_time_scale", .type = OT_U32, FIELD(replay_time_scale),
	 .min = 1, .max = UINT32_MAX, .value = "integer >= 1 (percent)",
	 .def = "100",
	 .help = "read_iolog: the trace's gaps last gap x 100 / this (200: "
		 "twice as fast)."},
	{.name = "replay_align", .type = OT_FN, .fn = fn_replay_align,
	 FIELD(replay_align), .value = "a power of 2 in bytes", .def = "none",
	 .help = "read_iolog: each offset is aligned down to this."},
	{.name = "replay_scale", .type = OT_U32, FIELD(replay_scale), .min = 1,
	 .max = UINT32_MAX, .value = "integer >= 1", .def = "1",
	 .help = "read_iolog: each offset is divided by this (a trace in "
		 "sectors of a larger unit)."},
	{.name = "replay_skip", .type = OT_FN, .fn = fn_replay_skip,
	 .value = "a list of read, write, trim, sync", .def = "none",
	 .help = "read_iolog: leave out these actions of the trace (sync also "
		 "leaves out datasync)."},

	/* accepted, no effect on a simulated drive: grouped by what they
	 * concern (ne_groups[] gives each group's reason); the report lists
	 * the ones a job took */
#define NE(n, a, g, f, v) {.name = n, .alias = a, .type = OT_NOEFFECT, \
			   .idx = g, .fn = f, .value = v}
#define NE_B(n, g) NE(n, NULL, g, ne_bool, "boolean")
#define NE_T(n, g) NE(n, NULL, g, ne_text, "text")
#define NE_S(n, g) NE(n, NULL, g, ne_size, "size")
#define NE_C(n, g, v) NE(n, NULL, g, ne_choice, v)
#define NE_CA(n, g, v) {.name = n, .type = OT_NOEFFECT, .idx = g, \
			.fn = ne_choice, .min = NE_ARG, .value = v}
#define NE_U(n, g) NE(n, NULL, g, ne_uint, "integer")
#define NE_UR(n, g, lo, hi, v) {.name = n, .type = OT_NOEFFECT, .idx = g, \
				.fn = ne_uint, .min = lo, .max = hi, .value = v}
#define NE_UL(n, g, hi, v) {.name = n, .type = OT_NOEFFECT, .idx = g, \
			    .fn = ne_uint_list, .max = hi, .value = v}
	/* the engine and its options */
	{.name = "ioengine", .type = OT_NOEFFECT, .idx = NEG_ENGINE,
	 .fn = ne_text, .value = "an engine name",
	 .help = "ssdlab is the engine: it keeps iodepth I/Os in flight as "
		 "an asynchronous engine (libaio, io_uring) would.  With a "
		 "synchronous engine fio would keep only one; set iodepth=1 "
		 "to model that."},
	NE_UL("cmdprio_percentage", NEG_ENGINE, 100, "integer 0..100[,...]"),
	NE_UL("cmdprio_class", NEG_ENGINE, 3, "integer 0..3[,...]"),
	NE_UL("cmdprio_hint", NEG_ENGINE, 0, "integer[,...]"),
	NE_UL("cmdprio", NEG_ENGINE, 7, "integer 0..7[,...]"),
	NE_T("cmdprio_bssplit", NEG_ENGINE),
	NE_B("fixedbufs", NEG_ENGINE),
	NE_U("nonvectored", NEG_ENGINE),
	NE_U("force_async", NEG_ENGINE),
	NE_B("registerfiles", NEG_ENGINE),
	NE_B("sqthread_poll", NEG_ENGINE),
	NE_U("sqthread_poll_cpu", NEG_ENGINE),
	NE_C("cmd_type", NEG_ENGINE, "nvme, bsg"),
	NE_U("cdb_len", NEG_ENGINE),
	NE_B("hipri", NEG_ENGINE),
	NE_B("userspace_reap", NEG_ENGINE),
	NE_UR("hipri_percentage", NEG_ENGINE, 0, 100, "integer 0..100"),
	NE_B("nowait", NEG_ENGINE),
	NE_U("uncached", NEG_ENGINE),
	NE_B("atomic", NEG_ENGINE),
	NE_B("libaio_vectored", NEG_ENGINE),
	NE_B("fdp", NEG_ENGINE),
	NE("dataplacement", "data_placement", NEG_ENGINE, ne_choice,
	   "none, fdp, streams"),
	NE("plid_select", "fdp_pli_select", NEG_ENGINE, ne_choice,
	   "random, roundrobin, scheme"),
	NE("plids", "fdp_pli", NEG_ENGINE, ne_text, "text"),
	NE_T("dp_scheme", NEG_ENGINE),
	NE_S("md_per_io_size", NEG_ENGINE),
	NE_U("pi_act", NEG_ENGINE),
	NE_T("pi_chk", NEG_ENGINE),
	NE_U("apptag", NEG_ENGINE),
	NE_U("apptag_mask", NEG_ENGINE),
	NE_UR("cpuload", NEG_ENGINE, 0, 100, "integer 0..100"),
	NE_U("cpuchunks", NEG_ENGINE),
	NE_C("cpumode", NEG_ENGINE, "noop, qsort"),
	NE_B("exit_on_io_done", NEG_ENGINE),
	NE_T("namenode", NEG_ENGINE),
	NE_T("hdfsdirectory", NEG_ENGINE),
	NE_UR("port", NEG_ENGINE, 0, 65535, "integer 0..65535"),
	NE_T("hostname", NEG_ENGINE),
	NE_T("interface", NEG_ENGINE),
	NE_U("ttl", NEG_ENGINE),
	NE_B("nodelay", NEG_ENGINE),
	NE("protocol", "proto", NEG_ENGINE, ne_choice,
	   "tcp, tcpv6, udp, udpv6, unix, vsock"),
	NE_B("listen", NEG_ENGINE),
	NE_B("pingpong", NEG_ENGINE),
	NE_S("window_size", NEG_ENGINE),
	NE_U("mss", NEG_ENGINE),
	NE_T("donorname", NEG_ENGINE),
	NE_U("inplace", NEG_ENGINE),
	NE_T("clustername", NEG_ENGINE),
	NE_T("rbdname", NEG_ENGINE),
	NE_T("clientname", NEG_ENGINE),
	NE_T("conf", NEG_ENGINE),
	NE_B("busy_poll", NEG_ENGINE),
	NE_B("touch_objects", NEG_ENGINE),
	NE_T("rbd_encryption_format", NEG_ENGINE),
	NE_T("rbd_encryption_passphrase", NEG_ENGINE),
	NE_T("pool", NEG_ENGINE),
	NE_T("cont", NEG_ENGINE),
	NE_S("chunk_size", NEG_ENGINE),
	NE_T("object_class", NEG_ENGINE),
	NE_B("skip_bad", NEG_ENGINE),
	NE_T("verb", NEG_ENGINE),
	NE_T("bindname", NEG_ENGINE),
	NE_C("stat_type", NEG_ENGINE, "stat, lstat, statx"),
	NE_T("http_host", NEG_ENGINE),
	NE_T("http_user", NEG_ENGINE),
	NE_T("http_pass", NEG_ENGINE),
	NE_C("https", NEG_ENGINE, "on, off, insecure"),
	NE_C("http_mode", NEG_ENGINE, "webdav, s3, swift"),
	NE_T("http_s3_region", NEG_ENGINE),
	NE_T("http_s3_key", NEG_ENGINE),
	NE_T("http_s3_keyid", NEG_ENGINE),
	NE_T("http_s3_security_token", NEG_ENGINE),
	NE_T("http_s3_sse_customer_key", NEG_ENGINE),
	NE_T("http_s3_sse_customer_algorithm", NEG_ENGINE),
	NE_T("http_s3_storage_class", NEG_ENGINE),
	NE_T("http_swift_auth_token", NEG_ENGINE),
	NE_U("http_verbose", NEG_ENGINE),
	NE_T("http_object_mode", NEG_ENGINE),
	NE_T("uri", NEG_ENGINE),
	NE_T("gpu_dev_ids", NEG_ENGINE),
	NE_C("cuda_io", NEG_ENGINE, "posix, cufile"),
	NE_T("rocm_io", NEG_ENGINE),
	NE_T("nfs_url", NEG_ENGINE),
	NE_T("program", NEG_ENGINE),
	NE_T("arguments", NEG_ENGINE),
	NE_U("grace_time", NEG_ENGINE),
	NE_B("std_redirect", NEG_ENGINE),
	NE_T("xnvme_async", NEG_ENGINE),
	NE_T("xnvme_sync", NEG_ENGINE),
	NE_T("xnvme_admin", NEG_ENGINE),
	NE_U("xnvme_dev_nsid", NEG_ENGINE),
	NE_T("xnvme_dev_subnqn", NEG_ENGINE),
	NE_T("xnvme_mem", NEG_ENGINE),
	NE_U("xnvme_iovec", NEG_ENGINE),
	NE_T("libblkio_driver", NEG_ENGINE),
	NE_T("libblkio_path", NEG_ENGINE),
	NE_T("libblkio_pre_connect_props", NEG_ENGINE),
	NE_U("libblkio_num_entries", NEG_ENGINE),
	NE_U("libblkio_queue_size", NEG_ENGINE),
	NE_T("libblkio_pre_start_props", NEG_ENGINE),
	NE_B("libblkio_vectored", NEG_ENGINE),
	NE_C("libblkio_wait_mode", NEG_ENGINE, "block, eventfd, loop"),
	NE_B("libblkio_force_enable_completion_eventfd", NEG_ENGINE),
	NE_B("no_completion_thread", NEG_ENGINE),
	NE_T("volume", NEG_ENGINE),
	NE_T("brick", NEG_ENGINE),

	/* the host page cache */
	{.name = "direct", .type = OT_NOEFFECT, .idx = NEG_CACHE,
	 .fn = ne_direct, .value = "boolean",
	 .help = "direct=1 bypasses the machine's page cache (page_cache in "
		 "the drive file); direct=0 goes through it, or, on a machine "
		 "without one, reaches the drive as with direct=1 and the "
		 "report says so."},
	{.name = "buffered", .type = OT_NOEFFECT, .idx = NEG_CACHE,
	 .fn = ne_direct, .value = "boolean",
	 .help = "The opposite of direct; buffered=1 is reported as "
		 "direct=0 is."},
	{.name = "invalidate", .type = OT_NOEFFECT, .idx = NEG_CACHE,
	 .fn = ne_bool, .value = "boolean"},
	NE_B("pre_read", NEG_CACHE),
	NE_CA("fadvise_hint", NEG_CACHE, "0, 1, sequential, random, noreuse"),
	NE_T("sync_file_range", NEG_CACHE),

	/* files and the file system */
	NE_T("replay_redirect", NEG_TRACE),
	NE_B("read_iolog_chunked", NEG_TRACE),
	NE_T("directory", NEG_FILES),
	NE_B("unique_filename", NEG_FILES),
	NE_C("filetype", NEG_FILES, "none, file, block, char"),
	NE_T("opendir", NEG_FILES),
	NE_CA("lockfile", NEG_FILES, "none, exclusive, readwrite"),
	NE_T("ioscheduler", NEG_FILES),
	NE_B("create_serialize", NEG_FILES),
	NE_B("create_fsync", NEG_FILES),
	NE_B("create_on_open", NEG_FILES),
	NE_B("allow_file_create", NEG_FILES),
	NE_B("allow_mounted_write", NEG_FILES),
	NE_B("unlink", NEG_FILES),
	NE_B("unlink_each_loop", NEG_FILES),
	NE_B("overwrite", NEG_FILES),
	NE_C("fallocate", NEG_FILES, "none, native, posix, keep, truncate, "
	     "0, 1"),

	/* host CPUs, scheduling and processes */
	{.name = "thread", .type = OT_NOEFFECT, .idx = NEG_CPU,
	 .fn = ne_bool, .value = "boolean"},
	NE_U("threads", NEG_CPU),
	NE_T("comm", NEG_CPU),
	NE("nice", NULL, NEG_CPU, ne_nice, "integer -20..19"),
	NE_UR("prio", NEG_CPU, 0, 7, "integer 0..7"),
	NE_UR("prioclass", NEG_CPU, 0, 3, "integer 0..3"),
	NE_U("priohint", NEG_CPU),
	NE("cpus_allowed", NULL, NEG_CPU, ne_cpus, "CPU list such as 0-3,6"),
	NE_U("cpumask", NEG_CPU),
	NE_C("cpus_allowed_policy", NEG_CPU, "shared, split"),
	NE("numa_cpu_nodes", NULL, NEG_CPU, ne_cpus, "node list such as 0-1,3"),
	NE_CA("numa_mem_policy", NEG_CPU, "default, prefer, bind, interleave, "
	      "local"),
	NE_T("cgroup", NEG_CPU),
	NE_U("cgroup_weight", NEG_CPU),
	NE_B("cgroup_nodelete", NEG_CPU),
	NE_T("exec_prerun", NEG_CPU),
	NE_T("exec_postrun", NEG_CPU),
	NE_U("uid", NEG_CPU),
	NE_U("gid", NEG_CPU),
	NE_U("gtod_cpu", NEG_CPU),

	/* the host's clock and the cost of statistics */
	NE_C("clocksource", NEG_CLOCK, "gettimeofday, clock_gettime, cpu"),
	NE_B("gtod_reduce", NEG_CLOCK),
	NE_U("job_start_clock_id", NEG_CLOCK),
	NE_B("disable_lat", NEG_CLOCK),
	NE_B("disable_clat", NEG_CLOCK),
	NE_B("disable_slat", NEG_CLOCK),
	NE("disable_bw_measurement", "disable_bw", NEG_CLOCK, ne_bool,
	   "boolean"),
	NE_B("disk_util", NEG_CLOCK),

	/* what the data buffers hold */
	NE_B("zero_buffers", NEG_BUFFERS),
	NE_B("refill_buffers", NEG_BUFFERS),
	NE_B("scramble_buffers", NEG_BUFFERS),
	{.name = "buffer_compress_percentage", .alias = "compress_percentage",
	 .type = OT_NOEFFECT, .idx = NEG_BUFFERS, .fn = ne_uint, .max = 100,
	 .value = "integer 0..100"},
	NE("buffer_compress_chunk", "compress_chunk", NEG_BUFFERS, ne_size,
	   "size"),
	NE_T("buffer_pattern", NEG_BUFFERS),
	NE_UR("dedupe_percentage", NEG_BUFFERS, 0, 100, "integer 0..100"),
	NE_C("dedupe_mode", NEG_BUFFERS, "repeat, working_set"),
	NE_UR("dedupe_working_set_percentage", NEG_BUFFERS, 0, 100,
	      "integer 0..100"),
	NE_B("dedupe_global", NEG_BUFFERS),

	/* host memory */
	{.name = "iomem", .alias = "mem", .type = OT_NOEFFECT,
	 .idx = NEG_MEMORY, .fn = ne_choice, .min = NE_ARG,
	 .value = "malloc, shm, shmhuge, mmap, mmaphuge, mmapshared, "
		  "cudamalloc"},
	NE("iomem_align", "mem_align", NEG_MEMORY, ne_size, "size"),
	NE_S("hugepage-size", NEG_MEMORY),
	NE_S("lockmem", NEG_MEMORY),

	/* values and reports */
	{.name = "description", .type = OT_NOEFFECT, .idx = NEG_OTHER,
	 .fn = ne_text, .value = "text", .help = "Free text; fio only prints "
	 "it."},
	{.name = "randrepeat", .type = OT_NOEFFECT, .idx = NEG_OTHER,
	 .fn = ne_bool, .value = "boolean",
	 .help = "Runs are always repeatable: the stream follows from "
		 "randseed or the run seed."},
	{.name = "allrandrepeat", .type = OT_NOEFFECT, .idx = NEG_OTHER,
	 .fn = ne_bool, .value = "boolean",
	 .help = "As randrepeat."},
	{.name = "block_error_percentiles", .type = OT_NOEFFECT,
	 .idx = NEG_OTHER, .fn = ne_bool, .value = "boolean",
	 .help = "fio's histogram of the trims it took until an erase block "
		 "failed, for raw flash (MTD) targets: behind an FTL no block "
		 "error reaches the host (worn-out blocks are retired, the drive "
		 "turns read-only), so there is nothing to count."},
	{.name = "unit_base", .type = OT_NOEFFECT, .idx = NEG_OTHER,
	 .fn = ne_choice, .value = "0, 1, 8",
	 .help = "fio's unit for reported rates (8 bytes, 1 bits, 0 "
		 "automatic); ssdlab's reports are in bytes, as fio's "
		 "default."},
	{.name = "kb_base", .type = OT_FN, .fn = fn_kb_base,
	 .value = "1024 or 1000", .def = "1024",
	 .help = "How size suffixes read, as in fio: with 1024, k/m/g (also "
		 "kB, MB) are powers of 1024 and KiB/MiB/GiB powers of 1000 "
		 "(fio's compatibility rule); with 1000 the other way round.  "
		 "It applies to the whole section it is in, wherever it "
		 "stands there, and is inherited from [global]."},
#undef NE
#undef NE_B
#undef NE_T
#undef NE_S
#undef NE_C
#undef NE_CA
#undef NE_U
#undef NE_UR
#undef NE_UL

#define UNSUP(n, a, why) {.name = n, .alias = a, .type = OT_UNSUP, .help = why}
#define ZBD_WHY "zoned block devices are not modelled: the simulated " \
	"drive is a conventional block device"

	/* refused for now: fio's SPRandom preconditioning */
	UNSUP("sprandom", NULL, "SPRandom preconditioning (offsets chosen so "
	      "that one pass leaves the steady-state distribution of invalid "
	      "pages) is not modelled: precondition with a random "
	      "write job of two or more drive capacities"),
	UNSUP("spr_num_regions", NULL, "goes with sprandom"),
	UNSUP("spr_op", NULL, "goes with sprandom"),
	UNSUP("spr_cs", NULL, "goes with sprandom"),

	/* refused: the options of zoned block devices (zonemode=zbd) */
	UNSUP("zonecapacity", NULL, ZBD_WHY),
	UNSUP("max_open_zones", NULL, ZBD_WHY),
	UNSUP("job_max_open_zones", NULL, ZBD_WHY),
	UNSUP("ignore_zone_limits", NULL, ZBD_WHY),
	UNSUP("zone_reset_threshold", NULL, ZBD_WHY),
	UNSUP("zone_reset_frequency", NULL, ZBD_WHY),
	UNSUP("read_beyond_wp", NULL, ZBD_WHY),
	UNSUP("write_zone_remainder", NULL, ZBD_WHY),

	/* refused for now: pacing and the order of jobs */


	/* refused: merging traces (the job replays one) */
	UNSUP("merge_blktrace_file", NULL, "merge the traces first (blkparse "
	      "-d, or ssdlab trace convert of each and one file)"),
	UNSUP("merge_blktrace_scalars", NULL, "merge the traces first"),
	UNSUP("merge_blktrace_iters", NULL, "merge the traces first"),
#undef ZBD_WHY
#undef UNSUP
};

#define NOPTS ((int)(sizeof opts / sizeof opts[0]))
_Static_assert(sizeof opts / sizeof opts[0] <= JOB_MAX_OPTS,
	       "raise JOB_MAX_OPTS");
_Static_assert(JOB_MAX_OPTS <= SSD_JOB_NOEFFECT_WORDS * 64,
	       "raise SSD_JOB_NOEFFECT_WORDS");

static int find_opt(const char *key)
{
	for (int i = 0; i < NOPTS; i++)
		if (!strcmp(opts[i].name, key) ||
		    (opts[i].alias && !strcmp(opts[i].alias, key)))
			return i;
	return -1;
}

static int unknown_option(struct parser *p, const char *key)
{
	const char *best = NULL;
	int bestd = 99;
	for (int i = 0; i < NOPTS; i++) {
		const char *names[2] = {opts[i].name, opts[i].alias};
		for (int k = 0; k < 2; k++) {
			if (!names[k])
				continue;
			int d = ssd_edit_distance(key, names[k]);
			if (d < bestd) {
				bestd = d;
				best = names[k];
			}
		}
	}
	if (best && ssd_plausible_typo(key, bestd))
		return perr(p, p->line, SSD_EPARSE,
			    "unknown option '%.64s' (did you mean '%s'? "
			    "accepted: see docs/jobfiles.md)", key, best);
	return perr(p, p->line, SSD_EPARSE,
		    "unknown option '%.64s' (accepted: see docs/jobfiles.md)",
		    key);
}

/* ---- applying one key=value ---- */

/* ---- arithmetic in values ----
 * fio evaluates a numeric value written in parentheses, "(4096*8)", with
 * + - * / % ^ and nested parentheses; numbers may carry the option's
 * suffixes, and a bare number in a time expression is microseconds (as
 * fio documents).  As in fio (exp/expression-parser.y), whole numbers
 * are computed exactly in 64-bit integers, dividing as integers, and a
 * result that does not fit is an error, never wrapped; a fraction makes
 * the operation floating point (a whole result below 2^63 is an integer
 * again).  The result replaces the value and is parsed as if written. */
enum { EX_INT, EX_SIZE, EX_TIME };

struct expr {
	const char *s;
	int kind;                     /* EX_* */
	unsigned kb_base;
	int bad;                      /* 1: malformed, 2: division by 0,
	                                 3: a step beyond int64_t */
	int depth;
};

/* A value: exact (i) when whole, else floating point (d). */
struct exv {
	int exact;
	int64_t i;
	double d;
};

static struct exv ex_sum(struct expr *e);

static struct exv ex_int(int64_t i)
{
	return (struct exv){.exact = 1, .i = i, .d = (double)i};
}

/* A floating-point result: an integer again when it is a whole number
 * that int64_t holds (so "(1.5*2/4)" divides 3 by 4 as integers). */
static struct exv ex_float(double d)
{
	if (d == floor(d) && fabs(d) < 0x1p63)
		return ex_int((int64_t)d);
	return (struct exv){.exact = 0, .d = d};
}

/* A step divides by zero (why 2) or does not fit (3): the expression is
 * out of range, and *v a stand-in while the rest is read (for its
 * syntax). */
static void ex_fail(struct expr *e, struct exv *v, int why)
{
	if (!e->bad)
		e->bad = why;
	*v = ex_int(0);
}

static void ex_space(struct expr *e)
{
	while (isspace((unsigned char)*e->s))
		e->s++;
}

/* An unsigned number as an operand: beyond int64_t it cannot take part
 * in exact arithmetic (and no option takes it). */
static struct exv ex_u64(struct expr *e, uint64_t u)
{
	struct exv v = ex_int((int64_t)(u & INT64_MAX));
	if (u > INT64_MAX)
		ex_fail(e, &v, 3);
	return v;
}

static struct exv ex_number(struct expr *e)
{
	char tok[64];
	size_t n = 0;
	while ((isalnum((unsigned char)e->s[n]) || e->s[n] == '.') &&
	       n < sizeof tok - 1)
		n++;
	if (!n) {
		e->bad = 1;
		return ex_int(0);
	}
	memcpy(tok, e->s, n);
	tok[n] = 0;
	e->s += n;
	uint64_t u;
	int64_t t;
	double d;
	int rc;
	switch (e->kind) {
	case EX_SIZE:
		rc = ssd_parse_size_kb(tok, e->kb_base, &u);
		if (!rc)
			return ex_u64(e, u);
		break;
	case EX_TIME:
		rc = ssd_parse_time(tok, SSD_US, &t);
		if (!rc)
			return ex_int(t);
		break;
	default:
		rc = ssd_parse_u64(tok, &u);
		if (!rc)
			return ex_u64(e, u);
		break;
	}
	struct exv v = ex_int(0);
	if (rc == SSD_ERANGE)
		ex_fail(e, &v, 3);
	else if (!ssd_parse_double(tok, &d))
		v = ex_float(d);
	else
		e->bad = 1;
	return v;
}

static struct exv ex_primary(struct expr *e)
{
	ex_space(e);
	if (++e->depth > 64) {
		e->bad = 1;
		return ex_int(0);
	}
	struct exv v;
	if (*e->s == '(') {
		e->s++;
		v = ex_sum(e);
		ex_space(e);
		if (*e->s != ')')
			e->bad = 1;
		else
			e->s++;
	} else if (*e->s == '-') {
		e->s++;
		v = ex_primary(e);
		if (!v.exact)
			v.d = -v.d;
		else if (v.i == INT64_MIN)
			ex_fail(e, &v, 3);
		else
			v = ex_int(-v.i);
	} else {
		v = ex_number(e);
	}
	e->depth--;
	return v;
}

/* b^x exactly, x >= 0; e->bad = 2 when it does not fit. */
static struct exv ex_ipow(struct expr *e, int64_t b, int64_t x)
{
	int64_t r = 1;
	if (b == 0 || b == 1)
		return ex_int(x == 0 ? 1 : b);
	if (b == -1)
		return ex_int(x % 2 ? -1 : 1);
	for (; x > 0; x--)
		if (__builtin_mul_overflow(r, b, &r)) {
			struct exv v;
			ex_fail(e, &v, 3);
			return v;
		}
	return ex_int(r);
}

static struct exv ex_power(struct expr *e)
{
	struct exv v = ex_primary(e);
	ex_space(e);
	if (*e->s == '^') {
		e->s++;
		struct exv x = ex_power(e);
		if (v.exact && x.exact && x.i >= 0)
			v = ex_ipow(e, v.i, x.i); /* |b| >= 2: at most 63 steps */
		else
			v = ex_float(pow(v.d, x.d));
	}
	return v;
}

static struct exv ex_product(struct expr *e)
{
	struct exv v = ex_power(e);
	for (;;) {
		ex_space(e);
		char op = *e->s;
		if (op != '*' && op != '/' && op != '%')
			return v;
		e->s++;
		struct exv r = ex_power(e);
		if (op != '*' && (r.exact ? r.i == 0 : r.d == 0)) {
			ex_fail(e, &v, 2);
		} else if (v.exact && r.exact) {
			int64_t x = 0;
			if (op == '*' ? __builtin_mul_overflow(v.i, r.i, &x)
				      : v.i == INT64_MIN && r.i == -1)
				ex_fail(e, &v, 3);
			else
				v = ex_int(op == '*' ? x : op == '/' ? v.i / r.i
								     : v.i % r.i);
		} else {
			v = ex_float(op == '*' ? v.d * r.d
				     : op == '/' ? v.d / r.d : fmod(v.d, r.d));
		}
	}
}

static struct exv ex_sum(struct expr *e)
{
	struct exv v = ex_product(e);
	for (;;) {
		ex_space(e);
		char op = *e->s;
		if (op != '+' && op != '-')
			return v;
		e->s++;
		struct exv r = ex_product(e);
		if (v.exact && r.exact) {
			int64_t x = 0;
			if (op == '+' ? __builtin_add_overflow(v.i, r.i, &x)
				      : __builtin_sub_overflow(v.i, r.i, &x))
				ex_fail(e, &v, 3);
			else
				v = ex_int(x);
		} else {
			v = ex_float(op == '+' ? v.d + r.d : v.d - r.d);
		}
	}
}

/* Evaluate `text` (all of it) as a `kind` expression into *out:
 * SSD_EPARSE if it is not one, SSD_ERANGE if it divides by zero (*div0
 * set, when div0 is not NULL) or a step does not fit. */
static int ex_eval(const char *text, int kind, unsigned kb_base,
		   struct exv *out, int *div0)
{
	struct expr e = {.s = text, .kind = kind, .kb_base = kb_base};
	struct exv v = ex_sum(&e);
	ex_space(&e);
	if (*e.s && !e.bad)
		e.bad = 1;
	if (div0)
		*div0 = e.bad == 2;
	if (e.bad)
		return e.bad == 1 ? SSD_EPARSE : SSD_ERANGE;
	if (!v.exact && !isfinite(v.d))
		return SSD_ERANGE;
	*out = v;
	return 0;
}

/* Options parsed by a function that take one size. */
static int size_fn(const struct jopt *o)
{
	return o->type == OT_FN &&
	       (o->fn == fn_bs_ddir || o->fn == fn_size64 ||
		o->fn == fn_offset_increment || o->fn == fn_number_ios);
}

static int numeric_type(const struct jopt *o)
{
	switch (o->type) {
	case OT_U32: case OT_I64: case OT_TIME: case OT_BS: case OT_REGION:
		return 1;
	case OT_NOEFFECT:
		return o->fn == ne_uint || o->fn == ne_size;
	case OT_FN:
		return o->fn == fn_rwmixwrite || o->fn == fn_randseed ||
		       o->fn == fn_kb_base || size_fn(o);
	}
	return 0;
}

/* "(EXPR)" of a numeric option: its value, as text the option reads. */
static int eval_value(struct parser *p, const struct jopt *o,
		      const char *val, char *out, size_t n)
{
	int kind = o->type == OT_TIME ? EX_TIME
		 : o->type == OT_BS || o->type == OT_REGION ||
		   o->fn == ne_size || size_fn(o) ? EX_SIZE : EX_INT;
	struct exv v;
	int div0;
	int rc = ex_eval(val, kind, p->kb_base ? p->kb_base : 1024, &v, &div0);
	if (rc == SSD_ERANGE)
		return opt_err(p, o, rc, div0 ? "'%.64s' divides by zero"
			       : "'%.64s' overflows: a step is beyond 64-bit "
				 "integers", val);
	if (rc)
		return opt_err(p, o, rc, "'%.64s' is not an arithmetic "
			       "expression", val);
	if (!v.exact && v.d == floor(v.d))
		return opt_err(p, o, SSD_ERANGE, "'%.64s' is %g, beyond 64-bit "
			       "integers", val, v.d);
	if (!v.exact || v.i < 0)
		return opt_err(p, o, SSD_ERANGE, "'%.64s' is %g, not a whole "
			       "number >= 0", val, v.d);
	snprintf(out, n, "%lld%s", (long long)v.i,
		 kind == EX_TIME ? "ns" : "");
	return 0;
}


static int set_region(struct parser *p, struct jstate *js,
		      const struct jopt *o, char *val)
{
	struct region_val rv = {.given = 1};
	size_t n = strlen(val);
	if (n && val[n - 1] == '%') {
		val[n - 1] = 0;
		char *num = ssd_strtrim(val);
		if (ssd_parse_double(num, &rv.pct))
			return opt_err(p, o, SSD_EPARSE,
				       "'%.64s%%' is not a percentage", num);
		int ok = o->idx == RV_OFFSET ? rv.pct >= 0 && rv.pct < 100
		       : o->idx == RV_SIZE  ? rv.pct > 0 && rv.pct <= 100
					    : rv.pct > 0 && rv.pct <= 1e6;
		if (!ok)
			return opt_err(p, o, SSD_ERANGE,
				       "%.64s%% is out of range", num);
		rv.is_pct = 1;
	} else {
		int rc = job_size(p, val, &rv.bytes);
		if (rc == SSD_EPARSE)
			return opt_err(p, o, rc, "'%.64s' is not a size", val);
		if (rc)
			return opt_err(p, o, rc, "%.64s is too large", val);
		if (o->idx != RV_OFFSET && rv.bytes == 0)
			return opt_err(p, o, SSD_ERANGE, "0 is out of range");
		if (o->idx == RV_OFFSET && rv.bytes % JOB_SECTOR)
			return opt_err(p, o, SSD_ERANGE,
				       "%.64s is not a multiple of 512 B, the "
				       "drive's sector", val);
	}
	js->rv[o->idx] = rv;
	return 0;
}

/* ---- logs and output: the options as written ---- */

/* Record key=value in the section's raw pairs (see struct ssd_job): a
 * key set again in the same section replaces its earlier pair. */
static int raw_set(struct parser *p, struct jstate *js,
		   const struct jopt *o, const char *val)
{
	struct ssd_job *j = &js->j;
	uint32_t pos = j->raw_global;
	while (pos < j->raw_len) {
		const char *k = j->raw + pos;
		size_t kl = strlen(k) + 1, vl = strlen(k + kl) + 1;
		if (!strcmp(k, o->name)) {
			memmove(j->raw + pos, j->raw + pos + kl + vl,
				j->raw_len - pos - kl - vl);
			j->raw_len -= (uint32_t)(kl + vl);
			continue;
		}
		pos += (uint32_t)(kl + vl);
	}
	size_t kl = strlen(o->name) + 1, vl = strlen(val) + 1;
	if (j->raw_len + kl + vl > sizeof j->raw)
		return opt_err(p, o, SSD_ERANGE,
			       "the options of this section take more than "
			       "%zu bytes of text (accepted: up to %zu bytes "
			       "of keys and values per job, [global] "
			       "included)", sizeof j->raw - 1,
			       sizeof j->raw - 1);
	memcpy(j->raw + j->raw_len, o->name, kl);
	memcpy(j->raw + j->raw_len + kl, val, vl);
	j->raw_len += (uint32_t)(kl + vl);
	return 0;
}

int ssd_job_raw_next(const struct ssd_job *j, int global, uint32_t *pos,
		     const char **key, const char **val)
{
	uint32_t lo = global ? 0 : j->raw_global;
	uint32_t hi = global ? j->raw_global : j->raw_len;
	if (*pos < lo)
		*pos = lo;
	if (*pos >= hi || hi > sizeof j->raw)
		return 0;
	*key = j->raw + *pos;
	size_t kl = strlen(*key) + 1;
	*val = *key + kl;
	*pos += (uint32_t)(kl + strlen(*val) + 1);
	return 1;
}

static int set_option(struct parser *p, struct jstate *js, int oi, char *val)
{
	const struct jopt *o = &opts[oi];
	void *field = (char *)&js->j + o->off;
	int rc = 0;

	if (o->type == OT_UNSUP)
		return perr(p, p->line, SSD_EUNSUP,
			    "option '%s' is not supported by ssdlab: %s",
			    p->key, o->help);
	if (!val && o->type != OT_BOOL && o->type != OT_LOG &&
	    o->fn != fn_clat_percentiles &&
	    !(o->type == OT_NOEFFECT &&
	      (o->fn == ne_bool || o->fn == ne_direct)))
		return opt_err(p, o, SSD_EPARSE, "needs a value");
	if (val && !*val && o->type != OT_LOG)
		return opt_err(p, o, SSD_EPARSE, "empty value");
	if (val && *val) {
		rc = raw_set(p, js, o, val);
		if (rc)
			return rc;
	}
	p->kb_base = js->kb_base;
	char num[64];
	if (val && val[0] == '(' && numeric_type(o)) {
		rc = eval_value(p, o, val, num, sizeof num);
		if (rc)
			return rc;
		val = num;
	}

	switch (o->type) {
	case OT_BOOL: {
		int b = 1;
		if (val && ssd_parse_bool(val, &b))
			return opt_err(p, o, SSD_EPARSE,
				       "'%.64s' is not a boolean", val);
		*(int *)field = b;
		break;
	}
	case OT_U32:
	case OT_I64: {
		uint64_t v;
		rc = ssd_parse_u64(val, &v);
		if (rc == SSD_EPARSE)
			return opt_err(p, o, rc, "'%.64s' is not an integer",
				       val);
		if (rc || v < o->min || v > o->max)
			return opt_err(p, o, SSD_ERANGE,
				       "%.64s is out of range", val);
		if (o->type == OT_U32)
			*(uint32_t *)field = (uint32_t)v;
		else
			*(int64_t *)field = (int64_t)v;
		break;
	}
	case OT_TIME: {
		int64_t t;
		rc = job_time(p, o, val, o->unit, &t);
		if (rc)
			return rc;
		*(int64_t *)field = t;
		break;
	}
	case OT_BS:
		rc = parse_bs(p, o, val, (uint32_t *)field);
		break;
	case OT_REGION:
		rc = set_region(p, js, o, val);
		break;
	case OT_LOG:
		if (val && strlen(val) >= o->size)
			return opt_err(p, o, SSD_ERANGE, "prefix is too long");
		js->log_bare[o->idx] = !val || !*val;
		snprintf((char *)field, o->size, "%s", val ? val : "");
		break;
	case OT_NOEFFECT:
		rc = o->fn(p, js, o, val ? val : "1");
		if (!rc)
			js->j.noeffect[oi / 64] |= 1ull << (oi % 64);
		break;
	case OT_WORD: {
		int i = 0;
		while (o->words[i] && strcmp(o->words[i], val))
			i++;
		if (!o->words[i])
			return opt_err(p, o, SSD_EPARSE,
				       "unknown value '%.64s'", val);
		*(int *)field = i;
		break;
	}
	case OT_FN:
		rc = o->fn(p, js, o, val);
		break;
	}
	if (!rc) {
		js->line_of[oi] = p->line;
		js->file_of[oi] = p->file;
	}
	return rc;
}

/* ---- a job as a whole ---- */

/* The line option `name` was set on (else the section header's), for a
 * message about the job as a whole; its file, when an include set it,
 * is left in *js->blame for that message. */
static int opt_line(const struct jstate *js, const char *name)
{
	int i = find_opt(name);
	if (i < 0 || !js->line_of[i])
		return js->j.line;
	if (js->blame)
		*js->blame = js->file_of[i];
	return js->line_of[i];
}

static int was_set(const struct jstate *js, const char *name)
{
	int i = find_opt(name);
	return i >= 0 && js->line_of[i];
}

/* The terms of the longest simulated time a job can take, in ns
 * (doubles: they may be absurd), each with the option it comes from. */
enum { SPAN_START, SPAN_RAMP, SPAN_RUN, SPAN_THINK, SPAN_FLOW, SPAN_RATE,
       SPAN_N };

/* A job with a runtime stops at startdelay + ramp_time + runtime (a
 * latency_target search runs its last window for a runtime anew; a think
 * time or flow_sleep in progress then ends once more); one without stops
 * after io_size bytes, so at most io_size / smallest block I/Os (plus one
 * shortened I/O per pass over a sequential region), each followed by a
 * share of think time and, in a flow, a flow_sleep, and no sooner than
 * io_size at its rate.  The I/O itself takes microseconds to
 * milliseconds of drive time and is left out.  Returns the sum. */
static double job_span(const struct ssd_job *j, uint64_t io_size,
		       uint32_t minbs, uint64_t size, double term[SPAN_N])
{
	double sleep = j->flow ? (double)j->flow_sleep : 0;
	memset(term, 0, SPAN_N * sizeof term[0]);
	term[SPAN_START] = (double)j->startdelay_hi;
	term[SPAN_RAMP] = (double)j->ramp_time;
	if (j->runtime) {
		term[SPAN_RUN] = (double)j->runtime *
				 (j->latency_target ? 2 : 1);
		term[SPAN_THINK] = (double)j->thinktime;
		term[SPAN_FLOW] = sleep;
	} else {
		if (j->thinktime || sleep) {
			double ios = ceil((double)io_size / minbs) +
				     ceil((double)io_size / (double)size);
			if (j->number_ios && (double)j->number_ios < ios)
				ios = (double)j->number_ios;
			if (j->rw == SSD_RW_TRIMWRITE ||
			    j->rw == SSD_RW_RANDTRIMWRITE)
				ios *= 2;
			ios *= j->loops;
			term[SPAN_THINK] = ceil(ios / j->thinktime_blocks) *
					   (double)j->thinktime;
			term[SPAN_FLOW] = ios * sleep;
		}
		/* a rate: io_size (every loop) at the slowest direction's
		 * rate */
		double slowest = 0;
		for (int d = 0; d < SSD_DDIR_N; d++) {
			double bps = j->rate[d] ? (double)j->rate[d]
				   : (double)j->rate_iops[d] * minbs;
			if (bps > 0 && (slowest == 0 || bps < slowest))
				slowest = bps;
		}
		if (slowest > 0)
			term[SPAN_RATE] = (double)io_size *
					  (j->loops ? j->loops : 1) / slowest *
					  (double)SSD_S;
	}
	double t = 0;
	for (int i = 0; i < SPAN_N; i++)
		t += term[i];
	return t;
}

/* The file so far, with this job, within what the runner can hold:
 * clones, I/Os in flight, simulated time (JOB_MAX_*). */
static int check_limits(struct parser *p, const struct jstate *js,
			uint64_t io_size, uint64_t size)
{
	const struct ssd_job *j = &js->j;
	p->clones += j->numjobs;
	if (p->clones > JOB_MAX_CLONES)
		return perr(p, opt_line(js, "numjobs"), SSD_ERANGE,
			    "option 'numjobs': the jobs up to '%s' have %llu "
			    "clones (numjobs summed over the file; accepted: "
			    "at most %d in all)", j->name,
			    (unsigned long long)p->clones, JOB_MAX_CLONES);
	p->inflight += (uint64_t)j->numjobs * j->iodepth;
	if (p->inflight > JOB_MAX_INFLIGHT) {
		const char *key = j->numjobs > 1 && !was_set(js, "iodepth")
					  ? "numjobs" : "iodepth";
		return perr(p, opt_line(js, key), SSD_ERANGE,
			    "option '%s': the jobs up to '%s' keep %llu I/Os "
			    "in flight (numjobs x iodepth summed over the "
			    "file; accepted: at most %u in all)", key, j->name,
			    (unsigned long long)p->inflight, JOB_MAX_INFLIGHT);
	}
	double term[SPAN_N];
	double span = job_span(j, io_size, ssd_job_min_bs(j), size, term);
	if (p->njobs > 0 && (j->stonewall || j->wait_for[0])) {
		p->span_done += p->span_group;
		p->span_group = 0;
	}
	if (span > p->span_group)
		p->span_group = span;
	double total = p->span_done + p->span_group;
	if (total > (double)JOB_MAX_SPAN) {
		/* name the largest term (the runtime when none is) */
		int big = SPAN_RUN;
		for (int i = 0; i < SPAN_N; i++)
			if (term[i] > term[big])
				big = i;
		const char *key = big == SPAN_START ? "startdelay"
				: big == SPAN_RAMP  ? "ramp_time"
				: big == SPAN_THINK ? "thinktime"
				: big == SPAN_FLOW  ? "flow_sleep"
				: big != SPAN_RATE  ? "runtime"
				: j->rate[0] || j->rate[1] || j->rate[2]
					? "rate" : "rate_iops";
		return perr(p, opt_line(js, key), SSD_ERANGE,
			    "option '%s': the jobs up to '%s' could span %.3g "
			    "years of simulated time (startdelay + ramp_time + "
			    "runtime, else thinktime and flow_sleep over every "
			    "I/O and io_size at its rate, summed over the "
			    "stonewalled groups; accepted: at most %.0f years "
			    "in all)", key, j->name, years_of(total),
			    floor(years_of((double)JOB_MAX_SPAN)));
	}
	return 0;
}

/* ---- files and regions: a job's part ---- */

static uint64_t align_up(uint64_t v, uint64_t a)
{
	uint64_t r = v % a;
	return r ? v + (a - r) : v;
}

static uint32_t max_bs(const struct ssd_job *j)
{
	return ssd_job_max_bs(j);
}

/* What a percentage offset or offset_increment is aligned up to: fio's
 * offset_align, else the smallest block size (here at least a page). */
static uint64_t pct_align(const struct ssd_job *j)
{
	if (j->offset_align)
		return j->offset_align;
	return align_up(ssd_job_min_bs(j), JOB_PAGE);
}

/* fio's rules for strided zones: zonesize alone implies zonemode=strided,
 * zonemode=none refuses zonesize, zonerange defaults to zonesize. */
static int check_zones(struct parser *p, struct jstate *js)
{
	struct ssd_job *j = &js->j;
	char b1[32], b2[32];
	if (!j->zonesize) {
		const char *key = j->zonemode == SSD_ZONEMODE_STRIDED
					  ? "zonemode"
				  : was_set(js, "zonerange") ? "zonerange"
				  : was_set(js, "zoneskip")  ? "zoneskip" : NULL;
		if (key)
			return perr(p, opt_line(js, key), SSD_EINVAL,
				    "option '%s': job '%s' has no zonesize "
				    "(accepted: zonemode=strided with "
				    "zonesize)", key, j->name);
		return 0;
	}
	if (was_set(js, "zonemode") && j->zonemode == SSD_ZONEMODE_NONE)
		return perr(p, opt_line(js, "zonesize"), SSD_EINVAL,
			    "option 'zonesize': job '%s' has zonemode=none "
			    "(accepted: zonesize with zonemode=strided)",
			    j->name);
	j->zonemode = SSD_ZONEMODE_STRIDED;
	if (!j->zonerange)
		j->zonerange = align_up(j->zonesize, JOB_PAGE);
	if (j->zonerange < max_bs(j)) {
		const char *key = was_set(js, "zonerange") ? "zonerange"
							   : "zonesize";
		return perr(p, opt_line(js, key), SSD_ERANGE,
			    "option '%s': the zones of job '%s' (%s) are "
			    "smaller than its block size %s (accepted: "
			    "zonerange >= block size)", key, j->name,
			    ssd_fmt_bytes(j->zonerange, b1, sizeof b1),
			    ssd_fmt_bytes(max_bs(j), b2, sizeof b2));
	}
	return 0;
}

/* *out = a malloc'd copy of s, or NULL for ""; SSD_ENOMEM. */
static int dup_or_null(const char *s, char **out)
{
	*out = NULL;
	if (!*s)
		return 0;
	size_t n = strlen(s) + 1;
	*out = malloc(n);
	if (!*out)
		return SSD_ENOMEM;
	memcpy(*out, s, n);
	return 0;
}

/* Keep what resolve_files needs of the job being appended; resolve its
 * offset_increment (a percentage is of the drive). */
static int keep_files(struct parser *p, struct jstate *js)
{
	struct ssd_job *j = &js->j;
	uint64_t inc = js->incr.bytes, last;
	if (js->incr.is_pct)
		inc = align_up((uint64_t)((double)p->capacity * js->incr.pct /
					  100.0), pct_align(j));
	/* the last clone's offset, and without a filesize the end of its
	 * region, which the regions and files are checked against */
	if (__builtin_mul_overflow((uint64_t)(j->numjobs - 1), inc, &last) ||
	    __builtin_add_overflow(last, j->offset, &last) ||
	    __builtin_add_overflow(last, js->filesize_lo ? 0 : j->size,
				   &last)) {
		char b1[32];
		return perr(p, opt_line(js, "offset_increment"), SSD_ERANGE,
			    "option 'offset_increment': clone %u of job '%s' "
			    "at offset + %u x %s reaches past 2^64 bytes "
			    "(accepted: offset + (numjobs-1) x "
			    "offset_increment inside the drive or file)",
			    j->numjobs - 1, j->name, j->numjobs - 1,
			    ssd_fmt_bytes(inc, b1, sizeof b1));
	}
	if (p->njobs == p->jfcap) {
		int cap = p->jfcap ? 2 * p->jfcap : 8;
		struct jfiles *jf = realloc(p->jf, (size_t)cap * sizeof *jf);
		if (!jf)
			return nomem(p);
		p->jf = jf;
		p->jfcap = cap;
	}
	struct jfiles *f = &p->jf[p->njobs];
	memset(f, 0, sizeof *f);
	if (dup_or_null(js->filename, &f->filename) ||
	    dup_or_null(js->filename_format, &f->format)) {
		free(f->filename);
		f->filename = NULL;
		return nomem(p);
	}
	f->fs_lo = js->filesize_lo;
	f->fs_hi = js->filesize_hi;
	f->size_given = js->rv[RV_SIZE].given && !js->j.fill_device;
	f->size_pct = js->rv[RV_SIZE].is_pct;
	f->off_pct = js->rv[RV_OFFSET].is_pct;
	f->incr_pct = js->incr.is_pct;
	f->io = js->rv[RV_IO_SIZE];
	f->ln_filename = opt_line(js, "filename");
	f->ln_nrfiles = opt_line(js, "nrfiles");
	f->ln_size = opt_line(js, "size");
	f->ln_filesize = opt_line(js, "filesize");
	f->ln_incr = opt_line(js, "offset_increment");
	f->ln_offset = opt_line(js, "offset");
	f->ln_zone = opt_line(js, "zonesize");
	f->ln_fill = opt_line(js, "fill_device");
	j->offset_increment = inc;
	return 0;
}

static void free_files(struct parser *p)
{
	for (int i = 0; i < p->njobs && p->jf; i++) {
		free(p->jf[i].filename);
		free(p->jf[i].format);
	}
	free(p->jf);
	p->jf = NULL;
}

/* The I/O stream as fio resolves it once the job's region is known:
 * per direction, the range of I/O sizes (bssplit, else bsrange, else
 * bs) and the alignment of random offsets; zoned_abs sizes; and checks
 * that the region holds what the stream asks of it. */
/* Per direction, the range of I/O sizes (bssplit, else bsrange, else bs)
 * and the alignment of random offsets.  Idempotent: the region checks
 * and the file layout need the sizes before finish_stream runs. */
static void resolve_bs(struct ssd_job *j)
{
	unsigned used = ssd_rw_ddirs(j->rw);

	j->blockalign_set = 0;
	for (int d = 0; d < SSD_DDIR_N; d++) {
		if (j->nbssplit[d]) {
			j->min_bs[d] = UINT32_MAX;
			j->max_bs[d] = 0;
			for (int i = 0; i < j->nbssplit[d]; i++) {
				uint32_t b = j->bssplit[d][i].bs;
				if (b < j->min_bs[d])
					j->min_bs[d] = b;
				if (b > j->max_bs[d])
					j->max_bs[d] = b;
			}
		} else if (!j->min_bs[d]) {
			j->min_bs[d] = j->max_bs[d] = j->bs[d];
		}
		if (!j->blockalign[d])
			j->blockalign[d] = j->min_bs[d];
		else if (j->blockalign[d] != j->min_bs[d] && (used >> d & 1) &&
			 ssd_rw_is_random(j->rw))
			j->blockalign_set = 1;
	}
}

/* size: the region's bytes; written: as written (more when the region
 * was cut to whole blocks). */
static int finish_stream(struct parser *p, struct jstate *js, uint64_t size,
			 uint64_t written)
{
	struct ssd_job *j = &js->j;
	char b1[32], b2[32], b3[48];

	resolve_bs(j);

	/* the region must hold the largest block */
	uint32_t maxbs = ssd_job_max_bs(j);
	if (size < maxbs) {
		const char *key = "bs";
		if (was_set(js, "bssplit"))
			key = "bssplit";
		else if (was_set(js, "bsrange"))
			key = "bsrange";
		key = was_set(js, "size") || !was_set(js, key) ? "size" : key;
		char b4[32];
		b3[0] = 0;
		if (written != size && size)
			snprintf(b3, sizeof b3, ", %s in whole %s blocks",
				 ssd_fmt_bytes(size, b1, sizeof b1),
				 ssd_fmt_bytes(ssd_job_min_bs(j), b4,
					       sizeof b4));
		return perr(p, opt_line(js, key), SSD_ERANGE,
			    "option '%s': the region of job '%s' (%s%s) is "
			    "smaller than its block size %s (accepted: size "
			    ">= block size)", key, j->name,
			    ssd_fmt_bytes(written, b1, sizeof b1), b3,
			    ssd_fmt_bytes(maxbs, b2, sizeof b2));
	}

	uint64_t add = j->seq_add < 0 ? (uint64_t)-j->seq_add
				      : (uint64_t)j->seq_add;
	if (add >= size)
		return perr(p, opt_line(js, "rw"), SSD_ERANGE,
			    "option 'rw': the offset modifier %s%s is not "
			    "smaller than the region of job '%s' (%s; "
			    "accepted: |N| < size)", j->seq_add < 0 ? "-" : "",
			    ssd_fmt_bytes(add, b1, sizeof b1), j->name,
			    ssd_fmt_bytes(size, b2, sizeof b2));

	if (j->dist == SSD_DIST_ZONED_ABS) {
		for (int d = 0; d < SSD_DDIR_N; d++) {
			uint64_t sum = 0;
			int n = j->nzones[d], wrap = 0;
			for (int i = 0; i < n; i++)
				wrap |= __builtin_add_overflow(
					sum, j->zones[d][i].size_bytes, &sum);
			if (wrap || sum > size ||
			    (!j->zones[d][n - 1].size_bytes && sum >= size))
				return perr(p, opt_line(js,
							"random_distribution"),
					    SSD_ERANGE,
					    "option 'random_distribution': "
					    "the zones cover %s%s, more than the "
					    "region of job '%s' (%s; accepted: "
					    "zone sizes within size)",
					    wrap ? "over " : "",
					    ssd_fmt_bytes(wrap ? UINT64_MAX : sum,
							  b1, sizeof b1),
					    j->name,
					    ssd_fmt_bytes(size, b2, sizeof b2));
			if (!j->zones[d][n - 1].size_bytes)
				j->zones[d][n - 1].size_bytes = size - sum;
			for (int i = 0; i < n; i++)
				j->zones[d][i].size_pct =
					100.0 *
					(double)j->zones[d][i].size_bytes /
					(double)size;
		}
	}
	j->io_size_set = js->rv[RV_IO_SIZE].given;
	return 0;
}

/* ---- a job as a whole: errors, exits and command modes ---- */

/* num_range goes with trim-only jobs (fio refuses it with reads or
 * writes). */
static int finish_cmd_modes(struct parser *p, struct jstate *js)
{
	struct ssd_job *j = &js->j;
	int trim_only = j->rw == SSD_RW_TRIM || j->rw == SSD_RW_RANDTRIM;
	if (j->dist == SSD_DIST_SEQUENCE && !j->nfiles) {
		/* fio fails the job at the first such block */
		for (int d = 0; d < SSD_DDIR_N; d++) {
			uint32_t bs = j->min_bs[d] ? j->min_bs[d] : j->bs[d];
			if (!(ssd_rw_ddirs(j->rw) >> d & 1) || !bs)
				continue;
			uint64_t blocks = j->size / bs;
			for (uint32_t i = 0; i < j->nsequence; i++)
				if (j->sequence[i] >= blocks)
					return perr(p, opt_line(js,
						"random_distribution"),
						SSD_ERANGE, "option "
						"'random_distribution': block "
						"%u of the sequence is past "
						"the end of job '%s' (%llu "
						"blocks of %u B; accepted: "
						"block indices 0..%llu)",
						j->sequence[i], j->name,
						(unsigned long long)blocks, bs,
						(unsigned long long)(blocks ?
						blocks - 1 : 0));
		}
	}
	if (j->num_range > 1 && !trim_only)
		return perr(p, opt_line(js, "num_range"), SSD_EINVAL,
			    "option 'num_range': job '%s' has rw=%s (accepted: "
			    "num_range > 1 with rw=trim or randtrim only, as "
			    "in fio)", j->name, ssd_rw_name(j->rw));
	return 0;
}

/* ---- a job as a whole: pacing and the order of jobs ---- */

/* Defaults that depend on other options, fio's clamps, and the checks
 * between options of this group. */
static int finish_pacing(struct parser *p, struct jstate *js)
{
	struct ssd_job *j = &js->j;
	if (!j->iodepth_low || j->iodepth_low > j->iodepth)
		j->iodepth_low = j->iodepth;
	if (!j->iodepth_batch || j->iodepth_batch > j->iodepth)
		j->iodepth_batch = j->iodepth;
	if (j->iodepth_batch_complete_max < j->iodepth_batch_complete_min)
		j->iodepth_batch_complete_max = j->iodepth_batch_complete_min;
	if (j->thinktime_spin > j->thinktime)
		j->thinktime_spin = j->thinktime;
	j->thinktime_blocks_set = was_set(js, "thinktime_blocks");

	int bytes = 0, iops = 0, bmin = 0, imin = 0;
	for (int d = 0; d < SSD_DDIR_N; d++) {
		bytes |= j->rate[d] != 0;
		iops |= j->rate_iops[d] != 0;
		bmin |= j->rate_min[d] != 0;
		imin |= j->rate_iops_min[d] != 0;
	}
	if ((bytes && iops) || (bmin && imin)) {
		const char *key = bytes && iops ? "rate_iops" : "rate_iops_min";
		return perr(p, opt_line(js, key), SSD_EINVAL,
			    "option '%s': job '%s' sets both a bandwidth and an "
			    "IOPS %s (accepted: one of rate%s and rate_iops%s, "
			    "as in fio)", key, j->name,
			    bytes && iops ? "rate" : "minimum",
			    bytes && iops ? "" : "_min",
			    bytes && iops ? "" : "_min");
	}
	for (int d = 0; d < SSD_DDIR_N; d++)
		if ((j->rate[d] && j->rate[d] < j->rate_min[d]) ||
		    (j->rate_iops[d] && j->rate_iops[d] < j->rate_iops_min[d]))
			return perr(p, opt_line(js, bmin ? "rate_min"
							 : "rate_iops_min"),
				    SSD_EINVAL,
				    "option '%s': job '%s' asks a minimum above "
				    "its rate (accepted: minimum <= rate)",
				    bmin ? "rate_min" : "rate_iops_min", j->name);

	if (j->wait_for[0]) {
		int n = 0;
		for (int i = 0; i < p->njobs; i++)
			n += !strcmp(p->jobs[i].name, j->wait_for);
		const char *why = !strcmp(j->wait_for, j->name)
			? "a job cannot wait for itself"
			: !n ? "no job of that name comes before it"
			: n > 1 ? "more than one job above has that name" : NULL;
		if (why)
			return perr(p, opt_line(js, "wait_for"), SSD_EINVAL,
				    "option 'wait_for': '%s' in job '%s': %s "
				    "(accepted: the unique name of a job above)",
				    j->wait_for, j->name, why);
	}

	if (j->ss_dur) {
		int64_t iv = j->ss_interval;
		if (iv < SSD_S || iv % SSD_S)
			return perr(p, opt_line(js, "ss_interval"), SSD_ERANGE,
				    "option 'ss_interval': job '%s': %lld ns "
				    "(accepted: whole seconds, at least 1 s)",
				    j->name, (long long)iv);
		if (j->ss_dur % iv || j->ss_dur <= iv)
			return perr(p, opt_line(js, "ss_dur"), SSD_ERANGE,
				    "option 'ss_dur': job '%s': %g s is not a "
				    "multiple of ss_interval %g s above it "
				    "(accepted: 2, 3, ... intervals)", j->name,
				    (double)j->ss_dur / SSD_S,
				    (double)iv / SSD_S);
		if (j->ss_dur / iv > (1 << 20))
			return perr(p, opt_line(js, "ss_dur"), SSD_ERANGE,
				    "option 'ss_dur': job '%s': more than %d "
				    "intervals (accepted: fewer)", j->name,
				    1 << 20);
		for (int i = 0; i < p->njobs; i++)
			if (p->jobs[i].ss_dur && p->jobs[i].ss_interval != iv)
				return perr(p, opt_line(js, "ss_interval"),
					    SSD_EINVAL,
					    "option 'ss_interval': job '%s' "
					    "differs from job '%s' (accepted: "
					    "the same interval in every job, as "
					    "in fio)", j->name, p->jobs[i].name);
	}
	return 0;
}

static void job_defaults(struct ssd_job *j);

/* A job built in code (ssd_jobs_add) may assign offset, size and io_size
 * in bytes rather than set them as options: a non-zero field counts as
 * written.  (In a job read from a file they are still 0 here: the
 * options fill js->rv.)  A built job's other assigned fields are held
 * to the ranges of their rows in the option table. */
static int take_assigned(struct parser *p, struct jstate *js)
{
	struct ssd_job *j = &js->j;
	uint64_t *field[RV_N] = {&j->size, &j->io_size, &j->offset};
	for (int i = 0; i < RV_N; i++) {
		if (!*field[i])
			continue;
		/* a built job's size is not cut to whole blocks (it gets
		 * the region it asks for): a multiple of 4 KiB, as ever */
		if (i == RV_SIZE && *field[i] % JOB_PAGE)
			return perr(p, j->line, SSD_ERANGE,
				    "option 'size': %llu B in job '%s' is not a "
				    "multiple of 4 KiB (accepted: a multiple of "
				    "4 KiB, in a job built in code)",
				    (unsigned long long)*field[i], j->name);
		if (i == RV_OFFSET && *field[i] % JOB_SECTOR)
			return perr(p, j->line, SSD_ERANGE,
				    "option 'offset': %llu B in job '%s' is not a "
				    "multiple of 512 B (accepted: %s)",
				    (unsigned long long)*field[i], j->name,
				    opts[find_opt("offset")].value);
		js->rv[i] = (struct region_val){.given = 1,
						.bytes = *field[i]};
		*field[i] = 0;
	}
	if (!p->built)
		return 0;
	struct ssd_job d;
	job_defaults(&d);
	for (int i = 0; i < NOPTS; i++) {
		const struct jopt *o = &opts[i];
		const char *f = (const char *)j + o->off;
		const char *df = (const char *)&d + o->off;
		uint64_t v;
		if (o->type == OT_U32)
			v = *(const uint32_t *)f;
		else if (o->type == OT_I64)
			v = (uint64_t)*(const int64_t *)f;
		else
			continue;
		if (!memcmp(f, df, o->type == OT_U32 ? 4 : 8))
			continue;
		if (v < o->min || v > o->max)
			return perr(p, j->line, SSD_ERANGE,
				    "option '%s': %lld in job '%s' is out of "
				    "range (accepted: %s)", o->name,
				    o->type == OT_U32 ? (long long)v
						      : (long long)(int64_t)v,
				    j->name, o->value);
	}
	for (int dd = 0; dd < SSD_DDIR_N; dd++)
		if (j->bs[dd] < JOB_SECTOR || j->bs[dd] > JOB_BS_MAX ||
		    j->bs[dd] % JOB_SECTOR)
			return perr(p, j->line, SSD_ERANGE,
				    "option 'bs': %u B in job '%s' is out of "
				    "range (accepted: %s)", j->bs[dd], j->name,
				    opts[find_opt("bs")].value);
	if (j->rw < SSD_RW_READ || j->rw > SSD_RW_RANDTRIMWRITE)
		return perr(p, j->line, SSD_ERANGE,
			    "option 'rw': %d in job '%s' is not an enum ssd_rw",
			    j->rw, j->name);
	return 0;
}

/* Resolve percentages and defaults, check the region, append the job. */
static int finish_job(struct parser *p)
{
	struct jstate *js = &p->cur;
	struct ssd_job *j = &js->j;
	uint64_t cap = p->capacity;
	char b1[32], b2[32], b3[32];
	int rc = take_assigned(p, js);
	if (rc)
		return rc;

	resolve_bs(j);

	/* offset */
	const struct region_val *rv = &js->rv[RV_OFFSET];
	uint64_t off = rv->bytes;
	if (rv->is_pct)
		off = align_up((uint64_t)((double)cap * rv->pct / 100.0),
			       pct_align(j));
	if (off >= cap)
		return perr(p, opt_line(js, "offset"), SSD_ERANGE,
			    "option 'offset': %s is not inside the drive "
			    "(job '%s'; accepted: less than the capacity %s)",
			    ssd_fmt_bytes(off, b1, sizeof b1), j->name,
			    ssd_fmt_bytes(cap, b2, sizeof b2));

	/* size */
	rv = &js->rv[RV_SIZE];
	uint64_t size = cap - off;
	if (rv->given && !j->fill_device) {
		size = rv->bytes;
		if (rv->is_pct)
			size = (uint64_t)((double)cap * rv->pct / 100.0) &
			       ~(uint64_t)(JOB_PAGE - 1);
		if (!size)
			return perr(p, opt_line(js, "size"), SSD_ERANGE,
				    "option 'size': %g%% of %s is less than "
				    "4 KiB (accepted: at least 4 KiB)",
				    rv->pct, ssd_fmt_bytes(cap, b1, sizeof b1));
		/* fio's I/O covers whole blocks of the smallest size: a
		 * written size that is not is cut (size=1000000000 of
		 * 4 KiB blocks is 244140 of them), the report notes it.  A
		 * job built in code gets the region it asks for. */
		uint32_t minbs = ssd_job_min_bs(j);
		if (!rv->is_pct && size % minbs && !p->built) {
			j->cut_key = "size";
			j->cut_lo = j->cut_hi = size;
			size -= size % minbs;
		}
		if (size > cap - off && !js->filesize_lo) {
			const char *key = was_set(js, "size") ? "size"
							      : "offset";
			return perr(p, opt_line(js, key), SSD_ERANGE,
				    "option '%s': offset %s + size %s is "
				    "beyond the volume's capacity %s (job '%s'; "
				    "accepted: offset + size <= capacity)",
				    key, ssd_fmt_bytes(off, b1, sizeof b1),
				    ssd_fmt_bytes(size, b2, sizeof b2),
				    ssd_fmt_bytes(cap, b3, sizeof b3),
				    j->name);
		}
	}

	/* io_size */
	rv = &js->rv[RV_IO_SIZE];
	uint64_t io_size = size;
	if (rv->given) {
		io_size = rv->bytes;
		if (rv->is_pct) {
			double v = (double)size * rv->pct / 100.0;
			if (v >= 0x1p63)
				return perr(p, opt_line(js, "io_size"),
					    SSD_ERANGE,
					    "option 'io_size': %g%% of the "
					    "size is too large", rv->pct);
			io_size = (uint64_t)v;
		}
		if (!io_size)
			return perr(p, opt_line(js, "io_size"), SSD_ERANGE,
				    "option 'io_size': %g%% of %s is 0 bytes "
				    "(accepted: more than 0)", rv->pct,
				    ssd_fmt_bytes(size, b1, sizeof b1));
	}

	rc = finish_stream(p, js, size, j->cut_key ? j->cut_lo : size);
	if (rc)
		return rc;

	if (j->write_iolog[0] && j->numjobs > 1)
		return perr(p, opt_line(js, "write_iolog"), SSD_EINVAL,
			    "option 'write_iolog': job '%s' has %u clones, which "
			    "would write the one file together (accepted: "
			    "numjobs=1, or a job per log)", j->name, j->numjobs);
	if (j->read_iolog[0] && j->verify != SSD_VERIFY_NONE)
		return perr(p, opt_line(js, "verify"), SSD_EUNSUP,
			    "option 'verify': job '%s' replays a trace "
			    "(read_iolog), whose data is not known (accepted: "
			    "verify=0 with read_iolog)", j->name);
	if (j->write_iolog[0] && j->nfiles > 1)
		return perr(p, opt_line(js, "write_iolog"), SSD_EINVAL,
			    "option 'write_iolog': job '%s' has %u files; its log "
			    "names one (accepted: one file, or none: the drive)",
			    j->name, j->nfiles);
	if (j->read_iolog[0] && j->nfiles > 1)
		return perr(p, opt_line(js, "read_iolog"), SSD_EINVAL,
			    "option 'read_iolog': job '%s' has %u files; a trace "
			    "is replayed onto one (accepted: one file, or none: "
			    "the job's region)", j->name, j->nfiles);

	if (j->verify_only && j->time_based)
		return perr(p, opt_line(js, "verify_only"), SSD_EINVAL,
			    "option 'verify_only': job '%s' is time_based, so "
			    "the writes to replay are not known (accepted: "
			    "verify_only without time_based)", j->name);

	if (j->time_based && j->runtime == 0) {
		/* fio: "time_based requires a runtime/timeout setting", and
		 * it runs the job without it; the report lists it among the
		 * options taken without effect */
		int oi = find_opt("time_based");
		j->time_based = 0;
		j->noeffect[oi / 64] |= 1ull << (oi % 64);
	}

	rc = check_zones(p, js);
	if (rc)
		return rc;
	rc = check_limits(p, js, io_size, size);
	if (rc)
		return rc;

	j->offset = off;
	j->size = size;
	rc = finish_pacing(p, js);
	if (rc)
		return rc;
	rc = finish_cmd_modes(p, js);
	if (rc)
		return rc;
	j->io_size = io_size;
	char *logs[LOG_N] = {j->write_iops_log, j->write_bw_log,
			     j->write_lat_log, j->write_hist_log};
	for (int i = 0; i < LOG_N; i++)
		if (js->log_bare[i])
			snprintf(logs[i], sizeof j->write_iops_log, "%s",
				 j->name);

	if (p->njobs == p->cap) {
		int ncap = p->cap ? 2 * p->cap : 8;
		struct ssd_job *jobs = realloc(p->jobs,
					       (size_t)ncap * sizeof *j);
		if (!jobs)
			return nomem(p);
		p->jobs = jobs;
		p->cap = ncap;
	}
	rc = keep_files(p, js);
	if (rc)
		return rc;
	p->jobs[p->njobs++] = *j;
	return 0;
}

/* ---- lines ---- */

/* Cut a comment that starts after white space ("bs=4k  # note"). */
static void strip_comment(char *s)
{
	for (char *c = s + 1; *c; c++)
		if ((*c == '#' || *c == ';') && isspace((unsigned char)c[-1])) {
			*c = 0;
			return;
		}
}

static int section_header(struct parser *p, char *s)
{
	size_t n = strlen(s);
	if (n < 2 || s[n - 1] != ']')
		return perr(p, p->line, SSD_EPARSE,
			    "malformed section header '%.64s' (accepted: "
			    "[global] or [jobname])", s);
	s[n - 1] = 0;
	char *name = ssd_strtrim(s + 1);
	if (!*name || strpbrk(name, "[]"))
		return perr(p, p->line, SSD_EPARSE,
			    "malformed section header '[%.64s]' (accepted: "
			    "[global] or [jobname])", name);
	if (strlen(name) >= sizeof p->cur.j.name)
		return perr(p, p->line, SSD_ERANGE,
			    "job name '%.32s...' is too long (accepted: up to "
			    "%zu characters)", name, sizeof p->cur.j.name - 1);
	if (p->section == SEC_JOB) {
		int rc = finish_job(p);
		if (rc)
			return rc;
	}
	if (!strcmp(name, "global")) {
		p->section = SEC_GLOBAL;
		return 0;
	}
	p->section = SEC_JOB;
	p->cur = p->global;
	p->cur.j.raw_global = p->cur.j.raw_len;
	snprintf(p->cur.j.name, sizeof p->cur.j.name, "%s", name);
	snprintf(p->cur.j.file, sizeof p->cur.j.file, "%s", p->file);
	p->cur.j.line = p->line;
	return 0;
}

/* ---- values: ${VAR} and fio's reserved keywords ----
 * As in fio, "${NAME}" in a value is replaced by the environment
 * variable NAME, or by nothing when it is not set (a message about the
 * value then says so); $pagesize, $mb_memory and $ncpus are the running
 * system's page size, memory in MiB and online CPUs, and a value that
 * used one and holds + - * / is evaluated as integer arithmetic, as fio
 * does ("size=8*$mb_memory"). */
static int host_keyword(const char *s, size_t *len, unsigned long long *v)
{
	static const char *const kw[] = {"$pagesize", "$mb_memory", "$ncpus"};
	for (int i = 0; i < 3; i++) {
		size_t n = strlen(kw[i]);
		if (strncmp(s, kw[i], n) || isalnum((unsigned char)s[n]) ||
		    s[n] == '_')
			continue;
		long page = sysconf(_SC_PAGESIZE);
		long pages = sysconf(_SC_PHYS_PAGES);
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		if (page <= 0)
			page = 4096;
		*v = i == 0 ? (unsigned long long)page
		   : i == 1 ? (unsigned long long)(pages > 0 ? pages : 0) *
				      (unsigned long long)page >> 20
			    : (unsigned long long)(cpus > 0 ? cpus : 1);
		*len = n;
		return 1;
	}
	return 0;
}

static int expand_value(struct parser *p, const struct jopt *o,
			const char *val, char *out, size_t n)
{
	size_t k = 0;
	int keywords = 0;
	p->unset_var[0] = 0;
	for (const char *c = val; *c;) {
		char piece[32];
		const char *add = NULL;
		size_t addn = 0, used = 1;
		unsigned long long kv;
		const char *close = c[0] == '$' && c[1] == '{' ? strchr(c, '}')
							       : NULL;
		if (close) {
			char name[128];
			size_t nl = (size_t)(close - c - 2);
			snprintf(name, sizeof name, "%.*s",
				 (int)(nl < 127 ? nl : 127), c + 2);
			add = getenv(name);
			if (!add || !*add) {
				snprintf(p->unset_var, sizeof p->unset_var,
					 "%.60s", name);
				add = "";
			}
			addn = strlen(add);
			used = (size_t)(close - c) + 1;
		} else if (*c == '$' && host_keyword(c, &used, &kv)) {
			snprintf(piece, sizeof piece, "%llu", kv);
			add = piece;
			addn = strlen(piece);
			keywords = 1;
		} else {
			add = c;
			addn = 1;
		}
		if (k + addn >= n)
			return opt_err(p, o, SSD_ERANGE, "value is longer than "
				       "%zu characters once expanded", n - 1);
		memcpy(out + k, add, addn);
		k += addn;
		c += used;
	}
	out[k] = 0;
	if (keywords && strpbrk(out, "+-*/")) {
		struct exv v;
		if (ex_eval(out, EX_INT, 1024, &v, NULL) || !v.exact || v.i < 0)
			return opt_err(p, o, SSD_EPARSE,
				       "'%.64s' is not integer arithmetic "
				       "on $pagesize, $mb_memory, $ncpus",
				       val);
		snprintf(out, n, "%lld", (long long)v.i);
	}
	return 0;
}

/* ---- option lines ---- */

static int parse_line(struct parser *p, char *s)
{
	s = ssd_strtrim(s);
	if (!*s || *s == '#' || *s == ';')
		return 0;
	strip_comment(s);
	s = ssd_strtrim(s);
	if (*s == '[')
		return section_header(p, s);

	char *eq = strchr(s, '=');
	char *val = NULL;
	if (eq) {
		*eq = 0;
		val = ssd_strtrim(eq + 1);
	}
	char *key = ssd_strtrim(s);
	p->key = key;
	p->unset_var[0] = 0;
	if (!*key)
		return perr(p, p->line, SSD_EPARSE,
			    "line has no option name (accepted: key=value or "
			    "a bare boolean key)");
	int oi = find_opt(key);
	if (oi < 0)
		return unknown_option(p, key);
	if (p->section == SEC_NONE)
		return perr(p, p->line, SSD_EPARSE,
			    "option '%.64s' is outside of any section "
			    "(accepted: after a [global] or [jobname] header)",
			    key);
	char buf[JOB_LINE_MAX + 1];
	if (val && strchr(val, '$')) {
		int rc = expand_value(p, &opts[oi], val, buf, sizeof buf);
		if (rc)
			return rc;
		val = buf;
	}
	int rc = set_option(p, p->section == SEC_GLOBAL ? &p->global : &p->cur,
			    oi, val);
	p->unset_var[0] = 0;
	return rc;
}

static void job_defaults(struct ssd_job *j)
{
	memset(j, 0, sizeof *j);
	j->rw = SSD_RW_READ;
	j->replay_time_scale = 100;
	j->replay_scale = 1;
	j->rwmixread = 50;
	for (int d = 0; d < SSD_DDIR_N; d++) {
		j->bs[d] = 4096;
		j->perc_random[d] = 100;
	}
	j->seq_nr = 1;
	j->dist_center = -1;
	j->loops = 1;
	j->iodepth = 1;
	j->dist = SSD_DIST_RANDOM;
	j->thinktime_blocks = 1;
	j->numjobs = 1;
	j->do_verify = 1;
	j->trim_verify_zero = 1;
	j->nrfiles = 1;
	j->file_service = SSD_FSRV_ROUNDROBIN;
	j->file_service_nr = 1;
	j->per_job_logs = 1;
	j->error_dump = 1;
	j->num_range = 1;
	j->wmode_pct[SSD_WMODE_WRITE] = 100;
	j->verify_write_sequence = 1;
	/* pacing and the order of jobs */
	j->ratecycle = 1000 * SSD_MS;
	j->iodepth_batch = 1;
	j->iodepth_batch_complete_min = 1;
	j->ss_state = SSD_SS_IOPS | SSD_SS_SLOPE | SSD_SS_PCT;
	j->ss_limit = 0.01;
	j->ss_interval = SSD_S;
	j->latency_percentile = 100.0;
}

/* ---- files and regions: the whole file ---- */

/* The names of a job's files for one clone: the filename list (split at
 * ':' not escaped as '\:'), or nrfiles names made from filename_format.
 * Returns how many; each names[i] is malloc'd.  Out of memory: *oom is
 * set and the count returned is of the names made before (free_names
 * frees them). */
static uint32_t file_names(const struct jfiles *f, const struct ssd_job *j,
			   uint32_t clone, char **names, int *oom)
{
	if (f->filename) {
		uint32_t n = 0;
		const char *c = f->filename;
		while (*c) {
			char *name = calloc(1, strlen(c) + 1), *d = name;
			if (!name) {
				*oom = 1;
				return n;
			}
			for (; *c && *c != ':'; c++) {
				if (*c == '\\' && c[1] == ':')
					c++;
				*d++ = *c;
			}
			if (*c == ':')
				c++;
			names[n++] = name;
		}
		return n;
	}
	const char *fmt = f->format ? f->format : "$jobname.$jobnum.$filenum";
	for (uint32_t i = 0; i < j->nrfiles; i++) {
		char buf[JOB_LINE_MAX + 64];
		size_t len = 0;
		for (const char *c = fmt; *c && len < JOB_LINE_MAX;) {
			static const char *const kw[] = {
				"$jobname", "$jobnum", "$filenum", "$clientuid"};
			int k = 0;
			for (; k < 4; k++)
				if (!strncasecmp(c, kw[k], strlen(kw[k])))
					break;
			if (k == 4) {
				buf[len++] = *c++;
				continue;
			}
			c += strlen(kw[k]);
			if (k == 0)
				len += (size_t)snprintf(buf + len, 64, "%.63s",
							j->name);
			else if (k == 1 || k == 2)
				len += (size_t)snprintf(buf + len, 64, "%u",
							k == 1 ? clone : i);
			else
				len += (size_t)snprintf(buf + len, 64, "local");
		}
		buf[len] = 0;
		names[i] = malloc(len + 1);
		if (!names[i]) {
			*oom = 1;
			return i;
		}
		memcpy(names[i], buf, len + 1);
	}
	return j->nrfiles;
}

/* Whether clones get files of their own (names made with $jobnum). */
static int names_per_clone(const struct jfiles *f)
{
	if (f->filename)
		return 0;
	const char *fmt = f->format ? f->format : "$jobnum";
	for (const char *c = fmt; *c; c++)
		if (!strncasecmp(c, "$jobnum", 7))
			return 1;
	return 0;
}

static void free_names(char **names, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		free(names[i]);
}

/* A file's size drawn in [lo, hi] from its name, 4 KiB aligned: the same
 * name has the same size in every job. */
static uint64_t drawn_size(const struct jfiles *f, const char *name)
{
	if (f->fs_lo == f->fs_hi)
		return f->fs_lo;
	uint64_t h = 0xcbf29ce484222325ULL;
	for (const char *c = name; *c; c++)
		h = (h ^ (unsigned char)*c) * 0x100000001b3ULL;
	uint64_t steps = (f->fs_hi - f->fs_lo) / JOB_PAGE + 1;
	return f->fs_lo + ssd_mix64(h) % steps * JOB_PAGE;
}

/* Bytes of file i of n when job j's size is split over its files: units
 * of whole blocks that keep the files 4 KiB aligned shared out, the first
 * files one unit more (fio gives them a block more). */
static uint64_t share_of(const struct ssd_job *j, uint32_t i, uint32_t n)
{
	uint64_t unit = ssd_job_min_bs(j), a = unit, b = JOB_PAGE;
	while (b) { /* unit = lcm(min_bs, 4 KiB) */
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	unit = unit / a * JOB_PAGE;
	uint64_t units = j->size / unit;
	return (units / n + (i < units % n ? 1 : 0)) * unit;
}

enum { JT_PLAIN, JT_DRIVE, JT_FILES }; /* what a job works on */

/* What a job's files need of each file: the clone's offset plus what it
 * does in it (0: any length, decided by the others). */
static uint64_t file_need(const struct jfiles *f, const struct ssd_job *j,
			  uint64_t off, const char *name, uint32_t i,
			  uint32_t n)
{
	if (f->fs_lo)
		return drawn_size(f, name);
	if (f->size_given)
		return off + share_of(j, i, n);
	return 0;
}

/* One clone's region in one file (or the drive); checks that it holds
 * the job's largest block.  In a file, or with a filesize, the region is
 * whole blocks, as fio's I/O is (a filesize that is not is noted in the
 * job's cut_*). */
static int clone_region(struct parser *p, int ji, int kind, uint64_t base,
			uint64_t len, uint64_t off, const char *name,
			uint32_t i, uint32_t n, struct ssd_job_region *r)
{
	const struct jfiles *f = &p->jf[ji];
	struct ssd_job *j = &p->jobs[ji];
	char b1[32], b2[32], b3[32];
	uint64_t end = len, io;
	if (f->fs_lo) {
		end = drawn_size(f, name);
		if (kind == JT_DRIVE && end > len)
			return perr(p, f->ln_filesize, SSD_ERANGE,
				    "option 'filesize': %s is larger than the "
				    "drive (%s; job '%s'; accepted: at most "
				    "the capacity)",
				    ssd_fmt_bytes(end, b1, sizeof b1),
				    ssd_fmt_bytes(len, b2, sizeof b2), j->name);
		if (off >= end)
			return perr(p, f->ln_incr > f->ln_offset ? f->ln_incr
								 : f->ln_offset,
				    SSD_ERANGE,
				    "option 'offset': %s is not inside file "
				    "'%.64s' of %s (job '%s'; accepted: offset "
				    "+ clone x offset_increment < filesize)",
				    ssd_fmt_bytes(off, b1, sizeof b1), name,
				    ssd_fmt_bytes(end, b2, sizeof b2), j->name);
		io = end - off;
	} else if (f->size_given) {
		io = kind == JT_FILES ? share_of(j, i, n) : j->size;
	} else {
		if (kind == JT_FILES && !len)
			return perr(p, j->line, SSD_EINVAL,
				    "file '%.64s' of job '%s' has no size "
				    "(accepted: size or filesize in a job "
				    "naming it)", name, j->name);
		if (off >= len)
			return perr(p, f->ln_incr, SSD_ERANGE,
				    "option 'offset_increment': a clone of "
				    "job '%s' starts at %s, past the end of "
				    "%s%.64s%s (%s; accepted: offset + "
				    "(numjobs-1) x offset_increment inside it)",
				    j->name, ssd_fmt_bytes(off, b1, sizeof b1),
				    kind == JT_FILES ? "file '" : "the drive",
				    kind == JT_FILES ? name : "",
				    kind == JT_FILES ? "'" : "",
				    ssd_fmt_bytes(len, b2, sizeof b2));
		io = len - off;
	}
	uint32_t minbs = ssd_job_min_bs(j);
	if ((f->fs_lo || kind == JT_FILES) && io % minbs && io > minbs) {
		if (f->fs_lo && end % minbs && !j->cut_key) {
			j->cut_key = "filesize";
			j->cut_lo = f->fs_lo;
			j->cut_hi = f->fs_hi;
		}
		io -= io % minbs;
	}
	if (kind == JT_DRIVE && (off > len || io > len - off))
		return perr(p, f->ln_incr, SSD_ERANGE,
			    "option 'offset_increment': a clone of job '%s' "
			    "works in [%s, +%s), beyond the volume's capacity %s "
			    "(accepted: offset + (numjobs-1) x "
			    "offset_increment + size <= capacity)", j->name,
			    ssd_fmt_bytes(off, b1, sizeof b1),
			    ssd_fmt_bytes(io, b2, sizeof b2),
			    ssd_fmt_bytes(len, b3, sizeof b3));
	if (io < max_bs(j))
		return perr(p, f->fs_lo ? f->ln_filesize : f->ln_size,
			    SSD_ERANGE,
			    "option '%s': job '%s' has %s of %s%.64s%s, less "
			    "than its block size %s (accepted: at least one "
			    "block per file)", f->fs_lo ? "filesize" : "size",
			    j->name, ssd_fmt_bytes(io, b1, sizeof b1),
			    kind == JT_FILES ? "file '" : "the drive",
			    kind == JT_FILES ? name : "",
			    kind == JT_FILES ? "'" : "",
			    ssd_fmt_bytes(max_bs(j), b2, sizeof b2));
	r->start = base + off;
	r->size = io;
	r->end = base + end;
	if (j->zonemode == SSD_ZONEMODE_STRIDED &&
	    r->end - r->start < max_bs(j))
		return perr(p, f->ln_zone, SSD_ERANGE,
			    "option 'zonesize': the first zone of job '%s' "
			    "holds no block (accepted: a region of at least "
			    "one block)", j->name);
	return 0;
}

/* Classify the jobs (plain region, the drive with per-clone regions,
 * files), lay out every file in order of first use, and give each job
 * that needs them its regions and per-clone byte counts.  On success
 * p->jobs is the block the caller returns: jobs, regions, clone_io. */
static int resolve_files(struct parser *p)
{
	int rc = 0, oom = 0;
	int *kind = calloc((size_t)p->njobs, sizeof *kind);
	uint32_t **idx = calloc((size_t)p->njobs, sizeof *idx);
	char **names = calloc(SSD_JOB_MAX_FILES + 1, sizeof *names);
	struct ssd_layout *files = ssd_layout_new();
	struct ssd_layout *marked = ssd_layout_new(); /* names that are files */
	uint64_t nreg = 0, nclone = 0;
	char b1[32], b2[32], b3[32];
	if (!kind || !idx || !names || !files || !marked)
		rc = nomem(p);

	/* 1: the names; those of a job with several files, or a filesize,
	 * are files everywhere */
	for (int ji = 0; ji < p->njobs && !rc; ji++) {
		struct ssd_job *j = &p->jobs[ji];
		const struct jfiles *f = &p->jf[ji];
		uint32_t n = file_names(f, j, 0, names, &oom);
		if (oom) {
			free_names(names, n);
			rc = nomem(p);
			break;
		}
		int dev = 0;
		for (uint32_t i = 0; i < n; i++)
			dev |= !strncmp(names[i], "/dev/", 5);
		if (dev && n > 1)
			rc = perr(p, f->ln_filename, SSD_EUNSUP,
				  "option 'filename': job '%s' names %u block "
				  "devices (accepted: one drive, or files)",
				  j->name, n);
		kind[ji] = dev ? (f->fs_lo ? JT_DRIVE : JT_PLAIN)
			       : (n > 1 || f->fs_lo) ? JT_FILES : JT_PLAIN;
		if (kind[ji] == JT_FILES) {
			uint32_t per = names_per_clone(f) ? j->numjobs : 1;
			for (uint32_t c = 0; c < per && !oom; c++) {
				if (c) {
					free_names(names, n);
					n = file_names(f, j, c, names, &oom);
				}
				for (uint32_t i = 0; i < n && !oom; i++)
					if (ssd_layout_use(marked, names[i], 0,
							   ji) == UINT32_MAX)
						oom = 1;
			}
		}
		j->nfiles = n;
		free_names(names, n);
		if (oom)
			rc = nomem(p);
	}

	/* 2: what each job works on, and what it needs of each file, in
	 * job-file order (so files are placed in order of first use) */
	for (int ji = 0; ji < p->njobs && !rc; ji++) {
		struct ssd_job *j = &p->jobs[ji];
		const struct jfiles *f = &p->jf[ji];
		uint32_t n = file_names(f, j, 0, names, &oom);
		if (oom) {
			free_names(names, n);
			rc = nomem(p);
			break;
		}
		if (kind[ji] == JT_PLAIN && n == 1 &&
		    strncmp(names[0], "/dev/", 5)) {
			if (ssd_layout_find(marked, names[0]) != UINT32_MAX)
				kind[ji] = JT_FILES;
		}
		if (kind[ji] == JT_PLAIN &&
		    (j->offset_increment || j->zonemode))
			kind[ji] = JT_DRIVE;
		if (kind[ji] == JT_PLAIN) {
			j->nfiles = 0;
			free_names(names, n);
			continue;
		}
		const char *why = NULL;
		int line = j->line;
		if (kind[ji] == JT_FILES && (f->size_pct || f->off_pct ||
					     f->incr_pct)) {
			why = "a percentage of a set of files";
			line = f->size_pct ? f->ln_size
			       : f->off_pct ? f->ln_offset : f->ln_incr;
		} else if (kind[ji] == JT_FILES && j->fill_device) {
			why = "fill_device with files (it fills the drive)";
			line = f->ln_fill;
		} else if (j->zonemode && n > 1) {
			why = "zonemode=strided with several files (fio "
			      "drops the zones then)";
			line = f->ln_zone;
		}
		if (why) {
			free_names(names, n);
			rc = perr(p, line, SSD_EUNSUP,
				  "job '%s': %s is not supported by ssdlab "
				  "(accepted: a job on the drive, or one "
				  "without it)", j->name, why);
			break;
		}
		j->nfiles = n;
		nreg += (uint64_t)j->numjobs * n;
		nclone += j->numjobs;
		if (nreg > SSD_JOB_MAX_FILES) {
			free_names(names, n);
			rc = perr(p, kind[ji] == JT_FILES ? f->ln_nrfiles
							  : j->line,
				  SSD_ERANGE,
				  "option 'nrfiles': the jobs up to '%s' have "
				  "%llu files and clone regions (files x "
				  "numjobs summed over the file; accepted: at "
				  "most %d)", j->name,
				  (unsigned long long)nreg, SSD_JOB_MAX_FILES);
			break;
		}
		if (kind[ji] == JT_DRIVE) {
			free_names(names, n);
			continue;
		}
		idx[ji] = calloc((size_t)j->numjobs * n + 1, sizeof **idx);
		uint32_t held = n; /* names to free */
		oom = !idx[ji];
		int per = names_per_clone(f);
		for (uint32_t c = 0; c < j->numjobs && !oom; c++) {
			if (c && per) {
				free_names(names, held);
				held = file_names(f, j, c, names, &oom);
				if (oom)
					break;
			}
			uint64_t off = j->offset + c * j->offset_increment;
			for (uint32_t i = 0; i < n && !oom; i++) {
				uint32_t x = ssd_layout_use(
					files, names[i],
					file_need(f, j, off, names[i], i, n),
					ji);
				oom = x == UINT32_MAX;
				idx[ji][c * n + i] = x;
			}
		}
		free_names(names, held);
		if (oom) {
			rc = nomem(p);
			break;
		}
	}

	/* 3: place the files */
	uint32_t bad;
	if (!rc && ssd_layout_place(files, p->capacity, &bad)) {
		const struct ssd_job *j = &p->jobs[ssd_layout_tag(files, bad)];
		rc = perr(p, j->line, SSD_ERANGE,
			  "the files do not fit on the drive: file '%.64s' "
			  "(%s, first named by job '%s') would start at %s "
			  "(accepted: files adding up to at most the capacity "
			  "%s, each 4 KiB aligned)", ssd_layout_name(files, bad),
			  ssd_fmt_bytes(ssd_layout_len(files, bad), b1,
					sizeof b1), j->name,
			  ssd_fmt_bytes(bad ? ssd_layout_base(files, bad - 1) +
						      align_up(ssd_layout_len(
							  files, bad - 1),
							  JOB_PAGE)
					    : 0, b2, sizeof b2),
			  ssd_fmt_bytes(p->capacity, b3, sizeof b3));
	}

	/* 4: the block: jobs, then regions, then per-clone byte counts */
	if (!rc && nreg) {
		size_t jb = (size_t)p->njobs * sizeof *p->jobs;
		size_t rb = (size_t)nreg * sizeof(struct ssd_job_region);
		char *blk = calloc(1, jb + rb + (size_t)nclone * 8);
		if (!blk) {
			rc = nomem(p);
			goto out;
		}
		memcpy(blk, p->jobs, jb);
		free(p->jobs);
		p->jobs = (struct ssd_job *)blk;
		p->cap = p->njobs;
		struct ssd_job_region *reg = (struct ssd_job_region *)(blk + jb);
		uint64_t *cio = (uint64_t *)(blk + jb + rb);
		for (int ji = 0; ji < p->njobs && !rc; ji++) {
			struct ssd_job *j = &p->jobs[ji];
			const struct jfiles *f = &p->jf[ji];
			if (kind[ji] == JT_PLAIN)
				continue;
			uint32_t n = j->nfiles;
			j->regions = reg;
			j->clone_io = cio;
			uint32_t nn = kind[ji] == JT_FILES
					? file_names(f, j, 0, names, &oom) : 0;
			if (oom)
				rc = nomem(p);
			uint64_t total0 = 0;
			for (uint32_t c = 0; c < j->numjobs && !rc; c++) {
				if (c && kind[ji] == JT_FILES &&
				    names_per_clone(f)) {
					free_names(names, nn);
					nn = file_names(f, j, c, names, &oom);
					if (oom) {
						rc = nomem(p);
						break;
					}
				}
				uint64_t off = j->offset +
					       c * j->offset_increment;
				uint64_t total = 0;
				for (uint32_t i = 0; i < n && !rc; i++) {
					uint64_t base = 0, len = p->capacity;
					if (kind[ji] == JT_FILES) {
						uint32_t x = idx[ji][c * n + i];
						base = ssd_layout_base(files, x);
						len = ssd_layout_len(files, x);
					}
					rc = clone_region(
						p, ji, kind[ji], base, len, off,
						kind[ji] == JT_FILES
							? names[i] : "",
						i, n, &reg[c * n + i]);
					total += reg[c * n + i].size;
				}
				uint64_t io = total;
				if (f->io.given)
					io = f->io.is_pct
						     ? (uint64_t)((double)total *
								  f->io.pct /
								  100.0)
						     : f->io.bytes;
				else if (f->fs_lo && f->size_given &&
					 j->size < total)
					io = j->size;
				if (!io)
					io = 1;
				cio[c] = io;
				if (c == 0)
					total0 = total;
			}
			j->size = total0;
			j->io_size = cio[0];
			free_names(names, nn);
			reg += (size_t)j->numjobs * n;
			cio += j->numjobs;
		}
	}
out:
	for (int ji = 0; idx && ji < p->njobs; ji++)
		free(idx[ji]);
	free(idx);
	free(kind);
	free(names);
	ssd_layout_free(files);
	ssd_layout_free(marked);
	return rc;
}

/* ---- reading files, includes ---- */

#define JOB_INCLUDE_DEPTH 16          /* nested include files */

/* The parser's copy of a file name (messages and jobs point at it), or
 * NULL when out of memory. */
static const char *intern_file(struct parser *p, const char *name)
{
	for (int i = 0; i < p->nfiles; i++)
		if (!strcmp(p->files[i], name))
			return p->files[i];
	char **files = realloc(p->files, (size_t)(p->nfiles + 1) *
			       sizeof *p->files);
	if (!files)
		return NULL;
	p->files = files;
	char *copy = strdup(name);
	if (!copy)
		return NULL;
	return p->files[p->nfiles++] = copy;
}

/* The whole of f (at most JOB_FILE_MAX bytes) into a malloc'd *text. */
static int read_all(FILE *f, char **text, size_t *len)
{
	size_t cap = 0;
	*text = NULL;
	*len = 0;
	for (;;) {
		if (*len == cap) {
			cap = cap ? 2 * cap : 8192;
			char *t = realloc(*text, cap);
			if (!t)
				return SSD_ENOMEM;
			*text = t;
		}
		size_t n = fread(*text + *len, 1, cap - *len, f);
		*len += n;
		if (n == 0)
			break;
		if (*len > JOB_FILE_MAX)
			return SSD_ERANGE;
	}
	return ferror(f) ? SSD_EIO : 0;
}

static int add_entry(struct parser *p, const char *text)
{
	if (p->nents == p->capents) {
		int cap = p->capents ? 2 * p->capents : 64;
		struct entry *e = realloc(p->ents, (size_t)cap * sizeof *e);
		if (!e)
			return nomem(p);
		p->ents = e;
		p->capents = cap;
	}
	char *copy = strdup(text);
	if (!copy)
		return nomem(p);
	p->ents[p->nents++] = (struct entry){copy, p->file, p->line};
	return 0;
}

static int load_text(struct parser *p, const char *text, size_t len,
		     const char *file, char **stack, int depth);

/* "include PATH" at p->file:p->line.  fio's rule for a relative PATH: as
 * written if that names a file from the current directory, else
 * relative to the directory of the including file. */
static int include_file(struct parser *p, const char *name, char **stack,
			int depth)
{
	char path[4096];
	if (!*name)
		return perr(p, p->line, SSD_EPARSE, "include needs a file name "
			    "(accepted: include FILE)");
	const char *slash = strrchr(p->file, '/');
	if (name[0] == '/' || access(name, F_OK) == 0 || !slash ||
	    p->file[0] == '<')
		snprintf(path, sizeof path, "%s", name);
	else
		snprintf(path, sizeof path, "%.*s/%s",
			 (int)(slash - p->file), p->file, name);
	if (depth + 1 > JOB_INCLUDE_DEPTH)
		return perr(p, p->line, SSD_ERANGE, "include '%.200s': includes "
			    "nested deeper than %d files (accepted: at most "
			    "%d)", name, JOB_INCLUDE_DEPTH, JOB_INCLUDE_DEPTH);
	FILE *f = fopen(path, "rb");
	if (!f)
		return perr(p, p->line, SSD_EIO, "include '%.200s': cannot open "
			    "'%.200s': %s", name, path, strerror(errno));
	char *real = realpath(path, NULL);
	for (int i = 0; real && i <= depth; i++)
		if (stack[i] && !strcmp(stack[i], real)) {
			free(real);
			fclose(f);
			return perr(p, p->line, SSD_EINVAL, "include '%.200s': "
				    "include cycle, '%.200s' is already being "
				    "read", name, path);
		}
	char *text;
	size_t len;
	int rc = read_all(f, &text, &len);
	fclose(f);
	if (rc) {
		free(text);
		free(real);
		if (rc == SSD_ENOMEM)
			return nomem(p);
		return perr(p, p->line, rc, "include '%.200s': %s", name,
			    rc == SSD_ERANGE ? "file is larger than 16 MiB"
					     : "cannot read it");
	}
	p->text_bytes += len;
	if (p->text_bytes > JOB_FILE_MAX) {
		free(text);
		free(real);
		return perr(p, p->line, SSD_ERANGE, "include '%.200s': the job "
			    "file with its includes is larger than 16 MiB",
			    name);
	}
	const char *file = p->file;
	int line = p->line;
	const char *in = intern_file(p, path);
	if (!in) {
		free(text);
		free(real);
		return nomem(p);
	}
	stack[depth + 1] = real;
	rc = load_text(p, text, len, in, stack, depth + 1);
	stack[depth + 1] = NULL;
	free(real);
	free(text);
	if (!rc) {
		p->file = file;
		p->line = line;
	}
	return rc;
}

/* Split text into entries (depth 0: the job file; above: an include),
 * following include directives. */
static int load_text(struct parser *p, const char *text, size_t len,
		     const char *file, char **stack, int depth)
{
	char buf[JOB_LINE_MAX + 1];
	size_t pos = 0;
	p->file = file;
	p->line = 0;
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		pos = 3; /* UTF-8 byte order mark */
	while (pos < len) {
		const char *start = text + pos;
		const char *nl = memchr(start, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - start) : len - pos;
		pos += n + (nl ? 1 : 0);
		p->line++;
		if (n > JOB_LINE_MAX)
			return perr(p, p->line, SSD_EPARSE,
				    "line is longer than %d characters",
				    JOB_LINE_MAX);
		if (memchr(start, 0, n))
			return perr(p, p->line, SSD_EPARSE, "line contains a "
				    "NUL byte (accepted: text)");
		memcpy(buf, start, n);
		buf[n] = 0;
		char *s = ssd_strtrim(buf);
		if (!*s || *s == '#' || *s == ';')
			continue;
		strip_comment(s);
		s = ssd_strtrim(s);
		if (!strncmp(s, "include", 7) && isspace((unsigned char)s[7])) {
			int rc = include_file(p, ssd_strtrim(s + 8), stack,
					      depth);
			if (rc)
				return rc;
			continue;
		}
		if (*s == '[' && depth > 0)
			return perr(p, p->line, SSD_EPARSE, "section header "
				    "'%.64s' in an included file (accepted: "
				    "options only, as in fio)", s);
		int rc = add_entry(p, s);
		if (rc)
			return rc;
	}
	return 0;
}

/* The section starting at entry i: its kb_base lines first, since fio
 * applies kb_base before the section's other options. */
static int apply_kb_base(struct parser *p, int i)
{
	char buf[JOB_LINE_MAX + 1];
	for (int k = i + 1; k < p->nents && p->ents[k].text[0] != '['; k++) {
		const char *t = p->ents[k].text;
		if (strncmp(t, "kb_base", 7) ||
		    (t[7] != '=' && !isspace((unsigned char)t[7])))
			continue;
		p->file = p->ents[k].file;
		p->line = p->ents[k].line;
		snprintf(buf, sizeof buf, "%s", t);
		int rc = parse_line(p, buf);
		if (rc)
			return rc;
	}
	return 0;
}

/* The state before the first section, shared by the file parser and the
 * builder (ssd_jobs_new). */
static int parser_init(struct parser *p, uint64_t capacity, char *err,
		       size_t errlen)
{
	p->capacity = capacity;
	p->err = err;
	p->errlen = errlen;
	job_defaults(&p->global.j);
	p->global.kb_base = 1024;
	p->global.blame = &p->blame;
	p->kb_base = 1024;
	if (err && errlen)
		err[0] = 0;
	if (capacity < JOB_PAGE)
		return perr(p, 0, SSD_EINVAL, "drive capacity %llu B is too "
			    "small for any job", (unsigned long long)capacity);
	return 0;
}

/* The end of the file: the last section ends, the files are laid out.
 * Shared by the file parser and the builder (ssd_jobs_end). */
static int finish_file(struct parser *p)
{
	if (p->section == SEC_JOB) {
		int rc = finish_job(p);
		if (rc)
			return rc;
		p->section = SEC_NONE;
	}
	if (!p->njobs)
		return perr(p, p->line ? p->line : 1, SSD_EPARSE,
			    "no job section in the file (accepted: at least "
			    "one [jobname] section besides [global])");
	return resolve_files(p);
}

/* Hand the jobs over (rc == 0) or free them, and free the parser. */
static void parser_done(struct parser *p, int rc, struct ssd_job **jobs,
			int *njobs)
{
	free_files(p);
	if (rc) {
		free(p->jobs);
		*jobs = NULL;
		*njobs = 0;
	} else {
		*jobs = p->jobs;
		*njobs = p->njobs;
	}
	for (int i = 0; i < p->nents; i++)
		free(p->ents[i].text);
	free(p->ents);
	for (int i = 0; i < p->nfiles; i++)
		free(p->files[i]);
	free(p->files);
	free(p);
}

static int parse_text(const char *text, size_t len, const char *file,
		      const char *path, uint64_t capacity,
		      struct ssd_job **jobs, int *njobs, char *err,
		      size_t errlen)
{
	struct parser *p = calloc(1, sizeof *p);
	if (!p) {
		*jobs = NULL;
		*njobs = 0;
		ssd_seterr(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	p->err = err;
	p->errlen = errlen;
	p->file = intern_file(p, file);
	int rc = p->file ? parser_init(p, capacity, err, errlen) : nomem(p);
	char buf[JOB_LINE_MAX + 1];
	char *stack[JOB_INCLUDE_DEPTH + 1] = {0};
	if (rc)
		goto out;
	stack[0] = path ? realpath(path, NULL) : NULL;
	p->text_bytes = len;
	rc = load_text(p, text, len, p->file, stack, 0);
	free(stack[0]);
	if (rc)
		goto out;
	for (int i = 0; i < p->nents; i++) {
		p->file = p->ents[i].file;
		p->line = p->ents[i].line;
		p->blame = NULL;
		snprintf(buf, sizeof buf, "%s", p->ents[i].text);
		rc = parse_line(p, buf);
		if (!rc && p->ents[i].text[0] == '[')
			rc = apply_kb_base(p, i);
		if (rc)
			goto out;
	}
	p->file = file;
	if (p->nents)
		p->file = p->ents[p->nents - 1].file;
	rc = finish_file(p);
out:
	parser_done(p, rc, jobs, njobs);
	return rc;
}

int ssd_jobfile_parse_string(const char *text, const char *name,
			     uint64_t capacity, struct ssd_job **jobs,
			     int *njobs, char *err, size_t errlen)
{
	return parse_text(text, strlen(text), name, NULL, capacity, jobs,
			  njobs, err, errlen);
}

int ssd_jobfile_parse(const char *path, uint64_t capacity,
		      struct ssd_job **jobs, int *njobs, char *err,
		      size_t errlen)
{
	*jobs = NULL;
	*njobs = 0;
	int is_stdin = !strcmp(path, "-");
	const char *name = is_stdin ? SSD_JOB_STDIN : path;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	if (!f) {
		if (err && errlen)
			snprintf(err, errlen, "%s: cannot open job file: %s",
				 path, strerror(errno));
		return SSD_EIO;
	}
	char *text;
	size_t len;
	int rc = read_all(f, &text, &len);
	if (rc && err && errlen) {
		if (rc == SSD_ENOMEM)
			snprintf(err, errlen, "out of memory");
		else if (rc == SSD_ERANGE)
			snprintf(err, errlen, "%s: job file is larger than %u "
				 "MiB", name, JOB_FILE_MAX >> 20);
		else
			snprintf(err, errlen, "%s: cannot read job file: %s",
				 name, strerror(errno));
	}
	if (!is_stdin)
		fclose(f);
	if (!rc)
		rc = parse_text(text, len, name, is_stdin ? NULL : path,
				capacity, jobs, njobs, err, errlen);
	free(text);
	return rc;
}

int ssd_job_noeffect(const struct ssd_job *j, const char **names, int max)
{
	int n = 0;
	for (int i = 0; i < NOPTS && i < SSD_JOB_NOEFFECT_WORDS * 64; i++)
		if (j->noeffect[i / 64] >> (i % 64) & 1) {
			if (n < max)
				names[n] = opts[i].name;
			n++;
		}
	return n;
}

/* ---- docs/jobfiles.md ---- */

static void doc_names(FILE *out, const struct jopt *o)
{
	fprintf(out, "`%s`", o->name);
	if (o->alias)
		fprintf(out, ", `%s`", o->alias);
}

void ssd_job_print_doc(FILE *out)
{
	fputs("# Job files\n\n"
	      "<!-- Generated by `make docs` from the option table in "
	      "src/job/job.c; do not edit. -->\n\n"
	      "ssdlab reads workloads as fio job files.  A `[global]` "
	      "section sets defaults for the jobs that follow it (a later "
	      "`[global]` changes only the jobs after it); every other "
	      "`[name]` section is a job.  Lines are `key=value`, or a bare "
	      "`key` for a boolean.  `#` and `;` start a comment at the "
	      "start of a line or after white space.  Lines are at most "
	      "4096 characters.  `ssdlab run -` reads the job file from "
	      "standard input; messages call it `<stdin>`.\n\n"
	      "An option ssdlab does not know, or knows but does not "
	      "support, is an error that names the file, the line and the "
	      "option; nothing is silently ignored.  The options that only "
	      "matter to a real host are accepted, and each job's report "
	      "lists the ones it took (see below).\n\n"
	      "## Include files, variables and arithmetic\n\n"
	      "As in fio:\n\n"
	      "- `include FILE` reads FILE's lines in place, in any section "
	      "(in `[global]` they apply to every job after it).  A "
	      "relative FILE is taken from the current directory if it is "
	      "there, else from the directory of the file that includes "
	      "it.  Included files may include others (up to 16 deep; a "
	      "cycle is an error) and hold options only, no `[section]`.  An "
	      "error in an included file names that file and its line.\n"
	      "- `${NAME}` in a value is the environment variable NAME; one "
	      "that is not set, or empty, expands to nothing (fio's rule), "
	      "and the message about a value that then fails says so.\n"
	      "- `$pagesize`, `$mb_memory` and `$ncpus` are the running "
	      "system's page size in bytes, memory in MiB and online CPUs; "
	      "a value that uses them and holds `+ - * /` is worked out as "
	      "integer arithmetic (`size=8*$mb_memory`).  They make the "
	      "file's meaning depend on the machine, as in fio.\n"
	      "- A numeric value in parentheses is an arithmetic expression: "
	      "`+ - * / % ^` and parentheses, numbers with the option's "
	      "suffixes (`bs=(4k*2)`).  As in fio, whole numbers are "
	      "worked out exactly in 64-bit integers and divide as "
	      "integers; a step past 2^63 - 1 is an error, never wrapped; "
	      "a fraction makes the step floating point.  "
	      "In a time value a bare number in an expression is "
	      "microseconds (fio's rule), so `runtime=(2000000)` is 2 "
	      "s.\n\n"
	      "## Values\n\n"
	      "- **Integers** are decimal, or hex after `0x`, as fio reads "
	      "them (its `str_to_decimal`): `iodepth=010` is ten (a leading "
	      "0 is never octal), `iodepth=0x10` sixteen.\n"
	      "- **Sizes** take fio's suffixes under `kb_base`.  With the "
	      "default `kb_base=1024`, `k`, `m`, `g`, `t`, `p` (also `kb`, "
	      "`KB`, `ki`) are powers of 1024 and `KiB`, `MiB`... powers of "
	      "1000 -- fio's compatibility rule, so `4KiB` is 4000 bytes; "
	      "with `kb_base=1000` the other way round.  `b` is bytes.  "
	      "Examples: `4096`, `4k`, `16m`, `1g`, `1.5g`, `0x1000`.  "
	      "`size` and `offset` may be a percentage of the drive's "
	      "capacity (`50%`), `io_size` a percentage of the job's "
	      "`size`.\n"
	      "- **Times** are simulated time with a unit (`ns`, `us`, `ms`, "
	      "`s`, `m`, `h`, `d`); a bare number is seconds, except for "
	      "`thinktime` (microseconds, as in fio).  They are decimal, "
	      "and each is at most 146 years (2^62 ns, half of what the "
	      "clock counts, so that the runner can add it to any time in "
	      "a file's span).\n"
	      "- **Booleans**: `1`/`0`, `true`/`false`, `yes`/`no`, "
	      "`on`/`off`, or the bare key for 1.\n"
	      "- **Block sizes** are multiples of 512 B.  The drive maps 4 "
	      "KiB pages and rounds every I/O out to whole pages, so an I/O "
	      "smaller than 4 KiB, or one not 4 KiB aligned, costs whole "
	      "pages.\n"
	      "- **Offsets** (`offset`, `offset_increment`, `zoneskip`) are "
	      "multiples of the drive's 512 B sector (fio takes any byte, "
	      "and a direct I/O to a block device at any other offset "
	      "fails); one inside a 4 KiB page makes I/Os straddle pages, "
	      "as on a misaligned partition.  A percentage `offset` or "
	      "`offset_increment` is aligned up to `offset_align` (default: "
	      "the smallest block size, at least 4 KiB), as fio aligns it.\n"
	      "- **Sizes** (`size`, `filesize`, `zoned_abs` zones) are any "
	      "byte count.  As in fio, a job's I/O covers whole blocks of its "
	      "smallest block size: `size=1000000000` with 4 KiB blocks "
	      "covers 244140 blocks (999,997,440 bytes), a file of "
	      "`filesize=10000000` its first 2441 blocks, and the report "
	      "notes the cut (`size_cut` in the JSON).  A percentage `size` "
	      "is rounded down to 4 KiB, and a region that runs to the "
	      "drive's end (no `size`, `size=100%`) covers the whole drive, "
	      "the last I/O shortened when a block does not fit (fio leaves "
	      "that tail alone).  `zonerange` stays a multiple of 4 KiB.\n"
	      "- A value too large for its field is an error, never wrapped "
	      "or rounded; so is a sum or product of values that does not "
	      "fit where they are combined (the sizes of `zoned_abs` zones, "
	      "`offset` + (`numjobs`-1) x `offset_increment`).\n\n"
	      "## Limits of a file\n\n"
	      "The runner holds every job of a file at once, and simulated "
	      "time is a 64-bit count of nanoseconds (292 years).  A file is "
	      "refused, at the job that crosses the limit, when:\n\n"
	      "- `numjobs` summed over its jobs passes 4096 (fio's own limit "
	      "on jobs);\n"
	      "- `numjobs` x `iodepth` summed over its jobs passes 1048576 "
	      "I/Os in flight;\n"
	      "- its jobs could span more than 146 years of simulated time: "
	      "for each job `startdelay` + `ramp_time` + `runtime` (twice "
	      "the runtime with `latency_target`, whose last window runs a "
	      "runtime anew; + one `thinktime` and one `flow_sleep`), or "
	      "without a runtime `thinktime` after every `thinktime_blocks` "
	      "of its `io_size` / `bs` I/Os, a `flow_sleep` after each in a "
	      "flow, and `io_size` at its `rate`; jobs side by side count "
	      "once, stonewalled groups add up.\n"
	      "- a replayed trace (`read_iolog`) would wait more than 146 "
	      "years: one gap x 100 / `replay_time_scale`, or without a "
	      "runtime their sum over every pass (the job ends with that "
	      "error when the replay reaches it).\n\n"
	      "## Supported options\n\n"
	      "| Option | Value | Default | Meaning |\n"
	      "|---|---|---|---|\n", out);
	for (int i = 0; i < NOPTS; i++) {
		const struct jopt *o = &opts[i];
		if (o->type == OT_NOEFFECT || o->type == OT_UNSUP)
			continue;
		fputs("| ", out);
		doc_names(out, o);
		fprintf(out, " | %s | %s | %s |\n", o->value, o->def, o->help);
	}
	fputs("\n## Accepted, no effect on a simulated drive\n\n"
	      "These matter only to a real host, engine, file system or "
	      "process.  ssdlab accepts them, with their values checked as "
	      "fio checks them, so that existing job files run unchanged, "
	      "and lists the ones a job took in its report: a line "
	      "`ssdlab: options taken without effect: ...` in the normal "
	      "output and `options_without_effect` in the job's `ssdlab` "
	      "object of the JSON output.  How many of fio's own example "
	      "job files run unchanged is measured in "
	      "[fio-examples.md](fio-examples.md) (`make fio-examples`).\n",
	      out);
	for (int g = 0; g < NEG_N; g++) {
		fprintf(out, "\n### %s\n\n%s\n\n"
			"| Option | Accepted | Note |\n|---|---|---|\n",
			ne_groups[g].title, ne_groups[g].why);
		for (int i = 0; i < NOPTS; i++) {
			const struct jopt *o = &opts[i];
			if (o->type != OT_NOEFFECT || o->idx != g)
				continue;
			fputs("| ", out);
			doc_names(out, o);
			fprintf(out, " | %s%s | %s |\n", o->value,
				o->fn == ne_choice && (o->min & NE_ARG)
					? " (:ARG allowed)" : "",
				o->help ? o->help : "");
		}
	}
	fputs("\n## Not supported\n\n"
	      "Well-known fio options that ssdlab refuses with this reason "
	      "(any other unknown key is an error too).  Also refused: "
	      "`rw=filecreate` and the other file patterns.\n\n"
	      "| Option | Why |\n|---|---|\n", out);
	for (int i = 0; i < NOPTS; i++) {
		const struct jopt *o = &opts[i];
		if (o->type != OT_UNSUP)
			continue;
		fputs("| ", out);
		doc_names(out, o);
		fprintf(out, " | %s |\n", o->help);
	}
	fputs("\n## How the I/O stream is generated\n\n"
	      "- A job works in its region `[offset, offset+size)`.  It "
	      "ends after `io_size` bytes (default: `size`; checked before "
	      "each I/O as in fio, so with `bssplit` or `bsrange` the last "
	      "I/O may end a little past it), after `number_ios` I/Os, or at "
	      "`runtime`; with `time_based` it runs until `runtime` (or "
	      "`number_ios`).  `loops` repeats all of it.\n"
	      "- Reads, writes and trims each have their own block sizes "
	      "(`bs`, `bssplit`, `bsrange`: `R,W,T`), alignment "
	      "(`blockalign`), share of random I/O (`percentage_random`), "
	      "zones and sequential position, as in fio.  In mixed jobs each "
	      "I/O is a read with probability `rwmixread`%.\n"
	      "- Sequential jobs start at the region's start; each I/O of a "
	      "direction starts where its last one ended (in `rw`/`readwrite` "
	      "reads and writes walk separately, as fio does), plus the "
	      "`rw=PATTERN:N` hole.  A plain walk wraps at the region's end, "
	      "the I/O that would cross it shortened; a walk with holes ends "
	      "the job there, unless `io_size` is given or the job is "
	      "`time_based` (then it wraps), as in fio.  A backwards walk "
	      "(`read:-8k`) starts at the region's start, as fio's does on a "
	      "region at offset 0, and past the start goes on at size - 8k "
	      "(for a region at an offset fio starts elsewhere).  Each clone "
	      "(`numjobs`) starts at the region's start, or with "
	      "`offset_increment` at offset + clone x increment.\n"
	      "- Random offsets are multiples of `blockalign` (default: the "
	      "direction's smallest block size) from the region's start, "
	      "inside the region.  Uniform random jobs with one block size "
	      "visit every block of the region once per pass, in an order "
	      "that changes every pass and every loop (fio's random map; fio "
	      "itself repeats the same order on each pass when "
	      "`randrepeat=1`); with `norandommap`, several block sizes or a "
	      "`blockalign` other than the block size, offsets are drawn with "
	      "replacement (`random_generator=lfsr` keeps the once-per-pass "
	      "order even with `norandommap`).  In fio a random map also "
	      "shortens I/Os of a `bsrange` to the free space around them; "
	      "ssdlab does not.\n"
	      "- `rw=randread:N` takes a new random offset every N I/Os; the "
	      "ones in between continue sequentially (`rw_sequencer="
	      "identical`: repeat the offset).  With `percentage_random` the "
	      "non-random I/Os continue from the end of the direction's last "
	      "I/O; one that would start past the region's end takes a "
	      "random offset instead.\n"
	      "- `trimwrite` and `randtrimwrite` issue a trim, then a write "
	      "of the same offset and length (the trim's block size); "
	      "`io_size` and `number_ios` count the writes, so `io_size=64k` "
	      "trims 64 KiB and writes 64 KiB, as in fio (which, when "
	      "trims and writes are given different sizes, walks them "
	      "separately instead).\n"
	      "- `zipf`, `pareto` and `normal` draw a popularity rank (fio's "
	      "definitions: P(rank k) ~ 1/k^theta; pareto as fio's "
	      "`(n-1)*u^(log h/log(1-h))`; normal: n/2 + a Gaussian of "
	      "standard deviation D% of n, modulo n) and map ranks to blocks "
	      "through a fixed random permutation, so hot blocks are "
	      "scattered over the region, as fio's hash scatters them.  A "
	      "center C puts the most popular block (rank 0; for normal the "
	      "peak) at C of the region, the others scattered around the "
	      "region as before -- fio does the same.  Like fio, non-uniform "
	      "distributions draw with replacement.\n"
	      "- `zoned:A/S:...`: A% of the I/Os go, uniformly, to the next "
	      "S% of the region, zones in order from the region's start; "
	      "if the S add up to less than 100 the rest of the region is "
	      "not touched; an empty last S takes the rest.  `zoned_abs` "
	      "gives the zones in bytes (within the region).  `zoned:R,W,T` "
	      "gives each direction its zones (an empty list: uniform).\n"
	      "- Each job instance has its own random stream, derived from "
	      "`randseed` (or the run seed) and the clone number; the same "
	      "seed gives the same stream.\n"
	      "- **Files.**  A job with one file name (or none) works on the "
	      "drive.  Several names (`filename=a:b`, `nrfiles`), or a "
	      "`filesize`, make files: regions of the drive as a fresh file "
	      "system lays them out -- each contiguous, 4 KiB aligned, one "
	      "after another from byte 0 in the order the job file first "
	      "names them, each as long as the most any job needs of it.  "
	      "Jobs naming the same file share its region (a single name "
	      "another job lays out is that file); different names never "
	      "overlap; a set that does not fit is an error.  Without "
	      "`filename` each clone has its own `nrfiles` files "
	      "(`filename_format`, default `$jobname.$jobnum.$filenum`).  "
	      "`offset` and `offset_increment` are inside each file, as in "
	      "fio; `size` is split over the files (whole blocks, 4 KiB "
	      "aligned, the first files one more) unless `filesize` is given, when it only caps "
	      "the bytes done.  Inside a file offsets follow the job's "
	      "pattern, each file with its own position and random map.\n"
	      "- `zonemode=strided`: zones of `zonerange` bytes start at the "
	      "region's start and every `zonerange + zoneskip` bytes after "
	      "it, to the end of the drive (or the file); `zonesize` bytes "
	      "are done in a zone (sequential or random inside it), then the "
	      "next; past the last zone the first comes again, until "
	      "`io_size` (default `size`) bytes are done -- fio's rules.\n",
	      out);
}

/* ---- building a job file in code ----
 * The builder is the parser without the text: ssd_jobs_global and
 * ssd_jobs_add begin sections as a header line does, ssd_jobs_set goes
 * through set_option as an option line does, and a section ends in
 * finish_job and the file in finish_file, as when a file is read. */

struct ssd_jobs {
	struct parser *p;
	char name[256];               /* the "file" name, for messages */
	int rc;                       /* the first error; later calls keep it */
	char msg[512];                /* its message */
	struct ssd_job scratch;       /* what ssd_jobs_add returns after an
	                                 error, so callers may assign freely */
};

void ssd_job_defaults(struct ssd_job *j, const char *name)
{
	job_defaults(j);
	snprintf(j->name, sizeof j->name, "%s", name ? name : "");
}

void ssd_job_set_bs(struct ssd_job *j, uint32_t bs)
{
	for (int d = 0; d < SSD_DDIR_N; d++)
		j->bs[d] = bs;
}

int ssd_jobs_new(const char *name, uint64_t capacity, struct ssd_jobs **out)
{
	*out = NULL;
	struct ssd_jobs *b = calloc(1, sizeof *b);
	struct parser *p = calloc(1, sizeof *p);
	if (!b || !p) {
		free(b);
		free(p);
		return SSD_ENOMEM;
	}
	snprintf(b->name, sizeof b->name, "%s", name);
	b->p = p;
	p->built = 1;
	p->file = b->name;
	b->rc = parser_init(p, capacity, b->msg, sizeof b->msg);
	*out = b;
	return 0;
}

/* End the job section in progress, if any. */
static int end_section(struct ssd_jobs *b)
{
	if (!b->rc && b->p->section == SEC_JOB)
		b->rc = finish_job(b->p);
	return b->rc;
}

struct ssd_job *ssd_jobs_global(struct ssd_jobs *b)
{
	if (end_section(b))
		return &b->scratch;
	b->p->section = SEC_GLOBAL;
	return &b->p->global.j;
}

struct ssd_job *ssd_jobs_add(struct ssd_jobs *b, const char *name)
{
	struct parser *p = b->p;
	if (!b->rc && strlen(name) >= sizeof p->cur.j.name)
		b->rc = perr(p, 0, SSD_ERANGE, "job name '%.32s...' is too "
			     "long (accepted: up to %zu characters)", name,
			     sizeof p->cur.j.name - 1);
	if (end_section(b))
		return &b->scratch;
	p->section = SEC_JOB;
	p->cur = p->global;
	p->cur.j.raw_global = p->cur.j.raw_len;
	snprintf(p->cur.j.name, sizeof p->cur.j.name, "%s", name);
	snprintf(p->cur.j.file, sizeof p->cur.j.file, "%s", p->file);
	p->cur.j.line = 0;
	return &p->cur.j;
}

int ssd_jobs_set(struct ssd_jobs *b, const char *key, const char *val)
{
	struct parser *p = b->p;
	if (b->rc)
		return b->rc;
	p->key = key;
	int oi = find_opt(key);
	if (oi < 0)
		return b->rc = unknown_option(p, key);
	if (p->section == SEC_NONE)
		return b->rc = perr(p, 0, SSD_EPARSE, "option '%.64s' is "
				    "outside of any section (accepted: after "
				    "ssd_jobs_global or ssd_jobs_add)", key);
	char buf[JOB_LINE_MAX + 1];
	if (val && strlen(val) >= sizeof buf)
		return b->rc = perr(p, 0, SSD_ERANGE, "option '%.64s': value "
				    "is longer than %d characters", key,
				    JOB_LINE_MAX);
	if (val)
		snprintf(buf, sizeof buf, "%s", val);
	p->line = 1; /* marks the option as given (was_set) */
	b->rc = set_option(p, p->section == SEC_GLOBAL ? &p->global : &p->cur,
			   oi, val ? buf : NULL);
	p->line = 0;
	return b->rc;
}

int ssd_jobs_setf(struct ssd_jobs *b, const char *key, const char *fmt, ...)
{
	char val[JOB_LINE_MAX + 1];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(val, sizeof val, fmt, ap);
	va_end(ap);
	if (!b->rc && (n < 0 || (size_t)n >= sizeof val))
		b->rc = perr(b->p, 0, SSD_ERANGE, "option '%.64s': value is "
			     "longer than %d characters", key, JOB_LINE_MAX);
	return b->rc ? b->rc : ssd_jobs_set(b, key, val);
}

int ssd_jobs_end(struct ssd_jobs *b, struct ssd_job **jobs, int *njobs,
		 char *err, size_t errlen)
{
	int rc = b->rc;
	if (!rc)
		rc = finish_file(b->p);
	parser_done(b->p, rc, jobs, njobs);
	if (rc && err && errlen)
		snprintf(err, errlen, "%s", b->msg);
	free(b);
	return rc;
}

void ssd_jobs_free(struct ssd_jobs *b)
{
	struct ssd_job *jobs;
	int n;
	if (!b)
		return;
	parser_done(b->p, SSD_EINVAL, &jobs, &n);
	free(b);
}
