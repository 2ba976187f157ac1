/*
 * serve.h -- the simulated drive as a block device that real programs
 * use: the data they write, a clock that maps their requests onto
 * simulated time, and the report of what the drive did for them.
 *
 * A network block device server (nbdkit, with the plugin in
 * nbdkit/ssdlab.c) hands each client request to ssd_srv_read, _write,
 * _trim, _zero or _flush, from as many threads as it likes; one lock
 * serializes the drive and the data store, and the waiting a request
 * does for its simulated completion (the real clock) happens outside it,
 * so requests in flight together queue together in the drive.
 *
 * The data store keeps what was written, 4 KiB page by page: in memory
 * (a page is allocated when first written and freed when trimmed or
 * zeroed whole) or in a sparse file (holes punched).  Never-written and
 * trimmed ranges read as zeros; a TRIM frees only the whole units it
 * covers (ssd_srv_trim_unit), as the drive deallocates them, and the
 * parts at its ends keep their data.  What the drive model does
 * (latencies, GC, wear) never changes the data: the store is the truth,
 * the model the timing and the counters.
 *
 * Clocks:
 *  - SSD_SRV_REAL: simulated time is wall-clock time since the server
 *    started (CLOCK_MONOTONIC).  A request enters the drive at its
 *    arrival and its call returns at its simulated completion; gaps on
 *    the wire are idle time for the drive's background work.
 *  - SSD_SRV_FAST: no waiting.  The requests are a closed loop of
 *    `fast_qd` commands: a request enters the drive at the previous
 *    one's entry, or, with fast_qd commands still in flight in
 *    simulated time, at the earliest of their completions (fast_qd 1: each
 *    command after the previous one completes, as a synchronous client).
 *
 * Every function returns 0 or a negative errno (EIO, EROFS, ENOSPC,
 * EINVAL, EOPNOTSUPP, ENOMEM), with a message for ssd_srv_error.
 */
#ifndef SSD_SERVE_H
#define SSD_SERVE_H

#include <stdint.h>
#include <stdio.h>

#include "base/config.h"

enum { SSD_SRV_REAL = 0, SSD_SRV_FAST = 1 };

/* Flags of the request calls. */
#define SSD_SRV_FUA 1      /* durable before it completes */
#define SSD_SRV_MAY_TRIM 2 /* zero: may deallocate (NBD's write zeroes
                              without NO_HOLE) */

struct ssd_srv_opts {
	const struct ssd_config *cfg; /* a finished drive (copied) */
	uint64_t seed;
	int clock;                /* SSD_SRV_REAL or SSD_SRV_FAST */
	uint32_t fast_qd;         /* SSD_SRV_FAST's closed loop (0: 1) */
	int64_t client_overhead;  /* SSD_SRV_REAL: ns taken off each reply's
	                             wait, the client stack's own round trip
	                             (measured at SSD_SRV_FAST), so that what
	                             the client measures is the drive's
	                             latency; 0: the drive's plus the stack's */
	const char *data;         /* NULL or "memory", or a file path: a
	                             new or empty file, made sparse */
	const char *output;       /* the report's file; NULL: `out` */
	FILE *out;                /* the report's stream without a file (NULL:
	                             stdout) */
	unsigned formats;         /* SSD_OUT_* (0: normal) */
	int64_t stats_interval;   /* ns of simulated time; 0: no series; the
	                             last, partial interval is a row too */
	const char *stats_log;    /* the series' CSV file (needed with an
	                             interval) */
	uint32_t check_every;     /* the FTL invariant checker after every N
	                             GC victims (0: never) */
	const char *name;         /* the report's job name (NULL: "nbd") */
	int power_cuts;           /* ssd_srv_power_cut may be called: the
	                             drive tracks what a cut must see, and
	                             the store keeps what a cut may bring
	                             back (docs/power-loss.md) */
	const char *power_log;    /* each cut's lost pages, CSV (NULL: none) */
	int64_t power_off;        /* ns the power stays off at a cut */
	const char *snapshot;     /* serve the drive saved here (cfg is its
	                             drive; machine/snapshot.h) instead of a
	                             fresh one; NULL: fresh.  Not with
	                             power_cuts */
};

struct ssd_srv;

/* What can be refused before anything is built, from the options and
 * the finished drive alone (ssd_srv_open checks it first too): power
 * cuts with a snapshot, or on a drive that cannot model them; a zoned
 * drive; a data file that holds data or is not a file.  0, or -errno
 * with err[] saying what. */
int ssd_srv_check(const struct ssd_srv_opts *o, char *err, size_t errlen);

/* Build the drive and its data store.  0, or -errno with err[] saying
 * what (a data file that cannot be made, a drive the model refuses). */
int ssd_srv_open(const struct ssd_srv_opts *o, struct ssd_srv **out,
		 char *err, size_t errlen);
/* Write the final report (ssd_srv_report), the logs' last rows, and
 * free everything.  0, or the report's error, or -EIO when any of the
 * server's files could not be written during its life (ssd_srv_file_error;
 * ssd_srv_error says which). */
int ssd_srv_close(struct ssd_srv *s);

/* The real clock starts now (a server that forks after ssd_srv_open
 * calls it as it begins to serve). */
void ssd_srv_start_clock(struct ssd_srv *s);

