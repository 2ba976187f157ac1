/*
 * html_gp.c -- a scenario's gnuplot chart read into a chart of html.h.
 *
 * The scenarios describe each chart once, as the body of a gnuplot
 * script over their CSV files (methods/scenario.h, ssd_scn_plot).  The
 * HTML page draws the same charts without gnuplot by reading that body:
 * the small part of gnuplot's language the scenarios use, listed at
 * ssd_chart_from_gnuplot.  What it does not know and that would change
 * what is drawn is an error, never a chart drawn wrong in silence:
 * tests/cli/html_report.sh runs every scenario and its page must hold
 * every chart.
 */
#include "report/html.h"
#include "report/html_gp.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* ---- the script ---- */

struct gp {
	struct ssd_chart *c;
	const char *dir;
	int hist;               /* set style data histograms */
	char *err;
	size_t errlen;
};

static int gp_err(struct gp *g, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int gp_err(struct gp *g, int rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(g->err, g->errlen, fmt, ap);
	va_end(ap);
	return rc;
}

/* The text of the quoted string at *p ('' a quote in '...', \ escapes
 * in "...") into buf; *p moves past it.  0 if *p is not at one. */
static int quoted(const char **p, char *buf, size_t n)
{
	const char *s = *p;
	while (*s == ' ')
		s++;
	if (*s != '\'' && *s != '"')
		return 0;
	char q = *s++;
	size_t k = 0;
	for (; *s; s++) {
		if (q == '\'' && *s == '\'' && s[1] == '\'')
			s++;
		else if (q == '"' && *s == '\\' && s[1])
			s++;
		else if (*s == q)
			break;
		if (k + 1 < n)
			buf[k++] = *s;
	}
	buf[k] = 0;
	*p = *s ? s + 1 : s;
	return 1;
}

/* The next word or token of a clause: a quoted string, a (...) group or
 * a run of other characters, into buf.  0 at the end. */
static int token(const char **p, char *buf, size_t n)
{
	const char *s = *p;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return 0;
	const char *b = s;
	int depth = 0;
	char q = 0;
	for (; *s; s++) {
		if (q) {
			if (*s == q)
				q = 0;
			continue;
		}
		if (*s == '\'' || *s == '"')
			q = *s;
		else if (*s == '(' || *s == '[')
			depth++;
		else if (*s == ')' || *s == ']')
			depth--;
		else if ((*s == ' ' || *s == '\t') && depth <= 0)
			break;
	}
	snprintf(buf, n, "%.*s", (int)(s - b), b);
	*p = s;
	return 1;
}

/* The parts of `list` split at top-level `sep` (outside quotes and
 * brackets): their starts and lengths; the count. */
static int split_top(const char *list, char sep, const char **part,
		     size_t *len, int max)
{
	int n = 0, depth = 0;
	char q = 0;
	const char *b = list;
	for (const char *s = list;; s++) {
		if (q && *s) {
			if (*s == q)
				q = 0;
			continue;
		}
		if (*s == '\'' || *s == '"') {
			q = *s;
			continue;
		}
		if (*s == '(' || *s == '[')
			depth++;
		else if (*s == ')' || *s == ']')
			depth--;
		if (!*s || (*s == sep && depth == 0)) {
			if (n < max) {
				part[n] = b;
				len[n] = (size_t)(s - b);
				n++;
			}
			b = s + 1;
		}
		if (!*s)
			break;
	}
	return n;
}

static void color_name(const char *name, char *out, size_t n)
{
	static const char *const named[][2] = {
		{"red", "#cc0000"}, {"black", "#000000"}, {"gray40", "#666666"},
		{"gray", "#888888"}, {"grey", "#888888"}, {"blue", "#1f5fbf"},
		{"green", "#1b9e77"}, {"orange", "#d95f02"}};
	if (name[0] == '#' && strlen(name) == 7 &&
	    strspn(name + 1, "0123456789abcdefABCDEF") == 6) {
		snprintf(out, n, "%s", name);
		return;
	}
	out[0] = 0;
	for (size_t i = 0; i < sizeof named / sizeof *named; i++)
		if (!strcmp(named[i][0], name))
			snprintf(out, n, "%s", named[i][1]);
}

/* "set xlabel 'text'" and its kin. */
static void set_label(const char *rest, char *dst, size_t n)
{
	if (!quoted(&rest, dst, n))
		dst[0] = 0;
}

static struct ssd_chart_axis *axis_named(struct ssd_chart *c, const char *w,
					 size_t n)
{
	if (n == 1 && w[0] == 'x')
		return &c->x;
	if (n == 1 && w[0] == 'y')
		return &c->y;
	if (n == 2 && !strncmp(w, "y2", 2))
		return &c->y2;
	return NULL;
}

/* "[lo:hi]", either end "*" or empty for the data's. */
static int set_range(struct gp *g, struct ssd_chart_axis *a, const char *rest)
{
	while (*rest == ' ')
		rest++;
	const char *e = strchr(rest, ']');
	const char *colon = strchr(rest, ':');
	if (*rest != '[' || !e || !colon || colon > e)
		return gp_err(g, SSD_EPARSE, "a range that is not [lo:hi]: '%s'", rest);
	const char *lo = rest + 1;
	size_t nlo = (size_t)(colon - lo), nhi = (size_t)(e - colon - 1);
	a->min = nlo && strncmp(lo, "*", nlo) ? ssd_gp_const(lo, nlo) : NAN;
	a->max = nhi && strncmp(colon + 1, "*", nhi) ? ssd_gp_const(colon + 1, nhi) : NAN;
	return 0;
}

/* "set xtics (...)" (labels and values) or "set xtics STEP". */
static int set_tics(struct gp *g, struct ssd_chart_axis *a, const char *rest)
{
	while (*rest == ' ')
		rest++;
	if (*rest != '(') {
		char *end;
		double st = strtod(rest, &end);
		if (end != rest && st > 0)
			a->step = st;
		return 0; /* nomirror, and the like: how, not what */
	}
	const char *close = strrchr(rest, ')');
	if (!close)
		return gp_err(g, SSD_EPARSE, "tics without a ')': '%s'", rest);
	char list[1024];
	snprintf(list, sizeof list, "%.*s", (int)(close - rest - 1), rest + 1);
	const char *part[SSD_CHART_MAX_TICS];
	size_t len[SSD_CHART_MAX_TICS];
	int n = split_top(list, ',', part, len, SSD_CHART_MAX_TICS);
	a->ntics = 0;
	for (int i = 0; i < n; i++) {
		char item[128], lab[24];
		snprintf(item, sizeof item, "%.*s", (int)len[i], part[i]);
		const char *p = item;
		int has = quoted(&p, lab, sizeof lab);
		double v = ssd_gp_const(p, strlen(p));
		if (!isfinite(v))
			return gp_err(g, SSD_EPARSE, "a tic that is not a number: '%s'", item);
		a->tic[a->ntics] = v;
		if (has)
			snprintf(a->ticlabel[a->ntics], 24, "%s", lab);
		else
			snprintf(a->ticlabel[a->ntics], 24, "%g", v);
		a->ntics++;
	}
	return 0;
}

/* A coordinate of an arrow or a label: "[graph|first] NUMBER". */
static const char *coord(const char *p, double *v, int *graph)
{
	while (*p == ' ' || *p == ',')
		p++;
	*graph = 0;
	if (!strncmp(p, "graph ", 6))
		*graph = 1, p += 6;
	else if (!strncmp(p, "first ", 6))
		p += 6;
	char *end;
	*v = strtod(p, &end);
	if (end == p)
		*v = NAN;
	return end;
}

/* The color of "lc rgb 'c'" or "tc rgb 'c'" in s, if any. */
static void rgb_in(const char *s, char *out, size_t n)
{
	const char *r = strstr(s, "rgb ");
	char name[32];
	out[0] = 0;
	if (r && quoted(&(const char *){r + 4}, name, sizeof name))
		color_name(name, out, n);
}

static int set_arrow(struct gp *g, const char *rest, int text)
{
	struct ssd_chart *c = g->c;
	if (c->nnotes == SSD_CHART_MAX_NOTES)
		return 0; /* more notes than a chart shows */
	struct ssd_chart_note *n = &c->note[c->nnotes];
	memset(n, 0, sizeof *n);
	n->text = text;
	while (*rest == ' ' || isdigit((unsigned char)*rest))
		rest++; /* its number */
	if (text) {
		const char *p = rest;
		if (!quoted(&p, n->label, sizeof n->label))
			return gp_err(g, SSD_EPARSE, "a label without its text: '%s'", rest);
		const char *at = strstr(p, " at ");
		if (!at)
			return 0; /* a label placed otherwise: left out */
		p = coord(at + 4, &n->x1, &n->gx1);
		coord(p, &n->y1, &n->gy1);
	} else {
		const char *from = strstr(rest, "from "), *to = strstr(rest, " to ");
		if (!from || !to)
			return 0; /* an arrow given otherwise: left out */
		const char *p = coord(from + 5, &n->x1, &n->gx1);
		coord(p, &n->y1, &n->gy1);
		p = coord(to + 4, &n->x2, &n->gx2);
		coord(p, &n->y2, &n->gy2);
		n->dashed = strstr(rest, " dt ") != NULL;
	}
	rgb_in(rest, n->color, sizeof n->color);
	c->nnotes++;
	return 0;
}

/* ---- plot ---- */

/* One clause of `plot`. */
struct clause {
	char file[256];
	int skip;
	char using[640];
	int y2, dashed, style, labels, rotate;
	double width;
	double ps;              /* point size, gnuplot's (0: unset) */
	char color[32];
	char title[160];
};

static int parse_clause(struct gp *g, const char *s, struct clause *k,
			const char *prev_file)
{
	char tok[640];
	memset(k, 0, sizeof *k);
	k->style = g->hist ? SSD_CS_BARS : SSD_CS_POINTS;
	const char *p = s;
	if (!quoted(&p, k->file, sizeof k->file))
		return gp_err(g, SSD_EPARSE, "a plot of something other than a "
			      "data file: '%s'", s);
	if (!k->file[0])
		snprintf(k->file, sizeof k->file, "%s", prev_file);
	while (token(&p, tok, sizeof tok)) {
		char arg[640];
		if (!strcmp(tok, "notitle"))
			continue;
		if (!strcmp(tok, "nohead") || !strcmp(tok, "left") ||
		    !strcmp(tok, "rotate") || !strcmp(tok, "by"))
			continue;
		if (!token(&p, arg, sizeof arg))
			return gp_err(g, SSD_EPARSE, "'%s' without its value in "
				      "'%s'", tok, s);
		if (!strcmp(tok, "skip"))
			k->skip = atoi(arg);
		else if (!strcmp(tok, "using") || !strcmp(tok, "u"))
			snprintf(k->using, sizeof k->using, "%s", arg);
		else if (!strcmp(tok, "axes"))
			k->y2 = !strcmp(arg, "x1y2");
		else if (!strcmp(tok, "with") || !strcmp(tok, "w")) {
			static const struct { const char *n; int st; } styles[] = {
				{"lines", SSD_CS_LINES}, {"l", SSD_CS_LINES},
				{"points", SSD_CS_POINTS}, {"p", SSD_CS_POINTS},
				{"linespoints", SSD_CS_LINESPOINTS},
				{"lp", SSD_CS_LINESPOINTS},
				{"impulses", SSD_CS_IMPULSES},
				{"boxes", SSD_CS_BARS}, {"vectors", SSD_CS_SEGMENTS}};
			k->style = -1;
			for (size_t i = 0; i < sizeof styles / sizeof *styles; i++)
				if (!strcmp(styles[i].n, arg))
					k->style = styles[i].st;
			if (!strcmp(arg, "labels")) {
				/* value labels: the rest of the clause says
				 * how they look (rotate by, offset, font) */
				k->labels = 1;
				k->style = SSD_CS_LABELS;
				k->rotate = strstr(p, "rotate") != NULL;
				break;
			}
			if (k->style < 0)
				return gp_err(g, SSD_EPARSE, "plot style '%s' is not "
					      "one the page draws", arg);
		} else if (!strcmp(tok, "lw") || !strcmp(tok, "linewidth"))
			k->width = atof(arg);
		else if (!strcmp(tok, "dt"))
			k->dashed = atoi(arg) > 1;
		else if (!strcmp(tok, "lc") || !strcmp(tok, "tc")) {
			if (!strcmp(arg, "rgb")) {
				char name[40];
				const char *q = p;
				if (quoted(&q, name, sizeof name)) {
					color_name(name, k->color, sizeof k->color);
					p = q;
				}
			}
		} else if (!strcmp(tok, "title") || !strcmp(tok, "t")) {
			const char *q = arg;
			if (!quoted(&q, k->title, sizeof k->title))
				return gp_err(g, SSD_EPARSE, "a title that is not "
					      "quoted text: '%s'", arg);
		} else if (!strcmp(tok, "offset")) {
			/* "offset 0,0.8" of labels */
		} else if (!strcmp(tok, "ps") || !strcmp(tok, "pointsize")) {
			k->ps = atof(arg);
		} else if (!strcmp(tok, "font") || !strcmp(tok, "pt")) {
			/* how, not what */
		} else {
			return gp_err(g, SSD_EPARSE, "'%s' in a plot clause is not "
				      "one the page reads: '%s'", tok, s);
		}
	}
	if (!k->using[0])
		snprintf(k->using, sizeof k->using, g->hist ? "1" : "1:2");
	return 0;
}

/* A label's text, "(sprintf('%.Nf', EXPR))" (f, g or e, an optional
 * precision): the precision and conversion, and EXPR into expr.  0, or
 * -1 for any other form (a format is never passed on as such). */
static int label_format(const char *s, size_t n, int *prec, char *conv,
			char *expr, size_t en)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%.*s", (int)n, s);
	const char *p = buf;
	if (strncmp(p, "(sprintf(", 9))
		return -1;
	p += 9;
	char fmt[32];
	if (!quoted(&p, fmt, sizeof fmt))
		return -1;
	const char *f = fmt;
	if (*f++ != '%')
		return -1;
	*prec = -1;
	if (*f == '.') {
		char *end;
		long v = strtol(f + 1, &end, 10);
		if (end == f + 1 || v < 0 || v > 12)
			return -1;
		*prec = (int)v;
		f = end;
	}
	if (!strchr("fge", *f) || !*f || f[1])
		return -1;
	*conv = *f;
	while (*p == ' ')
		p++;
	if (*p++ != ',')
		return -1;
	size_t len = strlen(p);
	if (len < 2 || strcmp(p + len - 2, "))"))
		return -1;
	snprintf(expr, en, "(%.*s)", (int)(len - 2), p);
	return 0;
}

