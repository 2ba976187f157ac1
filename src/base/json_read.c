/*
 * json_read.c -- the JSON reader (json_read.h): recursive descent over
 * the text, one value at a time.
 */
#include "base/json_read.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rd {
	const char *p, *end, *start;
	char *err;
	size_t errlen;
	int failed;
};

static struct ssd_jval *fail(struct rd *r, const char *what)
{
	if (!r->failed) {
		int line = 1, col = 1;
		for (const char *q = r->start; q < r->p && q < r->end; q++) {
			if (*q == '\n') {
				line++;
				col = 1;
			} else {
				col++;
			}
		}
		if (r->err)
			snprintf(r->err, r->errlen, "line %d, column %d: %s",
				 line, col, what);
		r->failed = 1;
	}
	return NULL;
}

static void skip_ws(struct rd *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' ||
				 *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

static struct ssd_jval *node(struct rd *r, int type)
{
	struct ssd_jval *v = calloc(1, sizeof *v);
	if (!v)
		return fail(r, "out of memory");
	v->type = type;
	return v;
}

static int hex4(const char *s, unsigned *out)
{
	unsigned x = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];
		x <<= 4;
		if (c >= '0' && c <= '9')
			x |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			x |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			x |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = x;
	return 0;
}

static size_t utf8(unsigned cp, char *o)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	o[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A string at r->p (its opening quote), unescaped into a new buffer. */
static char *string(struct rd *r)
{
	const char *q = ++r->p;
	size_t cap = 0;
	while (q < r->end && *q != '"') {
		if (*q == '\\')
			q++;
		q++;
		cap++;
	}
	char *s = malloc(4 * cap + 1), *o = s;
	if (!s) {
		fail(r, "out of memory");
		return NULL;
	}
	while (r->p < r->end && *r->p != '"') {
		unsigned char c = (unsigned char)*r->p;
		if (c < 0x20) {
			free(s);
			fail(r, "a control character in a string");
			return NULL;
		}
		if (c != '\\') {
			*o++ = (char)c;
			r->p++;
			continue;
		}
		if (++r->p >= r->end)
			break;
		char e = *r->p++;
		switch (e) {
		case '"': case '\\': case '/': *o++ = e; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u': {
			unsigned cp, lo;
			if (r->end - r->p < 4 || hex4(r->p, &cp)) {
				free(s);
				fail(r, "a bad \\u escape");
				return NULL;
			}
			r->p += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && r->end - r->p >= 6 &&
			    r->p[0] == '\\' && r->p[1] == 'u' &&
			    !hex4(r->p + 2, &lo) && lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				r->p += 6;
			} else if (cp >= 0xd800 && cp < 0xe000) {
				cp = 0xfffd; /* a lone surrogate */
			}
			o += utf8(cp, o);
			break;
		}
		default:
			free(s);
			r->p--;
			fail(r, "an unknown escape in a string");
			return NULL;
		}
	}
	if (r->p >= r->end) {
		free(s);
		fail(r, "a string without its closing quote");
		return NULL;
	}
	r->p++;
	*o = 0;
	return s;
}

static struct ssd_jval *value(struct rd *r, int depth);

/* Append v (and key k) to container c. */
static int push(struct rd *r, struct ssd_jval *c, char *k, struct ssd_jval *v)
{
	if ((c->n & (c->n - 1)) == 0) { /* 0, 1, 2, 4...: grow */
		size_t cap = c->n ? 2 * c->n : 1;
		struct ssd_jval **nv = realloc(c->v, cap * sizeof *nv);
		if (nv)
			c->v = nv;
		char **nk = c->type == SSD_JOBJ && nv
			? realloc(c->k, cap * sizeof *nk) : NULL;
		if (nk)
			c->k = nk;
		if (!nv || (c->type == SSD_JOBJ && !nk)) {
			fail(r, "out of memory");
			return -1;
		}
	}
	c->v[c->n] = v;
	if (c->type == SSD_JOBJ)
		c->k[c->n] = k;
	c->n++;
	return 0;
}

