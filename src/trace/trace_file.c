/*
 * trace_file.c -- the bytes of a trace file and its lines, for the
 * readers of trace.c and trace_fmt.c (trace_int.h), and the errors that
 * name where a reader is in it.
 *
 * A plain regular file is read with read(2) in blocks of TRACE_READ
 * bytes and its lines are handed out where they lie in that buffer, the
 * newline overwritten by a NUL: a line costs one memchr and no copy.  A
 * file that starts with gzip's magic (1f 8b), and anything that is no
 * regular file (a pipe, whose bytes cannot be peeked at and read again),
 * goes through zlib's gzgets and gzread as it always has.  zlib passes
 * plain bytes through too, but copies each line out of its own buffer,
 * and strlen and strcspn then scan it twice more.
 *
 * Both hand out the same pieces: gzgets' own, through the first newline
 * or TRACE_LINE - 1 bytes of a longer line (which the reader refuses) or
 * the rest of the file, cut at the newline and, read as a C string, at
 * the first NUL byte; a line is what comes before its first '\r' (the
 * caller cuts there, where it has to).  So a plain file and its gzip copy
 * read alike, to the line numbers of their errors.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "trace/trace_int.h"

int trace_file_open(struct ssd_trace *t, char *err, size_t errlen)
{
	t->fd = -1;
	struct stat st;
	if (!stat(t->path, &st) && S_ISREG(st.st_mode)) {
		int fd = open(t->path, O_RDONLY | O_CLOEXEC);
		unsigned char m[2];
		ssize_t k = fd >= 0 ? pread(fd, m, 2, 0) : -1;
		if (k >= 0 && !(k == 2 && m[0] == 0x1f && m[1] == 0x8b)) {
			if (!(t->rd = calloc(1, TRACE_READ + TRACE_SLACK))) {
				close(fd);
				snprintf(err, errlen, "out of memory");
				return SSD_ENOMEM;
			}
			t->fd = fd;
			return 0;
		}
		/* compressed, or it fails: zlib reads it, or says why not */
		if (fd >= 0)
			close(fd);
	}
	t->gz = gzopen(t->path, "rb");
	if (!t->gz) {
		snprintf(err, errlen, "%s: %s", t->path, errno ? strerror(errno)
			 : "cannot open it");
		return errno == ENOENT ? SSD_ENOENT : SSD_EIO;
	}
	gzbuffer(t->gz, 1 << 17);
	return 0;
}

void trace_file_close(struct ssd_trace *t)
{
	if (t->gz)
		gzclose(t->gz);
	if (t->fd >= 0)
		close(t->fd);
	free(t->rd);
}

/* The unread bytes moved to the front of rd and the rest of it read in:
 * until it is full, the file ends or a read fails. */
static void fill(struct ssd_trace *t)
{
	size_t left = t->rd_end - t->rd_pos;
	if (t->rd_pos) {
		memmove(t->rd, t->rd + t->rd_pos, left);
		t->rd_pos = 0;
		t->rd_end = left;
	}
	while (t->rd_end < TRACE_READ && !t->rd_eof && !t->rd_errno) {
		ssize_t k = read(t->fd, t->rd + t->rd_end, TRACE_READ - t->rd_end);
		if (k > 0)
			t->rd_end += (size_t)k;
		else if (!k)
			t->rd_eof = 1;
		else if (errno != EINTR)
			t->rd_errno = errno;
	}
}

int trace_file_rewind(struct ssd_trace *t)
{
	if (t->gz)
		return gzrewind(t->gz) ? -1 : 0;
	if (lseek(t->fd, 0, SEEK_SET) < 0)
		return -1;
	t->rd_pos = t->rd_end = 0;
	t->rd_eof = 0;
	t->rd_errno = 0;
	return 0;
}

int trace_file_peek(struct ssd_trace *t, unsigned char b[4])
{
	if (t->gz) {
		int n = gzread(t->gz, b, 4);
		return n < 0 || gzrewind(t->gz) ? -1 : n;
	}
	if (t->rd_end - t->rd_pos < 4)
		fill(t);
	if (t->rd_errno)
		return -1;
	size_t n = t->rd_end - t->rd_pos < 4 ? t->rd_end - t->rd_pos : 4;
	memcpy(b, t->rd + t->rd_pos, n);
	return (int)n;
}

