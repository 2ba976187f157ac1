/*
 * snapfile.c -- the snapshot container: header, sections, trailer, and
 * the xxh64 checksum over them (see snapfile.h).
 */
#include "base/snapfile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/ofile.h"
#include "base/util.h"

static const char magic[16] = "ssdlab snapshot\n";
static const char end_magic[8] = "SNAPEND\n";
#define TRAILER 32u
/* the longest drive text a header may hold (a drive file's is ~13 KiB) */
#define MAX_TEXT ((uint64_t)1 << 20)
/* bytes hashed while they are still in the cache */
#define CHUNK ((size_t)4 << 20)
/* An array's section is a run of blocks of BLOCK bytes (the last one
 * shorter), each a marker byte and then its bytes (BLK_RAW), or one byte
 * that fills it (BLK_FILL): what a drive never touched -- unmapped pages,
 * spare blocks, clear bits -- takes two bytes per block. */
#define SEC_BLOCKS 1u           /* the section's flag */
#define BLOCK ((size_t)64 << 10)
#define BLK_RAW 0
#define BLK_FILL 1

/* ---- xxh64 (the published XXH64 algorithm) ---- */

#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL
#define P3 0x165667B19E3779F9ULL
#define P4 0x85EBCA77C2B2AE63ULL
#define P5 0x27D4EB2F165667C5ULL

static inline uint64_t rotl64(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static inline uint64_t rd64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v; /* little-endian hosts (the format's order) */
}

static inline uint32_t rd32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static inline uint64_t xround(uint64_t acc, uint64_t in)
{
	acc += in * P2;
	acc = rotl64(acc, 31);
	return acc * P1;
}

static inline uint64_t xmerge(uint64_t acc, uint64_t v)
{
	acc ^= xround(0, v);
	return acc * P1 + P4;
}

void ssd_xxh64_init(struct ssd_xxh64 *h, uint64_t seed)
{
	memset(h, 0, sizeof *h);
	h->seed = seed;
	h->v[0] = seed + P1 + P2;
	h->v[1] = seed + P2;
	h->v[2] = seed;
	h->v[3] = seed - P1;
}

void ssd_xxh64_update(struct ssd_xxh64 *h, const void *data, size_t n)
{
	const uint8_t *p = data;
	h->total += n;
	if (h->nbuf) {
		size_t take = 32 - h->nbuf < n ? 32 - h->nbuf : n;
		memcpy(h->buf + h->nbuf, p, take);
		h->nbuf += (uint32_t)take;
		p += take;
		n -= take;
		if (h->nbuf < 32)
			return;
		for (int i = 0; i < 4; i++)
			h->v[i] = xround(h->v[i], rd64(h->buf + 8 * i));
		h->nbuf = 0;
	}
	uint64_t v0 = h->v[0], v1 = h->v[1], v2 = h->v[2], v3 = h->v[3];
	while (n >= 32) {
		v0 = xround(v0, rd64(p));
		v1 = xround(v1, rd64(p + 8));
		v2 = xround(v2, rd64(p + 16));
		v3 = xround(v3, rd64(p + 24));
		p += 32;
		n -= 32;
	}
	h->v[0] = v0, h->v[1] = v1, h->v[2] = v2, h->v[3] = v3;
	memcpy(h->buf, p, n);
	h->nbuf = (uint32_t)n;
}

