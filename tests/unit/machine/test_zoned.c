/* A zoned drive (mapping = zone; docs/zoned.md) through the machine's
 * entry: its namespace from the keys, writes only at the write pointer
 * with the NVMe errors, each zone in blocks of its own (a sequential fill
 * has a write amplification of 1 and no GC), resets that erase what the
 * zone holds and read back as zeros, finishes that pad or mark, the open
 * and active limits, Zone Append, zone-to-unit mapping, refusals -- with
 * the FTL's checker after every call. */
#include <stdlib.h>
#include <string.h>

#include "ftl/zns.h"
#include "machine/device.h"
#include "t.h"
#include "t_sim.h"

static char err[512];
#define MIB_ (1024ull * 1024)

/* The tiny preset (4 units, 256 KiB blocks) zoned, with more keys; the
 * checker on. */
static struct ssd_dev *zdrive(const char *k1, const char *k2)
{
	const char *set[4] = {"mapping=zone", k1, k2, NULL};
	int n = 1 + (k1 != NULL) + (k1 && k2);
	struct ssd_dev *d = t_sim_drive("tiny", set, n, err, sizeof err);
	if (d)
		ssd_dev_set_check_every(d, 1);
	return d;
}

static const char *failure(const struct ssd_dev *d)
{
	const char *m = ssd_dev_check_failure(d);
	return m ? m : "";
}

TEST(zoned_namespace_from_the_keys)
{
	struct ssd_zoned_info zi;
	struct ssd_dev *d = zdrive(NULL, NULL);
	CHECKF(d, "%s", err);
	CHECK(ssd_dev_zoned(d, &zi) == 1);
	/* one 256 KiB block on each of 4 units */
	CHECK(zi.zone_size == 1 * MIB_ && zi.zone_cap == 1 * MIB_);
	CHECK(zi.nzones == 64 && zi.lba == 4096);
	CHECK(ssd_dev_capacity(d) == 64 * MIB_);
	ssd_dev_destroy(d);
	/* capacity below the size: the namespace spans the sizes */
	d = zdrive("zone_capacity=768k", NULL);
	CHECKF(d, "%s", err);
	CHECK(ssd_dev_zoned(d, &zi) == 1);
	CHECK(zi.zone_size == 1 * MIB_ && zi.zone_cap == 768 * 1024);
	/* each zone still takes a block on each unit: 65 zones' blocks
	 * beside the reserve, within the 85 the capacity would hold */
	CHECK(zi.nzones == 65 && ssd_dev_capacity(d) == 65 * MIB_);
	ssd_dev_destroy(d);
	d = zdrive("zone_units=1", "max_open_zones=3");
	CHECKF(d, "%s", err);
	CHECK(ssd_dev_zoned(d, &zi) == 1);
	CHECK(zi.zone_size == 256 * 1024 && zi.max_open == 3);
	CHECK(zi.nzones == 256);
	ssd_dev_destroy(d);
	/* a conventional drive */
	d = t_sim_drive("tiny", NULL, 0, err, sizeof err);
	CHECKF(d, "%s", err);
	CHECK(ssd_dev_zoned(d, &zi) == 0);
	CHECK(ssd_dev_zone_send(d, SSD_ZNS_ACT_RESET, 0, 0, 0) == SSD_EUNSUP);
	ssd_dev_destroy(d);
}

