/*
 * t_sim.c -- t_sim.h.
 */
#include "t_sim.h"

#include <stdlib.h>
#include <string.h>

#include "job/job.h"

int t_sim_run(struct ssd_dev *d, const char *text, struct ssd_run_result *res,
	      char *err, size_t errlen)
{
	struct ssd_job *jobs = NULL;
	int n = 0;
	memset(res, 0, sizeof *res);
	int rc = ssd_jobfile_parse_string(text, "t.fio", d->cfg.capacity,
					  &jobs, &n, err, errlen);
	if (!rc)
		rc = ssd_sim_run(d, jobs, n, 1, res, err, errlen);
	free(jobs);
	return rc;
}
