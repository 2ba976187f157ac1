/*
 * bareftl.c -- the yardstick: a bare page-mapped FTL with no timing model,
 * written as fast as plain C allows, for "how fast could a simulator of
 * this drive possibly be?".  It shares no code with ssdlab.
 *
 * Model.  U logical pages of --page bytes on T erase blocks of --ppb pages,
 * T = ceil(U (1 + op) / ppb) (the same rule as ssdlab's config: physical
 * >= user * (1 + op)).  One write frontier; a free pool that GC keeps at
 * --reserve blocks; greedy victims (fewest valid pages).  The workload is
 * uniform random single-page overwrites.  The drive starts written once
 * sequentially, then takes --precondition random writes, then the
 * --writes random writes that are timed and measured.
 *
 * Utilisation as the analytic models of docs/model.md define it:
 * alpha = U / ((T - reserve) ppb) -- the reserve holds no data; the open
 * block does.  Greedy WA at 7% OP, ppb 256 is ~7.6.
 *
 * Where the time goes.  A host write is an l2p lookup (a random access
 * into 4 U bytes), a bit cleared in a valid bitmap, a valid-count bucket
 * move, and a sequential append.  Each GC copy is a sequential p2l read
 * and one random l2p store.  So a host write costs ~WA random accesses
 * into a table much larger than cache; they are independent, and both
 * loops prefetch them ahead (the host loop draws its random LPNs a few
 * writes early).  Hot state:
 *   l2p[lpn]   uint32 physical page of each logical page
 *   p2l[ppn]   uint32 logical page stored at each physical page
 *   vbits      1 bit per physical page: still valid (L2/L3 resident)
 *   valid[blk] valid pages per block; greedy buckets: blocks linked by
 *              valid count, min index moving both ways (O(1) amortised)
 * Large arrays ask for transparent huge pages: with 4 KiB pages every
 * random l2p access is also a TLB miss.  --thp 0 and --prefetch 0 turn
 * the two tricks off, to see what a simulator without them should expect.
 *
 * Output: one line of key=value.
 *
 * Build: gcc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -o build/bareftl \
 *            bench/bareftl.c -lm
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

#define NONE UINT32_MAX
#define LOOKAHEAD 16 /* host LPNs drawn (and prefetched) ahead */
#define GC_AHEAD 8   /* GC copies prefetched ahead */

/* ---- random numbers: xoshiro256**, splitmix64 seeding, Lemire ---- */

struct rng {
	uint64_t s[4];
};

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/* Uniform in [0, n), unbiased (Lemire, "Fast random integer generation in
 * an interval", 2019). */
static inline uint32_t rng_below(struct rng *r, uint32_t n)
{
	uint64_t m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * n;
	uint32_t lo = (uint32_t)m;
	if (__builtin_expect(lo < n, 0)) {
		uint32_t thresh = -n % n;
		while (lo < thresh) {
			m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * n;
			lo = (uint32_t)m;
		}
	}
	return (uint32_t)(m >> 32);
}

/* ---- the FTL ---- */

struct ftl {
	uint32_t ppb;       /* pages per block */
	uint32_t shift;     /* log2(ppb) if a power of two, else 0 */
	uint32_t wpb;       /* 64-bit bitmap words per block */
	uint32_t nblk;      /* T */
	uint32_t user;      /* U, logical pages */
	uint32_t reserve;   /* free blocks GC keeps */
	uint32_t *l2p, *p2l;
	uint64_t *vbits;    /* block-major: word blk * wpb + page / 64 */
	uint32_t *valid;    /* valid pages per block */
	uint32_t *bhead;    /* bucket heads, by valid count 0..ppb */
	uint32_t *bnext, *bprev;
	uint32_t bmin;      /* no closed block has fewer valid pages */
	uint32_t *freel, nfree;
	uint32_t open, wp;  /* frontier block, next page in it */
	uint32_t *gcbuf;    /* a victim's valid LPNs */
	int prefetch;       /* 1: prefetch l2p entries ahead of use */
	uint64_t host, copies, erases;
};

