/*
 * config.h -- the drive: every parameter of a simulated SSD in one plain
 * struct, and the option table that reads it from INI files and --set
 * overrides, prints it and documents it.
 *
 * Units are in the field names' comments.  Geometry is derived: the user
 * sets `capacity` (user bytes) and `op` (spare as a fraction of user
 * capacity) and the page/block/parallelism shape; ssd_config_finish()
 * computes blocks_per_plane so that physical capacity >= capacity*(1+op),
 * checks every derived quantity against the drive (the FTL's reserve, the
 * SLC cache, the write buffer, the map cache), and resolves timings left
 * at 0 from the cell type's defaults.
 *
 * Overrides.  A preset's shape was chosen for its own capacity.  When
 * `capacity` is overridden (ssd_config_set, i.e. --set, over a drive
 * file) and the drive as given cannot hold it, ssd_config_fit() adapts
 * the keys that were not overridden themselves: it scales the SLC cache,
 * write buffer and map cache with the capacity where they no longer fit,
 * then makes the blocks smaller (pages_per_block halved down to 16), then
 * the array narrower (dies_per_channel, channels, planes_per_die halved
 * down to 1), then the pages smaller, until the drive works.  What was
 * overridden or adapted is recorded (overridden, adapted) and appended to
 * the description that reports print (ssd_config_description), so a
 * report never describes the preset instead of the drive that ran.
 *
 * Modules below the CLI take a finished struct ssd_config; none of them
 * reads files.
 *
 * Files: config.c holds the option table (and the names of the enums'
 * values); config_parse.c drive files, --set and the defaults;
 * config_finish.c the checks and the derivation (ssd_config_finish,
 * ssd_config_fit, the geometry, adaptation, the description);
 * config_print.c prints a drive (ssd_config_print, ssd_config_print_doc,
 * ssd_config_json); config_int.h is what they share.
 */
#ifndef SSD_CONFIG_H
#define SSD_CONFIG_H

#include <stdint.h>
#include <stdio.h>

#include "base/util.h"

enum ssd_cell { SSD_CELL_SLC, SSD_CELL_MLC, SSD_CELL_TLC, SSD_CELL_QLC };
enum ssd_slc_mode { SSD_SLC_NONE, SSD_SLC_STATIC, SSD_SLC_DYNAMIC };
enum ssd_trim_mode { SSD_TRIM_IMMEDIATE, SSD_TRIM_BACKGROUND, SSD_TRIM_DEFERRED };
/* How the map is rebuilt after a power cut (docs/power-loss.md). */
enum ssd_power_recovery { SSD_RECOVER_SUMMARY, SSD_RECOVER_SCAN };
/* What a power cut during a program does to the other pages of its
 * wordline, and whether the controller guards against it. */
enum ssd_paired_pages { SSD_PAIRED_INDEPENDENT, SSD_PAIRED_UNPROTECTED,
			SSD_PAIRED_PROTECTED };
/* Where garbage collection writes its copies: a write point of its own
 * per unit, or the host's open block, between host pages. */
enum ssd_gc_copies { SSD_GC_COPIES_OWN, SSD_GC_COPIES_HOST };
/* How the FTL maps logical to physical pages (docs/mapping.md). */
enum ssd_mapping {
	SSD_MAP_PAGE,
	SSD_MAP_BLOCK,
	SSD_MAP_BAST,
	SSD_MAP_FAST,
	SSD_MAP_ZONE /* a zoned drive (NVMe ZNS): docs/zoned.md */
};
/* Flexible data placement: whether GC may mix the handles' data. */
enum ssd_fdp_isolation { SSD_FDP_INITIAL, SSD_FDP_PERSISTENT };
/* What a zoned drive's Zone Finish does with the rest of the zone. */
enum ssd_zone_finish { SSD_ZFINISH_PAD, SSD_ZFINISH_MARK };
enum ssd_drive_type { SSD_TYPE_SSD, SSD_TYPE_HDD };
enum ssd_raid_level { SSD_RAID_NONE, SSD_RAID_0 };
enum ssd_hdd_queue { SSD_HDD_FCFS, SSD_HDD_SPTF };
enum ssd_gc_policy {
	SSD_GC_GREEDY,
	SSD_GC_COST_BENEFIT,
	SSD_GC_FIFO,
	SSD_GC_RANDOM
};

