/*
 * ssdlab.h -- the public interface of the ssdlab library, the one header
 * an embedding program includes (`cc $(pkg-config --cflags --libs ssdlab)`).
 * It stands alone: it includes only the C library, so that it can be
 * installed by itself; the headers under src/ are the library's own.
 *
 * The version: SSDLAB_VERSION_MAJOR, _MINOR and _PATCH are the one
 * definition of ssdlab's version number (the Makefile reads them for the
 * shared library's soname and ssdlab.pc; reports print SSDLAB_VERSION).
 * ssdlab_version() returns the version of the library actually linked,
 * which may differ from the header a program was compiled with.
 */
#ifndef SSDLAB_H
#define SSDLAB_H

#define SSDLAB_VERSION_MAJOR 0
#define SSDLAB_VERSION_MINOR 1
#define SSDLAB_VERSION_PATCH 0

#define SSDLAB_STR_(x) #x
#define SSDLAB_STR(x) SSDLAB_STR_(x)
/* "MAJOR.MINOR.PATCH", a string literal ("0.1.0") */
#define SSDLAB_VERSION SSDLAB_STR(SSDLAB_VERSION_MAJOR) "." \
	SSDLAB_STR(SSDLAB_VERSION_MINOR) "." SSDLAB_STR(SSDLAB_VERSION_PATCH)

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version as "MAJOR.MINOR.PATCH": a static string, never
 * NULL, the same as SSDLAB_VERSION of the headers it was built with. */
const char *ssdlab_version(void);

#ifdef __cplusplus
}
#endif

#endif
