/* MFT (machine/mft.h) over a fake lower node that records every command:
 * the log's write pattern, the map, read-modify-write, flushes, the
 * cleaner under sustained overwrite with the invariants checked after
 * every step, TRIM, the map cache, time order, determinism, and the
 * write amplification of greedy cleaning against its theory. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "base/util.h"
#include "machine/blk.h"
#include "machine/device.h"
#include "machine/mft.h"
#include "t.h"
#include "t_alloc.h"
#include "t_node.h"

#define KIB 1024ull
#define MIB (1024ull * 1024)

/* the fake lower: one server, 50 us a command plus 200 MB/s (5 ns a
 * byte), a TRIM 10 us */
static const struct t_node_cost lower = {
	.cmd_ns = 50 * SSD_US, .byte_ns = 5, .trim_ns = 10 * SSD_US, .serial = 1,
};

/* ---- helpers ---- */

static void cfg(struct ssd_config *c)
{
	ssd_config_defaults(c);
	c->mft = 1;
}

/* An MFT node over a fake of `cap` bytes; *fp the fake. */
static struct ssd_blk *mk(const struct ssd_config *c, uint64_t cap,
			  struct t_node **fp)
{
	struct t_node *f = t_node_new(cap, lower);
	struct ssd_blk *b = NULL;
	if (!f)
		return NULL;
	if (ssd_mft_create(c, &f->blk, &b) != 0) {
		ssd_blk_destroy(&f->blk);
		return NULL;
	}
	*fp = f;
	return b;
}

static double stat_of(const struct ssd_blk *b, const char *key)
{
	return t_node_stat(b, key, NAN);
}

/* The data area's end: commands at or past it are map pages. */
static uint64_t data_end(const struct ssd_blk *b)
{
	return (uint64_t)(stat_of(b, "segments_total") * stat_of(b, "segment_bytes"));
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int check(const struct ssd_blk *b, const struct t_node *f)
{
	char err[256];
	if (ssd_mft_check(b, err, sizeof err)) {
		fprintf(stderr, "    mft check: %s\n", err);
		return 0;
	}
	if (f->bad_order || f->bad_range || f->nomem) {
		fprintf(stderr, "    lower: %d out of order, %d out of range\n",
			f->bad_order, f->bad_range);
		return 0;
	}
	return 1;
}

#define B16 (16 * KIB)

/* ---- tests ---- */

TEST(mft_capacity_and_geometry_follow_the_keys)
{
	struct ssd_config c;
	struct t_node *f;
	cfg(&c);
	struct ssd_blk *b = mk(&c, 1024 * MIB, &f);
	CHECK(b);
	CHECK(!strcmp(b->ops->kind, "mft") && b->nlower == 1 && b->lower[0] == &f->blk);
	/* 1 GiB * 0.9 rounded down to 16 KiB */
	CHECK(b->capacity == (uint64_t)(1024 * MIB * 0.9) / B16 * B16);
	CHECK(stat_of(b, "segment_bytes") == 4 * MIB);
	CHECK(data_end(b) <= 1024 * MIB - 4 * KIB * ((b->capacity / B16 + 1023) / 1024));
	CHECK(stat_of(b, "segments_free") == stat_of(b, "segments_total"));
	CHECK(check(b, f));
	ssd_blk_destroy(b);
	/* a 1 MiB drive still works, with one-block segments */
	b = mk(&c, MIB, &f);
	CHECK(b && stat_of(b, "segment_bytes") == B16);
	ssd_blk_destroy(b);
	/* too little spare: refused, the lower still the caller's */
	c.mft_reserve = 0.02;
	c.mft_block = 1024 * KIB;
	c.mft_write = 1024 * KIB;
	f = t_node_new(8 * MIB, lower);
	CHECK(f);
	CHECK(ssd_mft_create(&c, &f->blk, &b) == SSD_EINVAL);
	ssd_blk_destroy(&f->blk);
	CHECK(ssd_mft_create(NULL, NULL, &b) == SSD_EINVAL);
}

/* Random 4 KiB writes to distinct blocks of a fresh volume: lower sees
 * only mft_write-sized writes, each where the last ended (within a
 * segment), then the map pages. */
TEST(mft_random_small_writes_become_sequential_log_writes)
{
	struct ssd_config c;
	struct t_node *f;
	cfg(&c);
	struct ssd_blk *b = mk(&c, 256 * MIB, &f);
	CHECK(b);
	uint64_t nblk = b->capacity / B16, s = 7;
	uint32_t n = 3000;
	uint32_t *perm = malloc(nblk * sizeof *perm);
	CHECK(perm);
	for (uint32_t i = 0; i < nblk; i++)
		perm[i] = i;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t j = i + (uint32_t)(rnd(&s) % (nblk - i)), x = perm[i];
		perm[i] = perm[j];
		perm[j] = x;
	}
	int64_t t = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t off = (uint64_t)perm[i] * B16 + (rnd(&s) % 4) * 4 * KIB;
		int64_t d = ssd_blk_submit(b, SSD_DDIR_WRITE, off, 4096, t);
		CHECK(d >= t);
		t = d;
	}
	free(perm);
	CHECK(ssd_blk_flush(b, t) >= t);
	CHECK(check(b, f));
	uint64_t dend = data_end(b), seg = (uint64_t)stat_of(b, "segment_bytes");
	uint64_t next = 0, logw = 0, bytes = 0;
	int shorts = 0;
	for (size_t i = 0; i < f->n; i++) {
		struct t_cmd *x = &f->cmd[i];
		if ((x->ddir & 0xff) == SSD_DDIR_SYNC)
			continue;
		CHECKF((x->ddir & 0xff) == SSD_DDIR_WRITE, "command %zu: ddir %d", i, x->ddir);
		if (x->off >= dend)
			continue; /* a map page */
		CHECKF(x->off == next || (next % seg == 0 && x->off % seg == 0),
		       "log write %zu at %llu, expected %llu", i,
		       (unsigned long long)x->off, (unsigned long long)next);
		CHECK(x->len <= c.mft_write && x->off / seg == (x->off + x->len - 1) / seg);
		if (x->len != c.mft_write)
			shorts++;
		next = x->off + x->len;
		logw++;
		bytes += x->len;
	}
	/* 3000 blocks: one full-buffer flush of 32 writes, then the flush
	 * command's 952 blocks in 14 full writes and one short one */
	CHECK(bytes == 3000 * B16);
	CHECKF(logw == 47 && shorts == 1, "%llu log writes, %d short",
	       (unsigned long long)logw, shorts);
	CHECK(stat_of(b, "flushes_full") == 1 && stat_of(b, "flushes_cmd") == 1);
	CHECK(stat_of(b, "rmw_reads") == 0 && stat_of(b, "map_writes") >= 2);
	ssd_blk_destroy(b);
}

