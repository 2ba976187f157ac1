/*
 * compare.c -- two results side by side (compare.h).
 *
 * Every figure is read from the results as they were written (the JSON
 * reader keeps numbers' text; the arithmetic here is on doubles only for
 * the differences and ratios).  The NAND side splits each run's 4 KiB
 * units programmed per host page into its causes, so the difference in
 * WAF reads as the sum of the differences of its parts; what the
 * counters do not explain (a write buffer's partial pages, an SLC
 * cache's own accounting) is shown as "other", never dropped.
 */
#include "sweep/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/json.h"
#include "base/json_read.h"
#include "base/util.h"

/* A result: the document, what it is, the path it came from. */
struct res {
	struct ssd_jval *doc;
	char path[4096];
	int scenario;
};

static int load(const char *arg, struct res *r, char *err, size_t errlen)
{
	struct stat st;
	if (!stat(arg, &st) && S_ISDIR(st.st_mode))
		snprintf(r->path, sizeof r->path, "%s/result.json", arg);
	else
		snprintf(r->path, sizeof r->path, "%s", arg);
	r->doc = ssd_jread_file(r->path, err, errlen);
	if (!r->doc)
		return SSD_EPARSE;
	if (r->doc->type != SSD_JOBJ) {
		ssd_seterr(err, errlen, "%s: not a result (a JSON object)",
			   r->path);
		return SSD_EPARSE;
	}
	r->scenario = ssd_jget(r->doc, "scenario") != NULL;
	if (!r->scenario && !ssd_jget(r->doc, "jobs")) {
		ssd_seterr(err, errlen, "%s: not a result of 'ssdlab run "
			   "--output-format=json' or of a scenario", r->path);
		return SSD_EPARSE;
	}
	return 0;
}

static double num(const struct ssd_jval *v)
{
	return v && v->type == SSD_JNUM ? v->num : NAN;
}

/* ---- the output: text rows, or JSON members ---- */

struct out {
	FILE *f;
	int json;
	int quiet;              /* leave out text rows of zeros */
	const char *pending;    /* a text heading not printed yet: it goes
	                           before the first row under it */
	struct ssd_json w;
};

/* v as text: whole numbers in full, others to 6 significant digits;
 * sign: with a + before a positive one. */
static void fmt_signed(char *buf, size_t n, double v, int sign)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, n, sign ? "%+.0f" : "%.0f", v);
	else
		ssd_json_format(buf, n, sign ? "%+.6g" : "%.6g", v);
}

static void fmt(char *buf, size_t n, double v)
{
	fmt_signed(buf, n, v, 0);
}

/* A figure of both: "name  a  b  b-a  b/a"; in a section of causes
 * (o->quiet), a text row only where one of them is not zero. */
static void row(struct out *o, const char *name, double a, double b)
{
	if (!o->json && o->quiet && !(a != 0 && !isnan(a)) &&
	    !(b != 0 && !isnan(b)))
		return;
	if (o->pending) {
		int pad = 36 - (int)strlen(o->pending);
		fprintf(o->f, "%s%*s %14s %14s %12s %9s\n", o->pending,
			pad > 0 ? pad : 0, "", "A", "B", "B-A", "B/A");
		o->pending = NULL;
	}
	if (o->json) {
		ssd_json_key(&o->w, name);
		ssd_json_array_flat(&o->w);
		isnan(a) ? ssd_json_null(&o->w) : ssd_json_general(&o->w, a, 0);
		isnan(b) ? ssd_json_null(&o->w) : ssd_json_general(&o->w, b, 0);
		ssd_json_end(&o->w);
		return;
	}
	char sa[32], sb[32], sd[32] = "", sr[32] = "";
	fmt(sa, sizeof sa, a);
	fmt(sb, sizeof sb, b);
	if (!isnan(a) && !isnan(b)) {
		if (b - a != 0)
			fmt_signed(sd, sizeof sd, b - a, 1);
		else
			snprintf(sd, sizeof sd, "=");
		if (a != 0 && b != a)
			ssd_json_format(sr, sizeof sr, "%.3gx", b / a);
	}
	fprintf(o->f, "  %-34s %14s %14s %12s %9s\n", name, sa, sb, sd, sr);
}

static void heading(struct out *o, const char *key, const char *text)
{
	if (o->json)
		ssd_json_kobject(&o->w, key);
	else
		o->pending = text; /* printed with its first row (row) */
}

/* The end of a heading's rows: a heading whose rows were all left out
 * (zeros in both) says so in one line. */
static void end(struct out *o)
{
	if (o->json)
		ssd_json_end(&o->w);
	else if (o->pending)
		fprintf(o->f, "%s none in either\n", o->pending);
	o->pending = NULL;
}

/* ---- two runs ---- */

