/*
 * scn_essay.c -- the 2008 essay's bench rebuilt (seed 000): the Silicon
 * Power 32 GB SSD, the same SSD formatted by MFT, and the Hitachi
 * HDT725032VLA360 hard disk side by side, without and with the host's
 * page cache, and the figures the essay read off its charts beside
 * ssdlab's.
 *
 * Configurations.  "ssd" is the scenario's drive (--drive, by default
 * silicon-power-32g); "ssd+mft" the same drive with mft = yes (its keys
 * as the drive file or --set give them); "hdd" the drive named by the
 * parameter `hdd`.  Each runs on a fresh machine.
 *
 * Method, per configuration, as the essay ran it:
 *  1. the MFT benchmark (no OS cache: every job direct=1): the test file
 *     (`file` bytes from the start of the volume) is written
 *     sequentially in 1 MiB requests at QD1 and fsynced -- the essay's "write of the
 *     4 GB test file", the drive's unbuffered sequential write -- then
 *     random reads at each of the 14 request sizes from 512 B to 4 MiB
 *     (doubling; the essay's charts have 14 points, its text does not
 *     list them), `point` of simulated time each, QD1, offsets drawn
 *     over the file with replacement and aligned to the request size;
 *     then random writes at the same sizes;
 *  2. IOmeter with the OS cache: a fresh machine with page_cache =
 *     `cache` (the essay's machine's RAM is not given), the same file
 *     written and fsynced, the same 14 + 14 points as buffered I/O
 *     (direct=0) -- the writes complete in host RAM until the dirty limit
 *     and then at the pace of write-back;
 *  3. IOmeter's latency test: random 70% read / 30% write at QD1 for
 *     `lat_time`, at 4 KiB ("small requests") and 1 MiB ("large"; the essay
 *     does not say how large), each after 60 s idle, direct, over the
 *     whole volume of the
 *     machine of step 1 (an SSD filled sequentially first: a read of a
 *     page never written costs it nothing, a disk has no such pages);
 *  4. HD Tune: read and write transfer rate at `tune_points` positions
 *     across the whole volume, `tune_chunk` bytes at each, with 64 KiB
 *     and 1 MiB requests (QD1, direct) -- the zoned recording of the
 *     hard disk shows as the falling curve, the SSD as a flat one.
 * The summary lists the seed's figures beside ssdlab's with their
 * deviation, as `ssdlab calibrate` does; each figure's method is in
 * docs/scenarios.md.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run/sim.h"
#include "machine/stack.h"
#include "methods/calibrate.h"
#include "methods/scenario.h"

#define TUNE_MAX 256 /* HD Tune positions at most */

static const struct ssd_scn_param params[] = {
	{.name = "hdd", .def = "hitachi-hdt725032vla360", .unit = "text",
	 .help = "The hard disk beside the SSD (a preset or .ini of type = hdd)."},
	{.name = "file", .def = "4g", .unit = "size",
	 .help = "The benchmark's test file, from the start of "
		 "the volume (the MFT benchmark's 4 GB)."},
	{.name = "point", .def = "10", .unit = "time",
	 .help = "Simulated length of each request size "
		 "(about 10 s in the MFT benchmark)."},
	{.name = "cache", .def = "256m", .unit = "size",
	 .help = "The host page cache of the OS-cache runs."},
	{.name = "lat_time", .def = "60", .unit = "time",
	 .help = "Length of each latency test (small and "
		 "large requests), as calibrate runs it."},
	{.name = "tune_points", .def = "32", .unit = "number",
	 .help = "HD Tune: positions across the volume.",
	 .whole = 1, .lo = 2, .hi = TUNE_MAX},
	{.name = "tune_chunk", .def = "16m", .unit = "size",
	 .help = "HD Tune: bytes read or written at each."},
	{.name = NULL},
};

#define NSIZES 14  /* 512 B .. 4 MiB */
#define NCONF 3

enum { C_SSD, C_MFT, C_HDD };
static const char *const conf_name[NCONF] = {"ssd", "ssd+mft", "hdd"};
static const char *const conf_key[NCONF] = {"ssd", "mft", "hdd"};
static const char *const conf_color[NCONF] = {"#1f5fbf", "#d95f02", "#1b9e77"};

