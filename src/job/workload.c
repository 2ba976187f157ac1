/*
 * workload.c -- the I/O stream of one job instance.
 *
 * A generator answers "what next?" with (direction, offset, length) until
 * the job's byte budget is spent (checked before each I/O, as fio does, so
 * with bssplit or bsrange the last I/O may end a little past io_size), or
 * number_ios I/Os are issued, and does so `loops` times.  It owns nothing
 * but a little state: the random stream, a position per direction, the
 * current pass of the random map.  Memory is O(1) in the size of the
 * region; no call allocates.
 *
 * Directions.  Each I/O is a read, write or trim by the pattern (mixed
 * jobs: a read with probability rwmixread %).  Each direction has its own
 * block sizes, alignment, sequential position, share of random I/O and
 * zones, as fio keeps them (bs=R,W,T and the like).  trimwrite issues a
 * trim and then a write of the same block; the write is what io_size and
 * number_ios count.
 *
 * Lengths.  One size; or drawn from bssplit by weight; or from bsrange
 * as fio draws it: MIN + floor(u * MAX), rounded down to a multiple of
 * MIN (bs_unaligned: of 512 B), at most MAX.
 *
 * Sequential offsets.  The region is [start, start+size).  A direction's
 * next I/O starts where its last one ended, plus the rw=PATTERN:N hole
 * (fio adds it whenever the position is not the region's start).  Going
 * forward past the end ends the pass: a plain walk wraps to the start
 * (the I/O that would cross the end is shortened); a walk with holes
 * wraps only when the job goes on past one pass (time_based, or io_size
 * given), otherwise the loop ends there, as in fio.  Going backwards past
 * the start continues at size + N, as fio does.
 *
 * Random offsets.  In a random job an I/O is random when it starts a
 * group of rw=PATTERN:N I/Os (every I/O by default) and a draw of
 * percentage_random says so; the others of a group continue sequentially
 * (or repeat the last offset, rw_sequencer=identical), and so do the
 * non-random ones -- a sequential step off the region's end takes a
 * random offset instead.  Random positions are multiples of blockalign
 * (default: the direction's smallest block), and the I/O stays inside
 * the region:
 *
 *   uniform + random map  every block once per pass: block = P_pass(i) for
 *                         i = 0..n-1, P a keyed bijection on [0, n) (below)
 *                         re-keyed each pass; only with one block size
 *                         and blockalign equal to it;
 *   uniform, no map       position = uniform draw with replacement
 *                         (norandommap, several block sizes, blockalign);
 *   zipf, pareto, normal  a popularity rank r drawn from the
 *                         distribution, unit = S(r) with S a bijection
 *                         keyed once per generator, so the hot blocks are
 *                         scattered over the region instead of sitting
 *                         at its start (fio hashes the rank for the same
 *                         reason); with a center c the most popular
 *                         rank (0; n/2 for normal) lands at c * n:
 *                         unit = S(r) - S(top) + c*n (mod n), as in fio;
 *   zoned, zoned_abs      zone by its access share, then uniform inside it.
 *
 * The keyed bijection.  On [0, 2^k) with 2^k the power of two at or above
 * n, four rounds of: add a key, multiply by an odd key, xor-shift right
 * by about k/2 -- each step is invertible modulo 2^k, so the whole is a
 * permutation; the multiply carries low bits up, the shift carries high
 * bits down.  (Three rounds leave a measurable correlation between
 * consecutive outputs; four pass a pair-frequency chi-square test.)
 * Values >= n are walked through P again ("cycle walking"), which
 * restricts P to a permutation of [0, n); since 2^k < 2n the mean walk is
 * under two steps.  Cost: about 4 ns per step.
 *
 * Zipf.  P(rank k) ~ k^-theta for k = 1..n, drawn in O(1) by
 * rejection-inversion (Hoermann & Derflinger 1996): invert the integral
 * of x^-theta, round to the nearest integer and accept with a cheap test
 * that almost always passes.  No tables, any n, any theta > 0.
 *
 * Pareto.  As fio: rank = (n-1) * u^(log h / log(1-h)), u uniform [0,1).
 *
 * Normal.  rank = n/2 + sigma * z, z standard normal (Box-Muller), sigma
 * = D% of n, taken modulo n as fio does.
 *
 * Loops.  When a loop's budget is spent and loops remain, the stream
 * starts again: budgets and sequential positions from the start, the
 * random map on a new pass.
 */
#include "job/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "trace/trace.h"

enum wl_mode {
	WL_PERM,     /* uniform, each block once per pass */
	WL_UNIFORM,  /* uniform with replacement */
	WL_ZIPF,
	WL_PARETO,
	WL_NORMAL,
	WL_ZONED,
	WL_SEQUENCE  /* fixed block indices (random_distribution=sequence) */
};

/* A keyed permutation of [0, 2^k); see the essay above. */
struct wl_perm {
	uint64_t mask;      /* 2^k - 1 */
	uint64_t add[4];    /* round keys, < 2^k */
	uint64_t mul[4];    /* odd multipliers */
	unsigned shift;     /* >= 1 */
};

/* One entry of a direction's bssplit, and of its zones. */
struct wl_split {
	uint32_t cum;         /* cumulative percent */
	uint32_t bs;          /* bytes */
};
struct wl_zone {
	double cum;           /* cumulative access share */
	uint64_t lo;          /* first ba unit */
	uint64_t n;           /* ba units, >= 1 */
};

/* One direction's sizes, positions and zones.  The split and zone tables
 * are allocated only for a job that has them (sized to it), so that a
 * generator of a file costs a few hundred bytes: jobs with many files
 * (nrfiles) have one per file. */
struct wl_dir {
	uint32_t min_bs, max_bs; /* bytes; equal: one size */
	uint32_t ba;          /* random offsets are multiples of this */
	uint32_t perc_random; /* percent of random I/O (random jobs) */
	int nsplit;           /* > 1: sizes from the split */
	int nzones;
	uint64_t seq;         /* end of the last I/O, from region start */
	uint64_t last;        /* start of the last I/O */
	uint64_t rand_ios;    /* random I/Os of the direction this loop
	                         (WL_SEQUENCE: fio's io_issues) */
	struct wl_split *split; /* nsplit entries, or NULL */
	struct wl_zone *zone;   /* nzones entries, or NULL */
};

struct wl_replay;

