/*
 * scn_torture.c -- seed 004's torture (Samsung 470: firmware updates and
 * TRIM), run twice on a fresh drive: once with TRIM, once without.
 *   1. sanitize: a fresh drive; create and format a volume;
 *   2. the application-load benchmark: "fresh";
 *   3. delete the volume; the IOmeter database pattern on the raw drive:
 *      8 KiB, 67% read, 100% random over the whole span, at QD 1, 2, 4,
 *      8, 16 and 32 in turn -- 30 min each, 3 hours in all, in the
 *      review; here `db_time` in all (default 6 min: a scaled torture
 *      that keeps the run short; set db_time=3h for the review's).  On
 *      the default drive 6 min write about 80% of the capacity in 8 KiB
 *      pieces scattered over the span: the drive ends nearly full of
 *      fragmented data, if not yet in steady state (the summary says how
 *      much was written).  Reads of LBAs not yet written cost no NAND, so
 *      on a fresh drive the pattern's IOPS fall as it writes, whatever
 *      the queue depth;
 *   4. create a volume; copy about a million files of realistic sizes
 *      onto it, to 80% of the capacity; delete them;
 *   5. the benchmark: "tortured";
 *   6. 30 minutes idle; the benchmark: "after 30 minutes idle".
 * The review's point: with TRIM the drive learns that the deleted files
 * are dead and recovers; without it the drive keeps every stale page and
 * never learns.
 *
 * TRIM on or off.  With TRIM, creating a volume TRIMs all of it (Windows
 * 7's format does so on a TRIM-capable drive) and deleting a file TRIMs
 * its extent; without, neither sends anything.  The fresh runs are the
 * same either way: nothing has been deleted yet.
 *
 * The files.  `files` files holding `fill` bytes (default: the review's
 * density, a million files per 200 GB of data -- 200 kB on average --
 * scaled to the drive), sizes lognormal (sigma 2; fileset.h), each a
 * contiguous extent; the free space lies between them as random gaps;
 * copied in a random order in 1 MiB requests, 4 in flight; deleted in the
 * same order, one TRIM per file.
 *
 * The application-load benchmark, a stand-in for PCMark Vantage's
 * application-loading trace (which replays program launches through a
 * file system; ssdlab has none, so this is a definition, not a replay):
 *   install  the benchmark's data set, `app_size` at the start of the span
 *            (where a new volume puts its first files), written
 *            sequentially in 1 MiB requests at QD4; not measured;
 *   load     three streams side by side over the data set, moving
 *            `app_io` bytes in all:
 *              60%  random reads, 4-256 KiB (4k/35 16k/20 32k/15 64k/15
 *                   128k/10 256k/5 percent of requests), QD2;
 *              25%  sequential reads, 256 KiB, QD1 (executables and
 *                   libraries read front to back);
 *              15%  random writes, 4-64 KiB (4k/50 16k/25 64k/25), QD1
 *                   (caches, logs, settings).
 * Its score is the bytes moved over the time until the last stream ends,
 * in MB/s (10^6 B/s) -- like PCMark's, one number for the whole load.  The
 * data set is installed anew before every run, as the benchmark does.
 */
#include <stdlib.h>
#include <string.h>

#include "job/fileset.h"
#include "methods/scenario.h"
#include "run/sim.h"

static const struct ssd_scn_param params[] = {
	{.name = "db_time", .def = "6m", .unit = "time",
	 .help = "Total time of the IOmeter database pattern, split evenly over QD 1, 2, "
		 "4, 8, 16, 32 (the review: 3h)."},
	{.name = "db_bs", .def = "8k", .unit = "size",
	 .help = "Request size of the database pattern."},
	{.name = "db_read", .def = "67", .unit = "number",
	 .help = "Percent of reads in the database pattern.",
	 .whole = 1, .lo = 0, .hi = 100},
	{.name = "fill", .def = "80%", .unit = "size or % of capacity",
	 .help = "Data of the copied files."},
	{.name = "files", .def = "0", .unit = "number",
	 .help = "Files copied; 0: the review's density, a million per 200 GB (200 kB on average).",
	 .whole = 1, .lo = 0, .hi = 1e9},
	{.name = "idle", .def = "1800", .unit = "time",
	 .help = "Idle time before the last benchmark."},
	{.name = "app_size", .def = "2%", .unit = "size or % of capacity",
	 .help = "The benchmark's data set."},
	{.name = "app_io", .def = "2%", .unit = "size or % of capacity",
	 .help = "Bytes the benchmark moves per run."},
	{.name = NULL},
};

