/*
 * cli.h -- what the files of the ssdlab command share: the one option
 * parser (opt.c) with the options several commands take, the usage error,
 * the drive, the status line and the clock of a command (common.c), and
 * each command's entry point (cmd_*.c; main.c dispatches).
 *
 * A command describes its options in a table (struct cli_opt) and names
 * the shared ones it takes (CLI_DRIVE, CLI_SET...); cli_parse walks argv
 * left to right, takes "--name VALUE", "--name=VALUE" and the short forms,
 * handles the shared options itself and hands the command's own options,
 * --help and the arguments to the command's callback, in order, so that
 * the first mistake on the line is the one reported.  Every message about
 * a mistake is one line on stderr, "ssdlab: ...; see 'ssdlab CMD --help'".
 *
 * Exit codes: 0 success, 1 the simulation failed or its output could not
 * be written (or the drive would need more memory than the process may
 * take: drive key mem_check), 2 usage or input error.  Every file a
 * command writes goes through base/ofile.h (whole or not at all, its name
 * in the message); standard output is checked as the process ends
 * (main.c).
 */
#ifndef SSDLAB_CLI_H
#define SSDLAB_CLI_H

#include <stdint.h>

#include "base/config.h"
#include "base/progress.h"
#include "report/eta.h"

#define EXIT_USAGE 2

/* The name every message starts with. */
extern const char cli_prog[];

/* Standard output's failure was reported by the command: main does not
 * say it again. */
extern int cli_stdout_reported;

/* The command being run ("run", "scenario run steady-state"...), set as
 * it is known, so that a usage error points to that command's help
 * (NULL: to ssdlab --help).  The string must outlive the process's
 * messages. */
void cli_help_for(const char *cmd);

/* "ssdlab: MESSAGE; see 'ssdlab CMD --help'" on stderr; returns
 * EXIT_USAGE. */
int cli_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* cli_usage("unknown option '%s'", arg) */
int cli_unknown(const char *arg);

/* ---- the option parser (opt.c) ---- */

/* The options several commands share; a command names those it takes
 * in struct cli_cmd's shared. */
enum {
	CLI_DRIVE = 1,      /* --drive NAME|FILE.ini (the last one counts) */
	CLI_DRIVES = 2,     /* --drive, repeatable: every one in drives[] */
	CLI_ONE_DRIVE = 4,  /* --drive once; a second is "more than one drive" */
	CLI_SET = 8,        /* --set KEY=VALUE, repeatable */
	CLI_SEED = 16,      /* --seed N */
	CLI_FORMAT = 32,    /* --output-format FMT (checked by check_format) */
	CLI_OUTPUT = 64,    /* --output FILE */
	CLI_ETA = 128       /* --eta WHEN, --eta-interval, --eta-newline */
};

/* The help lines of CLI_ETA, the same in every command that takes it. */
#define CLI_ETA_HELP \
	"  --eta WHEN              a status line on stderr while it runs (what\n" \
	"                          runs, the share done, the simulated time or\n" \
	"                          rates, the wall-clock ETA): auto (default:\n" \
	"                          when stderr is a terminal), always, never\n" \
	"  --eta-interval TIME     how often it is updated (default 1s, at least\n" \
	"                          250ms; a bare number is seconds)\n" \
	"  --eta-newline TIME      start a new status line every TIME instead of\n" \
	"                          updating one line in place\n"

#define CLI_MAX_ARGS 256

/* The shared options' values, as the command line left them. */
struct cli {
	const char *drive;        /* NULL when not given */
	const char *drives[CLI_MAX_ARGS]; /* CLI_DRIVES */
	int ndrives;
	const char *sets[CLI_MAX_ARGS];
	int nsets;
	uint64_t seed;            /* the command's default until given */
	const char *format, *output; /* NULL when not given */
	unsigned formats;         /* run: the SSD_OUT_* of --output-format */
	struct ssd_eta eta;       /* CLI_ETA: when, interval, newline */
	int rest;                 /* CLI_DASHDASH: the index of the first
	                             word after '--' (argc if none) */
};

/* One of a command's own options: "--name VALUE", "--name=VALUE", or a
 * flag ("--name" alone; "--name=..." is then unknown). */
struct cli_opt {
	const char *name;         /* "--port"; NULL ends the table */
	const char *alias;        /* the short form ("-r"), or NULL */
	int value;                /* 1: it takes a value */
	int id;                   /* handed to the callback, 0 or more */
};

