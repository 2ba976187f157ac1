/*
 * sweep_launch.c -- what the launchers on other engines share (sweep.h):
 * cutting the points into chunks, finding a program and reading what it
 * says, quoting a word for a shell, and the absolute paths other
 * machines see.
 *
 * GNU parallel and Slurm do not run points: they run `ssdlab sweep run
 * SWEEP --dir DIR --points a-b`, one chunk of consecutive indices each,
 * and sweep_run.c does the rest (a point that ended is skipped, its
 * directory renamed into place).  So the launchers only say which chunks
 * exist and hand every runner the same absolute paths: on a cluster the
 * runner starts in another folder, often on another machine, and finds
 * the binary, the sweep file and DIR under the same names there (a
 * shared file system, NFS, mounted at the same place).
 */
#include "sweep/sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"

uint32_t ssd_sweep_nchunks(uint32_t npoints, uint32_t k)
{
	if (k < 1)
		k = 1;
	return (uint32_t)(((uint64_t)npoints + k - 1) / k);
}

void ssd_sweep_chunk(uint32_t npoints, uint32_t k, uint32_t i, char *buf,
		     size_t n)
{
	if (k < 1)
		k = 1;
	uint64_t a = (uint64_t)i * k, b = a + k - 1;
	if (b >= npoints)
		b = npoints ? npoints - 1 : 0;
	if (a == b)
		snprintf(buf, n, "%llu", (unsigned long long)a);
	else
		snprintf(buf, n, "%llu-%llu", (unsigned long long)a,
			 (unsigned long long)b);
}

int ssd_sweep_which(const char *prog, char *buf, size_t n)
{
	struct stat st;
	if (strchr(prog, '/')) {
		if (stat(prog, &st) || !S_ISREG(st.st_mode) || access(prog, X_OK))
			return SSD_ENOENT;
		snprintf(buf, n, "%s", prog);
		return 0;
	}
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");
		/* an empty entry is the current folder */
		int k = len ? snprintf(buf, n, "%.*s/%s", (int)len, path, prog)
			    : snprintf(buf, n, "./%s", prog);
		if (k > 0 && (size_t)k < n && !stat(buf, &st) &&
		    S_ISREG(st.st_mode) && !access(buf, X_OK))
			return 0;
		path += len;
		if (*path == ':')
			path++;
	}
	return SSD_ENOENT;
}

int ssd_sweep_shell_word(const char *word, char *buf, size_t n)
{
	size_t plain = strspn(word, "abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				    "_/.,:=+-");
	if (*word && !word[plain]) {
		if (strlen(word) >= n)
			return SSD_ERANGE;
		memcpy(buf, word, strlen(word) + 1);
		return 0;
	}
	/* '...', each ' as '\'' */
	size_t o = 0;
	if (o + 1 >= n)
		return SSD_ERANGE;
	buf[o++] = '\'';
	for (const char *p = word; *p; p++) {
		const char *piece = *p == '\'' ? "'\\''" : NULL;
		size_t len = piece ? 4 : 1;
		if (o + len + 2 > n)
			return SSD_ERANGE;
		if (piece)
			memcpy(buf + o, piece, len);
		else
			buf[o] = *p;
		o += len;
	}
	buf[o++] = '\'';
	buf[o] = 0;
	return 0;
}

int ssd_sweep_capture(char **argv, char *buf, size_t n)
{
	int fd[2];
	if (n < 1 || pipe(fd))
		return -1;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (!pid) {
		int dn = open("/dev/null", O_RDWR);
		if (dn < 0 || dup2(fd[1], 1) < 0 || dup2(dn, 2) < 0 ||
		    dup2(dn, 0) < 0)
			_exit(126);
		close(fd[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	size_t got = 0;
	for (;;) {
		char tmp[4096];
		ssize_t k = read(fd[0], tmp, sizeof tmp);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		size_t take = (size_t)k < n - 1 - got ? (size_t)k : n - 1 - got;
		memcpy(buf + got, tmp, take);
		got += take;
	}
	buf[got] = 0;
	close(fd[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
/* realpath(path) into out[n]: 0, or SSD_EIO with the reason. */
static int abs_path(const char *path, char *out, size_t n, char *err,
		    size_t errlen)
{
	char tmp[PATH_MAX];
	if (!realpath(path, tmp)) {
		ssd_seterr(err, errlen, "%s: %s", path, strerror(errno));
		return SSD_EIO;
	}
	if (strlen(tmp) >= n) {
		ssd_seterr(err, errlen, "%s: %s", path, strerror(ENAMETOOLONG));
		return SSD_EIO;
	}
	memcpy(out, tmp, strlen(tmp) + 1);
	return 0;
}

int ssd_sweep_abs(const char *sweep_file, const char *dir, char *file,
		  char *absdir, size_t n, char *err, size_t errlen)
{
	int rc = abs_path(sweep_file, file, n, err, errlen);
	return rc ? rc : abs_path(dir, absdir, n, err, errlen);
}
