/*
 * mft.h -- a log-structured host layer over a block node, modelled on
 * EasyCo's Managed Flash Technology (the 2008 essay's MFT; docs/mft.md):
 * small random writes gather in host RAM and go to the drive as long
 * sequential runs at the head of a log, a map from logical to physical
 * blocks kept on the drive, a cleaner that makes free space.
 *
 * Geometry.  B = mft_block (16 KiB by default) is the mapping unit.  The
 * volume offers
 *
 *     capacity = floor(lower->capacity * (1 - mft_reserve) / B) * B
 *
 * bytes: nlog = capacity / B logical blocks.  Lower's bytes are laid out
 *
 *     [ data area: nseg segments of S bytes | ... | map: npages x 4 KiB ]
 *
 * the map at the end (npages = ceil(nlog / 1024): 4 bytes per logical
 * block, 1024 entries a page), the data area from offset 0 (on a hard
 * disk the fast outer zone).  A segment is S = bps blocks: the smallest
 * multiple of mft_write that is at least 4 MiB; on a drive too small for
 * 64 segments with at least 8 of them spare, S shrinks (fewer mft_writes,
 * then halves, down to one block) until it holds that many.  The spare,
 * nseg * S - capacity, is the cleaner's free space; create fails with
 * SSD_EINVAL when it is below 4 segments even at one block a segment.
 *
 * The map: map[l] = the physical block (index into the data area) of
 * logical block l, or none (never written or trimmed); p2l[p] its inverse
 * for live physical blocks (the segment summary a real log keeps; held in
 * RAM here, not modelled as I/O).  A physical block is live when a logical
 * block maps to it; valid[s] counts a segment's live blocks.
 *
 * Segment life cycle:
 *
 *     FREE --(log head needs room)--> OPEN --(head reaches its end)--> FULL
 *      ^                                                                |
 *      +---- last live block dies (overwrite, TRIM) --------------------+
 *      +---- CLEANING (its live blocks copied to the head) <-- greedy --+
 *
 * A segment that becomes FREE is trimmed on lower (one TRIM of S bytes):
 * what a log over an SSD wants, so that the drive's FTL need not copy
 * dead data.  Free segments are reused oldest first.
 *
 * Writes.  A write is split into blocks.  A block already gathered is
 * overwritten in RAM.  Otherwise it takes a slot of the buffer
 * (nbuf = mft_buffer / B slots); a write of part of a block that is
 * mapped first reads the whole block from lower (read-modify-write: one
 * read of B bytes, rmw_reads/rmw_read_bytes); a part of a never-written
 * block needs no read (the rest is zeros).  The command completes at
 *
 *     max(t, slot free, rmw read done) + len / page_cache_mbps
 *
 * (the memory copy at the host's copy rate, 4000 MB/s by default).  A
 * buffer slot is free, gathering a block, or in flight (its block is
 * being written to the log): an in-flight slot frees when its log write
 * completes (in submission order: a run's slots free no earlier than the
 * run before).  With no free slot: if every slot is gathering, the buffer
 * is full and is flushed; then the write waits for the earliest in-flight
 * slot (buffer_waits counts commands that waited).
 *
 * Log flush.  The gathered blocks, in arrival order, are appended at the
 * log head; their old physical blocks die.  The head writes runs that end
 * at every mft_write boundary of its segment (and at the segment's end):
 * sequential writes of mft_write bytes, except that the last run of a
 * flush is written short (no padding) and the next flush's first run
 * completes that write unit.  Then the dirty map pages (those holding an
 * entry changed since they were last written) are written in place,
 * consecutive pages coalesced up to mft_write bytes a command (map_writes,
 * map_write_bytes).  A flush happens when the buffer is full, when the
 * oldest pending change (a gathered block or a dirty map page) is
 * mft_flush_interval old (lazily: done at the deadline's time on the next
 * call that passes it, blk.h), on a flush command and on a FUA write (its
 * runs and map writes carry FUA; the write completes when they do).  At
 * the defaults (32 MiB buffer, 1 MiB writes, 7 s) a full buffer flushes
 * in 32 writes; a load that gathers 25 MiB of blocks in 7 s (225 new
 * 16 KiB blocks a second, e.g. 4 KiB random writes at 225 IOPS over a
 * large file) flushes every 7 s in 25 writes, the essay's observation.
 *
 * Reads.  A block gathered in the buffer is copied from RAM; an unmapped
 * block costs nothing (zeros, beyond its map lookup); a mapped block is
 * read from its physical place, the pieces of a command that are
 * physically contiguous merged into one read of lower.
 *
 * Map cache.  mft_map_cache = 0: the whole map is in RAM, read once at
 * mount (not modelled as I/O).  Otherwise floor(mft_map_cache / 4096)
 * pages (at least one) are cached, least recently used evicted; the cache
 * starts empty.  Every map access goes through it: a read's or an RMW's
 * lookup, a flush's and the cleaner's updates, a TRIM's.  A miss reads
 * the page (4 KiB, map_reads); evicting a dirty page writes it first.
 *
 * Cleaning.  Before the log head takes a free segment, if fewer than 2
 * are free, the cleaner runs in the foreground (inside the flush, so the
 * writes waiting for buffer room wait for it): it picks a FULL segment
 * with the fewest live blocks (greedy, bucket lists by live count: O(1)
 * per change, O(bps) per pick), reads its live blocks (contiguous ones in
 * one read; clean_read_bytes) and appends them at the log head
 * (clean_write_bytes), then frees the segment; until 2 are free.  In idle
 * time (idle(until)) it cleans one segment after another, each step
 * starting when the previous one's I/O is done, while a step can start
 * before `until` and fewer than seg_idle = 2 + spare/8 segments (at most
 * spare - 1) are free.  TRIM unmaps the blocks it covers whole (parts of
 * blocks are ignored) and drops gathered ones from the buffer; nothing is
 * passed down but the TRIMs of segments that become free.
 *
 * Write amplification (MFT's own, mft_waf):
 *
 *     (log_write_bytes + clean_write_bytes + map_write_bytes)
 *         / host_write_bytes
 *
 * The drive below has its own (the SSD's WAF); the product is what the
 * flash sees per host byte.
 *
 * Time toward lower (blk.h).  Every command to lower is issued at the
 * time of the call that causes it (a host command's arrival, a flush, an
 * idle step, or a lazy flush's deadline), never earlier than the node's
 * previous command to lower, so lower sees non-decreasing times.
 * Dependencies show in the completion time returned above, not in when
 * lower sees the command: a read that missed the map cache is issued with
 * the map read and its latency added after the map read's
 * (done = map_ready + (data_done - t)); a cleaning segment's writes are
 * issued with its reads.  Simplified, because a node cannot issue work at
 * a future time without breaking lower's time order for the calls that
 * come before it.
 *
 * Not modelled: crash recovery (segment summaries, checkpoints), MFT's
 * wear statistics, separating hot from cold data (one log head), sorting
 * a flush by address.
 */
