/*
 * zbd.h -- fio's zoned block device mode (zonemode=zbd) on the host side:
 * the zones' write pointers as the host keeps them, the write target
 * zones, and what fio's zbd.c does to each I/O before it goes out
 * (docs/fio-zoned.md §2, fio HEAD's algorithm).
 *
 * The model.  The drive is cut into zones of zone_size bytes (the last
 * one may be short); each has a write pointer (wp) and a capacity (cap:
 * bytes writable from its start).  One struct ssd_zbd per drive is shared
 * by every zbd job of the run, as fio shares one zone table per device:
 * the write pointers, the list of write target zones (at most max_write,
 * fio's max_open_zones; 0 keeps no list), the valid data of the reset
 * threshold and the reset-frequency countdown.  Each job instance has a
 * struct ssd_zbd_job: its region [lo, hi) as whole zones, its block
 * sizes and options, the targets it added and the zone resets it did.
 *
 *   write   goes to the write pointer of a zone: the zone of the drawn
 *           offset if it is or can become a write target, else one of
 *           the targets (index (offset - lo) x targets / region), else
 *           the next zone that can; a full zone chosen is reset first;
 *           a zone left with less than a block is FINISHed (unless
 *           write_zone_remainder); the write is cut at the capacity;
 *           every zone_reset_frequency-th write above the threshold
 *           resets its zone.  No zone can take it: the job ends (eof).
 *   read    (read_beyond_wp=0) moved and cut below the write pointer; a
 *           zone without a block of data: the next one with data
 *           (sequential) or the nearest (random); none: eof.
 *   trim    is a zone reset (trim bs = zone size); a random trim of an
 *           empty zone moves to the nearest zone with data.
 *
 * The write pointer moves when a write is issued (ssd_zbd_issued), as
 * fio moves it when it queues; a zone that reaches its capacity leaves
 * the target list then.  An empty zone is never reset and not counted.
 *
 * Resets and finishes go to the drive through ops (struct ssd_zbd_ops):
 * on a conventional drive (fio's emulated zones) they are bookkeeping
 * and complete at once; on a zoned drive they are Zone Management
 * commands at the simulated time, and the write waits for them
 * (*ready).  The module itself is pure: no drive, no clock, no
 * allocation after ssd_zbd_create.
 *
 * Units: bytes, zone indices from 0 at the drive's start, ns for times.
 */
#ifndef SSD_RUN_ZBD_H
#define SSD_RUN_ZBD_H

#include <stdint.h>

#include "base/io.h"
#include "job/workload.h"

#define SSD_ZBD_MAX_WRITE_ZONES 4096 /* fio's ZBD_MAX_WRITE_ZONES */

struct ssd_zbd_zone {
	uint64_t start;       /* bytes from the drive's start */
	uint64_t wp;          /* host's write pointer, start..start + cap */
	uint64_t cap;         /* bytes writable from start */
	uint32_t write;       /* in the write target list */
	uint32_t pad;
};

/* The drive's side: RESET or FINISH of zone z at time t; the time it
 * completes, or a negative SSD_E* (the job ends with the error). */
enum { SSD_ZBD_RESET, SSD_ZBD_FINISH };
struct ssd_zbd_ops {
	int64_t (*send)(void *ctx, int action, uint32_t zone, int64_t t);
	void *ctx;
};

struct ssd_zbd {
	uint64_t zone_size;
	uint32_t nzones;
	struct ssd_zbd_zone *z;     /* nzones */
	uint32_t max_write;         /* write target zones; 0: no list */
	uint32_t nwrite;
	uint32_t write_zones[SSD_ZBD_MAX_WRITE_ZONES];
	/* zone_reset_threshold: valid bytes in the zones [vlo, vhi), kept
	 * once a writing job with a threshold starts (vdb_on) */
	int vdb_on;
	uint32_t vlo, vhi;
	uint64_t vdb;
	uint64_t write_cnt;         /* zone_reset_frequency's countdown */
	struct ssd_zbd_ops ops;
};

