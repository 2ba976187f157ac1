/*
 * t.h -- a tiny unit-test harness.  TEST(name) { ... } defines a test and
 * registers it at load time, so a new test file needs no central list.
 * CHECK(cond) fails the test (and returns from it) when cond is false.
 * The runner (main.c) prints one line per failure and closes with
 * "N passed, N failed".
 */
#ifndef T_H
#define T_H

#include <stdio.h>
#include <string.h>

void t_register(const char *name, void (*fn)(void), const char *file);
void t_fail(const char *file, int line, const char *what);
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

#endif
