/*
 * ftl_int.h -- the FTL's state, shared by the .c files of src/ftl and by
 * nothing else (other modules see struct ssd_ftl as opaque and call the
 * functions of ftl.h).
 *
 * Hot state lives in flat arrays indexed by logical page, slot or block;
 * the per-page helpers below are static inline so that the write path
 * and the GC copy loop, split over several files, still inline them.
 */
#ifndef SSD_FTL_INT_H
#define SSD_FTL_INT_H

#include <stddef.h>
#include <stdint.h>

#include "base/config.h"
#include "base/counters.h"
#include "base/util.h"
#include "ftl/ftl.h"
#include "ftl/gc.h"
#include "nand/flash.h"

enum ssd_blk_state {
	SSD_BLK_FREE,
	SSD_BLK_OPEN,
	SSD_BLK_FULL,
	SSD_BLK_VICTIM,
	SSD_BLK_RETIRE,   /* a program failed: clean it, then BAD */
	SSD_BLK_BAD,
	SSD_BLK_MAPPED    /* a row's block under mapping = block, bast,
	                     fast (ftl_bm.c) */
};

struct ssd_wp {
	uint32_t blk;           /* open block, or SSD_NO_BLOCK */
	uint32_t next;          /* next slot index inside blk */
	uint32_t fill;          /* slots filled in the open page */
	int fragile;            /* the block is near its endurance */
	int track;              /* power-loss tracking records its programs */
	int slow;               /* fragile or track: the program's slow path */
	uint32_t cap;           /* slots of the open block in its mode */
	int64_t ready;          /* data of the open page is loaded by then */
	int64_t durable;        /* host write points: every page a host
	                           write filled is programmed by then (a
	                           flush waits for it: a full page still
	                           programming is not durable yet) */
};

/* Bounds on a unit's wear that let static wear leveling's check skip its
 * scan of the unit's blocks: every good block's wear is >= lo (lo_n of
 * them equal to it) and <= hi.  Kept up as blocks are erased and retired;
 * ok = 0 until a scan has set them (after creation or a snapshot load). */
struct ftl_wl_bound {
	uint32_t lo, lo_n, hi, ok;
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
	int vkind;              /* why it is cleaned (ftl_gc.c) */
	int vcopy_open;         /* its last copy waits in the GC page */
	uint32_t wl_victim;     /* static wear leveling's next move */
	uint32_t erases;        /* erases in this unit (wear-leveling check) */
	double gc_debt;         /* slots paced GC still owes (ftl_gc.c) */
};

