/*
 * html.c -- the page around the figures (html.h): escaping, the page's
 * head with its inline style and its closing check script, headings,
 * tables of names and values, JSON as tables, and the drive against its
 * preset.
 */
#include "report/html.h"
#include "ssdlab.h" /* SSDLAB_VERSION */
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ssd_html_textn(FILE *f, const char *s, size_t n)
{
	if (!s)
		return;
	for (size_t i = 0; i < n && s[i]; i++) {
		switch (s[i]) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			/* control characters other than tab and line ends
			 * are not allowed in HTML text */
			if ((unsigned char)s[i] < 0x20 && s[i] != '\n' &&
			    s[i] != '\t' && s[i] != '\r')
				fputs("\xef\xbf\xbd", f); /* U+FFFD */
			else
				fputc(s[i], f);
		}
	}
}

void ssd_html_text(FILE *f, const char *s)
{
	ssd_html_textn(f, s, s ? strlen(s) : 0);
}

void ssd_html_num(FILE *f, double v)
{
	if (!isfinite(v))
		fputs("-", f);
	else
		fprintf(f, "%.6g", v == 0 ? 0 : v); /* no "-0" */
}

/* The style: readable in print and on a screen, no fonts fetched. */
static const char page_style[] =
	"body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,"
	"'DejaVu Sans',sans-serif;margin:0 auto;max-width:1180px;padding:0 "
	"16px 40px;color:#1a1a1a;background:#fff;line-height:1.4}\n"
	"h1{font-size:1.6em;margin:18px 0 2px}h2{font-size:1.25em;margin:28px "
	"0 8px;border-bottom:1px solid #ccc;padding-bottom:3px}"
	"h3{font-size:1.05em;margin:18px 0 6px}h4{font-size:.95em;margin:12px 0 4px}\n"
	".sub{color:#555;margin:0 0 12px}\n"
	"table{border-collapse:collapse;margin:6px 0 12px;font-size:.9em}"
	"caption{text-align:left;font-weight:600;padding:2px 0}\n"
	"th,td{border:1px solid #d4d4d4;padding:3px 8px;text-align:left;"
	"vertical-align:top}th{background:#f2f2f2}"
	"td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	".wide{overflow-x:auto;max-width:100%}\n"
	"pre{background:#f7f7f7;border:1px solid #e2e2e2;padding:8px;"
	"overflow-x:auto;font-size:.85em}\n"
	"figure{margin:14px 0 22px}figure svg{width:100%;height:auto;"
	"max-width:1100px;display:block;border:1px solid #e2e2e2}\n"
	"figcaption{font-weight:600;margin:0 0 4px}\n"
	".empty{color:#a00}\n";

/* The check that every chart drew something: run after layout, it
 * counts the charts whose SVG has a drawn element of non-zero size
 * and writes the counts on the body, for a browser test to read. */
static const char page_script[] =
	"<script>\n"
	"(function(){\n"
	"  var figs = document.querySelectorAll('figure.chart'), ok = 0;\n"
	"  for (var i = 0; i < figs.length; i++) {\n"
	"    var g = figs[i].querySelector('svg g.data');\n"
	"    if (!g) continue;\n"
	"    var b = g.getBBox();\n"
	"    if (b.width > 0 || b.height > 0) ok++;\n"
	"    else figs[i].setAttribute('data-empty', '1');\n"
	"  }\n"
	"  document.body.setAttribute('data-charts', String(figs.length));\n"
	"  document.body.setAttribute('data-charts-rendered', String(ok));\n"
	"})();\n"
	"</script>\n";

void ssd_html_begin(FILE *f, const char *title, const char *subtitle)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, "
	      "initial-scale=1\">\n<meta name=\"generator\" content=\"ssdlab "
	      SSDLAB_VERSION "\">\n<title>", f);
	ssd_html_text(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", page_style);
	ssd_html_text(f, title);
	fputs("</h1>\n", f);
	if (subtitle) {
		fputs("<p class=\"sub\">", f);
		ssd_html_text(f, subtitle);
		fputs("</p>\n", f);
	}
}

void ssd_html_end(FILE *f)
{
	fputs("<p class=\"sub\">Written by ssdlab " SSDLAB_VERSION
	      "; times are simulated.</p>\n", f);
	fputs(page_script, f);
	fputs("</body>\n</html>\n", f);
}

