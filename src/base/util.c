/*
 * util.c -- error names, the random generator and the shared value parsers.
 */
#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *ssd_strerror(int code)
{
	switch (code) {
	case SSD_OK: return "success";
	case SSD_EINVAL: return "invalid argument";
	case SSD_ENOMEM: return "out of memory";
	case SSD_EIO: return "input/output error";
	case SSD_ERANGE: return "value out of range";
	case SSD_ENOSPC: return "no free block";
	case SSD_EROFS: return "drive is read-only";
	case SSD_EPARSE: return "malformed input";
	case SSD_ENOENT: return "not found";
	case SSD_EUNSUP: return "not supported";
	case SSD_ESTATE: return "flash rule or invariant violated";
	case SSD_EILSEQ: return "data verification failed";
	case SSD_ETIMEDOUT: return "max latency exceeded";
	case SSD_EPENDING: return "queued in the drive";
	case SSD_ZNS_EFIELD:
		return "Invalid Field in Command: not a zone start, an empty "
		       "or too long command, or no such action";
	case SSD_FDP_EPID:
		return "Invalid Field in Command: the placement identifier names "
		       "no reclaim unit handle";
	case SSD_ZNS_EZONEOP:
		return "Invalid Zone Operation Request: Zone Append to a zone "
		       "with a random write area, or a ZRWA flush of a zone "
		       "without one";
	case SSD_ZNS_ENOZRWA:
		return "ZRWA Resources Unavailable: every zone random write "
		       "area is held by another zone";
	case SSD_ZNS_ERANGE:
		return "LBA Out of Range: the command reaches past the "
		       "namespace's last LBA";
	case SSD_ZNS_EBOUNDARY:
		return "Zone Boundary Error: the command crosses the zone's "
		       "capacity (a write) or its end (a read)";
	case SSD_ZNS_EFULL:
		return "Zone Is Full: reset the zone to write it again";
	case SSD_ZNS_EREADONLY:
		return "Zone Is Read Only: the zone can only be read or taken "
		       "offline";
	case SSD_ZNS_EOFFLINE:
		return "Zone Is Offline: the zone can be neither read nor "
		       "written";
	case SSD_ZNS_EWRITE:
		return "Zone Invalid Write: a write must start at the zone's "
		       "write pointer";
	case SSD_ZNS_EMAXACTIVE:
		return "Too Many Active Zones: finish or reset an active "
		       "zone first";
	case SSD_ZNS_EMAXOPEN:
		return "Too Many Open Zones: every open resource is held by an "
		       "explicitly opened zone";
	case SSD_ZNS_ETRANSITION:
		return "Invalid Zone State Transition: the action does not "
		       "apply to the zone's state";
	}
	return "unknown error";
}

const char *ssd_errno_text(int e)
{
	const char *t = strerrordesc_np(e); /* glibc's table, untranslated */
	return t ? t : "Unknown error";
}

uint64_t ssd_mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

