/*
 * config.c -- the drive's option table and everything it drives.
 *
 * One static table, `options[]`, lists every key of a drive: its name,
 * type, offset into struct ssd_config, default (written as it would be in
 * a drive file), range, unit and a one-sentence meaning.  The same rows
 * drive ssd_config_defaults() (each default is parsed like a file value),
 * ssd_config_set() (drive files and --set), the range checks of
 * ssd_config_finish(), and in config_print.c ssd_config_print() (`ssdlab
 * drive show`), ssd_config_print_doc() (docs/options.md) and
 * ssd_config_json().  Adding a key is one field in config.h and one row
 * here.
 *
 * Types and their units.  A size is bytes with optional k/m/g/t/p suffix
 * (powers of 1024); a time is integer simulated ns, written with a suffix
 * ns/us/ms/s (a bare number is microseconds, the natural unit of NAND
 * timing); a fraction is a double, written "0.07" or "7%"; an enum is one
 * of a fixed list of lower-case names; a bool is 1/0, yes/no, true/false,
 * on/off.
 *
 * Geometry.  The user gives capacity, op and the shape of the array
 * (page_size, pages_per_block, channels, dies_per_channel,
 * planes_per_die); ssd_config_finish() derives blocks_per_plane as the
 * smallest count whose physical bytes hold capacity*(1+op), then checks
 * that the FTL can work in it (fit(), the one place the rules between
 * keys live): each allocation unit keeps gc_fg_blocks free blocks plus
 * two open blocks (host and GC write points) and a static SLC cache's
 * blocks, and the rest must hold the user capacity; a dynamic SLC cache,
 * the write buffer and the map cache must be within what the drive can
 * hold.  A failed rule becomes one message naming the culprit key and a
 * value that works (explain()).  Every count derived from the shape
 * (units, slots per page and block, erase blocks, the reserve, the SLC
 * cache's blocks, map pages) has one definition, geometry(), which the
 * rules use and ssd_config_geometry() gives the FTL, the flash backend
 * and the methods.
 *
 * Overrides.  ssd_config_set() marks what it sets in c->overridden; a
 * drive file's own keys are not marked.  When capacity is overridden and
 * the drive fails a rule, ssd_config_fit() (the command line's finish)
 * has adapt() change keys not overridden, one halving at a time in a
 * fixed order (config.h), so the smallest change that works is found and
 * the result is deterministic; c->adapted records them, and
 * ssd_config_description() appends both to the description that reports
 * and `drive show` print.  ssd_config_finish() never adapts: code that
 * sets fields itself (accuracy, calibration) gets exactly its drive or an
 * error.
 *
 * Quoting.  Values may be written in double quotes (with \" and \\), so
 * that a description holding '#' or ';' survives `drive show` and
 * reloading; ssd_config_print() quotes exactly the text that needs it.
 *
 * Cell defaults.  t_read, t_prog, t_erase and pe_cycles left at 0, and
 * t_read_spread and t_prog_spread left at "cell" (stored as -1), take the
 * cell type's typical datasheet-class values from cell_info[] when the
 * config is finished.
 */
#include "base/config_int.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#ifndef SSDLAB_PRESET_DIR
#define SSDLAB_PRESET_DIR "presets"
#endif

/* ---- cell types ----
 * Typical datasheet-class figures for planar/3D NAND of each cell type:
 * read (tR), program (tPROG), block erase (tBERS) and rated P/E cycles.
 * SLC ~100k cycles as in SEEDS.md; MLC 3k is the figure of later (20 nm
 * class) MLC -- the 2008 part in SEEDS.md was rated 10k then 5k, see
 * presets/mlc.ini.
 *
 * Page-type spreads (flash.h): the pages of a wordline differ.  Reading
 * the LSB page senses one or two reference voltages, the MSB page of a
 * TLC wordline four, so tR grows from LSB to MSB; programming the LSB
 * page is a coarse step and the last page the fine one, so tPROG grows
 * more.  The spreads put the LSB page at (1 - s) and the MSB page at
 * (1 + s) of the mean: MLC reads 0.8x/1.2x and programs 0.4x/1.6x (the
 * fast and slow pages of 2x nm MLC, about 1:4 in program time); TLC
 * reads 0.65x..1.35x (about 40 and 80 us around 60); QLC wider still. */
static const struct cell_info cell_info[] = {
	[SSD_CELL_SLC] = {"slc", 25 * SSD_US, 200 * SSD_US, 1500 * SSD_US, 100000,
			  0, 0},
	[SSD_CELL_MLC] = {"mlc", 50 * SSD_US, 600 * SSD_US, 3 * SSD_MS, 3000,
			  0.2, 0.6},
	[SSD_CELL_TLC] = {"tlc", 60 * SSD_US, 700 * SSD_US, 3500 * SSD_US, 3000,
			  0.35, 0.6},
	[SSD_CELL_QLC] = {"qlc", 120 * SSD_US, 2 * SSD_MS, 10 * SSD_MS, 1000,
			  0.45, 0.6},
};
#define NCELLS ((int)(sizeof cell_info / sizeof cell_info[0]))

static const char *const cell_names[] = {"slc", "mlc", "tlc", "qlc", NULL};
static const char *const slc_names[] = {"none", "static", "dynamic", NULL};
static const char *const trim_names[] = {"immediate", "background", "deferred",
					 NULL};
static const char *const mapping_names[] = {"page", "block", "bast", "fast",
					    NULL};
static const char *const gc_copies_names[] = {"own", "host", NULL};
static const char *const type_names[] = {"ssd", "hdd", NULL};
static const char *const raid_names[] = {"none", "0", NULL};
static const char *const hddq_names[] = {"fcfs", "sptf", NULL};
static const char *const recovery_names[] = {"summary", "scan", NULL};
static const char *const paired_names[] = {"independent", "unprotected",
					   "protected", NULL};
static const char *const gc_names[] = {
	[SSD_GC_GREEDY] = "greedy",
	[SSD_GC_COST_BENEFIT] = "cost-benefit",
	[SSD_GC_FIFO] = "fifo",
	[SSD_GC_RANDOM] = "random",
	NULL,
};

const char *ssd_cell_name(int cell)
{
	return cell >= 0 && cell < NCELLS ? cell_names[cell] : NULL;
}

const char *ssd_gc_policy_name(int policy)
{
	return policy >= 0 && policy <= SSD_GC_RANDOM ? gc_names[policy] : NULL;
}

const char *ssd_mapping_name(int mapping)
{
	return mapping >= 0 && mapping <= SSD_MAP_FAST ? mapping_names[mapping] : "?";
}

const char *ssd_config_power_refusal(const struct ssd_config *c, char *buf,
				     size_t n)
{
	if (c->mapping != SSD_MAP_PAGE)
		snprintf(buf, n, "power cuts are modelled on page mapping only, "
			 "and the drive has mapping = %s (docs/mapping.md)",
			 ssd_mapping_name(c->mapping));
	else if (c->gc_copies == SSD_GC_COPIES_HOST)
		snprintf(buf, n, "power cuts are modelled with GC copies in a write "
			 "point of their own, and the drive has gc_copies = host");
	else
		return NULL;
	return buf;
}

const char *ssd_trim_mode_name(int mode)
{
	return mode >= 0 && mode <= SSD_TRIM_DEFERRED ? trim_names[mode] : NULL;
}

const char *ssd_slc_mode_name(int mode)
{
	return mode >= 0 && mode <= SSD_SLC_DYNAMIC ? slc_names[mode] : NULL;
}

/* ---- the option table ---- */

#define FIELD(f) offsetof(struct ssd_config, f), sizeof(((struct ssd_config *)0)->f)
#define KIB 1024ull
#define MIB (1024ull * KIB)
#define TIB (1024ull * 1024 * MIB)

