/*
 * report_json.c -- a finished run as fio's JSON and json+
 * (ssd_report_json and ssd_report_json_plus, through report.c).
 *
 * fio's --output-format=json layout, written with the JSON writer of
 * base/json.h in its fio mode ("key" : value, two spaces per level,
 * floats as %f).  Wall-clock time enters only the top-level "ssdlab"
 * object's wall_seconds and host_ios_per_wall_second; "timestamp" is 0
 * and "time" is the epoch, so two runs of the same inputs give the same
 * bytes apart from those two fields.  Each job's "ssdlab" object holds
 * its counters (its own window), "erase_count" with a histogram over
 * erase units ({"from", "to", "blocks"}, both bounds inclusive) and
 * "health", the drive at the job's end (its whole life so far); a job
 * that ended in error has fio's "error" (an errno) and, in its "ssdlab"
 * object, "error" (what kind) and "error_message" (what failed).
 *
 * fio's keys that describe the host (usr_cpu, sys_cpu, ctx, majf, minf,
 * eta, disk_util's counters) are written as zeros, so that scripts and
 * fio's tools find them; "job options" and "global options" are the job
 * file's strings.  json+ adds the latency histograms as "bins".
 * docs/output.md lists every key.
 */
#include "report/report_int.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* printf("%.10g") with a "." decimal point.  Returns buf. */
static const char *fmt_g(char *buf, size_t n, double v)
{
	return ssd_json_format(buf, n, "%.*g", 10, v);
}

/* ---- JSON in fio's layout (base/json.h) ---- */

struct jw {
	struct ssd_json j;
	int plus;               /* json+: latency histograms as "bins" */
	const struct ssd_config *cfg; /* the run's drive, or NULL */
};

static void jw_key(struct jw *w, const char *k)
{
	ssd_json_key(&w->j, k);
}

static void jw_end(struct jw *w)
{
	ssd_json_end(&w->j);
}

static void jw_obj(struct jw *w, const char *k)
{
	ssd_json_kobject(&w->j, k);
}

static void jw_u64(struct jw *w, const char *k, uint64_t v)
{
	ssd_json_ku64(&w->j, k, v);
}

static void jw_i64(struct jw *w, const char *k, int64_t v)
{
	ssd_json_ki64(&w->j, k, v);
}

/* fio's floats: %f, six decimals; null if not finite. */
static void jw_dbl(struct jw *w, const char *k, double v)
{
	ssd_json_kfixed(&w->j, k, v, 6);
}

static void jw_str(struct jw *w, const char *k, const char *s)
{
	ssd_json_kstring(&w->j, k, s);
}

static void jw_bool(struct jw *w, const char *k, int v)
{
	ssd_json_kbool(&w->j, k, v);
}

/* docs/fdp.md: the reclaim groups, the events by type, each handle's
 * usage (host pages, pages programmed into its blocks), and with
 * initially isolated handles the GC copies into the blocks they share. */
static void json_fdp_usage(struct jw *w, const struct ssd_counters *c)
{
	jw_u64(w, "reclaim_groups", w->cfg->fdp_groups);
	jw_obj(w, "events");
	jw_u64(w, "invalid_placement_identifier", c->fdp_bad_pid);
	jw_u64(w, "reclaim_unit_not_written_to_capacity", c->fdp_ru_unfilled);
	jw_u64(w, "media_reallocated", c->fdp_media_realloc);
	jw_end(w);
	if (w->cfg->fdp_isolation == SSD_FDP_INITIAL)
		jw_u64(w, "gc_shared_pages", c->fdp_gc_shared_lp);
	ssd_json_karray(&w->j, "handle_usage");
	for (uint32_t h = 0; h < w->cfg->fdp_handles && h < SSD_FDP_MAX_HANDLES; h++) {
		ssd_json_object(&w->j);
		jw_u64(w, "handle", h);
		jw_u64(w, "host_pages_written", c->fdp_host_lp[h]);
		jw_u64(w, "media_pages_written", c->fdp_media_lp[h]);
		jw_dbl(w, "waf", ssd_rep_fdp_handle_waf(c, h));
		jw_end(w);
	}
	jw_end(w);
}

/* ---- the machine around the drive (machine/stack.h) ---- */

/* "machine": its nodes top down, each with what it was asked and its own
 * figures over the drive's life. */
static void json_machine(struct jw *w, const struct ssd_run_result *r)
{
	ssd_json_karray(&w->j, "machine");
	for (int i = 0; i < r->nnodes; i++) {
		const struct ssd_node_result *x = &r->nodes[i];
		ssd_json_object(&w->j);
		jw_str(w, "name", x->name);
		jw_str(w, "kind", x->kind);
		jw_u64(w, "depth", (uint64_t)x->depth);
		jw_u64(w, "capacity", x->capacity);
		for (int d = 0; d < SSD_DDIR_N; d++) {
			char k[32];
			snprintf(k, sizeof k, "%s_cmds", ssd_rep_ddir_name[d]);
			jw_u64(w, k, x->io.cmds[d]);
			snprintf(k, sizeof k, "%s_bytes", ssd_rep_ddir_name[d]);
			jw_u64(w, k, x->io.bytes[d]);
		}
		jw_u64(w, "flushes", x->io.flushes);
		jw_obj(w, "stats");
		for (int k = 0; k < x->nrows; k++) {
			double v = x->rows[k].value;
			ssd_json_key(&w->j, x->rows[k].key);
			if (v == floor(v) && fabs(v) < 9e15)
				ssd_json_i64(&w->j, (int64_t)v); /* a count */
			else
				ssd_json_general(&w->j, v, 9);
		}
		jw_end(w);
		jw_end(w);
	}
	jw_end(w);
}

