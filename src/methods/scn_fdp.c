/*
 * scn_fdp.c -- what flexible data placement buys and where it falls
 * short (fdp = yes, NVMe FDP; docs/fdp.md), by write amplification.
 *
 * The drive.  Any SSD that can take FDP: the scenario sets fdp = yes,
 * fdp_handles (as many as a run needs) and fdp_isolation on it; a drive
 * that cannot take them is refused with the config's own message, a hard
 * disk or a drive with host layers with the reason.  Every run is a fresh
 * drive, written through the machine's entry (streams.h: streams on
 * handles, taking turns at random a stripe at a time, one command at a
 * time), filled, preconditioned and measured: WA = (host + GC copies) /
 * host over the measured window.  The `ideal` figures are the oracle of
 * ideally separated streams (accuracy_fdp.c, docs/accuracy.md): logs at
 * WA 1, the random region at the single-stream model of the drive's GC
 * policy at the spare it really has (none for a policy without a model).
 *
 * 1. A cache.  A log over `log` of the capacity, each reclaim unit of it
 *    trimmed as the log comes round (a cache evicting a segment), and a
 *    small region rewritten at random; the log takes `log_writes` of the
 *    writes.  Without placement (fdp = no), and on two handles, initially
 *    and persistently isolated: placement keeps the log's blocks whole, so
 *    they empty by themselves.
 *
 * 2. A noisy neighbour.  A well-behaved handle writes a log in order,
 *    round and round, with no trim (a sequential writer overwriting its
 *    file: its oldest block dies a page at a time); a noisy handle
 *    rewrites the region at random, with 25, 50 and 75% of the writes.
 *    Greedy GC takes the log's oldest block while it is the emptiest,
 *    before the log has emptied it.  Initially isolated, those copies go
 *    into the unit's one GC write point between the noisy handle's;
 *    persistently isolated, into the log's own.  The counters are the
 *    drive's: the run knows each handle's host writes, not its media
 *    writes, so the log's share of the excess over the ideal is an
 *    estimate -- the log's WA if the noisy handle costs what the model
 *    says it costs alone.
 *
 * 3. Reclaim units and handles.  The log region is `logs` logs of sizes
 *    1 : 2 : ... : logs (whole reclaim units), the log writes split evenly
 *    over them, so their data lives for times in the same ratios.  Each
 *    log is written and trimmed in pieces: a stripe (a page on every
 *    unit, far less than a reclaim unit) or a whole reclaim unit.  With
 *    1 handle every stream shares it; with h >= 2 the random region has
 *    handle 0 and the logs go round handles 1 .. h-1, up to a handle
 *    each.  Persistently isolated handles.  A handle's reclaim unit holds
 *    what it is given: pieces of logs that die at different times, unless
 *    a piece is the reclaim unit itself.
 *
 * Output: the tables in the summary and result.json; fdp-cache.csv,
 * fdp-noisy.csv, fdp-handles.csv and a chart of each.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "machine/stack.h"
#include "methods/accuracy.h"
#include "methods/model.h"
#include "methods/scenario.h"
#include "methods/streams.h"

static const struct ssd_scn_param params[] = {
	{.name = "log", .def = "75%", .unit = "size or % of capacity",
	 .help = "The log region (whole reclaim units); the random region is "
		 "the rest of the capacity."},
	{.name = "log_writes", .def = "0.5", .unit = "fraction",
	 .help = "The logs' share of the host writes in parts 1 and 3.",
	 .lo = 0, .hi = 1, .open = SSD_SCN_ABOVE_LO | SSD_SCN_BELOW_HI},
	{.name = "logs", .def = "4", .unit = "number",
	 .help = "Part 3: the logs the log region is cut into (sizes 1 : 2 : "
		 "... : logs); handles go up to logs + 1.",
	 .whole = 1, .lo = 2, .hi = SSD_STREAMS_MAX - 1},
	{.name = "precondition", .def = "200%", .unit = "size or % of capacity",
	 .help = "Host writes of each run after the fill, unmeasured."},
	{.name = "measure", .def = "200%", .unit = "size or % of capacity",
	 .help = "Host writes of each run measured, after the preconditioning."},
	{.name = NULL},
};

#define NNOISY 3
static const double noisy_share[NNOISY] = {0.25, 0.5, 0.75};
#define MAX_H SSD_STREAMS_MAX

/* A run's measured window. */
struct meas {
	double waf;
	uint64_t host_lp, media_lp, erased_bytes;
};

