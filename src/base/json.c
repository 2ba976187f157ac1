/*
 * json.c -- the JSON writer of json.h: layout, string escaping and
 * locale-independent numbers.
 *
 * Every value goes through begin_value(), which writes what separates it
 * from what came before: nothing after a key or for the document itself,
 * else "," (if not the container's first member) and a newline with the
 * indentation of the member's depth, or ", " inside a flat container.
 * The column of depth d is column + 2*d; a closing bracket goes to its
 * container's column, column + 2*(d-1).
 *
 * Numbers: printf's %f/%g write the decimal point of the LC_NUMERIC
 * locale; ssd_json_format() puts '.' back where the locale wrote its own
 * (which may be several bytes long).  %f/%g write no thousands grouping
 * without the ' flag, so the decimal point is the only locale-dependent
 * part.
 */
#include "base/json.h"

#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define NO_FLAT (SSD_JSON_DEPTH + 1)

/* ---- numbers ---- */

/* Replace the locale's decimal point, if it is not ".", by ".". */
static void c_decimal_point(char *buf)
{
	const struct lconv *lc = localeconv();
	const char *dp = lc ? lc->decimal_point : NULL;
	if (!dp || !*dp || (dp[0] == '.' && !dp[1]))
		return;
	char *p = strstr(buf, dp);
	if (!p)
		return;
	size_t dl = strlen(dp);
	*p = '.';
	memmove(p + 1, p + dl, strlen(p + dl) + 1);
}

const char *ssd_json_format(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	c_decimal_point(buf);
	return buf;
}

/* ---- strings ---- */

/* Length of the valid UTF-8 sequence at p, or 0. */
static int utf8_len(const unsigned char *p)
{
	unsigned c = p[0];
	int n;
	unsigned min;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		min = 0x10000;
	} else {
		return 0;
	}
	unsigned cp = c & (0x7fu >> n);
	for (int i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3fu);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void ssd_json_str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	putc('"', out);
	while (*p) {
		unsigned c = *p;
		if (c == '"' || c == '\\') {
			putc('\\', out);
			putc((int)c, out);
			p++;
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(out, "\\u%04x", c);
			p++;
		} else if (c < 0x80) {
			putc((int)c, out);
			p++;
		} else {
			int n = utf8_len(p);
			if (n) {
				fwrite(p, 1, (size_t)n, out);
				p += n;
			} else {
				fputs("\\ufffd", out); /* not UTF-8 */
				p++;
			}
		}
	}
	putc('"', out);
}

/* ---- layout ---- */

void ssd_json_init(struct ssd_json *w, FILE *out, int column, unsigned flags)
{
	memset(w, 0, sizeof *w);
	w->out = out;
	w->column = column < 0 ? 0 : column;
	w->flags = flags;
	w->flat = column < 0 ? 1 : NO_FLAT;
	w->first[0] = 1;
}

static int level(const struct ssd_json *w)
{
	return w->depth < SSD_JSON_DEPTH ? w->depth : SSD_JSON_DEPTH;
}

static void indent(const struct ssd_json *w, int depth)
{
	fprintf(w->out, "%*s", w->column + 2 * depth, "");
}

/* Before a key or a value: the separator and indentation, if any. */
static void begin_value(struct ssd_json *w)
{
	if (w->after_key) {
		w->after_key = 0;
		return;
	}
	int d = level(w);
	if (!w->depth) {
		w->first[0] = 0;
		return;
	}
	if (w->depth >= w->flat) {
		if (!w->first[d])
			fputs(", ", w->out);
	} else {
		fputs(w->first[d] ? "\n" : ",\n", w->out);
		indent(w, d);
	}
	w->first[d] = 0;
}

static void open_container(struct ssd_json *w, char open_c, char close_c,
			   int flat)
{
	begin_value(w);
	putc(open_c, w->out);
	w->depth++;
	int d = level(w);
	w->first[d] = 1;
	w->close[d] = close_c;
	if (flat && w->flat > w->depth)
		w->flat = w->depth;
}

void ssd_json_object(struct ssd_json *w)
{
	open_container(w, '{', '}', 0);
}

