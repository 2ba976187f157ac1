/*
 * ssdlab.c -- the command-line tool: each command parses its options
 * (the common ones -- --drive, --set, --seed, --output-format, --output --
 * in one place, common_opt) and calls the library, through the modules'
 * interface headers (never a private NAME_int.h).  Every user-facing
 * message about bad input is made here or in the file parsers, one line,
 * naming where and what.
 *
 * Exit codes: 0 success, 1 the simulation failed or its output could not
 * be written (or the drive would need more memory than the process may
 * take: drive key mem_check), 2 usage or input error.  Every file a
 * command writes goes through base/ofile.h (whole or not at all, its name
 * in the message); standard output is checked as the process ends
 * (close_stdout).
 */
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "methods/accuracy.h"
#include "methods/calibrate.h"
#include "base/config.h"
#include "base/ofile.h"
#include "machine/device.h"
#include "job/dircopy.h"
#include "job/job.h"
#include "methods/life.h"
#include "methods/model.h"
#include "methods/preset.h"
#include "report/eta.h"
#include "report/report.h"
#include "methods/scenario.h"
#include "methods/trace_tools.h"
#include "run/sim.h"
#include "machine/snapshot.h"

#define EXIT_USAGE 2

static const char *prog = "ssdlab";

/* Standard output's failure was reported by the command: close_stdout
 * does not say it again. */
static int stdout_reported;

/* The command being run ("run", "scenario"...), set once by main(), so
 * that a usage error points to that command's help. */
static const char *help_cmd;

static int usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	if (help_cmd)
		fprintf(stderr, "; see '%s %s --help'\n", prog, help_cmd);
	else
		fprintf(stderr, "; see '%s --help'\n", prog);
	va_end(ap);
	return EXIT_USAGE;
}

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- presets ---- */

/* The preset directory (methods/preset.h: $SSDLAB_PRESETS, next to the
 * binary, the compiled-in one); the binary's directory is found here. */
static const char *preset_dir(void)
{
	static char exe[PATH_MAX], buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 16);
	char *slash = n > 0 ? (exe[n] = 0, strrchr(exe, '/')) : NULL;
	if (slash)
		*slash = 0;
	return ssd_preset_dir(slash ? exe : NULL, buf, sizeof buf);
}

/* An option with a value, "--name VALUE" or "--name=VALUE", among names[]
 * (NULL-terminated) at argv[*i]: sets *val and returns its index, -1 if
 * argv[*i] is none of them, -2 after a usage error (printed). */
static int value_opt(int argc, char **argv, int *i, const char *const *names,
		     const char **val)
{
	const char *a = argv[*i];
	for (int k = 0; names[k]; k++) {
		size_t n = strlen(names[k]);
		if (!strcmp(a, names[k])) {
			if (*i + 1 >= argc) {
				usage_error("option '%s' needs a value", a);
				return -2;
			}
			*val = argv[++*i];
			return k;
		}
		if (!strncmp(a, names[k], n) && a[n] == '=') {
			*val = a + n + 1;
			return k;
		}
	}
	return -1;
}

static int parse_u64_arg(const char *opt, const char *s, uint64_t *v)
{
	if (ssd_parse_u64(s, v))
		return usage_error("option '%s' needs a number, got '%s'", opt, s);
	return 0;
}

/* The options the commands share: which a command takes (OPT_* bits),
 * and their values. */
enum {
	OPT_DRIVE = 1,    /* --drive NAME|FILE.ini (the last one counts) */
	OPT_DRIVES = 2,   /* --drive, repeatable: every one in drives[] */
	OPT_SET = 4,      /* --set KEY=VALUE, repeatable */
	OPT_SEED = 8,     /* --seed N */
	OPT_FORMAT = 16,  /* --output-format FMT (checked by check_format) */
	OPT_OUTPUT = 32,  /* --output FILE */
	OPT_ETA = 64      /* --eta WHEN, --eta-interval, --eta-newline */
};

/* The help lines of OPT_ETA, the same in every command that takes it. */
#define ETA_HELP \
	"  --eta WHEN              a status line on stderr while it runs (what\n" \
	"                          runs, the share done, the simulated time or\n" \
	"                          rates, the wall-clock ETA): auto (default:\n" \
	"                          when stderr is a terminal), always, never\n" \
	"  --eta-interval TIME     how often it is updated (default 1s, at least\n" \
	"                          250ms; a bare number is seconds)\n" \
	"  --eta-newline TIME      start a new status line every TIME instead of\n" \
	"                          updating one line in place\n"

#define MAX_ARGS 256

struct common_opts {
	unsigned accept;          /* OPT_* */
	const char *drive;
	const char *drives[MAX_ARGS];
	int ndrives;
	const char *sets[MAX_ARGS];
	int nsets;
	uint64_t seed;            /* default 1 */
	const char *format, *output; /* NULL when not given */
	unsigned formats;         /* run: the SSD_OUT_* of --output-format */
	struct ssd_eta eta;       /* OPT_ETA: when, interval, newline */
	/* the command's check of an --output-format value: 0, or a usage
	 * error (printed) */
	int (*check_format)(struct common_opts *o, const char *val);
};

/* A wall-clock time option of the status line ("1s", "500ms"; a bare
 * number is seconds). */
static int eta_time_arg(const char *opt, const char *val, double min,
			double *out)
{
	if (ssd_eta_time(val, min, out))
		return usage_error("option '%s' needs a time of at least "
				   "%.0f ms (a bare number is seconds), got "
				   "'%s'", opt, min * 1e3, val);
	return 0;
}

/* Consume a shared option at argv[*i]: 1 if consumed, 0 if not one this
 * command takes, -1 after a usage error (printed). */
static int common_opt(struct common_opts *o, int argc, char **argv, int *i)
{
	static const char *const all[] = {"--drive", "--set", "--seed",
					  "--output-format", "--output",
					  "--eta", "--eta-interval",
					  "--eta-newline"};
	static const unsigned need[] = {OPT_DRIVE | OPT_DRIVES, OPT_SET,
					OPT_SEED, OPT_FORMAT, OPT_OUTPUT,
					OPT_ETA, OPT_ETA, OPT_ETA};
	const char *names[9], *val = NULL;
	int idx[9], k = 0;
	for (int n = 0; n < 8; n++)
		if (o->accept & need[n]) {
			idx[k] = n;
			names[k++] = all[n];
		}
	names[k] = NULL;
	int w = value_opt(argc, argv, i, names, &val);
	if (w < 0)
		return w == -1 ? 0 : -1;
	switch (idx[w]) {
	case 0:
		if (o->accept & OPT_DRIVES) {
			if (o->ndrives == MAX_ARGS) {
				usage_error("too many --drive options");
				return -1;
			}
			o->drives[o->ndrives++] = val;
		}
		o->drive = val;
		return 1;
	case 1:
		if (!strchr(val, '=') || val[0] == '=') {
			usage_error("--set needs KEY=VALUE, got '%s'", val);
			return -1;
		}
		if (o->nsets == MAX_ARGS) {
			usage_error("too many --set options");
			return -1;
		}
		o->sets[o->nsets++] = val;
		return 1;
	case 2:
		return parse_u64_arg("--seed", val, &o->seed) ? -1 : 1;
	case 3:
		if (o->check_format && o->check_format(o, val))
			return -1;
		o->format = val;
		return 1;
	case 4:
		o->output = val;
		return 1;
	case 5:
		if ((o->eta.when = ssd_eta_when(val)) == -2) {
			usage_error("--eta must be auto, always or never, got '%s'", val);
			return -1;
		}
		return 1;
	case 6:
		return eta_time_arg("--eta-interval", val, 0.25,
				    &o->eta.interval) ? -1 : 1;
	default:
		return eta_time_arg("--eta-newline", val, 0.001,
				    &o->eta.newline) ? -1 : 1;
	}
}

/* Start the status line of the command (OPT_ETA) on stderr, the methods'
 * line labelled `label`; the reporter to hand the method: NULL when no
 * line is drawn, so that the work counts nothing for it. */
static struct ssd_prog *eta_begin(struct common_opts *o, const char *label,
				  struct ssd_prog *pg)
{
	o->eta.label = label;
	if (!ssd_eta_start(&o->eta, stderr))
		return NULL;
	*pg = (struct ssd_prog){.fn = ssd_eta_progress, .ctx = &o->eta};
	return pg;
}

/* Load the drive: preset or file, then --set overrides, then derive
 * (adapting the preset's shape to an overridden capacity). */
