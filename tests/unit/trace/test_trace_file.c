/* Unit tests for the bytes of a trace file and its lines
 * (src/trace/trace_file.c): a plain file, read in blocks of TRACE_READ
 * bytes, hands out the very pieces zlib's gzgets hands out of its gzip
 * copy -- across the blocks' boundaries, at a last line without its
 * newline, at carriage returns and NUL bytes, at lines too long -- and
 * the iolog's one-pass reading of a request takes only what the word by
 * word reading would take the same way. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "base/util.h"
#include "trace/trace.h"
#include "trace/trace_int.h"
#include "t.h"

static char path[64];
static char err[512];

static const char *write_bytes(const void *b, size_t n)
{
	strcpy(path, "/tmp/ssdlab_tfile_XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	ssize_t w = write(fd, b, n);
	close(fd);
	return w == (ssize_t)n ? path : NULL;
}

static const char *write_gz(const void *b, size_t n)
{
	strcpy(path, "/tmp/ssdlab_tfile_XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	close(fd);
	gzFile g = gzopen(path, "wb");
	if (!g)
		return NULL;
	int w = n ? gzwrite(g, b, (unsigned)n) : 0;
	return gzclose(g) == Z_OK && w == (int)n ? path : NULL;
}

/* Every piece of the file p (opened as MSR, which reads no header) as
 * "FULL|TEXT\n" in a new string (*out, freed by the caller), TEXT cut at
 * its '\r' as the readers cut it; then the file is removed.  The last
 * code of trace_file_gets (0 at the end), -100 if p did not open. */
static int pieces(const char *p, char **out, int *n)
{
	struct ssd_trace *t;
	*out = NULL;
	*n = 0;
	if (!p || ssd_trace_open(p, SSD_TRACE_MSR, &t, err, sizeof err))
		return -100;
	size_t len;
	FILE *f = open_memstream(out, &len);
	char *s;
	int full, rc;
	while ((rc = trace_file_gets(t, &s, &full)) == 1) {
		trace_cut_cr(s);
		fprintf(f, "%d|%s\n", full, s);
		++*n;
	}
	fclose(f);
	ssd_trace_close(t);
	unlink(p);
	return rc;
}

/* The bytes read plain and read from their gzip copy give the same
 * pieces: 1, their count in *n. */
