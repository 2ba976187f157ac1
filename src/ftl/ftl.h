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
 * GC: foreground (paced, or in bursts) and in idle time, a victim page at
 * a time (ftl_gc.c).  SLC cache, static or dynamic, and folding: ftl_slc.c.
 *
 * Wear.  Blocks have an endurance and wear out; the drive turns
 * read-only when its spares are gone (ftl_wear.c).
 *
 * Map cache.  Optionally only part of l2p is in DRAM (ftl_mapcache.c).
 *
 * TRIM, queued or immediate: ftl_trim.c.  The invariant checker:
 * ftl_check.c.
 *
 * Times are simulated ns; functions that return a time return a negative
 * SSD_E* code on failure.
 */
#ifndef SSD_FTL_H
#define SSD_FTL_H

#include <stddef.h>
#include <stdint.h>

#include "base/config.h"
#include "base/counters.h"
#include "base/sysmem.h"

#define SSD_UNMAPPED 0xffffffffu

struct ssd_ftl; /* opaque (its fields: ftl_int.h, private to src/ftl) */

/* Build an FTL (and its flash backend) for a finished config.  Returns
 * 0, SSD_ENOMEM or SSD_EINVAL. */
int ssd_ftl_create(const struct ssd_config *c, uint64_t seed,
		   struct ssd_ftl **out);
void ssd_ftl_destroy(struct ssd_ftl *f);

/* Bytes ssd_ftl_create allocates for the finished config c, its flash
 * backend and GC policy included, and what the uses (SSD_MEM_VERIFY,
 * SSD_MEM_POWER: base/sysmem.h) add later (ssd_ftl_verify_on,
 * ssd_ftl_power_track and a cut's rebuild).  Kept beside the create
 * function it mirrors; tests/unit/machine/test_mem.c holds it to the bytes
 * a build allocates.  ssd_ftl_verify_mem is the out-of-band tags' part. */
uint64_t ssd_ftl_mem(const struct ssd_config *c, unsigned uses);
uint64_t ssd_ftl_verify_mem(const struct ssd_config *c);

/* Write logical page lpn, data available at t.  Returns when the data is
 * in the flash (register); programming may finish later.  SSD_EROFS once
 * the drive is read-only. */
int64_t ssd_ftl_write(struct ssd_ftl *f, uint32_t lpn, int64_t t);

/* The write buffer took new data of logical page lpn in place of the
 * copy last given to ssd_ftl_write, which was still in DRAM (not yet in
 * a register): the slot planned for that copy holds the new data.  No
 * time, no NAND work; with verification on, the slot takes the host's
 * newest tag. */
void ssd_ftl_write_replaced(struct ssd_ftl *f, uint32_t lpn);

/* Read n logical pages from lpn.  Unmapped pages cost nothing; data in
 * open pages comes from the register.  Returns when all data is in the
 * controller. */
int64_t ssd_ftl_read(struct ssd_ftl *f, uint32_t lpn, uint32_t n, int64_t t);

/* Hint that logical pages [lpn, lpn + n) will be accessed soon: stage 0
 * prefetches their map entries, stage 1 (issued later, when those are in
 * cache) the per-slot and per-block state they point to, stage 2 (later
 * still) what the GC policy will touch from there (a block's neighbours
 * in its index).  No effect on results; it only overlaps the cache misses
 * of upcoming commands. */
void ssd_ftl_prefetch(const struct ssd_ftl *f, uint32_t lpn, uint32_t n,
		      int stage);

/* 1 if stage 2 is worth its instructions: the drive's per-block tables
 * are well beyond a core's cache (65,536 blocks and more) and its GC
 * policy has something to prefetch. */
int ssd_ftl_prefetch_deep(const struct ssd_ftl *f);

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
 * processes them.  n may be 0 (a TRIM that holds no whole page: the
 * device passes only whole pages, device.h): nothing happens.  Returns
 * the time it completes, or SSD_EROFS. */
int64_t ssd_ftl_trim(struct ssd_ftl *f, uint32_t lpn, uint32_t n, int64_t t);

