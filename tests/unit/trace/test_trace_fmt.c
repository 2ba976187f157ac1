/* Unit tests for the trace readers: the text formats and blktrace's binary
 * records (src/trace/trace_fmt.c), fio's iolog and the stream they share
 * (src/trace/trace.c).  Each sample is written to /tmp, read back through
 * ssd_trace_open/ssd_trace_next and every field of every record checked;
 * the samples follow documented lines of the real traces where there are
 * some (Financial1.spc, DiskSim's ascii.trace, MQSim's traces/README.md,
 * the Alibaba and Tencent READMEs, blktrace's documentation). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "base/util.h"
#include "trace/trace.h"
#include "t.h"

#define S 512ULL /* a sector */
#define MS 1000000LL
#define SEC 1000000000LL

static char path[64];
static char err[512];
static char msg[512];

#define MAXREC 64
static struct ssd_trace_rec rec[MAXREC];
static int nrec;

/* A new empty file in /tmp: its path, or NULL. */
static const char *tmp_path(void)
{
	strcpy(path, "/tmp/ssdlab_trace_XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	close(fd);
	return path;
}

static const char *write_bytes(const void *b, size_t n)
{
	if (!tmp_path())
		return NULL;
	FILE *f = fopen(path, "wb");
	if (!f)
		return NULL;
	size_t w = fwrite(b, 1, n, f);
	fclose(f);
	return w == n ? path : NULL;
}

static const char *write_text(const char *text)
{
	return write_bytes(text, strlen(text));
}

/* The bytes gzip-compressed, as zlib writes them. */
static const char *write_gz(const void *b, size_t n)
{
	if (!tmp_path())
		return NULL;
	gzFile g = gzopen(path, "wb");
	if (!g)
		return NULL;
	int w = gzwrite(g, b, (unsigned)n);
	return gzclose(g) == Z_OK && w == (int)n ? path : NULL;
}

/* Read the trace at p as fmt to its end or first error: the records into
 * rec[0..nrec), the message of an error into msg; then remove the file.
 * The last code of ssd_trace_next (0 at the end), or ssd_trace_open's. */
static int read_all(const char *p, int fmt)
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
	ssd_trace_all_devices(t); /* the samples' devices are fields to check */
	while (nrec < MAXREC && (rc = ssd_trace_next(t, &rec[nrec])) == 1)
		nrec++;
	if (rc < 0)
		snprintf(msg, sizeof msg, "%s", ssd_trace_error(t));
	ssd_trace_close(t);
	unlink(p);
	return rc;
}

static int rec_is(int i, int op, uint64_t off, uint64_t len, int64_t ts,
		  uint32_t dev)
{
	const struct ssd_trace_rec *r = &rec[i];
	return i < nrec && r->op == op && r->offset == off && r->len == len &&
	       r->ts == ts && r->dev == dev;
}

#define CHECK_REC(I, OP, OFF, LEN, TS, DEV)                                  \
	CHECKF(rec_is(I, OP, OFF, LEN, TS, DEV),                              \
	       "record %d of %d: op %d offset %llu len %llu ts %lld dev %u", I, \
	       nrec, rec[I].op, (unsigned long long)rec[I].offset,            \
	       (unsigned long long)rec[I].len, (long long)rec[I].ts, rec[I].dev)

/* msg is exactly "PATH:LINE: what". */
static int msg_is(int line, const char *what)
{
	char want[600];
	snprintf(want, sizeof want, "%s:%d: %s", path, line, what);
	return !strcmp(msg, want);
}

#define CHECK_MSG(line, what) CHECKF(msg_is(line, what), "got: %s", msg)

/* The error reading `text` as fmt (its message in msg). */
static int first_error(const char *text, int fmt)
{
	int rc = read_all(write_text(text), fmt);
	return rc < 0 ? rc : 0;
}

/* ---- MSR Cambridge ---- */

TEST(trace_msr_reads_filetime_disk_and_bytes)
{
	/* the first line as in hm_0.csv; then 10 ms (100000 ticks) and 1 s */
	CHECK(read_all(write_text(
		"Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
		"128166385295514663,hm,0,Write,9056014336,2048,2833\n"
		"128166385295614663,hm,0,Read,7014912,4096,26\n"
		"128166385305514663,hm,1,Write,0,512,113\n"), SSD_TRACE_MSR) == 0);
	CHECK(nrec == 3);
	CHECK_REC(0, SSD_TOP_WRITE, 9056014336ULL, 2048, 0, 0);
	CHECK_REC(1, SSD_TOP_READ, 7014912, 4096, 10 * MS, 0);
	CHECK_REC(2, SSD_TOP_WRITE, 0, 512, SEC, 1);
}

TEST(trace_msr_windows_file_bom_crlf_and_blanks)
{
	CHECK(read_all(write_text(
		"\xef\xbb\xbfTimestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\r\n"
		"\r\n"
		"100, prn ,3, read ,4096,8192,10\r\n"
		"150,prn,3,WRITE,0,4096,10\r\n"), SSD_TRACE_MSR) == 0);
	CHECK(nrec == 2);
	CHECK_REC(0, SSD_TOP_READ, 4096, 8192, 0, 3);
	CHECK_REC(1, SSD_TOP_WRITE, 0, 4096, 5000, 3);
}

TEST(trace_msr_errors_name_line_field_and_layout)
{
	CHECK(first_error("Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
			  "128166385295514663,hm,0,Write,9056014336,2048,2833\n"
			  "128166385295614663,hm,0,Read,7014912,abc,26\n",
			  SSD_TRACE_MSR) == SSD_EPARSE);
	CHECK_MSG(3, "field 6 (Size) 'abc' is not a number (expected Timestamp,"
		  "Hostname,DiskNumber,Type,Offset,Size,ResponseTime)");
	CHECK(first_error("1,hm,0,Write,-4096,512,1\n", SSD_TRACE_MSR) == SSD_EPARSE);
	CHECK_MSG(1, "field 5 (Offset) '-4096' is negative (expected Timestamp,"
		  "Hostname,DiskNumber,Type,Offset,Size,ResponseTime)");
	CHECK(first_error("1,hm,0,Trim,0,512,1\n", SSD_TRACE_MSR) == SSD_EPARSE);
	CHECK_MSG(1, "field 4 (Type) 'Trim' is neither Read nor Write (expected "
		  "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime)");
	CHECK(first_error("1,hm,0,Read,0,512\n", SSD_TRACE_MSR) == SSD_EPARSE);
	CHECK_MSG(1, "6 fields (expected Timestamp,Hostname,DiskNumber,Type,Offset,"
		  "Size,ResponseTime)");
	CHECK(first_error("1,hm,0,Read,0,512,1\n1,hm,4294967296,Read,0,512,1\n",
			  SSD_TRACE_MSR) == SSD_EPARSE);
	CHECK_MSG(2, "field 3 (DiskNumber) '4294967296' is out of range (at most "
		  "4294967295) (expected Timestamp,Hostname,DiskNumber,Type,Offset,"
		  "Size,ResponseTime)");
	/* a header after the first record is no header */
	CHECK(first_error("1,hm,0,Read,0,512,1\nTimestamp,Hostname,DiskNumber,Type,"
			  "Offset,Size,ResponseTime\n", SSD_TRACE_MSR) == SSD_EPARSE);
	CHECK(strstr(msg, ":2: field 1 (Timestamp) 'Timestamp' is not a number"));
	/* the records in time order: one before the first has no time */
	CHECK(first_error("200,hm,0,Read,0,512,1\n100,hm,0,Read,0,512,1\n",
			  SSD_TRACE_MSR) == SSD_EPARSE);
	CHECK_MSG(2, "field 1 (Timestamp) '100' is before the first record's "
		  "(expected the records in time order)");
	CHECK(first_error("1,hm,0,Read,18446744073709551615,1,1\n", SSD_TRACE_MSR) ==
	      SSD_EPARSE);
	CHECK_MSG(1, "offset 18446744073709551615 + length 1 is past 2^64 bytes");
	CHECK(first_error("1,hm,0,Read,0,18446744073709551616,1\n", SSD_TRACE_MSR) ==
	      SSD_EPARSE);
	CHECK(strstr(msg, ":1: field 6 (Size) '18446744073709551616' is out of range"));
}

