/*
 * sweep_slurm.c -- a sweep's points as a Slurm job array (sweep.h,
 * docs/sweeps.md "On many machines").
 *
 * DIR/slurm.sh is a batch script whose array task i runs chunk i, the
 * points i*K .. i*K+K-1, with `ssdlab sweep run SWEEP --dir DIR
 * --points a-b`, up to SLURM_CPUS_PER_TASK of them at once; each task's
 * output goes to DIR/slurm/JOB_TASK.out.  It is submitted as
 *
 *     sbatch --array=0-(M-1) [--wait] [SBATCH-ARGS...] DIR/slurm.sh
 *
 * which says "Submitted batch job ID" as it submits (and with --wait,
 * ends when the array has, with the highest exit status of its tasks).
 *
 * An array has at most MaxArraySize tasks (slurm.conf; 1001 unless the
 * cluster says otherwise, and `scontrol show config` says), so a sweep
 * of more points than that runs several points per task: K defaults to
 * ceil(points / (MaxArraySize - 1)).  The binary, the sweep file and DIR
 * are absolute paths, which the compute nodes must see under the same
 * names (a shared file system).  Points that ended are skipped by every
 * task, so a script submitted again runs only what is left.
 */
#include "sweep/sweep.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"

/* Slurm's MaxArraySize when slurm.conf does not set it. */
#define SLURM_DEFAULT_MAX_ARRAY 1001

uint32_t ssd_sweep_slurm_parse_max_array(const char *text)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : l) {
		if (strncmp(l, "MaxArraySize", 12) || (l[12] != ' ' && l[12] != '='))
			continue;
		const char *v = l + 12 + strspn(l + 12, " \t");
		if (*v != '=')
			return 0;
		v++;
		v += strspn(v, " \t");
		char *e;
		unsigned long n = strtoul(v, &e, 10);
		if (e == v || n > UINT32_MAX)
			return 0;
		return (uint32_t)n;
	}
	return 0;
}

uint32_t ssd_sweep_slurm_max_array(void)
{
	char prog[PATH_MAX];
	if (ssd_sweep_which("scontrol", prog, sizeof prog))
		return SLURM_DEFAULT_MAX_ARRAY;
	char *out = malloc(1 << 18);
	if (!out)
		return SLURM_DEFAULT_MAX_ARRAY;
	char *argv[] = {prog, "show", "config", NULL};
	uint32_t m = 0;
	if (!ssd_sweep_capture(argv, out, 1 << 18))
		m = ssd_sweep_slurm_parse_max_array(out);
	free(out);
	return m ? m : SLURM_DEFAULT_MAX_ARRAY;
}

