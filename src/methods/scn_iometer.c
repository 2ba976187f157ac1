/*
 * scn_iometer.c -- the 2008 essay's IOmeter method: random read,
 * sequential read, random write, sequential write and a 70% read / 30%
 * write random mix, each at every request size from 512 B to 1 MiB
 * (powers of two), with throughput and mean and maximum latency drawn as
 * curves over the request size.
 *
 * Method.  The drive is first filled sequentially over the span (1 MiB
 * writes, QD32), so that every read hits mapped data: reads of unmapped
 * LBAs return zeros without touching the flash and would measure nothing.
 * Then every point is a short time_based run (`point` of simulated time)
 * at queue depth `iodepth` over the span, as IOmeter runs one access
 * specification after another on a test file:
 *   - random offsets are drawn with replacement (norandommap), aligned to
 *     the request size, as IOmeter draws them;
 *   - sequential points start at the start of the span, each anew;
 *   - the order is all sizes of random read, then sequential read, random
 *     write, sequential write, the mix -- reads first, so that the read
 *     curves see the freshly written layout; the write points then age the
 *     drive a little, as the reviewer's runs did;
 *   - there is no pause between points (no idle time for background GC).
 * IOPS and MB/s (10^6 B/s) are the point's I/Os and bytes over its
 * measured time; latency is the completion latency of every I/O of the
 * point (reads and writes together for the mix).
 *
 * Two things the curves show about the model rather than about IOmeter:
 *   - the drive maps 4 KiB pages, so a 512 B to 2 KiB read costs the same
 *     flash work as 4 KiB (read IOPS are flat below 4 KiB and MB/s fall
 *     with the size), and a write that small is a read-modify-write of
 *     its page, far slower than a 4 KiB write;
 *   - the default drive has no read-ahead (read_ahead = 0): sequential reads
 *     smaller than a NAND page queue on one die; the die's data register
 *     serves the later parts of a page it has just read without a new
 *     array read, so they cost only the transfer.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "methods/scenario.h"
#include "run/sim.h"

static const struct ssd_scn_param params[] = {
	{.name = "span", .def = "100%", .unit = "size or % of capacity",
	 .help = "Region filled first and then tested, from the start of the drive."},
	{.name = "point", .def = "0.2", .unit = "time",
	 .help = "Simulated length of each point (one pattern at one size)."},
	{.name = "iodepth", .def = "4", .unit = "number",
	 .help = "Queue depth of every point.",
	 .whole = 1, .lo = 1, .hi = 65536},
	{.name = "rwmixread", .def = "70", .unit = "number",
	 .help = "Percent of reads in the random mix.",
	 .whole = 1, .lo = 0, .hi = 100},
	{.name = "bs_min", .def = "512", .unit = "size",
	 .help = "Smallest request size (a power of two >= 512)."},
	{.name = "bs_max", .def = "1m", .unit = "size",
	 .help = "Largest request size (a power of two)."},
	{.name = NULL},
};

enum { RAND_READ, SEQ_READ, RAND_WRITE, SEQ_WRITE, MIX, NPAT };

static const struct {
	int rw;            /* enum ssd_rw */
	const char *name;  /* summary and plot */
	const char *key;   /* CSV and JSON */
	const char *color;
	const char *style; /* distinct points and widths: curves that coincide
	                      (random and sequential write on a clean drive)
	                      stay visible */
} pat[NPAT] = {
	{SSD_RW_RANDREAD, "random read", "rand_read", "#1f5fbf", "lw 2 pt 7 ps 0.8"},
	{SSD_RW_READ, "sequential read", "seq_read", "#1b9e77", "lw 2 pt 5 ps 0.8"},
	{SSD_RW_RANDWRITE, "random write", "rand_write", "#d95f02", "lw 4 pt 9 ps 1.4"},
	{SSD_RW_WRITE, "sequential write", "seq_write", "#7570b3", "lw 1.5 pt 11 ps 0.8"},
	{SSD_RW_RANDRW, "random mix", "mix", "#e7298a", "lw 2 pt 13 ps 0.8"},
};

