/*
 * fuzz.h -- what the fuzz targets (fuzz/fuzz_NAME.c) share; docs/reliability.md.
 *
 * Each target is a libFuzzer entry point, LLVMFuzzerTestOneInput; built
 * with clang's -fsanitize=fuzzer by `make fuzz`, and with any compiler
 * and fuzz/driver.c's main, which feeds it the files it is given, by
 * `make test`, which runs every committed input (fuzz/corpus/TARGET and
 * the crashes kept in fuzz/regress/TARGET) through it.
 */
#ifndef SSD_FUZZ_H
#define SSD_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a file (some parsers read only files): its path, valid
 * until the next call; NULL if it cannot be written. */
const char *fuzz_file(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (malloc'd: the caller frees
 * it), or NULL if memory runs out. */
char *fuzz_text(const uint8_t *data, size_t size);

/* A failed property: print it and abort (the fuzzer keeps the input). */
void fuzz_fail(const char *what) __attribute__((noreturn));

#endif
