/*
 * pagecache.c -- the host page cache node (pagecache.h states the model).
 *
 * State.  A fixed pool of P pages (struct pc_page); each is on exactly
 * one intrusive list, by state: free, lru (clean), dirty (in dirtying
 * order) or wb (under write-back, in submission order, so by `when`, the
 * time it is clean).  Live pages are in the hash table by lpn; a page
 * dropped while under write-back (PG_DROP) leaves the hash at once and
 * the pool when its write retires.  The write-back commands in flight are
 * a ring of (clean time, cumulative pages submitted), for the throttle's
 * "when are k more pages clean" (a binary search).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "machine/device.h"
#include "machine/pagecache.h"

#define PC_SHIFT 12
#define PC_PAGE (1u << PC_SHIFT)
#define PC_NIL UINT32_MAX
#define PC_RUN 256u     /* pages in one write-back command: 1 MiB */
#define PC_STREAMS 4    /* sequential read streams tracked */

enum { PG_FREE, PG_CLEAN, PG_DIRTY, PG_WB };
#define PG_REDIRTY 1    /* under write-back and written again */
#define PG_DROP 2       /* under write-back, no longer cached */

struct pc_page {
	uint64_t lpn;       /* volume page: bytes [lpn * 4096, + 4096) */
	int64_t ready;      /* its data is in memory from, ns */
	int64_t when;       /* dirty: dirtied at; wb: clean at, ns */
	uint32_t hnext;     /* hash chain */
	uint32_t prev, next; /* its state's list */
	uint8_t state, flags;
};
_Static_assert(sizeof(struct pc_page) <= 40, "page metadata stays small");

struct pc_list {
	uint32_t head, tail, n;
};

struct pc_wbcmd {
	int64_t clean_at;   /* its pages, and all before, clean at, ns */
	uint64_t cum;       /* pages submitted for write-back up to it */
};

struct pc_stream {
	uint64_t next;      /* byte offset where its last read ended */
	uint64_t ra_start, ra_end; /* read-ahead window, pages */
	uint64_t used;      /* LRU stamp; 0 = unused */
	int ra;             /* a window exists */
};

struct pc_stats {
	uint64_t read_hit, read_miss, read_ahead, rmw_read, write, fua_write;
	uint64_t wb_bytes, wb_cmds, throttled, direct, flushes, through;
	int64_t throttle_ns;
};

struct ssd_pcache {
	struct ssd_blk blk;         /* first: the node itself */
	struct ssd_blk *lowerv[1];
	struct pc_page *pg;         /* [npages] */
	uint32_t npages;
	uint64_t cap_pages;         /* volume pages, the last maybe short */
	uint32_t *bucket;           /* [hmask + 1] chain heads */
	uint64_t hmask;
	int hshift;
	struct pc_list free, lru, dirty, wb;
	uint32_t nredirty;          /* wb pages with PG_REDIRTY */
	uint32_t ndrop;             /* wb pages with PG_DROP */
	uint64_t *scratch;          /* [npages] lpns of a write-back batch */
	struct pc_wbcmd *ring;      /* write-back commands in flight */
	size_t ring_cap, ring_head, ring_n;
	uint64_t wb_submitted, wb_retired; /* pages, cumulative */
	int64_t wb_last;            /* latest clean time handed out, ns */
	int64_t clock;              /* background work has run to, ns */
	int64_t next_wake;          /* the flusher's next wake, ns */
	int64_t expire, interval;   /* ns */
	uint32_t bg_thresh, dirty_thresh; /* pages: B and D */
	uint64_t ra_pages;
	uint32_t mbps;
	struct pc_stream st[PC_STREAMS];
	uint64_t st_tick;
	struct pc_stats s;
	int64_t copy_busy;     /* the host's memory copies busy until, ns */
};

static struct ssd_pcache *pc_of(struct ssd_blk *b)
{
	return (struct ssd_pcache *)b;
}

static struct ssd_blk *lower_of(struct ssd_pcache *p)
{
	return p->lowerv[0];
}

static int64_t copy_ns(const struct ssd_pcache *p, uint64_t len)
{
	return (int64_t)((len * 1000 + p->mbps - 1) / p->mbps);
}

/* A copy of len bytes that can start at t: the host's memory moves one
 * copy at a time at page_cache_mbps (several commands in flight share
 * it), so it ends copy_ns after the later of t and the previous copy. */
