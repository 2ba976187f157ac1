/*
 * scn_workload_switch.c -- the THG method (seed 002): how a drive's
 * sequential speed suffers when the workload switches to IOmeter's server
 * patterns, and whether it recovers once they stop.
 *
 *   cycles 1-3: a sequential pass (read, then write), then the IOmeter
 *               file server, database, web server and workstation patterns;
 *   cycles 4-6: the sequential pass alone.
 *
 * The drive is filled once before cycle 1, sequentially, to `fill` of the
 * span (THG's drives "were not filled to the brim"); the rest of the span
 * is never written, so it acts as extra spare area.  Every later access --
 * the passes and the patterns -- stays inside that data, the test file:
 * reading never-written LBAs would return zeros without touching the flash,
 * and writing them would fill the drive to the brim.
 *
 * Sequential pass, as h2benchw measures a disk: the data is cut into
 * `zones` equal zones and the first `sample` share of each zone is read
 * (one stream, `seq_bs` requests at `seq_iodepth`), zone by zone, then
 * written the same way (the write pass rewrites data in place, so the
 * drive stays as full).  Each zone gives one speed; the pass reports the
 * minimum, the mean over the zones and the maximum, for read and for
 * write.  Every pass samples the same part of each zone: a write pass
 * lays that part out sequentially again, so the next read pass sees it
 * repaired, while the rest of the data stays as the patterns left it and
 * the writes keep meeting blocks that need garbage collection.
 *
 * IOmeter patterns, `pattern_time` of simulated time each (default 30 s:
 * long enough for the patterns' random writes, a few GB on the default
 * drive, to use up the free blocks so that the drive must collect garbage,
 * as THG's drives did after their long IOmeter runs; a few seconds are
 * absorbed by free space and change nothing) at queue depth `iodepth`
 * (default 32: THG's IOPS -- web server 11,154 IOPS at a mean request of
 * ~16 KB, about 175 MB/s from an X25-M -- are reachable only with many
 * commands outstanding; 32 is what NCQ allows):
 *   file server  bssplit 512/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10,
 *                80% read, 75% random
 *   database     8 KiB, 67% read, 100% random
 *   web server   bssplit 512/22:1k/15:2k/8:4k/23:8k/15:16k/2:32k/6:64k/7:
 *                128k/1:512k/1, 100% read, 100% random
 *   workstation  8 KiB, 80% read, 80% random
 * Random offsets are drawn with replacement and aligned to the request
 * size, as IOmeter draws them.
 *
 * "75% random" has no fio option (ssdlab refuses percentage_random), so a
 * partly random pattern runs as two jobs side by side in one stonewall
 * group: a random job (randrw) and a sequential one (rw, same read share
 * and sizes) starting at the data's start, with the queue depth split in
 * proportion (QD32 at 75%: 24 random + 8 sequential slots).  Each slot
 * issues its next I/O when the last completes, so the share of I/Os
 * follows the slots only as far as random and sequential I/Os take equally
 * long; the share actually achieved is measured and reported
 * (random_share_pct).  Two differences from IOmeter remain: IOmeter
 * decides per I/O, so its sequential I/Os continue right after the
 * previous (usually random) one -- short runs -- while here they form one
 * long stream; and the drive maps 4 KiB pages, so a 512 B..2 KiB read
 * costs a whole page and a write that small is a read-modify-write of
 * it.  IOPS and MB/s are the group's I/Os and bytes over its measured
 * time.
 *
 * No idle time is given between steps: background GC gets no chance, so
 * what recovers in cycles 4-6 is what the sequential writes repair.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "methods/scenario.h"
#include "run/sim.h"

#define MAX_CYCLES 32
#define MAX_ZONES 4096

static const struct ssd_scn_param params[] = {
	{.name = "span", .def = "100%", .unit = "size or % of capacity",
	 .help = "Region of the drive the test may use, from its start."},
	{.name = "fill", .def = "0.9", .unit = "fraction of the span",
	 .help = "Share of the span filled before cycle 1; every test stays inside it.",
	 .lo = 0, .hi = 1, .open = SSD_SCN_ABOVE_LO},
	{.name = "zones", .def = "64", .unit = "number",
	 .help = "Zones of the sequential pass.",
	 .whole = 1, .lo = 1, .hi = MAX_ZONES},
	{.name = "sample", .def = "0.25", .unit = "fraction of a zone",
	 .help = "Share of each zone (from its start) that the pass reads and writes.",
	 .lo = 0, .hi = 1, .open = SSD_SCN_ABOVE_LO},
	{.name = "seq_bs", .def = "128k", .unit = "size",
	 .help = "Request size of the sequential pass."},
	{.name = "seq_iodepth", .def = "1", .unit = "number",
	 .help = "Queue depth of the sequential pass (one stream).",
	 .whole = 1, .lo = 1, .hi = 65536},
	{.name = "pattern_time", .def = "30", .unit = "time",
	 .help = "Simulated length of each IOmeter pattern run."},
	{.name = "iodepth", .def = "32", .unit = "number",
	 .help = "Queue depth of the IOmeter patterns.",
	 .whole = 1, .lo = 2, .hi = 65536},
	{.name = "cycles", .def = "6", .unit = "number",
	 .help = "Cycles in all.",
	 .whole = 1, .lo = 1, .hi = MAX_CYCLES},
	{.name = "io_cycles", .def = "3", .unit = "number",
	 .help = "The first cycles that run the IOmeter patterns.",
	 .whole = 1, .lo = 0, .hi = MAX_CYCLES},
	{.name = NULL},
};

#define NPAT 4
static const struct {
	const char *name, *key, *color;
	const char *size_key, *size; /* "bs" or "bssplit" and its value */
	int read_pct, random_pct;
} pat[NPAT] = {
	{"file server", "file_server", "#1f5fbf",
	 "bssplit", "512/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10", 80, 75},
	{"database", "database", "#d95f02", "bs", "8k", 67, 100},
	{"web server", "web_server", "#1b9e77",
	 "bssplit",
	 "512/22:1k/15:2k/8:4k/23:8k/15:16k/2:32k/6:64k/7:128k/1:512k/1",
	 100, 100},
	{"workstation", "workstation", "#7570b3", "bs", "8k", 80, 80},
};

