/*
 * blk.h -- one interface for everything a host command can go to: a
 * drive (an SSD, a hard disk) or a host layer over other nodes (the page
 * cache, MFT, RAID 0).  A machine is a tree of nodes, built from a drive
 * file by one builder (stack.c, docs/stack.md):
 *
 *     workload -> [page cache] -> [MFT] -> [RAID 0] -> drive (x members)
 *
 * each bracketed layer present only when its keys ask for it; a bare SSD
 * is a tree of one node.  A node owns the nodes below it and knows
 * nothing above it; the machine's entry (device.c) holds the root.
 *
 * The contract every node keeps, as the SSD's does (device.h):
 *  - submissions to one node come in non-decreasing time; a layer that
 *    works in the background (write-back, log flushes) does that work
 *    lazily, when it is next called (submit, flush or idle) with a later
 *    time, so that what it sends below is in time order too;
 *  - submit returns the command's completion time (>= t) or a negative
 *    SSD_E* code; flush returns when every write accepted before it is
 *    durable; idle(until) lets background work run up to `until`;
 *  - ranges are checked by the caller: [offset, offset + len) lies in
 *    the node's capacity, len > 0.
 *
 * The flags OR'd into ddir: SSD_BLK_FUA (Force Unit Access), and
 * SSD_BLK_DIRECT (the job opened the volume with O_DIRECT: the page
 * cache passes the command through; every other node ignores it and
 * must not pass it to an SSD, whose submit knows only FUA).  Bits 16-31
 * of ddir carry a placement identifier + 1 (SSD_BLK_PLACEMENT: an FDP
 * reclaim group and handle as the drive's identifiers encode them,
 * ssd_dev_placement_ids; 0, none: the default handle): an SSD with FDP
 * places the write by it, every other node passes it down.
 *
 * Counters.  ssd_blk_submit counts what each node was asked to do
 * (struct ssd_blk_io); a node's own figures (hits, write-back, map
 * reads...) come out row by row through ops->stat for the report; a
 * drive adds its NAND-side counters and its health through ops->counters
 * and ops->health, which the machine's entry folds over the tree.
 */
#ifndef SSD_BLK_H
#define SSD_BLK_H

#include <stdint.h>

#include "base/io.h"

#include "base/config.h"
#include "base/counters.h"

struct ssd_drive;

/* OR'd into ddir: a write with Force Unit Access (durable when it
 * completes). */
#define SSD_BLK_FUA 0x100
/* OR'd into ddir: the command bypasses the host page cache (direct=1). */
#define SSD_BLK_DIRECT 0x200
/* OR'd into a write: a Zone Append to the zone that starts at offset
 * (a zoned drive writes it at the zone's write pointer; device.h). */
#define SSD_BLK_APPEND 0x400
/* OR'd into a write: placement identifier h (fdp = yes; docs/fdp.md). */
#define SSD_BLK_PLACEMENT(h) ((int)(((uint32_t)(h) + 1) << 16))

/* A zoned drive's namespace (docs/zoned.md), in bytes. */
struct ssd_zoned_info {
	uint64_t zone_size;   /* a power of two */
	uint64_t zone_cap;    /* writable from each zone's start */
	uint32_t nzones;
	uint32_t max_open;    /* zones open at once at most; 0: no limit */
	uint32_t max_active;  /* zones active at once at most; 0: no limit */
	uint32_t lba;         /* logical block size: commands are whole,
	                         aligned blocks */
	uint64_t max_append;  /* Zone Append limit; 0: none */
};

/* A zone's descriptor (zns.h's, in bytes). */
struct ssd_zone_desc {
	uint64_t start, cap;
	uint64_t wp;          /* UINT64_MAX where the zone has none (full,
	                         read only, offline) */
	uint64_t written;     /* bytes the host wrote from start */
	int state;            /* enum ssd_zns_state */
	int attr;
};

/* Where a node that answers the host is in time: its latest submission
 * (the next may not be earlier), the latest completion it handed out,
 * and the commands it took. */
struct ssd_clock {
	int64_t now, busy_until;
	uint64_t host_ios;
};

/* The logical pages [*lpn, *lpn + *n) a TRIM of len bytes at offset
 * deallocates: the 4 KiB pages wholly inside it (device.h, "TRIM").  *n
 * is 0 when the range holds no whole page; *lpn is then the page after
 * offset's. */
static inline void ssd_blk_trim_pages(uint64_t offset, uint32_t len,
				      uint32_t *lpn, uint32_t *n)
{
	uint64_t first = (offset + SSD_LPAGE - 1) / SSD_LPAGE;
	uint64_t last = (offset + len) / SSD_LPAGE; /* exclusive */
	*lpn = (uint32_t)first;
	*n = last > first ? (uint32_t)(last - first) : 0;
}

/* What a node was asked to do, counted by ssd_blk_submit/ssd_blk_flush. */
struct ssd_blk_io {
	uint64_t cmds[SSD_DDIR_N];  /* commands: read, write, trim */
	uint64_t bytes[SSD_DDIR_N]; /* their bytes */
	uint64_t flushes;
};

