/* fio's data placement options in the job runner (fdp=1, plids;
 * src/run/placement.c, docs/fdp.md): every write of a job carries its
 * placement identifier to the drive, at any iodepth -- not only the
 * first ones a job issues, before its commands come back and its
 * issuing takes the runner's short path. */
#include <stdio.h>
#include <string.h>

#include "machine/device.h"
#include "run/sim.h"
#include "t.h"
#include "t_sim.h"

static char err[512];

/* The tiny drive with two initially isolated handles. */
static struct ssd_dev *fdp_drive(void)
{
	const char *set[] = {"fdp=yes", "fdp_handles=2", "op=0.3"};
	return t_sim_drive("tiny", set, 3, err, sizeof err);
}

/* Two jobs writing in order, round and round, for 30 s: a log over the
 * first 48 MiB on placement identifier 0 and one over the last 16 MiB
 * on 1 (placement: 1 with fdp=1, 0 without), at iodepth qd.  The GC
 * copies of the run into *copies; 0 or the run's code. */
static int two_logs(int placement, int qd, uint64_t *copies)
{
	char text[512];
	snprintf(text, sizeof text,
		 "[global]\nbs=4k\niodepth=%d\nfdp=%d\ntime_based\nruntime=30s\n"
		 "[log]\nrw=write\noffset=0\nsize=48m\nplids=0\n"
		 "[other]\nrw=write\noffset=48m\nsize=16m\nplids=1\n",
		 qd, placement);
	struct ssd_dev *d = fdp_drive();
	if (!d)
		return -1;
	struct ssd_run_result res;
	int rc = t_sim_run(d, text, &res, err, sizeof err);
	*copies = ssd_dev_counters(d)->gc_copy_lp;
	ssd_run_result_free(&res);
	ssd_dev_destroy(d);
	return rc;
}

/* Each log on a handle of its own fills blocks that die whole when it
 * comes round, so GC never copies a page; on one handle the logs share
 * blocks, the short one's pages die three times as often as the long
 * one's, and GC copies the long one's. */
TEST(run_placement_two_logs_on_their_own_handles_cost_no_copies)
{
	for (int qd = 1; qd <= 4; qd *= 4) {
		uint64_t mixed, placed;
		CHECKF(two_logs(0, qd, &mixed) == 0, "iodepth %d: %s", qd, err);
		CHECKF(two_logs(1, qd, &placed) == 0, "iodepth %d: %s", qd, err);
		CHECKF(mixed > 10000 && placed == 0,
		       "iodepth %d: GC copies: one handle %llu, a handle each %llu",
		       qd, (unsigned long long)mixed,
		       (unsigned long long)placed);
	}
}

/* The drive's handle after a job's last write is the job's. */
TEST(run_placement_the_last_write_carries_the_identifier)
{
	for (int qd = 1; qd <= 8; qd *= 8) {
		char text[256];
		snprintf(text, sizeof text, "[w]\nrw=randwrite\nbs=4k\n"
			 "iodepth=%d\nsize=1m\nfdp=1\nplids=1\n", qd);
		struct ssd_dev *d = fdp_drive();
		CHECKF(d, "%s", err);
		struct ssd_run_result res;
		CHECKF(t_sim_run(d, text, &res, err, sizeof err) == 0, "%s", err);
		CHECK(res.jobs[0].dir[SSD_DDIR_WRITE].ios == 256);
		CHECKF(ssd_ftl_placement(d->ftl) == 1,
		       "iodepth %d: the drive's handle is %u", qd,
		       ssd_ftl_placement(d->ftl));
		ssd_run_result_free(&res);
		ssd_dev_destroy(d);
	}
}
