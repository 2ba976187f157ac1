/*
 * trace_int.h -- the inside of a trace reader (trace.c), shared with the
 * readers of the other formats (trace_fmt.c).  A text format is one
 * function from a line to a record; blktrace reads its binary records
 * itself.
 */
#ifndef SSD_TRACE_INT_H
#define SSD_TRACE_INT_H

#include <zlib.h>

#include "host/trace.h"

#define TRACE_LINE 4096
#define TRACE_MAX_FILES 4096

struct ssd_trace {
	gzFile gz;
	char *path;
	int fmt;
	int version;            /* iolog: 2 or 3 */
	uint64_t line;          /* lines (records) read */
	uint64_t pos;           /* binary formats: bytes read */
	int64_t t0;             /* the first record's own time, in the
	                           unit its reader passes trace_rel_ns;
	                           INT64_MIN before the first */
	char buf[TRACE_LINE];
	char err[512];
	/* iolog's file names */
	char **files;
	uint32_t nfiles;
	uint32_t last_file;     /* the file the last line named */
	int keep_empty;         /* hand on data records of 0 bytes */
};

/* Fail with "PATH:LINE: what" (a printf format): returns SSD_EPARSE. */
int trace_fail(struct ssd_trace *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A text format's line into *r: 1 with a record, 0 for a line to skip (a
 * header, a comment, an event that is no request), or trace_fail's code.
 * The line has no newline; blank lines never reach it. */
typedef int (*trace_line_fn)(struct ssd_trace *t, char *line,
			     struct ssd_trace_rec *r);

/* The readers of trace_fmt.c, by format (NULL for iolog, which trace.c
 * reads, and for blktrace, which is binary). */
extern const trace_line_fn ssd_trace_line_fns[SSD_TRACE_NFMT];
/* blktrace: the next queue event into *r, as ssd_trace_next. */
int ssd_trace_blktrace_next(struct ssd_trace *t, struct ssd_trace_rec *r);

/* If the compressed file ended before its end (zlib's Z_BUF_ERROR): fail
 * with "PATH: compressed data ends early (after UNIT DONE)", DONE the
 * whole lines (records, bytes) read, and return SSD_EPARSE; else 0. */
int trace_cut_short(struct ssd_trace *t, const char *unit, uint64_t done);

/* A record's time on the format's own clock, in its own unit, relative to
 * the first record's (whose time it keeps in t0): the first is 0, so a
 * trace that starts at a wall-clock date starts at 0 here.  The caller
 * scales the difference to ns. */
int64_t trace_rel_ns(struct ssd_trace *t, int64_t v);

#endif
