/*
 * gc_fifo.c -- FIFO (least recently written) victim selection: blocks are
 * cleaned in the order they were filled, whatever their valid count.  The
 * policy Desnoyers' closed form describes; a baseline for the others.
 * Index: per unit, a list in fill order through next[]/prev[].
 */
#include <stdlib.h>

#include "ftl/ftl_int.h"

struct fifo {
	uint32_t *head, *tail; /* [unit] */
};

static int fifo_init(struct ssd_ftl *f, void **state)
{
	struct fifo *q = calloc(1, sizeof *q);
	if (!q)
		return SSD_ENOMEM;
	q->head = malloc(f->units * sizeof *q->head);
	q->tail = malloc(f->units * sizeof *q->tail);
	if (!q->head || !q->tail) {
		free(q->head);
		free(q->tail);
		free(q);
		return SSD_ENOMEM;
	}
	for (uint32_t u = 0; u < f->units; u++)
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

static void fifo_full(struct ssd_ftl *f, void *state, uint32_t blk)
{
	struct fifo *q = state;
	uint32_t u = ssd_ftl_unit_of(f, blk);
	f->next[blk] = SSD_NO_BLOCK;
	f->prev[blk] = q->tail[u];
	if (q->tail[u] == SSD_NO_BLOCK)
		q->head[u] = blk;
	else
		f->next[q->tail[u]] = blk;
	q->tail[u] = blk;
}

static void fifo_invalidated(struct ssd_ftl *f, void *state, uint32_t blk)
{
}

static uint32_t fifo_pick(struct ssd_ftl *f, void *state, uint32_t u)
{
	struct fifo *q = state;
	uint32_t blk = q->head[u];
	if (blk == SSD_NO_BLOCK)
		return blk;
	q->head[u] = f->next[blk];
	if (q->head[u] == SSD_NO_BLOCK)
		q->tail[u] = SSD_NO_BLOCK;
	else
		f->prev[q->head[u]] = SSD_NO_BLOCK;
	return blk;
}

static void fifo_remove(struct ssd_ftl *f, void *state, uint32_t blk)
{
	struct fifo *q = state;
	uint32_t u = ssd_ftl_unit_of(f, blk), n = f->next[blk], p = f->prev[blk];
	if (p == SSD_NO_BLOCK)
		q->head[u] = n;
	else
		f->next[p] = n;
	if (n == SSD_NO_BLOCK)
		q->tail[u] = p;
	else
		f->prev[n] = p;
}

static int fifo_check(const struct ssd_ftl *f, const void *state)
{
	const struct fifo *q = state;
	uint64_t listed = 0, full = 0;
	for (uint32_t b = 0; b < f->nblocks; b++)
		full += ssd_ftl_candidate(f, b);
	for (uint32_t u = 0; u < f->units; u++) {
		uint32_t p = SSD_NO_BLOCK;
		for (uint32_t b = q->head[u]; b != SSD_NO_BLOCK; b = f->next[b]) {
			if (!ssd_ftl_candidate(f, b) || f->prev[b] != p ||
			    ssd_ftl_unit_of(f, b) != u || ++listed > full)
				return SSD_ESTATE;
			p = b;
		}
		if (p != q->tail[u])
			return SSD_ESTATE;
	}
	return listed == full ? 0 : SSD_ESTATE;
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
};
