/* Unit tests for json_read.c: what the writer writes reads back (numbers
 * as their text, strings unescaped), paths, and every malformed input an
 * error naming the line and column. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/json_read.h"
#include "t.h"

static struct ssd_jval *rd(const char *s, char *err)
{
	return ssd_jread(s, strlen(s), err, 200);
}

TEST(json_read_reads_what_the_writer_writes)
{
	char *buf = NULL, err[200];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct ssd_json w;
	ssd_json_init(&w, f, 0, SSD_JSON_FIO);
	ssd_json_object(&w);
	ssd_json_kstring(&w, "name", "a \"q\" \\ \n\x01 é");
	ssd_json_kfixed(&w, "iops", 363.372266, 6);
	ssd_json_kgeneral(&w, "op", 0.07, 0);
	ssd_json_ki64(&w, "neg", -12);
	ssd_json_kbool(&w, "yes", 1);
	ssd_json_karray(&w, "jobs");
	ssd_json_object(&w);
	ssd_json_kstring(&w, "jobname", "measure");
	ssd_json_kobject(&w, "percentile");
	ssd_json_ku64(&w, "99.000000", 164626432);
	ssd_json_end(&w);
	ssd_json_end(&w);
	ssd_json_end(&w);
	ssd_json_karray(&w, "empty");
	ssd_json_end(&w);
	ssd_json_end(&w);
	fclose(f);
	struct ssd_jval *v = ssd_jread(buf, len, err, sizeof err);
	CHECKF(v, "%s\n%s", err, buf);
	CHECK(!strcmp(ssd_jget(v, "name")->s, "a \"q\" \\ \n\x01 é"));
	CHECK(!strcmp(ssd_jget(v, "iops")->s, "363.372266"));
	CHECK(ssd_jget(v, "iops")->num == 363.372266);
	CHECK(!strcmp(ssd_jget(v, "op")->s, "0.07"));
	CHECK(ssd_jget(v, "neg")->num == -12);
	CHECK(ssd_jget(v, "yes")->type == SSD_JBOOL && ssd_jget(v, "yes")->b);
	const struct ssd_jval *j = ssd_jpath(v, "jobs.0");
	CHECK(j && !strcmp(ssd_jget(j, "jobname")->s, "measure"));
	CHECK(!strcmp(ssd_jget(ssd_jget(j, "percentile"), "99.000000")->s,
		      "164626432"));
	CHECK(ssd_jpath(v, "jobs.1") == NULL && ssd_jpath(v, "jobs.x") == NULL);
	CHECK(ssd_jpath(v, "empty")->type == SSD_JARR &&
	      ssd_jpath(v, "empty")->n == 0);
	CHECK(ssd_jget(v, "nope") == NULL);
	ssd_jread_free(v);
	free(buf);
}

TEST(json_read_unescapes_unicode)
{
	char err[200];
	struct ssd_jval *v = rd("[\"\\u00e9\\ud83d\\ude00\\ud800x\\/\"]", err);
	CHECKF(v, "%s", err);
	CHECK(!strcmp(v->v[0]->s, "\xc3\xa9\xf0\x9f\x98\x80\xef\xbf\xbdx/"));
	ssd_jread_free(v);
	v = rd(" null ", err);
	CHECK(v && v->type == SSD_JNULL);
	ssd_jread_free(v);
	v = rd("false", err);
	CHECK(v && v->type == SSD_JBOOL && !v->b);
	ssd_jread_free(v);
}

TEST(json_read_refuses_what_is_not_json)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{"", "line 1, column 1: expected a value, found the end"},
		{"{\"a\" 1}", "line 1, column 6: expected ':'"},
		{"{\"a\":1,}", "line 1, column 8: expected a member's name"},
		{"[1,\n2 3]", "line 2, column 3: expected ',' or ']'"},
		{"[1] x", "line 1, column 5: text after the value"},
		{"\"abc", "string without its closing quote"},
		{"\"a\\qb\"", "an unknown escape"},
		{"\"\\u12\"", "a bad \\u escape"},
		{"\"a\tb\"", "a control character"},
		{"01x", "text after the value"},
		{"-", "not a value"},
		{"1.", "without digits after '.'"},
		{"1e", "without an exponent"},
		{"tru", "not a value"},
		{"{1:2}", "expected a member's name"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char err[200] = "";
		struct ssd_jval *v = rd(bad[i].text, err);
		CHECKF(!v && strstr(err, bad[i].msg), "'%s': got '%s'",
		       bad[i].text, err);
	}
	/* nesting beyond the limit */
	char deep[2 * SSD_JREAD_DEPTH + 8];
	memset(deep, '[', SSD_JREAD_DEPTH + 1);
	memset(deep + SSD_JREAD_DEPTH + 1, ']', SSD_JREAD_DEPTH + 1);
	deep[2 * SSD_JREAD_DEPTH + 2] = 0;
	char err[200];
	CHECK(!rd(deep, err) && strstr(err, "nested too deep"));
	deep[0] = ' ';
	deep[2 * SSD_JREAD_DEPTH + 1] = 0;
	struct ssd_jval *v = rd(deep, err);
	CHECKF(v, "%s", err);
	ssd_jread_free(v);
}

TEST(json_read_file_names_the_file)
{
	char err[300];
	CHECK(!ssd_jread_file("/nonexistent/x.json", err, sizeof err));
	CHECK(strstr(err, "/nonexistent/x.json: No such file"));
}
