/*
 * t_sim.c -- t_sim.h.
 */
#include "t_sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "job/job.h"

int t_sim_set(struct ssd_config *c, const char *const *sets, int n,
	      char *err, size_t errlen)
{
	for (int i = 0; i < n; i++) {
		char k[64];
		const char *eq = strchr(sets[i], '=');
		if (!eq) {
			ssd_seterr(err, errlen, "not KEY=VALUE: '%s'", sets[i]);
			return SSD_EINVAL;
		}
		snprintf(k, sizeof k, "%.*s", (int)(eq - sets[i]), sets[i]);
		int rc = ssd_config_set(c, k, eq + 1, NULL, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}

int t_sim_config(struct ssd_config *c, const char *preset,
		 const char *const *sets, int n, char *err, size_t errlen)
{
	int rc = 0;
	if (preset)
		rc = ssd_config_open(c, preset, SSDLAB_PRESET_DIR, err, errlen);
	else
		ssd_config_defaults(c);
	if (!rc)
		rc = t_sim_set(c, sets, n, err, errlen);
	if (!rc)
		rc = ssd_config_finish(c, err, errlen);
	return rc;
}

struct ssd_dev *t_sim_drive(const char *preset, const char *const *sets,
			    int n, char *err, size_t errlen)
{
	struct ssd_config c;
	struct ssd_dev *d = NULL;
	if (t_sim_config(&c, preset, sets, n, err, errlen))
		return NULL;
	int rc = ssd_dev_create(&c, 1, &d);
	if (rc) {
		ssd_seterr(err, errlen, "%s: %s", preset ? preset : "defaults",
			   ssd_strerror(rc));
		return NULL;
	}
	return d;
}

int t_sim_run(struct ssd_dev *d, const char *text, struct ssd_run_result *res,
	      char *err, size_t errlen)
{
	struct ssd_job *jobs = NULL;
	int n = 0;
	memset(res, 0, sizeof *res);
	int rc = ssd_jobfile_parse_string(text, "t.fio", ssd_dev_capacity(d),
					  &jobs, &n, err, errlen);
	if (!rc)
		rc = ssd_sim_run(d, jobs, n, 1, res, err, errlen);
	free(jobs);
	return rc;
}