uint64_t ssd_xxh64_digest(const struct ssd_xxh64 *h)
{
	uint64_t x;
	if (h->total >= 32) {
		x = rotl64(h->v[0], 1) + rotl64(h->v[1], 7) +
		    rotl64(h->v[2], 12) + rotl64(h->v[3], 18);
		for (int i = 0; i < 4; i++)
			x = xmerge(x, h->v[i]);
	} else {
		x = h->seed + P5;
	}
	x += h->total;
	const uint8_t *p = h->buf;
	uint32_t n = h->nbuf;
	while (n >= 8) {
		x ^= xround(0, rd64(p));
		x = rotl64(x, 27) * P1 + P4;
		p += 8;
		n -= 8;
	}
	if (n >= 4) {
		x ^= (uint64_t)rd32(p) * P1;
		x = rotl64(x, 23) * P2 + P3;
		p += 4;
		n -= 4;
	}
	while (n--) {
		x ^= *p++ * P5;
		x = rotl64(x, 11) * P1;
	}
	x ^= x >> 33;
	x *= P2;
	x ^= x >> 29;
	x *= P3;
	x ^= x >> 32;
	return x;
}

uint64_t ssd_xxh64(const void *p, size_t n, uint64_t seed)
{
	struct ssd_xxh64 h;
	ssd_xxh64_init(&h, seed);
	ssd_xxh64_update(&h, p, n);
	return ssd_xxh64_digest(&h);
}

static void tag_name(uint32_t tag, char out[5])
{
	for (int i = 0; i < 4; i++) {
		char c = (char)(tag >> (8 * i));
		out[i] = c >= 0x20 && c < 0x7f ? c : '?';
	}
	out[4] = 0;
}

/* ---- writing ---- */

struct ssd_snapw {
	struct ssd_ofile *of;
	FILE *f;
	struct ssd_xxh64 h;     /* the body's */
	uint64_t head;          /* header bytes */
	uint64_t body;          /* body bytes written */
	uint64_t sec_left;      /* bytes the current section still owes */
	uint32_t sec_tag;
	char bad[128];          /* the first misuse of the sections */
};

/* Bytes of the header or the trailer (not hashed as body). */
static void raw(struct ssd_snapw *w, const void *p, size_t n)
{
	fwrite(p, 1, n, w->f);
}