enum { M_DIRECT, M_CACHE, NMODE };
static const char *const mode_key[NMODE] = {"nocache", "oscache"};

struct pt {
	double iops, mbps;
};

struct conf_result {
	struct pt p[NMODE][2][NSIZES];  /* [mode][read 0, write 1][size] */
	double file_mbps[NMODE];        /* the test file's sequential write */
	double lat_ms[2];               /* 70/30 mix mean latency: 4k, 1m */
	double tune[2][2][TUNE_MAX];    /* [read, write][64k, 1m][point] MB/s */
	double mft_flush_s, mft_writes_per_flush;
};

/* "512", "4k", "1m". */
static void size_label(unsigned b, char *buf, size_t n)
{
	if (b >= 1 << 20)
		snprintf(buf, n, "%um", b >> 20);
	else if (b >= 1024)
		snprintf(buf, n, "%uk", b >> 10);
	else
		snprintf(buf, n, "%u", b);
}

/* A configuration's drive file: the scenario's, with MFT, or the HDD. */
static int conf_cfg(struct ssd_scn *s, int k, int cache, uint64_t cache_size,
		    struct ssd_config *c)
{
	char pc[64];
	snprintf(pc, sizeof pc, "page_cache=%llu",
		 (unsigned long long)(cache ? cache_size : 0));
	const char *sets[2] = {pc, "mft=yes"};
	if (k == C_HDD) {
		int rc = ssd_scn_preset(s, ssd_scn_str(s, "hdd"), sets, 1, c);
		if (rc)
			return rc;
		if (c->type != SSD_TYPE_HDD) {
			snprintf(s->err, sizeof s->err, "essay-bench: hdd=%s is not a "
				 "hard disk (type = %s)", ssd_scn_str(s, "hdd"),
				 c->type == SSD_TYPE_SSD ? "ssd" : "?");
			return SSD_ERANGE;
		}
		return 0;
	}
	*c = s->cfg;
	int rc = 0;
	for (int i = 0; i < (k == C_MFT ? 2 : 1) && !rc; i++) {
		const char *eq = strchr(sets[i], '=');
		char key[32];
		snprintf(key, sizeof key, "%.*s", (int)(eq - sets[i]), sets[i]);
		rc = ssd_config_set(c, key, eq + 1, "essay-bench", s->err,
				    sizeof s->err);
	}
	if (!rc) {
		c->blocks_per_plane = 0;
		rc = ssd_config_finish(c, s->err, sizeof s->err);
	}
	if (!rc)
		rc = ssd_stack_check(c, s->err, sizeof s->err);
	return rc;
}

/* A sequential fill of the file at QD1 (1 MiB), fsynced at the end (so
 * that its rate includes what a host layer still held, and the next
 * point does not meet that write-back): its MB/s. */
static int write_file(struct ssd_scn *s, struct ssd_dev *dev, uint64_t file,
		      int buffered, double *mbps)
{
	struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
	if (b) {
		struct ssd_job *j = ssd_scn_job(b, "file", SSD_RW_WRITE, 1 << 20, 1);
		j->size = file;
		j->buffered = buffered;
		j->direct = !buffered;
		j->end_fsync = 1;
	}
	struct ssd_run_result res;
	int rc = ssd_scn_run(s, dev, b, NULL, &res);
	if (rc)
		return rc;
	const struct ssd_job_result *j = &res.jobs[0];
	*mbps = j->runtime_ns > 0 ? (double)j->dir[SSD_DDIR_WRITE].bytes * 1e3 /
				    (double)j->runtime_ns : 0;
	ssd_run_result_free(&res);
	return 0;
}

/* A node's stat row by key, NAN if absent. */
static double node_stat(const struct ssd_dev *dev, const char *kind,
			const char *key)
{
	const struct ssd_blk *b;
	for (int i = 0; (b = ssd_dev_node(dev, i, NULL)); i++) {
		if (strcmp(b->ops->kind, kind) || !b->ops->stat)
			continue;
		struct ssd_blk_stat st;
		for (int r = 0; b->ops->stat(b, r, &st); r++)
			if (!strcmp(st.key, key))
				return st.value;
	}
	return NAN;
}

/* MFT's log flushes while a point ran, as the essay watched them in the
 * performance monitor: the mean interval and log writes per flush. */
