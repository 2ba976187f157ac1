/*
 * snapshot.h -- a drive's whole state saved to a file and a drive made
 * from it later (docs/snapshots.md): a preconditioned drive is made once
 * and every later run starts from it.
 *
 * The promise: a drive loaded from a snapshot is the drive that was
 * saved -- every map, block, counter, busy-until stamp, generator and
 * buffer as it was -- so a run on it gives, byte for byte, what the same
 * run gives on the saved drive had it gone on (the runner's report
 * counts each run's own time and commands: docs/snapshots.md).
 *
 * The file (base/snapfile.h) holds the drive's configuration as the text
 * `ssdlab drive show` prints, then the device's, the FTL's and the
 * flash's state as sections, arrays written whole.  A bare SSD only: a
 * machine of host layers or a hard disk is refused, as are a drive with
 * power-loss tracking on, a block-mapped FTL and a drive that failed
 * (ssd_snapshot_refusal says which).
 */
#ifndef SSD_SNAPSHOT_H
#define SSD_SNAPSHOT_H

#include <stddef.h>

#include "base/config.h"
#include "machine/device.h"

/* Why a drive of configuration c cannot be saved -- it is a machine:
 * "the page cache (page_cache = ...)", "a hard disk (type = hdd)"... --
 * in one line (in buf when it needs it), or NULL.  What the drive's
 * state may add is checked by ssd_snapshot_save. */
const char *ssd_snapshot_refusal(const struct ssd_config *c, char *buf,
				 size_t n);

/* Save d to `path` (written whole or not at all, base/ofile.h).  0, or
 * SSD_EUNSUP (a drive that cannot be saved: why), SSD_EIO, SSD_ENOMEM,
 * with one line in err naming the file and what. */
int ssd_snapshot_save(const struct ssd_dev *d, const char *path, char *err,
		      size_t errlen);

/* The drive a snapshot holds: its text parsed and finished into *c.
 * 0, or the reasons ssd_snapshot_load gives for the header. */
int ssd_snapshot_drive(const char *path, struct ssd_config *c, char *err,
		       size_t errlen);

/* Build the drive saved at `path`.  `want`, if not NULL, is the drive the
 * caller asked for: it must be the one in the file (name, description
 * and mem_check aside: the file's are kept), or the load is refused
 * naming the first key that differs and both values.  0 and
 * *out, or SSD_EPARSE (not a snapshot, truncated, damaged, another
 * drive), SSD_EUNSUP (another format version), SSD_EIO, SSD_ENOMEM, with
 * one line in err. */
int ssd_snapshot_load(const char *path, const struct ssd_config *want,
		      struct ssd_dev **out, char *err, size_t errlen);

/* ssd_snapshot_load's checks of the header alone (the magic, the
 * version, the header's checksum, the trailer, the drive against
 * `want`): what a caller that loads later checks before it starts. */
int ssd_snapshot_check(const char *path, const struct ssd_config *want,
		       char *err, size_t errlen);

#endif