static int load_drive(const struct common_opts *o, struct ssd_config *c)
{
	char err[512];
	if (ssd_preset_load(preset_dir(), o->drive ? o->drive : "default",
			    o->sets, o->nsets, c, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return EXIT_USAGE;
	}
	return 0;
}

/* ---- ssdlab run ---- */

static const char run_help[] =
	"usage: ssdlab run JOB.fio [JOB.fio...] [options]\n"
	"Run the jobs of an fio job file on a simulated drive (fresh from the\n"
	"factory) and report like fio.  Times in the job file are simulated.\n"
	"JOB.fio '-' reads the job file from standard input.\n"
	"\n"
	"  --drive NAME|FILE.ini   drive preset or file (default: default)\n"
	"  --set KEY=VALUE         override a drive key (repeatable)\n"
	"  --seed N                seed of the run (default 1)\n"
	"  --output-format FMT     normal (default), json, json+ (json with the\n"
	"                          latency histograms as \"bins\"), terse (fio's\n"
	"                          semicolon-separated version 3), or a comma\n"
	"                          list of them (json,normal), printed in fio's\n"
	"                          order: terse, json, normal\n"
	"  --minimal               the same as --output-format=terse\n"
	"  --terse-version N       terse format version (only 3, fio's default)\n"
	"  --output FILE           write the report to FILE instead of stdout\n"
	ETA_HELP
	"  --check N               run the FTL invariant checker after every\n"
	"                          N garbage-collected blocks, every program\n"
	"                          failure, retirement and turn to read-only,\n"
	"                          and at the end of every job, and check the\n"
	"                          timing of every flash operation and command\n"
	"                          (slow; for tests)\n"
	"  --precondition FILL     fill the fresh drive before the jobs run:\n"
	"                          sequential (128 KiB writes at QD32 end to\n"
	"                          end) or dircopy[:SET[:SHARE]] (directories\n"
	"                          of files copied through a file system and\n"
	"                          the page cache until SHARE of the volume is\n"
	"                          in use, default 1; SET impressions (default),\n"
	"                          win7, game, media or usb: docs/fill.md); a\n"
	"                          line on stderr says what it wrote\n"
	"  --snapshot FILE         start from the drive saved in FILE (its\n"
	"                          configuration comes from the file; --drive\n"
	"                          and --set may repeat it, not change it)\n"
	"  --save-snapshot FILE    save the drive as the run leaves it (after\n"
	"                          --precondition and every job file) to FILE,\n"
	"                          for a later --snapshot (docs/snapshots.md)\n"
	"  --help                  this text\n"
	"\n"
	"Several job files run one after another on the same drive, each a run\n"
	"of its own with its own report, in order.\n"
	"\n"
	"A job ends at its first error, which its report shows (fio's error,\n"
	"and the ssdlab error message).  A drive that wore out and turned\n"
	"read-only ends only the job writing to it; any other error ends the\n"
	"run there: the other jobs of its group stop and later groups do not\n"
	"run.  The report of the jobs that ran is still written.\n"
	"\n"
	"Exit status: 0; 1 if the simulation failed or a job ended in error;\n"
	"2 for a usage or input error.\n";

/* run's --output-format: fio's formats */
static int run_format(struct common_opts *o, const char *val)
{
	if (ssd_output_formats(val, &o->formats))
		return usage_error("--output-format must be normal, json, json+, terse or a comma list of them, got '%s'", val);
	return 0;
}

/* A --precondition: a sequential fill, or a directory copy. */
struct precond {
	int dircopy;                /* 0: sequential */
	struct ssd_dircopy_opts dc;
};

/* Parse "sequential" or "dircopy[:SET[:SHARE]]"; 0 or a usage error. */
static int precond_parse(const char *val, struct precond *p)
{
	char buf[128];
	snprintf(buf, sizeof buf, "%s", val);
	char *save = NULL, *name = strtok_r(buf, ":", &save);
	char *set = strtok_r(NULL, ":", &save);
	char *share = strtok_r(NULL, ":", &save);
	memset(p, 0, sizeof *p);
	ssd_dircopy_defaults(&p->dc);
	if (name && !strcmp(name, "sequential") && !set)
		return 0;
	if (!name || strcmp(name, "dircopy") || strtok_r(NULL, ":", &save))
		return usage_error("--precondition must be sequential or "
				   "dircopy[:SET[:SHARE]], got '%s'", val);
	p->dircopy = 1;
	if (set && (p->dc.set = ssd_dircopy_set_find(set)) < 0)
		return usage_error("--precondition: unknown file set '%s' "
				   "(accepted: impressions, win7, game, media, usb)",
				   set);
	if (share && (ssd_parse_double(share, &p->dc.fill) ||
		      !(p->dc.fill > 0) || p->dc.fill > 1))
		return usage_error("--precondition: the share of the volume "
				   "must be above 0 and at most 1, got '%s'", share);
	return 0;
}

/* Fill dev as p says, from its current time, and say what was written
 * on stderr.  0, or a negative SSD_E* with the message in err. */
static int precondition(struct ssd_dev *dev, struct precond *p, uint64_t seed,
			struct ssd_prog *line, char *err, size_t errlen)
{
	char b1[32], b2[32], b3[32];
	int64_t t0 = ssd_dev_time(dev);
	if (p->dircopy) {
		struct ssd_dircopy_run r;
		p->dc.seed = seed;
		if (ssd_dev_capacity(dev) < SSD_DIRCOPY_MIN_VOLUME) {
			snprintf(err, errlen, "a directory copy needs a volume of "
				 "16 MiB or more, the drive has %s",
				 ssd_fmt_bytes(ssd_dev_capacity(dev), b1, sizeof b1));
			return SSD_ERANGE;
		}
		int rc = ssd_dircopy(dev, &p->dc, &r, NULL);
		if (rc) {
			snprintf(err, errlen, "the directory copy failed: %s",
				 ssd_strerror(rc));
			return rc;
		}
		uint64_t meta = 0;
		for (int k = SSD_DC_DATA + 1; k < SSD_DC_NKINDS; k++)
			meta += r.bytes[k];
		fprintf(stderr, "%s: precondition: directory copy of the %s set, "
			"%llu files in %llu directories, %s of %s in use, %s of "
			"metadata among the data, %.1f s of drive time\n", prog,
			ssd_dircopy_set_name(p->dc.set),
			(unsigned long long)r.files, (unsigned long long)r.dirs,
			ssd_fmt_bytes(r.used, b1, sizeof b1),
			ssd_fmt_bytes(r.volume, b2, sizeof b2),
			ssd_fmt_bytes(meta, b3, sizeof b3),
			(double)(ssd_dev_time(dev) - t0) / 1e9);
		return 0;
	}
	struct ssd_jobs *b = NULL;
	struct ssd_job *jobs = NULL;
	int njobs = 0;
	int rc = ssd_jobs_new("precondition", ssd_dev_capacity(dev), &b);
	if (!rc) {
		struct ssd_job *j = ssd_jobs_add(b, "precondition");
		j->rw = SSD_RW_WRITE;
		ssd_job_set_bs(j, 128 << 10);
		j->iodepth = 32;
		rc = ssd_jobs_end(b, &jobs, &njobs, err, errlen);
	}
	struct ssd_run_result res;
	if (!rc) {
		ssd_prog_phase(line, ssd_dev_time(dev), "precondition");
		rc = ssd_sim_run_prog(dev, jobs, njobs, seed, NULL, line, &res, err,
				      errlen);
		ssd_prog_clear(line); /* the summary line follows */
	}
	free(jobs);
	if (rc)
		return rc;
	rc = res.jobs[0].error;
	if (rc)
		snprintf(err, errlen, "the sequential fill failed: %s",
			 ssd_strerror(rc));
	else
		fprintf(stderr, "%s: precondition: sequential fill, %s in 128 KiB "
			"writes at QD32, %.1f s of drive time\n", prog,
			ssd_fmt_bytes(ssd_dev_capacity(dev), b1, sizeof b1),
			(double)(ssd_dev_time(dev) - t0) / 1e9);
	ssd_run_result_free(&res);
	return rc;
}

/* The drive of a command that starts from a snapshot and loads it
 * later (scenario run, serve): --drive with --set, or the file's own
 * with --set, checked against the file's header now.  0, or an exit
 * status after the message. */
static int snapshot_config(const struct common_opts *o, const char *snap,
			   struct ssd_config *c)
{
	char err[640];
	int rc;
	if (o->drive) {
		if ((rc = load_drive(o, c)))
			return rc;
	} else if ((rc = ssd_snapshot_drive(snap, c, err, sizeof err)) ||
		   (rc = ssd_preset_sets(o->sets, o->nsets, c, err, sizeof err))) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return rc == SSD_EIO || rc == SSD_ENOMEM ? 1 : EXIT_USAGE;
	}
	if ((rc = ssd_snapshot_check(snap, c, err, sizeof err))) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return rc == SSD_EIO || rc == SSD_ENOMEM ? 1 : EXIT_USAGE;
	}
	return 0;
}

/* The job files of a run, parsed before any of them runs. */
#define MAX_JOBFILES 64
struct jobfile {
	const char *name;
	struct ssd_job *jobs;
	int njobs;
};

