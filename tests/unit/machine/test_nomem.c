/* Out of memory is an error code: the job parser, a drive file, a drive
 * and a run each meet an allocation that fails, at every allocation they
 * make in turn, and return SSD_ENOMEM -- never crash, never exit.  ASan
 * (make test) checks that what they had is freed once. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/config.h"
#include "machine/device.h"
#include "job/job.h"
#include "run/sim.h"
#include "report/report.h"
#include "t.h"
#include "t_alloc.h"

static char err[512];
static char dir[64];             /* the test's files */
static char jobpath[128], incpath[128], inipath[128];

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* A directory with a job file (it includes a second one) and a drive
 * file; 0 or -1. */
static int make_files(void)
{
	snprintf(dir, sizeof dir, "/tmp/ssdlab_nomem_XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(jobpath, sizeof jobpath, "%s/t.fio", dir);
	snprintf(incpath, sizeof incpath, "%s/inc.fio", dir);
	snprintf(inipath, sizeof inipath, "%s/d.ini", dir);
	char job[1024];
	snprintf(job, sizeof job,
		 "[global]\nbs=4k\niodepth=4\n"
		 "[files]\nrw=randwrite\nfilename=a:b\nsize=512k\n"
		 "[clones]\nstonewall\nrw=write\nnrfiles=3\nfilesize=128k\n"
		 "numjobs=2\n"
		 "[drive]\nstonewall\nrw=randread\nsize=1m\n"
		 "include %s\n", incpath);
	if (write_file(jobpath, job) || write_file(incpath, "io_size=256k\n"))
		return -1;
	return write_file(inipath, "[drive]\nname = small\ncapacity = 64m\n"
			  "pages_per_block = 64\nchannels = 2\n"
			  "dies_per_channel = 2\nplanes_per_die = 1\n"
			  "page_size = 4k\ncell = tlc\n");
}

/* The directory and everything in it (the run's log too). */
static void remove_files(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[400];
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			remove(path);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* Call fn with its n-th allocation failing, for n = 1, 2 ... until it
 * makes fewer than n: every call the failure reached must return
 * SSD_ENOMEM; the last one, 0.  Returns the failures checked, or -1
 * (with the test failed) on a wrong code. */
static long each_failure(int (*fn)(void), const char *what)
{
	for (long n = 1; n < 100000; n++) {
		t_alloc_fail_at(n);
		err[0] = 0;
		int rc = fn();
		int hit = t_alloc_failed();
		t_alloc_fail_at(0);
		if (!hit) {
			if (rc) {
				t_fail(__FILE__, __LINE__, what);
				fprintf(stderr, "    no allocation failed and it "
					"returned %d: %s\n", rc, err);
				return -1;
			}
			return n - 1;
		}
		if (rc != SSD_ENOMEM) {
			t_fail(__FILE__, __LINE__, what);
			fprintf(stderr, "    allocation %ld failed and it "
				"returned %d (%s): %s\n", n, rc,
				ssd_strerror(rc), err);
			return -1;
		}
		if (strcmp(err, "out of memory") && !strstr(err, ": out of memory")) {
			t_fail(__FILE__, __LINE__, what);
			fprintf(stderr, "    allocation %ld failed, message "
				"'%s'\n", n, err);
			return -1;
		}
	}
	t_fail(__FILE__, __LINE__, "more than 100000 allocations");
	return -1;
}

static int parse_job(void)
{
	struct ssd_job *jobs = NULL;
	int n = 0;
	int rc = ssd_jobfile_parse(jobpath, 64 << 20, &jobs, &n, err,
				   sizeof err);
	if (!rc && n != 3)
		rc = SSD_EINVAL;
	free(jobs);
	return rc;
}

static int build_job(void)
{
	struct ssd_jobs *b = NULL;
	struct ssd_job *jobs = NULL;
	int n = 0;
	int rc = ssd_jobs_new("built", 64 << 20, &b);
	if (rc) {
		snprintf(err, sizeof err, "out of memory");
		return rc;
	}
	ssd_jobs_add(b, "w");
	ssd_jobs_set(b, "rw", "randwrite");
	ssd_jobs_set(b, "filename", "x:y:z");
	ssd_jobs_set(b, "size", "1m");
	rc = ssd_jobs_end(b, &jobs, &n, err, sizeof err);
	free(jobs);
	return rc;
}

static int load_drive(void)
{
	struct ssd_config c;
	ssd_config_defaults(&c);
	int rc = ssd_config_load(&c, inipath, err, sizeof err);
	if (!rc)
		rc = ssd_config_set(&c, "op", "0.1", NULL, err, sizeof err);
	if (!rc)
		rc = ssd_config_finish(&c, err, sizeof err);
	if (!rc)
		rc = ssd_config_open(&c, "tiny", SSDLAB_PRESET_DIR, err,
				     sizeof err);
	return rc;
}

/* The tiny drive, a short run in two groups with a log and steady-state
 * samples, the report in every format. */
static int small_run(void)
{
	struct ssd_config c;
	struct ssd_dev *d = NULL;
	int rc = ssd_config_open(&c, "tiny", SSDLAB_PRESET_DIR, err, sizeof err);
	if (!rc)
		rc = ssd_config_finish(&c, err, sizeof err);
	if (rc)
		return rc;
	rc = ssd_dev_create(&c, 1, &d);
	if (rc) {
		snprintf(err, sizeof err, "out of memory");
		return rc;
	}
	char text[512];
	snprintf(text, sizeof text,
		 "[fill]\nrw=write\nbs=64k\nsize=4m\niodepth=8\n"
		 "write_lat_log=%s/fill\n"
		 "[mix]\nstonewall\nrw=randrw\nbs=4k\nsize=4m\nio_size=1m\n"
		 "iodepth=4\nnumjobs=2\ngroup_reporting\n"
		 "ss=iops:50%%\nss_dur=2s\nss_interval=1s\n", dir);
	struct ssd_job *jobs = NULL;
	int n = 0;
	struct ssd_run_result res;
	memset(&res, 0, sizeof res);
	rc = ssd_jobfile_parse_string(text, "run.fio",
				      ssd_dev_config(d)->capacity, &jobs, &n,
				      err, sizeof err);
	if (!rc)
		rc = ssd_sim_run(d, jobs, n, 1, &res, err, sizeof err);
	for (int i = 0; !rc && i < res.njobs; i++)
		rc = res.jobs[i].error;
	if (!rc) {
		FILE *out = tmpfile();
		rc = out ? ssd_report(&res, SSD_OUT_NORMAL | SSD_OUT_JSON_PLUS |
				      SSD_OUT_TERSE, out) : SSD_EIO;
		if (rc == SSD_ENOMEM)
			snprintf(err, sizeof err, "out of memory");
		if (out)
			fclose(out);
	}
	ssd_run_result_free(&res);
	free(jobs);
	ssd_dev_destroy(d);
	return rc;
}

/* A zoned drive made, written, reset and finished (its zones' state
 * and the FTL's zone books). */
static int zoned_drive(void)
{
	struct ssd_config c;
	struct ssd_dev *d = NULL;
	int rc = ssd_config_open(&c, "tiny", SSDLAB_PRESET_DIR, err, sizeof err);
	if (!rc)
		rc = ssd_config_set(&c, "mapping", "zone", NULL, err, sizeof err);
	if (!rc)
		rc = ssd_config_finish(&c, err, sizeof err);
	if (rc)
		return rc;
	rc = ssd_dev_create(&c, 1, &d);
	if (rc) {
		snprintf(err, sizeof err, "out of memory");
		return rc;
	}
	int64_t t = ssd_dev_submit(d, SSD_DDIR_WRITE, 0, 65536, 0);
	if (t > 0)
		t = ssd_dev_zone_send(d, 2 /* finish */, 1 << 20, 0, t);
	if (t > 0)
		t = ssd_dev_zone_send(d, 4 /* reset */, 0, 1, t);
	ssd_dev_destroy(d);
	if (t == SSD_ENOMEM)
		snprintf(err, sizeof err, "out of memory");
	return t < 0 ? (int)t : 0;
}

TEST(nomem_zoned_drive)
{
	CHECK(each_failure(zoned_drive, "zoned drive") > 5);
}

TEST(nomem_every_allocation_that_fails_is_ssd_enomem)
{
	CHECK(make_files() == 0);
	long parse = each_failure(parse_job, "job file");
	long built = parse >= 0 ? each_failure(build_job, "built job") : -1;
	long drive = built >= 0 ? each_failure(load_drive, "drive file") : -1;
	long run = drive >= 0 ? each_failure(small_run, "run") : -1;
	remove_files();
	/* each met some failures (the runs cannot all have been empty) */
	CHECKF(parse > 5 && built > 2 && drive > 2 && run > 20,
	       "failures checked: parse %ld, built %ld, drive %ld, run %ld",
	       parse, built, drive, run);
}
