/* Unit tests for report.c: fio-shaped JSON (valid, complete, byte-stable)
 * and text, and JSON string escaping. */
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "t.h"

/* ---- a tiny strict JSON validator (RFC 8259 grammar) ---- */

struct jp {
	const char *s;
	int ok;
};

static void jp_ws(struct jp *p)
{
	while (*p->s == ' ' || *p->s == '\n' || *p->s == '\t' || *p->s == '\r')
		p->s++;
}

static int jp_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

static void jp_string(struct jp *p)
{
	if (*p->s != '"') {
		p->ok = 0;
		return;
	}
	p->s++;
	while (p->ok && *p->s != '"') {
		unsigned char c = (unsigned char)*p->s;
		if (c < 0x20) {
			p->ok = 0;
		} else if (c == '\\') {
			p->s++;
			if (*p->s == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!jp_hex(p->s[i]))
						p->ok = 0;
				p->s += 5;
			} else if (*p->s && strchr("\"\\/bfnrt", *p->s)) {
				p->s++;
			} else {
				p->ok = 0;
			}
		} else {
			p->s++;
		}
	}
	if (p->ok)
		p->s++;
}

static void jp_digits(struct jp *p)
{
	if (*p->s < '0' || *p->s > '9')
		p->ok = 0;
	while (*p->s >= '0' && *p->s <= '9')
		p->s++;
}

static void jp_number(struct jp *p)
{
	if (*p->s == '-')
		p->s++;
	if (*p->s == '0')
		p->s++;
	else
		jp_digits(p);
	if (*p->s == '.') {
		p->s++;
		jp_digits(p);
	}
	if (*p->s == 'e' || *p->s == 'E') {
		p->s++;
		if (*p->s == '+' || *p->s == '-')
			p->s++;
		jp_digits(p);
	}
}

static void jp_value(struct jp *p, int depth)
{
	jp_ws(p);
	if (depth > 64) {
		p->ok = 0;
		return;
	}
	char c = *p->s;
	if (c == '{' || c == '[') {
		char close = c == '{' ? '}' : ']';
		p->s++;
		jp_ws(p);
		if (*p->s == close) {
			p->s++;
			return;
		}
		while (p->ok) {
			jp_ws(p);
			if (c == '{') {
				jp_string(p);
				jp_ws(p);
				if (*p->s != ':') {
					p->ok = 0;
					return;
				}
				p->s++;
			}
			jp_value(p, depth + 1);
			jp_ws(p);
			if (*p->s == ',') {
				p->s++;
				continue;
			}
			if (*p->s == close) {
				p->s++;
				return;
			}
			p->ok = 0;
		}
	} else if (c == '"') {
		jp_string(p);
	} else if (!strncmp(p->s, "true", 4)) {
		p->s += 4;
	} else if (!strncmp(p->s, "false", 5)) {
		p->s += 5;
	} else if (!strncmp(p->s, "null", 4)) {
		p->s += 4;
	} else if (c == '-' || (c >= '0' && c <= '9')) {
		jp_number(p);
	} else {
		p->ok = 0;
	}
}

static int json_valid(const char *s)
{
	struct jp p = {s, 1};
	jp_value(&p, 0);
	jp_ws(&p);
	return p.ok && *p.s == 0;
}

/* ---- a synthetic run ---- */

struct fixture {
	struct ssd_config cfg;
	struct ssd_job job[2];
	struct ssd_job_result res[2];
	struct ssd_run_result run;
};

/* Job 0 is fio's own example: 5632 4 KiB writes in 1173 ms ("write:
 * IOPS=4801, BW=18.8MiB/s (19.7MB/s)(22.0MiB/1173msec)").  Job 1 reads
 * and trims in group 1. */
