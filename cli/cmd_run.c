/*
 * cmd_run.c -- ssdlab run: the jobs of fio job files on a simulated drive
 * (fresh, filled by --precondition, or loaded from a --snapshot), one run
 * after another on the same drive, each reported like fio; the drive
 * saved as they leave it with --save-snapshot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ofile.h"
#include "cli.h"
#include "job/dircopy.h"
#include "job/job.h"
#include "machine/device.h"
#include "machine/snapshot.h"
#include "methods/preset.h"
#include "report/html.h"
#include "report/report.h"
#include "run/sim.h"

static const char run_help[] =
	"usage: ssdlab run JOB.fio [JOB.fio...] [options]\n"
	"       ssdlab run --precondition FILL --save-snapshot FILE [options]\n"
	"Run the jobs of an fio job file on a simulated drive (fresh from the\n"
	"factory) and report like fio.  Times in the job file are simulated.\n"
	"JOB.fio '-' reads the job file from standard input.  Without a job\n"
	"file it prepares a drive: preconditioned, saved, for later runs\n"
	"with --snapshot.\n"
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
	"  --html FILE             also write a page of the run to FILE: the\n"
	"                          drive's keys that differ from its preset,\n"
	"                          the job files, the jobs' figures, latency\n"
	"                          percentiles and the series the jobs logged,\n"
	"                          as charts (docs/report.md)\n"
	CLI_ETA_HELP
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
	"and the ssdlab error message).  As in fio, that ends only the job:\n"
	"the other jobs and the later groups go on, whether the drive refused\n"
	"a command (worn out to read-only, a zone's rule, a TRIM it does not\n"
	"have), verify found bad data, or rate_min or latency_target ended\n"
	"it.  A failure of the simulation itself (the FTL finding no free\n"
	"block, the invariant checker) ends the run there: the other jobs of\n"
	"its group stop and later groups do not run.  The report of the jobs\n"
	"that ran is still written.\n"
	"\n"
	"Exit status: 0; 1 if the simulation failed or a job ended in error;\n"
	"2 for a usage or input error.\n";

/* run's --output-format: fio's formats */
static int run_format(struct cli *o, const char *val)
{
	if (ssd_output_formats(val, &o->formats))
		return cli_usage("--output-format must be normal, json, json+, terse or a comma list of them, got '%s'", val);
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
	char err[256];
	memset(p, 0, sizeof *p);
	if (ssd_precondition_parse(val, &p->dircopy, &p->dc, err, sizeof err))
		return cli_usage("--precondition%s %s", strncmp(err, "must", 4)
				 ? ":" : "", err);
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
			"metadata among the data, %.1f s of drive time\n", cli_prog,
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
			"writes at QD32, %.1f s of drive time\n", cli_prog,
			ssd_fmt_bytes(ssd_dev_capacity(dev), b1, sizeof b1),
			(double)(ssd_dev_time(dev) - t0) / 1e9);
	ssd_run_result_free(&res);
	return rc;
}

/* The job files of a run, parsed before any of them runs. */
#define MAX_JOBFILES 64
struct jobfile {
	const char *name;
	struct ssd_job *jobs;
	int njobs;
	char *stdin_text;           /* --html: standard input's job file, kept
	                               for the page */
	size_t stdin_len;
};

/* What run's command line says beyond the shared options. */
struct run_args {
	struct cli c;
	struct jobfile jf[MAX_JOBFILES];
	int njf;
	uint64_t check;             /* --check N */
	struct precond pre;         /* --precondition, parsed */
	const char *pre_arg, *snap_in, *snap_out;
	const char *html;           /* --html FILE */
};

enum { R_MINIMAL, R_CHECK, R_TERSE_VERSION, R_PRECONDITION, R_SNAPSHOT,
       R_SAVE_SNAPSHOT, R_HTML };

static const struct cli_opt run_opts[] = {
	{"--minimal", NULL, 0, R_MINIMAL},
	{"--check", NULL, 1, R_CHECK},
	{"--terse-version", NULL, 1, R_TERSE_VERSION},
	{"--precondition", NULL, 1, R_PRECONDITION},
	{"--snapshot", NULL, 1, R_SNAPSHOT},
	{"--save-snapshot", NULL, 1, R_SAVE_SNAPSHOT},
	{"--html", NULL, 1, R_HTML},
	{NULL, NULL, 0, 0}};