TEST(zoned_refusals_name_the_key)
{
	struct {
		const char *k1, *k2, *want;
	} cases[] = {
		{"zone_units=3", NULL, "key 'zone_units': 3 does not divide the "
					"drive's 4 allocation units"},
		{"zone_size=768k", NULL, "key 'zone_size': 768 KiB is not a power of two"},
		{"zone_size=512k", NULL, "key 'zone_size': 512 KiB is below the zone "
					 "capacity 1 MiB, one block on each of the zone's 4 units"},
		{"zone_size=512k", "zone_capacity=1m", "key 'zone_capacity': 1 MiB is "
						       "above the zone size 512 KiB"},
		{"zone_capacity=128m", NULL, "key 'zone_capacity': a zone of 128 MiB does not fit"},
		{"max_open_zones=4", "max_active_zones=2",
		 "keys 'max_open_zones' (4) and 'max_active_zones' (2)"},
		{"page_cache=1m", NULL, "key 'page_cache': a host layer writes anywhere"},
		{"map_cache=64k", NULL, "key 'map_cache': mapping = zone does not model it"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		err[0] = 0;
		struct ssd_dev *d = zdrive(cases[i].k1, cases[i].k2);
		CHECKF(!d && strstr(err, cases[i].want), "%s: %s", cases[i].k1, err);
		ssd_dev_destroy(d);
	}
}

/* Written zone after zone, the drive moves nothing: WAF 1, no GC, no
 * erase; every command at a zone's write pointer. */
TEST(zoned_sequential_fill_writes_each_page_once)
{
	struct ssd_dev *d = zdrive(NULL, NULL);
	CHECKF(d, "%s", err);
	int64_t t = 0;
	for (uint64_t off = 0; off < ssd_dev_capacity(d); off += 128 * 1024) {
		int64_t c = ssd_dev_submit(d, SSD_DDIR_WRITE, off, 128 * 1024, t);
		CHECKF(c > t, "offset %llu: %lld", (unsigned long long)off, (long long)c);
		t = c;
	}
	CHECK(ssd_dev_flush(d, t) >= t);
	const struct ssd_counters *c = ssd_dev_counters(d);
	CHECK(c->host_write_lp == 16384 && c->nand_prog_lp == 16384);
	CHECK(c->gc_copy_lp == 0 && c->nand_erase == 0 && c->pad_lp == 0);
	struct ssd_zone_desc z;
	CHECK(ssd_dev_zone_report(d, 63, &z) == 0);
	CHECK(z.state == SSD_ZNS_ZSF && z.written == 1 * MIB_);
	CHECKF(!ssd_dev_check_failure(d), "%s", failure(d));
	ssd_dev_destroy(d);
}

TEST(zoned_writes_off_the_write_pointer_fail_with_the_nvme_status)
{
	struct ssd_dev *d = zdrive("zone_capacity=768k", NULL);
	CHECKF(d, "%s", err);
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE, 4096, 4096, 0) == SSD_ZNS_EWRITE);
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE, 0, 2048, 0) == SSD_ZNS_EFIELD);
	CHECK(ssd_dev_submit(d, SSD_DDIR_TRIM, 0, 4096, 0) == SSD_EUNSUP);
	int64_t t = ssd_dev_submit(d, SSD_DDIR_WRITE, 0, 512 * 1024, 0);
	CHECK(t > 0);
	/* past the capacity */
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE, 512 * 1024, 512 * 1024, t) ==
	      SSD_ZNS_EBOUNDARY);
	t = ssd_dev_submit(d, SSD_DDIR_WRITE, 512 * 1024, 256 * 1024, t);
	CHECK(t > 0);
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE, 768 * 1024, 4096, t) ==
	      SSD_ZNS_EFULL);
	/* the part past the capacity reads, as never written */
	uint64_t un = ssd_dev_counters(d)->host_unmapped_read_lp;
	CHECK(ssd_dev_submit(d, SSD_DDIR_READ, 768 * 1024, 256 * 1024, t) > t);
	CHECK(ssd_dev_counters(d)->host_unmapped_read_lp == un + 64);
	CHECK(strstr(ssd_strerror(SSD_ZNS_EWRITE), "Zone Invalid Write"));
	CHECKF(!ssd_dev_check_failure(d), "%s", failure(d));
	ssd_dev_destroy(d);
}

/* A reset erases what the zone holds -- on each of its units, in
 * parallel -- and its data reads as zeros afterwards; an empty zone's
 * reset costs no erase and is not counted. */
