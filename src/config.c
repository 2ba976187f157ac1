/*
 * config.c -- the drive's option table and everything it drives.
 *
 * One static table, `options[]`, lists every key of a drive: its name,
 * type, offset into struct ssd_config, default (written as it would be in
 * a drive file), range, unit and a one-sentence meaning.  The same rows
 * drive ssd_config_defaults() (each default is parsed like a file value),
 * ssd_config_set() (drive files and --set), the range checks of
 * ssd_config_finish(), ssd_config_print() (`ssdlab drive show`),
 * ssd_config_print_doc() (docs/options.md) and ssd_config_json().  Adding
 * a key is one field in config.h and one row here.
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
 * that the FTL can work in it: each allocation unit keeps gc_fg_blocks
 * free blocks plus two open blocks (host and GC write points), and the
 * rest must hold the user capacity.
 *
 * Cell defaults.  t_read, t_prog, t_erase and pe_cycles left at 0, and
 * t_read_spread and t_prog_spread left at "cell" (stored as -1), take the
 * cell type's typical datasheet-class values from cell_info[] when the
 * config is finished.
 */
#include "config.h"

#include <ctype.h>
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
static const struct cell_info {
	const char *name;
	int64_t t_read, t_prog, t_erase; /* ns */
	uint32_t pe_cycles;
	double read_spread, prog_spread; /* LSB..MSB, fraction of the mean */
} cell_info[] = {
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

const char *ssd_trim_mode_name(int mode)
{
	return mode >= 0 && mode <= SSD_TRIM_DEFERRED ? trim_names[mode] : NULL;
}

const char *ssd_slc_mode_name(int mode)
{
	return mode >= 0 && mode <= SSD_SLC_DYNAMIC ? slc_names[mode] : NULL;
}

/* ---- the option table ---- */

enum opt_type { T_STRING, T_SIZE, T_U32, T_FRACTION, T_TIME, T_ENUM, T_BOOL };

static const char *const type_names[] = {
	[T_STRING] = "string", [T_SIZE] = "size", [T_U32] = "integer",
	[T_FRACTION] = "fraction", [T_TIME] = "time", [T_ENUM] = "enum",
	[T_BOOL] = "bool",
};

#define F_DERIVED 1u /* computed by ssd_config_finish(); cannot be set */
#define F_MUL4K 2u   /* a multiple of SSD_LPAGE */
#define F_POW2 4u    /* a power of two */
#define F_CELLDEF 8u /* 0 (a fraction: "cell", stored as -1) means the
                        cell type's default */

struct opt {
	const char *name;
	enum opt_type type;
	size_t off, size;          /* field in struct ssd_config */
	const char *def;           /* default, in drive-file syntax */
	uint64_t min, max;         /* size: bytes; time: ns; integer */
	double fmin, fmax;         /* fraction */
	const char *const *values; /* enum: names, NULL-terminated */
	unsigned flags;
	const char *unit;          /* unit, for the comment and the doc */
	const char *help;          /* what it means, one sentence */
};

#define FIELD(f) offsetof(struct ssd_config, f), sizeof(((struct ssd_config *)0)->f)
#define KIB 1024ull
#define MIB (1024ull * KIB)
#define TIB (1024ull * 1024 * MIB)

static const struct opt options[] = {
	{"name", T_STRING, FIELD(name), "default", .unit = "text",
	 .help = "Drive name shown in reports (default: the file name)."},
	{"description", T_STRING, FIELD(description),
	 "Modern TLC drive: 32 GiB user capacity, 7% spare, 4 channels",
	 .unit = "text", .help = "One line saying what the drive models."},
	{"capacity", T_SIZE, FIELD(capacity), "32g", MIB, 16 * TIB,
	 .flags = F_MUL4K, .unit = "bytes",
	 .help = "User capacity, what the host sees."},
	{"op", T_FRACTION, FIELD(op), "0.07", .fmin = 0, .fmax = 4,
	 .unit = "fraction of capacity",
	 .help = "Over-provisioning: spare flash beyond capacity (0.07 or 7%)."},
	{"page_size", T_SIZE, FIELD(page_size), "16k", 4 * KIB, 64 * KIB,
	 .flags = F_POW2, .unit = "bytes",
	 .help = "NAND page, the program and read unit."},
	{"pages_per_block", T_U32, FIELD(pages_per_block), "256", 16, 4096,
	 .unit = "pages", .help = "Pages in an erase block."},
	{"channels", T_U32, FIELD(channels), "4", 1, 64, .unit = "channels",
	 .help = "Independent channel buses between controller and NAND."},
	{"dies_per_channel", T_U32, FIELD(dies_per_channel), "2", 1, 64,
	 .unit = "dies", .help = "Dies sharing one channel bus."},
	{"planes_per_die", T_U32, FIELD(planes_per_die), "2", 1, 8,
	 .unit = "planes", .help = "Planes in a die, each with its own blocks."},
	{"blocks_per_plane", T_U32, FIELD(blocks_per_plane), NULL,
	 .flags = F_DERIVED, .unit = "blocks",
	 .help = "Erase blocks per plane, derived: the fewest that hold "
		 "capacity*(1+op)."},
	{"cell", T_ENUM, FIELD(cell), "tlc", .values = cell_names,
	 .unit = "cell type", .help = "Bits per cell; sets the default timings "
				      "and endurance."},
	{"t_read", T_TIME, FIELD(t_read), "0", 0, 1000 * SSD_MS,
	 .flags = F_CELLDEF, .unit = "time",
	 .help = "Page read time tR (0 = cell default)."},
	{"t_prog", T_TIME, FIELD(t_prog), "0", 0, 1000 * SSD_MS,
	 .flags = F_CELLDEF, .unit = "time",
	 .help = "Page program time tPROG (0 = cell default)."},
	{"t_erase", T_TIME, FIELD(t_erase), "0", 0, 1000 * SSD_MS,
	 .flags = F_CELLDEF, .unit = "time",
	 .help = "Block erase time tBERS (0 = cell default)."},
	{"pe_cycles", T_U32, FIELD(pe_cycles), "0", 0, 10000000,
	 .flags = F_CELLDEF, .unit = "cycles",
	 .help = "Rated program/erase cycles per block (0 = cell default)."},
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
	{"multiplane", T_BOOL, FIELD(multiplane), "yes", .unit = "bool",
	 .help = "The planes of a die read, program and erase in lockstep."},
	{"host_mbps", T_U32, FIELD(host_mbps), "3500", 0, 1000000,
	 .unit = "MB/s", .help = "Host link rate (0 = unlimited; PCIe 3.0 x4 "
				 "~3500, SATA 3 Gb/s ~300)."},
	{"cmd_overhead", T_TIME, FIELD(cmd_overhead), "2us", 0, 1000 * SSD_MS,
	 .unit = "time", .help = "Controller time per host command."},
	{"read_ahead", T_SIZE, FIELD(read_ahead), "0", 0, 64 * MIB,
	 .flags = F_MUL4K, .unit = "bytes",
	 .help = "Controller read-ahead: once a read starts where the previous "
		 "one ended, the controller reads this much past its end into "
		 "DRAM behind the host's own reads, and later reads of that range "
		 "come from DRAM (0 = off)."},
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
	 .unit = "mode",
	 .help = "SLC write cache: none; static (a fixed set of blocks in SLC "
		 "mode); dynamic (free blocks written in SLC mode, shrinking as "
		 "the drive fills)."},
	{"slc_cache_size", T_SIZE, FIELD(slc_cache_size), "0", 0, 16 * TIB,
	 .unit = "bytes",
	 .help = "Data the SLC cache holds: its fixed size (static) or its "
		 "largest (dynamic)."},
	{"slc_t_read", T_TIME, FIELD(slc_t_read), "30us", 1, 1000 * SSD_MS,
	 .unit = "time", .help = "Page read time of a block in SLC mode."},
	{"slc_t_prog", T_TIME, FIELD(slc_t_prog), "200us", 1, 1000 * SSD_MS,
	 .unit = "time", .help = "Page program time of a block in SLC mode."},
	{"slc_pe_cycles", T_U32, FIELD(slc_pe_cycles), "0", 0, 10000000,
	 .unit = "cycles",
	 .help = "Endurance of a block used in SLC mode: an SLC-mode erase "
		 "wears it pe_cycles/slc_pe_cycles of a cycle (0 = 10 x "
		 "pe_cycles)."},
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
	 .unit = "bytes",
	 .help = "DRAM write-back buffer: writes complete once buffered and "
		 "drain to NAND behind (0 = none, only the dies' registers)."},
	{"map_cache", T_SIZE, FIELD(map_cache), "0", 0, 64ull * 1024 * MIB,
	 .unit = "bytes",
	 .help = "Cached part of the logical-to-physical map for DRAM-less "
		 "controllers: a miss reads a map page from NAND, dirty map "
		 "pages are written back (0 = the whole map in DRAM)."},
};
#define NOPTS ((int)(sizeof options / sizeof options[0]))

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
}

