/* fio's steady-state criteria (steadystate.c) against direct formulas. */
#include <math.h>

#include "job/steadystate.h"
#include "t.h"

/* Least-squares slope of y[0..n-1] against 0..n-1. */
static double slope_of(const double *y, int n)
{
	double mx = (n - 1) / 2.0, my = 0, num = 0, den = 0;
	for (int i = 0; i < n; i++)
		my += y[i] / n;
	for (int i = 0; i < n; i++) {
		num += (i - mx) * (y[i] - my);
		den += (i - mx) * (i - mx);
	}
	return num / den;
}

/* Nothing is judged before the window is full; then the largest distance
 * from the mean, in % of the mean, against the limit. */
TEST(ss_deviation_judges_a_full_window)
{
	struct ssd_ss s;
	CHECK(ssd_ss_init(&s, SSD_SS_IOPS | SSD_SS_PCT, 10.0, 4, 4) == 0);
	CHECK(!ssd_ss_add(&s, 100, 0, 0));
	CHECK(!ssd_ss_add(&s, 200, 0, 0));
	CHECK(!ssd_ss_add(&s, 100, 0, 0));
	/* window 100 200 100 100: mean 125, deviation 75 = 60% */
	CHECK(!ssd_ss_add(&s, 100, 0, 0));
	CHECK(fabs(s.deviation - 75) < 1e-9 && fabs(s.criterion - 60) < 1e-9);
	/* 200 100 100 104 */
	CHECK(!ssd_ss_add(&s, 104, 0, 0));
	CHECK(ssd_ss_mean(&s, s.iops) == (200 + 100 + 100 + 104) / 4);
	/* 100 100 104 98: mean 100.5, deviation 3.5 = 3.48% < 10% */
	CHECK(ssd_ss_add(&s, 98, 0, 0));
	CHECK(s.state & SSD_SS_ATTAINED);
	CHECK(fabs(s.criterion - 100 * 3.5 / 100.5) < 1e-9);
	/* the window oldest first */
	uint32_t f = ssd_ss_first(&s);
	uint64_t want[] = {100, 100, 104, 98};
	for (uint32_t i = 0; i < 4; i++)
		CHECK(s.iops[(f + i) % 4] == want[i]);
	/* once attained, nothing changes */
	CHECK(!ssd_ss_add(&s, 5000, 0, 0));
	CHECK(s.iops[(f + 3) % 4] == 98);
	ssd_ss_free(&s);
}

/* The slope of a sliding window, updated in O(1), equals the
 * least-squares slope of the window computed afresh, sample after
 * sample; with N% it is taken against the integer mean. */
TEST(ss_slope_follows_the_window)
{
	struct ssd_ss s;
	enum { N = 5, M = 40 };
	CHECK(ssd_ss_init(&s, SSD_SS_BW | SSD_SS_SLOPE | SSD_SS_PCT, 1e-12,
			  N, N) == 0);
	double y[M];
	for (int i = 0; i < M; i++)
		y[i] = 1000 + 37 * ((i * 7) % 11) + 3 * i;
	for (int i = 0; i < M; i++) {
		CHECK(!ssd_ss_add(&s, 0, (uint64_t)y[i], 0));
		if (i < N - 1)
			continue;
		double want = slope_of(&y[i - N + 1], N);
		CHECKF(fabs(s.slope - want) < 1e-9, "i=%d %g %g", i, s.slope, want);
		uint64_t sum = 0;
		for (int k = i - N + 1; k <= i; k++)
			sum += (uint64_t)y[k];
		CHECK(fabs(s.criterion - 100 * want / (double)(sum / N)) < 1e-9);
	}
	/* the data not attained: oldest first is the window's start */
	uint32_t f = ssd_ss_first(&s);
	for (int i = 0; i < N; i++)
		CHECK(s.bw[(f + (uint32_t)i) % N] == (uint64_t)y[M - N + i]);
	ssd_ss_free(&s);
}

/* A flat series has slope 0 and attains any positive limit; the
 * latency series is judged when asked for. */
TEST(ss_flat_latency_is_steady)
{
	struct ssd_ss s;
	CHECK(ssd_ss_init(&s, SSD_SS_LAT | SSD_SS_SLOPE, 0.5, 3, 3) == 0);
	CHECK(!ssd_ss_add(&s, 1, 1, 5000));
	CHECK(!ssd_ss_add(&s, 9, 9, 5000));
	CHECK(ssd_ss_add(&s, 4, 4, 5000));
	CHECK(s.slope == 0 && s.criterion == 0);
	ssd_ss_free(&s);
}
