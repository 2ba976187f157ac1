/*
 * report.h -- a finished run as people and programs read it: text shaped
 * like fio's, and JSON in fio's layout (jobs[].read/write/trim with
 * io_bytes, bw, iops, runtime, lat_ns/clat_ns and percentiles) plus
 * ssdlab's own objects.
 */
#ifndef SSD_REPORT_H
#define SSD_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "ssdlab.h"        /* SSDLAB_VERSION, defined once there */
#include "base/config.h"
#include "base/json.h"
#include "result/result.h"   /* the run's figures, as the runner left them */

/* Every writer returns 0, or SSD_ENOMEM before it has written anything
 * (the figures of the groups are gathered first).  A stream that fails
 * is the caller's to see (ferror). */

/* fio-like text.  Deterministic apart from the wall-time line. */
int ssd_report_normal(const struct ssd_run_result *r, FILE *out);
/* fio-shaped JSON.  Wall-time fields live only in the top-level "ssdlab"
 * object ("wall_seconds", "host_ios_per_wall_second"); everything else is
 * a function of the inputs and seed.  "fio version" is "ssdlab-<ver>". */
int ssd_report_json(const struct ssd_run_result *r, FILE *out);

/* fio's json+: the JSON above with each latency histogram also written
 * as "bins" ({"<ns>" : count} for the non-empty buckets, keyed by the
 * value the bucket stands for), under clat_ns and sync.lat_ns. */
int ssd_report_json_plus(const struct ssd_run_result *r, FILE *out);
/* fio's terse (--minimal) output, version 3: one line of
 * semicolon-separated fields per job, in fio's order, latencies in usec;
 * the host's CPU use and the disk's kernel counters are zeros. */
int ssd_report_terse(const struct ssd_run_result *r, FILE *out);

/* Output formats, fio's --output-format: several may be combined. */
enum { SSD_OUT_NORMAL = 1, SSD_OUT_JSON = 2, SSD_OUT_JSON_PLUS = 4,
       SSD_OUT_TERSE = 8 };
/* Parse "normal", "json", "json+", "terse" or a comma list of them into
 * *formats; SSD_EPARSE for anything else. */
int ssd_output_formats(const char *list, unsigned *formats);
/* Write the report in every format of `formats`, in fio's order: the
 * normal output's job lines, then terse, JSON (json+ if both), the
 * normal report. */
int ssd_report(const struct ssd_run_result *r, unsigned formats, FILE *out);

#endif
