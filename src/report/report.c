/*
 * report.c -- a finished run as people and programs read it: what every
 * format shares, and the entry points.
 *
 * Four shapes, all fio's so that existing habits and scripts carry over:
 * fio's normal text (report_text.c), its JSON and json+ (report_json.c)
 * and its terse line (report_terse.c); ssd_report() writes several in
 * fio's order.  The figures the formats have in common are computed
 * here once, so that they never disagree: rates, fio's whole-ms
 * runtimes and its errno for a failed job, the percentile list a job
 * reports, the groups' aggregates (fio's group_run_stats), the latency,
 * depth and batch distributions, and ssdlab's notes on a job (options
 * taken without effect, buffered I/O with no page cache, sizes that are
 * not whole blocks, reads of never-written pages).
 *
 * Rates use the simulated nanosecond runtime (fio divides by whole ms);
 * "runtime" fields are whole ms as in fio.  Floating point is printed with
 * a fixed precision and the C decimal point whatever the locale.
 */
#include "report/report_int.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- numbers ---- */

/* printf("%*.*f") with a "." decimal point.  Returns buf. */
const char *ssd_rep_fmt_f(char *buf, size_t n, int width, int prec, double v)
{
	return ssd_json_format(buf, n, "%*.*f", width, prec, v);
}

/* v * 10^9 / ns: a count per simulated second, 0 if ns <= 0. */
uint64_t ssd_rep_per_sec(uint64_t v, int64_t ns)
{
	if (ns <= 0)
		return 0;
	return (uint64_t)((unsigned __int128)v * SSD_S / (uint64_t)ns);
}

/* Whole ms, as fio reports runtimes; at least 1 for a nonzero time. */
uint64_t ssd_rep_ms_of(int64_t ns)
{
	if (ns <= 0)
		return 0;
	uint64_t ms = (uint64_t)ns / SSD_MS;
	return ms ? ms : 1;
}

uint64_t ssd_rep_u64_of(double v)
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
	/* a zoned drive's, as Linux's NVMe driver turns them into block
	 * statuses: the two resource errors have their own (open:
	 * ETOOMANYREFS, active: EOVERFLOW), Invalid Field is "not
	 * supported", LBA Out of Range a target error; the rest EIO */
	case SSD_ZNS_EMAXOPEN: return ETOOMANYREFS;
	case SSD_ZNS_EMAXACTIVE: return EOVERFLOW;
	case SSD_ZNS_EFIELD: return EOPNOTSUPP;
	case SSD_FDP_EPID: return EOPNOTSUPP;
	case SSD_ZNS_ERANGE: return EREMOTEIO;
	case SSD_ZNS_EZONEOP:
	case SSD_ZNS_ENOZRWA:
	case SSD_ZNS_EBOUNDARY:
	case SSD_ZNS_EFULL:
	case SSD_ZNS_EREADONLY:
	case SSD_ZNS_EOFFLINE:
	case SSD_ZNS_EWRITE:
	case SSD_ZNS_ETRANSITION: return EIO;
	default: return EINVAL;
	}
}

/* ---- percentiles and errors (clat/lat/slat_percentiles,
 * percentile_list, continue_on_error) ---- */

struct plist ssd_rep_plist_of(const struct ssd_job_result *j)
{
	struct plist p = {ssd_percentiles, ssd_npercentiles, 2, 1, 0, 0};
	/* fio takes them from the last job of a group reported together */
	const struct ssd_job *job = ssd_job_result_last(j);
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
int ssd_rep_job_errno(const struct ssd_job_result *j)
{
	return j->error ? errno_of(j->error) : j->first_error;
}

int ssd_rep_continues(const struct ssd_job_result *j)
{
	const struct ssd_job *job = ssd_job_result_last(j); /* fio's */
	return job && job->continue_on_error;
}

const char *const ssd_rep_ddir_name[SSD_DDIR_N] = {"read", "write", "trim"};

/* ---- per-group aggregates (fio's group_run_stats) ---- */

/* A direction's runtime, if the job did I/O that way (fio): the longest
 * of its instances that did. */
int64_t ssd_rep_dir_runtime(const struct ssd_job_result *j, int d)
{
	const struct ssd_dstat *s = &j->dir[d];
	int64_t rt = ssd_job_result_dir_runtime(j, d);
	return (s->bytes || s->ios) && rt > 0 ? rt : 0;
}

static int ngroups_of(const struct ssd_run_result *r)
{
	int n = 0;
	for (int i = 0; i < r->njobs; i++)
		if (r->jobs[i].groupid >= n)
			n = r->jobs[i].groupid + 1;
	return n;
}

int ssd_rep_group_of(const struct ssd_job_result *j)
{
	return j->groupid > 0 ? j->groupid : 0;
}

/* The groups of r, malloc'd (*ng of them), or NULL when out of memory. */
struct group *ssd_rep_groups_make(const struct ssd_run_result *r, int *ng)
{
	int n = ngroups_of(r);
	struct group *g = calloc((size_t)(n ? n : 1), sizeof *g);
	if (!g)
		return NULL;
	for (int i = 0; i < r->njobs; i++) {
		const struct ssd_job_result *j = &r->jobs[i];
		struct group *rs = &g[ssd_rep_group_of(j)];
		rs->njobs++;
		for (int d = 0; d < SSD_DDIR_N; d++) {
			int64_t rt = ssd_rep_dir_runtime(j, d);
			if (!rt)
				continue;
			if (!rs->min_run[d] || rt < rs->min_run[d])
				rs->min_run[d] = rt;
			if (rt > rs->max_run[d])
				rs->max_run[d] = rt;
			uint64_t bw = ssd_rep_per_sec(j->dir[d].bytes, rt);
			if (!rs->min_bw[d] || bw < rs->min_bw[d])
				rs->min_bw[d] = bw;
			if (bw > rs->max_bw[d])
				rs->max_bw[d] = bw;
			rs->iobytes[d] += j->dir[d].bytes;
		}
	}
	for (int k = 0; k < n; k++)
		for (int d = 0; d < SSD_DDIR_N; d++)
			g[k].agg[d] = ssd_rep_per_sec(g[k].iobytes[d], g[k].max_run[d]);
	*ng = n;
	return g;
}

/* fio's convert_agg_kbytes_percent: a job's mean bw (KiB/s) as a share
 * of its group's aggregate. */
double ssd_rep_agg_percent(uint64_t agg, double mean_kib)
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
void ssd_rep_lat_dist_pct(const struct ssd_job_result *j, double *pct)
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

const char *const ssd_rep_latdist_key[SSD_LATDIST_N] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
	"2000", ">=2000"
};