struct fdp {
	struct ssd_geometry g;
	uint64_t ru, stripe;          /* pages: a block on every unit; a
	                                 NAND page on every unit */
	uint64_t log_lp, reg_lp;      /* the log and random regions */
	uint64_t pre_lp, meas_lp;     /* host pages per run */
	double f_log;
	int logs;
	int model;                    /* the drive's policy has a model */
	/* 1. */
	struct meas cache[3];         /* none, initial, persistent */
	double cache_ideal, cache_rho, cache_f;
	/* 2. */
	struct meas noisy[NNOISY][2]; /* [share][initial, persistent] */
	double noisy_ideal[NNOISY], noisy_rho, noisy_f[NNOISY];
	/* 3. */
	int nh;                       /* handle counts 1 .. logs + 1 */
	struct meas hand[2][MAX_H];   /* [stripe, reclaim unit][h - 1] */
	double hand_ideal[2], hand_rho[2];
	uint64_t log_size[MAX_H];     /* part 3's logs, pages */
};

static const char *const iso_name[2] = {"initial", "persistent"};

/* The scenario's drive with fdp = yes, `handles` handles of type iso
 * (fdp = no if handles is 0), finished and checked into *c; a drive
 * that cannot take them is the user's input: SSD_ERANGE with the
 * config's message. */
static int fdp_config(struct ssd_scn *s, uint32_t handles, int iso,
		      struct ssd_config *c)
{
	char e[400], v[16];
	*c = s->cfg;
	snprintf(v, sizeof v, "%u", handles ? handles : 1);
	int rc = ssd_config_set(c, "fdp", handles ? "yes" : "no", s->sc->name,
				e, sizeof e);
	if (!rc)
		rc = ssd_config_set(c, "fdp_handles", v, s->sc->name, e, sizeof e);
	if (!rc)
		rc = ssd_config_set(c, "fdp_isolation", iso_name[iso], s->sc->name,
				    e, sizeof e);
	if (!rc) {
		c->blocks_per_plane = 0;
		rc = ssd_config_finish(c, e, sizeof e);
	}
	if (!rc)
		rc = ssd_stack_check(c, e, sizeof e);
	if (rc) {
		snprintf(s->err, sizeof s->err, "fdp: drive '%.40s' cannot take "
			 "flexible data placement with %u %s handles: %.380s",
			 s->cfg.name, handles, iso == SSD_FDP_PERSISTENT
			 ? "persistently isolated" : "initially isolated", e);
		return SSD_ERANGE;
	}
	return 0;
}

/* One run: a fresh drive of config c, the streams m->s[0..n) filled,
 * preconditioned and measured into *out; *f_first gets the measured share
 * of the host writes of streams 0..nfirst-1 (NULL: not wanted). */
