/*
 * ftl.h -- the flash translation layer: page-level mapping at 4 KiB,
 * write points striped over the allocation units, garbage collection,
 * TRIM and flush.
 *
 * Mapping.  l2p[lpn] is the physical 4 KiB slot of logical page lpn (or
 * SSD_UNMAPPED); p2l[slot] is the logical page last stored in the slot,
 * and bit `slot` of vbits says whether it is still valid.  Invalidating a
 * page clears a bit in a bitmap small enough to stay in cache, instead of
 * storing into the large reverse map at random: overwrites are the hot
 * path.  A NAND page of
 * page_size bytes (times planes with multiplane) holds lp_per_page slots,
 * so slot = (blk * pages_per_block + page) * lp_per_page + index.
 *
 * Sub-page writes.  When a NAND page is larger than 4 KiB, 4 KiB writes
 * are packed into it: each allocation unit has an open page in its cache
 * register (controller SRAM holds it; power-loss protection is assumed),
 * the page is programmed when its last slot is filled, or padded and
 * programmed by a flush.  A flush pads host pages only: GC copies in the
 * GC write point's open page are still durable in their victim, which is
 * erased only once the page holding its last copies is programmed.  Reads of data still in an open page are served
 * from the register without a NAND read.  No read-modify-write is ever
 * needed, because the mapping unit (4 KiB) is never larger than a write.
 *
 * Write points.  Each unit has a host write point and a GC write point
 * (an open block each).  Host pages go to the units in round robin, one
 * NAND page per unit at a time, so a sequential or queued stream keeps
 * every die busy.  GC copies stay inside their unit.
 *
 * Unit balance.  Because GC stays inside a unit, a unit can only free
 * blocks while its valid data leaves it room: a unit holding nothing but
 * valid data would clean a full block to free a full block, forever.
 * Round robin alone does not keep the data balanced -- sequential 2 KiB
 * writes write each 4 KiB page twice, the second time always on the next
 * unit, and two interleaved streams over the same range put every last
 * copy on half of the units -- so each unit has a limit on the valid
 * slots it holds (ulimit[]): its fair share of the user capacity plus
 * half of its spare beyond the GC reserve, never more than its good
 * native blocks can hold with the reserve.  A host page goes to the next
 * unit in round robin below its limit.  The limits are spread again
 * (water-filling) when a block is retired, so worn units take less data;
 * the sum of the limits always exceeds the user capacity by a page per
 * unit while the drive is writable, so some unit always has room.
 *
 * Block life cycle (state[blk]):
 *     FREE --open--> OPEN --last page programmed--> FULL --picked--> VICTIM
 *       ^                                                              |
 *       +----------------- erase (all valid pages copied) -------------+
 *     an erase that fails, or a program that fails (the block is cleaned
 *     first, as RETIRE), turns the block BAD for good.
 * Only FULL native-mode blocks are GC candidates.  Free blocks of a unit
 * form a list (next[]); the policy indexes FULL blocks with next[]/prev[];
 * full SLC-mode blocks wait in a FIFO (the fold queue).
 *
 * GC.  Foreground: with gc_pacing (the default) a unit down to
 * gc_fg_blocks free blocks makes every host page it programs pay for its
 * share of copies, a victim page at a time, so cleaning keeps pace with
 * the host; without it (or as a backstop when the pool still runs dry),
 * before a unit opens a new host block with too few free blocks it cleans
 * whole blocks in one burst, up to gc_fg_target free blocks (a high-water
 * mark: fewer, longer stalls).  The copies and erases occupy the die, so
 * host writes wait for them, as on a real drive.  Background: in idle time the device calls ssd_ftl_idle(), which
 * folds the SLC cache and then cleans, one NAND page at a time while the
 * die would otherwise sit idle, until each unit has gc_bg_blocks free
 * blocks.  A victim is, in order: a block to retire, a static
 * wear-leveling move, an SLC block to fold (when cleaning is needed), or
 * the policy's pick.
 *
 * SLC cache.  Static: the first blocks of every unit live in SLC mode for
 * good and hold the cache.  Dynamic: free blocks are opened in SLC mode
 * while the unit keeps enough free blocks to fold everything cached, so
 * the cache shrinks as the drive fills.  Host writes go to an SLC-mode
 * block while the cache has room, else straight to native mode.  Folding
 * copies cached data to native blocks: in idle time, and in the
 * foreground when a unit runs short of free blocks.  A cached block whose
 * data has all been overwritten or trimmed needs no folding: when the
 * cache is out of room it is erased and reused at once.
 *
 * Wear.  Each block has an endurance drawn around pe_cycles (pe_spread);
 * an erase wears it one cycle (an SLC-mode erase pe_cycles/slc_pe_cycles
 * of one).  An erase past the endurance fails and retires the block; a
 * program of a block within 5% of it may fail, and then the page's data is
 * written again elsewhere and the block is retired once its data has moved.
 * When the good blocks can no longer hold the user capacity plus the GC
 * reserve, the drive turns read-only: writes and trims fail with
 * SSD_EROFS, reads still work, nothing written is lost.  Dynamic wear
 * leveling opens the least-worn free block; static wear leveling moves
 * the data of the least-worn full block when the unit's erase-count spread
 * passes wl_threshold.
 *
 * Map cache.  With map_cache set, only that much of l2p is "in DRAM": map
 * pages of page_size bytes (4-byte entries) in an LRU; a miss reads the
 * map page from NAND, an evicted dirty page is programmed back, and both
 * cost die time and count in the NAND counters (map pages live in a
 * reserved area whose own cleaning is not modelled).
 *
 * Times are simulated ns; functions that return a time return a negative
 * SSD_E* code on failure.
 */
