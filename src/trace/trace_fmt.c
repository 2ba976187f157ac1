/*
 * trace_fmt.c -- the readers of the trace formats other than fio's iolog
 * (trace.h lists them): a function from a line to a record for each text
 * format, and blktrace's binary records.
 *
 * The readers are strict: every number is read whole (no sign, no
 * suffix, no trailing text), a field that is not what the format has
 * there is an error naming the field and the layout expected, and a
 * value that would overflow 64 bits (sectors in bytes, times in ns) is an
 * error rather than a wrapped number.  A header line (a CSV's column
 * names) and the events that are no request (blkparse's other actions,
 * blktrace's notes) are skipped.
 *
 * Times: each reader hands trace_rel_ns its record's clock in the
 * format's own unit (100 ns ticks, us, s) and scales the difference to ns
 * afterwards, so that t->t0 holds the first time in that unit (ns for the
 * decimal formats).  MSR's ticks count from 1601: in ns they would
 * overflow 64 bits, their differences do not.
 */
#include "trace/trace_int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"

#define SECTOR 512u
#define MAX_FIELDS 16

#define NS_PER_US 1000LL
#define NS_PER_MS 1000000LL
#define NS_PER_S 1000000000LL

/* ---- a line in fields ---- */

/* A line split into fields, with the names the messages give them. */
struct fields {
	struct ssd_trace *t;
	const char *layout;       /* the line expected: "Timestamp,Hostname,..." */
	const char *const *name;  /* field names by position */
	int nnames;
	char *f[MAX_FIELDS];
	int n;                    /* fields on the line (may exceed MAX_FIELDS) */
};

/* A UTF-8 byte order mark before the first line (a CSV saved on Windows)
 * is no part of the first field. */
static char *skip_bom(struct ssd_trace *t, char *line)
{
	if (t->line == 1 && !strncmp(line, "\xef\xbb\xbf", 3))
		return line + 3;
	return line;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	char *e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	*e = 0;
	return s;
}

/* Comma-separated fields, blanks around each dropped (SPC's specification
 * allows them). */
static void split_csv(struct fields *l, char *line)
{
	char *s = skip_bom(l->t, line);
	l->n = 0;
	for (;;) {
		char *c = strchr(s, ',');
		if (c)
			*c = 0;
		if (l->n < MAX_FIELDS)
			l->f[l->n] = trim(s);
		l->n++;
		if (!c)
			return;
		s = c + 1;
	}
}

/* Blank-separated fields. */
static void split_words(struct fields *l, char *line)
{
	char *s = skip_bom(l->t, line);
	l->n = 0;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return;
		if (l->n < MAX_FIELDS)
			l->f[l->n] = s;
		l->n++;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = 0;
	}
}

static const char *field_name(const struct fields *l, int i)
{
	return i < l->nnames ? l->name[i] : "?";
}

static int fail_field(struct fields *l, int i, const char *what)
{
	return trace_fail(l->t, "field %d (%s) '%.40s' %s (expected %s)", i + 1,
			  field_name(l, i), l->f[i], what, l->layout);
}

static int fail_count(struct fields *l)
{
	return trace_fail(l->t, "%d field%s (expected %s)", l->n,
			  ssd_plural((uint64_t)l->n), l->layout);
}

/* A CSV's header line: before the first record, a first field that is a
 * word ("Timestamp", "device_id"), not a number.  A data line with a bad
 * number there still fails, as it does not start with a letter. */
static int csv_header(const struct fields *l)
{
	unsigned char c = (unsigned char)l->f[0][0];
	return l->t->t0 == INT64_MIN && (isalpha(c) || c == '_' || c == '"');
}

/* ---- numbers ---- */

/* Field i as an unsigned integer in `base` (10, or 16 as DiskSim reads its
 * flags). */
static int field_u64(struct fields *l, int i, int base, uint64_t *v)
{
	const char *s = l->f[i];
	if (*s == '-')
		return fail_field(l, i, "is negative");
	if (base == 16 ? !isxdigit((unsigned char)*s) : !isdigit((unsigned char)*s))
		return fail_field(l, i, "is not a number");
	errno = 0;
	char *end;
	unsigned long long x = strtoull(s, &end, base);
	if (*end)
		return fail_field(l, i, "is not a number");
	if (errno == ERANGE)
		return fail_field(l, i, "is out of range");
	*v = x;
	return 0;
}

