/*
 * ssdlab.h -- the public interface of the ssdlab library: a simulated
 * flash SSD (NAND chips, controller, flash translation layer) that runs
 * page program by page program and erase by erase in simulated time.
 *
 * This is the only header a program that embeds ssdlab includes; it
 * depends on the C library alone.  Link with -lssdlab -lm (or
 * `pkg-config --cflags --libs ssdlab`).
 *
 * The objects, bottom up:
 *
 *   ssdlab_drive   a drive's configuration: a preset or drive file, keys
 *                  set one by one (the keys of `ssdlab drive doc`), then
 *                  finished (derived and checked);
 *   ssdlab_dev     a simulated drive built from a finished configuration:
 *                  fresh from the factory, every block erased.  Commands
 *                  go in at a simulated time and their completion times
 *                  come out; idle time runs its background work;
 *   ssdlab_jobs    a workload: fio job text parsed, or jobs built in code
 *                  option by option (the options of `ssdlab job doc`);
 *   ssdlab_result  what a run of jobs on a drive measured, with fio's
 *                  figures per job and the drive's counters, and the same
 *                  reports the ssdlab tool prints.
 *
 * Conventions.
 *
 *   - Errors.  A function that can fail returns 0 (SSDLAB_OK) or a
 *     negative SSDLAB_E* code; one that returns a simulated time returns
 *     it (>= 0) or a negative code.  ssdlab_strerror names a code.
 *     Functions with (char *err, size_t errlen) also write a one-line
 *     message there on failure, naming where and what is wrong (err may be
 *     NULL).  Out of memory is SSDLAB_ENOMEM like any other error: the
 *     library never exits the process and never prints.
 *   - Ownership.  An object made by ssdlab_X_new / ssdlab_X_open /
 *     ssdlab_run belongs to the caller, who frees it with the matching
 *     ssdlab_X_free / ssdlab_X_close (NULL is accepted and ignored).
 *     Strings passed in are copied; pointers returned point into the
 *     object and live as long as it does.  A ssdlab_dev keeps its own copy
 *     of its configuration, and a ssdlab_result what it needs of its jobs
 *     and drive, so each may be freed in any order.
 *   - Time is simulated: int64_t nanoseconds since the drive was made.
 *     Nothing reads the wall clock, except the wall-time fields of the
 *     reports (named as such).
 *   - State.  There is no global state: objects are independent, so two
 *     simulations in one process never meet, and separate objects may be
 *     used from separate threads.  One object is not to be used from two
 *     threads at once.
 *   - Determinism.  The same configuration, jobs and seeds give the same
 *     results, bit for bit.
 */
#ifndef SSDLAB_H
#define SSDLAB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the shared library exports: these functions and nothing else (the
 * library's own functions are hidden). */
#if defined(__GNUC__) || defined(__clang__)
#define SSDLAB_API __attribute__((visibility("default")))
#else
#define SSDLAB_API
#endif

/* ---- version ---- */

/* SSDLAB_VERSION_MAJOR, _MINOR and _PATCH are the one definition of
 * ssdlab's version number (the Makefile reads them for the shared
 * library's soname and ssdlab.pc; reports print SSDLAB_VERSION). */
#define SSDLAB_VERSION_MAJOR 0
#define SSDLAB_VERSION_MINOR 1
#define SSDLAB_VERSION_PATCH 0

#define SSDLAB_STR_(x) #x
#define SSDLAB_STR(x) SSDLAB_STR_(x)
/* "MAJOR.MINOR.PATCH", a string literal ("0.1.0") */
#define SSDLAB_VERSION SSDLAB_STR(SSDLAB_VERSION_MAJOR) "." \
	SSDLAB_STR(SSDLAB_VERSION_MINOR) "." SSDLAB_STR(SSDLAB_VERSION_PATCH)

/* The library's version as "MAJOR.MINOR.PATCH": a static string, never
 * NULL, the same as SSDLAB_VERSION of the headers it was built with --
 * which may differ from the header a program was compiled with. */
SSDLAB_API const char *ssdlab_version(void);

/* ---- errors ---- */

