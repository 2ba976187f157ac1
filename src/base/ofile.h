/*
 * ofile.h -- the files ssdlab writes: reports (--output), fio's logs
 * (write_*_log), write_iolog, scenarios' CSVs, gnuplot scripts, charts
 * and result.json, converted traces, and serve's report, logs and data
 * file.  Every one goes through this module, which promises one thing:
 * a file that could not be written whole is not left looking complete,
 * and the caller learns why, with the file's name.
 *
 * Three ways to write a file (enum ssd_ofile_mode):
 *
 *   REPLACE  the file is written under a temporary name beside it
 *            (.NAME.PID.N.tmp, in the same folder, so the rename stays
 *            on one file system), synced, and renamed over NAME at
 *            commit.  A reader sees the old file or the whole new one;
 *            a failure removes the temporary and leaves the old file.
 *   APPEND   the lines are gathered in such a temporary and added to
 *            NAME's end in one block at commit (fio's per_job_logs=0,
 *            where several jobs add to one log); a failure truncates
 *            NAME back to the length it had (removes it if made here).
 *   LIVE     written in place as it goes, for a log a user follows while
 *            it grows (serve's stats and power logs); a failure removes
 *            it, as the rows it lacks would not show.
 *
 * A name that is not a regular file -- a device (/dev/null, /dev/full),
 * a pipe, /dev/stdout, /dev/fd/N, anything under /dev/ or /proc/ -- is
 * written in place in every mode, appending, and never removed.  A
 * symbolic link to a file is followed: the file it names is replaced and
 * the link stays.  A replaced file keeps its permissions; a new one gets
 * 0666 less the umask, as fopen would give it.  A file that can be
 * written in a folder that cannot (no temporary beside it) is rewritten
 * in place, and emptied if that fails.
 *
 * Faults.  SQLite's test VFS fails the n-th write, sync or allocation to
 * show that nothing corrupt is left after any of them; this module does
 * the same for ssdlab's files.  The environment variable SSDLAB_FAULT
 * (or ssd_ofile_faults) names the operations to fail, as a comma list of
 * OP:N (fail the N-th such operation of the process, counted from 1) or
 * OP:N+ (the N-th and every later one: a disk that stays full), OP one
 * of open, write, fsync, rename, close.  A failed write reports ENOSPC,
 * the others EIO.  Example: SSDLAB_FAULT=write:3 ssdlab run ...
 *
 * Why a wrapper here rather than an LD_PRELOAD shim over write(2):
 * glibc's stdio calls its own internal write, not the exported symbol,
 * so a shim would never see fprintf's output; zlib's gzwrite and
 * nbdkit's process would each need their own arrangements; and the
 * faults would reach only a specially built binary.  Here the stdio
 * stream handed to the writers is a glibc cookie stream (fopencookie)
 * whose buffer this module flushes itself, so every write(2) the file
 * sees is one this module makes, counts and can fail -- in the binary
 * users run, which is where a test of "the disk filled up" must look.
 * The counters are the process's (the file system is, too): the only
 * mutable state outside a handle in the library, atomic, and read only
 * when SSDLAB_FAULT or ssd_ofile_faults set a fault.
 *
 * Errors: functions return 0 or a negative SSD_E* code (SSD_EIO for a
 * file that could not be written, SSD_ENOMEM) and put a one-line
 * message naming the file in err ("cannot write 'out.json': No space
 * left on device").
 */
#ifndef SSD_OFILE_H
#define SSD_OFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum ssd_ofile_mode {
	SSD_OFILE_REPLACE = 0, /* a temporary, renamed over the file at commit */
	SSD_OFILE_APPEND = 1,  /* gathered, added to the file's end at commit */
	SSD_OFILE_LIVE = 2     /* in place as it goes; removed on failure */
};

struct ssd_ofile;

/* Open `path` for writing in `mode`.  The temporary (REPLACE, APPEND) or
 * the file (LIVE) is made now, so that a folder that cannot be written
 * is found before any work is done.  On success *out is the handle, to
 * be ended by ssd_ofile_commit or ssd_ofile_discard; on failure *out is
 * NULL, nothing is left on disk and err names the file. */
int ssd_ofile_open(const char *path, int mode, struct ssd_ofile **out,
		   char *err, size_t errlen);

/* The stream to write with (fully buffered, 64 KiB); it lives until the
 * handle is ended.  Not for fclose, fileno or fseek. */
FILE *ssd_ofile_stream(struct ssd_ofile *o);

/* The name given to ssd_ofile_open. */
const char *ssd_ofile_path(const struct ssd_ofile *o);

/* Flush the stream; 0, or SSD_EIO if any write so far failed (LIVE
 * files are flushed after each row: the failure is known at once), with
 * the message in err.  The handle stays open either way. */
int ssd_ofile_flush(struct ssd_ofile *o, char *err, size_t errlen);

/* Finish the file: flush, check every write, fsync, close, then rename
 * the temporary over the name (REPLACE) or add it to the file's end
 * (APPEND).  0 when the whole file is in place; otherwise SSD_EIO with
 * the message in err, and the file is as the mode's paragraph above
 * says.  Frees the handle in both cases; o may be NULL (returns 0). */
int ssd_ofile_commit(struct ssd_ofile *o, char *err, size_t errlen);

/* Abandon the file (the work that was writing it failed): the temporary
 * is removed, a LIVE file made here removed, an APPEND file untouched.
 * Frees the handle; o may be NULL. */
void ssd_ofile_discard(struct ssd_ofile *o);

/* A stream over a descriptor opened elsewhere (standard output): written
 * in place with the same faults, line-buffered if `line` (a terminal),
 * else fully.  `name` is what messages call it ("standard output").  Its
 * commit flushes, checks every write and closes fd, never syncs it, and
 * says "write error on NAME: REASON"; a descriptor that was closed
 * before ssdlab started (>&-) is no error while nothing was written to
 * it.  0, or SSD_ENOMEM (*out NULL). */
int ssd_ofile_fdopen(int fd, const char *name, int line, struct ssd_ofile **out);

/* ---- files the caller keeps open itself (serve's data file) ----
 * The same faults, for a file descriptor written in place. */

/* pwrite(2) of the whole buffer (retried after a short write or EINTR):
 * 0 or a negative errno. */
int ssd_ofile_pwrite(int fd, const void *buf, size_t len, uint64_t off);
/* fdatasync(2): 0 or a negative errno. */
int ssd_ofile_datasync(int fd);
/* rename(2) of a file written by another program (gnuplot's charts):
 * 0 or a negative errno. */
int ssd_ofile_rename(const char *from, const char *to);

/* ---- fault injection ---- */

/* Set the faults from `spec` (the SSDLAB_FAULT syntax above; NULL: from
 * the environment; "" none) and restart the counts.  0, or SSD_EPARSE
 * for a spec that does not parse (then no fault is set). */
int ssd_ofile_faults(const char *spec);

#endif
