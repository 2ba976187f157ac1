/*
 * t_alloc.h -- allocation failure on demand, for the unit tests only.
 *
 * The unit-test binary is linked with -Wl,--wrap=malloc,--wrap=calloc,
 * --wrap=realloc,--wrap=strdup,--wrap=mmap,--wrap=munmap: every call the
 * library and the tests make goes through t_alloc.c, which passes it on
 * unless the test has armed a failure (mmap is only counted).
 * (Allocations inside the C library itself -- stdio buffers, getline,
 * realpath -- are not seen.)
 */
#ifndef T_ALLOC_H
#define T_ALLOC_H

/* From now on, make the n-th allocation fail (n >= 1) and only that one;
 * 0 disarms.  Resets the count of allocations seen. */
void t_alloc_fail_at(long n);

/* Allocations seen since the last t_alloc_fail_at, the failed one
 * included. */
long t_alloc_count(void);

/* 1 if the armed failure has happened. */
int t_alloc_failed(void);

/* Bytes allocated and not yet freed, now: the heap's (malloc's own
 * count, or AddressSanitizer's in a sanitized build) and the anonymous
 * mappings the library made (mmap less munmap).  Chunk headers and
 * page rounding included, as the process pays them. */
unsigned long long t_alloc_live(void);

/* From now on, note the most t_alloc_live has been after any allocation
 * (a little slower); t_alloc_peak returns it and stops noting. */
void t_alloc_peak_start(void);
unsigned long long t_alloc_peak(void);

#endif