struct flushes {
	double flushes, writes;
	int64_t t;
};

static void flushes_at(const struct ssd_dev *dev, struct flushes *f)
{
	f->flushes = node_stat(dev, "mft", "flushes");
	f->writes = node_stat(dev, "mft", "log_writes");
	f->t = ssd_dev_time(dev);
}

/* Random reads (dir 0) or writes (1) at the 14 sizes over the file, one
 * run each; *fl gets MFT's flushes over the 4 KiB point (fl may be
 * NULL). */
static int sweep(struct ssd_scn *s, struct ssd_dev *dev, int dir, int buffered,
		 uint64_t file, int64_t point, struct pt *out, struct flushes *fl)
{
	for (int i = 0; i < NSIZES; i++) {
		struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
		if (b) {
			char name[32];
			snprintf(name, sizeof name, "%s-%u", dir ? "write" : "read",
				 512u << i);
			struct ssd_job *j = ssd_scn_job(b, name, dir ? SSD_RW_RANDWRITE
								     : SSD_RW_RANDREAD,
							512u << i, 1);
			j->size = file;
			j->time_based = 1;
			j->runtime = point;
			j->norandommap = 1;
			j->buffered = buffered;
			j->direct = !buffered;
			/* each point draws its own offsets: with the run's
			 * seed alone every point (a run of one job) would
			 * replay the same ones and find the previous
			 * points' pages in the cache */
			j->randseed = ssd_mix64(s->seed ^ ((uint64_t)(dir * 64 + i + 1) << 32 |
						(uint64_t)buffered << 16));
			j->has_randseed = 1;
		}
		struct flushes f0;
		flushes_at(dev, &f0);
		struct ssd_run_result res;
		int rc = ssd_scn_run(s, dev, b, NULL, &res);
		if (rc)
			return rc;
		const struct ssd_job_result *j = &res.jobs[0];
		const struct ssd_dstat *d = &j->dir[dir ? SSD_DDIR_WRITE : SSD_DDIR_READ];
		double t = (double)j->runtime_ns;
		out[i].iops = t > 0 ? (double)d->ios * 1e9 / t : 0;
		out[i].mbps = t > 0 ? (double)d->bytes * 1e3 / t : 0;
		ssd_run_result_free(&res);
		if (fl && (512u << i) == 4096) {
			flushes_at(dev, fl);
			fl->flushes -= f0.flushes;
			fl->writes -= f0.writes;
			fl->t -= f0.t;
		}
	}
	return 0;
}

/* IOmeter's latency test: 70/30 random mix at QD1, 4 KiB and 1 MiB,
 * each after 60 s idle (as calibrate runs it: both from the same rested
 * state, the buffers drained). */
static int latency(struct ssd_scn *s, struct ssd_dev *dev, uint64_t span,
		   int64_t point, double *ms)
{
	for (int i = 0; i < 2; i++) {
		int rc = ssd_dev_idle(dev, ssd_dev_time(dev) + 60 * SSD_S);
		if (rc) {
			snprintf(s->err, sizeof s->err, "essay-bench: idle time: %s",
				 ssd_strerror(rc));
			return rc;
		}
		struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
		struct ssd_job *j = b ? ssd_scn_job(b, i ? "mix-1m" : "mix-4k",
						    SSD_RW_RANDRW,
						    i ? 1u << 20 : 4096, 1) : NULL;
		if (j) {
			j->size = span;
			j->time_based = 1;
			j->runtime = point;
			j->norandommap = 1;
			j->rwmixread = 70;
			j->direct = 1;
		}
		struct ssd_run_result res;
		rc = ssd_scn_run(s, dev, b, NULL, &res);
		if (rc)
			return rc;
		struct ssd_moments lat = res.jobs[0].dir[SSD_DDIR_READ].lat;
		ssd_moments_merge(&lat, &res.jobs[0].dir[SSD_DDIR_WRITE].lat);
		ms[i] = ssd_moments_mean(&lat) / 1e6;
		ssd_run_result_free(&res);
	}
	return 0;
}

