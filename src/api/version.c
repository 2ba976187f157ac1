/*
 * version.c -- ssdlab_version(): the version the library was built as, for
 * programs that check at run time which library they were linked with.
 */
#include "ssdlab.h"

const char *ssdlab_version(void)
{
	return SSDLAB_VERSION;
}
