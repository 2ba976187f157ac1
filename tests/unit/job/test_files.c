/* Unit tests for files and regions of the drive: the layout of files
 * (src/job/layout.c), their resolution from job files
 * (src/job/job_build.c) and the choice of file, clone region and strided
 * zone of each I/O (src/job/workload.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/job.h"
#include "job/layout.h"
#include "base/util.h"
#include "job/workload.h"
#include "t.h"

#define KiB (1ULL << 10)
#define MiB (1ULL << 20)
#define GiB (1ULL << 30)

static struct ssd_job *jobs;
static int njobs;
static char err[512];

static int parse_cap(const char *text, uint64_t cap)
{
	free(jobs);
	jobs = NULL;
	return ssd_jobfile_parse_string(text, "t.fio", cap, &jobs, &njobs, err,
					sizeof err);
}

static int parse(const char *text)
{
	return parse_cap(text, GiB);
}

/* The index of the region of job j, clone c, that holds offset off, or
 * -1. */
static int region_of(const struct ssd_job *j, uint32_t c, uint64_t off)
{
	for (uint32_t i = 0; i < j->nfiles; i++) {
		const struct ssd_job_region *r = &j->regions[c * j->nfiles + i];
		if (off >= r->start && off < r->start + r->size)
			return (int)i;
	}
	return -1;
}

/* The first `n` I/Os of clone c of job j. */
static int take(const struct ssd_job *j, uint32_t c, struct ssd_io *io,
		int n)
{
	struct ssd_wl *w = ssd_wl_create(j, c, 42);
	int k = 0;
	while (k < n && ssd_wl_next(w, &io[k]))
		k++;
	ssd_wl_destroy(w);
	return k;
}

TEST(layout_places_files_contiguous_aligned_in_first_use_order)
{
	struct ssd_layout *l = ssd_layout_new();
	CHECK(ssd_layout_use(l, "a", 5000, 1) == 0);
	CHECK(ssd_layout_use(l, "b", 4096, 2) == 1);
	CHECK(ssd_layout_use(l, "a", 8192, 3) == 0); /* grows, keeps tag */
	CHECK(ssd_layout_use(l, "c", 1, 4) == 2);
	CHECK(ssd_layout_find(l, "b") == 1);
	CHECK(ssd_layout_find(l, "d") == UINT32_MAX);
	CHECK(ssd_layout_place(l, 1 * MiB, NULL) == 0);
	CHECK(ssd_layout_base(l, 0) == 0 && ssd_layout_len(l, 0) == 8192);
	CHECK(ssd_layout_base(l, 1) == 8192);
	CHECK(ssd_layout_base(l, 2) == 12288);
	CHECK(ssd_layout_end(l) == 16384);
	CHECK(ssd_layout_tag(l, 0) == 1);
	CHECK(!strcmp(ssd_layout_name(l, 2), "c"));
	uint32_t bad = 99;
	CHECK(ssd_layout_place(l, 12288, &bad) == SSD_ERANGE && bad == 2);
	/* many names: the hash table grows */
	for (int i = 0; i < 1000; i++) {
		char name[16];
		snprintf(name, sizeof name, "f%d", i);
		CHECK(ssd_layout_use(l, name, 4096, 0) == (uint32_t)i + 3);
	}
	CHECK(ssd_layout_find(l, "f999") == 1002);
	ssd_layout_free(l);
}

TEST(files_of_a_list_are_laid_out_one_after_another)
{
	CHECKF(parse("[a]\nfilename=f1:f2:f3\nsize=3m\n") == 0, "%s", err);
	const struct ssd_job *j = &jobs[0];
	CHECK(j->nfiles == 3);
	for (uint32_t i = 0; i < 3; i++) {
		CHECK(j->regions[i].start == i * MiB);
		CHECK(j->regions[i].size == MiB);
		CHECK(j->regions[i].end == (i + 1) * MiB);
	}
	CHECK(j->size == 3 * MiB && j->io_size == 3 * MiB);
	CHECK(j->clone_io[0] == 3 * MiB);
	/* a size that does not split evenly: 4 KiB units, first files
	 * larger; the next file starts on a 4 KiB boundary */
	CHECKF(parse("[a]\nfilename=x:y\nsize=12k\n[b]\nfilename=z\n"
		     "filesize=4k\n") == 0, "%s", err);
	CHECK(jobs[0].regions[0].size == 8 * KiB);
	CHECK(jobs[0].regions[1].start == 8 * KiB);
	CHECK(jobs[0].regions[1].size == 4 * KiB);
	CHECK(jobs[1].regions[0].start == 12 * KiB);
}

