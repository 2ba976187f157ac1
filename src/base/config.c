/*
 * config.c -- the drive's option table as data, and reading and
 * writing one row's field.
 *
 * One static table, `options[]`, lists every key of a drive: its name,
 * type, offset into struct ssd_config, default (written as it would be in
 * a drive file), range, unit and a one-sentence meaning.  The same rows
 * drive ssd_config_defaults() (each default is parsed like a file value)
 * and ssd_config_set() in config_parse.c, the range checks of
 * ssd_config_finish() in config_finish.c, and in config_print.c
 * ssd_config_print() (`ssdlab drive show`), ssd_config_print_doc()
 * (docs/options.md) and ssd_config_json().  Adding a key is one field in
 * config.h and one row here.  The other files reach the rows through
 * config_int.h: by index or name, a row's bit in the overridden/adapted
 * masks, its field's value, and its value and accepted values as text.
 *
 * Types and their units.  A size is bytes with optional k/m/g/t/p suffix
 * (powers of 1024); a time is integer simulated ns, written with a suffix
 * ns/us/ms/s (a bare number is microseconds, the natural unit of NAND
 * timing); a fraction is a double, written "0.07" or "7%"; an enum is one
 * of a fixed list of lower-case names; a bool is 1/0, yes/no, true/false,
 * on/off.
 *
 * Cell defaults.  t_read, t_prog, t_erase and pe_cycles left at 0, and
 * t_read_spread and t_prog_spread left at "cell" (stored as -1), take the
 * cell type's typical datasheet-class values from cell_info[] when the
 * config is finished (config_finish.c).
 */
#include "base/config_int.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
					    "zone", NULL};
static const char *const zfinish_names[] = {"pad", "mark", NULL};
static const char *const fdp_iso_names[] = {"initial", "persistent", NULL};
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
	return mapping >= 0 && mapping <= SSD_MAP_ZONE ? mapping_names[mapping] : "?";
}

