/*
 * fuzz_drive.c -- the drive-file parser and derivation: any text loads
 * over the defaults or fails with a message; a drive that loads and
 * finishes prints (`ssdlab drive show`) as text that loads back to the
 * same drive -- its print is the same again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "fuzz.h"

/* The drive's print, malloc'd; NULL when it cannot be made. */
static char *print(const struct ssd_config *c, size_t *n)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, n);
	if (!f)
		return NULL;
	ssd_config_print(c, f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 16)
		return 0;
	const char *path = fuzz_file(data, size);
	if (!path)
		return 0;
	static struct ssd_config c, back;
	char err[512];
	ssd_config_defaults(&c);
	err[0] = 0;
	if (ssd_config_load(&c, path, err, sizeof err) || ssd_config_finish(&c, err, sizeof err)) {
		if (!err[0])
			fuzz_fail("a drive error without a message");
		return 0;
	}
	size_t n1, n2;
	char *p1 = print(&c, &n1);
	if (!p1)
		return 0;
	const char *again = fuzz_file((const uint8_t *)p1, n1);
	ssd_config_defaults(&back);
	if (!again || ssd_config_load(&back, again, err, sizeof err) ||
	    ssd_config_finish(&back, err, sizeof err)) {
		fprintf(stderr, "%s\n%s\n", err, p1);
		fuzz_fail("a drive's print does not load back");
	}
	char *p2 = print(&back, &n2);
	if (p2 && (n1 != n2 || memcmp(p1, p2, n1))) {
		fprintf(stderr, "--- first\n%s--- again\n%s", p1, p2);
		fuzz_fail("a drive's print loads back to another drive");
	}
	free(p1);
	free(p2);
	return 0;
}
