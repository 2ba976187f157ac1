/* Unit tests for the I/O generator (src/job/workload.c). */
#include <stdlib.h>
#include <string.h>

#include "job/job.h"
#include "t.h"
#include "job/workload.h"

#define GiB (1ULL << 30)
#define MiB (1ULL << 20)

/* One job from `text` on a 1 GiB drive (static: tests run one at a
 * time; the generator keeps a pointer to it). */
static struct ssd_job job;

static int mkjob(const char *text)
{
	struct ssd_job *jobs = NULL;
	int n = 0;
	char err[256];
	int rc = ssd_jobfile_parse_string(text, "t.fio", GiB, &jobs, &n, err,
					  sizeof err);
	if (rc) {
		fprintf(stderr, "    %s\n", err);
		return rc;
	}
	job = jobs[0];
	free(jobs);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

TEST(wl_randommap_visits_each_block_once_per_pass)
{
	/* 300 blocks: not a power of two, so cycle walking is exercised */
	CHECK(mkjob("[a]\nrw=randwrite\noffset=64k\nsize=1200k\n"
		    "io_size=2400k\n") == 0);
	const uint64_t n = 300;
	struct ssd_wl *w = ssd_wl_create(&job, 0, 7);
	CHECK(w != NULL);
	uint64_t first[300], second[300];
	struct ssd_io io;
	int sequential_steps = 0;
	for (int pass = 0; pass < 2; pass++) {
		uint64_t *blk = pass ? second : first;
		for (uint64_t i = 0; i < n; i++) {
			CHECK(ssd_wl_next(w, &io) == 1);
			CHECK(io.ddir == SSD_DDIR_WRITE && io.len == 4096);
			CHECK(io.offset >= 65536 && io.offset % 4096 == 0);
			CHECK(io.offset + io.len <= 65536 + 1200 * 1024);
			blk[i] = (io.offset - 65536) / 4096;
			if (i && blk[i] == blk[i - 1] + 1)
				sequential_steps++;
		}
	}
	CHECK(ssd_wl_next(w, &io) == 0);
	CHECK(ssd_wl_issued(w) == 2400 * 1024);
	ssd_wl_destroy(w);
	CHECKF(sequential_steps < 20, "%d sequential steps", sequential_steps);
	int same_order = 0;
	for (uint64_t i = 0; i < n; i++)
		same_order += first[i] == second[i];
	CHECKF(same_order < 20, "passes share %d positions", same_order);
	qsort(first, n, sizeof first[0], cmp_u64);
	qsort(second, n, sizeof second[0], cmp_u64);
	for (uint64_t i = 0; i < n; i++) {
		CHECKF(first[i] == i, "pass 1: block %llu at %llu",
		       (unsigned long long)first[i], (unsigned long long)i);
		CHECKF(second[i] == i, "pass 2: block %llu at %llu",
		       (unsigned long long)second[i], (unsigned long long)i);
	}
}

TEST(wl_randommap_small_and_odd_regions)
{
	/* every n from 1 to 70 blocks: a permutation each time */
	for (int n = 1; n <= 70; n++) {
		char text[128];
		snprintf(text, sizeof text, "[a]\nrw=randread\nsize=%dk\n",
			 4 * n);
		CHECK(mkjob(text) == 0);
		struct ssd_wl *w = ssd_wl_create(&job, 3, (uint64_t)n);
		CHECK(w != NULL);
		unsigned char seen[70] = {0};
		struct ssd_io io;
		for (int i = 0; i < n; i++) {
			CHECK(ssd_wl_next(w, &io) == 1);
			uint64_t b = io.offset / 4096;
			CHECK(b < (uint64_t)n && !seen[b]);
			seen[b] = 1;
		}
		CHECK(ssd_wl_next(w, &io) == 0);
		ssd_wl_destroy(w);
	}
}

TEST(wl_randommap_is_uniform_over_the_pass)
{
	/* the first quarter of a pass should land evenly on the region's
	 * quarters */
	CHECK(mkjob("[a]\nrw=randwrite\nsize=64m\n") == 0);
	struct ssd_wl *w = ssd_wl_create(&job, 0, 99);
	uint64_t n = 16384, q[4] = {0};
	struct ssd_io io;
	for (uint64_t i = 0; i < n / 4; i++) {
		CHECK(ssd_wl_next(w, &io) == 1);
		q[io.offset / (16 * MiB)]++;
	}
	ssd_wl_destroy(w);
	for (int i = 0; i < 4; i++)
		CHECKF(q[i] > 850 && q[i] < 1200, "quarter %d: %llu", i,
		       (unsigned long long)q[i]);
}

/* Consecutive blocks of a pass look independent: the 16x16 table of
 * (region sixteenth of block i, of block i+1), averaged over seeds, has
 * the chi-square of a random permutation (~225).  A three-round mixer
 * scored ~380 here. */
TEST(wl_randommap_consecutive_blocks_look_independent)
{
	CHECK(mkjob("[a]\nrw=randwrite\nsize=16m\n") == 0);
	const int n = 4096, seeds = 40;
	double chi_sum = 0;
	for (int s = 0; s < seeds; s++) {
		static int grid[16][16];
		memset(grid, 0, sizeof grid);
		struct ssd_wl *w = ssd_wl_create(&job, 0, (uint64_t)s);
		struct ssd_io io;
		uint64_t prev = 0;
		for (int i = 0; i < n; i++) {
			CHECK(ssd_wl_next(w, &io) == 1);
			uint64_t b = io.offset / 4096;
			if (i)
				grid[prev * 16 / n][b * 16 / n]++;
			prev = b;
		}
		ssd_wl_destroy(w);
		double e = (n - 1) / 256.0;
		for (int a = 0; a < 16; a++)
			for (int b = 0; b < 16; b++)
				chi_sum += (grid[a][b] - e) * (grid[a][b] - e) / e;
	}
	double chi = chi_sum / seeds;
	CHECKF(chi > 190 && chi < 260, "pair chi-square %.1f", chi);
}

TEST(wl_sequential_wraps_at_region_end)
{
	CHECK(mkjob("[a]\nrw=write\noffset=1m\nsize=16k\nio_size=40k\n") == 0);
	struct ssd_wl *w = ssd_wl_create(&job, 0, 1);
	static const uint64_t want[] = {0, 4, 8, 12, 0, 4, 8, 12, 0, 4};
	struct ssd_io io;
	for (int i = 0; i < 10; i++) {
		CHECK(ssd_wl_next(w, &io) == 1);
		CHECK(io.ddir == SSD_DDIR_WRITE && io.len == 4096);
		CHECKF(io.offset == MiB + want[i] * 1024, "I/O %d at %llu", i,
		       (unsigned long long)io.offset);
	}
	CHECK(ssd_wl_next(w, &io) == 0);
	ssd_wl_destroy(w);

	/* a block that would cross the end is shortened, then we wrap (a
	 * job file's size=16k is cut to one 12k block, as fio runs it; a
	 * region to the drive's end, or one built in code, is not) */
	CHECK(mkjob("[a]\nrw=read\nbs=12k\nsize=16k\nio_size=48k\n") == 0);
	CHECK(job.size == 12 * 1024);
	job.size = 16 * 1024;
	w = ssd_wl_create(&job, 0, 1);
	static const uint64_t off[] = {0, 12, 0, 12, 0, 12};
	static const uint32_t len[] = {12, 4, 12, 4, 12, 4};
	for (int i = 0; i < 6; i++) {
		CHECK(ssd_wl_next(w, &io) == 1);
		CHECK(io.ddir == SSD_DDIR_READ);
		CHECK(io.offset == off[i] * 1024 && io.len == len[i] * 1024);
	}
	CHECK(ssd_wl_next(w, &io) == 0);
	ssd_wl_destroy(w);
}

TEST(wl_sequential_clones_start_at_region_start)
{
	CHECK(mkjob("[a]\nrw=read\noffset=8m\nsize=1m\nnumjobs=4\n") == 0);
	for (uint32_t c = 0; c < 4; c++) {
		struct ssd_wl *w = ssd_wl_create(&job, c, 5);
		struct ssd_io io;
		CHECK(ssd_wl_next(w, &io) == 1 && io.offset == 8 * MiB);
		CHECK(ssd_wl_next(w, &io) == 1 && io.offset == 8 * MiB + 4096);
		ssd_wl_destroy(w);
	}
}

TEST(wl_rwmix_proportion)
{
	CHECK(mkjob("[a]\nrw=randrw\nrwmixread=70\nnorandommap\n"
		    "time_based\nruntime=1\n") == 0);
	struct ssd_wl *w = ssd_wl_create(&job, 0, 11);
	int reads = 0, writes = 0, n = 100000;
	struct ssd_io io;
	for (int i = 0; i < n; i++) {
		CHECK(ssd_wl_next(w, &io) == 1);
		reads += io.ddir == SSD_DDIR_READ;
		writes += io.ddir == SSD_DDIR_WRITE;
	}
	ssd_wl_destroy(w);
	CHECK(reads + writes == n);
	CHECKF(reads > 69000 && reads < 71000, "%d reads", reads);

	/* sequential mix: reads and writes each walk from the start, as
	 * fio keeps a position per direction */
	CHECK(mkjob("[a]\nrw=rw\nsize=1m\n") == 0);
	w = ssd_wl_create(&job, 0, 11);
	uint64_t next[2] = {0, 0};
	reads = 0;
	for (uint64_t i = 0; i < 256; i++) {
		CHECK(ssd_wl_next(w, &io) == 1);
		CHECK(io.offset == next[io.ddir]);
		next[io.ddir] += 4096;
		reads += io.ddir == SSD_DDIR_READ;
	}
	CHECK(ssd_wl_next(w, &io) == 0);
	ssd_wl_destroy(w);
	CHECKF(reads > 90 && reads < 166, "%d reads", reads);
}

TEST(wl_bssplit_proportions_and_alignment)
{
	CHECK(mkjob("[a]\nrw=randwrite\nbssplit=4k/10:64k/50:32k/40\n"
		    "offset=1m\nsize=100m\ntime_based\nruntime=1\n") == 0);
	struct ssd_wl *w = ssd_wl_create(&job, 0, 3);
	int c4 = 0, c32 = 0, c64 = 0, n = 100000, odd64 = 0;
	struct ssd_io io;
	for (int i = 0; i < n; i++) {
		CHECK(ssd_wl_next(w, &io) == 1);
		CHECK(io.offset >= MiB && io.offset + io.len <= 101 * MiB);
		/* aligned to the smallest size, as fio's blockalign default */
		CHECK((io.offset - MiB) % 4096 == 0);
		odd64 += io.len == 65536 && (io.offset - MiB) % 65536;
		c4 += io.len == 4096;
		c32 += io.len == 32768;
		c64 += io.len == 65536;
	}
	ssd_wl_destroy(w);
	CHECK(c4 + c32 + c64 == n);
	CHECKF(c4 > 9000 && c4 < 11000, "4k: %d", c4);
	CHECKF(c64 > 49000 && c64 < 51000, "64k: %d", c64);
	CHECKF(c32 > 39000 && c32 < 41000, "32k: %d", c32);
	CHECKF(odd64 > c64 / 2, "only %d of %d 64k I/Os off 64k", odd64, c64);
}

TEST(wl_zoned_proportions)
{
	CHECK(mkjob("[a]\nrw=randread\nsize=100m\n"
		    "random_distribution=zoned:60/10:30/20:10/70\n"
		    "time_based\nruntime=1\n") == 0);
	struct ssd_wl *w = ssd_wl_create(&job, 0, 5);
	int z[3] = {0}, n = 100000;
	struct ssd_io io;
	for (int i = 0; i < n; i++) {
		CHECK(ssd_wl_next(w, &io) == 1);
		CHECK(io.offset + io.len <= 100 * MiB && io.offset % 4096 == 0);
		double f = (double)io.offset / (100.0 * MiB);
		z[f < 0.1 ? 0 : f < 0.3 ? 1 : 2]++;
	}
	ssd_wl_destroy(w);
	CHECKF(z[0] > 59000 && z[0] < 61000, "zone 0: %d", z[0]);
	CHECKF(z[1] > 29000 && z[1] < 31000, "zone 1: %d", z[1]);
	CHECKF(z[2] > 9000 && z[2] < 11000, "zone 2: %d", z[2]);

	/* zones that cover less than the region leave the rest untouched */
	CHECK(mkjob("[a]\nrw=randread\nsize=100m\n"
		    "random_distribution=zoned:50/10:50/10\n") == 0);
	w = ssd_wl_create(&job, 0, 5);
	while (ssd_wl_next(w, &io))
		CHECK(io.offset < 20 * MiB);
	ssd_wl_destroy(w);
}

static int cmp_u32_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x > y ? -1 : x < y;
}

