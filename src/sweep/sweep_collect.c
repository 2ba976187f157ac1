/*
 * sweep_collect.c -- a sweep's points merged into one table (sweep.h):
 * DIR/results.csv and DIR/results.jsonl, a row per point in index order.
 *
 * A row: index, id, each axis's value, status (done, failed, missing),
 * error (a failed point's), then its figures.  A job file's point gives
 * the measured job's (`measure`, else the last job of its result):
 * the job's name (measured_job); per direction (read, write, trim) IOPS, bandwidth in
 * bytes/s, mean completion latency and its 50th, 99th and 99.9th
 * percentiles in ns; and the drive's figures over that job: WAF, host
 * pages written, NAND pages programmed, GC-copied pages, blocks erased,
 * erase counts (min, mean, max) and percentage used.  A scenario's point
 * gives every number, string and boolean of its result.json (nested
 * objects' members as "outer.inner"; arrays left out; the scenario's
 * name, drive, seed and parameters are the axes).  A job file's
 * columns are all of the above, always, in that order; a scenario's are
 * the union of the rows' figures, in the order they first appear.  A
 * row without a figure leaves its cell empty.  Figures are written as the run wrote
 * them (the JSON's text), so nothing is rounded twice.
 */
#include "sweep/sweep.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/json.h"
#include "base/json_read.h"
#include "base/util.h"

/* One figure of a row: its column and its text; num: a JSON number or
 * boolean (written bare in the JSON lines), else a string. */
struct fig {
	uint32_t col;
	char *text;
	int num;
};

struct row {
	int status;             /* ST_* */
	char *error;
	uint32_t n, cap;
	struct fig *f;
};

enum { ST_DONE, ST_FAILED, ST_MISSING };
static const char *const st_name[] = {"done", "failed", "missing"};

struct table {
	uint32_t ncols, cap;
	char **col;
	int oom;
};

static uint32_t column(struct table *t, const char *name)
{
	for (uint32_t i = 0; i < t->ncols; i++)
		if (!strcmp(t->col[i], name))
			return i;
	if (t->ncols == t->cap) {
		uint32_t nc = t->cap ? 2 * t->cap : 64;
		char **n = realloc(t->col, nc * sizeof *n);
		if (!n) {
			t->oom = 1;
			return UINT32_MAX;
		}
		t->col = n;
		t->cap = nc;
	}
	if (!(t->col[t->ncols] = strdup(name))) {
		t->oom = 1;
		return UINT32_MAX;
	}
	return t->ncols++;
}

static void add(struct table *t, struct row *r, const char *name,
		const char *text, int num)
{
	uint32_t c = column(t, name);
	if (c == UINT32_MAX)
		return;
	if (r->n == r->cap) {
		uint32_t nc = r->cap ? 2 * r->cap : 32;
		struct fig *n = realloc(r->f, nc * sizeof *n);
		if (!n) {
			t->oom = 1;
			return;
		}
		r->f = n;
		r->cap = nc;
	}
	char *dup = strdup(text);
	if (!dup) {
		t->oom = 1;
		return;
	}
	r->f[r->n++] = (struct fig){c, dup, num};
}

/* A scalar value v as figure `name`; containers and null are left out. */
static void add_value(struct table *t, struct row *r, const char *name,
		      const struct ssd_jval *v)
{
	if (!v)
		return;
	if (v->type == SSD_JNUM)
		add(t, r, name, v->s, 1);
	else if (v->type == SSD_JSTR)
		add(t, r, name, v->s, 0);
	else if (v->type == SSD_JBOOL)
		add(t, r, name, v->b ? "true" : "false", 1);
}

