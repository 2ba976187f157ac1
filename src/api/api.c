/*
 * api.c -- the public interface (include/ssdlab.h) over the library's
 * modules.  Each public object wraps the module's own: ssdlab_drive a
 * struct ssd_config, ssdlab_dev a struct ssd_dev, ssdlab_jobs an array
 * of struct ssd_job, ssdlab_result a struct ssd_run_result.  The public
 * value structs (counters, health, a job's figures) are copied out field
 * by field, so the internal ones can change without changing the ABI.
 *
 * This is the library's edge: ssdlab_drive_load finds the presets as
 * the tool does (methods/preset.c: $SSDLAB_PRESETS, else the compiled-in
 * directory).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ssdlab.h"

#include "base/config.h"
#include "base/util.h"
#include "machine/stack.h"
#include "machine/device.h"
#include "machine/snapshot.h"
#include "job/job.h"
#include "run/sim.h"
#include "stats/series.h"
#include "methods/preset.h"
#include "report/report.h"

/* The public codes are the library's own. */
#define SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(SAME(SSDLAB_EINVAL, SSD_EINVAL) && SAME(SSDLAB_ENOMEM, SSD_ENOMEM) &&
	       SAME(SSDLAB_EIO, SSD_EIO) && SAME(SSDLAB_ERANGE, SSD_ERANGE) &&
	       SAME(SSDLAB_ENOSPC, SSD_ENOSPC) && SAME(SSDLAB_EROFS, SSD_EROFS) &&
	       SAME(SSDLAB_EPARSE, SSD_EPARSE) && SAME(SSDLAB_ENOENT, SSD_ENOENT) &&
	       SAME(SSDLAB_EUNSUP, SSD_EUNSUP) && SAME(SSDLAB_ESTATE, SSD_ESTATE) &&
	       SAME(SSDLAB_EILSEQ, SSD_EILSEQ) &&
	       SAME(SSDLAB_ETIMEDOUT, SSD_ETIMEDOUT) &&
	       SAME(SSDLAB_ZNS_EFIELD, SSD_ZNS_EFIELD) &&
	       SAME(SSDLAB_ZNS_ERANGE, SSD_ZNS_ERANGE) &&
	       SAME(SSDLAB_ZNS_EZONEOP, SSD_ZNS_EZONEOP) &&
	       SAME(SSDLAB_FDP_EPID, SSD_FDP_EPID) &&
	       SAME(SSDLAB_PLACEMENT(5), SSD_BLK_PLACEMENT(5)) &&
	       SAME(SSDLAB_ZNS_ENOZRWA, SSD_ZNS_ENOZRWA) &&
	       SAME(SSDLAB_ZNS_EBOUNDARY, SSD_ZNS_EBOUNDARY) &&
	       SAME(SSDLAB_ZNS_EFULL, SSD_ZNS_EFULL) &&
	       SAME(SSDLAB_ZNS_EREADONLY, SSD_ZNS_EREADONLY) &&
	       SAME(SSDLAB_ZNS_EOFFLINE, SSD_ZNS_EOFFLINE) &&
	       SAME(SSDLAB_ZNS_EWRITE, SSD_ZNS_EWRITE) &&
	       SAME(SSDLAB_ZNS_EMAXACTIVE, SSD_ZNS_EMAXACTIVE) &&
	       SAME(SSDLAB_ZNS_EMAXOPEN, SSD_ZNS_EMAXOPEN) &&
	       SAME(SSDLAB_ZNS_ETRANSITION, SSD_ZNS_ETRANSITION), "error codes");
