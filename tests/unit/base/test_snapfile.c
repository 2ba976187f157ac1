/* The snapshot container (base/snapfile.h): xxh64 against the published
 * values, sections read back as written, and each way a file can be
 * wrong refused with its own message: not a snapshot, another version,
 * a damaged header, a damaged body, a file cut short, a section that is
 * not the one expected. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/ofile.h"
#include "base/snapfile.h"
#include "base/util.h"
#include "t.h"

static char err[512];

TEST(snapfile_xxh64_published_values)
{
	CHECK(ssd_xxh64("", 0, 0) == 0xEF46DB3751D8E999ULL);
	CHECK(ssd_xxh64("a", 1, 0) == 0xD24EC4F1A98C6E5BULL);
	CHECK(ssd_xxh64("abc", 3, 0) == 0x44BC2CF5AD770999ULL);
	/* streamed in uneven pieces: the same as at once */
	static uint8_t buf[10007];
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (uint8_t)(i * 131 + 7);
	struct ssd_xxh64 h;
	ssd_xxh64_init(&h, 0);
	for (size_t i = 0, k = 1; i < sizeof buf; k = k * 3 % 97 + 1) {
		size_t n = k < sizeof buf - i ? k : sizeof buf - i;
		ssd_xxh64_update(&h, buf + i, n);
		i += n;
	}
	CHECK(ssd_xxh64_digest(&h) == ssd_xxh64(buf, sizeof buf, 0));
}

#define TA SSD_SNAP_TAG('A', 'A', 'A', 'A')
#define TB SSD_SNAP_TAG('B', 'B', 'B', 'B')

static uint32_t arr[5000];

/* A file with sections A (arr) and B (one u64). */
static int write_file(const char *path)
{
	for (uint32_t i = 0; i < 5000; i++)
		arr[i] = i * 2654435761u;
	struct ssd_snapw *w;
	int rc = ssd_snapw_open(path, "name = x\n", &w, err, sizeof err);
	if (rc)
		return rc;
	uint64_t v = 42;
	ssd_snapw_array(w, TA, arr, sizeof arr);
	ssd_snapw_section(w, TB, sizeof v);
	ssd_snapw_put(w, &v, sizeof v);
	return ssd_snapw_commit(w, err, sizeof err);
}

/* Read it back: 0, or the code of the open or the end, err saying. */
static int read_file(const char *path)
{
	static uint32_t got[5000];
	uint64_t v = 0;
	struct ssd_snapr *r;
	int rc = ssd_snapr_open(path, &r, err, sizeof err);
	if (rc)
		return rc;
	if (strcmp(ssd_snapr_config(r), "name = x\n"))
		rc = -1000;
	if (!ssd_snapr_array(r, TA, got, sizeof got) &&
	    !ssd_snapr_section(r, TB, sizeof v))
		ssd_snapr_get(r, &v, sizeof v);
	int erc = ssd_snapr_end(r, err, sizeof err);
	ssd_snapr_close(r);
	if (!erc && !rc && (v != 42 || memcmp(got, arr, sizeof arr)))
		rc = -1001;
	return erc ? erc : rc;
}

/* Flip bit 0 of byte `at` of path (from the end if negative). */
static void flip(const char *path, long at)
{
	FILE *f = fopen(path, "r+b");
	if (!f)
		return;
	fseek(f, at, at < 0 ? SEEK_END : SEEK_SET);
	long pos = ftell(f);
	int c = fgetc(f);
	fseek(f, pos, SEEK_SET);
	fputc(c ^ 1, f);
	fclose(f);
}

static const char *tmp(const char *name)
{
	static char p[256];
	snprintf(p, sizeof p, "/tmp/ssdlab-snapfile-%d-%s", (int)getpid(), name);
	return p;
}

TEST(snapfile_sections_read_back)
{
	const char *p = tmp("ok");
	CHECKF(!write_file(p), "%s", err);
	CHECKF(!read_file(p), "%s", err);
	unlink(p);
}

