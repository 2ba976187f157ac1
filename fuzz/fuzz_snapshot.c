/*
 * fuzz_snapshot.c -- loading a drive snapshot (machine/snapshot.h): any
 * file loads or is refused with a message, and never makes the loader
 * read or write outside the drive's arrays.
 *
 * A mutated snapshot almost always fails its checksums, which would
 * keep the fuzzer at the header.  So an input that starts with the
 * magic gets its checksums set right before it is loaded (the header's
 * over its bytes, the trailer's over the body, the lengths to the
 * input's): the sections behind them -- their tags, lengths, forms and
 * the values in them -- are what is fuzzed.
 *
 * The loader checks every number it reads against the drive's bounds
 * where a wrong one would take it outside an array at once; that a
 * checksummed file holds a consistent drive -- counts that add up,
 * lists that are lists -- it takes on trust, and `ssdlab run --check`
 * tests (docs/snapshots.md).  So a drive that loads is held to the
 * invariant checker, which must refuse or pass it without failing
 * itself, and a drive that passes takes a few commands, each ending in
 * a completion or an error (a zoned drive's at its zones' write pointers,
 * an FDP drive's naming handles).  The seeds hold page-mapped drives
 * under each GC policy, a write buffer, a zoned drive and an FDP one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/snapfile.h"
#include "ftl/ftl.h"
#include "machine/device.h"
#include "machine/snapshot.h"
#include "fuzz.h"

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 22)
		return 0;
	uint8_t *b = malloc(size ? size : 1);
	if (!b)
		return 0;
	memcpy(b, data, size);
	uint64_t len;
	if (size >= 32 && !memcmp(b, "ssdlab snapshot\n", 16) &&
	    (memcpy(&len, b + 24, 8), len <= size) && 32 + len + 8 + 32 <= size) {
		size_t head = 32 + (size_t)len;
		put64(b + head, ssd_xxh64(b, head, 0));
		head += 8;
		size_t body = size - head - 32;
		memcpy(b + size - 32, "SNAPEND\n", 8);
		put64(b + size - 24, body);
		put64(b + size - 16, ssd_xxh64(b + head, body, 0));
		put64(b + size - 8, size);
	}
	const char *path = fuzz_file(b, size);
	free(b);
	if (!path)
		return 0;
	struct ssd_dev *d = NULL;
	char err[640];
	err[0] = 0;
	/* a drive's arrays are as large as its text says, and a file of
	 * blocks of one byte holds a large one in little room: drives of
	 * up to 64 MiB of flash are loaded (as fuzz_sim runs no larger) */
	struct ssd_config c;
	if (!ssd_snapshot_drive(path, &c, err, sizeof err) &&
	    ssd_config_physical_bytes(&c) > (64u << 20) * 2)
		return 0;
	if (ssd_snapshot_load(path, NULL, &d, err, sizeof err)) {
		if (!err[0])
			fuzz_fail("a refused snapshot without a message");
		return 0;
	}
	/* the drive loaded: the checker passes it or says why not; one
	 * that passes takes a few commands */
	char why[384];
	why[0] = 0;
	if (ssd_ftl_check(d->ftl, why, sizeof why)) {
		if (!why[0])
			fuzz_fail("a failed check without a message");
		ssd_dev_destroy(d);
		return 0;
	}
	uint64_t cap = ssd_dev_capacity(d);
	int64_t t = ssd_dev_time(d);
	struct ssd_zoned_info zi;
	int zoned = ssd_dev_zoned(d, &zi);
	uint32_t handles = ssd_ftl_handles(d->ftl);
	for (uint32_t i = 0; i < 64 && cap >= 65536; i++) {
		uint64_t off = (i * 2654435761u) % (cap / 4096) * 4096;
		int ddir = i % 3 == 2 ? SSD_DDIR_READ : SSD_DDIR_WRITE;
		int64_t done;
		struct ssd_zone_desc zd;
		if (zoned && ddir == SSD_DDIR_WRITE &&
		    !ssd_dev_zone_report(d, i % (zi.nzones < 8 ? zi.nzones : 8), &zd)) {
			/* a zoned drive's write at a write pointer, or the
			 * reset of a full zone */
			done = zd.state == SSD_ZNS_ZSF
			       ? ssd_dev_zone_send(d, SSD_ZNS_ACT_RESET, zd.start, 0, t)
			       : ssd_dev_submit(d, ddir, zd.wp, 4096, t);
		} else {
			if (handles) /* an FDP drive's writes name handles */
				ddir |= SSD_BLK_PLACEMENT(i % (handles + 1));
			done = ssd_dev_submit(d, ddir, off, 4096, t);
		}
		if (done < 0)
			break;
		t = done;
	}
	ssd_dev_destroy(d);
	return 0;
}
