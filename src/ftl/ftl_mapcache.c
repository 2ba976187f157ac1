/*
 * ftl_mapcache.c -- the map cache of a DRAM-less (or DRAM-short)
 * controller.
 *
 * Map cache.  With map_cache set, only that much of l2p is "in DRAM": map
 * pages of page_size bytes (4-byte entries) in an LRU; a miss reads the
 * map page from NAND, an evicted dirty page is programmed back, and both
 * cost die time and count in the NAND counters (map pages live in a
 * reserved area whose own cleaning is not modelled).
 *
 * A hit costs nothing; the FTL calls ftl_map_load (through map_touch in
 * ftl_int.h, which returns at once when the cache is off) for every map
 * entry it uses or changes.  The LRU is an intrusive list over map pages
 * (mc_next/mc_prev), O(1) per access.
 */
#include "ftl/ftl.h"
#include "ftl/ftl_int.h"

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
int64_t ftl_map_load(struct ssd_ftl *f, uint32_t lpn, int dirty, int64_t t)
{
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