void ssd_json_array(struct ssd_json *w)
{
	open_container(w, '[', ']', 0);
}

void ssd_json_object_flat(struct ssd_json *w)
{
	open_container(w, '{', '}', 1);
}

void ssd_json_array_flat(struct ssd_json *w)
{
	open_container(w, '[', ']', 1);
}

void ssd_json_end(struct ssd_json *w)
{
	if (!w->depth)
		return;
	int d = level(w);
	if (w->depth < w->flat) {
		if (w->first[d] && (w->flags & SSD_JSON_FIO))
			putc('\n', w->out);
		putc('\n', w->out);
		indent(w, d - 1);
	}
	putc(w->close[d], w->out);
	if (w->depth == w->flat)
		w->flat = NO_FLAT;
	w->depth--;
}

void ssd_json_key(struct ssd_json *w, const char *key)
{
	begin_value(w);
	ssd_json_str(w->out, key);
	fputs(" : ", w->out);
	w->after_key = 1;
}

/* ---- values ---- */

void ssd_json_string(struct ssd_json *w, const char *s)
{
	begin_value(w);
	ssd_json_str(w->out, s);
}

void ssd_json_u64(struct ssd_json *w, uint64_t v)
{
	begin_value(w);
	fprintf(w->out, "%" PRIu64, v);
}

void ssd_json_i64(struct ssd_json *w, int64_t v)
{
	begin_value(w);
	fprintf(w->out, "%" PRId64, v);
}

void ssd_json_bool(struct ssd_json *w, int v)
{
	begin_value(w);
	fputs(v ? "true" : "false", w->out);
}

void ssd_json_null(struct ssd_json *w)
{
	begin_value(w);
	fputs("null", w->out);
}

void ssd_json_raw(struct ssd_json *w, const char *number)
{
	begin_value(w);
	fputs(number, w->out);
}

void ssd_json_fixed(struct ssd_json *w, double v, int prec)
{
	char buf[400]; /* %f of DBL_MAX: 309 digits */
	if (!isfinite(v)) {
		ssd_json_null(w);
		return;
	}
	ssd_json_raw(w, ssd_json_format(buf, sizeof buf, "%.*f", prec, v));
}

void ssd_json_general(struct ssd_json *w, double v, int prec)
{
	char buf[64];
	if (!isfinite(v)) {
		ssd_json_null(w);
		return;
	}
	if (prec > 0) {
		snprintf(buf, sizeof buf, "%.*g", prec, v);
	} else {
		/* in the locale's own syntax, which strtod reads back */
		for (prec = 1; prec <= 17; prec++) {
			snprintf(buf, sizeof buf, "%.*g", prec, v);
			if (strtod(buf, NULL) == v)
				break;
		}
	}
	c_decimal_point(buf);
	ssd_json_raw(w, buf);
}

/* ---- members ---- */

void ssd_json_kstring(struct ssd_json *w, const char *key, const char *s)
{
	ssd_json_key(w, key);
	ssd_json_string(w, s);
}

void ssd_json_ku64(struct ssd_json *w, const char *key, uint64_t v)
{
	ssd_json_key(w, key);
	ssd_json_u64(w, v);
}

void ssd_json_ki64(struct ssd_json *w, const char *key, int64_t v)
{
	ssd_json_key(w, key);
	ssd_json_i64(w, v);
}

void ssd_json_kbool(struct ssd_json *w, const char *key, int v)
{
	ssd_json_key(w, key);
	ssd_json_bool(w, v);
}

void ssd_json_kfixed(struct ssd_json *w, const char *key, double v, int prec)
{
	ssd_json_key(w, key);
	ssd_json_fixed(w, v, prec);
}

void ssd_json_kgeneral(struct ssd_json *w, const char *key, double v,
		       int prec)
{
	ssd_json_key(w, key);
	ssd_json_general(w, v, prec);
}

void ssd_json_kobject(struct ssd_json *w, const char *key)
{
	ssd_json_key(w, key);
	ssd_json_object(w);
}

void ssd_json_karray(struct ssd_json *w, const char *key)
{
	ssd_json_key(w, key);
	ssd_json_array(w);
}