/* Where each block went, from the order of the writes (no cleaning):
 * reads of lower land there, a read over several blocks is split into
 * the physically contiguous runs. */
TEST(mft_reads_go_to_the_blocks_physical_place)
{
	struct ssd_config c;
	struct t_node *f;
	cfg(&c);
	struct ssd_blk *b = mk(&c, 256 * MIB, &f);
	CHECK(b);
	uint32_t n = 256, shadow[256], perm[256];
	uint64_t s = 11;
	for (uint32_t i = 0; i < n; i++)
		perm[i] = i;
	for (uint32_t i = n - 1; i > 0; i--) {
		uint32_t j = (uint32_t)(rnd(&s) % (i + 1)), x = perm[i];
		perm[i] = perm[j];
		perm[j] = x;
	}
	int64_t t = 0;
	uint32_t pos = 0;
	/* blocks 0..255 in a random order, then every third again, with 16
	 * blocks in a row (100..115) written in order */
	for (uint32_t i = 0; i < n; i++, pos++) {
		t = ssd_blk_submit(b, SSD_DDIR_WRITE, perm[i] * B16, B16, t);
		shadow[perm[i]] = pos;
	}
	t = ssd_blk_flush(b, t);
	for (uint32_t i = 0; i < n; i += 3) {
		if (perm[i] >= 100 && perm[i] < 116)
			continue;
		t = ssd_blk_submit(b, SSD_DDIR_WRITE, perm[i] * B16, B16, t);
		shadow[perm[i]] = pos++;
	}
	for (uint32_t l = 100; l < 116; l++, pos++) {
		t = ssd_blk_submit(b, SSD_DDIR_WRITE, l * B16, B16, t);
		shadow[l] = pos;
	}
	t = ssd_blk_flush(b, t);
	CHECK(t > 0 && check(b, f));
	for (uint32_t l = 0; l < n; l++)
		CHECKF(ssd_mft_where(b, l) == (int64_t)(shadow[l] * B16), "l %u where %lld shadow %u", l, (long long)ssd_mft_where(b, l), shadow[l]);
	/* one 4 KiB read a block, at its place plus the offset in it */
	for (uint32_t l = 0; l < n; l++) {
		size_t k = f->n;
		int64_t d = ssd_blk_submit(b, SSD_DDIR_READ, l * B16 + 8 * KIB, 4096, t);
		CHECK(d > t && f->n == k + 1);
		CHECK(f->cmd[k].ddir == SSD_DDIR_READ && f->cmd[k].len == 4096 &&
		      f->cmd[k].off == shadow[l] * B16 + 8 * KIB && f->cmd[k].t == t);
		t = d;
	}
	/* a read of blocks 98..117: runs as the shadow map says */
	size_t k = f->n;
	t = ssd_blk_submit(b, SSD_DDIR_READ, 98 * B16 + 4 * KIB, 20 * B16 - 8 * KIB, t);
	uint64_t roff = 0, rlen = 0;
	size_t j = k;
	for (uint32_t l = 98; l < 118; l++) {
		uint64_t a = l == 98 ? 4 * KIB : 0, e = l == 117 ? 12 * KIB : B16;
		uint64_t pa = shadow[l] * B16 + a;
		if (rlen && roff + rlen == pa) {
			rlen += e - a;
			continue;
		}
		if (rlen) {
			CHECK(j < f->n && f->cmd[j].off == roff && f->cmd[j].len == rlen);
			j++;
		}
		roff = pa;
		rlen = e - a;
	}
	CHECK(j < f->n && f->cmd[j].off == roff && f->cmd[j].len == rlen);
	CHECK(j + 1 == f->n);
	/* the 16 in-order blocks are one read of 16 blocks */
	int found = 0;
	for (size_t i = k; i < f->n; i++)
		found |= f->cmd[i].off <= shadow[100] * B16 &&
			 f->cmd[i].off + f->cmd[i].len >= (shadow[100] + 16) * B16;
	CHECK(found);
	/* a gathered block is read from RAM; an unwritten one costs nothing */
	t = ssd_blk_submit(b, SSD_DDIR_WRITE, 5 * B16, B16, t);
	k = f->n;
	int64_t d = ssd_blk_submit(b, SSD_DDIR_READ, 5 * B16, B16, t);
	CHECK(f->n == k && d == t + (int64_t)(B16 * 1000 / c.page_cache_mbps));
	d = ssd_blk_submit(b, SSD_DDIR_READ, 1000 * B16, B16, t);
	CHECK(f->n == k && d == t);
	CHECK(check(b, f));
	ssd_blk_destroy(b);
}