enum {
	SSDLAB_OK = 0,
	SSDLAB_EINVAL = -1,    /* bad argument or value */
	SSDLAB_ENOMEM = -2,    /* out of memory */
	SSDLAB_EIO = -3,       /* a file could not be opened, read or written */
	SSDLAB_ERANGE = -4,    /* a value out of the accepted range */
	SSDLAB_ENOSPC = -5,    /* the drive found no free block */
	SSDLAB_EROFS = -6,     /* the drive is read-only (end of life) */
	SSDLAB_EPARSE = -7,    /* malformed input */
	SSDLAB_ENOENT = -8,    /* no such preset or drive key */
	SSDLAB_EUNSUP = -9,    /* recognised but not supported */
	SSDLAB_ESTATE = -10,   /* a flash rule or an invariant was violated */
	SSDLAB_EILSEQ = -11,   /* data read back is not what was written */
	SSDLAB_ETIMEDOUT = -12, /* an I/O took longer than its job allows */
	/* a zoned drive's command failed with this NVMe status (the NVMe
	 * Zoned Namespace Command Set's; docs/zoned.md) */
	SSDLAB_ZNS_EFIELD = -0x1002,     /* Invalid Field in Command */
	SSDLAB_FDP_EPID = -0x2002,       /* Invalid Field: no such placement
	                                    handle */
	SSDLAB_ZNS_EZONEOP = -0x11b6,    /* Invalid Zone Operation Request */
	SSDLAB_ZNS_ENOZRWA = -0x11b7,    /* ZRWA Resources Unavailable */
	SSDLAB_ZNS_ERANGE = -0x1080,     /* LBA Out of Range */
	SSDLAB_ZNS_EBOUNDARY = -0x11b8,  /* Zone Boundary Error */
	SSDLAB_ZNS_EFULL = -0x11b9,      /* Zone Is Full */
	SSDLAB_ZNS_EREADONLY = -0x11ba,  /* Zone Is Read Only */
	SSDLAB_ZNS_EOFFLINE = -0x11bb,   /* Zone Is Offline */
	SSDLAB_ZNS_EWRITE = -0x11bc,     /* Zone Invalid Write */
	SSDLAB_ZNS_EMAXACTIVE = -0x11bd, /* Too Many Active Zones */
	SSDLAB_ZNS_EMAXOPEN = -0x11be,   /* Too Many Open Zones */
	SSDLAB_ZNS_ETRANSITION = -0x11bf /* Invalid Zone State Transition */
};

/* A short description of an error code ("drive is read-only"). */
SSDLAB_API const char *ssdlab_strerror(int code);

/* ---- drive configuration ---- */

typedef struct ssdlab_drive ssdlab_drive;

/* A configuration with the built-in defaults (the "default" preset's
 * values).  SSDLAB_ENOMEM. */
SSDLAB_API int ssdlab_drive_new(ssdlab_drive **out);

/* Load a preset by name ("tiny", "intel-x25m-80g"; the file NAME.ini in
 * preset_dir) or a drive file by path (a name holding a '/' or ending in
 * ".ini"), over the built-in defaults: keys set before are lost.  With
 * preset_dir NULL the directory is $SSDLAB_PRESETS, else the presets
 * directory of the source tree the library was built from; an installed
 * library's presets are in `pkg-config --variable=presetdir ssdlab`
 * (pass it, or set SSDLAB_PRESETS).  SSDLAB_ENOENT (no such preset),
 * SSDLAB_EIO (a file that cannot be opened or read), SSDLAB_EPARSE,
 * SSDLAB_ERANGE (a bad line: the message names file, line and key). */
SSDLAB_API int ssdlab_drive_load(ssdlab_drive *d, const char *name_or_path,
		      const char *preset_dir, char *err, size_t errlen);

/* Set one key ("op", "0.28"; "capacity", "1g"), as `--set` does: it
 * overrides the file's value, and when the drive is finished the keys not
 * set adapt to a capacity the file's shape cannot hold.  On error the
 * configuration is unchanged: SSDLAB_ENOENT (unknown key), SSDLAB_EPARSE,
 * SSDLAB_ERANGE, SSDLAB_EINVAL (a derived key). */
SSDLAB_API int ssdlab_drive_set(ssdlab_drive *d, const char *key, const char *value,
		     char *err, size_t errlen);

/* Derive and check the drive (geometry, timings, every rule between
 * keys).  Needed after the last load/set and before the drive is used;
 * harmless to repeat.  SSDLAB_ERANGE / SSDLAB_EINVAL with a message that
 * names the key to change and a value that works. */