static int field_u32(struct fields *l, int i, uint32_t *v)
{
	uint64_t x;
	int rc = field_u64(l, i, 10, &x);
	if (rc)
		return rc;
	if (x > UINT32_MAX)
		return fail_field(l, i, "is out of range (at most 4294967295)");
	*v = (uint32_t)x;
	return 0;
}

/* Field i, a count of 512-byte sectors, in bytes. */
static int field_sectors(struct fields *l, int i, uint64_t *bytes)
{
	uint64_t x;
	int rc = field_u64(l, i, 10, &x);
	if (rc)
		return rc;
	if (x > UINT64_MAX / SECTOR)
		return fail_field(l, i, "is out of range (in bytes past 2^64)");
	*bytes = x * SECTOR;
	return 0;
}

/* A decimal number of `unit` ns ("13.191135" ms) in ns: digits with at
 * most one '.', read exactly to the ns (digits beyond dropped); or one
 * with an exponent ("1e-05", as Python prints small floats), through
 * strtod.  0, -1 if it is no such number, -2 if it overflows. */
static int decimal_ns(const char *s, int64_t unit, int64_t *ns)
{
	const char *p = s;
	if (!isdigit((unsigned char)*p))
		return -1;
	uint64_t whole = 0;
	for (; isdigit((unsigned char)*p); p++) {
		if (whole > (UINT64_MAX - 9) / 10)
			return -2;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	int64_t frac = 0;
	if (*p == '.')
		for (int64_t step = unit; isdigit((unsigned char)*++p);) {
			step /= 10;
			frac += (*p - '0') * step;
		}
	if (*p == 'e' || *p == 'E') {
		char *end;
		double v = strtod(s, &end);
		if (*end)
			return -1;
		v *= (double)unit;
		if (!(v < 9.2e18))
			return -2;
		*ns = (int64_t)(v + 0.5);
		return 0;
	}
	if (*p)
		return -1;
	if (whole > (uint64_t)(INT64_MAX - frac) / (uint64_t)unit)
		return -2;
	*ns = (int64_t)whole * unit + frac;
	return 0;
}

/* Field i, a decimal time in `unit` ns, in ns. */
static int field_decimal_ns(struct fields *l, int i, int64_t unit, uint64_t *ns)
{
	int64_t v;
	int rc = decimal_ns(l->f[i], unit, &v);
	if (rc == -2)
		return fail_field(l, i, "is out of range");
	if (rc)
		return fail_field(l, i, *l->f[i] == '-' ? "is negative"
					: "is not a number");
	*ns = (uint64_t)v;
	return 0;
}

/* ---- the record ---- */

/* r->ts from the record's own clock v, in units of `scale` ns: 0 for the
 * first record, then the time since it.  A record before the first one
 * would have a negative time: the records are expected in time order. */
static int set_time(struct ssd_trace *t, uint64_t v, int64_t scale,
		    struct ssd_trace_rec *r, const char *what)
{
	if (v > INT64_MAX)
		return trace_fail(t, "%s is out of range", what);
	if (t->t0 != INT64_MIN && (int64_t)v < t->t0)
		return trace_fail(t, "%s is before the first record's (expected the "
				  "records in time order)", what);
	int64_t d = trace_rel_ns(t, (int64_t)v);
	if (d > INT64_MAX / scale)
		return trace_fail(t, "%s is out of range (more than 292 years after "
				  "the first record)", what);
	r->ts = d * scale;
	return 0;
}

/* The record's extent within 2^64 bytes, its time set last (a line that
 * fails sets no first time): 1 with the record, or the error. */
static int finish(struct fields *l, int ti, uint64_t v, int64_t scale,
		  struct ssd_trace_rec *r)
{
	if (r->len > UINT64_MAX - r->offset)
		return trace_fail(l->t, "offset %llu + length %llu is past 2^64 bytes",
				  (unsigned long long)r->offset,
				  (unsigned long long)r->len);
	char what[80];
	snprintf(what, sizeof what, "field %d (%s) '%.40s'", ti + 1,
		 field_name(l, ti), l->f[ti]);
	int rc = set_time(l->t, v, scale, r, what);
	return rc ? rc : 1;
}

/* ---- MSR Cambridge (SNIA IOTTA) ----
 * Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime: Windows
 * filetime (100 ns ticks), a name, the disk, Read or Write, bytes, bytes,
 * 100 ns ticks. */

static const char *const msr_names[] = {"Timestamp", "Hostname", "DiskNumber",
	"Type", "Offset", "Size", "ResponseTime"};

static int msr_line(struct ssd_trace *t, char *line, struct ssd_trace_rec *r)
{
	struct fields l = {t, "Timestamp,Hostname,DiskNumber,Type,Offset,Size,"
			   "ResponseTime", msr_names, 7, {0}, 0};
	split_csv(&l, line);
	if (csv_header(&l))
		return 0;
	if (l.n != 7)
		return fail_count(&l);
	*r = (struct ssd_trace_rec){0};
	uint64_t ticks, resp;
	int rc;
	if ((rc = field_u64(&l, 0, 10, &ticks)) || (rc = field_u32(&l, 2, &r->dev)) ||
	    (rc = field_u64(&l, 4, 10, &r->offset)) ||
	    (rc = field_u64(&l, 5, 10, &r->len)) ||
	    (rc = field_u64(&l, 6, 10, &resp)))
		return rc;
	if (!strcasecmp(l.f[3], "Read"))
		r->op = SSD_TOP_READ;
	else if (!strcasecmp(l.f[3], "Write"))
		r->op = SSD_TOP_WRITE;
	else
		return fail_field(&l, 3, "is neither Read nor Write");
	return finish(&l, 0, ticks, 100, r);
}

/* ---- SPC (UMass trace repository: Financial, WebSearch) ----
 * ASU,LBA,Size,Opcode,Timestamp[,...]: the unit, 512 B sectors, bytes,
 * r/R/w/W, seconds (decimal) from the start; further fields are
 * optional. */

static const char *const spc_names[] = {"ASU", "LBA", "Size", "Opcode",
	"Timestamp"};

static int spc_line(struct ssd_trace *t, char *line, struct ssd_trace_rec *r)
{
	struct fields l = {t, "ASU,LBA,Size,Opcode,Timestamp[,...]", spc_names, 5,
			   {0}, 0};
	split_csv(&l, line);
	if (csv_header(&l))
		return 0;
	if (l.n < 5)
		return fail_count(&l);
	*r = (struct ssd_trace_rec){0};
	uint64_t ns;
	int rc;
	if ((rc = field_u32(&l, 0, &r->dev)) || (rc = field_sectors(&l, 1, &r->offset)) ||
	    (rc = field_u64(&l, 2, 10, &r->len)) ||
	    (rc = field_decimal_ns(&l, 4, NS_PER_S, &ns)))
		return rc;
	const char *op = l.f[3];
	if (op[0] && !op[1] && strchr("rR", op[0]))
		r->op = SSD_TOP_READ;
	else if (op[0] && !op[1] && strchr("wW", op[0]))
		r->op = SSD_TOP_WRITE;
	else
		return fail_field(&l, 3, "is neither r nor w");
	return finish(&l, 4, ns, 1, r);
}

/* ---- DiskSim's ASCII input ----
 * TIME DEVICE BLOCK SIZE FLAGS: ms (decimal), the device, 512 B sectors,
 * sectors, flags in hex as DiskSim reads them (bit 0 set: read). */

static const char *const disksim_names[] = {"time", "device", "block", "size",
	"flags"};

static int disksim_line(struct ssd_trace *t, char *line, struct ssd_trace_rec *r)
{
	struct fields l = {t, "TIME_MS DEVICE BLOCK SECTORS FLAGS", disksim_names, 5,
			   {0}, 0};
	split_words(&l, line);
	if (l.n != 5)
		return fail_count(&l);
	*r = (struct ssd_trace_rec){0};
	uint64_t ns, flags;
	int rc;
	if ((rc = field_decimal_ns(&l, 0, NS_PER_MS, &ns)) ||
	    (rc = field_u32(&l, 1, &r->dev)) || (rc = field_sectors(&l, 2, &r->offset)) ||
	    (rc = field_sectors(&l, 3, &r->len)) || (rc = field_u64(&l, 4, 16, &flags)))
		return rc;
	r->op = flags & 1 ? SSD_TOP_READ : SSD_TOP_WRITE;
	return finish(&l, 0, ns, 1, r);
}

/* ---- MQSim's ASCII trace ----
 * TIME DEVICE LBA SIZE TYPE: ns, the device, 512 B sectors, sectors, 0
 * write or 1 read (MQSim's ASCIITraceWriteCode "0"). */

static const char *const mqsim_names[] = {"time", "device", "LBA", "size",
	"type"};

static int mqsim_line(struct ssd_trace *t, char *line, struct ssd_trace_rec *r)
{
	struct fields l = {t, "TIME_NS DEVICE LBA SECTORS TYPE", mqsim_names, 5,
			   {0}, 0};
	split_words(&l, line);
	if (l.n != 5)
		return fail_count(&l);
	*r = (struct ssd_trace_rec){0};
	uint64_t ns;
	int rc;
	if ((rc = field_u64(&l, 0, 10, &ns)) || (rc = field_u32(&l, 1, &r->dev)) ||
	    (rc = field_sectors(&l, 2, &r->offset)) ||
	    (rc = field_sectors(&l, 3, &r->len)))
		return rc;
	if (!strcmp(l.f[4], "0"))
		r->op = SSD_TOP_WRITE;
	else if (!strcmp(l.f[4], "1"))
		r->op = SSD_TOP_READ;
	else
		return fail_field(&l, 4, "is neither 0 (write) nor 1 (read)");
	return finish(&l, 0, ns, 1, r);
}

/* ---- Alibaba Cloud block traces (2020, io_traces.csv) ----
 * device_id,opcode,offset,length,timestamp: the disk, R or W, bytes,
 * bytes, us. */

static const char *const alibaba_names[] = {"device_id", "opcode", "offset",
	"length", "timestamp"};

static int alibaba_line(struct ssd_trace *t, char *line, struct ssd_trace_rec *r)
{
	struct fields l = {t, "device_id,opcode,offset,length,timestamp",
			   alibaba_names, 5, {0}, 0};
	split_csv(&l, line);
	if (csv_header(&l))
		return 0;
	if (l.n != 5)
		return fail_count(&l);
	*r = (struct ssd_trace_rec){0};
	uint64_t us;
	int rc;
	if ((rc = field_u32(&l, 0, &r->dev)) || (rc = field_u64(&l, 2, 10, &r->offset)) ||
	    (rc = field_u64(&l, 3, 10, &r->len)) || (rc = field_u64(&l, 4, 10, &us)))
		return rc;
	if (!strcmp(l.f[1], "R"))
		r->op = SSD_TOP_READ;
	else if (!strcmp(l.f[1], "W"))
		r->op = SSD_TOP_WRITE;
	else
		return fail_field(&l, 1, "is neither R nor W");
	return finish(&l, 4, us, NS_PER_US, r);
}

/* ---- Tencent CBS (SNIA IOTTA, 2018) ----
 * Timestamp,Offset,Size,IOType,VolumeID: Unix seconds, 512 B sectors,
 * sectors, 0 read or 1 write, the volume. */

static const char *const tencent_names[] = {"Timestamp", "Offset", "Size",
	"IOType", "VolumeID"};

static int tencent_line(struct ssd_trace *t, char *line, struct ssd_trace_rec *r)
{
	struct fields l = {t, "Timestamp,Offset,Size,IOType,VolumeID", tencent_names,
			   5, {0}, 0};
	split_csv(&l, line);
	if (csv_header(&l))
		return 0;
	if (l.n != 5)
		return fail_count(&l);
	*r = (struct ssd_trace_rec){0};
	uint64_t s;
	int rc;
	if ((rc = field_u64(&l, 0, 10, &s)) || (rc = field_sectors(&l, 1, &r->offset)) ||
	    (rc = field_sectors(&l, 2, &r->len)) || (rc = field_u32(&l, 4, &r->dev)))
		return rc;
	if (!strcmp(l.f[3], "0"))
		r->op = SSD_TOP_READ;
	else if (!strcmp(l.f[3], "1"))
		r->op = SSD_TOP_WRITE;
	else
		return fail_field(&l, 3, "is neither 0 (read) nor 1 (write)");
	return finish(&l, 0, s, NS_PER_S, r);
}

/* ---- blkparse's default output ----
 * "MAJ,MIN CPU SEQ SECONDS.NS PID ACTION RWBS SECTOR + SECTORS [PROCESS]"
 * (blkparse_fmt.c, process_default).  A line whose first word is not
 * MAJ,MIN is no event (the summary at the end: "CPU0 (8,0):", " Reads
 * Queued: ..."); of the events only Q (queued) is a request. */

static const char *const blkparse_names[] = {"MAJ,MIN", "CPU", "SEQ", "TIME",
	"PID", "ACTION", "RWBS", "SECTOR", "+", "SECTORS"};

static int is_devno(const char *w)
{
	const char *c = strchr(w, ',');
	if (!c || c == w || !c[1])
		return 0;
	for (const char *p = w; *p; p++)
		if (p != c && !isdigit((unsigned char)*p))
			return 0;
	return 1;
}

/* The kernel's dev_t, as blktrace records it: major << 20 | minor. */
static int blkparse_dev(struct fields *l, uint32_t *dev)
{
	char *w = l->f[0];
	errno = 0;
	unsigned long maj = strtoul(w, NULL, 10);
	unsigned long min = strtoul(strchr(w, ',') + 1, NULL, 10);
	if (errno || maj >= 1u << 12 || min >= 1u << 20)
		return fail_field(l, 0, "is out of range (major below 4096, minor "
				  "below 2^20)");
	*dev = (uint32_t)(maj << 20 | min);
	return 0;
}

/* RWBS (blkparse_fmt.c, fill_rwbs): an optional F (flush), one of D
 * (discard), W, R or N (no data), then F (FUA), A, S, M.  *dir is the
 * D/W/R/N. */
static int blkparse_rwbs(struct fields *l, int *flush, char *dir)
{
	const char *s = l->f[6];
	*flush = s[0] == 'F' && s[1] && strchr("DWRN", s[1]);
	s += *flush;
	if (!*s || !strchr("DWRN", *s))
		return fail_field(l, 6, "is no RWBS (F, then D, W, R or N, then F, A, "
				  "S, M)");
	*dir = *s++;
	for (; *s; s++)
		if (!strchr("FASM", *s))
			return fail_field(l, 6, "is no RWBS (F, then D, W, R or N, then F, "
					  "A, S, M)");
	return 0;
}

/* What follows a Q's RWBS into r->offset and r->len (*data: they are
 * there): "SECTOR + SECTORS [proc]", or "[proc]" alone (no data).  1, 0
 * for a SCSI passthrough command ("BYTES [proc]": no block request), or
 * the error. */
static int blkparse_extent(struct fields *l, struct ssd_trace_rec *r, int *data)
{
	if (l->n == 7 || l->f[7][0] == '[' || l->f[7][0] == '(')
		return 1;
	int rc;
	if (l->n >= 10 && !strcmp(l->f[8], "+")) {
		if ((rc = field_sectors(l, 7, &r->offset)) ||
		    (rc = field_sectors(l, 9, &r->len)))
			return rc;
		*data = r->len > 0;
		return 1;
	}
	if (l->n == 8 || l->f[8][0] == '[' || l->f[8][0] == '(') {
		uint64_t bytes;
		return (rc = field_u64(l, 7, 10, &bytes)) ? rc : 0;
	}
	if (!strcmp(l->f[8], "+"))
		return trace_fail(l->t, "no count of sectors after '%.40s +' (expected "
				  "%s)", l->f[7], l->layout);
	return trace_fail(l->t, "'%.40s' after sector '%.40s' (expected %s)",
			  l->f[8], l->f[7], l->layout);
}

static int blkparse_line(struct ssd_trace *t, char *line, struct ssd_trace_rec *r)
{
	struct fields l = {t, "MAJ,MIN CPU SEQ SECONDS PID ACTION RWBS SECTOR + "
			   "SECTORS [PROCESS]", blkparse_names, 10, {0}, 0};
	split_words(&l, line);
	if (!l.n || !is_devno(l.f[0]))
		return 0;
	if (l.n < 6)
		return fail_count(&l);
	*r = (struct ssd_trace_rec){0};
	uint64_t cpu, seq, pid, ns;
	int rc;
	if ((rc = blkparse_dev(&l, &r->dev)) || (rc = field_u64(&l, 1, 10, &cpu)) ||
	    (rc = field_u64(&l, 2, 10, &seq)) ||
	    (rc = field_decimal_ns(&l, 3, NS_PER_S, &ns)) ||
	    (rc = field_u64(&l, 4, 10, &pid)))
		return rc;
	if (strcmp(l.f[5], "Q"))
		return 0;
	if (l.n < 7)
		return fail_count(&l);
	int flush;
	char dir = 0;
	if ((rc = blkparse_rwbs(&l, &flush, &dir)))
		return rc;
	int data = 0;
	if ((rc = blkparse_extent(&l, r, &data)) <= 0)
		return rc;
	if (flush && !data)
		r->op = SSD_TOP_SYNC;
	else if (!data)
		return 0;  /* N, or nothing moved: no request to replay */
	else if (dir == 'D')
		r->op = SSD_TOP_TRIM;
	else if (dir == 'W')
		r->op = SSD_TOP_WRITE;
	else if (dir == 'R')
		r->op = SSD_TOP_READ;
	else
		return fail_field(&l, 6, "says no data (N) but the event has sectors");
	return finish(&l, 3, ns, 1, r);
}

const trace_line_fn ssd_trace_line_fns[SSD_TRACE_NFMT] = {
	[SSD_TRACE_BLKPARSE] = blkparse_line,
	[SSD_TRACE_MSR] = msr_line,
	[SSD_TRACE_SPC] = spc_line,
	[SSD_TRACE_DISKSIM] = disksim_line,
	[SSD_TRACE_MQSIM] = mqsim_line,
	[SSD_TRACE_ALIBABA] = alibaba_line,
	[SSD_TRACE_TENCENT] = tencent_line,
};

/* ---- blktrace's binary files ----
 * struct blk_io_trace (blktrace_api.h), 48 bytes in the recording
 * machine's byte order, then pdu_len bytes of payload:
 *   0 magic (0x65617400 | version 7)  4 sequence  8 time (ns)  16 sector
 *   24 bytes  28 action (category << 16 | action)  32 pid  36 device
 *   40 cpu  44 error (16 bits)  46 pdu_len (16 bits) */

#define BLK_REC 48
#define BLK_MAGIC 0x65617400u
#define BLK_VERSION 7
#define BLK_TA_QUEUE 1           /* __BLK_TA_QUEUE */
#define BLK_TA_CGROUP (1u << 8)  /* __BLK_TA_CGROUP: a flag, not an action */
#define BLK_TC_WRITE (1u << 1)
#define BLK_TC_FLUSH (1u << 2)
#define BLK_TC_PC (1u << 9)
#define BLK_TC_NOTIFY (1u << 10)
#define BLK_TC_DISCARD (1u << 13)

struct blk_rec {
	uint64_t time, sector;
	uint32_t bytes, action, device;
	uint16_t pdu_len;
};

static uint64_t get(const unsigned char *p, int n, int big)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
	return v;
}

