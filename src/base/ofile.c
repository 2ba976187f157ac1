/*
 * ofile.c -- the files ssdlab writes: temporaries renamed into place,
 * blocks appended whole, logs removed when they fail, and the faults a
 * test injects into all of them (ofile.h).
 *
 * Cost: one write(2) per 64 KiB of output (the stream's buffer), one
 * fsync(2) and one rename(2) per file; the fault check is an atomic add.
 */
#include "base/ofile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

#define OFILE_BUFSIZE (64u << 10) /* bytes per write(2) */

/* ---- faults ---- */

enum { OP_OPEN, OP_WRITE, OP_FSYNC, OP_RENAME, OP_CLOSE, OP_N };

static const char *const op_name[OP_N] = {
	[OP_OPEN] = "open", [OP_WRITE] = "write", [OP_FSYNC] = "fsync",
	[OP_RENAME] = "rename", [OP_CLOSE] = "close",
};

/* what a failed operation says: a full disk for a write, an I/O error
 * for the rest */
static const int op_errno[OP_N] = {
	[OP_OPEN] = EIO, [OP_WRITE] = ENOSPC, [OP_FSYNC] = EIO,
	[OP_RENAME] = EIO, [OP_CLOSE] = EIO,
};

struct fault {
	uint64_t at;    /* the operation to fail, counted from 1; 0 none */
	int persist;    /* and every one after it */
};

/* The process's faults and counts (ofile.h says why they are not a
 * handle's).  Set once from the environment, or by ssd_ofile_faults. */
static struct fault faults[OP_N];
static atomic_uint_least64_t counts[OP_N];
static pthread_once_t faults_once = PTHREAD_ONCE_INIT;

static int faults_parse(const char *spec, struct fault *out)
{
	memset(out, 0, OP_N * sizeof *out);
	const char *p = spec;
	while (*p) {
		const char *colon = strchr(p, ':');
		if (!colon)
			return SSD_EPARSE;
		int op = -1;
		for (int i = 0; i < OP_N; i++)
			if (strlen(op_name[i]) == (size_t)(colon - p) &&
			    !strncmp(op_name[i], p, (size_t)(colon - p)))
				op = i;
		char *end;
		errno = 0;
		unsigned long long n = strtoull(colon + 1, &end, 10);
		if (op < 0 || end == colon + 1 || errno || !n ||
		    colon[1] < '0' || colon[1] > '9')
			return SSD_EPARSE;
		out[op].at = n;
		if (*end == '+') {
			out[op].persist = 1;
			end++;
		}
		if ((*end && *end != ',') || (*end == ',' && !end[1]))
			return SSD_EPARSE;
		p = *end ? end + 1 : end;
	}
	return 0;
}

static void faults_from_env(void)
{
	const char *s = getenv("SSDLAB_FAULT");
	struct fault f[OP_N];
	if (s && !faults_parse(s, f))
		memcpy(faults, f, sizeof faults);
}

int ssd_ofile_faults(const char *spec)
{
	pthread_once(&faults_once, faults_from_env);
	if (!spec)
		spec = getenv("SSDLAB_FAULT");
	struct fault f[OP_N];
	int rc = faults_parse(spec ? spec : "", f);
	if (rc)
		memset(f, 0, sizeof f);
	memcpy(faults, f, sizeof faults);
	for (int i = 0; i < OP_N; i++)
		atomic_store(&counts[i], 0);
	return rc;
}

/* Count an operation; 1 (errno set) when it is one to fail. */
static int fault(int op)
{
	pthread_once(&faults_once, faults_from_env);
	uint64_t n = atomic_fetch_add(&counts[op], 1) + 1;
	const struct fault *f = &faults[op];
	if (f->at && (n == f->at || (f->persist && n > f->at))) {
		errno = op_errno[op];
		return 1;
	}
	return 0;
}

/* ---- the system calls, each one counted ---- */