/* fio's stat_calc_dist: a share of the job's data I/Os (reads, writes
 * and trims; flushes count in the buckets but not in the total, so fio
 * can show more than 100%), at least 0.1 when non-zero. */
void ssd_rep_depth_pct(const struct ssd_job_result *j, double *pct)
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
void ssd_rep_batch_pct(const struct ssd_job_result *j, double *pct)
{
	uint64_t n = j->sync.ios;
	for (int d = 0; d < SSD_DDIR_N; d++)
		n += j->dir[d].ios;
	for (int i = 0; i < SSD_DEPTH_N; i++)
		pct[i] = i == 1 && n ? 100.0 : 0.0;
}

const char *const ssd_rep_depth_key[SSD_DEPTH_N] = {
	"1", "2", "4", "8", "16", "32", ">=64"};
const char *const ssd_rep_batch_key[SSD_DEPTH_N] = {
	"0", "4", "8", "16", "32", "64", ">=64"};

/* The queue depth of fio's latency_target keys: the one the search
 * reached, the job's iodepth without a target. */
uint64_t ssd_rep_latency_depth(const struct ssd_job_result *j)
{
	if (j->latency_depth)
		return j->latency_depth;
	const struct ssd_job *job = ssd_job_result_last(j); /* fio's */
	return job ? job->iodepth : 1;
}

/* ---- ssdlab's notes on a job ---- */

const char ssd_rep_page_cache_note[] =
	"buffered I/O (direct=0): the machine has no host page cache "
	"(page_cache = 0), every I/O reaches the drive as with direct=1";

/* The options job took without effect on the machine c, after the n
 * names already in names (not again): direct and buffered do have one
 * when it has a page cache.  The count of names now. */
static int noeffect_add(const struct ssd_job *job, const struct ssd_config *c,
			const char **names, int n)
{
	const char *mine[NOEFFECT_MAX];
	int m = ssd_job_noeffect(job, mine, NOEFFECT_MAX);
	if (m > NOEFFECT_MAX)
		m = NOEFFECT_MAX;
	for (int i = 0; i < m && n < NOEFFECT_MAX; i++) {
		if (c && c->page_cache && (!strcmp(mine[i], "direct") ||
					   !strcmp(mine[i], "buffered")))
			continue;
		int seen = 0;
		for (int k = 0; k < n && !seen; k++)
			seen = !strcmp(names[k], mine[i]);
		if (!seen)
			names[n++] = mine[i];
	}
	return n;
}

int ssd_rep_noeffect(const struct ssd_job_result *j, const struct ssd_config *c,
		     const char **names)
{
	int n = 0;
	uint32_t ns = j->nsections ? j->nsections : 1;
	for (uint32_t s = 0; j->job && s < ns; s++)
		n = noeffect_add(j->job + s, c, names, n);
	return n;
}

/* 1 if the buffered I/O of a job of j reaches the drive directly for want
 * of a page cache. */
int ssd_rep_no_cache(const struct ssd_job_result *j, const struct ssd_config *c)
{
	uint32_t ns = j->nsections ? j->nsections : 1;
	for (uint32_t s = 0; j->job && s < ns; s++)
		if (j->job[s].buffered && !(c && c->page_cache))
			return 1;
	return 0;
}

