/*
 * zoned.c -- zonemode=zbd in the job runner: the zone logic of zbd.c
 * between a zbd job's generator and the drive.
 *
 * A run with a zbd job keeps one zone table for the drive (struct
 * ssd_zbd), shared by every zbd job of every group, as fio shares one
 * per device: write pointers left by one job are where the next one
 * starts.  Each zbd instance draws its I/O one at a time (no lookahead:
 * a sequential stream goes on from where the zones moved its last I/O),
 * has it adjusted (ssd_zbd_adjust), and tells the generator what became
 * of it (ssd_wl_moved).
 *
 * On a conventional drive the zones are fio's emulated ones (ZBD_NONE):
 * every zone starts empty at each run, resets and finishes are the host's
 * bookkeeping and cost nothing, and a trim (a zone reset) completes at
 * once without reaching the drive, as fio's does on a regular file.
 *
 * On a zoned drive (mapping = zone) the zones are the drive's: their size
 * and capacity, and the write pointers read from the drive when the run
 * starts (they persist from job to job, as on a real device); a
 * reset or finish is a Zone Management Send at the simulated time, whose
 * cost the write waiting for it pays; a trim is a reset; with
 * write_mode=zone_append a write is a Zone Append to its zone's start.
 * The zones open on the drive in a writing job's region are write
 * targets from its start.
 *
 * Cost: the loop tests in->zj once per drawn command (next_cmd) and once
 * per submission (submit_io); a job without zonemode=zbd never calls in.
 */
#include "run/run_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftl/zns.h"

/* Emulated zones: a reset or finish is the host's bookkeeping. */
static int64_t emulated_send(void *ctx, int action, uint32_t zone, int64_t t)
{
	(void)ctx;
	(void)action;
	(void)zone;
	return t;
}

/* A zoned drive: Zone Management Send. */
static int64_t drive_send(void *ctx, int action, uint32_t zone, int64_t t)
{
	struct run *r = ctx;
	return ssd_dev_zone_send(r->dev, action == SSD_ZBD_RESET
				 ? SSD_ZNS_ACT_RESET : SSD_ZNS_ACT_FINISH,
				 (uint64_t)zone * r->zbd->zone_size, 0, t);
}

const char *run_zbd_file(const struct ssd_job *j)
{
	const char *k, *v, *f = NULL;
	for (int g = 1; g >= 0; g--) {
		uint32_t pos = 0;
		while (ssd_job_raw_next(j, g, &pos, &k, &v))
			if (!strcmp(k, "filename"))
				f = v;
	}
	return f ? f : j->name;
}

