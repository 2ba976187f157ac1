/*
 * html_gpdata.c -- the data of a scenario's gnuplot chart (html_gp.h):
 * its CSV files read into rows of cells, and the expressions of its
 * `using` columns evaluated on a row, the small part of gnuplot's
 * expression language the scenarios write.
 */
#include "report/html_gp.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* ---- CSV data ---- */

void ssd_gp_table_free(struct ssd_gp_table *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		for (int c = 0; c < t->ncol[r]; c++)
			free(t->cell[r][c]);
		free(t->cell[r]);
	}
	free(t->cell);
	free(t->ncol);
	memset(t, 0, sizeof *t);
}

/* Split one CSV line into cells ("..." quoting, "" a quote). */
static int split_csv(const char *line, char ***out, int *n)
{
	int cap = 8, k = 0;
	char **cells = malloc((size_t)cap * sizeof *cells);
	size_t len = strlen(line);
	char *buf = malloc(len + 1);
	if (!cells || !buf)
		goto oom;
	const char *p = line;
	for (;;) {
		size_t b = 0;
		if (*p == '"') {
			for (p++; *p; p++) {
				if (*p == '"' && p[1] == '"')
					buf[b++] = '"', p++;
				else if (*p == '"') {
					p++;
					break;
				} else
					buf[b++] = *p;
			}
		}
		while (*p && *p != ',')
			buf[b++] = *p++;
		buf[b] = 0;
		if (k == cap) {
			char **nc = realloc(cells, (size_t)(cap *= 2) * sizeof *cells);
			if (!nc)
				goto oom;
			cells = nc;
		}
		if (!(cells[k++] = strdup(buf)))
			goto oom;
		if (*p != ',')
			break;
		p++;
	}
	free(buf);
	*out = cells;
	*n = k;
	return 0;
oom:
	for (int i = 0; cells && i < k; i++)
		free(cells[i]);
	free(cells);
	free(buf);
	return SSD_ENOMEM;
}

int ssd_gp_table_read(struct ssd_gp_table *t, const char *path, char *err,
		      size_t errlen)
{
	memset(t, 0, sizeof *t);
	snprintf(t->path, sizeof t->path, "%s", path);
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		return SSD_EIO;
	}
	char *line = NULL;
	size_t lcap = 0, cap = 0;
	ssize_t len;
	int rc = 0;
	while ((len = getline(&line, &lcap, f)) >= 0) {
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		if (!len || line[0] == '#')
			continue;
		if (t->nrows == cap) {
			cap = cap ? 2 * cap : 256;
			char ***nc = realloc(t->cell, cap * sizeof *nc);
			int *nn = nc ? realloc(t->ncol, cap * sizeof *nn) : NULL;
			if (nc)
				t->cell = nc;
			if (!nn) {
				rc = SSD_ENOMEM;
				break;
			}
			t->ncol = nn;
		}
		if ((rc = split_csv(line, &t->cell[t->nrows], &t->ncol[t->nrows])))
			break;
		t->nrows++;
	}
	if (!rc && ferror(f)) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		rc = SSD_EIO;
	} else if (rc) {
		snprintf(err, errlen, "out of memory reading '%s'", path);
	}
	free(line);
	fclose(f);
	if (rc)
		ssd_gp_table_free(t);
	return rc;
}

/* ---- expressions of `using` ---- */

static void sp(struct ssd_gp_ev *e)
{
	while (*e->p == ' ' || *e->p == '\t')
		e->p++;
}

static int word(struct ssd_gp_ev *e, const char *w)
{
	size_t n = strlen(w);
	sp(e);
	if (strncmp(e->p, w, n) || isalnum((unsigned char)e->p[n]) || e->p[n] == '_')
		return 0;
	e->p += n;
	return 1;
}

static int sym(struct ssd_gp_ev *e, const char *s)
{
	size_t n = strlen(s);
	sp(e);
	if (strncmp(e->p, s, n))
		return 0;
	e->p += n;
	return 1;
}

/* Column c (1-based; 0 the row's index) as a number: NaN if empty or
 * not a number. */
double ssd_gp_col(const struct ssd_gp_ev *e, long c)
{
	if (c == 0)
		return e->row;
	if (c < 0 || c > e->ncol)
		return NAN;
	const char *s = e->cells[c - 1];
	char *end;
	double v = strtod(s, &end);
	while (*end == ' ')
		end++;
	return end == s || *end ? NAN : v;
}

static struct ssd_gp_val ternary(struct ssd_gp_ev *e);

static struct ssd_gp_val num(double v)
{
	return (struct ssd_gp_val){.v = v};
}

