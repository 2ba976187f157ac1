/*
 * report_terse.c -- a finished run as fio's terse (--minimal) output,
 * version 3 (ssd_report_terse, through report.c): one line of
 * semicolon-separated fields per job, in fio's order, latencies in usec;
 * the host's CPU use and the disk's kernel counters are zeros.
 */
#include "report/report_int.h"

#include <inttypes.h>

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
	fprintf(out, ";%" PRIu64 ";%" PRIu64 ";%s;%s", ssd_rep_u64_of(m->min) / 1000,
		ssd_rep_u64_of(m->max) / 1000,
		ssd_rep_fmt_f(a, sizeof a, 0, 6, ssd_moments_mean(m) / 1000.0),
		ssd_rep_fmt_f(b, sizeof b, 0, 6, ssd_moments_stddev(m) / 1000.0));
}

static void terse_ddir(FILE *out, const struct ssd_job_result *j, int d,
		       const struct group *rs)
{
	const struct ssd_dstat *s = &j->dir[d];
	int64_t rt = ssd_rep_dir_runtime(j, d);
	char a[64], b[64], c[64];
	fprintf(out, ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64,
		s->bytes >> 10, ssd_rep_per_sec(s->bytes, rt) / 1024,
		ssd_rep_per_sec(s->ios, rt), rt ? ssd_rep_ms_of(rt) : 0);
	terse_lat(out, NULL); /* slat: submission takes no time */
	terse_lat(out, &s->lat);
	/* fio: the lat percentiles with lat_percentiles, else clat's (the
	 * same values here), else none */
	struct plist pl = ssd_rep_plist_of(j);
	int n = pl.clat || pl.lat ? pl.n : 0;
	for (int i = 0; i < 20; i++) {
		if (i >= n) {
			fputs(";0%=0", out);
			continue;
		}
		fprintf(out, ";%s%%=%" PRIu64,
			ssd_rep_fmt_f(a, sizeof a, 0, 6, pl.v[i]),
			ssd_hist_percentile(&s->hist, pl.v[i]) / 1000);
	}
	terse_lat(out, &s->lat); /* lat = clat */
	if (!s->bw.n) {
		fputs(";0;0;0.000000%;0.000000;0.000000", out);
		return;
	}
	double mean = ssd_moments_mean(&s->bw);
	fprintf(out, ";%" PRIu64 ";%" PRIu64 ";%s%%;%s;%s",
		ssd_rep_u64_of(s->bw.min), ssd_rep_u64_of(s->bw.max),
		ssd_rep_fmt_f(a, sizeof a, 0, 6, ssd_rep_agg_percent(rs->agg[d], mean)),
		ssd_rep_fmt_f(b, sizeof b, 0, 6, mean),
		ssd_rep_fmt_f(c, sizeof c, 0, 6, ssd_moments_stddev(&s->bw)));
}

static void terse_job(FILE *out, const struct ssd_run_result *r,
		      const struct ssd_job_result *j, const struct group *rs)
{
	char b[64];
	fprintf(out, "3;ssdlab-%s;%s;%d;%d", SSDLAB_VERSION, j->name,
		j->groupid, ssd_rep_job_errno(j));
	terse_ddir(out, j, SSD_DDIR_READ, rs);
	terse_ddir(out, j, SSD_DDIR_WRITE, rs);
	fputs(";0.000000%;0.000000%;0;0;0", out); /* host CPU */
	double dp[SSD_DEPTH_N], lp[SSD_LATDIST_N];
	ssd_rep_depth_pct(j, dp);
	for (int i = 0; i < SSD_DEPTH_N; i++)
		fprintf(out, ";%s%%", ssd_rep_fmt_f(b, sizeof b, 0, 1, dp[i]));
	ssd_rep_lat_dist_pct(j, lp);
	for (int i = 10; i < SSD_LATDIST_N; i++)
		fprintf(out, ";%s%%", ssd_rep_fmt_f(b, sizeof b, 0, 2, lp[i]));
	fprintf(out, ";%s;0;0;0;0;0;0;0;0.00%%",
		r->cfg && r->cfg->name[0] ? r->cfg->name : "ssdlab");
	if (ssd_rep_continues(j)) /* fio adds these with continue_on_error */
		fprintf(out, ";%" PRIu64 ";%d", j->total_err, j->first_error);
	putc('\n', out);
}

void ssd_rep_terse(const struct ssd_run_result *r, FILE *out,
			 const struct group *g)
{
	for (int i = 0; i < r->njobs; i++)
		terse_job(out, r, &r->jobs[i], &g[ssd_rep_group_of(&r->jobs[i])]);
}

