/*
 * test_calibrate.c -- the "# ref" lines of presets (src/methods/calibrate.c):
 * their parsing and errors, the deviation of a measured value from a
 * seed figure (number, range, bound), the figure table, scaling a drive
 * down, and a small measurement run.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "methods/calibrate.h"
#include "base/config.h"
#include "t.h"
#include "base/util.h"

static int close_to(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(b) > 1 ? fabs(b) : 1);
}

/* ---- parsing ---- */

TEST(cal_parse_number)
{
	struct ssd_cal_ref r;
	char err[512];
	int k = ssd_cal_parse_ref(
		"# ref seq_read_mbps = 168 ; 000: max sequential read ~168 MB/s\n",
		&r, err, sizeof err);
	CHECKF(k == 1, "k=%d err=%s", k, err);
	CHECK(!strcmp(r.figure, "seq_read_mbps"));
	CHECK(r.kind == SSD_CAL_EQ);
	CHECK(r.lo == 168 && r.hi == 168);
	CHECK(!strcmp(r.value, "168"));
	CHECK(!strcmp(r.seed, "000"));
	CHECK(!strcmp(r.note, "max sequential read ~168 MB/s"));
	CHECK(r.line == 0);
}

TEST(cal_parse_range_and_bounds)
{
	struct ssd_cal_ref r;
	char err[512];
	CHECK(ssd_cal_parse_ref("#ref seq_write_mbps=65..80;002:h2benchw", &r,
				err, sizeof err) == 1);
	CHECK(r.kind == SSD_CAL_RANGE && r.lo == 65 && r.hi == 80);
	CHECK(!strcmp(r.value, "65..80") && !strcmp(r.note, "h2benchw"));
	CHECK(ssd_cal_parse_ref("  #  ref\tseq_read_mbps = >200 ; 002: x", &r,
				err, sizeof err) == 1);
	CHECK(r.kind == SSD_CAL_ABOVE && r.lo == 200);
	CHECK(ssd_cal_parse_ref("# ref trim_32g_s = < 1 ; 001: under a second",
				&r, err, sizeof err) == 1);
	CHECK(r.kind == SSD_CAL_BELOW && r.hi == 1);
	CHECK(ssd_cal_parse_ref("# ref mean_latency_ms = 0.98 ; 000: a; b", &r,
				err, sizeof err) == 1);
	CHECK(close_to(r.lo, 0.98));
	CHECK(!strcmp(r.note, "a; b")); /* the note may hold a ';' */
	/* a figure that is not modelled still parses */
	CHECK(ssd_cal_parse_ref("# ref app_load_mbps = 141 ; 004: PCMark", &r,
				err, sizeof err) == 1);
}

TEST(cal_parse_other_lines)
{
	struct ssd_cal_ref r;
	char err[512];
	const char *lines[] = {
		"capacity = 32g", "# a comment", "# reference figures below",
		"# refs are below", "", "   ", "; ref seq_read_mbps = 1 ; 000: x",
		"name = ref",
	};
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		CHECKF(ssd_cal_parse_ref(lines[i], &r, err, sizeof err) == 0,
		       "'%s' taken for a ref line", lines[i]);
}

