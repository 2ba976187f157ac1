/* t_alloc.c -- the wrapped allocators behind t_alloc.h.  The unit tests
 * run one at a time in one thread, so the counter is plain state. */
#include "t_alloc.h"

#include <stddef.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);

static long fail_at;  /* the allocation to fail, 1-based; 0: none */
static long seen;     /* allocations since armed */
static int failed;

void t_alloc_fail_at(long n)
{
	fail_at = n;
	seen = 0;
	failed = 0;
}

long t_alloc_count(void)
{
	return seen;
}

int t_alloc_failed(void)
{
	return failed;
}

/* Count one allocation; 1 if it is the one to fail. */
static int fail_this(void)
{
	seen++;
	if (!fail_at || seen != fail_at)
		return 0;
	failed = 1;
	return 1;
}

void *__wrap_malloc(size_t n)
{
	return fail_this() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return fail_this() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	return fail_this() ? NULL : __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
	return fail_this() ? NULL : __real_strdup(s);
}
