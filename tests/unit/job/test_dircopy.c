/* Unit tests for the directory copy (src/job/dircopy.c): the sizes of
 * the file sets, the target fill, determinism, the LBA stream the drive
 * gets, and the delete. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "machine/device.h"
#include "job/dircopy.h"
#include "t.h"
#include "t_sim.h"

#define KiB 1024ULL
#define MiB (1ULL << 20)

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* A small drive: 4 KiB pages, half its capacity spare, TRIMs unmapped at once. */
static int small_drive(const char *capacity, struct ssd_dev **d)
{
	char err[256], cap[64];
	snprintf(cap, sizeof cap, "capacity=%s", capacity);
	const char *const sets[] = {cap, "op=0.5", "page_size=4k",
				    "pages_per_block=64", "channels=2",
				    "planes_per_die=1", "trim_mode=immediate"};
	*d = t_sim_drive(NULL, sets, 7, err, sizeof err);
	return *d ? 0 : -1;
}

TEST(dircopy_impressions_sizes_have_the_fitted_body_and_tail)
{
	enum { N = 200000 };
	uint64_t *s = malloc(N * sizeof *s);
	CHECK(s);
	struct ssd_rng r;
	ssd_rng_seed(&r, 42);
	uint64_t small = 0, tail = 0, sum1 = 0, sum2 = 0;
	for (int i = 0; i < N; i++) {
		s[i] = ssd_dircopy_draw_size(&r);
		sum1 += s[i] % 1000003;
		small += s[i] <= 700;
		tail += s[i] >= (1ULL << 29);
	}
	ssd_rng_seed(&r, 42); /* the same seed, the same sizes */
	for (int i = 0; i < N; i++)
		sum2 += ssd_dircopy_draw_size(&r) % 1000003;
	qsort(s, N, sizeof *s, cmp_u64);
	uint64_t median = s[N / 2], least = s[0];
	free(s);
	CHECK(sum1 == sum2);
	CHECKF(least >= 1, "a size of %llu", (unsigned long long)least);
	/* the body's median is e^9.48 = 13.1 KB */
	CHECKF(median > 12000 && median < 14300, "median %llu",
	       (unsigned long long)median);
	/* P(lognormal <= 700 B) = Phi((ln 700 - 9.48) / 2.457) = 11.7% */
	CHECKF(small > N * 0.105 && small < N * 0.13, "%llu of %d at most 700 B",
	       (unsigned long long)small, N);
	/* the tail: weight 0.00006, 12 of 200,000 expected; the body adds
	 * P(lognormal >= 2^29) = 1.3e-5, 2.6 more */
	CHECKF(tail >= 3 && tail <= 35, "%llu files of 512 MiB or more",
	       (unsigned long long)tail);
}

TEST(dircopy_fixed_sets_hold_exactly_their_files_and_bytes)
{
	CHECK(ssd_dircopy_set_find("impressions") == SSD_DC_IMPRESSIONS);
	CHECK(ssd_dircopy_set_find("nope") == -1);
	uint64_t *sizes, n;
	CHECK(ssd_dircopy_set_sizes(SSD_DC_IMPRESSIONS, 1, &sizes, &n) ==
	      SSD_EINVAL);
	for (int set = SSD_DC_WIN7; set < SSD_DC_NSETS; set++) {
		uint64_t files, bytes, sum = 0, again = 0;
		ssd_dircopy_set_size(set, &files, &bytes);
		CHECK(ssd_dircopy_set_find(ssd_dircopy_set_name(set)) == set);
		CHECK(ssd_dircopy_set_sizes(set, 7, &sizes, &n) == 0);
		CHECKF(n == files, "%s: %llu files", ssd_dircopy_set_name(set),
		       (unsigned long long)n);
		for (uint64_t i = 0; i < n; i++) {
			CHECK(sizes[i] >= 1 && sizes[i] <= bytes);
			sum += sizes[i];
		}
		uint64_t *s2, n2;
		CHECK(ssd_dircopy_set_sizes(set, 7, &s2, &n2) == 0);
		for (uint64_t i = 0; i < n2; i++)
			again += s2[i] == sizes[i];
		free(s2);
		qsort(sizes, n, sizeof *sizes, cmp_u64);
		double mean = (double)bytes / (double)files;
		uint64_t median = sizes[n / 2];
		free(sizes);
		CHECKF(sum == bytes, "%s: %llu bytes", ssd_dircopy_set_name(set),
		       (unsigned long long)sum);
		CHECK(again == n); /* deterministic */
		/* lognormal sigma 2.457: the median is e^-3.02 of the mean */
		CHECKF(median > mean * 0.02 && median < mean * 0.12,
		       "%s: median %llu, mean %.0f", ssd_dircopy_set_name(set),
		       (unsigned long long)median, mean);
	}
}

/* What the drive got, written down by the trace. */
struct stream {
	uint64_t n, cap;
	struct {
		int kind;
		uint64_t off;
		uint32_t len;
	} *w;
	uint64_t hash;
	int64_t last_t;
	int back_in_time;
};

