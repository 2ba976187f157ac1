/* Unit tests for the drive configuration (config.c, config_parse.c,
 * config_finish.c): the option table, drive files, --set, derived
 * geometry and the one-line error messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/config.h"
#include "t.h"

#ifndef SSDLAB_PRESET_DIR
#define SSDLAB_PRESET_DIR "presets"
#endif

static const char *const all_keys[] = {
	"name", "description", "capacity", "op", "page_size",
	"pages_per_block", "channels", "dies_per_channel", "planes_per_die",
	"blocks_per_plane", "cell", "t_read", "t_prog", "t_erase", "pe_cycles",
	"channel_mbps", "multiplane", "host_mbps", "cmd_overhead", "gc_policy",
	"gc_window", "gc_fg_blocks", "gc_bg_blocks",
};
#define NKEYS (sizeof all_keys / sizeof all_keys[0])

/* Physical >= user*(1+op), one block fewer would not be, and the data
 * fits beside the FTL reserve. */
static int consistent(const struct ssd_config *c)
{
	uint64_t row = (uint64_t)c->page_size * c->pages_per_block *
		       ssd_config_dies(c) * c->planes_per_die;
	double need = (double)c->capacity * (1 + c->op);
	uint64_t phys = ssd_config_physical_bytes(c);
	return phys == row * c->blocks_per_plane && (double)phys >= need - 0.5 &&
	       (double)(phys - row) < need &&
	       (c->blocks_per_plane - c->gc_fg_blocks - 2) * row >= c->capacity &&
	       c->capacity % SSD_LPAGE == 0;
}

static char *print_to_string(const struct ssd_config *c, int json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (json)
		ssd_config_json(c, f, 0);
	else
		ssd_config_print(c, f);
	fclose(f);
	return buf;
}

static int one_line(const char *s)
{
	return *s && !strchr(s, '\n');
}