int ssd_config_set(struct ssd_config *c, const char *key, const char *value,
		   const char *where, char *err, size_t errlen)
{
	char kbuf[64], q[48];
	if (!where)
		where = "--set";
	snprintf(kbuf, sizeof kbuf, "%s", key);
	char *k = ssd_strtrim(kbuf);
	const struct opt *o = strlen(key) < sizeof kbuf ? find_opt(k) : NULL;
	if (!o) {
		const char *best = NULL;
		int bestd = 3;
		for (int i = 0; i < NOPTS; i++) {
			int d = ssd_edit_distance(k, options[i].name);
			if (d < bestd) {
				bestd = d;
				best = options[i].name;
			}
		}
		if (best)
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
	char *v = ssd_xstrdup(value);
	int rc = set_value(c, o, ssd_strtrim(v), where, err, errlen);
	free(v);
	return rc;
}

/* ---- drive files ---- */

/* Cut a comment: '#' or ';' at the start or after white space. */
static void strip_comment(char *s)
{
	for (char *p = s; *p; p++) {
		if ((*p == '#' || *p == ';') &&
		    (p == s || *(p - 1) == ' ' || *(p - 1) == '\t')) {
			*p = 0;
			return;
		}
	}
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

int ssd_config_load(struct ssd_config *c, const char *path, char *err,
		    size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		ssd_seterr(err, errlen, "cannot open drive file '%s': %s", path,
		       strerror(errno));
		return SSD_EIO;
	}
	size_t wlen = strlen(path) + 24;
	char *where = ssd_xcalloc(1, wlen);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int lineno = 0, rc = 0, named = 0, described = 0;
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
		strip_comment(s);
		s = ssd_strtrim(s);
		if (!*s)
			continue;
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
		char *eq = strchr(s, '=');
		if (eq)
			*eq = 0;
		char *key = ssd_strtrim(s);
		if (!eq || !*key) {
			ssd_seterr(err, errlen, "%s: expected 'key = value'", where);
			rc = SSD_EPARSE;
			break;
		}
		rc = ssd_config_set(c, key, ssd_strtrim(eq + 1), where, err, errlen);
		if (rc)
			break;
		named |= !strcmp(key, "name");
		described |= !strcmp(key, "description");
	}
	if (!rc && ferror(f)) {
		ssd_seterr(err, errlen, "cannot read drive file '%s': %s", path,
		       strerror(errno));
		rc = SSD_EIO;
	}
	free(line);
	free(where);
	fclose(f);
	if (!rc && !named)
		file_stem(path, c->name, sizeof c->name);
	if (!rc && !described)
		c->description[0] = 0; /* the defaults' text is not about this file */
	return rc;
}

