/* FTL, NAND and flash-timing tests on small hand-built drives. */
#include <stdlib.h>
#include <string.h>

#include "machine/device.h"
#include "ftl/ftl.h"
#include "ftl/ftl_int.h"
#include "nand/nand.h"
#include "t.h"

static struct ssd_config small(uint32_t page, uint32_t ppb, int policy,
			       double op, uint64_t cap)
{
	struct ssd_config c;
	memset(&c, 0, sizeof c);
	c.trim = 1; /* the drive takes TRIM (the trim key's default) */
	strcpy(c.name, "test");
	c.capacity = cap;
	c.op = op;
	c.page_size = page;
	c.pages_per_block = ppb;
	c.channels = 2;
	c.dies_per_channel = 2;
	c.planes_per_die = 1;
	c.cell = SSD_CELL_TLC;
	c.t_read = 50 * SSD_US;
	c.t_prog = 500 * SSD_US;
	c.t_erase = 3 * SSD_MS;
	c.pe_cycles = 3000;
	c.channel_mbps = 800;
	c.gc_policy = policy;
	c.gc_window = 4;
	c.gc_fg_blocks = 2;
	c.gc_bg_blocks = 6;
	c.pe_spread = 0.1;
	c.wl_dynamic = 1;
	c.wl_static = 1;
	c.wl_threshold = 100;
	c.slc_t_read = 30 * SSD_US;
	c.slc_t_prog = 200 * SSD_US;
	c.slc_pe_cycles = 30000;
	uint64_t units = 4, bytes_per_block = (uint64_t)page * ppb;
	c.blocks_per_plane = (uint32_t)((cap * (1 + op) + bytes_per_block * units - 1) /
					(bytes_per_block * units)) + c.gc_fg_blocks + 2;
	return c;
}

TEST(nand_rules_refuse_out_of_order_and_double_program)
{
	struct ssd_nand n;
	CHECK(ssd_nand_init(&n, 4, 8, 2) == 0);
	CHECK(ssd_nand_program_at(&n, 1, 1) == SSD_ESTATE); /* skips page 0 */
	CHECK(ssd_nand_program_at(&n, 1, 0) == 0);
	CHECK(ssd_nand_program_at(&n, 1, 0) == SSD_ESTATE); /* twice */
	for (int i = 1; i < 8; i++)
		CHECK(ssd_nand_program(&n, 1) == i);
	CHECK(ssd_nand_program(&n, 1) == SSD_ESTATE); /* block full */
	CHECK(ssd_nand_programmed(&n, 1, 7));
	ssd_nand_erase(&n, 1);
	CHECK(!ssd_nand_programmed(&n, 1, 0));
	CHECK(n.erases[1] == 1);
	CHECK(ssd_nand_program(&n, 1) == 0);
	uint32_t lo, hi;
	double mean;
	ssd_nand_erase_stats(&n, &lo, &mean, &hi);
	CHECK(lo == 0 && hi == 1 && mean == 0.25);
	ssd_nand_free(&n);
}

/* Random overwrites, trims and reads with the invariant checker after
 * every GC victim, and a shadow map of what must be mapped. */
static void torture(int policy, uint32_t page, uint64_t writes)
{
	struct ssd_config c = small(page, 32, policy, 0.15, 4 << 20);
	struct ssd_ftl *f;
	CHECK(ssd_ftl_create(&c, 7, &f) == 0);
	ssd_ftl_set_check_every(f, 1); /* timing checks too */
	struct ssd_rng r;
	ssd_rng_seed(&r, 99);
	uint8_t *shadow = calloc(f->nlp, 1);
	int64_t t = 0;
	for (uint64_t i = 0; i < writes; i++) {
		uint64_t x = ssd_rng_below(&r, 100);
		uint32_t lpn = (uint32_t)ssd_rng_below(&r, f->nlp);
		t += 1000;
		if (x < 90) {
			int64_t done = ssd_ftl_write(f, lpn, t);
			CHECKF(done >= t, "write %llu failed: %lld", (unsigned long long)i, (long long)done);
			shadow[lpn] = 1;
		} else if (x < 95) {
			uint32_t n = 1 + (uint32_t)ssd_rng_below(&r, 8);
			if (lpn + n > f->nlp)
				n = f->nlp - lpn;
			CHECK(ssd_ftl_trim(f, lpn, n, t) >= t);
			memset(shadow + lpn, 0, n);
		} else if (x < 99) {
			CHECK(ssd_ftl_read(f, lpn, 1, t) >= t);
		} else {
			CHECK(ssd_ftl_flush(f, t) >= t);
		}
		if (f->check_failed)
			break;
	}
	CHECKF(!f->check_failed, "%s", f->check_msg);
	char err[160];
	CHECKF(ssd_ftl_check(f, err, sizeof err) == 0, "%s", err);
	for (uint32_t l = 0; l < f->nlp; l++)
		CHECKF((f->l2p[l] != SSD_UNMAPPED) == shadow[l], "lpn %u", l);
	CHECK(f->ctr.gc_victims > 100);
	free(shadow);
	ssd_ftl_destroy(f);
}

TEST(ftl_invariants_greedy_4k) { torture(SSD_GC_GREEDY, 4096, 300000); }
TEST(ftl_invariants_greedy_16k) { torture(SSD_GC_GREEDY, 16384, 300000); }
TEST(ftl_invariants_fifo) { torture(SSD_GC_FIFO, 8192, 200000); }
TEST(ftl_invariants_random) { torture(SSD_GC_RANDOM, 4096, 200000); }
TEST(ftl_invariants_cost_benefit) { torture(SSD_GC_COST_BENEFIT, 16384, 200000); }