/* A set of keys: bit i stands for row i of the option table. */
__extension__ typedef unsigned __int128 ssd_keymask;

/* The FTL maps 4 KiB logical pages; all capacities are multiples of it. */
#define SSD_LPAGE 4096u

struct ssd_config {
	char name[64];            /* preset name, or file stem */
	char description[256];    /* one line, from the preset */
	int type;                 /* enum ssd_drive_type: what the drive is */

	/* capacity and spare */
	uint64_t capacity;        /* user capacity, bytes (multiple of 4 KiB) */
	double op;                /* over-provisioning, fraction of capacity */

	/* geometry */
	uint32_t page_size;       /* NAND page, bytes: 4096 * 2^k, <= 64 KiB */
	uint32_t pages_per_block; /* pages in an erase block */
	uint32_t channels;        /* independent channel buses */
	uint32_t dies_per_channel;/* dies sharing one channel */
	uint32_t planes_per_die;  /* planes in a die */
	uint32_t blocks_per_plane;/* derived by ssd_config_finish() */

	/* NAND cell type and timing; 0 means "default for the cell type" */
	int cell;                 /* enum ssd_cell */
	int64_t t_read;           /* page read (tR), ns */
	int64_t t_prog;           /* page program (tPROG), ns */
	int64_t t_erase;          /* block erase (tBERS), ns */
	uint32_t pe_cycles;       /* rated program/erase cycles per block */
	uint32_t channel_mbps;    /* channel bus rate, MB/s (10^6 bytes/s) */
	int multiplane;           /* 1: the planes of a die work in lockstep */
	double t_read_spread;     /* page types (LSB..MSB, page % bits):
	                             tR runs from t_read*(1-s) to
	                             t_read*(1+s), mean t_read per block;
	                             < 0 = the cell type's default */
	double t_prog_spread;     /* the same for tPROG around t_prog */
	double read_retry_rate;   /* probability that a page read needs a
	                             retry (one more tR), fresh block */
	double read_retry_wear;   /* added to that probability per rated
	                             life: erases / pe_cycles of the block */

	/* controller */
	uint32_t host_mbps;       /* host link rate, MB/s; 0 = unlimited */
	int64_t cmd_overhead;     /* controller time per host command, ns */
	uint64_t read_ahead;      /* bytes the controller reads past a
	                             sequential read stream into DRAM
	                             (0 = no read-ahead) */
	int64_t read_piece_overhead; /* controller time per physically
	                             separate piece of a read beyond a
	                             command's first, ns (0 = none) */
	int gc_policy;            /* enum ssd_gc_policy */
	uint32_t gc_window;       /* random policy: candidates compared (d) */
	uint32_t gc_fg_blocks;    /* free blocks per unit below which host
	                             writes wait for GC (foreground GC) */
	uint32_t gc_fg_target;    /* free blocks a foreground burst restores
	                             (0 = gc_fg_blocks + 1) */
	uint32_t gc_bg_blocks;    /* free blocks per unit that idle-time
	                             background GC restores */
	int gc_copies;            /* enum ssd_gc_copies: where GC copies go */
	int gc_pacing;            /* interleave foreground GC with host
	                             writes instead of cleaning in bursts */

	/* endurance and wear leveling */
	double pe_spread;         /* relative std. deviation of per-block
	                             endurance around pe_cycles */
	int wl_dynamic;           /* allocate the least-worn free block */
	int wl_static;            /* move cold data off little-worn blocks */
	uint32_t wl_threshold;    /* erase-count spread (max - min) in a unit
	                             that triggers static wear leveling */