int trace_file_read(struct ssd_trace *t, void *buf, unsigned n)
{
	if (t->gz)
		return gzread(t->gz, buf, n);
	unsigned got = 0;
	while (got < n) {
		if (t->rd_pos == t->rd_end) {
			if (t->rd_errno)
				return -1;
			if (t->rd_eof)
				break;
			fill(t);
			continue;
		}
		size_t k = t->rd_end - t->rd_pos;
		if (k > n - got)
			k = n - got;
		memcpy((char *)buf + got, t->rd + t->rd_pos, k);
		t->rd_pos += k;
		got += (unsigned)k;
	}
	return (int)got;
}

static int gz_gets(struct ssd_trace *t, char **s, int *full)
{
	if (!gzgets(t->gz, t->buf, TRACE_LINE)) {
		int e;
		gzerror(t->gz, &e);
		if (trace_cut_short(t, "line", t->line))
			return SSD_EPARSE;
		return e && e != Z_STREAM_END ? SSD_EIO : 0;
	}
	size_t n = strlen(t->buf);
	if ((!n || t->buf[n - 1] != '\n') && trace_cut_short(t, "line", t->line))
		return SSD_EPARSE;
	*full = n == TRACE_LINE - 1 && t->buf[n - 1] != '\n' && !gzeof(t->gz);
	t->buf[strcspn(t->buf, "\r\n")] = 0;
	*s = t->buf;
	return 1;
}

int trace_file_gets(struct ssd_trace *t, char **s, int *full)
{
	if (t->gz)
		return gz_gets(t, s, full);
	/* a whole piece is in the buffer, or the file ends in it */
	if (t->rd_end - t->rd_pos < TRACE_LINE - 1 && !t->rd_eof && !t->rd_errno)
		fill(t);
	char *p = t->rd + t->rd_pos;
	size_t avail = t->rd_end - t->rd_pos;
	size_t n = avail < TRACE_LINE - 1 ? avail : TRACE_LINE - 1;
	char *nl = memchr(p, '\n', n);
	*full = 0;
	if (nl) {
		*nl = 0;
		t->rd_pos += (size_t)(nl - p) + 1;
	} else {
		/* the rest of the file (its last line has no newline), or a
		 * longer line's first TRACE_LINE - 1 bytes: copied out, as
		 * the byte after them is the next piece's */
		if (n < TRACE_LINE - 1 && t->rd_errno)
			return SSD_EIO;
		if (!n)
			return 0;
		memcpy(t->buf, p, n);
		t->buf[n] = 0;
		t->rd_pos += n;
		p = t->buf;
		*full = n == TRACE_LINE - 1 && !memchr(p, 0, n);
	}
	*s = p;
	return 1;
}

const char *trace_file_error(struct ssd_trace *t)
{
	if (t->gz) {
		int e;
		return gzerror(t->gz, &e);
	}
	snprintf(t->rd_msg, sizeof t->rd_msg, "%s: %s", t->path,
		 strerror(t->rd_errno));
	return t->rd_msg;
}

/* ---- where a reader is, for its errors (trace_int.h) ---- */

int trace_fail(struct ssd_trace *t, const char *fmt, ...)
{
	char what[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (t->fmt == SSD_TRACE_BLKTRACE)
		snprintf(t->err, sizeof t->err, "%s: byte %llu: %s", t->path,
			 (unsigned long long)t->pos, what);
	else
		snprintf(t->err, sizeof t->err, "%s:%llu: %s", t->path,
			 (unsigned long long)t->line, what);
	return SSD_EPARSE;
}

int trace_cut_short(struct ssd_trace *t, const char *unit, uint64_t done)
{
	if (!t->gz)
		return 0;
	int e;
	gzerror(t->gz, &e);
	if (e != Z_BUF_ERROR)
		return 0;
	snprintf(t->err, sizeof t->err, "%s: compressed data ends early (after "
		 "%s %llu)", t->path, unit, (unsigned long long)done);
	return SSD_EPARSE;
}

int64_t trace_rel_ns(struct ssd_trace *t, int64_t v)
{
	if (t->t0 == INT64_MIN)
		t->t0 = v;
	return v - t->t0;
}