TEST(zoned_reset_erases_the_zone_and_its_data_reads_as_zeros)
{
	struct ssd_dev *d = zdrive(NULL, NULL);
	CHECKF(d, "%s", err);
	uint64_t free0 = ssd_dev_free_blocks(d);
	int64_t t = ssd_dev_submit(d, SSD_DDIR_WRITE, 0, 1 * MIB_, 0);
	CHECK(t > 0 && ssd_dev_free_blocks(d) == free0 - 4);
	int64_t r = ssd_dev_zone_send(d, SSD_ZNS_ACT_RESET, 1 * MIB_, 0, t);
	CHECK(r >= t && ssd_dev_counters(d)->zone_reset == 0); /* empty */
	r = ssd_dev_zone_send(d, SSD_ZNS_ACT_RESET, 0, 0, t);
	const struct ssd_counters *c = ssd_dev_counters(d);
	CHECK(c->nand_erase == 4 && c->zone_reset == 1 && c->zone_reset_lp == 256);
	CHECK(ssd_dev_free_blocks(d) == free0);
	/* four erases on four units at once: about one erase time */
	const struct ssd_config *cfg = ssd_dev_config(d);
	CHECKF(r - t >= cfg->t_erase && r - t < 2 * cfg->t_erase, "%lld",
	       (long long)(r - t));
	/* the two resets' latencies, the report's "in all" */
	CHECK(c->zone_reset_ns >= (uint64_t)(r - t) &&
	      c->zone_reset_ns < (uint64_t)(r - t) + SSD_MS);
	uint64_t un = c->host_unmapped_read_lp;
	CHECK(ssd_dev_submit(d, SSD_DDIR_READ, 0, 64 * 1024, r) > r);
	CHECK(c->host_unmapped_read_lp == un + 16);
	struct ssd_zone_desc z;
	CHECK(ssd_dev_zone_report(d, 0, &z) == 0 && z.state == SSD_ZNS_ZSE &&
	      z.wp == 0);
	/* written again from its start */
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE, 0, 4096, r) > r);
	CHECKF(!ssd_dev_check_failure(d), "%s", failure(d));
	ssd_dev_destroy(d);
}

/* Finish: pad programs the rest of the zone's blocks (the drive's own
 * writes); mark programs nothing; an empty zone has nothing to pad. */
TEST(zoned_finish_pads_or_marks_the_rest)
{
	for (int mark = 0; mark <= 1; mark++) {
		struct ssd_dev *d = zdrive(mark ? "zone_finish=mark" : NULL, NULL);
		CHECKF(d, "%s", err);
		int64_t t = ssd_dev_submit(d, SSD_DDIR_WRITE, 0, 256 * 1024, 0);
		int64_t f = ssd_dev_zone_send(d, SSD_ZNS_ACT_FINISH, 0, 0, t);
		CHECK(f >= t);
		CHECK(ssd_dev_zone_send(d, SSD_ZNS_ACT_FINISH, 2 * MIB_, 0, f) >= f);
		const struct ssd_counters *c = ssd_dev_counters(d);
		CHECK(c->zone_finish == 2);
		CHECKF(c->zone_finish_pad_lp == (mark ? 0 : 192) &&
		       c->pad_lp == c->zone_finish_pad_lp &&
		       c->nand_prog_lp == 64 + c->pad_lp, "%d: %llu", mark,
		       (unsigned long long)c->zone_finish_pad_lp);
		struct ssd_zone_desc z;
		CHECK(ssd_dev_zone_report(d, 0, &z) == 0 && z.state == SSD_ZNS_ZSF);
		CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE, 256 * 1024, 4096, f) ==
		      SSD_ZNS_EFULL);
		CHECK(ssd_dev_zone_send(d, SSD_ZNS_ACT_RESET, 0, 0, f) >= f);
		CHECKF(!ssd_dev_check_failure(d), "%s", failure(d));
		ssd_dev_destroy(d);
	}
}

