/*
 * html_chart.c -- charts as inline SVG (html.h): axes linear or
 * logarithmic, a right-hand axis, lines, dots, impulses, clustered bars
 * and segments, lines and labels over the plot, and a legend.
 *
 * Coordinates are written in a fixed 960 x H viewBox (the figure scales
 * with the page) with one decimal: a series of thousands of points is a
 * single <path>, its dots drawn as zero-length strokes with round caps,
 * so a page of per-second series stays a few hundred kilobytes.
 */
#include "report/html.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define W 960.0
#define PLOT_TOP 16.0
#define PLOT_H 380.0
#define LEFT 78.0

static const char *const palette[] = {"#1f5fbf", "#d95f02", "#1b9e77",
	"#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666",
	"#17becf"};

void ssd_chart_init(struct ssd_chart *c, const char *id, const char *title)
{
	memset(c, 0, sizeof *c);
	snprintf(c->id, sizeof c->id, "%s", id);
	snprintf(c->title, sizeof c->title, "%s", title ? title : "");
	c->x.min = c->x.max = c->y.min = c->y.max = NAN;
	c->y2.min = c->y2.max = NAN;
}

struct ssd_chart_series *ssd_chart_series(struct ssd_chart *c,
					  const char *title, int style)
{
	if (c->nseries == SSD_CHART_MAX_SERIES)
		return NULL;
	struct ssd_chart_series *s = &c->s[c->nseries++];
	memset(s, 0, sizeof *s);
	snprintf(s->title, sizeof s->title, "%s", title ? title : "");
	s->style = style;
	return s;
}

int ssd_chart_point(struct ssd_chart_series *s, double x, double y,
		    double dx, double dy)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		double *nx = realloc(s->x, cap * sizeof *nx);
		if (nx)
			s->x = nx;
		double *ny = nx ? realloc(s->y, cap * sizeof *ny) : NULL;
		if (ny)
			s->y = ny;
		double *ndx = ny ? realloc(s->dx, cap * sizeof *ndx) : NULL;
		if (ndx)
			s->dx = ndx;
		double *ndy = ndx ? realloc(s->dy, cap * sizeof *ndy) : NULL;
		if (!ndy)
			return SSD_ENOMEM;
		s->dy = ndy;
		s->cap = cap;
	}
	s->x[s->n] = x;
	s->y[s->n] = y;
	s->dx[s->n] = dx;
	s->dy[s->n] = dy;
	s->n++;
	return 0;
}

int ssd_chart_label(struct ssd_chart_series *s, double x, double y,
		    const char *text)
{
	char **nt = realloc(s->text, (s->n + 1) * sizeof *nt);
	if (!nt)
		return SSD_ENOMEM;
	s->text = nt;
	if (!(s->text[s->n] = strdup(text)))
		return SSD_ENOMEM;
	if (ssd_chart_point(s, x, y, 0, 0)) {
		free(s->text[s->n]);
		return SSD_ENOMEM;
	}
	return 0;
}

int ssd_chart_cat(struct ssd_chart *c, const char *name)
{
	char **nc = realloc(c->cats, (size_t)(c->ncats + 1) * sizeof *nc);
	if (!nc)
		return SSD_ENOMEM;
	c->cats = nc;
	if (!(c->cats[c->ncats] = strdup(name)))
		return SSD_ENOMEM;
	c->ncats++;
	return 0;
}

void ssd_chart_free(struct ssd_chart *c)
{
	for (int i = 0; i < c->nseries; i++) {
		free(c->s[i].x);
		free(c->s[i].y);
		free(c->s[i].dx);
		free(c->s[i].dy);
		for (size_t k = 0; c->s[i].text && k < c->s[i].n; k++)
			free(c->s[i].text[k]);
		free(c->s[i].text);
	}
	for (int i = 0; i < c->ncats; i++)
		free(c->cats[i]);
	free(c->cats);
	c->nseries = c->ncats = 0;
	c->cats = NULL;
}

/* ---- scales ---- */

/* An axis as drawn: its range and how values map onto it. */
struct scale {
	double lo, hi;          /* in values */
	double base;            /* log base, 0 linear */
	double p0, p1;          /* pixels of lo and hi */
};

static double fwd(const struct scale *s, double v)
{
	return s->base ? log(v) : v;
}