#define NQD 6
#define NSTATES 3
#define COPY_BS (1u << 20)
#define COPY_QD 4
#define FILE_SIGMA 2.0

static const int qds[NQD] = {1, 2, 4, 8, 16, 32};
static const char *state_name[NSTATES] = {"fresh", "tortured", "after idle"};
static const char *state_key[NSTATES] = {"fresh_mbps", "tortured_mbps", "after_idle_mbps"};

struct torture {
	int64_t db_step, idle;   /* ns */
	uint64_t db_bs, fill, app_size, app_io;
	int db_read;
	uint64_t files;
};

struct mode_res {
	double app[NSTATES];     /* benchmark MB/s */
	double db_iops[NQD];
	double db_waf;           /* over the database pattern */
	uint64_t db_written;     /* bytes the database pattern wrote */
	uint64_t files;
	double file_mean;        /* bytes */
	double copy_mbps;
};

/* Install the data set, then the measured load. */
static int app_load(struct ssd_scn *s, struct ssd_dev *dev,
		    const struct torture *t, double *mbps)
{
	struct ssd_run_result res;
	struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
	if (b)
		ssd_scn_job(b, "app-install", SSD_RW_WRITE, 1 << 20, 4)->size =
			t->app_size;
	int rc = ssd_scn_run(s, dev, b, NULL, &res);
	if (rc)
		return rc;
	ssd_run_result_free(&res);
	uint64_t rr = t->app_io * 60 / 100, sr = t->app_io * 25 / 100;
	uint64_t wr = t->app_io - rr - sr;
	b = ssd_scn_jobs_new(s, dev);
	if (b) {
		ssd_jobs_global(b)->size = t->app_size;
		struct ssd_job *j = ssd_jobs_add(b, "app-random-read");
		j->rw = SSD_RW_RANDREAD;
		ssd_jobs_set(b, "bssplit",
			     "4k/35:16k/20:32k/15:64k/15:128k/10:256k/5");
		j->iodepth = 2;
		j->io_size = rr;
		ssd_scn_job(b, "app-seq-read", SSD_RW_READ, 256 << 10, 1)
			->io_size = sr;
		j = ssd_jobs_add(b, "app-write");
		j->rw = SSD_RW_RANDWRITE;
		ssd_jobs_set(b, "bssplit", "4k/50:16k/25:64k/25");
		j->io_size = wr;
	}
	rc = ssd_scn_run(s, dev, b, NULL, &res);
	if (rc)
		return rc;
	uint64_t bytes = 0;
	for (int j = 0; j < res.njobs; j++)
		for (int d = 0; d < SSD_DDIR_N; d++)
			bytes += res.jobs[j].dir[d].bytes;
	*mbps = res.sim_ns > 0 ? (double)bytes * 1e3 / (double)res.sim_ns : 0;
	ssd_run_result_free(&res);
	return 0;
}

/* "Create a volume": with TRIM, the format TRIMs the whole span. */
static int format(struct ssd_scn *s, struct ssd_dev *dev, int trim)
{
	if (!trim)
		return 0;
	struct ssd_run_result res;
	uint64_t bs = ssd_config_volume(&s->cfg) < (128u << 20) ? ssd_config_volume(&s->cfg) : 128u << 20;
	struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
	if (b)
		ssd_scn_job(b, "format-trim", SSD_RW_TRIM, (uint32_t)bs, 1);
	int rc = ssd_scn_run(s, dev, b, NULL, &res);
	if (!rc)
		ssd_run_result_free(&res);
	return rc;
}

