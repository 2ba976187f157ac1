/*
 * cmd_scenario.c -- ssdlab scenario list and scenario run: the reviewers'
 * test methods, ready-made (methods/scenario.h), each with its
 * parameters, which --set takes beside the drive keys.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "methods/scenario.h"

static const char scenario_help[] =
	"usage: ssdlab scenario list\n"
	"       ssdlab scenario run NAME [--drive NAME|FILE.ini] [--set KEY=VALUE]...\n"
	"                               [--out DIR] [--seed N] [--eta WHEN]\n"
	"                               [--snapshot FILE]\n"
	"The reviewers' test methods, ready-made.  A run writes into DIR (default\n"
	"ssdlab-out/NAME): result.json with the headline numbers, CSV time series,\n"
	"and plots (PNG and SVG, drawn with gnuplot when it is installed), and\n"
	"prints a summary.  --set takes the scenario's parameters (listed by\n"
	"'scenario list' and 'scenario run NAME --help') as well as drive keys.\n"
	"--snapshot FILE starts the scenario from the drive saved in FILE\n"
	"(ssdlab run --save-snapshot) instead of a fresh one: its drive comes\n"
	"from the file, and every drive the scenario starts is loaded from it\n"
	"(docs/snapshots.md).\n"
	"\n"
	CLI_ETA_HELP;

/* "steady-state, slc-cache, ..." */
static const char *scenario_names(void)
{
	static char buf[1024];
	size_t n = 0;
	buf[0] = 0;
	for (int i = 0; ssd_scenarios[i] && n < sizeof buf; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s",
				      i ? ", " : "", ssd_scenarios[i]->name);
	return buf;
}

/* "size, bs, ..." or "none" */
static const char *scenario_param_names(const struct ssd_scenario *sc)
{
	static char buf[512];
	size_t n = 0;
	snprintf(buf, sizeof buf, "none");
	for (int k = 0; sc->params && sc->params[k].name && n < sizeof buf; k++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s",
				      k ? ", " : "", sc->params[k].name);
	return buf;
}

/* "name = default  help (unit)", the unit followed by what the
 * parameter accepts when it declares it: "(number, whole 1 to 256)" */
static void scenario_params(const struct ssd_scenario *sc)
{
	for (int k = 0; sc->params && sc->params[k].name; k++) {
		const struct ssd_scn_param *p = &sc->params[k];
		char range[96];
		ssd_scn_param_range(p, range, sizeof range);
		printf("    %-12s = %-8s  %s (%s%s%s)\n", p->name, p->def, p->help,
		       p->unit, range[0] ? ", " : "", range);
	}
}

/* ssdlab scenario run NAME --help */
static void scenario_run_help(const struct ssd_scenario *sc)
{
	printf("usage: ssdlab scenario run %s [--drive NAME|FILE.ini] [--set KEY=VALUE]...\n"
	       "                               [--out DIR] [--seed N] [--eta WHEN]\n"
	       "%s\n\n"
	       "Runs on --drive, without it on the preset '%s'.  Writes into\n"
	       "DIR (default ssdlab-out/%s): result.json, CSV time series and\n"
	       "plots.  --set takes drive keys and these parameters (name =\n"
	       "default, meaning, unit):\n",
	       sc->name, sc->summary, sc->drive ? sc->drive : "default", sc->name);
	if (sc->params && sc->params[0].name)
		scenario_params(sc);
	else
		printf("    (none)\n");
	fputs("\n" CLI_ETA_HELP, stdout);
}

/* What scenario run's command line says beyond the shared options. */
struct scenario_args {
	const char *name;           /* the scenario */
	const char *outdir;         /* --out DIR, or NULL */
	const char *snap;           /* --snapshot FILE, or NULL */
	int want_help;              /* --help: the scenario's, once named */
};

enum { SC_SNAPSHOT, SC_OUT };

static const struct cli_opt scenario_run_opts[] = {
	{"--snapshot", NULL, 1, SC_SNAPSHOT},
	{"--out", NULL, 1, SC_OUT},
	{NULL, NULL, 0, 0}};

static int scenario_run_opt(void *ctx, int id, const char *val)
{
	struct scenario_args *a = ctx;
	switch (id) {
	case CLI_HELP:
		a->want_help = 1;
		return CLI_GO;
	case SC_SNAPSHOT:
		a->snap = val;
		return CLI_GO;
	case SC_OUT:
		a->outdir = val;
		return CLI_GO;
	}
	if (a->name)
		return cli_usage("more than one scenario: '%s'", val);
	a->name = val;
	return CLI_GO;
}