int ssd_sweep_slurm_script(const struct ssd_sweep *s, const char *file,
			   const char *dir, const char *exe, uint32_t chunk,
			   char *err, size_t errlen)
{
	/* #SBATCH lines take a path as it is: no quoting, no '%' (a file
	 * name pattern there) */
	if (strpbrk(dir, " \t\n\"'%\\")) {
		ssd_seterr(err, errlen, "%s: a folder for Slurm needs a path "
			   "without spaces, quotes, backslashes or '%%'", dir);
		return SSD_EINVAL;
	}
	/* the script's comments name the sweep file on one line */
	if (strchr(file, '\n')) {
		ssd_seterr(err, errlen, "%s: a sweep file for Slurm needs a path "
			   "without a line break", file);
		return SSD_EINVAL;
	}
	char logs[PATH_MAX];
	snprintf(logs, sizeof logs, "%s/slurm", dir);
	int rc = ssd_sweep_mkdirs(logs, err, errlen);
	if (rc)
		return rc;
	char qexe[PATH_MAX + 64], qfile[PATH_MAX + 64], qdir[PATH_MAX + 64];
	if (ssd_sweep_shell_word(exe, qexe, sizeof qexe) ||
	    ssd_sweep_shell_word(file, qfile, sizeof qfile) ||
	    ssd_sweep_shell_word(dir, qdir, sizeof qdir)) {
		ssd_seterr(err, errlen, "a path too long to quote: %s", file);
		return SSD_ERANGE;
	}
	uint32_t m = ssd_sweep_nchunks(s->npoints, chunk);
	char path[PATH_MAX], tmp[PATH_MAX];
	snprintf(path, sizeof path, "%s/slurm.sh", dir);
	snprintf(tmp, sizeof tmp, "%s/.slurm.sh.%ld", dir, (long)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f) {
		ssd_seterr(err, errlen, "%s: %s", tmp, strerror(errno));
		return SSD_EIO;
	}
	fprintf(f,
		"#!/bin/sh\n"
		"# The points of %s as a Slurm job array, written by\n"
		"# 'ssdlab sweep slurm' (docs/sweeps.md): array task i runs the\n"
		"# points i*%u .. i*%u+%u, up to SLURM_CPUS_PER_TASK at once.  Submit:\n"
		"#   sbatch --array=0-%u %s\n"
		"#SBATCH --job-name=sweep-%s\n"
		"#SBATCH --output=%s/%%A_%%a.out\n"
		"#SBATCH --chdir=%s\n"
		"set -eu\n"
		"n=%u\n"
		"k=%u\n"
		"i=${SLURM_ARRAY_TASK_ID:?not a task of a job array}\n"
		"a=$((i * k))\n"
		"b=$((a + k - 1))\n"
		"[ \"$b\" -lt \"$n\" ] || b=$((n - 1))\n"
		"[ \"$a\" -le \"$b\" ] || { echo \"array task $i: no points (the sweep has $n)\" >&2; exit 2; }\n"
		"exec %s sweep run %s --dir %s --points \"$a-$b\" -j \"${SLURM_CPUS_PER_TASK:-1}\"\n",
		file, chunk, chunk, chunk - 1, m - 1, path, s->name, logs, dir,
		s->npoints, chunk, qexe, qfile, qdir);
	if (ferror(f) | fclose(f) || chmod(tmp, 0755) || rename(tmp, path)) {
		ssd_seterr(err, errlen, "%s: %s", path, strerror(errno));
		remove(tmp);
		return SSD_EIO;
	}
	return 0;
}

int ssd_sweep_slurm_submit(const struct ssd_sweep *s, const char *dir,
			   uint32_t chunk, int wait, char **sargs, int nsargs,
			   FILE *log, int *status, char *err, size_t errlen)
{
	char prog[PATH_MAX];
	if (ssd_sweep_which("sbatch", prog, sizeof prog)) {
		ssd_seterr(err, errlen, "sbatch: not found; Slurm runs the "
			   "points (Debian: apt-get install slurm-wlm)");
		return SSD_ENOENT;
	}
	uint32_t m = ssd_sweep_nchunks(s->npoints, chunk);
	char array[64], script[PATH_MAX];
	snprintf(array, sizeof array, "--array=0-%u", m - 1);
	snprintf(script, sizeof script, "%s/slurm.sh", dir);
	char **argv = calloc((size_t)nsargs + 5, sizeof *argv);
	if (!argv) {
		ssd_seterr(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	int a = 0;
	argv[a++] = prog;
	argv[a++] = array;
	if (wait)
		argv[a++] = "--wait";
	for (int i = 0; i < nsargs; i++)
		argv[a++] = sargs[i];
	argv[a++] = script;
	argv[a] = NULL;
	if (log) {
		fprintf(log, "%u points, %u array task%s of %u (output: "
			"%s/slurm/JOB_TASK.out):", s->npoints, m,
			m == 1 ? "" : "s", chunk, dir);
		for (int i = 0; argv[i]; i++)
			fprintf(log, " %s", i ? argv[i] : "sbatch");
		fputc('\n', log);
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		free(argv);
		ssd_seterr(err, errlen, "fork: %s", strerror(errno));
		return SSD_EIO;
	}
	if (!pid) {
		/* its "Submitted batch job ID" on our standard output */
		if (log && fileno(log) >= 0 && fileno(log) != 1)
			dup2(fileno(log), 1);
		execv(prog, argv);
		dprintf(2, "%s: %s\n", prog, strerror(errno));
		_exit(127);
	}
	free(argv);
	int st;
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			ssd_seterr(err, errlen, "sbatch: %s", strerror(errno));
			return SSD_EIO;
		}
	}
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return 0;
}
