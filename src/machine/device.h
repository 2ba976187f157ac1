/*
 * device.h -- the host interface of the simulated drive: host commands in
 * (read, write, trim, flush at a byte offset and length), completion times
 * out.
 *
 * A command is split into 4 KiB logical pages.  A write that covers only
 * part of a page at either end is a read-modify-write: the old page is
 * read first when it is on NAND (ssd_ftl_merge_read), and the host bytes
 * written count what the command really wrote, so WAF (NAND bytes per
 * host byte) shows what sub-4 KiB writes cost.  Write data crosses the host link before the FTL
 * sees it; read data crosses it after.  Every command costs cmd_overhead
 * of controller time on top.  Submission is in non-decreasing time order.
 *
 * Reads stream.  A read's 4 KiB pieces go to the host in order, each as
 * soon as it is in the controller and the link has sent the piece
 * before: flash reads and the link overlap inside one command, as on a
 * real controller, and the command completes when its last byte has
 * crossed the link (plus cmd_overhead).  The link is one busy-until
 * stamp: a command's pieces follow the previous command's, and a stall
 * inside a command (waiting for a page) is not used by the next one.
 *
 * Read-ahead.  With read_ahead set, a read that starts where the previous
 * read ended marks a sequential stream: the controller then reads the
 * next read_ahead bytes past its end into a DRAM buffer, behind that
 * command's own page reads (so it never delays the command that triggers
 * it; a later command can wait behind it at most the die and channel time
 * those reads really take).  A read of a buffered page takes it from
 * DRAM at link speed: no NAND read, counted as a host read and in
 * read_ahead_hit_lp.  The read-ahead's own NAND reads count in nand_read
 * and read_ahead_lp, not as host reads; unmapped pages are not buffered
 * (they cost nothing).  A write or TRIM over the buffered range drops the
 * buffer.  One stream is tracked: two interleaved sequential readers
 * break each other's pattern.  Random reads do not trigger it.
 *
 * Sub-page reads.  A read of part of a 4 KiB page still moves the whole
 * page from the die (the ECC codeword) into the controller, which keeps
 * it: a read of the same page that follows takes it from there, with no
 * NAND read and no channel transfer, once it has arrived -- eight
 * sequential 512-byte reads cost one.  One page is kept, the latest
 * read in part; a write or TRIM of it drops it.
 *
 * Write buffer.  With write_buffer set, the controller has that much DRAM
 * as a FIFO of 4 KiB entries: a write completes as soon as its data is in
 * an entry, and the entry frees when the data has drained into the flash
 * (the FTL accepted it); with no free entry the write waits for the
 * oldest to drain.  A tiny buffer hides nothing once GC stalls the flash.
 * The buffer merges.  A page written whole goes to the FTL at once, its
 * data in DRAM until a register takes it (the FTL's answer): a write of
 * the page whose data is in DRAM before that load begins replaces it
 * there, no entry and no program (ssd_ftl_write_replaced); one later is
 * a new copy; a flush or FUA commits it.  A page written
 * in part is held, and later writes of it (in part or whole) go into
 * its entry in DRAM, with no new entry and no program: the page
 * drains once, when its 512-byte sectors are all written (no
 * read-modify-write), or when it must -- its entry is the oldest and is
 * needed, a flush, a FUA write of it, a read of it, an idle gap, a power
 * cut -- merged then with the old page (ssd_ftl_merge_read).  A TRIM of
 * the whole page drops it.  Sequential 512-byte or 2 KiB writes thus
 * program each page once, at the rate of 4 KiB ones.  Without plp a cut
 * loses what is held, as it loses what the registers hold.
 * Flush drains the buffer and then programs every open page; a write
 * with FUA completes only once its data is programmed.
 *
 * TRIM.  A TRIM deallocates the 4 KiB pages wholly inside its range
 * (ssd_dev_trim_pages), as a real drive deallocates only whole mapping
 * units (NVMe Dataset Management, ATA TRIM, SCSI UNMAP): a page the
 * range covers only in part stays mapped and keeps its data, the
 * trimmed sectors in it included (NVMe lets a drive return them either
 * way; most keep them).  A range that holds no whole page is a command
 * with its cmd_overhead and nothing else.  A drive with trim = no (one
 * from before TRIM, 2008-09) aborts every TRIM with SSD_EUNSUP before it
 * costs anything or changes any state, as a hard disk does (hdd.h).
 * trim_mode immediate: the controller unmaps the pages at once,
 * trim_cost per page, and every command arriving meanwhile waits for it
 * (a TRIM stall).  background: acknowledged at once; the queued pages are
 * processed with trim_bg_share of the controller's time, trim_cost each,
 * and while a backlog exists every other command (read, write, trim,
 * flush) gets the rest of the controller: its cmd_overhead takes
 * cmd_overhead / (1 - trim_bg_share) (the share counted at most 0.9).
 * With the defaults (2 us, 0.1) that is 2222 ns instead of 2000 ns.  In
 * idle time the backlog has the whole controller.  deferred: acknowledged
 * at once, processed only in idle time.  Either way idle time goes to
 * queued TRIMs before background GC.
 *
 * Timing checks.  With the checker on (ssd_dev_set_check_every), every
 * command is also held to the rules of time: it is submitted no earlier
 * than the one before, it completes no earlier than it was submitted,
 * and its latency is at least the work its road through the drive
 * cannot skip -- cmd_overhead; a read or write its bytes over the host
 * link; a write without the write buffer its first page's load into a
 * cache register (the shortest 4 KiB transfer); a FUA write that load
 * and the shortest program; an immediate TRIM trim_cost a page.  (Which
 * pages were read from the array the FTL knows: it checks its reads
 * against tR itself, ftl_check.c.)  The first broken rule goes to the
 * FTL's checker (ssd_ftl_check_report), with the command's number,
 * kind, place and times, and every later command fails.  Off, it costs
 * each command one test.
 *
 * Idle time.  The device notices a gap between the completion of all
 * outstanding work (commands, the buffer's draining, a TRIM stall) and
 * the next submission and gives it to queued TRIMs and then to the FTL's
 * background work (ssd_ftl_idle: folding, GC); ssd_dev_idle() does the
 * same for an explicit idle period, such as a host that thinks before
 * ending a job.
 */