	/* SLC cache: blocks of the native cell type run in SLC mode */
	int slc_cache;            /* enum ssd_slc_mode */
	uint64_t slc_cache_size;  /* bytes held in SLC mode: the fixed size
	                             (static) or the most (dynamic) */
	int64_t slc_t_read;       /* SLC-mode page read, ns */
	int64_t slc_t_prog;       /* SLC-mode page program, ns */
	uint32_t slc_pe_cycles;   /* endurance of a block used in SLC mode
	                             (0 = 10 x pe_cycles) */

	/* mapping scheme (docs/mapping.md) */
	int mapping;              /* enum ssd_mapping */
	uint32_t log_blocks;      /* bast, fast: log blocks (0 = every
	                             spare row the merges leave) */
	/* a zoned drive (mapping = zone; ssd_config_zones) */
	uint64_t zone_size;       /* bytes, a power of two (0: the smallest
	                             holding zone_capacity) */
	uint64_t zone_capacity;   /* writable bytes of a zone (0: one block
	                             on each of its units) */
	uint32_t zone_units;      /* allocation units a zone spans (0: all) */
	uint32_t max_open_zones;  /* 0: no limit */
	uint32_t max_active_zones;/* 0: no limit */
	int zone_finish;          /* enum ssd_zone_finish */
	uint64_t zone_append_max; /* Zone Append size limit, bytes (0: none) */
	uint64_t zrwa_size;       /* zone random write area, bytes (0: none) */
	uint64_t zrwa_flush;      /* its flush granularity, bytes (0: a
	                             NAND page) */
	uint32_t zrwa_zones;      /* areas (0: max_active_zones, or every
	                             zone) */
	/* flexible data placement (docs/fdp.md) */
	int fdp;                  /* placement handles on */
	uint32_t fdp_handles;     /* reclaim unit handles */
	int fdp_isolation;        /* enum ssd_fdp_isolation */
	uint32_t fdp_groups;      /* reclaim groups (divide the units) */

	/* TRIM */
	int trim;                 /* the drive takes TRIM (ATA Data Set
	                             Management); 0: refused (SSD_EUNSUP), as
	                             by drives before late 2009 */
	int trim_mode;            /* enum ssd_trim_mode */
	int64_t trim_cost;        /* controller time per 4 KiB page, ns */
	double trim_bg_share;     /* background: share of controller time */

	/* controller DRAM */
	uint64_t write_buffer;    /* write-back buffer, bytes (0 = none: only
	                             the dies' cache registers) */
	uint64_t map_cache;       /* cached part of the logical-to-physical
	                             map, bytes (0 = the whole map in DRAM) */

	/* power loss (docs/power-loss.md) */
	int plp;                  /* power-loss protection capacitors */
	int64_t plp_hold_up;      /* ns the stored energy keeps the drive
	                             running after a cut (0 = derived) */
	int power_recovery;       /* enum ssd_power_recovery */
	int paired_pages;         /* enum ssd_paired_pages */

	/* hard disk (type = hdd; docs/hdd.md): the keys above that name
	 * flash have no effect on it, capacity, host_mbps and cmd_overhead
	 * do */
	uint32_t hdd_rpm;         /* spindle speed, revolutions per minute */
	int64_t hdd_seek_track;   /* track-to-track seek, ns */
	int64_t hdd_seek_avg;     /* average seek (a third of the stroke), ns */
	int64_t hdd_seek_full;    /* full-stroke seek, ns */
	uint32_t hdd_mbps_outer;  /* media rate on the outermost zone, MB/s */
	uint32_t hdd_mbps_inner;  /* media rate on the innermost zone, MB/s */
	uint32_t hdd_zones;       /* recording zones, outer to inner */
	uint64_t hdd_cache;       /* the disk's DRAM buffer, bytes */
	int hdd_write_cache;      /* writes complete once in the buffer */
	uint64_t hdd_read_ahead;  /* bytes read past a read into the buffer */
	int hdd_queue;            /* enum ssd_hdd_queue: command order */

