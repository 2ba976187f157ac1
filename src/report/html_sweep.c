/*
 * html_sweep.c -- a sweep's page (html.h): the table that `sweep
 * collect` wrote to DIR/results.jsonl, read back with base/json_read.h,
 * the points counted by status, and for the main figures (WAF, IOPS and
 * p99 latency of a job file's points; a scenario's first figures) a
 * chart against the first numeric axis that varies (sizes in bytes), a
 * line per combination of the other axes, seeds averaged -- or, with no
 * such axis, bars per value of the first axis that varies.
 */
#include "report/html.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The table's rows. */
struct rows {
	struct ssd_jval **v;
	size_t n;
	char **axis;            /* the axes: the keys between id and status */
	size_t naxes;
	char *varies;           /* [axis] 1: not the same at every point */
};

static void rows_free(struct rows *r)
{
	for (size_t i = 0; i < r->n; i++)
		ssd_jread_free(r->v[i]);
	free(r->v);
	free(r->axis);
	free(r->varies);
}

/* Each line of path as a JSON object.  0, or an error in err. */
static int rows_read(const char *path, struct rows *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "cannot read '%s': %s (run 'ssdlab sweep "
			 "collect' first)", path, strerror(errno));
		return SSD_EIO;
	}
	char *line = NULL;
	size_t cap = 0, rcap = 0;
	ssize_t len;
	int rc = 0, lineno = 0;
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (len <= 1)
			continue;
		char jerr[256];
		struct ssd_jval *v = ssd_jread(line, (size_t)len, jerr, sizeof jerr);
		if (!v || v->type != SSD_JOBJ) {
			snprintf(err, errlen, "%s:%d: %s", path, lineno,
				 v ? "not a JSON object" : jerr);
			ssd_jread_free(v);
			rc = SSD_EPARSE;
			break;
		}
		if (r->n == rcap) {
			struct ssd_jval **nv = realloc(r->v, (rcap = rcap ? 2 * rcap
							       : 64) * sizeof *nv);
			if (!nv) {
				ssd_jread_free(v);
				snprintf(err, errlen, "out of memory");
				rc = SSD_ENOMEM;
				break;
			}
			r->v = nv;
		}
		r->v[r->n++] = v;
	}
	if (!rc && ferror(f)) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		rc = SSD_EIO;
	}
	free(line);
	fclose(f);
	if (!rc && !r->n) {
		snprintf(err, errlen, "%s: no points", path);
		rc = SSD_EPARSE;
	}
	/* the axes: after index and id, up to status */
	if (!rc) {
		const struct ssd_jval *o = r->v[0];
		r->axis = calloc(o->n + 1, sizeof *r->axis);
		if (!r->axis) {
			snprintf(err, errlen, "out of memory");
			rc = SSD_ENOMEM;
		}
		for (size_t k = 2; !rc && k < o->n && strcmp(o->k[k], "status"); k++)
			r->axis[r->naxes++] = o->k[k];
	}
	if (rc)
		rows_free(r);
	return rc;
}

static const char *str_of(const struct ssd_jval *o, const char *key)
{
	const struct ssd_jval *v = ssd_jget(o, key);
	return v && (v->type == SSD_JSTR || v->type == SSD_JNUM) ? v->s : NULL;
}

/* A number: a JSON number, or a string that is one (axes are strings)
 * or a size ("4m": bytes). */
static double num_of(const struct ssd_jval *o, const char *key);

/* Whether figure key has two different values among the points. */
static int figure_varies(const struct rows *r, const char *key)
{
	double first = NAN;
	for (size_t i = 0; i < r->n; i++) {
		double v = num_of(r->v[i], key);
		if (isnan(v))
			continue;
		if (isnan(first))
			first = v;
		else if (v != first)
			return 1;
	}
	return 0;
}

static double num_of(const struct ssd_jval *o, const char *key)
{
	const struct ssd_jval *v = ssd_jget(o, key);
	if (!v)
		return NAN;
	if (v->type == SSD_JNUM)
		return v->num;
	double d;
	uint64_t b;
	if (v->type == SSD_JSTR && !ssd_parse_double(v->s, &d))
		return d;
	if (v->type == SSD_JSTR && !ssd_parse_size(v->s, &b))
		return (double)b;
	return NAN;
}