static inline uint32_t blk_of(const struct ftl *f, uint32_t ppn)
{
	return f->shift ? ppn >> f->shift : ppn / f->ppb;
}

static inline void bucket_del(struct ftl *f, uint32_t blk, uint32_t j)
{
	uint32_t p = f->bprev[blk], n = f->bnext[blk];
	if (p != NONE)
		f->bnext[p] = n;
	else
		f->bhead[j] = n;
	if (n != NONE)
		f->bprev[n] = p;
}

static inline void bucket_add(struct ftl *f, uint32_t blk, uint32_t j)
{
	uint32_t h = f->bhead[j];
	f->bprev[blk] = NONE;
	f->bnext[blk] = h;
	if (h != NONE)
		f->bprev[h] = blk;
	f->bhead[j] = blk;
	if (j < f->bmin)
		f->bmin = j;
}

static inline void program(struct ftl *f, uint32_t lpn)
{
	uint32_t page = f->wp++;
	uint32_t ppn = f->open * f->ppb + page;
	f->l2p[lpn] = ppn;
	f->p2l[ppn] = lpn;
	f->vbits[(size_t)f->open * f->wpb + page / 64] |= 1ULL << (page % 64);
	f->valid[f->open]++;
}

/* The frontier is full: it joins the buckets, a free block replaces it. */
static void take_free(struct ftl *f)
{
	bucket_add(f, f->open, f->valid[f->open]);
	f->open = f->freel[--f->nfree];
	f->wp = 0;
}

/* Clean greedy victims until the pool is back at the reserve.  At entry
 * the pool holds reserve - 1 blocks; a victim's copies (< ppb) cross at
 * most one frontier boundary before the victim is erased, so the pool
 * never falls below reserve - 2 >= 0. */
static void gc(struct ftl *f)
{
	while (f->nfree < f->reserve) {
		while (f->bhead[f->bmin] == NONE)
			f->bmin++;
		uint32_t v = f->bhead[f->bmin];
		bucket_del(f, v, f->bmin);
		uint32_t n = 0;
		uint64_t *w = &f->vbits[(size_t)v * f->wpb];
		const uint32_t *src = &f->p2l[(size_t)v * f->ppb];
		for (uint32_t k = 0; k < f->wpb; k++) {
			uint64_t bits = w[k];
			w[k] = 0;
			while (bits) {
				uint32_t i = k * 64 + (uint32_t)__builtin_ctzll(bits);
				bits &= bits - 1;
				f->gcbuf[n++] = src[i];
			}
		}
		uint32_t ahead = f->prefetch ? GC_AHEAD : 0;
		for (uint32_t i = 0; i < n && i < ahead; i++)
			__builtin_prefetch(&f->l2p[f->gcbuf[i]], 1);
		for (uint32_t i = 0; i < n; i++) {
			if (i + ahead < n && ahead)
				__builtin_prefetch(&f->l2p[f->gcbuf[i + ahead]], 1);
			if (f->wp == f->ppb)
				take_free(f);
			program(f, f->gcbuf[i]);
		}
		f->copies += n;
		f->valid[v] = 0;
		f->erases++;
		f->freel[f->nfree++] = v;
	}
}

static inline void host_write(struct ftl *f, uint32_t lpn)
{
	uint32_t old = f->l2p[lpn];
	uint32_t ob = blk_of(f, old), page = old - ob * f->ppb;
	f->vbits[(size_t)ob * f->wpb + page / 64] &= ~(1ULL << (page % 64));
	uint32_t j = f->valid[ob]--;
	if (ob != f->open) {
		bucket_del(f, ob, j);
		bucket_add(f, ob, j - 1);
	}
	while (f->wp == f->ppb) {
		take_free(f);
		gc(f);
	}
	program(f, lpn);
	f->host++;
}