TEST(ftl_trim_and_unmapped_reads_touch_no_nand)
{
	struct ssd_config c = small(4096, 32, SSD_GC_GREEDY, 0.1, 1 << 20);
	struct ssd_ftl *f;
	CHECK(ssd_ftl_create(&c, 1, &f) == 0);
	CHECK(ssd_ftl_read(f, 5, 4, 1000) == 1000); /* never written */
	CHECK(f->ctr.nand_read == 0);
	CHECK(f->ctr.host_unmapped_read_lp == 4);
	for (uint32_t l = 0; l < 64; l++)
		CHECK(ssd_ftl_write(f, l, 0) >= 0);
	CHECK(ssd_ftl_trim(f, 0, 64, 0) == 0);
	CHECK(f->mapped == 0);
	CHECK(ssd_ftl_read(f, 0, 64, 5 * SSD_MS) == 5 * SSD_MS);
	CHECK(f->ctr.nand_read == 0);
	char err[160];
	CHECKF(ssd_ftl_check(f, err, sizeof err) == 0, "%s", err);
	ssd_ftl_destroy(f);
}

TEST(ftl_subpage_writes_pack_and_flush_pads)
{
	struct ssd_config c = small(16384, 32, SSD_GC_GREEDY, 0.1, 1 << 20);
	struct ssd_ftl *f;
	CHECK(ssd_ftl_create(&c, 1, &f) == 0);
	CHECK(f->spp == 4);
	int64_t d = ssd_ftl_write(f, 10, 0);
	CHECK(d > 0);
	CHECK(f->ctr.nand_prog == 0);         /* page still open */
	CHECK(ssd_ftl_read(f, 10, 1, d) == d); /* served from the register */
	CHECK(f->ctr.nand_read == 0);
	int64_t fl = ssd_ftl_flush(f, d);
	CHECK(fl >= d + c.t_prog);
	CHECK(f->ctr.nand_prog == 1 && f->ctr.pad_lp == 3);
	/* four more writes fill one page of the next unit exactly */
	for (uint32_t l = 20; l < 24; l++)
		CHECK(ssd_ftl_write(f, l, fl) > 0);
	CHECK(f->ctr.nand_prog == 2 && f->ctr.pad_lp == 3);
	/* they share one array read */
	int64_t r = ssd_ftl_read(f, 20, 4, fl + SSD_MS * 10);
	CHECK(f->ctr.nand_read == 1);
	CHECK(r == fl + SSD_MS * 10 + c.t_read + 4 * ssd_flash_xfer_ns(&c));
	char err[160];
	CHECKF(ssd_ftl_check(f, err, sizeof err) == 0, "%s", err);
	ssd_ftl_destroy(f);
}

TEST(flash_dies_work_in_parallel_and_share_channels)
{
	struct ssd_config c = small(4096, 32, SSD_GC_GREEDY, 0.1, 1 << 20);
	struct ssd_ftl *f;
	CHECK(ssd_ftl_create(&c, 1, &f) == 0);
	/* four page writes at t=0 go to four units on four dies */
	for (uint32_t l = 0; l < 4; l++)
		CHECK(ssd_ftl_write(f, l, 0) > 0);
	for (uint32_t d = 0; d < 4; d++)
		CHECK(f->flash.die_busy[d] > 0 && f->flash.die_busy[d] <= 2 * ssd_flash_xfer_ns(&c) + c.t_prog);
	/* reads of the four: dies in parallel, two channels serialise the
	 * transfers of their two dies */
	int64_t t = SSD_S;
	int64_t last = 0;
	for (uint32_t l = 0; l < 4; l++) {
		int64_t r = ssd_ftl_read(f, l, 1, t);
		if (r > last)
			last = r;
	}
	CHECK(last == t + c.t_read + 2 * ssd_flash_xfer_ns(&c));
	ssd_ftl_destroy(f);
}

TEST(ftl_foreground_gc_delays_host_and_idle_gc_refills)
{
	struct ssd_config c = small(4096, 32, SSD_GC_GREEDY, 1.0, 2 << 20);
	struct ssd_dev *d;
	CHECK(ssd_dev_create(&c, 1, &d) == 0);
	struct ssd_rng r;
	ssd_rng_seed(&r, 3);
	int64_t t = 0, worst = 0;
	uint64_t nlp = c.capacity / SSD_LPAGE;
	for (int i = 0; i < 20000; i++) {
		int64_t done = ssd_dev_submit(d, SSD_DDIR_WRITE,
					      ssd_rng_below(&r, nlp) * SSD_LPAGE,
					      4096, t);
		CHECK(done > t);
		if (done - t > worst)
			worst = done - t;
		t = done;
	}
	CHECK(d->ftl->ctr.gc_copy_lp > 0);
	CHECK(worst > c.t_prog); /* some write waited for GC work */
	uint64_t before = d->ftl->ctr.gc_bg_copy_lp + d->ftl->ctr.nand_erase;
	ssd_dev_idle(d, t + 10 * SSD_S);
	for (uint32_t u = 0; u < d->ftl->units; u++)
		CHECKF(d->ftl->unit[u].nfree >= c.gc_bg_blocks, "unit %u has %u free", u,
		       d->ftl->unit[u].nfree);
	CHECK(d->ftl->ctr.gc_bg_copy_lp + d->ftl->ctr.nand_erase > before);
	char err[160];
	CHECKF(ssd_ftl_check(d->ftl, err, sizeof err) == 0, "%s", err);
	ssd_dev_destroy(d);
}

TEST(device_rejects_out_of_range_commands)
{
	struct ssd_config c = small(4096, 32, SSD_GC_GREEDY, 0.1, 1 << 20);
	struct ssd_dev *d;
	CHECK(ssd_dev_create(&c, 1, &d) == 0);
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE, c.capacity, 4096, 0) == SSD_EINVAL);
	CHECK(ssd_dev_submit(d, SSD_DDIR_READ, c.capacity - 4096, 8192, 0) == SSD_EINVAL);
	CHECK(ssd_dev_submit(d, SSD_DDIR_READ, 0, 0, 0) == SSD_EINVAL);
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE, c.capacity - 4096, 4096, 0) > 0);
	ssd_dev_destroy(d);
}

