/*
 * life.c -- lifetime from measured write amplification, next to the 2008
 * essay's arithmetic; and the endurance run that checks the estimate by
 * writing a short-lived drive until it turns read-only (see life.h and
 * docs/lifetime.md).
 */
#include "methods/life.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/json.h"
#include "machine/device.h"
#include "report/report.h"
#include "run/sim.h"
#include "methods/preset.h"

/* ---- the arithmetic ---- */

double ssd_life_nand_bytes(double physical_bytes, double pe_cycles)
{
	return physical_bytes * pe_cycles;
}

double ssd_life_tbw(double nand_bytes, double waf)
{
	if (!(waf > 0) || !isfinite(waf))
		return 0;
	return nand_bytes / waf;
}

double ssd_life_days(double host_bytes, double daily_bytes)
{
	return daily_bytes > 0 ? host_bytes / daily_bytes : 0;
}

double ssd_life_years(double days)
{
	return days / SSD_LIFE_DAYS_PER_YEAR;
}

double ssd_life_daily_for_years(double host_bytes, double years)
{
	return years > 0 ? host_bytes / (years * SSD_LIFE_DAYS_PER_YEAR) : 0;
}

double ssd_life_naive_tbw(double capacity_bytes, double pe_cycles,
			  double factor)
{
	return factor > 0 ? capacity_bytes * pe_cycles / factor : 0;
}

void ssd_life_estimate(const struct ssd_config *c, double waf,
		       double daily_bytes, struct ssd_life_estimate *e)
{
	struct ssd_geometry g;
	ssd_config_geometry(c, &g);
	memset(e, 0, sizeof *e);
	e->user_bytes = ssd_config_volume(c);
	e->physical_bytes = g.physical_bytes;
	e->block_bytes = g.erase_block_bytes;
	e->physical_blocks = g.erase_blocks;
	e->pe_cycles = c->pe_cycles;
	e->waf = waf;
	e->daily_bytes = daily_bytes;
	e->nand_bytes = ssd_life_nand_bytes((double)e->physical_bytes,
					    c->pe_cycles);
	e->tbw_bytes = ssd_life_tbw(e->nand_bytes, waf);
	e->days = ssd_life_days(e->tbw_bytes, daily_bytes);
	e->years = ssd_life_years(e->days);
	e->naive_factor = SSD_LIFE_NAIVE_FACTOR;
	e->naive_tbw_bytes = ssd_life_naive_tbw((double)e->user_bytes,
						c->pe_cycles, e->naive_factor);
	e->naive_days = ssd_life_days(e->naive_tbw_bytes, daily_bytes);
	e->naive_years = ssd_life_years(e->naive_days);
	e->equivalent_factor = e->physical_bytes
		? waf * (double)e->user_bytes / (double)e->physical_bytes : 0;
}

/* ---- the runs ---- */

const char ssd_life_builtin_desc[] =
	"built-in: fill sequentially, then uniformly random 4 KiB writes "
	"over the whole span (1x capacity to precondition, 1x measured)";

int ssd_life_builtin_jobs(uint64_t capacity, struct ssd_job **jobs,
			  int *njobs, char *err, size_t errlen)
{
	struct ssd_jobs *b = NULL;
	int rc = ssd_jobs_new("built-in", capacity, &b);
	if (rc)
		return rc;
	struct ssd_job *g = ssd_jobs_global(b);
	ssd_job_set_bs(g, 4096);
	g->iodepth = 32;
	ssd_jobs_add(b, "fill")->rw = SSD_RW_WRITE;
	static const char *const names[] = {"precondition", "measure"};
	for (int i = 0; i < 2; i++) {
		struct ssd_job *j = ssd_jobs_add(b, names[i]);
		j->stonewall = 1;
		j->rw = SSD_RW_RANDWRITE;
		j->norandommap = 1;
		ssd_jobs_set(b, "io_size", "100%");
	}
	return ssd_jobs_end(b, jobs, njobs, err, errlen);
}

/* One ssd_sim_run on the drive; *worn is set when the drive is (or
 * turned) read-only. */