static int write_all(int fd, const void *buf, size_t len, int positional,
		     uint64_t off)
{
	const char *b = buf;
	while (len) {
		if (fault(OP_WRITE))
			return -errno;
		ssize_t n = positional ? pwrite(fd, b, len, (off_t)off)
				       : write(fd, b, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		b += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

int ssd_ofile_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	return write_all(fd, buf, len, 1, off);
}

int ssd_ofile_datasync(int fd)
{
	return fault(OP_FSYNC) || fdatasync(fd) ? -errno : 0;
}

int ssd_ofile_rename(const char *from, const char *to)
{
	return fault(OP_RENAME) || rename(from, to) ? -errno : 0;
}

static int open_counted(const char *path, int flags, mode_t mode)
{
	if (fault(OP_OPEN))
		return -1;
	int fd;
	do
		fd = open(path, flags | O_CLOEXEC, mode);
	while (fd < 0 && errno == EINTR);
	return fd;
}

static int fsync_counted(int fd)
{
	return fault(OP_FSYNC) || fsync(fd) ? -1 : 0;
}

/* close(2) always releases the descriptor; a fault only changes what
 * it answers */
static int close_counted(int fd)
{
	int failed = fault(OP_CLOSE);
	int e = errno;
	if (close(fd) && !failed)
		return -1;
	errno = e;
	return failed ? -1 : 0;
}

/* ---- output files ---- */

struct ssd_ofile {
	FILE *f;             /* the cookie stream handed to the writer */
	int fd;              /* the temporary's, or (in place, LIVE) the file's */
	int mode;            /* enum ssd_ofile_mode */
	int in_place;        /* written where it is (not a regular file, or a
	                        folder that takes no temporary) */
	int removable;       /* LIVE: removed on failure */
	int rewritten;       /* a regular file rewritten in place (its folder
	                        takes no temporary): emptied on failure */
	int err;             /* errno of the first failed write; 0 */
	int borrowed;        /* over a descriptor opened elsewhere
	                        (ssd_ofile_fdopen): path is its name */
	uint64_t wrote;      /* bytes written */
	char *path;          /* as given, for messages */
	char *target;        /* the file renamed over or appended to: path
	                        with symbolic links followed */
	char *tmp;           /* the temporary; NULL in place */
	char *buf;           /* the stream's buffer, OFILE_BUFSIZE bytes
	                        (glibc would give a cookie stream 8 KiB) */
};

static atomic_uint tmp_seq; /* temporaries made by this process */

static ssize_t cookie_write(void *cookie, const char *buf, size_t len)
{
	struct ssd_ofile *o = cookie;
	if (o->err) {
		errno = o->err; /* fflush's caller learns why */
		return 0; /* a file with a hole in it is no use: nothing more */
	}
	int rc = write_all(o->fd, buf, len, 0, 0);
	if (rc) {
		o->err = errno = -rc;
		return 0; /* stdio marks the stream in error */
	}
	o->wrote += len;
	return (ssize_t)len;
}

/* The cookie stream over o->fd, with its buffer; 0 or -1 (no memory). */
static int make_stream(struct ssd_ofile *o, int line)
{
	cookie_io_functions_t io = {.write = cookie_write};
	if (!(o->buf = malloc(OFILE_BUFSIZE)) || !(o->f = fopencookie(o, "w", io)))
		return -1;
	setvbuf(o->f, o->buf, line ? _IOLBF : _IOFBF, OFILE_BUFSIZE);
	return 0;
}

/* Not a file to replace: a device, a pipe, the process's own streams. */
static int written_in_place(const char *path, const struct stat *sb, int exists)
{
	return (exists && !S_ISREG(sb->st_mode)) ||
	       !strncmp(path, "/proc/", 6) || !strncmp(path, "/dev/fd/", 8) ||
	       !strcmp(path, "/dev/stdout") || !strcmp(path, "/dev/stderr");
}

/* DIR/.BASE.PID.N.tmp beside target (BASE cut to keep within NAME_MAX) */
static char *tmp_name(const char *target)
{
	const char *slash = strrchr(target, '/');
	const char *base = slash ? slash + 1 : target;
	int dirlen = slash ? (int)(slash - target) + 1 : 0;
	size_t n = strlen(target) + 64;
	char *t = malloc(n);
	if (t)
		snprintf(t, n, "%.*s.%.200s.%ld.%u.tmp", dirlen, target, base,
			 (long)getpid(), atomic_fetch_add(&tmp_seq, 1));
	return t;
}

static void ofile_free(struct ssd_ofile *o)
{
	free(o->buf);
	free(o->path);
	free(o->target);
	free(o->tmp);
	free(o);
}

static int fail_open(struct ssd_ofile *o, const char *path, int e, char *err,
		     size_t errlen)
{
	ssd_seterr(err, errlen, "cannot write '%s': %s", path,
		   e ? ssd_errno_text(e) : "out of memory");
	if (o)
		ofile_free(o);
	return e ? SSD_EIO : SSD_ENOMEM;
}

int ssd_ofile_open(const char *path, int mode, struct ssd_ofile **out,
		   char *err, size_t errlen)
{
	*out = NULL;
	struct ssd_ofile *o = calloc(1, sizeof *o);
	if (!o || !(o->path = strdup(path)))
		return fail_open(o, path, 0, err, errlen);
	o->fd = -1;
	o->mode = mode;
	struct stat sb;
	int exists = !stat(path, &sb);
	o->in_place = written_in_place(path, &sb, exists);
	if (!o->in_place) {
		char *real = exists ? realpath(path, NULL) : NULL;
		o->target = real ? real : strdup(path);
		if (!o->target)
			return fail_open(o, path, 0, err, errlen);
	}
	if (o->in_place) {
		o->fd = open_counted(path, O_WRONLY | O_APPEND, 0);
	} else if (mode == SSD_OFILE_LIVE) {
		o->fd = open_counted(o->target, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		o->in_place = o->removable = 1;
	} else {
		if (!(o->tmp = tmp_name(o->target)))
			return fail_open(o, path, 0, err, errlen);
		o->fd = open_counted(o->tmp, O_RDWR | O_CREAT | O_EXCL, 0666);
		int e = errno;
		if (o->fd < 0 && mode == SSD_OFILE_REPLACE && exists &&
		    (e == EACCES || e == EPERM || e == EROFS) &&
		    !access(o->target, W_OK)) {
			/* a file the folder will not take a temporary beside:
			 * rewritten where it is, as fopen would */
			free(o->tmp);
			o->tmp = NULL;
			o->fd = open_counted(o->target, O_WRONLY | O_TRUNC, 0);
			o->in_place = o->rewritten = 1;
		} else if (o->fd >= 0 && exists && mode == SSD_OFILE_REPLACE) {
			/* the new file keeps the old one's permissions */
			(void)fchmod(o->fd, sb.st_mode & 07777);
		}
		if (o->fd < 0)
			errno = e;
	}
	if (o->fd < 0)
		return fail_open(o, path, errno ? errno : EIO, err, errlen);
	if (make_stream(o, 0)) {
		close(o->fd);
		if (o->tmp)
			unlink(o->tmp);
		else if (o->removable)
			unlink(o->target);
		return fail_open(o, path, 0, err, errlen);
	}
	*out = o;
	return 0;
}

int ssd_ofile_fdopen(int fd, const char *name, int line, struct ssd_ofile **out)
{
	*out = NULL;
	struct ssd_ofile *o = calloc(1, sizeof *o);
	if (!o || !(o->path = strdup(name))) {
		free(o);
		return SSD_ENOMEM;
	}
	o->fd = fd;
	o->mode = SSD_OFILE_LIVE;
	o->in_place = o->borrowed = 1;
	if (make_stream(o, line)) {
		ofile_free(o);
		return SSD_ENOMEM;
	}
	*out = o;
	return 0;
}

FILE *ssd_ofile_stream(struct ssd_ofile *o)
{
	return o->f;
}

const char *ssd_ofile_path(const struct ssd_ofile *o)
{
	return o->path;
}

static int fail_write(const struct ssd_ofile *o, int e, char *err, size_t errlen)
{
	if (o->borrowed)
		ssd_seterr(err, errlen, "write error on %s: %s", o->path,
			   ssd_errno_text(e ? e : EIO));
	else
		ssd_seterr(err, errlen, "cannot write '%s': %s", o->path,
			   ssd_errno_text(e ? e : EIO));
	return SSD_EIO;
}

int ssd_ofile_flush(struct ssd_ofile *o, char *err, size_t errlen)
{
	if (fflush(o->f) || ferror(o->f))
		return fail_write(o, o->err ? o->err : errno, err, errlen);
	return 0;
}

/* APPEND: the gathered block onto the target's end; on failure the
 * target goes back to its length (or away, if made here).  0 or errno. */
static int append_block(struct ssd_ofile *o)
{
	struct stat sb;
	int existed = !stat(o->target, &sb);
	int fd = open_counted(o->target, O_WRONLY | O_CREAT | O_APPEND, 0666);
	if (fd < 0)
		return errno;
	off_t was = existed && !fstat(fd, &sb) ? sb.st_size : 0;
	char *buf = malloc(OFILE_BUFSIZE);
	int e = buf ? 0 : ENOMEM;
	for (off_t at = 0; !e;) {
		ssize_t n = pread(o->fd, buf, OFILE_BUFSIZE, at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			e = n < 0 ? errno : 0;
			break;
		}
		int rc = write_all(fd, buf, (size_t)n, 0, 0);
		if (rc)
			e = -rc;
		at += n;
	}
	free(buf);
	if (!e && fsync_counted(fd))
		e = errno;
	if (close_counted(fd) && !e)
		e = errno;
	if (e && existed && truncate(o->target, was)) {
		/* nothing more to do: the failure is reported */
	}
	if (e && !existed)
		unlink(o->target);
	return e;
}

int ssd_ofile_commit(struct ssd_ofile *o, char *err, size_t errlen)
{
	if (!o)
		return 0;
	int e = 0;
	if (fflush(o->f) || ferror(o->f))
		e = o->err ? o->err : EIO;
	o->err = o->err ? o->err : ECANCELED; /* fclose writes nothing more */
	fclose(o->f);
	struct stat sb;
	int regular = !o->borrowed && (!o->in_place ||
				       (!fstat(o->fd, &sb) && S_ISREG(sb.st_mode)));
	if (!e && o->mode == SSD_OFILE_APPEND && o->tmp)
		e = append_block(o);
	else if (!e && regular && fsync_counted(o->fd))
		e = errno;
	if (o->mode == SSD_OFILE_APPEND && o->tmp)
		close(o->fd); /* the staging: its block is out, or failed */
	else if (close_counted(o->fd) && !e &&
		 !(o->borrowed && errno == EBADF && !o->wrote))
		e = errno;
	if (!e && o->mode == SSD_OFILE_REPLACE && o->tmp &&
	    ssd_ofile_rename(o->tmp, o->target))
		e = errno;
	if (o->tmp && (e || o->mode == SSD_OFILE_APPEND))
		unlink(o->tmp);
	else if (e && o->removable)
		unlink(o->target);
	else if (e && o->rewritten && truncate(o->target, 0)) {
		/* nothing more to do: the failure is reported */
	}
	int rc = e ? fail_write(o, e, err, errlen) : 0;
	ofile_free(o);
	return rc;
}

void ssd_ofile_discard(struct ssd_ofile *o)
{
	if (!o)
		return;
	o->err = ECANCELED; /* the buffer is dropped, not written */
	fclose(o->f);
	if (o->rewritten && ftruncate(o->fd, 0)) {
		/* nothing more to do */
	}
	close(o->fd);
	if (o->tmp)
		unlink(o->tmp);
	else if (o->removable)
		unlink(o->target);
	ofile_free(o);
}