static int64_t copy_at(struct ssd_pcache *p, int64_t t, uint64_t len)
{
	int64_t s = t > p->copy_busy ? t : p->copy_busy;
	p->copy_busy = s + copy_ns(p, len);
	return p->copy_busy;
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* Bytes of page lpn within the volume: [*lo, *hi). */
static void page_span(const struct ssd_pcache *p, uint64_t lpn, uint64_t *lo,
		      uint64_t *hi)
{
	*lo = lpn << PC_SHIFT;
	*hi = *lo + PC_PAGE;
	if (*hi > p->blk.capacity)
		*hi = p->blk.capacity;
}

/* 1 if [off, end) covers page lpn whole. */
static int covers(const struct ssd_pcache *p, uint64_t lpn, uint64_t off,
		  uint64_t end)
{
	uint64_t lo, hi;
	page_span(p, lpn, &lo, &hi);
	return off <= lo && end >= hi;
}

/* ---- lists and hash ---------------------------------------------------- */

static void list_push(struct ssd_pcache *p, struct pc_list *l, uint32_t i)
{
	p->pg[i].prev = l->tail;
	p->pg[i].next = PC_NIL;
	if (l->tail != PC_NIL)
		p->pg[l->tail].next = i;
	else
		l->head = i;
	l->tail = i;
	l->n++;
}

static void list_push_head(struct ssd_pcache *p, struct pc_list *l,
			   uint32_t i)
{
	p->pg[i].prev = PC_NIL;
	p->pg[i].next = l->head;
	if (l->head != PC_NIL)
		p->pg[l->head].prev = i;
	else
		l->tail = i;
	l->head = i;
	l->n++;
}

static void list_del(struct ssd_pcache *p, struct pc_list *l, uint32_t i)
{
	struct pc_page *g = &p->pg[i];
	if (g->prev != PC_NIL)
		p->pg[g->prev].next = g->next;
	else
		l->head = g->next;
	if (g->next != PC_NIL)
		p->pg[g->next].prev = g->prev;
	else
		l->tail = g->prev;
	l->n--;
}

static struct pc_list *list_of(struct ssd_pcache *p, int state)
{
	switch (state) {
	case PG_CLEAN: return &p->lru;
	case PG_DIRTY: return &p->dirty;
	case PG_WB: return &p->wb;
	default: return &p->free;
	}
}

static uint64_t hslot(const struct ssd_pcache *p, uint64_t lpn)
{
	return (lpn * 0x9E3779B97F4A7C15ull) >> p->hshift & p->hmask;
}

static uint32_t find(const struct ssd_pcache *p, uint64_t lpn)
{
	uint32_t i = p->bucket[hslot(p, lpn)];
	while (i != PC_NIL && p->pg[i].lpn != lpn)
		i = p->pg[i].hnext;
	return i;
}

static void hash_add(struct ssd_pcache *p, uint32_t i)
{
	uint64_t h = hslot(p, p->pg[i].lpn);
	p->pg[i].hnext = p->bucket[h];
	p->bucket[h] = i;
}

static void hash_del(struct ssd_pcache *p, uint32_t i)
{
	uint32_t *at = &p->bucket[hslot(p, p->pg[i].lpn)];
	while (*at != i)
		at = &p->pg[*at].hnext;
	*at = p->pg[i].hnext;
}

/* A page for lpn, cached in `state` (clean or dirty) with the given
 * times: a free one, else the least recently used clean one.  PC_NIL if
 * every page is dirty or under write-back. */
static uint32_t page_take(struct ssd_pcache *p, uint64_t lpn, int state,
			  int64_t ready, int64_t when)
{
	uint32_t i = p->free.head;
	if (i != PC_NIL) {
		list_del(p, &p->free, i);
	} else {
		i = p->lru.head;
		if (i == PC_NIL)
			return PC_NIL;
		list_del(p, &p->lru, i);
		hash_del(p, i);
	}
	struct pc_page *g = &p->pg[i];
	g->lpn = lpn;
	g->ready = ready;
	g->when = when;
	g->state = (uint8_t)state;
	g->flags = 0;
	hash_add(p, i);
	list_push(p, list_of(p, state), i);
	return i;
}

/* Drop live page i from the cache: freed now, or when its write-back
 * retires. */
static void page_drop(struct ssd_pcache *p, uint32_t i)
{
	struct pc_page *g = &p->pg[i];
	hash_del(p, i);
	if (g->state == PG_WB) {
		if (g->flags & PG_REDIRTY)
			p->nredirty--;
		g->flags = PG_DROP;
		p->ndrop++;
		return;
	}
	list_del(p, list_of(p, g->state), i);
	g->state = PG_FREE;
	list_push(p, &p->free, i);
}

/* A dirty page leaves the dirty list for a write-back batch. */
static void dirty_take(struct ssd_pcache *p, uint32_t i, uint32_t *n)
{
	list_del(p, &p->dirty, i);
	p->scratch[(*n)++] = p->pg[i].lpn;
}

/* ---- write-back -------------------------------------------------------- */

/* Pages under write-back clean by time t become clean (or dirty again,
 * or free). */
static void retire(struct ssd_pcache *p, int64_t t)
{
	uint32_t i;
	while ((i = p->wb.head) != PC_NIL && p->pg[i].when <= t) {
		struct pc_page *g = &p->pg[i];
		list_del(p, &p->wb, i);
		p->wb_retired++;
		if (g->flags & PG_DROP) {
			p->ndrop--;
			g->state = PG_FREE;
			list_push(p, &p->free, i);
		} else if (g->flags & PG_REDIRTY) {
			p->nredirty--;
			g->state = PG_DIRTY;  /* aged from now: when stays */
			list_push(p, &p->dirty, i);
		} else {
			g->state = PG_CLEAN;
			list_push(p, &p->lru, i);
		}
		g->flags = 0;
	}
	while (p->ring_n && p->ring[p->ring_head].cum <= p->wb_retired) {
		p->ring_head = (p->ring_head + 1) % p->ring_cap;
		p->ring_n--;
	}
}

/* Room in the ring for n more commands. */
static int ring_reserve(struct ssd_pcache *p, size_t n)
{
	if (p->ring_n + n <= p->ring_cap)
		return 0;
	size_t cap = p->ring_cap ? p->ring_cap : 64;
	while (cap < p->ring_n + n)
		cap *= 2;
	struct pc_wbcmd *r = malloc(cap * sizeof *r);
	if (!r)
		return SSD_ENOMEM;
	for (size_t k = 0; k < p->ring_n; k++)
		r[k] = p->ring[(p->ring_head + k) % p->ring_cap];
	free(p->ring);
	p->ring = r;
	p->ring_cap = cap;
	p->ring_head = 0;
	return 0;
}

static void ring_push(struct ssd_pcache *p, int64_t clean_at, uint64_t cum)
{
	p->ring[(p->ring_head + p->ring_n) % p->ring_cap] =
		(struct pc_wbcmd){clean_at, cum};
	p->ring_n++;
}

/* When k more pages under write-back are clean (ns). */
static int64_t wb_clean_time(const struct ssd_pcache *p, uint64_t k)
{
	uint64_t target = p->wb_retired + k;
	size_t lo = 0, hi = p->ring_n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->ring[(p->ring_head + mid) % p->ring_cap].cum < target)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == p->ring_n)
		return p->wb_last;
	return p->ring[(p->ring_head + lo) % p->ring_cap].clean_at;
}

