/*
 * hdd.h -- a hard disk: zoned platters, a seeking head, a spinning
 * spindle and a DRAM buffer that reads ahead and caches writes
 * (type = hdd; docs/hdd.md).  Deterministic: the platter's angle is a
 * function of absolute time, so nothing is drawn at random.
 *
 * Geometry.  One revolution takes T = 60/hdd_rpm s.  A track switch
 * (to the next track, whether a head switch or a cylinder switch) takes
 * t_sw = hdd_seek_track, and every track starts t_sw later in the turn
 * than the one before (the track skew), so that a transfer that runs
 * off the end of a track goes on at once on the next after t_sw.  The
 * zones z = 0 .. Z-1 (Z = hdd_zones; zone 0 outermost, holding LBA 0)
 * have the sustained media rates
 *     R_z = R_o - (R_o - R_i) z / (Z - 1)     (Z = 1: (R_o + R_i) / 2)
 * (R_o = hdd_mbps_outer, R_i = hdd_mbps_inner, MB/s = 10^6 B/s), and a
 * track of zone z holds
 *     B_z = R_z (T + t_sw), rounded down to whole 512 B sectors,
 * so that a long transfer, a track and a switch per track, runs at R_z
 * (the "sustained" rate of the datasheets; within a track the head
 * reads at B_z / T, the "instantaneous" rate).  Every zone has the same
 * number of tracks N = ceil(capacity / sum B_z), so a zone's share of
 * the capacity is proportional to its rate; the innermost zone holds
 * what is left (on tiny capacities the inner zones may be empty).  The
 * model has one track per cylinder: a real cylinder's tracks (one per
 * head) are laid end to end, which multiplies the cylinder count by the
 * heads but changes neither the seek times (fitted over the stroke) nor
 * the transfer (a head switch costs about what a track-to-track seek
 * does).  C = Z N cylinders in all.
 *
 * Seek.  seek(0) = 0 (the same track: only the rotational wait); for a
 * distance of d >= 1 cylinders
 *     seek(d) = s + a sqrt(d) + b d
 * fitted exactly through (1, hdd_seek_track), (C/3, hdd_seek_avg) and
 * (C-1, hdd_seek_full) at create (a 3x3 linear system).  When the fit
 * has a < 0 or b < 0 (a full stroke too short or too long for the
 * other two), the curve is instead the monotone piecewise form through
 * the same three points:
 *     d <= C/3:  t1 + (tA - t1) (sqrt d - 1) / (sqrt(C/3) - 1)
 *     d >  C/3:  tA + (tF - tA) (d - C/3) / (C - 1 - C/3)
 * (and, for fewer than 6 cylinders, linear from t1 at d = 1 to tF).
 *
 * Rotation.  The platter's angle at time t is (t mod T) / T.  Track k
 * (numbered from 0 over the whole disk) has its first sector at angle
 * k t_sw / T (mod 1), and the byte o of it at that plus o / B_z.  A
 * media access at t0 from the head's track h to byte o of track k:
 * seek(|k - h|), then the rotational wait until o comes under the head
 * (a target less than 1 us past the head counts as under it: that
 * absorbs the nanosecond rounding of times), then the transfer at B_z/T
 * with t_sw at each track boundary crossed.
 *
 * The buffer (hdd_cache bytes) holds read segments and cached writes.
 *  - Read-ahead: after a media read the head goes on reading
 *    hdd_read_ahead bytes past its end, in the background, for as long
 *    as no command needs the head; a command that needs it preempts the
 *    read-ahead once its cmd_overhead is over, keeping what was read by
 *    then.  A read that starts inside the read-ahead window (from the
 *    start of the read that began it to where the read-ahead is to
 *    stop) is served by it: it completes when the read-ahead has read
 *    its last byte, and the window moves to hdd_read_ahead past its end
 *    -- a sequential stream reads at the media rate, without seeks or
 *    rotational waits.  A hit in what the read-ahead read moves the
 *    window too, and a hit in a segment that ends where a stopped
 *    read-ahead left the head starts it again from there (after a
 *    rotational wait, in the background).
 *  - Up to SSD_HDD_SEGMENTS read segments (contiguous ranges) stay in
 *    the buffer, least recently used dropped first, the cached writes
 *    taking precedence for room.  A read that one segment, one cached
 *    write extent or the data read ahead so far holds whole is a hit:
 *    it takes cmd_overhead and its link transfer, not the head.
 *  - Write cache (hdd_write_cache = yes): a write completes once in the
 *    buffer (cmd_overhead, then its link transfer) while the dirty data
 *    stays within hdd_cache and within SSD_HDD_WC_EXTENTS extents
 *    (adjacent and overlapping writes merge); otherwise it first waits
 *    for the destaging to make room.  Destaging is work-conserving: the
 *    head writes cached data whenever no command is using it, one track
 *    (or the rest of an extent) per operation, in C-LOOK order (the
 *    first extent at or after the head's position, else the lowest).
 *    Read-ahead goes first, destaging after it.  A destage operation is
 *    not preempted: a command that needs the head waits for it.  A
 *    write larger than hdd_cache, an FUA write and, with
 *    hdd_write_cache = no, every write go to the platters before they
 *    complete (cached data they overlap is destaged in its turn).
 *    Written data is not kept as a read segment.  A flush destages
 *    everything.
 *  - The host link: host_mbps (0 = unlimited); one transfer at a time.
 *    A media read's transfer overlaps the media transfer.
 *
 * Queueing.  ssd_hdd_submit serves in arrival order: its completion is
 * computed when the command is submitted.  ssd_hdd_submit_q (below)
 * keeps a queue and, with hdd_queue = sptf, reorders it as NCQ does;
 * at queue depth 1 both give the same times.  A hit or a cached write
 * does not wait for the head.  cmd_overhead comes first, overlapped
 * with waiting for the head.
 *
 * TRIM: a SATA hard disk of this kind has no TRIM; the command is
 * aborted (SSD_EUNSUP) and counted.
 *
 * Cost: O(tracks touched + log extents) per command, O(SSD_HDD_WC_EXTENTS)
 * at most to insert a cached write; memory is that table and the zones.
 */