/* A zoned drive (mapping = zone; ftl_zone.c, docs/zoned.md).  The drive
 * checks commands against its zones (zns.h) first: zone z is logical
 * pages [z * size_lp, z * size_lp + cap_lp) (config.h's ssd_zones), each
 * written once, in order, until the zone's reset.  Reset: unmap the
 * zone's pages and erase its blocks at t; returns when the erases end.
 * Finish: with pad, program filler into the rest of a zone's blocks
 * (returns when programmed; a zone that holds nothing has none);
 * without, mark it only (returns t).  Written: the zone's host pages.
 * SSD_EINVAL for no such zone or a drive that is not zoned. */
int64_t ssd_ftl_zone_reset(struct ssd_ftl *f, uint32_t zone, int64_t t);
int64_t ssd_ftl_zone_finish(struct ssd_ftl *f, uint32_t zone, int pad,
			    int64_t t);
uint32_t ssd_ftl_zone_written(const struct ssd_ftl *f, uint32_t zone);
/* The zone's next position, lpn, holds no host data (an LBA of a random
 * write area the host never wrote when a flush moved over it): padding,
 * reading as unwritten.  Returns t or a negative error. */
int64_t ssd_ftl_zone_hole(struct ssd_ftl *f, uint32_t lpn, int64_t t);

/* Flexible data placement (fdp = yes; ftl_fdp.c, docs/fdp.md): the
 * handles and reclaim groups there are (0 without FDP); the stream a
 * placement identifier names (group * handles + handle), -1 for one the
 * drive does not have, and the identifier of a stream; the stream the
 * host writes from now on go to (SSD_FDP_DEFAULT: writes naming no
 * identifier, handle 0 in a group the drive chooses -- every unit in
 * turn; with one group the same as stream 0), and the one they go to
 * now (a value set_placement takes back). */
#define SSD_FDP_DEFAULT UINT32_MAX
uint32_t ssd_ftl_handles(const struct ssd_ftl *f);
uint32_t ssd_ftl_fdp_groups(const struct ssd_ftl *f);
int32_t ssd_ftl_fdp_stream(const struct ssd_ftl *f, uint32_t pid);
uint32_t ssd_ftl_fdp_pid(const struct ssd_ftl *f, uint32_t stream);
void ssd_ftl_set_placement(struct ssd_ftl *f, uint32_t stream);
uint32_t ssd_ftl_placement(const struct ssd_ftl *f);

/* FDP's events log (the spec's FDP Events log page, host and controller
 * events alike): its event types (the spec's codes), an event, the last
 * SSD_FDP_EVENTS of them kept. */
enum ssd_fdp_event_type {
	SSD_FDP_EV_RU_UNFILLED = 0x0, /* reclaim unit not written to capacity */
	SSD_FDP_EV_BAD_PID = 0x3,     /* invalid placement identifier */
	SSD_FDP_EV_MEDIA_REALLOC = 0x80 /* media reallocated: a program
	                                   failed, the data moved */
};
#define SSD_FDP_EVENTS 64
#define SSD_FDP_NO_PID UINT32_MAX /* an event of no placement identifier */
struct ssd_fdp_event {
	int type;               /* enum ssd_fdp_event_type */
	uint32_t pid;           /* the placement identifier, or SSD_FDP_NO_PID
	                           (media reallocated in a block the handles
	                           share: initial isolation's GC copies) */
	uint32_t group, handle; /* what it names (0 for an invalid one; the
	                           group and SSD_FDP_NO_PID without one) */
	int64_t t;              /* when, ns */
	uint64_t lba;           /* 4 KiB page the command began at (invalid
	                           placement identifier; else 0) */
};
/* Log an event (ssd.c: an invalid placement identifier). */
void ssd_ftl_fdp_event(struct ssd_ftl *f, int type, uint32_t pid, int64_t t,
		       uint64_t lba);
/* Copy up to max of the kept events, oldest first, to out; returns how
 * many are kept. */
uint32_t ssd_ftl_fdp_events(const struct ssd_ftl *f, struct ssd_fdp_event *out,
			    uint32_t max);
