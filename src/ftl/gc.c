/*
 * gc.c -- the registry of victim policies and the candidate set shared by
 * the sampling/scanning policies.
 */
#include "ftl/gc.h"

#include <stdlib.h>

#include "base/config.h"

const struct ssd_gc_ops *ssd_gc_find(int policy)
{
	switch (policy) {
	case SSD_GC_GREEDY: return &ssd_gc_greedy;
	case SSD_GC_COST_BENEFIT: return &ssd_gc_cost_benefit;
	case SSD_GC_FIFO: return &ssd_gc_fifo;
	case SSD_GC_RANDOM: return &ssd_gc_random;
	}
	return NULL;
}

uint64_t ssd_gc_mem(int policy, const struct ssd_gc_view *v)
{
	switch (policy) {
	case SSD_GC_GREEDY: return ssd_gc_greedy_mem(v);
	case SSD_GC_COST_BENEFIT: return ssd_gc_set_mem(v); /* cb_init */
	case SSD_GC_FIFO: return ssd_gc_fifo_mem(v);
	case SSD_GC_RANDOM: return ssd_gc_set_mem(v); /* random_init */
	}
	return 0;
}

uint64_t ssd_gc_set_mem(const struct ssd_gc_view *v)
{
	const struct ssd_gc_set *s = NULL;
	return sizeof *s + (uint64_t)v->units * v->bpu * sizeof *s->blocks +
	       (uint64_t)v->units * sizeof *s->count +
	       (uint64_t)v->nblocks * sizeof *s->pos;
}

int ssd_gc_set_init(struct ssd_gc_set *s, const struct ssd_gc_view *gv)
{
	s->per_unit = gv->bpu;
	s->blocks = calloc((size_t)gv->units * gv->bpu, sizeof *s->blocks);
	s->count = calloc(gv->units, sizeof *s->count);
	s->pos = calloc(gv->nblocks, sizeof *s->pos);
	if (!s->blocks || !s->count || !s->pos) {
		ssd_gc_set_free(s);
		return SSD_ENOMEM;
	}
	return 0;
}

/* The set's arrays (the regions op of the policies built on it). */
int ssd_gc_set_regions(const struct ssd_gc_view *gv, void *state,
		       struct ssd_gc_region *r)
{
	struct ssd_gc_set *s = state;
	r[0] = (struct ssd_gc_region){s->blocks,
		(size_t)gv->units * s->per_unit * sizeof *s->blocks,
		gv->nblocks - 1};
	r[1] = (struct ssd_gc_region){s->count, gv->units * sizeof *s->count,
		s->per_unit};
	r[2] = (struct ssd_gc_region){s->pos, gv->nblocks * sizeof *s->pos,
		s->per_unit - 1};
	return 3;
}

void ssd_gc_set_free(struct ssd_gc_set *s)
{
	free(s->blocks);
	free(s->count);
	free(s->pos);
	s->blocks = s->count = s->pos = NULL;
}

void ssd_gc_set_add(struct ssd_gc_set *s, const struct ssd_gc_view *gv,
		    uint32_t blk)
{
	uint32_t u = ssd_gc_unit_of(gv, blk);
	uint32_t i = s->count[u]++;
	s->blocks[(size_t)u * s->per_unit + i] = blk;
	s->pos[blk] = i;
}

void ssd_gc_set_remove(struct ssd_gc_set *s, const struct ssd_gc_view *gv,
		       uint32_t blk)
{
	uint32_t u = ssd_gc_unit_of(gv, blk);
	uint32_t *a = &s->blocks[(size_t)u * s->per_unit];
	uint32_t i = s->pos[blk], last = a[--s->count[u]];
	a[i] = last;
	s->pos[last] = i;
}

int ssd_gc_set_check(const struct ssd_gc_view *gv, const struct ssd_gc_set *s)
{
	uint32_t full = 0, listed = 0;
	for (uint32_t b = 0; b < gv->nblocks; b++)
		full += ssd_gc_candidate(gv, b);
	for (uint32_t u = 0; u < gv->units; u++) {
		const uint32_t *a = &s->blocks[(size_t)u * s->per_unit];
		for (uint32_t i = 0; i < s->count[u]; i++) {
			uint32_t b = a[i];
			if (b >= gv->nblocks || !ssd_gc_candidate(gv, b) ||
			    ssd_gc_unit_of(gv, b) != u || s->pos[b] != i)
				return SSD_ESTATE;
		}
		listed += s->count[u];
	}
	return listed == full ? 0 : SSD_ESTATE;
}
