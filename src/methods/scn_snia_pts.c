/*
 * scn_snia_pts.c -- the SNIA Solid State Storage Performance Test
 * Specification (PTS), Enterprise edition, in miniature: the IOPS,
 * throughput and latency tests, write saturation and host idle recovery,
 * with the PTS's tables and plots.
 *
 * The PTS's building blocks, as modelled here:
 *   purge    a fresh drive (every block erased, nothing mapped), which is
 *            what a Secure Erase or Format Unit leaves behind;
 *   WIPC     workload-independent preconditioning: sequential 128 KiB
 *            writes of twice the user capacity (`wipc`);
 *   rounds   the test stimulus repeated until steady state: the first
 *            round r at which rounds r-4..r of the tracking variable have
 *            a data excursion (max - min) within 20% of their mean and a
 *            least-squares line whose rise across the five rounds is
 *            within 10% of the mean; at most `rounds` rounds.  Reported
 *            values are means over the measurement window, the last five
 *            rounds (all rounds if fewer ran).  Rounds count from 1.
 *
 * The tests (IOPS, throughput and latency each start from purge + WIPC):
 *   IOPS     a round sweeps R/W mixes 100/0, 95/5, 65/35, 50/50, 35/65,
 *            5/95, 0/100 (outer loop) and block sizes 1024, 128, 64, 32,
 *            16, 8, 4, 0.5 KiB (inner loop) of random I/O over the whole
 *            span, `point` each, `iodepth` commands outstanding.  Tracking
 *            variable: 4 KiB 100% write IOPS.
 *   TP       for 128 KiB and for 1024 KiB: a round is sequential 100%
 *            write then 100% read, `tp_point` each.  Tracking: write MB/s.
 *   LAT      a round sweeps mixes 100/0, 65/35, 0/100 and block sizes 8,
 *            4, 0.5 KiB of random I/O at one outstanding command,
 *            `lat_point` each.  Tracking: mean latency of 4 KiB 100%
 *            write.  Mean = the window's mean, max = the window's largest.
 *   WSAT     from purge, 4 KiB random writes at `iodepth` without pause
 *            until `wsat` bytes or `wsat_time` of simulated time, which
 *            ever comes first (the PTS: 4x capacity or 24 h): IOPS every
 *            `wsat_interval`, against time and data written.  On a hard
 *            disk or a drive of tens of IOPS the time ends it.
 *   HIR      on the drive WSAT left (the PTS preconditions HIR to random-
 *            write steady state): `hir_baseline` of 4 KiB random writes;
 *            then for each wait state in `hir_idle`, `hir_reps` times
 *            [that long idle, then `hir_write` of writes], followed by
 *            `hir_baseline` of writes (return to baseline).  The PTS runs
 *            the same pattern with 5 s writes but far more repetitions
 *            and far longer baselines.
 *
 * Shortened.  The PTS runs each point for a minute; here points are short
 * so a run takes seconds.  A round therefore writes far less of the drive
 * than a PTS round does on a real drive, and steady state by the rule
 * means the tracking variable stopped moving at this pace: the summary
 * prints the data written per round as a share of the capacity.  Longer
 * `point` values (and more `rounds`) bring the run closer to the PTS.
 * A point ends when its last command completes: the commands in flight
 * when its time is up still finish (32 writes of 1 MiB take seconds), and
 * the I/Os per second count them over the whole span.
 *
 * The simulator maps 4 KiB pages: a 0.5 KiB read costs a whole page, so
 * it follows the 4 KiB one in I/Os per second, and a 0.5 KiB write is a
 * read-modify-write of its page, far slower than a 4 KiB write.
 */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "methods/scenario.h"
#include "run/sim.h"

static const struct ssd_scn_param params[] = {
	{.name = "iodepth", .def = "32", .unit = "number",
	 .help = "Outstanding commands of the IOPS, throughput, WSAT and HIR tests.",
	 .whole = 1, .lo = 1, .hi = 4096},
	{.name = "wipc", .def = "200%", .unit = "size or % of capacity",
	 .help = "Workload-independent preconditioning: sequential 128 KiB writes (0: none)."},
	{.name = "rounds", .def = "25", .unit = "number",
	 .help = "Most rounds of the IOPS, throughput and latency tests.",
	 .whole = 1, .lo = 1, .hi = 1000},
	{.name = "point", .def = "0.5", .unit = "time",
	 .help = "Length of each block size x R/W mix point of the IOPS test."},
	{.name = "tp_point", .def = "0.5", .unit = "time",
	 .help = "Length of each sequential read or write of the throughput test."},
	{.name = "lat_point", .def = "0.1", .unit = "time",
	 .help = "Length of each point of the latency test (QD1)."},
	{.name = "wsat", .def = "400%", .unit = "size or % of capacity",
	 .help = "Write saturation: 4 KiB random writes from purge."},
	{.name = "wsat_time", .def = "24h", .unit = "time",
	 .help = "Write saturation ends after this much simulated time if "
		 "it has not written wsat by then (the PTS: 4x capacity or "
		 "24 h, whichever comes first; 0: no time limit)."},
	{.name = "wsat_interval", .def = "1", .unit = "time",
	 .help = "Length of a point of the write-saturation curve."},
	{.name = "hir_write", .def = "5", .unit = "time",
	 .help = "Host idle recovery: length of each write segment."},
	{.name = "hir_idle", .def = "5,10,15,25,50", .unit = "text",
	 .help = "Host idle recovery: the idle (wait) times, in order, comma-separated."},
	{.name = "hir_reps", .def = "5", .unit = "number",
	 .help = "Write segment + idle repetitions per wait state.",
	 .whole = 1, .lo = 1, .hi = 10000},
	{.name = "hir_baseline", .def = "30", .unit = "time",
	 .help = "Continuous writes before the first and after each wait state."},
	{.name = NULL},
};

/* ---- the PTS matrices ---- */

#define NBS 8
#define NMIX 7
/* table order, as the PTS report prints them: block sizes up, mixes from
 * all-write to all-read (the test runs both in the opposite order) */
static const uint32_t iops_bs[NBS] = {512, 4096, 8192, 16384, 32768, 65536,
				      131072, 1048576};
static const int iops_read[NMIX] = {0, 5, 35, 50, 65, 95, 100};
#define TRACK_BS 1   /* 4 KiB */
#define TRACK_MIX 0  /* 100% write */

