/*
 * ftl.c -- mapping, write points, garbage collection, SLC cache, wear,
 * TRIM and flush.  The model and the block life cycle are described in
 * ftl.h.
 *
 * Hot path: ssd_ftl_write on a full drive = invalidate the old slot (a bit
 * and a count, and the policy's O(1) index update), map the new slot (two
 * array writes), schedule the register load, and every lp_per_page writes
 * a program.  GC work is amortised: one victim per block of host writes.
 */
#include "ftl/ftl.h"
#include "ftl/ftl_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Why a victim is being cleaned; decides the counters and its fate. */
enum { VK_GC, VK_FOLD, VK_WL, VK_RETIRE };

/* Copies ahead of the cleaning cursor whose map entries are prefetched:
 * each GC copy stores into l2p at a random place, and the cleaner would
 * otherwise wait on those cache misses one after another. */
#define GC_AHEAD 16

/* Erases in a unit between two static wear-leveling checks (a check is a
 * scan of the unit's blocks). */
#define WL_CHECK_EVERY 16

static inline uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static inline int is_static_slc(const struct ssd_ftl *f, uint32_t blk)
{
	return blk - ssd_ftl_unit_of(f, blk) * f->bpu < f->slc_static;
}

static inline uint32_t blk_slots(const struct ssd_ftl *f, uint32_t blk)
{
	return ssd_flash_slc(&f->flash, blk) ? f->spb_slc : f->spb;
}

/* ---- block pools ---- */

static void free_push(struct ssd_ftl *f, uint32_t blk)
{
	struct ssd_unit *u = &f->unit[ssd_ftl_unit_of(f, blk)];
	f->state[blk] = SSD_BLK_FREE;
	if (is_static_slc(f, blk)) {
		f->next[blk] = u->slc_free_head;
		u->slc_free_head = blk;
		u->nslc_free++;
		return;
	}
	f->next[blk] = SSD_NO_BLOCK;
	if (u->free_tail == SSD_NO_BLOCK)
		u->free_head = blk;
	else
		f->next[u->free_tail] = blk;
	u->free_tail = blk;
	u->nfree++;
}

/* A native free block of u: the first (FIFO), or with dynamic wear
 * leveling the least worn.  The list is short in steady state (about
 * gc_fg_blocks), so the scan is cheap; blocks are opened once per block
 * of writes. */
static uint32_t free_pop(struct ssd_ftl *f, struct ssd_unit *u)
{
	uint32_t best = u->free_head, best_prev = SSD_NO_BLOCK;
	if (best == SSD_NO_BLOCK)
		return best;
	if (f->cfg.wl_dynamic) {
		uint32_t prev = best;
		for (uint32_t b = f->next[best]; b != SSD_NO_BLOCK; b = f->next[b]) {
			if (f->wear[b] < f->wear[best]) {
				best = b;
				best_prev = prev;
			}
			prev = b;
		}
	}
	uint32_t next = f->next[best];
	if (best_prev == SSD_NO_BLOCK)
		u->free_head = next;
	else
		f->next[best_prev] = next;
	if (u->free_tail == best)
		u->free_tail = best_prev;
	u->nfree--;
	return best;
}

static uint32_t slc_free_pop(struct ssd_ftl *f, struct ssd_unit *u)
{
	uint32_t b = u->slc_free_head;
	if (b != SSD_NO_BLOCK) {
		u->slc_free_head = f->next[b];
		u->nslc_free--;
	}
	return b;
}

/* The fold queue: full SLC-mode blocks of a unit, oldest first. */
static void fold_push(struct ssd_ftl *f, struct ssd_unit *u, uint32_t blk)
{
	f->next[blk] = SSD_NO_BLOCK;
	f->prev[blk] = u->fold_tail;
	if (u->fold_tail == SSD_NO_BLOCK)
		u->fold_head = blk;
	else
		f->next[u->fold_tail] = blk;
	u->fold_tail = blk;
}

static void fold_unlink(struct ssd_ftl *f, struct ssd_unit *u, uint32_t b)
{
	uint32_t n = f->next[b], p = f->prev[b];
	if (p == SSD_NO_BLOCK)
		u->fold_head = n;
	else
		f->next[p] = n;
	if (n == SSD_NO_BLOCK)
		u->fold_tail = p;
	else
		f->prev[n] = p;
	if (!f->valid[b])
		u->slc_empty--;
}

static uint32_t fold_pop(struct ssd_ftl *f, struct ssd_unit *u)
{
	uint32_t b = u->fold_head;
	if (b != SSD_NO_BLOCK)
		fold_unlink(f, u, b);
	return b;
}

/* ---- wear and read-only ---- */

/* Spare native blocks left: good ones beyond what the data and the GC
 * reserve need.  The drive is read-only when none is left. */
static int64_t spare_left(const struct ssd_ftl *f)
{
	uint64_t good = (uint64_t)f->nblocks - f->bad -
			(uint64_t)f->units * f->slc_static;
	return (int64_t)good - (int64_t)f->need_blocks;
}

/* Slots unit ui can hold with its GC reserve kept free: its good native
 * blocks less gc_fg_blocks + 2. */
static uint64_t unit_cap(const struct ssd_ftl *f, uint32_t ui)
{
	uint64_t good = f->unit[ui].good_native, reserve = f->fg_blocks + 2;
	return good > reserve ? (good - reserve) * f->spb : 0;
}

/* Spread the user capacity over the units (see "Unit balance" in ftl.h):
 * limit = min(cap, L), with L the smallest level at which the limits add
 * up to the user capacity plus, per unit, half of the mean headroom
 * (cap - fair share) and at least two pages.  Water-filling by
 * bisection: O(units * 32). */
static void unit_limits(struct ssd_ftl *f)
{
	uint64_t sum = 0, hi = 0;
	for (uint32_t ui = 0; ui < f->units; ui++) {
		uint64_t cap = unit_cap(f, ui);
		sum += cap;
		if (cap > hi)
			hi = cap;
	}
	uint64_t head = sum > f->nlp ? (sum - f->nlp) / f->units : 0;
	uint64_t slack = head / 2 > 2 * f->spp ? head / 2 : 2 * f->spp;
	uint64_t target = f->nlp + slack * f->units, lo = 0, top = hi;
	while (lo < top) { /* the smallest L with sum(min(cap, L)) >= target */
		uint64_t mid = lo + (top - lo) / 2, t = 0;
		for (uint32_t ui = 0; ui < f->units; ui++)
			t += min_u64(unit_cap(f, ui), mid);
		if (t >= target)
			top = mid;
		else
			lo = mid + 1;
	}
	for (uint32_t ui = 0; ui < f->units; ui++)
		f->ulimit[ui] = (uint32_t)min_u64(unit_cap(f, ui), lo);
}

/* The drive cannot take more host data: read-only when blocks have worn
 * out (the end of life the spare exists for); with every block good it
 * is a defect of the FTL, reported as such.  Returns the code to pass
 * up. */
static int no_room(struct ssd_ftl *f, uint32_t ui, const char *what)
{
	if (f->bad || f->ctr.prog_fail || f->ctr.erase_fail) {
		f->readonly = 1;
		f->check_due = 1;
		f->ctr.ro_reject++;
		return SSD_EROFS;
	}
	if (!f->err_msg[0])
		snprintf(f->err_msg, sizeof f->err_msg,
			 "%s in unit %u (%u of %u slots valid, %u free blocks)",
			 what, ui, f->uvalid[ui], f->ulimit[ui],
			 f->unit[ui].nfree);
	if (!f->check_failed) {
		snprintf(f->check_msg, sizeof f->check_msg, "%s", f->err_msg);
		f->check_failed = f->check_every != 0;
	}
	return SSD_ESTATE;
}

static void retire(struct ssd_ftl *f, struct ssd_unit *u, uint32_t blk)
{
	f->state[blk] = SSD_BLK_BAD;
	f->bad++;
	if (!is_static_slc(f, blk))
		u->good_native--;
	/* New data goes less to the worn unit; what it holds beyond its new
	 * limit leaves it as the host overwrites it.  If its GC stops making
	 * progress first, that unit has worn out: no_room() turns the drive
	 * read-only. */
	unit_limits(f);
	if (spare_left(f) < 0)
		f->readonly = 1;
	f->check_due = 1;
}

/* A program of a block near its endurance may fail: from 95% of it on,
 * with a chance rising to 1% per page at 100%. */
static inline int program_fails(struct ssd_ftl *f, const struct ssd_wp *wp,
				uint32_t blk)
{
	if (!wp->fragile)
		return 0;
	uint64_t w = f->wear[blk], l = f->limit[blk];
	double p = 0.01 * ((double)w / (double)l - 0.95) / 0.05;
	return ssd_rng_unit(&f->rng) < p;
}