TEST(mft_partial_block_writes_read_the_block_first)
{
	struct ssd_config c;
	struct t_node *f;
	cfg(&c);
	struct ssd_blk *b = mk(&c, 256 * MIB, &f);
	CHECK(b);
	int64_t t = ssd_blk_submit(b, SSD_DDIR_WRITE, 0, 8 * B16, 0);
	t = ssd_blk_flush(b, t);
	size_t k = f->n;
	/* 4 KiB into written block 5: one read of the whole block */
	int64_t d = ssd_blk_submit(b, SSD_DDIR_WRITE, 5 * B16 + 4 * KIB, 4096, t);
	CHECK(f->n == k + 1 && f->cmd[k].ddir == SSD_DDIR_READ &&
	      (int64_t)f->cmd[k].off == ssd_mft_where(b, 5) && f->cmd[k].len == B16);
	CHECK(d >= f->cmd[k].done);
	CHECK(stat_of(b, "rmw_reads") == 1 && stat_of(b, "rmw_read_bytes") == B16);
	/* again into block 5 (gathered now): no read */
	t = ssd_blk_submit(b, SSD_DDIR_WRITE, 5 * B16 + 8 * KIB, 4096, d);
	CHECK(f->n == k + 1);
	/* into a never-written block: no read, the rest is zeros */
	t = ssd_blk_submit(b, SSD_DDIR_WRITE, 100 * B16, 4096, t);
	CHECK(f->n == k + 1);
	/* the second half of block 1 and the first of block 2: two reads */
	t = ssd_blk_submit(b, SSD_DDIR_WRITE, B16 + 8 * KIB, B16, t);
	CHECK(f->n == k + 3 && stat_of(b, "rmw_reads") == 3);
	CHECK(check(b, f));
	ssd_blk_destroy(b);
}

