/* Unit tests for life.c: the lifetime arithmetic against hand-computed
 * values (the 2008 essay's own figures among them), and the measurement
 * and endurance runs on the tiny drive. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "methods/life.h"
#include "t.h"
#include "t_sim.h"

static int near(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want);
}

TEST(life_essay_arithmetic)
{
	/* "32 GB drive = 29.8 GB formatted, 5,000 cycles, each full write
	 * costs 2 cycles: 29.8 GB x 5000 / 2 = 74,500 GB" */
	double tbw = ssd_life_naive_tbw(29.8e9, 5000, SSD_LIFE_NAIVE_FACTOR);
	CHECKF(near(tbw, 74500e9, 1e-12), "tbw %.0f", tbw);
	/* "over 5 years = 40.8 GB/day": 74,500 / (5 x 365) = 40.82 */
	double daily = ssd_life_daily_for_years(tbw, 5);
	CHECKF(near(daily, 74500e9 / 1825, 1e-12), "daily %.0f", daily);
	CHECKF(floor(daily / 1e8 + 0.5) == 408, "daily %.3f GB", daily / 1e9);
	/* and back: 74,500 GB at 40.8 GB a day lasts 1826 days, 5.00 years */
	double days = ssd_life_days(tbw, 40.8e9);
	CHECKF(near(days, 1825.98, 1e-5), "days %.3f", days);
	CHECKF(near(ssd_life_years(days), 5.0027, 1e-4), "years %.4f",
	       ssd_life_years(days));
	CHECK(ssd_life_years(365) == 1);
}

TEST(life_formulas_and_degenerate_inputs)
{
	CHECK(ssd_life_nand_bytes(1e9, 3000) == 3e12);
	CHECK(ssd_life_tbw(3e12, 4) == 0.75e12);
	CHECK(ssd_life_tbw(3e12, 0) == 0);
	CHECK(ssd_life_tbw(3e12, -1) == 0);
	CHECK(ssd_life_tbw(3e12, NAN) == 0);
	CHECK(ssd_life_tbw(3e12, INFINITY) == 0);
	CHECK(ssd_life_days(1e12, 0) == 0);
	CHECK(ssd_life_days(1e12, 1e10) == 100);
	CHECK(ssd_life_daily_for_years(1e12, 0) == 0);
	CHECK(ssd_life_naive_tbw(1e9, 3000, 0) == 0);
	CHECK(ssd_life_naive_tbw(1e9, 3000, 2) == 1.5e12);
}

/* The tiny preset's geometry: 64 MiB, 4 KiB pages, 64 pages a block,
 * 2 x 2 x 1 planes -> 69 blocks a plane, 276 blocks of 256 KiB. */
static int tiny_config(struct ssd_config *c, const char *pe)
{
	char err[256], pec[64];
	snprintf(pec, sizeof pec, "pe_cycles=%s", pe ? pe : "");
	const char *const sets[] = {"capacity=64m", "op=0.07", "page_size=4k",
				    "pages_per_block=64", "channels=2",
				    "dies_per_channel=2", "planes_per_die=1",
				    "cell=tlc", pec};
	return t_sim_config(c, NULL, sets, pe ? 9 : 8, err, sizeof err);
}

TEST(life_estimate_hand_computed)
{
	struct ssd_config c;
	CHECK(tiny_config(&c, "50") == 0);
	CHECK(c.blocks_per_plane == 69);
	struct ssd_life_estimate e;
	ssd_life_estimate(&c, 12.0, 20.0 * (1 << 30), &e);
	CHECK(e.user_bytes == 67108864);
	CHECK(e.physical_blocks == 276);
	CHECK(e.block_bytes == 262144);
	CHECK(e.physical_bytes == 72351744);
	CHECK(e.pe_cycles == 50);
	/* 72,351,744 x 50 = 3,617,587,200 NAND bytes; / 12 = 301,465,600 */
	CHECK(e.nand_bytes == 3617587200.0);
	CHECK(e.tbw_bytes == 301465600.0);
	/* at 20 GiB = 21,474,836,480 bytes a day: 0.0140381 days */
	CHECKF(near(e.days, 0.01403808593, 1e-9), "days %.12f", e.days);
	CHECKF(near(e.years, 0.01403808593 / 365, 1e-9), "years %g", e.years);
	/* essay: 64 MiB x 50 / 2 = 1,677,721,600 = 1.5625 GiB: 0.078125 of
	 * 20 GiB */
	CHECK(e.naive_factor == 2);
	CHECK(e.naive_tbw_bytes == 1677721600.0);
	CHECK(e.naive_days == 0.078125);
	/* 12 x 67,108,864 / 72,351,744 = 11.130434... (= 12 x 256 / 276) */
	CHECKF(near(e.equivalent_factor, 12.0 * 256 / 276, 1e-12), "eq %g",
	       e.equivalent_factor);
}