/* ---- SPC (UMass) ---- */

TEST(trace_spc_reads_asu_sectors_bytes_seconds)
{
	/* Financial1.spc's first lines, a WebSearch-style R and optional
	 * fields after the five */
	CHECK(read_all(write_text(
		"0,303567,3584,w,0.000000\n"
		"1,55590,3072,w,0.000000\n"
		"0,303574,3584,w,0.026214\n"
		"1,55596,3072,r,0.078643\n"
		"2,1063832,8192,R,1.5,extra,fields\n"
		"23, 4 , 512 , W , 2.000000001\n"), SSD_TRACE_SPC) == 0);
	CHECK(nrec == 6);
	CHECK_REC(0, SSD_TOP_WRITE, 303567 * S, 3584, 0, 0);
	CHECK_REC(1, SSD_TOP_WRITE, 55590 * S, 3072, 0, 1);
	CHECK_REC(2, SSD_TOP_WRITE, 303574 * S, 3584, 26214000, 0);
	CHECK_REC(3, SSD_TOP_READ, 55596 * S, 3072, 78643000, 1);
	CHECK_REC(4, SSD_TOP_READ, 1063832 * S, 8192, 1500 * MS, 2);
	CHECK_REC(5, SSD_TOP_WRITE, 4 * S, 512, 2 * SEC + 1, 23);
}

TEST(trace_spc_errors)
{
	CHECK(first_error("0,303567,3584,w,0.000000\n0,303574,3584,x,0.026214\n",
			  SSD_TRACE_SPC) == SSD_EPARSE);
	CHECK_MSG(2, "field 4 (Opcode) 'x' is neither r nor w (expected ASU,LBA,Size,"
		  "Opcode,Timestamp[,...])");
	CHECK(first_error("0,303567,3584,w\n", SSD_TRACE_SPC) == SSD_EPARSE);
	CHECK_MSG(1, "4 fields (expected ASU,LBA,Size,Opcode,Timestamp[,...])");
	CHECK(first_error("0,303567,3584,w,0.5s\n", SSD_TRACE_SPC) == SSD_EPARSE);
	CHECK_MSG(1, "field 5 (Timestamp) '0.5s' is not a number (expected ASU,LBA,"
		  "Size,Opcode,Timestamp[,...])");
	CHECK(first_error("0,303567,3584,w,-1\n", SSD_TRACE_SPC) == SSD_EPARSE);
	CHECK(strstr(msg, ":1: field 5 (Timestamp) '-1' is negative"));
	/* sector 2^55 is byte 2^64 */
	CHECK(first_error("0,36028797018963968,512,r,0\n", SSD_TRACE_SPC) == SSD_EPARSE);
	CHECK_MSG(1, "field 2 (LBA) '36028797018963968' is out of range (in bytes "
		  "past 2^64) (expected ASU,LBA,Size,Opcode,Timestamp[,...])");
	CHECK(first_error("0,0,512,r,9223372037\n", SSD_TRACE_SPC) == SSD_EPARSE);
	CHECK(strstr(msg, ":1: field 5 (Timestamp) '9223372037' is out of range"));
}

/* ---- DiskSim ---- */

TEST(trace_disksim_reads_ms_sectors_and_read_flag)
{
	/* ascii.trace's first lines; flags are hex (0x81: synchronous read) */
	CHECK(read_all(write_text(
		"13.191135 30 0 5 1\n"
		"17.829285 20 576560 6 1\n"
		"18.601729\t18 28601 12 0\n"
		"20 0 10 1 81\n"
		"2.1e1 0 10 1 80\n"), SSD_TRACE_DISKSIM) == 0);
	CHECK(nrec == 5);
	CHECK_REC(0, SSD_TOP_READ, 0, 5 * S, 0, 30);
	CHECK_REC(1, SSD_TOP_READ, 576560 * S, 6 * S, 4638150, 20);
	CHECK_REC(2, SSD_TOP_WRITE, 28601 * S, 12 * S, 5410594, 18);
	CHECK_REC(3, SSD_TOP_READ, 10 * S, S, 6808865, 0);
	CHECK_REC(4, SSD_TOP_WRITE, 10 * S, S, 7808865, 0);
}

TEST(trace_disksim_errors)
{
	CHECK(first_error("13.191135 30 0 5 1\n17.8 20 576560 6\n",
			  SSD_TRACE_DISKSIM) == SSD_EPARSE);
	CHECK_MSG(2, "4 fields (expected TIME_MS DEVICE BLOCK SECTORS FLAGS)");
	CHECK(first_error("13.191135 30 0 5 z\n", SSD_TRACE_DISKSIM) == SSD_EPARSE);
	CHECK_MSG(1, "field 5 (flags) 'z' is not a number (expected TIME_MS DEVICE "
		  "BLOCK SECTORS FLAGS)");
	CHECK(first_error("13.19.1 30 0 5 1\n", SSD_TRACE_DISKSIM) == SSD_EPARSE);
	CHECK_MSG(1, "field 1 (time) '13.19.1' is not a number (expected TIME_MS "
		  "DEVICE BLOCK SECTORS FLAGS)");
}

/* ---- MQSim ---- */

TEST(trace_mqsim_reads_ns_sectors_and_type)
{
	/* MQSim's traces/README.md sample; 0 write, 1 read */
	CHECK(read_all(write_text(
		"4851300 1 524288 16 0\n"
		"4864300 1 524304 16 0\n"
		"4871300 2 524320 8 1\n"), SSD_TRACE_MQSIM) == 0);
	CHECK(nrec == 3);
	CHECK_REC(0, SSD_TOP_WRITE, 524288 * S, 16 * S, 0, 1);
	CHECK_REC(1, SSD_TOP_WRITE, 524304 * S, 16 * S, 13000, 1);
	CHECK_REC(2, SSD_TOP_READ, 524320 * S, 8 * S, 20000, 2);
}

