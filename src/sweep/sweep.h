/*
 * sweep.h -- parameter sweeps: many runs of ssdlab as one study
 * (docs/sweeps.md).
 *
 * A sweep file names axes -- drives, drive keys and scenario parameters
 * (set.KEY), job files or scenarios, preconditioning, seeds -- and how
 * they combine: every combination (grid) or the n-th value of each
 * (list).  Each point is one `ssdlab run` or `ssdlab scenario run`, with
 * an id derived from what it runs (its arguments and the bytes of every
 * file it names), so a changed job file is a new point and an unchanged
 * one is the same point however the sweep is cut up.
 *
 *   plan     writes DIR/manifest.tsv: a line per point (index, id, axes)
 *   run      prepares each preconditioned drive points share, once, as a
 *            snapshot (DIR/drives/ID.snap); runs points (all, or a
 *            selection by index) with up to N at
 *            once, each in a directory of its own made under a temporary
 *            name and renamed into DIR/points/ID when it ends: a point
 *            whose directory exists has ended (done, or failed with its
 *            error recorded) and is skipped; one that was cut short left
 *            only a temporary directory, which the next run removes and
 *            runs again
 *   collect  merges the points into DIR/results.csv and
 *            DIR/results.jsonl, a row per point: its axes, its status,
 *            and its figures (for a job file: the measured job's IOPS,
 *            bandwidth and latency percentiles per direction, WAF, GC
 *            copies, erases and wear; for a scenario: every figure of its
 *            result.json); and lists what failed and what is missing
 *
 *   parallel runs the points through GNU parallel, in chunks of K
 *            indices, each chunk one `ssdlab sweep run --points a-b`
 *            (on this machine, or on several with --sshloginfile)
 *   slurm    writes a Slurm job array script whose task i runs chunk i,
 *            chunked below the cluster's MaxArraySize, and submits it
 *
 * Nothing in a row depends on wall time or on where or in which order
 * the points ran, so the results of `run -j 8` on one machine, GNU
 * parallel on several and a Slurm job array are the same bytes.
 */
#ifndef SSD_SWEEP_H
#define SSD_SWEEP_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#define SSD_SWEEP_MAX_AXES 32
#define SSD_SWEEP_MAX_POINTS 1000000
/* The longest array of a scenario's result.json that collect spreads
 * over columns, an element each; a longer one is a series (the point's
 * CSV files have it). */
#define SSD_SWEEP_ARRAY_MAX 64

/* What a point runs. */
enum { SSD_SWEEP_JOB, SSD_SWEEP_SCENARIO };

/* An axis: its name as the sweep file writes it ("drive", "set.op",
 * "job", "scenario", "precondition", "seed") and its values. */
struct ssd_sweep_axis {
	char *name;
	uint32_t n;
	char **val;
	int line;               /* where the file set it */
};

struct ssd_sweep {
	char *file;             /* the sweep file, as given */
	char *base;             /* its folder: relative names start there */
	char *name;             /* [sweep] name, or the file's base name */
	int list;               /* list mode (else grid) */
	char *measure;          /* the job whose figures a row takes (NULL:
	                           each run's last job) */
	int measure_line;       /* where the file set it */
	uint32_t naxes;
	struct ssd_sweep_axis ax[SSD_SWEEP_MAX_AXES];
	int share;              /* share = yes (default): points of one
	                           preconditioned drive start from its
	                           snapshot */
	uint32_t npoints;
	uint32_t *pick;         /* [point * naxes + axis] the value index */
	char (*id)[17];         /* [point] 16 hex digits */
	char (*did)[17];        /* [point] its preconditioned drive's id
	                           (drive, keys, precondition, seed), or ""
	                           when it shares none */
};

/* Read and check a sweep file, and expand its points (their ids hash
 * the files they name, which must exist).  0, or an SSD_E* code with
 * "FILE:LINE: ..." in err. */
int ssd_sweep_load(const char *file, struct ssd_sweep **out, char *err,
		   size_t errlen);
void ssd_sweep_free(struct ssd_sweep *s);

/* Check each value of each axis once, by the code that reads it in a
 * point's run: a drive by the preset lookup (presets in preset_dir), a
 * set.KEY value as the drive key KEY or as the parameter KEY of each
 * scenario that has one, a scenario by the registry, a precondition
 * by its grammar; and that `measure` names a job of every job file.  0,
 * or an SSD_E* code with "FILE:LINE: AXIS: ..." (the axis's line) in
 * err. */
