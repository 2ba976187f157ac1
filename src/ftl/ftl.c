/*
 * ftl.c -- mapping and the host path (read, write, flush, idle), write
 * points, the block pools, and setup.  The model and the block life
 * cycle are described in ftl.h; the GC engine, the SLC cache, wear, the
 * map cache, TRIM and the invariant checker have files of their own
 * (ftl_gc.c, ftl_slc.c, ftl_wear.c, ftl_mapcache.c, ftl_trim.c,
 * ftl_check.c).  The per-page write-point helpers that the host path
 * shares with the GC copy loop are static inline in ftl_int.h.
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

/* ---- block pools ---- */

void ftl_free_push(struct ssd_ftl *f, uint32_t blk)
{
	uint32_t ui = ssd_ftl_unit_of(f, blk);
	struct ssd_unit *u = &f->unit[ui];
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
	if (f->fr_ok) {
		uint32_t k = f->fr_head[ui] + u->nfree;
		size_t at = (size_t)ui * f->bpu + (k >= f->bpu ? k - f->bpu : k);
		f->fr_blk[at] = blk;
		f->fr_wear[at] = f->wear[blk];
	}
	u->nfree++;
}

/* Rebuild the free rings from the lists (after a snapshot load). */
static void free_rings(struct ssd_ftl *f)
{
	for (uint32_t ui = 0; ui < f->units; ui++) {
		size_t base = (size_t)ui * f->bpu, k = 0;
		for (uint32_t b = f->unit[ui].free_head; b != SSD_NO_BLOCK;
		     b = f->next[b], k++) {
			f->fr_blk[base + k] = b;
			f->fr_wear[base + k] = f->wear[b];
		}
		f->fr_head[ui] = 0;
	}
	f->fr_ok = 1;
}

/* A native free block of u: the first (FIFO), or with dynamic wear
 * leveling the first of the least worn.  The list is short in steady
 * state (about gc_fg_blocks) and its wear is scanned in the ring, in
 * order; on a fresh drive, long, but then its first block is as little
 * worn as any block of the unit (the wear bounds say so) and the scan is
 * skipped. */
