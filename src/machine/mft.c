/* The MFT node: write buffer, log head, map (with its cache), greedy
 * cleaner.  The model is stated in mft.h. */
#include "machine/mft.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "machine/device.h"

#define NONE UINT32_MAX
#define MAP_PAGE 4096u           /* bytes of one map page */
#define MAP_ENTRIES 1024u        /* 4-byte entries a page */
#define SEG_TARGET (4u << 20)    /* a segment's size before shrinking */
#define SEG_MIN_COUNT 64u        /* segments a drive should hold */
#define SEG_MIN_SPARE 8u         /* ... with this many spare */
#define SEG_LOW 2u               /* foreground cleaning below this many free */
#define SEG_SPARE_REQ (SEG_LOW + 2u) /* fewest spare segments accepted */

enum { SEG_FREE, SEG_OPEN, SEG_FULL, SEG_CLEANING };
enum { CTX_HOST, CTX_CLEAN };
enum { CAUSE_FULL, CAUSE_TIMER, CAUSE_CMD };

#define PG_CACHED 1u
#define PG_DIRTY 2u

/* An in-flight log write of host blocks: its slots free at `done`. */
struct mft_run {
	int64_t done;   /* completion of the run (and of every run before) */
	uint32_t left;  /* its slots not yet claimed by a waiting write */
};

struct mft_ctr {
	uint64_t host_write_bytes, log_write_bytes, log_writes;
	uint64_t clean_read_bytes, clean_write_bytes, segments_cleaned;
	uint64_t map_reads, map_writes, map_write_bytes;
	uint64_t rmw_reads, rmw_read_bytes;
	uint64_t flushes, flush_cause[3], buffer_waits;
	uint64_t buffer_read_bytes, unmapped_read_bytes, segment_trims;
};

struct ssd_mft {
	struct ssd_blk blk;
	struct ssd_blk *lowerv[1];
	/* geometry */
	uint32_t bsize;        /* B, bytes (a power of two) */
	uint32_t bshift;       /* log2(B) */
	uint32_t nlog;         /* logical blocks */
	uint32_t nphys;        /* physical blocks in the data area */
	uint32_t nseg, bps;    /* segments, blocks a segment */
	uint32_t wblocks;      /* blocks of one mft_write */
	uint32_t npages;       /* map pages */
	uint64_t seg_bytes;    /* S */
	uint64_t map_base;     /* map area's offset on lower */
	uint32_t spare;        /* spare segments: nseg - ceil(nlog / bps) */
	uint32_t seg_idle;     /* idle cleaning up to this many free */
	uint32_t nbuf;         /* buffer slots */
	uint32_t mbps;         /* memory copy rate, MB/s */
	int64_t interval;      /* mft_flush_interval, ns */
	/* map */
	uint32_t *map;         /* [nlog] physical block or NONE */
	uint32_t *p2l;         /* [nphys] logical block or NONE (dead) */
	/* segments */
	uint32_t *valid;       /* [nseg] live blocks */
	uint8_t *sstate;       /* [nseg] SEG_* */
	uint32_t *sprev, *snext; /* [nseg] bucket list links (FULL only) */
	uint32_t *bucket;      /* [bps + 1] head of the FULL segments by valid */
	uint32_t minb;         /* no FULL segment has fewer valid blocks */
	uint32_t *freeq;       /* [nseg] ring of free segments, oldest first */
	uint32_t fhead, nfree;
	uint32_t head_seg;     /* OPEN segment of the log head, or NONE */
	uint32_t head_pos;     /* blocks written into it */
	uint32_t run_start;    /* first block of the run not yet issued */
	/* buffer */
	uint32_t *fifo;        /* [fifo_cap] gathered blocks in arrival order
	                          (NONE: dropped by a TRIM) */
	uint32_t fifo_len, fifo_cap;
	uint32_t ngather;      /* live entries of fifo */
	uint32_t *hkey, *hval; /* gathered set: lblk -> fifo index */
	uint32_t hmask;
	uint32_t free_slots;
	struct mft_run *runs;  /* ring of in-flight host runs */
	uint32_t rhead, rlen, rcap;
	int64_t runs_done;     /* the latest run's done */
	int64_t pend_since;    /* oldest pending change, or -1 */
	/* map pages */
	uint32_t cache_cap;    /* cached pages, 0 = the whole map in RAM */
	uint32_t ncached;
	uint8_t *pflags;       /* [npages] PG_* */
	uint32_t *lprev, *lnext; /* [npages] LRU links, lru_head most recent */
	uint32_t lru_head, lru_tail;
	int64_t *pready;       /* [npages] its read completes at (cached) */
	uint32_t *dirty;       /* [npages] dirty pages */
	uint32_t *dpos;        /* [npages] index into dirty */
	uint32_t ndirty;
	/* time */
	int64_t tc;            /* time of the work being done */
	int64_t now;           /* latest call (submit, flush, idle) */
	int64_t lower_last;    /* latest command to lower */
	int64_t busy;          /* latest completion from lower */
	/* the log head's current writer */
	int ctx, ctx_flags;
	int64_t ctx_done;
	int cleaning;
	struct mft_ctr ctr;
	int64_t copy_busy;     /* the host's memory copies busy until, ns */
	int no_trim;           /* the drive below refused TRIM: none sent */
};

static const struct ssd_blk_ops mft_ops;

static struct ssd_mft *M(struct ssd_blk *b)
{
	return (struct ssd_mft *)b;
}