struct ssd_wl {
	/* read on every call */
	int quick;            /* the common random stream: one direction, one
	                         block size, uniform, every I/O random
	                         (ssd_wl_next's first branch) */
	uint64_t nrand;       /* quick, WL_UNIFORM: random positions */
	struct ssd_rng rng;
	uint64_t issued;      /* bytes counted against the budget, this loop */
	uint64_t issued_all;  /* the same over all loops */
	uint64_t budget;      /* bytes per loop; UINT64_MAX = never ends */
	uint64_t ios;         /* I/Os counted this loop */
	uint64_t max_ios;     /* number_ios; 0 = no limit */
	uint32_t loops_left;  /* loops after this one */
	int pass_over;        /* a walk with holes passed the region end */
	uint64_t start;       /* region start, bytes from the drive start */
	uint64_t size;        /* region length, bytes */
	int mode;             /* enum wl_mode: offsets of random I/O */
	int random;           /* the pattern is random */
	int ddir;             /* direction when not mixed */
	int mixed;            /* 1: read with probability rwmixread % */
	uint32_t rwmixread;
	int trimwrite;        /* each trim is followed by its write */
	int tw_pending;       /* the write of the last trim is next */
	struct ssd_io tw;
	int64_t seq_add;      /* rw=PATTERN:N hole, bytes */
	int wrap;             /* a walk with holes wraps at the end */
	uint32_t seq_nr;      /* I/Os per random offset */
	uint32_t seq_left;    /* I/Os of the current group still to come */
	int identical;        /* rw_sequencer=identical */
	int unaligned;        /* bs_unaligned */
	struct wl_replay *replay; /* read_iolog: the trace replayed */

	/* WL_PERM: perm is this pass's permutation; zipf/pareto/normal: the
	 * rank scrambler */
	struct wl_perm perm;
	uint64_t unit;        /* granule of perm and ranks, bytes */
	uint64_t nunits;      /* size / unit, >= 1 */
	uint64_t pidx;        /* next index into the pass */
	uint64_t pass;        /* passes started */
	uint64_t pkey;        /* key the per-pass keys derive from */
	int centered;         /* a center was given */
	uint64_t c_shift;     /* n - S(top) + c*n, mod n */

	/* WL_ZIPF */
	double z_theta, z_n, z_hx1, z_hn, z_s;
	/* WL_PARETO */
	double p_pow;
	/* WL_NORMAL */
	double g_sigma;       /* ranks */
	/* WL_SEQUENCE: the job's block indices */
	const struct ssd_job *seqjob;

	struct wl_dir dir[SSD_DDIR_N];

	/* files and strided zones (wl_set below); NULL: one plain region */
	struct wl_set *set;
};

/* ---- keyed permutation ---- */

static void perm_init(struct wl_perm *p, uint64_t n, uint64_t key)
{
	unsigned bits = 0;
	while (bits < 64 && (1ULL << bits) < n)
		bits++;
	p->mask = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
	p->shift = bits > 1 ? (bits + 1) / 2 : 1;
	for (int i = 0; i < 4; i++) {
		key = ssd_mix64(key + 0x9e3779b97f4a7c15ULL);
		p->add[i] = key & p->mask;
		key = ssd_mix64(key + 0x9e3779b97f4a7c15ULL);
		p->mul[i] = key | 1;
	}
}

static inline uint64_t perm_step(const struct wl_perm *p, uint64_t x)
{
	const uint64_t m = p->mask;
	const unsigned s = p->shift;
	for (int i = 0; i < 4; i++) {
		x = (x + p->add[i]) & m;
		x = (x * p->mul[i]) & m;
		x ^= x >> s;
	}
	return x;
}

/* The i-th element (i < n) of the permutation of [0, n). */
static inline uint64_t perm_at(const struct wl_perm *p, uint64_t i,
			       uint64_t n)
{
	uint64_t x = i;
	do
		x = perm_step(p, x);
	while (x >= n);
	return x;
}

/* ---- zipf by rejection-inversion ---- */

/* log1p(x)/x and expm1(x)/x, accurate near 0 */
static double log1p_over(double x)
{
	return fabs(x) > 1e-8 ? log1p(x) / x
			      : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

static double expm1_over(double x)
{
	return fabs(x) > 1e-8 ? expm1(x) / x
			      : 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x));
}

/* h(x) = x^-theta, H(x) = integral_1^x h, and H's inverse */
static double zipf_h(double x, double t)
{
	return exp(-t * log(x));
}

static double zipf_H(double x, double t)
{
	double lx = log(x);
	return expm1_over((1 - t) * lx) * lx;
}

static double zipf_Hinv(double y, double t)
{
	double u = y * (1 - t);
	if (u < -1)
		u = -1;
	return exp(log1p_over(u) * y);
}

static void zipf_init(struct ssd_wl *w, double theta)
{
	double t = theta, n = (double)w->nunits;
	w->z_theta = t;
	w->z_n = n;
	w->z_hx1 = zipf_H(1.5, t) - 1;
	w->z_hn = zipf_H(n + 0.5, t);
	w->z_s = 2 - zipf_Hinv(zipf_H(2.5, t) - zipf_h(2, t), t);
}

/* A rank in [0, n): 0 is the most popular. */
static uint64_t zipf_rank(struct ssd_wl *w)
{
	const double t = w->z_theta;
	for (;;) {
		double u = w->z_hn + ssd_rng_unit(&w->rng) * (w->z_hx1 - w->z_hn);
		double x = zipf_Hinv(u, t);
		double k = floor(x + 0.5);
		if (k < 1)
			k = 1;
		else if (k > w->z_n)
			k = w->z_n;
		if (k - x <= w->z_s || u >= zipf_H(k + 0.5, t) - zipf_h(k, t))
			return (uint64_t)k - 1;
	}
}

static uint64_t pareto_rank(struct ssd_wl *w)
{
	double v = (double)(w->nunits - 1) *
		   pow(ssd_rng_unit(&w->rng), w->p_pow);
	uint64_t r = (uint64_t)v;
	return r < w->nunits ? r : w->nunits - 1;
}

/* A rank in [0, n) around n/2 with standard deviation g_sigma, wrapped
 * modulo n as fio does. */
static uint64_t normal_rank(struct ssd_wl *w)
{
	double u1 = 1.0 - ssd_rng_unit(&w->rng); /* (0, 1] */
	double u2 = ssd_rng_unit(&w->rng);
	double z = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
	double n = (double)w->nunits;
	double g = fmod(n / 2 + w->g_sigma * z, n);
	if (g < 0)
		g += n;
	uint64_t r = (uint64_t)g;
	return r < w->nunits ? r : w->nunits - 1;
}

/* The unit of a popularity rank: scattered by S, turned so that the top
 * rank lands at the center when one is given. */
static inline uint64_t rank_unit(const struct ssd_wl *w, uint64_t rank)
{
	uint64_t u = perm_at(&w->perm, rank, w->nunits);
	if (w->centered) {
		u += w->c_shift;
		if (u >= w->nunits)
			u -= w->nunits;
	}
	return u;
}