/* Write lpns[0, n) back at t: sorted, runs of at most PC_RUN contiguous
 * pages, one lower write each.  With `again` the pages are under
 * write-back already (re-dirtied): written, their PG_REDIRTY cleared,
 * they stay where they are; otherwise they are dirty pages off the dirty
 * list and go under write-back.  Returns 0 or the lower node's error (the
 * pages are accounted for all the same). */
static int wb_write(struct ssd_pcache *p, int64_t t, uint64_t *lpns,
		    uint32_t n, int again)
{
	int err = 0;
	if (!n)
		return 0;
	if (!again && ring_reserve(p, n)) {
		/* back on the dirty list, oldest first as they were taken */
		for (uint32_t k = n; k-- > 0;)
			list_push_head(p, &p->dirty, find(p, lpns[k]));
		return SSD_ENOMEM;
	}
	qsort(lpns, n, sizeof *lpns, ssd_cmp_u64);
	for (uint32_t a = 0; a < n;) {
		uint32_t b = a + 1;
		while (b < n && b - a < PC_RUN && lpns[b] == lpns[b - 1] + 1)
			b++;
		uint64_t lo, hi, end;
		page_span(p, lpns[a], &lo, &hi);
		page_span(p, lpns[b - 1], &hi, &end);
		int64_t done = ssd_blk_submit(lower_of(p), SSD_DDIR_WRITE, lo,
					      (uint32_t)(end - lo), t);
		if (done < 0) {
			err = err ? err : (int)done;
			done = t;
		}
		p->s.wb_bytes += end - lo;
		p->s.wb_cmds++;
		if (!again)
			p->wb_last = max64(p->wb_last, done);
		for (uint32_t k = a; k < b; k++) {
			uint32_t i = find(p, lpns[k]);
			struct pc_page *g = &p->pg[i];
			if (again) {
				g->flags &= (uint8_t)~PG_REDIRTY;
				p->nredirty--;
				continue;
			}
			g->state = PG_WB;
			g->flags = 0;
			g->when = p->wb_last;
			list_push(p, &p->wb, i);
		}
		if (!again) {
			p->wb_submitted += b - a;
			ring_push(p, p->wb_last, p->wb_submitted);
		}
		a = b;
	}
	return err;
}

