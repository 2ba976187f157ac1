/*
 * scn_gc_states.c -- the 760p review's garbage-collection states: 4 KiB
 * random-write IOPS and sequential read and write speed of the drive
 *   1. clean (fresh from the factory);
 *   2. after a long 4 KiB random-write load without TRIM (`load` bytes,
 *      or `load_time` of simulated time on a drive too slow for them);
 *   3. after 30 minutes idle (time for background GC);
 *   4. after TRIM of the whole span.
 * On a drive without TRIM (trim = no: the X25-M G1, the JMF602) state 4
 * is skipped: the summary and result.json say so, the others stand.
 *
 * Each state is probed the same way: sequential write of a slice (128 KiB,
 * QD32), sequential read of that slice (so it reads real data: unmapped
 * reads would cost nothing), then random 4 KiB writes at QD32 for a few
 * seconds.  The probes write too, as the reviewers' did; they are short
 * next to the load.
 */
#include <stdlib.h>
#include <string.h>

#include "methods/scenario.h"
#include "run/sim.h"

static const struct ssd_scn_param params[] = {
	{.name = "load", .def = "200%", .unit = "size or % of capacity",
	 .help = "Random 4 KiB writes of the load (no TRIM), after a full fill."},
	{.name = "load_time", .def = "24h", .unit = "time",
	 .help = "The load ends after this much simulated time if it has not "
		 "written `load` by then (a drive of tens of IOPS; 0: no limit)."},
	{.name = "idle", .def = "1800", .unit = "time",
	 .help = "Idle time before state 3."},
	{.name = "slice", .def = "2%", .unit = "size or % of capacity",
	 .help = "Data the sequential probes write and read."},
	{.name = "probe", .def = "5", .unit = "time",
	 .help = "Length of the random-write probe."},
	{.name = "iodepth", .def = "32", .unit = "number",
	 .help = "Queue depth of the probes and the load.",
	 .whole = 1, .lo = 1, .hi = 65536},
	{.name = NULL},
};

struct probe {
	double iops, write_mbps, read_mbps, waf;
};

static double mbps(const struct ssd_job_result *j, int ddir)
{
	return j->runtime_ns > 0
		? (double)j->dir[ddir].bytes * 1e3 / (double)j->runtime_ns : 0;
}

static int probe(struct ssd_scn *s, struct ssd_dev *dev, uint64_t slice,
		 int64_t secs_ns, int qd, struct probe *p)
{
	struct ssd_run_result res;
	/* the slice sits at the start of the span */
	struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
	if (b) {
		ssd_scn_job(b, "seq-write", SSD_RW_WRITE, 128 << 10,
			    (uint32_t)qd)->size = slice;
		struct ssd_job *j = ssd_scn_job(b, "seq-read", SSD_RW_READ,
						128 << 10, (uint32_t)qd);
		j->stonewall = 1;
		j->size = slice;
		j = ssd_scn_job(b, "rand-write", SSD_RW_RANDWRITE, 4096,
				(uint32_t)qd);
		j->stonewall = 1;
		j->norandommap = 1;
		j->time_based = 1;
		j->runtime = secs_ns;
	}
	int rc = ssd_scn_run(s, dev, b, NULL, &res);
	if (rc)
		return rc;
	p->write_mbps = mbps(&res.jobs[0], SSD_DDIR_WRITE);
	p->read_mbps = mbps(&res.jobs[1], SSD_DDIR_READ);
	const struct ssd_job_result *r = &res.jobs[2];
	p->iops = r->runtime_ns > 0
		? (double)r->dir[SSD_DDIR_WRITE].ios * 1e9 / (double)r->runtime_ns : 0;
	p->waf = ssd_counters_waf(&r->ctr);
	ssd_run_result_free(&res);
	return 0;
}

