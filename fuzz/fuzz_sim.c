/*
 * fuzz_sim.c -- a drive file and a job file together, parsed and run for
 * longer than fuzz_jobfile runs, with the FTL's invariant checker on
 * (after every 8 GC victims and at the end of every job).  The input is
 * the drive, a line "----", then the job file; without such a line all
 * of it is the job file, on the tiny drive.  The drive is loaded over the
 * tiny preset, so a few keys make a drive.
 *
 * Properties: the drive loads or fails with a message; the job file
 * parses or fails with a message; the run ends with 0 or an error with a
 * message, and every job that ended in error says why; the checker never
 * fails, nor does the audit after the run; a job that writes and verifies
 * (this harness turns verify on for every writing job on a bare SSD)
 * reads back what it wrote; the same input run again, on a fresh drive
 * without the checker, gives the same report byte for byte (text, terse
 * and JSON+), so the run is deterministic and the checker changes
 * nothing.
 *
 * Bounds, so that an input runs in well under a second: a capacity over
 * 64 MiB is overridden to 64 MiB (as --set capacity=64m would be, the
 * rest of the drive adapted to it); a page cache or MFT buffer over
 * 64 MiB, or more than 8 RAID members, is not run; the jobs issue at most
 * 10,000 I/Os between them (number_ios shared out over the instances and
 * loops; verify reads and trimwrite's trims come on top); every job
 * stops after 60 s of simulated time, its ramp and start delay at most
 * 10 s each; no log or trace file is written, and a job file that
 * replays a trace (read_iolog) is only parsed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "fuzz.h"
#include "machine/device.h"
#include "job/job.h"
#include "run/sim.h"
#include "machine/stack.h"
#include "report/report.h"

#define MAX_CAP (64ull << 20)
#define MAX_IOS 10000u
#define MAX_RUNTIME (60 * SSD_S)
#define MAX_DELAY (10 * SSD_S)
#define CHECK_EVERY 8 /* GC victims between two checks */

static const char sep[] = "----\n";

/* Where the job file starts in text (the line after "----"); NULL when
 * there is no such line.  The drive part is cut at the line. */
static char *split(char *text)
{
	for (char *s = text; s; s = strchr(s, '\n')) {
		if (*s == '\n')
			s++;
		if (!strncmp(s, sep, sizeof sep - 1)) {
			*s = 0;
			return s + sizeof sep - 1;
		}
	}
	return NULL;
}

/* The drive the input gives, into *c: 0, or -1 when it is refused (a
 * failure with a message) or beyond the bounds. */
static int load_drive(const char *drive, struct ssd_config *c)
{
	char err[512];
	err[0] = 0;
	if (ssd_config_open(c, "tiny", SSDLAB_PRESET_DIR, err, sizeof err))
		fuzz_fail(err);
	if (drive) {
		const char *path = fuzz_file((const uint8_t *)drive, strlen(drive));
		if (!path)
			return -1;
		if (ssd_config_load(c, path, err, sizeof err)) {
			if (!err[0])
				fuzz_fail("a drive error without a message");
			return -1;
		}
	}
	if (c->capacity > MAX_CAP &&
	    ssd_config_set(c, "capacity", "64m", NULL, err, sizeof err))
		fuzz_fail(err);
	err[0] = 0;
	if (ssd_config_fit(c, err, sizeof err) || ssd_stack_check(c, err, sizeof err)) {
		if (!err[0])
			fuzz_fail("a drive error without a message");
		return -1;
	}
	if (c->page_cache > MAX_CAP || (c->mft && c->mft_buffer > MAX_CAP) ||
	    (c->raid && c->raid_members > 8))
		return -1;
	return 0;
}

/* Bound the jobs (see the top); 0, or -1 for a job file not to run. */
static int bound(struct ssd_job *jobs, int n, int bare)
{
	uint64_t inst = 0;
	for (int i = 0; i < n; i++) {
		if (jobs[i].read_iolog[0])
			return -1;
		inst += jobs[i].numjobs;
	}
	uint64_t per = inst < MAX_IOS ? MAX_IOS / inst : 1;
	for (int i = 0; i < n; i++) {
		struct ssd_job *j = &jobs[i];
		j->write_iops_log[0] = j->write_bw_log[0] = j->write_lat_log[0] = 0;
		j->write_hist_log[0] = j->write_iolog[0] = 0;
		if (j->loops > per)
			j->loops = (uint32_t)per;
		uint64_t lim = per / j->loops;
		if (!j->number_ios || j->number_ios > lim)
			j->number_ios = lim;
		if (!j->runtime || j->runtime > MAX_RUNTIME)
			j->runtime = MAX_RUNTIME;
		if (j->ramp_time > MAX_DELAY)
			j->ramp_time = MAX_DELAY;
		if (j->startdelay_hi > MAX_DELAY)
			j->startdelay_hi = MAX_DELAY;
		if (j->startdelay > j->startdelay_hi)
			j->startdelay = j->startdelay_hi;
		/* verify a job's own writes where the drive keeps the tags */
		int w = j->rw == SSD_RW_WRITE || j->rw == SSD_RW_RANDWRITE ||
			j->rw == SSD_RW_READWRITE || j->rw == SSD_RW_RANDRW;
		if (bare && w && j->verify == SSD_VERIFY_NONE) {
			j->verify = SSD_VERIFY_DATA;
			snprintf(j->verify_name, sizeof j->verify_name, "md5");
		}
	}
	return 0;
}

