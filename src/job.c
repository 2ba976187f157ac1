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
#include "job.h"
#include "layout.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define JOB_LINE_MAX 4096             /* longest accepted line, chars */
#define JOB_FILE_MAX (16u << 20)      /* largest accepted job file, bytes */
#define JOB_SECTOR 512u               /* block sizes are multiples of this */
#define JOB_PAGE 4096u                /* offsets and sizes are multiples */
#define JOB_BS_MAX (128u << 20)       /* largest block size, bytes */
#define JOB_MAX_OPTS 512              /* rows of opts[] (checked below) */

/* What one file may ask of the runner, checked when each job ends so that
 * the message names the file and line: the runner allocates a command
 * slot per I/O in flight and an instance per clone for the whole file,
 * and keeps simulated time in int64_t ns, which holds 292 years. */
#define JOB_MAX_CLONES 4096           /* numjobs summed over the file
                                         (fio's own limit on jobs) */
#define JOB_MAX_INFLIGHT (1u << 20)   /* numjobs x iodepth summed over the
                                         file: 1 Mi command slots */
#define JOB_MAX_SPAN (INT64_MAX / 2)  /* ns of simulated time the file's
                                         jobs may span (146 years): half
                                         of int64_t, so no sum of times
                                         can overflow */

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

struct parser {
	const char *file;
	uint64_t capacity;            /* user bytes of the drive */
	int line;                     /* current line, 1-based */
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
	int n = snprintf(p->err, p->errlen, "%s:%d: ", p->file, line);
	if (n < 0 || (size_t)n >= p->errlen)
		return code;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	/* One printable line, whatever bytes the quoted input held. */
	for (char *c = p->err; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return code;
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

static const char *const rw_names[] = {
	[SSD_RW_READ] = "read",           [SSD_RW_WRITE] = "write",
	[SSD_RW_TRIM] = "trim",           [SSD_RW_RANDREAD] = "randread",
	[SSD_RW_RANDWRITE] = "randwrite", [SSD_RW_RANDTRIM] = "randtrim",
	[SSD_RW_READWRITE] = "readwrite", [SSD_RW_RANDRW] = "randrw",
};

const char *ssd_rw_name(int rw)
{
	if (rw < 0 || rw >= (int)(sizeof rw_names / sizeof rw_names[0]))
		return NULL;
	return rw_names[rw];
}

static int fn_rw(struct parser *p, struct jstate *js, const struct jopt *o,
		 char *val)
{
	if (strchr(val, ':'))
		return opt_err(p, o, SSD_EUNSUP,
			       "'%.64s': the ':N' offset modifier is not "
			       "supported by ssdlab", val);
	if (!strcmp(val, "rw")) {
		js->j.rw = SSD_RW_READWRITE;
		return 0;
	}
	for (int i = 0; i < (int)(sizeof rw_names / sizeof rw_names[0]); i++) {
		if (!strcmp(val, rw_names[i])) {
			js->j.rw = i;
			return 0;
		}
	}
	static const char *const unsup[] = {"trimwrite", "randtrimwrite",
					    "filecreate", "filestat",
					    "filedelete"};
	for (size_t i = 0; i < sizeof unsup / sizeof unsup[0]; i++)
		if (!strcmp(val, unsup[i]))
			return opt_err(p, o, SSD_EUNSUP,
				       "'%s' is not supported by ssdlab",
				       val);
	return opt_err(p, o, SSD_EPARSE, "unknown I/O pattern '%.64s'", val);
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

/* A block size: a multiple of 512 B, 512 B..128 MiB. */
static int parse_bs(struct parser *p, const struct jopt *o, const char *s,
		    uint32_t *out)
{
	uint64_t v;
	int rc = ssd_parse_size(s, &v);
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

static int fn_bssplit(struct parser *p, struct jstate *js,
		      const struct jopt *o, char *val)
{
	if (strchr(val, ','))
		return opt_err(p, o, SSD_EUNSUP,
			       "per-direction splits (READ,WRITE,TRIM) are "
			       "not supported by ssdlab");
	struct ssd_bssplit sp[SSD_JOB_MAX_BSSPLIT];
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
	memcpy(js->j.bssplit, sp, (size_t)n * sizeof sp[0]);
	js->j.nbssplit = n;
	return 0;
}

/* "zoned:A/S:A/S..." after the "zoned:" prefix. */
static int parse_zones(struct parser *p, struct jstate *js,
		       const struct jopt *o, char *list)
{
	struct ssd_zone z[SSD_JOB_MAX_ZONES];
	int n = 0;
	double asum = 0, ssum = 0;
	char *save = NULL;
	for (char *e = strtok_r(list, ":", &save); e;
	     e = strtok_r(NULL, ":", &save)) {
		if (n == SSD_JOB_MAX_ZONES)
			return opt_err(p, o, SSD_ERANGE,
				       "more than %d zones", SSD_JOB_MAX_ZONES);
		char *slash = strchr(e, '/');
		if (!slash)
			return opt_err(p, o, SSD_EPARSE,
				       "zone '%.64s' is not ACCESS%%/SIZE%%",
				       ssd_strtrim(e));
		*slash = 0;
		char *a = ssd_strtrim(e), *s = ssd_strtrim(slash + 1);
		if (ssd_parse_double(a, &z[n].access_pct) ||
		    ssd_parse_double(s, &z[n].size_pct))
			return opt_err(p, o, SSD_EPARSE,
				       "zone '%.32s/%.32s' is not "
				       "ACCESS%%/SIZE%%", a, s);
		if (z[n].access_pct < 0 || z[n].access_pct > 100 ||
		    z[n].size_pct <= 0 || z[n].size_pct > 100)
			return opt_err(p, o, SSD_ERANGE,
				       "zone '%.32s/%.32s' is out of range",
				       a, s);
		asum += z[n].access_pct;
		ssum += z[n].size_pct;
		n++;
	}
	if (!n)
		return opt_err(p, o, SSD_EPARSE, "no zones after 'zoned:'");
	if (asum < 100 - 1e-9 || asum > 100 + 1e-9)
		return opt_err(p, o, SSD_ERANGE,
			       "zone access percentages add up to %g, not 100",
			       asum);
	if (ssum > 100 + 1e-9)
		return opt_err(p, o, SSD_ERANGE,
			       "zone size percentages add up to %g, more "
			       "than 100", ssum);
	memcpy(js->j.zones, z, (size_t)n * sizeof z[0]);
	js->j.nzones = n;
	js->j.dist = SSD_DIST_ZONED;
	js->j.dist_param = 0;
	return 0;
}

static int fn_dist(struct parser *p, struct jstate *js, const struct jopt *o,
		   char *val)
{
	if (strchr(val, ','))
		return opt_err(p, o, SSD_EUNSUP,
			       "per-direction distributions are not "
			       "supported by ssdlab");
	char *colon = strchr(val, ':');
	char *arg = NULL;
	if (colon) {
		*colon = 0;
		arg = ssd_strtrim(colon + 1);
	}
	char *kind = ssd_strtrim(val);
	if (!strcmp(kind, "zoned")) {
		if (!arg)
			return opt_err(p, o, SSD_EPARSE,
				       "'zoned' needs its zones");
		return parse_zones(p, js, o, arg);
	}
	if (!strcmp(kind, "random")) {
		if (arg)
			return opt_err(p, o, SSD_EPARSE,
				       "'random' takes no parameter");
		js->j.dist = SSD_DIST_RANDOM;
		js->j.dist_param = 0;
		js->j.nzones = 0;
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
	} else if (!strcmp(kind, "normal") || !strcmp(kind, "gauss") ||
		   !strcmp(kind, "zoned_abs")) {
		return opt_err(p, o, SSD_EUNSUP,
			       "'%s' is not supported by ssdlab", kind);
	} else {
		return opt_err(p, o, SSD_EPARSE,
			       "unknown distribution '%.64s'", kind);
	}
	if (arg) {
		if (strchr(arg, ':'))
			return opt_err(p, o, SSD_EUNSUP,
				       "the ':CENTER' parameter is not "
				       "supported by ssdlab");
		if (ssd_parse_double(arg, &v))
			return opt_err(p, o, SSD_EPARSE,
				       "'%.64s' is not a number", arg);
	}
	if (dist == SSD_DIST_ZIPF && (v <= 0 || v > 100))
		return opt_err(p, o, SSD_ERANGE,
			       "zipf theta %g is out of range (0 < theta <= "
			       "100)", v);
	if (dist == SSD_DIST_PARETO && (v <= 0 || v >= 1))
		return opt_err(p, o, SSD_ERANGE,
			       "pareto h %g is out of range (0 < h < 1)", v);
	js->j.dist = dist;
	js->j.dist_param = v;
	js->j.nzones = 0;
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

/* OT_NOEFFECT checks: the value must still make sense for fio. */
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

static int ne_direct(struct parser *p, struct jstate *js,
		     const struct jopt *o, char *val)
{
	int b;
	if (ssd_parse_bool(val, &b))
		return opt_err(p, o, SSD_EPARSE, "'%.64s' is not a boolean",
			       val);
	if (b != (strcmp(o->name, "direct") == 0))
		return opt_err(p, o, SSD_EUNSUP,
			       "buffered I/O is not supported by ssdlab: "
			       "there is no host page cache");
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
	int rc = ssd_parse_size(val, &v);
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
	int rc = ssd_parse_size(val, &v);
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

/* verify_async_cpus: a CPU list ("0-3,6"); checked, no effect. */
static int ne_cpus(struct parser *p, struct jstate *js, const struct jopt *o,
		   char *val)
{
	for (const char *c = val; *c; c++)
		if (!isdigit((unsigned char)*c) && *c != ',' && *c != '-')
			return opt_err(p, o, SSD_EPARSE,
				       "'%.64s' is not a CPU list", val);
	return 0;
}

/* verify_async: a thread count; checked, no effect. */
static int ne_count(struct parser *p, struct jstate *js,
		    const struct jopt *o, char *val)
{
	uint64_t v;
	int rc = ssd_parse_u64(val, &v);
	if (rc == SSD_EPARSE)
		return opt_err(p, o, rc, "'%.64s' is not an integer", val);
	if (rc || v > 1024)
		return opt_err(p, o, SSD_ERANGE, "%.64s is out of range", val);
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

/* A size of a file: 4 KiB .. 2^62, a multiple of 4 KiB. */
static int parse_file_size(struct parser *p, const struct jopt *o,
			   const char *s, uint64_t *out)
{
	int rc = ssd_parse_size(s, out);
	if (rc == SSD_EPARSE)
		return opt_err(p, o, rc, "'%.64s' is not a size", s);
	if (rc || *out > (1ULL << 62))
		return opt_err(p, o, SSD_ERANGE, "%.64s is too large", s);
	if (*out < JOB_PAGE || *out % JOB_PAGE)
		return opt_err(p, o, SSD_ERANGE,
			       "%.64s is not a positive multiple of 4 KiB", s);
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
		int rc = ssd_parse_size(val, &rv.bytes);
		if (rc == SSD_EPARSE)
			return opt_err(p, o, rc, "'%.64s' is not a size", val);
		if (rc || rv.bytes > (1ULL << 62))
			return opt_err(p, o, SSD_ERANGE, "%.64s is too large",
				       val);
		if (rv.bytes % JOB_PAGE)
			return opt_err(p, o, SSD_ERANGE,
				       "%.64s is not a multiple of 4 KiB", val);
	}
	js->incr = rv;
	return 0;
}

/* offset_align, zonerange, zoneskip: a size, a multiple of 4 KiB (0 only
 * for zoneskip and offset_align); zonesize: a size of at least 512 B. */
static int fn_size64(struct parser *p, struct jstate *js, const struct jopt *o,
		     char *val)
{
	uint64_t v;
	int rc = ssd_parse_size(val, &v);
	if (rc == SSD_EPARSE)
		return opt_err(p, o, rc, "'%.64s' is not a size", val);
	if (rc || v > (1ULL << 62))
		return opt_err(p, o, SSD_ERANGE, "%.64s is too large", val);
	if (v < o->min)
		return opt_err(p, o, SSD_ERANGE, "%.64s is too small", val);
	if (o->max && v % o->max)
		return opt_err(p, o, SSD_ERANGE,
			       "%.64s is not a multiple of %s", val,
			       o->max == JOB_PAGE ? "4 KiB" : "512 B");
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

/* ---- the option table ---- */

#define FIELD(f) .off = offsetof(struct ssd_job, f)
#define TIME_HELP_S "time; a bare number is seconds"

static const struct jopt opts[] = {
	/* what the job does */
	{.name = "name", .type = OT_FN, .fn = fn_name,
	 .value = "text, 1..63 characters", .def = "the section name",
	 .help = "Job name in reports and default log prefixes; overrides "
		 "the section name (no effect in [global])."},
	{.name = "rw", .alias = "readwrite", .type = OT_FN, .fn = fn_rw,
	 .value = "read, write, trim, randread, randwrite, randtrim, rw, "
		  "readwrite, randrw",
	 .def = "read",
	 .help = "I/O pattern: sequential or random reads, writes, trims, "
		 "or a read/write mix (rw = readwrite: sequential mix)."},
	{.name = "rwmixread", .type = OT_U32, FIELD(rwmixread), .min = 0,
	 .max = 100, .value = "integer 0..100", .def = "50",
	 .help = "Percent of reads in a mixed (rw, randrw) job; each I/O is "
		 "a read with this probability."},
	{.name = "rwmixwrite", .type = OT_FN, .fn = fn_rwmixwrite,
	 .value = "integer 0..100", .def = "50",
	 .help = "Percent of writes in a mixed job: sets rwmixread to 100 "
		 "minus this (the later of the two wins)."},
	{.name = "bs", .alias = "blocksize", .type = OT_BS, FIELD(bs),
	 .value = "size, a multiple of 512 B, 512 B..128 MiB", .def = "4k",
	 .help = "Bytes per I/O.  The drive works in 4 KiB pages: smaller or "
		 "unaligned sizes cost whole pages."},
	{.name = "bssplit", .type = OT_FN, .fn = fn_bssplit,
	 .value = "SIZE/PERCENT:SIZE/PERCENT:... (up to 64; an empty "
		  "percent shares the rest)",
	 .def = "none",
	 .help = "Block sizes drawn at random with these weights; overrides "
		 "bs.  Percentages add up to 100."},
	{.name = "iodepth", .type = OT_U32, FIELD(iodepth), .min = 1,
	 .max = 65536, .value = "integer 1..65536", .def = "1",
	 .help = "I/Os each job instance keeps outstanding."},
	{.name = "size", .type = OT_REGION, .idx = RV_SIZE,
	 .value = "size (multiple of 4 KiB) or N% of the drive capacity "
		  "(0 < N <= 100)",
	 .def = "capacity - offset",
	 .help = "Length of the region the job works in, from offset.  "
		 "offset + size must fit on the drive."},
	{.name = "io_size", .alias = "io_limit", .type = OT_REGION,
	 .idx = RV_IO_SIZE,
	 .value = "size, or N% of the job's size (N > 0)",
	 .def = "size",
	 .help = "Bytes each job instance transfers before it ends; may be "
		 "larger than size (the region is covered again)."},
	{.name = "offset", .type = OT_REGION, .idx = RV_OFFSET,
	 .value = "size (multiple of 4 KiB) or N% of the drive capacity "
		  "(0 <= N < 100)",
	 .def = "0",
	 .help = "Start of the job's region, bytes from the start of the "
		 "drive (a percentage is rounded down to 4 KiB)."},
	{.name = "runtime", .type = OT_TIME, FIELD(runtime), .unit = SSD_S,
	 .value = TIME_HELP_S, .def = "0 (no limit)",
	 .help = "Simulated time after which the job stops, even if io_size "
		 "is not done; as in fio, ramp_time comes on top."},
	{.name = "time_based", .type = OT_BOOL, FIELD(time_based),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Run for the whole runtime, going over the region again as "
		 "often as needed; needs runtime."},
	{.name = "ramp_time", .type = OT_TIME, FIELD(ramp_time), .unit = SSD_S,
	 .value = TIME_HELP_S, .def = "0",
	 .help = "Simulated time the job runs before anything is counted: "
		 "fio's figures and the drive's (the ssdlab section) both "
		 "cover the I/Os submitted after it."},
	{.name = "random_distribution", .type = OT_FN, .fn = fn_dist,
	 .value = "random, zipf[:THETA], pareto[:H], zoned:A/S:A/S:...",
	 .def = "random",
	 .help = "Where random I/O lands: uniform; zipf (theta > 0, default "
		 "1.1); pareto (0 < h < 1, default 0.2); zoned: A% of the "
		 "I/Os go to the next S% of the region (A adds up to 100, S "
		 "to at most 100)."},
	{.name = "norandommap", .type = OT_BOOL, FIELD(norandommap),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Uniform random offsets are drawn with replacement.  "
		 "Without it each pass visits every block once."},
	{.name = "thinktime", .type = OT_TIME, FIELD(thinktime), .unit = SSD_US,
	 .value = "time; a bare number is microseconds", .def = "0",
	 .help = "Idle time after thinktime_blocks I/Os complete, before "
		 "issuing more; the drive has it for background work.  A "
		 "think time after the last I/O is part of the job; runtime "
		 "cuts one short."},
	{.name = "thinktime_blocks", .type = OT_U32, FIELD(thinktime_blocks),
	 .min = 1, .max = UINT32_MAX, .value = "integer >= 1", .def = "1",
	 .help = "I/Os between think times (it caps the queue depth)."},
	{.name = "fsync", .alias = "fdatasync", .type = OT_U32,
	 FIELD(fsync_every), .min = 0, .max = UINT32_MAX,
	 .value = "integer >= 0", .def = "0 (never)",
	 .help = "Issue a flush after every N writes; the job waits for it "
		 "(on a block device fsync and fdatasync both flush the "
		 "drive's write cache)."},
	{.name = "sync", .type = OT_BOOL, FIELD(sync_writes),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Synchronous writes (O_SYNC): every write is sent with FUA "
		 "and completes only once its data is on NAND."},
	{.name = "stonewall", .alias = "wait_for_previous", .type = OT_BOOL,
	 FIELD(stonewall), .value = "boolean (a bare key means 1)",
	 .def = "0",
	 .help = "Start only when every job above has ended (its last I/O "
		 "complete, and its last think time over)."},
	{.name = "numjobs", .type = OT_U32, FIELD(numjobs), .min = 1,
	 .max = 1024, .value = "integer 1..1024", .def = "1",
	 .help = "Clones of the job running side by side, each over the "
		 "whole region with its own random stream."},
	{.name = "group_reporting", .type = OT_BOOL, FIELD(group_reporting),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "Report the clones of a job as one."},
	{.name = "randseed", .type = OT_FN, .fn = fn_randseed,
	 .value = "integer", .def = "derived from the run seed",
	 .help = "Seed of the job's random stream."},
	{.name = "write_iops_log", .type = OT_LOG, FIELD(write_iops_log),
	 .size = sizeof(((struct ssd_job *)0)->write_iops_log),
	 .idx = LOG_IOPS,
	 .value = "file prefix (a bare key means the job's name)",
	 .def = "none",
	 .help = "Write an IOPS log with this file prefix (fio: "
		 "PREFIX_iops.N.log)."},
	{.name = "write_bw_log", .type = OT_LOG, FIELD(write_bw_log),
	 .size = sizeof(((struct ssd_job *)0)->write_bw_log), .idx = LOG_BW,
	 .value = "file prefix (a bare key means the job's name)",
	 .def = "none",
	 .help = "Write a bandwidth log with this file prefix (fio: "
		 "PREFIX_bw.N.log)."},
	{.name = "write_lat_log", .type = OT_LOG, FIELD(write_lat_log),
	 .size = sizeof(((struct ssd_job *)0)->write_lat_log), .idx = LOG_LAT,
	 .value = "file prefix (a bare key means the job's name)",
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
	{.name = "nrfiles", .type = OT_U32, FIELD(nrfiles), .min = 1,
	 .max = SSD_JOB_MAX_FILES, .value = "integer 1..16384", .def = "1",
	 .help = "Files of each clone when filename is not given, named by "
		 "filename_format (default: each clone its own files).  size "
		 "is split over them unless filesize is given.  At most 16384 "
		 "files x clones in a job file."},
	{.name = "filename_format", .type = OT_FN, .fn = fn_filename_format,
	 .value = "text with $jobname, $jobnum, $filenum, $clientuid",
	 .def = "$jobname.$jobnum.$filenum",
	 .help = "Names of the files of nrfiles; equal names are one file "
		 "(e.g. data.$filenum: all clones and jobs share the set)."},
	{.name = "filesize", .type = OT_FN, .fn = fn_filesize,
	 .value = "size or LOW-HIGH (multiples of 4 KiB)", .def = "size / files",
	 .help = "Size of each file (a range: each file's size drawn in it, "
		 "4 KiB aligned, from its name); the job does I/O from offset "
		 "to the file's end.  size then only caps the bytes done "
		 "(default: all the files), as in fio."},
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
	 .value = "integer 1..16384", .def = "nrfiles",
	 .help = "Accepted: opening a file costs nothing on the simulated "
		 "drive, so the limit on open files changes no I/O."},
	{.name = "offset_increment", .type = OT_FN, .fn = fn_offset_increment,
	 .value = "size (multiple of 4 KiB) or N% of the drive (0..100)",
	 .def = "0",
	 .help = "Clone k (numjobs) starts at offset + k x this, with its "
		 "own size (default: to the drive's or the file's end); a "
		 "percentage is aligned up as offset_align says.  Every "
		 "clone's region must fit."},
	{.name = "offset_align", .type = OT_FN, .fn = fn_size64,
	 FIELD(offset_align), .min = 0, .max = JOB_PAGE,
	 .value = "size, a multiple of 4 KiB", .def = "0 (the smallest block)",
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
	 .min = 0, .max = JOB_PAGE, .value = "size, a multiple of 4 KiB",
	 .def = "0",
	 .help = "strided: bytes skipped after each zone (the next zone "
		 "starts zonerange + zoneskip after this one)."},

	/* pacing and the order of jobs */

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
		 "where the run last trimmed it; anything else is a verify "
		 "failure (err=84).  Every checksum means the same here; "
		 "null checks nothing, as in fio.  Write jobs read back every "
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
		 "zeros."},
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
	{.name = "verify_async", .type = OT_NOEFFECT, .fn = ne_count,
	 .value = "integer 0..1024",
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

	/* accepted, no effect on a simulated drive */
	{.name = "ioengine", .type = OT_NOEFFECT, .fn = ne_text,
	 .value = "an engine name",
	 .help = "ssdlab is the engine: it keeps iodepth I/Os in flight as "
		 "an asynchronous engine (libaio, io_uring) would.  With a "
		 "synchronous engine fio would keep only one; set iodepth=1 "
		 "to model that."},
	{.name = "direct", .type = OT_NOEFFECT, .fn = ne_direct,
	 .value = "1",
	 .help = "Every I/O reaches the drive, as with O_DIRECT; direct=0 "
		 "is refused (no page cache is modelled)."},
	{.name = "buffered", .type = OT_NOEFFECT, .fn = ne_direct,
	 .value = "0", .help = "The opposite of direct; only 0 is accepted."},
	{.name = "thread", .type = OT_NOEFFECT, .fn = ne_bool,
	 .value = "boolean",
	 .help = "Threads or processes is a host detail."},
	{.name = "invalidate", .type = OT_NOEFFECT, .fn = ne_bool,
	 .value = "boolean", .help = "There is no page cache to drop."},
	{.name = "randrepeat", .type = OT_NOEFFECT, .fn = ne_bool,
	 .value = "boolean",
	 .help = "Runs are always repeatable: the stream follows from "
		 "randseed or the run seed."},
	{.name = "description", .type = OT_NOEFFECT, .fn = ne_text,
	 .value = "text", .help = "Free text; fio only prints it."},

#define UNSUP(n, a, why) {.name = n, .alias = a, .type = OT_UNSUP, .help = why}
#define ZBD_WHY "zoned block devices are not modelled: the simulated " \
	"drive is a conventional block device"

	/* refused for now: the I/O stream: sizes, offsets, patterns, files */
	UNSUP("loops", NULL, "use io_size (e.g. io_size=300%) or time_based"),
	UNSUP("number_ios", NULL, "use io_size"),
	UNSUP("bsrange", "blocksize_range", "use bssplit"),
	UNSUP("bs_unaligned", "blocksize_unaligned", "use bssplit"),
	UNSUP("blockalign", "ba",
	      "random offsets are aligned to each I/O's size"),
	UNSUP("percentage_random", NULL,
	      "a job is either sequential or random"),
	UNSUP("random_generator", NULL, "ssdlab has one random generator"),
	UNSUP("rw_sequencer", NULL, "rw=PATTERN:N modifiers are not supported"),

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
	UNSUP("rate", NULL, "rate limits are not modelled; use thinktime"),
	UNSUP("rate_iops", NULL,
	      "rate limits are not modelled; use thinktime"),
	UNSUP("rate_min", NULL, "rate limits are not modelled"),
	UNSUP("rate_iops_min", NULL, "rate limits are not modelled"),
	UNSUP("rate_process", NULL, "rate limits are not modelled"),
	UNSUP("startdelay", NULL, "use stonewall to order jobs"),
	UNSUP("iodepth_batch", "iodepth_batch_submit",
	      "each slot is refilled as soon as its I/O completes"),
	UNSUP("iodepth_batch_complete_min", "iodepth_batch_complete",
	      "each slot is refilled as soon as its I/O completes"),
	UNSUP("iodepth_batch_complete_max", NULL,
	      "each slot is refilled as soon as its I/O completes"),
	UNSUP("iodepth_low", NULL,
	      "each slot is refilled as soon as its I/O completes"),
	UNSUP("thinktime_spin", NULL, "host CPU time is not modelled"),
	UNSUP("thinktime_blocks_type", NULL,
	      "think time always follows completions"),
	UNSUP("thinktime_iotime", NULL, "use thinktime_blocks"),
	UNSUP("latency_target", NULL, "queue-depth search is not modelled"),
	UNSUP("steadystate", "ss", "use a steady-state scenario"),
	UNSUP("exitall", NULL, "jobs always run to their own end"),
	UNSUP("wait_for", NULL, "use stonewall"),
	UNSUP("new_group", NULL, "use stonewall"),
	UNSUP("flow", NULL, "jobs are not throttled against each other"),
	UNSUP("end_fsync", NULL, "job files issue no flush commands"),
	UNSUP("fsync_on_close", NULL, "job files issue no flush commands"),


	/* refused for now: values and host-side settings */
	UNSUP("kb_base", NULL, "sizes always use kb_base=1024"),

	/* refused for now: traces */
	UNSUP("read_iolog", NULL, "replay a trace file instead"),
	UNSUP("write_iolog", NULL, "the I/O stream is reproducible from the "
	      "seed"),
#undef ZBD_WHY
#undef UNSUP
};

#define NOPTS ((int)(sizeof opts / sizeof opts[0]))
_Static_assert(sizeof opts / sizeof opts[0] <= JOB_MAX_OPTS,
	       "raise JOB_MAX_OPTS");

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
	int bestd = 3;
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
	if (best && strlen(key) >= 3)
		return perr(p, p->line, SSD_EPARSE,
			    "unknown option '%.64s' (did you mean '%s'? "
			    "accepted: see docs/jobfiles.md)", key, best);
	return perr(p, p->line, SSD_EPARSE,
		    "unknown option '%.64s' (accepted: see docs/jobfiles.md)",
		    key);
}

/* ---- applying one key=value ---- */

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
		int rc = ssd_parse_size(val, &rv.bytes);
		if (rc == SSD_EPARSE)
			return opt_err(p, o, rc, "'%.64s' is not a size", val);
		if (rc)
			return opt_err(p, o, rc, "%.64s is too large", val);
		if (o->idx != RV_OFFSET && rv.bytes == 0)
			return opt_err(p, o, SSD_ERANGE, "0 is out of range");
		if (o->idx != RV_IO_SIZE && rv.bytes % JOB_PAGE)
			return opt_err(p, o, SSD_ERANGE,
				       "%.64s is not a multiple of 4 KiB",
				       val);
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
			    "option '%s' is not supported by ssdlab (%s)",
			    p->key, o->help);
	if (val && strstr(val, "${"))
		return opt_err(p, o, SSD_EUNSUP,
			       "environment variables are not expanded by "
			       "ssdlab");
	if (!val && o->type != OT_BOOL && o->type != OT_LOG &&
	    o->type != OT_NOEFFECT)
		return opt_err(p, o, SSD_EPARSE, "needs a value");
	if (val && !*val && o->type != OT_LOG)
		return opt_err(p, o, SSD_EPARSE, "empty value");
	if (val && *val) {
		rc = raw_set(p, js, o, val);
		if (rc)
			return rc;
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
		rc = ssd_parse_time(val, o->unit, &t);
		if (rc == SSD_EPARSE)
			return opt_err(p, o, rc, "'%.64s' is not a time", val);
		if (rc)
			return opt_err(p, o, rc, "%.64s is too long", val);
		*(int64_t *)field = t;
		break;
	}
	case OT_BS:
		if (strchr(val, ','))
			return opt_err(p, o, SSD_EUNSUP,
				       "per-direction block sizes "
				       "(READ,WRITE,TRIM) are not supported "
				       "by ssdlab");
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
		if (!val) {
			if (o->fn == ne_text)
				return opt_err(p, o, SSD_EPARSE,
					       "needs a value");
			val = "1";
		}
		rc = o->fn(p, js, o, val);
		break;
	case OT_FN:
		rc = o->fn(p, js, o, val);
		break;
	}
	if (!rc)
		js->line_of[oi] = p->line;
	return rc;
}

/* ---- a job as a whole ---- */

static int opt_line(const struct jstate *js, const char *name)
{
	int i = find_opt(name);
	return i >= 0 && js->line_of[i] ? js->line_of[i] : js->j.line;
}

static int was_set(const struct jstate *js, const char *name)
{
	int i = find_opt(name);
	return i >= 0 && js->line_of[i];
}

/* Years, for messages about simulated time. */
static double years_of(double ns)
{
	return ns / (365.25 * 86400.0 * (double)SSD_S);
}

/* The longest simulated time job j can take, in ns (a double: the terms
 * may be absurd).  A job with a runtime stops at ramp_time + runtime
 * (a think time in progress then ends once more); one without stops after
 * io_size bytes, so at most io_size / smallest block I/Os (plus one
 * shortened I/O per pass over a sequential region), each followed by a
 * share of think time.  The I/O itself takes microseconds to
 * milliseconds of drive time and is left out. */
static double job_span(const struct ssd_job *j, uint64_t io_size,
		       uint32_t minbs, uint64_t size, double *think)
{
	double t = (double)j->ramp_time;
	*think = 0;
	if (j->runtime) {
		t += (double)j->runtime;
		*think = (double)j->thinktime;
	} else if (j->thinktime) {
		double ios = ceil((double)io_size / minbs) +
			     ceil((double)io_size / (double)size);
		*think = ceil(ios / j->thinktime_blocks) * (double)j->thinktime;
	}
	return t + *think;
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
	uint32_t minbs = j->bs;
	for (int i = 0; i < j->nbssplit; i++)
		if (i == 0 || j->bssplit[i].bs < minbs)
			minbs = j->bssplit[i].bs;
	double think;
	double span = job_span(j, io_size, minbs, size, &think);
	if (p->njobs > 0 && j->stonewall) {
		p->span_done += p->span_group;
		p->span_group = 0;
	}
	if (span > p->span_group)
		p->span_group = span;
	double total = p->span_done + p->span_group;
	if (total > (double)JOB_MAX_SPAN) {
		/* name the largest term */
		const char *key = "runtime";
		double rt = (double)j->runtime, rp = (double)j->ramp_time;
		if (think >= rt && think >= rp)
			key = "thinktime";
		else if (rp > rt)
			key = "ramp_time";
		return perr(p, opt_line(js, key), SSD_ERANGE,
			    "option '%s': the jobs up to '%s' could span %.3g "
			    "years of simulated time (ramp_time + runtime, "
			    "else thinktime over every I/O, summed over the "
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
	uint32_t m = j->bs;
	if (j->nbssplit) {
		m = 0;
		for (int i = 0; i < j->nbssplit; i++)
			if (j->bssplit[i].bs > m)
				m = j->bssplit[i].bs;
	}
	return m;
}

/* What a percentage offset or offset_increment is aligned up to: fio's
 * offset_align, else the smallest block size (here at least a page). */
static uint64_t pct_align(const struct ssd_job *j)
{
	if (j->offset_align)
		return j->offset_align;
	uint32_t m = j->bs;
	for (int i = 0; i < j->nbssplit; i++)
		if (i == 0 || j->bssplit[i].bs < m)
			m = j->bssplit[i].bs;
	return align_up(m, JOB_PAGE);
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

static char *dup_or_null(const char *s)
{
	if (!*s)
		return NULL;
	size_t n = strlen(s) + 1;
	char *d = ssd_xcalloc(1, n);
	memcpy(d, s, n);
	return d;
}

/* Keep what resolve_files needs of the job being appended; resolve its
 * offset_increment (a percentage is of the drive). */
static void keep_files(struct parser *p, struct jstate *js)
{
	if (p->njobs == p->jfcap) {
		p->jfcap = p->jfcap ? 2 * p->jfcap : 8;
		p->jf = ssd_xrealloc(p->jf, (size_t)p->jfcap * sizeof *p->jf);
	}
	struct jfiles *f = &p->jf[p->njobs];
	memset(f, 0, sizeof *f);
	f->filename = dup_or_null(js->filename);
	f->format = dup_or_null(js->filename_format);
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
	uint64_t inc = js->incr.bytes;
	if (js->incr.is_pct)
		inc = align_up((uint64_t)((double)p->capacity * js->incr.pct /
					  100.0), pct_align(&js->j));
	js->j.offset_increment = inc;
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

/* Resolve percentages and defaults, check the region, append the job. */
static int finish_job(struct parser *p)
{
	struct jstate *js = &p->cur;
	struct ssd_job *j = &js->j;
	uint64_t cap = p->capacity;
	char b1[32], b2[32], b3[32];
	int rc;

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
		if (size > cap - off && !js->filesize_lo) {
			const char *key = was_set(js, "size") ? "size"
							      : "offset";
			return perr(p, opt_line(js, key), SSD_ERANGE,
				    "option '%s': offset %s + size %s is "
				    "beyond the drive capacity %s (job '%s'; "
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

	/* the region must hold the largest block */
	uint32_t maxbs = j->bs;
	const char *bskey = "bs";
	if (j->nbssplit) {
		bskey = "bssplit";
		maxbs = 0;
		for (int i = 0; i < j->nbssplit; i++)
			if (j->bssplit[i].bs > maxbs)
				maxbs = j->bssplit[i].bs;
	}
	if (size < maxbs) {
		const char *key = was_set(js, "size") || !was_set(js, bskey)
					  ? "size" : bskey;
		return perr(p, opt_line(js, key), SSD_ERANGE,
			    "option '%s': the region of job '%s' (%s) is "
			    "smaller than its block size %s (accepted: size "
			    ">= block size)", key, j->name,
			    ssd_fmt_bytes(size, b1, sizeof b1),
			    ssd_fmt_bytes(maxbs, b2, sizeof b2));
	}

	if (j->verify_only && j->time_based)
		return perr(p, opt_line(js, "verify_only"), SSD_EINVAL,
			    "option 'verify_only': job '%s' is time_based, so "
			    "the writes to replay are not known (accepted: "
			    "verify_only without time_based)", j->name);

	if (j->time_based && j->runtime == 0)
		return perr(p, opt_line(js, "time_based"), SSD_EINVAL,
			    "option 'time_based': job '%s' has no runtime "
			    "(accepted: time_based together with runtime)",
			    j->name);

	rc = check_zones(p, js);
	if (rc)
		return rc;
	rc = check_limits(p, js, io_size, size);
	if (rc)
		return rc;

	j->offset = off;
	j->size = size;
	j->io_size = io_size;
	char *logs[LOG_N] = {j->write_iops_log, j->write_bw_log,
			     j->write_lat_log, j->write_hist_log};
	for (int i = 0; i < LOG_N; i++)
		if (js->log_bare[i])
			snprintf(logs[i], sizeof j->write_iops_log, "%s",
				 j->name);

	if (p->njobs == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 8;
		p->jobs = ssd_xrealloc(p->jobs, (size_t)p->cap * sizeof *j);
	}
	keep_files(p, js);
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
	if (!*key)
		return perr(p, p->line, SSD_EPARSE,
			    "line has no option name (accepted: key=value or "
			    "a bare boolean key)");
	if (!strncmp(key, "include", 7) && isspace((unsigned char)key[7]))
		return perr(p, p->line, SSD_EUNSUP,
			    "option 'include' is not supported by ssdlab "
			    "(write the options into the job file)");
	int oi = find_opt(key);
	if (oi < 0)
		return unknown_option(p, key);
	if (p->section == SEC_NONE)
		return perr(p, p->line, SSD_EPARSE,
			    "option '%.64s' is outside of any section "
			    "(accepted: after a [global] or [jobname] header)",
			    key);
	return set_option(p, p->section == SEC_GLOBAL ? &p->global : &p->cur,
			  oi, val);
}

static void job_defaults(struct ssd_job *j)
{
	memset(j, 0, sizeof *j);
	j->rw = SSD_RW_READ;
	j->rwmixread = 50;
	j->bs = 4096;
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
}

/* ---- files and regions: the whole file ---- */

/* The names of a job's files for one clone: the filename list (split at
 * ':' not escaped as '\:'), or nrfiles names made from filename_format.
 * Returns how many; each names[i] is malloc'd. */
static uint32_t file_names(const struct jfiles *f, const struct ssd_job *j,
			   uint32_t clone, char **names)
{
	if (f->filename) {
		uint32_t n = 0;
		const char *c = f->filename;
		while (*c) {
			char *name = ssd_xcalloc(1, strlen(c) + 1), *d = name;
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
		names[i] = ssd_xcalloc(1, len + 1);
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

/* Bytes of file i of n when the job's size is split over its files: the
 * 4 KiB units shared out, the first files one unit more. */
static uint64_t share_of(uint64_t size, uint32_t i, uint32_t n)
{
	uint64_t units = size / JOB_PAGE;
	return (units / n + (i < units % n ? 1 : 0)) * JOB_PAGE;
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
		return off + share_of(j->size, i, n);
	return 0;
}

/* One clone's region in one file (or the drive); checks that it holds
 * the job's largest block. */
static int clone_region(struct parser *p, int ji, int kind, uint64_t base,
			uint64_t len, uint64_t off, const char *name,
			uint32_t i, uint32_t n, struct ssd_job_region *r)
{
	const struct jfiles *f = &p->jf[ji];
	const struct ssd_job *j = &p->jobs[ji];
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
		io = kind == JT_FILES ? share_of(j->size, i, n) : j->size;
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
	if (kind == JT_DRIVE && (off > len || io > len - off))
		return perr(p, f->ln_incr, SSD_ERANGE,
			    "option 'offset_increment': a clone of job '%s' "
			    "works in [%s, +%s), beyond the drive capacity %s "
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
	int rc = 0;
	int *kind = ssd_xcalloc((size_t)p->njobs, sizeof *kind);
	uint32_t **idx = ssd_xcalloc((size_t)p->njobs, sizeof *idx);
	char **names = ssd_xcalloc(SSD_JOB_MAX_FILES + 1, sizeof *names);
	struct ssd_layout *files = ssd_layout_new();
	struct ssd_layout *marked = ssd_layout_new(); /* names that are files */
	uint64_t nreg = 0, nclone = 0;
	char b1[32], b2[32], b3[32];

	/* 1: the names; those of a job with several files, or a filesize,
	 * are files everywhere */
	for (int ji = 0; ji < p->njobs && !rc; ji++) {
		struct ssd_job *j = &p->jobs[ji];
		const struct jfiles *f = &p->jf[ji];
		uint32_t n = file_names(f, j, 0, names);
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
			for (uint32_t c = 0; c < per; c++) {
				if (c) {
					free_names(names, n);
					n = file_names(f, j, c, names);
				}
				for (uint32_t i = 0; i < n; i++)
					ssd_layout_use(marked, names[i], 0, ji);
			}
		}
		j->nfiles = n;
		free_names(names, n);
	}

	/* 2: what each job works on, and what it needs of each file, in
	 * job-file order (so files are placed in order of first use) */
	for (int ji = 0; ji < p->njobs && !rc; ji++) {
		struct ssd_job *j = &p->jobs[ji];
		const struct jfiles *f = &p->jf[ji];
		uint32_t n = file_names(f, j, 0, names);
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
		idx[ji] = ssd_xcalloc((size_t)j->numjobs * n, sizeof **idx);
		int per = names_per_clone(f);
		for (uint32_t c = 0; c < j->numjobs; c++) {
			if (c && per) {
				free_names(names, n);
				file_names(f, j, c, names);
			}
			uint64_t off = j->offset + c * j->offset_increment;
			for (uint32_t i = 0; i < n; i++)
				idx[ji][c * n + i] = ssd_layout_use(
					files, names[i],
					file_need(f, j, off, names[i], i, n),
					ji);
		}
		free_names(names, n);
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
		char *blk = ssd_xcalloc(1, jb + rb + (size_t)nclone * 8);
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
					      ? file_names(f, j, 0, names) : 0;
			uint64_t total0 = 0;
			for (uint32_t c = 0; c < j->numjobs && !rc; c++) {
				if (c && kind[ji] == JT_FILES &&
				    names_per_clone(f)) {
					free_names(names, nn);
					nn = file_names(f, j, c, names);
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
	for (int ji = 0; ji < p->njobs; ji++)
		free(idx[ji]);
	free(idx);
	free(kind);
	free(names);
	ssd_layout_free(files);
	ssd_layout_free(marked);
	return rc;
}

static int parse_text(const char *text, size_t len, const char *file,
		      uint64_t capacity, struct ssd_job **jobs, int *njobs,
		      char *err, size_t errlen)
{
	struct parser *p = ssd_xcalloc(1, sizeof *p);
	p->file = file;
	p->capacity = capacity;
	p->err = err;
	p->errlen = errlen;
	job_defaults(&p->global.j);
	if (err && errlen)
		err[0] = 0;

	int rc = 0;
	char buf[JOB_LINE_MAX + 1];
	size_t pos = 0;
	if (capacity < JOB_PAGE) {
		rc = perr(p, 0, SSD_EINVAL, "drive capacity %llu B is too "
			  "small for any job", (unsigned long long)capacity);
		goto out;
	}
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		pos = 3; /* UTF-8 byte order mark */
	while (pos < len) {
		const char *start = text + pos;
		const char *nl = memchr(start, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - start) : len - pos;
		pos += n + (nl ? 1 : 0);
		p->line++;
		if (n > JOB_LINE_MAX) {
			rc = perr(p, p->line, SSD_EPARSE,
				  "line is longer than %d characters",
				  JOB_LINE_MAX);
			goto out;
		}
		if (memchr(start, 0, n)) {
			rc = perr(p, p->line, SSD_EPARSE,
				  "line contains a NUL byte (accepted: text)");
			goto out;
		}
		memcpy(buf, start, n);
		buf[n] = 0;
		rc = parse_line(p, buf);
		if (rc)
			goto out;
	}
	if (p->section == SEC_JOB) {
		rc = finish_job(p);
		if (rc)
			goto out;
	}
	if (!p->njobs)
		rc = perr(p, p->line ? p->line : 1, SSD_EPARSE,
			  "no job section in the file (accepted: at least "
			  "one [jobname] section besides [global])");
	else
		rc = resolve_files(p);
out:
	free_files(p);
	if (rc) {
		free(p->jobs);
		*jobs = NULL;
		*njobs = 0;
	} else {
		*jobs = p->jobs;
		*njobs = p->njobs;
	}
	free(p);
	return rc;
}

int ssd_jobfile_parse_string(const char *text, const char *name,
			     uint64_t capacity, struct ssd_job **jobs,
			     int *njobs, char *err, size_t errlen)
{
	return parse_text(text, strlen(text), name, capacity, jobs, njobs,
			  err, errlen);
}

int ssd_jobfile_parse(const char *path, uint64_t capacity,
		      struct ssd_job **jobs, int *njobs, char *err,
		      size_t errlen)
{
	*jobs = NULL;
	*njobs = 0;
	FILE *f = fopen(path, "rb");
	if (!f) {
		if (err && errlen)
			snprintf(err, errlen, "%s: cannot open job file: %s",
				 path, strerror(errno));
		return SSD_EIO;
	}
	char *text = NULL;
	size_t len = 0, cap = 0;
	int rc = 0;
	for (;;) {
		if (len == cap) {
			cap = cap ? 2 * cap : 8192;
			text = ssd_xrealloc(text, cap);
		}
		size_t n = fread(text + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
		if (len > JOB_FILE_MAX) {
			if (err && errlen)
				snprintf(err, errlen, "%s: job file is larger "
					 "than %u MiB", path,
					 JOB_FILE_MAX >> 20);
			rc = SSD_ERANGE;
			break;
		}
	}
	if (!rc && ferror(f)) {
		if (err && errlen)
			snprintf(err, errlen, "%s: cannot read job file: %s",
				 path, strerror(errno));
		rc = SSD_EIO;
	}
	fclose(f);
	if (!rc)
		rc = parse_text(text, len, path, capacity, jobs, njobs, err,
				errlen);
	free(text);
	return rc;
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
	      "src/job.c; do not edit. -->\n\n"
	      "ssdlab reads workloads as fio job files.  A `[global]` "
	      "section sets defaults for the jobs that follow it (a later "
	      "`[global]` changes only the jobs after it); every other "
	      "`[name]` section is a job.  Lines are `key=value`, or a bare "
	      "`key` for a boolean.  `#` and `;` start a comment at the "
	      "start of a line or after white space.  Lines are at most "
	      "4096 characters.\n\n"
	      "An option ssdlab does not know, or knows but does not "
	      "support, is an error that names the file, the line and the "
	      "option; nothing is silently ignored.\n\n"
	      "## Values\n\n"
	      "- **Integers** are decimal, or hex after `0x`, as fio reads "
	      "them: `iodepth=010` is ten (a leading 0 is never octal), "
	      "`numjobs=0x2` is two.\n"
	      "- **Sizes** take fio's suffixes with kb_base=1024: `4096`, "
	      "`4k`, `4KiB`, `16m`, `1g`, `1.5g`, `0x1000`.  `size` and "
	      "`offset` may be a percentage of the drive's capacity (`50%`), "
	      "`io_size` a percentage of the job's `size`.\n"
	      "- **Times** are simulated time with a unit (`ns`, `us`, `ms`, "
	      "`s`, `m`, `h`, `d`); a bare number is seconds, except for "
	      "`thinktime` (microseconds, as in fio).\n"
	      "- **Booleans**: `1`/`0`, `true`/`false`, `yes`/`no`, "
	      "`on`/`off`, or the bare key for 1.\n"
	      "- **Block sizes** are multiples of 512 B.  The drive maps 4 "
	      "KiB pages and rounds every I/O out to whole pages, so an I/O "
	      "smaller than 4 KiB, or one not 4 KiB aligned, costs whole "
	      "pages.\n"
	      "- **Offsets and sizes** are multiples of 4 KiB; a percentage "
	      "`size` is rounded down to 4 KiB, a percentage `offset` or "
	      "`offset_increment` aligned up to `offset_align` (default: the "
	      "smallest block size, at least 4 KiB), as fio aligns it.\n"
	      "- A value too large for its field is an error, never wrapped "
	      "or rounded.\n\n"
	      "## Limits of a file\n\n"
	      "The runner holds every job of a file at once, and simulated "
	      "time is a 64-bit count of nanoseconds (292 years).  A file is "
	      "refused, at the job that crosses the limit, when:\n\n"
	      "- `numjobs` summed over its jobs passes 4096 (fio's own limit "
	      "on jobs);\n"
	      "- `numjobs` x `iodepth` summed over its jobs passes 1048576 "
	      "I/Os in flight;\n"
	      "- its jobs could span more than 146 years of simulated time: "
	      "for each job `ramp_time` + `runtime` (+ one `thinktime`), or "
	      "without a runtime `thinktime` after every `thinktime_blocks` of "
	      "its `io_size` / `bs` I/Os; jobs side by side count once, "
	      "stonewalled groups add up.\n\n"
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
	      "These choose the host side of a real fio run: the engine, "
	      "the target file, the page cache.  ssdlab accepts them so that "
	      "existing job files run unchanged.\n\n"
	      "| Option | Accepted | Why |\n|---|---|---|\n", out);
	for (int i = 0; i < NOPTS; i++) {
		const struct jopt *o = &opts[i];
		if (o->type != OT_NOEFFECT)
			continue;
		fputs("| ", out);
		doc_names(out, o);
		fprintf(out, " | %s | %s |\n", o->value, o->help);
	}
	fputs("\n## Not supported\n\n"
	      "Well-known fio options that ssdlab refuses with this reason "
	      "(any other unknown key is an error too).  Also refused: "
	      "`include` directives, `${VAR}` expansion, per-direction "
	      "values (`bs=4k,8k`), `rw=randread:8`, the `:center` "
	      "parameter of zipf/pareto, `random_distribution=normal` and "
	      "`zoned_abs`, `rw=trimwrite`.\n\n"
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
	      "ends after `io_size` bytes (default: `size`; with `bssplit` "
	      "the last I/O may end a little past it, as in fio), or at "
	      "`runtime`; with `time_based` it runs until `runtime`.\n"
	      "- Sequential jobs start at the region's start and wrap at "
	      "its end; an I/O that would cross the end is shortened.  In "
	      "`rw`/`readwrite` reads and writes share the position.  Each "
	      "clone (`numjobs`) starts at the region's start, or with "
	      "`offset_increment` at offset + clone x increment.\n"
	      "- In mixed jobs each I/O is a read with probability "
	      "`rwmixread`%.\n"
	      "- Random offsets are aligned to the I/O's size within the "
	      "region.  Uniform random jobs visit every block of the region "
	      "once per pass, in an order that changes every pass (fio's "
	      "random map); with `norandommap`, or with `bssplit`, offsets "
	      "are drawn with replacement.\n"
	      "- `zipf` and `pareto` draw a popularity rank (fio's "
	      "definitions: P(rank k) ~ 1/k^theta; pareto as fio's "
	      "`(n-1)*u^(log h/log(1-h))`) and map ranks to blocks through "
	      "a fixed random permutation, so hot blocks are scattered over "
	      "the region.  Like fio, non-uniform distributions draw with "
	      "replacement.\n"
	      "- `zoned:A/S:...`: A% of the I/Os go, uniformly, to the next "
	      "S% of the region, zones in order from the region's start; "
	      "if the S add up to less than 100 the rest of the region is "
	      "not touched.\n"
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
	      "fio; `size` is split over the files (4 KiB units, the first "
	      "files one more) unless `filesize` is given, when it only caps "
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