/* filesize=10000000 was refused as not a multiple of 4 KiB: fio makes
 * the file and does I/O in its whole blocks. */
TEST(files_filesize_not_whole_blocks_is_cut_to_whole_blocks)
{
	CHECKF(parse("[a]\nrw=write\nfilename=x:y\nfilesize=10000000\n"
		     "[b]\nfilename=z\nfilesize=6k\n") == 0, "%s", err);
	const struct ssd_job *a = &jobs[0];
	CHECK(a->regions[0].size == 2441 * 4096);
	CHECK(a->regions[0].end == 10000000); /* the file is its size */
	CHECK(a->regions[1].start == 10002432); /* 4 KiB aligned */
	CHECK(a->size == 2 * 2441 * 4096);
	CHECK(a->cut_key && !strcmp(a->cut_key, "filesize"));
	CHECK(a->cut_lo == 10000000 && a->cut_hi == 10000000);
	CHECK(jobs[1].regions[0].size == 4096 && jobs[1].cut_lo == 6144);
	/* a range: each drawn size cut; whole blocks of the smallest size */
	CHECKF(parse("[a]\nrw=write\nbs=8k\nnrfiles=2\n"
		     "filesize=100000-200000\n") == 0, "%s", err);
	for (uint32_t i = 0; i < 2; i++)
		CHECK(jobs[0].regions[i].size % 8192 == 0);
	CHECK(jobs[0].cut_lo == 100000 && jobs[0].cut_hi == 200000);
	/* size split over files: shares of whole blocks (fio: of size /
	 * files, each in whole blocks) */
	CHECKF(parse("[a]\nrw=write\nbs=8k\nnrfiles=3\nsize=10000000\n")
	       == 0, "%s", err);
	for (uint32_t i = 0; i < 3; i++)
		CHECK(jobs[0].regions[i].size % 8192 == 0);
	CHECK(jobs[0].size == 1220 * 8192);
	CHECK(!strcmp(jobs[0].cut_key, "size"));
	/* an offset makes the region short of whole blocks: cut, not
	 * noted (the file is whole blocks) */
	CHECKF(parse("[a]\nfilename=p\nfilesize=64k\noffset=512\n") == 0,
	       "%s", err);
	CHECK(jobs[0].regions[0].size == 60 * KiB && !jobs[0].cut_key);
	free(jobs);
	jobs = NULL;
}

TEST(files_same_name_same_region_other_names_disjoint)
{
	CHECKF(parse("[w]\nrw=write\nfilename=a:b\nsize=2m\n"
		     "[r]\nrw=read\nfilename=b\n"          /* b: a file */
		     "[o]\nrw=read\nfilename=c:d\nsize=1m\n"
		     "[again]\nfilename=b:a\nsize=4m\n") == 0, "%s", err);
	const struct ssd_job *w = &jobs[0], *r = &jobs[1], *o = &jobs[2];
	const struct ssd_job *ag = &jobs[3];
	CHECK(r->nfiles == 1);
	CHECK(r->regions[0].start == w->regions[1].start);
	/* [again] needs 2 MiB of each: the files are that long, laid out
	 * before c and d were named */
	CHECK(w->regions[0].start == 0);
	CHECK(w->regions[1].start == 2 * MiB);
	CHECK(ag->regions[0].start == 2 * MiB && ag->regions[1].start == 0);
	CHECK(r->regions[0].size == 2 * MiB); /* to the end of the file */
	CHECK(o->regions[0].start == 4 * MiB);
	CHECK(o->regions[1].start == 4 * MiB + 512 * KiB);
	/* a single name no other job lays out is the drive, as before */
	CHECKF(parse("[a]\nfilename=/dev/nvme0n1\noffset=1m\nsize=2m\n"
		     "[b]\nfilename=data\n") == 0, "%s", err);
	CHECK(jobs[0].nfiles == 0 && jobs[0].offset == MiB);
	CHECK(jobs[1].nfiles == 0 && jobs[1].size == GiB);
}

