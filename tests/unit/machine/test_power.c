/* Power loss (ssd_dev_power_cut): what a cut at T keeps is what the flash
 * held at T -- flushed and FUA data always, acknowledged data in a
 * register or the write buffer only with plp -- and the maps stay whole. */
#include <stdlib.h>
#include <string.h>

#include "machine/device.h"
#include "ftl/ftl.h"
#include "t.h"
#include "t_power.h"
#include "machine/verify.h"

static char err[512];

static struct ssd_dev *drive(const char *const *sets, int n)
{
	return t_power_drive(sets, n, err, sizeof err);
}

TEST(power_cut_loses_an_unflushed_write_and_keeps_a_flushed_one)
{
	struct ssd_dev *d = drive(NULL, 0);
	CHECK(d);
	int64_t t = t_power_put(d, 10, 0, 0);
	CHECK(t > 0);
	t = ssd_dev_flush(d, t);
	CHECK(t > 0);
	int64_t a = t_power_put(d, 20, 0, t); /* acknowledged, still in its open page */
	CHECK(a > 0);
	struct ssd_power_cut pc;
	CHECK(!t_power_cut(d, a, &pc));
	CHECK(pc.open_lp >= 1);
	CHECK(t_power_holds(d, 10, 1));
	CHECK(!t_power_holds(d, 20, 1)); /* never programmed: gone */
	CHECK(pc.lost_lp == 1);
	CHECK(d->vrec[20] >> 30 == SSD_VREC_ZERO); /* the record follows */
	CHECK(pc.ready >= pc.on);
	CHECK(ssd_dev_check_failure(d) == NULL);
	/* the drive goes on: a write after recovery sticks once flushed */
	t = t_power_put(d, 20, 0, pc.ready);
	CHECK(t > 0);
	t = ssd_dev_flush(d, t);
	CHECK(t > 0);
	CHECK(!t_power_cut(d, t, &pc));
	CHECK(t_power_holds(d, 20, 2) && pc.lost_lp == 0);
	ssd_dev_destroy(d);
}

TEST(power_cut_keeps_fua_writes)
{
	struct ssd_dev *d = drive(NULL, 0);
	CHECK(d);
	int64_t t = t_power_put(d, 5, 1, 0);
	CHECK(t > 0);
	struct ssd_power_cut pc;
	CHECK(!t_power_cut(d, t, &pc));
	CHECK(t_power_holds(d, 5, 1) && pc.lost_lp == 0);
	ssd_dev_destroy(d);
}

TEST(power_cut_with_plp_saves_the_buffer_and_open_pages)
{
	const char *sets[] = {"write_buffer=1m", "plp=yes"};
	struct ssd_dev *d = drive(sets, 2);
	CHECK(d);
	int64_t t = 0;
	for (uint32_t l = 0; l < 200; l++) {
		t = t_power_put(d, l * 7 % 5000, 0, t);
		CHECK(t > 0);
	}
	struct ssd_power_cut pc;
	CHECK(!t_power_cut(d, t, &pc));
	CHECK(pc.save_all && pc.hold_ns >= pc.save_ns);
	CHECK(pc.lost_lp == 0);
	for (uint32_t l = 0; l < 200; l++)
		CHECK(t_power_holds(d, l * 7 % 5000, 1));
	CHECK(ssd_dev_check_failure(d) == NULL);
	ssd_dev_destroy(d);
}

TEST(power_cut_without_plp_loses_the_buffer_and_lists_the_pages)
{
	const char *sets[] = {"write_buffer=1m"};
	struct ssd_dev *d = drive(sets, 1);
	CHECK(d);
	int64_t t = 0;
	for (uint32_t l = 0; l < 200; l++) {
		t = t_power_put(d, 1000 + l, 0, t);
		CHECK(t > 0);
	}
	uint32_t lost[256];
	struct ssd_power_cut pc;
	memset(&pc, 0, sizeof pc);
	pc.t = pc.on = t;
	pc.lost = lost;
	pc.lost_cap = 256;
	CHECK(!ssd_dev_power_cut(d, &pc));
	CHECK(!pc.save_all && pc.buffered_lp > 0);
	CHECK(pc.lost_lp > 0 && pc.nlost == pc.lost_lp);
	/* exactly the listed pages were lost, in order */
	uint64_t k = 0;
	for (uint32_t l = 1000; l < 1200; l++) {
		if (t_power_holds(d, l, 1))
			continue;
		CHECK(k < pc.nlost && lost[k] == l);
		k++;
	}
	CHECK(k == pc.nlost);
	/* the pages the cut touched (the caller's to free) include them */
	for (uint64_t i = 0, j = 0; i < pc.nlost; i++) {
		while (j < pc.ntouched && pc.touched[j] < lost[i])
			j++;
		CHECK(j < pc.ntouched && pc.touched[j] == lost[i]);
	}
	free(pc.touched);
	ssd_dev_destroy(d);
}