static int run(struct ssd_scn *s)
{
	uint64_t load = ssd_scn_size(s, "load", 4096);
	uint64_t slice = ssd_scn_size(s, "slice", 128 * 1024);
	int64_t idle = ssd_scn_time(s, "idle"), secs = ssd_scn_time(s, "probe");
	int64_t load_time = ssd_scn_time(s, "load_time");
	uint64_t loaded = 0; /* bytes the load wrote */
	int timed = 0;       /* load_time ended it */
	int qd = (int)ssd_scn_int(s, "iodepth");
	const char *bad = NULL;
	if (!slice || slice > ssd_config_volume(&s->cfg))
		bad = "slice must be 128k up to the capacity";
	else if (secs <= 0)
		bad = "probe must be more than 0";
	else if (idle < 0)
		bad = "idle must not be negative";
	if (bad) {
		snprintf(s->err, sizeof s->err, "gc-states: %s", bad);
		return SSD_ERANGE;
	}
	struct ssd_dev *dev = ssd_scn_drive(s, NULL, 0);
	if (!dev)
		return SSD_EINVAL;
	static const char *names[] = {"clean", "after load", "after idle",
				      "after TRIM"};
	static const char *keys[] = {"clean", "after_load", "after_idle",
				     "after_trim"};
	struct probe p[4];
	/* the states measured: without TRIM there is no state 4 */
	int ns = ssd_config_has_trim(&s->cfg) ? 4 : 3;
	struct ssd_run_result res;
	int rc = probe(s, dev, slice, secs, qd, &p[0]);
	/* the load: fill, then random writes without TRIM */
	if (!rc) {
		struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
		if (b) {
			ssd_scn_job(b, "fill", SSD_RW_WRITE, 128 << 10,
				    (uint32_t)qd);
			struct ssd_job *j = ssd_scn_job(b, "load",
				SSD_RW_RANDWRITE, 4096, (uint32_t)qd);
			j->stonewall = 1;
			j->norandommap = 1;
			j->io_size = load;
			j->runtime = load_time; /* whichever comes first */
		}
		rc = ssd_scn_run(s, dev, b, NULL, &res);
	}
	if (!rc) {
		if (res.njobs > 1) {
			loaded = res.jobs[1].dir[SSD_DDIR_WRITE].bytes;
			timed = loaded < load && load_time > 0 &&
				res.jobs[1].runtime_ns >= load_time;
		}
		ssd_run_result_free(&res);
		rc = probe(s, dev, slice, secs, qd, &p[1]);
	}
	if (!rc) {
		int64_t now = ssd_dev_time(dev);
		ssd_dev_idle(dev, now + idle);
		rc = probe(s, dev, slice, secs, qd, &p[2]);
	}
	if (!rc && ns == 4) {
		struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
		if (b)
			ssd_scn_job(b, "trim-all", SSD_RW_TRIM, 1 << 20,
				    (uint32_t)qd);
		rc = ssd_scn_run(s, dev, b, NULL, &res);
	}
	if (!rc && ns == 4) {
		ssd_run_result_free(&res);
		rc = probe(s, dev, slice, secs, qd, &p[3]);
	}
	struct ssd_health h;
	ssd_dev_health(dev, &h);
	ssd_dev_destroy(dev);
	if (rc)
		return rc;
	FILE *f = ssd_scn_file(s, "gc-states.csv");
	if (!f)
		return SSD_EIO;
	fprintf(f, "state,rand_write_iops,seq_write_mbps,seq_read_mbps\n");
	for (int i = 0; i < ns; i++)
		fprintf(f, "\"%s\",%.1f,%.2f,%.2f\n", names[i], p[i].iops,
			p[i].write_mbps, p[i].read_mbps);
	if (ssd_scn_close(s, f))
		return SSD_EIO;
	const char *body =
		"set style data histograms\nset style histogram clustered gap 1\n"
		"set style fill solid 0.85 border -1\nset boxwidth 0.9\n"
		"set yrange [0:*]\nset ylabel '4 KiB random write, IOPS'\n"
		"set y2label 'sequential, MB/s'\nset y2range [0:*]\nset ytics nomirror\n"
		"set y2tics\nset key outside bottom center horizontal\n"
		"plot 'gc-states.csv' skip 1 using 2:xtic(1) title 'random write IOPS (left)' lc rgb '#1f5fbf', \\\n"
		"     '' skip 1 using 3 axes x1y2 title 'sequential write MB/s (right)' lc rgb '#d95f02', \\\n"
		"     '' skip 1 using 4 axes x1y2 title 'sequential read MB/s (right)' lc rgb '#1b9e77'";
	int prc = ssd_scn_plot(s, "gc-states", "Garbage-collection states", body);
	if (prc)
		return prc;
	char ls[32];
	fprintf(s->out, "gc-states on %s (load %s of 4 KiB random writes%s, "
		"idle %.0f s)\n", s->cfg.name, ssd_fmt_bytes(loaded, ls, sizeof ls),
		timed ? ", ended by load_time" : "", idle / 1e9);
	ssd_scn_json_num(s, "load_bytes", (double)loaded);
	ssd_scn_json_str(s, "load_ended_by", timed ? "load_time" : "load");
	fprintf(s->out, "  %-12s %12s %14s %13s\n", "state", "rand IOPS",
		"seq write MB/s", "seq read MB/s");
	for (int i = 0; i < ns; i++) {
		fprintf(s->out, "  %-12s %12.0f %14.1f %13.1f\n", names[i],
			p[i].iops, p[i].write_mbps, p[i].read_mbps);
		ssd_scn_json_open(s, keys[i], 0);
		ssd_scn_json_num(s, "rand_write_iops", p[i].iops);
		ssd_scn_json_num(s, "seq_write_mbps", p[i].write_mbps);
		ssd_scn_json_num(s, "seq_read_mbps", p[i].read_mbps);
		ssd_scn_json_num(s, "rand_write_waf", p[i].waf);
		ssd_scn_json_close(s, 0);
	}
	if (ns < 4) {
		char why[160];
		snprintf(why, sizeof why, "skipped: drive '%s' has no TRIM "
			 "(trim = no)", s->cfg.name);
		fprintf(s->out, "  %-12s %s\n", names[3], why);
		ssd_scn_json_open(s, keys[3], 0);
		ssd_scn_json_str(s, "skipped", why + 9);
		ssd_scn_json_close(s, 0);
	}
	ssd_scn_json_num(s, "bad_blocks", (double)h.bad_blocks);
	fprintf(s->out, "  data and plots %s/gc-states.{csv,png,svg}\n", s->outdir);
	return 0;
}

const struct ssd_scenario ssd_scn_gc_states = {
	.name = "gc-states",
	.summary = "random-write IOPS and sequential MB/s clean, after a load "
		   "without TRIM, after idle, after TRIM of the whole span",
	.params = params,
	.run = run,
	.needs_trim = SSD_SCN_TRIM_PHASE,
};