/* ---- JSON ---- */

static void json_time(char *buf, size_t n, int64_t ns)
{
	if (ns % SSD_S == 0)
		snprintf(buf, n, "%" PRId64 "s", (int64_t)(ns / SSD_S));
	else if (ns % SSD_MS == 0)
		snprintf(buf, n, "%" PRId64 "ms", (int64_t)(ns / SSD_MS));
	else if (ns % SSD_US == 0)
		snprintf(buf, n, "%" PRId64 "us", (int64_t)(ns / SSD_US));
	else
		snprintf(buf, n, "%" PRId64 "ns", ns);
}

static void json_opt_u64(struct jw *w, const char *k, uint64_t v)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%" PRIu64, v);
	jw_str(w, k, buf);
}

static void json_opt_time(struct jw *w, const char *k, int64_t ns)
{
	char buf[40];
	json_time(buf, sizeof buf, ns);
	jw_str(w, k, buf);
}

/* "A" when the three directions agree, else "R,W,T" (fio's syntax);
 * each value printed by put(dir) into the buffer. */
static void ddir_str(char *buf, size_t n, const struct ssd_job *job,
		     int (*same)(const struct ssd_job *, int, int),
		     size_t (*put)(char *, size_t, const struct ssd_job *, int))
{
	int all = same(job, 0, 1) && same(job, 0, 2);
	size_t len = 0;
	buf[0] = 0;
	for (int d = 0; d < (all ? 1 : SSD_DDIR_N) && len + 1 < n; d++) {
		if (d)
			buf[len++] = ',';
		buf[len] = 0;
		len += put(buf + len, n - len, job, d);
	}
}

/* What snprintf's result r wrote into n bytes (n > 0): its length, cut
 * to what fits; 0 on an error. */
static size_t wrote(int r, size_t n)
{
	return r < 0 ? 0 : (size_t)r < n ? (size_t)r : n - 1;
}

static int same_bs(const struct ssd_job *j, int a, int b)
{
	return j->min_bs[a] == j->min_bs[b] && j->max_bs[a] == j->max_bs[b];
}

static size_t put_bs(char *buf, size_t n, const struct ssd_job *j, int d)
{
	int r = j->min_bs[d] == j->max_bs[d]
			? snprintf(buf, n, "%" PRIu32, j->min_bs[d])
			: snprintf(buf, n, "%" PRIu32 "-%" PRIu32, j->min_bs[d],
				   j->max_bs[d]);
	return wrote(r, n);
}

static int same_split(const struct ssd_job *j, int a, int b)
{
	return j->nbssplit[a] == j->nbssplit[b] &&
	       !memcmp(j->bssplit[a], j->bssplit[b],
		       (size_t)j->nbssplit[a] * sizeof j->bssplit[a][0]);
}

static size_t put_split(char *buf, size_t n, const struct ssd_job *j, int d)
{
	size_t len = 0;
	for (int i = 0; i < j->nbssplit[d] && len + 1 < n; i++) {
		int r = snprintf(buf + len, n - len, "%s%" PRIu32 "/%" PRIu32,
				 i ? ":" : "", j->bssplit[d][i].bs,
				 j->bssplit[d][i].pct);
		if (r < 0)
			break;
		len += wrote(r, n - len);
	}
	return len;
}

static int same_ba(const struct ssd_job *j, int a, int b)
{
	return j->blockalign[a] == j->blockalign[b];
}

static size_t put_ba(char *buf, size_t n, const struct ssd_job *j, int d)
{
	int r = snprintf(buf, n, "%" PRIu32, j->blockalign[d]);
	return wrote(r, n);
}

static int same_perc(const struct ssd_job *j, int a, int b)
{
	return j->perc_random[a] == j->perc_random[b];
}

static size_t put_perc(char *buf, size_t n, const struct ssd_job *j, int d)
{
	int r = snprintf(buf, n, "%" PRIu32, j->perc_random[d]);
	return wrote(r, n);
}

static int same_zones(const struct ssd_job *j, int a, int b)
{
	return j->nzones[a] == j->nzones[b] &&
	       !memcmp(j->zones[a], j->zones[b],
		       (size_t)j->nzones[a] * sizeof j->zones[a][0]);
}

static size_t put_zones(char *buf, size_t n, const struct ssd_job *j, int d)
{
	char num[64], num2[64];
	size_t len = 0;
	for (int i = 0; i < j->nzones[d] && len + 1 < n; i++) {
		const struct ssd_zone *z = &j->zones[d][i];
		int r;
		if (j->dist == SSD_DIST_ZONED_ABS)
			r = snprintf(buf + len, n - len, "%s%s/%" PRIu64,
				     i ? ":" : "",
				     fmt_g(num, sizeof num, z->access_pct),
				     z->size_bytes);
		else
			r = snprintf(buf + len, n - len, "%s%s/%s",
				     i ? ":" : "",
				     fmt_g(num, sizeof num, z->access_pct),
				     fmt_g(num2, sizeof num2, z->size_pct));
		if (r < 0)
			break;
		len += wrote(r, n - len);
	}
	return len;
}