/* Background rule at t: more than B dirty -> the oldest written back
 * until at most B are, at least PC_RUN of them. */
static int bg_pass(struct ssd_pcache *p, int64_t t)
{
	if (p->dirty.n <= p->bg_thresh)
		return 0;
	uint32_t k = p->dirty.n - p->bg_thresh, n = 0;
	if (k < PC_RUN)
		k = p->dirty.n < PC_RUN ? p->dirty.n : PC_RUN;
	while (n < k)
		dirty_take(p, p->dirty.head, &n);
	return wb_write(p, t, p->scratch, n, 0);
}

/* Run the flusher's wakes and the write-back completions up to t. */
static int advance(struct ssd_pcache *p, int64_t t)
{
	int err = 0;
	if (t <= p->clock)
		return 0;
	while (p->next_wake <= t) {
		int64_t w = p->next_wake;
		uint32_t n = 0;
		retire(p, w);
		while (p->dirty.head != PC_NIL &&
		       p->pg[p->dirty.head].when <= w - p->expire)
			dirty_take(p, p->dirty.head, &n);
		int e = wb_write(p, w, p->scratch, n, 0);
		if (!e)
			e = bg_pass(p, w);
		if (e && !err)
			err = e;
		if (e == SSD_ENOMEM)
			return e;
		/* the next wake with work: the oldest dirty page's expiry,
		 * or none before new dirt (calls at t or later) */
		int64_t next = w + p->interval;
		if (p->dirty.head != PC_NIL) {
			int64_t due = p->pg[p->dirty.head].when + p->expire;
			if (due > next)
				next = (due + p->interval - 1) / p->interval *
				       p->interval;
		} else if (!p->nredirty && next <= t) {
			next = (t / p->interval + 1) * p->interval;
		}
		p->next_wake = next;
	}
	retire(p, t);
	p->clock = t;
	return err;
}

/* ---- reads ------------------------------------------------------------- */

/* Read pages [lo, hi) (all missing) from lower at t and cache them clean,
 * ready when the read completes.  Returns that time or an error. */
static int64_t fill(struct ssd_pcache *p, uint64_t lo, uint64_t hi, int64_t t)
{
	uint64_t a, b, c;
	page_span(p, lo, &a, &b);
	page_span(p, hi - 1, &b, &c);
	int64_t done = ssd_blk_submit(lower_of(p), SSD_DDIR_READ, a,
				      (uint32_t)(c - a), t);
	if (done < 0)
		return done;
	for (uint64_t lpn = lo; lpn < hi; lpn++)
		if (find(p, lpn) == PC_NIL)
			page_take(p, lpn, PG_CLEAN, done, 0);
	return done;
}

/* Read ahead the missing pages of [lo, hi) at t, in merged runs. */
static int read_ahead(struct ssd_pcache *p, uint64_t lo, uint64_t hi,
		      int64_t t)
{
	if (hi > p->cap_pages)
		hi = p->cap_pages;
	for (uint64_t lpn = lo; lpn < hi;) {
		if (find(p, lpn) != PC_NIL) {
			lpn++;
			continue;
		}
		uint64_t e = lpn + 1;
		while (e < hi && e - lpn < PC_RUN && find(p, e) == PC_NIL)
			e++;
		int64_t d = fill(p, lpn, e, t);
		if (d < 0)
			return (int)d;
		p->s.read_ahead += (e - lpn) << PC_SHIFT;
		lpn = e;
	}
	return 0;
}

/* The stream a read at off continues, or NULL (a new stream takes the
 * least recently used slot; a read at offset 0 starts one that counts as
 * sequential). */
static struct pc_stream *stream_of(struct ssd_pcache *p, uint64_t off,
				   uint64_t end)
{
	struct pc_stream *s = NULL, *old = &p->st[0];
	for (int k = 0; k < PC_STREAMS; k++) {
		if (p->st[k].used && p->st[k].next == off)
			s = &p->st[k];
		if (p->st[k].used < old->used)
			old = &p->st[k];
	}
	int seq = s != NULL;
	if (!s) {
		s = old;
		s->ra = 0;
		seq = off == 0;
	}
	s->next = end;
	s->used = ++p->st_tick;
	return seq ? s : NULL;
}

