/*
 * accuracy.h -- the simulator against theory: the write amplification of
 * uniform random 4 KiB writes in steady state, simulated, next to the
 * analytic model of the same GC policy (model.h).
 *
 * The drive is the given base with 4 KiB pages (so a page is a mapping
 * unit, as in the models), the requested op, pages_per_block and policy.
 * It is filled by one pass of random writes that covers every page once
 * (fio's random map), preconditioned with `precondition` times the user
 * capacity of uniform random writes drawn with replacement (the models'
 * assumption), then measured over `measure` times the capacity.
 *
 * The model's utilisation alpha counts the blocks that hold data
 * (docs/model.md).  Between GC bursts every unit keeps exactly
 * gc_fg_blocks free blocks, which hold nothing.  The host write point's
 * open block is the models' own write frontier and counts as data; the
 * GC write point is a second frontier the models do not have, half
 * empty on average, and its empty half is space no data can use.  So
 *     alpha = user pages / ((blocks - units * (gc_fg_blocks + 0.5)) * b).
 */
#ifndef SSD_ACCURACY_H
#define SSD_ACCURACY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/config.h"
#include "base/progress.h"

struct ssd_accuracy_row {
	int policy;          /* enum ssd_gc_policy */
	double op;
	uint32_t ppb;
	double alpha;        /* effective utilisation (see above) */
	double sim_waf;      /* measured */
	double model_waf;    /* analytic */
	double err_pct;      /* 100 * (sim - model) / model */
	uint64_t host_writes;/* measured host 4 KiB writes */
};

/* Alpha for a finished config (formula above). */
double ssd_accuracy_alpha(const struct ssd_config *c);

int ssd_accuracy_run(const struct ssd_config *base, int policy, double op,
		     uint32_t ppb, double precondition, double measure,
		     uint64_t seed, struct ssd_prog *pg,
		     struct ssd_accuracy_row *row, char *err, size_t errlen);

/* The accuracy matrix: ssd_accuracy_run for greedy and FIFO at 7% and
 * 28% OP, 64 and 256 pages per block, a table row on `out` as each
 * finishes, then the verdict "N of 8 within 3%"; then the FDP tables
 * (ssd_accuracy_fdp_table).  *off gets the rows whose model error
 * exceeds SSD_ACCURACY_TOLERANCE percent, and the FDP oracle's beyond
 * SSD_ACCURACY_FDP_TOLERANCE.  Progress goes to pg (NULL: none): a
 * phase per row, the run's share in it.  Returns 0, or the first run's
 * error (message in err; the verdict is not printed). */
#define SSD_ACCURACY_TOLERANCE 3.0
#define SSD_ACCURACY_FDP_TOLERANCE 2.0
int ssd_accuracy_table(const struct ssd_config *base, double precondition,
		       double measure, uint64_t seed, FILE *out, int *off,
		       struct ssd_prog *pg, char *err, size_t errlen);

/* ---- flexible data placement: ideally separated streams
 * (accuracy_fdp.c has the derivation) ---- */

struct ssd_accuracy_fdp_row {
	int isolation;       /* enum ssd_fdp_isolation */
	int whole;           /* 1: the log trimmed a reclaim unit at a time
	                        (the oracle's assumptions); 0: rewritten in
	                        place, dying a page at a time */
	double op;
	uint32_t ppb;
	double f_log;        /* the log's share of the measured host writes */
	double alpha;        /* the random stream's utilisation */
	double rho;          /* its spare factor 1/alpha - 1 */
	double waf_rand;     /* greedy model at alpha */
	double model_waf;    /* f_log + (1 - f_log) waf_rand */
	double sim_waf;      /* measured */
	double err_pct;      /* 100 * (sim - model) / model */
	uint64_t host_writes;/* measured host 4 KiB writes */
};

/* The random stream's utilisation on a finished FDP config whose logs
 * hold log_lp pages (whole reclaim units), each on a handle of its own:
 * a log that dies a reclaim unit at a time holds log_lp / (units b)
 * blocks per unit; `partial` logs that die in smaller pieces hold one
 * block more each per unit (the oldest, partly dead, beside the open
 * one). */
double ssd_accuracy_fdp_alpha(const struct ssd_config *c, uint64_t log_lp,
			      uint32_t partial);

/* One FDP row on base with two handles of type `isolation`, greedy GC,
 * 4 KiB pages, op and ppb: fill, `precondition` then `measure` times
 * the user pages of host writes (the measured window).  0, or an error
 * with err set. */
int ssd_accuracy_fdp_run(const struct ssd_config *base, int isolation,
			 double op, uint32_t ppb, int whole, double precondition,
			 double measure, uint64_t seed,
			 struct ssd_accuracy_fdp_row *row, char *err,
			 size_t errlen);

/* The FDP tables on `out`: the oracle's rows (persistent and initial
 * isolation at 7% and 28% OP, 64 and 256 pages per block) and their
 * verdict "N of 8 FDP rows within 2%", then the rows outside its
 * assumptions (the log dying a page at a time, 7% OP), not counted.
 * *off gets the oracle rows beyond SSD_ACCURACY_FDP_TOLERANCE; the
 * progress phases are numbered from phase + 1 of phases.  0 or the
 * first run's error. */
#define SSD_ACCURACY_FDP_ROWS 12
int ssd_accuracy_fdp_table(const struct ssd_config *base, double precondition,
			   double measure, uint64_t seed, FILE *out, int *off,
			   int phase, int phases, struct ssd_prog *pg, char *err,
			   size_t errlen);

#endif
