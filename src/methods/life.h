/*
 * life.h -- how long a drive lasts: its rated flash endurance divided by
 * the write amplification a workload actually causes, next to the naive
 * arithmetic of the 2008 essay (docs/lifetime.md).
 *
 * The model.  Every block of the physical flash can be erased pe_cycles
 * times, and each erase makes room for one block of NAND programs, so the
 * flash absorbs
 *     nand = physical blocks x block bytes x pe_cycles        (bytes)
 * of NAND writes (native cell mode; an SLC cache and the spread of
 * per-block endurance are second-order and left to the accelerated run).
 * A workload with write amplification WAF (NAND bytes programmed per host
 * byte written) lets the host write
 *     tbw = nand / WAF                                         (bytes)
 * before the flash is used up: at `daily` host bytes a day that is
 *     days = tbw / daily,   years = days / 365.
 * The essay's arithmetic is capacity x cycles / 2: user capacity instead
 * of physical flash, and a guessed write amplification of 2 ("each full
 * write costs 2 cycles").  29.8 GB x 5000 / 2 = 74,500 GB, which lasts
 * 5 years at 40.8 GB a day.
 *
 * The measurement.  ssd_life_run() drives a fresh drive with a workload
 * split in two: every job before the last stonewall group preconditions
 * the drive; the last group is measured, and WAF is the drive's NAND 4 KiB
 * units programmed over host 4 KiB pages written in that window.  With
 * until_worn it then repeats the measured group (a new seed each pass)
 * until the drive turns read-only, and records the host bytes written
 * from fresh up to that point: an endurance test, meant for drives with a
 * small pe_cycles so that it ends in seconds.
 *
 * Everything is simulated; no function here reads a clock.  Sizes are
 * bytes, as doubles where products of capacities and cycles may pass
 * 2^64.
 */
#ifndef SSD_LIFE_H
#define SSD_LIFE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/config.h"
#include "base/progress.h"
#include "job/job.h"
#include "stats/stats.h"

#define SSD_LIFE_DAYS_PER_YEAR 365.0
/* The essay's cycles per full write of the user capacity. */
#define SSD_LIFE_NAIVE_FACTOR 2.0
/* `ssdlab life --accelerated` without --drive / --set: the tiny preset
 * with a short life, so that it wears out in well under a second. */
#define SSD_LIFE_ACCEL_DRIVE "tiny"
#define SSD_LIFE_ACCEL_PE_CYCLES "50"
#define SSD_LIFE_ACCEL_PE_SPREAD "0.05"
/* static wear leveling scaled to the short life (a fifth of it) */
#define SSD_LIFE_ACCEL_WL_THRESHOLD "10"
/* An endurance run gives up when the host has written this many times
 * the flash's rated NAND endurance without the drive turning read-only
 * (WAF >= 1, so every block has passed its rating by then). */
#define SSD_LIFE_GIVE_UP 4

/* ---- the arithmetic (pure functions) ---- */

/* NAND bytes the flash absorbs: physical_bytes x pe_cycles. */
double ssd_life_nand_bytes(double physical_bytes, double pe_cycles);

/* Host bytes written before wear-out (TBW): nand_bytes / waf.  0 when
 * waf is not a positive finite number. */
double ssd_life_tbw(double nand_bytes, double waf);

/* Days until host_bytes are written at daily_bytes a day; 0 when
 * daily_bytes <= 0. */
double ssd_life_days(double host_bytes, double daily_bytes);

/* days / SSD_LIFE_DAYS_PER_YEAR. */
double ssd_life_years(double days);

/* The daily volume that writes host_bytes in `years` years (the essay's
 * "40.8 GB/day over 5 years"); 0 when years <= 0. */
double ssd_life_daily_for_years(double host_bytes, double years);

/* The essay's TBW: capacity_bytes x pe_cycles / factor. */
double ssd_life_naive_tbw(double capacity_bytes, double pe_cycles,
			  double factor);

/* The whole estimate for a drive, a WAF and a daily volume. */
struct ssd_life_estimate {
	uint64_t user_bytes;       /* capacity the host sees */
	uint64_t physical_bytes;   /* all flash: user + spare */
	uint64_t physical_blocks;  /* erase blocks (each plane's own) */
	uint64_t block_bytes;      /* page_size x pages_per_block */
	uint32_t pe_cycles;        /* rated cycles per block */
	double waf;                /* measured write amplification */
	double daily_bytes;        /* host bytes written per day */
	double nand_bytes;         /* physical_bytes x pe_cycles */
	double tbw_bytes;          /* nand_bytes / waf */
	double days, years;        /* tbw at daily_bytes */
	double naive_factor;       /* SSD_LIFE_NAIVE_FACTOR */
	double naive_tbw_bytes;    /* user_bytes x pe_cycles / factor */
	double naive_days, naive_years;
	/* the factor that would make the essay's formula give tbw_bytes:
	 * waf x user_bytes / physical_bytes */
	double equivalent_factor;
};

