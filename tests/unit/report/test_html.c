/* The HTML page's writer (report/html.h): text escaped, numbers as
 * written, JSON as tables, the drive against its preset, the SVG charts
 * and the gnuplot bodies the scenarios draw with read into charts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/config.h"
#include "base/json_read.h"
#include "report/html.h"
#include "t.h"

/* What fn wrote, as a string (free it). */
#define CAPTURE(buf, code)                                                 \
	do {                                                               \
		size_t n_;                                                 \
		FILE *f = open_memstream(&(buf), &n_);                     \
		CHECK(f);                                                  \
		code;                                                      \
		fclose(f);                                                 \
	} while (0)

static int count(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

TEST(html_text_escapes_the_five_characters_and_control_bytes)
{
	char *out = NULL;
	CAPTURE(out, ssd_html_text(f, "<a href=\"x\">&'</a>\x01\tok\n");
		ssd_html_text(f, NULL));
	CHECKF(!strcmp(out, "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;"
			    "\xef\xbf\xbd\tok\n"), "got '%s'", out);
	free(out);
	CAPTURE(out, ssd_html_textn(f, "a<b", 2));
	CHECKF(!strcmp(out, "a&lt;"), "got '%s'", out);
	free(out);
}

TEST(html_num_writes_6_digits_and_a_dash_for_what_is_not_finite)
{
	char *out = NULL;
	CAPTURE(out, ssd_html_num(f, 1.5); fputc(' ', f);
		ssd_html_num(f, 1234567); fputc(' ', f);
		ssd_html_num(f, NAN); fputc(' ', f);
		ssd_html_num(f, -INFINITY); fputc(' ', f);
		ssd_html_num(f, -0.0); fputc(' ', f);
		ssd_html_num(f, 0.000123456789));
	CHECKF(!strcmp(out, "1.5 1.23457e+06 - - 0 0.000123457"), "got '%s'", out);
	free(out);
}

TEST(html_page_is_whole_and_names_nothing_outside_itself)
{
	char *out = NULL;
	CAPTURE(out, ssd_html_begin(f, "a <b> & c", "sub'title");
		ssd_html_h2(f, "Drive & keys"); ssd_html_end(f));
	CHECK(!strncmp(out, "<!DOCTYPE html>", 15));
	CHECK(strstr(out, "<title>a &lt;b&gt; &amp; c</title>"));
	CHECK(strstr(out, "<h2 id=\"drive-keys\">Drive &amp; keys</h2>"));
	CHECK(strstr(out, "sub&#39;title"));
	CHECK(strstr(out, "data-charts-rendered"));
	CHECK(!strstr(out, "http"));
	CHECK(!strstr(out, "src="));
	CHECK(strstr(out, "</html>\n"));
	free(out);
}

TEST(html_json_makes_a_column_per_key_of_an_array_of_objects)
{
	const char *doc = "{\"waf\" : 2.50, \"name\" : \"<x>\", \"rows\" : "
			  "[{\"a\" : 1, \"b\" : \"q\"}, {\"b\" : \"r\", \"c\" : true}],"
			  " \"skip\" : 3, \"nested\" : {\"k\" : [1, 2]}}";
	char err[256];
	struct ssd_jval *v = ssd_jread(doc, strlen(doc), err, sizeof err);
	CHECK(v);
	static const char *const skip[] = {"skip", NULL};
	char *out = NULL;
	CAPTURE(out, ssd_html_json(f, v, skip));
	ssd_jread_free(v);
	/* numbers as written, text escaped */
	CHECKF(strstr(out, "<th>waf</th><td class=\"n\">2.50</td>"), "%s", out);
	CHECK(strstr(out, "&lt;x&gt;"));
	CHECK(!strstr(out, "skip"));
	/* columns a, b, c in the order first seen; a missing cell empty */
	CHECKF(strstr(out, "<tr><th>a</th><th>b</th><th>c</th></tr>"), "%s", out);
	CHECKF(strstr(out, "<tr><td></td><td>r</td><td>true</td></tr>"), "%s", out);
	CHECK(strstr(out, "<h3>nested</h3>"));
	CHECK(strstr(out, "<td>1, 2</td>"));
	free(out);
}

TEST(html_drive_lists_the_keys_that_differ_from_the_base)
{
	struct ssd_config base, c;
	char err[512];
	ssd_config_defaults(&base);
	CHECK(!ssd_config_finish(&base, err, sizeof err));
	c = base;
	CHECK(!ssd_config_set(&c, "op", "0.25", NULL, err, sizeof err));
	c.blocks_per_plane = 0;
	CHECK(!ssd_config_finish(&c, err, sizeof err));
	char *out = NULL;
	CAPTURE(out, ssd_html_drive(f, &c, &base, "preset default"));
	CHECKF(strstr(out, "<tr><th>op</th><td>0.25</td>"), "%s", out);
	const char *diff = strstr(out, "Keys that differ from preset default");
	CHECK(diff);
	/* only what differs: the capacity is the base's */
	CHECK(!strstr(diff, "<tr><th>capacity</th>"));
	free(out);
	CAPTURE(out, ssd_html_drive(f, &base, &base, "preset default"));
	CHECK(strstr(out, "Every key as in the preset."));
	free(out);
}

TEST(html_chart_draws_finite_points_and_escapes_its_text)
{
	struct ssd_chart c;
	ssd_chart_init(&c, "chart-t", "IOPS <per> second");
	snprintf(c.y.label, sizeof c.y.label, "a & b");
	struct ssd_chart_series *s = ssd_chart_series(&c, "dots", SSD_CS_POINTS);
	CHECK(s);
	for (int i = 0; i < 10; i++)
		CHECK(!ssd_chart_point(s, i, i == 4 ? NAN : i * 10.0, 0, 0));
	char *out = NULL;
	size_t drawn = 0;
	CAPTURE(out, drawn = ssd_chart_svg(f, &c));
	CHECKF(drawn == 9, "drew %zu", drawn);
	/* in the plot, a dot per point (the legend has its own) */
	char *data = strstr(out, "<g class=\"data\"");
	CHECK(data);
	char *end = strstr(data, "</g>");
	CHECK(end);
	*end = 0;
	CHECKF(count(data, "h0") == 9, "%d dots", count(data, "h0"));
	*end = '<';
	CHECK(strstr(out, "IOPS &lt;per&gt; second"));
	CHECK(strstr(out, "a &amp; b"));
	CHECK(strstr(out, "<g class=\"data\""));
	CHECK(!strstr(out, "No data"));
	free(out);
	ssd_chart_free(&c);
	/* a log axis leaves out what is not above 0; nothing left: said */
	ssd_chart_init(&c, "chart-e", "empty");
	c.y.base = 10;
	s = ssd_chart_series(&c, "", SSD_CS_LINES);
	CHECK(!ssd_chart_point(s, 1, 0, 0, 0) && !ssd_chart_point(s, 2, -5, 0, 0));
	CAPTURE(out, drawn = ssd_chart_svg(f, &c));
	CHECK(drawn == 0);
	CHECK(strstr(out, "No data to draw"));
	free(out);
	ssd_chart_free(&c);
}

TEST(html_chart_thins_a_long_series_keeping_its_extremes)
{
	struct ssd_chart c;
	ssd_chart_init(&c, "chart-long", "long");
	struct ssd_chart_series *s = ssd_chart_series(&c, "x", SSD_CS_LINES);
	for (int i = 0; i < 100000; i++)
		CHECK(!ssd_chart_point(s, i, i == 50001 ? 1e6 : i % 7, 0, 0));
	char *out = NULL;
	size_t drawn = 0;
	CAPTURE(out, drawn = ssd_chart_svg(f, &c));
	/* at most 4 points per pixel column of a ~860-pixel plot */
	CHECKF(drawn > 800 && drawn <= 4 * 900, "drew %zu", drawn);
	/* the outlier is kept: the axis reaches it */
	CHECK(strstr(out, ">1M<"));
	free(out);
	ssd_chart_free(&c);
}

/* A directory with a CSV file for the gnuplot reader. */
static int csv_dir(char *dir, const char *name, const char *text)
{
	strcpy(dir, "/tmp/t-html-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	char path[128];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static void csv_gone(const char *dir, const char *name)
{
	char path[128];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	unlink(path);
	rmdir(dir);
}

TEST(html_gnuplot_reads_ranges_styles_and_using_expressions)
{
	char dir[64], err[256];
	CHECK(!csv_dir(dir, "d.csv", "x,y,z,kind\n1,10,5,write\n2,0,6,base\n"
			   "4,30,7,write\n"));
	const char *body =
		"set xlabel 'size, ''bytes'''\n"
		"set logscale y\n"
		"set logscale x 2\n"
		"set xrange [512/1.3:*]\n"
		"set xtics (\"1k\" 1, '2k' 2)\n"
		"set arrow 1 from 2, graph 0 to 2, graph 1 nohead dt 2 lc rgb 'red'\n"
		"set label 1 'cache ~1 MiB' at 2, graph 0.9 tc rgb '#00ff00'\n"
		"plot 'd.csv' skip 1 using 1:($2 > 0 ? $2 : NaN) with linespoints "
		"lw 2 pt 7 lc rgb '#123456' title 'a''s', \\\n"
		"     '' skip 1 using 1:3 axes x1y2 with lines dt 2 notitle, \\\n"
		"     '' skip 1 using 1:(strcol(4) eq 'write' ? $3 : 1/0):($2 - $3):(0) "
		"with vectors nohead title 'seg', \\\n"
		"     '' skip 1 using 1:2:(sprintf('%.0f', $2)) with labels offset 0,0.8 notitle\n";
	struct ssd_chart c;
	ssd_chart_init(&c, "chart-gp", "t");
	int rc = ssd_chart_from_gnuplot(&c, dir, body, err, sizeof err);
	csv_gone(dir, "d.csv");
	CHECKF(!rc, "%s", err);
	CHECKF(!strcmp(c.x.label, "size, 'bytes'"), "%s", c.x.label);
	CHECK(c.y.base == 10 && c.x.base == 2);
	CHECK(fabs(c.x.min - 512 / 1.3) < 1e-9 && isnan(c.x.max));
	CHECK(c.x.ntics == 2 && !strcmp(c.x.ticlabel[1], "2k") && c.x.tic[1] == 2);
	CHECK(c.nnotes == 2 && c.note[0].gy1 && !c.note[0].gx1 && c.note[0].dashed);
	CHECK(!strcmp(c.note[0].color, "#cc0000"));
	CHECK(c.note[1].text && !strcmp(c.note[1].label, "cache ~1 MiB"));
	CHECK(!strcmp(c.note[1].color, "#00ff00"));
	/* the labels clause writes each value above its point */
	CHECKF(c.nseries == 4, "%d series", c.nseries);
	struct ssd_chart_series *l = &c.s[3];
	CHECK(l->style == SSD_CS_LABELS && l->n == 3 && !l->title[0]);
	CHECK(!strcmp(l->text[0], "10") && !strcmp(l->text[2], "30"));
	CHECK(l->x[2] == 4 && l->y[2] == 30);
	struct ssd_chart_series *a = &c.s[0], *b = &c.s[1], *v = &c.s[2];
	CHECK(!strcmp(a->title, "a's") && !strcmp(a->color, "#123456"));
	CHECK(a->style == SSD_CS_LINESPOINTS && a->width == 2);
	CHECK(a->n == 3 && a->y[0] == 10 && isnan(a->y[1]) && a->y[2] == 30);
	CHECK(b->y2 && b->dashed && !b->title[0] && b->style == SSD_CS_LINES);
	CHECK(v->style == SSD_CS_SEGMENTS && isnan(v->y[1]) && v->y[2] == 7);
	CHECK(v->dx[0] == 5 && v->dy[0] == 0);
	ssd_chart_free(&c);
}

TEST(html_gnuplot_reads_histograms_with_their_categories)
{
	char dir[64], err[256];
	CHECK(!csv_dir(dir, "h.csv", "state,a,b\nclean,1,2\n\"after, load\",3,4\n"));
	const char *body =
		"set style data histograms\n"
		"plot 'h.csv' skip 1 using 2:xtic(1) title 'A' lc rgb '#111111', \\\n"
		"     '' skip 1 using 3 title 'B'\n";
	struct ssd_chart c;
	ssd_chart_init(&c, "chart-h", "h");
	int rc = ssd_chart_from_gnuplot(&c, dir, body, err, sizeof err);
	csv_gone(dir, "h.csv");
	CHECKF(!rc, "%s", err);
	CHECK(c.bars && c.ncats == 2 && !strcmp(c.cats[1], "after, load"));
	CHECK(c.nseries == 2 && c.s[1].style == SSD_CS_BARS);
	CHECK(c.s[1].n == 2 && c.s[1].x[1] == 1 && c.s[1].y[1] == 4);
	ssd_chart_free(&c);
}

TEST(html_gnuplot_refuses_what_it_would_draw_wrong)
{
	char dir[64], err[256];
	CHECK(!csv_dir(dir, "d.csv", "1,2\n"));
	struct ssd_chart c;
	ssd_chart_init(&c, "chart-x", "x");
	int rc = ssd_chart_from_gnuplot(&c, dir, "plot 'd.csv' using 1:2 with "
					"candlesticks\n", err, sizeof err);
	CHECK(rc == SSD_EPARSE && strstr(err, "plot style 'candlesticks'"));
	ssd_chart_init(&c, "chart-x", "x");
	rc = ssd_chart_from_gnuplot(&c, dir, "plot 'd.csv' using 1:(foo($2))\n",
				    err, sizeof err);
	CHECKF(rc == SSD_EPARSE && strstr(err, "expression"), "%d %s", rc, err);
	ssd_chart_init(&c, "chart-x", "x");
	rc = ssd_chart_from_gnuplot(&c, dir, "plot 'd.csv' using 1:2:(sprintf("
				    "'%s %d', $1)) with labels\n", err, sizeof err);
	CHECKF(rc == SSD_EPARSE && strstr(err, "labels whose text"), "%s", err);
	ssd_chart_init(&c, "chart-x", "x");
	rc = ssd_chart_from_gnuplot(&c, dir, "plot 'nosuch.csv' using 1:2\n",
				    err, sizeof err);
	CHECK(rc == SSD_EIO && strstr(err, "nosuch.csv"));
	ssd_chart_init(&c, "chart-x", "x");
	rc = ssd_chart_from_gnuplot(&c, dir, "set xlabel 'x'\n", err, sizeof err);
	CHECK(rc == SSD_EPARSE && strstr(err, "no plot"));
	csv_gone(dir, "d.csv");
}

TEST(html_json_makes_one_table_of_sibling_objects_and_nested_columns)
{
	const char *doc = "{\"clean\" : {\"iops\" : 1, \"mbps\" : 2}, \"after\" : "
			  "{\"iops\" : 3, \"mbps\" : 4}, \"t\" : {\"0.5\" : {\"x\" : 1},"
			  " \"4\" : {\"x\" : 2}}, \"rows\" : [{\"n\" : 1, \"in\" : "
			  "{\"w\" : 2}}]}";
	char err[256];
	struct ssd_jval *v = ssd_jread(doc, strlen(doc), err, sizeof err);
	CHECK(v);
	char *out = NULL;
	CAPTURE(out, ssd_html_json(f, v, NULL));
	ssd_jread_free(v);
	/* the states in one table, a row each */
	CHECKF(strstr(out, "<tr><th></th><th>iops</th><th>mbps</th></tr>\n"
			   "<tr><th>clean</th><td class=\"n\">1</td>"), "%s", out);
	CHECK(strstr(out, "<tr><th>after</th><td class=\"n\">3</td>"));
	/* a table keyed by a dotted name, under its heading */
	CHECK(strstr(out, "<h3>t</h3>"));
	CHECK(strstr(out, "<tr><th>0.5</th><td class=\"n\">1</td></tr>"));
	/* a nested object's members as columns */
	CHECKF(strstr(out, "<th>n</th><th>in.w</th>"), "%s", out);
	CHECK(strstr(out, "<td class=\"n\">2</td>"));
	free(out);
}
