/*
 * fuzz_serve.c -- the NBD server's request path (src/serve): a stream of
 * requests with hostile offsets, lengths and flags, in any order, on the
 * tiny drive (fast clock, memory store).  Every request nbdkit would let
 * through is answered; what reads back is what a shadow copy of the
 * drive says; the FTL's checker runs all along.  Each 16 bytes of input
 * are a request: op, flags, offset (6 bytes), length (4 bytes), fill
 * byte, and 3 spare.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "machine/device.h"
#include "serve/serve.h"

#define SIZE (64u << 20)

static struct ssd_config cfg;
static uint8_t *shadow, *buf;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	if (!shadow) {
		if (ssd_config_open(&cfg, "tiny", SSDLAB_PRESET_DIR, err, sizeof err) ||
		    ssd_config_finish(&cfg, err, sizeof err))
			fuzz_fail(err);
		shadow = malloc(SIZE);
		buf = malloc(4u << 20);
		if (!shadow || !buf)
			fuzz_fail("out of memory");
	}
	memset(shadow, 0, SIZE);
	struct ssd_srv *s;
	struct ssd_srv_opts o = {.cfg = &cfg, .seed = 1, .clock = SSD_SRV_FAST,
				 .output = "/dev/null", .check_every = 1};
	if (ssd_srv_open(&o, &s, err, sizeof err))
		fuzz_fail(err);
	for (size_t i = 0; i + 16 <= size && i < 16 * 512; i += 16) {
		const uint8_t *p = data + i;
		uint64_t off = 0;
		for (int k = 0; k < 6; k++)
			off = off << 8 | p[2 + k];
		uint32_t len = (uint32_t)p[8] << 24 | (uint32_t)p[9] << 16 |
			       (uint32_t)p[10] << 8 | p[11];
		/* mostly inside the drive, and no longer than 4 MiB, as a
		 * client's requests are after nbdkit's checks; sometimes not */
		if (!(p[1] & 0x80)) {
			off %= SIZE;
			len %= 4u << 20;
		}
		unsigned flags = p[1] & 3;
		int op = p[0] % 5;
		if (op <= 1 && len > 4u << 20) /* a data request's buffer */
			len = 4u << 20;
		int inside = off <= SIZE && len <= SIZE - off;
		int rc;
		switch (op) {
		case 0:
			rc = ssd_srv_read(s, buf, len, off);
			if (!rc && inside && len && memcmp(buf, shadow + off, len))
				fuzz_fail("a read returned what was not written");
			break;
		case 1:
			memset(buf, p[12], len);
			rc = ssd_srv_write(s, buf, len, off, flags & SSD_SRV_FUA);
			if (!rc && inside)
				memset(shadow + off, p[12], len);
			break;
		case 2: {
			/* the whole units inside read as zeros; the parts of
			 * units at the ends keep their data */
			uint64_t u = ssd_srv_trim_unit(s);
			uint64_t a = (off + u - 1) / u * u, b = (off + len) / u * u;
			rc = ssd_srv_trim(s, len, off, flags & SSD_SRV_FUA);
			if (!rc && inside && a < b)
				memset(shadow + a, 0, b - a);
			break;
		}
		case 3:
			rc = ssd_srv_zero(s, len, off, flags);
			if (!rc && inside)
				memset(shadow + off, 0, len);
			break;
		default:
			rc = ssd_srv_flush(s, NULL);
			break;
		}
		if (rc && (inside || op == 4) && (len || op == 4) && rc != -EROFS)
			fuzz_fail(ssd_srv_error(s));
		if (!rc && !inside && len && op != 4)
			fuzz_fail("a request outside the drive was taken");
		if (ssd_dev_check_failure(ssd_srv_dev(s)))
			fuzz_fail(ssd_dev_check_failure(ssd_srv_dev(s)));
	}
	ssd_srv_close(s);
	return 0;
}