int run_zbd_setup(struct run *r, const struct ssd_job *jobs, int njobs)
{
	const struct ssd_job *first = NULL;
	for (int j = 0; j < njobs && !first; j++)
		if (jobs[j].zonemode == SSD_ZONEMODE_ZBD)
			first = &jobs[j];
	if (!first)
		return 0;
	/* the parser gave every zbd job the drive's zone size and write
	 * target count (job_zbd.c); the first job's capacity holds */
	struct ssd_zbd_ops ops = {.send = emulated_send, .ctx = r};
	struct ssd_zoned_info zi;
	uint64_t cap = ssd_dev_capacity(r->dev);
	uint64_t zs = first->zonesize, zc = first->zonecapacity;
	r->zoned = ssd_dev_zoned(r->dev, &zi);
	if (r->zoned) {
		ops.send = drive_send;
		cap = (uint64_t)zi.nzones * zi.zone_size;
		zs = zi.zone_size;
		zc = zi.zone_cap;
		r->zmax_active = zi.max_active;
	}
	for (int j = 0; r->zoned && j < njobs; j++)
		if (jobs[j].zonemode == SSD_ZONEMODE_ZBD &&
		    jobs[j].zonesize != zi.zone_size) {
			/* jobs not read for this drive (the library's) */
			snprintf(r->err, r->errlen, "job '%s': %s job parameter "
				 "zonesize %llu does not match disk zone size "
				 "%llu.", jobs[j].name,
				 run_zbd_file(&jobs[j]),
				 (unsigned long long)jobs[j].zonesize,
				 (unsigned long long)zi.zone_size);
			return SSD_EINVAL;
		}
	r->zbd = ssd_zbd_create(cap, zs, zc, first->max_open_zones, &ops);
	r->zjobs = calloc((size_t)r->ninst, sizeof *r->zjobs);
	if (!r->zbd || !r->zjobs) {
		snprintf(r->err, r->errlen, "out of memory");
		return SSD_ENOMEM;
	}
	/* the drive's write pointers, once (fio's parse_zone_info): a zone
	 * without one (full, read only, offline) is full */
	for (uint32_t z = 0; r->zoned && z < r->zbd->nzones; z++) {
		struct ssd_zone_desc zd;
		struct ssd_zbd_zone *hz = &r->zbd->z[z];
		if (ssd_dev_zone_report(r->dev, z, &zd))
			continue;
		hz->cap = zd.cap;
		hz->wp = zd.wp == UINT64_MAX ? hz->start + zd.cap : zd.wp;
	}
	for (int i = 0; i < r->ninst; i++)
		if (r->in[i].job->zonemode == SSD_ZONEMODE_ZBD)
			r->in[i].zj = &r->zjobs[i];
	return 0;
}

void run_zbd_free(struct run *r)
{
	ssd_zbd_destroy(r->zbd);
	free(r->zjobs);
	r->zbd = NULL;
	r->zjobs = NULL;
}

int run_zbd_start(struct run *r, struct inst *in, int64_t t)
{
	const struct ssd_job *j = in->job;
	in->zbd_eof = 0;
	in->zbd_pass = 0;
	in->zbd_has_held = 0;
	struct ssd_zbd_job *zj = in->zj;
	if (ssd_zbd_job_start(r->zbd, zj, j, j->offset, j->size, t)) {
		in->zbd_eof = 1;
		run_job_fail(r, in, zj->err, zj->msg);
		return 0;
	}
	/* a writing job on a zoned drive: the zones open in its region
	 * (closed ones too, with an active limit) are write targets */
	for (uint32_t z = zj->min_zone; r->zoned && zj->writes &&
	     z < zj->max_zone; z++) {
		struct ssd_zone_desc zd;
		if (ssd_dev_zone_report(r->dev, z, &zd))
			continue;
		int open = zd.state == SSD_ZNS_ZSIO || zd.state == SSD_ZNS_ZSEO ||
			   (r->zmax_active && zd.state == SSD_ZNS_ZSC);
		if (open && ssd_zbd_take_open(r->zbd, zj, z)) {
			in->zbd_eof = 1;
			run_job_fail(r, in, SSD_EINVAL, zj->msg);
			return 0;
		}
	}
	/* the job waits for what its start sent (verify's resets) */
	in->zbd_ready = zj->ready;
	return 0;
}

/* The pass ended early (nothing left to adjust the drawn I/O to, or the
 * region's last, short block): fio runs another pass (do_io) while
 * io_size or time_based asks for more, unless the one ending did
 * nothing; else the job's I/O ends.  The drawn I/O goes back to the
 * budget.  1 if a new pass began. */
static int pass_ends(struct inst *in, const struct ssd_io *drawn)
{
	const struct ssd_job *j = in->job;
	ssd_wl_moved(in->wl, drawn, &(struct ssd_io){.ddir = drawn->ddir}, 0);
	if (!in->zbd_pass || !(j->io_size_set || j->time_based)) {
		in->zbd_eof = 1;
		return 0;
	}
	in->zbd_pass = 0;
	ssd_wl_rewind(in->wl);
	return 1;
}

