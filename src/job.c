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

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "steadystate.h"

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
enum { LOG_IOPS, LOG_BW, LOG_LAT, LOG_N };

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
			int rc = sizes ? ssd_parse_size(e, &v[n])
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

static int fn_rate_process(struct parser *p, struct jstate *js,
			   const struct jopt *o, char *val)
{
	if (!strcmp(val, "linear") || !strcmp(val, "poisson")) {
		js->j.rate_poisson = !strcmp(val, "poisson");
		return 0;
	}
	return opt_err(p, o, SSD_EPARSE, "unknown rate process '%.64s'", val);
}

static int fn_submit_mode(struct parser *p, struct jstate *js,
			  const struct jopt *o, char *val)
{
	if (!strcmp(val, "inline") || !strcmp(val, "offload")) {
		js->j.io_submit_offload = !strcmp(val, "offload");
		return 0;
	}
	return opt_err(p, o, SSD_EPARSE, "unknown mode '%.64s'", val);
}

static int fn_think_type(struct parser *p, struct jstate *js,
			 const struct jopt *o, char *val)
{
	if (!strcmp(val, "complete") || !strcmp(val, "issue")) {
		js->j.thinktime_issue = !strcmp(val, "issue");
		return 0;
	}
	return opt_err(p, o, SSD_EPARSE, "unknown type '%.64s'", val);
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
	int rc = ssd_parse_time(lo, SSD_S, &a);
	if (!rc && hi)
		rc = ssd_parse_time(hi, SSD_S, &b);
	else
		b = a;
	if (rc == SSD_EPARSE)
		return opt_err(p, o, rc, "'%.64s' is not a time or a range",
			       lo);
	if (rc)
		return opt_err(p, o, rc, "too long");
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
	 .help = "Average log entries over this window; 0 logs every I/O."},

	/* the I/O stream: sizes, offsets, patterns, files (more) */

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
	{.name = "rate_process", .type = OT_FN, .fn = fn_rate_process,
	 .value = "linear, poisson", .def = "linear",
	 .help = "linear: the I/Os of a rated job are evenly spaced; "
		 "poisson: exponential gaps of mean 1/IOPS drawn from the "
		 "job's random stream (the same seed, the same arrivals)."},
	{.name = "rate_ignore_thinktime", .type = OT_BOOL,
	 FIELD(rate_ignore_thinktime),
	 .value = "boolean (a bare key means 1)", .def = "0",
	 .help = "After a think time keep to the rate instead of catching "
		 "up on the I/Os the think time cost."},
	{.name = "io_submit_mode", .type = OT_FN, .fn = fn_submit_mode,
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
	{.name = "thinktime_blocks_type", .type = OT_FN, .fn = fn_think_type,
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
	{.name = "flow_watermark", .type = OT_NOEFFECT, .fn = ne_text,
	 .value = "an integer",
	 .help = "Deprecated in fio, which ignores it as well."},

	/* data verification */

	/* logs and output (more) */

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
	{.name = "filename", .type = OT_NOEFFECT, .fn = ne_text,
	 .value = "a path",
	 .help = "The target is the simulated drive (--drive)."},
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

	/* refused for now: the I/O stream: sizes, offsets, patterns, files */
	UNSUP("zonemode", NULL, "zoned and strided access is not modelled"),
	UNSUP("zonesize", NULL, "zoned and strided access is not modelled"),
	UNSUP("zonerange", NULL, "zoned and strided access is not modelled"),
	UNSUP("zoneskip", NULL, "zoned and strided access is not modelled"),
	UNSUP("loops", NULL, "use io_size (e.g. io_size=300%) or time_based"),
	UNSUP("number_ios", NULL, "use io_size"),
	UNSUP("offset_increment", NULL,
	      "clones all work over the job's whole region; write one job "
	      "per region instead"),
	UNSUP("bsrange", "blocksize_range", "use bssplit"),
	UNSUP("bs_unaligned", "blocksize_unaligned", "use bssplit"),
	UNSUP("blockalign", "ba",
	      "random offsets are aligned to each I/O's size"),
	UNSUP("percentage_random", NULL,
	      "a job is either sequential or random"),
	UNSUP("random_generator", NULL, "ssdlab has one random generator"),
	UNSUP("rw_sequencer", NULL, "rw=PATTERN:N modifiers are not supported"),
	UNSUP("nrfiles", NULL, "the target is one drive"),
	UNSUP("filesize", NULL, "the target is one drive; use size"),
	UNSUP("file_service_type", NULL, "the target is one drive"),

	/* refused for now: pacing and the order of jobs */
	UNSUP("latency_target", NULL,
	      "fio's search for the deepest queue that meets a latency "
	      "target is not implemented; run iodepth values in turn"),
	UNSUP("latency_window", NULL, "goes with latency_target"),
	UNSUP("latency_percentile", NULL, "goes with latency_target"),
	UNSUP("latency_run", NULL, "goes with latency_target"),
	UNSUP("exit_what", NULL, "exitall always ends the reporting group"),

	/* refused for now: data verification */
	UNSUP("verify", NULL, "the simulator keeps no data to verify"),
	UNSUP("do_verify", NULL, "the simulator keeps no data to verify"),
	UNSUP("verify_pattern", NULL, "the simulator keeps no data"),

	/* refused for now: logs and output */
	UNSUP("write_hist_log", NULL, "use write_lat_log"),
	UNSUP("log_hist_msec", NULL, "use write_lat_log"),

	/* refused for now: values and host-side settings */
	UNSUP("kb_base", NULL, "sizes always use kb_base=1024"),

	/* refused for now: traces */
	UNSUP("read_iolog", NULL, "replay a trace file instead"),
	UNSUP("write_iolog", NULL, "the I/O stream is reproducible from the "
	      "seed"),
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
	double t = (double)j->ramp_time + (double)j->startdelay_hi;
	*think = 0;
	if (j->runtime) {
		t += (double)j->runtime;
		*think = (double)j->thinktime;
	} else {
		if (j->thinktime) {
			double ios = ceil((double)io_size / minbs) +
				     ceil((double)io_size / (double)size);
			*think = ceil(ios / j->thinktime_blocks) *
				 (double)j->thinktime;
		}
		/* a rate: io_size at the slowest direction's rate */
		double slowest = 0;
		for (int d = 0; d < SSD_DDIR_N; d++) {
			double bps = j->rate[d] ? (double)j->rate[d]
				   : (double)j->rate_iops[d] * minbs;
			if (bps > 0 && (slowest == 0 || bps < slowest))
				slowest = bps;
		}
		if (slowest > 0)
			*think += (double)io_size / slowest * (double)SSD_S;
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
	if (p->njobs > 0 && (j->stonewall || j->wait_for[0])) {
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
		if (!strcmp(key, "thinktime") && !j->thinktime)
			key = j->rate[0] || j->rate[1] || j->rate[2]
				? "rate" : "rate_iops";
		return perr(p, opt_line(js, key), SSD_ERANGE,
			    "option '%s': the jobs up to '%s' could span %.3g "
			    "years of simulated time (ramp_time + runtime, "
			    "else thinktime over every I/O and io_size at its "
			    "rate, summed over the "
			    "stonewalled groups; accepted: at most %.0f years "
			    "in all)", key, j->name, years_of(total),
			    floor(years_of((double)JOB_MAX_SPAN)));
	}
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
		off = (uint64_t)((double)cap * rv->pct / 100.0) &
		      ~(uint64_t)(JOB_PAGE - 1);
	if (off >= cap)
		return perr(p, opt_line(js, "offset"), SSD_ERANGE,
			    "option 'offset': %s is not inside the drive "
			    "(job '%s'; accepted: less than the capacity %s)",
			    ssd_fmt_bytes(off, b1, sizeof b1), j->name,
			    ssd_fmt_bytes(cap, b2, sizeof b2));

	/* size */
	rv = &js->rv[RV_SIZE];
	uint64_t size = cap - off;
	if (rv->given) {
		size = rv->bytes;
		if (rv->is_pct)
			size = (uint64_t)((double)cap * rv->pct / 100.0) &
			       ~(uint64_t)(JOB_PAGE - 1);
		if (!size)
			return perr(p, opt_line(js, "size"), SSD_ERANGE,
				    "option 'size': %g%% of %s is less than "
				    "4 KiB (accepted: at least 4 KiB)",
				    rv->pct, ssd_fmt_bytes(cap, b1, sizeof b1));
		if (size > cap - off) {
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

	if (j->time_based && j->runtime == 0)
		return perr(p, opt_line(js, "time_based"), SSD_EINVAL,
			    "option 'time_based': job '%s' has no runtime "
			    "(accepted: time_based together with runtime)",
			    j->name);

	rc = finish_pacing(p, js);
	if (rc)
		return rc;
	rc = check_limits(p, js, io_size, size);
	if (rc)
		return rc;

	j->offset = off;
	j->size = size;
	j->io_size = io_size;
	char *logs[LOG_N] = {j->write_iops_log, j->write_bw_log,
			     j->write_lat_log};
	for (int i = 0; i < LOG_N; i++)
		if (js->log_bare[i])
			snprintf(logs[i], sizeof j->write_iops_log, "%s",
				 j->name);

	if (p->njobs == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 8;
		p->jobs = ssd_xrealloc(p->jobs, (size_t)p->cap * sizeof *j);
	}
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
	/* pacing and the order of jobs */
	j->ratecycle = 1000 * SSD_MS;
	j->iodepth_batch = 1;
	j->iodepth_batch_complete_min = 1;
	j->ss_state = SSD_SS_IOPS | SSD_SS_SLOPE | SSD_SS_PCT;
	j->ss_limit = 0.01;
	j->ss_interval = SSD_S;
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
out:
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
	      "is rounded down to 4 KiB.\n"
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
	      "clone (`numjobs`) starts at the region's start.\n"
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
	      "seed gives the same stream.\n", out);
}