int ssd_config_open(struct ssd_config *c, const char *name_or_path,
		    const char *preset_dir, char *err, size_t errlen)
{
	const char *name = name_or_path;
	size_t len = strlen(name);
	ssd_config_defaults(c);
	if (strchr(name, '/') || (len >= 4 && !strcmp(name + len - 4, ".ini")))
		return ssd_config_load(c, name, err, errlen);
	const char *dir = preset_dir && *preset_dir ? preset_dir : SSDLAB_PRESET_DIR;
	size_t plen = strlen(dir) + len + 8;
	char *path = ssd_xcalloc(1, plen);
	snprintf(path, plen, "%s/%s.ini", dir, name);
	int rc;
	if (!*name || access(path, F_OK)) {
		char q[48];
		ssd_seterr(err, errlen, "unknown drive '%s' (see `ssdlab drives` for the "
		       "presets, or give a path to a .ini file)",
		       quote(name, q, sizeof q));
		rc = SSD_ENOENT;
	} else {
		rc = ssd_config_load(c, path, err, errlen);
	}
	free(path);
	return rc;
}

/* ---- finishing: ranges, derived geometry, cell defaults ---- */

uint32_t ssd_config_dies(const struct ssd_config *c)
{
	return c->channels * c->dies_per_channel;
}