TEST(snapfile_refusals_name_what_is_wrong)
{
	const char *p = tmp("bad");
	/* not a snapshot */
	FILE *f = fopen(p, "w");
	CHECK(f);
	fputs("[job]\nrw=read\n", f);
	fclose(f);
	CHECK(read_file(p) == SSD_EPARSE && strstr(err, "not an ssdlab snapshot"));
	/* another format version (the u32 after the magic) */
	CHECK(!write_file(p));
	flip(p, 16);
	CHECK(read_file(p) == SSD_EUNSUP && strstr(err, "format version 3"));
	/* the header's text */
	CHECK(!write_file(p));
	flip(p, 33);
	CHECKF(read_file(p) == SSD_EPARSE && strstr(err, "checksum of its header"),
	       "%s", err);
	/* the body */
	CHECK(!write_file(p));
	flip(p, 2000);
	CHECKF(read_file(p) == SSD_EPARSE && strstr(err, "checksum of its body"),
	       "%s", err);
	/* a section's header damaged: damage, not "another section" */
	CHECK(!write_file(p));
	flip(p, 41 + 8 + 1);
	CHECKF(read_file(p) == SSD_EPARSE && strstr(err, "checksum of its body"),
	       "%s", err);
	/* cut short anywhere */
	CHECK(!write_file(p));
	CHECK(!truncate(p, 10000));
	CHECKF(read_file(p) == SSD_EPARSE && strstr(err, "truncated"), "%s", err);
	CHECK(!truncate(p, 8));
	CHECKF(read_file(p) == SSD_EPARSE && strstr(err, "truncated"), "%s", err);
	unlink(p);
}

TEST(snapfile_other_sections_with_a_good_checksum_are_named)
{
	const char *p = tmp("other");
	CHECK(!write_file(p));
	struct ssd_snapr *r;
	uint32_t x;
	CHECK(!ssd_snapr_open(p, &r, err, sizeof err));
	CHECK(ssd_snapr_array(r, TB, &x, sizeof x) == SSD_EPARSE);
	CHECK(ssd_snapr_end(r, err, sizeof err) == SSD_EPARSE);
	CHECKF(strstr(err, "section 'AAAA' where 'BBBB' belongs"), "%s", err);
	ssd_snapr_close(r);
	/* the right tag, another length */
	CHECK(!ssd_snapr_open(p, &r, err, sizeof err));
	CHECK(ssd_snapr_array(r, TA, arr, 16) == SSD_EPARSE);
	CHECK(ssd_snapr_end(r, err, sizeof err) == SSD_EPARSE);
	CHECKF(strstr(err, "holds 20000 bytes, this drive's has 16"), "%s", err);
	ssd_snapr_close(r);
	/* a section left out at the end */
	CHECK(!ssd_snapr_open(p, &r, err, sizeof err));
	CHECK(!ssd_snapr_array(r, TA, arr, sizeof arr));
	CHECK(ssd_snapr_end(r, err, sizeof err) == SSD_EPARSE);
	CHECKF(strstr(err, "more than this drive holds"), "%s", err);
	ssd_snapr_close(r);
	unlink(p);
}

TEST(snapfile_a_failed_write_leaves_no_file)
{
	const char *p = tmp("fault");
	unlink(p);
	CHECK(!ssd_ofile_faults("write:1"));
	int rc = write_file(p);
	ssd_ofile_faults("");
	CHECK(rc == SSD_EIO);
	CHECK(access(p, F_OK) != 0);
	/* and a failed rename */
	CHECK(!ssd_ofile_faults("rename:1"));
	rc = write_file(p);
	ssd_ofile_faults("");
	CHECK(rc == SSD_EIO);
	CHECK(access(p, F_OK) != 0);
}

TEST(snapfile_blocks_of_one_byte_take_two_bytes)
{
	const char *p = tmp("fill");
	size_t n = (size_t)1 << 20;
	uint8_t *a = malloc(n), *b = malloc(n);
	CHECK(a && b);
	memset(a, 0xff, n);
	a[300000] = 7; /* one block of 16 holds data */
	struct ssd_snapw *w;
	CHECK(!ssd_snapw_open(p, "x = 1\n", &w, err, sizeof err));
	ssd_snapw_array(w, TA, a, n);
	ssd_snapw_array(w, TB, a, 1000); /* a short last block */
	CHECKF(!ssd_snapw_commit(w, err, sizeof err), "%s", err);
	FILE *f = fopen(p, "rb");
	CHECK(f);
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	fclose(f);
	/* 64 KiB of data, 15 blocks of two bytes, the headers */
	CHECKF(size > 65536 && size < 65536 + 200, "%ld bytes", size);
	struct ssd_snapr *r;
	CHECK(!ssd_snapr_open(p, &r, err, sizeof err));
	memset(b, 0, n);
	CHECK(!ssd_snapr_array(r, TA, b, n));
	CHECK(!memcmp(a, b, n));
	CHECK(!ssd_snapr_array(r, TB, b, 1000));
	CHECK(!memcmp(a, b, 1000));
	CHECKF(!ssd_snapr_end(r, err, sizeof err), "%s", err);
	ssd_snapr_close(r);
	free(a);
	free(b);
	unlink(p);
}
