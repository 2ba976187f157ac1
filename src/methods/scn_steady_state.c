/*
 * scn_steady_state.c -- the 760p review's steady-state test: 4 KiB random
 * writes at queue depth 32 over the whole span (offsets drawn uniformly,
 * with replacement, as IOMeter does), no TRIM, from a clean
 * drive until well past the point where free space is exhausted; IOPS
 * every second as dots and the 30 s average as a line.
 *
 * Steady state by the SNIA PTS rule: the run is cut into rounds; the
 * first round r at which rounds r-4..r have (a) a data excursion, max -
 * min, within 20% of their mean and (b) a least-squares line whose rise
 * across the five rounds is within 10% of the mean.  The steady-state
 * IOPS is the mean of the last five rounds of the run; the outliers are
 * the seconds of the steady-state window far from their 30 s average.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "methods/scenario.h"
#include "run/sim.h"

static const struct ssd_scn_param params[] = {
	{.name = "volume", .def = "600%", .unit = "size or % of capacity",
	 .help = "The most bytes written (600% = six times the capacity)."},
	{.name = "min_volume", .def = "400%", .unit = "size or % of capacity",
	 .help = "Bytes written before the run may stop at steady state."},
	{.name = "bs", .def = "4k", .unit = "size",
	 .help = "Request size."},
	{.name = "iodepth", .def = "32", .unit = "number",
	 .help = "Queue depth.",
	 .whole = 1, .lo = 1, .hi = 65536},
	{.name = "interval", .def = "1", .unit = "time",
	 .help = "Length of a point of the IOPS series."},
	{.name = "average", .def = "30", .unit = "time",
	 .help = "Window of the moving average line."},
	{.name = "round", .def = "60", .unit = "time",
	 .help = "Length of a SNIA PTS round."},
	{.name = "fresh", .def = "5", .unit = "time",
	 .help = "The first seconds that give the fresh IOPS."},
	{.name = "max_time", .def = "86400", .unit = "time",
	 .help = "The most simulated time of writes, a reviewer's day: a "
		 "drive that writes a few pages a second (block mapping) "
		 "stops there, long before its volume."},
	{.name = NULL},
};

/* An allocation failed: the scenario's message, and SSD_ENOMEM. */
static int nomem(struct ssd_scn *s)
{
	snprintf(s->err, sizeof s->err, "out of memory");
	return SSD_ENOMEM;
}

