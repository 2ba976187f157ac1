/*
 * html.h -- one self-contained HTML page of results: a run's, a
 * scenario's or a sweep's (docs/report.md).
 *
 * The page reads without a network connection: its CSS is inline, its
 * charts are inline SVG written here, in C, from the figures the page
 * shows, and its one small script only checks, once the browser has
 * laid the page out, that every chart drew something, and says so in an
 * attribute of the body (data-charts-rendered="N", N the charts with a
 * non-empty drawing, beside data-charts="M", the charts written).
 *
 * Why SVG from C rather than a script drawing from embedded JSON: the
 * page then is the same bytes for the same results (the test compares
 * nothing the browser computes), it shows its charts with scripts off
 * and in any viewer that renders SVG, and the drawing code is tested by
 * the unit tests with the rest of the writer.  The cost is a larger
 * page; a series of more than SSD_CHART_MAX_POINTS points is thinned
 * to the first, last, lowest and highest of each pixel column.
 *
 * Text goes into the page through ssd_html_text only (& < > " ' escaped),
 * numbers through ssd_html_num (%.6g; "-" for what is not finite).
 * Every writer writes to a stdio stream; a failed stream is the caller's
 * to see (ferror), as in report.h.
 *
 * Files: html.c the page, its tables and the drive; html_run.c a run
 * of a job file; html_sweep.c a sweep's table; html_chart.c the SVG
 * charts; html_gp.c reads the gnuplot scripts the scenarios draw their
 * charts with (the subset they use) into charts, html_gpdata.c the CSV
 * files and `using` expressions they plot (html_gp.h).
 */
#ifndef SSD_HTML_H
#define SSD_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "base/config.h"
#include "base/json_read.h"
#include "result/result.h"

/* ---- text ---- */

/* s with &, <, >, " and ' escaped (as an element's text or an
 * attribute's value in double quotes).  NULL writes nothing. */
void ssd_html_text(FILE *f, const char *s);
/* The first n bytes of s, escaped. */
void ssd_html_textn(FILE *f, const char *s, size_t n);
/* v as %.6g; "-" for NaN and infinities. */
void ssd_html_num(FILE *f, double v);

/* ---- the page ---- */

/* <!DOCTYPE html> up to the opening of the body, with the inline style
 * and `title` as the page's title and first heading; `subtitle` (NULL:
 * none) a line under it. */
void ssd_html_begin(FILE *f, const char *title, const char *subtitle);
/* The closing script (the charts' check) and tags. */
void ssd_html_end(FILE *f);
/* A section heading (h2) with an id made of the text. */
void ssd_html_h2(FILE *f, const char *text);
void ssd_html_h3(FILE *f, const char *text);
/* A paragraph of text, escaped. */
void ssd_html_p(FILE *f, const char *text);
/* Preformatted text (a job file, a summary), escaped. */
void ssd_html_pre(FILE *f, const char *text, size_t len);

/* A two-column table of names and values, row by row. */
void ssd_html_kv_begin(FILE *f, const char *caption);
void ssd_html_kv(FILE *f, const char *key, const char *value);
void ssd_html_kv_num(FILE *f, const char *key, double v);
void ssd_html_kv_end(FILE *f);

/* A JSON value as tables: an object's scalars in a table of names and
 * values, an array of objects as a table with a column per key (in the
 * order first seen), an array of scalars as a list, nested objects as
 * sub-sections under their key (h3, then h4).  `skip` (NULL-terminated,
 * or NULL) names top-level members left out. */
void ssd_html_json(FILE *f, const struct ssd_jval *v, const char *const *skip);

/* The drive: its name and description, the preset it is compared with
 * (base, finished; NULL: none found) and base_what saying what base is
 * ("preset tiny", "the built-in defaults"), and every key whose value
 * differs from base's, with both values (keys drive show prints,
 * derived ones marked).  A drive equal to its base says so. */
void ssd_html_drive(FILE *f, const struct ssd_config *cfg,
		    const struct ssd_config *base, const char *base_what);

/* A run of a job file (html_run.c): the job file's text (NULL: it
 * could not be read again), the seed and simulated time, a table
 * of every job's figures, each job's latency percentiles as a chart,
 * and a chart per log the job wrote (write_iops_log, write_bw_log,
 * write_lat_log: read back from the files the run left, per second
 * with a 30-second average).  run numbers the runs of one page (the
 * charts' ids). */
void ssd_html_run(FILE *f, const struct ssd_run_result *r, int run,
		  const char *jobtext, size_t len);

/* A sweep's page (html_sweep.c): DIR/results.jsonl as `sweep collect`
 * wrote it -- the points by status, the main figures against the first
 * numeric axis that varies (a line per combination of the other axes,
 * seeds averaged; bars per value of the first axis that varies when
 * none is numeric), and the whole table.  0, or SSD_EIO / SSD_EPARSE /
 * SSD_ENOMEM with a one-line message in err (the file and line) before
 * anything is written. */
int ssd_html_sweep(FILE *f, const char *dir, char *err, size_t errlen);

/* ---- charts ---- */

