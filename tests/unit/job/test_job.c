/* Unit tests for the fio job-file parser (src/job/job_*.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job/job.h"
#include "job/steadystate.h"
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
	CHECK(j->bs[0] == 4096 && j->nbssplit[0] == 0);
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
		     "bs=64kB\n"
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
	CHECK(j->bs[0] == 65536);
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

/* size=1000000000, an ordinary "1 GB" in fio, was refused as not a
 * multiple of 4 KiB: fio runs it in whole blocks, and so does ssdlab. */
TEST(job_size_not_whole_blocks_is_cut_to_whole_blocks)
{
	CHECKF(parse("[a]\nrw=write\nsize=1000000000\n") == 0, "%s", err);
	CHECK(jobs[0].size == 244140ULL * 4096);
	CHECK(jobs[0].io_size == jobs[0].size);
	CHECK(jobs[0].cut_key && !strcmp(jobs[0].cut_key, "size"));
	CHECK(jobs[0].cut_lo == 1000000000 && jobs[0].cut_hi == 1000000000);
	/* whole blocks of the job's block size, not of 4 KiB (fio: one
	 * 8 KiB write) */
	CHECKF(parse("[a]\nrw=write\nbs=8k\nsize=12k\n") == 0, "%s", err);
	CHECK(jobs[0].size == 8192 && jobs[0].cut_lo == 12288);
	/* of the smallest block of the directions the job uses */
	CHECKF(parse("[a]\nrw=randrw\nbs=4k,64k\nsize=100000\n") == 0,
	       "%s", err);
	CHECK(jobs[0].size == 24 * 4096);
	CHECKF(parse("[a]\nrw=write\nbsrange=4k-16k\nsize=10000000\n") == 0,
	       "%s", err);
	CHECK(jobs[0].size == 2441 * 4096);
	CHECKF(parse("[a]\nrw=write\nbs=512\nsize=1000000000\n") == 0,
	       "%s", err);
	CHECK(jobs[0].size == 1000000000 && !jobs[0].cut_key);
	/* whole blocks, percentages and the default: nothing noted */
	CHECKF(parse("[a]\nsize=1m\n[b]\nsize=10%\n[c]\nbs=64k\n"
		     "offset=4k\n") == 0, "%s", err);
	CHECK(!jobs[0].cut_key && !jobs[1].cut_key && !jobs[2].cut_key);
	CHECK(jobs[2].size == GiB - 4096); /* the drive, to its end */
	/* io_size is not rounded (fio issues I/O until it is reached) */
	CHECKF(parse("[a]\nsize=1m\nio_size=5000\n") == 0, "%s", err);
	CHECK(jobs[0].io_size == 5000 && !jobs[0].cut_key);
	/* less than a block is still refused, with the size as written */
	CHECK(parse("[a]\nsize=3000\n") == SSD_ERANGE);
	CHECKF(err_ok(2, "size") && strstr(err, "(2.93 KiB)"), "%s", err);
	/* offsets are sectors: fio takes any byte, the drive's unit is
	 * 512 B */
	CHECKF(parse("[a]\noffset=2560\nsize=1m\nnumjobs=2\n"
		     "offset_increment=1536\n") == 0, "%s", err);
	CHECK(jobs[0].offset == 2560);
	CHECK(parse("[a]\noffset=5000\n") == SSD_ERANGE);
	CHECKF(err_ok(2, "offset") && strstr(err, "512 B"), "%s", err);
	/* zoned_abs zones of any size */
	CHECKF(parse("[a]\nrw=randread\nsize=1m\n"
		     "random_distribution=zoned_abs:50/10000:50/\n") == 0,
	       "%s", err);
	CHECK(jobs[0].zones[0][0].size_bytes == 10000);
	CHECK(jobs[0].zones[0][1].size_bytes == MiB - 10000);
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
	CHECK(jobs[0].bs[0] == 8192 && jobs[0].iodepth == 4);
	CHECK(jobs[1].bs[0] == 16384 && jobs[1].iodepth == 4);
	CHECK(jobs[2].bs[0] == 8192 && jobs[2].iodepth == 8);
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
	CHECK(jobs[0].rw == SSD_RW_RANDRW && jobs[0].bs[0] == 8192);
	CHECK(jobs[0].rwmixread == 70);
	CHECK(jobs[0].io_size == MiB && jobs[0].stonewall);
	/* the later of rwmixread/rwmixwrite wins */
	CHECK(jobs[1].rw == SSD_RW_READWRITE && jobs[1].rwmixread == 90);
}

TEST(job_bssplit)
{
	CHECKF(parse("[a]\nbssplit=4k/10:64k/50:32k/40\n") == 0, "%s", err);
	CHECK(jobs[0].nbssplit[0] == 3);
	CHECK(jobs[0].bssplit[0][0].bs == 4096 && jobs[0].bssplit[0][0].pct == 10);
	CHECK(jobs[0].bssplit[0][1].bs == 65536 && jobs[0].bssplit[0][1].pct == 50);
	CHECK(jobs[0].bssplit[0][2].bs == 32768 && jobs[0].bssplit[0][2].pct == 40);
	/* fio's example: empty percentages share the rest */
	CHECKF(parse("[a]\nbssplit=4k/50:1k/:32k/\n") == 0, "%s", err);
	CHECK(jobs[0].bssplit[0][1].pct == 25 && jobs[0].bssplit[0][2].pct == 25);
	CHECKF(parse("[a]\nbssplit=4k:8k:16k\n") == 0, "%s", err);
	CHECK(jobs[0].bssplit[0][0].pct == 34 && jobs[0].bssplit[0][1].pct == 33 &&
	      jobs[0].bssplit[0][2].pct == 33);
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
	CHECK(jobs[4].dist == SSD_DIST_ZONED && jobs[4].nzones[0] == 4);
	CHECK(jobs[4].zones[0][0].access_pct == 60 &&
	      jobs[4].zones[0][0].size_pct == 10);
	CHECK(jobs[4].zones[0][3].access_pct == 2 &&
	      jobs[4].zones[0][3].size_pct == 40);
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
	CHECK(!jobs[0].buffered);
	const char *names[16];
	int n = ssd_job_noeffect(&jobs[0], names, 16);
	CHECKF(n == 7 && !strcmp(names[0], "ioengine"), "%d", n);
	CHECK(parse("[a]\ndirect=0\n") == 0 && jobs[0].buffered);
	CHECK(parse("[a]\nbuffered=1\n") == 0 && jobs[0].buffered);
	CHECK(parse("[a]\nbuffered=1\ndirect=1\n") == 0 && !jobs[0].buffered);
	CHECK(parse("[a]\ndirect=2\n") == SSD_EPARSE && err_ok(2, "direct"));
	CHECK(parse("[a]\n") == 0 && ssd_job_noeffect(&jobs[0], names, 16) == 0);
	CHECK(parse("[a]\nioengine\n") == SSD_EPARSE && err_ok(2, "ioengine"));
}

