/* Flash backend timing: page types (LSB..MSB tR and tPROG), read retry,
 * and the config keys that set them. */
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "nand/flash.h"
#include "t.h"

/* A finished drive of the given cell type with 16 KiB pages and `ppb`
 * pages per block, spreads and retries set by the caller afterwards. */
static struct ssd_config drive(const char *cell, uint32_t ppb)
{
	struct ssd_config c;
	char err[256], v[16];
	ssd_config_defaults(&c);
	snprintf(v, sizeof v, "%u", ppb);
	if (ssd_config_set(&c, "cell", cell, NULL, err, sizeof err) ||
	    ssd_config_set(&c, "pages_per_block", v, NULL, err, sizeof err) ||
	    ssd_config_set(&c, "capacity", "8g", NULL, err, sizeof err) ||
	    ssd_config_set(&c, "op", "0.2", NULL, err, sizeof err) ||
	    ssd_config_finish(&c, err, sizeof err)) {
		fprintf(stderr, "drive: %s\n", err);
		abort();
	}
	return c;
}

/* Mean over a block's pages of a per-type table. */
static double block_mean(const struct ssd_flash *f, const int64_t *pt)
{
	double sum = 0;
	for (uint32_t p = 0; p < f->nand.pages_per_block; p++)
		sum += (double)pt[f->ptype[p]];
	return sum / f->nand.pages_per_block;
}

TEST(flash_page_types_spread_timing_and_keep_the_mean)
{
	static const struct {
		const char *cell;
		uint32_t bits, ppb;
	} k[] = {{"slc", 1, 64}, {"mlc", 2, 128}, {"tlc", 3, 256},
		 {"tlc", 3, 384}, {"qlc", 4, 256}};
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
		struct ssd_config c = drive(k[i].cell, k[i].ppb);
		struct ssd_counters ctr = {0};
		struct ssd_flash f;
		CHECK(ssd_flash_init(&f, &c, 8, &ctr, 1) == 0);
		for (uint32_t p = 0; p < k[i].ppb; p++)
			CHECK(f.ptype[p] == p % k[i].bits);
		/* LSB fastest, MSB slowest; one type on SLC */
		for (uint32_t t = 1; t < k[i].bits; t++)
			CHECKF(f.t_read_pt[t] > f.t_read_pt[t - 1] &&
				       f.t_prog_pt[t] > f.t_prog_pt[t - 1],
			       "%s type %u", k[i].cell, t);
		if (k[i].bits == 1)
			CHECK(f.t_read_pt[0] == c.t_read && f.t_prog_pt[0] == c.t_prog);
		/* the block's mean is the configured time (within rounding),
		 * also when ppb is not a multiple of the bits (256 % 3) */
		double mr = block_mean(&f, f.t_read_pt), mp = block_mean(&f, f.t_prog_pt);
		CHECKF(mr > c.t_read - 1 && mr < c.t_read + 1, "%s: %f vs %lld",
		       k[i].cell, mr, (long long)c.t_read);
		CHECKF(mp > c.t_prog - 1 && mp < c.t_prog + 1, "%s: %f vs %lld",
		       k[i].cell, mp, (long long)c.t_prog);
		ssd_flash_free(&f);
	}
	/* TLC's default: MSB reads about twice as long as LSB */
	struct ssd_config c = drive("tlc", 255);
	CHECK(c.t_read_spread == 0.35 && c.t_prog_spread == 0.6);
	struct ssd_counters ctr = {0};
	struct ssd_flash f;
	CHECK(ssd_flash_init(&f, &c, 8, &ctr, 1) == 0);
	CHECK(f.t_read_pt[0] == 39 * SSD_US && f.t_read_pt[1] == 60 * SSD_US &&
	      f.t_read_pt[2] == 81 * SSD_US);
	CHECK(f.t_prog_pt[0] == 280 * SSD_US && f.t_prog_pt[2] == 1120 * SSD_US);
	ssd_flash_free(&f);
}