static int run_streams(struct ssd_scn *s, const struct ssd_config *c,
		       const struct fdp *x, const struct ssd_stream *st, int n,
		       int nfirst, double *f_first, struct meas *out)
{
	struct ssd_dev *d = ssd_scn_device(s, c);
	if (!d)
		return SSD_EINVAL;
	if (ssd_dev_is_machine(d)) {
		snprintf(s->err, sizeof s->err, "fdp: drive '%.40s' has host layers "
			 "(page_cache, mft or raid): the scenario places writes on "
			 "the SSD's handles itself (accepted: a bare SSD)",
			 s->cfg.name);
		ssd_dev_destroy(d);
		return SSD_ERANGE;
	}
	struct ssd_streams m;
	ssd_streams_init(&m, d, s->seed);
	m.n = n;
	memcpy(m.s, st, (size_t)n * sizeof *st);
	int rc = ssd_streams_fill(&m);
	if (!rc)
		rc = ssd_streams_run(&m, x->pre_lp);
	struct ssd_counters c0 = *ssd_dev_counters(d);
	for (int i = 0; i < n; i++)
		m.s[i].written = 0;
	if (!rc)
		rc = ssd_streams_run(&m, x->meas_lp);
	if (rc) {
		const char *why = ssd_dev_error(d);
		snprintf(s->err, sizeof s->err, "fdp: a write failed: %s%s%.300s",
			 ssd_strerror(rc), why[0] ? ": " : "", why);
		ssd_dev_destroy(d);
		return rc;
	}
	const struct ssd_counters *e = ssd_dev_counters(d);
	out->host_lp = e->host_write_lp - c0.host_write_lp;
	out->media_lp = e->nand_prog_lp - c0.nand_prog_lp;
	/* nand_erase counts erase blocks (each plane's) */
	out->erased_bytes = (e->nand_erase - c0.nand_erase) *
			    x->g.erase_block_bytes;
	out->waf = (double)(out->host_lp + e->gc_copy_lp - c0.gc_copy_lp) /
		   (double)out->host_lp;
	if (f_first) {
		uint64_t a = 0, all = 0;
		for (int i = 0; i < n; i++) {
			all += m.s[i].written;
			if (i < nfirst)
				a += m.s[i].written;
		}
		*f_first = all ? (double)a / (double)all : NAN;
	}
	ssd_dev_destroy(d);
	return 0;
}

/* The ideal WA of logs of log_lp pages in all at 1 and the random region
 * (the rest) at the drive's model, with `partial` logs dying in pieces
 * smaller than a reclaim unit; the random region's spare factor into
 * *rho. */
static double ideal(const struct fdp *x, const struct ssd_config *c,
		    uint64_t log_lp, double f_logs, uint32_t partial,
		    double *rho)
{
	double alpha = ssd_accuracy_fdp_alpha(c, log_lp, partial);
	*rho = 1 / alpha - 1;
	if (!x->model || !(alpha > 0 && alpha < 1))
		return NAN;
	double w = c->gc_policy == SSD_GC_FIFO
		   ? ssd_model_waf_fifo_b(alpha, x->g.lp_per_block)
		   : ssd_model_waf_greedy(alpha, x->g.lp_per_block);
	double share[2] = {f_logs, 1 - f_logs}, waf[2] = {1, w};
	return ssd_model_waf_separated(2, share, waf);
}

/* ---- 1. the cache ---- */

static int part_cache(struct ssd_scn *s, struct fdp *x)
{
	struct ssd_stream st[2] = {
		{.start = 0, .len = x->log_lp, .kind = SSD_STREAM_LOG_TRIM,
		 .handle = 1, .share = x->f_log, .piece = (uint32_t)x->stripe,
		 .trim = (uint32_t)x->ru},
		{.start = x->log_lp, .len = x->reg_lp, .kind = SSD_STREAM_RANDOM,
		 .handle = 0, .share = 1 - x->f_log, .piece = (uint32_t)x->stripe},
	};
	struct ssd_config c;
	for (int k = 0; k < 3; k++) {
		ssd_prog_phase(s->prog, 0, "cache: %s", k ? iso_name[k - 1]
			       : "no placement");
		int rc = fdp_config(s, k ? 2 : 0, k ? k - 1 : 0, &c);
		if (!rc)
			rc = run_streams(s, &c, x, st, 2, 1, &x->cache_f,
					 &x->cache[k]);
		if (rc)
			return rc;
	}
	x->cache_ideal = ideal(x, &c, x->log_lp, x->cache_f, 0, &x->cache_rho);
	return 0;
}

/* ---- 2. the noisy neighbour ---- */

