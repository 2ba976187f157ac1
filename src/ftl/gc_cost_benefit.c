/*
 * gc_cost_benefit.c -- cost-benefit victim selection (Rosenblum and
 * Ousterhout's LFS cleaner, as adapted to flash): clean the candidate
 * maximising (1 - u) * age / (2u), with u its valid fraction and age the
 * host pages written since it filled (a write count rather than seconds,
 * so idle time does not distort it).  An empty block (u = 0) wins at
 * once.
 *
 * Cost: a pick scans the unit's candidates, O(blocks per unit), once per
 * victim -- amortised over the slots_per_block writes that fill a block.
 */
#include <stdlib.h>

#include "ftl/gc.h"

static int cb_init(const struct ssd_gc_view *gv, void **state)
{
	struct ssd_gc_set *s = calloc(1, sizeof *s);
	if (!s || ssd_gc_set_init(s, gv)) {
		free(s);
		return SSD_ENOMEM;
	}
	*state = s;
	return 0;
}

static void cb_fini(void *state)
{
	ssd_gc_set_free(state);
	free(state);
}

static void cb_full(const struct ssd_gc_view *gv, void *state, uint32_t blk)
{
	ssd_gc_set_add(state, gv, blk);
}

static void cb_invalidated(const struct ssd_gc_view *gv, void *state, uint32_t blk)
{
}

static uint32_t cb_pick(const struct ssd_gc_view *gv, void *state, uint32_t u)
{
	struct ssd_gc_set *s = state;
	uint32_t n = s->count[u];
	if (!n)
		return SSD_NO_BLOCK;
	const uint32_t *a = &s->blocks[(size_t)u * s->per_unit];
	uint32_t best = SSD_NO_BLOCK;
	double best_score = -1;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t b = a[i];
		uint32_t v = gv->valid[b];
		if (!v) {
			best = b;
			break;
		}
		double util = (double)v / gv->spb;
		double age = (double)(*gv->host_writes - gv->stamp[b]) + 1;
		double score = (1 - util) * age / (2 * util);
		if (score > best_score) {
			best_score = score;
			best = b;
		}
	}
	ssd_gc_set_remove(s, gv, best);
	return best;
}

static void cb_remove(const struct ssd_gc_view *gv, void *state, uint32_t blk)
{
	ssd_gc_set_remove(state, gv, blk);
}

static int cb_check(const struct ssd_gc_view *gv, const void *state)
{
	return ssd_gc_set_check(gv, state);
}

const struct ssd_gc_ops ssd_gc_cost_benefit = {
	.name = "cost-benefit",
	.init = cb_init,
	.fini = cb_fini,
	.full = cb_full,
	.invalidated = cb_invalidated,
	.pick = cb_pick,
	.remove = cb_remove,
	.check = cb_check,
	.regions = ssd_gc_set_regions,
};