#ifndef SSD_DEVICE_H
#define SSD_DEVICE_H

#include <stdint.h>

#include "base/config.h"
#include "base/io.h"
#include "ftl/ftl.h"
#include "machine/blk.h"
#include "machine/ssd.h"
#include "machine/tcheck.h"

/*
 * The machine's entry: what a host holds.  It owns the machine's tree of
 * nodes (blk.h), built from the drive file by stack.c; when the tree is
 * one SSD (a bare SSD, the common case) every command goes straight to
 * it (ssd.h), so the entry costs the hot path one test.  The entry keeps
 * what belongs to the host side of the machine: the host's record of
 * what it wrote (verify.h), the machine's counters, its queueing and the
 * timing checks of commands that enter host layers.
 */
struct ssd_dev {
	struct ssd_blk *top;    /* the machine's tree (owned) */
	struct ssd_drive *ssd;  /* the tree's only node when it is an SSD (a
	                           bare SSD), else NULL */
	struct ssd_ftl *ftl;    /* a bare SSD's FTL, else NULL */
	struct ssd_counters *ctr; /* a bare SSD's counters (its FTL's); a
	                             machine's: mctr */
	struct ssd_clock *clk;  /* a bare SSD's clock; a machine's: mclk */
	struct ssd_config cfg;
	uint64_t capacity;      /* what the host sees, bytes */
	/* data verification: the host's record of what it wrote, a tag per
	 * logical page (kept and read by the job runner, run/verify.c), held with
	 * the drive so that a later run verifies an earlier one; NULL until
	 * a job verifies.  Freed with the drive. */
	uint32_t *vrec;
	/* a machine of host layers or a hard disk */
	struct ssd_counters mctr; /* the host's side counted here, the NAND
	                             side summed over its SSDs */
	struct ssd_clock mclk;
	int err;                /* an error of background work below */
	int direct_flag;        /* SSD_BLK_DIRECT when the machine has a page
	                           cache (direct=1 jobs bypass it), else 0 */
	struct ssd_drive **ssds; /* the machine's SSDs, depth first (owned by
	                           their nodes; the array by the entry) */
	int nssd;
	int can_queue;          /* the top keeps a command queue and reorders
	                           it (blk.h's submit_q and decide) */
	int queues;             /* ... and a caller that takes decisions
	                           asked for it (ssd_dev_set_queueing): a
	                           submission may return SSD_EPENDING */
	int check;              /* the checker is on */
	struct ssd_tcheck tc;   /* a machine's timing checks (device.h) */
};