const char *ssd_zone_finish_name(int mode)
{
	return mode >= 0 && mode <= SSD_ZFINISH_MARK ? zfinish_names[mode] : "?";
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
	 .flags = F_ANY | F_MUL4K | F_DESCR | F_FLASHFIT, .unit = "bytes",
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
		 "sequential runs: Lee et al. 2007); zone (a zoned drive, NVMe "
		 "ZNS: the host writes each zone sequentially and resets it, "
		 "each zone has blocks of its own, and there is no garbage "
		 "collection; docs/zoned.md)."},
	{"log_blocks", T_U32, FIELD(log_blocks), "0", 0, 1u << 20,
	 .flags = F_DESCR, .unit = "rows",
	 .help = "bast, fast: log blocks (rows of one block per allocation "
		 "unit) that take overwrites before a merge; fast keeps one "
		 "more for sequential runs (0 = every spare row but the two "
		 "merges need)."},
	{"zone_size", T_SIZE, FIELD(zone_size), "0", 0, 16 * TIB,
	 .flags = F_DESCR, .unit = "bytes",
	 .help = "mapping = zone: the zone size (ZSZE), a power of two at "
		 "least zone_capacity (0 = the smallest power of two holding "
		 "zone_capacity)."},
	{"zone_capacity", T_SIZE, FIELD(zone_capacity), "0", 0, 16 * TIB,
	 .flags = F_DESCR | F_MUL4K, .unit = "bytes",
	 .help = "mapping = zone: the bytes of a zone the host may write "
		 "(ZCAP), from its start (0 = one block on each of its "
		 "zone_units)."},
	{"zone_units", T_U32, FIELD(zone_units), "0", 0, 1u << 20,
	 .flags = F_DESCR, .unit = "allocation units",
	 .help = "mapping = zone: the allocation units (dies, or planes "
		 "without multiplane) a zone is striped over, a divisor of the "
		 "units; zones go round the groups of units in turn (0 = "
		 "every unit: each zone has the drive's whole parallelism)."},
	{"max_open_zones", T_U32, FIELD(max_open_zones), "0", 0, 1u << 20,
	 .flags = F_DESCR, .unit = "zones",
	 .help = "mapping = zone: zones open (implicitly or explicitly) at "
		 "once at most, MOR + 1 (0 = no limit)."},
	{"max_active_zones", T_U32, FIELD(max_active_zones), "0", 0, 1u << 20,
	 .flags = F_DESCR, .unit = "zones",
	 .help = "mapping = zone: zones active (open or closed) at once at "
		 "most, MAR + 1 (0 = no limit); at least max_open_zones."},
	{"zone_finish", T_ENUM, FIELD(zone_finish), "pad", .values = zfinish_names,
	 .unit = "mode",
	 .help = "mapping = zone: what Zone Finish does with the rest of the "
		 "zone: pad (program it with filler, counted as the drive's "
		 "own writes) or mark (leave its blocks part-programmed until "
		 "the reset)."},
	{"zone_append_max", T_SIZE, FIELD(zone_append_max), "0", 0, 16 * TIB,
	 .flags = F_MUL4K, .unit = "bytes",
	 .help = "mapping = zone: the largest Zone Append (ZASL; 0 = no "
		 "limit but the zone capacity)."},
	{"zrwa_size", T_SIZE, FIELD(zrwa_size), "0", 0, 16 * TIB,
	 .flags = F_DESCR | F_MUL4K, .unit = "bytes",
	 .help = "mapping = zone: the zone random write area (ZRWASZ) an Open "
		 "may allocate to an empty zone: the host then writes anywhere "
		 "in twice its size past the write pointer, overwrites held "
		 "in the controller's DRAM until a flush commits them (0 = "
		 "none; docs/zoned.md)."},
	{"zrwa_flush", T_SIZE, FIELD(zrwa_flush), "0", 0, 16 * TIB,
	 .flags = F_MUL4K, .unit = "bytes",
	 .help = "mapping = zone: the ZRWA's flush granularity (ZRWAFG), a "
		 "divisor of zrwa_size (0 = a NAND page, or multi-plane "
		 "page)."},
	{"zrwa_zones", T_U32, FIELD(zrwa_zones), "0", 0, 1u << 20,
	 .unit = "zones",
	 .help = "mapping = zone: the random write areas there are to "
		 "allocate (NUMZRWA; 0 = max_active_zones, or one per zone "
		 "without an active limit)."},
	{"fdp", T_BOOL, FIELD(fdp), "no", .flags = F_DESCR, .unit = "bool",
	 .help = "Flexible data placement (NVMe FDP; docs/fdp.md): writes "
		 "carry a placement handle, and each handle's data goes into "
		 "reclaim units (blocks) of its own; a write without one goes "
		 "to handle 0."},
	{"fdp_handles", T_U32, FIELD(fdp_handles), "8", 1, 128,
	 .flags = F_DESCR, .unit = "handles",
	 .help = "fdp: reclaim unit handles, each a write point in every "
		 "allocation unit."},
	{"fdp_groups", T_U32, FIELD(fdp_groups), "1", 1, 256,
	 .flags = F_DESCR, .unit = "groups",
	 .help = "fdp: reclaim groups: the allocation units divided into "
		 "this many sets, a placement identifier naming a group and "
		 "a handle (must divide the units)."},
	{"fdp_isolation", T_ENUM, FIELD(fdp_isolation), "initial",
	 .values = fdp_iso_names, .flags = F_DESCR, .unit = "type",
	 .help = "fdp: the handles' type: initial (initially isolated: "
		 "garbage collection moves every handle's data into one write "
		 "point, mixing them) or persistent (persistently isolated: "
		 "each handle's data moves into the handle's own)."},
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

/* ---- rows ---- */

const struct opt *ssd_cfg_row(int i)
{
	return i >= 0 && i < NOPTS ? &options[i] : NULL;
}

const struct opt *ssd_cfg_find(const char *name)
{
	for (int i = 0; i < NOPTS; i++)
		if (!strcmp(options[i].name, name))
			return &options[i];
	return NULL;
}

ssd_keymask ssd_cfg_bit(const struct opt *o)
{
	return (ssd_keymask)1 << (o - options);
}

ssd_keymask ssd_cfg_key_bit(const char *name)
{
	const struct opt *o = ssd_cfg_find(name);
	return o ? ssd_cfg_bit(o) : 0;
}

const struct cell_info *ssd_cfg_cell(int cell)
{
	return cell >= 0 && cell < NCELLS ? &cell_info[cell] : NULL;
}

/* ---- a row's field ---- */

uint64_t ssd_cfg_uint(const struct ssd_config *c, const struct opt *o)
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

void ssd_cfg_put_uint(struct ssd_config *c, const struct opt *o, uint64_t v)
{
	char *p = (char *)c + o->off;
	if (o->size == sizeof(uint32_t)) {
		uint32_t w = (uint32_t)v;
		memcpy(p, &w, sizeof w);
	} else {
		memcpy(p, &v, sizeof v);
	}
}

