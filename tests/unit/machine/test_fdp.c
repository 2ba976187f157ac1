/* Flexible data placement (fdp = yes; docs/fdp.md) through the machine's
 * entry: a cache-like host -- a log rewritten in order and a small region
 * rewritten at random -- written on one handle and on two, with both
 * handle types; persistent isolation never mixes handles in a block (the
 * checker, after every GC victim), and its handle usage shows whose data
 * the copies are; an invalid placement identifier fails
 * the write and counts an event; what the drive cannot combine with FDP
 * is refused by key. */
#include <stdlib.h>
#include <string.h>

#include "machine/device.h"
#include "t.h"
#include "t_sim.h"

static char err[512];

static struct ssd_dev *fdrive(const char *k1, const char *k2)
{
	const char *set[6] = {"fdp=yes", "op=0.15", "fdp_handles=3", k1, k2, NULL};
	int n = 3 + (k1 != NULL) + (k1 && k2);
	struct ssd_dev *d = t_sim_drive("tiny", set, n, err, sizeof err);
	if (d)
		ssd_dev_set_check_every(d, 1);
	return d;
}

/* The log (the first 3/4 of the drive, written in order, round and
 * round) on handle `log`, a region (the last 1/4) at random on handle
 * `hot`, one write of each in turn, until `rounds` drive capacities; the
 * write amplification of the second half. */
static double cache_waf(struct ssd_dev *d, int log, int hot, int rounds)
{
	uint64_t cap = ssd_dev_capacity(d) / 4096, lsz = cap * 3 / 4, pos = 0;
	uint64_t seed = 3, n = cap * rounds;
	int64_t t = 0;
	struct ssd_counters half;
	memset(&half, 0, sizeof half);
	for (uint64_t i = 0; i < n; i++) {
		if (i == n / 2)
			half = *ssd_dev_counters(d);
		uint64_t lpn;
		int h;
		if (i % 2) {
			lpn = pos;
			pos = (pos + 1) % lsz;
			h = log;
		} else {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			lpn = lsz + (seed >> 33) % (cap - lsz);
			h = hot;
		}
		t = ssd_dev_submit(d, SSD_DDIR_WRITE | SSD_BLK_PLACEMENT(h),
				   lpn * 4096, 4096, t);
		if (t < 0)
			return -1;
	}
	return ssd_counters_waf_since(ssd_dev_counters(d), &half);
}

TEST(fdp_separating_a_log_from_hot_data_lowers_write_amplification)
{
	double one, initial, persistent;
	struct ssd_dev *d = fdrive(NULL, NULL);
	CHECKF(d, "%s", err);
	one = cache_waf(d, 0, 0, 6);
	CHECKF(!ssd_dev_check_failure(d), "%s", ssd_dev_check_failure(d));
	ssd_dev_destroy(d);
	d = fdrive(NULL, NULL);
	initial = cache_waf(d, 1, 2, 6);
	CHECKF(!ssd_dev_check_failure(d), "%s", ssd_dev_check_failure(d));
	ssd_dev_destroy(d);
	d = fdrive("fdp_isolation=persistent", NULL);
	CHECKF(d, "%s", err);
	persistent = cache_waf(d, 1, 2, 6);
	CHECKF(!ssd_dev_check_failure(d), "%s", ssd_dev_check_failure(d));
	/* the handle usage says whose data costs the copies: the log's
	 * blocks mostly empty by themselves, the region's are copied */
	const struct ssd_counters *c = ssd_dev_counters(d);
	double log_waf = (double)c->fdp_media_lp[1] / (double)c->fdp_host_lp[1];
	double hot_waf = (double)c->fdp_media_lp[2] / (double)c->fdp_host_lp[2];
	CHECKF(c->fdp_host_lp[0] == 0 && c->fdp_media_lp[0] == 0 &&
	       log_waf < 1.2 && hot_waf > log_waf + 0.5, "log %.3f, region %.3f",
	       log_waf, hot_waf);
	ssd_dev_destroy(d);
	/* one handle mixes the log's dying data with the hot region's; two
	 * keep the log's blocks whole: they empty by themselves */
	/* (which type does better is the drive's size's: persistent
	 * isolation keeps a GC block open per handle, which a small drive
	 * feels more than initial isolation's mixing: docs/fdp.md) */
	CHECKF(one > 2.5 && initial < 0.6 * one && persistent < 0.6 * one,
	       "one handle %.3f, two initially isolated %.3f, persistently %.3f",
	       one, initial, persistent);
}

TEST(fdp_invalid_placement_identifier_fails_the_write)
{
	struct ssd_dev *d = fdrive("fdp_handles=4", "op=0.3");
	CHECKF(d, "%s", err);
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE | SSD_BLK_PLACEMENT(4), 0, 4096,
			     0) == SSD_FDP_EPID);
	const struct ssd_counters *c = ssd_dev_counters(d);
	CHECK(c->fdp_bad_pid == 1 && c->host_write_lp == 0);
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE | SSD_BLK_PLACEMENT(3), 0, 4096,
			     0) > 0);
	CHECK(strstr(ssd_strerror(SSD_FDP_EPID), "placement identifier"));
	ssd_dev_destroy(d);
	/* a drive without FDP ignores placement */
	d = t_sim_drive("tiny", NULL, 0, err, sizeof err);
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE | SSD_BLK_PLACEMENT(40), 0, 4096,
			     0) > 0);
	ssd_dev_destroy(d);
}

TEST(fdp_refusals_name_the_key)
{
	struct {
		const char *k1, *k2, *want;
	} cases[] = {
		{"mapping=block", NULL, "key 'mapping': fdp = yes places"},
		{"gc_copies=host", NULL, "key 'gc_copies': fdp = yes places"},
		{"fdp_handles=16", NULL, "key 'fdp_handles': 16 handles keep 15 more"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		err[0] = 0;
		struct ssd_dev *d = fdrive(cases[i].k1, cases[i].k2);
		CHECKF(!d && strstr(err, cases[i].want), "%s: %s", cases[i].k1, err);
		ssd_dev_destroy(d);
	}
}