struct ssd_ftl {
	struct ssd_ftl_public pub; /* first (ftl.h) */
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
	uint32_t reserve;       /* blocks per unit kept from data: the
	                           geometry's reserve_blocks */
	uint32_t fg_target;     /* free blocks a foreground burst restores */
	uint32_t *l2p;          /* [lpn] slot */
	uint32_t *p2l;          /* [slot] lpn (meaningful where vbits is set) */
	uint64_t *vbits;        /* [slot / 64] bit set = slot holds valid data */
	uint32_t *vlist;        /* [unit * spb + i] victim slots to copy */
	uint32_t *valid;        /* [blk] valid slots */
	uint32_t *next, *prev;  /* [blk] list links (free list / policy) */
	struct ftl_wl_bound *wlb; /* [unit] wear bounds (ftl_wear.c): derived,
	                             not saved */
	/* Each unit's native free list again, as a ring in list order with
	 * each block's wear beside it (ftl.c): dynamic wear leveling scans
	 * the wear of every free block at each pop, and a walk of next[]
	 * would miss the cache at every step.  Derived, not saved: fr_ok = 0
	 * after a snapshot load rebuilds it from the lists. */
	uint32_t *fr_blk, *fr_wear; /* [unit * bpu + i] */
	uint32_t *fr_head;          /* [unit] ring index of the list's head */
	int fr_ok;
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
	uint32_t ulo, uend;     /* the host stream goes round units ulo ..
	                           uend - 1: all of them, or with FDP's
	                           reclaim groups its group's (ftl_fdp.c) */
	uint32_t pid;           /* fdp: the placement handle of the host
	                           writes now (0: the default, handle 0) */
	uint8_t *cstart;        /* gc_copies = host: [unit] its open host
	                           page was begun by a GC copy, not by the
	                           host stream (else NULL) */
	uint32_t *uvalid;       /* [unit] valid slots in the unit */
	uint32_t *ulimit;       /* [unit] valid slots it may hold (above) */
	const struct ssd_gc_ops *gc;
	void *gc_state;
	struct ssd_gc_view gcv; /* what the policy sees (gc_view_init) */
	struct ssd_rng rng;     /* for randomised policies */
	uint64_t mapped;        /* logical pages currently mapped */
	/* Debug: run ssd_ftl_check after every `check_every` GC victims and
	 * record the first failure (tests set it; 0 = never). */
	uint32_t check_every;
	uint32_t check_count;
	uint64_t check_runs;    /* checks run so far */
	int check_failed;       /* set by ftl_set_check_failed */
	int check_due;          /* a failure, a retirement, the turn to
	                           read-only or a broken timing rule (the
	                           flash's accounting sets it): check at the
	                           end of the current call */
	int64_t floor_read;     /* with check_every: the shortest array read
	                           and program, ns (ssd_flash_min_times) */
	int64_t floor_prog;
	char check_msg[384];
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
	/* Power-loss tracking (ftl_power.c; ssd_ftl_power_track, off while
	 * ptrack is 0): the events a cut from the horizon on may still see,
	 * the TRIM journal and the flushes that make it durable. */
	int ptrack;
	int ptrack_err;         /* out of memory: the lists are incomplete */
	int recovering;         /* a power cut's rebuild writes: a read-only
	                           drive still relocates what survived */
	const int64_t *horizon; /* no cut is earlier: the latest submission,
	                           kept by the caller */
	struct ftl_prog_rec {
		uint32_t blk, page, gen;
		uint32_t lower;          /* pages of its wordline below it that
		                            a cut during it destroys
		                            (paired_pages; else 0) */
		int64_t start, end;
	} *pr;
	uint32_t pr_n, pr_cap;  /* page programs, in order */
	struct ftl_erase_rec {
		uint32_t blk, gen, pages; /* its erases and programmed pages
		                             before this erase */
		int full;
		int64_t start;
	} *er;
	uint32_t er_n, er_cap;  /* erases, in order; er_save[i] holds the
	                           block's p2l then its tags, spb each */
	uint32_t *er_save;
	struct ftl_flush_rec { uint32_t seq; int64_t done; } *fr;
	uint32_t fr_n, fr_cap;
	uint32_t flush_seq;     /* flushes submitted */
	uint32_t fr_base;       /* every flush up to it done before horizon */
	uint32_t *trim_cnt;     /* [lpn] TRIM_HAS | its count at its last TRIM */
	uint32_t *trim_ep;      /* [lpn] flushes submitted before that TRIM */
	uint32_t *trim_floor;   /* [lpn] TRIM_HAS | the count of its newest
	                           TRIM known durable */
	struct ftl_trim_rec { uint32_t lpn, cnt, ep; } *tlog;
	uint32_t tlog_n, tlog_cap; /* earlier TRIMs not yet known durable */
	uint32_t *sup;          /* [(unit * 2 + slc) * spp + i] the block whose
	                           slot the host write in slot i of the open
	                           page superseded, or SSD_NO_BLOCK */
	uint32_t *wsup;         /* [unit * (bits - 1) * spp + i] paired_pages =
	                           protected: blocks superseded by host writes
	                           in the programmed pages of the host write
	                           point's incomplete wordline */
	uint32_t *wsup_n;       /* [unit] entries of wsup */
	uint32_t *wsup_blk;     /* [unit] the block of that wordline */
	uint32_t *vmark;        /* [unit * 2] the GC write point's block and
	                           slot when the victim's cleaning began
	                           (tracking only: the struct of the hot
	                           path keeps its size) */
	int64_t *inv_end;       /* [blk] the writes that superseded its data
	                           are programmed by then */
	uint32_t *tinv;         /* [blk] a TRIM unmapped data in it: durable
	                           once a flush of at least this sequence
	                           number completes (0: none) */
	struct ftl_bm *bm;      /* mapping = block, bast, fast: the rows and
	                           logs (ftl_bm.c); NULL for page mapping */
	struct ftl_zone *zn;    /* mapping = zone: the zones' blocks
	                           (ftl_zone.c); else NULL */
	struct ftl_fdp *fdp;    /* fdp: the handles' write points and the
	                           blocks' owners (ftl_fdp.c); else NULL */
	/* Power-loss tracking, continued: what bounds a cut's work to what
	 * is in flight (ftl_power.c).  dslot[lpn] is the newest copy of
	 * the page known programmed before every cut to come (folded in
	 * from the programs the lists drop), or SSD_UNMAPPED; tl lists the
	 * pages with a TRIM since the last cut (trim_cnt set). */
	uint32_t *dslot;
	uint32_t *tl;
	uint32_t tl_n, tl_cap;
};

