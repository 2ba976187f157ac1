/*
 * scenario.c -- the scenario registry and the helpers scenarios share:
 * parameters, drives, job runs, CSV, gnuplot, result.json.
 */
#include "methods/scenario.h"
#include "machine/snapshot.h"
#include "methods/preset.h"
#include "machine/stack.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "job/job.h"
#include "run/sim.h"

extern char **environ;

const struct ssd_scenario *const ssd_scenarios[] = {
	&ssd_scn_steady_state,
	&ssd_scn_slc_cache,
	&ssd_scn_gc_states,
	&ssd_scn_trim_latency,
	&ssd_scn_iometer,
	&ssd_scn_workload_switch,
	&ssd_scn_snia_pts,
	&ssd_scn_fill_idle,
	&ssd_scn_torture,
	&ssd_scn_essay_bench,
	&ssd_scn_trace,
	&ssd_scn_power_loss,
	&ssd_scn_zoned,
	&ssd_scn_fdp,
	NULL,
};

const struct ssd_scenario *ssd_scenario_find(const char *name)
{
	for (int i = 0; ssd_scenarios[i]; i++)
		if (!strcmp(ssd_scenarios[i]->name, name))
			return ssd_scenarios[i];
	return NULL;
}

static int param_index(const struct ssd_scenario *sc, const char *name)
{
	for (int i = 0; sc->params && sc->params[i].name; i++)
		if (!strcmp(sc->params[i].name, name))
			return i;
	return -1;
}

int ssd_scenario_has_param(const struct ssd_scenario *sc, const char *name)
{
	return param_index(sc, name) >= 0;
}

/* ---- parameters ---- */

const char *ssd_scn_str(const struct ssd_scn *s, const char *name)
{
	int i = param_index(s->sc, name);
	return i < 0 ? "" : s->value[i];
}

double ssd_scn_num(const struct ssd_scn *s, const char *name)
{
	double v = 0;
	ssd_parse_double(ssd_scn_str(s, name), &v);
	return v;
}

int64_t ssd_scn_int(const struct ssd_scn *s, const char *name)
{
	double v = ssd_scn_num(s, name);
	/* checked whole and in range by check_params; the bounds only keep
	 * a parameter read here by mistake, undeclared, defined */
	return v >= -0x1p63 && v < 0x1p63 ? (int64_t)v : 0;
}

int64_t ssd_scn_time(const struct ssd_scn *s, const char *name)
{
	int64_t v = 0;
	ssd_parse_time(ssd_scn_str(s, name), SSD_S, &v);
	return v;
}

/* A size or a percentage of the capacity; 0 if malformed (checked when
 * the run starts). */
static int parse_size_pct(const char *text, uint64_t capacity, uint64_t *out)
{
	size_t n = strlen(text);
	if (n > 1 && text[n - 1] == '%') {
		char buf[64];
		double pct;
		if (n >= sizeof buf)
			return SSD_EPARSE;
		memcpy(buf, text, n - 1);
		buf[n - 1] = 0;
		if (ssd_parse_double(buf, &pct) || pct < 0 || pct > 100000)
			return SSD_ERANGE;
		*out = (uint64_t)((double)capacity * pct / 100);
		return 0;
	}
	return ssd_parse_size(text, out);
}

uint64_t ssd_scn_size(const struct ssd_scn *s, const char *name,
		      uint64_t align)
{
	uint64_t v = 0;
	parse_size_pct(ssd_scn_str(s, name), ssd_config_volume(&s->cfg), &v);
	if (align > 1)
		v -= v % align;
	return v;
}

/* A bound as the user would write it: integers without a fraction,
 * the rest in %g. */
static const char *fmt_bound(double v, char *buf, size_t len)
{
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%g", v);
	return buf;
}

/* p's range as "1 to 256", "more than 0, up to 1", ... ("" if none),
 * after "whole " if asked and p is whole. */