TEST(cal_parse_errors)
{
	struct ssd_cal_ref r;
	char err[512];
	CHECK(ssd_cal_parse_ref("# ref seq_read_speed = 1 ; 000: x", &r, err,
				sizeof err) == SSD_ENOENT);
	CHECKF(strstr(err, "unknown figure 'seq_read_speed'") &&
	       strstr(err, "seq_read_mbps"), "%s", err);
	CHECK(ssd_cal_parse_ref("# ref seq_read_mbps = fast ; 000: x", &r, err,
				sizeof err) == SSD_EPARSE);
	CHECKF(strstr(err, "bad value 'fast'"), "%s", err);
	const char *bad[] = {
		"# ref seq_read_mbps = 80..65 ; 000: x",   /* empty range */
		"# ref seq_read_mbps = -3 ; 000: x",       /* negative */
		"# ref seq_read_mbps = 1..2..3 ; 000: x",
		"# ref seq_read_mbps = ; 000: x",
		"# ref seq_read_mbps = 168 ; no seed",     /* no citation */
		"# ref seq_read_mbps = 168 ; 00: x",
		"# ref seq_read_mbps = 168",               /* no ';' */
		"# ref seq_read_mbps 168 ; 000: x",        /* no '=' */
		"# ref = 168 ; 000: x",                    /* no name */
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECKF(ssd_cal_parse_ref(bad[i], &r, err, sizeof err) < 0,
		       "'%s' accepted", bad[i]);
	CHECK(ssd_cal_parse_ref("# ref seq_read_mbps = 168 ; no seed", &r, err,
				sizeof err) == SSD_EPARSE);
	CHECKF(strstr(err, "seed"), "%s", err);
}

TEST(cal_load_refs_file)
{
	char path[] = "/tmp/ssdlab_test_calXXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("# a drive\ncapacity = 1g\n"
	      "# ref seq_read_mbps = 168 ; 000: read\n"
	      "op = 0.07\n"
	      "# ref seq_write_mbps = 20..30 ; 000: write\n", f);
	fclose(f);
	struct ssd_cal_ref refs[4];
	int n = -1;
	char err[512];
	int rc = ssd_cal_load_refs(path, refs, 4, &n, err, sizeof err);
	CHECKF(rc == 0, "%s", err);
	CHECK(n == 2);
	CHECK(refs[0].line == 3 && refs[1].line == 5);
	CHECK(!strcmp(refs[1].figure, "seq_write_mbps"));
	/* too many for the array */
	rc = ssd_cal_load_refs(path, refs, 1, &n, err, sizeof err);
	CHECK(rc == SSD_ERANGE);
	CHECKF(strstr(err, ":5: "), "%s", err);
	/* an error names the file and line */
	f = fopen(path, "a");
	fputs("# ref seq_read_mbps = x ; 000: y\n", f);
	fclose(f);
	rc = ssd_cal_load_refs(path, refs, 4, &n, err, sizeof err);
	CHECK(rc == SSD_EPARSE);
	CHECKF(!strncmp(err, path, strlen(path)) && strstr(err, ":6: "), "%s", err);
	unlink(path);
	CHECK(ssd_cal_load_refs(path, refs, 4, &n, err, sizeof err) == SSD_EIO);
}

TEST(cal_load_refs_miss_lines)
{
	char path[] = "/tmp/ssdlab_test_calXXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	FILE *f = fdopen(fd, "w");
	/* a miss line before its figure's ref lines: both refs get it */
	fputs("# miss seq_read_mbps: firmware, not flash\n"
	      "# ref seq_read_mbps = 168 ; 000: read\n"
	      "# ref seq_read_mbps = 109 ; 002: read again\n"
	      "# ref seq_write_mbps = 27 ; 000: write\n", f);
	fclose(f);
	struct ssd_cal_ref refs[4];
	int n = -1;
	char err[512];
	int rc = ssd_cal_load_refs(path, refs, 4, &n, err, sizeof err);
	CHECKF(rc == 0 && n == 3, "%d %s", rc, err);
	CHECK(!strcmp(refs[0].miss, "firmware, not flash"));
	CHECK(!strcmp(refs[1].miss, "firmware, not flash"));
	CHECK(refs[2].miss[0] == 0);
	/* a miss line for a figure without a ref line names its line */
	f = fopen(path, "a");
	fputs("# miss trim_32g_s: nothing to miss\n", f);
	fclose(f);
	rc = ssd_cal_load_refs(path, refs, 4, &n, err, sizeof err);
	CHECK(rc == SSD_EPARSE);
	CHECKF(strstr(err, ":5: a miss line for 'trim_32g_s'"), "%s", err);
	unlink(path);
	char fig[40], why[64];
	CHECK(ssd_cal_parse_miss("# missing piece", fig, sizeof fig, why,
				 sizeof why, err, sizeof err) == 0);
	CHECK(ssd_cal_parse_miss("capacity = 1g", fig, sizeof fig, why,
				 sizeof why, err, sizeof err) == 0);
	CHECK(ssd_cal_parse_miss("#miss spikes_per_min :  bursts ", fig,
				 sizeof fig, why, sizeof why, err,
				 sizeof err) == 1);
	CHECK(!strcmp(fig, "spikes_per_min") && !strcmp(why, "bursts"));
	CHECK(ssd_cal_parse_miss("# miss spikes_per_min", fig, sizeof fig, why,
				 sizeof why, err, sizeof err) == SSD_EPARSE);
	CHECK(ssd_cal_parse_miss("# miss spikes: x", fig, sizeof fig, why,
				 sizeof why, err, sizeof err) == SSD_ENOENT);
}

