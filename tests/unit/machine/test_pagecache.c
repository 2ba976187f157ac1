/* The host page cache (machine/pagecache.h) over a fake lower node that
 * records every command it gets, with its time. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "base/util.h"
#include "machine/device.h"
#include "machine/pagecache.h"
#include "t.h"
#include "t_alloc.h"
#include "t_node.h"

#define KIB 1024ull
#define MIB (1024 * KIB)
#define PG 4096ull

/* The fake lower node: lat a command (a TRIM too), a flush 10 ns after
 * the latest completion; serial: one command at a time. */
static struct t_node *fake_new(uint64_t capacity, int64_t lat, int serial)
{
	return t_node_new(capacity, (struct t_node_cost){
		.cmd_ns = lat, .trim_ns = lat, .flush_ns = 10, .serial = serial});
}

/* ---- building a cache, reading its figures ------------------------------ */

struct pc_keys {
	const char *size, *ratio, *bg, *expire, *interval, *ra, *mbps;
};

/* A page cache over a fake lower of 1 GiB; NULL keys keep the defaults. */
static struct ssd_blk *pc_new(struct pc_keys k, int64_t lat, int serial,
			      struct t_node **fp)
{
	struct ssd_config c;
	char err[256];
	ssd_config_defaults(&c);
	const char *keys[] = {"page_cache", "page_cache_dirty_ratio",
			      "page_cache_dirty_bg_ratio", "page_cache_dirty_expire",
			      "page_cache_writeback_interval", "page_cache_read_ahead",
			      "page_cache_mbps"};
	const char *vals[] = {k.size, k.ratio, k.bg, k.expire, k.interval, k.ra,
			      k.mbps};
	for (int i = 0; i < 7; i++)
		if (vals[i] && ssd_config_set(&c, keys[i], vals[i], NULL, err,
					      sizeof err)) {
			fprintf(stderr, "pc_new: %s\n", err);
			return NULL;
		}
	struct t_node *f = fake_new(1024 * MIB, lat, serial);
	struct ssd_blk *b = NULL;
	if (!f || ssd_pcache_create(&c, &f->blk, &b)) {
		if (f)
			ssd_blk_destroy(&f->blk);
		return NULL;
	}
	*fp = f;
	return b;
}

static double stat_of(const struct ssd_blk *b, const char *key)
{
	return t_node_stat(b, key, -1);
}

/* copy time of len bytes at 4000 MB/s, as the cache rounds it */
static int64_t cp(uint64_t len)
{
	return (int64_t)((len * 1000 + 3999) / 4000);
}

/* ---- tests ------------------------------------------------------------- */

TEST(pcache_hit_and_miss_times)
{
	struct t_node *f;
	struct ssd_blk *b = pc_new((struct pc_keys){.size = "1m", .ra = "0"},
				   100 * SSD_US, 0, &f);
	CHECK(b);
	CHECK(b->capacity == f->blk.capacity && !strcmp(b->ops->kind, "page_cache"));
	int64_t d = ssd_blk_submit(b, SSD_DDIR_READ, 8 * KIB, 8 * KIB, 1000);
	CHECK(f->n == 1 && f->cmd[0].ddir == SSD_DDIR_READ &&
	      f->cmd[0].off == 8 * KIB && f->cmd[0].len == 8 * KIB && f->cmd[0].t == 1000);
	CHECKF(d == 1000 + 100 * SSD_US + cp(8 * KIB), "miss done %lld", (long long)d);
	/* again, later: a hit, no lower command, costs the copy */
	d = ssd_blk_submit(b, SSD_DDIR_READ, 8 * KIB, 8 * KIB, SSD_MS);
	CHECK(f->n == 1 && d == SSD_MS + cp(8 * KIB));
	/* a hit on pages still in flight waits for them */
	ssd_blk_submit(b, SSD_DDIR_READ, 64 * KIB, 4 * KIB, 2 * SSD_MS);
	d = ssd_blk_submit(b, SSD_DDIR_READ, 64 * KIB, 4 * KIB, 2 * SSD_MS + 10);
	/* ... and its copy follows the first read's: one copy at a time */
	CHECK(f->n == 2 && d == 2 * SSD_MS + 100 * SSD_US + 2 * cp(4 * KIB));
	/* a read over hits and two holes: one lower read per hole */
	d = ssd_blk_submit(b, SSD_DDIR_READ, 4 * KIB, 16 * KIB, 3 * SSD_MS);
	CHECK(f->n == 4);
	CHECK(f->cmd[2].off == 4 * KIB && f->cmd[2].len == 4 * KIB);
	CHECK(f->cmd[3].off == 16 * KIB && f->cmd[3].len == 4 * KIB);
	CHECK(d == 3 * SSD_MS + 100 * SSD_US + cp(16 * KIB));
	CHECK(stat_of(b, "read_hit_bytes") == 8 * KIB + 4 * KIB + 8 * KIB);
	CHECK(stat_of(b, "read_miss_bytes") == 8 * KIB + 4 * KIB + 8 * KIB);
	CHECK(stat_of(b, "cached_bytes") == 8 * KIB + 4 * KIB + 8 * KIB);
	CHECK(stat_of(b, "hit_ratio") == 0.5);
	CHECK(ssd_pcache_check(b) == 0);
	ssd_blk_destroy(b);
}

