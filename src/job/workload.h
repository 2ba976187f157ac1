/*
 * workload.h -- the I/O stream of one job instance: which operation, at
 * which offset, of what length, in the order fio would issue them.
 *
 * A generator is pure: it knows nothing of time or of the drive.  The
 * simulator asks it for the next I/O each time a queue slot frees; it
 * answers until the job's byte budget (io_size) is used, or forever when
 * the job is time_based (then the simulator stops it at runtime).
 *
 * Random offsets: uniform, zipf, pareto or zoned over the job's region,
 * aligned to the I/O's block size.  Without norandommap, uniform random
 * jobs visit every block of the region once per pass in a random order
 * (a keyed permutation, O(1) memory), as fio's random map does; with it,
 * offsets are drawn with replacement.
 *
 * A job with read_iolog replays its trace instead (trace/trace.h), a
 * record at a time: the trace's actions in order, onto the job's region,
 * with the trace's timing in each I/O (ssd_io.wait).
 *
 * Files, per-clone regions (offset_increment) and strided zones: a job
 * with regions (job->nfiles > 0) gets one such generator per region of
 * its clone, and each I/O goes to the region file_service_type picks (or
 * to the current strided zone); the clone's budget is job->clone_io.
 */
#ifndef SSD_WORKLOAD_H
#define SSD_WORKLOAD_H

#include <stdint.h>

#include "job/job.h"

struct ssd_io {
	int ddir;         /* enum ssd_ddir (a replayed trace: SYNC too) */
	uint64_t offset;  /* bytes from the start of the drive */
	uint32_t len;     /* bytes */
	/* a replayed trace's timing (read_iolog; left as they are by the
	 * other streams): the I/O is issued no sooner than `delay` ns after
	 * the job's previous issue (SSD_IO_GAP) or after the job started
	 * (SSD_IO_UNTIL); SSD_IO_NOW: as soon as it can */
	uint32_t wait;
	int64_t delay;
};
enum { SSD_IO_NOW = 0, SSD_IO_GAP = 1, SSD_IO_UNTIL = 2 };

struct ssd_wl;

/* Create the generator of instance `clone` (0..numjobs-1) of `job`, with
 * its random stream seeded from `seed` (the job's randseed, or one derived
 * by the caller from the run seed).  Returns NULL only on allocation
 * failure.  The job struct must outlive the generator. */
struct ssd_wl *ssd_wl_create(const struct ssd_job *job, uint32_t clone,
			     uint64_t seed);
void ssd_wl_destroy(struct ssd_wl *w);

/* Next I/O into *io.  Returns 1, or 0 when the byte budget is spent
 * (never 0 for time_based jobs). */
int ssd_wl_next(struct ssd_wl *w, struct ssd_io *io);

/* zonemode=zbd moved or cut the I/O the generator gave (`drawn`) to
 * `io`, and skipped `skip` bytes after it (a sequential write at a zone's
 * capacity jumps to the zone's end): a sequential stream goes on after
 * io, and the byte budget counts io's length and the skip, as fio's
 * counts what it issued. */
void ssd_wl_moved(struct ssd_wl *w, const struct ssd_io *drawn,
		  const struct ssd_io *io, uint64_t skip);

/* Sequential positions back to the region's start, the budget as it is
 * (zonemode=zbd: fio's next do_io pass after one that ended early). */
void ssd_wl_rewind(struct ssd_wl *w);

/* Bytes issued so far. */
uint64_t ssd_wl_issued(const struct ssd_wl *w);

/* Why the stream ended early ("PATH:LINE: what" of a replayed trace that
 * broke off, or whose request lies outside the job's region), or NULL
 * when it ended as it should. */
const char *ssd_wl_error(const struct ssd_wl *w);

#endif
