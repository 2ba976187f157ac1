/*
 * vrec.h -- the host's record of what it wrote, a 32-bit tag per logical
 * page (verify.h says how verification uses it): the page's state in
 * bits 31-30 (SSD_VREC_*) and its write count in bits 29-0.  The
 * encoding alone, for whoever keeps the record up to date: the runner,
 * the power-loss scenario, an SSD whose power is cut (ssd.c).
 */
#ifndef SSD_VREC_H
#define SSD_VREC_H

#include <stdint.h>

enum {
	SSD_VREC_DATA = 0,    /* holds the write counted in bits 29-0 */
	SSD_VREC_ZERO = 1,    /* trimmed last: reads as zeros */
	SSD_VREC_NEVER = 2,   /* never written: zeros, which fio's check
	                         refuses (no header) */
	SSD_VREC_UNKNOWN = 3  /* a write or trim of it failed: not checked */
};
#define SSD_VREC_COUNT 0x3fffffffu

static inline uint32_t ssd_vrec_state(uint32_t tag)
{
	return tag >> 30;
}

/* The host is about to write pages [lpn, lpn + n): each gets its next
 * write count (the FTL copies the tag into the slot it programs). */
static inline void ssd_vrec_write(uint32_t *rec, uint32_t lpn, uint32_t n)
{
	for (uint32_t i = lpn; i < lpn + n; i++)
		rec[i] = (rec[i] + 1) & SSD_VREC_COUNT;
}

/* The host trims pages [lpn, lpn + n), the pages wholly inside its
 * range (ssd_verify_pages): they must read as zeros.  A page the TRIM
 * covers in part keeps its record: the drive keeps its data. */
static inline void ssd_vrec_trim(uint32_t *rec, uint32_t lpn, uint32_t n)
{
	for (uint32_t i = lpn; i < lpn + n; i++)
		rec[i] = (rec[i] & SSD_VREC_COUNT) | (uint32_t)SSD_VREC_ZERO << 30;
}

/* A write or trim of [lpn, lpn + n) failed: their content is undefined. */
static inline void ssd_vrec_lost(uint32_t *rec, uint32_t lpn, uint32_t n)
{
	for (uint32_t i = lpn; i < lpn + n; i++)
		rec[i] = (rec[i] & SSD_VREC_COUNT) | (uint32_t)SSD_VREC_UNKNOWN << 30;
}

#endif
