/*
 * ftl_snap.c -- the FTL's part of a drive snapshot (docs/snapshots.md):
 * its state written as sections of the snapshot file (base/snapfile.h)
 * and read back into an FTL freshly built for the same configuration.
 *
 * What a fresh FTL derives from its configuration (the geometry, the
 * reserve, the SLC cache's size, the policy's sizes, the view's
 * pointers) is not saved: building the FTL again gives it.  What the
 * drive's life changed is: the maps (l2p, p2l, the valid bits and
 * counts, the victim lists), the blocks (states, links, fill stamps,
 * wear and endurance limits), the units (write points, pools, the fold
 * queue, the victim in progress, paced GC's debt), the map cache's LRU,
 * the TRIM queue, the counters, the generator, the policy's index (its
 * regions, gc.h) and the flash below (nand/flash.c), and the
 * out-of-band tags of data verification while they are kept.  Each
 * array is one section, written whole from memory: a snapshot is as big
 * as those arrays and moves at the disk's speed.
 *
 * A zoned drive's zones (ftl_zone.c: each zone's blocks, positions and
 * write pointer) and flexible data placement's handles (ftl_fdp.c: their
 * write points, rotations and the blocks' owners) follow in sections of
 * their own.  Not saved, and so refused: power-loss tracking (its lists
 * of programs, erases and TRIMs, ftl_power.c), block and log-block
 * mapping (ftl_bm.c), and a drive whose FTL failed.  The checker's state (check_every, its
 * counts, the flash's timing accounting) is the run's, not the drive's.
 *
 * The scalars go through struct snap_scalars, a layout of its own: the
 * file does not depend on the order of struct ssd_ftl's fields.  The
 * unit records and the counters are written as their structs, whose
 * sizes are asserted below: a change to them must raise SSD_SNAP_VERSION
 * and update this file.
 */
#include "ftl/ftl.h"
#include "ftl/ftl_int.h"
#include "base/snapfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T SSD_SNAP_TAG

#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(struct ssd_wp) == 48,
	       "struct ssd_wp changed: update ftl_snap.c and SSD_SNAP_VERSION");
_Static_assert(sizeof(struct ssd_unit) == 232,
	       "struct ssd_unit changed: update ftl_snap.c and SSD_SNAP_VERSION");
_Static_assert(sizeof(struct ssd_counters) == 2384,
	       "struct ssd_counters changed: update ftl_snap.c and "
	       "SSD_SNAP_VERSION");
#endif

/* The FTL's scalars that change as the drive lives. */
struct snap_scalars {
	uint64_t bad, mapped, tq_pages;
	uint32_t readonly, cur_unit;
	uint32_t mc_n, mc_head, mc_tail;
	uint32_t tq_head, tq_len, tq_cap;
	uint32_t has_vgen, pad;
	struct ssd_rng rng;
};

const char *ssd_ftl_snap_refusal(const struct ssd_ftl *f, char *buf,
				 size_t n)
{
	if (f->ptrack)
		return "power-loss tracking is on (its lists of programs, "
		       "erases and TRIMs are not saved)";
	if (f->bm) {
		snprintf(buf, n, "mapping = %s is not saved yet (page "
			 "mapping is)", ssd_mapping_name(f->cfg.mapping));
		return buf;
	}
	if (f->err_msg[0]) {
		snprintf(buf, n, "the drive failed: %s", f->err_msg);
		return buf;
	}
	if (f->check_failed)
		return "the invariant checker failed on it";
	return NULL;
}

/* The ring a queue of len ranges is kept in after a load: none for a
 * queue never used (cap 0), else 64 doubled until it holds them (the
 * ring's size changes no result, only memory). */
static uint32_t tq_ring(uint32_t len, uint32_t cap)
{
	if (!cap && !len)
		return 0;
	uint32_t c = 64;
	while (c < len && c < (UINT32_MAX >> 1) + 1)
		c *= 2;
	return c < len ? len : c;
}

static uint64_t nslots(const struct ssd_ftl *f)
{
	return (uint64_t)f->nblocks * f->spb;
}

/* The FTL's arrays a snapshot holds whole, in the file's order: one list
 * for the save and the load, so that the two cannot drift apart. */
struct snap_arr {
	uint32_t tag;
	const void *p;
	size_t bytes;
};
#define SNAP_ARRAYS 20

