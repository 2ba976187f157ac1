/*
 * verify.h -- data verification (fio's verify=): the host's record of
 * what it wrote, and the check of what the drive returns against it.
 *
 * The drive stores no data, but it stores what a real drive's
 * out-of-band area holds: every physical 4 KiB slot carries the logical
 * page it belongs to (the FTL's p2l map) and a tag saying which write of
 * that page it is (ssd_ftl_verify_on).  The host keeps, for every logical
 * page, the tag of its latest write -- or that it was trimmed last, or
 * never written, or that a write to it failed (its content is then
 * undefined, as on a real device, and it is not checked).  A checked read
 * asks the FTL, page by page, what the slot it maps holds: it must be the
 * latest write of that very page, never a stale copy left behind by
 * garbage collection, folding or a remap, never another page's data, and
 * zeros where the page was trimmed last.  A TRIM trims the pages wholly
 * inside its range, as the drive deallocates them (device.h); a page it
 * covers in part keeps its latest write, and its record says so.
 *
 * A tag is a 32-bit word: the page's state in bits 31-30 (SSD_VREC_*) and
 * its write count in bits 29-0 (wrapping; a stale copy 2^30 writes old
 * is never confused in practice).  Pages that were already mapped when
 * the record was created hold count 0, as do their slots.
 *
 * A mismatch is reported in fio's words (verify.c of fio): "verify: bad
 * magic header 0, wanted acca" for a page that reads as zeros, "verify:
 * bad header offset X, wanted Y" for another page's data, "verify: bad
 * header numberio N, wanted M" for a stale write of the right page (here
 * numberio is the page's write count), and "trim: verify failed" for
 * data where zeros were due, each followed by " at file F offset O,
 * length L (requested block: offset=O, length=L)".  The job then ends
 * with EILSEQ (fio's err=84).
 */
#ifndef SSD_VERIFY_H
#define SSD_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "machine/device.h"
#include "machine/vrec.h"

/* Give dev a host record if it has none, and turn on its FTL's tags:
 * pages mapped now count as written once before (count 0).  O(logical
 * pages), once per drive.  Returns 0 or SSD_ENOMEM. */
int ssd_verify_attach(struct ssd_dev *dev);

/* The logical pages [*lpn, *lpn + *n) a command of kind ddir (enum
 * ssd_ddir) and len bytes at offset reaches: for a read or a write every
 * page it touches (a write of part of a page rewrites all of it), for a
 * TRIM the pages wholly inside it, the only ones the drive deallocates
 * (ssd_dev_trim_pages; *n may be 0). */
static inline void ssd_verify_pages(int ddir, uint64_t offset, uint32_t len,
				    uint32_t *lpn, uint32_t *n)
{
	if (ddir == SSD_DDIR_TRIM) {
		ssd_blk_trim_pages(offset, len, lpn, n);
		return;
	}
	uint64_t end = offset + len;
	*lpn = (uint32_t)(offset / SSD_LPAGE);
	*n = (uint32_t)((end + SSD_LPAGE - 1) / SSD_LPAGE) - *lpn;
}

struct ssd_vcount {
	uint64_t pages;       /* pages found holding their latest write */
	uint64_t zero_pages;  /* pages found reading as zeros, as due */
};

/* Check what a read of [offset, offset + len) returns now (the FTL's
 * state at submission is what the read delivers).  trim_zero: trimmed
 * pages must read as zeros (else they are not checked).  `file` names
 * the target in the message.  Returns 0 (counts added to *c), or
 * SSD_EILSEQ with fio's one-line message in msg. */
int ssd_verify_read(const struct ssd_dev *dev, uint64_t offset, uint32_t len,
		    int trim_zero, const char *file, struct ssd_vcount *c,
		    char *msg, size_t msglen);

#endif