	/* The machine around the drive (docs/stack.md): host layers between
	 * the workload and the drive, stacked page cache > MFT > RAID >
	 * drive(s); each is absent at its default. */
	uint64_t page_cache;      /* host page cache, bytes (0 = none: every
	                             job goes direct) */
	double page_cache_dirty_ratio;      /* dirty share where writers wait */
	double page_cache_dirty_bg_ratio;   /* dirty share where write-back
	                                       starts */
	int64_t page_cache_dirty_expire;    /* dirty page age written back, ns */
	int64_t page_cache_writeback_interval; /* flusher wakes every, ns */
	uint64_t page_cache_read_ahead;     /* sequential read-ahead, bytes */
	uint32_t page_cache_mbps;           /* memory copy rate, MB/s */
	int mft;                  /* a log-structured host layer (MFT) */
	uint32_t mft_block;       /* its mapping unit, bytes */
	uint64_t mft_buffer;      /* RAM gathering writes, bytes */
	uint32_t mft_write;       /* one log write, bytes */
	int64_t mft_flush_interval; /* the buffer is written at least every, ns */
	double mft_reserve;       /* share of the drive kept for its tables and
	                             log cleaning */
	uint64_t mft_map_cache;   /* RAM for its map, bytes (0 = all) */
	int raid;                 /* enum ssd_raid_level */
	uint32_t raid_members;    /* drives in the array */
	uint32_t raid_stripe;     /* stripe unit, bytes */
	int mem_check;            /* refuse to build a drive whose estimated
	                             memory exceeds what the process may take
	                             (ssd_dev_mem_check) */

	/* Bookkeeping of ssd_config_set() and ssd_config_finish(), not keys:
	 * bit i stands for row i of the option table. */
	ssd_keymask overridden;   /* set by ssd_config_set() over the drive
	                             file or the defaults (--set) */
	ssd_keymask adapted;      /* changed by ssd_config_finish() so that
	                             the drive holds an overridden capacity */
	uint64_t file_capacity;   /* capacity the drive file or the defaults
	                             gave, bytes (scales the SLC cache) */
};

/* The write buffer may hold at most this share of the user capacity: a
 * buffer larger than an eighth of the drive holds a good part of any
 * workload in DRAM and measures DRAM, not the flash behind it. */
#define SSD_CONFIG_WBUF_DIV 8

/* Bits stored per cell: 1 (SLC) to 4 (QLC). */
static inline uint32_t ssd_cell_bits(int cell)
{
	return (uint32_t)cell + 1;
}

/* The capacity the host sees on the machine c describes, bytes: the
 * drive's capacity, or with host layers (docs/stack.md) RAID 0's
 * raid_members x the drive's (each in whole stripes), then MFT's share
 * (1 - mft_reserve, in whole mft_blocks); a page cache changes nothing.
 * c is finished. */
uint64_t ssd_config_volume(const struct ssd_config *c);

/* The parts of it: what RAID 0 over the drives offers (the drive's
 * capacity without RAID), and what MFT offers over `lower` bytes. */
uint64_t ssd_config_raid_capacity(const struct ssd_config *c);
uint64_t ssd_config_mft_capacity(const struct ssd_config *c, uint64_t lower);

/* 1 if c describes more than a bare SSD: a hard disk, or host layers. */
int ssd_config_is_machine(const struct ssd_config *c);

/* 1 if the drive at the bottom of c takes TRIM: an SSD with trim = yes.
 * A hard disk, or an SSD with trim = no, refuses it (SSD_EUNSUP); MFT
 * above such a drive still takes it (docs/stack.md). */
int ssd_config_has_trim(const struct ssd_config *c);

/* Fill *c with the built-in defaults (the "default" preset's values). */
void ssd_config_defaults(struct ssd_config *c);