static const char *range_text(const struct ssd_scn_param *p, int say_whole,
			      char *buf, size_t len)
{
	char lo[32], hi[32];
	const char *w = say_whole && p->whole ? "whole " : "";
	int xlo = p->open & SSD_SCN_ABOVE_LO, xhi = p->open & SSD_SCN_BELOW_HI;
	if (!(p->lo < p->hi)) {
		snprintf(buf, len, "%s", say_whole && p->whole ? "whole" : "");
		return buf;
	}
	fmt_bound(p->lo, lo, sizeof lo);
	fmt_bound(p->hi, hi, sizeof hi);
	if (xlo && xhi)
		snprintf(buf, len, "%smore than %s, less than %s", w, lo, hi);
	else if (xlo)
		snprintf(buf, len, "%smore than %s, up to %s", w, lo, hi);
	else if (xhi)
		snprintf(buf, len, "%sat least %s, less than %s", w, lo, hi);
	else
		snprintf(buf, len, "%s%s to %s", w, lo, hi);
	return buf;
}

const char *ssd_scn_param_range(const struct ssd_scn_param *p, char *buf,
				size_t len)
{
	return range_text(p, 1, buf, len);
}

/* A number against p's declared wholeness and range. */
static int check_number(const struct ssd_scenario *sc,
			const struct ssd_scn_param *p, const char *v, double x,
			char *err, size_t errlen)
{
	if (p->whole && x != floor(x)) {
		snprintf(err, errlen, "scenario %s: parameter '%s': '%s' is not "
			 "a whole number", sc->name, p->name, v);
		return SSD_EPARSE;
	}
	if (!(p->lo < p->hi))
		return 0;
	int below = p->open & SSD_SCN_ABOVE_LO ? x <= p->lo : x < p->lo;
	int above = p->open & SSD_SCN_BELOW_HI ? x >= p->hi : x > p->hi;
	if (below || above) {
		char r[96];
		snprintf(err, errlen, "scenario %s: parameter '%s': %s is out of "
			 "range (%s)", sc->name, p->name, v,
			 range_text(p, 0, r, sizeof r));
		return SSD_ERANGE;
	}
	return 0;
}

int ssd_scn_param_check(const struct ssd_scenario *sc,
			const struct ssd_scn_param *p, const char *v,
			uint64_t capacity, char *err, size_t errlen)
{
	int rc = 0;
	if (strstr(p->unit, "size")) {
		uint64_t x;
		rc = parse_size_pct(v, capacity, &x);
	} else if (strstr(p->unit, "time") || strstr(p->unit, "second")) {
		int64_t x;
		rc = ssd_parse_time(v, SSD_S, &x);
	} else if (strcmp(p->unit, "text")) {
		double x = 0;
		rc = ssd_parse_double(v, &x);
		if (rc == SSD_ERANGE) {
			/* strtod's nan, inf and overflow: no range holds them */
			snprintf(err, errlen, "scenario %s: parameter '%s': '%s' is "
				 "not a finite number", sc->name, p->name, v);
			return SSD_ERANGE;
		}
		if (!rc)
			return check_number(sc, p, v, x, err, errlen);
	}
	if (rc)
		snprintf(err, errlen, "scenario %s: parameter '%s': '%s' is not a %s",
			 sc->name, p->name, v, p->unit);
	return rc ? SSD_EPARSE : 0;
}

/* Check every value against its unit and declared range before anything
 * runs: the first bad one is the message. */