TEST(pcache_lru_evicts_the_least_recently_used)
{
	struct t_node *f;
	struct ssd_blk *b = pc_new((struct pc_keys){.size = "16k", .ra = "0"},
				   SSD_US, 0, &f);
	CHECK(b);
	int64_t t = 0;
	for (int i = 0; i < 4; i++)
		ssd_blk_submit(b, SSD_DDIR_READ, (uint64_t)i * PG, PG, t += SSD_MS);
	ssd_blk_submit(b, SSD_DDIR_READ, 0, PG, t += SSD_MS);      /* touch 0 */
	ssd_blk_submit(b, SSD_DDIR_READ, 10 * PG, PG, t += SSD_MS); /* evicts 1 */
	size_t n = f->n;
	ssd_blk_submit(b, SSD_DDIR_READ, 0, PG, t += SSD_MS);
	ssd_blk_submit(b, SSD_DDIR_READ, 2 * PG, 2 * PG, t += SSD_MS);
	CHECK(f->n == n);
	ssd_blk_submit(b, SSD_DDIR_READ, PG, PG, t += SSD_MS);
	CHECK(f->n == n + 1 && f->cmd[n].off == PG);
	CHECK(ssd_pcache_check(b) == 0);
	ssd_blk_destroy(b);
}

TEST(pcache_read_ahead_windows)
{
	struct t_node *f;
	struct ssd_blk *b = pc_new((struct pc_keys){.size = "1m", .ra = "16k"},
				   100 * SSD_US, 0, &f);
	CHECK(b);
	int64_t t = 0, d;
	/* page 0: demand read, then the window [1, 5) ahead */
	d = ssd_blk_submit(b, SSD_DDIR_READ, 0, PG, t);
	CHECK(f->n == 2 && f->cmd[0].off == 0 && f->cmd[0].len == PG);
	CHECK(f->cmd[1].off == PG && f->cmd[1].len == 4 * PG && f->cmd[1].t == 0);
	CHECK(d == 100 * SSD_US + cp(PG));   /* not waited for */
	/* page 1 reaches the window: the next one, [5, 9) */
	d = ssd_blk_submit(b, SSD_DDIR_READ, PG, PG, t = d);
	CHECK(f->n == 3 && f->cmd[2].off == 5 * PG && f->cmd[2].len == 4 * PG);
	CHECK(d == t + cp(PG));
	/* pages 2..4: inside the window, nothing */
	for (uint64_t p = 2; p < 5; p++)
		d = ssd_blk_submit(b, SSD_DDIR_READ, p * PG, PG, t = d);
	CHECK(f->n == 3);
	/* page 5, in flight since the read of page 1: waits for it */
	int64_t ready = f->cmd[2].done;
	d = ssd_blk_submit(b, SSD_DDIR_READ, 5 * PG, PG, t = d);
	CHECK(f->n == 4 && f->cmd[3].off == 9 * PG && f->cmd[3].len == 4 * PG);
	CHECK(d == (ready > t ? ready : t) + cp(PG));
	CHECK(stat_of(b, "read_ahead_bytes") == 12 * PG);
	CHECK(stat_of(b, "read_miss_bytes") == PG);
	/* a random read: no read-ahead */
	ssd_blk_submit(b, SSD_DDIR_READ, 500 * PG, PG, t = d + SSD_MS);
	CHECK(f->n == 5 && f->cmd[4].len == PG);
	/* the stream goes on where it was (a second stream slot kept it) */
	ssd_blk_submit(b, SSD_DDIR_READ, 6 * PG, PG, t + SSD_MS);
	CHECK(f->n == 5);
	CHECK(ssd_pcache_check(b) == 0);
	ssd_blk_destroy(b);
}