TEST(mft_flush_interval_flush_command_and_fua)
{
	struct ssd_config c;
	struct t_node *f;
	cfg(&c);
	struct ssd_blk *b = mk(&c, 256 * MIB, &f);
	CHECK(b);
	int64_t t = ssd_blk_submit(b, SSD_DDIR_WRITE, 0, B16, 0);
	CHECK(t > 0 && f->n == 0);
	t = ssd_blk_submit(b, SSD_DDIR_WRITE, 10 * B16, B16, 3 * SSD_S);
	ssd_blk_submit(b, SSD_DDIR_READ, 100 * B16, B16, 6900 * SSD_MS);
	CHECK(f->n == 0);
	/* the next call past 7 s: the flush happens at 7 s (the first block's
	 * age), before the call's own command */
	ssd_blk_submit(b, SSD_DDIR_READ, 0, B16, 7500 * SSD_MS);
	CHECK(f->n >= 3);
	CHECK(f->cmd[0].ddir == SSD_DDIR_WRITE && f->cmd[0].t == 7 * SSD_S &&
	      f->cmd[0].len == 2 * B16);
	CHECK(f->cmd[1].ddir == SSD_DDIR_WRITE && f->cmd[1].off >= data_end(b)); /* map */
	CHECK(f->cmd[f->n - 1].ddir == SSD_DDIR_READ && f->cmd[f->n - 1].t == 7500 * SSD_MS);
	CHECK(stat_of(b, "flushes_timer") == 1);
	/* idle past a deadline flushes too */
	ssd_blk_submit(b, SSD_DDIR_WRITE, 20 * B16, B16, 8 * SSD_S);
	size_t k = f->n;
	CHECK(ssd_blk_idle(b, 16 * SSD_S) == 0);
	CHECK(f->n > k && f->cmd[k].t == 15 * SSD_S && stat_of(b, "flushes_timer") == 2);
	/* a flush command writes the buffer, then flushes lower */
	ssd_blk_submit(b, SSD_DDIR_WRITE, 30 * B16, B16, 20 * SSD_S);
	k = f->n;
	int64_t d = ssd_blk_flush(b, 21 * SSD_S);
	CHECK(f->n >= k + 3 && f->cmd[k].t == 21 * SSD_S && f->cmd[k].len == B16);
	CHECK((f->cmd[f->n - 1].ddir & 0xff) == SSD_DDIR_SYNC);
	CHECK(d >= f->cmd[k].done && d >= f->cmd[f->n - 2].done);
	/* nothing pending: only lower's flush */
	k = f->n;
	ssd_blk_flush(b, 22 * SSD_S);
	CHECK(f->n == k + 1 && (f->cmd[k].ddir & 0xff) == SSD_DDIR_SYNC);
	/* a FUA write goes to the log at once, with FUA, and waits for it */
	k = f->n;
	d = ssd_blk_submit(b, SSD_DDIR_WRITE | SSD_DEV_FUA, 40 * B16, 4096, 23 * SSD_S);
	CHECK(f->n >= k + 2 && f->cmd[k].ddir == (SSD_DDIR_WRITE | SSD_DEV_FUA) &&
	      f->cmd[k].t == 23 * SSD_S);
	CHECK(d >= f->cmd[f->n - 1].done && stat_of(b, "flushes_cmd") == 2);
	CHECK(check(b, f));
	ssd_blk_destroy(b);
}

/* The essay saw MFT flush about every 7 s in about 25 large writes.  At
 * the defaults a load that dirties 25 MiB of blocks in 7 s does that: 4 KiB
 * random writes at 225 a second over a 4 GiB file, each a new 16 KiB
 * block (1575 in 7 s, 24.6 MiB < the 32 MiB buffer). */
