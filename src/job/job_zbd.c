/*
 * job_zbd.c -- a zonemode=zbd job as a whole: fio's checks of the zoned
 * options, with fio's words, and its region aligned to whole zones
 * (docs/fio-zoned.md §1.1).
 *
 * fio makes these checks in three places: when it parses the options
 * (init.c:fixup_options), when it sets up the file (zbd.c:
 * zbd_create_zone_info, zbd_setup_files, zbd_verify_sizes, zbd_verify_bs)
 * and, for the drive's own limits, when it reads the device.  ssdlab
 * knows the drive before it reads the job file (struct ssd_job_zoned:
 * a zoned drive's zones, or none), so every one of them is made here,
 * when the job's section ends, and each names the file, the line and
 * the option: "FILE:LINE: option 'KEY': fio's message (accepted: ...)".
 *
 * The drive's zones are shared by every zbd job of the file, as fio's
 * zone information is shared by every job on one device: the first zbd
 * job sets the zone size (emulated zones: its zonesize) and the number
 * of write target zones (max_open_zones, or the drive's limit); a later
 * job must agree, as in fio.
 */
#include "job/job_int.h"

#include <stdio.h>
#include <string.h>

#define JOB_ZBD_MAX_ZONES (1u << 24) /* zones of one drive (512 MiB of
                                        the host's zone table) */

/* What the job names its target in fio's messages: its filename, or, as
 * fio does without one, the job's name. */
static const char *target(const struct jstate *js)
{
	return js->filename[0] ? js->filename : js->j.name;
}

/* The value option `key` was written with in the job (or [global]), or
 * NULL. */
static const char *raw_value(const struct ssd_job *j, const char *key)
{
	const char *k, *v, *found = NULL;
	for (int g = 1; g >= 0; g--) {
		uint32_t pos = 0;
		while (ssd_job_raw_next(j, g, &pos, &k, &v))
			if (!strcmp(k, key))
				found = v;
	}
	return found;
}

static int zbd_err(struct parser *p, struct jstate *js, const char *key,
		   int code, const char *accepted, const char *msg)
{
	return perr(p, job_opt_line(js, key), code,
		    "option '%s': %s (accepted: %s)", key, msg, accepted);
}

/* The job's zone size: its zonesize, else the zoned drive's. */
static uint64_t zone_size_of(const struct parser *p, const struct ssd_job *j)
{
	if (j->zonesize)
		return j->zonesize;
	return p->zdev.zoned ? p->zdev.zone_size : 0;
}

int job_zbd_zones(struct parser *p, struct jstate *js)
{
	struct region_val *rv[] = {&js->rv[RV_SIZE], &js->rv[RV_IO_SIZE],
				   &js->rv[RV_OFFSET], &js->incr, &js->zskip};
	static const char *const names[] = {"size", "io_size", "offset",
					    "offset_increment", "zoneskip"};
	uint64_t zs = zone_size_of(p, &js->j);
	for (int i = 0; i < 5; i++) {
		if (!rv[i]->is_zones)
			continue;
		if (!zs) {
			char msg[256];
			snprintf(msg, sizeof msg, "%llu zones of job '%s', "
				 "which has no zone size",
				 (unsigned long long)rv[i]->zones, js->j.name);
			return zbd_err(p, js, names[i], SSD_EINVAL,
				       "Nz with zonesize, or on a zoned drive",
				       msg);
		}
		if (rv[i]->zones > (1ULL << 62) / zs) {
			char msg[128];
			snprintf(msg, sizeof msg, "%llu zones are too large",
				 (unsigned long long)rv[i]->zones);
			return zbd_err(p, js, names[i], SSD_ERANGE,
				       "fewer zones", msg);
		}
		rv[i]->bytes = rv[i]->zones * zs;
		rv[i]->is_zones = 0;
		if (i == 4)
			js->j.zoneskip = rv[i]->bytes;
	}
	if (js->incr.given && !js->incr.is_pct)
		js->j.offset_increment = js->incr.bytes;
	return 0;
}

