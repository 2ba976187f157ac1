/*
 * scn_slc_cache.c -- the 760p review's sustained-write test: a sequential
 * write of the whole user capacity, as when copying big files; write
 * speed against the bytes written.  An SLC cache shows as a fast start
 * and a cliff.
 *
 * Detection (cliff.h): the initial speed is the median of the first 8
 * points; the cache ends at the first point from which the speed stays
 * below `drop` x initial for `hold` consecutive points; its size is the
 * bytes written before that point, and the post-cache speed is the
 * median of the points from it on.  No cliff: the whole write ran at
 * one speed.
 */
#include <stdlib.h>
#include <string.h>

#include "methods/cliff.h"
#include "methods/scenario.h"
#include "run/sim.h"

static const struct ssd_scn_param params[] = {
	{.name = "size", .def = "100%", .unit = "size or % of capacity",
	 .help = "Bytes written sequentially."},
	{.name = "bs", .def = "128k", .unit = "size",
	 .help = "Request size."},
	{.name = "iodepth", .def = "32", .unit = "number",
	 .help = "Queue depth.",
	 .whole = 1, .lo = 1, .hi = 65536},
	{.name = "interval", .def = "0.05", .unit = "time",
	 .help = "Length of a point of the speed curve."},
	{.name = "drop", .def = "0.7", .unit = "number",
	 .help = "A cliff is a fall below this share of the initial speed.",
	 .lo = 0, .hi = 1, .open = SSD_SCN_ABOVE_LO | SSD_SCN_BELOW_HI},
	{.name = "hold", .def = "4", .unit = "number",
	 .help = "... lasting this many points.",
	 .whole = 1, .lo = 1, .hi = 1000000},
	{.name = NULL},
};

