/*
 * cmd_sweep.c -- ssdlab sweep plan|run|collect|parallel|slurm: a study
 * of many runs, on this machine or through GNU parallel and Slurm
 * (sweep/sweep.h, docs/sweeps.md).
 */
#include <signal.h>
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
	"       ssdlab sweep parallel SWEEP [--dir DIR] [--chunk K]\n"
	"                                   [-- PARALLEL-ARGS...]\n"
	"       ssdlab sweep slurm SWEEP [--dir DIR] [--chunk K] [--wait]\n"
	"                                [-- SBATCH-ARGS...]\n"
	"A parameter sweep: the sweep file names axes (drives, drive keys or\n"
	"scenario parameters, job files or scenarios, preconditioning, seeds)\n"
	"and how they combine; each point is one run with an id derived from\n"
	"what it runs.  plan writes DIR/manifest.tsv, a line per point; run\n"
	"runs the points that have not ended, each in DIR/points/ID (a point\n"
	"that ended, done or failed, is skipped; one cut short runs again);\n"
	"collect merges them into DIR/results.csv and DIR/results.jsonl, a\n"
	"row per point, and lists what failed or is missing.\n"
	"parallel runs the points through GNU parallel, a job per chunk of K\n"
	"points: parallel [PARALLEL-ARGS] ssdlab sweep run SWEEP --dir DIR\n"
	"--points {} ::: 0-9 10-19 ... (with --sshloginfile FILE, on several\n"
	"machines).  slurm writes DIR/slurm.sh, a job array whose task i runs\n"
	"chunk i, and submits it with sbatch.  Both hand the runners absolute\n"
	"paths: other machines must see the binary, the sweep file and DIR at\n"
	"the same place (docs/sweeps.md).\n"
	"\n"
	"  --dir DIR               where the sweep's files go (default\n"
	"                          ssdlab-out/sweep-NAME, NAME the sweep's)\n"
	"  --points LIST           run: these point indices only (3,5-9)\n"
	"  -j, --jobs N            run: up to N points at once (default 1)\n"
	"  --retry-failed          run: run failed points again\n"
	"  --chunk K               parallel, slurm: K points per job or array\n"
	"                          task (default: parallel, a quarter of the\n"
	"                          points per job slot; slurm, as few as keep\n"
	"                          the array within the cluster's MaxArraySize)\n"
	"  --wait                  slurm: wait for the array to end (sbatch\n"
	"                          --wait), then collect\n"
	"  --help                  this text\n"
	"\n"
	"run stops on SIGINT, SIGTERM or SIGHUP: its children are sent the\n"
	"signal and waited for, and their points run again next time; a\n"
	"child killed by a signal is cut short, not failed.\n"
	"\n"
	"Exit status: 0; 1 if a point failed or was cut short (run) or a\n"
	"point failed or is missing (collect, slurm --wait; the files are\n"
	"written either way), or, for parallel, a chunk failed (how many: a\n"
	"line on stderr) or points never ran; 2 for a usage or input error;\n"
	"128+N when signal N stopped run or ended parallel.\n";

struct sweep_args {
	const char *verb, *file, *dir, *points;
	int jobs, retry, wait;
	uint32_t chunk;         /* 0: the launcher's default */
};

enum { S_DIR, S_POINTS, S_JOBS, S_RETRY, S_CHUNK, S_WAIT };