/* A part of `using`: a column number, ($N ...) an expression, xtic(N). */
struct upart {
	const char *s;
	size_t n;
	int xtic;               /* xtic(N): its column */
};

static int clause_points(struct gp *g, const struct clause *k,
			 struct ssd_gp_table *t)
{
	struct ssd_chart *c = g->c;
	const char *part[6];
	size_t len[6];
	int np = split_top(k->using, ':', part, len, 6);
	struct upart u[6];
	int nu = 0, xtic = 0;
	for (int i = 0; i < np; i++) {
		if (len[i] > 5 && !strncmp(part[i], "xtic(", 5)) {
			xtic = atoi(part[i] + 5);
			if (xtic < 1)
				return gp_err(g, SSD_EPARSE, "xtic of no column: '%s'",
					      k->using);
			continue;
		}
		u[nu++] = (struct upart){part[i], len[i], 0};
	}
	int bars = k->style == SSD_CS_BARS;
	int need = k->style == SSD_CS_SEGMENTS ? 4 : k->labels ? 3
		 : bars && g->hist ? 1 : 2;
	int prec = -1;
	char conv = 'g', lexpr[256];
	if (k->labels && (nu != 3 || label_format(u[2].s, u[2].n, &prec, &conv,
						  lexpr, sizeof lexpr)))
		return gp_err(g, SSD_EPARSE, "labels whose text is not "
			      "sprintf('%%.Nf', value): using '%s'", k->using);
	if (k->labels)
		u[2] = (struct upart){lexpr, strlen(lexpr), 0};
	if (nu != need && !(bars && nu == 2))
		return gp_err(g, SSD_EPARSE, "using '%s' has %d values, the %s "
			      "style %d", k->using, nu, bars ? "bars" : "plot",
			      need);
	struct ssd_chart_series *s = ssd_chart_series(c, k->title, k->style);
	if (!s)
		return gp_err(g, SSD_EPARSE, "more than %d series in one chart",
			      SSD_CHART_MAX_SERIES);
	s->y2 = k->y2;
	s->rotate = k->rotate;
	s->dashed = k->dashed;
	s->width = k->width;
	/* gnuplot's point size 1 is about 6 pixels across at this scale;
	 * a dot stays at least 2.5 */
	s->dot = k->ps > 0 ? fmax(2.5, 6 * k->ps) : 0;
	snprintf(s->color, sizeof s->color, "%s", k->color);
	if (bars)
		c->bars = 1;
	int first_bars = bars && !c->ncats;
	double idx = 0;
	for (size_t r = (size_t)k->skip; r < t->nrows; r++, idx++) {
		struct ssd_gp_ev e = {.cells = t->cell[r], .ncol = t->ncol[r], .row = idx};
		double v[4] = {NAN, NAN, 0, 0};
		int skip_row = 0;
		for (int i = 0; i < nu; i++) {
			char expr[256];
			snprintf(expr, sizeof expr, "%.*s", (int)u[i].n, u[i].s);
			if (expr[0] == '(') {
				int ok;
				v[i] = ssd_gp_eval(&e, expr, &ok);
				if (!ok)
					return gp_err(g, SSD_EPARSE, "an expression the "
						      "page cannot read in using "
						      "'%s'", k->using);
			} else {
				char *end;
				long col = strtol(expr, &end, 10);
				if (*end || end == expr)
					return gp_err(g, SSD_EPARSE, "a column that is "
						      "not a number in using '%s'",
						      k->using);
				v[i] = ssd_gp_col(&e, col);
				/* a line whose column is not a number (a
				 * header) is not data, as in gnuplot */
				if (isnan(v[i]) && col > 0 && col <= e.ncol &&
				    e.cells[col - 1][0])
					skip_row = 1;
			}
		}
		if (skip_row)
			continue;
		double x, y;
		if (bars && nu == 1) {
			x = idx;
			y = v[0];
		} else {
			x = v[0];
			y = v[1];
		}
		if (first_bars && xtic) {
			const char *name = xtic <= e.ncol ? e.cells[xtic - 1] : "";
			if (ssd_chart_cat(c, name))
				return gp_err(g, SSD_ENOMEM, "out of memory");
		}
		if (k->labels) {
			char text[48];
			if (conv == 'f')
				snprintf(text, sizeof text, "%.*f", prec < 0 ? 6 : prec, v[2]);
			else if (conv == 'e')
				snprintf(text, sizeof text, "%.*e", prec < 0 ? 6 : prec, v[2]);
			else
				snprintf(text, sizeof text, "%.*g", prec < 0 ? 6 : prec, v[2]);
			if (isfinite(v[2]) && ssd_chart_label(s, x, y, text))
				return gp_err(g, SSD_ENOMEM, "out of memory");
			continue;
		}
		if (ssd_chart_point(s, x, y, v[2], v[3]))
			return gp_err(g, SSD_ENOMEM, "out of memory");
	}
	if (bars && !c->ncats)
		for (size_t i = 0; i < s->n; i++) {
			char name[32];
			snprintf(name, sizeof name, "%g", s->x[i]);
			if (ssd_chart_cat(c, name))
				return gp_err(g, SSD_ENOMEM, "out of memory");
		}
	return 0;
}