int ssd_snapw_open(const char *path, const char *cfg_text,
		   struct ssd_snapw **out, char *err, size_t errlen)
{
	*out = NULL;
	struct ssd_snapw *w = calloc(1, sizeof *w);
	if (!w) {
		ssd_seterr(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	int rc = ssd_ofile_open(path, SSD_OFILE_REPLACE, &w->of, err, errlen);
	if (rc) {
		free(w);
		return rc;
	}
	w->f = ssd_ofile_stream(w->of);
	ssd_xxh64_init(&w->h, 0);
	uint32_t v[2] = {SSD_SNAP_VERSION, 0};
	uint64_t len = strlen(cfg_text);
	struct ssd_xxh64 hh;
	ssd_xxh64_init(&hh, 0);
	ssd_xxh64_update(&hh, magic, sizeof magic);
	ssd_xxh64_update(&hh, v, sizeof v);
	ssd_xxh64_update(&hh, &len, sizeof len);
	ssd_xxh64_update(&hh, cfg_text, len);
	uint64_t hd = ssd_xxh64_digest(&hh);
	raw(w, magic, sizeof magic);
	raw(w, v, sizeof v);
	raw(w, &len, sizeof len);
	raw(w, cfg_text, len);
	raw(w, &hd, sizeof hd);
	w->head = sizeof magic + sizeof v + sizeof len + len + sizeof hd;
	*out = w;
	return 0;
}

static void body(struct ssd_snapw *w, const void *p, size_t n)
{
	const uint8_t *b = p;
	while (n) {
		size_t k = n < CHUNK ? n : CHUNK;
		ssd_xxh64_update(&w->h, b, k);
		fwrite(b, 1, k, w->f);
		b += k;
		n -= k;
		w->body += k;
	}
}

/* The current section must be complete. */
static void section_done(struct ssd_snapw *w)
{
	if (w->sec_left && !w->bad[0]) {
		char t[5];
		tag_name(w->sec_tag, t);
		snprintf(w->bad, sizeof w->bad, "section '%s' is %llu bytes short",
			 t, (unsigned long long)w->sec_left);
	}
}

static void section_head(struct ssd_snapw *w, uint32_t tag, uint32_t flags,
			 uint64_t len)
{
	section_done(w);
	uint32_t h[2] = {tag, flags};
	body(w, h, sizeof h);
	body(w, &len, sizeof len);
	w->sec_tag = tag;
	w->sec_left = len;
}

void ssd_snapw_section(struct ssd_snapw *w, uint32_t tag, uint64_t len)
{
	section_head(w, tag, 0, len);
}

void ssd_snapw_put(struct ssd_snapw *w, const void *p, size_t n)
{
	if (n > w->sec_left) {
		if (!w->bad[0]) {
			char t[5];
			tag_name(w->sec_tag, t);
			snprintf(w->bad, sizeof w->bad,
				 "section '%s' is longer than it said", t);
		}
		return;
	}
	if (n)
		body(w, p, n);
	w->sec_left -= n;
}

/* 1 if the n > 0 bytes at b are all the same byte. */
static int uniform(const uint8_t *b, size_t n)
{
	return !memcmp(b, b + 1, n - 1);
}

void ssd_snapw_array(struct ssd_snapw *w, uint32_t tag, const void *p,
		     size_t n)
{
	section_head(w, tag, SEC_BLOCKS, n);
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i += BLOCK) {
		size_t k = n - i < BLOCK ? n - i : BLOCK;
		if (uniform(b + i, k)) {
			uint8_t m[2] = {BLK_FILL, b[i]};
			body(w, m, 2);
		} else {
			uint8_t m = BLK_RAW;
			body(w, &m, 1);
			body(w, b + i, k);
		}
	}
	w->sec_left = 0;
}

int ssd_snapw_commit(struct ssd_snapw *w, char *err, size_t errlen)
{
	section_done(w);
	if (w->bad[0]) {
		/* a bug of the caller: no file is better than a wrong one */
		ssd_seterr(err, errlen, "cannot write '%s': %s",
			   ssd_ofile_path(w->of), w->bad);
		ssd_snapw_discard(w);
		return SSD_ESTATE;
	}
	uint64_t t[4];
	memcpy(&t[0], end_magic, 8);
	t[1] = w->body;
	t[2] = ssd_xxh64_digest(&w->h);
	t[3] = w->head + w->body + TRAILER; /* the file's length */
	raw(w, t, sizeof t);
	int rc = ssd_ofile_commit(w->of, err, errlen);
	free(w);
	return rc;
}

void ssd_snapw_discard(struct ssd_snapw *w)
{
	if (!w)
		return;
	ssd_ofile_discard(w->of);
	free(w);
}

/* ---- reading ---- */

struct ssd_snapr {
	FILE *f;
	char *path;
	char *cfg;              /* the header's drive text */
	uint64_t size;          /* the file's length */
	uint64_t body_end;      /* where the trailer starts */
	uint64_t pos;           /* the next byte to read */
	uint64_t body_len, body_hash; /* the trailer's */
	struct ssd_xxh64 h;     /* the body's, so far */
	uint64_t sec_left;      /* bytes of the current section left */
	uint32_t sec_tag;
	uint32_t sec_flags;
	int peeked;             /* a section header was read ahead */
	uint32_t peek_tag, peek_flags;
	uint64_t peek_len;
	int failed;
	char why[256];          /* the first failure, without the file name */
};

void ssd_snapr_fail(struct ssd_snapr *r, const char *fmt, ...)
{
	if (r->failed)
		return;
	r->failed = 1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof r->why, fmt, ap);
	va_end(ap);
}

/* n body bytes into p (hashed); 0 or SSD_EPARSE / SSD_EIO. */
static int body_read(struct ssd_snapr *r, void *p, size_t n)
{
	if (n > r->body_end - r->pos) {
		ssd_snapr_fail(r, "a section runs past the end of the body");
		return SSD_EPARSE;
	}
	uint8_t *b = p;
	while (n) {
		size_t k = n < CHUNK ? n : CHUNK;
		if (fread(b, 1, k, r->f) != k) {
			ssd_snapr_fail(r, "cannot read it: %s",
				       ferror(r->f) ? strerror(errno)
						    : "it ended early");
			return SSD_EIO;
		}
		ssd_xxh64_update(&r->h, b, k);
		r->pos += k;
		b += k;
		n -= k;
	}
	return 0;
}

