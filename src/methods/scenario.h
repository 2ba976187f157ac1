/*
 * scenario.h -- the reviewers' test methods as named, ready-made runs.
 *
 * A scenario drives a fresh simulated drive through a method from the
 * seed reviews (steady state, SLC cliff, TRIM stalls, ...) and writes into
 * an output directory: result.json (its headline numbers and parameters),
 * CSV time series, and plots drawn with gnuplot (PNG and SVG; when gnuplot
 * is missing it says so once and still writes the data and the .gp
 * scripts), and report.html, a page with the summary, the drive, the
 * parameters, every chart drawn again in SVG and the figures of
 * result.json (scn_html.c; docs/report.md).  It prints a short summary
 * with the headline numbers.
 *
 * Parameters are named values with defaults, overridable with --set
 * NAME=VALUE like drive keys; sizes may be given as a percentage of the
 * drive's capacity, so default sizes scale with the drive.
 *
 * Adding a scenario: a new scn_NAME.c with a `const struct ssd_scenario`
 * and one line in the registry in scenario.c.
 */
#ifndef SSD_SCENARIO_H
#define SSD_SCENARIO_H

#include <stdint.h>
#include <stdio.h>

#include "base/config.h"
#include "base/json.h"
#include "base/progress.h"
#include "base/ofile.h"
#include "machine/device.h"
#include "report/report.h"
#include "stats/series.h"

/* A parameter.  A number-valued one (any unit but sizes, times and
 * "text") may declare what it accepts, with designated initializers:
 * whole (an integer, read with ssd_scn_int) and a range lo..hi, both ends
 * included unless the flags exclude them; lo < hi declares it (lo = hi = 0,
 * as in a table row without them, is none).  ssd_scenario_run refuses a
 * value outside them before the scenario runs, with a message naming the
 * parameter, so a scenario checks only what involves several parameters
 * or the drive. */
struct ssd_scn_param {
	const char *name;
	const char *def;   /* default, as text */
	const char *unit;  /* "size or % of capacity", "seconds", ... */
	const char *help;
	double lo, hi;     /* accepted range, in the unit (lo < hi: declared) */
	int whole;         /* 1: an integer only */
	int open;          /* SSD_SCN_ABOVE_LO, SSD_SCN_BELOW_HI: excluded ends */
};

#define SSD_SCN_ABOVE_LO 1 /* lo itself is refused (0 < x) */
#define SSD_SCN_BELOW_HI 2 /* hi itself is refused (x < 1) */

struct ssd_scn;

/* A chart the scenario drew (ssd_scn_plot), kept for its page. */
struct ssd_scn_chart {
	char name[128];            /* the file name's stem */
	char title[400];           /* as gnuplot's title: with the drive */
	char *body;                /* the plot commands (owned) */
};

struct ssd_scenario {
	const char *name;
	const char *summary;               /* one line */
	const struct ssd_scn_param *params; /* ends with {NULL} */
	int (*run)(struct ssd_scn *s);     /* 0 or a negative SSD_E* */
	const char *drive;                 /* the drive without --drive
	                                      (NULL: "default") */
	int needs_trim;                    /* it deletes with TRIM: refused
	                                      on a drive without (a disk,
	                                      an SSD with trim = no); or
	                                      SSD_SCN_TRIM_PHASE */
};

/* needs_trim: one phase of the scenario is TRIM's, the rest stands
 * without it: refused on a hard disk still, but on an SSD with trim = no
 * the phase is skipped and the summary and result.json say so. */
#define SSD_SCN_TRIM_PHASE 2

#define SSD_SCN_MAX_PARAMS 32
#define SSD_SCN_MAX_FILES 8   /* files open at once: result.json and a few */

/* One run of a scenario. */
struct ssd_scn {
	const struct ssd_scenario *sc;
	struct ssd_config cfg;     /* the drive (finished) */
	const char *snapshot;      /* its saved state (--snapshot), or NULL:
	                              fresh (ssd_scn_drive) */
	const char *outdir;
	const char *preset_dir;    /* where other drives are found by name */
	uint64_t seed;
	char value[SSD_SCN_MAX_PARAMS][128]; /* parameter values, as text */
	FILE *out;                 /* the summary (stdout) */
	FILE *json;                /* result.json, open while running */
	struct ssd_ofile *files[SSD_SCN_MAX_FILES]; /* open (ssd_scn_file) */
	struct ssd_json jw;        /* its writer */
	int gnuplot;               /* 1 found, 0 missing, -1 not looked */
	struct ssd_prog *prog;     /* progress reports (NULL: none;
	                              base/progress.h): ssd_scn_run reports
	                              through it, a scenario names its
	                              phases with ssd_prog_phase */
	char err[512];             /* the message when run() fails */
	struct ssd_scn_chart *charts; /* drawn so far, for report.html */
	int ncharts;
};