/* The callback's id for --help (-h) when the command prints no help
 * text of its own, and for an argument that is not an option. */
enum { CLI_HELP = -1, CLI_ARG = -2 };

/* cli_parse and the callbacks: go on (any other value is the exit
 * status to return now: 0 after --help, EXIT_USAGE after a mistake). */
#define CLI_GO (-1)

enum {
	CLI_DASH_ARG = 1,   /* '-' alone is an argument (standard input),
	                       not an unknown option */
	CLI_DASHDASH = 2    /* '--' ends the options (struct cli's rest) */
};

struct cli_cmd {
	unsigned shared;              /* CLI_DRIVE | CLI_SET | ... */
	const struct cli_opt *opts;   /* its own, or NULL */
	unsigned flags;               /* CLI_DASH_ARG | CLI_DASHDASH */
	const char *help;             /* printed on --help (-h), exit 0;
	                                 NULL: the callback gets CLI_HELP */
	/* --output-format's value checked (and kept in c->formats if the
	 * command wants): 0, or a usage error (printed) */
	int (*check_format)(struct cli *c, const char *val);
	/* an own option (its id; val its value, NULL for a flag), CLI_HELP
	 * (val "--help" or "-h") or an argument (CLI_ARG, val the word):
	 * CLI_GO or an exit status */
	int (*fn)(void *ctx, int id, const char *val);
};

/* Parse argv[first..argc) as cmd says, into c (whose defaults the caller
 * set) and through cmd->fn with ctx.  An unknown option, a missing value
 * and a bad value of a shared option are usage errors here.  Returns
 * CLI_GO when the command is to run, else the exit status. */
int cli_parse(const struct cli_cmd *cmd, struct cli *c, int argc, char **argv,
	      int first, void *ctx);

/* A number of an option ("option '--check' needs a number, got 'x'"):
 * 0, or the usage error's status. */
int cli_u64(const char *opt, const char *val, uint64_t *v);

/* check_format of the commands that write normal or json (life, trace
 * stat). */
int cli_format_normal_json(struct cli *c, const char *val);

/* ---- what commands share besides options (common.c) ---- */

/* The wall clock, in seconds (CLOCK_MONOTONIC). */
double cli_wall_now(void);

/* The preset directory (methods/preset.h: $SSDLAB_PRESETS, next to the
 * binary, the compiled-in one).  Lives until the process ends. */
const char *cli_preset_dir(void);

/* Load the drive: c->drive (preset or file; "default" when NULL), then
 * the --set overrides, then derive.  0, or EXIT_USAGE after the
 * message. */
int cli_load_drive(const struct cli *c, struct ssd_config *cfg);

/* The drive of a command that starts from the snapshot snap and loads it
 * later (run, scenario run, serve): --drive with --set, or the file's
 * own with --set, checked against the file's header now.  0, or an exit
 * status after the message. */
int cli_snapshot_drive(const struct cli *c, const char *snap,
		       struct ssd_config *cfg);

/* Start the status line of the command (CLI_ETA) on stderr, the methods'
 * line labelled label; the reporter to hand the method: NULL when no line
 * is drawn, so that the work counts nothing for it. */
struct ssd_prog *cli_eta_begin(struct cli *c, const char *label,
			       struct ssd_prog *pg);

/* ---- the commands: argv[0] is the command's name; an exit status ---- */

int cmd_run(int argc, char **argv);        /* cmd_run.c */
int cmd_drives(int argc, char **argv);     /* cmd_drive.c */
int cmd_drive(int argc, char **argv);      /* cmd_drive.c */
int cmd_job(int argc, char **argv);        /* cmd_drive.c */
int cmd_accuracy(int argc, char **argv);   /* cmd_accuracy.c */
int cmd_calibrate(int argc, char **argv);  /* cmd_calibrate.c */
int cmd_life(int argc, char **argv);       /* cmd_life.c */
int cmd_scenario(int argc, char **argv);   /* cmd_scenario.c */
int cmd_serve(int argc, char **argv);      /* cmd_serve.c */
int cmd_trace(int argc, char **argv);      /* cmd_trace.c */
int cmd_sweep(int argc, char **argv);      /* cmd_sweep.c */
int cmd_compare(int argc, char **argv);    /* cmd_compare.c */
int cmd_report(int argc, char **argv);     /* cmd_report.c */
int cmd_demo(void);                        /* cmd_demo.c */

#endif