/* Reclaim Unit Handle Update (I/O Management Send) of n placement
 * identifiers at t: each names write points that move to new reclaim
 * units, the blocks they had closed where they are (an event when one
 * was not written to capacity).  Returns when the padding of their open
 * pages is programmed, SSD_FDP_EPID when an identifier names no stream
 * (nothing done), SSD_EUNSUP without FDP. */
int64_t ssd_ftl_fdp_update(struct ssd_ftl *f, const uint32_t *pids, uint32_t n,
			   int64_t t);

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
 * it at the end of every job; without check_every it does nothing).
 * Returns 0, or SSD_ESTATE once any check has failed
 * (ssd_ftl_check_failure says what). */
int ssd_ftl_audit(struct ssd_ftl *f);

/* Check every invariant (the flash backend's timing while it accounts,
 * then: maps are inverses, per-block counts, states, free lists, the
 * policy's index).  Returns 0, or SSD_ESTATE with a one-line
 * description in err.  O(physical slots). */
int ssd_ftl_check(const struct ssd_ftl *f, char *err, size_t errlen);

/* With check_every set: record `msg`, an invariant a layer above found
 * broken (the host interface's timing checks), as the checker's first
 * failure, unless one is recorded already; the drive's counts so far
 * are appended.  Without check_every it does nothing. */
void ssd_ftl_check_report(struct ssd_ftl *f, const char *msg);

/* The shortest flash work of this drive, ns: an array read (tR), a
 * program (tPROG) of any page in any mode the drive uses, and moving
 * 4 KiB over a channel.  Read retries and waiting only add to them:
 * they are the bounds the timing checks hold commands to. */
struct ssd_ftl_floor {
	int64_t read, prog, xfer;
};
void ssd_ftl_floor(const struct ssd_ftl *f, struct ssd_ftl_floor *out);

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

/* Power loss (ftl_power.c, docs/power-loss.md).  ssd_ftl_power_track
 * starts recording what a cut must see (needs ssd_ftl_verify_on: the
 * out-of-band tags); *horizon, kept by the caller, is the latest
 * submission, before which no cut can fall.  ssd_ftl_power_cut cuts the
 * power at pc->t (>= the horizon) and recovers from pc->on: the map is
 * rebuilt from what the flash held at t, the pages whose content changed
 * are counted (and listed in pc->lost, up to lost_cap, ascending); the
 * drive answers again at pc->ready.  The host's tags (the verify record)
 * are the caller's to set right.  Returns 0 or a negative SSD_E*. */
struct ssd_power_cut {
	int64_t t, on;          /* in: the cut, and power back (>= t) */
	int save_all;           /* in: protected and energy enough: every
	                           page accepted is saved */
	int full;               /* in: rebuild from every block and check
	                           every logical page (the whole drive), not
	                           only what the cut can have touched */
	uint32_t *lost;         /* in: room for lost_cap lpns, or NULL */
	uint64_t lost_cap;
	uint64_t nlost;         /* out: lpns listed */
	uint64_t lost_lp;       /* out: pages whose content changed */
	uint64_t trims_lost;    /* out: of which a TRIM undone */
	uint64_t remapped_lp;   /* out: mapped again where the copy lies */
	uint64_t rewritten_lp;  /* out: surviving copies written again */
	uint64_t unrelocated_lp;/* out: of the lost, older copies found but
	                           no room to write them again (worn out) */
	uint32_t *unplaced;     /* out: those lpns (malloc'd, the caller
	                           frees it; NULL if none): what they hold
	                           is undefined */
	uint64_t paired_lp;     /* out: 4 KiB slots of lower pages that
	                           programs under way at t destroyed
	                           (paired_pages) */
	uint32_t *touched;      /* out: the pages whose content the cut
	                           may have changed -- those lost among them
	                           -- ascending (malloc'd, the caller frees
	                           it; NULL if none): every other page holds
	                           what it held before the cut */
	uint64_t ntouched;
	int full_scan;          /* out: 1 if this cut had to read every
	                           block (a page's newest known copy had gone
	                           from where it was recorded) */
	uint64_t scan_reads;    /* out: pages read to rebuild the map */
	int64_t scan_end;       /* out: the map rebuilt */
	int64_t ready;          /* out: the drive answers again */
	/* the device's part (ssd_dev_power_cut) */
	uint64_t buffered_lp;   /* out: pages in the write buffer at t */
	uint64_t open_lp;       /* out: pages in open pages (registers) */
	int64_t save_ns;        /* out: what saving them takes (plp) */
	int64_t hold_ns;        /* out: what the stored energy gives (plp) */
};
int ssd_ftl_power_track(struct ssd_ftl *f, const int64_t *horizon);
/* 4 KiB pages held in open pages (cache registers) now, host and GC. */
uint64_t ssd_ftl_open_lp(const struct ssd_ftl *f);
/* Which of the n logical pages lpn[] hold the host's latest write of
 * them where no cut from the horizon on can lose it: out[i] = 1 when the
 * page is mapped, untrimmed, its copy is the one the host's tag names,
 * and that copy's program ended by the horizon out of the open pages
 * (its older contents can then never come back).  Returns 0, SSD_EINVAL
 * without tracking or once tracking is no longer exact, or SSD_ENOMEM. */