static int torture_db(struct ssd_scn *s, struct ssd_dev *dev,
		      const struct torture *t, struct mode_res *m)
{
	struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
	for (int q = 0; b && q < NQD; q++) {
		char name[32];
		snprintf(name, sizeof name, "db-qd%d", qds[q]);
		struct ssd_job *j = ssd_scn_job(b, name, SSD_RW_RANDRW,
						(uint32_t)t->db_bs,
						(uint32_t)qds[q]);
		j->rwmixread = (uint32_t)t->db_read;
		j->norandommap = 1;
		j->time_based = 1;
		j->runtime = t->db_step;
		j->stonewall = q > 0;
	}
	struct ssd_run_result res;
	struct ssd_counters c0 = *ssd_dev_counters(dev);
	int rc = ssd_scn_run(s, dev, b, NULL, &res);
	if (rc)
		return rc;
	for (int q = 0; q < NQD && q < res.njobs; q++) {
		const struct ssd_job_result *j = &res.jobs[q];
		m->db_iops[q] = j->runtime_ns > 0
			? (double)(j->dir[SSD_DDIR_READ].ios + j->dir[SSD_DDIR_WRITE].ios) *
			  1e9 / (double)j->runtime_ns : 0;
		m->db_written += j->dir[SSD_DDIR_WRITE].bytes;
	}
	m->db_waf = ssd_counters_waf_since(ssd_dev_counters(dev), &c0);
	ssd_run_result_free(&res);
	return 0;
}

static int run_mode(struct ssd_scn *s, const struct torture *t, int trim,
		    struct mode_res *m)
{
	struct ssd_dev *dev = ssd_scn_drive(s, NULL, 0);
	if (!dev)
		return SSD_EINVAL;
	struct ssd_fileset fs = {0};
	struct ssd_fileset_run fr;
	const char *mode = trim ? "TRIM on" : "TRIM off";
	ssd_prog_phase(s->prog, 0, "%s: fresh", mode);
	int rc = format(s, dev, trim);
	if (!rc)
		rc = app_load(s, dev, t, &m->app[0]);
	ssd_prog_phase(s->prog, ssd_dev_time(dev), "%s: database", mode);
	if (!rc)
		rc = torture_db(s, dev, t, m);
	if (!rc)
		rc = format(s, dev, trim);
	if (!rc) {
		uint64_t files = t->files ? t->files
			: (uint64_t)((double)t->fill / 200e3 + 0.5);
		if (!files)
			files = 1;
		if (files > t->fill / 4096)
			files = t->fill / 4096; /* every file at least 4 KiB */
		rc = ssd_fileset_make(&fs, 0, ssd_config_volume(&s->cfg), t->fill, files,
				      FILE_SIGMA, ssd_mix64(s->seed ^ 0x66696c6573ULL));
		if (rc)
			snprintf(s->err, sizeof s->err, "torture: cannot make the files: %s",
				 ssd_strerror(rc));
	}
	if (!rc) {
		ssd_prog_phase(s->prog, ssd_dev_time(dev), "%s: copying files",
			       mode);
		m->files = fs.n;
		m->file_mean = (double)fs.bytes / (double)fs.n;
		rc = ssd_fileset_write(dev, &fs, COPY_BS, COPY_QD, &fr);
		m->copy_mbps = !rc && fr.end > fr.start
			? (double)fr.bytes * 1e3 / (double)(fr.end - fr.start) : 0;
		if (!rc && trim)
			rc = ssd_fileset_trim(dev, &fs, COPY_QD, &fr);
		if (rc)
			snprintf(s->err, sizeof s->err, "torture: copying or deleting "
				 "the files failed: %s", ssd_strerror(rc));
	}
	ssd_prog_phase(s->prog, ssd_dev_time(dev), "%s: tortured", mode);
	if (!rc)
		rc = app_load(s, dev, t, &m->app[1]);
	if (!rc) {
		int64_t now = ssd_dev_time(dev);
		ssd_prog_phase(s->prog, now, "%s: after idle", mode);
		ssd_dev_idle(dev, now + t->idle);
		rc = app_load(s, dev, t, &m->app[2]);
	}
	ssd_fileset_free(&fs);
	ssd_dev_destroy(dev);
	return rc;
}

