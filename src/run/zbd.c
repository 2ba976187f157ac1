/*
 * zbd.c -- fio HEAD's zbd.c on the host side: the write targets, the
 * adjustment of each write, read and trim to the write pointers, resets
 * and finishes (zbd.h has the model; docs/fio-zoned.md §2 the source,
 * function by function: zbd_adjust_block, zbd_convert_to_write_zone,
 * zbd_write_zone_get/put, zbd_pick_write_zone, zbd_find_zone,
 * zbd_queue_io, zbd_end_zone_io, zbd_do_io_u_trim, zbd_file_reset).
 *
 * What fio does with threads and locks is here sequential: the runner
 * adjusts one I/O at a time, so fio's zone locks, its io_u_quiesce
 * before a reset (the runner makes the write wait for the reset instead)
 * and its second pass after waiting for writes in flight (which can only
 * release targets when a write completes; here the write pointer moves,
 * and a full zone leaves the list, when the write is issued) have
 * nothing left to do.
 */
#include "run/zbd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct ssd_zbd *ssd_zbd_create(uint64_t capacity, uint64_t zone_size,
			       uint64_t cap, uint32_t max_write,
			       const struct ssd_zbd_ops *ops)
{
	if (!zone_size || !capacity || max_write > SSD_ZBD_MAX_WRITE_ZONES)
		return NULL;
	struct ssd_zbd *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	uint64_t n = (capacity + zone_size - 1) / zone_size;
	d->z = n <= UINT32_MAX ? calloc((size_t)n, sizeof *d->z) : NULL;
	if (!d->z) {
		free(d);
		return NULL;
	}
	d->zone_size = zone_size;
	d->nzones = (uint32_t)n;
	d->max_write = max_write;
	d->ops = *ops;
	if (!cap || cap > zone_size)
		cap = zone_size;
	for (uint32_t i = 0; i < d->nzones; i++) {
		d->z[i].start = (uint64_t)i * zone_size;
		d->z[i].wp = d->z[i].start;
		d->z[i].cap = cap;
	}
	d->write_cnt = UINT32_MAX;
	return d;
}

void ssd_zbd_destroy(struct ssd_zbd *d)
{
	if (!d)
		return;
	free(d->z);
	free(d);
}

/* ---- zones ---- */

static inline uint64_t cap_end(const struct ssd_zbd_zone *z)
{
	return z->start + z->cap;
}

static inline uint64_t zone_room(const struct ssd_zbd_zone *z)
{
	return cap_end(z) - z->wp;
}

/* fio's zbd_zone_full: no room for a block (write_zone_remainder: no room
 * at all). */
static int zone_full(const struct ssd_zbd_job *j, const struct ssd_zbd_zone *z,
		     uint64_t min_bs)
{
	return j->wzr ? zone_room(z) == 0 : zone_room(z) < min_bs;
}

/* fio's accounting_vdb: the valid data is kept by the writing jobs with
 * a threshold, in the range it is kept for. */
static int in_vdb(const struct ssd_zbd *d, const struct ssd_zbd_job *j,
		  uint32_t zi)
{
	return d->vdb_on && j->zrt != 0 && j->writes && zi >= d->vlo &&
	       zi < d->vhi;
}

/* An error of the drive's side: the job ends with it. */
static int failed(struct ssd_zbd_job *j, int64_t rc, const char *what,
		  uint32_t zi)
{
	j->err = (int)rc;
	snprintf(j->msg, sizeof j->msg, "zone %u: %s failed: %s", zi, what,
		 ssd_strerror((int)rc));
	return SSD_ZBD_ERROR;
}

/* Send action on zone zi at t; the write waits for it. */
static int send(struct ssd_zbd *d, struct ssd_zbd_job *j, int action,
		uint32_t zi, int64_t t)
{
	int64_t c = d->ops.send(d->ops.ctx, action, zi, t);
	if (c < 0)
		return failed(j, c, action == SSD_ZBD_RESET ? "reset"
							    : "finish", zi);
	if (c > j->ready)
		j->ready = c;
	return 0;
}

/* fio's zbd_write_zone_put: zone zi leaves the target list. */
static void write_zone_put(struct ssd_zbd *d, struct ssd_zbd_job *j,
			   uint32_t zi)
{
	if (!d->z[zi].write)
		return;
	for (uint32_t i = 0; i < d->nwrite; i++)
		if (d->write_zones[i] == zi) {
			memmove(&d->write_zones[i], &d->write_zones[i + 1],
				(d->nwrite - i - 1) * sizeof *d->write_zones);
			break;
		}
	d->nwrite--;
	d->z[zi].write = 0;
	if (j->num_write)
		j->num_write--;
}

