/*
 * common.c -- what the commands of ssdlab share besides their options:
 * where the presets are, the drive a command runs on (a preset or file
 * with --set, or a snapshot's), the status line, the wall clock.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "machine/snapshot.h"
#include "methods/preset.h"

double cli_wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The binary's directory is found here, the rest is methods/preset.h's. */
const char *cli_preset_dir(void)
{
	static char exe[PATH_MAX], buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 16);
	char *slash = n > 0 ? (exe[n] = 0, strrchr(exe, '/')) : NULL;
	if (slash)
		*slash = 0;
	return ssd_preset_dir(slash ? exe : NULL, buf, sizeof buf);
}

/* Preset or file, then --set overrides, then derive (adapting the
 * preset's shape to an overridden capacity). */
int cli_load_drive(const struct cli *c, struct ssd_config *cfg)
{
	char err[512];
	if (ssd_preset_load(cli_preset_dir(), c->drive ? c->drive : "default",
			    c->sets, c->nsets, cfg, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		return EXIT_USAGE;
	}
	return 0;
}

int cli_snapshot_drive(const struct cli *c, const char *snap,
		       struct ssd_config *cfg)
{
	char err[640];
	int rc;
	if (c->drive) {
		if ((rc = cli_load_drive(c, cfg)))
			return rc;
	} else if ((rc = ssd_snapshot_drive(snap, cfg, err, sizeof err)) ||
		   (rc = ssd_preset_sets(c->sets, c->nsets, cfg, err, sizeof err))) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		return rc == SSD_EIO || rc == SSD_ENOMEM ? 1 : EXIT_USAGE;
	}
	if ((rc = ssd_snapshot_check(snap, cfg, err, sizeof err))) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		return rc == SSD_EIO || rc == SSD_ENOMEM ? 1 : EXIT_USAGE;
	}
	return 0;
}

struct ssd_prog *cli_eta_begin(struct cli *c, const char *label,
			       struct ssd_prog *pg)
{
	c->eta.label = label;
	if (!ssd_eta_start(&c->eta, stderr))
		return NULL;
	*pg = (struct ssd_prog){.fn = ssd_eta_progress, .ctx = &c->eta};
	return pg;
}