struct pass {
	double rmin, ravg, rmax, wmin, wavg, wmax;
	double frag;    /* mean physically consecutive run before the read
	                   pass, 4 KiB pages (ssd_dev_frag_run) */
};

struct pattern_result {
	double iops, mbps, lat_mean_us, random_share_pct, waf;
	int qd_random, qd_seq;
};

static double rate_mbps(const struct ssd_job_result *j, int ddir)
{
	return j->runtime_ns > 0
		? (double)j->dir[ddir].bytes * 1e3 / (double)j->runtime_ns : 0;
}

/* One direction of the sequential pass: a run per zone (zone by zone, as
 * h2benchw); speeds into mbps[zones]. */
static int pass_dir(struct ssd_scn *s, struct ssd_dev *dev, int write,
		    int zones, uint64_t zone, uint64_t sample, uint64_t bs,
		    int qd, double *mbps)
{
	for (int z = 0; z < zones; z++) {
		struct ssd_run_result res;
		struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
		if (b) {
			char name[32];
			snprintf(name, sizeof name, "%s-zone-%d",
				 write ? "write" : "read", z);
			struct ssd_job *j = ssd_scn_job(b, name,
				write ? SSD_RW_WRITE : SSD_RW_READ,
				(uint32_t)bs, (uint32_t)qd);
			j->offset = zone * (uint64_t)z;
			j->size = sample;
		}
		int rc = ssd_scn_run(s, dev, b, NULL, &res);
		if (rc)
			return rc;
		mbps[z] = rate_mbps(&res.jobs[0], write ? SSD_DDIR_WRITE : SSD_DDIR_READ);
		ssd_run_result_free(&res);
	}
	return 0;
}

static void min_avg_max(const double *v, int n, double *lo, double *avg,
			double *hi)
{
	*lo = n ? v[0] : 0;
	*hi = *lo;
	*avg = 0;
	for (int i = 0; i < n; i++) {
		*lo = fmin(*lo, v[i]);
		*hi = fmax(*hi, v[i]);
		*avg += v[i] / n;
	}
}

/* One IOmeter pattern on [0, data): a random job and, when the pattern is
 * partly sequential, a sequential job beside it. */
