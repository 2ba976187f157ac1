/*
 * cliff.h -- the SLC-cache cliff of a sequential fill.
 *
 * A fill is a run of points: bytes[i] written at rate[i] (MB/s, any unit
 * as long as it is the same for every point).  An SLC cache shows as a
 * fast start and a cliff, found by one rule:
 *
 *   - the initial rate is the median of the first `head` points;
 *   - the cliff is the first point from which the rate stays below
 *     drop x initial for `hold` consecutive points;
 *   - the cache is the bytes written before that point, plus, with
 *     `split`, the part of the cliff point written at the rate before it:
 *     the point's time b/r = x/v1 + (b - x)/v2, with v1 the rate of the
 *     points before (bytes over time; the initial rate if none) and v2
 *     the rate after, gives x (clamped to 0..b);
 *   - the rate after is the median of the points after the cliff point
 *     (with `split`: it straddles the cliff) or from it (without), of
 *     every point when there is no cliff.
 *
 * The callers choose head, hold and split for their points: the
 * slc-cache scenario's equal-time points (noisy: median of 8, hold 4,
 * no split), calibration's coarse chunks (the first chunk, hold 1, the
 * cliff placed inside its chunk).
 */
#ifndef SSD_CLIFF_H
#define SSD_CLIFF_H

struct ssd_cliff_rule {
	double drop;    /* a cliff is a fall below this share of initial */
	int hold;       /* ... for this many consecutive points (>= 1) */
	int head;       /* initial: the median of this many first points */
	int split;      /* place the cliff inside its point (see above) */
};

struct ssd_cliff {
	int at;         /* the cliff point, -1 without a cliff */
	double initial; /* rate */
	double cache;   /* bytes before the cliff (0 without one) */
	double post;    /* rate after it */
};

/* Find the cliff of n points (n >= 1) by rule r.  Returns 0 or
 * SSD_ENOMEM. */
int ssd_cliff_find(const double *bytes, const double *rate, int n,
		   const struct ssd_cliff_rule *r, struct ssd_cliff *out);

#endif
