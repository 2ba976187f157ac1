/*
 * model.h -- analytic write amplification of garbage collection under
 * uniform random 4 KiB writes, the yardstick the simulator is checked
 * against (docs/accuracy.md).
 *
 * alpha is the utilisation: user pages / physical pages that hold data
 * (physical pages minus the blocks the FTL keeps free or open).  b is the
 * number of 4 KiB pages per erase block.
 */
#ifndef SSD_MODEL_H
#define SSD_MODEL_H

#include <stdint.h>

/* FIFO (least recently written) cleaning, Desnoyers SYSTOR 2012:
 * WA = 1/(1 - v), v the victim's valid fraction, solving
 * v = exp(-(1 - v)/alpha) (the closed form with Lambert W:
 * v = -alpha * W0(-(1/alpha) * exp(-1/alpha))).  0 < alpha < 1. */
double ssd_model_waf_fifo(double alpha);

/* The same with b pages per block (finite-block FIFO: each page of the
 * victim survived the same number of host writes independently). */
double ssd_model_waf_fifo_b(double alpha, uint32_t b);

/* Greedy cleaning, mean-field model with b pages per block (the limit of
 * many blocks, finite b): the fixed point of the occupancy distribution
 * x_j (fraction of blocks with j valid pages) under uniform invalidation
 * and lowest-count victim selection.  WA = b / (b - mean victim count). */
double ssd_model_waf_greedy(double alpha, uint32_t b);

/* Ideally separated streams (flexible data placement; docs/accuracy.md,
 * "Separated streams"): stream i takes share[i] of the host writes
 * (shares summing to 1) into blocks of its own and has write
 * amplification waf[i] there -- 1 for data that dies whole in FIFO
 * order, a single-stream model above at the stream's own utilisation
 * for uniform random writes -- so the drive's is sum share[i] waf[i].
 * NaN if a share is negative or the shares do not sum to 1 (+-1e-9). */
double ssd_model_waf_separated(int n, const double *share, const double *waf);

/* Lambert W, principal branch, for x in [-1/e, 0]. */
double ssd_lambert_w0(double x);

#endif