SSDLAB_API int ssdlab_drive_finish(ssdlab_drive *d, char *err, size_t errlen);

/* Of a finished drive: the capacity the host sees (the volume of a
 * machine with host layers, docs/stack.md) and raw NAND (0 for a hard
 * disk), in bytes. */
SSDLAB_API uint64_t ssdlab_drive_capacity(const ssdlab_drive *d);
SSDLAB_API uint64_t ssdlab_drive_physical_bytes(const ssdlab_drive *d);

/* Every key that speaks of the drive (a hard disk's keys only for a
 * disk, the flash's only for an SSD) with its value, as a drive file
 * that loads back to the same drive (`ssdlab drive show`), or as one
 * JSON object.  SSDLAB_EIO when writing fails. */
SSDLAB_API int ssdlab_drive_print(const ssdlab_drive *d, FILE *out);
SSDLAB_API int ssdlab_drive_json(const ssdlab_drive *d, FILE *out);

SSDLAB_API void ssdlab_drive_free(ssdlab_drive *d);

/* Memory.  ssdlab_drive_memory: the bytes simulating the finished drive
 * takes, estimated before it is built -- the FTL's maps (about 8 bytes
 * per 4 KiB of flash) and tables, the controller's buffers, the host
 * layers, and the program's own 3 MiB; with SSDLAB_MEM_VERIFY in flags,
 * also what jobs that verify data add (the out-of-band tags and the
 * host's record: about 8 bytes per 4 KiB more).  The figure `ssdlab drive
 * show` prints on its "# memory:" line; 0 for a drive not finished.
 * ssdlab_memory_available: what this process may still take, in bytes
 * -- the least of MemAvailable, the cgroup's limit less its use, and
 * RLIMIT_AS less the address space mapped; SSDLAB_ENOENT when none can
 * be read.  ssdlab_dev_open compares the two (drive key mem_check, on
 * by default) and refuses a drive that does not fit with SSDLAB_ENOMEM,
 * before allocating any of it. */
#define SSDLAB_MEM_VERIFY 1u
SSDLAB_API uint64_t ssdlab_drive_memory(const ssdlab_drive *d, unsigned flags);
SSDLAB_API int ssdlab_memory_available(uint64_t *bytes);

/* ---- a simulated drive ---- */

typedef struct ssdlab_dev ssdlab_dev;

/* Build a drive from a finished configuration (it is copied).  seed
 * drives everything random in the flash (program failures, read
 * retries...).  SSDLAB_EINVAL (not finished, or a geometry too large for
 * the model), SSDLAB_ENOMEM (also a drive that would need more memory
 * than the process may take, with mem_check on: ssdlab_drive_memory). */
SSDLAB_API int ssdlab_dev_open(const ssdlab_drive *d, uint64_t seed, ssdlab_dev **out);
SSDLAB_API void ssdlab_dev_close(ssdlab_dev *dev);

/* Snapshots (docs/snapshots.md).  ssdlab_dev_save writes the drive's
 * whole state -- maps, blocks, wear, buffers, counters, time, generators
 * -- to `path`, whole or not at all: 0, SSDLAB_EUNSUP (a machine of host
 * layers or a hard disk, power-loss tracking on, a block-mapped FTL, a
 * drive that failed: err says which), SSDLAB_EIO (err names the file).
 * ssdlab_dev_load builds the drive saved there, which goes on exactly as
 * the saved one would have (its time too: the next command may come at
 * ssdlab_now); `d`, if not NULL, must be the drive in the file (its name
 * and description aside) or the load is refused naming the first key
 * that differs.  0 and *out (close it with ssdlab_dev_close), or
 * SSDLAB_EPARSE (not a snapshot, truncated, damaged, another drive),
 * SSDLAB_EUNSUP (another format version), SSDLAB_EIO, SSDLAB_ENOMEM,
 * with one line in err. */
SSDLAB_API int ssdlab_dev_save(const ssdlab_dev *dev, const char *path,
			       char *err, size_t errlen);
SSDLAB_API int ssdlab_dev_load(const char *path, const ssdlab_drive *d,
			       ssdlab_dev **out, char *err, size_t errlen);