TEST(pcache_writeback_at_expiry_in_offset_order)
{
	struct t_node *f;
	struct ssd_blk *b = pc_new((struct pc_keys){.size = "4m", .bg = "0.5",
				   .ratio = "0.9", .expire = "1s",
				   .interval = "500ms"}, 50 * SSD_US, 0, &f);
	CHECK(b);
	/* pages 0..15 in a scrambled order, 100..101, and 300 contiguous
	 * pages from 1000: below the background ratio */
	static const int order[16] = {7, 3, 12, 0, 15, 9, 1, 4, 14, 2, 8, 11, 5, 13, 6, 10};
	int64_t t = 1000, d;
	for (int i = 0; i < 16; i++) {
		d = ssd_blk_submit(b, SSD_DDIR_WRITE, (uint64_t)order[i] * PG, PG, t);
		CHECK(d == t + cp(PG));
		t += 2 * SSD_US; /* apart: each copy done before the next */
	}
	ssd_blk_submit(b, SSD_DDIR_WRITE, 101 * PG, PG, t += SSD_US);
	ssd_blk_submit(b, SSD_DDIR_WRITE, 100 * PG, PG, t += SSD_US);
	ssd_blk_submit(b, SSD_DDIR_WRITE, 1000 * PG, 300 * PG, t += SSD_US);
	CHECK(f->n == 0);
	CHECK(stat_of(b, "dirty_bytes") == 318 * PG);
	/* the wakes at 0.5 s and 1 s find nothing expired yet (the oldest
	 * page is 1 s old at 1 s + 1 us) */
	CHECK(ssd_blk_idle(b, SSD_S) == 0);
	CHECK(f->n == 0);
	/* the wake at 1.5 s writes everything back, in offset order */
	CHECK(ssd_blk_idle(b, 2 * SSD_S) == 0);
	CHECK(f->n == 4);
	int64_t w = 1500 * SSD_MS;
	CHECK(f->cmd[0].ddir == SSD_DDIR_WRITE && f->cmd[0].off == 0 &&
	      f->cmd[0].len == 16 * PG && f->cmd[0].t == w);
	CHECK(f->cmd[1].off == 100 * PG && f->cmd[1].len == 2 * PG && f->cmd[1].t == w);
	CHECK(f->cmd[2].off == 1000 * PG && f->cmd[2].len == 256 * PG && f->cmd[2].t == w);
	CHECK(f->cmd[3].off == 1256 * PG && f->cmd[3].len == 44 * PG && f->cmd[3].t == w);
	CHECK(stat_of(b, "dirty_bytes") == 0);
	CHECK(stat_of(b, "writeback_cmds") == 4);
	CHECK(stat_of(b, "writeback_bytes") == 318 * PG);
	CHECK(stat_of(b, "cached_bytes") == 318 * PG);
	CHECK(f->idles == 2 && !f->bad_order);
	/* written back: clean, a flush sends only the flush */
	CHECK(ssd_blk_flush(b, 3 * SSD_S) >= 3 * SSD_S);
	CHECK(f->n == 5 && f->cmd[4].ddir == SSD_DDIR_SYNC);
	CHECK(ssd_pcache_check(b) == 0);
	ssd_blk_destroy(b);
}

TEST(pcache_writeback_expiry_caught_by_a_later_command)
{
	struct t_node *f;
	struct ssd_blk *b = pc_new((struct pc_keys){.size = "1m",
				   .expire = "30s", .interval = "5s"},
				   50 * SSD_US, 0, &f);
	CHECK(b);
	ssd_blk_submit(b, SSD_DDIR_WRITE, 0, PG, 7 * SSD_S);
	/* expired at 37 s, written at the wake of 40 s, seen by a read at 60 s */
	ssd_blk_submit(b, SSD_DDIR_READ, 50 * PG, PG, 60 * SSD_S);
	CHECK(f->n == 2 && f->cmd[0].ddir == SSD_DDIR_WRITE &&
	      f->cmd[0].t == 40 * SSD_S && f->cmd[1].t == 60 * SSD_S);
	CHECK(ssd_pcache_check(b) == 0);
	ssd_blk_destroy(b);
}