static int pattern(struct ssd_scn *s, struct ssd_dev *dev, int p,
		   uint64_t data, int64_t secs, int qd, struct pattern_result *r)
{
	int rnd = pat[p].random_pct;
	int qr = rnd >= 100 ? qd : (int)lround((double)qd * rnd / 100);
	if (rnd < 100) {
		qr = qr < 1 ? 1 : qr > qd - 1 ? qd - 1 : qr;
	}
	int qs = qd - qr;
	int rw_rand = pat[p].read_pct >= 100 ? SSD_RW_RANDREAD : SSD_RW_RANDRW;
	int rw_seq = pat[p].read_pct >= 100 ? SSD_RW_READ : SSD_RW_READWRITE;
	struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
	for (int k = 0; b && k < (qs > 0 ? 2 : 1); k++) {
		char name[64];
		snprintf(name, sizeof name, "%s-%s", pat[p].key,
			 k ? "sequential" : "random");
		struct ssd_job *j = ssd_jobs_add(b, name);
		j->stonewall = !k;
		j->rw = k ? rw_seq : rw_rand;
		j->rwmixread = (uint32_t)pat[p].read_pct;
		ssd_jobs_set(b, pat[p].size_key, pat[p].size);
		j->norandommap = !k;
		j->iodepth = (uint32_t)(k ? qs : qr);
		j->size = data;
		j->time_based = 1;
		j->runtime = secs;
	}
	struct ssd_run_result res;
	int rc = ssd_scn_run(s, dev, b, NULL, &res);
	if (rc)
		return rc;
	uint64_t ios = 0, bytes = 0, rios = 0, hw = 0, np = 0;
	int64_t t = 0;
	struct ssd_moments lat = {0};
	for (int i = 0; i < res.njobs; i++) {
		const struct ssd_job_result *j = &res.jobs[i];
		uint64_t n = 0;
		for (int d = SSD_DDIR_READ; d <= SSD_DDIR_WRITE; d++) {
			n += j->dir[d].ios;
			bytes += j->dir[d].bytes;
			ssd_moments_merge(&lat, &j->dir[d].lat);
		}
		ios += n;
		if (i == 0)
			rios = n;
		if (j->runtime_ns > t)
			t = j->runtime_ns;
	}
	/* both jobs cover the same window: the drive's counters of one */
	hw = res.jobs[0].ctr.host_write_lp;
	np = res.jobs[0].ctr.nand_prog_lp;
	r->iops = t > 0 ? (double)ios * 1e9 / (double)t : 0;
	r->mbps = t > 0 ? (double)bytes * 1e3 / (double)t : 0;
	r->lat_mean_us = ssd_moments_mean(&lat) / 1e3;
	r->random_share_pct = ios ? 100.0 * (double)rios / (double)ios : 0;
	r->waf = hw ? (double)np / (double)hw : 0;
	r->qd_random = qr;
	r->qd_seq = qs;
	ssd_run_result_free(&res);
	return 0;
}

static int write_files(struct ssd_scn *s, int cycles, int io_cycles,
		       int zones, uint64_t zone, const struct pass *ps,
		       double (*zr)[MAX_ZONES], double (*zw)[MAX_ZONES],
		       struct pattern_result (*pr)[NPAT])
{
	FILE *f = ssd_scn_file(s, "workload-switch.csv");
	if (!f)
		return SSD_EIO;
	fprintf(f, "cycle,read_min_mbps,read_avg_mbps,read_max_mbps,"
		   "write_min_mbps,write_avg_mbps,write_max_mbps,frag_run_pages");
	for (int p = 0; p < NPAT; p++)
		fprintf(f, ",%s_iops", pat[p].key);
	fputc('\n', f);
	for (int c = 0; c < cycles; c++) {
		fprintf(f, "\"cycle %d%s\",%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f", c + 1,
			c < io_cycles ? " +IOmeter" : "", ps[c].rmin, ps[c].ravg,
			ps[c].rmax, ps[c].wmin, ps[c].wavg, ps[c].wmax, ps[c].frag);
		for (int p = 0; p < NPAT; p++) {
			if (c < io_cycles)
				fprintf(f, ",%.1f", pr[c][p].iops);
			else
				fputs(",", f);
		}
		fputc('\n', f);
	}
	if (ssd_scn_close(s, f))
		return SSD_EIO;
	if (io_cycles > 0) {
		if (!(f = ssd_scn_file(s, "workload-switch-iops.csv")))
			return SSD_EIO;
		fprintf(f, "pattern");
		for (int c = 0; c < io_cycles; c++)
			fprintf(f, ",cycle_%d_iops", c + 1);
		fputc('\n', f);
		for (int p = 0; p < NPAT; p++) {
			fprintf(f, "\"%s\"", pat[p].name);
			for (int c = 0; c < io_cycles; c++)
				fprintf(f, ",%.1f", pr[c][p].iops);
			fputc('\n', f);
		}
		if (ssd_scn_close(s, f))
			return SSD_EIO;
	}
	if (!(f = ssd_scn_file(s, "workload-switch-zones.csv")))
		return SSD_EIO;
	fprintf(f, "zone,start_gb");
	for (int c = 0; c < cycles; c++)
		fprintf(f, ",read_mbps_cycle_%d", c + 1);
	for (int c = 0; c < cycles; c++)
		fprintf(f, ",write_mbps_cycle_%d", c + 1);
	fputc('\n', f);
	for (int z = 0; z < zones; z++) {
		fprintf(f, "%d,%.4f", z, (double)zone * z / 1e9);
		for (int c = 0; c < cycles; c++)
			fprintf(f, ",%.2f", zr[c][z]);
		for (int c = 0; c < cycles; c++)
			fprintf(f, ",%.2f", zw[c][z]);
		fputc('\n', f);
	}
	return ssd_scn_close(s, f);
}