/* ---- map cache ---- */

static void mc_unlink(struct ssd_ftl *f, uint32_t mp)
{
	uint32_t n = f->mc_next[mp], p = f->mc_prev[mp];
	if (p == SSD_NO_BLOCK)
		f->mc_head = n;
	else
		f->mc_next[p] = n;
	if (n == SSD_NO_BLOCK)
		f->mc_tail = p;
	else
		f->mc_prev[n] = p;
}

static void mc_push_head(struct ssd_ftl *f, uint32_t mp)
{
	f->mc_prev[mp] = SSD_NO_BLOCK;
	f->mc_next[mp] = f->mc_head;
	if (f->mc_head != SSD_NO_BLOCK)
		f->mc_prev[f->mc_head] = mp;
	f->mc_head = mp;
	if (f->mc_tail == SSD_NO_BLOCK)
		f->mc_tail = mp;
}

/* The map entry of lpn is used at t (dirty: it changes).  Returns when
 * it is in DRAM: at once on a hit; after a NAND read of its map page on
 * a miss, which may first program an evicted dirty map page. */
static int64_t map_touch(struct ssd_ftl *f, uint32_t lpn, int dirty, int64_t t)
{
	if (!f->mc_cap)
		return t;
	uint32_t mp = lpn / f->mc_epp;
	if (f->mc_state[mp]) {
		if (f->mc_head != mp) {
			mc_unlink(f, mp);
			mc_push_head(f, mp);
		}
		if (dirty)
			f->mc_state[mp] = 2;
		return t;
	}
	if (f->mc_n == f->mc_cap) {
		uint32_t old = f->mc_tail;
		mc_unlink(f, old);
		if (f->mc_state[old] == 2) {
			ssd_flash_program_raw(&f->flash, old % f->units, t);
			f->ctr.map_write++;
		}
		f->mc_state[old] = 0;
		f->mc_n--;
	}
	int64_t ready = ssd_flash_read_raw(&f->flash, mp % f->units, 1, t);
	f->ctr.map_read++;
	mc_push_head(f, mp);
	f->mc_state[mp] = dirty ? 2 : 1;
	f->mc_n++;
	return ready;
}

/* ---- data verification (only with ssd_ftl_verify_on) ---- */

/* A host write of lpn goes into slot: the slot's out-of-band area takes
 * the host's tag of the data. */
static inline void verify_host(struct ssd_ftl *f, uint32_t lpn, uint32_t slot)
{
	f->vgen[slot] = f->vsrc[lpn];
}

/* The data of slot `from` is copied into slot `to` (GC, folding, the
 * rewrite of a failed page): its tag goes with it. */
static inline void verify_copy(struct ssd_ftl *f, uint32_t from, uint32_t to)
{
	f->vgen[to] = f->vgen[from];
}

/* ---- mapping ---- */

static inline void invalidate(struct ssd_ftl *f, uint32_t slot)
{
	uint32_t blk = ssd_udiv(slot, f->div_spb);
	ssd_bit_clear(f->vbits, slot);
	f->valid[blk]--;
	uint32_t ui = ssd_ftl_unit_of(f, blk);
	f->uvalid[ui]--;
	if (f->state[blk] == SSD_BLK_FULL) {
		if (!ssd_flash_slc(&f->flash, blk))
			f->gc->invalidated(&f->gcv, f->gc_state, blk);
		else if (!f->valid[blk])
			f->unit[ui].slc_empty++; /* in the fold queue, empty */
	}
}

static void block_full(struct ssd_ftl *f, uint32_t ui, uint32_t blk)
{
	f->state[blk] = SSD_BLK_FULL;
	f->stamp[blk] = f->ctr.host_write_lp;
	if (ssd_flash_slc(&f->flash, blk)) {
		fold_push(f, &f->unit[ui], blk);
		if (!f->valid[blk])
			f->unit[ui].slc_empty++;
	} else
		f->gc->full(&f->gcv, f->gc_state, blk);
}

/* Give write point w of unit ui an open block: native, or SLC mode.
 * Returns 0 or SSD_ENOSPC. */
static int wp_open(struct ssd_ftl *f, uint32_t ui, struct ssd_wp *w, int slc)
{
	struct ssd_unit *u = &f->unit[ui];
	uint32_t blk = slc && f->slc_static ? slc_free_pop(f, u) : free_pop(f, u);
	if (blk == SSD_NO_BLOCK)
		return SSD_ENOSPC;
	if (!is_static_slc(f, blk) && ssd_flash_set_slc(&f->flash, blk, slc))
		return SSD_ESTATE;
	if (slc)
		u->nslc++;
	f->state[blk] = SSD_BLK_OPEN;
	w->blk = blk;
	w->next = 0;
	w->fill = 0;
	w->ready = 0;
	w->cap = blk_slots(f, blk);
	/* within 5% of its endurance: its programs may fail */
	w->fragile = (uint64_t)f->wear[blk] * 20 >= (uint64_t)f->limit[blk] * 19;
	return 0;
}

static int64_t wp_program(struct ssd_ftl *f, uint32_t ui, struct ssd_wp *w,
			  int64_t ready);
static void erase_pending(struct ssd_ftl *f, uint32_t ui, int64_t t);

/* Put lpn, whose data is in the controller at `ready` (read from slot
 * `src`), into the next slot of w (a GC-style append: the data moves into
 * the register when its page is complete).  Used for GC copies and to
 * rewrite the data of a failed page.  Returns 0 or a negative error. */
static int wp_append(struct ssd_ftl *f, uint32_t ui, struct ssd_wp *w,
		     uint32_t lpn, uint32_t src, int64_t ready, int slc)
{
	if (w->blk == SSD_NO_BLOCK) {
		int rc = wp_open(f, ui, w, slc);
		if (rc)
			return rc;
	}
	uint32_t slot = w->blk * f->spb + w->next++;
	ssd_bit_set(f->vbits, slot);
	f->p2l[slot] = lpn;
	f->l2p[lpn] = slot;
	if (f->vgen)
		verify_copy(f, src, slot);
	f->valid[w->blk]++;
	if (ready > w->ready)
		w->ready = ready;
	if (++w->fill == f->spp) {
		w->fill = 0;
		int64_t in = ssd_flash_load(&f->flash, ui, f->spp, w->ready);
		int64_t end = wp_program(f, ui, w, in);
		if (end < 0)
			return (int)end;
	}
	return 0;
}

/* The page just programmed in w's block failed: retire the block (after
 * its other data has been cleaned) and write the page's data again into
 * a new block; the data is still in the controller.  Each slot is
 * remapped before its old copy is dropped, so when no block is left to
 * take it (the drive is wearing out: the caller turns it read-only) the
 * data stays mapped where it was and nothing is lost. */
static int64_t program_failed(struct ssd_ftl *f, uint32_t ui,
			      struct ssd_wp *w, int64_t ready)
{
	struct ssd_unit *u = &f->unit[ui];
	uint32_t blk = w->blk, slc = ssd_flash_slc(&f->flash, blk);
	uint32_t first = blk * f->spb + w->next - f->spp;
	f->ctr.prog_fail++;
	f->check_due = 1;
	f->state[blk] = SSD_BLK_RETIRE;
	f->next[blk] = u->retire_head;
	u->retire_head = blk;
	w->blk = SSD_NO_BLOCK;
	w->fill = 0;
	w->ready = 0;
	for (uint32_t s = first; s < first + f->spp; s++) {
		if (!ssd_bit_test(f->vbits, s))
			continue;
		uint32_t lpn = f->p2l[s];
		int rc = wp_append(f, ui, w, lpn, s, ready, (int)slc);
		if (f->l2p[lpn] != s) {
			ssd_bit_clear(f->vbits, s);
			f->valid[blk]--;
			f->ctr.gc_copy_lp++;
		}
		if (rc)
			return rc;
	}
	return ready;
}

/* The open page of w is complete and its data is in the register at
 * `ready`: program it.  Returns the program's end or a negative error. */
static int64_t wp_program(struct ssd_ftl *f, uint32_t ui, struct ssd_wp *w,
			  int64_t ready)
{
	uint32_t blk = w->blk;
	int64_t end = ssd_flash_program(&f->flash, ui, blk, ready);
	if (end < 0)
		return end;
	if (program_fails(f, w, blk))
		return program_failed(f, ui, w, end);
	if (w->next == w->cap) {
		block_full(f, ui, blk);
		w->blk = SSD_NO_BLOCK;
	}
	if (w == &f->unit[ui].gc && f->unit[ui].pend_head != SSD_NO_BLOCK)
		erase_pending(f, ui, end);
	return end;
}

