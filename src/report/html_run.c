/*
 * html_run.c -- a run of a job file in the HTML page (html.h): the job
 * file as written, a table of every job's figures (per direction the
 * I/Os, IOPS, bandwidth and latency; the drive's WAF, GC copies,
 * erases and wear), each job's completion-latency percentiles as a
 * chart, and the per-second series a job logged (fio's write_iops_log,
 * write_bw_log and write_lat_log files, read back as the run left
 * them): the reviewers' per-second dots with a 30-second average.
 */
#include "report/html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/counters.h"
#include "base/io.h"
#include "base/util.h"
#include "stats/stats.h"

static const char *const dir_name[SSD_DDIR_N] = {"read", "write", "trim"};

/* The figures of every job: a row per job and direction that moved. */
static void jobs_table(FILE *f, const struct ssd_run_result *r)
{
	fputs("<div class=\"wide\"><table><caption>Jobs</caption>\n<tr><th>job</th>"
	      "<th>dir</th><th>I/Os</th><th>IOPS</th><th>MiB/s</th>"
	      "<th>mean lat, us</th><th>p99 lat, us</th><th>max lat, us</th>"
	      "<th>runtime, s</th><th>WAF</th><th>GC copies (4 KiB)</th>"
	      "<th>erases</th><th>wear, %</th><th>error</th></tr>\n", f);
	for (int i = 0; i < r->njobs; i++) {
		const struct ssd_job_result *j = &r->jobs[i];
		double sec = (double)j->runtime_ns / 1e9;
		int rows = 0;
		/* a job that moved nothing (it failed at once) has a row of
		 * its first direction */
		int none = !j->dir[0].ios && !j->dir[1].ios && !j->dir[2].ios;
		unsigned dirs = j->job ? ssd_rw_ddirs(j->job->rw) : 0;
		int first = 0;
		while (first < SSD_DDIR_N - 1 && !(dirs & 1u << first))
			first++;
		for (int d = 0; d < SSD_DDIR_N; d++) {
			const struct ssd_dstat *s = &j->dir[d];
			if (!s->ios && !(none && d == first))
				continue;
			fputs("<tr><th>", f);
			ssd_html_text(f, j->name);
			fputs("</th><td>", f);
			fputs(dir_name[d], f);
			fputs("</td>", f);
			/* the direction's own runtime (jobs of different
			 * directions reported together) */
			double dsec = s->ios ? (double)ssd_job_result_dir_runtime(j, d) / 1e9
					     : sec;
			double v[6] = {
				(double)s->ios, dsec > 0 ? (double)s->ios / dsec : NAN,
				dsec > 0 ? (double)s->bytes / dsec / 1048576 : NAN,
				s->lat.n ? ssd_moments_mean(&s->lat) / 1e3 : NAN,
				s->lat.n ? (double)ssd_hist_percentile(&s->hist, 99) / 1e3 : NAN,
				/* whole us, cut as the text report cuts them */
				s->lat.n ? floor(s->lat.max / 1e3) : NAN};
			for (int k = 0; k < 6; k++) {
				fputs("<td class=\"n\">", f);
				ssd_html_num(f, v[k]);
				fputs("</td>", f);
			}
			/* the drive's figures once per job */
			if (!rows++) {
				double w[5] = {sec, ssd_counters_waf(&j->ctr),
					       (double)j->ctr.gc_copy_lp,
					       (double)j->ctr.nand_erase,
					       j->health.percentage_used};
				for (int k = 0; k < 5; k++) {
					fputs("<td class=\"n\">", f);
					ssd_html_num(f, w[k]);
					fputs("</td>", f);
				}
				fputs("<td>", f);
				if (j->error)
					ssd_html_text(f, j->errmsg[0] ? j->errmsg
						      : ssd_strerror(j->error));
				fputs("</td>", f);
			} else {
				fputs("<td colspan=\"6\"></td>", f);
			}
			fputs("</tr>\n", f);
		}
	}
	fputs("</table></div>\n", f);
}

/* A job's completion-latency percentiles, per direction, on a log
 * axis. */
