/*
 * scn_zoned.c -- what decides a zoned drive's speed, and what its zone
 * commands cost, by mechanism (mapping = zone, NVMe ZNS; docs/zoned.md).
 *
 * The drive.  Any SSD drive is made zoned: the scenario sets mapping =
 * zone on it (the same flash, timings and controller, its capacity cut
 * into zones), keeping the zone keys the drive sets itself.  A hard disk,
 * a drive with host layers, or one whose features a zoned drive does not
 * model (an SLC cache, a partial map, queued TRIM) is refused with the
 * key to change.  Each part builds the drives it needs, fresh.
 *
 * 1. Throughput against open zones and zone-to-unit mapping.  For
 *    zone_units = every unit, then halved down to 1 (the divisors the
 *    halving meets, and 1), a drive whose zones are striped over that
 *    many allocation units; the zones go round the groups of units in
 *    turn (zone z on group z % groups).  For k = 1, 2, 4, ... zones
 *    written at once (and every group count; up to twice the units,
 *    within max_open_zones and max_active_zones), the host writes zones
 *    0..k-1, `bs` at each one's write pointer, from a closed loop of
 *    `iodepth` commands straight through ssd_dev_submit: each completion
 *    submits the next write, to the zone with the fewest writes in flight
 *    (then the least written).  Consecutive zones lie on consecutive
 *    groups, so the k zones are on k different groups while k <= groups,
 *    and share groups beyond.  A point writes `unit_pages` NAND pages on
 *    each unit of the drive (its volume scales with the drive's
 *    parallelism, not its capacity), and the zones hold a point's volume
 *    each (unless the drive sets zone_capacity or zone_size: then a zone
 *    that fills is followed by the zone k further on), so every row has
 *    zones of one size and only the mapping changes.  MB/s: the bytes over
 *    the time from the first submission to the last completion.  Between
 *    points the drive is flushed and every zone reset.  The mechanism: a
 *    unit programs one page at a time, so a zone is as fast as the units
 *    it spans, and the drive as fast as the units its open zones cover:
 *    a zone on every unit is fast alone; zones on one unit each need as
 *    many open zones as there are groups.
 *
 * 2. Reset against occupancy.  On a drive with zones of `zone_blocks`
 *    blocks on each of their units (unless the drive sets zone_capacity or
 *    zone_size itself), zones filled to 0, 25, 50, 75 and 100% of their
 *    capacity are reset one at a time, each with the drive quiet: the
 *    reset's latency is the erase of the blocks the zone holds, each unit
 *    erasing its share in turn and the units in parallel (an empty zone
 *    holds none: the command alone).  Beside each reset, writes to another
 *    zone on the same units, once alone at a quiet moment and once
 *    submitted with the reset: a `bs` write, and a burst of writes larger
 *    than the units' cache registers take (two pages on each unit, two
 *    writes at least), each write submitted as the one before completes.
 *    A write whose data fits in a register completes when it is loaded,
 *    erase or not; the burst's rest waits for the erase.
 *
 * 3. Finish against occupancy, zone_finish = pad against mark: zones
 *    filled as in 2 are finished, each with the drive quiet.  pad programs
 *    the rest of the zone's blocks with filler (the drive's own writes:
 *    the emptier the zone, the more), mark programs nothing.
 *
 * Output: the tables in the summary and result.json, zoned-throughput.csv
 * and its chart (MB/s against open zones, a line per zone_units),
 * zoned-occupancy.csv and its chart (reset and finish latency against
 * occupancy).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ftl/zns.h"
#include "machine/stack.h"
#include "methods/scenario.h"

static const struct ssd_scn_param params[] = {
	{.name = "bs", .def = "64k", .unit = "size",
	 .help = "Bytes per write (a multiple of 4 KiB)."},
	{.name = "iodepth", .def = "32", .unit = "number",
	 .help = "Writes in flight in the throughput part (a closed loop).",
	 .whole = 1, .lo = 1, .hi = 4096},
	{.name = "unit_pages", .def = "256", .unit = "number",
	 .help = "NAND pages each allocation unit programs per throughput "
		 "point: the point writes that many on every unit.",
	 .whole = 1, .lo = 8, .hi = 1000000},
	{.name = "max_zones", .def = "0", .unit = "number",
	 .help = "The most zones written at once (0: twice the allocation "
		 "units); the drive's max_open_zones and max_active_zones bound "
		 "it too.", .whole = 1, .lo = 0, .hi = 4096},
	{.name = "zone_blocks", .def = "4", .unit = "number",
	 .help = "Reset and finish: the zone capacity in blocks on each of "
		 "its units (the drive's zone_capacity or zone_size instead, "
		 "when it sets one).", .whole = 1, .lo = 1, .hi = 1024},
	{.name = NULL},
};

#define MAX_ZU 24    /* zone_units values: units, halved down to 1 */
#define MAX_K 32     /* open-zone counts */
#define NLEV 5       /* occupancy levels */

static const int level_pct[NLEV] = {0, 25, 50, 75, 100};

struct sweep {
	uint32_t units;
	int nzu, nk;
	uint32_t zu[MAX_ZU], k[MAX_K];
	uint64_t cap[MAX_ZU];          /* zone capacity of its drive, bytes */
	uint32_t nzones[MAX_ZU];
	double mbps[MAX_ZU][MAX_K];    /* NAN: the drive has too few zones */
	int full_at[MAX_ZU];           /* index of the least k within 10% of
	                                  the best of every row (-1: none) */
};

