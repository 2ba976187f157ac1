/*
 * scn_trace.c -- a production trace on a drive: precondition it (a
 * sequential fill, then optionally random writes to steady state),
 * replay the trace (read_iolog) and report, interval by interval of the
 * trace's time, the IOPS, the latency percentiles and the write
 * amplification: what this trace does to this drive.  "A 7% OP TLC drive
 * against a 28% one" is two runs with --set op=0.07 and op=0.28.
 *
 * The latencies per interval come from the replay's own fio histogram
 * log (write_hist_log, one line per direction and interval, fio's
 * log-linear bins); the WAF per interval from the drive's counters,
 * sampled as the run goes (the progress callback) at the intervals'
 * ends.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run/sim.h"
#include "trace/trace.h"
#include "methods/scenario.h"

static const struct ssd_scn_param params[] = {
	{.name = "trace", .def = "", .unit = "text",
	 .help = "The trace file: a fio iolog (version 2 or 3) or a blktrace "
		 "file, plain or gzip (other formats: ssdlab trace convert)."},
	{.name = "fill", .def = "1", .unit = "number",
	 .help = "Precondition: write the whole volume sequentially first (1) or not (0).",
	 .whole = 1, .lo = 0, .hi = 1},
	{.name = "warmup", .def = "0", .unit = "size or % of capacity",
	 .help = "... then this much of random 4 KiB "
		 "writes at QD32 (e.g. 200%: to steady state)."},
	{.name = "rest", .def = "1", .unit = "time",
	 .help = "Idle time between the preconditioning and the replay "
		 "(the drive finishes its buffered writes and background work)."},
	{.name = "iodepth", .def = "32", .unit = "number",
	 .help = "The replay's queue depth.",
	 .whole = 1, .lo = 1, .hi = 65536},
	{.name = "no_stall", .def = "0", .unit = "number",
	 .help = "Replay as fast as the queue allows (1: replay_no_stall) or at the trace's pace (0).",
	 .whole = 1, .lo = 0, .hi = 1},
	{.name = "time_scale", .def = "100", .unit = "percent",
	 .help = "The trace's pace (replay_time_scale: 200 is "
		 "twice as fast).",
	 .whole = 1, .lo = 1, .hi = UINT32_MAX},
	{.name = "loops", .def = "1", .unit = "number",
	 .help = "Replay the trace this many times.",
	 .whole = 1, .lo = 1, .hi = 1000000},
	{.name = "interval", .def = "1", .unit = "time",
	 .help = "Length of a point of the curves, in simulated time."},
	{.name = NULL},
};

/* The drive's counters at the intervals' ends, sampled by the progress
 * callback during the replay. */
struct waf_samples {
	const struct ssd_dev *dev;
	int64_t t0, step;        /* the replay's start, the interval */
	uint32_t n, cap;
	struct ssd_counters *at; /* at[i]: at the end of interval i */
	int oom;
	struct ssd_prog *pg;     /* the status line's, every 1024 calls
	                            (NULL: none) */
	uint32_t calls;
};

static void sample(void *ctx, const struct ssd_sim_progress *p)
{
	struct waf_samples *w = ctx;
	if (w->pg && !(++w->calls & 1023))
		ssd_sim_prog_report(w->pg, p);
	while (!w->oom && p->sim_ns >= w->t0 + (int64_t)(w->n + 1) * w->step) {
		if (w->n == w->cap) {
			struct ssd_counters *a = ssd_grow(w->at, &w->cap, sizeof *a, 64);
			if (!a) {
				w->oom = 1;
				return;
			}
			w->at = a;
		}
		w->at[w->n++] = *ssd_dev_counters(w->dev);
	}
}

/* Per interval and direction from the histogram log: completions and the
 * 50th, 99th and 99.9th percentiles (ns). */
struct lat_pt {
	uint64_t n[SSD_DDIR_N];
	uint64_t p50[SSD_DDIR_N], p99[SSD_DDIR_N], p999[SSD_DDIR_N];
};

