/*
 * config_finish.c -- a drive as the simulator gets it: the checks of
 * ssd_config_finish() and ssd_config_fit(), the geometry they derive,
 * adaptation, and the figures derived from a finished drive.
 *
 * Checks.  Every field is checked again against its row of the option
 * table (config.c; code may set fields directly), then the rules between
 * keys that do not depend on the geometry (check_keys()), then the fit of
 * the drive, then what a block-mapped or log-block scheme refuses and
 * needs (check_mapping()).  A failed check is one message naming the
 * culprit key and a value that works.
 *
 * Geometry.  The user gives capacity, op and the shape of the array
 * (page_size, pages_per_block, channels, dies_per_channel,
 * planes_per_die); ssd_config_finish() derives blocks_per_plane as the
 * smallest count whose physical bytes hold capacity*(1+op), then checks
 * that the FTL can work in it (fit(), the one place the rules between
 * keys and the geometry live): each allocation unit keeps gc_fg_blocks
 * free blocks plus two open blocks (host and GC write points) and a
 * static SLC cache's blocks, and the rest must hold the user capacity; a
 * dynamic SLC cache, the write buffer and the map cache must be within
 * what the drive can hold.  A failed rule becomes one message naming the
 * culprit key and a value that works (explain()).  Every count derived
 * from the shape (units, slots per page and block, erase blocks, the
 * reserve, the SLC cache's blocks, map pages) has one definition,
 * geometry(), which the rules use and ssd_config_geometry() gives the
 * FTL, the flash backend and the methods.
 *
 * Adapting.  When capacity is overridden (c->overridden, config_parse.c)
 * and the drive fails a rule, ssd_config_fit() (the command line's
 * finish) has adapt() change keys not overridden, one halving at a time
 * in a fixed order (config.h), so the smallest change that works is
 * found and the result is deterministic; c->adapted records them, and
 * ssd_config_description() appends both to the description that reports
 * and `drive show` print.  ssd_config_finish() never adapts: code that
 * sets fields itself (accuracy, calibration) gets exactly its drive or
 * an error.
 *
 * Cell defaults.  Timings and endurance left at 0 (and spreads left at
 * "cell") take the cell type's values (config.c's cell_info[]) once the
 * drive is finished.
 */