/* Bytes in one block of every plane of the drive. */
static uint64_t row_bytes(const struct ssd_config *c)
{
	return (uint64_t)c->page_size * c->pages_per_block * c->channels *
	       c->dies_per_channel * c->planes_per_die;
}

uint64_t ssd_config_physical_bytes(const struct ssd_config *c)
{
	return row_bytes(c) * c->blocks_per_plane;
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
	if (c->slc_cache != SSD_SLC_STATIC || c->cell == SSD_CELL_SLC)
		return 0;
	uint64_t row_slc = (uint64_t)(c->pages_per_block / ssd_cell_bits(c->cell)) *
			   c->page_size * c->channels * c->dies_per_channel *
			   c->planes_per_die;
	return row_slc ? (uint32_t)((c->slc_cache_size + row_slc - 1) / row_slc) : 0;
}

double ssd_config_min_op(const struct ssd_config *c)
{
	uint64_t row = row_bytes(c);
	if (!row || !c->capacity)
		return 0;
	uint64_t bpp = (c->capacity + row - 1) / row + c->gc_fg_blocks + 2 +
		       ssd_config_slc_blocks(c);
	if (bpp < (uint64_t)c->gc_bg_blocks + 4)
		bpp = (uint64_t)c->gc_bg_blocks + 4;
	return ((double)(bpp * row) - (double)c->capacity) / (double)c->capacity;
}