/* Whether the job writes (fio's td_write): trims count as writes in fio's
 * zbd checks where it says "write jobs"; here only writes. */
static int writes(const struct ssd_job *j)
{
	return (ssd_rw_ddirs(j->rw) >> SSD_DDIR_WRITE) & 1;
}

/* The options of the job, before its region (fio's fixup_options). */
static int check_options(struct parser *p, struct jstate *js)
{
	struct ssd_job *j = &js->j;
	char msg[320];
	const char *cs = raw_value(j, "create_serialize");
	int b;
	if (cs && !ssd_parse_bool(cs, &b) && !b)
		return zbd_err(p, js, "create_serialize", SSD_EINVAL,
			       "create_serialize=1 with zonemode=zbd",
			       "--zonemode=zbd and --create_serialize=0 are "
			       "not compatible.");
	if (j->write_zone_remainder) {
		if (job_was_set(js, "norandommap") && !j->norandommap)
			return zbd_err(p, js, "norandommap", SSD_EINVAL,
				       "norandommap=1, or none",
				       "write_zone_remainder=1 requires "
				       "norandommap=1");
		j->norandommap = 1;
	}
	if (j->experimental_verify)
		return zbd_err(p, js, "experimental_verify", SSD_EUNSUP,
			       "experimental_verify=0",
			       "zonemode=zbd does not support experimental "
			       "verify");
	if (j->recover_zbd_write_error &&
	    !(j->continue_on_error & SSD_COE_WRITE))
		return zbd_err(p, js, "recover_zbd_write_error", SSD_EINVAL,
			       "continue_on_error covering writes",
			       "recover_zbd_write_error works only when "
			       "continue_on_error is set");
	unsigned dd = ssd_rw_ddirs(j->rw);
	if (dd >> SSD_DDIR_TRIM & 1) {
		if (j->min_bs[SSD_DDIR_TRIM] != j->max_bs[SSD_DDIR_TRIM] ||
		    j->nbssplit[SSD_DDIR_TRIM] > 1)
			return zbd_err(p, js, j->nbssplit[SSD_DDIR_TRIM] > 1
				       ? "bssplit" : "bsrange", SSD_EINVAL,
				       "one trim block size, the zone size",
				       "bsrange and bssplit are not allowed "
				       "for trim with zonemode=zbd");
	}
	if (j->zoneskip) {
		/* fio: a multiple of the zone size, and HOWTO: zero */
		snprintf(msg, sizeof msg, "zoneskip %llu: ssdlab does not skip "
			 "zones in zonemode=zbd (fio's HOWTO: it must be zero "
			 "for zbd)", (unsigned long long)j->zoneskip);
		return zbd_err(p, js, "zoneskip", SSD_EUNSUP, "zoneskip=0", msg);
	}
	if (j->read_iolog[0])
		return zbd_err(p, js, "read_iolog", SSD_EUNSUP,
			       "a drawn workload with zonemode=zbd",
			       "a replayed trace with zonemode=zbd is not "
			       "supported by ssdlab");
	return 0;
}

/* The drive's zones as fio sets them up for the first zbd job (emulated:
 * init_zone_info; a zoned drive: parse_zone_info and
 * zbd_set_max_write_zones), or a later job's agreement with them. */
