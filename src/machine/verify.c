/*
 * verify.c -- the host's record of what it wrote and the check of reads
 * against it (see verify.h).
 */
#include "machine/verify.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* fio's header magic: what its check expects at the start of a block. */
#define FIO_HDR_MAGIC 0xacca

int ssd_verify_attach(struct ssd_dev *dev)
{
	if (dev->vrec)
		return 0;
	struct ssd_ftl *f = dev->ftl;
	uint32_t nlp = ssd_ftl_pages(f);
	uint32_t *rec = calloc((size_t)nlp + 1, sizeof *rec);
	if (!rec)
		return SSD_ENOMEM;
	int rc = ssd_ftl_verify_on(f, rec);
	if (rc) {
		free(rec);
		return rc;
	}
	for (uint32_t l = 0; l < nlp; l++) {
		uint32_t lp, tag;
		rec[l] = ssd_ftl_verify_get(f, l, &lp, &tag)
			? 0 : (uint32_t)SSD_VREC_NEVER << 30;
	}
	dev->vrec = rec;
	return 0;
}

/* " at file F offset O, length L (requested block: ...)" for page lpn of
 * the read [offset, end). */
static void where(char *msg, size_t msglen, size_t n, const char *file,
		  uint32_t lpn, uint64_t offset, uint32_t len)
{
	uint64_t lo = (uint64_t)lpn * 4096, hi = lo + 4096, end = offset + len;
	if (lo < offset)
		lo = offset;
	if (hi > end)
		hi = end;
	if (n < msglen)
		snprintf(msg + n, msglen - n,
			 " at file %s offset %" PRIu64 ", length %" PRIu64
			 " (requested block: offset=%" PRIu64 ", length=%u)",
			 file, lo, hi - lo, offset, len);
}

int ssd_verify_read(const struct ssd_dev *dev, uint64_t offset, uint32_t len,
		    int trim_zero, const char *file, struct ssd_vcount *c,
		    char *msg, size_t msglen)
{
	const struct ssd_ftl *f = dev->ftl;
	const uint32_t *rec = dev->vrec;
	uint32_t lpn, n;
	ssd_verify_pages(SSD_DDIR_READ, offset, len, &lpn, &n);
	for (uint32_t l = lpn; l < lpn + n; l++) {
		uint32_t want = rec[l], st = ssd_vrec_state(want), lp = 0, tag = 0;
		if (st == SSD_VREC_UNKNOWN || (st == SSD_VREC_ZERO && !trim_zero))
			continue;
		if (dev->ssd && st != SSD_VREC_ZERO &&
		    ssd_drive_zrwa_holds(dev->ssd, l)) {
			/* in a zone random write area: DRAM holds the host's
			 * latest write of it, by construction */
			c->pages++;
			continue;
		}
		int found = ssd_ftl_verify_get(f, l, &lp, &tag);
		int n0 = 0;
		if (st == SSD_VREC_ZERO) {
			if (!found) {
				c->zero_pages++;
				continue;
			}
			/* fio's trim check: the block was trimmed and holds data */
			uint64_t lo = (uint64_t)l * 4096;
			snprintf(msg, msglen,
				 "trim: verify failed at file %s offset %" PRIu64
				 ", length %u, block offset %" PRIu64
				 " (holds write %" PRIu32 " of the page)",
				 file, offset, len, lo > offset ? lo - offset : 0,
				 tag & SSD_VREC_COUNT);
			return SSD_EILSEQ;
		}
		if (!found) {
			n0 = snprintf(msg, msglen,
				      "verify: bad magic header 0, wanted %x",
				      FIO_HDR_MAGIC);
		} else if (lp != l) {
			n0 = snprintf(msg, msglen,
				      "verify: bad header offset %" PRIu64
				      ", wanted %" PRIu64,
				      (uint64_t)lp * 4096, (uint64_t)l * 4096);
		} else if (tag != want) {
			n0 = snprintf(msg, msglen,
				      "verify: bad header numberio %" PRIu32
				      ", wanted %" PRIu32,
				      tag & SSD_VREC_COUNT,
				      st == SSD_VREC_NEVER ? 0 : want & SSD_VREC_COUNT);
		} else {
			c->pages++;
			continue;
		}
		where(msg, msglen, n0 > 0 ? (size_t)n0 : 0, file, l, offset, len);
		return SSD_EILSEQ;
	}
	return 0;
}
