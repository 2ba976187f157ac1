/*
 * preset.c -- finding the drive presets (preset.h).
 */
#include "methods/preset.h"
#include "machine/stack.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

#ifndef SSDLAB_PRESET_DIR
#define SSDLAB_PRESET_DIR "presets"
#endif

const char *ssd_preset_dir(const char *exe_dir, char *buf, size_t n)
{
	const char *env = getenv("SSDLAB_PRESETS");
	if (env && *env)
		return env;
	/* beside the binary (a moved checkout), then where `make install`
	 * puts them beside PREFIX/bin (a moved installed tree) */
	static const char *const rel[] = { "presets", "../share/ssdlab/presets" };
	for (int i = 0; exe_dir && *exe_dir && i < 2; i++) {
		int k = snprintf(buf, n, "%s/%s", exe_dir, rel[i]);
		if (k > 0 && (size_t)k < n && access(buf, R_OK) == 0)
			return buf;
	}
	return SSDLAB_PRESET_DIR;
}

void ssd_preset_path(const char *dir, const char *name, char *path, size_t n)
{
	size_t len = strlen(name);
	if (strchr(name, '/') || (len >= 4 && !strcmp(name + len - 4, ".ini")))
		snprintf(path, n, "%s", name);
	else
		snprintf(path, n, "%s/%s.ini", dir, name);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void ssd_preset_list_free(char **names, int n)
{
	for (int i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

#define PRESET_MAX 512

int ssd_preset_list(const char *dir, char ***names, int *n, char *err,
		    size_t errlen)
{
	*names = NULL;
	*n = 0;
	DIR *dp = opendir(dir);
	if (!dp) {
		ssd_seterr(err, errlen, "cannot open preset directory '%s': %s",
			   dir, strerror(errno));
		return SSD_EIO;
	}
	char **v = calloc(PRESET_MAX, sizeof *v);
	int k = 0, rc = v ? 0 : SSD_ENOMEM;
	struct dirent *e;
	while (!rc && (e = readdir(dp)) && k < PRESET_MAX) {
		size_t len = strlen(e->d_name);
		if (len <= 4 || strcmp(e->d_name + len - 4, ".ini"))
			continue;
		if (!(v[k] = strdup(e->d_name))) {
			rc = SSD_ENOMEM;
			break;
		}
		v[k++][len - 4] = 0;
	}
	closedir(dp);
	if (rc) {
		ssd_preset_list_free(v, k);
		ssd_seterr(err, errlen, "%s", ssd_strerror(rc));
		return rc;
	}
	qsort(v, (size_t)k, sizeof v[0], cmp_name);
	*names = v;
	*n = k;
	return 0;
}

int ssd_preset_load(const char *dir, const char *name,
		    const char *const *sets, int nsets, struct ssd_config *c,
		    char *err, size_t errlen)
{
	int rc = ssd_config_open(c, name, dir, err, errlen);
	return rc ? rc : ssd_preset_sets(sets, nsets, c, err, errlen);
}

int ssd_preset_sets(const char *const *sets, int nsets, struct ssd_config *c,
		    char *err, size_t errlen)
{
	int rc = 0;
	for (int i = 0; !rc && i < nsets; i++) {
		char kv[512];
		snprintf(kv, sizeof kv, "%s", sets[i]);
		char *eq = strchr(kv, '=');
		if (!eq) {
			ssd_seterr(err, errlen, "--set needs KEY=VALUE, got '%s'",
				   sets[i]);
			return SSD_EPARSE;
		}
		*eq = 0;
		rc = ssd_config_set(c, ssd_strtrim(kv), ssd_strtrim(eq + 1),
				    "--set", err, errlen);
	}
	if (!rc)
		rc = ssd_config_fit(c, err, errlen);
	if (!rc)
		rc = ssd_stack_check(c, err, errlen);
	return rc;
}
