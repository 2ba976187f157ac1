/*
 * embed.c -- ssdlab as a library, through its public header alone.
 *
 * Builds a small drive from the "tiny" preset with 28% over-provisioning,
 * fills it sequentially with commands of its own (the way an NBD server
 * or a trace replayer drives the device), then runs a job built in code
 * -- 4 KiB random writes at queue depth 32 over twice the capacity --
 * and prints the job's IOPS, its 99th-percentile latency and the write
 * amplification the drive measured over it.
 *
 *   cc embed.c $(pkg-config --cflags --libs ssdlab) -o embed && ./embed
 */
#include <inttypes.h>
#include <stdio.h>

#include <ssdlab.h>

static int fail(const char *what, int rc, const char *msg)
{
	fprintf(stderr, "embed: %s: %s\n", what, msg && *msg ? msg
						 : ssdlab_strerror(rc));
	return 1;
}

int main(void)
{
	char err[512] = "";
	ssdlab_drive *drive;
	ssdlab_dev *dev;
	int rc;

	if ((rc = ssdlab_drive_new(&drive)) ||
	    (rc = ssdlab_drive_load(drive, "tiny", NULL, err, sizeof err)) ||
	    (rc = ssdlab_drive_set(drive, "op", "0.28", err, sizeof err)) ||
	    (rc = ssdlab_drive_finish(drive, err, sizeof err)))
		return fail("drive", rc, err);
	if ((rc = ssdlab_dev_open(drive, 1, &dev)))
		return fail("device", rc, NULL);
	uint64_t cap = ssdlab_dev_capacity(dev);

	/* Fill: 128 KiB writes one after another, each submitted when the
	 * previous completes (queue depth 1). */
	int64_t t = ssdlab_now(dev);
	for (uint64_t off = 0; off < cap; off += 128 * 1024) {
		t = ssdlab_submit(dev, SSDLAB_WRITE, off, 128 * 1024, t);
		if (t < 0)
			return fail("fill", (int)t, NULL);
	}
	printf("filled %" PRIu64 " MiB in %.3f s of simulated time\n",
	       cap >> 20, (double)t / 1e9);

	/* A job built in code: what a job file's section would say. */
	ssdlab_jobs *jobs;
	if ((rc = ssdlab_jobs_new("embed", cap, &jobs)))
		return fail("jobs", rc, NULL);
	ssdlab_jobs_add(jobs, "randwrite");
	const char *opts[][2] = {
		{ "rw", "randwrite" }, { "bs", "4k" }, { "iodepth", "32" },
		{ "size", "100%" }, { "io_size", "200%" }, { "norandommap", NULL },
	};
	for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
		ssdlab_jobs_set(jobs, opts[i][0], opts[i][1]);
	if ((rc = ssdlab_jobs_end(jobs, err, sizeof err)))
		return fail("jobs", rc, err);

	ssdlab_result *res;
	if ((rc = ssdlab_run(dev, jobs, 1, &res, err, sizeof err)))
		return fail("run", rc, err);
	struct ssdlab_job_stats st;
	ssdlab_result_job(res, 0, &st);
	printf("%s: %.0f IOPS, p99 latency %.1f us, WAF %.3f "
	       "(%" PRIu64 " GC copies)\n", st.name,
	       st.dir[SSDLAB_WRITE].iops,
	       (double)ssdlab_result_percentile(res, 0, SSDLAB_WRITE, 99) /
		       1e3,
	       st.waf, st.ctr.gc_copy_lp);

	struct ssdlab_health h;
	ssdlab_health(dev, &h);
	printf("health: %.2f%% used, erases per block %u..%u\n",
	       h.percentage_used, h.erase_min, h.erase_max);

	ssdlab_result_free(res);
	ssdlab_jobs_free(jobs);
	ssdlab_dev_close(dev);
	ssdlab_drive_free(drive);
	return 0;
}