TEST(pcache_background_ratio_starts_writeback)
{
	struct t_node *f;
	/* 256 pages, background at 64, writers wait above 230 */
	struct ssd_blk *b = pc_new((struct pc_keys){.size = "1m", .bg = "0.25",
				   .ratio = "0.9"}, 50 * SSD_US, 0, &f);
	CHECK(b);
	int64_t t = 1000;
	ssd_blk_submit(b, SSD_DDIR_WRITE, 0, 64 * PG, t);
	CHECK(f->n == 0);
	ssd_blk_submit(b, SSD_DDIR_WRITE, 64 * PG, PG, t += SSD_US);
	/* over: the oldest written back (all 65: at least 256 of them) */
	CHECK(f->n == 1 && f->cmd[0].off == 0 && f->cmd[0].len == 65 * PG &&
	      f->cmd[0].t == t);
	CHECK(stat_of(b, "dirty_bytes") == 0);
	CHECK(stat_of(b, "writeback_now_bytes") == 65 * PG);
	/* clean once the write completes */
	ssd_blk_submit(b, SSD_DDIR_READ, 0, PG, t + SSD_MS);
	CHECK(stat_of(b, "writeback_now_bytes") == 0 && f->n == 1);
	CHECK(ssd_pcache_check(b) == 0);
	ssd_blk_destroy(b);
}

TEST(pcache_dirty_ratio_throttles_the_writer)
{
	struct t_node *f;
	/* 256 pages: background above 25 dirty, writers wait above 51 dirty
	 * or under write-back; the lower does one command per ms */
	struct ssd_blk *b = pc_new((struct pc_keys){.size = "1m", .bg = "0.1",
				   .ratio = "0.2"}, SSD_MS, 1, &f);
	CHECK(b);
	int64_t t = 0, d = 0;
	int throttled_at = -1;
	for (int i = 0; i < 200; i++) {
		d = ssd_blk_submit(b, SSD_DDIR_WRITE, (uint64_t)i * PG, PG, t);
		CHECK(d > t);
		if (d - t > cp(PG) && throttled_at < 0) {
			throttled_at = i;
			/* it waits for a write-back write to complete */
			int found = 0;
			for (size_t k = 0; k < f->n; k++)
				found |= f->cmd[k].ddir == SSD_DDIR_WRITE &&
					 f->cmd[k].done == d;
			CHECKF(found, "write %d done %lld: no write-back completes then",
			       i, (long long)d);
		}
		t = d;
	}
	CHECKF(throttled_at > 25 && throttled_at <= 52, "throttled at %d",
	       throttled_at);
	/* writing 200 pages took about the lower's pace: 8 commands of 1 ms */
	CHECK(stat_of(b, "throttled_writes") > 0 && stat_of(b, "throttle_ns") > 0);
	CHECKF(d > 5 * SSD_MS, "200 pages done at %lld", (long long)d);
	uint64_t nr = (uint64_t)(stat_of(b, "dirty_bytes") +
				 stat_of(b, "writeback_now_bytes")) / PG;
	CHECKF(nr <= 52, "dirty + write-back %llu pages", (unsigned long long)nr);
	/* write-back commands are in offset order and merged */
	for (size_t k = 1; k < f->n; k++)
		CHECK(f->cmd[k].off == f->cmd[k - 1].off + f->cmd[k - 1].len);
	CHECK(!f->bad_order);
	CHECK(ssd_pcache_check(b) == 0);
	ssd_blk_destroy(b);
}