static int run(struct ssd_scn *s)
{
	uint64_t bs = ssd_scn_size(s, "bs", 512);
	uint64_t volume = ssd_scn_size(s, "volume", bs);
	int64_t step = ssd_scn_time(s, "interval");
	int64_t avg = ssd_scn_time(s, "average"), round = ssd_scn_time(s, "round");
	int64_t fresh = ssd_scn_time(s, "fresh");
	int64_t max_time = ssd_scn_time(s, "max_time");
	int iodepth = (int)ssd_scn_int(s, "iodepth");
	const char *bad = NULL;
	if (!bs)
		bad = "bs must be at least 512";
	else if (!volume)
		bad = "volume must be at least bs";
	else if (step <= 0)
		bad = "interval must be more than 0";
	else if (avg < step)
		bad = "average is less than interval";
	else if (round < step)
		bad = "round is less than interval";
	else if (fresh < step)
		bad = "fresh is less than interval";
	else if (max_time < round)
		bad = "max_time is less than round";
	if (bad) {
		snprintf(s->err, sizeof s->err, "steady-state: %s", bad);
		return SSD_ERANGE;
	}
	struct ssd_dev *dev = ssd_scn_drive(s, NULL, 0);
	if (!dev)
		return SSD_EINVAL;
	struct ssd_series ser;
	ssd_series_init(&ser, ssd_dev_time(dev), step); /* 0, or a snapshot's */
	/* Written in chunks of a quarter of the capacity (each with its own
	 * random stream), so the run can stop
	 * once steady state holds: at least min_volume written, then the
	 * PTS rule on the last five rounds (the big drives would otherwise
	 * write their full volume long after the answer is known). */
	uint64_t chunk = ssd_config_volume(&s->cfg) / 4 / bs * bs, min_volume = ssd_scn_size(s, "min_volume", bs);
	uint64_t written = 0, host_lp = 0, nand_lp = 0, chunks = 0;
	int64_t sim_ns = 0;
	uint32_t per_round = (uint32_t)(round / step);
	int rc = 0, timed_out = 0;
	if (!chunk)
		chunk = bs;
	ssd_prog_phase(s->prog, 0, "writing");
	while (written < volume && !timed_out) {
		uint64_t now = volume - written < chunk ? volume - written : chunk;
		struct ssd_run_result res;
		struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
		if (b) {
			struct ssd_job *j = ssd_scn_job(b, "steady-state",
				SSD_RW_RANDWRITE, (uint32_t)bs,
				(uint32_t)iodepth);
			j->norandommap = 1;
			j->io_size = now;
			j->randseed = ssd_mix64(s->seed + ++chunks);
			j->has_randseed = 1;
			j->runtime = max_time - sim_ns; /* what is left of it */
		}
		/* the status line's share: the volume written */
		ssd_prog_span(s->prog, (double)written / (double)volume,
			      (double)(written + now) / (double)volume);
		rc = ssd_scn_run(s, dev, b, &ser, &res);
		if (rc)
			break;
		uint64_t did = res.jobs[0].dir[SSD_DDIR_WRITE].bytes;
		if (did < now) {
			timed_out = 1;
			now = did;
		}
		written += now;
		host_lp += res.jobs[0].ctr.host_write_lp;
		nand_lp += res.jobs[0].ctr.nand_prog_lp;
		sim_ns += res.sim_ns;
		ssd_run_result_free(&res);
			if (written < min_volume || written >= volume)
			continue;
		/* complete rounds so far, after the first full span */
		uint32_t pts = ser.n > 1 ? ser.n - 1 : 0, nr = pts / per_round;
		double span = 0, y[5], m5, e5, r5;
		uint32_t first = nr;
		for (uint32_t i = 0; i < pts; i++) {
			span += (double)ser.pt[i].bytes[SSD_DDIR_WRITE];
			if (span >= (double)ssd_config_volume(&s->cfg)) {
				first = i / per_round + 1;
				break;
			}
		}
		if (nr < first + 5)
			continue;
		for (uint32_t r = nr - 5; r < nr; r++) {
			y[r - (nr - 5)] = 0;
			for (uint32_t i = r * per_round; i < (r + 1) * per_round; i++)
				y[r - (nr - 5)] += ssd_series_iops(&ser, i, SSD_DDIR_WRITE) / per_round;
		}
		if (ssd_scn_pts_steady(y, &m5, &e5, &r5))
			break;
	}
	if (rc) {
		ssd_dev_destroy(dev);
		ssd_series_free(&ser);
		return rc;
	}
	uint32_t n = ser.n;
	double *iops = calloc(n + 1, sizeof *iops);
	double *mov = calloc(n + 1, sizeof *mov);
	if (!iops || !mov) {
		rc = nomem(s);
		goto out;
	}
	uint32_t per_avg = (uint32_t)(avg / step);
	double sum = 0;
	for (uint32_t i = 0; i < n; i++) {
		iops[i] = ssd_series_iops(&ser, i, SSD_DDIR_WRITE);
		sum += iops[i];
		if (i >= per_avg)
			sum -= iops[i - per_avg];
		mov[i] = sum / (i + 1 < per_avg ? i + 1 : per_avg);
	}
	/* the last point is partial (the run ends inside it): leave it out */
	uint32_t full = n > 1 ? n - 1 : n;
	FILE *f = ssd_scn_file(s, "steady-state.csv");
	if (!f) {
		rc = SSD_EIO;
		goto out;
	}
	fprintf(f, "time_s,iops,iops_avg\n");
	for (uint32_t i = 0; i < full; i++)
		fprintf(f, "%.3f,%.1f,%.1f\n", (double)(i + 1) * step / 1e9, iops[i], mov[i]);
	if ((rc = ssd_scn_close(s, f)))
		goto out;
	if ((rc = ssd_scn_csv(s, "series", &ser)))
		goto out;
	char body[1024];
	snprintf(body, sizeof body,
		 "set xlabel 'time, s'\nset ylabel 'IOPS (4 KiB random write, QD%d)'\n"
		 "set yrange [0:*]\n"
		 "plot 'steady-state.csv' using 1:2 with points pt 7 ps 0.35 lc rgb '#1f5fbf' title 'IOPS every %.0f s', \\\n"
		 "     'steady-state.csv' using 1:3 with lines lw 2.5 lc rgb 'black' title '%.0f s average'",
		 iodepth, step / 1e9, avg / 1e9);
	if ((rc = ssd_scn_plot(s, "steady-state", "Steady state: 4 KiB random writes", body)))
		goto out;

	/* fresh IOPS, rounds, steady state */
	uint32_t nf = (uint32_t)(fresh / step);
	double fresh_iops = 0;
	for (uint32_t i = 0; i < nf && i < full; i++)
		fresh_iops += iops[i] / (nf < full ? nf : full);
	uint32_t nr = full / per_round;
	double *ry = calloc(nr + 1, sizeof *ry);
	if (!ry) {
		rc = nomem(s);
		goto out;
	}
	for (uint32_t r = 0; r < nr; r++) {
		for (uint32_t i = r * per_round; i < (r + 1) * per_round; i++)
			ry[r] += iops[i] / per_round;
	}
	/* The rule is only asked once the whole span has been written: the
	 * clean drive's flat start would pass it on a slow drive.  Rounds
	 * count from 1, as in snia-pts. */
	uint32_t first = nr; /* never, unless the span was written */
	double wrote = 0;
	for (uint32_t i = 0; i < full; i++) {
		wrote += (double)ser.pt[i].bytes[SSD_DDIR_WRITE];
		if (wrote >= (double)ssd_config_volume(&s->cfg)) {
			first = i / per_round + 1;
			break;
		}
	}
	int steady_round = -1;
	double exc = 0, rise = 0, m5 = 0;
	for (uint32_t r = first + 4 > 4 ? first + 4 : 4; r < nr; r++)
		if (ssd_scn_pts_steady(&ry[r - 4], &m5, &exc, &rise)) {
			steady_round = (int)r + 1;
			break;
		}
	double steady_iops = 0, last_exc = 1, last_rise = 1;
	uint32_t w0 = 0, w1 = full;
	if (nr >= 5) {
		ssd_scn_pts_steady(&ry[nr - 5], &m5, &last_exc, &last_rise);
		for (uint32_t r = nr - 5; r < nr; r++)
			steady_iops += ry[r] / 5;
		w0 = (nr - 5) * per_round;
		w1 = nr * per_round;
	} else if (full) {
		w0 = full / 2;
		for (uint32_t i = w0; i < full; i++)
			steady_iops += iops[i] / (full - w0);
	}
	/* outliers: seconds of the steady window far from their average */
	uint32_t nw = w1 > w0 ? w1 - w0 : 0, far = 0;
	double *dev_pct = calloc(nw + 1, sizeof *dev_pct);
	if (!dev_pct) {
		free(ry);
		rc = nomem(s);
		goto out;
	}
	for (uint32_t i = w0; i < w1; i++) {
		double d = mov[i] > 0 ? 100 * (iops[i] - mov[i]) / mov[i] : 0;
		dev_pct[i - w0] = d;
		far += fabs(d) > 20;
	}
	qsort(dev_pct, nw, sizeof *dev_pct, ssd_cmp_double);
	double p1 = nw ? dev_pct[nw / 100] : 0, p99 = nw ? dev_pct[nw - 1 - nw / 100] : 0;
	double lo = nw ? dev_pct[0] : 0, hi = nw ? dev_pct[nw - 1] : 0;
	double waf = host_lp ? (double)nand_lp / (double)host_lp : 0;

	ssd_scn_json_num(s, "fresh_iops", fresh_iops);
	ssd_scn_json_num(s, "steady_iops", steady_iops);
	ssd_scn_json_num(s, "steady_over_fresh", fresh_iops > 0 ? steady_iops / fresh_iops : 0);
	ssd_scn_json_int(s, "rounds", nr);
	ssd_scn_json_num(s, "round_seconds", round / 1e9);
	if (steady_round >= 0) {
		ssd_scn_json_int(s, "steady_state_round", steady_round);
		ssd_scn_json_num(s, "steady_state_seconds",
				 (double)steady_round * round / 1e9);
	} else {
		ssd_scn_json_str(s, "steady_state_round", "not reached");
	}
	ssd_scn_json_num(s, "last_rounds_excursion_pct", 100 * last_exc);
	ssd_scn_json_num(s, "last_rounds_slope_pct", 100 * last_rise);
	ssd_scn_json_open(s, "outliers", 0);
	ssd_scn_json_num(s, "seconds", nw);
	ssd_scn_json_num(s, "beyond_20pct", far);
	ssd_scn_json_num(s, "min_pct", lo);
	ssd_scn_json_num(s, "p1_pct", p1);
	ssd_scn_json_num(s, "p99_pct", p99);
	ssd_scn_json_num(s, "max_pct", hi);
	ssd_scn_json_close(s, 0);
	ssd_scn_json_num(s, "waf", waf);
	ssd_scn_json_num(s, "simulated_seconds", sim_ns / 1e9);
	ssd_scn_json_num(s, "host_bytes_written", (double)written);

	fprintf(s->out, "steady-state on %s: %.0f s of 4 KiB random writes at QD%d\n",
		s->cfg.name, sim_ns / 1e9, iodepth);
	fprintf(s->out, "  fresh IOPS         %.0f (first %.0f s)\n", fresh_iops, fresh / 1e9);
	fprintf(s->out, "  steady-state IOPS  %.0f (last 5 rounds of %.0f s), %.0f%% of fresh\n",
		steady_iops, round / 1e9, fresh_iops > 0 ? 100 * steady_iops / fresh_iops : 0);
	if (steady_round >= 0)
		fprintf(s->out, "  steady state       reached at round %d (%.0f s) by the SNIA PTS rule\n",
			steady_round, steady_round * round / 1e9);
	else if (timed_out)
		fprintf(s->out, "  steady state       not reached by the SNIA PTS rule in %u "
				"round%s: max_time (%.0f s) ended the writes after %.1f%% "
				"of the capacity\n", nr, ssd_plural(nr), max_time / 1e9,
			100.0 * (double)written / (double)ssd_config_volume(&s->cfg));
	else
		fprintf(s->out, "  steady state       not reached by the SNIA PTS rule in %u "
				"round%s (raise volume)\n", nr, ssd_plural(nr));
	fprintf(s->out, "  outliers           %u of %u s beyond +-20%% of the %.0f s average "
			"(range %+.0f%% .. %+.0f%%)\n", far, nw, avg / 1e9, lo, hi);
	if (nand_lp || s->cfg.type != SSD_TYPE_HDD)
		fprintf(s->out, "  write amplification %.2f over the whole run\n", waf);
	else
		fprintf(s->out, "  write amplification -  (a hard disk: no flash)\n");
	fprintf(s->out, "  data and plots     %s/steady-state.{csv,png,svg}\n", s->outdir);
	free(ry);
	free(dev_pct);
out:
	free(iops);
	free(mov);
	ssd_series_free(&ser);
	ssd_dev_destroy(dev);
	return rc;
}

const struct ssd_scenario ssd_scn_steady_state = {
	.name = "steady-state",
	.summary = "4 KiB random writes at QD32 from clean to steady state: "
		   "IOPS per second, 30 s average, SNIA PTS steady state",
	.params = params,
	.run = run,
};
