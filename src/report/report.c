/*
 * report.c -- a finished run as people and programs read it.
 *
 * Two shapes, both fio's so that existing habits and scripts carry over:
 *
 * Text (ssd_report_normal) follows fio's show_thread_status_normal and
 * show_group_stats line for line where the figure exists in a simulation:
 * the "IOPS=, BW=" line, clat/lat lines in fio's unit choice, the
 * percentile block, bw and iops sample lines, the "lat (usec)   :"
 * distribution and the "Run status group" lines, with fio's number
 * formatting (num2str: 4 significant figures, KiB/MiB and kB/MB), the
 * flush block and the I/O depth lines.  Lines about the host machine
 * (pid, wall-clock date, cpu, context switches, disk stats) are left out:
 * they would describe the simulator, not the drive.  ssdlab adds lines
 * per job (write
 * amplification, NAND work, GC, wear; a SMART-like health line) and a
 * closing drive block.
 *
 * JSON (ssd_report_json) is fio's --output-format=json layout, written
 * with the JSON writer of base/json.h in its fio mode ("key" : value, two
 * spaces per level, floats as %f).  Wall-clock time enters only the top-level "ssdlab" object's
 * wall_seconds and host_ios_per_wall_second; "timestamp" is 0 and "time"
 * is the epoch, so two runs of the same inputs give the same bytes apart
 * from those two fields.  Each job's "ssdlab" object holds its counters
 * (its own window), "erase_count" with a histogram over erase units
 * ({"from", "to", "blocks"}, both bounds inclusive) and "health", the
 * drive at the job's end (its whole life so far); a job that ended in
 * error has fio's "error" (an errno) and, in its "ssdlab" object,
 * "error" (what kind) and "error_message" (what failed), which the text
 * prints as "err=N (kind)" and an "ssdlab: error:" line.
 *
 * fio's keys that describe the host (usr_cpu, sys_cpu, ctx, majf, minf,
 * eta, disk_util's counters) are written as zeros, so that scripts and
 * fio's tools find them; "job options" and "global options" are the job
 * file's strings.  json+ adds the latency histograms as "bins"; terse is
 * fio's version 3 line.  docs/output.md lists every key.
 *
 * Rates use the simulated nanosecond runtime (fio divides by whole ms);
 * "runtime" fields are whole ms as in fio.  Floating point is printed with
 * a fixed precision and the C decimal point whatever the locale.
 */
#include "report/report.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- numbers ---- */

/* printf("%*.*f") with a "." decimal point.  Returns buf. */
static const char *fmt_f(char *buf, size_t n, int width, int prec, double v)
{
	return ssd_json_format(buf, n, "%*.*f", width, prec, v);
}

static const char *fmt_g(char *buf, size_t n, double v)
{
	return ssd_json_format(buf, n, "%.*g", 10, v);
}