int ssd_cfg_int(const struct ssd_config *c, const struct opt *o)
{
	int v;
	memcpy(&v, (const char *)c + o->off, sizeof v);
	return v;
}

double ssd_cfg_double(const struct ssd_config *c, const struct opt *o)
{
	double v;
	memcpy(&v, (const char *)c + o->off, sizeof v);
	return v;
}

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

const char *ssd_cfg_check_uint(const struct opt *o, uint64_t u)
{
	if (u < o->min || u > o->max)
		return "is out of range";
	if ((o->flags & F_MUL4K) && u % SSD_LPAGE)
		return "is not a multiple of 4k";
	if ((o->flags & F_POW2) && !is_pow2(u))
		return "is not a power of two";
	return NULL;
}

/* ---- values as text ---- */

/* "32g", "16k", or plain bytes when no suffix is exact. */
char *ssd_cfg_fmt_size(uint64_t v, char *buf, size_t n)
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
char *ssd_cfg_fmt_time(int64_t ns, char *buf, size_t n)
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
char *ssd_cfg_fmt_double(double v, char *buf, size_t n)
{
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, n, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

/* The accepted values of an option, for messages (with a hint on the
 * syntax when `hint`) and the doc's range column. */
char *ssd_cfg_accepted(const struct opt *o, int hint, char *b, size_t n)
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
							ssd_cfg_fmt_size(v, lo, sizeof lo));
			}
			break;
		}
		/* the table's bounds; a capacity also has to leave the FTL
		 * its reserve and keep the flash (capacity*(1+op)) within
		 * what 32-bit page maps address: config_finish.c's fit() */
		snprintf(b, n, "%s..%s%s%s%s", ssd_cfg_fmt_size(o->min, lo, sizeof lo),
			 ssd_cfg_fmt_size(o->max, hi, sizeof hi),
			 o->flags & F_MUL4K ? ", a multiple of 4k" : "",
			 o->flags & F_FLASHFIT ? "; on flash, at least what the "
			 "FTL's reserve needs on this drive, and capacity*(1+op) "
			 "at most 16t" : "",
			 hint ? "; suffixes k, m, g, t" : "");
		break;
	case T_U32:
		snprintf(b, n, "%llu..%llu", (unsigned long long)o->min,
			 (unsigned long long)o->max);
		break;
	case T_FRACTION:
		snprintf(b, n, "%s..%s%s%s", ssd_cfg_fmt_double(o->fmin, lo, sizeof lo),
			 ssd_cfg_fmt_double(o->fmax, hi, sizeof hi),
			 o->flags & F_CELLDEF ? ", or cell" : "",
			 hint ? ", e.g. 0.07 or 7%" : "");
		break;
	case T_TIME:
		snprintf(b, n, "%s..%s%s", ssd_cfg_fmt_time((int64_t)o->min, lo, sizeof lo),
			 ssd_cfg_fmt_time((int64_t)o->max, hi, sizeof hi),
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
char *ssd_cfg_text(const struct ssd_config *c, const struct opt *o,
		   char *buf, size_t n)
{
	switch (o->type) {
	case T_STRING:
		snprintf(buf, n, "%s", (const char *)c + o->off);
		break;
	case T_SIZE:
		ssd_cfg_fmt_size(ssd_cfg_uint(c, o), buf, n);
		break;
	case T_U32:
		snprintf(buf, n, "%llu", (unsigned long long)ssd_cfg_uint(c, o));
		break;
	case T_TIME:
		ssd_cfg_fmt_time((int64_t)ssd_cfg_uint(c, o), buf, n);
		break;
	case T_FRACTION:
		if ((o->flags & F_CELLDEF) && ssd_cfg_double(c, o) < 0)
			snprintf(buf, n, "cell");
		else
			ssd_cfg_fmt_double(ssd_cfg_double(c, o), buf, n);
		break;
	case T_ENUM: {
		int v = ssd_cfg_int(c, o), nv;
		for (nv = 0; o->values[nv]; nv++)
			;
		if (v >= 0 && v < nv)
			snprintf(buf, n, "%s", o->values[v]);
		else
			snprintf(buf, n, "%d", v);
		break;
	}
	case T_BOOL:
		snprintf(buf, n, "%s", ssd_cfg_int(c, o) ? "yes" : "no");
		break;
	}
	return buf;
}