TEST(job_crlf_bom_and_blank_lines)
{
	CHECKF(parse("\r\n[a]\r\nbs=8k\r\n\r\n  \t\n[b]\r\n") == 0, "%s", err);
	CHECK(njobs == 2 && jobs[0].bs[0] == 8192);
	CHECKF(parse("\xef\xbb\xbf[a]\nbs=8k\n") == 0, "%s", err);
	CHECK(njobs == 1 && jobs[0].bs[0] == 8192);
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
		{"[a]\nmerge_blktrace_file=m.log\n", SSD_EUNSUP, 2, "merge_blktrace_file"},
		{"[a]\nmax_open_zones=5000\n", SSD_ERANGE, 2, "max_open_zones"},
		{"[a]\nbs=4q\n", SSD_EPARSE, 2, "bs"},
		{"[a]\nbs=1000\n", SSD_ERANGE, 2, "bs"},
		{"[a]\nbs=256\n", SSD_ERANGE, 2, "bs"},
		{"[a]\nbs=4k,8k,4k,4k\n", SSD_EPARSE, 2, "bs"},
		{"[a]\nblocksize=4k,8q\n", SSD_EPARSE, 2, "blocksize"},
		{"[a]\nbs=4k,1000\n", SSD_ERANGE, 2, "bs"},
		{"[a]\niodepth=0\n", SSD_ERANGE, 2, "iodepth"},
		{"[a]\niodepth=65537\n", SSD_ERANGE, 2, "iodepth"},
		{"[a]\niodepth=lots\n", SSD_EPARSE, 2, "iodepth"},
		{"[a]\nrwmixread=101\n", SSD_ERANGE, 2, "rwmixread"},
		{"[a]\nnumjobs=1025\n", SSD_ERANGE, 2, "numjobs"},
		{"[a]\nrw=randwrite:0\n", SSD_ERANGE, 2, "rw"},
		{"[a]\nrw=randwrite:-8\n", SSD_ERANGE, 2, "rw"},
		{"[a]\nrw=randwrite:x\n", SSD_EPARSE, 2, "rw"},
		{"[a]\nrw=write:1000\n", SSD_ERANGE, 2, "rw"},
		{"[a]\nrw=write:\n", SSD_EPARSE, 2, "rw"},
		{"[a]\nsize=64k\nrw=read:-64k\n", SSD_ERANGE, 3, "rw"},
		{"[a]\nrw=filecreate\n", SSD_EUNSUP, 2, "rw"},
		{"[a]\nrw=sideways\n", SSD_EPARSE, 2, "rw"},
		{"[a]\ntime_based=maybe\n", SSD_EPARSE, 2, "time_based"},
		{"[a]\nrate_process=gauss\n", SSD_EPARSE, 2, "rate_process"},
		{"[a]\nrandom_generator=mt\n", SSD_EPARSE, 2, "random_generator"},
		{"[a]\nio_submit_mode\n", SSD_EPARSE, 2, "io_submit_mode"},
		{"[a]\nruntime=10x\n", SSD_EPARSE, 2, "runtime"},
		{"[a]\nbssplit=4k/60:8k/30\n", SSD_ERANGE, 2, "bssplit"},
		{"[a]\nbssplit=4k/60:8k/50:16k/\n", SSD_ERANGE, 2, "bssplit"},
		{"[a]\nbssplit=4k/50,8k/50:16k/40\n", SSD_ERANGE, 2, "bssplit"},
		{"[a]\nbsrange=8k-4k\n", SSD_ERANGE, 2, "bsrange"},
		{"[a]\nbsrange=4k\n", SSD_EPARSE, 2, "bsrange"},
		{"[a]\nblocksize_range=4k-9000\n", SSD_ERANGE, 2,
		 "blocksize_range"},
		{"[a]\nsize=64k\nbsrange=4k-128k\n", SSD_ERANGE, 2, "size"},
		{"[a]\nbsrange=4k-2g\n", SSD_ERANGE, 2, "bsrange"},
		{"[a]\nba=4k,100\n", SSD_ERANGE, 2, "ba"},
		{"[a]\npercentage_random=101\n", SSD_ERANGE, 2,
		 "percentage_random"},
		{"[a]\npercentage_random=50,x\n", SSD_EPARSE, 2,
		 "percentage_random"},
		{"[a]\nrw_sequencer=random\n", SSD_EPARSE, 2, "rw_sequencer"},
		{"[a]\nrandom_generator=mt19937\n", SSD_EPARSE, 2,
		 "random_generator"},
		{"[a]\nnumber_ios=-1\n", SSD_EPARSE, 2, "number_ios"},
		{"[a]\nloops=0\n", SSD_ERANGE, 2, "loops"},
		{"[a]\nbssplit=3000/100\n", SSD_ERANGE, 2, "bssplit"},
		{"[a]\nrandom_distribution=zoned:60/10:30/90\n", SSD_ERANGE, 2,
		 "random_distribution"},
		{"[a]\nrandom_distribution=zoned:50/60:50/60\n", SSD_ERANGE, 2,
		 "random_distribution"},
		{"[a]\nrandom_distribution=zipf:1.2:1.5\n", SSD_ERANGE, 2,
		 "random_distribution"},
		{"[a]\nrandom_distribution=zipf:1.2,zipf:1.1\n", SSD_EPARSE, 2,
		 "random_distribution"},
		{"[a]\nrandom_distribution=normal:100\n", SSD_ERANGE, 2,
		 "random_distribution"},
		{"[a]\nrandom_distribution=zoned:50/10:50/\n"
		 "random_distribution=zoned:50/:50/10\n", SSD_EPARSE, 3,
		 "random_distribution"},
		{"[a]\nrandom_distribution=zoned:50/100:50/\n", SSD_ERANGE, 2,
		 "random_distribution"},
		{"[a]\nsize=1m\nrandom_distribution=zoned_abs:50/1m:50/4k\n",
		 SSD_ERANGE, 3, "random_distribution"},
		{"[a]\nrandom_distribution=zoned_abs:50/0:50/\n", SSD_ERANGE,
		 2, "random_distribution"},
		{"[a]\nrandom_distribution=zoned:50/50:50/50,60/50:50/50\n",
		 SSD_ERANGE, 2, "random_distribution"},
		{"[a]\nrandom_distribution=sequence:2,x\n", SSD_EPARSE, 2,
		 "random_distribution"},
		{"[a]\nrandom_distribution=sequence\n", SSD_EPARSE, 2,
		 "random_distribution"},
		{"[a]\nrandom_distribution=pareto:1.5\n", SSD_ERANGE, 2,
		 "random_distribution"},
		{"[a]\nrandom_distribution=normal\n", SSD_EPARSE, 2,
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
		{"[a]\nbs\n", SSD_EPARSE, 2, "bs"},
		{"[a]\nbs=\n", SSD_EPARSE, 2, "bs"},
		{"[a]\nsize=${SSDLAB_UNSET_VAR}\n", SSD_EPARSE, 2, "size"},
		{"bs=4k\n[a]\n", SSD_EPARSE, 1, "bs"},
		{"[a]\n=4k\n", SSD_EPARSE, 2, NULL},
		{"[a\n", SSD_EPARSE, 1, NULL},
		{"[]\n", SSD_EPARSE, 1, NULL},
		{"[global]\nbs=4k\n", SSD_EPARSE, 2, NULL},
		{"", SSD_EPARSE, 1, NULL},
		{"[a]\ninclude other.fio\n", SSD_EIO, 2, "other.fio"},
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
	CHECK(parse("[a]\nmerge_blktrace_file=m.log\n") == SSD_EUNSUP);
	CHECKF(strstr(err, "t.fio:2: option 'merge_blktrace_file' is not "
			   "supported by ssdlab") == err, "%s", err);
	/* a trace that is not there is named with the option */
	CHECK(parse("[a]\nread_iolog=/nonexistent/t.log\n") == SSD_EIO);
	CHECKF(strstr(err, "t.fio:2: option 'read_iolog': /nonexistent/t.log: ") == err,
	       "%s", err);
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
	CHECK(njobs == 1 && jobs[0].bs[0] == 16384);
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
	CHECK(jobs[0].rwmixread == 70 && jobs[0].bs[0] == 8192);
	CHECK(jobs[0].size == 10 * MiB && jobs[0].offset == MiB);
	CHECK(jobs[0].io_size == 100 * MiB);
	CHECKF(parse("[a]\nbssplit=0x1000/050:8k/\nrwmixwrite=030\n") == 0, "%s", err);
	CHECK(jobs[0].bssplit[0][0].bs == 4096 && jobs[0].bssplit[0][0].pct == 50);
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
	/* ramp_time + runtime past int64 once made the job do nothing; each
	 * is now at most 146 years, their sum too */
	CHECK(parse("[a]\nramp_time=9223372036s\nruntime=9223372036s\n") ==
	      SSD_ERANGE);
	CHECKF(err_ok(2, "ramp_time") && strstr(err, "too long") &&
	       strstr(err, "146 years"), "%s", err);
	CHECK(parse("[a]\nramp_time=3000000000s\nruntime=3000000000s\n") ==
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

/* Every time is at most 146 years (half of int64_t ns), so the runner
 * can add any one of them to a time within the span: ss_ramp + the
 * interval, a flow_sleep after the last issue once overflowed. */
TEST(job_each_time_is_at_most_146_years)
{
	static const char *const keys[] = {
		"runtime", "ramp_time", "thinktime", "thinktime_spin",
		"thinktime_iotime", "rate_cycle", "flow_sleep", "ss_dur",
		"ss_ramp", "ss_interval", "latency_target", "latency_window",
		"startdelay"};
	char text[128];
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		/* 2^62 ns is 53375.99 days */
		snprintf(text, sizeof text, "[a]\n%s=53376d\n", keys[i]);
		CHECKF(parse(text) == SSD_ERANGE && err_ok(2, keys[i]) &&
		       strstr(err, "too long, more than 146 years"), "%s: %s",
		       keys[i], err);
		snprintf(text, sizeof text, "[a]\n%s=9223372036854775807ns\n",
			 keys[i]);
		CHECKF(parse(text) == SSD_ERANGE && err_ok(2, keys[i]), "%s: %s",
		       keys[i], err);
	}
	CHECKF(parse("[a]\nss_ramp=53375d\nflow_sleep=53375d\n"
		     "latency_window=53375d\nrate_cycle=53375d\n") == 0, "%s", err);
	CHECK(parse("[a]\nstartdelay=1s-53376d\n") == SSD_ERANGE &&
	      err_ok(2, "startdelay") && strstr(err, "53376d is too long"));
	CHECK(parse("[a]\nstartdelay=99999999999999999999s-1s\n") == SSD_ERANGE &&
	      err_ok(2, "startdelay") && strstr(err, "99999999999999999999s"));
}

/* The span counts every time the runner adds up: flow_sleep after every
 * I/O of a flow, a latency_target's last window (a runtime anew), the
 * startdelay -- and names the term that is largest. */
TEST(job_span_counts_flow_sleep_startdelay_and_latency_target)
{
	CHECK(parse("[a]\nsize=1m\nflow=1\nflow_sleep=1000d\n") == SSD_ERANGE);
	CHECKF(err_ok(4, "flow_sleep") && strstr(err, "146 years"), "%s", err);
	CHECKF(parse("[a]\nsize=1m\nflow_sleep=1000d\n") == 0, "%s", err);
	CHECKF(parse("[a]\nsize=1m\nflow=1\nflow_sleep=1000d\nruntime=1\n") == 0,
	       "%s", err);
	CHECKF(parse("[a]\nsize=1m\nflow=1\nflow_sleep=100d\n") == 0, "%s", err);
	/* once named 'rate_iops' at the section's line */
	CHECK(parse("[a]\nstartdelay=0-40000d\nruntime=20000d\n") == SSD_ERANGE);
	CHECKF(err_ok(2, "startdelay") && !strstr(err, "'rate_iops'"), "%s", err);
	CHECK(parse("[a]\nruntime=30000d\nlatency_target=1ms\n") == SSD_ERANGE);
	CHECKF(err_ok(2, "runtime"), "%s", err);
	CHECKF(parse("[a]\nruntime=30000d\n") == 0, "%s", err);
}

/* Arithmetic in values is exact in 64-bit integers, as fio's: no
 * rounding through a double past 2^53, no wrapping past 2^63. */
TEST(job_arithmetic_is_exact_and_checked)
{
	CHECKF(parse("[a]\nrandseed=(9007199254740993)\n"
		     "number_ios=(9007199254740992+1)\n") == 0, "%s", err);
	CHECK(jobs[0].randseed == 9007199254740993ULL);
	CHECK(jobs[0].number_ios == 9007199254740993ULL);
	CHECKF(parse("[a]\nrandseed=(3*3074457345618258602+1)\n") == 0, "%s", err);
	CHECK(jobs[0].randseed == 9223372036854775807ULL);
	CHECKF(parse("[a]\nrandseed=(2^62+(2^62-1))\n") == 0, "%s", err);
	CHECK(jobs[0].randseed == 9223372036854775807ULL);
	static const char *const over[] = {
		"(2^63)", "(2^62*2)", "(2^62+2^62)", "(4611686018427387904*4-1)",
		"(18446744073709551615)", "(-9223372036854775807-2)",
		"(2*(2^63-1+1))"};
	char text[128];
	for (size_t i = 0; i < sizeof over / sizeof over[0]; i++) {
		snprintf(text, sizeof text, "[a]\nrandseed=%s\n", over[i]);
		CHECKF(parse(text) == SSD_ERANGE && err_ok(2, "randseed") &&
		       strstr(err, "overflows"), "%s: %s", over[i], err);
	}
	CHECK(parse("[a]\nsize=(8192p*2)\n") == SSD_ERANGE &&
	      err_ok(2, "size") && strstr(err, "overflows"));
	CHECK(parse("[a]\nruntime=(9223372036854775807)\n") == SSD_ERANGE &&
	      err_ok(2, "runtime"));
	CHECK(parse("[a]\niodepth=(4/0)\n") == SSD_ERANGE &&
	      err_ok(2, "iodepth") && strstr(err, "divides by zero"));
	CHECK(parse("[a]\niodepth=(2*(4%0*2))\n") == SSD_ERANGE &&
	      strstr(err, "divides by zero"));
	/* fractions are floating point; a whole result is an integer */
	CHECKF(parse("[a]\nbs=(1.5*2k*2)\niodepth=(1.5*2/4+7/2)\n"
		     "thinktime=(0.5ms)\n") == 0, "%s", err);
	CHECK(jobs[0].bs[0] == 6144 && jobs[0].iodepth == 3);
	CHECK(jobs[0].thinktime == 500 * SSD_US);
	CHECK(parse("[a]\niodepth=(11/2.0+0.5)\n") == SSD_ERANGE &&
	      strstr(err, "not a whole number"));
}

/* Sums of sizes from one option, and the clones' offsets, are checked
 * where they are combined. */
TEST(job_size_sums_that_wrap_are_refused)
{
	/* 2 x 2^63 wrapped to 0 and the job ran with these zones */
	CHECK(parse("[a]\nrw=randread\nsize=1m\n"
		    "random_distribution=zoned_abs:50/8192p:50/8192p\n") ==
	      SSD_ERANGE);
	CHECKF(err_ok(4, "random_distribution") && strstr(err, "over 16384 PiB"),
	       "%s", err);
	CHECK(parse("[a]\nrw=randread\nsize=1m\n"
		    "random_distribution=zoned_abs:50/16384p:50/4k\n") ==
	      SSD_ERANGE && strstr(err, "too large"));
	CHECKF(parse("[a]\nrw=randread\nsize=1m\n"
		     "random_distribution=zoned_abs:50/512k:50/512k\n") == 0,
	       "%s", err);
	/* offset + (numjobs-1) x offset_increment past 2^64 */
	CHECK(parse("[a]\nsize=1m\nnumjobs=5\noffset_increment=4096p\n") ==
	      SSD_ERANGE);
	CHECKF(err_ok(4, "offset_increment") && strstr(err, "past 2^64"), "%s",
	       err);
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

/* The options as written, for the report's "global options" and "job
 * options": the section's own pairs in order, a key set again replacing
 * its pair, bare keys left out, values as written. */
TEST(job_options_as_written)
{
	CHECKF(parse("[global]\nsize=16m\nbs=4k\nnorandommap\n"
		     "[a]\nrw=randwrite\nbs=8k\nruntime=10ms\nbs=16k\n"
		     "blocksize=32k\n"
		     "[b]\nrw=read\n") == 0, "%s", err);
	const char *k, *v;
	uint32_t pos = 0;
	char buf[256] = "";
	while (ssd_job_raw_next(&jobs[0], 1, &pos, &k, &v))
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s=%s;", k, v);
	CHECKF(!strcmp(buf, "size=16m;bs=4k;"), "global: %s", buf);
	pos = 0;
	buf[0] = 0;
	while (ssd_job_raw_next(&jobs[0], 0, &pos, &k, &v))
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s=%s;", k, v);
	CHECKF(!strcmp(buf, "rw=randwrite;runtime=10ms;bs=32k;"), "job a: %s", buf);
	pos = 0;
	buf[0] = 0;
	while (ssd_job_raw_next(&jobs[1], 0, &pos, &k, &v))
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s=%s;", k, v);
	CHECKF(!strcmp(buf, "rw=read;"), "job b: %s", buf);
	CHECK(jobs[1].bs[0] == 4096 && jobs[0].bs[0] == 32768);

	/* more text than a job holds is refused, naming the option */
	char *big = malloc(3 * SSD_JOB_RAW_MAX);
	static const char *const keys[] = {"description", "filename",
					   "ioengine"};
	strcpy(big, "[a]\n");
	for (int i = 0; i < 3; i++) {
		strcat(big, keys[i]);
		strcat(big, "=");
		size_t n = strlen(big);
		memset(big + n, 'x', 4000);
		strcpy(big + n + 4000, "\n");
	}
	int rc = parse(big);
	CHECKF(rc == SSD_ERANGE && strstr(err, "t.fio:4: option 'ioengine'") &&
	       strstr(err, "accepted: up to"), "rc %d: %s", rc, err);
	free(big);
}

/* logs and output options: values and ranges */
TEST(job_log_options)
{
	CHECKF(parse("[a]\nwrite_hist_log\nlog_hist_msec=100\n"
		     "log_hist_coarseness=3\nlog_offset=1\nlog_prio\n"
		     "per_job_logs=0\n") == 0, "%s", err);
	CHECK(!strcmp(jobs[0].write_hist_log, "a"));
	CHECK(jobs[0].log_hist_msec == 100 && jobs[0].log_hist_coarseness == 3);
	CHECK(jobs[0].log_offset == 1 && jobs[0].log_prio == 1);
	CHECK(jobs[0].per_job_logs == 0);
	CHECKF(parse("[a]\n") == 0, "%s", err);
	CHECK(jobs[0].per_job_logs == 1 && !jobs[0].log_offset &&
	      !jobs[0].write_hist_log[0]);
	CHECK(parse("[a]\nlog_hist_coarseness=7\n") == SSD_ERANGE &&
	      err_ok(2, "log_hist_coarseness"));
	CHECK(parse("[a]\nlog_offset=maybe\n") == SSD_EPARSE &&
	      err_ok(2, "log_offset"));
	CHECK(parse("[a]\nlog_hist_msec=-1\n") != 0 && err_ok(2, "log_hist_msec"));
}

TEST(job_kb_base_and_fio_suffixes)
{
	/* fio's rule: under kb_base=1024 k/kB are 1024 and KiB is 1000;
	 * under 1000 the other way round */
	uint64_t v;
	CHECK(ssd_parse_size_kb("4k", 1024, &v) == 0 && v == 4096);
	CHECK(ssd_parse_size_kb("4kB", 1024, &v) == 0 && v == 4096);
	CHECK(ssd_parse_size_kb("4ki", 1024, &v) == 0 && v == 4096);
	CHECK(ssd_parse_size_kb("4KiB", 1024, &v) == 0 && v == 4000);
	CHECK(ssd_parse_size_kb("1MiB", 1024, &v) == 0 && v == 1000000);
	CHECK(ssd_parse_size_kb("4k", 1000, &v) == 0 && v == 4000);
	CHECK(ssd_parse_size_kb("4KB", 1000, &v) == 0 && v == 4000);
	CHECK(ssd_parse_size_kb("4KiB", 1000, &v) == 0 && v == 4096);
	CHECK(ssd_parse_size_kb("1g", 1000, &v) == 0 && v == 1000000000);
	CHECK(ssd_parse_size_kb("512b", 1000, &v) == 0 && v == 512);
	CHECK(ssd_parse_size_kb("4kx", 1024, &v) == SSD_EPARSE);

	CHECKF(parse("[a]\nkb_base=1000\nsize=8192k\nbs=4KiB\n") == 0, "%s",
	       err);
	CHECK(jobs[0].size == 8192000 && jobs[0].bs[0] == 4096);
	/* kb_base applies to its whole section, wherever it stands */
	CHECKF(parse("[a]\nbs=8KiB\nkb_base=1000\noffset=4096k\n") == 0, "%s",
	       err);
	CHECK(jobs[0].bs[0] == 8192 && jobs[0].offset == 4096000);
	/* inherited from [global]; a job may change it back */
	CHECKF(parse("[global]\nkb_base=1000\n[a]\nbs=4KiB\n[b]\nbs=8k\n"
		     "kb_base=1024\n") == 0, "%s", err);
	CHECK(jobs[0].bs[0] == 4096 && jobs[1].bs[0] == 8192);
	CHECK(parse("[a]\nkb_base=512\n") == SSD_EPARSE &&
	      err_ok(2, "kb_base") && strstr(err, "1024 or 1000"));
	/* the default: 4KiB is 4000 bytes, not a multiple of 512 */
	CHECK(parse("[a]\nbs=4KiB\n") == SSD_ERANGE && err_ok(2, "bs"));
}

TEST(job_arithmetic_keywords_and_env)
{
	CHECKF(parse("[a]\nbs=(4096*2)\niodepth=(2+3*2)\nsize=(2*8m)\n"
		     "runtime=(1000000)\nthinktime=(2ms+500)\n") == 0, "%s", err);
	CHECK(jobs[0].bs[0] == 8192 && jobs[0].iodepth == 8);
	CHECK(jobs[0].size == 16 * MiB);
	CHECK(jobs[0].runtime == SSD_S);                /* microseconds */
	CHECK(jobs[0].thinktime == 2 * SSD_MS + 500 * SSD_US);
	CHECK(parse("[a]\niodepth=(2+)\n") == SSD_EPARSE &&
	      err_ok(2, "iodepth") && strstr(err, "arithmetic"));
	CHECK(parse("[a]\niodepth=(4/0)\n") == SSD_ERANGE &&
	      err_ok(2, "iodepth"));
	CHECK(parse("[a]\niodepth=(1-2)\n") == SSD_ERANGE);

	long page = sysconf(_SC_PAGESIZE);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	CHECKF(parse("[a]\nbs=$pagesize\nsize=2*$pagesize\n"
		     "numjobs=$ncpus\n") == 0, "%s", err);
	CHECK(jobs[0].bs[0] == (uint32_t)page);
	CHECK(jobs[0].size == 2 * (uint64_t)page);
	CHECK(jobs[0].numjobs == (uint32_t)cpus);
	CHECK(parse("[a]\nsize=$mb_memory*1m\n") == SSD_EPARSE &&
	      err_ok(2, "size"));

	setenv("SSDLAB_TEST_BS", "16k", 1);
	CHECKF(parse("[a]\nbs=${SSDLAB_TEST_BS}\n") == 0, "%s", err);
	CHECK(jobs[0].bs[0] == 16384);
	unsetenv("SSDLAB_TEST_BS");
	/* unset: nothing, as in fio; the message says why */
	CHECK(parse("[a]\nbs=${SSDLAB_TEST_BS}\n") == SSD_EPARSE &&
	      err_ok(2, "bs") && strstr(err, "${SSDLAB_TEST_BS} is not set"));
	CHECKF(parse("[a]\nbs=4${SSDLAB_TEST_BS}k\n") == 0, "%s", err);
	CHECK(jobs[0].bs[0] == 4096);
}

TEST(job_did_you_mean_is_plausible)
{
	CHECK(parse("[a]\niodpeth=4\n") == SSD_EPARSE &&
	      strstr(err, "did you mean 'iodepth'"));
	CHECK(parse("[a]\nblocksiz=4k\n") == SSD_EPARSE &&
	      strstr(err, "did you mean 'blocksize'"));
	/* short keys and far names get no suggestion */
	CHECK(parse("[a]\nrx=1\n") == SSD_EPARSE && !strstr(err, "did you"));
	CHECK(parse("[a]\nfoo=1\n") == SSD_EPARSE && !strstr(err, "did you"));
	CHECK(parse("[a]\nsizzle=1\n") == SSD_EPARSE && !strstr(err, "did you"));
	CHECK(ssd_plausible_typo("iodepht", 1) && !ssd_plausible_typo("bsx", 1));
	CHECK(!ssd_plausible_typo("rwmix", 2) && ssd_plausible_typo("rwmixreed", 2));
	CHECK(ssd_edit_distance("iodpeth", "iodepth") == 1);
}

TEST(job_no_effect_values_are_checked)
{
	CHECKF(parse("[a]\ncpus_allowed=0-3,6\nnice=-5\nprio=7\nhipri\n"
		     "cmd_type=nvme\niomem=mmap:/tmp/x\nport=8765\n"
		     "buffer_compress_percentage=50\nhugepage-size=2m\n"
		     "unit_base=8\nclocksource=cpu\n") == 0, "%s", err);
	const char *names[32];
	int n = ssd_job_noeffect(&jobs[0], names, 32);
	CHECKF(n == 11, "%d", n);
	CHECK(parse("[a]\nnice=-21\n") == SSD_ERANGE && err_ok(2, "nice"));
	CHECK(parse("[a]\nhipri=maybe\n") == SSD_EPARSE && err_ok(2, "hipri"));
	CHECK(parse("[a]\ncmd_type=scsi\n") == SSD_EPARSE &&
	      err_ok(2, "cmd_type") && strstr(err, "accepted: nvme, bsg"));
	CHECK(parse("[a]\nport=70000\n") == SSD_ERANGE && err_ok(2, "port"));
	CHECK(parse("[a]\ncpus_allowed=all\n") == SSD_EPARSE);
	CHECK(parse("[a]\nunit_base=2\n") == SSD_EPARSE);
	CHECK(parse("[a]\ndedupe_percentage=101\n") == SSD_ERANGE);
	CHECK(parse("[a]\nport\n") == SSD_EPARSE && strstr(err, "needs a value"));
	/* a [global] one is listed for every job */
	CHECKF(parse("[global]\nthread\n[a]\n[b]\ndirectory=/mnt\n") == 0,
	       "%s", err);
	CHECK(ssd_job_noeffect(&jobs[0], names, 32) == 1);
	CHECK(ssd_job_noeffect(&jobs[1], names, 32) == 2 &&
	      !strcmp(names[0], "directory") && !strcmp(names[1], "thread"));
}

TEST(job_timeout_is_runtime)
{
	CHECKF(parse("[a]\ntimeout=3\n") == 0, "%s", err);
	CHECK(jobs[0].runtime == 3 * SSD_S);
}

/* fio's R,W,T syntax: a last value without a comma applies to the
 * directions after it; an empty field keeps what was there. */
TEST(job_per_direction_values)
{
	CHECKF(parse("[global]\nbs=16k\n"
		     "[a]\nbs=8k,32k\n"
		     "[b]\nbs=8k,32k,\n"
		     "[c]\nbs=,8k\n"
		     "[d]\nbs=,8k,\n"
		     "[e]\nbs=256k\n") == 0, "%s", err);
	static const uint32_t want[5][3] = {
		{8192, 32768, 32768}, {8192, 32768, 16384},
		{16384, 8192, 8192}, {16384, 8192, 16384},
		{262144, 262144, 262144}};
	for (int i = 0; i < 5; i++)
		for (int d = 0; d < SSD_DDIR_N; d++)
			CHECKF(jobs[i].bs[d] == want[i][d] &&
			       jobs[i].min_bs[d] == want[i][d] &&
			       jobs[i].max_bs[d] == want[i][d] &&
			       jobs[i].blockalign[d] == want[i][d],
			       "job %d dir %d: %u", i, d, jobs[i].bs[d]);
	CHECKF(parse("[a]\nbsrange=1k-4k,2k:8k\nba=,4k\n"
		     "percentage_random=10,,90\n") == 0, "%s", err);
	CHECK(jobs[0].min_bs[0] == 1024 && jobs[0].max_bs[0] == 4096);
	CHECK(jobs[0].min_bs[1] == 2048 && jobs[0].max_bs[1] == 8192);
	CHECK(jobs[0].min_bs[2] == 2048 && jobs[0].max_bs[2] == 8192);
	CHECK(jobs[0].blockalign[0] == 1024 && jobs[0].blockalign[1] == 4096);
	CHECK(jobs[0].perc_random[0] == 10 && jobs[0].perc_random[1] == 100 &&
	      jobs[0].perc_random[2] == 90);
	/* bssplit overrides bsrange, which overrides bs, in any order */
	CHECKF(parse("[a]\nbssplit=4k/50:64k/50,8k\nbsrange=4k-8k\nbs=1m\n"
		     "[b]\nbs=1m\nbsrange=4k-8k\n") == 0, "%s", err);
	CHECK(jobs[0].min_bs[0] == 4096 && jobs[0].max_bs[0] == 65536);
	CHECK(jobs[0].nbssplit[1] == 1 && jobs[0].min_bs[1] == 8192 &&
	      jobs[0].max_bs[2] == 8192);
	CHECK(jobs[1].min_bs[0] == 4096 && jobs[1].max_bs[0] == 8192);
}

TEST(job_stream_options)
{
	CHECKF(parse("[a]\nrw=write:8k\n[b]\nrw=read:-64k\n"
		     "[c]\nrw=randread:16\nrw_sequencer=identical\n"
		     "[d]\nrw=trimwrite\nnumber_ios=2k\nloops=3\n"
		     "[e]\nrw=randtrimwrite\nrandom_generator=lfsr\n"
		     "[f]\nrandom_distribution=zipf:1.2:0.25\n"
		     "[g]\nrandom_distribution=normal:10\n"
		     "[h]\nrandom_distribution=zoned_abs:60/20m:40/\n"
		     "[i]\nrandom_distribution=zoned:50/5:30/15:20/\n"
		     "[j]\nrandom_distribution=zoned:100/10,,50/50:50/50\n"
		     "[k]\nio_size=1m\n") == 0, "%s", err);
	CHECK(jobs[0].rw == SSD_RW_WRITE && jobs[0].seq_add == 8192);
	CHECK(jobs[1].rw == SSD_RW_READ && jobs[1].seq_add == -65536);
	CHECK(jobs[2].rw == SSD_RW_RANDREAD && jobs[2].seq_nr == 16 &&
	      jobs[2].seq_add == 0 &&
	      jobs[2].rw_sequencer == SSD_RWSEQ_IDENTICAL);
	CHECK(jobs[3].rw == SSD_RW_TRIMWRITE && jobs[3].number_ios == 2048 &&
	      jobs[3].loops == 3);
	CHECK(jobs[4].rw == SSD_RW_RANDTRIMWRITE &&
	      jobs[4].random_generator == SSD_RANDGEN_LFSR);
	CHECK(jobs[5].dist == SSD_DIST_ZIPF && jobs[5].dist_param == 1.2 &&
	      jobs[5].dist_center == 0.25);
	CHECK(jobs[6].dist == SSD_DIST_NORMAL && jobs[6].dist_param == 10 &&
	      jobs[6].dist_center == -1);
	CHECK(jobs[7].dist == SSD_DIST_ZONED_ABS && jobs[7].nzones[1] == 2);
	CHECK(jobs[7].zones[1][0].size_bytes == 20 * MiB &&
	      jobs[7].zones[1][1].size_bytes == GiB - 20 * MiB);
	CHECK(jobs[8].zones[0][2].size_pct == 80);
	CHECK(jobs[9].nzones[0] == 1 && jobs[9].zones[0][0].size_pct == 10);
	CHECK(jobs[9].nzones[1] == 1 && jobs[9].zones[1][0].size_pct == 100);
	CHECK(jobs[9].nzones[2] == 2);
	CHECK(!jobs[0].io_size_set && jobs[10].io_size_set);
	/* blockalign other than the block size turns the random map off
	 * (only where it matters: a random pattern) */
	CHECKF(parse("[a]\nrw=randread\nba=8k\n[b]\nrw=read\nba=8k\n"
		     "[c]\nrw=randread\nba=4k\n") == 0, "%s", err);
	CHECK(jobs[0].blockalign_set && !jobs[1].blockalign_set &&
	      !jobs[2].blockalign_set);
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

/* latency_target and its companions: fio's units (a bare number is
 * microseconds) and defaults (percentile 100, no latency_run). */
TEST(job_latency_target_options)
{
	CHECKF(parse("[a]\nlatency_target=500\nlatency_window=5000000\n"
		     "latency_percentile=99.9\nlatency_run=1\n"
		     "[b]\nlatency_target=2ms\nlatency_percentile=95%\n"
		     "[c]\n") == 0, "%s", err);
	CHECK(jobs[0].latency_target == 500 * SSD_US &&
	      jobs[0].latency_window == 5 * SSD_S &&
	      jobs[0].latency_percentile == 99.9 && jobs[0].latency_run);
	CHECK(jobs[1].latency_target == 2 * SSD_MS &&
	      jobs[1].latency_percentile == 95.0 && !jobs[1].latency_run);
	CHECK(jobs[2].latency_target == 0 && jobs[2].latency_window == 0 &&
	      jobs[2].latency_percentile == 100.0);
	CHECK(parse("[a]\nlatency_percentile=100.5\n") == SSD_ERANGE &&
	      err_ok(2, "latency_percentile"));
	CHECK(parse("[a]\nlatency_percentile=x\n") == SSD_EPARSE &&
	      err_ok(2, "latency_percentile"));
	CHECK(parse("[a]\nlatency_window=1q\n") == SSD_EPARSE &&
	      err_ok(2, "latency_window"));
}

TEST(job_errors_exits_percentiles_and_modes)
{
	CHECKF(parse("[a]\ncontinue_on_error=io\nignore_error=EIO:0x1e,"
		     "EROFS:ENOSPC:-5\nexit_what=stonewall\n"
		     "percentile_list=99.9:50:0:10\nlat_percentiles\n"
		     "clat_percentiles=0\nnr_files=3\nsize=12m\n"
		     "[b]\nfileoffset=4k\n") == 0,
	       "%s", err);
	const struct ssd_job *j = &jobs[0];
	CHECK(j->continue_on_error == (SSD_COE_READ | SSD_COE_WRITE));
	CHECK(j->ignore_error[0][0] == 5 && j->ignore_error[0][1] == 30 &&
	      j->ignore_error[0][2] == 0);
	CHECK(j->ignore_error[1][0] == 30 && j->ignore_error[1][1] == 28 &&
	      j->ignore_error[1][2] == 5 && j->ignore_error[2][0] == 0);
	CHECK(j->exit_what == SSD_EXIT_STONEWALL);
	/* a 0 ends fio's list; the rest is sorted; precision from 99.9 */
	CHECK(j->percentile_list_set && j->npercentiles == 2 &&
	      j->percentile_list[0] == 50.0 && j->percentile_list[1] == 99.9 &&
	      j->percentile_prec == 1);
	CHECK(j->lat_percentiles && j->clat_percentiles_off);
	CHECK(j->nrfiles == 3 && jobs[1].offset == 4096);
	CHECK(parse("[a]\ncontinue_on_error=1\n") == 0 &&
	      jobs[0].continue_on_error == SSD_COE_ALL && !jobs[0].exit_what);
	/* ignore_error turns continue_on_error on for its kinds only */
	CHECK(parse("[a]\nignore_error=,,EILSEQ\n") == 0 &&
	      jobs[0].continue_on_error == SSD_COE_VERIFY);
	CHECK(parse("[a]\nignore_error=,EFOO\n") == SSD_EPARSE &&
	      err_ok(2, "ignore_error"));
	CHECK(parse("[a]\npercentile_list=50:x\n") == SSD_EPARSE &&
	      err_ok(2, "percentile_list"));
	CHECK(parse("[a]\nexit_what=none\n") == SSD_EPARSE &&
	      err_ok(2, "exit_what"));

	CHECKF(parse("[a]\nrw=write\nwrite_mode=write/50:zeroes/:uncor/\n")
	       == 0, "%s", err);
	CHECK(jobs[0].wmode_pct[SSD_WMODE_WRITE] == 50 &&
	      jobs[0].wmode_pct[SSD_WMODE_ZEROES] == 25 &&
	      jobs[0].wmode_pct[SSD_WMODE_UNCOR] == 25 && jobs[0].wmode_set);
	CHECK(parse("[a]\nwrite_mode=zeroes/:verify/\n") == 0 &&
	      jobs[0].wmode_pct[SSD_WMODE_ZEROES] == 50 &&
	      jobs[0].wmode_pct[SSD_WMODE_VERIFY] == 50);
	CHECK(parse("[a]\nwrite_mode=write\n") == 0 && !jobs[0].wmode_set);
	CHECK(parse("[a]\nsg_write_mode=write_and_verify\n") == 0 &&
	      jobs[0].wmode_pct[SSD_WMODE_WAV] == 100);
	CHECK(parse("[a]\nsg_write_mode=verify_bytchk_11\n") == 0 &&
	      jobs[0].wmode_pct[SSD_WMODE_VERIFY] == 100);
	CHECK(parse("[a]\nwrite_mode=write/30:zeroes/30\n") == SSD_ERANGE &&
	      err_ok(2, "write_mode"));
	CHECK(parse("[a]\nwrite_mode=zone_append\n") == SSD_EINVAL &&
	      err_ok(2, "write_mode"));
	CHECK(parse("[a]\nrw=trim\nnum_range=8\n") == 0 &&
	      jobs[0].num_range == 8);
	CHECK(parse("[a]\nrw=read\nnum_range=8\n") == SSD_EINVAL &&
	      err_ok(3, "num_range"));
	CHECK(parse("[a]\nnum_range=257\n") == SSD_ERANGE &&
	      err_ok(2, "num_range"));
	CHECK(parse("[a]\nwritefua\nreadfua=1\nerror_dump=0\n"
		    "verify_write_sequence=0\n") == 0 && jobs[0].write_fua &&
	      jobs[0].read_fua && !jobs[0].error_dump &&
	      !jobs[0].verify_write_sequence);
}

/* time_based without a runtime: fio says "time_based requires a
 * runtime/timeout setting" and runs the job without it; so does ssdlab,
 * listing it among the options taken without effect. */
TEST(job_time_based_without_runtime_is_dropped)
{
	CHECKF(parse("[a]\nsize=1m\ntime_based\n") == 0, "%s", err);
	CHECK(!jobs[0].time_based && jobs[0].io_size == 1 << 20);
	const char *names[8];
	int n = ssd_job_noeffect(&jobs[0], names, 8);
	CHECK(n == 1 && !strcmp(names[0], "time_based"));
}