_Static_assert(offsetof(struct ssd_ftl, pub) == 0,
	       "ssd_ftl_check_failure reads the first member");

/* Record whether a check has failed (check_msg says what), for
 * ssd_ftl_check_failure too. */
static inline void ftl_set_check_failed(struct ssd_ftl *f, int failed)
{
	f->check_failed = failed;
	f->pub.check_failure = failed ? f->check_msg : NULL;
}

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
	return f->state[blk] == SSD_BLK_FULL && !ssd_flash_slc(&f->flash, blk);
}

static inline uint32_t ssd_ftl_unit_of(const struct ssd_ftl *f, uint32_t blk)
{
	return ssd_udiv(blk, f->div_bpu);
}

/* Erases in a unit between two static wear-leveling checks (a check is a
 * scan of the unit's blocks). */
#define WL_CHECK_EVERY 16

static inline uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static inline int is_static_slc(const struct ssd_ftl *f, uint32_t blk)
{
	return blk - ssd_ftl_unit_of(f, blk) * f->bpu < f->slc_static;
}

static inline uint32_t blk_slots(const struct ssd_ftl *f, uint32_t blk)
{
	return ssd_flash_slc(&f->flash, blk) ? f->spb_slc : f->spb;
}

/* A slot's data is superseded (overwrite, TRIM, moved): clear its bit,
 * count it, and tell the policy or the fold queue. */
static inline void invalidate(struct ssd_ftl *f, uint32_t slot)
{
	uint32_t blk = ssd_udiv(slot, f->div_spb);
	ssd_bit_clear(f->vbits, slot);
	f->valid[blk]--;
	uint32_t ui = ssd_ftl_unit_of(f, blk);
	f->uvalid[ui]--;
	if (f->state[blk] == SSD_BLK_FULL) {
		if (!ssd_flash_slc(&f->flash, blk))
			f->gc->invalidated(&f->gcv, f->gc_state, blk);
		else if (!f->valid[blk])
			f->unit[ui].slc_empty++; /* in the fold queue, empty */
	}
}

/* ---- shared by the files of src/ftl ---- */

/* ftl_wear.c */
int64_t ftl_spare_left(const struct ssd_ftl *f);
uint64_t ftl_unit_cap(const struct ssd_ftl *f, uint32_t ui);
void ftl_unit_limits(struct ssd_ftl *f);
int ftl_no_room(struct ssd_ftl *f, uint32_t ui, const char *what);
void ftl_retire(struct ssd_ftl *f, struct ssd_unit *u, uint32_t blk);
void ftl_wl_check(struct ssd_ftl *f, uint32_t ui);
void ftl_wl_erased(struct ssd_ftl *f, uint32_t ui, uint32_t blk, uint32_t old);
void ftl_draw_limits(struct ssd_ftl *f);

/* ftl_bm.c: block mapping and the log-block hybrids: set up and free,
 * the host write, flush and idle work, and the checker's parts. */
int ftl_bm_init(struct ssd_ftl *f);
uint64_t ftl_bm_mem(const struct ssd_ftl *f); /* bytes init allocates; f's
                                                 cfg and counts set */
void ftl_bm_free(struct ssd_ftl *f);
int64_t ftl_bm_write(struct ssd_ftl *f, uint32_t lpn, int64_t t);
int64_t ftl_bm_flush(struct ssd_ftl *f, int64_t t);
int ftl_bm_idle(struct ssd_ftl *f, int64_t from, int64_t until);
int ftl_bm_open_slot(const struct ssd_ftl *f, uint32_t blk, uint32_t i);
int ftl_bm_check(const struct ssd_ftl *f, char *err, size_t errlen);