TEST(files_nrfiles_per_clone_and_shared_by_format)
{
	CHECKF(parse("[j]\nnrfiles=3\nnumjobs=2\nfilesize=64k\n") == 0, "%s",
	       err);
	const struct ssd_job *j = &jobs[0];
	CHECK(j->nfiles == 3);
	for (uint32_t k = 0; k < 6; k++)
		CHECK(j->regions[k].start == k * 64 * KiB);
	CHECK(j->clone_io[0] == 192 * KiB && j->clone_io[1] == 192 * KiB);
	/* filename_format without $jobnum: the clones and the next job
	 * share the three files */
	CHECKF(parse("[global]\nfilename_format=data.$filenum\nfilesize=64k\n"
		     "[a]\nnrfiles=3\nnumjobs=2\n[b]\nnrfiles=2\n") == 0,
	       "%s", err);
	for (uint32_t k = 0; k < 3; k++) {
		CHECK(jobs[0].regions[k].start == k * 64 * KiB);
		CHECK(jobs[0].regions[3 + k].start == k * 64 * KiB);
	}
	CHECK(jobs[1].regions[1].start == 64 * KiB);
	/* size is the total over the files; filesize overrides it and size
	 * only caps the bytes done */
	CHECKF(parse("[a]\nnrfiles=4\nsize=1m\n"
		     "[b]\nnrfiles=4\nfilesize=1m\nsize=2m\n"
		     "[c]\nnrfiles=4\nfilesize=1m\n") == 0, "%s", err);
	CHECK(jobs[0].regions[3].size == 256 * KiB && jobs[0].io_size == MiB);
	CHECK(jobs[1].regions[3].size == MiB && jobs[1].io_size == 2 * MiB);
	CHECK(jobs[2].io_size == 4 * MiB);
	/* a range: sizes drawn in it, whole pages, the same for a name */
	CHECKF(parse("[a]\nnrfiles=50\nfilesize=8k-1m\n") == 0, "%s", err);
	uint64_t lo = UINT64_MAX, hi = 0;
	for (uint32_t i = 0; i < 50; i++) {
		uint64_t s = jobs[0].regions[i].size;
		CHECK(s % 4096 == 0 && s >= 8 * KiB && s <= MiB);
		lo = s < lo ? s : lo;
		hi = s > hi ? s : hi;
		if (i)
			CHECK(jobs[0].regions[i].start ==
			      jobs[0].regions[i - 1].start +
				      jobs[0].regions[i - 1].size);
	}
	CHECK(lo < 256 * KiB && hi > 768 * KiB);
}

TEST(files_roundrobin_alternates_sequential_finishes_a_file)
{
	struct ssd_io io[64];
	CHECKF(parse("[a]\nrw=write\nbs=4k\nfilename=x:y:z\nfilesize=32k\n")
	       == 0, "%s", err);
	CHECK(take(&jobs[0], 0, io, 64) == 24);
	for (int k = 0; k < 24; k++) {
		CHECK(region_of(&jobs[0], 0, io[k].offset) == k % 3);
		/* sequential inside each file */
		CHECK(io[k].offset == jobs[0].regions[k % 3].start +
					      (uint64_t)(k / 3) * 4096);
	}
	CHECKF(parse("[a]\nrw=write\nbs=4k\nfilename=x:y\nfilesize=32k\n"
		     "file_service_type=roundrobin:3\n") == 0, "%s", err);
	CHECK(take(&jobs[0], 0, io, 64) == 16);
	static const int want[16] = {0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1,
				     0, 0, 1, 1};
	for (int k = 0; k < 16; k++)
		CHECKF(region_of(&jobs[0], 0, io[k].offset) == want[k],
		       "I/O %d", k);
	CHECKF(parse("[a]\nrw=randwrite\nbs=4k\nfilename=x:y:z\nfilesize=32k\n"
		     "file_service_type=sequential\n") == 0, "%s", err);
	CHECK(take(&jobs[0], 0, io, 64) == 24);
	for (int k = 0; k < 24; k++)
		CHECK(region_of(&jobs[0], 0, io[k].offset) == k / 8);
	/* each file's random map: its 8 blocks once each */
	for (int f = 0; f < 3; f++) {
		int seen = 0;
		for (int k = 8 * f; k < 8 * f + 8; k++)
			seen |= 1 << ((io[k].offset -
				       jobs[0].regions[f].start) / 4096);
		CHECK(seen == 0xff);
	}
}

