/* Flexible data placement's reclaim groups, reclaim unit handle updates,
 * events log and handle usage (docs/fdp.md), through the machine's
 * entry: a placement identifier's data stays on its group's units; the
 * identifiers are listed as a reclaim unit handle status lists them; an
 * update leaves the reclaim unit part written, logs the event, and GC
 * still reclaims the block; random identifiers with updates keep the
 * checker quiet and the handle usage adds up to the drive's counters. */
#include <stdlib.h>
#include <string.h>

#include "ftl/ftl_int.h"
#include "machine/device.h"
#include "t.h"
#include "t_sim.h"

static char err[512];

static struct ssd_dev *gdrive(const char *k1, const char *k2)
{
	const char *set[6] = {"fdp=yes", "op=0.3", "fdp_handles=3", k1, k2, NULL};
	int n = 3 + (k1 != NULL) + (k1 && k2);
	struct ssd_dev *d = t_sim_drive("tiny", set, n, err, sizeof err);
	if (d)
		ssd_dev_set_check_every(d, 1);
	return d;
}

static uint64_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

/* The unit of the block holding page lpn (SSD_NO_BLOCK: unmapped). */
static uint32_t unit_of_lpn(const struct ssd_dev *d, uint32_t lpn)
{
	const struct ssd_ftl *f = d->ftl;
	uint32_t s = f->l2p[lpn];
	return s == SSD_UNMAPPED ? SSD_NO_BLOCK : ssd_ftl_unit_of(f, s / f->spb);
}

TEST(fdp_groups_list_identifiers_and_keep_data_on_the_group)
{
	struct ssd_dev *d = gdrive("fdp_groups=2", NULL);
	CHECKF(d, "%s", err);
	/* RGIF 1: the group in the identifier's top bit; the status list
	 * gives each handle in both groups in turn */
	uint32_t pids[8], want[6] = {0, 0x8000, 1, 0x8001, 2, 0x8002};
	CHECK(ssd_dev_placement_ids(d, pids, 8) == 6);
	CHECK(memcmp(pids, want, sizeof want) == 0);
	/* a tenth of the drive on each of group 1's handle 2 and group 0's
	 * handle 1, interleaved: each on its group's units only (tiny: 4
	 * units, group 0 has units 0-1, group 1 units 2-3) */
	uint32_t n = (uint32_t)(ssd_dev_capacity(d) / 4096 / 10);
	int64_t t = 0;
	for (uint32_t i = 0; i < 2 * n; i++) {
		uint32_t pid = i % 2 ? 0x8002 : 1;
		t = ssd_dev_submit(d, SSD_DDIR_WRITE | SSD_BLK_PLACEMENT(pid),
				   (uint64_t)i * 4096, 4096, t);
		CHECKF(t > 0, "write %u: %lld", i, (long long)t);
	}
	t = ssd_dev_flush(d, t);
	CHECK(t > 0);
	for (uint32_t i = 0; i < 2 * n; i++) {
		uint32_t u = unit_of_lpn(d, i);
		CHECKF(i % 2 ? u == 2 || u == 3 : u == 0 || u == 1,
		       "page %u of group %u is on unit %u", i, i % 2, u);
	}
	/* both of each group's units took their share */
	uint32_t per[4] = {0};
	for (uint32_t i = 0; i < 2 * n; i++)
		per[unit_of_lpn(d, i)]++;
	CHECKF(per[0] && per[1] && per[2] && per[3], "%u %u %u %u", per[0],
	       per[1], per[2], per[3]);
	/* no group 1 handle 3, no handle 0x4000 in group 0: Invalid Field,
	 * counted and logged with the write's page */
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE | SSD_BLK_PLACEMENT(0x8003),
			     4096 * 7, 4096, t) == SSD_FDP_EPID);
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE | SSD_BLK_PLACEMENT(0x4000),
			     0, 4096, t) == SSD_FDP_EPID);
	const struct ssd_counters *c = ssd_dev_counters(d);
	CHECK(c->fdp_bad_pid == 2);
	struct ssd_fdp_event ev[4];
	CHECK(ssd_dev_fdp_events(d, ev, 4) == 2);
	CHECK(ev[0].type == SSD_FDP_EV_BAD_PID && ev[0].pid == 0x8003 &&
	      ev[0].lba == 7 && ev[0].t == t);
	CHECK(ev[1].type == SSD_FDP_EV_BAD_PID && ev[1].pid == 0x4000);
	CHECK(c->fdp_host_lp[1] == n && c->fdp_host_lp[2] == n &&
	      c->fdp_host_lp[0] == 0);
	/* writes naming no identifier: handle 0 in the drive's choice of
	 * group, every unit in turn; identifier 0 is group 0's handle 0 */
	uint32_t base = 2 * n;
	for (uint32_t i = 0; i < 8; i++) {
		t = ssd_dev_submit(d, SSD_DDIR_WRITE, (uint64_t)(base + i) * 4096,
				   4096, t);
		CHECK(t > 0);
	}
	for (uint32_t i = 8; i < 16; i++) {
		t = ssd_dev_submit(d, SSD_DDIR_WRITE | SSD_BLK_PLACEMENT(0),
				   (uint64_t)(base + i) * 4096, 4096, t);
		CHECK(t > 0);
	}
	uint32_t seen = 0;
	for (uint32_t i = 0; i < 16; i++) {
		uint32_t u = unit_of_lpn(d, base + i);
		CHECKF(i < 8 || u < 2, "page %u of identifier 0 on unit %u", i, u);
		seen |= i < 8 ? 1u << u : 0;
	}
	CHECKF(seen == 0xf, "the default stream's units: %#x", seen);
	CHECK(c->fdp_host_lp[0] == 16);
	CHECKF(!ssd_dev_check_failure(d), "%s", ssd_dev_check_failure(d));
	ssd_dev_destroy(d);
	/* groups must divide the units */
	err[0] = 0;
	d = gdrive("fdp_groups=3", NULL);
	CHECKF(!d && strstr(err, "key 'fdp_groups': 3 reclaim groups do not "
				 "divide the drive's 4 allocation units"), "%s", err);
}

