/*
 * snapshot.c -- a drive saved to a file and built again from it (see
 * snapshot.h): the configuration's text, the device's own state (host
 * link, write buffer, read-ahead, TRIM clock, the host's verification
 * record; a zoned drive's zones and random write areas; an FDP drive's
 * placement) and the FTL's (ftl/ftl_snap.c), in the container of
 * base/snapfile.h.
 *
 * Loading builds a fresh drive from the configuration in the file --
 * every array allocated at its size, every derived value derived -- and
 * then reads the saved state over it, section by section, each of the
 * exact length this drive's array has.  The checksums say the file is
 * the one written; every block and slot number in it that a command
 * could follow is checked to lie inside the drive (O(logical pages +
 * blocks)), so that no file makes the simulator read outside its
 * arrays.  The full invariant checker (ssd_ftl_check, five times the
 * load's time on a 256 GiB drive) is the caller's choice: `ssdlab run
 * --check` runs it on the loaded drive before the first command.
 */
#include "machine/snapshot.h"
#include "base/snapfile.h"
#include "machine/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T SSD_SNAP_TAG

/* The device's scalars that change as the drive lives. */
struct snap_dev {
	int64_t link_busy, busy_until, now, wb_last, ctl_busy, trim_clock;
	int64_t pc_busy, rd_ready;
	uint64_t host_ios;
	uint32_t wb_head, wb_held, wb_hashed;
	uint32_t ra_lo, ra_hi, seq_next, pc_lpn, rd_lpn;
	uint32_t has_vrec, pad;
};

const char *ssd_snapshot_refusal(const struct ssd_config *c, char *buf,
				 size_t n)
{
	const char *what = NULL;
	if (c->type != SSD_TYPE_SSD)
		what = "a hard disk (type = hdd)";
	else if (c->page_cache)
		what = "the page cache (page_cache)";
	else if (c->mft)
		what = "MFT (mft)";
	else if (c->raid != SSD_RAID_NONE)
		what = "RAID 0 (raid)";
	if (!what)
		return NULL;
	snprintf(buf, n, "snapshots hold a bare SSD for now; this drive has "
		 "%s", what);
	return buf;
}

/* A zoned drive's zones and random write areas, an FDP drive's current
 * placement and the handles of its write buffer's entries: sections of
 * their own, after the FTL's, only in files of such drives. */
static void drive_extra_save(const struct ssd_drive *x, struct ssd_snapw *w)
{
	if (x->zns) {
		ssd_zns_snap_save(x->zns, w);
		uint64_t s[2] = {x->append_lba, x->zfree_n};
		ssd_snapw_array(w, T('Z','D','E','V'), s, sizeof s);
		if (x->nzrwa) {
			uint32_t nz = ssd_zns_params(x->zns)->nzones;
			ssd_snapw_array(w, T('Z','S','L','T'), x->zslot,
					nz * sizeof *x->zslot);
			ssd_snapw_array(w, T('Z','B','U','F'), x->zbuf,
					(size_t)x->nzrwa * x->zrwa_win);
			ssd_snapw_array(w, T('Z','F','R','E'), x->zfree,
					x->nzrwa * sizeof *x->zfree);
			ssd_snapw_array(w, T('Z','O','W','N'), x->zowner,
					x->nzrwa * sizeof *x->zowner);
		}
	}
	if (x->cfg.fdp) {
		ssd_snapw_array(w, T('F','D','E','V'), &x->pid_cur, sizeof x->pid_cur);
		if (x->wb_pid)
			ssd_snapw_array(w, T('F','W','B','P'), x->wb_pid,
					x->wb_n * sizeof *x->wb_pid);
	}
}