#define MAX_SIZES 19 /* 512 B .. 128 MiB, the largest bs a job takes */

struct point {
	double iops, mbps, lat_mean_us, lat_max_us;
};

static void size_label(uint64_t bs, char *buf, size_t n)
{
	if (bs >= 1 << 20)
		snprintf(buf, n, "%llum", (unsigned long long)(bs >> 20));
	else if (bs >= 1024)
		snprintf(buf, n, "%lluk", (unsigned long long)(bs >> 10));
	else
		snprintf(buf, n, "%llu", (unsigned long long)bs);
}

/* One pattern at every size: one job per size, each in its own stonewall
 * group, all in one run. */
static int measure(struct ssd_scn *s, struct ssd_dev *dev, int p,
		   const uint64_t *bs, int nbs, uint64_t span, int64_t point,
		   int qd, int mix, struct point *out)
{
	struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
	for (int i = 0; b && i < nbs; i++) {
		char name[64];
		snprintf(name, sizeof name, "%s-%llu", pat[p].key,
			 (unsigned long long)bs[i]);
		struct ssd_job *j = ssd_scn_job(b, name, pat[p].rw,
						(uint32_t)bs[i], (uint32_t)qd);
		j->stonewall = 1;
		j->size = span;
		j->time_based = 1;
		j->runtime = point;
		j->norandommap = !(p == SEQ_READ || p == SEQ_WRITE);
		if (p == MIX)
			j->rwmixread = (uint32_t)mix;
	}
	struct ssd_run_result res;
	int rc = ssd_scn_run(s, dev, b, NULL, &res);
	if (rc)
		return rc;
	for (int i = 0; i < nbs && i < res.njobs; i++) {
		const struct ssd_job_result *j = &res.jobs[i];
		struct ssd_moments lat = j->dir[SSD_DDIR_READ].lat;
		ssd_moments_merge(&lat, &j->dir[SSD_DDIR_WRITE].lat);
		uint64_t ios = j->dir[SSD_DDIR_READ].ios + j->dir[SSD_DDIR_WRITE].ios;
		uint64_t bytes = j->dir[SSD_DDIR_READ].bytes + j->dir[SSD_DDIR_WRITE].bytes;
		double t = (double)j->runtime_ns;
		out[i].iops = t > 0 ? (double)ios * 1e9 / t : 0;
		out[i].mbps = t > 0 ? (double)bytes * 1e3 / t : 0;
		out[i].lat_mean_us = ssd_moments_mean(&lat) / 1e3;
		out[i].lat_max_us = lat.n ? lat.max / 1e3 : 0;
	}
	ssd_run_result_free(&res);
	return 0;
}

static int write_csv(struct ssd_scn *s, const uint64_t *bs, int nbs,
		     struct point (*pt)[MAX_SIZES])
{
	FILE *f = ssd_scn_file(s, "iometer.csv");
	if (!f)
		return SSD_EIO;
	fprintf(f, "bs");
	for (int p = 0; p < NPAT; p++)
		fprintf(f, ",%s_iops,%s_mbps,%s_lat_mean_us,%s_lat_max_us",
			pat[p].key, pat[p].key, pat[p].key, pat[p].key);
	fputc('\n', f);
	for (int i = 0; i < nbs; i++) {
		fprintf(f, "%llu", (unsigned long long)bs[i]);
		for (int p = 0; p < NPAT; p++)
			fprintf(f, ",%.1f,%.3f,%.2f,%.2f", pt[p][i].iops,
				pt[p][i].mbps, pt[p][i].lat_mean_us,
				pt[p][i].lat_max_us);
		fputc('\n', f);
	}
	return ssd_scn_close(s, f);
}

