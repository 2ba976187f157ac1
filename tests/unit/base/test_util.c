/* Unit tests for util.c's growing arrays: doubling from the first
 * capacity, contents kept, and a failure or an overflow that leaves the
 * array as it was. */
#include <stdint.h>
#include <stdlib.h>

#include "base/util.h"
#include "t.h"
#include "t_alloc.h"

TEST(util_grow_doubles_and_keeps_the_contents)
{
	uint32_t *a = NULL, cap = 0;
	for (uint32_t i = 0; i < 1000; i++) {
		if (i == cap) {
			uint32_t was = cap;
			uint32_t *b = ssd_grow(a, &cap, sizeof *a, 8);
			CHECK(b);
			CHECK(cap == (was ? 2 * was : 8));
			a = b;
		}
		a[i] = i * 3;
	}
	CHECK(cap == 1024);
	for (uint32_t i = 0; i < 1000; i++)
		CHECK(a[i] == i * 3);
	/* out of memory: NULL, the array and its capacity as they were */
	t_alloc_fail_at(1);
	CHECK(!ssd_grow(a, &cap, sizeof *a, 8));
	t_alloc_fail_at(0);
	CHECK(cap == 1024 && a[999] == 2997);
	free(a);
}

TEST(util_grow_refuses_a_size_that_overflows)
{
	uint32_t cap = UINT32_MAX / 2 + 1;
	CHECK(!ssd_grow(NULL, &cap, 1, 8));
	CHECK(cap == UINT32_MAX / 2 + 1);
	cap = 1u << 30;
	CHECK(!ssd_grow(NULL, &cap, SIZE_MAX / (1u << 30), 8));
	CHECK(cap == 1u << 30);
	cap = 0;
	CHECK(!ssd_grow(NULL, &cap, 16, 0));
	CHECK(cap == 0);
}
