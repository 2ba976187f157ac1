/* FTL, NAND and flash-timing tests on small hand-built drives. */
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "ftl.h"
#include "nand.h"
#include "t.h"

static struct ssd_config small(uint32_t page, uint32_t ppb, int policy,
			       double op, uint64_t cap)
{
	struct ssd_config c;
	memset(&c, 0, sizeof c);
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
	uint64_t units = 4, bytes_per_block = (uint64_t)page * ppb;
	c.blocks_per_plane = (uint32_t)((cap * (1 + op) + bytes_per_block * units - 1) /
					(bytes_per_block * units)) + c.gc_fg_blocks + 2;
	return c;
}

TEST(nand_rules_refuse_out_of_order_and_double_program)
{
	struct ssd_nand n;
	CHECK(ssd_nand_init(&n, 4, 8) == 0);
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
	f->check_every = 1;
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
			ssd_ftl_trim(f, lpn, n);
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
	ssd_ftl_trim(f, 0, 64);
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
	CHECK(r == fl + SSD_MS * 10 + c.t_read + 4 * f->flash.xfer_lp);
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
		CHECK(f->flash.die_busy[d] > 0 && f->flash.die_busy[d] <= 2 * f->flash.xfer_lp + c.t_prog);
	/* reads of the four: dies in parallel, two channels serialise the
	 * transfers of their two dies */
	int64_t t = SSD_S;
	int64_t last = 0;
	for (uint32_t l = 0; l < 4; l++) {
		int64_t r = ssd_ftl_read(f, l, 1, t);
		if (r > last)
			last = r;
	}
	CHECK(last == t + c.t_read + 2 * f->flash.xfer_lp);
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

TEST(flush_programs_buffered_gc_copies_after_loading_them)
{
	struct ssd_config c = small(16384, 16, SSD_GC_GREEDY, 0.3, 1 << 20);
	struct ssd_ftl *f;
	CHECK(ssd_ftl_create(&c, 1, &f) == 0);
	struct ssd_rng r;
	ssd_rng_seed(&r, 5);
	int64_t t = 0;
	while (f->ctr.gc_copy_lp == 0 || f->unit[0].gc.fill == 0) {
		t = ssd_ftl_write(f, (uint32_t)ssd_rng_below(&r, f->nlp), t);
		CHECK(t >= 0);
	}
	uint64_t prog = f->ctr.nand_prog;
	int64_t done = ssd_ftl_flush(f, t);
	CHECK(done >= t + c.t_prog);
	CHECK(f->ctr.nand_prog > prog);
	for (uint32_t u = 0; u < f->units; u++)
		CHECK(f->unit[u].gc.fill == 0 && f->unit[u].host.fill == 0);
	char err[160];
	CHECKF(ssd_ftl_check(f, err, sizeof err) == 0, "%s", err);
	ssd_ftl_destroy(f);
}