/* An id of letters, digits and '-' made of text. */
static void write_id(FILE *f, const char *text)
{
	int dash = 0;
	for (const char *c = text; *c; c++) {
		char ch = *c;
		if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
			fputc(ch, f);
			dash = 0;
		} else if (ch >= 'A' && ch <= 'Z') {
			fputc(ch - 'A' + 'a', f);
			dash = 0;
		} else if (!dash) {
			fputc('-', f);
			dash = 1;
		}
	}
}

void ssd_html_h2(FILE *f, const char *text)
{
	fputs("<h2 id=\"", f);
	write_id(f, text);
	fputs("\">", f);
	ssd_html_text(f, text);
	fputs("</h2>\n", f);
}

void ssd_html_h3(FILE *f, const char *text)
{
	fputs("<h3>", f);
	ssd_html_text(f, text);
	fputs("</h3>\n", f);
}

void ssd_html_p(FILE *f, const char *text)
{
	fputs("<p>", f);
	ssd_html_text(f, text);
	fputs("</p>\n", f);
}

void ssd_html_pre(FILE *f, const char *text, size_t len)
{
	fputs("<pre>", f);
	ssd_html_textn(f, text, len);
	fputs("</pre>\n", f);
}

void ssd_html_kv_begin(FILE *f, const char *caption)
{
	fputs("<table>", f);
	if (caption) {
		fputs("<caption>", f);
		ssd_html_text(f, caption);
		fputs("</caption>", f);
	}
	fputc('\n', f);
}

void ssd_html_kv(FILE *f, const char *key, const char *value)
{
	fputs("<tr><th>", f);
	ssd_html_text(f, key);
	fputs("</th><td>", f);
	ssd_html_text(f, value);
	fputs("</td></tr>\n", f);
}

void ssd_html_kv_num(FILE *f, const char *key, double v)
{
	fputs("<tr><th>", f);
	ssd_html_text(f, key);
	fputs("</th><td class=\"n\">", f);
	ssd_html_num(f, v);
	fputs("</td></tr>\n", f);
}

void ssd_html_kv_end(FILE *f)
{
	fputs("</table>\n", f);
}

/* ---- JSON as tables ---- */

static int scalar(const struct ssd_jval *v)
{
	return v && v->type != SSD_JARR && v->type != SSD_JOBJ;
}

/* A scalar in a cell: numbers as written, right-aligned. */
static void cell(FILE *f, const struct ssd_jval *v)
{
	if (!v) {
		fputs("<td></td>", f);
		return;
	}
	if (v->type == SSD_JNUM) {
		fputs("<td class=\"n\">", f);
		ssd_html_text(f, v->s);
	} else {
		fputs("<td>", f);
		if (v->type == SSD_JSTR)
			ssd_html_text(f, v->s);
		else if (v->type == SSD_JBOOL)
			fputs(v->b ? "true" : "false", f);
		else if (v->type == SSD_JNULL)
			fputs("-", f);
		else if (v->type == SSD_JARR) {
			/* an array of scalars in one cell, by commas */
			for (size_t i = 0; i < v->n; i++) {
				if (i)
					fputs(", ", f);
				if (scalar(v->v[i]))
					ssd_html_text(f, v->v[i]->type == SSD_JNULL
						      ? "-" : v->v[i]->type == SSD_JBOOL
						      ? (v->v[i]->b ? "true" : "false")
						      : v->v[i]->s);
				else
					fputs("&hellip;", f);
			}
		} else {
			fputs("&hellip;", f);
		}
	}
	fputs("</td>", f);
}

static int all_scalars(const struct ssd_jval *a)
{
	for (size_t i = 0; i < a->n; i++)
		if (!scalar(a->v[i]))
			return 0;
	return 1;
}

/* A cell value that is a scalar or an array of scalars. */
static int flat(const struct ssd_jval *v)
{
	return scalar(v) || (v->type == SSD_JARR && all_scalars(v));
}

/* An object whose members are all flat (a row of a table). */
static int flat_object(const struct ssd_jval *v)
{
	if (v->type != SSD_JOBJ || !v->n)
		return 0;
	for (size_t m = 0; m < v->n; m++)
		if (!flat(v->v[m]))
			return 0;
	return 1;
}

/* A column of a table of objects: a member, or a member of a member
 * (an object of flat values nested one deep, "initial.waf"). */
struct col {
	const char *k1, *k2;    /* k2 NULL: a member itself */
};

static const struct ssd_jval *col_get(const struct ssd_jval *o,
				      const struct col *c)
{
	const struct ssd_jval *v = ssd_jget(o, c->k1);
	return c->k2 ? ssd_jget(v, c->k2) : v;
}

