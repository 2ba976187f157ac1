/*
 * streams.h -- host write streams on placement handles, driven straight
 * through ssd_dev_submit: the workloads of the FDP write-amplification
 * oracle (accuracy_fdp.c) and of the fdp scenario (scn_fdp.c).
 *
 * A stream is a region of the logical space written on one reclaim unit
 * handle (SSD_BLK_PLACEMENT; docs/fdp.md), in one of three patterns:
 *
 *   random      uniform random 4 KiB writes over the region, drawn with
 *               replacement (the analytic models' assumption);
 *   log         the region rewritten in order, round and round: each
 *               page dies when the log comes back to it, one at a time;
 *   log_trim    the same, but each `trim` pages of the log are trimmed
 *               as the log comes back to them, before it rewrites them:
 *               the data dies whole, a piece at a time (a cache evicting
 *               a segment).
 *
 * The streams take turns at random, each turn a burst of the stream's
 * `piece` pages (a random stream: that many independent pages), stream
 * i in proportion to share_i / piece_i, so that it writes share_i of
 * the pages (the shares are weights).  Pieces are whole stripes (a
 * page on every allocation unit) so that a trimmed piece of a reclaim
 * unit's size empties one block on every unit; each handle goes round
 * the units on its own (ftl_fdp.c), so how finely the streams interleave
 * does not change where a stream's pages land.
 *
 * Time: one command at a time (QD1), each submitted at the previous
 * one's completion; the drive's own timing runs as always.
 */
#ifndef SSD_STREAMS_H
#define SSD_STREAMS_H

#include <stdint.h>

#include "base/util.h"
#include "machine/device.h"

enum ssd_stream_kind { SSD_STREAM_RANDOM, SSD_STREAM_LOG, SSD_STREAM_LOG_TRIM };

#define SSD_STREAMS_MAX 16

struct ssd_stream {
	/* set by the caller */
	uint64_t start, len;  /* the region, in 4 KiB pages */
	int kind;             /* enum ssd_stream_kind */
	uint32_t handle;      /* its placement handle */
	double share;         /* its share of the pages written (a weight) */
	uint32_t piece;       /* pages per turn (a multiple of the stripe) */
	uint32_t trim;        /* log_trim: pages trimmed at once (a
	                         multiple of piece dividing len) */
	/* kept by ssd_streams_run */
	uint64_t pos;         /* a log's next page, from start */
	uint64_t written;     /* host pages written (reset by the caller) */
};

struct ssd_streams {
	struct ssd_dev *dev;
	int n;
	struct ssd_stream s[SSD_STREAMS_MAX];
	struct ssd_rng rng;
	int64_t t;            /* the next submission's time */
};

/* Start a set of n streams on dev (its streams filled in afterwards),
 * the choice of turns seeded with seed. */
void ssd_streams_init(struct ssd_streams *m, struct ssd_dev *dev,
		      uint64_t seed);

/* Write every stream's region once, in order, on its handle, a piece at
 * a time in turn (so the streams' data is laid out as their own writes
 * would lay it out).  0 or the failing command's negative code. */
int ssd_streams_fill(struct ssd_streams *m);

/* About `pages` host page writes (whole turns: up to a piece more),
 * streams chosen by share.  0 or the failing command's negative code. */
int ssd_streams_run(struct ssd_streams *m, uint64_t pages);

#endif