/* The registry. */
extern const struct ssd_scenario *const ssd_scenarios[];
const struct ssd_scenario *ssd_scenario_find(const char *name);

/* Run scenario `sc` on drive `cfg` into `outdir` (created if missing),
 * with parameter overrides "NAME=VALUE" (sets[i]); a scenario that uses
 * other drives by name finds them in preset_dir (preset.h; NULL: the
 * environment's or the compiled-in one).  Progress goes to pg (NULL:
 * none); with a listener the summary is held back and written to out
 * once the line is cleared (the same bytes).  Returns 0, or a negative
 * code with a one-line message in err. */
int ssd_scenario_run(const struct ssd_scenario *sc,
		     const struct ssd_config *cfg, const char *outdir,
		     const char *preset_dir, const char *const *sets,
		     int nsets, uint64_t seed, FILE *out,
		     struct ssd_prog *pg, char *err, size_t errlen);

/* ssd_scenario_run starting from the drive saved at `snapshot`
 * (machine/snapshot.h; cfg is its drive): every drive the scenario would
 * build fresh (ssd_scn_drive) is loaded from it instead; a scenario
 * that changes its drive's keys or builds drives of its own is refused
 * when it tries.  NULL: ssd_scenario_run. */
int ssd_scenario_run_from(const struct ssd_scenario *sc,
			  const struct ssd_config *cfg, const char *snapshot,
			  const char *outdir, const char *preset_dir,
			  const char *const *sets, int nsets, uint64_t seed,
			  FILE *out, struct ssd_prog *pg, char *err,
			  size_t errlen);

/* 1 if NAME is a parameter of sc. */
int ssd_scenario_has_param(const struct ssd_scenario *sc, const char *name);

/* What p accepts beyond its unit, as text for help and docs: "whole 1
 * to 256", "more than 0, up to 1", ... into buf; "" if it declares
 * nothing.  Returns buf. */
const char *ssd_scn_param_range(const struct ssd_scn_param *p, char *buf,
				size_t len);

/* Check value v of parameter p of scenario sc: its unit (capacity is the
 * drive's, for sizes given as a share of it), and for a number its
 * declared wholeness and range.  0, or SSD_EPARSE / SSD_ERANGE with a
 * one-line message in err naming the scenario, the parameter, the value
 * and what it accepts. */
int ssd_scn_param_check(const struct ssd_scenario *sc,
			const struct ssd_scn_param *p, const char *v,
			uint64_t capacity, char *err, size_t errlen);

/* ---- helpers for scenario code ---- */

/* A parameter as a number, a time in ns (bare number = seconds), or a
 * size in bytes (suffixes as fio; N% of the capacity), rounded down to a
 * multiple of `align` (0 or 1: none). */
double ssd_scn_num(const struct ssd_scn *s, const char *name);
/* A whole parameter (declared whole, so checked to be an integer in its
 * range before the run): exact, no cast of an unchecked double. */
int64_t ssd_scn_int(const struct ssd_scn *s, const char *name);
int64_t ssd_scn_time(const struct ssd_scn *s, const char *name);
uint64_t ssd_scn_size(const struct ssd_scn *s, const char *name,
		      uint64_t align);
const char *ssd_scn_str(const struct ssd_scn *s, const char *name);

/* A fresh drive of the scenario (its cfg, with overrides `sets`, e.g.
 * "op=0.28"; NULL for none).  Returns NULL with s->err set on error. */
struct ssd_dev *ssd_scn_drive(struct ssd_scn *s, const char *const *sets,
			      int nsets);

/* Another drive than the scenario's: a preset name or .ini path, with
 * overrides sets[i] ("KEY=VALUE"), finished, into *c.  0, or the error
 * with s->err set. */
int ssd_scn_preset(struct ssd_scn *s, const char *name,
		   const char *const *sets, int nsets, struct ssd_config *c);

/* A fresh device of the finished config c; NULL with s->err set. */
struct ssd_dev *ssd_scn_device(struct ssd_scn *s, const struct ssd_config *c);

/* A job file for dev, named for the scenario (job.h's builder); NULL
 * when out of memory (ssd_scn_run then says so). */
struct ssd_jobs *ssd_scn_jobs_new(struct ssd_scn *s, const struct ssd_dev *dev);
/* ssd_jobs_add with rw, bs (bytes, every direction) and iodepth set. */
struct ssd_job *ssd_scn_job(struct ssd_jobs *b, const char *name, int rw,
			    uint32_t bs, uint32_t iodepth);
