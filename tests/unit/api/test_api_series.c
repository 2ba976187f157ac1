/* The public interface's time series of a run (ssdlab_run_series): the
 * same run as ssdlab_run, its completions counted once each, step by
 * step, over the run's whole time; and each job's own, on the same
 * steps. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ssdlab.h"
#include "t.h"

static const char jobtext[] =
	"[fill]\nrw=write\nbs=128k\n"
	"[random]\nstonewall\nrw=randwrite\nbs=4k\niodepth=16\n"
	"io_size=50%\nnorandommap\n";

/* The jobs above on a fresh tiny drive, with a series of `step` ns
 * (0: ssdlab_run). */
static int run_on_tiny(int64_t step, ssdlab_dev **dev, ssdlab_result **res)
{
	ssdlab_drive *d = NULL;
	ssdlab_jobs *w = NULL;
	char err[512];
	*dev = NULL;
	*res = NULL;
	int rc = ssdlab_drive_new(&d);
	if (!rc)
		rc = ssdlab_drive_load(d, "tiny", NULL, err, sizeof err);
	if (!rc)
		rc = ssdlab_drive_finish(d, err, sizeof err);
	if (!rc)
		rc = ssdlab_dev_open(d, 3, dev);
	if (!rc)
		rc = ssdlab_jobs_new("series", ssdlab_dev_capacity(*dev), &w);
	if (!rc)
		rc = ssdlab_jobs_parse(w, jobtext, err, sizeof err);
	if (!rc)
		rc = step ? ssdlab_run_series(*dev, w, 5, step, res, err, sizeof err)
			  : ssdlab_run(*dev, w, 5, res, err, sizeof err);
	ssdlab_jobs_free(w);
	ssdlab_drive_free(d);
	return rc;
}