/* The verification options of a job, as fio lists them. */
static void json_verify_options(struct jw *w, const struct ssd_job *job)
{
	if (job->verify == SSD_VERIFY_NONE)
		return;
	jw_str(w, "verify", job->verify_name);
	if (!job->do_verify)
		jw_str(w, "do_verify", "0");
	if (job->verify_only)
		jw_str(w, "verify_only", "1");
	if (job->verify_backlog)
		json_opt_u64(w, "verify_backlog", job->verify_backlog);
	if (job->verify_backlog_batch)
		json_opt_u64(w, "verify_backlog_batch", job->verify_backlog_batch);
	if (job->experimental_verify)
		jw_str(w, "experimental_verify", "1");
	if (job->trim_percentage)
		json_opt_u64(w, "trim_percentage", job->trim_percentage);
	if (job->trim_backlog)
		json_opt_u64(w, "trim_backlog", job->trim_backlog);
	if (!job->trim_verify_zero)
		jw_str(w, "trim_verify_zero", "0");
}

/* The job's resolved options, fio's names, as strings: "job options" of
 * a job built in code rather than read from a job file. */
static void json_job_resolved(struct jw *w, const struct ssd_job *job)
{
	char buf[SSD_DDIR_N * SSD_JOB_MAX_ZONES * 48 + 64], num[64], num2[64];
	const char *rw = ssd_rw_name(job->rw);

	jw_obj(w, "job options");
	if (job->seq_add || job->seq_nr > 1) {
		if (job->seq_nr > 1)
			snprintf(buf, sizeof buf, "%s:%" PRIu32,
				 rw ? rw : "unknown", job->seq_nr);
		else
			snprintf(buf, sizeof buf, "%s:%" PRId64,
				 rw ? rw : "unknown", job->seq_add);
		jw_str(w, "rw", buf);
	} else {
		jw_str(w, "rw", rw ? rw : "unknown");
	}
	if (job->rw == SSD_RW_READWRITE || job->rw == SSD_RW_RANDRW)
		json_opt_u64(w, "rwmixread", job->rwmixread);
	if (job->nbssplit[0] || job->nbssplit[1] || job->nbssplit[2]) {
		ddir_str(buf, sizeof buf, job, same_split, put_split);
		jw_str(w, "bssplit", buf);
	} else {
		ddir_str(buf, sizeof buf, job, same_bs, put_bs);
		jw_str(w, strchr(buf, '-') ? "bsrange" : "bs", buf);
	}
	if (job->bs_unaligned)
		jw_str(w, "bs_unaligned", "1");
	if (job->blockalign_set) {
		ddir_str(buf, sizeof buf, job, same_ba, put_ba);
		jw_str(w, "blockalign", buf);
	}
	if (ssd_rw_is_random(job->rw)) {
		if (!same_perc(job, 0, 1) || !same_perc(job, 0, 2) ||
		    job->perc_random[0] != 100) {
			ddir_str(buf, sizeof buf, job, same_perc, put_perc);
			jw_str(w, "percentage_random", buf);
		}
		if (job->seq_nr > 1 && job->rw_sequencer == SSD_RWSEQ_IDENTICAL)
			jw_str(w, "rw_sequencer", "identical");
	}
	if (job->random_generator == SSD_RANDGEN_LFSR)
		jw_str(w, "random_generator", "lfsr");
	else if (job->random_generator == SSD_RANDGEN_TAUSWORTHE64)
		jw_str(w, "random_generator", "tausworthe64");
	json_opt_u64(w, "iodepth", job->iodepth);
	json_opt_u64(w, "offset", job->offset);
	json_opt_u64(w, "size", job->size);
	json_opt_u64(w, "io_size", job->io_size);
	if (job->number_ios)
		json_opt_u64(w, "number_ios", job->number_ios);
	if (job->loops > 1)
		json_opt_u64(w, "loops", job->loops);
	if (job->runtime)
		json_opt_time(w, "runtime", job->runtime);
	if (job->time_based)
		jw_str(w, "time_based", "1");
	if (job->ramp_time)
		json_opt_time(w, "ramp_time", job->ramp_time);
	if (job->dist != SSD_DIST_RANDOM) {
		const char *kind = job->dist == SSD_DIST_ZIPF     ? "zipf"
				 : job->dist == SSD_DIST_PARETO   ? "pareto"
				 : job->dist == SSD_DIST_NORMAL   ? "normal"
				 : job->dist == SSD_DIST_ZONED    ? "zoned"
				 : job->dist == SSD_DIST_ZONED_ABS ? "zoned_abs"
				 : job->dist == SSD_DIST_SEQUENCE ? "sequence"
								  : "unknown";
		size_t len = (size_t)snprintf(buf, sizeof buf, "%s", kind);
		for (uint32_t i = 0; job->dist == SSD_DIST_SEQUENCE &&
		     i < job->nsequence && len + 12 < sizeof buf; i++)
			len += (size_t)snprintf(buf + len, sizeof buf - len,
						"%c%u", i ? ',' : ':',
						job->sequence[i]);
		if (job->dist == SSD_DIST_ZONED ||
		    job->dist == SSD_DIST_ZONED_ABS) {
			buf[len++] = ':';
			ddir_str(buf + len, sizeof buf - len, job, same_zones,
				 put_zones);
		} else if (job->dist != SSD_DIST_RANDOM &&
			   job->dist != SSD_DIST_SEQUENCE &&
			   strcmp(kind, "unknown")) {
			len += (size_t)snprintf(buf + len, sizeof buf - len,
						":%s",
						fmt_g(num, sizeof num,
						      job->dist_param));
			if (job->dist_center >= 0)
				snprintf(buf + len, sizeof buf - len, ":%s",
					 fmt_g(num2, sizeof num2,
					       job->dist_center));
		}
		jw_str(w, "random_distribution", buf);
	}
	if (job->norandommap)
		jw_str(w, "norandommap", "1");
	if (job->thinktime) {
		json_opt_time(w, "thinktime", job->thinktime);
		json_opt_u64(w, "thinktime_blocks", job->thinktime_blocks);
	}
	if (job->stonewall)
		jw_str(w, "stonewall", "1");
	if (job->numjobs > 1)
		json_opt_u64(w, "numjobs", job->numjobs);
	if (job->group_reporting)
		jw_str(w, "group_reporting", "1");
	if (job->has_randseed)
		json_opt_u64(w, "randseed", job->randseed);
	if (job->write_iops_log[0])
		jw_str(w, "write_iops_log", job->write_iops_log);
	if (job->write_bw_log[0])
		jw_str(w, "write_bw_log", job->write_bw_log);
	if (job->write_lat_log[0])
		jw_str(w, "write_lat_log", job->write_lat_log);
	if (job->log_avg_msec)
		json_opt_u64(w, "log_avg_msec", (uint64_t)job->log_avg_msec);
	json_verify_options(w, job);
	jw_end(w);
}