static void record(void *ctx, int kind, uint64_t off, uint32_t len, int64_t t)
{
	struct stream *s = ctx;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->w = realloc(s->w, s->cap * sizeof *s->w);
	}
	if (!s->w)
		return;
	s->w[s->n].kind = kind;
	s->w[s->n].off = off;
	s->w[s->n].len = len;
	s->n++;
	s->hash = (s->hash ^ (off + 31 * len + (uint64_t)kind)) * 0x100000001b3ULL;
	s->back_in_time |= t < s->last_t;
	s->last_t = t;
}

static int copy(const char *cap, double fill, uint64_t seed, int set,
		struct ssd_dircopy_run *r, struct stream *s,
		struct ssd_fileset *del, struct ssd_dev **keep)
{
	struct ssd_dev *d;
	if (small_drive(cap, &d))
		return -1;
	struct ssd_dircopy_opts o;
	ssd_dircopy_defaults(&o);
	o.fill = fill;
	o.seed = seed;
	o.set = set;
	o.trace = s ? record : NULL;
	o.trace_ctx = s;
	int rc = ssd_dircopy(d, &o, r, del);
	if (keep && !rc)
		*keep = d;
	else
		ssd_dev_destroy(d);
	return rc;
}

TEST(dircopy_stops_at_the_target_fill)
{
	struct ssd_dircopy_run r;
	CHECK(copy("256m", 0.5, 1, SSD_DC_IMPRESSIONS, &r, NULL, NULL, NULL) == 0);
	double half = 0.5 * (double)r.volume;
	CHECK(r.volume == 256 * MiB);
	CHECKF((double)r.used >= half && (double)r.used < half + (double)r.largest +
	       MiB, "used %llu of %llu (largest file %llu)",
	       (unsigned long long)r.used, (unsigned long long)r.volume,
	       (unsigned long long)r.largest);
	CHECK(r.files > 100 && r.file_bytes <= r.used && r.copies == 1);
	/* 10.2 files a directory on average */
	CHECKF(r.files > 6 * r.dirs && r.files < 16 * r.dirs, "%llu files in "
	       "%llu directories", (unsigned long long)r.files,
	       (unsigned long long)r.dirs);
	/* until full: whatever no longer fits is skipped */
	CHECK(copy("256m", 1, 1, SSD_DC_IMPRESSIONS, &r, NULL, NULL, NULL) == 0);
	CHECKF(r.used > r.volume / 100 * 99 && r.used <= r.volume,
	       "used %llu of %llu", (unsigned long long)r.used,
	       (unsigned long long)r.volume);
	CHECK(r.skipped >= 64);
	/* a fixed set is copied again and again: 6.25 GB does not fit, so
	 * the first copy is cut short; 27,027 files of seed 004's set
	 * neither */
	CHECK(copy("256m", 0.8, 3, SSD_DC_WIN7, &r, NULL, NULL, NULL) == 0);
	CHECK(r.copies == 1 && (double)r.used >= 0.8 * (double)r.volume);
	CHECK(copy("64m", 1, 3, SSD_DC_MEDIA, &r, NULL, NULL, NULL) == 0);
	CHECK(r.files > 0 && r.used > r.volume / 100 * 95);
}

TEST(dircopy_is_deterministic_from_its_seed)
{
	struct ssd_dircopy_run a, b, c;
	struct stream sa = {0}, sb = {0}, sc = {0};
	CHECK(copy("128m", 1, 5, SSD_DC_IMPRESSIONS, &a, &sa, NULL, NULL) == 0);
	CHECK(copy("128m", 1, 5, SSD_DC_IMPRESSIONS, &b, &sb, NULL, NULL) == 0);
	CHECK(copy("128m", 1, 6, SSD_DC_IMPRESSIONS, &c, &sc, NULL, NULL) == 0);
	free(sa.w);
	free(sb.w);
	free(sc.w);
	CHECK(!memcmp(&a, &b, sizeof a));
	CHECK(sa.n == sb.n && sa.hash == sb.hash);
	CHECK(sa.hash != sc.hash && a.files != c.files);
}