/* One row of a node's own figures: "hit_ratio 0.93 fraction". */
struct ssd_blk_stat {
	const char *key;   /* a JSON-safe identifier */
	double value;
	const char *unit;  /* "bytes", "commands", "fraction", "ns", ... */
};

struct ssd_blk;

struct ssd_blk_ops {
	const char *kind; /* "ssd", "hdd", "page_cache", "mft", "raid0" */
	int64_t (*submit)(struct ssd_blk *b, int ddir, uint64_t offset,
			  uint32_t len, int64_t t);
	int64_t (*flush)(struct ssd_blk *b, int64_t t);
	int (*idle)(struct ssd_blk *b, int64_t until);
	/* Row i of the node's own figures into *s: 1, or 0 past the last
	 * row.  May be NULL (no rows). */
	int (*stat)(const struct ssd_blk *b, int i, struct ssd_blk_stat *s);
	/* Hint that a command on [offset, offset + len) is coming: the
	 * node warms what it will look up (ssd_dev_prefetch).  May be
	 * NULL (no hint). */
	void (*prefetch)(const struct ssd_blk *b, uint64_t offset,
			 uint32_t len, int stage);
	/* Free what the node allocated, the nodes below included (with
	 * ssd_blk_destroy), but not the struct ssd_blk itself when it is
	 * embedded: destroy frees the node as a whole. */
	void (*destroy)(struct ssd_blk *b);
	/* A drive: add its NAND-side counters into *sum, and give its
	 * health.  NULL for a host layer (its drives below answer). */
	void (*counters)(const struct ssd_blk *b, struct ssd_counters *sum);
	void (*health)(const struct ssd_blk *b, struct ssd_health *h);
	/* A drive that keeps a command queue and reorders it (a hard disk
	 * with hdd_queue = sptf), when its caller takes the decisions: a
	 * submission that may answer SSD_EPENDING (the command waits), the
	 * tag of the command left waiting, when the drive next chooses
	 * (INT64_MAX: none waits), and its choice at or before t (1 with the
	 * tag and completion, 0 if none is due).  NULL for a node that
	 * serves in arrival order. */
	int64_t (*submit_q)(struct ssd_blk *b, int ddir, uint64_t offset,
			    uint32_t len, int64_t t);
	void (*tag_waiting)(struct ssd_blk *b, uint32_t tag);
	int64_t (*next_decision)(const struct ssd_blk *b);
	int (*decide)(struct ssd_blk *b, int64_t t, uint32_t *tag,
		      int64_t *done);
	/* Zone Management Send (zns.h's enum ssd_zns_action) on the zone
	 * at offset, or every zone it selects, for a zoned drive: the
	 * completion time or a negative SSD_E* or SSD_ZNS_E*.  NULL for a
	 * conventional node. */
	int64_t (*zone)(struct ssd_blk *b, int action, uint64_t offset,
			int flags, int64_t t);
};

struct ssd_blk {
	const struct ssd_blk_ops *ops;
	char name[24];            /* for reports: "page_cache", "ssd0", ... */
	uint64_t capacity;        /* bytes it offers above */
	uint32_t nlower;          /* nodes below: 0 for a drive */
	struct ssd_blk **lower;   /* owned */
	struct ssd_drive *ssd;    /* an SSD node: the drive itself, else NULL */
	struct ssd_blk_io io;     /* what it was asked (ssd_blk_submit) */
	int64_t last;             /* its latest submission, ns */
};

/* A command of len bytes at t, counted in b->io.  (ddir & 0xff) is the
 * direction. */
static inline void ssd_blk_count(struct ssd_blk *b, int ddir, uint32_t len,
				 int64_t t)
{
	int d = ddir & 0xff;
	if (d >= 0 && d < SSD_DDIR_N) {
		b->io.cmds[d]++;
		b->io.bytes[d] += len;
	}
	if (t > b->last)
		b->last = t;
}

/* Submit to a node, counted in b->io. */
static inline int64_t ssd_blk_submit(struct ssd_blk *b, int ddir,
				     uint64_t offset, uint32_t len, int64_t t)
{
	ssd_blk_count(b, ddir, len, t);
	return b->ops->submit(b, ddir, offset, len, t);
}

static inline int64_t ssd_blk_flush(struct ssd_blk *b, int64_t t)
{
	b->io.flushes++;
	if (t > b->last)
		b->last = t;
	return b->ops->flush(b, t);
}

static inline int ssd_blk_idle(struct ssd_blk *b, int64_t until)
{
	return b->ops->idle(b, until);
}

static inline void ssd_blk_prefetch(const struct ssd_blk *b, uint64_t offset,
				    uint32_t len, int stage)
{
	if (b->ops->prefetch)
		b->ops->prefetch(b, offset, len, stage);
}

static inline void ssd_blk_destroy(struct ssd_blk *b)
{
	if (b)
		b->ops->destroy(b);
}

#endif
