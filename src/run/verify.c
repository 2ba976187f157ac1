/*
 * verify.c -- the runner's side of verify= (machine/verify.h holds the
 * host's record and the checks): what a verifying job reads back, when,
 * and what it records of the writes and trims of every job.
 *
 * A job that writes with verify set runs in phases, as fio's thread loop
 * does: its I/O stream (with verify_backlog, a batch of verify reads
 * after every N writes; with trim_backlog and trim_percentage, a batch
 * of trims of chosen written blocks), then, once every command has
 * completed, a flush (fio syncs the file) and the verify phase, which
 * reads back every block the job wrote, iodepth at a time, until done or
 * the runtime ends (the phases are next_cmd's, in loop.c).  The blocks to
 * read back are the job's write stream replayed: a second generator with
 * the same seed (O(1) memory, where fio keeps a list of written blocks)
 * is the verify cursor (a zbd job, whose writes the zones moved, logs
 * where they went instead), and a third the trim cursor; a block read back
 * since its latest write is skipped (unless experimental_verify).  A read
 * job with verify checks every read.  Checks are made when the read is
 * submitted (the drive's state then is what it returns) and a failure
 * ends the job when that read completes, with EILSEQ.  Every write and
 * trim of every job updates the host's record once one exists.
 */
#include "run/run_int.h"

#include <stdio.h>
#include <stdlib.h>

#include "machine/verify.h"

/* The next write of a replayed stream that the stream itself has issued
 * (*pos of them passed so far, `limit` issued): 1 with *io set. */
static int replay_write(struct ssd_wl *wl, uint64_t *pos, uint64_t limit,
			struct ssd_io *io)
{
	while (*pos < limit) {
		if (!ssd_wl_next(wl, io))
			return 0;
		if (io->ddir == SSD_DDIR_WRITE) {
			(*pos)++;
			return 1;
		}
	}
	return 0;
}

/* 1 if instance `in` read back every page of io since its latest
 * write; else marks them read back by it now.  Blocks that are not whole
 * 4 KiB pages are always read (several share a page). */
static int seen_before(struct run *r, const struct inst *in,
		       const struct ssd_io *io)
{
	uint32_t lpn, n;
	ssd_verify_pages(SSD_DDIR_READ, io->offset, io->len, &lpn, &n);
	if (!r->vseen || (io->offset | io->len) % SSD_LPAGE ||
	    (uint64_t)lpn + n > (ssd_dev_capacity(r->dev) / SSD_LPAGE))
		return 0;
	uint16_t me = (uint16_t)in->index;
	int all = 1;
	for (uint32_t l = lpn; l < lpn + n && all; l++)
		all = r->vseen[l] == me;
	if (all)
		return 1;
	for (uint32_t l = lpn; l < lpn + n; l++)
		r->vseen[l] = me;
	return 0;
}

/* The verify cursor's next read: the next block the job wrote, skipping
 * blocks read back since their latest write unless experimental_verify
 * asks to replay every write. */
int run_verify_next(struct run *r, struct inst *in, struct ssd_io *io)
{
	if (in->zj) {
		/* a zbd job: where its writes went (zoned.c logs them) */
		while (in->vpos < in->zlog_n) {
			const struct zbd_write *w = &in->zlog[in->vpos++];
			*io = (struct ssd_io){.ddir = SSD_DDIR_READ,
					      .offset = w->offset,
					      .len = w->len};
			if (!in->job->experimental_verify &&
			    seen_before(r, in, io))
				continue;
			return 1;
		}
		return 0;
	}
	while (replay_write(in->vwl, &in->vpos, in->writes, io)) {
		io->ddir = SSD_DDIR_READ;
		if (!in->job->experimental_verify && seen_before(r, in, io))
			continue;
		return 1;
	}
	return 0;
}

/* verify_backlog: after every N blocks written and not yet verified, a
 * batch of verify_backlog_batch reads of the oldest (fio: its history
 * list reaching a multiple of N). */
int run_backlog_verify(struct run *r, struct inst *in, struct ssd_io *io)
{
	const struct ssd_job *j = in->job;
	if (!j->verify_backlog || !in->vwl)
		return 0;
	uint64_t u = in->writes - in->vpos;
	if (!in->vbatch && u && !(u % j->verify_backlog) &&
	    in->last != LAST_VERIFY)
		in->vbatch = j->verify_backlog_batch ? j->verify_backlog_batch
						     : j->verify_backlog;
	if (!in->vbatch)
		return 0;
	in->vbatch--;
	if (run_verify_next(r, in, io))
		return 1;
	in->vbatch = 0; /* caught up with the writes */
	return 0;
}