static double px(const struct scale *s, double v)
{
	if (s->base && !(v > 0))
		return NAN;
	double a = fwd(s, s->lo), b = fwd(s, s->hi);
	return s->p0 + (fwd(s, v) - a) / (b - a) * (s->p1 - s->p0);
}

static int usable(const struct scale *s, double v)
{
	return isfinite(v) && (!s->base || v > 0);
}

/* 1, 2 or 5 times a power of ten, about span / 6. */
static double nice_step(double span)
{
	double raw = span / 6, p = pow(10, floor(log10(raw))), m = raw / p;
	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* The range of an axis: given ends, else the data's, widened to whole
 * tics (linear) or powers (log) where they came from the data. */
static void axis_range(const struct ssd_chart_axis *a, double dlo, double dhi,
		       int from_zero, struct scale *s)
{
	s->base = a->base > 1 ? a->base : 0;
	double lo = isfinite(a->min) ? a->min : dlo;
	double hi = isfinite(a->max) ? a->max : dhi;
	if (!isfinite(lo) || !isfinite(hi)) {
		lo = s->base ? 1 : 0;
		hi = s->base ? 10 : 1;
	}
	if (from_zero && !s->base && !isfinite(a->min) && lo > 0)
		lo = 0;
	if (s->base) {
		if (lo <= 0)
			lo = hi > 0 ? hi / 10 : 1;
		if (hi <= lo)
			hi = lo * 10;
		if (!isfinite(a->min))
			lo = pow(s->base, floor(log(lo) / log(s->base) + 1e-9));
		if (!isfinite(a->max))
			hi = pow(s->base, ceil(log(hi) / log(s->base) - 1e-9));
		if (hi <= lo)
			hi = lo * s->base;
	} else {
		if (hi <= lo) {
			double d = lo ? fabs(lo) * 0.1 : 1;
			if (!isfinite(a->min))
				lo -= d;
			if (!isfinite(a->max) || hi <= lo)
				hi = lo + 2 * d;
		}
		double st = nice_step(hi - lo);
		if (!isfinite(a->min))
			lo = floor(lo / st + 1e-9) * st;
		if (!isfinite(a->max))
			hi = ceil(hi / st - 1e-9) * st;
	}
	s->lo = lo;
	s->hi = hi;
}

/* A tic's text: %g, with k, M and G for large numbers. */
static void tic_text(double v, char *buf, size_t n)
{
	double a = fabs(v);
	if (a >= 1e9)
		snprintf(buf, n, "%gG", v / 1e9);
	else if (a >= 1e6)
		snprintf(buf, n, "%gM", v / 1e6);
	else if (a >= 1e4)
		snprintf(buf, n, "%gk", v / 1e3);
	else
		snprintf(buf, n, "%g", fabs(v) < 1e-12 ? 0 : v);
}

/* The tics of an axis: the given ones, or computed; at most 64. */
static int axis_tics(const struct ssd_chart_axis *a, const struct scale *s,
		     double *t, char (*lab)[24])
{
	int n = 0;
	if (a->ntics) {
		for (int i = 0; i < a->ntics && n < 64; i++)
			if (usable(s, a->tic[i]) && a->tic[i] >= s->lo * (1 - 1e-9) &&
			    a->tic[i] <= s->hi * (1 + 1e-9)) {
				t[n] = a->tic[i];
				snprintf(lab[n++], 24, "%s", a->ticlabel[i]);
			}
		return n;
	}
	if (s->base) {
		double k0 = ceil(log(s->lo) / log(s->base) - 1e-9);
		double k1 = floor(log(s->hi) / log(s->base) + 1e-9);
		double every = ceil((k1 - k0 + 1) / 12);
		for (double k = k0; k <= k1 && n < 64; k += every) {
			t[n] = pow(s->base, k);
			tic_text(t[n], lab[n], 24);
			n++;
		}
		return n;
	}
	double st = a->step > 0 ? a->step : nice_step(s->hi - s->lo);
	if ((s->hi - s->lo) / st > 60)
		st = nice_step(s->hi - s->lo);
	for (double v = ceil(s->lo / st - 1e-9) * st; v <= s->hi + st * 1e-9 && n < 64;
	     v += st) {
		t[n] = v;
		tic_text(v, lab[n], 24);
		n++;
	}
	return n;
}

/* ---- drawing ---- */

static const char *color_of(const struct ssd_chart_series *s, int i)
{
	return s->color[0] ? s->color : palette[i % (int)(sizeof palette /
							  sizeof *palette)];
}

static void stroke_attrs(FILE *f, const struct ssd_chart_series *s, int i)
{
	fprintf(f, " fill=\"none\" stroke=\"");
	ssd_html_text(f, color_of(s, i));
	fprintf(f, "\" stroke-width=\"%.1f\"%s", s->width > 0 ? s->width : 1.5,
		s->dashed ? " stroke-dasharray=\"6 4\"" : "");
}

/* The indices of s's points to draw, in order: all of them, or -- more
 * than SSD_CHART_MAX_POINTS -- per pixel column the first, the lowest,
 * the highest and the last, which keeps a line's shape and every
 * outlier. */
static size_t thin(const struct ssd_chart_series *s, const struct scale *sx,
		   size_t *keep)
{
	if (s->n <= SSD_CHART_MAX_POINTS) {
		for (size_t i = 0; i < s->n; i++)
			keep[i] = i;
		return s->n;
	}
	size_t n = 0, first = 0;
	long col = LONG_MIN;
	size_t lo = 0, hi = 0;
	for (size_t i = 0; i <= s->n; i++) {
		long c = i < s->n && isfinite(px(sx, s->x[i]))
			 ? (long)px(sx, s->x[i]) : LONG_MIN + 1;
		if (i == s->n || c != col) {
			if (col != LONG_MIN) {
				size_t cand[4] = {first, lo < hi ? lo : hi,
						  lo < hi ? hi : lo, i - 1};
				for (int k = 0; k < 4; k++)
					if (!n || keep[n - 1] < cand[k])
						keep[n++] = cand[k];
			}
			if (i == s->n)
				break;
			col = c;
			first = lo = hi = i;
			continue;
		}
		if (s->y[i] < s->y[lo])
			lo = i;
		if (s->y[i] > s->y[hi])
			hi = i;
	}
	return n;
}

static size_t draw_series(FILE *f, const struct ssd_chart *c, int i,
			  const struct scale *sx, const struct scale *sy,
			  const struct scale *sy2, size_t *keep)
{
	const struct ssd_chart_series *s = &c->s[i];
	const struct scale *y = s->y2 ? sy2 : sy;
	size_t drawn = 0, nk = thin(s, sx, keep);
	double base = y->base ? y->p0 : px(y, y->lo > 0 ? y->lo : y->hi < 0
					   ? y->hi : 0);
	if (s->style == SSD_CS_BARS) {
		int nb = 0, me = 0;
		for (int k = 0; k < c->nseries; k++)
			if (c->s[k].style == SSD_CS_BARS) {
				if (k == i)
					me = nb;
				nb++;
			}
		/* gnuplot's clusters: bars 1 / (nb + gap) of a category
		 * wide, side by side about its centre */
		double slot = (sx->p1 - sx->p0) / (sx->hi - sx->lo);
		double bw = slot / (nb + (c->gap > 0 ? c->gap : 1));
		fprintf(f, "<g fill=\"");
		ssd_html_text(f, color_of(s, i));
		fprintf(f, "\">");
		for (size_t k = 0; k < nk; k++) {
			size_t j = keep[k];
			if (!usable(sx, s->x[j]) || !usable(y, s->y[j]))
				continue;
			double x0 = px(sx, s->x[j]) - nb * bw / 2 + me * bw;
			double yy = px(y, s->y[j]);
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				"height=\"%.1f\"/>", x0, fmin(yy, base), bw * 0.92,
				fabs(base - yy));
			drawn++;
		}
		fprintf(f, "</g>\n");
		return drawn;
	}
	if (s->style == SSD_CS_LABELS) {
		fputs("<g font-size=\"11\" fill=\"#222\">", f);
		for (size_t k = 0; k < nk; k++) {
			size_t j = keep[k];
			if (!usable(sx, s->x[j]) || !usable(y, s->y[j]))
				continue;
			double X = px(sx, s->x[j]), Y = px(y, s->y[j]) - 4;
			if (s->rotate)
				fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" transform=\""
					"rotate(-90 %.1f %.1f)\" dy=\"4\">", X, Y, X, Y);
			else
				fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" "
					"text-anchor=\"middle\">", X, Y);
			ssd_html_text(f, s->text[j]);
			fputs("</text>", f);
			drawn++;
		}
		fputs("</g>\n", f);
		return drawn;
	}
	int line = s->style == SSD_CS_LINES || s->style == SSD_CS_LINESPOINTS;
	int dots = s->style == SSD_CS_POINTS || s->style == SSD_CS_LINESPOINTS;
	if (line || s->style == SSD_CS_IMPULSES || s->style == SSD_CS_SEGMENTS) {
		fprintf(f, "<path");
		stroke_attrs(f, s, i);
		fprintf(f, " d=\"");
		int pen = 0;
		for (size_t k = 0; k < nk; k++) {
			size_t j = keep[k];
			if (!usable(sx, s->x[j]) || !usable(y, s->y[j])) {
				pen = 0;
				continue;
			}
			double X = px(sx, s->x[j]), Y = px(y, s->y[j]);
			if (s->style == SSD_CS_IMPULSES) {
				fprintf(f, "M%.1f %.1fV%.1f", X, base, Y);
			} else if (s->style == SSD_CS_SEGMENTS) {
				double X2 = px(sx, s->x[j] + s->dx[j]);
				double Y2 = px(y, s->y[j] + s->dy[j]);
				if (!isfinite(X2) || !isfinite(Y2))
					continue;
				fprintf(f, "M%.1f %.1fL%.1f %.1f", X, Y, X2, Y2);
			} else {
				fprintf(f, "%c%.1f %.1f", pen ? 'L' : 'M', X, Y);
			}
			pen = 1;
			drawn++;
		}
		fprintf(f, "\"/>\n");
	}
	if (dots) {
		size_t d = 0;
		fprintf(f, "<path fill=\"none\" stroke=\"");
		ssd_html_text(f, color_of(s, i));
		fprintf(f, "\" stroke-width=\"%.1f\" stroke-linecap=\"round\" d=\"",
			s->dot > 0 ? s->dot : line ? 6.0 : 4.5);
		for (size_t k = 0; k < nk; k++) {
			size_t j = keep[k];
			if (!usable(sx, s->x[j]) || !usable(y, s->y[j]))
				continue;
			fprintf(f, "M%.1f %.1fh0", px(sx, s->x[j]), px(y, s->y[j]));
			d++;
		}
		fprintf(f, "\"/>\n");
		if (!line)
			drawn = d;
	}
	return drawn;
}