static int part_noisy(struct ssd_scn *s, struct fdp *x)
{
	for (int i = 0; i < NNOISY; i++) {
		struct ssd_stream st[2] = {
			{.start = 0, .len = x->log_lp, .kind = SSD_STREAM_LOG,
			 .handle = 1, .share = 1 - noisy_share[i],
			 .piece = (uint32_t)x->stripe},
			{.start = x->log_lp, .len = x->reg_lp,
			 .kind = SSD_STREAM_RANDOM, .handle = 2,
			 .share = noisy_share[i], .piece = (uint32_t)x->stripe},
		};
		struct ssd_config c;
		for (int k = 0; k < 2; k++) {
			ssd_prog_phase(s->prog, 0, "noisy neighbour: %.0f%% of the "
				       "writes, %s", noisy_share[i] * 100,
				       iso_name[k]);
			int rc = fdp_config(s, 3, k, &c);
			if (!rc)
				rc = run_streams(s, &c, x, st, 2, 1,
						 &x->noisy_f[i], &x->noisy[i][k]);
			if (rc)
				return rc;
		}
		x->noisy_ideal[i] = ideal(x, &c, x->log_lp, x->noisy_f[i], 1,
					  &x->noisy_rho);
	}
	return 0;
}

/* The log's WA if the noisy handle's is its model's: the media writes
 * beyond the ideal, all the log's. */
static double log_waf_est(const struct fdp *x, int i, int k)
{
	const struct meas *m = &x->noisy[i][k];
	double f = x->noisy_f[i];
	if (isnan(x->noisy_ideal[i]) || !(f > 0))
		return NAN;
	return 1 + (m->waf - x->noisy_ideal[i]) / f;
}

/* ---- 3. reclaim units and handles ---- */

static int part_handles(struct ssd_scn *s, struct fdp *x)
{
	int k = x->logs;
	uint64_t units_total = (uint64_t)k * (k + 1) / 2;
	uint64_t unit = x->log_lp / x->ru / units_total * x->ru;
	if (!unit) {
		char a[24], b[24];
		snprintf(s->err, sizeof s->err, "fdp: the log region of %s cannot "
			 "be cut into %d logs of sizes 1 : ... : %d reclaim units "
			 "of %s (accepted: a larger log, or fewer logs)",
			 ssd_fmt_bytes(x->log_lp * SSD_LPAGE, a, sizeof a), k, k,
			 ssd_fmt_bytes(x->ru * SSD_LPAGE, b, sizeof b));
		return SSD_ERANGE;
	}
	x->nh = k + 1;
	for (int p = 0; p < 2; p++) {
		uint32_t piece = (uint32_t)(p ? x->ru : x->stripe);
		struct ssd_config c;
		for (int h = 1; h <= x->nh; h++) {
			struct ssd_stream st[MAX_H];
			uint64_t at = 0;
			for (int i = 0; i < k; i++) {
				x->log_size[i] = unit * (uint64_t)(i + 1);
				st[i] = (struct ssd_stream){.start = at,
					.len = x->log_size[i],
					.kind = SSD_STREAM_LOG_TRIM,
					.handle = h == 1 ? 0 : 1 + (uint32_t)i % (uint32_t)(h - 1),
					.share = x->f_log / k, .piece = piece,
					.trim = piece};
				at += x->log_size[i];
			}
			/* the logs take whole units of the ratio; the
			 * random region is the rest of the capacity */
			st[k] = (struct ssd_stream){.start = at,
				.len = x->g.user_lp - at, .kind = SSD_STREAM_RANDOM,
				.handle = 0, .share = 1 - x->f_log,
				.piece = (uint32_t)x->stripe};
			ssd_prog_phase(s->prog, 0, "handles: %s pieces, %d handle%s",
				       p ? "reclaim-unit" : "stripe", h,
				       h > 1 ? "s" : "");
			int rc = fdp_config(s, (uint32_t)h, SSD_FDP_PERSISTENT, &c);
			if (!rc)
				rc = run_streams(s, &c, x, st, k + 1, k, NULL,
						 &x->hand[p][h - 1]);
			if (rc)
				return rc;
		}
		/* logs dying a stripe at a time hold a partly dead block each */
		x->hand_ideal[p] = ideal(x, &c, unit * units_total, x->f_log,
					 p ? 0 : (uint32_t)k, &x->hand_rho[p]);
	}
	return 0;
}