static int plot(struct gp *g, const char *rest)
{
	const char *part[SSD_CHART_MAX_SERIES * 2];
	size_t len[SSD_CHART_MAX_SERIES * 2];
	int n0 = split_top(rest, ',', part, len, SSD_CHART_MAX_SERIES * 2);
	/* every clause starts with its quoted file: a part that does not
	 * is the rest of the one before ("offset 0,0.8") */
	int n = 0;
	for (int i = 0; i < n0; i++) {
		const char *q = part[i] + strspn(part[i], " \t");
		if (n && *q != '\'' && *q != '"')
			len[n - 1] = (size_t)(part[i] + len[i] - part[n - 1]);
		else
			part[n] = part[i], len[n++] = len[i];
	}
	char prev[256] = "";
	struct ssd_gp_table t = {0};
	int rc = 0;
	for (int i = 0; i < n && !rc; i++) {
		char s[1024];
		struct clause k;
		snprintf(s, sizeof s, "%.*s", (int)len[i], part[i]);
		if ((rc = parse_clause(g, s, &k, prev)))
			break;
		snprintf(prev, sizeof prev, "%s", k.file);
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", g->dir, k.file);
		if (strcmp(t.path, path)) {
			ssd_gp_table_free(&t);
			if ((rc = ssd_gp_table_read(&t, path, g->err, g->errlen)))
				break;
		}
		rc = clause_points(g, &k, &t);
	}
	ssd_gp_table_free(&t);
	return rc;
}

