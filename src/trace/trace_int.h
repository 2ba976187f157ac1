/*
 * trace_int.h -- the inside of a trace reader (trace.c), shared with the
 * readers of the other formats (trace_fmt.c) and the file's bytes
 * (trace_file.c).  A text format is one function from a line to a
 * record; blktrace reads its binary records itself.
 */
#ifndef SSD_TRACE_INT_H
#define SSD_TRACE_INT_H

#include <string.h>
#include <zlib.h>

#include "trace/trace.h"

#define TRACE_LINE 4096        /* a line is at most TRACE_LINE - 2 bytes */
#define TRACE_READ (32 << 10)  /* a plain file's read(2), bytes */
#define TRACE_SLACK 16         /* readable bytes after a line's end: an
                                  iolog request's numbers, name and
                                  action are read 8 bytes at a time */
#define TRACE_MAX_FILES 4096

enum { SSD_TDEV_ONE = 0, SSD_TDEV_PICK, SSD_TDEV_ALL };

struct ssd_trace {
	/* the file (trace_file.c): a plain regular file read in blocks of
	 * TRACE_READ into rd (fd >= 0), anything else through zlib (gz) */
	gzFile gz;
	int fd;
	char *rd;               /* TRACE_READ + TRACE_SLACK bytes */
	size_t rd_pos, rd_end;  /* the bytes not handed out: rd[pos, end) */
	int rd_eof;             /* read(2) said the file ends */
	int rd_errno;           /* a read(2) that failed, 0 if none */
	char rd_msg[320];       /* "PATH: what" of that failure */
	char *path;
	int fmt;
	int version;            /* iolog: 2 or 3 */
	uint64_t line;          /* lines (records) read */
	uint64_t pos;           /* binary formats: bytes read */
	int64_t t0;             /* the first record's own time, in the
	                           unit its reader passes trace_rel_ns;
	                           INT64_MIN before the first */
	char buf[TRACE_LINE + TRACE_SLACK];
	char err[512];
	/* iolog's file names */
	char **files;
	uint32_t nfiles;
	uint32_t last_file;     /* the file the last line named */
	size_t last_len;        /* its name's length */
	uint64_t last_name[8];  /* its first 64 bytes, zero-padded */
	int keep_empty;         /* hand on data records of 0 bytes */
	/* the devices: SSD_TDEV_ONE (one device, a second is an error),
	 * SSD_TDEV_PICK (only dev_pick's records), SSD_TDEV_ALL */
	int dev_mode;
	uint32_t dev_pick;
	int dev_seen;           /* dev_first is the first record's device */
	uint32_t dev_first;
};

/* Fail with "PATH:LINE: what" (a printf format): returns SSD_EPARSE. */
int trace_fail(struct ssd_trace *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- the file (trace_file.c) ---- */

/* Open path for reading: 0, or a negative SSD_E* code with "PATH: what"
 * in err.  A plain regular file is read with read(2) in large blocks;
 * one that starts with gzip's magic (1f 8b), and whatever is no regular
 * file (a pipe), through zlib, which also passes plain bytes through. */
int trace_file_open(struct ssd_trace *t, char *err, size_t errlen);
void trace_file_close(struct ssd_trace *t);
/* Back to the first byte: 0, or -1. */
int trace_file_rewind(struct ssd_trace *t);
/* The file's first 4 bytes into b, the file left where it was: how many
 * there are (0 to 4), or -1 if it cannot be read. */
int trace_file_peek(struct ssd_trace *t, unsigned char b[4]);
/* Up to n bytes into buf, as gzread: how many (fewer only at the end),
 * or -1 on an error (trace_file_error says which). */
int trace_file_read(struct ssd_trace *t, void *buf, unsigned n);
/* The next piece of text as zlib's gzgets hands it out of a buffer of
 * TRACE_LINE bytes: through the first newline, else TRACE_LINE - 1 bytes,
 * else the rest of the file; without its newline (and, as a C string, cut
 * at its first NUL byte).  The line is what comes before its first '\r'
 * (trace_cut_cr), which may still be there.  1 with *s (valid until the
 * next call) and *full (it is TRACE_LINE - 1 bytes without its newline:
 * a longer line), 0 at the end, SSD_EIO on a read error (trace_file_error
 * says which), or SSD_EPARSE when compressed data ends early
 * (trace_cut_short's message in t->err, after line t->line). */
int trace_file_gets(struct ssd_trace *t, char **s, int *full);
/* The last read error: "PATH: what". */
const char *trace_file_error(struct ssd_trace *t);
/* The line s cut at its first '\r' (a CRLF file's, or any). */
static inline void trace_cut_cr(char *s)
{
	*strchrnul(s, '\r') = 0;
}

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