#ifndef SSD_HDD_H
#define SSD_HDD_H

#include <stdint.h>

#include "base/config.h"

#define SSD_HDD_SEGMENTS 16    /* read segments kept in the buffer */
#define SSD_HDD_WC_EXTENTS 512 /* write-cache extents at most */

struct ssd_hdd;

/* Counters for the report.  Media times count every media access,
 * background ones (read-ahead excluded: it has no seek) included. */
struct ssd_hdd_stats {
	uint64_t media_reads;      /* reads from the platters (commands) */
	uint64_t media_read_bytes;
	uint64_t media_writes;     /* writes to the platters: write-through,
	                              FUA and destage operations */
	uint64_t media_write_bytes;
	uint64_t seeks;            /* accesses that moved the head (d >= 1) */
	int64_t seek_ns;           /* total seek time */
	int64_t rot_ns;            /* total rotational wait */
	int64_t xfer_ns;           /* total media transfer (track switches in) */
	uint64_t hit_reads;        /* reads served whole from the buffer */
	uint64_t hit_bytes;
	uint64_t stream_reads;     /* reads served by the running read-ahead */
	uint64_t stream_bytes;
	uint64_t readahead_bytes;  /* bytes read past reads' ends */
	uint64_t wc_writes;        /* writes absorbed by the write cache */
	uint64_t wc_bytes;
	uint64_t wc_waits;         /* of them, writes that waited for room */
	uint64_t destages;         /* destage operations */
	uint64_t destage_bytes;
	uint64_t flushes;
	uint64_t trims;            /* TRIMs refused */
};

/* Make a disk from a finished configuration (ssd_config_finish) with
 * type = hdd; the capacity is c->capacity.  0, SSD_ENOMEM, or
 * SSD_EINVAL (a configuration that is not a hard disk's).  *out is
 * owned by the caller (ssd_hdd_destroy). */
int ssd_hdd_create(const struct ssd_config *c, struct ssd_hdd **out);

/* Bytes ssd_hdd_create allocates for c. */
uint64_t ssd_hdd_mem(const struct ssd_config *c);

void ssd_hdd_destroy(struct ssd_hdd *h);

/* One command: ddir SSD_DDIR_READ, _WRITE or _TRIM (base/io.h), fua
 * nonzero for a write that must be on the platters when it completes;
 * [offset, offset + len) within the capacity, len > 0 (SSD_EINVAL
 * otherwise).  Submissions come in non-decreasing t (an earlier t is
 * taken as the latest seen).  Returns the completion time (>= t), or
 * SSD_EUNSUP for a TRIM. */
int64_t ssd_hdd_submit(struct ssd_hdd *h, int ddir, int fua, uint64_t offset,
		       uint32_t len, int64_t t);