static uint64_t pct(const uint64_t *bins, uint64_t n, double p)
{
	uint64_t want = (uint64_t)ceil(p / 100.0 * (double)n), sum = 0;
	if (!want)
		want = 1;
	for (unsigned i = 0; i < SSD_HIST_N; i++) {
		sum += bins[i];
		if (sum >= want)
			return ssd_hist_value(i);
	}
	return 0;
}

/* Read PATH (fio's clat_hist log: "ms, ddir, bs, c0, ..., c1855") into
 * pts[interval], the interval being the line's time over `step_ms`. */
static int read_hist(struct ssd_scn *s, const char *path, int64_t step_ms,
		     struct lat_pt **pts, uint32_t *npts)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(s->err, sizeof s->err, "trace: %.300s: %s", path, strerror(errno));
		return SSD_EIO;
	}
	size_t cap = 1 << 16;
	char *line = malloc(cap);
	uint64_t *bins = malloc(SSD_HIST_N * sizeof *bins);
	int rc = line && bins ? 0 : SSD_ENOMEM;
	*pts = NULL;
	*npts = 0;
	uint32_t have = 0;
	while (!rc && getline(&line, &cap, f) > 0) {
		char *p = line, *e;
		long long ms = strtoll(p, &e, 10);
		if (e == p || *e != ',')
			continue;
		int ddir = (int)strtol(e + 1, &e, 10);
		if (*e != ',' || ddir < 0 || ddir >= SSD_DDIR_N)
			continue;
		strtoull(e + 1, &e, 10); /* bs */
		uint64_t n = 0;
		for (unsigned i = 0; i < SSD_HIST_N; i++) {
			if (*e != ',')
				break;
			bins[i] = strtoull(e + 1, &e, 10);
			n += bins[i];
		}
		if (!n)
			continue;
		/* a line is written at the first completion after its
		 * interval ended: it belongs to the interval before its time */
		uint32_t k = ms / step_ms > 0 ? (uint32_t)(ms / step_ms - 1) : 0;
		if (k >= have) {
			uint32_t nh = k + 64;
			struct lat_pt *np = realloc(*pts, nh * sizeof *np);
			if (!np) {
				rc = SSD_ENOMEM;
				break;
			}
			memset(np + have, 0, (nh - have) * sizeof *np);
			*pts = np;
			have = nh;
		}
		struct lat_pt *lp = &(*pts)[k];
		lp->n[ddir] = n;
		lp->p50[ddir] = pct(bins, n, 50);
		lp->p99[ddir] = pct(bins, n, 99);
		lp->p999[ddir] = pct(bins, n, 99.9);
		if (k + 1 > *npts)
			*npts = k + 1;
	}
	free(line);
	free(bins);
	fclose(f);
	if (rc == SSD_ENOMEM)
		snprintf(s->err, sizeof s->err, "trace: out of memory");
	return rc;
}

static double us(uint64_t ns)
{
	return (double)ns / 1e3;
}