#define LBS 3
#define LMIX 3
static const uint32_t lat_bs[LBS] = {512, 4096, 8192};
static const int lat_read[LMIX] = {0, 65, 100};

#define NTP 2
static const uint32_t tp_bs[NTP] = {131072, 1048576};

#define MAX_IDLE 16

static const char *bs_label(uint32_t bs, char *buf, size_t n)
{
	if (bs < 1024)
		snprintf(buf, n, "%.1f", bs / 1024.0);
	else
		snprintf(buf, n, "%u", bs / 1024);
	return buf;
}

/* ---- steady state ---- */

struct ss {
	int n;        /* rounds run */
	int steady;   /* round (from 1) at which the rule first held; 0: not */
	double mean, exc, rise; /* of the measurement window: mean, excursion
	                           and rise as fractions of the mean */
};

/* Round n (from 1) gave tracking value y[n - 1]: update ss. */
static void ss_round(struct ss *ss, const double *y, int n)
{
	ss->n = n;
	if (n >= 5) {
		int ok = ssd_scn_pts_steady(y + n - 5, &ss->mean, &ss->exc, &ss->rise);
		if (ok && !ss->steady)
			ss->steady = n;
		return;
	}
	double m = 0, lo = y[0], hi = y[0];
	for (int i = 0; i < n; i++) {
		m += y[i] / n;
		lo = fmin(lo, y[i]);
		hi = fmax(hi, y[i]);
	}
	ss->mean = m;
	ss->exc = m > 0 ? (hi - lo) / m : 1;
	ss->rise = NAN; /* no line through fewer than five rounds */
}

/* First round (from 0) of the measurement window. */
static int ss_w0(const struct ss *ss)
{
	return ss->n > 5 ? ss->n - 5 : 0;
}

static void ss_json(struct ssd_scn *s, const struct ss *ss)
{
	if (ss->steady)
		ssd_scn_json_int(s, "steady_state_round", ss->steady);
	else
		ssd_scn_json_str(s, "steady_state_round", "not reached");
	ssd_scn_json_int(s, "rounds", ss->n);
	ssd_scn_json_num(s, "window_excursion_pct", 100 * ss->exc);
	ssd_scn_json_num(s, "window_slope_pct", 100 * ss->rise);
}

static void ss_text(char *buf, size_t n, const struct ss *ss)
{
	char slope[32] = "n/a";
	if (isfinite(ss->rise))
		snprintf(slope, sizeof slope, "%.1f%%", 100 * ss->rise);
	if (ss->steady)
		snprintf(buf, n, "steady state at round %d (excursion %.1f%%, slope %s)",
			 ss->steady, 100 * ss->exc, slope);
	else
		snprintf(buf, n, "steady state NOT reached in %d round%s (excursion "
			 "%.1f%%, slope %s); values from the last %s", ss->n,
			 ssd_plural((uint64_t)ss->n), 100 * ss->exc,
			 slope, ss->n > 5 ? "5 rounds" : "rounds");
}


/* ---- one point: a timed run of one access pattern ---- */

struct pt {
	double iops, mbps;          /* reads and writes together */
	double lat_mean_us, lat_max_us;
	double written;             /* host bytes written */
};

static int point(struct ssd_scn *s, struct ssd_dev *dev, int seq, int readpct,
		 uint32_t bs, int qd, int64_t len, uint64_t seed, struct pt *p)
{
	static const char *rnd[] = {"randwrite", "randrw", "randread"};
	static const char *sq[] = {"write", "rw", "read"};
	static const int rnd_rw[] = {SSD_RW_RANDWRITE, SSD_RW_RANDRW,
				     SSD_RW_RANDREAD};
	static const int sq_rw[] = {SSD_RW_WRITE, SSD_RW_READWRITE,
				    SSD_RW_READ};
	int k = readpct == 0 ? 0 : readpct == 100 ? 2 : 1;
	struct ssd_run_result res;
	struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
	if (b) {
		struct ssd_job *j = ssd_scn_job(b, "pts", seq ? sq_rw[k]
							      : rnd_rw[k],
						bs, (uint32_t)qd);
		j->rwmixread = (uint32_t)readpct;
		j->norandommap = 1;
		j->time_based = 1;
		j->runtime = len;
		j->randseed = seed;
		j->has_randseed = 1;
	}
	int rc = ssd_scn_run(s, dev, b, NULL, &res);
	if (rc)
		return rc;
	const struct ssd_job_result *j = &res.jobs[0];
	const struct ssd_dstat *r = &j->dir[SSD_DDIR_READ], *w = &j->dir[SSD_DDIR_WRITE];
	double ios = (double)(r->ios + w->ios), rt = (double)j->runtime_ns;
	p->iops = rt > 0 ? ios * 1e9 / rt : 0;
	p->mbps = rt > 0 ? (double)(r->bytes + w->bytes) * 1e3 / rt : 0;
	p->lat_mean_us = ios > 0 ? (r->lat.sum + w->lat.sum) / ios / 1e3 : 0;
	p->lat_max_us = fmax(r->lat.n ? r->lat.max : 0, w->lat.n ? w->lat.max : 0) / 1e3;
	p->written = (double)w->bytes;
	if (j->error) {
		snprintf(s->err, sizeof s->err, "snia-pts: the drive failed during a "
			 "%s point: %s", seq ? sq[k] : rnd[k], ssd_strerror(j->error));
		rc = j->error;
	}
	ssd_run_result_free(&res);
	return rc;
}

/* A fresh drive (purge) with the WIPC written. */
static struct ssd_dev *purge_wipc(struct ssd_scn *s, uint64_t wipc, int qd,
				  int *rc)
{
	struct ssd_dev *dev = ssd_scn_drive(s, NULL, 0);
	if (!dev) {
		*rc = SSD_EINVAL;
		return NULL;
	}
	*rc = 0;
	if (wipc) {
		struct ssd_run_result res;
		struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
		if (b)
			ssd_scn_job(b, "wipc", SSD_RW_WRITE, 128 << 10,
				    (uint32_t)qd)->io_size = wipc;
		*rc = ssd_scn_run(s, dev, b, NULL, &res);
		if (!*rc)
			ssd_run_result_free(&res);
	}
	if (*rc) {
		ssd_dev_destroy(dev);
		return NULL;
	}
	return dev;
}