TEST(udiv_matches_hardware_division)
{
	static const uint32_t ds[] = {1, 2, 3, 4, 7, 12, 64, 256, 1000, 1152,
				      3 * 1024, 65535, 65536, 1u << 20, 12345679,
				      UINT32_MAX - 1, UINT32_MAX};
	struct ssd_rng r;
	ssd_rng_seed(&r, 11);
	for (size_t k = 0; k < sizeof ds / sizeof ds[0]; k++) {
		struct ssd_udiv v = ssd_udiv_init(ds[k]);
		uint32_t edge[] = {0, 1, ds[k] - 1, ds[k], ds[k] + 1, UINT32_MAX,
				   UINT32_MAX - 1, ds[k] * 2u, ds[k] * 2u - 1};
		for (size_t e = 0; e < sizeof edge / sizeof edge[0]; e++)
			CHECKF(ssd_udiv(edge[e], v) == edge[e] / ds[k], "%u / %u",
			       edge[e], ds[k]);
		for (int i = 0; i < 100000; i++) {
			uint32_t n = (uint32_t)ssd_rng_next(&r);
			CHECKF(ssd_udiv(n, v) == n / ds[k], "%u / %u", n, ds[k]);
		}
	}
}

/* A flush makes host data durable and leaves GC copies in their open
 * page: their victim is erased only once that page is programmed, so
 * the victim stays the durable copy meanwhile (padding GC pages at every
 * flush made sync writes clean without progress). */
TEST(victim_is_erased_only_after_its_copies_are_programmed)
{
	struct ssd_config c = small(16384, 16, SSD_GC_GREEDY, 0.3, 1 << 20);
	c.gc_pacing = 1; /* paced GC leaves a victim between host writes */
	struct ssd_ftl *f;
	CHECK(ssd_ftl_create(&c, 1, &f) == 0);
	ssd_ftl_set_check_every(f, 1); /* timing checks too */
	struct ssd_rng r;
	ssd_rng_seed(&r, 5);
	int64_t t = 0;
	uint64_t seen_pending = 0;
	for (int i = 0; i < 20000; i++) {
		t = ssd_ftl_write(f, (uint32_t)ssd_rng_below(&r, f->nlp), t);
		CHECK(t >= 0);
		for (uint32_t ui = 0; ui < f->units; ui++) {
			const struct ssd_unit *u = &f->unit[ui];
			for (uint32_t b = u->pend_head; b != SSD_NO_BLOCK; b = f->next[b]) {
				CHECK(f->state[b] == SSD_BLK_VICTIM && f->valid[b] == 0);
				CHECK(u->gc.fill > 0);
				seen_pending++;
			}
		}
		if (i % 97 == 0) {
			uint32_t gcfill[64];
			for (uint32_t ui = 0; ui < f->units; ui++)
				gcfill[ui] = f->unit[ui].gc.fill;
			uint64_t pad = f->ctr.pad_lp;
			int64_t done = ssd_ftl_flush(f, t);
			CHECK(done >= t);
			for (uint32_t ui = 0; ui < f->units; ui++) {
				CHECK(f->unit[ui].host.fill == 0);
				CHECK(f->unit[ui].gc.fill == gcfill[ui]);
			}
			CHECK(f->ctr.pad_lp >= pad);
			t = done;
		}
	}
	CHECKF(seen_pending > 0, "copies %llu victims %llu", (unsigned long long)f->ctr.gc_copy_lp, (unsigned long long)f->ctr.gc_victims);
	CHECK(f->ctr.gc_victims > 100);
	CHECKF(!f->check_failed, "%s", f->check_msg);
	ssd_ftl_destroy(f);
}

/* torture() on drives with the issue-3 features switched on */
static void torture_cfg(struct ssd_config c, uint64_t writes, int expect_gc)
{
	struct ssd_ftl *f;
	CHECK(ssd_ftl_create(&c, 7, &f) == 0);
	ssd_ftl_set_check_every(f, 1); /* timing checks too */
	struct ssd_rng r;
	ssd_rng_seed(&r, 99);
	int64_t t = 0;
	for (uint64_t i = 0; i < writes && !f->readonly; i++) {
		uint64_t x = ssd_rng_below(&r, 100);
		uint32_t lpn = (uint32_t)ssd_rng_below(&r, f->nlp);
		t += 1000;
		if (x < 90) {
			int64_t done = ssd_ftl_write(f, lpn, t);
			CHECKF(done >= t || done == SSD_EROFS, "write %llu: %lld",
			       (unsigned long long)i, (long long)done);
		} else if (x < 94) {
			CHECK(ssd_ftl_trim(f, lpn, 1, t) >= t || f->readonly);
		} else if (x < 98) {
			CHECK(ssd_ftl_read(f, lpn, 1, t) >= t);
		} else if (x < 99) {
			CHECK(ssd_ftl_flush(f, t) >= t);
		} else {
			ssd_ftl_idle(f, t, t + 50 * SSD_MS);
			t += 50 * SSD_MS;
		}
		if (f->check_failed)
			break;
	}
	CHECKF(!f->check_failed, "%s", f->check_msg);
	char err[160];
	CHECKF(ssd_ftl_check(f, err, sizeof err) == 0, "%s", err);
	if (expect_gc)
		CHECK(f->ctr.gc_victims > 50);
	ssd_ftl_destroy(f);
}

TEST(ftl_invariants_static_slc_cache)
{
	struct ssd_config c = small(16384, 32, SSD_GC_GREEDY, 0.3, 4 << 20);
	c.slc_cache = SSD_SLC_STATIC;
	c.slc_cache_size = 512 << 10;
	c.blocks_per_plane += 12;
	torture_cfg(c, 200000, 1);
}

TEST(ftl_invariants_dynamic_slc_cache)
{
	struct ssd_config c = small(4096, 48, SSD_GC_FIFO, 0.2, 4 << 20);
	c.slc_cache = SSD_SLC_DYNAMIC;
	c.slc_cache_size = 1 << 20;
	torture_cfg(c, 200000, 1);
}

TEST(ftl_invariants_map_cache)
{
	struct ssd_config c = small(8192, 32, SSD_GC_GREEDY, 0.2, 4 << 20);
	c.map_cache = 4 * 8192;
	torture_cfg(c, 100000, 1);
}

TEST(ftl_invariants_through_wear_out)
{
	struct ssd_config c = small(4096, 32, SSD_GC_COST_BENEFIT, 0.25, 2 << 20);
	c.pe_cycles = 12;
	c.slc_pe_cycles = 120;
	c.wl_threshold = 3;
	c.slc_cache = SSD_SLC_DYNAMIC;
	c.slc_cache_size = 256 << 10;
	torture_cfg(c, 3000000, 0);
}