/* HD Tune: MB/s at n positions, reads then writes, 64 KiB and 1 MiB. */
static int tune(struct ssd_scn *s, struct ssd_dev *dev, int n, uint64_t chunk,
		double (*out)[2][TUNE_MAX])
{
	uint64_t cap = ssd_dev_capacity(dev);
	uint64_t step = (cap - chunk) / (uint64_t)(n > 1 ? n - 1 : 1) / (1 << 20) *
			(1 << 20);
	for (int dir = 0; dir < 2; dir++) {
		for (int k = 0; k < 2; k++) {
			struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
			uint32_t bs = k ? 1u << 20 : 64u << 10;
			for (int i = 0; b && i < n; i++) {
				char name[32];
				snprintf(name, sizeof name, "tune-%d", i);
				struct ssd_job *j = ssd_scn_job(b, name, dir ? SSD_RW_WRITE
									   : SSD_RW_READ, bs, 1);
				j->stonewall = 1;
				j->offset = (uint64_t)i * step;
				j->size = chunk;
				j->direct = 1;
			}
			struct ssd_run_result res;
			int rc = ssd_scn_run(s, dev, b, NULL, &res);
			if (rc)
				return rc;
			for (int i = 0; i < n && i < res.njobs; i++) {
				const struct ssd_job_result *j = &res.jobs[i];
				double t = (double)j->runtime_ns;
				out[dir][k][i] = t > 0 ? (double)j->dir[dir].bytes * 1e3 / t : 0;
			}
			ssd_run_result_free(&res);
		}
	}
	return 0;
}

static int run_conf(struct ssd_scn *s, int k, struct conf_result *r)
{
	uint64_t file = ssd_scn_size(s, "file", 1 << 20);
	int64_t point = ssd_scn_time(s, "point");
	uint64_t cache = ssd_scn_size(s, "cache", 4096);
	int np = (int)ssd_scn_int(s, "tune_points");
	uint64_t chunk = ssd_scn_size(s, "tune_chunk", 1 << 20);
	for (int m = 0; m < NMODE; m++) {
		struct ssd_config c;
		int rc = conf_cfg(s, k, m == M_CACHE, cache, &c);
		if (rc)
			return rc;
		if (file > ssd_config_volume(&c) || chunk * 2 > ssd_config_volume(&c)) {
			snprintf(s->err, sizeof s->err, "essay-bench: file and "
				 "tune_chunk must fit the %s volume", conf_name[k]);
			return SSD_ERANGE;
		}
		struct ssd_dev *dev = ssd_scn_device(s, &c);
		if (!dev)
			return SSD_EINVAL;
		rc = write_file(s, dev, file, m == M_CACHE, &r->file_mbps[m]);
		struct flushes fl = {0, 0, 0};
		if (!rc)
			rc = sweep(s, dev, 0, m == M_CACHE, file, point, r->p[m][0],
				   NULL);
		if (!rc)
			rc = sweep(s, dev, 1, m == M_CACHE, file, point, r->p[m][1],
				   &fl);
		if (!rc && m == M_DIRECT && k == C_MFT) {
			r->mft_flush_s = fl.flushes > 0 ? (double)fl.t / 1e9 / fl.flushes
							: NAN;
			r->mft_writes_per_flush = fl.flushes > 0 ? fl.writes / fl.flushes
								 : NAN;
		}
		/* the latency test and HD Tune span the whole volume: an SSD
		 * is filled first, so that no read finds an unwritten page
		 * (which costs a flash drive nothing) */
		if (!rc && m == M_DIRECT && k != C_HDD)
			rc = write_file(s, dev, ssd_dev_capacity(dev) / (1 << 20) *
					(1 << 20), 0, &(double){0});
		if (!rc && m == M_DIRECT)
			rc = latency(s, dev, ssd_dev_capacity(dev),
				     ssd_scn_time(s, "lat_time"), r->lat_ms);
		if (!rc && m == M_DIRECT)
			rc = tune(s, dev, np, chunk, r->tune);
		ssd_dev_destroy(dev);
		if (rc)
			return rc;
	}
	return 0;
}