TEST(power_cut_plp_energy_short_loses_like_no_plp)
{
	const char *sets[] = {"write_buffer=1m", "plp=yes", "plp_hold_up=1us"};
	struct ssd_dev *d = drive(sets, 3);
	CHECK(d);
	int64_t t = 0;
	for (uint32_t l = 0; l < 100; l++)
		CHECK((t = t_power_put(d, l, 0, t)) > 0);
	struct ssd_power_cut pc;
	CHECK(!t_power_cut(d, t, &pc));
	CHECK(!pc.save_all && pc.save_ns > pc.hold_ns && pc.lost_lp > 0);
	ssd_dev_destroy(d);
}

TEST(power_cut_trim_is_durable_after_a_flush_only)
{
	struct ssd_dev *d = drive(NULL, 0);
	CHECK(d);
	int64_t t = 0;
	for (uint32_t l = 0; l < 8; l++)
		CHECK((t = t_power_put(d, l, 0, t)) > 0);
	CHECK((t = ssd_dev_flush(d, t)) > 0);
	/* page 0 trimmed and flushed, page 4 trimmed only */
	ssd_vrec_trim(d->vrec, 0, 1);
	CHECK((t = ssd_dev_submit(d, SSD_DDIR_TRIM, 0, 4096, t)) > 0);
	CHECK((t = ssd_dev_flush(d, t)) > 0);
	ssd_vrec_trim(d->vrec, 4, 1);
	CHECK((t = ssd_dev_submit(d, SSD_DDIR_TRIM, 4 * 4096, 4096, t)) > 0);
	struct ssd_power_cut pc;
	CHECK(!t_power_cut(d, t, &pc));
	uint32_t lp, tag;
	CHECK(!ssd_ftl_verify_get(d->ftl, 0, &lp, &tag)); /* stays trimmed */
	CHECK(t_power_holds(d, 4, 1));                          /* the TRIM undone */
	CHECK(pc.trims_lost == 1 && pc.lost_lp == 1);
	ssd_dev_destroy(d);
}

/* Overwrites of a full drive with flushes, cut at random moments: GC is
 * moving flushed data when the power goes, its victims erased after the
 * cut in the model's schedule; flushed data must always come back. */
TEST(power_cut_random_flushed_data_survives_gc)
{
	const char *sets[] = {"capacity=64m", "op=0.3"};
	struct ssd_dev *d = drive(sets, 2);
	CHECK(d);
	uint32_t nlp = (uint32_t)(ssd_dev_capacity(d) / 4096);
	uint32_t *synced = calloc(nlp, sizeof *synced);
	CHECK(synced);
	int64_t t = 0;
	struct ssd_rng r;
	ssd_rng_seed(&r, 7);
	for (int round = 0; round < 40; round++) {
		for (int i = 0; i < 3000; i++) {
			uint32_t l = (uint32_t)ssd_rng_below(&r, nlp);
			CHECK((t = t_power_put(d, l, 0, t)) > 0);
		}
		CHECK((t = ssd_dev_flush(d, t)) > 0);
		for (uint32_t l = 0; l < nlp; l++)
			synced[l] = ssd_vrec_state(d->vrec[l]) == SSD_VREC_DATA
				    ? d->vrec[l] & SSD_VREC_COUNT : 0;
		for (int i = 0; i < 200; i++) {
			uint32_t l = (uint32_t)ssd_rng_below(&r, nlp);
			CHECK((t = t_power_put(d, l, 0, t)) > 0);
		}
		struct ssd_power_cut pc;
		CHECK(!t_power_cut(d, t + (int64_t)ssd_rng_below(&r, 100000), &pc));
		for (uint32_t l = 0; l < nlp; l++) {
			if (!synced[l])
				continue;
			uint32_t lp, tag;
			CHECKF(ssd_ftl_verify_get(d->ftl, l, &lp, &tag) && lp == l &&
			       (tag & SSD_VREC_COUNT) >= synced[l],
			       "round %d page %u: synced %u", round, l, synced[l]);
		}
		CHECKF(ssd_dev_check_failure(d) == NULL, "%s", ssd_dev_check_failure(d));
		t = pc.ready;
	}
	CHECK(ssd_dev_counters(d)->gc_victims > 0);
	free(synced);
	ssd_dev_destroy(d);
}

