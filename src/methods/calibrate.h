/*
 * calibrate.h -- the simulated drives against the reviews they model.
 *
 * A preset of a real drive carries the figures the seed reviews measured
 * on it as structured comment lines (docs/calibration.md):
 *
 *     # ref seq_read_mbps = 168 ; 000: max sequential read ~168 MB/s
 *
 * that is "# ref FIGURE = VALUE ; SEED: note".  VALUE is a number, a
 * range LO..HI ("65..80"), or a bound ">200" / "<1" when the review only
 * says "more than" or "under".  SEED is the seed document's three-digit
 * number (000..004).  FIGURE names one row of the figure table below,
 * which says how ssdlab measures it -- or, for a figure no drive
 * mechanism produces (an application benchmark), why it is not measured.
 * A figure the drive is known to miss says why on a line of its own:
 *
 *     # miss spikes_per_min: a burst frees one block, and ...
 *
 * so that the table gives a reason on every row that is not "ok": why a
 * figure is not modelled (the figure table), why the drive misses it
 * (its "# miss" line), or why its run failed.
 *
 * The figures of the filled drive (seq_read_full_mbps and those after
 * it: idle, TRIM) are measured after a sequential fill unless the file
 * names the review's own procedure on a line of its own:
 *
 *     # fill dircopy: the review filled the drive by copying directories
 *
 * ("# fill PROCEDURE: why", sequential or dircopy; job/dircopy.h), and
 * every row of the table says which procedure, if any, filled its
 * figure's drive (enum ssd_cal_fill).
 *
 * ssd_cal_measure() runs the measurements a list of refs needs as small
 * fio-style job runs (ssd_jobfile_parse_string + ssd_sim_run) on fresh
 * drives built from the config; it never looks at the seed values.
 * The random-write preconditioning runs on a copy of the drive scaled
 * down in capacity with the same geometry, OP and parallelism (fewer
 * blocks per plane), see ssd_cal_scale(); sequential tests use slices,
 * so a full calibration takes seconds to tens of seconds.
 */
#ifndef SSD_CALIBRATE_H
#define SSD_CALIBRATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/config.h"
#include "base/progress.h"

/* How a ref's VALUE reads. */
enum ssd_cal_kind {
	SSD_CAL_EQ,     /* "168": about this much */
	SSD_CAL_RANGE,  /* "65..80": anywhere in [lo, hi] */
	SSD_CAL_ABOVE,  /* ">200": at least lo */
	SSD_CAL_BELOW   /* "<1": at most hi */
};

#define SSD_CAL_MAX_REFS 64

/* What filled a figure's drive before it was measured. */
enum ssd_cal_fill {
	SSD_CAL_FILL_NONE,    /* "-": a fresh drive (or a slice, a test file) */
	SSD_CAL_FILL_SEQ,     /* "sequential": 128 KiB writes end to end */
	SSD_CAL_FILL_DIRCOPY, /* "dircopy": directories copied until full */
	SSD_CAL_FILL_RANDOM   /* "random": 4 KiB random writes over the span */
};

/* A fill's name as the table prints it ("-", "sequential", "dircopy",
 * "random"). */
const char *ssd_cal_fill_name(int fill);
/* A procedure a drive file or --fill may name for the filled drive:
 * SSD_CAL_FILL_SEQ for "sequential", SSD_CAL_FILL_DIRCOPY for "dircopy",
 * else -1. */
int ssd_cal_fill_find(const char *name);

struct ssd_cal_ref {
	char figure[40];    /* a name from the figure table */
	int kind;           /* enum ssd_cal_kind */
	double lo, hi;      /* EQ: lo == hi; ABOVE: lo; BELOW: hi */
	char value[32];     /* VALUE as written ("65..80") */
	char seed[4];       /* "000".."004" */
	char note[200];     /* the text after "SEED:" */
	char miss[400];     /* why the drive misses the figure: the text of
	                       the file's "# miss FIGURE:" line, or "" */
	int line;           /* line in the preset file (0 if parsed alone) */
	int fill;           /* enum ssd_cal_fill: what fills the drive before
	                       the figure is measured (ssd_cal_parse_ref: the
	                       figure's own, a sequential fill for the filled
	                       drive's; ssd_cal_load_refs: the file's "# fill"
	                       line's for those) */
};

