/* Unit-test runner: runs every registered test, or those whose name
 * contains argv[1].  A line a test ("ok", "FAIL" or "skip NAME: reason"),
 * then "N passed, N failed, N skipped" (tests/run.sh reads that line). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t.h"

struct t_case {
	const char *name, *file;
	void (*fn)(void);
};
static struct t_case cases[1024];
static int ncases;
int t_failed_now;
static const char *skipped_now; /* the running test's SKIP reason, or NULL */

void t_register(const char *name, void (*fn)(void), const char *file)
{
	if (ncases == (int)(sizeof cases / sizeof cases[0])) {
		fprintf(stderr, "too many tests\n");
		exit(2);
	}
	cases[ncases++] = (struct t_case){name, file, fn};
}

void t_fail(const char *file, int line, const char *what)
{
	t_failed_now = 1;
	fprintf(stderr, "  %s:%d: CHECK failed: %s\n", file, line, what);
}

void t_skip(const char *why)
{
	skipped_now = why;
}

static int cmp(const void *a, const void *b)
{
	const struct t_case *x = a, *y = b;
	int c = strcmp(x->file, y->file);
	return c ? c : strcmp(x->name, y->name);
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0, skipped = 0;
	qsort(cases, (size_t)ncases, sizeof cases[0], cmp);
	for (int i = 0; i < ncases; i++) {
		if (argc > 1 && !strstr(cases[i].name, argv[1]))
			continue;
		t_failed_now = 0;
		skipped_now = NULL;
		cases[i].fn();
		if (t_failed_now) {
			failed++;
			printf("FAIL %s (%s)\n", cases[i].name, cases[i].file);
		} else if (skipped_now) {
			skipped++;
			printf("skip %s: %s\n", cases[i].name, skipped_now);
		} else {
			passed++;
			printf("ok   %s\n", cases[i].name);
		}
		fflush(stdout);
	}
	printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
	return failed ? 1 : 0;
}
