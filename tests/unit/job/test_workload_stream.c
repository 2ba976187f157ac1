/* Unit tests for the I/O stream options of the generator (src/job/workload.c):
 * per-direction sizes, bsrange, blockalign, rw=PATTERN:N, rw_sequencer,
 * percentage_random, trimwrite, distributions with a center, zoned_abs,
 * number_ios, loops and random_generator.  Where fio 3.33 was run on the
 * same job (ioengine=null, write_iolog), the expected offsets are fio's. */
#include <stdlib.h>
#include <string.h>

#include "job/job.h"
#include "t.h"
#include "job/workload.h"

#define KiB 1024ULL
#define MiB (1ULL << 20)
#define GiB (1ULL << 30)

static struct ssd_job job; /* the generator keeps a pointer to it */

static int mk(const char *text)
{
	struct ssd_job *jobs = NULL;
	int n = 0;
	char err[512];
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

/* Every I/O of the job (at most `max`) into io[]; returns the count. */
static int stream(uint64_t seed, struct ssd_io *io, int max)
{
	struct ssd_wl *w = ssd_wl_create(&job, 0, seed);
	int n = 0;
	while (n < max && ssd_wl_next(w, &io[n]))
		n++;
	ssd_wl_destroy(w);
	return n;
}

static struct ssd_io ios[400000];

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

TEST(wls_holes_step_by_bs_plus_hole)
{
	/* fio 3.33: offsets 0, 12k, 24k ... 1020k: 86 writes, then the
	 * walk passes the end and the job is over */
	CHECK(mk("[a]\nrw=write:8k\nbs=4k\nsize=1m\n") == 0);
	int n = stream(1, ios, 1000);
	CHECKF(n == 86, "%d I/Os", n);
	for (int i = 0; i < n; i++)
		CHECKF(ios[i].offset == (uint64_t)i * 12 * KiB &&
		       ios[i].len == 4096 && ios[i].ddir == SSD_DDIR_WRITE,
		       "I/O %d at %llu", i, (unsigned long long)ios[i].offset);

	/* with io_size the walk wraps (fio: 512 writes for io_size=2m) */
	CHECK(mk("[a]\nrw=write:8k\nbs=4k\nsize=1m\nio_size=2m\n") == 0);
	n = stream(1, ios, 1000);
	CHECKF(n == 512, "%d I/Os", n);
	CHECK(ios[86].offset == 0 && ios[87].offset == 12 * KiB);

	/* in a region away from the drive's start, relative to its start */
	CHECK(mk("[a]\nrw=write:8k\nbs=4k\noffset=256k\nsize=512k\n") == 0);
	n = stream(1, ios, 1000);
	CHECKF(n == 43, "%d I/Os", n);
	CHECK(ios[0].offset == 256 * KiB && ios[1].offset == 268 * KiB);
}

TEST(wls_backwards_walk)
{
	/* fio 3.33: 0, then 1016k, 1012k, ... down to 0: 256 reads */
	CHECK(mk("[a]\nrw=read:-8k\nbs=4k\nsize=1m\n") == 0);
	int n = stream(1, ios, 1000);
	CHECKF(n == 256, "%d I/Os", n);
	CHECK(ios[0].offset == 0);
	for (int i = 1; i < n; i++)
		CHECKF(ios[i].offset == 1016 * KiB - (uint64_t)(i - 1) * 4096,
		       "I/O %d at %llu", i, (unsigned long long)ios[i].offset);

	/* past the start it continues at size - 8k again */
	CHECK(mk("[a]\nrw=read:-8k\nbs=4k\nsize=64k\nio_size=128k\n") == 0);
	n = stream(1, ios, 1000);
	CHECK(n == 32);
	CHECK(ios[15].offset == 0 && ios[16].offset == 56 * KiB);
}

TEST(wls_random_every_n_then_sequential_or_identical)
{
	CHECK(mk("[a]\nrw=randread:4\nbs=4k\nsize=64m\nio_size=4m\n") == 0);
	int n = stream(3, ios, 2000);
	CHECK(n == 1024);
	int jumps = 0;
	for (int i = 1; i < n; i++) {
		int seq = ios[i].offset == ios[i - 1].offset + 4096;
		if (i % 4)
			CHECKF(seq, "I/O %d is not sequential", i);
		else
			jumps += !seq;
	}
	CHECKF(jumps > 250, "%d new offsets", jumps);

	CHECK(mk("[a]\nrw=randwrite:8\nrw_sequencer=identical\nsize=64m\n"
		 "io_size=4m\n") == 0);
	n = stream(3, ios, 2000);
	CHECK(n == 1024);
	for (int i = 1; i < n; i++)
		if (i % 8)
			CHECK(ios[i].offset == ios[i - 1].offset);
		else
			CHECK(ios[i].offset != ios[i - 1].offset);
}

/* I/Os that start where the last one of their direction ended. */
static int sequential_count(int n)
{
	uint64_t end[SSD_DDIR_N] = {UINT64_MAX, UINT64_MAX, UINT64_MAX};
	int seq = 0;
	for (int i = 0; i < n; i++) {
		seq += ios[i].offset == end[ios[i].ddir];
		end[ios[i].ddir] = ios[i].offset + ios[i].len;
	}
	return seq;
}

TEST(wls_percentage_random)
{
	CHECK(mk("[a]\nrw=randwrite\npercentage_random=50\nsize=256m\n"
		 "io_size=80m\n") == 0);
	int n = stream(5, ios, 30000);
	CHECK(n == 20480);
	int seq = sequential_count(n);
	CHECKF(seq > 9800 && seq < 10700, "%d of %d sequential", seq, n);

	CHECK(mk("[a]\nrw=randread\npercentage_random=0\nsize=1m\n") == 0);
	n = stream(5, ios, 1000);
	CHECK(n == 256);
	for (int i = 0; i < n; i++)
		CHECK(ios[i].offset == (uint64_t)i * 4096);

	/* per direction: reads all sequential, writes all random */
	CHECK(mk("[a]\nrw=randrw\npercentage_random=0,100\nsize=256m\n"
		 "io_size=40m\n") == 0);
	n = stream(5, ios, 30000);
	uint64_t rnext = 0;
	int wseq = 0, writes = 0;
	uint64_t wend = UINT64_MAX;
	for (int i = 0; i < n; i++) {
		if (ios[i].ddir == SSD_DDIR_READ) {
			CHECK(ios[i].offset == rnext);
			rnext += 4096;
		} else {
			writes++;
			wseq += ios[i].offset == wend;
			wend = ios[i].offset + ios[i].len;
		}
	}
	CHECKF(writes > 4500 && wseq < writes / 50, "%d of %d writes "
	       "sequential", wseq, writes);
}

TEST(wls_block_sizes_per_direction)
{
	CHECK(mk("[a]\nrw=randrw\nbs=4k,16k\nsize=64m\nio_size=8m\n") == 0);
	int n = stream(7, ios, 10000);
	int r = 0, w = 0;
	for (int i = 0; i < n; i++) {
		if (ios[i].ddir == SSD_DDIR_READ) {
			CHECK(ios[i].len == 4096 && ios[i].offset % 4096 == 0);
			r++;
		} else {
			CHECK(ios[i].len == 16384 && ios[i].offset % 16384 == 0);
			w++;
		}
	}
	CHECKF(r > 0.4 * n && w > 0.4 * n, "%d reads, %d writes", r, w);

	/* bssplit per direction (fio's own example) */
	CHECK(mk("[a]\nrw=randrw\nbssplit=2k/50:4k/50,4k/90:8k/10\n"
		 "size=64m\nio_size=64m\n") == 0);
	n = stream(7, ios, 100000);
	int r2 = 0, r4 = 0, w4 = 0, w8 = 0;
	for (int i = 0; i < n; i++) {
		int rd = ios[i].ddir == SSD_DDIR_READ;
		uint32_t l = ios[i].len;
		CHECK(rd ? l == 2048 || l == 4096 : l == 4096 || l == 8192);
		r2 += rd && l == 2048;
		r4 += rd && l == 4096;
		w4 += !rd && l == 4096;
		w8 += !rd && l == 8192;
	}
	CHECKF(abs(r2 - r4) < (r2 + r4) / 20, "reads 2k %d, 4k %d", r2, r4);
	CHECKF(w8 > (w4 + w8) / 12 && w8 < (w4 + w8) / 8, "writes 4k %d, 8k %d",
	       w4, w8);
}

TEST(wls_bsrange_as_fio_draws_it)
{
	/* MIN + u*MAX rounded down to MIN: 4, 8, 12, 16k, a quarter each */
	CHECK(mk("[a]\nrw=randread\nbsrange=4k-16k\nsize=256m\n"
		 "time_based\nruntime=1\n") == 0);
	struct ssd_wl *w = ssd_wl_create(&job, 0, 9);
	int count[5] = {0}, n = 100000;
	for (int i = 0; i < n; i++) {
		struct ssd_io io;
		CHECK(ssd_wl_next(w, &io) == 1);
		CHECK(io.len % 4096 == 0 && io.len >= 4096 && io.len <= 16384);
		CHECK(io.offset % 4096 == 0);
		count[io.len / 4096]++;
	}
	ssd_wl_destroy(w);
	for (int k = 1; k <= 4; k++)
		CHECKF(count[k] > 24000 && count[k] < 26000, "%dk: %d", 4 * k,
		       count[k]);

	/* bs_unaligned: multiples of 512 B, with MAX taking the overflow */
	CHECK(mk("[a]\nrw=randread\nbsrange=1k-8k\nbs_unaligned\n"
		 "size=256m\ntime_based\nruntime=1\n") == 0);
	w = ssd_wl_create(&job, 0, 9);
	int odd = 0, max = 0;
	for (int i = 0; i < n; i++) {
		struct ssd_io io;
		CHECK(ssd_wl_next(w, &io) == 1);
		CHECK(io.len % 512 == 0 && io.len >= 1024 && io.len <= 8192);
		odd += io.len % 1024 != 0;
		max += io.len == 8192;
	}
	ssd_wl_destroy(w);
	CHECKF(odd > 40000 && odd < 50000, "%d odd sizes", odd);
	CHECKF(max > 11500 && max < 13500, "%d at MAX", max);

	/* per direction; a sequential walk shortens the last I/O */
	CHECK(mk("[a]\nrw=rw\nbsrange=4k-4k,8k-64k\nsize=1m\n") == 0);
	n = stream(9, ios, 10000);
	uint64_t bytes = 0;
	for (int i = 0; i < n; i++) {
		bytes += ios[i].len;
		if (ios[i].ddir == SSD_DDIR_READ)
			CHECK(ios[i].len == 4096);
		else
			CHECK(ios[i].len % 8192 == 0 || ios[i].offset +
			      ios[i].len == MiB);
	}
	CHECK(bytes >= MiB && bytes < MiB + 64 * KiB);
}

TEST(wls_blockalign)
{
	CHECK(mk("[a]\nrw=randwrite\nbs=8k\nba=4k\nsize=1m\n") == 0);
	int n = stream(11, ios, 1000);
	CHECK(n == 128);
	int odd = 0;
	uint64_t blk[128];
	for (int i = 0; i < n; i++) {
		CHECK(ios[i].offset % 4096 == 0 && ios[i].len == 8192);
		CHECK(ios[i].offset + 8192 <= MiB);
		odd += ios[i].offset % 8192 != 0;
		blk[i] = ios[i].offset;
	}
	CHECKF(odd > 40 && odd < 90, "%d offsets off 8k", odd);
	/* no random map: with replacement, some offsets repeat */
	qsort(blk, 128, sizeof blk[0], cmp_u64);
	int rep = 0;
	for (int i = 1; i < 128; i++)
		rep += blk[i] == blk[i - 1];
	CHECKF(rep > 0, "no offset repeats");
}

TEST(wls_trimwrite_pairs)
{
	/* fio 3.33: t0 w0 t4 w4 ...; io_size=32k is 32k trimmed and 32k
	 * written */
	CHECK(mk("[a]\nrw=trimwrite\nbs=4k\nsize=1m\nio_size=32k\n") == 0);
	int n = stream(1, ios, 100);
	CHECKF(n == 16, "%d I/Os", n);
	for (int i = 0; i < n; i++) {
		CHECK(ios[i].ddir == (i % 2 ? SSD_DDIR_WRITE : SSD_DDIR_TRIM));
		CHECK(ios[i].offset == (uint64_t)(i / 2) * 4096);
	}
	CHECK(mk("[a]\nrw=randtrimwrite\nbs=16k\nsize=64m\nnumber_ios=500\n")
	      == 0);
	n = stream(1, ios, 2000);
	CHECK(n == 1000);
	int jumps = 0;
	for (int i = 0; i < n; i += 2) {
		CHECK(ios[i].ddir == SSD_DDIR_TRIM &&
		      ios[i + 1].ddir == SSD_DDIR_WRITE);
		CHECK(ios[i].offset == ios[i + 1].offset &&
		      ios[i].len == 16384 && ios[i + 1].len == 16384);
		jumps += i && ios[i].offset != ios[i - 1].offset + 16384;
	}
	CHECKF(jumps > 490, "%d random pairs", jumps);
}

static int cmp_u32_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x > y ? -1 : x < y;
}