/* n random overwrites, LPNs drawn LOOKAHEAD early and prefetched. */
static void run_random(struct ftl *f, struct rng *r, uint64_t n)
{
	uint32_t ring[LOOKAHEAD];
	for (int i = 0; i < LOOKAHEAD; i++) {
		ring[i] = rng_below(r, f->user);
		if (f->prefetch)
			__builtin_prefetch(&f->l2p[ring[i]], 1);
	}
	/* The ring's draws are part of the sequence: n writes consume
	 * exactly n draws plus the LOOKAHEAD left over at the end. */
	for (uint64_t i = 0; i < n; i++) {
		uint32_t slot = (uint32_t)(i % LOOKAHEAD);
		uint32_t lpn = ring[slot];
		uint32_t nx = rng_below(r, f->user);
		ring[slot] = nx;
		if (f->prefetch)
			__builtin_prefetch(&f->l2p[nx], 1);
		host_write(f, lpn);
	}
}

/* Large arrays: page-aligned, huge pages if asked, zero-filled lazily. */
static void *big_alloc(size_t bytes, int thp)
{
	size_t align = 2u << 20;
	bytes = (bytes + align - 1) / align * align;
	void *p = aligned_alloc(align, bytes);
	if (!p) {
		fprintf(stderr, "bareftl: out of memory (%zu bytes)\n", bytes);
		exit(1);
	}
#ifdef MADV_HUGEPAGE
	if (thp)
		madvise(p, bytes, MADV_HUGEPAGE);
#endif
	return p;
}

/* After the run, outside the timing: l2p and p2l are inverse on valid
 * pages, valid bits and counts agree, every logical page mapped once. */
static int check(const struct ftl *f)
{
	uint64_t total = 0;
	for (uint32_t b = 0; b < f->nblk; b++) {
		uint64_t n = 0;
		for (uint32_t k = 0; k < f->wpb; k++)
			n += (uint64_t)__builtin_popcountll(f->vbits[(size_t)b * f->wpb + k]);
		if (n != f->valid[b])
			return 0;
		total += n;
	}
	if (total != f->user)
		return 0;
	for (uint32_t lpn = 0; lpn < f->user; lpn++) {
		uint32_t ppn = f->l2p[lpn], b = blk_of(f, ppn), pg = ppn - b * f->ppb;
		if (b >= f->nblk || f->p2l[ppn] != lpn ||
		    !(f->vbits[(size_t)b * f->wpb + pg / 64] >> (pg % 64) & 1))
			return 0;
	}
	return 1;
}

/* ---- command line ---- */

static void usage(FILE *out)
{
	fprintf(out,
		"usage: bareftl [options]\n"
		"  --capacity BYTES   user capacity, suffix k/m/g/t = 2^10.. (32g)\n"
		"  --op FRACTION      spare as a fraction of capacity (0.07)\n"
		"  --ppb N            pages per erase block (256)\n"
		"  --page BYTES       mapping unit and write size (4096)\n"
		"  --precondition N   random writes before measuring (2 x pages)\n"
		"  --writes N         random writes measured (1 x pages)\n"
		"  --reserve N        free blocks GC keeps, >= 2 (2)\n"
		"  --seed S           random seed (1)\n"
		"  --thp 0|1          transparent huge pages for big arrays (1)\n"
		"  --prefetch 0|1     prefetch map entries ahead of use (1)\n"
		"Prints one line: host_writes seconds writes_per_second waf\n"
		"peak_rss_kib bytes_per_4k_physical alpha gc_copies erases ...\n");
}

