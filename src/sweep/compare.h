/*
 * compare.h -- two results side by side, and where their difference
 * comes from (`ssdlab compare`, docs/sweeps.md "Comparing two results").
 *
 * A result is what `ssdlab run --output-format=json` writes, or a folder
 * holding one as result.json (a sweep's point), or a scenario's
 * result.json (or its folder).  Two runs: the drive keys that differ,
 * then each job the two share (by name; else by position) with its
 * IOPS, bandwidth and latency per direction and its WAF, then the NAND
 * writes per host page split by cause -- host data, GC copies, padding,
 * SLC folding, wear leveling, map pages -- and what slows commands:
 * stalls (completions over 1 s), map-page reads per command (map-cache
 * misses), read retries, read-modify-write reads (in text, a cause that
 * is zero in both is left out).  Two scenarios: every
 * number of their result.json side by side.
 */
#ifndef SSD_COMPARE_H
#define SSD_COMPARE_H

#include <stdio.h>

/* Compare results a and b (files or folders) onto out; json: as one
 * JSON document.  0, or an SSD_E* code with "FILE: ..." in err. */
int ssd_compare(const char *a, const char *b, int json, FILE *out, char *err,
		size_t errlen);

#endif