/* Byte position (from region start) p, aligned down to ba, moved back so
 * that an I/O of `len` bytes stays inside the region. */
static inline uint64_t fit(const struct ssd_wl *w, uint64_t p, uint32_t len,
			   uint32_t ba)
{
	p -= p % ba;
	if (p + len > w->size)
		p = (w->size - len) / ba * ba;
	return p;
}

static uint64_t zoned_pos(struct ssd_wl *w, const struct wl_dir *d,
			  uint32_t len)
{
	double u = ssd_rng_unit(&w->rng);
	int z = 0;
	while (u >= d->zone[z].cum)
		z++;
	uint64_t k = d->zone[z].lo + ssd_rng_below(&w->rng, d->zone[z].n);
	return fit(w, k * d->ba, len, d->ba);
}

/* ---- the generator ---- */

/* Returns 0 or SSD_ENOMEM. */
static int dir_init(struct ssd_wl *w, struct wl_dir *d,
		    const struct ssd_job *job, int ddir)
{
	d->min_bs = job->min_bs[ddir] ? job->min_bs[ddir] : job->bs[ddir];
	d->max_bs = job->max_bs[ddir] ? job->max_bs[ddir] : d->min_bs;
	if (!d->min_bs)
		d->min_bs = d->max_bs = 4096;
	d->ba = job->blockalign[ddir] ? job->blockalign[ddir] : d->min_bs;
	d->perc_random = job->perc_random[ddir];
	if (job->nbssplit[ddir] > 1) {
		uint32_t cum = 0;
		if (!d->split) /* kept across a strided zone's new setup */
			d->split = calloc((size_t)job->nbssplit[ddir],
					  sizeof *d->split);
		if (!d->split)
			return SSD_ENOMEM;
		for (int i = 0; i < job->nbssplit[ddir]; i++) {
			const struct ssd_bssplit *b = &job->bssplit[ddir][i];
			if (!b->pct)
				continue;
			cum += b->pct;
			d->split[d->nsplit].cum = cum;
			d->split[d->nsplit].bs = b->bs;
			d->nsplit++;
		}
		if (d->nsplit)
			d->split[d->nsplit - 1].cum = 100; /* guard the end */
	}

	/* zones in units of ba, from the region's start */
	if (job->dist != SSD_DIST_ZONED && job->dist != SSD_DIST_ZONED_ABS)
		return 0;
	int abs = job->dist == SSD_DIST_ZONED_ABS;
	if (!d->zone)
		d->zone = calloc((size_t)(job->nzones[ddir] ? job->nzones[ddir]
							   : 1),
				 sizeof *d->zone);
	if (!d->zone)
		return SSD_ENOMEM;
	uint64_t n = w->size / d->ba;
	if (!n)
		n = 1;
	double acc = 0, total = 0, sz = 0;
	uint64_t bytes = 0;
	for (int i = 0; i < job->nzones[ddir]; i++)
		total += job->zones[ddir][i].access_pct;
	for (int i = 0; i < job->nzones[ddir]; i++) {
		const struct ssd_zone *z = &job->zones[ddir][i];
		uint64_t lo, hi;
		if (abs) {
			lo = bytes / d->ba;
			bytes += z->size_bytes;
			hi = bytes / d->ba;
		} else {
			lo = (uint64_t)(sz / 100 * (double)n);
			sz += z->size_pct;
			hi = (uint64_t)(sz / 100 * (double)n);
		}
		if (hi > n)
			hi = n;
		if (lo >= n)
			lo = n - 1;
		if (hi <= lo)
			hi = lo + 1;
		if (z->access_pct <= 0)
			continue;
		acc += z->access_pct;
		d->zone[d->nzones].cum = total > 0 ? acc / total : 1;
		d->zone[d->nzones].lo = lo;
		d->zone[d->nzones].n = hi - lo;
		d->nzones++;
	}
	if (d->nzones) {
		d->zone[d->nzones - 1].cum = 2; /* always reached */
	} else {
		d->zone[0].cum = 2;        /* no zones: the whole region */
		d->zone[0].lo = 0;
		d->zone[0].n = n;
		d->nzones = 1;
	}
	return 0;
}

/* The tables dir_init allocated, of every direction of w. */
static void wl_free_tables(struct ssd_wl *w)
{
	for (int d = 0; d < SSD_DDIR_N; d++) {
		free(w->dir[d].split);
		free(w->dir[d].zone);
		w->dir[d].split = NULL;
		w->dir[d].zone = NULL;
	}
}

/* Set up w (zeroed, but for tables a former setup allocated) as the
 * generator of one region [start, start+size) that issues `budget`
 * bytes.  Returns 0 or SSD_ENOMEM. */
