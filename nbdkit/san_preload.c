/*
 * san_preload.c -- preloaded with the sanitizer runtime into nbdkit when
 * the plugin is a sanitized build (build/san/nbdkit-ssdlab-san-preload.so;
 * `ssdlab serve` and tests/cli/serve.inc set LD_PRELOAD to both).
 *
 * nbdkit itself is not instrumented, so the AddressSanitizer runtime it
 * is given with LD_PRELOAD starts on the process's first malloc rather
 * than before every library's constructor.  That first malloc is made by
 * libp11-kit's constructor (pulled in by GnuTLS) inside glibc's
 * newlocale(), which holds the write lock on the locale data
 * (__libc_setlocale_lock).  Among its start-up steps the runtime looks
 * up an optional symbol, swift_demangle, and clears the lookup's error
 * with dlerror(); dlerror translates its message through gettext, which
 * takes the same lock for reading: refused (EDEADLK, unchecked), and its
 * unlock releases newlocale's write lock instead.  newlocale's own
 * unlock then takes a reader away that was never there, and the lock's
 * count of readers is -1 from then on.  The first translated message
 * later -- getopt's, gai_strerror's, strerror's, all of nbdkit's start-up
 * errors -- leaves it where no writer can ever take it, and exit() hangs
 * for good in libp11-kit's destructor (freelocale waits for the write
 * lock).  That was "a sanitized ssdlab serve hangs when nbdkit fails".
 *
 * Defining the symbol here makes the lookup succeed: no error, no
 * gettext, the lock stays whole.  The runtime calls it to demangle
 * Swift names when it prints a report; NULL says "not a Swift name" and
 * it demangles as C++ as before.  Nothing else in the process uses it.
 */
#include <stddef.h>
#include <stdint.h>

char *swift_demangle(const char *mangled, size_t len, char *out,
		     size_t *out_len, uint32_t flags);

char *swift_demangle(const char *mangled, size_t len, char *out,
		     size_t *out_len, uint32_t flags)
{
	(void)mangled;
	(void)len;
	(void)out;
	(void)out_len;
	(void)flags;
	return NULL;
}