int ssd_ftl_power_durable(const struct ssd_ftl *f, const uint32_t *lpn,
			  uint32_t n, uint8_t *out);
int ssd_ftl_power_cut(struct ssd_ftl *f, struct ssd_power_cut *pc);

/* Fragmentation.  ssd_ftl_contiguous: 1 if logical pages lpn and
 * lpn + 1 both lie in the flash (mapped, not trimmed) and physically
 * follow each other -- the next slot of the same block, or, as a host
 * stream goes on to the next allocation unit after each NAND page, lpn
 * ends a NAND page and lpn + 1 starts a page of the next unit -- so
 * that the controller reads the two as one piece (read_piece_overhead,
 * device.h).  O(1), no simulated time.
 *
 * ssd_ftl_frag: how scattered the data is, sampled: up to 4096 windows
 * of 32 logical pages (128 KiB, a sequential benchmark's request)
 * spread evenly over the user capacity; *pages gets the mapped pages in
 * them and *pieces the pieces they form (a mapped page whose
 * predecessor in its window is unmapped or not contiguous starts one).
 * pages / pieces is the mean run in 4 KiB pages: 32 for data written
 * sequentially, 1 when every page lies alone.  O(samples), one pass
 * over l2p per window; no simulated time, no counters. */
int ssd_ftl_contiguous(const struct ssd_ftl *f, uint32_t lpn);
void ssd_ftl_frag(const struct ssd_ftl *f, uint64_t *pages, uint64_t *pieces);

/* Free blocks in all units. */
uint64_t ssd_ftl_free_blocks(const struct ssd_ftl *f);

/* The drive's counters, live: they grow as the FTL works (snapshot them
 * by copy; a difference of snapshots is ssd_counters_sub).  Valid until
 * ssd_ftl_destroy. */
const struct ssd_counters *ssd_ftl_counters(const struct ssd_ftl *f);

/* The same counters, writable, for the layer above that counts host
 * work the FTL does not see (host bytes, buffer and read-ahead hits). */
struct ssd_counters *ssd_ftl_counters_mut(struct ssd_ftl *f);

/* Logical 4 KiB pages of the user capacity (valid lpns: 0 .. n-1). */
uint32_t ssd_ftl_pages(const struct ssd_ftl *f);

/* Logical pages mapped now (written and not trimmed; pages queued for
 * TRIM still count until processed). */
uint64_t ssd_ftl_mapped(const struct ssd_ftl *f);

/* Pages waiting in the TRIM queue (trim_mode background or deferred). */
uint64_t ssd_ftl_trim_queued(const struct ssd_ftl *f);

/* Erase-count distribution over all blocks: fewest, mean and most erase
 * operations per block.  O(blocks). */
void ssd_ftl_erase_stats(const struct ssd_ftl *f, uint32_t *min,
			 double *mean, uint32_t *max);