/* fio's __zbd_reset_zone: an empty zone is left alone (not counted);
 * the inline reset of a full zone keeps it in the list (keep = 1). */
static int reset_zone(struct ssd_zbd *d, struct ssd_zbd_job *j, uint32_t zi,
		      int keep, int64_t t)
{
	struct ssd_zbd_zone *z = &d->z[zi];
	if (!keep)
		write_zone_put(d, j, zi);
	if (z->wp == z->start)
		return 0;
	int rc = send(d, j, SSD_ZBD_RESET, zi, t);
	if (rc)
		return rc;
	if (in_vdb(d, j, zi))
		d->vdb -= z->wp - z->start;
	z->wp = z->start;
	j->resets++;
	return 0;
}

/* fio's zbd_finish_zone: the zone takes no more writes. */
static int finish_zone(struct ssd_zbd *d, struct ssd_zbd_job *j, uint32_t zi,
		       int64_t t)
{
	struct ssd_zbd_zone *z = &d->z[zi];
	write_zone_put(d, j, zi);
	int rc = send(d, j, SSD_ZBD_FINISH, zi, t);
	if (rc)
		return rc;
	if (in_vdb(d, j, zi))
		d->vdb += cap_end(z) - z->wp;
	z->wp = cap_end(z);
	return 0;
}

/* fio's zbd_write_zone_get: make zone zi a write target (1), or 0. */
static int write_zone_get(struct ssd_zbd *d, struct ssd_zbd_job *j,
			  uint32_t zi, uint64_t min_bs)
{
	struct ssd_zbd_zone *z = &d->z[zi];
	if (j->verify && (zone_full(j, z, min_bs) || !zone_room(z)))
		return 0; /* its data is still to be verified */
	if (!d->max_write)
		return 1;
	if (z->write)
		return zone_room(z) > 0;
	if (j->job_max && j->num_write >= j->job_max)
		return 0;
	if (d->nwrite >= d->max_write)
		return 0;
	d->write_zones[d->nwrite++] = zi;
	j->num_write++;
	z->write = 1;
	return 1;
}

/* fio's pick_random_zone_idx: the drawn offset scaled into the list. */
static uint32_t pick_idx(const struct ssd_zbd *d, const struct ssd_zbd_job *j,
			 uint64_t off)
{
	uint64_t span = j->hi - j->lo;
	uint64_t rel = off > j->lo ? off - j->lo : 0;
	if (!d->nwrite)
		return 0;
	return (uint32_t)((unsigned __int128)rel * d->nwrite / span);
}

/* fio's zbd_pick_write_zone: from pick_idx on, cyclically, the first
 * target inside the job's region; 0 if none. */
static int pick_write_zone(const struct ssd_zbd *d,
			   const struct ssd_zbd_job *j, uint64_t off,
			   uint32_t *out)
{
	uint32_t n = d->nwrite;
	if (!n)
		return 0;
	uint32_t first = pick_idx(d, j, off) % n;
	for (uint32_t k = 0; k < n; k++) {
		uint32_t zi = d->write_zones[(first + k) % n];
		if (zi >= j->min_zone && zi < j->max_zone) {
			*out = zi;
			return 1;
		}
	}
	return 0;
}

/* fio's zbd_convert_to_write_zone: the zone the write goes to, from the
 * zone zb of its drawn offset off; *zo, or 0 with nothing (eof), or
 * SSD_ZBD_ERROR as -1. */
