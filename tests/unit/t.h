/*
 * t.h -- a tiny unit-test harness.  TEST(name) { ... } defines a test and
 * registers it at load time, so a new test file needs no central list.
 * CHECK(cond) fails the test (and returns from it) when cond is false;
 * SKIP(why) returns from a test that cannot run on this machine.  The
 * runner (main.c) prints a line per failure and per skip (with its reason)
 * and closes with "N passed, N failed, N skipped", which tests/run.sh
 * reads.
 */
#ifndef T_H
#define T_H

#include <stdio.h>
#include <string.h>

void t_register(const char *name, void (*fn)(void), const char *file);
void t_fail(const char *file, int line, const char *what);
/* Marks the running test skipped; why is a string literal (kept). */
void t_skip(const char *why);
extern int t_failed_now;

#define TEST(name)                                                         \
	static void name(void);                                            \
	__attribute__((constructor)) static void reg_##name(void)          \
	{                                                                  \
		t_register(#name, name, __FILE__);                         \
	}                                                                  \
	static void name(void)

#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond)) {                                             \
			t_fail(__FILE__, __LINE__, #cond);                 \
			return;                                            \
		}                                                          \
	} while (0)

/* CHECK with a printf-style explanation on failure. */
#define CHECKF(cond, ...)                                                  \
	do {                                                               \
		if (!(cond)) {                                             \
			t_fail(__FILE__, __LINE__, #cond);                 \
			fprintf(stderr, "    ");                           \
			fprintf(stderr, __VA_ARGS__);                      \
			fprintf(stderr, "\n");                             \
			return;                                            \
		}                                                          \
	} while (0)

/* The test cannot run here (a device, a locale or a tool this machine
 * lacks): it ends, counted as skipped, not passed, with why as its reason
 * ("no /dev/full here").  A CHECK that failed before it still fails it. */
#define SKIP(why)                                                          \
	do {                                                               \
		t_skip(why);                                               \
		return;                                                    \
	} while (0)

#endif
