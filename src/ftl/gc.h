/*
 * gc.h -- garbage-collection victim policies.
 *
 * A policy decides which full block of an allocation unit to clean next.
 * The FTL tells it when a block becomes a candidate (full), when a
 * candidate loses a valid page (invalidated), and asks it for a victim
 * (pick), which also removes the block from the candidates.  Blocks that
 * are open, free or being cleaned are never candidates.
 *
 * Adding a policy: a new gc_NAME.c with a `const struct ssd_gc_ops`, and
 * one line in the registry in gc.c.
 *
 * Policies keep their own index structures, sized at init from the FTL's
 * geometry, and never allocate afterwards.  "invalidated" is on the hot
 * path of every overwrite: it must be O(1).
 */
#ifndef SSD_GC_H
#define SSD_GC_H

#include <stdint.h>

struct ssd_ftl;

#define SSD_NO_BLOCK 0xffffffffu

struct ssd_gc_ops {
	const char *name;
	int (*init)(struct ssd_ftl *f, void **state);
	void (*fini)(void *state);
	void (*full)(struct ssd_ftl *f, void *state, uint32_t blk);
	void (*invalidated)(struct ssd_ftl *f, void *state, uint32_t blk);
	/* Remove and return the victim in `unit`, SSD_NO_BLOCK if none. */
	uint32_t (*pick)(struct ssd_ftl *f, void *state, uint32_t unit);
	/* Remove a given candidate (wear leveling chose it). */
	void (*remove)(struct ssd_ftl *f, void *state, uint32_t blk);
	/* Check the policy's index against the FTL (invariant checker);
	 * returns 0 or SSD_ESTATE. */
	int (*check)(const struct ssd_ftl *f, const void *state);
};

/* The policy for an enum ssd_gc_policy value, or NULL. */
const struct ssd_gc_ops *ssd_gc_find(int policy);

extern const struct ssd_gc_ops ssd_gc_greedy, ssd_gc_fifo, ssd_gc_random,
	ssd_gc_cost_benefit;

/* Candidate array shared by the policies that sample or scan candidates
 * (random, cost-benefit): per unit, a dense array of its full blocks. */
struct ssd_gc_set {
	uint32_t *blocks;  /* [unit * per_unit + i] */
	uint32_t *count;   /* [unit] */
	uint32_t *pos;     /* [blk] index in its unit's array */
	uint32_t per_unit;
};
int ssd_gc_set_init(struct ssd_gc_set *s, const struct ssd_ftl *f);
void ssd_gc_set_free(struct ssd_gc_set *s);
void ssd_gc_set_add(struct ssd_gc_set *s, const struct ssd_ftl *f,
		    uint32_t blk);
void ssd_gc_set_remove(struct ssd_gc_set *s, const struct ssd_ftl *f,
		       uint32_t blk);
int ssd_gc_set_check(const struct ssd_ftl *f, const struct ssd_gc_set *s);

#endif