static void latency_chart(FILE *f, const struct ssd_run_result *r, int run,
			  int i)
{
	const struct ssd_job_result *j = &r->jobs[i];
	struct ssd_chart *c = malloc(sizeof *c);
	if (!c)
		return;
	char id[96], title[160];
	snprintf(id, sizeof id, "chart-run%d-job%d-lat", run, i);
	snprintf(title, sizeof title, "%s: completion latency percentiles", j->name);
	ssd_chart_init(c, id, title);
	snprintf(c->x.label, sizeof c->x.label, "percentile");
	snprintf(c->y.label, sizeof c->y.label, "completion latency, us (log scale)");
	c->y.base = 10;
	c->bars = 1;
	for (int p = 0; p < ssd_npercentiles; p++) {
		char name[16];
		snprintf(name, sizeof name, "%g", ssd_percentiles[p]);
		ssd_chart_cat(c, name);
	}
	for (int d = 0; d < SSD_DDIR_N; d++) {
		if (!j->dir[d].lat.n)
			continue;
		struct ssd_chart_series *s = ssd_chart_series(c, dir_name[d],
							      SSD_CS_BARS);
		for (int p = 0; s && p < ssd_npercentiles; p++)
			ssd_chart_point(s, p, (double)ssd_hist_percentile(
					&j->dir[d].hist, ssd_percentiles[p]) / 1e3, 0, 0);
	}
	if (c->nseries)
		ssd_chart_svg(f, c);
	ssd_chart_free(c);
	free(c);
}

/* One fio log of a job read into per-second points, per direction:
 * averaged logs as they are, per-I/O logs summed (iops: a count; bw:
 * bytes as KiB/s) or averaged (latency, in us) over each second.
 * Returns the series added to c, 0 if the file is not there. */
static int log_series(struct ssd_chart *c, const char *path, int kind,
		      int averaged)
{
	FILE *lf = fopen(path, "r");
	if (!lf)
		return 0;
	/* per direction: the second being summed, its sum and count */
	double sec[SSD_DDIR_N], sum[SSD_DDIR_N], cnt[SSD_DDIR_N];
	struct ssd_chart_series *s[SSD_DDIR_N] = {NULL};
	for (int d = 0; d < SSD_DDIR_N; d++)
		sec[d] = -1, sum[d] = cnt[d] = 0;
	char line[256];
	int added = 0;
	for (;;) {
		char *got = fgets(line, sizeof line, lf);
		double t = 0, v = 0, bs = 0;
		int d = -1;
		if (got && sscanf(line, "%lf, %lf, %d, %lf", &t, &v, &d, &bs) < 3)
			continue;
		for (int k = 0; k < SSD_DDIR_N; k++) {
			/* a second ends: its point */
			if (got && d != k)
				continue;
			double now = got ? floor(t / 1000) : -2;
			if (averaged || !s[k] || sec[k] < 0 || now == sec[k])
				continue;
			double y = kind == SSD_LOG_IOPS ? cnt[k]
				 : kind == SSD_LOG_BW ? sum[k] / 1024
				 : sum[k] / cnt[k] / 1e3;
			ssd_chart_point(s[k], sec[k] + 0.5, y, 0, 0);
			sum[k] = cnt[k] = 0;
			sec[k] = -1;
		}
		if (!got)
			break;
		if (d < 0 || d >= SSD_DDIR_N)
			continue;
		if (!s[d]) {
			char title[64];
			snprintf(title, sizeof title, "%s, %s", dir_name[d],
				 averaged ? "as logged" : "per second");
			if (!(s[d] = ssd_chart_series(c, title, SSD_CS_POINTS)))
				break;
			added++;
		}
		if (averaged) {
			ssd_chart_point(s[d], t / 1000, kind == SSD_LOG_CLAT ? v / 1e3
					: v, 0, 0);
			continue;
		}
		sec[d] = floor(t / 1000);
		cnt[d]++;
		sum[d] += kind == SSD_LOG_BW ? bs : (double)v;
	}
	fclose(lf);
	/* each direction's 30-second trailing average, as the reviewers
	 * draw it, when the series is long enough to need one */
	for (int d = 0; d < SSD_DDIR_N; d++) {
		struct ssd_chart_series *p = s[d];
		if (!p || p->n < 2 || p->x[p->n - 1] - p->x[0] <= 30)
			continue;
		char title[64];
		snprintf(title, sizeof title, "%s, 30 s average", dir_name[d]);
		struct ssd_chart_series *a = ssd_chart_series(c, title, SSD_CS_LINES);
		if (!a)
			break;
		snprintf(a->color, sizeof a->color, "%s", d == 0 ? "#08306b"
			 : d == 1 ? "#000000" : "#444444");
		a->width = 2.5;
		double acc = 0;
		size_t lo = 0;
		for (size_t k = 0; k < p->n; k++) {
			acc += p->y[k];
			while (p->x[k] - p->x[lo] >= 30)
				acc -= p->y[lo++];
			ssd_chart_point(a, p->x[k], acc / (double)(k - lo + 1), 0, 0);
		}
	}
	return added;
}

