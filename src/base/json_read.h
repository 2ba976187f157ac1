/*
 * json_read.h -- a small JSON reader, for what ssdlab reads back of its
 * own outputs (a sweep collects each point's result.json: sweep/).
 *
 * Hand-written because it is small and what it reads is ours: RFC 8259
 * text into a tree of values in one allocation-per-value arena, numbers
 * kept as the text they were written with (so a collected figure is
 * printed exactly as the run printed it), strings unescaped (\uXXXX
 * into UTF-8, surrogate pairs joined).  Nesting deeper than
 * SSD_JREAD_DEPTH, trailing text, or anything not JSON is an error naming
 * the line and column.
 */
#ifndef SSD_JSON_READ_H
#define SSD_JSON_READ_H

#include <stddef.h>

#define SSD_JREAD_DEPTH 64

enum ssd_jtype { SSD_JNULL, SSD_JBOOL, SSD_JNUM, SSD_JSTR, SSD_JARR,
		 SSD_JOBJ };

struct ssd_jval {
	int type;              /* enum ssd_jtype */
	int b;                 /* SSD_JBOOL */
	char *s;               /* SSD_JSTR: the string; SSD_JNUM: its text */
	double num;            /* SSD_JNUM */
	size_t n;              /* SSD_JARR, SSD_JOBJ: members */
	struct ssd_jval **v;   /* their values */
	char **k;              /* SSD_JOBJ: their keys */
};

/* Parse len bytes of text.  Returns the document (free it with
 * ssd_jread_free), or NULL with a one-line message in err ("line L,
 * column C: ..."; "out of memory"). */
struct ssd_jval *ssd_jread(const char *text, size_t len, char *err,
			   size_t errlen);
/* Read and parse a file; NULL with "FILE: ..." in err. */
struct ssd_jval *ssd_jread_file(const char *path, char *err, size_t errlen);
void ssd_jread_free(struct ssd_jval *v);

/* Member `key` of object o, or NULL (o not an object, or no such key). */
const struct ssd_jval *ssd_jget(const struct ssd_jval *o, const char *key);
/* A path of members and array indices, "jobs.0.write.iops" (a member
 * whose name holds a dot cannot be reached), or NULL. */
const struct ssd_jval *ssd_jpath(const struct ssd_jval *o, const char *path);

#endif