static int wl_setup(struct ssd_wl *w, const struct ssd_job *job,
		     uint32_t clone, uint64_t seed, uint64_t start,
		     uint64_t size, uint64_t budget)
{
	/* Clones get distinct streams (fio mixes in the thread number). */
	ssd_rng_seed(&w->rng, seed ^ ssd_mix64(0x636c6f6e65ULL + clone));
	w->start = start;
	w->size = size;
	w->budget = budget;
	w->max_ios = job->number_ios;
	w->loops_left = job->time_based || job->loops < 1 ? 0
							  : job->loops - 1;
	w->random = ssd_rw_is_random(job->rw);
	w->seq_add = job->seq_add;
	w->wrap = job->time_based || job->io_size_set;
	w->seq_nr = job->seq_nr ? job->seq_nr : 1;
	w->identical = job->rw_sequencer == SSD_RWSEQ_IDENTICAL;
	w->unaligned = job->bs_unaligned;

	switch (job->rw) {
	case SSD_RW_READ:
	case SSD_RW_RANDREAD:
		w->ddir = SSD_DDIR_READ;
		break;
	case SSD_RW_WRITE:
	case SSD_RW_RANDWRITE:
		w->ddir = SSD_DDIR_WRITE;
		break;
	case SSD_RW_TRIMWRITE:
	case SSD_RW_RANDTRIMWRITE:
		w->trimwrite = 1;
		/* fall through */
	case SSD_RW_TRIM:
	case SSD_RW_RANDTRIM:
		w->ddir = SSD_DDIR_TRIM;
		break;
	default:
		w->ddir = SSD_DDIR_READ;
		w->mixed = 1;
		break;
	}
	w->rwmixread = job->rwmixread;

	unsigned used = ssd_rw_ddirs(job->rw);
	uint32_t unit = UINT32_MAX, maxbs = 0;
	int one_size = 1;
	for (int d = 0; d < SSD_DDIR_N; d++) {
		if (dir_init(w, &w->dir[d], job, d))
			return SSD_ENOMEM;
		const struct wl_dir *x = &w->dir[d];
		if (!(used >> d & 1))
			continue;
		if (x->ba < unit)
			unit = x->ba;
		if (x->max_bs > maxbs)
			maxbs = x->max_bs;
		if (x->min_bs != x->max_bs || x->ba != x->min_bs ||
		    x->min_bs != w->dir[__builtin_ctz(used)].min_bs)
			one_size = 0;
	}
	/* A job from the parser has size >= every block size; anything
	 * smaller gives an empty stream rather than a broken one. */
	w->unit = unit;
	w->nunits = w->size / unit;
	if (!w->nunits || w->size < maxbs) {
		w->budget = 0;
		w->loops_left = 0;
		w->nunits = 1;
	}

	uint64_t key = ssd_rng_next(&w->rng);
	double n = (double)w->nunits;
	int lfsr = job->random_generator == SSD_RANDGEN_LFSR;
	if (job->dist == SSD_DIST_ZIPF) {
		w->mode = WL_ZIPF;
		zipf_init(w, job->dist_param);
	} else if (job->dist == SSD_DIST_PARETO) {
		w->mode = WL_PARETO;
		w->p_pow = log(job->dist_param) / log(1.0 - job->dist_param);
	} else if (job->dist == SSD_DIST_NORMAL) {
		w->mode = WL_NORMAL;
		w->g_sigma = job->dist_param / 100 * n;
	} else if (job->dist == SSD_DIST_ZONED ||
		   job->dist == SSD_DIST_ZONED_ABS) {
		w->mode = WL_ZONED;
	} else if (job->dist == SSD_DIST_SEQUENCE) {
		w->mode = WL_SEQUENCE;
		w->seqjob = job;
	} else if (one_size && (!job->norandommap || lfsr) &&
		   !job->blockalign_set) {
		w->mode = WL_PERM;
		w->pkey = key;
	} else {
		w->mode = WL_UNIFORM;
	}
	if (w->mode != WL_ZONED && w->mode != WL_UNIFORM &&
	    w->mode != WL_SEQUENCE)
		perm_init(&w->perm, w->nunits, key);
	if ((w->mode == WL_ZIPF || w->mode == WL_PARETO ||
	     w->mode == WL_NORMAL) && job->dist_center >= 0) {
		uint64_t top = w->mode == WL_NORMAL ? w->nunits / 2 : 0;
		uint64_t c = (uint64_t)(job->dist_center * n) % w->nunits;
		uint64_t s_top = perm_at(&w->perm, top, w->nunits);
		w->centered = 1;
		w->c_shift = (w->nunits - s_top + c) % w->nunits;
	}
	const struct wl_dir *d = &w->dir[w->ddir];
	w->quick = w->random && !w->mixed && !w->trimwrite &&
		   w->seq_nr == 1 && d->perc_random >= 100 &&
		   d->nsplit <= 1 && d->min_bs == d->max_bs &&
		   w->size >= d->min_bs &&
		   (w->mode == WL_UNIFORM || w->mode == WL_PERM);
	if (w->quick)
		w->nrand = (w->size - d->min_bs) / d->ba + 1;
	return 0;
}

static struct ssd_wl *set_create(struct ssd_wl *w, const struct ssd_job *job,
				 uint32_t clone, uint64_t seed);
static void set_destroy(struct wl_set *s);

/* ---- a replayed trace (read_iolog) ---- */

struct wl_replay {
	const struct ssd_job *job;
	struct ssd_trace *t;
	uint64_t start, size;   /* the job's file: a file's region, or the
	                           drive (fio's offsets are in the file or
	                           device: offset= does not move them) */
	uint32_t loops_left;
	int forever;            /* time_based: again and again */
	int opened;             /* the trace is opened at the first I/O (a job
	                           before this one may write it) */
	uint64_t pass_ios;      /* requests of this pass */
	int64_t last_ts;        /* the previous request's time; -1: none */
	int64_t until;          /* a version 2 wait for the next I/O; -1 */
	int64_t waited;         /* ns: the gaps so far, every pass (checked
	                           against SSD_JOB_MAX_SPAN when no runtime
	                           ends the job) */
	char err[640];
};

static void replay_destroy(struct wl_replay *rp)
{
	if (!rp)
		return;
	ssd_trace_close(rp->t);
	free(rp);
}

static struct wl_replay *replay_create(const struct ssd_job *job, uint32_t clone)
{
	struct wl_replay *rp = calloc(1, sizeof *rp);
	if (!rp)
		return NULL;
	rp->job = job;
	rp->start = 0;
	rp->size = job->offset + job->size; /* the volume, as finish_job checks */
	if (job->nfiles && job->regions) {
		const struct ssd_job_region *g = &job->regions[(size_t)clone * job->nfiles];
		rp->start = g->start;
		rp->size = g->size;
	}
	rp->loops_left = job->loops > 1 ? job->loops - 1 : 0;
	rp->forever = job->time_based;
	rp->last_ts = -1;
	rp->until = -1;
	return rp;
}

/* The replay would wait past the span a job may have (ns, as scaled
 * by replay_time_scale): the job ends with the error.  Returns 0. */
static int replay_too_long(struct wl_replay *rp, double ns)
{
	const struct ssd_job *j = rp->job;
	snprintf(rp->err, sizeof rp->err,
		 "%s:%llu: the replay would wait %.3g years of simulated time "
		 "(a gap of the trace x 100 / replay_time_scale %u, or their sum "
		 "over every pass when no runtime ends the job; accepted: at "
		 "most %.0f years)",
		 j->read_iolog, (unsigned long long)ssd_trace_line(rp->t),
		 ns / (365.25 * 86400.0 * (double)SSD_S), j->replay_time_scale,
		 floor((double)SSD_JOB_MAX_SPAN / (365.25 * 86400.0 * (double)SSD_S)));
	return 0;
}