#ifndef SSD_FTL_H
#define SSD_FTL_H

#include <stddef.h>
#include <stdint.h>

#include "base/config.h"
#include "nand/flash.h"
#include "ftl/gc.h"
#include "stats/stats.h"

#define SSD_UNMAPPED 0xffffffffu

enum ssd_blk_state {
	SSD_BLK_FREE,
	SSD_BLK_OPEN,
	SSD_BLK_FULL,
	SSD_BLK_VICTIM,
	SSD_BLK_RETIRE,   /* a program failed: clean it, then BAD */
	SSD_BLK_BAD
};

struct ssd_wp {
	uint32_t blk;           /* open block, or SSD_NO_BLOCK */
	uint32_t next;          /* next slot index inside blk */
	uint32_t fill;          /* slots filled in the open page */
	int fragile;            /* the block is near its endurance */
	uint32_t cap;           /* slots of the open block in its mode */
	int64_t ready;          /* data of the open page is loaded by then */
};

struct ssd_unit {
	uint32_t free_head, free_tail, nfree; /* native free blocks */
	uint32_t slc_free_head, nslc_free;    /* static SLC cache: free */
	uint32_t fold_head, fold_tail;        /* full SLC blocks, oldest first */
	uint32_t nslc;          /* SLC-mode blocks holding data */
	uint32_t slc_empty;     /* blocks in the fold queue with no valid data */
	uint32_t retire_head;   /* blocks to clean, then retire */
	uint32_t pend_head;     /* cleaned victims whose last copies wait in
	                           the GC page: erased when it is programmed */
	uint32_t good_native;   /* native-mode blocks not BAD (the static
	                           SLC cache's blocks not counted) */
	struct ssd_wp host, host_slc, gc;
	uint32_t victim;        /* block being cleaned, or SSD_NO_BLOCK */
	uint32_t vpos, vcount;  /* cursor and length of the victim's list of
	                           slots valid when it was picked (vlist) */
	int vkind;              /* why it is cleaned (ftl.c) */
	int vcopy_open;         /* its last copy waits in the GC page */
	uint32_t wl_victim;     /* static wear leveling's next move */
	uint32_t erases;        /* erases in this unit (wear-leveling check) */
	double gc_debt;         /* slots paced GC still owes (ftl.c) */
};