/* The job of b that goes with job i of a: the same name, else the same
 * position. */
static const struct ssd_jval *match(const struct ssd_jval *ja, size_t i,
				    const struct ssd_jval *jb)
{
	const struct ssd_jval *na = ssd_jget(ja->v[i], "jobname");
	for (size_t k = 0; na && na->type == SSD_JSTR && k < jb->n; k++) {
		const struct ssd_jval *nb = ssd_jget(jb->v[k], "jobname");
		if (nb && nb->type == SSD_JSTR && !strcmp(na->s, nb->s))
			return jb->v[k];
	}
	return i < jb->n ? jb->v[i] : NULL;
}

static const char *const dirs[] = {"read", "write", "trim"};

static double ios(const struct ssd_jval *job, const char *d)
{
	return num(ssd_jget(ssd_jget(job, d), "total_ios"));
}

static double pct(const struct ssd_jval *job, const char *d, const char *p)
{
	return num(ssd_jget(ssd_jget(ssd_jget(ssd_jget(job, d), "clat_ns"),
				     "percentile"), p)) / 1000.0;
}

/* A counter of a job's ssdlab section per host page (or per host
 * command: per = "host_ios"). */
static double per(const struct ssd_jval *s, const char *key,
		  const char *per_key)
{
	double d = num(ssd_jget(s, per_key));
	return d > 0 ? num(ssd_jget(s, key)) / d : NAN;
}

static void drive_keys(struct out *o, const struct res *a, const struct res *b)
{
	const struct ssd_jval *da = ssd_jpath(a->doc, "ssdlab.drive");
	const struct ssd_jval *db = ssd_jpath(b->doc, "ssdlab.drive");
	if (!da || !db || da->type != SSD_JOBJ || db->type != SSD_JOBJ)
		return;
	int n = 0;
	if (o->json)
		ssd_json_kobject(&o->w, "drive_keys_that_differ");
	for (size_t i = 0; i < da->n; i++) {
		const struct ssd_jval *va = da->v[i];
		const struct ssd_jval *vb = ssd_jget(db, da->k[i]);
		const char *ta = va->s ? va->s : va->type == SSD_JBOOL
			? (va->b ? "true" : "false") : "";
		const char *tb = !vb ? "(none)" : vb->s ? vb->s
			: vb->type == SSD_JBOOL ? (vb->b ? "true" : "false") : "";
		if (va->type == SSD_JOBJ || va->type == SSD_JARR ||
		    !strcmp(ta, tb) || !strcmp(da->k[i], "description"))
			continue;
		if (o->json) {
			ssd_json_key(&o->w, da->k[i]);
			ssd_json_array_flat(&o->w);
			ssd_json_string(&o->w, ta);
			ssd_json_string(&o->w, tb);
			ssd_json_end(&o->w);
		} else {
			if (!n)
				fprintf(o->f, "Drive keys that differ:\n");
			fprintf(o->f, "  %-34s %14s %14s\n", da->k[i], ta, tb);
		}
		n++;
	}
	if (o->json)
		ssd_json_end(&o->w);
	else if (!n)
		fprintf(o->f, "Drive keys that differ: none\n");
}

/* NAND writes per host page by cause, and what slows commands. */
static void causes(struct out *o, const struct ssd_jval *sa,
		   const struct ssd_jval *sb)
{
	static const struct {
		const char *key, *name;
	} w[] = {
		{"gc_copied_pages", "GC copies"},
		{"pad_pages", "padding"},
		{"fold_copied_pages", "SLC folding"},
		{"wl_copied_pages", "wear leveling"},
		{"map_pages_written", "map pages"},
	};
	const char *hp = "host_pages_written";
	heading(o, "nand_writes_per_host_page",
		"  WAF by cause, per host page:");
	double ra = 1, rb = 1;
	o->quiet = 1;
	row(o, "host data", per(sa, hp, hp), per(sb, hp, hp));
	for (size_t k = 0; k < sizeof w / sizeof *w; k++) {
		double a = per(sa, w[k].key, hp), b = per(sb, w[k].key, hp);
		ra += isnan(a) ? 0 : a;
		rb += isnan(b) ? 0 : b;
		row(o, w[k].name, a, b);
	}
	double ta = per(sa, "nand_lpages_programmed", hp);
	double tb = per(sb, "nand_lpages_programmed", hp);
	row(o, "other (unexplained by the above)", ta - ra, tb - rb);
	row(o, "all: WAF", ta, tb);
	end(o);
	heading(o, "what_slows_commands", "  What slows commands:");
	row(o, "completions over 1 s", num(ssd_jget(sa, "lat_over_1s")),
	    num(ssd_jget(sb, "lat_over_1s")));
	double ha = num(ssd_jget(sa, "host_pages_read")) +
		    num(ssd_jget(sa, "host_pages_written"));
	double hb = num(ssd_jget(sb, "host_pages_read")) +
		    num(ssd_jget(sb, "host_pages_written"));
	double ma = num(ssd_jget(sa, "map_pages_read"));
	double mb = num(ssd_jget(sb, "map_pages_read"));
	row(o, "map-page reads per host page", ha > 0 ? ma / ha : NAN,
	    hb > 0 ? mb / hb : NAN);
	row(o, "read retries per NAND read", per(sa, "read_retries",
						 "nand_pages_read"),
	    per(sb, "read_retries", "nand_pages_read"));
	row(o, "read-modify-write reads", num(ssd_jget(sa, "rmw_read_pages")),
	    num(ssd_jget(sb, "rmw_read_pages")));
	row(o, "GC copies in the background",
	    num(ssd_jget(sa, "gc_bg_copied_pages")),
	    num(ssd_jget(sb, "gc_bg_copied_pages")));
	row(o, "blocks erased", num(ssd_jget(sa, "blocks_erased")),
	    num(ssd_jget(sb, "blocks_erased")));
	o->quiet = 0;
	end(o);
}