TEST(mft_defaults_flush_every_7s_in_about_25_writes)
{
	struct ssd_config c;
	struct t_node *f;
	cfg(&c);
	struct ssd_blk *b = mk(&c, 5 * 1024 * MIB, &f);
	CHECK(b);
	uint64_t s = 3, span = 4096 * MIB / 4096;
	for (int i = 0; i < 225 * 22; i++) {
		int64_t t = (int64_t)i * SSD_S / 225;
		CHECK(ssd_blk_submit(b, SSD_DDIR_WRITE, (rnd(&s) % span) * 4096,
				     4096, t) >= t);
	}
	CHECK(check(b, f));
	CHECK(stat_of(b, "flushes") == 3 && stat_of(b, "flushes_timer") == 3);
	/* the flushes' times and their log writes */
	uint64_t dend = data_end(b);
	int64_t at[3];
	int w[3] = {0, 0, 0}, nf = 0;
	for (size_t i = 0; i < f->n; i++) {
		if (f->cmd[i].off >= dend || f->cmd[i].ddir != SSD_DDIR_WRITE)
			continue; /* map pages, read-modify-write */
		if (!nf || f->cmd[i].t != at[nf - 1])
			at[nf++] = f->cmd[i].t;
		CHECK(nf <= 3);
		w[nf - 1]++;
	}
	CHECK(nf == 3);
	if (getenv("MFT_REPORT"))
		fprintf(stderr, "    flushes at %.1f %.1f %.1f s: %d %d %d log writes, "
			"%.0f rmw reads\n", at[0] / 1e9, at[1] / 1e9, at[2] / 1e9,
			w[0], w[1], w[2], stat_of(b, "rmw_reads"));
	for (int i = 0; i < 3; i++) {
		CHECKF(at[i] >= 7 * (i + 1) * SSD_S && at[i] < (7 * (i + 1) + 1) * SSD_S &&
		       w[i] >= 24 && w[i] <= 26, "flush %d at %lld ns, %d writes", i,
		       (long long)at[i], w[i]);
	}
	ssd_blk_destroy(b);
}

/* A step of a random workload: writes of 4 KiB to 64 KiB, some aligned,
 * TRIMs, flushes, reads, idle periods.  Returns the new time. */
static int64_t step(struct ssd_blk *b, uint64_t *s, int64_t t, int trims)
{
	uint64_t cap = b->capacity, r = rnd(s) % 100;
	uint32_t len = (uint32_t)(1 + rnd(s) % 16) * 4096;
	uint64_t off = (rnd(s) % (cap / 4096)) * 4096;
	if (rnd(s) % 2)
		off = off / B16 * B16;
	if (off + len > cap)
		len = (uint32_t)(cap - off);
	int64_t d;
	if (r < 70)
		d = ssd_blk_submit(b, SSD_DDIR_WRITE | (r == 0 ? SSD_DEV_FUA : 0), off, len, t);
	else if (r < 85)
		d = ssd_blk_submit(b, SSD_DDIR_READ, off, len, t);
	else if (r < 92 && trims)
		d = ssd_blk_submit(b, SSD_DDIR_TRIM, off, len * 4 < cap - off ? len * 4 : len, t);
	else if (r < 95)
		d = ssd_blk_flush(b, t);
	else if (r < 97) {
		int64_t u = t + (int64_t)(rnd(s) % 3000) * SSD_MS;
		if (ssd_blk_idle(b, u))
			return -1;
		return u;
	} else
		d = ssd_blk_submit(b, SSD_DDIR_WRITE, off, len, t);
	if (d < t)
		return -1;
	/* QD1 most of the time; sometimes the next command comes early */
	return rnd(s) % 4 ? d : t + (d - t) / 2;
}

TEST(mft_cleaner_keeps_the_log_going_invariants_hold)
{
	struct ssd_config c;
	struct t_node *f;
	cfg(&c);
	c.mft_buffer = 1 * MIB;
	c.mft_write = 128 * KIB;
	struct ssd_blk *b = mk(&c, 64 * MIB, &f);
	CHECK(b);
	uint64_t s = 99;
	int64_t t = 0;
	/* several times the volume */
	for (int i = 0; i < 30000; i++) {
		t = step(b, &s, t, 1);
		CHECKF(t >= 0, "step %d failed", i);
		CHECKF(check(b, f), "after step %d", i);
		CHECK(stat_of(b, "segments_free") >= 1);
	}
	CHECK(stat_of(b, "segments_cleaned") > 100);
	CHECK(stat_of(b, "host_write_bytes") > 3 * b->capacity);
	CHECK(stat_of(b, "segment_trims") > 100);
	t = ssd_blk_flush(b, t); /* nothing pending: no lazy flush below */
	/* every mapped block reads from where the map says */
	for (uint64_t l = 0; l < b->capacity / B16; l += 7) {
		int64_t w = ssd_mft_where(b, l);
		size_t k = f->n;
		t = ssd_blk_submit(b, SSD_DDIR_READ, l * B16, B16, t);
		if (w >= 0 && f->n == k + 1)
			CHECK(f->cmd[k].off == (uint64_t)w && f->cmd[k].len == B16);
		else
			CHECK(f->n == k); /* unmapped or gathered */
	}
	ssd_blk_destroy(b);
}