static int64_t pc_read(struct ssd_pcache *p, uint64_t off, uint32_t len,
		       int64_t t)
{
	uint64_t end = off + len, first = off >> PC_SHIFT;
	uint64_t last = (end - 1) >> PC_SHIFT, run = UINT64_MAX;
	int64_t done = t;
	for (uint64_t lpn = first; lpn <= last + 1; lpn++) {
		int hit = lpn <= last && find(p, lpn) != PC_NIL;
		if (lpn <= last) {
			uint64_t lo, hi;
			page_span(p, lpn, &lo, &hi);
			uint64_t ov = (hi < end ? hi : end) - (lo > off ? lo : off);
			if (hit)
				p->s.read_hit += ov;
			else
				p->s.read_miss += ov;
		}
		if (!hit && lpn <= last) {
			if (run == UINT64_MAX)
				run = lpn;
			continue;
		}
		if (run != UINT64_MAX) {
			int64_t d = fill(p, run, lpn, t);
			if (d < 0)
				return d;
			done = max64(done, d);
			run = UINT64_MAX;
		}
		/* looked up again: the fill may have evicted it */
		uint32_t i = hit ? find(p, lpn) : PC_NIL;
		if (i != PC_NIL) {
			struct pc_page *g = &p->pg[i];
			done = max64(done, g->ready);
			if (g->state == PG_CLEAN) {
				list_del(p, &p->lru, i);
				list_push(p, &p->lru, i);
			}
		}
	}
	struct pc_stream *s = stream_of(p, off, end);
	if (s && p->ra_pages && (!s->ra || last >= s->ra_start)) {
		uint64_t from = (end + PC_PAGE - 1) >> PC_SHIFT;
		if (s->ra && s->ra_end > from)
			from = s->ra_end;
		s->ra = 1;
		s->ra_start = from;
		s->ra_end = from + p->ra_pages;
		int e = read_ahead(p, from, s->ra_end, t);
		if (e)
			return e;
	}
	return copy_at(p, done, len);
}

/* ---- writes ------------------------------------------------------------ */

/* Write [lo, hi) of the command [off, end) through to lower at t (pages
 * that found no room in the cache). */
static int64_t write_through(struct ssd_pcache *p, uint64_t lo, uint64_t hi,
			     uint64_t off, uint64_t end, int64_t t)
{
	uint64_t a = lo << PC_SHIFT, b = hi << PC_SHIFT;
	if (a < off)
		a = off;
	if (b > end)
		b = end;
	p->s.through += b - a; /* apart from write-back's figures */
	return ssd_blk_submit(lower_of(p), SSD_DDIR_WRITE, a, (uint32_t)(b - a),
			      t);
}

static int64_t pc_write(struct ssd_pcache *p, uint64_t off, uint32_t len,
			int64_t t)
{
	uint64_t end = off + len, first = off >> PC_SHIFT;
	uint64_t last = (end - 1) >> PC_SHIFT, run = UINT64_MAX;
	int64_t wait = t;
	/* read-modify-write of partial end pages not cached */
	int rf = !covers(p, first, off, end) && find(p, first) == PC_NIL;
	int rl = last != first && !covers(p, last, off, end) &&
		 find(p, last) == PC_NIL;
	if (rf && rl && last == first + 1) {
		rf = rl = 0;
		int64_t d = fill(p, first, last + 1, t);
		if (d < 0)
			return d;
		wait = max64(wait, d);
		p->s.rmw_read += 2 * (uint64_t)PC_PAGE;
	}
	for (int k = 0; k < 2; k++) {
		uint64_t lpn = k ? last : first;
		if (!(k ? rl : rf))
			continue;
		int64_t d = fill(p, lpn, lpn + 1, t);
		if (d < 0)
			return d;
		wait = max64(wait, d);
		p->s.rmw_read += PC_PAGE;
	}
	for (uint64_t lpn = first; lpn <= last + 1; lpn++) {
		uint32_t i = PC_NIL;
		if (lpn <= last) {
			i = find(p, lpn);
			if (i == PC_NIL)
				i = page_take(p, lpn, PG_DIRTY, t, t);
			else {
				struct pc_page *g = &p->pg[i];
				wait = max64(wait, g->ready);
				if (g->state == PG_CLEAN) {
					list_del(p, &p->lru, i);
					g->state = PG_DIRTY;
					g->when = t;
					list_push(p, &p->dirty, i);
				} else if (g->state == PG_WB &&
					   !(g->flags & PG_REDIRTY)) {
					g->flags |= PG_REDIRTY;
					p->nredirty++;
				}
			}
			if (i == PC_NIL) {
				if (run == UINT64_MAX)
					run = lpn;
				continue;
			}
		}
		if (run != UINT64_MAX) {
			int64_t d = write_through(p, run, lpn, off, end, t);
			if (d < 0)
				return d;
			wait = max64(wait, d);
			run = UINT64_MAX;
		}
	}
	p->s.write += len;
	int e = bg_pass(p, t);
	if (e)
		return e;
	int64_t done = copy_at(p, wait, len);
	uint64_t nr = (uint64_t)p->dirty.n + p->wb.n;
	if (nr > p->dirty_thresh) {
		int64_t free_at = wb_clean_time(p, nr - p->dirty_thresh);
		if (free_at > done) {
			p->s.throttled++;
			p->s.throttle_ns += free_at - done;
			done = free_at;
		}
	}
	return done;
}