TEST(pcache_flush_writes_back_then_flushes_lower)
{
	struct t_node *f;
	struct ssd_blk *b = pc_new((struct pc_keys){.size = "4m"}, 100 * SSD_US,
				   0, &f);
	CHECK(b);
	ssd_blk_submit(b, SSD_DDIR_WRITE, 40 * PG, 2 * PG, 0);
	ssd_blk_submit(b, SSD_DDIR_WRITE, 10 * PG, 3 * PG, 10);
	ssd_blk_submit(b, SSD_DDIR_WRITE, 13 * PG, PG, 20);
	CHECK(f->n == 0);
	int64_t d = ssd_blk_flush(b, SSD_MS);
	CHECK(f->n == 3);
	CHECK(f->cmd[0].ddir == SSD_DDIR_WRITE && f->cmd[0].off == 10 * PG &&
	      f->cmd[0].len == 4 * PG && f->cmd[0].t == SSD_MS);
	CHECK(f->cmd[1].off == 40 * PG && f->cmd[1].len == 2 * PG);
	CHECK(f->cmd[2].ddir == SSD_DDIR_SYNC && f->cmd[2].t == SSD_MS);
	CHECK(d >= SSD_MS + 100 * SSD_US && d >= f->cmd[2].done);
	CHECK(stat_of(b, "dirty_bytes") == 0 && stat_of(b, "flushes") == 1);
	/* nothing dirty: only the flush */
	ssd_blk_flush(b, 2 * SSD_MS);
	CHECK(f->n == 4 && f->cmd[3].ddir == SSD_DDIR_SYNC);
	CHECK(ssd_pcache_check(b) == 0);
	ssd_blk_destroy(b);
}

TEST(pcache_fua_writes_through)
{
	struct t_node *f;
	struct ssd_blk *b = pc_new((struct pc_keys){.size = "4m", .ra = "0"}, 100 * SSD_US,
				   0, &f);
	CHECK(b);
	ssd_blk_submit(b, SSD_DDIR_WRITE, 0, PG, 0);  /* dirty page 0 */
	int64_t d = ssd_blk_submit(b, SSD_DDIR_WRITE | SSD_DEV_FUA, 0, 2 * PG,
				   SSD_MS);
	CHECK(f->n == 1 && f->cmd[0].ddir == (SSD_DDIR_WRITE | SSD_DEV_FUA) &&
	      f->cmd[0].off == 0 && f->cmd[0].len == 2 * PG && f->cmd[0].t == SSD_MS);
	CHECK(d == SSD_MS + 100 * SSD_US);
	CHECK(stat_of(b, "dirty_bytes") == 0 && stat_of(b, "cached_bytes") == 2 * PG);
	/* cached: the read hits */
	ssd_blk_submit(b, SSD_DDIR_READ, 0, 2 * PG, 2 * SSD_MS);
	CHECK(f->n == 1);
	CHECK(ssd_pcache_check(b) == 0);
	ssd_blk_destroy(b);
}

TEST(pcache_partial_write_reads_the_page_first)
{
	struct t_node *f;
	struct ssd_blk *b = pc_new((struct pc_keys){.size = "4m", .ra = "0"},
				   100 * SSD_US, 0, &f);
	CHECK(b);
	/* [2 KiB, 14 KiB): pages 0 and 3 partial, adjacent? no: 0 and 3 */
	int64_t d = ssd_blk_submit(b, SSD_DDIR_WRITE, 2 * KIB, 12 * KIB, 0);
	CHECK(f->n == 2 && f->cmd[0].ddir == SSD_DDIR_READ && f->cmd[0].off == 0 &&
	      f->cmd[0].len == PG && f->cmd[1].off == 3 * PG && f->cmd[1].len == PG);
	CHECK(d == 100 * SSD_US + cp(12 * KIB));
	/* [6 KiB, 10 KiB) of uncached pages 5, 6... 1 and 2 of 4 KiB:
	 * adjacent partial pages: one read */
	d = ssd_blk_submit(b, SSD_DDIR_WRITE, 20 * KIB + 2 * KIB, 4 * KIB, SSD_MS);
	CHECKF(f->n == 3 && f->cmd[2].off == 5 * PG && f->cmd[2].len == 2 * PG,
	       "n %zu off %llu len %u", f->n, (unsigned long long)f->cmd[2].off, f->cmd[2].len);
	/* a cached page: no read */
	d = ssd_blk_submit(b, SSD_DDIR_WRITE, 100, 100, 2 * SSD_MS);
	CHECK(f->n == 3 && d == 2 * SSD_MS + cp(100));
	CHECK(stat_of(b, "rmw_read_bytes") == 4 * PG);
	CHECK(stat_of(b, "dirty_bytes") == 6 * PG);
	CHECK(ssd_pcache_check(b) == 0);
	ssd_blk_destroy(b);
}