static int replay_next(struct wl_replay *rp, struct ssd_io *io)
{
	const struct ssd_job *j = rp->job;
	if (!rp->opened) {
		rp->opened = 1;
		char err[512];
		if (ssd_trace_open(j->read_iolog, SSD_TRACE_AUTO, &rp->t, err, sizeof err))
			snprintf(rp->err, sizeof rp->err, "%s", err); /* the job ends with it */
	}
	if (!rp->t)
		return 0;
	for (;;) {
		struct ssd_trace_rec r;
		int k = ssd_trace_next(rp->t, &r);
		if (k < 0) {
			snprintf(rp->err, sizeof rp->err, "%s", ssd_trace_error(rp->t));
			return 0;
		}
		if (!k) {
			/* a pass that issued nothing would loop forever
			 * without time passing: the trace is done */
			if ((!rp->loops_left && !rp->forever) || !rp->pass_ios)
				return 0;
			rp->pass_ios = 0;
			if (ssd_trace_rewind(rp->t)) {
				snprintf(rp->err, sizeof rp->err, "%s",
					 ssd_trace_error(rp->t));
				return 0;
			}
			if (rp->loops_left)
				rp->loops_left--;
			rp->last_ts = -1;
			continue;
		}
		if (r.op == SSD_TOP_FILE)
			continue;
		if (r.op == SSD_TOP_WAIT) {
			if (j->replay_no_stall)
				continue;
			if (r.ts > SSD_JOB_MAX_SPAN)
				return replay_too_long(rp, (double)r.ts);
			rp->until = r.ts;
			continue;
		}
		/* the gap counts from the previous record, skipped or not
		 * (fio's delay_since_ttime) */
		int64_t gap = r.ts >= 0 && rp->last_ts >= 0 && r.ts > rp->last_ts
			      ? r.ts - rp->last_ts : 0;
		if (r.ts >= 0)
			rp->last_ts = r.ts;
		if (j->replay_skip & (1u << r.op))
			continue;
		int sync = r.op == SSD_TOP_SYNC || r.op == SSD_TOP_DATASYNC;
		io->ddir = sync ? SSD_DDIR_SYNC : r.op;
		io->wait = SSD_IO_NOW;
		io->delay = 0;
		if (rp->until >= 0) {
			io->wait = SSD_IO_UNTIL;
			io->delay = rp->until;
			rp->until = -1;
		} else if (gap && !j->replay_no_stall) {
			/* the runner adds the gap to the last issue's time:
			 * one gap, and without a runtime all of them, stay
			 * within the span a job may have */
			int64_t d = gap;
			if (j->replay_time_scale != 100) {
				double s = (double)gap * 100.0 /
					   j->replay_time_scale;
				if (s > (double)SSD_JOB_MAX_SPAN)
					return replay_too_long(rp, s);
				d = (int64_t)s;
			}
			if (d > SSD_JOB_MAX_SPAN ||
			    (!j->runtime && d > SSD_JOB_MAX_SPAN - rp->waited))
				return replay_too_long(rp, (double)d +
						       (j->runtime ? 0 :
							(double)rp->waited));
			if (!j->runtime)
				rp->waited += d;
			io->wait = SSD_IO_GAP;
			io->delay = d;
		}
		rp->pass_ios++;
		if (sync) {
			io->offset = rp->start;
			io->len = 0;
			return 1;
		}
		uint64_t off = r.offset;
		if (j->replay_scale > 1)
			off /= j->replay_scale;
		if (j->replay_align)
			off &= ~((uint64_t)j->replay_align - 1);
		/* the reader refused a request of 0 bytes (trace.h) */
		if (off > rp->size || r.len > rp->size - off) {
			char b1[32];
			snprintf(rp->err, sizeof rp->err,
				 "%s:%llu: %s at offset %llu, %llu byte%s: %s (the "
				 "job's file or drive is %s; replay_scale, or ssdlab "
				 "trace convert --fold, brings a larger trace inside)",
				 j->read_iolog,
				 (unsigned long long)ssd_trace_line(rp->t),
				 r.op == SSD_TOP_READ ? "a read" : r.op == SSD_TOP_WRITE
				 ? "a write" : "a trim", (unsigned long long)off,
				 (unsigned long long)r.len, ssd_plural(r.len),
				 "beyond the job's file",
				 ssd_fmt_bytes(rp->size, b1, sizeof b1));
			return 0;
		}
		io->offset = rp->start + off;
		io->len = (uint32_t)r.len;
		return 1;
	}
}

const char *ssd_wl_error(const struct ssd_wl *w)
{
	return w->replay && w->replay->err[0] ? w->replay->err : NULL;
}

struct ssd_wl *ssd_wl_create(const struct ssd_job *job, uint32_t clone,
			     uint64_t seed)
{
	struct ssd_wl *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	if (job->read_iolog[0]) {
		if (!(w->replay = replay_create(job, clone))) {
			free(w);
			return NULL;
		}
		return w;
	}
	if (job->nfiles && job->regions)
		return set_create(w, job, clone, seed);
	if (wl_setup(w, job, clone, seed, job->offset, job->size,
		     job->time_based ? UINT64_MAX : job->io_size)) {
		ssd_wl_destroy(w);
		return NULL;
	}
	return w;
}

void ssd_wl_destroy(struct ssd_wl *w)
{
	if (!w)
		return;
	replay_destroy(w->replay);
	if (w->set)
		set_destroy(w->set);
	wl_free_tables(w);
	free(w);
}

void ssd_wl_moved(struct ssd_wl *w, const struct ssd_io *drawn,
		  const struct ssd_io *io, uint64_t skip)
{
	if (w->set || w->replay || io->ddir < 0 || io->ddir >= SSD_DDIR_N)
		return; /* zbd jobs have neither (job_zbd.c) */
	struct wl_dir *d = &w->dir[io->ddir];
	uint64_t end = io->offset + io->len + skip;
	if (io->offset >= w->start && end <= w->start + w->size) {
		d->last = io->offset - w->start;
		d->seq = end - w->start;
	} else if (end > w->start + w->size) {
		d->seq = w->size;
	}
	/* a sequential pass ends at the region's end (the zones moved it
	 * there sooner than its bytes), unless io_size or time_based asks
	 * for more */
	if (!w->random && d->seq >= w->size && !w->wrap)
		w->pass_over = 1;
	uint64_t more = io->len + skip, less = drawn->len;
	w->issued = w->issued + more >= less ? w->issued + more - less : 0;
	w->issued_all = w->issued_all + more >= less
			? w->issued_all + more - less : 0;
}

void ssd_wl_rewind(struct ssd_wl *w)
{
	w->pass_over = 0;
	w->seq_left = 0;
	for (int d = 0; d < SSD_DDIR_N; d++)
		w->dir[d].seq = w->dir[d].last = 0;
}

uint64_t ssd_wl_issued(const struct ssd_wl *w)
{
	return w->issued_all;
}

static int set_next(struct ssd_wl *w, struct ssd_io *io);

/* The next loop: budgets, positions and groups from the start, the
 * random map on a new pass. */
