/*
 * ftl.c -- mapping, write points, garbage collection, TRIM and flush.
 * The model and the block life cycle are described in ftl.h.
 *
 * Hot path: ssd_ftl_write on a full drive = invalidate the old slot (two
 * array writes and the policy's O(1) index update), map the new slot (two
 * array writes), schedule the register load, and every lp_per_page writes
 * a program.  GC work is amortised: one victim per block of host writes.
 */
#include "ftl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ---- free block pool (FIFO per unit, linked through next[]) ---- */

static void free_push(struct ssd_ftl *f, uint32_t blk)
{
	struct ssd_unit *u = &f->unit[ssd_ftl_unit_of(f, blk)];
	f->state[blk] = SSD_BLK_FREE;
	f->next[blk] = SSD_NO_BLOCK;
	if (u->free_tail == SSD_NO_BLOCK)
		u->free_head = blk;
	else
		f->next[u->free_tail] = blk;
	u->free_tail = blk;
	u->nfree++;
}

static uint32_t free_pop(struct ssd_ftl *f, struct ssd_unit *u)
{
	uint32_t blk = u->free_head;
	if (blk == SSD_NO_BLOCK)
		return blk;
	u->free_head = f->next[blk];
	if (u->free_head == SSD_NO_BLOCK)
		u->free_tail = SSD_NO_BLOCK;
	u->nfree--;
	return blk;
}

/* ---- mapping ---- */

static inline void invalidate(struct ssd_ftl *f, uint32_t slot)
{
	uint32_t blk = ssd_udiv(slot, f->div_spb);
	ssd_bit_clear(f->vbits, slot);
	f->valid[blk]--;
	if (f->state[blk] == SSD_BLK_FULL)
		f->gc->invalidated(f, f->gc_state, blk);
}

static void block_full(struct ssd_ftl *f, uint32_t blk)
{
	f->state[blk] = SSD_BLK_FULL;
	f->stamp[blk] = f->ctr.host_write_lp;
	f->gc->full(f, f->gc_state, blk);
}

/* Give write point w of unit `ui` an open block.  Returns 0 or
 * SSD_ENOSPC. */
static int wp_open(struct ssd_ftl *f, uint32_t ui, struct ssd_wp *w)
{
	uint32_t blk = free_pop(f, &f->unit[ui]);
	if (blk == SSD_NO_BLOCK)
		return SSD_ENOSPC;
	f->state[blk] = SSD_BLK_OPEN;
	w->blk = blk;
	w->next = 0;
	w->fill = 0;
	return 0;
}

/* The open page of w just got its last slot: program it.  Returns the
 * program's end or a negative error. */
static inline int64_t wp_program(struct ssd_ftl *f, uint32_t ui,
				 struct ssd_wp *w, int64_t ready)
{
	int64_t end = ssd_flash_program(&f->flash, ui, w->blk, ready);
	if (end < 0)
		return end;
	if (w->next == f->spb) {
		block_full(f, w->blk);
		w->blk = SSD_NO_BLOCK;
	}
	return end;
}

/* ---- garbage collection ---- */

static void check_after_gc(struct ssd_ftl *f)
{
	if (!f->check_every || f->check_failed)
		return;
	if (++f->check_count % f->check_every)
		return;
	if (ssd_ftl_check(f, f->check_msg, sizeof f->check_msg))
		f->check_failed = 1;
}

/* Copies ahead of the cleaning cursor whose map entries are prefetched:
 * each GC copy stores into l2p at a random place, and the cleaner would
 * otherwise wait on those cache misses one after another. */
#define GC_AHEAD 16

/* Make b the victim of unit ui: list its valid slots (a scan of the
 * cached valid bitmap) and prefetch the first map entries. */