int ssd_sweep_check(const struct ssd_sweep *s, const char *preset_dir,
		    char *err, size_t errlen);

/* 1 if drive value v names a drive file (a '/' or ".ini" at the end),
 * else a preset. */
int ssd_sweep_is_file_drive(const char *v);

/* name relative to the sweep file's folder (unless absolute), in a new
 * string; NULL out of memory. */
char *ssd_sweep_path(const struct ssd_sweep *s, const char *name);

/* Point p's value of the axis named `name`, or NULL. */
const char *ssd_sweep_value(const struct ssd_sweep *s, uint32_t p,
			    const char *name);
/* Point p as the arguments of the ssdlab binary exe (argv[0] = exe),
 * NULL-terminated, into a new array (free with ssd_sweep_argv_free):
 * with snap, starting from that snapshot of its preconditioned drive
 * instead of preconditioning its own; with prepare (and snap), the
 * command that makes that snapshot.  NULL out of memory. */
char **ssd_sweep_argv(const struct ssd_sweep *s, uint32_t p, const char *exe,
		      const char *snap, int prepare);
void ssd_sweep_argv_free(char **argv);

/* Each file job file `job` (a path) names for ssdlab to read: its
 * includes (include = 1, followed into) and the values of its options
 * that name a file (read_iolog, dp_scheme).  fn gets the file and line
 * naming it, the name as written and the path: an option's relative
 * name resolved against the job file's folder (a point's run sees that
 * folder as its own: docs/sweeps.md), an include's as the job parser
 * does.  A value with ${VAR} is left out.  Returns fn's first non-zero
 * return, or SSD_EIO when the job file cannot be read. */
int ssd_sweep_job_inputs(const char *job,
			 int (*fn)(void *ctx, const char *file, int line,
				   const char *name, const char *path,
				   int include),
			 void *ctx);

/* 1 if relative file name `name` climbs out of its folder (a ".."
 * component: "../t.iolog", "a/../../t"). */
int ssd_sweep_climbs(const char *name);

/* Write DIR/manifest.tsv (DIR made if needed).  0 or an SSD_E* code,
 * the message in err. */
int ssd_sweep_plan(const struct ssd_sweep *s, const char *dir, char *err,
		   size_t errlen);

/* mkdir -p dir: 0, or SSD_EIO with "DIR: reason" in err. */
int ssd_sweep_mkdirs(const char *dir, char *err, size_t errlen);

/* Parse a selection of point indices, "3,5-9,12" (each < npoints),
 * into sel[npoints] (1 = selected).  0, or SSD_EPARSE/SSD_ERANGE with a
 * message. */
int ssd_sweep_select(const struct ssd_sweep *s, const char *text,
		     uint8_t *sel, char *err, size_t errlen);

/* Run the selected points (sel NULL: all) that have not ended, up to
 * `jobs` at once, each as exe's child in its own directory under
 * DIR/points.  A line per point on `log` (NULL: none): "done", "failed:
 * ERROR", "skipped", "stopped" or "cut short".  *failed counts the
 * points that failed now; *cut those cut short: a child killed by a
 * signal, which leaves its point unended (it runs again next time), not
 * failed.  stop (NULL: none) is the runner's stop: once *stop holds a
 * signal's number (the caller's handler of SIGINT, SIGTERM and SIGHUP
 * sets it; it is looked at every 100 ms), no point starts, the signal is
 * sent to each running child, each is waited for, and those that did not
 * succeed are left unended.  0, or an SSD_E* code for the sweep itself
 * (a directory it cannot make), the message in err. */
int ssd_sweep_run(const struct ssd_sweep *s, const char *dir, const char *exe,
		  const uint8_t *sel, int jobs, int retry_failed, FILE *log,
		  const volatile sig_atomic_t *stop, uint32_t *failed,
		  uint32_t *cut, char *err, size_t errlen);

/* How many points have not ended (no DIR/points/ID: never run, or cut
 * short), the first of them in *first (when any). */
uint32_t ssd_sweep_unended(const struct ssd_sweep *s, const char *dir,
			   uint32_t *first);

/* Merge every point's result into DIR/results.csv and DIR/results.jsonl
 * (the files are complete whatever is missing: a missing or failed
 * point is a row with its status).  *done, *failed and *missing count
 * them; a line per failed or missing point on `log`.  0, or an SSD_E*
 * code with the message in err: SSD_ENOENT when DIR is not a folder
 * (checked first, so that nothing is listed). */