/* ---- logs and output: fio's keys a simulation can fill ---- */

static void json_lat(struct jw *w, const char *key,
		     const struct ssd_moments *m, uint64_t n,
		     const struct ssd_hist *h, const struct plist *pl);

/* json+: "bins", the histogram's non-empty buckets keyed by the value
 * each stands for (fio's plat_idx_to_val), as fio_jsonplus_clat2csv
 * reads them. */
static void json_bins(struct jw *w, const struct ssd_hist *h)
{
	char key[32];
	jw_obj(w, "bins");
	for (unsigned i = 0; i < SSD_HIST_N; i++) {
		if (!h->bucket[i])
			continue;
		snprintf(key, sizeof key, "%" PRIu64, ssd_hist_value(i));
		jw_u64(w, key, h->bucket[i]);
	}
	jw_end(w);
}

/* The job file's pairs of job as object `key`: its own, or its [global]
 * ones when global. */
static void json_raw_options(struct jw *w, const char *key,
			     const struct ssd_job *job, int global)
{
	const char *k, *v;
	uint32_t pos = 0;
	jw_obj(w, key);
	while (ssd_job_raw_next(job, global, &pos, &k, &v))
		jw_str(w, k, v);
	jw_end(w);
}

/* "job options" / "global options": the options as written (fio keeps
 * the strings of the job file).  A job built in code, not read from a
 * file, shows its resolved options instead. */
static void json_job_options(struct jw *w, const struct ssd_job *job)
{
	if (job->line <= 0 && !job->raw_len)
		json_job_resolved(w, job);
	else
		json_raw_options(w, "job options", job, 0);
}

/* fio's "global options": the [global] pairs, as the last job saw them
 * (later [global] sections add to them); absent without any. */
static void json_global_options(struct jw *w, const struct ssd_run_result *r)
{
	const struct ssd_job *job = NULL;
	for (int i = 0; i < r->njobs; i++)
		if (r->jobs[i].job)
			job = ssd_job_result_last(&r->jobs[i]);
	if (job && job->raw_global)
		json_raw_options(w, "global options", job, 1);
}

/* fio's "sync": flush commands (fsync=N) and their latency. */
static void json_sync(struct jw *w, const struct ssd_job_result *j)
{
	const struct ssd_dstat *s = &j->sync;
	jw_obj(w, "sync");
	jw_u64(w, "total_ios", s->ios);
	struct plist pl = ssd_rep_plist_of(j);
	json_lat(w, "lat_ns", &s->lat, s->lat.n, &s->hist,
		 pl.clat || pl.lat ? &pl : NULL);
	jw_end(w);
}

/* The keys of fio's job object that follow job_runtime, before the
 * latency distribution: the host's CPU use (simulator-only: zeros) and
 * the I/O depth distributions. */
static void json_host_and_depths(struct jw *w, const struct ssd_job_result *j)
{
	double pct[SSD_DEPTH_N];
	jw_dbl(w, "usr_cpu", 0.0);
	jw_dbl(w, "sys_cpu", 0.0);
	jw_u64(w, "ctx", 0);
	jw_u64(w, "majf", 0);
	jw_u64(w, "minf", 0);
	ssd_rep_depth_pct(j, pct);
	jw_obj(w, "iodepth_level");
	for (int i = 0; i < SSD_DEPTH_N; i++)
		jw_dbl(w, ssd_rep_depth_key[i], pct[i]);
	jw_end(w);
	ssd_rep_batch_pct(j, pct);
	jw_obj(w, "iodepth_submit");
	for (int i = 0; i < SSD_DEPTH_N; i++)
		jw_dbl(w, ssd_rep_batch_key[i], pct[i]);
	jw_end(w);
	jw_obj(w, "iodepth_complete");
	for (int i = 0; i < SSD_DEPTH_N; i++)
		jw_dbl(w, ssd_rep_batch_key[i], pct[i]);
	jw_end(w);
}