static int run_opt(void *ctx, int id, const char *val)
{
	struct run_args *r = ctx;
	switch (id) {
	case R_MINIMAL:
		r->c.formats = SSD_OUT_TERSE;
		return CLI_GO;
	case R_CHECK:
		return cli_u64("--check", val, &r->check) ? EXIT_USAGE : CLI_GO;
	case R_TERSE_VERSION:
		if (strcmp(val, "3"))
			return cli_usage("--terse-version: only 3 is supported, got '%s'", val);
		return CLI_GO;
	case R_PRECONDITION:
		if (precond_parse(val, &r->pre))
			return EXIT_USAGE;
		r->pre_arg = val;
		return CLI_GO;
	case R_SNAPSHOT:
		r->snap_in = val;
		return CLI_GO;
	case R_SAVE_SNAPSHOT:
		r->snap_out = val;
		return CLI_GO;
	case R_HTML:
		r->html = val;
		return CLI_GO;
	}
	/* a job file */
	if (r->njf == MAX_JOBFILES)
		return cli_usage("more than %d job files: '%s'", MAX_JOBFILES, val);
	for (int k = 0; k < r->njf; k++)
		if (!strcmp(r->jf[k].name, "-") && !strcmp(val, "-"))
			return cli_usage("standard input ('-') can be read once");
	r->jf[r->njf++] = (struct jobfile){.name = val};
	return CLI_GO;
}

static const struct cli_cmd run_cmd = {
	.shared = CLI_DRIVE | CLI_SET | CLI_SEED | CLI_FORMAT | CLI_OUTPUT |
		  CLI_ETA,
	.opts = run_opts, .flags = CLI_DASH_ARG, .help = run_help,
	.check_format = run_format, .fn = run_opt};

/* The whole of stream f; NULL out of memory or on a read error. */
static char *read_stream(FILE *f, size_t *len)
{
	char *text = NULL;
	size_t cap = 0, n = 0, got;
	do {
		if (n + 4096 > cap) {
			char *t = realloc(text, cap = cap ? 2 * cap : 8192);
			if (!t) {
				free(text);
				fclose(f);
				return NULL;
			}
			text = t;
		}
		got = fread(text + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f)) {
		free(text);
		return NULL;
	}
	*len = n;
	return text;
}

/* The whole of a job file for the page: standard input's as kept, a
 * file read again; NULL if it cannot be (*len 0). */
static char *jobfile_text(const struct jobfile *jf, size_t *len)
{
	*len = 0;
	if (!strcmp(jf->name, "-")) {
		char *t = jf->stdin_text ? malloc(jf->stdin_len + 1) : NULL;
		if (t) {
			memcpy(t, jf->stdin_text, jf->stdin_len);
			*len = jf->stdin_len;
		}
		return t;
	}
	FILE *f = fopen(jf->name, "r");
	if (!f)
		return NULL;
	char *t = read_stream(f, len);
	fclose(f);
	return t;
}

/* Parse job file jf; with --html, standard input is read whole first
 * and parsed from memory, so that the page can show it. */
static int jobfile_parse(struct jobfile *jf, int keep, uint64_t volume,
			 const struct ssd_job_zoned *zi, char *err,
			 size_t errlen)
{
	if (!keep || strcmp(jf->name, "-"))
		return ssd_jobfile_parse_zoned(jf->name, volume, zi, &jf->jobs,
					       &jf->njobs, err, errlen);
	jf->stdin_text = read_stream(stdin, &jf->stdin_len);
	FILE *m = jf->stdin_text && jf->stdin_len
		  ? fmemopen(jf->stdin_text, jf->stdin_len, "r") : NULL;
	if (!m)
		return ssd_jobfile_parse_zoned(jf->name, volume, zi, &jf->jobs,
					       &jf->njobs, err, errlen);
	/* the parser reads "-" from stdin: the text kept, as a stream */
	FILE *real = stdin;
	stdin = m;
	int rc = ssd_jobfile_parse_zoned(jf->name, volume, zi, &jf->jobs,
					 &jf->njobs, err, errlen);
	stdin = real;
	fclose(m);
	return rc;
}

/* The page's head: the run's drive against the preset or drive file it
 * came from (without --set), and how the drive started. */
static void html_head(FILE *f, const struct run_args *ra,
		      const struct ssd_config *cfg)
{
	char title[600], what[300], err[512];
	size_t n = (size_t)snprintf(title, sizeof title, "ssdlab run");
	for (int k = 0; k < ra->njf && n < sizeof title; k++)
		n += (size_t)snprintf(title + n, sizeof title - n, " %s",
				      ra->jf[k].name);
	if (n < sizeof title)
		snprintf(title + n, sizeof title - n, " on %s", cfg->name);
	ssd_html_begin(f, title, NULL);
	ssd_html_h2(f, "Drive");
	const char *from = ra->c.drive ? ra->c.drive : ra->snap_in ? cfg->name
			 : "default";
	struct ssd_config base;
	int have = !ssd_preset_load(cli_preset_dir(), from, NULL, 0, &base, err,
				    sizeof err);
	snprintf(what, sizeof what, "%s %s", strchr(from, '/') ||
		 strstr(from, ".ini") ? "drive file" : "preset", from);
	ssd_html_drive(f, cfg, have ? &base : NULL, what);
	if (ra->pre_arg || ra->snap_in) {
		ssd_html_kv_begin(f, NULL);
		if (ra->pre_arg)
			ssd_html_kv(f, "precondition", ra->pre_arg);
		if (ra->snap_in)
			ssd_html_kv(f, "started from snapshot", ra->snap_in);
		ssd_html_kv_end(f);
	}
}