TEST(fdp_update_leaves_the_reclaim_unit_part_written_and_gc_reclaims_it)
{
	struct ssd_dev *d = gdrive(NULL, NULL);
	CHECKF(d, "%s", err);
	const struct ssd_ftl *f = d->ftl;
	int64_t t = 0;
	/* 40 pages on handle 1: ten on each unit, a few pages of a block */
	for (uint32_t i = 0; i < 40; i++) {
		t = ssd_dev_submit(d, SSD_DDIR_WRITE | SSD_BLK_PLACEMENT(1),
				   (uint64_t)i * 4096, 4096, t);
		CHECK(t > 0);
	}
	uint32_t old[4], wear[4];
	for (uint32_t u = 0; u < 4; u++) {
		old[u] = f->l2p[u] / f->spb; /* pages 0-3 went to units 0-3 */
		CHECK(ssd_ftl_unit_of(f, old[u]) == u);
		CHECK(f->state[old[u]] == SSD_BLK_OPEN);
		wear[u] = f->wear[old[u]];
	}
	uint32_t pid = 1, bad = 7;
	CHECK(ssd_dev_fdp_update(d, &bad, 1, t) == SSD_FDP_EPID);
	int64_t done = ssd_dev_fdp_update(d, &pid, 1, t);
	CHECKF(done >= t, "%lld", (long long)done);
	t = done;
	const struct ssd_counters *c = ssd_dev_counters(d);
	CHECK(c->fdp_ru_unfilled == 1);
	struct ssd_fdp_event ev[2];
	CHECK(ssd_dev_fdp_events(d, ev, 2) == 1 &&
	      ev[0].type == SSD_FDP_EV_RU_UNFILLED && ev[0].pid == 1 &&
	      ev[0].handle == 1);
	for (uint32_t u = 0; u < 4; u++) {
		/* closed where it was: a full block to GC, the rest of its
		 * pages never programmed */
		CHECK(f->state[old[u]] == SSD_BLK_FULL);
		uint32_t pg = ssd_flash_next_page(&f->flash, old[u]);
		CHECKF(pg > 0 && pg < ssd_flash_block_pages(&f->flash, old[u]),
		       "block %u: %u pages programmed", old[u], pg);
	}
	/* an update of a handle whose units hold no open block does
	 * nothing: no event */
	CHECK(ssd_dev_fdp_update(d, &pid, 1, t) >= t);
	CHECK(c->fdp_ru_unfilled == 1);
	/* the handle's next data goes to new blocks */
	t = ssd_dev_submit(d, SSD_DDIR_WRITE | SSD_BLK_PLACEMENT(1), 0, 4096, t);
	CHECK(t > 0 && f->l2p[0] / f->spb != old[0]);
	/* overwrite the drive three times: GC erases the closed blocks */
	uint64_t cap = ssd_dev_capacity(d) / 4096, s = 5;
	for (uint64_t i = 0; i < 3 * cap; i++) {
		t = ssd_dev_submit(d, SSD_DDIR_WRITE | SSD_BLK_PLACEMENT(rnd(&s) % 3),
				   rnd(&s) % cap * 4096, 4096, t);
		CHECKF(t > 0, "write %llu: %lld", (unsigned long long)i, (long long)t);
	}
	for (uint32_t u = 0; u < 4; u++)
		CHECKF(f->wear[old[u]] > wear[u], "block %u never erased", old[u]);
	CHECKF(!ssd_dev_check_failure(d), "%s", ssd_dev_check_failure(d));
	/* a drive without FDP has no update */
	ssd_dev_destroy(d);
	d = t_sim_drive("tiny", NULL, 0, err, sizeof err);
	CHECK(ssd_dev_fdp_update(d, &pid, 1, 0) == SSD_EUNSUP);
	CHECK(ssd_dev_fdp_events(d, ev, 2) == 0);
	ssd_dev_destroy(d);
}

/* Random identifiers of three handles (in two groups with `groups`), an
 * update every few hundred writes, writes of 1-4 pages, two drive
 * capacities; with `iso`.  The checker runs after every GC victim (with
 * one group it failed before the checker knew the page being written:
 * GC inside the write saw the page's new handle and its old copy); the
 * usage adds up to the drive's counters. */