TEST(power_cut_refuses_a_cut_before_the_latest_submission)
{
	struct ssd_dev *d = drive(NULL, 0);
	CHECK(d);
	int64_t t = t_power_put(d, 1, 0, 5000);
	CHECK(t > 0);
	struct ssd_power_cut pc;
	CHECK(t_power_cut(d, 4999, &pc) == SSD_EINVAL);
	ssd_dev_destroy(d);
}

/* FDP (docs/fdp.md): the handles' write points are tracked as the
 * unit's own.  Writes on three handles (each page mostly its stretch's,
 * one in eight another's), cut at random after unflushed writes: every
 * flushed page survives, and the recovered drive keeps each handle's
 * data in blocks of its own (persistent isolation: the checker's, after
 * every GC victim and at every cut; and a full audit). */
static void fdp_cuts(const char *isolation, const char *groups)
{
	const char *sets[] = {"capacity=128m", "op=0.35", "fdp=yes",
			      "fdp_handles=3", isolation, groups};
	struct ssd_dev *d = drive(sets, 6);
	int ng = !strcmp(groups, "fdp_groups=2") ? 2 : 1;
	CHECKF(d, "%s", err);
	uint32_t nlp = (uint32_t)(ssd_dev_capacity(d) / 4096);
	uint32_t *synced = calloc(nlp, sizeof *synced);
	CHECK(synced);
	int64_t t = 0;
	struct ssd_rng r;
	ssd_rng_seed(&r, 11);
	uint64_t lost = 0;
	for (int round = 0; round < 30; round++) {
		for (int i = 0; i < 3200; i++) {
			uint32_t l = (uint32_t)ssd_rng_below(&r, nlp);
			uint32_t h = l * 3 / nlp;
			if (ssd_rng_below(&r, 8) == 0)
				h = (uint32_t)ssd_rng_below(&r, 3);
			/* with two reclaim groups, either group (bit 15) */
			if (ng == 2 && ssd_rng_below(&r, 2))
				h |= 1u << 15;
			if (ng == 2 && ssd_rng_below(&r, 400) == 0) {
				/* a handle update: its reclaim units closed
				 * where they stand */
				t = ssd_dev_fdp_update(d, &h, 1, t);
				CHECK(t > 0);
			}
			ssd_vrec_write(d->vrec, l, 1);
			t = ssd_dev_submit(d, SSD_DDIR_WRITE | SSD_BLK_PLACEMENT(h),
					   (uint64_t)l * 4096, 4096, t);
			CHECK(t > 0);
			if (i == 3000) { /* the rest unflushed */
				CHECK((t = ssd_dev_flush(d, t)) > 0);
				for (uint32_t k = 0; k < nlp; k++)
					synced[k] = ssd_vrec_state(d->vrec[k]) == SSD_VREC_DATA
						    ? d->vrec[k] & SSD_VREC_COUNT : 0;
			}
		}
		struct ssd_power_cut pc;
		CHECK(!t_power_cut(d, t + (int64_t)ssd_rng_below(&r, 100000), &pc));
		lost += pc.lost_lp;
		for (uint32_t l = 0; l < nlp; l++) {
			if (!synced[l])
				continue;
			uint32_t lp, tag;
			CHECKF(ssd_ftl_verify_get(d->ftl, l, &lp, &tag) && lp == l &&
			       (tag & SSD_VREC_COUNT) >= synced[l],
			       "round %d page %u: synced %u", round, l, synced[l]);
		}
		CHECKF(ssd_dev_check_failure(d) == NULL, "%s", ssd_dev_check_failure(d));
		CHECK(ssd_dev_audit(d) == 0);
		t = pc.ready;
	}
	CHECK(lost > 0); /* the cuts took unflushed writes */
	CHECK(ssd_dev_counters(d)->gc_victims > 0);
	free(synced);
	ssd_dev_destroy(d);
}