/* The capacity the host sees, in bytes (a machine's volume). */
SSDLAB_API uint64_t ssdlab_dev_capacity(const ssdlab_dev *dev);

/* Host commands.  OR SSDLAB_FUA into a write's op for Force Unit Access
 * (it completes once its data is programmed); OR SSDLAB_DIRECT into any
 * op to bypass the machine's page cache (O_DIRECT; without it commands
 * are buffered when the drive file sets page_cache, and the flag does
 * nothing otherwise). */
enum ssdlab_op { SSDLAB_READ = 0, SSDLAB_WRITE = 1, SSDLAB_TRIM = 2 };
#define SSDLAB_FUA 0x100
#define SSDLAB_DIRECT 0x200
/* OR'd into a write on a drive with flexible data placement (fdp = yes;
 * docs/fdp.md): its placement identifier h -- with one reclaim group the
 * handle (0 .. fdp_handles - 1); with fdp_groups > 1 the group in the
 * identifier's top RGIF bits (RGIF: the bits fdp_groups - 1 needs) and
 * the handle below them, as ssdlab_placement_ids lists them.  Without it
 * the default: handle 0, in a reclaim group the drive chooses (every
 * unit in turn, as without groups).  An identifier naming a group or a
 * handle the drive does not have fails the write with SSDLAB_FDP_EPID
 * (an event); a drive without FDP ignores it. */
#define SSDLAB_PLACEMENT(h) ((int)(((unsigned)(h) + 1) << 16))

/* Submit a command on [offset, offset + len) at simulated time t (t must
 * not be before the previous submission, nor before the end of the last
 * ssdlab_idle; a gap since the drive's last completion is idle time for
 * its background work).  Offsets and lengths are in bytes (len > 0; a
 * longer TRIM is split by the caller); a write of part of a 4 KiB page
 * is a read-modify-write, and a TRIM deallocates only the 4 KiB pages
 * wholly inside it (a page it covers in part keeps its data; a TRIM
 * with no whole page inside costs its command time only).  Returns the
 * command's completion time (>= t), or SSDLAB_EINVAL (len 0, outside
 * the capacity, t going back, an op that is not one of the three, FUA
 * on anything but a write), SSDLAB_EROFS (a write to a drive at end
 * of life: reads still work), SSDLAB_ENOSPC / SSDLAB_ESTATE (the model
 * failed; the drive refuses every later command).  Commands submitted
 * before earlier ones complete queue together, as on a real drive. */
SSDLAB_API int64_t ssdlab_submit(ssdlab_dev *dev, int op, uint64_t offset, uint32_t len,
		      int64_t t);

/* ---- zoned drives (mapping = zone; docs/zoned.md) ----
 *
 * A zoned drive is nzones zones of zone_size bytes, each written from its
 * start up to zone_cap, only at its write pointer, in whole 4 KiB
 * logical blocks.  ssdlab_submit checks each command against the zones
 * and fails one that breaks their rules with the SSDLAB_ZNS_E* code of
 * its NVMe status, changing nothing; reads go up to the zone size (what
 * was never written reads as zeros); TRIM is SSDLAB_EUNSUP.  OR
 * SSDLAB_APPEND into a write for a Zone Append to the zone that starts at
 * offset: written at its write pointer, which ssdlab_append_offset then
 * gives. */
#define SSDLAB_APPEND 0x400
struct ssdlab_zoned {
	uint64_t zone_size;   /* bytes, a power of two */
	uint64_t zone_cap;    /* bytes writable from a zone's start */
	uint32_t nzones;
	uint32_t max_open;    /* zones open at once at most; 0: no limit */
	uint32_t max_active;  /* zones open or closed at once; 0: no limit */
	uint32_t lba;         /* logical block size, bytes */
	uint64_t max_append;  /* largest Zone Append, bytes; 0: the capacity */
};
/* 1 with *out filled for a zoned drive, 0 for any other. */
SSDLAB_API int ssdlab_zoned(const ssdlab_dev *dev, struct ssdlab_zoned *out);