TEST(api_series_counts_every_completion_once)
{
	const int64_t step = 100000000; /* 0.1 s */
	ssdlab_dev *da, *db;
	ssdlab_result *a, *b;
	CHECK(run_on_tiny(step, &da, &a) == 0 && a);
	CHECK(run_on_tiny(0, &db, &b) == 0 && b);
	/* keeping a series changes nothing of the run */
	CHECK(ssdlab_result_points(b) == 0);
	CHECK(ssdlab_result_jobs(a) == 2 && ssdlab_result_jobs(b) == 2);
	uint64_t ios[3] = {0}, bytes[3] = {0};
	double lat_max = 0;
	for (int j = 0; j < 2; j++) {
		struct ssdlab_job_stats sa, sb;
		CHECK(ssdlab_result_job(a, j, &sa) == 0);
		CHECK(ssdlab_result_job(b, j, &sb) == 0);
		CHECK(sa.runtime_ns == sb.runtime_ns);
		CHECK(!memcmp(&sa.ctr, &sb.ctr, sizeof sa.ctr));
		for (int d = 0; d < 3; d++) {
			CHECK(sa.dir[d].ios == sb.dir[d].ios);
			ios[d] += sa.dir[d].ios;
			bytes[d] += sa.dir[d].bytes;
			if (sa.dir[d].lat_max_ns > lat_max)
				lat_max = sa.dir[d].lat_max_ns;
		}
	}
	CHECK(ssdlab_now(da) == ssdlab_now(db));

	/* the points: one per step from the run's start to its end, each
	 * completion in exactly one */
	int n = ssdlab_result_points(a);
	CHECKF(n == (ssdlab_now(da) + step - 1) / step, "%d points, run of %lld ns",
	       n, (long long)ssdlab_now(da));
	uint64_t sios[3] = {0}, sbytes[3] = {0};
	int64_t len = 0;
	double smax = 0;
	int busy = 0;
	for (int i = 0; i < n; i++) {
		struct ssdlab_point p;
		CHECK(ssdlab_result_point(a, i, &p) == 0);
		CHECK(p.t_ns == (int64_t)i * step);
		CHECK(p.len_ns > 0 && (p.len_ns == step || i == n - 1));
		len += p.len_ns;
		for (int d = 0; d < 3; d++) {
			sios[d] += p.ios[d];
			sbytes[d] += p.bytes[d];
			CHECK(fabs(p.iops[d] - (double)p.ios[d] * 1e9 /
				   (double)p.len_ns) < 1e-6 * (p.iops[d] + 1));
			CHECK(fabs(p.bw_bytes[d] - (double)p.bytes[d] * 1e9 /
				   (double)p.len_ns) < 1e-6 * (p.bw_bytes[d] + 1));
			CHECK(p.ios[d] ? p.lat_mean_ns[d] > 0 &&
					 p.lat_mean_ns[d] <= p.lat_max_ns[d]
				       : p.lat_mean_ns[d] == 0 && p.lat_max_ns[d] == 0);
			if (p.lat_max_ns[d] > smax)
				smax = p.lat_max_ns[d];
		}
		busy += p.ios[SSDLAB_WRITE] > 0;
	}
	CHECK(len == ssdlab_now(da));
	for (int d = 0; d < 3; d++)
		CHECKF(sios[d] == ios[d] && sbytes[d] == bytes[d],
		       "direction %d: %llu ios in the points, %llu in the jobs", d,
		       (unsigned long long)sios[d], (unsigned long long)ios[d]);
	CHECK(ios[SSDLAB_WRITE] > 0 && busy > 2);
	CHECK(smax == lat_max);
	/* each job's own series: the same steps, its completions only;
	 * the jobs' points add up to the run's */
	uint64_t jios[2][3] = {{0}};
	for (int i = 0; i < n; i++) {
		struct ssdlab_point p, q[2];
		CHECK(ssdlab_result_point(a, i, &p) == 0);
		for (int j = 0; j < 2; j++) {
			CHECK(ssdlab_result_job_point(a, j, i, &q[j]) == 0);
			CHECK(q[j].t_ns == p.t_ns && q[j].len_ns == p.len_ns);
			for (int d = 0; d < 3; d++)
				jios[j][d] += q[j].ios[d];
		}
		for (int d = 0; d < 3; d++) {
			CHECK(q[0].ios[d] + q[1].ios[d] == p.ios[d]);
			CHECK(q[0].bytes[d] + q[1].bytes[d] == p.bytes[d]);
			CHECK(fmax(q[0].lat_max_ns[d], q[1].lat_max_ns[d]) ==
			      p.lat_max_ns[d]);
		}
	}
	for (int j = 0; j < 2; j++) {
		struct ssdlab_job_stats sj;
		CHECK(ssdlab_result_job(a, j, &sj) == 0);
		for (int d = 0; d < 3; d++)
			CHECKF(jios[j][d] == sj.dir[d].ios, "job %d direction %d: "
			       "%llu in its points, %llu in its figures", j, d,
			       (unsigned long long)jios[j][d],
			       (unsigned long long)sj.dir[d].ios);
	}
	struct ssdlab_point p;
	CHECK(ssdlab_result_job_point(a, 2, 0, &p) == SSDLAB_EINVAL);
	CHECK(ssdlab_result_job_point(a, -1, 0, &p) == SSDLAB_EINVAL);
	CHECK(ssdlab_result_job_point(a, 0, n, &p) == SSDLAB_EINVAL);
	CHECK(ssdlab_result_job_point(b, 0, 0, &p) == SSDLAB_EINVAL);
	CHECK(ssdlab_result_point(a, n, &p) == SSDLAB_EINVAL);
	CHECK(ssdlab_result_point(a, -1, &p) == SSDLAB_EINVAL);
	CHECK(ssdlab_result_point(b, 0, &p) == SSDLAB_EINVAL);
	ssdlab_result_free(a);
	ssdlab_result_free(b);
	ssdlab_dev_close(da);
	ssdlab_dev_close(db);
}

TEST(api_series_step_must_be_positive)
{
	ssdlab_drive *d;
	ssdlab_dev *dev;
	ssdlab_jobs *w;
	ssdlab_result *r = (ssdlab_result *)&r;
	char err[256] = "";
	CHECK(ssdlab_drive_new(&d) == 0);
	CHECK(ssdlab_drive_load(d, "tiny", NULL, err, sizeof err) == 0);
	CHECK(ssdlab_drive_finish(d, err, sizeof err) == 0);
	CHECK(ssdlab_dev_open(d, 1, &dev) == 0);
	CHECK(ssdlab_jobs_new(NULL, ssdlab_dev_capacity(dev), &w) == 0);
	CHECK(ssdlab_jobs_parse(w, "[w]\nrw=write\nsize=1m\n", err, sizeof err) == 0);
	CHECK(ssdlab_run_series(dev, w, 1, 0, &r, err, sizeof err) == SSDLAB_EINVAL);
	CHECKF(!r && strstr(err, "step"), "%s", err);
	CHECK(ssdlab_run_series(dev, w, 1, -5, &r, err, sizeof err) == SSDLAB_EINVAL);
	/* the drive did nothing */
	CHECK(ssdlab_now(dev) == 0);
	ssdlab_jobs_free(w);
	ssdlab_dev_close(dev);
	ssdlab_drive_free(d);
}