#include "base/config_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *ssd_config_power_refusal(const struct ssd_config *c, char *buf,
				     size_t n)
{
	int zoned = c->mapping == SSD_MAP_ZONE;
	if (c->mapping != SSD_MAP_PAGE && !zoned)
		snprintf(buf, n, "power cuts are modelled on page mapping only, "
			 "and the drive has mapping = %s (docs/mapping.md)",
			 ssd_mapping_name(c->mapping));
	else if (!zoned && c->gc_copies != SSD_GC_COPIES_OWN)
		snprintf(buf, n, "power cuts are modelled with GC copies in a write "
			 "point of their own, and the drive has gc_copies = host");
	else if ((zoned || c->fdp) && c->paired_pages != SSD_PAIRED_INDEPENDENT)
		snprintf(buf, n, "power cuts with paired_pages = %s are modelled "
			 "on drives without zones or FDP only (the guard covers "
			 "the unit's own write point), and the drive has %s",
			 c->paired_pages == SSD_PAIRED_PROTECTED ? "protected"
			 : "unprotected", zoned ? "mapping = zone" : "fdp = yes");
	else
		return NULL;
	return buf;
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

static uint64_t pow2_at_least(uint64_t v)
{
	uint64_t p = 1;
	while (p < v)
		p <<= 1;
	return p;
}

int ssd_config_zones(const struct ssd_config *c, struct ssd_zones *z,
		     char *err, size_t errlen)
{
	memset(z, 0, sizeof *z);
	if (c->mapping != SSD_MAP_ZONE)
		return 0;
	struct ssd_geometry g;
	geometry(c, c->blocks_per_plane, &g);
	uint32_t zu = c->zone_units ? c->zone_units : g.units;
	if (!g.units || zu > g.units || g.units % zu) {
		ssd_seterr(err, errlen, "key 'zone_units': %u does not divide the "
		       "drive's %u allocation units (accepted: a divisor of %u, "
		       "or 0 for all)", zu, g.units, g.units);
		return SSD_EINVAL;
	}
	uint64_t unit_lp = (uint64_t)zu * g.lp_per_block;
	uint64_t cap = c->zone_capacity ? c->zone_capacity / SSD_LPAGE : unit_lp;
	uint64_t size = c->zone_size ? c->zone_size / SSD_LPAGE
				     : pow2_at_least(cap);
	char a[24], b[24];
	if (c->zone_size && (c->zone_size % SSD_LPAGE ||
			     (c->zone_size & (c->zone_size - 1)))) {
		ssd_seterr(err, errlen, "key 'zone_size': %s is not a power of two "
		       "of 4 KiB or more (the NVMe zone size, ZSZE; accepted: "
		       "4k, 8k, ..., or 0 for the smallest holding zone_capacity)",
		       ssd_fmt_bytes(c->zone_size, a, sizeof a));
		return SSD_EINVAL;
	}
	if (cap > size && !c->zone_capacity) {
		ssd_seterr(err, errlen, "key 'zone_size': %s is below the zone "
		       "capacity %s, one block on each of the zone's %u units "
		       "(accepted: zone_size %s or more, or a smaller "
		       "zone_capacity or zone_units)",
		       ssd_fmt_bytes(size * SSD_LPAGE, a, sizeof a),
		       ssd_fmt_bytes(cap * SSD_LPAGE, b, sizeof b), zu,
		       ssd_fmt_bytes(pow2_at_least(cap) * SSD_LPAGE, b, sizeof b));
		return SSD_EINVAL;
	}
	if (!cap || cap > size) {
		ssd_seterr(err, errlen, "key 'zone_capacity': %s is %s the zone "
		       "size %s (accepted: 4 KiB up to zone_size)",
		       ssd_fmt_bytes(cap * SSD_LPAGE, a, sizeof a),
		       cap ? "above" : "0, below",
		       ssd_fmt_bytes(size * SSD_LPAGE, b, sizeof b));
		return SSD_EINVAL;
	}
	z->zone_units = zu;
	z->groups = g.units / zu;
	z->blocks_per_unit = (uint32_t)((cap + unit_lp - 1) / unit_lp);
	z->size_lp = size;
	z->cap_lp = cap;
	/* each group's units keep the FTL's reserve from zones: spares for
	 * worn-out blocks and the padding a flush of a part page costs */
	uint64_t room = g.blocks_per_unit > g.reserve_blocks
			? (g.blocks_per_unit - g.reserve_blocks) / z->blocks_per_unit
			: 0;
	uint64_t by_cap = g.user_lp / cap, n = room * z->groups;
	if (by_cap < n)
		n = by_cap;
	if (n > UINT32_MAX)
		n = UINT32_MAX;
	if (!n) {
		ssd_seterr(err, errlen, "key 'zone_capacity': a zone of %s does not "
		       "fit: the capacity holds %llu and a group of %u units has "
		       "blocks for %llu (accepted: a smaller zone_capacity or "
		       "zone_units, or a larger capacity)",
		       ssd_fmt_bytes(cap * SSD_LPAGE, a, sizeof a),
		       (unsigned long long)by_cap, zu, (unsigned long long)room);
		return SSD_EINVAL;
	}
	if (n * size >= UINT32_MAX) {
		ssd_seterr(err, errlen, "key 'zone_size': %llu zones of %s are %s, "
		       "above the 16 TiB a drive addresses (accepted: a smaller "
		       "zone_size or capacity)", (unsigned long long)n,
		       ssd_fmt_bytes(size * SSD_LPAGE, a, sizeof a),
		       ssd_fmt_bytes(n * size * SSD_LPAGE, b, sizeof b));
		return SSD_EINVAL;
	}
	if (c->zrwa_size) {
		uint64_t fg = c->zrwa_flush ? c->zrwa_flush / SSD_LPAGE
					    : g.lp_per_page;
		uint64_t zs = c->zrwa_size / SSD_LPAGE;
		char d[24];
		if (!fg || zs % fg || zs > cap) {
			ssd_seterr(err, errlen, "key 'zrwa_size': %s is not a "
			       "multiple of the flush granularity %s within the "
			       "zone capacity %s (accepted: a multiple of "
			       "zrwa_flush up to zone_capacity)",
			       ssd_fmt_bytes(c->zrwa_size, a, sizeof a),
			       ssd_fmt_bytes(fg * SSD_LPAGE, b, sizeof b),
			       ssd_fmt_bytes(cap * SSD_LPAGE, d, sizeof d));
			return SSD_EINVAL;
		}
		z->zrwa_lp = zs;
		z->zrwa_fg_lp = fg;
	}
	z->zones = (uint32_t)n;
	z->per_group = (uint32_t)((n + z->groups - 1) / z->groups);
	if (c->max_active_zones && c->max_open_zones > c->max_active_zones) {
		ssd_seterr(err, errlen, "keys 'max_open_zones' (%u) and "
		       "'max_active_zones' (%u): an open zone is active, so "
		       "max_open_zones must be at most max_active_zones "
		       "(accepted: max_open_zones %u or less, or max_active_zones "
		       "0)", c->max_open_zones, c->max_active_zones,
		       c->max_active_zones);
		return SSD_EINVAL;
	}
	return 0;
}

uint64_t ssd_config_host_lp(const struct ssd_config *c)
{
	struct ssd_zones z;
	if (c->mapping == SSD_MAP_ZONE && !ssd_config_zones(c, &z, NULL, 0))
		return (uint64_t)z.zones * z.size_lp;
	return c->capacity / SSD_LPAGE;
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
	char acc[256], val[48];
	const struct opt *o;
	for (int i = 0; (o = ssd_cfg_row(i)); i++) {
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
			uint64_t u = ssd_cfg_uint(c, o);
			if (o->flags & F_DERIVED)
				break;
			if (o->type == T_SIZE)
				ssd_cfg_fmt_size(u, val, sizeof val);
			else if (o->type == T_TIME)
				ssd_cfg_fmt_time((int64_t)u, val, sizeof val);
			else
				snprintf(val, sizeof val, "%llu", (unsigned long long)u);
			what = ssd_cfg_check_uint(o, u);
			break;
		}
		case T_FRACTION: {
			double d = ssd_cfg_double(c, o);
			ssd_cfg_fmt_double(d, val, sizeof val);
			if (!(d >= o->fmin && d <= o->fmax) &&
			    !((o->flags & F_CELLDEF) && d == -1))
				what = "is out of range";
			break;
		}
		case T_ENUM:
		case T_BOOL: {
			int v = ssd_cfg_int(c, o), nv = 2;
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
			       val, what, ssd_cfg_accepted(o, 0, acc, sizeof acc));
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
		const struct opt *o = ssd_cfg_find(order[i]);
		uint64_t v = ssd_cfg_uint(t, o);
		if ((pinned & ssd_cfg_bit(o)) || v <= o->min)
			continue;
		v = v / 2 < o->min ? o->min : v / 2;
		ssd_cfg_put_uint(t, o, v);
		t->adapted |= ssd_cfg_bit(o);
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
	ssd_keymask b_wb = ssd_cfg_key_bit("write_buffer"), b_map = ssd_cfg_key_bit("map_cache");
	ssd_keymask b_slc = ssd_cfg_key_bit("slc_cache_size");
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
	const struct opt *o = ssd_cfg_find("op");
	struct ssd_config t = *c;
	struct fit f;
	double v = ceil(ssd_config_min_op(c) * 1e4) / 1e4;
	buf[0] = 0;
	for (int i = 0; i < 100 && v <= o->fmax; i++, v += 1e-4) {
		t.op = v;
		int why = fit(&t, &f);
		if (why != FIT_FEW && why != FIT_RESERVE) {
			ssd_cfg_fmt_double(v, buf, n);
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
	const struct opt *o = ssd_cfg_find("capacity");
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
			snprintf(buf, n, "%s (%s)", ssd_cfg_fmt_size(v, k, sizeof k),
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
	const struct opt *o;
	for (int i = 0; (o = ssd_cfg_row(i)) && len < n; i++) {
		char v[48];
		if (!(mask & ((ssd_keymask)1 << i)))
			continue;
		len += (size_t)snprintf(buf + len, n - len, "%s%s=%s", len ? ", " : "",
					o->name, ssd_cfg_text(c, o, v, sizeof v));
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
		if ((c->overridden & ssd_cfg_key_bit("gc_bg_blocks")) &&
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
			ssd_cfg_fmt_size(max, b, sizeof b);
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
		if ((c->overridden & ssd_cfg_key_bit("gc_fg_blocks")) &&
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
		       ssd_cfg_fmt_size(f.dyn_max / SSD_LPAGE * SSD_LPAGE, d, sizeof d), even);
		return SSD_ERANGE;
	case FIT_WBUF:
		ssd_seterr(err, errlen, "key 'write_buffer': %s is more than an eighth "
		       "of the capacity %s: a buffer that large holds the workload "
		       "in DRAM (accepted: 0..%s)",
		       ssd_fmt_bytes(c->write_buffer, a, sizeof a),
		       ssd_fmt_bytes(c->capacity, b, sizeof b),
		       ssd_cfg_fmt_size(c->capacity / SSD_CONFIG_WBUF_DIV / SSD_LPAGE *
				SSD_LPAGE, d, sizeof d));
		return SSD_ERANGE;
	case FIT_MAP: {
		char lo[32], hi[32];
		ssd_cfg_fmt_size(c->page_size, lo, sizeof lo);
		ssd_cfg_fmt_size(f.map_bytes, hi, sizeof hi);
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
	const struct cell_info *cell = ssd_cfg_cell(c->cell);
	uint64_t pe = c->pe_cycles ? c->pe_cycles : cell ? cell->pe_cycles : 0;
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
		       ssd_cfg_fmt_time(c->hdd_seek_track, a, sizeof a),
		       ssd_cfg_fmt_time(c->hdd_seek_avg, b, sizeof b),
		       ssd_cfg_fmt_time(c->hdd_seek_full, d, sizeof d));
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
/* Flexible data placement's rules: page mapping with GC copies of its
 * own and no SLC cache; and each unit's spare holds the open blocks of
 * the handles' write points beside the reserve. */
static int check_fdp(const struct ssd_config *c, const struct fit *f,
		     char *err, size_t errlen)
{
	if (!c->fdp)
		return 0;
	const char *what = c->mapping != SSD_MAP_PAGE ? "mapping"
			 : c->slc_cache != SSD_SLC_NONE ? "slc_cache"
			 : c->gc_copies != SSD_GC_COPIES_OWN ? "gc_copies" : NULL;
	if (what) {
		ssd_seterr(err, errlen, "key '%s': fdp = yes places each "
		       "handle's data in write points of its own, which page "
		       "mapping with GC copies of their own and no SLC cache "
		       "has (accepted: mapping = page, slc_cache = none, "
		       "gc_copies = own, or fdp = no)", what);
		return SSD_EINVAL;
	}
	if (f->g.units % c->fdp_groups) {
		ssd_seterr(err, errlen, "key 'fdp_groups': %u reclaim groups do "
		       "not divide the drive's %u allocation units (accepted: a "
		       "divisor of %u)", c->fdp_groups, f->g.units, f->g.units);
		return SSD_EINVAL;
	}
	uint64_t extra = (uint64_t)(c->fdp_handles - 1) *
			 (c->fdp_isolation == SSD_FDP_PERSISTENT ? 2 : 1);
	uint64_t spare = f->bpp > f->data + f->reserve ? f->bpp - f->data - f->reserve : 0;
	if (spare < extra + 1) {
		ssd_seterr(err, errlen, "key 'fdp_handles': %u handles keep %llu "
		       "more block%s open in every allocation unit, which with "
		       "one free for GC to work needs %llu beside the reserve, "
		       "and op leaves %llu (accepted: fewer fdp_handles, or a "
		       "larger op)", c->fdp_handles, (unsigned long long)extra,
		       extra == 1 ? "" : "s", (unsigned long long)extra + 1,
		       (unsigned long long)spare);
		return SSD_EINVAL;
	}
	return 0;
}

static int check_mapping(const struct ssd_config *c, const struct fit *f,
			 char *err, size_t errlen)
{
	if (c->mapping == SSD_MAP_PAGE)
		return 0;
	const char *m = ssd_mapping_name(c->mapping), *what = NULL;
	if (c->mapping == SSD_MAP_ZONE && c->slc_cache == SSD_SLC_NONE &&
	    !c->map_cache && c->trim_mode == SSD_TRIM_IMMEDIATE) {
		const char *layer = c->page_cache ? "page_cache"
				  : c->mft ? "mft"
				  : c->raid != SSD_RAID_NONE ? "raid" : NULL;
		if (layer) {
			ssd_seterr(err, errlen, "key '%s': a host layer writes "
			       "anywhere, and a zoned drive (mapping = zone) takes "
			       "writes only at a zone's write pointer (accepted: no "
			       "host layers over a zoned drive, or mapping = page)",
			       layer);
			return SSD_EINVAL;
		}
		struct ssd_zones z;
		(void)f;
		return ssd_config_zones(c, &z, err, errlen);
	}
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
	if (why && may_adapt && (c->overridden & ssd_cfg_key_bit("capacity"))) {
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
	if (!rc)
		rc = check_fdp(c, &f, err, errlen);
	if (rc)
		return rc;

	/* Timings and endurance left at 0 take the cell type's values. */
	const struct cell_info *ci = ssd_cfg_cell(c->cell);
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
	const struct opt *o;
	for (int i = 0; (o = ssd_cfg_row(i)); i++)
		if (o->flags & F_DESCR)
			descr |= (ssd_keymask)1 << i;
	ssd_keymask ch = c->overridden & descr & ~c->adapted;
	if (c->overridden & ssd_cfg_key_bit("description"))
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