static int check_zones(struct parser *p, struct jstate *js)
{
	struct ssd_job *j = &js->j;
	const char *f = target(js);
	char msg[320];
	uint32_t maxw = j->max_open_zones;
	if (!p->zdev.zoned) {
		if (!j->zonesize) {
			snprintf(msg, sizeof msg, "%.64s: Specifying the zone "
				 "size is mandatory for regular file/block "
				 "device with --zonemode=zbd", f);
			return zbd_err(p, js, "zonemode", SSD_EINVAL,
				       "zonesize with zonemode=zbd on a "
				       "conventional drive", msg);
		}
		if (j->zonecapacity > j->zonesize) {
			snprintf(msg, sizeof msg, "%.64s: job parameter "
				 "zonecapacity %llu is larger than zone size "
				 "%llu", f, (unsigned long long)j->zonecapacity,
				 (unsigned long long)j->zonesize);
			return zbd_err(p, js, "zonecapacity", SSD_EINVAL,
				       "zonecapacity <= zonesize", msg);
		}
		if (p->capacity < j->zonesize) {
			snprintf(msg, sizeof msg, "%.64s: file/device size %llu "
				 "is smaller than zone size %llu", f,
				 (unsigned long long)p->capacity,
				 (unsigned long long)j->zonesize);
			return zbd_err(p, js, "zonesize", SSD_EINVAL,
				       "a zone size up to the drive's capacity",
				       msg);
		}
	} else {
		if (j->zonesize && j->zonesize != p->zdev.zone_size) {
			snprintf(msg, sizeof msg, "%.64s job parameter zonesize "
				 "%llu does not match disk zone size %llu.", f,
				 (unsigned long long)j->zonesize,
				 (unsigned long long)p->zdev.zone_size);
			return zbd_err(p, js, "zonesize", SSD_EINVAL,
				       "zonesize=0 or the drive's", msg);
		}
		/* zbd_set_max_write_zones on a host-managed drive */
		uint32_t dev = p->zdev.max_open;
		if (!j->ignore_zone_limits && dev) {
			if (!maxw) {
				maxw = dev;
			} else if (maxw > dev) {
				snprintf(msg, sizeof msg, "Specified "
					 "--max_open_zones (%u) is larger than "
					 "max (%u)", maxw, dev);
				return zbd_err(p, js, "max_open_zones",
					       SSD_EINVAL,
					       "at most the drive's "
					       "max_open_zones, or "
					       "ignore_zone_limits", msg);
			}
		}
		/* fio's zbd_using_direct_io: a block device's page cache
		 * would reorder the writes; a character device (NVMe
		 * passthrough, /dev/ngXnY) has none */
		const char *ft = raw_value(j, "filetype");
		int chr = !strncmp(js->filename, "/dev/ng", 7) ||
			  (ft && !strcmp(ft, "char"));
		if (writes(j) && !j->direct && !chr)
			return zbd_err(p, js, "direct", SSD_EINVAL,
				       "direct=1 for a job writing to a zoned "
				       "drive",
				       "Using direct I/O is mandatory for "
				       "writing to ZBD drives");
	}
	uint64_t zs = zone_size_of(p, j);
	if (p->capacity / zs > JOB_ZBD_MAX_ZONES) {
		/* the host keeps 32 bytes a zone (src/run/zbd.h) */
		snprintf(msg, sizeof msg, "%llu zones of %llu B on the drive, "
			 "more than ssdlab keeps",
			 (unsigned long long)(p->capacity / zs),
			 (unsigned long long)zs);
		return zbd_err(p, js, "zonesize", SSD_ERANGE,
			       "at most 16777216 zones: a larger zonesize",
			       msg);
	}
	if (!p->zbd_zone_size) {
		p->zbd_zone_size = zs;
		p->zbd_max_write = maxw;
	} else {
		if (zs != p->zbd_zone_size) {
			snprintf(msg, sizeof msg, "%.64s: zonesize %llu does not "
				 "match the device zone size %llu.", f,
				 (unsigned long long)zs,
				 (unsigned long long)p->zbd_zone_size);
			return zbd_err(p, js, "zonesize", SSD_EINVAL,
				       "the zone size of the drive's first zbd "
				       "job", msg);
		}
		if (maxw && maxw != p->zbd_max_write)
			return zbd_err(p, js, "max_open_zones", SSD_EINVAL,
				       "the value of the drive's first zbd "
				       "job, or 0",
				       "Different 'max_open_zones' values");
		maxw = p->zbd_max_write;
	}
	if (j->job_max_open_zones && !maxw)
		return zbd_err(p, js, "job_max_open_zones", SSD_EINVAL,
			       "max_open_zones, or a zoned drive's limit",
			       "'job_max_open_zones' cannot be used without a "
			       "global open zones limit");
	j->max_open_zones = maxw;
	j->zonesize = zs;
	if (!j->zonecapacity || p->zdev.zoned)
		j->zonecapacity = p->zdev.zoned ? p->zdev.zone_cap : zs;
	return 0;
}