/* The first axis (not seed) with two values or more, all numbers, else
 * the first with two values or more (*cats set: drawn as categories);
 * -1 if none varies. */
static int x_axis(const struct rows *r, int *cats)
{
	*cats = 0;
	for (size_t a = 0; a < r->naxes; a++) {
		if (!strcmp(r->axis[a], "seed"))
			continue;
		int numeric = 1, varies = 0;
		double first = num_of(r->v[0], r->axis[a]);
		for (size_t i = 0; i < r->n && numeric; i++) {
			double v = num_of(r->v[i], r->axis[a]);
			numeric = isfinite(v);
			varies |= v != first;
		}
		if (numeric && varies)
			return (int)a;
	}
	for (size_t a = 0; a < r->naxes; a++)
		if (strcmp(r->axis[a], "seed") && r->varies[a]) {
			*cats = 1;
			return (int)a;
		}
	return -1;
}

/* Point i's series: the values of the axes other than x and seed that
 * vary. */
static void series_key(const struct rows *r, size_t i, int x, char *buf,
		       size_t n)
{
	size_t k = 0;
	buf[0] = 0;
	for (size_t a = 0; a < r->naxes && k < n; a++) {
		if ((int)a == x || !strcmp(r->axis[a], "seed") || !r->varies[a])
			continue;
		const char *v = str_of(r->v[i], r->axis[a]);
		k += (size_t)snprintf(buf + k, n - k, "%s%s=%s", k ? ", " : "",
				      r->axis[a], v ? v : "");
	}
}

static int axis_varies(const struct rows *r, const char *key)
{
	const char *first = str_of(r->v[0], key);
	for (size_t i = 1; i < r->n; i++) {
		const char *v = str_of(r->v[i], key);
		if (!first || !v || strcmp(first, v))
			return 1;
	}
	return 0;
}

/* figure against axis x: per series the mean over the points of each
 * x (the seeds), as a line. */
/* The x of point i: its axis value, or with categories the index of
 * that value among the values in order of first appearance (the
 * categories are added to c as they come). */
static double x_of(const struct rows *r, size_t i, int x, int cats,
		   struct ssd_chart *c)
{
	if (!cats)
		return num_of(r->v[i], r->axis[x]);
	const char *v = str_of(r->v[i], r->axis[x]);
	v = v ? v : "";
	for (int k = 0; k < c->ncats; k++)
		if (!strcmp(c->cats[k], v))
			return k;
	return ssd_chart_cat(c, v) ? NAN : c->ncats - 1;
}

/* A point of a line: x (a number, or a category's index) and y. */
struct xy {
	double x, y;
};

static int by_x(const void *a, const void *b)
{
	double x = ((const struct xy *)a)->x, y = ((const struct xy *)b)->x;
	return (x > y) - (x < y);
}

static void figure_chart(FILE *f, const struct rows *r, int x, int cats,
			 const char *figure, int nth)
{
	struct ssd_chart *c = malloc(sizeof *c);
	if (!c)
		return;
	char id[64], title[300];
	snprintf(id, sizeof id, "chart-sweep-%d", nth);
	snprintf(title, sizeof title, "%s against %s", figure, r->axis[x]);
	ssd_chart_init(c, id, title);
	double d;
	const char *first = str_of(r->v[0], r->axis[x]);
	snprintf(c->x.label, sizeof c->x.label, "%s%s", r->axis[x],
		 !cats && first && ssd_parse_double(first, &d) ? ", bytes" : "");
	snprintf(c->y.label, sizeof c->y.label, "%s", figure);
	c->bars = cats;
	for (size_t i = 0; cats && i < r->n; i++)
		x_of(r, i, x, cats, c);
	char *done = calloc(r->n, 1);
	struct xy *pts = malloc(r->n * sizeof *pts);
	for (size_t i = 0; done && pts && i < r->n; i++) {
		if (done[i])
			continue;
		char key[400], other[400];
		series_key(r, i, x, key, sizeof key);
		/* the axes that vary make the legend; a lone series has none */
		struct ssd_chart_series *s = ssd_chart_series(c, key[0] ? key : figure,
							      cats ? SSD_CS_BARS
							      : SSD_CS_LINESPOINTS);
		if (!s)
			break;
		/* this series' points, gathered, then drawn in the order of x
		 * (a sweep file may list 32m, 64m, 48m: the line must not
		 * zig-zag back) */
		size_t np = 0;
		for (size_t j = i; j < r->n; j++) {
			series_key(r, j, x, other, sizeof other);
			if (done[j] || strcmp(key, other))
				continue;
			double xv = x_of(r, j, x, cats, c), sum = 0;
			int cnt = 0;
			for (size_t k = j; k < r->n; k++) {
				char o2[400];
				series_key(r, k, x, o2, sizeof o2);
				if (done[k] || strcmp(key, o2) ||
				    x_of(r, k, x, cats, c) != xv)
					continue;
				double y = num_of(r->v[k], figure);
				if (isfinite(y))
					sum += y, cnt++;
				done[k] = 1;
			}
			pts[np++] = (struct xy){xv, cnt ? sum / cnt : NAN};
		}
		qsort(pts, np, sizeof *pts, by_x);
		for (size_t j = 0; j < np; j++)
			ssd_chart_point(s, pts[j].x, pts[j].y, 0, 0);
	}
	free(done);
	free(pts);
	ssd_chart_svg(f, c);
	ssd_chart_free(c);
	free(c);
}