/* ---- garbage collection ---- */

static void check_run(struct ssd_ftl *f)
{
	if (!f->check_every || f->check_failed)
		return;
	f->check_runs++;
	if (ssd_ftl_check(f, f->check_msg, sizeof f->check_msg))
		f->check_failed = 1;
}

static void check_after_gc(struct ssd_ftl *f)
{
	if (f->check_every && !(++f->check_count % f->check_every))
		check_run(f);
}

/* A program failure, a retirement or the turn to read-only happened
 * inside the operation now ending: check the maps once they are whole
 * again, at the end of the public call. */
static inline void check_events(struct ssd_ftl *f)
{
	if (f->check_due) {
		f->check_due = 0;
		check_run(f);
	}
}

int ssd_ftl_audit(struct ssd_ftl *f)
{
	check_run(f);
	return f->check_failed ? SSD_ESTATE : 0;
}

/* Static wear leveling: every WL_CHECK_EVERY erases of a unit, find its
 * least- and most-worn good blocks; if the spread passes wl_threshold
 * cycles, the least-worn full native block (cold data) is the next
 * victim, so its block re-enters circulation. */
static void wl_check(struct ssd_ftl *f, uint32_t ui)
{
	struct ssd_unit *u = &f->unit[ui];
	if (!f->cfg.wl_static || ++u->erases % WL_CHECK_EVERY ||
	    u->wl_victim != SSD_NO_BLOCK)
		return;
	uint32_t lo = SSD_NO_BLOCK, hi = 0;
	for (uint32_t b = ui * f->bpu; b < (ui + 1) * f->bpu; b++) {
		if (f->state[b] == SSD_BLK_BAD)
			continue;
		if (f->wear[b] > hi)
			hi = f->wear[b];
		if (f->state[b] == SSD_BLK_FULL && !ssd_flash_slc(&f->flash, b) &&
		    (lo == SSD_NO_BLOCK || f->wear[b] < f->wear[lo]))
			lo = b;
	}
	if (lo != SSD_NO_BLOCK &&
	    hi - f->wear[lo] > 1000ull * f->cfg.wl_threshold)
		u->wl_victim = lo;
}

/* Erase a cleaned victim: back to its pool, or retired if the erase
 * fails (the block reached its endurance). */
static int64_t erase_block(struct ssd_ftl *f, uint32_t ui, uint32_t blk,
			   int64_t t)
{
	struct ssd_unit *u = &f->unit[ui];
	uint32_t w = ssd_flash_slc(&f->flash, blk) ? f->slc_wear : 1000;
	int64_t end = ssd_flash_erase(&f->flash, ui, blk, t);
	if (ssd_flash_slc(&f->flash, blk))
		u->nslc--;
	if ((uint64_t)f->wear[blk] + w > f->limit[blk]) {
		f->ctr.erase_fail++;
		retire(f, u, blk);
		return end;
	}
	f->wear[blk] += w;
	if (!is_static_slc(f, blk))
		ssd_flash_set_slc(&f->flash, blk, 0);
	free_push(f, blk);
	wl_check(f, ui);
	return end;
}

/* Victims whose last copies wait in the GC write point's open page are
 * erased once that page is programmed (at t): until then the victim is
 * the only durable copy of that data, so a flush never has to pad the
 * GC page. */
static void erase_pending(struct ssd_ftl *f, uint32_t ui, int64_t t)
{
	struct ssd_unit *u = &f->unit[ui];
	while (u->pend_head != SSD_NO_BLOCK) {
		uint32_t b = u->pend_head;
		u->pend_head = f->next[b];
		erase_block(f, ui, b, t);
	}
}

/* Make b the victim of unit ui: list its valid slots (a scan of the
 * cached valid bitmap) and prefetch the first map entries. */
static void victim_start(struct ssd_ftl *f, struct ssd_unit *u, uint32_t ui,
			 uint32_t b, int kind)
{
	if (f->state[b] != SSD_BLK_RETIRE)
		f->state[b] = SSD_BLK_VICTIM;
	u->victim = b;
	u->vkind = kind;
	u->vpos = u->vcount = 0;
	u->vcopy_open = 0;
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

/* Choose the next victim of unit ui.  `fold_ok`: an SLC block may be
 * folded (cleaning is needed, or it is idle time).  Returns 0, or
 * SSD_ENOSPC when there is nothing worth cleaning (bg: nothing that would
 * gain a page). */
static int victim_pick(struct ssd_ftl *f, uint32_t ui, int bg)
{
	struct ssd_unit *u = &f->unit[ui];
	uint32_t v = u->retire_head;
	if (v != SSD_NO_BLOCK) {
		u->retire_head = f->next[v];
		victim_start(f, u, ui, v, VK_RETIRE);
		return 0;
	}
	v = u->wl_victim;
	if (v != SSD_NO_BLOCK) {
		u->wl_victim = SSD_NO_BLOCK;
		if (f->state[v] == SSD_BLK_FULL && !ssd_flash_slc(&f->flash, v)) {
			f->gc->remove(&f->gcv, f->gc_state, v);
			victim_start(f, u, ui, v, VK_WL);
			return 0;
		}
	}
	/* Folding frees a native block only if the SLC block goes back to
	 * the native pool (dynamic cache); a static cache block goes back to
	 * the cache while its data takes native pages.  So foreground
	 * cleaning, which needs native blocks, leaves static folding to idle
	 * time, and idle time folds a static block only while the unit has
	 * native free blocks to spare (else it cleans native blocks first). */
	int fold = !f->slc_static || (bg && u->nfree > f->fg_blocks + 1);
	v = fold ? fold_pop(f, u) : SSD_NO_BLOCK;
	if (v != SSD_NO_BLOCK) {
		victim_start(f, u, ui, v, VK_FOLD);
		return 0;
	}
	v = f->gc->pick(&f->gcv, f->gc_state, ui);
	if (v == SSD_NO_BLOCK)
		return SSD_ENOSPC;
	if (bg && f->valid[v] + f->spp > f->spb) {
		/* Cleaning it would gain less than a page: idle-time GC stops
		 * here rather than burn erase cycles. */
		f->gc->full(&f->gcv, f->gc_state, v);
		return SSD_ENOSPC;
	}
	victim_start(f, u, ui, v, VK_GC);
	return 0;
}

/* Clean in unit ui, no earlier than t: pick a victim if none is in
 * progress, copy the valid slots of up to `pages` of its pages (one NAND
 * read each, programs as the GC write point's pages fill), and erase it
 * (or retire it) once nothing valid is left.  Returns the time the last
 * operation ends, or a negative error.
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
		int rc = victim_pick(f, ui, bg);
		if (rc)
			return rc;
	}
	const uint32_t blk = u->victim, spp = f->spp, spb = f->spb;
	const uint32_t *const list = &f->vlist[(size_t)ui * spb];
	const uint32_t count = u->vcount;
	uint32_t *const l2p = f->l2p, *const p2l = f->p2l;
	uint64_t *const vbits = f->vbits;
	uint32_t *const vgen = f->vgen; /* NULL unless a job verifies */
	struct ssd_wp *w = &u->gc;
	const uint32_t first = blk * spb;
	uint32_t i = u->vpos, moved = 0;
	int64_t last = t;
	int rc = 0;
	if (spp == 1 && !f->mc_cap) {
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
			if (w->blk == SSD_NO_BLOCK && (rc = wp_open(f, ui, w, 0)))
				break;
			int64_t ready = ssd_flash_read(&f->flash, ui, blk,
						       old / spp, 1, t);
			uint32_t lpn = p2l[old];
			uint32_t slot = w->blk * spb + w->next++;
			ssd_bit_clear(vbits, old);
			ssd_bit_set(vbits, slot);
			p2l[slot] = lpn;
			l2p[lpn] = slot;
			if (vgen)
				vgen[slot] = vgen[old]; /* the data's tag moves */
			valid[w->blk]++;
			moved++;
			last = ready;
			pages--;
			int64_t in = ssd_flash_load(&f->flash, ui, 1, ready);
			int64_t end = wp_program(f, ui, w, in);
			if (end < 0) {
				rc = (int)end;
				i++;
				break;
			}
		}
	}
	while (!rc && i < count && pages) {
		/* the next victim page holding a valid slot */
		while (i < count && !ssd_bit_test(vbits, list[i]))
			i++;
		if (i == count)
			break;
		uint32_t page_end = first + (ssd_udiv(list[i] - first, f->div_spp) + 1) * spp;
		uint32_t n = 0;
		for (uint32_t j = i; j < count && list[j] < page_end; j++)
			n += ssd_bit_test(vbits, list[j]);
		int64_t ready = ssd_flash_read(&f->flash, ui, blk,
					       (page_end - 1) / spp, n, t);
		for (; i < count && list[i] < page_end; i++) {
			uint32_t old = list[i];
			if (i + 4 * GC_AHEAD < count)
				__builtin_prefetch(&p2l[list[i + 4 * GC_AHEAD]], 0);
			if (i + GC_AHEAD < count)
				__builtin_prefetch(&l2p[p2l[list[i + GC_AHEAD]]], 1);
			if (!ssd_bit_test(vbits, old))
				continue;
			if (w->blk == SSD_NO_BLOCK && (rc = wp_open(f, ui, w, 0)))
				break;
			uint32_t lpn = p2l[old];
			map_touch(f, lpn, 1, t);
			ssd_bit_clear(vbits, old);
			moved++;
			if ((rc = wp_append(f, ui, w, lpn, old, ready, 0))) {
				i++;
				break;
			}
			u->vcopy_open = w->fill != 0;
		}
		last = ready;
		pages--;
	}
	u->vpos = i;
	f->valid[blk] -= moved;
	f->ctr.gc_copy_lp += moved;
	if (bg)
		f->ctr.gc_bg_copy_lp += moved;
	if (u->vkind == VK_FOLD)
		f->ctr.fold_copy_lp += moved;
	else if (u->vkind == VK_WL)
		f->ctr.wl_copy_lp += moved;
	if (rc)
		return rc;
	if (f->valid[blk]) {
		if (pages)
			return SSD_ESTATE; /* a valid slot escaped the list */
		return last;
	}
	/* every valid slot has moved: erase the victim, or retire it */
	int64_t end = last;
	u->victim = SSD_NO_BLOCK;
	if (u->vkind == VK_RETIRE) {
		if (ssd_flash_slc(&f->flash, blk))
			u->nslc--;
		retire(f, u, blk);
	} else if (u->vcopy_open && u->gc.fill) {
		f->next[blk] = u->pend_head; /* erased with the GC page */
		u->pend_head = blk;
	} else {
		end = erase_block(f, ui, blk, t);
	}
	check_after_gc(f);
	return end;
}