static int write_csv(struct ssd_scn *s, const struct conf_result *r)
{
	FILE *f = ssd_scn_file(s, "essay.csv");
	if (!f)
		return SSD_EIO;
	fprintf(f, "bs");
	for (int m = 0; m < NMODE; m++)
		for (int dir = 0; dir < 2; dir++)
			for (int k = 0; k < NCONF; k++)
				fprintf(f, ",%s_%s_%s_iops,%s_%s_%s_mbps", mode_key[m],
					dir ? "write" : "read", conf_key[k], mode_key[m],
					dir ? "write" : "read", conf_key[k]);
	fputc('\n', f);
	for (int i = 0; i < NSIZES; i++) {
		fprintf(f, "%u", 512u << i);
		for (int m = 0; m < NMODE; m++)
			for (int dir = 0; dir < 2; dir++)
				for (int k = 0; k < NCONF; k++)
					fprintf(f, ",%.2f,%.3f", r[k].p[m][dir][i].iops,
						r[k].p[m][dir][i].mbps);
		fputc('\n', f);
	}
	return ssd_scn_close(s, f);
}

static int write_tune_csv(struct ssd_scn *s, const struct conf_result *r, int n)
{
	FILE *f = ssd_scn_file(s, "hdtune.csv");
	if (!f)
		return SSD_EIO;
	fprintf(f, "point");
	for (int k = 0; k < NCONF; k++)
		fprintf(f, ",%s_read_64k,%s_read_1m,%s_write_64k,%s_write_1m",
			conf_key[k], conf_key[k], conf_key[k], conf_key[k]);
	fputc('\n', f);
	for (int i = 0; i < n; i++) {
		fprintf(f, "%.4f", n > 1 ? (double)i / (n - 1) : 0.0);
		for (int k = 0; k < NCONF; k++)
			fprintf(f, ",%.2f,%.2f,%.2f,%.2f", r[k].tune[0][0][i],
				r[k].tune[0][1][i], r[k].tune[1][0][i],
				r[k].tune[1][1][i]);
		fputc('\n', f);
	}
	return ssd_scn_close(s, f);
}

static int plots(struct ssd_scn *s)
{
	char xtics[1024] = "set xtics (", body[4096];
	for (int i = 0; i < NSIZES; i++) {
		size_t l = strlen(xtics);
		char lab[16];
		size_label(512u << i, lab, sizeof lab);
		snprintf(xtics + l, sizeof xtics - l, "%s\"%s\" %u", i ? ", " : "",
			 lab, 512u << i);
	}
	strncat(xtics, ")\n", sizeof xtics - strlen(xtics) - 1);
	static const char *const title[NMODE][2] = {
		{"MFT benchmark (no OS cache): random read",
		 "MFT benchmark (no OS cache): random write"},
		{"IOmeter with the OS cache: random read",
		 "IOmeter with the OS cache: random write"}};
	for (int m = 0; m < NMODE; m++) {
		for (int dir = 0; dir < 2; dir++) {
			/* columns: 1 bs, then per (mode, dir, conf) iops, mbps */
			int base = 2 + 2 * NCONF * (2 * m + dir);
			int len = snprintf(body, sizeof body,
				"set logscale x 2\n%sset xrange [512/1.3:4194304*1.3]\n"
				"set xlabel 'request size, bytes (QD1)'\n"
				"set ylabel 'MB/s (solid)'\nset y2label 'IOPS (dashed, log)'\n"
				"set logscale y2 10\nset y2tics\nset ytics nomirror\n"
				"set yrange [0:*]\nset key top left\nplot ", xtics);
			for (int k = 0; k < NCONF && len > 0 && (size_t)len < sizeof body; k++)
				len += snprintf(body + len, sizeof body - (size_t)len,
					"%s'essay.csv' skip 1 using 1:%d with linespoints lw 2 "
					"pt 7 ps 0.7 lc rgb '%s' title '%s MB/s', \\\n"
					"     '' skip 1 using 1:%d axes x1y2 with linespoints "
					"lw 1.5 dt 2 pt 6 ps 0.7 lc rgb '%s' title '%s IOPS'",
					k ? ", \\\n     " : "", base + 2 * k + 1,
					conf_color[k], conf_name[k], base + 2 * k,
					conf_color[k], conf_name[k]);
			if (len < 0 || (size_t)len >= sizeof body)
				return SSD_ERANGE;
			char name[48];
			snprintf(name, sizeof name, "essay-%s-%s", mode_key[m],
				 dir ? "write" : "read");
			int rc = ssd_scn_plot(s, name, title[m][dir], body);
			if (rc)
				return rc;
		}
	}
	/* HD Tune: MB/s over the volume, one chart for reads, one for writes */
	for (int dir = 0; dir < 2; dir++) {
		int len = snprintf(body, sizeof body,
			"set xlabel 'position in the volume (0 = start, 1 = end)'\n"
			"set ylabel 'MB/s'\nset yrange [0:*]\nset key outside right\n"
			"plot ");
		for (int k = 0; k < NCONF && len > 0 && (size_t)len < sizeof body; k++)
			len += snprintf(body + len, sizeof body - (size_t)len,
				"%s'hdtune.csv' skip 1 using 1:%d with lines lw 1.5 "
				"lc rgb '%s' title '%s, 64 KiB', \\\n"
				"     '' skip 1 using 1:%d with lines lw 2.5 dt 2 lc rgb "
				"'%s' title '%s, 1 MiB'", k ? ", \\\n     " : "",
				2 + 4 * k + 2 * dir, conf_color[k], conf_name[k],
				3 + 4 * k + 2 * dir, conf_color[k], conf_name[k]);
		if (len < 0 || (size_t)len >= sizeof body)
			return SSD_ERANGE;
		int rc = ssd_scn_plot(s, dir ? "hdtune-write" : "hdtune-read",
				      dir ? "HD Tune: write" : "HD Tune: read", body);
		if (rc)
			return rc;
	}
	return 0;
}