/* fio's latency_target keys (fio 3.33): the target in ns, the window in
 * us. */
static void json_latency_target(struct jw *w, const struct ssd_job_result *j)
{
	const struct ssd_job *job = ssd_job_result_last(j); /* fio's */
	jw_u64(w, "latency_depth", ssd_rep_latency_depth(j));
	jw_u64(w, "latency_target", job ? (uint64_t)job->latency_target : 0);
	jw_dbl(w, "latency_percentile", job ? job->latency_percentile : 100.0);
	jw_u64(w, "latency_window",
	       job ? (uint64_t)(job->latency_window / SSD_US) : 0);
}

/* Whole seconds, rounded up (fio's "elapsed"). */
static uint64_t secs_up(int64_t ns)
{
	return ns > 0 ? ((uint64_t)ns + SSD_S - 1) / SSD_S : 0;
}

/* fio's "disk_util": one entry for the simulated drive, its kernel
 * block-layer counters zero (simulator-only: no kernel in between). */
static void json_disk_util(struct jw *w, const struct ssd_run_result *r)
{
	ssd_json_karray(&w->j, "disk_util");
	ssd_json_object(&w->j);
	jw_str(w, "name", r->cfg && r->cfg->name[0] ? r->cfg->name : "ssdlab");
	static const char *const k[] = {"read_ios", "write_ios",
		"read_merges", "write_merges", "read_ticks", "write_ticks",
		"in_queue"};
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
		jw_u64(w, k[i], 0);
	jw_dbl(w, "util", 0.0);
	jw_end(w);
	jw_end(w);
}

/* fio's add_ddir_lat_json: {min, max, mean, stddev, N[, percentile]}:
 * the percentiles of pl when pl is not NULL and there are samples (h
 * NULL: every sample is 0, submission latency). */
static void json_lat(struct jw *w, const char *key,
		     const struct ssd_moments *m, uint64_t n,
		     const struct ssd_hist *h, const struct plist *pl)
{
	jw_obj(w, key);
	jw_u64(w, "min", m && m->n ? ssd_rep_u64_of(m->min) : 0);
	jw_u64(w, "max", m && m->n ? ssd_rep_u64_of(m->max) : 0);
	jw_dbl(w, "mean", m ? ssd_moments_mean(m) : 0.0);
	jw_dbl(w, "stddev", m ? ssd_moments_stddev(m) : 0.0);
	jw_u64(w, "N", n);
	if (pl && n && (!h || h->n)) {
		char key_buf[64];
		jw_obj(w, "percentile");
		for (int i = 0; i < pl->n; i++)
			jw_u64(w, ssd_rep_fmt_f(key_buf, sizeof key_buf, 0, 6, pl->v[i]),
			       h ? ssd_hist_percentile(h, pl->v[i]) : 0);
		jw_end(w);
		if (w->plus && h)
			json_bins(w, h);
	}
	jw_end(w);
}

static void json_ddir(struct jw *w, const struct ssd_job_result *j, int d,
		      const struct group *rs)
{
	const struct ssd_dstat *s = &j->dir[d];
	int64_t rt = ssd_rep_dir_runtime(j, d);
	uint64_t bw_bytes = ssd_rep_per_sec(s->bytes, rt);

	jw_obj(w, ssd_rep_ddir_name[d]);
	jw_u64(w, "io_bytes", s->bytes);
	jw_u64(w, "io_kbytes", s->bytes >> 10);
	jw_u64(w, "bw_bytes", bw_bytes);
	jw_u64(w, "bw", bw_bytes / 1024);
	jw_dbl(w, "iops", rt > 0 ? (double)s->ios * 1e9 / (double)rt : 0.0);
	jw_u64(w, "runtime", ssd_rep_ms_of(rt));
	jw_u64(w, "total_ios", s->ios);
	jw_u64(w, "short_ios", 0);
	jw_u64(w, "drop_ios", 0);
	/* submission is instant in the simulator: slat is 0 for every I/O
	 * and lat (submission to completion) equals clat */
	struct plist pl = ssd_rep_plist_of(j);
	json_lat(w, "slat_ns", NULL, s->ios, NULL, pl.slat ? &pl : NULL);
	json_lat(w, "clat_ns", &s->lat, s->lat.n, &s->hist,
		 pl.clat ? &pl : NULL);
	json_lat(w, "lat_ns", &s->lat, s->lat.n, &s->hist,
		 pl.lat ? &pl : NULL);

	int have_bw = s->bw.n > 0;
	double bw_mean = ssd_moments_mean(&s->bw);
	jw_u64(w, "bw_min", have_bw ? ssd_rep_u64_of(s->bw.min) : 0);
	jw_u64(w, "bw_max", have_bw ? ssd_rep_u64_of(s->bw.max) : 0);
	jw_dbl(w, "bw_agg", have_bw ? ssd_rep_agg_percent(rs->agg[d], bw_mean) : 0.0);
	jw_dbl(w, "bw_mean", bw_mean);
	jw_dbl(w, "bw_dev", ssd_moments_stddev(&s->bw));
	jw_u64(w, "bw_samples", s->bw.n);
	int have_iops = s->iops.n > 0;
	jw_u64(w, "iops_min", have_iops ? ssd_rep_u64_of(s->iops.min) : 0);
	jw_u64(w, "iops_max", have_iops ? ssd_rep_u64_of(s->iops.max) : 0);
	jw_dbl(w, "iops_mean", ssd_moments_mean(&s->iops));
	jw_dbl(w, "iops_stddev", ssd_moments_stddev(&s->iops));
	jw_u64(w, "iops_samples", s->iops.n);
	jw_end(w);
}