static uint64_t seed_of(const struct ssd_scn *s, int test, int round, int idx)
{
	return ssd_mix64(s->seed ^ ssd_mix64(((uint64_t)test << 48) ^
					     ((uint64_t)round << 24) ^ (uint64_t)idx));
}

/* ---- everything the run measures ---- */

struct hir_seg {
	int kind;          /* 0 baseline, 1 write segment, 2 return to baseline */
	int wait;          /* index into idle[] (kinds 1 and 2) */
	double start_s, end_s; /* from the start of HIR */
	double iops;
};

struct pts {
	int qd, max_rounds;
	uint64_t wipc, wsat;
	int64_t point, tp_point, lat_point, wsat_step, wsat_time, hir_write, hir_base;
	int hir_reps, nidle;
	int64_t idle[MAX_IDLE];

	/* IOPS test: [round][mix][bs] */
	struct ss iops_ss;
	double *iops, *iops_mbps, *iops_track;
	double iops_written;    /* host bytes written over all rounds */
	double iops_table[NBS][NMIX];

	/* throughput test: [bs][round] */
	struct ss tp_ss[NTP];
	double *tp_w[NTP], *tp_r[NTP];
	double tp_write[NTP], tp_read[NTP];

	/* latency test: [round][mix][bs] */
	struct ss lat_ss;
	double *lat_mean, *lat_max, *lat_track;
	double lat_tmean[LBS][LMIX], lat_tmax[LBS][LMIX];

	/* write saturation */
	struct ssd_series wsat_ser;
	uint32_t wsat_n;        /* whole intervals */
	int wsat_timed;         /* wsat_time ended it before wsat bytes */
	double wsat_fob, wsat_end, wsat_gb, wsat_s, wsat_waf;
	double hir_s;           /* simulated seconds of HIR */
	int side;               /* the other tests run beside WSAT */

	/* host idle recovery */
	struct hir_seg *seg;
	int nseg;
	double hir_base_iops, hir_wait_iops[MAX_IDLE], hir_return_iops[MAX_IDLE];

	double sim_s;           /* simulated seconds, all tests */
};

#define IX(r, m, b, nm, nb) (((size_t)(r) * (nm) + (size_t)(m)) * (nb) + (size_t)(b))

static int iops_test(struct ssd_scn *s, struct pts *t)
{
	int rc;
	struct ssd_dev *dev = purge_wipc(s, t->wipc, t->qd, &rc);
	if (!dev)
		return rc;
	int64_t t0 = ssd_dev_time(dev);
	int r = 0;
	while (r < t->max_rounds && !t->iops_ss.steady) {
		for (int m = NMIX - 1; m >= 0 && !rc; m--)
			for (int b = NBS - 1; b >= 0 && !rc; b--) {
				struct pt p = {0};
				rc = point(s, dev, 0, iops_read[m], iops_bs[b], t->qd,
					   t->point, seed_of(s, 1, r, m * NBS + b), &p);
				t->iops[IX(r, m, b, NMIX, NBS)] = p.iops;
				t->iops_mbps[IX(r, m, b, NMIX, NBS)] = p.mbps;
				t->iops_written += p.written;
			}
		if (rc)
			break;
		t->iops_track[r] = t->iops[IX(r, TRACK_MIX, TRACK_BS, NMIX, NBS)];
		r++;
		ss_round(&t->iops_ss, t->iops_track, r);
	}
	t->sim_s += (ssd_dev_time(dev) - t0) / 1e9;
	ssd_dev_destroy(dev);
	if (rc)
		return rc;
	int w0 = ss_w0(&t->iops_ss);
	for (int b = 0; b < NBS; b++)
		for (int m = 0; m < NMIX; m++) {
			double sum = 0;
			for (int k = w0; k < r; k++)
				sum += t->iops[IX(k, m, b, NMIX, NBS)];
			t->iops_table[b][m] = sum / (r - w0);
		}
	return 0;
}

static int tp_test(struct ssd_scn *s, struct pts *t)
{
	for (int i = 0; i < NTP; i++) {
		int rc;
		struct ssd_dev *dev = purge_wipc(s, t->wipc, t->qd, &rc);
		if (!dev)
			return rc;
		int64_t t0 = ssd_dev_time(dev);
		int r = 0;
		while (!rc && r < t->max_rounds && !t->tp_ss[i].steady) {
			struct pt w = {0}, rd = {0};
			rc = point(s, dev, 1, 0, tp_bs[i], t->qd, t->tp_point,
				   seed_of(s, 2, r, 2 * i), &w);
			if (!rc)
				rc = point(s, dev, 1, 100, tp_bs[i], t->qd, t->tp_point,
					   seed_of(s, 2, r, 2 * i + 1), &rd);
			if (rc)
				break;
			t->tp_w[i][r] = w.mbps;
			t->tp_r[i][r] = rd.mbps;
			r++;
			ss_round(&t->tp_ss[i], t->tp_w[i], r);
		}
		t->sim_s += (ssd_dev_time(dev) - t0) / 1e9;
		ssd_dev_destroy(dev);
		if (rc)
			return rc;
		int w0 = ss_w0(&t->tp_ss[i]);
		for (int k = w0; k < r; k++) {
			t->tp_write[i] += t->tp_w[i][k] / (r - w0);
			t->tp_read[i] += t->tp_r[i][k] / (r - w0);
		}
	}
	return 0;
}

static int lat_test(struct ssd_scn *s, struct pts *t)
{
	int rc;
	struct ssd_dev *dev = purge_wipc(s, t->wipc, t->qd, &rc);
	if (!dev)
		return rc;
	int64_t t0 = ssd_dev_time(dev);
	int r = 0;
	while (r < t->max_rounds && !t->lat_ss.steady) {
		for (int m = LMIX - 1; m >= 0 && !rc; m--)
			for (int b = LBS - 1; b >= 0 && !rc; b--) {
				struct pt p = {0};
				rc = point(s, dev, 0, lat_read[m], lat_bs[b], 1, t->lat_point,
					   seed_of(s, 3, r, m * LBS + b), &p);
				t->lat_mean[IX(r, m, b, LMIX, LBS)] = p.lat_mean_us;
				t->lat_max[IX(r, m, b, LMIX, LBS)] = p.lat_max_us;
			}
		if (rc)
			break;
		t->lat_track[r] = t->lat_mean[IX(r, 0, 1, LMIX, LBS)];
		r++;
		ss_round(&t->lat_ss, t->lat_track, r);
	}
	t->sim_s += (ssd_dev_time(dev) - t0) / 1e9;
	ssd_dev_destroy(dev);
	if (rc)
		return rc;
	int w0 = ss_w0(&t->lat_ss);
	for (int b = 0; b < LBS; b++)
		for (int m = 0; m < LMIX; m++) {
			double sum = 0, mx = 0;
			for (int k = w0; k < r; k++) {
				sum += t->lat_mean[IX(k, m, b, LMIX, LBS)];
				mx = fmax(mx, t->lat_max[IX(k, m, b, LMIX, LBS)]);
			}
			t->lat_tmean[b][m] = sum / (r - w0);
			t->lat_tmax[b][m] = mx;
		}
	return 0;
}