/* Flexible data placement (docs/fdp.md).  ssdlab_placement_ids: the
 * placement identifiers the drive accepts, as its reclaim unit handle
 * status lists them (each handle in turn, in every reclaim group): up to
 * max into pids; returns how many there are (0 without FDP).
 * ssdlab_fdp_update: Reclaim Unit Handle Update (I/O Management Send) of
 * the n identifiers pids at t (the rule for t of ssdlab_submit): each
 * moves to a new reclaim unit, the one it was writing left not written
 * to capacity (its open page padded, the rest of its blocks never
 * programmed, reclaimed by GC) and an event logged.  Returns the
 * completion time, SSDLAB_FDP_EPID for an identifier the drive does not
 * have (nothing updated), SSDLAB_EUNSUP without FDP, SSDLAB_EINVAL.
 * ssdlab_fdp_events: the FDP events log, up to max of the last events
 * (the drive keeps 64), oldest first; returns how many it keeps. */
enum ssdlab_fdp_event_type {
	SSDLAB_FDP_EV_RU_UNFILLED = 0x0, /* reclaim unit not written to
	                                    capacity (a handle update) */
	SSDLAB_FDP_EV_BAD_PID = 0x3,     /* invalid placement identifier */
	SSDLAB_FDP_EV_MEDIA_REALLOC = 0x80 /* media reallocated: a program
	                                    failed, its data moved */
};
#define SSDLAB_FDP_NO_PID 0xffffffffu /* an event of no identifier */
struct ssdlab_fdp_event {
	int type;                 /* enum ssdlab_fdp_event_type */
	uint32_t pid;             /* the placement identifier, or
	                             SSDLAB_FDP_NO_PID (media reallocated in
	                             a block the handles share) */
	uint32_t group, handle;   /* what it names (0 for an invalid one;
	                             the group and SSDLAB_FDP_NO_PID without
	                             one) */
	int64_t t;                /* simulated ns */
	uint64_t lba;             /* the write's first 4 KiB page (invalid
	                             placement identifier; else 0) */
};
SSDLAB_API uint32_t ssdlab_placement_ids(const ssdlab_dev *dev, uint32_t *pids,
					 uint32_t max);
SSDLAB_API int64_t ssdlab_fdp_update(ssdlab_dev *dev, const uint32_t *pids,
				     uint32_t n, int64_t t);
SSDLAB_API uint32_t ssdlab_fdp_events(const ssdlab_dev *dev,
				      struct ssdlab_fdp_event *out, uint32_t max);

/* Zone Management Send: action on the zone that starts at offset (with
 * flags SSDLAB_ZONE_ALL, on every zone the action selects: Select All)
 * at simulated time t (the rule for t of ssdlab_submit).  With a drive
 * that has zone random write areas (zrwa_size), SSDLAB_ZONE_ZRWAA on an
 * Open of an empty zone gives it one -- writes then go anywhere in twice
 * its size past the write pointer, held in DRAM until a flush -- and
 * SSDLAB_ZONE_ZRWA_FLUSH flushes one up to the LBA at offset.  A reset erases the zone's blocks
 * (it costs what the zone holds) and its data reads as zeros after; a
 * finish fills the zone (padding its blocks with zone_finish = pad).
 * Returns the completion time, or an SSDLAB_ZNS_E* code (an action the
 * zone's state does not allow, the resources), SSDLAB_EUNSUP on a drive
 * that is not zoned, SSDLAB_EINVAL. */
enum ssdlab_zone_action {
	SSDLAB_ZONE_CLOSE = 1,
	SSDLAB_ZONE_FINISH = 2,
	SSDLAB_ZONE_OPEN = 3,
	SSDLAB_ZONE_RESET = 4,
	SSDLAB_ZONE_OFFLINE = 5,
	SSDLAB_ZONE_ZRWA_FLUSH = 0x11
};
#define SSDLAB_ZONE_ALL 0x1
#define SSDLAB_ZONE_ZRWAA 0x2
SSDLAB_API int64_t ssdlab_zone_send(ssdlab_dev *dev, int action, uint64_t offset,
			 int flags, int64_t t);

/* Report Zones, one zone: its descriptor.  0, or SSDLAB_EINVAL (no such
 * zone, a drive that is not zoned). */