struct level {
	uint64_t held;                 /* host bytes in the zone */
	uint64_t erases;               /* erase blocks (a plane's) its reset
	                                  erased */
	int64_t reset_ns;
	/* writes to another zone on the same units, alone and submitted
	 * with the reset: the first bs write's latency, and the time of a
	 * burst larger than the units' registers take */
	int64_t alone_ns, behind_ns, burst_alone_ns, burst_behind_ns;
	uint64_t pad_lp, mark_lp;      /* 4 KiB units a finish padded */
	int64_t pad_ns, mark_ns;       /* finish latency */
};

struct occ {
	uint32_t zone_units, groups, nzones;
	uint64_t cap, zone_size;
	uint32_t blocks;               /* blocks per unit a full zone holds */
	uint64_t burst;                /* bytes of the bursts beside a reset */
	struct level lv[NLEV];
};

/* The scenario's drive made zoned: mapping = zone with zone_units = zu
 * (0: the drive's own), and, if not NULL / 0, zone_finish and
 * zone_capacity; finished and checked into *c.  A drive that cannot be
 * zoned is the user's input: SSD_ERANGE with the reason. */
static int zoned_config(struct ssd_scn *s, uint32_t zu, const char *finish,
			uint64_t cap, struct ssd_config *c)
{
	char e[400], v[32];
	*c = s->cfg;
	int rc = ssd_config_set(c, "mapping", "zone", s->sc->name, e, sizeof e);
	if (!rc && zu) {
		snprintf(v, sizeof v, "%u", zu);
		rc = ssd_config_set(c, "zone_units", v, s->sc->name, e, sizeof e);
	}
	if (!rc && finish)
		rc = ssd_config_set(c, "zone_finish", finish, s->sc->name, e,
				    sizeof e);
	if (!rc && cap) {
		snprintf(v, sizeof v, "%llu", (unsigned long long)cap);
		rc = ssd_config_set(c, "zone_capacity", v, s->sc->name, e,
				    sizeof e);
	}
	if (!rc) {
		c->blocks_per_plane = 0;
		rc = ssd_config_finish(c, e, sizeof e);
	}
	if (!rc)
		rc = ssd_stack_check(c, e, sizeof e);
	if (rc) {
		char with[32] = "";
		if (zu)
			snprintf(with, sizeof with, ", zone_units = %u", zu);
		snprintf(s->err, sizeof s->err, "zoned: drive '%.40s' cannot be made "
			 "zoned (mapping = zone%s): %.380s", s->cfg.name, with, e);
		return SSD_ERANGE;
	}
	return 0;
}

static struct ssd_dev *zoned_drive(struct ssd_scn *s, const struct ssd_config *c,
				   struct ssd_zoned_info *zi)
{
	struct ssd_dev *d = ssd_scn_device(s, c);
	if (d && ssd_dev_zoned(d, zi) != 1) {
		snprintf(s->err, sizeof s->err, "zoned: drive '%s' built without "
			 "zones", s->cfg.name);
		ssd_dev_destroy(d);
		return NULL;
	}
	return d;
}

#define NO_ZONE UINT64_MAX /* a command of no one zone */

/* A command that failed: its error, in s->err. */
static int failed(struct ssd_scn *s, const char *what, uint64_t zone, int64_t rc)
{
	char z[32] = "";
	if (zone != NO_ZONE)
		snprintf(z, sizeof z, " (zone %llu)", (unsigned long long)zone);
	snprintf(s->err, sizeof s->err, "zoned: %s%s failed: %s", what, z,
		 ssd_strerror((int)rc));
	return (int)rc;
}

/* The drive flushed and quiet: every program and erase done; the time. */
static int64_t quiet(struct ssd_dev *d)
{
	int64_t t = ssd_dev_flush(d, ssd_dev_time(d));
	return t < 0 ? t : ssd_dev_time(d);
}

/* ---- 1. throughput ---- */

/* k zones written at once, `volume` bytes in all, bs at their write
 * pointers, from a closed loop of qd commands starting at the drive's
 * time: each completion submits the next write, to the zone with the
 * fewest writes in flight (then the one least written, then the lowest):
 * the zones progress as their units let them, as independent writers'
 * would.  A zone that fills is followed by the zone k further on.  *mbps,
 * or NAN if that runs past the drive's zones.  The drive is flushed and
 * every zone reset afterwards. */