/* A fresh drive, written sequentially: pages go to SLC mode until the
 * static cache is full, then to native mode; idle time folds it all. */
TEST(slc_static_cache_fills_then_writes_native_then_folds)
{
	struct ssd_config c = small(4096, 48, SSD_GC_GREEDY, 0.3, 4 << 20);
	c.slc_cache = SSD_SLC_STATIC;
	c.slc_cache_size = 768 << 10; /* 192 slots: 12 SLC blocks of 16 */
	c.blocks_per_plane += 3;
	struct ssd_ftl *f;
	CHECK(ssd_ftl_create(&c, 1, &f) == 0);
	CHECK(f->slc_static == 3 && f->spb_slc == 16);
	int64_t t = 0, first_native = -1;
	for (uint32_t l = 0; l < f->nlp; l++) {
		int64_t d = ssd_ftl_write(f, l, t);
		CHECK(d >= t);
		if (first_native < 0 && f->ctr.slc_write_lp == l)
			first_native = l;
		t = d;
	}
	CHECKF(first_native == 192, "cache took %lld pages", (long long)first_native);
	CHECK(f->ctr.slc_write_lp == 192);
	struct ssd_health h;
	ssd_ftl_health(f, &h);
	CHECK(h.slc_cache_bytes == 192 * 4096);
	ssd_ftl_idle(f, t, t + 10 * SSD_S);
	ssd_ftl_health(f, &h);
	CHECK(h.slc_cache_bytes == 0);
	CHECK(f->ctr.fold_copy_lp == 192);
	for (uint32_t u = 0; u < f->units; u++)
		CHECK(f->unit[u].nslc_free == 3 && f->unit[u].nslc == 0);
	char err[160];
	CHECKF(ssd_ftl_check(f, err, sizeof err) == 0, "%s", err);
	ssd_ftl_destroy(f);
}

/* The dynamic cache is as large as free space allows: smaller on a fuller
 * drive. */
TEST(slc_dynamic_cache_shrinks_as_the_drive_fills)
{
	struct ssd_config c = small(4096, 48, SSD_GC_GREEDY, 0.3, 4 << 20);
	c.slc_cache = SSD_SLC_DYNAMIC;
	c.slc_cache_size = 4 << 20; /* as big as the drive: free space rules */
	uint64_t took[2];
	for (int full = 0; full < 2; full++) {
		struct ssd_ftl *f;
		CHECK(ssd_ftl_create(&c, 1, &f) == 0);
		int64_t t = 0;
		uint32_t pre = full ? f->nlp * 9 / 10 : 0;
		for (uint32_t l = 0; l < pre; l++)
			t = ssd_ftl_write(f, l, t);
		ssd_ftl_idle(f, t, t + 100 * SSD_S); /* fold what was cached */
		t += 100 * SSD_S;
		uint64_t s0 = f->ctr.slc_write_lp;
		for (uint32_t l = 0; l < f->nlp / 10; l++)
			CHECK((t = ssd_ftl_write(f, pre ? l : f->nlp - 1 - l, t)) >= 0);
		took[full] = f->ctr.slc_write_lp - s0;
		char err[160];
		CHECKF(ssd_ftl_check(f, err, sizeof err) == 0, "%s", err);
		ssd_ftl_destroy(f);
	}
	CHECKF(took[0] > 2 * took[1], "fresh %llu, 90%% full %llu",
	       (unsigned long long)took[0], (unsigned long long)took[1]);
}

/* SLC-mode pages program and read faster than native ones. */
TEST(slc_mode_pages_are_faster)
{
	struct ssd_config c = small(4096, 48, SSD_GC_GREEDY, 0.3, 4 << 20);
	c.slc_cache = SSD_SLC_STATIC;
	c.slc_cache_size = 256 << 10;
	c.blocks_per_plane += 2;
	struct ssd_ftl *f;
	CHECK(ssd_ftl_create(&c, 1, &f) == 0);
	CHECK(ssd_ftl_write(f, 0, 0) >= 0);
	CHECK(f->flash.die_busy[0] == ssd_flash_xfer_ns(&c) + c.slc_t_prog);
	int64_t r = ssd_ftl_read(f, 0, 1, SSD_S);
	CHECK(r == SSD_S + c.slc_t_read + ssd_flash_xfer_ns(&c));
	ssd_ftl_destroy(f);
}

/* Write a tiny drive with very low endurance until it turns read-only:
 * then writes and trims are refused, reads work, and every page written
 * is still mapped. */
TEST(wear_out_turns_read_only_and_keeps_data)
{
	struct ssd_config c = small(4096, 32, SSD_GC_GREEDY, 0.25, 2 << 20);
	c.pe_cycles = 10;
	struct ssd_ftl *f;
	CHECK(ssd_ftl_create(&c, 3, &f) == 0);
	struct ssd_rng r;
	ssd_rng_seed(&r, 4);
	uint8_t *written = calloc(f->nlp, 1);
	int64_t t = 0;
	uint64_t n = 0;
	for (; n < 10000000; n++) {
		uint32_t lpn = (uint32_t)ssd_rng_below(&r, f->nlp);
		int64_t d = ssd_ftl_write(f, lpn, t);
		if (d == SSD_EROFS)
			break;
		CHECKF(d >= t, "write failed: %lld", (long long)d);
		written[lpn] = 1;
		t = d;
	}
	CHECK(f->readonly);
	CHECK(f->bad > 0 && f->ctr.erase_fail > 0);
	CHECK(ssd_ftl_write(f, 0, t) == SSD_EROFS);
	CHECK(ssd_ftl_trim(f, 0, 1, t) == SSD_EROFS);
	for (uint32_t l = 0; l < f->nlp; l++) {
		CHECKF((f->l2p[l] != SSD_UNMAPPED) == written[l], "lpn %u lost", l);
		CHECK(ssd_ftl_read(f, l, 1, t) >= t);
	}
	char err[160];
	CHECKF(ssd_ftl_check(f, err, sizeof err) == 0, "%s", err);
	struct ssd_health h;
	ssd_ftl_health(f, &h);
	CHECKF(h.read_only && h.available_spare == 0 && h.percentage_used > 75,
	       "ro %d spare %.1f used %.1f", h.read_only, h.available_spare,
	       h.percentage_used);
	CHECK(h.bad_blocks == f->bad);
	free(written);
	ssd_ftl_destroy(f);
}

