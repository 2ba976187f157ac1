/*
 * job_value.c -- the values of fio job-file options that need more than
 * a type: the readers the option table's OT_FN and OT_NOEFFECT rows name
 * (job_opts.c).
 *
 * A reader gets the value as written (after ${VAR} and arithmetic,
 * job_parse.c), checks it as fio would -- words, lists, per-direction
 * R,W,T fields, ranges, alignment -- and stores it in the job being read
 * (struct jstate); a job_ne_* reader only checks a value that has no
 * effect on a simulated drive.  A mistake is one message naming the
 * option and what it accepts (opt_err); what depends on other options
 * of the job is checked when its section ends (job_build.c).
 *
 * Units: sizes in bytes, times in nanoseconds of simulated time,
 * percentages as given.
 */
#include "job/job_int.h"
#include "job/steadystate.h"
#include "trace/trace.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- sizes, times, patterns, block sizes and distributions ---- */

/* A size as fio reads it, under the kb_base of the section being read. */
int job_size(struct parser *p, const char *s, uint64_t *out)
{
	return ssd_parse_size_kb(s, p->kb_base ? p->kb_base : 1024, out);
}

/* The options whose sizes take fio's zone suffix (FIO_OPT_STR_VAL_ZONE). */
static int takes_zones(const struct jopt *o)
{
	static const char *const names[] = {"size", "io_size", "offset",
					    "offset_increment", "zoneskip"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(o->name, names[i]))
			return 1;
	return 0;
}

int job_zones(struct parser *p, const struct jopt *o, const char *val,
	      uint64_t *n)
{
	size_t len = strlen(val);
	if (!len || (val[len - 1] != 'z' && val[len - 1] != 'Z'))
		return 0;
	if (!takes_zones(o))
		return opt_err(p, o, SSD_EPARSE, "'z' suffix isn't applicable");
	uint64_t v = 0;
	size_t i = 0;
	for (; i + 1 < len && val[i] >= '0' && val[i] <= '9'; i++) {
		if (v > (UINT32_MAX - 9) / 10)
			break;
		v = v * 10 + (uint64_t)(val[i] - '0');
	}
	if (!i || i + 1 != len)
		return opt_err(p, o, SSD_EPARSE, "unexpected zone value '%.64s'",
			       val);
	*n = v;
	return 1;
}

/* Years, for messages about simulated time. */
double job_years(double ns)
{
	return ns / (365.25 * 86400.0 * (double)SSD_S);
}

/* A time of option o (a bare number is in `unit` ns), at most
 * JOB_TIME_MAX; the message names o. */