/* ftl_zone.c: a zoned drive's zones (mapping = zone): set up and free,
 * the host write, flush, and the checker's parts. */
int ftl_zone_init(struct ssd_ftl *f);
uint64_t ftl_zone_mem(const struct ssd_ftl *f);
void ftl_zone_free(struct ssd_ftl *f);
int64_t ftl_zone_write(struct ssd_ftl *f, uint32_t lpn, int64_t t);
int64_t ftl_zone_flush(struct ssd_ftl *f, int64_t t);
int ftl_zone_open_slot(const struct ssd_ftl *f, uint32_t blk, uint32_t i);
int ftl_zone_check(const struct ssd_ftl *f, char *err, size_t errlen);
/* A zoned drive's zones in a snapshot (ftl_snap.c). */
struct ssd_snapw;
struct ssd_snapr;
void ftl_zone_snap_save(const struct ssd_ftl *f, struct ssd_snapw *w);
/* 4 KiB pages waiting in the zones' part-filled pages (0 if not zoned). */
uint64_t ftl_zone_open_lp(const struct ssd_ftl *f);
/* A power cut's zones (ftl_power.c): each zone's data past its first
 * page not programmed by the cut (pend: the sorted block * ppb + page of
 * the programs that had not ended; nothing with pc->save_all) unmapped
 * and listed in pc (lost_lp, lost, touched), its write pointer there,
 * its part page padded at t, a zone left with nothing erased.  0 or
 * SSD_ENOMEM / the FTL's error. */
struct ssd_power_cut;
int ftl_zone_cut(struct ssd_ftl *f, const uint64_t *pend, uint32_t np,
		 struct ssd_power_cut *pc, int64_t t);
int ftl_zone_snap_load(struct ssd_ftl *f, struct ssd_snapr *r);

/* ftl_fdp.c: flexible data placement (fdp = yes): set up and free; the
 * host write point of handle f->pid (> 0) on unit ui; a block opened
 * for host data of handle h, or for GC copies (h = FDP_MIXED with
 * initially isolated handles); the GC write point a victim's copies go
 * to; a host write of lpn (its handle noted and counted); GC's `moved`
 * copies into w (counted for w's handle); whether block b was closed by
 * a handle update before it was full; a program in block blk of unit ui
 * failed (its data moves: the event "media reallocated"); padding every handle's open page
 * (flush); the write point holding block b, if any; the checker's
 * part. */
#define FDP_MIXED 0xff
int ftl_fdp_init(struct ssd_ftl *f);
uint64_t ftl_fdp_mem(const struct ssd_ftl *f);
void ftl_fdp_free(struct ssd_ftl *f);
struct ssd_wp *ftl_fdp_host(struct ssd_ftl *f, uint32_t ui);
int ftl_fdp_page_open(const struct ssd_ftl *f, uint32_t ui);
void ftl_fdp_opened(struct ssd_ftl *f, uint32_t ui, const struct ssd_wp *w,
		    uint32_t blk);
void ftl_fdp_wrote(struct ssd_ftl *f, uint32_t lpn);
void ftl_fdp_copied(struct ssd_ftl *f, uint32_t ui, const struct ssd_wp *w,
		    uint32_t moved);
int ftl_fdp_early(const struct ssd_ftl *f, uint32_t b);
void ftl_fdp_realloc(struct ssd_ftl *f, uint32_t ui, uint32_t blk, int64_t t);
struct ssd_wp *ftl_fdp_gc_dest(struct ssd_ftl *f, uint32_t ui, uint32_t victim);
int64_t ftl_fdp_pad(struct ssd_ftl *f, int64_t t);
const struct ssd_wp *ftl_fdp_wp_of(const struct ssd_ftl *f, uint32_t b);
int ftl_fdp_check(const struct ssd_ftl *f, char *err, size_t errlen);
/* The handles' write points for power-loss tracking (ftl_power.c) and
 * their state in a snapshot (ftl_snap.c). */