static int command(struct gp *g, const char *line)
{
	struct ssd_chart *c = g->c;
	const char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!strncmp(p, "plot ", 5))
		return plot(g, p + 5);
	if (strncmp(p, "set ", 4))
		return 0; /* comments, if, unset: nothing drawn */
	p += 4;
	while (*p == ' ')
		p++;
	const char *w = p;
	size_t wn = strcspn(p, " ");
	const char *rest = p + wn;
	if (wn > 5 && !strncmp(w + wn - 5, "label", 5) && wn <= 7) {
		struct ssd_chart_axis *a = axis_named(c, w, wn - 5);
		if (a)
			set_label(rest, a->label, sizeof a->label);
		return 0;
	}
	if (wn > 5 && !strncmp(w + wn - 5, "range", 5)) {
		struct ssd_chart_axis *a = axis_named(c, w, wn - 5);
		return a ? set_range(g, a, rest) : 0;
	}
	if (wn > 4 && !strncmp(w + wn - 4, "tics", 4)) {
		struct ssd_chart_axis *a = axis_named(c, w, wn - 4);
		return a ? set_tics(g, a, rest) : 0;
	}
	if (wn == 8 && !strncmp(w, "logscale", 8)) {
		const char *q = rest;
		while (*q == ' ')
			q++;
		size_t an = strcspn(q, " ");
		double base = atof(q + an);
		if (!(base > 1))
			base = 10;
		if (!strncmp(q, "xy", an) && an == 2) {
			c->x.base = c->y.base = base;
			return 0;
		}
		struct ssd_chart_axis *a = axis_named(c, q, an);
		if (!a)
			return gp_err(g, SSD_EPARSE, "a log scale on '%.*s'", (int)an, q);
		a->base = base;
		return 0;
	}
	if (wn == 5 && !strncmp(w, "style", 5)) {
		if (strstr(rest, "data histograms"))
			g->hist = 1;
		const char *gap = strstr(rest, "histogram clustered gap ");
		if (gap)
			c->gap = atof(gap + 24);
		return 0;
	}
	if (wn == 5 && !strncmp(w, "arrow", 5))
		return set_arrow(g, rest, 0);
	if (wn == 5 && !strncmp(w, "label", 5))
		return set_arrow(g, rest, 1);
	return 0; /* grid, key, format, boxwidth, ...: how, not what */
}