/* ---- output ---- */

static int write_csv(struct ssd_scn *s, const struct fdp *x)
{
	FILE *f = ssd_scn_file(s, "fdp-cache.csv");
	if (!f)
		return SSD_EIO;
	static const char *const cname[3] = {"none", "initial", "persistent"};
	fprintf(f, "placement,waf,host_bytes,media_bytes,erased_bytes\n");
	for (int k = 0; k < 3; k++)
		fprintf(f, "%s,%.4f,%llu,%llu,%llu\n", cname[k], x->cache[k].waf,
			(unsigned long long)x->cache[k].host_lp * SSD_LPAGE,
			(unsigned long long)x->cache[k].media_lp * SSD_LPAGE,
			(unsigned long long)x->cache[k].erased_bytes);
	if (!isnan(x->cache_ideal))
		fprintf(f, "ideal,%.4f,,,\n", x->cache_ideal);
	int rc = ssd_scn_close(s, f);
	if (rc || !(f = ssd_scn_file(s, "fdp-noisy.csv")))
		return rc ? rc : SSD_EIO;
	fprintf(f, "noisy_share,ideal_waf,initial_waf,persistent_waf,"
		   "initial_log_waf_est,persistent_log_waf_est\n");
	for (int i = 0; i < NNOISY; i++)
		fprintf(f, "%.2f,%.4f,%.4f,%.4f,%.4f,%.4f\n", noisy_share[i],
			x->noisy_ideal[i], x->noisy[i][0].waf, x->noisy[i][1].waf,
			log_waf_est(x, i, 0), log_waf_est(x, i, 1));
	rc = ssd_scn_close(s, f);
	if (rc || !(f = ssd_scn_file(s, "fdp-handles.csv")))
		return rc ? rc : SSD_EIO;
	fprintf(f, "handles,waf_stripe_pieces,waf_reclaim_unit_pieces,"
		   "ideal_stripe_pieces,ideal_reclaim_unit_pieces\n");
	for (int h = 1; h <= x->nh; h++)
		fprintf(f, "%d,%.4f,%.4f,%.4f,%.4f\n", h, x->hand[0][h - 1].waf,
			x->hand[1][h - 1].waf, x->hand_ideal[0], x->hand_ideal[1]);
	return ssd_scn_close(s, f);
}