TEST(cal_fill_lines_name_the_full_drive_procedure)
{
	char err[512];
	int fill = -1;
	CHECK(ssd_cal_parse_fill("# fill dircopy: 003: copied directories",
				 &fill, err, sizeof err) == 1);
	CHECK(fill == SSD_CAL_FILL_DIRCOPY);
	CHECK(ssd_cal_parse_fill("#fill sequential : a linear write", &fill,
				 err, sizeof err) == 1);
	CHECK(fill == SSD_CAL_FILL_SEQ);
	CHECK(ssd_cal_parse_fill("# filled: no", &fill, err, sizeof err) == 0);
	CHECK(ssd_cal_parse_fill("# fill random: x", &fill, err, sizeof err) ==
	      SSD_EPARSE);
	CHECKF(strstr(err, "unknown procedure 'random'"), "%s", err);
	CHECK(ssd_cal_parse_fill("# fill dircopy:  ", &fill, err, sizeof err) ==
	      SSD_EPARSE);
	CHECK(ssd_cal_parse_fill("# fill dircopy", &fill, err, sizeof err) ==
	      SSD_EPARSE);
	/* a ref's fill: its figure's own; the file's line for the full
	 * drive's figures only */
	char path[] = "/tmp/ssdlab_test_calXXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("# ref seq_read_full_mbps = 177 ; 003: read, full\n"
	      "# fill dircopy: 003: copied directories\n"
	      "# ref seq_write_mbps = 233 ; 003: write, clean\n"
	      "# ref slc_cache_mb = 600 ; 001: the cliff\n"
	      "# ref seq_write_trim_mbps = 279 ; 003: after TRIM\n"
	      "# ref rand_write_iops_steady = 40 ; 001: steady\n", f);
	fclose(f);
	struct ssd_cal_ref refs[5];
	int n = -1;
	int rc = ssd_cal_load_refs(path, refs, 5, &n, err, sizeof err);
	CHECKF(rc == 0 && n == 5, "%d %s", rc, err);
	CHECK(refs[0].fill == SSD_CAL_FILL_DIRCOPY);
	CHECK(refs[1].fill == SSD_CAL_FILL_NONE);
	CHECK(refs[2].fill == SSD_CAL_FILL_SEQ);
	CHECK(refs[3].fill == SSD_CAL_FILL_DIRCOPY);
	CHECK(refs[4].fill == SSD_CAL_FILL_RANDOM);
	ssd_cal_set_fill(refs, n, SSD_CAL_FILL_SEQ);
	CHECK(refs[0].fill == SSD_CAL_FILL_SEQ && refs[3].fill == SSD_CAL_FILL_SEQ);
	CHECK(refs[2].fill == SSD_CAL_FILL_SEQ && refs[4].fill == SSD_CAL_FILL_RANDOM);
	f = fopen(path, "a");
	fputs("# fill sequential: twice\n", f);
	fclose(f);
	CHECK(ssd_cal_load_refs(path, refs, 5, &n, err, sizeof err) == SSD_EPARSE);
	CHECKF(strstr(err, ":7: a second fill line (the first is line 2)"), "%s",
	       err);
	unlink(path);
	CHECK(!strcmp(ssd_cal_fill_name(SSD_CAL_FILL_NONE), "-"));
	CHECK(!strcmp(ssd_cal_fill_name(SSD_CAL_FILL_DIRCOPY), "dircopy"));
	CHECK(ssd_cal_fill_find("random") == -1);
}

/* ---- deviation ---- */

TEST(cal_deviation_math)
{
	struct ssd_cal_ref r = {.kind = SSD_CAL_EQ, .lo = 200, .hi = 200};
	CHECK(close_to(ssd_cal_deviation(&r, 230), 15));
	CHECK(close_to(ssd_cal_deviation(&r, 170), -15));
	CHECK(close_to(ssd_cal_deviation(&r, 200), 0));
	CHECK(isnan(ssd_cal_deviation(&r, NAN)));
	r = (struct ssd_cal_ref){.kind = SSD_CAL_RANGE, .lo = 600, .hi = 700};
	CHECK(ssd_cal_deviation(&r, 600) == 0);
	CHECK(ssd_cal_deviation(&r, 671) == 0);
	CHECK(ssd_cal_deviation(&r, 700) == 0);
	CHECK(close_to(ssd_cal_deviation(&r, 540), -10));   /* from 600 */
	CHECK(close_to(ssd_cal_deviation(&r, 770), 10));    /* from 700 */
	r = (struct ssd_cal_ref){.kind = SSD_CAL_ABOVE, .lo = 200, .hi = 200};
	CHECK(ssd_cal_deviation(&r, 240) == 0);
	CHECK(close_to(ssd_cal_deviation(&r, 150), -25));
	r = (struct ssd_cal_ref){.kind = SSD_CAL_BELOW, .lo = 1, .hi = 1};
	CHECK(ssd_cal_deviation(&r, 0.001) == 0);
	CHECK(close_to(ssd_cal_deviation(&r, 1.5), 50));
	CHECK(isinf(ssd_cal_deviation(&r, INFINITY)));
	r = (struct ssd_cal_ref){.kind = SSD_CAL_EQ, .lo = 0, .hi = 0};
	CHECK(isnan(ssd_cal_deviation(&r, 3)));
}