/* Sustained random overwrite of the whole volume, 16 KiB blocks, without
 * TRIM: foreground cleaning, the writers waiting for buffer room. */
TEST(mft_sustained_overwrite_waits_for_the_cleaner)
{
	struct ssd_config c;
	struct t_node *f;
	cfg(&c);
	c.mft_buffer = 2 * MIB;
	c.mft_write = 256 * KIB;
	struct ssd_blk *b = mk(&c, 128 * MIB, &f);
	CHECK(b);
	uint64_t nblk = b->capacity / B16, s = 5;
	int64_t t = 0;
	for (uint64_t l = 0; l < nblk; l++)
		t = ssd_blk_submit(b, SSD_DDIR_WRITE, l * B16, B16, t);
	for (uint64_t i = 0; i < 4 * nblk; i++) {
		/* four writers: the next command starts before this one ends */
		int64_t d = ssd_blk_submit(b, SSD_DDIR_WRITE, (rnd(&s) % nblk) * B16, B16, t);
		CHECK(d >= t);
		if (i % 4 == 3)
			t = d;
		if (i % 512 == 0)
			CHECK(check(b, f));
	}
	CHECK(check(b, f));
	CHECK(stat_of(b, "buffer_waits") > 0 && stat_of(b, "clean_write_bytes") > 0);
	CHECK(stat_of(b, "mft_waf") > 1.5);
	/* idle time cleans ahead, to more free segments */
	double before = stat_of(b, "segments_free");
	CHECK(ssd_blk_idle(b, t + 600 * SSD_S) == 0);
	CHECK(stat_of(b, "segments_free") > before && check(b, f));
	ssd_blk_destroy(b);
}

TEST(mft_trim_unmaps_and_frees_segments_down)
{
	struct ssd_config c;
	struct t_node *f;
	cfg(&c);
	struct ssd_blk *b = mk(&c, 256 * MIB, &f);
	CHECK(b);
	uint64_t seg = (uint64_t)stat_of(b, "segment_bytes"); /* 3 MiB */
	uint64_t bps = seg / B16;
	int64_t t = ssd_blk_submit(b, SSD_DDIR_WRITE, 0, (uint32_t)(3 * seg), 0);
	t = ssd_blk_flush(b, t);
	CHECK(ssd_mft_where(b, 0) == 0 && ssd_mft_where(b, bps) == (int64_t)seg);
	/* trim the second segment's blocks but half a block at each end */
	size_t k = f->n;
	t = ssd_blk_submit(b, SSD_DDIR_TRIM, seg - 8 * KIB, (uint32_t)(seg + B16), t);
	CHECK(ssd_mft_where(b, bps - 1) >= 0 && ssd_mft_where(b, 2 * bps) >= 0);
	CHECK(ssd_mft_where(b, bps) == -1 && ssd_mft_where(b, 2 * bps - 1) == -1);
	/* segment 1 is empty: freed, trimmed on lower */
	CHECK(f->n == k + 1 && f->cmd[k].ddir == SSD_DDIR_TRIM && f->cmd[k].off == seg &&
	      f->cmd[k].len == seg);
	CHECK(stat_of(b, "segments_free") == stat_of(b, "segments_total") - 2);
	/* reading trimmed blocks costs nothing */
	k = f->n;
	int64_t d = ssd_blk_submit(b, SSD_DDIR_READ, seg, (uint32_t)seg, t);
	CHECK(f->n == k && d == t);
	/* a gathered block trimmed leaves the buffer */
	t = ssd_blk_submit(b, SSD_DDIR_WRITE, 0, B16, t);
	t = ssd_blk_submit(b, SSD_DDIR_TRIM, 0, B16, t);
	CHECK(ssd_mft_where(b, 0) == -1 && check(b, f));
	k = f->n;
	t = ssd_blk_flush(b, t);
	for (size_t i = k; i < f->n; i++)
		CHECK(f->cmd[i].off >= data_end(b) || (f->cmd[i].ddir & 0xff) == SSD_DDIR_SYNC);
	CHECK(check(b, f));
	ssd_blk_destroy(b);
}