/* Bar charts get 10% of headroom above the tallest bar (gnuplot's
 * autoscale would end the axis at the bar's top). */
static int plots(struct ssd_scn *s, int cycles, int io_cycles, uint64_t bs,
		 int seq_qd, int qd, int64_t secs, double data_gb,
		 double mbps_top, double iops_top)
{
	char body[4096];
	snprintf(body, sizeof body,
		 "set style data histograms\nset style histogram clustered gap 1\n"
		 "set style fill solid 0.85 border -1\nset boxwidth 0.9\n"
		 "set yrange [0:%g]\nset ylabel 'sequential pass, MB/s (%llu KiB, QD%d)'\n"
		 "set xlabel 'cycle (+IOmeter: followed by the four IOmeter patterns)'\n"
		 "plot 'workload-switch.csv' skip 1 using 2:xtic(1) title 'read min' lc rgb '#9ecae1', \\\n"
		 "     '' skip 1 using 3 title 'read avg' lc rgb '#4292c6', \\\n"
		 "     '' skip 1 using 4 title 'read max' lc rgb '#08519c', \\\n"
		 "     '' skip 1 using 5 title 'write min' lc rgb '#fdae6b', \\\n"
		 "     '' skip 1 using 6 title 'write avg' lc rgb '#f16913', \\\n"
		 "     '' skip 1 using 7 title 'write max' lc rgb '#a63603'",
		 1.1 * mbps_top + 1, (unsigned long long)(bs / 1024), seq_qd);
	int rc = ssd_scn_plot(s, "workload-switch",
			      "Workload switch: sequential read and write per cycle", body);
	if (rc)
		return rc;
	if (io_cycles > 0) {
		static const char *col[] = {"#c6dbef", "#6baed6", "#2171b5", "#08306b"};
		int n = snprintf(body, sizeof body,
				 "set style data histograms\nset style histogram clustered gap 1\n"
				 "set style fill solid 0.85 border -1\nset boxwidth 0.9\n"
				 "set yrange [0:%g]\nset ylabel 'IOPS (QD%d, %.3g s each)'\n"
				 "set xlabel 'IOmeter pattern'\nplot ",
				 1.1 * iops_top + 1, qd, secs / 1e9);
		for (int c = 0; c < io_cycles && n > 0 && (size_t)n < sizeof body; c++)
			n += snprintf(body + n, sizeof body - (size_t)n,
				      "%s'workload-switch-iops.csv' skip 1 using %d%s "
				      "title 'cycle %d' lc rgb '%s'",
				      c ? ", \\\n     " : "", c + 2, c ? "" : ":xtic(1)",
				      c + 1, col[c % 4]);
		if (n < 0 || (size_t)n >= sizeof body)
			return SSD_ERANGE;
		rc = ssd_scn_plot(s, "workload-switch-iops",
				  "Workload switch: IOmeter patterns per cycle", body);
		if (rc)
			return rc;
	}
	static const char *cc[] = {"#1f5fbf", "#d95f02", "#1b9e77", "#7570b3",
				   "#e7298a", "#66a61e", "#a6761d", "#666666"};
	for (int w = 0; w < 2; w++) {
		int n = snprintf(body, sizeof body,
				 "set xlabel 'position of the zone, GB from the start'\n"
				 "set ylabel 'sequential %s, MB/s'\nset yrange [0:*]\n"
				 "set xrange [0:%g]\nplot ", w ? "write" : "read", data_gb);
		for (int c = 0; c < cycles && n > 0 && (size_t)n < sizeof body; c++)
			n += snprintf(body + n, sizeof body - (size_t)n,
				      "%s'workload-switch-zones.csv' skip 1 using 2:%d with "
				      "linespoints lw 1.5 pt 7 ps 0.4 lc rgb '%s' title 'cycle %d%s'",
				      c ? ", \\\n     " : "", 3 + c + w * cycles,
				      cc[c % 8], c + 1, c < io_cycles ? " (before IOmeter)" : "");
		if (n < 0 || (size_t)n >= sizeof body)
			return SSD_ERANGE;
		rc = ssd_scn_plot(s, w ? "workload-switch-zones-write" : "workload-switch-zones-read",
				  w ? "Workload switch: sequential write per zone"
				    : "Workload switch: sequential read per zone", body);
		if (rc)
			return rc;
	}
	return 0;
}