/* trim_backlog with trim_percentage: after every N blocks written, trim
 * trim_backlog_batch of the oldest written blocks chosen (each with
 * probability trim_percentage) and not trimmed yet; the verify phase
 * then finds them zero. */
int run_backlog_trim(struct inst *in, struct ssd_io *io)
{
	const struct ssd_job *j = in->job;
	if (!in->twl)
		return 0;
	if (!in->tbatch && in->writes && !(in->writes % j->trim_backlog) &&
	    in->last != LAST_TRIM)
		in->tbatch = j->trim_backlog_batch ? j->trim_backlog_batch
						   : j->trim_backlog;
	while (in->tbatch) {
		in->tbatch--;
		while (replay_write(in->twl, &in->tpos, in->writes, io)) {
			if (ssd_rng_below(&in->trng, 100) >= j->trim_percentage)
				continue;
			io->ddir = SSD_DDIR_TRIM;
			return 1;
		}
		in->tbatch = 0;
	}
	return 0;
}

/* Check what the read io, going to the drive at t in command cm,
 * returns; a failure marks the command (the job ends when it is
 * reaped). */
void run_check_read(struct run *r, struct inst *in, const struct ssd_io *io,
		       int64_t t, struct cmd *cm)
{
	struct ssd_vcount vc = {0, 0};
	char msg[sizeof in->vmsg];
	if (ssd_verify_read(r->dev, io->offset, io->len,
			    in->job->trim_verify_zero, r->dev->cfg.name, &vc,
			    msg, sizeof msg)) {
		cm->flags |= CMD_BAD;
		if (!in->vmsg[0])
			snprintf(in->vmsg, sizeof in->vmsg, "%s", msg);
	}
	if (t >= in->ramp_end) {
		in->res->verify_pages += vc.pages;
		in->res->verify_zero_pages += vc.zero_pages;
	}
}

/* How instance `in` verifies (job options; see the top of the file). */
void run_verify_init(struct inst *in, uint32_t clone)
{
	const struct ssd_job *j = in->job;
	int w = j->rw == SSD_RW_WRITE || j->rw == SSD_RW_RANDWRITE ||
		j->rw == SSD_RW_READWRITE || j->rw == SSD_RW_RANDRW;
	int rd = j->rw == SSD_RW_READ || j->rw == SSD_RW_RANDREAD;
	in->vcheck = j->verify == SSD_VERIFY_DATA;
	in->vreads = rd && in->vcheck;
	in->vafter = w && j->verify != SSD_VERIFY_NONE && j->do_verify;
	in->phase = PH_IO;
	if (!in->vafter)
		return;
	in->vwl = ssd_wl_create(j, clone, in->seed);
	if (j->trim_backlog && j->trim_percentage) {
		in->twl = ssd_wl_create(j, clone, in->seed);
		ssd_rng_seed(&in->trng, ssd_mix64(in->seed ^ 0x7472696dULL));
	}
	if (j->verify_only) {
		/* the writes are phantoms: every one can be read back */
		in->phase = PH_VWAIT;
		in->writes = UINT64_MAX;
	}
}

/* The run's verification state: the drive's host record when a job
 * checks data (created once per drive, then kept up to date by every
 * run), and the read-back bitmap when a job has a verify phase. */
int run_verify_setup(struct run *r, const struct ssd_job *jobs, int njobs)
{
	int check = 0, phase = 0;
	for (int j = 0; j < njobs; j++) {
		check |= jobs[j].verify == SSD_VERIFY_DATA;
		phase |= jobs[j].verify != SSD_VERIFY_NONE && jobs[j].do_verify;
	}
	if (check && ssd_dev_is_machine(r->dev))
		return SSD_EUNSUP; /* the record lives in an SSD's pages */
	if (check && ssd_verify_attach(r->dev))
		return SSD_ENOMEM;
	r->vrec = r->dev->vrec;
	if (phase) {
		r->vseen = calloc((size_t)(ssd_dev_capacity(r->dev) / SSD_LPAGE) + 1, sizeof *r->vseen);
		if (!r->vseen)
			return SSD_ENOMEM;
	}
	r->vtrack = r->vrec || r->vseen;
	return 0;
}
