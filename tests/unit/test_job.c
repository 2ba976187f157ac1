/* Unit tests for the fio job-file parser (src/job.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job.h"
#include "steadystate.h"
#include "t.h"

#define GiB (1ULL << 30)
#define MiB (1ULL << 20)

static struct ssd_job *jobs;
static int njobs;
static char err[512];

/* Parse `text` as "t.fio" on a 1 GiB drive. */
static int parse(const char *text)
{
	free(jobs);
	jobs = NULL;
	return ssd_jobfile_parse_string(text, "t.fio", GiB, &jobs, &njobs,
					err, sizeof err);
}

/* The error is one line naming t.fio, `line` and (if given) `key`. */
static int err_ok(int line, const char *key)
{
	char where[32];
	snprintf(where, sizeof where, "t.fio:%d: ", line);
	if (strncmp(err, where, strlen(where)) || strchr(err, '\n'))
		return 0;
	if (key) {
		char k[80];
		snprintf(k, sizeof k, "'%s'", key);
		if (!strstr(err, k))
			return 0;
	}
	return 1;
}

TEST(job_defaults_are_fio_defaults)
{
	CHECKF(parse("[j]\n") == 0, "%s", err);
	CHECK(njobs == 1);
	const struct ssd_job *j = &jobs[0];
	CHECK(!strcmp(j->name, "j"));
	CHECK(!strcmp(j->file, "t.fio"));
	CHECK(j->line == 1);
	CHECK(j->rw == SSD_RW_READ);
	CHECK(j->bs == 4096 && j->nbssplit == 0);
	CHECK(j->iodepth == 1);
	CHECK(j->rwmixread == 50);
	CHECK(j->offset == 0 && j->size == GiB && j->io_size == GiB);
	CHECK(j->numjobs == 1 && j->thinktime_blocks == 1);
	CHECK(j->runtime == 0 && !j->time_based && j->ramp_time == 0);
	CHECK(j->dist == SSD_DIST_RANDOM && !j->norandommap);
	CHECK(!j->has_randseed && !j->write_bw_log[0]);
}

TEST(job_sizes_times_and_suffixes)
{
	CHECKF(parse("; comment\n"
		     "# another\n"
		     "[a]\n"
		     "rw = randwrite\n"
		     "bs=64KiB\n"
		     "offset=1m\n"
		     "size=16m   # trailing comment\n"
		     "io_size=1.5g\n"
		     "iodepth=32\n"
		     "runtime=10\n"
		     "ramp_time=500ms\n"
		     "thinktime=100\n"
		     "thinktime_blocks=8\n"
		     "numjobs=4\n"
		     "randseed=0x2a\n"
		     "log_avg_msec=1000\n"
		     "time_based\n"
		     "group_reporting\n"
		     "stonewall\n"
		     "norandommap=1\n") == 0, "%s", err);
	const struct ssd_job *j = &jobs[0];
	CHECK(j->rw == SSD_RW_RANDWRITE);
	CHECK(j->bs == 65536);
	CHECK(j->offset == MiB && j->size == 16 * MiB);
	CHECK(j->io_size == 3 * GiB / 2);
	CHECK(j->iodepth == 32);
	CHECK(j->runtime == 10 * SSD_S);
	CHECK(j->ramp_time == 500 * SSD_MS);
	CHECK(j->thinktime == 100 * SSD_US);
	CHECK(j->thinktime_blocks == 8 && j->numjobs == 4);
	CHECK(j->has_randseed && j->randseed == 42);
	CHECK(j->log_avg_msec == 1000);
	CHECK(j->time_based && j->group_reporting && j->stonewall);
	CHECK(j->norandommap);
}

TEST(job_percentages)
{
	CHECKF(parse("[a]\nsize=50%\n"
		     "[b]\noffset=25%\nsize=10%\nio_size=200%\n"
		     "[c]\noffset=75%\n") == 0, "%s", err);
	CHECK(njobs == 3);
	CHECK(jobs[0].offset == 0 && jobs[0].size == GiB / 2);
	CHECK(jobs[0].io_size == GiB / 2);
	CHECK(jobs[1].offset == GiB / 4);
	/* 10% of 1 GiB rounded down to 4 KiB */
	CHECK(jobs[1].size == (GiB / 10) / 4096 * 4096);
	CHECK(jobs[1].io_size == 2 * jobs[1].size);
	/* default size: the rest of the drive */
	CHECK(jobs[2].offset == 3 * GiB / 4 && jobs[2].size == GiB / 4);
}

