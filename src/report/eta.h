/*
 * eta.h -- the status line on a terminal while the work goes on, fio's
 * ETA line: one implementation for every command that shows one.
 *
 * `ssdlab run` draws fio's own line from the runner's state
 * (ssd_eta_run: the running job, the share done, the simulated IOPS and
 * bandwidth since the last line, the time left):
 *
 *     Jobs: 1 (f=1): [w][45.0%][w=12.3MiB/s][w=3150 IOPS][eta 00m:12s]
 *
 * The methods (scenarios, calibrate, life, accuracy) and the server
 * draw theirs from base/progress.h's reports (ssd_eta_progress): what
 * runs, the share of its phase done ('-' when not known), the simulated
 * time of the drive at work, and the time the phase has left:
 *
 *     steady-state: [steady-state][45.0%][sim 00m:31s][eta 00m:12s]
 *
 * The time left is the wall time so far times what is left over what is
 * done (of the run, or of the phase since it began).  The line is
 * rewritten in place ("\r", then erased to its end) at most every
 * `interval` of wall time, a new phase at once; with `newline` each
 * line ends with a new line every `newline` of wall time instead.  The
 * line's end: ssd_eta_end.
 *
 * Only this reads the wall clock (CLOCK_MONOTONIC), at each report it
 * is given -- the runner reports every 1024 completions, the methods
 * per phase and through the runner -- never the simulation, whose
 * results are the same with the line or without.
 */
#ifndef SSD_ETA_H
#define SSD_ETA_H

#include <stdint.h>
#include <stdio.h>

#include "base/io.h"
#include "base/progress.h"

/* --eta WHEN */
enum { SSD_ETA_AUTO = 0, SSD_ETA_ALWAYS = 1, SSD_ETA_NEVER = -1 };

struct ssd_eta {
	/* set by the caller before ssd_eta_start */
	int when;                   /* SSD_ETA_* */
	double interval;            /* wall seconds between lines (0: 1) */
	double newline;             /* wall seconds between new lines; 0:
	                               one line updated in place */
	const char *label;          /* the progress line's first word
	                               ("steady-state", "calibrate") */
	/* state */
	FILE *f;                    /* where it draws; NULL: it does not */
	double w0, last, last_nl;   /* wall clock: start, last line, last
	                               new line */
	double phase_w0;            /* wall clock as the phase began */
	unsigned seq;               /* the phase drawn last */
	int shown;                  /* a line is on the screen */
	int64_t sim_last;           /* run: the last line's simulated time */
	uint64_t ios_last[SSD_DDIR_N], bytes_last[SSD_DDIR_N];
};

/* WHEN of --eta ("auto", "always", "never") as SSD_ETA_*; -2 for
 * anything else. */
int ssd_eta_when(const char *when);

/* A TIME of --eta-interval (min 0.25) or --eta-newline (min 0.001):
 * "1s", "500ms", a bare number of seconds, at least min seconds, into
 * *out (seconds).  0, or -1 (the caller says what is accepted). */
int ssd_eta_time(const char *val, double min, double *out);

/* Start the clock: the line goes to f when e->when says so (auto: when
 * f is a terminal).  Returns 1 if it will draw, 0 if not (every call
 * below is then a no-op). */
int ssd_eta_start(struct ssd_eta *e, FILE *f);

/* The runner's callback (run/sim.h's ssd_sim_progress_fn; ctx the
 * struct ssd_eta): fio's line. */
struct ssd_sim_progress;
void ssd_eta_run(void *ctx, const struct ssd_sim_progress *p);

/* The progress callback (base/progress.h's ssd_progress_fn; ctx the
 * struct ssd_eta): the methods' line. */
void ssd_eta_progress(void *ctx, const struct ssd_progress *p);

/* The work is over: a line still on the screen ends with a new line
 * (it stays, as the last word of what ran). */
void ssd_eta_end(struct ssd_eta *e);

#endif