/* One figure ssdlab knows how to measure (or knows it cannot). */
struct ssd_cal_figure {
	const char *name;
	const char *unit;       /* "MB/s", "IOPS", "ms", "s", "MB", "%" */
	const char *method;     /* how it is measured, or NULL */
	const char *why_not;    /* why it is not modelled, or NULL */
};

/* The figure named `name`, or NULL. */
const struct ssd_cal_figure *ssd_cal_figure_find(const char *name);
/* The i-th row of the figure table (NULL past the end). */
const struct ssd_cal_figure *ssd_cal_figure_at(int i);

/*
 * Parse one line of a preset.  Returns 1 and fills *ref when the line is
 * a "# ref" line, 0 when it is any other line (including other
 * comments), or SSD_EPARSE / SSD_ENOENT (unknown figure) with a message
 * in err saying what is wrong and the accepted form.  ref->line is set
 * to 0.
 */
int ssd_cal_parse_ref(const char *line, struct ssd_cal_ref *ref, char *err,
		      size_t errlen);

/*
 * Parse one line as a "# miss FIGURE: why" line.  Returns 1 with the
 * figure's name in figure (size fn) and the reason in why (size wn), 0
 * for any other line, or SSD_EPARSE (no ':' or no reason) / SSD_ENOENT
 * (unknown figure) with a message in err.
 */
int ssd_cal_parse_miss(const char *line, char *figure, size_t fn, char *why,
		       size_t wn, char *err, size_t errlen);

/*
 * Parse one line as a "# fill PROCEDURE: why" line.  Returns 1 with the
 * procedure (SSD_CAL_FILL_SEQ or SSD_CAL_FILL_DIRCOPY) in *fill, 0 for
 * any other line, or SSD_EPARSE (no ':', no reason, a procedure that is
 * not one of the two) with a message in err.
 */
int ssd_cal_parse_fill(const char *line, int *fill, char *err, size_t errlen);

/* Make `fill` (SSD_CAL_FILL_SEQ or SSD_CAL_FILL_DIRCOPY) the procedure
 * that fills the drive of every ref of the filled drive's figures. */
void ssd_cal_set_fill(struct ssd_cal_ref *refs, int n, int fill);

/*
 * Read every "# ref" line of the drive file at `path` into refs (up to
 * `max`); *n is the count.  Each "# miss FIGURE: why" line of the file
 * fills the miss field of FIGURE's refs, and its "# fill" line the fill
 * of the filled drive's.  Returns 0, SSD_EIO (unreadable), SSD_ERANGE
 * (more than max refs) or a parse error -- a "# miss" line for a figure
 * the file has no "# ref" line for, or a second one for a figure, a
 * second "# fill" line, among them -- with "PATH:LINE: ..." in err.
 */
int ssd_cal_load_refs(const char *path, struct ssd_cal_ref *refs, int max,
		      int *n, char *err, size_t errlen);

/*
 * Deviation of a measured value from a ref, in percent of the seed value:
 * EQ: 100 * (value - v) / v; RANGE and bounds: 0 when the value is inside,
 * else 100 * (value - nearest bound) / bound.  NAN when value is NAN or
 * the seed value is 0.
 */
double ssd_cal_deviation(const struct ssd_cal_ref *ref, double value);

/* Run options. */
struct ssd_cal_opts {
	int quick;          /* small slices and scale: for tests (the values
	                       are rougher, not comparable to a full run) */
	uint64_t seed;      /* seed of every run */
	int fill;           /* 0: each drive file's fill procedure; else
	                       SSD_CAL_FILL_SEQ or SSD_CAL_FILL_DIRCOPY for
	                       every drive (ssd_cal_table_run) */
	struct ssd_prog *prog; /* progress (NULL: none): a phase per
	                       procedure, and the runs of jobs in it */
};