static const struct opt options[] = {
	{"name", T_STRING, FIELD(name), "default", .flags = F_ANY, .unit = "text",
	 .help = "Drive name shown in reports (default: the file name)."},
	{"description", T_STRING, FIELD(description),
	 "Modern TLC drive: 32 GiB user capacity, 7% spare, 4 channels",
	 .flags = F_ANY, .unit = "text", .help = "One line saying what the drive models."},
	{"type", T_ENUM, FIELD(type), "ssd", .values = type_names,
	 .flags = F_ANY | F_DESCR, .unit = "drive type",
	 .help = "What the drive is: ssd (flash, the keys below) or hdd (a "
		 "hard disk, the hdd_* keys; docs/hdd.md)."},
	{"capacity", T_SIZE, FIELD(capacity), "32g", MIB, 16 * TIB,
	 .flags = F_ANY | F_MUL4K | F_DESCR, .unit = "bytes",
	 .help = "User capacity, what the host sees."},
	{"op", T_FRACTION, FIELD(op), "0.07", .fmin = 0, .fmax = 4,
	 .flags = F_DESCR, .unit = "fraction of capacity",
	 .help = "Over-provisioning: spare flash beyond capacity (0.07 or 7%)."},
	{"page_size", T_SIZE, FIELD(page_size), "16k", 4 * KIB, 64 * KIB,
	 .flags = F_POW2 | F_DESCR, .unit = "bytes",
	 .help = "NAND page, the program and read unit."},
	{"pages_per_block", T_U32, FIELD(pages_per_block), "256", 16, 4096,
	 .flags = F_DESCR, .unit = "pages", .help = "Pages in an erase block."},
	{"channels", T_U32, FIELD(channels), "4", 1, 64, .flags = F_DESCR,
	 .unit = "channels",
	 .help = "Independent channel buses between controller and NAND."},
	{"dies_per_channel", T_U32, FIELD(dies_per_channel), "2", 1, 64,
	 .flags = F_DESCR, .unit = "dies", .help = "Dies sharing one channel bus."},
	{"planes_per_die", T_U32, FIELD(planes_per_die), "2", 1, 8,
	 .flags = F_DESCR, .unit = "planes",
	 .help = "Planes in a die, each with its own blocks."},
	{"blocks_per_plane", T_U32, FIELD(blocks_per_plane), NULL,
	 .flags = F_DERIVED, .unit = "blocks",
	 .help = "Erase blocks per plane, derived: the fewest that hold "
		 "capacity*(1+op)."},
	{"cell", T_ENUM, FIELD(cell), "tlc", .values = cell_names,
	 .flags = F_DESCR, .unit = "cell type",
	 .help = "Bits per cell; sets the default timings and endurance."},
	{"t_read", T_TIME, FIELD(t_read), "0", 0, 1000 * SSD_MS,
	 .flags = F_CELLDEF, .unit = "time",
	 .help = "Page read time tR (0 = cell default)."},
	{"t_prog", T_TIME, FIELD(t_prog), "0", 0, 1000 * SSD_MS,
	 .flags = F_CELLDEF, .unit = "time",
	 .help = "Page program time tPROG (0 = cell default)."},
	{"t_erase", T_TIME, FIELD(t_erase), "0", 0, 1000 * SSD_MS,
	 .flags = F_CELLDEF, .unit = "time",
	 .help = "Block erase time tBERS (0 = cell default)."},
	{"pe_cycles", T_U32, FIELD(pe_cycles), "0", 0, 1000000,
	 .flags = F_CELLDEF, .unit = "cycles",
	 .help = "Rated program/erase cycles per block (0 = cell default); "
		 "at most a million, so that a block's endurance fits the "
		 "FTL's 32-bit wear count of 1/1000 cycles."},
	{"t_read_spread", T_FRACTION, FIELD(t_read_spread), "cell", .fmin = 0,
	 .fmax = 0.9, .flags = F_CELLDEF, .unit = "fraction of t_read",
	 .help = "Page types: page p of a block is type p % bits (LSB first); "
		 "tR runs from about t_read*(1-s) on LSB pages to t_read*(1+s) "
		 "on MSB pages, linear between, scaled so that the mean over a "
		 "block is t_read; no effect on SLC (cell = cell default)."},
	{"t_prog_spread", T_FRACTION, FIELD(t_prog_spread), "cell", .fmin = 0,
	 .fmax = 0.9, .flags = F_CELLDEF, .unit = "fraction of t_prog",
	 .help = "The same for tPROG around t_prog (cell = cell default)."},
	{"read_retry_rate", T_FRACTION, FIELD(read_retry_rate), "0", .fmin = 0,
	 .fmax = 1, .unit = "probability per page read",
	 .help = "Chance that a page read fails ECC and is retried with "
		 "shifted reference voltages (one more tR each, at most 8 "
		 "retries; each retry fails again with the same chance), on a "
		 "fresh block; drawn from the run's seed."},
	{"read_retry_wear", T_FRACTION, FIELD(read_retry_wear), "0", .fmin = 0,
	 .fmax = 1, .unit = "probability per rated life",
	 .help = "Added to read_retry_rate in proportion to the block's wear: "
		 "at pe_cycles erases the chance is read_retry_rate + "
		 "read_retry_wear (capped at 0.99)."},
	{"channel_mbps", T_U32, FIELD(channel_mbps), "800", 1, 100000,
	 .unit = "MB/s", .help = "Channel bus transfer rate (10^6 bytes/s)."},
	{"multiplane", T_BOOL, FIELD(multiplane), "yes", .flags = F_DESCR,
	 .unit = "bool",
	 .help = "The planes of a die read, program and erase in lockstep."},
	{"host_mbps", T_U32, FIELD(host_mbps), "3500", 0, 1000000,
	 .flags = F_ANY | F_DESCR, .unit = "MB/s",
	 .help = "Host link rate (0 = unlimited; PCIe 3.0 x4 ~3500, "
		 "SATA 3 Gb/s ~300)."},
	{"cmd_overhead", T_TIME, FIELD(cmd_overhead), "2us", 0, 1000 * SSD_MS,
	 .flags = F_ANY, .unit = "time", .help = "Controller time per host command."},
	{"read_ahead", T_SIZE, FIELD(read_ahead), "0", 0, 64 * MIB,
	 .flags = F_MUL4K, .unit = "bytes",
	 .help = "Controller read-ahead: once a read starts where the previous "
		 "one ended, the controller reads this much past its end into "
		 "DRAM behind the host's own reads, and later reads of that range "
		 "come from DRAM (0 = off)."},
	{"read_piece_overhead", T_TIME, FIELD(read_piece_overhead), "0", 0,
	 1000 * SSD_MS, .flags = F_ANY, .unit = "time",
	 .help = "Controller time to set up each physically separate piece of "
		 "a read (a run of logically consecutive pages that lie "
		 "physically consecutive: written together), one piece after "
		 "another; the first piece of a command is in cmd_overhead.  "
		 "Read-ahead pays it for every piece it fetches.  Scattered "
		 "data -- small random writes over sequential data -- then "
		 "reads slower than data written sequentially (0 = every piece "
		 "free)."},
	{"gc_policy", T_ENUM, FIELD(gc_policy), "greedy", .values = gc_names,
	 .unit = "policy", .help = "How garbage collection picks the block "
				   "to clean."},
	{"gc_window", T_U32, FIELD(gc_window), "1", 1, 64, .unit = "blocks",
	 .help = "random policy: candidates drawn, the emptiest is cleaned "
		 "(1 = pure random)."},
	{"gc_fg_blocks", T_U32, FIELD(gc_fg_blocks), "2", 2, 1024,
	 .unit = "blocks", .help = "Free blocks per allocation unit below "
				   "which host writes wait for GC."},
	{"gc_fg_target", T_U32, FIELD(gc_fg_target), "0", 0, 4096,
	 .unit = "blocks", .help = "Free blocks per allocation unit a "
				   "foreground burst restores before host "
				   "writes resume: a high-water mark, so "
				   "stalls come once per that many blocks "
				   "instead of at every block opened (0 = "
				   "gc_fg_blocks + 1, the least; at most "
				   "gc_bg_blocks)."},
	{"gc_bg_blocks", T_U32, FIELD(gc_bg_blocks), "8", 2, 4096,
	 .unit = "blocks", .help = "Free blocks per allocation unit that "
				   "idle-time GC restores (>= gc_fg_blocks)."},
	{"gc_copies", T_ENUM, FIELD(gc_copies), "own", .values = gc_copies_names,
	 .flags = F_DESCR, .unit = "write point",
	 .help = "Where garbage collection writes the pages it moves: own (a "
		 "write point of its own in each allocation unit, so a host's "
		 "sequential stream stays contiguous on the flash) or host (into "
		 "the host's open block, between host pages: a sequential write "
		 "made while GC runs lies broken up by the copies, the X25-M "
		 "G1's first firmware; docs/scenarios.md, workload-switch)."},
	{"gc_pacing", T_BOOL, FIELD(gc_pacing), "yes", .unit = "bool",
	 .help = "Foreground GC is paced: from gc_fg_blocks free blocks "
		 "down, each host page pays for its share of copies, instead "
		 "of cleaning whole blocks in one burst while host writes "
		 "wait (a burst remains the backstop)."},
	{"pe_spread", T_FRACTION, FIELD(pe_spread), "0.1", .fmin = 0, .fmax = 0.5,
	 .unit = "fraction of pe_cycles",
	 .help = "Spread (standard deviation) of each block's endurance "
		 "around pe_cycles; a block fails when it reaches its own."},
	{"wl_dynamic", T_BOOL, FIELD(wl_dynamic), "yes", .unit = "bool",
	 .help = "Dynamic wear leveling: open the least-worn free block."},
	{"wl_static", T_BOOL, FIELD(wl_static), "yes", .unit = "bool",
	 .help = "Static wear leveling: move cold data off little-worn "
		 "blocks when the erase-count spread passes wl_threshold."},
	{"wl_threshold", T_U32, FIELD(wl_threshold), "100", 2, 1000000,
	 .unit = "erase cycles",
	 .help = "Erase-count spread (max - min) in an allocation unit that "
		 "triggers static wear leveling."},
	{"slc_cache", T_ENUM, FIELD(slc_cache), "none", .values = slc_names,
	 .flags = F_DESCR, .unit = "mode",
	 .help = "SLC write cache: none; static (a fixed set of blocks in SLC "
		 "mode); dynamic (free blocks written in SLC mode, shrinking as "
		 "the drive fills)."},
	{"slc_cache_size", T_SIZE, FIELD(slc_cache_size), "0", 0, 16 * TIB,
	 .flags = F_DESCR, .unit = "bytes",
	 .help = "Data the SLC cache holds: its fixed size (static: its "
		 "blocks come out of the spare) or its largest (dynamic: at "
		 "most what the blocks beyond the FTL's reserve hold in SLC "
		 "mode); more than 0 with a cache."},
	{"slc_t_read", T_TIME, FIELD(slc_t_read), "30us", 1, 1000 * SSD_MS,
	 .unit = "time", .help = "Page read time of a block in SLC mode."},
	{"slc_t_prog", T_TIME, FIELD(slc_t_prog), "200us", 1, 1000 * SSD_MS,
	 .unit = "time", .help = "Page program time of a block in SLC mode."},
	{"slc_pe_cycles", T_U32, FIELD(slc_pe_cycles), "0", 0, 10000000,
	 .unit = "cycles",
	 .help = "Endurance of a block used in SLC mode: an SLC-mode erase "
		 "wears it pe_cycles/slc_pe_cycles of a cycle (0 = 10 x "
		 "pe_cycles; at most 1000 x pe_cycles, as wear is counted in "
		 "1/1000 cycles)."},
	{"mapping", T_ENUM, FIELD(mapping), "page", .values = mapping_names,
	 .flags = F_DESCR, .unit = "scheme",
	 .help = "How the FTL maps logical pages to flash (docs/mapping.md): "
		 "page (every 4 KiB page anywhere, garbage collection); block "
		 "(a logical block has one physical block, a row over the "
		 "allocation units, and an overwrite merges it into a new "
		 "one); bast (block mapping plus log blocks, each serving one "
		 "logical block: Kim et al. 2002); fast (block mapping plus "
		 "log blocks shared by every logical block, and one for "
		 "sequential runs: Lee et al. 2007)."},
	{"log_blocks", T_U32, FIELD(log_blocks), "0", 0, 1u << 20,
	 .flags = F_DESCR, .unit = "rows",
	 .help = "bast, fast: log blocks (rows of one block per allocation "
		 "unit) that take overwrites before a merge; fast keeps one "
		 "more for sequential runs (0 = every spare row but the two "
		 "merges need)."},
	{"trim", T_BOOL, FIELD(trim), "yes", .flags = F_DESCR, .unit = "bool",
	 .help = "The drive supports TRIM (ATA Data Set Management, NVMe "
		 "Deallocate).  no: a drive from before late 2009 (the Intel "
		 "X25-M G1, the JMicron JMF602): a TRIM is refused as a hard "
		 "disk refuses it (fio's trim jobs get EOPNOTSUPP, serve does "
		 "not offer it, the host layers stop sending it) and the "
		 "trim_* keys have no effect."},
	{"trim_mode", T_ENUM, FIELD(trim_mode), "immediate", .values = trim_names,
	 .unit = "mode",
	 .help = "How the drive handles TRIM: immediate (the map is updated at "
		 "once and the controller is busy meanwhile: other I/O waits); "
		 "background (acknowledged at once, processed at reduced speed "
		 "beside other I/O); deferred (acknowledged at once, processed "
		 "in idle time: until then GC still copies the trimmed data)."},
	{"trim_cost", T_TIME, FIELD(trim_cost), "20ns", 0, SSD_MS,
	 .unit = "time per 4 KiB page",
	 .help = "Controller time to process the TRIM of a 4 KiB page."},
	{"trim_bg_share", T_FRACTION, FIELD(trim_bg_share), "0.1",
	 .fmin = 0.001, .fmax = 1, .unit = "fraction",
	 .help = "background TRIM: the share of controller time it uses while "
		 "other I/O runs (their cmd_overhead takes 1/(1 - share) as long "
		 "meanwhile, share counted at most 0.9); in idle time it uses "
		 "all of it."},
	{"write_buffer", T_SIZE, FIELD(write_buffer), "0", 0, 64ull * 1024 * MIB,
	 .flags = F_DESCR, .unit = "bytes",
	 .help = "DRAM write-back buffer: writes complete once buffered and "
		 "drain to NAND behind (0 = none, only the dies' registers); "
		 "at most capacity / 8."},
	{"map_cache", T_SIZE, FIELD(map_cache), "0", 0, 64ull * 1024 * MIB,
	 .flags = F_DESCR, .unit = "bytes",
	 .help = "Cached part of the logical-to-physical map for DRAM-less "
		 "controllers: a miss reads a map page from NAND, dirty map "
		 "pages are written back (0 = the whole map in DRAM); from one "
		 "map page (page_size) to the whole map (4 bytes per 4 KiB of "
		 "capacity), in whole map pages (rounded down)."},

	/* power loss (docs/power-loss.md) */
	{"plp", T_BOOL, FIELD(plp), "no", .flags = F_DESCR, .unit = "bool",
	 .help = "Power-loss protection: capacitors whose stored energy lets "
		 "the drive save its write buffer and open pages when the power "
		 "goes (no: what is not yet programmed is lost at a power cut)."},
	{"plp_hold_up", T_TIME, FIELD(plp_hold_up), "0", 0, 10000 * SSD_MS,
	 .unit = "time",
	 .help = "plp: how long the stored energy keeps the drive running "
		 "after a cut (energy / the drive's power); saving must fit in "
		 "it (0 = twice what the write buffer and open pages need)."},
	{"power_recovery", T_ENUM, FIELD(power_recovery), "summary",
	 .values = recovery_names, .unit = "model",
	 .help = "How the drive rebuilds its map after a power cut: summary "
		 "(a full block's out-of-band records are read from its summary "
		 "page, open blocks page by page) or scan (every programmed "
		 "page's out-of-band area is read)."},
	{"paired_pages", T_ENUM, FIELD(paired_pages), "independent",
	 .values = paired_names, .unit = "model",
	 .help = "What a power cut during the program of a wordline's upper "
		 "page does to its lower pages (MLC, TLC, QLC; not SLC mode): "
		 "independent (nothing: only the page programming is lost), "
		 "unprotected (they are lost too, data a flush made durable "
		 "included: the controller does not guard them) or protected "
		 "(they are lost too, but a flush, a FUA write or an erase that "
		 "depends on them waits until their wordline is complete, "
		 "padding it)."},

	/* the hard disk (type = hdd) */
	{"hdd_rpm", T_U32, FIELD(hdd_rpm), "7200", 3600, 20000, .flags = F_DESCR | F_HDD,
	 .unit = "rpm", .help = "hdd: spindle speed; a revolution takes "
				"60/rpm s, the mean rotational wait half of it."},
	{"hdd_seek_track", T_TIME, FIELD(hdd_seek_track), "1ms", 1, 100 * SSD_MS,
	 .flags = F_DESCR | F_HDD, .unit = "time",
	 .help = "hdd: track-to-track seek (a distance of one cylinder)."},
	{"hdd_seek_avg", T_TIME, FIELD(hdd_seek_avg), "8500us", 1, 100 * SSD_MS,
	 .flags = F_DESCR | F_HDD, .unit = "time",
	 .help = "hdd: average seek, over a third of the stroke (the mean "
		 "distance of two random positions)."},
	{"hdd_seek_full", T_TIME, FIELD(hdd_seek_full), "18ms", 1, 200 * SSD_MS,
	 .flags = F_DESCR | F_HDD, .unit = "time", .help = "hdd: full-stroke seek."},
	{"hdd_mbps_outer", T_U32, FIELD(hdd_mbps_outer), "100", 1, 10000,
	 .flags = F_DESCR | F_HDD, .unit = "MB/s",
	 .help = "hdd: media rate on the outermost zone (the lowest "
		 "addresses)."},
	{"hdd_mbps_inner", T_U32, FIELD(hdd_mbps_inner), "50", 1, 10000,
	 .flags = F_DESCR | F_HDD, .unit = "MB/s",
	 .help = "hdd: media rate on the innermost zone (the highest "
		 "addresses); at most hdd_mbps_outer."},
	{"hdd_zones", T_U32, FIELD(hdd_zones), "16", 1, 256, .flags = F_DESCR | F_HDD,
	 .unit = "zones",
	 .help = "hdd: recording zones from outer to inner, each with its own "
		 "sectors per track."},
	{"hdd_cache", T_SIZE, FIELD(hdd_cache), "8m", 0, 1024 * MIB,
	 .flags = F_DESCR | F_HDD | F_MUL4K, .unit = "bytes",
	 .help = "hdd: the disk's DRAM buffer (read-ahead and write cache)."},
	{"hdd_write_cache", T_BOOL, FIELD(hdd_write_cache), "yes",
	 .flags = F_DESCR | F_HDD, .unit = "bool",
	 .help = "hdd: writes complete once in the buffer and go to the "
		 "platters behind (a flush or FUA waits for them)."},
	{"hdd_read_ahead", T_SIZE, FIELD(hdd_read_ahead), "256k", 0, 64 * MIB,
	 .flags = F_DESCR | F_HDD | F_MUL4K, .unit = "bytes",
	 .help = "hdd: bytes read past a read's end into the buffer while the "
		 "head is there (at most hdd_cache)."},
	{"hdd_queue", T_ENUM, FIELD(hdd_queue), "sptf", .values = hddq_names,
	 .flags = F_DESCR | F_HDD, .unit = "order",
	 .help = "hdd: the order the disk serves queued commands in: sptf "
		 "(NCQ: of the first 32 waiting, the one whose seek and "
		 "rotation are shortest) or fcfs (arrival order).  sptf needs "
		 "the disk to be the machine's drive itself; under host layers "
		 "it serves fcfs (docs/hdd.md)."},
	/* the machine around the drive: host layers (docs/stack.md) */
	{"page_cache", T_SIZE, FIELD(page_cache), "0", 0, 1024ull * 1024 * MIB,
	 .flags = F_DESCR | F_STACK | F_MUL4K, .unit = "bytes",
	 .help = "Host page cache: jobs with direct=0 (fio's default) read and "
		 "write through it, direct=1 jobs bypass it (0 = none: every "
		 "job goes direct)."},
	{"page_cache_dirty_ratio", T_FRACTION, FIELD(page_cache_dirty_ratio),
	 "0.2", .fmin = 0.01, .fmax = 1, .flags = F_DESCR | F_STACK,
	 .unit = "fraction of page_cache",
	 .help = "Dirty share at which a writer waits for write-back (Linux's "
		 "vm.dirty_ratio)."},
	{"page_cache_dirty_bg_ratio", T_FRACTION,
	 FIELD(page_cache_dirty_bg_ratio), "0.1", .fmin = 0, .fmax = 1,
	 .flags = F_DESCR | F_STACK, .unit = "fraction of page_cache",
	 .help = "Dirty share at which write-back starts without waiting for "
		 "expiry (vm.dirty_background_ratio); at most "
		 "page_cache_dirty_ratio."},
	{"page_cache_dirty_expire", T_TIME, FIELD(page_cache_dirty_expire), "30s",
	 0, 3600ll * 1000 * SSD_MS, .flags = F_DESCR | F_STACK, .unit = "time",
	 .help = "Age at which a dirty page is written back "
		 "(vm.dirty_expire_centisecs)."},
	{"page_cache_writeback_interval", T_TIME,
	 FIELD(page_cache_writeback_interval), "5s", SSD_MS,
	 3600ll * 1000 * SSD_MS, .flags = F_DESCR | F_STACK, .unit = "time",
	 .help = "The flusher wakes this often to write back expired pages "
		 "(vm.dirty_writeback_centisecs)."},
	{"page_cache_read_ahead", T_SIZE, FIELD(page_cache_read_ahead), "128k",
	 0, 64 * MIB, .flags = F_DESCR | F_STACK | F_MUL4K, .unit = "bytes",
	 .help = "Read-ahead of a sequential reader (the block device's "
		 "read_ahead_kb)."},
	{"page_cache_mbps", T_U32, FIELD(page_cache_mbps), "4000", 1, 1000000,
	 .flags = F_DESCR | F_STACK, .unit = "MB/s",
	 .help = "Memory copy rate: what a cache hit or a buffered write "
		 "costs."},
	{"mft", T_BOOL, FIELD(mft), "no", .flags = F_STACK | F_DESCR,
	 .unit = "bool",
	 .help = "A log-structured host layer (EasyCo's MFT): writes gather in "
		 "RAM and go to the drive as long sequential runs, its map kept "
		 "on the drive (docs/stack.md)."},
	{"mft_block", T_SIZE, FIELD(mft_block), "16k", 4 * KIB, 1024 * KIB,
	 .flags = F_DESCR | F_STACK | F_MUL4K | F_POW2, .unit = "bytes",
	 .help = "mft: its mapping unit; a write of part of a block reads the "
		 "rest (16 KiB recommended)."},
	{"mft_buffer", T_SIZE, FIELD(mft_buffer), "32m", 64 * KIB, 64ull * 1024 * MIB,
	 .flags = F_DESCR | F_STACK | F_MUL4K, .unit = "bytes",
	 .help = "mft: host RAM that gathers writes before they go to the "
		 "log."},
	{"mft_write", T_SIZE, FIELD(mft_write), "1m", 4 * KIB, 64 * MIB,
	 .flags = F_DESCR | F_STACK | F_MUL4K, .unit = "bytes",
	 .help = "mft: one write to the log (a multiple of mft_block, at most "
		 "mft_buffer)."},
	{"mft_flush_interval", T_TIME, FIELD(mft_flush_interval), "7s", SSD_MS,
	 3600ll * 1000 * SSD_MS, .flags = F_DESCR | F_STACK, .unit = "time",
	 .help = "mft: gathered writes go to the log at least this often."},
	{"mft_reserve", T_FRACTION, FIELD(mft_reserve), "0.1", .fmin = 0.02,
	 .fmax = 0.9, .flags = F_DESCR | F_STACK, .unit = "fraction of the drive",
	 .help = "mft: share of the drive kept for its map and the free space "
		 "its log cleaner needs (the volume is that much smaller)."},
	{"mft_map_cache", T_SIZE, FIELD(mft_map_cache), "0", 0, 64ull * 1024 * MIB,
	 .flags = F_DESCR | F_STACK, .unit = "bytes",
	 .help = "mft: RAM for its map; a miss reads a map page from the drive "
		 "(0 = the whole map in RAM, read once)."},
	{"raid", T_ENUM, FIELD(raid), "none", .values = raid_names,
	 .flags = F_STACK | F_DESCR, .unit = "level",
	 .help = "Host RAID over raid_members copies of the drive: none or 0 "
		 "(striping)."},
	{"raid_members", T_U32, FIELD(raid_members), "2", 2, 64,
	 .flags = F_DESCR | F_STACK, .unit = "drives", .help = "Drives in the array."},
	{"raid_stripe", T_SIZE, FIELD(raid_stripe), "64k", 4 * KIB, 64 * MIB,
	 .flags = F_DESCR | F_STACK | F_MUL4K | F_POW2, .unit = "bytes",
	 .help = "RAID 0 stripe unit: consecutive stripes go to consecutive "
		 "members."},
	{"mem_check", T_BOOL, FIELD(mem_check), "yes", .flags = F_ANY,
	 .unit = "bool",
	 .help = "Before the drive is built, its memory is estimated (the "
		 "FTL's maps, about 8 bytes per 4 KiB of flash, the host "
		 "layers, verification's tables; `drive show` prints it) and "
		 "a drive that needs more than the process may take "
		 "(MemAvailable, the cgroup's limit, ulimit -v) is refused "
		 "with exit status 1 instead of being killed half-way (no: "
		 "build it anyway)."},
};
#define NOPTS ((int)(sizeof options / sizeof options[0]))
_Static_assert(sizeof options / sizeof options[0] <= 128,
	       "struct ssd_config's overridden/adapted masks have 128 bits");