static void victim_start(struct ssd_ftl *f, struct ssd_unit *u, uint32_t ui,
			 uint32_t b)
{
	f->state[b] = SSD_BLK_VICTIM;
	u->victim = b;
	u->vpos = u->vcount = 0;
	f->ctr.gc_victims++;
	uint32_t *list = &f->vlist[(size_t)ui * f->spb];
	uint64_t first = (uint64_t)b * f->spb, end = first + f->spb;
	for (uint64_t w = first >> 6; w <= (end - 1) >> 6; w++) {
		uint64_t bits = f->vbits[w];
		if (w == first >> 6)
			bits &= ~0ULL << (first & 63);
		if (w == (end - 1) >> 6 && (end & 63))
			bits &= ~(~0ULL << (end & 63));
		while (bits) {
			list[u->vcount++] = (uint32_t)(w * 64 + (uint64_t)__builtin_ctzll(bits));
			bits &= bits - 1;
		}
	}
	for (uint32_t i = 0; i < 4 * GC_AHEAD && i < u->vcount; i += 16)
		__builtin_prefetch(&f->p2l[list[i]], 0);
	for (uint32_t i = 0; i < GC_AHEAD && i < u->vcount; i++)
		__builtin_prefetch(&f->l2p[f->p2l[list[i]]], 1);
}

/* Clean in unit ui, no earlier than t: pick a victim if none is in
 * progress, copy the valid slots of up to `pages` of its pages (one NAND
 * read each, programs as the GC write point's pages fill), and erase it
 * once nothing valid is left.  Returns the time the last operation ends,
 * or a negative error.
 *
 * This loop is most of the simulator's time on a full drive (several
 * copies per host write), so it keeps geometry and array pointers in
 * locals: stores through the uint32_t maps could otherwise alias the
 * struct's uint32_t fields and force reloads on every copy. */
