/*
 * fuzz_util.c -- the targets' helpers (fuzz.h).
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *fuzz_file(const uint8_t *data, size_t size)
{
	static char path[64];
	if (!path[0])
		snprintf(path, sizeof path, "/tmp/ssdlab-fuzz-%d", (int)getpid());
	FILE *f = fopen(path, "wb");
	if (!f)
		return NULL;
	size_t w = fwrite(data, 1, size, f);
	if (fclose(f) || w != size)
		return NULL;
	return path;
}

char *fuzz_text(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (text) {
		memcpy(text, data, size);
		text[size] = 0;
	}
	return text;
}

void fuzz_fail(const char *what)
{
	fprintf(stderr, "fuzz: %s\n", what);
	abort();
}