/* Flush the write cache: returns when every write accepted before t is
 * on the platters (>= t). */
int64_t ssd_hdd_flush(struct ssd_hdd *h, int64_t t);

/*
 * The command queue (hdd_queue = sptf: SATA's NCQ).  A command that
 * needs the head while the head is busy (a read the buffer does not hold,
 * a write to the platters) waits in the disk's queue, and when the head
 * frees the disk serves, of the first SSD_HDD_NCQ waiting, the one with
 * the shortest positioning time (seek plus rotational wait from where the
 * head is then; ties go to the oldest).  Hits and cached writes complete
 * as they come.
 *
 * ssd_hdd_submit_q is ssd_hdd_submit with a queue: it returns the
 * completion time when the command is served at once, or SSD_EPENDING
 * when it waits (then ssd_hdd_tag_waiting names it).  ssd_hdd_next_decision is when the disk next chooses
 * (INT64_MAX: nothing waits); ssd_hdd_decide(t) serves the next command
 * if that time is at most t: 1 with its tag and completion, 0 if not
 * yet.  A caller that queues must call decide at each decision time (the
 * runner does, as an event) and drain the queue (decide with INT64_MAX)
 * before a flush.  With hdd_queue = fcfs submit_q is submit.
 */
#define SSD_HDD_NCQ 32
int64_t ssd_hdd_submit_q(struct ssd_hdd *h, int ddir, int fua, uint64_t offset,
			 uint32_t len, int64_t t);
/* The command the latest ssd_hdd_submit_q left waiting gets `tag`. */
void ssd_hdd_tag_waiting(struct ssd_hdd *h, uint32_t tag);
int64_t ssd_hdd_next_decision(const struct ssd_hdd *h);
int ssd_hdd_decide(struct ssd_hdd *h, int64_t t, uint32_t *tag, int64_t *done);

/* Let background work (read-ahead, destaging) run up to `until`: what
 * starts before it is done.  0. */
int ssd_hdd_idle(struct ssd_hdd *h, int64_t until);

void ssd_hdd_stats(const struct ssd_hdd *h, struct ssd_hdd_stats *s);

/* ---- the model's pure functions (for tests and reports) ---- */

struct ssd_hdd_geom {
	uint32_t zones;
	uint64_t tracks_per_zone;  /* N */
	uint64_t cylinders;        /* C = zones x N (one track each) */
	double rev_ns;             /* T */
	int64_t switch_ns;         /* t_sw */
	int seek_exact;            /* 1: the sqrt fit; 0: the piecewise form */
	double seek_s, seek_a, seek_b; /* the fit's coefficients (ns) */
};

struct ssd_hdd_zone {
	uint64_t start;            /* its first byte */
	uint64_t bytes;            /* bytes of capacity it holds */
	uint64_t first_track;
	uint32_t track_bytes;      /* B_z */
	double mbps;               /* R_z */
};

/* Where a byte lies. */
struct ssd_hdd_pos {
	uint32_t zone;
	uint64_t track;            /* = cylinder */
	uint32_t in_track;         /* byte offset within the track */
	double angle;              /* its angle, fraction of a turn [0, 1) */
};

void ssd_hdd_geometry(const struct ssd_hdd *h, struct ssd_hdd_geom *g);

/* Zone z (< zones) into *z; SSD_EINVAL past the last. */
int ssd_hdd_zone_info(const struct ssd_hdd *h, uint32_t z,
		      struct ssd_hdd_zone *zi);

/* The sustained media rate of zone z, MB/s. */
double ssd_hdd_zone_mbps(const struct ssd_hdd *h, uint32_t z);

/* Byte offset (< capacity) -> zone, track, angle; SSD_EINVAL past the
 * capacity. */
int ssd_hdd_locate(const struct ssd_hdd *h, uint64_t offset,
		   struct ssd_hdd_pos *p);

/* Seek time over d cylinders, ns (0 for d = 0). */
int64_t ssd_hdd_seek_ns(const struct ssd_hdd *h, uint64_t d);

/* The rotational wait of a head on the byte's track at time t until the
 * byte comes under it, ns (in [0, T)). */
int64_t ssd_hdd_rot_wait_ns(const struct ssd_hdd *h, int64_t t,
			    uint64_t offset);

/* Media transfer time of len bytes from offset, head already on it:
 * len / (B_z / T) per track, t_sw per track boundary crossed. */
int64_t ssd_hdd_xfer_ns(const struct ssd_hdd *h, uint64_t offset,
			uint64_t len);

#endif