/* bs above 128 MiB: only for a zbd job's trims (job_fn_bs_ddir). */
static int check_big_bs(struct parser *p, struct jstate *js)
{
	struct ssd_job *j = &js->j;
	unsigned dd = ssd_rw_ddirs(j->rw);
	for (int d = 0; d < SSD_DDIR_N; d++) {
		if (j->bs[d] <= JOB_BS_MAX || !(dd >> d & 1) ||
		    (d == SSD_DDIR_TRIM && j->zonemode == SSD_ZONEMODE_ZBD))
			continue;
		char b[32];
		return perr(p, job_opt_line(js, "bs"), SSD_ERANGE,
			    "option 'bs': block size %s is out of range "
			    "(accepted: %s)",
			    ssd_fmt_bytes(j->bs[d], b, sizeof b),
			    job_opts[job_find_opt("bs")].value);
	}
	return 0;
}

int job_zbd_check(struct parser *p, struct jstate *js, uint64_t *off,
		  uint64_t *size, uint64_t *io_size)
{
	struct ssd_job *j = &js->j;
	const char *f = target(js);
	char msg[320];
	int rc = check_big_bs(p, js);
	if (rc)
		return rc;
	if (j->zone_append && j->zonemode != SSD_ZONEMODE_ZBD)
		return zbd_err(p, js, "write_mode", SSD_EINVAL,
			       "write_mode=zone_append with zonemode=zbd",
			       "io_uring_cmd with write_mode=zone_append "
			       "requires zonemode=zbd");
	if (j->zonemode != SSD_ZONEMODE_ZBD)
		return 0;
	rc = check_options(p, js);
	if (!rc)
		rc = check_zones(p, js);
	if (rc)
		return rc;
	uint64_t zs = j->zonesize;
	unsigned dd = ssd_rw_ddirs(j->rw);
	if ((dd >> SSD_DDIR_TRIM & 1) && j->bs[SSD_DDIR_TRIM] != zs) {
		snprintf(msg, sizeof msg, "%.64s: trim block size %u is not the "
			 "zone size %llu", f, j->bs[SSD_DDIR_TRIM],
			 (unsigned long long)zs);
		return zbd_err(p, js, "bs", SSD_EINVAL,
			       "a trim block size equal to the zone size", msg);
	}
	/* zbd_zone_align_file_sizes: a read-only job's end is rounded down
	 * to a zone boundary; any other job's start is rounded up and its
	 * end down.  The zones are whole (the drive's last, short one is
	 * left out). */
	/* the size as written: the zones, not whole blocks, bound it (a
	 * block that does not fit ends a pass, as fio's io_u_fits) */
	if (j->cut_key && !strcmp(j->cut_key, "size")) {
		*size = j->cut_lo;
		j->cut_key = NULL;
	}
	uint64_t start = *off, end = *off + *size;
	uint64_t nz = p->capacity / zs;
	uint64_t lim = nz * zs;
	if (end > lim)
		end = lim;
	if (dd != 1u << SSD_DDIR_READ) {
		if (start % zs)
			start += zs - start % zs;
	}
	end -= end % zs;
	if (start >= end || end <= *off) {
		snprintf(msg, sizeof msg, "%.64s: io_size must be at least one "
			 "zone", f);
		return zbd_err(p, js, job_was_set(js, "size") ? "size"
			       : "offset", SSD_ERANGE,
			       "a region holding a whole zone", msg);
	}
	int given = js->rv[RV_IO_SIZE].given;
	*off = start;
	*size = end - start;
	if (!given)
		*io_size = *size;
	return 0;
}