static void new_loop(struct ssd_wl *w)
{
	w->loops_left--;
	w->issued = 0;
	w->ios = 0;
	w->pass_over = 0;
	w->seq_left = 0;
	for (int d = 0; d < SSD_DDIR_N; d++)
		w->dir[d].seq = w->dir[d].last = w->dir[d].rand_ios = 0;
	if (w->mode == WL_PERM && w->pidx) {
		w->pidx = 0;
		w->pass++;
		perm_init(&w->perm, w->nunits, ssd_mix64(w->pkey ^ w->pass));
	}
}

static inline uint32_t draw_len(struct ssd_wl *w, const struct wl_dir *d)
{
	if (d->nsplit > 1) {
		uint32_t r = (uint32_t)ssd_rng_below(&w->rng, 100);
		int i = 0;
		while (r >= d->split[i].cum)
			i++;
		return d->split[i].bs;
	}
	if (d->min_bs == d->max_bs)
		return d->min_bs;
	/* fio's bsrange: MIN + floor(u * MAX), to a multiple of MIN */
	uint64_t len = d->min_bs + ssd_rng_below(&w->rng, d->max_bs);
	len -= len % (w->unaligned ? 512 : d->min_bs);
	return len > d->max_bs ? d->max_bs : (uint32_t)len;
}

/* random_distribution=sequence (fio's): the direction's next block of
 * the sequence, in units of its smallest block size, shifted by the
 * rounds done with random_sequence_stride; UINT64_MAX when that block
 * lies past the region's end (the pass is over). */
static uint64_t sequence_pos(struct ssd_wl *w, struct wl_dir *d, uint32_t len)
{
	const struct ssd_job *j = w->seqjob;
	uint64_t k = d->rand_ios++;
	uint64_t n = j->nsequence ? j->nsequence : 1;
	uint64_t b = j->sequence[k % n];
	if (j->sequence_stride)
		b += k / n * n;
	uint64_t pos = b * d->min_bs;
	if (b >= w->size / d->min_bs || w->size - pos < len)
		return UINT64_MAX;
	return pos;
}

/* A random position (bytes from region start) for an I/O of `len`. */
static uint64_t random_pos(struct ssd_wl *w, const struct wl_dir *d,
			   uint32_t len)
{
	switch (w->mode) {
	case WL_PERM:
		if (w->pidx == w->nunits) {
			w->pidx = 0;
			w->pass++;
			perm_init(&w->perm, w->nunits,
				  ssd_mix64(w->pkey ^ w->pass));
		}
		return perm_at(&w->perm, w->pidx++, w->nunits) * w->unit;
	case WL_UNIFORM:
		return ssd_rng_below(&w->rng, (w->size - len) / d->ba + 1) *
		       d->ba;
	case WL_ZIPF:
		return fit(w, rank_unit(w, zipf_rank(w)) * w->unit, len, d->ba);
	case WL_PARETO:
		return fit(w, rank_unit(w, pareto_rank(w)) * w->unit, len,
			   d->ba);
	case WL_NORMAL:
		return fit(w, rank_unit(w, normal_rank(w)) * w->unit, len,
			   d->ba);
	default: /* WL_ZONED */
		return zoned_pos(w, d, len);
	}
}

/* The sequential successor of direction d's last I/O, or UINT64_MAX when
 * it lies past the region's end (the pass is over). */
static inline uint64_t seq_pos(const struct ssd_wl *w, const struct wl_dir *d)
{
	uint64_t pos = d->seq;
	if (!pos || !w->seq_add)
		return pos < w->size ? pos : UINT64_MAX;
	if (w->seq_add > 0) {
		pos += (uint64_t)w->seq_add;
		return pos < w->size ? pos : UINT64_MAX;
	}
	/* backwards: past either end, continue at size + add */
	uint64_t back = (uint64_t)-w->seq_add;
	if (pos < back || pos - back >= w->size)
		return w->size - back;
	return pos - back;
}

/* Offset of a sequential I/O of direction d, or UINT64_MAX if the loop
 * ends here (a walk with holes past the end that does not wrap). */
static uint64_t next_seq(struct ssd_wl *w, struct wl_dir *d)
{
	uint64_t pos = seq_pos(w, d);
	if (pos != UINT64_MAX)
		return pos;
	if (w->random)
		return UINT64_MAX;
	if (w->seq_add > 0 && !w->wrap) {
		w->pass_over = 1;
		return UINT64_MAX;
	}
	d->seq = 0;
	return 0;
}

/* ssd_wl_next of a quick generator within its budget: what the general
 * path below does for it, without the tests that cannot hold. */
static inline void next_quick(struct ssd_wl *w, struct ssd_io *io)
{
	struct wl_dir *d = &w->dir[w->ddir];
	uint32_t len = d->min_bs;
	uint64_t pos;
	if (w->mode == WL_UNIFORM) {
		pos = ssd_rng_below(&w->rng, w->nrand) * d->ba;
	} else {
		if (w->pidx == w->nunits) {
			w->pidx = 0;
			w->pass++;
			perm_init(&w->perm, w->nunits,
				  ssd_mix64(w->pkey ^ w->pass));
		}
		pos = perm_at(&w->perm, w->pidx++, w->nunits) * w->unit;
	}
	if (len > w->size - pos)
		len = (uint32_t)(w->size - pos);
	d->last = pos;
	d->seq = pos + len;
	io->ddir = w->ddir;
	io->offset = w->start + pos;
	io->len = len;
	w->issued += len;
	w->issued_all += len;
	w->ios++;
}