static int alike(const char *b, size_t len, int *n)
{
	char *plain, *gz;
	int np, ng;
	int rp = pieces(write_bytes(b, len), &plain, &np);
	int rg = pieces(write_gz(b, len), &gz, &ng);
	int same = rp == 0 && rg == 0 && np == ng && plain && gz &&
		   !strcmp(plain, gz);
	if (!same)
		fprintf(stderr, "    plain %d (%d pieces), gzip %d (%d pieces)\n", rp,
			np, rg, ng);
	free(plain);
	free(gz);
	*n = np;
	return same;
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* Lines of every length up to past TRACE_LINE, of letters, digits,
 * blanks, carriage returns and NUL bytes, over several blocks: the plain
 * reader's pieces are gzgets' own (so they are what the reader handed
 * on before it read plain files itself). */
TEST(trace_file_pieces_are_gzgets_pieces)
{
	static const char bytes[] = "a1 \t#x9\r";
	size_t want = 8 * (size_t)TRACE_READ, len = 0;
	char *b = malloc(want + 100000);
	CHECK(b);
	while (len < want) {
		uint64_t r = rnd();
		size_t n = r % 16 == 0 ? TRACE_LINE - 4 + (r >> 8) % 8 /* 4092..4099 */
			 : r % 16 == 1 ? (r >> 8) % 10000 : (r >> 8) % 120;
		for (size_t i = 0; i < n; i++) {
			uint64_t c = rnd() % 200;
			b[len++] = c == 0 ? '\0' : bytes[c % (sizeof bytes - 1)];
		}
		b[len++] = '\n';
	}
	int n;
	CHECKF(alike(b, len, &n), "%zu bytes", len);
	CHECK(n > (int)(want / 1000));
	/* and without the last newline */
	CHECKF(alike(b, len - 1, &n), "%zu bytes", len - 1);
	free(b);
}

/* A line's newline at every offset around the blocks' ends: each line
 * comes out whole, as written. */
TEST(trace_file_lines_across_block_boundaries)
{
	size_t cap = 3 * TRACE_READ + 2 * TRACE_LINE, len = 0;
	char *b = malloc(cap);
	CHECK(b);
	int lines = 0;
	while (len < 3 * TRACE_READ) {
		/* mostly long lines, the boundaries falling anywhere in them;
		 * short ones between move them by a byte or a few */
		size_t n = lines % 3 ? 1 + rnd() % 4000 : 1 + (size_t)lines % 7;
		int k = snprintf(b + len, cap - len, "%d:", lines);
		for (size_t i = (size_t)k; i < n; i++)
			b[len + i] = (char)('a' + (lines + (int)i) % 26);
		len += n > (size_t)k ? n : (size_t)k;
		b[len++] = '\n';
		lines++;
	}
	CHECK(write_bytes(b, len));
	struct ssd_trace *t;
	CHECK(ssd_trace_open(path, SSD_TRACE_MSR, &t, err, sizeof err) == 0);
	char *s;
	int full, got = 0;
	const char *want = b;
	while (trace_file_gets(t, &s, &full) == 1) {
		const char *nl = memchr(want, '\n', (size_t)(b + len - want));
		CHECK(nl && !full);
		CHECKF(strlen(s) == (size_t)(nl - want) && !memcmp(s, want, (size_t)(nl - want)),
		       "line %d", got);
		want = nl + 1;
		got++;
	}
	ssd_trace_close(t);
	unlink(path);
	CHECK(got == lines && want == b + len);
	free(b);
}

/* A record per line through a format's reader, its numbers padded so
 * that lines end all around the blocks' ends. */
TEST(trace_file_records_across_block_boundaries)
{
	size_t cap = 2 * TRACE_READ + 2 * TRACE_LINE, len = 0;
	char *b = malloc(cap);
	CHECK(b);
	int lines = 0;
	while (len < 2 * TRACE_READ + TRACE_LINE) {
		int pad = (int)(rnd() % 3000);
		len += (size_t)snprintf(b + len, cap - len, "%d 0 %d%*s 8 0\n",
					lines, lines * 8, pad, "");
		lines++;
	}
	struct ssd_trace *t;
	for (int gz = 0; gz < 2; gz++) {
		CHECK(gz ? write_gz(b, len) : write_bytes(b, len));
		CHECK(ssd_trace_open(path, SSD_TRACE_MQSIM, &t, err, sizeof err) == 0);
		struct ssd_trace_rec r;
		int i = 0, rc;
		while ((rc = ssd_trace_next(t, &r)) == 1) {
			CHECKF(r.ts == i && r.offset == (uint64_t)i * 8 * 512 &&
			       r.len == 8 * 512 && r.op == SSD_TOP_WRITE,
			       "record %d: ts %lld offset %llu", i, (long long)r.ts,
			       (unsigned long long)r.offset);
			i++;
		}
		CHECKF(rc == 0 && i == lines, "%d of %d records: %s", i, lines,
		       ssd_trace_error(t));
		ssd_trace_close(t);
		unlink(path);
	}
	free(b);
}

/* The reader of records over both kinds of file: 1, or the error's
 * message in msg. */
static char msg[600];
static struct ssd_trace_rec rec[8];
static int nrec;

static int read_recs(const char *p, int fmt)
{
	struct ssd_trace *t;
	nrec = 0;
	msg[0] = 0;
	if (!p)
		return -100;
	int rc = ssd_trace_open(p, fmt, &t, err, sizeof err);
	if (rc) {
		snprintf(msg, sizeof msg, "%s", err);
		unlink(p);
		return rc;
	}
	while ((rc = ssd_trace_next(t, &rec[nrec < 7 ? nrec : 7])) == 1)
		nrec++;
	if (rc < 0)
		snprintf(msg, sizeof msg, "%s", ssd_trace_error(t));
	ssd_trace_close(t);
	unlink(p);
	return rc;
}

/* The same records or the same error, read plain and from gzip. */
#define BOTH(TEXT, LEN, FMT, RC, NREC, MSG)                                    \
	for (int gz_ = 0; gz_ < 2; gz_++) {                                    \
		int rc_ = read_recs(gz_ ? write_gz(TEXT, LEN)                  \
				    : write_bytes(TEXT, LEN), FMT);            \
		char want_[600];                                               \
		snprintf(want_, sizeof want_, "%s%s", *(MSG) ? path : "", MSG); \
		CHECKF(rc_ == (RC) && nrec == (NREC) && !strcmp(msg, want_),   \
		       "%s: rc %d, %d records, '%s'", gz_ ? "gzip" : "plain",  \
		       rc_, nrec, msg);                                        \
	}

/* The last line needs no newline; CRLF lines lose their CR, and a CR
 * ends a line wherever it stands. */
TEST(trace_file_last_line_and_crlf)
{
	static const char a[] = "0 0 0 8 0\r\n5 0 8 8 1\r\n9 0 16 8 0";
	BOTH(a, sizeof a - 1, SSD_TRACE_MQSIM, 0, 3, "");
	CHECK(rec[2].ts == 9 && rec[2].offset == 16 * 512 && rec[1].op == SSD_TOP_READ);
	static const char b[] = "0 0 0 8 0\r\n5 0 8 8 1\r";
	BOTH(b, sizeof b - 1, SSD_TRACE_MQSIM, 0, 2, "");
	/* "5 0 8 8 1\rjunk": the line is what comes before the CR */
	static const char c[] = "0 0 0 8 0\n5 0 8 8 1\rjunk\n";
	BOTH(c, sizeof c - 1, SSD_TRACE_MQSIM, 0, 2, "");
	static const char d[] = "fio version 3 iolog\r\n0 f add\r\n7 f write 4096 512\r\n"
				"8 f write 0 51\r2";
	BOTH(d, sizeof d - 1, SSD_TRACE_AUTO, 0, 3, "");
	CHECK(rec[2].len == 51 && rec[1].ts == 7000);
}

/* A line of up to TRACE_LINE - 2 bytes is read, a longer one refused on
 * its line, with or without a newline at the end of the file (as gzgets
 * hands a longer line's first TRACE_LINE - 1 bytes); a NUL byte among
 * them ends the line there, and the bytes after TRACE_LINE - 1 are then
 * the next line, as they always were. */
TEST(trace_file_long_lines)
{
	static char b[3 * TRACE_LINE];
	const char *rec1 = "0 0 0 8 0";
	for (int end = 0; end < 2; end++)
		for (int n = TRACE_LINE - 3; n <= TRACE_LINE; n++) {
			/* line 2 is n bytes: a record and blanks */
			int len = snprintf(b, sizeof b, "%s\n1 0 8 8 0", rec1);
			memset(b + len, ' ', (size_t)(n - 9));
			len += n - 9;
			if (!end)
				b[len++] = '\n';
			if (n <= TRACE_LINE - 2) {
				BOTH(b, (size_t)len, SSD_TRACE_MQSIM, 0, 2, "");
			} else {
				BOTH(b, (size_t)len, SSD_TRACE_MQSIM, SSD_EPARSE, 1,
				     ":2: a line longer than 4094 bytes");
			}
		}
	/* a NUL among the first TRACE_LINE - 1 bytes */
	int len = snprintf(b, sizeof b, "%s\n1 0 8 8 0", rec1);
	b[len++] = '\0';
	memset(b + len, 'x', 2 * TRACE_LINE + 10);
	len += 2 * TRACE_LINE + 10;
	b[len++] = '\n';
	BOTH(b, (size_t)len, SSD_TRACE_MQSIM, SSD_EPARSE, 2,
	     ":3: a line longer than 4094 bytes");
	/* ... and a short rest: read as a line of its own */
	len = snprintf(b, sizeof b, "%s\n1 0 8 8 0", rec1);
	b[len++] = '\0';
	memset(b + len, ' ', TRACE_LINE - 11);
	len += TRACE_LINE - 11;
	len += snprintf(b + len, sizeof b - (size_t)len, "2 0 16 8 1\n");
	BOTH(b, (size_t)len, SSD_TRACE_MQSIM, 0, 3, "");
	CHECK(rec[2].op == SSD_TOP_READ && rec[2].offset == 16 * 512);
	/* the header of an iolog too */
	len = snprintf(b, sizeof b, "fio version 3 iolog");
	memset(b + len, ' ', TRACE_LINE);
	len += TRACE_LINE;
	len += snprintf(b + len, sizeof b - (size_t)len, "\n0 f add\n");
	BOTH(b, (size_t)len, SSD_TRACE_AUTO, 0, 1, "");
}

/* An empty file: no line, no record; an iolog or blktrace by its first
 * bytes it is not, and an iolog needs its header. */
TEST(trace_file_empty_and_short)
{
	int n;
	CHECK(alike("", 0, &n) && n == 0);
	BOTH("", 0, SSD_TRACE_MSR, 0, 0, "");
	BOTH("", 0, SSD_TRACE_AUTO, SSD_EPARSE, 0,
	     ": neither a fio iolog (its first line \"fio version 2 iolog\" or "
	     "\"fio version 3 iolog\") nor a blktrace file; name its format "
	     "(auto, iolog, blktrace, blkparse, msr, spc, disksim, mqsim, "
	     "alibaba, tencent)");
	BOTH("fio", 3, SSD_TRACE_AUTO, SSD_EPARSE, 0,
	     ": neither a fio iolog (its first line \"fio version 2 iolog\" or "
	     "\"fio version 3 iolog\") nor a blktrace file; name its format "
	     "(auto, iolog, blktrace, blkparse, msr, spc, disksim, mqsim, "
	     "alibaba, tencent)");
	BOTH("", 0, SSD_TRACE_IOLOG, SSD_EPARSE, 0,
	     ": empty (an iolog starts with \"fio version 2 iolog\" or \"fio "
	     "version 3 iolog\")");
	BOTH("\n\n  \n#\n", 7, SSD_TRACE_MSR, 0, 0, "");
}

/* A file that starts with gzip's magic is read through zlib whatever its
 * name; one that does not is read plain, whatever its name. */
TEST(trace_file_gzip_by_magic)
{
	static const char text[] = "fio version 2 iolog\nf add\nf write 0 4096\n";
	CHECK(write_gz(text, sizeof text - 1));
	char named[80];
	snprintf(named, sizeof named, "%s.log", path);
	CHECK(!rename(path, named));
	struct ssd_trace *t;
	CHECK(ssd_trace_open(named, SSD_TRACE_AUTO, &t, err, sizeof err) == 0);
	CHECK(t->gz && t->fd < 0);
	struct ssd_trace_rec r;
	CHECK(ssd_trace_next(t, &r) == 1 && ssd_trace_next(t, &r) == 1 &&
	      r.op == SSD_TOP_WRITE && r.len == 4096);
	ssd_trace_close(t);
	unlink(named);
	CHECK(write_bytes(text, sizeof text - 1));
	snprintf(named, sizeof named, "%s.gz", path);
	CHECK(!rename(path, named));
	CHECK(ssd_trace_open(named, SSD_TRACE_AUTO, &t, err, sizeof err) == 0);
	CHECK(!t->gz && t->fd >= 0);
	CHECK(ssd_trace_next(t, &r) == 1 && ssd_trace_next(t, &r) == 1 &&
	      r.op == SSD_TOP_WRITE && r.len == 4096);
	/* and again from the start */
	CHECK(ssd_trace_rewind(t) == 0);
	CHECK(ssd_trace_next(t, &r) == 1 && ssd_trace_next(t, &r) == 1 &&
	      r.op == SSD_TOP_WRITE && ssd_trace_line(t) == 3);
	CHECK(ssd_trace_next(t, &r) == 0);
	ssd_trace_close(t);
	unlink(named);
}

/* An iolog's requests are read in one pass when they name the file of
 * the line before; whatever that pass does not take -- another file,
 * one whose name starts the same, blanks of any kind, numbers of 19
 * digits and more, a CR, a NUL -- is read word by word, to the same
 * records and the same errors. */
TEST(trace_iolog_requests_in_one_pass_and_word_by_word)
{
	static const char a[] =
		"fio version 3 iolog\n"
		"0 f add\n"
		"0 ff add\n"
		"1 f write 4096 512\n"
		"2 ff write 8192 512\n"           /* another file, the name longer */
		"3\tf \t read  0000000000000000000000007   4096 \t\n"
		"4 f trim 9999999999999999999 1\n"  /* 19 digits */
		"5 f trim 10000000000000000000 1\n" /* 20 */
		"6 f datasync 0 0\r\n"
		"7 f sync 0 0";
	BOTH(a, sizeof a - 1, SSD_TRACE_AUTO, 0, 9, "");
	/* (rec[] keeps the first 7 and the last) */
	CHECK(rec[2].op == SSD_TOP_WRITE && rec[2].offset == 4096 && rec[2].file == 0);
	CHECK(rec[3].op == SSD_TOP_WRITE && rec[3].offset == 8192 && rec[3].file == 1);
	CHECK(rec[4].op == SSD_TOP_READ && rec[4].offset == 7 && rec[4].len == 4096 &&
	      rec[4].file == 0 && rec[4].ts == 3000);
	CHECK(rec[5].offset == 9999999999999999999ull && rec[5].len == 1);
	CHECK(rec[6].offset == 10000000000000000000ull);
	CHECK(rec[7].op == SSD_TOP_SYNC && rec[7].ts == 7000);
	static const struct {
		const char *line, *what;
	} bad[] = {
		{"9 f writes 0 1", "unknown action 'writes' (expected read, write, "
		 "trim, sync, datasync)"},
		{"9 f writ 0 1", "unknown action 'writ' (expected read, write, "
		 "trim, sync, datasync)"},
		{"9 f write 0 1 2", "6 fields (expected \"TIME FILE ACTION\" or "
		 "\"TIME FILE ACTION OFFSET LENGTH\")"},
		{"9 f write 0", "4 fields (expected \"TIME FILE ACTION\" or \"TIME "
		 "FILE ACTION OFFSET LENGTH\")"},
		{"9 f write 18446744073709551616 1", "offset '18446744073709551616' "
		 "is not a number of bytes"},
		{"9 f write 0 4294967296", "length '4294967296' is not a number of "
		 "bytes below 4 GiB"},
		{"9 f write 0 0x10", "length '0x10' is not a number of bytes below "
		 "4 GiB"},
		{"9223372036854776 f write 0 1", "time 9223372036854776 us is out of "
		 "range"},
		{"9 fff write 0 1", "file 'fff' was not added before (expected a line "
		 "\"TIME fff add\" first)"},
		{"9 f write 0\r 4096", "4 fields (expected \"TIME FILE ACTION\" or "
		 "\"TIME FILE ACTION OFFSET LENGTH\")"},
		{"9 f write 0 0", "a write of 0 bytes (expected a length above 0; "
		 "fio's replay ends at such a line, ssdlab trace convert leaves it "
		 "out)"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char text[200], what[300];
		int len = snprintf(text, sizeof text, "fio version 3 iolog\n0 f add\n"
				   "1 f write 0 1\n%s\n", bad[i].line);
		snprintf(what, sizeof what, ":4: %s", bad[i].what);
		BOTH(text, (size_t)len, SSD_TRACE_AUTO, SSD_EPARSE, 2, what);
	}
	/* "0 f write 0 4096", then a NUL: the line ends there */
	static const char z[] = "fio version 2 iolog\nf add\nf write 0 4096\0 junk\n";
	BOTH(z, sizeof z - 1, SSD_TRACE_AUTO, 0, 2, "");
	CHECK(rec[1].len == 4096 && rec[1].ts == -1);
}

/* The last file's name compared 8 bytes at a time: names of every length
 * around the words' ends and past the 64 bytes kept, against names that
 * differ in their last byte, are one byte longer or one shorter. */
TEST(trace_iolog_file_names_compared_by_words)
{
	static const int lens[] = {1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 65, 100};
	for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
		int n = lens[i];
		char a[128], b[128], c[160], d[128];
		for (int k = 0; k < n; k++)
			a[k] = (char)('a' + k % 26);
		a[n] = 0;
		snprintf(b, sizeof b, "%s", a);
		b[n - 1] = '_';            /* the last byte differs */
		snprintf(c, sizeof c, "%sx", a); /* one longer */
		snprintf(d, sizeof d, "%.*s", n - 1, a); /* one shorter */
		static char text[4096];
		int len = snprintf(text, sizeof text, "fio version 2 iolog\n%s add\n"
				   "%s add\n%s add\n%s add\n", a, b, c, *d ? d : "z");
		/* each name twice in a row, then the others after it */
		const char *seq[] = {a, a, b, b, a, c, c, a, *d ? d : "z", a, b, c};
		for (size_t k = 0; k < sizeof seq / sizeof seq[0]; k++)
			len += snprintf(text + len, sizeof text - (size_t)len,
					"%s write %zu 512\n", seq[k], k * 512);
		struct ssd_trace *t;
		CHECK(write_bytes(text, (size_t)len));
		CHECK(ssd_trace_open(path, SSD_TRACE_AUTO, &t, err, sizeof err) == 0);
		struct ssd_trace_rec r;
		for (int k = 0; k < 4; k++)
			CHECK(ssd_trace_next(t, &r) == 1 && r.op == SSD_TOP_FILE);
		for (size_t k = 0; k < sizeof seq / sizeof seq[0]; k++) {
			CHECK(ssd_trace_next(t, &r) == 1 && r.op == SSD_TOP_WRITE &&
			      r.offset == k * 512);
			CHECKF(!strcmp(ssd_trace_file_name(t, r.file), seq[k]),
			       "length %d, line %zu: file %u", n, k + 6, r.file);
		}
		CHECK(ssd_trace_next(t, &r) == 0);
		ssd_trace_close(t);
		unlink(path);
	}
}

/* What is no regular file is read through zlib as before: a pipe in a
 * named format streams (but cannot be sniffed, which reads its first
 * bytes again), a directory fails on its first line with the system's
 * word. */
TEST(trace_file_pipes_and_directories_through_zlib)
{
	static const char text[] = "0,303567,3584,w,10.5\n1,55590,3072,r,11.5\n";
	for (int fmt = 0; fmt < 2; fmt++) {
		int fds[2];
		CHECK(pipe(fds) == 0);
		CHECK(write(fds[1], text, sizeof text - 1) == (ssize_t)sizeof text - 1);
		close(fds[1]);
		char p[64];
		snprintf(p, sizeof p, "/proc/self/fd/%d", fds[0]);
		struct ssd_trace *t;
		int rc = ssd_trace_open(p, fmt ? SSD_TRACE_SPC : SSD_TRACE_AUTO, &t,
					err, sizeof err);
		if (!fmt) {
			char want[128];
			snprintf(want, sizeof want, "%s: cannot read it", p);
			CHECKF(rc == SSD_EIO && !strcmp(err, want), "%d: %s", rc, err);
		} else {
			CHECK(rc == 0 && t->gz && t->fd < 0);
			ssd_trace_all_devices(t);
			struct ssd_trace_rec r;
			CHECK(ssd_trace_next(t, &r) == 1 && r.op == SSD_TOP_WRITE);
			CHECK(ssd_trace_next(t, &r) == 1 && r.op == SSD_TOP_READ &&
			      r.offset == 55590 * 512ull);
			CHECK(ssd_trace_next(t, &r) == 0);
			ssd_trace_close(t);
		}
		close(fds[0]);
	}
	char dir[64];
	strcpy(dir, "/tmp/ssdlab_tdir_XXXXXX");
	CHECK(mkdtemp(dir));
	struct ssd_trace *t;
	CHECK(ssd_trace_open(dir, SSD_TRACE_MSR, &t, err, sizeof err) == 0);
	struct ssd_trace_rec r;
	char want[200];
	snprintf(want, sizeof want, "%s:1: cannot read on: %s: Is a directory", dir,
		 dir);
	int rc = ssd_trace_next(t, &r);
	CHECKF(rc == SSD_EPARSE && !strcmp(ssd_trace_error(t), want), "%d: %s", rc,
	       ssd_trace_error(t));
	ssd_trace_close(t);
	rmdir(dir);
}