TEST(pcache_direct_passes_through_and_invalidates)
{
	struct t_node *f;
	struct ssd_blk *b = pc_new((struct pc_keys){.size = "4m", .ra = "0"},
				   100 * SSD_US, 0, &f);
	CHECK(b);
	/* clean pages 0..3, dirty pages 8..11 */
	ssd_blk_submit(b, SSD_DDIR_READ, 0, 4 * PG, 0);
	ssd_blk_submit(b, SSD_DDIR_WRITE, 8 * PG, 4 * PG, 10);
	CHECK(f->n == 1);
	/* a direct read of a clean range: straight to lower, flag stripped */
	int64_t d = ssd_blk_submit(b, SSD_DDIR_READ | SSD_BLK_DIRECT, 0, 2 * PG,
				   SSD_MS);
	CHECK(f->n == 2 && f->cmd[1].ddir == SSD_DDIR_READ && f->cmd[1].off == 0 &&
	      f->cmd[1].t == SSD_MS && d == SSD_MS + 100 * SSD_US);
	/* a direct read over dirty pages 10, 11: written back first */
	d = ssd_blk_submit(b, SSD_DDIR_READ | SSD_BLK_DIRECT, 10 * PG, 4 * PG,
			   2 * SSD_MS);
	CHECK(f->n == 4 && f->cmd[2].ddir == SSD_DDIR_WRITE && f->cmd[2].off == 10 * PG &&
	      f->cmd[2].len == 2 * PG && f->cmd[3].ddir == SSD_DDIR_READ &&
	      f->cmd[3].off == 10 * PG && f->cmd[3].len == 4 * PG);
	CHECK(d == 2 * SSD_MS + 100 * SSD_US);
	CHECK(stat_of(b, "dirty_bytes") == 2 * PG);
	/* a direct FUA write over [2 KiB, 12 KiB + 2 KiB) of 0..3 (clean) and a
	 * direct write over 8..9 (dirty, covered whole): dropped, no write-back */
	d = ssd_blk_submit(b, SSD_DDIR_WRITE | SSD_BLK_DIRECT | SSD_DEV_FUA,
			   2 * KIB, 12 * KIB, 3 * SSD_MS);
	CHECK(f->n == 5 && f->cmd[4].ddir == (SSD_DDIR_WRITE | SSD_DEV_FUA));
	d = ssd_blk_submit(b, SSD_DDIR_WRITE | SSD_BLK_DIRECT, 8 * PG, 2 * PG,
			   4 * SSD_MS);
	CHECK(f->n == 6 && f->cmd[5].ddir == SSD_DDIR_WRITE && f->cmd[5].off == 8 * PG);
	CHECK(stat_of(b, "dirty_bytes") == 0);
	/* 10, 11 stay (under write-back, then clean); the rest is gone */
	CHECK(stat_of(b, "cached_bytes") == 2 * PG);
	ssd_blk_submit(b, SSD_DDIR_READ, 0, PG, 5 * SSD_MS);
	CHECK(f->n == 7);
	/* a direct write over part of a dirty page writes it back first */
	ssd_blk_submit(b, SSD_DDIR_WRITE, 20 * PG, PG, 6 * SSD_MS);
	d = ssd_blk_submit(b, SSD_DDIR_WRITE | SSD_BLK_DIRECT, 20 * PG + 512, 512,
			   7 * SSD_MS);
	CHECK(f->n == 9 && f->cmd[7].ddir == SSD_DDIR_WRITE && f->cmd[7].off == 20 * PG &&
	      f->cmd[7].len == PG && f->cmd[8].off == 20 * PG + 512 && f->cmd[8].len == 512);
	CHECK(d == 7 * SSD_MS + 100 * SSD_US);
	CHECK(stat_of(b, "direct_cmds") == 5 && stat_of(b, "dirty_bytes") == 0);
	/* dropped: a buffered read of page 20 misses */
	ssd_blk_submit(b, SSD_DDIR_READ, 20 * PG, PG, 8 * SSD_MS);
	CHECK(f->n == 10 && f->cmd[9].ddir == SSD_DDIR_READ);
	CHECK(ssd_pcache_check(b) == 0);
	ssd_blk_destroy(b);
}