static int cmd_run(int argc, char **argv)
{
	struct common_opts c = {.accept = OPT_DRIVE | OPT_SET | OPT_SEED |
					  OPT_FORMAT | OPT_OUTPUT | OPT_ETA,
				.seed = 1, .formats = SSD_OUT_NORMAL,
				.check_format = run_format};
	struct jobfile jf[MAX_JOBFILES];
	int njf = 0;
	uint64_t check = 0;
	struct precond pre;
	const char *pre_arg = NULL, *snap_in = NULL, *snap_out = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int r = common_opt(&c, argc, argv, &i);
		if (r < 0)
			return EXIT_USAGE;
		if (r)
			continue;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(run_help, stdout);
			return 0;
		}
		if (!strcmp(a, "--minimal")) {
			c.formats = SSD_OUT_TERSE;
			continue;
		}
		static const char *const names[] = {"--check",
						    "--terse-version",
						    "--precondition",
						    "--snapshot",
						    "--save-snapshot", NULL};
		const char *val = NULL;
		int which = value_opt(argc, argv, &i, names, &val);
		if (which == -2)
			return EXIT_USAGE;
		switch (which) {
		case 0:
			if (parse_u64_arg("--check", val, &check))
				return EXIT_USAGE;
			continue;
		case 1:
			if (strcmp(val, "3"))
				return usage_error("--terse-version: only 3 is supported, got '%s'", val);
			continue;
		case 2:
			if (precond_parse(val, &pre))
				return EXIT_USAGE;
			pre_arg = val;
			continue;
		case 3:
			snap_in = val;
			continue;
		case 4:
			snap_out = val;
			continue;
		}
		if (a[0] == '-' && a[1])
			return usage_error("unknown option '%s'", a);
		if (njf == MAX_JOBFILES)
			return usage_error("more than %d job files: '%s'",
					   MAX_JOBFILES, a);
		for (int k = 0; k < njf; k++)
			if (!strcmp(jf[k].name, "-") && !strcmp(a, "-"))
				return usage_error("standard input ('-') can "
						   "be read once");
		jf[njf++] = (struct jobfile){.name = a};
	}
	if (!njf)
		return usage_error("run needs a job file, or - for standard input");
	if (snap_in && pre_arg)
		return usage_error("--precondition fills a fresh drive; the "
				   "drive of --snapshot '%s' is not fresh",
				   snap_in);
	/* the drive: named, or the snapshot's (checked against it now,
	 * loaded once the job files parse and the memory is there) */
	struct ssd_config cfg;
	int rc = snap_in ? snapshot_config(&c, snap_in, &cfg)
			 : load_drive(&c, &cfg);
	if (rc)
		return rc;
	char err[640];
	const char *no_save;
	if (snap_out && (no_save = ssd_snapshot_refusal(&cfg, err, sizeof err)))
		return usage_error("--save-snapshot: %s", no_save);
	/* every job file parses before any runs; the memory the largest
	 * run needs is there before the drive is built */
	unsigned uses = 0;
	uint64_t run_mem = 0;
	for (int k = 0; k < njf; k++) {
		if (ssd_jobfile_parse(jf[k].name, ssd_config_volume(&cfg),
				      &jf[k].jobs, &jf[k].njobs, err,
				      sizeof err)) {
			fprintf(stderr, "%s: %s\n", prog, err);
			while (k--)
				free(jf[k].jobs);
			return EXIT_USAGE;
		}
		unsigned u;
		uint64_t m = ssd_sim_mem(jf[k].jobs, jf[k].njobs,
					 ssd_config_volume(&cfg), &u);
		uses |= u;
		run_mem = m > run_mem ? m : run_mem;
	}
	FILE *out = stdout;
	struct ssd_ofile *of = NULL;
	struct ssd_dev *dev = NULL;
	if (c.output && ssd_ofile_open(c.output, SSD_OFILE_REPLACE, &of, err,
				       sizeof err)) {
		fprintf(stderr, "%s: %s\n", prog, err);
		rc = EXIT_USAGE;
		goto out;
	}
	if (of)
		out = ssd_ofile_stream(of);
	if (ssd_dev_mem_check(&cfg, uses, run_mem, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", prog, err);
		ssd_ofile_discard(of);
		rc = 1;
		goto out;
	}
	rc = snap_in ? ssd_snapshot_load(snap_in, &cfg, &dev, err, sizeof err)
		     : ssd_dev_create(&cfg, c.seed, &dev);
	if (rc) {
		if (snap_in)
			fprintf(stderr, "%s: %s\n", prog, err);
		else
			fprintf(stderr, "%s: cannot build drive '%s': %s\n",
				prog, cfg.name, ssd_strerror(rc));
		ssd_ofile_discard(of);
		rc = snap_in && rc != SSD_EIO && rc != SSD_ENOMEM ? EXIT_USAGE : 1;
		goto out;
	}
	ssd_dev_set_check_every(dev, (uint32_t)check);
	if (snap_in && check && ssd_dev_audit(dev)) {
		/* --check: the loaded drive is held to every invariant first */
		fprintf(stderr, "%s: snapshot '%s' does not make a consistent "
			"drive: %s\n", prog, snap_in, ssd_dev_check_failure(dev));
		ssd_ofile_discard(of);
		rc = 1;
		goto out;
	}
	struct ssd_prog pre_pg;
	if (pre_arg && (rc = precondition(dev, &pre, c.seed,
					  eta_begin(&c, "precondition", &pre_pg),
					  err, sizeof err))) {
		fprintf(stderr, "%s: --precondition %s: %s\n", prog, pre_arg, err);
		ssd_ofile_discard(of);
		rc = rc == SSD_ERANGE ? EXIT_USAGE : 1; /* a drive too small */
		goto out;
	}
	int job_failed = 0, reported = 0;
	/* each job file is a run of its own on the same drive, one after
	 * the other, each with its report */
	for (int k = 0; k < njf && !rc; k++) {
		struct ssd_run_result res;
		double w0 = wall_now();
		int show_eta = ssd_eta_start(&c.eta, stderr);
		rc = ssd_sim_run_progress(dev, jf[k].jobs, jf[k].njobs, c.seed,
					  NULL, show_eta ? ssd_eta_run : NULL,
					  &c.eta, 1024, &res, err, sizeof err);
		ssd_eta_end(&c.eta); /* a run that failed: keep its line */
		/* the report is written whenever a job ran, also when the
		 * run failed: it holds the jobs up to the failure, with the
		 * error */
		if (res.njobs) {
			res.wall_s = wall_now() - w0;
			res.jobfile = strcmp(jf[k].name, "-") ? jf[k].name
							      : SSD_JOB_STDIN;
			int wrc = ssd_report(&res, c.formats, out);
			if (wrc && !rc) {
				snprintf(err, sizeof err, "cannot write the report: %s",
					 ssd_strerror(wrc));
				rc = wrc;
			}
			reported = 1;
		}
		/* as fio: a job that ended in error makes the exit status
		 * 1; one line per such job, and the run's message if no job
		 * carries it */
		int shown = 0;
		for (int i = 0; i < res.njobs; i++)
			if (res.jobs[i].error) {
				fprintf(stderr, "%s: job '%s': %s\n", prog,
					res.jobs[i].name, res.jobs[i].errmsg[0]
					? res.jobs[i].errmsg
					: ssd_strerror(res.jobs[i].error));
				job_failed = 1;
				shown |= res.jobs[i].error == rc;
			}
		if (rc && !shown)
			fprintf(stderr, "%s: %s\n", prog, err);
		ssd_run_result_free(&res);
	}
	/* no job ran: no report, and the file is left as it was */
	if (!reported)
		ssd_ofile_discard(of);
	else if (ssd_ofile_commit(of, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", prog, err);
		rc = SSD_EIO;
	}
	/* the drive as the run left it; not after a failed simulation */
	if (snap_out && rc)
		fprintf(stderr, "%s: --save-snapshot '%s': not saved, the run "
			"failed\n", prog, snap_out);
	else if (snap_out && (rc = ssd_snapshot_save(dev, snap_out, err,
						     sizeof err)))
		fprintf(stderr, "%s: %s\n", prog, err);
	rc = rc || job_failed ? 1 : 0;
out:
	ssd_dev_destroy(dev);
	for (int k = 0; k < njf; k++)
		free(jf[k].jobs);
	return rc;
}

/* ---- ssdlab drives / drive show ---- */

static int cmd_drives(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		puts("usage: ssdlab drives\nList the drive presets with their capacity, OP and cell type.");
		return 0;
	}
	if (argc > 1)
		return usage_error("drives takes no arguments, got '%s'", argv[1]);
	const char *dir = preset_dir();
	char **names, err[512];
	int n;
	if (ssd_preset_list(dir, &names, &n, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return 1;
	}
	printf("%-20s %10s %6s %4s  %s\n", "NAME", "CAPACITY", "OP", "CELL",
	       "DESCRIPTION");
	int rc = 0;
	for (int i = 0; i < n; i++) {
		struct ssd_config c;
		char cap[32];
		if (ssd_config_open(&c, names[i], dir, err, sizeof err) ||
		    ssd_config_finish(&c, err, sizeof err)) {
			fprintf(stderr, "%s: %s\n", prog, err);
			rc = 1;
		} else if (c.type == SSD_TYPE_HDD) {
			/* a hard disk: no spare, no cells */
			printf("%-20s %10s %6s %4s  %s\n", names[i],
			       ssd_fmt_bytes(c.capacity, cap, sizeof cap), "-",
			       "hdd", c.description);
		} else {
			printf("%-20s %10s %5.1f%% %4s  %s\n", names[i],
			       ssd_fmt_bytes(c.capacity, cap, sizeof cap),
			       c.op * 100, ssd_cell_name(c.cell), c.description);
		}
	}
	ssd_preset_list_free(names, n);
	return rc;
}

/* drive show's last line: what simulating the drive takes (a comment,
 * so that the output still loads as a drive file). */
static void print_memory(const struct ssd_config *c)
{
	struct ssd_mem m, v;
	char b[6][32];
	ssd_dev_mem(c, 0, &m);
	printf("# memory: about %s to simulate (the FTL %s, controller DRAM %s, "
	       "host layers %s, the program %s)",
	       ssd_fmt_bytes(m.total, b[0], sizeof b[0]),
	       ssd_fmt_bytes(m.ftl, b[1], sizeof b[1]),
	       ssd_fmt_bytes(m.dram, b[2], sizeof b[2]),
	       ssd_fmt_bytes(m.host, b[3], sizeof b[3]),
	       ssd_fmt_bytes(m.program, b[4], sizeof b[4]));
	if (!ssd_config_is_machine(c))
		printf("; %s more for jobs that verify data",
		       ssd_fmt_bytes(ssd_dev_mem(c, SSD_MEM_VERIFY, &v) - m.total,
				     b[5], sizeof b[5]));
	printf("\n");
}

static int cmd_drive(int argc, char **argv)
{
	if (argc < 2)
		return usage_error("drive needs a command (accepted: show, doc)");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		puts("usage: ssdlab drive show NAME|FILE.ini [--set KEY=VALUE]...\n"
		     "       ssdlab drive doc\n"
		     "show: print every key of the drive with its value, unit and meaning\n"
		     "doc:  print the option reference as Markdown (docs/options.md)");
		return 0;
	}
	if (!strcmp(argv[1], "doc")) {
		if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
			puts("usage: ssdlab drive doc\nPrint the drive key reference as Markdown (docs/options.md).");
			return 0;
		}
		if (argc > 2)
			return usage_error("drive doc takes no arguments, got '%s'", argv[2]);
		ssd_config_print_doc(stdout);
		return 0;
	}
	if (strcmp(argv[1], "show"))
		return usage_error("unknown drive command '%s' (accepted: show, doc)", argv[1]);
	struct common_opts d = {.accept = OPT_DRIVE | OPT_SET};
	const char *shown_drive = NULL;
	for (int i = 2; i < argc; i++) {
		int r = common_opt(&d, argc, argv, &i);
		if (r < 0)
			return EXIT_USAGE;
		if (r) {
			if (d.drive && shown_drive && d.drive != shown_drive)
				return usage_error("more than one drive ('%s')", d.drive);
			shown_drive = d.drive;
			continue;
		}
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			puts("usage: ssdlab drive show NAME|FILE.ini [--set KEY=VALUE]...\n"
			     "Print every key of the drive -- preset NAME or an INI file, with the\n"
			     "overrides applied and the geometry derived -- with its value, unit and\n"
			     "meaning.  The output is itself a valid drive file.");
			return 0;
		}
		if (argv[i][0] == '-')
			return usage_error("unknown option '%s'", argv[i]);
		if (d.drive)
			return usage_error("more than one drive ('%s')", argv[i]);
		d.drive = shown_drive = argv[i];
	}
	if (!d.drive)
		return usage_error("drive show needs a preset name or file");
	struct ssd_config c;
	int rc = load_drive(&d, &c);
	if (rc)
		return rc;
	ssd_config_print(&c, stdout);
	print_memory(&c);
	return 0;
}

static int cmd_job(int argc, char **argv)
{
	static const char help[] =
		"usage: ssdlab job doc [--format=md|dict]\n"
		"Print the job-file option reference as Markdown (docs/jobfiles.md),\n"
		"or with --format=dict the fuzz dictionary of job files\n"
		"(fuzz/jobfile.dict), both from the option table.";
	if (argc == 3 && !strcmp(argv[1], "doc") &&
	    (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
		puts(help);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "doc")) {
		ssd_job_print_doc(stdout);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "doc") &&
	    !strncmp(argv[2], "--format=", 9)) {
		if (!strcmp(argv[2] + 9, "md"))
			ssd_job_print_doc(stdout);
		else if (!strcmp(argv[2] + 9, "dict"))
			ssd_job_print_dict(stdout);
		else
			return usage_error("job doc: unknown format '%s' (accepted: md, dict)",
					   argv[2] + 9);
		return 0;
	}
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		puts(help);
		return 0;
	}
	return usage_error("usage: ssdlab job doc [--format=md|dict]");
}

/* ---- ssdlab accuracy ---- */

static int cmd_accuracy(int argc, char **argv)
{
	struct common_opts d = {.accept = OPT_DRIVE | OPT_SET | OPT_SEED |
					  OPT_ETA,
				.seed = 1};
	double pre = 4, meas = 4;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int r = common_opt(&d, argc, argv, &i);
		if (r < 0)
			return EXIT_USAGE;
		if (r)
			continue;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs("usage: ssdlab accuracy [--drive NAME] [--set K=V]... [--seed N] [--quick]\n"
			      "Simulated write amplification of uniform random 4 KiB writes in steady\n"
			      "state against the analytic models (greedy: mean-field with finite\n"
			      "blocks; FIFO: Desnoyers' closed form), at 7% and 28% OP, 64 and 256\n"
			      "pages per block.  The drive defaults to 'accuracy' (1 GiB, 4 KiB pages).\n"
			      "--quick halves the preconditioning and measuring volume.\n"
			      "\n"
			      ETA_HELP, stdout);
			return 0;
		}
		if (!strcmp(a, "--quick")) {
			pre = 3;
			meas = 2;
			continue;
		}
		return usage_error("unknown option '%s'", a);
	}
	if (!d.drive)
		d.drive = "accuracy";
	struct ssd_config base;
	int rc = load_drive(&d, &base);
	if (rc)
		return rc;
	char err[512];
	int off = 0;
	struct ssd_prog pg;
	struct ssd_prog *line = eta_begin(&d, "accuracy", &pg);
	rc = ssd_accuracy_table(&base, pre, meas, d.seed, stdout, &off, line,
				err, sizeof err);
	ssd_eta_end(&d.eta);
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return 1;
	}
	return off ? 1 : 0;
}