/* Add column (k1, k2) unless there; 0, or -1 out of memory. */
static int col_add(struct col **cols, size_t *n, size_t *cap,
		   const char *k1, const char *k2)
{
	for (size_t j = 0; j < *n; j++)
		if (!strcmp((*cols)[j].k1, k1) && (!k2) == !(*cols)[j].k2 &&
		    (!k2 || !strcmp((*cols)[j].k2, k2)))
			return 0;
	if (*n == *cap) {
		struct col *nc = realloc(*cols, (*cap = *cap ? 2 * *cap : 16) *
					 sizeof *nc);
		if (!nc)
			return -1;
		*cols = nc;
	}
	(*cols)[(*n)++] = (struct col){k1, k2};
	return 0;
}

/* Objects as the rows of a table (an array's elements; with names, an
 * object's members, each row headed by its name): a column per key, in
 * the order first seen, the flat members of a nested object as columns
 * of their own. */
static void object_rows(FILE *f, struct ssd_jval *const *rows, size_t n,
			char *const *names)
{
	size_t nk = 0, cap = 0;
	struct col *cols = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct ssd_jval *o = rows[i];
		for (size_t k = 0; o->type == SSD_JOBJ && k < o->n; k++) {
			const struct ssd_jval *v = o->v[k];
			if (v->type != SSD_JOBJ) {
				if (col_add(&cols, &nk, &cap, o->k[k], NULL))
					goto out;
				continue;
			}
			for (size_t m = 0; m < v->n; m++)
				if (flat(v->v[m]) &&
				    col_add(&cols, &nk, &cap, o->k[k], v->k[m]))
					goto out;
		}
	}
	fputs("<div class=\"wide\"><table>\n<tr>", f);
	if (names)
		fputs("<th></th>", f);
	for (size_t j = 0; j < nk; j++) {
		fputs("<th>", f);
		ssd_html_text(f, cols[j].k1);
		if (cols[j].k2) {
			fputc('.', f);
			ssd_html_text(f, cols[j].k2);
		}
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (size_t i = 0; i < n; i++) {
		fputs("<tr>", f);
		if (names) {
			fputs("<th>", f);
			ssd_html_text(f, names[i]);
			fputs("</th>", f);
		}
		for (size_t j = 0; j < nk; j++) {
			const struct ssd_jval *v = col_get(rows[i], &cols[j]);
			cell(f, v && flat(v) ? v : NULL);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
out:
	free(cols);
}

static int skipped(const char *key, const char *const *skip)
{
	for (int i = 0; skip && skip[i]; i++)
		if (!strcmp(skip[i], key))
			return 1;
	return 0;
}

static void json_at(FILE *f, const struct ssd_jval *v, const char *const *skip,
		    int level)
{
	if (v->type == SSD_JARR) {
		int objs = v->n > 0;
		for (size_t i = 0; i < v->n; i++)
			objs &= v->v[i]->type == SSD_JOBJ;
		if (objs) {
			object_rows(f, v->v, v->n, NULL);
		} else {
			fputs("<table><tr>", f);
			cell(f, v);
			fputs("</tr></table>\n", f);
		}
		return;
	}
	/* an object whose members are all objects of flat values (a
	 * table keyed by block size, by handle...): one table, a row per
	 * member */
	int rows = v->type == SSD_JOBJ && v->n >= 2 && level > 0;
	for (size_t k = 0; rows && k < v->n; k++)
		rows = flat_object(v->v[k]);
	if (rows) {
		object_rows(f, v->v, v->n, v->k);
		return;
	}
	if (v->type != SSD_JOBJ) {
		fputs("<table><tr>", f);
		cell(f, v);
		fputs("</tr></table>\n", f);
		return;
	}
	/* the object's flat members first, in one table */
	int any = 0;
	for (size_t k = 0; k < v->n; k++) {
		if (skipped(v->k[k], skip) || !flat(v->v[k]))
			continue;
		if (!any++)
			fputs("<table>\n", f);
		fputs("<tr><th>", f);
		ssd_html_text(f, v->k[k]);
		fputs("</th>", f);
		cell(f, v->v[k]);
		fputs("</tr>\n", f);
	}
	if (any)
		fputs("</table>\n", f);
	/* then each nested one under its name; a run of two or more
	 * objects of flat values (states, cycles) in one table, a row each */
	for (size_t k = 0; k < v->n; k++) {
		if (skipped(v->k[k], skip) || flat(v->v[k]))
			continue;
		size_t e = k;
		while (e < v->n && !skipped(v->k[e], skip) && flat_object(v->v[e]))
			e++;
		if (e - k >= 2) {
			object_rows(f, &v->v[k], e - k, &v->k[k]);
			k = e - 1;
			continue;
		}
		int h = level < 2 ? 3 + level : 4;
		fprintf(f, "<h%d>", h);
		ssd_html_text(f, v->k[k]);
		fprintf(f, "</h%d>\n", h);
		json_at(f, v->v[k], NULL, level + 1);
	}
}

void ssd_html_json(FILE *f, const struct ssd_jval *v, const char *const *skip)
{
	if (v)
		json_at(f, v, skip, 0);
}

/* ---- the drive ---- */

/* The keys and values of a drive's text (config_print's lines: "key =
 * value  # unit; help", derived keys as "# key = value"), as parallel
 * arrays; the number of keys, -1 out of memory. */
struct kv {
	char key[64];
	char val[560];
	int derived;
};

static int drive_keys(const struct ssd_config *c, struct kv **out)
{
	*out = NULL;
	char *text = ssd_config_text(c);
	if (!text)
		return -1;
	int n = 0, cap = 0;
	struct kv *kv = NULL;
	for (char *s = text; *s;) {
		char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		char *line = s;
		s += len + (nl != NULL);
		char key[sizeof kv->key], val[sizeof kv->val];
		if (!ssd_config_line_kv(line, len, key, sizeof key, val,
					sizeof val))
			continue;
		int derived = len >= 2 && line[0] == '#' && line[1] == ' ';
		if (n == cap) {
			struct kv *nkv = realloc(kv, (size_t)(cap ? 2 * cap : 64) *
						 sizeof *kv);
			if (!nkv) {
				free(kv);
				free(text);
				return -1;
			}
			kv = nkv;
			cap = cap ? 2 * cap : 64;
		}
		memcpy(kv[n].key, key, sizeof key);
		memcpy(kv[n].val, val, sizeof val);
		kv[n].derived = derived;
		n++;
	}
	free(text);
	*out = kv;
	return n;
}

void ssd_html_drive(FILE *f, const struct ssd_config *cfg,
		    const struct ssd_config *base, const char *base_what)
{
	char desc[sizeof cfg->description], cap[32];
	ssd_html_kv_begin(f, NULL);
	ssd_html_kv(f, "drive", cfg->name);
	ssd_html_kv(f, "description", ssd_config_description(cfg, desc, sizeof desc));
	if (base) {
		ssd_html_kv(f, "compared with", base_what);
		ssd_html_kv(f, "its description", base->description);
	}
	ssd_html_kv(f, "capacity", ssd_fmt_bytes(cfg->capacity, cap, sizeof cap));
	ssd_html_kv_end(f);
	if (!base) {
		ssd_html_p(f, "No preset of this name to compare with: drive show "
			   "prints every key.");
		return;
	}
	struct kv *a = NULL, *b = NULL;
	int na = drive_keys(cfg, &a), nb = drive_keys(base, &b);
	if (na < 0 || nb < 0) {
		ssd_html_p(f, "(out of memory comparing the drive with its preset)");
		free(a);
		free(b);
		return;
	}
	int diffs = 0;
	for (int i = 0; i < na; i++) {
		const struct kv *o = NULL;
		for (int j = 0; j < nb && !o; j++)
			if (!strcmp(a[i].key, b[j].key))
				o = &b[j];
		if (!strcmp(a[i].key, "name") || !strcmp(a[i].key, "description"))
			continue;
		if (o && !strcmp(o->val, a[i].val))
			continue;
		if (!diffs++) {
			fputs("<table><caption>Keys that differ from ", f);
			ssd_html_text(f, base_what);
			fputs("</caption>\n<tr><th>key</th><th>this drive</th><th>", f);
			ssd_html_text(f, base_what);
			fputs("</th></tr>\n", f);
		}
		fputs("<tr><th>", f);
		ssd_html_text(f, a[i].key);
		if (a[i].derived)
			fputs(" <small>(derived)</small>", f);
		fputs("</th><td>", f);
		ssd_html_text(f, a[i].val);
		fputs("</td><td>", f);
		ssd_html_text(f, o ? o->val : "(not set)");
		fputs("</td></tr>\n", f);
	}
	if (diffs)
		fputs("</table>\n", f);
	else
		ssd_html_p(f, "Every key as in the preset.");
	free(a);
	free(b);
}