struct ssd_ftl {
	struct ssd_config cfg;
	struct ssd_flash flash;
	struct ssd_counters ctr;
	uint32_t nlp;           /* logical 4 KiB pages (user capacity) */
	uint32_t nblocks;       /* FTL blocks */
	uint32_t units;         /* allocation units */
	uint32_t bpu;           /* blocks per unit */
	uint32_t ppb;           /* pages per block */
	uint32_t spp;           /* 4 KiB slots per page */
	uint32_t spb;           /* slots per block */
	struct ssd_udiv div_spp, div_spb, div_bpu; /* fast division by them */
	uint32_t fg_blocks, bg_blocks;
	uint32_t fg_target;     /* free blocks a foreground burst restores */
	uint32_t *l2p;          /* [lpn] slot */
	uint32_t *p2l;          /* [slot] lpn (meaningful where vbits is set) */
	uint64_t *vbits;        /* [slot / 64] bit set = slot holds valid data */
	uint32_t *vlist;        /* [unit * spb + i] victim slots to copy */
	uint32_t *valid;        /* [blk] valid slots */
	uint32_t *next, *prev;  /* [blk] list links (free list / policy) */
	uint64_t *stamp;        /* [blk] host pages written when it filled */
	uint8_t *state;         /* [blk] enum ssd_blk_state */
	uint32_t *wear;         /* [blk] wear, 1/1000 of a rated cycle */
	uint32_t *limit;        /* [blk] endurance, same unit */
	uint32_t slc_wear;      /* wear of one SLC-mode erase, same unit */
	uint32_t bits;          /* bits per cell of the native mode */
	uint32_t spb_slc;       /* slots of a block in SLC mode */
	uint32_t slc_static;    /* static cache: SLC blocks per unit */
	uint32_t slc_max;       /* dynamic cache: most SLC blocks per unit */
	uint64_t need_blocks;   /* native blocks the data and reserve need */
	uint64_t spare_initial; /* good native blocks beyond that, at birth */
	uint64_t bad;           /* BAD blocks */
	int readonly;           /* spares exhausted: writes refused */
	/* map cache (map_cache > 0) */
	uint32_t mc_epp;        /* map entries per map page */
	uint32_t mc_pages;      /* map pages in all */
	uint32_t mc_cap, mc_n;  /* pages the cache holds, and holds now */
	uint32_t mc_head, mc_tail; /* LRU: most recent at head */
	uint32_t *mc_next, *mc_prev;
	uint8_t *mc_state;      /* [map page] 0 absent, 1 clean, 2 dirty */
	/* queued TRIM (trim_mode background or deferred) */
	uint64_t *tbits;        /* [lpn / 64] trimmed, not yet processed */
	struct ssd_trim_range { uint32_t lpn, n; } *tq; /* ring of ranges */
	uint32_t tq_head, tq_len, tq_cap;
	uint64_t tq_pages;      /* pages in the queue */
	struct ssd_unit *unit;  /* [unit] */
	uint32_t cur_unit;      /* unit of the host write point */
	uint32_t *uvalid;       /* [unit] valid slots in the unit */
	uint32_t *ulimit;       /* [unit] valid slots it may hold (above) */
	const struct ssd_gc_ops *gc;
	void *gc_state;
	struct ssd_rng rng;     /* for randomised policies */
	uint64_t mapped;        /* logical pages currently mapped */
	/* Debug: run ssd_ftl_check after every `check_every` GC victims and
	 * record the first failure (tests set it; 0 = never). */
	uint32_t check_every;
	uint32_t check_count;
	uint64_t check_runs;    /* checks run so far */
	int check_failed;
	int check_due;          /* a failure or retirement: check at the
	                           end of the current call */
	char check_msg[160];
	/* The first internal error (SSD_ESTATE) in words, for the report. */
	char err_msg[160];
	/* Data verification (ssd_ftl_verify_on; NULL while off).  What a
	 * drive's out-of-band area holds: vgen[slot] is the write of its
	 * logical page (p2l) that the slot carries, taken from the host's
	 * tag of that page, vsrc[lpn], when the data enters the drive, and
	 * carried along with the data by GC copies, SLC folding and the
	 * rewrite of a failed page. */
	uint32_t *vgen;         /* [slot] write tag of the data it holds */
	const uint32_t *vsrc;   /* [lpn] the host's tag of its data */
};

/* Build an FTL (and its flash backend) for a finished config.  Returns
 * 0, SSD_ENOMEM or SSD_EINVAL. */
int ssd_ftl_create(const struct ssd_config *c, uint64_t seed,
		   struct ssd_ftl **out);
void ssd_ftl_destroy(struct ssd_ftl *f);

/* Write logical page lpn, data available at t.  Returns when the data is
 * in the flash (register); programming may finish later.  SSD_EROFS once
 * the drive is read-only. */
int64_t ssd_ftl_write(struct ssd_ftl *f, uint32_t lpn, int64_t t);

/* Read n logical pages from lpn.  Unmapped pages cost nothing; data in
 * open pages comes from the register.  Returns when all data is in the
 * controller. */
int64_t ssd_ftl_read(struct ssd_ftl *f, uint32_t lpn, uint32_t n, int64_t t);

/* Hint that logical pages [lpn, lpn + n) will be accessed soon: stage 0
 * prefetches their map entries, stage 1 (issued later, when those are in
 * cache) the per-slot and per-block state they point to.  No effect on
 * results; it only overlaps the cache misses of upcoming commands. */
