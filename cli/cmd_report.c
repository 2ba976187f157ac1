/*
 * cmd_report.c -- ssdlab report sweep DIR: a sweep's table as one HTML
 * page (report/html.h, docs/report.md).  A run's page is `run --html
 * FILE`, a scenario's is written by `scenario run` beside its
 * result.json; a sweep's table is collected by `sweep collect`, and
 * this turns it into a page afterwards.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/ofile.h"
#include "cli.h"
#include "report/html.h"

static const char report_help[] =
	"usage: ssdlab report sweep DIR [--out FILE]\n"
	"A sweep's results as one self-contained HTML page: DIR/results.jsonl\n"
	"(written by 'ssdlab sweep collect') into DIR/report.html, or FILE:\n"
	"the points by status, the main figures as charts against the first\n"
	"numeric axis that varies, and the table (docs/report.md).\n"
	"\n"
	"  --out FILE              write the page to FILE (default\n"
	"                          DIR/report.html)\n"
	"  --help                  this text\n"
	"\n"
	"Exit status: 0; 1 if the page cannot be written; 2 for a usage or\n"
	"input error (no results.jsonl, or one that does not read).\n";

struct report_args {
	const char *verb, *dir, *out;
};

enum { RP_OUT };

static const struct cli_opt report_opts[] = {
	{"--out", NULL, 1, RP_OUT},
	{NULL, NULL, 0, 0}};

static int report_opt(void *ctx, int id, const char *val)
{
	struct report_args *a = ctx;
	switch (id) {
	case RP_OUT:
		a->out = val;
		return CLI_GO;
	}
	if (!a->verb)
		a->verb = val;
	else if (!a->dir)
		a->dir = val;
	else
		return cli_usage("report: one directory, got '%s' as well", val);
	return CLI_GO;
}

static const struct cli_cmd report_cmd = {
	.opts = report_opts, .help = report_help, .fn = report_opt};

int cmd_report(int argc, char **argv)
{
	struct cli c = {0};
	struct report_args a = {0};
	int rc = cli_parse(&report_cmd, &c, argc, argv, 1, &a);
	if (rc != CLI_GO)
		return rc;
	if (!a.verb)
		return cli_usage("report needs what to report (accepted: sweep)");
	if (strcmp(a.verb, "sweep"))
		return cli_usage("unknown report '%s' (accepted: sweep)", a.verb);
	if (!a.dir)
		return cli_usage("report sweep needs the sweep's directory");
	char path[4096], err[640];
	/* the table is there to read before a page is made */
	snprintf(path, sizeof path, "%s/results.jsonl", a.dir);
	if (access(path, R_OK)) {
		fprintf(stderr, "%s: cannot read '%s': %s (run 'ssdlab sweep "
			"collect' first)\n", cli_prog, path, strerror(errno));
		return EXIT_USAGE;
	}
	if (a.out)
		snprintf(path, sizeof path, "%s", a.out);
	else
		snprintf(path, sizeof path, "%s/report.html", a.dir);
	struct ssd_ofile *of = NULL;
	if (ssd_ofile_open(path, SSD_OFILE_REPLACE, &of, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		return 1;
	}
	rc = ssd_html_sweep(ssd_ofile_stream(of), a.dir, err, sizeof err);
	if (rc) {
		ssd_ofile_discard(of);
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		return rc == SSD_EIO || rc == SSD_EPARSE ? EXIT_USAGE : 1;
	}
	if (ssd_ofile_commit(of, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		return 1;
	}
	printf("%s\n", path);
	return 0;
}