/* Write text to a temporary .ini and return its path (static buffer). */
static const char *temp_ini(const char *text)
{
	static char path[64];
	snprintf(path, sizeof path, "/tmp/ssdlab_test_cfg_XXXXXX.ini");
	int fd = mkstemps(path, 4);
	if (fd < 0)
		return NULL;
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

TEST(config_defaults_finish)
{
	struct ssd_config c;
	char err[256] = "";
	ssd_config_defaults(&c);
	CHECK(!strcmp(c.name, "default"));
	CHECK(c.capacity == 32ull << 30);
	CHECK(c.op == 0.07);
	CHECK(c.page_size == 16384 && c.pages_per_block == 256);
	CHECK(c.cell == SSD_CELL_TLC && c.gc_policy == SSD_GC_GREEDY);
	CHECK(c.t_prog == 0 && c.blocks_per_plane == 0);
	CHECKF(ssd_config_finish(&c, err, sizeof err) == 0, "%s", err);
	/* 32 GiB * 1.07 over 16 planes of 4 MiB blocks: ceil(547.84) */
	CHECKF(c.blocks_per_plane == 548, "%u", c.blocks_per_plane);
	CHECK(consistent(&c));
	CHECK(ssd_config_dies(&c) == 8);
	/* finish is idempotent */
	CHECK(ssd_config_finish(&c, err, sizeof err) == 0);
	CHECK(c.blocks_per_plane == 548);
}

/* The geometry's counts agree with each other and with the config, in
 * both multiplane modes. */
TEST(config_geometry_counts)
{
	for (int mp = 0; mp < 2; mp++) {
		struct ssd_config c;
		struct ssd_geometry g;
		char err[256] = "";
		ssd_config_defaults(&c);
		c.multiplane = mp;
		CHECKF(ssd_config_finish(&c, err, sizeof err) == 0, "%s", err);
		ssd_config_geometry(&c, &g);
		CHECK(g.dies == 8 && g.planes == 16);
		CHECK(g.units == (mp ? 8u : 16u));
		CHECK(g.units * g.planes_per_unit == g.planes);
		CHECK(g.blocks_per_unit == c.blocks_per_plane);
		CHECK(g.blocks * g.planes_per_unit == g.erase_blocks);
		CHECK(g.lp_per_page == 4 * g.planes_per_unit);
		CHECK(g.lp_per_block == g.lp_per_page * c.pages_per_block);
		CHECK(g.physical_lp * SSD_LPAGE == g.physical_bytes);
		CHECK(g.physical_bytes == ssd_config_physical_bytes(&c));
		CHECK(g.erase_blocks * g.erase_block_bytes == g.physical_bytes);
		CHECK(g.user_lp == c.capacity / SSD_LPAGE);
		CHECK(g.data_blocks * g.lp_per_block >= g.user_lp &&
		      (g.data_blocks - 1) * g.lp_per_block < g.user_lp);
		CHECK(g.reserve_blocks == c.gc_fg_blocks + 2);
		CHECK(g.map_epp == c.page_size / 4);
	}
}

TEST(config_default_preset_matches_builtin)
{
	struct ssd_config a, b;
	char err[256] = "";
	ssd_config_defaults(&a);
	CHECKF(ssd_config_open(&b, "default", SSDLAB_PRESET_DIR, err, sizeof err) == 0,
	       "%s", err);
	CHECK(ssd_config_finish(&a, err, sizeof err) == 0);
	CHECK(ssd_config_finish(&b, err, sizeof err) == 0);
	char *ja = print_to_string(&a, 1), *jb = print_to_string(&b, 1);
	CHECKF(!strcmp(ja, jb), "built-in:\n%s\npreset:\n%s", ja, jb);
	free(ja);
	free(jb);
}

TEST(config_all_presets_finish)
{
	static const char *const names[] = {"default", "slc", "mlc", "tiny"};
	for (int i = 0; i < 4; i++) {
		struct ssd_config c;
		char err[256] = "";
		CHECKF(ssd_config_open(&c, names[i], NULL, err, sizeof err) == 0,
		       "%s: %s", names[i], err);
		CHECKF(ssd_config_finish(&c, err, sizeof err) == 0, "%s: %s",
		       names[i], err);
		CHECK(!strcmp(c.name, names[i]));
		CHECK(c.description[0]);
		CHECK(consistent(&c));
	}
}

TEST(config_tiny_and_mlc_values)
{
	struct ssd_config c;
	char err[256] = "";
	CHECK(ssd_config_open(&c, "tiny", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_finish(&c, err, sizeof err) == 0);
	CHECK(c.capacity == 64u << 20 && c.page_size == 4096);
	CHECK(c.pages_per_block == 64 && c.channels == 2);
	CHECK(c.dies_per_channel == 2 && c.planes_per_die == 1);
	CHECKF(c.blocks_per_plane == 69, "%u", c.blocks_per_plane);
	CHECK(ssd_config_open(&c, "mlc", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_finish(&c, err, sizeof err) == 0);
	CHECK(c.cell == SSD_CELL_MLC);
	CHECK(c.t_erase == 1500 * SSD_US && c.pe_cycles == 5000);
	CHECK(c.t_read == 50 * SSD_US && c.t_prog == 600 * SSD_US);
}

TEST(config_cell_defaults)
{
	static const struct {
		const char *cell;
		int64_t r, p, e;
		uint32_t pe;
	} want[] = {
		{"slc", 25 * SSD_US, 200 * SSD_US, 1500 * SSD_US, 100000},
		{"mlc", 50 * SSD_US, 600 * SSD_US, 3 * SSD_MS, 3000},
		{"tlc", 60 * SSD_US, 700 * SSD_US, 3500 * SSD_US, 3000},
		{"qlc", 120 * SSD_US, 2 * SSD_MS, 10 * SSD_MS, 1000},
	};
	for (int i = 0; i < 4; i++) {
		struct ssd_config c;
		char err[256] = "";
		ssd_config_defaults(&c);
		CHECK(ssd_config_set(&c, "cell", want[i].cell, "--set", err,
				     sizeof err) == 0);
		CHECK(ssd_config_finish(&c, err, sizeof err) == 0);
		CHECK(!strcmp(ssd_cell_name(c.cell), want[i].cell));
		CHECK(c.t_read == want[i].r && c.t_prog == want[i].p);
		CHECK(c.t_erase == want[i].e && c.pe_cycles == want[i].pe);
	}
	/* an explicit value wins; bare numbers are microseconds */
	struct ssd_config c;
	char err[256] = "";
	ssd_config_defaults(&c);
	CHECK(ssd_config_set(&c, "t_prog", "660", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_set(&c, "t_erase", "2.5ms", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_finish(&c, err, sizeof err) == 0);
	CHECK(c.t_prog == 660 * SSD_US && c.t_erase == 2500 * SSD_US);
	CHECK(c.t_read == 60 * SSD_US);
	CHECK(ssd_cell_name(7) == NULL && ssd_gc_policy_name(-1) == NULL);
	CHECK(!strcmp(ssd_gc_policy_name(SSD_GC_COST_BENEFIT), "cost-benefit"));
}

TEST(config_set_geometry_alone)
{
	/* One geometry key changed over the defaults: either a consistent
	 * drive, or (where the spare cannot hold the FTL reserve or the
	 * blocks are too few) a one-line error saying what to raise.  (The
	 * command line's ssd_config_fit adapts the blocks instead:
	 * config_capacity_override_*.) */
	static const struct {
		const char *key, *val;
		int ok;
	} sets[] = {
		{"capacity", "4g", 1}, {"capacity", "6.5g", 1},
		{"capacity", "1.5g", 0}, {"capacity", "1t", 1},
		{"capacity", "12345676k", 1}, {"capacity", "1m", 0},
		{"op", "0", 0}, {"op", "0.01", 1}, {"op", "7%", 1},
		{"op", "0.28", 1}, {"op", "1", 1}, {"op", "4", 1},
		{"page_size", "4k", 1}, {"page_size", "8k", 1},
		{"page_size", "64k", 1}, {"pages_per_block", "16", 1},
		{"pages_per_block", "100", 1}, {"pages_per_block", "1024", 1},
		{"pages_per_block", "4096", 0},
	};
	for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
		struct ssd_config c;
		char err[512] = "";
		ssd_config_defaults(&c);
		CHECKF(ssd_config_set(&c, sets[i].key, sets[i].val, "--set", err,
				      sizeof err) == 0, "%s", err);
		int rc = ssd_config_finish(&c, err, sizeof err);
		CHECKF((rc == 0) == sets[i].ok, "%s=%s: %s", sets[i].key, sets[i].val, err);
		if (rc) {
			CHECKF(one_line(err) && (strstr(err, "raise op to at least") ||
						 strstr(err, "raise capacity to at least")),
			       "%s=%s: %s", sets[i].key, sets[i].val, err);
			continue;
		}
		CHECKF(consistent(&c), "%s=%s", sets[i].key, sets[i].val);
	}
}

TEST(config_set_value_forms)
{
	struct ssd_config c;
	char err[256] = "";
	ssd_config_defaults(&c);
	CHECK(ssd_config_set(&c, " op ", " 12.5% ", NULL, err, sizeof err) == 0);
	CHECK(c.op == 0.125);
	CHECK(ssd_config_set(&c, "multiplane", "off", NULL, err, sizeof err) == 0);
	CHECK(c.multiplane == 0);
	CHECK(ssd_config_set(&c, "gc_policy", "Cost-Benefit", NULL, err,
			     sizeof err) == 0);
	CHECK(c.gc_policy == SSD_GC_COST_BENEFIT);
	CHECK(ssd_config_set(&c, "cmd_overhead", "0", NULL, err, sizeof err) == 0);
	CHECK(c.cmd_overhead == 0);
	CHECK(ssd_config_set(&c, "capacity", "4KiB", NULL, err, sizeof err) != 0);
	CHECK(ssd_config_set(&c, "capacity", "2048KiB", NULL, err, sizeof err) == 0);
	CHECK(c.capacity == 2u << 20);
	CHECK(ssd_config_set(&c, "description", "", NULL, err, sizeof err) == 0);
	CHECK(c.description[0] == 0);
}

TEST(config_set_errors)
{
	static const struct {
		const char *key, *val;
		int rc;
		const char *want[3]; /* substrings of the message */
	} cases[] = {
		{"capacty", "1g", SSD_ENOENT, {"--set: unknown key 'capacty'",
					     "did you mean 'capacity'",
					     "ssdlab drive show default"}},
		{"frobnicate", "1", SSD_ENOENT, {"unknown key 'frobnicate'",
						"see `ssdlab drive show default`"}},
		{"capacity", "lots", SSD_EPARSE, {"--set: key 'capacity': 'lots' is not "
						 "a size", "accepted: 1m..16t"}},
		{"capacity", "1000000", SSD_ERANGE, {"key 'capacity'",
						     "multiple of 4k"}},
		{"capacity", "512k", SSD_ERANGE, {"out of range", "1m..16t", "; on flash, "
						  "at least what the FTL's reserve needs on this "
						  "drive, and capacity*(1+op) at most 16t)"}},
		{"op", "5", SSD_ERANGE, {"key 'op': '5' is out of range",
					 "accepted: 0..4"}},
		{"op", "-0.1", SSD_ERANGE, {"key 'op'", "out of range"}},
		{"op", "much", SSD_EPARSE, {"key 'op'", "not a number"}},
		{"page_size", "12k", SSD_ERANGE, {"key 'page_size'", "power of two",
						  "4k, 8k, 16k, 32k, 64k"}},
		{"page_size", "128k", SSD_ERANGE, {"out of range"}},
		{"pages_per_block", "8", SSD_ERANGE, {"key 'pages_per_block'",
						      "16..4096"}},
		{"channels", "0", SSD_ERANGE, {"key 'channels'", "1..64"}},
		{"channels", "4x", SSD_EPARSE, {"'4x' is not a whole number"}},
		{"planes_per_die", "9", SSD_ERANGE, {"1..8"}},
		{"cell", "plc", SSD_EPARSE, {"key 'cell': unknown value 'plc'",
					     "accepted: slc, mlc, tlc, qlc"}},
		{"gc_policy", "lru", SSD_EPARSE, {"unknown value 'lru'",
						  "greedy, cost-benefit, fifo, "
						  "random"}},
		{"t_read", "fast", SSD_EPARSE, {"key 't_read'", "not a time",
						"microseconds"}},
		{"t_read", "2s", SSD_ERANGE, {"key 't_read'", "0..1s"}},
		{"multiplane", "maybe", SSD_EPARSE, {"key 'multiplane'", "yes/no"}},
		{"gc_fg_blocks", "1", SSD_ERANGE, {"key 'gc_fg_blocks'", "2..1024"}},
		{"blocks_per_plane", "100", SSD_EINVAL, {"key 'blocks_per_plane'",
							 "derived from capacity "
							 "and op"}},
		{"name", "a\nb", SSD_EPARSE, {"key 'name'", "control character"}},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct ssd_config c, before;
		char err[512] = "";
		ssd_config_defaults(&c);
		before = c;
		int rc = ssd_config_set(&c, cases[i].key, cases[i].val, "--set", err,
					sizeof err);
		CHECKF(rc == cases[i].rc, "%s=%s: rc %d: %s", cases[i].key,
		       cases[i].val, rc, err);
		CHECKF(one_line(err), "%s", err);
		CHECKF(!strncmp(err, "--set: ", 7), "%s", err);
		for (int j = 0; j < 3 && cases[i].want[j]; j++)
			CHECKF(strstr(err, cases[i].want[j]), "'%s' not in: %s",
			       cases[i].want[j], err);
		CHECKF(!memcmp(&c, &before, sizeof c), "%s changed the config",
		       cases[i].key);
	}
	/* a NULL err buffer is allowed */
	struct ssd_config c;
	ssd_config_defaults(&c);
	CHECK(ssd_config_set(&c, "op", "x", "--set", NULL, 0) == SSD_EPARSE);
}

TEST(config_finish_errors)
{
	struct ssd_config c;
	char err[512] = "";

	/* op=0 leaves no room for the FTL reserve */
	CHECK(ssd_config_open(&c, "tiny", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_set(&c, "op", "0", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_finish(&c, err, sizeof err) == SSD_ERANGE);
	CHECKF(one_line(err) && strstr(err, "capacity 64 MiB does not fit beside "
				       "the FTL's reserve") &&
	       strstr(err, "raise op to at least 0.0625"), "%s", err);

	/* too small even with the blocks and the array adapted */
	ssd_config_defaults(&c);
	CHECK(ssd_config_set(&c, "capacity", "1m", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_fit(&c, err, sizeof err) == SSD_ERANGE);
	CHECKF(one_line(err) && strstr(err, "'capacity'") &&
	       strstr(err, "capacity to at least 3660k"), "%s", err);
	/* finish itself never adapts: the same override is refused with the
	 * capacity the preset's own shape needs */
	ssd_config_defaults(&c);
	CHECK(ssd_config_set(&c, "capacity", "1g", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_finish(&c, err, sizeof err) == SSD_ERANGE);
	CHECKF(one_line(err) && strstr(err, "raise op to at least 0.25 ") &&
	       strstr(err, "capacity to at least "), "%s", err);

	/* too few blocks per plane for GC, in a file's own values */
	ssd_config_defaults(&c);
	c.capacity = 64u << 20;
	c.op = 2;
	CHECK(ssd_config_finish(&c, err, sizeof err) == SSD_ERANGE);
	CHECKF(one_line(err) && strstr(err, "3 blocks per plane") &&
	       strstr(err, "gc_bg_blocks + 4 = 12"), "%s", err);

	/* cross-key: gc_bg_blocks below gc_fg_blocks */
	ssd_config_defaults(&c);
	CHECK(ssd_config_set(&c, "gc_fg_blocks", "10", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_finish(&c, err, sizeof err) == SSD_EINVAL);
	CHECKF(one_line(err) && strstr(err, "'gc_bg_blocks'") &&
	       strstr(err, "'gc_fg_blocks'"), "%s", err);

	/* fields set directly by code are checked too */
	ssd_config_defaults(&c);
	c.capacity = 5000000;
	CHECK(ssd_config_finish(&c, err, sizeof err) == SSD_ERANGE);
	CHECKF(one_line(err) && strstr(err, "key 'capacity'") &&
	       strstr(err, "multiple of 4k"), "%s", err);
	ssd_config_defaults(&c);
	c.page_size = 12288;
	CHECK(ssd_config_finish(&c, err, sizeof err) == SSD_ERANGE);
	CHECKF(strstr(err, "key 'page_size'") && strstr(err, "power of two"), "%s",
	       err);
	ssd_config_defaults(&c);
	c.cell = 9;
	CHECK(ssd_config_finish(&c, err, sizeof err) == SSD_ERANGE);
	CHECKF(strstr(err, "key 'cell'"), "%s", err);

	/* beyond what 32-bit page maps address */
	ssd_config_defaults(&c);
	CHECK(ssd_config_set(&c, "capacity", "15t", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_finish(&c, err, sizeof err) == SSD_ERANGE);
	CHECKF(one_line(err) && strstr(err, "'capacity'") && strstr(err, "op"),
	       "%s", err);
}

TEST(config_print_every_key)
{
	struct ssd_config c;
	char err[256] = "";
	ssd_config_defaults(&c);
	CHECK(ssd_config_finish(&c, err, sizeof err) == 0);
	char *s = print_to_string(&c, 0);
	for (size_t i = 0; i < NKEYS; i++) {
		char pat[64];
		snprintf(pat, sizeof pat, "\n%s ", all_keys[i]);
		if (!strcmp(all_keys[i], "name"))
			CHECKF(!strncmp(s, "name ", 5), "%s", s);
		else if (!strcmp(all_keys[i], "blocks_per_plane"))
			CHECKF(strstr(s, "\n# blocks_per_plane = 548 "), "%s", s);
		else
			CHECKF(strstr(s, pat), "no key %s in:\n%s", all_keys[i], s);
	}
	CHECKF(strstr(s, "t_prog           = 700us"), "%s", s);
	CHECKF(strstr(s, "t_erase          = 3500us"), "%s", s);
	CHECKF(strstr(s, "capacity         = 32g "), "%s", s);
	CHECKF(strstr(s, "page_size        = 16k "), "%s", s);
	CHECKF(strstr(s, "op               = 0.07 "), "%s", s);
	CHECKF(strstr(s, "[tlc default]"), "%s", s);
	CHECKF(strstr(s, "# physical: "), "%s", s);
	free(s);

	s = print_to_string(&c, 1);
	for (size_t i = 0; i < NKEYS; i++) {
		char pat[64];
		snprintf(pat, sizeof pat, "\"%s\" : ", all_keys[i]);
		CHECKF(strstr(s, pat), "no key %s in:\n%s", all_keys[i], s);
	}
	CHECKF(strstr(s, "\"capacity\" : 34359738368,"), "%s", s);
	CHECKF(strstr(s, "\"t_prog\" : 700000,"), "%s", s);
	CHECKF(strstr(s, "\"cell\" : \"tlc\","), "%s", s);
	CHECKF(strstr(s, "\"multiplane\" : true,"), "%s", s);
	CHECKF(strstr(s, "\"op\" : 0.07,"), "%s", s);
	CHECKF(s[0] == '{' && s[strlen(s) - 1] == '}', "%s", s);
	free(s);
}

TEST(config_print_round_trips)
{
	/* `drive show` output is a drive file that loads to the same drive */
	struct ssd_config a, b;
	char err[256] = "";
	CHECK(ssd_config_open(&a, "mlc", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_set(&a, "op", "0.123", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_set(&a, "capacity", "1.25g", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_finish(&a, err, sizeof err) == 0);
	char *txt = print_to_string(&a, 0);
	const char *path = temp_ini(txt);
	CHECK(path);
	int rc = ssd_config_open(&b, path, NULL, err, sizeof err);
	unlink(path);
	CHECKF(rc == 0, "%s\n%s", err, txt);
	CHECK(ssd_config_finish(&b, err, sizeof err) == 0);
	char *ja = print_to_string(&a, 1), *jb = print_to_string(&b, 1);
	CHECKF(!strcmp(ja, jb), "%s\n%s", ja, jb);
	free(ja);
	free(jb);
	free(txt);
}

TEST(config_doc_table)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ssd_config_print_doc(f);
	fclose(f);
	CHECK(strstr(buf, "| key | type | default | range | unit | meaning |"));
	for (size_t i = 0; i < NKEYS; i++) {
		char pat[64];
		snprintf(pat, sizeof pat, "| `%s` |", all_keys[i]);
		CHECKF(strstr(buf, pat), "no row for %s", all_keys[i]);
	}
	/* every table row has the right number of cells */
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, "| `", 3))
			continue;
		int bars = 0;
		for (char *p = line; *p; p++)
			bars += *p == '|';
		CHECKF(bars == 7, "%s", line);
	}
	free(buf);
}

TEST(config_load_file)
{
	struct ssd_config c;
	char err[512] = "";
	const char *path = temp_ini(
		"\xef\xbb\xbf# a test drive\n"
		"; another comment\n"
		"\n"
		"[drive]\n"
		"  capacity = 128m   # inline comment\n"
		"op=0.25\n"
		"page_size = 8k ; semicolon comment\n"
		"pages_per_block = 32\n"
		"cell = slc\n"
		"gc_policy = random\n"
		"gc_window = 4\n"
		"op = 0.5\n" /* duplicate: last wins */
		"[ drive ]\n");
	CHECK(path);
	ssd_config_defaults(&c);
	int rc = ssd_config_load(&c, path, err, sizeof err);
	char stem[64];
	snprintf(stem, sizeof stem, "%s", strrchr(path, '/') + 1);
	stem[strlen(stem) - 4] = 0;
	unlink(path);
	CHECKF(rc == 0, "%s", err);
	CHECK(c.capacity == 128u << 20 && c.op == 0.5 && c.page_size == 8192);
	CHECK(c.pages_per_block == 32 && c.cell == SSD_CELL_SLC);
	CHECK(c.gc_policy == SSD_GC_RANDOM && c.gc_window == 4);
	CHECKF(!strcmp(c.name, stem), "%s vs %s", c.name, stem);
	CHECK(c.description[0] == 0);
	CHECK(ssd_config_finish(&c, err, sizeof err) == 0);
	CHECK(consistent(&c));
	CHECK(c.t_prog == 200 * SSD_US);
}

TEST(config_load_errors)
{
	static const struct {
		const char *text;
		int rc, line;
		const char *want;
	} cases[] = {
		{"capacity = 64m\nbogus = 1\n", SSD_ENOENT, 2, "unknown key 'bogus'"},
		{"\n\ncapacity 64m\n", SSD_EPARSE, 3, "expected 'key = value'"},
		{"= 3\n", SSD_EPARSE, 1, "expected 'key = value'"},
		{"[ssd]\n", SSD_EPARSE, 1, "unknown section '[ssd]'"},
		{"[drive\n", SSD_EPARSE, 1, "unknown section"},
		{"# c\nchannels = many\n", SSD_EPARSE, 2,
		 "key 'channels': 'many' is not a whole number"},
		{"channels = 65\n", SSD_ERANGE, 1, "key 'channels': '65' is out of range "
						   "(accepted: 1..64)"},
		{"cell = xlc\n", SSD_EPARSE, 1, "(accepted: slc, mlc, tlc, qlc)"},
		{"blocks_per_plane = 9\n", SSD_EINVAL, 1, "derived"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct ssd_config c;
		char err[512] = "", want[512];
		const char *path = temp_ini(cases[i].text);
		CHECK(path);
		ssd_config_defaults(&c);
		int rc = ssd_config_load(&c, path, err, sizeof err);
		snprintf(want, sizeof want, "%s:%d: ", path, cases[i].line);
		unlink(path);
		CHECKF(rc == cases[i].rc, "case %zu: rc %d: %s", i, rc, err);
		CHECKF(one_line(err), "%s", err);
		CHECKF(!strncmp(err, want, strlen(want)), "'%s' does not start with '%s'",
		       err, want);
		CHECKF(strstr(err, cases[i].want), "'%s' not in: %s", cases[i].want, err);
	}
}

TEST(config_open_errors)
{
	struct ssd_config c;
	char err[512] = "";
	CHECK(ssd_config_open(&c, "nosuchdrive", NULL, err, sizeof err) == SSD_ENOENT);
	CHECKF(one_line(err) && strstr(err, "unknown drive 'nosuchdrive'") &&
	       strstr(err, "ssdlab drives"), "%s", err);
	CHECK(ssd_config_open(&c, "", NULL, err, sizeof err) == SSD_ENOENT);
	CHECK(ssd_config_open(&c, "tiny", "/nonexistent", err, sizeof err) ==
	      SSD_ENOENT);
	CHECK(ssd_config_open(&c, "/nonexistent/x.ini", NULL, err, sizeof err) ==
	      SSD_EIO);
	CHECKF(one_line(err) && strstr(err, "/nonexistent/x.ini"), "%s", err);
	CHECK(ssd_config_open(&c, "missing.ini", NULL, err, sizeof err) == SSD_EIO);
	CHECKF(strstr(err, "'missing.ini'"), "%s", err);
	/* a preset directory given explicitly */
	CHECK(ssd_config_open(&c, "tiny", SSDLAB_PRESET_DIR, err, sizeof err) == 0);
	CHECK(c.capacity == 64u << 20);
}

/* An empty drive file (or one of comments) ran as the default 32 GiB
 * drive without a word; `--drive tinyy` got no suggestion. */
TEST(config_empty_drive_file_is_refused)
{
	static const char *const texts[] = {"", "# nothing\n; at all\n\n",
					    "[drive]\n"};
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		struct ssd_config c;
		char err[512] = "", want[128];
		const char *path = temp_ini(texts[i]);
		CHECK(path);
		ssd_config_defaults(&c);
		int rc = ssd_config_load(&c, path, err, sizeof err);
		snprintf(want, sizeof want, "drive file '%s' sets no keys", path);
		unlink(path);
		CHECKF(rc == SSD_EINVAL && one_line(err), "case %zu: %d %s", i, rc,
		       err);
		CHECKF(strstr(err, want) && strstr(err, "`preset = NAME`"), "%s",
		       err);
	}
	struct ssd_config c;
	char err[512] = "";
	CHECK(ssd_config_open(&c, "tinyy", SSDLAB_PRESET_DIR, err, sizeof err) ==
	      SSD_ENOENT);
	CHECKF(one_line(err) && strstr(err, "unknown drive 'tinyy' (did you mean "
				       "'tiny'?"), "%s", err);
	/* nothing close: no suggestion */
	CHECK(ssd_config_open(&c, "zzzzzzzz", SSDLAB_PRESET_DIR, err, sizeof err) ==
	      SSD_ENOENT);
	CHECKF(!strstr(err, "did you mean"), "%s", err);
}

/* `preset = NAME` starts a drive file from a preset; the keys after it
 * change it.  It comes first, and its name is checked like --drive's. */
TEST(config_drive_file_names_a_preset)
{
	struct ssd_config c, tiny;
	char err[512] = "";
	CHECK(ssd_config_open(&tiny, "tiny", SSDLAB_PRESET_DIR, err, sizeof err) == 0);
	const char *path = temp_ini("# tiny with FIFO cleaning\npreset = tiny\n"
				    "gc_policy = fifo\n");
	CHECK(path);
	char stem[64];
	snprintf(stem, sizeof stem, "%s", strrchr(path, '/') + 1);
	stem[strlen(stem) - 4] = 0;
	int rc = ssd_config_open(&c, path, SSDLAB_PRESET_DIR, err, sizeof err);
	unlink(path);
	CHECKF(rc == 0, "%s", err);
	CHECK(c.capacity == tiny.capacity && c.channels == tiny.channels);
	CHECK(c.pages_per_block == tiny.pages_per_block);
	CHECK(c.gc_policy == SSD_GC_FIFO && tiny.gc_policy != SSD_GC_FIFO);
	/* named after its own file; the preset's description is not its */
	CHECKF(!strcmp(c.name, stem), "%s", c.name);
	CHECK(c.description[0] == 0);
	CHECK(ssd_config_finish(&c, err, sizeof err) == 0);
	static const struct {
		const char *text;
		int rc, line;
		const char *want;
	} bad[] = {
		{"capacity = 64m\npreset = tiny\n", SSD_EINVAL, 2,
		 "key 'preset': comes after other keys"},
		{"preset = tinyy\n", SSD_ENOENT, 1,
		 "key 'preset': unknown drive 'tinyy' (did you mean 'tiny'?"},
		{"preset = /nonexistent/x.ini\n", SSD_EIO, 0, "/nonexistent/x.ini"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char want[128];
		path = temp_ini(bad[i].text);
		CHECK(path);
		rc = ssd_config_open(&c, path, SSDLAB_PRESET_DIR, err, sizeof err);
		snprintf(want, sizeof want, "%s:%d: ", path, bad[i].line);
		unlink(path);
		CHECKF(rc == bad[i].rc && one_line(err), "case %zu: %d %s", i, rc, err);
		CHECKF(!bad[i].line || !strncmp(err, want, strlen(want)), "%s", err);
		CHECKF(strstr(err, bad[i].want), "case %zu: %s", i, err);
	}
	/* a file naming itself: stopped */
	char self[128];
	path = temp_ini("");
	CHECK(path);
	snprintf(self, sizeof self, "%s", path);
	FILE *f = fopen(self, "w");
	CHECK(f);
	fprintf(f, "preset = %s\n", self);
	fclose(f);
	rc = ssd_config_open(&c, self, SSDLAB_PRESET_DIR, err, sizeof err);
	unlink(self);
	CHECKF(rc == SSD_EINVAL && strstr(err, "stacked more than"), "%s", err);
}

/* ---- capacity overrides, derived quantities, round trips ---- */

/* The presets in the preset directory, by name (static; NULL-ended). */
static const char *const *preset_names(void)
{
	static char names[64][64];
	static const char *list[65];
	int n = 0;
	char cmd[512];
	snprintf(cmd, sizeof cmd, "ls %s", SSDLAB_PRESET_DIR);
	FILE *p = popen(cmd, "r");
	char line[256];
	while (p && n < 64 && fgets(line, sizeof line, p)) {
		size_t len = strcspn(line, "\n");
		if (len > 4 && len < 64 && !strncmp(line + len - 4, ".ini", 4)) {
			memcpy(names[n], line, len - 4);
			names[n][len - 4] = 0;
			list[n] = names[n];
			n++;
		}
	}
	if (p)
		pclose(p);
	list[n] = NULL;
	return list;
}

/* The value after `what` in err ("capacity to at least 3660k"), or "". */
static const char *named_value(const char *err, const char *what)
{
	static char v[64];
	const char *p = strstr(err, what);
	v[0] = 0;
	if (p) {
		p += strlen(what);
		size_t n = strcspn(p, " ,)");
		if (n < sizeof v) {
			memcpy(v, p, n);
			v[n] = 0;
		}
	}
	return v;
}

TEST(config_capacity_override_fits_every_preset)
{
	/* Small drives from big presets: --set capacity gives a working drive,
	 * op and everything but the adaptable keys as in the preset. */
	static const char *const caps[] = {"64m", "512m", "1g", "1536m", "2g", "4m"};
	const char *const *names = preset_names();
	CHECK(names[0] && names[5]); /* the presets were found */
	for (int i = 0; names[i]; i++) {
		for (size_t k = 0; k < sizeof caps / sizeof caps[0]; k++) {
			struct ssd_config base, c;
			char err[512] = "";
			CHECK(ssd_config_open(&base, names[i], NULL, err, sizeof err) == 0);
			if (base.type == SSD_TYPE_HDD)
				break; /* a disk: no flash shape to adapt */
			c = base;
			CHECK(ssd_config_set(&c, "capacity", caps[k], "--set", err,
					     sizeof err) == 0);
			int rc = ssd_config_fit(&c, err, sizeof err);
			CHECKF(rc == 0, "%s capacity=%s: %s", names[i], caps[k], err);
			CHECKF(consistent(&c), "%s capacity=%s", names[i], caps[k]);
			CHECK(c.op == base.op && c.cell == base.cell &&
			      c.gc_fg_blocks == base.gc_fg_blocks &&
			      c.gc_bg_blocks == base.gc_bg_blocks &&
			      c.gc_policy == base.gc_policy && c.t_prog >= base.t_prog);
			/* only the adaptable keys changed, and only downwards */
			struct ssd_config b2 = base;
			CHECK(ssd_config_fit(&b2, err, sizeof err) == 0);
			CHECK(c.page_size <= b2.page_size &&
			      c.pages_per_block <= b2.pages_per_block &&
			      c.channels <= b2.channels &&
			      c.dies_per_channel <= b2.dies_per_channel &&
			      c.planes_per_die <= b2.planes_per_die &&
			      c.slc_cache_size <= b2.slc_cache_size &&
			      c.write_buffer <= b2.write_buffer);
			char *txt = print_to_string(&c, 1);
			/* the description says what changed */
			CHECKF(strstr(txt, "[changed: capacity="), "%s", txt);
			free(txt);
		}
	}
}

TEST(config_capacity_override_adapts_only_what_it_must)
{
	struct ssd_config c;
	char err[512] = "";
	/* the reported case: 1 GiB from the 32 GiB default */
	ssd_config_defaults(&c);
	CHECK(ssd_config_set(&c, "capacity", "1g", NULL, err, sizeof err) == 0);
	CHECKF(ssd_config_fit(&c, err, sizeof err) == 0, "%s", err);
	CHECKF(c.pages_per_block == 64 && c.page_size == 16384 && c.channels == 4 &&
	       c.dies_per_channel == 2 && c.planes_per_die == 2,
	       "ppb %u ch %u dies %u planes %u", c.pages_per_block, c.channels,
	       c.dies_per_channel, c.planes_per_die);
	CHECK(c.blocks_per_plane == 69 && c.op == 0.07);
	char *txt = print_to_string(&c, 0);
	CHECKF(strstr(txt, "description      = Modern TLC drive: 32 GiB user "
			   "capacity, 7% spare, 4 channels [changed: capacity=1g; "
			   "adapted to fit: pages_per_block=64]"), "%s", txt);
	free(txt);
	/* 512 MiB once failed on blocks_per_plane */
	ssd_config_defaults(&c);
	CHECK(ssd_config_set(&c, "capacity", "512m", NULL, err, sizeof err) == 0);
	CHECKF(ssd_config_fit(&c, err, sizeof err) == 0, "%s", err);
	CHECK(c.pages_per_block == 32);
	/* a capacity the preset's shape holds changes nothing */
	ssd_config_defaults(&c);
	CHECK(ssd_config_set(&c, "capacity", "8g", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_fit(&c, err, sizeof err) == 0);
	CHECK(c.pages_per_block == 256 && c.adapted == 0);
	/* keys given with --set are never adapted: the array narrows instead */
	ssd_config_defaults(&c);
	CHECK(ssd_config_set(&c, "capacity", "1g", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_set(&c, "pages_per_block", "256", NULL, err, sizeof err) == 0);
	CHECKF(ssd_config_fit(&c, err, sizeof err) == 0, "%s", err);
	CHECK(c.pages_per_block == 256 && c.dies_per_channel == 1 && c.channels == 2);
	/* the static SLC cache keeps its share of the capacity */
	CHECK(ssd_config_open(&c, "intel-760p-128g", NULL, err, sizeof err) == 0);
	uint64_t slc = c.slc_cache_size, cap = c.capacity;
	CHECK(ssd_config_set(&c, "capacity", "1g", NULL, err, sizeof err) == 0);
	CHECKF(ssd_config_fit(&c, err, sizeof err) == 0, "%s", err);
	double share = (double)slc / (double)cap;
	CHECKF(c.slc_cache_size <= (uint64_t)(share * (double)c.capacity) &&
	       c.slc_cache_size + SSD_LPAGE > (uint64_t)(share * (double)c.capacity),
	       "slc %llu", (unsigned long long)c.slc_cache_size);
	CHECK(c.slc_cache == SSD_SLC_STATIC && c.cell == SSD_CELL_TLC);
	/* finishing again changes nothing */
	struct ssd_config again = c;
	CHECK(ssd_config_fit(&again, err, sizeof err) == 0);
	CHECK(!memcmp(&again, &c, sizeof c));
}

TEST(config_too_small_names_a_value_that_works)
{
	/* below what even the smallest blocks hold, the message names the
	 * capacity (and the op) that work -- and they do */
	const char *const *names = preset_names();
	for (int i = 0; names[i]; i++) {
		struct ssd_config c;
		char err[512] = "";
		CHECK(ssd_config_open(&c, names[i], NULL, err, sizeof err) == 0);
		if (c.type == SSD_TYPE_HDD)
			continue; /* any capacity from 1 MiB makes a disk */
		CHECK(ssd_config_set(&c, "capacity", "1m", NULL, err, sizeof err) == 0);
		CHECKF(ssd_config_fit(&c, err, sizeof err) == SSD_ERANGE, "%s",
		       names[i]);
		CHECKF(one_line(err) && strstr(err, "'capacity'"), "%s", err);
		char cap[64], op[64];
		snprintf(cap, sizeof cap, "%s", named_value(err, "capacity to at least "));
		snprintf(op, sizeof op, "%s", named_value(err, "op to at least "));
		CHECKF(*cap && *op, "%s: %s", names[i], err);
		CHECK(ssd_config_open(&c, names[i], NULL, err, sizeof err) == 0);
		CHECK(ssd_config_set(&c, "capacity", cap, NULL, err, sizeof err) == 0);
		CHECKF(ssd_config_fit(&c, err, sizeof err) == 0, "%s %s: %s",
		       names[i], cap, err);
		CHECK(ssd_config_open(&c, names[i], NULL, err, sizeof err) == 0);
		CHECK(ssd_config_set(&c, "capacity", "1m", NULL, err, sizeof err) == 0);
		CHECK(ssd_config_set(&c, "op", op, NULL, err, sizeof err) == 0);
		CHECKF(ssd_config_fit(&c, err, sizeof err) == 0, "%s op %s: %s",
		       names[i], op, err);
	}
	/* a drive file's own values do not adapt: refused with what works */
	const char *path = temp_ini("capacity = 1g\n");
	CHECK(path);
	struct ssd_config c;
	char err[512] = "";
	int rc = ssd_config_open(&c, path, NULL, err, sizeof err);
	unlink(path);
	CHECK(rc == 0);
	CHECK(ssd_config_fit(&c, err, sizeof err) == SSD_ERANGE);
	CHECKF(strstr(err, "capacity 1 GiB does not fit") &&
	       strstr(err, "raise op to at least 0.25 ") &&
	       strstr(err, "capacity to at least "), "%s", err);
	char cap[64];
	snprintf(cap, sizeof cap, "%s", named_value(err, "capacity to at least "));
	c.capacity = 0;
	CHECK(ssd_config_set(&c, "capacity", cap, "test", err, sizeof err) == 0);
	c.overridden = 0; /* as if the file said so */
	CHECKF(ssd_config_fit(&c, err, sizeof err) == 0, "%s: %s", cap, err);
}

/* finish on tiny with KEY=VALUE pairs set; the error (or "") in err. */
static int tiny_with(const char *const *kv, char *err, size_t n,
		     struct ssd_config *out)
{
	struct ssd_config c;
	err[0] = 0;
	if (ssd_config_open(&c, "tiny", NULL, err, n))
		return -100;
	for (int i = 0; kv[i]; i += 2)
		if (ssd_config_set(&c, kv[i], kv[i + 1], NULL, err, n))
			return -101;
	int rc = ssd_config_fit(&c, err, n);
	if (out)
		*out = c;
	return rc;
}

TEST(config_derived_quantities_are_checked)
{
	static const struct {
		const char *kv[7];
		const char *want[2]; /* substrings; want[1] names the value that works */
		const char *key;     /* the culprit, set to the value that works */
	} cases[] = {
		{{"write_buffer", "64g"}, {"key 'write_buffer'", "0..8m"}, NULL},
		{{"write_buffer", "8196k"}, {"key 'write_buffer'", "0..8m"}, NULL},
		{{"slc_cache", "static", "slc_cache_size", "60m"},
		 {"key 'slc_cache_size'", "at most 336k"}, "slc_cache_size"},
		{{"slc_cache", "dynamic", "slc_cache_size", "60m"},
		 {"key 'slc_cache_size'", "at most 21840k"}, "slc_cache_size"},
		{{"map_cache", "64g"}, {"key 'map_cache'", "4k..64k"}, NULL},
		{{"map_cache", "1k"}, {"key 'map_cache'", "4k..64k"}, NULL},
		{{"gc_bg_blocks", "100"}, {"key 'gc_bg_blocks'", "at most 65"},
		 "gc_bg_blocks"},
		{{"gc_fg_blocks", "10", "gc_bg_blocks", "10"},
		 {"key 'gc_fg_blocks'", "at most 3"}, "gc_fg_blocks"},
		{{"gc_fg_blocks", "10"}, {"'gc_bg_blocks' (8)", "gc_bg_blocks 10 or more"},
		 NULL},
		{{"cell", "slc", "slc_cache", "static", "slc_cache_size", "1m"},
		 {"key 'slc_cache'", "slc_cache = none"}, NULL},
		{{"slc_cache", "dynamic"}, {"key 'slc_cache_size'", "4k or more"}, NULL},
		{{"slc_pe_cycles", "3000001"}, {"key 'slc_pe_cycles'", "0..3000000"},
		 NULL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char err[512];
		int rc = tiny_with(cases[i].kv, err, sizeof err, NULL);
		CHECKF(rc == SSD_ERANGE || rc == SSD_EINVAL, "case %zu: rc %d %s", i,
		       rc, err);
		CHECKF(one_line(err), "%s", err);
		for (int j = 0; j < 2; j++)
			CHECKF(strstr(err, cases[i].want[j]), "case %zu: '%s' not in: %s",
			       i, cases[i].want[j], err);
		if (!cases[i].key)
			continue;
		/* the value named works */
		const char *kv[9];
		int n = 0;
		for (; cases[i].kv[n]; n++)
			kv[n] = cases[i].kv[n];
		char v[64];
		snprintf(v, sizeof v, "%s", named_value(err, "at most "));
		kv[n++] = cases[i].key;
		kv[n++] = v;
		kv[n] = NULL;
		rc = tiny_with(kv, err, sizeof err, NULL);
		CHECKF(rc == 0, "case %zu: %s=%s: %s", i, cases[i].key, v, err);
	}
	/* and at the bounds */
	char err[512];
	const char *ok1[] = {"write_buffer", "8m", NULL};
	CHECKF(tiny_with(ok1, err, sizeof err, NULL) == 0, "%s", err);
	const char *ok2[] = {"map_cache", "64k", NULL};
	CHECKF(tiny_with(ok2, err, sizeof err, NULL) == 0, "%s", err);
	const char *ok3[] = {"map_cache", "4k", NULL};
	CHECKF(tiny_with(ok3, err, sizeof err, NULL) == 0, "%s", err);
	const char *bad3[] = {"map_cache", "68k", NULL};
	CHECK(tiny_with(bad3, err, sizeof err, NULL) == SSD_ERANGE);
	/* a smaller capacity takes the write buffer and map cache along */
	struct ssd_config c;
	const char *shrink[] = {"capacity", "16m", NULL};
	CHECK(ssd_config_open(&c, "tiny", NULL, err, sizeof err) == 0);
	c.write_buffer = 8u << 20;
	c.map_cache = 64u << 10;
	CHECK(ssd_config_set(&c, shrink[0], shrink[1], NULL, err, sizeof err) == 0);
	CHECKF(ssd_config_fit(&c, err, sizeof err) == 0, "%s", err);
	CHECKF(c.write_buffer == 2u << 20 && c.map_cache == 16u << 10,
	       "wb %llu map %llu", (unsigned long long)c.write_buffer,
	       (unsigned long long)c.map_cache);
}

TEST(config_numbers_are_decimal_and_do_not_overflow)
{
	struct ssd_config c;
	char err[512] = "";
	ssd_config_defaults(&c);
	/* a leading zero is decimal, 0x is hex: fio's rule */
	CHECK(ssd_config_set(&c, "channels", "010", NULL, err, sizeof err) == 0);
	CHECK(c.channels == 10);
	CHECK(ssd_config_set(&c, "channels", "0x8", NULL, err, sizeof err) == 0);
	CHECK(c.channels == 8);
	CHECK(ssd_config_set(&c, "pages_per_block", "0128", NULL, err, sizeof err) == 0);
	CHECK(c.pages_per_block == 128);
	CHECK(ssd_config_set(&c, "capacity", "0x4000000", NULL, err, sizeof err) == 0);
	CHECK(c.capacity == 64u << 20);
	CHECK(ssd_config_set(&c, "capacity", "010g", NULL, err, sizeof err) == 0);
	CHECK(c.capacity == 10ull << 30);
	/* values that do not fit their field are refused, never wrapped */
	static const struct {
		const char *key, *val;
	} bad[] = {
		{"capacity", "99999999999999999999"}, {"capacity", "16385t"},
		{"capacity", "17592186044416k"}, {"capacity", "0x10000000000000000"},
		{"channels", "4294967297"}, {"pe_cycles", "18446744073709551617"},
		{"t_read", "9223372037s"}, {"t_read", "106752d"},
		{"slc_cache_size", "16385t"}, {"write_buffer", "99999999999p"},
		{"op", "1e400"}, {"op", "1e400%"}, {"channels", "0x"},
		/* a block's endurance must fit the FTL's 32-bit wear count */
		{"pe_cycles", "1000001"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct ssd_config before = c;
		int rc = ssd_config_set(&c, bad[i].key, bad[i].val, NULL, err, sizeof err);
		CHECKF(rc == SSD_ERANGE || rc == SSD_EPARSE, "%s=%s: rc %d", bad[i].key,
		       bad[i].val, rc);
		CHECKF(one_line(err) && strstr(err, bad[i].key), "%s", err);
		CHECK(!memcmp(&c, &before, sizeof c));
	}
}

/* Print c, load it back, print again: the same text. */
static int round_trips(const struct ssd_config *c, char *why, size_t n)
{
	char err[512] = "";
	char *a = print_to_string(c, 0);
	const char *path = temp_ini(a);
	struct ssd_config b;
	int rc = path ? ssd_config_open(&b, path, NULL, err, sizeof err) : -1;
	if (path)
		unlink(path);
	if (!rc)
		rc = ssd_config_finish(&b, err, sizeof err);
	char *bt = rc ? NULL : print_to_string(&b, 0);
	int same = bt && !strcmp(a, bt);
	if (!same)
		snprintf(why, n, "%s\n--- wrote ---\n%.2000s\n--- read back ---\n%.2000s",
			 err, a, bt ? bt : "");
	free(a);
	free(bt);
	return same;
}

TEST(config_drive_show_round_trips_every_preset_and_description)
{
	static char why[6000];
	const char *const *names = preset_names();
	for (int i = 0; names[i]; i++) {
		struct ssd_config c;
		char err[512] = "";
		CHECK(ssd_config_open(&c, names[i], NULL, err, sizeof err) == 0);
		CHECK(ssd_config_fit(&c, err, sizeof err) == 0);
		CHECKF(round_trips(&c, why, sizeof why), "%s: %s", names[i], why);
		/* adapted drives too */
		CHECK(ssd_config_open(&c, names[i], NULL, err, sizeof err) == 0);
		CHECK(ssd_config_set(&c, "capacity", "64m", NULL, err, sizeof err) == 0);
		CHECK(ssd_config_fit(&c, err, sizeof err) == 0);
		CHECKF(round_trips(&c, why, sizeof why), "%s 64m: %s", names[i], why);
	}
	static const char *const hostile[] = {
		"a ; b # c", "# all comment", "; all comment", "\"quoted\" start",
		"ends with a quote\"", "back\\slash \\\" and \"quotes\" ;#",
		"x;y#z no spaces", "\\", "\"", "[drive]", "key = value # not a comment",
		"tail ;", "ünïcödé ; 🙂 #",
	};
	for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
		struct ssd_config c;
		char err[512] = "";
		ssd_config_defaults(&c);
		CHECK(ssd_config_set(&c, "description", hostile[i], NULL, err,
				     sizeof err) == 0);
		CHECK(ssd_config_set(&c, "name", hostile[i], NULL, err, sizeof err) == 0 ||
		      strlen(hostile[i]) >= sizeof c.name);
		CHECK(ssd_config_fit(&c, err, sizeof err) == 0);
		CHECKF(round_trips(&c, why, sizeof why), "[%s]: %s", hostile[i], why);
		/* and the description read back is the one set */
		char *txt = print_to_string(&c, 0);
		const char *path = temp_ini(txt);
		struct ssd_config b;
		CHECK(path && ssd_config_open(&b, path, NULL, err, sizeof err) == 0);
		unlink(path);
		CHECKF(!strcmp(b.description, hostile[i]), "[%s] read back as [%s]",
		       hostile[i], b.description);
		free(txt);
	}
	/* quoted values in a drive file, and their mistakes */
	struct ssd_config c;
	char err[512] = "";
	const char *path = temp_ini("description = \"a ; b\"   # comment\n"
				    "name = \"x\\\\y\"\ncapacity = \"64m\"\n");
	CHECK(path);
	int rc = ssd_config_open(&c, path, NULL, err, sizeof err);
	unlink(path);
	CHECKF(rc == 0, "%s", err);
	CHECK(!strcmp(c.description, "a ; b") && !strcmp(c.name, "x\\y") &&
	      c.capacity == 64u << 20);
	static const char *const bad[] = {"description = \"open\n",
					  "description = \"a\" b\n",
					  "description = \"a\"b # c\n"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		path = temp_ini(bad[i]);
		CHECK(path);
		rc = ssd_config_open(&c, path, NULL, err, sizeof err);
		unlink(path);
		CHECKF(rc == SSD_EPARSE && one_line(err) && strstr(err, ":1: key "
								"'description'"),
		       "%s", err);
	}
}

TEST(config_description_tells_what_was_changed)
{
	struct ssd_config c;
	char err[512] = "";
	CHECK(ssd_config_open(&c, "tiny", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_fit(&c, err, sizeof err) == 0);
	char *js = print_to_string(&c, 1);
	CHECKF(strstr(js, "\"description\" : \"Small TLC drive for tests: 64 MiB, "
			  "4 units of 69 blocks\","), "%s", js);
	free(js);
	/* geometry overridden: noted; other keys (gc_policy) are not */
	CHECK(ssd_config_set(&c, "capacity", "128m", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_set(&c, "op", "0.28", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_set(&c, "gc_policy", "fifo", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_fit(&c, err, sizeof err) == 0);
	js = print_to_string(&c, 1);
	CHECKF(strstr(js, "\"description\" : \"Small TLC drive for tests: 64 MiB, "
			  "4 units of 69 blocks [changed: capacity=128m, op=0.28]\","),
	       "%s", js);
	free(js);
	/* a description given with the override is the user's own */
	CHECK(ssd_config_set(&c, "description", "mine", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_fit(&c, err, sizeof err) == 0);
	js = print_to_string(&c, 1);
	CHECKF(strstr(js, "\"description\" : \"mine\","), "%s", js);
	free(js);
	/* a long description is shortened so that the note fits */
	ssd_config_defaults(&c);
	char longd[256];
	memset(longd, 'd', 255);
	longd[255] = 0;
	CHECK(ssd_config_set(&c, "description", longd, "test", err, sizeof err) == 0);
	c.overridden = 0;
	CHECK(ssd_config_set(&c, "capacity", "64m", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_fit(&c, err, sizeof err) == 0);
	char buf[sizeof c.description];
	ssd_config_description(&c, buf, sizeof buf);
	CHECKF(strlen(buf) == 255 && strstr(buf, "ddd... [changed: capacity=64m; "
					   "adapted to fit: ") &&
	       buf[254] == ']', "%s", buf);
}

/* 1 if drive show's text has the line "KEY = VALUE" (padded). */
__attribute__((noinline)) static int shows(const char *text, const char *key,
					   const char *value)
{
	size_t k = strlen(key), v = strlen(value);
	for (const char *l = text; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, key, k) || l[k] != ' ')
			continue;
		const char *eq = l + k + strspn(l + k, " ");
		if (eq[0] == '=' && eq[1] == ' ' && !strncmp(eq + 2, value, v) &&
		    eq[2 + v] == ' ')
			return 1;
	}
	return 0;
}

/* trim: a bool of the SSD, yes by default; no on the X25-M G1 preset;
 * drive show prints it and reads it back; the description notes an
 * override; a hard disk never has TRIM, whatever the key says. */
TEST(config_trim_key)
{
	struct ssd_config c;
	char err[512] = "";
	CHECK(ssd_config_open(&c, "tiny", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_fit(&c, err, sizeof err) == 0);
	CHECK(c.trim == 1 && ssd_config_has_trim(&c));
	CHECK(ssd_config_set(&c, "trim", "maybe", NULL, err, sizeof err) != 0);
	CHECKF(strstr(err, "trim") && one_line(err), "%s", err);
	CHECK(ssd_config_set(&c, "trim", "no", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_fit(&c, err, sizeof err) == 0);
	CHECK(c.trim == 0 && !ssd_config_has_trim(&c));
	char *s = print_to_string(&c, 0);
	CHECKF(shows(s, "trim", "no") && strstr(s, "[changed: trim=no]"), "%s", s);
	const char *path = temp_ini(s);
	free(s);
	struct ssd_config back;
	CHECK(path && ssd_config_open(&back, path, NULL, err, sizeof err) == 0);
	CHECKF(back.trim == 0, "%s", err);
	unlink(path);
	s = print_to_string(&c, 1);
	CHECKF(strstr(s, "\"trim\" : false") || strstr(s, "\"trim\" : 0"), "%s", s);
	free(s);
	/* a preset takes TRIM unless it says otherwise: the Intel 510 of
	 * 2011 does, the X25-M G1 of 2008 never got it */
	CHECK(ssd_config_open(&c, "tiny", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_finish(&c, err, sizeof err) == 0);
	CHECK(c.trim == 1 && ssd_config_has_trim(&c));
	CHECK(ssd_config_open(&c, "intel-510-250g", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_finish(&c, err, sizeof err) == 0);
	CHECK(c.trim == 1 && ssd_config_has_trim(&c));
	CHECK(ssd_config_open(&c, "intel-x25m-80g", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_finish(&c, err, sizeof err) == 0);
	CHECK(c.trim == 0 && !ssd_config_has_trim(&c));
	CHECK(ssd_config_open(&c, "hitachi-hdt725032vla360", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_finish(&c, err, sizeof err) == 0);
	CHECK(c.trim == 1 && !ssd_config_has_trim(&c));
}