static const struct ssd_mft *MC(const struct ssd_blk *b)
{
	return (const struct ssd_mft *)b;
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static int64_t copy_ns(const struct ssd_mft *m, uint64_t bytes)
{
	return (int64_t)((bytes * 1000 + m->mbps - 1) / m->mbps);
}

/* A copy of `bytes` that can start at t: one copy at a time at the copy
 * rate (commands in flight share the host's memory), so it ends copy_ns
 * after the later of t and the previous copy. */
static int64_t copy_at(struct ssd_mft *m, int64_t t, uint64_t bytes)
{
	int64_t s = t > m->copy_busy ? t : m->copy_busy;
	m->copy_busy = s + copy_ns(m, bytes);
	return m->copy_busy;
}

/* ---- lower ---- */

static struct ssd_blk *low(struct ssd_mft *m)
{
	return m->lowerv[0];
}

/* One command to lower at m->tc (never before the previous one). */
static int64_t low_submit(struct ssd_mft *m, int ddir, uint64_t off,
			  uint64_t len)
{
	int64_t t = max64(m->tc, m->lower_last);
	m->lower_last = t;
	int64_t d = ssd_blk_submit(low(m), ddir, off, (uint32_t)len, t);
	if (d >= 0 && d > m->busy)
		m->busy = d;
	return d;
}

/* ---- map pages: cache and dirty set ---- */

static void lru_unlink(struct ssd_mft *m, uint32_t pg)
{
	uint32_t p = m->lprev[pg], n = m->lnext[pg];
	if (p != NONE)
		m->lnext[p] = n;
	else
		m->lru_head = n;
	if (n != NONE)
		m->lprev[n] = p;
	else
		m->lru_tail = p;
	m->lprev[pg] = m->lnext[pg] = NONE;
}

static void lru_push(struct ssd_mft *m, uint32_t pg)
{
	m->lprev[pg] = NONE;
	m->lnext[pg] = m->lru_head;
	if (m->lru_head != NONE)
		m->lprev[m->lru_head] = pg;
	m->lru_head = pg;
	if (m->lru_tail == NONE)
		m->lru_tail = pg;
}

static void dirty_del(struct ssd_mft *m, uint32_t pg)
{
	uint32_t i = m->dpos[pg], last = m->dirty[--m->ndirty];
	m->dirty[i] = last;
	m->dpos[last] = i;
	m->dpos[pg] = NONE;
	m->pflags[pg] &= (uint8_t)~PG_DIRTY;
}

static void pend_mark(struct ssd_mft *m)
{
	if (m->pend_since < 0)
		m->pend_since = m->tc;
}

/* Touch map page pg (dirty: an entry changes) at m->tc.  Returns the time
 * the page is in RAM, or a negative code from lower. */
static int64_t map_touch(struct ssd_mft *m, uint32_t pg, int dirty)
{
	int64_t ready = m->tc;
	if (m->cache_cap) {
		if (m->pflags[pg] & PG_CACHED) {
			lru_unlink(m, pg);
			lru_push(m, pg);
			ready = max64(ready, m->pready[pg]);
		} else {
			m->ctr.map_reads++;
			int64_t d = low_submit(m, SSD_DDIR_READ,
					       m->map_base + (uint64_t)pg * MAP_PAGE,
					       MAP_PAGE);
			if (d < 0)
				return d;
			m->pready[pg] = d;
			ready = max64(ready, d);
			m->pflags[pg] |= PG_CACHED;
			lru_push(m, pg);
			if (++m->ncached > m->cache_cap) {
				uint32_t v = m->lru_tail; /* != pg: cap >= 1 */
				lru_unlink(m, v);
				m->pflags[v] &= (uint8_t)~PG_CACHED;
				m->ncached--;
				if (m->pflags[v] & PG_DIRTY) {
					dirty_del(m, v);
					m->ctr.map_writes++;
					m->ctr.map_write_bytes += MAP_PAGE;
					d = low_submit(m, SSD_DDIR_WRITE | m->ctx_flags,
						       m->map_base + (uint64_t)v * MAP_PAGE,
						       MAP_PAGE);
					if (d < 0)
						return d;
					m->ctx_done = max64(m->ctx_done, d);
				}
			}
		}
	}
	if (dirty && !(m->pflags[pg] & PG_DIRTY)) {
		m->pflags[pg] |= PG_DIRTY;
		m->dpos[pg] = m->ndirty;
		m->dirty[m->ndirty++] = pg;
		pend_mark(m);
	}
	return ready;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Write every dirty map page in place at m->tc, consecutive pages in one
 * command of at most mft_write bytes.  Returns the last completion. */
static int64_t map_write_dirty(struct ssd_mft *m)
{
	int64_t done = m->tc;
	if (!m->ndirty)
		return done;
	qsort(m->dirty, m->ndirty, sizeof m->dirty[0], cmp_u32);
	uint32_t maxpg = m->wblocks * (m->bsize / MAP_PAGE);
	if (maxpg == 0)
		maxpg = 1;
	for (uint32_t i = 0; i < m->ndirty;) {
		uint32_t j = i + 1;
		while (j < m->ndirty && m->dirty[j] == m->dirty[j - 1] + 1 &&
		       j - i < maxpg)
			j++;
		uint64_t len = (uint64_t)(j - i) * MAP_PAGE;
		int64_t d = low_submit(m, SSD_DDIR_WRITE | m->ctx_flags,
				       m->map_base + (uint64_t)m->dirty[i] * MAP_PAGE,
				       len);
		if (d < 0)
			return d;
		done = max64(done, d);
		m->ctr.map_writes++;
		m->ctr.map_write_bytes += len;
		for (uint32_t k = i; k < j; k++) {
			m->pflags[m->dirty[k]] &= (uint8_t)~PG_DIRTY;
			m->dpos[m->dirty[k]] = NONE;
		}
		i = j;
	}
	m->ndirty = 0;
	return done;
}

/* ---- segments ---- */

static void bucket_ins(struct ssd_mft *m, uint32_t s)
{
	uint32_t v = m->valid[s];
	m->sprev[s] = NONE;
	m->snext[s] = m->bucket[v];
	if (m->bucket[v] != NONE)
		m->sprev[m->bucket[v]] = s;
	m->bucket[v] = s;
	if (v < m->minb)
		m->minb = v;
}

static void bucket_del(struct ssd_mft *m, uint32_t s)
{
	uint32_t p = m->sprev[s], n = m->snext[s];
	if (p != NONE)
		m->snext[p] = n;
	else
		m->bucket[m->valid[s]] = n;
	if (n != NONE)
		m->sprev[n] = p;
	m->sprev[s] = m->snext[s] = NONE;
}

/* Segment s becomes free: queued for reuse, trimmed on lower. */
static int seg_free(struct ssd_mft *m, uint32_t s)
{
	m->sstate[s] = SEG_FREE;
	m->freeq[(m->fhead + m->nfree) % m->nseg] = s;
	m->nfree++;
	if (m->no_trim)
		return 0;
	int64_t d = low_submit(m, SSD_DDIR_TRIM, (uint64_t)s * m->seg_bytes,
			       m->seg_bytes);
	if (d == SSD_EUNSUP) {
		/* a drive without TRIM (a hard disk): the freed segment is
		 * simply rewritten later */
		m->no_trim = 1;
		return 0;
	}
	m->ctr.segment_trims++;
	return d < 0 ? (int)d : 0;
}

/* Physical block p dies. */
static int phys_kill(struct ssd_mft *m, uint32_t p)
{
	uint32_t s = p / m->bps;
	m->p2l[p] = NONE;
	if (m->sstate[s] == SEG_FULL) {
		bucket_del(m, s);
		m->valid[s]--;
		if (m->valid[s] == 0)
			return seg_free(m, s);
		bucket_ins(m, s);
		return 0;
	}
	m->valid[s]--;
	return 0;
}

/* Issue the head's blocks not yet written: one run. */
static int emit_run(struct ssd_mft *m)
{
	uint32_t k = m->head_pos - m->run_start;
	if (k == 0)
		return 0;
	uint64_t off = ((uint64_t)m->head_seg * m->bps + m->run_start) << m->bshift;
	uint64_t len = (uint64_t)k << m->bshift;
	int64_t d = low_submit(m, SSD_DDIR_WRITE | m->ctx_flags, off, len);
	if (d < 0)
		return (int)d;
	m->run_start = m->head_pos;
	m->ctx_done = max64(m->ctx_done, d);
	if (m->ctx == CTX_CLEAN) {
		m->ctr.clean_write_bytes += len;
		return 0;
	}
	m->ctr.log_write_bytes += len;
	m->ctr.log_writes++;
	m->runs_done = max64(m->runs_done, d);
	struct mft_run *r = &m->runs[(m->rhead + m->rlen) % m->rcap];
	m->rlen++;
	r->done = m->runs_done;
	r->left = k;
	return 0;
}

static int clean_one(struct ssd_mft *m, uint32_t v);

/* The greedy victim: a FULL segment with the fewest live blocks, or NONE. */
static uint32_t victim(struct ssd_mft *m)
{
	for (uint32_t v = m->minb; v <= m->bps; v++)
		if (m->bucket[v] != NONE) {
			m->minb = v;
			return m->bucket[v];
		}
	m->minb = m->bps + 1;
	return NONE;
}

static void head_close(struct ssd_mft *m)
{
	uint32_t s = m->head_seg;
	m->head_seg = NONE;
	if (m->valid[s] == 0) {
		/* every block died while the head was in it */
		m->sstate[s] = SEG_FULL;
		seg_free(m, s);
		return;
	}
	m->sstate[s] = SEG_FULL;
	bucket_ins(m, s);
}

/* Clean greedy victims until `target` segments are free (the foreground
 * case; the log head's pending run is empty).  SSD_ENOSPC when no victim
 * frees anything. */
static int clean_until(struct ssd_mft *m, uint32_t target)
{
	int ctx = m->ctx, flags = m->ctx_flags, r = 0;
	m->ctx = CTX_CLEAN;
	m->ctx_flags = 0; /* a FUA flush's cleaning needs no FUA */
	m->cleaning = 1;
	for (uint32_t n = 0; m->nfree < target; n++) {
		uint32_t v = victim(m);
		if (v == NONE || m->valid[v] == m->bps || n > m->nseg) {
			r = SSD_ENOSPC;
			break;
		}
		if ((r = clean_one(m, v)) < 0)
			break;
	}
	if (r == 0)
		r = emit_run(m);
	m->cleaning = 0;
	m->ctx = ctx;
	m->ctx_flags = flags;
	return r;
}

/* Make the log head ready for one more block. */
static int head_ready(struct ssd_mft *m)
{
	if (m->head_seg != NONE && m->head_pos < m->bps)
		return 0;
	if (m->head_seg != NONE)
		head_close(m);
	if (!m->cleaning && m->nfree < SEG_LOW) {
		int r = clean_until(m, SEG_LOW);
		if (r < 0)
			return r;
		if (m->head_seg != NONE && m->head_pos < m->bps)
			return 0;
		if (m->head_seg != NONE)
			head_close(m);
	}
	if (m->nfree == 0)
		return SSD_ENOSPC;
	uint32_t s = m->freeq[m->fhead];
	m->fhead = (m->fhead + 1) % m->nseg;
	m->nfree--;
	m->sstate[s] = SEG_OPEN;
	m->valid[s] = 0;
	m->head_seg = s;
	m->head_pos = m->run_start = 0;
	return 0;
}

/* Append logical block l at the log head: its new physical block, or a
 * negative code.  A run is issued at every mft_write boundary and at the
 * segment's end. */
static int64_t log_append(struct ssd_mft *m, uint32_t l)
{
	int r = head_ready(m);
	if (r < 0)
		return r;
	uint32_t p = m->head_seg * m->bps + m->head_pos;
	m->p2l[p] = l;
	m->valid[m->head_seg]++;
	m->head_pos++;
	if (m->head_pos % m->wblocks == 0 || m->head_pos == m->bps) {
		r = emit_run(m);
		if (r < 0)
			return r;
	}
	return p;
}

/* Copy segment v's live blocks to the log head and free it, at m->tc. */
static int clean_one(struct ssd_mft *m, uint32_t v)
{
	bucket_del(m, v);
	m->sstate[v] = SEG_CLEANING;
	uint32_t base = v * m->bps;
	for (uint32_t i = 0; i < m->bps;) {
		if (m->p2l[base + i] == NONE) {
			i++;
			continue;
		}
		uint32_t j = i + 1;
		while (j < m->bps && m->p2l[base + j] != NONE)
			j++;
		uint64_t len = (uint64_t)(j - i) << m->bshift;
		int64_t d = low_submit(m, SSD_DDIR_READ,
				       (uint64_t)(base + i) << m->bshift, len);
		if (d < 0)
			return (int)d;
		m->ctx_done = max64(m->ctx_done, d);
		m->ctr.clean_read_bytes += len;
		i = j;
	}
	for (uint32_t i = 0; i < m->bps; i++) {
		uint32_t l = m->p2l[base + i];
		if (l == NONE)
			continue;
		int64_t d = map_touch(m, l / MAP_ENTRIES, 1);
		if (d < 0)
			return (int)d;
		m->ctx_done = max64(m->ctx_done, d);
		m->p2l[base + i] = NONE;
		m->valid[v]--;
		int64_t np = log_append(m, l);
		if (np < 0)
			return (int)np;
		m->map[l] = (uint32_t)np;
	}
	m->ctr.segments_cleaned++;
	return seg_free(m, v);
}

/* ---- the buffer ---- */

static uint32_t hslot(const struct ssd_mft *m, uint32_t l)
{
	return (uint32_t)(l * 2654435761u) & m->hmask;
}

/* fifo index of gathered block l, or NONE */
static uint32_t gather_find(const struct ssd_mft *m, uint32_t l)
{
	for (uint32_t i = hslot(m, l);; i = (i + 1) & m->hmask) {
		if (m->hkey[i] == NONE)
			return NONE;
		if (m->hkey[i] == l)
			return m->hval[i];
	}
}

static void hash_set(struct ssd_mft *m, uint32_t l, uint32_t v)
{
	uint32_t i = hslot(m, l);
	while (m->hkey[i] != NONE && m->hkey[i] != l)
		i = (i + 1) & m->hmask;
	m->hkey[i] = l;
	m->hval[i] = v;
}

/* Remove l from the index (linear probing, backward shift). */
static void hash_del(struct ssd_mft *m, uint32_t l)
{
	uint32_t i = hslot(m, l);
	while (m->hkey[i] != l) {
		if (m->hkey[i] == NONE)
			return;
		i = (i + 1) & m->hmask;
	}
	for (uint32_t j = i;;) {
		m->hkey[i] = NONE;
		for (;;) {
			j = (j + 1) & m->hmask;
			if (m->hkey[j] == NONE)
				return;
			uint32_t h = hslot(m, m->hkey[j]);
			/* move j to i unless h lies cyclically in (i, j] */
			if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
				continue;
			break;
		}
		m->hkey[i] = m->hkey[j];
		m->hval[i] = m->hval[j];
		i = j;
	}
}

static void gather_add(struct ssd_mft *m, uint32_t l)
{
	if (m->fifo_len == m->fifo_cap) {
		/* drop the entries TRIM left dead: at least nbuf of them */
		uint32_t n = 0;
		for (uint32_t i = 0; i < m->fifo_len; i++)
			if (m->fifo[i] != NONE) {
				m->fifo[n] = m->fifo[i];
				hash_set(m, m->fifo[n], n);
				n++;
			}
		m->fifo_len = n;
	}
	hash_set(m, l, m->fifo_len);
	m->fifo[m->fifo_len++] = l;
	m->ngather++;
	pend_mark(m);
}

/* Write the gathered blocks to the log and the dirty map pages in place,
 * at m->tc with `flags` (FUA) on every command.  Returns the time all of
 * it is done, or a negative code. */
static int64_t log_flush(struct ssd_mft *m, int flags, int cause)
{
	if (!m->ngather && !m->ndirty) {
		m->fifo_len = 0;
		m->pend_since = -1;
		return m->tc;
	}
	m->ctx = CTX_HOST;
	m->ctx_flags = flags;
	m->ctx_done = m->tc;
	int64_t r = 0;
	for (uint32_t i = 0; i < m->fifo_len; i++) {
		uint32_t l = m->fifo[i];
		if (l == NONE)
			continue;
		hash_del(m, l);
		m->ngather--;
		r = map_touch(m, l / MAP_ENTRIES, 1);
		if (r < 0)
			goto out;
		m->ctx_done = max64(m->ctx_done, r);
		if (m->map[l] != NONE && (r = phys_kill(m, m->map[l])) < 0)
			goto out;
		r = log_append(m, l);
		if (r < 0)
			goto out;
		m->map[l] = (uint32_t)r;
	}
	if ((r = emit_run(m)) < 0)
		goto out;
	r = map_write_dirty(m);
	if (r < 0)
		goto out;
	m->ctx_done = max64(m->ctx_done, r);
	m->ctr.flushes++;
	m->ctr.flush_cause[cause]++;
	r = m->ctx_done;
out:
	if (r < 0) /* the blocks not written are lost with the error */
		memset(m->hkey, 0xff, ((size_t)m->hmask + 1) * sizeof m->hkey[0]);
	m->fifo_len = 0;
	m->ngather = 0;
	m->pend_since = -1;
	m->ctx_flags = 0;
	return r;
}

/* A pending change mft_flush_interval old by time t: flush it at its
 * deadline. */
static int lazy_flush(struct ssd_mft *m, int64_t t)
{
	if (m->pend_since < 0 || m->pend_since + m->interval > t)
		return 0;
	m->tc = max64(max64(m->pend_since + m->interval, m->lower_last), m->now);
	int64_t r = log_flush(m, 0, CAUSE_TIMER);
	return r < 0 ? (int)r : 0;
}

/* In-flight runs done by t give their slots back. */
static void reclaim(struct ssd_mft *m, int64_t t)
{
	while (m->rlen && m->runs[m->rhead].done <= t) {
		m->free_slots += m->runs[m->rhead].left;
		m->rhead = (m->rhead + 1) % m->rcap;
		m->rlen--;
	}
}

/* A slot for a new block at m->tc: the time it is free, or a negative
 * code.  A full buffer is flushed first. */
static int64_t slot_take(struct ssd_mft *m)
{
	reclaim(m, m->tc);
	if (m->free_slots) {
		m->free_slots--;
		return m->tc;
	}
	if (!m->rlen) {
		int64_t r = log_flush(m, 0, CAUSE_FULL);
		if (r < 0)
			return r;
		reclaim(m, m->tc);
		if (m->free_slots) {
			m->free_slots--;
			return m->tc;
		}
		if (!m->rlen)
			return SSD_ESTATE;
	}
	struct mft_run *r = &m->runs[m->rhead];
	int64_t at = r->done;
	if (--r->left == 0) {
		m->rhead = (m->rhead + 1) % m->rcap;
		m->rlen--;
	}
	return at;
}

/* ---- the ops ---- */

static int64_t mft_read(struct ssd_mft *m, uint64_t off, uint32_t len, int64_t t)
{
	uint64_t end = off + len, roff = 0, rlen = 0, copy = 0;
	int64_t tmap = t, done = t;
	uint32_t B = m->bsize;
	for (uint64_t l = off >> m->bshift; (l << m->bshift) < end; l++) {
		uint64_t a = l << m->bshift, e = a + B;
		if (a < off)
			a = off;
		if (e > end)
			e = end;
		if (gather_find(m, (uint32_t)l) != NONE) {
			copy += e - a;
			m->ctr.buffer_read_bytes += e - a;
			continue;
		}
		int64_t r = map_touch(m, (uint32_t)(l / MAP_ENTRIES), 0);
		if (r < 0)
			return r;
		tmap = max64(tmap, r);
		if (m->map[l] == NONE) {
			m->ctr.unmapped_read_bytes += e - a;
			continue;
		}
		uint64_t pa = ((uint64_t)m->map[l] << m->bshift) + (a - (l << m->bshift));
		if (rlen && roff + rlen == pa) {
			rlen += e - a;
			continue;
		}
		if (rlen) {
			r = low_submit(m, SSD_DDIR_READ, roff, rlen);
			if (r < 0)
				return r;
			done = max64(done, r);
		}
		roff = pa;
		rlen = e - a;
	}
	if (rlen) {
		int64_t r = low_submit(m, SSD_DDIR_READ, roff, rlen);
		if (r < 0)
			return r;
		done = max64(done, r);
	}
	return max64(done + (tmap - t), copy ? copy_at(m, t, copy) : t);
}

static int64_t mft_write(struct ssd_mft *m, int flags, uint64_t off,
			 uint32_t len, int64_t t)
{
	uint64_t end = off + len;
	int64_t ready = t;
	int waited = 0;
	m->ctr.host_write_bytes += len;
	for (uint64_t l = off >> m->bshift; (l << m->bshift) < end; l++) {
		uint64_t a = l << m->bshift;
		int full = a >= off && a + m->bsize <= end;
		if (gather_find(m, (uint32_t)l) != NONE)
			continue;
		int64_t ts = slot_take(m);
		if (ts < 0)
			return ts;
		if (ts > t)
			waited = 1;
		ready = max64(ready, ts);
		if (!full) {
			int64_t r = map_touch(m, (uint32_t)(l / MAP_ENTRIES), 0);
			if (r < 0)
				return r;
			ready = max64(ready, r);
			if (m->map[l] != NONE) {
				int64_t d = low_submit(m, SSD_DDIR_READ,
						       (uint64_t)m->map[l] << m->bshift,
						       m->bsize);
				if (d < 0)
					return d;
				m->ctr.rmw_reads++;
				m->ctr.rmw_read_bytes += m->bsize;
				ready = max64(ready, d + (r - t));
			}
		}
		gather_add(m, (uint32_t)l);
	}
	if (waited)
		m->ctr.buffer_waits++;
	int64_t done = copy_at(m, ready, len);
	if (flags & SSD_DEV_FUA) {
		int64_t f = log_flush(m, SSD_DEV_FUA, CAUSE_CMD);
		if (f < 0)
			return f;
		done = max64(done, f);
	}
	return done;
}

static int64_t mft_trim(struct ssd_mft *m, uint64_t off, uint32_t len, int64_t t)
{
	uint64_t first = (off + m->bsize - 1) >> m->bshift;
	uint64_t last = (off + len) >> m->bshift; /* exclusive */
	int64_t done = t;
	for (uint64_t l = first; l < last; l++) {
		uint32_t i = gather_find(m, (uint32_t)l);
		if (i != NONE) {
			hash_del(m, (uint32_t)l);
			m->fifo[i] = NONE;
			m->ngather--;
			m->free_slots++;
		}
		if (m->map[l] == NONE)
			continue;
		int64_t r = map_touch(m, (uint32_t)(l / MAP_ENTRIES), 1);
		if (r < 0)
			return r;
		done = max64(done, r);
		int e = phys_kill(m, m->map[l]);
		if (e < 0)
			return e;
		m->map[l] = NONE;
	}
	if (!m->ngather)
		m->fifo_len = 0;
	return done;
}

static int64_t mft_submit(struct ssd_blk *b, int ddir, uint64_t offset,
			  uint32_t len, int64_t t)
{
	struct ssd_mft *m = M(b);
	int d = ddir & 0xff;
	if (len == 0 || offset > b->capacity || len > b->capacity - offset ||
	    d < 0 || d >= SSD_DDIR_N)
		return SSD_EINVAL;
	int r = lazy_flush(m, t);
	if (r < 0)
		return r;
	m->now = max64(m->now, t);
	m->tc = max64(t, m->lower_last);
	switch (d) {
	case SSD_DDIR_READ:
		return mft_read(m, offset, len, m->tc);
	case SSD_DDIR_WRITE:
		return mft_write(m, ddir & SSD_DEV_FUA, offset, len, m->tc);
	default:
		return mft_trim(m, offset, len, m->tc);
	}
}

static int64_t mft_flush(struct ssd_blk *b, int64_t t)
{
	struct ssd_mft *m = M(b);
	int r = lazy_flush(m, t);
	if (r < 0)
		return r;
	m->now = max64(m->now, t);
	m->tc = max64(t, m->lower_last);
	int64_t f = log_flush(m, 0, CAUSE_CMD);
	if (f < 0)
		return f;
	m->lower_last = max64(m->tc, m->lower_last);
	int64_t lf = ssd_blk_flush(low(m), m->lower_last);
	if (lf < 0)
		return lf;
	return max64(f, lf);
}

static int mft_idle(struct ssd_blk *b, int64_t until)
{
	struct ssd_mft *m = M(b);
	int r = lazy_flush(m, until);
	if (r < 0)
		return r;
	/* idle from the latest call or the end of lower's work, whichever
	 * is later */
	int64_t t = max64(max64(m->busy, m->lower_last), m->now);
	m->ctx = CTX_CLEAN;
	while (m->nfree < m->seg_idle && t < until) {
		uint32_t v = victim(m);
		if (v == NONE || m->valid[v] == m->bps)
			break;
		m->tc = t;
		m->ctx_done = t;
		m->cleaning = 1;
		r = clean_one(m, v);
		if (r == 0)
			r = emit_run(m);
		m->cleaning = 0;
		if (r < 0) {
			m->ctx = CTX_HOST;
			return r;
		}
		int64_t d = map_write_dirty(m);
		if (d < 0) {
			m->ctx = CTX_HOST;
			return (int)d;
		}
		if (m->ndirty == 0 && m->ngather == 0)
			m->pend_since = -1;
		t = max64(max64(m->ctx_done, d), t + 1);
	}
	m->ctx = CTX_HOST;
	return ssd_blk_idle(low(m), max64(until, m->lower_last));
}

/* ---- figures ---- */

static int mft_stat(const struct ssd_blk *b, int i, struct ssd_blk_stat *s)
{
	const struct ssd_mft *m = MC(b);
	const struct mft_ctr *c = &m->ctr;
	double host = (double)c->host_write_bytes;
	double own = (double)(c->log_write_bytes + c->clean_write_bytes +
			      c->map_write_bytes);
	static const char *const B = "bytes", *const N = "commands";
	switch (i) {
	case 0: *s = (struct ssd_blk_stat){"host_write_bytes", host, B}; break;
	case 1: *s = (struct ssd_blk_stat){"log_write_bytes", (double)c->log_write_bytes, B}; break;
	case 2: *s = (struct ssd_blk_stat){"log_writes", (double)c->log_writes, N}; break;
	case 3: *s = (struct ssd_blk_stat){"clean_read_bytes", (double)c->clean_read_bytes, B}; break;
	case 4: *s = (struct ssd_blk_stat){"clean_write_bytes", (double)c->clean_write_bytes, B}; break;
	case 5: *s = (struct ssd_blk_stat){"segments_cleaned", (double)c->segments_cleaned, "segments"}; break;
	case 6: *s = (struct ssd_blk_stat){"map_write_bytes", (double)c->map_write_bytes, B}; break;
	case 7: *s = (struct ssd_blk_stat){"map_writes", (double)c->map_writes, N}; break;
	case 8: *s = (struct ssd_blk_stat){"map_reads", (double)c->map_reads, N}; break;
	case 9: *s = (struct ssd_blk_stat){"rmw_read_bytes", (double)c->rmw_read_bytes, B}; break;
	case 10: *s = (struct ssd_blk_stat){"rmw_reads", (double)c->rmw_reads, N}; break;
	case 11: *s = (struct ssd_blk_stat){"flushes", (double)c->flushes, "flushes"}; break;
	case 12: *s = (struct ssd_blk_stat){"flushes_full", (double)c->flush_cause[CAUSE_FULL], "flushes"}; break;
	case 13: *s = (struct ssd_blk_stat){"flushes_timer", (double)c->flush_cause[CAUSE_TIMER], "flushes"}; break;
	case 14: *s = (struct ssd_blk_stat){"flushes_cmd", (double)c->flush_cause[CAUSE_CMD], "flushes"}; break;
	case 15: *s = (struct ssd_blk_stat){"log_writes_per_flush",
			 c->flushes ? (double)c->log_writes / (double)c->flushes : 0, "commands"}; break;
	case 16: *s = (struct ssd_blk_stat){"buffer_waits", (double)c->buffer_waits, N}; break;
	case 17: *s = (struct ssd_blk_stat){"buffer_read_bytes", (double)c->buffer_read_bytes, B}; break;
	case 18: *s = (struct ssd_blk_stat){"unmapped_read_bytes", (double)c->unmapped_read_bytes, B}; break;
	case 19: *s = (struct ssd_blk_stat){"segment_trims", (double)c->segment_trims, N}; break;
	case 20: *s = (struct ssd_blk_stat){"mft_waf", host > 0 ? own / host : 0, "ratio"}; break;
	case 21: *s = (struct ssd_blk_stat){"segments_free", (double)m->nfree, "segments"}; break;
	case 22: *s = (struct ssd_blk_stat){"segments_total", (double)m->nseg, "segments"}; break;
	case 23: *s = (struct ssd_blk_stat){"segment_bytes", (double)m->seg_bytes, B}; break;
	default: return 0;
	}
	return 1;
}

static void mft_free(struct ssd_mft *m)
{
	free(m->map);
	free(m->p2l);
	free(m->valid);
	free(m->sstate);
	free(m->sprev);
	free(m->snext);
	free(m->bucket);
	free(m->freeq);
	free(m->fifo);
	free(m->hkey);
	free(m->hval);
	free(m->runs);
	free(m->pflags);
	free(m->lprev);
	free(m->lnext);
	free(m->pready);
	free(m->dirty);
	free(m->dpos);
	free(m);
}

static void mft_destroy(struct ssd_blk *b)
{
	struct ssd_mft *m = M(b);
	ssd_blk_destroy(m->lowerv[0]);
	mft_free(m);
}

static const struct ssd_blk_ops mft_ops = {
	.kind = "mft",
	.submit = mft_submit,
	.flush = mft_flush,
	.idle = mft_idle,
	.stat = mft_stat,
	.destroy = mft_destroy,
};

/* ---- creation ---- */

/* Segments of bps blocks in a data area of `blocks`: are there enough? */
static int seg_fits(uint64_t blocks, uint64_t nlog, uint64_t bps, uint32_t want,
		    uint32_t spare)
{
	uint64_t nseg = blocks / bps;
	return nseg >= want && nseg * bps >= nlog + spare * bps;
}

/* MFT's layout over `cap` bytes of drive: blocks, map pages, segment
 * size.  0, or SSD_ERANGE with what does not fit in err (may be NULL). */
static int layout(const struct ssd_config *c, uint64_t cap, uint64_t *nlog_out,
		  uint64_t *npages_out, uint64_t *blocks_out, uint64_t *bps_out,
		  char *err, size_t n)
{
	char a[32], b[32];
	uint32_t B = c->mft_block;
	uint64_t nlog = (uint64_t)((double)cap * (1 - c->mft_reserve)) / B;
	uint64_t npages = (nlog + MAP_ENTRIES - 1) / MAP_ENTRIES;
	if (nlog == 0) {
		ssd_seterr(err, n, "key 'mft_reserve': %g of a %s drive leaves no "
			   "whole mft_block (%s) for the volume", c->mft_reserve,
			   ssd_fmt_bytes(cap, a, sizeof a),
			   ssd_fmt_bytes(B, b, sizeof b));
		return SSD_ERANGE;
	}
	if (nlog >= NONE) {
		ssd_seterr(err, n, "key 'mft_block': a %s volume is more than "
			   "2^32 blocks of %s: raise mft_block",
			   ssd_fmt_bytes(cap, a, sizeof a),
			   ssd_fmt_bytes(B, b, sizeof b));
		return SSD_ERANGE;
	}
	if (npages * MAP_PAGE >= cap) {
		ssd_seterr(err, n, "key 'mft_reserve': MFT's map does not fit "
			   "a %s drive", ssd_fmt_bytes(cap, a, sizeof a));
		return SSD_ERANGE;
	}
	uint64_t map_base = (cap - npages * MAP_PAGE) / MAP_PAGE * MAP_PAGE;
	uint64_t blocks = map_base / B;
	uint64_t wb = c->mft_write / B;
	uint64_t k = (SEG_TARGET + c->mft_write - 1) / c->mft_write, bps = k * wb;
	while (k > 1 && !seg_fits(blocks, nlog, bps, SEG_MIN_COUNT, SEG_MIN_SPARE))
		bps = --k * wb;
	while (bps > 1 && !seg_fits(blocks, nlog, bps, SEG_MIN_COUNT, SEG_MIN_SPARE))
		bps = (bps + 1) / 2;
	if (!seg_fits(blocks, nlog, bps, 1, SEG_SPARE_REQ) || blocks >= NONE) {
		ssd_seterr(err, n, "keys 'mft_reserve' and 'mft_block': %g of a "
			   "%s drive leaves MFT's cleaner fewer than %d spare "
			   "segments of %s: raise mft_reserve or lower mft_block "
			   "and mft_write", c->mft_reserve,
			   ssd_fmt_bytes(cap, a, sizeof a), SEG_SPARE_REQ,
			   ssd_fmt_bytes(bps * B, b, sizeof b));
		return SSD_ERANGE;
	}
	*nlog_out = nlog;
	*npages_out = npages;
	*blocks_out = blocks;
	*bps_out = bps;
	return 0;
}

int ssd_mft_fits(const struct ssd_config *c, uint64_t cap, char *err, size_t n)
{
	uint64_t a, b, d, e;
	return layout(c, cap, &a, &b, &d, &e, err, n);
}

/* The size of the gathered set's index for nbuf buffer slots. */
static uint32_t index_size(uint32_t nbuf)
{
	uint32_t hsize = 1;
	while (hsize < 2 * nbuf)
		hsize <<= 1;
	return hsize;
}

uint64_t ssd_mft_mem(const struct ssd_config *c, uint64_t cap)
{
	const struct ssd_mft *m = NULL;
	uint64_t nlog, npages, blocks, bps;
	if (layout(c, cap, &nlog, &npages, &blocks, &bps, NULL, 0))
		return 0;
	uint64_t nseg = blocks / bps, nbuf = c->mft_buffer / c->mft_block;
	uint64_t hsize = index_size((uint32_t)nbuf);
	return sizeof *m + nlog * sizeof *m->map + nseg * bps * sizeof *m->p2l +
	       nseg * (sizeof *m->valid + sizeof *m->sstate + sizeof *m->sprev +
		       sizeof *m->snext + sizeof *m->freeq) +
	       (bps + 1) * sizeof *m->bucket + 2 * nbuf * sizeof *m->fifo +
	       hsize * (sizeof *m->hkey + sizeof *m->hval) +
	       (nbuf + 1) * sizeof *m->runs +
	       npages * (sizeof *m->pflags + sizeof *m->lprev + sizeof *m->lnext +
			 sizeof *m->pready + sizeof *m->dirty + sizeof *m->dpos);
}

int ssd_mft_create(const struct ssd_config *c, struct ssd_blk *lower,
		   struct ssd_blk **out)
{
	if (!c || !lower || !out || !c->mft_block || !c->mft_write ||
	    c->mft_write % c->mft_block || c->mft_buffer < c->mft_write ||
	    c->mft_reserve <= 0 || c->mft_reserve >= 1 || !c->page_cache_mbps ||
	    c->mft_flush_interval <= 0 || (c->mft_block & (c->mft_block - 1)))
		return SSD_EINVAL;
	uint32_t B = c->mft_block, shift = 0;
	while ((1u << shift) < B)
		shift++;
	uint64_t nlog, npages, blocks, bps;
	if (layout(c, lower->capacity, &nlog, &npages, &blocks, &bps, NULL, 0))
		return SSD_EINVAL;
	uint64_t map_base = (lower->capacity - npages * MAP_PAGE) / MAP_PAGE * MAP_PAGE;
	uint64_t wb = c->mft_write / B;

	struct ssd_mft *m = calloc(1, sizeof *m);
	if (!m)
		return SSD_ENOMEM;
	m->bsize = B;
	m->bshift = shift;
	m->nlog = (uint32_t)nlog;
	m->bps = (uint32_t)bps;
	m->nseg = (uint32_t)(blocks / bps);
	m->nphys = m->nseg * m->bps;
	m->wblocks = (uint32_t)wb;
	m->npages = (uint32_t)npages;
	m->seg_bytes = bps * B;
	m->map_base = map_base;
	m->spare = m->nseg - (uint32_t)((nlog + bps - 1) / bps);
	m->seg_idle = SEG_LOW + (m->spare / 8 > 1 ? m->spare / 8 : 1);
	if (m->seg_idle > m->spare - 1)
		m->seg_idle = m->spare - 1;
	m->nbuf = (uint32_t)(c->mft_buffer / B); /* <= 64 GiB / 4 KiB */
	m->mbps = c->page_cache_mbps;
	m->interval = c->mft_flush_interval;
	m->cache_cap = 0;
	if (c->mft_map_cache) {
		uint64_t cap = c->mft_map_cache / MAP_PAGE;
		m->cache_cap = cap < 1 ? 1 : cap > npages ? (uint32_t)npages : (uint32_t)cap;
	}
	uint32_t hsize = index_size(m->nbuf);
	m->hmask = hsize - 1;
	m->fifo_cap = 2 * m->nbuf;
	m->rcap = m->nbuf + 1;

	m->map = malloc(nlog * sizeof *m->map);
	m->p2l = malloc((size_t)m->nphys * sizeof *m->p2l);
	m->valid = calloc(m->nseg, sizeof *m->valid);
	m->sstate = calloc(m->nseg, 1);
	m->sprev = malloc((size_t)m->nseg * sizeof *m->sprev);
	m->snext = malloc((size_t)m->nseg * sizeof *m->snext);
	m->bucket = malloc(((size_t)bps + 1) * sizeof *m->bucket);
	m->freeq = malloc((size_t)m->nseg * sizeof *m->freeq);
	m->fifo = malloc((size_t)m->fifo_cap * sizeof *m->fifo);
	m->hkey = malloc((size_t)hsize * sizeof *m->hkey);
	m->hval = malloc((size_t)hsize * sizeof *m->hval);
	m->runs = malloc((size_t)m->rcap * sizeof *m->runs);
	m->pflags = calloc(npages, 1);
	m->lprev = malloc(npages * sizeof *m->lprev);
	m->lnext = malloc(npages * sizeof *m->lnext);
	m->pready = calloc(npages, sizeof *m->pready);
	m->dirty = malloc(npages * sizeof *m->dirty);
	m->dpos = malloc(npages * sizeof *m->dpos);
	if (!m->map || !m->p2l || !m->valid || !m->sstate || !m->sprev ||
	    !m->snext || !m->bucket || !m->freeq || !m->fifo || !m->hkey ||
	    !m->hval || !m->runs || !m->pflags || !m->lprev || !m->lnext ||
	    !m->pready || !m->dirty || !m->dpos) {
		mft_free(m);
		return SSD_ENOMEM;
	}
	memset(m->map, 0xff, nlog * sizeof *m->map);
	memset(m->p2l, 0xff, (size_t)m->nphys * sizeof *m->p2l);
	memset(m->sprev, 0xff, (size_t)m->nseg * sizeof *m->sprev);
	memset(m->snext, 0xff, (size_t)m->nseg * sizeof *m->snext);
	memset(m->bucket, 0xff, ((size_t)bps + 1) * sizeof *m->bucket);
	memset(m->hkey, 0xff, (size_t)hsize * sizeof *m->hkey);
	memset(m->lprev, 0xff, npages * sizeof *m->lprev);
	memset(m->lnext, 0xff, npages * sizeof *m->lnext);
	memset(m->dpos, 0xff, npages * sizeof *m->dpos);
	for (uint32_t s = 0; s < m->nseg; s++)
		m->freeq[s] = s;
	m->nfree = m->nseg;
	m->minb = m->bps + 1;
	m->head_seg = NONE;
	m->free_slots = m->nbuf;
	m->pend_since = -1;
	m->lru_head = m->lru_tail = NONE;
	m->blk.ops = &mft_ops;
	snprintf(m->blk.name, sizeof m->blk.name, "mft");
	m->blk.capacity = nlog * B;
	m->blk.nlower = 1;
	m->lowerv[0] = lower;
	m->blk.lower = m->lowerv;
	*out = &m->blk;
	return 0;
}

/* ---- inspection ---- */

int64_t ssd_mft_where(const struct ssd_blk *b, uint64_t lblk)
{
	if (!b || b->ops != &mft_ops)
		return -1;
	const struct ssd_mft *m = MC(b);
	if (lblk >= m->nlog || m->map[lblk] == NONE)
		return -1;
	return (int64_t)((uint64_t)m->map[lblk] << m->bshift);
}

#define FAIL(...)                                               \
	do {                                                    \
		if (err && n)                                   \
			snprintf(err, n, __VA_ARGS__);          \
		r = SSD_ESTATE;                                 \
		goto out;                                       \
	} while (0)

int ssd_mft_check(const struct ssd_blk *b, char *err, size_t n)
{
	if (!b || b->ops != &mft_ops)
		return SSD_EINVAL;
	const struct ssd_mft *m = MC(b);
	int r = 0;
	uint32_t *cnt = calloc(m->nseg, sizeof *cnt);
	if (!cnt)
		return SSD_ENOMEM;
	uint64_t mapped = 0, live = 0;
	for (uint32_t l = 0; l < m->nlog; l++) {
		uint32_t p = m->map[l];
		if (p == NONE)
			continue;
		mapped++;
		if (p >= m->nphys)
			FAIL("logical block %u maps to %u, past the data area (%u)",
			     l, p, m->nphys);
		if (m->p2l[p] != l)
			FAIL("logical block %u maps to %u whose owner is %u", l, p,
			     m->p2l[p]);
		if (m->sstate[p / m->bps] == SEG_FREE)
			FAIL("logical block %u lives in free segment %u", l, p / m->bps);
	}
	for (uint32_t p = 0; p < m->nphys; p++) {
		uint32_t l = m->p2l[p];
		if (l == NONE)
			continue;
		live++;
		if (l >= m->nlog || m->map[l] != p)
			FAIL("physical block %u holds %u, which maps elsewhere", p, l);
		cnt[p / m->bps]++;
	}
	if (mapped != live)
		FAIL("%llu mapped logical blocks, %llu live physical blocks",
		     (unsigned long long)mapped, (unsigned long long)live);
	uint32_t nfree = 0, nopen = 0;
	uint64_t sumv = 0;
	for (uint32_t s = 0; s < m->nseg; s++) {
		if (cnt[s] != m->valid[s])
			FAIL("segment %u: valid %u, %u live blocks", s, m->valid[s], cnt[s]);
		sumv += m->valid[s];
		switch (m->sstate[s]) {
		case SEG_FREE:
			nfree++;
			if (m->valid[s])
				FAIL("free segment %u holds %u live blocks", s, m->valid[s]);
			break;
		case SEG_OPEN:
			nopen++;
			if (s != m->head_seg)
				FAIL("segment %u open but not the log head", s);
			break;
		case SEG_FULL:
			if (m->valid[s] == 0)
				FAIL("full segment %u with no live block is not free", s);
			if (m->valid[s] < m->minb)
				FAIL("segment %u: %u valid below the bucket hint %u", s,
				     m->valid[s], m->minb);
			break;
		default:
			FAIL("segment %u in state %u at rest", s, m->sstate[s]);
		}
	}
	if (sumv != live)
		FAIL("valid counts sum to %llu, %llu live",
		     (unsigned long long)sumv, (unsigned long long)live);
	if (nfree != m->nfree)
		FAIL("%u free segments, the queue holds %u", nfree, m->nfree);
	for (uint32_t i = 0; i < m->nfree; i++) {
		uint32_t s = m->freeq[(m->fhead + i) % m->nseg];
		if (s >= m->nseg || m->sstate[s] != SEG_FREE)
			FAIL("free queue entry %u: segment %u is not free", i, s);
	}
	if (nopen != (m->head_seg != NONE))
		FAIL("%u open segments, head %u", nopen, m->head_seg);
	if (m->head_seg != NONE && (m->head_pos > m->bps || m->run_start != m->head_pos))
		FAIL("log head at %u, run from %u (bps %u)", m->head_pos,
		     m->run_start, m->bps);
	uint32_t inbuckets = 0;
	for (uint32_t v = 0; v <= m->bps; v++)
		for (uint32_t s = m->bucket[v]; s != NONE; s = m->snext[s]) {
			if (s >= m->nseg || m->sstate[s] != SEG_FULL || m->valid[s] != v)
				FAIL("bucket %u holds segment %u (valid %u)", v, s,
				     s < m->nseg ? m->valid[s] : 0);
			if (++inbuckets > m->nseg)
				FAIL("bucket lists loop");
		}
	uint32_t nfull = 0;
	for (uint32_t s = 0; s < m->nseg; s++)
		nfull += m->sstate[s] == SEG_FULL;
	if (nfull != inbuckets)
		FAIL("%u full segments, %u in the buckets", nfull, inbuckets);
	/* buffer */
	uint32_t g = 0;
	for (uint32_t i = 0; i < m->fifo_len; i++) {
		uint32_t l = m->fifo[i];
		if (l == NONE)
			continue;
		g++;
		if (l >= m->nlog || gather_find(m, l) != i)
			FAIL("gathered entry %u (block %u) not indexed", i, l);
	}
	uint32_t keys = 0;
	for (uint32_t i = 0; i <= m->hmask; i++)
		keys += m->hkey[i] != NONE;
	if (g != m->ngather || keys != g)
		FAIL("%u gathered, count %u, index %u", g, m->ngather, keys);
	uint64_t inflight = 0;
	for (uint32_t i = 0; i < m->rlen; i++)
		inflight += m->runs[(m->rhead + i) % m->rcap].left;
	if ((uint64_t)m->free_slots + m->ngather + inflight != m->nbuf)
		FAIL("slots: %u free + %u gathering + %llu in flight != %u",
		     m->free_slots, m->ngather, (unsigned long long)inflight, m->nbuf);
	/* map pages */
	uint32_t nc = 0, nd = 0;
	for (uint32_t p = 0; p < m->npages; p++) {
		nc += !!(m->pflags[p] & PG_CACHED);
		if (m->pflags[p] & PG_DIRTY) {
			nd++;
			if (m->dpos[p] >= m->ndirty || m->dirty[m->dpos[p]] != p)
				FAIL("dirty map page %u not in the dirty list", p);
		}
	}
	if (nd != m->ndirty || nc != m->ncached ||
	    (m->cache_cap && nc > m->cache_cap) || (!m->cache_cap && nc))
		FAIL("map pages: %u cached (count %u, cap %u), %u dirty (list %u)",
		     nc, m->ncached, m->cache_cap, nd, m->ndirty);
	if ((m->ngather || m->ndirty) && m->pend_since < 0)
		FAIL("changes pending with no deadline");
out:
	free(cnt);
	return r;
}