int ssd_sweep_collect(const struct ssd_sweep *s, const char *dir, FILE *log,
		      uint32_t *done, uint32_t *failed, uint32_t *missing,
		      char *err, size_t errlen);

/* ---- launchers on other engines (sweep_launch.c, sweep_parallel.c,
 * sweep_slurm.c) ---- */

/* How many chunks of k points (k >= 1) cover npoints. */
uint32_t ssd_sweep_nchunks(uint32_t npoints, uint32_t k);

/* Chunk i of k points as a --points selection: "a-b", or "a" for one
 * point, into buf. */
void ssd_sweep_chunk(uint32_t npoints, uint32_t k, uint32_t i, char *buf,
		     size_t n);

/* The absolute path of program prog on $PATH (or prog itself when it
 * has a '/') into buf: 0, or SSD_ENOENT when there is none. */
int ssd_sweep_which(const char *prog, char *buf, size_t n);

/* Run argv (argv[0] a path) with no input, its standard output into
 * buf[n] (cut there, 0-terminated), its standard error dropped: its exit
 * status, or -1 (it could not be run, or was killed). */
int ssd_sweep_capture(char **argv, char *buf, size_t n);

/* word quoted for a POSIX shell ('...' when it has any character other
 * than letters, digits and _/.,:=+-), into buf: 0, or SSD_ERANGE when
 * it does not fit. */
int ssd_sweep_shell_word(const char *word, char *buf, size_t n);

/* The absolute paths that the runners of other machines see: the
 * sweep file's into file, the directory's (which must exist) into dir.
 * 0, or SSD_EIO with "PATH: reason" in err. */
int ssd_sweep_abs(const char *sweep_file, const char *dir, char *file,
		  char *absdir, size_t n, char *err, size_t errlen);

/* The default chunk for GNU parallel: a quarter of the points per job
 * slot, the slots being the -j/--jobs/-P N among pargs (a plain number)
 * or the online processors. */
uint32_t ssd_sweep_parallel_chunk(uint32_t npoints, char **pargs, int npargs);

/* Run the points through GNU parallel, as a child, and wait for it:
 * `parallel PARGS... 'EXE' sweep run 'FILE' --dir 'DIR' --points {}
 * ::: CHUNKS`, FILE and DIR absolute (ssd_sweep_abs), DIR planned.
 * The command is printed on log first.  *status is parallel's exit
 * status (the chunks that failed), or 128 + N when signal N ended it.
 * 0, or SSD_ENOENT when GNU parallel is not installed, SSD_ENOMEM,
 * SSD_EIO (it could not be started), with the message in err. */
int ssd_sweep_parallel(const struct ssd_sweep *s, const char *file,
		       const char *dir, const char *exe, uint32_t chunk,
		       char **pargs, int npargs, FILE *log, int *status,
		       char *err, size_t errlen);

/* The cluster's MaxArraySize from `scontrol show config` (1001, Slurm's
 * default, when scontrol is missing, fails or does not say). */
uint32_t ssd_sweep_slurm_max_array(void);

/* The MaxArraySize line of scontrol's output text: its value, or 0. */
uint32_t ssd_sweep_slurm_parse_max_array(const char *text);

/* Write DIR/slurm.sh: a job array script whose task i runs chunk i of
 * `chunk` points with `EXE sweep run FILE --dir DIR`, its output in
 * DIR/slurm/JOB_TASK.out (FILE, DIR absolute).  0, or SSD_EIO /
 * SSD_EINVAL (a path the script cannot carry) with the message. */
int ssd_sweep_slurm_script(const struct ssd_sweep *s, const char *file,
			   const char *dir, const char *exe, uint32_t chunk,
			   char *err, size_t errlen);

/* Submit DIR/slurm.sh with `sbatch --array=0-(M-1) [--wait] SARGS...
 * DIR/slurm.sh`, M the chunks, the command printed on log first and
 * sbatch's "Submitted batch job ID" after it.  *status is sbatch's exit
 * status (with --wait: the highest of the tasks').  0, or SSD_ENOENT
 * (sbatch not installed), SSD_EIO (it could not be run) with the
 * message. */
int ssd_sweep_slurm_submit(const struct ssd_sweep *s, const char *dir,
			   uint32_t chunk, int wait, char **sargs, int nsargs,
			   FILE *log, int *status, char *err, size_t errlen);

#endif