/* Buffered FUA write: through to lower, cached clean where whole. */
static int64_t pc_write_fua(struct ssd_pcache *p, uint64_t off, uint32_t len,
			    int64_t t)
{
	uint64_t end = off + len, first = off >> PC_SHIFT;
	uint64_t last = (end - 1) >> PC_SHIFT;
	int64_t wait = t;
	int64_t done = ssd_blk_submit(lower_of(p), SSD_DDIR_WRITE | SSD_DEV_FUA,
				      off, len, t);
	if (done < 0)
		return done;
	for (uint64_t lpn = first; lpn <= last; lpn++) {
		uint32_t i = find(p, lpn);
		int whole = covers(p, lpn, off, end);
		if (i == PC_NIL) {
			if (whole)
				page_take(p, lpn, PG_CLEAN, t, 0);
			continue;
		}
		struct pc_page *g = &p->pg[i];
		wait = max64(wait, g->ready);
		if (!whole)
			continue;
		if (g->state == PG_DIRTY) {
			list_del(p, &p->dirty, i);
			g->state = PG_CLEAN;
			list_push(p, &p->lru, i);
		} else if (g->state == PG_CLEAN) {
			list_del(p, &p->lru, i);
			list_push(p, &p->lru, i);
		} else if (g->flags & PG_REDIRTY) {
			g->flags &= (uint8_t)~PG_REDIRTY;
			p->nredirty--;
		}
	}
	p->s.write += len;
	p->s.fua_write += len;
	return max64(done, copy_at(p, wait, len));
}

/* ---- direct commands and TRIM ------------------------------------------ */

static int64_t pc_direct(struct ssd_pcache *p, int ddir, uint64_t off,
			 uint32_t len, int64_t t)
{
	int d = ddir & 0xff;
	uint64_t end = off + len, first = off >> PC_SHIFT;
	uint64_t last = (end - 1) >> PC_SHIFT;
	int64_t wait = t;
	uint32_t n = 0;
	for (uint64_t lpn = first; lpn <= last; lpn++) {
		uint32_t i = find(p, lpn);
		if (i == PC_NIL)
			continue;
		struct pc_page *g = &p->pg[i];
		if (g->state == PG_WB)
			wait = max64(wait, g->when);
		if (d == SSD_DDIR_READ) {
			if (g->state == PG_DIRTY)
				dirty_take(p, i, &n);
		} else if (g->state == PG_DIRTY && !covers(p, lpn, off, end)) {
			dirty_take(p, i, &n);   /* written back, then dropped */
		} else {
			page_drop(p, i);
		}
	}
	int e = wb_write(p, t, p->scratch, n, 0);
	if (e)
		return e;
	if (n)
		wait = max64(wait, p->wb_last);
	if (d == SSD_DDIR_WRITE)
		for (uint32_t k = 0; k < n; k++)
			page_drop(p, find(p, p->scratch[k]));
	int64_t done = ssd_blk_submit(lower_of(p), ddir & ~SSD_BLK_DIRECT, off,
				      len, t);
	if (done < 0)
		return done;
	p->s.direct++;
	return max64(done, wait);
}

static int64_t pc_trim(struct ssd_pcache *p, int ddir, uint64_t off,
		       uint32_t len, int64_t t)
{
	uint64_t end = off + len;
	for (uint64_t lpn = off >> PC_SHIFT; lpn <= (end - 1) >> PC_SHIFT; lpn++) {
		uint32_t i = find(p, lpn);
		if (i != PC_NIL && covers(p, lpn, off, end))
			page_drop(p, i);
	}
	return ssd_blk_submit(lower_of(p), ddir & ~SSD_BLK_DIRECT, off, len, t);
}

/* ---- invariants -------------------------------------------------------- */

