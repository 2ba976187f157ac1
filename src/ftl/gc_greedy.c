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

#include "ftl/ftl_int.h"

struct greedy {
	uint32_t *head;   /* [unit * (spb + 1) + valid] first block */
	uint32_t *hint;   /* [unit] lowest possibly non-empty bucket */
	uint32_t nb;      /* buckets per unit = spb + 1 */
};

static void bucket_link(struct ssd_ftl *f, struct greedy *g, uint32_t blk,
			uint32_t u)
{
	uint32_t v = f->valid[blk];
	uint32_t *h = &g->head[(size_t)u * g->nb + v];
	f->prev[blk] = SSD_NO_BLOCK;
	f->next[blk] = *h;
	if (*h != SSD_NO_BLOCK)
		f->prev[*h] = blk;
	*h = blk;
	if (v < g->hint[u])
		g->hint[u] = v;
}

static void bucket_unlink(struct ssd_ftl *f, struct greedy *g, uint32_t blk,
			  uint32_t u, uint32_t v)
{
	uint32_t n = f->next[blk], p = f->prev[blk];
	if (p != SSD_NO_BLOCK)
		f->next[p] = n;
	else
		g->head[(size_t)u * g->nb + v] = n;
	if (n != SSD_NO_BLOCK)
		f->prev[n] = p;
}

static int greedy_init(struct ssd_ftl *f, void **state)
{
	struct greedy *g = calloc(1, sizeof *g);
	if (!g)
		return SSD_ENOMEM;
	g->nb = f->spb + 1;
	g->head = malloc((size_t)f->units * g->nb * sizeof *g->head);
	g->hint = calloc(f->units, sizeof *g->hint);
	if (!g->head || !g->hint) {
		free(g->head);
		free(g->hint);
		free(g);
		return SSD_ENOMEM;
	}
	for (size_t i = 0; i < (size_t)f->units * g->nb; i++)
		g->head[i] = SSD_NO_BLOCK;
	for (uint32_t u = 0; u < f->units; u++)
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

static void greedy_full(struct ssd_ftl *f, void *state, uint32_t blk)
{
	bucket_link(f, state, blk, ssd_ftl_unit_of(f, blk));
}

static void greedy_invalidated(struct ssd_ftl *f, void *state, uint32_t blk)
{
	/* valid[blk] has just dropped by one: move down a bucket */
	uint32_t u = ssd_ftl_unit_of(f, blk);
	bucket_unlink(f, state, blk, u, f->valid[blk] + 1);
	bucket_link(f, state, blk, u);
}

static uint32_t greedy_pick(struct ssd_ftl *f, void *state, uint32_t u)
{
	struct greedy *g = state;
	uint32_t *h = &g->head[(size_t)u * g->nb];
	for (uint32_t v = g->hint[u]; v < g->nb; v++) {
		uint32_t blk = h[v];
		if (blk == SSD_NO_BLOCK)
			continue;
		g->hint[u] = v;
		bucket_unlink(f, g, blk, u, v);
		return blk;
	}
	g->hint[u] = g->nb;
	return SSD_NO_BLOCK;
}

static void greedy_remove(struct ssd_ftl *f, void *state, uint32_t blk)
{
	bucket_unlink(f, state, blk, ssd_ftl_unit_of(f, blk), f->valid[blk]);
}

static int greedy_check(const struct ssd_ftl *f, const void *state)
{
	const struct greedy *g = state;
	uint64_t listed = 0, full = 0;
	for (uint32_t b = 0; b < f->nblocks; b++)
		full += ssd_ftl_candidate(f, b);
	for (uint32_t u = 0; u < f->units; u++)
		for (uint32_t v = 0; v < g->nb; v++) {
			uint32_t p = SSD_NO_BLOCK;
			for (uint32_t b = g->head[(size_t)u * g->nb + v];
			     b != SSD_NO_BLOCK; b = f->next[b]) {
				if (!ssd_ftl_candidate(f, b) || f->valid[b] != v ||
				    ssd_ftl_unit_of(f, b) != u || f->prev[b] != p ||
				    v < g->hint[u] || ++listed > full)
					return SSD_ESTATE;
				p = b;
			}
		}
	return listed == full ? 0 : SSD_ESTATE;
}

const struct ssd_gc_ops ssd_gc_greedy = {
	.name = "greedy",
	.init = greedy_init,
	.fini = greedy_fini,
	.full = greedy_full,
	.invalidated = greedy_invalidated,
	.pick = greedy_pick,
	.remove = greedy_remove,
	.check = greedy_check,
};