/* A machine's counters brought up to date. */
void ssd_dev_sum_counters(const struct ssd_dev *d);

/* The drive's counters, live (ssd_ftl_counters); a machine's: the host's
 * commands as they entered it, the NAND side summed over its SSDs. */
static inline const struct ssd_counters *ssd_dev_counters(const struct ssd_dev *d)
{
	if (!d->ssd)
		ssd_dev_sum_counters(d);
	return d->ctr;
}

/* The capacity the host sees, bytes: the drive's, or the volume a
 * machine's layers offer (ssd_config_volume). */
static inline uint64_t ssd_dev_capacity(const struct ssd_dev *d)
{
	return d->capacity;
}

/* 1 if the drive is a machine of host layers or a hard disk rather than
 * a bare SSD: FTL-level tools (verify, the invariant checker) then act
 * on its SSDs, or do not apply. */
static inline int ssd_dev_is_machine(const struct ssd_dev *d)
{
	return d->ssd == NULL;
}

/* The commands the drive has taken (completed or in flight). */
static inline uint64_t ssd_dev_host_ios(const struct ssd_dev *d)
{
	return d->clk->host_ios;
}

/* The i-th SSD of the drive (depth first; a bare SSD is its own only
 * one), or NULL past the last. */
static inline struct ssd_drive *ssd_dev_ssd(const struct ssd_dev *d, int i)
{
	return i >= 0 && i < d->nssd ? d->ssds[i] : NULL;
}

/* The machine's nodes for a report, top down: the i-th node and its
 * depth (0 = the top), or NULL past the last.  A bare SSD has none: it
 * is no machine. */
const struct ssd_blk *ssd_dev_node(const struct ssd_dev *d, int i, int *depth);

/* The FTL invariant checker's first failure (ssd_ftl_check_failure) of
 * the drive or of any SSD in the machine; NULL if none. */
const char *ssd_dev_machine_check_failure(const struct ssd_dev *d);
static inline const char *ssd_dev_check_failure(const struct ssd_dev *d)
{
	if (__builtin_expect(d->ftl != NULL, 1))
		return ssd_ftl_check_failure(d->ftl);
	return ssd_dev_machine_check_failure(d);
}

/* A caller that takes the drive's decisions (the job runner) turns its
 * queue on for as long as it does; off (the default), every submission
 * answers with its completion and the drive serves in arrival order.
 * Turning it off serves whatever still waits (its completions are
 * dropped). */
void ssd_dev_set_queueing(struct ssd_dev *d, int on);

/* A drive that queues (d->queues): when it next chooses a waiting
 * command (INT64_MAX: none waits), and the choice at or before t -- 1
 * with the command's tag and completion, 0 if none is due.  A drive
 * that does not queue: INT64_MAX and 0. */
int64_t ssd_dev_next_decision(const struct ssd_dev *d);
/* The command the latest submission left waiting (SSD_EPENDING) gets
 * `tag`, which ssd_dev_decide hands back with its completion. */
void ssd_dev_tag_waiting(struct ssd_dev *d, uint32_t tag);
int ssd_dev_decide(struct ssd_dev *d, int64_t t, uint32_t *tag, int64_t *done);

/* A full check of the maps of the drive's SSDs (ssd_ftl_audit): 0, or
 * the first failure's SSD_E* code. */
int ssd_dev_audit(struct ssd_dev *d);