static int check_params(struct ssd_scn *s)
{
	for (int i = 0; s->sc->params && s->sc->params[i].name; i++) {
		int rc = ssd_scn_param_check(s->sc, &s->sc->params[i], s->value[i],
					     ssd_config_volume(&s->cfg), s->err,
					     sizeof s->err);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- drives and runs ---- */

struct ssd_dev *ssd_scn_drive(struct ssd_scn *s, const char *const *sets,
			      int nsets)
{
	struct ssd_config c = s->cfg;
	int rc = 0;
	if (s->snapshot && nsets) {
		snprintf(s->err, sizeof s->err, "scenario %s changes its drive "
			 "(%s); the drive of --snapshot '%s' is the one saved",
			 s->sc->name, sets[0], s->snapshot);
		return NULL;
	}
	if (s->snapshot) {
		/* every drive the scenario starts starts from the snapshot */
		struct ssd_dev *d = NULL;
		if (ssd_dev_mem_check(&s->cfg, 0, 0, s->err, sizeof s->err) ||
		    ssd_snapshot_load(s->snapshot, &s->cfg, &d, s->err,
				      sizeof s->err))
			return NULL;
		return d;
	}
	for (int i = 0; i < nsets && !rc; i++) {
		char kv[256];
		snprintf(kv, sizeof kv, "%s", sets[i]);
		char *eq = strchr(kv, '=');
		if (!eq) {
			snprintf(s->err, sizeof s->err, "bad drive override '%s'", sets[i]);
			return NULL;
		}
		*eq = 0;
		rc = ssd_config_set(&c, kv, eq + 1, s->sc->name, s->err, sizeof s->err);
	}
	if (nsets && !rc) {
		c.blocks_per_plane = 0;
		rc = ssd_config_finish(&c, s->err, sizeof s->err);
	}
	if (!rc)
		rc = ssd_stack_check(&c, s->err, sizeof s->err);
	if (rc)
		return NULL;
	return ssd_scn_device(s, &c);
}

struct ssd_dev *ssd_scn_device(struct ssd_scn *s, const struct ssd_config *c)
{
	struct ssd_dev *d = NULL;
	if (s->snapshot) {
		snprintf(s->err, sizeof s->err, "scenario %s builds drives of its "
			 "own; --snapshot does not apply to it", s->sc->name);
		return NULL;
	}
	if (ssd_dev_mem_check(c, 0, 0, s->err, sizeof s->err))
		return NULL;
	int rc = ssd_dev_create(c, s->seed, &d);
	if (rc) {
		snprintf(s->err, sizeof s->err, "cannot create the drive: %s",
			 ssd_strerror(rc));
		return NULL;
	}
	return d;
}

int ssd_scn_preset(struct ssd_scn *s, const char *name,
		   const char *const *sets, int nsets, struct ssd_config *c)
{
	char buf[4096];
	const char *dir = s->preset_dir ? s->preset_dir
			: ssd_preset_dir(NULL, buf, sizeof buf);
	return ssd_preset_load(dir, name, sets, nsets, c, s->err, sizeof s->err);
}

struct ssd_jobs *ssd_scn_jobs_new(struct ssd_scn *s, const struct ssd_dev *dev)
{
	struct ssd_jobs *b = NULL;
	ssd_jobs_new(s->sc->name, ssd_dev_capacity(dev), &b);
	return b;
}

struct ssd_job *ssd_scn_job(struct ssd_jobs *b, const char *name, int rw,
			    uint32_t bs, uint32_t iodepth)
{
	struct ssd_job *j = ssd_jobs_add(b, name);
	j->rw = rw;
	ssd_job_set_bs(j, bs);
	j->iodepth = iodepth;
	return j;
}

int ssd_scn_run(struct ssd_scn *s, struct ssd_dev *dev, struct ssd_jobs *b,
		struct ssd_series *series, struct ssd_run_result *res)
{
	memset(res, 0, sizeof *res);
	if (!b) {
		snprintf(s->err, sizeof s->err, "scenario %s: out of memory",
			 s->sc->name);
		return SSD_ENOMEM;
	}
	struct ssd_job *jobs = NULL;
	int njobs = 0;
	int rc = ssd_jobs_end(b, &jobs, &njobs, s->err, sizeof s->err);
	if (!rc) {
		rc = ssd_sim_run_prog(dev, jobs, njobs, s->seed, series,
				      s->prog, res, s->err, sizeof s->err);
		if (rc)
			ssd_run_result_free(res); /* a scenario stops at a failure */
	}
	free(jobs);
	return rc;
}

/* ---- files ---- */

static int mkdirs(const char *path)
{
	char buf[4096];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0777) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

FILE *ssd_scn_file(struct ssd_scn *s, const char *name)
{
	int i = 0;
	while (i < SSD_SCN_MAX_FILES && s->files[i])
		i++;
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", s->outdir, name);
	if (i == SSD_SCN_MAX_FILES) {
		snprintf(s->err, sizeof s->err, "cannot write '%.400s': more than %d "
			 "files open", path, SSD_SCN_MAX_FILES);
		return NULL;
	}
	if (ssd_ofile_open(path, SSD_OFILE_REPLACE, &s->files[i], s->err,
			   sizeof s->err))
		return NULL;
	return ssd_ofile_stream(s->files[i]);
}

/* The slot of f among the open files; -1 if none. */
static int file_slot(const struct ssd_scn *s, FILE *f)
{
	for (int i = 0; f && i < SSD_SCN_MAX_FILES; i++)
		if (s->files[i] && ssd_ofile_stream(s->files[i]) == f)
			return i;
	return -1;
}

int ssd_scn_close(struct ssd_scn *s, FILE *f)
{
	int i = file_slot(s, f);
	if (i < 0)
		return SSD_EINVAL;
	struct ssd_ofile *o = s->files[i];
	s->files[i] = NULL;
	return ssd_ofile_commit(o, s->err, sizeof s->err);
}

void ssd_scn_discard(struct ssd_scn *s, FILE *f)
{
	int i = file_slot(s, f);
	if (i >= 0) {
		ssd_ofile_discard(s->files[i]);
		s->files[i] = NULL;
	}
}

int ssd_scn_csv(struct ssd_scn *s, const char *name,
		const struct ssd_series *series)
{
	char file[256];
	snprintf(file, sizeof file, "%s.csv", name);
	FILE *f = ssd_scn_file(s, file);
	if (!f)
		return SSD_EIO;
	/* a failed write shows, with its reason, as the file is closed */
	(void)ssd_series_write_csv(series, f);
	return ssd_scn_close(s, f);
}

/* The last line of gnuplot's messages in f (its error, when it failed)
 * into buf, or "" if none. */
static void last_line(FILE *f, char *buf, size_t len)
{
	char line[512];
	buf[0] = 0;
	rewind(f);
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (line[strspn(line, " \t^")])
			snprintf(buf, len, "%s", line + strspn(line, " \t"));
	}
}

/* Run gnuplot on script (in outdir), its charts drawn into the files
 * that defs names; 0 ok, 1 gnuplot missing, -1 failed with its last
 * message in msg.  Its messages go to a temporary file, not to the
 * user's console: a chart of an empty series (a scenario with nothing to
 * show in one curve) makes it warn "empty y range", which is no fault of
 * the run.  Only when it fails is its message shown, in the scenario's
 * error. */
static int gnuplot(struct ssd_scn *s, const char *defs, const char *script,
		   char *msg, size_t len)
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addchdir_np(&fa, s->outdir);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	FILE *log = tmpfile(); /* none: its messages reach the console */
	if (log)
		posix_spawn_file_actions_adddup2(&fa, fileno(log), 2);
	char *argv[] = {"gnuplot", "-e", (char *)defs, (char *)script, NULL};
	pid_t pid;
	msg[0] = 0;
	int rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	int st = 0;
	if (rc)
		rc = rc == ENOENT ? 1 : -1;
	else if (waitpid(pid, &st, 0) < 0)
		rc = -1;
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		rc = 1;
	else
		rc = WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
	if (log) {
		if (rc < 0)
			last_line(log, msg, len);
		fclose(log);
	}
	return rc;
}

