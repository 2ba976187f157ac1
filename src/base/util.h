/*
 * util.h -- the small things every ssdlab module stands on: the error
 * vocabulary, the seeded random generator, and parsers for the size and
 * time strings that drive files, job files and the command line share.
 *
 * Errors: every function that can fail returns 0 or a negative SSD_E* code;
 * ssd_strerror() names it.  Messages for users are built at the edges (file
 * parsers, CLI) and carry file, line, key and the accepted values.
 *
 * Randomness: struct ssd_rng is xoshiro256** state, passed explicitly.  No
 * module calls rand() or reads the clock; a run is a function of its inputs
 * and its seed.
 */
#ifndef SSD_UTIL_H
#define SSD_UTIL_H

#include <stddef.h>
#include <stdint.h>

enum {
	SSD_OK = 0,
	SSD_EINVAL = -1,  /* bad argument or value */
	SSD_ENOMEM = -2,  /* allocation failed */
	SSD_EIO = -3,     /* file could not be read or written */
	SSD_ERANGE = -4,  /* value out of the accepted range */
	SSD_ENOSPC = -5,  /* no free block where one was required */
	SSD_EROFS = -6,   /* drive is read-only (end of life) */
	SSD_EPARSE = -7,  /* malformed input */
	SSD_ENOENT = -8,  /* no such preset, option or file */
	SSD_EUNSUP = -9,  /* recognised but not supported */
	SSD_ESTATE = -10, /* a flash rule or an invariant was violated */
	SSD_EILSEQ = -11, /* data read back is not what was written (verify) */
	SSD_ETIMEDOUT = -12, /* an I/O's latency exceeds the job's limit */
	SSD_EPENDING = -13  /* not an error: the command waits in the
	                       drive's queue, its completion comes later
	                       (ssd_dev_decide) */
};

/* A static string naming the error code; never NULL. */
/* A zoned drive's errors (ftl/zns.h): -(0x1000 | status code type << 8 | status code), so that they
 * differ from the SSD_E* codes and carry the NVMe status (§3.1.2 for
 * the zoned ones, status code type 1h; the two generic ones type 0h). */
enum {
	SSD_ZNS_EFIELD = -0x1002,      /* Invalid Field in Command */
	SSD_ZNS_EZONEOP = -0x11b6,     /* Invalid Zone Operation Request */
	SSD_FDP_EPID = -0x2002,        /* Invalid Field: a placement
	                                  identifier that names no handle */
	SSD_ZNS_ENOZRWA = -0x11b7,     /* ZRWA Resources Unavailable */
	SSD_ZNS_ERANGE = -0x1080,      /* LBA Out of Range */
	SSD_ZNS_EBOUNDARY = -0x11b8,   /* Zone Boundary Error */
	SSD_ZNS_EFULL = -0x11b9,       /* Zone Is Full */
	SSD_ZNS_EREADONLY = -0x11ba,   /* Zone Is Read Only */
	SSD_ZNS_EOFFLINE = -0x11bb,    /* Zone Is Offline */
	SSD_ZNS_EWRITE = -0x11bc,      /* Zone Invalid Write */
	SSD_ZNS_EMAXACTIVE = -0x11bd, /* Too Many Active Zones */
	SSD_ZNS_EMAXOPEN = -0x11be,   /* Too Many Open Zones */
	SSD_ZNS_ETRANSITION = -0x11bf  /* Invalid Zone State Transition */
};

const char *ssd_strerror(int code);

/* The description of errno value e ("No space left on device"), as
 * strerror gives it in the C locale, but without strerror's locale lock
 * (gettext's): safe in any thread.  A sanitized nbdkit whose worker
 * threads had called strerror hung at exit, in freelocale.  Never NULL. */
const char *ssd_errno_text(int e);

/* Time in simulated nanoseconds.  2^63 ns is 292 years. */
typedef int64_t ssd_time;
#define SSD_NS 1LL
#define SSD_US 1000LL
#define SSD_MS 1000000LL
#define SSD_S 1000000000LL

/* ---- random numbers: xoshiro256** seeded by splitmix64 ---- */
struct ssd_rng {
	uint64_t s[4];
};
void ssd_rng_seed(struct ssd_rng *r, uint64_t seed);
uint64_t ssd_rng_next(struct ssd_rng *r);
/* Uniform integer in [0, n); n > 0.  Lemire's multiply-shift, unbiased. */
uint64_t ssd_rng_below(struct ssd_rng *r, uint64_t n);
/* Uniform double in [0, 1) with 53 random bits. */
double ssd_rng_unit(struct ssd_rng *r);
/* splitmix64 finaliser: a good 64-bit mixing function (seed derivation). */
uint64_t ssd_mix64(uint64_t x);

/* ---- division by a run-time constant ----
 * The FTL divides slot and block numbers by geometry constants on every
 * host write and every GC copy; a hardware divide costs ~25 cycles there.
 * Lemire, Kaser and Kurz, "Faster remainder by direct computation" (2019):
 * with c = 2^64 / d rounded up, n / d = floor(c * n / 2^64), exact for
 * every 32-bit n and d >= 2. */