static struct fixture *fixture_make(void)
{
	struct fixture *f = calloc(1, sizeof *f);
	snprintf(f->cfg.name, sizeof f->cfg.name, "testdrive");
	snprintf(f->cfg.description, sizeof f->cfg.description, "a drive");
	f->cfg.capacity = 1ULL << 30;
	f->cfg.op = 0.07;
	f->cfg.page_size = 16384;
	f->cfg.pages_per_block = 256;
	f->cfg.channels = 4;
	f->cfg.dies_per_channel = 2;
	f->cfg.planes_per_die = 2;
	f->cfg.blocks_per_plane = 100;
	f->cfg.cell = SSD_CELL_TLC;

	struct ssd_job *j = &f->job[0];
	snprintf(j->name, sizeof j->name, "seqw");
	j->rw = SSD_RW_WRITE;
	for (int d = 0; d < SSD_DDIR_N; d++)
		j->bs[d] = j->min_bs[d] = j->max_bs[d] = 4096;
	j->iodepth = 1;
	j->size = 1ULL << 30;
	j->io_size = 22ULL << 20;
	j->numjobs = 1;
	j->latency_percentile = 100.0; /* the parser's default */
	j = &f->job[1];
	snprintf(j->name, sizeof j->name, "mix");
	j->rw = SSD_RW_RANDRW;
	j->rwmixread = 70;
	for (int d = 0; d < SSD_DDIR_N; d++) {
		j->nbssplit[d] = 2;
		j->bssplit[d][0] = (struct ssd_bssplit){4096, 50};
		j->bssplit[d][1] = (struct ssd_bssplit){131072, 50};
		j->min_bs[d] = 4096;
		j->max_bs[d] = 131072;
	}
	j->iodepth = 32;
	j->size = 1ULL << 30;
	j->io_size = 1ULL << 30;
	j->runtime = 2 * SSD_S;
	j->time_based = 1;
	j->dist = SSD_DIST_ZIPF;
	j->dist_param = 1.2;
	j->dist_center = -1;
	j->numjobs = 4;
	j->group_reporting = 1;
	j->stonewall = 1;

	struct ssd_job_result *r = &f->res[0];
	snprintf(r->name, sizeof r->name, "seqw");
	r->job = &f->job[0];
	r->clones = 1;
	r->runtime_ns = 1173 * SSD_MS;
	struct ssd_dstat *w = &r->dir[SSD_DDIR_WRITE];
	for (int64_t i = 0; i < 5632; i++)
		ssd_dstat_add(w, (i + 1) * r->runtime_ns / 5632, 4096,
			      10000 + (i * 7919) % 8000);
	ssd_dstat_finish(w, r->runtime_ns);
	r->ctr.host_write_lp = 5632;
	r->ctr.nand_prog = 1408;
	r->ctr.nand_prog_lp = 5632 + 100;
	r->ctr.nand_erase = 3;
	r->erase_min = 0;
	r->erase_max = 2;
	r->erase_mean = 0.5;
	r->free_blocks = 400;
	r->ctr.fold_copy_lp = 11;
	r->ctr.wl_copy_lp = 12;
	r->ctr.slc_write_lp = 13;
	r->ctr.map_read = 14;
	r->ctr.map_write = 15;
	r->ctr.erase_fail = 1;
	r->ctr.prog_fail = 2;
	r->ctr.ro_reject = 3;
	r->ctr.buffer_hits = 17;
	struct ssd_health *h = &r->health;
	h->percentage_used = 3.2;
	h->max_wear_pct = 6.5;
	h->available_spare = 87.0;
	h->spare_blocks = 7;
	h->bad_blocks = 1;
	h->erase_failures = 1;
	h->program_failures = 2;
	h->host_bytes_written = 23068672;
	h->nand_bytes_written = 23478272;
	h->slc_cache_bytes = 8192;
	h->erase_min = 0;
	h->erase_max = 2;
	h->erase_mean = 0.5;
	h->erase_hist_lo = 0;
	h->erase_hist_width = 1;
	h->erase_hist[0] = 1200;
	h->erase_hist[1] = 200;
	h->erase_hist[2] = 200;

