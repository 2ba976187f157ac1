/*
 * fuzz_jobfile.c -- the fio job-file parser: any text either parses, or
 * fails with a message; never a crash, a leak or undefined behaviour.
 * A file that parses is also run for a moment on the tiny drive with the
 * FTL's invariant checker on (a bounded budget: the first 2,000 commands
 * of each job at most).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "machine/device.h"
#include "job/job.h"
#include "run/sim.h"

static struct ssd_config cfg;
static int have_cfg;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 16)
		return 0;
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;
	char err[512];
	if (!have_cfg) {
		if (ssd_config_open(&cfg, "tiny", SSDLAB_PRESET_DIR, err, sizeof err) ||
		    ssd_config_finish(&cfg, err, sizeof err))
			fuzz_fail(err);
		have_cfg = 1;
	}
	struct ssd_job *jobs = NULL;
	int n = 0;
	int rc = ssd_jobfile_parse_string(text, "fuzz.fio", cfg.capacity, &jobs, &n,
					  err, sizeof err);
	free(text);
	if (rc) {
		if (!err[0])
			fuzz_fail("a parse error without a message");
		return 0;
	}
	/* a short run: every job limited to a few commands, no files */
	int ok = 1;
	for (int i = 0; i < n; i++) {
		struct ssd_job *j = &jobs[i];
		ok &= !j->read_iolog[0] && !j->write_iolog[0] &&
		      !j->write_iops_log[0] && !j->write_bw_log[0] &&
		      !j->write_lat_log[0] && !j->write_hist_log[0];
		j->number_ios = j->number_ios && j->number_ios < 2000 ? j->number_ios : 2000;
		j->time_based = 0;
		if (j->runtime > 1000000000)
			j->runtime = 1000000000;
		j->thinktime = 0;
		j->startdelay = j->startdelay_hi = 0;
		j->ramp_time = 0;
	}
	if (ok && n) {
		struct ssd_dev *dev = NULL;
		if (!ssd_dev_create(&cfg, 1, &dev)) {
			ssd_dev_set_check_every(dev, 1);
			struct ssd_run_result r;
			ssd_sim_run(dev, jobs, n, 1, &r, err, sizeof err);
			if (ssd_dev_check_failure(dev))
				fuzz_fail(ssd_dev_check_failure(dev));
			ssd_run_result_free(&r);
			ssd_dev_destroy(dev);
		}
	}
	free(jobs);
	return 0;
}