/* Hits per 4 KiB block of a 16 MiB region over `draws` I/Os. */
static uint32_t *block_hits(const char *dist, int draws)
{
	char text[256];
	snprintf(text, sizeof text, "[a]\nrw=randread\nsize=16m\n"
		 "random_distribution=%s\ntime_based\nruntime=1\n", dist);
	if (mk(text))
		return NULL;
	uint32_t *hits = calloc(4096, sizeof *hits);
	struct ssd_wl *w = ssd_wl_create(&job, 0, 13);
	for (int i = 0; i < draws; i++) {
		struct ssd_io io;
		ssd_wl_next(w, &io);
		hits[io.offset / 4096]++;
	}
	ssd_wl_destroy(w);
	return hits;
}

static uint32_t hottest(const uint32_t *hits)
{
	uint32_t top = 0;
	for (int b = 0; b < 4096; b++)
		if (hits[b] > top)
			top = hits[b];
	return top;
}

/* Share of the hits on the hottest `frac` of the blocks. */
static double top_share(const uint32_t *hits, double frac, int draws)
{
	uint32_t sorted[4096];
	memcpy(sorted, hits, sizeof sorted);
	qsort(sorted, 4096, sizeof sorted[0], cmp_u32_desc);
	uint64_t sum = 0;
	for (int i = 0; i < (int)(4096 * frac); i++)
		sum += sorted[i];
	return (double)sum / draws;
}

