/*
 * preset.h -- finding the drive presets.
 *
 * A drive is named by a preset NAME (the file NAME.ini in the preset
 * directory) or by the path of an .ini file (anything with a '/' or
 * ending in ".ini").  The preset directory is, in this order:
 *
 *   1. $SSDLAB_PRESETS, when set and not empty;
 *   2. DIR/presets, then DIR/../share/ssdlab/presets, when readable, for
 *      a directory DIR the caller gives (the tool passes the directory of
 *      its own binary, so a moved checkout, and an installed tree moved
 *      after `make install`, still find their presets; the library does
 *      not look for its binary itself);
 *   3. the compiled-in SSDLAB_PRESET_DIR.
 */
#ifndef SSD_PRESET_H
#define SSD_PRESET_H

#include <stddef.h>

#include "base/config.h"

/* The preset directory by the order above; exe_dir may be NULL (skip
 * step 2).  Returns the environment's string, buf (n bytes) or the
 * compiled-in string. */
const char *ssd_preset_dir(const char *exe_dir, char *buf, size_t n);

/* The file of drive `name` (a preset name or a path) in path[n]. */
void ssd_preset_path(const char *dir, const char *name, char *path, size_t n);

/* The preset names in dir (NAME of every NAME.ini, at most 512), in name
 * order: *names is a malloc'd array of *n malloc'd strings (free with
 * ssd_preset_list_free).  Returns 0, SSD_EIO ("cannot open preset
 * directory ..." in err) or SSD_ENOMEM. */
int ssd_preset_list(const char *dir, char ***names, int *n, char *err,
		    size_t errlen);
void ssd_preset_list_free(char **names, int n);

/* The drive a user named: preset or file, then the overrides sets[i]
 * ("KEY=VALUE", as --set), then ssd_config_fit (adapting the preset's
 * shape to an overridden capacity).  Returns 0 or the config's error
 * with its message in err. */
int ssd_preset_load(const char *dir, const char *name,
		    const char *const *sets, int nsets, struct ssd_config *c,
		    char *err, size_t errlen);

/* The overrides and the fit of ssd_preset_load over a drive *c already
 * loaded (a snapshot's). */
int ssd_preset_sets(const char *const *sets, int nsets, struct ssd_config *c,
		    char *err, size_t errlen);

#endif