static int run(struct ssd_scn *s)
{
	uint64_t span = ssd_scn_size(s, "span", 4096);
	double fill = ssd_scn_num(s, "fill"), share = ssd_scn_num(s, "sample");
	uint64_t bs = ssd_scn_size(s, "seq_bs", 4096);
	int seq_qd = (int)ssd_scn_int(s, "seq_iodepth");
	int qd = (int)ssd_scn_int(s, "iodepth");
	int64_t secs = ssd_scn_time(s, "pattern_time");
	int zones = (int)ssd_scn_int(s, "zones"), cycles = (int)ssd_scn_int(s, "cycles");
	int io_cycles = (int)ssd_scn_int(s, "io_cycles");
	uint64_t data = (uint64_t)((double)span * fill);
	data -= data % 4096;
	uint64_t zone = zones > 0 ? data / (uint64_t)zones : 0;
	zone -= zone % 4096;
	uint64_t sample = (uint64_t)((double)zone * share);
	sample -= sample % 4096;
	char bad[200] = "";
	if (!span || span > ssd_config_volume(&s->cfg))
		snprintf(bad, sizeof bad, "span %s is not 4k up to the capacity",
			 ssd_scn_str(s, "span"));
	else if (!bs)
		snprintf(bad, sizeof bad, "seq_bs must be at least 4k");
	else if (secs <= 0)
		snprintf(bad, sizeof bad, "pattern_time must be more than 0");
	else if (io_cycles > cycles)
		snprintf(bad, sizeof bad, "io_cycles %d is more than cycles %d",
			 io_cycles, cycles);
	else if (!sample || bs > sample)
		snprintf(bad, sizeof bad, "seq_bs %s is more than a zone's sample "
			 "(%llu bytes: span x fill / zones x sample, in 4 KiB multiples)",
			 ssd_scn_str(s, "seq_bs"), (unsigned long long)sample);
	if (bad[0]) {
		snprintf(s->err, sizeof s->err, "workload-switch: %s", bad);
		return SSD_ERANGE;
	}
	struct pass ps[MAX_CYCLES] = {{0}};
	struct pattern_result pr[MAX_CYCLES][NPAT];
	double (*zr)[MAX_ZONES] = calloc((size_t)cycles, sizeof *zr);
	double (*zw)[MAX_ZONES] = calloc((size_t)cycles, sizeof *zw);
	memset(pr, 0, sizeof pr);
	struct ssd_dev *dev = zr && zw ? ssd_scn_drive(s, NULL, 0) : NULL;
	if (!dev) {
		free(zr);
		free(zw);
		return zr && zw ? SSD_EINVAL : SSD_ENOMEM;
	}
	struct ssd_run_result res;
	struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
	if (b)
		ssd_scn_job(b, "fill", SSD_RW_WRITE, 1 << 20, 32)->size = data;
	int rc = ssd_scn_run(s, dev, b, NULL, &res);
	double fill_mbps = 0;
	if (!rc) {
		fill_mbps = rate_mbps(&res.jobs[0], SSD_DDIR_WRITE);
		ssd_run_result_free(&res);
	}
	struct ssd_counters c0 = *ssd_dev_counters(dev);
	for (int c = 0; c < cycles && !rc; c++) {
		ps[c].frag = ssd_dev_frag_run(dev);
		rc = pass_dir(s, dev, 0, zones, zone, sample, bs, seq_qd, zr[c]);
		if (!rc)
			rc = pass_dir(s, dev, 1, zones, zone, sample, bs, seq_qd, zw[c]);
		if (rc)
			break;
		min_avg_max(zr[c], zones, &ps[c].rmin, &ps[c].ravg, &ps[c].rmax);
		min_avg_max(zw[c], zones, &ps[c].wmin, &ps[c].wavg, &ps[c].wmax);
		for (int p = 0; p < NPAT && c < io_cycles && !rc; p++)
			rc = pattern(s, dev, p, data, secs, qd, &pr[c][p]);
	}
	struct ssd_counters dc;
	ssd_counters_sub(&dc, ssd_dev_counters(dev), &c0);
	int64_t sim_end = ssd_dev_time(dev);
	ssd_dev_destroy(dev);
	if (!rc)
		rc = write_files(s, cycles, io_cycles, zones, zone, ps, zr, zw, pr);
	if (rc == SSD_EIO && !s->err[0])
		snprintf(s->err, sizeof s->err, "cannot write the CSV files in %s", s->outdir);
	double mbps_top = 0, iops_top = 0;
	for (int c = 0; c < cycles; c++) {
		mbps_top = fmax(mbps_top, fmax(ps[c].rmax, ps[c].wmax));
		for (int p = 0; p < NPAT && c < io_cycles; p++)
			iops_top = fmax(iops_top, pr[c][p].iops);
	}
	if (!rc)
		rc = plots(s, cycles, io_cycles, bs, seq_qd, qd, secs,
			   (double)data / 1e9, mbps_top, iops_top);
	if (rc)
		goto out;

	/* result.json */
	double rworst = ps[0].ravg, wworst = ps[0].wavg;
	for (int c = 0; c < cycles; c++) {
		rworst = fmin(rworst, ps[c].ravg);
		wworst = fmin(wworst, ps[c].wavg);
	}
	ssd_scn_json_num(s, "data_bytes", (double)data);
	ssd_scn_json_num(s, "zone_bytes", (double)zone);
	ssd_scn_json_num(s, "sample_bytes", (double)sample);
	ssd_scn_json_num(s, "fill_mbps", fill_mbps);
	ssd_scn_json_num(s, "read_avg_first_mbps", ps[0].ravg);
	ssd_scn_json_num(s, "read_avg_worst_mbps", rworst);
	ssd_scn_json_num(s, "read_avg_last_mbps", ps[cycles - 1].ravg);
	ssd_scn_json_num(s, "write_avg_first_mbps", ps[0].wavg);
	ssd_scn_json_num(s, "write_avg_worst_mbps", wworst);
	ssd_scn_json_num(s, "write_avg_last_mbps", ps[cycles - 1].wavg);
	ssd_scn_json_open(s, "cycles", 1);
	for (int c = 0; c < cycles; c++) {
		ssd_scn_json_open(s, NULL, 0);
		ssd_scn_json_int(s, "cycle", c + 1);
		ssd_scn_json_num(s, "frag_run_pages", ps[c].frag);
		ssd_scn_json_open(s, "read_mbps", 0);
		ssd_scn_json_num(s, "min", ps[c].rmin);
		ssd_scn_json_num(s, "avg", ps[c].ravg);
		ssd_scn_json_num(s, "max", ps[c].rmax);
		ssd_scn_json_close(s, 0);
		ssd_scn_json_open(s, "write_mbps", 0);
		ssd_scn_json_num(s, "min", ps[c].wmin);
		ssd_scn_json_num(s, "avg", ps[c].wavg);
		ssd_scn_json_num(s, "max", ps[c].wmax);
		ssd_scn_json_close(s, 0);
		if (c < io_cycles) {
			ssd_scn_json_open(s, "patterns", 0);
			for (int p = 0; p < NPAT; p++) {
				const struct pattern_result *r = &pr[c][p];
				ssd_scn_json_open(s, pat[p].key, 0);
				ssd_scn_json_num(s, "iops", r->iops);
				ssd_scn_json_num(s, "mbps", r->mbps);
				ssd_scn_json_num(s, "lat_mean_us", r->lat_mean_us);
				ssd_scn_json_num(s, "random_share_pct", r->random_share_pct);
				ssd_scn_json_int(s, "iodepth_random", r->qd_random);
				ssd_scn_json_int(s, "iodepth_sequential", r->qd_seq);
				ssd_scn_json_num(s, "waf", r->waf);
				ssd_scn_json_close(s, 0);
			}
			ssd_scn_json_close(s, 0);
		}
		ssd_scn_json_open(s, "read_zones_mbps", 1);
		for (int z = 0; z < zones; z++)
			ssd_scn_json_num(s, NULL, zr[c][z]);
		ssd_scn_json_close(s, 1);
		ssd_scn_json_open(s, "write_zones_mbps", 1);
		for (int z = 0; z < zones; z++)
			ssd_scn_json_num(s, NULL, zw[c][z]);
		ssd_scn_json_close(s, 1);
		ssd_scn_json_close(s, 0);
	}
	ssd_scn_json_close(s, 1);
	ssd_scn_json_num(s, "waf", ssd_counters_waf(&dc));
	ssd_scn_json_num(s, "simulated_seconds", sim_end / 1e9);

	/* the summary */
	char hd[32], hz[32];
	fprintf(s->out, "workload-switch on %s: %s of data (%.0f%% of the span), "
		"%d zone%s, the first %s of each sampled\n", s->cfg.name,
		ssd_fmt_bytes(data, hd, sizeof hd), 100 * fill, zones,
		ssd_plural((uint64_t)zones),
		ssd_fmt_bytes(sample, hz, sizeof hz));
	fprintf(s->out, "  sequential pass %llu KiB at QD%d; IOmeter patterns %.3g s "
		"each at QD%d in cycles 1-%d\n", (unsigned long long)(bs / 1024),
		seq_qd, secs / 1e9, qd, io_cycles);
	fprintf(s->out, "  %-10s %22s %22s %5s", "cycle", "read MB/s min/avg/max",
		"write MB/s min/avg/max", "run");
	if (io_cycles)
		fprintf(s->out, "  IOPS: %11s %9s %10s %11s", "file server",
			"database", "web server", "workstation");
	fputc('\n', s->out);
	for (int c = 0; c < cycles; c++) {
		char rd[48], wr[48], name[32];
		snprintf(rd, sizeof rd, "%.0f/%.0f/%.0f", ps[c].rmin, ps[c].ravg, ps[c].rmax);
		snprintf(wr, sizeof wr, "%.0f/%.0f/%.0f", ps[c].wmin, ps[c].wavg, ps[c].wmax);
		snprintf(name, sizeof name, "%d%s", c + 1, c < io_cycles ? " +IOmeter" : "");
		fprintf(s->out, "  %-10s %22s %22s %5.1f", name, rd, wr, ps[c].frag);
		if (c < io_cycles)
			fprintf(s->out, "        %11.0f %9.0f %10.0f %11.0f", pr[c][0].iops,
				pr[c][1].iops, pr[c][2].iops, pr[c][3].iops);
		fputc('\n', s->out);
	}
	if (io_cycles) {
		fprintf(s->out, "  random share achieved (cycle 1):");
		for (int p = 0; p < NPAT; p++)
			fprintf(s->out, " %s %.0f%% (QD %d+%d)%s", pat[p].name,
				pr[0][p].random_share_pct, pr[0][p].qd_random,
				pr[0][p].qd_seq, p < NPAT - 1 ? "," : "\n");
	}
	fprintf(s->out, "  run: mean physically consecutive run before the read pass, 4 KiB "
		"pages (32: as written sequentially, 1: every page alone)\n");
	fprintf(s->out, "  data and plots %s/workload-switch*.{csv,png,svg}\n", s->outdir);
out:
	free(zr);
	free(zw);
	return rc;
}

const struct ssd_scenario ssd_scn_workload_switch = {
	.name = "workload-switch",
	.summary = "THG's workload switch: sequential passes (min/avg/max MB/s) "
		   "around IOmeter file server, database, web server, workstation",
	.params = params,
	.run = run,
};