static int drive_extra_load(struct ssd_drive *x, struct ssd_snapr *r)
{
	int rc;
	if (x->zns) {
		if ((rc = ssd_zns_snap_load(x->zns, r)))
			return rc;
		uint64_t s[2];
		if ((rc = ssd_snapr_array(r, T('Z','D','E','V'), s, sizeof s)))
			return rc;
		if (s[1] > x->nzrwa) {
			ssd_snapr_fail(r, "%llu random write areas free of %u",
				       (unsigned long long)s[1], x->nzrwa);
			return SSD_EPARSE;
		}
		x->append_lba = s[0];
		x->zfree_n = (uint32_t)s[1];
		if (x->nzrwa) {
			uint32_t nz = ssd_zns_params(x->zns)->nzones;
			if ((rc = ssd_snapr_array(r, T('Z','S','L','T'), x->zslot,
						  nz * sizeof *x->zslot)) ||
			    (rc = ssd_snapr_array(r, T('Z','B','U','F'), x->zbuf,
						  (size_t)x->nzrwa * x->zrwa_win)) ||
			    (rc = ssd_snapr_array(r, T('Z','F','R','E'), x->zfree,
						  x->nzrwa * sizeof *x->zfree)) ||
			    (rc = ssd_snapr_array(r, T('Z','O','W','N'), x->zowner,
						  x->nzrwa * sizeof *x->zowner)))
				return rc;
			/* each area's buffer held by its zone, or free */
			for (uint32_t z = 0; z < nz; z++)
				if (x->zslot[z] != UINT32_MAX &&
				    (x->zslot[z] >= x->nzrwa ||
				     x->zowner[x->zslot[z]] != z)) {
					ssd_snapr_fail(r, "zone %u's random write "
						       "area is out of range", z);
					return SSD_EPARSE;
				}
			for (uint32_t i = 0; i < x->nzrwa; i++)
				if ((i < x->zfree_n && x->zfree[i] >= x->nzrwa) ||
				    (x->zowner[i] >= nz && x->zowner[i] != UINT32_MAX)) {
					ssd_snapr_fail(r, "random write area %u is "
						       "out of range", i);
					return SSD_EPARSE;
				}
		}
	}
	char why[200];
	if (x->zns && ssd_drive_zones_check(x, why, sizeof why)) {
		ssd_snapr_fail(r, "%s", why);
		return SSD_EPARSE;
	}
	if (x->cfg.fdp) {
		if ((rc = ssd_snapr_array(r, T('F','D','E','V'), &x->pid_cur,
					  sizeof x->pid_cur)))
			return rc;
		/* the latest command's identifier (+ 1; 0: none), one the
		 * drive has; a buffered page's stream, one of its streams
		 * (groups x handles, and on several groups the stream of
		 * no identifier) */
		if (x->pid_cur > 0x10000 ||
		    (x->pid_cur && ssd_ftl_fdp_stream(x->ftl, x->pid_cur - 1) < 0)) {
			ssd_snapr_fail(r, "fdp: placement identifier %u is not "
				       "one of the drive's", x->pid_cur - 1);
			return SSD_EPARSE;
		}
		if (x->wb_pid &&
		    (rc = ssd_snapr_array(r, T('F','W','B','P'), x->wb_pid,
					  x->wb_n * sizeof *x->wb_pid)))
			return rc;
		uint32_t ng = ssd_ftl_fdp_groups(x->ftl);
		uint32_t ns = ng * ssd_ftl_handles(x->ftl) + (ng > 1);
		for (uint32_t i = 0; x->wb_pid && i < x->wb_n; i++)
			if (x->wb_pid[i] >= ns) {
				ssd_snapr_fail(r, "fdp: write buffer entry %u has "
					       "stream %u of %u", i, x->wb_pid[i],
					       ns);
				return SSD_EPARSE;
			}
	}
	return 0;
}