static const struct cli_opt sweep_opts[] = {
	{"--dir", NULL, 1, S_DIR},
	{"--points", NULL, 1, S_POINTS},
	{"--jobs", "-j", 1, S_JOBS},
	{"--retry-failed", NULL, 0, S_RETRY},
	{"--chunk", NULL, 1, S_CHUNK},
	{"--wait", NULL, 0, S_WAIT},
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
	case S_CHUNK:
		if (cli_u64("--chunk", val, &n))
			return EXIT_USAGE;
		if (n < 1 || n > SSD_SWEEP_MAX_POINTS)
			return cli_usage("--chunk needs 1..%d, got '%s'",
					 SSD_SWEEP_MAX_POINTS, val);
		a->chunk = (uint32_t)n;
		return CLI_GO;
	case S_WAIT:
		a->wait = 1;
		return CLI_GO;
	case CLI_ARG:
		if (!a->verb) {
			if (strcmp(val, "plan") && strcmp(val, "run") &&
			    strcmp(val, "collect") && strcmp(val, "parallel") &&
			    strcmp(val, "slurm"))
				return cli_usage("unknown sweep command '%s' "
						 "(accepted: plan, run, collect, "
						 "parallel, slurm)", val);
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
	.opts = sweep_opts, .flags = CLI_DASHDASH, .help = sweep_help,
	.fn = sweep_opt};

/* The binary the points run: this one. */
static int self_exe(char *buf, size_t n)
{
	ssize_t k = readlink("/proc/self/exe", buf, n - 1);
	if (k <= 0)
		return -1;
	buf[k] = 0;
	return 0;
}

/* "ssdlab: MESSAGE" and exit status 1. */
static int fail(const char *err)
{
	fprintf(stderr, "%s: %s\n", cli_prog, err);
	return 1;
}

/* sweep collect: the table, and the status of its points. */
static int sweep_collect(const struct ssd_sweep *s, const char *dir)
{
	char err[1024];
	uint32_t done, failed, missing;
	int rc = ssd_sweep_collect(s, dir, stdout, &done, &failed, &missing, err,
				   sizeof err);
	if (rc == SSD_ENOENT) {
		/* no DIR: a --dir mistyped, or the sweep never planned */
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		return EXIT_USAGE;
	}
	if (rc)
		return fail(err);
	printf("%u points: %u done, %u failed, %u missing: %s/results.csv, "
	       "%s/results.jsonl\n", s->npoints, done, failed, missing, dir,
	       dir);
	return failed || missing ? 1 : 0;
}

/* The signal that asked sweep run to stop (0: none): a process's
 * signal disposition is global, so is the flag its handler sets. */
static volatile sig_atomic_t run_stop;

static void on_stop(int sig)
{
	run_stop = sig;
}

/* sweep run: the selected points here, up to a.jobs at once. */
static int sweep_run(const struct sweep_args *a, const struct ssd_sweep *s,
		     const char *dir)
{
	char err[1024], exe[4096];
	uint8_t *sel = NULL;
	if (a->points) {
		sel = malloc(s->npoints ? s->npoints : 1);
		if (!sel)
			return fail("out of memory");
		if (ssd_sweep_select(s, a->points, sel, err, sizeof err)) {
			free(sel);
			fprintf(stderr, "%s: %s\n", cli_prog, err);
			return EXIT_USAGE;
		}
	}
	uint32_t failed = 0;
	int rc = 0;
	if (self_exe(exe, sizeof exe)) {
		snprintf(err, sizeof err, "cannot find the ssdlab binary "
			 "(/proc/self/exe)");
		rc = -1;
	}
	if (!rc)
		rc = ssd_sweep_plan(s, dir, err, sizeof err);
	/* SIGINT, SIGTERM, SIGHUP: stop the children, leave their points
	 * unended, exit 128 + N */
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa = {.sa_handler = on_stop}, old[3];
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);
	uint32_t cut = 0;
	if (!rc)
		rc = ssd_sweep_run(s, dir, exe, sel, a->jobs, a->retry, stdout,
				   &run_stop, &failed, &cut, err, sizeof err);
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	free(sel);
	if (rc)
		return fail(err);
	if (run_stop) {
		fprintf(stderr, "%s: stopped by signal %d: %u point%s stopped, "
			"to run again next time\n", cli_prog, (int)run_stop, cut,
			cut == 1 ? "" : "s");
		return 128 + run_stop;
	}
	if (cut)
		fprintf(stderr, "%s: %u point%s cut short by a signal (not "
			"ended: the same command runs %s again)\n", cli_prog,
			cut, cut == 1 ? "" : "s", cut == 1 ? "it" : "them");
	if (failed) {
		fprintf(stderr, "%s: %u point%s failed (their errors: "
			"DIR/points/ID/error.txt, and 'sweep collect')\n",
			cli_prog, failed, failed == 1 ? "" : "s");
		return 1;
	}
	return cut ? 1 : 0;
}

/* What the launchers share: the sweep planned, this binary, and the
 * absolute paths of the sweep file and of DIR that other machines see. */
static int launch_paths(const struct ssd_sweep *s, const char *dir,
			char *exe, char *file, char *absdir, size_t n)
{
	char err[1024];
	if (ssd_sweep_plan(s, dir, err, sizeof err))
		return fail(err);
	if (self_exe(exe, n))
		return fail("cannot find the ssdlab binary (/proc/self/exe)");
	if (ssd_sweep_abs(s->file, dir, file, absdir, n, err, sizeof err))
		return fail(err);
	return 0;
}

/* sweep parallel: plan, run GNU parallel, then check that every point
 * ended: its exit status, or 1 when it says 0 with points that never
 * ran. */