static int ndigits(uint64_t v)
{
	int n = 1;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

enum { N2S_NONE, N2S_BYTE, N2S_BYTEPERSEC };

/*
 * fio's num2str (lib/num2str.c) for base 1: at most `maxlen` digits (the
 * "." counts), dividing by 1000 or 1024 and adding k/M/G or Ki/Mi/Gi, with
 * fio's own rounding: "4801", "18.8MiB/s", "22.0MiB", "12.3k".
 */
static const char *num2str(char *buf, size_t n, uint64_t num, int maxlen,
			   int pow2, int units)
{
	static const char *const sistr[] = {"", "k", "M", "G", "T", "P", "E"};
	static const char *const iecstr[] = {"",   "Ki", "Mi", "Gi",
					     "Ti", "Pi", "Ei"};
	static const char *const unitstr[] = {"", "B", "B/s"};
	const char *const *prefix = pow2 ? iecstr : sistr;
	const unsigned thousand = pow2 ? 1024 : 1000;
	unsigned modulo = UINT_MAX;
	int post = 0, carry = 0;

	while (post < 7) {
		if (ndigits(num) <= maxlen)
			break;
		modulo = (unsigned)(num % thousand);
		num /= thousand;
		carry = modulo >= thousand / 2;
		post++;
	}
	if (post >= 7)
		post = 0;

	int len = ndigits(num);
	if (modulo != UINT_MAX && maxlen - len > 1) {
		char tmp[32];
		fmt_f(tmp, sizeof tmp, 0, maxlen - len - 1,
		      (double)modulo / (double)thousand);
		if (tmp[0] == '1')
			num++;
		snprintf(buf, n, "%" PRIu64 ".%s%s%s", num, tmp + 2,
			 prefix[post], unitstr[units]);
		return buf;
	}
	if (modulo != UINT_MAX && carry)
		num++;
	snprintf(buf, n, "%" PRIu64 "%s%s", num, prefix[post], unitstr[units]);
	return buf;
}

/* v * 10^9 / ns: a count per simulated second, 0 if ns <= 0. */
static uint64_t per_sec(uint64_t v, int64_t ns)
{
	if (ns <= 0)
		return 0;
	return (uint64_t)((unsigned __int128)v * SSD_S / (uint64_t)ns);
}

/* Whole ms, as fio reports runtimes; at least 1 for a nonzero time. */
static uint64_t ms_of(int64_t ns)
{
	if (ns <= 0)
		return 0;
	uint64_t ms = (uint64_t)ns / SSD_MS;
	return ms ? ms : 1;
}

static uint64_t u64_of(double v)
{
	return v > 0 ? (uint64_t)llround(v) : 0;
}

/* The errno a real device would have failed with, for fio's "err=". */
static int errno_of(int code)
{
	switch (code) {
	case 0: return 0;
	case SSD_EROFS: return EROFS;
	case SSD_ENOSPC: return ENOSPC;
	case SSD_EIO: return EIO;
	case SSD_ENOMEM: return ENOMEM;
	case SSD_ENOENT: return ENOENT;
	case SSD_EUNSUP: return EOPNOTSUPP;
	case SSD_EILSEQ: return EILSEQ; /* fio's verify failure: err=84 */
	case SSD_ETIMEDOUT: return ETIMEDOUT; /* fio's latency limits */
	default: return EINVAL;
	}
}

/* ---- percentiles and errors (clat/lat/slat_percentiles,
 * percentile_list, continue_on_error) ---- */

/* The percentiles job j reports: its percentile_list (sorted), or fio's
 * default list; *prec: the digits after the point in the text. */
struct plist {
	const double *v;
	int n, prec;
	int clat, lat, slat; /* which latencies report them */
};

static struct plist plist_of(const struct ssd_job_result *j)
{
	struct plist p = {ssd_percentiles, ssd_npercentiles, 2, 1, 0, 0};
	const struct ssd_job *job = j->job;
	if (!job)
		return p;
	if (job->percentile_list_set) {
		p.v = job->percentile_list;
		p.n = (int)job->npercentiles;
		p.prec = (int)job->percentile_prec;
	}
	p.clat = !job->clat_percentiles_off;
	p.lat = job->lat_percentiles;
	p.slat = job->slat_percentiles;
	return p;
}

/* fio's "error": the error that ended the job, else the first one it
 * went on after (continue_on_error). */
static int job_errno(const struct ssd_job_result *j)
{
	return j->error ? errno_of(j->error) : j->first_error;
}

static int continues(const struct ssd_job_result *j)
{
	return j->job && j->job->continue_on_error;
}

static const char *const ddir_name[SSD_DDIR_N] = {"read", "write", "trim"};

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
			snprintf(k, sizeof k, "%s_cmds", ddir_name[d]);
			jw_u64(w, k, x->io.cmds[d]);
			snprintf(k, sizeof k, "%s_bytes", ddir_name[d]);
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

/* A figure of a node's row as text: bytes in binary units, times in
 * ms, ratios with three decimals, counts whole. */
static const char *row_text(const struct ssd_blk_stat *st, char *buf, size_t n)
{
	double v = st->value;
	if (v != v) {
		snprintf(buf, n, "-");
	} else if (!strcmp(st->unit, "bytes") && v >= 0 && v < 1.8e19) {
		ssd_fmt_bytes((uint64_t)v, buf, n);
	} else if (!strcmp(st->unit, "ns")) {
		snprintf(buf, n, "%.3fms", v / 1e6);
	} else if (!strcmp(st->unit, "ratio") || !strcmp(st->unit, "fraction") ||
		   v != floor(v)) {
		snprintf(buf, n, "%.3f", v);
	} else {
		snprintf(buf, n, "%.0f", v);
	}
	return buf;
}

static void text_machine(FILE *out, const struct ssd_run_result *r)
{
	if (!r->nnodes)
		return;
	char a[32], b[32], c[32];
	fprintf(out, "Machine (figures since the drive was created):\n");
	for (int i = 0; i < r->nnodes; i++) {
		const struct ssd_node_result *x = &r->nodes[i];
		fprintf(out, "  %*s%s (%s, %s): read %" PRIu64 " cmds %s, "
			"write %" PRIu64 " cmds %s, trim %" PRIu64 ", flush %"
			PRIu64 "\n", 2 * x->depth, "", x->name, x->kind,
			ssd_fmt_bytes(x->capacity, a, sizeof a), x->io.cmds[0],
			ssd_fmt_bytes(x->io.bytes[0], b, sizeof b), x->io.cmds[1],
			ssd_fmt_bytes(x->io.bytes[1], c, sizeof c), x->io.cmds[2],
			x->io.flushes);
		if (!x->nrows)
			continue;
		fprintf(out, "  %*s  ", 2 * x->depth, "");
		for (int k = 0; k < x->nrows; k++) {
			/* times print in ms: "mean_seek=0.997ms", not
			 * "mean_seek_ns=..." (JSON keeps the key and ns) */
			const char *key = x->rows[k].key;
			size_t kl = strlen(key);
			int ns = !strcmp(x->rows[k].unit, "ns") && kl > 3 &&
				 !strcmp(key + kl - 3, "_ns");
			fprintf(out, "%s%.*s=%s", k ? ", " : "",
				(int)(ns ? kl - 3 : kl), key,
				row_text(&x->rows[k], a, sizeof a));
		}
		putc('\n', out);
	}
}

/* ---- per-group aggregates (fio's group_run_stats) ---- */

struct group {
	int njobs;
	uint64_t iobytes[SSD_DDIR_N];
	int64_t min_run[SSD_DDIR_N], max_run[SSD_DDIR_N]; /* ns, 0 = none */
	uint64_t min_bw[SSD_DDIR_N], max_bw[SSD_DDIR_N];  /* bytes/s */
	uint64_t agg[SSD_DDIR_N]; /* bytes/s: iobytes over the longest run */
};

/* A direction's runtime: the job's, if it did I/O that way (fio). */
static int64_t dir_runtime(const struct ssd_job_result *j, int d)
{
	const struct ssd_dstat *s = &j->dir[d];
	return (s->bytes || s->ios) && j->runtime_ns > 0 ? j->runtime_ns : 0;
}

static int ngroups_of(const struct ssd_run_result *r)
{
	int n = 0;
	for (int i = 0; i < r->njobs; i++)
		if (r->jobs[i].groupid >= n)
			n = r->jobs[i].groupid + 1;
	return n;
}

static int group_of(const struct ssd_job_result *j)
{
	return j->groupid > 0 ? j->groupid : 0;
}

/* The groups of r, malloc'd (*ng of them), or NULL when out of memory. */
static struct group *groups_make(const struct ssd_run_result *r, int *ng)
{
	int n = ngroups_of(r);
	struct group *g = calloc((size_t)(n ? n : 1), sizeof *g);
	if (!g)
		return NULL;
	for (int i = 0; i < r->njobs; i++) {
		const struct ssd_job_result *j = &r->jobs[i];
		struct group *rs = &g[group_of(j)];
		rs->njobs++;
		for (int d = 0; d < SSD_DDIR_N; d++) {
			int64_t rt = dir_runtime(j, d);
			if (!rt)
				continue;
			if (!rs->min_run[d] || rt < rs->min_run[d])
				rs->min_run[d] = rt;
			if (rt > rs->max_run[d])
				rs->max_run[d] = rt;
			uint64_t bw = per_sec(j->dir[d].bytes, rt);
			if (!rs->min_bw[d] || bw < rs->min_bw[d])
				rs->min_bw[d] = bw;
			if (bw > rs->max_bw[d])
				rs->max_bw[d] = bw;
			rs->iobytes[d] += j->dir[d].bytes;
		}
	}
	for (int k = 0; k < n; k++)
		for (int d = 0; d < SSD_DDIR_N; d++)
			g[k].agg[d] = per_sec(g[k].iobytes[d], g[k].max_run[d]);
	*ng = n;
	return g;
}

/* fio's convert_agg_kbytes_percent: a job's mean bw (KiB/s) as a share
 * of its group's aggregate. */
static double agg_percent(uint64_t agg, double mean_kib)
{
	double p = 100.0;
	if (agg > 1024) {
		p = mean_kib * 100.0 / ((double)agg / 1024.0);
		if (p > 100.0)
			p = 100.0;
	}
	return p;
}

/* fio's io_u_lat_{n,u,m} percentages over all directions of a job. */
static void lat_dist_pct(const struct ssd_job_result *j, double *pct)
{
	uint64_t total = 0, cnt[SSD_LATDIST_N] = {0};
	for (int d = 0; d < SSD_DDIR_N; d++) {
		total += j->dir[d].ios;
		for (int i = 0; i < SSD_LATDIST_N; i++)
			cnt[i] += j->dir[d].lat_dist[i];
	}
	for (int i = 0; i < SSD_LATDIST_N; i++) {
		pct[i] = 0.0;
		if (!total)
			continue;
		pct[i] = (double)cnt[i] / (double)total * 100.0;
		if (pct[i] < 0.01 && cnt[i])
			pct[i] = 0.01;
	}
}

static const char *const latdist_key[SSD_LATDIST_N] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
	"2000", ">=2000"
};

static double waf_of(const struct ssd_counters *c)
{
	return ssd_counters_waf(c);
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
	return r < 0 ? 0 : (size_t)r < n ? (size_t)r : n - 1;
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
		len += (size_t)r < n - len ? (size_t)r : n - len - 1;
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
	return r < 0 ? 0 : (size_t)r < n ? (size_t)r : n - 1;
}

static int same_perc(const struct ssd_job *j, int a, int b)
{
	return j->perc_random[a] == j->perc_random[b];
}