TEST(trace_mqsim_errors)
{
	CHECK(first_error("4851300 1 524288 16 2\n", SSD_TRACE_MQSIM) == SSD_EPARSE);
	CHECK_MSG(1, "field 5 (type) '2' is neither 0 (write) nor 1 (read) (expected "
		  "TIME_NS DEVICE LBA SECTORS TYPE)");
	CHECK(first_error("9223372036854775808 1 0 16 0\n", SSD_TRACE_MQSIM) ==
	      SSD_EPARSE);
	CHECK_MSG(1, "field 1 (time) '9223372036854775808' is out of range");
	CHECK(first_error("1 1 0 16 0 7\n", SSD_TRACE_MQSIM) == SSD_EPARSE);
	CHECK_MSG(1, "6 fields (expected TIME_NS DEVICE LBA SECTORS TYPE)");
}

/* ---- Alibaba ---- */

TEST(trace_alibaba_reads_device_bytes_and_us)
{
	/* the README's example row, then 1 ms and 1 s later */
	CHECK(read_all(write_text(
		"device_id,opcode,offset,length,timestamp\n"
		"0,R,126703644672,4096,1577808000000626\n"
		"0,W,126703648768,8192,1577808000001626\n"
		"419,W,0,512,1577808001000626\n"), SSD_TRACE_ALIBABA) == 0);
	CHECK(nrec == 3);
	CHECK_REC(0, SSD_TOP_READ, 126703644672ULL, 4096, 0, 0);
	CHECK_REC(1, SSD_TOP_WRITE, 126703648768ULL, 8192, MS, 0);
	CHECK_REC(2, SSD_TOP_WRITE, 0, 512, SEC, 419);
}

TEST(trace_alibaba_errors)
{
	CHECK(first_error("0,r,126703644672,4096,1577808000000626\n",
			  SSD_TRACE_ALIBABA) == SSD_EPARSE);
	CHECK_MSG(1, "field 2 (opcode) 'r' is neither R nor W (expected device_id,"
		  "opcode,offset,length,timestamp)");
	/* 2^63 ns after the first record */
	CHECK(first_error("0,R,0,4096,0\n0,R,0,4096,9223372036854776\n",
			  SSD_TRACE_ALIBABA) == SSD_EPARSE);
	CHECK_MSG(2, "field 5 (timestamp) '9223372036854776' is out of range (more "
		  "than 292 years after the first record)");
	CHECK(first_error("0,R,0x10,4096,0\n", SSD_TRACE_ALIBABA) == SSD_EPARSE);
	CHECK(strstr(msg, ":1: field 3 (offset) '0x10' is not a number"));
}

/* ---- Tencent ---- */

TEST(trace_tencent_reads_seconds_sectors_and_volume)
{
	/* rows of 2018-10-01 as published; IOType 0 read, 1 write */
	CHECK(read_all(write_text(
		"Timestamp,Offset,Size,IOType,VolumeID\n"
		"1538323200,12910952,128,0,1063\n"
		"1538323200,6338688,8,1,1627\n"
		"1538323201,1904106400,384,0,1360\n"), SSD_TRACE_TENCENT) == 0);
	CHECK(nrec == 3);
	CHECK_REC(0, SSD_TOP_READ, 12910952 * S, 128 * S, 0, 1063);
	CHECK_REC(1, SSD_TOP_WRITE, 6338688 * S, 8 * S, 0, 1627);
	CHECK_REC(2, SSD_TOP_READ, 1904106400 * S, 384 * S, SEC, 1360);
}

TEST(trace_tencent_errors)
{
	CHECK(first_error("1538323200,12910952,128,Read,1063\n", SSD_TRACE_TENCENT) ==
	      SSD_EPARSE);
	CHECK_MSG(1, "field 4 (IOType) 'Read' is neither 0 (read) nor 1 (write) "
		  "(expected Timestamp,Offset,Size,IOType,VolumeID)");
	CHECK(first_error("1538323200,12910952,,0,1063\n", SSD_TRACE_TENCENT) ==
	      SSD_EPARSE);
	CHECK_MSG(1, "field 3 (Size) '' is not a number (expected Timestamp,Offset,"
		  "Size,IOType,VolumeID)");
}

/* ---- blkparse ---- */

static const char blkparse_sample[] =
	"  8,0    3        1     0.000000000   697  G   W 223490 + 8 [kjournald]\n"
	"  8,0    3        2     0.000001829   697  P   N [kjournald]\n"
	"  8,0    3        3     0.000002197   697  Q   W 223490 + 8 [kjournald]\n"
	"  8,0    3        4     0.000005533   697  M   W 223498 + 8 [kjournald]\n"
	"  8,0    3        5     0.000008607   697  Q  WS 3417048 + 8 [kjournald]\n"
	"  8,16   1        6     0.001000000  1234  Q   R 100 + 16 [fio]\n"
	"  8,16   1        7     0.002000000  1234  Q   D 2048 + 2048 [fstrim]\n"
	"  8,0    0        8     0.003000000   700  Q FWS [jbd2/sda1-8]\n"
	"  8,0    0        9     0.003500000   700  Q WFS 5000 + 8 [jbd2/sda1-8]\n"
	"  8,0    0       10     0.004000000   700  Q   N [kworker/0:1]\n"
	"  8,0    0        0     0.004100000   700  m   N cfq700 alloced\n"
	"  8,0    1       11     0.005000000     0  C   W 223490 + 56 [0]\n"
	"253,1    0       12     0.006000000   800  Q  RA 8 + 8 [Web Content]\n"
	"  8,0    0       13     0.007000000   800  Q   R 96 [sg_inq]\n"
	"  8,0    0       14     0.008000000   800  U   N [kjournald] 1\n"
	"CPU0 (8,0):\n"
	" Reads Queued:           0,        0KiB\t Writes Queued:          13,       52KiB\n"
	" Read Dispatches:        0,        0KiB\t Write Dispatches:        0,        0KiB\n"
	"Total (8,0):\n"
	" Reads Queued:           0,        0KiB\t Writes Queued:          13,       52KiB\n"
	"\n"
	"Throughput (R/W): 0KiB/s / 17KiB/s\n"
	"Events (8,0): 157 entries\n"
	"Skips: 0 forward (0 -   0.0%)\n";

TEST(trace_blkparse_reads_queue_events_only)
{
	CHECK(read_all(write_text(blkparse_sample), SSD_TRACE_BLKPARSE) == 0);
	CHECK(nrec == 7);
	uint32_t sda = 8 << 20, sdb = 8 << 20 | 16, dm1 = 253u << 20 | 1;
	/* times from the first Q (0.000002197 s) */
	CHECK_REC(0, SSD_TOP_WRITE, 223490 * S, 8 * S, 0, sda);
	CHECK_REC(1, SSD_TOP_WRITE, 3417048 * S, 8 * S, 6410, sda);
	CHECK_REC(2, SSD_TOP_READ, 100 * S, 16 * S, 997803, sdb);
	CHECK_REC(3, SSD_TOP_TRIM, 2048 * S, 2048 * S, 1997803, sdb);
	CHECK_REC(4, SSD_TOP_SYNC, 0, 0, 2997803, sda);
	CHECK_REC(5, SSD_TOP_WRITE, 5000 * S, 8 * S, 3497803, sda);
	CHECK_REC(6, SSD_TOP_READ, 8 * S, 8 * S, 5997803, dm1);
}

