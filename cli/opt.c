/*
 * opt.c -- the option parser every command of ssdlab goes through, and
 * the usage error.
 *
 * A command hands cli_parse the table of its own options, the shared
 * options it takes (the drive, --set, --seed, --output-format, --output,
 * the status line's --eta*) and a callback.  The words are read left to
 * right: "--name VALUE" and "--name=VALUE" for an option with a value, the
 * bare name (or its short form, -h, -r) for a flag; the shared options are
 * checked and kept here, the rest goes to the callback as it comes, so a
 * command sees its options, --help and its arguments in the order they
 * were given and the first mistake is the one reported.  The messages --
 * an unknown option, a missing value, a shared option's bad value -- are
 * made here, one line each, pointing to the command's help.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "cli.h"

/* The command whose help a usage error points to (main.c, cmd_*.c). */
static const char *help_cmd;

void cli_help_for(const char *cmd)
{
	help_cmd = cmd;
}

int cli_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", cli_prog);
	vfprintf(stderr, fmt, ap);
	if (help_cmd)
		fprintf(stderr, "; see '%s %s --help'\n", cli_prog, help_cmd);
	else
		fprintf(stderr, "; see '%s --help'\n", cli_prog);
	va_end(ap);
	return EXIT_USAGE;
}

int cli_unknown(const char *arg)
{
	return cli_usage("unknown option '%s'", arg);
}

int cli_u64(const char *opt, const char *val, uint64_t *v)
{
	if (ssd_parse_u64(val, v))
		return cli_usage("option '%s' needs a number, got '%s'", opt, val);
	return 0;
}

int cli_format_normal_json(struct cli *c, const char *val)
{
	(void)c;
	if (strcmp(val, "normal") && strcmp(val, "json"))
		return cli_usage("--output-format must be normal or json, got '%s'", val);
	return 0;
}

/* The shared options, in the order of ids below, and the CLI_* bits
 * that make a command take each. */
enum { S_DRIVE, S_SET, S_SEED, S_FORMAT, S_OUTPUT, S_ETA, S_ETA_INTERVAL,
       S_ETA_NEWLINE, S_N };
static const struct cli_opt shared[S_N] = {
	{"--drive", NULL, 1, S_DRIVE},
	{"--set", NULL, 1, S_SET},
	{"--seed", NULL, 1, S_SEED},
	{"--output-format", NULL, 1, S_FORMAT},
	{"--output", NULL, 1, S_OUTPUT},
	{"--eta", NULL, 1, S_ETA},
	{"--eta-interval", NULL, 1, S_ETA_INTERVAL},
	{"--eta-newline", NULL, 1, S_ETA_NEWLINE},
};
static const unsigned shared_need[S_N] = {
	CLI_DRIVE | CLI_DRIVES | CLI_ONE_DRIVE, CLI_SET, CLI_SEED, CLI_FORMAT,
	CLI_OUTPUT, CLI_ETA, CLI_ETA, CLI_ETA};

static const struct cli_opt help_opt = {"--help", "-h", 0, CLI_HELP};

/* Is argv[*i] the option o?  1 with *val its value (NULL for a flag) and
 * *i on the last word it took, 0 if not, -1 after the message of a
 * missing value. */
static int match(const struct cli_opt *o, int argc, char **argv, int *i,
		 const char **val)
{
	const char *a = argv[*i];
	if (!strcmp(a, o->name) || (o->alias && !strcmp(a, o->alias))) {
		*val = NULL;
		if (!o->value)
			return 1;
		if (*i + 1 >= argc) {
			cli_usage("option '%s' needs a value", a);
			return -1;
		}
		*val = argv[++*i];
		return 1;
	}
	size_t n = strlen(o->name);
	if (o->value && !strncmp(a, o->name, n) && a[n] == '=') {
		*val = a + n + 1;
		return 1;
	}
	return 0;
}

/* A wall-clock time option of the status line ("1s", "500ms"; a bare
 * number is seconds). */
static int eta_time(const char *opt, const char *val, double min, double *out)
{
	if (ssd_eta_time(val, min, out))
		return cli_usage("option '%s' needs a time of at least %.0f ms "
				 "(a bare number is seconds), got '%s'", opt,
				 min * 1e3, val);
	return CLI_GO;
}

/* Keep the shared option id's value: CLI_GO, or EXIT_USAGE after the
 * message. */
static int shared_opt(const struct cli_cmd *cmd, struct cli *c, int id,
		      const char *val)
{
	switch (id) {
	case S_DRIVE:
		if ((cmd->shared & CLI_ONE_DRIVE) && c->drive)
			return cli_usage("more than one drive ('%s')", val);
		if (cmd->shared & CLI_DRIVES) {
			if (c->ndrives == CLI_MAX_ARGS)
				return cli_usage("too many --drive options");
			c->drives[c->ndrives++] = val;
		}
		c->drive = val;
		return CLI_GO;
	case S_SET:
		if (!strchr(val, '=') || val[0] == '=')
			return cli_usage("--set needs KEY=VALUE, got '%s'", val);
		if (c->nsets == CLI_MAX_ARGS)
			return cli_usage("too many --set options");
		c->sets[c->nsets++] = val;
		return CLI_GO;
	case S_SEED:
		return cli_u64("--seed", val, &c->seed) ? EXIT_USAGE : CLI_GO;
	case S_FORMAT:
		if (cmd->check_format && cmd->check_format(c, val))
			return EXIT_USAGE;
		c->format = val;
		return CLI_GO;
	case S_OUTPUT:
		c->output = val;
		return CLI_GO;
	case S_ETA:
		if ((c->eta.when = ssd_eta_when(val)) == -2)
			return cli_usage("--eta must be auto, always or never, got '%s'", val);
		return CLI_GO;
	case S_ETA_INTERVAL:
		return eta_time("--eta-interval", val, 0.25, &c->eta.interval);
	default:
		return eta_time("--eta-newline", val, 0.001, &c->eta.newline);
	}
}

int cli_parse(const struct cli_cmd *cmd, struct cli *c, int argc, char **argv,
	      int first, void *ctx)
{
	c->rest = argc;
	for (int i = first; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		int m = 0, r = CLI_GO;
		if ((cmd->flags & CLI_DASHDASH) && !strcmp(a, "--")) {
			c->rest = i + 1;
			break;
		}
		for (int k = 0; !m && k < S_N; k++)
			if ((cmd->shared & shared_need[k]) &&
			    (m = match(&shared[k], argc, argv, &i, &val)) > 0)
				r = shared_opt(cmd, c, k, val);
		if (!m && (m = match(&help_opt, argc, argv, &i, &val)) > 0) {
			if (cmd->help) {
				fputs(cmd->help, stdout);
				return 0;
			}
			r = cmd->fn(ctx, CLI_HELP, a);
		}
		for (int k = 0; !m && cmd->opts && cmd->opts[k].name; k++)
			if ((m = match(&cmd->opts[k], argc, argv, &i, &val)) > 0)
				r = cmd->fn(ctx, cmd->opts[k].id, val);
		if (m < 0)
			return EXIT_USAGE;
		if (!m) {
			if (a[0] == '-' && (a[1] || !(cmd->flags & CLI_DASH_ARG)))
				return cli_unknown(a);
			r = cmd->fn(ctx, CLI_ARG, a);
		}
		if (r != CLI_GO)
			return r;
	}
	return CLI_GO;
}