/* The 48 bytes of a record, in the byte order its magic shows. */
static int blk_decode(struct ssd_trace *t, const unsigned char *b,
		      struct blk_rec *k)
{
	int big;
	uint32_t magic = (uint32_t)get(b, 4, 0);
	if ((magic & 0xffffff00u) == BLK_MAGIC)
		big = 0;
	else if (((magic = (uint32_t)get(b, 4, 1)) & 0xffffff00u) == BLK_MAGIC)
		big = 1;
	else
		return trace_fail(t, "bad magic 0x%08x (expected 0x656174%02x, a "
				  "blktrace record, in either byte order)",
				  (unsigned)get(b, 4, 0), BLK_VERSION);
	if ((magic & 0xff) != BLK_VERSION)
		return trace_fail(t, "blktrace version %u (expected %d)",
				  (unsigned)(magic & 0xff), BLK_VERSION);
	k->time = get(b + 8, 8, big);
	k->sector = get(b + 16, 8, big);
	k->bytes = (uint32_t)get(b + 24, 4, big);
	k->action = (uint32_t)get(b + 28, 4, big);
	k->device = (uint32_t)get(b + 36, 4, big);
	k->pdu_len = (uint16_t)get(b + 46, 2, big);
	return 0;
}

/* Read n bytes: n, fewer at the end, or the error (a compressed file
 * that ends early is one: its last record would be cut anywhere). */
