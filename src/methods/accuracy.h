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
 * finishes, then the verdict "N of 8 within 3%".  *off gets the rows
 * whose model error exceeds SSD_ACCURACY_TOLERANCE percent.  Progress
 * goes to pg (NULL: none): a phase per row, the run's share in it.  Returns 0,
 * or the first run's error (message in err; the verdict is not
 * printed). */
#define SSD_ACCURACY_TOLERANCE 3.0
int ssd_accuracy_table(const struct ssd_config *base, double precondition,
		       double measure, uint64_t seed, FILE *out, int *off,
		       struct ssd_prog *pg, char *err, size_t errlen);

#endif