TEST(mft_map_cache_misses_read_map_pages)
{
	struct ssd_config c;
	struct t_node *f;
	cfg(&c);
	c.mft_map_cache = 4096; /* one page: 1024 blocks, 16 MiB of volume */
	struct ssd_blk *b = mk(&c, 256 * MIB, &f);
	CHECK(b);
	uint64_t dend = data_end(b);
	int64_t t = ssd_blk_submit(b, SSD_DDIR_WRITE, 0, B16, 0);
	t = ssd_blk_submit(b, SSD_DDIR_WRITE, 5 * 1024 * B16, B16, t);
	t = ssd_blk_flush(b, t);
	double mr = stat_of(b, "map_reads");
	CHECK(mr >= 2);
	for (int i = 0; i < 10; i++) {
		uint64_t l = i % 2 ? 5 * 1024 : 0;
		size_t k = f->n;
		int64_t d = ssd_blk_submit(b, SSD_DDIR_READ, l * B16, B16, t);
		/* the map page (past the data area), then the block */
		CHECK(f->n == k + 2 && f->cmd[k].off >= dend && f->cmd[k].len == 4096 &&
		      f->cmd[k].off == dend + (f->cmd[k].off - dend) / 4096 * 4096);
		CHECK(f->cmd[k + 1].off == (uint64_t)ssd_mft_where(b, l));
		/* the block's latency counted after the map page's */
		CHECK(d >= f->cmd[k].done + (f->cmd[k + 1].done - f->cmd[k + 1].t));
		t = d;
	}
	CHECK(stat_of(b, "map_reads") == mr + 10);
	/* the same page twice: one miss */
	size_t k = f->n;
	t = ssd_blk_submit(b, SSD_DDIR_READ, 1 * B16, B16, t);
	t = ssd_blk_submit(b, SSD_DDIR_READ, 0, B16, t);
	CHECK(stat_of(b, "map_reads") == mr + 11 && f->n == k + 2);
	CHECK(check(b, f));
	ssd_blk_destroy(b);
	/* the whole map in RAM: no map reads */
	c.mft_map_cache = 0;
	b = mk(&c, 256 * MIB, &f);
	CHECK(b);
	t = ssd_blk_submit(b, SSD_DDIR_WRITE, 0, B16, 0);
	t = ssd_blk_flush(b, t);
	t = ssd_blk_submit(b, SSD_DDIR_READ, 5 * 1024 * B16, B16, t);
	CHECK(stat_of(b, "map_reads") == 0);
	ssd_blk_destroy(b);
}

/* The same workload twice: the same commands to lower, the same figures. */
TEST(mft_is_deterministic)
{
	struct ssd_config c;
	struct t_node *f[2];
	struct ssd_blk *b[2];
	cfg(&c);
	c.mft_buffer = 1 * MIB;
	c.mft_write = 64 * KIB;
	c.mft_map_cache = 8192;
	for (int k = 0; k < 2; k++) {
		b[k] = mk(&c, 64 * MIB, &f[k]);
		CHECK(b[k]);
		uint64_t s = 1234;
		int64_t t = 0;
		for (int i = 0; i < 8000 && t >= 0; i++)
			t = step(b[k], &s, t, 1);
		CHECK(t >= 0 && check(b[k], f[k]));
	}
	CHECK(f[0]->n == f[1]->n && f[0]->n > 1000);
	for (size_t i = 0; i < f[0]->n; i++) {
		const struct t_cmd *x = &f[0]->cmd[i], *y = &f[1]->cmd[i];
		CHECK(x->ddir == y->ddir && x->off == y->off && x->len == y->len &&
		      x->t == y->t && x->done == y->done);
	}
	struct ssd_blk_stat x, y;
	for (int i = 0; b[0]->ops->stat(b[0], i, &x); i++) {
		CHECK(b[1]->ops->stat(b[1], i, &y));
		CHECK(!strcmp(x.key, y.key) && x.value == y.value);
	}
	ssd_blk_destroy(b[0]);
	ssd_blk_destroy(b[1]);
}

/* Greedy cleaning's write amplification for uniform random overwrite at
 * the default reserve, against the theory: with a share alpha of the
 * data area live, the victim's live share u solves (u - 1) / ln u = alpha
 * and the log writes 1 / (1 - u) per host block (the uniform-traffic
 * limit, where greedy behaves as FIFO cleaning does). */
