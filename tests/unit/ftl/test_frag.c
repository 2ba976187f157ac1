/* Fragmentation: which pages lie physically consecutive
 * (ssd_ftl_contiguous), the sampled mean run (ssd_ftl_frag), and what a
 * read of scattered data costs the controller (read_piece_overhead). */
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "ftl/ftl.h"
#include "machine/device.h"
#include "t.h"
#include "t_sim.h"

#ifndef SSDLAB_PRESET_DIR
#define SSDLAB_PRESET_DIR "presets"
#endif

#define KIB 1024u

/* The X25-M preset at 1 GiB (10 units, 2-plane 8 KiB pages: two slots a
 * page), no read-ahead, TRIM on, with the given read_piece_overhead. */
static int x25m(const char *piece, struct ssd_config *c, struct ssd_dev **d)
{
	char err[256], rp[64];
	snprintf(rp, sizeof rp, "read_piece_overhead=%s", piece);
	const char *const sets[] = {"capacity=1g", "read_ahead=0", "trim=yes", rp};
	if (t_sim_config(c, "intel-x25m-80g", sets, 4, err, sizeof err)) {
		fprintf(stderr, "x25m: %s\n", err);
		return -1;
	}
	return ssd_dev_create(c, 1, d);
}

static double mean_run(const struct ssd_ftl *f)
{
	uint64_t pages, pieces;
	ssd_ftl_frag(f, &pages, &pieces);
	return pieces ? (double)pages / (double)pieces : 0;
}

/* Write the first `lp` pages in 4 KiB commands, in a scattered order
 * (a stride coprime to lp), or in order; returns the time after. */
static int64_t write_pages(struct ssd_dev *d, uint32_t lp, int scattered,
			   int64_t t)
{
	for (uint32_t i = 0; i < lp; i++) {
		uint32_t l = scattered ? (uint32_t)((uint64_t)i * 7919 % lp) : i;
		int64_t done = ssd_dev_submit(d, SSD_DDIR_WRITE,
					      (uint64_t)l * 4 * KIB, 4 * KIB, t);
		if (done < 0)
			return done;
		t = done;
	}
	return ssd_dev_flush(d, t);
}

TEST(frag_sequential_data_is_one_run_scattered_data_is_not)
{
	struct ssd_config c;
	struct ssd_dev *d;
	CHECK(x25m("0", &c, &d) == 0);
	const struct ssd_ftl *f = d->ftl;
	CHECK(mean_run(f) == 0); /* nothing mapped */
	uint32_t lp = ssd_ftl_pages(f);
	int64_t t = 0;
	/* sequentially, in 128 KiB commands: pages follow each other in a
	 * NAND page, then on the next unit */
	for (uint64_t off = 0; off < (uint64_t)lp * 4 * KIB; off += 128 * KIB) {
		t = ssd_dev_submit(d, SSD_DDIR_WRITE, off, 128 * KIB, t);
		CHECK(t > 0);
	}
	t = ssd_dev_flush(d, t);
	for (uint32_t l = 0; l + 1 < 4096; l++)
		CHECKF(ssd_ftl_contiguous(f, l), "lpn %u", l);
	CHECK(!ssd_ftl_contiguous(f, lp - 1)); /* the last page: no next */
	CHECK(mean_run(f) > 31.9);
	/* the same pages rewritten in a scattered order: almost every page
	 * a piece of its own */
	t = write_pages(d, 4096, 1, t);
	CHECK(t > 0);
	uint32_t cont = 0;
	for (uint32_t l = 0; l + 1 < 4096; l++)
		cont += (uint32_t)ssd_ftl_contiguous(f, l);
	CHECKF(cont < 4096 / 5, "%u of 4095 pairs still contiguous", cont);
	/* a TRIMmed page is in no piece */
	CHECK(ssd_dev_submit(d, SSD_DDIR_TRIM, 8192 * 4 * KIB, 4 * KIB, t) >= 0);
	CHECK(!ssd_ftl_contiguous(f, 8191) && !ssd_ftl_contiguous(f, 8192));
	ssd_dev_destroy(d);
}

/* A 128 KiB read at QD1 of the first 128 KiB, long after the writes. */
static int64_t read_128k(struct ssd_dev *d, int64_t t)
{
	int64_t done = ssd_dev_submit(d, SSD_DDIR_READ, 0, 128 * KIB, t);
	return done < 0 ? done : done - t;
}

TEST(frag_scattered_pieces_cost_the_controller_one_after_another)
{
	int64_t lat[2][2]; /* [overhead][scattered] */
	for (int o = 0; o < 2; o++)
		for (int s = 0; s < 2; s++) {
			struct ssd_config c;
			struct ssd_dev *d;
			CHECK(x25m(o ? "100us" : "0", &c, &d) == 0);
			int64_t t = write_pages(d, 4096, s, 0);
			CHECK(t > 0);
			lat[o][s] = read_128k(d, t + SSD_S);
			CHECK(lat[o][s] > 0);
			ssd_dev_destroy(d);
		}
	/* data written sequentially is one piece: the overhead costs nothing */
	CHECK(lat[1][0] == lat[0][0]);
	/* without it, the ten dies hide the scatter (within 0.5 ms) */
	CHECKF(lat[0][1] < lat[0][0] + 500 * SSD_US, "%lld vs %lld",
	       (long long)lat[0][1], (long long)lat[0][0]);
	/* with it, about 32 pieces: the last is set up after 31 set-ups of
	 * 100 us, one after another (a few pairs follow by chance), then
	 * read and sent; the first pieces' reads overlap the set-ups */
	CHECKF(lat[1][1] >= 28 * 100 * SSD_US + 50 * SSD_US, "%lld",
	       (long long)lat[1][1]);
	CHECKF(lat[1][1] <= 31 * 100 * SSD_US + lat[0][1], "%lld vs %lld",
	       (long long)lat[1][1], (long long)lat[0][1]);
}

/* gc_copies: a sequential rewrite of a drive that needs GC lies
 * contiguous when GC writes its copies to a write point of its own, and
 * broken up by them when they go between the host's pages (the X25-M
 * G1's first firmware).  16 KiB pages: four slots a page, so a copy in a
 * host page splits the host's run. */
static double rewrite_run(const char *copies)
{
	char err[256], gc[64];
	snprintf(gc, sizeof gc, "gc_copies=%s", copies);
	const char *const sets[] = {"page_size=16k", "pages_per_block=16", gc};
	struct ssd_dev *d = t_sim_drive("tiny", sets, 3, err, sizeof err);
	if (!d)
		return -1;
	uint32_t lp = (uint32_t)(ssd_dev_capacity(d) / (4 * KIB));
	int64_t t = write_pages(d, lp, 0, 0);
	struct ssd_rng rng;
	ssd_rng_seed(&rng, 9);
	for (uint32_t i = 0; i < 2 * lp && t >= 0; i++) {
		uint64_t l = ssd_rng_next(&rng) % lp;
		t = ssd_dev_submit(d, SSD_DDIR_WRITE, l * 4 * KIB, 4 * KIB, t);
	}
	if (t >= 0)
		t = write_pages(d, lp, 0, t);
	double run = t < 0 || ssd_dev_check_failure(d) ? -1 : mean_run(d->ftl);
	ssd_dev_destroy(d);
	return run;
}

TEST(frag_gc_copies_between_host_pages_break_a_sequential_rewrite)
{
	double own = rewrite_run("own"), host = rewrite_run("host");
	CHECKF(own > 24 && host > 0 && host < own / 2, "own %.2f host %.2f", own, host);
}