static void random_traffic(const char *groups, const char *iso)
{
	struct ssd_dev *d = gdrive(groups, iso);
	CHECKF(d, "%s", err);
	uint32_t pids[6];
	uint32_t np = ssd_dev_placement_ids(d, pids, 6);
	uint64_t cap = ssd_dev_capacity(d) / 4096, s = 11, updates = 0;
	int64_t t = 0;
	for (uint64_t i = 0; i < 2 * cap; i++) {
		uint32_t pid = pids[rnd(&s) % np];
		if (rnd(&s) % 300 == 0) {
			t = ssd_dev_fdp_update(d, &pid, 1, t);
			CHECKF(t >= 0, "update: %lld", (long long)t);
			updates++;
		}
		uint64_t lpn = rnd(&s) % cap, n = 1 + rnd(&s) % 4;
		if (lpn + n > cap)
			n = cap - lpn;
		t = ssd_dev_submit(d, SSD_DDIR_WRITE | SSD_BLK_PLACEMENT(pid),
				   lpn * 4096, (uint32_t)n * 4096, t);
		CHECKF(t > 0, "write %llu: %lld", (unsigned long long)i, (long long)t);
		CHECKF(!ssd_dev_check_failure(d), "%s", ssd_dev_check_failure(d));
	}
	const struct ssd_counters *c = ssd_dev_counters(d);
	CHECKF(updates > 10 && c->fdp_ru_unfilled > 0 &&
	       c->fdp_ru_unfilled <= updates, "%llu updates, %llu unfilled",
	       (unsigned long long)updates,
	       (unsigned long long)c->fdp_ru_unfilled);
	uint64_t host = 0, media = 0;
	for (uint32_t h = 0; h < 3; h++) {
		host += c->fdp_host_lp[h];
		media += c->fdp_media_lp[h];
	}
	CHECK(host == c->host_write_lp);
	CHECKF(media + c->fdp_gc_shared_lp == c->host_write_lp + c->gc_copy_lp,
	       "media %llu + shared %llu, host %llu + copies %llu",
	       (unsigned long long)media, (unsigned long long)c->fdp_gc_shared_lp,
	       (unsigned long long)c->host_write_lp,
	       (unsigned long long)c->gc_copy_lp);
	CHECK(c->gc_copy_lp > 0);
	ssd_dev_destroy(d);
}

TEST(fdp_random_identifiers_with_updates_keep_the_checker_quiet)
{
	random_traffic("fdp_groups=1", NULL);
	random_traffic("fdp_groups=2", NULL);
	random_traffic("fdp_groups=2", "fdp_isolation=persistent");
}

/* A drive worn out (pe_cycles = 3) under random identifiers: every
 * failed program is a "media reallocated" event, logged with the
 * identifier of the block's handle (none for a block the handles share),
 * and the checker stays quiet through the failures. */
TEST(fdp_a_failed_program_is_media_reallocated)
{
	struct ssd_dev *d = gdrive("fdp_groups=2", "pe_cycles=3");
	CHECKF(d, "%s", err);
	uint64_t cap = ssd_dev_capacity(d) / 4096, s = 3;
	int64_t t = 0;
	uint32_t pids[6];
	CHECK(ssd_dev_placement_ids(d, pids, 6) == 6);
	for (uint64_t i = 0; i < 100 * cap; i++) {
		int64_t r = ssd_dev_submit(d, SSD_DDIR_WRITE |
					   SSD_BLK_PLACEMENT(pids[rnd(&s) % 6]),
					   rnd(&s) % cap * 4096, 4096, t);
		if (r == SSD_EROFS)
			break;
		CHECKF(r > 0, "write %llu: %lld", (unsigned long long)i, (long long)r);
		t = r;
	}
	CHECKF(!ssd_dev_check_failure(d), "%s", ssd_dev_check_failure(d));
	const struct ssd_counters *c = ssd_dev_counters(d);
	CHECKF(c->prog_fail > 0 && c->fdp_media_realloc == c->prog_fail,
	       "%llu failed programs, %llu events",
	       (unsigned long long)c->prog_fail,
	       (unsigned long long)c->fdp_media_realloc);
	struct ssd_fdp_event ev[SSD_FDP_EVENTS];
	uint32_t n = ssd_dev_fdp_events(d, ev, SSD_FDP_EVENTS);
	CHECK(n == (c->prog_fail < SSD_FDP_EVENTS ? c->prog_fail : SSD_FDP_EVENTS));
	for (uint32_t i = 0; i < n; i++) {
		CHECK(ev[i].type == SSD_FDP_EV_MEDIA_REALLOC && ev[i].group < 2);
		CHECK(ev[i].pid == SSD_FDP_NO_PID
		      ? ev[i].handle == SSD_FDP_NO_PID
		      : ev[i].handle < 3 &&
			ev[i].pid == (ev[i].group << 15 | ev[i].handle));
		CHECK(!i || ev[i].t >= ev[i - 1].t);
	}
	ssd_dev_destroy(d);
}