static int parse_u64(const char *s, uint64_t *out, int suffixes)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || errno || v < 0)
		return -1;
	double mul = 1;
	if (suffixes && *end) {
		switch (*end) {
		case 'k': case 'K': mul = 0x1p10; break;
		case 'm': case 'M': mul = 0x1p20; break;
		case 'g': case 'G': mul = 0x1p30; break;
		case 't': case 'T': mul = 0x1p40; break;
		default: return -1;
		}
		end++;
		if (*end == 'i' || *end == 'I')
			end++;
		if (*end == 'b' || *end == 'B')
			end++;
	}
	if (*end)
		return -1;
	v *= mul;
	if (v != floor(v) || v >= 0x1p64)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t capacity = 32ULL << 30, ppb = 256, page = 4096, seed = 1;
	uint64_t reserve = 2, thp = 1, prefetch = 1;
	uint64_t writes = UINT64_MAX, precond = UINT64_MAX;
	double op = 0.07;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		}
		if (i + 1 >= argc) {
			fprintf(stderr, "bareftl: %s needs a value\n", a);
			return 2;
		}
		const char *v = argv[++i];
		int bad = 0;
		if (!strcmp(a, "--capacity"))
			bad = parse_u64(v, &capacity, 1);
		else if (!strcmp(a, "--ppb"))
			bad = parse_u64(v, &ppb, 0);
		else if (!strcmp(a, "--page"))
			bad = parse_u64(v, &page, 1);
		else if (!strcmp(a, "--writes"))
			bad = parse_u64(v, &writes, 1);
		else if (!strcmp(a, "--precondition"))
			bad = parse_u64(v, &precond, 1);
		else if (!strcmp(a, "--reserve"))
			bad = parse_u64(v, &reserve, 0);
		else if (!strcmp(a, "--seed"))
			bad = parse_u64(v, &seed, 0);
		else if (!strcmp(a, "--thp"))
			bad = parse_u64(v, &thp, 0) || thp > 1;
		else if (!strcmp(a, "--prefetch"))
			bad = parse_u64(v, &prefetch, 0) || prefetch > 1;
		else if (!strcmp(a, "--op")) {
			char *end;
			op = strtod(v, &end);
			bad = *end || end == v || !(op > 0 && op < 10);
		} else {
			fprintf(stderr, "bareftl: unknown option %s\n", a);
			usage(stderr);
			return 2;
		}
		if (bad) {
			fprintf(stderr, "bareftl: bad value for %s: '%s'\n", a, v);
			return 2;
		}
	}
	if (page == 0 || capacity % page || capacity / page == 0 ||
	    capacity / page >= NONE) {
		fprintf(stderr, "bareftl: capacity must be a positive multiple of "
				"the page, below 2^32 pages\n");
		return 2;
	}
	if (ppb < 2 || ppb > 65536 || reserve < 2) {
		fprintf(stderr, "bareftl: need 2 <= ppb <= 65536, reserve >= 2\n");
		return 2;
	}

	struct ftl f = {0};
	f.user = (uint32_t)(capacity / page);
	f.ppb = (uint32_t)ppb;
	f.shift = (ppb & (ppb - 1)) ? 0 : (uint32_t)__builtin_ctzll(ppb);
	f.wpb = (f.ppb + 63) / 64;
	double tb = ceil((double)f.user * (1.0 + op) / (double)ppb);
	if (tb * (double)ppb >= (double)NONE) {
		fprintf(stderr, "bareftl: too many physical pages for 32-bit maps\n");
		return 2;
	}
	f.nblk = (uint32_t)tb;
	f.reserve = (uint32_t)reserve;
	f.prefetch = (int)prefetch;
	/* GC needs a closed block that is not full: U < (T - R - 1) ppb. */
	if ((uint64_t)f.user >= ((uint64_t)f.nblk - reserve - 1) * ppb ||
	    f.nblk <= reserve + 2) {
		fprintf(stderr, "bareftl: op too small for the reserve\n");
		return 2;
	}
	if (writes == UINT64_MAX)
		writes = f.user;
	if (precond == UINT64_MAX)
		precond = 2ULL * f.user;

	size_t pages = (size_t)f.nblk * f.ppb;
	f.l2p = big_alloc((size_t)f.user * sizeof *f.l2p, (int)thp);
	f.p2l = big_alloc(pages * sizeof *f.p2l, (int)thp);
	f.vbits = big_alloc((size_t)f.nblk * f.wpb * sizeof *f.vbits, (int)thp);
	memset(f.vbits, 0, (size_t)f.nblk * f.wpb * sizeof *f.vbits);
	f.valid = calloc(f.nblk, sizeof *f.valid);
	f.bhead = malloc((ppb + 1) * sizeof *f.bhead);
	f.bnext = malloc(f.nblk * sizeof *f.bnext);
	f.bprev = malloc(f.nblk * sizeof *f.bprev);
	f.freel = malloc(f.nblk * sizeof *f.freel);
	f.gcbuf = malloc(ppb * sizeof *f.gcbuf);
	if (!f.valid || !f.bhead || !f.bnext || !f.bprev || !f.freel || !f.gcbuf) {
		fprintf(stderr, "bareftl: out of memory\n");
		return 1;
	}
	for (uint32_t j = 0; j <= f.ppb; j++)
		f.bhead[j] = NONE;
	f.bmin = f.ppb;
	for (uint32_t b = f.nblk; b-- > 1;)
		f.freel[f.nfree++] = b;
	f.open = 0;

	/* Sequential fill: every logical page mapped once.  p2l of pages
	 * never programmed is never read (their valid bits are clear), so
	 * it needs no initialisation. */
	for (uint32_t lpn = 0; lpn < f.user; lpn++) {
		while (f.wp == f.ppb) {
			take_free(&f);
			gc(&f);
		}
		program(&f, lpn);
	}

	struct rng r;
	uint64_t sm = seed;
	for (int i = 0; i < 4; i++)
		r.s[i] = splitmix64(&sm);
	run_random(&f, &r, precond);

	uint64_t h0 = f.host, c0 = f.copies, e0 = f.erases;
	/* Wall time is the measure; CPU time is printed too because on a
	 * shared machine it shows how much of the wall time was ours. */
	struct timespec t0, t1, c0t, c1t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0t);
	run_random(&f, &r, writes);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1t);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) +
		      (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	double cpu = (double)(c1t.tv_sec - c0t.tv_sec) +
		     (double)(c1t.tv_nsec - c0t.tv_nsec) * 1e-9;
	uint64_t hw = f.host - h0, cp = f.copies - c0;

	if (!check(&f)) {
		fprintf(stderr, "bareftl: internal consistency check failed\n");
		return 1;
	}
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	double phys4k = (double)pages * (double)page / 4096.0;
	double alpha = (double)f.user /
		       ((double)(f.nblk - f.reserve) * (double)f.ppb);
	printf("host_writes=%" PRIu64 " seconds=%.3f writes_per_second=%.0f "
	       "waf=%.4f peak_rss_kib=%ld bytes_per_4k_physical=%.2f "
	       "cpu_seconds=%.3f alpha=%.6f gc_copies=%" PRIu64
	       " erases=%" PRIu64
	       " blocks=%u ppb=%u page=%" PRIu64 " seed=%" PRIu64
	       " thp=%d prefetch=%d\n",
	       hw, secs, secs > 0 ? (double)hw / secs : 0.0,
	       hw ? (double)(hw + cp) / (double)hw : 0.0, ru.ru_maxrss,
	       (double)ru.ru_maxrss * 1024.0 / phys4k, cpu, alpha, cp,
	       f.erases - e0, f.nblk, f.ppb, page, seed, (int)thp,
	       (int)prefetch);
	free(f.l2p);
	free(f.p2l);
	free(f.vbits);
	free(f.valid);
	free(f.bhead);
	free(f.bnext);
	free(f.bprev);
	free(f.freel);
	free(f.gcbuf);
	return 0;
}