int cmd_run(int argc, char **argv)
{
	struct run_args ra = {.c = {.seed = 1, .formats = SSD_OUT_NORMAL}};
	int rc = cli_parse(&run_cmd, &ra.c, argc, argv, 1, &ra);
	if (rc != CLI_GO)
		return rc;
	struct cli *c = &ra.c;
	struct jobfile *jf = ra.jf;
	int njf = ra.njf;
	const char *pre_arg = ra.pre_arg, *snap_in = ra.snap_in;
	const char *snap_out = ra.snap_out;
	/* no job file: only to prepare a drive (a precondition saved) */
	if (!njf && !(pre_arg && snap_out))
		return cli_usage("run needs a job file, or - for standard "
				 "input (or --precondition with "
				 "--save-snapshot, to prepare a drive)");
	if (snap_in && pre_arg)
		return cli_usage("--precondition fills a fresh drive; the "
				 "drive of --snapshot '%s' is not fresh",
				 snap_in);
	/* the drive: named, or the snapshot's (checked against it now,
	 * loaded once the job files parse and the memory is there) */
	struct ssd_config cfg;
	rc = snap_in ? cli_snapshot_drive(c, snap_in, &cfg)
		     : cli_load_drive(c, &cfg);
	if (rc)
		return rc;
	char err[640];
	const char *no_save;
	if (snap_out && (no_save = ssd_snapshot_refusal(&cfg, err, sizeof err)))
		return cli_usage("--save-snapshot: %s", no_save);
	/* every job file parses before any runs; the memory the largest
	 * run needs is there before the drive is built */
	unsigned uses = 0;
	uint64_t run_mem = 0;
	/* a zoned drive: zonemode=zbd jobs take its zones (their size, Nz,
	 * its open limit) */
	struct ssd_job_zoned zi = {0};
	struct ssd_zones zs;
	uint64_t volume = ssd_config_volume(&cfg);
	if (cfg.mapping == SSD_MAP_ZONE &&
	    !ssd_config_zones(&cfg, &zs, err, sizeof err) && zs.zones) {
		zi.zoned = 1;
		zi.zone_size = zs.size_lp * SSD_LPAGE;
		zi.zone_cap = zs.cap_lp * SSD_LPAGE;
		zi.max_open = cfg.max_open_zones;
		/* the host addresses every zone whole (ssd_dev_capacity) */
		volume = (uint64_t)zs.zones * zi.zone_size;
	}
	for (int k = 0; k < njf; k++) {
		if (jobfile_parse(&jf[k], ra.html != NULL, volume,
				  zi.zoned ? &zi : NULL, err, sizeof err)) {
			fprintf(stderr, "%s: %s\n", cli_prog, err);
			free(jf[k].stdin_text);
			while (k--) {
				free(jf[k].jobs);
				free(jf[k].stdin_text);
			}
			return EXIT_USAGE;
		}
		unsigned u;
		uint64_t m = ssd_sim_mem(jf[k].jobs, jf[k].njobs, volume, &u);
		uses |= u;
		run_mem = m > run_mem ? m : run_mem;
	}
	FILE *out = stdout, *hf = NULL;
	struct ssd_ofile *of = NULL, *hof = NULL;
	struct ssd_dev *dev = NULL;
	if (c->output && ssd_ofile_open(c->output, SSD_OFILE_REPLACE, &of, err,
				       sizeof err)) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		rc = EXIT_USAGE;
		goto out;
	}
	if (of)
		out = ssd_ofile_stream(of);
	if (ra.html && ssd_ofile_open(ra.html, SSD_OFILE_REPLACE, &hof, err,
				      sizeof err)) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		ssd_ofile_discard(of);
		rc = EXIT_USAGE;
		goto out;
	}
	if (hof) {
		hf = ssd_ofile_stream(hof);
		html_head(hf, &ra, &cfg);
	}
	if (ssd_dev_mem_check(&cfg, uses, run_mem, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		ssd_ofile_discard(of);
		ssd_ofile_discard(hof);
		rc = 1;
		goto out;
	}
	rc = snap_in ? ssd_snapshot_load(snap_in, &cfg, &dev, err, sizeof err)
		     : ssd_dev_create(&cfg, c->seed, &dev);
	if (rc) {
		if (snap_in)
			fprintf(stderr, "%s: %s\n", cli_prog, err);
		else
			fprintf(stderr, "%s: cannot build drive '%s': %s\n",
				cli_prog, cfg.name, ssd_strerror(rc));
		ssd_ofile_discard(of);
		ssd_ofile_discard(hof);
		rc = snap_in && rc != SSD_EIO && rc != SSD_ENOMEM ? EXIT_USAGE : 1;
		goto out;
	}
	ssd_dev_set_check_every(dev, (uint32_t)ra.check);
	if (snap_in && ra.check && ssd_dev_audit(dev)) {
		/* --check: the loaded drive is held to every invariant first */
		fprintf(stderr, "%s: snapshot '%s' does not make a consistent "
			"drive: %s\n", cli_prog, snap_in, ssd_dev_check_failure(dev));
		ssd_ofile_discard(of);
		ssd_ofile_discard(hof);
		rc = 1;
		goto out;
	}
	struct ssd_prog pre_pg;
	if (pre_arg && (rc = precondition(dev, &ra.pre, c->seed,
					  cli_eta_begin(c, "precondition", &pre_pg),
					  err, sizeof err))) {
		fprintf(stderr, "%s: --precondition %s: %s\n", cli_prog, pre_arg, err);
		ssd_ofile_discard(of);
		ssd_ofile_discard(hof);
		rc = rc == SSD_ERANGE ? EXIT_USAGE : 1; /* a drive too small */
		goto out;
	}
	int job_failed = 0, reported = 0;
	/* each job file is a run of its own on the same drive, one after
	 * the other, each with its report */
	for (int k = 0; k < njf && !rc; k++) {
		struct ssd_run_result res;
		double w0 = cli_wall_now();
		int show_eta = ssd_eta_start(&c->eta, stderr);
		rc = ssd_sim_run_progress(dev, jf[k].jobs, jf[k].njobs, c->seed,
					  NULL, show_eta ? ssd_eta_run : NULL,
					  &c->eta, 1024, &res, err, sizeof err);
		ssd_eta_end(&c->eta); /* a run that failed: keep its line */
		/* the report is written whenever a job ran, also when the
		 * run failed: it holds the jobs up to the failure, with the
		 * error */
		if (res.njobs) {
			res.wall_s = cli_wall_now() - w0;
			res.jobfile = strcmp(jf[k].name, "-") ? jf[k].name
							      : SSD_JOB_STDIN;
			int wrc = ssd_report(&res, c->formats, out);
			if (wrc && !rc) {
				snprintf(err, sizeof err, "cannot write the report: %s",
					 ssd_strerror(wrc));
				rc = wrc;
			}
			if (hf) {
				size_t len;
				char *text = jobfile_text(&jf[k], &len);
				ssd_html_run(hf, &res, k, text, len);
				free(text);
			}
			reported = 1;
		}
		/* as fio: a job that ended in error makes the exit status
		 * 1; one line per such job, and the run's message if no job
		 * carries it */
		int shown = 0;
		for (int i = 0; i < res.njobs; i++)
			if (res.jobs[i].error) {
				const char *m = res.jobs[i].errmsg;
				/* a job reported with others names itself */
				if (!strncmp(m, "job '", 5))
					fprintf(stderr, "%s: %s\n", cli_prog, m);
				else
					fprintf(stderr, "%s: job '%s': %s\n", cli_prog,
						res.jobs[i].name, m[0] ? m
						: ssd_strerror(res.jobs[i].error));
				job_failed = 1;
				shown |= res.jobs[i].error == rc;
			}
		if (rc && !shown)
			fprintf(stderr, "%s: %s\n", cli_prog, err);
		ssd_run_result_free(&res);
	}
	/* no job ran: no report, and the file is left as it was */
	if (!reported) {
		ssd_ofile_discard(of);
		ssd_ofile_discard(hof);
	} else {
		if (ssd_ofile_commit(of, err, sizeof err)) {
			fprintf(stderr, "%s: %s\n", cli_prog, err);
			rc = SSD_EIO;
		}
		if (hf)
			ssd_html_end(hf);
		if (ssd_ofile_commit(hof, err, sizeof err)) {
			fprintf(stderr, "%s: %s\n", cli_prog, err);
			rc = SSD_EIO;
		}
	}
	/* the drive as the run left it; not after a failed simulation */
	if (snap_out && rc)
		fprintf(stderr, "%s: --save-snapshot '%s': not saved, the run "
			"failed\n", cli_prog, snap_out);
	else if (snap_out && (rc = ssd_snapshot_save(dev, snap_out, err,
						     sizeof err)))
		fprintf(stderr, "%s: %s\n", cli_prog, err);
	rc = rc || job_failed ? 1 : 0;
out:
	ssd_dev_destroy(dev);
	for (int k = 0; k < njf; k++) {
		free(jf[k].jobs);
		free(jf[k].stdin_text);
	}
	return rc;
}
