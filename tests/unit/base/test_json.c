/* Unit tests for json.c: string escaping (RFC 8259), the layouts (fio's,
 * flat, nested at a column) and numbers that print with '.' whatever the
 * locale. */
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/config.h"
#include "base/json.h"
#include "t.h"

/* What fn wrote through a writer on a memory stream (caller frees). */
struct mem {
	char *buf;
	size_t len;
	FILE *f;
};

static void mem_open(struct mem *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
}

static char *mem_close(struct mem *m)
{
	fclose(m->f);
	return m->buf;
}

static char *str_of(const char *s)
{
	struct mem m;
	mem_open(&m);
	ssd_json_str(m.f, s);
	return mem_close(&m);
}

TEST(json_escapes_quotes_backslash_and_controls)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"plain", "\"plain\""},
		{"a\"b", "\"a\\\"b\""},
		{"back\\slash", "\"back\\\\slash\""},
		{"/", "\"/\""}, /* no need to escape the solidus */
		{"\n\r\t\b\f", "\"\\u000a\\u000d\\u0009\\u0008\\u000c\""},
		{"\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\""},
		{"", "\"\""},
		{NULL, "\"\""},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *got = str_of(cases[i].in);
		CHECKF(!strcmp(got, cases[i].out), "%s: got %s want %s",
		       cases[i].in ? cases[i].in : "NULL", got, cases[i].out);
		free(got);
	}
}

TEST(json_passes_utf8_and_replaces_invalid_bytes)
{
	/* 2, 3 and 4-byte sequences pass through as they are */
	char *got = str_of("caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e");
	CHECKF(!strcmp(got, "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e\""),
	       "got %s", got);
	free(got);
	/* a stray continuation byte, 0xff, an overlong '/', a UTF-16
	 * surrogate, a truncated sequence: one \ufffd per byte */
	got = str_of("\x80|\xff|\xc0\xaf|\xed\xa0\x80|\xe2\x82");
	CHECKF(!strcmp(got, "\"\\ufffd|\\ufffd|\\ufffd\\ufffd|"
			    "\\ufffd\\ufffd\\ufffd|\\ufffd\\ufffd\""),
	       "got %s", got);
	free(got);
}

/* The same document in the layouts the outputs use. */
static char *doc(int column, unsigned flags)
{
	struct mem m;
	struct ssd_json w;
	mem_open(&m);
	ssd_json_init(&w, m.f, column, flags);
	ssd_json_object(&w);
	ssd_json_kstring(&w, "name", "x");
	ssd_json_karray(&w, "list");
	ssd_json_u64(&w, 1);
	ssd_json_object_flat(&w);
	ssd_json_ki64(&w, "from", -1);
	ssd_json_kbool(&w, "ok", 1);
	ssd_json_end(&w);
	ssd_json_end(&w);
	ssd_json_kobject(&w, "empty");
	ssd_json_end(&w);
	ssd_json_key(&w, "none");
	ssd_json_array_flat(&w);
	ssd_json_end(&w);
	ssd_json_key(&w, "n");
	ssd_json_null(&w);
	ssd_json_end(&w);
	return mem_close(&m);
}

TEST(json_layouts)
{
	char *got = doc(0, 0);
	CHECKF(!strcmp(got, "{\n"
			    "  \"name\" : \"x\",\n"
			    "  \"list\" : [\n"
			    "    1,\n"
			    "    {\"from\" : -1, \"ok\" : true}\n"
			    "  ],\n"
			    "  \"empty\" : {\n"
			    "  },\n"
			    "  \"none\" : [],\n"
			    "  \"n\" : null\n"
			    "}"),
	       "got\n%s", got);
	free(got);
	/* fio's empty object; a value nested at column 4 */
	got = doc(4, SSD_JSON_FIO);
	CHECKF(!strcmp(got, "{\n"
			    "      \"name\" : \"x\",\n"
			    "      \"list\" : [\n"
			    "        1,\n"
			    "        {\"from\" : -1, \"ok\" : true}\n"
			    "      ],\n"
			    "      \"empty\" : {\n"
			    "\n"
			    "      },\n"
			    "      \"none\" : [],\n"
			    "      \"n\" : null\n"
			    "    }"),
	       "got\n%s", got);
	free(got);
	got = doc(-1, 0);
	CHECKF(!strcmp(got, "{\"name\" : \"x\", \"list\" : [1, {\"from\" : -1, "
			    "\"ok\" : true}], \"empty\" : {}, \"none\" : [], "
			    "\"n\" : null}"),
	       "got\n%s", got);
	free(got);
}