TEST(pcache_trim_drops_pages)
{
	struct t_node *f;
	struct ssd_blk *b = pc_new((struct pc_keys){.size = "4m", .ra = "0"},
				   100 * SSD_US, 0, &f);
	CHECK(b);
	ssd_blk_submit(b, SSD_DDIR_WRITE, 0, 8 * PG, 0);
	/* [1 KiB, 6 pages): pages 1..5 whole, page 0 partly: it stays */
	ssd_blk_submit(b, SSD_DDIR_TRIM, KIB, 6 * PG - KIB, SSD_MS);
	CHECK(f->n == 1 && f->cmd[0].ddir == SSD_DDIR_TRIM && f->cmd[0].off == KIB);
	CHECK(stat_of(b, "dirty_bytes") == 3 * PG);
	ssd_blk_flush(b, 2 * SSD_MS);
	CHECK(f->n == 4 && f->cmd[1].off == 0 && f->cmd[1].len == PG &&
	      f->cmd[2].off == 6 * PG && f->cmd[2].len == 2 * PG);
	CHECK(ssd_pcache_check(b) == 0);
	ssd_blk_destroy(b);
}

TEST(pcache_full_of_dirty_pages_writes_through)
{
	struct t_node *f;
	/* 4 pages, no background write-back, no limit below all of them */
	struct ssd_blk *b = pc_new((struct pc_keys){.size = "16k", .bg = "1",
				   .ratio = "1"}, 100 * SSD_US, 0, &f);
	CHECK(b);
	int64_t d = ssd_blk_submit(b, SSD_DDIR_WRITE, 0, 6 * PG, 0);
	CHECK(f->n == 1 && f->cmd[0].ddir == SSD_DDIR_WRITE && f->cmd[0].off == 4 * PG &&
	      f->cmd[0].len == 2 * PG);
	CHECK(d == 100 * SSD_US + cp(6 * PG));
	CHECK(stat_of(b, "dirty_bytes") == 4 * PG);
	CHECK(stat_of(b, "write_through_bytes") == 2 * PG);
	/* a read miss with no room is read and not kept */
	ssd_blk_submit(b, SSD_DDIR_READ, 100 * PG, PG, SSD_MS);
	ssd_blk_submit(b, SSD_DDIR_READ, 100 * PG, PG, 2 * SSD_MS);
	CHECK(t_node_count(f, 1, SSD_DDIR_READ) == 2);
	CHECK(ssd_pcache_check(b) == 0);
	ssd_blk_destroy(b);
}

/* A random mix of every command kind in non-decreasing time: the lower
 * node sees non-decreasing time, the figures stay within bounds, and two
 * runs agree exactly. */
static int mixed_run(struct t_node **fp, struct ssd_blk **bp)
{
	struct t_node *f;
	struct ssd_blk *b = pc_new((struct pc_keys){.size = "256k", .bg = "0.1",
				   .ratio = "0.3", .expire = "2ms",
				   .interval = "1ms", .ra = "32k"},
				   30 * SSD_US, 1, &f);
	if (!b)
		return -1;
	uint64_t x = 88172645463325252ull;
	int64_t t = 0;
	uint64_t seq = 0;
	for (int i = 0; i < 20000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		int k = (int)(x % 100);
		uint64_t off = (x >> 8) % (4 * MIB);
		uint32_t len = (uint32_t)(1 + (x >> 40) % (64 * KIB));
		if (x >> 60 & 1)
			off &= ~(PG - 1), len = (len + (uint32_t)PG - 1) & ~((uint32_t)PG - 1);
		int64_t d;
		t += (int64_t)((x >> 20) % (20 * SSD_US));
		if (k < 30) {
			d = ssd_blk_submit(b, SSD_DDIR_READ, seq, 16 * (uint32_t)KIB, t);
			seq = (seq + 16 * KIB) % (4 * MIB);
		} else if (k < 50) {
			d = ssd_blk_submit(b, SSD_DDIR_READ, off, len, t);
		} else if (k < 85) {
			d = ssd_blk_submit(b, SSD_DDIR_WRITE, off, len, t);
		} else if (k < 88) {
			d = ssd_blk_submit(b, SSD_DDIR_WRITE | SSD_DEV_FUA, off, len, t);
		} else if (k < 92) {
			d = ssd_blk_submit(b, (x & 1 ? SSD_DDIR_READ : SSD_DDIR_WRITE) |
					   SSD_BLK_DIRECT, off, len, t);
		} else if (k < 95) {
			d = ssd_blk_submit(b, SSD_DDIR_TRIM, off, len, t);
		} else if (k < 98) {
			d = ssd_blk_flush(b, t);
		} else {
			t += 3 * SSD_MS;
			d = ssd_blk_idle(b, t) ? -1 : t;
		}
		if (d < t)
			return -2;
		if (x >> 59 & 1)
			t = d;   /* sometimes wait for the command */
		double dirty = stat_of(b, "dirty_bytes");
		double cached = stat_of(b, "cached_bytes");
		if (dirty < 0 || dirty > cached || cached > 256 * KIB)
			return -3;
		if (ssd_pcache_check(b))
			return -4;
	}
	*fp = f;
	*bp = b;
	return 0;
}