static int throughput(struct ssd_scn *s, struct ssd_dev *d,
		      const struct ssd_zoned_info *zi, uint32_t k, uint32_t bs,
		      uint32_t qd, uint64_t volume, double *mbps)
{
	int64_t *done = malloc(qd * sizeof *done);
	uint32_t *of = malloc(qd * sizeof *of);     /* [slot] its zone index */
	uint64_t *zone = malloc(k * sizeof *zone);
	uint64_t *pos = calloc(k, sizeof *pos), *wr = calloc(k, sizeof *wr);
	uint32_t *busy = calloc(k, sizeof *busy);   /* [zone index] in flight */
	int rc = 0;
	if (!done || !of || !zone || !pos || !wr || !busy) {
		snprintf(s->err, sizeof s->err, "zoned: out of memory");
		rc = SSD_ENOMEM;
		goto out;
	}
	int64_t t0 = ssd_dev_time(d), last = t0;
	for (uint32_t q = 0; q < qd; q++) {
		done[q] = t0;
		of[q] = UINT32_MAX;
	}
	for (uint32_t i = 0; i < k; i++)
		zone[i] = i;
	uint64_t written = 0;
	*mbps = NAN;
	while (written < volume) {
		uint32_t q = 0, i = 0;
		for (uint32_t j = 1; j < qd; j++)
			if (done[j] < done[q])
				q = j;
		if (of[q] != UINT32_MAX)
			busy[of[q]]--;
		for (uint32_t j = 1; j < k; j++)
			if (busy[j] < busy[i] || (busy[j] == busy[i] && wr[j] < wr[i]))
				i = j;
		if (pos[i] == zi->zone_cap) {
			zone[i] += k;
			pos[i] = 0;
		}
		if (zone[i] >= zi->nzones)
			goto reset; /* too few zones for the point */
		uint64_t len = zi->zone_cap - pos[i] < bs ? zi->zone_cap - pos[i] : bs;
		int64_t c = ssd_dev_submit(d, SSD_DDIR_WRITE,
					   zone[i] * zi->zone_size + pos[i],
					   (uint32_t)len, done[q]);
		if (c < 0) {
			rc = failed(s, "a write", zone[i], c);
			goto out;
		}
		pos[i] += len;
		wr[i] += len;
		busy[i]++;
		of[q] = i;
		written += len;
		done[q] = c;
		if (c > last)
			last = c;
	}
	if (last > t0)
		*mbps = (double)written * 1e3 / (double)(last - t0);
reset:;
	int64_t t = quiet(d);
	if (t >= 0)
		t = ssd_dev_zone_send(d, SSD_ZNS_ACT_RESET, 0, 1, t);
	if (t < 0)
		rc = failed(s, "the reset of every zone", NO_ZONE, t);
out:
	free(done);
	free(of);
	free(zone);
	free(pos);
	free(wr);
	free(busy);
	return rc;
}

/* The zone_units tried (units, halved while even, then 1) and the open
 * zone counts (powers of two and every group count, up to kmax, and
 * kmax). */
static void sweep_axes(struct sweep *w, uint32_t kmax)
{
	uint32_t zu = w->units;
	w->nzu = 0;
	for (;;) {
		w->zu[w->nzu++] = zu;
		if (zu == 1 || w->nzu == MAX_ZU)
			break;
		zu = zu % 2 ? 1 : zu / 2;
	}
	w->nk = 0;
	for (uint64_t k = 1; k <= kmax && w->nk < MAX_K; k++) {
		int take = !(k & (k - 1));
		for (int i = 0; i < w->nzu && !take; i++)
			take = w->units / w->zu[i] == k;
		if (take || (k == kmax && w->nk < MAX_K))
			w->k[w->nk++] = (uint32_t)k;
	}
}

/* Each zone_units' drive, every open-zone count on it.  The zones hold
 * a point's volume (in whole blocks on each of their units) unless the
 * drive sets zone_capacity or zone_size: then a zone that fills is
 * followed by another. */
static int sweep_run(struct ssd_scn *s, struct sweep *w, uint32_t bs,
		     uint32_t qd, uint64_t volume, uint64_t unit_block)
{
	int own = s->cfg.zone_capacity || s->cfg.zone_size;
	ssd_prog_phase(s->prog, 0, "throughput");
	for (int i = 0; i < w->nzu; i++) {
		struct ssd_config c;
		struct ssd_zoned_info zi;
		uint64_t stripe = w->zu[i] * unit_block;
		int rc = zoned_config(s, w->zu[i], NULL, own ? 0 : (volume +
				      stripe - 1) / stripe * stripe, &c);
		if (rc)
			return rc;
		struct ssd_dev *d = zoned_drive(s, &c, &zi);
		if (!d)
			return SSD_EINVAL;
		w->cap[i] = zi.zone_cap;
		w->nzones[i] = zi.nzones;
		if (bs > zi.zone_cap) {
			char a[24], b[24];
			snprintf(s->err, sizeof s->err, "zoned: bs %s is more than the "
				 "zone capacity %s of zones on %u units (accepted: bs "
				 "up to %s)", ssd_fmt_bytes(bs, a, sizeof a),
				 ssd_fmt_bytes(zi.zone_cap, b, sizeof b), w->zu[i], b);
			ssd_dev_destroy(d);
			return SSD_ERANGE;
		}
		for (int j = 0; j < w->nk && !rc; j++) {
			char at[64];
			snprintf(at, sizeof at, "zone_units %u, %u open zone%s",
				 w->zu[i], w->k[j], w->k[j] > 1 ? "s" : "");
			ssd_prog_at(s->prog, (double)(i * w->nk + j) /
				    (w->nzu * w->nk), ssd_dev_time(d), at);
			rc = throughput(s, d, &zi, w->k[j], bs, qd, volume,
					&w->mbps[i][j]);
		}
		ssd_dev_destroy(d);
		if (rc)
			return rc;
	}
	double best = 0;
	for (int i = 0; i < w->nzu; i++)
		for (int j = 0; j < w->nk; j++)
			if (w->mbps[i][j] > best)
				best = w->mbps[i][j];
	for (int i = 0; i < w->nzu; i++) {
		w->full_at[i] = -1;
		for (int j = 0; j < w->nk && w->full_at[i] < 0; j++)
			if (w->mbps[i][j] >= 0.9 * best)
				w->full_at[i] = j;
	}
	return 0;
}

