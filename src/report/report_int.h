/*
 * report_int.h -- what the report's files share: report.c (the figures
 * every format computes the same way: fio's rates, runtimes, error
 * numbers, percentile lists, group aggregates and distributions, and
 * ssdlab's notes on a job; the dispatcher of several formats),
 * report_text.c (fio's normal output), report_json.c (JSON and json+)
 * and report_terse.c (fio's terse line).  Each format computes a figure
 * through the one function here, so that the text, the JSON and the
 * terse line never disagree.  Only src/report/report*.c include this
 * header.
 */
#ifndef SSD_REPORT_INT_H
#define SSD_REPORT_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/report.h"

/* ---- numbers ---- */

/* printf("%*.*f") with a "." decimal point.  Returns buf. */
const char *ssd_rep_fmt_f(char *buf, size_t n, int width, int prec, double v);
/* v * 10^9 / ns: a count per simulated second, 0 if ns <= 0. */
uint64_t ssd_rep_per_sec(uint64_t v, int64_t ns);
/* Whole ms, as fio reports runtimes; at least 1 for a nonzero time. */
uint64_t ssd_rep_ms_of(int64_t ns);
/* v rounded to a whole number, 0 if not positive. */
uint64_t ssd_rep_u64_of(double v);

/* ---- percentiles and errors (clat/lat/slat_percentiles,
 * percentile_list, continue_on_error) ---- */

/* The percentiles job j reports: its percentile_list (sorted), or fio's
 * default list; prec: the digits after the point in the text. */
struct plist {
	const double *v;
	int n, prec;
	int clat, lat, slat; /* which latencies report them */
};
struct plist ssd_rep_plist_of(const struct ssd_job_result *j);

/* fio's "error": the error that ended the job, else the first one it
 * went on after (continue_on_error). */
int ssd_rep_job_errno(const struct ssd_job_result *j);
/* 1 if job j goes on after errors (continue_on_error). */
int ssd_rep_continues(const struct ssd_job_result *j);

/* "read", "write", "trim". */
extern const char *const ssd_rep_ddir_name[SSD_DDIR_N];

/* ---- per-group aggregates (fio's group_run_stats) ---- */

struct group {
	int njobs;
	uint64_t iobytes[SSD_DDIR_N];
	int64_t min_run[SSD_DDIR_N], max_run[SSD_DDIR_N]; /* ns, 0 = none */
	uint64_t min_bw[SSD_DDIR_N], max_bw[SSD_DDIR_N];  /* bytes/s */
	uint64_t agg[SSD_DDIR_N]; /* bytes/s: iobytes over the longest run */
};

/* A direction's runtime: the job's, if it did I/O that way (fio). */
int64_t ssd_rep_dir_runtime(const struct ssd_job_result *j, int d);
/* The index of job j's group in ssd_rep_groups_make's array. */
int ssd_rep_group_of(const struct ssd_job_result *j);
/* The groups of r, malloc'd (*ng of them), or NULL when out of memory. */
struct group *ssd_rep_groups_make(const struct ssd_run_result *r, int *ng);
/* fio's convert_agg_kbytes_percent: a job's mean bw (KiB/s) as a share
 * of its group's aggregate. */
double ssd_rep_agg_percent(uint64_t agg, double mean_kib);

/* ---- distributions ---- */

/* fio's io_u_lat_{n,u,m} percentages over all directions of a job, into
 * pct[SSD_LATDIST_N], and their keys ("2" .. ">=2000"). */
void ssd_rep_lat_dist_pct(const struct ssd_job_result *j, double *pct);
extern const char *const ssd_rep_latdist_key[SSD_LATDIST_N];

/* fio's stat_calc_dist: a share of the job's data I/Os (reads, writes
 * and trims; flushes count in the buckets but not in the total, so fio
 * can show more than 100%), at least 0.1 when non-zero; into
 * pct[SSD_DEPTH_N]. */
void ssd_rep_depth_pct(const struct ssd_job_result *j, double *pct);
/* fio's submit/complete batch distributions: ssdlab submits and reaps
 * one command a call, so all of them fall in the "4" bucket (1..4). */
void ssd_rep_batch_pct(const struct ssd_job_result *j, double *pct);
/* The buckets' keys: depths "1" .. ">=64", batches "0" .. ">=64". */
extern const char *const ssd_rep_depth_key[SSD_DEPTH_N];
extern const char *const ssd_rep_batch_key[SSD_DEPTH_N];

/* The queue depth of fio's latency_target keys: the one the search
 * reached, the job's iodepth without a target. */
uint64_t ssd_rep_latency_depth(const struct ssd_job_result *j);

/* ---- ssdlab's notes on a job ----
 * The options the job took without effect, and the page-cache note: one
 * text line each, and "options_without_effect" (plus "host_page_cache"
 * for direct=0) in the job's ssdlab object. */

#define NOEFFECT_MAX 512
/* The options the jobs of result j took without effect on the machine c
 * (at most NOEFFECT_MAX names, into names, each once: the jobs of a
 * group reported together may share them): direct and buffered do have
 * one when it has a page cache.  Their count. */
int ssd_rep_noeffect(const struct ssd_job_result *j, const struct ssd_config *c,
		     const char **names);
/* 1 if the buffered I/O of a job of j reaches the drive directly for want
 * of a page cache; the note that says so. */
int ssd_rep_no_cache(const struct ssd_job_result *j, const struct ssd_config *c);
extern const char ssd_rep_page_cache_note[];
/* fio's warning of time_based without a runtime, and whether a job of j
 * had it (job.h's time_based_no_runtime). */
extern const char ssd_rep_time_based_note[];
int ssd_rep_time_based_dropped(const struct ssd_job_result *j);
/* The first job of j with a size cut (cut_key), or NULL; the first that
 * checks data (verify), or NULL. */
const struct ssd_job *ssd_rep_cut_job(const struct ssd_job_result *j);
const struct ssd_job *ssd_rep_verify_job(const struct ssd_job_result *j);
/* A size written in bytes that is not whole blocks (job.h's cut_key):
 * "size=1000000000 is not whole 4 KiB blocks: ..." into buf. */
const char *ssd_rep_cut_note(const struct ssd_job *job, char *buf, size_t n);

/* FDP's statistics log (docs/fdp.md) from a period's counters: media
 * bytes erased (the erase blocks counted in nand_erase, whole); the
 * handles' type by name. */
uint64_t ssd_rep_fdp_mbe(const struct ssd_config *cfg, const struct ssd_counters *c);
const char *ssd_rep_fdp_isolation(const struct ssd_config *cfg);
/* Handle h's media pages per host page (NAN before it wrote any). */
double ssd_rep_fdp_handle_waf(const struct ssd_counters *c, uint32_t h);
/* The note on reads of pages never written, into buf: 1 if the counters
 * c call for it, else 0 (report.c says when). */
int ssd_rep_unmapped_note(const struct ssd_counters *c, char *buf, size_t n);

/* ---- the formats' bodies, for ssd_report()'s order ---- */

/* Text: the start-up lines, and the rest (jobs, groups, the drive). */
void ssd_rep_text_header(const struct ssd_run_result *r, FILE *out);
void ssd_rep_text_body(const struct ssd_run_result *r, FILE *out,
		       const struct group *g, int ng);
/* JSON (json+ when plus) and terse, with the groups g of r. */
void ssd_rep_json(const struct ssd_run_result *r, FILE *out, int plus,
		  const struct group *g);
void ssd_rep_terse(const struct ssd_run_result *r, FILE *out,
		   const struct group *g);

#endif