/* A note's coordinate in pixels: a fraction of the plot, or a value. */
static double note_px(const struct scale *s, double v, int graph)
{
	return graph ? s->p0 + v * (s->p1 - s->p0) : px(s, v);
}

static void draw_notes(FILE *f, const struct ssd_chart *c,
		       const struct scale *sx, const struct scale *sy)
{
	for (int i = 0; i < c->nnotes; i++) {
		const struct ssd_chart_note *n = &c->note[i];
		double x1 = note_px(sx, n->x1, n->gx1), y1 = note_px(sy, n->y1, n->gy1);
		const char *col = n->color[0] ? n->color : "#333333";
		if (!isfinite(x1) || !isfinite(y1))
			continue;
		if (n->text) {
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"",
				x1 + 4, y1);
			ssd_html_text(f, col);
			fprintf(f, "\">");
			ssd_html_text(f, n->label);
			fprintf(f, "</text>\n");
			continue;
		}
		double x2 = note_px(sx, n->x2, n->gx2), y2 = note_px(sy, n->y2, n->gy2);
		if (!isfinite(x2) || !isfinite(y2))
			continue;
		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1f\" stroke=\"", x1, y1, x2, y2);
		ssd_html_text(f, col);
		fprintf(f, "\" stroke-width=\"1.2\"%s/>\n",
			n->dashed ? " stroke-dasharray=\"5 4\"" : "");
	}
}