/* Free blocks below which a unit cleans in a burst before it opens a host
 * block: it keeps more than gc_fg_blocks, so a failed erase or a retired
 * block never leaves the GC write point without a block.  Paced GC works
 * from gc_fg_blocks down and normally frees a block just in time, so the
 * burst only finishes the victim in progress. */
static inline uint32_t gc_floor(const struct ssd_ftl *f)
{
	return f->fg_blocks + 1;
}

/* Paced foreground GC, as controllers interleave cleaning with host
 * writes instead of stopping the world: once a unit is down to
 * gc_fg_blocks free blocks, every host page it programs owes the cleaner
 * copies in the victim's proportion -- valid / (slots - valid) per host
 * slot, so one block is freed per block of host data -- and the cleaner
 * pays them a victim page at a time.  The burst below remains the
 * backstop when the pool still runs dry. */
static int gc_paced(struct ssd_ftl *f, uint32_t ui, int64_t t)
{
	struct ssd_unit *u = &f->unit[ui];
	if (u->victim == SSD_NO_BLOCK) {
		int rc = victim_pick(f, ui, 0);
		if (rc)
			return rc;
	}
	/* copies go to a native block: cleaning v valid slots gains
	 * 1 - v/spb blocks, whatever the victim's mode (folding an SLC block
	 * is cheap) */
	uint32_t v = u->vcount, spb = f->spb;
	u->gc_debt += v >= spb ? (double)f->spp * spb
			       : (double)f->spp * v / (spb - v);
	while (u->gc_debt > 0) {
		uint64_t before = f->ctr.gc_copy_lp;
		uint32_t victim = u->victim;
		/* pages whose copies pay the debt: at most spp copies each */
		uint32_t pages = (uint32_t)(u->gc_debt / f->spp) + 1;
		int64_t r = gc_step(f, ui, t, 0, pages);
		if (r < 0)
			return (int)r;
		u->gc_debt -= (double)(f->ctr.gc_copy_lp - before);
		if (victim != SSD_NO_BLOCK && u->victim == SSD_NO_BLOCK) {
			/* a block was freed: the debt of this victim is paid */
			if (u->gc_debt > 0)
				u->gc_debt = 0;
			break;
		}
	}
	return 0;
}

/* 1 if some block of unit ui that GC may pick holds a slot that is not
 * valid: cleaning can still gain space.  O(blocks of the unit). */
static int unit_can_gain(const struct ssd_ftl *f, uint32_t ui)
{
	for (uint32_t b = ui * f->bpu; b < (ui + 1) * f->bpu; b++)
		if ((f->state[b] == SSD_BLK_FULL || f->state[b] == SSD_BLK_VICTIM) &&
		    f->valid[b] < blk_slots(f, b))
			return 1;
	return 0;
}

/* Foreground GC: clean unit ui until it has gc_floor() free blocks, then
 * on towards gc_fg_target.
 * Each step cleans a whole victim.  A unit within its limit gains a
 * block in at most bpu / (gc_fg_blocks + 2) greedy victims (the reserve
 * is spread over its blocks at worst); one that has not reached the
 * floor after cleaning twice as many victims as it has blocks, and has
 * no block left with anything to gain, makes no progress -> SSD_ENOSPC
 * (no_room() tells wear from a defect). */
static int gc_foreground(struct ssd_ftl *f, uint32_t ui, int64_t t)
{
	struct ssd_unit *u = &f->unit[ui];
	uint64_t guard = (uint64_t)f->bpu * 2 + 2, trips = 0;
	while (u->nfree < gc_floor(f)) {
		/* a cleaned victim waiting for its copies' page needs only
		 * that page filled, not a whole new victim */
		int pend = u->pend_head != SSD_NO_BLOCK;
		int64_t r = gc_step(f, ui, t, 0, pend ? 1 : UINT32_MAX);
		if (r < 0)
			return (int)r;
		if (!pend && !guard--) {
			/* a policy that picks at random can miss the few
			 * blocks with space for a long while: go on while
			 * they exist (a bounded number of rounds) */
			if (++trips > 64 || !unit_can_gain(f, ui))
				return SSD_ENOSPC;
			guard = (uint64_t)f->bpu * 2 + 2;
		}
	}
	/* then on to the high-water mark, as far as cleaning gains blocks:
	 * a unit close to its limit may not reach it, and that is no
	 * error */
	uint64_t extra = (uint64_t)(f->fg_target - gc_floor(f)) * 4 + 4;
	while (u->nfree < f->fg_target && extra--) {
		int pend = u->pend_head != SSD_NO_BLOCK;
		int64_t r = gc_step(f, ui, t, 0, pend ? 1 : UINT32_MAX);
		if (r == SSD_ENOSPC)
			break;
		if (r < 0)
			return (int)r;
	}
	return 0;
}

/* ---- host operations ---- */

/* May unit u open one more block in SLC mode for host data?  Static: a
 * free SLC block exists.  Dynamic: under the cache's size, and enough
 * free blocks stay to fold everything cached into native mode. */
static int slc_room(const struct ssd_ftl *f, const struct ssd_unit *u)
{
	if (f->slc_static)
		return u->nslc_free > 0;
	if (u->nslc >= f->slc_max)
		return 0;
	uint32_t fold_need = (u->nslc + 1 + f->bits - 1) / f->bits;
	return u->nfree > f->fg_blocks + 2 + fold_need;
}

/* A cached block whose data has all been overwritten or trimmed needs no
 * folding: when the cache is out of room, erase such a block (the die
 * pays tBERS) and give its space back to the cache.  Returns 1 if the
 * cache has room afterwards. */
static int slc_reclaim(struct ssd_ftl *f, uint32_t ui, int64_t t)
{
	struct ssd_unit *u = &f->unit[ui];
	while (u->slc_empty && !slc_room(f, u)) {
		uint32_t b = u->fold_head;
		while (b != SSD_NO_BLOCK && f->valid[b])
			b = f->next[b];
		if (b == SSD_NO_BLOCK)
			break; /* the count is checked by ssd_ftl_check */
		fold_unlink(f, u, b);
		f->state[b] = SSD_BLK_VICTIM;
		f->ctr.gc_victims++;
		erase_block(f, ui, b, t);
	}
	return slc_room(f, u);
}