void ssd_rng_seed(struct ssd_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++) {
		seed += 0x9e3779b97f4a7c15ULL;
		r->s[i] = ssd_mix64(seed);
	}
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t ssd_rng_next(struct ssd_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t ssd_rng_below(struct ssd_rng *r, uint64_t n)
{
	/* Lemire: multiply into 128 bits, reject the small biased sliver. */
	unsigned __int128 m = (unsigned __int128)ssd_rng_next(r) * n;
	uint64_t lo = (uint64_t)m;
	if (lo < n) {
		uint64_t thresh = -n % n;
		while (lo < thresh) {
			m = (unsigned __int128)ssd_rng_next(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

double ssd_rng_unit(struct ssd_rng *r)
{
	return (double)(ssd_rng_next(r) >> 11) * 0x1.0p-53;
}

void *ssd_grow(void *p, uint32_t *cap, size_t size, uint32_t first)
{
	uint32_t c = *cap ? *cap : first;
	if (*cap) {
		if (*cap > UINT32_MAX / 2)
			return NULL;
		c = *cap * 2;
	}
	if (!c || (size && c > SIZE_MAX / size))
		return NULL;
	void *q = realloc(p, (size_t)c * size);
	if (q)
		*cap = c;
	return q;
}

char *ssd_strtrim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	return s;
}

void ssd_seterr(char *err, size_t errlen, const char *fmt, ...)
{
	if (!err || !errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

int ssd_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int ssd_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double ssd_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof v[0], ssd_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int ssd_edit_distance(const char *a, const char *b)
{
	/* optimal string alignment: insertions, deletions, substitutions
	 * and swaps of two neighbours ("iodpeth") cost 1 each */
	size_t la = strlen(a), lb = strlen(b);
	if (la >= 64 || lb >= 64)
		return 99;
	int d[65][65];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

int ssd_parse_double(const char *s, double *out)
{
	if (!*s || isspace((unsigned char)*s))
		return SSD_EPARSE;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end)
		return SSD_EPARSE;
	if (errno == ERANGE || !isfinite(v))
		return SSD_ERANGE;
	*out = v;
	return 0;
}

/* A number as written in a drive file, job file or on the command line:
 * decimal digits with at most one '.', or (when hex_ok) "0x" and hex
 * digits.  fio reads integers the same way (str_to_decimal: base 16 after
 * 0x, else base 10), so a leading 0 is a decimal digit, never an octal
 * prefix: 010 is ten.  A number without a '.' is kept exact in n->whole
 * (n->is_int); one with a '.' is in n->num.  *suffix is left at the first
 * character after the number.  SSD_EPARSE if no number starts s,
 * SSD_ERANGE if its whole part does not fit 64 bits. */
struct number {
	int is_int;
	uint64_t whole;
	double num;
};

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch = tolower(ch);
	return ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

static int split_number(const char *s, int hex_ok, struct number *n,
			const char **suffix)
{
	const char *p = s;
	int digits = 0, dots = 0, big = 0;
	n->is_int = 1;
	n->whole = 0;
	n->num = 0;
	if (hex_ok && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		if (hexval((unsigned char)*p) < 0)
			return SSD_EPARSE;
		for (int d; (d = hexval((unsigned char)*p)) >= 0; p++) {
			if (n->whole > (UINT64_MAX >> 4))
				return SSD_ERANGE;
			n->whole = n->whole << 4 | (uint64_t)d;
		}
		n->num = (double)n->whole;
		*suffix = p;
		return 0;
	}
	for (; isdigit((unsigned char)*p) || *p == '.'; p++) {
		if (*p == '.') {
			dots++;
			continue;
		}
		digits++;
		uint64_t d = (uint64_t)(*p - '0');
		if (dots || big)
			continue;
		if (n->whole > (UINT64_MAX - d) / 10)
			big = 1;
		else
			n->whole = n->whole * 10 + d;
	}
	if (!digits || dots > 1)
		return SSD_EPARSE;
	if (dots) {
		char buf[64];
		size_t len = (size_t)(p - s);
		if (len >= sizeof buf)
			return SSD_ERANGE;
		memcpy(buf, s, len);
		buf[len] = 0;
		n->is_int = 0;
		n->num = strtod(buf, NULL);
	} else if (big) {
		return SSD_ERANGE;
	} else {
		n->num = (double)n->whole;
	}
	*suffix = p;
	return 0;
}

int ssd_parse_u64(const char *s, uint64_t *out)
{
	struct number n;
	const char *end;
	int rc = split_number(s, 1, &n, &end);
	if (rc)
		return rc;
	if (!n.is_int || *end)
		return SSD_EPARSE;
	*out = n.whole;
	return 0;
}

int ssd_parse_size(const char *s, uint64_t *out)
{
	struct number n;
	const char *suf;
	int rc = split_number(s, 1, &n, &suf);
	if (rc)
		return rc;
	int shift;
	switch (tolower((unsigned char)*suf)) {
	case 0: shift = 0; break;
	case 'b': shift = 0; break;
	case 'k': shift = 10; break;
	case 'm': shift = 20; break;
	case 'g': shift = 30; break;
	case 't': shift = 40; break;
	case 'p': shift = 50; break;
	default: return SSD_EPARSE;
	}
	if (*suf) {
		const char *rest = suf + 1;
		if (tolower((unsigned char)*suf) == 'b') {
			if (*rest)
				return SSD_EPARSE;
		} else if (*rest && strcasecmp(rest, "b") && strcasecmp(rest, "ib")) {
			return SSD_EPARSE;
		}
	}
	if (n.is_int) {
		/* exact, however large: 2^53 + 1 stays itself */
		if (n.whole > (UINT64_MAX >> shift))
			return SSD_ERANGE;
		*out = n.whole << shift;
		return 0;
	}
	double v = ldexp(n.num, shift);
	if (v >= 0x1p64)
		return SSD_ERANGE;
	if (v != floor(v))
		return SSD_EPARSE; /* not a whole number of bytes */
	*out = (uint64_t)v;
	return 0;
}

/* The multiplier of a size suffix as fio reads it under `kb_base` (1024
 * or 1000): k, m, g, t, p, alone or with "b", are powers of kb_base;
 * with "ib" (KiB, MiB, ...) they are powers of the other base -- fio's
 * compatibility rule: under the default 1024, 1KiB is 1000 bytes and 1k is
 * 1024; under 1000 the standard meanings.  "ki" is "k" (fio compares the
 * first letter, or all three of "kib").  "b" alone is bytes.  0 if the
 * suffix is not one of these. */
static int size_suffix(const char *suf, unsigned kb_base, int *pow,
		       unsigned *base)
{
	static const char letters[] = "kmgtp";
	*pow = 0;
	*base = kb_base;
	if (!*suf)
		return 1;
	int c = tolower((unsigned char)*suf);
	if (c == 'b')
		return suf[1] == 0;
	const char *l = strchr(letters, c);
	if (!l || !c)
		return 0;
	*pow = (int)(l - letters) + 1;
	const char *rest = suf + 1;
	if (!*rest || !strcasecmp(rest, "b") || !strcasecmp(rest, "i"))
		return 1;
	if (!strcasecmp(rest, "ib")) {
		*base = kb_base == 1000 ? 1024 : 1000;
		return 1;
	}
	return 0;
}

int ssd_parse_size_kb(const char *s, unsigned kb_base, uint64_t *out)
{
	struct number n;
	const char *suf;
	int rc = split_number(s, 1, &n, &suf);
	if (rc)
		return rc;
	int pow;
	unsigned base;
	if (!size_suffix(suf, kb_base, &pow, &base))
		return SSD_EPARSE;
	uint64_t mult = 1;
	for (int i = 0; i < pow; i++)
		mult *= base;
	if (n.is_int) {
		/* exact, however large: 2^53 + 1 stays itself */
		if (n.whole > UINT64_MAX / mult)
			return SSD_ERANGE;
		*out = n.whole * mult;
		return 0;
	}
	double v = n.num * (double)mult;
	if (v >= 0x1p64)
		return SSD_ERANGE;
	if (v != floor(v))
		return SSD_EPARSE; /* not a whole number of bytes */
	*out = (uint64_t)v;
	return 0;
}

int ssd_parse_time(const char *s, int64_t bare_unit, int64_t *out)
{
	struct number n;
	const char *suf;
	int rc = split_number(s, 0, &n, &suf);
	if (rc)
		return rc;
	int64_t unit;
	if (!*suf)
		unit = bare_unit;
	else if (!strcasecmp(suf, "ns"))
		unit = 1;
	else if (!strcasecmp(suf, "us") || !strcasecmp(suf, "usec"))
		unit = SSD_US;
	else if (!strcasecmp(suf, "ms") || !strcasecmp(suf, "msec"))
		unit = SSD_MS;
	else if (!strcasecmp(suf, "s") || !strcasecmp(suf, "sec"))
		unit = SSD_S;
	else if (!strcasecmp(suf, "m") || !strcasecmp(suf, "min"))
		unit = 60 * SSD_S;
	else if (!strcasecmp(suf, "h"))
		unit = 3600 * SSD_S;
	else if (!strcasecmp(suf, "d"))
		unit = 86400 * SSD_S;
	else
		return SSD_EPARSE;
	if (unit < 1)
		return SSD_EPARSE;
	if (n.is_int) {
		if (n.whole > (uint64_t)(INT64_MAX / unit))
			return SSD_ERANGE;
		*out = (int64_t)n.whole * unit;
		return 0;
	}
	double v = n.num * (double)unit;
	if (v >= 0x1p63)
		return SSD_ERANGE;
	*out = (int64_t)llround(v);
	return 0;
}

int ssd_parse_bool(const char *s, int *out)
{
	static const char *yes[] = {"1", "true", "yes", "on"};
	static const char *no[] = {"0", "false", "no", "off"};
	for (int i = 0; i < 4; i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = 1;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = 0;
			return 0;
		}
	}
	return SSD_EPARSE;
}

char *ssd_fmt_bytes(uint64_t v, char *buf, size_t n)
{
	static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	int u = 0;
	double d = (double)v;
	while (d >= 1024 && u < 5) {
		d /= 1024;
		u++;
	}
	if (d == floor(d))
		snprintf(buf, n, "%.0f %s", d, units[u]);
	else
		snprintf(buf, n, "%.2f %s", d, units[u]);
	return buf;
}

int ssd_plausible_typo(const char *key, int dist)
{
	size_t n = strlen(key);
	if (n < 4 || dist < 0)
		return 0;
	int limit = (int)(n / 4);
	if (limit < 1)
		limit = 1;
	if (limit > 3)
		limit = 3;
	return dist <= limit;
}
