/*
 * ftl_gc.c -- the garbage-collection engine: choosing a victim, copying
 * its valid data a NAND page at a time, erasing it; paced, burst and
 * idle-time cleaning.
 *
 * GC.  Foreground: with gc_pacing (the default) a unit down to
 * gc_fg_blocks free blocks makes every host page it programs pay for its
 * share of copies, a victim page at a time, so cleaning keeps pace with
 * the host; without it (or as a backstop when the pool still runs dry),
 * before a unit opens a new host block with too few free blocks it cleans
 * whole blocks in one burst, up to gc_fg_target free blocks (a high-water
 * mark: fewer, longer stalls).  The copies and erases occupy the die, so
 * host writes wait for them, as on a real drive.  Background: in idle
 * time the device calls ssd_ftl_idle(), which folds the SLC cache and
 * then cleans, one NAND page at a time while the die would otherwise sit
 * idle, until each unit has gc_bg_blocks free blocks.  A victim is, in
 * order: a block to retire, a static wear-leveling move, an SLC block to
 * fold (when cleaning is needed), or the policy's pick.
 *
 * Cost.  The copy loop (gc_step) is most of the simulator's time on a
 * full drive; the per-page write-point helpers it calls (wp_append,
 * wp_program) are static inline in ftl_int.h, shared with the host
 * path in ftl.c.
 */
#include "ftl/ftl.h"
#include "ftl/ftl_int.h"

#include <stdint.h>

/* Paired pages guarded: the cleaned victim's last copies lie in the GC
 * write point's incomplete wordline, where a cut during the program of
 * its next page would destroy them; the victim waits, as for copies in
 * the open page, until that wordline is complete.  (Guarding needs
 * power-loss tracking, which gc_copies = host refuses: the copies are in
 * the GC write point.) */
static int gc_wl_holds(const struct ssd_ftl *f, const struct ssd_unit *u,
		       uint32_t ui)
{
	const struct ssd_wp *w = &u->gc;
	return ftl_wl_guard(f) && w->blk != SSD_NO_BLOCK &&
	       (w->blk != f->vmark[2 * ui] || w->next != f->vmark[2 * ui + 1]) &&
	       (w->fill || ftl_wl_open(f, w->blk));
}

/* Why a victim is being cleaned; decides the counters and its fate. */
enum { VK_GC, VK_FOLD, VK_WL, VK_RETIRE };

/* Copies ahead of the cleaning cursor whose map entries are prefetched:
 * each GC copy stores into l2p at a random place, and the cleaner would
 * otherwise wait on those cache misses one after another. */
#define GC_AHEAD 16

static void check_after_gc(struct ssd_ftl *f)
{
	if (f->check_every && !(++f->check_count % f->check_every))
		ftl_check_run(f);
}

/* Erase a cleaned victim: back to its pool, or retired if the erase
 * fails (the block reached its endurance). */
int64_t ftl_erase_block(struct ssd_ftl *f, uint32_t ui, uint32_t blk,
			int64_t t)
{
	struct ssd_unit *u = &f->unit[ui];
	uint32_t w = ssd_flash_slc(&f->flash, blk) ? f->slc_wear : 1000;
	if (f->ptrack)
		t = ftl_power_erase(f, ui, blk, t);
	int64_t end = ssd_flash_erase(&f->flash, ui, blk, t);
	if (ssd_flash_slc(&f->flash, blk))
		u->nslc--;
	if ((uint64_t)f->wear[blk] + w > f->limit[blk]) {
		f->ctr.erase_fail++;
		ftl_retire(f, u, blk);
		return end;
	}
	f->wear[blk] += w;
	ftl_wl_erased(f, ui, blk, f->wear[blk] - w);
	if (!is_static_slc(f, blk))
		ssd_flash_set_slc(&f->flash, blk, 0);
	ftl_free_push(f, blk);
	ftl_wl_check(f, ui);
	return end;
}

/* Victims whose last copies wait in the GC write point's open page are
 * erased once that page is programmed (at t): until then the victim is
 * the only durable copy of that data, so a flush never has to pad the
 * GC page. */