static int plots(struct ssd_scn *s, const uint64_t *bs, int nbs, int qd,
		 int mix)
{
	char xtics[512] = "set xtics (", lab[16], body[4096];
	for (int i = 0; i < nbs; i++) {
		size_t l = strlen(xtics);
		size_label(bs[i], lab, sizeof lab);
		snprintf(xtics + l, sizeof xtics - l, "%s\"%s\" %llu", i ? ", " : "",
			 lab, (unsigned long long)bs[i]);
	}
	size_t l = strlen(xtics);
	snprintf(xtics + l, sizeof xtics - l, ")\n");
	char names[NPAT][48];
	for (int p = 0; p < NPAT; p++)
		snprintf(names[p], sizeof names[p], "%s", pat[p].name);
	snprintf(names[MIX], sizeof names[MIX], "random %d%% read / %d%% write",
		 mix, 100 - mix);

	/* MB/s against the request size */
	int n = snprintf(body, sizeof body,
			 "set logscale x 2\n%sset xrange [%llu/1.3:%llu*1.3]\n"
			 "set xlabel 'request size, bytes (QD%d)'\nset ylabel 'MB/s'\n"
			 "set yrange [0:*]\nplot ",
			 xtics, (unsigned long long)bs[0],
			 (unsigned long long)bs[nbs - 1], qd);
	for (int p = 0; p < NPAT && n > 0 && (size_t)n < sizeof body; p++)
		n += snprintf(body + n, sizeof body - (size_t)n,
			      "%s'iometer.csv' skip 1 using 1:%d with linespoints %s "
			      "lc rgb '%s' title '%s'",
			      p ? ", \\\n     " : "", 3 + 4 * p, pat[p].style,
			      pat[p].color, names[p]);
	if (n < 0 || (size_t)n >= sizeof body)
		return SSD_ERANGE;
	int rc = ssd_scn_plot(s, "iometer-mbps", "IOmeter: throughput by request size", body);
	if (rc)
		return rc;

	/* mean (solid) and maximum (dashed) latency */
	n = snprintf(body, sizeof body,
		     "set logscale x 2\nset logscale y 10\n%sset xrange [%llu/1.3:%llu*1.3]\n"
		     "set xlabel 'request size, bytes (QD%d)'\n"
		     "set ylabel 'latency, us (log scale): solid = mean, dashed = maximum'\n"
		     "set format y '%%g'\nplot ",
		     xtics, (unsigned long long)bs[0],
		     (unsigned long long)bs[nbs - 1], qd);
	for (int p = 0; p < NPAT && n > 0 && (size_t)n < sizeof body; p++)
		n += snprintf(body + n, sizeof body - (size_t)n,
			      "%s'iometer.csv' skip 1 using 1:%d with linespoints lw 2 pt 7 "
			      "ps 0.6 lc rgb '%s' title '%s, mean', \\\n"
			      "     '' skip 1 using 1:%d with linespoints lw 1.5 dt 2 pt 6 "
			      "ps 0.6 lc rgb '%s' title 'max'",
			      p ? ", \\\n     " : "", 4 + 4 * p, pat[p].color, names[p],
			      5 + 4 * p, pat[p].color);
	if (n < 0 || (size_t)n >= sizeof body)
		return SSD_ERANGE;
	return ssd_scn_plot(s, "iometer-latency", "IOmeter: latency by request size", body);
}

