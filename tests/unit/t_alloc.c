/* t_alloc.c -- the wrapped allocators behind t_alloc.h.  The unit tests
 * run one at a time in one thread, so the counter is plain state. */
#include "t_alloc.h"

#include <malloc.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/types.h>

#if defined(__SANITIZE_ADDRESS__)
#define T_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define T_ASAN 1
#endif
#endif
#ifdef T_ASAN
/* the sanitizer's own count (its allocator_interface.h, not installed
 * with every compiler) */
size_t __sanitizer_get_current_allocated_bytes(void);
#endif

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int __real_munmap(void *addr, size_t len);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int __wrap_munmap(void *addr, size_t len);

static long fail_at;  /* the allocation to fail, 1-based; 0: none */
static long seen;     /* allocations since armed */
static int failed;
static unsigned long long mapped; /* anonymous mappings, bytes */
static int peak_on;
static unsigned long long peak;

static unsigned long long pages(size_t len)
{
	return (len + 4095) / 4096 * 4096ull;
}

unsigned long long t_alloc_live(void)
{
#ifdef T_ASAN
	unsigned long long heap = __sanitizer_get_current_allocated_bytes();
#else
	struct mallinfo2 mi = mallinfo2();
	unsigned long long heap = mi.uordblks + mi.hblkhd;
#endif
	return heap + mapped;
}

void t_alloc_peak_start(void)
{
	peak = t_alloc_live();
	peak_on = 1;
}

unsigned long long t_alloc_peak(void)
{
	peak_on = 0;
	return peak;
}

/* After an allocation: the peak, when noted. */
static void *noted(void *p)
{
	if (peak_on && p) {
		unsigned long long now = t_alloc_live();
		if (now > peak)
			peak = now;
	}
	return p;
}

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *p = __real_mmap(addr, len, prot, flags, fd, off);
	if (p != MAP_FAILED && (flags & MAP_ANONYMOUS)) {
		mapped += pages(len);
		noted(p);
	}
	return p;
}

int __wrap_munmap(void *addr, size_t len)
{
	int rc = __real_munmap(addr, len);
	/* the library unmaps only what it mapped anonymously (big_free) */
	if (!rc && mapped >= pages(len))
		mapped -= pages(len);
	return rc;
}

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
	return fail_this() ? NULL : noted(__real_malloc(n));
}

void *__wrap_calloc(size_t n, size_t size)
{
	return fail_this() ? NULL : noted(__real_calloc(n, size));
}

void *__wrap_realloc(void *p, size_t n)
{
	return fail_this() ? NULL : noted(__real_realloc(p, n));
}

char *__wrap_strdup(const char *s)
{
	return fail_this() ? NULL : __real_strdup(s);
}
