/*
 * accuracy_fdp.c -- the write-amplification oracle for flexible data
 * placement: ideally separated streams (accuracy.h; docs/accuracy.md,
 * "Separated streams").
 *
 * The workload meets the oracle's assumptions.  The drive is the
 * accuracy drive with fdp = yes and two handles of the given type; a
 * log over half the user pages (whole reclaim units: a block on every
 * unit) is on handle 1, uniform random writes over the other half on
 * handle 0, half the host writes each (streams.h, a stripe per turn,
 * the turns drawn at random).  The log is trimmed a reclaim unit at a
 * time as it comes round, so its data dies whole, in FIFO order: no
 * block of it ever holds valid data when greedy GC looks for a victim,
 * and its write amplification is 1.  Then
 *
 *     WA = f_log x 1 + f_rand x WA_rand(alpha_rand),
 *
 * f the measured shares of the host writes, WA_rand the single-stream
 * greedy model (model.h) at the random stream's own utilisation.  Per
 * unit (B blocks of b pages, units u, user pages U, log pages L):
 *
 *   - gc_fg_blocks free blocks hold nothing (between GC bursts a unit
 *     keeps exactly that many, accuracy.h);
 *   - the random stream's GC write point is half empty on average: half
 *     a block no data uses;
 *   - the log holds L / (u b) blocks: its full blocks and the one it is
 *     rewriting (the part not yet rewritten is the piece it trimmed); the
 *     trimmed block itself is empty at the next victim pick, which the
 *     log's own next block opening makes, so it holds no space;
 *   - the handles' open blocks: the random stream's host write point is
 *     its model's own frontier (data), its GC write point is above, the
 *     log's is counted in L / (u b), and the log's GC write point is
 *     never opened (nothing of the log is ever copied).  Handles the
 *     workload does not use open no block.
 *
 *     alpha_rand = (U - L) / ((u (B - gc_fg_blocks - 1/2) - L / b) b),
 *     rho_eff = 1 / alpha_rand - 1.
 *
 * Initial and persistent isolation are the same here: GC only ever
 * copies the random stream's data.  The rows outside the assumptions
 * rewrite the log in place without the trim: its oldest block then dies
 * a page at a time, greedy takes it as a victim while some of it is
 * still valid whenever it is the emptiest block, and those copies are
 * what the oracle leaves out (persistent isolation keeps them apart in
 * the log's own GC write point; initial isolation mixes them into the
 * shared one with the random stream's).  Their model counts the log's
 * footprint as one block more per unit (its oldest block, partly dead,
 * beside its open one), so the gap is what GC does to the log alone.
 */
#include "methods/accuracy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "machine/device.h"
#include "methods/model.h"
#include "methods/streams.h"

double ssd_accuracy_fdp_alpha(const struct ssd_config *c, uint64_t log_lp,
			      uint32_t partial)
{
	struct ssd_geometry g;
	ssd_config_geometry(c, &g);
	double b = (double)g.lp_per_block;
	double blocks = (double)g.blocks - (double)g.units * (c->gc_fg_blocks + 0.5) -
			(double)log_lp / b - (double)g.units * partial;
	return (double)(g.user_lp - log_lp) / (blocks * b);
}