/* Debug: run the invariant checker after every `victims` GC victims,
 * after every program failure, retirement and the turn to read-only,
 * and at every ssd_ftl_audit, with the timing checks on throughout
 * (ftl_check.c); 0 = never, the default. */
void ssd_ftl_set_check_every(struct ssd_ftl *f, uint32_t victims);
/* Invariant checks run so far. */
uint64_t ssd_ftl_check_runs(const struct ssd_ftl *f);

/* What the layers above read of an FTL without a call: the first member
 * of struct ssd_ftl, so that a pointer to the FTL points to it.  Only the
 * FTL writes it. */
struct ssd_ftl_public {
	const char *check_failure; /* see ssd_ftl_check_failure */
};

/* The first invariant-check failure in words, or NULL while every check
 * has passed.  The string lives as long as the FTL.  Inline, one load:
 * the runner asks after every command. */
static inline const char *ssd_ftl_check_failure(const struct ssd_ftl *f)
{
	return ((const struct ssd_ftl_public *)(const void *)f)->check_failure;
}

/* The first internal error (SSD_ESTATE) in words, or "" if none.  The
 * string lives as long as the FTL. */
const char *ssd_ftl_error(const struct ssd_ftl *f);

/* The physical 4 KiB slot logical page lpn maps to, or SSD_UNMAPPED. */
uint32_t ssd_ftl_map_slot(const struct ssd_ftl *f, uint32_t lpn);

/* ns to move 4 KiB from the controller into a die's register. */
int64_t ssd_ftl_xfer_lp(const struct ssd_ftl *f);

/* Physical 4 KiB slots in all (valid slots: 0 .. n-1), and the logical
 * page slot `slot` was last written with (meaningful only if that data
 * may still be read: a stale slot keeps its old lpn). */
uint64_t ssd_ftl_slots(const struct ssd_ftl *f);
uint32_t ssd_ftl_slot_lpn(const struct ssd_ftl *f, uint64_t slot);

/* Fault injection, for tests of the layers above: each breaks the drive
 * on purpose.  fault_map points lpn at `slot` (or SSD_UNMAPPED) without
 * moving any data; fault_books miscounts block 0's valid pages (the next
 * check fails); fault_check records a check failure with message `msg`;
 * fault_readonly turns the drive read-only as if its spares ran out
 * (the next call checks the maps, as after the real turn). */
void ssd_ftl_fault_map(struct ssd_ftl *f, uint32_t lpn, uint32_t slot);
void ssd_ftl_fault_books(struct ssd_ftl *f);
void ssd_ftl_fault_check(struct ssd_ftl *f, const char *msg);
void ssd_ftl_fault_readonly(struct ssd_ftl *f);
/* fault_timing breaks the flash backend's timing: `what` is one of the
 * SSD_FLASH_FAULT_* of nand/flash.h (ssd_flash_fault). */
void ssd_ftl_fault_timing(struct ssd_ftl *f, int what, uint32_t index,
			  int64_t ns);

/* Snapshots (ftl_snap.c, docs/snapshots.md).  Why this FTL cannot be
 * saved, in words (buf, n hold it when needed), or NULL: power-loss
 * tracking, a block-mapped scheme, a failed drive.  Its state written as
 * sections; read back into an FTL freshly built for the same
 * configuration (0 or a negative SSD_E*, the reason kept in r).  The
 * verification tags (ssd_ftl_verify_on) come back with the file when it
 * kept them; the host's record they are checked against is the caller's
 * (ssd_ftl_snap_verify_src: SSD_EINVAL without tags). */
struct ssd_snapw;
struct ssd_snapr;
const char *ssd_ftl_snap_refusal(const struct ssd_ftl *f, char *buf,
				 size_t n);
void ssd_ftl_snap_save(const struct ssd_ftl *f, struct ssd_snapw *w);
int ssd_ftl_snap_load(struct ssd_ftl *f, struct ssd_snapr *r);
int ssd_ftl_snap_verify_src(struct ssd_ftl *f, const uint32_t *src);
int ssd_ftl_snap_has_vgen(const struct ssd_ftl *f);

#endif