/* Hot/cold data: static wear leveling narrows the erase-count spread. */
static uint32_t spread_after_hot_cold(int wl_static)
{
	struct ssd_config c = small(4096, 32, SSD_GC_GREEDY, 0.25, 2 << 20);
	c.wl_static = wl_static;
	c.wl_threshold = 5;
	c.pe_cycles = 100000;
	struct ssd_ftl *f;
	if (ssd_ftl_create(&c, 3, &f))
		return 0;
	int64_t t = 0;
	for (uint32_t l = 0; l < f->nlp; l++)
		t = ssd_ftl_write(f, l, t);
	struct ssd_rng r;
	ssd_rng_seed(&r, 8);
	for (int i = 0; i < 400000; i++) /* the hot tenth of the span */
		t = ssd_ftl_write(f, (uint32_t)ssd_rng_below(&r, f->nlp / 10), t);
	uint32_t lo, hi;
	double mean;
	ssd_ftl_erase_stats(f, &lo, &mean, &hi);
	ssd_ftl_destroy(f);
	return hi - lo;
}

TEST(static_wear_leveling_narrows_the_erase_spread)
{
	uint32_t off = spread_after_hot_cold(0), on = spread_after_hot_cold(1);
	CHECKF(on * 4 < off, "spread with static WL %u, without %u", on, off);
}

/* A map cache smaller than the map costs NAND reads on misses and writes
 * back dirty map pages, counted in the NAND counters. */
TEST(map_cache_misses_read_and_dirty_pages_write_back)
{
	struct ssd_config c = small(4096, 32, SSD_GC_GREEDY, 0.25, 8 << 20);
	c.map_cache = 4096; /* one map page of 1024 entries, of 2048 */
	struct ssd_ftl *f;
	CHECK(ssd_ftl_create(&c, 1, &f) == 0);
	CHECK(f->mc_cap == 1 && f->mc_pages == 2);
	int64_t t = ssd_ftl_write(f, 0, 0);
	CHECK(f->ctr.map_read == 1 && f->ctr.map_write == 0);
	t = ssd_ftl_write(f, 1, t);          /* same map page: hit */
	CHECK(f->ctr.map_read == 1);
	int64_t r = ssd_ftl_read(f, 1500, 1, t + SSD_S); /* miss, evicts dirty */
	CHECK(f->ctr.map_read == 2 && f->ctr.map_write == 1);
	CHECK(r >= t + SSD_S + c.t_read); /* waited for the map read */
	ssd_ftl_destroy(f);
}

/* A write buffer absorbs a burst: its first entries complete at once,
 * then writes wait for the oldest entry to drain into the flash. */
TEST(write_buffer_absorbs_a_burst_then_back_pressures)
{
	struct ssd_config c = small(4096, 32, SSD_GC_GREEDY, 0.3, 4 << 20);
	c.write_buffer = 16 * 4096;
	c.cmd_overhead = 2 * SSD_US;
	struct ssd_dev *d;
	CHECK(ssd_dev_create(&c, 1, &d) == 0);
	int64_t first = 0, last = 0;
	for (int i = 0; i < 64; i++) {
		int64_t done = ssd_dev_submit(d, SSD_DDIR_WRITE, (uint64_t)i * 4096, 4096, 0);
		CHECK(done > 0);
		if (i == 15)
			first = done;
		last = done;
	}
	CHECK(first == c.cmd_overhead);       /* 16 buffered at once */
	CHECK(last > c.t_prog);               /* the rest waited */
	CHECK(d->ftl->ctr.buffer_hits == 16);
	/* flush waits for the buffer to drain and pads nothing here (4 KiB
	 * pages) but finishes after the last program */
	int64_t fl = ssd_dev_flush(d, last);
	CHECK(fl >= d->ssd->wb_last);
	ssd_dev_destroy(d);
}

/* FUA: the write completes only once its page is programmed. */
TEST(fua_write_completes_after_its_program)
{
	struct ssd_config c = small(16384, 32, SSD_GC_GREEDY, 0.3, 4 << 20);
	c.write_buffer = 1 << 20;
	c.cmd_overhead = 2 * SSD_US;
	struct ssd_dev *d;
	CHECK(ssd_dev_create(&c, 1, &d) == 0);
	int64_t plain = ssd_dev_submit(d, SSD_DDIR_WRITE, 0, 4096, 0);
	CHECK(plain == c.cmd_overhead);
	int64_t fua = ssd_dev_submit(d, SSD_DDIR_WRITE | SSD_DEV_FUA, 8192, 4096, SSD_MS);
	CHECK(fua >= SSD_MS + c.t_prog);
	CHECK(d->ftl->ctr.pad_lp > 0); /* its partly filled page was padded */
	ssd_dev_destroy(d);
}

/* Paced GC spreads cleaning over host writes: the worst write waits far
 * less than behind a burst, for the same work. */
static int64_t worst_write(int pacing, uint64_t *copies)
{
	struct ssd_config c = small(16384, 64, SSD_GC_GREEDY, 0.1, 8 << 20);
	c.gc_pacing = pacing;
	struct ssd_dev *d;
	if (ssd_dev_create(&c, 1, &d))
		return -1;
	struct ssd_rng r;
	ssd_rng_seed(&r, 3);
	uint64_t nlp = c.capacity / SSD_LPAGE;
	int64_t t = 0, worst = 0;
	for (uint64_t i = 0; i < nlp; i++)
		t = ssd_dev_submit(d, SSD_DDIR_WRITE, i * SSD_LPAGE, 4096, t);
	for (int i = 0; i < 60000; i++) {
		int64_t done = ssd_dev_submit(d, SSD_DDIR_WRITE,
					      ssd_rng_below(&r, nlp) * SSD_LPAGE,
					      4096, t);
		if (done - t > worst)
			worst = done - t;
		t = done;
	}
	*copies = d->ftl->ctr.gc_copy_lp;
	ssd_dev_destroy(d);
	return worst;
}