/* ---- 2 and 3. reset and finish against occupancy ---- */

/* bytes written into zone from its start, bs at a time at QD1, from the
 * drive's time. */
static int fill(struct ssd_scn *s, struct ssd_dev *d, uint64_t zone_size,
		uint32_t zone, uint64_t bytes, uint32_t bs)
{
	int64_t t = ssd_dev_time(d);
	for (uint64_t o = 0; o < bytes; o += bs) {
		uint64_t len = bytes - o < bs ? bytes - o : bs;
		t = ssd_dev_submit(d, SSD_DDIR_WRITE, zone * zone_size + o,
				   (uint32_t)len, t);
		if (t < 0)
			return failed(s, "a write filling a zone", zone, t);
	}
	return 0;
}

/* The zone's share of each level, in whole 4 KiB blocks. */
static uint64_t level_bytes(const struct occ *o, int i)
{
	return o->cap * (uint64_t)level_pct[i] / 100 / SSD_LPAGE * SSD_LPAGE;
}

/* `bytes` written at zone's write pointer from t, bs at a time, each
 * write submitted as the one before completes: the first write's latency
 * into *first, the whole burst's time into *all.  0 or the error. */
static int burst(struct ssd_scn *s, struct ssd_dev *d, uint32_t zone,
		 uint64_t bytes, uint32_t bs, int64_t t, int64_t *first,
		 int64_t *all)
{
	struct ssd_zone_desc z;
	if (ssd_dev_zone_report(d, zone, &z) || z.wp == UINT64_MAX ||
	    z.wp + bytes > z.start + z.cap) {
		snprintf(s->err, sizeof s->err, "zoned: zone %u has no room for "
			 "the writes next to the resets", zone);
		return SSD_ESTATE;
	}
	int64_t c = t;
	for (uint64_t o = 0; o < bytes; o += bs) {
		uint64_t len = bytes - o < bs ? bytes - o : bs;
		c = ssd_dev_submit(d, SSD_DDIR_WRITE, z.wp + o, (uint32_t)len, c);
		if (c < 0)
			return failed(s, "a write", zone, c);
		if (!o)
			*first = c - t;
	}
	*all = c - t;
	return 0;
}

/* Finish each of zones first..first+NLEV-1 (filled to the levels) with
 * the drive quiet: latency and padding into ns[i], lp[i]. */
static int finish_levels(struct ssd_scn *s, struct ssd_dev *d, struct occ *o,
			 uint32_t first, int pad)
{
	const struct ssd_counters *ctr = ssd_dev_counters(d);
	for (int i = 0; i < NLEV; i++) {
		uint32_t z = first + (uint32_t)i;
		int64_t t = quiet(d);
		uint64_t p0 = ctr->zone_finish_pad_lp;
		int64_t f = t < 0 ? t : ssd_dev_zone_send(d, SSD_ZNS_ACT_FINISH,
							  z * o->zone_size, 0, t);
		if (f < 0)
			return failed(s, "a finish", z, f);
		ctr = ssd_dev_counters(d);
		*(pad ? &o->lv[i].pad_ns : &o->lv[i].mark_ns) = f - t;
		*(pad ? &o->lv[i].pad_lp : &o->lv[i].mark_lp) =
			ctr->zone_finish_pad_lp - p0;
	}
	return 0;
}

/* Fill zones first..first+NLEV-1 to the levels. */
static int fill_levels(struct ssd_scn *s, struct ssd_dev *d, struct occ *o,
		       uint32_t first, uint32_t bs)
{
	for (int i = 0; i < NLEV; i++) {
		int rc = fill(s, d, o->zone_size, first + (uint32_t)i,
			      level_bytes(o, i), bs);
		if (rc)
			return rc;
		o->lv[i].held = level_bytes(o, i);
	}
	return 0;
}

/* Parts 2 and 3.  The pad drive: zones 0..4 filled and reset, a write to
 * a neighbour (zone nb + i, on the same units as zone i) alone and
 * behind each reset; zones 5..9 filled and finished.  The mark drive:
 * zones 0..4 filled and finished. */