static int plots(struct ssd_scn *s, const struct fdp *x)
{
	int rc = ssd_scn_plot(s, "fdp-cache", "FDP: a cache's log and random "
			      "region, with and without placement",
			      "set style fill solid 0.6 border -1\n"
			      "set boxwidth 0.6\nset yrange [0:*]\n"
			      "set ylabel 'write amplification'\n"
			      "set datafile separator ','\n"
			      "plot 'fdp-cache.csv' skip 1 using 0:2:xtic(1) "
			      "with boxes lc rgb '#1f5fbf' notitle, \\\n"
			      "     '' skip 1 using 0:2:(sprintf('%.2f', $2)) "
			      "with labels offset 0,0.8 notitle\n");
	if (rc)
		return rc;
	rc = ssd_scn_plot(s, "fdp-noisy", "FDP: a noisy handle beside a "
			  "sequential one",
			  "set xlabel 'the noisy handle''s share of the writes'\n"
			  "set ylabel 'write amplification'\nset yrange [1:*]\n"
			  "set xrange [0.2:0.8]\nset key top left\n"
			  "set datafile separator ','\n"
			  "plot 'fdp-noisy.csv' skip 1 using 1:2 with linespoints "
			  "lw 2 pt 7 dt 2 lc rgb '#444444' title 'ideal (separated "
			  "streams)', \\\n"
			  "     '' skip 1 using 1:4 with linespoints lw 2 pt 5 "
			  "lc rgb '#1b9e77' title 'persistently isolated', \\\n"
			  "     '' skip 1 using 1:3 with linespoints lw 2 pt 9 "
			  "lc rgb '#d95f02' title 'initially isolated'\n");
	if (rc)
		return rc;
	char body[1024];
	snprintf(body, sizeof body,
		 "set xlabel 'handles (%d logs and a random region)'\n"
		 "set ylabel 'write amplification'\nset yrange [1:*]\n"
		 "set xrange [0.8:%d.2]\nset xtics 1\nset key top right\n"
		 "set datafile separator ','\n"
		 "plot 'fdp-handles.csv' skip 1 using 1:2 with linespoints lw 2 "
		 "pt 7 lc rgb '#d95f02' title 'logs written in stripes', \\\n"
		 "     '' skip 1 using 1:3 with linespoints lw 2 pt 5 "
		 "lc rgb '#1f5fbf' title 'logs written in reclaim units', \\\n"
		 "     '' skip 1 using 1:4 with lines lw 1.5 dt 2 lc rgb '#d95f02' "
		 "title 'ideal, stripes', \\\n"
		 "     '' skip 1 using 1:5 with lines lw 1.5 dt 2 lc rgb '#1f5fbf' "
		 "title 'ideal, reclaim units'\n", x->logs, x->nh);
	return ssd_scn_plot(s, "fdp-handles", "FDP: reclaim units against what "
			    "the host invalidates together, and too few handles",
			    body);
}

static void json_meas(struct ssd_scn *s, const struct meas *m)
{
	ssd_scn_json_num(s, "waf", m->waf);
	ssd_scn_json_int(s, "host_bytes", (int64_t)(m->host_lp * SSD_LPAGE));
	ssd_scn_json_int(s, "media_bytes", (int64_t)(m->media_lp * SSD_LPAGE));
	ssd_scn_json_int(s, "erased_bytes", (int64_t)m->erased_bytes);
}

static void write_json(struct ssd_scn *s, const struct fdp *x)
{
	ssd_scn_json_int(s, "units", x->g.units);
	ssd_scn_json_int(s, "reclaim_unit_bytes", (int64_t)(x->ru * SSD_LPAGE));
	ssd_scn_json_int(s, "stripe_bytes", (int64_t)(x->stripe * SSD_LPAGE));
	ssd_scn_json_int(s, "log_bytes", (int64_t)(x->log_lp * SSD_LPAGE));
	ssd_scn_json_int(s, "region_bytes", (int64_t)(x->reg_lp * SSD_LPAGE));
	ssd_scn_json_open(s, "cache", 0);
	ssd_scn_json_num(s, "log_share", x->cache_f);
	ssd_scn_json_num(s, "rho_eff", x->cache_rho);
	ssd_scn_json_num(s, "ideal_waf", x->cache_ideal);
	static const char *const cname[3] = {"none", "initial", "persistent"};
	for (int k = 0; k < 3; k++) {
		ssd_scn_json_open(s, cname[k], 0);
		json_meas(s, &x->cache[k]);
		ssd_scn_json_close(s, 0);
	}
	ssd_scn_json_close(s, 0);
	ssd_scn_json_open(s, "noisy", 1);
	for (int i = 0; i < NNOISY; i++) {
		ssd_scn_json_open(s, NULL, 0);
		ssd_scn_json_num(s, "noisy_share", 1 - x->noisy_f[i]);
		ssd_scn_json_num(s, "ideal_waf", x->noisy_ideal[i]);
		for (int k = 0; k < 2; k++) {
			ssd_scn_json_open(s, iso_name[k], 0);
			json_meas(s, &x->noisy[i][k]);
			ssd_scn_json_num(s, "log_waf_estimate", log_waf_est(x, i, k));
			ssd_scn_json_close(s, 0);
		}
		ssd_scn_json_close(s, 0);
	}
	ssd_scn_json_close(s, 1);
	ssd_scn_json_open(s, "handles", 0);
	ssd_scn_json_int(s, "logs", x->logs);
	ssd_scn_json_open(s, "log_bytes", 1);
	for (int i = 0; i < x->logs; i++)
		ssd_scn_json_int(s, NULL, (int64_t)(x->log_size[i] * SSD_LPAGE));
	ssd_scn_json_close(s, 1);
	static const char *const pname[2] = {"stripe", "reclaim_unit"};
	for (int p = 0; p < 2; p++) {
		ssd_scn_json_open(s, pname[p], 0);
		ssd_scn_json_num(s, "ideal_waf", x->hand_ideal[p]);
		ssd_scn_json_open(s, "points", 1);
		for (int h = 1; h <= x->nh; h++) {
			ssd_scn_json_open(s, NULL, 0);
			ssd_scn_json_int(s, "handles", h);
			json_meas(s, &x->hand[p][h - 1]);
			ssd_scn_json_close(s, 0);
		}
		ssd_scn_json_close(s, 1);
		ssd_scn_json_close(s, 0);
	}
	ssd_scn_json_close(s, 0);
}

