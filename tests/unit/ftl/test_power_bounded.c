/* A power cut's work bounded by what it can touch (ssd_ftl_power_cut
 * without pc->full) gives what the rebuild from every block gives:
 * through the device, with the FTL's private maps to compare. */
#include <stdlib.h>
#include <string.h>

#include "machine/device.h"
#include "machine/verify.h"
#include "ftl/ftl.h"
#include "ftl/ftl_int.h"
#include "t.h"
#include "t_power.h"

static char err[512];

static struct ssd_dev *drive(const char *const *sets, int n)
{
	return t_power_drive(sets, n, err, sizeof err);
}

/* Two drives, the same writes, TRIMs, flushes and cuts: one cut bounded
 * by what the cut can touch, the other rebuilt from every block with
 * every page visited (full).  After every cut the maps, the host record
 * and the counts are the same, and every page whose record changed is in
 * the bounded cut's list of touched pages. */
static void bounded_vs_full(const char *const *sets, int n, uint64_t seed)
{
	struct ssd_dev *d[2] = {drive(sets, n), drive(sets, n)};
	CHECKF(d[0] && d[1], "%s", err);
	struct ssd_ftl *f0 = d[0]->ftl, *f1 = d[1]->ftl;
	uint32_t nlp = (uint32_t)(ssd_dev_capacity(d[0]) / 4096);
	uint32_t *before = malloc(nlp * sizeof *before);
	CHECK(before);
	int64_t t = 0;
	struct ssd_rng r;
	ssd_rng_seed(&r, seed);
	uint64_t lost = 0;
	for (uint32_t l = 0; l < nlp; l++) { /* full: GC from the first round */
		int64_t at = ssd_max64(t, ssd_dev_last_submit(d[0]));
		for (int j = 0; j < 2; j++)
			CHECK((t = t_power_put(d[j], l, 0, at)) > 0);
	}
	for (int round = 0; round < 30; round++) {
		int k = (int)ssd_rng_below(&r, 3000);
		for (int i = 0; i < k; i++) {
			uint32_t l = (uint32_t)ssd_rng_below(&r, nlp - 4);
			uint64_t op = ssd_rng_below(&r, 100);
			int64_t t2 = 0, at = ssd_max64(t, ssd_dev_last_submit(d[0]));
			for (int j = 0; j < 2; j++) {
				if (op < 5) {
					ssd_vrec_trim(d[j]->vrec, l, 4);
					t2 = ssd_dev_submit(d[j], SSD_DDIR_TRIM,
							    (uint64_t)l * 4096, 4 * 4096, at);
				} else if (op < 7) {
					t2 = ssd_dev_flush(d[j], at);
				} else {
					t2 = t_power_put(d[j], l, op < 12, at);
				}
				CHECK(t2 > 0);
			}
			t = op < 7 ? t2 : t + 2000;
		}
		memcpy(before, d[0]->vrec, nlp * sizeof *before);
		int64_t at = ssd_max64(t, ssd_dev_last_submit(d[0])) +
			     (int64_t)ssd_rng_below(&r, 3000000);
		struct ssd_power_cut pc[2];
		for (int j = 0; j < 2; j++) {
			memset(&pc[j], 0, sizeof pc[j]);
			pc[j].t = at;
			pc[j].on = at + 1000000;
			pc[j].full = j;
			CHECK(!ssd_dev_power_cut(d[j], &pc[j]));
		}
		CHECKF(pc[0].lost_lp == pc[1].lost_lp && pc[0].rewritten_lp == pc[1].rewritten_lp &&
		       pc[0].remapped_lp == pc[1].remapped_lp && pc[0].scan_reads == pc[1].scan_reads &&
		       pc[0].ready == pc[1].ready,
		       "round %d: lost %llu/%llu rewritten %llu/%llu remapped %llu/%llu reads %llu/%llu ready %lld/%lld",
		       round, (unsigned long long)pc[0].lost_lp, (unsigned long long)pc[1].lost_lp,
		       (unsigned long long)pc[0].rewritten_lp, (unsigned long long)pc[1].rewritten_lp,
		       (unsigned long long)pc[0].remapped_lp, (unsigned long long)pc[1].remapped_lp,
		       (unsigned long long)pc[0].scan_reads, (unsigned long long)pc[1].scan_reads,
		       (long long)pc[0].ready, (long long)pc[1].ready);
		CHECKF(!memcmp(f0->l2p, f1->l2p, nlp * sizeof *f0->l2p), "round %d: l2p", round);
		CHECKF(!memcmp(f0->p2l, f1->p2l, (size_t)f0->nblocks * f0->spb * sizeof *f0->p2l),
		       "round %d: p2l", round);
		CHECKF(!memcmp(d[0]->vrec, d[1]->vrec, nlp * sizeof *before), "round %d: vrec", round);
		for (uint32_t l = 0, i = 0; l < nlp; l++) {
			while (i < pc[0].ntouched && pc[0].touched[i] < l)
				i++;
			if (d[0]->vrec[l] != before[l])
				CHECKF(i < pc[0].ntouched && pc[0].touched[i] == l,
				       "round %d: page %u changed, not listed", round, l);
		}
		CHECKF(ssd_dev_check_failure(d[0]) == NULL, "%s", ssd_dev_check_failure(d[0]));
		lost += pc[0].lost_lp;
		free(pc[0].touched);
		free(pc[1].touched);
		t = pc[0].ready;
	}
	CHECK(lost > 0 && ssd_dev_counters(d[0])->gc_victims > 0);
	free(before);
	ssd_dev_destroy(d[0]);
	ssd_dev_destroy(d[1]);
}

TEST(power_cut_bounded_is_the_full_rebuild)
{
	const char *plain[] = {"page_size=4k", "capacity=32m", "op=0.15"};
	bounded_vs_full(plain, 3, 11);
	const char *buffered[] = {"page_size=4k", "capacity=32m", "op=0.15",
				  "write_buffer=256k", "gc_policy=random", "gc_pacing=no"};
	bounded_vs_full(buffered, 6, 12);
	const char *paired[] = {"page_size=4k", "capacity=32m", "op=0.15",
				"paired_pages=protected", "trim_mode=background"};
	bounded_vs_full(paired, 5, 13);
	const char *slc[] = {"page_size=4k", "capacity=32m", "op=0.2", "slc_cache=dynamic",
			     "slc_cache_size=2m", "paired_pages=unprotected"};
	bounded_vs_full(slc, 6, 14);
}