const char *ssd_scn_gp_text(const char *text, char *buf, size_t n)
{
	size_t k = 0;
	if (n < 3) {
		if (n)
			buf[0] = 0;
		return buf;
	}
	buf[k++] = '\'';
	for (const char *c = text; *c && k + 3 < n; c++) {
		if (*c == '\n' || *c == '\r')
			continue; /* a script line ends there */
		if (*c == '\'')
			buf[k++] = '\'';
		buf[k++] = *c;
	}
	buf[k++] = '\'';
	buf[k] = 0;
	return buf;
}

/* Whether gnuplot's chart at path is whole: gnuplot exits 0 after a
 * write that failed (a full disk leaves a cut PNG and an empty SVG), so
 * the end of the file is looked at -- PNG's IEND chunk, SVG's closing
 * tag.  1 whole, 0 not, -1 no such file (a chart it did not draw). */
static int chart_whole(const char *path, int svg)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return errno == ENOENT ? -1 : 0;
	char tail[64];
	size_t n = 0;
	if (!fseek(f, -(long)sizeof tail, SEEK_END) || !fseek(f, 0, SEEK_SET))
		n = fread(tail, 1, sizeof tail, f);
	fclose(f);
	static const char iend[] = "IEND\xae\x42\x60\x82";
	if (!svg)
		return n >= 8 && !memcmp(tail + n - 8, iend, 8);
	for (size_t i = 0; i + 6 <= n; i++)
		if (!memcmp(tail + i, "</svg>", 6))
			return 1;
	return 0;
}

