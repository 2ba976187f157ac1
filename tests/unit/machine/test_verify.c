/* Data verification: the FTL's out-of-band tags follow the data through
 * GC, and a corrupted map is caught as fio catches bad data. */
#include <stdlib.h>
#include <string.h>

#include "machine/device.h"
#include "ftl/ftl.h"
#include "run/sim.h"
#include "t.h"
#include "t_sim.h"
#include "machine/verify.h"

static char err[512];

/* The tiny preset, a fresh drive. */
static struct ssd_dev *drive(void)
{
	return t_sim_drive("tiny", NULL, 0, err, sizeof err);
}

static int run(struct ssd_dev *d, const char *text, struct ssd_run_result *res)
{
	return t_sim_run(d, text, res, err, sizeof err);
}

static int parse(const char *text)
{
	struct ssd_job *jobs = NULL;
	int n = 0;
	int rc = ssd_jobfile_parse_string(text, "t.fio", 64 << 20, &jobs, &n,
					  err, sizeof err);
	free(jobs);
	return rc;
}

/* Random overwrites of a small drive, many times over (GC copies most of
 * the data several times): every page still answers with its own latest
 * tag, and the maps pass the checker. */
TEST(verify_tags_follow_the_data_through_gc)
{
	struct ssd_dev *d = drive();
	CHECK(d);
	struct ssd_ftl *f = d->ftl;
	uint32_t nlp = ssd_ftl_pages(f);
	uint32_t *rec = calloc(nlp, sizeof *rec);
	CHECK(rec && !ssd_ftl_verify_on(f, rec));
	struct ssd_rng r;
	ssd_rng_seed(&r, 7);
	int64_t t = 0;
	for (uint64_t i = 0; i < 6ull * nlp; i++) {
		uint32_t l = (uint32_t)ssd_rng_below(&r, nlp);
		rec[l]++;
		t = ssd_ftl_write(f, l, t);
		CHECK(t >= 0);
	}
	CHECK(ssd_ftl_counters(f)->gc_copy_lp > nlp);
	uint32_t bad = 0;
	for (uint32_t l = 0; l < nlp; l++) {
		uint32_t lp, tag;
		if (!ssd_ftl_verify_get(f, l, &lp, &tag)) {
			bad += rec[l] != 0;
			continue;
		}
		bad += lp != l || tag != rec[l];
	}
	CHECKF(bad == 0, "%u pages do not hold their latest write", bad);
	CHECK(!ssd_ftl_check(f, err, sizeof err));
	ssd_dev_destroy(d);
	free(rec);
}

static const char *write_job =
	"[w]\nrw=randwrite\nbs=4k\nsize=1m\niodepth=8\nverify=md5\n"
	"[again]\nstonewall\nrw=write\nbs=4k\nsize=1m\nverify=md5\n";
static const char *check_job =
	"[check]\nrw=write\nbs=4k\nsize=1m\nverify=md5\nverify_only\n";

/* A write job with verify reads back what it wrote and finds it; a later
 * verify_only job finds it too. */
TEST(verify_passes_on_a_correct_drive)
{
	struct ssd_dev *d = drive();
	CHECK(d);
	struct ssd_run_result res;
	CHECK(run(d, write_job, &res) == 0);
	CHECK(res.njobs == 2);
	for (int i = 0; i < 2; i++) {
		CHECK(res.jobs[i].error == 0);
		CHECK(res.jobs[i].verify_pages == 256);
		CHECK(res.jobs[i].dir[SSD_DDIR_READ].ios == 256);
	}
	ssd_run_result_free(&res);
	CHECK(run(d, check_job, &res) == 0);
	CHECK(res.jobs[0].error == 0 && res.jobs[0].verify_pages == 256);
	CHECK(res.jobs[0].dir[SSD_DDIR_WRITE].ios == 0); /* phantom writes */
	ssd_run_result_free(&res);
	ssd_dev_destroy(d);
}

/* Run the verify_only job after `corrupt` damaged page 10's mapping; it
 * must fail with EILSEQ and a message containing `want`. */
