/*
 * cliff.c -- the SLC-cache cliff of a sequential fill (cliff.h).
 */
#include "methods/cliff.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The median of v[0..n) (0 for none), sorted in tmp. */
static double median_of(const double *v, int n, double *tmp)
{
	if (n <= 0)
		return 0;
	memcpy(tmp, v, (size_t)n * sizeof *v);
	return ssd_median(tmp, (size_t)n);
}

int ssd_cliff_find(const double *bytes, const double *rate, int n,
		   const struct ssd_cliff_rule *r, struct ssd_cliff *out)
{
	memset(out, 0, sizeof *out);
	out->at = -1;
	double *tmp = malloc(((size_t)n + 1) * sizeof *tmp);
	if (!tmp)
		return SSD_ENOMEM;
	int head = r->head < n ? r->head : n;
	out->initial = median_of(rate, head, tmp);
	int hold = r->hold > 1 ? r->hold : 1;
	for (int i = 0; i + hold <= n && out->at < 0; i++) {
		int below = 1;
		for (int k = 0; k < hold && below; k++)
			below = rate[i + k] < r->drop * out->initial;
		if (below)
			out->at = i;
	}
	int at = out->at;
	if (at < 0) {
		out->post = median_of(rate, n, tmp);
		free(tmp);
		return 0;
	}
	double before = 0, t1 = 0;
	for (int k = 0; k < at; k++) {
		before += bytes[k];
		t1 += bytes[k] / rate[k];
	}
	out->cache = before;
	if (!r->split) {
		out->post = median_of(rate + at, n - at, tmp);
		free(tmp);
		return 0;
	}
	double v1 = at > 0 ? before / t1 : out->initial;
	int m = n - at - 1;
	double v2 = m > 0 ? median_of(rate + at + 1, m, tmp) : rate[at];
	double x = 0, b = bytes[at];
	if (v2 < v1)
		x = (b / v2 - b / rate[at]) / (1 / v2 - 1 / v1);
	if (x < 0)
		x = 0;
	if (x > b)
		x = b;
	out->cache = before + x;
	out->post = v2;
	free(tmp);
	return 0;
}