enum ssdlab_zone_state {
	SSDLAB_ZS_EMPTY = 0x1,
	SSDLAB_ZS_IMPLICITLY_OPENED = 0x2,
	SSDLAB_ZS_EXPLICITLY_OPENED = 0x3,
	SSDLAB_ZS_CLOSED = 0x4,
	SSDLAB_ZS_READ_ONLY = 0xd,
	SSDLAB_ZS_FULL = 0xe,
	SSDLAB_ZS_OFFLINE = 0xf
};
struct ssdlab_zone {
	uint64_t start, cap;  /* bytes */
	uint64_t wp;          /* write pointer, bytes; UINT64_MAX when the
	                         zone has none (full, read only, offline) */
	uint64_t written;     /* bytes the host wrote from start */
	int state;            /* enum ssdlab_zone_state */
	int finished_by_controller;
};
SSDLAB_API int ssdlab_zone_report(const ssdlab_dev *dev, uint32_t zone,
		       struct ssdlab_zone *out);

/* Where the latest Zone Append wrote: its byte offset. */
SSDLAB_API uint64_t ssdlab_append_offset(const ssdlab_dev *dev);

/* Flush at time t (the same rule for t as ssdlab_submit): every write
 * accepted so far becomes durable -- buffered data is programmed, open
 * pages are padded and programmed, and the flush completes when the last
 * of those programs, and of the full pages still programming, ends.  A
 * FUA write completes the same way.  Returns the completion time or a
 * negative code. */
SSDLAB_API int64_t ssdlab_flush(ssdlab_dev *dev, int64_t t);

/* Leave the drive idle until `until`: queued TRIMs, SLC-cache folding and
 * background GC run, and the next command may come at `until` at the
 * earliest.  An `until` at or before ssdlab_now does nothing.  0 or the
 * error that work met. */
SSDLAB_API int ssdlab_idle(ssdlab_dev *dev, int64_t until);

/* The time the drive has reached: the later of its last submission and
 * the last completion it handed out.  The next command may come at it. */
SSDLAB_API int64_t ssdlab_now(const ssdlab_dev *dev);

/* What the drive has done since it was made.  "lp" is a 4 KiB logical
 * page; NAND figures are in NAND pages or blocks.  A period's figures are
 * the difference of two snapshots (ssdlab_counters_sub). */
struct ssdlab_counters {
	uint64_t host_read_lp, host_write_lp, host_trim_lp;
	uint64_t host_write_bytes;   /* a write of part of a page: its bytes */
	uint64_t host_unmapped_read_lp; /* reads of never-written pages */
	uint64_t nand_read, nand_prog, nand_erase;
	uint64_t nand_prog_lp;       /* 4 KiB units programmed, padding in */
	uint64_t gc_copy_lp;         /* moved by GC (folding, wear leveling in) */
	uint64_t gc_bg_copy_lp;      /* of which in idle time */
	uint64_t fold_copy_lp;       /* of which SLC-cache folding */
	uint64_t wl_copy_lp;         /* of which static wear leveling */
	uint64_t gc_victims;         /* blocks cleaned by GC */
	uint64_t pad_lp;             /* padding programmed by flushes */
	uint64_t flushes;
	uint64_t slc_write_lp;       /* host pages written in SLC mode */
	uint64_t map_read, map_write;/* map-cache misses and write-backs */
	uint64_t rmw_read_lp;        /* pages read to merge partial writes */
	uint64_t read_retry;         /* extra reads of pages failing ECC */
	uint64_t read_ahead_lp, read_ahead_hit_lp;
	uint64_t buffer_hits;        /* writes absorbed by the DRAM buffer */
	uint64_t erase_fail, prog_fail; /* failures (each retired a block) */
	uint64_t ro_reject;          /* writes refused: read-only */
};
SSDLAB_API int ssdlab_counters(const ssdlab_dev *dev, struct ssdlab_counters *out);

/* *out = after - before, field by field. */
SSDLAB_API void ssdlab_counters_sub(const struct ssdlab_counters *after,
			 const struct ssdlab_counters *before,
			 struct ssdlab_counters *out);

/* Write amplification: bytes programmed into NAND (padding in) per byte
 * the host wrote, over the counters given (a snapshot or a difference).
 * NAN when the host wrote nothing.  The one definition the reports use. */
SSDLAB_API double ssdlab_waf(const struct ssdlab_counters *c);

