/*
 * fuzz_trace.c -- every trace reader: the first byte picks the format
 * (auto, iolog, blktrace, blkparse, msr...), the rest is the file.  Any
 * input reads to its end or to one error with a message; a rewind reads
 * the same records again.
 */
#include <string.h>

#include "fuzz.h"
#include "trace/trace.h"

static int read_all(const char *path, int fmt, uint64_t *n, uint64_t *sum)
{
	struct ssd_trace *t;
	char err[512];
	if (ssd_trace_open(path, fmt, &t, err, sizeof err)) {
		if (!err[0])
			fuzz_fail("an open error without a message");
		return -1;
	}
	int rc = 0;
	for (int pass = 0; pass < 2 && !rc; pass++) {
		struct ssd_trace_rec r;
		uint64_t k = 0, s = 0;
		int got;
		while ((got = ssd_trace_next(t, &r)) == 1 && k < 100000) {
			if (r.op < 0 || r.op > SSD_TOP_FILE)
				fuzz_fail("a record of no known action");
			if (r.op <= SSD_TOP_TRIM && r.offset + r.len < r.offset)
				fuzz_fail("a record past 2^64 bytes");
			k++;
			s += r.offset ^ r.len ^ (uint64_t)r.ts;
		}
		if (got < 0 && !ssd_trace_error(t)[0])
			fuzz_fail("a read error without a message");
		if (pass == 0) {
			n[0] = k;
			sum[0] = s;
			if (ssd_trace_rewind(t))
				rc = -1;
		} else if (got >= 0 && (k != n[0] || s != sum[0])) {
			fuzz_fail("a rewound trace reads other records");
		}
	}
	ssd_trace_close(t);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size || size > 1 << 20)
		return 0;
	int fmt = data[0] % SSD_TRACE_NFMT;
	const char *path = fuzz_file(data + 1, size - 1);
	if (!path)
		return 0;
	uint64_t n = 0, sum = 0;
	read_all(path, fmt, &n, &sum);
	return 0;
}