TEST(wls_centers_put_the_hottest_block_there)
{
	/* fio 3.33, zipf:1.2:0.25 on 4096 blocks: hottest block 1024 */
	uint32_t *h = block_hits("zipf:1.2:0.25", 200000);
	CHECK(h != NULL);
	CHECKF(h[1024] == hottest(h), "block 1024: %u of %u", h[1024],
	       hottest(h));
	free(h);
	h = block_hits("pareto:0.2:0.5", 200000);
	CHECK(h != NULL);
	CHECKF(h[2048] == hottest(h), "block 2048: %u of %u", h[2048],
	       hottest(h));
	free(h);
	h = block_hits("zipf:1.2:1", 200000);
	CHECK(h != NULL && h[0] == hottest(h));
	free(h);
}

TEST(wls_normal_deviation_and_center)
{
	/* sigma 5% of 4096 blocks: the hottest 20% of the blocks (+-2
	 * sigma) take 95% of the I/O; the peak rank lands on the center */
	int draws = 400000;
	uint32_t *h = block_hits("normal:5:0.25", draws);
	CHECK(h != NULL);
	double s = top_share(h, 0.2, draws);
	CHECKF(s > 0.93 && s < 0.975, "top 20%% share %.3f", s);
	CHECKF(h[1024] > 0.85 * hottest(h), "center %u, hottest %u", h[1024],
	       hottest(h));
	free(h);
	h = block_hits("gauss:20", draws);
	CHECK(h != NULL);
	s = top_share(h, 0.2, draws);
	CHECKF(s > 0.33 && s < 0.45, "sigma 20%%: top 20%% share %.3f", s);
	free(h);
}

