/*
 * progress.h -- where a long piece of work is, told to whoever draws a
 * status line (report/eta.h draws the CLI's).
 *
 * The reviewers' methods (scenarios, calibrate, life, accuracy) take a
 * reporter, struct ssd_prog, and tell it at natural points: a phase
 * begins (a name: "precondition", "drive 2 of 9: x25-m"), and within a
 * run of jobs every 1024 completions (run/sim.h, ssd_sim_run_prog)
 * how much of the phase is done and the simulated time of the drive at
 * work.  A phase of known length may be made of several runs of jobs:
 * ssd_prog_span says which share of the phase the next one covers.
 *
 * Reporting reads no clock and changes nothing that is simulated: the
 * results are the same with a listener or without.  A NULL reporter, or
 * one without a callback, makes every call here a no-op, and a run of
 * jobs then counts nothing for it.
 */
#ifndef SSD_PROGRESS_H
#define SSD_PROGRESS_H

#include <stdint.h>

/* One report. */
struct ssd_progress {
	const char *phase;  /* what runs now (never NULL; lives until the
	                       next report) */
	double done;        /* share of the phase done, 0..1; < 0: not known */
	int64_t sim_ns;     /* the simulated time of the drive at work, ns */
	unsigned seq;       /* the phase's number: it changes when a new
	                       phase begins (the ETA counts from there) */
	int clear;          /* 1: output is about to follow on the terminal:
	                       take the line off the screen (no other field
	                       counts) */
};
typedef void (*ssd_progress_fn)(void *ctx, const struct ssd_progress *p);

/* The reporter a method is given; zero it, then set fn and ctx. */
struct ssd_prog {
	ssd_progress_fn fn; /* NULL: nobody listens */
	void *ctx;
	/* the reporter's own state */
	char phase[112];    /* the phase's name ("": the running job's) */
	char line[176];     /* the phase as reported (phase and job) */
	unsigned seq;
	int spanned;        /* lo and hi hold (ssd_prog_span); else a run
	                       of jobs covers the whole phase */
	double lo, hi;      /* the share of the phase that the next run of
	                       jobs covers */
	int64_t sim_ns;     /* the last simulated time reported */
	int64_t run_t0;     /* the drive's time when the run of jobs began */
};

/* 1 if anybody listens to pg. */
static inline int ssd_prog_on(const struct ssd_prog *pg)
{
	return pg && pg->fn;
}

/* A new phase, named by fmt (printf), at simulated time sim_ns: reported
 * at once with its share not known.  The runs of jobs in it report the
 * share of their work done as the phase's (ssd_prog_span changes that);
 * fmt "" leaves the phase to be named by the running job. */
void ssd_prog_phase(struct ssd_prog *pg, int64_t sim_ns, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The share of the phase done when the running run of jobs has done
 * share d of its own work. */
static inline double ssd_prog_share(const struct ssd_prog *pg, double d)
{
	return pg->spanned ? pg->lo + (pg->hi - pg->lo) * d : d;
}

/* The next run of jobs covers the shares lo..hi of the phase (0 <= lo <=
 * hi <= 1): its own share done d is reported as lo + (hi - lo) d.
 * Reports lo at once, at the last simulated time reported. */
void ssd_prog_span(struct ssd_prog *pg, double lo, double hi);

/* Report share `done` of the phase (< 0: not known) at sim_ns; job, if
 * not NULL, is named after the phase. */
void ssd_prog_at(struct ssd_prog *pg, double done, int64_t sim_ns,
		 const char *job);

/* Output follows (a table row, a summary): the line leaves the screen
 * until the next report. */
void ssd_prog_clear(struct ssd_prog *pg);

#endif