/* One job instance's view. */
struct ssd_zbd_job {
	uint64_t lo, hi;            /* its region, whole zones, bytes */
	uint32_t min_zone, max_zone;/* zone indices [min_zone, max_zone) */
	uint32_t min_bs[SSD_DDIR_N];
	int random;                 /* random offsets */
	int mixed;                  /* reads and writes (zbd_adjust_ddir) */
	int writes;                 /* the job writes */
	int verify;                 /* verify is set */
	int wzr;                    /* write_zone_remainder */
	int rbwp;                   /* read_beyond_wp */
	uint32_t job_max;           /* job_max_open_zones; 0: none */
	double zrt, zrf;            /* zone_reset_threshold, _frequency */
	uint32_t num_write;         /* targets this job added */
	int wrote;                  /* a write was issued */
	uint64_t resets;            /* zone resets this job did */
	int64_t ready;              /* the drive commands it sent complete */
	int err;                    /* the error of ops, or 0 */
	char msg[160];              /* the error's message */
};

/* A drive of `capacity` bytes cut into zones of zone_size (the last one
 * short if it does not divide), each empty with capacity cap (at most
 * zone_size), max_write write target zones (0: no list).  Returns NULL
 * when out of memory. */
struct ssd_zbd *ssd_zbd_create(uint64_t capacity, uint64_t zone_size,
			       uint64_t cap, uint32_t max_write,
			       const struct ssd_zbd_ops *ops);
void ssd_zbd_destroy(struct ssd_zbd *d);

/* Job j's view of d for a job instance working in [lo, lo + size) (whole
 * zones) from job's options.  At the job's start (fio's zbd_file_reset):
 * with verify set, a writing job resets the zones of its region that
 * hold data, at t; the countdown of zone_reset_frequency starts over.
 * Returns 0, or the error of ops (j->msg). */
int ssd_zbd_job_start(struct ssd_zbd *d, struct ssd_zbd_job *j,
		      const struct ssd_job *job, uint64_t lo, uint64_t size,
		      int64_t t);

/* What fio's zbd_adjust_block makes of io, drawn by the job's generator,
 * at t: */
enum { SSD_ZBD_ACCEPT,  /* io (moved, cut) goes out, no sooner than
                           j->ready (drive commands it waits for) */
       SSD_ZBD_EOF,     /* nothing can be done: the job's I/O ends */
       SSD_ZBD_ERROR }; /* the job ends with j->err, j->msg */
int ssd_zbd_adjust(struct ssd_zbd *d, struct ssd_zbd_job *j,
		   struct ssd_io *io, int64_t t);

/* The write io (as adjusted) is issued: the zone's write pointer moves
 * past it, the valid data grows; a zone at its capacity leaves the
 * target list. */
void ssd_zbd_issued(struct ssd_zbd *d, struct ssd_zbd_job *j,
		    const struct ssd_io *io);

/* A trim io (as adjusted) at t: a reset of its zone (none if it is
 * empty).  Its completion time (t when nothing is sent), or a negative
 * SSD_E* with j->msg ("Trim offset not at zone start"). */
int64_t ssd_zbd_trim(struct ssd_zbd *d, struct ssd_zbd_job *j,
		     const struct ssd_io *io, int64_t t);

/* Zone zone, open on the drive when job j starts, is one of the write
 * targets (fio's zbd_setup_files).  0, or SSD_ZBD_ERROR when the list is
 * full (j->msg: fio HEAD's "Number of open zones exceeds max_open_zones
 * limit"). */
int ssd_zbd_take_open(struct ssd_zbd *d, struct ssd_zbd_job *j,
		      uint32_t zone);

/* The zone holding byte offset off. */
static inline uint32_t ssd_zbd_zone_of(const struct ssd_zbd *d, uint64_t off)
{
	return (uint32_t)(off / d->zone_size);
}

#endif