uint32_t ftl_free_pop(struct ssd_ftl *f, struct ssd_unit *u)
{
	if (!u->nfree)
		return SSD_NO_BLOCK;
	if (!f->fr_ok)
		free_rings(f);
	uint32_t ui = (uint32_t)(u - f->unit), bpu = f->bpu, n = u->nfree;
	uint32_t h = f->fr_head[ui];
	const uint32_t *rb = &f->fr_blk[(size_t)ui * bpu];
	uint32_t *rw = &f->fr_wear[(size_t)ui * bpu];
	uint32_t k = 0; /* list position of the block taken */
	const struct ftl_wl_bound *wb = &f->wlb[ui];
	if (f->cfg.wl_dynamic && !(wb->ok && rw[h] == wb->lo)) {
		uint32_t min = rw[h];
		for (uint32_t i = 1, j = h + 1; i < n; i++, j++) {
			if (j == bpu)
				j = 0;
			if (rw[j] < min) {
				min = rw[j];
				k = i;
			}
		}
	}
	uint32_t at = h + k >= bpu ? h + k - bpu : h + k;
	uint32_t best = rb[at];
	uint32_t best_prev = k ? rb[at ? at - 1 : bpu - 1] : SSD_NO_BLOCK;
	/* out of the ring: the shorter side moves up by one */
	uint32_t *mb = &f->fr_blk[(size_t)ui * bpu];
	if (k < n / 2) {
		for (uint32_t i = k, j = at; i > 0; i--) {
			uint32_t p = j ? j - 1 : bpu - 1;
			mb[j] = mb[p];
			rw[j] = rw[p];
			j = p;
		}
		f->fr_head[ui] = h + 1 == bpu ? 0 : h + 1;
	} else {
		for (uint32_t i = k, j = at; i + 1 < n; i++) {
			uint32_t q = j + 1 == bpu ? 0 : j + 1;
			mb[j] = mb[q];
			rw[j] = rw[q];
			j = q;
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

/* ---- data verification (only with ssd_ftl_verify_on) ---- */

/* A host write of lpn goes into slot: the slot's out-of-band area takes
 * the host's tag of the data. */
static inline void verify_host(struct ssd_ftl *f, uint32_t lpn, uint32_t slot)
{
	f->vgen[slot] = f->vsrc[lpn];
}

void ssd_ftl_write_replaced(struct ssd_ftl *f, uint32_t lpn)
{
	uint32_t slot = f->l2p[lpn];
	if (f->vgen && slot != SSD_UNMAPPED)
		verify_host(f, lpn, slot);
}

/* ---- mapping ---- */

void ftl_block_full(struct ssd_ftl *f, uint32_t ui, uint32_t blk)
{
	f->state[blk] = SSD_BLK_FULL;
	f->stamp[blk] = f->ctr.host_write_lp;
	if (ssd_flash_slc(&f->flash, blk)) {
		ftl_fold_push(f, &f->unit[ui], blk);
		if (!f->valid[blk])
			f->unit[ui].slc_empty++;
	} else
		f->gc->full(&f->gcv, f->gc_state, blk);
}

/* Give write point w of unit ui an open block: native, or SLC mode.
 * Returns 0 or SSD_ENOSPC. */
int ftl_wp_open(struct ssd_ftl *f, uint32_t ui, struct ssd_wp *w, int slc)
{
	struct ssd_unit *u = &f->unit[ui];
	uint32_t blk = slc && f->slc_static ? slc_free_pop(f, u) : ftl_free_pop(f, u);
	if (blk == SSD_NO_BLOCK)
		return SSD_ENOSPC;
	if (!is_static_slc(f, blk) && ssd_flash_set_slc(&f->flash, blk, slc))
		return SSD_ESTATE;
	if (slc)
		u->nslc++;
	f->state[blk] = SSD_BLK_OPEN;
	if (__builtin_expect(f->fdp != NULL, 0))
		ftl_fdp_opened(f, ui, w, blk);
	w->blk = blk;
	w->next = 0;
	w->fill = 0;
	w->ready = 0;
	w->cap = blk_slots(f, blk);
	/* within 5% of its endurance: its programs may fail */
	w->fragile = (uint64_t)f->wear[blk] * 20 >= (uint64_t)f->limit[blk] * 19;
	w->slow = w->fragile | w->track;
	return 0;
}

/* The page just programmed in w's block failed: retire the block (after
 * its other data has been cleaned) and write the page's data again into
 * a new block; the data is still in the controller.  Each slot is
 * remapped before its old copy is dropped, so when no block is left to
 * take it (the drive is wearing out: the caller turns it read-only) the
 * data stays mapped where it was and nothing is lost. */
int64_t ftl_program_failed(struct ssd_ftl *f, uint32_t ui,
			   struct ssd_wp *w, int64_t ready)
{
	struct ssd_unit *u = &f->unit[ui];
	uint32_t blk = w->blk, slc = ssd_flash_slc(&f->flash, blk);
	uint32_t first = blk * f->spb + w->next - f->spp;
	f->ctr.prog_fail++;
	f->check_due = 1;
	if (f->fdp) /* FDP's event: the reclaim unit's media reallocated */
		ftl_fdp_realloc(f, ui, blk, ready);
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
			if (f->ptrack) /* the failed page cannot be read */
				f->p2l[s] = SSD_UNMAPPED;
		}
		if (rc)
			return rc;
	}
	return ready;
}

int ftl_append_shared(struct ssd_ftl *f, uint32_t ui, struct ssd_wp *w,
		      int64_t ready)
{
	int64_t in = ssd_flash_load(&f->flash, ui, 1, ready);
	if (in > w->ready)
		w->ready = in;
	if (!w->fill)
		f->cstart[ui] = 1; /* a copy begins the page */
	if (++w->fill == f->spp) {
		w->fill = 0;
		f->cstart[ui] = 0;
		int64_t end = wp_program(f, ui, w, w->ready);
		if (end < 0)
			return (int)end;
		if (end > w->durable)
			w->durable = end;
	}
	return 0;
}

/* A program failure, a retirement or the turn to read-only happened
 * inside the operation now ending: check the maps once they are whole
 * again, at the end of the public call. */
static inline void check_events(struct ssd_ftl *f)
{
	if (f->check_due) {
		f->check_due = 0;
		ftl_check_run(f);
	}
}

/* ---- host operations ---- */

/* Unit ui has a partly filled host page: the host stream is in the
 * middle of it, and the rest of the page goes to the same unit.  (The
 * stream leaves a unit only after a full or padded page, so at most the
 * current unit has one.) */
static inline int host_page_open(const struct ssd_ftl *f, uint32_t ui)
{
	return f->unit[ui].host.fill || f->unit[ui].host_slc.fill;
}

/* May the host stream go on in unit ui, at or above its limit?  Only to
 * finish a page it is in the middle of: with gc_copies = host a page a
 * GC copy began is not the stream's (copies fill the pages of every
 * unit, and a stream that stayed for them would never leave a unit over
 * its limit). */
static inline int host_stays(const struct ssd_ftl *f, uint32_t ui)
{
	if (f->pid) /* a placement handle's own page (ftl_fdp.c) */
		return ftl_fdp_page_open(f, ui);
	return host_page_open(f, ui) && !(f->cstart && f->cstart[ui]);
}

/* The unit for a new host page: the first from `from` on in round robin
 * over the stream's units (all of them; with FDP's reclaim groups the
 * group's, ftl_fdp.c, then any other should the group be full) whose
 * valid data is below its limit (the page's own old copy, which the
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
	for (uint32_t k = 0, ui = from; k < f->uend - f->ulo; k++) {
		uint64_t v = (uint64_t)f->uvalid[ui] - (ui == ou);
		if (v < f->ulimit[ui])
			return ui;
		ui = ui + 1 >= f->uend ? f->ulo : ui + 1;
	}
	if (f->uend - f->ulo == f->units)
		return SSD_NO_BLOCK;
	for (uint32_t ui = 0; ui < f->units; ui++) /* a full reclaim group */
		if ((uint64_t)f->uvalid[ui] - (ui == ou) < f->ulimit[ui])
			return ui;
	return SSD_NO_BLOCK;
}