static int sweep_parallel(const struct sweep_args *a,
			  const struct ssd_sweep *s, const char *dir,
			  char **rest, int nrest)
{
	char exe[4096], file[4096], absdir[4096], err[1024];
	int rc = launch_paths(s, dir, exe, file, absdir, sizeof exe);
	if (rc)
		return rc;
	uint32_t k = a->chunk ? a->chunk
			      : ssd_sweep_parallel_chunk(s->npoints, rest, nrest);
	int st;
	if (ssd_sweep_parallel(s, file, absdir, exe, k, rest, nrest, stdout,
			       &st, err, sizeof err))
		return fail(err);
	/* parallel's status counts the failed chunks (1..100, 101 for
	 * more), 255 its own error; said in a line, and the exit status 1
	 * -- never 2, the usage error's -- or 128 + N for signal N */
	if (st > 128 && st < 255)
		return st;
	if (st >= 1 && st <= 101)
		fprintf(stderr, "%s: %s%d chunk%s had a failed point (their "
			"errors: 'sweep collect')\n", cli_prog,
			st == 101 ? "more than " : "", st == 101 ? 100 : st,
			st == 1 ? "" : "s");
	else if (st)
		fprintf(stderr, "%s: parallel failed (exit status %d)\n",
			cli_prog, st);
	uint32_t first = 0, n = ssd_sweep_unended(s, absdir, &first);
	if (n)
		fprintf(stderr, "%s: parallel exited with status %d and %u of "
			"%u points did not run (point %u %s the first; the "
			"same command runs them)\n", cli_prog, st, n,
			s->npoints, first, s->id[first]);
	return st || n ? 1 : 0;
}

/* sweep slurm: plan, write DIR/slurm.sh, submit it; with --wait, wait
 * and collect. */
static int sweep_slurm(const struct sweep_args *a, const struct ssd_sweep *s,
		       const char *dir, char **rest, int nrest)
{
	char exe[4096], file[4096], absdir[4096], err[1024];
	int rc = launch_paths(s, dir, exe, file, absdir, sizeof exe);
	if (rc)
		return rc;
	uint32_t max = ssd_sweep_slurm_max_array();
	uint32_t k = a->chunk;
	if (!k)
		k = max > 1 ? ssd_sweep_nchunks(s->npoints, max - 1) : s->npoints;
	if (k < 1)
		k = 1;
	uint32_t m = ssd_sweep_nchunks(s->npoints, k);
	if (m > max)
		return cli_usage("--chunk %u makes %u array tasks, and the "
				 "cluster's MaxArraySize is %u (--chunk %u or "
				 "more)", k, m, max,
				 ssd_sweep_nchunks(s->npoints, max));
	if (ssd_sweep_slurm_script(s, file, absdir, exe, k, err, sizeof err))
		return fail(err);
	int st;
	if (ssd_sweep_slurm_submit(s, absdir, k, a->wait, rest, nrest, stdout,
				   &st, err, sizeof err))
		return fail(err);
	if (st && !a->wait) {
		fprintf(stderr, "%s: sbatch failed (exit status %d)\n", cli_prog,
			st);
		return 1;
	}
	if (!a->wait)
		return 0;
	if (st)
		fprintf(stderr, "%s: the job array ended with exit status %d "
			"(a task's output: %s/slurm/JOB_TASK.out)\n", cli_prog,
			st, absdir);
	rc = sweep_collect(s, dir);
	return rc ? rc : st ? 1 : 0;
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
				 "(ssdlab sweep plan|run|collect|parallel|slurm "
				 "SWEEP)");
	int launch = !strcmp(a.verb, "parallel") || !strcmp(a.verb, "slurm");
	if (strcmp(a.verb, "run") && (a.points || a.jobs != 1 || a.retry))
		return cli_usage("--points, --jobs and --retry-failed go with "
				 "'sweep run'");
	if (!launch && (a.chunk || d.rest < argc))
		return cli_usage("--chunk and arguments after '--' go with "
				 "'sweep parallel' and 'sweep slurm'");
	if (a.wait && strcmp(a.verb, "slurm"))
		return cli_usage("--wait goes with 'sweep slurm'");
	char err[1024];
	struct ssd_sweep *s;
	if (ssd_sweep_load(a.file, &s, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		return EXIT_USAGE;
	}
	if (ssd_sweep_check(s, cli_preset_dir(), err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		ssd_sweep_free(s);
		return EXIT_USAGE;
	}
	char dir[4096];
	if (a.dir)
		snprintf(dir, sizeof dir, "%s", a.dir);
	else
		snprintf(dir, sizeof dir, "ssdlab-out/sweep-%s", s->name);
	if (!strcmp(a.verb, "plan")) {
		rc = ssd_sweep_plan(s, dir, err, sizeof err) ? fail(err) : 0;
		if (!rc)
			printf("%u points: %s/manifest.tsv\n", s->npoints, dir);
	} else if (!strcmp(a.verb, "run")) {
		rc = sweep_run(&a, s, dir);
	} else if (!strcmp(a.verb, "collect")) {
		rc = sweep_collect(s, dir);
	} else if (!strcmp(a.verb, "parallel")) {
		rc = sweep_parallel(&a, s, dir, argv + d.rest, argc - d.rest);
	} else {
		rc = sweep_slurm(&a, s, dir, argv + d.rest, argc - d.rest);
	}
	ssd_sweep_free(s);
	return rc;
}