static int run(struct ssd_scn *s)
{
	uint64_t span = ssd_scn_size(s, "span", 4096);
	uint64_t bs_min = ssd_scn_size(s, "bs_min", 0);
	uint64_t bs_max = ssd_scn_size(s, "bs_max", 0);
	int64_t point = ssd_scn_time(s, "point");
	int qd = (int)ssd_scn_int(s, "iodepth");
	int mix = (int)ssd_scn_int(s, "rwmixread");
	char bad[160] = "";
	const char *tmin = ssd_scn_str(s, "bs_min"), *tmax = ssd_scn_str(s, "bs_max");
	if (!span || span > ssd_config_volume(&s->cfg))
		snprintf(bad, sizeof bad, "span %s is not 4k up to the capacity",
			 ssd_scn_str(s, "span"));
	else if (point <= 0)
		snprintf(bad, sizeof bad, "point must be more than 0");
	else if (bs_min < 512 || (bs_min & (bs_min - 1)))
		snprintf(bad, sizeof bad, "bs_min %s is not a power of two >= 512", tmin);
	else if (bs_max & (bs_max - 1))
		snprintf(bad, sizeof bad, "bs_max %s is not a power of two", tmax);
	else if (bs_max < bs_min)
		snprintf(bad, sizeof bad, "bs_max %s is less than bs_min %s", tmax, tmin);
	else if (bs_max > (128u << 20))
		snprintf(bad, sizeof bad, "bs_max %s is more than 128m", tmax);
	else if (bs_max > span)
		snprintf(bad, sizeof bad, "bs_max %s is more than span %s", tmax,
			 ssd_scn_str(s, "span"));
	if (bad[0]) {
		snprintf(s->err, sizeof s->err, "iometer: %s", bad);
		return SSD_ERANGE;
	}
	uint64_t bs[MAX_SIZES];
	int nbs = 0;
	for (uint64_t b = bs_min; b <= bs_max && nbs < MAX_SIZES; b *= 2)
		bs[nbs++] = b;
	struct point (*pt)[MAX_SIZES] = calloc(NPAT, sizeof *pt);
	if (!pt)
		return SSD_ENOMEM;
	struct ssd_dev *dev = ssd_scn_drive(s, NULL, 0);
	if (!dev) {
		free(pt);
		return SSD_EINVAL;
	}
	struct ssd_run_result res;
	struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
	if (b)
		ssd_scn_job(b, "fill", SSD_RW_WRITE, 1 << 20, 32)->size = span;
	int rc = ssd_scn_run(s, dev, b, NULL, &res);
	double fill_mbps = 0, fill_s = 0;
	if (!rc) {
		const struct ssd_job_result *j = &res.jobs[0];
		fill_s = j->runtime_ns / 1e9;
		fill_mbps = j->runtime_ns > 0
			? (double)j->dir[SSD_DDIR_WRITE].bytes * 1e3 / (double)j->runtime_ns : 0;
		ssd_run_result_free(&res);
	}
	for (int p = 0; p < NPAT && !rc; p++)
		rc = measure(s, dev, p, bs, nbs, span, point, qd, mix, pt[p]);
	int64_t sim_end = ssd_dev_time(dev);
	struct ssd_health h;
	ssd_dev_health(dev, &h);
	ssd_dev_destroy(dev);
	if (rc == SSD_ERANGE && !s->err[0])
		snprintf(s->err, sizeof s->err, "iometer: job text too long");
	if (!rc)
		rc = write_csv(s, bs, nbs, pt);
	if (!rc)
		rc = plots(s, bs, nbs, qd, mix);
	if (rc) {
		free(pt);
		return rc;
	}

	/* result.json: headline numbers, then every point */
	int i4k = -1;
	for (int i = 0; i < nbs; i++)
		if (bs[i] == 4096)
			i4k = i;
	double best[NPAT] = {0};
	for (int p = 0; p < NPAT; p++)
		for (int i = 0; i < nbs; i++)
			best[p] = fmax(best[p], pt[p][i].mbps);
	ssd_scn_json_num(s, "fill_mbps", fill_mbps);
	if (i4k >= 0) {
		ssd_scn_json_num(s, "rand_read_4k_iops", pt[RAND_READ][i4k].iops);
		ssd_scn_json_num(s, "rand_write_4k_iops", pt[RAND_WRITE][i4k].iops);
		ssd_scn_json_num(s, "mix_4k_iops", pt[MIX][i4k].iops);
		ssd_scn_json_num(s, "rand_read_4k_lat_mean_us", pt[RAND_READ][i4k].lat_mean_us);
		ssd_scn_json_num(s, "rand_write_4k_lat_mean_us", pt[RAND_WRITE][i4k].lat_mean_us);
	}
	ssd_scn_json_num(s, "seq_read_max_mbps", best[SEQ_READ]);
	ssd_scn_json_num(s, "seq_write_max_mbps", best[SEQ_WRITE]);
	double lat_max = 0;
	for (int p = 0; p < NPAT; p++)
		for (int i = 0; i < nbs; i++)
			lat_max = fmax(lat_max, pt[p][i].lat_max_us);
	ssd_scn_json_num(s, "lat_max_us", lat_max);
	ssd_scn_json_open(s, "patterns", 0);
	for (int p = 0; p < NPAT; p++) {
		ssd_scn_json_open(s, pat[p].key, 1);
		for (int i = 0; i < nbs; i++) {
			ssd_scn_json_open(s, NULL, 0);
			ssd_scn_json_int(s, "bs", (int64_t)bs[i]);
			ssd_scn_json_num(s, "iops", pt[p][i].iops);
			ssd_scn_json_num(s, "mbps", pt[p][i].mbps);
			ssd_scn_json_num(s, "lat_mean_us", pt[p][i].lat_mean_us);
			ssd_scn_json_num(s, "lat_max_us", pt[p][i].lat_max_us);
			ssd_scn_json_close(s, 0);
		}
		ssd_scn_json_close(s, 1);
	}
	ssd_scn_json_close(s, 0);
	ssd_scn_json_num(s, "simulated_seconds", sim_end / 1e9);
	ssd_scn_json_num(s, "bad_blocks", (double)h.bad_blocks);

	/* the summary */
	char lab[16], hs[32];
	fprintf(s->out, "iometer on %s: %d request sizes x 5 patterns, %.3g s each at "
		"QD%d over %s\n", s->cfg.name, nbs, point / 1e9, qd,
		ssd_fmt_bytes(span, hs, sizeof hs));
	fprintf(s->out, "  filled first: sequential 1 MiB writes, %.0f MB/s (%.1f s)\n",
		fill_mbps, fill_s);
	fprintf(s->out, "  %-6s %13s %13s %13s %13s %13s\n", "MB/s", "rand read",
		"seq read", "rand write", "seq write", "mix");
	for (int i = 0; i < nbs; i++) {
		size_label(bs[i], lab, sizeof lab);
		fprintf(s->out, "  %-6s", lab);
		for (int p = 0; p < NPAT; p++)
			fprintf(s->out, " %13.1f", pt[p][i].mbps);
		fputc('\n', s->out);
	}
	fprintf(s->out, "  %-6s %13s %13s %13s %13s %13s\n", "lat us", "rand read",
		"seq read", "rand write", "seq write", "mix");
	fprintf(s->out, "  %-6s %13s %13s %13s %13s %13s\n", "", "mean/max",
		"mean/max", "mean/max", "mean/max", "mean/max");
	for (int i = 0; i < nbs; i++) {
		size_label(bs[i], lab, sizeof lab);
		fprintf(s->out, "  %-6s", lab);
		for (int p = 0; p < NPAT; p++) {
			char cell[32];
			snprintf(cell, sizeof cell, "%.0f/%.0f", pt[p][i].lat_mean_us,
				 pt[p][i].lat_max_us);
			fprintf(s->out, " %13s", cell);
		}
		fputc('\n', s->out);
	}
	if (i4k >= 0)
		fprintf(s->out, "  4 KiB IOPS: random read %.0f, random write %.0f, "
			"mix %d/%d %.0f\n", pt[RAND_READ][i4k].iops,
			pt[RAND_WRITE][i4k].iops, mix, 100 - mix, pt[MIX][i4k].iops);
	fprintf(s->out, "  data and plots %s/iometer.csv, iometer-{mbps,latency}.{png,svg}\n",
		s->outdir);
	free(pt);
	return 0;
}

const struct ssd_scenario ssd_scn_iometer = {
	.name = "iometer",
	.summary = "IOmeter by request size (512 B..1 MiB): random and sequential "
		   "read and write, 70/30 mix; MB/s, IOPS, mean and max latency",
	.params = params,
	.run = run,
};
