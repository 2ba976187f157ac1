/*
 * util.c -- error names, the random generator and the shared value parsers.
 */
#include "util.h"

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
	}
	return "unknown error";
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
	size_t la = strlen(a), lb = strlen(b);
	if (la >= 64 || lb >= 64)
		return 99;
	int row[64];
	for (size_t j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int diag = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int up = row[j];
			int best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
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

int ssd_parse_u64(const char *s, uint64_t *out)
{
	if (!*s || !isdigit((unsigned char)*s))
		return SSD_EPARSE;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (*end)
		return SSD_EPARSE;
	if (errno == ERANGE)
		return SSD_ERANGE;
	*out = v;
	return 0;
}

/* Split "12.5KiB" into a number and a suffix.  The number part accepts
 * digits and one decimal point only (no signs, no exponents). */
static int split_number(const char *s, double *num, const char **suffix)
{
	const char *p = s;
	int digits = 0, dots = 0;
	while (isdigit((unsigned char)*p) || *p == '.') {
		if (*p == '.')
			dots++;
		else
			digits++;
		p++;
	}
	if (!digits || dots > 1)
		return SSD_EPARSE;
	char buf[64];
	size_t n = (size_t)(p - s);
	if (n >= sizeof buf)
		return SSD_ERANGE;
	memcpy(buf, s, n);
	buf[n] = 0;
	*num = strtod(buf, NULL);
	*suffix = p;
	return 0;
}

int ssd_parse_size(const char *s, uint64_t *out)
{
	double num;
	const char *suf;
	int rc = split_number(s, &num, &suf);
	if (rc)
		return rc;
	double mult;
	switch (tolower((unsigned char)*suf)) {
	case 0: mult = 1; break;
	case 'b': mult = 1; break;
	case 'k': mult = 0x1p10; break;
	case 'm': mult = 0x1p20; break;
	case 'g': mult = 0x1p30; break;
	case 't': mult = 0x1p40; break;
	case 'p': mult = 0x1p50; break;
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
	double v = num * mult;
	if (v >= 0x1p64)
		return SSD_ERANGE;
	if (v != floor(v))
		return SSD_EPARSE; /* not a whole number of bytes */
	*out = (uint64_t)v;
	return 0;
}

int ssd_parse_time(const char *s, int64_t bare_unit, int64_t *out)
{
	double num;
	const char *suf;
	int rc = split_number(s, &num, &suf);
	if (rc)
		return rc;
	double unit;
	if (!*suf)
		unit = (double)bare_unit;
	else if (!strcasecmp(suf, "ns"))
		unit = 1;
	else if (!strcasecmp(suf, "us") || !strcasecmp(suf, "usec"))
		unit = 1e3;
	else if (!strcasecmp(suf, "ms") || !strcasecmp(suf, "msec"))
		unit = 1e6;
	else if (!strcasecmp(suf, "s") || !strcasecmp(suf, "sec"))
		unit = 1e9;
	else if (!strcasecmp(suf, "m") || !strcasecmp(suf, "min"))
		unit = 60e9;
	else if (!strcasecmp(suf, "h"))
		unit = 3600e9;
	else if (!strcasecmp(suf, "d"))
		unit = 86400e9;
	else
		return SSD_EPARSE;
	double v = num * unit;
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

static void oom(void)
{
	fputs("ssdlab: out of memory\n", stderr);
	exit(1);
}

void *ssd_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

void *ssd_xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		oom();
	return p;
}

char *ssd_xstrdup(const char *s)
{
	char *p = strdup(s);
	if (!p)
		oom();
	return p;
}