TEST(job_global_inheritance)
{
	CHECKF(parse("[global]\nbs=8k\niodepth=4\nrw=randread\n"
		     "[a]\n"
		     "[b]\nbs=16k\n"
		     "[global]\niodepth=8\n"
		     "[c]\n"
		     "[a]\nrw=write\n") == 0, "%s", err);
	CHECK(njobs == 4);
	CHECK(jobs[0].bs == 8192 && jobs[0].iodepth == 4);
	CHECK(jobs[1].bs == 16384 && jobs[1].iodepth == 4);
	CHECK(jobs[2].bs == 8192 && jobs[2].iodepth == 8);
	CHECK(jobs[0].rw == SSD_RW_RANDREAD && jobs[2].rw == SSD_RW_RANDREAD);
	/* duplicate names are fine, as in fio */
	CHECK(!strcmp(jobs[3].name, "a") && jobs[3].rw == SSD_RW_WRITE);
	CHECK(jobs[3].line == 11);
}

TEST(job_aliases_and_mix)
{
	CHECKF(parse("[a]\nreadwrite=randrw\nblocksize=8k\nrwmixwrite=30\n"
		     "io_limit=1m\nwait_for_previous\n"
		     "[b]\nrw=rw\nrwmixwrite=30\nrwmixread=90\n") == 0,
	       "%s", err);
	CHECK(jobs[0].rw == SSD_RW_RANDRW && jobs[0].bs == 8192);
	CHECK(jobs[0].rwmixread == 70);
	CHECK(jobs[0].io_size == MiB && jobs[0].stonewall);
	/* the later of rwmixread/rwmixwrite wins */
	CHECK(jobs[1].rw == SSD_RW_READWRITE && jobs[1].rwmixread == 90);
}

TEST(job_bssplit)
{
	CHECKF(parse("[a]\nbssplit=4k/10:64k/50:32k/40\n") == 0, "%s", err);
	CHECK(jobs[0].nbssplit == 3);
	CHECK(jobs[0].bssplit[0].bs == 4096 && jobs[0].bssplit[0].pct == 10);
	CHECK(jobs[0].bssplit[1].bs == 65536 && jobs[0].bssplit[1].pct == 50);
	CHECK(jobs[0].bssplit[2].bs == 32768 && jobs[0].bssplit[2].pct == 40);
	/* fio's example: empty percentages share the rest */
	CHECKF(parse("[a]\nbssplit=4k/50:1k/:32k/\n") == 0, "%s", err);
	CHECK(jobs[0].bssplit[1].pct == 25 && jobs[0].bssplit[2].pct == 25);
	CHECKF(parse("[a]\nbssplit=4k:8k:16k\n") == 0, "%s", err);
	CHECK(jobs[0].bssplit[0].pct == 34 && jobs[0].bssplit[1].pct == 33 &&
	      jobs[0].bssplit[2].pct == 33);
}

TEST(job_distributions)
{
	CHECKF(parse("[a]\nrandom_distribution=zipf\n"
		     "[b]\nrandom_distribution=zipf:1.2\n"
		     "[c]\nrandom_distribution=pareto\n"
		     "[d]\nrandom_distribution=pareto:0.9\n"
		     "[e]\nrandom_distribution=zoned:60/10:30/20:8/30:2/40\n"
		     "[f]\nrandom_distribution=random\n") == 0, "%s", err);
	CHECK(jobs[0].dist == SSD_DIST_ZIPF && jobs[0].dist_param == 1.1);
	CHECK(jobs[1].dist == SSD_DIST_ZIPF && jobs[1].dist_param == 1.2);
	CHECK(jobs[2].dist == SSD_DIST_PARETO && jobs[2].dist_param == 0.2);
	CHECK(jobs[3].dist == SSD_DIST_PARETO && jobs[3].dist_param == 0.9);
	CHECK(jobs[4].dist == SSD_DIST_ZONED && jobs[4].nzones == 4);
	CHECK(jobs[4].zones[0].access_pct == 60 &&
	      jobs[4].zones[0].size_pct == 10);
	CHECK(jobs[4].zones[3].access_pct == 2 &&
	      jobs[4].zones[3].size_pct == 40);
	CHECK(jobs[5].dist == SSD_DIST_RANDOM);
}

