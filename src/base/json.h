/*
 * json.h -- the one JSON writer: every JSON that ssdlab prints (the fio
 * report and json+, result.json of a scenario, `life --output-format=json`,
 * a drive as JSON) goes through it, so strings are escaped and numbers
 * printed the same way everywhere.
 *
 * Layout.  fio's: "key" : value, one member per line, two spaces per
 * level, a closing bracket on its own line at its container's column:
 *
 *     {
 *       "name" : "tiny",
 *       "jobs" : [
 *         {
 *           ...
 *         }
 *       ]
 *     }
 *
 * A container opened flat is written on one line instead, members
 * separated by ", " ({"from" : 0, "to" : 3}, ["a", "b"]); everything
 * inside a flat container is flat.  An empty container is "{" "\n" "}" at
 * its column, or with SSD_JSON_FIO "{" "\n\n" "}" (fio's json.c writes
 * the newline after an opening brace before it knows whether a member
 * follows); an empty flat one is "{}" / "[]".
 *
 * Strings (RFC 8259): '"' and '\' are escaped with a backslash, control
 * characters (below 0x20, and DEL) as \u00XX; valid UTF-8 is written as
 * it is, a byte that is not part of a valid UTF-8 sequence as \ufffd, so
 * the output is always valid UTF-8 and valid JSON.
 *
 * Numbers are printed with '.' as the decimal point whatever the
 * process's locale (a program that embeds the library may have called
 * setlocale with a locale that writes "1,5"); a double that is NaN or
 * infinite is written as null.
 *
 * The writer keeps no state outside struct ssd_json and allocates
 * nothing; write errors show in the FILE (ferror) as with stdio.
 */
#ifndef SSD_JSON_H
#define SSD_JSON_H

#include <stdint.h>
#include <stdio.h>

/* Deepest nesting the writer tracks; deeper containers are written at
 * the deepest level's indentation (ssdlab's outputs nest at most 8). */
#define SSD_JSON_DEPTH 32

/* Flags of ssd_json_init(). */
#define SSD_JSON_FIO 1u /* empty containers as fio writes them */

struct ssd_json {
	FILE *out;
	int depth;          /* containers open */
	int column;         /* column of the outermost container's brackets */
	unsigned flags;     /* SSD_JSON_* */
	int after_key;      /* a key was written, its value is next */
	int flat;           /* depth from which containers are one-line
	                       (SSD_JSON_DEPTH + 1: none) */
	unsigned char first[SSD_JSON_DEPTH + 1]; /* no member yet at depth */
	char close[SSD_JSON_DEPTH + 1];          /* '}' or ']' at depth */
};

/* Start a writer on `out`.  `column`: the column at which the value
 * starts and its closing bracket goes (0 for a document of its own, or
 * the indentation of the key it is the value of when it is written into
 * another writer's document).  A negative column writes the whole value
 * on one line (flat). */
void ssd_json_init(struct ssd_json *w, FILE *out, int column,
		   unsigned flags);

/* Open an object or array as the next value (after a key, as an array
 * element, or as the document); the _flat variants put it, and all it
 * holds, on one line.  ssd_json_end() closes the innermost one. */
void ssd_json_object(struct ssd_json *w);
void ssd_json_array(struct ssd_json *w);
void ssd_json_object_flat(struct ssd_json *w);
void ssd_json_array_flat(struct ssd_json *w);
void ssd_json_end(struct ssd_json *w);

/* The key of the next member of the current object. */
void ssd_json_key(struct ssd_json *w, const char *key);

/* Values: after a key, as an array element, or as the document. */
void ssd_json_string(struct ssd_json *w, const char *s); /* NULL: "" */
void ssd_json_u64(struct ssd_json *w, uint64_t v);
void ssd_json_i64(struct ssd_json *w, int64_t v);
void ssd_json_bool(struct ssd_json *w, int v);
void ssd_json_null(struct ssd_json *w);
/* printf("%.*f", prec, v): fio's floats (prec 6). */
void ssd_json_fixed(struct ssd_json *w, double v, int prec);
/* printf("%.*g", prec, v); prec 0: the shortest %g that reads back as
 * the same double ("0.07", not "0.070000000000000007"). */
void ssd_json_general(struct ssd_json *w, double v, int prec);
/* Text the caller formatted as a JSON number (e.g. exact seconds
 * "12.000000001"), written as it is. */
void ssd_json_raw(struct ssd_json *w, const char *number);

/* Members: key and value in one call. */
void ssd_json_kstring(struct ssd_json *w, const char *key, const char *s);
void ssd_json_ku64(struct ssd_json *w, const char *key, uint64_t v);
void ssd_json_ki64(struct ssd_json *w, const char *key, int64_t v);
void ssd_json_kbool(struct ssd_json *w, const char *key, int v);
void ssd_json_kfixed(struct ssd_json *w, const char *key, double v, int prec);
void ssd_json_kgeneral(struct ssd_json *w, const char *key, double v,
		       int prec);
void ssd_json_kobject(struct ssd_json *w, const char *key);
void ssd_json_karray(struct ssd_json *w, const char *key);

/* A JSON string literal s (quoted, escaped as above) on out, without a
 * writer.  NULL writes "". */
void ssd_json_str(FILE *out, const char *s);

/* snprintf() whose decimal point is '.' whatever the locale, for the
 * numbers of text outputs that must agree with the JSON: the first
 * occurrence of the locale's decimal point in the result becomes '.', so
 * fmt holds one floating-point conversion and no such text before it.
 * Returns buf. */
const char *ssd_json_format(char *buf, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