int ssd_wl_next(struct ssd_wl *w, struct ssd_io *io)
{
	if (w->quick && w->issued < w->budget &&
	    (!w->max_ios || w->ios < w->max_ios)) {
		next_quick(w, io);
		return 1;
	}
	if (w->set)
		return set_next(w, io);
	if (w->replay) {
		int k = replay_next(w->replay, io);
		if (k) {
			w->issued += io->len;
			w->issued_all += io->len;
			w->ios++;
		}
		return k;
	}
	if (w->tw_pending) {
		/* trimwrite: the write of the trim just issued */
		w->tw_pending = 0;
		*io = w->tw;
		w->issued += io->len;
		w->issued_all += io->len;
		w->ios++;
		return 1;
	}
	while (w->issued >= w->budget || w->pass_over ||
	       (w->max_ios && w->ios >= w->max_ios)) {
		if (!w->loops_left)
			return 0;
		new_loop(w);
	}

	int ddir = w->ddir;
	if (w->mixed && ssd_rng_below(&w->rng, 100) >= w->rwmixread)
		ddir = SSD_DDIR_WRITE;
	struct wl_dir *d = &w->dir[ddir];
	uint32_t len = draw_len(w, d);

	uint64_t pos;
	if (!w->random) {
		pos = next_seq(w, d);
		if (pos == UINT64_MAX)
			return ssd_wl_next(w, io); /* the loop is over */
	} else {
		int group_start = !w->seq_left;
		if (group_start)
			w->seq_left = w->seq_nr - 1;
		else
			w->seq_left--;
		if (!group_start && w->identical) {
			pos = d->last;
		} else if (group_start &&
			   (d->perc_random >= 100 ||
			    ssd_rng_below(&w->rng, 100) < d->perc_random)) {
			pos = UINT64_MAX;
		} else {
			pos = next_seq(w, d);
		}
		if (pos == UINT64_MAX && w->mode == WL_SEQUENCE) {
			pos = sequence_pos(w, d, len);
			if (pos == UINT64_MAX) {
				w->pass_over = 1; /* the loop is over */
				return ssd_wl_next(w, io);
			}
		} else if (pos == UINT64_MAX) {
			pos = random_pos(w, d, len);
		}
	}
	if (len > w->size - pos)
		len = (uint32_t)(w->size - pos);
	d->last = pos;
	d->seq = pos + len;

	io->ddir = ddir;
	io->offset = w->start + pos;
	io->len = len;
	if (w->trimwrite) {
		w->tw_pending = 1;
		w->tw = *io;
		w->tw.ddir = SSD_DDIR_WRITE;
		return 1;
	}
	w->issued += len;
	w->issued_all += len;
	w->ios++;
	return 1;
}

/* ---- files and strided zones: which region each I/O goes to ----
 *
 * A job with files (or per-clone regions, or strided zones) has one
 * plain generator per region of its clone, each issuing without end;
 * this layer picks the region of each I/O and keeps the clone's byte
 * budget.  Offsets inside a file follow the job's pattern, each file
 * with its own position and random map, as fio keeps them per file.
 *
 * Picking a file, O(1) per I/O: roundrobin and sequential walk a ring of
 * the files not yet finished in this pass, random draws from an array of
 * them (removal by swapping with the last); a file is finished when it
 * has had its size, and when all are the pass starts again (O(files)
 * once per pass).  zipf, pareto and normal draw the file of every I/O
 * over all files, as fio does (file 0 the hottest; normal centred on
 * the middle file): zipf by binary search in a table of the files'
 * weights, fio's 1024 ranks per file summed; pareto and normal by fio's
 * formulas over those ranks.
 *
 * Strided zones (one region): the zone [z, z + zonerange), clipped to
 * the file's end, is the plain generator's region until zonesize bytes
 * are done in it; then z moves on by zonerange + zoneskip, back to the
 * start when no block fits before the end -- fio's zonemode=strided.
 */
#define FSRV_RANKS 1024.0 /* fio's ranks per file (FIO_FSERVICE_SHIFT) */

struct wl_set {
	const struct ssd_job *job;
	const struct ssd_job_region *reg; /* this clone's regions */
	struct ssd_wl *sub;    /* a generator per region */
	uint32_t n;            /* regions */
	int type;              /* enum ssd_fsrv */
	uint32_t nr;           /* I/Os per turn */
	uint32_t cur, turn;    /* current file, I/Os left in its turn */
	int fresh;             /* cur was just chosen: its turn starts */
	uint64_t *left;        /* bytes a file has left in this pass */
	uint32_t *next, *prev; /* ring of unfinished files */
	uint32_t *act, *pos;   /* unfinished files, and where each is */
	uint32_t nact;
	double *cdf;           /* zipf: cumulative weights of the files */
	double p_pow;          /* pareto exponent */
	uint64_t g_dev;        /* normal: deviation in ranks */
	uint32_t maxbs;
	uint64_t zone, zbytes; /* strided: zone start, bytes done in it */
	uint64_t seed;
};

static void set_destroy(struct wl_set *s)
{
	for (uint32_t i = 0; s->sub && i < s->n; i++)
		wl_free_tables(&s->sub[i]);
	free(s->sub);
	free(s->left);
	free(s->next);
	free(s->prev);
	free(s->act);
	free(s->pos);
	free(s->cdf);
	free(s);
}

/* Every file unfinished again, the first one current. */
static void set_new_pass(struct wl_set *s)
{
	for (uint32_t i = 0; i < s->n; i++) {
		s->left[i] = s->reg[i].size;
		s->next[i] = i + 1 < s->n ? i + 1 : 0;
		s->prev[i] = i ? i - 1 : s->n - 1;
		s->act[i] = s->pos[i] = i;
	}
	s->nact = s->n;
	s->cur = 0;
	s->fresh = 1;
}

/* File f has had its size in this pass: leave it out until all have. */
static void set_finish(struct wl_set *s, uint32_t f)
{
	if (s->nact == 1) {
		set_new_pass(s);
		return;
	}
	s->next[s->prev[f]] = s->next[f];
	s->prev[s->next[f]] = s->prev[f];
	uint32_t last = s->act[--s->nact];
	s->act[s->pos[f]] = last;
	s->pos[last] = s->pos[f];
	if (f == s->cur) {
		s->cur = s->next[f];
		s->fresh = 1;
	}
}

/* zipf weight of file i: its 1024 ranks' k^-theta, the first file's
 * summed exactly, the others' by the midpoint integral */
static double zipf_file_weight(uint32_t i, double t)
{
	if (i == 0) {
		double w = 0;
		for (int k = 1; k <= (int)FSRV_RANKS; k++)
			w += pow(k, -t);
		return w;
	}
	double a = i * FSRV_RANKS + 0.5, b = (i + 1) * FSRV_RANKS + 0.5;
	return (pow(b, 1 - t) - pow(a, 1 - t)) / (1 - t);
}

static uint32_t set_draw(struct wl_set *s, struct ssd_rng *rng)
{
	const double nranges = s->n * FSRV_RANKS;
	if (s->type == SSD_FSRV_ZIPF) {
		double u = ssd_rng_unit(rng) * s->cdf[s->n - 1];
		uint32_t lo = 0, hi = s->n - 1;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			if (u < s->cdf[mid])
				hi = mid;
			else
				lo = mid + 1;
		}
		return lo;
	}
	if (s->type == SSD_FSRV_PARETO) {
		double r = (nranges - 1) * pow(ssd_rng_unit(rng), s->p_pow);
		uint32_t f = (uint32_t)(r / FSRV_RANKS);
		return f < s->n ? f : s->n - 1;
	}
	/* normal: fio's mean of 12 uniform ranks, plus a uniform deviation
	 * of g_dev ranks around it */
	uint64_t nr = (uint64_t)nranges, sum = 0;
	for (int i = 0; i < 12; i++)
		sum += ssd_rng_below(rng, nr + 1);
	int64_t x = (int64_t)((sum + 11) / 12);
	if (s->g_dev) {
		int64_t dev = (int64_t)ssd_rng_below(rng, s->g_dev) -
			      (int64_t)(s->g_dev / 2);
		while (x + dev >= (int64_t)nr)
			dev /= 2;
		x += dev;
		if (x < 0)
			x = 0;
	}
	return (uint32_t)((uint64_t)x % nr / (uint64_t)FSRV_RANKS);
}