/* The charts are gnuplot's writes, not this process's: it draws them
 * into temporaries (the script's png_file and svg_file, which default
 * to the charts' names when a user runs it by hand), renamed into place
 * once it has succeeded -- a failed or killed gnuplot leaves no half
 * chart, and the renames take the faults of base/ofile.h. */
int ssd_scn_plot(struct ssd_scn *s, const char *name, const char *title,
		 const char *body)
{
	char file[256], full[400], q[820];
	snprintf(file, sizeof file, "%s.gp", name);
	FILE *f = ssd_scn_file(s, file);
	if (!f)
		return SSD_EIO;
	fprintf(f, "# %s -- drawn by `ssdlab scenario run %s`; run "
		   "`gnuplot %s` in this directory to draw it again.\n",
		title, s->sc->name, file);
	/* every text is drawn as written: with gnuplot's enhanced text a
	 * drive named my_drive would print "my" and a subscript, and the
	 * slc-cache label's "~" is an overprint */
	snprintf(full, sizeof full, "%s (%s)", title, s->cfg.name);
	if (ssd_scn_chart_keep(s, name, full, body)) {
		ssd_scn_discard(s, f);
		return SSD_ENOMEM;
	}
	fprintf(f, "set datafile separator ','\nset key outside bottom center horizontal\n"
		   "set grid\nset title %s\n", ssd_scn_gp_text(full, q, sizeof q));
	fprintf(f, "if (!exists(\"png_file\")) png_file = '%s.png'\n"
		   "if (!exists(\"svg_file\")) svg_file = '%s.svg'\n", name, name);
	fprintf(f, "set terminal pngcairo noenhanced size 1100,620 font 'Sans,10'\n"
		   "set output png_file\n%s\n", body);
	fprintf(f, "set terminal svg noenhanced size 1100,620 dynamic font 'Sans,10'\n"
		   "set output svg_file\nreplot\nunset output\n");
	if (ssd_scn_close(s, f))
		return SSD_EIO;
	if (s->gnuplot == 0)
		return 0;
	static const char *const ext[2] = {"png", "svg"};
	char tmp[2][300], path[2][4096], defs[700], msg[300];
	for (int k = 0; k < 2; k++) {
		snprintf(tmp[k], sizeof tmp[k], ".%.200s.%ld.%s.tmp", name,
			 (long)getpid(), ext[k]);
		snprintf(path[k], sizeof path[k], "%s/%s", s->outdir, tmp[k]);
	}
	snprintf(defs, sizeof defs, "png_file='%s'; svg_file='%s'", tmp[0], tmp[1]);
	int rc = gnuplot(s, defs, file, msg, sizeof msg);
	for (int k = 0; k < 2 && !rc; k++) {
		char to[4096];
		snprintf(to, sizeof to, "%s/%s.%s", s->outdir, name, ext[k]);
		if (!chart_whole(path[k], k)) {
			snprintf(s->err, sizeof s->err, "cannot write '%.400s': gnuplot "
				 "left it cut short (a full disk?)", to);
			rc = -2;
			break;
		}
		int e = ssd_ofile_rename(path[k], to);
		if (e && e != -ENOENT) { /* ENOENT: a chart gnuplot did not draw */
			snprintf(s->err, sizeof s->err, "cannot write '%.400s': %s", to,
				 strerror(-e));
			rc = -2;
		}
	}
	unlink(path[0]); /* the temporaries of a failure */
	unlink(path[1]);
	if (rc == -2)
		return SSD_EIO;
	if (rc == 1) {
		s->gnuplot = 0;
		fprintf(s->out, "note: gnuplot not found: plots not drawn; the data "
				"and the .gp scripts are in %s\n", s->outdir);
		return 0;
	}
	s->gnuplot = 1;
	if (rc < 0) {
		snprintf(s->err, sizeof s->err, "gnuplot failed on %.150s/%s%s%s",
			 s->outdir, file, msg[0] ? ": " : "", msg);
		return SSD_EIO;
	}
	return 0;
}

