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

#define JOB_LINE_MAX 4096             /* longest accepted line, chars */
#define JOB_FILE_MAX (16u << 20)      /* largest accepted job file, bytes */
#define JOB_SECTOR 512u               /* block sizes are multiples of this */
#define JOB_PAGE 4096u                /* offsets and sizes are multiples */
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
		int rc = ssd_parse_size(neg ? m + 1 : m, &v);
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
			int rc = ssd_parse_size(s, &z[n].size_bytes);
			if (rc == SSD_EPARSE)
				return opt_err(p, o, rc,
					       "zone '%.32s/%.32s': '%.32s' is "
					       "not a size", a, s, s);
			if (rc || !z[n].size_bytes ||
			    z[n].size_bytes % JOB_PAGE)
				return opt_err(p, o, SSD_ERANGE,
					       "zone '%.32s/%.32s': the size "
					       "is not a multiple of 4 KiB "
					       "above 0", a, s);
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
		return opt_err(p, o, SSD_EUNSUP,
			       "'sequence' is not supported by ssdlab");
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
			       "zipf theta %g is out of range (0 < theta <= "
			       "100)", v);
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

static int fn_rw_sequencer(struct parser *p, struct jstate *js,
			   const struct jopt *o, char *val)
{
	if (!strcmp(val, "sequential"))
		js->j.rw_sequencer = SSD_RWSEQ_SEQUENTIAL;
	else if (!strcmp(val, "identical"))
		js->j.rw_sequencer = SSD_RWSEQ_IDENTICAL;
	else
		return opt_err(p, o, SSD_EPARSE, "unknown sequencer '%.64s'",
			       val);
	return 0;
}

static int fn_random_generator(struct parser *p, struct jstate *js,
			       const struct jopt *o, char *val)
{
	if (!strcmp(val, "tausworthe"))
		js->j.random_generator = SSD_RANDGEN_TAUSWORTHE;
	else if (!strcmp(val, "lfsr"))
		js->j.random_generator = SSD_RANDGEN_LFSR;
	else if (!strcmp(val, "tausworthe64"))
		js->j.random_generator = SSD_RANDGEN_TAUSWORTHE64;
	else
		return opt_err(p, o, SSD_EPARSE, "unknown generator '%.64s'",
			       val);
	return 0;
}

static int fn_number_ios(struct parser *p, struct jstate *js,
			 const struct jopt *o, char *val)
{
	uint64_t v;
	int rc = ssd_parse_size(val, &v);  /* fio takes k/m/g suffixes */
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
	 .value = "random, zipf[:THETA[:C]], pareto[:H[:C]], normal:D[:C] "
		  "(gauss), zoned:A/S:A/S:..., zoned_abs:A/SIZE:...",
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
		 "is uniform."},
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
	 .help = "Average log entries over this window; 0 logs every I/O."},

	/* the I/O stream: sizes, offsets, patterns, files (more) */
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
	{.name = "rw_sequencer", .type = OT_FN, .fn = fn_rw_sequencer,
	 .value = "sequential, identical", .def = "sequential",
	 .help = "With rw=RANDOM:N, the N-1 I/Os after each random one: "
		 "sequential continues from it; identical repeats its "
		 "offset.  No effect on sequential patterns."},
	{.name = "random_generator", .type = OT_FN, .fn = fn_random_generator,
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
	UNSUP("offset_increment", NULL,
	      "clones all work over the job's whole region; write one job "
	      "per region instead"),
	UNSUP("nrfiles", NULL, "the target is one drive"),
	UNSUP("filesize", NULL, "the target is one drive; use size"),
	UNSUP("file_service_type", NULL, "the target is one drive"),

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
		if (j->number_ios && (double)j->number_ios < ios)
			ios = (double)j->number_ios;
		if (j->rw == SSD_RW_TRIMWRITE || j->rw == SSD_RW_RANDTRIMWRITE)
			ios *= 2;
		ios *= j->loops;
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
	double think;
	double span = job_span(j, io_size, ssd_job_min_bs(j), size, &think);
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

/* The I/O stream as fio resolves it once the job's region is known:
 * per direction, the range of I/O sizes (bssplit, else bsrange, else
 * bs) and the alignment of random offsets; zoned_abs sizes; and checks
 * that the region holds what the stream asks of it. */
static int finish_stream(struct parser *p, struct jstate *js, uint64_t size)
{
	struct ssd_job *j = &js->j;
	char b1[32], b2[32];
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

	/* the region must hold the largest block */
	uint32_t maxbs = ssd_job_max_bs(j);
	if (size < maxbs) {
		const char *key = "bs";
		if (was_set(js, "bssplit"))
			key = "bssplit";
		else if (was_set(js, "bsrange"))
			key = "bsrange";
		key = was_set(js, "size") || !was_set(js, key) ? "size" : key;
		return perr(p, opt_line(js, key), SSD_ERANGE,
			    "option '%s': the region of job '%s' (%s) is "
			    "smaller than its block size %s (accepted: size "
			    ">= block size)", key, j->name,
			    ssd_fmt_bytes(size, b1, sizeof b1),
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
			int n = j->nzones[d];
			for (int i = 0; i < n; i++)
				sum += j->zones[d][i].size_bytes;
			if (sum > size ||
			    (!j->zones[d][n - 1].size_bytes && sum >= size))
				return perr(p, opt_line(js,
							"random_distribution"),
					    SSD_ERANGE,
					    "option 'random_distribution': "
					    "the zones cover %s, more than the "
					    "region of job '%s' (%s; accepted: "
					    "zone sizes within size)",
					    ssd_fmt_bytes(sum, b1, sizeof b1),
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

	rc = finish_stream(p, js, size);
	if (rc)
		return rc;

	if (j->time_based && j->runtime == 0)
		return perr(p, opt_line(js, "time_based"), SSD_EINVAL,
			    "option 'time_based': job '%s' has no runtime "
			    "(accepted: time_based together with runtime)",
			    j->name);

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
	      "`include` directives, `${VAR}` expansion, "
	      "`random_distribution=sequence`, `rw=filecreate` and the other "
	      "file patterns.\n\n"
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
	      "(`numjobs`) starts at the region's start.\n"
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
	      "seed gives the same stream.\n", out);
}