int ssd_config_finish(struct ssd_config *c, char *err, size_t errlen)
{
	char a[48], b[48];
	int rc = check_ranges(c, err, errlen);
	if (rc)
		return rc;
	if (c->gc_fg_target && (c->gc_fg_target <= c->gc_fg_blocks ||
				c->gc_fg_target > c->gc_bg_blocks)) {
		ssd_seterr(err, errlen, "key 'gc_fg_target' (%u): must be 0 or "
		       "above gc_fg_blocks (%u) and at most gc_bg_blocks (%u)",
		       c->gc_fg_target, c->gc_fg_blocks, c->gc_bg_blocks);
		return SSD_EINVAL;
	}
	if (c->gc_bg_blocks < c->gc_fg_blocks) {
		ssd_seterr(err, errlen, "keys 'gc_bg_blocks' (%u) and 'gc_fg_blocks' (%u): "
		       "gc_bg_blocks must be at least gc_fg_blocks",
		       c->gc_bg_blocks, c->gc_fg_blocks);
		return SSD_EINVAL;
	}

	/* Geometry: the fewest blocks per plane that hold capacity*(1+op).
	 * The spare is rounded to whole bytes first, so that an op written
	 * in decimal does not add a block through binary rounding. */
	uint64_t row = row_bytes(c);
	uint64_t spare = (uint64_t)llround((double)c->capacity * c->op);
	uint64_t need = c->capacity + spare;
	uint64_t bpp = (need + row - 1) / row;
	if (bpp > UINT32_MAX) {
		ssd_seterr(err, errlen, "keys 'capacity' and 'op': need %llu blocks per "
		       "plane, more than a 32-bit count; raise pages_per_block, "
		       "page_size or the die count", (unsigned long long)bpp);
		return SSD_ERANGE;
	}
	c->blocks_per_plane = (uint32_t)bpp;
	uint64_t phys = ssd_config_physical_bytes(c);

	/* The FTL numbers physical 4 KiB slots with 32 bits (one value is
	 * kept for "unmapped"). */
	if (phys / SSD_LPAGE >= UINT32_MAX) {
		ssd_seterr(err, errlen, "keys 'capacity' and 'op': physical size %s "
		       "exceeds the 16 TiB that 32-bit page maps address; lower "
		       "capacity or op", ssd_fmt_bytes(phys, a, sizeof a));
		return SSD_ERANGE;
	}
	if (bpp < (uint64_t)c->gc_bg_blocks + 4) {
		ssd_seterr(err, errlen, "derived blocks_per_plane %llu is below "
		       "gc_bg_blocks + 4 = %u: raise capacity or op, or lower "
		       "page_size, pages_per_block, channels, dies_per_channel, "
		       "planes_per_die or gc_bg_blocks",
		       (unsigned long long)bpp, c->gc_bg_blocks + 4);
		return SSD_ERANGE;
	}
	/* Each allocation unit keeps gc_fg_blocks free blocks and two open
	 * ones (host and GC write points), and a static SLC cache its own
	 * blocks; the rest must hold the data. */
	uint64_t reserve = (uint64_t)c->gc_fg_blocks + 2 + ssd_config_slc_blocks(c);
	uint64_t usable = bpp > reserve ? (bpp - reserve) * row : 0;
	if (usable < c->capacity) {
		ssd_seterr(err, errlen, "capacity %s above usable physical %s (%llu blocks "
		       "per plane minus the FTL reserve of gc_fg_blocks + 2 and the "
		       "static SLC cache's blocks = %llu): raise op, or lower "
		       "gc_fg_blocks, slc_cache_size, pages_per_block or page_size",
		       ssd_fmt_bytes(c->capacity, a, sizeof a),
		       ssd_fmt_bytes(usable, b, sizeof b), (unsigned long long)bpp,
		       (unsigned long long)reserve);
		return SSD_ERANGE;
	}

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

/* ---- output ---- */

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

/* The cell type's default for a numeric F_CELLDEF option. */
static uint64_t cell_default(const struct opt *o, int cell)
{
	const struct cell_info *ci = &cell_info[cell];
	if (!strcmp(o->name, "t_read"))
		return (uint64_t)ci->t_read;
	if (!strcmp(o->name, "t_prog"))
		return (uint64_t)ci->t_prog;
	if (!strcmp(o->name, "t_erase"))
		return (uint64_t)ci->t_erase;
	return ci->pe_cycles;
}

/* 1 if option o (F_CELLDEF) holds the cell type's default. */
static int is_cell_default(const struct ssd_config *c, const struct opt *o)
{
	const struct cell_info *ci = &cell_info[c->cell];
	if (o->type == T_FRACTION)
		return get_double(c, o) ==
		       (!strcmp(o->name, "t_read_spread") ? ci->read_spread
							  : ci->prog_spread);
	return get_uint(c, o) == cell_default(o, c->cell);
}

void ssd_config_print(const struct ssd_config *c, FILE *out)
{
	char val[200], line[256];
	for (int i = 0; i < NOPTS; i++) {
		const struct opt *o = &options[i];
		fmt_value(c, o, val, sizeof val);
		snprintf(line, sizeof line, "%s%-16s = %s",
			 o->flags & F_DERIVED ? "# " : "", o->name, val);
		fprintf(out, "%-34s # %s%s; %s", line, o->flags & F_DERIVED ?
			"derived, not settable; " : "", o->unit, o->help);
		if ((o->flags & F_CELLDEF) && c->cell >= 0 && c->cell < NCELLS &&
		    is_cell_default(c, o))
			fprintf(out, " [%s default]", cell_names[c->cell]);
		fputc('\n', out);
	}
	if (c->blocks_per_plane) {
		char a[32], b[32];
		uint32_t planes = ssd_config_dies(c) * c->planes_per_die;
		fprintf(out, "# physical: %s in %llu blocks of %s on %u dies "
			"(%u planes)\n",
			ssd_fmt_bytes(ssd_config_physical_bytes(c), a, sizeof a),
			(unsigned long long)planes * c->blocks_per_plane,
			ssd_fmt_bytes((uint64_t)c->page_size * c->pages_per_block, b,
				      sizeof b),
			ssd_config_dies(c), planes);
	}
}

void ssd_config_print_doc(FILE *out)
{
	char acc[160], t[4][32], sp[32];
	fputs("# Drive options\n\n"
	      "Generated by `ssdlab drive doc` from the option table in "
	      "`src/config.c`; do not edit by hand.\n\n"
	      "A drive is a small INI file (`presets/*.ini`, or any `FILE.ini`):\n"
	      "`key = value` lines, `#` or `;` comments (at the start of a line "
	      "or after white space), blank lines and an optional `[drive]` "
	      "section header. Keys not given keep the defaults below. A key "
	      "given twice takes the last value, as in most INI readers. Every "
	      "key can be overridden on the command line with `--set "
	      "key=value`, applied after the file. `ssdlab drive show NAME` "
	      "prints the resolved drive in the same syntax, so its output is "
	      "itself a drive file.\n\n"
	      "Sizes take the suffixes k, m, g, t (powers of 1024); times take "
	      "ns, us, ms, s (a bare number is microseconds); fractions may be "
	      "written `0.07` or `7%`.\n\n"
	      "## How the geometry is derived\n\n"
	      "You give the user `capacity`, the spare fraction `op` and the "
	      "shape of the flash array (`page_size`, `pages_per_block`, "
	      "`channels`, `dies_per_channel`, `planes_per_die`). ssdlab derives "
	      "`blocks_per_plane` as the fewest blocks per plane whose physical "
	      "bytes hold the user capacity plus its spare:\n\n"
	      "    blocks_per_plane = ceil(capacity * (1 + op) /\n"
	      "        (page_size * pages_per_block * channels * dies_per_channel "
	      "* planes_per_die))\n\n"
	      "so the physical array is at least `capacity * (1 + op)`; rounding "
	      "up to whole blocks adds a little more spare. The drive is rejected "
	      "if `blocks_per_plane` is below `gc_bg_blocks + 4`, or if, after "
	      "the FTL's reserve of `gc_fg_blocks + 2` blocks per allocation "
	      "unit (free blocks for garbage collection plus the host and GC "
	      "write points), the remaining blocks cannot hold `capacity` "
	      "(raise `op`). The FTL maps 4 KiB logical pages, so `capacity` is "
	      "a multiple of 4 KiB.\n\n"
	      "## Cell defaults\n\n"
	      "`t_read`, `t_prog`, `t_erase` and `pe_cycles` left at 0, and "
	      "`t_read_spread` and `t_prog_spread` left at `cell`, take the "
	      "cell type's value. These are typical datasheet-class figures, "
	      "not any one part's. The spreads set the page types' timing: "
	      "page p of a block is of type p % bits per cell (0 = LSB), and "
	      "type i of b reads in t_read x (1 + s (2i/(b-1) - 1)), scaled so "
	      "that the mean over a block's pages is t_read (the same for "
	      "programs); SLC has one type:\n\n"
	      "| cell | t_read | t_prog | t_erase | pe_cycles | t_read_spread | "
	      "t_prog_spread |\n"
	      "|---|---|---|---|---|---|---|\n",
	      out);
	for (int i = 0; i < NCELLS; i++)
		fprintf(out, "| %s | %s | %s | %s | %u | %s | %s |\n",
			cell_info[i].name,
			fmt_time(cell_info[i].t_read, t[0], sizeof t[0]),
			fmt_time(cell_info[i].t_prog, t[1], sizeof t[1]),
			fmt_time(cell_info[i].t_erase, t[2], sizeof t[2]),
			cell_info[i].pe_cycles,
			fmt_double(cell_info[i].read_spread, t[3], sizeof t[3]),
			fmt_double(cell_info[i].prog_spread, sp, sizeof sp));
	fputs("\n## Keys\n\n"
	      "| key | type | default | range | unit | meaning |\n"
	      "|---|---|---|---|---|---|\n",
	      out);
	for (int i = 0; i < NOPTS; i++) {
		const struct opt *o = &options[i];
		fprintf(out, "| `%s` | %s | %s | %s | %s | %s |\n", o->name,
			type_names[o->type],
			o->flags & F_DERIVED ? "derived" : o->def,
			o->flags & F_DERIVED ? "-" : accepted(o, 0, acc, sizeof acc),
			o->type == T_TIME ? "time; bare number = us" : o->unit,
			o->help);
	}
}

/* A JSON string literal. */
static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

void ssd_config_json(const struct ssd_config *c, FILE *out, int indent)
{
	char buf[48];
	int nl = indent >= 0;
	fputc('{', out);
	for (int i = 0; i < NOPTS; i++) {
		const struct opt *o = &options[i];
		if (nl)
			fprintf(out, "%s\n%*s\"%s\" : ", i ? "," : "", indent + 2, "",
				o->name);
		else
			fprintf(out, "%s\"%s\" : ", i ? ", " : "", o->name);
		switch (o->type) {
		case T_STRING:
			json_str(out, (const char *)c + o->off);
			break;
		case T_SIZE:
		case T_U32:
		case T_TIME:
			fprintf(out, "%llu", (unsigned long long)get_uint(c, o));
			break;
		case T_FRACTION:
			fputs(fmt_double(get_double(c, o), buf, sizeof buf), out);
			break;
		case T_ENUM:
			json_str(out, fmt_value(c, o, buf, sizeof buf));
			break;
		case T_BOOL:
			fputs(get_int(c, o) ? "true" : "false", out);
			break;
		}
	}
	if (nl)
		fprintf(out, "\n%*s}", indent, "");
	else
		fputc('}', out);
}