TEST(zoned_open_and_active_limits)
{
	struct ssd_dev *d = zdrive("max_open_zones=2", "max_active_zones=3");
	CHECKF(d, "%s", err);
	int64_t t = 0;
	/* three zones written in part: the third open closes the first
	 * implicitly */
	for (uint64_t z = 0; z < 3; z++) {
		t = ssd_dev_submit(d, SSD_DDIR_WRITE, z * MIB_, 4096, t);
		CHECK(t > 0);
	}
	struct ssd_zone_desc zd;
	CHECK(ssd_dev_zone_report(d, 0, &zd) == 0 && zd.state == SSD_ZNS_ZSC);
	/* a fourth would be the fourth active zone */
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE, 3 * MIB_, 4096, t) ==
	      SSD_ZNS_EMAXACTIVE);
	CHECK(ssd_dev_zone_send(d, SSD_ZNS_ACT_FINISH, 0, 0, t) >= t);
	t = ssd_dev_submit(d, SSD_DDIR_WRITE, 3 * MIB_, 4096, t);
	CHECK(t > 0);
	/* both open resources held explicitly: no write may open another */
	CHECK(ssd_dev_zone_send(d, SSD_ZNS_ACT_FINISH, 1 * MIB_, 0, t) >= t);
	CHECK(ssd_dev_zone_send(d, SSD_ZNS_ACT_OPEN, 2 * MIB_, 0, t) >= t);
	CHECK(ssd_dev_zone_send(d, SSD_ZNS_ACT_OPEN, 3 * MIB_, 0, t) >= t);
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE, 4 * MIB_, 4096, t) ==
	      SSD_ZNS_EMAXOPEN);
	CHECKF(!ssd_dev_check_failure(d), "%s", failure(d));
	ssd_dev_destroy(d);
}

TEST(zoned_append_writes_at_the_write_pointer)
{
	struct ssd_dev *d = zdrive("zone_append_max=64k", NULL);
	CHECKF(d, "%s", err);
	int64_t t = ssd_dev_submit(d, SSD_DDIR_WRITE | SSD_BLK_APPEND, MIB_,
				   8192, 0);
	CHECK(t > 0 && ssd_dev_append_offset(d) == MIB_);
	t = ssd_dev_submit(d, SSD_DDIR_WRITE | SSD_BLK_APPEND, MIB_, 8192, t);
	CHECK(t > 0 && ssd_dev_append_offset(d) == MIB_ + 8192);
	/* not a zone start; above the limit */
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE | SSD_BLK_APPEND, MIB_ + 4096,
			     4096, t) == SSD_ZNS_EFIELD);
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE | SSD_BLK_APPEND, MIB_,
			     128 * 1024, t) == SSD_ZNS_EFIELD);
	struct ssd_zone_desc z;
	CHECK(ssd_dev_zone_report(d, 1, &z) == 0 && z.wp == MIB_ + 16384);
	CHECKF(!ssd_dev_check_failure(d), "%s", failure(d));
	ssd_dev_destroy(d);
}

/* Where a zone lies decides its speed: a zone over all four units
 * takes a 1 MiB write in about a quarter of the time of a zone on one. */
TEST(zoned_zone_units_set_a_zones_parallelism)
{
	int64_t took[2];
	for (int one = 0; one <= 1; one++) {
		struct ssd_dev *d = zdrive(one ? "zone_units=1" : NULL,
					   "zone_capacity=1m");
		CHECKF(d, "%s", err);
		int64_t t = 0;
		for (uint64_t off = 0; off < MIB_; off += 64 * 1024)
			t = ssd_dev_submit(d, SSD_DDIR_WRITE, off, 64 * 1024, t);
		took[one] = ssd_dev_flush(d, t);
		CHECKF(!ssd_dev_check_failure(d), "%s", failure(d));
		ssd_dev_destroy(d);
	}
	CHECKF(took[1] > 3 * took[0], "%lld vs %lld", (long long)took[1],
	       (long long)took[0]);
}

/* Random zone traffic with the checker after every call: writes at the
 * write pointers and off them, flushes that pad part pages, resets,
 * finishes, opens and closes. */
