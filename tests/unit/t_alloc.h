/*
 * t_alloc.h -- allocation failure on demand, for the unit tests only.
 *
 * The unit-test binary is linked with -Wl,--wrap=malloc,--wrap=calloc,
 * --wrap=realloc,--wrap=strdup: every call the library and the tests
 * make goes through t_alloc.c, which passes it on unless the test has
 * armed a failure.  (Allocations inside the C library itself -- stdio
 * buffers, getline, realpath -- are not seen.)
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

#endif