int run_zbd_next(struct run *r, struct inst *in, struct ssd_io *io,
		 int64_t t)
{
	if (in->zbd_ready > t)
		return -1; /* verify's resets at its start */
	for (;;) {
		if (in->zbd_eof || !ssd_wl_next(in->wl, io))
			return 0;
		/* the region's last, short block: fio's io_u_fits fails */
		if (io->len >= in->zj->min_bs[io->ddir])
			return 1;
		if (!pass_ends(in, io))
			return 0;
	}
}

int run_zbd_issue(struct run *r, struct inst *in, int64_t t)
{
	struct ssd_zbd_job *zj = in->zj;
	struct ssd_zbd *d = r->zbd;
	struct ssd_io drawn = in->zbd_has_held ? in->zbd_held : in->cur;
	struct ssd_io *io = &in->cur;
	in->zbd_has_held = 0;
	*io = drawn;
	int k = ssd_zbd_adjust(d, zj, io, t);
	if (k != SSD_ZBD_ACCEPT) {
		/* not issued after all: the stream's write count too */
		in->writes -= drawn.ddir == SSD_DDIR_WRITE;
		if (k == SSD_ZBD_EOF) {
			pass_ends(in, &drawn);
			return 0;
		}
		in->zbd_eof = 1;
		run_job_fail(r, in, zj->err, zj->msg);
		return 0;
	}
	if (zj->ready > t) {
		/* a reset or finish went to the drive: the write waits for
		 * it, and goes where the zones are then */
		in->zbd_held = drawn;
		in->zbd_has_held = 1;
		in->zbd_ready = zj->ready;
		return -1;
	}
	in->zbd_pass += io->len;
	/* a mixed job's read that became a write (zbd_adjust_ddir) */
	in->writes += (io->ddir == SSD_DDIR_WRITE) -
		      (drawn.ddir == SSD_DDIR_WRITE);
	uint64_t skip = 0;
	if (io->ddir == SSD_DDIR_WRITE) {
		ssd_zbd_issued(d, zj, io);
		/* fio's setup_zbd_zone_mode: a sequential write at a zone's
		 * capacity goes on at the zone's end */
		uint64_t end = io->offset + io->len;
		const struct ssd_zbd_zone *z = &d->z[ssd_zbd_zone_of(d, end)];
		if (!zj->random && end < (uint64_t)d->nzones * d->zone_size &&
		    z->cap < d->zone_size && end >= z->start + z->cap)
			skip = z->start + d->zone_size - end;
	}
	ssd_wl_moved(in->wl, &drawn, io, skip);
	if (io->ddir == SSD_DDIR_WRITE && in->vafter) {
		if (in->zlog_n == in->zlog_cap) {
			uint64_t n = in->zlog_cap ? 2 * in->zlog_cap : 1024;
			struct zbd_write *g = realloc(in->zlog,
						      (size_t)n * sizeof *g);
			if (!g) {
				in->zbd_eof = 1;
				run_job_fail(r, in, SSD_ENOMEM, "out of memory "
					     "for the writes to verify");
				return 0;
			}
			in->zlog = g;
			in->zlog_cap = n;
		}
		in->zlog[in->zlog_n++] = (struct zbd_write){io->offset, io->len};
	}
	return 1;
}

int64_t run_zbd_submit(struct run *r, struct inst *in, const struct cmd *cm,
		       int64_t t)
{
	struct ssd_io io = {.ddir = (int)cm->ddir, .offset = cm->offset,
			    .len = cm->len};
	if (cm->ddir == SSD_DDIR_TRIM) {
		int64_t c = ssd_zbd_trim(r->zbd, in->zj, &io, t);
		if (c >= 0)
			return c;
		run_job_fail(r, in, (int)c, in->zj->msg);
		return t; /* the job ends with fio's message */
	}
	return ssd_dev_submit(r->dev, (int)cm->ddir |
			      (int)in->ddir_flags[cm->ddir], cm->offset,
			      cm->len, t);
}
