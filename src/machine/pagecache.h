/*
 * pagecache.h -- the host page cache: what fio's direct=0 (buffered I/O
 * on Linux) puts between a job and the volume.  A blk node (blk.h) of
 * capacity lower->capacity over one lower node; docs/stack.md, section
 * "Page cache", says the same with the figures.
 *
 * Pages.  The cache holds P = page_cache / 4096 pages of 4 KiB, page n
 * holding bytes [4096 n, 4096 n + 4096) of the volume (the last page of
 * a volume whose size is not a multiple of 4 KiB is short).  A page is
 *
 *      free --read/write--> clean <----------------------------+
 *                            |  ^ (FUA write of the whole page) |
 *                  buffered  v  |                               |
 *                   write   dirty --write-back submitted--> writeback
 *                                                   (lower write completes)
 *
 * clean pages sit on one LRU list (a hit moves a page to its tail) and
 * are the only ones evicted; dirty pages are listed in the order they
 * were dirtied, each with its dirtying time; pages under write-back are
 * listed in the order their writes were submitted.  A page also carries
 * `ready`, the time its data is in memory: a page being read in (a miss,
 * read-ahead) is in flight until then, and a command that finds it waits
 * until then.  Lookup is a hash table of 2^k >= P chains (no array per
 * volume page: a 16 TiB volume has 4 G of them); per page 40 bytes of
 * state, 4-8 of hash head and 8 of sort scratch.
 *
 * Time.  Every command's cost is in ns; a memory copy of len bytes is
 * copy(len) = ceil(len * 1000 / page_cache_mbps).  Background work (the
 * flusher, write-back completions) runs lazily, when the node is next
 * called with a later time (blk.h), so everything sent to the lower node
 * goes in non-decreasing time; a call earlier than what idle() already
 * ran to is taken at that time.
 *
 * Buffered read [off, off + len) at t: cached pages are hits (their
 * `ready` is waited for); each maximal run of missing pages is one lower
 * read at t, its pages cached clean, ready when it completes.  The read
 * completes at max(t, every hit's ready, every lower read) + copy(len).
 * Read-ahead: up to 4 sequential streams are tracked (a read that starts
 * where a stream's previous read ended, or at offset 0; otherwise the
 * least recently used stream is replaced), each with a window
 * [ra_start, ra_end) of R = page_cache_read_ahead bytes.  A sequential
 * read with no window, or whose last page is at or past the window's
 * first page (the stream reached it, Linux's PG_readahead mark), reads
 * the next window [max(ra_end, end of the read), + R) ahead: the window's
 * missing pages, in merged runs, submitted to lower at t and not waited
 * for.  The window has its full size at once (Linux ramps it up from a
 * small first window).
 *
 * Buffered write at t: a first or last page only partly written and not
 * cached is read from lower first (read-modify-write at page granularity,
 * one read if the two are adjacent); the write waits for those reads and
 * for any page of its range still being read in.  Every page of the range
 * becomes dirty at t (an already dirty page keeps its older time; a page
 * under write-back is marked re-dirtied: it becomes dirty, aged from then,
 * when that write-back completes).  The write completes at
 * max(t, reads waited for) + copy(len), or later if throttled (below).
 *
 * Write-back.  Dirty pages go to lower as writes in ascending offset
 * order, contiguous pages merged into commands of at most 1 MiB (256
 * pages), all of a batch submitted at the same time (lower queues them);
 * a batch is sorted, O(m log m) for m pages.  A page under write-back is
 * clean once its write and every write-back write submitted before it
 * have completed (retired in submission order).  Three things start it:
 *  - the flusher wakes at every multiple of page_cache_writeback_interval
 *    and writes back the pages dirty for at least page_cache_dirty_expire
 *    (per page: Linux ages a whole inode);
 *  - background: when more than B = floor(dirty_bg_ratio * P) pages are
 *    dirty (not counting those under write-back), after a write or at a
 *    wake, the oldest dirty pages are written back until at most B are
 *    dirty, and at least 256 of them (all if fewer), so that a steady
 *    writer's write-back goes down in 1 MiB commands, not page by page;
 *  - throttle (balance_dirty_pages): after a buffered write, if dirty
 *    plus under write-back exceeds D = floor(dirty_ratio * P) by k pages,
 *    the write also waits until k more pages under write-back are clean
 *    (the write-back the background rule has just started: B <= D).  With
 *    every page dirty or under write-back, a page that finds no room is
 *    written through to lower at once (its bytes of the command) and the
 *    writer waits for that write; a read miss that finds no room is read
 *    but not kept.
 *
 * Flush at t (fsync, fdatasync, end_fsync): every dirty page is written
 * back at t (pages re-dirtied under write-back are written again), then
 * lower is flushed at t, which covers every write it accepted before;
 * the flush completes at max(lower's flush, every write-back's).
 *
 * FUA write (sync=1 on a buffered job, O_SYNC): the command goes to lower
 * at t with SSD_DEV_FUA; the pages it covers whole are cached clean (a
 * dirty one becomes clean), partial ones are left as they are; it
 * completes at max(lower's write, t + copy(len)).
 *
 * Direct commands (SSD_BLK_DIRECT) pass to lower at t with that flag
 * stripped (FUA kept).  A direct read first writes back the dirty pages
 * of its range (at t) and completes at max(its read, their write-back,
 * and any write-back already under way in the range).  A direct write
 * drops the cached pages of its range: a dirty page it covers whole is
 * dropped without write-back (the write replaces it), a dirty page it
 * covers partly is written back first; it completes at max(its write,
 * those write-backs).  TRIM (direct or not) drops the pages it covers
 * whole, dirty ones too, and passes to lower; partly covered pages stay.
 * A page dropped while under write-back is freed when its write retires.
 *
 * Simplified: one LRU list (Linux has active and inactive lists), per-page
 * expiry, a fixed read-ahead window, in-order retirement of write-back,
 * no per-device write-back bandwidth estimate (a throttled writer waits
 * for exactly the pages it is over by), the cache's size fixed (Linux
 * lends free memory to it and computes the ratios on dirtyable memory).
 * Cost per command: O(pages touched) hash operations, plus O(m log m) per
 * write-back batch of m pages and O(log w) for a throttle (w write-back
 * commands in flight).
 */
#ifndef SSD_PAGECACHE_H
#define SSD_PAGECACHE_H

#include "base/config.h"
#include "machine/blk.h"

/* A page cache node over `lower`, from the page_cache* keys of c
 * (c->page_cache > 0, a multiple of 4 KiB).  Its capacity is
 * lower->capacity; *out is its own and destroying it destroys `lower`.
 * Returns 0, SSD_EINVAL (a NULL argument, page_cache 0 or too large, a
 * zero write-back interval) or SSD_ENOMEM; on failure `lower` is still
 * the caller's. */
int ssd_pcache_create(const struct ssd_config *c, struct ssd_blk *lower,
		      struct ssd_blk **out);

/* Bytes ssd_pcache_create allocates for c's page_cache (the ring of
 * write-back commands, which grows with the commands in flight, is not
 * counted). */
uint64_t ssd_pcache_mem(const struct ssd_config *c);

/* Check the cache's invariants (every page on the list of its state,
 * the lists' counts, the hash holding exactly the live pages, write-back
 * in clean-time order, the flag counts).  O(P); for tests.  Returns 0 or
 * SSD_ESTATE; b must be a page cache node. */
int ssd_pcache_check(const struct ssd_blk *b);

#endif
