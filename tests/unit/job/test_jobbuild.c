/* Unit tests for building job files in code (the builder of
 * src/job/job_build.c): a built job equals the job parsed from the same
 * options, field by field. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/job.h"
#include "t.h"

#define GiB (1ULL << 30)
#define MiB (1ULL << 20)

/* Job a and b with what only a parsed job has (its file, line and the
 * options as written) and the block pointers cleared: equal bytes? The
 * offset of the first difference in *at, else -1. */
static int same_job(const struct ssd_job *a, const struct ssd_job *b,
		    long *at)
{
	static struct ssd_job x, y; /* static: zero padding to start with */
	memset(&x, 0, sizeof x);
	memset(&y, 0, sizeof y);
	memcpy(&x, a, sizeof x);
	memcpy(&y, b, sizeof y);
	struct ssd_job *j[2] = {&x, &y};
	for (int i = 0; i < 2; i++) {
		memset(j[i]->file, 0, sizeof j[i]->file);
		j[i]->line = 0;
		memset(j[i]->raw, 0, sizeof j[i]->raw);
		j[i]->raw_global = j[i]->raw_len = 0;
		j[i]->regions = NULL;
		j[i]->clone_io = NULL;
	}
	const unsigned char *p = (const void *)&x, *q = (const void *)&y;
	for (size_t k = 0; k < sizeof x; k++)
		if (p[k] != q[k]) {
			*at = (long)k;
			return 0;
		}
	*at = -1;
	return 1;
}

/* The built jobs against `text` parsed on the same drive. */
static int same_jobs(struct ssd_jobs *b, const char *text, uint64_t cap)
{
	struct ssd_job *built = NULL, *parsed = NULL;
	int nb = 0, np = 0;
	char e1[512], e2[512];
	int r1 = ssd_jobs_end(b, &built, &nb, e1, sizeof e1);
	int r2 = ssd_jobfile_parse_string(text, "t.fio", cap, &parsed, &np,
					  e2, sizeof e2);
	int ok = !r1 && !r2 && nb == np;
	if (r1)
		fprintf(stderr, "    built: %s\n", e1);
	if (r2)
		fprintf(stderr, "    parsed: %s\n", e2);
	for (int i = 0; ok && i < nb; i++) {
		long at;
		ok = same_job(&built[i], &parsed[i], &at) &&
		     !strcmp(built[i].name, parsed[i].name);
		if (!ok)
			fprintf(stderr, "    job %d (%s) differs at byte %ld\n",
				i, built[i].name, at);
	}
	free(built);
	free(parsed);
	return ok;
}

static struct ssd_jobs *new_jobs(uint64_t cap)
{
	struct ssd_jobs *b = NULL;
	if (ssd_jobs_new("built", cap, &b))
		return NULL;
	return b;
}

TEST(jobbuild_defaults_are_an_empty_section)
{
	struct ssd_jobs *b = new_jobs(GiB);
	CHECK(b);
	struct ssd_job *j = ssd_jobs_add(b, "x");
	struct ssd_job d;
	ssd_job_defaults(&d, "x");
	memcpy(d.file, j->file, sizeof d.file);
	long at;
	CHECKF(same_job(j, &d, &at), "differs at byte %ld\n", at);
	CHECK(!strcmp(j->name, "x"));
	CHECK(same_jobs(b, "[x]\n", GiB));
}

/* calibrate's fresh-drive run: [global] values, stonewalls, regions */
TEST(jobbuild_calibrate_fresh)
{
	struct ssd_jobs *b = new_jobs(GiB);
	CHECK(b);
	struct ssd_job *g = ssd_jobs_global(b);
	ssd_job_set_bs(g, 128 << 10);
	g->iodepth = 32;
	struct ssd_job *j = ssd_jobs_add(b, "write");
	j->rw = SSD_RW_WRITE;
	j->size = 64 * MiB;
	j = ssd_jobs_add(b, "read");
	j->stonewall = 1;
	j->rw = SSD_RW_READ;
	j->size = 64 * MiB;
	j = ssd_jobs_add(b, "unmapped");
	j->stonewall = 1;
	j->rw = SSD_RW_READ;
	j->offset = 512 * MiB;
	j->size = 64 * MiB;
	CHECK(same_jobs(b, "[global]\nbs=128k\niodepth=32\n"
			"[write]\nrw=write\nsize=67108864\n"
			"[read]\nstonewall\nrw=read\nsize=67108864\n"
			"[unmapped]\nstonewall\nrw=read\noffset=536870912\n"
			"size=67108864\n", GiB));
}

/* the steady-state scenario's chunk and calibrate's time-based run */
TEST(jobbuild_seed_time_and_mix)
{
	struct ssd_jobs *b = new_jobs(GiB);
	CHECK(b);
	struct ssd_job *j = ssd_jobs_add(b, "steady-state");
	j->rw = SSD_RW_RANDWRITE;
	j->norandommap = 1;
	ssd_job_set_bs(j, 4096);
	j->iodepth = 32;
	j->io_size = 256 * MiB;
	j->randseed = 12345;
	j->has_randseed = 1;
	j = ssd_jobs_add(b, "w0");
	j->stonewall = 1;
	j->rw = SSD_RW_RANDRW;
	j->rwmixread = 70;
	j->time_based = 1;
	j->runtime = 2 * SSD_S;
	j = ssd_jobs_add(b, "pts");
	j->stonewall = 1;
	j->rw = SSD_RW_READWRITE;
	j->rwmixread = 65;
	j->time_based = 1;
	j->runtime = 1500 * SSD_MS;
	CHECK(same_jobs(b, "[steady-state]\nrw=randwrite\nnorandommap=1\n"
			"bs=4k\niodepth=32\nio_size=268435456\n"
			"randseed=12345\n"
			"[w0]\nstonewall\nrw=randrw\nrwmixread=70\n"
			"time_based\nruntime=2s\n"
			"[pts]\nstonewall\nrw=rw\nrwmixread=65\ntime_based\n"
			"runtime=1500000000ns\n", GiB));
}