/* A job that writes, plain writes only, and verifies what it wrote: its
 * verify never fails on a bare SSD. */
static int plain_writer(const struct ssd_job *j)
{
	int w = j->rw == SSD_RW_WRITE || j->rw == SSD_RW_RANDWRITE ||
		j->rw == SSD_RW_READWRITE || j->rw == SSD_RW_RANDRW;
	return w && j->verify == SSD_VERIFY_DATA && !j->verify_only &&
	       j->wmode_pct[SSD_WMODE_WRITE] == 100;
}

/* Run the jobs on a fresh drive; the report (malloc'd, *len bytes), or
 * NULL when there is nothing to compare. */
static char *run(const struct ssd_config *c, const struct ssd_job *jobs, int n,
		 int check, size_t *len)
{
	struct ssd_dev *dev = NULL;
	if (ssd_dev_create(c, 1, &dev))
		return NULL;
	ssd_dev_set_check_every(dev, check ? CHECK_EVERY : 0);
	struct ssd_run_result r;
	char err[512];
	err[0] = 0;
	int rc = ssd_sim_run(dev, jobs, n, 1, &r, err, sizeof err);
	if (ssd_dev_check_failure(dev))
		fuzz_fail(ssd_dev_check_failure(dev));
	if (rc && !err[0])
		fuzz_fail("a run that failed without a message");
	for (int i = 0; i < r.njobs; i++) {
		const struct ssd_job_result *j = &r.jobs[i];
		if (j->error && !j->errmsg[0])
			fuzz_fail("a job that ended in error without a message");
		if (j->error == SSD_EILSEQ && plain_writer(j->job)) {
			fprintf(stderr, "%s\n", j->errmsg);
			fuzz_fail("a job read back other data than it wrote");
		}
	}
	if (!rc && ssd_dev_audit(dev))
		fuzz_fail(ssd_dev_check_failure(dev) ? ssd_dev_check_failure(dev)
						      : "the audit after the run failed");
	char *buf = NULL;
	*len = 0;
	FILE *f = open_memstream(&buf, len);
	if (f) {
		fprintf(f, "rc %d: %s\n", rc, err);
		if (r.njobs)
			ssd_report(&r, SSD_OUT_NORMAL | SSD_OUT_JSON_PLUS | SSD_OUT_TERSE, f);
		if (fclose(f)) {
			free(buf);
			buf = NULL;
		}
	}
	ssd_run_result_free(&r);
	ssd_dev_destroy(dev);
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 16 || memchr(data, 0, size))
		return 0;
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;
	char *jobtext = split(text);
	const char *drive = jobtext ? text : NULL;
	if (!jobtext)
		jobtext = text;
	static struct ssd_config c;
	struct ssd_job *jobs = NULL;
	int n = 0;
	char err[512];
	err[0] = 0;
	if (load_drive(drive, &c)) {
		free(text);
		return 0;
	}
	if (ssd_jobfile_parse_string(jobtext, "fuzz.fio", ssd_config_volume(&c), &jobs,
				     &n, err, sizeof err)) {
		if (!err[0])
			fuzz_fail("a parse error without a message");
		free(text);
		return 0;
	}
	free(text);
	if (n && !bound(jobs, n, !ssd_config_is_machine(&c))) {
		size_t n1, n2;
		char *r1 = run(&c, jobs, n, 1, &n1);
		char *r2 = r1 ? run(&c, jobs, n, 0, &n2) : NULL;
		if (r1 && r2 && (n1 != n2 || memcmp(r1, r2, n1))) {
			fprintf(stderr, "--- first\n%s--- again\n%s", r1, r2);
			fuzz_fail("the same input run again gives another report");
		}
		free(r1);
		free(r2);
	}
	free(jobs);
	return 0;
}