TEST(flash_reads_and_programs_take_their_page_types_time)
{
	struct ssd_config c = drive("tlc", 255);
	struct ssd_counters ctr = {0};
	struct ssd_flash f;
	CHECK(ssd_flash_init(&f, &c, 8, &ctr, 1) == 0);
	uint32_t blk = 3, ppb = f.nand.pages_per_block;
	int64_t t = 0;
	/* programs of pages 0..5: LSB, CSB, MSB, LSB, ... */
	for (uint32_t p = 0; p < 6; p++) {
		int64_t s = t > f.die_busy[0] ? t : f.die_busy[0];
		int64_t end = ssd_flash_program(&f, 0, blk, t);
		CHECK(end == s + f.t_prog_pt[p % 3]);
		t = end;
	}
	/* reads, each from an idle die */
	for (uint32_t p = 0; p < 6; p++) {
		t += SSD_MS;
		int64_t done = ssd_flash_read(&f, 0, blk, blk * ppb + p, 1, t);
		CHECK(done == t + f.t_read_pt[p % 3] + f.xfer_lp);
	}
	/* a multi-plane page read counts a page per plane */
	CHECK(f.erase_blocks == (c.multiplane ? c.planes_per_die : 1));
	CHECK(ctr.nand_read == 6 * f.erase_blocks && ctr.read_retry == 0);
	/* blocks in SLC mode have one timing */
	CHECK(ssd_nand_set_slc(&f.nand, 4, 1) == 0);
	for (uint32_t p = 0; p < 3; p++) {
		t += SSD_MS;
		CHECK(ssd_flash_program(&f, 0, 4, t) == t + c.slc_t_prog);
	}
	for (uint32_t p = 0; p < 3; p++) {
		t += SSD_MS;
		CHECK(ssd_flash_read(&f, 0, 4, 4 * ppb + p, 1, t) ==
		      t + c.slc_t_read + f.xfer_lp);
	}
	ssd_flash_free(&f);
}

/* Mean retries per read over n reads of a block erased `erases` times. */
static double mean_retries(struct ssd_flash *f, uint32_t erases, int n,
			   uint32_t *most)
{
	uint64_t before = f->ctr->read_retry;
	*most = 0;
	for (int i = 0; i < n; i++) {
		uint32_t k = ssd_flash_retries(f, erases);
		if (k > *most)
			*most = k;
	}
	return (double)(f->ctr->read_retry - before) / n;
}