TEST(files_random_service_gives_each_file_its_size_per_pass)
{
	struct ssd_io io[400];
	CHECKF(parse("[a]\nrw=randread\nbs=4k\nnrfiles=4\nfilesize=40k\n"
		     "io_size=320k\nfile_service_type=random:2\n") == 0, "%s",
	       err);
	CHECK(take(&jobs[0], 0, io, 400) == 80);
	int count[4] = {0}, runs = 0;
	for (int k = 0; k < 80; k++) {
		int f = region_of(&jobs[0], 0, io[k].offset);
		CHECK(f >= 0);
		count[f]++;
		if (k == 39)
			for (int i = 0; i < 4; i++)
				CHECK(count[i] == 10); /* one pass */
		if (k && f != region_of(&jobs[0], 0, io[k - 1].offset))
			runs++;
	}
	CHECK(runs > 10); /* files do change */
}

TEST(files_zipf_pareto_normal_skew_the_files)
{
	static struct ssd_io io[20000];
	int count[16];
	const char *types[] = {"zipf:1.2", "pareto:0.3", "normal"};
	for (int t = 0; t < 3; t++) {
		char text[256];
		snprintf(text, sizeof text,
			 "[a]\nrw=randread\nbs=4k\nnrfiles=16\nfilesize=64k\n"
			 "io_size=80000k\nfile_service_type=%s\n", types[t]);
		CHECKF(parse(text) == 0, "%s", err);
		CHECK(take(&jobs[0], 0, io, 20000) == 20000);
		memset(count, 0, sizeof count);
		for (int k = 0; k < 20000; k++) {
			int f = region_of(&jobs[0], 0, io[k].offset);
			CHECK(f >= 0);
			count[f]++;
		}
		if (t < 2) {
			CHECKF(count[0] > count[8] * 3, "%s: %d %d", types[t],
			       count[0], count[8]);
			CHECK(count[0] > count[15]);
		} else {
			CHECKF(count[7] + count[8] > 5 * (count[0] + count[15]),
			       "%d %d %d %d", count[0], count[7], count[8],
			       count[15]);
		}
	}
}

TEST(offset_increment_gives_each_clone_its_region)
{
	struct ssd_io io[300];
	CHECKF(parse("[a]\nrw=write\nbs=64k\nnumjobs=4\noffset=4m\n"
		     "offset_increment=100m\nsize=1m\n") == 0, "%s", err);
	const struct ssd_job *j = &jobs[0];
	for (uint32_t c = 0; c < 4; c++) {
		uint64_t lo = 4 * MiB + c * 100 * MiB;
		CHECK(j->regions[c].start == lo && j->regions[c].size == MiB);
		int n = take(j, c, io, 300);
		CHECK(n == 16);
		CHECK(io[0].offset == lo);
		for (int k = 0; k < n; k++)
			CHECK(io[k].offset >= lo &&
			      io[k].offset + io[k].len <= lo + MiB);
	}
	/* without size each clone goes to the end of the drive */
	CHECKF(parse("[a]\nnumjobs=3\noffset_increment=25%\n") == 0, "%s",
	       err);
	CHECK(jobs[0].regions[2].start == GiB / 2);
	CHECK(jobs[0].regions[2].size == GiB / 2);
	CHECK(jobs[0].clone_io[1] == 3 * GiB / 4);
	/* a percentage aligned up to offset_align */
	CHECKF(parse("[a]\nnumjobs=2\noffset_increment=10%\n"
		     "offset_align=1m\nsize=1m\n") == 0, "%s", err);
	CHECK(jobs[0].regions[1].start == 103 * MiB);
	/* with files the increment is inside each file, as in fio */
	CHECKF(parse("[a]\nfilename=p:q\nnumjobs=2\noffset_increment=64k\n"
		     "filesize=256k\n") == 0, "%s", err);
	CHECK(jobs[0].regions[2].start == 64 * KiB);
	CHECK(jobs[0].regions[3].start == 320 * KiB);
	CHECK(jobs[0].regions[3].size == 192 * KiB);
	/* a clone past the end is an error naming the option */
	CHECK(parse("[a]\nnumjobs=4\noffset_increment=300m\nsize=200m\n")
	      == SSD_ERANGE);
	CHECK(strstr(err, "t.fio:3: option 'offset_increment'"));
}