TEST(paced_gc_bounds_write_latency)
{
	uint64_t cp, cb;
	int64_t paced = worst_write(1, &cp), burst = worst_write(0, &cb);
	CHECKF(paced > 0 && paced * 3 < burst, "worst write: paced %lld ns, "
	       "burst %lld ns", (long long)paced, (long long)burst);
	CHECK(cp > 0 && cb > 0);
}

TEST(ftl_invariants_paced_gc)
{
	struct ssd_config c = small(8192, 32, SSD_GC_GREEDY, 0.2, 4 << 20);
	c.gc_pacing = 1;
	c.slc_cache = SSD_SLC_DYNAMIC;
	c.slc_cache_size = 512 << 10;
	torture_cfg(c, 200000, 1);
}

/* TRIM modes.  immediate: the controller is busy unmapping and a read
 * arriving meanwhile waits; deferred: acknowledged at once, reads see
 * zeros at once, but GC still treats the pages as valid until idle time
 * processes them; background: the queue drains beside other I/O. */
static struct ssd_dev *trimmed_drive(int mode, int64_t *t)
{
	struct ssd_config c = small(4096, 32, SSD_GC_GREEDY, 0.3, 4 << 20);
	c.trim_mode = mode;
	c.trim_cost = 100;
	c.trim_bg_share = 0.1;
	c.cmd_overhead = 1000;
	struct ssd_dev *d;
	if (ssd_dev_create(&c, 1, &d))
		return NULL;
	*t = 0;
	for (uint64_t off = 0; off < c.capacity; off += 65536)
		*t = ssd_dev_submit(d, SSD_DDIR_WRITE, off, 65536, *t);
	return d;
}

TEST(trim_immediate_stalls_other_commands)
{
	int64_t t;
	struct ssd_dev *d = trimmed_drive(SSD_TRIM_IMMEDIATE, &t);
	CHECK(d);
	t += SSD_S;
	int64_t done = ssd_dev_submit(d, SSD_DDIR_TRIM, 0, 2 << 20, t);
	CHECK(done == t + 512 * 100 + 1000);
	int64_t r = ssd_dev_submit(d, SSD_DDIR_READ, 3 << 20, 4096, t + 10);
	CHECK(r > done); /* waited for the TRIM */
	CHECK(d->ftl->mapped == 512);
	ssd_dev_destroy(d);
}

TEST(trim_deferred_waits_for_idle_and_gc_copies_meanwhile)
{
	int64_t t;
	struct ssd_dev *d = trimmed_drive(SSD_TRIM_DEFERRED, &t);
	CHECK(d);
	t += SSD_S;
	int64_t done = ssd_dev_submit(d, SSD_DDIR_TRIM, 0, 2 << 20, t);
	CHECK(done == t + 1000); /* acknowledged at once */
	CHECK(d->ftl->tq_pages == 512 && d->ftl->mapped == 1024);
	uint64_t reads = d->ftl->ctr.nand_read;
	int64_t r = ssd_dev_submit(d, SSD_DDIR_READ, 0, 65536, done);
	CHECK(r == done + 1000 && d->ftl->ctr.nand_read == reads); /* zeros */
	/* a rewrite supersedes the queued TRIM of its page */
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE, 0, 4096, r) > 0);
	ssd_dev_idle(d, r + SSD_S);
	/* the idle gap starts at the next command */
	CHECK(ssd_dev_submit(d, SSD_DDIR_READ, 4096, 4096, r + 2 * SSD_S) > 0);
	CHECK(d->ftl->tq_pages == 0);
	CHECK(d->ftl->mapped == 513);
	char err[160];
	CHECKF(ssd_ftl_check(d->ftl, err, sizeof err) == 0, "%s", err);
	ssd_dev_destroy(d);
}

/* Back to back reads of trimmed pages (zeros: controller time only)
 * during a background TRIM backlog: the backlog takes trim_bg_share of
 * the controller, so each read's cmd_overhead takes 1 / (1 - share) as
 * long (device.h), and the queue drains at share / trim_cost pages per ns
 * of their time.  Once it is empty, reads cost cmd_overhead again. */
TEST(trim_background_slows_commands_by_its_share)
{
	int64_t t;
	struct ssd_dev *d = trimmed_drive(SSD_TRIM_BACKGROUND, &t);
	CHECK(d);
	t += SSD_S;
	int64_t done = ssd_dev_submit(d, SSD_DDIR_TRIM, 0, 2 << 20, t);
	CHECK(done == t + 1000); /* acknowledged at once: no backlog yet */
	CHECK(d->ftl->tq_pages == 512);
	int64_t t0 = done, slow = 0, fast = 0;
	uint32_t nslow = 0, nfast = 0;
	while (done - t0 < 2 * SSD_MS) {
		int backlog = d->ftl->tq_pages > 0;
		int64_t r = ssd_dev_submit(d, SSD_DDIR_READ, 0, 4096, done);
		CHECK(r > done);
		if (backlog && d->ftl->tq_pages) {
			slow += r - done;
			nslow++;
		} else if (!backlog) {
			fast += r - done;
			nfast++;
		}
		done = r;
	}
	CHECK(d->ftl->tq_pages == 0 && d->ftl->mapped == 512);
	CHECK(nslow > 100 && nfast > 100);
	double ratio = ((double)slow / nslow) / ((double)fast / nfast);
	CHECKF(ratio > 1 / 0.9 * 0.999 && ratio < 1 / 0.9 * 1.001,
	       "latency ratio with/without a backlog %.4f, wanted %.4f",
	       ratio, 1 / 0.9);
	/* 512 pages x 100 ns at a 10% share: the queue lasted about 512 us */
	int64_t drained = t0 + (int64_t)nslow * (slow / nslow);
	CHECKF(drained > t0 + 500 * SSD_US && drained < t0 + 530 * SSD_US,
	       "drained after %lld ns", (long long)(drained - t0));
	ssd_dev_destroy(d);
}

/* With no command to share the controller with, a background backlog has
 * all of it: 512 pages x 100 ns drain within a 60 us idle gap. */
