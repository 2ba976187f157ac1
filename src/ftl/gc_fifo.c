/*
 * gc_fifo.c -- FIFO (least recently written) victim selection: blocks are
 * cleaned in the order they were filled, whatever their valid count.  The
 * policy Desnoyers' closed form describes; a baseline for the others.
 * Index: per unit, a list in fill order through next[]/prev[].
 */
#include <stdlib.h>

#include "ftl/gc.h"

struct fifo {
	uint32_t *head, *tail; /* [unit] */
};

uint64_t ssd_gc_fifo_mem(const struct ssd_gc_view *gv)
{
	const struct fifo *q = NULL;
	return sizeof *q + (uint64_t)gv->units * (sizeof *q->head + sizeof *q->tail);
}

static int fifo_init(const struct ssd_gc_view *gv, void **state)
{
	struct fifo *q = calloc(1, sizeof *q);
	if (!q)
		return SSD_ENOMEM;
	q->head = malloc(gv->units * sizeof *q->head);
	q->tail = malloc(gv->units * sizeof *q->tail);
	if (!q->head || !q->tail) {
		free(q->head);
		free(q->tail);
		free(q);
		return SSD_ENOMEM;
	}
	for (uint32_t u = 0; u < gv->units; u++)
		q->head[u] = q->tail[u] = SSD_NO_BLOCK;
	*state = q;
	return 0;
}

static void fifo_fini(void *state)
{
	struct fifo *q = state;
	free(q->head);
	free(q->tail);
	free(q);
}

static void fifo_full(const struct ssd_gc_view *gv, void *state, uint32_t blk)
{
	struct fifo *q = state;
	uint32_t u = ssd_gc_unit_of(gv, blk);
	gv->next[blk] = SSD_NO_BLOCK;
	gv->prev[blk] = q->tail[u];
	if (q->tail[u] == SSD_NO_BLOCK)
		q->head[u] = blk;
	else
		gv->next[q->tail[u]] = blk;
	q->tail[u] = blk;
}

static void fifo_invalidated(const struct ssd_gc_view *gv, void *state, uint32_t blk)
{
}

static uint32_t fifo_pick(const struct ssd_gc_view *gv, void *state, uint32_t u)
{
	struct fifo *q = state;
	uint32_t blk = q->head[u];
	if (blk == SSD_NO_BLOCK)
		return blk;
	q->head[u] = gv->next[blk];
	if (q->head[u] == SSD_NO_BLOCK)
		q->tail[u] = SSD_NO_BLOCK;
	else
		gv->prev[q->head[u]] = SSD_NO_BLOCK;
	return blk;
}

static void fifo_remove(const struct ssd_gc_view *gv, void *state, uint32_t blk)
{
	struct fifo *q = state;
	uint32_t u = ssd_gc_unit_of(gv, blk), n = gv->next[blk], p = gv->prev[blk];
	if (p == SSD_NO_BLOCK)
		q->head[u] = n;
	else
		gv->next[p] = n;
	if (n == SSD_NO_BLOCK)
		q->tail[u] = p;
	else
		gv->prev[n] = p;
}

static int fifo_check(const struct ssd_gc_view *gv, const void *state)
{
	const struct fifo *q = state;
	uint64_t listed = 0, full = 0;
	for (uint32_t b = 0; b < gv->nblocks; b++)
		full += ssd_gc_candidate(gv, b);
	for (uint32_t u = 0; u < gv->units; u++) {
		uint32_t p = SSD_NO_BLOCK;
		for (uint32_t b = q->head[u]; b != SSD_NO_BLOCK; b = gv->next[b]) {
			if (!ssd_gc_candidate(gv, b) || gv->prev[b] != p ||
			    ssd_gc_unit_of(gv, b) != u || ++listed > full)
				return SSD_ESTATE;
			p = b;
		}
		if (p != q->tail[u])
			return SSD_ESTATE;
	}
	return listed == full ? 0 : SSD_ESTATE;
}

static int fifo_regions(const struct ssd_gc_view *gv, void *state,
			struct ssd_gc_region *r)
{
	struct fifo *q = state;
	r[0] = (struct ssd_gc_region){q->head, gv->units * sizeof *q->head,
		gv->nblocks - 1};
	r[1] = (struct ssd_gc_region){q->tail, gv->units * sizeof *q->tail,
		gv->nblocks - 1};
	return 2;
}

const struct ssd_gc_ops ssd_gc_fifo = {
	.name = "fifo",
	.init = fifo_init,
	.fini = fifo_fini,
	.full = fifo_full,
	.invalidated = fifo_invalidated,
	.pick = fifo_pick,
	.remove = fifo_remove,
	.check = fifo_check,
	.regions = fifo_regions,
};