int ssd_snapshot_save(const struct ssd_dev *d, const char *path, char *err,
		      size_t errlen)
{
	char buf[256];
	const char *why = ssd_snapshot_refusal(&d->cfg, buf, sizeof buf);
	if (!why && d->ssd->ptrack)
		why = "power-loss tracking is on (its lists of programs, "
		      "erases and TRIMs are not saved)";
	if (!why && d->queues)
		why = "a run is going on";
	if (!why && d->ssd->err) {
		snprintf(buf, sizeof buf, "its background work failed: %s",
			 ssd_dev_error(d)[0] ? ssd_dev_error(d)
					     : ssd_strerror(d->ssd->err));
		why = buf;
	}
	if (!why)
		why = ssd_ftl_snap_refusal(d->ftl, buf, sizeof buf);
	if (why) {
		ssd_seterr(err, errlen, "cannot save a snapshot to '%s': %s",
			   path, why);
		return SSD_EUNSUP;
	}
	char *text = ssd_config_text(&d->cfg);
	if (!text) {
		ssd_seterr(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	struct ssd_snapw *w;
	int rc = ssd_snapw_open(path, text, &w, err, errlen);
	free(text);
	if (rc)
		return rc;
	const struct ssd_drive *x = d->ssd;
	struct snap_dev s;
	memset(&s, 0, sizeof s);
	s.link_busy = x->link_busy;
	s.busy_until = x->clk.busy_until;
	s.now = x->clk.now;
	s.wb_last = x->wb_last;
	s.ctl_busy = x->ctl_busy;
	s.trim_clock = x->trim_clock;
	s.pc_busy = x->pc_busy;
	s.rd_ready = x->rd_ready;
	s.host_ios = x->clk.host_ios;
	s.wb_head = x->wb_head;
	s.wb_held = x->wb_held;
	s.wb_hashed = x->wb_hashed;
	s.ra_lo = x->ra_lo;
	s.ra_hi = x->ra_hi;
	s.seq_next = x->seq_next;
	s.pc_lpn = x->pc_lpn;
	s.rd_lpn = x->rd_lpn;
	s.has_vrec = d->vrec != NULL;
	ssd_snapw_array(w, T('D','E','V','S'), &s, sizeof s);
	if (x->wb_n) {
		ssd_snapw_array(w, T('W','B','F','R'), x->wb, x->wb_n * sizeof *x->wb);
		ssd_snapw_array(w, T('W','B','L','P'), x->wb_lpn,
				x->wb_n * sizeof *x->wb_lpn);
		ssd_snapw_array(w, T('W','B','M','K'), x->wb_mask, x->wb_n);
		ssd_snapw_array(w, T('W','B','I','N'), x->wb_in,
				x->wb_n * sizeof *x->wb_in);
		ssd_snapw_array(w, T('W','B','H','S'), x->wb_hash,
				((size_t)x->wb_hmask + 1) * sizeof *x->wb_hash);
	}
	if (x->ra_n)
		ssd_snapw_array(w, T('R','A','H','D'), x->ra_ready,
				x->ra_n * sizeof *x->ra_ready);
	if (d->vrec)
		ssd_snapw_array(w, T('V','R','E','C'), d->vrec,
				((size_t)ssd_ftl_pages(d->ftl) + 1) * sizeof *d->vrec);
	ssd_ftl_snap_save(d->ftl, w);
	drive_extra_save(x, w);
	return ssd_snapw_commit(w, err, errlen);
}

/* The drive of a snapshot's text, finished. */
static int text_drive(const char *path, const char *text, struct ssd_config *c,
		      char *err, size_t errlen)
{
	char why[384];
	ssd_config_defaults(c);
	int rc = ssd_config_load_text(c, text, path, why, sizeof why);
	if (!rc)
		rc = ssd_config_finish(c, why, sizeof why);
	if (rc) {
		ssd_seterr(err, errlen, "snapshot '%s': its drive does not load: "
			   "%s", path, why);
		return SSD_EPARSE;
	}
	return 0;
}

int ssd_snapshot_drive(const char *path, struct ssd_config *c, char *err,
		       size_t errlen)
{
	struct ssd_snapr *r;
	int rc = ssd_snapr_open(path, &r, err, errlen);
	if (rc)
		return rc;
	rc = text_drive(path, ssd_snapr_config(r), c, err, errlen);
	ssd_snapr_close(r);
	return rc;
}

/* The device's sections into d, built for the file's drive. */
static int dev_load(struct ssd_dev *d, struct ssd_snapr *r)
{
	struct ssd_drive *x = d->ssd;
	struct snap_dev s;
	int rc = ssd_snapr_array(r, T('D','E','V','S'), &s, sizeof s);
	if (rc)
		return rc;
	uint32_t nlp = ssd_ftl_pages(d->ftl);
	if ((x->wb_n && (s.wb_head >= x->wb_n || s.wb_held > x->wb_n ||
			 s.wb_hashed > x->wb_n)) ||
	    (!x->wb_n && (s.wb_head || s.wb_held || s.wb_hashed)) ||
	    s.ra_lo > s.ra_hi || s.ra_hi > nlp ||
	    (s.seq_next > nlp && s.seq_next != UINT32_MAX)) {
		ssd_snapr_fail(r, "the write buffer's or read-ahead's state is "
			       "out of range");
		return SSD_EPARSE;
	}
	x->link_busy = s.link_busy;
	x->clk.busy_until = s.busy_until;
	x->clk.now = s.now;
	x->wb_last = s.wb_last;
	x->ctl_busy = s.ctl_busy;
	x->trim_clock = s.trim_clock;
	x->pc_busy = s.pc_busy;
	x->rd_ready = s.rd_ready;
	x->clk.host_ios = s.host_ios;
	x->wb_head = s.wb_head;
	x->wb_held = s.wb_held;
	x->wb_hashed = s.wb_hashed;
	x->ra_lo = s.ra_lo;
	x->ra_hi = s.ra_hi;
	x->seq_next = s.seq_next;
	x->pc_lpn = s.pc_lpn;
	x->rd_lpn = s.rd_lpn;
	if (x->wb_n &&
	    ((rc = ssd_snapr_array(r, T('W','B','F','R'), x->wb,
				   x->wb_n * sizeof *x->wb)) ||
	     (rc = ssd_snapr_array(r, T('W','B','L','P'), x->wb_lpn,
				   x->wb_n * sizeof *x->wb_lpn)) ||
	     (rc = ssd_snapr_array(r, T('W','B','M','K'), x->wb_mask, x->wb_n)) ||
	     (rc = ssd_snapr_array(r, T('W','B','I','N'), x->wb_in,
				   x->wb_n * sizeof *x->wb_in)) ||
	     (rc = ssd_snapr_array(r, T('W','B','H','S'), x->wb_hash,
				   ((size_t)x->wb_hmask + 1) * sizeof *x->wb_hash))))
		return rc;
	for (uint32_t i = 0; i < x->wb_n; i++)
		if ((x->wb_lpn[i] >= nlp && x->wb_lpn[i] != SSD_UNMAPPED) ||
		    x->wb_hash[i] > x->wb_n) {
			ssd_snapr_fail(r, "write buffer entry %u is out of "
				       "range", i);
			return SSD_EPARSE;
		}
	for (uint32_t i = x->wb_n; i <= x->wb_hmask && x->wb_n; i++)
		if (x->wb_hash[i] > x->wb_n) {
			ssd_snapr_fail(r, "the write buffer's index is out of "
				       "range");
			return SSD_EPARSE;
		}
	if (x->ra_n && (rc = ssd_snapr_array(r, T('R','A','H','D'), x->ra_ready,
					     x->ra_n * sizeof *x->ra_ready)))
		return rc;
	if (s.has_vrec) {
		d->vrec = calloc((size_t)nlp + 1, sizeof *d->vrec);
		if (!d->vrec)
			return SSD_ENOMEM;
		if ((rc = ssd_snapr_array(r, T('V','R','E','C'), d->vrec,
					  ((size_t)nlp + 1) * sizeof *d->vrec)))
			return rc;
	}
	if ((rc = ssd_ftl_snap_load(d->ftl, r)) ||
	    (rc = drive_extra_load(x, r)))
		return rc;
	if (!!d->vrec != ssd_ftl_snap_has_vgen(d->ftl)) {
		ssd_snapr_fail(r, "the host's verification record and the "
			       "drive's tags come apart");
		return SSD_EPARSE;
	}
	if (d->vrec)
		ssd_ftl_snap_verify_src(d->ftl, d->vrec);
	return 0;
}

/* The drive of the open snapshot r into *c, and the one the caller
 * wants (NULL: the file's, which must read back the same) compared with
 * it.  0, or SSD_EPARSE / SSD_ENOMEM with the message. */
static int header_drive(struct ssd_snapr *r, const char *path,
			const struct ssd_config *want, struct ssd_config *c,
			char *err, size_t errlen)
{
	const char *text = ssd_snapr_config(r);
	int rc = text_drive(path, text, c, err, errlen);
	if (rc)
		return rc;
	char *mine = ssd_config_text(want ? want : c);
	if (!mine) {
		ssd_seterr(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	char key[64], va[256], vb[256];
	if (ssd_config_text_diff(text, mine, key, sizeof key, va, vb,
				 sizeof va)) {
		if (want)
			ssd_seterr(err, errlen, "snapshot '%s' holds another "
				   "drive: %s is %s in it, %s here", path, key,
				   va, vb);
		else
			ssd_seterr(err, errlen, "snapshot '%s': its drive does "
				   "not read back the same (%s = %s, read as "
				   "%s)", path, key, va, vb);
		rc = SSD_EPARSE;
	}
	free(mine);
	return rc;
}

int ssd_snapshot_check(const char *path, const struct ssd_config *want,
		       char *err, size_t errlen)
{
	struct ssd_snapr *r;
	int rc = ssd_snapr_open(path, &r, err, errlen);
	if (rc)
		return rc;
	struct ssd_config c;
	rc = header_drive(r, path, want, &c, err, errlen);
	ssd_snapr_close(r);
	return rc;
}

int ssd_snapshot_load(const char *path, const struct ssd_config *want,
		      struct ssd_dev **out, char *err, size_t errlen)
{
	*out = NULL;
	struct ssd_snapr *r;
	int rc = ssd_snapr_open(path, &r, err, errlen);
	if (rc)
		return rc;
	struct ssd_config c;
	struct ssd_dev *d = NULL;
	if ((rc = header_drive(r, path, want, &c, err, errlen)))
		goto out;
	if ((rc = ssd_dev_create(&c, 0, &d))) {
		ssd_seterr(err, errlen, "snapshot '%s': cannot build its drive: "
			   "%s", path, ssd_strerror(rc));
		goto out;
	}
	rc = dev_load(d, r);
	if (rc == SSD_ENOMEM) {
		ssd_seterr(err, errlen, "out of memory");
		goto out;
	}
	int erc = ssd_snapr_end(r, err, errlen);
	if (erc) {
		rc = erc;
		goto out;
	}
	*out = d;
	d = NULL;
out:
	ssd_dev_destroy(d);
	ssd_snapr_close(r);
	return rc;
}
