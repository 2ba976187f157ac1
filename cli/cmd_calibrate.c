/*
 * cmd_calibrate.c -- ssdlab calibrate: the presets of real drives measured
 * the way the seed reviews measured the drives, against the reviews'
 * figures (methods/calibrate.h).
 */
#include <stdio.h>

#include "cli.h"
#include "methods/calibrate.h"

static const char calibrate_help[] =
	"usage: ssdlab calibrate [--drive NAME|FILE.ini]... [--set K=V]... [options]\n"
	"Measure the presets of real drives the way the seed reviews measured\n"
	"the drives, and compare with the reviews' figures (the '# ref' lines of\n"
	"each preset).  Without --drive: every preset that has '# ref' lines.\n"
	"docs/calibration.md explains each figure's measurement.\n"
	"\n"
	"  --drive NAME|FILE.ini   a drive to calibrate (repeatable)\n"
	"  --set KEY=VALUE         override a drive key of every drive (repeatable)\n"
	"  --fill PROCEDURE        fill the drive of the full-drive figures with\n"
	"                          it, whatever each drive file names:\n"
	"                          sequential (128 KiB writes end to end) or\n"
	"                          dircopy (directories of files copied until\n"
	"                          full, as seed 003's reviewers did)\n"
	"  --quick                 small slices and scaled-down drives (tests)\n"
	"  --markdown              print the table as Markdown\n"
	"  --seed N                seed of the runs (default 1)\n"
	CLI_ETA_HELP
	"  --help                  this text\n"
	"\n"
	"The column 'fill' says what filled each figure's drive before it was\n"
	"measured: '-' (a fresh drive), sequential, dircopy or random (4 KiB\n"
	"random writes over the span); a drive file names the procedure of\n"
	"its full-drive figures on a line '# fill PROCEDURE: why'.\n";

struct calibrate_args {
	int quick, markdown, fill;
};

enum { C_QUICK, C_MARKDOWN, C_FILL };

static const struct cli_opt calibrate_opts[] = {
	{"--quick", NULL, 0, C_QUICK},
	{"--markdown", NULL, 0, C_MARKDOWN},
	{"--fill", NULL, 1, C_FILL},
	{NULL, NULL, 0, 0}};

static int calibrate_opt(void *ctx, int id, const char *val)
{
	struct calibrate_args *a = ctx;
	switch (id) {
	case C_QUICK:
		a->quick = 1;
		return CLI_GO;
	case C_MARKDOWN:
		a->markdown = 1;
		return CLI_GO;
	case C_FILL:
		if ((a->fill = ssd_cal_fill_find(val)) < 0)
			return cli_usage("--fill: unknown procedure '%s' "
					 "(accepted: sequential, dircopy)", val);
		return CLI_GO;
	}
	return cli_usage("calibrate takes no arguments, got '%s' (use --drive)", val);
}

static const struct cli_cmd calibrate_cmd = {
	.shared = CLI_DRIVES | CLI_SET | CLI_SEED | CLI_ETA,
	.opts = calibrate_opts, .help = calibrate_help, .fn = calibrate_opt};

int cmd_calibrate(int argc, char **argv)
{
	struct cli d = {.seed = 1};
	struct calibrate_args a = {0};
	int rc = cli_parse(&calibrate_cmd, &d, argc, argv, 1, &a);
	if (rc != CLI_GO)
		return rc;
	struct ssd_cal_table t = {
		.preset_dir = cli_preset_dir(), .drives = d.drives,
		.ndrives = d.ndrives, .sets = d.sets, .nsets = d.nsets,
		.markdown = a.markdown,
		.opts = {.quick = a.quick, .seed = d.seed, .fill = a.fill},
		.out = stdout, .msg = stderr, .prefix = cli_prog};
	struct ssd_cal_verdict v;
	char err[1024];
	int input = 0;
	struct ssd_prog pg;
	t.opts.prog = cli_eta_begin(&d, "calibrate", &pg);
	rc = ssd_cal_table_run(&t, &v, &input, err, sizeof err);
	ssd_eta_end(&d.eta);
	if (rc) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		return input ? EXIT_USAGE : 1;
	}
	return v.failed ? 1 : 0;
}