	r = &f->res[1];
	snprintf(r->name, sizeof r->name, "mix");
	r->job = &f->job[1];
	r->groupid = 1;
	r->jobid = 1;
	r->clones = 4;
	r->start_ns = 1173 * SSD_MS;
	r->runtime_ns = 2 * SSD_S;
	for (int64_t i = 0; i < 20000; i++) {
		int d = i % 10 < 7 ? SSD_DDIR_READ : SSD_DDIR_TRIM;
		ssd_dstat_add(&r->dir[d], (i + 1) * 100 * SSD_US,
			      i % 2 ? 131072 : 4096,
			      (i % 97) * 2 * SSD_MS + 90 * SSD_US);
	}
	ssd_dstat_finish(&r->dir[SSD_DDIR_READ], r->runtime_ns);
	ssd_dstat_finish(&r->dir[SSD_DDIR_TRIM], r->runtime_ns);
	r->ctr.host_read_lp = 123;
	r->lat_over_1s = 0;
	r->error = SSD_EROFS;
	snprintf(r->errmsg, sizeof r->errmsg,
		 "write command at offset 8192, 4096 bytes: drive is read-only");
	r->health.read_only = 1; /* and no histogram: width 0 */

	f->run.cfg = &f->cfg;
	f->run.jobfile = "test.fio";
	f->run.seed = 42;
	f->run.sim_ns = 3173 * SSD_MS + 5;
	f->run.wall_s = 0.25;
	f->run.host_ios = 25632;
	f->run.njobs = 2;
	f->run.jobs = f->res;
	return f;
}

/* Run a report into a malloc'd string. */
static char *capture(int (*fn)(const struct ssd_run_result *, FILE *),
		     const struct ssd_run_result *r)
{
	FILE *f = tmpfile();
	if (!f)
		return calloc(1, 1);
	if (fn(r, f))
		t_fail(__FILE__, __LINE__, "the writer failed");
	long len = ftell(f);
	rewind(f);
	char *s = calloc(1, (size_t)(len > 0 ? len : 0) + 1);
	if (len > 0 && fread(s, 1, (size_t)len, f) != (size_t)len)
		s[0] = 0;
	fclose(f);
	return s;
}

/* Copy of s without the lines containing `needle`. */
static char *drop_lines(const char *s, const char *needle)
{
	char *out = calloc(1, strlen(s) + 1), *o = out;
	while (*s) {
		const char *e = strchr(s, '\n');
		size_t n = e ? (size_t)(e - s + 1) : strlen(s);
		char line[4096];
		snprintf(line, sizeof line, "%.*s", (int)n, s);
		if (!strstr(line, needle)) {
			memcpy(o, s, n);
			o += n;
		}
		s += n;
	}
	return out;
}