/* torture's application load: a [global] size, bssplit through the
 * option table */
TEST(jobbuild_torture_app_load)
{
	struct ssd_jobs *b = new_jobs(GiB);
	CHECK(b);
	ssd_jobs_global(b)->size = 256 * MiB;
	struct ssd_job *j = ssd_jobs_add(b, "app-random-read");
	j->rw = SSD_RW_RANDREAD;
	CHECK(!ssd_jobs_set(b, "bssplit",
			    "4k/35:16k/20:32k/15:64k/15:128k/10:256k/5"));
	j->iodepth = 2;
	j->io_size = 60 * MiB;
	j = ssd_jobs_add(b, "app-seq-read");
	j->rw = SSD_RW_READ;
	ssd_job_set_bs(j, 256 << 10);
	j->io_size = 25 * MiB;
	j = ssd_jobs_add(b, "app-write");
	j->rw = SSD_RW_RANDWRITE;
	CHECK(!ssd_jobs_set(b, "bssplit", "4k/50:16k/25:64k/25"));
	j->io_size = 15 * MiB;
	CHECK(same_jobs(b, "[global]\nsize=268435456\n"
			"[app-random-read]\nrw=randread\n"
			"bssplit=4k/35:16k/20:32k/15:64k/15:128k/10:256k/5\n"
			"iodepth=2\nio_size=62914560\n"
			"[app-seq-read]\nrw=read\nbs=256k\niodepth=1\n"
			"io_size=26214400\n"
			"[app-write]\nrw=randwrite\n"
			"bssplit=4k/50:16k/25:64k/25\niodepth=1\n"
			"io_size=15728640\n", GiB));
}

/* trim-latency's deletes (thinktime_blocks through the table, as it
 * records that it was given), life's io_size=100% */
TEST(jobbuild_trim_latency_and_life)
{
	struct ssd_jobs *b = new_jobs(GiB);
	CHECK(b);
	struct ssd_job *j = ssd_jobs_add(b, "delete-files");
	j->rw = SSD_RW_TRIM;
	ssd_job_set_bs(j, 1 << 20);
	j->size = 128 * MiB;
	j->thinktime = 5 * SSD_MS;
	CHECK(!ssd_jobs_setf(b, "thinktime_blocks", "%d", 4));
	j = ssd_jobs_add(b, "measure");
	j->stonewall = 1;
	j->rw = SSD_RW_RANDWRITE;
	j->norandommap = 1;
	CHECK(!ssd_jobs_set(b, "io_size", "100%"));
	CHECK(same_jobs(b, "[delete-files]\nrw=trim\nbs=1m\nsize=134217728\n"
			"thinktime=5000000ns\nthinktime_blocks=4\n"
			"[measure]\nstonewall\nrw=randwrite\nnorandommap=1\n"
			"io_size=100%\n", GiB));
}

TEST(jobbuild_errors_name_the_option)
{
	char e[512];
	struct ssd_job *jobs = NULL;
	int n = 0;
	/* an assigned size that is not whole pages */
	struct ssd_jobs *b = new_jobs(GiB);
	CHECK(b);
	ssd_jobs_add(b, "a")->size = 1000;
	CHECK(ssd_jobs_end(b, &jobs, &n, e, sizeof e) == SSD_ERANGE);
	CHECKF(!strncmp(e, "built: option 'size':", 21), "%s\n", e);
	CHECK(!jobs && !n);
	/* an assigned iodepth out of the table's range */
	b = new_jobs(GiB);
	ssd_jobs_add(b, "a")->iodepth = 0;
	CHECK(ssd_jobs_end(b, &jobs, &n, e, sizeof e) == SSD_ERANGE);
	CHECKF(strstr(e, "option 'iodepth'") && strstr(e, "1..65536"), "%s\n",
	       e);
	/* an unknown option; the error sticks */
	b = new_jobs(GiB);
	ssd_jobs_add(b, "a");
	CHECK(ssd_jobs_set(b, "bssplt", "4k/100") == SSD_EPARSE);
	struct ssd_job *j = ssd_jobs_add(b, "b");
	CHECK(j && ssd_jobs_set(b, "bs", "4k") == SSD_EPARSE);
	CHECK(ssd_jobs_end(b, &jobs, &n, e, sizeof e) == SSD_EPARSE);
	CHECKF(strstr(e, "built: unknown option 'bssplt'") &&
	       strstr(e, "did you mean 'bssplit'"), "%s\n", e);
	/* a bad value, checked by the option's own code */
	b = new_jobs(GiB);
	ssd_jobs_add(b, "a");
	CHECK(ssd_jobs_set(b, "bssplit", "4k/50:8k/20") != 0);
	CHECK(ssd_jobs_end(b, &jobs, &n, e, sizeof e) != 0);
	CHECKF(!strncmp(e, "built: option 'bssplit'", 23), "%s\n", e);
	/* no job */
	b = new_jobs(GiB);
	ssd_jobs_global(b)->iodepth = 4;
	CHECK(ssd_jobs_end(b, &jobs, &n, e, sizeof e) == SSD_EPARSE);
	CHECKF(strstr(e, "no job section"), "%s\n", e);
	/* an unused builder */
	b = new_jobs(GiB);
	ssd_jobs_add(b, "a");
	ssd_jobs_free(b);
}