/* Apply one KEY=VALUE as an override of the drive loaded so far (it is
 * marked in c->overridden; ssd_config_load sets keys as the file's own).
 * `where` names the source for messages (a "file:line" or "--set").  On
 * error writes a one-line message into err (naming where, the key and the
 * accepted values), leaves *c unchanged and returns SSD_ENOENT (unknown
 * key), SSD_EPARSE, SSD_ERANGE, or SSD_EINVAL (blocks_per_plane, which is
 * derived).  Key and value are trimmed; where may be NULL ("--set"); err
 * may be NULL. */
int ssd_config_set(struct ssd_config *c, const char *key, const char *value,
		   const char *where, char *err, size_t errlen);

/* Load an INI drive file over *c (which should hold defaults).  Accepts
 * '#' and ';' comments, blank lines, an optional [drive] section, and
 * "key = value" lines; a value in double quotes is taken literally, with
 * \" and \\ for a quote and a backslash (ssd_config_print quotes any text
 * that holds '#', ';' or a quote, so that it reads back the same).
 * "preset = NAME" as the first key loads preset NAME (or a drive file's
 * path) from the compiled-in preset directory first; the keys after it
 * change it.  Errors as ssd_config_set, plus SSD_EIO when the file cannot
 * be read, SSD_ENOENT for an unknown preset, and SSD_EINVAL for a file
 * that sets no key (it would be the defaults, whatever it meant), a
 * preset after other keys, or presets stacked more than 8 deep. */
int ssd_config_load(struct ssd_config *c, const char *path, char *err,
		    size_t errlen);

/* ssd_config_load for a drive file's text in memory (a snapshot's
 * header); `name` stands for the file in messages ("NAME:LINE"). */
int ssd_config_load_text(struct ssd_config *c, const char *text,
			 const char *name, char *err, size_t errlen);

/* Resolve a preset name (a file presets/NAME.ini searched in the preset
 * directory) or a path to a .ini file, load it over defaults.  The preset
 * directory is $SSDLAB_PRESETS if set by the caller's environment (the CLI
 * reads it and passes it here), else the compiled-in one; a drive file's
 * `preset = NAME` is looked up there too.  An unknown name is SSD_ENOENT,
 * its message suggesting the closest preset when it is a plausible typo
 * ("did you mean 'tiny'?"). */
int ssd_config_open(struct ssd_config *c, const char *name_or_path,
		    const char *preset_dir, char *err, size_t errlen);

/* Derive blocks_per_plane and default timings; check consistency
 * (ranges, physical >= user, the FTL's reserve and a static SLC cache in
 * the spare, a dynamic SLC cache, the write buffer and the map cache
 * within what the drive can hold).  Must be called after the last
 * set/load and before the config is used; calling it again is harmless.
 * On error writes a one-line message naming the culprit key and a value
 * that works and returns SSD_ERANGE/SSD_EINVAL; *c is then unchanged. */
int ssd_config_finish(struct ssd_config *c, char *err, size_t errlen);

/* ssd_config_finish() for a drive the user gave on the command line: when
 * capacity was overridden and the drive cannot hold it, first adapt the
 * keys not overridden, as described above (c->adapted says which).  The
 * error, if even the most adapted drive fails, names the smallest
 * capacity and the least op that work. */
int ssd_config_fit(struct ssd_config *c, char *err, size_t errlen);

/* Blocks per plane a static SLC cache takes (0 without one): they come
 * out of the spare area. */
uint32_t ssd_config_slc_blocks(const struct ssd_config *c);

/* The least op with which ssd_config_finish accepts this drive (the FTL's
 * reserve and a static SLC cache need whole blocks per plane). */
double ssd_config_min_op(const struct ssd_config *c);

/* The description for reports: c->description, followed by what was
 * overridden or adapted ("[changed: capacity=1g; adapted to fit:
 * pages_per_block=64]") when keys that a description speaks of (capacity,
 * op, the geometry, cell type, caches, host link) differ from the drive
 * file -- unless the description itself was overridden.  Written into buf
 * (at most sizeof c->description - 1 characters, so that it can be set as
 * a description again) and returned. */