static inline int64_t ftl_write(struct ssd_ftl *f, uint32_t lpn, int64_t t)
{
	if (f->readonly && !f->recovering) {
		f->ctr.ro_reject++;
		return SSD_EROFS;
	}
	if (__builtin_expect(f->cfg.mapping != SSD_MAP_PAGE, 0))
		return f->zn ? ftl_zone_write(f, lpn, t) : ftl_bm_write(f, lpn, t);
	uint32_t ui = f->cur_unit;
	if (f->uvalid[ui] >= f->ulimit[ui] && !host_stays(f, ui)) {
		ui = unit_pick(f, ui, lpn);
		if (ui == SSD_NO_BLOCK)
			return ftl_no_room(f, f->cur_unit, "no allocation unit has room for host data");
		f->cur_unit = ui;
	}
	struct ssd_unit *u = &f->unit[ui];
	struct ssd_wp *w = &u->host;
	if (__builtin_expect(f->fdp != NULL, 0)) {
		ftl_fdp_wrote(f, lpn);
		if (f->pid)
			w = ftl_fdp_host(f, ui);
	}
	if (f->cfg.slc_cache && (u->host_slc.blk != SSD_NO_BLOCK || slc_room(f, u) ||
				 (u->slc_empty && ftl_slc_reclaim(f, ui, t)))) {
		w = &u->host_slc;
		if (w->blk == SSD_NO_BLOCK) {
			int rc = ftl_wp_open(f, ui, w, 1);
			if (rc == SSD_ENOSPC)
				return ftl_no_room(f, ui, "no free block for the SLC cache");
			if (rc)
				return rc;
		}
	} else if (w->blk == SSD_NO_BLOCK) {
		if (u->nfree < gc_floor(f)) {
			int rc = ftl_gc_foreground(f, ui, t);
			if (rc == SSD_ENOSPC)
				return ftl_no_room(f, ui, "GC made no progress");
			if (rc)
				return rc;
			if (f->readonly && !f->recovering) {
				f->ctr.ro_reject++;
				return SSD_EROFS;
			}
		}
		/* with gc_copies = host the cleaning may have opened it */
		int rc = w->blk == SSD_NO_BLOCK ? ftl_wp_open(f, ui, w, 0) : 0;
		if (rc == SSD_ENOSPC)
			return ftl_no_room(f, ui, "no free block for host data");
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
	if (f->vgen) {
		verify_host(f, lpn, slot);
		if (f->ptrack) /* what this write supersedes (tracking needs the tags) */
			ftl_power_sup(f, ui, w, old);
	}
	ssd_bit_set(f->vbits, slot);
	f->valid[w->blk]++;
	f->uvalid[ui]++;
	f->ctr.host_write_lp++;
	if (w == &u->host_slc)
		f->ctr.slc_write_lp++;
	/* loads on a unit's channel end in order, so this one is the latest
	 * of its page, GC copies sharing it (gc_copies = host) included */
	int64_t done = ssd_flash_load(&f->flash, ui, 1, t);
	w->ready = done;
	if (++w->fill == f->spp) {
		w->fill = 0;
		if (f->cstart)
			f->cstart[ui] = 0;
		f->cur_unit = ui + 1 >= f->uend ? f->ulo : ui + 1;
		int64_t end = wp_program(f, ui, w, done);
		if (end == SSD_ENOSPC)
			return ftl_no_room(f, ui, "no free block to rewrite a failed page");
		if (end < 0)
			return end;
		w->durable = ssd_max64(w->durable, end);
		if (f->cfg.gc_pacing && u->nfree <= f->fg_blocks) {
			int rc = ftl_gc_paced(f, ui, t);
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
		uint32_t blk = ssd_udiv(slot, f->div_spb);
		if (stage == 2) {
			if (f->gc->prefetch && f->state[blk] == SSD_BLK_FULL)
				f->gc->prefetch(&f->gcv, f->gc_state, blk);
			continue;
		}
		__builtin_prefetch(&f->vbits[slot >> 6], 1);
		__builtin_prefetch(&f->valid[blk], 1);
		__builtin_prefetch(&f->state[blk], 0);
		__builtin_prefetch(&f->flash.nand.slc[blk], 0);
		__builtin_prefetch(&f->next[blk], 1);
		__builtin_prefetch(&f->prev[blk], 1);
	}
}

int ssd_ftl_prefetch_deep(const struct ssd_ftl *f)
{
	return f->nblocks >= 65536 && f->gc->prefetch;
}

static inline __attribute__((always_inline)) int64_t
ftl_read(struct ssd_ftl *f, uint32_t lpn, uint32_t n, int64_t t)
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

/* With the checker on: a read that did an array read (or a map-page
 * read it waited for) takes at least the shortest tR and a transfer;
 * then the checks a broken timing rule made due. */
__attribute__((cold, noinline)) static int64_t
ftl_read_checked(struct ssd_ftl *f, uint32_t lpn, uint32_t n, int64_t t)
{
	uint64_t reads = f->ctr.nand_read;
	int64_t done = ftl_read(f, lpn, n, t);
	int nand = f->ctr.nand_read != reads;
	ftl_check_floor(f, "read", lpn, n, t, done,
			nand ? f->floor_read + f->flash.xfer_lp : 0,
			"an array read and its transfer");
	check_events(f);
	return done;
}

int64_t ssd_ftl_read(struct ssd_ftl *f, uint32_t lpn, uint32_t n, int64_t t)
{
	if (__builtin_expect(f->check_every != 0, 0))
		return ftl_read_checked(f, lpn, n, t);
	return ftl_read(f, lpn, n, t);
}

static int64_t ftl_merge_read(struct ssd_ftl *f, uint32_t lpn, int64_t t)
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

int64_t ssd_ftl_merge_read(struct ssd_ftl *f, uint32_t lpn, int64_t t)
{
	uint64_t reads = f->ctr.nand_read;
	int64_t done = ftl_merge_read(f, lpn, t);
	if (f->check_every) {
		ftl_check_floor(f, "merge read", lpn, 1, t, done,
				f->ctr.nand_read != reads
					? f->floor_read + f->flash.xfer_lp : 0,
				"an array read and its transfer");
		check_events(f);
	}
	return done;
}

/* Pad the open host page of w from its fill and program it: its data
 * is already in the register (a page of padding alone when fill is 0). */
static int64_t pad_page(struct ssd_ftl *f, uint32_t ui, struct ssd_wp *w,
			int64_t t)
{
	uint32_t pad = f->spp - w->fill;
	int64_t ready = ssd_max64(t, w->ready);
	w->fill = 0;
	w->ready = 0;
	if (f->cstart && w == &f->unit[ui].host)
		f->cstart[ui] = 0;
	if (f->ptrack) /* padding holds no page a recovery may find */
		for (uint32_t s = w->blk * f->spb + w->next; s < w->blk * f->spb + w->next + pad; s++)
			f->p2l[s] = SSD_UNMAPPED;
	w->next += pad; /* padding slots stay invalid */
	f->ctr.pad_lp += pad;
	int64_t end = wp_program(f, ui, w, ready);
	if (end > w->durable) /* a later flush waits for it too */
		w->durable = end;
	return end;
}

/* Pad the open host page of w (if partly filled) and program it. */
int64_t ftl_wp_pad(struct ssd_ftl *f, uint32_t ui, struct ssd_wp *w,
		   int64_t t)
{
	if (w->blk == SSD_NO_BLOCK || w->fill == 0)
		return t;
	return pad_page(f, ui, w, t);
}

/* The same, and then, where the controller guards paired pages, whole
 * pages of padding until the wordline is complete: until then a cut
 * during the program of its next page would destroy the pages below. */
int64_t ftl_wl_pad(struct ssd_ftl *f, uint32_t ui, struct ssd_wp *w,
		   int64_t t)
{
	int64_t end = ftl_wp_pad(f, ui, w, t);
	while (end >= 0 && ftl_wl_guard(f) && w->blk != SSD_NO_BLOCK &&
	       ftl_wl_open(f, w->blk))
		end = pad_page(f, ui, w, ssd_max64(t, end));
	return end;
}

static int64_t ftl_flush(struct ssd_ftl *f, int64_t t)
{
	int64_t done = t;
	int padded = host_page_open(f, f->cur_unit);
	f->ctr.flushes++;
	if (f->bm)
		return ftl_bm_flush(f, t);
	if (f->zn)
		return ftl_zone_flush(f, t);
	if (f->fdp) {
		done = ftl_fdp_pad(f, t);
		if (done < 0)
			return done;
	}
	for (uint32_t ui = 0; ui < f->units; ui++) {
		struct ssd_unit *u = &f->unit[ui];
		/* host data only: GC copies stay durable in their victim
		 * until their page fills (ftl_erase_pending) */
		int64_t a = ftl_wl_pad(f, ui, &u->host, t);
		int64_t b = ftl_wl_pad(f, ui, &u->host_slc, t);
		if (a < 0)
			return a;
		if (b < 0)
			return b;
		done = ssd_max64(done, ssd_max64(a, b));
		/* and the full pages still programming */
		done = ssd_max64(done, ssd_max64(u->host.durable,
						 u->host_slc.durable));
	}
	if (padded) {
		/* the current unit's page went out padded: the next host
		 * page starts on the next unit, as after a full page */
		f->cur_unit = f->cur_unit + 1 >= f->uend ? f->ulo : f->cur_unit + 1;
	}
	return done;
}

int64_t ssd_ftl_flush(struct ssd_ftl *f, int64_t t)
{
	uint64_t progs = f->ctr.nand_prog;
	int64_t r = ftl_flush(f, t);
	if (r == SSD_ENOSPC)
		r = ftl_no_room(f, f->cur_unit, "no free block for a padded page");
	if (f->ptrack && r >= 0)
		ftl_power_flush(f, r);
	if (f->check_every && r >= 0)
		ftl_check_floor(f, "flush", 0, 0, t, r,
				f->ctr.nand_prog != progs ? f->floor_prog : 0,
				"the program of a padded page");
	check_events(f);
	return r;
}

int ssd_ftl_idle(struct ssd_ftl *f, int64_t from, int64_t until)
{
	int rc = 0;
	if (f->bm)
		rc = ftl_bm_idle(f, from, until);
	for (uint32_t ui = 0; ui < f->units && !rc && !f->bm && !f->zn; ui++)
		rc = ftl_gc_idle(f, ui, from, until);
	check_events(f);
	return rc;
}

/* ---- fragmentation (ftl.h) ---- */

static inline int lp_in_flash(const struct ssd_ftl *f, uint32_t lpn)
{
	return f->l2p[lpn] != SSD_UNMAPPED &&
	       !(f->tbits && ssd_bit_test(f->tbits, lpn));
}

/* Slot b physically follows slot a: the next slot of the same block, or
 * a ends a NAND page and b starts a page of the next unit in round
 * robin (where the host stream goes after a page; with one unit only
 * the first rule holds). */
static inline int slot_follows(const struct ssd_ftl *f, uint32_t a, uint32_t b)
{
	uint32_t ba = ssd_udiv(a, f->div_spb);
	if (b == a + 1 && ssd_udiv(b, f->div_spb) == ba)
		return 1;
	if (f->units < 2 || (a + 1) % f->spp || b % f->spp)
		return 0;
	uint32_t ua = ssd_ftl_unit_of(f, ba);
	uint32_t ub = ssd_ftl_unit_of(f, ssd_udiv(b, f->div_spb));
	return ub == (ua + 1 == f->units ? 0 : ua + 1);
}

int ssd_ftl_contiguous(const struct ssd_ftl *f, uint32_t lpn)
{
	if (f->nlp < 2 || lpn >= f->nlp - 1 || !lp_in_flash(f, lpn) ||
	    !lp_in_flash(f, lpn + 1))
		return 0;
	return slot_follows(f, f->l2p[lpn], f->l2p[lpn + 1]);
}

#define FRAG_WINDOWS 4096
#define FRAG_WINDOW_LP 32

void ssd_ftl_frag(const struct ssd_ftl *f, uint64_t *pages, uint64_t *pieces)
{
	uint32_t win = f->nlp < FRAG_WINDOW_LP ? f->nlp : FRAG_WINDOW_LP;
	uint64_t nw = win ? f->nlp / win : 0;
	if (nw > FRAG_WINDOWS)
		nw = FRAG_WINDOWS;
	*pages = *pieces = 0;
	for (uint64_t w = 0; w < nw; w++) {
		uint32_t lo = (uint32_t)(w * (f->nlp - win) / (nw > 1 ? nw - 1 : 1));
		int prev = 0; /* the page before is in the flash, in this window */
		for (uint32_t l = lo; l < lo + win; l++) {
			if (!lp_in_flash(f, l)) {
				prev = 0;
				continue;
			}
			*pages += 1;
			if (!prev || !slot_follows(f, f->l2p[l - 1], f->l2p[l]))
				*pieces += 1;
			prev = 1;
		}
	}
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

void ssd_ftl_set_check_every(struct ssd_ftl *f, uint32_t victims)
{
	f->check_every = victims;
	/* the timing checks: the flash backend's accounting, and the
	 * shortest flash work commands are held to */
	ssd_flash_account(&f->flash, victims != 0, &f->check_due);
	ssd_flash_min_times(&f->flash, f->slc_static || f->slc_max,
			    &f->floor_read, &f->floor_prog);
}

uint64_t ssd_ftl_check_runs(const struct ssd_ftl *f)
{
	return f->check_runs;
}

const char *ssd_ftl_error(const struct ssd_ftl *f)
{
	return f->err_msg;
}

uint32_t ssd_ftl_map_slot(const struct ssd_ftl *f, uint32_t lpn)
{
	return f->l2p[lpn];
}

int64_t ssd_ftl_xfer_lp(const struct ssd_ftl *f)
{
	return f->flash.xfer_lp;
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
	snprintf(f->check_msg, sizeof f->check_msg, "%s", msg);
	ftl_set_check_failed(f, 1);
}

void ssd_ftl_fault_readonly(struct ssd_ftl *f)
{
	f->readonly = 1;
	f->check_due = 1; /* as the real turn: the next call checks */
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

/* The counts of f that its config decides (f->cfg set), from g. */
static void ftl_shape(struct ssd_ftl *f, const struct ssd_geometry *g)
{
	f->units = g->units;
	f->ulo = 0;
	f->uend = g->units;
	f->bpu = g->blocks_per_unit;
	f->ppb = g->pages_per_block;
	f->spp = g->lp_per_page;
	f->spb = g->lp_per_block;
	f->bits = g->bits;
	f->spb_slc = g->lp_per_block_slc;
	f->nblocks = (uint32_t)g->blocks;
	f->nlp = (uint32_t)ssd_config_host_lp(&f->cfg);
}

uint64_t ssd_ftl_mem(const struct ssd_config *c, unsigned uses)
{
	const struct ssd_ftl *f = NULL; /* for sizeof only */
	struct ssd_geometry g;
	ssd_config_geometry(c, &g);
	uint64_t nlp = ssd_config_host_lp(c), nslots = g.physical_lp,
		 nb = g.blocks, units = g.units;
	uint64_t b = sizeof *f + nlp * sizeof *f->l2p + nslots * sizeof *f->p2l +
		     (nslots + 63) / 64 * sizeof *f->vbits +
		     units * g.lp_per_block * sizeof *f->vlist +
		     nb * (sizeof *f->valid + sizeof *f->next + sizeof *f->prev +
			   sizeof *f->fr_blk + sizeof *f->fr_wear +
			   sizeof *f->stamp + sizeof *f->state + sizeof *f->wear +
			   sizeof *f->limit) +
		     units * (sizeof *f->unit + sizeof *f->uvalid + sizeof *f->ulimit +
			      sizeof *f->wlb + sizeof *f->fr_head);
	if (c->map_cache)
		b += g.map_pages * (sizeof *f->mc_next + sizeof *f->mc_prev +
				    sizeof *f->mc_state);
	if (c->trim_mode != SSD_TRIM_IMMEDIATE)
		b += (nlp + 63) / 64 * sizeof *f->tbits;
	if (c->gc_copies == SSD_GC_COPIES_HOST)
		b += units;
	struct ssd_gc_view v = {.units = g.units, .bpu = g.blocks_per_unit,
				.nblocks = (uint32_t)nb, .spb = g.lp_per_block};
	b += ssd_gc_mem(c->gc_policy, &v);
	b += ssd_flash_mem(c, (uint32_t)nb);
	struct ssd_ftl shell = {.cfg = *c};
	ftl_shape(&shell, &g);
	if (c->fdp && c->mapping == SSD_MAP_PAGE)
		b += ftl_fdp_mem(&shell);
	if (c->mapping == SSD_MAP_ZONE)
		b += ftl_zone_mem(&shell);
	else if (c->mapping != SSD_MAP_PAGE)
		b += ftl_bm_mem(&shell);
	if (uses & (SSD_MEM_VERIFY | SSD_MEM_POWER))
		b += ssd_ftl_verify_mem(c);
	if (uses & SSD_MEM_POWER)
		b += ftl_power_mem(&shell);
	return b;
}

uint64_t ssd_ftl_verify_mem(const struct ssd_config *c)
{
	const struct ssd_ftl *f = NULL;
	struct ssd_geometry g;
	ssd_config_geometry(c, &g);
	return g.blocks * g.lp_per_block * sizeof *f->vgen;
}

int ssd_ftl_create(const struct ssd_config *c, uint64_t seed,
		   struct ssd_ftl **out)
{
	struct ssd_ftl *f = calloc(1, sizeof *f);
	if (!f)
		return SSD_ENOMEM;
	f->cfg = *c;
	struct ssd_geometry g;
	ssd_config_geometry(c, &g);
	uint64_t units = g.units;
	ftl_shape(f, &g);
	f->div_spp = ssd_udiv_init(f->spp);
	f->div_spb = ssd_udiv_init(f->spb);
	f->div_bpu = ssd_udiv_init(f->bpu);
	uint64_t nblocks = g.blocks;
	uint64_t nslots = g.physical_lp;
	uint64_t nlp = ssd_config_host_lp(c);
	if (nslots >= SSD_UNMAPPED || nlp >= SSD_UNMAPPED || f->bits < 1) {
		free(f);
		return SSD_EINVAL; /* 32-bit slot numbers: up to 16 TiB */
	}
	f->fg_blocks = c->gc_fg_blocks;
	f->fg_target = c->gc_fg_target > c->gc_fg_blocks + 1 ? c->gc_fg_target
							     : c->gc_fg_blocks + 1;
	f->bg_blocks = c->gc_bg_blocks;
	f->reserve = (uint32_t)g.reserve_blocks;
	/* SLC cache size in blocks per unit */
	if (g.slc_blocks) {
		uint64_t n = g.slc_blocks;
		if (c->slc_cache == SSD_SLC_STATIC)
			f->slc_static = (uint32_t)(n < f->bpu ? n : f->bpu);
		else
			f->slc_max = (uint32_t)(n < f->bpu ? n : f->bpu);
	}
	f->slc_wear = (uint32_t)(1000ull * c->pe_cycles / (c->slc_pe_cycles ? c->slc_pe_cycles : 1));
	if (!f->slc_wear)
		f->slc_wear = 1;
	f->need_blocks = g.data_blocks + units * g.reserve_blocks;
	ssd_rng_seed(&f->rng, seed ^ 0x6763u);
	f->l2p = big_alloc(nlp * sizeof *f->l2p);
	f->p2l = big_alloc(nslots * sizeof *f->p2l);
	f->vbits = calloc((nslots + 63) / 64, sizeof *f->vbits);
	f->vlist = calloc(units * f->spb, sizeof *f->vlist); /* zeroed: a snapshot saves it whole */
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
	f->wlb = calloc(units, sizeof *f->wlb);
	f->fr_blk = malloc((size_t)nblocks * sizeof *f->fr_blk);
	f->fr_wear = malloc((size_t)nblocks * sizeof *f->fr_wear);
	f->fr_head = calloc(units, sizeof *f->fr_head);
	f->fr_ok = 1; /* every list empty */
	f->gc = ssd_gc_find(c->gc_policy);
	if (c->map_cache) {
		f->mc_epp = g.map_epp;
		f->mc_pages = (uint32_t)g.map_pages;
		uint64_t cap = c->map_cache / c->page_size;
		f->mc_cap = (uint32_t)(cap < 1 ? 1 : cap > f->mc_pages ? f->mc_pages : cap);
		f->mc_head = f->mc_tail = SSD_NO_BLOCK;
		f->mc_next = malloc(f->mc_pages * sizeof *f->mc_next);
		f->mc_prev = malloc(f->mc_pages * sizeof *f->mc_prev);
		f->mc_state = calloc(f->mc_pages, 1);
	}
	if (c->trim_mode != SSD_TRIM_IMMEDIATE)
		f->tbits = calloc((nlp + 63) / 64, sizeof *f->tbits);
	if (c->gc_copies == SSD_GC_COPIES_HOST)
		f->cstart = calloc(units, 1);
	int bad_gc = !f->gc;
	if (!f->l2p || !f->p2l || !f->vbits || !f->vlist || !f->valid ||
	    !f->next || !f->prev || !f->stamp || !f->state || !f->wear ||
	    !f->limit || !f->unit || !f->uvalid || !f->ulimit || !f->wlb ||
	    !f->fr_blk || !f->fr_wear || !f->fr_head || bad_gc ||
	    (c->map_cache && (!f->mc_next || !f->mc_prev || !f->mc_state)) ||
	    (c->trim_mode != SSD_TRIM_IMMEDIATE && !f->tbits) ||
	    (c->gc_copies == SSD_GC_COPIES_HOST && !f->cstart) ||
	    ssd_flash_init(&f->flash, c, f->nblocks, &f->ctr, seed ^ 0x7265u)) {
		ssd_ftl_destroy(f);
		return bad_gc ? SSD_EINVAL : SSD_ENOMEM;
	}
	memset(f->l2p, 0xff, nlp * sizeof *f->l2p);
	memset(f->p2l, 0xff, nslots * sizeof *f->p2l);
	ftl_draw_limits(f);
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
		f->wlb[ui] = (struct ftl_wl_bound){.lo = 0, .lo_n = f->bpu,
						   .hi = 0, .ok = 1};
	}
	for (uint32_t b = 0; b < f->nblocks; b++) {
		if (is_static_slc(f, b))
			ssd_flash_set_slc(&f->flash, b, 1);
		else
			good_native++;
		ftl_free_push(f, b);
	}
	if (c->mapping == SSD_MAP_ZONE ? ftl_zone_init(f)
	    : c->mapping != SSD_MAP_PAGE ? ftl_bm_init(f)
	    : c->fdp && ftl_fdp_init(f)) {
		ssd_ftl_destroy(f);
		return SSD_ENOMEM;
	}
	f->spare_initial = good_native > f->need_blocks ? good_native - f->need_blocks : 0;
	ftl_unit_limits(f);
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
	free(f->wlb);
	free(f->fr_blk);
	free(f->fr_wear);
	free(f->fr_head);
	free(f->mc_next);
	free(f->mc_prev);
	free(f->mc_state);
	free(f->tbits);
	free(f->cstart);
	free(f->tq);
	ftl_power_free(f);
	ftl_bm_free(f);
	ftl_zone_free(f);
	ftl_fdp_free(f);
	free(f);
}