/* Numbers in one flat array. */
static char *numbers(void)
{
	struct mem m;
	struct ssd_json w;
	mem_open(&m);
	ssd_json_init(&w, m.f, -1, 0);
	ssd_json_array(&w);
	ssd_json_fixed(&w, 1.5, 6);
	ssd_json_fixed(&w, -0.25, 0);
	ssd_json_general(&w, 1234.5678, 6);
	ssd_json_general(&w, 0.07, 0);
	ssd_json_general(&w, 1e-7, 0);
	ssd_json_fixed(&w, NAN, 6);
	ssd_json_general(&w, INFINITY, 6);
	ssd_json_fixed(&w, -INFINITY, 6);
	ssd_json_u64(&w, UINT64_MAX);
	ssd_json_i64(&w, INT64_MIN);
	ssd_json_end(&w);
	return mem_close(&m);
}

static const char want_numbers[] =
	"[1.500000, -0, 1234.57, 0.07, 1e-07, null, null, null, "
	"18446744073709551615, -9223372036854775808]";

TEST(json_numbers)
{
	char *got = numbers();
	CHECKF(!strcmp(got, want_numbers), "got %s", got);
	free(got);
	char buf[32];
	CHECK(!strcmp(ssd_json_format(buf, sizeof buf, "%5.2f%%", 3.14159),
		      " 3.14%"));
}

/* Switch LC_NUMERIC to a locale that writes "1,5": an installed one, or
 * one built with localedef into dir (LOCPATH), which takes about a
 * second.  Returns 1 if the locale is in effect. */
static int comma_locale(char *dir, size_t n)
{
	static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8",
					    "fr_FR.UTF-8", "ru_RU.UTF-8"};
	dir[0] = 0;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (setlocale(LC_NUMERIC, names[i]))
			return 1;
	if (system("command -v localedef >/dev/null 2>&1"))
		return 0;
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, n, "%s/ssdlab-locale-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		dir[0] = 0;
		return 0;
	}
	char cmd[512];
	snprintf(cmd, sizeof cmd,
		 "localedef -i de_DE -f UTF-8 '%s/de_DE.UTF-8' >/dev/null 2>&1",
		 dir);
	if (system(cmd))
		return 0;
	setenv("LOCPATH", dir, 1);
	return setlocale(LC_NUMERIC, "de_DE.UTF-8") != NULL;
}

TEST(json_numbers_ignore_a_comma_locale)
{
	char dir[256], saved[64], buf[32];
	char *want_cfg, *got_cfg = NULL, *got = NULL;
	struct ssd_config c;
	ssd_config_defaults(&c);
	c.op = 0.07;
	{
		struct mem m;
		mem_open(&m);
		ssd_config_json(&c, m.f, -1);
		want_cfg = mem_close(&m);
	}
	snprintf(saved, sizeof saved, "%s", setlocale(LC_NUMERIC, NULL));
	int on = comma_locale(dir, sizeof dir);
	snprintf(buf, sizeof buf, "%.1f", 1.5);
	int comma = on && !strcmp(buf, "1,5");
	if (comma) {
		got = numbers();
		struct mem m;
		mem_open(&m);
		ssd_config_json(&c, m.f, -1);
		got_cfg = mem_close(&m);
		ssd_json_format(buf, sizeof buf, "%.2f", 2.75);
	}
	setlocale(LC_NUMERIC, saved);
	if (dir[0]) {
		char cmd[300];
		unsetenv("LOCPATH");
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
		CHECK(!system(cmd));
	}
	if (!comma) {
		/* no comma locale here and none could be built: the guard
		 * is then only tested in the C locale */
		free(want_cfg);
		SKIP("no comma-decimal locale installed, and localedef could "
		     "not build one");
	}
	CHECKF(!strcmp(got, want_numbers), "got %s", got);
	CHECKF(!strcmp(got_cfg, want_cfg), "got %s\nwant %s", got_cfg,
	       want_cfg);
	CHECK(strstr(got_cfg, "\"op\" : 0.07,"));
	CHECK(!strcmp(buf, "2.75"));
	free(got);
	free(got_cfg);
	free(want_cfg);
}