/* *zflush receives the ZRWA flushes that succeeded. */
static void random_commands(struct ssd_dev *d, uint64_t *zflush)
{
	*zflush = 0;
	struct ssd_zoned_info zi;
	CHECK(ssd_dev_zoned(d, &zi));
	uint64_t seed = 7, ok = 0;
	int64_t t = 0;
	for (int i = 0; i < 4000; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		uint32_t r = (uint32_t)(seed >> 33), zone = r % 8;
		uint64_t start = zone * zi.zone_size;
		struct ssd_zone_desc z;
		CHECK(ssd_dev_zone_report(d, zone, &z) == 0);
		int64_t c;
		switch (r / 8 % 10) {
		case 0:
			c = ssd_dev_zone_send(d, SSD_ZNS_ACT_RESET, start, 0, t);
			break;
		case 1:
			c = ssd_dev_zone_send(d, SSD_ZNS_ACT_FINISH, start, 0, t);
			break;
		case 2: /* close, finish or open (with an area, maybe) */
			c = ssd_dev_zone_send(d, 1 + r / 80 % 3, start,
					      r / 240 % 2 ? SSD_ZNS_ZRWAA : 0, t);
			break;
		case 3:
			c = r / 80 % 2 ? ssd_dev_flush(d, t)
			    : ssd_dev_zone_send(d, SSD_ZNS_ACT_ZRWA_FLUSH,
						(z.wp == UINT64_MAX ? start : z.wp) +
						4096 * (r / 160 % 8), 0, t);
			*zflush += r / 80 % 2 == 0 && c >= 0;
			break;
		case 4:
			c = ssd_dev_submit(d, SSD_DDIR_READ, start, 64 * 1024, t);
			break;
		default: {
			uint64_t at = z.wp == UINT64_MAX ? start : z.wp;
			if (r % 5 == 0)
				at += 4096; /* off the write pointer */
			c = ssd_dev_submit(d, SSD_DDIR_WRITE, at,
					   4096 * (1 + r / 640 % 8), t);
		}
		}
		if (c >= 0) {
			ok++;
			t = c;
		}
		CHECKF(!ssd_dev_check_failure(d), "command %d: %s", i, failure(d));
		if (ssd_dev_check_failure(d))
			break;
	}
	CHECK(ok > 2000);
	CHECK(ssd_dev_counters(d)->zone_reset > 50);
}

TEST(zoned_random_commands_keep_the_books)
{
	struct ssd_dev *d = zdrive("max_open_zones=6", "zone_capacity=768k");
	CHECKF(d, "%s", err);
	uint64_t zf;
	random_commands(d, &zf);
	CHECK(zf == 0);
	ssd_dev_destroy(d);
	/* with random write areas: writes off the write pointer within
	 * them, explicit flushes */
	d = zdrive("zrwa_size=32k", "zone_capacity=768k");
	CHECKF(d, "%s", err);
	random_commands(d, &zf);
	CHECKF(zf > 2, "%llu", (unsigned long long)zf);
	ssd_dev_destroy(d);
}

/* A zone random write area: writes anywhere in the window land in DRAM
 * (an LBA written again costs no flash), reads of them come from DRAM,
 * flushes -- implicit, explicit, a finish's -- commit them in order with
 * holes as padding, and a reset drops them. */