void ssd_ftl_prefetch(const struct ssd_ftl *f, uint32_t lpn, uint32_t n,
		      int stage);

/* A host write covers only part of logical page lpn: the rest of the
 * page must be kept, so the controller reads the old page (read-modify-
 * write) unless it is unmapped, trimmed or still in an open page.
 * Returns when the old data is in the controller (t if no read was
 * needed).  Counted in rmw_read_lp, not as a host read. */
int64_t ssd_ftl_merge_read(struct ssd_ftl *f, uint32_t lpn, int64_t t);

/* Unmap n logical pages from lpn (TRIM).  No NAND work (but map-cache
 * traffic).  With trim_mode immediate the pages are unmapped now; with
 * background or deferred they are marked trimmed (reads return zeros at
 * once) and queued, and stay valid for GC until ssd_ftl_trim_work
 * processes them.  Returns the time it completes, or SSD_EROFS. */
int64_t ssd_ftl_trim(struct ssd_ftl *f, uint32_t lpn, uint32_t n, int64_t t);

/* Process up to max_pages queued TRIM pages (oldest first): unmap those
 * not rewritten since.  Returns the pages taken off the queue. */
uint64_t ssd_ftl_trim_work(struct ssd_ftl *f, uint64_t max_pages);

/* Pad and program every open page.  Returns when all are programmed. */
int64_t ssd_ftl_flush(struct ssd_ftl *f, int64_t t);

/* Background GC in the idle window [from, until): each unit below
 * gc_bg_blocks free blocks cleans page by page while its die is free.
 * Work may start up to `until` and finish a little after it.  Returns 0,
 * or the first error of the GC (SSD_ESTATE: an invariant broke); having
 * nothing worth cleaning is not an error. */
int ssd_ftl_idle(struct ssd_ftl *f, int64_t from, int64_t until);

/* With check_every set: run the invariant checker now (the runner calls
 * it at the end of every job; without check_every it does nothing).  Returns 0, or SSD_ESTATE once any check
 * has failed (check_msg says what). */
int ssd_ftl_audit(struct ssd_ftl *f);

/* Check every invariant (maps are inverses, per-block counts, states,
 * free lists, the policy's index).  Returns 0, or SSD_ESTATE with a
 * one-line description in err.  O(physical slots). */
int ssd_ftl_check(const struct ssd_ftl *f, char *err, size_t errlen);

/* The drive's health now (wear, spares, bad blocks, bytes written,
 * erase-count distribution).  O(blocks). */
void ssd_ftl_health(const struct ssd_ftl *f, struct ssd_health *h);

/* Turn data verification on: from now on every slot programmed keeps
 * the tag of its data (4 bytes per slot), read from src[lpn] for host
 * writes and copied along with the data inside the drive.  Slots
 * programmed before hold tag 0.  Returns 0 or SSD_ENOMEM. */
int ssd_ftl_verify_on(struct ssd_ftl *f, const uint32_t *src);

/* What a read of logical page lpn returns now: 1 and the logical page
 * and tag its slot's out-of-band area holds, or 0 for zeros (unmapped,
 * or trimmed).  Costs no time (the read itself is timed by
 * ssd_ftl_read).  Needs ssd_ftl_verify_on. */
int ssd_ftl_verify_get(const struct ssd_ftl *f, uint32_t lpn, uint32_t *lp,
		       uint32_t *tag);

/* Free blocks in all units. */
uint64_t ssd_ftl_free_blocks(const struct ssd_ftl *f);

static inline int ssd_bit_test(const uint64_t *b, uint32_t i)
{
	return (int)((b[i >> 6] >> (i & 63)) & 1);
}

static inline void ssd_bit_set(uint64_t *b, uint32_t i)
{
	b[i >> 6] |= 1ULL << (i & 63);
}

static inline void ssd_bit_clear(uint64_t *b, uint32_t i)
{
	b[i >> 6] &= ~(1ULL << (i & 63));
}

/* 1 if blk is a GC candidate: full and in native mode. */
static inline int ssd_ftl_candidate(const struct ssd_ftl *f, uint32_t blk)
{
	return f->state[blk] == SSD_BLK_FULL && !f->flash.nand.slc[blk];
}

static inline uint32_t ssd_ftl_unit_of(const struct ssd_ftl *f, uint32_t blk)
{
	return ssd_udiv(blk, f->div_bpu);
}

#endif