static int convert_to_write_zone(struct ssd_zbd *d, struct ssd_zbd_job *j,
				 uint64_t off, uint32_t zb, uint32_t orig,
				 int64_t t, uint32_t *zo)
{
	const uint64_t min_bs = j->min_bs[SSD_DDIR_WRITE];
	/* 1. a zone that cannot take another whole block is finished */
	if (!j->wzr && zone_room(&d->z[zb]) > 0 &&
	    zone_room(&d->z[zb]) < min_bs) {
		if (finish_zone(d, j, zb, t))
			return -1;
		if (zb == j->max_zone - 1 && !j->random)
			return 0;
		zb = zb + 1 < j->max_zone ? zb + 1 : j->min_zone;
	}
	/* 2. the zone of the drawn offset */
	if (write_zone_get(d, j, zb, min_bs)) {
		*zo = zb;
		return 1;
	}
	/* 3. else from a write target */
	uint32_t zi;
	if (d->max_write || j->job_max)
		zi = d->nwrite ? d->write_zones[pick_idx(d, j, off) % d->nwrite]
			       : j->min_zone;
	else
		zi = ssd_zbd_zone_of(d, off);
	if (zi < j->min_zone)
		zi = j->min_zone;
	else if (zi >= j->max_zone)
		zi = j->max_zone - 1;
	for (;;) {
		if (!d->max_write && !j->job_max)
			break;
		if (!d->nwrite)
			goto choose_other;
		uint32_t nz;
		if (!pick_write_zone(d, j, off, &nz))
			return 0;
		if (nz == zi)
			break;
		zi = nz;
	}
	/* examine */
	if (j->wzr ? zone_room(&d->z[zi]) > 0 : zone_room(&d->z[zi]) >= min_bs) {
		*zo = zi;
		return 1;
	}
choose_other:
	/* HEAD: a random write first tries its own zone again */
	if (j->random && write_zone_get(d, j, orig, min_bs)) {
		*zo = orig;
		return 1;
	}
	/* forward from zi, wrapping in the region */
	uint32_t nzr = j->max_zone - j->min_zone;
	uint32_t z = zi;
	for (uint32_t i = 0; i < nzr; i++) {
		z = z + 1 < j->max_zone ? z + 1 : j->min_zone;
		if (d->z[z].write)
			continue;
		if (write_zone_get(d, j, z, min_bs)) {
			*zo = z;
			return 1;
		}
	}
	/* any write target with room */
	for (uint32_t i = 0; i < d->nwrite; i++) {
		uint32_t w = d->write_zones[i];
		if (w < j->min_zone || w >= j->max_zone)
			continue;
		uint64_t rem = zone_room(&d->z[w]);
		if ((j->wzr && rem > 0) || (!j->wzr && rem >= min_bs)) {
			if (write_zone_get(d, j, w, min_bs)) {
				*zo = w;
				return 1;
			}
		}
	}
	/* every target nearly full: finish one, the write then resets it */
	if (j->random && !j->verify && !j->wzr &&
	    pick_write_zone(d, j, off, &z)) {
		struct ssd_zbd_zone *pz = &d->z[z];
		int rc = send(d, j, SSD_ZBD_FINISH, z, t);
		if (rc)
			return -1;
		if (in_vdb(d, j, z))
			d->vdb += cap_end(pz) - pz->wp;
		pz->wp = cap_end(pz);
		*zo = z;
		return 1;
	}
	return 0;
}

/* fio's zbd_dec_and_reset_write_cnt. */
static int write_cnt_due(struct ssd_zbd *d, const struct ssd_zbd_job *j)
{
	if (d->write_cnt)
		d->write_cnt--;
	if (d->write_cnt)
		return 0;
	double v = 1.0 / j->zrf;
	d->write_cnt = v < (double)UINT32_MAX ? (uint64_t)v : UINT32_MAX;
	return 1;
}

static int adjust_write(struct ssd_zbd *d, struct ssd_zbd_job *j,
			struct ssd_io *io, int64_t t)
{
	const uint64_t min_bs = j->min_bs[SSD_DDIR_WRITE];
	uint32_t orig = ssd_zbd_zone_of(d, io->offset), zb = orig;
	if (io->len > d->zone_size) {
		j->err = SSD_EINVAL;
		snprintf(j->msg, sizeof j->msg, "I/O buflen exceeds zone size");
		return SSD_ZBD_ERROR;
	}
	for (;;) {
		int k = convert_to_write_zone(d, j, io->offset, zb, orig, t, &zb);
		if (k < 0)
			return SSD_ZBD_ERROR;
		if (!k)
			return SSD_ZBD_EOF;
		uint64_t rem = zone_room(&d->z[zb]);
		if (j->wzr || !rem || rem >= min_bs)
			break;
	}
	struct ssd_zbd_zone *z = &d->z[zb];
	int reset = 0;
	if (j->zrf != 0 && !j->verify &&
	    (double)d->vdb >= (double)(j->hi - j->lo) * j->zrt &&
	    write_cnt_due(d, j))
		reset = 1;
	if (reset || zone_full(j, z, min_bs)) {
		if (reset_zone(d, j, zb, 1, t))
			return SSD_ZBD_ERROR;
		if (z->cap < min_bs) {
			j->err = SSD_EINVAL;
			snprintf(j->msg, sizeof j->msg, "zone capacity %llu "
				 "smaller than minimum block size %llu",
				 (unsigned long long)z->cap,
				 (unsigned long long)min_bs);
			return SSD_ZBD_ERROR;
		}
	}
	io->offset = z->wp;
	uint64_t len = io->len, room = zone_room(z);
	uint64_t nl = len < room ? len : room;
	if (!(j->wzr && nl <= min_bs))
		nl = nl / min_bs * min_bs;
	if (nl == len || j->wzr || nl >= min_bs) {
		io->len = (uint32_t)nl;
		return SSD_ZBD_ACCEPT;
	}
	j->err = SSD_EIO;
	snprintf(j->msg, sizeof j->msg, "zone remainder %lld smaller than min "
		 "block size %llu", (long long)nl, (unsigned long long)min_bs);
	return SSD_ZBD_ERROR;
}