#define SSD_CHART_MAX_SERIES 24
#define SSD_CHART_MAX_NOTES 16
#define SSD_CHART_MAX_TICS 32
#define SSD_CHART_MAX_POINTS 4000

enum ssd_chart_style { SSD_CS_LINES, SSD_CS_POINTS, SSD_CS_LINESPOINTS,
		       SSD_CS_IMPULSES, SSD_CS_BARS, SSD_CS_SEGMENTS,
		       SSD_CS_LABELS };

/* A series: n points (x[i], y[i]); a point whose x or y is not finite
 * is left out (a line breaks there).  Segments go from (x, y) to
 * (x + dx, y + dy).  Bars: x is the category's index (chart.cats).
 * Labels: text[i] written above (x, y) (a bar's value). */
struct ssd_chart_series {
	char title[160];           /* "" : not in the legend */
	int style;                 /* enum ssd_chart_style */
	char color[32];            /* "#rrggbb"; "" : the palette's */
	double width;              /* line width, px (0: 1.5) */
	double dot;                /* a point's diameter, px (0: the style's) */
	int dashed;
	int y2;                    /* on the right-hand axis */
	int rotate;                /* labels: written upwards */
	size_t n, cap;
	double *x, *y, *dx, *dy;   /* dx, dy: segments only */
	char **text;               /* labels only: owned, one per point */
};

/* An axis.  Log axes (base > 1) leave out values <= 0. */
struct ssd_chart_axis {
	char label[160];
	double base;               /* 0: linear; else a log axis */
	double min, max;           /* NaN: from the data */
	int ntics;                 /* > 0: these tics, labelled */
	double tic[SSD_CHART_MAX_TICS];
	char ticlabel[SSD_CHART_MAX_TICS][24];
	double step;               /* > 0: tics every step (linear) */
	int used;                  /* a series is on it (y2) */
};

/* A line or a text written over the plot.  Each coordinate is in the
 * axis' values, or (graph set) a fraction of the plot's width or
 * height. */
struct ssd_chart_note {
	int text;                  /* 1: a label at (x1, y1) */
	char label[96];
	double x1, y1, x2, y2;
	int gx1, gy1, gx2, gy2;    /* 1: that coordinate is a fraction */
	int dashed;
	char color[32];
};

struct ssd_chart {
	char id[64];               /* the element's id: "chart-NAME" */
	char title[320];
	struct ssd_chart_axis x, y, y2;
	int bars;                  /* x holds categories (cats), the series
	                              bars clustered per category */
	double gap;                /* between clusters, in bar widths (0: 1):
	                              bars are 1 / (nbars + gap) wide, as
	                              gnuplot's clustered histograms */
	int ncats;
	char **cats;               /* the categories' names */
	int nseries;
	struct ssd_chart_series s[SSD_CHART_MAX_SERIES];
	int nnotes;
	struct ssd_chart_note note[SSD_CHART_MAX_NOTES];
};

/* An empty chart (axes from the data, no series). */
void ssd_chart_init(struct ssd_chart *c, const char *id, const char *title);
/* A new series on c; NULL when c holds SSD_CHART_MAX_SERIES. */
struct ssd_chart_series *ssd_chart_series(struct ssd_chart *c,
					  const char *title, int style);
/* Append a point (dx, dy for segments, else 0); 0 or SSD_ENOMEM. */
int ssd_chart_point(struct ssd_chart_series *s, double x, double y,
		    double dx, double dy);
/* Append a point with its label (labels); 0 or SSD_ENOMEM. */
int ssd_chart_label(struct ssd_chart_series *s, double x, double y,
		    const char *text);
/* Append a category (bars); 0 or SSD_ENOMEM. */
int ssd_chart_cat(struct ssd_chart *c, const char *name);
/* Free what c holds (its series' points, its categories). */
void ssd_chart_free(struct ssd_chart *c);
/* c as a <figure> holding an inline <svg> (its title, axes, grid, the
 * series, the notes and a legend); a chart without one finite point
 * says so in its place.  Returns the points drawn. */
size_t ssd_chart_svg(FILE *f, const struct ssd_chart *c);

/* Read a chart from the body of a gnuplot script as scenarios write it
 * (methods/scenario.h's ssd_scn_plot) and the CSV files it plots, in
 * directory dir: the set commands for labels, log scales, ranges, tics,
 * histograms, arrows and labels, and a plot command of data files with
 * `skip`, `using` (columns, $N and ($0), arithmetic, comparisons,
 * strcol(N) eq 'text', ?:, xtic(N)), `axes x1y2`, `with` lines, points,
 * linespoints, impulses, boxes, vectors or labels (a value written with
 * sprintf('%.Nf', ...) or '%.Ng'), `lw`, `dt`, `ps`, `lc rgb` and
 * `title`.
 * Anything else of gnuplot's is ignored unless it changes what is drawn:
 * an unknown plot style, a `using` it cannot read, a file that cannot be
 * read are an error.  0, or SSD_EPARSE / SSD_EIO / SSD_ENOMEM with a
 * one-line message in err; c is then freed. */
int ssd_chart_from_gnuplot(struct ssd_chart *c, const char *dir,
			   const char *body, char *err, size_t errlen);

#endif