/* One timed run of 4 KiB random writes: its IOPS and start time. */
static int hir_writes(struct ssd_scn *s, struct ssd_dev *dev, struct pts *t,
		      int64_t len, int kind, int wait, int64_t hir0, int idx)
{
	struct hir_seg *g = &t->seg[t->nseg];
	g->kind = kind;
	g->wait = wait;
	g->start_s = (ssd_dev_time(dev) - hir0) / 1e9;
	struct pt p = {0};
	int rc = point(s, dev, 0, 0, 4096, t->qd, len, seed_of(s, 5, 0, idx), &p);
	g->iops = p.iops;
	g->end_s = (ssd_dev_time(dev) - hir0) / 1e9;
	t->nseg++;
	return rc;
}

static int wsat_hir(struct ssd_scn *s, struct pts *t)
{
	struct ssd_dev *dev = ssd_scn_drive(s, NULL, 0); /* purge */
	if (!dev)
		return SSD_EINVAL;
	/* the series starts with the purged drive: at 0, or a snapshot's
	 * time */
	t->wsat_ser.t0 = ssd_dev_time(dev);
	ssd_prog_phase(s->prog, ssd_dev_time(dev), "write saturation%s",
		       t->side ? " (and beside it the other tests)" : "");
	struct ssd_run_result res;
	struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
	if (b) {
		struct ssd_job *j = ssd_scn_job(b, "wsat", SSD_RW_RANDWRITE,
						4096, (uint32_t)t->qd);
		j->norandommap = 1;
		j->io_size = t->wsat;
		j->runtime = t->wsat_time; /* whichever comes first */
		j->randseed = seed_of(s, 4, 0, 0);
		j->has_randseed = 1;
	}
	int rc = ssd_scn_run(s, dev, b, &t->wsat_ser, &res);
	if (rc) {
		ssd_dev_destroy(dev);
		return rc;
	}
	const struct ssd_job_result *j = &res.jobs[0];
	t->wsat_gb = (double)j->dir[SSD_DDIR_WRITE].bytes / 1e9;
	t->wsat_timed = j->dir[SSD_DDIR_WRITE].bytes < t->wsat && t->wsat_time > 0 &&
			j->runtime_ns >= t->wsat_time;
	t->wsat_s = res.sim_ns / 1e9;
	t->wsat_waf = ssd_counters_waf(&j->ctr);
	ssd_run_result_free(&res);
	/* the last point is partial (the run ends inside it): leave it out */
	t->wsat_n = t->wsat_ser.n > 1 ? t->wsat_ser.n - 1 : t->wsat_ser.n;
	uint32_t n = t->wsat_n, tail = n < 5 ? n : 5;
	t->wsat_fob = n ? ssd_series_iops(&t->wsat_ser, 0, SSD_DDIR_WRITE) : 0;
	for (uint32_t i = n - tail; i < n; i++)
		t->wsat_end += ssd_series_iops(&t->wsat_ser, i, SSD_DDIR_WRITE) / tail;

	/* host idle recovery on the saturated drive */
	int64_t hir0 = ssd_dev_time(dev);
	int idx = 0;
	ssd_prog_phase(s->prog, hir0, "host idle recovery");
	rc = hir_writes(s, dev, t, t->hir_base, 0, 0, hir0, idx++);
	t->hir_base_iops = t->seg[0].iops;
	for (int w = 0; w < t->nidle && !rc; w++) {
		double sum = 0;
		for (int k = 0; k < t->hir_reps && !rc; k++) {
			ssd_dev_idle(dev, ssd_dev_time(dev) + t->idle[w]);
			rc = hir_writes(s, dev, t, t->hir_write, 1, w, hir0, idx++);
			sum += t->seg[t->nseg - 1].iops;
		}
		t->hir_wait_iops[w] = sum / t->hir_reps;
		if (!rc)
			rc = hir_writes(s, dev, t, t->hir_base, 2, w, hir0, idx++);
		t->hir_return_iops[w] = t->seg[t->nseg - 1].iops;
	}
	t->hir_s = (ssd_dev_time(dev) - hir0) / 1e9;
	ssd_dev_destroy(dev);
	return rc;
}

/* The IOPS, throughput and latency tests: each from its own purged
 * drive, so they may run beside WSAT and HIR (on a thread of their own,
 * without a status line), their results the same. */
struct side {
	struct ssd_scn s; /* a copy: its own error message, no progress */
	struct pts *t;
	int rc;
};

static void *side_tests(void *arg)
{
	struct side *x = arg;
	ssd_prog_phase(x->s.prog, 0, "IOPS, throughput and latency tests");
	if (!(x->rc = iops_test(&x->s, x->t)) && !(x->rc = tp_test(&x->s, x->t)))
		x->rc = lat_test(&x->s, x->t);
	return NULL;
}

/* Every test.  With a second core to run on (taskset), and memory for a second
 * drive, the three tests run on a thread while this one runs WSAT and
 * HIR (about three quarters of the work on a 256 GB drive); the sum of
 * the simulated times is taken in the order of a run on one thread. */