TEST(json_valid_and_complete)
{
	struct fixture *f = fixture_make();
	char *js = capture(ssd_report_json, &f->run);
	CHECKF(json_valid(js), "invalid JSON:\n%s", js);
	static const char *const want[] = {
		"{\n  \"fio version\" : \"ssdlab-" SSDLAB_VERSION "\",\n",
		"\n  \"timestamp\" : 0,\n",
		"\n  \"jobs\" : [\n    {\n      \"jobname\" : \"seqw\",\n",
		"\"groupid\" : 1,",
		"\"job options\" : {",
		"\"rw\" : \"randrw\"",
		"\"bssplit\" : \"4096/50:131072/50\"",
		"\"random_distribution\" : \"zipf:1.2\"",
		"\"runtime\" : \"2s\"",
		"\"read\" : {",
		"\"write\" : {",
		"\"trim\" : {",
		"\"io_bytes\" : 23068672,",
		"\"io_kbytes\" : 22528,",
		"\"bw_bytes\" : 19666387,",
		"\"bw\" : 19205,",
		"\"runtime\" : 1173,",
		"\"total_ios\" : 5632,",
		"\"short_ios\" : 0,",
		"\"drop_ios\" : 0,",
		"\"slat_ns\" : {",
		"\"N\" : 5632\n",
		"\"clat_ns\" : {",
		"\"percentile\" : {",
		"\"1.000000\" : ",
		"\"50.000000\" : ",
		"\"99.990000\" : ",
		"\"lat_ns\" : {",
		"\"bw_min\" : ",
		"\"bw_agg\" : ",
		"\"bw_mean\" : ",
		"\"bw_dev\" : ",
		"\"bw_samples\" : 2,",
		"\"iops_min\" : ",
		"\"iops_stddev\" : ",
		"\"iops_samples\" : 2\n",
		"\"job_runtime\" : 1173,",
		"\"latency_ns\" : {",
		"\"latency_us\" : {",
		"\"latency_ms\" : {",
		"\">=2000\" : ",
		"\"host_pages_written\" : 5632,",
		"\"nand_pages_programmed\" : 1408,",
		"\"blocks_erased\" : 3,",
		"\"waf\" : 1.017756,",
		"\"waf\" : null,",
		"\"erase_count\" : {",
		"\"fold_copied_pages\" : 11,",
		"\"wl_copied_pages\" : 12,",
		"\"slc_written_pages\" : 13,",
		"\"map_pages_read\" : 14,",
		"\"map_pages_written\" : 15,",
		"\"erase_failures\" : 1,",
		"\"program_failures\" : 2,",
		"\"writes_refused_read_only\" : 3,",
		"\"buffered_writes\" : 17,",
		"\"max\" : 2,\n          \"histogram\" : [\n"
		"            {\"from\" : 0, \"to\" : 0, \"blocks\" : 1200},\n"
		"            {\"from\" : 1, \"to\" : 1, \"blocks\" : 200},\n"
		"            {\"from\" : 2, \"to\" : 2, \"blocks\" : 200}\n"
		"          ]\n        },",
		"\"histogram\" : []\n",
		"\"health\" : {\n          \"percentage_used\" : 3.200000,",
		"\"max_wear_pct\" : 6.500000,",
		"\"available_spare\" : 87.000000,",
		"\"spare_blocks\" : 7,",
		"\"bad_blocks\" : 1,",
		"\"erase_failures\" : 1,",
		"\"program_failures\" : 2,",
		"\"read_only\" : false,",
		"\"read_only\" : true,",
		"\"host_bytes_written\" : 23068672,",
		"\"host_bytes_read\" : 0,",
		"\"nand_bytes_written\" : 23478272,",
		"\"slc_cache_bytes\" : 8192\n        }\n      }\n    },",
		"\"free_blocks\" : 400,",
		"\"lat_over_1s\" : 0",
		"\"error\" : 30,",
		"\"error\" : \"drive is read-only\",\n        \"error_message\" : "
		"\"write command at offset 8192, 4096 bytes: drive is read-only\"\n",
		"\"jobfile\" : \"test.fio\"",
		"\"drive\" : {",
		"\"testdrive\"", /* inside "drive", from config.c */
		"\"seed\" : 42,",
		"\"sim_seconds\" : 3.173000005,",
		"\"wall_seconds\" : 0.250000,",
		"\"host_ios\" : 25632,",
		"\"host_ios_per_wall_second\" : 102528.000000\n",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		CHECKF(strstr(js, want[i]), "missing %s", want[i]);
	/* the host machine's keys are there, zero (simulator-only) */
	CHECK(strstr(js, "\"usr_cpu\" : 0.000000,") &&
	      strstr(js, "\"disk_util\" : [\n    {\n      \"name\" : \"testdrive\""));
	CHECK(strstr(js, "\"ctx\" : 0,") && strstr(js, "\"majf\" : 0,"));
	/* no bins in plain JSON */
	CHECK(!strstr(js, "\"bins\""));
	/* the last line closes the top object */
	size_t n = strlen(js);
	CHECK(n > 3 && !strcmp(js + n - 3, "\n}\n"));
	free(js);
	free(f);
}

TEST(json_byte_identical_and_wall_clock_confined)
{
	struct fixture *f = fixture_make();
	char *a = capture(ssd_report_json, &f->run);
	char *b = capture(ssd_report_json, &f->run);
	CHECK(!strcmp(a, b));
	f->run.wall_s = 7.5;
	char *c = capture(ssd_report_json, &f->run);
	CHECK(strcmp(a, c) != 0);
	char *a2 = drop_lines(a, "wall"), *c2 = drop_lines(c, "wall");
	CHECK(!strcmp(a2, c2));
	free(a);
	free(b);
	free(c);
	free(a2);
	free(c2);
	free(f);
}

TEST(json_percentiles_match_histogram)
{
	struct fixture *f = fixture_make();
	char *js = capture(ssd_report_json, &f->run);
	const struct ssd_hist *h = &f->res[0].dir[SSD_DDIR_WRITE].hist;
	char want[96];
	snprintf(want, sizeof want, "\"50.000000\" : %llu,",
		 (unsigned long long)ssd_hist_percentile(h, 50));
	CHECKF(strstr(js, want), "missing %s", want);
	free(js);
	free(f);
}

TEST(json_edge_cases_stay_valid)
{
	struct fixture *f = fixture_make();
	/* hostile job name, no config, no job options, no jobs */
	snprintf(f->res[0].name, sizeof f->res[0].name,
		 "a\"b\\c\nd\x01\xff\xc3\xa9");
	f->res[0].job = NULL;
	f->run.cfg = NULL;
	f->run.jobfile = NULL;
	f->run.wall_s = 0;
	char *js = capture(ssd_report_json, &f->run);
	CHECKF(json_valid(js), "invalid JSON:\n%s", js);
	CHECK(strstr(js, "\"jobname\" : \"a\\\"b\\\\c\\u000ad\\u0001"
			 "\\ufffd\xc3\xa9\""));
	CHECK(strstr(js, "\"drive\" : null"));
	free(js);

	f->run.njobs = 0;
	js = capture(ssd_report_json, &f->run);
	CHECKF(json_valid(js), "invalid JSON:\n%s", js);
	free(js);

	/* an idle job: every figure zero, still valid */
	memset(&f->res[0].dir, 0, sizeof f->res[0].dir);
	f->res[0].runtime_ns = 0;
	f->run.njobs = 1;
	js = capture(ssd_report_json, &f->run);
	CHECKF(json_valid(js), "invalid JSON:\n%s", js);
	CHECK(!strstr(js, "\"percentile\""));
	free(js);
	free(f);
}

TEST(json_str_escaping)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ssd_json_str(f, "plain");
	fputc('|', f);
	ssd_json_str(f, "q\"b\\s/\t\x1f\x7f");
	fputc('|', f);
	ssd_json_str(f, "\xe2\x82\xac \xed\xa0\x80 \xc0\xaf");
	fputc('|', f);
	ssd_json_str(f, NULL);
	fclose(f);
	CHECKF(!strcmp(buf, "\"plain\"|\"q\\\"b\\\\s/\\u0009\\u001f\\u007f\"|"
			    "\"\xe2\x82\xac \\ufffd\\ufffd\\ufffd "
			    "\\ufffd\\ufffd\"|\"\""),
	       "got %s", buf);
	free(buf);
}