/* Bins of the erase-count histogram worth printing: up to the one that
 * holds the most-worn block (the later ones are empty by construction);
 * none when the health was not filled in (width 0). */
static int hist_bins(const struct ssd_health *h)
{
	if (!h->erase_hist_width)
		return 0;
	uint32_t top = h->erase_max > h->erase_hist_lo
		? (h->erase_max - h->erase_hist_lo) / h->erase_hist_width : 0;
	return top < SSD_WEAR_BINS ? (int)top + 1 : SSD_WEAR_BINS;
}

/* "erase_count": per-block erase operations at the job's end, and their
 * distribution: bin {"from", "to", "blocks"} counts the blocks erased
 * from..to times (both inclusive). */
static void json_erase_count(struct jw *w, const struct ssd_job_result *j)
{
	const struct ssd_health *h = &j->health;
	jw_obj(w, "erase_count");
	jw_u64(w, "min", j->erase_min);
	jw_dbl(w, "mean", j->erase_mean);
	jw_u64(w, "max", j->erase_max);
	jw_key(w, "histogram");
	int n = hist_bins(h);
	if (!n) {
		ssd_json_array_flat(&w->j);
	} else {
		ssd_json_array(&w->j);
		for (int i = 0; i < n; i++) {
			uint64_t lo = h->erase_hist_lo +
				      (uint64_t)i * h->erase_hist_width;
			ssd_json_object_flat(&w->j);
			jw_u64(w, "from", lo);
			jw_u64(w, "to", lo + h->erase_hist_width - 1);
			jw_u64(w, "blocks", h->erase_hist[i]);
			jw_end(w);
		}
	}
	jw_end(w);
	jw_end(w);
}

/* "health": the drive, SMART-like, at the job's end (its whole life, not
 * the job's window). */
static void json_health(struct jw *w, const struct ssd_health *h)
{
	jw_obj(w, "health");
	jw_dbl(w, "percentage_used", h->percentage_used);
	jw_dbl(w, "max_wear_pct", h->max_wear_pct);
	jw_dbl(w, "available_spare", h->available_spare);
	jw_u64(w, "spare_blocks", h->spare_blocks);
	jw_u64(w, "bad_blocks", h->bad_blocks);
	jw_u64(w, "erase_failures", h->erase_failures);
	jw_u64(w, "program_failures", h->program_failures);
	jw_bool(w, "read_only", h->read_only);
	jw_u64(w, "host_bytes_written", h->host_bytes_written);
	jw_u64(w, "host_bytes_read", h->host_bytes_read);
	jw_u64(w, "nand_bytes_written", h->nand_bytes_written);
	jw_u64(w, "slc_cache_bytes", h->slc_cache_bytes);
	jw_end(w);
}

static void json_noeffect(struct jw *w, const struct ssd_job_result *j,
			  const struct ssd_config *c)
{
	const char *names[NOEFFECT_MAX];
	int n = ssd_rep_noeffect(j, c, names);
	const struct ssd_job *job = ssd_rep_cut_job(j);
	jw_key(w, "options_without_effect");
	ssd_json_array_flat(&w->j);
	for (int i = 0; i < n; i++)
		ssd_json_string(&w->j, names[i]);
	jw_end(w);
	if (ssd_rep_no_cache(j, c))
		jw_str(w, "host_page_cache", ssd_rep_page_cache_note);
	if (ssd_rep_time_based_dropped(j))
		jw_str(w, "time_based_without_runtime", ssd_rep_time_based_note);
	if (job) {
		char note[256];
		jw_obj(w, "size_cut");
		jw_str(w, "option", job->cut_key);
		jw_u64(w, "bytes", job->cut_lo);
		if (job->cut_hi != job->cut_lo)
			jw_u64(w, "bytes_max", job->cut_hi);
		jw_u64(w, "block_size", ssd_job_min_bs(job));
		jw_u64(w, "region_bytes", job->size);
		jw_str(w, "note", ssd_rep_cut_note(job, note, sizeof note));
		jw_end(w);
	}
}