TEST(job_name_and_logs)
{
	CHECKF(parse("[global]\nname=ignored\nwrite_bw_log\n"
		     "[a]\n"
		     "[b]\nname=bee\nwrite_iops_log=pre\nwrite_lat_log\n") == 0,
	       "%s", err);
	CHECK(!strcmp(jobs[0].name, "a"));
	CHECK(!strcmp(jobs[0].write_bw_log, "a"));
	CHECK(!jobs[0].write_iops_log[0]);
	CHECK(!strcmp(jobs[1].name, "bee"));
	CHECK(!strcmp(jobs[1].write_bw_log, "bee"));
	CHECK(!strcmp(jobs[1].write_iops_log, "pre"));
	CHECK(!strcmp(jobs[1].write_lat_log, "bee"));
}

TEST(job_no_effect_options)
{
	CHECKF(parse("[a]\nioengine=libaio\ndirect=1\nbuffered=0\n"
		     "filename=/dev/nvme0n1\nthread\ninvalidate=1\n"
		     "randrepeat=0\ndescription=a test job\n") == 0,
	       "%s", err);
	CHECK(njobs == 1);
	CHECK(parse("[a]\ndirect=0\n") == SSD_EUNSUP && err_ok(2, "direct"));
	CHECK(parse("[a]\nbuffered=1\n") == SSD_EUNSUP && err_ok(2, "buffered"));
	CHECK(parse("[a]\nioengine\n") == SSD_EPARSE && err_ok(2, "ioengine"));
}

TEST(job_crlf_bom_and_blank_lines)
{
	CHECKF(parse("\r\n[a]\r\nbs=8k\r\n\r\n  \t\n[b]\r\n") == 0, "%s", err);
	CHECK(njobs == 2 && jobs[0].bs == 8192);
	CHECKF(parse("\xef\xbb\xbf[a]\nbs=8k\n") == 0, "%s", err);
	CHECK(njobs == 1 && jobs[0].bs == 8192);
	/* control characters in a quoted value do not break the line */
	CHECK(parse("[a]\nbs=4\rk\x1b[2J\n") == SSD_EPARSE && err_ok(2, "bs"));
	for (const char *c = err; *c; c++)
		CHECK((unsigned char)*c >= 0x20 && *c != 0x7f);
}

