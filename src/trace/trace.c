/*
 * trace.c -- opening traces, fio's iolog, and the stream every format
 * shares (trace.h).  The other formats' readers are in trace_fmt.c.
 *
 * trace_file.c reads the file: a plain one in large blocks, a compressed
 * one through zlib, so a trace of any size streams a line at a time.  A
 * compressed file cut short (a copy that did not finish) hands back what
 * it had, the last line cut anywhere; zlib says so (Z_BUF_ERROR), and the
 * reader fails there rather than read the cut line as a record.
 */
#include "trace/trace.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "trace/trace_int.h"

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

/* blktrace's magic, in either byte order (the low byte is the version) */
#define BLK_MAGIC 0x65617400u

static int sniff(struct ssd_trace *t, char *err, size_t errlen)
{
	unsigned char b[4];
	int n = trace_file_peek(t, b);
	if (n < 0) {
		snprintf(err, errlen, "%s: cannot read it", t->path);
		return SSD_EIO;
	}
	uint32_t le = n == 4 ? (uint32_t)b[0] | (uint32_t)b[1] << 8 |
				       (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24 : 0;
	uint32_t be = n == 4 ? (uint32_t)b[3] | (uint32_t)b[2] << 8 |
				       (uint32_t)b[1] << 16 | (uint32_t)b[0] << 24 : 0;
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
	char *s;
	int full;
	int rc = trace_file_gets(t, &s, &full); /* t->line is 0 */
	if (rc == SSD_EPARSE) {
		snprintf(err, errlen, "%s", t->err);
		return SSD_EPARSE;
	}
	if (rc <= 0) {
		snprintf(err, errlen, "%s: empty (an iolog starts with \"fio version 2 "
			 "iolog\" or \"fio version 3 iolog\")", t->path);
		return SSD_EPARSE;
	}
	t->line = 1;
	trace_cut_cr(s);
	/* blanks after it are taken, as fio compares only the words */
	for (size_t n = strlen(s); n && (s[n - 1] == ' ' || s[n - 1] == '\t'); n--)
		s[n - 1] = 0;
	if (!strcmp(s, "fio version 2 iolog"))
		t->version = 2;
	else if (!strcmp(s, "fio version 3 iolog"))
		t->version = 3;
	else {
		snprintf(err, errlen, "%s:1: not an iolog header: '%.60s' (expected "
			 "\"fio version 2 iolog\" or \"fio version 3 iolog\"; version 1 "
			 "logs are not read, as by fio since 1.20)", t->path, s);
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
	t->fd = -1;
	t->fmt = fmt;
	t->t0 = INT64_MIN;
	int rc = trace_file_open(t, err, errlen);
	if (rc)
		goto bad;
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
	trace_file_close(t);
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
	if (trace_file_rewind(t))
		return trace_fail(t, "cannot read it again");
	t->line = 0;
	t->pos = 0;
	t->t0 = INT64_MIN;
	t->dev_seen = 0;
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

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The digits that start the 8 bytes at p (which may run past the line's
 * end: trace_file.c's buffers have TRACE_SLACK bytes after it): how many
 * (0 to 8), and their value in *v.  Eight bytes at once: a byte is no
 * digit when adding 0x46 or subtracting 0x30 sets its top bit, and the
 * first such byte is found exactly (the bytes before it carry and borrow
 * nothing); the digits are then summed in pairs, fours and the eight
 * (fast_float's parse_eight_digits_unrolled). */
static inline unsigned digits8(const char *p, uint64_t *v)
{
	uint64_t w;
	memcpy(&w, p, 8);
	uint64_t no = ((w + 0x4646464646464646u) | (w - 0x3030303030303030u)) &
		      0x8080808080808080u;
	unsigned n = no ? (unsigned)__builtin_ctzll(no) >> 3 : 8;
	if (!n)
		return 0;
	w = (w - 0x3030303030303030u) << (8 * (8 - n)); /* leading zeros */
	w = w * 10 + (w >> 8);
	*v = ((w & 0x000000ff000000ffu) * (100 + (1000000ull << 32)) +
	      ((w >> 16) & 0x000000ff000000ffu) * (1 + (10000ull << 32))) >> 32;
	return n;
}
#else
static inline unsigned digits8(const char *p, uint64_t *v)
{
	unsigned n = 0;
	for (*v = 0; n < 8 && p[n] >= '0' && p[n] <= '9'; n++)
		*v = *v * 10 + (uint64_t)(p[n] - '0');
	return n;
}
#endif

/* The 1 to 19 digits at *s as a number (19 cannot overflow 64 bits): 1
 * with *v, *s past them; 0 if there are none or more (number() reads
 * those).  By hand: strtoull's locale and base handling cost more than
 * the digits, and eight at once less than one by one. */
static inline __attribute__((always_inline)) int digits(const char **s, uint64_t *v)
{
	static const uint64_t pow10[9] = {1, 10, 100, 1000, 10000, 100000,
		1000000, 10000000, 100000000};
	const char *p = *s;
	uint64_t x, y = 0;
	unsigned n = digits8(p, &x);
	if (n == 8) {
		unsigned m = digits8(p + 8, &y);
		x = x * pow10[m] + y;
		n += m;
		for (; m == 8 && n < 19 && p[n] >= '0' && p[n] <= '9'; n++)
			x = x * 10 + (uint64_t)(p[n] - '0');
		if (p[n] >= '0' && p[n] <= '9')
			return 0;
	}
	if (!n)
		return 0;
	*v = x;
	*s = p + n;
	return 1;
}

/* A decimal number as fio's sscanf %llu reads it (no sign, no suffix),
 * refusing one past 2^64 - 1. */
static int number(const char *w, uint64_t *v)
{
	if (!w || *w < '0' || *w > '9')
		return -1;
	uint64_t x = 0;
	for (; *w >= '0' && *w <= '9'; w++)
		if (__builtin_mul_overflow(x, 10, &x) ||
		    __builtin_add_overflow(x, (uint64_t)(*w - '0'), &x))
			return -1;
	if (*w)
		return -1;
	*v = x;
	return 0;
}

/* Past one or more blanks at *s: 1, or 0 if there is none. */
static inline int blanks(const char **s)
{
	const char *p = *s;
	if (*p != ' ' && *p != '\t')
		return 0;
	while (*p == ' ' || *p == '\t')
		p++;
	*s = p;
	return 1;
}

static void set_last_file(struct ssd_trace *t, uint32_t i)
{
	const char *name = t->files[i];
	t->last_file = i;
	t->last_len = strlen(name);
	memset(t->last_name, 0, sizeof t->last_name);
	memcpy(t->last_name, name, t->last_len < sizeof t->last_name
	       ? t->last_len : sizeof t->last_name);
}

/* Whether s starts with the last file's name, compared 8 bytes at a time:
 * a word is read only after the ones before it matched the name (which
 * has no NUL), so no further than 7 bytes past the line's end. */
static inline int is_last_file(const struct ssd_trace *t, const char *s)
{
	size_t len = t->last_len, k = 0;
	if (len > sizeof t->last_name)
		return !strncmp(s, t->files[t->last_file], len);
	uint64_t w;
	for (; k + 8 <= len; k += 8) {
		memcpy(&w, s + k, 8);
		if (w != t->last_name[k / 8])
			return 0;
	}
	if (k == len)
		return 1;
	memcpy(&w, s + k, 8);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	w &= ~0ull >> (8 * (8 - (len - k)));
#else
	w &= ~0ull << (8 * (8 - (len - k)));
#endif
	return w == t->last_name[k / 8];
}

/* The file's index, kept as the last file's (names are never added
 * twice, so the last one is the one of its name). */
static int file_index(struct ssd_trace *t, const char *name, int add, uint32_t *idx)
{
	/* a trace's lines mostly name the file of the line before */
	if (t->last_file < t->nfiles && !strcmp(t->files[t->last_file], name)) {
		*idx = t->last_file;
		return 0;
	}
	for (uint32_t i = 0; i < t->nfiles; i++)
		if (!strcmp(t->files[i], name)) {
			set_last_file(t, i);
			*idx = i;
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
	set_last_file(t, *idx);
	return 0;
}

/* A request on the file of the line before, nearly every line of a
 * replay, read in one pass without splitting the line: 1 with *r, or 0
 * for any other line, or one in doubt, that iolog_line then reads word by
 * word (and says what is wrong with it).  Its name is compared with the
 * last file's alone, no table searched.  It takes only digits, blanks,
 * the actions' letters and the name (which has no CR) before the line's
 * end or its first CR: what iolog_line would read of the line cut there. */
static int iolog_request(struct ssd_trace *t, const char *s,
			 struct ssd_trace_rec *r)
{
	uint64_t ts = 0, off, len;
	int v3 = t->version == 3;
	if (v3 && (!digits(&s, &ts) || ts > (uint64_t)INT64_MAX / 1000 ||
		   !blanks(&s)))
		return 0;
	if (t->last_file >= t->nfiles || !is_last_file(t, s))
		return 0;
	s += t->last_len;
	if (!blanks(&s))
		return 0;
	/* the action by its first letter, then whole (the line's buffer
	 * has TRACE_SLACK bytes after its end to compare with) */
	int op;
	switch (*s) {
	case 'w':
		op = memcmp(s, "write", 5) ? -1 : SSD_TOP_WRITE;
		s += 5;
		break;
	case 'r':
		op = memcmp(s, "read", 4) ? -1 : SSD_TOP_READ;
		s += 4;
		break;
	case 't':
		op = memcmp(s, "trim", 4) ? -1 : SSD_TOP_TRIM;
		s += 4;
		break;
	case 's':
		op = memcmp(s, "sync", 4) ? -1 : SSD_TOP_SYNC;
		s += 4;
		break;
	case 'd':
		op = memcmp(s, "datasync", 8) ? -1 : SSD_TOP_DATASYNC;
		s += 8;
		break;
	default:
		return 0;
	}
	if (op < 0 || !blanks(&s) || !digits(&s, &off) || !blanks(&s) || !digits(&s, &len))
		return 0;
	while (*s == ' ' || *s == '\t')
		s++;
	if ((*s && *s != '\r') || len > UINT32_MAX || off > UINT64_MAX - len)
		return 0;
	*r = (struct ssd_trace_rec){.ts = v3 ? (int64_t)ts * 1000 : -1, .op = op,
				    .offset = off, .len = len, .file = t->last_file};
	return 1;
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

void ssd_trace_device(struct ssd_trace *t, uint32_t dev)
{
	t->dev_mode = SSD_TDEV_PICK;
	t->dev_pick = dev;
}

void ssd_trace_all_devices(struct ssd_trace *t)
{
	t->dev_mode = SSD_TDEV_ALL;
}

const char *ssd_trace_dev_name(int fmt, uint32_t dev, char *buf, size_t n)
{
	if (fmt == SSD_TRACE_BLKTRACE || fmt == SSD_TRACE_BLKPARSE)
		snprintf(buf, n, "%u,%u", (unsigned)(dev >> 20),
			 (unsigned)(dev & ((1u << 20) - 1)));
	else
		snprintf(buf, n, "%u", (unsigned)dev);
	return buf;
}

/* A record of the device(s) the caller takes: 1 to hand it on, 0 to skip
 * it, or the error of a second device where one is expected. */
static int trace_dev_check(struct ssd_trace *t, const struct ssd_trace_rec *r)
{
	if (r->op == SSD_TOP_FILE || r->op == SSD_TOP_WAIT ||
	    t->dev_mode == SSD_TDEV_ALL)
		return 1;
	if (t->dev_mode == SSD_TDEV_PICK)
		return r->dev == t->dev_pick;
	if (!t->dev_seen) {
		t->dev_seen = 1;
		t->dev_first = r->dev;
	} else if (r->dev != t->dev_first) {
		char a[24], b[24];
		return trace_fail(t, "a request of device %s after those of device "
				  "%s (expected one device: the trace holds several; "
				  "--device of ssdlab trace convert or stat picks one)",
				  ssd_trace_dev_name(t->fmt, r->dev, b, sizeof b),
				  ssd_trace_dev_name(t->fmt, t->dev_first, a, sizeof a));
	}
	return 1;
}

static int trace_next_any(struct ssd_trace *t, struct ssd_trace_rec *r);

int ssd_trace_next(struct ssd_trace *t, struct ssd_trace_rec *r)
{
	for (;;) {
		int k = trace_next_any(t, r);
		if (k <= 0)
			return k;
		if ((k = trace_dev_check(t, r)))
			return k;
	}
}

/* The next record of any device, as ssd_trace_next. */
static int trace_next_any(struct ssd_trace *t, struct ssd_trace_rec *r)
{
	if (t->fmt == SSD_TRACE_BLKTRACE)
		return ssd_trace_blktrace_next(t, r);
	int fmt_iolog = t->fmt == SSD_TRACE_IOLOG;
	trace_line_fn fn = fmt_iolog ? iolog_line : ssd_trace_line_fns[t->fmt];
	for (;;) {
		char *p;
		int full;
		int rc = trace_file_gets(t, &p, &full);
		if (rc == SSD_EIO) {
			t->line++;
			return trace_fail(t, "cannot read on: %s", trace_file_error(t));
		}
		if (rc <= 0)
			return rc;
		t->line++;
		if (full)
			return trace_fail(t, "a line longer than %d bytes", TRACE_LINE - 2);
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#' || *p == '\r')
			continue;
		/* a request of an iolog is read up to its first '\r' (it
		 * takes no other); any other line is cut there first */
		if (fmt_iolog && iolog_request(t, p, r))
			rc = 1;
		else {
			trace_cut_cr(p);
			rc = fn(t, p, r);
		}
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