/* One row of the seed-beside-ssdlab table (figures as calibrate's). */
struct fig {
	const char *name;
	const char *value;  /* the seed's, as a "# ref" VALUE */
	const char *unit;
	double got;
	const char *note;
};

static void fig_row(struct ssd_scn *s, const struct fig *f, int *ok, int *n)
{
	struct ssd_cal_ref ref;
	memset(&ref, 0, sizeof ref);
	const char *dots = strstr(f->value, "..");
	ref.lo = strtod(f->value, NULL);
	ref.hi = dots ? strtod(dots + 2, NULL) : ref.lo;
	ref.kind = dots ? SSD_CAL_RANGE : SSD_CAL_EQ;
	double dev = ssd_cal_deviation(&ref, f->got);
	char val[32], devs[32];
	ssd_cal_format(f->got, val, sizeof val);
	const char *status = "-";
	if (isnan(f->got) || isnan(dev)) {
		snprintf(devs, sizeof devs, "-");
	} else {
		snprintf(devs, sizeof devs, "%+.1f%%", dev);
		status = fabs(dev) <= SSD_CAL_TOLERANCE ? "ok" : "OUT";
		*ok += fabs(dev) <= SSD_CAL_TOLERANCE;
		(*n)++;
	}
	fprintf(s->out, "  %-34s %10s %-6s %10s %9s  %-4s %s\n", f->name,
		f->value, f->unit, val, devs, status, f->note);
	ssd_scn_json_open(s, NULL, 0);
	ssd_scn_json_str(s, "figure", f->name);
	ssd_scn_json_str(s, "seed_value", f->value);
	ssd_scn_json_str(s, "unit", f->unit);
	ssd_scn_json_num(s, "ssdlab", f->got);
	ssd_scn_json_num(s, "deviation_pct", dev);
	ssd_scn_json_str(s, "status", status);
	ssd_scn_json_close(s, 0);
}

static double ratio(double a, double b)
{
	return b > 0 ? a / b : NAN;
}