/* One case per kind of mistake: return code, file:line and key. */
TEST(job_errors_name_file_line_key)
{
	static const struct {
		const char *text;
		int rc, line;
		const char *key;
	} cases[] = {
		{"[a]\nbs=4k\nblocksize2=8k\n", SSD_EPARSE, 3, "blocksize2"},
		{"[a]\nverify=md5\n", SSD_EUNSUP, 2, "verify"},
		{"[a]\nlatency_target=10ms\n", SSD_EUNSUP, 2, "latency_target"},
		{"[a]\nbs=4q\n", SSD_EPARSE, 2, "bs"},
		{"[a]\nbs=1000\n", SSD_ERANGE, 2, "bs"},
		{"[a]\nbs=256\n", SSD_ERANGE, 2, "bs"},
		{"[a]\nbs=4k,8k\n", SSD_EUNSUP, 2, "bs"},
		{"[a]\nblocksize=4k,8k\n", SSD_EUNSUP, 2, "blocksize"},
		{"[a]\niodepth=0\n", SSD_ERANGE, 2, "iodepth"},
		{"[a]\niodepth=65537\n", SSD_ERANGE, 2, "iodepth"},
		{"[a]\niodepth=lots\n", SSD_EPARSE, 2, "iodepth"},
		{"[a]\nrwmixread=101\n", SSD_ERANGE, 2, "rwmixread"},
		{"[a]\nnumjobs=1025\n", SSD_ERANGE, 2, "numjobs"},
		{"[a]\nrw=randwrite:8\n", SSD_EUNSUP, 2, "rw"},
		{"[a]\nrw=trimwrite\n", SSD_EUNSUP, 2, "rw"},
		{"[a]\nrw=sideways\n", SSD_EPARSE, 2, "rw"},
		{"[a]\ntime_based=maybe\n", SSD_EPARSE, 2, "time_based"},
		{"[a]\nruntime=10x\n", SSD_EPARSE, 2, "runtime"},
		{"[a]\nbssplit=4k/60:8k/30\n", SSD_ERANGE, 2, "bssplit"},
		{"[a]\nbssplit=4k/60:8k/50:16k/\n", SSD_ERANGE, 2, "bssplit"},
		{"[a]\nbssplit=4k/50,8k/50\n", SSD_EUNSUP, 2, "bssplit"},
		{"[a]\nbssplit=3000/100\n", SSD_ERANGE, 2, "bssplit"},
		{"[a]\nrandom_distribution=zoned:60/10:30/90\n", SSD_ERANGE, 2,
		 "random_distribution"},
		{"[a]\nrandom_distribution=zoned:50/60:50/60\n", SSD_ERANGE, 2,
		 "random_distribution"},
		{"[a]\nrandom_distribution=zipf:1.2:0.25\n", SSD_EUNSUP, 2,
		 "random_distribution"},
		{"[a]\nrandom_distribution=pareto:1.5\n", SSD_ERANGE, 2,
		 "random_distribution"},
		{"[a]\nrandom_distribution=normal\n", SSD_EUNSUP, 2,
		 "random_distribution"},
		{"[a]\nrandom_distribution=zipf:x\n", SSD_EPARSE, 2,
		 "random_distribution"},
		{"[a]\noffset=1000\n", SSD_ERANGE, 2, "offset"},
		{"[a]\nsize=0\n", SSD_ERANGE, 2, "size"},
		{"[a]\nsize=150%\n", SSD_ERANGE, 2, "size"},
		{"[a]\nsize=2g\n", SSD_ERANGE, 2, "size"},
		{"[a]\noffset=512m\n\nsize=768m\n", SSD_ERANGE, 4, "size"},
		{"[global]\nsize=768m\n[a]\noffset=512m\n", SSD_ERANGE, 2,
		 "size"},
		{"[a]\noffset=1g\n", SSD_ERANGE, 2, "offset"},
		{"[a]\nsize=8k\nbs=16k\n", SSD_ERANGE, 2, "size"},
		{"[a]\noffset=1020m\nbs=8m\n", SSD_ERANGE, 3, "bs"},
		{"[a]\ntime_based\n", SSD_EINVAL, 2, "time_based"},
		{"[a]\nbs\n", SSD_EPARSE, 2, "bs"},
		{"[a]\nbs=\n", SSD_EPARSE, 2, "bs"},
		{"[a]\nsize=${SIZE}\n", SSD_EUNSUP, 2, "size"},
		{"bs=4k\n[a]\n", SSD_EPARSE, 1, "bs"},
		{"[a]\n=4k\n", SSD_EPARSE, 2, NULL},
		{"[a\n", SSD_EPARSE, 1, NULL},
		{"[]\n", SSD_EPARSE, 1, NULL},
		{"[global]\nbs=4k\n", SSD_EPARSE, 2, NULL},
		{"", SSD_EPARSE, 1, NULL},
		{"[a]\ninclude other.fio\n", SSD_EUNSUP, 2, "include"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int rc = parse(cases[i].text);
		CHECKF(rc == cases[i].rc, "case %zu: rc %d, want %d (%s)", i,
		       rc, cases[i].rc, err);
		CHECKF(err_ok(cases[i].line, cases[i].key),
		       "case %zu: message '%s'", i, err);
		CHECK(jobs == NULL && njobs == 0);
	}
}

TEST(job_error_messages_read_well)
{
	CHECK(parse("[a]\nbs=4k\nblocksize2=8k\n") == SSD_EPARSE);
	CHECKF(!strncmp(err, "t.fio:3: unknown option 'blocksize2'", 36), "%s",
	       err);
	CHECK(parse("[a]\nverify=md5\n") == SSD_EUNSUP);
	CHECKF(strstr(err, "t.fio:2: option 'verify' is not supported by "
			   "ssdlab") == err, "%s", err);
	CHECK(parse("[a]\niodepth=0\n") == SSD_ERANGE);
	CHECKF(strstr(err, "(accepted: integer 1..65536)"), "%s", err);
	CHECK(parse("[a]\noffset=512m\nsize=768m\n") == SSD_ERANGE);
	CHECKF(strstr(err, "512 MiB") && strstr(err, "768 MiB") &&
	       strstr(err, "1 GiB"), "%s", err);
	CHECK(parse("[a]\nrw=randwirte\n") == SSD_EPARSE);
	CHECKF(strstr(err, "randread") != NULL, "%s", err);
	CHECK(parse("[a]\niodpeth=4\n") == SSD_EPARSE);
	CHECKF(strstr(err, "did you mean 'iodepth'"), "%s", err);
}

TEST(job_long_line_is_an_error)
{
	size_t n = 10000;
	char *text = malloc(n + 16);
	CHECK(text != NULL);
	strcpy(text, "[a]\nname=");
	size_t k = strlen(text);
	memset(text + k, 'x', n - k);
	strcpy(text + n, "\n");
	int rc = parse(text);
	free(text);
	CHECK(rc == SSD_EPARSE && err_ok(2, NULL));
	CHECK(strstr(err, "4096"));
	/* a 63-character name is fine, 64 is not */
	char buf[200];
	snprintf(buf, sizeof buf, "[%063d]\n", 7);
	CHECKF(parse(buf) == 0, "%s", err);
	snprintf(buf, sizeof buf, "[%064d]\n", 7);
	CHECK(parse(buf) == SSD_ERANGE && err_ok(1, NULL));
}

TEST(job_nul_byte_is_an_error)
{
	static const char text[] = "[a]\nbs=4k\0junk\n";
	free(jobs);
	jobs = NULL;
	/* via a file: the string API cannot carry a NUL */
	char path[] = "/tmp/ssdlab_job_XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK(write(fd, text, sizeof text - 1) == (ssize_t)(sizeof text - 1));
	close(fd);
	int rc = ssd_jobfile_parse(path, GiB, &jobs, &njobs, err, sizeof err);
	unlink(path);
	CHECK(rc == SSD_EPARSE && strstr(err, ":2: ") && strstr(err, "NUL"));
}

TEST(job_parse_file_and_missing_file)
{
	char path[] = "/tmp/ssdlab_job_XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	static const char text[] = "[global]\nrw=randwrite\n[w]\nbs=16k\n";
	CHECK(write(fd, text, sizeof text - 1) == (ssize_t)(sizeof text - 1));
	close(fd);
	free(jobs);
	jobs = NULL;
	int rc = ssd_jobfile_parse(path, GiB, &jobs, &njobs, err, sizeof err);
	CHECKF(rc == 0, "%s", err);
	CHECK(njobs == 1 && jobs[0].bs == 16384);
	CHECK(!strcmp(jobs[0].file, path) && jobs[0].line == 3);
	unlink(path);
	free(jobs);
	jobs = NULL;
	rc = ssd_jobfile_parse("/nonexistent/missing.fio", GiB, &jobs, &njobs,
			       err, sizeof err);
	CHECK(rc == SSD_EIO && jobs == NULL && njobs == 0);
	CHECKF(strstr(err, "/nonexistent/missing.fio") == err &&
	       !strchr(err, '\n'), "%s", err);
}

TEST(job_rw_names)
{
	CHECK(!strcmp(ssd_rw_name(SSD_RW_RANDWRITE), "randwrite"));
	CHECK(!strcmp(ssd_rw_name(SSD_RW_READWRITE), "readwrite"));
	CHECK(!strcmp(ssd_rw_name(SSD_RW_RANDRW), "randrw"));
	CHECK(ssd_rw_name(-1) == NULL && ssd_rw_name(99) == NULL);
}

TEST(job_doc_lists_every_option)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(f != NULL);
	ssd_job_print_doc(f);
	fclose(f);
	static const char *const names[] = {
		"`rw`", "`readwrite`", "`bssplit`", "`io_size`", "`io_limit`",
		"`random_distribution`", "`write_lat_log`", "`ioengine`",
		"`direct`", "`verify`", "`rate_iops`", "`zonemode`",
		"`fsync`"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		CHECKF(strstr(buf, names[i]) != NULL, "missing %s", names[i]);
	CHECK(strstr(buf, "## Supported options") != NULL);
	CHECK(strstr(buf, "## Not supported") != NULL);
	free(buf);
}

/* Integers as fio reads them: decimal (a leading 0 is not octal), or hex
 * after 0x -- for counts and for sizes. */
TEST(job_integers_are_decimal_or_hex)
{
	CHECKF(parse("[a]\niodepth=010\nnumjobs=0x2\nthinktime_blocks=08\n"
		     "fsync=0X10\nrwmixread=070\nbs=0x2000\nsize=010m\n"
		     "offset=0x100000\nio_size=0100m\n") == 0, "%s", err);
	CHECK(jobs[0].iodepth == 10 && jobs[0].numjobs == 2);
	CHECK(jobs[0].thinktime_blocks == 8 && jobs[0].fsync_every == 16);
	CHECK(jobs[0].rwmixread == 70 && jobs[0].bs == 8192);
	CHECK(jobs[0].size == 10 * MiB && jobs[0].offset == MiB);
	CHECK(jobs[0].io_size == 100 * MiB);
	CHECKF(parse("[a]\nbssplit=0x1000/050:8k/\nrwmixwrite=030\n") == 0, "%s", err);
	CHECK(jobs[0].bssplit[0].bs == 4096 && jobs[0].bssplit[0].pct == 50);
	CHECK(jobs[0].rwmixread == 70);
	/* times are decimal: a hex time is refused, not misread */
	CHECK(parse("[a]\nruntime=0x10\n") == SSD_EPARSE && err_ok(2, "runtime"));
	CHECK(parse("[a]\niodepth=0x\n") == SSD_EPARSE && err_ok(2, "iodepth"));
	CHECK(parse("[a]\niodepth=1e2\n") == SSD_EPARSE && err_ok(2, "iodepth"));
}

/* What a file asks of the runner is bounded where the file and line are
 * known: clones, I/Os in flight, simulated time. */
TEST(job_absurd_totals_are_refused_with_the_limit)
{
	char text[4096];
	/* numjobs x iodepth summed over the file: 16 x 65536 is the most */
	size_t n = (size_t)snprintf(text, sizeof text,
				    "[global]\niodepth=65536\nsize=1m\n");
	for (int i = 0; i < 16; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "[j%d]\n", i);
	CHECKF(parse(text) == 0, "%s", err);
	snprintf(text + n, sizeof text - n, "[last]\n");
	CHECK(parse(text) == SSD_ERANGE);
	CHECKF(err_ok(2, "iodepth") && strstr(err, "'last'") &&
	       strstr(err, "1114112 I/Os in flight") &&
	       strstr(err, "at most 1048576 in all"), "%s", err);
	/* the 32-bit product that once wrapped to a tiny allocation */
	n = (size_t)snprintf(text, sizeof text,
			     "[global]\nnumjobs=1024\niodepth=65536\n");
	for (int i = 0; i < 64; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "[j%d]\n", i);
	CHECK(parse(text) == SSD_ERANGE && err_ok(3, "iodepth"));
	CHECK(parse("[a]\nnumjobs=1024\niodepth=2048\n") == SSD_ERANGE &&
	      err_ok(3, "iodepth"));
	CHECK(parse("[a]\niodepth=2048\nnumjobs=1024\n") == SSD_ERANGE &&
	      err_ok(2, "iodepth"));
	CHECKF(parse("[global]\niodepth=1024\n[a]\nnumjobs=1024\n") == 0, "%s", err);
	CHECK(parse("[global]\niodepth=1024\n[a]\nnumjobs=1024\n[b]\n") ==
	      SSD_ERANGE && err_ok(2, "iodepth") && strstr(err, "'b'"));
	/* numjobs summed over the file: fio's 4096 */
	CHECKF(parse("[global]\nnumjobs=1024\n[a]\n[b]\n[c]\n[d]\n") == 0, "%s", err);
	CHECK(parse("[global]\nnumjobs=1024\n[a]\n[b]\n[c]\n[d]\n[e]\nnumjobs=1\n") ==
	      SSD_ERANGE);
	CHECKF(err_ok(8, "numjobs") && strstr(err, "4097 clones") &&
	       strstr(err, "at most 4096"), "%s", err);
}

TEST(job_times_that_overflow_are_refused)
{
	/* ramp_time + runtime past int64 once made the job do nothing */
	CHECK(parse("[a]\nramp_time=9223372036s\nruntime=9223372036s\n") ==
	      SSD_ERANGE);
	CHECKF(err_ok(3, "runtime") && strstr(err, "years of simulated time") &&
	       strstr(err, "at most 146 years"), "%s", err);
	CHECK(parse("[a]\nruntime=100000d\n") == SSD_ERANGE && err_ok(2, "runtime"));
	CHECKF(parse("[a]\nruntime=50000d\nramp_time=1d\n") == 0, "%s", err);
	/* thinktime after every I/O: io_size / bs of them */
	CHECK(parse("[a]\nsize=1m\nthinktime=9000000000000000us\n") == SSD_ERANGE);
	CHECKF(err_ok(3, "thinktime") && strstr(err, "146 years"), "%s", err);
	CHECK(parse("[a]\nsize=64m\nthinktime=1000d\n") == SSD_ERANGE &&
	      err_ok(3, "thinktime"));
	CHECKF(parse("[a]\nsize=64m\nthinktime=1000d\nthinktime_blocks=1024\n") == 0,
	       "%s", err);
	/* with a runtime, think time ends with the job */
	CHECKF(parse("[a]\nsize=64m\nthinktime=1000d\nruntime=10\n") == 0, "%s", err);
	/* jobs side by side count once, stonewalled groups add up */
	CHECKF(parse("[a]\nruntime=20000d\n[b]\nruntime=20000d\n[c]\n"
		     "runtime=20000d\n") == 0, "%s", err);
	CHECK(parse("[a]\nruntime=20000d\n[b]\nstonewall\nruntime=20000d\n[c]\n"
		    "stonewall\nruntime=20000d\n") == SSD_ERANGE);
	CHECKF(err_ok(8, "runtime") && strstr(err, "'c'"), "%s", err);
	/* one time alone past 2^63 ns */
	CHECK(parse("[a]\nthinktime=9223372036854776us\n") == SSD_ERANGE &&
	      err_ok(2, "thinktime"));
}

TEST(job_sizes_that_overflow_are_refused)
{
	static const struct {
		const char *text;
		const char *key;
	} cases[] = {
		{"[a]\nsize=16384p\n", "size"},
		{"[a]\nsize=99999999999999999999\n", "size"},
		{"[a]\noffset=0x10000000000000000\n", "offset"},
		{"[a]\nio_size=18446744073709551616\n", "io_size"},
		{"[a]\nio_size=1000001%\n", "io_size"},
		{"[a]\nbs=0x100000000\n", "bs"},
		{"[a]\nbssplit=4k/4294967396\n", "bssplit"},
		{"[a]\nbssplit=4294967296k/100\n", "bssplit"},
		{"[a]\niodepth=4294967297\n", "iodepth"},
		{"[a]\nnumjobs=18446744073709551617\n", "numjobs"},
		{"[a]\nrwmixread=4294967396\n", "rwmixread"},
		{"[a]\nlog_avg_msec=9223372036854775808\n", "log_avg_msec"},
		{"[a]\nrandseed=18446744073709551616\n", "randseed"},
		{"[a]\nthinktime_blocks=4294967296\n", "thinktime_blocks"},
		{"[a]\nsize=nan%\n", "size"},
		{"[a]\noffset=inf%\n", "offset"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int rc = parse(cases[i].text);
		CHECKF(rc == SSD_ERANGE || rc == SSD_EPARSE, "case %zu: rc %d", i, rc);
		CHECKF(err_ok(2, cases[i].key), "case %zu: %s", i, err);
		CHECK(jobs == NULL);
	}
	/* big integers are exact, not rounded through a double */
	CHECKF(parse("[a]\nio_size=9007199254740993\n") == 0, "%s", err);
	CHECK(jobs[0].io_size == 9007199254740993ULL);
	CHECKF(parse("[a]\nrandseed=18446744073709551615\n") == 0, "%s", err);
	CHECK(jobs[0].randseed == UINT64_MAX);
}

/* Pacing options: per-direction values as fio reads them (one value for
 * all, empty entries unlimited), fio's defaults and clamps. */
TEST(job_pacing_options)
{
	CHECKF(parse("[a]\nrate=1m\n[b]\nrate=500k,\n[c]\nrate=,2m\n"
		     "[d]\nrate_iops=10,20,30\nrate_iops_min=1,,3\n") == 0,
	       "%s", err);
	CHECK(jobs[0].rate[0] == 1048576 && jobs[0].rate[1] == 1048576 &&
	      jobs[0].rate[2] == 1048576);
	CHECK(jobs[1].rate[0] == 512000 && jobs[1].rate[1] == 0 &&
	      jobs[1].rate[2] == 0);
	CHECK(jobs[2].rate[0] == 0 && jobs[2].rate[1] == 2097152);
	CHECK(jobs[3].rate_iops[2] == 30 && jobs[3].rate_iops_min[1] == 0 &&
	      jobs[3].rate_iops_min[2] == 3);
	/* defaults, resolved when the job ends */
	CHECKF(parse("[a]\niodepth=16\n[b]\niodepth=8\niodepth_low=20\n"
		     "iodepth_batch=0\niodepth_batch_complete_min=4\n"
		     "thinktime=1ms\nthinktime_spin=5ms\n") == 0, "%s", err);
	CHECK(jobs[0].iodepth_low == 16 && jobs[0].iodepth_batch == 1 &&
	      jobs[0].iodepth_batch_complete_min == 1 &&
	      jobs[0].iodepth_batch_complete_max == 1);
	CHECK(jobs[0].ratecycle == 1000 * SSD_MS && !jobs[0].rate_poisson);
	CHECK(jobs[1].iodepth_low == 8 && jobs[1].iodepth_batch == 8 &&
	      jobs[1].iodepth_batch_complete_max == 4);
	CHECK(jobs[1].thinktime_spin == SSD_MS);
	CHECKF(parse("[a]\nstartdelay=2\n[b]\nstartdelay=1ms-3ms\n"
		     "rate_process=poisson\nio_submit_mode=offload\n"
		     "thinktime_blocks_type=issue\nthinktime_iotime=2\n"
		     "[c]\nwait_for=a\nnew_group\nexitall\nflow=3\nflow_id=2\n"
		     "flow_sleep=100\nend_fsync\nfsync_on_close=1\n"
		     "flow_watermark=5\n") == 0, "%s", err);
	CHECK(jobs[0].startdelay == 2 * SSD_S &&
	      jobs[0].startdelay_hi == 2 * SSD_S);
	CHECK(jobs[1].startdelay == SSD_MS && jobs[1].startdelay_hi == 3 * SSD_MS);
	CHECK(jobs[1].rate_poisson && jobs[1].io_submit_offload &&
	      jobs[1].thinktime_issue && jobs[1].thinktime_iotime == 2 * SSD_S);
	CHECK(!strcmp(jobs[2].wait_for, "a") && jobs[2].new_group &&
	      jobs[2].exitall && jobs[2].flow == 3 && jobs[2].flow_id == 2 &&
	      jobs[2].flow_sleep == 100 * SSD_US && jobs[2].end_fsync &&
	      jobs[2].fsync_on_close);
	/* the checks between options */
	CHECK(parse("[a]\nrate=1m\nrate_iops=5\n") == SSD_EINVAL &&
	      err_ok(3, "rate_iops"));
	CHECK(parse("[a]\nrate_iops=5\nrate_iops_min=6\n") == SSD_EINVAL &&
	      err_ok(3, "rate_iops_min"));
	CHECK(parse("[a]\n[b]\nwait_for=c\n[c]\n") == SSD_EINVAL &&
	      err_ok(3, "wait_for"));
	CHECK(parse("[a]\n[a]\n[b]\nwait_for=a\n") == SSD_EINVAL &&
	      err_ok(4, "wait_for") && strstr(err, "more than one"));
	CHECK(parse("[a]\nrate=1\nio_size=100g\nsize=1m\n") == SSD_ERANGE &&
	      err_ok(2, "rate") && strstr(err, "146 years"));
}

/* steadystate: fio's criteria, limits in % or absolute (bw as a size). */
TEST(job_steadystate_options)
{
	CHECKF(parse("[a]\nss=bw:10m\nss_dur=10\nss_ramp=5\n"
		     "[b]\nsteadystate=lat_slope:0.5%\nss_dur=4s\n"
		     "[c]\nss_dur=2\n") == 0, "%s", err);
	CHECK(jobs[0].ss_state == SSD_SS_BW && jobs[0].ss_limit == 10485760.0);
	CHECK(jobs[0].ss_dur == 10 * SSD_S && jobs[0].ss_ramp == 5 * SSD_S &&
	      jobs[0].ss_interval == SSD_S);
	CHECK(jobs[1].ss_state == (SSD_SS_LAT | SSD_SS_SLOPE | SSD_SS_PCT) &&
	      jobs[1].ss_limit == 0.5);
	/* fio's default criterion: iops_slope:0.01% */
	CHECK(jobs[2].ss_state == (SSD_SS_IOPS | SSD_SS_SLOPE | SSD_SS_PCT) &&
	      jobs[2].ss_limit == 0.01);
	CHECK(parse("[a]\nss=iops:-1\n") == SSD_ERANGE && err_ok(2, "ss"));
	CHECK(parse("[a]\nss_dur=1\n") == SSD_ERANGE && err_ok(2, "ss_dur"));
}