/* Unit ui has a partly filled host page: the host stream is in the
 * middle of it, and the rest of the page goes to the same unit.  (The
 * stream leaves a unit only after a full or padded page, so at most the
 * current unit has one.) */
static inline int host_page_open(const struct ssd_ftl *f, uint32_t ui)
{
	return f->unit[ui].host.fill || f->unit[ui].host_slc.fill;
}

/* The unit for a new host page: the first from `from` on in round robin
 * whose valid data is below its limit (the page's own old copy, which the
 * write invalidates, counts as room).  The rest of the NAND page goes to
 * the same unit, so a unit may pass its limit by up to lp_per_page - 1
 * slots, a sliver of its reserve; asking for room for the whole page
 * instead could leave no unit eligible on a drive whose limits add up to
 * the user capacity exactly.  Returns SSD_NO_BLOCK when no unit has room
 * (every unit full and the page new: the user capacity is exceeded,
 * which cannot happen). */
static uint32_t unit_pick(const struct ssd_ftl *f, uint32_t from, uint32_t lpn)
{
	uint32_t old = f->l2p[lpn];
	uint32_t ou = old == SSD_UNMAPPED ? SSD_NO_BLOCK
		: ssd_ftl_unit_of(f, ssd_udiv(old, f->div_spb));
	for (uint32_t k = 0, ui = from; k < f->units; k++) {
		uint64_t v = (uint64_t)f->uvalid[ui] - (ui == ou);
		if (v < f->ulimit[ui])
			return ui;
		ui = ui + 1 == f->units ? 0 : ui + 1;
	}
	return SSD_NO_BLOCK;
}

static inline int64_t ftl_write(struct ssd_ftl *f, uint32_t lpn, int64_t t)
{
	if (f->readonly) {
		f->ctr.ro_reject++;
		return SSD_EROFS;
	}
	uint32_t ui = f->cur_unit;
	if (f->uvalid[ui] >= f->ulimit[ui] && !host_page_open(f, ui)) {
		ui = unit_pick(f, ui, lpn);
		if (ui == SSD_NO_BLOCK)
			return no_room(f, f->cur_unit, "no allocation unit has room for host data");
		f->cur_unit = ui;
	}
	struct ssd_unit *u = &f->unit[ui];
	struct ssd_wp *w = &u->host;
	if (f->cfg.slc_cache && (u->host_slc.blk != SSD_NO_BLOCK || slc_room(f, u) ||
				 (u->slc_empty && slc_reclaim(f, ui, t)))) {
		w = &u->host_slc;
		if (w->blk == SSD_NO_BLOCK) {
			int rc = wp_open(f, ui, w, 1);
			if (rc == SSD_ENOSPC)
				return no_room(f, ui, "no free block for the SLC cache");
			if (rc)
				return rc;
		}
	} else if (w->blk == SSD_NO_BLOCK) {
		if (u->nfree < gc_floor(f)) {
			int rc = gc_foreground(f, ui, t);
			if (rc == SSD_ENOSPC)
				return no_room(f, ui, "GC made no progress");
			if (rc)
				return rc;
			if (f->readonly) {
				f->ctr.ro_reject++;
				return SSD_EROFS;
			}
		}
		int rc = wp_open(f, ui, w, 0);
		if (rc == SSD_ENOSPC)
			return no_room(f, ui, "no free block for host data");
		if (rc)
			return rc;
	}
	if (f->mc_cap)
		t = map_touch(f, lpn, 1, t);
	uint32_t old = f->l2p[lpn];
	if (old != SSD_UNMAPPED)
		invalidate(f, old);
	else
		f->mapped++;
	if (f->tbits)
		ssd_bit_clear(f->tbits, lpn); /* the write supersedes a TRIM */
	uint32_t slot = w->blk * f->spb + w->next++;
	f->l2p[lpn] = slot;
	f->p2l[slot] = lpn;
	if (f->vgen)
		verify_host(f, lpn, slot);
	ssd_bit_set(f->vbits, slot);
	f->valid[w->blk]++;
	f->uvalid[ui]++;
	f->ctr.host_write_lp++;
	if (w == &u->host_slc)
		f->ctr.slc_write_lp++;
	int64_t done = ssd_flash_load(&f->flash, ui, 1, t);
	w->ready = done;
	if (++w->fill == f->spp) {
		w->fill = 0;
		f->cur_unit = ui + 1 == f->units ? 0 : ui + 1;
		int64_t end = wp_program(f, ui, w, done);
		if (end == SSD_ENOSPC)
			return no_room(f, ui, "no free block to rewrite a failed page");
		if (end < 0)
			return end;
		if (f->cfg.gc_pacing && u->nfree <= f->fg_blocks) {
			int rc = gc_paced(f, ui, t);
			if (rc && rc != SSD_ENOSPC)
				return rc;
		}
	}
	return done;
}

int64_t ssd_ftl_write(struct ssd_ftl *f, uint32_t lpn, int64_t t)
{
	int64_t r = ftl_write(f, lpn, t);
	check_events(f);
	return r;
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
		int64_t ts = f->mc_cap ? map_touch(f, lpn + i, 0, t) : t;
		uint32_t slot = f->l2p[lpn + i];
		if (slot == SSD_UNMAPPED ||
		    (f->tbits && ssd_bit_test(f->tbits, lpn + i))) {
			f->ctr.host_unmapped_read_lp++;
			if (ts > done)
				done = ts;
			i++;
			continue;
		}
		uint32_t blk = ssd_udiv(slot, f->div_spb);
		uint32_t page = ssd_udiv(slot, f->div_spp); /* global page */
		if (!ssd_flash_programmed(&f->flash, blk,
					 page - blk * f->ppb)) {
			if (ts > done)
				done = ts;
			i++; /* still in the open page: from the register */
			continue;
		}
		/* later pages of the request in the same NAND page share
		 * one array read */
		uint32_t k = 1;
		while (i + k < n && f->l2p[lpn + i + k] != SSD_UNMAPPED &&
		       !(f->tbits && ssd_bit_test(f->tbits, lpn + i + k)) &&
		       ssd_udiv(f->l2p[lpn + i + k], f->div_spp) == page)
			k++;
		int64_t d = ssd_flash_read(&f->flash, ssd_ftl_unit_of(f, blk),
					   blk, page, k, ts);
		if (d > done)
			done = d;
		i += k;
	}
	return done;
}

int64_t ssd_ftl_merge_read(struct ssd_ftl *f, uint32_t lpn, int64_t t)
{
	int64_t ts = f->mc_cap ? map_touch(f, lpn, 0, t) : t;
	uint32_t slot = f->l2p[lpn];
	if (slot == SSD_UNMAPPED || (f->tbits && ssd_bit_test(f->tbits, lpn)))
		return ts; /* nothing to keep: the rest of the page is zeros */
	uint32_t blk = ssd_udiv(slot, f->div_spb);
	uint32_t page = ssd_udiv(slot, f->div_spp);
	if (!ssd_flash_programmed(&f->flash, blk, page - blk * f->ppb))
		return ts; /* still in the open page: merged in the register */
	f->ctr.rmw_read_lp++;
	return ssd_flash_read(&f->flash, ssd_ftl_unit_of(f, blk), blk, page, 1, ts);
}

int64_t ssd_ftl_trim(struct ssd_ftl *f, uint32_t lpn, uint32_t n, int64_t t)
{
	if (f->readonly) {
		f->ctr.ro_reject++;
		return SSD_EROFS;
	}
	int64_t done = t;
	f->ctr.host_trim_lp += n;
	if (f->tbits) {
		/* queued: mark now, unmap later */
		if (f->tq_len == f->tq_cap) {
			uint32_t cap = f->tq_cap ? f->tq_cap * 2 : 64;
			struct ssd_trim_range *q = malloc(cap * sizeof *q);
			if (!q)
				return SSD_ENOMEM;
			for (uint32_t i = 0; i < f->tq_len; i++)
				q[i] = f->tq[(f->tq_head + i) % f->tq_cap];
			free(f->tq);
			f->tq = q;
			f->tq_cap = cap;
			f->tq_head = 0;
		}
		f->tq[(f->tq_head + f->tq_len++) % f->tq_cap] =
			(struct ssd_trim_range){lpn, n};
		f->tq_pages += n;
		for (uint32_t i = 0; i < n; i++)
			if (f->l2p[lpn + i] != SSD_UNMAPPED)
				ssd_bit_set(f->tbits, lpn + i);
		return done;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t slot = f->l2p[lpn + i];
		if (slot == SSD_UNMAPPED)
			continue;
		if (f->mc_cap)
			done = ssd_max64(done, map_touch(f, lpn + i, 1, t));
		invalidate(f, slot);
		f->l2p[lpn + i] = SSD_UNMAPPED;
		f->mapped--;
	}
	return done;
}