static int corrupted(void (*corrupt)(struct ssd_ftl *f, uint32_t stale),
		     const char *want)
{
	struct ssd_dev *d = drive();
	if (!d)
		return 0;
	struct ssd_run_result res;
	int ok = run(d, "[w]\nrw=write\nbs=4k\nsize=1m\nverify=crc32c\n"
		     "do_verify=0\n", &res) == 0;
	ssd_run_result_free(&res);
	uint32_t stale = ssd_ftl_map_slot(d->ftl, 10);
	/* write page 10 again: its first copy becomes stale */
	ok = ok && run(d, "[w2]\nrw=write\nbs=4k\noffset=40k\nsize=4k\n"
		       "verify=crc32c\n", &res) == 0 && res.jobs[0].error == 0;
	ssd_run_result_free(&res);
	ok = ok && ssd_ftl_map_slot(d->ftl, 10) != stale;
	corrupt(d->ftl, stale);
	ok = ok && run(d, check_job, &res) == 0 && res.njobs == 1 &&
	     res.jobs[0].error == SSD_EILSEQ &&
	     strstr(res.jobs[0].errmsg, want) != NULL;
	if (!ok && res.njobs)
		fprintf(stderr, "    got: %s\n", res.jobs[0].errmsg);
	ssd_run_result_free(&res);
	ssd_dev_destroy(d);
	return ok;
}

static void to_stale(struct ssd_ftl *f, uint32_t stale)
{
	ssd_ftl_fault_map(f, 10, stale);
}

static void to_neighbour(struct ssd_ftl *f, uint32_t stale)
{
	ssd_ftl_fault_map(f, 10, ssd_ftl_map_slot(f, 11));
}

static void to_nothing(struct ssd_ftl *f, uint32_t stale)
{
	ssd_ftl_fault_map(f, 10, SSD_UNMAPPED);
}

/* The map pointing a page at its stale first copy, at another page's
 * data, or at nothing: each is a verify failure in fio's words, naming
 * the offset and the expected and found write. */
TEST(verify_catches_a_corrupted_map)
{
	CHECK(corrupted(to_stale, "verify: bad header numberio 1, wanted 2 at "
			"file tiny offset 40960, length 4096 (requested "
			"block: offset=40960, length=4096)"));
	CHECK(corrupted(to_neighbour, "verify: bad header offset 45056, "
			"wanted 40960 at file tiny offset 40960"));
	CHECK(corrupted(to_nothing, "verify: bad magic header 0, wanted acca "
			"at file tiny offset 40960"));
}

/* Trimmed pages must read as zeros: a TRIM job between the writes and a
 * verify_only job leaves them so; an FTL that forgot the TRIM (the map
 * pointing at the old data again) fails with fio's trim message. */
TEST(verify_trimmed_pages_read_as_zeros)
{
	struct ssd_dev *d = drive();
	CHECK(d);
	struct ssd_run_result res;
	CHECK(run(d, "[w]\nrw=write\nbs=4k\nsize=1m\nverify=md5\n"
		  "[t]\nstonewall\nrw=trim\nbs=4k\noffset=64k\nsize=64k\n",
		  &res) == 0);
	ssd_run_result_free(&res);
	uint32_t slot = 0;
	CHECK(run(d, check_job, &res) == 0 && res.jobs[0].error == 0);
	CHECK(res.jobs[0].verify_zero_pages == 16);
	CHECK(res.jobs[0].verify_pages == 256 - 16);
	ssd_run_result_free(&res);
	/* forget the TRIM of page 16: point it at a slot of its old data */
	for (uint64_t s = 0; s < ssd_ftl_slots(d->ftl); s++)
		if (ssd_ftl_slot_lpn(d->ftl, s) == 16) {
			slot = (uint32_t)s;
			break;
		}
	ssd_ftl_fault_map(d->ftl, 16, slot);
	CHECK(run(d, check_job, &res) == 0 && res.jobs[0].error == SSD_EILSEQ);
	CHECKF(strstr(res.jobs[0].errmsg, "trim: verify failed at file tiny "
		      "offset 65536, length 4096, block offset 0") != NULL,
	       "%s", res.jobs[0].errmsg);
	ssd_run_result_free(&res);
	ssd_dev_destroy(d);
}

/* The record of a TRIM takes the pages wholly inside it, as the drive
 * deallocates them: a page it covers in part keeps its latest write and
 * is checked for it.  6 KiB trims from 64 KiB trim one whole page in
 * every 6 KiB and cover every third page in two parts, which the drive
 * keeps (each TRIM alone covers it in part); 2 KiB blocks of
 * trim_percentage never hold a whole page, so nothing reads as zeros. */
