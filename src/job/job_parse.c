/*
 * job_parse.c -- the fio job-file reader: from text to options applied.
 *
 * A job file is INI text: a [global] section sets defaults, every other
 * [name] section is a job that starts from a copy of the defaults as they
 * stand at that point (a later [global] changes only the jobs after it).
 * Lines are "key=value", or a bare "key" for a boolean; '#' and ';' start
 * comments, at the start of a line or after white space.  "include FILE"
 * lines are read in place first (up to JOB_INCLUDE_DEPTH deep), so that
 * the parser walks one list of entries, each with its file and line.
 *
 * A value is expanded (${VAR}, fio's $pagesize, $mb_memory, $ncpus),
 * worked out if it is arithmetic in parentheses, and applied through its
 * row of the option table (job_opts.c): by type here, or by the row's
 * reader (job_value.c).  A section ends in job_finish_job and the file in
 * job_finish_file (job_build.c).
 *
 * Values are checked where they are read (type, range, alignment).  A
 * mistake is reported once, as one line "FILE:LINE: option 'KEY': what
 * (accepted: ...)" -- perr and opt_err below make every message -- and
 * parsing stops there.  Integers are fio's: decimal, or hex after 0x; a
 * leading 0 is not octal.
 */
#include "job/job_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- errors ---- */

__attribute__((format(printf, 4, 5)))
int job_perr(struct parser *p, int line, int code, const char *fmt, ...)
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

int job_file_err(struct parser *p, int code, const char *msg)
{
	if (!p->err || !p->errlen)
		return code;
	const char *file = p->blame ? p->blame : p->file;
	p->blame = NULL;
	if (p->built)
		snprintf(p->err, p->errlen, "%s (%.64s of %s)", msg, p->key, file);
	else
		snprintf(p->err, p->errlen, "%s (%.64s of %s:%d)", msg, p->key,
			 file, p->line);
	for (char *c = p->err; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return code;
}

/* An allocation failed: "out of memory", and SSD_ENOMEM. */
int job_nomem(struct parser *p)
{
	ssd_seterr(p->err, p->errlen, "out of memory");
	return SSD_ENOMEM;
}

/* "option 'KEY': WHAT (accepted: VALUES)" at the current line. */
__attribute__((format(printf, 4, 5)))
int job_opt_err(struct parser *p, const struct jopt *o, int code,
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


int job_unknown_option(struct parser *p, const char *key)
{
	const char *best = NULL;
	int bestd = 99;
	for (int i = 0; i < job_nopts; i++) {
		const char *names[2] = {job_opts[i].name, job_opts[i].alias};
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
	       (o->fn == job_fn_bs_ddir || o->fn == job_fn_size64 ||
		o->fn == job_fn_offset_increment || o->fn == job_fn_number_ios);
}

static int numeric_type(const struct jopt *o)
{
	switch (o->type) {
	case OT_U32: case OT_I64: case OT_TIME: case OT_BS: case OT_REGION:
		return 1;
	case OT_NOEFFECT:
		return o->fn == job_ne_uint || o->fn == job_ne_size;
	case OT_FN:
		return o->fn == job_fn_rwmixwrite || o->fn == job_fn_randseed ||
		       o->fn == job_fn_kb_base || size_fn(o);
	}
	return 0;
}

/* "(EXPR)" of a numeric option: its value, as text the option reads. */
static int eval_value(struct parser *p, const struct jopt *o,
		      const char *val, char *out, size_t n)
{
	int kind = o->type == OT_TIME ? EX_TIME
		 : o->type == OT_BS || o->type == OT_REGION ||
		   o->fn == job_ne_size || size_fn(o) ? EX_SIZE : EX_INT;
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
	int rc = job_zones(p, o, val, &rv.zones);
	if (rc < 0)
		return rc;
	if (rc) {
		rv.is_zones = 1;
	} else if (n && val[n - 1] == '%') {
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
		rc = job_size(p, val, &rv.bytes);
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

int job_set_option(struct parser *p, struct jstate *js, int oi, char *val)
{
	const struct jopt *o = &job_opts[oi];
	void *field = (char *)&js->j + o->off;
	int rc = 0;

	if (o->type == OT_UNSUP)
		return perr(p, p->line, SSD_EUNSUP,
			    "option '%s' is not supported by ssdlab: %s",
			    p->key, o->help);
	if (!val && o->type != OT_BOOL && o->type != OT_LOG &&
	    o->fn != job_fn_clat_percentiles &&
	    !(o->type == OT_NOEFFECT &&
	      (o->fn == job_ne_bool || o->fn == job_ne_direct)))
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
		rc = job_parse_bs(p, o, val, (uint32_t *)field);
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
		int rc = job_finish_job(p);
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
	int oi = job_find_opt(key);
	if (oi < 0)
		return job_unknown_option(p, key);
	if (p->section == SEC_NONE)
		return perr(p, p->line, SSD_EPARSE,
			    "option '%.64s' is outside of any section "
			    "(accepted: after a [global] or [jobname] header)",
			    key);
	char buf[JOB_LINE_MAX + 1];
	if (val && strchr(val, '$')) {
		int rc = expand_value(p, &job_opts[oi], val, buf, sizeof buf);
		if (rc)
			return rc;
		val = buf;
	}
	struct jstate *js = p->section == SEC_GLOBAL ? &p->global : &p->cur;
	int rc = job_set_option(p, js, oi, val);
	p->unset_var[0] = 0;
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


static int parse_text(const char *text, size_t len, const char *file,
		      const char *path, uint64_t capacity,
		      const struct ssd_job_zoned *zi,
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
	int rc = p->file ? job_parser_init(p, capacity, err, errlen) : nomem(p);
	if (zi)
		p->zdev = *zi;
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
	rc = job_finish_file(p);
out:
	job_parser_done(p, rc, jobs, njobs);
	return rc;
}

int ssd_jobfile_parse_string(const char *text, const char *name,
			     uint64_t capacity, struct ssd_job **jobs,
			     int *njobs, char *err, size_t errlen)
{
	return parse_text(text, strlen(text), name, NULL, capacity, NULL, jobs,
			  njobs, err, errlen);
}

int ssd_jobfile_parse_string_zoned(const char *text, const char *name,
				   uint64_t capacity,
				   const struct ssd_job_zoned *zi,
				   struct ssd_job **jobs, int *njobs,
				   char *err, size_t errlen)
{
	return parse_text(text, strlen(text), name, NULL, capacity, zi, jobs,
			  njobs, err, errlen);
}

int ssd_jobfile_parse(const char *path, uint64_t capacity,
		      struct ssd_job **jobs, int *njobs, char *err,
		      size_t errlen)
{
	return ssd_jobfile_parse_zoned(path, capacity, NULL, jobs, njobs, err,
				       errlen);
}

int ssd_jobfile_parse_zoned(const char *path, uint64_t capacity,
			    const struct ssd_job_zoned *zi,
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
				capacity, zi, jobs, njobs, err, errlen);
	free(text);
	return rc;
}

int ssd_job_noeffect(const struct ssd_job *j, const char **names, int max)
{
	int n = 0;
	for (int i = 0; i < job_nopts && i < SSD_JOB_NOEFFECT_WORDS * 64; i++)
		if (j->noeffect[i / 64] >> (i % 64) & 1) {
			if (n < max)
				names[n] = job_opts[i].name;
			n++;
		}
	return n;
}