TEST(trim_background_backlog_drains_in_idle_time)
{
	int64_t t;
	struct ssd_dev *d = trimmed_drive(SSD_TRIM_BACKGROUND, &t);
	CHECK(d);
	t += SSD_S;
	CHECK(ssd_dev_submit(d, SSD_DDIR_TRIM, 0, 2 << 20, t) == t + 1000);
	CHECK(d->ftl->tq_pages == 512);
	int64_t r = ssd_dev_submit(d, SSD_DDIR_READ, 3 << 20, 4096, t + 60 * SSD_US);
	CHECK(r > 0 && d->ftl->tq_pages == 0 && d->ftl->mapped == 512);
	/* and an explicit idle period does the same */
	CHECK(ssd_dev_submit(d, SSD_DDIR_TRIM, 2 << 20, 1 << 20, r) == r + 1000);
	CHECK(d->ftl->tq_pages == 256);
	ssd_dev_idle(d, r + 1000 + 30 * SSD_US);
	CHECK(d->ftl->tq_pages == 0 && d->ftl->mapped == 256);
	ssd_dev_destroy(d);
}

/* A TRIM that is not 4 KiB-aligned deallocates only the pages wholly
 * inside it, in every trim_mode: writing 8 KiB at 0 and trimming 4 KiB
 * at 512 keeps both pages mapped (each covered in part), and they read
 * back from NAND; trimming 8 KiB at 2048 of a 16 KiB write unmaps page
 * 1 of it alone.  A TRIM with no whole page is still a command: it
 * costs cmd_overhead and counts no page.  The timing checker is on: a
 * TRIM's least work is trim_cost for the pages it deallocates. */
TEST(trim_unaligned_unmaps_only_whole_pages)
{
	for (int mode = SSD_TRIM_IMMEDIATE; mode <= SSD_TRIM_DEFERRED; mode++) {
		struct ssd_config c = small(4096, 32, SSD_GC_GREEDY, 0.3, 4 << 20);
		c.trim_mode = mode;
		c.trim_cost = 100;
		c.cmd_overhead = 1000;
		struct ssd_dev *d;
		CHECK(ssd_dev_create(&c, 1, &d) == 0);
		ssd_dev_set_check_every(d, 1);
		struct ssd_ftl *f = d->ftl;
		int64_t t = ssd_dev_submit(d, SSD_DDIR_WRITE, 0, 8192, 0);
		CHECK(t > 0);
		CHECK((t = ssd_dev_flush(d, t)) > 0);
		uint64_t trimmed = f->ctr.host_trim_lp;
		int64_t done = ssd_dev_submit(d, SSD_DDIR_TRIM, 512, 4096, t);
		CHECK(done > t && ssd_dev_idle(d, done + SSD_MS) == 0);
		CHECKF(f->l2p[0] != SSD_UNMAPPED && f->l2p[1] != SSD_UNMAPPED &&
		       f->mapped == 2, "mode %d: page 0 %s, page 1 %s", mode,
		       f->l2p[0] == SSD_UNMAPPED ? "unmapped" : "mapped",
		       f->l2p[1] == SSD_UNMAPPED ? "unmapped" : "mapped");
		CHECKF(done == t + 1000, "mode %d: %lld ns", mode, (long long)(done - t));
		CHECK(f->ctr.host_trim_lp == trimmed && ssd_dev_trim_queued(d) == 0);
		t = done + SSD_MS;
		uint64_t nr = f->ctr.nand_read, um = f->ctr.host_unmapped_read_lp;
		CHECK((t = ssd_dev_submit(d, SSD_DDIR_READ, 0, 8192, t)) > 0);
		CHECK(f->ctr.nand_read - nr == 2 && f->ctr.host_unmapped_read_lp == um);

		/* 16 KiB at 64 KiB (pages 16-19), trimmed at 64 KiB + 2048 for
		 * 8 KiB: page 17 is the one whole page inside */
		CHECK((t = ssd_dev_submit(d, SSD_DDIR_WRITE, 65536, 16384, t)) > 0);
		CHECK((t = ssd_dev_flush(d, t)) > 0);
		done = ssd_dev_submit(d, SSD_DDIR_TRIM, 65536 + 2048, 8192, t);
		CHECK(done == t + 1000 + (mode == SSD_TRIM_IMMEDIATE ? 100 : 0));
		CHECK(f->ctr.host_trim_lp == trimmed + 1);
		CHECK(ssd_dev_idle(d, done + SSD_MS) == 0);
		t = done + SSD_MS;
		for (uint32_t l = 16; l < 20; l++)
			CHECKF((f->l2p[l] == SSD_UNMAPPED) == (l == 17),
			       "mode %d: page %u %s", mode, l,
			       f->l2p[l] == SSD_UNMAPPED ? "unmapped" : "mapped");
		CHECK(f->mapped == 5);
		nr = f->ctr.nand_read;
		um = f->ctr.host_unmapped_read_lp;
		CHECK(ssd_dev_submit(d, SSD_DDIR_READ, 65536, 16384, t) > 0);
		CHECK(f->ctr.nand_read - nr == 3 && f->ctr.host_unmapped_read_lp - um == 1);
		CHECKF(!ssd_dev_check_failure(d), "%s", ssd_dev_check_failure(d));
		char err[160];
		CHECKF(ssd_ftl_check(f, err, sizeof err) == 0, "%s", err);
		ssd_dev_destroy(d);
	}
}

/* A queued TRIM unmaps at once for reads, whatever the mode: the later
 * pages of a read that share a NAND page with a mapped one are not read
 * from it when they were trimmed. */