/* Share of hits on the hottest `frac` of `n` blocks, and the fraction of
 * the hottest blocks that lie in the second half of the region. */
static void skew(const char *dist, double frac, double *share,
		 double *upper)
{
	char text[256];
	snprintf(text, sizeof text, "[a]\nrw=randread\nsize=256m\n"
		 "random_distribution=%s\ntime_based\nruntime=1\n", dist);
	if (mkjob(text))
		return;
	const uint32_t n = 65536, draws = 400000;
	uint32_t *hits = calloc(n, sizeof *hits);
	uint32_t *sorted = calloc(n, sizeof *sorted);
	struct ssd_wl *w = ssd_wl_create(&job, 0, 17);
	struct ssd_io io;
	for (uint32_t i = 0; i < draws; i++) {
		ssd_wl_next(w, &io);
		hits[io.offset / 4096]++;
	}
	ssd_wl_destroy(w);
	memcpy(sorted, hits, n * sizeof *hits);
	qsort(sorted, n, sizeof *sorted, cmp_u32_desc);
	uint32_t top = (uint32_t)(n * frac), sum = 0;
	for (uint32_t i = 0; i < top; i++)
		sum += sorted[i];
	*share = (double)sum / draws;
	uint32_t cut = sorted[top - 1], hot = 0, hot_upper = 0;
	for (uint32_t b = 0; b < n; b++)
		if (hits[b] >= cut && hits[b] > 0) {
			hot++;
			hot_upper += b >= n / 2;
		}
	*upper = hot ? (double)hot_upper / hot : 0;
	free(hits);
	free(sorted);
}