const char *ssd_config_description(const struct ssd_config *c, char *buf,
				   size_t n);

/* The drive's geometry as every layer uses it, each quantity defined
 * once, by ssd_config_geometry().  A unit is an allocation unit of the
 * FTL: a plane, or with multiplane a die whose planes work in lockstep;
 * an FTL block is one erase block on each plane of its unit, so a unit
 * has blocks_per_plane FTL blocks either way.  A slot is 4 KiB, the
 * FTL's mapping unit ("lp" counts slots).  The reserve is what the FTL
 * keeps from data in each unit: gc_fg_blocks free blocks and the open
 * blocks of the two write points (host and GC). */
struct ssd_geometry {
	uint32_t dies;             /* channels x dies_per_channel */
	uint32_t planes;           /* planes in the drive */
	uint32_t units;            /* allocation units */
	uint32_t planes_per_unit;  /* erase blocks per FTL block (and per
	                              FTL block erase): planes_per_die with
	                              multiplane, else 1 */
	uint32_t blocks_per_unit;  /* FTL blocks per unit (blocks_per_plane) */
	uint32_t pages_per_block;  /* NAND pages per block */
	uint32_t slc_pages_per_block; /* the same in SLC mode (1/bits) */
	uint32_t bits;             /* bits per cell of the native mode */
	uint32_t lp_per_page;      /* slots per (multi-plane) page */
	uint32_t lp_per_block;     /* slots per FTL block */
	uint32_t lp_per_block_slc; /* slots per FTL block in SLC mode */
	uint64_t blocks;           /* FTL blocks: units x blocks_per_unit */
	uint64_t erase_blocks;     /* physical erase blocks: planes x
	                              blocks_per_plane */
	uint64_t erase_block_bytes;/* bytes of one erase block */
	uint64_t row_bytes;        /* bytes of one block on every plane (a
	                              "row": blocks_per_plane rows in all) */
	uint64_t row_slc_bytes;    /* the same in SLC mode */
	uint64_t physical_bytes;   /* all flash: rows x row_bytes */
	uint64_t physical_lp;      /* slots of all flash */
	uint64_t user_lp;          /* logical 4 KiB pages: capacity / 4 KiB */
	uint64_t data_blocks;      /* FTL blocks user_lp fills, rounded up */
	uint64_t reserve_blocks;   /* per unit: gc_fg_blocks + 2 */
	uint64_t slc_blocks;       /* per unit, blocks the SLC cache's size
	                              takes in SLC mode (static: the cache;
	                              dynamic: its most; 0 without one) */
	uint32_t map_epp;          /* map entries (4 bytes) per map page */
	uint64_t map_pages;        /* map pages of the whole map */
};

/* Fill *g from config c (its blocks_per_plane as set; 0 before
 * ssd_config_finish, which makes the block counts 0).  O(1), no
 * allocation.  The config keeps no copy, so it stays a plain value that
 * code may change and finish again; callers derive *g once at setup. */
void ssd_config_geometry(const struct ssd_config *c, struct ssd_geometry *g);

/* A zoned drive's zones (mapping = zone), each quantity defined once,
 * here, for the config's rules, the FTL that places them and the drive
 * that checks them (docs/zoned.md).  The units are split into groups of
 * zone_units; zone z lies on group z % groups, blocks_per_unit blocks on
 * each of its units, its slots striped over them a page at a time.  The
 * writable capacity is at most the drive's capacity key: zones holds the
 * zones the capacity and every group's blocks (less the reserve) have
 * room for.  Sizes in 4 KiB slots. */
struct ssd_zones {
	uint32_t zone_units;       /* units a zone spans */
	uint32_t groups;           /* units / zone_units */
	uint32_t blocks_per_unit;  /* FTL blocks on each unit of a zone */
	uint64_t size_lp;          /* zone size (a power of two) */
	uint64_t cap_lp;           /* zone capacity: writable from its start */
	uint32_t zones;            /* zones in the namespace */
	uint32_t per_group;        /* most zones one group holds */
	uint64_t zrwa_lp;          /* a random write area (0: none) */
	uint64_t zrwa_fg_lp;       /* its flush granularity */
};