/* Why the FTL of the drive or of an SSD in the machine failed
 * (ssd_ftl_error), or "". */
const char *ssd_dev_error(const struct ssd_dev *d);

/* The drive as it was created (a finished configuration: the derived
 * geometry included).  Valid until ssd_dev_destroy. */
const struct ssd_config *ssd_dev_config(const struct ssd_dev *d);

/* The drive's health now (ssd_ftl_health).  O(blocks). */
void ssd_dev_health(const struct ssd_dev *d, struct ssd_health *h);

/* Erased blocks ready for writing (ssd_ftl_free_blocks). */
uint64_t ssd_dev_free_blocks(const struct ssd_dev *d);

/* How scattered the data is: the mean run, in 4 KiB pages, of logically
 * consecutive pages that lie physically consecutive, sampled over 128 KiB
 * windows (ssd_ftl_frag; a machine's SSDs together): 32 for data written
 * sequentially, 1 when every page lies alone, 0 when nothing sampled is
 * mapped. */
double ssd_dev_frag_run(const struct ssd_dev *d);

/* The time of the latest submission: the next may not be earlier. */
static inline int64_t ssd_dev_last_submit(const struct ssd_dev *d)
{
	return d->clk->now;
}

/* 4 KiB pages waiting in the TRIM queue (trim_mode background or
 * deferred; ssd_ftl_trim_queued). */
uint64_t ssd_dev_trim_queued(const struct ssd_dev *d);

/* Debug: run the FTL's invariant checker after every `victims` GC
 * victims (ssd_ftl_set_check_every; 0 = never, the default), and the
 * timing checks of every command (see above). */
void ssd_dev_set_check_every(struct ssd_dev *d, uint32_t victims);

/* 1 while the checker is on (ssd_dev_set_check_every): the layers above
 * check their own time then too. */
static inline int ssd_dev_checking(const struct ssd_dev *d)
{
	return d->check;
}

/* Record an invariant a layer above found broken (the job runner's
 * clock) with the drive's checker (ssd_ftl_check_report on the drive's
 * first SSD; nothing for a machine without one). */
void ssd_dev_check_report(struct ssd_dev *d, const char *msg);

/* Fault injection, for the checker's tests: every later completion is
 * handed out `ns` earlier than the drive computed, seen by the drive's
 * own timing checks (hidden 0) or only by the caller's (hidden 1). */
void ssd_dev_fault_early(struct ssd_dev *d, int64_t ns, int hidden);

/* OR'd into the ddir of ssd_dev_submit: a write with Force Unit Access. */
#define SSD_DEV_FUA SSD_BLK_FUA

/* Create a drive, fresh from the factory (every block erased).  Returns
 * 0, SSD_ENOMEM or SSD_EINVAL (geometry beyond the 32-bit slot space). */
int ssd_dev_create(const struct ssd_config *c, uint64_t seed,
		   struct ssd_dev **out);
void ssd_dev_destroy(struct ssd_dev *d);

/* Memory (base/sysmem.h).  ssd_dev_mem fills m with the estimate of what
 * ssd_dev_create(c) allocates and what the uses (SSD_MEM_VERIFY,
 * SSD_MEM_POWER) add, with the program's own SSD_MEM_PROGRAM; m->run,
 * the job runner's part, is left 0 (ssd_sim_mem); returns m->total.
 * Each node's figure comes from the function beside its create
 * (ssd_drive_mem_add, ssd_pcache_mem, ssd_mft_mem, ssd_hdd_mem; the
 * builder's ssd_stack_mem_add sums the tree). */
uint64_t ssd_dev_mem(const struct ssd_config *c, unsigned uses,
		     struct ssd_mem *m);

/* Before building c: 0 if its estimate (ssd_dev_mem with `uses`, plus
 * `run` bytes of the runner's: ssd_sim_mem) fits in what the process may
 * still take (ssd_mem_available), or if c's mem_check is off or nothing
 * says what is available; else SSD_ENOMEM with the one-line message in
 * err: "drive 'NAME' needs about X of memory, Y is available (use a
 * smaller capacity, or --set mem_check=no)". */