TEST(wls_zoned_empty_last_abs_and_per_direction)
{
	/* zoned:50/5:30/15:20/ -- the last zone takes the other 80% */
	CHECK(mk("[a]\nrw=randread\nsize=100m\n"
		 "random_distribution=zoned:50/5:30/15:20/\n"
		 "time_based\nruntime=1\n") == 0);
	struct ssd_wl *w = ssd_wl_create(&job, 0, 5);
	int z[3] = {0}, n = 100000;
	for (int i = 0; i < n; i++) {
		struct ssd_io io;
		CHECK(ssd_wl_next(w, &io) == 1);
		double f = (double)io.offset / (100.0 * MiB);
		z[f < 0.05 ? 0 : f < 0.2 ? 1 : 2]++;
	}
	ssd_wl_destroy(w);
	CHECKF(z[0] > 49000 && z[0] < 51000, "zone 0: %d", z[0]);
	CHECKF(z[1] > 29000 && z[1] < 31000, "zone 1: %d", z[1]);
	CHECKF(z[2] > 19000 && z[2] < 21000, "zone 2: %d", z[2]);

	/* zoned_abs:60/1m:40/3m on 16 MiB: nothing past 4 MiB */
	CHECK(mk("[a]\nrw=randwrite\nsize=16m\n"
		 "random_distribution=zoned_abs:60/1m:40/3m\n"
		 "time_based\nruntime=1\n") == 0);
	w = ssd_wl_create(&job, 0, 5);
	int a = 0, b = 0;
	for (int i = 0; i < n; i++) {
		struct ssd_io io;
		CHECK(ssd_wl_next(w, &io) == 1);
		CHECK(io.offset + io.len <= 4 * MiB);
		a += io.offset < MiB;
		b += io.offset >= MiB;
	}
	ssd_wl_destroy(w);
	CHECKF(a > 59000 && a < 61000, "first 1 MiB: %d", a);

	/* zones per direction: reads in the first 10%, writes in the last */
	CHECK(mk("[a]\nrw=randrw\nsize=100m\n"
		 "random_distribution=zoned:100/10,0/90:100/10\n"
		 "time_based\nruntime=1\n") == 0);
	w = ssd_wl_create(&job, 0, 5);
	int r = 0;
	for (int i = 0; i < n; i++) {
		struct ssd_io io;
		CHECK(ssd_wl_next(w, &io) == 1);
		if (io.ddir == SSD_DDIR_READ) {
			CHECK(io.offset < 10 * MiB);
			r++;
		} else {
			CHECK(io.offset >= 90 * MiB);
		}
	}
	ssd_wl_destroy(w);
	CHECK(r > 45000 && r < 55000);
}