/* Fill *z from the finished zoned config c: 0, or SSD_EINVAL with a
 * one-line message in err naming the key (a zone_units that does not
 * divide the units, a zone_size no power of two or below the capacity, a
 * zone_capacity not a multiple of 4 KiB, no room for one zone).  For a
 * drive that is not zoned, z is zeroed and 0 returned. */
int ssd_config_zones(const struct ssd_config *c, struct ssd_zones *z,
		     char *err, size_t errlen);
/* The logical 4 KiB pages the host addresses on finished drive c: its
 * capacity's, or a zoned drive's zones x zone size (the part of each
 * zone past its capacity included: it reads, unwritten). */
uint64_t ssd_config_host_lp(const struct ssd_config *c);

/* Derived sizes of a finished config (fields of its geometry). */
uint64_t ssd_config_physical_bytes(const struct ssd_config *c);
uint32_t ssd_config_dies(const struct ssd_config *c);

/* Print every key = value that speaks of the drive (a disk's keys for a
 * disk, the flash's for an SSD), one per line, with unit and meaning as
 * a trailing comment (the format of `ssdlab drive show`).  The derived
 * blocks_per_plane line and a closing physical-size line are printed as
 * comments, so the output is itself a loadable drive file. */
void ssd_config_print(const struct ssd_config *c, FILE *out);

/* The drive c as the text `ssdlab drive show` prints (malloc'd; NULL if
 * out of memory). */
char *ssd_config_text(const struct ssd_config *c);

/* The key and value (without its comment) of one line of such a text;
 * 0 for a line that holds none (a comment).  The derived keys, printed
 * as comments ("# blocks_per_plane = 2048"), count. */
int ssd_config_line_kv(const char *s, size_t len, char *key, size_t kn,
		       char *val, size_t vn);

/* The first key whose value differs between two such texts: 1 with the
 * key and both values (without their comments) in key/va/vb, or 0 if
 * they are the same drive.  The name, the description and mem_check
 * are not compared: they say what a report calls the drive and what the
 * process checks before building it (a loaded drive keeps the file's),
 * not what it is. */
int ssd_config_text_diff(const char *a, const char *b, char *key, size_t kn,
			 char *va, char *vb, size_t vn);

/* Print the option table as Markdown (docs/options.md). */
void ssd_config_print_doc(FILE *out);

/* Write the config as a JSON object (no trailing newline) with every key
 * that speaks of the drive, as ssd_config_print (blocks_per_plane
 * included), and its value: sizes in bytes, times in ns,
 * enums as their names, bools as true/false.  `indent` is the column of
 * the object's closing brace; keys go one per line two columns deeper.
 * A negative indent writes the object on one line. */
void ssd_config_json(const struct ssd_config *c, FILE *out, int indent);

/* The same object as the next value of JSON writer w (after a key, as an
 * array element, or as the document), in w's layout (base/json.h). */
struct ssd_json;
void ssd_config_json_write(const struct ssd_config *c, struct ssd_json *w);

/* Names for enums ("tlc", "greedy"...); NULL if out of range. */
const char *ssd_cell_name(int cell);
const char *ssd_gc_policy_name(int policy);
const char *ssd_slc_mode_name(int mode);
const char *ssd_trim_mode_name(int mode);
const char *ssd_mapping_name(int mapping);
const char *ssd_zone_finish_name(int mode);
/* Why power cuts cannot be modelled on drive c (a phrase naming the key
 * and its value), or NULL when they can: the FTL's own rule (it refuses
 * to track them by it), for tools that refuse the drive first. */
const char *ssd_config_power_refusal(const struct ssd_config *c, char *buf,
				     size_t n);

#endif