static int all_tests(struct ssd_scn *s, struct pts *t)
{
	char err[8];
	struct ssd_mem m;
	struct side x = {.s = *s, .t = t};
	pthread_t th;
	cpu_set_t cpus;
	int par = !sched_getaffinity(0, sizeof cpus, &cpus) &&
		  CPU_COUNT(&cpus) > 1 &&
		  !ssd_dev_mem_check(&s->cfg, 0, ssd_dev_mem(&s->cfg, 0, &m), err,
				     sizeof err);
	if (par) {
		x.s.prog = NULL;
		par = !pthread_create(&th, NULL, side_tests, &x);
		x.s.prog = par ? NULL : s->prog;
	}
	t->side = par;
	if (!par)
		side_tests(&x);
	int rc = x.rc ? 0 : wsat_hir(s, t);
	if (par)
		pthread_join(th, NULL);
	if (x.rc) {
		memcpy(s->err, x.s.err, sizeof s->err);
		return x.rc;
	}
	t->sim_s += t->wsat_s;
	t->sim_s += t->hir_s;
	return rc;
}

/* ---- output ---- */

static int close_file(struct ssd_scn *s, FILE *f, const char *name)
{
	(void)name; /* the message names the file */
	return ssd_scn_close(s, f);
}

static int write_iops(struct ssd_scn *s, const struct pts *t)
{
	char lb[16];
	FILE *f = ssd_scn_file(s, "pts-iops.csv");
	if (!f)
		return SSD_EIO;
	fprintf(f, "bs_kib");
	for (int m = 0; m < NMIX; m++)
		fprintf(f, ",rw_%d_%d", iops_read[m], 100 - iops_read[m]);
	fputc('\n', f);
	for (int b = 0; b < NBS; b++) {
		fprintf(f, "%s", bs_label(iops_bs[b], lb, sizeof lb));
		for (int m = 0; m < NMIX; m++)
			fprintf(f, ",%.1f", t->iops_table[b][m]);
		fputc('\n', f);
	}
	int rc = close_file(s, f, "pts-iops.csv");
	if (rc || !(f = ssd_scn_file(s, "pts-iops-rounds.csv")))
		return rc ? rc : SSD_EIO;
	fprintf(f, "round,read_pct,bs_kib,iops,mbps\n");
	for (int r = 0; r < t->iops_ss.n; r++)
		for (int m = NMIX - 1; m >= 0; m--)
			for (int b = NBS - 1; b >= 0; b--)
				fprintf(f, "%d,%d,%s,%.1f,%.2f\n", r + 1, iops_read[m],
					bs_label(iops_bs[b], lb, sizeof lb),
					t->iops[IX(r, m, b, NMIX, NBS)],
					t->iops_mbps[IX(r, m, b, NMIX, NBS)]);
	if ((rc = close_file(s, f, "pts-iops-rounds.csv")))
		return rc;
	if (!(f = ssd_scn_file(s, "pts-iops-ss.csv")))
		return SSD_EIO;
	fprintf(f, "round,iops_4k_write\n");
	for (int r = 0; r < t->iops_ss.n; r++)
		fprintf(f, "%d,%.1f\n", r + 1, t->iops_track[r]);
	if ((rc = close_file(s, f, "pts-iops-ss.csv")))
		return rc;

	/* the IOPS table: a line per R/W mix against block size */
	static const char *color[NMIX] = {"#d62728", "#ff7f0e", "#bcbd22", "#2ca02c",
					  "#17becf", "#1f77b4", "#9467bd"};
	char body[4096];
	int n = snprintf(body, sizeof body,
			 "set logscale x 2\nset logscale y 10\n"
			 "set xtics ('0.5' 0.5, '4' 4, '8' 8, '16' 16, '32' 32, '64' 64, "
			 "'128' 128, '1024' 1024)\n"
			 "set xlabel 'block size, KiB (random, QD%d)'\n"
			 "set ylabel 'IOPS (steady-state window mean)'\nset format y '%%.0s%%c'\n"
			 "plot ", t->qd);
	for (int m = 0; m < NMIX && n > 0 && (size_t)n < sizeof body; m++)
		n += snprintf(body + n, sizeof body - (size_t)n,
			      "%s'pts-iops.csv' skip 1 using 1:%d with linespoints lw 2 pt 7 "
			      "ps 0.7 lc rgb '%s' title 'R/W %d/%d'",
			      m ? ", \\\n     " : "", m + 2, color[m], iops_read[m],
			      100 - iops_read[m]);
	if ((rc = ssd_scn_plot(s, "pts-iops", "SNIA PTS IOPS test: block size x R/W mix", body)))
		return rc;

	/* the steady-state convergence of the tracking variable */
	const struct ss *ss = &t->iops_ss;
	int w0 = ss_w0(ss);
	double mean = 0;
	for (int r = w0; r < ss->n; r++)
		mean += t->iops_track[r] / (ss->n - w0);
	snprintf(body, sizeof body,
		 "set xlabel 'round'\nset ylabel '4 KiB 100%% write IOPS'\nset yrange [0:*]\n"
		 "set xrange [0.5:%d.5]\nset xtics 1\n"
		 "set arrow 1 from %d.5, %g to %d.5, %g nohead lw 2 lc rgb 'black'\n"
		 "set arrow 2 from %d.5, %g to %d.5, %g nohead dt 2 lc rgb 'gray40'\n"
		 "set arrow 3 from %d.5, %g to %d.5, %g nohead dt 2 lc rgb 'gray40'\n"
		 "set label 1 'measurement window mean, +-10%%' at %d.5, %g offset 0,1\n"
		 "plot 'pts-iops-ss.csv' skip 1 using 1:2 with linespoints lw 2 pt 7 "
		 "lc rgb '#1f5fbf' title 'tracking variable per round'",
		 ss->n, w0, mean, ss->n, mean, w0, 1.1 * mean, ss->n, 1.1 * mean,
		 w0, 0.9 * mean, ss->n, 0.9 * mean, w0, 1.1 * mean);
	return ssd_scn_plot(s, "pts-iops-ss", "SNIA PTS IOPS test: steady state", body);
}