static int occupancy(struct ssd_scn *s, struct occ *o, uint32_t bs,
		     uint32_t zone_blocks, uint64_t unit_block,
		     uint64_t page_bytes)
{
	uint64_t cap = 0;
	if (!s->cfg.zone_capacity && !s->cfg.zone_size) {
		uint32_t zu = s->cfg.zone_units;
		struct ssd_geometry g;
		ssd_config_geometry(&s->cfg, &g);
		cap = (uint64_t)zone_blocks * (zu ? zu : g.units) * unit_block;
	}
	for (int pad = 1; pad >= 0; pad--) {
		struct ssd_config c;
		struct ssd_zoned_info zi;
		int rc = zoned_config(s, 0, pad ? "pad" : "mark", cap, &c);
		if (rc)
			return rc;
		struct ssd_zones zg;
		ssd_config_zones(&c, &zg, NULL, 0);
		o->zone_units = zg.zone_units;
		o->groups = zg.groups;
		o->blocks = zg.blocks_per_unit;
		if (bs > zg.cap_lp * SSD_LPAGE) {
			char a[24], b[24];
			snprintf(s->err, sizeof s->err, "zoned: bs %s is more than the "
				 "capacity %s of the zones reset and finished "
				 "(accepted: bs up to %s, or a larger zone_blocks)",
				 ssd_fmt_bytes(bs, a, sizeof a),
				 ssd_fmt_bytes(zg.cap_lp * SSD_LPAGE, b, sizeof b), b);
			return SSD_ERANGE;
		}
		/* past what the registers take: two pages on each unit, and
		 * two writes at least */
		o->burst = 2 * zg.zone_units * page_bytes;
		o->burst = (o->burst + bs - 1) / bs * bs;
		if (o->burst < 2 * (uint64_t)bs)
			o->burst = 2 * (uint64_t)bs;
		uint64_t burst_bytes = o->burst;
		uint32_t nb = (10 + zg.groups - 1) / zg.groups * zg.groups;
		if (pad && zg.zones < nb + NLEV) {
			char a[24];
			snprintf(s->err, sizeof s->err, "zoned: the drive has %u zones "
				 "of %s for the reset and finish parts, which need %u "
				 "(accepted: a smaller zone_blocks or zone_capacity, or a "
				 "larger capacity)", zg.zones,
				 ssd_fmt_bytes(zg.cap_lp * SSD_LPAGE, a, sizeof a),
				 nb + NLEV);
			return SSD_ERANGE;
		}
		if (pad && 2 * NLEV * o->burst > zg.cap_lp * SSD_LPAGE) {
			char a[24], b[24];
			snprintf(s->err, sizeof s->err, "zoned: the writes beside the "
				 "resets (%d bursts of %s) do not fit in a zone of %s "
				 "(accepted: a smaller bs, or a larger zone_blocks)",
				 2 * NLEV, ssd_fmt_bytes(o->burst, a, sizeof a),
				 ssd_fmt_bytes(zg.cap_lp * SSD_LPAGE, b, sizeof b));
			return SSD_ERANGE;
		}
		struct ssd_dev *d = zoned_drive(s, &c, &zi);
		if (!d)
			return SSD_EINVAL;
		o->cap = zi.zone_cap;
		o->zone_size = zi.zone_size;
		o->nzones = zi.nzones;
		ssd_prog_phase(s->prog, ssd_dev_time(d), pad ? "reset and finish "
			       "(pad)" : "finish (mark)");
		rc = fill_levels(s, d, o, 0, bs);
		for (int i = 0; pad && !rc && i < NLEV; i++) {
			struct level *l = &o->lv[i];
			int64_t t = quiet(d);
			rc = t < 0 ? failed(s, "a flush", NO_ZONE, t)
			     : burst(s, d, nb + (uint32_t)i, burst_bytes, bs, t,
				     &l->alone_ns, &l->burst_alone_ns);
			if (rc)
				break;
			t = quiet(d);
			uint64_t e0 = ssd_dev_counters(d)->nand_erase;
			int64_t r = t < 0 ? t : ssd_dev_zone_send(d, SSD_ZNS_ACT_RESET,
								  (uint64_t)i * zi.zone_size,
								  0, t);
			if (r < 0) {
				rc = failed(s, "a reset", (uint64_t)i, r);
				break;
			}
			l->reset_ns = r - t;
			l->erases = ssd_dev_counters(d)->nand_erase - e0;
			rc = burst(s, d, nb + (uint32_t)i, burst_bytes, bs, t,
				   &l->behind_ns, &l->burst_behind_ns);
		}
		if (!rc && pad)
			rc = fill_levels(s, d, o, NLEV, bs);
		if (!rc)
			rc = finish_levels(s, d, o, pad ? NLEV : 0, pad);
		ssd_dev_destroy(d);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- output ---- */

static int write_csv(struct ssd_scn *s, const struct sweep *w,
		     const struct occ *o)
{
	FILE *f = ssd_scn_file(s, "zoned-throughput.csv");
	if (!f)
		return SSD_EIO;
	fprintf(f, "open_zones");
	for (int i = 0; i < w->nzu; i++)
		fprintf(f, ",mbps_zone_units_%u", w->zu[i]);
	fputc('\n', f);
	for (int j = 0; j < w->nk; j++) {
		fprintf(f, "%u", w->k[j]);
		for (int i = 0; i < w->nzu; i++)
			if (isnan(w->mbps[i][j]))
				fputc(',', f);
			else
				fprintf(f, ",%.1f", w->mbps[i][j]);
		fputc('\n', f);
	}
	int rc = ssd_scn_close(s, f);
	if (rc || !(f = ssd_scn_file(s, "zoned-occupancy.csv")))
		return rc ? rc : SSD_EIO;
	fprintf(f, "filled_pct,held_bytes,reset_erases,reset_ms,write_alone_ms,"
		   "write_behind_reset_ms,burst_alone_ms,burst_behind_reset_ms,"
		   "finish_pad_ms,finish_pad_bytes,finish_mark_ms,"
		   "finish_mark_bytes\n");
	for (int i = 0; i < NLEV; i++) {
		const struct level *l = &o->lv[i];
		fprintf(f, "%d,%llu,%llu,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%llu,%.4f,"
			"%llu\n", level_pct[i], (unsigned long long)l->held,
			(unsigned long long)l->erases, l->reset_ns / 1e6,
			l->alone_ns / 1e6, l->behind_ns / 1e6,
			l->burst_alone_ns / 1e6, l->burst_behind_ns / 1e6,
			l->pad_ns / 1e6, (unsigned long long)l->pad_lp * SSD_LPAGE,
			l->mark_ns / 1e6, (unsigned long long)l->mark_lp * SSD_LPAGE);
	}
	return ssd_scn_close(s, f);
}

static int plots(struct ssd_scn *s, const struct sweep *w,
		 const struct occ *o, uint32_t bs, uint32_t qd)
{
	static const char *const color[] = {"#1f5fbf", "#d95f02", "#1b9e77",
					    "#7570b3", "#e7298a", "#66a61e"};
	char body[4096];
	uint32_t kmax = w->k[w->nk - 1];
	int n = snprintf(body, sizeof body,
			 "set logscale x 2\nset xrange [0.8:%u]\nset xtics (",
			 kmax + kmax / 4 + 1);
	for (int j = 0; j < w->nk && n > 0 && (size_t)n < sizeof body; j++)
		n += snprintf(body + n, sizeof body - (size_t)n, "%s'%u' %u",
			      j ? ", " : "", w->k[j], w->k[j]);
	if (n > 0 && (size_t)n < sizeof body)
		n += snprintf(body + n, sizeof body - (size_t)n,
			      ")\nset xlabel 'zones written at once (%u KiB writes, "
			      "QD%u in all)'\nset ylabel 'MB/s'\n"
			      "set yrange [0:*]\nplot ", bs / 1024, qd);
	for (int i = 0; i < w->nzu && n > 0 && (size_t)n < sizeof body; i++)
		n += snprintf(body + n, sizeof body - (size_t)n,
			      "%s'zoned-throughput.csv' skip 1 using 1:%d with "
			      "linespoints lw 2 pt 7 ps 0.8 lc rgb '%s' title "
			      "'zones on %u of %u units'", i ? ", \\\n     " : "",
			      i + 2, color[i % 6], w->zu[i], w->units);
	if (n < 0 || (size_t)n >= sizeof body)
		return SSD_ERANGE;
	int rc = ssd_scn_plot(s, "zoned-throughput", "Zoned drive: throughput "
			      "against open zones and zone-to-unit mapping", body);
	if (rc)
		return rc;
	char kib[24];
	snprintf(body, sizeof body,
		 "set xlabel 'zone filled, %% of its capacity'\n"
		 "set ylabel 'latency, ms (log scale)'\nset logscale y 10\n"
		 "set xrange [-5:105]\nset xtics 25\nset format y '%%g'\n"
		 "plot 'zoned-occupancy.csv' skip 1 using 1:($4 > 0 ? $4 : NaN) "
		 "with linespoints lw 2 pt 7 lc rgb '#1f5fbf' title 'reset', \\\n"
		 "     '' skip 1 using 1:($8 > 0 ? $8 : NaN) with linespoints lw 1.5 "
		 "dt 2 pt 6 lc rgb '#1f5fbf' title '%s burst behind the reset', \\\n"
		 "     '' skip 1 using 1:($9 > 0 ? $9 : NaN) with linespoints lw 2 "
		 "pt 5 lc rgb '#d95f02' title 'finish, zone_finish = pad', \\\n"
		 "     '' skip 1 using 1:($11 > 0 ? $11 : NaN) with linespoints lw 2 "
		 "pt 9 lc rgb '#1b9e77' title 'finish, zone_finish = mark'",
		 ssd_fmt_bytes(o->burst, kib, sizeof kib));
	return ssd_scn_plot(s, "zoned-occupancy", "Zoned drive: reset and "
			    "finish against occupancy", body);
}

static void write_json(struct ssd_scn *s, const struct sweep *w,
		       const struct occ *o, uint64_t volume)
{
	ssd_scn_json_int(s, "units", w->units);
	ssd_scn_json_int(s, "point_bytes", (int64_t)volume);
	ssd_scn_json_open(s, "throughput", 1);
	for (int i = 0; i < w->nzu; i++) {
		ssd_scn_json_open(s, NULL, 0);
		ssd_scn_json_int(s, "zone_units", w->zu[i]);
		ssd_scn_json_int(s, "groups", w->units / w->zu[i]);
		ssd_scn_json_int(s, "zone_capacity", (int64_t)w->cap[i]);
		ssd_scn_json_int(s, "zones", w->nzones[i]);
		ssd_scn_json_num(s, "full_at_open_zones",
				 w->full_at[i] < 0 ? NAN : w->k[w->full_at[i]]);
		ssd_scn_json_open(s, "points", 1);
		for (int j = 0; j < w->nk; j++) {
			ssd_scn_json_open(s, NULL, 0);
			ssd_scn_json_int(s, "open_zones", w->k[j]);
			ssd_scn_json_num(s, "mbps", w->mbps[i][j]);
			ssd_scn_json_close(s, 0);
		}
		ssd_scn_json_close(s, 1);
		ssd_scn_json_close(s, 0);
	}
	ssd_scn_json_close(s, 1);
	ssd_scn_json_open(s, "occupancy_zone", 0);
	ssd_scn_json_int(s, "zone_units", o->zone_units);
	ssd_scn_json_int(s, "groups", o->groups);
	ssd_scn_json_int(s, "zones", o->nzones);
	ssd_scn_json_int(s, "zone_capacity", (int64_t)o->cap);
	ssd_scn_json_int(s, "blocks_per_unit", o->blocks);
	ssd_scn_json_int(s, "burst_bytes", (int64_t)o->burst);
	ssd_scn_json_close(s, 0);
	ssd_scn_json_open(s, "reset", 1);
	for (int i = 0; i < NLEV; i++) {
		const struct level *l = &o->lv[i];
		ssd_scn_json_open(s, NULL, 0);
		ssd_scn_json_int(s, "filled_pct", level_pct[i]);
		ssd_scn_json_int(s, "held_bytes", (int64_t)l->held);
		ssd_scn_json_int(s, "erases", (int64_t)l->erases);
		ssd_scn_json_num(s, "latency_ms", l->reset_ns / 1e6);
		ssd_scn_json_num(s, "write_alone_ms", l->alone_ns / 1e6);
		ssd_scn_json_num(s, "write_behind_ms", l->behind_ns / 1e6);
		ssd_scn_json_num(s, "burst_alone_ms", l->burst_alone_ns / 1e6);
		ssd_scn_json_num(s, "burst_behind_ms", l->burst_behind_ns / 1e6);
		ssd_scn_json_close(s, 0);
	}
	ssd_scn_json_close(s, 1);
	ssd_scn_json_open(s, "finish", 1);
	for (int i = 0; i < NLEV; i++) {
		const struct level *l = &o->lv[i];
		ssd_scn_json_open(s, NULL, 0);
		ssd_scn_json_int(s, "filled_pct", level_pct[i]);
		ssd_scn_json_num(s, "pad_latency_ms", l->pad_ns / 1e6);
		ssd_scn_json_int(s, "pad_bytes", (int64_t)(l->pad_lp * SSD_LPAGE));
		ssd_scn_json_num(s, "pad_waf", l->held ? (double)(l->held +
				 l->pad_lp * SSD_LPAGE) / (double)l->held : NAN);
		ssd_scn_json_num(s, "mark_latency_ms", l->mark_ns / 1e6);
		ssd_scn_json_int(s, "mark_pad_bytes", (int64_t)(l->mark_lp * SSD_LPAGE));
		ssd_scn_json_close(s, 0);
	}
	ssd_scn_json_close(s, 1);
}

static void summary(struct ssd_scn *s, const struct sweep *w,
		    const struct occ *o, uint32_t bs, uint32_t qd,
		    uint64_t volume)
{
	FILE *out = s->out;
	char a[24], b[24];
	fprintf(out, "zoned on %s (mapping = zone, %u allocation units): %u KiB "
		"writes at QD%u, %s per point\n", s->cfg.name, w->units, bs / 1024,
		qd, ssd_fmt_bytes(volume, a, sizeof a));
	fprintf(out, "  throughput, MB/s, by zones written at once\n");
	fprintf(out, "    zone_units groups  zone cap ");
	for (int j = 0; j < w->nk; j++)
		fprintf(out, " %6u", w->k[j]);
	fprintf(out, "  full at\n");
	int shared = 0;
	for (int i = 0; i < w->nzu; i++) {
		uint32_t groups = w->units / w->zu[i];
		fprintf(out, "    %10u %6u %9s ", w->zu[i], groups,
			ssd_fmt_bytes(w->cap[i], a, sizeof a));
		for (int j = 0; j < w->nk; j++) {
			if (isnan(w->mbps[i][j]))
				fprintf(out, " %6s", "-");
			else
				fprintf(out, " %5.0f%c", w->mbps[i][j],
					w->k[j] > groups ? '*' : ' ');
			shared |= w->k[j] > groups;
		}
		if (w->full_at[i] >= 0)
			fprintf(out, "  %u zone%s\n", w->k[w->full_at[i]],
				w->k[w->full_at[i]] > 1 ? "s" : "");
		else
			fprintf(out, "  -\n");
	}
	double best = 0;
	for (int i = 0; i < w->nzu; i++)
		for (int j = 0; j < w->nk; j++)
			if (w->mbps[i][j] > best)
				best = w->mbps[i][j];
	fprintf(out, "    full at: the fewest open zones within 10%% of the best, "
		"%.0f MB/s\n", best);
	if (shared)
		fprintf(out, "    *: more zones than groups, zones share units\n");
	for (int i = 0; i < w->nzu; i++)
		for (int j = 0; j < w->nk; j++)
			if (isnan(w->mbps[i][j])) {
				fprintf(out, "    -: more zones than the drive's %u "
					"zones of %s hold for the point\n",
					w->nzones[i], ssd_fmt_bytes(w->cap[i], a,
								    sizeof a));
				i = w->nzu;
				break;
			}
	fprintf(out, "  reset, zones of %s on %u units (%u block%s on each)\n",
		ssd_fmt_bytes(o->cap, a, sizeof a), o->zone_units, o->blocks,
		o->blocks > 1 ? "s" : "");
	fprintf(out, "    beside it, writes to another zone on its units: alone, "
		"and behind the reset\n    (submitted with it): one of %u KiB, and "
		"a burst of %s, more than\n    the units' registers hold\n",
		bs / 1024, ssd_fmt_bytes(o->burst, b, sizeof b));
	fprintf(out, "    filled       held  erases       reset     write alone  "
		"behind     burst alone  behind\n");
	for (int i = 0; i < NLEV; i++) {
		const struct level *l = &o->lv[i];
		fprintf(out, "    %5d%% %10s %7llu %8.3f ms %11.3f %7.3f ms %11.3f "
			"%7.3f ms\n", level_pct[i], ssd_fmt_bytes(l->held, a, sizeof a),
			(unsigned long long)l->erases, l->reset_ns / 1e6,
			l->alone_ns / 1e6, l->behind_ns / 1e6,
			l->burst_alone_ns / 1e6, l->burst_behind_ns / 1e6);
	}
	fprintf(out, "  finish, zone_finish = pad against mark\n");
	fprintf(out, "    filled  pad: padded     latency  zone WAF   mark: padded"
		"     latency\n");
	for (int i = 0; i < NLEV; i++) {
		const struct level *l = &o->lv[i];
		char waf[16] = "-";
		if (l->held)
			snprintf(waf, sizeof waf, "%.2f", (double)(l->held +
				 l->pad_lp * SSD_LPAGE) / (double)l->held);
		fprintf(out, "    %5d%% %12s %8.3f ms %9s %14s %8.3f ms\n",
			level_pct[i], ssd_fmt_bytes(l->pad_lp * SSD_LPAGE, a, sizeof a),
			l->pad_ns / 1e6, waf,
			ssd_fmt_bytes(l->mark_lp * SSD_LPAGE, b, sizeof b),
			l->mark_ns / 1e6);
	}
	fprintf(out, "  data and plots    %s/zoned-{throughput,occupancy}."
		"{csv,png,svg}\n", s->outdir);
}

static int run(struct ssd_scn *s)
{
	uint64_t bs = ssd_scn_size(s, "bs", 0);
	uint32_t qd = (uint32_t)ssd_scn_int(s, "iodepth");
	uint64_t unit_pages = (uint64_t)ssd_scn_int(s, "unit_pages");
	uint32_t max_zones = (uint32_t)ssd_scn_int(s, "max_zones");
	uint32_t zone_blocks = (uint32_t)ssd_scn_int(s, "zone_blocks");
	if (!bs || bs % SSD_LPAGE || bs > (16u << 20)) {
		snprintf(s->err, sizeof s->err, "zoned: bs '%s' is not a multiple "
			 "of 4 KiB from 4k to 16m", ssd_scn_str(s, "bs"));
		return SSD_ERANGE;
	}
	if (s->cfg.type == SSD_TYPE_HDD) {
		snprintf(s->err, sizeof s->err, "zoned: drive '%s' is a hard disk "
			 "(type = hdd); a zoned drive here is an SSD's flash in zones "
			 "(mapping = zone; accepted: an SSD drive)", s->cfg.name);
		return SSD_ERANGE;
	}
	struct ssd_config c;
	int rc = zoned_config(s, 0, NULL, 0, &c); /* refused before any run */
	if (rc)
		return rc;
	struct ssd_geometry g;
	ssd_config_geometry(&c, &g);
	uint64_t page_bytes = (uint64_t)g.lp_per_page * SSD_LPAGE;
	uint64_t unit_block = (uint64_t)g.lp_per_block * SSD_LPAGE;
	struct sweep *w = calloc(1, sizeof *w);
	struct occ *o = calloc(1, sizeof *o);
	if (!w || !o) {
		free(w);
		free(o);
		snprintf(s->err, sizeof s->err, "zoned: out of memory");
		return SSD_ENOMEM;
	}
	w->units = g.units;
	uint32_t kmax = max_zones ? max_zones : 2 * g.units;
	if (c.max_open_zones && kmax > c.max_open_zones)
		kmax = c.max_open_zones;
	if (c.max_active_zones && kmax > c.max_active_zones)
		kmax = c.max_active_zones;
	sweep_axes(w, kmax);
	uint64_t volume = unit_pages * w->units * page_bytes;
	volume -= volume % bs;
	if (volume < bs)
		volume = bs;
	rc = sweep_run(s, w, (uint32_t)bs, qd, volume, unit_block);
	if (!rc)
		rc = occupancy(s, o, (uint32_t)bs, zone_blocks, unit_block,
			       page_bytes);
	if (!rc)
		rc = write_csv(s, w, o);
	if (!rc)
		rc = plots(s, w, o, (uint32_t)bs, qd);
	if (!rc) {
		write_json(s, w, o, volume);
		summary(s, w, o, (uint32_t)bs, qd, volume);
	}
	free(w);
	free(o);
	return rc;
}

const struct ssd_scenario ssd_scn_zoned = {
	.name = "zoned",
	.summary = "a zoned drive (NVMe ZNS): throughput against open zones and "
		   "zone-to-unit mapping, reset and finish cost against occupancy",
	.params = params,
	.run = run,
};