/* End job file b (from ssd_scn_jobs_new) and run it on dev; completions
 * also go to series if not NULL, progress to s->prog.  Fills *res (free with
 * ssd_run_result_free); on failure returns the error with s->err set and
 * *res already freed. */
int ssd_scn_run(struct ssd_scn *s, struct ssd_dev *dev, struct ssd_jobs *b,
		struct ssd_series *series, struct ssd_run_result *res);

/* Open outdir/name for writing (base/ofile.h: a temporary, renamed into
 * place by ssd_scn_close); NULL with s->err set on failure.  At most
 * SSD_SCN_MAX_FILES open at once; the ones still open when the scenario
 * ends are discarded. */
FILE *ssd_scn_file(struct ssd_scn *s, const char *name);
/* Finish a file of ssd_scn_file: 0 when it is whole in place, else
 * SSD_EIO with s->err naming it and the reason (nothing left of it). */
int ssd_scn_close(struct ssd_scn *s, FILE *f);
/* Abandon a file of ssd_scn_file (the work writing it failed). */
void ssd_scn_discard(struct ssd_scn *s, FILE *f);
/* Write a series as outdir/name.csv. */
int ssd_scn_csv(struct ssd_scn *s, const char *name,
		const struct ssd_series *series);
/* Write outdir/name.gp (the body: plot commands using data files in
 * outdir; the terminal and output lines are added) and run gnuplot to
 * make name.png and name.svg.  A missing gnuplot is not an error.  The
 * terminals are noenhanced: every title, label and tic is drawn as
 * written (no ~ overprints, _ subscripts, ^ superscripts, {} groups, @
 * or & of gnuplot's enhanced text); the title is title plus the drive's
 * name, quoted with ssd_scn_gp_text. */
int ssd_scn_plot(struct ssd_scn *s, const char *name, const char *title,
		 const char *body);
/* text as a gnuplot string literal in single quotes ('' for a quote,
 * line breaks dropped), cut to fit buf[n]; returns buf.  For text that
 * is not the scenario's own: a drive's name, a file name. */
const char *ssd_scn_gp_text(const char *text, char *buf, size_t n);

/* The page of the run, outdir/report.html (scn_html.c): the summary
 * (nsummary bytes, as printed), the drive against its preset, the
 * parameters, every chart kept by ssd_scn_plot drawn again from its
 * body and CSV files, and result.json's figures.  0, or the error with
 * s->err set (a chart the page cannot draw names the chart). */
int ssd_scn_html(struct ssd_scn *s, const char *summary, size_t nsummary);
/* Keep a chart for the page (a copy of body); 0 or SSD_ENOMEM with
 * s->err set.  ssd_scn_charts_free frees them. */
int ssd_scn_chart_keep(struct ssd_scn *s, const char *name, const char *title,
		       const char *body);
void ssd_scn_charts_free(struct ssd_scn *s);

/* The SNIA PTS steady-state rule on five round values y[0..4]: their data
 * excursion (max - min) within 20% of their mean, and the rise of their
 * least-squares line across the five rounds within 10% of it.  Fills the
 * mean and both as fractions of the mean; returns 1 if the rule holds. */
int ssd_scn_pts_steady(const double *y, double *mean, double *excursion,
		       double *rise);

/* result.json, through the writer s->jw (base/json.h): keys and values
 * at the current level; key NULL writes an element of the current
 * array.  Numbers: a whole one below 2^53 exactly (byte counts, times
 * in ns), the rest %.6g, null if not finite. */
void ssd_scn_json_num(struct ssd_scn *s, const char *key, double v);
void ssd_scn_json_int(struct ssd_scn *s, const char *key, int64_t v);
void ssd_scn_json_str(struct ssd_scn *s, const char *key, const char *v);
void ssd_scn_json_open(struct ssd_scn *s, const char *key, int array);
void ssd_scn_json_close(struct ssd_scn *s, int array);

/* Scenarios. */
extern const struct ssd_scenario ssd_scn_steady_state, ssd_scn_slc_cache,
	ssd_scn_gc_states, ssd_scn_trim_latency;
extern const struct ssd_scenario ssd_scn_iometer;
extern const struct ssd_scenario ssd_scn_workload_switch;
extern const struct ssd_scenario ssd_scn_snia_pts;

extern const struct ssd_scenario ssd_scn_fill_idle;
extern const struct ssd_scenario ssd_scn_torture;
extern const struct ssd_scenario ssd_scn_essay_bench;
extern const struct ssd_scenario ssd_scn_trace;
extern const struct ssd_scenario ssd_scn_power_loss;
extern const struct ssd_scenario ssd_scn_zoned;
extern const struct ssd_scenario ssd_scn_fdp;
#endif