static int64_t gc_step(struct ssd_ftl *f, uint32_t ui, int64_t t, int bg,
		       uint32_t pages)
{
	struct ssd_unit *u = &f->unit[ui];
	if (u->victim == SSD_NO_BLOCK) {
		uint32_t v = f->gc->pick(f, f->gc_state, ui);
		if (v == SSD_NO_BLOCK)
			return SSD_ENOSPC;
		if (bg && f->valid[v] + f->spp > f->spb) {
			/* Cleaning it would gain less than a page: idle-time
			 * GC stops here rather than burn erase cycles. */
			f->gc->full(f, f->gc_state, v);
			return SSD_ENOSPC;
		}
		victim_start(f, u, ui, v);
	}
	const uint32_t blk = u->victim, spp = f->spp, spb = f->spb;
	const uint32_t *const list = &f->vlist[(size_t)ui * spb];
	const uint32_t count = u->vcount;
	uint32_t *const l2p = f->l2p, *const p2l = f->p2l;
	uint64_t *const vbits = f->vbits;
	struct ssd_wp *w = &u->gc;
	const uint32_t first = blk * spb;
	uint32_t i = u->vpos, moved = 0;
	int64_t last = t;
	if (spp == 1) {
		/* 4 KiB pages: every valid slot is a page of its own (the
		 * common benchmark geometry, so it gets its own loop) */
		uint32_t *const valid = f->valid;
		for (; i < count && pages; i++) {
			uint32_t old = list[i];
			if (i + 4 * GC_AHEAD < count)
				__builtin_prefetch(&p2l[list[i + 4 * GC_AHEAD]], 0);
			if (i + GC_AHEAD < count)
				__builtin_prefetch(&l2p[p2l[list[i + GC_AHEAD]]], 1);
			if (!ssd_bit_test(vbits, old))
				continue;
			int64_t ready = ssd_flash_read(&f->flash, ui, 1, t);
			if (w->blk == SSD_NO_BLOCK) {
				int rc = wp_open(f, ui, w);
				if (rc)
					return rc;
			}
			uint32_t lpn = p2l[old];
			uint32_t slot = w->blk * spb + w->next++;
			ssd_bit_clear(vbits, old);
			ssd_bit_set(vbits, slot);
			p2l[slot] = lpn;
			l2p[lpn] = slot;
			valid[w->blk]++;
			int64_t in = ssd_flash_load(&f->flash, ui, 1, ready);
			int64_t end = wp_program(f, ui, w, in);
			if (end < 0)
				return end;
			moved++;
			last = ready;
			pages--;
		}
	}
	while (i < count && pages) {
		/* the next victim page holding a valid slot */
		while (i < count && !ssd_bit_test(vbits, list[i]))
			i++;
		if (i == count)
			break;
		uint32_t page_end = first + (ssd_udiv(list[i] - first, f->div_spp) + 1) * spp;
		uint32_t n = 0;
		for (uint32_t j = i; j < count && list[j] < page_end; j++)
			n += ssd_bit_test(vbits, list[j]);
		int64_t ready = ssd_flash_read(&f->flash, ui, n, t);
		for (; i < count && list[i] < page_end; i++) {
			uint32_t old = list[i];
			/* two-stage: the victim's reverse-map entries far
			 * ahead, then the map entries they name */
			if (i + 4 * GC_AHEAD < count)
				__builtin_prefetch(&p2l[list[i + 4 * GC_AHEAD]], 0);
			if (i + GC_AHEAD < count)
				__builtin_prefetch(&l2p[p2l[list[i + GC_AHEAD]]], 1);
			if (!ssd_bit_test(vbits, old))
				continue;
			if (w->blk == SSD_NO_BLOCK) {
				int rc = wp_open(f, ui, w);
				if (rc)
					return rc;
				w->ready = 0;
			}
			uint32_t lpn = p2l[old];
			uint32_t slot = w->blk * spb + w->next++;
			ssd_bit_clear(vbits, old);
			ssd_bit_set(vbits, slot);
			p2l[slot] = lpn;
			l2p[lpn] = slot;
			f->valid[w->blk]++;
			if (ready > w->ready)
				w->ready = ready;
			if (++w->fill == spp) {
				w->fill = 0;
				/* a page of copies is complete: move it into
				 * the register and program it */
				int64_t in = ssd_flash_load(&f->flash, ui, spp, w->ready);
				int64_t end = wp_program(f, ui, w, in);
				if (end < 0)
					return end;
				w->ready = 0;
			}
		}
		moved += n;
		last = ready;
		pages--;
	}
	u->vpos = i;
	f->valid[blk] -= moved;
	f->ctr.gc_copy_lp += moved;
	if (bg)
		f->ctr.gc_bg_copy_lp += moved;
	if (f->valid[blk]) {
		if (pages)
			return SSD_ESTATE; /* a valid slot escaped the list */
		return last;
	}
	/* every valid slot has moved: erase and free the victim */
	int64_t end = ssd_flash_erase(&f->flash, ui, blk, t);
	free_push(f, blk);
	u->victim = SSD_NO_BLOCK;
	check_after_gc(f);
	return end;
}

/* Foreground GC: clean unit ui until it has more than gc_fg_blocks free
 * blocks.  Bounded: a unit that cannot gain a block after cleaning every
 * block it has twice is full (user data cannot fit) -> SSD_ENOSPC. */
static int gc_foreground(struct ssd_ftl *f, uint32_t ui, int64_t t)
{
	struct ssd_unit *u = &f->unit[ui];
	uint64_t guard = (uint64_t)f->bpu * (f->ppb + 1) * 2;
	while (u->nfree <= f->fg_blocks) {
		int64_t r = gc_step(f, ui, t, 0, UINT32_MAX);
		if (r < 0)
			return (int)r;
		if (!guard--)
			return SSD_ENOSPC;
	}
	return 0;
}

/* ---- host operations ---- */