int ssd_dev_mem_check(const struct ssd_config *c, unsigned uses, uint64_t run,
		      char *err, size_t errlen);

/* The logical pages [*lpn, *lpn + *n) a TRIM of len bytes at offset
 * deallocates: the 4 KiB pages wholly inside it (see TRIM above).  *n is
 * 0 when the range holds no whole page; *lpn is then the page after
 * offset's. */
static inline void ssd_dev_trim_pages(uint64_t offset, uint32_t len,
				      uint32_t *lpn, uint32_t *n)
{
	ssd_blk_trim_pages(offset, len, lpn, n);
}

/* The unit a TRIM of the drive deallocates, bytes: a 4 KiB page on an
 * SSD; on a machine with MFT, its block (mft_block), which it unmaps
 * only whole.  What a TRIM leaves of a unit it covers in part reads back
 * as it was.  (A hard disk has no TRIM: 4 KiB, unused.) */
uint32_t ssd_dev_trim_unit(const struct ssd_dev *d);

/* Submit a command at time t (>= the previous submission).  ddir is an
 * enum ssd_ddir.  Returns its completion time, or SSD_EINVAL if the range
 * is outside the user capacity, or another negative SSD_E* code. */
int64_t ssd_dev_machine_submit(struct ssd_dev *d, int ddir, uint64_t offset,
			       uint32_t len, int64_t t);
static inline int64_t ssd_dev_submit(struct ssd_dev *d, int ddir,
				     uint64_t offset, uint32_t len, int64_t t)
{
	if (__builtin_expect(d->ssd != NULL, 1))
		return ssd_drive_submit(d->ssd, ddir, offset, len, t);
	return ssd_dev_machine_submit(d, ddir, offset, len, t);
}

/* Hint that a command on [offset, offset + len) is coming (see
 * ssd_ftl_prefetch); out-of-range hints are ignored. */
static inline void ssd_dev_prefetch(const struct ssd_dev *d, uint64_t offset,
				    uint32_t len, int stage)
{
	uint64_t end = offset + len;
	if (__builtin_expect(d->ssd != NULL, 1))
		ssd_drive_prefetch(d->ssd, offset, len, stage);
	else if (len && end <= d->capacity && end > offset)
		ssd_blk_prefetch(d->top, offset, len, stage);
}

/* 1 if prefetch stage 2 pays on this drive (ssd_ftl_prefetch_deep; a
 * machine of several nodes: 1). */
int ssd_dev_prefetch_deep(const struct ssd_dev *d);

/* Flush: every accepted write becomes durable.  Returns completion. */
int64_t ssd_dev_flush(struct ssd_dev *d, int64_t t);

/* The time the drive has reached: the later of the last submission and
 * the last completion handed out.  A new run or an idle period starts
 * here. */
static inline int64_t ssd_dev_time(const struct ssd_dev *d)
{
	const struct ssd_clock *k = d->clk;
	return k->busy_until > k->now ? k->busy_until : k->now;
}

/* Power loss (docs/power-loss.md).  ssd_dev_power_track makes the
 * drive ready for power cuts: it needs the host record (verify.h's
 * ssd_verify_attach) and a bare SSD (SSD_EUNSUP for a machine); 0 or a
 * negative SSD_E*.  ssd_dev_power_cut cuts the power at pc->t (no
 * earlier than the latest submission: SSD_EINVAL), power returns at
 * pc->on and the drive recovers: with plp and energy enough
 * (plp_hold_up) everything accepted survives; otherwise what was not
 * programmed by t is lost.  The host record is set to what the drive
 * holds after recovery, so verification goes on from there; pc says
 * what was lost (ftl.h's struct ssd_power_cut; the caller frees
 * pc->touched).  The work is bounded by what the cut can have touched
 * unless pc->full asks for every page.  The drive answers again at
 * pc->ready, idle, the commands in flight at t gone. */
int ssd_dev_power_track(struct ssd_dev *d);
int ssd_dev_power_cut(struct ssd_dev *d, struct ssd_power_cut *pc);
/* Which of the logical pages lpn[] (4 KiB) hold their latest write where
 * no cut to come can lose it (out[i] = 1; ftl.h's
 * ssd_ftl_power_durable): what they held before can never come back.
 * 0 or a negative SSD_E*. */