TEST(trace_blkparse_errors)
{
	CHECK(first_error("  8,0    3        3     0.000002197   697  Q   W abc + 8 "
			  "[kjournald]\n", SSD_TRACE_BLKPARSE) == SSD_EPARSE);
	CHECK_MSG(1, "field 8 (SECTOR) 'abc' is not a number (expected MAJ,MIN CPU SEQ "
		  "SECONDS PID ACTION RWBS SECTOR + SECTORS [PROCESS])");
	CHECK(first_error("CPU0 (8,0):\n  8,0    3        3     0.000002197   697  Q   X "
			  "223490 + 8 [kjournald]\n", SSD_TRACE_BLKPARSE) == SSD_EPARSE);
	CHECK_MSG(2, "field 7 (RWBS) 'X' is no RWBS (F, then D, W, R or N, then F, A, "
		  "S, M) (expected MAJ,MIN CPU SEQ SECONDS PID ACTION RWBS SECTOR + "
		  "SECTORS [PROCESS])");
	CHECK(first_error("  8,0    3        3     0.000002197   697  Q   W 223490 + "
			  "[kjournald]\n", SSD_TRACE_BLKPARSE) == SSD_EPARSE);
	CHECK(strstr(msg, ":1: field 10 (SECTORS) '[kjournald]' is not a number"));
	CHECK(first_error("  8,0    3        3     0.000002197   697  Q   W 223490 +\n",
			  SSD_TRACE_BLKPARSE) == SSD_EPARSE);
	CHECK_MSG(1, "no count of sectors after '223490 +' (expected MAJ,MIN CPU SEQ "
		  "SECONDS PID ACTION RWBS SECTOR + SECTORS [PROCESS])");
	CHECK(first_error("  8,0    3        3     0.0000x2197   697  G   W 1 + 8 [k]\n",
			  SSD_TRACE_BLKPARSE) == SSD_EPARSE);
	CHECK(strstr(msg, ":1: field 4 (TIME) '0.0000x2197' is not a number"));
	CHECK(first_error("  8,0    3        3\n", SSD_TRACE_BLKPARSE) == SSD_EPARSE);
	CHECK_MSG(1, "3 fields (expected MAJ,MIN CPU SEQ SECONDS PID ACTION RWBS "
		  "SECTOR + SECTORS [PROCESS])");
	CHECK(first_error("4096,0 3 3 0.1 697 Q W 1 + 8 [k]\n", SSD_TRACE_BLKPARSE) ==
	      SSD_EPARSE);
	CHECK(strstr(msg, ":1: field 1 (MAJ,MIN) '4096,0' is out of range"));
	CHECK(first_error("8,0 3 3 0.1 697 Q N 1 + 8 [k]\n", SSD_TRACE_BLKPARSE) ==
	      SSD_EPARSE);
	CHECK(strstr(msg, ":1: field 7 (RWBS) 'N' says no data (N) but the event "
		     "has sectors"));
}

/* ---- blktrace's binary files ---- */

#define TC(x) ((uint32_t)(x) << 16)
#define TC_READ (1u << 0)
#define TC_WRITE (1u << 1)
#define TC_FLUSH (1u << 2)
#define TC_SYNC (1u << 3)
#define TC_QUEUE (1u << 4)
#define TC_COMPLETE (1u << 7)
#define TC_PC (1u << 9)
#define TC_NOTIFY (1u << 10)
#define TC_DISCARD (1u << 13)
#define TA_QUEUE 1
#define TA_GETRQ 4
#define TA_COMPLETE 8
#define TA_CGROUP (1u << 8)

