/* Unit tests for the file set (src/job/fileset.c): sizes, layout, copy and
 * delete. */
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "machine/device.h"
#include "job/fileset.h"
#include "t.h"
#include "t_sim.h"

#define MiB (1ULL << 20)

static int cmp_off(const void *a, const void *b)
{
	const struct ssd_fileset_file *x = a, *y = b;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

TEST(fileset_holds_exactly_the_files_and_bytes_asked_inside_the_region)
{
	struct ssd_fileset fs;
	const uint64_t start = 8 * MiB, region = 256 * MiB, bytes = 200 * MiB;
	CHECK(ssd_fileset_make(&fs, start, region, bytes, 5000, 2.0, 1) == 0);
	CHECK(fs.n == 5000 && fs.bytes == bytes);
	struct ssd_fileset_file *s = malloc(fs.n * sizeof *s);
	CHECK(s != NULL);
	memcpy(s, fs.f, fs.n * sizeof *s);
	uint64_t sum = 0, in_order = 0;
	for (uint64_t i = 0; i < fs.n; i++) {
		sum += fs.f[i].len;
		in_order += i && fs.f[i].offset > fs.f[i - 1].offset;
	}
	CHECK(sum == bytes);
	/* copied in a random order, not front to back */
	CHECKF(in_order > fs.n / 4 && in_order < 3 * fs.n / 4, "%llu ascending steps",
	       (unsigned long long)in_order);
	qsort(s, fs.n, sizeof *s, cmp_off);
	for (uint64_t i = 0; i < fs.n; i++) {
		CHECK(s[i].len >= 4096 && s[i].len % 4096 == 0);
		CHECK(s[i].offset % 4096 == 0);
		CHECK(s[i].offset >= start && s[i].offset + s[i].len <= start + region);
		if (i)
			CHECKF(s[i].offset >= s[i - 1].offset + s[i - 1].len,
			       "files %llu and %llu overlap", (unsigned long long)i - 1,
			       (unsigned long long)i);
	}
	free(s);
	ssd_fileset_free(&fs);
}

TEST(fileset_sizes_are_lognormal_and_a_full_set_tiles_the_region)
{
	struct ssd_fileset fs;
	const uint64_t region = 4096 * MiB;
	CHECK(ssd_fileset_make(&fs, 0, region, region, 20000, 2.0, 7) == 0);
	uint64_t *len = malloc(fs.n * sizeof *len);
	CHECK(len != NULL);
	for (uint64_t i = 0; i < fs.n; i++)
		len[i] = fs.f[i].len;
	qsort(len, fs.n, sizeof *len, cmp_u64);
	/* sigma 2: the median is e^-2 = 0.135 of the mean */
	double mean = (double)region / (double)fs.n, med = (double)len[fs.n / 2];
	CHECKF(med / mean > 0.10 && med / mean < 0.18, "median/mean %.3f", med / mean);
	free(len);
	/* no free space: the files lie end to end from the start */
	qsort(fs.f, fs.n, sizeof *fs.f, cmp_off);
	uint64_t at = 0;
	for (uint64_t i = 0; i < fs.n; i++) {
		CHECK(fs.f[i].offset == at);
		at += fs.f[i].len;
	}
	CHECK(at == region);
	ssd_fileset_free(&fs);
}

TEST(fileset_rejects_impossible_sets)
{
	struct ssd_fileset fs;
	CHECK(ssd_fileset_make(&fs, 0, MiB, 2 * MiB, 1, 2.0, 1) == SSD_EINVAL);
	CHECK(ssd_fileset_make(&fs, 0, MiB, MiB, 257, 2.0, 1) == SSD_EINVAL);
	CHECK(ssd_fileset_make(&fs, 0, MiB, MiB, 0, 2.0, 1) == SSD_EINVAL);
	CHECK(ssd_fileset_make(&fs, 100, MiB, MiB / 2, 1, 2.0, 1) == SSD_EINVAL);
	CHECK(ssd_fileset_make(&fs, 0, MiB, MiB, 256, 2.0, 1) == 0);
	CHECK(fs.n == 256);
	for (uint64_t i = 0; i < fs.n; i++)
		CHECK(fs.f[i].len == 4096);
	ssd_fileset_free(&fs);
}

TEST(fileset_copy_maps_every_file_and_trim_unmaps_them)
{
	/* 4 KiB pages, half the capacity spare, TRIMs unmapped at once (the
	 * other modes queue them) */
	static const char *const sets[] = {"capacity=64m", "op=0.5", "page_size=4k",
					   "pages_per_block=64", "channels=2",
					   "planes_per_die=1", "trim_mode=immediate"};
	char err[256];
	struct ssd_dev *d = t_sim_drive(NULL, sets, 7, err, sizeof err);
	CHECKF(d, "%s", err);
	uint64_t cap = ssd_dev_capacity(d);
	struct ssd_fileset fs;
	CHECK(ssd_fileset_make(&fs, 0, cap, cap * 8 / 10, 300, 2.0, 3) == 0);
	struct ssd_fileset_run r;
	const uint32_t bs = 64 * 1024;
	CHECK(ssd_fileset_write(d, &fs, bs, 4, &r) == 0);
	uint64_t cmds = 0;
	for (uint64_t i = 0; i < fs.n; i++)
		cmds += (fs.f[i].len + bs - 1) / bs;
	CHECK(r.cmds == cmds && r.bytes == fs.bytes && r.end > r.start);
	CHECK(ssd_ftl_mapped(d->ftl) == fs.bytes / 4096);
	CHECK(ssd_fileset_trim(d, &fs, 4, &r) == 0);
	CHECK(r.cmds == fs.n && r.bytes == fs.bytes);
	CHECK(ssd_ftl_mapped(d->ftl) == 0);
	CHECKF(ssd_ftl_check(d->ftl, err, sizeof err) == 0, "%s", err);
	ssd_fileset_free(&fs);
	ssd_dev_destroy(d);
}