uint64_t ssd_ftl_trim_work(struct ssd_ftl *f, uint64_t max_pages)
{
	uint64_t done = 0;
	while (f->tq_len && done < max_pages) {
		struct ssd_trim_range *r = &f->tq[f->tq_head];
		uint32_t k = r->n;
		if (k > max_pages - done)
			k = (uint32_t)(max_pages - done);
		for (uint32_t i = r->lpn; i < r->lpn + k; i++) {
			if (!ssd_bit_test(f->tbits, i))
				continue; /* rewritten since, or trimmed twice */
			ssd_bit_clear(f->tbits, i);
			uint32_t slot = f->l2p[i];
			if (slot == SSD_UNMAPPED)
				continue;
			invalidate(f, slot);
			f->l2p[i] = SSD_UNMAPPED;
			f->mapped--;
		}
		r->lpn += k;
		r->n -= k;
		done += k;
		f->tq_pages -= k;
		if (!r->n) {
			f->tq_head = (f->tq_head + 1) % f->tq_cap;
			f->tq_len--;
		}
	}
	return done;
}

/* Pad the open host page of w (if partly filled) and program it: its
 * data is already in the register. */
static int64_t wp_pad(struct ssd_ftl *f, uint32_t ui, struct ssd_wp *w,
		      int64_t t)
{
	if (w->blk == SSD_NO_BLOCK || w->fill == 0)
		return t;
	uint32_t pad = f->spp - w->fill;
	int64_t ready = ssd_max64(t, w->ready);
	w->fill = 0;
	w->ready = 0;
	w->next += pad; /* padding slots stay invalid */
	f->ctr.pad_lp += pad;
	return wp_program(f, ui, w, ready);
}

static int64_t ftl_flush(struct ssd_ftl *f, int64_t t)
{
	int64_t done = t;
	int padded = host_page_open(f, f->cur_unit);
	f->ctr.flushes++;
	for (uint32_t ui = 0; ui < f->units; ui++) {
		struct ssd_unit *u = &f->unit[ui];
		/* host data only: GC copies stay durable in their victim
		 * until their page fills (erase_pending) */
		int64_t a = wp_pad(f, ui, &u->host, t);
		int64_t b = wp_pad(f, ui, &u->host_slc, t);
		if (a < 0)
			return a;
		if (b < 0)
			return b;
		done = ssd_max64(done, ssd_max64(a, b));
	}
	if (padded) {
		/* the current unit's page went out padded: the next host
		 * page starts on the next unit, as after a full page */
		f->cur_unit = f->cur_unit + 1 == f->units ? 0 : f->cur_unit + 1;
	}
	return done;
}

int64_t ssd_ftl_flush(struct ssd_ftl *f, int64_t t)
{
	int64_t r = ftl_flush(f, t);
	if (r == SSD_ENOSPC)
		r = no_room(f, f->cur_unit, "no free block for a padded page");
	check_events(f);
	return r;
}

/* Idle-time work of one unit; stops when the window closes or there is
 * nothing worth cleaning (SSD_ENOSPC from the victim choice, or no
 * block for the GC write point: idle time is no place to fail). */
static int idle_unit(struct ssd_ftl *f, uint32_t ui, int64_t from, int64_t until)
{
	struct ssd_unit *u = &f->unit[ui];
	while (u->nfree < f->bg_blocks || u->victim != SSD_NO_BLOCK ||
	       u->fold_head != SSD_NO_BLOCK ||
	       u->retire_head != SSD_NO_BLOCK) {
		int64_t s = ssd_max64(from, ssd_flash_unit_busy(&f->flash, ui));
		if (s >= until)
			return 0;
		int64_t r = gc_step(f, ui, s, 1, 1);
		if (r == SSD_ENOSPC)
			return 0;
		if (r < 0)
			return (int)r;
	}
	return 0;
}

int ssd_ftl_idle(struct ssd_ftl *f, int64_t from, int64_t until)
{
	int rc = 0;
	for (uint32_t ui = 0; ui < f->units && !rc; ui++)
		rc = idle_unit(f, ui, from, until);
	check_events(f);
	return rc;
}

uint64_t ssd_ftl_free_blocks(const struct ssd_ftl *f)
{
	uint64_t n = 0;
	for (uint32_t ui = 0; ui < f->units; ui++)
		n += f->unit[ui].nfree + f->unit[ui].nslc_free;
	return n;
}

const struct ssd_counters *ssd_ftl_counters(const struct ssd_ftl *f)
{
	return &f->ctr;
}

struct ssd_counters *ssd_ftl_counters_mut(struct ssd_ftl *f)
{
	return &f->ctr;
}

uint32_t ssd_ftl_pages(const struct ssd_ftl *f)
{
	return f->nlp;
}

uint64_t ssd_ftl_mapped(const struct ssd_ftl *f)
{
	return f->mapped;
}

uint64_t ssd_ftl_trim_queued(const struct ssd_ftl *f)
{
	return f->tq_pages;
}

void ssd_ftl_erase_stats(const struct ssd_ftl *f, uint32_t *min,
			 double *mean, uint32_t *max)
{
	ssd_flash_erase_stats(&f->flash, min, mean, max);
}

void ssd_ftl_set_check_every(struct ssd_ftl *f, uint32_t victims)
{
	f->check_every = victims;
}

const char *ssd_ftl_check_failure(const struct ssd_ftl *f)
{
	return f->check_failed ? f->check_msg : NULL;
}

const char *ssd_ftl_error(const struct ssd_ftl *f)
{
	return f->err_msg;
}

uint32_t ssd_ftl_map_slot(const struct ssd_ftl *f, uint32_t lpn)
{
	return f->l2p[lpn];
}

uint64_t ssd_ftl_slots(const struct ssd_ftl *f)
{
	return (uint64_t)f->nblocks * f->spb;
}

uint32_t ssd_ftl_slot_lpn(const struct ssd_ftl *f, uint64_t slot)
{
	return f->p2l[slot];
}

void ssd_ftl_fault_map(struct ssd_ftl *f, uint32_t lpn, uint32_t slot)
{
	f->l2p[lpn] = slot;
}

void ssd_ftl_fault_books(struct ssd_ftl *f)
{
	f->valid[0] += 1;
}

void ssd_ftl_fault_check(struct ssd_ftl *f, const char *msg)
{
	f->check_failed = 1;
	snprintf(f->check_msg, sizeof f->check_msg, "%s", msg);
}

void ssd_ftl_fault_readonly(struct ssd_ftl *f)
{
	f->readonly = 1;
}