/* ---- SNIA PTS steady state ---- */

int ssd_scn_pts_steady(const double *y, double *mean, double *excursion,
		       double *rise)
{
	double m = 0, lo = y[0], hi = y[0];
	for (int i = 0; i < 5; i++) {
		m += y[i] / 5;
		lo = fmin(lo, y[i]);
		hi = fmax(hi, y[i]);
	}
	/* least squares over x = 0..4 (mean x = 2, sum (x - 2)^2 = 10) */
	double sxy = 0;
	for (int i = 0; i < 5; i++)
		sxy += (i - 2) * (y[i] - m);
	*mean = m;
	*excursion = m > 0 ? (hi - lo) / m : 1;
	*rise = m > 0 ? fabs(sxy / 10) * 4 / m : 1;
	return m > 0 && *excursion <= 0.20 && *rise <= 0.10;
}

/* ---- result.json ---- */

/* A member of the current object, or (key NULL) an element of the
 * current array. */
static void json_key(struct ssd_scn *s, const char *key)
{
	if (key)
		ssd_json_key(&s->jw, key);
}

void ssd_scn_json_num(struct ssd_scn *s, const char *key, double v)
{
	json_key(s, key);
	/* %.6g would write 67108864 bytes as 6.71089e+07: a reader (a
	 * sweep's table, compare) would get 67108900 */
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		ssd_json_i64(&s->jw, (int64_t)v);
	else
		ssd_json_general(&s->jw, v, 6);
}

void ssd_scn_json_int(struct ssd_scn *s, const char *key, int64_t v)
{
	json_key(s, key);
	ssd_json_i64(&s->jw, v);
}

void ssd_scn_json_str(struct ssd_scn *s, const char *key, const char *v)
{
	json_key(s, key);
	ssd_json_string(&s->jw, v);
}

void ssd_scn_json_open(struct ssd_scn *s, const char *key, int array)
{
	json_key(s, key);
	if (array)
		ssd_json_array(&s->jw);
	else
		ssd_json_object(&s->jw);
}

void ssd_scn_json_close(struct ssd_scn *s, int array)
{
	ssd_json_end(&s->jw);
}

/* ---- running ---- */

int ssd_scenario_run(const struct ssd_scenario *sc,
		     const struct ssd_config *cfg, const char *outdir,
		     const char *preset_dir, const char *const *sets,
		     int nsets, uint64_t seed, FILE *out,
		     struct ssd_prog *pg, char *err, size_t errlen)
{
	return ssd_scenario_run_from(sc, cfg, NULL, outdir, preset_dir, sets,
				     nsets, seed, out, pg, err, errlen);
}