/* The drive's health, SMART-like. */
#define SSDLAB_WEAR_BINS 16
struct ssdlab_health {
	double percentage_used;   /* mean wear / rated P/E cycles, % */
	double max_wear_pct;      /* the most-worn block, % of its rating */
	double available_spare;   /* % of the initial spare blocks left */
	uint64_t spare_blocks, bad_blocks;
	uint64_t erase_failures, program_failures;
	int read_only;            /* 1: spares used up, writes refused */
	uint64_t host_bytes_written, host_bytes_read, nand_bytes_written;
	uint64_t slc_cache_bytes; /* data in SLC-mode blocks now */
	/* erase statistics: erases per block, and their histogram (bin i
	 * counts blocks with lo + i*width <= erases < lo + (i+1)*width) */
	uint32_t erase_min, erase_max;
	double erase_mean;
	uint32_t erase_hist_lo, erase_hist_width;
	uint64_t erase_hist[SSDLAB_WEAR_BINS];
	uint64_t free_blocks;     /* erased blocks ready for writing */
};
SSDLAB_API int ssdlab_health(const ssdlab_dev *dev, struct ssdlab_health *out);

/* ---- workloads ---- */

typedef struct ssdlab_jobs ssdlab_jobs;

/* An empty workload named `name` (in messages and reports; NULL:
 * "<jobs>") for a drive of `capacity` user bytes: percentages and
 * default sizes resolve against it (ssdlab_dev_capacity; ssdlab_run
 * refuses it on a drive of another size).  SSDLAB_ENOMEM, SSDLAB_EINVAL
 * (a capacity below 4 KiB). */
SSDLAB_API int ssdlab_jobs_new(const char *name, uint64_t capacity, ssdlab_jobs **out);

/* Fill an empty workload from fio job text or a job file ("-": standard
 * input): its [global] and job sections, include, ${VAR} and the rest of
 * fio's syntax.  SSDLAB_EINVAL if the workload has sections already;
 * SSDLAB_EIO (a file that cannot be read), SSDLAB_EPARSE (an unknown
 * option or a malformed value), SSDLAB_ERANGE, SSDLAB_EUNSUP (an option
 * ssdlab refuses, with the reason) with "FILE:LINE: option 'KEY': what is
 * wrong (accepted: ...)". */
SSDLAB_API int ssdlab_jobs_parse(ssdlab_jobs *w, const char *text, char *err,
		      size_t errlen);
SSDLAB_API int ssdlab_jobs_parse_file(ssdlab_jobs *w, const char *path, char *err,
			   size_t errlen);

/* Or build it in code, section by section, exactly as a job file reads:
 * ssdlab_jobs_global begins a [global] section (its options apply to the
 * jobs added after it), ssdlab_jobs_add begins the job section [name]
 * (fio's defaults, then the [global] options), and ssdlab_jobs_set sets
 * one option of the current section by the name and value a job file
 * would use ("rw", "randwrite"; "bs", "4k"; "bssplit", "4k/50:64k/50";
 * value NULL for a bare key such as "norandommap"), checked by the same
 * code as a line of a file.  ssdlab_jobs_end ends the last section and
 * the file, with the checks between options (ssdlab_run calls it if the
 * caller did not).  Errors stick: after the first, every call returns
 * it and does nothing, and ssdlab_jobs_end returns it with the message
 * "NAME: option 'KEY': what is wrong (accepted: ...)". */
SSDLAB_API int ssdlab_jobs_global(ssdlab_jobs *w);
SSDLAB_API int ssdlab_jobs_add(ssdlab_jobs *w, const char *name);
SSDLAB_API int ssdlab_jobs_set(ssdlab_jobs *w, const char *key, const char *value);
SSDLAB_API int ssdlab_jobs_end(ssdlab_jobs *w, char *err, size_t errlen);

/* Job sections of an ended workload (numjobs clones not counted). */
SSDLAB_API int ssdlab_jobs_count(const ssdlab_jobs *w);
SSDLAB_API void ssdlab_jobs_free(ssdlab_jobs *w);

/* ---- running and reporting ---- */

typedef struct ssdlab_result ssdlab_result;

/* Run the workload on the drive from the drive's current time (the drive
 * keeps its state, so one run can precondition it for the next).  seed
 * derives the random streams of jobs without randseed.  *out is set
 * whenever the run got as far as starting a job, also when it then failed
 * (its report says where); free it with ssdlab_result_free.  A job whose
 * drive turned read-only ends with that error in its figures and the run
 * goes on (returns 0).  Other failures: a negative code and a message. */
