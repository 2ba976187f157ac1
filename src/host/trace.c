/*
 * trace.c -- opening traces, fio's iolog, and the stream every format
 * shares (trace.h).  The other formats' readers are in trace_fmt.c.
 *
 * zlib reads the file: gzgets and gzread pass a plain file through as it
 * is, so one path serves both, and a compressed trace of any size streams
 * a line at a time.  A compressed file cut short (a copy that did not
 * finish) hands back what it had, the last line cut anywhere; zlib says
 * so (Z_BUF_ERROR), and the reader fails there rather than read the cut
 * line as a record.
 */
#include "host/trace.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "host/trace_int.h"

static const char *const fmt_names[SSD_TRACE_NFMT] = {
	[SSD_TRACE_AUTO] = "auto",       [SSD_TRACE_IOLOG] = "iolog",
	[SSD_TRACE_BLKTRACE] = "blktrace", [SSD_TRACE_BLKPARSE] = "blkparse",
	[SSD_TRACE_MSR] = "msr",         [SSD_TRACE_SPC] = "spc",
	[SSD_TRACE_DISKSIM] = "disksim", [SSD_TRACE_MQSIM] = "mqsim",
	[SSD_TRACE_ALIBABA] = "alibaba", [SSD_TRACE_TENCENT] = "tencent",
};

int ssd_trace_fmt_parse(const char *name, int *fmt)
{
	for (int i = 0; i < SSD_TRACE_NFMT; i++)
		if (!strcmp(name, fmt_names[i])) {
			*fmt = i;
			return 0;
		}
	return -1;
}

const char *ssd_trace_fmt_name(int fmt)
{
	return fmt >= 0 && fmt < SSD_TRACE_NFMT ? fmt_names[fmt] : "?";
}

const char *ssd_trace_fmt_list(void)
{
	return "auto, iolog, blktrace, blkparse, msr, spc, disksim, mqsim, "
	       "alibaba, tencent";
}

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

/* blktrace's magic, in either byte order (the low byte is the version) */
#define BLK_MAGIC 0x65617400u