static int run(struct ssd_scn *s)
{
	const char *trace = ssd_scn_str(s, "trace");
	int fill = (int)ssd_scn_int(s, "fill");
	uint64_t warm = ssd_scn_size(s, "warmup", 4096);
	int iodepth = (int)ssd_scn_int(s, "iodepth");
	int no_stall = (int)ssd_scn_int(s, "no_stall");
	uint32_t scale = (uint32_t)ssd_scn_int(s, "time_scale");
	int loops = (int)ssd_scn_int(s, "loops");
	int64_t step = ssd_scn_time(s, "interval");
	int64_t rest = ssd_scn_time(s, "rest");
	if (!trace[0]) {
		snprintf(s->err, sizeof s->err, "trace: name the trace: --set trace=FILE "
			 "(a fio iolog or blktrace file; ssdlab trace convert makes one "
			 "of the other formats)");
		return SSD_ERANGE;
	}
	/* a trace that cannot be read is an input error, found before the
	 * preconditioning rather than after it */
	struct ssd_trace *t;
	struct ssd_trace_rec rec;
	int rc = ssd_trace_open(trace, SSD_TRACE_AUTO, &t, s->err, sizeof s->err);
	if (!rc && ssd_trace_next(t, &rec) < 0) {
		snprintf(s->err, sizeof s->err, "%s", ssd_trace_error(t));
		rc = SSD_EPARSE;
	}
	ssd_trace_close(t);
	if (rc)
		return rc == SSD_EIO ? SSD_ENOENT : rc;
	if (step < 1000000 || step % 1000000) {
		snprintf(s->err, sizeof s->err, "trace: interval %s is not a whole "
			 "number of ms, at least 1 (the histogram log's unit)",
			 ssd_scn_str(s, "interval"));
		return SSD_ERANGE;
	}
	if (rest < 0) {
		snprintf(s->err, sizeof s->err, "trace: rest must not be negative");
		return SSD_ERANGE;
	}
	struct ssd_dev *dev = ssd_scn_drive(s, NULL, 0);
	if (!dev)
		return SSD_EINVAL;
	struct ssd_run_result res;
	/* the preconditioning: its own run, so that the replay's figures
	 * and samples start from the preconditioned drive */
	if (fill || warm) {
		struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
		if (b && fill)
			ssd_scn_job(b, "fill", SSD_RW_WRITE, 128 << 10, 32);
		if (b && warm) {
			ssd_scn_job(b, "warmup", SSD_RW_RANDWRITE, 4096, 32);
			ssd_jobs_set(b, "stonewall", NULL);
			ssd_jobs_set(b, "norandommap", NULL);
			ssd_jobs_setf(b, "io_size", "%llu", (unsigned long long)warm);
		}
		rc = ssd_scn_run(s, dev, b, NULL, &res);
		if (rc)
			goto out_dev;
		ssd_run_result_free(&res);
		if (rest && (rc = ssd_dev_idle(dev, ssd_dev_time(dev) + rest))) {
			snprintf(s->err, sizeof s->err, "trace: the drive failed while "
				 "idle: %s", ssd_dev_error(dev));
			goto out_dev;
		}
	}
	char hist[4200];
	snprintf(hist, sizeof hist, "%s/replay", s->outdir);
	struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
	if (b) {
		ssd_jobs_add(b, "replay");
		ssd_jobs_set(b, "read_iolog", trace);
		ssd_jobs_setf(b, "iodepth", "%d", iodepth);
		ssd_jobs_setf(b, "loops", "%d", loops);
		ssd_jobs_setf(b, "replay_time_scale", "%u", scale);
		if (no_stall)
			ssd_jobs_set(b, "replay_no_stall", "1");
		ssd_jobs_set(b, "write_hist_log", hist);
		ssd_jobs_setf(b, "log_hist_msec", "%lld", (long long)(step / 1000000));
	}
	struct ssd_job *jobs = NULL;
	int njobs = 0;
	rc = b ? ssd_jobs_end(b, &jobs, &njobs, s->err, sizeof s->err) : SSD_ENOMEM;
	if (rc) {
		if (rc == SSD_ENOMEM && !b)
			snprintf(s->err, sizeof s->err, "trace: out of memory");
		goto out_dev;
	}
	/* the samples count from the run's start (the progress's sim_ns), the
	 * series from the drive's time, where the replay begins */
	struct waf_samples w = {.dev = dev, .t0 = 0, .step = step,
				.pg = s->prog};
	if (s->prog)
		s->prog->run_t0 = ssd_dev_time(dev);
	struct ssd_counters c0 = *ssd_dev_counters(dev);
	struct ssd_series ser;
	ssd_series_init(&ser, ssd_dev_time(dev), step);
	/* every completion: an interval's counters are the drive's at the
	 * first completion after its end */
	rc = ssd_sim_run_progress(dev, jobs, njobs, s->seed, &ser, sample, &w, 1,
				  &res, s->err, sizeof s->err);
	free(jobs);
	if (rc) {
		ssd_run_result_free(&res);
		goto out_ser;
	}
	const struct ssd_job_result *j = &res.jobs[0];
	if (j->error) {
		snprintf(s->err, sizeof s->err, "trace: the replay failed: %.480s", j->errmsg);
		rc = j->error;
		goto out_res;
	}
	struct ssd_counters c1 = *ssd_dev_counters(dev), d;
	ssd_counters_sub(&d, &c1, &c0);
	char hpath[4300];
	snprintf(hpath, sizeof hpath, "%s_clat_hist.1.log", hist);
	struct lat_pt *lat = NULL;
	uint32_t nlat = 0;
	if ((rc = read_hist(s, hpath, step / 1000000, &lat, &nlat)))
		goto out_res;
	/* the curves: the series' points (IOPS), the histograms'
	 * percentiles, the samples' WAF */
	FILE *f = ssd_scn_file(s, "trace.csv");
	if (!f) {
		rc = SSD_EIO;
		goto out_lat;
	}
	fprintf(f, "time_s,read_iops,write_iops,trim_iops,read_p50_us,read_p99_us,"
		"read_p999_us,write_p50_us,write_p99_us,write_p999_us,waf_interval,"
		"waf,gc_copied_pages\n");
	uint32_t n = ser.n;
	struct ssd_counters prev = c0;
	int any_lat = 0, any_waf = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct lat_pt *lp = i < nlat ? &lat[i] : NULL;
		const struct ssd_counters *at = i < w.n ? &w.at[i] : &c1;
		struct ssd_counters di, dt;
		ssd_counters_sub(&di, at, &prev);
		ssd_counters_sub(&dt, at, &c0);
		prev = *at;
		double wi = ssd_counters_waf(&di), wt = ssd_counters_waf(&dt);
		fprintf(f, "%.3f,%.1f,%.1f,%.1f", (double)(i + 1) * (double)step / 1e9,
			ssd_series_iops(&ser, i, SSD_DDIR_READ),
			ssd_series_iops(&ser, i, SSD_DDIR_WRITE),
			ssd_series_iops(&ser, i, SSD_DDIR_TRIM));
		for (int dd = 0; dd < 2; dd++) {
			if (lp && lp->n[dd]) {
				fprintf(f, ",%.1f,%.1f,%.1f", us(lp->p50[dd]), us(lp->p99[dd]),
					us(lp->p999[dd]));
				any_lat = 1;
			} else {
				fputs(",,,", f);
			}
		}
		any_waf |= wi == wi;
		if (wi == wi)
			fprintf(f, ",%.4f", wi);
		else
			fputs(",", f);
		if (wt == wt)
			fprintf(f, ",%.4f", wt);
		else
			fputs(",", f);
		fprintf(f, ",%llu\n", (unsigned long long)dt.gc_copy_lp);
	}
	if ((rc = ssd_scn_close(s, f)))
		goto out_lat;
	static const char iops_body[] =
		"set xlabel 'time since the replay began, s'\nset ylabel 'IOPS'\nset yrange [0:*]\n"
		"set datafile separator ','\nset key top right\n"
		"plot 'trace.csv' skip 1 using 1:2 with lines lw 2 title 'read', "
		"'' skip 1 using 1:3 with lines lw 2 title 'write', "
		"'' skip 1 using 1:4 with lines lw 1 title 'trim'";
	static const char lat_body[] =
		"set xlabel 'time since the replay began, s'\nset ylabel 'latency, us'\nset logscale y\n"
		"set datafile separator ','\nset key top right\n"
		"plot 'trace.csv' skip 1 using 1:5 with lines title 'read p50', "
		"'' skip 1 using 1:6 with lines title 'read p99', "
		"'' skip 1 using 1:8 with lines title 'write p50', "
		"'' skip 1 using 1:9 with lines title 'write p99'";
	static const char waf_body[] =
		"set xlabel 'time since the replay began, s'\nset ylabel 'write amplification'\n"
		"set yrange [0:*]\nset datafile separator ','\nset key top left\n"
		"plot 'trace.csv' skip 1 using 1:11 with linespoints pt 7 ps 0.4 "
		"title 'per interval', '' skip 1 using 1:12 with lines lw 2 "
		"title 'since the replay began'";
	/* a chart only of what there is (gnuplot refuses an empty one): a
	 * trace shorter than an interval has no percentiles, one that does
	 * not write no WAF */
	if ((n > 1 && (rc = ssd_scn_plot(s, "trace-iops", "The trace's IOPS", iops_body))) ||
	    (n > 1 && any_lat &&
	     (rc = ssd_scn_plot(s, "trace-latency", "The trace's latency percentiles", lat_body))) ||
	    (n > 1 && any_waf &&
	     (rc = ssd_scn_plot(s, "trace-waf", "Write amplification over the trace", waf_body))) ||
	    (rc = ssd_scn_csv(s, "series", &ser)))
		goto out_lat;
	uint64_t ios = j->dir[0].ios + j->dir[1].ios + j->dir[2].ios;
	double secs = (double)j->runtime_ns / 1e9, waf = ssd_counters_waf(&d);
	uint64_t r99 = ssd_hist_percentile(&j->dir[SSD_DDIR_READ].hist, 99);
	uint64_t w99 = ssd_hist_percentile(&j->dir[SSD_DDIR_WRITE].hist, 99);
	ssd_scn_json_str(s, "trace", trace);
	ssd_scn_json_num(s, "requests", (double)ios);
	ssd_scn_json_num(s, "reads", (double)j->dir[SSD_DDIR_READ].ios);
	ssd_scn_json_num(s, "writes", (double)j->dir[SSD_DDIR_WRITE].ios);
	ssd_scn_json_num(s, "trims", (double)j->dir[SSD_DDIR_TRIM].ios);
	ssd_scn_json_num(s, "flushes", (double)j->sync.ios);
	ssd_scn_json_num(s, "duration_s", secs);
	ssd_scn_json_num(s, "iops", secs > 0 ? (double)ios / secs : 0);
	ssd_scn_json_num(s, "read_p99_us", us(r99));
	ssd_scn_json_num(s, "write_p99_us", us(w99));
	if (waf == waf)
		ssd_scn_json_num(s, "waf", waf);
	ssd_scn_json_num(s, "gc_copied_pages", (double)d.gc_copy_lp);
	ssd_scn_json_num(s, "intervals", (double)n);
	fprintf(s->out, "trace on %s: %s\n", s->cfg.name, trace);
	fprintf(s->out, "  replayed          %llu request%s (%llu read%s, %llu write%s, "
		"%llu trim%s, %llu flush%s) in %.2f s of simulated time\n",
		(unsigned long long)ios, ssd_plural(ios),
		(unsigned long long)j->dir[0].ios, ssd_plural(j->dir[0].ios),
		(unsigned long long)j->dir[1].ios, ssd_plural(j->dir[1].ios),
		(unsigned long long)j->dir[2].ios, ssd_plural(j->dir[2].ios),
		(unsigned long long)j->sync.ios, j->sync.ios == 1 ? "" : "es", secs);
	fprintf(s->out, "  IOPS              %.0f on average\n", secs > 0 ? (double)ios / secs : 0);
	fprintf(s->out, "  latency p99       read %.1f us, write %.1f us\n", us(r99), us(w99));
	if (waf == waf)
		fprintf(s->out, "  WAF               %.3f over the replay (%llu GC copies)\n",
			waf, (unsigned long long)d.gc_copy_lp);
	else
		fprintf(s->out, "  WAF               none: the trace wrote nothing\n");
	fprintf(s->out, "  data and plots    %s/trace.csv, trace-{iops,latency,waf}.{png,svg}\n",
		s->outdir);
out_lat:
	free(lat);
out_res:
	ssd_run_result_free(&res);
out_ser:
	ssd_series_free(&ser);
	free(w.at);
out_dev:
	ssd_dev_destroy(dev);
	return rc;
}

const struct ssd_scenario ssd_scn_trace = {
	.name = "trace",
	.summary = "a trace replayed on a preconditioned drive: IOPS, latency "
		   "percentiles and WAF over the trace's time",
	.params = params,
	.run = run,
};
