/*
 * fileset.h -- files as a file system lays them on a drive, for the
 * reviewers' "copy a lot of files onto it, then delete them" steps: a set
 * of contiguous extents of realistic sizes over a region of the LBA span,
 * copied onto a drive and deleted with TRIM (or not at all: without TRIM
 * the drive never learns that the data is dead).
 *
 * Sizes.  File sizes on real volumes are close to lognormal (Downey, "The
 * structural cause of file size distributions", 2001; Agrawal et al.,
 * "A five-year study of file-system metadata", FAST 2007): the median a
 * few to tens of KiB, the mean hundreds of KiB, most bytes in a few large
 * files.  A set of n files holding B bytes draws n sizes from a lognormal
 * with log-standard deviation sigma and scales them to sum to B, so the
 * mean is B / n (sigma 2: the median is e^-2, 14% of the mean; the
 * largest 1% of the files hold over a third of the bytes).  Sizes are
 * whole 4 KiB clusters, at least one; the rounding is made up by adding
 * a cluster to some files, so the set holds exactly B.
 *
 * Layout.  Files lie one after another over the region, each contiguous
 * (an extent, as a file system allocates a file it is told the size of);
 * when they fill less than the region, the free space is spread between
 * them as random gaps (uniform spacings).  The copy visits them in a
 * random order: a file system places files by its free-space maps, not in
 * the order they are copied, and a copy of many directories lands all
 * over a used volume -- the hard case for the drive; a sequential copy
 * onto an empty volume would be the easy one.  File-system metadata (MFT
 * records, directories) is not written.
 *
 * Cost: 16 bytes per file; making a set is O(files).
 */
#ifndef SSD_FILESET_H
#define SSD_FILESET_H

#include <stdint.h>

#include "machine/device.h"

struct ssd_fileset_file {
	uint64_t offset;  /* bytes from the start of the drive, 4 KiB aligned */
	uint64_t len;     /* bytes, a multiple of 4 KiB, >= 4 KiB */
};

struct ssd_fileset {
	struct ssd_fileset_file *f; /* the files, in copy order */
	uint64_t n;                 /* files */
	uint64_t bytes;             /* sum of their lengths */
};

/* What a copy or a delete did: host commands, bytes, and its span of
 * simulated time (ns; the first submission and the last completion). */
struct ssd_fileset_run {
	uint64_t cmds, bytes;
	int64_t start, end;
};

/* Make a set of `files` files holding `bytes` (rounded down to 4 KiB) in
 * the region [start, start + region), sizes lognormal with log-standard
 * deviation `sigma`, drawn from `seed`.  Returns 0, SSD_EINVAL (region
 * or start not 4 KiB aligned, bytes > region, files < 1, files > bytes /
 * 4 KiB, sigma < 0) or SSD_ENOMEM.  Free with ssd_fileset_free. */
int ssd_fileset_make(struct ssd_fileset *fs, uint64_t start, uint64_t region,
		     uint64_t bytes, uint64_t files, double sigma, uint64_t seed);
void ssd_fileset_free(struct ssd_fileset *fs);

/* Copy the files onto dev, starting when the drive is next free: each
 * file front to back in requests of `bs` bytes (the last one shorter),
 * files in copy order, `qd` requests in flight across file boundaries (a
 * copy tool's overlapped I/O).  Fills *r.  Returns 0 or the drive's
 * negative SSD_E* code (SSD_EROFS when it turned read-only). */
int ssd_fileset_write(struct ssd_dev *dev, const struct ssd_fileset *fs,
		      uint32_t bs, uint32_t qd, struct ssd_fileset_run *r);

/* Delete the files with TRIM: one TRIM command per file (per GiB of a
 * larger one), in copy order, `qd` in flight (a file system deleting a
 * tree).  Fills *r.  Returns 0
 * or a negative SSD_E* code. */
int ssd_fileset_trim(struct ssd_dev *dev, const struct ssd_fileset *fs,
		     uint32_t qd, struct ssd_fileset_run *r);

#endif