_Static_assert(SAME(SSDLAB_APPEND, SSD_BLK_APPEND) &&
	       SAME(SSDLAB_ZONE_CLOSE, SSD_ZNS_ACT_CLOSE) &&
	       SAME(SSDLAB_ZONE_FINISH, SSD_ZNS_ACT_FINISH) &&
	       SAME(SSDLAB_ZONE_OPEN, SSD_ZNS_ACT_OPEN) &&
	       SAME(SSDLAB_ZONE_RESET, SSD_ZNS_ACT_RESET) &&
	       SAME(SSDLAB_ZONE_OFFLINE, SSD_ZNS_ACT_OFFLINE) &&
	       SAME(SSDLAB_ZONE_ZRWA_FLUSH, SSD_ZNS_ACT_ZRWA_FLUSH) &&
	       SAME(SSDLAB_ZONE_ALL, SSD_ZNS_ALL) &&
	       SAME(SSDLAB_ZONE_ZRWAA, SSD_ZNS_ZRWAA) &&
	       SAME(SSDLAB_ZS_EMPTY, SSD_ZNS_ZSE) &&
	       SAME(SSDLAB_ZS_IMPLICITLY_OPENED, SSD_ZNS_ZSIO) &&
	       SAME(SSDLAB_ZS_EXPLICITLY_OPENED, SSD_ZNS_ZSEO) &&
	       SAME(SSDLAB_ZS_CLOSED, SSD_ZNS_ZSC) &&
	       SAME(SSDLAB_ZS_READ_ONLY, SSD_ZNS_ZSRO) &&
	       SAME(SSDLAB_ZS_FULL, SSD_ZNS_ZSF) &&
	       SAME(SSDLAB_ZS_OFFLINE, SSD_ZNS_ZSO), "zone codes");
_Static_assert(SAME(SSDLAB_READ, SSD_DDIR_READ) &&
	       SAME(SSDLAB_WRITE, SSD_DDIR_WRITE) &&
	       SAME(SSDLAB_TRIM, SSD_DDIR_TRIM) && SAME(SSDLAB_FUA, SSD_DEV_FUA) &&
	       SAME(SSDLAB_DIRECT, SSD_BLK_DIRECT),
	       "command codes");
_Static_assert(SAME(SSDLAB_WEAR_BINS, SSD_WEAR_BINS), "wear bins");

static void set_err(char *err, size_t errlen, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
}

const char *ssdlab_strerror(int code)
{
	return ssd_strerror(code);
}

/* ---- drive configuration ---- */

struct ssdlab_drive {
	struct ssd_config cfg;
	int finished;
};

int ssdlab_drive_new(ssdlab_drive **out)
{
	ssdlab_drive *d = calloc(1, sizeof *d);
	*out = d;
	if (!d)
		return SSD_ENOMEM;
	ssd_config_defaults(&d->cfg);
	return 0;
}

int ssdlab_drive_load(ssdlab_drive *d, const char *name_or_path,
		      const char *preset_dir, char *err, size_t errlen)
{
	if (!d || !name_or_path) {
		set_err(err, errlen, "no drive named");
		return SSD_EINVAL;
	}
	char dir[4096];
	if (!preset_dir) /* $SSDLAB_PRESETS, else the compiled-in one */
		preset_dir = ssd_preset_dir(NULL, dir, sizeof dir);
	struct ssd_config c;
	ssd_config_defaults(&c);
	char msg[512] = "";
	int rc = ssd_config_open(&c, name_or_path, preset_dir, msg, sizeof msg);
	if (rc) {
		set_err(err, errlen, msg);
		return rc;
	}
	d->cfg = c;
	d->finished = 0;
	return 0;
}

int ssdlab_drive_set(ssdlab_drive *d, const char *key, const char *value,
		     char *err, size_t errlen)
{
	if (!d || !key || !value) {
		set_err(err, errlen, "--set: no key or value");
		return SSD_EINVAL;
	}
	int rc = ssd_config_set(&d->cfg, key, value, "--set", err, errlen);
	if (!rc)
		d->finished = 0;
	return rc;
}

int ssdlab_drive_finish(ssdlab_drive *d, char *err, size_t errlen)
{
	int rc = ssd_config_fit(&d->cfg, err, errlen);
	if (!rc)
		rc = ssd_stack_check(&d->cfg, err, errlen);
	d->finished = rc == 0;
	return rc;
}

uint64_t ssdlab_drive_capacity(const ssdlab_drive *d)
{
	return ssd_config_volume(&d->cfg);
}