struct ssd_wp *ftl_fdp_wp(struct ssd_ftl *f, uint32_t ui, uint32_t k);
uint32_t ftl_fdp_host_handle(const struct ssd_ftl *f, uint32_t ui,
			     const struct ssd_wp *w);
uint32_t ftl_fdp_handle_of(const struct ssd_ftl *f, uint32_t lpn);
int ftl_fdp_may_hold(const struct ssd_ftl *f, uint32_t b, uint32_t lpn);
struct ssd_snapw;
struct ssd_snapr;
void ftl_fdp_snap_save(const struct ssd_ftl *f, struct ssd_snapw *w);
int ftl_fdp_snap_load(struct ssd_ftl *f, struct ssd_snapr *r);

/* ftl_mapcache.c: the map entry of lpn is used at t (dirty: it
 * changes), the cache being on.  Returns when it is in DRAM. */
int64_t ftl_map_load(struct ssd_ftl *f, uint32_t lpn, int dirty, int64_t t);

/* The map entry of lpn is used at t: at once without a map cache. */
static inline int64_t map_touch(struct ssd_ftl *f, uint32_t lpn, int dirty,
				int64_t t)
{
	if (!f->mc_cap)
		return t;
	return ftl_map_load(f, lpn, dirty, t);
}

/* ftl_power.c: record a page program of w's block on unit ui ending at
 * `end` (the page just programmed); an erase of blk on unit ui asked for
 * at t (returns when it may start: once the writes that superseded its
 * data are programmed); a TRIM; a flush completing at `done`; free the
 * lists. */
void ftl_power_prog(struct ssd_ftl *f, uint32_t ui, const struct ssd_wp *w,
		    int64_t end);
int64_t ftl_power_erase(struct ssd_ftl *f, uint32_t ui, uint32_t blk, int64_t t);
void ftl_power_trim(struct ssd_ftl *f, uint32_t lpn, uint32_t n);
void ftl_power_trim_unmap(struct ssd_ftl *f, uint32_t lpn, uint32_t slot);
void ftl_power_flush(struct ssd_ftl *f, int64_t done);
/* The same for a page of blk programmed outside a write point (a zone's,
 * ftl_zone.c). */
void ftl_power_page(struct ssd_ftl *f, uint32_t blk, int64_t end);
/* The block the data of slot old (or SSD_UNMAPPED) lay in, superseded by
 * the write just placed at w's fill: erased only once w's page is
 * programmed (ftl_power_erase). */
void ftl_power_sup(struct ssd_ftl *f, uint32_t ui, const struct ssd_wp *w,
		   uint32_t old);
void ftl_power_free(struct ssd_ftl *f);
/* Bytes ssd_ftl_power_track allocates, and a cut's rebuild at its
 * largest (f's cfg and counts set); the event lists since the horizon
 * are not counted (they hold the work in flight). */
uint64_t ftl_power_mem(const struct ssd_ftl *f);

/* ftl.c: pad the open page of write point w and program it; and the
 * same, then whole pages of padding until w's wordline is complete
 * (paired_pages = protected while tracking; else as ftl_wp_pad). */
int64_t ftl_wp_pad(struct ssd_ftl *f, uint32_t ui, struct ssd_wp *w, int64_t t);
int64_t ftl_wl_pad(struct ssd_ftl *f, uint32_t ui, struct ssd_wp *w, int64_t t);

/* Pages of blk's wordline below page p: 0 for an SLC-mode block or an
 * LSB page (the pages of a wordline are consecutive, flash.h). */
static inline uint32_t ftl_wl_lower(const struct ssd_ftl *f, uint32_t blk,
				    uint32_t p)
{
	return ssd_flash_slc(&f->flash, blk) ? 0 : f->flash.ptype[p];
}

/* 1 if blk's next page is within a wordline whose first pages are
 * programmed: what they hold may still be destroyed by a cut during the
 * next program (paired pages). */
static inline int ftl_wl_open(const struct ssd_ftl *f, uint32_t blk)
{
	uint32_t np = ssd_flash_next_page(&f->flash, blk);
	return np && np < ssd_flash_block_pages(&f->flash, blk) &&
	       ftl_wl_lower(f, blk, np) != 0;
}