/* ---- ssdlab life ---- */

/* life's --output-format: normal or json */
static int life_format(struct common_opts *o, const char *val)
{
	(void)o;
	if (strcmp(val, "normal") && strcmp(val, "json"))
		return usage_error("--output-format must be normal or json, got '%s'", val);
	return 0;
}

static int cmd_life(int argc, char **argv)
{
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
		ETA_HELP
		"  --help                  this text\n";
	struct common_opts d = {.accept = OPT_DRIVE | OPT_SET | OPT_SEED |
					  OPT_FORMAT | OPT_OUTPUT | OPT_ETA,
				.seed = 1, .check_format = life_format};
	const char *jobfile = NULL;
	uint64_t daily = 20ULL << 30;
	int accelerated = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int r = common_opt(&d, argc, argv, &i);
		if (r < 0)
			return EXIT_USAGE;
		if (r)
			continue;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(life_help, stdout);
			return 0;
		}
		if (!strcmp(a, "--accelerated")) {
			accelerated = 1;
			continue;
		}
		static const char *const names[] = {"--daily", "--job", NULL};
		const char *val = NULL;
		int which = value_opt(argc, argv, &i, names, &val);
		if (which == -2)
			return EXIT_USAGE;
		switch (which) {
		case 0:
			if (ssd_parse_size(val, &daily) || !daily)
				return usage_error("--daily needs a size above 0 (like 20g or 500m), got '%s'", val);
			continue;
		case 1:
			jobfile = val;
			continue;
		}
		if (a[0] == '-' && a[1])
			return usage_error("unknown option '%s'", a);
		return usage_error("life takes no arguments, got '%s'", a);
	}
	if (accelerated && d.nsets + SSD_LIFE_ACCEL_NKEYS > MAX_ARGS)
		return usage_error("too many --set options");
	struct ssd_config cfg;
	char err[512];
	if (ssd_life_config(preset_dir(), d.drive, d.sets, d.nsets,
			    accelerated, &cfg, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return EXIT_USAGE;
	}
	struct ssd_job *jobs = NULL;
	int njobs = 0;
	int rc = ssd_life_jobs(jobfile, ssd_config_volume(&cfg), &jobs, &njobs, err,
			       sizeof err);
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return EXIT_USAGE;
	}
	FILE *out = stdout;
	struct ssd_ofile *of = NULL;
	if (d.output && ssd_ofile_open(d.output, SSD_OFILE_REPLACE, &of, err,
				       sizeof err)) {
		fprintf(stderr, "%s: %s\n", prog, err);
		free(jobs);
		return EXIT_USAGE;
	}
	if (of)
		out = ssd_ofile_stream(of);
	int json = d.format && !strcmp(d.format, "json");
	struct ssd_prog pg;
	struct ssd_prog *line = eta_begin(&d, "life", &pg);
	rc = ssd_life_report_run(&cfg, jobs, njobs, jobfile, d.seed,
				 accelerated, (double)daily, json, out, line,
				 err, sizeof err);
	ssd_eta_end(&d.eta);
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, err);
		ssd_ofile_discard(of); /* no report: the file as it was */
	} else if (ssd_ofile_commit(of, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", prog, err);
		rc = SSD_EIO;
	}
	free(jobs);
	return rc ? 1 : 0;
}

/* ---- ssdlab serve ---- */

static const char serve_help[] =
	"usage: ssdlab serve [options] [-- NBDKIT-OPTION...]\n"
	"Serve a simulated drive as a network block device (NBD), so that real\n"
	"programs use it: fio's nbd engine, qemu-io, qemu-img, nbdcopy, nbdfuse\n"
	"with a file system on it, a virtual machine, the kernel's nbd-client.\n"
	"The data is real (what is written reads back; trimmed and never-written\n"
	"ranges read as zeros); the latencies, GC and wear are the model's.\n"
	"Starts nbdkit (in the foreground) with ssdlab's plugin; docs/serve.md.\n"
	"\n"
	"  --drive NAME|FILE.ini   drive preset or file (default: default)\n"
	"  --set KEY=VALUE         override a drive key (repeatable)\n"
	"  --seed N                seed of the drive (default 1)\n"
	"  --socket PATH           listen on a Unix socket\n"
	"  --port N                listen on TCP port N (default 10809)\n"
	"  --ip ADDR               the TCP address, IPv4 or IPv6 (default\n"
	"                          127.0.0.1); one that other hosts reach (not\n"
	"                          127.0.0.0/8 or ::1) needs --tls=require and a\n"
	"                          key (below), or --insecure\n"
	"  --tls off|on|require    nbdkit's TLS: refused, offered, or required of\n"
	"                          every client (with a credential below)\n"
	"  --tls-psk FILE          pre-shared keys, USERNAME:HEXKEY lines (made\n"
	"                          by 'psktool -u NAME -p FILE'): a client needs\n"
	"                          one (nbds://NAME@HOST/?tls-psk-file=FILE)\n"
	"  --tls-certificates DIR  X.509: ca-cert.pem, server-cert.pem and\n"
	"                          server-key.pem in DIR (nbdkit-tls(1)); this\n"
	"                          encrypts, but admits any client ...\n"
	"  --tls-verify-peer       ... unless it also checks the clients'\n"
	"                          certificates against ca-cert.pem\n"
	"  --insecure              serve an --ip that other hosts reach without\n"
	"                          client authentication: anyone who reaches it\n"
	"                          reads and writes the drive\n"
	"  --readonly              a read-only export (nbdkit's -r): writes,\n"
	"                          trims and zeroing fail with EPERM before they\n"
	"                          reach the drive\n"
	"  --clock real|fast       real (default): simulated time is wall time,\n"
	"                          each reply waits for its simulated completion\n"
	"                          and idle time on the wire is idle time for\n"
	"                          background GC; fast: no waiting, simulated\n"
	"                          time runs as fast as the requests come\n"
	"  --fast-qd N             the fast clock serves the requests as a closed\n"
	"                          loop of N commands (default 1)\n"
	"  --client-overhead TIME  the real clock replies this much before each\n"
	"                          simulated completion: the client stack's own\n"
	"                          round trip (its latency at --clock fast), so\n"
	"                          that what the client measures is the drive's\n"
	"                          (default 0; a bare number is microseconds)\n"
	"  --data memory|FILE      where the data lives: memory (default; pages\n"
	"                          allocated as written, freed on TRIM) or a\n"
	"                          new or empty sparse file (holes punched)\n"
	"  --output FILE           the report (as 'ssdlab run' writes it) on\n"
	"                          SIGUSR1 and at exit, to FILE (rewritten\n"
	"                          each time) instead of standard output\n"
	"  --output-format FMT     normal (default), json, json+, terse or a list\n"
	"  --stats-interval TIME   a row of counters every TIME of simulated time\n"
	"                          (WAF, GC copies, free blocks, IOPS; at least\n"
	"                          10ms; a bare number is seconds) ...\n"
	"  --stats-log FILE        ... into FILE (CSV; default serve-stats.csv)\n"
	"  --threads N             nbdkit's threads per connection, the deepest\n"
	"                          queue one client gets (default 64)\n"
	"  --run CMD               run CMD with the drive served (nbdkit's\n"
	"                          captive mode: $uri, $unixsocket in CMD), stop\n"
	"                          when it exits and exit with its status\n"
	"  --check N               run the FTL invariant checker after every\n"
	"                          N garbage-collected blocks, every program\n"
	"                          failure, retirement and turn to read-only,\n"
	"                          and check the timing of every flash\n"
	"                          operation and command (slow; for tests)\n"
	"  --power-cuts            allow power cuts: SIGUSR2 cuts the power,\n"
	"                          the drive recovers, and the data the cut\n"
	"                          lost reads as it does after the cut (older\n"
	"                          content or zeros); requests in flight fail\n"
	"                          with EIO (docs/power-loss.md)\n"
	"  --power-log FILE        ... each cut's lost pages, as CSV\n"
	"  --power-off TIME        ... the time the power stays off (default 0;\n"
	"                          a bare number is seconds)\n"
	"  --snapshot FILE         serve the drive saved in FILE (ssdlab run\n"
	"                          --save-snapshot) instead of a fresh one: its\n"
	"                          state, not its data (the store starts empty:\n"
	"                          zeros until written; docs/snapshots.md)\n"
	ETA_HELP
	"  --verbose               nbdkit's debug messages\n"
	"  --help                  this text\n"
	"\n"
	"Stop it with SIGTERM or Ctrl-C: the report is written as it exits.\n"
	"SIGUSR1 writes the report; with --power-cuts, SIGUSR2 cuts the power.\n"
	"Environment: SSDLAB_NBDKIT (the nbdkit program), SSDLAB_NBDKIT_PLUGIN\n"
	"(the plugin, found beside this binary otherwise).\n"
	"\n"
	"Options after '--' go to nbdkit unchecked, except where it listens and\n"
	"TLS, which are refused there.\n"
	"\n"
	"Exit status: nbdkit's (with --run, the command's); 2 for a usage or\n"
	"input error (bad options, drive or files, an address this host does\n"
	"not have, a port in use, TLS credentials missing), found before\n"
	"nbdkit starts.\n";

static int serve_format(struct common_opts *o, const char *val)
{
	(void)o;
	unsigned f;
	if (ssd_output_formats(val, &f))
		return usage_error("--output-format needs normal, json, json+, terse or "
				   "a comma list of them, got '%s'", val);
	return 0;
}

/* The plugin: $SSDLAB_NBDKIT_PLUGIN, else beside the binary (build/),
 * in build/ beside it (the checkout's ./ssdlab), or installed in
 * ../lib/ssdlab/.  NULL if none is readable. */
static const char *serve_plugin(void)
{
	static char path[PATH_MAX + 64];
	const char *env = getenv("SSDLAB_NBDKIT_PLUGIN");
	if (env && *env) {
		if (access(env, R_OK)) {
			fprintf(stderr, "%s: SSDLAB_NBDKIT_PLUGIN=%s: %s\n", prog, env,
				strerror(errno));
			exit(EXIT_USAGE);
		}
		return env;
	}
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return NULL;
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = 0;
	static const char *const rel[] = {"", "/build", "/../lib/ssdlab"};
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof path, "%s%s/nbdkit-ssdlab-plugin.so", exe, rel[i]);
		if (!access(path, R_OK))
			return path;
	}
	return NULL;
}

/* A file the server will write: its folder must exist and be writable
 * (checked here, so that the mistake is a usage error before anything
 * listens).  0, or the usage error printed. */