/* Median of v[0..n) without disturbing v. */
static int run(struct ssd_scn *s)
{
	uint64_t bs = ssd_scn_size(s, "bs", 4096);
	uint64_t size = ssd_scn_size(s, "size", bs);
	int64_t step = ssd_scn_time(s, "interval");
	double drop = ssd_scn_num(s, "drop");
	int hold = (int)ssd_scn_int(s, "hold"), iodepth = (int)ssd_scn_int(s, "iodepth");
	const char *bad = NULL;
	if (!bs)
		bad = "bs must be at least 4k";
	else if (!size || size > ssd_config_volume(&s->cfg))
		bad = "size must be at least bs, up to the capacity";
	else if (step <= 0)
		bad = "interval must be more than 0";
	if (bad) {
		snprintf(s->err, sizeof s->err, "slc-cache: %s", bad);
		return SSD_ERANGE;
	}
	struct ssd_dev *dev = ssd_scn_drive(s, NULL, 0);
	if (!dev)
		return SSD_EINVAL;
	struct ssd_series ser;
	ssd_series_init(&ser, ssd_dev_time(dev), step); /* 0, or a snapshot's */
	struct ssd_run_result res;
	struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
	if (b)
		ssd_scn_job(b, "sequential-fill", SSD_RW_WRITE, (uint32_t)bs,
			    (uint32_t)iodepth)->size = size;
	int rc = ssd_scn_run(s, dev, b, &ser, &res);
	if (rc)
		goto out_dev;
	uint32_t n = ser.n > 1 ? ser.n - 1 : ser.n; /* last point is partial */
	double *mbps = calloc(n + 1, sizeof *mbps), *gb = calloc(n + 1, sizeof *gb);
	double written = 0;
	FILE *f = ssd_scn_file(s, "slc-cache.csv");
	if (!mbps || !gb || !f) {
		rc = f ? SSD_ENOMEM : SSD_EIO;
		ssd_scn_discard(s, f);
		goto out;
	}
	fprintf(f, "gb_written,write_mbps,time_s\n");
	for (uint32_t i = 0; i < n; i++) {
		mbps[i] = ssd_series_mbps(&ser, i, SSD_DDIR_WRITE);
		written += (double)ser.pt[i].bytes[SSD_DDIR_WRITE];
		gb[i] = written / 1e9;
		fprintf(f, "%.4f,%.2f,%.3f\n", gb[i], mbps[i], (double)(i + 1) * step / 1e9);
	}
	if ((rc = ssd_scn_close(s, f)))
		goto out;
	double *bytes = calloc(n + 1, sizeof *bytes);
	static const struct ssd_cliff_rule rule0 = {.head = 8};
	struct ssd_cliff_rule rule = rule0;
	rule.drop = drop;
	rule.hold = hold;
	struct ssd_cliff cl;
	for (uint32_t i = 0; bytes && i < n; i++)
		bytes[i] = (double)ser.pt[i].bytes[SSD_DDIR_WRITE];
	rc = bytes ? ssd_cliff_find(bytes, mbps, (int)n, &rule, &cl)
		   : SSD_ENOMEM;
	free(bytes);
	if (rc)
		goto out;
	double initial = cl.initial;
	int64_t cliff = cl.at;
	double cache_gb = cl.cache / 1e9;
	double post = cliff >= 0 ? cl.post : initial;
	double avg = res.jobs[0].runtime_ns > 0
		? (double)res.jobs[0].dir[SSD_DDIR_WRITE].bytes * 1e3 / (double)res.jobs[0].runtime_ns : 0;
	char mark[512] = "", body[1024], cs[32], ws[32];
	ssd_fmt_bytes((uint64_t)cl.cache, cs, sizeof cs);
	ssd_fmt_bytes((uint64_t)written, ws, sizeof ws);
	if (cliff > 0)
		snprintf(mark, sizeof mark,
			 "set arrow 1 from %.4f, graph 0 to %.4f, graph 1 nohead dt 2 lc rgb 'red'\n"
			 "set label 1 'cache ~%s' at %.4f, graph 0.95 offset 1,0 tc rgb 'red'\n",
			 cache_gb, cache_gb, cs, cache_gb);
	snprintf(body, sizeof body,
		 "set xlabel 'data written, GB'\nset ylabel 'write speed, MB/s'\n"
		 "set yrange [0:*]\n%s"
		 "plot 'slc-cache.csv' using 1:2 with lines lw 2 lc rgb '#1f5fbf' "
		 "title 'sequential write, %llu KiB, QD%d'",
		 mark, (unsigned long long)(bs / 1024), iodepth);
	if ((rc = ssd_scn_plot(s, "slc-cache", "Sustained sequential write", body)))
		goto out;
	if ((rc = ssd_scn_csv(s, "series", &ser)))
		goto out;
	ssd_scn_json_num(s, "initial_mbps", initial);
	ssd_scn_json_num(s, "average_mbps", avg);
	if (cliff >= 0) {
		ssd_scn_json_num(s, "cache_gb", cache_gb);
		ssd_scn_json_num(s, "cache_pct_of_capacity", 100 * cache_gb * 1e9 / (double)ssd_config_volume(&s->cfg));
		ssd_scn_json_num(s, "post_cache_mbps", post);
	} else {
		ssd_scn_json_str(s, "cache_gb", "no cliff");
	}
	ssd_scn_json_num(s, "gb_written", written / 1e9);
	ssd_scn_json_num(s, "slc_written_gb", (double)res.jobs[0].ctr.slc_write_lp * 4096 / 1e9);
	fprintf(s->out, "slc-cache on %s: sequential write of %s\n", s->cfg.name, ws);
	fprintf(s->out, "  initial speed     %.0f MB/s\n", initial);
	if (cliff >= 0)
		fprintf(s->out, "  cache             %s (%.2f%% of capacity), then %.0f MB/s\n",
			cs, 100 * cache_gb * 1e9 / (double)ssd_config_volume(&s->cfg), post);
	else
		fprintf(s->out, "  cache             no cliff: one speed all the way\n");
	fprintf(s->out, "  average           %.0f MB/s\n", avg);
	fprintf(s->out, "  data and plots    %s/slc-cache.{csv,png,svg}\n", s->outdir);
out:
	free(mbps);
	free(gb);
	ssd_run_result_free(&res);
out_dev:
	ssd_series_free(&ser);
	ssd_dev_destroy(dev);
	return rc;
}

const struct ssd_scenario ssd_scn_slc_cache = {
	.name = "slc-cache",
	.summary = "sequential write of the whole capacity: speed against data "
		   "written, SLC cache size and post-cache speed",
	.params = params,
	.run = run,
};