static size_t put_perc(char *buf, size_t n, const struct ssd_job *j, int d)
{
	int r = snprintf(buf, n, "%" PRIu32, j->perc_random[d]);
	return r < 0 ? 0 : (size_t)r < n ? (size_t)r : n - 1;
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
		len += (size_t)r < n - len ? (size_t)r : n - len - 1;
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

/* "job options" / "global options": the options as written (fio keeps
 * the strings of the job file).  A job built in code, not read from a
 * file, shows its resolved options instead. */
static void json_job_options(struct jw *w, const struct ssd_job *job)
{
	if (job->line <= 0 && !job->raw_len) {
		json_job_resolved(w, job);
		return;
	}
	const char *k, *v;
	uint32_t pos = 0;
	jw_obj(w, "job options");
	while (ssd_job_raw_next(job, 0, &pos, &k, &v))
		jw_str(w, k, v);
	jw_end(w);
}

/* fio's "global options": the [global] pairs, as the last job saw them
 * (later [global] sections add to them); absent without any. */
static void json_global_options(struct jw *w, const struct ssd_run_result *r)
{
	const struct ssd_job *job = NULL;
	for (int i = 0; i < r->njobs; i++)
		if (r->jobs[i].job)
			job = r->jobs[i].job;
	if (!job || !job->raw_global)
		return;
	const char *k, *v;
	uint32_t pos = 0;
	jw_obj(w, "global options");
	while (ssd_job_raw_next(job, 1, &pos, &k, &v))
		jw_str(w, k, v);
	jw_end(w);
}

/* fio's stat_calc_dist: a share of the job's data I/Os (reads, writes
 * and trims; flushes count in the buckets but not in the total, so fio
 * can show more than 100%), at least 0.1 when non-zero. */
static void depth_pct(const struct ssd_job_result *j, double *pct)
{
	uint64_t total = 0;
	for (int d = 0; d < SSD_DDIR_N; d++)
		total += j->dir[d].ios;
	for (int i = 0; i < SSD_DEPTH_N; i++) {
		pct[i] = 0.0;
		if (!total)
			continue;
		pct[i] = (double)j->depth[i] / (double)total * 100.0;
		if (pct[i] < 0.1 && j->depth[i])
			pct[i] = 0.1;
	}
}

/* fio's submit/complete batch distributions: ssdlab submits and reaps
 * one command a call, so all of them fall in the "4" bucket (1..4). */
static void batch_pct(const struct ssd_job_result *j, double *pct)
{
	uint64_t n = j->sync.ios;
	for (int d = 0; d < SSD_DDIR_N; d++)
		n += j->dir[d].ios;
	for (int i = 0; i < SSD_DEPTH_N; i++)
		pct[i] = i == 1 && n ? 100.0 : 0.0;
}

static const char *const depth_key[SSD_DEPTH_N] = {
	"1", "2", "4", "8", "16", "32", ">=64"};
static const char *const batch_key[SSD_DEPTH_N] = {
	"0", "4", "8", "16", "32", "64", ">=64"};

/* fio's "sync": flush commands (fsync=N) and their latency. */
static void json_sync(struct jw *w, const struct ssd_job_result *j)
{
	const struct ssd_dstat *s = &j->sync;
	jw_obj(w, "sync");
	jw_u64(w, "total_ios", s->ios);
	struct plist pl = plist_of(j);
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
	depth_pct(j, pct);
	jw_obj(w, "iodepth_level");
	for (int i = 0; i < SSD_DEPTH_N; i++)
		jw_dbl(w, depth_key[i], pct[i]);
	jw_end(w);
	batch_pct(j, pct);
	jw_obj(w, "iodepth_submit");
	for (int i = 0; i < SSD_DEPTH_N; i++)
		jw_dbl(w, batch_key[i], pct[i]);
	jw_end(w);
	jw_obj(w, "iodepth_complete");
	for (int i = 0; i < SSD_DEPTH_N; i++)
		jw_dbl(w, batch_key[i], pct[i]);
	jw_end(w);
}

/* The queue depth of fio's latency_target keys: the one the search
 * reached, the job's iodepth without a target. */
static uint64_t latency_depth(const struct ssd_job_result *j)
{
	if (j->latency_depth)
		return j->latency_depth;
	return j->job ? j->job->iodepth : 1;
}

/* fio's latency_target keys (fio 3.33): the target in ns, the window in
 * us. */
static void json_latency_target(struct jw *w, const struct ssd_job_result *j)
{
	const struct ssd_job *job = j->job;
	jw_u64(w, "latency_depth", latency_depth(j));
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
	jw_u64(w, "min", m && m->n ? u64_of(m->min) : 0);
	jw_u64(w, "max", m && m->n ? u64_of(m->max) : 0);
	jw_dbl(w, "mean", m ? ssd_moments_mean(m) : 0.0);
	jw_dbl(w, "stddev", m ? ssd_moments_stddev(m) : 0.0);
	jw_u64(w, "N", n);
	if (pl && n && (!h || h->n)) {
		char key_buf[64];
		jw_obj(w, "percentile");
		for (int i = 0; i < pl->n; i++)
			jw_u64(w, fmt_f(key_buf, sizeof key_buf, 0, 6, pl->v[i]),
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
	int64_t rt = dir_runtime(j, d);
	uint64_t bw_bytes = per_sec(s->bytes, rt);

	jw_obj(w, ddir_name[d]);
	jw_u64(w, "io_bytes", s->bytes);
	jw_u64(w, "io_kbytes", s->bytes >> 10);
	jw_u64(w, "bw_bytes", bw_bytes);
	jw_u64(w, "bw", bw_bytes / 1024);
	jw_dbl(w, "iops", rt > 0 ? (double)s->ios * 1e9 / (double)rt : 0.0);
	jw_u64(w, "runtime", ms_of(rt));
	jw_u64(w, "total_ios", s->ios);
	jw_u64(w, "short_ios", 0);
	jw_u64(w, "drop_ios", 0);
	/* submission is instant in the simulator: slat is 0 for every I/O
	 * and lat (submission to completion) equals clat */
	struct plist pl = plist_of(j);
	json_lat(w, "slat_ns", NULL, s->ios, NULL, pl.slat ? &pl : NULL);
	json_lat(w, "clat_ns", &s->lat, s->lat.n, &s->hist,
		 pl.clat ? &pl : NULL);
	json_lat(w, "lat_ns", &s->lat, s->lat.n, &s->hist,
		 pl.lat ? &pl : NULL);

	int have_bw = s->bw.n > 0;
	double bw_mean = ssd_moments_mean(&s->bw);
	jw_u64(w, "bw_min", have_bw ? u64_of(s->bw.min) : 0);
	jw_u64(w, "bw_max", have_bw ? u64_of(s->bw.max) : 0);
	jw_dbl(w, "bw_agg", have_bw ? agg_percent(rs->agg[d], bw_mean) : 0.0);
	jw_dbl(w, "bw_mean", bw_mean);
	jw_dbl(w, "bw_dev", ssd_moments_stddev(&s->bw));
	jw_u64(w, "bw_samples", s->bw.n);
	int have_iops = s->iops.n > 0;
	jw_u64(w, "iops_min", have_iops ? u64_of(s->iops.min) : 0);
	jw_u64(w, "iops_max", have_iops ? u64_of(s->iops.max) : 0);
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

/* The options the job took without effect, and the page-cache note:
 * one text line each, and "options_without_effect" (plus
 * "host_page_cache" for direct=0) in the job's ssdlab object. */
#define NOEFFECT_MAX 512
static const char page_cache_note[] =
	"buffered I/O (direct=0): the machine has no host page cache "
	"(page_cache = 0), every I/O reaches the drive as with direct=1";

/* The options job took without effect on the machine c: direct and
 * buffered do have one when it has a page cache.  Their count. */
static int noeffect(const struct ssd_job *job, const struct ssd_config *c,
		    const char **names)
{
	int n = job ? ssd_job_noeffect(job, names, NOEFFECT_MAX) : 0;
	if (n > NOEFFECT_MAX)
		n = NOEFFECT_MAX;
	if (!c || !c->page_cache)
		return n;
	int k = 0;
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], "direct") && strcmp(names[i], "buffered"))
			names[k++] = names[i];
	return k;
}

/* 1 if job's buffered I/O reaches the drive directly for want of a page
 * cache. */
static int no_cache(const struct ssd_job *job, const struct ssd_config *c)
{
	return job && job->buffered && !(c && c->page_cache);
}

/* A size written in bytes that is not whole blocks (job.h's cut_key):
 * "size=1000000000 is not whole 4 KiB blocks: ..." into buf. */
static const char *cut_note(const struct ssd_job *job, char *buf, size_t n)
{
	char bs[32], v[48], sz[32];
	ssd_fmt_bytes(ssd_job_min_bs(job), bs, sizeof bs);
	if (job->cut_hi != job->cut_lo)
		snprintf(v, sizeof v, "%" PRIu64 "-%" PRIu64, job->cut_lo,
			 job->cut_hi);
	else
		snprintf(v, sizeof v, "%" PRIu64, job->cut_lo);
	if (!strcmp(job->cut_key, "size"))
		snprintf(buf, n, "size=%s is not whole %s blocks: the job's "
			 "I/O covers its first %" PRIu64 " bytes (%s), as "
			 "fio's does", v, bs, job->size,
			 ssd_fmt_bytes(job->size, sz, sizeof sz));
	else
		snprintf(buf, n, "%s=%s is not whole %s blocks: the I/O in "
			 "each file stops at its last whole block, as fio's "
			 "does", job->cut_key, v, bs);
	return buf;
}

static void text_noeffect(FILE *out, const struct ssd_job *job,
			  const struct ssd_config *c)
{
	char note[256];
	if (job && job->cut_key)
		fprintf(out, "  ssdlab: %s\n", cut_note(job, note, sizeof note));
	const char *names[NOEFFECT_MAX];
	int n = noeffect(job, c, names);
	if (n) {
		fputs("  ssdlab: options taken without effect: ", out);
		for (int i = 0; i < n; i++)
			fprintf(out, "%s%s", i ? ", " : "", names[i]);
		putc('\n', out);
	}
	if (no_cache(job, c))
		fprintf(out, "  ssdlab: %s\n", page_cache_note);
}

static void json_noeffect(struct jw *w, const struct ssd_job *job,
			  const struct ssd_config *c)
{
	const char *names[NOEFFECT_MAX];
	int n = noeffect(job, c, names);
	jw_key(w, "options_without_effect");
	ssd_json_array_flat(&w->j);
	for (int i = 0; i < n; i++)
		ssd_json_string(&w->j, names[i]);
	jw_end(w);
	if (no_cache(job, c))
		jw_str(w, "host_page_cache", page_cache_note);
	if (job && job->cut_key) {
		char note[256];
		jw_obj(w, "size_cut");
		jw_str(w, "option", job->cut_key);
		jw_u64(w, "bytes", job->cut_lo);
		if (job->cut_hi != job->cut_lo)
			jw_u64(w, "bytes_max", job->cut_hi);
		jw_u64(w, "block_size", ssd_job_min_bs(job));
		jw_u64(w, "region_bytes", job->size);
		jw_str(w, "note", cut_note(job, note, sizeof note));
		jw_end(w);
	}
}

/* Reads of pages never written (or trimmed) cost the drive no NAND read:
 * a random read of a fresh drive measures its controller, not its flash.
 * When they are more than UNMAPPED_NOTE_PCT % of the pages read, a note
 * says so (the text's line, "unmapped_reads_note" in the JSON); 1 then. */
#define UNMAPPED_NOTE_PCT 10
static int unmapped_note(const struct ssd_counters *c, char *buf, size_t n)
{
	uint64_t u = c->host_unmapped_read_lp, r = c->host_read_lp;
	if (!u || !r || (double)u * 100 <= (double)r * UNMAPPED_NOTE_PCT)
		return 0;
	char pct[32];
	fmt_f(pct, sizeof pct, 0, 1, 100.0 * (double)u / (double)r);
	snprintf(buf, n, "%s%% of the pages read (%" PRIu64 " of %" PRIu64
		 ") were never written or were trimmed: the drive answers them "
		 "from its map without reading NAND, so the figures above "
		 "measure its controller more than its flash (write the region "
		 "first to measure reads of data)", pct, u, r);
	return 1;
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
	if (unmapped_note(c, note, sizeof note))
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
	if (w->cfg && w->cfg->mapping != SSD_MAP_PAGE) { /* docs/mapping.md */
		jw_str(w, "mapping", ssd_mapping_name(w->cfg->mapping));
		jw_u64(w, "merges_switch", c->merge_switch);
		jw_u64(w, "merges_partial", c->merge_partial);
		jw_u64(w, "merges_full", c->merge_full);
	}
	jw_dbl(w, "waf", waf_of(c));
	json_erase_count(w, j);
	jw_u64(w, "free_blocks", j->free_blocks);
	jw_dbl(w, "frag_run_pages", j->frag_run);
	jw_u64(w, "lat_over_1s", j->lat_over_1s);
	if (j->job && j->job->verify == SSD_VERIFY_DATA) {
		jw_u64(w, "verified_pages", j->verify_pages);
		jw_u64(w, "verified_zero_pages", j->verify_zero_pages);
	}
	json_noeffect(w, j->job, w->cfg);
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
	jw_i64(w, "error", job_errno(j));
	jw_i64(w, "eta", 0);
	jw_u64(w, "elapsed", secs_up(j->end_ns));
	if (j->job)
		json_job_options(w, j->job);
	for (int d = 0; d < SSD_DDIR_N; d++)
		json_ddir(w, j, d, rs);
	json_sync(w, j);
	jw_u64(w, "job_runtime", ms_of(j->runtime_ns));
	json_host_and_depths(w, j);

	lat_dist_pct(j, pct);
	static const char *const unit_key[] = {"latency_ns", "latency_us",
					       "latency_ms"};
	for (int u = 0; u < 3; u++) {
		int lo = u * 10, hi = u < 2 ? lo + 10 : SSD_LATDIST_N;
		jw_obj(w, unit_key[u]);
		for (int i = lo; i < hi; i++)
			jw_dbl(w, latdist_key[i], pct[i]);
		jw_end(w);
	}
	if (continues(j)) {
		/* fio adds these with continue_on_error */
		jw_u64(w, "total_err", j->total_err);
		jw_i64(w, "first_error", j->first_error);
	}
	json_latency_target(w, j);
	if (j->ss.n)
		json_steadystate(w, &j->ss);
	json_ssdlab_job(w, j);
	jw_end(w);
}

static void report_json(const struct ssd_run_result *r, FILE *out, int plus,
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
		json_job(&w, &r->jobs[i], &g[group_of(&r->jobs[i])]);
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

int ssd_report_json(const struct ssd_run_result *r, FILE *out)
{
	int ng;
	struct group *g = groups_make(r, &ng);
	if (!g)
		return SSD_ENOMEM;
	report_json(r, out, 0, g);
	free(g);
	return 0;
}

int ssd_report_json_plus(const struct ssd_run_result *r, FILE *out)
{
	int ng;
	struct group *g = groups_make(r, &ng);
	if (!g)
		return SSD_ENOMEM;
	report_json(r, out, 1, g);
	free(g);
	return 0;
}

/* ---- text ---- */

/* fio's nsec_to_msec / nsec_to_usec unit choice for a latency line. */
static const char *lat_unit(uint64_t *min, uint64_t *max, double *mean,
			    double *dev)
{
	if (*min > 2000000 && *max > 99999999ULL && *dev > 1000000.0) {
		*min /= 1000000;
		*max /= 1000000;
		*mean /= 1000000.0;
		*dev /= 1000000.0;
		return "(msec)";
	}
	if (*min > 2000 && *max > 99999 && *dev > 1000.0) {
		*min /= 1000;
		*max /= 1000;
		*mean /= 1000.0;
		*dev /= 1000.0;
		return "(usec)";
	}
	return "(nsec)";
}

/* fio's display_lat: "    clat (usec): min=…, max=…, avg=…, stdev=…" */
static void text_lat(FILE *out, const char *name, const struct ssd_moments *m)
{
	uint64_t min = u64_of(m->min), max = u64_of(m->max);
	double mean = ssd_moments_mean(m), dev = ssd_moments_stddev(m);
	const char *base = lat_unit(&min, &max, &mean, &dev);
	char a[40], b[40], c[64], d[64];
	fprintf(out, "    %s %s: min=%s, max=%s, avg=%s, stdev=%s\n", name,
		base, num2str(a, sizeof a, min, 6, 0, N2S_NONE),
		num2str(b, sizeof b, max, 6, 0, N2S_NONE),
		fmt_f(c, sizeof c, 5, 2, mean), fmt_f(d, sizeof d, 5, 2, dev));
}

/* fio's show_clat_percentiles: the percentiles of pl (h NULL: every
 * sample is 0), with pl's precision. */
static void text_percentiles(FILE *out, const char *pre,
			     const struct ssd_hist *h, const struct plist *pl)
{
	const int PREC = pl->prec;
	uint64_t v[32];
	uint64_t minv = UINT64_MAX, maxv = 0, divisor;
	int n = pl->n < 32 ? pl->n : 32, scale;
	if (!n)
		return;

	for (int i = 0; i < n; i++) {
		v[i] = h ? ssd_hist_percentile(h, pl->v[i]) : 0;
		if (v[i] < minv)
			minv = v[i];
		if (v[i] > maxv)
			maxv = v[i];
	}
	const char *unit;
	if (minv > 2000000 && maxv > 99999999ULL) {
		scale = 2;
		divisor = 1000000;
		unit = "msec";
	} else if (minv > 2000 && maxv > 99999) {
		scale = 1;
		divisor = 1000;
		unit = "usec";
	} else {
		scale = 0;
		divisor = 1;
		unit = "nsec";
	}
	fprintf(out, "    %s percentiles (%s):\n     |", pre, unit);

	uint64_t q = maxv / divisor;
	int width = q ? ndigits(q) : 0; /* fio: log10(q) + 1 */
	if (width < 5)
		width = 5;
	int per_line = (80 - 7) / (PREC + 10 + width);
	for (int j = 0; j < n; j++) {
		if (j && j % per_line == 0)
			fputs("     |", out);
		int last = j == n - 1;
		uint64_t x = v[j];
		for (int s = 0; s < scale; s++)
			x = (x + 999) / 1000;
		char p[32];
		fprintf(out, " %sth=[%*" PRIu64 "]%c",
			fmt_f(p, sizeof p, PREC + 3, PREC, pl->v[j]),
			width, x, last ? '\n' : ',');
		if (last)
			break;
		if (j % per_line == per_line - 1)
			putc('\n', out);
	}
}

/* fio's show_ddir_status. */
static void text_ddir(FILE *out, const struct ssd_job_result *j, int d,
		      const struct group *rs)
{
	const struct ssd_dstat *s = &j->dir[d];
	int64_t rt = dir_runtime(j, d);
	if (!rt)
		return;
	uint64_t bw = per_sec(s->bytes, rt), iops = per_sec(s->ios, rt);
	char a[40], b[40], c[40], e[40];
	fprintf(out, "  %s: IOPS=%s, BW=%s (%s)(%s/%" PRIu64 "msec)\n",
		ddir_name[d], num2str(a, sizeof a, iops, 4, 0, N2S_NONE),
		num2str(b, sizeof b, bw, 4, 1, N2S_BYTEPERSEC),
		num2str(c, sizeof c, bw, 4, 0, N2S_BYTEPERSEC),
		num2str(e, sizeof e, s->bytes, 4, 1, N2S_BYTE), ms_of(rt));

	if (s->lat.n) {
		struct plist pl = plist_of(j);
		text_lat(out, "clat", &s->lat);
		text_lat(out, " lat", &s->lat);
		if (pl.slat)
			text_percentiles(out, "slat", NULL, &pl);
		if (pl.clat)
			text_percentiles(out, "clat", &s->hist, &pl);
		if (pl.lat)
			text_percentiles(out, "lat", &s->hist, &pl);
	}
	if (s->bw.n) {
		uint64_t min = u64_of(s->bw.min), max = u64_of(s->bw.max);
		double mean = ssd_moments_mean(&s->bw);
		double dev = ssd_moments_stddev(&s->bw);
		double per = agg_percent(rs->agg[d], mean);
		const char *unit = "KiB";
		if (mean > 1024.0 * 1024.0) {
			min /= 1024;
			max /= 1024;
			mean /= 1024.0;
			dev /= 1024.0;
			unit = "MiB";
		}
		char p[40], m[64], v[64];
		fprintf(out,
			"   bw (%5s/s): min=%5" PRIu64 ", max=%5" PRIu64
			", per=%s%%, avg=%s, stdev=%s, samples=%" PRIu64 "\n",
			unit, min, max, fmt_f(p, sizeof p, 3, 2, per),
			fmt_f(m, sizeof m, 5, 2, mean),
			fmt_f(v, sizeof v, 5, 2, dev), s->bw.n);
	}
	if (s->iops.n) {
		char m[64], v[64];
		fprintf(out,
			"   iops        : min=%5" PRIu64 ", max=%5" PRIu64
			", avg=%s, stdev=%s, samples=%" PRIu64 "\n",
			u64_of(s->iops.min), u64_of(s->iops.max),
			fmt_f(m, sizeof m, 5, 2, ssd_moments_mean(&s->iops)),
			fmt_f(v, sizeof v, 5, 2, ssd_moments_stddev(&s->iops)),
			s->iops.n);
	}
}

/* fio's show_lat: "  lat (usec)   : 250=1.23%, 500=98.77%", 5 a line. */
static void text_latdist(FILE *out, const double *pct, int lo, int hi,
			 const char *unit)
{
	int new_line = 1, line = 0, shown = 0;
	for (int i = lo; i < hi; i++) {
		if (pct[i] <= 0.0)
			continue;
		shown = 1;
		if (new_line) {
			if (line)
				putc('\n', out);
			fprintf(out, "  lat (%s)   : ", unit);
			new_line = 0;
			line = 0;
		}
		if (line)
			fputs(", ", out);
		char p[64];
		fprintf(out, "%s=%s%%", latdist_key[i],
			fmt_f(p, sizeof p, 3, 2, pct[i]));
		if (++line == 5)
			new_line = 1;
	}
	if (shown)
		putc('\n', out);
}

/* A SMART-like line: the drive at the job's end. */
static void text_health(FILE *out, const struct ssd_health *h)
{
	char u[64], m[64], s[64], hw[40], nw[40];
	fprintf(out,
		"  health: used=%s%%, max wear=%s%%, spare=%s%%, bad blocks=%"
		PRIu64 ", read-only=%s, host written=%s, nand written=%s\n",
		fmt_f(u, sizeof u, 0, 1, h->percentage_used),
		fmt_f(m, sizeof m, 0, 1, h->max_wear_pct),
		fmt_f(s, sizeof s, 0, 0, h->available_spare), h->bad_blocks,
		h->read_only ? "yes" : "no",
		num2str(hw, sizeof hw, h->host_bytes_written, 4, 1, N2S_BYTE),
		num2str(nw, sizeof nw, h->nand_bytes_written, 4, 1, N2S_BYTE));
}

static void text_ssdlab_job(FILE *out, const struct ssd_job_result *j,
			    const struct ssd_config *cfg)
{
	const struct ssd_counters *c = &j->ctr;
	if (cfg && cfg->type == SSD_TYPE_HDD && cfg->raid == SSD_RAID_NONE) {
		/* a hard disk: no flash to count (the Machine section has
		 * its seeks and buffer) */
		fprintf(out,
			"  ssdlab: host 4KiB pages: read=%" PRIu64 " written=%"
			PRIu64 " trimmed=%" PRIu64 ", completions over 1s=%"
			PRIu64 "\n", c->host_read_lp, c->host_write_lp,
			c->host_trim_lp, j->lat_over_1s);
		text_noeffect(out, j->job, cfg);
		return;
	}
	double waf = waf_of(c);
	char w[64], m[64];
	if (isfinite(waf))
		fmt_f(w, sizeof w, 0, 3, waf);
	else
		snprintf(w, sizeof w, "n/a");
	fprintf(out,
		"  ssdlab: waf=%s, nand: read=%" PRIu64 " prog=%" PRIu64
		" erase=%" PRIu64 ", gc: copied=%" PRIu64 " victims=%" PRIu64
		", erase count min/mean/max=%" PRIu32 "/%s/%" PRIu32
		", free blocks=%" PRIu64 "\n",
		w, c->nand_read, c->nand_prog, c->nand_erase, c->gc_copy_lp,
		c->gc_victims, j->erase_min,
		fmt_f(m, sizeof m, 0, 2, j->erase_mean), j->erase_max,
		j->free_blocks);
	fprintf(out,
		"  ssdlab: host 4KiB pages: read=%" PRIu64 " written=%" PRIu64
		" trimmed=%" PRIu64 ", read unmapped=%" PRIu64
		", gc bg copied=%" PRIu64 ", completions over 1s=%" PRIu64 "\n",
		c->host_read_lp, c->host_write_lp, c->host_trim_lp,
		c->host_unmapped_read_lp, c->gc_bg_copy_lp, j->lat_over_1s);
	char note[400];
	if (unmapped_note(c, note, sizeof note))
		fprintf(out, "  ssdlab: %s\n", note);
	if (j->job && j->job->verify == SSD_VERIFY_DATA)
		fprintf(out, "  ssdlab: verify (%s): 4KiB pages checked=%" PRIu64
			", of them zeros as trimmed=%" PRIu64 "\n",
			j->job->verify_name, j->verify_pages + j->verify_zero_pages,
			j->verify_zero_pages);
	if (c->power_cuts) /* a served drive's (docs/power-loss.md) */
		fprintf(out, "  ssdlab: power cuts=%" PRIu64 ", 4KiB pages lost=%" PRIu64 "\n",
			c->power_cuts, c->power_lost_lp);
	if (cfg && cfg->mapping != SSD_MAP_PAGE) /* docs/mapping.md */
		fprintf(out, "  ssdlab: mapping=%s, merges: switch=%" PRIu64
			" partial=%" PRIu64 " full=%" PRIu64 " (copies are gc copied)\n",
			ssd_mapping_name(cfg->mapping), c->merge_switch,
			c->merge_partial, c->merge_full);
	text_health(out, &j->health);
	text_noeffect(out, j->job, cfg);
}

/* fio's flush block ("fsync/fdatasync/sync_file_range:" with the sync
 * latency and its percentiles, when the job flushed) and its I/O depth
 * lines.  fio's "cpu" line is left out: it would describe the host. */
static void text_sync_and_depths(FILE *out, const struct ssd_job_result *j)
{
	const struct ssd_dstat *s = &j->sync;
	if (s->lat.n) {
		fputs("  fsync/fdatasync/sync_file_range:\n", out);
		struct plist pl = plist_of(j);
		text_lat(out, "sync", &s->lat);
		text_percentiles(out, "sync", &s->hist, &pl);
	}
	double pct[SSD_DEPTH_N];
	char b[40];
	depth_pct(j, pct);
	fputs("  IO depths    :", out);
	for (int i = 0; i < SSD_DEPTH_N; i++)
		fprintf(out, "%s %s=%s%%", i ? "," : "", depth_key[i],
			fmt_f(b, sizeof b, 3, 1, pct[i]));
	batch_pct(j, pct);
	static const char *const what[] = {"     submit    :",
					   "     complete  :"};
	for (int k = 0; k < 2; k++) {
		fprintf(out, "\n%s", what[k]);
		for (int i = 0; i < SSD_DEPTH_N; i++)
			fprintf(out, "%s %s=%s%%", i ? "," : "", batch_key[i],
				fmt_f(b, sizeof b, 3, 1, pct[i]));
	}
	fprintf(out,
		"\n     issued rwts: total=%" PRIu64 ",%" PRIu64 ",%" PRIu64
		",%" PRIu64 " short=0,0,0,0 dropped=0,0,0,0\n",
		j->dir[0].ios, j->dir[1].ios, j->dir[2].ios, s->ios);
	if (continues(j))
		fprintf(out, "     errors    : total=%" PRIu64
			", first_error=%d/<%s>\n", j->total_err, j->first_error,
			strerror(j->first_error));
	/* fio 3.33's line: the target in ns, the window in us */
	const struct ssd_job *job = j->job;
	fprintf(out,
		"     latency   : target=%" PRIu64 ", window=%" PRIu64
		", percentile=%s%%, depth=%" PRIu64 "\n",
		job ? (uint64_t)job->latency_target : 0,
		job ? (uint64_t)(job->latency_window / SSD_US) : 0,
		fmt_f(b, sizeof b, 0, 2, job ? job->latency_percentile : 100.0),
		latency_depth(j));
}

/* fio's show_ss_normal: "  steadystate  : attained=yes, bw=..., iops=...,
 * iops mean dev=1.431%". */
static void text_steadystate(FILE *out, const struct ssd_ss *ss)
{
	char a[40], b[40], c[40], d[64];
	uint64_t bw = ssd_ss_mean(ss, ss->bw);
	fprintf(out, "  steadystate  : attained=%s, bw=%s (%s), iops=%s, "
		"%s%s=%s%s\n", ss->state & SSD_SS_ATTAINED ? "yes" : "no",
		num2str(a, sizeof a, bw, 4, 1, N2S_BYTEPERSEC),
		num2str(b, sizeof b, bw, 4, 0, N2S_BYTEPERSEC),
		num2str(c, sizeof c, ssd_ss_mean(ss, ss->iops), 4, 0, N2S_NONE),
		ss->state & SSD_SS_IOPS ? "iops"
			: ss->state & SSD_SS_LAT ? "lat" : "bw",
		ss->state & SSD_SS_SLOPE ? " slope" : " mean dev",
		fmt_f(d, sizeof d, 0, 3, ss->criterion),
		ss->state & SSD_SS_PCT ? "%" : "");
}

static void text_job(FILE *out, const struct ssd_job_result *j,
		     const struct group *rs, const struct ssd_config *c)
{
	fprintf(out, "%s: (groupid=%d, jobs=%" PRIu32 "): err=%2d", j->name,
		j->groupid, j->clones ? j->clones : 1, job_errno(j));
	if (j->error)
		fprintf(out, " (%s)", ssd_strerror(j->error));
	putc('\n', out);
	if (j->error && j->errmsg[0])
		fprintf(out, "  ssdlab: error: %s\n", j->errmsg);
	for (int d = 0; d < SSD_DDIR_N; d++)
		if (j->dir[d].bytes || j->dir[d].ios)
			text_ddir(out, j, d, rs);

	double pct[SSD_LATDIST_N];
	lat_dist_pct(j, pct);
	text_latdist(out, pct, 0, 10, "nsec");
	text_latdist(out, pct, 10, 20, "usec");
	text_latdist(out, pct, 20, SSD_LATDIST_N, "msec");
	if (j->ss.n)
		text_steadystate(out, &j->ss);
	text_sync_and_depths(out, j);
	text_ssdlab_job(out, j, c);
}

/* fio's show_group_stats. */
static void text_group(FILE *out, int id, const struct group *rs)
{
	static const char *const str[SSD_DDIR_N] = {"   READ", "  WRITE",
						    "   TRIM"};
	fprintf(out, "\nRun status group %d (all jobs):\n", id);
	for (int d = 0; d < SSD_DDIR_N; d++) {
		if (!rs->max_run[d])
			continue;
		char io[40], ioalt[40], agg[40], aggalt[40];
		char mn[40], mnalt[40], mx[40], mxalt[40];
		fprintf(out,
			"%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), "
			"run=%" PRIu64 "-%" PRIu64 "msec\n",
			str[d],
			num2str(agg, sizeof agg, rs->agg[d], 4, 1,
				N2S_BYTEPERSEC),
			num2str(aggalt, sizeof aggalt, rs->agg[d], 4, 0,
				N2S_BYTEPERSEC),
			num2str(mn, sizeof mn, rs->min_bw[d], 4, 1,
				N2S_BYTEPERSEC),
			num2str(mx, sizeof mx, rs->max_bw[d], 4, 1,
				N2S_BYTEPERSEC),
			num2str(mnalt, sizeof mnalt, rs->min_bw[d], 4, 0,
				N2S_BYTEPERSEC),
			num2str(mxalt, sizeof mxalt, rs->max_bw[d], 4, 0,
				N2S_BYTEPERSEC),
			num2str(io, sizeof io, rs->iobytes[d], 4, 1, N2S_BYTE),
			num2str(ioalt, sizeof ioalt, rs->iobytes[d], 4, 0,
				N2S_BYTE),
			ms_of(rs->min_run[d]), ms_of(rs->max_run[d]));
	}
}

/* fio's job description line: "name: (g=0): rw=randwrite, bs=(R) ..." */
static void text_job_line(FILE *out, const struct ssd_job_result *j)
{
	const struct ssd_job *job = j->job;
	char r[SSD_DDIR_N][2][40];
	for (int d = 0; d < SSD_DDIR_N; d++) {
		num2str(r[d][0], sizeof r[d][0], job->min_bs[d], 4, 1, N2S_BYTE);
		num2str(r[d][1], sizeof r[d][1], job->max_bs[d], 4, 1, N2S_BYTE);
	}
	if (job->read_iolog[0]) { /* the trace's directions and sizes */
		fprintf(out, "%s: (g=%d): read_iolog=%s, ioengine=ssdlab, iodepth=%"
			PRIu32 "\n", j->name, j->groupid, job->read_iolog, job->iodepth);
		return;
	}
	const char *rw = ssd_rw_name(job->rw);
	fprintf(out,
		"%s: (g=%d): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, "
		"ioengine=ssdlab, iodepth=%" PRIu32 "\n",
		j->name, j->groupid, rw ? rw : "unknown", r[0][0], r[0][1],
		r[1][0], r[1][1], r[2][0], r[2][1], job->iodepth);
}

static void text_drive(FILE *out, const struct ssd_run_result *r)
{
	const struct ssd_config *c = r->cfg;
	char a[64], b[64], s[64];
	putc('\n', out);
	if (c && c->type == SSD_TYPE_HDD) {
		char desc[sizeof c->description], c2[32];
		ssd_config_description(c, desc, sizeof desc);
		fprintf(out, "Drive %s%s%s:\n", c->name, desc[0] ? " -- " : "",
			desc);
		fprintf(out,
			"  hard disk: capacity=%s (%" PRIu64 " bytes), %" PRIu32
			" rpm, seek %s/%s/%s ms (track/avg/full), media %" PRIu32
			"..%" PRIu32 " MB/s in %" PRIu32 " zone%s, buffer %s%s\n",
			ssd_fmt_bytes(c->capacity, a, sizeof a), c->capacity,
			c->hdd_rpm, fmt_f(s, sizeof s, 0, 2, c->hdd_seek_track / 1e6),
			fmt_f(b, sizeof b, 0, 2, c->hdd_seek_avg / 1e6),
			fmt_f(c2, sizeof c2, 0, 2, c->hdd_seek_full / 1e6),
			c->hdd_mbps_inner, c->hdd_mbps_outer, c->hdd_zones,
			ssd_plural(c->hdd_zones),
			ssd_fmt_bytes(c->hdd_cache, desc, sizeof desc),
			c->hdd_write_cache ? " (write cache on)" : "");
	} else if (c) {
		const char *cell = ssd_cell_name(c->cell);
		const char *gc = ssd_gc_policy_name(c->gc_policy);
		char desc[sizeof c->description];
		ssd_config_description(c, desc, sizeof desc);
		fprintf(out, "Drive %s%s%s:\n", c->name, desc[0] ? " -- " : "",
			desc);
		fprintf(out,
			"  capacity=%s (%" PRIu64 " bytes), op=%s%%, cell=%s, "
			"page=%s, block=%" PRIu32 " pages\n",
			ssd_fmt_bytes(c->capacity, a, sizeof a), c->capacity,
			fmt_f(s, sizeof s, 0, 2, c->op * 100.0),
			cell ? cell : "unknown",
			ssd_fmt_bytes(c->page_size, b, sizeof b),
			c->pages_per_block);
		fprintf(out,
			"  channels=%" PRIu32 ", dies/channel=%" PRIu32
			", planes/die=%" PRIu32 ", blocks/plane=%" PRIu32
			", gc=%s\n",
			c->channels, c->dies_per_channel, c->planes_per_die,
			c->blocks_per_plane, gc ? gc : "unknown");
	}
	int64_t ns = r->sim_ns > 0 ? r->sim_ns : 0;
	fprintf(out,
		"Run: seed=%" PRIu64 ", simulated time=%" PRId64 ".%09" PRId64
		" s, host I/Os=%" PRIu64 "%s%s\n",
		r->seed, (int64_t)(ns / SSD_S), (int64_t)(ns % SSD_S),
		r->host_ios,
		r->jobfile ? ", jobs=" : "", r->jobfile ? r->jobfile : "");
	fprintf(out, "Wall: %s s, %s simulated host I/Os per wall second\n",
		fmt_f(a, sizeof a, 0, 3, r->wall_s),
		fmt_f(b, sizeof b, 0, 0,
		      r->wall_s > 0 ? (double)r->host_ios / r->wall_s : 0.0));
}

/* The lines fio prints when it starts: one per job, and the version. */
static void text_header(const struct ssd_run_result *r, FILE *out)
{
	for (int i = 0; i < r->njobs; i++)
		if (r->jobs[i].job)
			text_job_line(out, &r->jobs[i]);
	fprintf(out, "ssdlab-%s\n\n", SSDLAB_VERSION);
}

static void text_body(const struct ssd_run_result *r, FILE *out,
		      const struct group *g, int ng)
{
	for (int i = 0; i < r->njobs; i++)
		text_job(out, &r->jobs[i], &g[group_of(&r->jobs[i])], r->cfg);
	for (int k = 0; k < ng; k++)
		if (g[k].njobs)
			text_group(out, k, &g[k]);
	text_drive(out, r);
	text_machine(out, r);
}

int ssd_report_normal(const struct ssd_run_result *r, FILE *out)
{
	int ng;
	struct group *g = groups_make(r, &ng);
	if (!g)
		return SSD_ENOMEM;
	text_header(r, out);
	text_body(r, out, g, ng);
	free(g);
	return 0;
}

/* ---- terse (fio's --minimal, version 3) ---- */

/* fio's show_ddir_status_terse: a direction's 4 + 4 + 4 + 20 + 4 + 5
 * fields, latencies in usec. */
static void terse_lat(FILE *out, const struct ssd_moments *m)
{
	char a[64], b[64];
	if (!m || !m->n) {
		fputs(";0;0;0.000000;0.000000", out);
		return;
	}
	fprintf(out, ";%" PRIu64 ";%" PRIu64 ";%s;%s", u64_of(m->min) / 1000,
		u64_of(m->max) / 1000,
		fmt_f(a, sizeof a, 0, 6, ssd_moments_mean(m) / 1000.0),
		fmt_f(b, sizeof b, 0, 6, ssd_moments_stddev(m) / 1000.0));
}

static void terse_ddir(FILE *out, const struct ssd_job_result *j, int d,
		       const struct group *rs)
{
	const struct ssd_dstat *s = &j->dir[d];
	int64_t rt = dir_runtime(j, d);
	char a[64], b[64], c[64];
	fprintf(out, ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64,
		s->bytes >> 10, per_sec(s->bytes, rt) / 1024,
		per_sec(s->ios, rt), rt ? ms_of(rt) : 0);
	terse_lat(out, NULL); /* slat: submission takes no time */
	terse_lat(out, &s->lat);
	/* fio: the lat percentiles with lat_percentiles, else clat's (the
	 * same values here), else none */
	struct plist pl = plist_of(j);
	int n = pl.clat || pl.lat ? pl.n : 0;
	for (int i = 0; i < 20; i++) {
		if (i >= n) {
			fputs(";0%=0", out);
			continue;
		}
		fprintf(out, ";%s%%=%" PRIu64,
			fmt_f(a, sizeof a, 0, 6, pl.v[i]),
			ssd_hist_percentile(&s->hist, pl.v[i]) / 1000);
	}
	terse_lat(out, &s->lat); /* lat = clat */
	if (!s->bw.n) {
		fputs(";0;0;0.000000%;0.000000;0.000000", out);
		return;
	}
	double mean = ssd_moments_mean(&s->bw);
	fprintf(out, ";%" PRIu64 ";%" PRIu64 ";%s%%;%s;%s",
		u64_of(s->bw.min), u64_of(s->bw.max),
		fmt_f(a, sizeof a, 0, 6, agg_percent(rs->agg[d], mean)),
		fmt_f(b, sizeof b, 0, 6, mean),
		fmt_f(c, sizeof c, 0, 6, ssd_moments_stddev(&s->bw)));
}

static void terse_job(FILE *out, const struct ssd_run_result *r,
		      const struct ssd_job_result *j, const struct group *rs)
{
	char b[64];
	fprintf(out, "3;ssdlab-%s;%s;%d;%d", SSDLAB_VERSION, j->name,
		j->groupid, job_errno(j));
	terse_ddir(out, j, SSD_DDIR_READ, rs);
	terse_ddir(out, j, SSD_DDIR_WRITE, rs);
	fputs(";0.000000%;0.000000%;0;0;0", out); /* host CPU */
	double dp[SSD_DEPTH_N], lp[SSD_LATDIST_N];
	depth_pct(j, dp);
	for (int i = 0; i < SSD_DEPTH_N; i++)
		fprintf(out, ";%s%%", fmt_f(b, sizeof b, 0, 1, dp[i]));
	lat_dist_pct(j, lp);
	for (int i = 10; i < SSD_LATDIST_N; i++)
		fprintf(out, ";%s%%", fmt_f(b, sizeof b, 0, 2, lp[i]));
	fprintf(out, ";%s;0;0;0;0;0;0;0;0.00%%",
		r->cfg && r->cfg->name[0] ? r->cfg->name : "ssdlab");
	if (continues(j)) /* fio adds these with continue_on_error */
		fprintf(out, ";%" PRIu64 ";%d", j->total_err, j->first_error);
	putc('\n', out);
}

static void report_terse(const struct ssd_run_result *r, FILE *out,
			 const struct group *g)
{
	for (int i = 0; i < r->njobs; i++)
		terse_job(out, r, &r->jobs[i], &g[group_of(&r->jobs[i])]);
}

int ssd_report_terse(const struct ssd_run_result *r, FILE *out)
{
	int ng;
	struct group *g = groups_make(r, &ng);
	if (!g)
		return SSD_ENOMEM;
	report_terse(r, out, g);
	free(g);
	return 0;
}

/* fio's order for several formats: the normal output's start-up lines,
 * then terse, JSON (json+ wins over json) and the normal report. */
int ssd_report(const struct ssd_run_result *r, unsigned formats, FILE *out)
{
	int ng;
	struct group *g = groups_make(r, &ng);
	if (!g)
		return SSD_ENOMEM;
	if (formats & SSD_OUT_NORMAL)
		text_header(r, out);
	if (formats & SSD_OUT_TERSE)
		report_terse(r, out, g);
	if (formats & SSD_OUT_JSON_PLUS)
		report_json(r, out, 1, g);
	else if (formats & SSD_OUT_JSON)
		report_json(r, out, 0, g);
	if (formats & SSD_OUT_NORMAL)
		text_body(r, out, g, ng);
	free(g);
	return 0;
}

int ssd_output_formats(const char *list, unsigned *formats)
{
	static const struct {
		const char *name;
		unsigned bit;
	} fmts[] = {{"normal", SSD_OUT_NORMAL}, {"json", SSD_OUT_JSON},
		    {"json+", SSD_OUT_JSON_PLUS}, {"terse", SSD_OUT_TERSE}};
	unsigned f = 0;
	const char *p = list;
	for (;;) {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		size_t k;
		for (k = 0; k < sizeof fmts / sizeof fmts[0]; k++)
			if (strlen(fmts[k].name) == n &&
			    !strncmp(fmts[k].name, p, n))
				break;
		if (k == sizeof fmts / sizeof fmts[0])
			return SSD_EPARSE;
		f |= fmts[k].bit;
		if (!e)
			break;
		p = e + 1;
	}
	*formats = f;
	return 0;
}