/* Fill *e from a finished config.  Pure. */
void ssd_life_estimate(const struct ssd_config *c, double waf,
		       double daily_bytes, struct ssd_life_estimate *e);

/* ---- the runs ---- */

/* What a measurement (and endurance run) found. */
struct ssd_life_run {
	uint64_t measured_host_lp; /* host 4 KiB pages written in the
	                              measured window */
	uint64_t measured_nand_lp; /* 4 KiB units programmed meanwhile */
	double waf;                /* their ratio */
	int until_worn;            /* an endurance run was asked for */
	int worn_out;              /* the drive turned read-only */
	uint32_t passes;           /* measured-group passes run */
	uint64_t host_bytes;       /* host bytes written from fresh to the
	                              end (to wear-out if worn_out) */
	uint64_t nand_bytes;       /* NAND bytes programmed likewise */
	int64_t sim_ns;            /* simulated time of everything */
	uint64_t host_ios;         /* host I/Os simulated */
	struct ssd_health health;  /* the drive at the end */
};

/* The built-in workload for a drive of `capacity` user bytes: fill it
 * sequentially, precondition with one capacity of uniformly random 4 KiB
 * writes (fio's norandommap=1: drawn independently, as the analytic
 * models assume), then measure one more capacity of the same.  Returns
 * what ssd_jobfile_parse_string does; *jobs is malloc'd. */
int ssd_life_builtin_jobs(uint64_t capacity, struct ssd_job **jobs,
			  int *njobs, char *err, size_t errlen);
/* One line describing the built-in workload, for reports. */
extern const char ssd_life_builtin_desc[];

/* Run `jobs` on a fresh drive built from the finished config c (see the
 * measurement above; log options of the jobs are ignored).  seed seeds
 * the drive and the first pass; pass k runs with seed + k.  Returns 0 and
 * fills *r, or a negative SSD_E* code with a one-line message in err:
 * SSD_EINVAL when the measured group writes nothing, SSD_EROFS when the
 * drive wears out before the measurement ends, SSD_ESTATE when an
 * endurance run writes SSD_LIFE_GIVE_UP times the rated endurance
 * without wearing out, or the drive's and simulator's own codes.
 * Progress goes to pg (NULL: none): the phases precondition, measure
 * and endurance run (its share: the flash's writes against its rated
 * endurance). */
int ssd_life_run(const struct ssd_config *c, const struct ssd_job *jobs,
		 int njobs, uint64_t seed, int until_worn, struct ssd_prog *pg,
		 struct ssd_life_run *r, char *err, size_t errlen);

/* ---- the report ---- */

struct ssd_life_report {
	const struct ssd_config *cfg; /* the drive (finished) */
	const char *workload;      /* job file path, or NULL for built-in */
	uint64_t seed;
	struct ssd_life_run run;
	struct ssd_life_estimate est;
	double wall_s;             /* wall-clock seconds (not deterministic) */
};

/* Text for people.  Deterministic apart from the last (wall time) line. */
void ssd_life_print(const struct ssd_life_report *r, FILE *out);
/* JSON, fio's spacing; wall_seconds is the only non-deterministic
 * field. */
void ssd_life_json(const struct ssd_life_report *r, FILE *out);

/* ---- the whole recipe ---- */

#define SSD_LIFE_ACCEL_NKEYS 3 /* drive keys an accelerated run sets */

/* The drive of a life run: `drive` (preset name or file, preset.h; NULL:
 * "default", or SSD_LIFE_ACCEL_DRIVE when accelerated), with an
 * accelerated run's pe_cycles, pe_spread and wl_threshold first, then
 * the overrides sets[i] ("KEY=VALUE", so they can change those too).
 * Returns 0 or the config's error with its message in err. */
int ssd_life_config(const char *preset_dir, const char *drive,
		    const char *const *sets, int nsets, int accelerated,
		    struct ssd_config *c, char *err, size_t errlen);
/* The workload: the job file at `jobfile`, or the built-in one when
 * NULL (ssd_life_builtin_jobs). */
int ssd_life_jobs(const char *jobfile, uint64_t capacity,
		  struct ssd_job **jobs, int *njobs, char *err, size_t errlen);
/* Run the jobs (ssd_life_run, until worn out when accelerated), estimate
 * the life at `daily` host bytes a day and print the report on out
 * (JSON when json); the report's wall time is measured here.  Returns 0
 * or ssd_life_run's error (message in err, nothing printed). */
int ssd_life_report_run(const struct ssd_config *c,
			const struct ssd_job *jobs, int njobs,
			const char *jobfile, uint64_t seed, int accelerated,
			double daily, int json, FILE *out, struct ssd_prog *pg,
			char *err, size_t errlen);

#endif