TEST(power_cut_fdp_keeps_flushed_data_and_isolation)
{
	fdp_cuts("fdp_isolation=persistent", "fdp_groups=1");
	fdp_cuts("fdp_isolation=initial", "fdp_groups=1");
	/* reclaim groups, and updates closing reclaim units early */
	fdp_cuts("fdp_isolation=persistent", "fdp_groups=2");
	fdp_cuts("fdp_isolation=initial", "fdp_groups=2");
}

/* Zoned (docs/zoned.md): a cut rewinds each zone's write pointer to
 * where its durable data ends.  Zone 0 written, flushed, written on
 * without a flush; the cut keeps every flushed page, the write pointer
 * lands at the first page lost, past it nothing reads back; the zone is
 * closed and the host writes on at the new write pointer. */
TEST(power_cut_rewinds_a_zone_to_its_durable_data)
{
	const char *sets[] = {"mapping=zone", "zone_units=2"};
	struct ssd_dev *d = drive(sets, 2);
	CHECKF(d, "%s", err);
	struct ssd_zoned_info zi;
	CHECK(ssd_dev_zoned(d, &zi));
	uint32_t zlp = (uint32_t)(zi.zone_size / 4096);
	int64_t t = 0;
	for (uint32_t l = 0; l < 41; l++)
		CHECK((t = t_power_put(d, l, 0, t)) > 0);
	CHECK((t = ssd_dev_flush(d, t)) > 0);
	for (uint32_t l = 41; l < 60; l++)
		CHECK((t = t_power_put(d, l, 0, t)) > 0);
	/* zone 1: one page, unflushed: it becomes empty */
	CHECK((t = t_power_put(d, zlp, 0, t)) > 0);
	struct ssd_power_cut pc;
	CHECK(!t_power_cut(d, t, &pc));
	struct ssd_zone_desc zd, z1;
	CHECK(!ssd_dev_zone_report(d, 0, &zd));
	uint64_t wp = zd.wp / 4096;
	CHECKF(wp >= 41 && wp < 60, "write pointer at %llu", (unsigned long long)wp);
	CHECK(zd.state == SSD_ZNS_ZSC && zd.written == zd.wp);
	for (uint32_t l = 0; l < 60; l++) {
		CHECKF(t_power_holds(d, l, 1) == (l < wp), "page %u", l);
		if (l >= wp) /* the host's record: zeros */
			CHECK(ssd_vrec_state(d->vrec[l]) == SSD_VREC_ZERO);
	}
	CHECK(pc.lost_lp == 60 - wp + 1);
	/* the rewound tail is read as never written: zeros, no flash read */
	uint64_t un = ssd_dev_counters(d)->host_unmapped_read_lp;
	CHECK(ssd_dev_submit(d, SSD_DDIR_READ, wp * 4096, (uint32_t)(60 - wp) * 4096,
			     pc.ready) > 0);
	CHECK(ssd_dev_counters(d)->host_unmapped_read_lp - un == 60 - wp);
	CHECK(!ssd_dev_zone_report(d, 1, &z1));
	CHECK(z1.state == SSD_ZNS_ZSE && z1.wp == z1.start);
	CHECKF(ssd_dev_check_failure(d) == NULL, "%s", ssd_dev_check_failure(d));
	CHECK(ssd_dev_audit(d) == 0);
	/* the host goes on at the write pointer; a flushed zone survives */
	t = pc.ready;
	for (uint32_t l = (uint32_t)wp; l < zlp; l++)
		CHECK((t = t_power_put(d, l, 0, t)) > 0);
	CHECK((t = ssd_dev_flush(d, t)) > 0);
	CHECK(!t_power_cut(d, t, &pc));
	CHECK(pc.lost_lp == 0);
	CHECK(!ssd_dev_zone_report(d, 0, &zd) && zd.state == SSD_ZNS_ZSF);
	for (uint32_t l = 0; l < zlp; l++)
		CHECK(t_power_holds(d, l, l >= wp && l < 60 ? 2 : 1));
	CHECK(ssd_dev_audit(d) == 0);
	/* a zone written full without a flush: rewound, closed */
	t = pc.ready;
	for (uint32_t l = 2 * zlp; l < 3 * zlp; l++)
		CHECK((t = t_power_put(d, l, 0, t)) > 0);
	CHECK(!ssd_dev_zone_report(d, 2, &zd) && zd.state == SSD_ZNS_ZSF);
	CHECK(!t_power_cut(d, t, &pc));
	CHECK(!ssd_dev_zone_report(d, 2, &zd));
	CHECKF(zd.state == SSD_ZNS_ZSC && zd.wp < zd.start + zd.cap && pc.lost_lp > 0,
	       "state %d, lost %llu", zd.state, (unsigned long long)pc.lost_lp);
	CHECK(ssd_dev_audit(d) == 0);
	ssd_dev_destroy(d);
}