static void put(unsigned char *p, int n, uint64_t v, int big)
{
	for (int i = 0; i < n; i++)
		p[big ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

/* A struct blk_io_trace (48 bytes) and its pdu at b, in the byte order
 * `big`: its length. */
static size_t blk(unsigned char *b, int big, uint32_t seq, uint64_t time,
		  uint64_t sector, uint32_t bytes, uint32_t action, uint32_t dev,
		  uint16_t pdu_len)
{
	memset(b, 0, 48u + pdu_len);
	put(b, 4, 0x65617407, big);
	put(b + 4, 4, seq, big);
	put(b + 8, 8, time, big);
	put(b + 16, 8, sector, big);
	put(b + 24, 4, bytes, big);
	put(b + 28, 4, action, big);
	put(b + 32, 4, 4162, big);
	put(b + 36, 4, dev, big);
	put(b + 40, 4, 3, big);
	put(b + 46, 2, pdu_len, big);
	for (int i = 0; i < pdu_len; i++)
		b[48 + i] = (unsigned char)('a' + i % 26);
	return 48u + pdu_len;
}

#define SDA (8u << 20)

/* A trace of queue events among others: its length. */
static size_t blk_sample(unsigned char *b, int big)
{
	size_t n = 0;
	/* the process name note, and the timestamp note (whose action is 1,
	 * as a queue event's, under the notify category) */
	n += blk(b + n, big, 0, 100, 0, 0, TC(TC_NOTIFY) | 0, SDA, 16);
	n += blk(b + n, big, 0, 200, 0, 0, TC(TC_NOTIFY) | 1, SDA, 8);
	n += blk(b + n, big, 1, 5000, 1000, 4096, TC(TC_QUEUE | TC_WRITE | TC_SYNC) |
		 TA_QUEUE, SDA, 0);
	n += blk(b + n, big, 2, 5100, 1000, 4096, TC(TC_QUEUE | TC_WRITE) | TA_GETRQ,
		 SDA, 0);
	/* a read queued with its cgroup id in the pdu */
	n += blk(b + n, big, 3, 6000, 8, 512, TC(TC_QUEUE | TC_READ) | TA_CGROUP |
		 TA_QUEUE, SDA | 16, 8);
	n += blk(b + n, big, 4, 7000, 2048, 1 << 20, TC(TC_QUEUE | TC_WRITE |
		 TC_DISCARD) | TA_QUEUE, SDA, 0);
	n += blk(b + n, big, 5, 8000, 0, 0, TC(TC_QUEUE | TC_WRITE | TC_FLUSH |
		 TC_SYNC) | TA_QUEUE, SDA, 0);
	n += blk(b + n, big, 6, 9000, 1000, 4096, TC(TC_COMPLETE | TC_WRITE) |
		 TA_COMPLETE, SDA, 0);
	/* a SCSI passthrough command, and a flush-less empty read */
	n += blk(b + n, big, 7, 9500, 0, 96, TC(TC_QUEUE | TC_PC) | TA_QUEUE, SDA, 6);
	n += blk(b + n, big, 8, 9600, 0, 0, TC(TC_QUEUE) | TA_QUEUE, SDA, 0);
	return n;
}

static unsigned char bbuf[4096];

static void check_blk_sample(void)
{
	CHECK(nrec == 4);
	CHECK_REC(0, SSD_TOP_WRITE, 1000 * S, 4096, 0, SDA);
	CHECK_REC(1, SSD_TOP_READ, 8 * S, 512, 1000, SDA | 16);
	CHECK_REC(2, SSD_TOP_TRIM, 2048 * S, 1 << 20, 2000, SDA);
	CHECK_REC(3, SSD_TOP_SYNC, 0, 0, 3000, SDA);
}

TEST(trace_blktrace_both_byte_orders)
{
	for (int big = 0; big < 2; big++) {
		size_t n = blk_sample(bbuf, big);
		CHECK(read_all(write_bytes(bbuf, n), SSD_TRACE_BLKTRACE) == 0);
		check_blk_sample();
		if (t_failed_now)
			return;
	}
}

TEST(trace_blktrace_auto_and_gzip)
{
	size_t n = blk_sample(bbuf, 0);
	struct ssd_trace *t;
	CHECK(write_gz(bbuf, n));
	CHECK(ssd_trace_open(path, SSD_TRACE_AUTO, &t, err, sizeof err) == 0);
	ssd_trace_all_devices(t);
	CHECK(ssd_trace_fmt(t) == SSD_TRACE_BLKTRACE);
	CHECK(ssd_trace_iolog_version(t) == 0);
	nrec = 0;
	while (nrec < MAXREC && ssd_trace_next(t, &rec[nrec]) == 1)
		nrec++;
	CHECK(ssd_trace_line(t) == 10);
	/* read again from the first record: the times start at 0 again */
	CHECK(ssd_trace_rewind(t) == 0);
	struct ssd_trace_rec r;
	CHECK(ssd_trace_next(t, &r) == 1 && r.ts == 0 && r.offset == 1000 * S);
	ssd_trace_close(t);
	unlink(path);
	check_blk_sample();
	/* big-endian, plain */
	n = blk_sample(bbuf, 1);
	CHECK(read_all(write_bytes(bbuf, n), SSD_TRACE_AUTO) == 0);
	check_blk_sample();
}

TEST(trace_blktrace_truncated_and_bad_records)
{
	for (int big = 0; big < 2; big++) {
		size_t n = blk_sample(bbuf, big);
		/* 20 bytes of one more record */
		blk(bbuf + n, big, 9, 9700, 1, 512, TC(TC_QUEUE) | TA_QUEUE, SDA, 0);
		CHECK(read_all(write_bytes(bbuf, n + 20), SSD_TRACE_BLKTRACE) ==
		      SSD_EPARSE);
		CHECK(nrec == 4);
		char want[128];
		snprintf(want, sizeof want, "%s: byte %zu: truncated record: 20 of 48 "
			 "bytes", path, n);
		CHECKF(!strcmp(msg, want), "got: %s", msg);
		/* a record whose payload is cut */
		n = blk(bbuf, big, 0, 100, 0, 0, TC(TC_NOTIFY), SDA, 16);
		CHECK(read_all(write_bytes(bbuf, n - 6), SSD_TRACE_BLKTRACE) ==
		      SSD_EPARSE);
		snprintf(want, sizeof want, "%s: byte 0: truncated record: 10 of its 16 "
			 "payload bytes", path);
		CHECKF(!strcmp(msg, want), "got: %s", msg);
	}
	size_t n = blk(bbuf, 0, 1, 5000, 1000, 4096, TC(TC_QUEUE) | TA_QUEUE, SDA, 0);
	memcpy(bbuf + n, "not a blktrace record, not at all!", 34);
	memset(bbuf + n + 34, 0, 14);
	CHECK(read_all(write_bytes(bbuf, n + 48), SSD_TRACE_BLKTRACE) == SSD_EPARSE);
	CHECK(nrec == 1);
	CHECKF(strstr(msg, ": byte 48: bad magic 0x20746f6e (expected 0x65617407, a "
		      "blktrace record, in either byte order)"), "got: %s", msg);
	/* version 8 */
	n = blk(bbuf, 0, 1, 5000, 1000, 4096, TC(TC_QUEUE) | TA_QUEUE, SDA, 0);
	bbuf[0] = 8;
	CHECK(read_all(write_bytes(bbuf, n), SSD_TRACE_BLKTRACE) == SSD_EPARSE);
	CHECKF(strstr(msg, ": byte 0: blktrace version 8 (expected 7)"), "got: %s", msg);
	/* a sector past 2^64 bytes */
	n = blk(bbuf, 0, 1, 5000, 1ULL << 55, 4096, TC(TC_QUEUE) | TA_QUEUE, SDA, 0);
	CHECK(read_all(write_bytes(bbuf, n), SSD_TRACE_BLKTRACE) == SSD_EPARSE);
	CHECKF(strstr(msg, ": byte 0: sector 36028797018963968 + 4096 bytes is past "
		      "2^64 bytes"), "got: %s", msg);
	/* an empty file is an empty trace */
	CHECK(read_all(write_bytes("", 0), SSD_TRACE_BLKTRACE) == 0 && nrec == 0);
}

/* ---- gzip, for the text formats ---- */

TEST(trace_gzip_text_read_transparently)
{
	static const char text[] = "Timestamp,Offset,Size,IOType,VolumeID\n"
				   "1538323200,12910952,128,0,1063\n"
				   "1538323205,6338688,8,1,1627\n";
	CHECK(read_all(write_gz(text, strlen(text)), SSD_TRACE_TENCENT) == 0);
	CHECK(nrec == 2);
	CHECK_REC(0, SSD_TOP_READ, 12910952 * S, 128 * S, 0, 1063);
	CHECK_REC(1, SSD_TOP_WRITE, 6338688 * S, 8 * S, 5 * SEC, 1627);
	CHECK(read_all(write_gz(blkparse_sample, strlen(blkparse_sample)),
		       SSD_TRACE_BLKPARSE) == 0);
	CHECK(nrec == 7);
	CHECK_REC(6, SSD_TOP_READ, 8 * S, 8 * S, 5997803, 253u << 20 | 1);
}

/* A .gz trace cut short was read on into its cut last line ("trunc.iolog.gz:259:
 * 1 fields (...)", or worse a record with a cut length): the reader says
 * the compressed data ends early, after the last whole line (or byte of
 * whole blktrace records). */
TEST(trace_gzip_cut_short_says_so)
{
	static char text[4096], gz[4096];
	int len = snprintf(text, sizeof text, "fio version 3 iolog\n0 f add\n");
	for (int i = 0; i < 50; i++)
		len += snprintf(text + len, sizeof text - (size_t)len,
				"%d f write %u 4096\n", i * 17,
				(unsigned)(i * 2654435761u % 100000) * 4096);
	CHECK(write_gz(text, (size_t)len));
	FILE *f = fopen(path, "rb");
	CHECK(f);
	size_t n = fread(gz, 1, sizeof gz, f);
	fclose(f);
	unlink(path);
	CHECK(n > 100 && n < sizeof gz);
	int cuts = 0;
	for (size_t cut = 30; cut < n; cut += 37, cuts++) {
		CHECK(read_all(write_bytes(gz, cut), SSD_TRACE_IOLOG) ==
		      SSD_EPARSE);
		/* after the header and the records read (or before the
		 * header is whole: line 0) */
		int line = nrec + 1;
		if (!nrec && strstr(msg, "(after line 0)"))
			line = 0;
		char want[128];
		snprintf(want, sizeof want, "%s: compressed data ends early "
			 "(after line %d)", path, line);
		CHECKF(!strcmp(msg, want), "cut at %zu: %s", cut, msg);
	}
	CHECK(cuts > 5);
	/* whole, it reads to its end */
	CHECK(read_all(write_bytes(gz, n), SSD_TRACE_IOLOG) == 0 && nrec == 51);
	/* blktrace: the bytes of the whole records before the cut */
	n = blk_sample(bbuf, 0);
	CHECK(write_gz(bbuf, n));
	f = fopen(path, "rb");
	CHECK(f);
	n = fread(gz, 1, sizeof gz, f);
	fclose(f);
	unlink(path);
	CHECK(read_all(write_bytes(gz, n - 4), SSD_TRACE_AUTO) == SSD_EPARSE);
	CHECKF(strstr(msg, ": compressed data ends early (after byte "), "got: %s",
	       msg);
	/* a plain file's last line needs no newline */
	CHECK(read_all(write_text("fio version 3 iolog\n0 f add\n"
				  "0 f write 0 4096"), SSD_TRACE_IOLOG) == 0);
	CHECK(nrec == 2);
}

TEST(trace_rewind_starts_times_again)
{
	struct ssd_trace *t;
	CHECK(write_text("0,303567,3584,w,10.5\n1,55590,3072,r,11.5\n"));
	CHECK(ssd_trace_open(path, SSD_TRACE_SPC, &t, err, sizeof err) == 0);
	ssd_trace_all_devices(t);
	struct ssd_trace_rec r;
	for (int pass = 0; pass < 2; pass++) {
		CHECK(ssd_trace_next(t, &r) == 1 && r.ts == 0 && r.dev == 0);
		CHECK(ssd_trace_next(t, &r) == 1 && r.ts == SEC && r.dev == 1);
		CHECK(ssd_trace_line(t) == 2);
		CHECK(ssd_trace_next(t, &r) == 0);
		CHECK(ssd_trace_rewind(t) == 0);
	}
	ssd_trace_close(t);
	unlink(path);
}

/* A request of 0 bytes moves nothing, and fio's replay ends silently at
 * one: every text reader refuses it with its line, unless the caller
 * takes them (convert leaves them out, stat counts them); blktrace's and
 * blkparse's queue events of 0 bytes are no requests and are passed
 * over. */
TEST(trace_zero_length_requests_are_refused_by_every_text_reader)
{
	static const struct {
		int fmt;
		const char *text;
		int line;
		const char *op;
	} cases[] = {
		{SSD_TRACE_IOLOG, "fio version 2 iolog\nf add\nf write 0 4096\n"
		 "f write 4096 0\n", 4, "write"},
		{SSD_TRACE_IOLOG, "fio version 3 iolog\n0 f add\n5 f trim 0 0\n",
		 3, "trim"},
		{SSD_TRACE_MSR, "128166385295514663,hm,0,Read,7014912,0,26\n", 1,
		 "read"},
		{SSD_TRACE_SPC, "0,303567,3584,w,10.5\n1,55590,0,r,11.5\n", 2,
		 "read"},
		{SSD_TRACE_DISKSIM, "13.191135 30 0 0 1\n", 1, "read"},
		{SSD_TRACE_MQSIM, "4851300 1 524288 0 0\n", 1, "write"},
		{SSD_TRACE_ALIBABA, "0,W,126703644672,0,1577808000000626\n", 1,
		 "write"},
		{SSD_TRACE_TENCENT, "1538323200,12910952,0,1,1063\n", 1, "write"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		CHECKF(first_error(cases[i].text, cases[i].fmt) == SSD_EPARSE,
		       "case %zu: %s", i, msg);
		char what[200];
		snprintf(what, sizeof what, "a %s of 0 bytes (expected a length "
			 "above 0; fio's replay ends at such a line, ssdlab trace "
			 "convert leaves it out)", cases[i].op);
		CHECKF(msg_is(cases[i].line, what), "case %zu: %s", i, msg);
		/* taken when asked for */
		struct ssd_trace *t;
		CHECK(write_text(cases[i].text));
		CHECK(ssd_trace_open(path, cases[i].fmt, &t, err, sizeof err) == 0);
		ssd_trace_all_devices(t);
		ssd_trace_keep_empty(t);
		struct ssd_trace_rec r;
		int k, empty = 0;
		while ((k = ssd_trace_next(t, &r)) == 1)
			empty += r.op <= SSD_TOP_TRIM && !r.len;
		CHECKF(k == 0 && empty == 1, "case %zu: %d, %s", i, k,
		       ssd_trace_error(t));
		ssd_trace_close(t);
		unlink(path);
	}
	/* blkparse: a queue event of no sectors is no request */
	CHECK(read_all(write_text("  8,0 0 1 0.000000000 1 Q W 100 + 0 [x]\n"
				  "  8,0 0 2 0.000001000 1 Q W 100 + 8 [x]\n"),
		       SSD_TRACE_BLKPARSE) == 0);
	CHECK(nrec == 1 && rec[0].len == 8 * S);
}

/* ---- fio's iolog (trace.c) ---- */

TEST(trace_iolog_v2_actions)
{
	CHECK(read_all(write_text("fio version 2 iolog\n"
				  "/dev/sdb add\n"
				  "/dev/sdb open\n"
				  "/dev/sdb write 0 4096\n"
				  "/dev/sdb read 8192 512\n"
				  "/dev/sdb trim 1048576 65536\n"
				  "/dev/sdb sync 0 0\n"
				  "/dev/sdb datasync 0 0\n"
				  "/dev/sdb wait 10 0\n"
				  "/dev/sdb close\n"), SSD_TRACE_AUTO) == 0);
	CHECK(nrec == 9);
	CHECK_REC(0, SSD_TOP_FILE, 0, 0, -1, 0);
	CHECK_REC(1, SSD_TOP_FILE, 0, 0, -1, 0);
	CHECK_REC(2, SSD_TOP_WRITE, 0, 4096, -1, 0);
	CHECK_REC(3, SSD_TOP_READ, 8192, 512, -1, 0);
	CHECK_REC(4, SSD_TOP_TRIM, 1048576, 65536, -1, 0);
	CHECK_REC(5, SSD_TOP_SYNC, 0, 0, -1, 0);
	CHECK_REC(6, SSD_TOP_DATASYNC, 0, 0, -1, 0);
	CHECK_REC(7, SSD_TOP_WAIT, 0, 0, 10 * MS, 0);
	CHECK_REC(8, SSD_TOP_FILE, 0, 0, -1, 0);
	for (int i = 0; i < nrec; i++)
		CHECK(rec[i].file == 0);
}

TEST(trace_iolog_v3_times_and_files)
{
	static const char v3[] = "fio version 3 iolog\n"
				 "0 /dev/sdb add\n"
				 "0 /dev/sdc add\n"
				 "1 /dev/sdb open\n"
				 "100 /dev/sdb write 0 4096\n"
				 "250 /dev/sdc read 4096 4096\n"
				 "300 /dev/sdb trim 0 8192\n"
				 "400 /dev/sdc sync 0 0\n"
				 "500 /dev/sdb close\n";
	struct ssd_trace *t;
	CHECK(write_gz(v3, strlen(v3)));
	CHECK(ssd_trace_open(path, SSD_TRACE_AUTO, &t, err, sizeof err) == 0);
	CHECK(ssd_trace_fmt(t) == SSD_TRACE_IOLOG);
	CHECK(ssd_trace_iolog_version(t) == 3);
	nrec = 0;
	while (nrec < MAXREC && ssd_trace_next(t, &rec[nrec]) == 1)
		nrec++;
	CHECK(nrec == 8);
	CHECK(!strcmp(ssd_trace_file_name(t, 0), "/dev/sdb"));
	CHECK(!strcmp(ssd_trace_file_name(t, 1), "/dev/sdc"));
	CHECK(!ssd_trace_file_name(t, 2));
	ssd_trace_close(t);
	unlink(path);
	/* TIME in us */
	CHECK_REC(0, SSD_TOP_FILE, 0, 0, 0, 0);
	CHECK(rec[1].op == SSD_TOP_FILE && rec[1].file == 1);
	CHECK_REC(2, SSD_TOP_FILE, 0, 0, 1000, 0);
	CHECK_REC(3, SSD_TOP_WRITE, 0, 4096, 100000, 0);
	CHECK_REC(4, SSD_TOP_READ, 4096, 4096, 250000, 0);
	CHECK(rec[4].file == 1 && rec[3].file == 0);
	CHECK_REC(5, SSD_TOP_TRIM, 0, 8192, 300000, 0);
	CHECK_REC(6, SSD_TOP_SYNC, 0, 0, 400000, 0);
	CHECK(rec[6].file == 1);
	CHECK_REC(7, SSD_TOP_FILE, 0, 0, 500000, 0);
}

TEST(trace_iolog_errors)
{
	/* fio's version 1 logs have no header: neither iolog nor blktrace */
	CHECK(read_all(write_text("0,0,4096\n"), SSD_TRACE_AUTO) == SSD_EPARSE);
	CHECK(strstr(msg, ": neither a fio iolog"));
	CHECK(read_all(write_text("fio version 1 iolog\n"), SSD_TRACE_AUTO) ==
	      SSD_EPARSE);
	CHECK(strstr(msg, ":1: not an iolog header: 'fio version 1 iolog'"));
	CHECK(read_all(write_text("fio version 2 iolog\n/dev/sdb add\n"
				  "/dev/sdb frobnicate 0 1\n"), SSD_TRACE_AUTO) ==
	      SSD_EPARSE);
	CHECK_MSG(3, "unknown action 'frobnicate' (expected read, write, trim, sync, "
		  "datasync, wait)");
	CHECK(read_all(write_text("fio version 2 iolog\n/dev/sdb add\n"
				  "/dev/sdc write 0 4096\n"), SSD_TRACE_AUTO) ==
	      SSD_EPARSE);
	CHECK_MSG(3, "file '/dev/sdc' was not added before (expected a line "
		  "\"/dev/sdc add\" first)");
	CHECK(read_all(write_text("fio version 3 iolog\n0 /dev/sdb add\n"
				  "0 /dev/sdc open\n"), SSD_TRACE_AUTO) == SSD_EPARSE);
	CHECK_MSG(3, "file '/dev/sdc' was not added before (expected a line "
		  "\"TIME /dev/sdc add\" first)");
	CHECK(read_all(write_text("fio version 3 iolog\n0 /dev/sdb add\n"
				  "10 /dev/sdb wait 10 0\n"), SSD_TRACE_AUTO) ==
	      SSD_EPARSE);
	CHECK_MSG(3, "'wait' in a version 3 iolog (its times say when)");
	CHECK(read_all(write_text("fio version 3 iolog\n0 /dev/sdb add\n"
				  "x /dev/sdb read 0 1\n"), SSD_TRACE_AUTO) ==
	      SSD_EPARSE);
	CHECK(strstr(msg, ":3: 'x' is not a time"));
	/* one field is one field, not "1 fields" */
	CHECK(read_all(write_text("fio version 3 iolog\n0 /dev/sdb add\n181\n"),
		       SSD_TRACE_AUTO) == SSD_EPARSE);
	CHECK_MSG(3, "1 field (expected \"TIME FILE ACTION\" or \"TIME FILE "
		  "ACTION OFFSET LENGTH\")");
}

/* fio compares the header's words: blanks after it are taken; a request
 * running past 2^64 bytes is refused, as the other readers refuse it. */
TEST(trace_iolog_header_blanks_and_the_end_of_the_address_space)
{
	CHECK(read_all(write_text("fio version 3 iolog  \t\r\n0 f add\n"
				  "1 f write 4096 4096\n"), SSD_TRACE_AUTO) == 0);
	CHECK(nrec == 2);
	CHECK_REC(1, SSD_TOP_WRITE, 4096, 4096, 1000, 0);
	CHECK(read_all(write_text("fio version 3 iolog\n0 f add\n"
				  "0 f write 18446744073709551615 4096\n"),
			SSD_TRACE_AUTO) == SSD_EPARSE);
	CHECK(strstr(msg, ":3: offset 18446744073709551615 + length 4096 is past 2^64 bytes"));
}

/* ---- any input ---- */

static uint64_t rnd_state = 88172645463325252ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* The readers on lines of random pieces of their own syntax: each ends
 * (no crash) with an end, or an error naming the file and its line. */
TEST(trace_random_lines_end_or_fail_cleanly)
{
	static const char *const bits[] = {"0", "1", "7", "512", "18446744073709551615",
		"9223372036854775808", "-", "+", ",", " ", "\t", ".", "e", "e-5", "R",
		"W", "r", "w", "Read", "Write", "Q", "WS", "FWS", "D", "N", "[p]",
		"(1)", "8,0", "x", "#", "0x1f", "\xef\xbb\xbf", "\r"};
	static const int fmts[] = {SSD_TRACE_BLKPARSE, SSD_TRACE_MSR, SSD_TRACE_SPC,
		SSD_TRACE_DISKSIM, SSD_TRACE_MQSIM, SSD_TRACE_ALIBABA,
		SSD_TRACE_TENCENT};
	static char text[8192];
	for (int round = 0; round < 300; round++) {
		size_t n = 0;
		for (int line = 0; line < 8; line++) {
			int k = (int)(rnd() % 14);
			for (int i = 0; i < k && n < sizeof text - 64; i++) {
				const char *b = bits[rnd() % (sizeof bits / sizeof bits[0])];
				memcpy(text + n, b, strlen(b));
				n += strlen(b);
			}
			text[n++] = '\n';
		}
		text[n] = 0;
		int fmt = fmts[round % 7];
		int rc = read_all(write_text(text), fmt);
		CHECKF(rc == 0 || (rc == SSD_EPARSE && !strncmp(msg, path, strlen(path)) &&
				   msg[strlen(path)] == ':' && !strchr(msg, '\n')),
		       "%s: rc %d: %s", ssd_trace_fmt_name(fmt), rc, msg);
	}
}

TEST(trace_random_blktrace_bytes_end_or_fail_cleanly)
{
	for (int round = 0; round < 300; round++) {
		size_t n = 0;
		for (int k = (int)(rnd() % 6); k > 0; k--) {
			uint32_t action = (uint32_t)rnd();
			if (rnd() % 2)
				action = (action & 0xffff0000u) | TA_QUEUE;
			size_t m = blk(bbuf + n, (int)(rnd() % 2), 0, rnd() >> (rnd() % 64),
				       rnd() >> (rnd() % 64), (uint32_t)rnd(), action,
				       (uint32_t)rnd(), (uint16_t)(rnd() % 64));
			/* now and then a byte broken, or the record cut */
			if (rnd() % 4 == 0)
				bbuf[n + rnd() % m] = (unsigned char)rnd();
			if (rnd() % 8 == 0)
				m = rnd() % m;
			n += m;
		}
		int rc = read_all(write_bytes(bbuf, n), SSD_TRACE_BLKTRACE);
		CHECKF(rc == 0 || (rc == SSD_EPARSE && strstr(msg, ": byte ")),
		       "rc %d: %s", rc, msg);
		for (int i = 0; i < nrec; i++)
			CHECK(rec[i].ts >= 0 && rec[i].len <= UINT32_MAX &&
			      rec[i].op <= SSD_TOP_SYNC);
	}
}

#ifndef TRACE_MUTATIONS
#define TRACE_MUTATIONS 700
#endif

/* The samples above with bytes changed, dropped or doubled. */
TEST(trace_mutated_samples_end_or_fail_cleanly)
{
	static const struct { int fmt; const char *text; } samples[] = {
		{SSD_TRACE_MSR, "Timestamp,Hostname,DiskNumber,Type,Offset,Size,"
		 "ResponseTime\n128166385295514663,hm,0,Write,9056014336,2048,2833\n"
		 "128166385295614663,hm,0,Read,7014912,4096,26\n"},
		{SSD_TRACE_SPC, "0,303567,3584,w,0.000000\n1,55596,3072,r,0.078643\n"},
		{SSD_TRACE_DISKSIM, "13.191135 30 0 5 1\n17.829285 20 576560 6 1\n"},
		{SSD_TRACE_MQSIM, "4851300 1 524288 16 0\n4864300 1 524304 16 1\n"},
		{SSD_TRACE_ALIBABA, "device_id,opcode,offset,length,timestamp\n"
		 "0,R,126703644672,4096,1577808000000626\n"},
		{SSD_TRACE_TENCENT, "1538323200,12910952,128,0,1063\n"
		 "1538323201,6338688,8,1,1627\n"},
		{SSD_TRACE_BLKPARSE, "  8,0    3        3     0.000002197   697  Q   W "
		 "223490 + 8 [kjournald]\n  8,0    0        8     0.003000000   700  Q "
		 "FWS [jbd2/sda1-8]\n  8,0    0       13     0.007000000   800  Q   R 96 "
		 "[sg_inq]\nCPU0 (8,0):\n"},
		{SSD_TRACE_AUTO, "fio version 3 iolog\n0 /dev/sdb add\n"
		 "100 /dev/sdb write 0 4096\n"},
	};
	static const char junk[] = "0123456789,.+-[] \t\nRWrwQDFNe#x\xef\r";
	static char text[1024];
	int nsamples = (int)(sizeof samples / sizeof samples[0]);
	for (int round = 0; round < TRACE_MUTATIONS; round++) {
		const char *s = samples[round % nsamples].text;
		size_t n = strlen(s);
		memcpy(text, s, n);
		for (int k = 1 + (int)(rnd() % 3); k > 0 && n; k--) {
			size_t at = rnd() % n;
			switch (rnd() % 3) {
			case 0:
				text[at] = junk[rnd() % (sizeof junk - 1)];
				break;
			case 1:
				memmove(text + at, text + at + 1, n - at - 1);
				n--;
				break;
			default:
				if (n < sizeof text - 1) {
					memmove(text + at + 1, text + at, n - at);
					n++;
				}
			}
		}
		int fmt = samples[round % nsamples].fmt;
		int rc = read_all(write_bytes(text, n), fmt);
		CHECKF(rc == 0 || (rc == SSD_EPARSE &&
				   !strncmp(msg, path, strlen(path)) &&
				   msg[strlen(path)] == ':' && !strchr(msg, '\n')),
		       "%s: rc %d: %s", ssd_trace_fmt_name(fmt), rc, msg);
	}
}

/* A trace of several devices: by default the first request of a second
 * device is an error naming both (Tencent's volumes, blkparse's disks
 * were merged into one stream); ssd_trace_device keeps one device's
 * records, ssd_trace_all_devices every one; a rewind starts again. */
TEST(trace_second_device_is_an_error_unless_chosen)
{
	static const char tc[] = "1538323200,0,8,1,1063\n"
				 "1538323200,0,8,1,2000\n"
				 "1538323201,8,8,0,1063\n";
	struct ssd_trace *t;
	struct ssd_trace_rec r;
	char want[400];
	CHECK(write_text(tc));
	CHECK(ssd_trace_open(path, SSD_TRACE_TENCENT, &t, err, sizeof err) == 0);
	for (int pass = 0; pass < 2; pass++) {
		CHECK(ssd_trace_next(t, &r) == 1 && r.dev == 1063);
		CHECK(ssd_trace_next(t, &r) == SSD_EPARSE);
		snprintf(want, sizeof want, "%s:2: a request of device 2000 after "
			 "those of device 1063 (expected one device: the trace holds "
			 "several; --device of ssdlab trace convert or stat picks one)",
			 path);
		CHECKF(!strcmp(ssd_trace_error(t), want), "%s", ssd_trace_error(t));
		CHECK(ssd_trace_rewind(t) == 0);
	}
	ssd_trace_device(t, 1063);
	CHECK(ssd_trace_next(t, &r) == 1 && r.dev == 1063 && r.op == SSD_TOP_WRITE);
	CHECK(ssd_trace_next(t, &r) == 1 && r.dev == 1063 && r.op == SSD_TOP_READ &&
	      r.ts == SEC);
	CHECK(ssd_trace_next(t, &r) == 0);
	CHECK(ssd_trace_rewind(t) == 0);
	ssd_trace_all_devices(t);
	int n = 0;
	while (ssd_trace_next(t, &r) == 1)
		n++;
	CHECK(n == 3);
	ssd_trace_close(t);
	unlink(path);
	/* blkparse names its disks MAJ,MIN */
	CHECK(write_text("  8,0    3        1     0.000000000  4162  Q  WS 2048 + 8 [a]\n"
			 "  8,16   0        1     0.000400000   377  Q   W 100 + 8 [dd]\n"));
	CHECK(read_all(path, SSD_TRACE_BLKPARSE) == 0 && nrec == 2);
	CHECK(write_text("  8,0    3        1     0.000000000  4162  Q  WS 2048 + 8 [a]\n"
			 "  8,16   0        1     0.000400000   377  Q   W 100 + 8 [dd]\n"));
	CHECK(ssd_trace_open(path, SSD_TRACE_BLKPARSE, &t, err, sizeof err) == 0);
	CHECK(ssd_trace_next(t, &r) == 1);
	CHECK(ssd_trace_next(t, &r) == SSD_EPARSE);
	CHECKF(strstr(ssd_trace_error(t), ":2: a request of device 8,16 after those "
		      "of device 8,0 "), "%s", ssd_trace_error(t));
	ssd_trace_close(t);
	unlink(path);
}