const char ssd_rep_time_based_note[] =
	"fio: time_based requires a runtime/timeout setting (fio's warning; "
	"the job ran as without time_based, as fio's does)";

/* 1 if a job of j had time_based without a runtime (dropped, as fio
 * drops it with its warning). */
int ssd_rep_time_based_dropped(const struct ssd_job_result *j)
{
	uint32_t ns = j->nsections ? j->nsections : 1;
	for (uint32_t s = 0; j->job && s < ns; s++)
		if (j->job[s].time_based_no_runtime)
			return 1;
	return 0;
}

/* The first job of j with a size cut (job.h's cut_key), or NULL. */
const struct ssd_job *ssd_rep_cut_job(const struct ssd_job_result *j)
{
	uint32_t ns = j->nsections ? j->nsections : 1;
	for (uint32_t s = 0; j->job && s < ns; s++)
		if (j->job[s].cut_key)
			return &j->job[s];
	return NULL;
}

/* The first job of j whose reads are checked (verify), or NULL. */
const struct ssd_job *ssd_rep_verify_job(const struct ssd_job_result *j)
{
	uint32_t ns = j->nsections ? j->nsections : 1;
	for (uint32_t s = 0; j->job && s < ns; s++)
		if (j->job[s].verify == SSD_VERIFY_DATA)
			return &j->job[s];
	return NULL;
}

/* A size written in bytes that is not whole blocks (job.h's cut_key):
 * "size=1000000000 is not whole 4 KiB blocks: ..." into buf. */
const char *ssd_rep_cut_note(const struct ssd_job *job, char *buf, size_t n)
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

/* Reads of pages never written (or trimmed) cost the drive no NAND read:
 * a random read of a fresh drive measures its controller, not its flash.
 * When they are more than UNMAPPED_NOTE_PCT % of the pages read, a note
 * says so (the text's line, "unmapped_reads_note" in the JSON); 1 then. */
#define UNMAPPED_NOTE_PCT 10
int ssd_rep_unmapped_note(const struct ssd_counters *c, char *buf, size_t n)
{
	uint64_t u = c->host_unmapped_read_lp, r = c->host_read_lp;
	if (!u || !r || (double)u * 100 <= (double)r * UNMAPPED_NOTE_PCT)
		return 0;
	char pct[32];
	ssd_rep_fmt_f(pct, sizeof pct, 0, 1, 100.0 * (double)u / (double)r);
	snprintf(buf, n, "%s%% of the pages read (%" PRIu64 " of %" PRIu64
		 ") were never written or were trimmed: the drive answers them "
		 "from its map without reading NAND, so the figures above "
		 "measure its controller more than its flash (write the region "
		 "first to measure reads of data)", pct, u, r);
	return 1;
}

int ssd_report_normal(const struct ssd_run_result *r, FILE *out)
{
	return ssd_report(r, SSD_OUT_NORMAL, out);
}

int ssd_report_json(const struct ssd_run_result *r, FILE *out)
{
	return ssd_report(r, SSD_OUT_JSON, out);
}

int ssd_report_json_plus(const struct ssd_run_result *r, FILE *out)
{
	return ssd_report(r, SSD_OUT_JSON_PLUS, out);
}

int ssd_report_terse(const struct ssd_run_result *r, FILE *out)
{
	return ssd_report(r, SSD_OUT_TERSE, out);
}

/* fio's order for several formats: the normal output's start-up lines,
 * then terse, JSON (json+ wins over json) and the normal report. */
int ssd_report(const struct ssd_run_result *r, unsigned formats, FILE *out)
{
	int ng;
	struct group *g = ssd_rep_groups_make(r, &ng);
	if (!g)
		return SSD_ENOMEM;
	if (formats & SSD_OUT_NORMAL)
		ssd_rep_text_header(r, out);
	if (formats & SSD_OUT_TERSE)
		ssd_rep_terse(r, out, g);
	if (formats & SSD_OUT_JSON_PLUS)
		ssd_rep_json(r, out, 1, g);
	else if (formats & SSD_OUT_JSON)
		ssd_rep_json(r, out, 0, g);
	if (formats & SSD_OUT_NORMAL)
		ssd_rep_text_body(r, out, g, ng);
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

uint64_t ssd_rep_fdp_mbe(const struct ssd_config *cfg, const struct ssd_counters *c)
{
	struct ssd_geometry g;
	ssd_config_geometry(cfg, &g);
	return c->nand_erase * g.erase_block_bytes; /* per plane, as counted */
}

double ssd_rep_fdp_handle_waf(const struct ssd_counters *c, uint32_t h)
{
	return c->fdp_host_lp[h] ? (double)c->fdp_media_lp[h] / c->fdp_host_lp[h]
				 : NAN;
}

const char *ssd_rep_fdp_isolation(const struct ssd_config *cfg)
{
	return cfg->fdp_isolation == SSD_FDP_PERSISTENT ? "persistent" : "initial";
}