static int blk_read(struct ssd_trace *t, void *buf, unsigned n)
{
	int got = trace_file_read(t, buf, n);
	if (got < 0) {
		if (trace_cut_short(t, "byte", t->pos))
			return SSD_EPARSE;
		return trace_fail(t, "cannot read on: %s", trace_file_error(t));
	}
	if ((unsigned)got < n && trace_cut_short(t, "byte", t->pos))
		return SSD_EPARSE;
	return got;
}

/* Past the record's payload (a process name, a message, a cgroup id). */
static int blk_skip_pdu(struct ssd_trace *t, unsigned len)
{
	for (unsigned left = len; left;) {
		unsigned n = left < sizeof t->buf ? left : (unsigned)sizeof t->buf;
		int got = blk_read(t, t->buf, n);
		if (got < 0)
			return got;
		if ((unsigned)got < n)
			return trace_fail(t, "truncated record: %u of its %u payload "
					  "bytes", len - left + (unsigned)got, len);
		left -= n;
	}
	return 0;
}

/* The request of a queue event into *r: 1, 0 for an event that is none. */
static int blk_request(struct ssd_trace *t, const struct blk_rec *k,
		       struct ssd_trace_rec *r)
{
	uint32_t cat = k->action >> 16;
	uint32_t act = (k->action & 0xffff) & ~BLK_TA_CGROUP;
	if ((cat & (BLK_TC_NOTIFY | BLK_TC_PC)) || act != BLK_TA_QUEUE)
		return 0;
	*r = (struct ssd_trace_rec){0};
	if ((cat & BLK_TC_FLUSH) && !k->bytes)
		r->op = SSD_TOP_SYNC;
	else if (!k->bytes)
		return 0;  /* nothing moved: no request to replay */
	else if (cat & BLK_TC_DISCARD)
		r->op = SSD_TOP_TRIM;
	else if (cat & BLK_TC_WRITE)
		r->op = SSD_TOP_WRITE;
	else
		r->op = SSD_TOP_READ;
	if (k->sector > UINT64_MAX / SECTOR ||
	    k->bytes > UINT64_MAX - k->sector * SECTOR)
		return trace_fail(t, "sector %llu + %u bytes is past 2^64 bytes",
				  (unsigned long long)k->sector, k->bytes);
	r->offset = k->sector * SECTOR;
	r->len = k->bytes;
	r->dev = k->device;
	char what[48];
	snprintf(what, sizeof what, "time %llu ns", (unsigned long long)k->time);
	int rc = set_time(t, k->time, 1, r, what);
	return rc ? rc : 1;
}

int ssd_trace_blktrace_next(struct ssd_trace *t, struct ssd_trace_rec *r)
{
	for (;;) {
		unsigned char b[BLK_REC];
		int got = blk_read(t, b, BLK_REC);
		if (got <= 0)
			return got;
		t->line++;
		if (got < BLK_REC)
			return trace_fail(t, "truncated record: %d of %d bytes", got,
					  BLK_REC);
		struct blk_rec k = {0};
		int rc = blk_decode(t, b, &k);
		if (!rc)
			rc = blk_skip_pdu(t, k.pdu_len);
		if (!rc)
			rc = blk_request(t, &k, r);
		if (rc < 0)
			return rc;
		t->pos += BLK_REC + k.pdu_len;
		if (rc)
			return 1;
	}
}
