/*
 * cmd_life.c -- ssdlab life: how long the drive lasts, from the write
 * amplification of a workload measured on a fresh drive, or measured to
 * the end with --accelerated (methods/life.h; docs/lifetime.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ofile.h"
#include "cli.h"
#include "methods/life.h"

static const char life_help[] =
	"usage: ssdlab life [options]\n"
	"How long the drive lasts: measure the write amplification of a\n"
	"workload on a fresh drive, divide the flash's rated endurance by it\n"
	"(TBW), and turn that into years at a daily write volume; beside it the\n"
	"2008 essay's arithmetic, capacity x cycles / 2.  docs/lifetime.md.\n"
	"\n"
	"  --drive NAME|FILE.ini   drive preset or file (default: default;\n"
	"                          with --accelerated: " SSD_LIFE_ACCEL_DRIVE ")\n"
	"  --set KEY=VALUE         override a drive key (repeatable)\n"
	"  --daily SIZE            host writes per day (default 20g)\n"
	"  --job FILE.fio          the workload: its last stonewall group is\n"
	"                          measured, the jobs before it precondition\n"
	"                          (default: fill, then random 4 KiB writes)\n"
	"  --accelerated           endurance run: pe_cycles=" SSD_LIFE_ACCEL_PE_CYCLES
	", pe_spread=" SSD_LIFE_ACCEL_PE_SPREAD ",\n"
	"                          wl_threshold=" SSD_LIFE_ACCEL_WL_THRESHOLD "\n"
	"                          (before --set), then write until the drive\n"
	"                          turns read-only and compare with the estimate\n"
	"  --seed N                seed of the run (default 1)\n"
	"  --output-format FMT     normal (default) or json\n"
	"  --output FILE           write the report to FILE instead of stdout\n"
	CLI_ETA_HELP
	"  --help                  this text\n";

struct life_args {
	const char *jobfile;        /* --job, or NULL */
	uint64_t daily;             /* --daily, bytes */
	int accelerated;
};

enum { L_ACCELERATED, L_DAILY, L_JOB };

static const struct cli_opt life_opts[] = {
	{"--accelerated", NULL, 0, L_ACCELERATED},
	{"--daily", NULL, 1, L_DAILY},
	{"--job", NULL, 1, L_JOB},
	{NULL, NULL, 0, 0}};

static int life_opt(void *ctx, int id, const char *val)
{
	struct life_args *a = ctx;
	switch (id) {
	case L_ACCELERATED:
		a->accelerated = 1;
		return CLI_GO;
	case L_DAILY:
		if (ssd_parse_size(val, &a->daily) || !a->daily)
			return cli_usage("--daily needs a size above 0 (like 20g or 500m), got '%s'", val);
		return CLI_GO;
	case L_JOB:
		a->jobfile = val;
		return CLI_GO;
	}
	return cli_usage("life takes no arguments, got '%s'", val);
}

static const struct cli_cmd life_cmd = {
	.shared = CLI_DRIVE | CLI_SET | CLI_SEED | CLI_FORMAT | CLI_OUTPUT |
		  CLI_ETA,
	.opts = life_opts, .flags = CLI_DASH_ARG, .help = life_help,
	.check_format = cli_format_normal_json, .fn = life_opt};

int cmd_life(int argc, char **argv)
{
	struct cli d = {.seed = 1};
	struct life_args a = {.daily = 20ULL << 30};
	int rc = cli_parse(&life_cmd, &d, argc, argv, 1, &a);
	if (rc != CLI_GO)
		return rc;
	const char *jobfile = a.jobfile;
	int accelerated = a.accelerated;
	if (accelerated && d.nsets + SSD_LIFE_ACCEL_NKEYS > CLI_MAX_ARGS)
		return cli_usage("too many --set options");
	struct ssd_config cfg;
	char err[512];
	if (ssd_life_config(cli_preset_dir(), d.drive, d.sets, d.nsets,
			    accelerated, &cfg, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		return EXIT_USAGE;
	}
	struct ssd_job *jobs = NULL;
	int njobs = 0;
	rc = ssd_life_jobs(jobfile, ssd_config_volume(&cfg), &jobs, &njobs, err,
			   sizeof err);
	if (rc) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		return EXIT_USAGE;
	}
	FILE *out = stdout;
	struct ssd_ofile *of = NULL;
	if (d.output && ssd_ofile_open(d.output, SSD_OFILE_REPLACE, &of, err,
				       sizeof err)) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		free(jobs);
		return EXIT_USAGE;
	}
	if (of)
		out = ssd_ofile_stream(of);
	int json = d.format && !strcmp(d.format, "json");
	struct ssd_prog pg;
	struct ssd_prog *line = cli_eta_begin(&d, "life", &pg);
	rc = ssd_life_report_run(&cfg, jobs, njobs, jobfile, d.seed,
				 accelerated, (double)a.daily, json, out, line,
				 err, sizeof err);
	ssd_eta_end(&d.eta);
	if (rc) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		ssd_ofile_discard(of); /* no report: the file as it was */
	} else if (ssd_ofile_commit(of, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		rc = SSD_EIO;
	}
	free(jobs);
	return rc ? 1 : 0;
}