TEST(pcache_mixed_time_order_and_determinism)
{
	struct t_node *f1, *f2;
	struct ssd_blk *b1, *b2;
	int e = mixed_run(&f1, &b1);
	CHECKF(e == 0, "mixed run: %d", e);
	CHECK(mixed_run(&f2, &b2) == 0);
	CHECK(!f1->bad_order && !f2->bad_order);
	CHECK(f1->n == f2->n && f1->n > 1000);
	for (size_t i = 0; i < f1->n; i++) {
		const struct t_cmd *r1 = &f1->cmd[i], *r2 = &f2->cmd[i];
		CHECK(r1->ddir == r2->ddir && r1->off == r2->off &&
		      r1->len == r2->len && r1->t == r2->t && r1->done == r2->done);
	}
	struct ssd_blk_stat s1, s2;
	int rows = 0;
	for (int i = 0; b1->ops->stat(b1, i, &s1); i++, rows++) {
		CHECK(b2->ops->stat(b2, i, &s2) == 1);
		CHECK(!strcmp(s1.key, s2.key) && s1.value == s2.value);
	}
	CHECK(rows >= 13);
	CHECK(stat_of(b1, "writeback_cmds") > 0 && stat_of(b1, "read_ahead_bytes") > 0 &&
	      stat_of(b1, "read_hit_bytes") > 0 && stat_of(b1, "throttled_writes") >= 0);
	/* every lower command lies in the volume */
	for (size_t i = 0; i < f1->n; i++)
		CHECK(f1->cmd[i].off + f1->cmd[i].len <= f1->blk.capacity);
	ssd_blk_destroy(b1);
	ssd_blk_destroy(b2);
}

TEST(pcache_create_arguments_and_out_of_memory)
{
	struct ssd_config c;
	ssd_config_defaults(&c);
	struct t_node *f = fake_new(64 * MIB, SSD_US, 0);
	struct ssd_blk *b = NULL;
	CHECK(f);
	CHECK(ssd_pcache_create(&c, &f->blk, &b) == SSD_EINVAL); /* page_cache 0 */
	c.page_cache = 1 * MIB;
	CHECK(ssd_pcache_create(NULL, &f->blk, &b) == SSD_EINVAL);
	CHECK(ssd_pcache_create(&c, NULL, &b) == SSD_EINVAL);
	CHECK(ssd_pcache_create(&c, &f->blk, NULL) == SSD_EINVAL);
	for (long n = 1;; n++) {
		t_alloc_fail_at(n);
		int e = ssd_pcache_create(&c, &f->blk, &b);
		int failed = t_alloc_failed();
		t_alloc_fail_at(0);
		if (!failed) {
			CHECK(e == 0);
			break;
		}
		CHECK(e == SSD_ENOMEM);
	}
	/* the write-back ring grows in a command: its failure is ENOMEM and
	 * the cache stays whole */
	ssd_blk_submit(b, SSD_DDIR_WRITE, 0, 4 * PG, 0);
	t_alloc_fail_at(1);
	int64_t d = ssd_blk_flush(b, SSD_MS);
	t_alloc_fail_at(0);
	CHECK(d == SSD_ENOMEM);
	CHECK(ssd_blk_flush(b, 2 * SSD_MS) > 2 * SSD_MS);
	CHECK(f->cmd[0].ddir == SSD_DDIR_WRITE && f->cmd[0].len == 4 * PG);
	CHECK(ssd_pcache_check(b) == 0);
	ssd_blk_destroy(b);
}