static int snap_arrays(const struct ssd_ftl *f, struct snap_arr *a)
{
	size_t nb = f->nblocks;
	int n = 0;
#define ARR(tag, ptr, len) (a[n++] = (struct snap_arr){(tag), (ptr), (len)})
	ARR(T('C','T','R','S'), &f->ctr, sizeof f->ctr);
	ARR(T('L','2','P',' '), f->l2p, (size_t)f->nlp * sizeof *f->l2p);
	ARR(T('P','2','L',' '), f->p2l, nslots(f) * sizeof *f->p2l);
	ARR(T('V','B','I','T'), f->vbits, (nslots(f) + 63) / 64 * sizeof *f->vbits);
	ARR(T('V','L','S','T'), f->vlist, (size_t)f->units * f->spb * sizeof *f->vlist);
	ARR(T('V','A','L','D'), f->valid, nb * sizeof *f->valid);
	ARR(T('N','E','X','T'), f->next, nb * sizeof *f->next);
	ARR(T('P','R','E','V'), f->prev, nb * sizeof *f->prev);
	ARR(T('S','T','M','P'), f->stamp, nb * sizeof *f->stamp);
	ARR(T('S','T','A','T'), f->state, nb * sizeof *f->state);
	ARR(T('W','E','A','R'), f->wear, nb * sizeof *f->wear);
	ARR(T('L','I','M','T'), f->limit, nb * sizeof *f->limit);
	ARR(T('U','N','I','T'), f->unit, f->units * sizeof *f->unit);
	ARR(T('U','V','A','L'), f->uvalid, f->units * sizeof *f->uvalid);
	ARR(T('U','L','I','M'), f->ulimit, f->units * sizeof *f->ulimit);
	if (f->mc_pages) {
		ARR(T('M','C','N','X'), f->mc_next, f->mc_pages * sizeof *f->mc_next);
		ARR(T('M','C','P','V'), f->mc_prev, f->mc_pages * sizeof *f->mc_prev);
		ARR(T('M','C','S','T'), f->mc_state, f->mc_pages);
	}
	if (f->tbits)
		ARR(T('T','B','I','T'), f->tbits, ((size_t)f->nlp + 63) / 64 * sizeof *f->tbits);
	if (f->cstart)
		ARR(T('C','S','T','A'), f->cstart, f->units);
#undef ARR
	return n;
}

void ssd_ftl_snap_save(const struct ssd_ftl *f, struct ssd_snapw *w)
{
	struct snap_scalars s;
	memset(&s, 0, sizeof s);
	s.bad = f->bad;
	s.mapped = f->mapped;
	s.tq_pages = f->tq_pages;
	s.readonly = (uint32_t)f->readonly;
	s.cur_unit = f->cur_unit;
	s.mc_n = f->mc_n;
	s.mc_head = f->mc_head;
	s.mc_tail = f->mc_tail;
	s.tq_head = 0;            /* the queue in order, in a ring of */
	s.tq_len = f->tq_len;     /* the size it would have grown to */
	s.tq_cap = tq_ring(f->tq_len, f->tq_cap);
	s.has_vgen = f->vgen != NULL;
	s.rng = f->rng;
	ssd_snapw_array(w, T('F','T','L','S'), &s, sizeof s);
	struct snap_arr arr[SNAP_ARRAYS];
	int na = snap_arrays(f, arr);
	for (int i = 0; i < na; i++)
		ssd_snapw_array(w, arr[i].tag, arr[i].p, arr[i].bytes);
	ssd_snapw_section(w, T('T','R','M','Q'), f->tq_len * sizeof *f->tq);
	for (uint32_t i = 0; i < f->tq_len; i++)
		ssd_snapw_put(w, &f->tq[(f->tq_head + i) % f->tq_cap],
			      sizeof *f->tq);
	struct ssd_gc_region r[SSD_GC_REGIONS];
	int nr = f->gc->regions(&f->gcv, f->gc_state, r);
	for (int i = 0; i < nr; i++)
		ssd_snapw_array(w, T('G','C','R','0' + i), r[i].p, r[i].bytes);
	ssd_flash_snap_save(&f->flash, w);
	if (f->vgen)
		ssd_snapw_array(w, T('V','G','E','N'), f->vgen,
				nslots(f) * sizeof *f->vgen);
	if (f->zn)
		ftl_zone_snap_save(f, w);
	if (f->fdp)
		ftl_fdp_snap_save(f, w);
}

/* A value read back must lie in [0, n) (or be `none`). */
static int in_range(struct ssd_snapr *r, const char *what, uint32_t v,
		    uint32_t n, uint32_t none)
{
	if (v < n || v == none)
		return 1;
	ssd_snapr_fail(r, "%s %u is out of range (%u)", what, v, n);
	return 0;
}