/* Does the controller guard paired pages (tracking on, protected)? */
static inline int ftl_wl_guard(const struct ssd_ftl *f)
{
	return f->ptrack && f->cfg.paired_pages == SSD_PAIRED_PROTECTED;
}

/* ftl_check.c: run the checker now if check_every is set and no check
 * has failed yet. */
void ftl_check_run(struct ssd_ftl *f);

/* ftl_check.c, with check_every set: a call `what` on n logical pages
 * from lpn, its input ready at t, returned `done`; the flash work of the
 * road it took takes at least `floor` ns (`why` says which work).
 * Records the first failure if done precedes t or falls short of it. */
void ftl_check_floor(struct ssd_ftl *f, const char *what, uint32_t lpn,
		     uint32_t n, int64_t t, int64_t done, int64_t floor,
		     const char *why);

/* ---- write points and the block pools (ftl.c, ftl_gc.c, ftl_slc.c) ----
 *
 * A write point's open page is programmed by wp_program, once per NAND
 * page, from the host path (ftl.c) and the GC copy loop (ftl_gc.c): it and
 * wp_append are static inline here so that both inline them; what they
 * call only once per block or on a failure is a function. */

/* ftl.c: give write point w of unit ui an open block (native, or SLC
 * mode): 0 or SSD_ENOSPC.  A block's last page is programmed: it is FULL
 * (the policy's, or the fold queue's).  The page just programmed in w's
 * block failed: rewrite its data elsewhere and retire the block.  A block
 * goes back to its unit's free pool. */
int ftl_wp_open(struct ssd_ftl *f, uint32_t ui, struct ssd_wp *w, int slc);
void ftl_block_full(struct ssd_ftl *f, uint32_t ui, uint32_t blk);
int64_t ftl_program_failed(struct ssd_ftl *f, uint32_t ui, struct ssd_wp *w,
			   int64_t ready);
void ftl_free_push(struct ssd_ftl *f, uint32_t blk);
uint32_t ftl_free_pop(struct ssd_ftl *f, struct ssd_unit *u);

/* ftl_gc.c: erase a cleaned victim (or retire it if the erase fails);
 * erase the victims whose last copies were in the GC page just
 * programmed at t; paced and burst foreground cleaning, and one unit's
 * idle-time work in [from, until) (0 or a negative error each). */
int64_t ftl_erase_block(struct ssd_ftl *f, uint32_t ui, uint32_t blk,
			int64_t t);
void ftl_erase_pending(struct ssd_ftl *f, uint32_t ui, int64_t t);
int ftl_gc_paced(struct ssd_ftl *f, uint32_t ui, int64_t t);
int ftl_gc_foreground(struct ssd_ftl *f, uint32_t ui, int64_t t);
int ftl_gc_idle(struct ssd_ftl *f, uint32_t ui, int64_t from, int64_t until);

/* ftl_slc.c: the fold queue (push a full SLC block, pop the oldest), and
 * erasing cached blocks with no valid data while the cache is out of
 * room (1 if it has room afterwards). */
void ftl_fold_push(struct ssd_ftl *f, struct ssd_unit *u, uint32_t blk);
uint32_t ftl_fold_pop(struct ssd_ftl *f, struct ssd_unit *u);
int ftl_slc_reclaim(struct ssd_ftl *f, uint32_t ui, int64_t t);

/* A program of a block near its endurance may fail: from 95% of it on,
 * with a chance rising to 1% per page at 100%. */
static inline int program_fails(struct ssd_ftl *f, const struct ssd_wp *wp,
				uint32_t blk)
{
	if (!wp->fragile)
		return 0;
	uint64_t w = f->wear[blk], l = f->limit[blk];
	double p = 0.01 * ((double)w / (double)l - 0.95) / 0.05;
	return ssd_rng_unit(&f->rng) < p;
}

/* The data of slot `from` is copied into slot `to` (GC, folding, the
 * rewrite of a failed page): its tag goes with it. */
static inline void verify_copy(struct ssd_ftl *f, uint32_t from, uint32_t to)
{
	f->vgen[to] = f->vgen[from];
}

static inline int64_t wp_program(struct ssd_ftl *f, uint32_t ui,
				  struct ssd_wp *w, int64_t ready);