int ssd_pcache_check(const struct ssd_blk *b)
{
	const struct ssd_pcache *p = (const struct ssd_pcache *)b;
	const struct pc_list *lists[4] = {&p->free, &p->lru, &p->dirty, &p->wb};
	uint64_t seen = 0, live = 0;
	uint32_t redirty = 0, drop = 0;
	for (int s = 0; s < 4; s++) {
		uint32_t n = 0, prev = PC_NIL;
		int64_t when = INT64_MIN;
		for (uint32_t i = lists[s]->head; i != PC_NIL; i = p->pg[i].next) {
			const struct pc_page *g = &p->pg[i];
			if (g->state != s || g->prev != prev || ++n > p->npages)
				return SSD_ESTATE;
			if ((s == PG_DIRTY || s == PG_WB) && g->when < when)
				return SSD_ESTATE;  /* out of time order */
			when = g->when;
			if (s != PG_WB && g->flags)
				return SSD_ESTATE;
			redirty += (g->flags & PG_REDIRTY) != 0;
			drop += (g->flags & PG_DROP) != 0;
			if (s != PG_FREE && !(g->flags & PG_DROP)) {
				live++;
				if (find(p, g->lpn) != i || g->lpn >= p->cap_pages)
					return SSD_ESTATE;
			}
			prev = i;
		}
		if (n != lists[s]->n || prev != lists[s]->tail)
			return SSD_ESTATE;
		seen += n;
	}
	if (seen != p->npages || redirty != p->nredirty || drop != p->ndrop)
		return SSD_ESTATE;
	uint64_t hashed = 0;
	for (uint64_t h = 0; h <= p->hmask; h++)
		for (uint32_t i = p->bucket[h]; i != PC_NIL; i = p->pg[i].hnext)
			if (++hashed > p->npages || hslot(p, p->pg[i].lpn) != h)
				return SSD_ESTATE;
	if (hashed != live || p->wb_submitted - p->wb_retired != p->wb.n)
		return SSD_ESTATE;
	return 0;
}

/* ---- the node's operations --------------------------------------------- */

static int64_t pc_submit(struct ssd_blk *b, int ddir, uint64_t off,
			 uint32_t len, int64_t t)
{
	struct ssd_pcache *p = pc_of(b);
	int d = ddir & 0xff;
	if (!len || off > b->capacity || len > b->capacity - off ||
	    d < 0 || d >= SSD_DDIR_N)
		return SSD_EINVAL;
	if (t < p->clock)
		t = p->clock;
	int e = advance(p, t);
	if (e)
		return e;
	if (d == SSD_DDIR_TRIM)
		return pc_trim(p, ddir, off, len, t);
	if (ddir & SSD_BLK_DIRECT)
		return pc_direct(p, ddir, off, len, t);
	if (d == SSD_DDIR_READ)
		return pc_read(p, off, len, t);
	if (ddir & SSD_DEV_FUA)
		return pc_write_fua(p, off, len, t);
	return pc_write(p, off, len, t);
}

static int64_t pc_flush(struct ssd_blk *b, int64_t t)
{
	struct ssd_pcache *p = pc_of(b);
	if (t < p->clock)
		t = p->clock;
	int e = advance(p, t);
	if (e)
		return e;
	uint32_t n = 0, m;
	while (p->dirty.head != PC_NIL)
		dirty_take(p, p->dirty.head, &n);
	m = n;
	if (p->nredirty)
		for (uint32_t i = p->wb.head; i != PC_NIL; i = p->pg[i].next)
			if (p->pg[i].flags & PG_REDIRTY)
				p->scratch[m++] = p->pg[i].lpn;
	e = wb_write(p, t, p->scratch, n, 0);
	if (!e)
		e = wb_write(p, t, p->scratch + n, m - n, 1);
	if (e)
		return e;
	int64_t done = ssd_blk_flush(lower_of(p), t);
	if (done < 0)
		return done;
	p->s.flushes++;
	return max64(done, p->wb_last);
}

static int pc_idle(struct ssd_blk *b, int64_t until)
{
	struct ssd_pcache *p = pc_of(b);
	int e = advance(p, until);
	if (e)
		return e;
	return ssd_blk_idle(lower_of(p), until > p->clock ? until : p->clock);
}

static int pc_stat(const struct ssd_blk *b, int i, struct ssd_blk_stat *s)
{
	const struct ssd_pcache *p = (const struct ssd_pcache *)b;
	const struct pc_stats *c = &p->s;
	uint64_t reads = c->read_hit + c->read_miss;
	uint64_t live = (uint64_t)p->lru.n + p->dirty.n + p->wb.n - p->ndrop;
	struct ssd_blk_stat rows[] = {
		{"read_hit_bytes", (double)c->read_hit, "bytes"},
		{"read_miss_bytes", (double)c->read_miss, "bytes"},
		{"read_ahead_bytes", (double)c->read_ahead, "bytes"},
		{"rmw_read_bytes", (double)c->rmw_read, "bytes"},
		{"write_bytes", (double)c->write, "bytes"},
		{"write_fua_bytes", (double)c->fua_write, "bytes"},
		{"writeback_bytes", (double)c->wb_bytes, "bytes"},
		{"writeback_cmds", (double)c->wb_cmds, "commands"},
		{"write_through_bytes", (double)c->through, "bytes"},
		{"throttled_writes", (double)c->throttled, "commands"},
		{"throttle_ns", (double)c->throttle_ns, "ns"},
		{"direct_cmds", (double)c->direct, "commands"},
		{"flushes", (double)c->flushes, "commands"},
		{"dirty_bytes", (double)((uint64_t)p->dirty.n << PC_SHIFT), "bytes"},
		{"writeback_now_bytes",
		 (double)((uint64_t)(p->wb.n - p->ndrop) << PC_SHIFT), "bytes"},
		{"cached_bytes", (double)(live << PC_SHIFT), "bytes"},
		{"hit_ratio", reads ? (double)c->read_hit / (double)reads : 0,
		 "fraction"},
	};
	if (i < 0 || i >= (int)(sizeof rows / sizeof rows[0]))
		return 0;
	*s = rows[i];
	return 1;
}