static void one_job(struct out *o, const struct ssd_jval *a,
		    const struct ssd_jval *b)
{
	const struct ssd_jval *na = ssd_jget(a, "jobname"), *nb = ssd_jget(b, "jobname");
	char title[200];
	snprintf(title, sizeof title, "Job '%s'%s%s%s:", na && na->s ? na->s : "?",
		 nb && nb->s && na && na->s && strcmp(na->s, nb->s) ? " and '" : "",
		 nb && nb->s && na && na->s && strcmp(na->s, nb->s) ? nb->s : "",
		 nb && nb->s && na && na->s && strcmp(na->s, nb->s) ? "'" : "");
	if (o->json) {
		ssd_json_object(&o->w);
		ssd_json_kstring(&o->w, "job", na && na->s ? na->s : "");
		ssd_json_kobject(&o->w, "figures");
	} else {
		fprintf(o->f, "\n");
		heading(o, NULL, title);
	}
	for (int d = 0; d < 3; d++) {
		if (!(ios(a, dirs[d]) > 0) && !(ios(b, dirs[d]) > 0))
			continue;
		char name[64];
		const struct ssd_jval *xa = ssd_jget(a, dirs[d]), *xb = ssd_jget(b, dirs[d]);
		snprintf(name, sizeof name, "%s IOPS", dirs[d]);
		row(o, name, num(ssd_jget(xa, "iops")), num(ssd_jget(xb, "iops")));
		snprintf(name, sizeof name, "%s MiB/s", dirs[d]);
		row(o, name, num(ssd_jget(xa, "bw_bytes")) / 1048576.0,
		    num(ssd_jget(xb, "bw_bytes")) / 1048576.0);
		snprintf(name, sizeof name, "%s latency mean (us)", dirs[d]);
		row(o, name, num(ssd_jget(ssd_jget(xa, "clat_ns"), "mean")) / 1000,
		    num(ssd_jget(ssd_jget(xb, "clat_ns"), "mean")) / 1000);
		snprintf(name, sizeof name, "%s latency p99 (us)", dirs[d]);
		row(o, name, pct(a, dirs[d], "99.000000"), pct(b, dirs[d], "99.000000"));
		snprintf(name, sizeof name, "%s latency p99.9 (us)", dirs[d]);
		row(o, name, pct(a, dirs[d], "99.900000"), pct(b, dirs[d], "99.900000"));
	}
	const struct ssd_jval *sa = ssd_jget(a, "ssdlab"), *sb = ssd_jget(b, "ssdlab");
	row(o, "WAF", num(ssd_jget(sa, "waf")), num(ssd_jget(sb, "waf")));
	row(o, "erase count max", num(ssd_jpath(sa, "erase_count.max")),
	    num(ssd_jpath(sb, "erase_count.max")));
	row(o, "percentage used", num(ssd_jpath(sa, "health.percentage_used")),
	    num(ssd_jpath(sb, "health.percentage_used")));
	end(o);
	causes(o, sa, sb);
	end(o);
}