TEST(strided_zones_skip_and_wrap)
{
	struct ssd_io io[64];
	/* zones of 16k every 32k, 8k done in each; the drive is 256k */
	CHECKF(parse_cap("[a]\nrw=read\nbs=4k\nzonemode=strided\nzonesize=8k\n"
			 "zonerange=16k\nzoneskip=16k\nsize=96k\n", 256 * KiB)
	       == 0, "%s", err);
	CHECK(take(&jobs[0], 0, io, 64) == 24);
	for (int k = 0; k < 24; k++) {
		uint64_t zone = (uint64_t)(k / 2) % 8 * 32 * KiB;
		CHECKF(io[k].offset == zone + (uint64_t)(k % 2) * 4096,
		       "I/O %d at %llu", k, (unsigned long long)io[k].offset);
	}
	/* zonesize above zonerange: a zone is covered again; random I/O
	 * stays inside the zone */
	CHECKF(parse_cap("[a]\nrw=randread\nbs=4k\nzonesize=32k\n"
			 "zonerange=16k\nzoneskip=48k\n", 256 * KiB) == 0,
	       "%s", err);
	CHECK(jobs[0].zonemode == SSD_ZONEMODE_STRIDED);
	CHECK(take(&jobs[0], 0, io, 64) == 64);
	for (int k = 0; k < 64; k++) {
		uint64_t zone = (uint64_t)(k / 8) % 4 * 64 * KiB;
		CHECK(io[k].offset >= zone && io[k].offset < zone + 16 * KiB);
	}
}

TEST(fill_device_works_to_the_end_of_the_drive)
{
	CHECKF(parse("[a]\nrw=write\nbs=128k\nfill_device=1\noffset=256m\n"
		     "size=1m\n[b]\nfill_fs\n") == 0, "%s", err);
	CHECK(jobs[0].size == 768 * MiB && jobs[0].io_size == 768 * MiB);
	CHECK(jobs[1].size == GiB);
}

TEST(files_errors_name_file_line_and_option)
{
	CHECK(parse("[a]\nfilename=x:y\nsize=600m\n[b]\nfilename=z\n"
		    "filesize=500m\n") == SSD_ERANGE);
	CHECKF(strstr(err, "t.fio:4: the files do not fit") &&
	       strstr(err, "'z'"), "%s", err);
	CHECK(parse("[a]\nfilename=/dev/sda:/dev/sdb\n") == SSD_EUNSUP);
	CHECK(strstr(err, "t.fio:2: option 'filename'"));
	CHECK(parse("[a]\nfilename=x:y\n") == SSD_EINVAL);
	CHECK(strstr(err, "file 'x' of job 'a' has no size"));
	CHECK(parse("[a]\nfilename=x::y\nsize=1m\n") == SSD_EPARSE);
	CHECK(parse("[a]\nnrfiles=2\nsize=10%\n") == SSD_EUNSUP);
	CHECK(strstr(err, "t.fio:3:"));
	CHECK(parse("[a]\nnrfiles=2\nfilesize=1m\nfill_device=1\n") ==
	      SSD_EUNSUP);
	CHECK(parse("[a]\nfilesize=8k-4k\n") == SSD_ERANGE);
	CHECK(parse("[a]\nnrfiles=2\nfilesize=4k\nbs=8k\n") == SSD_ERANGE);
	CHECK(strstr(err, "less than its block size"));
	CHECK(parse("[a]\nfile_service_type=zipf:1\n") == SSD_ERANGE);
	CHECK(parse("[a]\nfile_service_type=random:0\n") == SSD_ERANGE);
	CHECK(parse("[a]\nfile_service_type=lru\n") == SSD_EPARSE);
	CHECK(parse("[a]\nzonemode=zbd\n") == SSD_EINVAL);
	CHECK(strstr(err, "Specifying the zone size is mandatory"));
	CHECK(parse("[a]\nmax_open_zones=8\n") == 0);
	CHECK(parse("[a]\nzonemode=strided\n") == SSD_EINVAL);
	CHECK(parse("[a]\nzonemode=none\nzonesize=1m\n") == SSD_EINVAL);
	CHECK(parse("[a]\nzoneskip=1m\n") == SSD_EINVAL);
	CHECK(parse("[a]\nzonesize=4k\nbs=8k\n") == SSD_ERANGE);
	CHECK(parse("[a]\nnrfiles=2\nfilesize=1m\nzonesize=64k\n") ==
	      SSD_EUNSUP);
	CHECK(parse("[a]\nnrfiles=300000\nnumjobs=2\nfilesize=4k\n") ==
	      SSD_ERANGE);
	CHECK(parse("[a]\nopenfiles=0\n") == SSD_ERANGE);
	CHECK(parse("[a]\noffset_align=6000\n") == SSD_ERANGE);
	CHECK(strstr(err, "512 B"));
	CHECK(parse("[a]\nfilename=p:q\nfilesize=64k\noffset=64k\n") ==
	      SSD_ERANGE);
	CHECK(strstr(err, "option 'offset'"));
	free(jobs);
	jobs = NULL;
}