static int serve_path_ok(const char *what, const char *path)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	const char *d = slash ? (*dir ? dir : "/") : ".";
	if (access(d, W_OK)) {
		fprintf(stderr, "%s: %s %s: folder %s: %s\n", prog, what, path, d,
			strerror(errno));
		return EXIT_USAGE;
	}
	return 0;
}

/* --socket PATH: a socket left by a server that is gone is removed (as
 * nbdkit does not); one a server still listens on, or a file that is
 * not a socket, is an error. */
static int serve_socket_ok(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (!*path || strlen(path) >= sizeof sa.sun_path) {
		fprintf(stderr, "%s: socket '%s': a socket's path has 1 to %zu "
			"characters\n", prog, path, sizeof sa.sun_path - 1);
		return EXIT_USAGE;
	}
	struct stat sb;
	if (lstat(path, &sb))
		return serve_path_ok("socket", path);
	if (!S_ISSOCK(sb.st_mode)) {
		fprintf(stderr, "%s: socket %s: exists and is not a socket\n", prog, path);
		return EXIT_USAGE;
	}
	strcpy(sa.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int up = fd >= 0 && !connect(fd, (struct sockaddr *)&sa, sizeof sa);
	int refused = !up && errno == ECONNREFUSED;
	if (fd >= 0)
		close(fd);
	if (up) {
		fprintf(stderr, "%s: socket %s: a server is listening on it\n", prog, path);
		return EXIT_USAGE;
	}
	if (refused && unlink(path)) {
		fprintf(stderr, "%s: socket %s: %s\n", prog, path, strerror(errno));
		return EXIT_USAGE;
	}
	return 0;
}

/* --ip ADDR: a numeric IPv4 or IPv6 address (a name could resolve to
 * anything, so it cannot be told safe); *loopback set when only this
 * host can reach it: 127.0.0.0/8, ::1, ::ffff:127.0.0.0/104.  0, or the
 * usage error printed. */
static int serve_ip_ok(const char *ip, int *loopback)
{
	struct in_addr a4;
	struct in6_addr a6;
	if (inet_pton(AF_INET, ip, &a4) == 1) {
		*loopback = (ntohl(a4.s_addr) >> 24) == 127;
		return 0;
	}
	if (inet_pton(AF_INET6, ip, &a6) == 1) {
		*loopback = IN6_IS_ADDR_LOOPBACK(&a6) ||
			    (IN6_IS_ADDR_V4MAPPED(&a6) && a6.s6_addr[12] == 127);
		return 0;
	}
	return usage_error("--ip needs an IPv4 or IPv6 address (like 127.0.0.1, "
			   "::1 or 0.0.0.0), got '%s'", ip);
}

/* The TCP address and port, bound and let go again as nbdkit will bind
 * them (SO_REUSEADDR, IPv6 only for an IPv6 address), so that a port in
 * use, a port below 1024 without the privilege or an address this host
 * does not have is this tool's one-line error before nbdkit starts. */
static int serve_tcp_ok(const char *ip, const char *port)
{
	struct addrinfo hints = {.ai_flags = AI_PASSIVE | AI_NUMERICHOST |
					     AI_NUMERICSERV,
				 .ai_socktype = SOCK_STREAM};
	struct addrinfo *ai;
	int rc = getaddrinfo(ip, port, &hints, &ai);
	if (rc)
		return usage_error("--ip %s --port %s: %s", ip, port, gai_strerror(rc));
	int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
	int one = 1;
	int ok = fd >= 0 &&
		 !setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) &&
		 (ai->ai_family != AF_INET6 ||
		  !setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one)) &&
		 !bind(fd, ai->ai_addr, ai->ai_addrlen);
	int err = errno;
	if (fd >= 0)
		close(fd);
	freeaddrinfo(ai);
	if (ok)
		return 0;
	fprintf(stderr, "%s: cannot listen on %s port %s: %s%s\n", prog, ip, port,
		strerror(err),
		err == EADDRINUSE ? " (another server listens there: choose "
		"another --port)" : err == EACCES ? " (ports below 1024 need "
		"privileges)" : err == EADDRNOTAVAIL ? " (not an address of this "
		"host)" : "");
	return EXIT_USAGE;
}

/* --tls-certificates DIR: the files nbdkit loads from it (nbdkit-tls(1);
 * ca-crl.pem is optional) are there and readable. */
static int serve_certs_ok(const char *dir)
{
	static const char *const need[] = {"ca-cert.pem", "server-cert.pem",
					    "server-key.pem"};
	struct stat sb;
	int gone = stat(dir, &sb);
	if (gone || !S_ISDIR(sb.st_mode)) {
		fprintf(stderr, "%s: --tls-certificates %s: %s\n", prog, dir,
			gone ? strerror(errno) : "not a folder");
		return EXIT_USAGE;
	}
	for (int k = 0; k < 3; k++) {
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s/%s", dir, need[k]);
		if (access(path, R_OK)) {
			fprintf(stderr, "%s: --tls-certificates %s: %s: %s (the folder "
				"holds ca-cert.pem, server-cert.pem and server-key.pem, "
				"nbdkit-tls(1))\n", prog, dir, need[k], strerror(errno));
			return EXIT_USAGE;
		}
	}
	return 0;
}

/* --tls-psk FILE: readable, and every line USERNAME:HEXKEY as psktool(1)
 * writes them (GnuTLS reads the file at each handshake and would only
 * refuse the clients). */
static int serve_psk_ok(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "%s: --tls-psk %s: %s\n", prog, path, strerror(errno));
		return EXIT_USAGE;
	}
	char line[1024];
	int n = 0, keys = 0, bad = 0;
	while (!bad && fgets(line, sizeof line, f)) {
		n++;
		line[strcspn(line, "\r\n")] = 0;
		if (!*line)
			continue;
		char *colon = strchr(line, ':');
		size_t hex = colon ? strspn(colon + 1, "0123456789abcdefABCDEF") : 0;
		bad = !colon || colon == line || !hex || hex % 2 || colon[1 + hex];
		keys++;
	}
	int rerr = ferror(f);
	fclose(f);
	if (rerr || bad || !keys) {
		if (rerr)
			fprintf(stderr, "%s: --tls-psk %s: cannot read it\n", prog, path);
		else if (bad)
			fprintf(stderr, "%s: --tls-psk %s:%d: wanted USERNAME:HEXKEY (make "
				"the file with 'psktool -u USERNAME -p %s')\n", prog, path,
				n, path);
		else
			fprintf(stderr, "%s: --tls-psk %s: no keys in it (make them with "
				"'psktool -u USERNAME -p %s')\n", prog, path, path);
		return EXIT_USAGE;
	}
	return 0;
}

/* After '--' go nbdkit's own options, unchecked; where it listens and
 * its TLS are serve's options, checked here, and may not be set there. */
static int serve_tail_ok(int argc, char **argv, int rest)
{
	static const char *const own[][2] = {
		{"-i", "--ipaddr"}, {"-p", "--port"}, {"-U", "--unix"},
		{NULL, "--tls"}, {NULL, "--vsock"}};
	for (int i = rest; i < argc; i++) {
		const char *a = argv[i];
		for (size_t k = 0; k < sizeof own / sizeof own[0]; k++) {
			size_t n = strlen(own[k][1]);
			if ((own[k][0] && !strncmp(a, own[k][0], 2)) ||
			    !strncmp(a, own[k][1], n))
				return usage_error("'%s' after '--': where serve listens and "
						   "its TLS are set by its own options (--ip, "
						   "--port, --socket, --tls...), which are "
						   "checked", a);
		}
	}
	return 0;
}