TEST(life_estimate_default_drive)
{
	/* 32 GiB, 7% OP, 16 KiB x 256 pages, 4 x 2 x 2 planes: 548 blocks a
	 * plane, 8768 blocks of 4 MiB = 36,775,657,472 bytes; TLC: 3000
	 * cycles -> 110,326,972,416,000 NAND bytes (110.3 TB) */
	struct ssd_config c;
	char err[256];
	ssd_config_defaults(&c);
	CHECK(ssd_config_finish(&c, err, sizeof err) == 0);
	struct ssd_life_estimate e;
	ssd_life_estimate(&c, 8.0, 20e9, &e);
	CHECK(e.physical_blocks == 8768);
	CHECK(e.block_bytes == 4194304);
	CHECK(e.physical_bytes == 36775657472ULL);
	CHECK(e.pe_cycles == 3000);
	CHECK(e.nand_bytes == 110326972416000.0);
	CHECK(e.tbw_bytes == 13790871552000.0);
	CHECK(e.days == 689.5435776);
	/* 34,359,738,368 x 3000 / 2 = 51,539,607,552,000 */
	CHECK(e.naive_tbw_bytes == 51539607552000.0);
}

TEST(life_run_measures_waf_on_tiny)
{
	struct ssd_config c;
	CHECK(tiny_config(&c, NULL) == 0);
	struct ssd_job *jobs = NULL;
	int njobs = 0;
	char err[512];
	CHECKF(ssd_life_builtin_jobs(c.capacity, &jobs, &njobs, err,
				     sizeof err) == 0, "%s", err);
	CHECK(njobs == 3);
	struct ssd_life_run r;
	int rc = ssd_life_run(&c, jobs, njobs, 1, 0, NULL, &r, err, sizeof err);
	CHECKF(rc == 0, "%s", err);
	/* measured: the last job, one capacity of 4 KiB writes */
	CHECK(r.measured_host_lp == 16384);
	CHECK(r.measured_nand_lp > r.measured_host_lp);
	CHECKF(r.waf > 2 && r.waf < 30, "waf %g", r.waf);
	CHECK(r.waf == (double)r.measured_nand_lp / (double)r.measured_host_lp);
	CHECK(!r.until_worn && !r.worn_out && r.passes == 1);
	/* from fresh: fill + precondition + measure */
	CHECK(r.host_bytes == 3ULL * 16384 * 4096);
	CHECK(r.host_ios == 3 * 16384);
	CHECK(!r.health.read_only);
	/* deterministic */
	struct ssd_life_run r2;
	CHECK(ssd_life_run(&c, jobs, njobs, 1, 0, NULL, &r2, err, sizeof err) == 0);
	CHECK(r2.measured_nand_lp == r.measured_nand_lp);
	CHECK(r2.sim_ns == r.sim_ns);
	free(jobs);
}

TEST(life_endurance_run_wears_out)
{
	struct ssd_config c;
	CHECK(tiny_config(&c, SSD_LIFE_ACCEL_PE_CYCLES) == 0);
	char err[512];
	CHECK(ssd_config_set(&c, "pe_spread", SSD_LIFE_ACCEL_PE_SPREAD, NULL,
			     err, sizeof err) == 0);
	CHECK(ssd_config_finish(&c, err, sizeof err) == 0);
	struct ssd_job *jobs = NULL;
	int njobs = 0;
	CHECK(ssd_life_builtin_jobs(c.capacity, &jobs, &njobs, err,
				    sizeof err) == 0);
	struct ssd_life_run r;
	int rc = ssd_life_run(&c, jobs, njobs, 1, 1, NULL, &r, err, sizeof err);
	CHECKF(rc == 0, "%s", err);
	CHECK(r.until_worn && r.worn_out && r.health.read_only);
	CHECK(r.passes >= 2);
	struct ssd_life_estimate e;
	ssd_life_estimate(&c, r.waf, 1e9, &e);
	double ratio = (double)r.host_bytes / e.tbw_bytes;
	/* blocks fail near their rating: within a factor 1.5 either way */
	CHECKF(ratio > 0.67 && ratio < 1.5, "ratio %g", ratio);
	/* the NAND did absorb most of its rated endurance */
	CHECKF((double)r.nand_bytes > 0.5 * e.nand_bytes &&
	       (double)r.nand_bytes < 1.1 * e.nand_bytes,
	       "nand %llu of %g", (unsigned long long)r.nand_bytes,
	       e.nand_bytes);
	free(jobs);
}

TEST(life_run_errors)
{
	struct ssd_config c;
	CHECK(tiny_config(&c, NULL) == 0);
	char err[512];
	struct ssd_job *jobs = NULL;
	int njobs = 0;
	struct ssd_life_run r;
	/* the measured group only reads */
	CHECK(ssd_jobfile_parse_string("[fill]\nrw=write\n"
				       "[read]\nstonewall\nrw=randread\n",
				       "t", c.capacity, &jobs, &njobs, err,
				       sizeof err) == 0);
	CHECK(ssd_life_run(&c, jobs, njobs, 1, 0, NULL, &r, err, sizeof err) ==
	      SSD_EINVAL);
	CHECKF(strstr(err, "'read'") && strstr(err, "write nothing"), "%s",
	       err);
	free(jobs);
	CHECK(ssd_life_run(&c, NULL, 0, 1, 0, NULL, &r, err, sizeof err) ==
	      SSD_EINVAL);
	/* a drive that wears out before the measurement ends */
	CHECK(tiny_config(&c, "3") == 0);
	CHECK(ssd_life_builtin_jobs(c.capacity, &jobs, &njobs, err,
				    sizeof err) == 0);
	CHECK(ssd_life_run(&c, jobs, njobs, 1, 0, NULL, &r, err, sizeof err) ==
	      SSD_EROFS);
	CHECKF(strstr(err, "wore out") && strstr(err, "pe_cycles"), "%s", err);
	free(jobs);
}