/* fio's zbd_find_zone: from zone zb, the next zone (sequential) or the
 * nearest one, alternately forward and back (random), holding at least
 * min_bytes; 0 if none. */
static int find_zone(const struct ssd_zbd *d, const struct ssd_zbd_job *j,
		     uint64_t min_bytes, uint32_t zb, uint32_t *out)
{
	int64_t z1 = (int64_t)zb + 1, z2 = (int64_t)zb - 1;
	const int64_t zl = j->max_zone, zf = j->min_zone;
	for (; z1 < zl || z2 >= zf; z1++, z2--) {
		if (z1 < zl) {
			const struct ssd_zbd_zone *z = &d->z[z1];
			if (z->start + min_bytes <= z->wp) {
				*out = (uint32_t)z1;
				return 1;
			}
		} else if (!j->random) {
			break;
		}
		if (j->random && z2 >= zf) {
			const struct ssd_zbd_zone *z = &d->z[z2];
			if (z->start + min_bytes <= z->wp) {
				*out = (uint32_t)z2;
				return 1;
			}
		}
	}
	return 0;
}

static int adjust_read(struct ssd_zbd *d, struct ssd_zbd_job *j,
		       struct ssd_io *io)
{
	const uint64_t min_bs = j->min_bs[SSD_DDIR_READ];
	uint32_t orig = ssd_zbd_zone_of(d, io->offset), zb = orig;
	if (zb < j->min_zone || zb >= j->max_zone)
		return SSD_ZBD_ACCEPT; /* the unaligned head of a read job */
	uint64_t range = d->z[zb].wp - d->z[zb].start;
	if (range < min_bs ||
	    (!j->random && io->offset + min_bs > d->z[zb].wp)) {
		if (!find_zone(d, j, min_bs, zb, &zb))
			return SSD_ZBD_EOF;
		range = d->z[zb].wp - d->z[zb].start;
		if (!j->random)
			io->offset = d->z[zb].start;
	}
	const struct ssd_zbd_zone *z = &d->z[zb];
	if (range <= io->len)
		io->offset = z->start;
	else if (j->random)
		io->offset = z->start + ((io->offset - d->z[orig].start) %
					 (range - io->len)) / min_bs * min_bs;
	uint64_t nl = z->wp - io->offset;
	if (nl > io->len)
		nl = io->len;
	nl = nl / min_bs * min_bs;
	if (nl < io->len)
		io->len = (uint32_t)nl;
	return SSD_ZBD_ACCEPT;
}

int ssd_zbd_adjust(struct ssd_zbd *d, struct ssd_zbd_job *j,
		   struct ssd_io *io, int64_t t)
{
	j->ready = t;
	/* fio's zbd_adjust_ddir: nothing written yet, so a mixed job's
	 * first reads would find nothing; they are writes */
	if (io->ddir == SSD_DDIR_READ && j->mixed && !j->rbwp && !j->wrote) {
		io->ddir = SSD_DDIR_WRITE;
		if (io->len < j->min_bs[SSD_DDIR_WRITE])
			io->len = j->min_bs[SSD_DDIR_WRITE];
	}
	switch (io->ddir) {
	case SSD_DDIR_WRITE:
		return adjust_write(d, j, io, t);
	case SSD_DDIR_READ:
		return j->rbwp ? SSD_ZBD_ACCEPT : adjust_read(d, j, io);
	case SSD_DDIR_TRIM: {
		uint32_t zb = ssd_zbd_zone_of(d, io->offset);
		if (!j->random || d->z[zb].wp > d->z[zb].start)
			return SSD_ZBD_ACCEPT;
		if (!find_zone(d, j, 1, zb, &zb))
			return SSD_ZBD_EOF;
		io->offset = d->z[zb].start;
		return SSD_ZBD_ACCEPT;
	}
	}
	return SSD_ZBD_ACCEPT;
}