TEST(dircopy_lba_stream_is_a_copy_not_a_sequential_write)
{
	struct ssd_dircopy_run r;
	struct stream s = {0};
	CHECK(copy("256m", 1, 1, SSD_DC_WIN7, &r, &s, NULL, NULL) == 0);
	CHECK(s.w && s.n > 100 && !s.back_in_time);
	uint64_t cmds = 0, bytes = 0, meta = 0, mbytes = 0;
	for (int k = 0; k < SSD_DC_NKINDS; k++) {
		cmds += r.cmds[k];
		bytes += r.bytes[k];
		/* the MFT, the indexes, the bitmap and the log are written */
		CHECKF(r.cmds[k] > 0 && r.fs_writes[k] > 0, "no %s writes",
		       ssd_dircopy_kind_name(k));
		if (k != SSD_DC_DATA) {
			meta += r.cmds[k];
			mbytes += r.bytes[k];
		}
	}
	CHECK(cmds == s.n);
	/* data is most of the bytes; metadata is small writes, 1-3% of
	 * the bytes with this set's 300 KiB files */
	CHECKF(mbytes * 100 > bytes && mbytes * 100 < 5 * bytes,
	       "metadata %llu of %llu bytes", (unsigned long long)mbytes,
	       (unsigned long long)bytes);
	CHECKF(mbytes / meta <= 16 * KiB, "metadata writes of %llu bytes on "
	       "average", (unsigned long long)(mbytes / meta));
	/* interleaved: every tenth of the stream has metadata and data */
	for (int t = 0; t < 10; t++) {
		uint64_t m = 0, dd = 0;
		for (uint64_t i = s.n * t / 10; i < s.n * (t + 1) / 10; i++) {
			m += s.w[i].kind != SSD_DC_DATA;
			dd += s.w[i].kind == SSD_DC_DATA;
		}
		CHECKF(m && dd, "tenth %d: %llu metadata and %llu data writes", t,
		       (unsigned long long)m, (unsigned long long)dd);
	}
	/* the data goes in long runs (files follow each other, each
	 * front to back): most data writes continue the one before */
	CHECKF(r.data_seq_cmds * 2 > r.cmds[SSD_DC_DATA], "%llu of %llu data "
	       "writes continue a run", (unsigned long long)r.data_seq_cmds,
	       (unsigned long long)r.cmds[SSD_DC_DATA]);
	/* nothing lands in the boot area, nothing past the volume */
	for (uint64_t i = 0; i < s.n; i++)
		CHECK(s.w[i].off >= 64 * KiB && s.w[i].off + s.w[i].len <= r.volume);
	/* files are not all contiguous -- those cut where a free extent
	 * ends -- but nearly all are; small ones live in their record */
	CHECKF(r.fragmented >= 1 && r.fragmented * 50 < r.files,
	       "%llu of %llu files fragmented", (unsigned long long)r.fragmented,
	       (unsigned long long)r.files);
	CHECK(r.extents >= r.files - r.resident + r.fragmented);
	CHECK(r.resident > 0 && r.resident < r.files / 5);
	free(s.w);
}

TEST(dircopy_delete_trims_files_and_indexes_and_leaves_the_metadata)
{
	struct ssd_dircopy_run r;
	struct ssd_fileset del;
	struct ssd_dev *d = NULL;
	CHECK(copy("128m", 1, 2, SSD_DC_IMPRESSIONS, &r, NULL, &del, &d) == 0);
	uint64_t mapped = ssd_ftl_mapped(d->ftl), trimmed = 0;
	for (uint64_t i = 0; i < del.n; i++) {
		CHECK(del.f[i].offset % 4096 == 0 && del.f[i].len % 4096 == 0);
		trimmed += del.f[i].len / 4096;
	}
	CHECK(del.bytes == trimmed * 4096);
	/* every file's extents and every index block, no more */
	CHECK(del.n >= r.extents);
	CHECK(trimmed * 4096 >= r.file_bytes - r.resident * 700 &&
	      trimmed * 4096 < r.used);
	struct ssd_fileset_run fr;
	CHECK(ssd_fileset_trim(d, &del, 4, &fr) == 0);
	uint64_t left = ssd_ftl_mapped(d->ftl);
	CHECKF(left == mapped - trimmed, "%llu pages mapped, %llu trimmed, %llu "
	       "left", (unsigned long long)mapped, (unsigned long long)trimmed,
	       (unsigned long long)left);
	/* what is left: the MFT, the log and the bitmap written */
	CHECK(left * 4096 >= r.bytes[SSD_DC_LOG] / 4);
	char err[256];
	CHECKF(ssd_ftl_check(d->ftl, err, sizeof err) == 0, "%s", err);
	ssd_fileset_free(&del);
	ssd_dev_destroy(d);
}

TEST(dircopy_refuses_bad_options)
{
	struct ssd_dircopy_run r;
	struct ssd_dev *d;
	CHECK(small_drive("64m", &d) == 0);
	struct ssd_dircopy_opts o;
	ssd_dircopy_defaults(&o);
	o.fill = 0;
	CHECK(ssd_dircopy(d, &o, &r, NULL) == SSD_EINVAL);
	o.fill = 1.5;
	CHECK(ssd_dircopy(d, &o, &r, NULL) == SSD_EINVAL);
	o.fill = 1;
	o.set = SSD_DC_NSETS;
	CHECK(ssd_dircopy(d, &o, &r, NULL) == SSD_EINVAL);
	o.set = 0;
	o.cache = 1000;
	CHECK(ssd_dircopy(d, &o, &r, NULL) == SSD_EINVAL);
	ssd_dev_destroy(d);
	CHECK(small_drive("12m", &d) == 0); /* under 16 MiB */
	o.cache = 0;
	CHECK(ssd_dircopy(d, &o, &r, NULL) == SSD_EINVAL);
	ssd_dev_destroy(d);
}