/* The size the clients see, bytes. */
uint64_t ssd_srv_size(const struct ssd_srv *s);
/* The drive accepts TRIM (a hard disk does not). */
int ssd_srv_can_trim(const struct ssd_srv *s);
/* The unit a TRIM deallocates, bytes (ssd_dev_trim_unit: 4096, or an MFT
 * machine's mft_block).  ssd_srv_trim frees the whole units inside its
 * range, in the drive and in the store; a unit it covers in part reads
 * back as it was.  ssd_srv_zero with SSD_SRV_MAY_TRIM trims the whole
 * units and writes the rest. */
uint32_t ssd_srv_trim_unit(const struct ssd_srv *s);

int ssd_srv_read(struct ssd_srv *s, void *buf, uint32_t len, uint64_t off);
int ssd_srv_write(struct ssd_srv *s, const void *buf, uint32_t len,
		  uint64_t off, unsigned flags);
int ssd_srv_trim(struct ssd_srv *s, uint32_t len, uint64_t off, unsigned flags);
int ssd_srv_zero(struct ssd_srv *s, uint32_t len, uint64_t off, unsigned flags);

/* A client connection's view of the power: the cuts it lived through.
 * A server gives each connection its own, set by ssd_srv_conn_init as it
 * opens.  Plain data: the caller owns it. */
struct ssd_srv_conn {
	uint64_t lossy_seen;       /* cuts that had lost pages when it opened */
};
void ssd_srv_conn_init(struct ssd_srv *s, struct ssd_srv_conn *cn);

/* Flush: every write completed before it is durable when it returns 0.
 * Once a power cut has lost pages while cn was open, every flush of cn
 * fails with EIO: writes it was answered before the cut may be gone, and
 * with requests pipelined no later flush can tell which it covers; the
 * client reconnects (a new cn) to flush again, as a host re-attaches a
 * drive that lost power.  cn NULL: a caller that learns of cuts
 * otherwise (it made them, with ssd_srv_power_cut). */
int ssd_srv_flush(struct ssd_srv *s, struct ssd_srv_conn *cn);

/* The store's allocation over [off, off + len): fn(ctx, offset, length,
 * zero) for consecutive runs, zero = 1 for runs never written or
 * deallocated (they read as zeros).  0 or fn's nonzero return. */
int ssd_srv_extents(struct ssd_srv *s, uint64_t off, uint64_t len,
		    int (*fn)(void *ctx, uint64_t off, uint64_t len, int zero),
		    void *ctx);

/* Bring the drive up to now (the real clock: idle time runs its
 * background work) and write the series' rows that are due.  A server
 * calls it now and then (every 100 ms or so) between requests. */
int ssd_srv_tick(struct ssd_srv *s);

/* The server's files -- the report, the stats log, the power log -- go
 * through base/ofile.h: a report replaces its file whole or not at all,
 * a log that cannot be written is removed (the rows it lacks would not
 * show) and no longer written.  The first such failure, "stats log:
 * cannot write 'x.csv': No space left on device", into buf; 1 if there
 * was one, else 0 (buf ""). */
int ssd_srv_file_error(struct ssd_srv *s, char *buf, size_t n);

/* The report, as `ssdlab run` writes it: the drive's counters, WAF, GC,
 * erase spread, free blocks, health and the latency percentiles of the
 * requests as the drive saw them, since the server started.  To the
 * output file (rewritten whole, atomically) or standard output
 * (appended).  0 or -errno. */
int ssd_srv_report(struct ssd_srv *s);

/* What the store holds: 4 KiB pages allocated, and the bytes of memory
 * it takes for them and their tables (a file store: 0 pages, and the
 * bytes the file has allocated). */
void ssd_srv_store_usage(const struct ssd_srv *s, uint64_t *pages,
			 uint64_t *bytes);

/* Cut the power now and recover (opened with power_cuts; -EINVAL
 * otherwise).  The drive keeps what its flash held at the cut
 * (ssd_dev_power_cut) and the data store follows it: a page whose latest
 * write was lost holds its newest surviving content again, or zeros.
 * Requests in flight fail with EIO: every request that arrived before
 * the cut and completes after it, wherever it waited (for the lock, in
 * the drive, for its time on the real clock); the cut comes no earlier
 * than the latest completion already answered.  A connection open at a
 * cut that lost pages fails its flushes from then on (ssd_srv_flush).  The lost pages are appended to the
 * power log; *lost and *recovery_ns (either may be NULL) say how many and
 * how long the rebuild took.  0 or -errno. */
int ssd_srv_power_cut(struct ssd_srv *s, uint64_t *lost, int64_t *recovery_ns);

/* The 4 KiB pages of older content kept for power cuts: about the
 * drive's work in flight, plus what was rewritten since the last
 * completed flush and is not yet durable. */
uint64_t ssd_srv_power_history(struct ssd_srv *s);

/* The message of the last error. */
const char *ssd_srv_error(const struct ssd_srv *s);

/* Simulated time now, ns since the server started (tests). */
int64_t ssd_srv_now(struct ssd_srv *s);
/* The requests answered so far and the simulated time now (ns since the
 * server started), read together: what a status line shows. */
void ssd_srv_progress(struct ssd_srv *s, uint64_t *requests,
		      int64_t *sim_ns);

/* The drive itself, for tests that inject its faults.  Not locked. */
struct ssd_dev;
struct ssd_dev *ssd_srv_dev(struct ssd_srv *s);

#endif