/* ---- the figure table ---- */

TEST(cal_figure_table)
{
	int n = 0;
	for (const struct ssd_cal_figure *f; (f = ssd_cal_figure_at(n)); n++) {
		CHECKF(f->unit && *f->unit, "%s: no unit", f->name);
		CHECKF(!f->method != !f->why_not,
		       "%s: wants exactly one of method and why_not", f->name);
		CHECK(ssd_cal_figure_find(f->name) == f);
		for (int k = 0; k < n; k++)
			CHECKF(strcmp(ssd_cal_figure_at(k)->name, f->name),
			       "%s twice", f->name);
	}
	CHECK(n >= 20);
	CHECK(ssd_cal_figure_at(-1) == NULL);
	CHECK(ssd_cal_figure_find("nope") == NULL);
	CHECK(ssd_cal_figure_find("slc_cache_mb")->method);
	CHECK(ssd_cal_figure_find("app_load_mbps")->why_not);
}

/* ---- scaling ---- */

static void small_drive(struct ssd_config *c, uint64_t cap)
{
	ssd_config_defaults(c);
	c->capacity = cap;
	c->page_size = 4096;
	c->pages_per_block = 64;
	c->channels = 2;
	c->dies_per_channel = 2;
	c->planes_per_die = 1;
	c->multiplane = 0;
}

TEST(cal_scale_keeps_shape)
{
	struct ssd_config c, s;
	char err[512];
	small_drive(&c, 1ull << 30);
	c.slc_cache = SSD_SLC_DYNAMIC;
	c.slc_cache_size = 64u << 20;
	c.write_buffer = 1u << 20;
	CHECKF(!ssd_config_finish(&c, err, sizeof err), "%s", err);
	uint32_t k = ssd_cal_scale(&c, 256u << 20, 16, &s);
	CHECK(k == 4);
	CHECK(s.capacity == c.capacity / 4);
	CHECK(s.slc_cache_size == c.slc_cache_size / 4);
	CHECK(s.write_buffer == c.write_buffer); /* DRAM does not scale */
	CHECK(s.op == c.op && s.channels == c.channels &&
	      s.pages_per_block == c.pages_per_block);
	CHECKF(s.blocks_per_plane * 4 >= c.blocks_per_plane - 4 &&
	       s.blocks_per_plane * 4 <= c.blocks_per_plane + 4,
	       "bpp %u vs %u", s.blocks_per_plane, c.blocks_per_plane);
	/* min_blocks limits the scale */
	k = ssd_cal_scale(&c, 1u << 20, c.blocks_per_plane / 8, &s);
	CHECKF(k == 8, "k=%u", k);
	/* already small enough */
	CHECK(ssd_cal_scale(&c, 1ull << 40, 16, &s) == 1);
	CHECK(s.capacity == c.capacity);
}

/* ---- measuring ---- */

TEST(cal_measure_small_drive)
{
	struct ssd_config c;
	char err[512];
	small_drive(&c, 64u << 20);
	CHECKF(!ssd_config_finish(&c, err, sizeof err), "%s", err);
	struct ssd_cal_ref refs[5];
	const char *lines[] = {
		"# ref seq_write_mbps = 100 ; 000: x",
		"# ref seq_read_unmapped_mbps = >1 ; 003: x",
		"# ref post_cache_write_mbps = 100 ; 001: x",
		"# ref slc_cache_mb = 0..1 ; 001: x",
		"# ref app_load_mbps = 141 ; 004: x",
	};
	for (int i = 0; i < 5; i++)
		CHECK(ssd_cal_parse_ref(lines[i], &refs[i], err, sizeof err) == 1);
	struct ssd_cal_opts o = {.quick = 1, .seed = 1};
	struct ssd_cal_value v[5], w[5];
	CHECKF(!ssd_cal_measure(&c, refs, 5, &o, v, err, sizeof err), "%s", err);
	for (int i = 0; i < 5; i++)
		CHECKF(!v[i].error[0], "%s: %s", refs[i].figure, v[i].error);
	CHECK(v[0].value > 1 && isfinite(v[0].value));
	/* unmapped reads move no NAND data: the host link is the limit */
	CHECKF(v[1].value > v[0].value, "unmapped read %.1f, write %.1f",
	       v[1].value, v[0].value);
	/* no SLC cache: no cliff, and the fill runs at the write speed */
	CHECK(v[3].value == 0);
	CHECKF(fabs(v[2].value - v[0].value) < 0.1 * v[0].value,
	       "fill %.1f vs write %.1f", v[2].value, v[0].value);
	CHECK(isnan(v[4].value)); /* not modelled */
	/* deterministic */
	CHECK(!ssd_cal_measure(&c, refs, 5, &o, w, err, sizeof err));
	for (int i = 0; i < 4; i++)
		CHECK(v[i].value == w[i].value);
}