/* Every scalar of object o, nested objects' as prefix.key. */
static void flatten(struct table *t, struct row *r, const char *prefix,
		    const struct ssd_jval *o, int top)
{
	for (size_t i = 0; i < o->n; i++) {
		char num[24];
		const char *k = num;
		if (o->type == SSD_JOBJ)
			k = o->k[i];
		else
			snprintf(num, sizeof num, "%zu", i);
		if (top && (!strcmp(k, "scenario") || !strcmp(k, "drive") ||
			    !strcmp(k, "seed") || !strcmp(k, "parameters")))
			continue;
		char name[256];
		snprintf(name, sizeof name, "%s%s%s", prefix, *prefix ? "." : "",
			 k);
		const struct ssd_jval *v = o->v[i];
		/* a scenario's tables (its rows, each row's points) element
		 * by element, "throughput.0.points.1.mbps"; a longer array
		 * is a series, left to the point's CSV files */
		if (v->type == SSD_JOBJ ||
		    (v->type == SSD_JARR && v->n <= SSD_SWEEP_ARRAY_MAX))
			flatten(t, r, name, v, 0);
		else if (v->type != SSD_JARR)
			add_value(t, r, name, v);
	}
}

static const char *const dirs[] = {"read", "write", "trim"};
/* A direction's figures: the JSON's name, the column's (DIR.NAME). */
static const char *const dir_fig[][2] = {
	{"iops", "iops"}, {"bw_bytes", "bw_bytes"}};
static const char *const pct[][2] = {
	{"50.000000", "p50"}, {"99.000000", "p99"}, {"99.900000", "p99.9"}};
/* The drive's figures over the job (ssdlab's member of the job). */
static const char *const drive_fig[] = {
	"waf", "host_pages_written", "nand_pages_programmed",
	"gc_copied_pages", "blocks_erased", "erase_count.min",
	"erase_count.mean", "erase_count.max", "health.percentage_used"};

/* A job file's columns, every one whatever the points did, in the order
 * of docs/sweeps.md: so that two sweeps' tables have the same columns
 * (a sweep whose points did not read has empty read.* cells). */
static void job_columns(struct table *t)
{
	char name[64];
	column(t, "measured_job");
	for (int d = 0; d < 3; d++) {
		for (int k = 0; k < 2; k++) {
			snprintf(name, sizeof name, "%s.%s", dirs[d], dir_fig[k][1]);
			column(t, name);
		}
		snprintf(name, sizeof name, "%s.clat_mean_ns", dirs[d]);
		column(t, name);
		for (int k = 0; k < 3; k++) {
			snprintf(name, sizeof name, "%s.clat_%s_ns", dirs[d],
				 pct[k][1]);
			column(t, name);
		}
	}
	for (size_t k = 0; k < sizeof drive_fig / sizeof *drive_fig; k++)
		column(t, drive_fig[k]);
}

/* A job file's figures from its result.json; NULL, or why not. */
static const char *job_figures(const struct ssd_sweep *s, struct table *t,
			       struct row *r, const struct ssd_jval *doc)
{
	const struct ssd_jval *jobs = ssd_jget(doc, "jobs"), *job = NULL;
	if (!jobs || jobs->type != SSD_JARR || !jobs->n)
		return "its result.json has no jobs";
	for (size_t i = 0; i < jobs->n; i++) {
		const struct ssd_jval *nm = ssd_jget(jobs->v[i], "jobname");
		if (!s->measure || (nm && nm->type == SSD_JSTR &&
				    !strcmp(nm->s, s->measure)))
			job = jobs->v[i];
	}
	if (!job)
		return "no job of its result has the name in measure";
	add_value(t, r, "measured_job", ssd_jget(job, "jobname"));
	for (int d = 0; d < 3; d++) {
		const struct ssd_jval *x = ssd_jget(job, dirs[d]);
		char name[64];
		for (int k = 0; k < 2; k++) {
			snprintf(name, sizeof name, "%s.%s", dirs[d], dir_fig[k][1]);
			add_value(t, r, name, ssd_jget(x, dir_fig[k][0]));
		}
		const struct ssd_jval *cl = ssd_jget(x, "clat_ns");
		snprintf(name, sizeof name, "%s.clat_mean_ns", dirs[d]);
		add_value(t, r, name, ssd_jget(cl, "mean"));
		const struct ssd_jval *pc = ssd_jget(cl, "percentile");
		for (int k = 0; k < 3; k++) {
			snprintf(name, sizeof name, "%s.clat_%s_ns", dirs[d],
				 pct[k][1]);
			add_value(t, r, name, ssd_jget(pc, pct[k][0]));
		}
	}
	const struct ssd_jval *ss = ssd_jget(job, "ssdlab");
	for (size_t k = 0; k < sizeof drive_fig / sizeof *drive_fig; k++)
		add_value(t, r, drive_fig[k], ssd_jpath(ss, drive_fig[k]));
	return NULL;
}