void ssd_ftl_health(const struct ssd_ftl *f, struct ssd_health *h)
{
	memset(h, 0, sizeof *h);
	const struct ssd_flash *fl = &f->flash;
	ssd_flash_erase_stats(fl, &h->erase_min, &h->erase_mean, &h->erase_max);
	uint32_t span = h->erase_max - h->erase_min + 1;
	h->erase_hist_lo = h->erase_min;
	h->erase_hist_width = (span + SSD_WEAR_BINS - 1) / SSD_WEAR_BINS;
	uint64_t wear_sum = 0, wear_max = 0;
	for (uint32_t b = 0; b < f->nblocks; b++) {
		h->erase_hist[(ssd_flash_erases(fl, b) - h->erase_min) / h->erase_hist_width]++;
		wear_sum += f->wear[b];
		if (f->wear[b] > wear_max)
			wear_max = f->wear[b];
		if (f->state[b] == SSD_BLK_FULL || f->state[b] == SSD_BLK_OPEN ||
		    f->state[b] == SSD_BLK_VICTIM)
			if (ssd_flash_slc(fl, b))
				h->slc_cache_bytes += (uint64_t)f->valid[b] * SSD_LPAGE;
	}
	double rated = 1000.0 * f->cfg.pe_cycles;
	h->percentage_used = 100.0 * ((double)wear_sum / f->nblocks) / rated;
	h->max_wear_pct = 100.0 * (double)wear_max / rated;
	int64_t spare = spare_left(f);
	h->spare_blocks = spare > 0 ? (uint64_t)spare : 0;
	h->available_spare = f->spare_initial
		? 100.0 * (double)h->spare_blocks / (double)f->spare_initial : 0;
	h->bad_blocks = f->bad;
	h->erase_failures = f->ctr.erase_fail;
	h->program_failures = f->ctr.prog_fail;
	h->read_only = f->readonly;
	h->host_bytes_written = f->ctr.host_write_bytes ? f->ctr.host_write_bytes
		: f->ctr.host_write_lp * SSD_LPAGE;
	h->host_bytes_read = f->ctr.host_read_lp * SSD_LPAGE;
	h->nand_bytes_written = f->ctr.nand_prog_lp * SSD_LPAGE;
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

/* Data verification: the out-of-band tags (see ftl.h). */
int ssd_ftl_verify_on(struct ssd_ftl *f, const uint32_t *src)
{
	if (!f->vgen) {
		/* zero-filled: slots programmed before hold tag 0 */
		f->vgen = big_alloc((size_t)f->nblocks * f->spb * sizeof *f->vgen);
		if (!f->vgen)
			return SSD_ENOMEM;
	}
	f->vsrc = src;
	return 0;
}

int ssd_ftl_verify_get(const struct ssd_ftl *f, uint32_t lpn, uint32_t *lp,
		       uint32_t *tag)
{
	uint32_t slot = f->l2p[lpn];
	if (slot == SSD_UNMAPPED || (f->tbits && ssd_bit_test(f->tbits, lpn)))
		return 0;
	*lp = f->p2l[slot];
	*tag = f->vgen[slot];
	return 1;
}

/* Each block's endurance, in 1/1000 cycles: pe_cycles times 1 + spread *
 * z, z standard normal (Box-Muller) clipped to +-3, from the run's seed. */
static void draw_limits(struct ssd_ftl *f)
{
	double pe = f->cfg.pe_cycles, sd = f->cfg.pe_spread;
	for (uint32_t b = 0; b < f->nblocks; b++) {
		double u1 = ssd_rng_unit(&f->rng), u2 = ssd_rng_unit(&f->rng);
		double z = sqrt(-2 * log(1 - u1)) * cos(6.283185307179586 * u2);
		if (z > 3)
			z = 3;
		if (z < -3)
			z = -3;
		double l = 1000 * pe * (1 + sd * z);
		f->limit[b] = l < 1000 ? 1000 : l > 4e9 ? 4000000000u : (uint32_t)l;
	}
}

static int gc_candidate(const void *ctx, uint32_t blk)
{
	return ssd_ftl_candidate(ctx, blk);
}

/* The policy's view of the FTL (gc.h): pointers into the FTL's own
 * arrays, so it stays current without copying. */
static void gc_view_init(struct ssd_ftl *f)
{
	struct ssd_gc_view *v = &f->gcv;
	v->units = f->units;
	v->bpu = f->bpu;
	v->nblocks = f->nblocks;
	v->spb = f->spb;
	v->div_bpu = f->div_bpu;
	v->valid = f->valid;
	v->stamp = f->stamp;
	v->host_writes = &f->ctr.host_write_lp;
	v->next = f->next;
	v->prev = f->prev;
	v->window = f->cfg.gc_window;
	v->rng = &f->rng;
	v->candidate = gc_candidate;
	v->ctx = f;
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
	f->bits = ssd_cell_bits(c->cell);
	f->spb_slc = f->spp * (f->ppb / f->bits);
	f->div_spp = ssd_udiv_init(f->spp);
	f->div_spb = ssd_udiv_init(f->spb);
	f->div_bpu = ssd_udiv_init(f->bpu);
	uint64_t nblocks = units * f->bpu;
	uint64_t nslots = nblocks * f->spb;
	uint64_t nlp = c->capacity / SSD_LPAGE;
	if (nslots >= SSD_UNMAPPED || nlp >= SSD_UNMAPPED || f->bits < 1) {
		free(f);
		return SSD_EINVAL; /* 32-bit slot numbers: up to 16 TiB */
	}
	f->nblocks = (uint32_t)nblocks;
	f->nlp = (uint32_t)nlp;
	f->fg_blocks = c->gc_fg_blocks;
	f->fg_target = c->gc_fg_target > c->gc_fg_blocks + 1 ? c->gc_fg_target
							     : c->gc_fg_blocks + 1;
	f->bg_blocks = c->gc_bg_blocks;
	/* SLC cache size in blocks per unit */
	if (c->slc_cache != SSD_SLC_NONE && f->bits > 1) {
		uint64_t per = (uint64_t)f->spb_slc * SSD_LPAGE * units;
		uint64_t n = (c->slc_cache_size + per - 1) / per;
		if (c->slc_cache == SSD_SLC_STATIC)
			f->slc_static = (uint32_t)(n < f->bpu ? n : f->bpu);
		else
			f->slc_max = (uint32_t)(n < f->bpu ? n : f->bpu);
	}
	f->slc_wear = (uint32_t)(1000ull * c->pe_cycles / (c->slc_pe_cycles ? c->slc_pe_cycles : 1));
	if (!f->slc_wear)
		f->slc_wear = 1;
	f->need_blocks = (nlp + f->spb - 1) / f->spb + units * (f->fg_blocks + 2);
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
	f->wear = calloc(nblocks, sizeof *f->wear);
	f->limit = calloc(nblocks, sizeof *f->limit);
	f->unit = calloc(units, sizeof *f->unit);
	f->uvalid = calloc(units, sizeof *f->uvalid);
	f->ulimit = calloc(units, sizeof *f->ulimit);
	f->gc = ssd_gc_find(c->gc_policy);
	if (c->map_cache) {
		f->mc_epp = c->page_size / 4;
		f->mc_pages = (uint32_t)((nlp + f->mc_epp - 1) / f->mc_epp);
		uint64_t cap = c->map_cache / c->page_size;
		f->mc_cap = (uint32_t)(cap < 1 ? 1 : cap > f->mc_pages ? f->mc_pages : cap);
		f->mc_head = f->mc_tail = SSD_NO_BLOCK;
		f->mc_next = malloc(f->mc_pages * sizeof *f->mc_next);
		f->mc_prev = malloc(f->mc_pages * sizeof *f->mc_prev);
		f->mc_state = calloc(f->mc_pages, 1);
	}
	if (c->trim_mode != SSD_TRIM_IMMEDIATE)
		f->tbits = calloc((nlp + 63) / 64, sizeof *f->tbits);
	int bad_gc = !f->gc;
	if (!f->l2p || !f->p2l || !f->vbits || !f->vlist || !f->valid ||
	    !f->next || !f->prev || !f->stamp || !f->state || !f->wear ||
	    !f->limit || !f->unit || !f->uvalid || !f->ulimit || bad_gc ||
	    (c->map_cache && (!f->mc_next || !f->mc_prev || !f->mc_state)) ||
	    (c->trim_mode != SSD_TRIM_IMMEDIATE && !f->tbits) ||
	    ssd_flash_init(&f->flash, c, f->nblocks, &f->ctr, seed ^ 0x7265u)) {
		ssd_ftl_destroy(f);
		return bad_gc ? SSD_EINVAL : SSD_ENOMEM;
	}
	memset(f->l2p, 0xff, nlp * sizeof *f->l2p);
	memset(f->p2l, 0xff, nslots * sizeof *f->p2l);
	draw_limits(f);
	uint64_t good_native = 0;
	for (uint32_t ui = 0; ui < f->units; ui++) {
		struct ssd_unit *u = &f->unit[ui];
		u->free_head = u->free_tail = SSD_NO_BLOCK;
		u->slc_free_head = SSD_NO_BLOCK;
		u->fold_head = u->fold_tail = SSD_NO_BLOCK;
		u->retire_head = SSD_NO_BLOCK;
		u->host.blk = u->host_slc.blk = u->gc.blk = SSD_NO_BLOCK;
		u->victim = SSD_NO_BLOCK;
		u->wl_victim = SSD_NO_BLOCK;
		u->pend_head = SSD_NO_BLOCK;
		u->good_native = f->bpu - f->slc_static;
	}
	for (uint32_t b = 0; b < f->nblocks; b++) {
		if (is_static_slc(f, b))
			ssd_flash_set_slc(&f->flash, b, 1);
		else
			good_native++;
		free_push(f, b);
	}
	f->spare_initial = good_native > f->need_blocks ? good_native - f->need_blocks : 0;
	unit_limits(f);
	gc_view_init(f);
	if (f->gc->init(&f->gcv, &f->gc_state)) {
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
	big_free(f->vgen, (size_t)f->nblocks * f->spb * sizeof *f->vgen);
	free(f->vbits);
	free(f->vlist);
	free(f->valid);
	free(f->next);
	free(f->prev);
	free(f->stamp);
	free(f->state);
	free(f->wear);
	free(f->limit);
	free(f->unit);
	free(f->uvalid);
	free(f->ulimit);
	free(f->mc_next);
	free(f->mc_prev);
	free(f->mc_state);
	free(f->tbits);
	free(f->tq);
	free(f);
}

/* ---- invariant checker ---- */

#define FAIL(...)                                                          \
	do {                                                               \
		snprintf(err, errlen, __VA_ARGS__);                        \
		free(count);                                               \
		return SSD_ESTATE;                                         \
	} while (0)

static const struct ssd_wp *wp_of(const struct ssd_ftl *f, uint32_t b)
{
	const struct ssd_unit *u = &f->unit[ssd_ftl_unit_of(f, b)];
	return u->host.blk == b ? &u->host : u->host_slc.blk == b ? &u->host_slc
		: u->gc.blk == b ? &u->gc : NULL;
}

static int pending(const struct ssd_ftl *f, const struct ssd_unit *u,
		   uint32_t blk)
{
	uint32_t k = 0;
	for (uint32_t b = u->pend_head; b != SSD_NO_BLOCK && k++ <= f->bpu;
	     b = f->next[b])
		if (b == blk)
			return 1;
	return 0;
}

int ssd_ftl_check(const struct ssd_ftl *f, char *err, size_t errlen)
{
	uint32_t *count = calloc(f->nblocks, sizeof *count);
	if (!count) {
		snprintf(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	const struct ssd_flash *fl = &f->flash;
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
	uint64_t valid_sum = 0, bad = 0;
	for (uint32_t b = 0; b < f->nblocks; b++) {
		uint32_t programmed = ssd_flash_next_page(fl, b) * f->spp;
		const struct ssd_wp *w = wp_of(f, b);
		for (uint32_t i = 0; i < f->spb; i++) {
			uint32_t s = b * f->spb + i, l = f->p2l[s];
			if (!ssd_bit_test(f->vbits, s))
				continue;
			if (l >= f->nlp || f->l2p[l] != s)
				FAIL("p2l[%u]=%u but l2p does not point back", s, l);
			if (i >= blk_slots(f, b))
				FAIL("slot %u of block %u is beyond its mode's pages", i, b);
			if (i >= programmed &&
			    (!w || i >= w->next || i / f->spp != programmed / f->spp))
				FAIL("slot %u of block %u holds data but its page is not programmed", i, b);
			count[b]++;
		}
		if (count[b] != f->valid[b])
			FAIL("block %u: valid=%u but %u slots are mapped", b,
			     f->valid[b], count[b]);
		valid_sum += count[b];
		if (is_static_slc(f, b) && !ssd_flash_slc(fl, b))
			FAIL("static SLC block %u is not in SLC mode", b);
		const struct ssd_unit *u = &f->unit[ssd_ftl_unit_of(f, b)];
		switch (f->state[b]) {
		case SSD_BLK_FREE:
			if (count[b] || ssd_flash_next_page(fl, b))
				FAIL("free block %u is not erased", b);
			if (ssd_flash_slc(fl, b) && !is_static_slc(f, b))
				FAIL("free block %u is left in SLC mode", b);
			break;
		case SSD_BLK_FULL:
			if (ssd_flash_next_page(fl, b) != ssd_flash_block_pages(fl, b))
				FAIL("full block %u has %u pages programmed", b,
				     ssd_flash_next_page(fl, b));
			break;
		case SSD_BLK_OPEN:
			if (!w || w->next / f->spp != ssd_flash_next_page(fl, b) ||
			    (w == &u->host_slc) != (ssd_flash_slc(fl, b) != 0))
				FAIL("open block %u does not match its write point", b);
			break;
		case SSD_BLK_VICTIM:
			if (u->victim != b && !pending(f, u, b))
				FAIL("block %u is a victim of no unit", b);
			if (u->victim != b && count[b])
				FAIL("victim %u waits for its erase but holds data", b);
			break;
		case SSD_BLK_RETIRE:
			break;
		case SSD_BLK_BAD:
			bad++;
			if (count[b])
				FAIL("bad block %u holds data", b);
			break;
		default:
			FAIL("block %u has bad state %u", b, f->state[b]);
		}
	}
	if (valid_sum != mapped)
		FAIL("%llu valid slots for %llu mapped pages",
		     (unsigned long long)valid_sum, (unsigned long long)mapped);
	if (bad != f->bad)
		FAIL("%llu bad blocks, counter says %llu", (unsigned long long)bad,
		     (unsigned long long)f->bad);
	/* pools and queues: each block at most once, in its own unit, in
	 * the right state */
	memset(count, 0, f->nblocks * sizeof *count);
	for (uint32_t ui = 0; ui < f->units; ui++) {
		const struct ssd_unit *u = &f->unit[ui];
		uint32_t nf = 0, ns = 0, nslc = 0, k = 0, empty = 0;
		for (uint32_t b = u->free_head; b != SSD_NO_BLOCK; b = f->next[b]) {
			if (ssd_ftl_unit_of(f, b) != ui || f->state[b] != SSD_BLK_FREE ||
			    is_static_slc(f, b) || count[b]++ || ++nf > f->bpu)
				FAIL("free list of unit %u is corrupt at block %u", ui, b);
		}
		for (uint32_t b = u->slc_free_head; b != SSD_NO_BLOCK; b = f->next[b]) {
			if (ssd_ftl_unit_of(f, b) != ui || f->state[b] != SSD_BLK_FREE ||
			    !is_static_slc(f, b) || count[b]++ || ++ns > f->bpu)
				FAIL("SLC free list of unit %u is corrupt at block %u", ui, b);
		}
		for (uint32_t b = u->fold_head, p = SSD_NO_BLOCK; b != SSD_NO_BLOCK;
		     p = b, b = f->next[b]) {
			if (ssd_ftl_unit_of(f, b) != ui || f->state[b] != SSD_BLK_FULL ||
			    !ssd_flash_slc(fl, b) || f->prev[b] != p || count[b]++ || ++k > f->bpu)
				FAIL("fold queue of unit %u is corrupt at block %u", ui, b);
			empty += !f->valid[b];
		}
		if (empty != u->slc_empty)
			FAIL("unit %u: %u empty blocks in the fold queue, counter says %u",
			     ui, empty, u->slc_empty);
		for (uint32_t b = u->retire_head; b != SSD_NO_BLOCK; b = f->next[b]) {
			if (ssd_ftl_unit_of(f, b) != ui || f->state[b] != SSD_BLK_RETIRE ||
			    count[b]++)
				FAIL("retire list of unit %u is corrupt at block %u", ui, b);
		}
		if (nf != u->nfree || ns != u->nslc_free)
			FAIL("unit %u: %u+%u blocks in free lists, counters say %u+%u",
			     ui, nf, ns, u->nfree, u->nslc_free);
		for (uint32_t b = ui * f->bpu; b < (ui + 1) * f->bpu; b++)
			if (ssd_flash_slc(fl, b) && f->state[b] != SSD_BLK_FREE &&
			    f->state[b] != SSD_BLK_BAD)
				nslc++;
		if (nslc != u->nslc)
			FAIL("unit %u: %u SLC blocks hold data, counter says %u", ui,
			     nslc, u->nslc);
		uint64_t uv = 0;
		uint32_t gn = 0;
		for (uint32_t b = ui * f->bpu; b < (ui + 1) * f->bpu; b++) {
			uv += f->valid[b];
			gn += f->state[b] != SSD_BLK_BAD && !is_static_slc(f, b);
		}
		if (gn != u->good_native)
			FAIL("unit %u: %u good native blocks, counter says %u", ui,
			     gn, u->good_native);
		if (uv != f->uvalid[ui])
			FAIL("unit %u: %llu valid slots, counter says %u", ui,
			     (unsigned long long)uv, f->uvalid[ui]);
		/* GC can free a block only while the unit's data leaves it
		 * the reserve: past that it would clean without progress */
		if (!f->bad && uv > unit_cap(f, ui) + f->spp - 1)
			FAIL("unit %u holds %llu valid slots, more than its good "
			     "blocks hold with the GC reserve (%llu): GC cannot "
			     "make progress", ui, (unsigned long long)uv,
			     (unsigned long long)unit_cap(f, ui));
	}
	for (uint32_t b = 0; b < f->nblocks; b++) {
		if (f->state[b] == SSD_BLK_FREE && !count[b])
			FAIL("free block %u is in no free list", b);
		if (f->state[b] == SSD_BLK_RETIRE && !count[b] &&
		    f->unit[ssd_ftl_unit_of(f, b)].victim != b)
			FAIL("retiring block %u is in no list", b);
	}
	if (f->gc->check && f->gc->check(&f->gcv, f->gc_state))
		FAIL("the %s policy's index disagrees with the blocks", f->gc->name);
	free(count);
	return 0;
}