/* A zone random write area is DRAM: a cut loses what the host wrote in
 * it (the write pointer stays at what its flushes committed, the area is
 * gone); with plp the zone keeps it all, closed. */
TEST(power_cut_loses_a_zone_random_write_area_without_plp)
{
	for (int plp = 0; plp < 2; plp++) {
		const char *sets[] = {"mapping=zone", "zrwa_size=64k",
				      plp ? "plp=yes" : "plp=no"};
		struct ssd_dev *d = drive(sets, 3);
		CHECKF(d, "%s", err);
		int64_t t = ssd_dev_zone_send(d, SSD_ZNS_ACT_OPEN, 0, SSD_ZNS_ZRWAA, 0);
		CHECK(t > 0);
		for (uint32_t l = 0; l < 8; l++)
			CHECK((t = t_power_put(d, l, 0, t)) > 0);
		t = ssd_dev_zone_send(d, SSD_ZNS_ACT_ZRWA_FLUSH, 3 * 4096, 0, t);
		CHECK(t > 0);
		CHECK((t = ssd_dev_flush(d, t)) > 0);
		struct ssd_zone_desc zd;
		CHECK(!ssd_dev_zone_report(d, 0, &zd) && zd.wp == 4 * 4096);
		struct ssd_power_cut pc;
		CHECK(!t_power_cut(d, t, &pc));
		CHECK(!ssd_dev_zone_report(d, 0, &zd));
		CHECK(zd.state == SSD_ZNS_ZSC);
		CHECK(!!(zd.attr & SSD_ZNS_ATTR_ZRWAV) == plp);
		for (uint32_t l = 0; l < 4; l++)
			CHECK(t_power_holds(d, l, 1));
		CHECK(pc.lost_lp == (plp ? 0 : 4));
		for (uint32_t l = 4; l < 8 && !plp; l++)
			CHECK(ssd_vrec_state(d->vrec[l]) == SSD_VREC_ZERO);
		CHECK(zd.wp == 4 * 4096);
		CHECK(ssd_dev_audit(d) == 0);
		ssd_dev_destroy(d);
	}
}

/* A zone whose flushes padded it past its share of blocks has its data
 * moved to fresh blocks when it fills; a cut while the copies are still
 * programming finds the old blocks whole: nothing flushed is lost. */
TEST(power_cut_during_a_zone_move_keeps_the_zone)
{
	const char *sets[] = {"mapping=zone", "zone_units=1"};
	struct ssd_dev *d = drive(sets, 2);
	CHECKF(d, "%s", err);
	struct ssd_zoned_info zi;
	CHECK(ssd_dev_zoned(d, &zi));
	uint32_t cap = (uint32_t)(zi.zone_cap / 4096);
	int64_t t = 0;
	uint64_t copies = ssd_dev_counters(d)->gc_copy_lp;
	for (uint32_t l = 0; l < cap; l++) {
		CHECK((t = t_power_put(d, l, 0, t)) > 0);
		if (l % 3 == 0 && l + 1 < cap) /* padding: past its share */
			CHECK((t = ssd_dev_flush(d, t)) > 0);
	}
	CHECKF(ssd_dev_counters(d)->gc_copy_lp - copies == cap, "moved %llu",
	       (unsigned long long)(ssd_dev_counters(d)->gc_copy_lp - copies));
	struct ssd_zone_desc zd;
	CHECK(!ssd_dev_zone_report(d, 0, &zd) && zd.state == SSD_ZNS_ZSF);
	struct ssd_power_cut pc;
	CHECK(!t_power_cut(d, t, &pc)); /* the move's programs under way */
	CHECK(!ssd_dev_zone_report(d, 0, &zd) && zd.state == SSD_ZNS_ZSF);
	for (uint32_t l = 0; l + 1 < cap; l++)
		CHECKF(t_power_holds(d, l, 1), "page %u", l);
	CHECK(ssd_dev_audit(d) == 0);
	ssd_dev_destroy(d);
}