/* Point p's row. */
static void point_row(const struct ssd_sweep *s, const char *dir,
		      struct table *t, struct row *r, uint32_t p)
{
	char path[PATH_MAX], msg[512];
	snprintf(path, sizeof path, "%s/points/%s", dir, s->id[p]);
	struct stat st;
	if (stat(path, &st)) {
		r->status = ST_MISSING;
		return;
	}
	snprintf(path, sizeof path, "%s/points/%s/error.txt", dir, s->id[p]);
	FILE *f = fopen(path, "r");
	if (f) {
		msg[0] = 0;
		if (fgets(msg, sizeof msg, f))
			msg[strcspn(msg, "\n")] = 0;
		fclose(f);
		r->status = ST_FAILED;
		r->error = strdup(*msg ? msg : "failed");
		return;
	}
	snprintf(path, sizeof path, "%s/points/%s/result.json", dir, s->id[p]);
	struct ssd_jval *doc = ssd_jread_file(path, msg, sizeof msg);
	const char *why = NULL;
	if (!doc)
		why = msg;
	else if (ssd_sweep_value(s, p, "job"))
		why = job_figures(s, t, r, doc);
	else if (doc->type == SSD_JOBJ)
		flatten(t, r, "", doc, 1);
	else
		why = "its result.json is not an object";
	if (why) {
		r->status = ST_FAILED;
		r->error = strdup(why);
	}
	ssd_jread_free(doc);
}