static int outputs(struct ssd_scn *s, const struct mode_res *m)
{
	FILE *f = ssd_scn_file(s, "torture.csv");
	if (!f)
		return SSD_EIO;
	fprintf(f, "state,trim_on_mbps,trim_off_mbps\n");
	for (int st = 0; st < NSTATES; st++)
		fprintf(f, "\"%s\",%.2f,%.2f\n", state_name[st], m[0].app[st],
			m[1].app[st]);
	if (ssd_scn_close(s, f))
		return SSD_EIO;
	if (!(f = ssd_scn_file(s, "db-pattern.csv")))
		return SSD_EIO;
	fprintf(f, "qd,trim_on_iops,trim_off_iops\n");
	for (int q = 0; q < NQD; q++)
		fprintf(f, "%d,%.1f,%.1f\n", qds[q], m[0].db_iops[q], m[1].db_iops[q]);
	if (ssd_scn_close(s, f))
		return SSD_EIO;
	const char *body =
		"set style data histograms\nset style histogram clustered gap 1.5\n"
		"set style fill solid 0.9 border -1\nset boxwidth 0.9\n"
		"set yrange [0:*]\nset ylabel 'application load, MB/s (higher is better)'\n"
		"plot 'torture.csv' skip 1 using 2:xtic(1) title 'TRIM on' lc rgb '#1f5fbf', \\\n"
		"     '' skip 1 using 3 title 'TRIM off' lc rgb '#d95f02', \\\n"
		"     '' skip 1 using ($0-0.5/3.5):2:(sprintf('%.1f',$2)) with labels offset 0,0.7 notitle, \\\n"
		"     '' skip 1 using ($0+0.5/3.5):3:(sprintf('%.1f',$3)) with labels offset 0,0.7 notitle";
	int rc = ssd_scn_plot(s, "torture", "Torture: application load fresh, tortured, after idle", body);
	if (rc)
		return rc;
	body = "set logscale x 2\nset xtics (1, 2, 4, 8, 16, 32)\nset xrange [0.8:40]\n"
	       "set xlabel 'queue depth'\nset ylabel 'IOPS (8 KiB, 67% read, random)'\n"
	       "set yrange [0:*]\n"
	       "plot 'db-pattern.csv' skip 1 using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f5fbf' title 'TRIM on', \\\n"
	       "     '' skip 1 using 1:3 with linespoints lw 2 pt 6 dt 2 lc rgb '#d95f02' title 'TRIM off'";
	return ssd_scn_plot(s, "db-pattern", "The torture's IOmeter database pattern, QD 1 to 32", body);
}

static void report(struct ssd_scn *s, const struct torture *t,
		   const struct mode_res *m)
{
	fprintf(s->out, "torture on %s: the Samsung 470 method (seed 004), database "
		"pattern %.0f s (the review: 3 h), %llu files (%.0f kB on average, "
		"%.0f%% of the capacity), %.0f s idle\n", s->cfg.name,
		(double)t->db_step * NQD / 1e9, (unsigned long long)m[0].files,
		m[0].file_mean / 1e3, 100.0 * (double)t->fill / (double)ssd_config_volume(&s->cfg),
		t->idle / 1e9);
	fprintf(s->out, "  %-26s %9s %9s\n", "application load, MB/s", "TRIM on", "TRIM off");
	for (int st = 0; st < NSTATES; st++) {
		fprintf(s->out, "  %-26s %9.1f %9.1f", state_name[st], m[0].app[st],
			m[1].app[st]);
		if (st)
			fprintf(s->out, "   (%.0f%% / %.0f%% of fresh)",
				m[0].app[0] > 0 ? 100 * m[0].app[st] / m[0].app[0] : 0,
				m[1].app[0] > 0 ? 100 * m[1].app[st] / m[1].app[0] : 0);
		fputc('\n', s->out);
	}
	fprintf(s->out, "  database pattern IOPS     ");
	for (int q = 0; q < NQD; q++)
		fprintf(s->out, " QD%d %.0f", qds[q], m[0].db_iops[q]);
	char ws[32];
	fprintf(s->out, "\n  (it wrote %s, %.0f%% of the capacity, WAF %.2f; its "
		"reads of LBAs not yet written cost no NAND)\n",
		ssd_fmt_bytes(m[0].db_written, ws, sizeof ws),
		100.0 * (double)m[0].db_written / (double)ssd_config_volume(&s->cfg), m[0].db_waf);
	fprintf(s->out, "  copy of the files          %.0f MB/s with TRIM on, %.0f MB/s off\n",
		m[0].copy_mbps, m[1].copy_mbps);
	fprintf(s->out, "  seed 004: Samsung 470 fw 0601 118 -> 99 -> 98 MB/s with TRIM "
		"(84 -> 64 without); fw 0701 141 -> 127 (90%%)\n");
	fprintf(s->out, "  data and plots    %s/{torture,db-pattern}.{csv,png,svg}\n",
		s->outdir);
}