void ssd_zbd_issued(struct ssd_zbd *d, struct ssd_zbd_job *j,
		    const struct ssd_io *io)
{
	uint32_t zi = ssd_zbd_zone_of(d, io->offset);
	struct ssd_zbd_zone *z = &d->z[zi];
	uint64_t end = io->offset + io->len;
	if (end > cap_end(z))
		end = cap_end(z);
	j->wrote = 1;
	if (end > z->wp) {
		if (in_vdb(d, j, zi))
			d->vdb += end - z->wp;
		z->wp = end;
	}
	/* fio's zbd_end_zone_io: a full zone is no longer a target */
	if (io->offset + io->len >= cap_end(z))
		write_zone_put(d, j, zi);
}

int64_t ssd_zbd_trim(struct ssd_zbd *d, struct ssd_zbd_job *j,
		     const struct ssd_io *io, int64_t t)
{
	uint32_t zi = ssd_zbd_zone_of(d, io->offset);
	j->ready = t;
	if (io->offset != d->z[zi].start) {
		j->err = SSD_EINVAL;
		snprintf(j->msg, sizeof j->msg, "Trim offset not at zone start "
			 "(%lld)", (long long)io->offset);
		return SSD_EINVAL;
	}
	if (reset_zone(d, j, zi, 0, t))
		return j->err;
	return j->ready;
}

int ssd_zbd_job_start(struct ssd_zbd *d, struct ssd_zbd_job *j,
		      const struct ssd_job *job, uint64_t lo, uint64_t size,
		      int64_t t)
{
	memset(j, 0, sizeof *j);
	j->lo = lo;
	j->hi = lo + size;
	j->min_zone = ssd_zbd_zone_of(d, lo);
	j->max_zone = (uint32_t)((j->hi + d->zone_size - 1) / d->zone_size);
	if (j->max_zone > d->nzones)
		j->max_zone = d->nzones;
	for (int k = 0; k < SSD_DDIR_N; k++)
		j->min_bs[k] = job->min_bs[k] ? job->min_bs[k] : job->bs[k];
	j->random = ssd_rw_is_random(job->rw);
	j->mixed = job->rw == SSD_RW_READWRITE || job->rw == SSD_RW_RANDRW;
	j->writes = (ssd_rw_ddirs(job->rw) >> SSD_DDIR_WRITE) & 1;
	j->verify = job->verify != SSD_VERIFY_NONE;
	j->wzr = job->write_zone_remainder;
	j->rbwp = job->read_beyond_wp;
	j->job_max = job->job_max_open_zones;
	j->zrt = job->zone_reset_threshold;
	j->zrf = job->zone_reset_frequency;
	j->ready = t;
	if (j->mixed && job->rwmixread >= 100)
		j->mixed = 0; /* rwmixwrite=0: no write to turn a read into */
	/* fio's zbd_file_reset */
	if (j->writes && j->verify)
		for (uint32_t zi = j->min_zone; zi < j->max_zone; zi++)
			if (reset_zone(d, j, zi, 0, t))
				return j->err;
	if (j->writes && j->zrt != 0 && !d->vdb_on) {
		d->vdb_on = 1;
		d->vlo = j->min_zone;
		d->vhi = j->max_zone;
		d->vdb = 0;
		for (uint32_t zi = d->vlo; zi < d->vhi; zi++)
			d->vdb += d->z[zi].wp - d->z[zi].start;
	}
	if (j->writes) {
		double v = j->zrf ? 1.0 / j->zrf : (double)UINT32_MAX;
		d->write_cnt = v < (double)UINT32_MAX ? (uint64_t)v : UINT32_MAX;
	}
	return 0;
}

int ssd_zbd_take_open(struct ssd_zbd *d, struct ssd_zbd_job *j,
		      uint32_t zone)
{
	if (!d->max_write || d->z[zone].write)
		return 0;
	if (d->nwrite >= d->max_write) {
		j->err = SSD_EINVAL;
		snprintf(j->msg, sizeof j->msg, "Number of open zones exceeds "
			 "max_open_zones limit");
		return SSD_ZBD_ERROR;
	}
	d->write_zones[d->nwrite++] = zone;
	d->z[zone].write = 1;
	return 0;
}
