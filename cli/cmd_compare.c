/*
 * cmd_compare.c -- ssdlab compare A B: two results side by side, and
 * where the difference comes from (sweep/compare.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ofile.h"
#include "cli.h"
#include "sweep/compare.h"

static const char compare_help[] =
	"usage: ssdlab compare A B [--output-format normal|json] [--output FILE]\n"
	"Two results side by side: each is what 'ssdlab run\n"
	"--output-format=json' wrote, a sweep point's folder, or a scenario's\n"
	"result.json or folder.  Two runs: the drive keys that differ, each\n"
	"job's IOPS, bandwidth, latency and WAF with B-A and B/A, the NAND\n"
	"writes per host page by cause (GC copies, padding, SLC folding, wear\n"
	"leveling, map pages) and what slows commands (stalls, map-page\n"
	"reads, read retries).  Two scenarios: every figure.  docs/sweeps.md.\n"
	"\n"
	"  --output-format FMT     normal (default) or json\n"
	"  --output FILE           write to FILE instead of stdout\n"
	"  --help                  this text\n";

struct compare_args {
	const char *path[2];
	int n;
};

static int compare_opt(void *ctx, int id, const char *val)
{
	struct compare_args *a = ctx;
	if (id == CLI_ARG) {
		if (a->n == 2)
			return cli_usage("compare takes two results, got a third: '%s'", val);
		a->path[a->n++] = val;
	}
	return CLI_GO;
}

static const struct cli_cmd compare_cmd = {
	.shared = CLI_FORMAT | CLI_OUTPUT, .help = compare_help,
	.check_format = cli_format_normal_json, .fn = compare_opt};

int cmd_compare(int argc, char **argv)
{
	struct cli d = {0};
	struct compare_args a = {0};
	int rc = cli_parse(&compare_cmd, &d, argc, argv, 1, &a);
	if (rc != CLI_GO)
		return rc;
	if (a.n != 2)
		return cli_usage("compare needs two results (ssdlab compare A B)");
	char err[1024];
	FILE *out = stdout;
	struct ssd_ofile *of = NULL;
	if (d.output && ssd_ofile_open(d.output, SSD_OFILE_REPLACE, &of, err,
				       sizeof err)) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		return EXIT_USAGE;
	}
	if (of)
		out = ssd_ofile_stream(of);
	rc = ssd_compare(a.path[0], a.path[1],
			 d.format && !strcmp(d.format, "json"), out, err,
			 sizeof err);
	if (rc) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		ssd_ofile_discard(of);
		return EXIT_USAGE;
	}
	if (ssd_ofile_commit(of, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		return 1;
	}
	return 0;
}