static int sniff(struct ssd_trace *t, char *err, size_t errlen)
{
	unsigned char b[4];
	int n = gzread(t->gz, b, 4);
	if (n < 0) {
		snprintf(err, errlen, "%s: cannot read it", t->path);
		return SSD_EIO;
	}
	uint32_t le = n == 4 ? (uint32_t)b[0] | (uint32_t)b[1] << 8 |
				       (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24 : 0;
	uint32_t be = n == 4 ? (uint32_t)b[3] | (uint32_t)b[2] << 8 |
				       (uint32_t)b[1] << 16 | (uint32_t)b[0] << 24 : 0;
	if (gzrewind(t->gz)) {
		snprintf(err, errlen, "%s: cannot read it", t->path);
		return SSD_EIO;
	}
	if ((le & 0xffffff00u) == BLK_MAGIC || (be & 0xffffff00u) == BLK_MAGIC) {
		t->fmt = SSD_TRACE_BLKTRACE;
		return 0;
	}
	if (n == 4 && !memcmp(b, "fio ", 4)) {
		t->fmt = SSD_TRACE_IOLOG;
		return 0;
	}
	snprintf(err, errlen, "%s: neither a fio iolog (its first line \"fio version "
		 "2 iolog\" or \"fio version 3 iolog\") nor a blktrace file; name "
		 "its format (%s)", t->path, ssd_trace_fmt_list());
	return SSD_EPARSE;
}

/* The iolog's first line: its version. */
static int iolog_header(struct ssd_trace *t, char *err, size_t errlen)
{
	char *got = gzgets(t->gz, t->buf, sizeof t->buf);
	if ((!got || !strchr(t->buf, '\n')) && trace_cut_short(t, "line", 0)) {
		snprintf(err, errlen, "%s", t->err);
		return SSD_EPARSE;
	}
	if (!got) {
		snprintf(err, errlen, "%s: empty (an iolog starts with \"fio version 2 "
			 "iolog\" or \"fio version 3 iolog\")", t->path);
		return SSD_EPARSE;
	}
	t->line = 1;
	t->buf[strcspn(t->buf, "\r\n")] = 0;
	/* blanks after it are taken, as fio compares only the words */
	for (size_t n = strlen(t->buf); n && (t->buf[n - 1] == ' ' || t->buf[n - 1] == '\t'); n--)
		t->buf[n - 1] = 0;
	if (!strcmp(t->buf, "fio version 2 iolog"))
		t->version = 2;
	else if (!strcmp(t->buf, "fio version 3 iolog"))
		t->version = 3;
	else {
		snprintf(err, errlen, "%s:1: not an iolog header: '%.60s' (expected "
			 "\"fio version 2 iolog\" or \"fio version 3 iolog\"; version 1 "
			 "logs are not read, as by fio since 1.20)", t->path, t->buf);
		return SSD_EPARSE;
	}
	return 0;
}

int ssd_trace_open(const char *path, int fmt, struct ssd_trace **out,
		   char *err, size_t errlen)
{
	*out = NULL;
	if (fmt < 0 || fmt >= SSD_TRACE_NFMT) {
		snprintf(err, errlen, "%s: no such trace format", path);
		return SSD_EINVAL;
	}
	struct ssd_trace *t = calloc(1, sizeof *t);
	if (!t || !(t->path = strdup(path))) {
		free(t);
		snprintf(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	t->fmt = fmt;
	t->t0 = INT64_MIN;
	t->gz = gzopen(path, "rb");
	int rc = 0;
	if (!t->gz) {
		snprintf(err, errlen, "%s: %s", path, errno ? strerror(errno)
			 : "cannot open it");
		rc = errno == ENOENT ? SSD_ENOENT : SSD_EIO;
		goto bad;
	}
	gzbuffer(t->gz, 1 << 17);
	if (t->fmt == SSD_TRACE_AUTO && (rc = sniff(t, err, errlen)))
		goto bad;
	if (t->fmt == SSD_TRACE_IOLOG && (rc = iolog_header(t, err, errlen)))
		goto bad;
	if (t->fmt != SSD_TRACE_IOLOG && t->fmt != SSD_TRACE_BLKTRACE &&
	    !ssd_trace_line_fns[t->fmt]) {
		snprintf(err, errlen, "%s: the %s format is not read yet", path,
			 fmt_names[t->fmt]);
		rc = SSD_EUNSUP;
		goto bad;
	}
	*out = t;
	return 0;
bad:
	ssd_trace_close(t);
	return rc;
}

void ssd_trace_close(struct ssd_trace *t)
{
	if (!t)
		return;
	if (t->gz)
		gzclose(t->gz);
	for (uint32_t i = 0; i < t->nfiles; i++)
		free(t->files[i]);
	free(t->files);
	free(t->path);
	free(t);
}

const char *ssd_trace_error(const struct ssd_trace *t)
{
	return t->err;
}

int ssd_trace_fmt(const struct ssd_trace *t)
{
	return t->fmt;
}

int ssd_trace_iolog_version(const struct ssd_trace *t)
{
	return t->fmt == SSD_TRACE_IOLOG ? t->version : 0;
}

uint64_t ssd_trace_line(const struct ssd_trace *t)
{
	return t->line;
}

const char *ssd_trace_file_name(const struct ssd_trace *t, uint32_t i)
{
	return i < t->nfiles ? t->files[i] : NULL;
}

void ssd_trace_keep_empty(struct ssd_trace *t)
{
	t->keep_empty = 1;
}

int ssd_trace_rewind(struct ssd_trace *t)
{
	if (gzrewind(t->gz))
		return trace_fail(t, "cannot read it again");
	t->line = 0;
	t->pos = 0;
	t->t0 = INT64_MIN;
	if (t->fmt == SSD_TRACE_IOLOG) {
		char err[256];
		if (iolog_header(t, err, sizeof err))
			return trace_fail(t, "%s", err);
	}
	return 0;
}

/* ---- fio's iolog ---- */

/* The next blank-separated word of *s (NULL at the end). */
static char *word(char **s)
{
	char *p = *s;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return NULL;
	char *w = p;
	while (*p && *p != ' ' && *p != '\t')
		p++;
	if (*p)
		*p++ = 0;
	*s = p;
	return w;
}

/* A decimal number as fio's sscanf %llu reads it (no sign, no suffix),
 * refusing one past 2^64 - 1.  By hand: it is most of a replay's parsing,
 * and strtoull's locale and base handling cost more than the digits. */
static int number(const char *w, uint64_t *v)
{
	if (!w || *w < '0' || *w > '9')
		return -1;
	uint64_t x = 0;
	for (; *w >= '0' && *w <= '9'; w++) {
		unsigned d = (unsigned)(*w - '0');
		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	if (*w)
		return -1;
	*v = x;
	return 0;
}

static int file_index(struct ssd_trace *t, const char *name, int add, uint32_t *idx)
{
	/* a trace's lines mostly name the file of the line before */
	if (t->last_file < t->nfiles && !strcmp(t->files[t->last_file], name)) {
		*idx = t->last_file;
		return 0;
	}
	for (uint32_t i = 0; i < t->nfiles; i++)
		if (!strcmp(t->files[i], name)) {
			*idx = t->last_file = i;
			return 0;
		}
	if (!add)
		return trace_fail(t, "file '%s' was not added before (expected a line "
				  "\"%s%s add\" first)", name, t->version == 3 ? "TIME " : "",
				  name);
	if (t->nfiles == TRACE_MAX_FILES)
		return trace_fail(t, "more than %d files", TRACE_MAX_FILES);
	if (!(t->nfiles & (t->nfiles + 1)) || !t->files) {
		char **f = realloc(t->files, (t->nfiles * 2 + 2) * sizeof *f);
		if (!f)
			return SSD_ENOMEM;
		t->files = f;
	}
	if (!(t->files[t->nfiles] = strdup(name)))
		return SSD_ENOMEM;
	*idx = t->nfiles++;
	return 0;
}

static int iolog_line(struct ssd_trace *t, char *line, struct ssd_trace_rec *r)
{
	char *s = line, *w[6];
	int n = 0;
	while (n < 6 && (w[n] = word(&s)))
		n++;
	int v3 = t->version == 3, base = v3;
	uint64_t ts = 0;
	*r = (struct ssd_trace_rec){.ts = -1};
	if (v3) {
		if (n && number(w[0], &ts))
			return trace_fail(t, "'%s' is not a time (expected \"TIME FILE "
					  "ACTION [OFFSET LENGTH]\", TIME in microseconds)", w[0]);
		if (ts > (uint64_t)INT64_MAX / 1000)
			return trace_fail(t, "time %s us is out of range", w[0]);
		r->ts = (int64_t)ts * 1000;
	}
	int fields = n - base;
	if (n == 6 || (fields != 2 && fields != 4))
		return trace_fail(t, "%d field%s (expected \"%sFILE ACTION\" or "
				  "\"%sFILE ACTION OFFSET LENGTH\")", n, ssd_plural((uint64_t)n),
				  v3 ? "TIME " : "", v3 ? "TIME " : "");
	const char *file = w[base], *act = w[base + 1];
	if (fields == 2) {
		int add = !strcmp(act, "add");
		if (!add && strcmp(act, "open") && strcmp(act, "close"))
			return trace_fail(t, "unknown file action '%s' (expected add, open, "
					  "close)", act);
		r->op = SSD_TOP_FILE;
		int rc = file_index(t, file, add, &r->file);
		return rc ? rc : 1;
	}
	static const struct { const char *name; int op; } acts[] = {
		{"read", SSD_TOP_READ}, {"write", SSD_TOP_WRITE}, {"trim", SSD_TOP_TRIM},
		{"sync", SSD_TOP_SYNC}, {"datasync", SSD_TOP_DATASYNC},
		{"wait", SSD_TOP_WAIT}};
	int op = -1;
	for (size_t i = 0; i < sizeof acts / sizeof acts[0] && op < 0; i++)
		if (act[0] == acts[i].name[0] && !strcmp(act, acts[i].name))
			op = acts[i].op;
	if (op < 0)
		return trace_fail(t, "unknown action '%s' (expected read, write, trim, "
				  "sync, datasync%s)", act, v3 ? "" : ", wait");
	if (op == SSD_TOP_WAIT && v3)
		return trace_fail(t, "'wait' in a version 3 iolog (its times say when)");
	uint64_t off, len;
	if (number(w[base + 2], &off))
		return trace_fail(t, "offset '%s' is not a number of bytes", w[base + 2]);
	if (number(w[base + 3], &len) || len > UINT32_MAX)
		return trace_fail(t, "length '%s' is not a number of bytes below 4 GiB",
				  w[base + 3]);
	if (op != SSD_TOP_WAIT && off > UINT64_MAX - len)
		return trace_fail(t, "offset %s + length %s is past 2^64 bytes",
				  w[base + 2], w[base + 3]);
	r->op = op;
	if (op == SSD_TOP_WAIT) {
		/* fio (iolog.c) waits until OFFSET ms after the job started */
		if (off > (uint64_t)INT64_MAX / 1000000)
			return trace_fail(t, "wait %s is out of range", w[base + 2]);
		r->ts = (int64_t)off * 1000000;
		return 1;
	}
	uint32_t idx;
	if (file_index(t, file, 0, &idx))
		return SSD_EPARSE;
	r->file = idx;
	r->offset = off;
	r->len = len;
	return 1;
}

int ssd_trace_next(struct ssd_trace *t, struct ssd_trace_rec *r)
{
	if (t->fmt == SSD_TRACE_BLKTRACE)
		return ssd_trace_blktrace_next(t, r);
	trace_line_fn fn = t->fmt == SSD_TRACE_IOLOG ? iolog_line
						     : ssd_trace_line_fns[t->fmt];
	for (;;) {
		if (!gzgets(t->gz, t->buf, sizeof t->buf)) {
			int e;
			const char *m = gzerror(t->gz, &e);
			if (trace_cut_short(t, "line", t->line))
				return SSD_EPARSE;
			if (e && e != Z_STREAM_END) {
				t->line++;
				return trace_fail(t, "cannot read on: %s", m);
			}
			return 0;
		}
		size_t n = strlen(t->buf);
		if ((!n || t->buf[n - 1] != '\n') && trace_cut_short(t, "line", t->line))
			return SSD_EPARSE;
		t->line++;
		if (n == sizeof t->buf - 1 && t->buf[n - 1] != '\n' && !gzeof(t->gz))
			return trace_fail(t, "a line longer than %d bytes", TRACE_LINE - 2);
		t->buf[strcspn(t->buf, "\r\n")] = 0;
		char *p = t->buf;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			continue;
		int rc = fn(t, p, r);
		if (rc < 0)
			return rc;
		if (!rc)
			continue;
		if (r->op <= SSD_TOP_TRIM && !r->len && !t->keep_empty) {
			static const char *const what[] = {"read", "write", "trim"};
			return trace_fail(t, "a %s of 0 bytes (expected a length above "
					  "0; fio's replay ends at such a line, ssdlab "
					  "trace convert leaves it out)", what[r->op]);
		}
		return 1;
	}
}