int64_t ssd_ftl_write(struct ssd_ftl *f, uint32_t lpn, int64_t t)
{
	uint32_t ui = f->cur_unit;
	struct ssd_wp *w = &f->unit[ui].host;
	if (w->blk == SSD_NO_BLOCK) {
		if (f->unit[ui].nfree <= f->fg_blocks) {
			int rc = gc_foreground(f, ui, t);
			if (rc)
				return rc;
		}
		int rc = wp_open(f, ui, w);
		if (rc)
			return rc;
	}
	uint32_t old = f->l2p[lpn];
	if (old != SSD_UNMAPPED)
		invalidate(f, old);
	else
		f->mapped++;
	uint32_t slot = w->blk * f->spb + w->next++;
	f->l2p[lpn] = slot;
	f->p2l[slot] = lpn;
	ssd_bit_set(f->vbits, slot);
	f->valid[w->blk]++;
	f->ctr.host_write_lp++;
	int64_t done = ssd_flash_load(&f->flash, ui, 1, t);
	w->ready = done;
	if (++w->fill == f->spp) {
		w->fill = 0;
		int64_t end = wp_program(f, ui, w, done);
		if (end < 0)
			return end;
		f->cur_unit = ui + 1 == f->units ? 0 : ui + 1;
	}
	return done;
}

void ssd_ftl_prefetch(const struct ssd_ftl *f, uint32_t lpn, uint32_t n,
		      int stage)
{
	for (uint32_t i = 0; i < n; i++) {
		if (stage == 0) {
			__builtin_prefetch(&f->l2p[lpn + i], 1);
			continue;
		}
		uint32_t slot = f->l2p[lpn + i];
		if (slot == SSD_UNMAPPED)
			continue;
		__builtin_prefetch(&f->vbits[slot >> 6], 1);
		__builtin_prefetch(&f->valid[ssd_udiv(slot, f->div_spb)], 1);
	}
}

int64_t ssd_ftl_read(struct ssd_ftl *f, uint32_t lpn, uint32_t n, int64_t t)
{
	int64_t done = t;
	f->ctr.host_read_lp += n;
	for (uint32_t i = 0; i < n;) {
		uint32_t slot = f->l2p[lpn + i];
		if (slot == SSD_UNMAPPED) {
			f->ctr.host_unmapped_read_lp++;
			i++;
			continue;
		}
		uint32_t blk = ssd_udiv(slot, f->div_spb);
		uint32_t page = ssd_udiv(slot, f->div_spp); /* global page */
		if (!ssd_nand_programmed(&f->flash.nand, blk,
					 page - blk * f->ppb)) {
			i++; /* still in the open page: from the register */
			continue;
		}
		/* later pages of the request in the same NAND page share
		 * one array read */
		uint32_t k = 1;
		while (i + k < n && f->l2p[lpn + i + k] != SSD_UNMAPPED &&
		       ssd_udiv(f->l2p[lpn + i + k], f->div_spp) == page)
			k++;
		int64_t d = ssd_flash_read(&f->flash, ssd_ftl_unit_of(f, blk),
					   k, t);
		if (d > done)
			done = d;
		i += k;
	}
	return done;
}

void ssd_ftl_trim(struct ssd_ftl *f, uint32_t lpn, uint32_t n)
{
	f->ctr.host_trim_lp += n;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t slot = f->l2p[lpn + i];
		if (slot == SSD_UNMAPPED)
			continue;
		invalidate(f, slot);
		f->l2p[lpn + i] = SSD_UNMAPPED;
		f->mapped--;
	}
}

/* Pad the open page of w (if partly filled) and program it.  Host data
 * is already in the register; GC copies wait in the controller until
 * their page is complete, so they move in first. */
static int64_t wp_pad(struct ssd_ftl *f, uint32_t ui, struct ssd_wp *w,
		      int64_t t, int gc)
{
	if (w->blk == SSD_NO_BLOCK || w->fill == 0)
		return t;
	uint32_t filled = w->fill, pad = f->spp - filled;
	int64_t ready = ssd_max64(t, w->ready);
	if (gc)
		ready = ssd_flash_load(&f->flash, ui, filled, ready);
	w->fill = 0;
	w->ready = 0;
	w->next += pad; /* padding slots stay invalid */
	f->ctr.pad_lp += pad;
	return wp_program(f, ui, w, ready);
}

