/*
 * sweep_check.c -- a sweep's values checked before any point runs
 * (sweep.h): each value of each axis once, by the code that reads it in
 * the run -- a drive by the preset lookup, a set.KEY value by the
 * config's key check or the scenario's parameter check, a scenario by
 * the registry -- so that a typo is one line naming the sweep file's
 * line, not every point failing later.  What needs the values together
 * (a spare fraction a drive cannot hold) is still the run's to say.
 */
#include "sweep/sweep.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/config.h"
#include "base/util.h"
#include "job/dircopy.h"
#include "methods/preset.h"
#include "methods/scenario.h"

/* A scenario parameter's row, or NULL. */
static const struct ssd_scn_param *param_of(const struct ssd_scenario *sc,
					    const char *name)
{
	for (int i = 0; sc->params && sc->params[i].name; i++)
		if (!strcmp(sc->params[i].name, name))
			return &sc->params[i];
	return NULL;
}

/* "a, b, c" of the registry's scenarios, or of sc's parameters. */
static void names(const struct ssd_scenario *sc, char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; k < n; i++) {
		const char *nm = sc ? sc->params && sc->params[i].name
					      ? sc->params[i].name : NULL
				    : ssd_scenarios[i] ? ssd_scenarios[i]->name
						       : NULL;
		if (!nm)
			break;
		k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "", nm);
	}
	if (!buf[0])
		snprintf(buf, n, "none");
}

/* The job names of job file `path` ([NAME] sections but [global]) into
 * buf, "a, b"; how many there are, -1 if it cannot be read. */
static int job_names(const char *path, const char *want, int *found,
		     char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	struct stat st;
	if (f && (fstat(fileno(f), &st) || !S_ISREG(st.st_mode))) {
		fclose(f); /* a device would be read for ever */
		f = NULL;
	}
	if (!f)
		return -1;
	char l[4096 + 2];
	int count = 0;
	size_t k = 0;
	buf[0] = 0;
	while (fgets(l, sizeof l, f)) {
		char *p = l;
		while (*p == ' ' || *p == '\t')
			p++;
		char *end = strchr(p, ']');
		if (*p != '[' || !end)
			continue;
		*end = 0;
		p++;
		if (!strcmp(p, "global"))
			continue;
		if (!strcmp(p, want))
			*found = 1;
		if (k < n)
			k += (size_t)snprintf(buf + k, n - k, "%s%s",
					      count ? ", " : "", p);
		count++;
	}
	fclose(f);
	return count;
}

/* Value v of axis a (set.KEY): for each scenario of scn (NULL: a job
 * sweep), its parameter KEY checked by the scenario, else the drive key
 * KEY checked by the config, as `--set KEY=v` is read in the run. */
static int check_set(const struct ssd_sweep *s, const struct ssd_sweep_axis *a,
		     const char *v, const struct ssd_sweep_axis *scn,
		     char *err, size_t errlen)
{
	const char *key = a->name + 4;
	char where[512], msg[640], list[512];
	snprintf(where, sizeof where, "%s:%d: %s", s->file, a->line, a->name);
	for (uint32_t k = 0; k < (scn ? scn->n : 1); k++) {
		const struct ssd_scenario *sc =
			scn ? ssd_scenario_find(scn->val[k]) : NULL;
		const struct ssd_scn_param *p = sc ? param_of(sc, key) : NULL;
		int rc;
		if (p) {
			/* the drive is not known here: a size as a share of
			 * it is checked against 1 TiB */
			rc = ssd_scn_param_check(sc, p, v, 1ull << 40, msg,
						 sizeof msg);
			if (rc)
				ssd_seterr(err, errlen, "%s: %s", where, msg);
			if (rc)
				return rc;
			continue;
		}
		struct ssd_config c;
		ssd_config_defaults(&c);
		rc = ssd_config_set(&c, key, v, where, msg, sizeof msg);
		if (rc == SSD_ENOENT && sc) {
			names(sc, list, sizeof list);
			ssd_seterr(err, errlen, "%s: '%s' is neither a parameter "
				   "of scenario %s nor a drive key (accepted "
				   "parameters: %s)", where, key, sc->name, list);
		} else if (rc) {
			ssd_seterr(err, errlen, "%s", msg);
		}
		if (rc)
			return rc;
	}
	return 0;
}

int ssd_sweep_check(const struct ssd_sweep *s, const char *preset_dir,
		    char *err, size_t errlen)
{
	char msg[640], list[512];
	const struct ssd_sweep_axis *scn = NULL, *job = NULL;
	for (uint32_t i = 0; i < s->naxes; i++) {
		if (!strcmp(s->ax[i].name, "scenario"))
			scn = &s->ax[i];
		if (!strcmp(s->ax[i].name, "job"))
			job = &s->ax[i];
	}
	for (uint32_t i = 0; i < s->naxes; i++) {
		const struct ssd_sweep_axis *a = &s->ax[i];
		for (uint32_t k = 0; k < a->n; k++) {
			const char *v = a->val[k];
			if (!strcmp(a->name, "drive")) {
				struct ssd_config c;
				char *path = ssd_sweep_is_file_drive(v)
					? ssd_sweep_path(s, v) : strdup(v);
				int rc = !path ? SSD_ENOMEM
					: ssd_preset_load(preset_dir, path, NULL, 0,
							  &c, msg, sizeof msg);
				free(path);
				if (rc) {
					ssd_seterr(err, errlen, "%s:%d: drive: %s",
						   s->file, a->line, rc == SSD_ENOMEM
						   ? "out of memory" : msg);
					return rc;
				}
			} else if (!strcmp(a->name, "scenario")) {
				if (!ssd_scenario_find(v)) {
					names(NULL, list, sizeof list);
					ssd_seterr(err, errlen, "%s:%d: scenario '%s' is "
						   "not a scenario (accepted: %s)",
						   s->file, a->line, v, list);
					return SSD_ENOENT;
				}
			} else if (!strcmp(a->name, "precondition")) {
				struct ssd_dircopy_opts dc;
				int copy;
				char why[256];
				if (ssd_precondition_parse(v, &copy, &dc, why,
							   sizeof why)) {
					ssd_seterr(err, errlen, "%s:%d: precondition: "
						   "%s (docs/fill.md)",
						   s->file, a->line, why);
					return SSD_EINVAL;
				}
			} else if (!strncmp(a->name, "set.", 4)) {
				int rc = check_set(s, a, v, scn, err, errlen);
				if (rc)
					return rc;
			}
		}
	}
	if (!s->measure || !job)
		return 0;
	for (uint32_t k = 0; k < job->n; k++) {
		char *path = ssd_sweep_path(s, job->val[k]);
		int found = 0;
		int n = path ? job_names(path, s->measure, &found, list,
					 sizeof list) : -1;
		free(path);
		if (n >= 0 && !found) {
			ssd_seterr(err, errlen, "%s:%d: measure '%s' is not a job "
				   "of %s (its jobs: %s)", s->file, s->measure_line,
				   s->measure, job->val[k], n ? list : "none");
			return SSD_EINVAL;
		}
	}
	return 0;
}

