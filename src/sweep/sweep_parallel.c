/*
 * sweep_parallel.c -- a sweep's points through GNU parallel (sweep.h,
 * docs/sweeps.md "On many machines").
 *
 * The command this process becomes (once `parallel --version` has said
 * it is GNU parallel, not moreutils' program of the same name):
 *
 *     parallel [PARGS...] '/abs/ssdlab' sweep run '/abs/op.sweep' \
 *         --dir '/abs/DIR' --points {} ::: 0-3 4-7 8-11 12-15
 *
 * parallel runs a job per chunk, as many at once as it has job slots (a
 * slot per core by default, `-j N`, or the slots of every machine of
 * `--sshloginfile FILE`), and exits with the number of jobs that failed
 * -- a chunk fails when one of its points did.  The words are quoted
 * here, since parallel hands its command to a shell (over ssh, to the
 * remote one); the paths are absolute, so a runner on another machine
 * that mounts the binary, the sweep file and DIR at the same place runs
 * the same points.  Chunks of a few points save parallel's start-up per
 * job (and ssh's, on other machines) while a few chunks per slot still
 * keep every slot busy to the end.
 */
#include "sweep/sweep.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"

/* The chunks per job slot that the default chunk aims at. */
#define CHUNKS_PER_SLOT 4

/* N of "-j N", "-jN", "--jobs N", "--jobs=N", "-P N", "-PN" among
 * pargs, when it is a plain number; else 0. */
static long parallel_slots(char **pargs, int npargs)
{
	long slots = 0;
	for (int i = 0; i < npargs; i++) {
		const char *a = pargs[i], *v = NULL;
		if (!strcmp(a, "-j") || !strcmp(a, "-P") || !strcmp(a, "--jobs"))
			v = i + 1 < npargs ? pargs[i + 1] : NULL;
		else if (!strncmp(a, "--jobs=", 7))
			v = a + 7;
		else if ((!strncmp(a, "-j", 2) || !strncmp(a, "-P", 2)) && a[2])
			v = a + 2;
		if (!v)
			continue;
		char *e;
		long n = strtol(v, &e, 10);
		/* "+2", "50%", "-1": relative to the cores */
		slots = (*v >= '0' && *v <= '9' && !*e && n > 0) ? n : 0;
	}
	return slots;
}

uint32_t ssd_sweep_parallel_chunk(uint32_t npoints, char **pargs, int npargs)
{
	long slots = parallel_slots(pargs, npargs);
	if (slots < 1)
		slots = sysconf(_SC_NPROCESSORS_ONLN);
	if (slots < 1)
		slots = 1;
	uint64_t chunks = (uint64_t)slots * CHUNKS_PER_SLOT;
	uint64_t k = (npoints + chunks - 1) / chunks;
	return k ? (uint32_t)k : 1;
}

int ssd_sweep_parallel(const struct ssd_sweep *s, const char *file,
		       const char *dir, const char *exe, uint32_t chunk,
		       char **pargs, int npargs, FILE *log, int *status,
		       char *err, size_t errlen)
{
	char prog[PATH_MAX];
	if (ssd_sweep_which("parallel", prog, sizeof prog)) {
		ssd_seterr(err, errlen, "parallel: not found; GNU parallel runs "
			   "the points (Debian: apt-get install parallel)");
		return SSD_ENOENT;
	}
	/* moreutils has a parallel of its own, with other options */
	char ver[256];
	char *vargv[] = {prog, "--version", NULL};
	if (ssd_sweep_capture(vargv, ver, sizeof ver) ||
	    strncmp(ver, "GNU parallel", 12)) {
		ssd_seterr(err, errlen, "%s is not GNU parallel (moreutils' "
			   "parallel?); GNU parallel runs the points (Debian: "
			   "apt-get install parallel)", prog);
		return SSD_ENOENT;
	}
	uint32_t m = ssd_sweep_nchunks(s->npoints, chunk);
	/* the quoted paths, then the chunks' text */
	size_t qn = 3 * PATH_MAX + 8, cn = (size_t)m * 24;
	char *q = malloc(3 * qn + cn);
	char **argv = calloc((size_t)npargs + m + 12, sizeof *argv);
	if (!q || !argv) {
		free(q);
		free(argv);
		ssd_seterr(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	char *qexe = q, *qfile = q + qn, *qdir = q + 2 * qn, *c = q + 3 * qn;
	if (ssd_sweep_shell_word(exe, qexe, qn) ||
	    ssd_sweep_shell_word(file, qfile, qn) ||
	    ssd_sweep_shell_word(dir, qdir, qn)) {
		free(q);
		free(argv);
		ssd_seterr(err, errlen, "a path too long to quote: %s", dir);
		return SSD_ERANGE;
	}
	int a = 0;
	argv[a++] = "parallel";
	for (int i = 0; i < npargs; i++)
		argv[a++] = pargs[i];
	const char *cmd[] = {qexe, "sweep", "run", qfile, "--dir", qdir,
			     "--points", "{}", ":::"};
	for (size_t i = 0; i < sizeof cmd / sizeof *cmd; i++)
		argv[a++] = (char *)cmd[i];
	for (uint32_t i = 0; i < m; i++) {
		ssd_sweep_chunk(s->npoints, chunk, i, c, 24);
		argv[a++] = c;
		c += strlen(c) + 1;
	}
	argv[a] = NULL;
	if (log) {
		fprintf(log, "%u points, %u chunk%s of %u:", s->npoints, m,
			m == 1 ? "" : "s", chunk);
		/* the chunks: all of a few, the first and the last of many */
		for (int i = 0; argv[i]; i++)
			if (m <= 8 || i < a - (int)m + 3 || i == a - 1)
				fprintf(log, " %s", argv[i]);
			else if (i == a - (int)m + 3)
				fprintf(log, " ...");
		fputc('\n', log);
	}
	/* parallel runs as a child, not in this process's place: its exit
	 * status counts the chunks that failed, not the ones that never
	 * ran (a remote shell that cannot start one, a chunk lost with its
	 * machine), so the caller checks the points afterwards.  Like
	 * system(), the caller leaves ^C and ^\ to parallel, which stops
	 * its jobs. */
	struct sigaction ign = {.sa_handler = SIG_IGN}, oint, oquit;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &oint);
	sigaction(SIGQUIT, &ign, &oquit);
	fflush(NULL);
	int rc = 0;
	pid_t pid = fork();
	if (!pid) {
		sigaction(SIGINT, &oint, NULL);
		sigaction(SIGQUIT, &oquit, NULL);
		execv(prog, argv);
		fprintf(stderr, "%s: %s\n", prog, strerror(errno));
		_exit(127);
	}
	int st = 0;
	if (pid < 0) {
		ssd_seterr(err, errlen, "%s: %s", prog, strerror(errno));
		rc = SSD_EIO;
	} else {
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		*status = WIFEXITED(st) ? WEXITSTATUS(st)
			: WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
	}
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGQUIT, &oquit, NULL);
	free(q);
	free(argv);
	return rc;
}