static int write_tp_lat(struct ssd_scn *s, const struct pts *t)
{
	char lb[16];
	FILE *f = ssd_scn_file(s, "pts-throughput.csv");
	if (!f)
		return SSD_EIO;
	fprintf(f, "bs_kib,round,write_mbps,read_mbps\n");
	for (int i = 0; i < NTP; i++)
		for (int r = 0; r < t->tp_ss[i].n; r++)
			fprintf(f, "%u,%d,%.2f,%.2f\n", tp_bs[i] / 1024, r + 1,
				t->tp_w[i][r], t->tp_r[i][r]);
	int rc = close_file(s, f, "pts-throughput.csv");
	if (rc || !(f = ssd_scn_file(s, "pts-latency.csv")))
		return rc ? rc : SSD_EIO;
	fprintf(f, "bs_kib,read_pct,mean_us,max_us\n");
	for (int b = 0; b < LBS; b++)
		for (int m = 0; m < LMIX; m++)
			fprintf(f, "%s,%d,%.2f,%.2f\n", bs_label(lat_bs[b], lb, sizeof lb),
				lat_read[m], t->lat_tmean[b][m], t->lat_tmax[b][m]);
	return close_file(s, f, "pts-latency.csv");
}

static int write_wsat_hir(struct ssd_scn *s, const struct pts *t)
{
	FILE *f = ssd_scn_file(s, "pts-wsat.csv");
	if (!f)
		return SSD_EIO;
	fprintf(f, "time_s,gb_written,iops\n");
	double gb = 0;
	for (uint32_t i = 0; i < t->wsat_n; i++) {
		gb += (double)t->wsat_ser.pt[i].bytes[SSD_DDIR_WRITE] / 1e9;
		fprintf(f, "%.3f,%.4f,%.1f\n", (double)(i + 1) * t->wsat_step / 1e9, gb,
			ssd_series_iops(&t->wsat_ser, i, SSD_DDIR_WRITE));
	}
	int rc = close_file(s, f, "pts-wsat.csv");
	if (rc)
		return rc;
	char body[2048];
	snprintf(body, sizeof body,
		 "set xlabel 'time, s'\nset ylabel 'IOPS (4 KiB random write, QD%d)'\n"
		 "set yrange [0:*]\n"
		 "plot 'pts-wsat.csv' skip 1 using 1:3 with lines lw 1.5 "
		 "lc rgb '#1f5fbf' title 'IOPS every %g s from purge'",
		 t->qd, t->wsat_step / 1e9);
	if ((rc = ssd_scn_plot(s, "pts-wsat", "SNIA PTS write saturation", body)))
		return rc;
	char cap[32];
	ssd_fmt_bytes(ssd_config_volume(&s->cfg), cap, sizeof cap);
	snprintf(body, sizeof body,
		 "set xlabel 'total data written, GB (drive capacity %s)'\n"
		 "set ylabel 'IOPS (4 KiB random write, QD%d)'\nset yrange [0:*]\n"
		 "set arrow 1 from %g, graph 0 to %g, graph 1 nohead dt 2 lc rgb 'gray40'\n"
		 "plot 'pts-wsat.csv' skip 1 using 2:3 with lines lw 1.5 "
		 "lc rgb '#1f5fbf' title 'IOPS against data written (dashed: one capacity)'",
		 cap, t->qd, ssd_config_volume(&s->cfg) / 1e9, ssd_config_volume(&s->cfg) / 1e9);
	if ((rc = ssd_scn_plot(s, "pts-wsat-tgbw", "SNIA PTS write saturation", body)))
		return rc;

	static const char *kinds[] = {"baseline", "write", "return"};
	if (!(f = ssd_scn_file(s, "pts-hir.csv")))
		return SSD_EIO;
	fprintf(f, "segment,kind,idle_s,start_s,end_s,iops\n");
	for (int i = 0; i < t->nseg; i++) {
		const struct hir_seg *g = &t->seg[i];
		fprintf(f, "%d,%s,%g,%.3f,%.3f,%.1f\n", i, kinds[g->kind],
			g->kind == 1 ? t->idle[g->wait] / 1e9 : 0.0, g->start_s,
			g->end_s, g->iops);
	}
	if ((rc = close_file(s, f, "pts-hir.csv")))
		return rc;
	/* a label above each wait state's group of segments */
	char labels[1024] = "";
	int n = 0;
	for (int w = 0, i = 0; w < t->nidle && i < t->nseg; w++) {
		while (i < t->nseg && !(t->seg[i].kind == 1 && t->seg[i].wait == w))
			i++;
		if (i < t->nseg && n >= 0 && (size_t)n < sizeof labels)
			n += snprintf(labels + n, sizeof labels - (size_t)n,
				      "set label %d 'idle %g s' at %g, graph 0.97 font ',9'\n",
				      w + 1, t->idle[w] / 1e9, t->seg[i].start_s);
	}
	snprintf(body, sizeof body,
		 "set xlabel 'time from the start of the test, s'\n"
		 "set ylabel 'IOPS (4 KiB random write, QD%d)'\nset yrange [0:*]\n%s"
		 "set arrow 100 from graph 0, first %g to graph 1, first %g nohead dt 2 lc rgb 'black'\n"
		 "plot 'pts-hir.csv' skip 1 using 4:(strcol(2) eq 'write' ? $6 : 1/0):($5 - $4):(0) "
		 "with vectors nohead lw 5 lc rgb '#d95f02' title '%g s write segments after idle', \\\n"
		 "     '' skip 1 using 4:(strcol(2) ne 'write' ? $6 : 1/0):($5 - $4):(0) with vectors "
		 "nohead lw 5 lc rgb '#1f5fbf' title 'continuous writes (baseline, return); dashed: baseline'",
		 t->qd, labels, t->hir_base_iops, t->hir_base_iops, t->hir_write / 1e9);
	return ssd_scn_plot(s, "pts-hir", "SNIA PTS host idle recovery", body);
}

