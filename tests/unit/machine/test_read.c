/* The device's read path: pages streamed to the host as they are read,
 * and the controller's read-ahead of sequential streams. */
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "machine/device.h"
#include "nand/flash.h"
#include "t.h"
#include "t_sim.h"

#ifndef SSDLAB_PRESET_DIR
#define SSDLAB_PRESET_DIR "presets"
#endif

#define KIB 1024u

/* The X25-E preset at 1 GiB with the given read-ahead: 10 slow (40 MB/s)
 * channels, 2-plane 8 KiB pages, a 240 MB/s link. */
static int x25e(const char *read_ahead, struct ssd_dev **d)
{
	char err[256], ra[64];
	snprintf(ra, sizeof ra, "read_ahead=%s", read_ahead);
	const char *const sets[] = {"capacity=1g", ra};
	*d = t_sim_drive("intel-x25e-32g", sets, 2, err, sizeof err);
	if (!*d) {
		fprintf(stderr, "x25e: %s\n", err);
		return -1;
	}
	return 0;
}

/* Write [0, bytes) in 128 KiB commands at QD1 and let the drive go idle.
 * Returns the time it is idle from. */
static int64_t fill(struct ssd_dev *d, uint64_t bytes)
{
	int64_t t = 0;
	for (uint64_t off = 0; off < bytes; off += 128 * KIB) {
		int64_t done = ssd_dev_submit(d, SSD_DDIR_WRITE, off, 128 * KIB, t);
		if (done < 0)
			return done;
		t = done;
	}
	t += SSD_S;
	ssd_dev_idle(d, t);
	return t;
}

/* ns the link takes for len bytes (device.c's rounding) */
static int64_t link_time(const struct ssd_dev *d, uint64_t len)
{
	return (int64_t)((len * 1000 + d->cfg.host_mbps - 1) / d->cfg.host_mbps);
}

TEST(read_streams_pages_to_the_host_as_they_are_read)
{
	struct ssd_dev *a, *b;
	CHECK(x25e("0", &a) == 0 && x25e("0", &b) == 0);
	int64_t t = fill(a, 1 << 20);
	CHECK(t > 0 && fill(b, 1 << 20) == t);
	/* b tells when every page of the read is in the controller */
	int64_t flash = ssd_ftl_read(b->ftl, 0, 32, t) - t;
	int64_t link = link_time(a, 128 * KIB), ovh = a->cfg.cmd_overhead;
	int64_t lat = ssd_dev_submit(a, SSD_DDIR_READ, 0, 128 * KIB, t) - t;
	/* the link starts on the first pages while later ones are read:
	 * less than flash then link, at least either of them */
	CHECKF(lat < flash + link + ovh, "latency %lld, flash %lld + link %lld",
	       (long long)lat, (long long)flash, (long long)link);
	CHECK(lat >= flash + ovh && lat >= link + ovh);
	/* on this drive the second 4 KiB of the first 8 KiB page is in the
	 * controller after tR + 2 x 102 us on its channel; from there on the
	 * link is the limit */
	int64_t second = a->cfg.t_read + 2 * ssd_flash_xfer_ns(&a->cfg);
	CHECKF(lat == second + link - link_time(a, 4 * KIB) + ovh, "%lld",
	       (long long)lat);
	/* 16 (multi-plane) pages read, a NAND page per plane */
	uint32_t mp = a->cfg.multiplane ? a->cfg.planes_per_die : 1;
	CHECK(ssd_dev_counters(a)->host_read_lp == 32 &&
	      ssd_dev_counters(a)->nand_read == 16 * mp);
	ssd_dev_destroy(a);
	ssd_dev_destroy(b);
}

/* QD1 4 KiB sequential reads of [0, bytes): the total time, and the
 * latencies of the first three commands in lat[]. */
static int64_t seq_reads(struct ssd_dev *d, int64_t t, uint64_t bytes,
			 int64_t *lat)
{
	int64_t start = t;
	for (uint64_t off = 0; off < bytes; off += 4 * KIB) {
		int64_t done = ssd_dev_submit(d, SSD_DDIR_READ, off, 4 * KIB, t);
		if (done < 0)
			return done;
		if (off < 3 * 4 * KIB)
			lat[off / (4 * KIB)] = done - t;
		t = done;
	}
	return t - start;
}

