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
 * A policy sees the FTL only through struct ssd_gc_view: the geometry,
 * the per-block valid counts and fill stamps, the host-write clock, a
 * pair of per-block link arrays the policy may use for its index, and a
 * test of candidacy (for its check).  The FTL owns the view and keeps
 * its arrays current; gc.h and the gc_*.c files know nothing else of it.
 *
 * Policies keep their own index structures, sized at init from the
 * view's geometry, and never allocate afterwards; `regions` names the
 * memory they occupy, which a snapshot saves and restores as it is.  "invalidated" is on
 * the hot path of every overwrite: it must be O(1).
 */
#ifndef SSD_GC_H
#define SSD_GC_H

#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

#define SSD_NO_BLOCK 0xffffffffu

/* What a policy may see of the FTL.  Blocks are numbered unit by unit:
 * block b is in unit b / bpu. */
struct ssd_gc_view {
	uint32_t units;            /* allocation units */
	uint32_t bpu;              /* blocks per unit */
	uint32_t nblocks;          /* blocks in all (units * bpu) */
	uint32_t spb;              /* 4 KiB slots of a native-mode block */
	struct ssd_udiv div_bpu;   /* fast division by bpu */
	const uint32_t *valid;     /* [blk] valid slots now */
	const uint64_t *stamp;     /* [blk] host pages written when it filled */
	const uint64_t *host_writes; /* host 4 KiB pages written so far */
	uint32_t *next, *prev;     /* [blk] links the policy owns while the
	                              block is a candidate */
	uint32_t window;           /* gc_window: candidates sampled per pick */
	struct ssd_rng *rng;       /* the FTL's seeded generator */
	/* 1 if blk is a candidate now (full, native mode): for checks. */
	int (*candidate)(const void *ctx, uint32_t blk);
	const void *ctx;           /* the FTL, for candidate */
};

static inline uint32_t ssd_gc_unit_of(const struct ssd_gc_view *v,
				      uint32_t blk)
{
	return ssd_udiv(blk, v->div_bpu);
}

static inline int ssd_gc_candidate(const struct ssd_gc_view *v, uint32_t blk)
{
	return v->candidate(v->ctx, blk);
}

/* A region of a policy's memory (a snapshot's section). */
struct ssd_gc_region {
	void *p;
	size_t bytes;      /* of uint32_t values ... */
	uint32_t max;      /* ... each at most max, or SSD_NO_BLOCK (a
	                      snapshot that gives another is refused) */
};
#define SSD_GC_REGIONS 4

struct ssd_gc_ops {
	const char *name;
	int (*init)(const struct ssd_gc_view *v, void **state);
	void (*fini)(void *state);
	void (*full)(const struct ssd_gc_view *v, void *state, uint32_t blk);
	void (*invalidated)(const struct ssd_gc_view *v, void *state,
			    uint32_t blk);
	/* Optional: blk may soon be invalidated; prefetch what that will
	 * touch beyond blk's own entries (no effect on the index). */
	void (*prefetch)(const struct ssd_gc_view *v, const void *state,
			 uint32_t blk);
	/* Remove and return the victim in `unit`, SSD_NO_BLOCK if none. */
	uint32_t (*pick)(const struct ssd_gc_view *v, void *state,
			 uint32_t unit);
	/* Remove a given candidate (wear leveling chose it). */
	void (*remove)(const struct ssd_gc_view *v, void *state, uint32_t blk);
	/* Check the policy's index against the view (invariant checker);
	 * returns 0 or SSD_ESTATE. */
	int (*check)(const struct ssd_gc_view *v, const void *state);
	/* The memory that holds the policy's index, as at most
	 * SSD_GC_REGIONS regions (a snapshot saves and restores them byte
	 * for byte; the links in the view's next/prev are the FTL's):
	 * returns how many it filled in. */
	int (*regions)(const struct ssd_gc_view *v, void *state,
		       struct ssd_gc_region *r);
};

/* The policy for an enum ssd_gc_policy value, or NULL. */
const struct ssd_gc_ops *ssd_gc_find(int policy);

/* Bytes the policy's init allocates for a view with these counts (units,
 * bpu, nblocks, spb as in struct ssd_gc_view); each policy's own
 * function sits beside its init. */
uint64_t ssd_gc_mem(int policy, const struct ssd_gc_view *v);
uint64_t ssd_gc_greedy_mem(const struct ssd_gc_view *v);
uint64_t ssd_gc_fifo_mem(const struct ssd_gc_view *v);
uint64_t ssd_gc_set_mem(const struct ssd_gc_view *v);

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
int ssd_gc_set_init(struct ssd_gc_set *s, const struct ssd_gc_view *v);
void ssd_gc_set_free(struct ssd_gc_set *s);
void ssd_gc_set_add(struct ssd_gc_set *s, const struct ssd_gc_view *v,
		    uint32_t blk);
void ssd_gc_set_remove(struct ssd_gc_set *s, const struct ssd_gc_view *v,
		       uint32_t blk);
int ssd_gc_set_check(const struct ssd_gc_view *v, const struct ssd_gc_set *s);
int ssd_gc_set_regions(const struct ssd_gc_view *v, void *state,
		       struct ssd_gc_region *r);

#endif