int ssd_ftl_snap_load(struct ssd_ftl *f, struct ssd_snapr *r)
{
	struct snap_scalars s;
	int rc = ssd_snapr_array(r, T('F','T','L','S'), &s, sizeof s);
	if (rc)
		return rc;
	if (!in_range(r, "the host unit", s.cur_unit, f->units, f->units) ||
	    !in_range(r, "the map cache's size", s.mc_n, f->mc_cap + 1, 0) ||
	    (f->mc_pages &&
	     (!in_range(r, "the map cache's head", s.mc_head, f->mc_pages,
			SSD_NO_BLOCK) ||
	      !in_range(r, "the map cache's tail", s.mc_tail, f->mc_pages,
			SSD_NO_BLOCK))) ||
	    !in_range(r, "the TRIM queue's head", s.tq_head, 1, 0) ||
	    (s.tq_len && !f->tbits &&
	     !in_range(r, "a TRIM queue without queued TRIM", s.tq_len, 0, 0)))
		return SSD_EPARSE;
	/* the queue's ranges are in the file: no more than it holds */
	if ((uint64_t)s.tq_len * sizeof *f->tq > ssd_snapr_left(r) ||
	    s.tq_cap != tq_ring(s.tq_len, s.tq_cap)) {
		ssd_snapr_fail(r, "the TRIM queue's length %u does not fit the "
			       "file", s.tq_len);
		return SSD_EPARSE;
	}
	memset(f->wlb, 0, f->units * sizeof *f->wlb); /* derived: rescanned */
	f->fr_ok = 0;                                 /* and rebuilt */
	f->bad = s.bad;
	f->mapped = s.mapped;
	f->tq_pages = s.tq_pages;
	f->readonly = (int)s.readonly;
	f->cur_unit = s.cur_unit;
	f->mc_n = s.mc_n;
	f->mc_head = s.mc_head;
	f->mc_tail = s.mc_tail;
	f->rng = s.rng;
	if (s.tq_cap) {
		struct ssd_trim_range *q = malloc(s.tq_cap * sizeof *q);
		if (!q)
			return SSD_ENOMEM;
		free(f->tq);
		f->tq = q;
	}
	f->tq_head = s.tq_head;
	f->tq_len = s.tq_len;
	f->tq_cap = s.tq_cap;
	struct snap_arr arr[SNAP_ARRAYS];
	int na = snap_arrays(f, arr);
	for (int i = 0; i < na; i++) /* f is the loader's own: writable */
		if ((rc = ssd_snapr_array(r, arr[i].tag, (void *)arr[i].p,
					  arr[i].bytes)))
			return rc;
	if ((rc = ssd_snapr_section(r, T('T','R','M','Q'),
				    f->tq_len * sizeof *f->tq)) ||
	    (rc = ssd_snapr_get(r, f->tq, f->tq_len * sizeof *f->tq)))
		return rc;
	struct ssd_gc_region g[SSD_GC_REGIONS];
	int nr = f->gc->regions(&f->gcv, f->gc_state, g);
	for (int i = 0; i < nr; i++)
		if ((rc = ssd_snapr_array(r, T('G','C','R','0' + i), g[i].p,
					  g[i].bytes)))
			return rc;
	if ((rc = ssd_flash_snap_load(&f->flash, r)))
		return rc;
	if (s.has_vgen) {
		if ((rc = ssd_ftl_verify_on(f, f->vsrc)))
			return rc;
		if ((rc = ssd_snapr_array(r, T('V','G','E','N'), f->vgen,
					  nslots(f) * sizeof *f->vgen)))
			return rc;
	}
	if ((f->zn && (rc = ftl_zone_snap_load(f, r))) ||
	    (f->fdp && (rc = ftl_fdp_snap_load(f, r))))
		return rc;
	/* every slot and block number the file gave is checked before a
	 * command could follow it (the maps themselves by the checker) */
	for (uint32_t ui = 0; ui < f->units; ui++) {
		const struct ssd_unit *u = &f->unit[ui];
		const struct ssd_wp *wp[3] = {&u->host, &u->host_slc, &u->gc};
		uint32_t lo = ui * f->bpu;
		for (int k = 0; k < 3; k++)
			if (wp[k]->blk != SSD_NO_BLOCK &&
			    (wp[k]->blk - lo >= f->bpu || wp[k]->next > f->spb)) {
				ssd_snapr_fail(r, "unit %u's write point is "
					       "outside it", ui);
				return SSD_EPARSE;
			}
		if (u->vcount > f->spb || u->vpos > u->vcount) {
			ssd_snapr_fail(r, "unit %u's victim list is out of "
				       "range", ui);
			return SSD_EPARSE;
		}
	}
	for (uint32_t ui = 0; ui < f->units; ui++) {
		const struct ssd_unit *u = &f->unit[ui];
		const uint32_t blk[] = {u->free_head, u->free_tail,
					u->slc_free_head, u->fold_head,
					u->fold_tail, u->retire_head,
					u->pend_head, u->victim, u->wl_victim};
		for (size_t k = 0; k < sizeof blk / sizeof blk[0]; k++)
			if (!in_range(r, "a unit's block", blk[k], f->nblocks,
				      SSD_NO_BLOCK))
				return SSD_EPARSE;
		if (u->nfree > f->bpu || u->nslc_free > f->bpu ||
		    u->nslc > f->bpu || u->slc_empty > f->bpu) {
			ssd_snapr_fail(r, "unit %u's pool counts are out of "
				       "range", ui);
			return SSD_EPARSE;
		}
		for (uint32_t i = u->vpos; i < u->vcount; i++)
			if (!in_range(r, "a victim's slot",
				      f->vlist[(size_t)ui * f->spb + i],
				      (uint32_t)nslots(f), SSD_UNMAPPED))
				return SSD_EPARSE;
	}
	for (uint32_t lpn = 0; lpn < f->nlp; lpn++)
		if (f->l2p[lpn] != SSD_UNMAPPED && f->l2p[lpn] >= nslots(f)) {
			ssd_snapr_fail(r, "page %u maps to slot %u, beyond the "
				       "drive's %llu", lpn, f->l2p[lpn],
				       (unsigned long long)nslots(f));
			return SSD_EPARSE;
		}
	/* the logical page of every valid slot (GC follows it) */
	for (uint64_t w = 0; w < (nslots(f) + 63) / 64; w++) {
		uint64_t bits = f->vbits[w];
		while (bits) {
			uint64_t slot = w * 64 + (uint64_t)__builtin_ctzll(bits);
			bits &= bits - 1;
			if (slot >= nslots(f) || f->p2l[slot] >= f->nlp) {
				ssd_snapr_fail(r, "valid slot %llu holds page %u, "
					       "beyond the drive's %u",
					       (unsigned long long)slot,
					       slot < nslots(f) ? f->p2l[slot] : 0,
					       f->nlp);
				return SSD_EPARSE;
			}
		}
	}
	for (uint32_t i = 0; i < f->tq_len; i++) {
		const struct ssd_trim_range *q = &f->tq[(f->tq_head + i) % f->tq_cap];
		if (q->lpn >= f->nlp || q->n > f->nlp - q->lpn) {
			ssd_snapr_fail(r, "a queued TRIM is outside the drive");
			return SSD_EPARSE;
		}
	}
	for (uint32_t i = 0; i < f->mc_pages; i++)
		if (!in_range(r, "a map cache link", f->mc_next[i], f->mc_pages,
			      SSD_NO_BLOCK) ||
		    !in_range(r, "a map cache link", f->mc_prev[i], f->mc_pages,
			      SSD_NO_BLOCK) ||
		    !in_range(r, "a map page's state", f->mc_state[i], 3, 3))
			return SSD_EPARSE;
	/* the policy's index: each region's values within its bound */
	for (int i = 0; i < nr; i++) {
		const uint32_t *v = g[i].p;
		for (size_t k = 0; k < g[i].bytes / sizeof *v; k++)
			if (v[k] > g[i].max && v[k] != SSD_NO_BLOCK) {
				ssd_snapr_fail(r, "the GC policy's index holds %u "
					       "where at most %u belongs", v[k],
					       g[i].max);
				return SSD_EPARSE;
			}
	}
	size_t nb = f->nblocks;
	for (size_t b = 0; b < nb; b++)
		if (f->state[b] > SSD_BLK_MAPPED ||
		    (f->next[b] >= nb && f->next[b] != SSD_NO_BLOCK) ||
		    (f->prev[b] >= nb && f->prev[b] != SSD_NO_BLOCK)) {
			ssd_snapr_fail(r, "block %zu's state or links are out "
				       "of range", b);
			return SSD_EPARSE;
		}
	return 0;
}

int ssd_ftl_snap_verify_src(struct ssd_ftl *f, const uint32_t *src)
{
	if (!f->vgen)
		return SSD_EINVAL;
	f->vsrc = src;
	return 0;
}

int ssd_ftl_snap_has_vgen(const struct ssd_ftl *f)
{
	return f->vgen != NULL;
}