int ssd_html_sweep(FILE *f, const char *dir, char *err, size_t errlen)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/results.jsonl", dir);
	struct rows r;
	int rc = rows_read(path, &r, err, errlen);
	if (rc)
		return rc;
	if (!(r.varies = calloc(r.naxes + 1, 1))) {
		rows_free(&r);
		snprintf(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	for (size_t a = 0; a < r.naxes; a++)
		r.varies[a] = (char)axis_varies(&r, r.axis[a]);
	char title[4200];
	snprintf(title, sizeof title, "Sweep %s", dir);
	ssd_html_begin(f, title, "A row per point, as ssdlab sweep collect wrote "
		       "them to results.jsonl.");
	ssd_html_h2(f, "Points");
	size_t done = 0, failed = 0, missing = 0;
	for (size_t i = 0; i < r.n; i++) {
		const char *st = str_of(r.v[i], "status");
		done += st && !strcmp(st, "done");
		failed += st && !strcmp(st, "failed");
		missing += st && !strcmp(st, "missing");
	}
	ssd_html_kv_begin(f, NULL);
	ssd_html_kv_num(f, "points", (double)r.n);
	ssd_html_kv_num(f, "done", (double)done);
	ssd_html_kv_num(f, "failed", (double)failed);
	ssd_html_kv_num(f, "missing", (double)missing);
	char axes[1024];
	size_t k = 0;
	axes[0] = 0;
	for (size_t a = 0; a < r.naxes && k < sizeof axes; a++)
		k += (size_t)snprintf(axes + k, sizeof axes - k, "%s%s", a ? ", " : "",
				      r.axis[a]);
	ssd_html_kv(f, "axes", axes);
	ssd_html_kv_end(f);
	int cats;
	int x = x_axis(&r, &cats);
	ssd_html_h2(f, "Charts");
	if (x < 0) {
		ssd_html_p(f, "No axis varies but the seed: no chart; the table "
			   "has every figure.");
	} else {
		static const char *const main[] = {"waf", "write.iops", "read.iops",
						   "write.clat_p99_ns", NULL};
		int n = 0;
		for (int m = 0; main[m]; m++) {
			int any = 0;
			for (size_t i = 0; i < r.n; i++) {
				double v = num_of(r.v[i], main[m]);
				any |= isfinite(v) && v != 0;
			}
			if (any)
				figure_chart(f, &r, x, cats, main[m], n++);
		}
		/* a scenario's points: its first two numeric figures that
		 * are not the same at every point (a constant -- the drive's
		 * units, a size the scenario was given -- says nothing) */
		const struct ssd_jval *o = r.v[0];
		int mains = n;
		for (size_t m = 2 + r.naxes + 2; !mains && m < o->n && n < 2; m++)
			if (o->v[m]->type == SSD_JNUM && figure_varies(&r, o->k[m]))
				figure_chart(f, &r, x, cats, o->k[m], n++);
	}
	ssd_html_h2(f, "Table");
	struct ssd_jval arr = {.type = SSD_JARR, .n = r.n, .v = r.v};
	ssd_html_json(f, &arr, NULL);
	ssd_html_end(f);
	rows_free(&r);
	return 0;
}
