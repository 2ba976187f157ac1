/*
 * sweep_run.c -- running a sweep's points (sweep.h): each point a child
 * process of the ssdlab binary, in a directory of its own.
 *
 * A point runs in DIR/points/.run-ID-HOST-PID (its files: what the
 * command writes, stdout.txt, stderr.txt) and, when the child has ended,
 * that directory is renamed to DIR/points/ID -- a rename within one
 * directory, atomic on every POSIX file system and on NFS -- with
 * error.txt in it if the point failed.  So a point's final directory
 * exists only for a point that ended, and never holds half a result; a
 * point cut short (the machine went down, the job array was cancelled)
 * left a .run- directory, removed when the point runs again here (a
 * directory of this host whose process is gone) and ignored by collect.
 * Two runners given the same point (overlapping selections on a
 * cluster) both run it, and the second rename finds the first's
 * directory and is dropped: the simulator is deterministic, so the
 * result is the same.
 */
#include "sweep/sweep.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"

/* The longest DIR a sweep runs in: room is left under it for
 * points/.run-ID-HOST-PID/FILE. */
#define DIR_MAX (PATH_MAX - 256)

/* A path from fmt into buf[PATH_MAX] (DIR_MAX keeps the ones made here
 * within it; a longer one is cut, and opening it fails). */
__attribute__((format(printf, 2, 3)))
static void pathf(char *buf, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, PATH_MAX, fmt, ap);
	va_end(ap);
}

/* rm -r path (a point's own directory: files, and the folders the
 * scenarios or job logs make in it). */
static void remove_tree(const char *path)
{
	DIR *d = opendir(path);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			char p[PATH_MAX];
			pathf(p, "%s/%s", path, e->d_name);
			struct stat st;
			if (!lstat(p, &st) && S_ISDIR(st.st_mode))
				remove_tree(p);
			else
				unlink(p);
		}
		closedir(d);
	}
	rmdir(path);
}

static int exists(const char *path)
{
	struct stat st;
	return !stat(path, &st);
}

static void host(char *buf, size_t n)
{
	if (gethostname(buf, n))
		snprintf(buf, n, "host");
	buf[n - 1] = 0;
	for (char *p = buf; *p; p++)
		if (*p == '/' || *p == '-')
			*p = '_';
}

/* The .run- directories of point id that this host left behind, its
 * process gone, removed. */
static void clean_stale(const char *points, const char *id, const char *me)
{
	DIR *d = opendir(points);
	if (!d)
		return;
	char prefix[64];
	int pn = snprintf(prefix, sizeof prefix, ".run-%s-", id);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, prefix, (size_t)pn))
			continue;
		const char *h = e->d_name + pn, *dash = strrchr(h, '-');
		if (!dash || (size_t)(dash - h) != strlen(me) ||
		    strncmp(h, me, strlen(me)))
			continue;
		long pid = strtol(dash + 1, NULL, 10);
		if (pid > 0 && kill((pid_t)pid, 0) && errno == ESRCH) {
			char p[PATH_MAX];
			pathf(p, "%s/%s", points, e->d_name);
			remove_tree(p);
		}
	}
	closedir(d);
}

