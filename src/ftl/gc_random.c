/*
 * gc_random.c -- randomised victim selection ("random-window", the
 * d-choices policy): sample gc_window candidates uniformly and clean the
 * one with the fewest valid slots.  gc_window = 1 is pure random
 * selection; large windows approach greedy.  Draws come from the FTL's
 * seeded generator, so runs stay deterministic.
 */
#include <stdlib.h>

#include "ftl/gc.h"

static int random_init(const struct ssd_gc_view *gv, void **state)
{
	struct ssd_gc_set *s = calloc(1, sizeof *s);
	if (!s || ssd_gc_set_init(s, gv)) {
		free(s);
		return SSD_ENOMEM;
	}
	*state = s;
	return 0;
}

static void random_fini(void *state)
{
	ssd_gc_set_free(state);
	free(state);
}

static void random_full(const struct ssd_gc_view *gv, void *state, uint32_t blk)
{
	ssd_gc_set_add(state, gv, blk);
}

static void random_invalidated(const struct ssd_gc_view *gv, void *state, uint32_t blk)
{
}

static uint32_t random_pick(const struct ssd_gc_view *gv, void *state, uint32_t u)
{
	struct ssd_gc_set *s = state;
	uint32_t n = s->count[u];
	if (!n)
		return SSD_NO_BLOCK;
	const uint32_t *a = &s->blocks[(size_t)u * s->per_unit];
	uint32_t d = gv->window ? gv->window : 1;
	uint32_t best = a[ssd_rng_below(gv->rng, n)];
	for (uint32_t i = 1; i < d; i++) {
		uint32_t b = a[ssd_rng_below(gv->rng, n)];
		if (gv->valid[b] < gv->valid[best])
			best = b;
	}
	ssd_gc_set_remove(s, gv, best);
	return best;
}

static void random_remove(const struct ssd_gc_view *gv, void *state, uint32_t blk)
{
	ssd_gc_set_remove(state, gv, blk);
}

static int random_check(const struct ssd_gc_view *gv, const void *state)
{
	return ssd_gc_set_check(gv, state);
}

const struct ssd_gc_ops ssd_gc_random = {
	.name = "random",
	.init = random_init,
	.fini = random_fini,
	.full = random_full,
	.invalidated = random_invalidated,
	.pick = random_pick,
	.remove = random_remove,
	.check = random_check,
	.regions = ssd_gc_set_regions,
};