TEST(wl_zipf_is_skewed_and_scattered)
{
	double share = 0, upper = 0;
	skew("zipf:1.2", 0.01, &share, &upper);
	/* theory for theta 1.2, n 65536: the top 1% of ranks get ~84% */
	CHECKF(share > 0.75 && share < 0.92, "top 1%% share %.3f", share);
	CHECKF(upper > 0.3 && upper < 0.7, "upper half %.3f", upper);
	skew("zipf:0.8", 0.01, &share, &upper);
	CHECKF(share > 0.15 && share < 0.6, "theta 0.8: %.3f", share);
	skew("zipf:1", 0.01, &share, &upper);
	CHECKF(share > 0.4 && share < 0.8, "theta 1: %.3f", share);
}

TEST(wl_pareto_is_skewed)
{
	double share = 0, upper = 0;
	skew("pareto:0.2", 0.2, &share, &upper);
	CHECKF(share > 0.6, "top 20%% share %.3f", share);
	CHECKF(upper > 0.3 && upper < 0.7, "upper half %.3f", upper);
}

TEST(wl_uniform_without_randommap_repeats)
{
	CHECK(mkjob("[a]\nrw=randwrite\nsize=4m\nnorandommap\n") == 0);
	struct ssd_wl *w = ssd_wl_create(&job, 0, 23);
	unsigned char seen[1024] = {0};
	int repeats = 0, ios = 0;
	struct ssd_io io;
	while (ssd_wl_next(w, &io)) {
		CHECK(io.offset % 4096 == 0 && io.offset + 4096 <= 4 * MiB);
		repeats += seen[io.offset / 4096]++ > 0;
		ios++;
	}
	ssd_wl_destroy(w);
	CHECK(ios == 1024);
	/* with replacement about 1/e of the draws repeat a block */
	CHECKF(repeats > 300 && repeats < 450, "%d repeats", repeats);
}