static void pc_destroy(struct ssd_blk *b)
{
	struct ssd_pcache *p = pc_of(b);
	ssd_blk_destroy(lower_of(p));
	free(p->pg);
	free(p->bucket);
	free(p->scratch);
	free(p->ring);
	free(p);
}

static const struct ssd_blk_ops pc_ops = {
	.kind = "page_cache",
	.submit = pc_submit,
	.flush = pc_flush,
	.idle = pc_idle,
	.stat = pc_stat,
	.destroy = pc_destroy,
};

/* The buckets of a cache of np pages: a power of two, at least 16 and
 * at least np. */
static int bucket_bits(uint32_t np)
{
	int bits = 4;
	while ((1ull << bits) < np)
		bits++;
	return bits;
}

uint64_t ssd_pcache_mem(const struct ssd_config *c)
{
	const struct ssd_pcache *p = NULL;
	uint64_t np = c->page_cache / PC_PAGE;
	return sizeof *p + np * (sizeof *p->pg + sizeof *p->scratch) +
	       (1ull << bucket_bits((uint32_t)np)) * sizeof *p->bucket;
}

int ssd_pcache_create(const struct ssd_config *c, struct ssd_blk *lower,
		      struct ssd_blk **out)
{
	if (!c || !lower || !out || c->page_cache < PC_PAGE ||
	    c->page_cache / PC_PAGE >= PC_NIL ||
	    c->page_cache_writeback_interval <= 0 || !c->page_cache_mbps ||
	    c->page_cache_dirty_expire < 0)
		return SSD_EINVAL;
	struct ssd_pcache *p = calloc(1, sizeof *p);
	if (!p)
		return SSD_ENOMEM;
	uint32_t np = (uint32_t)(c->page_cache / PC_PAGE);
	int bits = bucket_bits(np);
	p->npages = np;
	p->hmask = (1ull << bits) - 1;
	p->hshift = 64 - bits;
	p->pg = malloc((size_t)np * sizeof *p->pg);
	p->bucket = malloc(((size_t)p->hmask + 1) * sizeof *p->bucket);
	p->scratch = malloc((size_t)np * sizeof *p->scratch);
	if (!p->pg || !p->bucket || !p->scratch) {
		free(p->pg);
		free(p->bucket);
		free(p->scratch);
		free(p);
		return SSD_ENOMEM;
	}
	memset(p->bucket, 0xff, ((size_t)p->hmask + 1) * sizeof *p->bucket);
	p->free = p->lru = p->dirty = p->wb = (struct pc_list){PC_NIL, PC_NIL, 0};
	for (uint32_t i = 0; i < np; i++) {
		p->pg[i] = (struct pc_page){.state = PG_FREE};
		list_push(p, &p->free, i);
	}
	p->blk.ops = &pc_ops;
	snprintf(p->blk.name, sizeof p->blk.name, "page_cache");
	p->blk.capacity = lower->capacity;
	p->blk.nlower = 1;
	p->lowerv[0] = lower;
	p->blk.lower = p->lowerv;
	p->cap_pages = (lower->capacity + PC_PAGE - 1) >> PC_SHIFT;
	p->expire = c->page_cache_dirty_expire;
	p->interval = c->page_cache_writeback_interval;
	p->next_wake = p->interval;
	p->dirty_thresh = (uint32_t)(c->page_cache_dirty_ratio * np);
	p->bg_thresh = (uint32_t)(c->page_cache_dirty_bg_ratio * np);
	if (p->bg_thresh > p->dirty_thresh)
		p->bg_thresh = p->dirty_thresh;
	p->ra_pages = c->page_cache_read_ahead >> PC_SHIFT;
	p->mbps = c->page_cache_mbps;
	*out = &p->blk;
	return 0;
}