/* Where unit u's GC copies go: its GC write point, or with gc_copies =
 * host the host's open block (a function of the config, so that struct
 * ssd_unit keeps its size on the hot path). */
static inline struct ssd_wp *gc_dest(const struct ssd_ftl *f,
				     struct ssd_unit *u)
{
	/* (flexible data placement: ftl_fdp_gc_dest) */
	return f->cfg.gc_copies == SSD_GC_COPIES_HOST ? &u->host : &u->gc;
}

/* ftl.c: the rest of wp_append for a page shared with host slots
 * (gc_copies = host): the copy is loaded on its own, as the host's slots
 * are, and whoever fills the page programs it. */
int ftl_append_shared(struct ssd_ftl *f, uint32_t ui, struct ssd_wp *w,
		      int64_t ready);

/* Put lpn, whose data is in the controller at `ready` (read from slot
 * `src`), into the next slot of w (a GC-style append: the data moves into
 * the register when its page is complete).  Used for GC copies and to
 * rewrite the data of a failed page.  Returns 0 or a negative error. */
static inline int wp_append(struct ssd_ftl *f, uint32_t ui, struct ssd_wp *w,
		     uint32_t lpn, uint32_t src, int64_t ready, int slc)
{
	if (w->blk == SSD_NO_BLOCK) {
		int rc = ftl_wp_open(f, ui, w, slc);
		if (rc)
			return rc;
	}
	uint32_t slot = w->blk * f->spb + w->next++;
	ssd_bit_set(f->vbits, slot);
	f->p2l[slot] = lpn;
	f->l2p[lpn] = slot;
	if (f->vgen)
		verify_copy(f, src, slot);
	f->valid[w->blk]++;
	if (__builtin_expect(w == &f->unit[ui].host, 0) &&
	    f->cfg.gc_copies == SSD_GC_COPIES_HOST)
		return ftl_append_shared(f, ui, w, ready);
	if (ready > w->ready)
		w->ready = ready;
	if (++w->fill == f->spp) {
		w->fill = 0;
		int64_t in = ssd_flash_load(&f->flash, ui, f->spp, w->ready);
		int64_t end = wp_program(f, ui, w, in);
		if (end < 0)
			return (int)end;
	}
	return 0;
}

/* The open page of w is complete and its data is in the register at
 * `ready`: program it.  Returns the program's end or a negative error. */
static inline int64_t wp_program(struct ssd_ftl *f, uint32_t ui,
				  struct ssd_wp *w, int64_t ready)
{
	uint32_t blk = w->blk;
	int64_t end = ssd_flash_program(&f->flash, ui, blk, ready);
	if (end < 0)
		return end;
	if (__builtin_expect(w->slow, 0)) {
		if (w->track)
			ftl_power_prog(f, ui, w, end);
		if (program_fails(f, w, blk))
			return ftl_program_failed(f, ui, w, end);
	}
	if (w->next == w->cap) {
		ftl_block_full(f, ui, blk);
		w->blk = SSD_NO_BLOCK;
	}
	if (w == &f->unit[ui].gc && f->unit[ui].pend_head != SSD_NO_BLOCK)
		ftl_erase_pending(f, ui, end);
	return end;
}

/* Free blocks below which a unit cleans in a burst before it opens a host
 * block: it keeps more than gc_fg_blocks, so a failed erase or a retired
 * block never leaves the GC write point without a block.  Paced GC works
 * from gc_fg_blocks down and normally frees a block just in time, so the
 * burst only finishes the victim in progress. */
static inline uint32_t gc_floor(const struct ssd_ftl *f)
{
	return f->fg_blocks + 1;
}

/* May unit u open one more block in SLC mode for host data?  Static: a
 * free SLC block exists.  Dynamic: under the cache's size, and enough
 * free blocks stay to fold everything cached into native mode. */
static inline int slc_room(const struct ssd_ftl *f, const struct ssd_unit *u)
{
	if (f->slc_static)
		return u->nslc_free > 0;
	if (u->nslc >= f->slc_max)
		return 0;
	uint32_t fold_need = (u->nslc + 1 + f->bits - 1) / f->bits;
	return u->nfree > f->reserve + fold_need;
}


#endif