/* ---- small helpers ---- */

static const struct opt *find_opt(const char *name)
{
	for (int i = 0; i < NOPTS; i++)
		if (!strcmp(options[i].name, name))
			return &options[i];
	return NULL;
}

/* A user's text made safe to quote in a one-line message: at most 40
 * characters, control characters shown as '?'. */
static const char *quote(const char *s, char *buf, size_t n)
{
	size_t i = 0, len = strlen(s);
	for (; i < len && i + 4 < n && i < 40; i++)
		buf[i] = iscntrl((unsigned char)s[i]) ? '?' : s[i];
	if (i < len && i + 4 <= n) {
		memcpy(buf + i, "...", 3);
		i += 3;
	}
	buf[i] = 0;
	return buf;
}

/* "32g", "16k", or plain bytes when no suffix is exact. */
static char *fmt_size(uint64_t v, char *buf, size_t n)
{
	static const char suf[] = "kmgtp";
	int u = -1;
	while (v && u < 4 && v % 1024 == 0) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, n, "%llu", (unsigned long long)v);
	else
		snprintf(buf, n, "%llu%c", (unsigned long long)v, suf[u]);
	return buf;
}

/* "700us", "2ms", "1500us": the largest unit that keeps it exact. */
static char *fmt_time(int64_t ns, char *buf, size_t n)
{
	static const struct {
		int64_t div;
		const char *suf;
	} units[] = {{SSD_S, "s"}, {SSD_MS, "ms"}, {SSD_US, "us"}, {1, "ns"}};
	if (ns == 0) {
		snprintf(buf, n, "0");
		return buf;
	}
	for (int i = 0; i < 4; i++) {
		if (ns % units[i].div == 0) {
			snprintf(buf, n, "%lld%s", (long long)(ns / units[i].div),
				 units[i].suf);
			break;
		}
	}
	return buf;
}