/* A WA, or "-" when there is none (no model for the policy). */
static const char *wa(double v, char *buf, size_t n)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.2f", v);
	return buf;
}

static void summary(struct ssd_scn *s, const struct fdp *x)
{
	FILE *out = s->out;
	char a[24], b[24], c[24], w[16];
	fprintf(out, "fdp on %s (%u allocation units, reclaim units of %s, "
		"stripes of %s)\n", s->cfg.name, x->g.units,
		ssd_fmt_bytes(x->ru * SSD_LPAGE, a, sizeof a),
		ssd_fmt_bytes(x->stripe * SSD_LPAGE, b, sizeof b));
	fprintf(out, "  write amplification of %s measured after %s, each run "
		"on a fresh drive\n", ssd_fmt_bytes(x->meas_lp * SSD_LPAGE, a,
						    sizeof a),
		ssd_fmt_bytes(x->pre_lp * SSD_LPAGE, b, sizeof b));
	fprintf(out, "  1. a cache: a %s log trimmed a reclaim unit at a time, "
		"%.0f%% of the writes,\n     and a %s region rewritten at "
		"random\n", ssd_fmt_bytes(x->log_lp * SSD_LPAGE, a, sizeof a),
		x->cache_f * 100, ssd_fmt_bytes(x->reg_lp * SSD_LPAGE, c,
						sizeof c));
	fprintf(out, "     no placement %.2f   initial %.2f   persistent %.2f   "
		"ideal %s (rho_eff %.3f)\n", x->cache[0].waf, x->cache[1].waf,
		x->cache[2].waf, wa(x->cache_ideal, w, sizeof w), x->cache_rho);
	fprintf(out, "  2. a noisy neighbour: the log rewritten in order (no "
		"trim) on one handle,\n     the region at random on another\n");
	fprintf(out, "     noisy share   ideal   initial  persistent   log WA "
		"(est.): initial  persistent\n");
	for (int i = 0; i < NNOISY; i++) {
		char e0[16], e1[16];
		fprintf(out, "     %10.0f%% %7s %9.2f %11.2f %23s %11s\n",
			(1 - x->noisy_f[i]) * 100,
			wa(x->noisy_ideal[i], w, sizeof w), x->noisy[i][0].waf,
			x->noisy[i][1].waf, wa(log_waf_est(x, i, 0), e0, sizeof e0),
			wa(log_waf_est(x, i, 1), e1, sizeof e1));
	}
	fprintf(out, "     log WA (est.): the excess over the ideal over the "
		"log's writes, if the\n     noisy handle costs what it would "
		"alone (the drive counts media writes as one)\n");
	fprintf(out, "  3. %d logs (sizes 1 : ... : %d) and the region, "
		"persistently isolated handles;\n     the logs written and "
		"trimmed in stripes or in whole reclaim units\n", x->logs,
		x->logs);
	fprintf(out, "     handles   ");
	for (int h = 1; h <= x->nh; h++)
		fprintf(out, " %6d", h);
	fprintf(out, "    ideal\n");
	static const char *const pname[2] = {"stripes      ", "reclaim units"};
	for (int p = 0; p < 2; p++) {
		fprintf(out, "     %s", pname[p]);
		for (int h = 1; h <= x->nh; h++)
			fprintf(out, " %6.2f", x->hand[p][h - 1].waf);
		fprintf(out, " %8s\n", wa(x->hand_ideal[p], w, sizeof w));
	}
	fprintf(out, "  data and plots    %s/fdp-{cache,noisy,handles}."
		"{csv,png,svg}\n", s->outdir);
}