TEST(mft_greedy_waf_matches_the_theory)
{
	struct ssd_config c;
	struct t_node *f;
	cfg(&c);
	struct ssd_blk *b = mk(&c, 1024 * MIB, &f);
	CHECK(b);
	uint64_t nblk = b->capacity / B16, s = 42;
	int64_t t = 0;
	for (uint64_t l = 0; l < nblk; l++)
		t = ssd_blk_submit(b, SSD_DDIR_WRITE, l * B16, B16, t);
	for (uint64_t i = 0; i < 2 * nblk; i++) /* to the steady state */
		t = ssd_blk_submit(b, SSD_DDIR_WRITE, (rnd(&s) % nblk) * B16, B16, t);
	double h0 = stat_of(b, "host_write_bytes"), l0 = stat_of(b, "log_write_bytes");
	double c0 = stat_of(b, "clean_write_bytes"), m0 = stat_of(b, "map_write_bytes");
	for (uint64_t i = 0; i < 3 * nblk; i++)
		t = ssd_blk_submit(b, SSD_DDIR_WRITE, (rnd(&s) % nblk) * B16, B16, t);
	CHECK(t > 0 && check(b, f));
	double h = stat_of(b, "host_write_bytes") - h0;
	double lw = stat_of(b, "log_write_bytes") - l0;
	double cw = stat_of(b, "clean_write_bytes") - c0;
	double mw = stat_of(b, "map_write_bytes") - m0;
	double alpha = (double)nblk * B16 / (double)data_end(b);
	double lo = 1e-9, hi = 1 - 1e-9;
	for (int i = 0; i < 100; i++) {
		double u = (lo + hi) / 2;
		if ((u - 1) / log(u) < alpha)
			lo = u;
		else
			hi = u;
	}
	double theory = 1 / (1 - lo), clean = (lw + cw) / h, total = (lw + cw + mw) / h;
	if (getenv("MFT_REPORT"))
		fprintf(stderr, "    alpha %.4f theory %.3f clean waf %.3f map %.3f "
			"mft_waf %.3f\n", alpha, theory, clean, mw / h, total);
	CHECKF(clean > 0.85 * theory && clean < 1.15 * theory,
	       "cleaning WAF %.3f, theory %.3f", clean, theory);
	CHECK(total > clean);
	ssd_blk_destroy(b);
}

/* Every allocation of create, made to fail in turn: SSD_ENOMEM, the lower
 * still the caller's (ASan sees no leak). */
TEST(mft_create_out_of_memory_is_enomem)
{
	struct ssd_config c;
	cfg(&c);
	c.mft_map_cache = 8192;
	struct t_node *f = t_node_new(64 * MIB, lower);
	CHECK(f);
	int ok = 0;
	for (long n = 1; n < 100 && !ok; n++) {
		struct ssd_blk *b = NULL;
		t_alloc_fail_at(n);
		int r = ssd_mft_create(&c, &f->blk, &b);
		int hit = t_alloc_failed();
		t_alloc_fail_at(0);
		if (!hit) {
			CHECK(r == 0 && b);
			ok = 1;
			ssd_blk_destroy(b); /* the fake with it */
		} else {
			CHECKF(r == SSD_ENOMEM && !b, "allocation %ld: %d", n, r);
		}
	}
	CHECK(ok);
}

/* The same with 4 KiB blocks and a one-page map cache: map misses and
 * dirty evictions inside flushes and cleaning, invariants after every
 * step. */
TEST(mft_small_blocks_and_map_cache_invariants_hold)
{
	struct ssd_config c;
	struct t_node *f;
	cfg(&c);
	c.mft_block = 4096;
	c.mft_buffer = 256 * KIB;
	c.mft_write = 64 * KIB;
	c.mft_map_cache = 4096;
	c.mft_reserve = 0.05;
	struct ssd_blk *b = mk(&c, 32 * MIB, &f);
	CHECK(b);
	uint64_t s = 2024;
	int64_t t = 0;
	for (int i = 0; i < 15000; i++) {
		t = step(b, &s, t, i % 3000 < 2000);
		CHECKF(t >= 0, "step %d failed", i);
		CHECKF(check(b, f), "after step %d", i);
	}
	CHECK(stat_of(b, "segments_cleaned") > 50 && stat_of(b, "map_reads") > 1000);
	CHECK(stat_of(b, "map_writes") > stat_of(b, "flushes"));
	ssd_blk_destroy(b);
}