static void write_json(struct ssd_scn *s, const struct pts *t)
{
	char lb[16], key[32];
	ssd_scn_json_open(s, "iops", 0);
	ss_json(s, &t->iops_ss);
	ssd_scn_json_num(s, "tracking_iops", t->iops_ss.mean);
	ssd_scn_json_num(s, "host_gb_written", t->iops_written / 1e9);
	ssd_scn_json_open(s, "table", 0);
	for (int b = 0; b < NBS; b++) {
		snprintf(key, sizeof key, "%sk", bs_label(iops_bs[b], lb, sizeof lb));
		ssd_scn_json_open(s, key, 0);
		for (int m = 0; m < NMIX; m++) {
			snprintf(key, sizeof key, "%d/%d", iops_read[m], 100 - iops_read[m]);
			ssd_scn_json_num(s, key, t->iops_table[b][m]);
		}
		ssd_scn_json_close(s, 0);
	}
	ssd_scn_json_close(s, 0);
	ssd_scn_json_close(s, 0);

	ssd_scn_json_open(s, "throughput", 0);
	for (int i = 0; i < NTP; i++) {
		snprintf(key, sizeof key, "%uk", tp_bs[i] / 1024);
		ssd_scn_json_open(s, key, 0);
		ss_json(s, &t->tp_ss[i]);
		ssd_scn_json_num(s, "write_mbps", t->tp_write[i]);
		ssd_scn_json_num(s, "read_mbps", t->tp_read[i]);
		ssd_scn_json_close(s, 0);
	}
	ssd_scn_json_close(s, 0);

	ssd_scn_json_open(s, "latency", 0);
	ss_json(s, &t->lat_ss);
	ssd_scn_json_open(s, "table", 0);
	for (int b = 0; b < LBS; b++) {
		snprintf(key, sizeof key, "%sk", bs_label(lat_bs[b], lb, sizeof lb));
		ssd_scn_json_open(s, key, 0);
		for (int m = 0; m < LMIX; m++) {
			snprintf(key, sizeof key, "%d/%d", lat_read[m], 100 - lat_read[m]);
			ssd_scn_json_open(s, key, 0);
			ssd_scn_json_num(s, "mean_us", t->lat_tmean[b][m]);
			ssd_scn_json_num(s, "max_us", t->lat_tmax[b][m]);
			ssd_scn_json_close(s, 0);
		}
		ssd_scn_json_close(s, 0);
	}
	ssd_scn_json_close(s, 0);
	ssd_scn_json_close(s, 0);

	ssd_scn_json_open(s, "write_saturation", 0);
	ssd_scn_json_num(s, "fob_iops", t->wsat_fob);
	ssd_scn_json_num(s, "final_iops", t->wsat_end);
	ssd_scn_json_num(s, "gb_written", t->wsat_gb);
	ssd_scn_json_num(s, "seconds", t->wsat_s);
	ssd_scn_json_num(s, "waf", t->wsat_waf);
	ssd_scn_json_str(s, "ended_by", t->wsat_timed ? "wsat_time" : "wsat");
	ssd_scn_json_close(s, 0);

	ssd_scn_json_open(s, "host_idle_recovery", 0);
	ssd_scn_json_num(s, "baseline_iops", t->hir_base_iops);
	ssd_scn_json_open(s, "wait_states", 1);
	for (int w = 0; w < t->nidle; w++) {
		ssd_scn_json_open(s, NULL, 0);
		ssd_scn_json_num(s, "idle_s", t->idle[w] / 1e9);
		ssd_scn_json_num(s, "iops", t->hir_wait_iops[w]);
		ssd_scn_json_num(s, "vs_baseline", t->hir_base_iops > 0
				 ? t->hir_wait_iops[w] / t->hir_base_iops : 0);
		ssd_scn_json_num(s, "return_iops", t->hir_return_iops[w]);
		ssd_scn_json_close(s, 0);
	}
	ssd_scn_json_close(s, 1);
	ssd_scn_json_close(s, 0);
	ssd_scn_json_num(s, "simulated_seconds", t->sim_s);
}

static void write_summary(struct ssd_scn *s, const struct pts *t)
{
	FILE *o = s->out;
	char lb[16], txt[256];
	double cap = (double)ssd_config_volume(&s->cfg);
	fprintf(o, "snia-pts on %s: SNIA PTS-E tests, shortened (points of %g s, "
		"WIPC %.0f%% of capacity)\n", s->cfg.name, t->point / 1e9,
		100 * (double)t->wipc / cap);
	ss_text(txt, sizeof txt, &t->iops_ss);
	fprintf(o, "  IOPS test       %s\n", txt);
	fprintf(o, "                  tracking (4 KiB write) %.0f IOPS; %s written "
		"per round (%.1f%% of capacity)\n", t->iops_ss.mean,
		ssd_fmt_bytes((uint64_t)(t->iops_written / t->iops_ss.n + 0.5), lb,
			      sizeof lb),
		100 * t->iops_written / t->iops_ss.n / cap);
	int w0 = ss_w0(&t->iops_ss);
	fprintf(o, "  IOPS, mean of rounds %d-%d, random, QD%d (rows block size KiB, "
		"columns R/W %%)\n", w0 + 1, t->iops_ss.n, t->qd);
	fprintf(o, "    %6s", "bs");
	for (int m = 0; m < NMIX; m++) {
		snprintf(txt, sizeof txt, "%d/%d", iops_read[m], 100 - iops_read[m]);
		fprintf(o, " %8s", txt);
	}
	fputc('\n', o);
	for (int b = 0; b < NBS; b++) {
		fprintf(o, "    %6s", bs_label(iops_bs[b], lb, sizeof lb));
		for (int m = 0; m < NMIX; m++)
			fprintf(o, " %8.0f", t->iops_table[b][m]);
		fputc('\n', o);
	}
	fprintf(o, "  throughput      sequential, QD%d, MB/s (steady-state window mean)\n",
		t->qd);
	for (int i = 0; i < NTP; i++) {
		ss_text(txt, sizeof txt, &t->tp_ss[i]);
		fprintf(o, "    %4u KiB      write %7.1f  read %7.1f  %s\n", tp_bs[i] / 1024,
			t->tp_write[i], t->tp_read[i], txt);
	}
	ss_text(txt, sizeof txt, &t->lat_ss);
	fprintf(o, "  latency         random, QD1, mean / max us; %s\n", txt);
	fprintf(o, "    %6s", "bs");
	for (int m = 0; m < LMIX; m++) {
		snprintf(txt, sizeof txt, "%d/%d", lat_read[m], 100 - lat_read[m]);
		fprintf(o, " %18s", txt);
	}
	fputc('\n', o);
	for (int b = 0; b < LBS; b++) {
		fprintf(o, "    %6s", bs_label(lat_bs[b], lb, sizeof lb));
		for (int m = 0; m < LMIX; m++) {
			snprintf(txt, sizeof txt, "%.1f / %.0f", t->lat_tmean[b][m],
				 t->lat_tmax[b][m]);
			fprintf(o, " %18s", txt);
		}
		fputc('\n', o);
	}
	fprintf(o, "  write saturation 4 KiB random writes, QD%d, from purge: %s in "
		"%.0f s%s, %.0f IOPS first %g s, %.0f IOPS last %u points, WAF %.2f\n",
		t->qd, ssd_fmt_bytes((uint64_t)(t->wsat_gb * 1e9 + 0.5), lb, sizeof lb), t->wsat_s,
		t->wsat_timed ? " (wsat_time's limit)" : "", t->wsat_fob, t->wsat_step / 1e9, t->wsat_end,
		t->wsat_n < 5 ? t->wsat_n : 5, t->wsat_waf);
	fprintf(o, "  host idle recovery baseline %.0f IOPS; %g s writes x %d after idle:\n",
		t->hir_base_iops, t->hir_write / 1e9, t->hir_reps);
	for (int w = 0; w < t->nidle; w++)
		fprintf(o, "    idle %5g s   %8.0f IOPS (%+.0f%% vs baseline), then %.0f IOPS "
			"continuous\n", t->idle[w] / 1e9, t->hir_wait_iops[w],
			t->hir_base_iops > 0
				? 100 * (t->hir_wait_iops[w] / t->hir_base_iops - 1) : 0,
			t->hir_return_iops[w]);
	fprintf(o, "  simulated time  %.0f s in all\n", t->sim_s);
	fprintf(o, "  data and plots  %s/pts-*.{csv,png,svg}\n", s->outdir);
}

