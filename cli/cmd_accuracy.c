/*
 * cmd_accuracy.c -- ssdlab accuracy: the simulated write amplification of
 * uniform random writes in steady state against the analytic models
 * (methods/accuracy.h), as a table.
 */
#include <stdio.h>

#include "cli.h"
#include "methods/accuracy.h"

static const char accuracy_help[] =
	"usage: ssdlab accuracy [--drive NAME] [--set K=V]... [--seed N] [--quick]\n"
	"Simulated write amplification of uniform random 4 KiB writes in steady\n"
	"state against the analytic models (greedy: mean-field with finite\n"
	"blocks; FIFO: Desnoyers' closed form), at 7% and 28% OP, 64 and 256\n"
	"pages per block; then flexible data placement's oracle: a log dying\n"
	"whole and a random region, each on a handle of its own, within 2% of\n"
	"ideally separated streams.  The drive defaults to 'accuracy' (2 GiB,\n"
	"4 KiB pages).\n"
	"--quick halves the preconditioning and measuring volume.\n"
	"\n"
	CLI_ETA_HELP;

/* the drive units of preconditioning and of measuring */
struct accuracy_args {
	double pre, meas;
};

static const struct cli_opt accuracy_opts[] = {
	{"--quick", NULL, 0, 0},
	{NULL, NULL, 0, 0}};

/* --quick, or an argument (accuracy takes none) */
static int accuracy_opt(void *ctx, int id, const char *val)
{
	struct accuracy_args *a = ctx;
	if (id == CLI_ARG)
		return cli_unknown(val);
	a->pre = 3;
	a->meas = 2;
	return CLI_GO;
}

static const struct cli_cmd accuracy_cmd = {
	.shared = CLI_DRIVE | CLI_SET | CLI_SEED | CLI_ETA,
	.opts = accuracy_opts, .help = accuracy_help, .fn = accuracy_opt};

int cmd_accuracy(int argc, char **argv)
{
	struct cli d = {.seed = 1};
	struct accuracy_args a = {.pre = 4, .meas = 4};
	int rc = cli_parse(&accuracy_cmd, &d, argc, argv, 1, &a);
	if (rc != CLI_GO)
		return rc;
	if (!d.drive)
		d.drive = "accuracy";
	struct ssd_config base;
	rc = cli_load_drive(&d, &base);
	if (rc)
		return rc;
	char err[512];
	int off = 0;
	struct ssd_prog pg;
	struct ssd_prog *line = cli_eta_begin(&d, "accuracy", &pg);
	rc = ssd_accuracy_table(&base, a.pre, a.meas, d.seed, stdout, &off, line,
				err, sizeof err);
	ssd_eta_end(&d.eta);
	if (rc) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		return 1;
	}
	return off ? 1 : 0;
}
