/*
 * cmd_sweep.c -- ssdlab sweep plan|run|collect: a study of many runs
 * (sweep/sweep.h, docs/sweeps.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "sweep/sweep.h"

static const char sweep_help[] =
	"usage: ssdlab sweep plan SWEEP [--dir DIR]\n"
	"       ssdlab sweep run SWEEP [--dir DIR] [--points LIST] [-j N]\n"
	"                              [--retry-failed]\n"
	"       ssdlab sweep collect SWEEP [--dir DIR]\n"
	"A parameter sweep: the sweep file names axes (drives, drive keys or\n"
	"scenario parameters, job files or scenarios, preconditioning, seeds)\n"
	"and how they combine; each point is one run with an id derived from\n"
	"what it runs.  plan writes DIR/manifest.tsv, a line per point; run\n"
	"runs the points that have not ended, each in DIR/points/ID (a point\n"
	"that ended, done or failed, is skipped; one cut short runs again);\n"
	"collect merges them into DIR/results.csv and DIR/results.jsonl, a\n"
	"row per point, and lists what failed or is missing.  GNU parallel\n"
	"and Slurm run points the same way: docs/sweeps.md.\n"
	"\n"
	"  --dir DIR               where the sweep's files go (default\n"
	"                          ssdlab-out/sweep-NAME, NAME the sweep's)\n"
	"  --points LIST           run: these point indices only (3,5-9)\n"
	"  -j, --jobs N            run: up to N points at once (default 1)\n"
	"  --retry-failed          run: run failed points again\n"
	"  --help                  this text\n"
	"\n"
	"Exit status: 0; 1 if a point failed (run) or a point failed or is\n"
	"missing (collect; the files are written either way); 2 for a usage\n"
	"or input error.\n";

struct sweep_args {
	const char *verb, *file, *dir, *points;
	int jobs, retry;
};

enum { S_DIR, S_POINTS, S_JOBS, S_RETRY };

static const struct cli_opt sweep_opts[] = {
	{"--dir", NULL, 1, S_DIR},
	{"--points", NULL, 1, S_POINTS},
	{"--jobs", "-j", 1, S_JOBS},
	{"--retry-failed", NULL, 0, S_RETRY},
	{NULL, NULL, 0, 0}};

static int sweep_opt(void *ctx, int id, const char *val)
{
	struct sweep_args *a = ctx;
	uint64_t n;
	switch (id) {
	case S_DIR:
		a->dir = val;
		return CLI_GO;
	case S_POINTS:
		a->points = val;
		return CLI_GO;
	case S_JOBS:
		if (cli_u64("--jobs", val, &n))
			return EXIT_USAGE;
		if (n < 1 || n > 1024)
			return cli_usage("--jobs needs 1..1024, got '%s'", val);
		a->jobs = (int)n;
		return CLI_GO;
	case S_RETRY:
		a->retry = 1;
		return CLI_GO;
	case CLI_ARG:
		if (!a->verb) {
			if (strcmp(val, "plan") && strcmp(val, "run") &&
			    strcmp(val, "collect"))
				return cli_usage("unknown sweep command '%s' "
						 "(accepted: plan, run, collect)",
						 val);
			a->verb = val;
		} else if (!a->file) {
			a->file = val;
		} else {
			return cli_usage("more than one sweep file: '%s'", val);
		}
		return CLI_GO;
	}
	return CLI_GO;
}

static const struct cli_cmd sweep_cmd = {
	.opts = sweep_opts, .help = sweep_help, .fn = sweep_opt};

/* The binary the points run: this one. */
static int self_exe(char *buf, size_t n)
{
	ssize_t k = readlink("/proc/self/exe", buf, n - 1);
	if (k <= 0)
		return -1;
	buf[k] = 0;
	return 0;
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_args a = {.jobs = 1};
	struct cli d = {0};
	int rc = cli_parse(&sweep_cmd, &d, argc, argv, 1, &a);
	if (rc != CLI_GO)
		return rc;
	if (!a.verb || !a.file)
		return cli_usage("sweep needs a command and a sweep file "
				 "(ssdlab sweep plan|run|collect SWEEP)");
	if (strcmp(a.verb, "run") && (a.points || a.jobs != 1 || a.retry))
		return cli_usage("--points, --jobs and --retry-failed go with "
				 "'sweep run'");
	char err[1024];
	struct ssd_sweep *s;
	if (ssd_sweep_load(a.file, &s, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		return EXIT_USAGE;
	}
	char dir[4096];
	if (a.dir)
		snprintf(dir, sizeof dir, "%s", a.dir);
	else
		snprintf(dir, sizeof dir, "ssdlab-out/sweep-%s", s->name);
	rc = 0;
	if (!strcmp(a.verb, "plan")) {
		rc = ssd_sweep_plan(s, dir, err, sizeof err);
		if (!rc)
			printf("%u points: %s/manifest.tsv\n", s->npoints, dir);
	} else if (!strcmp(a.verb, "run")) {
		uint8_t *sel = NULL;
		char exe[4096];
		if (a.points) {
			sel = malloc(s->npoints ? s->npoints : 1);
			if (!sel) {
				snprintf(err, sizeof err, "out of memory");
				rc = -1;
			} else if (ssd_sweep_select(s, a.points, sel, err,
						    sizeof err)) {
				fprintf(stderr, "%s: %s\n", cli_prog, err);
				free(sel);
				ssd_sweep_free(s);
				return EXIT_USAGE;
			}
		}
		if (!rc && self_exe(exe, sizeof exe)) {
			snprintf(err, sizeof err, "cannot find the ssdlab binary "
				 "(/proc/self/exe)");
			rc = -1;
		}
		uint32_t failed = 0;
		if (!rc)
			rc = ssd_sweep_plan(s, dir, err, sizeof err);
		if (!rc)
			rc = ssd_sweep_run(s, dir, exe, sel, a.jobs, a.retry, stdout,
					   &failed, err, sizeof err);
		free(sel);
		if (!rc && failed) {
			ssd_sweep_free(s);
			fprintf(stderr, "%s: %u point%s failed (their errors: "
				"DIR/points/ID/error.txt, and 'sweep collect')\n",
				cli_prog, failed, failed == 1 ? "" : "s");
			return 1;
		}
	} else {
		uint32_t done, failed, missing;
		rc = ssd_sweep_collect(s, dir, stdout, &done, &failed, &missing,
				       err, sizeof err);
		if (!rc) {
			printf("%u points: %u done, %u failed, %u missing: "
			       "%s/results.csv, %s/results.jsonl\n", s->npoints,
			       done, failed, missing, dir, dir);
			if (failed || missing)
				rc = 1;
		}
		if (rc == 1) {
			ssd_sweep_free(s);
			return 1;
		}
	}
	ssd_sweep_free(s);
	if (rc) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		return 1;
	}
	return 0;
}