int64_t ssd_ftl_flush(struct ssd_ftl *f, int64_t t)
{
	int64_t done = t;
	f->ctr.flushes++;
	for (uint32_t ui = 0; ui < f->units; ui++) {
		struct ssd_unit *u = &f->unit[ui];
		int64_t a = wp_pad(f, ui, &u->host, t, 0);
		int64_t b = wp_pad(f, ui, &u->gc, t, 1);
		if (a < 0)
			return a;
		if (b < 0)
			return b;
		done = ssd_max64(done, ssd_max64(a, b));
	}
	return done;
}

void ssd_ftl_idle(struct ssd_ftl *f, int64_t from, int64_t until)
{
	for (uint32_t ui = 0; ui < f->units; ui++) {
		struct ssd_unit *u = &f->unit[ui];
		while (u->nfree < f->bg_blocks || u->victim != SSD_NO_BLOCK) {
			int64_t s = ssd_max64(from, ssd_flash_unit_busy(&f->flash, ui));
			if (s >= until)
				break;
			if (gc_step(f, ui, s, 1, 1) < 0)
				break;
		}
	}
}

uint64_t ssd_ftl_free_blocks(const struct ssd_ftl *f)
{
	uint64_t n = 0;
	for (uint32_t ui = 0; ui < f->units; ui++)
		n += f->unit[ui].nfree;
	return n;
}

/* ---- setup ---- */

/* The two maps are the only large arrays and every host write touches
 * them at random: map them with transparent huge pages where the kernel
 * offers them, so those accesses do not also miss the TLB. */
static void *big_alloc(size_t bytes)
{
	void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	madvise(p, bytes, MADV_HUGEPAGE);
#endif
	return p;
}

static void big_free(void *p, size_t bytes)
{
	if (p)
		munmap(p, bytes ? bytes : 1);
}

int ssd_ftl_create(const struct ssd_config *c, uint64_t seed,
		   struct ssd_ftl **out)
{
	struct ssd_ftl *f = calloc(1, sizeof *f);
	if (!f)
		return SSD_ENOMEM;
	f->cfg = *c;
	uint32_t planes = c->planes_per_die;
	uint64_t units = (uint64_t)c->channels * c->dies_per_channel *
			 (c->multiplane ? 1 : planes);
	f->units = (uint32_t)units;
	f->bpu = c->blocks_per_plane;
	f->ppb = c->pages_per_block;
	f->spp = (c->page_size / SSD_LPAGE) * (c->multiplane ? planes : 1);
	f->spb = f->spp * f->ppb;
	f->div_spp = ssd_udiv_init(f->spp);
	f->div_spb = ssd_udiv_init(f->spb);
	f->div_bpu = ssd_udiv_init(f->bpu);
	uint64_t nblocks = units * f->bpu;
	uint64_t nslots = nblocks * f->spb;
	uint64_t nlp = c->capacity / SSD_LPAGE;
	if (nslots >= SSD_UNMAPPED || nlp >= SSD_UNMAPPED) {
		free(f);
		return SSD_EINVAL; /* 32-bit slot numbers: up to 16 TiB */
	}
	f->nblocks = (uint32_t)nblocks;
	f->nlp = (uint32_t)nlp;
	f->fg_blocks = c->gc_fg_blocks;
	f->bg_blocks = c->gc_bg_blocks;
	ssd_rng_seed(&f->rng, seed ^ 0x6763u);
	f->l2p = big_alloc(nlp * sizeof *f->l2p);
	f->p2l = big_alloc(nslots * sizeof *f->p2l);
	f->vbits = calloc((nslots + 63) / 64, sizeof *f->vbits);
	f->vlist = malloc(units * f->spb * sizeof *f->vlist);
	f->valid = calloc(nblocks, sizeof *f->valid);
	f->next = calloc(nblocks, sizeof *f->next);
	f->prev = calloc(nblocks, sizeof *f->prev);
	f->stamp = calloc(nblocks, sizeof *f->stamp);
	f->state = calloc(nblocks, sizeof *f->state);
	f->unit = calloc(units, sizeof *f->unit);
	f->gc = ssd_gc_find(c->gc_policy);
	if (!f->l2p || !f->p2l || !f->vbits || !f->vlist || !f->valid || !f->next || !f->prev ||
	    !f->stamp || !f->state || !f->unit || !f->gc ||
	    ssd_flash_init(&f->flash, c, f->nblocks, &f->ctr)) {
		ssd_ftl_destroy(f);
		return f->gc ? SSD_ENOMEM : SSD_EINVAL;
	}
	memset(f->l2p, 0xff, nlp * sizeof *f->l2p);
	memset(f->p2l, 0xff, nslots * sizeof *f->p2l);
	for (uint32_t ui = 0; ui < f->units; ui++) {
		struct ssd_unit *u = &f->unit[ui];
		u->free_head = u->free_tail = SSD_NO_BLOCK;
		u->host.blk = u->gc.blk = SSD_NO_BLOCK;
		u->victim = SSD_NO_BLOCK;
	}
	for (uint32_t b = 0; b < f->nblocks; b++)
		free_push(f, b);
	if (f->gc->init(f, &f->gc_state)) {
		ssd_ftl_destroy(f);
		return SSD_ENOMEM;
	}
	*out = f;
	return 0;
}

