/*
 * accuracy.c -- simulated versus analytic write amplification (see
 * accuracy.h and docs/accuracy.md).
 */
#include "methods/accuracy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "machine/device.h"
#include "job/job.h"
#include "methods/model.h"
#include "run/sim.h"

double ssd_accuracy_alpha(const struct ssd_config *c)
{
	struct ssd_geometry g;
	ssd_config_geometry(c, &g);
	double data = ((double)g.blocks - (double)g.units * (c->gc_fg_blocks + 0.5)) *
		      (double)g.lp_per_block;
	return (double)g.user_lp / data;
}

int ssd_accuracy_run(const struct ssd_config *base, int policy, double op,
		     uint32_t ppb, double precondition, double measure,
		     uint64_t seed, struct ssd_prog *pg,
		     struct ssd_accuracy_row *row, char *err, size_t errlen)
{
	struct ssd_config c = *base;
	c.page_size = SSD_LPAGE;
	c.multiplane = 0;
	c.op = op;
	c.pages_per_block = ppb;
	c.gc_policy = policy;
	c.blocks_per_plane = 0;
	int rc = ssd_config_finish(&c, err, errlen);
	if (rc)
		return rc;
	/* fill, then precondition and measure with writes drawn with
	 * replacement, each a share of the drive in whole pages */
	uint64_t pages = c.capacity / SSD_LPAGE;
	struct ssd_jobs *b = NULL;
	rc = ssd_jobs_new("accuracy", c.capacity, &b);
	if (rc)
		return rc;
	struct ssd_job *g = ssd_jobs_global(b);
	g->rw = SSD_RW_RANDWRITE;
	ssd_job_set_bs(g, 4096);
	g->iodepth = 32;
	ssd_jobs_add(b, "fill");
	struct ssd_job *j = ssd_jobs_add(b, "precondition");
	j->stonewall = 1;
	j->norandommap = 1;
	j->io_size = (uint64_t)(precondition * (double)pages) * SSD_LPAGE;
	j = ssd_jobs_add(b, "measure");
	j->stonewall = 1;
	j->norandommap = 1;
	j->io_size = (uint64_t)(measure * (double)pages) * SSD_LPAGE;
	struct ssd_job *jobs = NULL;
	int njobs = 0;
	rc = ssd_jobs_end(b, &jobs, &njobs, err, errlen);
	if (rc)
		return rc;
	struct ssd_dev *dev = NULL;
	if ((rc = ssd_dev_mem_check(&c, 0, 0, err, errlen))) {
		free(jobs);
		return rc;
	}
	rc = ssd_dev_create(&c, seed, &dev);
	if (rc) {
		snprintf(err, errlen, "cannot create the drive: %s",
			 ssd_strerror(rc));
		free(jobs);
		return rc;
	}
	struct ssd_run_result res;
	rc = ssd_sim_run_prog(dev, jobs, njobs, seed, NULL, pg, &res, err,
			      errlen);
	if (!rc) {
		const struct ssd_counters *m = &res.jobs[2].ctr;
		row->policy = policy;
		row->op = op;
		row->ppb = ppb;
		row->alpha = ssd_accuracy_alpha(&c);
		row->host_writes = m->host_write_lp;
		row->sim_waf = (double)(m->host_write_lp + m->gc_copy_lp) /
			       (double)m->host_write_lp;
		row->model_waf = policy == SSD_GC_FIFO
			? ssd_model_waf_fifo_b(row->alpha, ppb)
			: ssd_model_waf_greedy(row->alpha, ppb);
		row->err_pct = 100 * (row->sim_waf - row->model_waf) /
			       row->model_waf;
	}
	ssd_run_result_free(&res);
	ssd_dev_destroy(dev);
	free(jobs);
	return rc;
}

int ssd_accuracy_table(const struct ssd_config *base, double precondition,
		       double measure, uint64_t seed, FILE *out, int *off,
		       struct ssd_prog *pg, char *err, size_t errlen)
{
	static const int policies[] = {SSD_GC_GREEDY, SSD_GC_FIFO};
	static const double ops[] = {0.07, 0.28};
	static const uint32_t ppbs[] = {64, 256};
	fprintf(out, "policy  op     ppb  alpha    model_waf  sim_waf  error\n");
	*off = 0;
	for (int p = 0; p < 2; p++)
		for (int o = 0; o < 2; o++)
			for (int b = 0; b < 2; b++) {
				struct ssd_accuracy_row row;
				ssd_prog_phase(pg, 0, "%d of %d: %s, %.0f%% OP, "
					       "%u pages per block",
					       p * 4 + o * 2 + b + 1,
					       8 + SSD_ACCURACY_FDP_ROWS,
					       ssd_gc_policy_name(policies[p]),
					       ops[o] * 100, ppbs[b]);
				int rc = ssd_accuracy_run(base, policies[p],
							  ops[o], ppbs[b],
							  precondition, measure,
							  seed, pg, &row, err,
							  errlen);
				if (rc)
					return rc;
				ssd_prog_clear(pg); /* the row follows */
				fprintf(out, "%-7s %4.0f%%  %4u  %.5f  %9.3f  "
					"%7.3f  %+5.2f%%\n",
					ssd_gc_policy_name(row.policy),
					row.op * 100, row.ppb, row.alpha,
					row.model_waf, row.sim_waf,
					row.err_pct);
				fflush(out);
				if (fabs(row.err_pct) > SSD_ACCURACY_TOLERANCE)
					++*off;
			}
	fprintf(out, "%d of 8 within 3%%\n", 8 - *off);
	int fdp_off = 0;
	int rc = ssd_accuracy_fdp_table(base, precondition, measure, seed, out,
					&fdp_off, 8, 8 + SSD_ACCURACY_FDP_ROWS, pg,
					err, errlen);
	*off += fdp_off;
	return rc;
}