/* The shortest %g that reads back to the same double. */
static char *fmt_double(double v, char *buf, size_t n)
{
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, n, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* Integer value of a numeric field (size, integer, time). */
static uint64_t get_uint(const struct ssd_config *c, const struct opt *o)
{
	const char *p = (const char *)c + o->off;
	if (o->size == sizeof(uint32_t)) {
		uint32_t v;
		memcpy(&v, p, sizeof v);
		return v;
	}
	uint64_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

static void put_uint(struct ssd_config *c, const struct opt *o, uint64_t v)
{
	char *p = (char *)c + o->off;
	if (o->size == sizeof(uint32_t)) {
		uint32_t w = (uint32_t)v;
		memcpy(p, &w, sizeof w);
	} else {
		memcpy(p, &v, sizeof v);
	}
}

static int get_int(const struct ssd_config *c, const struct opt *o)
{
	int v;
	memcpy(&v, (const char *)c + o->off, sizeof v);
	return v;
}

static double get_double(const struct ssd_config *c, const struct opt *o)
{
	double v;
	memcpy(&v, (const char *)c + o->off, sizeof v);
	return v;
}

/* The accepted values of an option, for messages (with a hint on the
 * syntax when `hint`) and the doc's range column. */
static char *accepted(const struct opt *o, int hint, char *b, size_t n)
{
	char lo[32], hi[32];
	size_t len = 0;
	b[0] = 0;
	switch (o->type) {
	case T_STRING:
		snprintf(b, n, "text of up to %zu characters", o->size - 1);
		break;
	case T_SIZE:
		if (o->flags & F_POW2) {
			for (uint64_t v = o->min; v <= o->max && len < n; v *= 2) {
				len += (size_t)snprintf(b + len, n - len, "%s%s",
							v == o->min ? "" : ", ",
							fmt_size(v, lo, sizeof lo));
			}
			break;
		}
		snprintf(b, n, "%s..%s%s%s", fmt_size(o->min, lo, sizeof lo),
			 fmt_size(o->max, hi, sizeof hi),
			 o->flags & F_MUL4K ? ", a multiple of 4k" : "",
			 hint ? "; suffixes k, m, g, t" : "");
		break;
	case T_U32:
		snprintf(b, n, "%llu..%llu", (unsigned long long)o->min,
			 (unsigned long long)o->max);
		break;
	case T_FRACTION:
		snprintf(b, n, "%s..%s%s%s", fmt_double(o->fmin, lo, sizeof lo),
			 fmt_double(o->fmax, hi, sizeof hi),
			 o->flags & F_CELLDEF ? ", or cell" : "",
			 hint ? ", e.g. 0.07 or 7%" : "");
		break;
	case T_TIME:
		snprintf(b, n, "%s..%s%s", fmt_time((int64_t)o->min, lo, sizeof lo),
			 fmt_time((int64_t)o->max, hi, sizeof hi),
			 hint ? ", e.g. 700us; a bare number is microseconds" : "");
		break;
	case T_ENUM:
		for (int i = 0; o->values[i] && len < n; i++)
			len += (size_t)snprintf(b + len, n - len, "%s%s",
						i ? ", " : "", o->values[i]);
		break;
	case T_BOOL:
		snprintf(b, n, "yes/no, 1/0, true/false, on/off");
		break;
	}
	return b;
}

/* The value of option o in drive-file syntax. */
static char *fmt_value(const struct ssd_config *c, const struct opt *o,
		       char *buf, size_t n)
{
	switch (o->type) {
	case T_STRING:
		snprintf(buf, n, "%s", (const char *)c + o->off);
		break;
	case T_SIZE:
		fmt_size(get_uint(c, o), buf, n);
		break;
	case T_U32:
		snprintf(buf, n, "%llu", (unsigned long long)get_uint(c, o));
		break;
	case T_TIME:
		fmt_time((int64_t)get_uint(c, o), buf, n);
		break;
	case T_FRACTION:
		if ((o->flags & F_CELLDEF) && get_double(c, o) < 0)
			snprintf(buf, n, "cell");
		else
			fmt_double(get_double(c, o), buf, n);
		break;
	case T_ENUM: {
		int v = get_int(c, o), nv;
		for (nv = 0; o->values[nv]; nv++)
			;
		if (v >= 0 && v < nv)
			snprintf(buf, n, "%s", o->values[v]);
		else
			snprintf(buf, n, "%d", v);
		break;
	}
	case T_BOOL:
		snprintf(buf, n, "%s", get_int(c, o) ? "yes" : "no");
		break;
	}
	return buf;
}

/* Parse `s` (trimmed) into option o of *c.  Messages as ssd_config_set. */
static int set_value(struct ssd_config *c, const struct opt *o, const char *s,
		     const char *where, char *err, size_t errlen)
{
	char acc[160], q[48];
	const char *what = NULL;
	int rc = 0;
	uint64_t u = 0;
	char *p = (char *)c + o->off;

	switch (o->type) {
	case T_STRING: {
		size_t len = strlen(s);
		for (size_t i = 0; i < len; i++)
			if (iscntrl((unsigned char)s[i])) {
				what = "contains a control character";
				rc = SSD_EPARSE;
				goto fail;
			}
		if (len >= o->size) {
			what = "is too long";
			rc = SSD_ERANGE;
			goto fail;
		}
		memcpy(p, s, len + 1);
		return 0;
	}
	case T_SIZE:
		rc = ssd_parse_size(s, &u);
		what = "is not a size";
		break;
	case T_U32:
		rc = ssd_parse_u64(s, &u);
		what = "is not a whole number";
		break;
	case T_TIME: {
		int64_t t = 0;
		rc = ssd_parse_time(s, SSD_US, &t);
		u = (uint64_t)t;
		what = "is not a time";
		break;
	}
	case T_FRACTION: {
		double d = 0;
		size_t len = strlen(s);
		if ((o->flags & F_CELLDEF) && !strcasecmp(s, "cell")) {
			d = -1; /* resolved by ssd_config_finish() */
			memcpy(p, &d, sizeof d);
			return 0;
		}
		if (len > 1 && s[len - 1] == '%' && len < 64) {
			char num[64];
			memcpy(num, s, len - 1);
			num[len - 1] = 0;
			rc = ssd_parse_double(ssd_strtrim(num), &d);
			d /= 100;
		} else {
			rc = ssd_parse_double(s, &d);
		}
		if (rc == SSD_EPARSE) {
			what = "is not a number";
			goto fail;
		}
		if (rc || !(d >= o->fmin && d <= o->fmax)) {
			what = "is out of range";
			rc = SSD_ERANGE;
			goto fail;
		}
		memcpy(p, &d, sizeof d);
		return 0;
	}
	case T_ENUM:
		for (int i = 0; o->values[i]; i++) {
			if (!strcasecmp(s, o->values[i])) {
				memcpy(p, &i, sizeof i);
				return 0;
			}
		}
		ssd_seterr(err, errlen, "%s: key '%s': unknown value '%s' (accepted: %s)",
		       where, o->name, quote(s, q, sizeof q),
		       accepted(o, 1, acc, sizeof acc));
		return SSD_EPARSE;
	case T_BOOL: {
		int b;
		if (ssd_parse_bool(s, &b)) {
			what = "is not a yes/no value";
			rc = SSD_EPARSE;
			goto fail;
		}
		memcpy(p, &b, sizeof b);
		return 0;
	}
	}
	/* numeric: size, integer, time */
	if (rc == SSD_EPARSE)
		goto fail;
	if (rc || u < o->min || u > o->max) {
		what = "is out of range";
		rc = SSD_ERANGE;
		goto fail;
	}
	if ((o->flags & F_MUL4K) && u % SSD_LPAGE) {
		what = "is not a multiple of 4k";
		rc = SSD_ERANGE;
		goto fail;
	}
	if ((o->flags & F_POW2) && !is_pow2(u)) {
		what = "is not a power of two";
		rc = SSD_ERANGE;
		goto fail;
	}
	put_uint(c, o, u);
	return 0;
fail:
	ssd_seterr(err, errlen, "%s: key '%s': '%s' %s (accepted: %s)", where,
	       o->name, quote(s, q, sizeof q), what,
	       accepted(o, rc == SSD_EPARSE, acc, sizeof acc));
	return rc;
}

/* ---- public: defaults and setting ---- */

void ssd_config_defaults(struct ssd_config *c)
{
	char err[256];
	memset(c, 0, sizeof *c);
	for (int i = 0; i < NOPTS; i++) {
		const struct opt *o = &options[i];
		if (o->flags & F_DERIVED)
			continue;
		if (set_value(c, o, o->def, "built-in default", err, sizeof err)) {
			fprintf(stderr, "ssdlab: bug: %s\n", err);
			abort();
		}
	}
	c->file_capacity = c->capacity;
}

/* Bit of option row o in the overridden/adapted masks. */
static ssd_keymask row_bit(const struct opt *o)
{
	return (ssd_keymask)1 << (o - options);
}

static ssd_keymask key_bit(const char *name)
{
	const struct opt *o = find_opt(name);
	return o ? row_bit(o) : 0;
}

/* Set one key: an override of what was loaded (override = 1, --set) or a
 * value of the drive file itself.  `trim`: trim the value first (a quoted
 * value from a drive file is taken as it is). */
static int set_key(struct ssd_config *c, const char *key, const char *value,
		   int trim, int override, const char *where, char *err,
		   size_t errlen)
{
	char kbuf[64], q[48];
	if (!where)
		where = "--set";
	snprintf(kbuf, sizeof kbuf, "%s", key);
	char *k = ssd_strtrim(kbuf);
	const struct opt *o = strlen(key) < sizeof kbuf ? find_opt(k) : NULL;
	if (!o) {
		const char *best = NULL;
		int bestd = 99;
		for (int i = 0; i < NOPTS; i++) {
			int d = ssd_edit_distance(k, options[i].name);
			if (d < bestd) {
				bestd = d;
				best = options[i].name;
			}
		}
		if (best && ssd_plausible_typo(k, bestd))
			ssd_seterr(err, errlen, "%s: unknown key '%s' (did you mean '%s'? "
			       "see `ssdlab drive show default` for the keys)",
			       where, quote(k, q, sizeof q), best);
		else
			ssd_seterr(err, errlen, "%s: unknown key '%s' (see `ssdlab drive "
			       "show default` for the keys)",
			       where, quote(k, q, sizeof q));
		return SSD_ENOENT;
	}
	if (o->flags & F_DERIVED) {
		ssd_seterr(err, errlen, "%s: key '%s': is derived from capacity and op "
		       "and cannot be set (set capacity, op, page_size or "
		       "pages_per_block instead)", where, o->name);
		return SSD_EINVAL;
	}
	char *v = strdup(value);
	if (!v) {
		ssd_seterr(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	int rc = set_value(c, o, trim ? ssd_strtrim(v) : v, where, err, errlen);
	free(v);
	if (!rc && override)
		c->overridden |= row_bit(o);
	else if (!rc)
		c->overridden &= ~row_bit(o);
	return rc;
}

int ssd_config_set(struct ssd_config *c, const char *key, const char *value,
		   const char *where, char *err, size_t errlen)
{
	return set_key(c, key, value, 1, 1, where, err, errlen);
}

/* ---- drive files ---- */

/* The start of a comment in s: '#' or ';' at the start or after white
 * space; NULL if there is none. */
static char *comment_start(const char *s)
{
	for (const char *p = s; *p; p++)
		if ((*p == '#' || *p == ';') &&
		    (p == s || *(p - 1) == ' ' || *(p - 1) == '\t'))
			return (char *)p;
	return NULL;
}

/* Cut a comment: '#' or ';' at the start or after white space. */
static void strip_comment(char *s)
{
	char *p = comment_start(s);
	if (p)
		*p = 0;
}

/* A value in double quotes, s at the opening quote: unescape \" and \\ in
 * place (any other backslash is kept) and check that only white space or
 * a comment follows the closing quote.  Returns the value, or NULL with
 * *why saying what is wrong. */
static char *unquote(char *s, const char **why)
{
	char *r = s + 1, *w = s;
	for (; *r && *r != '"'; r++) {
		if (*r == '\\' && (r[1] == '"' || r[1] == '\\'))
			r++;
		*w++ = *r;
	}
	if (*r != '"') {
		*why = "has no closing quote";
		return NULL;
	}
	*w = 0;
	char *rest = r + 1;
	if (*rest && *rest != ' ' && *rest != '\t' && !comment_start(rest)) {
		*why = "has text after the closing quote";
		return NULL;
	}
	strip_comment(rest);
	if (*ssd_strtrim(rest)) {
		*why = "has text after the closing quote";
		return NULL;
	}
	return s;
}

/* Text that a drive file would not read back as it is, unquoted: a
 * comment character, an opening quote, white space at either end. */
static int needs_quotes(const char *s)
{
	size_t n = strlen(s);
	return n && (comment_start(s) || s[0] == '"' ||
		     isspace((unsigned char)s[0]) || isspace((unsigned char)s[n - 1]));
}

/* File name without directory and ".ini", into buf. */
static void file_stem(const char *path, char *buf, size_t n)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t len = strlen(b);
	if (len > 4 && !strcmp(b + len - 4, ".ini"))
		len -= 4;
	if (len >= n)
		len = n - 1;
	memcpy(buf, b, len);
	buf[len] = 0;
}

#define CONFIG_PRESET_DEPTH 8 /* presets a drive file may stack */

static int load_file(struct ssd_config *c, const char *path, const char *dir,
		     int depth, char *err, size_t errlen);
static int open_named(struct ssd_config *c, const char *name, const char *dir,
		      int depth, const char *where, char *err, size_t errlen);

int ssd_config_load(struct ssd_config *c, const char *path, char *err,
		    size_t errlen)
{
	return load_file(c, path, NULL, 0, err, errlen);
}

/* Load the drive file at path over *c; `preset = NAME` (the first key)
 * loads preset NAME from dir (NULL: the compiled-in one) first, depth
 * the presets already stacked. */
static int load_stream(struct ssd_config *c, FILE *f, const char *path,
		       const char *dir, int depth, char *err, size_t errlen);

static int load_file(struct ssd_config *c, const char *path, const char *dir,
		     int depth, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		ssd_seterr(err, errlen, "cannot open drive file '%s': %s", path,
		       strerror(errno));
		return SSD_EIO;
	}
	return load_stream(c, f, path, dir, depth, err, errlen);
}

int ssd_config_load_text(struct ssd_config *c, const char *text,
			 const char *name, char *err, size_t errlen)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	if (!f) {
		ssd_seterr(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	return load_stream(c, f, name, NULL, 0, err, errlen);
}

/* load_file's work on the open stream f (closed here); path names it in
 * messages. */
static int load_stream(struct ssd_config *c, FILE *f, const char *path,
		       const char *dir, int depth, char *err, size_t errlen)
{
	size_t wlen = strlen(path) + 24;
	char *where = calloc(1, wlen);
	if (!where) {
		fclose(f);
		ssd_seterr(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int lineno = 0, rc = 0, named = 0, described = 0, keys = 0;
	while ((n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		snprintf(where, wlen, "%s:%d", path, lineno);
		char *s = line;
		if (lineno == 1 && !strncmp(s, "\xef\xbb\xbf", 3))
			s += 3; /* UTF-8 byte order mark */
		if (strlen(line) != (size_t)n) {
			ssd_seterr(err, errlen, "%s: expected 'key = value' (found a NUL "
			       "byte)", where);
			rc = SSD_EPARSE;
			break;
		}
		s = ssd_strtrim(s);
		if (!*s || *s == '#' || *s == ';')
			continue;
		char *eq = strchr(s, '='), *cmt = comment_start(s);
		if (!eq || (cmt && cmt < eq)) {
			if (cmt)
				*cmt = 0;
			s = ssd_strtrim(s);
			eq = NULL;
		}
		if (*s == '[') {
			char *e = strchr(s, ']');
			if (e && !e[1]) {
				*e = 0;
				if (!strcmp(ssd_strtrim(s + 1), "drive"))
					continue;
				*e = ']';
			}
			char q[48];
			ssd_seterr(err, errlen, "%s: unknown section '%s' (accepted: "
			       "[drive], or none)", where, quote(s, q, sizeof q));
			rc = SSD_EPARSE;
			break;
		}
		if (eq)
			*eq = 0;
		char *key = ssd_strtrim(s);
		if (!eq || !*key) {
			ssd_seterr(err, errlen, "%s: expected 'key = value'", where);
			rc = SSD_EPARSE;
			break;
		}
		char *val = eq + 1;
		while (*val == ' ' || *val == '\t')
			val++;
		int quoted = *val == '"';
		if (quoted) {
			const char *why = NULL;
			val = unquote(val, &why);
			if (!val) {
				char q[48];
				ssd_seterr(err, errlen, "%s: key '%s': the quoted value %s "
				       "(accepted: \"text\", with \\\" for a quote and "
				       "\\\\ for a backslash)", where, quote(key, q, sizeof q),
				       why);
				rc = SSD_EPARSE;
				break;
			}
		} else {
			strip_comment(val);
		}
		if (!strcmp(key, "preset")) {
			/* the preset first, then this file's keys change it */
			if (keys) {
				ssd_seterr(err, errlen, "%s: key 'preset': comes after "
				       "other keys, which it would undo (accepted: "
				       "`preset = NAME` as the file's first key)",
				       where);
				rc = SSD_EINVAL;
				break;
			}
			if (!quoted)
				val = ssd_strtrim(val);
			rc = open_named(c, val, dir, depth + 1, where, err, errlen);
			if (rc)
				break;
			keys++;
			continue;
		}
		rc = set_key(c, key, val, !quoted, 0, where, err, errlen);
		if (rc)
			break;
		keys++;
		named |= !strcmp(key, "name");
		described |= !strcmp(key, "description");
	}
	if (!rc && ferror(f)) {
		ssd_seterr(err, errlen, "cannot read drive file '%s': %s", path,
		       strerror(errno));
		rc = SSD_EIO;
	} else if (!rc && n < 0 && !feof(f)) {
		/* getline stopped short of the end: no memory for the line */
		ssd_seterr(err, errlen, "out of memory");
		rc = SSD_ENOMEM;
	}
	free(line);
	free(where);
	fclose(f);
	if (!rc && !keys) {
		/* it would be the default drive, whatever the file meant */
		ssd_seterr(err, errlen, "drive file '%s' sets no keys (accepted: "
		       "`preset = NAME` to start from a preset `ssdlab drives` "
		       "lists, and `key = value` lines; docs/options.md)", path);
		rc = SSD_EINVAL;
	}
	if (!rc && !named)
		file_stem(path, c->name, sizeof c->name);
	if (!rc && !described)
		c->description[0] = 0; /* the defaults' text is not about this file */
	if (!rc)
		c->file_capacity = c->capacity;
	return rc;
}

/* The preset of dir closest to name, into best[n], if one is a plausible
 * typo of it (as keys and options are suggested); else "". */
static void closest_preset(const char *dir, const char *name, char *best,
			   size_t n)
{
	int bestd = 99;
	best[0] = 0;
	DIR *dp = opendir(dir);
	if (!dp)
		return;
	struct dirent *e;
	while ((e = readdir(dp))) {
		char stem[64];
		size_t len = strlen(e->d_name);
		if (len <= 4 || len - 4 >= sizeof stem ||
		    strcmp(e->d_name + len - 4, ".ini"))
			continue;
		memcpy(stem, e->d_name, len - 4);
		stem[len - 4] = 0;
		int d = ssd_edit_distance(name, stem);
		/* ties go to the first name in order: the same answer
		 * whatever order the directory lists them in */
		if (d < bestd || (d == bestd && strcmp(stem, best) < 0)) {
			bestd = d;
			snprintf(best, n, "%s", stem);
		}
	}
	closedir(dp);
	if (!ssd_plausible_typo(name, bestd))
		best[0] = 0;
}

/* Load the drive `name` (a preset of dir, or a path) over *c, depth the
 * presets stacked so far; where: the drive file's "file:line" naming it,
 * or NULL for the command line. */
static int open_named(struct ssd_config *c, const char *name, const char *dir,
		      int depth, const char *where, char *err, size_t errlen)
{
	size_t len = strlen(name);
	char q[48], pre[300] = "";
	if (where)
		snprintf(pre, sizeof pre, "%s: key 'preset': ", where);
	if (depth > CONFIG_PRESET_DEPTH) {
		ssd_seterr(err, errlen, "%spresets stacked more than %d deep (a "
		       "preset naming itself?)", pre, CONFIG_PRESET_DEPTH);
		return SSD_EINVAL;
	}
	if (!dir || !*dir)
		dir = SSDLAB_PRESET_DIR;
	if (strchr(name, '/') || (len >= 4 && !strcmp(name + len - 4, ".ini")))
		return load_file(c, name, dir, depth, err, errlen);
	size_t plen = strlen(dir) + len + 8;
	char *path = calloc(1, plen);
	if (!path) {
		ssd_seterr(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	snprintf(path, plen, "%s/%s.ini", dir, name);
	int rc;
	if (!*name || access(path, F_OK)) {
		char best[64], mean[96] = "";
		closest_preset(dir, name, best, sizeof best);
		if (best[0])
			snprintf(mean, sizeof mean, "did you mean '%s'? ", best);
		ssd_seterr(err, errlen, "%sunknown drive '%s' (%ssee `ssdlab drives` "
		       "for the presets, or give a path to a .ini file)", pre,
		       quote(name, q, sizeof q), mean);
		rc = SSD_ENOENT;
	} else {
		rc = load_file(c, path, dir, depth, err, errlen);
	}
	free(path);
	return rc;
}

int ssd_config_open(struct ssd_config *c, const char *name_or_path,
		    const char *preset_dir, char *err, size_t errlen)
{
	ssd_config_defaults(c);
	return open_named(c, name_or_path, preset_dir, 0, NULL, err, errlen);
}

/* ---- finishing: ranges, derived geometry, cell defaults ---- */

uint32_t ssd_config_dies(const struct ssd_config *c)
{
	return c->channels * c->dies_per_channel;
}

/* The geometry of c with bpp blocks per plane (config.h): the one
 * definition of every derived count, for the rules below, the FTL, the
 * flash backend and the methods.  Safe on a config not range-checked
 * yet (no division by zero). */
static void geometry(const struct ssd_config *c, uint64_t bpp,
		     struct ssd_geometry *g)
{
	memset(g, 0, sizeof *g);
	uint32_t mp = c->multiplane ? c->planes_per_die : 1;
	uint32_t ppb = c->pages_per_block;
	g->dies = ssd_config_dies(c);
	g->planes = g->dies * c->planes_per_die;
	g->units = c->multiplane ? g->dies : g->planes;
	g->planes_per_unit = mp;
	g->blocks_per_unit = (uint32_t)bpp;
	g->pages_per_block = ppb;
	g->bits = ssd_cell_bits(c->cell);
	g->slc_pages_per_block = g->bits ? ppb / g->bits : 0;
	g->lp_per_page = (c->page_size / SSD_LPAGE) * mp;
	g->lp_per_block = g->lp_per_page * ppb;
	g->lp_per_block_slc = g->lp_per_page * g->slc_pages_per_block;
	g->blocks = (uint64_t)g->units * bpp;
	g->erase_blocks = (uint64_t)g->planes * bpp;
	g->erase_block_bytes = (uint64_t)c->page_size * ppb;
	g->row_bytes = g->erase_block_bytes * g->planes;
	g->row_slc_bytes = (uint64_t)g->slc_pages_per_block * c->page_size *
			   g->planes;
	g->physical_bytes = g->row_bytes * bpp;
	g->physical_lp = g->blocks * g->lp_per_block;
	g->user_lp = c->capacity / SSD_LPAGE;
	if (g->lp_per_block)
		g->data_blocks = (g->user_lp + g->lp_per_block - 1) / g->lp_per_block;
	g->reserve_blocks = (uint64_t)c->gc_fg_blocks + 2;
	if (c->slc_cache != SSD_SLC_NONE && g->bits > 1 && g->row_slc_bytes)
		g->slc_blocks = (c->slc_cache_size + g->row_slc_bytes - 1) /
				g->row_slc_bytes;
	g->map_epp = c->page_size / 4;
	if (g->map_epp)
		g->map_pages = (g->user_lp + g->map_epp - 1) / g->map_epp;
}

void ssd_config_geometry(const struct ssd_config *c, struct ssd_geometry *g)
{
	geometry(c, c->blocks_per_plane, g);
}

uint64_t ssd_config_physical_bytes(const struct ssd_config *c)
{
	struct ssd_geometry g;
	geometry(c, c->blocks_per_plane, &g);
	return g.physical_bytes;
}

/* Re-check every field against its row (code may have set fields
 * directly, bypassing ssd_config_set). */
static int check_ranges(const struct ssd_config *c, char *err, size_t errlen)
{
	char acc[160], val[48];
	for (int i = 0; i < NOPTS; i++) {
		const struct opt *o = &options[i];
		const char *what = NULL;
		switch (o->type) {
		case T_STRING:
			if (!memchr((const char *)c + o->off, 0, o->size))
				what = "is not terminated";
			snprintf(val, sizeof val, "(text)");
			break;
		case T_SIZE:
		case T_U32:
		case T_TIME: {
			uint64_t u = get_uint(c, o);
			if (o->flags & F_DERIVED)
				break;
			if (o->type == T_SIZE)
				fmt_size(u, val, sizeof val);
			else if (o->type == T_TIME)
				fmt_time((int64_t)u, val, sizeof val);
			else
				snprintf(val, sizeof val, "%llu", (unsigned long long)u);
			if (u < o->min || u > o->max)
				what = "is out of range";
			else if ((o->flags & F_MUL4K) && u % SSD_LPAGE)
				what = "is not a multiple of 4k";
			else if ((o->flags & F_POW2) && !is_pow2(u))
				what = "is not a power of two";
			break;
		}
		case T_FRACTION: {
			double d = get_double(c, o);
			fmt_double(d, val, sizeof val);
			if (!(d >= o->fmin && d <= o->fmax) &&
			    !((o->flags & F_CELLDEF) && d == -1))
				what = "is out of range";
			break;
		}
		case T_ENUM:
		case T_BOOL: {
			int v = get_int(c, o), nv = 2;
			if (o->type == T_ENUM)
				for (nv = 0; o->values[nv]; nv++)
					;
			snprintf(val, sizeof val, "%d", v);
			if (v < 0 || v >= nv)
				what = "is out of range";
			break;
		}
		}
		if (what) {
			ssd_seterr(err, errlen, "key '%s': %s %s (accepted: %s)", o->name,
			       val, what, accepted(o, 0, acc, sizeof acc));
			return SSD_ERANGE;
		}
	}
	return 0;
}

uint32_t ssd_config_slc_blocks(const struct ssd_config *c)
{
	struct ssd_geometry g;
	geometry(c, c->blocks_per_plane, &g);
	return c->slc_cache == SSD_SLC_STATIC ? (uint32_t)g.slc_blocks : 0;
}

double ssd_config_min_op(const struct ssd_config *c)
{
	struct ssd_geometry g;
	geometry(c, c->blocks_per_plane, &g);
	uint64_t row = g.row_bytes;
	if (!row || !c->capacity)
		return 0;
	uint64_t bpp = (c->capacity + row - 1) / row + g.reserve_blocks +
		       ssd_config_slc_blocks(c);
	if (bpp < (uint64_t)c->gc_bg_blocks + 4)
		bpp = (uint64_t)c->gc_bg_blocks + 4;
	return ((double)(bpp * row) - (double)c->capacity) / (double)c->capacity;
}

/* ---- fitting the drive: the rules, adapting, and what to change ----
 *
 * fit() applies every rule that ties keys to each other, in this order,
 * and says which one fails first:
 *   FIT_BPP32    capacity*(1+op) needs more than 2^32 blocks per plane;
 *   FIT_PHYS     the flash exceeds the 16 TiB that 32-bit maps address;
 *   FIT_FEW      fewer than gc_bg_blocks + 4 blocks per plane;
 *   FIT_RESERVE  the blocks beside the FTL's reserve (gc_fg_blocks + 2
 *                write points, and a static SLC cache's blocks, per
 *                plane) do not hold the capacity;
 *   FIT_SLC_DYN  a dynamic SLC cache larger than the blocks beyond that
 *                reserve hold in SLC mode (it could never be reached);
 *   FIT_WBUF     a write buffer above capacity / SSD_CONFIG_WBUF_DIV;
 *   FIT_MAP      a map cache below one map page or above the whole map. */
enum { FIT_OK, FIT_BPP32, FIT_PHYS, FIT_FEW, FIT_RESERVE, FIT_SLC_DYN,
       FIT_WBUF, FIT_MAP };

struct fit {
	struct ssd_geometry g; /* with bpp blocks per plane (once known) */
	uint64_t row;       /* bytes in one block of every plane */
	uint64_t bpp;       /* blocks per plane: the fewest holding
	                       capacity*(1+op) */
	uint64_t data;      /* blocks per plane the capacity fills */
	uint64_t slc;       /* blocks per plane of a static SLC cache */
	uint64_t reserve;   /* the FTL's reserve (g.reserve_blocks) + slc */
	uint64_t usable;    /* bytes beside the reserve */
	uint64_t dyn_max;   /* bytes a dynamic SLC cache can hold at most */
	uint64_t map_bytes; /* the whole map, in whole map pages */
};

static int fit(const struct ssd_config *c, struct fit *f)
{
	memset(f, 0, sizeof *f);
	geometry(c, 0, &f->g);
	f->row = f->g.row_bytes;
	/* The spare is rounded to whole bytes first, so that an op written
	 * in decimal does not add a block through binary rounding. */
	uint64_t spare = (uint64_t)llround((double)c->capacity * c->op);
	uint64_t need = c->capacity + spare;
	f->bpp = (need + f->row - 1) / f->row;
	f->data = (c->capacity + f->row - 1) / f->row;
	if (f->bpp > UINT32_MAX)
		return FIT_BPP32;
	geometry(c, f->bpp, &f->g);
	/* The FTL numbers physical 4 KiB slots with 32 bits (one value is
	 * kept for "unmapped"). */
	if (f->row * f->bpp / SSD_LPAGE >= UINT32_MAX)
		return FIT_PHYS;
	if (f->bpp < (uint64_t)c->gc_bg_blocks + 4)
		return FIT_FEW;
	f->slc = c->slc_cache == SSD_SLC_STATIC ? f->g.slc_blocks : 0;
	f->reserve = f->g.reserve_blocks + f->slc;
	f->usable = f->bpp > f->reserve ? (f->bpp - f->reserve) * f->row : 0;
	if (f->usable < c->capacity)
		return FIT_RESERVE;
	uint64_t beyond = f->bpp - f->g.reserve_blocks;
	f->dyn_max = beyond * f->g.row_slc_bytes;
	if (c->slc_cache == SSD_SLC_DYNAMIC && c->slc_cache_size > f->dyn_max)
		return FIT_SLC_DYN;
	if (c->write_buffer > c->capacity / SSD_CONFIG_WBUF_DIV)
		return FIT_WBUF;
	f->map_bytes = f->g.map_pages * c->page_size;
	if (c->map_cache && (c->map_cache < c->page_size ||
			     c->map_cache > f->map_bytes))
		return FIT_MAP;
	return FIT_OK;
}

/* One step down the adaptation order of keys not in `pinned`: blocks
 * first (fewer pages per block: the array keeps its parallelism, so its
 * speed), then fewer dies per channel, channels, planes, then smaller
 * pages -- each halved, down to its least value.  0 at the floor. */
static int shrink_step(struct ssd_config *t, ssd_keymask pinned)
{
	static const char *const order[] = {"pages_per_block", "dies_per_channel",
					    "channels", "planes_per_die",
					    "page_size"};
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
		const struct opt *o = find_opt(order[i]);
		uint64_t v = get_uint(t, o);
		if ((pinned & row_bit(o)) || v <= o->min)
			continue;
		v = v / 2 < o->min ? o->min : v / 2;
		put_uint(t, o, v);
		t->adapted |= row_bit(o);
		return 1;
	}
	return 0;
}

/* Adapt the keys of *c that were not overridden until the drive holds its
 * overridden capacity (the order is in config.h).  On success *c is the
 * adapted drive and 0 is returned; otherwise *c is unchanged, *floor is
 * the drive as far as it could be adapted and the rule it still fails is
 * returned. */
static int adapt(struct ssd_config *c, struct ssd_config *floor)
{
	struct ssd_config t = *c;
	struct fit f;
	ssd_keymask pin = c->overridden;
	ssd_keymask b_wb = key_bit("write_buffer"), b_map = key_bit("map_cache");
	ssd_keymask b_slc = key_bit("slc_cache_size");
	/* capacity-proportional quantities keep their share of the drive */
	double k = c->file_capacity > c->capacity
			   ? (double)c->capacity / (double)c->file_capacity : 1;
	int slc_scaled = 0, why = FIT_OK;
	for (int guard = 0; guard < 128 && (why = fit(&t, &f)); guard++) {
		if (why == FIT_WBUF && !(pin & b_wb)) {
			t.write_buffer = t.capacity / SSD_CONFIG_WBUF_DIV /
					 SSD_LPAGE * SSD_LPAGE;
			t.adapted |= b_wb;
			continue;
		}
		if (why == FIT_MAP && !(pin & b_map)) {
			uint64_t m = (uint64_t)((double)t.map_cache * k);
			if (m > f.map_bytes)
				m = f.map_bytes;
			if (m < t.page_size)
				m = t.page_size;
			t.map_cache = m;
			t.adapted |= b_map;
			continue;
		}
		int slc_short = (why == FIT_RESERVE && f.slc) || why == FIT_SLC_DYN;
		if (slc_short && !(pin & b_slc) && !slc_scaled && k < 1) {
			uint64_t v = (uint64_t)((double)t.slc_cache_size * k) /
				     SSD_LPAGE * SSD_LPAGE;
			t.slc_cache_size = v < SSD_LPAGE ? SSD_LPAGE : v;
			t.adapted |= b_slc;
			slc_scaled = 1;
			continue;
		}
		if (why != FIT_FEW && why != FIT_RESERVE && why != FIT_SLC_DYN)
			break;
		if (shrink_step(&t, pin))
			continue;
		/* at the floor: an SLC cache that still does not fit takes
		 * what the blocks leave, if that is a block */
		if (!slc_short || (pin & b_slc))
			break;
		uint64_t v = 0;
		if (why == FIT_SLC_DYN)
			v = f.dyn_max / SSD_LPAGE * SSD_LPAGE;
		else if (f.bpp > f.data + f.g.reserve_blocks)
			v = (f.bpp - f.data - f.g.reserve_blocks) * f.g.row_slc_bytes;
		if (!v || v >= t.slc_cache_size)
			break;
		t.slc_cache_size = v;
		t.adapted |= b_slc;
	}
	if (!why) {
		*c = t;
		return 0;
	}
	*floor = t;
	return why;
}

/* The least op that passes the block rules (FIT_FEW, FIT_RESERVE), as a
 * short decimal that rounds up; "" if none up to the key's maximum. */
static char *least_op(const struct ssd_config *c, char *buf, size_t n)
{
	const struct opt *o = find_opt("op");
	struct ssd_config t = *c;
	struct fit f;
	double v = ceil(ssd_config_min_op(c) * 1e4) / 1e4;
	buf[0] = 0;
	for (int i = 0; i < 100 && v <= o->fmax; i++, v += 1e-4) {
		t.op = v;
		int why = fit(&t, &f);
		if (why != FIT_FEW && why != FIT_RESERVE) {
			fmt_double(v, buf, n);
			break;
		}
	}
	return buf;
}

/* A capacity from which on every capacity passes the block rules with
 * this op and geometry: the spare (capacity * op) holds the reserve, and
 * capacity*(1+op) makes gc_bg_blocks + 4 blocks.  Written as a size;
 * "" if none (op = 0). */
static char *least_capacity(const struct ssd_config *c, char *buf, size_t n)
{
	const struct opt *o = find_opt("capacity");
	struct ssd_config t = *c;
	struct fit f;
	buf[0] = 0;
	fit(c, &f);
	if (!(c->op > 0))
		return buf;
	uint64_t reserve = f.g.reserve_blocks + ssd_config_slc_blocks(c);
	double a = ((double)reserve * (double)f.row + 0.5) / c->op;
	double b = ((double)(c->gc_bg_blocks + 3) * (double)f.row + 1) / (1 + c->op);
	double x = a > b ? a : b;
	if (x > (double)o->max)
		return buf;
	uint64_t v = ((uint64_t)ceil(x) + SSD_LPAGE - 1) / SSD_LPAGE * SSD_LPAGE;
	if (v < o->min)
		v = o->min;
	for (int i = 0; i < 64 && v <= o->max; i++, v += f.row) {
		t.capacity = v;
		int why = fit(&t, &f);
		if (why != FIT_FEW && why != FIT_RESERVE) {
			char h[32], k[32];
			snprintf(buf, n, "%s (%s)", fmt_size(v, k, sizeof k),
				 ssd_fmt_bytes(v, h, sizeof h));
			return buf;
		}
	}
	return buf;
}

/* " or raise op to at least X" style clauses, into buf. */
static char *raise_clause(const struct ssd_config *c, int cap_too, char *buf,
			  size_t n)
{
	char op[32], cap[32];
	least_op(c, op, sizeof op);
	if (cap_too)
		least_capacity(c, cap, sizeof cap);
	else
		cap[0] = 0;
	if (*op && *cap)
		snprintf(buf, n, "raise op to at least %s or capacity to at least %s",
			 op, cap);
	else if (*op)
		snprintf(buf, n, "raise op to at least %s", op);
	else if (*cap)
		snprintf(buf, n, "raise capacity to at least %s", cap);
	else
		snprintf(buf, n, "raise op");
	return buf;
}

/* The keys adaptation changed, "k=v, k=v", into buf. */
static char *adapted_list(const struct ssd_config *c, ssd_keymask mask, char *buf,
			  size_t n)
{
	size_t len = 0;
	buf[0] = 0;
	for (int i = 0; i < NOPTS && len < n; i++) {
		char v[48];
		if (!(mask & ((ssd_keymask)1 << i)))
			continue;
		len += (size_t)snprintf(buf + len, n - len, "%s%s=%s", len ? ", " : "",
					options[i].name, fmt_value(c, &options[i], v, sizeof v));
	}
	return buf;
}

/* The one-line message for rule `why` failed by c (as far as it was
 * adapted, when `tried`). */
static int explain(const struct ssd_config *c, int why, int tried, char *err,
		   size_t errlen)
{
	struct fit f;
	fit(c, &f);
	char a[48], b[48], d[48], clause[160], even[320] = "";
	uint32_t planes = f.g.planes;
	if (tried && c->adapted) {
		char list[256];
		snprintf(even, sizeof even, " (even adapted to %s)",
			 adapted_list(c, c->adapted, list, sizeof list));
	}
	switch (why) {
	case FIT_BPP32:
		ssd_seterr(err, errlen, "keys 'capacity' and 'op': need %llu blocks per "
		       "plane, more than a 32-bit count; raise pages_per_block, "
		       "page_size or the die count", (unsigned long long)f.bpp);
		return SSD_ERANGE;
	case FIT_PHYS:
		ssd_seterr(err, errlen, "keys 'capacity' and 'op': physical size %s "
		       "exceeds the 16 TiB that 32-bit page maps address; lower "
		       "capacity or op",
		       ssd_fmt_bytes(f.row * f.bpp, a, sizeof a));
		return SSD_ERANGE;
	case FIT_FEW:
		if ((c->overridden & key_bit("gc_bg_blocks")) &&
		    f.bpp >= (uint64_t)c->gc_fg_blocks + 4) {
			ssd_seterr(err, errlen, "key 'gc_bg_blocks': %u needs %u blocks "
			       "per plane and capacity*(1+op) makes %llu: lower "
			       "gc_bg_blocks to at most %llu, or %s",
			       c->gc_bg_blocks, c->gc_bg_blocks + 4,
			       (unsigned long long)f.bpp,
			       (unsigned long long)(f.bpp - 4),
			       raise_clause(c, 0, clause, sizeof clause));
			return SSD_ERANGE;
		}
		ssd_seterr(err, errlen, "keys 'capacity' and 'op': capacity*(1+op) "
		       "makes %llu block%s per plane (%u plane%s; one block on each "
		       "holds %s), fewer than gc_bg_blocks + 4 = %u: %s%s",
		       (unsigned long long)f.bpp, ssd_plural(f.bpp), planes,
		       ssd_plural(planes),
		       ssd_fmt_bytes(f.row, a, sizeof a), c->gc_bg_blocks + 4,
		       raise_clause(c, 1, clause, sizeof clause), even);
		return SSD_ERANGE;
	case FIT_RESERVE: {
		uint64_t base = f.g.reserve_blocks;
		if (f.slc && f.bpp > base && (f.bpp - base) * f.row >= c->capacity) {
			/* the static SLC cache is what does not fit */
			uint64_t room = f.bpp - base - f.data;
			uint64_t max = room * f.g.row_slc_bytes;
			fmt_size(max, b, sizeof b);
			if (room)
				snprintf(d, sizeof d, "%llu (%s)",
					 (unsigned long long)room,
					 ssd_fmt_bytes(max, clause, sizeof clause));
			else
				snprintf(d, sizeof d, "none");
			ssd_seterr(err, errlen, "key 'slc_cache_size': the static SLC "
			       "cache of %s takes %llu block%s per plane (a block in SLC "
			       "mode holds 1/%u of its native data, and the cache comes "
			       "out of the spare) and the spare beside the FTL's reserve "
			       "leaves %s: %s%s, or %s%s",
			       ssd_fmt_bytes(c->slc_cache_size, a, sizeof a),
			       (unsigned long long)f.slc, ssd_plural(f.slc),
			       ssd_cell_bits(c->cell), d,
			       room ? "lower slc_cache_size to at most " : "set slc_cache = none",
			       room ? b : "", raise_clause(c, 0, clause, sizeof clause), even);
			return SSD_ERANGE;
		}
		if ((c->overridden & key_bit("gc_fg_blocks")) &&
		    f.bpp >= f.data + f.slc + 4) {
			ssd_seterr(err, errlen, "key 'gc_fg_blocks': %u free blocks per "
			       "unit and 2 write points leave %s for data, less than "
			       "the capacity %s: lower gc_fg_blocks to at most %llu, or %s",
			       c->gc_fg_blocks, ssd_fmt_bytes(f.usable, a, sizeof a),
			       ssd_fmt_bytes(c->capacity, b, sizeof b),
			       (unsigned long long)(f.bpp - f.data - f.slc - 2),
			       raise_clause(c, 0, clause, sizeof clause));
			return SSD_ERANGE;
		}
		char slc[64] = "";
		if (f.slc)
			snprintf(slc, sizeof slc, ", %llu of the static SLC cache",
				 (unsigned long long)f.slc);
		ssd_seterr(err, errlen, "keys 'capacity' and 'op': capacity %s does not "
		       "fit beside the FTL's reserve: capacity*(1+op) makes %llu "
		       "block%s per plane (%u plane%s; one block on each holds %s), "
		       "%llu of them are reserved (gc_fg_blocks %u, 2 write "
		       "points%s), the rest hold %s: %s%s",
		       ssd_fmt_bytes(c->capacity, a, sizeof a), (unsigned long long)f.bpp,
		       ssd_plural(f.bpp), planes, ssd_plural(planes),
		       ssd_fmt_bytes(f.row, d, sizeof d),
		       (unsigned long long)f.reserve, c->gc_fg_blocks, slc,
		       ssd_fmt_bytes(f.usable, b, sizeof b),
		       raise_clause(c, 1, clause, sizeof clause), even);
		return SSD_ERANGE;
	}
	case FIT_SLC_DYN:
		ssd_seterr(err, errlen, "key 'slc_cache_size': a dynamic SLC cache of "
		       "%s can never fill: the %llu blocks per plane beyond the FTL's "
		       "reserve hold %s in SLC mode (accepted: at most %s, or raise "
		       "op)%s", ssd_fmt_bytes(c->slc_cache_size, a, sizeof a),
		       (unsigned long long)(f.bpp - f.g.reserve_blocks),
		       ssd_fmt_bytes(f.dyn_max, b, sizeof b),
		       fmt_size(f.dyn_max / SSD_LPAGE * SSD_LPAGE, d, sizeof d), even);
		return SSD_ERANGE;
	case FIT_WBUF:
		ssd_seterr(err, errlen, "key 'write_buffer': %s is more than an eighth "
		       "of the capacity %s: a buffer that large holds the workload "
		       "in DRAM (accepted: 0..%s)",
		       ssd_fmt_bytes(c->write_buffer, a, sizeof a),
		       ssd_fmt_bytes(c->capacity, b, sizeof b),
		       fmt_size(c->capacity / SSD_CONFIG_WBUF_DIV / SSD_LPAGE *
				SSD_LPAGE, d, sizeof d));
		return SSD_ERANGE;
	case FIT_MAP: {
		char lo[32], hi[32];
		fmt_size(c->page_size, lo, sizeof lo);
		fmt_size(f.map_bytes, hi, sizeof hi);
		if (c->map_cache < c->page_size)
			ssd_seterr(err, errlen, "key 'map_cache': %s is less than one "
			       "map page of page_size %s (accepted: 0 = the whole map "
			       "in DRAM, or %s..%s)",
			       ssd_fmt_bytes(c->map_cache, a, sizeof a), lo, lo, hi);
		else
			ssd_seterr(err, errlen, "key 'map_cache': %s is more than the "
			       "whole map, %s: 4 bytes per 4 KiB of capacity, in map "
			       "pages of page_size (accepted: 0 = the whole map in "
			       "DRAM, or %s..%s)",
			       ssd_fmt_bytes(c->map_cache, a, sizeof a),
			       ssd_fmt_bytes(f.map_bytes, b, sizeof b), lo, hi);
		return SSD_ERANGE;
	}
	}
	return SSD_EINVAL;
}

/* Rules between keys that do not depend on the geometry. */
static int check_keys(const struct ssd_config *c, char *err, size_t errlen)
{
	if (c->gc_fg_target && (c->gc_fg_target <= c->gc_fg_blocks ||
				c->gc_fg_target > c->gc_bg_blocks)) {
		ssd_seterr(err, errlen, "key 'gc_fg_target' (%u): must be 0 or "
		       "above gc_fg_blocks (%u) and at most gc_bg_blocks (%u)",
		       c->gc_fg_target, c->gc_fg_blocks, c->gc_bg_blocks);
		return SSD_EINVAL;
	}
	if (c->gc_bg_blocks < c->gc_fg_blocks) {
		ssd_seterr(err, errlen, "keys 'gc_bg_blocks' (%u) and 'gc_fg_blocks' (%u): "
		       "gc_bg_blocks must be at least gc_fg_blocks (accepted: "
		       "gc_bg_blocks %u or more, or gc_fg_blocks %u or less)",
		       c->gc_bg_blocks, c->gc_fg_blocks, c->gc_fg_blocks,
		       c->gc_bg_blocks);
		return SSD_EINVAL;
	}
	if (c->slc_cache != SSD_SLC_NONE && c->cell == SSD_CELL_SLC) {
		ssd_seterr(err, errlen, "key 'slc_cache': %s with cell = slc: SLC "
		       "cells have no faster mode to cache in (accepted: "
		       "slc_cache = none, or cell = mlc, tlc or qlc)",
		       ssd_slc_mode_name(c->slc_cache));
		return SSD_EINVAL;
	}
	uint64_t pe = c->pe_cycles ? c->pe_cycles
		    : c->cell >= 0 && c->cell < NCELLS ? cell_info[c->cell].pe_cycles : 0;
	if (c->slc_pe_cycles > 1000 * pe) {
		ssd_seterr(err, errlen, "key 'slc_pe_cycles': %u is more than 1000 x "
		       "pe_cycles (%llu): wear is counted in 1/1000 cycles, so an "
		       "SLC-mode erase would cost nothing (accepted: 0..%llu)",
		       c->slc_pe_cycles, (unsigned long long)pe,
		       (unsigned long long)(1000 * pe));
		return SSD_ERANGE;
	}
	if (c->hdd_seek_track > c->hdd_seek_avg ||
	    c->hdd_seek_avg > c->hdd_seek_full) {
		char a[24], b[24], d[24];
		ssd_seterr(err, errlen, "keys 'hdd_seek_track' (%s), 'hdd_seek_avg' "
		       "(%s) and 'hdd_seek_full' (%s): a longer seek cannot take "
		       "less time (accepted: track <= avg <= full)",
		       fmt_time(c->hdd_seek_track, a, sizeof a),
		       fmt_time(c->hdd_seek_avg, b, sizeof b),
		       fmt_time(c->hdd_seek_full, d, sizeof d));
		return SSD_EINVAL;
	}
	if (c->hdd_mbps_inner > c->hdd_mbps_outer) {
		ssd_seterr(err, errlen, "keys 'hdd_mbps_inner' (%u) and "
		       "'hdd_mbps_outer' (%u): the inner tracks are the shorter, "
		       "so the slower (accepted: hdd_mbps_inner <= hdd_mbps_outer)",
		       c->hdd_mbps_inner, c->hdd_mbps_outer);
		return SSD_EINVAL;
	}
	if (c->hdd_read_ahead > c->hdd_cache) {
		char a[24], b[24];
		ssd_seterr(err, errlen, "key 'hdd_read_ahead': %s is more than the "
		       "buffer it goes into, hdd_cache = %s (accepted: 0..%s)",
		       ssd_fmt_bytes(c->hdd_read_ahead, a, sizeof a),
		       ssd_fmt_bytes(c->hdd_cache, b, sizeof b), b);
		return SSD_ERANGE;
	}
	if (c->page_cache_dirty_bg_ratio > c->page_cache_dirty_ratio) {
		ssd_seterr(err, errlen, "key 'page_cache_dirty_bg_ratio': %g is "
		       "above page_cache_dirty_ratio (%g): background write-back "
		       "must start before writers wait (accepted: 0..%g)",
		       c->page_cache_dirty_bg_ratio, c->page_cache_dirty_ratio,
		       c->page_cache_dirty_ratio);
		return SSD_ERANGE;
	}
	if (c->mft_write % c->mft_block || c->mft_write > c->mft_buffer) {
		char a[24], b[24], d[24];
		ssd_seterr(err, errlen, "key 'mft_write': %s must be a multiple of "
		       "mft_block (%s) and at most mft_buffer (%s)",
		       ssd_fmt_bytes(c->mft_write, a, sizeof a),
		       ssd_fmt_bytes(c->mft_block, b, sizeof b),
		       ssd_fmt_bytes(c->mft_buffer, d, sizeof d));
		return SSD_ERANGE;
	}
	if (c->slc_cache != SSD_SLC_NONE && !c->slc_cache_size) {
		ssd_seterr(err, errlen, "key 'slc_cache_size': 0 with slc_cache = %s: "
		       "the cache would hold nothing (accepted: a size of 4k or "
		       "more, or slc_cache = none)", ssd_slc_mode_name(c->slc_cache));
		return SSD_EINVAL;
	}
	return 0;
}

/* The rules of a block-mapped or log-block scheme (mapping != page):
 * the features it refuses, and the spare rows it needs.  A row (a block
 * on every allocation unit) is the scheme's block; the user data fills
 * f->data rows, and beyond them a merge needs one row to build into and
 * one kept for the next (the log schemes' logs come on top: fast keeps
 * one more, its sequential log). */
static int check_mapping(const struct ssd_config *c, const struct fit *f,
			 char *err, size_t errlen)
{
	if (c->mapping == SSD_MAP_PAGE)
		return 0;
	const char *m = ssd_mapping_name(c->mapping), *what = NULL;
	if (c->slc_cache != SSD_SLC_NONE)
		what = "slc_cache";
	else if (c->map_cache)
		what = "map_cache";
	else if (c->trim_mode != SSD_TRIM_IMMEDIATE)
		what = "trim_mode";
	if (what) {
		ssd_seterr(err, errlen, "key '%s': mapping = %s does not model it "
		       "(an SLC cache, a partial map and queued TRIM are "
		       "page-mapped features; accepted: slc_cache = none, "
		       "map_cache = 0, trim_mode = immediate, or mapping = page)",
		       what, m);
		return SSD_EINVAL;
	}
	uint64_t spare = f->bpp - f->data;
	uint64_t fixed = c->mapping == SSD_MAP_FAST ? 3 : 2;
	uint64_t need = fixed + (c->mapping == SSD_MAP_BLOCK ? 0
				 : c->log_blocks ? c->log_blocks : 1);
	if (spare < need) {
		ssd_seterr(err, errlen, "key '%s': mapping = %s needs %llu spare "
		       "rows (blocks across every allocation unit) beyond the "
		       "%llu the data fills, and op gives %llu (accepted: %s, or "
		       "a larger op)", c->mapping == SSD_MAP_BLOCK || !c->log_blocks
		       ? "op" : "log_blocks", m, (unsigned long long)need,
		       (unsigned long long)f->data, (unsigned long long)spare,
		       c->mapping == SSD_MAP_BLOCK || spare <= fixed
		       ? "mapping = page" : "a smaller log_blocks");
		return SSD_EINVAL;
	}
	return 0;
}

static int finish(struct ssd_config *c, int may_adapt, char *err, size_t errlen)
{
	int rc = check_ranges(c, err, errlen);
	if (!rc)
		rc = check_keys(c, err, errlen);
	if (rc)
		return rc;
	if (c->type == SSD_TYPE_HDD) {
		/* a hard disk: no flash to fit (its keys keep their values,
		 * unused) */
		c->blocks_per_plane = 0;
		return 0;
	}
	struct fit f;
	int why = fit(c, &f);
	if (why && may_adapt && (c->overridden & key_bit("capacity"))) {
		struct ssd_config floor;
		why = adapt(c, &floor);
		if (why)
			return explain(&floor, why, 1, err, errlen);
		fit(c, &f);
	} else if (why) {
		return explain(c, why, 0, err, errlen);
	}
	c->blocks_per_plane = (uint32_t)f.bpp;
	rc = check_mapping(c, &f, err, errlen);
	if (rc)
		return rc;

	/* Timings and endurance left at 0 take the cell type's values. */
	const struct cell_info *ci = &cell_info[c->cell];
	if (!c->t_read)
		c->t_read = ci->t_read;
	if (!c->t_prog)
		c->t_prog = ci->t_prog;
	if (!c->t_erase)
		c->t_erase = ci->t_erase;
	if (!c->pe_cycles)
		c->pe_cycles = ci->pe_cycles;
	if (!c->slc_pe_cycles)
		c->slc_pe_cycles = c->pe_cycles * 10;
	if (c->t_read_spread < 0)
		c->t_read_spread = ci->read_spread;
	if (c->t_prog_spread < 0)
		c->t_prog_spread = ci->prog_spread;
	return 0;
}

uint64_t ssd_config_raid_capacity(const struct ssd_config *c)
{
	if (c->raid != SSD_RAID_0)
		return c->capacity;
	return c->capacity / c->raid_stripe * c->raid_stripe * c->raid_members;
}

uint64_t ssd_config_volume(const struct ssd_config *c)
{
	uint64_t v = ssd_config_raid_capacity(c);
	if (c->mft)
		v = ssd_config_mft_capacity(c, v);
	return v;
}

uint64_t ssd_config_mft_capacity(const struct ssd_config *c, uint64_t lower)
{
	uint64_t keep = (uint64_t)((double)lower * (1 - c->mft_reserve));
	return keep / c->mft_block * c->mft_block;
}

int ssd_config_is_machine(const struct ssd_config *c)
{
	return c->type != SSD_TYPE_SSD || c->page_cache || c->mft ||
	       c->raid != SSD_RAID_NONE;
}

int ssd_config_has_trim(const struct ssd_config *c)
{
	return c->type == SSD_TYPE_SSD && c->trim;
}

int ssd_config_finish(struct ssd_config *c, char *err, size_t errlen)
{
	return finish(c, 0, err, errlen);
}

int ssd_config_fit(struct ssd_config *c, char *err, size_t errlen)
{
	return finish(c, 1, err, errlen);
}

const char *ssd_config_description(const struct ssd_config *c, char *buf,
				   size_t n)
{
	char changed[256] = "", adapted[256] = "", note[300];
	ssd_keymask descr = 0;
	for (int i = 0; i < NOPTS; i++)
		if (options[i].flags & F_DESCR)
			descr |= (ssd_keymask)1 << i;
	ssd_keymask ch = c->overridden & descr & ~c->adapted;
	if (c->overridden & key_bit("description"))
		ch = 0; /* the user described this drive */
	adapted_list(c, ch, changed, sizeof changed);
	adapted_list(c, c->adapted, adapted, sizeof adapted);
	snprintf(note, sizeof note, "%s%s%s%s%s", *changed ? "changed: " : "",
		 changed, *changed && *adapted ? "; " : "",
		 *adapted ? "adapted to fit: " : "", adapted);
	if (n > sizeof c->description)
		n = sizeof c->description;
	size_t dl = strlen(c->description), nl = strlen(note);
	int room = (int)n - 1;
	if (!nl) {
		snprintf(buf, n, "%.*s", room, c->description);
	} else if (!dl) {
		snprintf(buf, n, "[%.*s]", room - 2, note);
	} else if (dl + nl + 3 <= (size_t)room) {
		snprintf(buf, n, "%.*s [%.*s]", (int)dl, c->description, (int)nl,
			 note);
	} else {
		/* shorten the preset's text, keep the note whole if it can be */
		int keep = room - (int)nl - 6;
		if (keep < 0)
			keep = 0;
		snprintf(buf, n, "%.*s... [%.*s]", keep, c->description,
			 room - keep - 6, note);
	}
	return buf;
}

/* ---- read access for config_print.c (config_int.h) ---- */

const struct opt *ssd_cfg_row(int i)
{
	return i >= 0 && i < NOPTS ? &options[i] : NULL;
}

const struct cell_info *ssd_cfg_cell(int cell)
{
	return cell >= 0 && cell < NCELLS ? &cell_info[cell] : NULL;
}

uint64_t ssd_cfg_uint(const struct ssd_config *c, const struct opt *o)
{
	return get_uint(c, o);
}

int ssd_cfg_int(const struct ssd_config *c, const struct opt *o)
{
	return get_int(c, o);
}

double ssd_cfg_double(const struct ssd_config *c, const struct opt *o)
{
	return get_double(c, o);
}

char *ssd_cfg_text(const struct ssd_config *c, const struct opt *o,
		   char *buf, size_t n)
{
	return fmt_value(c, o, buf, n);
}

char *ssd_cfg_range(const struct opt *o, char *buf, size_t n)
{
	return accepted(o, 0, buf, n);
}

char *ssd_cfg_fmt_time(int64_t ns, char *buf, size_t n)
{
	return fmt_time(ns, buf, n);
}

char *ssd_cfg_fmt_double(double v, char *buf, size_t n)
{
	return fmt_double(v, buf, n);
}

int ssd_cfg_needs_quotes(const char *s)
{
	return needs_quotes(s);
}