static int run(struct ssd_scn *s)
{
	uint64_t file = ssd_scn_size(s, "file", 1 << 20);
	int64_t point = ssd_scn_time(s, "point");
	uint64_t cache = ssd_scn_size(s, "cache", 4096);
	uint64_t chunk = ssd_scn_size(s, "tune_chunk", 1 << 20);
	int np = (int)ssd_scn_int(s, "tune_points");
	const char *bad = NULL;
	if (file < (512u << (NSIZES - 1)))
		bad = "file must be at least 4m (the largest request)";
	else if (point <= 0)
		bad = "point must be more than 0";
	else if (ssd_scn_time(s, "lat_time") <= 0)
		bad = "lat_time must be more than 0";
	else if (!cache || ssd_scn_size(s, "cache", 0) % 4096)
		bad = "cache must be a multiple of 4k, more than 0";
	else if (!chunk)
		bad = "tune_chunk must be at least 1m";
	if (bad) {
		snprintf(s->err, sizeof s->err, "essay-bench: %s", bad);
		return SSD_ERANGE;
	}
	if (s->cfg.type != SSD_TYPE_SSD || ssd_config_is_machine(&s->cfg)) {
		snprintf(s->err, sizeof s->err, "essay-bench: the drive (--drive) "
			 "is the SSD of the bench: a bare SSD, without host layers "
			 "(the scenario adds MFT and the page cache itself)");
		return SSD_ERANGE;
	}
	struct ssd_config hc;
	int rc = conf_cfg(s, C_HDD, 0, 0, &hc); /* the disk is a disk */
	if (rc)
		return rc;
	struct conf_result *r = calloc(NCONF, sizeof *r);
	if (!r)
		return SSD_ENOMEM;
	for (int k = 0; k < NCONF && !rc; k++)
		rc = run_conf(s, k, &r[k]);
	if (!rc)
		rc = write_csv(s, r);
	if (!rc)
		rc = write_tune_csv(s, r, np);
	if (!rc)
		rc = plots(s);
	if (rc) {
		free(r);
		return rc;
	}

	/* the curves, into result.json */
	ssd_scn_json_open(s, "curves", 0);
	for (int k = 0; k < NCONF; k++) {
		ssd_scn_json_open(s, conf_key[k], 0);
		for (int m = 0; m < NMODE; m++)
			for (int dir = 0; dir < 2; dir++) {
				char key[48];
				snprintf(key, sizeof key, "%s_%s", mode_key[m],
					 dir ? "write" : "read");
				ssd_scn_json_open(s, key, 1);
				for (int i = 0; i < NSIZES; i++) {
					ssd_scn_json_open(s, NULL, 0);
					ssd_scn_json_int(s, "bs", 512 << i);
					ssd_scn_json_num(s, "iops", r[k].p[m][dir][i].iops);
					ssd_scn_json_num(s, "mbps", r[k].p[m][dir][i].mbps);
					ssd_scn_json_close(s, 0);
				}
				ssd_scn_json_close(s, 1);
			}
		ssd_scn_json_num(s, "file_write_mbps", r[k].file_mbps[M_DIRECT]);
		ssd_scn_json_num(s, "lat_4k_ms", r[k].lat_ms[0]);
		ssd_scn_json_num(s, "lat_1m_ms", r[k].lat_ms[1]);
		ssd_scn_json_close(s, 0);
	}
	ssd_scn_json_close(s, 0);

	const int i4k = 3, i128k = 8, ilast = NSIZES - 1;
	struct conf_result *S = &r[C_SSD], *M = &r[C_MFT], *H = &r[C_HDD];
	double smax = 0, mmax = 0;
	for (int i = 0; i < NSIZES; i++) {
		smax = fmax(smax, S->p[M_DIRECT][0][i].mbps);
		mmax = fmax(mmax, M->p[M_DIRECT][0][i].mbps);
	}
	const struct fig figs[] = {
		{"ssd_file_write_mbps", "27", "MB/s", S->file_mbps[M_DIRECT],
		 "4 GB test file, unbuffered"},
		{"mft_file_write_mbps", "70", "MB/s", M->file_mbps[M_DIRECT],
		 "the same through MFT"},
		{"hdd_file_write_mbps", "70", "MB/s", H->file_mbps[M_DIRECT],
		 "the HDD, its 8 MB buffer"},
		{"ssd_rand_write_4k_iops", "20..50", "IOPS", S->p[M_DIRECT][1][i4k].iops,
		 "\"a few tens\", no OS cache"},
		{"mft_rand_write_4k_gain", "300..3000", "x",
		 ratio(M->p[M_DIRECT][1][i4k].iops, S->p[M_DIRECT][1][i4k].iops),
		 "\"three orders of magnitude\""},
		{"mft_seq_read_ratio", "0.8..0.85", "x", ratio(mmax, smax),
		 "MFT reads 15-20% slower"},
		{"ssd_rand_write_4k_iops_oscache", "500", "IOPS",
		 S->p[M_CACHE][1][i4k].iops, "IOmeter with the OS cache"},
		{"ssd_rand_write_4k_mbps_oscache", "2.5", "MB/s",
		 S->p[M_CACHE][1][i4k].mbps, "the same"},
		{"mft_rand_write_4k_mbps_oscache", "10", "MB/s",
		 M->p[M_CACHE][1][i4k].mbps, "4x the SSD's"},
		{"mft_rand_write_128k_gain_oscache", "0.9..1.1", "x",
		 ratio(M->p[M_CACHE][1][i128k].mbps, S->p[M_CACHE][1][i128k].mbps),
		 "the gain gone by 128 KiB"},
		{"mft_seq_write_ratio_oscache", "0.9", "x",
		 ratio(M->p[M_CACHE][1][ilast].mbps, S->p[M_CACHE][1][ilast].mbps),
		 "MFT 10% slower, 4 MiB writes"},
		{"mft_flush_interval_s", "7", "s", M->mft_flush_s,
		 "MFT flushes about every 7 s"},
		{"mft_writes_per_flush", "25", "writes", M->mft_writes_per_flush,
		 "in about 25 large writes"},
		{"ssd_mean_latency_ms", "0.98", "ms", S->lat_ms[0],
		 "IOmeter 70/30 mix, 4 KiB"},
		{"ssd_mean_latency_large_ms", "11", "ms", S->lat_ms[1],
		 "the same, 1 MiB (size assumed)"},
		{"hdd_mean_latency_ms", "11", "ms", H->lat_ms[0],
		 "HDD, 4 KiB"},
		{"hdd_mean_latency_large_ms", "31", "ms", H->lat_ms[1],
		 "HDD, 1 MiB (size assumed)"},
	};
	char hs[32], cs[32];
	fprintf(s->out, "essay-bench: %s, %s + MFT, %s; %s test file, 14 sizes "
		"x %.3g s, OS cache %s\n", s->cfg.name, s->cfg.name,
		ssd_scn_str(s, "hdd"), ssd_fmt_bytes(file, hs, sizeof hs),
		point / 1e9, ssd_fmt_bytes(cache, cs, sizeof cs));
	for (int m = 0; m < NMODE; m++)
		for (int dir = 0; dir < 2; dir++) {
			fprintf(s->out, "  %s random %s, IOPS:\n    %-6s", m ? "OS cache"
				: "no cache", dir ? "write" : "read", "bs");
			for (int k = 0; k < NCONF; k++)
				fprintf(s->out, " %12s", conf_name[k]);
			fputc('\n', s->out);
			for (int i = 0; i < NSIZES; i++) {
				char lab[16];
				size_label(512u << i, lab, sizeof lab);
				fprintf(s->out, "    %-6s", lab);
				for (int k = 0; k < NCONF; k++)
					fprintf(s->out, " %12.1f", r[k].p[m][dir][i].iops);
				fputc('\n', s->out);
			}
		}
	fprintf(s->out, "  %-34s %10s %-6s %10s %9s  %-4s %s\n", "figure", "seed 000",
		"unit", "ssdlab", "deviation", "", "what");
	int ok = 0, n = 0;
	ssd_scn_json_open(s, "figures", 1);
	for (size_t i = 0; i < sizeof figs / sizeof figs[0]; i++)
		fig_row(s, &figs[i], &ok, &n);
	ssd_scn_json_close(s, 1);
	ssd_scn_json_int(s, "figures_within_tolerance", ok);
	ssd_scn_json_int(s, "figures_measured", n);
	fprintf(s->out, "  %d of %d figures within %.0f%%; data and plots %s/essay.csv, "
		"hdtune.csv, essay-*.{png,svg}, hdtune-*.{png,svg}\n", ok, n,
		SSD_CAL_TOLERANCE, s->outdir);
	free(r);
	return 0;
}

const struct ssd_scenario ssd_scn_essay_bench = {
	.name = "essay-bench",
	.summary = "The 2008 essay's bench: SSD, SSD + MFT and HDD, random read "
		   "and write at 14 sizes without and with the OS cache, "
		   "latency, HD Tune curves; the seed's figures beside ssdlab's",
	.params = params,
	.run = run,
	.drive = "silicon-power-32g",
};