TEST(zoned_random_write_area)
{
	/* areas of 64 KiB (16 LBAs) flushed 16 KiB (4 LBAs) at a time */
	struct ssd_dev *d = zdrive("zrwa_size=64k", "zrwa_flush=16k");
	CHECKF(d, "%s", err);
	const struct ssd_counters *c = ssd_dev_counters(d);
	int64_t t = ssd_dev_zone_send(d, SSD_ZNS_ACT_OPEN, 0, SSD_ZNS_ZRWAA, 0);
	CHECK(t >= 0);
	/* LBA 5 written 100 times, then 0..3: all in DRAM */
	for (int i = 0; i < 100; i++)
		t = ssd_dev_submit(d, SSD_DDIR_WRITE, 5 * 4096, 4096, t);
	t = ssd_dev_submit(d, SSD_DDIR_WRITE, 0, 4 * 4096, t);
	CHECK(t > 0 && c->nand_prog_lp == 0 && c->host_write_bytes == 104 * 4096);
	struct ssd_zone_desc z;
	CHECK(ssd_dev_zone_report(d, 0, &z) == 0 && z.wp == 0);
	/* read back from DRAM: host data, no flash read */
	uint64_t un = c->host_unmapped_read_lp, nr = c->nand_read;
	t = ssd_dev_submit(d, SSD_DDIR_READ, 0, 8 * 4096, t);
	CHECK(t > 0 && c->host_unmapped_read_lp == un + 3 && c->nand_read == nr);
	/* off the window, or Zone Append: refused */
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE, 32 * 4096, 4096, t) == SSD_ZNS_EWRITE);
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE | SSD_BLK_APPEND, 0, 4096, t) ==
	      SSD_ZNS_EZONEOP);
	/* a write ending at LBA 18 (past wp + 16) flushes one unit: LBAs
	 * 0-3 go to flash */
	t = ssd_dev_submit(d, SSD_DDIR_WRITE, 17 * 4096, 4096, t);
	CHECK(t > 0 && ssd_dev_zone_report(d, 0, &z) == 0 && z.wp == 4 * 4096);
	CHECK(c->host_write_lp == 4);
	/* an explicit flush to LBA 7: 4, 6, 7 holes, 5 data */
	t = ssd_dev_zone_send(d, SSD_ZNS_ACT_ZRWA_FLUSH, 7 * 4096, 0, t);
	CHECK(t > 0 && ssd_dev_zone_report(d, 0, &z) == 0 && z.wp == 8 * 4096);
	CHECK(c->host_write_lp == 5 && c->pad_lp == 3);
	un = c->host_unmapped_read_lp;
	t = ssd_dev_submit(d, SSD_DDIR_READ, 4 * 4096, 4 * 4096, t);
	CHECK(c->host_unmapped_read_lp == un + 3);
	/* a finish commits the rest written (17), pads the zone */
	t = ssd_dev_zone_send(d, SSD_ZNS_ACT_FINISH, 0, 0, t);
	CHECK(t > 0 && ssd_dev_zone_report(d, 0, &z) == 0 &&
	      z.state == SSD_ZNS_ZSF && c->host_write_lp == 6);
	/* 100 + 4 + 1 + ... host writes, 6 pages of data on flash */
	CHECK(c->nand_prog_lp == 256 && c->zone_finish_pad_lp == 256 - 18);
	/* the area is free again: another zone takes it, a reset drops
	 * what it held in DRAM */
	t = ssd_dev_zone_send(d, SSD_ZNS_ACT_OPEN, MIB_, SSD_ZNS_ZRWAA, t);
	CHECK(t > 0);
	t = ssd_dev_submit(d, SSD_DDIR_WRITE, MIB_ + 4096, 4096, t);
	t = ssd_dev_zone_send(d, SSD_ZNS_ACT_RESET, MIB_, 0, t);
	un = c->host_unmapped_read_lp;
	t = ssd_dev_submit(d, SSD_DDIR_READ, MIB_, 8192, t);
	CHECK(t > 0 && c->host_unmapped_read_lp == un + 2);
	CHECKF(!ssd_dev_check_failure(d), "%s", failure(d));
	ssd_dev_destroy(d);
	/* the keys' rule */
	err[0] = 0;
	d = zdrive("zrwa_size=64k", "zrwa_flush=24k");
	CHECK(!d && strstr(err, "key 'zrwa_size': 64 KiB is not a multiple of "
			   "the flush granularity 24 KiB"));
}

/* A padded finish waits for its own zone's programs only: a zone on
 * another unit with writes queued does not delay it. */
TEST(zoned_finish_waits_for_its_own_zone_only)
{
	int64_t took[2];
	for (int busy = 0; busy <= 1; busy++) {
		struct ssd_dev *d = zdrive("zone_units=1", NULL);
		CHECKF(d, "%s", err);
		int64_t t = ssd_dev_submit(d, SSD_DDIR_WRITE, 0, 16384, 0);
		int64_t w = ssd_dev_flush(d, t);
		for (int i = 0; busy && i < 4; i++) /* zone 1, whole: unit 1 */
			ssd_dev_submit(d, SSD_DDIR_WRITE, 256 * 1024 + i * 65536ull,
				       65536, w);
		int64_t f = ssd_dev_zone_send(d, SSD_ZNS_ACT_FINISH, 0, 0, w);
		took[busy] = f - w;
		CHECKF(!ssd_dev_check_failure(d), "%s", failure(d));
		ssd_dev_destroy(d);
	}
	CHECKF(took[0] == took[1] && took[0] > 0, "%lld against %lld",
	       (long long)took[0], (long long)took[1]);
}
