/*
 * main.c -- the ssdlab command: the command named on the line run
 * (cmd_*.c, over the one option parser of opt.c), and standard output
 * checked as the process ends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ssdlab.h"        /* SSDLAB_VERSION */
#include "base/ofile.h"
#include "cli.h"

const char cli_prog[] = "ssdlab";
int cli_stdout_reported;

static const char main_help[] =
	"usage: ssdlab [COMMAND] [ARGS]\n"
	"A simulated flash SSD: NAND, controller and FTL, page by page.\n"
	"\n"
	"  ssdlab                      the demo: the steady-state scenario with its chart\n"
	"  ssdlab run JOB.fio [...]    run an fio job file on a simulated drive\n"
	"  ssdlab drives               list drive presets\n"
	"  ssdlab drive show NAME      print every key of a drive\n"
	"  ssdlab drive doc            the drive key reference (Markdown)\n"
	"  ssdlab job doc              the job-file option reference (Markdown)\n"
	"  ssdlab accuracy             simulated vs analytic write amplification\n"
	"  ssdlab scenario list|run    the reviewers' test methods, with plots\n"
	"  ssdlab calibrate            presets of real drives vs the reviews' figures\n"
	"  ssdlab life                 lifetime: measured WAF, TBW, years\n"
	"  ssdlab serve                the drive over NBD, for real tools and file systems\n"
	"  ssdlab trace convert|stat   block traces into fio's iolog, and what they hold\n"
	"  ssdlab sweep plan|run|collect|parallel|slurm\n"
	"                              many runs as one study: axes, points, a table\n"
	"  ssdlab compare A B          two results side by side, and why they differ\n"
	"  ssdlab report sweep DIR     a sweep's table as an HTML page with charts\n"
	"  ssdlab --version            print the version\n"
	"\n"
	"'ssdlab COMMAND --help' explains each command.\n";

/* Standard output goes through base/ofile.h like every file (the same
 * faults, and the reason of its first failed write kept), and is checked
 * as the process ends, as coreutils' close_stdout does: a report that
 * did not reach its file, pipe or terminal (a full disk, a closed
 * descriptor) is an error with its reason, in every command.  Standard
 * error is flushed, not closed: the sanitizers write their reports to it
 * after main returns.  Returns the exit status: rc, or 1 if rc was 0 and
 * an output failed. */
static int close_stdout(struct ssd_ofile *so, FILE *real, int rc)
{
	char err[256];
	int bad = ssd_ofile_commit(so, err, sizeof err);
	stdout = real; /* the stream of so is gone */
	if (bad) {
		if (!cli_stdout_reported)
			fprintf(stderr, "%s: %s\n", cli_prog, err);
		rc = rc ? rc : 1;
	}
	if ((fflush(stderr) || ferror(stderr)) && !rc)
		rc = 1;
	return rc;
}

/* The commands, by name; each sets the help its usage errors point to. */
static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{"run", cmd_run},
	{"drives", cmd_drives},
	{"drive", cmd_drive},
	{"job", cmd_job},
	{"scenario", cmd_scenario},
	{"sweep", cmd_sweep},
	{"compare", cmd_compare},
	{"report", cmd_report},
	{"accuracy", cmd_accuracy},
	{"calibrate", cmd_calibrate},
	{"life", cmd_life},
	{"serve", cmd_serve},
	{"trace", cmd_trace},
};

static int command(int argc, char **argv)
{
	if (argc < 2)
		return cmd_demo();
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		fputs(main_help, stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version")) {
		printf("ssdlab %s\n", SSDLAB_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(cmd, commands[i].name)) {
			cli_help_for(commands[i].name);
			return commands[i].fn(argc - 1, argv + 1);
		}
	if (!strcmp(cmd, "demo"))
		return cmd_demo();
	return cli_usage("unknown command '%s'", cmd);
}

int main(int argc, char **argv)
{
	if (ssd_ofile_faults(NULL)) {
		fprintf(stderr, "%s: SSDLAB_FAULT='%s': wanted a comma list of OP:N "
			"or OP:N+ (OP one of open, write, fsync, rename, close; N "
			"from 1)\n", cli_prog, getenv("SSDLAB_FAULT"));
		return EXIT_USAGE;
	}
	FILE *real = stdout;
	struct ssd_ofile *so;
	if (ssd_ofile_fdopen(STDOUT_FILENO, "standard output",
			     isatty(STDOUT_FILENO), &so)) {
		fprintf(stderr, "%s: out of memory\n", cli_prog);
		return 1;
	}
	stdout = ssd_ofile_stream(so);
	return close_stdout(so, real, command(argc, argv));
}