static struct ssd_jval *container(struct rd *r, int depth, int obj)
{
	if (depth >= SSD_JREAD_DEPTH)
		return fail(r, "nested too deep");
	struct ssd_jval *c = node(r, obj ? SSD_JOBJ : SSD_JARR);
	if (!c)
		return NULL;
	r->p++;
	skip_ws(r);
	if (r->p < r->end && *r->p == (obj ? '}' : ']')) {
		r->p++;
		return c;
	}
	for (;;) {
		char *k = NULL;
		skip_ws(r);
		if (obj) {
			if (r->p >= r->end || *r->p != '"') {
				ssd_jread_free(c);
				return fail(r, "expected a member's name");
			}
			if (!(k = string(r))) {
				ssd_jread_free(c);
				return NULL;
			}
			skip_ws(r);
			if (r->p >= r->end || *r->p != ':') {
				free(k);
				ssd_jread_free(c);
				return fail(r, "expected ':'");
			}
			r->p++;
		}
		struct ssd_jval *v = value(r, depth + 1);
		if (!v || push(r, c, k, v)) {
			free(k);
			ssd_jread_free(v);
			ssd_jread_free(c);
			return NULL;
		}
		skip_ws(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == (obj ? '}' : ']')) {
			r->p++;
			return c;
		}
		ssd_jread_free(c);
		return fail(r, obj ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static struct ssd_jval *number(struct rd *r)
{
	const char *s = r->p;
	if (r->p < r->end && *r->p == '-')
		r->p++;
	if (r->p >= r->end || *r->p < '0' || *r->p > '9')
		return fail(r, "not a value");
	if (*r->p == '0')
		r->p++;
	else
		while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
			r->p++;
	if (r->p < r->end && *r->p == '.') {
		r->p++;
		if (r->p >= r->end || *r->p < '0' || *r->p > '9')
			return fail(r, "a number without digits after '.'");
		while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
			r->p++;
	}
	if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
		r->p++;
		if (r->p < r->end && (*r->p == '+' || *r->p == '-'))
			r->p++;
		if (r->p >= r->end || *r->p < '0' || *r->p > '9')
			return fail(r, "a number without an exponent");
		while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
			r->p++;
	}
	struct ssd_jval *v = node(r, SSD_JNUM);
	if (!v)
		return NULL;
	size_t n = (size_t)(r->p - s);
	if (!(v->s = malloc(n + 1))) {
		free(v);
		return fail(r, "out of memory");
	}
	memcpy(v->s, s, n);
	v->s[n] = 0;
	v->num = strtod(v->s, NULL); /* our outputs write '.' whatever the
	                                locale; so does the C locale here */
	return v;
}

static int word(struct rd *r, const char *w)
{
	size_t n = strlen(w);
	if ((size_t)(r->end - r->p) < n || memcmp(r->p, w, n))
		return 0;
	r->p += n;
	return 1;
}

static struct ssd_jval *value(struct rd *r, int depth)
{
	skip_ws(r);
	if (r->p >= r->end)
		return fail(r, "expected a value, found the end");
	struct ssd_jval *v;
	switch (*r->p) {
	case '{': return container(r, depth, 1);
	case '[': return container(r, depth, 0);
	case '"':
		if (!(v = node(r, SSD_JSTR)))
			return NULL;
		if (!(v->s = string(r))) {
			free(v);
			return NULL;
		}
		return v;
	case 't': case 'f': case 'n':
		if (word(r, "true") || word(r, "false")) {
			if ((v = node(r, SSD_JBOOL)))
				v->b = r->p[-1] == 'e' && r->p[-2] == 'u';
			return v;
		}
		if (word(r, "null"))
			return node(r, SSD_JNULL);
		return fail(r, "not a value");
	default:
		return number(r);
	}
}

struct ssd_jval *ssd_jread(const char *text, size_t len, char *err,
			   size_t errlen)
{
	struct rd r = {.p = text, .end = text + len, .start = text,
		       .err = err, .errlen = errlen};
	struct ssd_jval *v = value(&r, 0);
	skip_ws(&r);
	if (v && r.p < r.end) {
		ssd_jread_free(v);
		return fail(&r, "text after the value");
	}
	return v;
}

struct ssd_jval *ssd_jread_file(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	char *buf = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (n == cap) {
			size_t nc = cap ? 2 * cap : 65536;
			char *nb = realloc(buf, nc);
			if (!nb) {
				free(buf);
				fclose(f);
				snprintf(err, errlen, "%s: out of memory", path);
				return NULL;
			}
			buf = nb;
			cap = nc;
		}
		size_t k = fread(buf + n, 1, cap - n, f);
		n += k;
		if (k == 0)
			break;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		snprintf(err, errlen, "%s: read error", path);
		return NULL;
	}
	char msg[200];
	struct ssd_jval *v = ssd_jread(buf, n, msg, sizeof msg);
	free(buf);
	if (!v)
		snprintf(err, errlen, "%s: %s", path, msg);
	return v;
}

void ssd_jread_free(struct ssd_jval *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++) {
		ssd_jread_free(v->v[i]);
		if (v->k)
			free(v->k[i]);
	}
	free(v->v);
	free(v->k);
	free(v->s);
	free(v);
}

const struct ssd_jval *ssd_jget(const struct ssd_jval *o, const char *key)
{
	if (!o || o->type != SSD_JOBJ)
		return NULL;
	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->k[i], key))
			return o->v[i];
	return NULL;
}

const struct ssd_jval *ssd_jpath(const struct ssd_jval *o, const char *path)
{
	char part[128];
	while (o && *path) {
		size_t n = strcspn(path, ".");
		if (n >= sizeof part)
			return NULL;
		memcpy(part, path, n);
		part[n] = 0;
		if (o->type == SSD_JARR) {
			char *e;
			unsigned long i = strtoul(part, &e, 10);
			o = *part && !*e && i < o->n ? o->v[i] : NULL;
		} else {
			o = ssd_jget(o, part);
		}
		path += n + (path[n] == '.');
	}
	return o;
}