/* The first line of file path into buf ("" if none). */
static void first_line(const char *path, char *buf, size_t n)
{
	buf[0] = 0;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, (int)n, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

struct child {
	pid_t pid;
	uint32_t point;
	char tmp[PATH_MAX];
};

/* One file a point's job file names by a relative path, linked into the
 * point's folder: the run sees the job file's folder as its working
 * folder, as `ssdlab run JOB` run from there (docs/sweeps.md). */
static int link_input(void *ctx, const char *file, int line, const char *name,
		      const char *path, int include)
{
	const char *tmp = ctx;
	char *abs = NULL, to[PATH_MAX];
	if (name[0] == '/' || ssd_sweep_climbs(name) ||
	    !(abs = realpath(path, NULL)))
		return 0; /* absolute, or not beside the job file */
	pathf(to, "%s/%s", tmp, name);
	for (char *q = to + strlen(tmp) + 1; (q = strchr(q, '/')); q++) {
		*q = 0;
		mkdir(to, 0777);
		*q = '/';
	}
	if (symlink(abs, to) && errno != EEXIST) {
		int e = errno;
		free(abs);
		errno = e;
		return 1;
	}
	free(abs);
	return 0;
}

/* Start argv (freed here) in folder tmp, made now: its stdout and
 * stderr go to files there, its command to command.txt, the files its
 * job file `job` (NULL: none) names by relative paths linked there.  0,
 * or -1 with errno. */
static int spawn(char **argv, const char *tmp, const char *job, pid_t *out)
{
	if (!argv) {
		errno = ENOMEM;
		return -1;
	}
	if (mkdir(tmp, 0777) ||
	    (job && ssd_sweep_job_inputs(job, link_input, (void *)tmp) == 1)) {
		ssd_sweep_argv_free(argv);
		return -1;
	}
	/* the command, for whoever looks into the folder */
	char cp[PATH_MAX];
	pathf(cp, "%s/command.txt", tmp);
	FILE *f = fopen(cp, "w");
	if (f) {
		for (int i = 0; argv[i]; i++)
			fprintf(f, "%s%s", i ? " " : "", argv[i]);
		fputc('\n', f);
		fclose(f);
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		ssd_sweep_argv_free(argv);
		return -1;
	}
	if (!pid) {
		char o[PATH_MAX], e[PATH_MAX];
		pathf(o, "%s/stdout.txt", tmp);
		pathf(e, "%s/stderr.txt", tmp);
		int fo = open(o, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		int fe = open(e, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		int fi = open("/dev/null", O_RDONLY);
		if (fo < 0 || fe < 0 || fi < 0 || dup2(fo, 1) < 0 ||
		    dup2(fe, 2) < 0 || dup2(fi, 0) < 0 || chdir(tmp))
			_exit(126);
		execv(argv[0], argv);
		dprintf(2, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	ssd_sweep_argv_free(argv);
	*out = pid;
	return 0;
}

/* A free slot of kids[jobs] (one is: fewer than jobs run). */
static struct child *free_slot(struct child *kids, int jobs)
{
	for (int k = 0; k < jobs; k++)
		if (!kids[k].pid)
			return &kids[k];
	return NULL;
}

/* The running children, and the stop the runner was asked for. */
struct pool {
	struct child *kids;
	int jobs;
	const volatile sig_atomic_t *stop; /* a signal's number once the
	                                      runner is to stop (NULL: never) */
	int sent;               /* it was passed on to the children */
};

static int stopping(const struct pool *pl)
{
	return pl->stop && *pl->stop;
}

/* Wait for one of the pool's children to end: it, with its wait status
 * in *st; NULL if none can be waited for.  Once the runner is to stop,
 * each running child is sent the signal first.  The wait is a poll
 * every 100 ms of wall time (a signal cuts the sleep short): a blocking
 * wait entered just after the signal came would hold the stop until a
 * child ended by itself, hours later. */
static struct child *reap(struct pool *pl, int *st)
{
	struct child *kids = pl->kids;
	int jobs = pl->jobs;
	for (;;) {
		if (stopping(pl) && !pl->sent) {
			for (int k = 0; k < jobs; k++)
				if (kids[k].pid)
					kill(kids[k].pid, (int)*pl->stop);
			pl->sent = 1;
		}
		pid_t pid = waitpid(-1, st, pl->stop ? WNOHANG : 0);
		if (pid == 0) {
			struct timespec ts = {0, 100 * 1000 * 1000};
			nanosleep(&ts, NULL);
			continue;
		}
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			return NULL;
		for (int k = 0; k < jobs; k++)
			if (kids[k].pid == pid)
				return &kids[k];
	}
}

/* Point p's preconditioned drive, shared: its snapshot's absolute name
 * in buf if it has one, else NULL (it preconditions its own). */
static const char *snap_of(const struct ssd_sweep *s, const char *drives,
			   uint32_t p, char *buf)
{
	if (!s->did[p][0])
		return NULL;
	pathf(buf, "%s/%s.snap", drives, s->did[p]);
	return exists(buf) ? buf : NULL;
}

/* Start point p in c->tmp. */
static int start(const struct ssd_sweep *s, uint32_t p, const char *exe,
		 const char *drives, struct child *c)
{
	char snap[PATH_MAX];
	char **argv = ssd_sweep_argv(s, p, exe, snap_of(s, drives, p, snap), 0);
	/* a job file's point: argv is "EXE run JOB ..." (JOB absolute) */
	const char *job = argv && ssd_sweep_value(s, p, "job") ? argv[2] : NULL;
	char jb[PATH_MAX];
	if (job)
		pathf(jb, "%s", job);
	if (spawn(argv, c->tmp, job ? jb : NULL, &c->pid))
		return -1;
	c->point = p;
	return 0;
}

/* The message of a child that ended with wait status st ("" if it
 * succeeded): its exit or signal and the first line of its stderr. */
static void child_error(const char *tmp, int st, char *msg, size_t n)
{
	char path[PATH_MAX], line[480];
	msg[0] = 0;
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return;
	pathf(path, "%s/stderr.txt", tmp);
	first_line(path, line, sizeof line);
	if (WIFSIGNALED(st))
		snprintf(msg, n, "killed by signal %d%s%s", WTERMSIG(st),
			 *line ? ": " : "", line);
	else
		snprintf(msg, n, "exit status %d%s%s", WEXITSTATUS(st),
			 *line ? ": " : "", line);
}

/* Whether point p is to run: not ended (or failed, with retry). */
static int to_run(const struct ssd_sweep *s, const char *points, uint32_t p,
		  int retry_failed)
{
	char final[PATH_MAX], errf[PATH_MAX];
	pathf(final, "%s/%s", points, s->id[p]);
	pathf(errf, "%s/error.txt", final);
	return !exists(final) || (retry_failed && exists(errf));
}

/* Child c, which prepared a drive, ended with wait status st: its
 * snapshot renamed into DIR/drives, or the reason it is not shared in
 * ID.error. */
static void prepared(const struct ssd_sweep *s, const char *drives,
		     struct child *c, int st, FILE *log)
{
	const char *did = s->did[c->point];
	char msg[512], from[PATH_MAX], to[PATH_MAX];
	child_error(c->tmp, st, msg, sizeof msg);
	pathf(from, "%s/drive.snap", c->tmp);
	pathf(to, "%s/%s.snap", drives, did);
	if (!*msg && rename(from, to))
		snprintf(msg, sizeof msg, "%.200s: %s", to, strerror(errno));
	if (*msg) {
		pathf(to, "%s/%s.error", drives, did);
		FILE *f = fopen(to, "w");
		if (f) {
			fprintf(f, "%s\n", msg);
			fclose(f);
		}
	}
	if (log) {
		if (*msg)
			fprintf(log, "drive %s: not shared (%s): its points "
				"precondition their own\n", did, msg);
		else
			fprintf(log, "drive %s: preconditioned, for its points "
				"to share\n", did);
		fflush(log);
	}
	remove_tree(c->tmp);
}

/* The preconditioned drives the points to run share, each made once and
 * saved as DIR/drives/ID.snap (made under a temporary name and renamed,
 * as a point's folder): a drive that cannot be saved (a machine with a
 * page cache) gets ID.error, and its points precondition their own. */
static int prepare(const struct ssd_sweep *s, const char *drives,
		   const char *points, const char *exe, const uint8_t *sel,
		   int jobs, int retry_failed, const char *me, FILE *log,
		   const volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	uint32_t *need = NULL, n = 0;
	for (uint32_t p = 0; p < s->npoints; p++) {
		if (!s->did[p][0] || (sel && !sel[p]) ||
		    !to_run(s, points, p, retry_failed))
			continue;
		char f[PATH_MAX], e[PATH_MAX];
		pathf(f, "%s/%s.snap", drives, s->did[p]);
		pathf(e, "%s/%s.error", drives, s->did[p]);
		if (exists(f) || exists(e))
			continue;
		int seen = 0;
		for (uint32_t k = 0; k < n && !seen; k++)
			seen = !strcmp(s->did[need[k]], s->did[p]);
		if (seen)
			continue;
		uint32_t *t = realloc(need, (n + 1) * sizeof *t);
		if (!t) {
			free(need);
			ssd_seterr(err, errlen, "out of memory");
			return SSD_ENOMEM;
		}
		need = t;
		need[n++] = p;
	}
	if (!n) {
		free(need);
		return 0;
	}
	int rc = ssd_sweep_mkdirs(drives, err, errlen);
	struct child *kids = rc ? NULL : calloc((size_t)jobs, sizeof *kids);
	if (!rc && !kids) {
		ssd_seterr(err, errlen, "out of memory");
		rc = SSD_ENOMEM;
	}
	struct pool pl = {kids, jobs, stop, 0};
	int running = 0;
	uint32_t next = 0;
	while (!rc || running) {
		while (!rc && !stopping(&pl) && running < jobs && next < n) {
			uint32_t p = need[next++];
			struct child *c = free_slot(kids, jobs);
			char snap[PATH_MAX];
			pathf(c->tmp, "%s/.prep-%s-%s-%ld", drives, s->did[p], me,
			      (long)getpid());
			remove_tree(c->tmp);
			pathf(snap, "%s/drive.snap", c->tmp);
			if (spawn(ssd_sweep_argv(s, p, exe, snap, 1), c->tmp,
				  NULL, &c->pid)) {
				ssd_seterr(err, errlen, "drive %s: %s: %s",
					   s->did[p], c->tmp, strerror(errno));
				rc = SSD_EIO;
				break;
			}
			c->point = p;
			running++;
		}
		int st;
		struct child *c = running ? reap(&pl, &st) : NULL;
		if (!c)
			break;
		if (stopping(&pl) && !(WIFEXITED(st) && !WEXITSTATUS(st))) {
			/* stopped: no snapshot and no ID.error, made next time */
			remove_tree(c->tmp);
			if (log)
				fprintf(log, "drive %s: stopped\n", s->did[c->point]);
		} else {
			prepared(s, drives, c, st, log);
		}
		c->pid = 0;
		running--;
	}
	free(kids);
	free(need);
	return rc;
}

enum { END_DONE, END_FAILED, END_CUT };

/* Child c ended with wait status st: its directory becomes the point's.
 * A child killed by a signal -- one the runner passed on as it stops, or
 * one it did not send (the OOM killer, an administrator) -- and any child
 * that did not succeed while the runner stops, was cut short: the point
 * has not ended (no final directory, its .run- directory removed) and
 * runs again next time.  Returns END_*. */
static int finish(const struct ssd_sweep *s, const char *points,
		  struct child *c, int st, int stop, FILE *log)
{
	const char *id = s->id[c->point];
	char msg[512], path[PATH_MAX];
	int ok = WIFEXITED(st) && !WEXITSTATUS(st);
	if (WIFSIGNALED(st) || (stop && !ok)) {
		remove_tree(c->tmp);
		if (log) {
			if (stop)
				fprintf(log, "point %u %s: stopped (it runs again "
					"next time)\n", c->point, id);
			else
				fprintf(log, "point %u %s: cut short by signal %d "
					"(not ended: it runs again next time)\n",
					c->point, id, WTERMSIG(st));
			fflush(log);
		}
		return END_CUT;
	}
	child_error(c->tmp, st, msg, sizeof msg);
	if (*msg) {
		pathf(path, "%s/error.txt", c->tmp);
		FILE *f = fopen(path, "w");
		if (f) {
			fprintf(f, "%s\n", msg);
			fclose(f);
		}
	}
	char final[PATH_MAX];
	pathf(final, "%s/%s", points, id);
	if (rename(c->tmp, final)) {
		/* another runner ended the point first: keep its result */
		remove_tree(c->tmp);
	}
	if (log) {
		if (*msg)
			fprintf(log, "point %u %s: failed: %s\n", c->point, id, msg);
		else
			fprintf(log, "point %u %s: done\n", c->point, id);
		fflush(log);
	}
	return *msg ? END_FAILED : END_DONE;
}

int ssd_sweep_run(const struct ssd_sweep *s, const char *dir, const char *exe,
		  const uint8_t *sel, int jobs, int retry_failed, FILE *log,
		  const volatile sig_atomic_t *stop, uint32_t *failed,
		  uint32_t *cut, char *err, size_t errlen)
{
	*failed = *cut = 0;
	char points[PATH_MAX];
	pathf(points, "%s/points", dir);
	int rc = ssd_sweep_mkdirs(points, err, errlen);
	if (rc)
		return rc;
	if (jobs < 1)
		jobs = 1;
	struct child *kids = calloc((size_t)jobs, sizeof *kids);
	if (!kids) {
		ssd_seterr(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	char me[64];
	host(me, sizeof me);
	/* the shared drives' folder, absolute: a point's child runs in a
	 * folder of its own */
	char drives[PATH_MAX], *abs = realpath(dir, NULL);
	pathf(drives, "%s/drives", abs ? abs : dir);
	free(abs);
	rc = prepare(s, drives, points, exe, sel, jobs, retry_failed, me, log,
		     stop, err, errlen);
	struct pool pl = {kids, jobs, stop, 0};
	int running = 0;
	uint32_t p = 0;
	for (;;) {
		/* start what fits */
		while (!rc && !stopping(&pl) && running < jobs &&
		       p < s->npoints) {
			uint32_t q = p++;
			if (sel && !sel[q])
				continue;
			char final[PATH_MAX], errf[PATH_MAX];
			pathf(final, "%s/%s", points, s->id[q]);
			pathf(errf, "%s/error.txt", final);
			if (exists(final)) {
				if (!(retry_failed && exists(errf))) {
					if (log)
						fprintf(log, "point %u %s: skipped "
							"(%s)\n", q, s->id[q],
							exists(errf) ? "failed "
							"before" : "done");
					continue;
				}
				remove_tree(final);
			}
			clean_stale(points, s->id[q], me);
			struct child *c = free_slot(kids, jobs);
			pathf(c->tmp, "%s/.run-%s-%s-%ld", points, s->id[q], me,
			      (long)getpid());
			if (start(s, q, exe, drives, c)) {
				ssd_seterr(err, errlen, "point %u: %s: %s", q, c->tmp,
					   strerror(errno));
				rc = SSD_EIO;
				break;
			}
			running++;
		}
		int st;
		struct child *c = running ? reap(&pl, &st) : NULL;
		if (!c)
			break;
		int end = finish(s, points, c, st, stopping(&pl), log);
		*failed += end == END_FAILED;
		*cut += end == END_CUT;
		c->pid = 0;
		running--;
		if (rc && !running)
			break;
	}
	free(kids);
	return rc;
}

uint32_t ssd_sweep_unended(const struct ssd_sweep *s, const char *dir,
			   uint32_t *first)
{
	uint32_t n = 0;
	for (uint32_t p = 0; p < s->npoints; p++) {
		char final[PATH_MAX];
		pathf(final, "%s/points/%s", dir, s->id[p]);
		if (exists(final))
			continue;
		if (!n++ && first)
			*first = p;
	}
	return n;
}