static void describe(struct out *o, const char *tag, const struct res *r)
{
	const struct ssd_jval *s = ssd_jget(r->doc, "ssdlab");
	const struct ssd_jval *jf = ssd_jget(s, "jobfile");
	const struct ssd_jval *dn = ssd_jpath(s, "drive.name");
	const struct ssd_jval *sd = ssd_jget(s, "seed");
	const struct ssd_jval *sc = ssd_jget(r->doc, "scenario");
	if (r->scenario) {
		dn = ssd_jget(r->doc, "drive");
		sd = ssd_jget(r->doc, "seed");
	}
	if (o->json) {
		ssd_json_kobject(&o->w, tag);
		ssd_json_kstring(&o->w, "path", r->path);
		if (sc && sc->s)
			ssd_json_kstring(&o->w, "scenario", sc->s);
		if (jf && jf->s)
			ssd_json_kstring(&o->w, "jobfile", jf->s);
		if (dn && dn->s)
			ssd_json_kstring(&o->w, "drive", dn->s);
		if (sd && sd->s) {
			ssd_json_key(&o->w, "seed");
			ssd_json_raw(&o->w, sd->s);
		}
		ssd_json_end(&o->w);
		return;
	}
	fprintf(o->f, "%s: %s (%s %s, drive %s, seed %s)\n", tag, r->path,
		r->scenario ? "scenario" : "job file",
		r->scenario ? (sc && sc->s ? sc->s : "?") : (jf && jf->s ? jf->s : "?"),
		dn && dn->s ? dn->s : "?", sd && sd->s ? sd->s : "?");
}

/* Every number of two scenarios' results, nested members as a.b. */
static void flat_numbers(struct out *o, const char *prefix,
			 const struct ssd_jval *a, const struct ssd_jval *b)
{
	for (size_t i = 0; i < a->n; i++) {
		const struct ssd_jval *va = a->v[i], *vb = ssd_jget(b, a->k[i]);
		char name[256];
		snprintf(name, sizeof name, "%s%s%s", prefix, *prefix ? "." : "",
			 a->k[i]);
		if (!strcmp(name, "seed"))
			continue;
		if (va->type == SSD_JOBJ && vb && vb->type == SSD_JOBJ)
			flat_numbers(o, name, va, vb);
		else if (va->type == SSD_JNUM)
			row(o, name, va->num, num(vb));
	}
}

int ssd_compare(const char *pa, const char *pb, int json, FILE *f, char *err,
		size_t errlen)
{
	struct res a = {0}, b = {0};
	int rc = load(pa, &a, err, errlen);
	if (!rc)
		rc = load(pb, &b, err, errlen);
	if (!rc && a.scenario != b.scenario) {
		ssd_seterr(err, errlen, "%s is a %s's result and %s a %s's: "
			   "nothing to compare", a.path,
			   a.scenario ? "scenario" : "run", b.path,
			   b.scenario ? "scenario" : "run");
		rc = SSD_EINVAL;
	}
	if (rc) {
		ssd_jread_free(a.doc);
		ssd_jread_free(b.doc);
		return rc;
	}
	struct out o = {.f = f, .json = json};
	if (json) {
		ssd_json_init(&o.w, f, 0, 0);
		ssd_json_object(&o.w);
	}
	describe(&o, "A", &a);
	describe(&o, "B", &b);
	if (a.scenario) {
		const struct ssd_jval *sa = ssd_jget(a.doc, "scenario"),
				      *sb = ssd_jget(b.doc, "scenario");
		if (!json && sa && sb && sa->s && sb->s && strcmp(sa->s, sb->s))
			fprintf(f, "note: two different scenarios\n");
		if (!json)
			fputc('\n', f);
		heading(&o, "figures", "Figures:");
		flat_numbers(&o, "", a.doc, b.doc);
		end(&o);
	} else {
		const struct ssd_jval *ja = ssd_jget(a.doc, "jobs"),
				      *jb = ssd_jget(b.doc, "jobs");
		const struct ssd_jval *fa = ssd_jpath(a.doc, "ssdlab.jobfile"),
				      *fb = ssd_jpath(b.doc, "ssdlab.jobfile"),
				      *sa = ssd_jpath(a.doc, "ssdlab.seed"),
				      *sb = ssd_jpath(b.doc, "ssdlab.seed");
		if (!json && ((fa && fb && fa->s && fb->s && strcmp(fa->s, fb->s)) ||
			      (sa && sb && sa->s && sb->s && strcmp(sa->s, sb->s))))
			fprintf(f, "note: the workloads differ (job file or "
				"seed): the differences below are not the "
				"drives' alone\n");
		drive_keys(&o, &a, &b);
		if (json)
			ssd_json_karray(&o.w, "jobs");
		for (size_t i = 0; ja && jb && i < ja->n; i++) {
			const struct ssd_jval *m = match(ja, i, jb);
			if (m)
				one_job(&o, ja->v[i], m);
		}
		if (json)
			ssd_json_end(&o.w);
	}
	if (json) {
		ssd_json_end(&o.w);
		fputc('\n', f);
	}
	ssd_jread_free(a.doc);
	ssd_jread_free(b.doc);
	if (ferror(f)) {
		ssd_seterr(err, errlen, "write error");
		return SSD_EIO;
	}
	return 0;
}