uint64_t ssdlab_drive_physical_bytes(const ssdlab_drive *d)
{
	return ssd_config_physical_bytes(&d->cfg);
}

uint64_t ssdlab_drive_memory(const ssdlab_drive *d, unsigned flags)
{
	struct ssd_mem m;
	if (!d || !d->finished)
		return 0;
	return ssd_dev_mem(&d->cfg, flags & SSDLAB_MEM_VERIFY ? SSD_MEM_VERIFY : 0, &m);
}

int ssdlab_memory_available(uint64_t *bytes)
{
	const char *what;
	return ssd_mem_available(bytes, &what);
}

int ssdlab_drive_print(const ssdlab_drive *d, FILE *out)
{
	ssd_config_print(&d->cfg, out);
	return fflush(out) || ferror(out) ? SSD_EIO : 0;
}

int ssdlab_drive_json(const ssdlab_drive *d, FILE *out)
{
	ssd_config_json(&d->cfg, out, 0);
	fputc('\n', out);
	return fflush(out) || ferror(out) ? SSD_EIO : 0;
}

void ssdlab_drive_free(ssdlab_drive *d)
{
	free(d);
}

/* ---- a simulated drive ---- */

struct ssdlab_dev {
	struct ssd_dev *dev;
};

int ssdlab_dev_open(const ssdlab_drive *d, uint64_t seed, ssdlab_dev **out)
{
	*out = NULL;
	if (!d || !d->finished)
		return SSD_EINVAL;
	if (ssd_dev_mem_check(&d->cfg, 0, 0, NULL, 0))
		return SSD_ENOMEM;
	ssdlab_dev *h = calloc(1, sizeof *h);
	if (!h)
		return SSD_ENOMEM;
	int rc = ssd_dev_create(&d->cfg, seed, &h->dev);
	if (rc) {
		free(h);
		return rc;
	}
	*out = h;
	return 0;
}

void ssdlab_dev_close(ssdlab_dev *h)
{
	if (!h)
		return;
	ssd_dev_destroy(h->dev);
	free(h);
}

int ssdlab_dev_save(const ssdlab_dev *h, const char *path, char *err,
		    size_t errlen)
{
	if (!h || !path) {
		set_err(err, errlen, "no drive or no file");
		return SSD_EINVAL;
	}
	return ssd_snapshot_save(h->dev, path, err, errlen);
}