void ssd_ftl_destroy(struct ssd_ftl *f)
{
	if (!f)
		return;
	if (f->gc && f->gc_state)
		f->gc->fini(f->gc_state);
	ssd_flash_free(&f->flash);
	big_free(f->l2p, (size_t)f->nlp * sizeof *f->l2p);
	big_free(f->p2l, (size_t)f->nblocks * f->spb * sizeof *f->p2l);
	free(f->vbits);
	free(f->vlist);
	free(f->valid);
	free(f->next);
	free(f->prev);
	free(f->stamp);
	free(f->state);
	free(f->unit);
	free(f);
}

/* ---- invariant checker ---- */

#define FAIL(...)                                                          \
	do {                                                               \
		snprintf(err, errlen, __VA_ARGS__);                        \
		free(count);                                               \
		return SSD_ESTATE;                                         \
	} while (0)

int ssd_ftl_check(const struct ssd_ftl *f, char *err, size_t errlen)
{
	uint32_t *count = calloc(f->nblocks, sizeof *count);
	if (!count) {
		snprintf(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	uint64_t mapped = 0;
	for (uint32_t lpn = 0; lpn < f->nlp; lpn++) {
		uint32_t s = f->l2p[lpn];
		if (s == SSD_UNMAPPED)
			continue;
		mapped++;
		if (s >= f->nblocks * f->spb || f->p2l[s] != lpn ||
		    !ssd_bit_test(f->vbits, s))
			FAIL("l2p[%u]=%u but p2l does not point back", lpn, s);
	}
	if (mapped != f->mapped)
		FAIL("%llu pages mapped, counter says %llu",
		     (unsigned long long)mapped, (unsigned long long)f->mapped);
	uint64_t valid_sum = 0;
	for (uint32_t b = 0; b < f->nblocks; b++) {
		uint32_t programmed = f->flash.nand.next_page[b] * f->spp;
		for (uint32_t i = 0; i < f->spb; i++) {
			uint32_t s = b * f->spb + i, l = f->p2l[s];
			if (!ssd_bit_test(f->vbits, s))
				continue;
			if (l >= f->nlp || f->l2p[l] != s)
				FAIL("p2l[%u]=%u but l2p does not point back", s, l);
			if (i >= programmed) {
				/* only the open page of a write point may hold
				 * unprogrammed data */
				const struct ssd_unit *u = &f->unit[b / f->bpu];
				const struct ssd_wp *w = u->host.blk == b ? &u->host
					: u->gc.blk == b ? &u->gc : NULL;
				if (!w || i >= w->next || i / f->spp != programmed / f->spp)
					FAIL("slot %u of block %u holds data but its page is not programmed", i, b);
			}
			count[b]++;
		}
		if (count[b] != f->valid[b])
			FAIL("block %u: valid=%u but %u slots are mapped", b,
			     f->valid[b], count[b]);
		valid_sum += count[b];
		switch (f->state[b]) {
		case SSD_BLK_FREE:
			if (count[b] || f->flash.nand.next_page[b])
				FAIL("free block %u is not erased", b);
			break;
		case SSD_BLK_FULL:
			if (f->flash.nand.next_page[b] != f->ppb)
				FAIL("full block %u has %u pages programmed", b,
				     f->flash.nand.next_page[b]);
			break;
		case SSD_BLK_OPEN: {
			const struct ssd_unit *u = &f->unit[b / f->bpu];
			const struct ssd_wp *w = u->host.blk == b ? &u->host
				: u->gc.blk == b ? &u->gc : NULL;
			if (!w || w->next / f->spp != f->flash.nand.next_page[b])
				FAIL("open block %u does not match its write point", b);
			break;
		}
		case SSD_BLK_VICTIM:
			if (f->unit[b / f->bpu].victim != b)
				FAIL("block %u is a victim of no unit", b);
			break;
		default:
			FAIL("block %u has bad state %u", b, f->state[b]);
		}
	}
	if (valid_sum != mapped)
		FAIL("%llu valid slots for %llu mapped pages",
		     (unsigned long long)valid_sum, (unsigned long long)mapped);
	/* free lists: every FREE block exactly once, in its own unit */
	memset(count, 0, f->nblocks * sizeof *count);
	for (uint32_t ui = 0; ui < f->units; ui++) {
		uint32_t n = 0;
		for (uint32_t b = f->unit[ui].free_head; b != SSD_NO_BLOCK;
		     b = f->next[b]) {
			if (b / f->bpu != ui || f->state[b] != SSD_BLK_FREE ||
			    count[b]++ || ++n > f->bpu)
				FAIL("free list of unit %u is corrupt at block %u", ui, b);
		}
		if (n != f->unit[ui].nfree)
			FAIL("unit %u: %u blocks in free list, nfree=%u", ui, n,
			     f->unit[ui].nfree);
	}
	for (uint32_t b = 0; b < f->nblocks; b++)
		if (f->state[b] == SSD_BLK_FREE && !count[b])
			FAIL("free block %u is in no free list", b);
	if (f->gc->check && f->gc->check(f, f->gc_state))
		FAIL("the %s policy's index disagrees with the blocks", f->gc->name);
	free(count);
	return 0;
}

void ssd_ftl_health(const struct ssd_ftl *f, struct ssd_health *h)
{
	memset(h, 0, sizeof *h);
	const struct ssd_nand *n = &f->flash.nand;
	ssd_nand_erase_stats(n, &h->erase_min, &h->erase_mean, &h->erase_max);
	uint32_t span = h->erase_max - h->erase_min + 1;
	h->erase_hist_lo = h->erase_min;
	h->erase_hist_width = (span + SSD_WEAR_BINS - 1) / SSD_WEAR_BINS;
	for (uint32_t b = 0; b < f->nblocks; b++)
		h->erase_hist[(n->erases[b] - h->erase_min) / h->erase_hist_width]++;
	h->percentage_used = 100.0 * h->erase_mean / f->cfg.pe_cycles;
	h->max_wear_pct = 100.0 * h->erase_max / f->cfg.pe_cycles;
	h->available_spare = 100;
	h->host_bytes_written = f->ctr.host_write_lp * SSD_LPAGE;
	h->host_bytes_read = f->ctr.host_read_lp * SSD_LPAGE;
	h->nand_bytes_written = f->ctr.nand_prog_lp * SSD_LPAGE;
}
