/*
 * scn_trim_latency.c -- the 760p review's TRIM-latency method, scaled to
 * the drive's capacity (the review's sizes are for 120-256 GB drives):
 *   1. write `files` large "files" (LBA extents of `file` bytes each) and
 *      one test file (`test` bytes) sequentially;
 *   2. pause (time for GC and SLC folding);
 *   3. write `big` bytes more, pause, delete them (TRIM of the extent),
 *      pause;
 *   4. read the test file sequentially while the large files are deleted
 *      one after another (TRIMs of `trim_bs` each, `gap` between files),
 *      logging read speed every `interval`.
 * TRIM stalls show as read-speed drops.  The drive's trim_mode decides:
 * immediate TRIMs hold every command while the controller unmaps;
 * background ones slow it a little for longer; deferred ones cost nothing
 * now and wait for idle time.
 */
#include <stdlib.h>

#include "methods/scenario.h"
#include "run/sim.h"

static const struct ssd_scn_param params[] = {
	{.name = "files", .def = "4", .unit = "number",
	 .help = "Large files to delete during the read.",
	 .whole = 1, .lo = 1, .hi = 1000000},
	{.name = "file", .def = "6.25%", .unit = "size or % of capacity",
	 .help = "Size of each large file (8 GB of 128 GB)."},
	{.name = "test", .def = "25%", .unit = "size or % of capacity",
	 .help = "Size of the test file read back (32 GB of 128 GB)."},
	{.name = "big", .def = "12.5%", .unit = "size or % of capacity",
	 .help = "The big write deleted before the test (16 GB of 128 GB)."},
	{.name = "pause", .def = "180", .unit = "time",
	 .help = "Each pause."},
	{.name = "trim_bs", .def = "128m", .unit = "size",
	 .help = "Bytes per TRIM command when a file is deleted."},
	{.name = "gap", .def = "1", .unit = "time",
	 .help = "Time between two file deletions."},
	{.name = "interval", .def = "0.5", .unit = "time",
	 .help = "Read-speed log interval."},
	{.name = NULL},
};

