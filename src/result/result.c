/*
 * result.c -- what concerns a run's result by itself (result.h): its
 * figures finished once the jobs have ended, a job's figures started
 * over, the machine's nodes read into it, and freeing it.  The runner
 * (run/sim.h) fills the rest as the jobs run.
 */
#include "result/result.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/device.h"

void ssd_job_result_free(struct ssd_job_result *j)
{
	ssd_ss_free(&j->ss);
	if (j->series) {
		ssd_series_free(j->series);
		free(j->series);
		j->series = NULL;
	}
}

void ssd_run_result_free(struct ssd_run_result *r)
{
	for (int i = 0; i < r->njobs; i++)
		ssd_job_result_free(&r->jobs[i]);
	free(r->jobs);
	r->jobs = NULL;
	r->njobs = 0;
	free(r->nodes);
	r->nodes = NULL;
	r->nnodes = 0;
}

void ssd_run_result_finish(struct ssd_run_result *r)
{
	for (int i = 0; i < r->njobs; i++) {
		struct ssd_job_result *j = &r->jobs[i];
		for (int d = 0; d < SSD_DDIR_N; d++)
			ssd_dstat_finish(&j->dir[d],
					 ssd_job_result_dir_runtime(j, d));
		ssd_dstat_finish(&j->sync, j->runtime_ns);
	}
}

void ssd_job_result_restart(struct ssd_job_result *res)
{
	for (int d = 0; d < SSD_DDIR_N; d++) {
		int64_t w = res->dir[d].win_ns;
		memset(&res->dir[d], 0, sizeof res->dir[d]);
		res->dir[d].win_ns = w;
	}
	int64_t w = res->sync.win_ns;
	memset(&res->sync, 0, sizeof res->sync);
	res->sync.win_ns = w;
	memset(res->depth, 0, sizeof res->depth);
	res->lat_over_1s = 0;
}

int ssd_run_snapshot_nodes(const struct ssd_dev *dev, struct ssd_run_result *res)
{
	int n = 0, depth;
	while (ssd_dev_node(dev, n, NULL))
		n++;
	if (!n)
		return 0;
	res->nodes = calloc((size_t)n, sizeof *res->nodes);
	if (!res->nodes)
		return SSD_ENOMEM;
	res->nnodes = n;
	for (int i = 0; i < n; i++) {
		const struct ssd_blk *b = ssd_dev_node(dev, i, &depth);
		struct ssd_node_result *x = &res->nodes[i];
		snprintf(x->name, sizeof x->name, "%s", b->name);
		x->kind = b->ops->kind;
		x->depth = depth;
		x->capacity = b->capacity;
		x->io = b->io;
		while (b->ops->stat && x->nrows < SSD_NODE_ROWS &&
		       b->ops->stat(b, x->nrows, &x->rows[x->nrows]))
			x->nrows++;
	}
	return 0;
}

