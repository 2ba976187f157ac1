/*
 * scn_html.c -- a scenario's page, DIR/report.html (docs/report.md):
 * its summary as printed, the drive against its preset, the workload
 * (the scenario and every parameter, those set marked), every chart the
 * scenario drew with gnuplot drawn again in the page from the same
 * script body and CSV files (report/html.h), and the figures of its
 * result.json as tables.
 *
 * Written once result.json is whole, through ssd_scn_file like every
 * file of the scenario: a page that cannot be written, or a chart the
 * page cannot draw, fails the scenario with a message naming it.
 */
#include "methods/scenario.h"

#include <stdlib.h>
#include <string.h>

#include "base/json_read.h"
#include "methods/preset.h"
#include "report/html.h"

int ssd_scn_chart_keep(struct ssd_scn *s, const char *name, const char *title,
		       const char *body)
{
	struct ssd_scn_chart *nc = realloc(s->charts, (size_t)(s->ncharts + 1) *
					   sizeof *nc);
	if (!nc)
		goto oom;
	s->charts = nc;
	struct ssd_scn_chart *c = &s->charts[s->ncharts];
	snprintf(c->name, sizeof c->name, "%s", name);
	snprintf(c->title, sizeof c->title, "%s", title);
	if (!(c->body = strdup(body)))
		goto oom;
	s->ncharts++;
	return 0;
oom:
	snprintf(s->err, sizeof s->err, "scenario %s: out of memory", s->sc->name);
	return SSD_ENOMEM;
}

void ssd_scn_charts_free(struct ssd_scn *s)
{
	for (int i = 0; i < s->ncharts; i++)
		free(s->charts[i].body);
	free(s->charts);
	s->charts = NULL;
	s->ncharts = 0;
}

/* The scenario's parameters: name, value, default, unit, meaning. */
static void params_table(FILE *f, const struct ssd_scn *s)
{
	const struct ssd_scenario *sc = s->sc;
	if (!sc->params || !sc->params[0].name) {
		ssd_html_p(f, "The scenario has no parameters.");
		return;
	}
	fputs("<div class=\"wide\"><table><caption>Parameters (set ones in "
	      "bold)</caption>\n<tr><th>parameter</th><th>value</th>"
	      "<th>default</th><th>unit</th><th>meaning</th></tr>\n", f);
	for (int i = 0; sc->params[i].name; i++) {
		const struct ssd_scn_param *p = &sc->params[i];
		int set = strcmp(p->def, s->value[i]) != 0;
		fputs("<tr><th>", f);
		ssd_html_text(f, p->name);
		fputs(set ? "</th><td><b>" : "</th><td>", f);
		ssd_html_text(f, s->value[i]);
		fputs(set ? "</b></td><td>" : "</td><td>", f);
		ssd_html_text(f, p->def);
		fputs("</td><td>", f);
		ssd_html_text(f, p->unit);
		fputs("</td><td>", f);
		ssd_html_text(f, p->help);
		fputs("</td></tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

int ssd_scn_html(struct ssd_scn *s, const char *summary, size_t nsummary)
{
	char path[4096], what[160], title[400];
	snprintf(path, sizeof path, "%s/result.json", s->outdir);
	struct ssd_jval *res = ssd_jread_file(path, s->err, sizeof s->err);
	if (!res)
		return SSD_EIO;
	/* the preset the drive was made from, to show what differs */
	struct ssd_config base;
	char dirbuf[4096], perr[512];
	const char *dir = s->preset_dir ? s->preset_dir
			: ssd_preset_dir(NULL, dirbuf, sizeof dirbuf);
	int have_base = !ssd_preset_load(dir, s->cfg.name, NULL, 0, &base, perr,
					 sizeof perr);
	snprintf(what, sizeof what, "preset %s", s->cfg.name);
	FILE *f = ssd_scn_file(s, "report.html");
	if (!f) {
		ssd_jread_free(res);
		return SSD_EIO;
	}
	snprintf(title, sizeof title, "Scenario %s on %s", s->sc->name, s->cfg.name);
	char sub[400];
	snprintf(sub, sizeof sub, "%s; seed %llu%s%s.", s->sc->summary,
		 (unsigned long long)s->seed, s->snapshot ? ", from snapshot " : "",
		 s->snapshot ? s->snapshot : "");
	ssd_html_begin(f, title, sub);
	ssd_html_h2(f, "Summary");
	ssd_html_pre(f, summary ? summary : "", summary ? nsummary : 0);
	ssd_html_h2(f, "Drive");
	ssd_html_drive(f, &s->cfg, have_base ? &base : NULL, what);
	ssd_html_h2(f, "Workload");
	ssd_html_kv_begin(f, NULL);
	ssd_html_kv(f, "scenario", s->sc->name);
	ssd_html_kv(f, "method", s->sc->summary);
	ssd_html_kv_end(f);
	params_table(f, s);
	ssd_html_h2(f, "Charts");
	int rc = 0;
	for (int i = 0; i < s->ncharts && !rc; i++) {
		struct ssd_chart *c = malloc(sizeof *c);
		char id[160], err[400];
		if (!c) {
			snprintf(s->err, sizeof s->err, "scenario %s: out of memory",
				 s->sc->name);
			rc = SSD_ENOMEM;
			break;
		}
		snprintf(id, sizeof id, "chart-%s", s->charts[i].name);
		ssd_chart_init(c, id, s->charts[i].title);
		rc = ssd_chart_from_gnuplot(c, s->outdir, s->charts[i].body, err,
					    sizeof err);
		if (rc)
			snprintf(s->err, sizeof s->err, "%.200s/report.html: chart "
				 "%.64s: %.200s", s->outdir, s->charts[i].name, err);
		else
			ssd_chart_svg(f, c);
		ssd_chart_free(c);
		free(c);
	}
	if (!s->ncharts)
		ssd_html_p(f, "This run drew no chart.");
	ssd_html_h2(f, "Figures");
	static const char *const shown[] = {"scenario", "drive", "seed",
					    "snapshot", "parameters", NULL};
	ssd_html_json(f, res, shown);
	ssd_html_end(f);
	ssd_jread_free(res);
	if (rc) {
		ssd_scn_discard(s, f);
		return rc;
	}
	return ssd_scn_close(s, f);
}