/* no help text here: --help prints the named scenario's help (or the
 * scenario command's when none is named) once the whole line is read */
static const struct cli_cmd scenario_run_cmd = {
	.shared = CLI_DRIVE | CLI_SET | CLI_SEED | CLI_ETA,
	.opts = scenario_run_opts, .fn = scenario_run_opt};

int cmd_scenario(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage("scenario needs a command (accepted: list, run)");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(scenario_help, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "list")) {
		if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
			fputs(scenario_help, stdout);
			return 0;
		}
		if (argc > 2)
			return cli_usage("scenario list takes no arguments, got '%s'", argv[2]);
		for (int i = 0; ssd_scenarios[i]; i++) {
			const struct ssd_scenario *sc = ssd_scenarios[i];
			printf("%s\n  %s\n", sc->name, sc->summary);
			scenario_params(sc);
		}
		return 0;
	}
	if (strcmp(argv[1], "run"))
		return cli_usage("unknown scenario command '%s' (accepted: list, run)", argv[1]);
	struct cli d = {.seed = 1};
	struct scenario_args a = {0};
	int rc = cli_parse(&scenario_run_cmd, &d, argc, argv, 2, &a);
	if (rc != CLI_GO)
		return rc;
	const char *name = a.name, *outdir = a.outdir, *snap = a.snap;
	int want_help = a.want_help;
	if (want_help && !name) {
		fputs(scenario_help, stdout);
		return 0;
	}
	if (!name)
		return cli_usage("scenario run needs a scenario name (accepted: %s)",
				 scenario_names());
	const struct ssd_scenario *sc = ssd_scenario_find(name);
	if (!sc)
		return cli_usage("unknown scenario '%s' (accepted: %s)", name,
				 scenario_names());
	if (want_help) {
		scenario_run_help(sc);
		return 0;
	}
	/* from here a usage error points to this scenario's help */
	static char cmdname[96];
	snprintf(cmdname, sizeof cmdname, "scenario run %s", sc->name);
	cli_help_for(cmdname);
	/* --set: the scenario's parameters, the rest are drive keys */
	const char *psets[CLI_MAX_ARGS];
	int np = 0, nd = 0;
	for (int i = 0; i < d.nsets; i++) {
		char key[64];
		const char *eq = strchr(d.sets[i], '=');
		size_t kl = (size_t)(eq - d.sets[i]);
		snprintf(key, sizeof key, "%.*s", (int)(kl < 63 ? kl : 63), d.sets[i]);
		struct ssd_config scratch;
		ssd_config_defaults(&scratch);
		if (ssd_scenario_has_param(sc, key))
			psets[np++] = d.sets[i];
		else if (ssd_config_set(&scratch, key, eq + 1, "--set", NULL, 0) ==
			 SSD_ENOENT)
			return cli_usage("--set: '%s' is neither a parameter of "
					 "scenario %s nor a drive key (accepted "
					 "parameters: %s)", key, sc->name,
					 scenario_param_names(sc));
		else
			d.sets[nd++] = d.sets[i];
	}
	d.nsets = nd;
	struct ssd_config cfg;
	char err[640];
	if (snap) {
		/* the snapshot's drive, which --drive and --set may repeat */
		if ((rc = cli_snapshot_drive(&d, snap, &cfg)))
			return rc;
	} else {
		if (!d.drive)
			d.drive = sc->drive; /* the scenario's own drive, or default */
		if ((rc = cli_load_drive(&d, &cfg)))
			return rc;
	}
	char dir[4096];
	if (!outdir) {
		snprintf(dir, sizeof dir, "ssdlab-out/%s", sc->name);
		outdir = dir;
	}
	struct ssd_prog pg;
	struct ssd_prog *line = cli_eta_begin(&d, sc->name, &pg);
	rc = ssd_scenario_run_from(sc, &cfg, snap, outdir, cli_preset_dir(), psets,
				   np, d.seed, stdout, line, err, sizeof err);
	ssd_eta_end(&d.eta);
	if (rc) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		return rc == SSD_EPARSE || rc == SSD_ENOENT || rc == SSD_ERANGE ? EXIT_USAGE : 1;
	}
	return 0;
}