TEST(verify_unaligned_trim_keeps_the_pages_it_covers_in_part)
{
	uint32_t lpn, n;
	ssd_verify_pages(SSD_DDIR_TRIM, 512, 4096, &lpn, &n);
	CHECK(n == 0);
	ssd_verify_pages(SSD_DDIR_TRIM, 2048, 8192, &lpn, &n);
	CHECK(lpn == 1 && n == 1);
	ssd_verify_pages(SSD_DDIR_TRIM, 8192, 8192, &lpn, &n);
	CHECK(lpn == 2 && n == 2);
	ssd_verify_pages(SSD_DDIR_WRITE, 512, 4096, &lpn, &n);
	CHECK(lpn == 0 && n == 2);
	ssd_verify_pages(SSD_DDIR_READ, 2048, 8192, &lpn, &n);
	CHECK(lpn == 0 && n == 3);

	struct ssd_dev *d = drive();
	CHECK(d);
	struct ssd_run_result res;
	CHECK(run(d, "[w]\nrw=write\nbs=4k\nsize=1m\nverify=md5\n"
		  "[t]\nstonewall\nrw=trim\nbs=6k\noffset=64k\nsize=48k\n",
		  &res) == 0);
	CHECK(res.jobs[1].dir[SSD_DDIR_TRIM].ios == 8);
	CHECK(res.jobs[1].ctr.host_trim_lp == 8);
	ssd_run_result_free(&res);
	for (uint32_t l = 16; l < 28; l++) {
		uint32_t lp, tag;
		int kept = (l - 16) % 3 == 1;
		CHECKF(ssd_ftl_verify_get(d->ftl, l, &lp, &tag) == kept &&
		       ssd_vrec_state(d->vrec[l]) == (kept ? SSD_VREC_DATA : SSD_VREC_ZERO),
		       "page %u: record %u", l, ssd_vrec_state(d->vrec[l]));
	}
	CHECK(run(d, check_job, &res) == 0);
	CHECKF(res.jobs[0].error == 0, "%s", res.jobs[0].errmsg);
	CHECK(res.jobs[0].verify_zero_pages == 8);
	CHECK(res.jobs[0].verify_pages == 256 - 8);
	ssd_run_result_free(&res);

	CHECK(run(d, "[w]\nrw=randwrite\nbs=2k\nsize=2m\nverify=sha256\n"
		  "trim_percentage=25\ntrim_backlog=8\n", &res) == 0);
	const struct ssd_job_result *j = &res.jobs[0];
	CHECKF(j->error == 0, "%s", j->errmsg);
	CHECK(j->dir[SSD_DDIR_TRIM].ios > 100 && j->ctr.host_trim_lp == 0);
	CHECK(j->verify_zero_pages == 0 && j->verify_pages > 0);
	ssd_run_result_free(&res);
	ssd_dev_destroy(d);
}

/* verify_backlog verifies while writing: a time_based write job has no
 * time left for its verify phase (fio: "verification read phase will
 * never start"), but with a backlog it reads back as it goes. */
TEST(verify_backlog_verifies_during_the_writes)
{
	struct ssd_dev *d = drive();
	CHECK(d);
	struct ssd_run_result res;
	CHECK(run(d, "[w]\nrw=randwrite\nbs=4k\nsize=4m\nverify=md5\n"
		  "time_based\nruntime=1s\niodepth=4\n", &res) == 0);
	CHECK(res.jobs[0].dir[SSD_DDIR_WRITE].ios > 0);
	CHECK(res.jobs[0].dir[SSD_DDIR_READ].ios == 0);
	ssd_run_result_free(&res);
	CHECK(run(d, "[w]\nrw=randwrite\nbs=4k\nsize=4m\nverify=md5\n"
		  "time_based\nruntime=1s\niodepth=4\nverify_backlog=16\n",
		  &res) == 0);
	uint64_t w = res.jobs[0].dir[SSD_DDIR_WRITE].ios;
	uint64_t rd = res.jobs[0].dir[SSD_DDIR_READ].ios;
	CHECK(res.jobs[0].error == 0);
	CHECKF(rd > w / 2 && rd <= w, "%llu reads for %llu writes",
	       (unsigned long long)rd, (unsigned long long)w);
	CHECK(res.jobs[0].verify_pages == rd);
	ssd_run_result_free(&res);
	ssd_dev_destroy(d);
}

/* trim_percentage with trim_backlog: about that share of the written
 * blocks is trimmed while writing, and the verify phase finds them
 * zero. */
TEST(verify_trim_backlog_trims_a_share_and_checks_zeros)
{
	struct ssd_dev *d = drive();
	CHECK(d);
	struct ssd_run_result res;
	CHECK(run(d, "[w]\nrw=randwrite\nbs=4k\nsize=8m\nverify=sha256\n"
		  "trim_percentage=25\ntrim_backlog=8\n", &res) == 0);
	const struct ssd_job_result *j = &res.jobs[0];
	CHECK(j->error == 0);
	uint64_t trims = j->dir[SSD_DDIR_TRIM].ios;
	CHECKF(trims > 2048 / 5 && trims < 2048 * 3 / 10, "%llu trims",
	       (unsigned long long)trims);
	CHECK(j->verify_zero_pages == trims);
	CHECK(j->verify_pages + j->verify_zero_pages == 2048);
	ssd_run_result_free(&res);
	ssd_dev_destroy(d);
}