TEST(wls_number_ios_is_exact)
{
	CHECK(mk("[a]\nrw=randwrite\nnumber_ios=10\n") == 0);
	CHECK(stream(1, ios, 100) == 10);
	CHECK(mk("[a]\nrw=write\nnumber_ios=1k\ntime_based\nruntime=1h\n") ==
	      0);
	CHECK(stream(1, ios, 5000) == 1024);
	/* per loop, as fio: number_ios=10 loops=2 is 20 I/Os */
	CHECK(mk("[a]\nrw=randwrite\nnumber_ios=10\nloops=2\n") == 0);
	CHECK(stream(1, ios, 100) == 20);
	/* io_size ends the job first */
	CHECK(mk("[a]\nrw=read\nsize=64k\nnumber_ios=100\n") == 0);
	CHECK(stream(1, ios, 200) == 16);
}

TEST(wls_loops_cover_the_region_each_time)
{
	/* 300 blocks, three loops: each a permutation of the region, in a
	 * new order each loop */
	CHECK(mk("[a]\nrw=randwrite\noffset=1m\nsize=1200k\nloops=3\n") == 0);
	int n = stream(3, ios, 2000);
	CHECKF(n == 900, "%d I/Os", n);
	uint64_t pass[3][300];
	for (int i = 0; i < n; i++)
		pass[i / 300][i % 300] = (ios[i].offset - MiB) / 4096;
	int same = 0;
	for (int i = 0; i < 300; i++)
		same += pass[0][i] == pass[1][i];
	CHECKF(same < 20, "loops 1 and 2 share %d positions", same);
	for (int p = 0; p < 3; p++) {
		qsort(pass[p], 300, sizeof pass[p][0], cmp_u64);
		for (uint64_t i = 0; i < 300; i++)
			CHECKF(pass[p][i] == i, "loop %d: %llu at %llu", p,
			       (unsigned long long)pass[p][i],
			       (unsigned long long)i);
	}
	/* sequential: every loop starts again at the region's start */
	CHECK(mk("[a]\nrw=write:4k\nsize=64k\nloops=2\n") == 0);
	n = stream(3, ios, 100);
	CHECK(n == 16 && ios[8].offset == 0 && ios[9].offset == 8 * KiB);
}

TEST(wls_lfsr_is_a_permutation_without_a_map)
{
	CHECK(mk("[a]\nrw=randread\nrandom_generator=lfsr\nnorandommap\n"
		 "size=1200k\n") == 0);
	int n = stream(3, ios, 1000);
	CHECK(n == 300);
	uint64_t blk[300];
	for (int i = 0; i < n; i++)
		blk[i] = ios[i].offset / 4096;
	qsort(blk, 300, sizeof blk[0], cmp_u64);
	for (uint64_t i = 0; i < 300; i++)
		CHECK(blk[i] == i);
	/* tausworthe with norandommap draws with replacement */
	CHECK(mk("[a]\nrw=randread\nrandom_generator=tausworthe64\n"
		 "norandommap\nsize=1200k\n") == 0);
	n = stream(3, ios, 1000);
	for (int i = 0; i < n; i++)
		blk[i] = ios[i].offset / 4096;
	qsort(blk, 300, sizeof blk[0], cmp_u64);
	int rep = 0;
	for (int i = 1; i < 300; i++)
		rep += blk[i] == blk[i - 1];
	CHECKF(rep > 70, "%d repeats", rep);
}