int ssd_accuracy_fdp_run(const struct ssd_config *base, int isolation,
			 double op, uint32_t ppb, int whole, double precondition,
			 double measure, uint64_t seed,
			 struct ssd_accuracy_fdp_row *row, char *err,
			 size_t errlen)
{
	struct ssd_config c = *base;
	c.page_size = SSD_LPAGE;
	c.multiplane = 0;
	c.op = op;
	c.pages_per_block = ppb;
	c.gc_policy = SSD_GC_GREEDY;
	c.blocks_per_plane = 0;
	c.fdp = 1;
	c.fdp_handles = 2;
	c.fdp_isolation = isolation;
	int rc = ssd_config_finish(&c, err, errlen);
	if (rc)
		return rc;
	if ((rc = ssd_dev_mem_check(&c, 0, 0, err, errlen)))
		return rc;
	struct ssd_geometry g;
	ssd_config_geometry(&c, &g);
	uint64_t ru = (uint64_t)g.units * g.lp_per_block;
	uint64_t log_lp = g.user_lp / 2 / ru * ru;
	if (!log_lp || log_lp >= g.user_lp) {
		snprintf(err, errlen, "fdp accuracy: a drive of %llu pages has no "
			 "room for a log of whole reclaim units of %llu pages "
			 "beside a random region", (unsigned long long)g.user_lp,
			 (unsigned long long)ru);
		return SSD_ERANGE;
	}
	struct ssd_dev *dev = NULL;
	rc = ssd_dev_create(&c, seed, &dev);
	if (rc) {
		snprintf(err, errlen, "cannot create the drive: %s",
			 ssd_strerror(rc));
		return rc;
	}
	struct ssd_streams m;
	ssd_streams_init(&m, dev, seed);
	m.n = 2;
	m.s[0] = (struct ssd_stream){.start = 0, .len = log_lp, .handle = 1,
		.kind = whole ? SSD_STREAM_LOG_TRIM : SSD_STREAM_LOG,
		.share = 0.5, .piece = g.units, .trim = (uint32_t)ru};
	m.s[1] = (struct ssd_stream){.start = log_lp, .len = g.user_lp - log_lp,
		.handle = 0, .kind = SSD_STREAM_RANDOM, .share = 0.5,
		.piece = g.units};
	rc = ssd_streams_fill(&m);
	if (!rc)
		rc = ssd_streams_run(&m, (uint64_t)(precondition * (double)g.user_lp));
	struct ssd_counters c0 = *ssd_dev_counters(dev);
	m.s[0].written = m.s[1].written = 0;
	if (!rc)
		rc = ssd_streams_run(&m, (uint64_t)(measure * (double)g.user_lp));
	if (rc) {
		const char *why = ssd_dev_error(dev);
		snprintf(err, errlen, "fdp accuracy: a write failed: %s%s%s",
			 ssd_strerror(rc), why[0] ? ": " : "", why);
		ssd_dev_destroy(dev);
		return rc;
	}
	const struct ssd_counters *e = ssd_dev_counters(dev);
	double host = (double)(e->host_write_lp - c0.host_write_lp);
	double copies = (double)(e->gc_copy_lp - c0.gc_copy_lp);
	row->isolation = isolation;
	row->whole = whole;
	row->op = op;
	row->ppb = ppb;
	row->f_log = (double)m.s[0].written /
		     (double)(m.s[0].written + m.s[1].written);
	row->alpha = ssd_accuracy_fdp_alpha(&c, log_lp, !whole);
	row->rho = 1 / row->alpha - 1;
	row->waf_rand = ssd_model_waf_greedy(row->alpha, g.lp_per_block);
	double share[2] = {row->f_log, 1 - row->f_log};
	double waf[2] = {1, row->waf_rand};
	row->model_waf = ssd_model_waf_separated(2, share, waf);
	row->sim_waf = (host + copies) / host;
	row->err_pct = 100 * (row->sim_waf - row->model_waf) / row->model_waf;
	row->host_writes = (uint64_t)host;
	ssd_dev_destroy(dev);
	return 0;
}

/* One table of rows: whole (the oracle's) or page by page (outside). */
static int fdp_rows(const struct ssd_config *base, int whole,
		    double precondition, double measure, uint64_t seed,
		    FILE *out, int *off, int *phase, int phases,
		    struct ssd_prog *pg, char *err, size_t errlen)
{
	static const int isos[] = {SSD_FDP_PERSISTENT, SSD_FDP_INITIAL};
	static const double ops[] = {0.07, 0.28};
	static const uint32_t ppbs[] = {64, 256};
	int nops = whole ? 2 : 1, n = 0;
	fprintf(out, "isolation   op     ppb  rho_eff  waf_rand  model_waf  "
		"sim_waf  error\n");
	for (int i = 0; i < 2; i++)
		for (int o = 0; o < nops; o++)
			for (int b = 0; b < 2; b++) {
				const char *iso = isos[i] == SSD_FDP_PERSISTENT
						  ? "persistent" : "initial";
				struct ssd_accuracy_fdp_row row;
				ssd_prog_phase(pg, 0, "%d of %d: FDP, %s%s, %.0f%% OP, "
					       "%u pages per block", ++*phase,
					       phases, iso, whole ? "" : ", the "
					       "log page by page", ops[o] * 100,
					       ppbs[b]);
				int rc = ssd_accuracy_fdp_run(base, isos[i], ops[o],
							      ppbs[b], whole,
							      precondition, measure,
							      seed, &row, err,
							      errlen);
				if (rc)
					return rc;
				ssd_prog_clear(pg);
				fprintf(out, "%-10s %4.0f%%  %4u  %7.4f  %8.3f  %9.3f  "
					"%7.3f  %+5.2f%%\n", iso, row.op * 100,
					row.ppb, row.rho, row.waf_rand,
					row.model_waf, row.sim_waf, row.err_pct);
				fflush(out);
				n++;
				if (fabs(row.err_pct) > SSD_ACCURACY_FDP_TOLERANCE)
					++*off;
			}
	return n;
}

int ssd_accuracy_fdp_table(const struct ssd_config *base, double precondition,
			   double measure, uint64_t seed, FILE *out, int *off,
			   int phase, int phases, struct ssd_prog *pg, char *err,
			   size_t errlen)
{
	fprintf(out, "\nFDP: a log trimmed a reclaim unit at a time and uniform "
		"random writes,\neach on a handle of its own, half the drive and "
		"half the writes each\n");
	*off = 0;
	int n = fdp_rows(base, 1, precondition, measure, seed, out, off, &phase,
			 phases, pg, err, errlen);
	if (n < 0)
		return n;
	fprintf(out, "%d of %d FDP rows within 2%%\n", n - *off, n);
	fprintf(out, "\nOutside the assumptions: the log rewritten without the "
		"trim, dying a page\nat a time; greedy GC takes its oldest block "
		"before it empties (not counted)\n");
	int ignored = 0;
	n = fdp_rows(base, 0, precondition, measure, seed, out, &ignored, &phase,
		     phases, pg, err, errlen);
	return n < 0 ? n : 0;
}