TEST(cal_measure_full_drive_after_a_directory_copy)
{
	/* the full drive's figures after either fill: both measured, the
	 * copy leaves the drive full too (a write after it erases) */
	struct ssd_config c;
	char err[512];
	small_drive(&c, 64u << 20);
	CHECKF(!ssd_config_finish(&c, err, sizeof err), "%s", err);
	struct ssd_cal_ref refs[3];
	CHECK(ssd_cal_parse_ref("# ref seq_write_full_mbps = 1 ; 003: x",
				&refs[0], err, sizeof err) == 1);
	CHECK(ssd_cal_parse_ref("# ref seq_read_full_mbps = 1 ; 003: x",
				&refs[1], err, sizeof err) == 1);
	CHECK(ssd_cal_parse_ref("# ref trim_32g_s = 1 ; 003: x", &refs[2], err,
				sizeof err) == 1);
	struct ssd_cal_opts o = {.quick = 1, .seed = 1};
	struct ssd_cal_value seq[3], dc[3], again[3];
	CHECKF(!ssd_cal_measure(&c, refs, 3, &o, seq, err, sizeof err), "%s", err);
	ssd_cal_set_fill(refs, 3, SSD_CAL_FILL_DIRCOPY);
	CHECKF(!ssd_cal_measure(&c, refs, 3, &o, dc, err, sizeof err), "%s", err);
	CHECK(!ssd_cal_measure(&c, refs, 3, &o, again, err, sizeof err));
	for (int i = 0; i < 3; i++) {
		CHECKF(!seq[i].error[0] && !dc[i].error[0], "%s: %s %s",
		       refs[i].figure, seq[i].error, dc[i].error);
		CHECK(isfinite(dc[i].value) && dc[i].value > 0);
		CHECK(dc[i].value == again[i].value); /* deterministic */
	}
	/* the runs differ: another drive state */
	CHECK(dc[0].value != seq[0].value || dc[1].value != seq[1].value);
}

TEST(cal_measure_slc_cliff)
{
	/* a TLC drive with a static SLC cache: the fill's cliff is where
	 * the cache ends, and the rate after it is the native one */
	struct ssd_config c;
	char err[512];
	small_drive(&c, 256u << 20);
	c.op = 0.25; /* room for the cache's blocks (3 native bytes each) */
	c.slc_cache = SSD_SLC_STATIC;
	c.slc_cache_size = 16u << 20;
	CHECKF(!ssd_config_finish(&c, err, sizeof err), "%s", err);
	struct ssd_cal_ref refs[3];
	CHECK(ssd_cal_parse_ref("# ref slc_cache_mb = 17 ; 001: x", &refs[0], err,
				sizeof err) == 1);
	CHECK(ssd_cal_parse_ref("# ref post_cache_write_mbps = 1 ; 001: x",
				&refs[1], err, sizeof err) == 1);
	CHECK(ssd_cal_parse_ref("# ref seq_write_mbps = 1 ; 001: x", &refs[2],
				err, sizeof err) == 1);
	struct ssd_cal_opts o = {.seed = 1};
	struct ssd_cal_value v[3];
	CHECKF(!ssd_cal_measure(&c, refs, 3, &o, v, err, sizeof err), "%s", err);
	CHECKF(!v[0].error[0], "%s", v[0].error);
	double want = (double)(16u << 20) / 1e6;
	CHECKF(fabs(v[0].value - want) < 0.2 * want, "cache %.1f MB, want ~%.1f",
	       v[0].value, want);
	CHECKF(v[1].value < 0.7 * v[2].value, "post-cache %.1f vs cached %.1f",
	       v[1].value, v[2].value);
}