/* The data's extent on each axis, for the ranges. */
static void extent(const struct ssd_chart *c, int which, double base,
		   double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (int i = 0; i < c->nseries; i++) {
		const struct ssd_chart_series *s = &c->s[i];
		if (which && (which == 2) != (s->y2 != 0))
			continue;
		for (size_t j = 0; j < s->n; j++) {
			double v[2] = {which ? s->y[j] : s->x[j], NAN};
			if (s->style == SSD_CS_SEGMENTS)
				v[1] = v[0] + (which ? s->dy[j] : s->dx[j]);
			for (int k = 0; k < 2; k++)
				if (isfinite(v[k]) && (!(base > 1) || v[k] > 0)) {
					*lo = fmin(*lo, v[k]);
					*hi = fmax(*hi, v[k]);
				}
		}
	}
}

static void axis_label(FILE *f, double x, double y, int rot, const char *text)
{
	if (!text[0])
		return;
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" "
		"text-anchor=\"middle\"", x, y);
	if (rot)
		fprintf(f, " transform=\"rotate(%d %.1f %.1f)\"", rot, x, y);
	fprintf(f, ">");
	ssd_html_text(f, text);
	fprintf(f, "</text>\n");
}

size_t ssd_chart_svg(FILE *f, const struct ssd_chart *c)
{
	int y2 = 0, bars = c->bars;
	size_t maxn = 1;
	for (int i = 0; i < c->nseries; i++) {
		y2 |= c->s[i].y2;
		maxn = c->s[i].n > maxn ? c->s[i].n : maxn;
		bars |= c->s[i].style == SSD_CS_BARS;
	}
	/* the legend's rows: entries laid out left to right */
	double lx[SSD_CHART_MAX_SERIES], ly[SSD_CHART_MAX_SERIES];
	double right = y2 ? 78 : 24, cx = LEFT, rows = 0;
	for (int i = 0; i < c->nseries; i++) {
		if (!c->s[i].title[0])
			continue;
		double w = 34 + 6.6 * (double)strlen(c->s[i].title);
		if (cx > LEFT && cx + w > W - right) {
			cx = LEFT;
			rows++;
		}
		if (rows == 0 && cx == LEFT)
			rows = 1;
		lx[i] = cx;
		ly[i] = rows;
		cx += w + 14;
	}
	double axis_bottom = PLOT_TOP + PLOT_H;
	double legend_top = axis_bottom + 56;
	double H = rows ? legend_top + (rows - 1) * 20 + 14 : axis_bottom + 50;
	struct scale sx = {.p0 = LEFT, .p1 = W - right};
	struct scale sy = {.p0 = axis_bottom, .p1 = PLOT_TOP}, sy2 = sy;
	double lo, hi;
	if (bars) {
		sx.lo = -0.5;
		sx.hi = c->ncats > 0 ? c->ncats - 0.5 : 0.5;
	} else {
		extent(c, 0, c->x.base, &lo, &hi);
		axis_range(&c->x, lo, hi, 0, &sx);
	}
	extent(c, 1, c->y.base, &lo, &hi);
	axis_range(&c->y, lo, hi, bars, &sy);
	extent(c, 2, c->y2.base, &lo, &hi);
	axis_range(&c->y2, lo, hi, bars, &sy2);

	fputs("<figure class=\"chart\" id=\"", f);
	ssd_html_text(f, c->id);
	fputs("\">\n<figcaption>", f);
	ssd_html_text(f, c->title);
	fprintf(f, "</figcaption>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
		"viewBox=\"0 0 %.0f %.0f\" role=\"img\" font-family=\"sans-serif\" "
		"aria-label=\"", W, H);
	ssd_html_text(f, c->title);
	fputs("\">\n", f);
	/* grid and tics */
	double t[64];
	char lab[64][24];
	int nt = bars ? 0 : axis_tics(&c->x, &sx, t, lab);
	fputs("<g class=\"axes\" stroke=\"#e3e3e3\" stroke-width=\"1\">\n", f);
	for (int i = 0; i < nt; i++)
		fprintf(f, "<path d=\"M%.1f %.1fV%.1f\"/>", px(&sx, t[i]), sy.p0, sy.p1);
	double ty[64];
	char tlab[64][24];
	int nty = axis_tics(&c->y, &sy, ty, tlab);
	for (int i = 0; i < nty; i++)
		fprintf(f, "<path d=\"M%.1f %.1fH%.1f\"/>", sx.p0, px(&sy, ty[i]), sx.p1);
	fprintf(f, "\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		"fill=\"none\" stroke=\"#888\"/>\n</g>\n", sx.p0, sy.p1,
		sx.p1 - sx.p0, sy.p0 - sy.p1);
	fputs("<g class=\"tics\" font-size=\"12\" fill=\"#333\">\n", f);
	for (int i = 0; i < nt; i++) {
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			px(&sx, t[i]), axis_bottom + 16);
		ssd_html_text(f, lab[i]);
		fputs("</text>", f);
	}
	for (int i = 0; bars && i < c->ncats; i++) {
		char cut[40];
		int every = c->ncats > 16 ? (c->ncats + 15) / 16 : 1;
		if (i % every)
			continue;
		snprintf(cut, sizeof cut, "%s", c->cats[i]);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			px(&sx, i), axis_bottom + 16);
		ssd_html_text(f, cut);
		fputs("</text>", f);
	}
	for (int i = 0; i < nty; i++) {
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
			sx.p0 - 5, px(&sy, ty[i]) + 4);
		ssd_html_text(f, tlab[i]);
		fputs("</text>", f);
	}
	if (y2) {
		nty = axis_tics(&c->y2, &sy2, ty, tlab);
		for (int i = 0; i < nty; i++) {
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", sx.p1 + 5,
				px(&sy2, ty[i]) + 4);
			ssd_html_text(f, tlab[i]);
			fputs("</text>", f);
		}
	}
	fputs("\n</g>\n", f);
	axis_label(f, (sx.p0 + sx.p1) / 2, axis_bottom + 38, 0, c->x.label);
	axis_label(f, 18, (sy.p0 + sy.p1) / 2, -90, c->y.label);
	if (y2)
		axis_label(f, W - 14, (sy.p0 + sy.p1) / 2, 90, c->y2.label);
	/* the data, clipped to the plot */
	fprintf(f, "<clipPath id=\"clip-");
	ssd_html_text(f, c->id);
	fprintf(f, "\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>"
		"</clipPath>\n<g class=\"data\" clip-path=\"url(#clip-", sx.p0 - 3,
		sy.p1 - 3, sx.p1 - sx.p0 + 6, sy.p0 - sy.p1 + 6);
	ssd_html_text(f, c->id);
	fputs(")\">\n", f);
	size_t drawn = 0;
	size_t *keep = malloc(maxn * sizeof *keep);
	for (int i = 0; keep && i < c->nseries; i++)
		drawn += draw_series(f, c, i, &sx, &sy, &sy2, keep);
	free(keep);
	fputs("</g>\n<g class=\"notes\">\n", f);
	draw_notes(f, c, &sx, &sy);
	fputs("</g>\n", f);
	/* the legend */
	fputs("<g class=\"legend\" font-size=\"12\">\n", f);
	for (int i = 0; i < c->nseries; i++) {
		const struct ssd_chart_series *s = &c->s[i];
		if (!s->title[0])
			continue;
		double y = legend_top + (ly[i] - 1) * 20;
		if (s->style == SSD_CS_POINTS) {
			/* three dots of the series' colour */
			fprintf(f, "<path d=\"M%.1f %.1fh0M%.1f %.1fh0M%.1f %.1fh0\" "
				"stroke-width=\"5\" stroke-linecap=\"round\" stroke=\"",
				lx[i] + 3, y - 4, lx[i] + 13, y - 4, lx[i] + 23, y - 4);
			ssd_html_text(f, color_of(s, i));
			fputs("\"/>", f);
		} else if (s->style == SSD_CS_BARS) {
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"22\" height=\"10\" "
				"fill=\"", lx[i], y - 9);
			ssd_html_text(f, color_of(s, i));
			fputs("\"/>", f);
		} else {
			fprintf(f, "<path d=\"M%.1f %.1fh26\"", lx[i], y - 4);
			stroke_attrs(f, s, i);
			fputs("/>", f);
		}
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", lx[i] + 32, y);
		ssd_html_text(f, s->title);
		fputs("</text>\n", f);
	}
	fputs("</g>\n</svg>\n", f);
	if (!drawn)
		fputs("<p class=\"empty\">No data to draw in this chart.</p>\n", f);
	fputs("</figure>\n", f);
	return drawn;
}