int ssd_scenario_run_from(const struct ssd_scenario *sc,
			  const struct ssd_config *cfg, const char *snapshot,
			  const char *outdir, const char *preset_dir,
			  const char *const *sets, int nsets, uint64_t seed,
			  FILE *out, struct ssd_prog *pg, char *err,
			  size_t errlen)
{
	struct ssd_scn *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	if (sc->needs_trim && cfg->type == SSD_TYPE_HDD) {
		snprintf(err, errlen, "scenario %s deletes with TRIM, and drive "
			 "'%s' is a hard disk (type = hdd), which has none",
			 sc->name, cfg->name);
		free(s);
		return SSD_ERANGE;
	}
	if (sc->needs_trim == 1 && !ssd_config_has_trim(cfg)) {
		snprintf(err, errlen, "scenario %s deletes with TRIM, and drive "
			 "'%s' has none (trim = no)", sc->name, cfg->name);
		free(s);
		return SSD_ERANGE;
	}
	s->sc = sc;
	s->cfg = *cfg;
	s->snapshot = snapshot;
	s->outdir = outdir;
	s->preset_dir = preset_dir;
	s->seed = seed;
	s->out = out;
	s->gnuplot = -1;
	s->prog = ssd_prog_on(pg) ? pg : NULL;
	/* the summary is held until the end: report.html shows it, and
	 * with a status line, lines written while it is on the terminal
	 * would land in it */
	char *held = NULL;
	size_t nheld = 0;
	FILE *hold = open_memstream(&held, &nheld);
	if (hold)
		s->out = hold;
	int np = 0;
	for (; sc->params && sc->params[np].name; np++)
		snprintf(s->value[np], sizeof s->value[np], "%s", sc->params[np].def);
	int rc = 0;
	for (int i = 0; i < nsets && !rc; i++) {
		const char *eq = strchr(sets[i], '=');
		char key[64];
		size_t kl = eq ? (size_t)(eq - sets[i]) : 0;
		if (!eq || kl >= sizeof key) {
			snprintf(s->err, sizeof s->err, "bad parameter '%s' (NAME=VALUE)", sets[i]);
			rc = SSD_EPARSE;
			break;
		}
		memcpy(key, sets[i], kl);
		key[kl] = 0;
		int k = param_index(sc, key);
		if (k < 0) {
			char names[384];
			size_t nn = 0;
			names[0] = 0;
			for (int q = 0; sc->params && sc->params[q].name &&
					nn < sizeof names; q++)
				nn += (size_t)snprintf(names + nn, sizeof names - nn,
						       "%s%s", q ? ", " : "",
						       sc->params[q].name);
			snprintf(s->err, sizeof s->err, "scenario %s has no parameter "
				 "'%.64s' (accepted: %s; see 'ssdlab scenario run %s "
				 "--help')", sc->name, key, names[0] ? names : "none",
				 sc->name);
			rc = SSD_ENOENT;
			break;
		}
		snprintf(s->value[k], sizeof s->value[k], "%s", eq + 1);
	}
	if (!rc)
		rc = check_params(s);
	if (!rc && mkdirs(outdir)) {
		snprintf(s->err, sizeof s->err, "cannot create '%s': %s", outdir,
			 strerror(errno));
		rc = SSD_EIO;
	}
	if (!rc && !(s->json = ssd_scn_file(s, "result.json")))
		rc = SSD_EIO;
	if (!rc) {
		ssd_json_init(&s->jw, s->json, 0, 0);
		ssd_json_object(&s->jw);
		ssd_scn_json_str(s, "scenario", sc->name);
		ssd_scn_json_str(s, "drive", cfg->name);
		if (snapshot)
			ssd_scn_json_str(s, "snapshot", snapshot);
		ssd_scn_json_int(s, "seed", (int64_t)seed);
		ssd_scn_json_open(s, "parameters", 0);
		for (int i = 0; i < np; i++)
			ssd_scn_json_str(s, sc->params[i].name, s->value[i]);
		ssd_scn_json_close(s, 0);
		rc = sc->run(s);
		ssd_json_end(&s->jw);
		fputc('\n', s->json);
		/* a scenario that failed leaves no result.json */
		if (!rc)
			rc = ssd_scn_close(s, s->json);
		/* the page, from result.json and the summary so far */
		if (!rc && hold && fflush(hold)) {
			snprintf(s->err, sizeof s->err, "scenario %s: out of "
				 "memory for its summary", sc->name);
			rc = SSD_ENOMEM;
		}
		if (!rc)
			rc = ssd_scn_html(s, hold ? held : NULL, hold ? nheld : 0);
	}
	ssd_scn_charts_free(s);
	for (int i = 0; i < SSD_SCN_MAX_FILES; i++)
		ssd_ofile_discard(s->files[i]); /* open when run() failed */
	if (hold) {
		if (s->prog)
			ssd_prog_clear(s->prog);
		if (fclose(hold) && !rc) {
			snprintf(s->err, sizeof s->err, "scenario %s: out of "
				 "memory for its summary", sc->name);
			rc = SSD_ENOMEM;
		} else if (nheld) {
			fwrite(held, 1, nheld, out);
		}
		free(held);
	}
	if (rc)
		snprintf(err, errlen, "%s", s->err[0] ? s->err : ssd_strerror(rc));
	free(s);
	return rc;
}