SSDLAB_API int ssdlab_run(ssdlab_dev *dev, ssdlab_jobs *w, uint64_t seed,
	       ssdlab_result **out, char *err, size_t errlen);

/* ssdlab_run, also keeping the run's time series (what fio's
 * write_iops_log and write_bw_log give with log_avg_msec, for the run's
 * jobs together): the I/Os completed in each step_ns of simulated time
 * from the drive's time as the run began (1000000000: one point a
 * second), to the run's end.  SSDLAB_EINVAL for step_ns <= 0, and
 * SSDLAB_ENOMEM (with *out set) when the points could not all be kept. */
SSDLAB_API int ssdlab_run_series(ssdlab_dev *dev, ssdlab_jobs *w, uint64_t seed,
				 int64_t step_ns, ssdlab_result **out,
				 char *err, size_t errlen);

/* The series' points: their number (0 for a result of ssdlab_run), and
 * point i (0 .. ssdlab_result_points - 1; SSDLAB_EINVAL past them).  A
 * step with no completion is a point of zeros; the last point ends with
 * the run, so its len_ns may be shorter than the step. */
struct ssdlab_point {
	int64_t t_ns, len_ns;       /* its start (ns since the run began),
	                               its length */
	uint64_t ios[3], bytes[3];  /* completed in it, by enum ssdlab_op */
	double iops[3], bw_bytes[3];/* the same per second of len_ns */
	double lat_mean_ns[3], lat_max_ns[3]; /* their completion latency;
	                               0 without I/O */
};
SSDLAB_API int ssdlab_result_points(const ssdlab_result *r);
SSDLAB_API int ssdlab_result_point(const ssdlab_result *r, int i,
				   struct ssdlab_point *out);
/* Point i of one reported job's own series (0 .. ssdlab_result_jobs - 1;
 * a reporting group's jobs together under group_reporting, as fio
 * reports them): the same steps as the run's,
 * ssdlab_result_points of them, counting that job's completions only.
 * SSDLAB_EINVAL for a job or i out of range, or a result of ssdlab_run. */
SSDLAB_API int ssdlab_result_job_point(const ssdlab_result *r, int job, int i,
				       struct ssdlab_point *out);

/* Reported jobs: one per job and clone, or one per reporting group for
 * its jobs with group_reporting (fio's entries: docs/output.md). */
SSDLAB_API int ssdlab_result_jobs(const ssdlab_result *r);

/* One reported job's figures, over its measured window (after ramp). */
struct ssdlab_dir_stats {
	uint64_t ios, bytes;
	double iops, bw_bytes;      /* per simulated second */
	double lat_mean_ns, lat_max_ns;
};
struct ssdlab_job_stats {
	const char *name;           /* lives as long as the result */
	int error;                  /* 0 or the SSDLAB_E* that ended it */
	const char *errmsg;         /* "" without an error */
	int64_t start_ns, runtime_ns;
	struct ssdlab_dir_stats dir[3]; /* by enum ssdlab_op */
	struct ssdlab_counters ctr; /* the drive's work over the window */
	double waf;                 /* ssdlab_waf(&ctr) */
	struct ssdlab_health health;/* the drive at the job's end */
};
SSDLAB_API int ssdlab_result_job(const ssdlab_result *r, int job,
		      struct ssdlab_job_stats *out);

/* The p-th percentile (0 < p <= 100) of a job's completion latency in
 * one direction, in ns, at fio's resolution; 0 if it had none;
 * SSDLAB_EINVAL for a job, op or p out of range. */
SSDLAB_API int64_t ssdlab_result_percentile(const ssdlab_result *r, int job, int op,
				 double p);

/* Write the report as the ssdlab tool does: formats is fio's
 * --output-format, "normal", "json", "json+", "terse" or a comma list.
 * The stream is flushed.  SSDLAB_EPARSE for an unknown format,
 * SSDLAB_EIO when writing fails. */
SSDLAB_API int ssdlab_report(const ssdlab_result *r, const char *formats, FILE *out);

SSDLAB_API void ssdlab_result_free(ssdlab_result *r);

#ifdef __cplusplus
}
#endif

#endif
