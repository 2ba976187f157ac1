/*
 * gc_random.c -- randomised victim selection ("random-window", the
 * d-choices policy): sample gc_window candidates uniformly and clean the
 * one with the fewest valid slots.  gc_window = 1 is pure random
 * selection; large windows approach greedy.  Draws come from the FTL's
 * seeded generator, so runs stay deterministic.
 */
#include <stdlib.h>

#include "ftl/ftl_int.h"

static int random_init(struct ssd_ftl *f, void **state)
{
	struct ssd_gc_set *s = calloc(1, sizeof *s);
	if (!s || ssd_gc_set_init(s, f)) {
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

static void random_full(struct ssd_ftl *f, void *state, uint32_t blk)
{
	ssd_gc_set_add(state, f, blk);
}

static void random_invalidated(struct ssd_ftl *f, void *state, uint32_t blk)
{
}

static uint32_t random_pick(struct ssd_ftl *f, void *state, uint32_t u)
{
	struct ssd_gc_set *s = state;
	uint32_t n = s->count[u];
	if (!n)
		return SSD_NO_BLOCK;
	const uint32_t *a = &s->blocks[(size_t)u * s->per_unit];
	uint32_t d = f->cfg.gc_window ? f->cfg.gc_window : 1;
	uint32_t best = a[ssd_rng_below(&f->rng, n)];
	for (uint32_t i = 1; i < d; i++) {
		uint32_t b = a[ssd_rng_below(&f->rng, n)];
		if (f->valid[b] < f->valid[best])
			best = b;
	}
	ssd_gc_set_remove(s, f, best);
	return best;
}

static void random_remove(struct ssd_ftl *f, void *state, uint32_t blk)
{
	ssd_gc_set_remove(state, f, blk);
}

static int random_check(const struct ssd_ftl *f, const void *state)
{
	return ssd_gc_set_check(f, state);
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
};