TEST(normal_output_fio_shape)
{
	struct fixture *f = fixture_make();
	char *t = capture(ssd_report_normal, &f->run);
	static const char *const want[] = {
		"seqw: (g=0): rw=write, bs=(R) 4096B-4096B, (W) 4096B-4096B, "
		"(T) 4096B-4096B, ioengine=ssdlab, iodepth=1\n",
		"mix: (g=1): rw=randrw, bs=(R) 4096B-128KiB, (W) 4096B-128KiB, "
		"(T) 4096B-128KiB, ioengine=ssdlab, iodepth=32\n",
		"\nssdlab-" SSDLAB_VERSION "\n\n",
		"\nseqw: (groupid=0, jobs=1): err= 0\n",
		"\n  write: IOPS=4801, BW=18.8MiB/s (19.7MB/s)"
		"(22.0MiB/1173msec)\n",
		"\n    clat (nsec): min=10000, max=17998, avg=13999.90, "
		"stdev=2310.54\n",
		"\n     lat (nsec): min=10000, max=17998, avg=13999.90, "
		"stdev=2310.54\n",
		"\n    clat percentiles (nsec):\n     |  1.00th=[",
		"],  5.00th=[",
		"], 20.00th=[",
		"],\n     | 30.00th=[",
		"\n     | 99.99th=[",
		"\n   bw (  KiB/s): min=",
		", per=99.99%, avg=19204.00, stdev=",
		", samples=2\n   iops        : min=",
		"\n  lat (usec)   : 20=100.00%\n",
		"\n  ssdlab: waf=1.018, nand: read=0 prog=1408 erase=3, gc: "
		"copied=0 victims=0, erase count min/mean/max=0/0.50/2, "
		"free blocks=400\n",
		"\n  health: used=3.2%, max wear=6.5%, spare=87%, bad blocks=1, "
		"read-only=no, host written=22.0MiB, nand written=22.4MiB\n",
		"\n  health: used=0.0%, max wear=0.0%, spare=0%, bad blocks=0, "
		"read-only=yes, host written=0B, nand written=0B\n",
		"\nmix: (groupid=1, jobs=4): err=30 (drive is read-only)\n"
		"  ssdlab: error: write command at offset 8192, 4096 bytes: "
		"drive is read-only\n  read: IOPS=",
		"\n  read: IOPS=",
		"\n  trim: IOPS=",
		"    clat percentiles (usec):\n",
		"  lat (msec)   : ",
		"waf=n/a",
		"\n\nRun status group 0 (all jobs):\n  WRITE: bw=18.8MiB/s "
		"(19.7MB/s), 18.8MiB/s-18.8MiB/s (19.7MB/s-19.7MB/s), "
		"io=22.0MiB (23.1MB), run=1173-1173msec\n",
		"\nRun status group 1 (all jobs):\n   READ: bw=",
		"\n   TRIM: bw=",
		"\nDrive testdrive -- a drive:\n  capacity=1 GiB (1073741824 "
		"bytes), op=7.00%, cell=tlc",
		"\nRun: seed=42, simulated time=3.173000005 s, "
		"host I/Os=25632, jobs=test.fio\n",
		"\nWall: 0.250 s, 102528 simulated host I/Os per wall second\n",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		CHECKF(strstr(t, want[i]), "missing [%s] in:\n%s", want[i], t);
	/* nothing about the host machine */
	CHECK(!strstr(t, ": pid=") && !strstr(t, "  cpu "));
	/* the wall-clock line is last and the only one that varies */
	size_t n = strlen(t);
	CHECK(n > 0 && t[n - 1] == '\n');
	f->run.wall_s = 3;
	char *u = capture(ssd_report_normal, &f->run);
	char *t2 = drop_lines(t, "Wall: "), *u2 = drop_lines(u, "Wall: ");
	CHECK(strcmp(t, u) != 0 && !strcmp(t2, u2));
	free(t);
	free(u);
	free(t2);
	free(u2);
	free(f);
}

/* A random read of a fresh drive (fio's examples/fio-rand-read.fio)
 * reported 854,000 IOPS with no NAND read and nothing saying why: the
 * pages read unmapped are counted, and a note says what they measure
 * when they are more than 10% of the reads. */
TEST(report_says_how_many_reads_were_of_unmapped_pages)
{
	struct fixture *f = fixture_make();
	struct ssd_counters *c = &f->res[1].ctr;
	static const struct {
		uint64_t read, unmapped;
		const char *pct; /* NULL: no note */
	} cases[] = {
		{123, 0, NULL}, {1000, 100, NULL}, {1000, 101, "10.1"},
		{768573882, 768573882, "100.0"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		c->host_read_lp = cases[i].read;
		c->host_unmapped_read_lp = cases[i].unmapped;
		char *t = capture(ssd_report_normal, &f->run);
		char *js = capture(ssd_report_json, &f->run);
		char line[160], json[120], note[160];
		snprintf(line, sizeof line, "  ssdlab: host 4KiB pages: read=%llu "
			 "written=0 trimmed=0, read unmapped=%llu, ",
			 (unsigned long long)cases[i].read,
			 (unsigned long long)cases[i].unmapped);
		snprintf(json, sizeof json, "\"host_pages_read_unmapped\" : %llu,",
			 (unsigned long long)cases[i].unmapped);
		snprintf(note, sizeof note, "%s%% of the pages read (%llu of %llu) "
			 "were never written or were trimmed: the drive answers "
			 "them from its map without reading NAND",
			 cases[i].pct ? cases[i].pct : "",
			 (unsigned long long)cases[i].unmapped,
			 (unsigned long long)cases[i].read);
		CHECKF(strstr(t, line), "case %zu: no [%s] in:\n%s", i, line, t);
		CHECKF(strstr(js, json), "case %zu: no [%s]", i, json);
		CHECKF(json_valid(js), "case %zu: invalid JSON", i);
		int noted = cases[i].pct != NULL;
		CHECKF(!!strstr(t, note) == noted && !!strstr(js, note) == noted &&
		       !!strstr(js, "\"unmapped_reads_note\"") == noted,
		       "case %zu: the note %s:\n%s", i, noted ? "missing" : "printed",
		       t);
		free(t);
		free(js);
	}
	free(f);
}

TEST(normal_output_percentile_rows)
{
	/* fio prints 4 percentiles a row when values fit 5 digits */
	struct fixture *f = fixture_make();
	f->run.njobs = 1;
	char *t = capture(ssd_report_normal, &f->run);
	const char *p = strstr(t, "clat percentiles (nsec):\n");
	CHECK(p);
	p = strchr(p, '\n') + 1;
	int rows = 0;
	while (!strncmp(p, "     |", 6)) {
		const char *e = strchr(p, '\n');
		int cells = 0;
		for (const char *q = p; q < e; q++)
			cells += *q == '[';
		CHECK(cells == (rows < 4 ? 4 : 1));
		rows++;
		p = e + 1;
	}
	CHECK(rows == 5);
	free(t);
	free(f);
}

TEST(json_numbers_ignore_locale)
{
	static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8",
					    "fr_FR.UTF-8", "ru_RU.UTF-8"};
	struct fixture *f = fixture_make();
	char *want = capture(ssd_report_json, &f->run);
	char saved[64];
	snprintf(saved, sizeof saved, "%s", setlocale(LC_NUMERIC, NULL));
	int found = 0;
	for (size_t i = 0; i < sizeof names / sizeof names[0] && !found; i++)
		found = setlocale(LC_NUMERIC, names[i]) != NULL;
	char *got = found ? capture(ssd_report_json, &f->run) : NULL;
	setlocale(LC_NUMERIC, saved);
	if (got) /* a comma-decimal locale is installed: same bytes */
		CHECK(!strcmp(got, want));
	free(got);
	free(want);
	free(f);
}

/* Keys fio has that a simulation fills: the depth distribution (fio's
 * arithmetic: flushes in the buckets, not in the total), sync latency,
 * elapsed, latency target; json+ adds the histogram as bins that add up
 * to the completions. */
TEST(json_fio_keys_and_json_plus_bins)
{
	struct fixture *f = fixture_make();
	struct ssd_job_result *r = &f->res[0];
	r->depth[0] = 5632 + 10; /* 10 flushes */
	for (int i = 0; i < 10; i++)
		ssd_dstat_add(&r->sync, i * SSD_MS, 0, 200 * SSD_US);
	r->end_ns = 1173 * SSD_MS;
	char *js = capture(ssd_report_json, &f->run);
	CHECKF(json_valid(js), "invalid JSON:\n%s", js);
	static const char *const want[] = {
		"\"eta\" : 0,\n      \"elapsed\" : 2,\n",
		"\"sync\" : {\n        \"total_ios\" : 10,\n        \"lat_ns\" : {\n"
		"          \"min\" : 200000,",
		"\"iodepth_level\" : {\n        \"1\" : 100.177557,",
		"\"iodepth_submit\" : {\n        \"0\" : 0.000000,\n        \"4\" : 100.000000,",
		"\"iodepth_complete\" : {",
		"\"latency_depth\" : 1,\n      \"latency_target\" : 0,\n"
		"      \"latency_percentile\" : 100.000000,\n"
		"      \"latency_window\" : 0,\n",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		CHECKF(strstr(js, want[i]), "missing %s", want[i]);
	free(js);

	js = capture(ssd_report_json_plus, &f->run);
	CHECKF(json_valid(js), "invalid JSON+:\n%s", js);
	/* the write clat bins of job 0 add up to its 5632 completions, each
	 * key a bucket value */
	const char *b = strstr(js, "\"bins\" : {");
	CHECK(b);
	uint64_t sum = 0;
	const char *end = b ? strchr(b, '}') : NULL;
	for (const char *p = b ? b + 10 : NULL; p && p < end;) {
		const char *q = strchr(p, '"');
		if (!q || q > end)
			break;
		unsigned long long key = strtoull(q + 1, NULL, 10);
		CHECK(ssd_hist_value(ssd_hist_index(key)) == key);
		const char *c = strstr(q, " : ");
		sum += strtoull(c + 3, NULL, 10);
		p = strchr(c, '\n');
	}
	CHECKF(sum == 5632, "bins add up to %llu", (unsigned long long)sum);
	free(js);
	free(f);
}

/* fio's terse v3: 130 fields a job here (5 + 2 x 42 + 5 + 7 + 22 + 9),
 * latencies in usec */
TEST(terse_v3_fields)
{
	struct fixture *f = fixture_make();
	char *t = capture(ssd_report_terse, &f->run);
	char *line = strtok(t, "\n");
	CHECK(line && !strncmp(line, "3;ssdlab-" SSDLAB_VERSION ";seqw;0;0;", 20));
	int n = 1;
	for (char *c = line; c && *c; c++)
		n += *c == ';';
	CHECKF(n == 130, "%d fields", n);
	/* write: 22528 KiB, 19205 KiB/s, 4801 IOPS, 1173 ms */
	CHECK(strstr(line, ";22528;19205;4801;1173;0;0;0.000000;0.000000;10;"));
	CHECK(strstr(line, ";1.000000%=10;"));
	CHECK(strstr(line, ";testdrive;0;0;0;0;0;0;0;0.00%"));
	line = strtok(NULL, "\n");
	CHECK(line && !strncmp(line, "3;ssdlab-" SSDLAB_VERSION ";mix;1;30;", 20));
	CHECK(!strtok(NULL, "\n"));
	free(t);
	free(f);
}

static const struct ssd_run_result *fmt_run;
static unsigned fmt_bits;
static int report_fmt(const struct ssd_run_result *r, FILE *out)
{
	(void)r;
	return ssd_report(fmt_run, fmt_bits, out);
}

/* several formats print in fio's order: job lines, terse, JSON, text */
TEST(output_formats_in_fios_order)
{
	unsigned bits = 0;
	CHECK(ssd_output_formats("json,normal", &bits) == 0 &&
	      bits == (SSD_OUT_JSON | SSD_OUT_NORMAL));
	CHECK(ssd_output_formats("terse", &bits) == 0 && bits == SSD_OUT_TERSE);
	CHECK(ssd_output_formats("json+", &bits) == 0 &&
	      bits == SSD_OUT_JSON_PLUS);
	CHECK(ssd_output_formats("json,", &bits) == SSD_EPARSE);
	CHECK(ssd_output_formats("xml", &bits) == SSD_EPARSE);
	CHECK(ssd_output_formats("", &bits) == SSD_EPARSE);
	struct fixture *f = fixture_make();
	fmt_run = &f->run;
	fmt_bits = SSD_OUT_NORMAL | SSD_OUT_JSON | SSD_OUT_TERSE;
	char *t = capture(report_fmt, &f->run);
	const char *jl = strstr(t, "seqw: (g=0)"), *te = strstr(t, "\n3;ssdlab");
	const char *js = strstr(t, "\n{\n"), *body = strstr(t, "Run status group");
	CHECK(jl && te && js && body && jl < te && te < js && js < body);
	CHECK(strstr(t, "  IO depths    : 1=0.0%, 2=0.0%,"));
	free(t);
	free(f);
}