int job_time(struct parser *p, const struct jopt *o, const char *s,
	     int64_t unit, int64_t *out)
{
	int rc = ssd_parse_time(s, unit, out);
	if (rc == SSD_EPARSE)
		return opt_err(p, o, rc, "'%.64s' is not a time", s);
	if (rc || *out > JOB_TIME_MAX)
		return opt_err(p, o, SSD_ERANGE, "%.64s is too long, more than %.0f "
			       "years of simulated time", s,
			       floor(job_years((double)JOB_TIME_MAX)));
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
int job_fn_rw(struct parser *p, struct jstate *js, const struct jopt *o,
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

int job_fn_rwmixwrite(struct parser *p, struct jstate *js,
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

/* A block size: a multiple of 512 B, 512 B..max. */
static int parse_bs_max(struct parser *p, const struct jopt *o,
			const char *s, uint64_t max, uint32_t *out)
{
	uint64_t v;
	int rc = job_size(p, s, &v);
	if (rc == SSD_EPARSE)
		return opt_err(p, o, rc, "'%.64s' is not a size", s);
	if (rc || v < JOB_SECTOR || v > max)
		return opt_err(p, o, SSD_ERANGE,
			       "block size %.64s is out of range", s);
	if (v % JOB_SECTOR)
		return opt_err(p, o, SSD_ERANGE,
			       "block size %.64s is not a multiple of 512 B",
			       s);
	*out = (uint32_t)v;
	return 0;
}

/* A block size: a multiple of 512 B, 512 B..128 MiB. */
int job_parse_bs(struct parser *p, const struct jopt *o, const char *s,
		 uint32_t *out)
{
	return parse_bs_max(p, o, s, JOB_BS_MAX, out);
}

/* bs=R,W,T and blockalign=R,W,T: one block size per direction.  bs may
 * be up to JOB_ZBD_BS_MAX: a zbd job's trims are zone resets of the zone
 * size, which reach the drive as no command of that size; the job's
 * check (job_zbd.c) holds every other direction it uses to 128 MiB. */
int job_fn_bs_ddir(struct parser *p, struct jstate *js,
		   const struct jopt *o, char *val)
{
	char *f[SSD_DDIR_N];
	uint32_t v[SSD_DDIR_N];
	uint32_t *field = (uint32_t *)((char *)&js->j + o->off);
	int rc = split_ddir(p, o, val, f);
	uint64_t max = o->off == offsetof(struct ssd_job, bs) ? JOB_ZBD_BS_MAX
							     : JOB_BS_MAX;
	for (int d = 0; !rc && d < SSD_DDIR_N; d++)
		if (f[d])
			rc = parse_bs_max(p, o, f[d], max, &v[d]);
	if (rc)
		return rc;
	for (int d = 0; d < SSD_DDIR_N; d++)
		if (f[d])
			field[d] = v[d];
	return 0;
}

/* bsrange=MIN-MAX[,MIN-MAX[,MIN-MAX]] (fio also takes MIN:MAX). */
int job_fn_bsrange(struct parser *p, struct jstate *js,
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
		rc = job_parse_bs(p, o, ssd_strtrim(f[d]), &lo[d]);
		if (!rc)
			rc = job_parse_bs(p, o, ssd_strtrim(sep + 1), &hi[d]);
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
		int rc = job_parse_bs(p, o, size, &sp[n].bs);
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

int job_fn_bssplit(struct parser *p, struct jstate *js,
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
int job_fn_perc_random(struct parser *p, struct jstate *js,
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

int job_fn_dist(struct parser *p, struct jstate *js, const struct jopt *o,
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

int job_fn_number_ios(struct parser *p, struct jstate *js,
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

int job_fn_name(struct parser *p, struct jstate *js, const struct jopt *o,
		char *val)
{
	if (strlen(val) >= sizeof js->j.name)
		return opt_err(p, o, SSD_ERANGE, "name is too long");
	/* In [global] the name has no effect: each job takes its section's
	 * name when it starts (fio does the same). */
	snprintf(js->j.name, sizeof js->j.name, "%s", val);
	return 0;
}

int job_fn_randseed(struct parser *p, struct jstate *js,
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

int job_fn_rate(struct parser *p, struct jstate *js, const struct jopt *o,
		char *val)
{
	uint64_t *f = (uint64_t *)((char *)&js->j + o->off);
	return parse_per_dir(p, o, val, o->size, f);
}

/* startdelay=T or startdelay=LOW-HIGH (fio's irange of times). */
int job_fn_startdelay(struct parser *p, struct jstate *js,
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
			       floor(job_years((double)JOB_TIME_MAX)));
	if (b < a)
		return opt_err(p, o, SSD_ERANGE,
			       "the range ends before it starts");
	js->j.startdelay = a;
	js->j.startdelay_hi = b;
	return 0;
}

int job_fn_wait_for(struct parser *p, struct jstate *js,
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
int job_fn_read_iolog(struct parser *p, struct jstate *js,
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
	if (rc) /* no trace there: a wrong value */
		return opt_err(p, o, rc == SSD_ENOENT ? SSD_EIO : rc, "%s", err);
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
	/* a bad line of the trace: the trace's own "PATH:LINE: what", the
	 * job file's line as context (the value named a trace, rightly) */
	if (rc)
		return job_file_err(p, rc == SSD_ENOENT ? SSD_EIO : rc, err);
	snprintf(js->j.read_iolog, sizeof js->j.read_iolog, "%s", val);
	return 0;
}

int job_fn_write_iolog(struct parser *p, struct jstate *js,
		       const struct jopt *o, char *val)
{
	if (!*val || strlen(val) >= sizeof js->j.write_iolog)
		return opt_err(p, o, SSD_ERANGE, "'%s' is %s", val,
			       *val ? "too long a name" : "empty");
	snprintf(js->j.write_iolog, sizeof js->j.write_iolog, "%s", val);
	return 0;
}

int job_fn_replay_align(struct parser *p, struct jstate *js,
			const struct jopt *o, char *val)
{
	uint64_t v;
	if (ssd_parse_size(val, &v) || !v || v > (1u << 31) || (v & (v - 1)))
		return opt_err(p, o, SSD_ERANGE, "'%s' is not a power of 2", val);
	js->j.replay_align = (uint32_t)v;
	return 0;
}

int job_fn_replay_skip(struct parser *p, struct jstate *js,
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
int job_fn_latency_percentile(struct parser *p, struct jstate *js,
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
int job_fn_steadystate(struct parser *p, struct jstate *js,
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
int job_ne_text(struct parser *p, struct jstate *js, const struct jopt *o,
		char *val)
{
	return 0;
}

int job_ne_bool(struct parser *p, struct jstate *js, const struct jopt *o,
		char *val)
{
	int b;
	if (ssd_parse_bool(val, &b))
		return opt_err(p, o, SSD_EPARSE, "'%.64s' is not a boolean",
			       val);
	return 0;
}

/* One unsigned integer within [o->min, o->max] (max 0: no limit). */
static int job_ne_uint_one(struct parser *p, const struct jopt *o, char *val)
{
	uint64_t v;
	int rc = ssd_parse_u64(val, &v);
	if (rc == SSD_EPARSE)
		return opt_err(p, o, rc, "'%.64s' is not an integer", val);
	if (rc || v < o->min || (o->max && v > o->max))
		return opt_err(p, o, SSD_ERANGE, "%.64s is out of range", val);
	return 0;
}

int job_ne_uint(struct parser *p, struct jstate *js, const struct jopt *o,
		char *val)
{
	return job_ne_uint_one(p, o, val);
}

/* "int[,int][,int]": one value per direction (cmdprio_percentage...). */
int job_ne_uint_list(struct parser *p, struct jstate *js,
		     const struct jopt *o, char *val)
{
	char *save = NULL;
	int n = 0;
	for (char *e = strtok_r(val, ",", &save); e;
	     e = strtok_r(NULL, ",", &save), n++) {
		int rc = job_ne_uint_one(p, o, ssd_strtrim(e));
		if (rc)
			return rc;
	}
	if (!n || n > 3)
		return opt_err(p, o, SSD_EPARSE, "%d values", n);
	return 0;
}

/* A signed integer in [-20, 19]: nice. */
int job_ne_nice(struct parser *p, struct jstate *js, const struct jopt *o,
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

int job_ne_size(struct parser *p, struct jstate *js, const struct jopt *o,
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
int job_ne_choice(struct parser *p, struct jstate *js,
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

/* A CPU list: N, N-M, comma-separated (cpus_allowed, numa_cpu_nodes). */
int job_ne_cpus(struct parser *p, struct jstate *js, const struct jopt *o,
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
int job_ne_direct(struct parser *p, struct jstate *js,
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
int job_fn_kb_base(struct parser *p, struct jstate *js,
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
int job_fn_verify(struct parser *p, struct jstate *js,
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
int job_fn_blocks(struct parser *p, struct jstate *js,
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
int job_fn_vbytes(struct parser *p, struct jstate *js,
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
int job_ne_pattern(struct parser *p, struct jstate *js,
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

int job_fn_filename(struct parser *p, struct jstate *js,
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

int job_fn_filename_format(struct parser *p, struct jstate *js,
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

int job_fn_filesize(struct parser *p, struct jstate *js,
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

int job_fn_fsrv(struct parser *p, struct jstate *js, const struct jopt *o,
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

int job_fn_openfiles(struct parser *p, struct jstate *js,
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

int job_fn_offset_increment(struct parser *p, struct jstate *js,
			    const struct jopt *o, char *val)
{
	struct region_val rv = {.given = 1};
	size_t n = strlen(val);
	int rc = job_zones(p, o, val, &rv.zones);
	if (rc < 0)
		return rc;
	if (rc) {
		rv.is_zones = 1;
	} else if (val[n - 1] == '%') {
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
		rc = job_size(p, val, &rv.bytes);
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
int job_fn_size64(struct parser *p, struct jstate *js, const struct jopt *o,
		  char *val)
{
	uint64_t v;
	int rc = job_zones(p, o, val, &v);
	if (rc < 0)
		return rc;
	if (rc) { /* zoneskip=Nz: resolved when the job ends */
		js->zskip = (struct region_val){.given = 1, .is_zones = 1,
						.zones = v};
		js->j.zoneskip = 0;
		return 0;
	}
	if (o->off == offsetof(struct ssd_job, zoneskip))
		js->zskip.is_zones = 0;
	rc = job_size(p, val, &v);
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

int job_fn_zonemode(struct parser *p, struct jstate *js,
		    const struct jopt *o, char *val)
{
	if (!strcmp(val, "none"))
		js->j.zonemode = SSD_ZONEMODE_NONE;
	else if (!strcmp(val, "strided"))
		js->j.zonemode = SSD_ZONEMODE_STRIDED;
	else if (!strcmp(val, "zbd"))
		js->j.zonemode = SSD_ZONEMODE_ZBD;
	else
		return opt_err(p, o, SSD_EPARSE, "unknown zone mode '%.64s'",
			       val);
	return 0;
}

/* max_open_zones, job_max_open_zones: fio's range check and words. */
int job_fn_zone_limit(struct parser *p, struct jstate *js,
		      const struct jopt *o, char *val)
{
	uint64_t v;
	int rc = ssd_parse_u64(val, &v);
	if (rc == SSD_EPARSE)
		return opt_err(p, o, rc, "'%.64s' is not an integer", val);
	if (rc || v > o->max)
		return opt_err(p, o, SSD_ERANGE,
			       "max value out of range: %.64s (%llu max)", val,
			       (unsigned long long)o->max);
	*(uint32_t *)((char *)&js->j + o->off) = (uint32_t)v;
	return 0;
}

/* zone_reset_threshold, zone_reset_frequency: a fraction, fio's words. */
int job_fn_zone_frac(struct parser *p, struct jstate *js,
		     const struct jopt *o, char *val)
{
	double v;
	if (ssd_parse_double(val, &v))
		return opt_err(p, o, SSD_EPARSE, "'%.64s' is not a number", val);
	if (v > 1.0)
		return opt_err(p, o, SSD_ERANGE,
			       "value out of range: %f (range max: %f)", v, 1.0);
	if (!(v >= 0.0))
		return opt_err(p, o, SSD_ERANGE,
			       "value out of range: %f (range min: %f)", v, 0.0);
	*(double *)((char *)&js->j + o->off) = v;
	return 0;
}

/* ---- errors, exits, percentiles and command modes ---- */

/* continue_on_error: fio's words, and its 0/1 aliases. */
int job_fn_coe(struct parser *p, struct jstate *js, const struct jopt *o,
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
int job_fn_ignore_error(struct parser *p, struct jstate *js,
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

int job_fn_exit_what(struct parser *p, struct jstate *js,
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

int job_fn_clat_percentiles(struct parser *p, struct jstate *js,
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
int job_fn_percentile_list(struct parser *p, struct jstate *js,
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
int job_fn_write_mode(struct parser *p, struct jstate *js,
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
		if (!strcmp(w, "zone_append")) {
			/* fio's write_mode is one word: an append is not
			 * a share of a mix */
			if (n || rest || slash)
				return opt_err(p, o, SSD_EINVAL,
					       "zone_append is one mode, not "
					       "part of a mix");
			memset(j->wmode_pct, 0, sizeof j->wmode_pct);
			j->wmode_pct[SSD_WMODE_WRITE] = 100;
			j->wmode_set = 0;
			j->zone_append = 1;
			return 0;
		}
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
	j->zone_append = 0;
	return 0;
}

/* sg_write_mode (sg engine): the SCSI command each write becomes. */
int job_fn_sg_write_mode(struct parser *p, struct jstate *js,
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