static struct ssd_gp_val primary(struct ssd_gp_ev *e)
{
	sp(e);
	if (*e->p == '(') {
		e->p++;
		struct ssd_gp_val v = ternary(e);
		if (!sym(e, ")"))
			e->bad = 1;
		return v;
	}
	if (*e->p == '$') {
		char *end;
		long c = strtol(e->p + 1, &end, 10);
		if (end == e->p + 1)
			e->bad = 1;
		e->p = end;
		return num(ssd_gp_col(e, c));
	}
	if (*e->p == '\'' || *e->p == '"') {
		char q = *e->p++;
		const char *s = e->p;
		while (*e->p && *e->p != q)
			e->p++;
		struct ssd_gp_val v = {.v = NAN, .s = s, .n = (size_t)(e->p - s)};
		if (*e->p)
			e->p++;
		else
			e->bad = 1;
		return v;
	}
	if (word(e, "NaN"))
		return num(NAN);
	int str = word(e, "strcol");
	if (str || word(e, "column")) {
		if (!sym(e, "(")) {
			e->bad = 1;
			return num(NAN);
		}
		struct ssd_gp_val c = ternary(e);
		if (!sym(e, ")"))
			e->bad = 1;
		long k = (long)c.v;
		if (!str)
			return num(ssd_gp_col(e, k));
		if (k < 1 || k > e->ncol)
			return (struct ssd_gp_val){.v = NAN, .s = "", .n = 0};
		return (struct ssd_gp_val){.v = NAN, .s = e->cells[k - 1],
				    .n = strlen(e->cells[k - 1])};
	}
	if (isdigit((unsigned char)*e->p) || *e->p == '.') {
		char *end;
		double v = strtod(e->p, &end);
		e->p = end;
		return num(v);
	}
	e->bad = 1;
	return num(NAN);
}

static struct ssd_gp_val unary(struct ssd_gp_ev *e)
{
	if (sym(e, "-"))
		return num(-unary(e).v);
	if (sym(e, "+"))
		return unary(e);
	return primary(e);
}

static struct ssd_gp_val mul(struct ssd_gp_ev *e)
{
	struct ssd_gp_val a = unary(e);
	for (;;) {
		if (sym(e, "*"))
			a = num(a.v * unary(e).v);
		else if (sym(e, "/")) {
			double b = unary(e).v;
			/* gnuplot's 1/0 is undefined: the point is left out */
			a = num(b == 0 ? NAN : a.v / b);
		} else
			return a;
	}
}

static struct ssd_gp_val add(struct ssd_gp_ev *e)
{
	struct ssd_gp_val a = mul(e);
	for (;;) {
		if (sym(e, "+"))
			a = num(a.v + mul(e).v);
		else if (sym(e, "-"))
			a = num(a.v - mul(e).v);
		else
			return a;
	}
}

static struct ssd_gp_val cmp(struct ssd_gp_ev *e)
{
	struct ssd_gp_val a = add(e);
	if (word(e, "eq") || word(e, "ne")) {
		int eq = e->p[-2] == 'e';
		struct ssd_gp_val b = add(e);
		int same = a.s && b.s && a.n == b.n && !memcmp(a.s, b.s, a.n);
		return num(eq ? same : !same);
	}
	if (sym(e, ">="))
		return num(a.v >= add(e).v);
	if (sym(e, "<="))
		return num(a.v <= add(e).v);
	if (sym(e, "=="))
		return num(a.v == add(e).v);
	if (sym(e, "!="))
		return num(a.v != add(e).v);
	if (sym(e, ">"))
		return num(a.v > add(e).v);
	if (sym(e, "<"))
		return num(a.v < add(e).v);
	return a;
}

static struct ssd_gp_val ternary(struct ssd_gp_ev *e)
{
	struct ssd_gp_val c = cmp(e);
	if (!sym(e, "?"))
		return c;
	struct ssd_gp_val a = ternary(e);
	if (!sym(e, ":"))
		e->bad = 1;
	struct ssd_gp_val b = ternary(e);
	return c.v != 0 && !isnan(c.v) ? a : b;
}

/* A constant expression ("512/1.3"): NaN if it is not one. */
double ssd_gp_const(const char *s, size_t n)
{
	char buf[128];
	snprintf(buf, sizeof buf, "%.*s", (int)(n < 127 ? n : 127), s);
	struct ssd_gp_ev e = {.p = buf};
	double v = ternary(&e).v;
	sp(&e);
	return e.bad || *e.p ? NAN : v;
}

double ssd_gp_eval(struct ssd_gp_ev *e, const char *expr, int *ok)
{
	e->p = expr;
	e->bad = 0;
	double v = ternary(e).v;
	sp(e);
	*ok = !e->bad && !*e->p;
	return v;
}