/* The per-second charts of job section job of result i, whose first
 * instance is number index: one per log it wrote. */
static void series_charts(FILE *f, const struct ssd_run_result *r, int run,
			  int i, const struct ssd_job *job, int index)
{
	const struct ssd_job_result *j = &r->jobs[i];
	const struct {
		const char *prefix;
		int kind;
		const char *what, *unit;
	} logs[] = {
		{job->write_iops_log, SSD_LOG_IOPS, "IOPS", "IOPS"},
		{job->write_bw_log, SSD_LOG_BW, "bandwidth", "KiB/s"},
		{job->write_lat_log, SSD_LOG_CLAT, "completion latency",
		 "latency, us"},
	};
	for (size_t k = 0; k < sizeof logs / sizeof *logs; k++) {
		if (!logs[k].prefix[0])
			continue;
		char path[600], id[96], title[320];
		ssd_log_name(path, sizeof path, logs[k].prefix, logs[k].kind,
			     job->per_job_logs ? index : 0);
		struct ssd_chart *c = malloc(sizeof *c);
		if (!c)
			return;
		snprintf(id, sizeof id, "chart-run%d-job%d-log%zu%s", run, i, k,
			 job == j->job ? "" : job->name);
		snprintf(title, sizeof title, "%.64s: %s over time (%.200s)",
			 j->name, logs[k].what, path);
		ssd_chart_init(c, id, title);
		snprintf(c->x.label, sizeof c->x.label, "time, s (from the end "
			 "of the ramp)");
		snprintf(c->y.label, sizeof c->y.label, "%s", logs[k].unit);
		c->y.min = 0;
		if (log_series(c, path, logs[k].kind, job->log_avg_msec > 0))
			ssd_chart_svg(f, c);
		else {
			fputs("<p>", f);
			ssd_html_text(f, title);
			fputs(": the log is not there to read.</p>\n", f);
		}
		ssd_chart_free(c);
		free(c);
	}
}

void ssd_html_run(FILE *f, const struct ssd_run_result *r, int run,
		  const char *jobtext, size_t len)
{
	char h[400];
	snprintf(h, sizeof h, "Job file %s", r->jobfile ? r->jobfile : "");
	ssd_html_h2(f, h);
	if (jobtext)
		ssd_html_pre(f, jobtext, len);
	else
		ssd_html_p(f, "(the job file could not be read again for this page)");
	ssd_html_kv_begin(f, NULL);
	ssd_html_kv_num(f, "seed", (double)r->seed);
	ssd_html_kv_num(f, "simulated time, s", (double)r->sim_ns / 1e9);
	ssd_html_kv_num(f, "host I/Os", (double)r->host_ios);
	ssd_html_kv_end(f);
	jobs_table(f, r);
	int index = 1;
	for (int i = 0; i < r->njobs; i++) {
		const struct ssd_job_result *j = &r->jobs[i];
		ssd_html_h3(f, j->name);
		latency_chart(f, r, run, i);
		/* a result may report several job sections (group_reporting):
		 * the first one's clones are those the later ones leave */
		uint32_t ns = j->nsections ? j->nsections : 1;
		int first = j->clones ? (int)j->clones : 1;
		for (uint32_t s = 1; j->job && s < ns; s++)
			first -= (int)j->job[s].numjobs;
		for (uint32_t s = 0, at = (uint32_t)index; j->job && s < ns; s++) {
			series_charts(f, r, run, i, j->job + s, (int)at);
			at += s ? j->job[s].numjobs : (uint32_t)first;
		}
		index += j->clones ? (int)j->clones : 1;
	}
}
