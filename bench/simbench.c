/*
 * simbench.c -- ssdlab's side of the speed benchmark (bench/run.sh): the
 * whole simulator -- fio job runner, event queue, timing model, FTL and
 * statistics -- on 4 KiB random writes in steady state, with the same
 * drive and workload as bench/bareftl.c so the two rates can be compared.
 *
 * The drive is the default preset with --set overrides (the benchmark
 * uses 32 GiB, 7% OP, 4 KiB pages, 256 pages per block, greedy).  It is
 * written once sequentially, preconditioned with --precondition random
 * writes (untimed), then --writes random writes at queue depth 32 are
 * timed.  Offsets are drawn with replacement (fio's norandommap), as in
 * the reference.
 *
 * Output: one line of key=value, the same keys as bareftl.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "base/config.h"
#include "machine/device.h"
#include "job/job.h"
#include "run/sim.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int run(struct ssd_dev *dev, const char *text, uint64_t seed,
	       struct ssd_run_result *res)
{
	char err[512];
	struct ssd_job *jobs;
	int n;
	if (ssd_jobfile_parse_string(text, "simbench",
				     ssd_dev_config(dev)->capacity, &jobs,
				     &n, err, sizeof err) ||
	    ssd_sim_run(dev, jobs, n, seed, res, err, sizeof err)) {
		fprintf(stderr, "simbench: %s\n", err);
		exit(1);
	}
	free(jobs);
	return 0;
}

int main(int argc, char **argv)
{
	struct ssd_config c;
	char err[512];
	double pre = 2, meas = 1;
	uint64_t seed = 1;
	if (ssd_config_open(&c, "default", SSDLAB_PRESET_DIR, err, sizeof err)) {
		fprintf(stderr, "simbench: %s\n", err);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--set") && i + 1 < argc) {
			char kv[256];
			snprintf(kv, sizeof kv, "%s", argv[++i]);
			char *eq = strchr(kv, '=');
			if (!eq) {
				fprintf(stderr, "simbench: --set needs KEY=VALUE\n");
				return 2;
			}
			*eq = 0;
			if (ssd_config_set(&c, kv, eq + 1, "--set", err, sizeof err)) {
				fprintf(stderr, "simbench: %s\n", err);
				return 2;
			}
		} else if (!strcmp(argv[i], "--precondition") && i + 1 < argc) {
			pre = atof(argv[++i]);
		} else if (!strcmp(argv[i], "--writes") && i + 1 < argc) {
			meas = atof(argv[++i]);
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			seed = strtoull(argv[++i], NULL, 0);
		} else {
			fprintf(stderr, "usage: simbench [--set K=V]... [--precondition X] "
				"[--writes X] [--seed N]   (X in capacities)\n");
			return 2;
		}
	}
	if (ssd_config_finish(&c, err, sizeof err)) {
		fprintf(stderr, "simbench: %s\n", err);
		return 2;
	}
	struct ssd_dev *dev;
	if (ssd_dev_create(&c, seed, &dev)) {
		fprintf(stderr, "simbench: cannot create the drive\n");
		return 1;
	}
	uint64_t lp = c.capacity / SSD_LPAGE;
	char text[512];
	snprintf(text, sizeof text,
		 "[fill]\nrw=write\nbs=128k\niodepth=32\n"
		 "[precondition]\nstonewall\nrw=randwrite\nbs=4k\niodepth=32\n"
		 "norandommap=1\nio_size=%llu\n",
		 (unsigned long long)((uint64_t)(pre * lp) * SSD_LPAGE));
	struct ssd_run_result res;
	run(dev, text, seed, &res);
	ssd_run_result_free(&res);
	snprintf(text, sizeof text,
		 "[measure]\nrw=randwrite\nbs=4k\niodepth=32\nnorandommap=1\n"
		 "io_size=%llu\n",
		 (unsigned long long)((uint64_t)(meas * lp) * SSD_LPAGE));
	double t0 = now();
	run(dev, text, seed + 1, &res);
	double secs = now() - t0;
	const struct ssd_counters *m = &res.jobs[0].ctr;
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	double phys4k = (double)ssd_config_physical_bytes(&c) / SSD_LPAGE;
	printf("host_writes=%llu seconds=%.3f writes_per_second=%.0f waf=%.4f "
	       "peak_rss_kib=%ld bytes_per_4k_physical=%.3f\n",
	       (unsigned long long)m->host_write_lp, secs,
	       m->host_write_lp / secs,
	       (double)(m->host_write_lp + m->gc_copy_lp) / m->host_write_lp,
	       ru.ru_maxrss, ru.ru_maxrss * 1024.0 / phys4k);
	ssd_run_result_free(&res);
	ssd_dev_destroy(dev);
	return 0;
}