int ssd_dev_power_durable(const struct ssd_dev *d, const uint32_t *lpn,
			  uint32_t n, uint8_t *out);

/* Zones (docs/zoned.md).  A zoned drive (mapping = zone: an NVMe Zoned
 * Namespace, a bare SSD only) is nzones zones of zone_size bytes, each
 * writable from its start up to zone_cap, at its write pointer only;
 * commands are whole 4 KiB logical blocks.  ssd_dev_submit checks each
 * command against the zones (zns.h): a write not at its zone's write
 * pointer, past its capacity, into a full zone, or beyond the open or
 * active limits fails with the SSD_ZNS_E* code of the NVMe status
 * (ssd_zns_strerror names it) and changes nothing; a write with
 * SSD_BLK_APPEND is a Zone Append to the zone starting at offset, written
 * at its write pointer (ssd_dev_append_offset says where); reads go up
 * to the zone size, what was never written reading as zeros; a TRIM is
 * SSD_EUNSUP.  ssd_dev_zoned: 1 with *zi filled for a zoned drive, else
 * 0.  ssd_dev_zone_send: Zone Management Send of action (zns.h's enum
 * ssd_zns_action) on the zone starting at offset, or on every zone it
 * selects with flags SSD_ZNS_ALL (1), at t; SSD_ZNS_ZRWAA with an Open
 * allocates a zone random write area (zrwa_size; docs/zoned.md), and
 * SSD_ZNS_ACT_ZRWA_FLUSH flushes one up to the LBA at offset (a write
 * into an area lands in DRAM and moves the write pointer only by the
 * flushes).  Returns its completion time (a reset erases
 * the zone's blocks; a finish pads them, zone_finish = pad), or a
 * negative SSD_ZNS_E* (SSD_EUNSUP for a drive that is not zoned); the
 * host's record follows (a reset zone reads as zeros).
 * ssd_dev_zone_report: zone's descriptor (0, or SSD_EINVAL). */
int ssd_dev_zoned(const struct ssd_dev *d, struct ssd_zoned_info *zi);
int64_t ssd_dev_zone_send(struct ssd_dev *d, int action, uint64_t offset,
			  int flags, int64_t t);
int ssd_dev_zone_report(const struct ssd_dev *d, uint32_t zone,
			struct ssd_zone_desc *out);
uint64_t ssd_dev_append_offset(const struct ssd_dev *d);

/* Flexible data placement (docs/fdp.md; a bare SSD only): the placement
 * identifiers a write may name with SSD_BLK_PLACEMENT, as the drive's
 * reclaim unit handle status lists them (what fio's fdp_fetch_ruhs
 * reads); up to max into pids.  Returns how many there are: 0 for a
 * drive or machine without FDP. */
uint32_t ssd_dev_placement_ids(const struct ssd_dev *d, uint32_t *pids,
			       uint32_t max);
/* Reclaim Unit Handle Update (I/O Management Send; a bare SSD only): the
 * n placement identifiers pids move to new reclaim units at t, the
 * blocks they wrote left where they are (docs/fdp.md).  Returns the
 * completion time, SSD_FDP_EPID for an identifier the drive does not
 * have (nothing done), SSD_EUNSUP without FDP or on a machine,
 * SSD_EINVAL for a t before the drive's clock. */
int64_t ssd_dev_fdp_update(struct ssd_dev *d, const uint32_t *pids, uint32_t n,
			   int64_t t);
/* FDP's events log: up to max of the last events, oldest first, into
 * out; returns how many the drive keeps (0 without FDP). */
uint32_t ssd_dev_fdp_events(const struct ssd_dev *d, struct ssd_fdp_event *out,
			    uint32_t max);

/* Leave the drive idle until `until` (background work runs).  Returns 0
 * or the error the background work met (it also fails every later
 * command). */
int ssd_dev_idle(struct ssd_dev *d, int64_t until);

#endif