static int cmd_serve(int argc, char **argv)
{
	struct common_opts d = {.accept = OPT_DRIVE | OPT_SET | OPT_SEED |
					  OPT_FORMAT | OPT_OUTPUT | OPT_ETA,
				.seed = 1, .check_format = serve_format};
	const char *sock = NULL, *port = NULL, *ip = "127.0.0.1", *clock = "real";
	const char *data = "memory", *stats_log = NULL, *stats_interval = NULL;
	const char *run = NULL, *overhead = NULL;
	const char *power_log = NULL, *power_off = NULL;
	const char *tls = NULL, *tls_certs = NULL, *tls_psk = NULL, *snap = NULL;
	int power_cuts = 0, readonly = 0, tls_verify = 0, insecure = 0;
	uint64_t threads = 64, fast_qd = 1, check = 0;
	int verbose = 0, rest = argc, ip_set = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			rest = i + 1;
			break;
		}
		int r = common_opt(&d, argc, argv, &i);
		if (r < 0)
			return EXIT_USAGE;
		if (r)
			continue;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(serve_help, stdout);
			return 0;
		}
		if (!strcmp(a, "--verbose")) {
			verbose = 1;
			continue;
		}
		if (!strcmp(a, "--power-cuts")) {
			power_cuts = 1;
			continue;
		}
		if (!strcmp(a, "--readonly") || !strcmp(a, "-r")) {
			readonly = 1;
			continue;
		}
		if (!strcmp(a, "--tls-verify-peer")) {
			tls_verify = 1;
			continue;
		}
		if (!strcmp(a, "--insecure")) {
			insecure = 1;
			continue;
		}
		static const char *const names[] = {
			"--socket", "--port", "--ip", "--clock", "--fast-qd", "--data",
			"--stats-interval", "--stats-log", "--threads", "--run",
			"--check", "--client-overhead", "--power-log", "--power-off",
			"--tls", "--tls-certificates", "--tls-psk", "--snapshot",
			NULL};
		const char *val = NULL;
		int which = value_opt(argc, argv, &i, names, &val);
		if (which == -2)
			return EXIT_USAGE;
		uint64_t v;
		int64_t ns;
		switch (which) {
		case 0: sock = val; continue;
		case 1:
			if (ssd_parse_u64(val, &v) || v < 1 || v > 65535)
				return usage_error("--port needs a port number from 1 to 65535, got '%s'", val);
			port = val;
			continue;
		case 2: ip = val; ip_set = 1; continue;
		case 3:
			if (strcmp(val, "real") && strcmp(val, "fast"))
				return usage_error("--clock needs real or fast, got '%s'", val);
			clock = val;
			continue;
		case 4:
			if (ssd_parse_u64(val, &fast_qd) || fast_qd < 1 || fast_qd > 65536)
				return usage_error("--fast-qd needs a number from 1 to 65536, got '%s'", val);
			continue;
		case 5:
			if (!*val)
				return usage_error("--data needs memory or a file name");
			data = val;
			continue;
		case 6:
			if (ssd_parse_time(val, 1000000000, &ns) || ns < 10000000)
				return usage_error("--stats-interval needs a time of at least 10ms (like 1s or 500ms), got '%s'", val);
			stats_interval = val;
			continue;
		case 7: stats_log = val; continue;
		case 8:
			if (ssd_parse_u64(val, &threads) || threads < 1 || threads > 1024)
				return usage_error("--threads needs a number from 1 to 1024, got '%s'", val);
			continue;
		case 9: run = val; continue;
		case 11:
			if (ssd_parse_time(val, 1000, &ns) || ns < 0 || ns > 1000000000)
				return usage_error("--client-overhead needs a time up to 1s (like 45us), got '%s'", val);
			overhead = val;
			continue;
		case 10:
			if (parse_u64_arg("--check", val, &check))
				return EXIT_USAGE;
			if (check > UINT32_MAX)
				return usage_error("--check needs a number of GC victims, got '%s'", val);
			continue;
		case 12: power_log = val; continue;
		case 13:
			if (ssd_parse_time(val, 1000000000, &ns) || ns < 0 ||
			    ns > 3600 * (int64_t)1000000000)
				return usage_error("--power-off needs a time up to 1h (like 2s), got '%s'", val);
			power_off = val;
			continue;
		case 14:
			if (strcmp(val, "off") && strcmp(val, "on") && strcmp(val, "require"))
				return usage_error("--tls needs off, on or require, got '%s'", val);
			tls = val;
			continue;
		case 15: tls_certs = val; continue;
		case 16: tls_psk = val; continue;
		case 17: snap = val; continue;
		}
		if (a[0] == '-' && a[1])
			return usage_error("unknown option '%s'", a);
		return usage_error("serve takes no arguments, got '%s'", a);
	}
	if (sock && port)
		return usage_error("--socket and --port exclude each other");
	if (sock && ip_set)
		return usage_error("--ip goes with --port, not --socket");
	if (run && ip_set && !port)
		return usage_error("--ip goes with --port (--run alone serves on a private socket)");
	if (stats_log && !stats_interval)
		return usage_error("--stats-log needs --stats-interval");
	if ((power_log || power_off) && !power_cuts)
		return usage_error("--power-log and --power-off need --power-cuts");
	if (snap && power_cuts)
		return usage_error("--power-cuts starts from a fresh drive; it "
				   "excludes --snapshot");
	int rc = serve_tail_ok(argc, argv, rest);
	if (rc)
		return rc;
	/* TLS: nbdkit's options and meanings, but the credentials named
	 * (nbdkit would look in its default folders), so that they are
	 * checked here */
	if (tls && strcmp(tls, "off") && !tls_certs && !tls_psk)
		return usage_error("--tls=%s needs --tls-psk FILE or --tls-certificates DIR", tls);
	if (tls_verify && !tls_certs)
		return usage_error("--tls-verify-peer checks client certificates: it goes with --tls-certificates DIR");
	if ((tls_certs && (rc = serve_certs_ok(tls_certs))) ||
	    (tls_psk && (rc = serve_psk_ok(tls_psk))))
		return rc;
	/* Where it listens: TCP beyond this host only with the clients
	 * authenticated, or when the user says so */
	int tcp = !sock && (port || !run), loopback = 1;
	if (tcp && (rc = serve_ip_ok(ip, &loopback)))
		return rc;
	int authenticated = tls && !strcmp(tls, "require") &&
			    (tls_psk || (tls_certs && tls_verify));
	if (tcp && !loopback && !authenticated && !insecure)
		return usage_error("--ip %s lets any host that reaches it %s the "
				   "drive: add --tls=require with --tls-psk FILE (or "
				   "--tls-certificates DIR --tls-verify-peer) to admit "
				   "only clients with the key, or --insecure to serve "
				   "it to anyone", ip, readonly ? "read" : "read and write");

	/* the drive is checked here, so that its errors read as this
	 * tool's; the plugin loads it again from the same words */
	struct ssd_config cfg;
	if ((rc = snap ? snapshot_config(&d, snap, &cfg) : load_drive(&d, &cfg)))
		return rc;
	if (strcmp(data, "memory")) {
		struct stat sb;
		if (!stat(data, &sb) && (!S_ISREG(sb.st_mode) || sb.st_size)) {
			fprintf(stderr, "%s: data file %s: %s\n", prog, data,
				S_ISREG(sb.st_mode) ? "exists and is not empty (the drive "
				"starts fresh; remove it or name another)"
				: "not a regular file");
			return EXIT_USAGE;
		}
	}
	if ((sock && (rc = serve_socket_ok(sock))) ||
	    (d.output && (rc = serve_path_ok("report", d.output))) ||
	    (strcmp(data, "memory") && (rc = serve_path_ok("data file", data))) ||
	    (stats_interval &&
	     (rc = serve_path_ok("stats log", stats_log ? stats_log : "serve-stats.csv"))) ||
	    (power_log && (rc = serve_path_ok("power log", power_log))) ||
	    (tcp && (rc = serve_tcp_ok(ip, port ? port : "10809"))))
		return rc;
	if (power_cuts && ssd_config_is_machine(&cfg))
		return usage_error("--power-cuts needs a bare SSD (no host layers, not a disk)");
	char merr[512];
	if (ssd_dev_mem_check(&cfg, power_cuts ? SSD_MEM_POWER : 0, 0, merr, sizeof merr)) {
		fprintf(stderr, "%s: %s\n", prog, merr);
		return 1;
	}
	const char *plugin = serve_plugin();
	if (!plugin) {
		fprintf(stderr, "%s: serve needs the nbdkit plugin nbdkit-ssdlab-plugin.so, "
			"not found beside this binary (build it with 'make' after "
			"'apt-get install nbdkit nbdkit-plugin-dev')\n", prog);
		return EXIT_USAGE;
	}
	const char *nbdkit = getenv("SSDLAB_NBDKIT");
	if (!nbdkit || !*nbdkit)
		nbdkit = "nbdkit";
	/* nbdkit's argv: its options, the plugin, the plugin's key=value */
	int max = 48 + 2 * d.nsets + (argc - rest);
	char **av = calloc((size_t)max, sizeof *av);
	char (*kv)[PATH_MAX + 32] = calloc((size_t)(24 + d.nsets), sizeof *kv);
	if (!av || !kv) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	int n = 0, k = 0;
	char tbuf[32];
	av[n++] = (char *)nbdkit;
	av[n++] = "-f";
	if (verbose)
		av[n++] = "-v";
	snprintf(tbuf, sizeof tbuf, "%llu", (unsigned long long)threads);
	av[n++] = "-t";
	av[n++] = tbuf;
	if (sock) {
		av[n++] = "-U";
		av[n++] = (char *)sock;
	} else if (run && !port) {
		av[n++] = "-U";
		av[n++] = "-";
	} else {
		av[n++] = "-i";
		av[n++] = (char *)ip;
		av[n++] = "-p";
		av[n++] = (char *)(port ? port : "10809");
	}
	if (run) {
		av[n++] = "--run";
		av[n++] = (char *)run;
	}
#define KV(...) (snprintf(kv[k], sizeof kv[k], __VA_ARGS__), av[n++] = kv[k++])
	/* TLS and read-only: nbdkit's own options (the credentials made
	 * absolute: GnuTLS reads the key file at every handshake) */
	char full[PATH_MAX];
	if (tls)
		KV("--tls=%s", tls);
	if (tls_certs)
		KV("--tls-certificates=%s", realpath(tls_certs, full) ? full : tls_certs);
	if (tls_psk)
		KV("--tls-psk=%s", realpath(tls_psk, full) ? full : tls_psk);
	if (tls_verify)
		av[n++] = "--tls-verify-peer";
	if (readonly)
		av[n++] = "--readonly";
	for (int i = rest; i < argc; i++)
		av[n++] = argv[i];
	av[n++] = (char *)plugin;
	if (!snap || d.drive)
		KV("drive=%s", d.drive ? d.drive : "default");
	if (snap)
		KV("snapshot=%s", realpath(snap, full) ? full : snap);
	for (int i = 0; i < d.nsets; i++)
		KV("set=%s", d.sets[i]);
	KV("presets=%s", preset_dir());
	KV("seed=%llu", (unsigned long long)d.seed);
	KV("clock=%s", clock);
	KV("fast-qd=%llu", (unsigned long long)fast_qd);
	KV("data=%s", data);
	if (overhead)
		KV("client-overhead=%s", overhead);
	if (d.output)
		KV("output=%s", d.output);
	if (d.format)
		KV("format=%s", d.format);
	if (stats_interval) {
		KV("stats-interval=%s", stats_interval);
		KV("stats-log=%s", stats_log ? stats_log : "serve-stats.csv");
	}
	if (check)
		KV("check=%llu", (unsigned long long)check);
	if (power_cuts)
		KV("power-cuts=1");
	if (power_log)
		KV("power-log=%s", power_log);
	if (power_off)
		KV("power-off=%s", power_off);
	/* the status line: the reporter thread draws it (report/eta.h) */
	KV("eta=%s", d.eta.when == SSD_ETA_ALWAYS ? "always"
		     : d.eta.when == SSD_ETA_NEVER ? "never" : "auto");
	if (d.eta.interval > 0)
		KV("eta-interval=%lldus", (long long)llround(d.eta.interval * 1e6));
	if (d.eta.newline > 0)
		KV("eta-newline=%lldus", (long long)llround(d.eta.newline * 1e6));
#undef KV
	av[n] = NULL;
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: write error on standard output: %s\n", prog,
			strerror(errno));
		return 1;
	}
#ifdef SSDLAB_ASAN_RUNTIME
	/* a sanitized build's plugin needs its runtime loaded first, with
	 * the library built beside it that keeps the runtime's late start
	 * from breaking glibc's locale lock (nbdkit/san_preload.c) */
	char preload[sizeof SSDLAB_ASAN_RUNTIME + PATH_MAX + 64];
	const char *slash = strrchr(plugin, '/');
	int dir = slash ? (int)(slash - plugin) + 1 : 0;
	snprintf(preload, sizeof preload, "%s:%s%.*snbdkit-ssdlab-san-preload.so",
		 SSDLAB_ASAN_RUNTIME, slash ? "" : "./", dir, plugin);
	if (access(preload + sizeof SSDLAB_ASAN_RUNTIME, R_OK))
		preload[sizeof SSDLAB_ASAN_RUNTIME - 1] = 0;
	setenv("LD_PRELOAD", preload, 1);
	setenv("ASAN_OPTIONS", "detect_leaks=0", 0);
#endif
	execvp(nbdkit, av);
	fprintf(stderr, "%s: cannot run %s: %s (apt-get install nbdkit)\n", prog,
		nbdkit, strerror(errno));
	return EXIT_USAGE;
}

/* ---- ssdlab calibrate ---- */

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
	ETA_HELP
	"  --help                  this text\n"
	"\n"
	"The column 'fill' says what filled each figure's drive before it was\n"
	"measured: '-' (a fresh drive), sequential, dircopy or random (4 KiB\n"
	"random writes over the span); a drive file names the procedure of\n"
	"its full-drive figures on a line '# fill PROCEDURE: why'.\n";