struct ssd_udiv {
	uint64_t c;     /* 0 when d == 1 */
	uint32_t d;
};

static inline struct ssd_udiv ssd_udiv_init(uint32_t d)
{
	struct ssd_udiv v = {d > 1 ? UINT64_MAX / d + 1 : 0, d};
	return v;
}

static inline uint32_t ssd_udiv(uint32_t n, struct ssd_udiv v)
{
	if (!v.c)
		return n;
	return (uint32_t)(((unsigned __int128)v.c * n) >> 64);
}

/* An array that grows by doubling: p (NULL at first) reallocated to
 * twice *cap elements of `size` bytes, or to `first` when *cap is 0.
 * Returns the new array and sets *cap, or NULL (p and *cap unchanged)
 * when memory runs out or the size would overflow. */
void *ssd_grow(void *p, uint32_t *cap, size_t size, uint32_t first);

/* The later of two times (or the larger of two signed values). */
static inline int64_t ssd_max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* ---- value parsers shared by every input format ----
 * All return 0 on success, SSD_EPARSE if the text is not of the form,
 * SSD_ERANGE if it overflows.  Leading/trailing blanks are not accepted:
 * callers trim first. */

/* Byte size, fio's rules with kb_base=1024: a plain integer is bytes;
 * suffixes k/K, m/M, g/G, t/T, p/P (optionally followed by "b", "B", "iB")
 * are powers of 1024; "b"/"B" alone is bytes.  Examples: 4096, 4k, 4KiB,
 * 16m, 1.5g (fractions allowed if the result is a whole number of bytes),
 * 0x1000 (hex, as fio reads it).  Integers are read exactly, in decimal
 * even with leading zeros. */
int ssd_parse_size(const char *s, uint64_t *out);

/* Byte size exactly as fio reads it in a job file under kb_base (1024,
 * fio's default, or 1000): k/m/g/t/p, alone or followed by "b" or "i",
 * are powers of kb_base; followed by "ib" (KiB, MiB...) they are powers
 * of the other base.  So under 1024, 4k = 4kB = 4096 and 4KiB = 4000;
 * under 1000, 4k = 4000 and 4KiB = 4096.  Otherwise as ssd_parse_size. */
int ssd_parse_size_kb(const char *s, unsigned kb_base, uint64_t *out);

/* Time with a unit suffix ns, us, ms, s, m (minutes), h, d.  A bare number
 * is read in `bare_unit` nanoseconds (fio: seconds for runtime, microseconds
 * for thinktime).  Fractions allowed: "0.5s"; decimal only.  Result in ns;
 * SSD_ERANGE from 2^63 ns (292 years) up. */
int ssd_parse_time(const char *s, int64_t bare_unit, int64_t *out);

/* Unsigned integer, no suffix: decimal, or hex after "0x" -- fio's rule
 * (str_to_decimal).  A leading 0 is decimal, never octal: "010" is 10. */
int ssd_parse_u64(const char *s, uint64_t *out);

/* Floating point number, whole string consumed, finite. */
int ssd_parse_double(const char *s, double *out);

/* Boolean: 1/0, true/false, yes/no, on/off (case-insensitive). */
int ssd_parse_bool(const char *s, int *out);

/* Format a one-line message into err (when err is not NULL): the edges'
 * way of reporting "where: what is wrong (accepted: ...)". */
void ssd_seterr(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* qsort comparator for doubles, ascending. */
int ssd_cmp_double(const void *a, const void *b);
/* qsort/bsearch comparison of uint64_t, ascending. */
int ssd_cmp_u64(const void *a, const void *b);

/* Median of v[0..n) (sorts v in place); NAN when n == 0. */
double ssd_median(double *v, size_t n);

/* Edit distance between two short strings (option names), for "did you
 * mean" suggestions: insertions, deletions, substitutions and swaps of
 * neighbouring characters count 1 (optimal string alignment); 99 when
 * either is longer than 63 bytes. */
int ssd_edit_distance(const char *a, const char *b);

/* 1 if a name at edit distance `dist` from `key` is worth suggesting:
 * never for keys shorter than 4 characters, and only within a quarter
 * of the key's length (at least 1, at most 3). */
int ssd_plausible_typo(const char *key, int dist);

/* Trim leading and trailing white space in place; returns s. */
char *ssd_strtrim(char *s);

/* Format a byte count for people: "32 GiB", "4 KiB", "1.50 MiB".
 * Writes into buf (at least 32 bytes) and returns it. */
char *ssd_fmt_bytes(uint64_t v, char *buf, size_t n);

/* The plural ending of a count: "" for 1, "s" for anything else
 * ("%d field%s", n, ssd_plural(n)).  A static string. */
static inline const char *ssd_plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

#endif