static void json_ssdlab_job(struct jw *w, const struct ssd_job_result *j)
{
	const struct ssd_counters *c = &j->ctr;
	jw_obj(w, "ssdlab");
	jw_u64(w, "host_pages_read", c->host_read_lp);
	jw_u64(w, "host_pages_written", c->host_write_lp);
	jw_u64(w, "host_pages_trimmed", c->host_trim_lp);
	jw_u64(w, "host_pages_read_unmapped", c->host_unmapped_read_lp);
	char note[400];
	if (ssd_rep_unmapped_note(c, note, sizeof note))
		jw_str(w, "unmapped_reads_note", note);
	jw_u64(w, "host_flushes", c->flushes);
	jw_u64(w, "nand_pages_read", c->nand_read);
	jw_u64(w, "nand_pages_programmed", c->nand_prog);
	jw_u64(w, "nand_lpages_programmed", c->nand_prog_lp);
	jw_u64(w, "pad_pages", c->pad_lp);
	jw_u64(w, "blocks_erased", c->nand_erase);
	jw_u64(w, "gc_copied_pages", c->gc_copy_lp);
	jw_u64(w, "gc_bg_copied_pages", c->gc_bg_copy_lp);
	jw_u64(w, "gc_victims", c->gc_victims);
	jw_u64(w, "fold_copied_pages", c->fold_copy_lp);
	jw_u64(w, "wl_copied_pages", c->wl_copy_lp);
	jw_u64(w, "slc_written_pages", c->slc_write_lp);
	jw_u64(w, "map_pages_read", c->map_read);
	jw_u64(w, "map_pages_written", c->map_write);
	jw_u64(w, "erase_failures", c->erase_fail);
	jw_u64(w, "program_failures", c->prog_fail);
	jw_u64(w, "writes_refused_read_only", c->ro_reject);
	jw_u64(w, "buffered_writes", c->buffer_hits);
	jw_u64(w, "rmw_read_pages", c->rmw_read_lp);
	jw_u64(w, "read_retries", c->read_retry);
	jw_u64(w, "read_ahead_pages", c->read_ahead_lp);
	jw_u64(w, "read_ahead_hits", c->read_ahead_hit_lp);
	if (c->power_cuts) { /* a served drive's (docs/power-loss.md) */
		jw_u64(w, "power_cuts", c->power_cuts);
		jw_u64(w, "power_lost_pages", c->power_lost_lp);
	}
	if (w->cfg && w->cfg->fdp) { /* docs/fdp.md: the statistics log */
		jw_obj(w, "fdp");
		jw_u64(w, "handles", w->cfg->fdp_handles);
		jw_str(w, "isolation", ssd_rep_fdp_isolation(w->cfg));
		jw_u64(w, "host_bytes_written", c->host_write_bytes);
		jw_u64(w, "media_bytes_written", c->nand_prog_lp * SSD_LPAGE);
		jw_u64(w, "media_bytes_erased", ssd_rep_fdp_mbe(w->cfg, c));
		jw_u64(w, "invalid_placement_identifiers", c->fdp_bad_pid);
		json_fdp_usage(w, c);
		jw_end(w);
	}
	if (w->cfg && w->cfg->mapping == SSD_MAP_ZONE) { /* docs/zoned.md */
		jw_str(w, "mapping", "zone");
		jw_u64(w, "zones_reset", c->zone_reset);
		jw_u64(w, "zone_reset_pages", c->zone_reset_lp);
		jw_u64(w, "zones_finished", c->zone_finish);
		jw_u64(w, "zone_finish_pad_pages", c->zone_finish_pad_lp);
		jw_u64(w, "zone_reset_ns", c->zone_reset_ns);
		jw_u64(w, "zone_finish_ns", c->zone_finish_ns);
	} else if (w->cfg && w->cfg->mapping != SSD_MAP_PAGE) { /* docs/mapping.md */
		jw_str(w, "mapping", ssd_mapping_name(w->cfg->mapping));
		jw_u64(w, "merges_switch", c->merge_switch);
		jw_u64(w, "merges_partial", c->merge_partial);
		jw_u64(w, "merges_full", c->merge_full);
	}
	jw_dbl(w, "waf", ssd_counters_waf(c));
	json_erase_count(w, j);
	jw_u64(w, "free_blocks", j->free_blocks);
	jw_dbl(w, "frag_run_pages", j->frag_run);
	jw_u64(w, "lat_over_1s", j->lat_over_1s);
	if (ssd_rep_verify_job(j)) {
		jw_u64(w, "verified_pages", j->verify_pages);
		jw_u64(w, "verified_zero_pages", j->verify_zero_pages);
	}
	json_noeffect(w, j, w->cfg);
	json_health(w, &j->health);
	if (j->error) {
		jw_str(w, "error", ssd_strerror(j->error));
		jw_str(w, "error_message", j->errmsg[0] ? j->errmsg
							: ssd_strerror(j->error));
	}
	jw_end(w);
}

/* fio's "steadystate" object (ss_dur jobs): the criterion, whether it
 * was attained, the last criterion value, and the window's samples
 * oldest first (bytes/s, I/Os per second, latency ns with lat). */
static void json_steadystate(struct jw *w, const struct ssd_ss *ss)
{
	char buf[80];
	const char *what = ss->state & SSD_SS_IOPS ? "iops"
			 : ss->state & SSD_SS_LAT ? "lat" : "bw";
	const char *pct = ss->state & SSD_SS_PCT ? "%" : "";
	jw_obj(w, "steadystate");
	ssd_json_format(buf, sizeof buf, "%s%s:%f%s", what,
			ss->state & SSD_SS_SLOPE ? "_slope" : "",
			(float)ss->limit, pct);
	jw_str(w, "ss", buf);
	jw_u64(w, "duration", ss->dur_s);
	jw_u64(w, "attained", (ss->state & SSD_SS_ATTAINED) != 0);
	ssd_json_format(buf, sizeof buf, "%f%s", (float)ss->criterion, pct);
	jw_str(w, "criterion", buf);
	jw_dbl(w, "max_deviation", ss->deviation);
	jw_dbl(w, "slope", ss->slope);
	jw_obj(w, "data");
	jw_u64(w, "bw_mean", ssd_ss_mean(ss, ss->bw));
	jw_u64(w, "iops_mean", ssd_ss_mean(ss, ss->iops));
	const struct {
		const char *key;
		const uint64_t *v;
		int on;
	} arr[] = {
		{"lat_ns", ss->lat, (ss->state & SSD_SS_LAT) != 0},
		{"iops", ss->iops, 1},
		{"bw", ss->bw, 1},
	};
	if (ss->state & SSD_SS_LAT)
		jw_u64(w, "lat_mean", ssd_ss_mean(ss, ss->lat));
	uint32_t first = ssd_ss_first(ss);
	for (size_t a = 0; a < sizeof arr / sizeof arr[0]; a++) {
		if (!arr[a].on)
			continue;
		ssd_json_karray(&w->j, arr[a].key);
		for (uint32_t i = 0; i < ss->n; i++)
			ssd_json_u64(&w->j, arr[a].v[(first + i) % ss->n]);
		jw_end(w);
	}
	jw_end(w);
	jw_end(w);
}

