/*
 * trace_tools.c -- `ssdlab trace convert` and `ssdlab trace stat`
 * (trace_tools.h): a trace of any format read as records
 * (trace/trace.h), written as fio's iolog version 3 or summed up.
 */
#include "methods/trace_tools.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base/json.h"
#include "base/ofile.h"
#include "base/util.h"

#define PAGE_SHIFT 12

static uint64_t align_down(uint64_t v)
{
	return v & ~(uint64_t)(SSD_TT_PAGE - 1);
}

static const char *op_name(int op)
{
	static const char *const names[] = {"read", "write", "trim", "sync",
					    "datasync"};
	return op >= 0 && op <= SSD_TOP_DATASYNC ? names[op] : "?";
}

static int is_data(int op)
{
	return op == SSD_TOP_READ || op == SSD_TOP_WRITE || op == SSD_TOP_TRIM;
}

/* ---- folding ---- */

int ssd_fold_parse(const char *name, int *mode)
{
	if (!strcmp(name, "modulo"))
		*mode = SSD_FOLD_MODULO;
	else if (!strcmp(name, "scale"))
		*mode = SSD_FOLD_SCALE;
	else
		return -1;
	return 0;
}

int ssd_trace_fold(int mode, uint64_t cap, uint64_t max_end, uint64_t *off,
		   uint64_t *len)
{
	uint64_t o = *off, l = *len;
	if (!cap)
		return 0;
	if (mode == SSD_FOLD_MODULO && o >= cap)
		o = align_down(o % cap);
	else if (mode == SSD_FOLD_SCALE && max_end > cap)
		o = align_down((uint64_t)((unsigned __int128)o * cap / max_end));
	/* what still crosses the end keeps its size and moves inside */
	if (l > cap) {
		o = 0;
		l = cap;
	} else if (o > cap - l) {
		o = align_down(cap - l);
	}
	int changed = o != *off || l != *len;
	*off = o;
	*len = l;
	return changed;
}

int ssd_trace_dev_parse(const char *s, uint32_t *dev)
{
	const char *comma = strchr(s, ',');
	char *end;
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	unsigned long long a = strtoull(s, &end, 10);
	if (errno)
		return -1;
	if (!comma) {
		if (*end || a > UINT32_MAX)
			return -1;
		*dev = (uint32_t)a;
		return 0;
	}
	if (end != comma || !isdigit((unsigned char)comma[1]))
		return -1;
	unsigned long long b = strtoull(comma + 1, &end, 10);
	if (*end || errno || a >= 1u << 12 || b >= 1u << 20)
		return -1;
	*dev = (uint32_t)(a << 20 | b);
	return 0;
}

/* ---- the iolog written: plain, gzip or standard output ----
 * A file is written through base/ofile (a temporary renamed into place:
 * a failed conversion leaves OUT as it was); gzip is deflate's own
 * stream into it, so that its writes are ofile's too (gzopen would write
 * the file itself). */

#define GZ_CHUNK (64u << 10)

struct out {
	struct ssd_ofile *of;   /* OUT, or NULL for standard output */
	FILE *f;                /* where the bytes go */
	z_stream z;             /* gzip: the compressor ... */
	unsigned char *zbuf;    /* ... and its output, GZ_CHUNK bytes */
	int gz;
	int failed;
	int err;                /* errno of the first failed write */
};

/* Compress `len` bytes (flush: Z_NO_FLUSH, or Z_FINISH at the end) into
 * the stream. */
static void gz_put(struct out *o, const void *p, size_t len, int flush)
{
	o->z.next_in = (unsigned char *)p;
	o->z.avail_in = (uInt)len;
	int zr;
	do {
		o->z.next_out = o->zbuf;
		o->z.avail_out = GZ_CHUNK;
		zr = deflate(&o->z, flush);
		size_t n = GZ_CHUNK - o->z.avail_out;
		if (zr == Z_STREAM_ERROR || (n && fwrite(o->zbuf, 1, n, o->f) != n)) {
			o->err = o->failed ? o->err : errno;
			o->failed = 1;
			return;
		}
	} while (o->z.avail_out == 0 || (flush == Z_FINISH && zr != Z_STREAM_END));
}

static void out_printf(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void out_printf(struct out *o, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof line || o->failed) {
		o->failed = 1;
		return;
	}
	if (o->gz)
		gz_put(o, line, (size_t)n, Z_NO_FLUSH);
	else if (fwrite(line, 1, (size_t)n, o->f) != (size_t)n) {
		o->err = errno;
		o->failed = 1;
	}
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);
	return n > m && !strcmp(s + n - m, tail);
}

/* ---- trace convert ---- */

/* Requests of 4 GiB and more (a discard of a whole device) are written
 * in pieces of this many bytes: fio reads a length as 32 bits. */
#define PIECE (1ULL << 31)
#define MAX_SPLIT (1ULL << 40)

struct conv {
	const struct ssd_tconv *c;
	struct ssd_trace *t;
	struct ssd_tconv_counts *n;
	struct out o;
	const char *file;
	uint32_t align;
	uint64_t max_end;       /* scale: the trace's address range */
	int64_t first_ts;       /* the first request's time; -1 before */
	int64_t wait_ns;        /* iolog v2: the latest time waited until */
	uint64_t last_us;
	uint64_t data;          /* data requests written */
	uint64_t first_empty;   /* the line of the first 0-byte request */
	char first_unaligned[400]; /* where, what */
	char *err;
	size_t errlen;
};