int ssd_snapr_open(const char *path, struct ssd_snapr **out, char *err,
		   size_t errlen)
{
	*out = NULL;
	struct ssd_snapr *r = calloc(1, sizeof *r);
	if (!r || !(r->path = strdup(path))) {
		free(r);
		ssd_seterr(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	int rc = SSD_EPARSE;
	struct stat st;
	r->f = fopen(path, "rb");
	if (!r->f || fstat(fileno(r->f), &st)) {
		ssd_seterr(err, errlen, "cannot read snapshot '%s': %s", path,
			   strerror(errno));
		rc = SSD_EIO;
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		ssd_seterr(err, errlen, "'%s' is not a snapshot (not a regular "
			   "file)", path);
		goto fail;
	}
	r->size = (uint64_t)st.st_size;
	char m[sizeof magic];
	size_t got = fread(m, 1, sizeof m, r->f);
	if (got < sizeof m && !memcmp(m, magic, got) && got) {
		ssd_seterr(err, errlen, "snapshot '%s' is truncated (%llu bytes, "
			   "not even a header)", path,
			   (unsigned long long)r->size);
		goto fail;
	}
	if (got < sizeof m || memcmp(m, magic, sizeof m)) {
		ssd_seterr(err, errlen, "'%s' is not an ssdlab snapshot (it does "
			   "not start with \"ssdlab snapshot\")", path);
		goto fail;
	}
	uint32_t v[2];
	uint64_t len = 0;
	if (fread(v, sizeof v, 1, r->f) != 1 || fread(&len, sizeof len, 1, r->f) != 1) {
		ssd_seterr(err, errlen, "snapshot '%s' is truncated (%llu bytes, "
			   "its header cut short)", path,
			   (unsigned long long)r->size);
		goto fail;
	}
	if (v[0] != SSD_SNAP_VERSION) {
		ssd_seterr(err, errlen, "snapshot '%s' has format version %u; this "
			   "ssdlab reads version %u (make it again with this "
			   "ssdlab)", path, v[0], SSD_SNAP_VERSION);
		rc = SSD_EUNSUP;
		goto fail;
	}
	uint64_t head = sizeof magic + sizeof v + sizeof len + 8;
	if (len > MAX_TEXT) {
		/* no drive's text is near that long: the length is damaged */
		ssd_seterr(err, errlen, "snapshot '%s' is damaged (its header "
			   "gives its drive text %llu bytes)", path,
			   (unsigned long long)len);
		goto fail;
	}
	if (head + len > r->size) {
		ssd_seterr(err, errlen, "snapshot '%s' is truncated (%llu bytes, "
			   "its header cut short)", path,
			   (unsigned long long)r->size);
		goto fail;
	}
	uint64_t hd;
	r->cfg = malloc(len + 1);
	if (!r->cfg) {
		ssd_seterr(err, errlen, "out of memory");
		rc = SSD_ENOMEM;
		goto fail;
	}
	if (fread(r->cfg, 1, len, r->f) != len || fread(&hd, sizeof hd, 1, r->f) != 1) {
		ssd_seterr(err, errlen, "cannot read snapshot '%s': %s", path,
			   strerror(errno));
		rc = SSD_EIO;
		goto fail;
	}
	r->cfg[len] = 0;
	struct ssd_xxh64 hh;
	ssd_xxh64_init(&hh, 0);
	ssd_xxh64_update(&hh, magic, sizeof magic);
	ssd_xxh64_update(&hh, v, sizeof v);
	ssd_xxh64_update(&hh, &len, sizeof len);
	ssd_xxh64_update(&hh, r->cfg, len);
	if (ssd_xxh64_digest(&hh) != hd || strlen(r->cfg) != len) {
		ssd_seterr(err, errlen, "snapshot '%s' is damaged (the checksum of "
			   "its header does not match)", path);
		goto fail;
	}
	head += len;
	uint64_t t[4];
	if (r->size < head + TRAILER ||
	    fseeko(r->f, (off_t)(r->size - TRAILER), SEEK_SET) ||
	    fread(t, sizeof t, 1, r->f) != 1 || memcmp(&t[0], end_magic, 8)) {
		ssd_seterr(err, errlen, "snapshot '%s' is truncated (%llu bytes, "
			   "no end record)", path, (unsigned long long)r->size);
		goto fail;
	}
	if (t[3] != r->size || t[1] != r->size - TRAILER - head) {
		ssd_seterr(err, errlen, "snapshot '%s' is damaged (its end record "
			   "says %llu bytes, the file has %llu)", path,
			   (unsigned long long)t[3], (unsigned long long)r->size);
		goto fail;
	}
	r->body_len = t[1];
	r->body_hash = t[2];
	r->body_end = r->size - TRAILER;
	r->pos = head;
	if (fseeko(r->f, (off_t)head, SEEK_SET)) {
		ssd_seterr(err, errlen, "cannot read snapshot '%s': %s", path,
			   strerror(errno));
		rc = SSD_EIO;
		goto fail;
	}
	ssd_xxh64_init(&r->h, 0);
	*out = r;
	return 0;
fail:
	ssd_snapr_close(r);
	return rc;
}

uint64_t ssd_snapr_left(const struct ssd_snapr *r)
{
	return r->body_end - r->pos;
}

const char *ssd_snapr_config(const struct ssd_snapr *r)
{
	return r->cfg;
}

/* The next section's header (read ahead by next_is, or now). */
static int sec_head(struct ssd_snapr *r, uint32_t *tag, uint32_t *flags,
		    uint64_t *len)
{
	if (r->peeked) {
		r->peeked = 0;
		*tag = r->peek_tag;
		*flags = r->peek_flags;
		*len = r->peek_len;
		return 0;
	}
	if (r->sec_left) {
		char t[5];
		tag_name(r->sec_tag, t);
		ssd_snapr_fail(r, "section '%s' has %llu bytes nobody read", t,
			       (unsigned long long)r->sec_left);
		return SSD_EPARSE;
	}
	uint32_t h[2];
	int rc;
	if ((rc = body_read(r, h, sizeof h)) || (rc = body_read(r, len, sizeof *len)))
		return rc;
	*tag = h[0];
	*flags = h[1];
	return 0;
}

int ssd_snapr_next_is(struct ssd_snapr *r, uint32_t tag)
{
	if (r->failed)
		return 0;
	if (!r->peeked) {
		if (r->pos == r->body_end)
			return 0;
		if (sec_head(r, &r->peek_tag, &r->peek_flags, &r->peek_len))
			return 0;
		r->peeked = 1;
	}
	return r->peek_tag == tag;
}

/* The next section must be `tag` of `len` bytes, written with `flags`. */
static int section(struct ssd_snapr *r, uint32_t tag, uint32_t flags,
		   uint64_t len)
{
	if (r->failed)
		return SSD_EPARSE;
	uint32_t got, gflags;
	uint64_t n;
	char t[5], w[5];
	tag_name(tag, w);
	if (!r->peeked && r->pos == r->body_end) {
		ssd_snapr_fail(r, "its body ends before section '%s'", w);
		return SSD_EPARSE;
	}
	int rc = sec_head(r, &got, &gflags, &n);
	if (rc)
		return rc;
	tag_name(got, t);
	if (got != tag) {
		ssd_snapr_fail(r, "section '%s' where '%s' belongs", t, w);
		return SSD_EPARSE;
	}
	if (gflags != flags) {
		ssd_snapr_fail(r, "section '%s' is written in another form (%u, "
			       "not %u)", t, gflags, flags);
		return SSD_EPARSE;
	}
	if (n != len) {
		ssd_snapr_fail(r, "section '%s' holds %llu bytes, this drive's "
			       "has %llu", t, (unsigned long long)n,
			       (unsigned long long)len);
		return SSD_EPARSE;
	}
	r->sec_tag = tag;
	r->sec_flags = flags;
	r->sec_left = len;
	return 0;
}

int ssd_snapr_section(struct ssd_snapr *r, uint32_t tag, uint64_t len)
{
	return section(r, tag, 0, len);
}

int ssd_snapr_get(struct ssd_snapr *r, void *p, size_t n)
{
	if (r->failed)
		return SSD_EPARSE;
	if (n > r->sec_left) {
		char t[5];
		tag_name(r->sec_tag, t);
		ssd_snapr_fail(r, "section '%s' is shorter than its contents", t);
		return SSD_EPARSE;
	}
	r->sec_left -= n;
	return body_read(r, p, n);
}

int ssd_snapr_array(struct ssd_snapr *r, uint32_t tag, void *p, size_t n)
{
	int rc = section(r, tag, SEC_BLOCKS, n);
	uint8_t *b = p;
	for (size_t i = 0; !rc && i < n; i += BLOCK) {
		size_t k = n - i < BLOCK ? n - i : BLOCK;
		uint8_t m[2];
		if ((rc = body_read(r, m, 1)))
			break;
		if (m[0] == BLK_RAW)
			rc = body_read(r, b + i, k);
		else if (m[0] == BLK_FILL && !(rc = body_read(r, m + 1, 1)))
			memset(b + i, m[1], k);
		else if (!rc) {
			char t[5];
			tag_name(tag, t);
			ssd_snapr_fail(r, "section '%s' has a block of an unknown "
				       "kind (%u)", t, m[0]);
			rc = SSD_EPARSE;
		}
	}
	r->sec_left = 0;
	return rc;
}

int ssd_snapr_end(struct ssd_snapr *r, char *err, size_t errlen)
{
	if (!r->failed && (r->peeked || r->sec_left || r->pos != r->body_end)) {
		char t[5];
		tag_name(r->peeked ? r->peek_tag : r->sec_tag, t);
		ssd_snapr_fail(r, "section '%s' and what follows it are more "
			       "than this drive holds", t);
	}
	/* whatever went wrong, hash the rest: damage explains it best */
	uint64_t left = r->body_end - r->pos;
	if (left && r->pos <= r->body_end) {
		uint8_t *buf = malloc(CHUNK);
		if (!buf) {
			ssd_seterr(err, errlen, "out of memory");
			return SSD_ENOMEM;
		}
		if (fseeko(r->f, (off_t)r->pos, SEEK_SET) == 0) {
			r->failed++; /* body_read must not replace the reason */
			while (left) {
				size_t k = left < CHUNK ? left : CHUNK;
				if (fread(buf, 1, k, r->f) != k)
					break;
				ssd_xxh64_update(&r->h, buf, k);
				left -= k;
			}
			r->failed--;
		}
		free(buf);
	}
	if (left || ssd_xxh64_digest(&r->h) != r->body_hash) {
		ssd_seterr(err, errlen, "snapshot '%s' is damaged (the checksum of "
			   "its body does not match)", r->path);
		return SSD_EPARSE;
	}
	if (r->failed) {
		ssd_seterr(err, errlen, "snapshot '%s' does not fit this drive: %s",
			   r->path, r->why);
		return SSD_EPARSE;
	}
	return 0;
}

void ssd_snapr_close(struct ssd_snapr *r)
{
	if (!r)
		return;
	if (r->f)
		fclose(r->f);
	free(r->path);
	free(r->cfg);
	free(r);
}
