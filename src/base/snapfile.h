/*
 * snapfile.h -- the container of a drive snapshot (docs/snapshots.md):
 * a versioned, checksummed file of named sections, written whole or not
 * at all.  What goes into the sections is the business of the modules
 * that own the state (nand/flash.c, ftl/ftl_snap.c, machine/snapshot.c);
 * this module knows only the frame around them.
 *
 * Layout (integers little-endian):
 *
 *   header   "ssdlab snapshot\n"         16 bytes of magic
 *            u32 format version, u32 0
 *            u64 length of the drive's text, then the text itself (the
 *            drive file `ssdlab drive show` prints: the configuration
 *            the state belongs to)
 *            u64 xxh64 of every header byte before it
 *   body     sections: u32 tag (four letters), u32 form, u64 length
 *            (the bytes the section stands for), then
 *              form 0: that many bytes (a record);
 *              form 1: an array in blocks of 64 KiB (the last one
 *              shorter), each a byte 0 and its bytes as they are in
 *              memory, or a byte 1 and the one byte that fills it --
 *              what the drive never touched (unmapped pages, spare
 *              blocks) costs two bytes per 64 KiB
 *   trailer  "SNAPEND\n", u64 body length, u64 xxh64 of the body, u64
 *            the file's length: 32 bytes
 *
 * The header has a checksum of its own, so a damaged configuration is
 * told apart from another one before the body is read; the trailer
 * closes the file, so a file cut short is told apart from a damaged one.
 *
 * Writing goes through base/ofile (a temporary renamed over the name at
 * commit): a failed or abandoned save leaves no file that looks like a
 * snapshot.  Reading checks, in order, and names the first failure in
 * one line: the magic (not a snapshot), the version, the header's
 * checksum, the trailer (truncated), then each section the caller asks
 * for by tag and exact length, then the body's checksum.  A section that
 * is not what the caller expects, in a file whose body checksum does not
 * hold, is reported as damage, not as the wrong section.
 *
 * Speed: arrays move with one fwrite / fread each; the checksum is
 * xxh64 (Yann Collet's XXH64, 8+ GB/s), computed as the bytes pass.
 */
#ifndef SSD_SNAPFILE_H
#define SSD_SNAPFILE_H

#include <stddef.h>
#include <stdint.h>

/* The format's version: raised whenever a section's layout changes.  A
 * file of another version is refused by name. */
#define SSD_SNAP_VERSION 2

/* A four-letter section tag, as a u32 ("L2P " -> SSD_SNAP_TAG('L','2','P',' ')). */
#define SSD_SNAP_TAG(a, b, c, d)                                            \
	((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 |          \
	 (uint32_t)(d) << 24)

/* XXH64 of n bytes with a seed; and the streaming form. */
uint64_t ssd_xxh64(const void *p, size_t n, uint64_t seed);
struct ssd_xxh64 {
	uint64_t v[4], total;
	uint8_t buf[32];
	uint32_t nbuf;
	uint64_t seed;
};
void ssd_xxh64_init(struct ssd_xxh64 *h, uint64_t seed);
void ssd_xxh64_update(struct ssd_xxh64 *h, const void *p, size_t n);
uint64_t ssd_xxh64_digest(const struct ssd_xxh64 *h);

/* ---- writing ---- */

struct ssd_snapw;

/* Start a snapshot at `path` for the drive whose text is cfg_text.  0,
 * or SSD_EIO / SSD_ENOMEM with the message, naming the file, in err. */
int ssd_snapw_open(const char *path, const char *cfg_text,
		   struct ssd_snapw **out, char *err, size_t errlen);
/* A section: its tag and the bytes the puts after it add up to. */
void ssd_snapw_section(struct ssd_snapw *w, uint32_t tag, uint64_t len);
/* Bytes of the current section (n 0 and p NULL are fine).  Errors are
 * kept and reported by commit. */
void ssd_snapw_put(struct ssd_snapw *w, const void *p, size_t n);
/* A section of one array (form 1 above). */
void ssd_snapw_array(struct ssd_snapw *w, uint32_t tag, const void *p,
		     size_t n);
/* Close the file: trailer, flush, sync, rename into place.  0, or
 * SSD_EIO (nothing left under the name) with the message in err.  Frees
 * w. */
int ssd_snapw_commit(struct ssd_snapw *w, char *err, size_t errlen);
/* Abandon the file (nothing is left); frees w, which may be NULL. */
void ssd_snapw_discard(struct ssd_snapw *w);

/* ---- reading ---- */

struct ssd_snapr;

/* Open a snapshot: the magic, the version, the header's checksum and
 * the trailer are checked now.  0, or SSD_EIO (cannot read), SSD_EPARSE
 * (not a snapshot, truncated, damaged), SSD_EUNSUP (another version),
 * SSD_ENOMEM; the message in err names the file and which. */
int ssd_snapr_open(const char *path, struct ssd_snapr **out, char *err,
		   size_t errlen);
/* The drive's text the header holds (NUL-terminated; lives with r). */
const char *ssd_snapr_config(const struct ssd_snapr *r);
/* The next section must be `tag` of `len` bytes: 0, or SSD_EPARSE with
 * the reason kept for ssd_snapr_end. */
int ssd_snapr_section(struct ssd_snapr *r, uint32_t tag, uint64_t len);
/* Bytes of the current section into p. 0 or SSD_EPARSE / SSD_EIO. */
int ssd_snapr_get(struct ssd_snapr *r, void *p, size_t n);
/* A section of one array of exactly n bytes (written by
 * ssd_snapw_array). */
int ssd_snapr_array(struct ssd_snapr *r, uint32_t tag, void *p, size_t n);
/* Body bytes not read yet: a bound on what a section may still hold,
 * for the caller to check a length read from the file before it
 * allocates that much. */
uint64_t ssd_snapr_left(const struct ssd_snapr *r);
/* 1 if the next section is `tag` (an optional section). */
int ssd_snapr_next_is(struct ssd_snapr *r, uint32_t tag);
/* Finish: the body must end here and its checksum hold.  After a
 * failure of the reads above, decides what to say: damage if the
 * checksum fails, else the first failure.  0, or a negative SSD_E* with
 * the one-line message in err.  Does not free r. */
int ssd_snapr_end(struct ssd_snapr *r, char *err, size_t errlen);
/* A failure found by the caller in what a section holds (a value out of
 * range): kept for ssd_snapr_end like the reads' own. */
void ssd_snapr_fail(struct ssd_snapr *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ssd_snapr_close(struct ssd_snapr *r);

#endif
