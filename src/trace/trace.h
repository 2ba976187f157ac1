/*
 * trace.h -- block traces in the formats people have, read as one stream
 * of records in constant memory (a trace of a billion requests is read a
 * line at a time, never loaded), plain or gzip-compressed (zlib reads
 * both).
 *
 * Formats (docs/traces.md has a sample line of each and where to get the
 * public collections):
 *   iolog      fio's iolog, version 2 or 3 (by its first line)
 *   blktrace   blktrace's binary per-CPU files (the queue events)
 *   blkparse   blkparse's default text output
 *   msr        MSR Cambridge CSV: Timestamp,Hostname,DiskNumber,Type,
 *              Offset,Size,ResponseTime (Windows filetime, 100 ns)
 *   spc        SPC / UMass (Financial, WebSearch): ASU,LBA,Size,Opcode,
 *              Timestamp
 *   disksim    DiskSim ASCII: time device block size flags
 *   mqsim      MQSim ASCII: time device LBA sectors type
 *   alibaba    Alibaba cloud block traces: device_id,opcode,offset,length,
 *              timestamp
 *   tencent    Tencent CBS traces: Timestamp,Offset,Size,IOType,VolumeID
 *
 * Every record is a read, write, trim or sync with its offset and length
 * in bytes, the device (disk, ASU, volume) it names and, where the format
 * has one, its time in ns since the trace's first record (an iolog's are
 * its own, since the log started).
 *
 * A read, write or trim of 0 bytes moves nothing: every text format
 * refuses it with its file and line (fio's replay ends at such a line,
 * silently), unless the caller takes them (ssd_trace_keep_empty: trace
 * convert leaves them out, trace stat counts them).  blktrace's queue
 * events of 0 bytes are no requests (the kernel's flushes become syncs,
 * the rest are passed over), as blkparse's lines of them.
 */
#ifndef SSD_TRACE_H
#define SSD_TRACE_H

#include <stddef.h>
#include <stdint.h>

enum ssd_trace_fmt {
	SSD_TRACE_AUTO = 0, /* iolog or blktrace by their first bytes */
	SSD_TRACE_IOLOG,
	SSD_TRACE_BLKTRACE,
	SSD_TRACE_BLKPARSE,
	SSD_TRACE_MSR,
	SSD_TRACE_SPC,
	SSD_TRACE_DISKSIM,
	SSD_TRACE_MQSIM,
	SSD_TRACE_ALIBABA,
	SSD_TRACE_TENCENT,
	SSD_TRACE_NFMT
};

enum ssd_trace_op {
	SSD_TOP_READ = 0,  /* the same values as enum ssd_ddir */
	SSD_TOP_WRITE = 1,
	SSD_TOP_TRIM = 2,
	SSD_TOP_SYNC = 3,  /* fsync (iolog "sync"), a flush (blktrace) */
	SSD_TOP_DATASYNC = 4,
	SSD_TOP_WAIT = 5,  /* iolog v2 "wait": ts is the time to wait for */
	SSD_TOP_FILE = 6   /* iolog v2/v3 add/open/close of a file */
};

struct ssd_trace_rec {
	int64_t ts;         /* ns since the trace's first record (an iolog
	                       v3: since the log's start, its own times; a
	                       v2 wait: the time to wait until, since the
	                       job's start); -1 where the format has no
	                       time (iolog v2's requests) */
	int op;             /* enum ssd_trace_op */
	uint64_t offset;    /* bytes */
	uint64_t len;       /* bytes */
	uint32_t dev;       /* device, disk, ASU or volume; 0 if none */
	uint32_t file;      /* iolog: the file name's index
	                       (ssd_trace_file_name) */
};

struct ssd_trace;

/* The format named `name` ("iolog", "msr"...) into *fmt: 0, or -1 for a
 * name that is none of them.  ssd_trace_fmt_name: the name of a format. */
int ssd_trace_fmt_parse(const char *name, int *fmt);
const char *ssd_trace_fmt_name(int fmt);
/* The formats' names, comma-separated ("iolog, blktrace, ..."). */
const char *ssd_trace_fmt_list(void);

/* Open `path` (plain or gzip) as a trace of format fmt (SSD_TRACE_AUTO:
 * fio's iolog or blktrace, recognised by their first bytes).  0, or a
 * negative SSD_E* code with "PATH: what" in err. */
int ssd_trace_open(const char *path, int fmt, struct ssd_trace **out,
		   char *err, size_t errlen);
void ssd_trace_close(struct ssd_trace *t);

/* The next record: 1, 0 at the end, or a negative SSD_E* code with the
 * message in ssd_trace_error ("PATH:LINE: what is wrong (expected
 * ...)"; a binary file names the byte offset).  Lines that are blank or
 * comments, and a format's header line, are skipped. */
int ssd_trace_next(struct ssd_trace *t, struct ssd_trace_rec *r);
const char *ssd_trace_error(const struct ssd_trace *t);

/* The format of an open trace (an AUTO one resolved); an iolog's version
 * (2 or 3; 0 for other formats). */
int ssd_trace_fmt(const struct ssd_trace *t);
int ssd_trace_iolog_version(const struct ssd_trace *t);
/* The line (or record) number of the last record read. */
uint64_t ssd_trace_line(const struct ssd_trace *t);

/* An iolog's file names, by rec.file; NULL past the last. */
const char *ssd_trace_file_name(const struct ssd_trace *t, uint32_t i);

/* Hand on reads, writes and trims of 0 bytes instead of failing at
 * them (for tools that leave them out or count them). */
void ssd_trace_keep_empty(struct ssd_trace *t);

/* The devices a trace's records may name.  By default a trace holds one:
 * a record of a second device is an error naming both ("PATH:LINE: a
 * request of device B after those of device A (expected one device ...;
 * --device picks one)"), so that no reader merges several disks or
 * volumes into one stream without being told.  ssd_trace_device: only
 * the records of device dev are handed on (the others, skipped, are not
 * checked); ssd_trace_all_devices: every device's records (the caller
 * tells them apart).  An iolog names no device: its records are of 0. */
void ssd_trace_device(struct ssd_trace *t, uint32_t dev);
void ssd_trace_all_devices(struct ssd_trace *t);
/* A device as the format names it into buf: "8,16" for blktrace and
 * blkparse (MAJ << 20 | MIN), else the number. */
const char *ssd_trace_dev_name(int fmt, uint32_t dev, char *buf, size_t n);

/* Back to the first record (a job's loops=), keeping the file names. */
int ssd_trace_rewind(struct ssd_trace *t);

#endif