static int conv_fail(struct conv *v, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int conv_fail(struct conv *v, int rc, const char *fmt, ...)
{
	char what[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	snprintf(v->err, v->errlen, "%s:%llu: %s", v->c->in,
		 (unsigned long long)ssd_trace_line(v->t), what);
	return rc;
}

/* The records of the other devices, file actions and waits are no
 * requests of the output. */
static int conv_keep(struct conv *v, const struct ssd_trace_rec *r)
{
	if (r->op == SSD_TOP_WAIT) {
		/* fio waits until a wait's time after the start: one earlier
		 * than a wait before it does not wait at all */
		if (r->ts > v->wait_ns)
			v->wait_ns = r->ts;
		return 0;
	}
	if (r->op == SSD_TOP_FILE)
		return 0;
	return !v->c->has_dev || r->dev == v->c->dev;
}

static void conv_line(struct conv *v, uint64_t us, int op, uint64_t off,
		      uint64_t len)
{
	out_printf(&v->o, "%llu %s %s %llu %llu\n", (unsigned long long)us,
		   v->file, op_name(op), (unsigned long long)off,
		   (unsigned long long)len);
	v->n->requests++;
	switch (op) {
	case SSD_TOP_READ: v->n->reads++; break;
	case SSD_TOP_WRITE: v->n->writes++; break;
	case SSD_TOP_TRIM: v->n->trims++; break;
	default: v->n->syncs++; break;
	}
}

static int conv_record(struct conv *v, struct ssd_trace_rec *r)
{
	const struct ssd_tconv *c = v->c;
	/* a version 2 log has no times: its requests are at its latest
	 * wait, which is when fio issues them */
	int64_t ts = r->ts >= 0 ? r->ts : v->wait_ns;
	if (v->first_ts < 0)
		v->first_ts = ts;
	uint64_t us = ts > v->first_ts ? (uint64_t)(ts - v->first_ts) / 1000 : 0;
	if (us > v->last_us)
		v->last_us = us;
	if (!is_data(r->op)) {
		conv_line(v, us, r->op, 0, 0);
		return 0;
	}
	if (!r->len) {
		if (!v->n->empty++)
			v->first_empty = ssd_trace_line(v->t);
		return 0;
	}
	uint64_t off = r->offset, len = r->len;
	if (c->capacity && c->fold) {
		if (ssd_trace_fold(c->fold, c->capacity, v->max_end, &off, &len))
			v->n->folded++;
	} else if (c->capacity && (off >= c->capacity || len > c->capacity - off)) {
		char b[32];
		return conv_fail(v, SSD_ERANGE, "a %s at offset %llu, %llu byte%s "
				 "ends past --capacity %s (expected every request "
				 "inside it; --fold modulo or --fold scale brings a "
				 "larger trace inside)", op_name(r->op),
				 (unsigned long long)r->offset,
				 (unsigned long long)r->len, ssd_plural(r->len),
				 ssd_fmt_bytes(c->capacity, b, sizeof b));
	}
	/* without a capacity nothing bounds the pieces: a length of 2^64
	 * would be 2^33 lines (with one, the request is inside it) */
	if (!c->capacity && len > MAX_SPLIT)
		return conv_fail(v, SSD_ERANGE, "a %s of %llu bytes is larger than "
				 "1 TiB (expected a request below 4 GiB, or a discard "
				 "to write in pieces; --capacity with --fold cuts it to "
				 "the drive)", op_name(r->op), (unsigned long long)len);
	int split = len >= 1ULL << 32;
	v->n->split += (uint64_t)split;
	while (len) {
		uint64_t piece = split && len > PIECE ? PIECE : len;
		/* the first one is said at the end, with their count: a
		 * conversion that fails says its error alone */
		if ((off | piece) % v->align && !v->n->unaligned++)
			snprintf(v->first_unaligned, sizeof v->first_unaligned,
				 "%s:%llu: a %s at offset %llu, %llu byte%s",
				 c->in, (unsigned long long)ssd_trace_line(v->t),
				 op_name(r->op), (unsigned long long)off,
				 (unsigned long long)piece, ssd_plural(piece));
		conv_line(v, us, r->op, off, piece);
		v->data++;
		off += piece;
		len -= piece;
	}
	return 0;
}

/* The next record to convert: 1, 0 at the end, or the reader's error. */
static int conv_next(struct conv *v, struct ssd_trace_rec *r)
{
	for (;;) {
		int k = ssd_trace_next(v->t, r);
		if (k < 0) {
			snprintf(v->err, v->errlen, "%s", ssd_trace_error(v->t));
			return k;
		}
		if (!k || conv_keep(v, r))
			return k;
	}
}

/* The file name an iolog can hold: a word of at most 256 bytes, as fio
 * reads it (sscanf %256s). */
static int file_name_ok(const char *s)
{
	size_t n = strlen(s);
	if (!n || n > 256)
		return 0;
	for (; *s; s++)
		if (isspace((unsigned char)*s) || iscntrl((unsigned char)*s))
			return 0;
	return 1;
}

/* IN and OUT the same file: writing would truncate what is being read. */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int ssd_trace_convert(const struct ssd_tconv *c, struct ssd_tconv_counts *n,
		      char *err, size_t errlen, int *input)
{
	*n = (struct ssd_tconv_counts){0};
	*input = 1;
	struct conv v = {.c = c, .n = n, .file = c->file ? c->file : "trace",
			 .align = c->align ? c->align : 512, .first_ts = -1,
			 .err = err, .errlen = errlen};
	if (!file_name_ok(v.file)) {
		ssd_seterr(err, errlen, "--file '%.60s': a file name of an iolog is "
			   "one word of 1 to 256 bytes, without blanks", v.file);
		return SSD_EINVAL;
	}
	if (c->fold && (c->capacity < SSD_TT_PAGE || c->capacity % SSD_TT_PAGE)) {
		ssd_seterr(err, errlen, "--fold needs --capacity, a multiple of 4 KiB");
		return SSD_EINVAL;
	}
	int to_stdout = !strcmp(c->out, "-");
	if (!to_stdout && same_file(c->in, c->out)) {
		ssd_seterr(err, errlen, "%s: the output is the input", c->out);
		return SSD_EINVAL;
	}
	int rc = ssd_trace_open(c->in, c->fmt, &v.t, err, errlen);
	if (rc)
		return rc;
	ssd_trace_keep_empty(v.t); /* left out, counted (below) */
	if (c->has_dev)
		ssd_trace_device(v.t, c->dev);
	struct ssd_trace_rec r;
	int k;
	if (c->fold == SSD_FOLD_SCALE) {
		/* the first pass: the trace's address range (and every
		 * line checked before OUT is made) */
		while ((k = conv_next(&v, &r)) > 0)
			if (is_data(r.op) && r.len && r.offset + r.len > v.max_end)
				v.max_end = r.offset + r.len;
		if (!k && (k = ssd_trace_rewind(v.t)) < 0)
			snprintf(err, errlen, "%s", ssd_trace_error(v.t));
		if (k < 0) {
			ssd_trace_close(v.t);
			return k;
		}
		v.wait_ns = 0;
	}
	if (to_stdout) {
		v.o.f = stdout;
	} else if ((rc = ssd_ofile_open(c->out, SSD_OFILE_REPLACE, &v.o.of, err,
					errlen))) {
		ssd_trace_close(v.t);
		*input = 0; /* the output is to blame */
		return rc;
	} else {
		v.o.f = ssd_ofile_stream(v.o.of);
		if (ends_with(c->out, ".gz")) {
			v.o.gz = 1;
			v.o.zbuf = malloc(GZ_CHUNK);
			/* 15 + 16: a gzip header and trailer, as gzopen's */
			if (!v.o.zbuf || deflateInit2(&v.o.z, Z_DEFAULT_COMPRESSION,
						      Z_DEFLATED, 15 + 16, 8,
						      Z_DEFAULT_STRATEGY) != Z_OK) {
				free(v.o.zbuf);
				ssd_ofile_discard(v.o.of);
				ssd_trace_close(v.t);
				ssd_seterr(err, errlen, "cannot write '%s': out of memory",
					   c->out);
				return SSD_ENOMEM;
			}
		}
	}
	out_printf(&v.o, "fio version 3 iolog\n0 %s add\n0 %s open\n", v.file,
		   v.file);
	rc = 0;
	/* a write that failed (a full disk) stops the reading too */
	while (!rc && !v.o.failed && (k = conv_next(&v, &r)) > 0)
		rc = conv_record(&v, &r);
	if (!rc && k < 0)
		rc = k;
	if (!rc) {
		out_printf(&v.o, "%llu %s close\n", (unsigned long long)v.last_us,
			   v.file);
		*input = 0;
	}
	if (v.o.gz) {
		if (!rc)
			gz_put(&v.o, "", 0, Z_FINISH);
		deflateEnd(&v.o.z);
		free(v.o.zbuf);
	}
	if (!v.o.of) {
		errno = 0;
		if (!rc && (fflush(stdout) || v.o.failed || ferror(stdout))) {
			int e = v.o.err ? v.o.err : errno;
			ssd_seterr(err, errlen, "write error on standard output: %s",
				   e ? strerror(e) : "write error");
			rc = SSD_EIO;
		}
	} else if (rc) {
		ssd_ofile_discard(v.o.of); /* OUT as it was */
	} else if (v.o.failed && !ferror(v.o.f)) {
		/* not a write (whose reason the commit gives): the compressor */
		ssd_ofile_discard(v.o.of);
		ssd_seterr(err, errlen, "cannot write '%s': compression failed",
			   c->out);
		rc = SSD_EIO;
	} else {
		rc = ssd_ofile_commit(v.o.of, err, errlen);
	}
	if (!rc && c->msg) {
		if (n->empty)
			fprintf(c->msg, "%s: warning: %s: %llu request%s of 0 bytes left "
				"out (the first at line %llu)\n", c->prefix, c->in,
				(unsigned long long)n->empty, ssd_plural(n->empty),
				(unsigned long long)v.first_empty);
		if (n->split)
			fprintf(c->msg, "%s: warning: %s: %llu request%s of 4 GiB or "
				"more written in pieces of 2 GiB\n", c->prefix, c->in,
				(unsigned long long)n->split, ssd_plural(n->split));
		if (c->has_dev && !n->requests)
			fprintf(c->msg, "%s: warning: %s: no request of device %u\n",
				c->prefix, c->in, (unsigned)c->dev);
		if (n->unaligned) {
			const char *a = v.align == 512 ? "512 B" : "4 KiB";
			fprintf(c->msg, "%s: warning: %s is not aligned to %s (the "
				"first such request)\n", c->prefix, v.first_unaligned, a);
			fprintf(c->msg, "%s: %llu of %llu requests not aligned to %s\n",
				c->prefix, (unsigned long long)n->unaligned,
				(unsigned long long)v.data, a);
		}
	}
	ssd_trace_close(v.t);
	return rc;
}

/* ---- trace stat: the footprint's bitmaps ---- */

/* A chunk: 2^18 pages of 4 KiB (1 GiB of address range), a bit a page
 * in each map. */
#define CHUNK_SHIFT 18
#define CHUNK_WORDS (1u << (CHUNK_SHIFT - 6))
#define LEAF_SHIFT 12
#define LEAF_N (1u << LEAF_SHIFT)

enum { MAP_TOUCHED, MAP_WRITTEN, MAP_READ, MAP_INTERVAL, MAP_N };

struct tt_chunk {
	uint64_t stamp;         /* MAP_INTERVAL is of interval stamp - 1 */
	uint64_t bits[MAP_N][CHUNK_WORDS];
};

/* Set bits [a, b] of w: how many were clear. */
static uint64_t bits_set(uint64_t *w, uint32_t a, uint32_t b)
{
	uint64_t n = 0;
	uint32_t wa = a >> 6, wb = b >> 6;
	for (uint32_t i = wa; i <= wb; i++) {
		uint64_t m = ~0ULL;
		if (i == wa)
			m &= ~0ULL << (a & 63);
		if (i == wb)
			m &= ~0ULL >> (63 - (b & 63));
		n += (uint64_t)__builtin_popcountll(m & ~w[i]);
		w[i] |= m;
	}
	return n;
}

/* The chunk of page p, allocated on its first use: NULL without memory
 * (SSD_ENOMEM in *rc) or past the limit (SSD_ERANGE). */
static struct tt_chunk *chunk_of(struct ssd_tstat *s, uint64_t p, int *rc)
{
	uint64_t ci = p >> CHUNK_SHIFT;
	size_t ti = (size_t)(ci >> LEAF_SHIFT), li = (size_t)(ci & (LEAF_N - 1));
	if (ti >= s->ntop) {
		/* the top grows with the address range: 8 bytes per 4 TiB */
		size_t nt = ti + 1 > s->ntop * 2 ? ti + 1 : s->ntop * 2;
		struct tt_chunk ***top = realloc(s->top, nt * sizeof *top);
		if (!top) {
			*rc = SSD_ENOMEM;
			return NULL;
		}
		memset(top + s->ntop, 0, (nt - s->ntop) * sizeof *top);
		s->top = top;
		s->ntop = nt;
	}
	if (!s->top[ti]) {
		if (!(s->top[ti] = calloc(LEAF_N, sizeof **s->top))) {
			*rc = SSD_ENOMEM;
			return NULL;
		}
		s->map_bytes += LEAF_N * sizeof **s->top;
	}
	struct tt_chunk **slot = &s->top[ti][li];
	if (!*slot) {
		if (s->map_bytes + sizeof **slot > s->map_limit) {
			s->over = 1;
			*rc = SSD_ERANGE;
			return NULL;
		}
		if (!(*slot = calloc(1, sizeof **slot))) {
			*rc = SSD_ENOMEM;
			return NULL;
		}
		s->map_bytes += sizeof **slot;
	}
	return *slot;
}

/* ---- trace stat: the records ---- */

const char *const ssd_tstat_size_names[SSD_TSTAT_NSIZES] = {
	"512", "1k", "2k", "4k", "8k", "16k", "32k", "64k", "128k", "256k",
	"512k", ">=1M"};

unsigned ssd_tstat_size_bucket(uint64_t len)
{
	unsigned b = 0;
	while (b < SSD_TSTAT_NSIZES - 1 && len >= 1024ULL << b)
		b++;
	return b;
}

unsigned ssd_tstat_gap_index(uint64_t ns)
{
	if (ns < 64)
		return (unsigned)ns;
	unsigned e = 63u - (unsigned)__builtin_clzll(ns); /* 6 and up */
	return 64 + (e - 6) * 64 + (unsigned)((ns >> (e - 6)) & 63);
}

uint64_t ssd_tstat_gap_value(unsigned idx)
{
	if (idx >= SSD_TSTAT_GAP_N)
		idx = SSD_TSTAT_GAP_N - 1;
	if (idx < 128)
		return idx;
	unsigned e = (idx - 64) / 64 + 6, sub = (idx - 64) % 64;
	uint64_t lo = (64ULL + sub) << (e - 6);
	return lo + (1ULL << (e - 6)) / 2;
}

struct ssd_tstat *ssd_tstat_new(int64_t interval_ns, uint64_t map_limit)
{
	struct ssd_tstat *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->interval = interval_ns > 0 ? interval_ns : 0;
	s->fixed = interval_ns > 0;
	s->map_limit = map_limit ? map_limit : SSD_TSTAT_MAP_LIMIT;
	s->first_ts = -1;
	s->prev_ts = -1;
	return s;
}

void ssd_tstat_free(struct ssd_tstat *s)
{
	if (!s)
		return;
	free(s->devs);
	for (size_t i = 0; i < s->ntop; i++) {
		if (!s->top[i])
			continue;
		for (size_t j = 0; j < LEAF_N; j++)
			free(s->top[i][j]);
		free(s->top[i]);
	}
	free(s->top);
	free(s->int_pages);
	free(s->int_total);
	free(s);
}

/* Room in the series for n intervals.  0, or SSD_ENOMEM / SSD_ERANGE. */
static int series_grow(struct ssd_tstat *s, uint64_t n)
{
	if (n > SSD_TSTAT_MAX_INTERVALS) {
		s->over = 2;
		return SSD_ERANGE;
	}
	if (n <= s->cap_int)
		return 0;
	uint64_t nc = s->cap_int ? s->cap_int : 64;
	while (nc < n)
		nc *= 2;
	uint64_t *p = realloc(s->int_pages, nc * sizeof *p);
	if (!p)
		return SSD_ENOMEM;
	s->int_pages = p;
	uint64_t *q = realloc(s->int_total, nc * sizeof *q);
	if (!q)
		return SSD_ENOMEM;
	s->int_total = q;
	memset(p + s->cap_int, 0, (nc - s->cap_int) * sizeof *p);
	memset(q + s->cap_int, 0, (nc - s->cap_int) * sizeof *q);
	s->cap_int = nc;
	return 0;
}

/* The series' interval of a record at ts: monotone (a record earlier
 * than the one before counts in the current interval), the intervals
 * passed closed with the running total.  0, or SSD_ENOMEM / SSD_ERANGE. */
static int series_at(struct ssd_tstat *s, int64_t ts)
{
	uint64_t rel = ts > s->first_ts ? (uint64_t)(ts - s->first_ts) : 0;
	uint64_t k = rel / (uint64_t)s->interval;
	if (!s->fixed && k >= s->nint)
		k = s->nint - 1;    /* the last instant is in the last one */
	if (k < s->cur_int)
		k = s->cur_int;
	int rc = series_grow(s, k + 1);
	if (rc)
		return rc;
	for (uint64_t i = s->cur_int; i < k; i++)
		s->int_total[i] = s->run_written;
	s->cur_int = k;
	if (k + 1 > s->nint)
		s->nint = k + 1;
	return 0;
}

/* The pages of [off, off + len) into the maps: all of them (the first
 * pass) or only the written and interval maps (series). */
static int pages_add(struct ssd_tstat *s, int op, uint64_t off, uint64_t len,
		     int series, int stats)
{
	if (!len)
		return 0;
	uint64_t p = off >> PAGE_SHIFT, last = (off + len - 1) >> PAGE_SHIFT;
	/* a request wider than the limit fails before it fills memory */
	if ((last >> CHUNK_SHIFT) - (p >> CHUNK_SHIFT) >=
	    s->map_limit / sizeof(struct tt_chunk)) {
		s->over = 1;
		return SSD_ERANGE;
	}
	int rc = 0;
	while (p <= last) {
		struct tt_chunk *c = chunk_of(s, p, &rc);
		if (!c)
			return rc;
		uint64_t base = p & ~((1ULL << CHUNK_SHIFT) - 1);
		uint64_t end = last - base < (1ULL << CHUNK_SHIFT)
			       ? last : base + (1ULL << CHUNK_SHIFT) - 1;
		uint32_t a = (uint32_t)(p - base), b = (uint32_t)(end - base);
		if (stats) {
			s->pages += bits_set(c->bits[MAP_TOUCHED], a, b);
			if (op == SSD_TOP_READ)
				s->read_pages += bits_set(c->bits[MAP_READ], a, b);
		}
		if (op == SSD_TOP_WRITE) {
			uint64_t w = bits_set(c->bits[MAP_WRITTEN], a, b);
			if (stats)
				s->written_pages += w;
			if (series) {
				s->run_written += w;
				if (c->stamp != s->cur_int + 1) {
					memset(c->bits[MAP_INTERVAL], 0,
					       sizeof c->bits[MAP_INTERVAL]);
					c->stamp = s->cur_int + 1;
				}
				s->int_pages[s->cur_int] +=
					bits_set(c->bits[MAP_INTERVAL], a, b);
			}
		}
		if (end == UINT64_MAX >> PAGE_SHIFT)
			break;
		p = end + 1;
	}
	return 0;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

int ssd_tstat_add(struct ssd_tstat *s, const struct ssd_trace_rec *r)
{
	if (r->op == SSD_TOP_FILE || r->op == SSD_TOP_WAIT)
		return 0;
	if (is_data(r->op) && !r->len) {
		/* moves nothing: counted apart, as convert leaves it out */
		s->empty++;
		return 0;
	}
	s->requests++;
	if (r->ts >= 0) {
		if (!s->timed) {
			s->timed = 1;
			s->first_ts = s->last_ts = r->ts;
		}
		if (r->ts > s->last_ts)
			s->last_ts = r->ts;
		if (s->prev_ts >= 0) {
			uint64_t g = r->ts > s->prev_ts ? (uint64_t)(r->ts - s->prev_ts) : 0;
			if (!s->gaps || g < s->gap_min)
				s->gap_min = g;
			if (g > s->gap_max)
				s->gap_max = g;
			s->gaps++;
			s->gap_sum += (double)g;
			unsigned gi = ssd_tstat_gap_index(g);
			s->gap_bucket[gi]++;
			s->gap_bsum[gi] += (double)g;
		}
		s->prev_ts = r->ts;
	}
	/* a given interval: the series in this pass, every timed record
	 * extending it (the intervals without writes are in it too) */
	int series = s->fixed && r->ts >= 0;
	if (series) {
		int rc = series_at(s, r->ts);
		if (rc)
			return rc;
	}
	if (!is_data(r->op)) {
		s->syncs++;
		return 0;
	}
	/* the readers keep an extent within 2^64; a caller may not */
	uint64_t len = r->len > UINT64_MAX - r->offset ? UINT64_MAX - r->offset
						       : r->len;
	struct ssd_tstat_dir *d = &s->dir[r->op];
	d->requests++;
	d->bytes = sat_add(d->bytes, len);
	d->sizes[ssd_tstat_size_bucket(len)]++;
	if (s->have_last[r->op] && s->last_end[r->op] == r->offset)
		d->sequential++;
	s->have_last[r->op] = 1;
	s->last_end[r->op] = r->offset + len;
	if (!s->have_data || r->offset > s->max_offset)
		s->max_offset = r->offset;
	if (r->offset + len > s->max_end)
		s->max_end = r->offset + len;
	s->have_data = 1;
	return pages_add(s, r->op, r->offset, len, series, 1);
}

int ssd_tstat_begin_series(struct ssd_tstat *s)
{
	if (s->fixed || !s->timed)
		return 0;
	uint64_t d = (uint64_t)(s->last_ts - s->first_ts);
	s->interval = (int64_t)(d / 20 ? d / 20 : 1);
	s->nint = d / (uint64_t)s->interval + 1;
	if (s->nint > 20)
		s->nint = 20;
	int rc = series_grow(s, s->nint);
	if (rc)
		return rc;
	/* the running total is counted again, from an empty written map */
	for (size_t i = 0; i < s->ntop; i++)
		for (size_t j = 0; s->top[i] && j < LEAF_N; j++)
			if (s->top[i][j]) {
				memset(s->top[i][j]->bits[MAP_WRITTEN], 0,
				       sizeof s->top[i][j]->bits[MAP_WRITTEN]);
				s->top[i][j]->stamp = 0;
			}
	s->run_written = 0;
	s->cur_int = 0;
	s->series_pass = 1;
	return 1;
}

int ssd_tstat_add_series(struct ssd_tstat *s, const struct ssd_trace_rec *r)
{
	if (!s->series_pass || r->op != SSD_TOP_WRITE || r->ts < 0 || !r->len)
		return 0;
	int rc = series_at(s, r->ts);
	return rc ? rc : pages_add(s, r->op, r->offset, r->len, 1, 0);
}

void ssd_tstat_end(struct ssd_tstat *s)
{
	if (!s->interval || !s->timed || !s->int_total)
		return;
	for (uint64_t i = s->cur_int; i < s->nint; i++)
		s->int_total[i] = s->run_written;
}

double ssd_tstat_gap_mean(const struct ssd_tstat *s)
{
	return s->gaps ? s->gap_sum / (double)s->gaps : 0;
}

uint64_t ssd_tstat_gap_percentile(const struct ssd_tstat *s, double p)
{
	if (!s->gaps)
		return 0;
	/* the smallest gap with at least p% of them at or below it */
	long double want = (long double)p / 100.0L * (long double)s->gaps;
	uint64_t sum = 0;
	unsigned i = 0;
	for (; i < SSD_TSTAT_GAP_N - 1; i++) {
		sum += s->gap_bucket[i];
		if (sum && (long double)sum >= want)
			break;
	}
	/* the mean of the gaps in that bucket: exact when they are all
	 * the same, within the bucket's width (1/64) otherwise */
	if (!s->gap_bucket[i])
		return ssd_tstat_gap_value(i);
	return (uint64_t)(s->gap_bsum[i] / (double)s->gap_bucket[i] + 0.5);
}

double ssd_tstat_sequential(const struct ssd_tstat *s)
{
	uint64_t n = 0, q = 0;
	for (int d = 0; d < 3; d++) {
		n += s->dir[d].requests;
		q += s->dir[d].sequential;
	}
	return n ? (double)q / (double)n : 0;
}

/* Count requests and bytes to device dev, the devices kept in order of
 * their numbers: 0 or SSD_ENOMEM. */
static int tstat_dev_add(struct ssd_tstat *s, uint32_t dev, uint64_t requests,
			 uint64_t bytes)
{
	size_t lo = 0, hi = s->ndevs;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (s->devs[mid].dev < dev)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == s->ndevs || s->devs[lo].dev != dev) {
		if (s->ndevs == s->capdevs) {
			size_t cap = s->capdevs ? s->capdevs * 2 : 16;
			void *p = realloc(s->devs, cap * sizeof *s->devs);
			if (!p)
				return SSD_ENOMEM;
			s->devs = p;
			s->capdevs = cap;
		}
		memmove(s->devs + lo + 1, s->devs + lo,
			(s->ndevs - lo) * sizeof *s->devs);
		s->devs[lo] = (struct ssd_tstat_devc){.dev = dev};
		s->ndevs++;
	}
	s->devs[lo].requests += requests;
	s->devs[lo].bytes += bytes;
	return 0;
}

static uint64_t tstat_bytes(const struct ssd_tstat *s)
{
	return s->dir[0].bytes + s->dir[1].bytes + s->dir[2].bytes;
}

int ssd_trace_stat(const struct ssd_tstat_opts *o, struct ssd_tstat **out,
		   int *fmt, char *err, size_t errlen, int *input)
{
	*out = NULL;
	*input = 1;
	struct ssd_trace *t;
	int rc = ssd_trace_open(o->path, o->fmt, &t, err, errlen);
	if (rc)
		return rc;
	ssd_trace_keep_empty(t); /* counted apart (ssd_tstat.empty) */
	if (o->has_dev)
		ssd_trace_device(t, o->dev);
	else
		ssd_trace_all_devices(t); /* each counted (ssd_tstat.devs) */
	*fmt = ssd_trace_fmt(t);
	struct ssd_tstat *s = ssd_tstat_new(o->interval, o->map_limit);
	if (!s) {
		ssd_trace_close(t);
		ssd_seterr(err, errlen, "out of memory");
		*input = 0;
		return SSD_ENOMEM;
	}
	struct ssd_trace_rec r;
	int k, pass2 = 0;
	for (int pass = 1; pass <= 1 + pass2; pass++) {
		while ((k = ssd_trace_next(t, &r)) > 0) {
			uint64_t empty = s->empty, nreq = s->requests;
			uint64_t bytes = tstat_bytes(s);
			rc = pass == 1 ? ssd_tstat_add(s, &r) : ssd_tstat_add_series(s, &r);
			if (!rc && pass == 1 && !o->has_dev && s->requests > nreq)
				rc = tstat_dev_add(s, r.dev, s->requests - nreq,
						   tstat_bytes(s) - bytes);
			if (rc)
				break;
			if (!empty && s->empty)
				s->first_empty = ssd_trace_line(t);
		}
		if (!rc && k < 0) {
			snprintf(err, errlen, "%s", ssd_trace_error(t));
			rc = k;
		} else if (rc == SSD_ERANGE && s->over == 1) {
			char b[32];
			ssd_seterr(err, errlen, "%s:%llu: the footprint's bitmaps would "
				   "pass %s (4 bits a 4 KiB page, in each 1 GiB of "
				   "address range touched)", o->path,
				   (unsigned long long)ssd_trace_line(t),
				   ssd_fmt_bytes(s->map_limit, b, sizeof b));
		} else if (rc == SSD_ERANGE) {
			ssd_seterr(err, errlen, "%s:%llu: more than %u intervals of the "
				   "write working set (expected a larger --interval)",
				   o->path, (unsigned long long)ssd_trace_line(t),
				   SSD_TSTAT_MAX_INTERVALS);
		} else if (rc) {
			ssd_seterr(err, errlen, "out of memory for the footprint of %s",
				   o->path);
			*input = 0;
		}
		if (rc)
			break;
		if (pass > 1)
			break;
		if ((pass2 = ssd_tstat_begin_series(s)) < 0) {
			rc = pass2;
			ssd_seterr(err, errlen, "out of memory for the working set of %s",
				   o->path);
			*input = 0;
			break;
		}
		if (pass2 && (rc = ssd_trace_rewind(t))) {
			snprintf(err, errlen, "%s", ssd_trace_error(t));
			break;
		}
	}
	ssd_trace_close(t);
	if (rc) {
		ssd_tstat_free(s);
		return rc;
	}
	ssd_tstat_end(s);
	*out = s;
	*input = 0;
	return 0;
}

/* ---- trace stat: the report ---- */

/* A time in ns for people: "1.5s", "250ms", "12.5us", "800ns". */
static const char *fmt_ns(char *buf, size_t n, double ns)
{
	if (ns == 0)
		return "0s";
	if (ns >= 1e9)
		return ssd_json_format(buf, n, "%.4gs", ns / 1e9);
	if (ns >= 1e6)
		return ssd_json_format(buf, n, "%.4gms", ns / 1e6);
	if (ns >= 1e3)
		return ssd_json_format(buf, n, "%.4gus", ns / 1e3);
	return ssd_json_format(buf, n, "%.4gns", ns);
}

static const char *pct(char *buf, size_t n, double frac)
{
	return ssd_json_format(buf, n, "%.2f%%", frac * 100.0);
}

static const char *dir_names[3] = {"read", "write", "trim"};

void ssd_tstat_print(const struct ssd_tstat *s, const struct ssd_tstat_opts *o,
		     int fmt, FILE *out)
{
	char b1[32], b2[32], b3[32], b4[32];
	fprintf(out, "trace: %s (%s", o->path, ssd_trace_fmt_name(fmt));
	if (o->has_dev && (fmt == SSD_TRACE_BLKPARSE || fmt == SSD_TRACE_BLKTRACE))
		fprintf(out, ", device %u,%u", (unsigned)(o->dev >> 20),
			(unsigned)(o->dev & ((1u << 20) - 1)));
	else if (o->has_dev)
		fprintf(out, ", device %u", (unsigned)o->dev);
	fprintf(out, ")\n");
	fprintf(out, "  requests: %llu (%llu read%s, %llu write%s, %llu trim%s, "
		"%llu sync%s)", (unsigned long long)s->requests,
		(unsigned long long)s->dir[0].requests,
		ssd_plural(s->dir[0].requests),
		(unsigned long long)s->dir[1].requests,
		ssd_plural(s->dir[1].requests),
		(unsigned long long)s->dir[2].requests,
		ssd_plural(s->dir[2].requests),
		(unsigned long long)s->syncs, ssd_plural(s->syncs));
	if (s->timed)
		fprintf(out, " in %s", fmt_ns(b1, sizeof b1,
					      (double)(s->last_ts - s->first_ts)));
	fprintf(out, "\n");
	if (s->empty)
		fprintf(out, "  of 0 bytes: %llu more, not counted (the first at "
			"line %llu; replay refuses them, convert leaves them "
			"out)\n", (unsigned long long)s->empty,
			(unsigned long long)s->first_empty);
	if (!o->has_dev && fmt != SSD_TRACE_IOLOG) { /* an iolog names none */
		fprintf(out, "  devices: %zu%s\n", s->ndevs,
			s->ndevs > 1 ? " (--device N picks one)" : "");
		for (size_t i = 0; i < s->ndevs; i++) {
			const struct ssd_tstat_devc *dv = &s->devs[i];
			fprintf(out, "    %-10s %llu request%s, %s (%llu byte%s)\n",
				ssd_trace_dev_name(fmt, dv->dev, b2, sizeof b2),
				(unsigned long long)dv->requests,
				ssd_plural(dv->requests),
				ssd_fmt_bytes(dv->bytes, b1, sizeof b1),
				(unsigned long long)dv->bytes, ssd_plural(dv->bytes));
		}
	}
	for (int d = 0; d < 3; d++) {
		const struct ssd_tstat_dir *x = &s->dir[d];
		fprintf(out, "  %-5s: %llu request%s, %s (%llu byte%s)",
			dir_names[d], (unsigned long long)x->requests,
			ssd_plural(x->requests),
			ssd_fmt_bytes(x->bytes, b1, sizeof b1),
			(unsigned long long)x->bytes, ssd_plural(x->bytes));
		if (x->requests)
			fprintf(out, ", sequential %s", pct(b2, sizeof b2,
				(double)x->sequential / (double)x->requests));
		fprintf(out, "\n");
		if (!x->requests)
			continue;
		fprintf(out, "    sizes:");
		for (int i = 0; i < SSD_TSTAT_NSIZES; i++)
			if (x->sizes[i])
				fprintf(out, " %s=%llu", ssd_tstat_size_names[i],
					(unsigned long long)x->sizes[i]);
		fprintf(out, "\n");
	}
	fprintf(out, "  footprint: %llu page%s of 4 KiB (%s) touched, %llu written "
		"(%s), %llu read (%s)\n", (unsigned long long)s->pages,
		ssd_plural(s->pages),
		ssd_fmt_bytes(s->pages * SSD_TT_PAGE, b1, sizeof b1),
		(unsigned long long)s->written_pages,
		ssd_fmt_bytes(s->written_pages * SSD_TT_PAGE, b2, sizeof b2),
		(unsigned long long)s->read_pages,
		ssd_fmt_bytes(s->read_pages * SSD_TT_PAGE, b3, sizeof b3));
	if (s->have_data)
		fprintf(out, "  address range: %s (%llu bytes; the largest offset "
			"%llu)\n", ssd_fmt_bytes(s->max_end, b1, sizeof b1),
			(unsigned long long)s->max_end,
			(unsigned long long)s->max_offset);
	fprintf(out, "  sequential: %s of the reads, writes and trims\n",
		pct(b1, sizeof b1, ssd_tstat_sequential(s)));
	if (s->gaps)
		fprintf(out, "  inter-arrival: mean=%s, p50=%s, p99=%s, max=%s\n",
			fmt_ns(b1, sizeof b1, ssd_tstat_gap_mean(s)),
			fmt_ns(b2, sizeof b2, (double)ssd_tstat_gap_percentile(s, 50)),
			fmt_ns(b3, sizeof b3, (double)ssd_tstat_gap_percentile(s, 99)),
			fmt_ns(b4, sizeof b4, (double)s->gap_max));
	else
		fprintf(out, "  inter-arrival: none (%s)\n", s->timed
			? "fewer than two requests" : "the trace has no times");
	fprintf(out, "  read/write: ");
	if (s->dir[1].requests)
		fprintf(out, "%s by requests", ssd_json_format(b1, sizeof b1, "%.4g",
			(double)s->dir[0].requests / (double)s->dir[1].requests));
	else
		fprintf(out, "no writes");
	if (s->dir[1].bytes)
		fprintf(out, ", %s by bytes", ssd_json_format(b1, sizeof b1, "%.4g",
			(double)s->dir[0].bytes / (double)s->dir[1].bytes));
	fprintf(out, "\n");
	if (!s->timed || !s->interval || !s->nint) {
		fprintf(out, "  write working set: none (%s)\n", s->timed
			? "no writes" : "the trace has no times");
		return;
	}
	fprintf(out, "  write working set, distinct 4 KiB pages written (every %s):\n",
		fmt_ns(b1, sizeof b1, (double)s->interval));
	fprintf(out, "    %12s %12s %12s\n", "from", "in it", "up to it");
	for (uint64_t i = 0; i < s->nint; i++)
		fprintf(out, "    %12s %12llu %12llu\n",
			fmt_ns(b1, sizeof b1, (double)i * (double)s->interval),
			(unsigned long long)s->int_pages[i],
			(unsigned long long)s->int_total[i]);
}

static void json_dir(struct ssd_json *w, const struct ssd_tstat_dir *x)
{
	ssd_json_object(w);
	ssd_json_ku64(w, "requests", x->requests);
	ssd_json_ku64(w, "bytes", x->bytes);
	ssd_json_kgeneral(w, "sequential", x->requests ? (double)x->sequential /
			  (double)x->requests : 0, 0);
	ssd_json_kobject(w, "sizes");
	for (int i = 0; i < SSD_TSTAT_NSIZES; i++)
		ssd_json_ku64(w, ssd_tstat_size_names[i], x->sizes[i]);
	ssd_json_end(w);
	ssd_json_end(w);
}

static void json_ratio(struct ssd_json *w, const char *key, uint64_t a,
		       uint64_t b)
{
	ssd_json_key(w, key);
	if (b)
		ssd_json_general(w, (double)a / (double)b, 0);
	else
		ssd_json_null(w);
}

void ssd_tstat_json(const struct ssd_tstat *s, const struct ssd_tstat_opts *o,
		    int fmt, FILE *out)
{
	struct ssd_json w;
	ssd_json_init(&w, out, 0, 0);
	ssd_json_object(&w);
	ssd_json_kstring(&w, "trace", o->path);
	ssd_json_kstring(&w, "format", ssd_trace_fmt_name(fmt));
	ssd_json_key(&w, "device");
	if (o->has_dev)
		ssd_json_u64(&w, o->dev);
	else
		ssd_json_null(&w);
	ssd_json_key(&w, "devices");
	if (o->has_dev || fmt == SSD_TRACE_IOLOG) {
		ssd_json_null(&w);
	} else {
		ssd_json_array(&w);
		for (size_t i = 0; i < s->ndevs; i++) {
			char b[24];
			ssd_json_object_flat(&w);
			ssd_json_ku64(&w, "device", s->devs[i].dev);
			ssd_json_kstring(&w, "name", ssd_trace_dev_name(fmt, s->devs[i].dev,
								      b, sizeof b));
			ssd_json_ku64(&w, "requests", s->devs[i].requests);
			ssd_json_ku64(&w, "bytes", s->devs[i].bytes);
			ssd_json_end(&w);
		}
		ssd_json_end(&w);
	}
	ssd_json_ku64(&w, "page_size", SSD_TT_PAGE);
	ssd_json_ku64(&w, "requests", s->requests);
	ssd_json_ku64(&w, "empty_requests", s->empty);
	for (int d = 0; d < 3; d++) {
		ssd_json_key(&w, dir_names[d]);
		json_dir(&w, &s->dir[d]);
	}
	ssd_json_kobject(&w, "sync");
	ssd_json_ku64(&w, "requests", s->syncs);
	ssd_json_end(&w);
	ssd_json_kobject(&w, "footprint");
	ssd_json_ku64(&w, "pages", s->pages);
	ssd_json_ku64(&w, "bytes", s->pages * SSD_TT_PAGE);
	ssd_json_ku64(&w, "written_pages", s->written_pages);
	ssd_json_ku64(&w, "written_bytes", s->written_pages * SSD_TT_PAGE);
	ssd_json_ku64(&w, "read_pages", s->read_pages);
	ssd_json_ku64(&w, "read_bytes", s->read_pages * SSD_TT_PAGE);
	ssd_json_end(&w);
	ssd_json_ku64(&w, "max_offset", s->max_offset);
	ssd_json_ku64(&w, "address_range", s->max_end);
	ssd_json_kgeneral(&w, "sequential", ssd_tstat_sequential(s), 0);
	ssd_json_key(&w, "interarrival_ns");
	if (s->gaps) {
		ssd_json_object(&w);
		ssd_json_kfixed(&w, "mean", ssd_tstat_gap_mean(s), 1);
		ssd_json_ku64(&w, "p50", ssd_tstat_gap_percentile(s, 50));
		ssd_json_ku64(&w, "p99", ssd_tstat_gap_percentile(s, 99));
		ssd_json_ku64(&w, "max", s->gap_max);
		ssd_json_end(&w);
	} else {
		ssd_json_null(&w);
	}
	ssd_json_key(&w, "duration_ns");
	if (s->timed)
		ssd_json_i64(&w, s->last_ts - s->first_ts);
	else
		ssd_json_null(&w);
	json_ratio(&w, "read_write_ratio", s->dir[0].requests, s->dir[1].requests);
	json_ratio(&w, "read_write_bytes_ratio", s->dir[0].bytes, s->dir[1].bytes);
	ssd_json_key(&w, "write_working_set");
	if (s->timed && s->interval && s->nint) {
		ssd_json_object(&w);
		ssd_json_ki64(&w, "interval_ns", s->interval);
		ssd_json_karray(&w, "intervals");
		for (uint64_t i = 0; i < s->nint; i++) {
			ssd_json_object_flat(&w);
			ssd_json_ki64(&w, "start_ns", (int64_t)i * s->interval);
			ssd_json_ku64(&w, "pages", s->int_pages[i]);
			ssd_json_ku64(&w, "total_pages", s->int_total[i]);
			ssd_json_end(&w);
		}
		ssd_json_end(&w);
		ssd_json_end(&w);
	} else {
		ssd_json_null(&w);
	}
	ssd_json_end(&w);
	fputc('\n', out);
}