TEST(read_ahead_serves_sequential_reads_from_dram)
{
	struct ssd_dev *off, *on;
	CHECK(x25e("0", &off) == 0 && x25e("128k", &on) == 0);
	CHECK(on->ssd->ra_n == 32);
	int64_t t = fill(off, 4 << 20);
	CHECK(t > 0 && fill(on, 4 << 20) == t);
	struct ssd_counters c0 = *ssd_dev_counters(on);
	int64_t la[3], lb[3];
	int64_t a = seq_reads(off, t, 4 << 20, la);
	int64_t b = seq_reads(on, t, 4 << 20, lb);
	CHECK(a > 0 && b > 0);
	/* the first read is no stream yet, and the second (which starts
	 * the read-ahead) is not delayed by it */
	CHECK(la[0] == lb[0] && la[1] == lb[1]);
	/* then reads come from DRAM at link speed */
	CHECK(lb[2] == link_time(on, 4 * KIB) + on->cfg.cmd_overhead);
	CHECKF(b * 3 < a, "read-ahead %lld ns, without %lld ns", (long long)b,
	       (long long)a);
	/* host reads are the host's; the read-ahead's NAND reads count */
	const struct ssd_counters *x = ssd_dev_counters(off), *y = ssd_dev_counters(on);
	CHECK(x->host_read_lp == 1024 && y->host_read_lp - c0.host_read_lp == 1024);
	CHECK(x->read_ahead_lp == 0 && x->read_ahead_hit_lp == 0);
	CHECK(y->read_ahead_hit_lp == 1022);
	/* it read ahead to the end of the data, and 128 KiB past it
	 * (unmapped: nothing read, nothing buffered) */
	CHECK(y->read_ahead_lp == 1022);
	uint32_t mp = on->cfg.multiplane ? on->cfg.planes_per_die : 1;
	CHECK(x->nand_read == 512 * mp && y->nand_read == 512 * mp);
	ssd_dev_destroy(off);
	ssd_dev_destroy(on);
}

TEST(read_ahead_buffer_is_dropped_by_writes_and_trims)
{
	struct ssd_dev *d;
	CHECK(x25e("64k", &d) == 0);
	int64_t t = fill(d, 1 << 20);
	CHECK(t > 0);
	int64_t lat[3];
	/* reads of pages 0, 1, 2: the second buffers 2..17, the third uses
	 * page 2 and tops up to 18 */
	CHECK(seq_reads(d, t, 3 * 4 * KIB, lat) > 0);
	const struct ssd_counters *c = ssd_dev_counters(d);
	CHECK(c->read_ahead_lp == 17 && c->read_ahead_hit_lp == 1);
	CHECK(d->ssd->ra_lo == 3 && d->ssd->ra_hi == 19);
	t = ssd_dev_time(d) + SSD_MS;
	/* a write inside the buffered range: the copy there is stale */
	CHECK(ssd_dev_submit(d, SSD_DDIR_WRITE, 10 * 4 * KIB, 4 * KIB, t) > 0);
	uint64_t hits = c->read_ahead_hit_lp;
	t = ssd_dev_time(d) + SSD_MS;
	CHECK(ssd_dev_submit(d, SSD_DDIR_READ, 3 * 4 * KIB, 4 * KIB, t) > 0);
	CHECK(c->read_ahead_hit_lp == hits);
	/* the stream goes on and buffers again; a trim drops it too */
	t = ssd_dev_time(d);
	CHECK(ssd_dev_submit(d, SSD_DDIR_READ, 4 * 4 * KIB, 4 * KIB, t) > 0);
	CHECK(d->ssd->ra_hi == 5 + 16);
	t = ssd_dev_time(d);
	CHECK(ssd_dev_submit(d, SSD_DDIR_TRIM, 8 * 4 * KIB, 4 * KIB, t) >= 0);
	CHECK(d->ssd->ra_lo == d->ssd->ra_hi);
	ssd_dev_destroy(d);
}

TEST(read_ahead_leaves_random_reads_alone)
{
	struct ssd_dev *off, *on;
	CHECK(x25e("0", &off) == 0 && x25e("1m", &on) == 0);
	int64_t t = fill(off, 64 << 20);
	CHECK(t > 0 && fill(on, 64 << 20) == t);
	struct ssd_rng r;
	ssd_rng_seed(&r, 5);
	uint64_t prev_end = UINT64_MAX;
	for (int i = 0; i < 3000; i++) {
		/* random 4 KiB reads; one that happened to continue the last
		 * would be a (two-command) sequential stream by definition */
		uint64_t o;
		do
			o = ssd_rng_below(&r, (64 << 20) / (4 * KIB)) * 4 * KIB;
		while (o == prev_end);
		prev_end = o + 4 * KIB;
		int64_t a = ssd_dev_submit(off, SSD_DDIR_READ, o, 4 * KIB, t);
		int64_t b = ssd_dev_submit(on, SSD_DDIR_READ, o, 4 * KIB, t);
		CHECK(a > t && a == b);
		t = a;
	}
	CHECK(ssd_dev_counters(on)->read_ahead_lp == 0 &&
	      ssd_dev_counters(on)->nand_read == ssd_dev_counters(off)->nand_read);
	ssd_dev_destroy(off);
	ssd_dev_destroy(on);
}
