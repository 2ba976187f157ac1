/*
 * gc_greedy.c -- greedy victim selection: the candidate with the fewest
 * valid slots.
 *
 * Index: per unit, a doubly linked bucket list for every valid count
 * 0..slots_per_block (links in the FTL's next[]/prev[]), plus a hint at
 * the lowest bucket that may be non-empty.  An invalidation moves a block
 * down one bucket in O(1); a pick scans up from the hint, which only ever
 * moves down by invalidations, so the scan is amortised over the writes
 * that filled the block.
 */
#include <stdlib.h>

#include "ftl/gc.h"

struct greedy {
	uint32_t *head;   /* [unit * (spb + 1) + valid] first block */
	uint32_t *hint;   /* [unit] lowest possibly non-empty bucket */
	uint32_t nb;      /* buckets per unit = spb + 1 */
};

static void bucket_link(const struct ssd_gc_view *gv, struct greedy *g, uint32_t blk,
			uint32_t u)
{
	uint32_t v = gv->valid[blk];
	uint32_t *h = &g->head[(size_t)u * g->nb + v];
	gv->prev[blk] = SSD_NO_BLOCK;
	gv->next[blk] = *h;
	if (*h != SSD_NO_BLOCK)
		gv->prev[*h] = blk;
	*h = blk;
	if (v < g->hint[u])
		g->hint[u] = v;
}

static void bucket_unlink(const struct ssd_gc_view *gv, struct greedy *g, uint32_t blk,
			  uint32_t u, uint32_t v)
{
	uint32_t n = gv->next[blk], p = gv->prev[blk];
	if (p != SSD_NO_BLOCK)
		gv->next[p] = n;
	else
		g->head[(size_t)u * g->nb + v] = n;
	if (n != SSD_NO_BLOCK)
		gv->prev[n] = p;
}

uint64_t ssd_gc_greedy_mem(const struct ssd_gc_view *gv)
{
	const struct greedy *g = NULL;
	return sizeof *g + (uint64_t)gv->units * (gv->spb + 1) * sizeof *g->head +
	       (uint64_t)gv->units * sizeof *g->hint;
}

static int greedy_init(const struct ssd_gc_view *gv, void **state)
{
	struct greedy *g = calloc(1, sizeof *g);
	if (!g)
		return SSD_ENOMEM;
	g->nb = gv->spb + 1;
	g->head = malloc((size_t)gv->units * g->nb * sizeof *g->head);
	g->hint = calloc(gv->units, sizeof *g->hint);
	if (!g->head || !g->hint) {
		free(g->head);
		free(g->hint);
		free(g);
		return SSD_ENOMEM;
	}
	for (size_t i = 0; i < (size_t)gv->units * g->nb; i++)
		g->head[i] = SSD_NO_BLOCK;
	for (uint32_t u = 0; u < gv->units; u++)
		g->hint[u] = g->nb;
	*state = g;
	return 0;
}

static void greedy_fini(void *state)
{
	struct greedy *g = state;
	free(g->head);
	free(g->hint);
	free(g);
}

static void greedy_full(const struct ssd_gc_view *gv, void *state, uint32_t blk)
{
	bucket_link(gv, state, blk, ssd_gc_unit_of(gv, blk));
}

static void greedy_invalidated(const struct ssd_gc_view *gv, void *state, uint32_t blk)
{
	/* valid[blk] has just dropped by one: move down a bucket */
	uint32_t u = ssd_gc_unit_of(gv, blk);
	bucket_unlink(gv, state, blk, u, gv->valid[blk] + 1);
	bucket_link(gv, state, blk, u);
}

/* An invalidation of blk relinks its neighbours in its bucket and the
 * head of the bucket below: on a large drive each is a cache miss. */
static void greedy_prefetch(const struct ssd_gc_view *gv, const void *state,
			    uint32_t blk)
{
	const struct greedy *g = state;
	uint32_t n = gv->next[blk], p = gv->prev[blk], v = gv->valid[blk];
	if (n != SSD_NO_BLOCK)
		__builtin_prefetch(&gv->prev[n], 1);
	if (p != SSD_NO_BLOCK)
		__builtin_prefetch(&gv->next[p], 1);
	if (v) {
		uint32_t h = g->head[(size_t)ssd_gc_unit_of(gv, blk) * g->nb + v - 1];
		if (h != SSD_NO_BLOCK)
			__builtin_prefetch(&gv->prev[h], 1);
	}
}

static uint32_t greedy_pick(const struct ssd_gc_view *gv, void *state, uint32_t u)
{
	struct greedy *g = state;
	uint32_t *h = &g->head[(size_t)u * g->nb];
	for (uint32_t v = g->hint[u]; v < g->nb; v++) {
		uint32_t blk = h[v];
		if (blk == SSD_NO_BLOCK)
			continue;
		g->hint[u] = v;
		bucket_unlink(gv, g, blk, u, v);
		return blk;
	}
	g->hint[u] = g->nb;
	return SSD_NO_BLOCK;
}

static void greedy_remove(const struct ssd_gc_view *gv, void *state, uint32_t blk)
{
	bucket_unlink(gv, state, blk, ssd_gc_unit_of(gv, blk), gv->valid[blk]);
}

static int greedy_check(const struct ssd_gc_view *gv, const void *state)
{
	const struct greedy *g = state;
	uint64_t listed = 0, full = 0;
	for (uint32_t b = 0; b < gv->nblocks; b++)
		full += ssd_gc_candidate(gv, b);
	for (uint32_t u = 0; u < gv->units; u++)
		for (uint32_t v = 0; v < g->nb; v++) {
			uint32_t p = SSD_NO_BLOCK;
			for (uint32_t b = g->head[(size_t)u * g->nb + v];
			     b != SSD_NO_BLOCK; b = gv->next[b]) {
				if (!ssd_gc_candidate(gv, b) || gv->valid[b] != v ||
				    ssd_gc_unit_of(gv, b) != u || gv->prev[b] != p ||
				    v < g->hint[u] || ++listed > full)
					return SSD_ESTATE;
				p = b;
			}
		}
	return listed == full ? 0 : SSD_ESTATE;
}

static int greedy_regions(const struct ssd_gc_view *gv, void *state,
			  struct ssd_gc_region *r)
{
	struct greedy *g = state;
	r[0] = (struct ssd_gc_region){g->head,
		(size_t)gv->units * g->nb * sizeof *g->head, gv->nblocks - 1};
	r[1] = (struct ssd_gc_region){g->hint, gv->units * sizeof *g->hint,
		g->nb};
	return 2;
}

const struct ssd_gc_ops ssd_gc_greedy = {
	.name = "greedy",
	.init = greedy_init,
	.fini = greedy_fini,
	.full = greedy_full,
	.invalidated = greedy_invalidated,
	.prefetch = greedy_prefetch,
	.pick = greedy_pick,
	.remove = greedy_remove,
	.check = greedy_check,
	.regions = greedy_regions,
};