int ssdlab_dev_load(const char *path, const ssdlab_drive *d, ssdlab_dev **out,
		    char *err, size_t errlen)
{
	*out = NULL;
	if (!path || (d && !d->finished)) {
		set_err(err, errlen, path ? "the drive is not finished"
					  : "no file");
		return SSD_EINVAL;
	}
	ssdlab_dev *h = calloc(1, sizeof *h);
	if (!h) {
		set_err(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	int rc = ssd_snapshot_load(path, d ? &d->cfg : NULL, &h->dev, err,
				   errlen);
	if (rc) {
		free(h);
		return rc;
	}
	*out = h;
	return 0;
}

uint64_t ssdlab_dev_capacity(const ssdlab_dev *h)
{
	return ssd_dev_capacity(h->dev);
}

int64_t ssdlab_submit(ssdlab_dev *h, int op, uint64_t offset, uint32_t len,
		      int64_t t)
{
	int dir = op & 0xffff & ~(SSD_DEV_FUA | SSD_BLK_DIRECT | SSD_BLK_APPEND);
	if (dir != SSD_DDIR_READ && dir != SSD_DDIR_WRITE &&
	    dir != SSD_DDIR_TRIM)
		return SSD_EINVAL;
	if ((op & (SSD_DEV_FUA | SSD_BLK_APPEND)) && dir != SSD_DDIR_WRITE)
		return SSD_EINVAL;
	struct ssd_zoned_info zi;
	if ((op & SSD_BLK_APPEND) && !ssd_dev_zoned(h->dev, &zi))
		return SSD_EINVAL; /* an append needs zones */
	if (t < ssd_dev_last_submit(h->dev))
		return SSD_EINVAL;
	/* the direct flag means something to a page cache only; a bare
	 * SSD's path knows FUA alone */
	if (!h->dev->direct_flag)
		op &= ~SSD_BLK_DIRECT;
	return ssd_dev_submit(h->dev, op, offset, len, t);
}

int64_t ssdlab_flush(ssdlab_dev *h, int64_t t)
{
	if (t < ssd_dev_last_submit(h->dev))
		return SSD_EINVAL;
	return ssd_dev_flush(h->dev, t);
}

int ssdlab_idle(ssdlab_dev *h, int64_t until)
{
	return ssd_dev_idle(h->dev, until);
}

int64_t ssdlab_now(const ssdlab_dev *h)
{
	return ssd_dev_time(h->dev);
}

static void counters_out(const struct ssd_counters *c,
			 struct ssdlab_counters *o)
{
	*o = (struct ssdlab_counters){
		.host_read_lp = c->host_read_lp,
		.host_write_lp = c->host_write_lp,
		.host_trim_lp = c->host_trim_lp,
		.host_write_bytes = c->host_write_bytes,
		.host_unmapped_read_lp = c->host_unmapped_read_lp,
		.nand_read = c->nand_read,
		.nand_prog = c->nand_prog,
		.nand_erase = c->nand_erase,
		.nand_prog_lp = c->nand_prog_lp,
		.gc_copy_lp = c->gc_copy_lp,
		.gc_bg_copy_lp = c->gc_bg_copy_lp,
		.fold_copy_lp = c->fold_copy_lp,
		.wl_copy_lp = c->wl_copy_lp,
		.gc_victims = c->gc_victims,
		.pad_lp = c->pad_lp,
		.flushes = c->flushes,
		.slc_write_lp = c->slc_write_lp,
		.map_read = c->map_read,
		.map_write = c->map_write,
		.rmw_read_lp = c->rmw_read_lp,
		.read_retry = c->read_retry,
		.read_ahead_lp = c->read_ahead_lp,
		.read_ahead_hit_lp = c->read_ahead_hit_lp,
		.buffer_hits = c->buffer_hits,
		.erase_fail = c->erase_fail,
		.prog_fail = c->prog_fail,
		.ro_reject = c->ro_reject,
	};
}

/* The inverse, for the one WAF formula (ssd_counters_waf). */
static void counters_in(const struct ssdlab_counters *o,
			struct ssd_counters *c)
{
	memset(c, 0, sizeof *c);
	c->host_write_lp = o->host_write_lp;
	c->host_write_bytes = o->host_write_bytes;
	c->nand_prog_lp = o->nand_prog_lp;
}

int ssdlab_counters(const ssdlab_dev *h, struct ssdlab_counters *out)
{
	counters_out(ssd_dev_counters(h->dev), out);
	return 0;
}

void ssdlab_counters_sub(const struct ssdlab_counters *after,
			 const struct ssdlab_counters *before,
			 struct ssdlab_counters *out)
{
	/* every field is a uint64_t (the layout is public and checked) */
	enum { N = sizeof(struct ssdlab_counters) / sizeof(uint64_t) };
	_Static_assert(sizeof(struct ssdlab_counters) % sizeof(uint64_t) == 0,
		       "counters are uint64_t");
	uint64_t a[N], b[N];
	memcpy(a, after, sizeof a);
	memcpy(b, before, sizeof b);
	for (int i = 0; i < N; i++)
		a[i] -= b[i];
	memcpy(out, a, sizeof a);
}

double ssdlab_waf(const struct ssdlab_counters *o)
{
	struct ssd_counters c;
	counters_in(o, &c);
	return ssd_counters_waf(&c);
}

static void health_out(const struct ssd_health *h, uint64_t free_blocks,
		       struct ssdlab_health *o)
{
	memset(o, 0, sizeof *o);
	o->percentage_used = h->percentage_used;
	o->max_wear_pct = h->max_wear_pct;
	o->available_spare = h->available_spare;
	o->spare_blocks = h->spare_blocks;
	o->bad_blocks = h->bad_blocks;
	o->erase_failures = h->erase_failures;
	o->program_failures = h->program_failures;
	o->read_only = h->read_only;
	o->host_bytes_written = h->host_bytes_written;
	o->host_bytes_read = h->host_bytes_read;
	o->nand_bytes_written = h->nand_bytes_written;
	o->slc_cache_bytes = h->slc_cache_bytes;
	o->erase_min = h->erase_min;
	o->erase_max = h->erase_max;
	o->erase_mean = h->erase_mean;
	o->erase_hist_lo = h->erase_hist_lo;
	o->erase_hist_width = h->erase_hist_width;
	memcpy(o->erase_hist, h->erase_hist, sizeof o->erase_hist);
	o->free_blocks = free_blocks;
}

int ssdlab_health(const ssdlab_dev *h, struct ssdlab_health *out)
{
	struct ssd_health hl;
	ssd_dev_health(h->dev, &hl);
	health_out(&hl, ssd_dev_free_blocks(h->dev), out);
	return 0;
}

/* ---- workloads ---- */

/* A workload is a job-file builder (job/job.h) until it ends, then the
 * parser's block of jobs. */
struct ssdlab_jobs {
	uint64_t capacity;
	struct ssd_jobs *b;     /* the builder, until ended */
	int sections;           /* sections begun in b */
	int ended;
	int rc;                 /* the first error met (sticky) */
	char msg[512];          /* ... and its message */
	struct ssd_job *v;      /* the jobs, once ended */
	int n;
	char name[256];         /* the job file's name, for the report */
	int refs;               /* the caller's, and one per result */
};

int ssdlab_jobs_new(const char *name, uint64_t capacity, ssdlab_jobs **out)
{
	*out = NULL;
	if (capacity < SSD_LPAGE)
		return SSD_EINVAL;
	ssdlab_jobs *w = calloc(1, sizeof *w);
	if (!w)
		return SSD_ENOMEM;
	snprintf(w->name, sizeof w->name, "%s", name ? name : "<jobs>");
	w->capacity = capacity;
	w->refs = 1;
	int rc = ssd_jobs_new(w->name, capacity, &w->b);
	if (rc) {
		free(w);
		return rc;
	}
	*out = w;
	return 0;
}

static int parsed(ssdlab_jobs *w, int rc, struct ssd_job *jobs, int n)
{
	if (rc)
		return rc;
	ssd_jobs_free(w->b);
	w->b = NULL;
	w->v = jobs;
	w->n = n;
	w->ended = 1;
	return 0;
}

static int fresh(const ssdlab_jobs *w, char *err, size_t errlen)
{
	if (w->ended || w->sections) {
		set_err(err, errlen, "the workload has jobs already");
		return SSD_EINVAL;
	}
	return 0;
}

int ssdlab_jobs_parse(ssdlab_jobs *w, const char *text, char *err,
		      size_t errlen)
{
	int rc = fresh(w, err, errlen);
	if (rc)
		return rc;
	struct ssd_job *jobs = NULL;
	int n = 0;
	rc = ssd_jobfile_parse_string(text, w->name, w->capacity, &jobs, &n,
				      err, errlen);
	return parsed(w, rc, jobs, n);
}

int ssdlab_jobs_parse_file(ssdlab_jobs *w, const char *path, char *err,
			   size_t errlen)
{
	int rc = fresh(w, err, errlen);
	if (rc)
		return rc;
	snprintf(w->name, sizeof w->name, "%s", path);
	struct ssd_job *jobs = NULL;
	int n = 0;
	rc = ssd_jobfile_parse(path, w->capacity, &jobs, &n, err, errlen);
	return parsed(w, rc, jobs, n);
}

int ssdlab_jobs_global(ssdlab_jobs *w)
{
	if (w->ended || w->rc)
		return w->rc ? w->rc : SSD_EINVAL;
	ssd_jobs_global(w->b);
	w->sections++;
	return 0;
}

int ssdlab_jobs_add(ssdlab_jobs *w, const char *name)
{
	if (w->ended || w->rc)
		return w->rc ? w->rc : SSD_EINVAL;
	ssd_jobs_add(w->b, name ? name : "job");
	w->sections++;
	return 0;
}

int ssdlab_jobs_set(ssdlab_jobs *w, const char *key, const char *value)
{
	if (w->ended)
		return w->rc ? w->rc : SSD_EINVAL;
	if (!key || !w->sections)
		return SSD_EINVAL;
	int rc = ssd_jobs_set(w->b, key, value);
	if (rc && !w->rc)
		w->rc = rc; /* the builder keeps its message for the end */
	return rc;
}

int ssdlab_jobs_end(ssdlab_jobs *w, char *err, size_t errlen)
{
	if (!w->ended) {
		int rc = ssd_jobs_end(w->b, &w->v, &w->n, w->msg,
				      sizeof w->msg);
		if (rc || !w->rc)
			w->rc = rc;
		w->b = NULL;
		w->ended = 1;
	}
	if (w->rc)
		set_err(err, errlen, w->msg);
	return w->rc;
}

int ssdlab_jobs_count(const ssdlab_jobs *w)
{
	return w->ended ? w->n : 0;
}

void ssdlab_jobs_free(ssdlab_jobs *w)
{
	if (!w || --w->refs > 0)
		return;
	ssd_jobs_free(w->b);
	free(w->v);
	free(w);
}

/* ---- running and reporting ---- */

/* The report's wall-time fields only (the simulation never reads it). */
static double wall_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A result holds a reference to its jobs (the report reads their
 * options) and a copy of the drive's configuration, so that it may
 * outlive both; with a series (ssdlab_run_series), the run's points and
 * where it ended (the last point is cut there). */
struct ssdlab_result {
	struct ssd_run_result r;
	struct ssd_config cfg;
	ssdlab_jobs *jobs;
	struct ssd_series ser;
	int64_t ser_end;
};

/* ssdlab_run, with a series of step ns points when step > 0. */
static int run(ssdlab_dev *h, ssdlab_jobs *w, uint64_t seed, int64_t step,
	       ssdlab_result **out, char *err, size_t errlen)
{
	*out = NULL;
	int rc = ssdlab_jobs_end(w, err, errlen);
	if (rc)
		return rc;
	uint64_t cap = ssd_dev_capacity(h->dev);
	if (w->capacity != cap) {
		if (err && errlen)
			snprintf(err, errlen, "%s: the jobs were made for a drive of "
				 "%llu bytes, this one holds %llu", w->name,
				 (unsigned long long)w->capacity,
				 (unsigned long long)cap);
		return SSD_EINVAL;
	}
	ssdlab_result *res = calloc(1, sizeof *res);
	if (!res) {
		set_err(err, errlen, ssd_strerror(SSD_ENOMEM));
		return SSD_ENOMEM;
	}
	double w0 = wall_seconds();
	if (step > 0) {
		ssd_series_init(&res->ser, ssd_dev_time(h->dev), step);
		rc = ssd_sim_run_series(h->dev, w->v, w->n, seed, &res->ser,
					&res->r, err, errlen);
		res->ser_end = ssd_dev_time(h->dev);
		ssd_series_extend(&res->ser, res->ser_end);
		int oom = res->ser.oom;
		for (int j = 0; j < res->r.njobs; j++) {
			struct ssd_series *js = res->r.jobs[j].series;
			if (js) {
				ssd_series_extend(js, res->ser_end);
				oom |= js->oom;
			}
		}
		if (!rc && oom) {
			set_err(err, errlen, "out of memory for the run's series");
			rc = SSD_ENOMEM;
		}
	} else {
		rc = ssd_sim_run(h->dev, w->v, w->n, seed, &res->r, err, errlen);
	}
	res->r.wall_s = wall_seconds() - w0;
	res->cfg = *ssd_dev_config(h->dev);
	res->r.cfg = &res->cfg;
	res->jobs = w;
	w->refs++;
	res->r.seed = seed;
	res->r.jobfile = w->name;
	if (res->r.njobs == 0) {
		ssdlab_result_free(res);
		return rc;
	}
	*out = res;
	return rc;
}

int ssdlab_run(ssdlab_dev *h, ssdlab_jobs *w, uint64_t seed,
	       ssdlab_result **out, char *err, size_t errlen)
{
	return run(h, w, seed, 0, out, err, errlen);
}

int ssdlab_run_series(ssdlab_dev *h, ssdlab_jobs *w, uint64_t seed,
		      int64_t step_ns, ssdlab_result **out, char *err,
		      size_t errlen)
{
	if (step_ns <= 0) {
		*out = NULL;
		if (err && errlen)
			snprintf(err, errlen, "series step %lld ns: not above 0",
				 (long long)step_ns);
		return SSD_EINVAL;
	}
	return run(h, w, seed, step_ns, out, err, errlen);
}

int ssdlab_result_points(const ssdlab_result *r)
{
	return (int)r->ser.n;
}

/* Point i of series s (the run's or a job's, on the same steps) into o. */
static int series_point(const ssdlab_result *r, const struct ssd_series *s,
			int i, struct ssdlab_point *o)
{
	if (i < 0 || (uint32_t)i >= s->n)
		return SSD_EINVAL;
	memset(o, 0, sizeof *o);
	o->t_ns = (int64_t)i * s->step;
	int64_t left = r->ser_end - s->t0 - o->t_ns;
	o->len_ns = left > 0 && left < s->step ? left : s->step;
	double secs = (double)o->len_ns / 1e9;
	const struct ssd_series_pt *p = &s->pt[i];
	for (int d = 0; d < 3; d++) {
		o->ios[d] = p->ios[d];
		o->bytes[d] = p->bytes[d];
		o->iops[d] = (double)p->ios[d] / secs;
		o->bw_bytes[d] = (double)p->bytes[d] / secs;
		o->lat_mean_ns[d] = p->ios[d] ? (double)p->lat_sum[d] /
						(double)p->ios[d] : 0;
		o->lat_max_ns[d] = (double)p->lat_max[d];
	}
	return 0;
}

int ssdlab_result_point(const ssdlab_result *r, int i,
			struct ssdlab_point *o)
{
	return series_point(r, &r->ser, i, o);
}

int ssdlab_result_job_point(const ssdlab_result *r, int job, int i,
			    struct ssdlab_point *o)
{
	if (job < 0 || job >= r->r.njobs || !r->r.jobs[job].series)
		return SSD_EINVAL;
	return series_point(r, r->r.jobs[job].series, i, o);
}

int ssdlab_result_jobs(const ssdlab_result *r)
{
	return r->r.njobs;
}

int ssdlab_result_job(const ssdlab_result *r, int job,
		      struct ssdlab_job_stats *o)
{
	if (job < 0 || job >= r->r.njobs)
		return SSD_EINVAL;
	const struct ssd_job_result *j = &r->r.jobs[job];
	memset(o, 0, sizeof *o);
	o->name = j->name;
	o->error = j->error;
	o->errmsg = j->errmsg;
	o->start_ns = j->start_ns;
	o->runtime_ns = j->runtime_ns;
	double secs = j->runtime_ns > 0 ? (double)j->runtime_ns / 1e9 : 0;
	for (int d = 0; d < 3; d++) {
		const struct ssd_dstat *s = &j->dir[d];
		struct ssdlab_dir_stats *od = &o->dir[d];
		od->ios = s->ios;
		od->bytes = s->bytes;
		od->iops = secs > 0 ? (double)s->ios / secs : 0;
		od->bw_bytes = secs > 0 ? (double)s->bytes / secs : 0;
		od->lat_mean_ns = ssd_moments_mean(&s->lat);
		od->lat_max_ns = s->lat.n ? s->lat.max : 0;
	}
	counters_out(&j->ctr, &o->ctr);
	o->waf = ssd_counters_waf(&j->ctr);
	health_out(&j->health, j->free_blocks, &o->health);
	return 0;
}

int64_t ssdlab_result_percentile(const ssdlab_result *r, int job, int op,
				 double p)
{
	if (job < 0 || job >= r->r.njobs || op < 0 || op > 2 || !(p > 0) ||
	    p > 100)
		return SSD_EINVAL;
	return (int64_t)ssd_hist_percentile(&r->r.jobs[job].dir[op].hist, p);
}

int ssdlab_report(const ssdlab_result *r, const char *formats, FILE *out)
{
	unsigned f;
	if (ssd_output_formats(formats ? formats : "normal", &f))
		return SSD_EPARSE;
	int rc = ssd_report(&r->r, f, out);
	return rc ? rc : fflush(out) || ferror(out) ? SSD_EIO : 0;
}

void ssdlab_result_free(ssdlab_result *r)
{
	if (!r)
		return;
	ssd_run_result_free(&r->r);
	ssd_series_free(&r->ser);
	ssdlab_jobs_free(r->jobs);
	free(r);
}

/* ---- zoned drives ---- */

int ssdlab_zoned(const ssdlab_dev *h, struct ssdlab_zoned *out)
{
	struct ssd_zoned_info zi;
	if (!ssd_dev_zoned(h->dev, &zi))
		return 0;
	*out = (struct ssdlab_zoned){
		.zone_size = zi.zone_size, .zone_cap = zi.zone_cap,
		.nzones = zi.nzones, .max_open = zi.max_open,
		.max_active = zi.max_active, .lba = zi.lba,
		.max_append = zi.max_append};
	return 1;
}

uint32_t ssdlab_placement_ids(const ssdlab_dev *h, uint32_t *pids, uint32_t max)
{
	return ssd_dev_placement_ids(h->dev, pids, max);
}

int64_t ssdlab_fdp_update(ssdlab_dev *h, const uint32_t *pids, uint32_t n,
			  int64_t t)
{
	if (t < ssd_dev_last_submit(h->dev) || (n && !pids))
		return SSD_EINVAL;
	return ssd_dev_fdp_update(h->dev, pids, n, t);
}

_Static_assert(SAME(SSDLAB_FDP_EV_RU_UNFILLED, SSD_FDP_EV_RU_UNFILLED) &&
	       SAME(SSDLAB_FDP_EV_BAD_PID, SSD_FDP_EV_BAD_PID) &&
	       SAME(SSDLAB_FDP_EV_MEDIA_REALLOC, SSD_FDP_EV_MEDIA_REALLOC) &&
	       SSDLAB_FDP_NO_PID == SSD_FDP_NO_PID,
	       "the FDP event types are the library's own");

uint32_t ssdlab_fdp_events(const ssdlab_dev *h, struct ssdlab_fdp_event *out,
			   uint32_t max)
{
	struct ssd_fdp_event ev[SSD_FDP_EVENTS];
	uint32_t n = ssd_dev_fdp_events(h->dev, ev, SSD_FDP_EVENTS);
	for (uint32_t i = 0; i < n && i < max; i++)
		out[i] = (struct ssdlab_fdp_event){
			.type = ev[i].type, .pid = ev[i].pid,
			.group = ev[i].group, .handle = ev[i].handle,
			.t = ev[i].t, .lba = ev[i].lba};
	return n;
}

int64_t ssdlab_zone_send(ssdlab_dev *h, int action, uint64_t offset, int flags,
			 int64_t t)
{
	if (t < ssd_dev_last_submit(h->dev) ||
	    (flags & ~(SSDLAB_ZONE_ALL | SSDLAB_ZONE_ZRWAA)))
		return SSD_EINVAL;
	return ssd_dev_zone_send(h->dev, action, offset, flags, t);
}

int ssdlab_zone_report(const ssdlab_dev *h, uint32_t zone,
		       struct ssdlab_zone *out)
{
	struct ssd_zone_desc z;
	int rc = ssd_dev_zone_report(h->dev, zone, &z);
	if (rc)
		return rc;
	*out = (struct ssdlab_zone){
		.start = z.start, .cap = z.cap, .wp = z.wp, .written = z.written,
		.state = z.state,
		.finished_by_controller = (z.attr & SSD_ZNS_ATTR_ZFC) != 0};
	return 0;
}

uint64_t ssdlab_append_offset(const ssdlab_dev *h)
{
	return ssd_dev_append_offset(h->dev);
}