void ftl_erase_pending(struct ssd_ftl *f, uint32_t ui, int64_t t)
{
	struct ssd_unit *u = &f->unit[ui];
	if (ftl_wl_guard(f) && u->gc.blk != SSD_NO_BLOCK && ftl_wl_open(f, u->gc.blk))
		return; /* until the copies' wordline is complete */
	while (u->pend_head != SSD_NO_BLOCK) {
		uint32_t b = u->pend_head;
		u->pend_head = f->next[b];
		ftl_erase_block(f, ui, b, t);
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
	if (f->vmark) { /* where its copies begin */
		f->vmark[2 * ui] = u->gc.blk;
		f->vmark[2 * ui + 1] = u->gc.next;
	}
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
	v = fold ? ftl_fold_pop(f, u) : SSD_NO_BLOCK;
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
	/* gc_copies = host: between the host's pages; but a block for them
	 * taken from the reserve (below gc_floor free blocks) is the GC
	 * write point's, never shared: the host would fill it and leave the
	 * cleaning none */
	struct ssd_wp *w = __builtin_expect(f->fdp != NULL, 0)
			   ? ftl_fdp_gc_dest(f, ui, blk) : gc_dest(f, u);
#define GC_WP_OPEN(f, u, ui, w, rc)                                        \
	do {                                                               \
		if (w == &u->host && u->nfree < gc_floor(f))               \
			w = &u->gc;                                        \
		if (w->blk == SSD_NO_BLOCK)                                \
			rc = ftl_wp_open(f, ui, w, 0);                     \
	} while (0)
	const uint32_t first = blk * spb;
	uint32_t i = u->vpos, moved = 0;
	int64_t last = t;
	int rc = 0;
	if (spp == 1 && !f->mc_cap && w == &u->gc) {
		/* 4 KiB pages: every valid slot is a page of its own (the
		 * common benchmark geometry, so it gets its own loop; the
		 * write point is the GC's own, known to the compiler) */
		struct ssd_wp *const gw = &u->gc;
		uint32_t *const valid = f->valid;
		for (; i < count && pages; i++) {
			uint32_t old = list[i];
			if (i + 4 * GC_AHEAD < count)
				__builtin_prefetch(&p2l[list[i + 4 * GC_AHEAD]], 0);
			if (i + GC_AHEAD < count)
				__builtin_prefetch(&l2p[p2l[list[i + GC_AHEAD]]], 1);
			if (!ssd_bit_test(vbits, old))
				continue;
			if (gw->blk == SSD_NO_BLOCK && (rc = ftl_wp_open(f, ui, gw, 0)))
				break;
			int64_t ready = ssd_flash_read(&f->flash, ui, blk,
						       old / spp, 1, t);
			uint32_t lpn = p2l[old];
			uint32_t slot = gw->blk * spb + gw->next++;
			ssd_bit_clear(vbits, old);
			ssd_bit_set(vbits, slot);
			p2l[slot] = lpn;
			l2p[lpn] = slot;
			if (vgen)
				vgen[slot] = vgen[old]; /* the data's tag moves */
			valid[gw->blk]++;
			moved++;
			last = ready;
			pages--;
			int64_t in = ssd_flash_load(&f->flash, ui, 1, ready);
			int64_t end = wp_program(f, ui, gw, in);
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
			if (w->blk == SSD_NO_BLOCK) {
				GC_WP_OPEN(f, u, ui, w, rc);
				if (rc)
					break;
			}
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
#undef GC_WP_OPEN
	u->vpos = i;
	f->valid[blk] -= moved;
	f->ctr.gc_copy_lp += moved;
	if (__builtin_expect(f->fdp != NULL, 0))
		ftl_fdp_copied(f, ui, w, moved); /* the handle usage */
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
		ftl_retire(f, u, blk);
	} else if ((u->vcopy_open && w->fill && w == &u->gc) ||
		   gc_wl_holds(f, u, ui)) {
		/* (copies between the host's pages: erased at once, as no
		 * power cut is modelled with them) */
		f->next[blk] = u->pend_head; /* erased with the GC page */
		u->pend_head = blk;
	} else {
		end = ftl_erase_block(f, ui, blk, t);
	}
	check_after_gc(f);
	return end;
}

/* Paced foreground GC, as controllers interleave cleaning with host
 * writes instead of stopping the world: once a unit is down to
 * gc_fg_blocks free blocks, every host page it programs owes the cleaner
 * copies in the victim's proportion -- valid / (slots - valid) per host
 * slot, so one block is freed per block of host data -- and the cleaner
 * pays them a victim page at a time.  The burst below remains the
 * backstop when the pool still runs dry. */
int ftl_gc_paced(struct ssd_ftl *f, uint32_t ui, int64_t t)
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
 * (ftl_no_room() tells wear from a defect). */
int ftl_gc_foreground(struct ssd_ftl *f, uint32_t ui, int64_t t)
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

/* Idle-time work of one unit; stops when the window closes or there is
 * nothing worth cleaning (SSD_ENOSPC from the victim choice, or no
 * block for the GC write point: idle time is no place to fail). */
int ftl_gc_idle(struct ssd_ftl *f, uint32_t ui, int64_t from, int64_t until)
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