/* ---- the run ---- */

static int parse_idle(struct ssd_scn *s, struct pts *t)
{
	char buf[128];
	snprintf(buf, sizeof buf, "%s", ssd_scn_str(s, "hir_idle"));
	t->nidle = 0;
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int64_t v;
		if (t->nidle == MAX_IDLE || ssd_parse_time(ssd_strtrim(tok), SSD_S, &v) ||
		    v < 0) {
			snprintf(s->err, sizeof s->err, "snia-pts: parameter 'hir_idle': "
				 "'%s' is not a list of up to %d times (e.g. 5,10,15,25,50)",
				 ssd_scn_str(s, "hir_idle"), MAX_IDLE);
			return SSD_EPARSE;
		}
		t->idle[t->nidle++] = v;
	}
	if (!t->nidle) {
		snprintf(s->err, sizeof s->err, "snia-pts: parameter 'hir_idle' is empty");
		return SSD_EPARSE;
	}
	return 0;
}

static void pts_free(struct pts *t)
{
	free(t->iops);
	free(t->iops_mbps);
	free(t->iops_track);
	for (int i = 0; i < NTP; i++) {
		free(t->tp_w[i]);
		free(t->tp_r[i]);
	}
	free(t->lat_mean);
	free(t->lat_max);
	free(t->lat_track);
	free(t->seg);
	ssd_series_free(&t->wsat_ser);
	free(t);
}

static int run(struct ssd_scn *s)
{
	struct pts *t = calloc(1, sizeof *t);
	if (!t)
		return SSD_ENOMEM;
	t->qd = (int)ssd_scn_int(s, "iodepth");
	t->max_rounds = (int)ssd_scn_int(s, "rounds");
	t->wipc = ssd_scn_size(s, "wipc", 128 * 1024);
	t->wsat = ssd_scn_size(s, "wsat", 4096);
	t->point = ssd_scn_time(s, "point");
	t->tp_point = ssd_scn_time(s, "tp_point");
	t->lat_point = ssd_scn_time(s, "lat_point");
	t->wsat_step = ssd_scn_time(s, "wsat_interval");
	t->wsat_time = ssd_scn_time(s, "wsat_time");
	t->hir_write = ssd_scn_time(s, "hir_write");
	t->hir_base = ssd_scn_time(s, "hir_baseline");
	t->hir_reps = (int)ssd_scn_int(s, "hir_reps");
	int rc = parse_idle(s, t);
	if (rc)
		goto out;
	const char *bad = NULL;
	if (!t->wsat)
		bad = "wsat must be at least 4k";
	else if (t->point <= 0)
		bad = "point must be more than 0";
	else if (t->tp_point <= 0)
		bad = "tp_point must be more than 0";
	else if (t->lat_point <= 0)
		bad = "lat_point must be more than 0";
	else if (t->wsat_step <= 0)
		bad = "wsat_interval must be more than 0";
	else if (t->hir_write <= 0)
		bad = "hir_write must be more than 0";
	else if (t->hir_base <= 0)
		bad = "hir_baseline must be more than 0";
	if (bad) {
		snprintf(s->err, sizeof s->err, "snia-pts: %s", bad);
		rc = SSD_ERANGE;
		goto out;
	}
	size_t R = (size_t)t->max_rounds;
	t->iops = calloc(R * NMIX * NBS, sizeof *t->iops);
	t->iops_mbps = calloc(R * NMIX * NBS, sizeof *t->iops_mbps);
	t->iops_track = calloc(R, sizeof *t->iops_track);
	t->lat_mean = calloc(R * LMIX * LBS, sizeof *t->lat_mean);
	t->lat_max = calloc(R * LMIX * LBS, sizeof *t->lat_max);
	t->lat_track = calloc(R, sizeof *t->lat_track);
	t->seg = calloc((size_t)(1 + t->nidle * (t->hir_reps + 1)), sizeof *t->seg);
	int ok = t->iops && t->iops_mbps && t->iops_track && t->lat_mean &&
		 t->lat_max && t->lat_track && t->seg;
	for (int i = 0; i < NTP; i++) {
		t->tp_w[i] = calloc(R, sizeof *t->tp_w[i]);
		t->tp_r[i] = calloc(R, sizeof *t->tp_r[i]);
		ok = ok && t->tp_w[i] && t->tp_r[i];
	}
	if (!ok) {
		rc = SSD_ENOMEM;
		goto out;
	}
	ssd_series_init(&t->wsat_ser, 0, t->wsat_step);
	if ((rc = all_tests(s, t)))
		goto out;
	if ((rc = write_iops(s, t)) || (rc = write_tp_lat(s, t)) ||
	    (rc = write_wsat_hir(s, t)))
		goto out;
	write_json(s, t);
	write_summary(s, t);
out:
	pts_free(t);
	return rc;
}

const struct ssd_scenario ssd_scn_snia_pts = {
	.name = "snia-pts",
	.summary = "SNIA PTS-E, shortened: purge, preconditioning, IOPS test (block "
		   "size x R/W mix) to steady state, throughput, latency, write "
		   "saturation, host idle recovery",
	.params = params,
	.run = run,
};