/* The file of the next I/O. */
static uint32_t set_pick(struct wl_set *s, struct ssd_rng *rng)
{
	switch (s->type) {
	case SSD_FSRV_SEQUENTIAL:
		s->fresh = 0;
		return s->cur;
	case SSD_FSRV_ROUNDROBIN:
		if (!s->fresh && s->turn) {
			s->turn--;
			return s->cur;
		}
		if (!s->fresh)
			s->cur = s->next[s->cur];
		break;
	case SSD_FSRV_RANDOM:
		if (!s->fresh && s->turn) {
			s->turn--;
			return s->cur;
		}
		s->cur = s->act[ssd_rng_below(rng, s->nact)];
		break;
	default:
		return set_draw(s, rng);
	}
	s->fresh = 0;
	s->turn = s->nr - 1;
	return s->cur;
}

/* Strided zones: move to the next zone when this one has had zonesize. */
static void set_zone_turn(struct ssd_wl *w, struct wl_set *s)
{
	const struct ssd_job *j = s->job;
	const struct ssd_job_region *r = &s->reg[0];
	if (s->zbytes < j->zonesize)
		return;
	uint64_t z = s->zone + j->zonerange + j->zoneskip;
	if (z < s->zone || z >= r->end || r->end - z < s->maxbs)
		z = r->start;
	s->zone = z;
	s->zbytes = 0;
	uint64_t len = r->end - z < j->zonerange ? r->end - z : j->zonerange;
	/* a new setup of the same job: its tables are kept (same sizes), so
	 * this allocates nothing */
	struct wl_dir keep[SSD_DDIR_N];
	memcpy(keep, s->sub[0].dir, sizeof keep);
	memset(&s->sub[0], 0, sizeof s->sub[0]);
	for (int d = 0; d < SSD_DDIR_N; d++) {
		s->sub[0].dir[d].split = keep[d].split;
		s->sub[0].dir[d].zone = keep[d].zone;
	}
	(void)wl_setup(&s->sub[0], j, 0, ssd_rng_next(&w->rng), z, len,
		       UINT64_MAX);
}

static int set_next(struct ssd_wl *w, struct ssd_io *io)
{
	struct wl_set *s = w->set;
	if (w->issued >= w->budget || (w->max_ios && w->ios >= w->max_ios)) {
		if (!w->loops_left)
			return 0;
		/* the next loop: every file from its start again */
		w->loops_left--;
		w->issued = 0;
		w->ios = 0;
		for (uint32_t i = 0; i < s->n; i++) {
			s->sub[i].loops_left = 1;
			new_loop(&s->sub[i]);
		}
		set_new_pass(s);
	}
	uint32_t f = s->n > 1 ? set_pick(s, &w->rng) : 0;
	if (s->job->zonemode == SSD_ZONEMODE_STRIDED)
		set_zone_turn(w, s);
	ssd_wl_next(&s->sub[f], io);
	w->issued += io->len;
	w->issued_all += io->len;
	w->ios++;
	s->zbytes += io->len;
	if (s->n > 1 && s->type <= SSD_FSRV_RANDOM) {
		if (io->len >= s->left[f])
			set_finish(s, f);
		else
			s->left[f] -= io->len;
	}
	return 1;
}

static struct ssd_wl *set_create(struct ssd_wl *w, const struct ssd_job *job,
				 uint32_t clone, uint64_t seed)
{
	struct wl_set *s = calloc(1, sizeof *s);
	uint32_t n = job->nfiles;
	if (!s)
		goto fail;
	w->set = s;
	s->job = job;
	s->n = n;
	s->reg = job->regions + (size_t)clone * n;
	s->type = job->file_service;
	s->nr = job->file_service_nr ? job->file_service_nr : 1;
	s->sub = calloc(n, sizeof *s->sub);
	s->left = calloc(n, sizeof *s->left);
	s->next = calloc(n, sizeof *s->next);
	s->prev = calloc(n, sizeof *s->prev);
	s->act = calloc(n, sizeof *s->act);
	s->pos = calloc(n, sizeof *s->pos);
	if (!s->sub || !s->left || !s->next || !s->prev || !s->act || !s->pos)
		goto fail;
	ssd_rng_seed(&w->rng, seed ^ ssd_mix64(0x66696c6573ULL + clone));
	w->budget = job->time_based ? UINT64_MAX
		    : job->clone_io ? job->clone_io[clone] : job->io_size;
	s->maxbs = ssd_job_max_bs(job);
	/* number_ios and loops count over the whole set, not per file */
	w->max_ios = job->number_ios;
	w->loops_left = job->time_based || job->loops < 1 ? 0 : job->loops - 1;
	for (uint32_t i = 0; i < n; i++) {
		const struct ssd_job_region *r = &s->reg[i];
		uint64_t size = r->size;
		if (job->zonemode == SSD_ZONEMODE_STRIDED) {
			s->zone = r->start;
			size = r->end - r->start < job->zonerange
				       ? r->end - r->start : job->zonerange;
		}
		if (wl_setup(&s->sub[i], job, clone,
			     ssd_mix64(seed + 0x9e3779b97f4a7c15ULL * (i + 1)),
			     r->start, size, UINT64_MAX))
			goto fail;
		s->sub[i].max_ios = 0;
		s->sub[i].loops_left = 0;
	}
	set_new_pass(s);
	if (s->type == SSD_FSRV_ZIPF && n > 1) {
		s->cdf = calloc(n, sizeof *s->cdf);
		if (!s->cdf)
			goto fail;
		double acc = 0;
		for (uint32_t i = 0; i < n; i++)
			s->cdf[i] = acc += zipf_file_weight(
				i, job->file_service_param);
	} else if (s->type == SSD_FSRV_PARETO) {
		double h = job->file_service_param;
		s->p_pow = log(h) / log(1.0 - h);
	} else if (s->type == SSD_FSRV_NORMAL) {
		double nranges = n * FSRV_RANKS;
		s->g_dev = (uint64_t)ceil(nranges * job->file_service_param /
					  100.0);
		if (s->g_dev > (uint64_t)nranges / 2)
			s->g_dev = (uint64_t)nranges / 2;
	}
	return w;
fail:
	ssd_wl_destroy(w);
	return NULL;
}