static int cmd_calibrate(int argc, char **argv)
{
	struct common_opts d = {.accept = OPT_DRIVES | OPT_SET | OPT_SEED |
					  OPT_ETA,
				.seed = 1};
	int quick = 0, markdown = 0, fill = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int r = common_opt(&d, argc, argv, &i);
		if (r < 0)
			return EXIT_USAGE;
		if (r)
			continue;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(calibrate_help, stdout);
			return 0;
		}
		if (!strcmp(a, "--quick")) {
			quick = 1;
			continue;
		}
		if (!strcmp(a, "--markdown")) {
			markdown = 1;
			continue;
		}
		static const char *const fill_opt[] = {"--fill", NULL};
		const char *val;
		int w = value_opt(argc, argv, &i, fill_opt, &val);
		if (w == -2)
			return EXIT_USAGE;
		if (w == 0) {
			if ((fill = ssd_cal_fill_find(val)) < 0)
				return usage_error("--fill: unknown procedure '%s' "
						   "(accepted: sequential, "
						   "dircopy)", val);
			continue;
		}
		if (a[0] == '-')
			return usage_error("unknown option '%s'", a);
		return usage_error("calibrate takes no arguments, got '%s' (use --drive)", a);
	}
	struct ssd_cal_table t = {
		.preset_dir = preset_dir(), .drives = d.drives,
		.ndrives = d.ndrives, .sets = d.sets, .nsets = d.nsets,
		.markdown = markdown,
		.opts = {.quick = quick, .seed = d.seed, .fill = fill},
		.out = stdout, .msg = stderr, .prefix = prog};
	struct ssd_cal_verdict v;
	char err[1024];
	int input = 0;
	struct ssd_prog pg;
	t.opts.prog = eta_begin(&d, "calibrate", &pg);
	int rc = ssd_cal_table_run(&t, &v, &input, err, sizeof err);
	ssd_eta_end(&d.eta);
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return input ? EXIT_USAGE : 1;
	}
	return v.failed ? 1 : 0;
}

/* ---- ssdlab scenario ---- */

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
	ETA_HELP;

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
	fputs("\n" ETA_HELP, stdout);
}

static int cmd_scenario(int argc, char **argv)
{
	if (argc < 2)
		return usage_error("scenario needs a command (accepted: list, run)");
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
			return usage_error("scenario list takes no arguments, got '%s'", argv[2]);
		for (int i = 0; ssd_scenarios[i]; i++) {
			const struct ssd_scenario *sc = ssd_scenarios[i];
			printf("%s\n  %s\n", sc->name, sc->summary);
			scenario_params(sc);
		}
		return 0;
	}
	if (strcmp(argv[1], "run"))
		return usage_error("unknown scenario command '%s' (accepted: list, run)", argv[1]);
	struct common_opts d = {.accept = OPT_DRIVE | OPT_SET | OPT_SEED |
					  OPT_ETA,
				.seed = 1};
	const char *name = NULL, *outdir = NULL, *snap = NULL;
	int want_help = 0;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		int r = common_opt(&d, argc, argv, &i);
		if (r < 0)
			return EXIT_USAGE;
		if (r)
			continue;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			want_help = 1;
			continue;
		}
		static const char *const snames[] = {"--snapshot", NULL};
		const char *val = NULL;
		int which = value_opt(argc, argv, &i, snames, &val);
		if (which == -2)
			return EXIT_USAGE;
		if (which == 0) {
			snap = val;
			continue;
		}
		if (!strcmp(a, "--out")) {
			if (i + 1 >= argc)
				return usage_error("option '%s' needs a value", a);
			outdir = argv[++i];
			continue;
		}
		if (!strncmp(a, "--out=", 6)) {
			outdir = a + 6;
			continue;
		}
		if (a[0] == '-')
			return usage_error("unknown option '%s'", a);
		if (name)
			return usage_error("more than one scenario: '%s'", a);
		name = a;
	}
	if (want_help && !name) {
		fputs(scenario_help, stdout);
		return 0;
	}
	if (!name)
		return usage_error("scenario run needs a scenario name (accepted: %s)",
				   scenario_names());
	const struct ssd_scenario *sc = ssd_scenario_find(name);
	if (!sc)
		return usage_error("unknown scenario '%s' (accepted: %s)", name,
				   scenario_names());
	if (want_help) {
		scenario_run_help(sc);
		return 0;
	}
	/* from here a usage error points to this scenario's help */
	static char cmdname[96];
	snprintf(cmdname, sizeof cmdname, "scenario run %s", sc->name);
	help_cmd = cmdname;
	/* --set: the scenario's parameters, the rest are drive keys */
	const char *psets[MAX_ARGS];
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
			return usage_error("--set: '%s' is neither a parameter of "
					   "scenario %s nor a drive key (accepted "
					   "parameters: %s)", key, sc->name,
					   scenario_param_names(sc));
		else
			d.sets[nd++] = d.sets[i];
	}
	d.nsets = nd;
	struct ssd_config cfg;
	int rc;
	char err[640];
	if (snap) {
		/* the snapshot's drive, which --drive and --set may repeat */
		if ((rc = snapshot_config(&d, snap, &cfg)))
			return rc;
	} else {
		if (!d.drive)
			d.drive = sc->drive; /* the scenario's own drive, or default */
		if ((rc = load_drive(&d, &cfg)))
			return rc;
	}
	char dir[4096];
	if (!outdir) {
		snprintf(dir, sizeof dir, "ssdlab-out/%s", sc->name);
		outdir = dir;
	}
	struct ssd_prog pg;
	struct ssd_prog *line = eta_begin(&d, sc->name, &pg);
	rc = ssd_scenario_run_from(sc, &cfg, snap, outdir, preset_dir(), psets,
				   np, d.seed, stdout, line, err, sizeof err);
	ssd_eta_end(&d.eta);
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return rc == SSD_EPARSE || rc == SSD_ENOENT || rc == SSD_ERANGE ? EXIT_USAGE : 1;
	}
	return 0;
}

/* ---- ssdlab trace ---- */

#define TRACE_FROM_OPT \
	"  --from FORMAT           the trace's format: auto (default: an iolog\n" \
	"                          or a blktrace file, by its first bytes),\n" \
	"                          iolog, blktrace, blkparse, msr, spc, disksim,\n" \
	"                          mqsim, alibaba, tencent\n"
#define TRACE_DEVICE_OPT \
	"  --device N              only the requests of device N: MSR's\n" \
	"                          DiskNumber, SPC's ASU, Alibaba's device_id,\n" \
	"                          Tencent's VolumeID, DiskSim's and MQSim's\n" \
	"                          device; blktrace's and blkparse's as MAJ,MIN\n" \
	"                          (or MAJ << 20 | MIN)\n"
#define TRACE_CONVERT_OPTS \
	TRACE_FROM_OPT TRACE_DEVICE_OPT \
	"  --capacity SIZE         the drive's size (64m, 2t): a request past it\n" \
	"                          is an error naming its line, unless --fold\n" \
	"  --fold modulo|scale     bring the requests past --capacity inside it:\n" \
	"                          modulo, offset % capacity, keeps the\n" \
	"                          locality; scale, offset x capacity / the\n" \
	"                          trace's address range, keeps the layout (IN\n" \
	"                          is read twice); the new offset is aligned\n" \
	"                          down to 4 KiB, and a request that then\n" \
	"                          crosses the end is moved to end at it\n" \
	"  --align-warn 512|4k     warn of the first request not aligned to this\n" \
	"                          (default 512), and count them at the end\n" \
	"  --file NAME             the file name in the iolog (default trace)\n"
#define TRACE_STAT_OPTS \
	TRACE_FROM_OPT TRACE_DEVICE_OPT \
	"  --interval TIME         the write working set's interval (default:\n" \
	"                          the duration / 20, which reads FILE twice; a\n" \
	"                          bare number is seconds)\n" \
	"  --output-format FMT     normal (default) or json\n" \
	"  --output FILE           write the report to FILE instead of stdout\n"
#define TRACE_CONVERT_TEXT \
	"Read the trace IN and write it as an fio iolog version 3, which\n" \
	"read_iolog= replays here and fio replays on a real drive: one file\n" \
	"(trace), times in microseconds since the first request, the syncs as\n" \
	"'sync 0 0'.  OUT '-' is standard output, OUT ending in .gz is\n" \
	"gzip-compressed.  A summary of what was converted goes to standard\n" \
	"error.\n"
#define TRACE_STAT_TEXT \
	"What the trace FILE holds, read as a stream (once with --interval,\n" \
	"else twice): requests; reads, writes, trims and syncs (count, bytes,\n" \
	"sizes by powers of two); the footprint (distinct 4 KiB pages touched,\n" \
	"written, read); the address range; the sequential share (requests\n" \
	"starting where the previous one of their direction ended);\n" \
	"inter-arrival times (mean, p50, p99, max); the duration; the\n" \
	"read/write ratio; and the write working set, the distinct pages\n" \
	"written in each interval and up to its end.  Memory: 4 bits per 4 KiB\n" \
	"page of each GiB of address range touched (touched, written, read,\n" \
	"written in the interval: 128 KiB per GiB, at most 1 GiB), whatever\n" \
	"the trace's length.  docs/traces.md has the JSON keys.\n"

static const char trace_help[] =
	"usage: ssdlab trace convert IN OUT [--from FORMAT] [options]\n"
	"       ssdlab trace stat FILE [--from FORMAT] [options]\n"
	"Block traces in the formats they are published in -- fio's iolog,\n"
	"blktrace, blkparse, MSR Cambridge, SPC (UMass), DiskSim, MQSim,\n"
	"Alibaba, Tencent; plain or gzip-compressed -- read as a stream, in\n"
	"bounded memory.  docs/traces.md: the formats, the public collections\n"
	"and how to replay them.\n"
	"\n"
	"convert:  write a trace as an fio iolog version 3 for read_iolog=\n"
	"stat:     what a trace holds: requests, sizes, footprint, sequential\n"
	"          share, inter-arrival times, write working set\n"
	"\n"
	"Options of convert:\n"
	TRACE_CONVERT_OPTS
	"\n"
	"Options of stat:\n"
	TRACE_STAT_OPTS
	"\n"
	"'ssdlab trace convert --help' and 'ssdlab trace stat --help' say more.\n"
	"An input error (a malformed line: the message names FILE:LINE) exits\n"
	"with 2, like a usage error.\n";

static const char trace_convert_help[] =
	"usage: ssdlab trace convert IN OUT [--from FORMAT] [options]\n"
	TRACE_CONVERT_TEXT
	"\n"
	TRACE_CONVERT_OPTS
	"  --help                  this text\n"
	"\n"
	"Exit status: 0; 2 for a usage error or a malformed input line (the\n"
	"message names IN:LINE); 1 if OUT cannot be written.  A failed\n"
	"conversion leaves OUT as it was, or none.\n";

static const char trace_stat_help[] =
	"usage: ssdlab trace stat FILE [--from FORMAT] [options]\n"
	TRACE_STAT_TEXT
	"\n"
	TRACE_STAT_OPTS
	"  --help                  this text\n"
	"\n"
	"Exit status: 0; 2 for a usage error or a malformed input line (the\n"
	"message names FILE:LINE); 1 if the report cannot be written.\n";