TEST(wl_trim_jobs_trim)
{
	CHECK(mkjob("[a]\nrw=randtrim\nsize=1m\n[b]\nrw=trim\n") == 0);
	struct ssd_wl *w = ssd_wl_create(&job, 0, 1);
	struct ssd_io io;
	int n = 0;
	while (ssd_wl_next(w, &io)) {
		CHECK(io.ddir == SSD_DDIR_TRIM);
		n++;
	}
	CHECK(n == 256);
	ssd_wl_destroy(w);
}

static int same_stream(const char *text, uint64_t s1, uint32_t c1,
		       uint64_t s2, uint32_t c2, int n)
{
	if (mkjob(text))
		return -1;
	struct ssd_wl *a = ssd_wl_create(&job, c1, s1);
	struct ssd_wl *b = ssd_wl_create(&job, c2, s2);
	int same = 1;
	for (int i = 0; i < n; i++) {
		struct ssd_io x, y;
		int ra = ssd_wl_next(a, &x), rb = ssd_wl_next(b, &y);
		if (ra != rb || x.ddir != y.ddir || x.offset != y.offset ||
		    x.len != y.len) {
			same = 0;
			break;
		}
	}
	ssd_wl_destroy(a);
	ssd_wl_destroy(b);
	return same;
}

TEST(wl_same_seed_same_stream)
{
	static const char *const jobsrc[] = {
		"[a]\nrw=randrw\nsize=64m\n",
		"[a]\nrw=randwrite\nnorandommap\nbssplit=4k/30:16k/70\n",
		"[a]\nrw=randread\nrandom_distribution=zipf:1.1\n",
		"[a]\nrw=randread\nrandom_distribution=pareto:0.3\n",
		"[a]\nrw=randread\nrandom_distribution=zoned:80/20:20/80\n",
	};
	for (size_t i = 0; i < sizeof jobsrc / sizeof jobsrc[0]; i++) {
		CHECKF(same_stream(jobsrc[i], 42, 0, 42, 0, 5000) == 1,
		       "job %zu not reproducible", i);
		CHECKF(same_stream(jobsrc[i], 42, 0, 43, 0, 5000) == 0,
		       "job %zu ignores the seed", i);
		CHECKF(same_stream(jobsrc[i], 42, 0, 42, 1, 5000) == 0,
		       "job %zu: clones share a stream", i);
	}
}

TEST(wl_io_size_budget_ends_the_stream)
{
	CHECK(mkjob("[a]\nrw=randwrite\nsize=64m\nio_size=1m\nbs=8k\n") == 0);
	struct ssd_wl *w = ssd_wl_create(&job, 0, 1);
	struct ssd_io io;
	int n = 0;
	while (ssd_wl_next(w, &io))
		n++;
	CHECK(n == 128 && ssd_wl_issued(w) == MiB);
	CHECK(ssd_wl_next(w, &io) == 0);
	ssd_wl_destroy(w);

	/* time_based never ends: many passes over a small region */
	CHECK(mkjob("[a]\nrw=randwrite\nsize=64k\ntime_based\nruntime=1\n") ==
	      0);
	w = ssd_wl_create(&job, 0, 1);
	for (int i = 0; i < 10000; i++)
		CHECK(ssd_wl_next(w, &io) == 1 && io.offset < 65536);
	CHECK(ssd_wl_issued(w) == 10000ULL * 4096);
	ssd_wl_destroy(w);
}