/* A measured figure. */
struct ssd_cal_value {
	double value;       /* in the figure's unit; NAN when not modelled
	                       or not measured (error set); INFINITY when
	                       there was no event to find (spike_onset_s with
	                       no request of 100 ms or more) */
	char error[160];    /* "" or why the measuring run failed (the drive
	                       turned read-only, ...) */
};

/*
 * Measure, on drives built from the finished config c, every figure the
 * refs name; out[i] receives refs[i]'s.  The filled drive's figures are
 * measured after the fill their refs name (a directory copy if any of
 * them names it, else a sequential fill).  A procedure whose run fails
 * (a job error such as a drive turned read-only) leaves its figures NAN
 * with the message in their error field and the others are still
 * measured.  Returns 0, or a negative SSD_E* code with a message in err
 * for what stops everything (an unknown figure, no memory).
 */
int ssd_cal_measure(const struct ssd_config *c,
		    const struct ssd_cal_ref *refs, int nrefs,
		    const struct ssd_cal_opts *o, struct ssd_cal_value *out,
		    char *err, size_t errlen);

/*
 * A copy of the finished config c scaled down for whole-capacity
 * procedures: the capacity divided by k, the smallest power of two that
 * brings it to at most `target` bytes, but no larger than keeps
 * blocks_per_plane / k >= min_blocks (so the GC reserve stays a small
 * share of each unit).  Geometry, OP and timings are kept; slc_cache_size
 * and map_cache scale with the capacity (they are shares of the drive);
 * write_buffer does not (it is the controller's DRAM).  *out is finished.
 * Returns k (1 when c is already small enough).
 */
uint32_t ssd_cal_scale(const struct ssd_config *c, uint64_t target,
		       uint32_t min_blocks, struct ssd_config *out);

/* ---- the calibration table ---- */

#define SSD_CAL_TOLERANCE 15.0 /* percent: a figure within it is "ok" */

/* What to calibrate and where the table goes. */
struct ssd_cal_table {
	const char *preset_dir;   /* preset.h */
	const char *const *drives; /* names or files; NULL/0: every preset
	                             of preset_dir that has "# ref" lines */
	int ndrives;
	const char *const *sets;  /* "KEY=VALUE" for every drive */
	int nsets;
	int markdown;             /* the table as Markdown */
	struct ssd_cal_opts opts;
	FILE *out;                /* the table and the verdict */
	FILE *msg;                /* a line per failed figure: */
	const char *prefix;       /* "PREFIX: FIGURE: why" */
};

/* The verdict: figures measured, within the tolerance, not modelled,
 * failed (their runs did). */
struct ssd_cal_verdict {
	int measured, within, not_modelled, failed;
};

/* A number of the table: "-" for NAN, "none" for INFINITY, else 3 or 4
 * significant figures. */
void ssd_cal_format(double v, char *buf, size_t n);

/*
 * Measure every drive of t (ssd_cal_measure), print its rows to t->out
 * as it finishes, then the verdict line "W of M measured figures within
 * 15%; N not modelled[; F failed]".  Each row says what filled its
 * figure's drive (t->opts.fill, when set, for the filled drive's
 * figures of every drive).  A row that is not "ok" ends with
 * why: the figure table's why_not, the drive's "# miss" line, the
 * failed run's message, or -- for a --quick figure out of tolerance
 * that the drive has no "# miss" line for -- that quick figures are
 * rough.  A full run's figure out of tolerance without a "# miss" line
 * says that no reason is on record.  Returns 0 (v filled; v->failed
 * figures failed), or a negative SSD_E* with the message in err; then
 * *input is 1 when the error is the user's (a drive that does not load,
 * a bad "# ref" line, a named drive without refs), 0 when a measurement
 * or the preset directory failed.  Rows printed before an error stay.
 */
int ssd_cal_table_run(const struct ssd_cal_table *t,
		      struct ssd_cal_verdict *v, int *input, char *err,
		      size_t errlen);

#endif