static int run_pass(struct ssd_dev *dev, const struct ssd_job *jobs, int n,
		    uint64_t seed, struct ssd_prog *pg, struct ssd_life_run *r,
		    int *worn, char *err, size_t errlen)
{
	struct ssd_run_result res;
	int rc = ssd_sim_run_prog(dev, jobs, n, seed, NULL, pg, &res, err,
				  errlen);
	if (rc) {
		ssd_run_result_free(&res);
		return rc;
	}
	r->sim_ns += res.sim_ns;
	r->host_ios += res.host_ios;
	for (int i = 0; i < res.njobs; i++)
		if (res.jobs[i].error == SSD_EROFS)
			*worn = 1;
	ssd_run_result_free(&res);
	struct ssd_health h;
	ssd_dev_health(dev, &h);
	if (h.read_only)
		*worn = 1;
	return 0;
}

/* A lifetime is the flash's: a hard disk has none to wear. */
static int has_flash(const struct ssd_config *c, char *err, size_t errlen)
{
	if (c->type != SSD_TYPE_HDD)
		return 0;
	ssd_seterr(err, errlen, "life estimates the wear of flash: drive '%s' "
		   "is a hard disk (type = hdd), which has none", c->name);
	return SSD_EINVAL;
}

int ssd_life_run(const struct ssd_config *c, const struct ssd_job *jobs,
		 int njobs, uint64_t seed, int until_worn, struct ssd_prog *pg,
		 struct ssd_life_run *r, char *err, size_t errlen)
{
	char a[32];
	memset(r, 0, sizeof *r);
	r->until_worn = until_worn;
	int hf = has_flash(c, err, errlen);
	if (hf)
		return hf;
	if (njobs <= 0) {
		snprintf(err, errlen, "the workload has no jobs");
		return SSD_EINVAL;
	}
	/* the last stonewall group is measured; the jobs before it
	 * precondition the drive */
	int m = 0;
	for (int i = njobs - 1; i > 0 && !m; i--)
		if (jobs[i].stonewall)
			m = i;
	/* a copy without log files: the figures are the report */
	struct ssd_job *js = calloc((size_t)njobs, sizeof *js);
	if (!js) {
		snprintf(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	memcpy(js, jobs, (size_t)njobs * sizeof *js);
	for (int i = 0; i < njobs; i++) {
		js[i].write_iops_log[0] = 0;
		js[i].write_bw_log[0] = 0;
		js[i].write_lat_log[0] = 0;
	}
	struct ssd_dev *dev = NULL;
	int rc = ssd_dev_mem_check(c, 0, 0, err, errlen);
	if (rc) {
		free(js);
		return rc;
	}
	rc = ssd_dev_create(c, seed, &dev);
	if (rc) {
		snprintf(err, errlen, "cannot build drive '%s': %s", c->name,
			 ssd_strerror(rc));
		free(js);
		return rc;
	}
	const struct ssd_counters *ctr = ssd_dev_counters(dev);
	int worn = 0;
	uint64_t pass = 0;
	if (m > 0) {
		ssd_prog_phase(pg, ssd_dev_time(dev), "precondition");
		rc = run_pass(dev, js, m, seed + pass++, pg, r, &worn, err,
			      errlen);
		if (!rc && worn) {
			snprintf(err, errlen,
				 "the drive wore out (turned read-only) while "
				 "preconditioning, after %s of host writes: "
				 "raise pe_cycles",
				 ssd_fmt_bytes(ctr->host_write_lp * SSD_LPAGE,
					       a, sizeof a));
			rc = SSD_EROFS;
		}
	}
	struct ssd_counters c0 = *ctr, d;
	ssd_prog_phase(pg, ssd_dev_time(dev), "measure");
	if (!rc)
		rc = run_pass(dev, js + m, njobs - m, seed + pass++, pg, r,
			      &worn, err, errlen);
	if (!rc) {
		ssd_counters_sub(&d, ctr, &c0);
		r->measured_host_lp = d.host_write_lp;
		r->measured_nand_lp = d.nand_prog_lp;
		r->passes = 1;
		if (worn) {
			snprintf(err, errlen,
				 "the drive wore out (turned read-only) during "
				 "the measurement, after %s of host writes: "
				 "raise pe_cycles",
				 ssd_fmt_bytes(ctr->host_write_lp * SSD_LPAGE,
					       a, sizeof a));
			rc = SSD_EROFS;
		} else if (!d.host_write_lp) {
			snprintf(err, errlen,
				 "the measured jobs (the last stonewall group, "
				 "from '%s') write nothing: no write "
				 "amplification to measure", js[m].name);
			rc = SSD_EINVAL;
		} else {
			r->waf = ssd_counters_waf(&d);
		}
	}
	/* endurance: the measured group again and again until read-only */
	double rated = ssd_life_nand_bytes((double)ssd_config_physical_bytes(c),
					   c->pe_cycles);
	double limit = SSD_LIFE_GIVE_UP * rated;
	/* the status line's share: the flash's writes against its rated
	 * endurance, each pass spanning what the last one wrote */
	uint64_t nand_pass = ctr->nand_prog_lp - c0.nand_prog_lp;
	if (!rc && until_worn && !worn)
		ssd_prog_phase(pg, ssd_dev_time(dev), "endurance run");
	while (!rc && until_worn && !worn) {
		uint64_t before = ctr->host_write_lp, nand0 = ctr->nand_prog_lp;
		ssd_prog_span(pg, (double)nand0 * SSD_LPAGE / rated,
			      (double)(nand0 + nand_pass) * SSD_LPAGE / rated);
		if ((double)before * SSD_LPAGE >= limit) {
			snprintf(err, errlen,
				 "the drive did not wear out: %s of host "
				 "writes, %d times its rated endurance, and it "
				 "still accepts writes",
				 ssd_fmt_bytes(before * SSD_LPAGE, a, sizeof a),
				 SSD_LIFE_GIVE_UP);
			rc = SSD_ESTATE;
			break;
		}
		rc = run_pass(dev, js + m, njobs - m, seed + pass++, pg, r,
			      &worn, err, errlen);
		nand_pass = ctr->nand_prog_lp - nand0;
		r->passes++;
		if (!rc && !worn && ctr->host_write_lp == before) {
			snprintf(err, errlen, "the measured jobs stopped "
				 "writing before the drive wore out");
			rc = SSD_EINVAL;
		}
	}
	r->worn_out = worn;
	ssd_dev_health(dev, &r->health);
	r->host_bytes = ctr->host_write_lp * SSD_LPAGE;
	r->nand_bytes = ctr->nand_prog_lp * SSD_LPAGE;
	ssd_dev_destroy(dev);
	free(js);
	return rc;
}

/* ---- numbers for people and for JSON ---- */

/* v with `prec` decimals and the C decimal point whatever the locale.
 * Returns buf. */
static const char *fmtd(char *buf, size_t n, int prec, double v)
{
	return ssd_json_format(buf, n, "%.*f", prec, v);
}

/* Decimal units, four significant figures: "110.3 TB", "21.47 GB"
 * (drive makers rate TBW in decimal terabytes). */
static const char *si_bytes(char *buf, size_t n, double v)
{
	static const char *const unit[] = {"B",  "kB", "MB", "GB",
					   "TB", "PB", "EB", "ZB"};
	int u = 0;
	while (fabs(v) >= 999.95 && u < 7) {
		v /= 1000;
		u++;
	}
	char num[32];
	int prec = u == 0 ? 0 : fabs(v) >= 99.95 ? 1 : fabs(v) >= 9.995 ? 2 : 3;
	fmtd(num, sizeof num, prec, v);
	snprintf(buf, n, "%s %s", num, unit[u]);
	return buf;
}

/* Days or years to four significant figures: "2400", "619.2", "1.695",
 * "0.862". */
static const char *fmt_4(char *buf, size_t n, double v)
{
	int prec = v >= 999.95 ? 0 : v >= 99.995 ? 1 : v >= 9.9995 ? 2 : 3;
	return fmtd(buf, n, prec, v);
}

/* Write text as lines of at most `width` columns, breaking at spaces;
 * continuation lines start with `indent`. */
static void print_wrapped(FILE *out, const char *text, size_t width,
			  const char *indent)
{
	size_t col = 0, ind = strlen(indent);
	const char *p = text;
	while (*p) {
		while (*p == ' ')
			p++;
		size_t w = strcspn(p, " ");
		if (!w)
			break;
		if (col && col + 1 + w > width) {
			fprintf(out, "\n%s", indent);
			col = ind;
		} else if (col) {
			putc(' ', out);
			col++;
		}
		fwrite(p, 1, w, out);
		col += w;
		p += w;
	}
	putc('\n', out);
}

/* ---- text ---- */

void ssd_life_print(const struct ssd_life_report *r, FILE *out)
{
	const struct ssd_config *c = r->cfg;
	const struct ssd_life_estimate *e = &r->est;
	const struct ssd_life_run *run = &r->run;
	char a[64], b[64], d[64], x[64], daily[64];

	char desc[sizeof c->description];
	ssd_config_description(c, desc, sizeof desc);
	fprintf(out, "Drive %s%s%s\n", c->name, desc[0] ? " -- " : "", desc);
	fprintf(out, "  user capacity     %s (%s)\n",
		ssd_fmt_bytes(e->user_bytes, a, sizeof a),
		si_bytes(b, sizeof b, (double)e->user_bytes));
	fprintf(out,
		"  physical flash    %s (%s): %" PRIu64 " blocks of %s, "
		"%s%% spare\n",
		ssd_fmt_bytes(e->physical_bytes, a, sizeof a),
		si_bytes(b, sizeof b, (double)e->physical_bytes),
		e->physical_blocks, ssd_fmt_bytes(e->block_bytes, d, sizeof d),
		fmtd(x, sizeof x, 1,
		     e->user_bytes ? 100.0 * ((double)e->physical_bytes /
					      (double)e->user_bytes - 1)
				   : 0));
	fprintf(out, "  rated endurance   %" PRIu32 " P/E cycles per block (%s)\n",
		e->pe_cycles, ssd_cell_name(c->cell));
	char wl[600];
	if (r->workload)
		snprintf(wl, sizeof wl, "%s (its last stonewall group measured, "
			 "after the jobs before it)", r->workload);
	else
		snprintf(wl, sizeof wl, "%s", ssd_life_builtin_desc);
	fprintf(out, "Workload: ");
	print_wrapped(out, wl, 68, "          ");
	fprintf(out,
		"  measured WAF      %s (%" PRIu64 " host 4 KiB pages written, "
		"%" PRIu64 " programmed)\n",
		fmtd(a, sizeof a, 3, e->waf), run->measured_host_lp,
		run->measured_nand_lp);
	si_bytes(daily, sizeof daily, e->daily_bytes);
	fprintf(out, "Daily host writes: %s (%s)\n",
		e->daily_bytes == floor(e->daily_bytes) && e->daily_bytes < 1.8e19
			? ssd_fmt_bytes((uint64_t)e->daily_bytes, a, sizeof a)
			: daily,
		daily);

	fprintf(out, "\nLifetime from the measured write amplification\n");
	fprintf(out, "  flash endurance   %s x %" PRIu32 " cycles = %s of NAND "
		"writes\n",
		si_bytes(a, sizeof a, (double)e->physical_bytes), e->pe_cycles,
		si_bytes(b, sizeof b, e->nand_bytes));
	fprintf(out, "  estimated TBW     %s / %s = %s of host writes\n",
		si_bytes(a, sizeof a, e->nand_bytes),
		fmtd(b, sizeof b, 3, e->waf),
		si_bytes(d, sizeof d, e->tbw_bytes));
	fprintf(out, "  lifetime          %s days = %s years at %s/day\n",
		fmt_4(a, sizeof a, e->days), fmt_4(b, sizeof b, e->years),
		daily);

	fmtd(x, sizeof x, e->naive_factor == floor(e->naive_factor) ? 0 : 2,
	     e->naive_factor);
	fprintf(out, "\nThe 2008 essay's arithmetic: capacity x cycles / %s "
		"(\"each full write costs %s cycles\")\n", x, x);
	fprintf(out, "  TBW               %s x %" PRIu32 " / %s = %s of host "
		"writes\n",
		si_bytes(a, sizeof a, (double)e->user_bytes), e->pe_cycles, x,
		si_bytes(b, sizeof b, e->naive_tbw_bytes));
	fprintf(out, "  lifetime          %s days = %s years at %s/day\n",
		fmt_4(a, sizeof a, e->naive_days),
		fmt_4(b, sizeof b, e->naive_years), daily);
	char why[1024];
	snprintf(why, sizeof why,
		 "Why they differ: the essay's factor %s is a guessed write "
		 "amplification applied to the user capacity; ssdlab counts "
		 "all the physical flash and measures the amplification, which "
		 "depends on the spare area, the workload and GC (%s): here "
		 "%s, as if the essay's factor were %s.",
		 x, ssd_gc_policy_name(c->gc_policy),
		 fmtd(a, sizeof a, 3, e->waf),
		 fmtd(b, sizeof b, 2, e->equivalent_factor));
	print_wrapped(out, why, 78, "  ");

	if (run->until_worn) {
		const struct ssd_health *h = &run->health;
		double est = e->tbw_bytes;
		fprintf(out, "\nEndurance run: the measured jobs again and again "
			"until the drive turns read-only\n");
		fprintf(out, "  %-17s %s of host writes from fresh (%" PRIu32
			" measured passes)\n",
			run->worn_out ? "worn out after" : "NOT worn out after",
			si_bytes(a, sizeof a, (double)run->host_bytes),
			run->passes);
		fprintf(out, "  estimate          %s (flash endurance / "
			"measured WAF)\n", si_bytes(b, sizeof b, est));
		fprintf(out, "  ratio             %s (written / estimate)\n",
			fmtd(d, sizeof d, 3,
			     est > 0 ? (double)run->host_bytes / est : 0));
		fprintf(out,
			"  at the end        %s of NAND writes, %" PRIu64
			" bad block%s, read-only: %s\n",
			si_bytes(a, sizeof a, (double)run->nand_bytes),
			h->bad_blocks, ssd_plural(h->bad_blocks),
			h->read_only ? "yes" : "no");
		fprintf(out,
			"  erases per block  min %" PRIu32 ", mean %s, max %"
			PRIu32 " (used %s%%, most worn block %s%%)\n",
			h->erase_min, fmtd(b, sizeof b, 1, h->erase_mean),
			h->erase_max,
			fmtd(d, sizeof d, 1, h->percentage_used),
			fmtd(x, sizeof x, 1, h->max_wear_pct));
	}
	int64_t ns = run->sim_ns > 0 ? run->sim_ns : 0;
	fprintf(out, "\nRun: seed=%" PRIu64 ", simulated time=%" PRId64
		".%09" PRId64 " s, host I/Os=%" PRIu64 "\n",
		r->seed, (int64_t)(ns / SSD_S), (int64_t)(ns % SSD_S),
		run->host_ios);
	fprintf(out, "Wall: %s s\n", fmtd(a, sizeof a, 3, r->wall_s));
}

/* ---- JSON ---- */

void ssd_life_json(const struct ssd_life_report *r, FILE *out)
{
	const struct ssd_life_estimate *e = &r->est;
	const struct ssd_life_run *run = &r->run;
	struct ssd_json w;

	ssd_json_init(&w, out, 0, 0);
	ssd_json_object(&w);
	ssd_json_kstring(&w, "ssdlab version", SSDLAB_VERSION);
	ssd_json_key(&w, "drive");
	ssd_config_json_write(r->cfg, &w);
	ssd_json_ku64(&w, "seed", r->seed);
	if (r->workload)
		ssd_json_kstring(&w, "workload", r->workload);
	else
		ssd_json_kstring(&w, "workload", "built-in");

	ssd_json_kobject(&w, "measured");
	ssd_json_ku64(&w, "host_pages_written", run->measured_host_lp);
	ssd_json_ku64(&w, "nand_lpages_programmed", run->measured_nand_lp);
	ssd_json_kfixed(&w, "waf", e->waf, 6);
	ssd_json_end(&w);

	ssd_json_kobject(&w, "estimate");
	ssd_json_ku64(&w, "user_bytes", e->user_bytes);
	ssd_json_ku64(&w, "physical_bytes", e->physical_bytes);
	ssd_json_ku64(&w, "physical_blocks", e->physical_blocks);
	ssd_json_ku64(&w, "block_bytes", e->block_bytes);
	ssd_json_ku64(&w, "pe_cycles", e->pe_cycles);
	ssd_json_kfixed(&w, "nand_bytes", e->nand_bytes, 0);
	ssd_json_kfixed(&w, "waf", e->waf, 6);
	ssd_json_kfixed(&w, "tbw_bytes", e->tbw_bytes, 0);
	ssd_json_kfixed(&w, "daily_bytes", e->daily_bytes, 0);
	ssd_json_kfixed(&w, "days", e->days, 6);
	ssd_json_kfixed(&w, "years", e->years, 6);
	ssd_json_kfixed(&w, "equivalent_factor", e->equivalent_factor, 6);
	ssd_json_end(&w);

	ssd_json_kobject(&w, "naive");
	ssd_json_kfixed(&w, "factor", e->naive_factor, 6);
	ssd_json_ku64(&w, "capacity_bytes", e->user_bytes);
	ssd_json_ku64(&w, "pe_cycles", e->pe_cycles);
	ssd_json_kfixed(&w, "tbw_bytes", e->naive_tbw_bytes, 0);
	ssd_json_kfixed(&w, "days", e->naive_days, 6);
	ssd_json_kfixed(&w, "years", e->naive_years, 6);
	ssd_json_end(&w);

	if (run->until_worn) {
		const struct ssd_health *h = &run->health;
		ssd_json_kobject(&w, "endurance");
		ssd_json_kbool(&w, "worn_out", run->worn_out);
		ssd_json_ku64(&w, "passes", run->passes);
		ssd_json_ku64(&w, "host_bytes_written", run->host_bytes);
		ssd_json_ku64(&w, "nand_bytes_written", run->nand_bytes);
		ssd_json_kfixed(&w, "estimated_host_bytes", e->tbw_bytes, 0);
		ssd_json_kfixed(&w, "ratio",
				e->tbw_bytes > 0
					? (double)run->host_bytes / e->tbw_bytes
					: NAN,
				6);
		ssd_json_ku64(&w, "erase_min", h->erase_min);
		ssd_json_kfixed(&w, "erase_mean", h->erase_mean, 6);
		ssd_json_ku64(&w, "erase_max", h->erase_max);
		ssd_json_kfixed(&w, "percentage_used", h->percentage_used, 6);
		ssd_json_kfixed(&w, "max_wear_pct", h->max_wear_pct, 6);
		ssd_json_ku64(&w, "bad_blocks", h->bad_blocks);
		ssd_json_kbool(&w, "read_only", h->read_only);
		ssd_json_end(&w);
	}

	{
		char buf[64];
		int64_t ns = run->sim_ns > 0 ? run->sim_ns : 0;
		snprintf(buf, sizeof buf, "%" PRId64 ".%09" PRId64,
			 (int64_t)(ns / SSD_S), (int64_t)(ns % SSD_S));
		ssd_json_key(&w, "sim_seconds");
		ssd_json_raw(&w, buf);
	}
	ssd_json_ku64(&w, "host_ios", run->host_ios);
	ssd_json_kfixed(&w, "wall_seconds", r->wall_s, 6);
	ssd_json_end(&w);
	putc('\n', out);
}

/* ---- the whole recipe ---- */

int ssd_life_config(const char *preset_dir, const char *drive,
		    const char *const *sets, int nsets, int accelerated,
		    struct ssd_config *c, char *err, size_t errlen)
{
	if (!accelerated) {
		int rc = ssd_preset_load(preset_dir, drive ? drive : "default",
					 sets, nsets, c, err, errlen);
		return rc ? rc : has_flash(c, err, errlen);
	}
	/* the short life goes first, so the overrides can still change it */
	const char **all = malloc((size_t)(nsets + SSD_LIFE_ACCEL_NKEYS) *
				  sizeof *all);
	if (!all) {
		ssd_seterr(err, errlen, "%s", ssd_strerror(SSD_ENOMEM));
		return SSD_ENOMEM;
	}
	all[0] = "pe_cycles=" SSD_LIFE_ACCEL_PE_CYCLES;
	all[1] = "pe_spread=" SSD_LIFE_ACCEL_PE_SPREAD;
	all[2] = "wl_threshold=" SSD_LIFE_ACCEL_WL_THRESHOLD;
	for (int i = 0; i < nsets; i++)
		all[SSD_LIFE_ACCEL_NKEYS + i] = sets[i];
	int rc = ssd_preset_load(preset_dir,
				 drive ? drive : SSD_LIFE_ACCEL_DRIVE, all,
				 nsets + SSD_LIFE_ACCEL_NKEYS, c, err, errlen);
	free(all);
	return rc ? rc : has_flash(c, err, errlen);
}

int ssd_life_jobs(const char *jobfile, uint64_t capacity,
		  struct ssd_job **jobs, int *njobs, char *err, size_t errlen)
{
	return jobfile ? ssd_jobfile_parse(jobfile, capacity, jobs, njobs, err,
					   errlen)
		       : ssd_life_builtin_jobs(capacity, jobs, njobs, err,
					       errlen);
}

/* Wall-clock seconds, for the report's wall time only. */
static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int ssd_life_report_run(const struct ssd_config *c,
			const struct ssd_job *jobs, int njobs,
			const char *jobfile, uint64_t seed, int accelerated,
			double daily, int json, FILE *out, struct ssd_prog *pg,
			char *err, size_t errlen)
{
	struct ssd_life_report rep = {.cfg = c, .workload = jobfile,
				      .seed = seed};
	double w0 = wall_now();
	int rc = ssd_life_run(c, jobs, njobs, seed, accelerated, pg, &rep.run,
			      err, errlen);
	rep.wall_s = wall_now() - w0;
	ssd_prog_clear(pg); /* the report follows */
	if (rc)
		return rc;
	ssd_life_estimate(c, rep.run.waf, daily, &rep.est);
	if (json)
		ssd_life_json(&rep, out);
	else
		ssd_life_print(&rep, out);
	return 0;
}
