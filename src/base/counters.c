/*
 * counters.c -- differences of counter snapshots and write amplification
 * (counters.h).
 */
#include "base/counters.h"

#include <math.h>
#include <stddef.h>

#include "base/config.h"

/* Every field of struct ssd_counters is a uint64_t count, so the
 * difference is taken field by field over the struct as an array (a new
 * counter needs no change here). */
_Static_assert(sizeof(struct ssd_counters) % sizeof(uint64_t) == 0,
	       "struct ssd_counters holds only uint64_t counts");

void ssd_counters_sub(struct ssd_counters *c, const struct ssd_counters *a,
		      const struct ssd_counters *b)
{
	const size_t n = sizeof *c / sizeof(uint64_t);
	uint64_t *pc = (uint64_t *)c;
	const uint64_t *pa = (const uint64_t *)a, *pb = (const uint64_t *)b;
	for (size_t i = 0; i < n; i++)
		pc[i] = pa[i] - pb[i];
}

double ssd_counters_waf(const struct ssd_counters *c)
{
	if (c->host_write_bytes)
		return (double)c->nand_prog_lp * SSD_LPAGE / (double)c->host_write_bytes;
	if (!c->host_write_lp)
		return NAN;
	return (double)c->nand_prog_lp / (double)c->host_write_lp;
}

double ssd_counters_waf_since(const struct ssd_counters *now,
			      const struct ssd_counters *then)
{
	struct ssd_counters d;
	ssd_counters_sub(&d, now, then);
	return ssd_counters_waf(&d);
}
