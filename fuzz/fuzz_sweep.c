/*
 * fuzz_sweep.c -- what a sweep reads from files it did not write: the
 * first byte picks the reader -- a sweep file (ssd_sweep_load), the JSON
 * reader, or `compare` of a JSON document with itself.  Any input is
 * read, or refused with a one-line message; a sweep that loads has
 * points with 16-digit ids and a command for each; a document compared
 * with itself compares.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_read.h"
#include "fuzz.h"
#include "sweep/compare.h"
#include "sweep/sweep.h"

static void sweep_file(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	if (!path)
		return;
	struct ssd_sweep *s;
	char err[1024] = "";
	if (ssd_sweep_load(path, &s, err, sizeof err)) {
		if (!err[0] || strchr(err, '\n'))
			fuzz_fail("a refused sweep file without a one-line message");
		return;
	}
	if (!s->npoints)
		fuzz_fail("a sweep without points");
	for (uint32_t p = 0; p < s->npoints && p < 64; p++) {
		if (strlen(s->id[p]) != 16)
			fuzz_fail("an id that is not 16 digits");
		char **argv = ssd_sweep_argv(s, p, "/bin/ssdlab", p % 2 ? "/x.snap" : NULL, p % 3 == 0);
		if (!argv || !argv[1])
			fuzz_fail("a point without a command");
		ssd_sweep_argv_free(argv);
	}
	ssd_sweep_free(s);
}

static void json_text(const uint8_t *data, size_t size)
{
	char err[256] = "";
	struct ssd_jval *v = ssd_jread((const char *)data, size, err, sizeof err);
	if (!v && !err[0])
		fuzz_fail("a refused document without a message");
	if (v && v->type == SSD_JOBJ)
		(void)ssd_jpath(v, "jobs.0.write.iops");
	ssd_jread_free(v);
}

static void compare_self(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	FILE *out = fopen("/dev/null", "w");
	if (!path || !out) {
		if (out)
			fclose(out);
		return;
	}
	char err[1024] = "";
	if (ssd_compare(path, path, size & 1, out, err, sizeof err) &&
	    (!err[0] || strchr(err, '\n')))
		fuzz_fail("a refused comparison without a one-line message");
	fclose(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size || size > 1 << 20)
		return 0;
	switch (data[0] % 3) {
	case 0: sweep_file(data + 1, size - 1); break;
	case 1: json_text(data + 1, size - 1); break;
	default: compare_self(data + 1, size - 1); break;
	}
	return 0;
}