/* verify=null pretends: the verify phase reads, nothing is checked;
 * do_verify=0 has no verify phase. */
TEST(verify_null_and_do_verify)
{
	struct ssd_dev *d = drive();
	CHECK(d);
	struct ssd_run_result res;
	CHECK(run(d, "[w]\nrw=write\nbs=4k\nsize=1m\nverify=null\n"
		  "[x]\nstonewall\nrw=write\nbs=4k\nsize=1m\nverify=md5\n"
		  "do_verify=0\n", &res) == 0);
	CHECK(res.jobs[0].dir[SSD_DDIR_READ].ios == 256);
	CHECK(res.jobs[0].verify_pages == 0);
	CHECK(res.jobs[1].dir[SSD_DDIR_READ].ios == 0);
	ssd_run_result_free(&res);
	ssd_dev_destroy(d);
}

/* A read job with verify checks what it reads: fine where the run wrote,
 * "bad magic header" where nothing was ever written. */
TEST(verify_read_jobs_check_every_read)
{
	struct ssd_dev *d = drive();
	CHECK(d);
	struct ssd_run_result res;
	CHECK(run(d, "[w]\nrw=write\nbs=64k\nsize=2m\n"
		  "[r]\nstonewall\nrw=randread\nbs=4k\nsize=2m\nverify=xxhash\n"
		  "[r2]\nstonewall\nrw=read\nbs=8k\nsize=4m\nverify=md5\n",
		  &res) == 0);
	CHECK(res.jobs[1].error == 0 && res.jobs[1].verify_pages == 512);
	CHECK(res.jobs[2].error == SSD_EILSEQ);
	CHECKF(strstr(res.jobs[2].errmsg, "verify: bad magic header 0, wanted "
		      "acca at file tiny offset 2097152, length 4096 "
		      "(requested block: offset=2097152, length=8192)"),
	       "%s", res.jobs[2].errmsg);
	ssd_run_result_free(&res);
	ssd_dev_destroy(d);
}

TEST(verify_options_are_checked)
{
	const char *names[] = {"md5", "crc64", "crc32c", "crc32c-intel",
			       "crc32", "crc16", "crc7", "xxhash", "sha1",
			       "sha256", "sha512", "sha3-224", "sha3-256",
			       "sha3-384", "sha3-512", "meta", "pattern", "null",
			       "0"};
	char buf[256];
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(buf, sizeof buf, "[j]\nrw=write\nverify=%s\n", names[i]);
		CHECKF(parse(buf) == 0, "%s: %s", names[i], err);
	}
	CHECK(parse("[j]\nverify=md6\n") == SSD_EPARSE);
	CHECK(strstr(err, "t.fio:2: option 'verify': unknown verify method "
		     "'md6' (accepted: 0, md5,"));
	CHECK(parse("[j]\nrw=write\nverify=md5\nverify_only\ntime_based\n"
		    "runtime=1\n") == SSD_EINVAL);
	CHECK(strstr(err, "option 'verify_only'"));
	CHECK(parse("[j]\nverify_pattern=0xff%o\"abcd\"-12\n") == 0);
	CHECK(parse("[j]\nverify_pattern=0xzz\n") == SSD_EPARSE);
	CHECK(parse("[j]\nverify_pattern=\"open\n") == SSD_EPARSE);
	CHECK(parse("[j]\nverify_interval=64\n") == SSD_ERANGE);
	CHECK(parse("[j]\nverify_interval=512\nverify_offset=40\n") == 0);
	CHECK(parse("[j]\ntrim_percentage=101\n") == SSD_ERANGE);
	CHECK(parse("[j]\nverify_backlog=x\n") == SSD_EPARSE);
	CHECK(parse("[j]\nverify_backlog=1k\nverify_backlog_batch=16\n"
		    "verify_async=4\nverify_async_cpus=0-3,6\n"
		    "verify_state_save=0\nverify_state_load=1\nverify_fatal\n"
		    "verify_dump=1\nexperimental_verify=1\n"
		    "trim_verify_zero=0\ntrim_backlog=8\n"
		    "trim_backlog_batch=4\n") == 0);
	CHECK(parse("[j]\nverify_async_cpus=a\n") == SSD_EPARSE);
}