TEST(flash_read_retry_rate_rises_with_wear_and_is_seeded)
{
	char err[256];
	struct ssd_config c = drive("tlc", 255);
	/* rate 0: no retries, no draws */
	struct ssd_counters ctr = {0};
	struct ssd_flash f;
	CHECK(ssd_flash_init(&f, &c, 8, &ctr, 1) == 0);
	CHECK(!f.retry_on);
	ssd_flash_free(&f);

	/* a fresh block retries with the rate: geometric, mean about
	 * p/(1-p) = 0.25 */
	CHECK(ssd_config_set(&c, "read_retry_rate", "0.2", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_set(&c, "read_retry_wear", "0.5", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_set(&c, "pe_cycles", "1000", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_finish(&c, err, sizeof err) == 0);
	CHECK(ssd_flash_init(&f, &c, 8, &ctr, 7) == 0);
	CHECK(f.retry_on);
	uint32_t most;
	double m = mean_retries(&f, 0, 40000, &most);
	CHECKF(m > 0.24 && m < 0.26, "fresh: %f", m);
	/* at the rated cycles the chance is 0.2 + 0.5 = 0.7: mean
	 * sum_{k=1..8} 0.7^k = 2.199 (at most 8 retries) */
	m = mean_retries(&f, 1000, 40000, &most);
	CHECKF(m > 2.15 && m < 2.25, "worn: %f", m);
	/* far beyond: capped at 0.99, and at most SSD_FLASH_RETRY_MAX */
	m = mean_retries(&f, 100000, 2000, &most);
	CHECKF(m > 7 && most == SSD_FLASH_RETRY_MAX, "%f %u", m, most);

	/* a read costs one more tR of its page type per retry, and the
	 * draws are the same for the same seed */
	struct ssd_flash g;
	struct ssd_counters ctr2 = {0};
	CHECK(ssd_flash_init(&g, &c, 8, &ctr2, 7) == 0);
	struct ssd_flash h;
	struct ssd_counters ctr3 = {0};
	CHECK(ssd_flash_init(&h, &c, 8, &ctr3, 7) == 0);
	for (uint32_t p = 0; p < 30; p++) {
		CHECK(ssd_flash_program(&g, 0, 1, 0) > 0);
		CHECK(ssd_flash_program(&h, 0, 1, 0) > 0);
	}
	int64_t t = SSD_S;
	int slow = 0;
	for (uint32_t p = 0; p < 30; p++) {
		uint64_t r0 = ctr2.read_retry;
		int64_t a = ssd_flash_read(&g, 0, 1, g.nand.pages_per_block + p, 1, t);
		int64_t b = ssd_flash_read(&h, 0, 1, h.nand.pages_per_block + p, 1, t);
		CHECK(a == b);
		int64_t tr = g.t_read_pt[p % 3];
		CHECK(a == t + tr * (1 + (int64_t)(ctr2.read_retry - r0)) + g.xfer_lp);
		slow += ctr2.read_retry > r0;
		t = a + SSD_MS;
	}
	CHECK(slow > 0 && ctr2.read_retry == ctr3.read_retry);
	ssd_flash_free(&f);
	ssd_flash_free(&g);
	ssd_flash_free(&h);
}

TEST(config_page_timing_keys)
{
	char err[256];
	struct ssd_config c;
	ssd_config_defaults(&c);
	CHECK(c.t_read_spread == -1 && c.t_prog_spread == -1); /* "cell" */
	CHECK(c.read_retry_rate == 0 && c.read_retry_wear == 0);
	CHECK(ssd_config_set(&c, "cell", "mlc", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_set(&c, "t_prog_spread", "30%", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_finish(&c, err, sizeof err) == 0);
	CHECK(c.t_read_spread == 0.2 && c.t_prog_spread == 0.3);
	CHECK(ssd_config_set(&c, "t_read_spread", "cell", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_set(&c, "cell", "slc", NULL, err, sizeof err) == 0);
	CHECK(ssd_config_finish(&c, err, sizeof err) == 0);
	CHECK(c.t_read_spread == 0);
	CHECK(ssd_config_set(&c, "t_read_spread", "0.95", "f.ini:3", err,
			     sizeof err) == SSD_ERANGE);
	CHECKF(strstr(err, "f.ini:3") && strstr(err, "t_read_spread") &&
		       strstr(err, "0..0.9, or cell") && !strchr(err, '\n'),
	       "%s", err);
	CHECK(ssd_config_set(&c, "t_prog_spread", "wide", NULL, err, sizeof err) ==
	      SSD_EPARSE);
	CHECKF(strstr(err, "t_prog_spread") && strstr(err, "not a number"), "%s", err);
	CHECK(ssd_config_set(&c, "read_retry_rate", "cell", NULL, err, sizeof err) ==
	      SSD_EPARSE);
	CHECK(ssd_config_set(&c, "read_retry_rate", "1.5", NULL, err, sizeof err) ==
	      SSD_ERANGE);
	CHECK(ssd_config_set(&c, "read_ahead", "6k", NULL, err, sizeof err) == SSD_ERANGE);
	CHECKF(strstr(err, "read_ahead") && strstr(err, "multiple of 4k"), "%s", err);
	/* code that sets a field directly is checked too */
	c.t_read_spread = -0.5;
	CHECK(ssd_config_finish(&c, err, sizeof err) == SSD_ERANGE);
	CHECKF(strstr(err, "t_read_spread"), "%s", err);
}

/* The counters are in NAND pages and blocks whatever the planes: a
 * multi-plane program, read or erase counts one per plane, so pages
 * programmed times the 4 KiB units of a page is the units programmed. */
TEST(flash_counts_pages_and_blocks_per_plane)
{
	for (int mp = 0; mp < 2; mp++) {
		struct ssd_config c = drive("tlc", 255);
		char err[256];
		CHECK(ssd_config_set(&c, "multiplane", mp ? "yes" : "no", NULL,
				     err, sizeof err) == 0);
		CHECK(ssd_config_set(&c, "planes_per_die", "2", NULL, err,
				     sizeof err) == 0);
		CHECK(ssd_config_finish(&c, err, sizeof err) == 0);
		struct ssd_counters ctr = {0};
		struct ssd_flash f;
		CHECK(ssd_flash_init(&f, &c, 8, &ctr, 1) == 0);
		uint32_t planes = mp ? 2 : 1, ppb = f.nand.pages_per_block;
		int64_t t = 0;
		for (uint32_t p = 0; p < 3; p++)
			t = ssd_flash_program(&f, 0, 3, t);
		t = ssd_flash_read(&f, 0, 3, 3 * ppb + 1, 1, t + SSD_MS);
		ssd_flash_erase(&f, 0, 3, t);
		CHECKF(ctr.nand_prog == 3 * planes, "multiplane %d: %llu pages "
		       "programmed", mp, (unsigned long long)ctr.nand_prog);
		CHECK(ctr.nand_prog_lp == ctr.nand_prog * (c.page_size / SSD_LPAGE));
		CHECK(ctr.nand_read == planes);
		CHECK(ctr.nand_erase == planes);
		ssd_flash_free(&f);
	}
}