static void json_job(struct jw *w, const struct ssd_job_result *j,
		     const struct group *rs)
{
	double pct[SSD_LATDIST_N];

	ssd_json_object(&w->j);
	jw_str(w, "jobname", j->name);
	jw_i64(w, "groupid", j->groupid);
	jw_u64(w, "job_start", j->start_ns > 0 ? (uint64_t)j->start_ns / SSD_MS
					       : 0);
	jw_i64(w, "error", ssd_rep_job_errno(j));
	jw_i64(w, "eta", 0);
	jw_u64(w, "elapsed", secs_up(j->end_ns));
	if (j->job) /* fio's: the last job's of a group reported together */
		json_job_options(w, ssd_job_result_last(j));
	for (int d = 0; d < SSD_DDIR_N; d++)
		json_ddir(w, j, d, rs);
	json_sync(w, j);
	/* fio sums its members' (sum_thread_stats: total_run_time) */
	jw_u64(w, "job_runtime", ssd_rep_ms_of(j->runtime_sum_ns ? j->runtime_sum_ns
							       : j->runtime_ns));
	json_host_and_depths(w, j);

	ssd_rep_lat_dist_pct(j, pct);
	static const char *const unit_key[] = {"latency_ns", "latency_us",
					       "latency_ms"};
	for (int u = 0; u < 3; u++) {
		int lo = u * 10, hi = u < 2 ? lo + 10 : SSD_LATDIST_N;
		jw_obj(w, unit_key[u]);
		for (int i = lo; i < hi; i++)
			jw_dbl(w, ssd_rep_latdist_key[i], pct[i]);
		jw_end(w);
	}
	if (ssd_rep_continues(j)) {
		/* fio adds these with continue_on_error */
		jw_u64(w, "total_err", j->total_err);
		jw_i64(w, "first_error", j->first_error);
	}
	json_latency_target(w, j);
	if (j->ss.n)
		json_steadystate(w, &j->ss);
	/* fio HEAD: the zone resets of a zbd job that writes or trims */
	if (j->zbd)
		jw_u64(w, "zone_resets", j->zone_resets);
	json_ssdlab_job(w, j);
	jw_end(w);
}

void ssd_rep_json(const struct ssd_run_result *r, FILE *out, int plus,
			const struct group *g)
{
	struct jw w = {.plus = plus, .cfg = r->cfg};

	ssd_json_init(&w.j, out, 0, SSD_JSON_FIO);
	ssd_json_object(&w.j);
	jw_str(&w, "fio version", "ssdlab-" SSDLAB_VERSION);
	/* no wall clock in a result: the epoch stands for "not a date" */
	jw_u64(&w, "timestamp", 0);
	jw_u64(&w, "timestamp_ms", 0);
	jw_str(&w, "time", "Thu Jan  1 00:00:00 1970");
	json_global_options(&w, r);
	ssd_json_karray(&w.j, "jobs");
	for (int i = 0; i < r->njobs; i++)
		json_job(&w, &r->jobs[i], &g[ssd_rep_group_of(&r->jobs[i])]);
	jw_end(&w);
	json_disk_util(&w, r);

	jw_obj(&w, "ssdlab");
	jw_str(&w, "version", SSDLAB_VERSION);
	if (r->jobfile)
		jw_str(&w, "jobfile", r->jobfile);
	jw_key(&w, "drive");
	if (r->cfg)
		ssd_config_json_write(r->cfg, &w.j);
	else
		ssd_json_null(&w.j);
	if (r->nnodes)
		json_machine(&w, r);
	jw_u64(&w, "seed", r->seed);
	{
		char buf[64];
		jw_key(&w, "sim_seconds");
		/* exact: ns as seconds with nine decimals, no rounding */
		int64_t ns = r->sim_ns > 0 ? r->sim_ns : 0;
		snprintf(buf, sizeof buf, "%" PRId64 ".%09" PRId64,
			 (int64_t)(ns / SSD_S), (int64_t)(ns % SSD_S));
		ssd_json_raw(&w.j, buf);
	}
	jw_dbl(&w, "wall_seconds", r->wall_s);
	jw_u64(&w, "host_ios", r->host_ios);
	jw_dbl(&w, "host_ios_per_wall_second",
	       r->wall_s > 0 ? (double)r->host_ios / r->wall_s : 0.0);
	jw_end(&w);
	jw_end(&w);
	putc('\n', out);
}