int ssd_chart_from_gnuplot(struct ssd_chart *c, const char *dir,
			   const char *body, char *err, size_t errlen)
{
	struct gp g = {.c = c, .dir = dir, .err = err, .errlen = errlen};
	size_t n = strlen(body);
	char *line = malloc(n + 1);
	if (!line) {
		snprintf(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	int rc = 0, plotted = 0;
	const char *s = body;
	while (*s && !rc) {
		/* a logical line: lines ending in a backslash go on */
		size_t k = 0;
		for (;;) {
			const char *nl = strchr(s, '\n');
			size_t len = nl ? (size_t)(nl - s) : strlen(s);
			size_t e = len;
			while (e > 0 && (s[e - 1] == ' ' || s[e - 1] == '\r'))
				e--;
			int more = e > 0 && s[e - 1] == '\\';
			memcpy(line + k, s, more ? e - 1 : len);
			k += more ? e - 1 : len;
			s += len + (nl != NULL);
			if (!more || !*s)
				break;
		}
		line[k] = 0;
		const char *t = line + strspn(line, " \t");
		plotted |= !strncmp(t, "plot ", 5);
		rc = command(&g, line);
	}
	free(line);
	if (!rc && !plotted)
		rc = gp_err(&g, SSD_EPARSE, "no plot command");
	if (rc)
		ssd_chart_free(c);
	return rc;
}