#ifndef SSD_MFT_H
#define SSD_MFT_H

#include <stddef.h>

#include "base/config.h"
#include "machine/blk.h"

/* A node over `lower` with the mft_* keys of *c (and page_cache_mbps, the
 * host's memory copy rate).  Its capacity is as above (a multiple of
 * mft_block); *out is its own and destroying it destroys `lower`.
 * Returns 0, SSD_ENOMEM, or SSD_EINVAL (a NULL argument, a lower too
 * small for the map and 4 spare segments, 2^32 - 1 blocks or more); on
 * failure `lower` is still the caller's. */
int ssd_mft_create(const struct ssd_config *c, struct ssd_blk *lower,
		   struct ssd_blk **out);

/* Bytes ssd_mft_create allocates for c over `cap` bytes of drive (0 when
 * MFT does not fit it: ssd_mft_fits says why). */
uint64_t ssd_mft_mem(const struct ssd_config *c, uint64_t cap);

/* The invariants: every mapped logical block points into the data area,
 * to a physical block of a non-free segment whose inverse is that block
 * (so each physical block is referenced at most once); each segment's
 * valid count equals its live blocks; free segments hold none; the free
 * queue, the bucket lists and the segment states agree; buffer slots
 * (free + gathering + in flight) add up to nbuf; the gathered set and its
 * index agree; the map cache and dirty list agree.  O(nlog + nphys).
 * Returns 0, or SSD_ESTATE with the first violation in err (n bytes), or
 * SSD_EINVAL when b is not an MFT node. */
/* 0 if MFT with c's keys fits `cap` bytes of drive, else SSD_ERANGE with
 * a one-line message in err naming the keys to change. */
int ssd_mft_fits(const struct ssd_config *c, uint64_t cap, char *err,
		 size_t n);

int ssd_mft_check(const struct ssd_blk *b, char *err, size_t n);

/* The physical byte offset on lower of logical block `lblk` (0-based), or
 * -1 when it is unmapped or lblk is out of range (a gathered block reports
 * the place its last flushed copy is at). */
int64_t ssd_mft_where(const struct ssd_blk *b, uint64_t lblk);

#endif