static int trace_common_arg(int which, const char *val, int *fmt, int *has_dev,
			    uint32_t *dev)
{
	if (which == 0 && ssd_trace_fmt_parse(val, fmt))
		return usage_error("--from must be one of %s, got '%s'",
				   ssd_trace_fmt_list(), val);
	if (which == 1 && ssd_trace_dev_parse(val, dev))
		return usage_error("--device needs a device number N or MAJ,MIN, "
				   "got '%s'", val);
	if (which == 1)
		*has_dev = 1;
	return 0;
}

static int cmd_trace_convert(int argc, char **argv)
{
	struct ssd_tconv c = {.fmt = SSD_TRACE_AUTO, .msg = stderr, .prefix = prog};
	const char *pos[2] = {NULL, NULL};
	int npos = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(trace_convert_help, stdout);
			return 0;
		}
		static const char *const names[] = {"--from", "--device",
						    "--capacity", "--fold",
						    "--align-warn", "--file", NULL};
		const char *val = NULL;
		int which = value_opt(argc, argv, &i, names, &val);
		if (which == -2)
			return EXIT_USAGE;
		if (which == 0 || which == 1) {
			if (trace_common_arg(which, val, &c.fmt, &c.has_dev, &c.dev))
				return EXIT_USAGE;
			continue;
		}
		switch (which) {
		case 2:
			if (ssd_parse_size(val, &c.capacity) || !c.capacity)
				return usage_error("--capacity needs a size above 0 "
						   "(like 64m or 2t), got '%s'", val);
			continue;
		case 3:
			if (ssd_fold_parse(val, &c.fold))
				return usage_error("--fold must be modulo or scale, "
						   "got '%s'", val);
			continue;
		case 4:
			if (!strcmp(val, "512"))
				c.align = 512;
			else if (!strcmp(val, "4k") || !strcmp(val, "4096"))
				c.align = 4096;
			else
				return usage_error("--align-warn must be 512 or 4k, "
						   "got '%s'", val);
			continue;
		case 5:
			c.file = val;
			continue;
		}
		if (a[0] == '-' && a[1])
			return usage_error("unknown option '%s'", a);
		if (npos == 2)
			return usage_error("more than IN and OUT: '%s'", a);
		pos[npos++] = a;
	}
	if (npos < 2)
		return usage_error("trace convert needs IN and OUT (OUT - for "
				   "standard output)");
	if (c.fold && !c.capacity)
		return usage_error("--fold needs --capacity");
	if (c.fold && c.capacity % 4096)
		return usage_error("--capacity with --fold must be a multiple of "
				   "4 KiB, got %llu bytes",
				   (unsigned long long)c.capacity);
	c.in = pos[0];
	c.out = pos[1];
	struct ssd_tconv_counts n;
	char err[1024];
	int input = 0;
	int rc = ssd_trace_convert(&c, &n, err, sizeof err, &input);
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, err);
		/* standard output's failure is said once, here */
		stdout_reported = !strcmp(c.out, "-") && !input;
		return input ? EXIT_USAGE : 1;
	}
	fprintf(stderr, "%s: converted %llu request%s (%llu read%s, %llu write%s, "
		"%llu trim%s, %llu sync%s) of %s into %s\n", prog,
		(unsigned long long)n.requests, ssd_plural(n.requests),
		(unsigned long long)n.reads, ssd_plural(n.reads),
		(unsigned long long)n.writes, ssd_plural(n.writes),
		(unsigned long long)n.trims, ssd_plural(n.trims),
		(unsigned long long)n.syncs, ssd_plural(n.syncs), c.in,
		strcmp(c.out, "-") ? c.out : "standard output");
	return 0;
}

static int cmd_trace_stat(int argc, char **argv)
{
	struct common_opts d = {.accept = OPT_FORMAT | OPT_OUTPUT,
				.check_format = life_format};
	struct ssd_tstat_opts o = {.fmt = SSD_TRACE_AUTO};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int r = common_opt(&d, argc, argv, &i);
		if (r < 0)
			return EXIT_USAGE;
		if (r)
			continue;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(trace_stat_help, stdout);
			return 0;
		}
		static const char *const names[] = {"--from", "--device",
						    "--interval", NULL};
		const char *val = NULL;
		int which = value_opt(argc, argv, &i, names, &val);
		if (which == -2)
			return EXIT_USAGE;
		if (which == 0 || which == 1) {
			if (trace_common_arg(which, val, &o.fmt, &o.has_dev, &o.dev))
				return EXIT_USAGE;
			continue;
		}
		if (which == 2) {
			if (ssd_parse_time(val, SSD_S, &o.interval) || o.interval <= 0)
				return usage_error("--interval needs a time above 0 "
						   "(like 1s or 100ms; a bare number "
						   "is seconds), got '%s'", val);
			continue;
		}
		if (a[0] == '-' && a[1])
			return usage_error("unknown option '%s'", a);
		if (o.path)
			return usage_error("more than one trace: '%s'", a);
		o.path = a;
	}
	if (!o.path)
		return usage_error("trace stat needs a trace file");
	struct ssd_tstat *s;
	char err[1024];
	int input = 0, fmt = o.fmt;
	int rc = ssd_trace_stat(&o, &s, &fmt, err, sizeof err, &input);
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return input ? EXIT_USAGE : 1;
	}
	FILE *out = stdout;
	struct ssd_ofile *of = NULL;
	if (d.output && ssd_ofile_open(d.output, SSD_OFILE_REPLACE, &of, err,
				       sizeof err)) {
		fprintf(stderr, "%s: %s\n", prog, err);
		ssd_tstat_free(s);
		return EXIT_USAGE;
	}
	if (of)
		out = ssd_ofile_stream(of);
	if (d.format && !strcmp(d.format, "json"))
		ssd_tstat_json(s, &o, fmt, out);
	else
		ssd_tstat_print(s, &o, fmt, out);
	ssd_tstat_free(s);
	if (ssd_ofile_commit(of, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return 1;
	}
	return 0; /* standard output: checked at the end (close_stdout) */
}

static int cmd_trace(int argc, char **argv)
{
	if (argc < 2)
		return usage_error("trace needs a command (accepted: convert, stat)");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(trace_help, stdout);
		return 0;
	}
	/* from here a usage error points to the subcommand's help */
	if (!strcmp(argv[1], "convert")) {
		help_cmd = "trace convert";
		return cmd_trace_convert(argc - 1, argv + 1);
	}
	if (!strcmp(argv[1], "stat")) {
		help_cmd = "trace stat";
		return cmd_trace_stat(argc - 1, argv + 1);
	}
	return usage_error("unknown trace command '%s' (accepted: convert, stat)",
			   argv[1]);
}

/* ---- the demo ---- */

/* The steady-state scenario on the default drive: a fresh drive driven
 * into steady state by 4 KiB random writes, with its chart. */
static int demo(void)
{
	struct common_opts d = {.drive = "default"};
	struct ssd_config cfg;
	int rc = load_drive(&d, &cfg);
	if (rc)
		return rc;
	char cap[32], err[512];
	printf("ssdlab %s -- a simulated SSD you can open\n\n", SSDLAB_VERSION);
	printf("Drive '%s': %s user capacity, %.0f%% over-provisioning, %s, "
	       "%u KiB pages, %u pages per block, %u channels x %u dies, GC %s\n",
	       cfg.name, ssd_fmt_bytes(cfg.capacity, cap, sizeof cap), cfg.op * 100,
	       ssd_cell_name(cfg.cell), cfg.page_size / 1024, cfg.pages_per_block,
	       cfg.channels, cfg.dies_per_channel, ssd_gc_policy_name(cfg.gc_policy));
	printf("The reviewers' steady-state test: 4 KiB random writes at queue depth 32\n"
	       "over the whole span, no TRIM, from a fresh drive until well past the\n"
	       "point where its free space is exhausted.\n\n");
	fflush(stdout);
	double w0 = wall_now();
	struct ssd_prog pg;
	struct ssd_prog *line = eta_begin(&d, ssd_scn_steady_state.name, &pg);
	rc = ssd_scenario_run(&ssd_scn_steady_state, &cfg, "ssdlab-demo", preset_dir(), NULL, 0,
			      1, stdout, line, err, sizeof err);
	ssd_eta_end(&d.eta);
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return 1;
	}
	printf("\nThe chart: ssdlab-demo/steady-state.png (IOPS every second, 30 s "
	       "average).\nSimulated in %.1f s of wall time.  Next: ssdlab scenario "
	       "list, ssdlab run JOB.fio, ssdlab --help\n", wall_now() - w0);
	return 0;
}

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
		if (!stdout_reported)
			fprintf(stderr, "%s: %s\n", prog, err);
		rc = rc ? rc : 1;
	}
	if ((fflush(stderr) || ferror(stderr)) && !rc)
		rc = 1;
	return rc;
}

static int command(int argc, char **argv)
{
	if (argc < 2)
		return demo();
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		fputs(main_help, stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version")) {
		printf("ssdlab %s\n", SSDLAB_VERSION);
		return 0;
	}
	static const char *const cmds[] = {"run", "drives", "drive", "job",
					   "scenario", "accuracy", "calibrate",
					   "life", "serve", "trace", NULL};
	for (int i = 0; cmds[i]; i++)
		if (!strcmp(cmd, cmds[i]))
			help_cmd = cmds[i];
	if (!strcmp(cmd, "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(cmd, "drives"))
		return cmd_drives(argc - 1, argv + 1);
	if (!strcmp(cmd, "drive"))
		return cmd_drive(argc - 1, argv + 1);
	if (!strcmp(cmd, "job"))
		return cmd_job(argc - 1, argv + 1);
	if (!strcmp(cmd, "scenario"))
		return cmd_scenario(argc - 1, argv + 1);
	if (!strcmp(cmd, "accuracy"))
		return cmd_accuracy(argc - 1, argv + 1);
	if (!strcmp(cmd, "calibrate"))
		return cmd_calibrate(argc - 1, argv + 1);
	if (!strcmp(cmd, "life"))
		return cmd_life(argc - 1, argv + 1);
	if (!strcmp(cmd, "serve"))
		return cmd_serve(argc - 1, argv + 1);
	if (!strcmp(cmd, "trace"))
		return cmd_trace(argc - 1, argv + 1);
	if (!strcmp(cmd, "demo"))
		return demo();
	return usage_error("unknown command '%s'", cmd);
}

int main(int argc, char **argv)
{
	if (ssd_ofile_faults(NULL)) {
		fprintf(stderr, "%s: SSDLAB_FAULT='%s': wanted a comma list of OP:N "
			"or OP:N+ (OP one of open, write, fsync, rename, close; N "
			"from 1)\n", prog, getenv("SSDLAB_FAULT"));
		return EXIT_USAGE;
	}
	FILE *real = stdout;
	struct ssd_ofile *so;
	if (ssd_ofile_fdopen(STDOUT_FILENO, "standard output",
			     isatty(STDOUT_FILENO), &so)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	stdout = ssd_ofile_stream(so);
	return close_stdout(so, real, command(argc, argv));
}