static int run(struct ssd_scn *s)
{
	struct fdp *x = calloc(1, sizeof *x);
	if (!x) {
		snprintf(s->err, sizeof s->err, "fdp: out of memory");
		return SSD_ENOMEM;
	}
	int rc = 0;
	if (s->cfg.type == SSD_TYPE_HDD) {
		snprintf(s->err, sizeof s->err, "fdp: drive '%.40s' is a hard disk "
			 "(type = hdd); placement handles are an SSD's (accepted: an "
			 "SSD drive)", s->cfg.name);
		rc = SSD_ERANGE;
		goto out;
	}
	x->logs = (int)ssd_scn_int(s, "logs");
	x->f_log = ssd_scn_num(s, "log_writes");
	struct ssd_config c;
	/* the most any run asks: a handle per log and the region's,
	 * persistently isolated; refused before any run */
	if ((rc = fdp_config(s, (uint32_t)x->logs + 1, SSD_FDP_PERSISTENT, &c)))
		goto out;
	ssd_config_geometry(&c, &x->g);
	x->ru = (uint64_t)x->g.units * x->g.lp_per_block;
	x->stripe = (uint64_t)x->g.units * x->g.lp_per_page;
	x->model = c.gc_policy == SSD_GC_GREEDY || c.gc_policy == SSD_GC_FIFO;
	uint64_t log = ssd_scn_size(s, "log", 0) / SSD_LPAGE;
	x->log_lp = log / x->ru * x->ru;
	if (!x->log_lp || x->log_lp + x->stripe > x->g.user_lp) {
		char a[24], b[24];
		snprintf(s->err, sizeof s->err, "fdp: log '%s' is not at least a "
			 "reclaim unit (%s) with room for a random region beside it "
			 "(accepted: %s up to the capacity less a stripe)",
			 ssd_scn_str(s, "log"),
			 ssd_fmt_bytes(x->ru * SSD_LPAGE, a, sizeof a),
			 ssd_fmt_bytes(x->ru * SSD_LPAGE, b, sizeof b));
		rc = SSD_ERANGE;
		goto out;
	}
	x->reg_lp = x->g.user_lp - x->log_lp;
	x->pre_lp = ssd_scn_size(s, "precondition", 0) / SSD_LPAGE;
	x->meas_lp = ssd_scn_size(s, "measure", 0) / SSD_LPAGE;
	if (x->meas_lp < x->stripe) {
		snprintf(s->err, sizeof s->err, "fdp: measure '%s' is less than a "
			 "stripe", ssd_scn_str(s, "measure"));
		rc = SSD_ERANGE;
		goto out;
	}
	if (!(rc = part_cache(s, x)) && !(rc = part_noisy(s, x)) &&
	    !(rc = part_handles(s, x)) && !(rc = write_csv(s, x)) &&
	    !(rc = plots(s, x))) {
		write_json(s, x);
		summary(s, x);
	}
out:
	free(x);
	return rc;
}

const struct ssd_scenario ssd_scn_fdp = {
	.name = "fdp",
	.summary = "flexible data placement (NVMe FDP): write amplification "
		   "with and without placement, a noisy neighbour under both "
		   "handle types, reclaim units and too few handles",
	.params = params,
	.run = run,
	.drive = "accuracy",
	.needs_trim = 1,
};