static void csv_cell(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* Open path's temporary twin for writing. */
static FILE *open_tmp(const char *path, char *tmp, size_t n)
{
	snprintf(tmp, n, "%s.%ld.tmp", path, (long)getpid());
	return fopen(tmp, "w");
}

static int close_tmp(FILE *f, const char *tmp, const char *path, char *err,
		     size_t errlen)
{
	if (ferror(f) | fclose(f) || rename(tmp, path)) {
		ssd_seterr(err, errlen, "%s: %s", path, strerror(errno));
		remove(tmp);
		return SSD_EIO;
	}
	return 0;
}

int ssd_sweep_collect(const struct ssd_sweep *s, const char *dir, FILE *log,
		      uint32_t *done, uint32_t *failed, uint32_t *missing,
		      char *err, size_t errlen)
{
	*done = *failed = *missing = 0;
	struct stat dst;
	if (stat(dir, &dst) || !S_ISDIR(dst.st_mode)) {
		ssd_seterr(err, errlen, "%s: no such folder (nothing planned or "
			   "run there)", dir);
		return SSD_ENOENT;
	}
	struct table t = {0};
	struct row *rows = calloc(s->npoints ? s->npoints : 1, sizeof *rows);
	if (!rows) {
		ssd_seterr(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	if (ssd_sweep_value(s, 0, "job"))
		job_columns(&t);
	for (uint32_t p = 0; p < s->npoints && !t.oom; p++) {
		point_row(s, dir, &t, &rows[p], p);
		uint32_t *cnt = rows[p].status == ST_DONE ? done
			: rows[p].status == ST_FAILED ? failed : missing;
		(*cnt)++;
		if (log && rows[p].status != ST_DONE)
			fprintf(log, "point %u %s: %s%s%s\n", p, s->id[p],
				st_name[rows[p].status],
				rows[p].error ? ": " : "",
				rows[p].error ? rows[p].error : "");
	}
	int rc = 0;
	if (t.oom) {
		ssd_seterr(err, errlen, "out of memory");
		rc = SSD_ENOMEM;
	}
	char csv[PATH_MAX], jl[PATH_MAX], tc[PATH_MAX + 32], tj[PATH_MAX + 32];
	snprintf(csv, sizeof csv, "%s/results.csv", dir);
	snprintf(jl, sizeof jl, "%s/results.jsonl", dir);
	FILE *fc = rc ? NULL : open_tmp(csv, tc, sizeof tc);
	FILE *fj = fc ? open_tmp(jl, tj, sizeof tj) : NULL;
	if (!rc && (!fc || !fj)) {
		ssd_seterr(err, errlen, "%s: %s", fc ? jl : csv, strerror(errno));
		rc = SSD_EIO;
	}
	const char **cell = rc ? NULL : calloc(t.ncols + 1, sizeof *cell);
	int *isnum = rc ? NULL : calloc(t.ncols + 1, sizeof *isnum);
	if (!rc && (!cell || !isnum)) {
		ssd_seterr(err, errlen, "out of memory");
		rc = SSD_ENOMEM;
	}
	if (!rc) {
		uint32_t na = s->naxes ? s->naxes : 1;
		fputs("index,id", fc);
		for (uint32_t i = 0; i < s->naxes; i++) {
			fputc(',', fc);
			csv_cell(fc, s->ax[i].name);
		}
		fputs(",status,error", fc);
		for (uint32_t c = 0; c < t.ncols; c++) {
			fputc(',', fc);
			csv_cell(fc, t.col[c]);
		}
		fputc('\n', fc);
		for (uint32_t p = 0; p < s->npoints; p++) {
			struct row *r = &rows[p];
			memset(cell, 0, t.ncols * sizeof *cell);
			for (uint32_t k = 0; k < r->n; k++) {
				cell[r->f[k].col] = r->f[k].text;
				isnum[r->f[k].col] = r->f[k].num;
			}
			fprintf(fc, "%u,%s", p, s->id[p]);
			struct ssd_json w;
			ssd_json_init(&w, fj, -1, 0);
			ssd_json_object_flat(&w);
			ssd_json_ku64(&w, "index", p);
			ssd_json_kstring(&w, "id", s->id[p]);
			for (uint32_t i = 0; i < s->naxes; i++) {
				const char *v = s->ax[i].val[s->pick[(size_t)p * na + i]];
				fputc(',', fc);
				csv_cell(fc, v);
				ssd_json_kstring(&w, s->ax[i].name, v);
			}
			fprintf(fc, ",%s,", st_name[r->status]);
			csv_cell(fc, r->error ? r->error : "");
			ssd_json_kstring(&w, "status", st_name[r->status]);
			ssd_json_kstring(&w, "error", r->error ? r->error : "");
			for (uint32_t c = 0; c < t.ncols; c++) {
				fputc(',', fc);
				if (!cell[c])
					continue;
				csv_cell(fc, cell[c]);
				ssd_json_key(&w, t.col[c]);
				if (isnum[c])
					ssd_json_raw(&w, cell[c]);
				else
					ssd_json_string(&w, cell[c]);
			}
			ssd_json_end(&w);
			fputc('\n', fc);
			fputc('\n', fj);
		}
		rc = close_tmp(fc, tc, csv, err, errlen);
		fc = NULL;
		if (!rc)
			rc = close_tmp(fj, tj, jl, err, errlen);
		else
			fclose(fj), remove(tj);
		fj = NULL;
	}
	if (fc) {
		fclose(fc);
		remove(tc);
	}
	if (fj) {
		fclose(fj);
		remove(tj);
	}
	free(cell);
	free(isnum);
	for (uint32_t p = 0; p < s->npoints; p++) {
		for (uint32_t k = 0; k < rows[p].n; k++)
			free(rows[p].f[k].text);
		free(rows[p].f);
		free(rows[p].error);
	}
	free(rows);
	for (uint32_t c = 0; c < t.ncols; c++)
		free(t.col[c]);
	free(t.col);
	return rc;
}
