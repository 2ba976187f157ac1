/* Unit tests for config.c: the option table, drive files, --set, derived
 * geometry and the one-line error messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
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
	 * blocks are too few) a one-line error saying what to raise. */
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
		char err[256] = "";
		ssd_config_defaults(&c);
		CHECKF(ssd_config_set(&c, sets[i].key, sets[i].val, "--set", err,
				      sizeof err) == 0, "%s", err);
		int rc = ssd_config_finish(&c, err, sizeof err);
		CHECKF((rc == 0) == sets[i].ok, "%s=%s: %s", sets[i].key, sets[i].val, err);
		if (rc) {
			CHECKF(one_line(err) && (strstr(err, "raise op") ||
						 strstr(err, "raise capacity or op")),
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
		{"capacity", "512k", SSD_ERANGE, {"out of range", "1m..16t"}},
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
	CHECKF(one_line(err) && strstr(err, "capacity 64 MiB above usable physical") &&
	       strstr(err, "raise op"), "%s", err);

	/* too few blocks per plane for GC */
	ssd_config_defaults(&c);
	CHECK(ssd_config_set(&c, "capacity", "1m", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_finish(&c, err, sizeof err) == SSD_ERANGE);
	CHECKF(one_line(err) && strstr(err, "blocks_per_plane") &&
	       strstr(err, "gc_bg_blocks"), "%s", err);

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