static int run(struct ssd_scn *s)
{
	const uint64_t mib = 1 << 20;
	int files = (int)ssd_scn_int(s, "files");
	uint64_t file = ssd_scn_size(s, "file", mib), test = ssd_scn_size(s, "test", mib);
	uint64_t big = ssd_scn_size(s, "big", mib), trim_bs = ssd_scn_size(s, "trim_bs", 4096);
	int64_t pause = ssd_scn_time(s, "pause"), gap = ssd_scn_time(s, "gap");
	int64_t step = ssd_scn_time(s, "interval");
	uint64_t used = (uint64_t)files * file + test + big;
	char bad[200] = "";
	if (!file || !test || !big)
		snprintf(bad, sizeof bad, "file, test and big must be at least 1m");
	else if (!trim_bs)
		snprintf(bad, sizeof bad, "trim_bs must be at least 4k");
	else if (step <= 0)
		snprintf(bad, sizeof bad, "interval must be more than 0");
	else if (pause < 0 || gap < 0)
		snprintf(bad, sizeof bad, "pause and gap must not be negative");
	else if (used > ssd_config_volume(&s->cfg))
		snprintf(bad, sizeof bad, "files %d x file %s + test %s + big %s is "
			 "more than the capacity", files, ssd_scn_str(s, "file"),
			 ssd_scn_str(s, "test"), ssd_scn_str(s, "big"));
	if (bad[0]) {
		snprintf(s->err, sizeof s->err, "trim-latency: %s", bad);
		return SSD_ERANGE;
	}
	if (trim_bs > file)
		trim_bs = file;
	struct ssd_dev *dev = ssd_scn_drive(s, NULL, 0);
	if (!dev)
		return SSD_EINVAL;
	uint64_t test_off = (uint64_t)files * file, big_off = test_off + test;
	struct ssd_run_result res;
	int64_t now;
	/* 1-3: files, test file; pause; big write; pause; delete; pause */
	struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
	if (b) {
		ssd_scn_job(b, "files", SSD_RW_WRITE, 128 << 10, 32)->size =
			test_off;
		struct ssd_job *j = ssd_scn_job(b, "test-file", SSD_RW_WRITE,
						128 << 10, 32);
		j->stonewall = 1;
		j->offset = test_off;
		j->size = test;
	}
	int rc = ssd_scn_run(s, dev, b, NULL, &res);
	if (rc)
		goto out_dev;
	ssd_run_result_free(&res);
	ssd_dev_idle(dev, ssd_dev_time(dev) + pause);
	b = ssd_scn_jobs_new(s, dev);
	if (b) {
		struct ssd_job *j = ssd_scn_job(b, "big-write", SSD_RW_WRITE,
						128 << 10, 32);
		j->offset = big_off;
		j->size = big;
	}
	rc = ssd_scn_run(s, dev, b, NULL, &res);
	if (rc)
		goto out_dev;
	ssd_run_result_free(&res);
	ssd_dev_idle(dev, ssd_dev_time(dev) + pause);
	b = ssd_scn_jobs_new(s, dev);
	if (b) {
		struct ssd_job *j = ssd_scn_job(b, "delete-big", SSD_RW_TRIM,
						(uint32_t)trim_bs, 1);
		j->offset = big_off;
		j->size = big;
	}
	rc = ssd_scn_run(s, dev, b, NULL, &res);
	if (rc)
		goto out_dev;
	ssd_run_result_free(&res);
	now = ssd_dev_time(dev) + pause;
	ssd_dev_idle(dev, now);
	/* 4: read the test file while the large files are deleted */
	struct ssd_series ser;
	ssd_series_init(&ser, now, step);
	uint64_t per_file = (file + trim_bs - 1) / trim_bs;
	b = ssd_scn_jobs_new(s, dev);
	if (b) {
		struct ssd_job *j = ssd_scn_job(b, "read-test-file",
						SSD_RW_READ, 128 << 10, 32);
		j->offset = test_off;
		j->size = test;
		j = ssd_scn_job(b, "delete-files", SSD_RW_TRIM,
				(uint32_t)trim_bs, 1);
		j->size = test_off;
		j->thinktime = gap;
		ssd_jobs_setf(b, "thinktime_blocks", "%llu",
			      (unsigned long long)per_file);
	}
	rc = ssd_scn_run(s, dev, b, &ser, &res);
	if (rc)
		goto out_ser;
	const struct ssd_job_result *rd = &res.jobs[0], *tr = &res.jobs[1];
	uint32_t n = ser.n > 1 ? ser.n - 1 : ser.n;
	FILE *f = ssd_scn_file(s, "trim-latency.csv");
	if (!f) {
		rc = SSD_EIO;
		goto out_res;
	}
	fprintf(f, "time_s,read_mbps,trim_gb,read_lat_max_ms\n");
	double worst = -1, trim_active_worst = -1;
	for (uint32_t i = 0; i < n; i++) {
		double r = ssd_series_mbps(&ser, i, SSD_DDIR_READ);
		double tg = (double)ser.pt[i].bytes[SSD_DDIR_TRIM] / 1e9;
		fprintf(f, "%.3f,%.2f,%.3f,%.3f\n", (double)(i + 1) * step / 1e9, r, tg,
			(double)ser.pt[i].lat_max[SSD_DDIR_READ] / 1e6);
		/* worst interval while the test file was being read */
		if ((int64_t)(i + 1) * step <= rd->runtime_ns && (worst < 0 || r < worst))
			worst = r;
	}
	if ((rc = ssd_scn_close(s, f)))
		goto out_res;
	(void)trim_active_worst;
	double read_avg = rd->runtime_ns > 0
		? (double)rd->dir[SSD_DDIR_READ].bytes * 1e3 / (double)rd->runtime_ns : 0;
	double read_max_ms = rd->dir[SSD_DDIR_READ].lat.n ? rd->dir[SSD_DDIR_READ].lat.max / 1e6 : 0;
	double trim_ms_max = tr->dir[SSD_DDIR_TRIM].lat.n ? tr->dir[SSD_DDIR_TRIM].lat.max / 1e6 : 0;
	uint64_t trimmed = tr->dir[SSD_DDIR_TRIM].bytes;
	/* the TRIM rate: bytes per second of TRIM command time (with queued
	 * modes that is the rate at which they are acknowledged) */
	double trim_time = tr->dir[SSD_DDIR_TRIM].lat.sum / 1e9;
	double trim_rate = trim_time > 0 ? (double)trimmed / 1e9 / trim_time : 0;
	char body[1024];
	snprintf(body, sizeof body,
		 "set xlabel 'time, s'\nset ylabel 'read speed, MB/s'\nset y2label 'TRIMmed, GB per interval'\n"
		 "set yrange [0:*]\nset y2range [0:*]\nset ytics nomirror\nset y2tics\n"
		 "plot 'trim-latency.csv' using 1:2 with lines lw 2 lc rgb '#1f5fbf' title 'sequential read of the test file (every %.1f s)', \\\n"
		 "     'trim-latency.csv' using 1:3 axes x1y2 with impulses lw 3 lc rgb '#d95f02' title 'TRIM (deleting the large files)'",
		 step / 1e9);
	if ((rc = ssd_scn_plot(s, "trim-latency", "Reading while deleting (TRIM)", body)))
		goto out_res;
	ssd_scn_json_str(s, "trim_mode", ssd_trim_mode_name(s->cfg.trim_mode));
	ssd_scn_json_num(s, "read_avg_mbps", read_avg);
	ssd_scn_json_num(s, "read_worst_interval_mbps", worst);
	ssd_scn_json_num(s, "read_max_latency_ms", read_max_ms);
	ssd_scn_json_num(s, "trimmed_gb", (double)trimmed / 1e9);
	ssd_scn_json_num(s, "trim_command_max_ms", trim_ms_max);
	ssd_scn_json_num(s, "trim_ack_gbps", trim_rate);
	ssd_scn_json_num(s, "trim_queue_left_gb", (double)ssd_dev_trim_queued(dev) * 4096 / 1e9);
	char ts[32], fs[32], rs[32];
	fprintf(s->out, "trim-latency on %s (trim_mode %s): read %s while deleting %d x %s\n",
		s->cfg.name, ssd_trim_mode_name(s->cfg.trim_mode),
		ssd_fmt_bytes(test, ts, sizeof ts), files, ssd_fmt_bytes(file, fs, sizeof fs));
	fprintf(s->out, "  read speed        %.0f MB/s on average, worst %.1f s interval %.0f MB/s\n",
		read_avg, step / 1e9, worst);
	fprintf(s->out, "  worst stall       a read waited %.2f ms\n", read_max_ms);
	fprintf(s->out, "  TRIM              %s, acknowledged at %.1f GB/s of command "
		"time, longest command %.3f ms\n", ssd_fmt_bytes(trimmed, ts, sizeof ts),
		trim_rate, trim_ms_max);
	if (ssd_dev_trim_queued(dev))
		fprintf(s->out, "  still queued      %s of TRIM, for idle time\n",
			ssd_fmt_bytes(ssd_dev_trim_queued(dev) * 4096, rs, sizeof rs));
	fprintf(s->out, "  data and plots    %s/trim-latency.{csv,png,svg}\n", s->outdir);
out_res:
	ssd_run_result_free(&res);
out_ser:
	ssd_series_free(&ser);
out_dev:
	ssd_dev_destroy(dev);
	return rc;
}

const struct ssd_scenario ssd_scn_trim_latency = {
	.name = "trim-latency",
	.summary = "sequential read of a test file while large files are "
		   "deleted (TRIM): read speed every 0.5 s, TRIM stalls",
	.params = params,
	.run = run,
	.needs_trim = 1,
};