TEST(read_of_queued_trim_pages_is_unmapped)
{
	for (int mode = SSD_TRIM_BACKGROUND; mode <= SSD_TRIM_DEFERRED; mode++) {
		struct ssd_config c = small(16384, 16, SSD_GC_GREEDY, 0.3, 1 << 20);
		c.trim_mode = mode;
		struct ssd_ftl *f;
		CHECK(ssd_ftl_create(&c, 1, &f) == 0);
		for (uint32_t l = 0; l < 4; l++) /* one NAND page */
			CHECK(ssd_ftl_write(f, l, 0) >= 0);
		CHECK(ssd_ftl_flush(f, 0) >= 0);
		CHECK(ssd_ftl_trim(f, 1, 3, SSD_MS) >= 0);
		uint64_t um = f->ctr.host_unmapped_read_lp, nr = f->ctr.nand_read;
		CHECK(ssd_ftl_read(f, 0, 4, 10 * SSD_MS) > 10 * SSD_MS);
		CHECKF(f->ctr.host_unmapped_read_lp - um == 3, "mode %d: %llu unmapped",
		       mode, (unsigned long long)(f->ctr.host_unmapped_read_lp - um));
		CHECK(f->ctr.nand_read - nr == 1);
		ssd_ftl_destroy(f);
	}
}

/* An FTL error met in idle time is returned, and the device fails every
 * later command with it, instead of idle time swallowing it. */
TEST(idle_time_errors_reach_the_caller)
{
	struct ssd_config c = small(4096, 32, SSD_GC_GREEDY, 0.2, 2 << 20);
	struct ssd_dev *d;
	CHECK(ssd_dev_create(&c, 1, &d) == 0);
	struct ssd_ftl *f = d->ftl;
	struct ssd_rng r;
	ssd_rng_seed(&r, 8);
	int64_t t = 0;
	for (uint32_t i = 0; i < 3 * f->nlp; i++) {
		t = ssd_dev_submit(d, SSD_DDIR_WRITE,
				   ssd_rng_below(&r, f->nlp) * SSD_LPAGE, 4096, t);
		CHECK(t >= 0);
	}
	/* break the books of every full block: cleaning one in idle time
	 * finds a valid slot its list does not have */
	for (uint32_t b = 0; b < f->nblocks; b++)
		if (f->state[b] == SSD_BLK_FULL)
			f->valid[b]++;
	CHECK(ssd_dev_idle(d, t + 10 * SSD_S) == SSD_ESTATE);
	CHECK(ssd_dev_submit(d, SSD_DDIR_READ, 0, 4096, t + 11 * SSD_S) == SSD_ESTATE);
	CHECK(ssd_dev_flush(d, t + 12 * SSD_S) == SSD_ESTATE);
	ssd_dev_destroy(d);
}

/* Wear-out on many small drives, the checker after every GC victim and
 * every failure: the maps stay whole through program failures, retirement
 * and the turn to read-only, and every page written stays readable. */
TEST(maps_stay_whole_through_wear_out_and_read_only)
{
	for (uint64_t seed = 1; seed <= 12; seed++) {
		struct ssd_config c = small(seed % 2 ? 16384 : 4096, 16,
					    (int)(seed % 4), 0.15, 1 << 20);
		c.pe_cycles = 2 + (uint32_t)(seed % 3);
		c.gc_pacing = (int)(seed % 2);
		struct ssd_ftl *f;
		CHECK(ssd_ftl_create(&c, seed, &f) == 0);
		ssd_ftl_set_check_every(f, 1); /* timing checks too */
		struct ssd_rng r;
		ssd_rng_seed(&r, seed);
		uint8_t *written = calloc(f->nlp, 1);
		int64_t t = 0;
		for (int i = 0; i < 2000000 && !f->readonly; i++) {
			uint32_t lpn = (uint32_t)ssd_rng_below(&r, f->nlp);
			int64_t dn = ssd_ftl_write(f, lpn, t);
			if (dn == SSD_EROFS)
				break;
			CHECKF(dn >= 0, "seed %llu: write: %s (%s)",
			       (unsigned long long)seed, ssd_strerror((int)dn), f->err_msg);
			if (dn < 0)
				break;
			written[lpn] = 1;
			t = dn;
			if (i % 64 == 0)
				CHECK(ssd_ftl_flush(f, t) >= 0 || f->readonly);
			if (f->check_failed)
				break;
		}
		CHECKF(!f->check_failed, "seed %llu: %s", (unsigned long long)seed,
		       f->check_msg);
		CHECKF(f->readonly, "seed %llu never wore out", (unsigned long long)seed);
		CHECK(f->check_runs > f->ctr.prog_fail); /* also after failures */
		for (uint32_t l = 0; l < f->nlp; l++)
			CHECKF((f->l2p[l] != SSD_UNMAPPED) == written[l],
			       "seed %llu: lpn %u lost", (unsigned long long)seed, l);
		CHECK(ssd_ftl_audit(f) == 0);
		free(written);
		ssd_ftl_destroy(f);
	}
}

/* gc_fg_target is a high-water mark for burst cleaning: the same work in
 * fewer, longer stalls. */
static uint64_t stalls(uint32_t target, int64_t *worst)
{
	struct ssd_config c = small(4096, 64, SSD_GC_GREEDY, 0.25, 8 << 20);
	c.gc_pacing = 0;
	c.gc_bg_blocks = 8;
	c.gc_fg_target = target;
	struct ssd_dev *d;
	if (ssd_dev_create(&c, 1, &d))
		return 0;
	struct ssd_rng r;
	ssd_rng_seed(&r, 3);
	uint64_t nlp = c.capacity / SSD_LPAGE, n = 0;
	int64_t t = 0;
	*worst = 0;
	for (uint64_t i = 0; i < 4 * nlp; i++) {
		int64_t done = ssd_dev_submit(d, SSD_DDIR_WRITE,
					      ssd_rng_below(&r, nlp) * SSD_LPAGE,
					      4096, t);
		if (done < 0)
			break;
		if (i > 2 * nlp && done - t > 5 * SSD_MS)
			n++;
		if (i > 2 * nlp && done - t > *worst)
			*worst = done - t;
		t = done;
	}
	ssd_dev_destroy(d);
	return n;
}

TEST(gc_fg_target_makes_fewer_longer_stalls)
{
	int64_t w0, w6;
	uint64_t n0 = stalls(0, &w0), n6 = stalls(6, &w6);
	CHECKF(n0 > 0 && n6 * 2 < n0 && w6 > w0, "stalls %llu -> %llu, worst "
	       "%lld -> %lld ns", (unsigned long long)n0, (unsigned long long)n6,
	       (long long)w0, (long long)w6);
}