static void json(struct ssd_scn *s, const struct mode_res *m)
{
	ssd_scn_json_int(s, "files", (int64_t)m[0].files);
	ssd_scn_json_num(s, "file_mean_bytes", m[0].file_mean);
	for (int k = 0; k < 2; k++) {
		const struct mode_res *r = &m[k];
		ssd_scn_json_open(s, k ? "trim_off" : "trim_on", 0);
		for (int st = 0; st < NSTATES; st++)
			ssd_scn_json_num(s, state_key[st], r->app[st]);
		ssd_scn_json_num(s, "tortured_over_fresh",
				 r->app[0] > 0 ? r->app[1] / r->app[0] : 0);
		ssd_scn_json_num(s, "after_idle_over_fresh",
				 r->app[0] > 0 ? r->app[2] / r->app[0] : 0);
		ssd_scn_json_open(s, "db_iops", 0);
		for (int q = 0; q < NQD; q++) {
			char key[16];
			snprintf(key, sizeof key, "qd%d", qds[q]);
			ssd_scn_json_num(s, key, r->db_iops[q]);
		}
		ssd_scn_json_close(s, 0);
		ssd_scn_json_num(s, "db_waf", r->db_waf);
		ssd_scn_json_int(s, "db_written_bytes", (int64_t)r->db_written);
		ssd_scn_json_num(s, "copy_mbps", r->copy_mbps);
		ssd_scn_json_close(s, 0);
	}
}

static int run(struct ssd_scn *s)
{
	struct torture t;
	int64_t db_time = ssd_scn_time(s, "db_time");

	t.db_step = db_time / NQD;
	t.idle = ssd_scn_time(s, "idle");
	t.db_bs = ssd_scn_size(s, "db_bs", 4096);
	t.fill = ssd_scn_size(s, "fill", 4096);
	t.app_size = ssd_scn_size(s, "app_size", 1 << 20);
	t.app_io = ssd_scn_size(s, "app_io", 4096);
	t.db_read = (int)ssd_scn_int(s, "db_read");
	t.files = (uint64_t)ssd_scn_int(s, "files");
	const char *bad = NULL;
	if (t.db_step <= 0)
		bad = "db_time must be more than 0";
	else if (t.idle < 0)
		bad = "idle must not be negative";
	else if (!t.db_bs || t.db_bs > (1u << 20))
		bad = "db_bs must be 4k to 1m";
	else if (t.fill < 4096 || t.fill > ssd_config_volume(&s->cfg))
		bad = "fill must be 4k up to the capacity";
	else if (t.app_size < (1u << 20) || t.app_size > ssd_config_volume(&s->cfg))
		bad = "app_size must be 1m up to the capacity";
	else if (t.app_io < 64 * 1024)
		bad = "app_io must be at least 64k";
	if (bad) {
		snprintf(s->err, sizeof s->err, "torture: %s", bad);
		return SSD_ERANGE;
	}
	struct mode_res m[2];
	memset(m, 0, sizeof m);
	int rc = run_mode(s, &t, 1, &m[0]);
	if (!rc)
		rc = run_mode(s, &t, 0, &m[1]);
	if (!rc)
		rc = outputs(s, m);
	if (rc == SSD_EIO && !s->err[0])
		snprintf(s->err, sizeof s->err, "cannot write into %s", s->outdir);
	if (rc)
		return rc;
	json(s, m);
	report(s, &t, m);
	return 0;
}

const struct ssd_scenario ssd_scn_torture = {
	.name = "torture",
	.summary = "the Samsung 470 torture: application load fresh, after an "
		   "IOmeter database pattern and a million-file copy and delete, "
		   "after idle; with TRIM and without",
	.params = params,
	.run = run,
	.needs_trim = 1,
};
