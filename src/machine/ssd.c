/*
 * ssd.c -- the SSD as a node: host commands to FTL operations, with the
 * host link, the write buffer, read-ahead, TRIM and controller-overhead
 * timing (what it models: device.h; its interface: ssd.h).
 */
#include "machine/ssd.h"
#include "machine/vrec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct ssd_blk_ops ssd_drive_ops;

/* A zoned drive follows its zones' state changes: the resets and
 * finishes of a Zone Send, for the FTL to carry out once the send has
 * checked them all. */
static void zone_hook(void *ctx, const struct ssd_zns_event *e)
{
	struct ssd_drive *d = ctx;
	if (e->cause != SSD_ZNS_BY_SEND)
		return;
	if (e->to == SSD_ZNS_ZSE)
		d->zev[d->zev_n++] = e->zone << 1;
	else if (e->to == SSD_ZNS_ZSF && e->action == SSD_ZNS_ACT_FINISH)
		d->zev[d->zev_n++] = e->zone << 1 | 1;
}

/* The random write areas there are (zns.h's default for nr_zrwa). */
static uint32_t zrwa_count(const struct ssd_config *c, const struct ssd_zones *z)
{
	return c->zrwa_zones ? c->zrwa_zones
	       : c->max_active_zones ? c->max_active_zones : z->zones;
}

static void zrwa_free_all(struct ssd_drive *d)
{
	free(d->zslot);
	free(d->zbuf);
	free(d->zfree);
	free(d->zpre);
	free(d->zowner);
}

static int zoned_create(struct ssd_drive *d, const struct ssd_config *c)
{
	struct ssd_zones z;
	int rc = ssd_config_zones(c, &z, NULL, 0);
	if (rc)
		return rc;
	struct ssd_zns_params p = {
		.zone_size = z.size_lp, .zone_cap = z.cap_lp, .nzones = z.zones,
		.max_open = c->max_open_zones, .max_active = c->max_active_zones,
		.max_append = c->zone_append_max / SSD_LPAGE, .read_across = 1,
		.zrwa_size = z.zrwa_lp, .zrwa_fg = z.zrwa_fg_lp,
		.nr_zrwa = c->zrwa_zones};
	d->zsize_lp = z.size_lp;
	d->b.capacity = (uint64_t)z.zones * z.size_lp * SSD_LPAGE;
	d->zev = malloc((size_t)z.zones * sizeof *d->zev);
	if (!d->zev)
		return SSD_ENOMEM;
	if (z.zrwa_lp) {
		uint32_t n = zrwa_count(c, &z);
		d->zrwa_win = 2 * z.zrwa_lp;
		d->nzrwa = n;
		d->zslot = malloc((size_t)z.zones * sizeof *d->zslot);
		d->zbuf = calloc((size_t)n * d->zrwa_win, 1);
		d->zfree = malloc((size_t)n * sizeof *d->zfree);
		d->zpre = malloc((size_t)n * sizeof *d->zpre);
		d->zowner = malloc((size_t)n * sizeof *d->zowner);
		if (!d->zslot || !d->zbuf || !d->zfree || !d->zpre || !d->zowner)
			return SSD_ENOMEM;
		memset(d->zowner, 0xff, (size_t)n * sizeof *d->zowner);
		memset(d->zslot, 0xff, (size_t)z.zones * sizeof *d->zslot);
		for (uint32_t i = 0; i < n; i++)
			d->zfree[d->zfree_n++] = n - 1 - i;
	}
	rc = ssd_zns_create(&p, &d->zns, NULL, 0);
	if (!rc)
		ssd_zns_set_hook(d->zns, zone_hook, d);
	return rc;
}

int ssd_drive_create(const struct ssd_config *c, uint64_t seed,
		     struct ssd_drive **out)
{
	struct ssd_drive *d = calloc(1, sizeof *d);
	if (!d)
		return SSD_ENOMEM;
	d->cfg = *c;
	d->b.ops = &ssd_drive_ops;
	d->b.ssd = d;
	d->b.capacity = c->capacity;
	d->wb_n = (uint32_t)(c->write_buffer / SSD_LPAGE);
	d->ra_n = (uint32_t)(c->read_ahead / SSD_LPAGE);
	d->seq_next = UINT32_MAX;
	d->rd_lpn = SSD_UNMAPPED;
	d->pc_lpn = SSD_UNMAPPED;
	if (d->wb_n) {
		uint32_t h = 2;
		while (h < 2 * d->wb_n)
			h *= 2;
		d->wb_hmask = h - 1;
		d->wb = calloc(d->wb_n, sizeof *d->wb);
		d->wb_lpn = malloc(d->wb_n * sizeof *d->wb_lpn);
		d->wb_mask = calloc(d->wb_n, sizeof *d->wb_mask);
		d->wb_hash = calloc(h, sizeof *d->wb_hash);
		d->wb_in = calloc(d->wb_n, sizeof *d->wb_in);
		if (d->wb_lpn)
			for (uint32_t i = 0; i < d->wb_n; i++)
				d->wb_lpn[i] = SSD_UNMAPPED;
	}
	int rc = SSD_ENOMEM;
	if ((d->wb_n && (!d->wb || !d->wb_lpn || !d->wb_mask || !d->wb_hash ||
			 !d->wb_in)) ||
	    (d->ra_n && !(d->ra_ready = calloc(d->ra_n, sizeof *d->ra_ready))) ||
	    (rc = ssd_ftl_create(c, seed, &d->ftl)) ||
	    (c->mapping == SSD_MAP_ZONE && (rc = zoned_create(d, c)))) {
		ssd_ftl_destroy(d->ftl);
		ssd_zns_destroy(d->zns);
		free(d->zev);
		zrwa_free_all(d);
		free(d->wb);
		free(d->wb_lpn);
		free(d->wb_mask);
		free(d->wb_hash);
		free(d->wb_in);
		free(d->ra_ready);
		free(d);
		return rc;
	}
	d->ctr = ssd_ftl_counters_mut(d->ftl);
	d->special = c->fdp || d->zns;
	if (c->fdp && d->wb_n &&
	    !(d->wb_pid = calloc(d->wb_n, sizeof *d->wb_pid))) {
		ssd_drive_destroy(d);
		return SSD_ENOMEM;
	}
	*out = d;
	return 0;
}

void ssd_drive_mem_add(const struct ssd_config *c, unsigned uses,
		       struct ssd_mem *m)
{
	const struct ssd_drive *d = NULL; /* for sizeof only */
	uint64_t wb_n = c->write_buffer / SSD_LPAGE, ra_n = c->read_ahead / SSD_LPAGE;
	uint64_t h = 2;
	while (h < 2 * wb_n)
		h *= 2;
	struct ssd_zones z;
	if (c->mapping == SSD_MAP_ZONE && !ssd_config_zones(c, &z, NULL, 0)) {
		m->dram += ssd_zns_mem(z.zones) + z.zones * sizeof *d->zev;
		if (z.zrwa_lp) {
			uint64_t n = zrwa_count(c, &z);
			m->dram += z.zones * sizeof *d->zslot +
				   n * (2 * z.zrwa_lp + sizeof *d->zfree +
					sizeof *d->zpre + sizeof *d->zowner);
		}
	}
	if (c->fdp)
		m->dram += wb_n * sizeof *d->wb_pid;
	m->dram += sizeof *d + ra_n * sizeof *d->ra_ready +
		   (wb_n ? wb_n * (sizeof *d->wb + sizeof *d->wb_lpn +
				   sizeof *d->wb_mask + sizeof *d->wb_in) +
			   h * sizeof *d->wb_hash : 0);
	uint64_t ftl = ssd_ftl_mem(c, 0);
	m->ftl += ftl;
	if (!(uses & (SSD_MEM_VERIFY | SSD_MEM_POWER)))
		return;
	struct ssd_geometry g;
	ssd_config_geometry(c, &g);
	uint64_t tags = ssd_ftl_verify_mem(c);
	m->verify += tags + (ssd_config_host_lp(c) + 1) * sizeof(uint32_t); /* the host's record: ssd_verify_attach */
	if (uses & SSD_MEM_POWER)
		m->power += ssd_ftl_mem(c, uses) - ftl - tags;
}

void ssd_drive_destroy(struct ssd_drive *d)
{
	if (!d)
		return;
	ssd_ftl_destroy(d->ftl);
	ssd_zns_destroy(d->zns);
	free(d->zev);
	zrwa_free_all(d);
	free(d->wb_pid);
	free(d->wb);
	free(d->wb_lpn);
	free(d->wb_mask);
	free(d->wb_hash);
	free(d->wb_in);
	free(d->ra_ready);
	free(d);
}

static inline double ssd_min_double(double a, double b)
{
	return a < b ? a : b;
}

/* ns to move len bytes over the host link; 0 when it is unlimited */
static inline int64_t link_ns(const struct ssd_drive *d, uint64_t len)
{
	if (!d->cfg.host_mbps)
		return 0;
	return (int64_t)((len * 1000 + d->cfg.host_mbps - 1) / d->cfg.host_mbps);
}

static void trim_background(struct ssd_drive *d, int64_t t);
static int wb_drain_all(struct ssd_drive *d, int64_t t);

/* The drive has nothing to do from its busy time until t: queued TRIMs
 * (deferred, or a background backlog: with no command to share the
 * controller with, it takes all of it) get the controller first, trim_cost
 * a page, then the FTL's background work gets the rest (ssd_ftl_idle).
 * Returns 0 or the FTL's error, which also sticks to the device (d->err):
 * a drive whose background work broke an invariant fails every later
 * command with it, so no caller can lose it. */
static int idle_gap(struct ssd_drive *d, int64_t t)
{
	if (d->err)
		return d->err;

	int64_t busy = ssd_max64(ssd_max64(d->clk.busy_until, d->wb_last), d->ctl_busy);
	if (t <= busy)
		return 0;
	if (d->wb_held) { /* idle: the buffer drains what it holds */
		int rc = wb_drain_all(d, busy);
		if (rc)
			return rc;
		busy = ssd_max64(busy, d->wb_last);
		if (t <= busy)
			return 0;
	}
	if (d->cfg.trim_mode != SSD_TRIM_IMMEDIATE && ssd_ftl_trim_queued(d->ftl)) {
		int bg = d->cfg.trim_mode == SSD_TRIM_BACKGROUND;
		if (bg)
			trim_background(d, busy); /* its share until now */
		int64_t cost = d->cfg.trim_cost > 0 ? d->cfg.trim_cost : 1;
		uint64_t n = ssd_ftl_trim_work(d->ftl, (uint64_t)((t - busy) / cost));
		busy += (int64_t)n * cost;
		d->ctl_busy = ssd_max64(d->ctl_busy, busy);
		if (bg)
			d->trim_clock = busy;
	}
	if (t > busy)
		d->err = ssd_ftl_idle(d->ftl, busy, t);
	return d->err;
}

/* Background TRIM: the queue advances with trim_bg_share of the
 * controller's time since the last step. */
static void trim_background(struct ssd_drive *d, int64_t t)
{
	if (d->cfg.trim_mode != SSD_TRIM_BACKGROUND || !ssd_ftl_trim_queued(d->ftl)) {
		d->trim_clock = t;
		return;
	}
	if (t <= d->trim_clock)
		return;
	int64_t cost = d->cfg.trim_cost > 0 ? d->cfg.trim_cost : 1;
	double budget = (double)(t - d->trim_clock) * d->cfg.trim_bg_share;
	uint64_t n = (uint64_t)(budget / (double)cost);
	if (n) {
		ssd_ftl_trim_work(d->ftl, n);
		d->trim_clock += (int64_t)((double)n * (double)cost / d->cfg.trim_bg_share);
	}
}

/* Controller time of one host command: cmd_overhead, stretched while a
 * background TRIM backlog takes trim_bg_share of the controller, so the
 * command gets the rest: cmd_overhead / (1 - trim_bg_share), the share
 * counted at most 0.9 (at most 10x slower; a command is never starved). */
static inline int64_t cmd_time(const struct ssd_drive *d)
{
	if (d->cfg.trim_mode != SSD_TRIM_BACKGROUND || !ssd_ftl_trim_queued(d->ftl))
		return d->cfg.cmd_overhead;
	double share = ssd_min_double(d->cfg.trim_bg_share, 0.9);
	return (int64_t)((double)d->cfg.cmd_overhead / (1 - share));
}

/* ---- the write buffer (device.h) ---- */

/* The 512-byte sectors wholly inside bytes [lo, hi) of a 4 KiB page. */
static inline uint8_t wb_sectors(uint32_t lo, uint32_t hi)
{
	uint32_t a = (lo + 511) / 512, b = hi / 512;
	return b > a ? (uint8_t)(((1u << b) - 1) & ~((1u << a) - 1)) : 0;
}

static inline uint32_t wb_hslot(const struct ssd_drive *d, uint32_t lpn)
{
	return (lpn * 2654435761u) & d->wb_hmask;
}

/* The entry holding logical page lpn -- held in part, or given to the
 * FTL whole (then wb_in says until when it is still in DRAM) -- or
 * -1. */
static inline int64_t wb_find(const struct ssd_drive *d, uint32_t lpn)
{
	for (uint32_t h = wb_hslot(d, lpn);; h = (h + 1) & d->wb_hmask) {
		uint32_t e = d->wb_hash[h];
		if (!e)
			return -1;
		if (d->wb_lpn[e - 1] == lpn)
			return e - 1;
	}
}

/* The entry holding lpn in part (waiting to be filled), or -1. */
static inline int64_t wb_find_held(const struct ssd_drive *d, uint32_t lpn)
{
	int64_t e = d->wb_held ? wb_find(d, lpn) : -1;
	return e >= 0 && d->wb_mask[e] != 0xff ? e : -1;
}

static void wb_hold(struct ssd_drive *d, uint32_t e, uint32_t lpn, uint8_t mask)
{
	uint32_t h = wb_hslot(d, lpn);
	while (d->wb_hash[h])
		h = (h + 1) & d->wb_hmask;
	d->wb_hash[h] = e + 1;
	d->wb_lpn[e] = lpn;
	d->wb_mask[e] = mask;
	d->wb_held += mask != 0xff;
	d->wb_hashed++;
	if (d->wb_pid)
		d->wb_pid[e] = (uint16_t)ssd_ftl_placement(d->ftl);
}

/* Entry e holds its page no longer (linear probing's deletion: the
 * entries after it in its run move back into the hole). */
static void wb_release(struct ssd_drive *d, uint32_t e)
{
	uint32_t h = wb_hslot(d, d->wb_lpn[e]);
	while (d->wb_hash[h] != e + 1)
		h = (h + 1) & d->wb_hmask;
	for (uint32_t j = (h + 1) & d->wb_hmask; d->wb_hash[j];
	     j = (j + 1) & d->wb_hmask) {
		uint32_t home = wb_hslot(d, d->wb_lpn[d->wb_hash[j] - 1]);
		/* move j into the hole h unless its home lies in (h, j] */
		if (((j - home) & d->wb_hmask) >= ((j - h) & d->wb_hmask)) {
			d->wb_hash[h] = d->wb_hash[j];
			h = j;
		}
	}
	d->wb_hash[h] = 0;
	d->wb_held -= d->wb_mask[e] != 0xff;
	d->wb_hashed--;
	d->wb_lpn[e] = SSD_UNMAPPED;
	d->wb_mask[e] = 0;
}

/* Drain held entry e at t: the sectors the host did not write come from
 * the old page (a read-modify-write, unless every sector was written),
 * then the page goes to the FTL.  Returns when the whole page was in
 * DRAM (the merge read's end), or a negative error. */
static int64_t wb_drain(struct ssd_drive *d, uint32_t e, int64_t t)
{
	uint32_t lpn = d->wb_lpn[e];
	int64_t r = d->wb_mask[e] == 0xff ? t : ssd_ftl_merge_read(d->ftl, lpn, t);
	uint32_t h = d->wb_pid ? d->wb_pid[e] : 0, now = 0;
	wb_release(d, e);
	if (r < 0)
		return r;
	if (d->wb_pid) { /* the handle it was written with */
		now = ssd_ftl_placement(d->ftl);
		ssd_ftl_set_placement(d->ftl, h);
	}
	int64_t c = ssd_ftl_write(d->ftl, lpn, r);
	if (d->wb_pid)
		ssd_ftl_set_placement(d->ftl, now);
	if (c < 0)
		return c;
	d->wb[e] = c;
	d->wb_last = ssd_max64(c, d->wb_last);
	return r;
}

/* Drain every held page, oldest first, at t (a flush, an idle gap).
 * Returns 0 or a negative error. */
static int wb_drain_all(struct ssd_drive *d, int64_t t)
{
	for (uint32_t i = 0, e = d->wb_head; d->wb_held && i < d->wb_n; i++) {
		if (d->wb_lpn[e] != SSD_UNMAPPED && d->wb_mask[e] != 0xff) {
			int64_t r = wb_drain(d, e, t);
			if (r < 0)
				return (int)r;
		}
		e = e + 1 == d->wb_n ? 0 : e + 1;
	}
	return 0;
}

/* A flush commits what the FTL was given: no later write replaces it in
 * DRAM (the flush programs it as it is). */
static void wb_commit(struct ssd_drive *d)
{
	for (uint32_t e = 0; d->wb_hashed > d->wb_held && e < d->wb_n; e++)
		if (d->wb_lpn[e] != SSD_UNMAPPED && d->wb_mask[e] == 0xff)
			wb_release(d, e);
}

/* A TRIM deallocates [lpn, lpn + n) at t: held pages in it are dropped,
 * their entries free at once; no later write merges into a page the FTL
 * was given before it. */
static void wb_trim(struct ssd_drive *d, uint32_t lpn, uint32_t n, int64_t t)
{
	for (uint32_t e = 0; d->wb_hashed && e < d->wb_n; e++) {
		uint32_t l = d->wb_lpn[e];
		if (l != SSD_UNMAPPED && l >= lpn && l - lpn < n) {
			if (d->wb_mask[e] != 0xff)
				d->wb[e] = t;
			wb_release(d, e);
		}
	}
}

/* One 4 KiB page of a write of bytes [offset, end) whose data is in the
 * controller at `ready`, through the write buffer.  A
 * page the buffer holds takes the data in DRAM (no entry, no program);
 * a page written whole drains at once, a page written in part is held
 * until it is whole or must drain (device.h).  Returns when the host may
 * consider it written, or a negative error. */
static int64_t write_page(struct ssd_drive *d, uint32_t lpn, int64_t ready,
			  uint64_t offset, uint64_t end)
{
	uint64_t base = (uint64_t)lpn * SSD_LPAGE;
	uint32_t lo = offset > base ? (uint32_t)(offset - base) : 0;
	uint32_t hi = end < base + SSD_LPAGE ? (uint32_t)(end - base) : SSD_LPAGE;
	uint8_t mask = lo == 0 && hi == SSD_LPAGE ? 0xff : wb_sectors(lo, hi);
	if (d->wb_hashed) {
		int64_t e = wb_find(d, lpn);
		if (e >= 0 && d->wb_mask[e] != 0xff) { /* merged in DRAM */
			d->ctr->buffer_hits++;
			d->wb_mask[e] |= mask;
			if (d->wb_mask[e] == 0xff) {
				d->wb_held--; /* filled: drains now */
				int64_t r = wb_drain(d, (uint32_t)e, ready);
				if (r < 0)
					return r;
			}
			return ready;
		}
		if (e >= 0 && d->wb_in[e] - ssd_ftl_xfer_lp(d->ftl) >= ready) {
			/* given to the FTL whole but still in DRAM, waiting for
			 * a register: the new data replaces it there, and the
			 * program the FTL has planned carries it -- if it is in
			 * DRAM before the load into the register begins */
			d->ctr->buffer_hits++;
			ssd_ftl_write_replaced(d->ftl, lpn);
			return ready;
		}
		if (e >= 0) /* in a register by now: a new copy */
			wb_release(d, (uint32_t)e);
	}
	uint32_t e = d->wb_head;
	if (d->wb_lpn[e] != SSD_UNMAPPED) { /* the oldest must make room */
		if (d->wb_mask[e] != 0xff) {
			int64_t r = wb_drain(d, e, ready);
			if (r < 0)
				return r;
		} else {
			wb_release(d, e);
		}
	}
	int64_t start = ssd_max64(ready, d->wb[e]);
	if (start == ready)
		d->ctr->buffer_hits++;
	d->wb_head = e + 1 == d->wb_n ? 0 : e + 1;
	if (mask != 0xff) {
		wb_hold(d, e, lpn, mask);
		d->wb[e] = start;
		return start;
	}
	int64_t c = ssd_ftl_write(d->ftl, lpn, start);
	if (c < 0)
		return c;
	d->wb_last = ssd_max64(c, d->wb_last); /* the FIFO drains in order */
	d->wb[e] = d->wb_last;
	if (c > ready) { /* waits in DRAM for its register until c */
		wb_hold(d, e, lpn, 0xff);
		d->wb_in[e] = c;
	}
	return start;
}

/* ---- reads: streaming to the host, and read-ahead (device.h) ---- */

/* The controller sets up the flash read of page l, wanted from t
 * (read_piece_overhead): a page that continues the piece of the last
 * page set up (l - 1, lying physically next to it) goes with that
 * piece; a new piece takes read_piece_overhead of the controller's time
 * after the pieces set up before it, except the first of a command
 * (`first`), which cmd_overhead covers.  Returns when the read may
 * start.  Unmapped pages need no flash read and no set-up. */
static inline int64_t piece_at(struct ssd_drive *d, uint32_t l, int first,
			       int64_t t)
{
	if (!d->cfg.read_piece_overhead ||
	    ssd_ftl_map_slot(d->ftl, l) == SSD_UNMAPPED)
		return t;
	int cont = d->pc_lpn + 1 == l && ssd_ftl_contiguous(d->ftl, d->pc_lpn);
	d->pc_lpn = l;
	d->pc_busy = ssd_max64(t, d->pc_busy);
	if (!cont && !first)
		d->pc_busy += d->cfg.read_piece_overhead;
	return d->pc_busy;
}

/* Read logical page l ahead into the buffer, no earlier than t: the FTL's
 * read, but counted as read-ahead and not as a host read.  An unmapped
 * page is not buffered (a host read of it costs nothing anyway). */
static void ra_fetch(struct ssd_drive *d, uint32_t l, int64_t t)
{
	struct ssd_counters *c = d->ctr;
	uint64_t host = c->host_read_lp, unmapped = c->host_unmapped_read_lp;
	int64_t r = ssd_ftl_read(d->ftl, l, 1, piece_at(d, l, 0, t));
	/* a page the write buffer holds in part is newer than its copy */
	int none = c->host_unmapped_read_lp != unmapped ||
		   wb_find_held(d, l) >= 0;
	c->host_read_lp = host;
	c->host_unmapped_read_lp = unmapped;
	d->ra_ready[l % d->ra_n] = none ? -1 : r;
	c->read_ahead_lp += !none;
}

/* After a read of [lpn, lpn + n) submitted at t: the buffer's pages up to
 * its end are used up; if it continued the previous read (a sequential
 * stream), fill the buffer to read_ahead past its end.  The reads are
 * issued after the command's own, so the dies' and channels' busy-until
 * stamps put them behind it. */
static void read_ahead(struct ssd_drive *d, uint32_t lpn, uint32_t n, int64_t t)
{
	uint32_t end = lpn + n;
	int seq = lpn == d->seq_next;
	d->seq_next = end;
	if (lpn < d->ra_hi && end > d->ra_lo)
		d->ra_lo = end < d->ra_hi ? end : d->ra_hi;
	if (!seq)
		return;
	if (d->ra_lo != end) /* the buffer does not continue this read */
		d->ra_lo = d->ra_hi = end;
	uint64_t cap = d->cfg.capacity / SSD_LPAGE;
	uint64_t want = (uint64_t)end + d->ra_n;
	if (want > cap)
		want = cap;
	for (uint32_t l = d->ra_hi; l < want; l++)
		ra_fetch(d, l, t);
	if (want > d->ra_hi)
		d->ra_hi = (uint32_t)want;
}

/* A write or TRIM of [lpn, lpn + n): buffered copies of it (read-ahead,
 * the page kept after a read in part) are stale.  Without read-ahead
 * the range is empty ([0, 0)) and this is two compares. */
static inline void ra_drop(struct ssd_drive *d, uint32_t lpn, uint32_t n)
{
	if (d->rd_lpn - lpn < n)
		d->rd_lpn = SSD_UNMAPPED;
	if (lpn < d->ra_hi && lpn + n > d->ra_lo)
		d->ra_lo = d->ra_hi = 0;
}

/* A read command: each 4 KiB piece crosses the link once it is in the
 * controller (from NAND, a register or the read-ahead buffer) and the
 * piece before it has crossed.  The link time of the pieces is taken
 * from the running byte count, so with every piece ready at once the
 * command costs exactly link_ns(len) after it, as a single transfer
 * would.  Returns when the last byte has crossed. */
static int64_t read_cmd(struct ssd_drive *d, uint64_t offset, uint32_t len,
			uint32_t lpn, uint32_t n, int64_t t)
{
	int64_t link = d->link_busy, sent = 0;
	int first = 1; /* no flash read set up for this command yet */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t l = lpn + i;
		int64_t r;
		int64_t e;
		if ((e = wb_find_held(d, l)) >= 0) {
			/* written in part, in DRAM: merged with the old page
			 * and drained; the read takes the merged page */
			r = wb_drain(d, (uint32_t)e, t);
			if (r < 0)
				return r;
			d->ctr->host_read_lp++;
		} else if (d->ra_n && l >= d->ra_lo && l < d->ra_hi &&
		    d->ra_ready[l % d->ra_n] >= 0) {
			r = ssd_max64(t, d->ra_ready[l % d->ra_n]);
			d->ctr->host_read_lp++;
			d->ctr->read_ahead_hit_lp++;
		} else if (l == d->rd_lpn) { /* kept in the controller */
			r = ssd_max64(t, d->rd_ready);
			d->ctr->host_read_lp++;
		} else {
			uint64_t unmapped = d->ctr->host_unmapped_read_lp;
			r = ssd_ftl_read(d->ftl, l, 1, piece_at(d, l, first, t));
			first = 0;
			/* read in part (the first or last page of the command):
			 * the controller keeps the page */
			if (((i == 0 && offset % SSD_LPAGE) ||
			     (i + 1 == n && (offset + len) % SSD_LPAGE)) &&
			    d->ctr->host_unmapped_read_lp == unmapped) {
				d->rd_lpn = l;
				d->rd_ready = r;
			}
		}
		uint64_t upto = i + 1 == n ? len : (uint64_t)(l + 1) * SSD_LPAGE - offset;
		int64_t cum = link_ns(d, upto);
		link = ssd_max64(r, link) + (cum - sent);
		sent = cum;
	}
	d->link_busy = link;
	if (d->ra_n)
		read_ahead(d, lpn, n, t);
	return link;
}

static int64_t dev_check(struct ssd_drive *d, int ddir, uint64_t offset,
			 uint32_t len, int64_t t, int64_t done);

/* ---- zone random write areas (docs/zoned.md) ---- */

#define NO_SLOT UINT32_MAX

static inline uint8_t *zrwa_at(const struct ssd_drive *d, uint32_t slot,
			       uint64_t lba)
{
	return &d->zbuf[(size_t)slot * d->zrwa_win + lba % d->zrwa_win];
}

int ssd_drive_zrwa_holds(const struct ssd_drive *d, uint32_t lpn)
{
	if (!d->zslot)
		return 0;
	uint32_t s = d->zslot[lpn / d->zsize_lp];
	return s != NO_SLOT && *zrwa_at(d, s, lpn);
}

/* Zone has just been given an area: a buffer for it. */
static void zrwa_take(struct ssd_drive *d, uint32_t zone)
{
	if (d->zslot && d->zslot[zone] == NO_SLOT &&
	    ssd_zns_zrwa(d->zns, zone, NULL) && d->zfree_n) {
		d->zslot[zone] = d->zfree[--d->zfree_n];
		d->zowner[d->zslot[zone]] = zone;
	}
}

/* Zone no longer has an area (full, reset): its buffer goes back,
 * emptied (what a reset dropped is gone). */
static void zrwa_release(struct ssd_drive *d, uint32_t zone)
{
	uint32_t s = d->zslot ? d->zslot[zone] : NO_SLOT;
	if (s == NO_SLOT || ssd_zns_zrwa(d->zns, zone, NULL))
		return;
	memset(zrwa_at(d, s, 0), 0, d->zrwa_win);
	d->zslot[zone] = NO_SLOT;
	d->zowner[s] = NO_SLOT;
	d->zfree[d->zfree_n++] = s;
}

/* A flush of zone's area committed LBAs [from, from + n): the host's
 * data of each goes to the FTL in order, from DRAM at t; an LBA it never
 * wrote becomes a hole (padding, reads unwritten).  Returns when the
 * last is in a register, or a negative error. */
static int64_t zrwa_commit(struct ssd_drive *d, uint32_t zone, uint64_t from,
			   uint64_t n, int64_t t)
{
	uint32_t s = d->zslot ? d->zslot[zone] : NO_SLOT;
	int64_t done = t;
	for (uint64_t l = from; l < from + n; l++) {
		uint8_t *b = s == NO_SLOT ? NULL : zrwa_at(d, s, l);
		int64_t c;
		if (b && *b) {
			*b = 0;
			c = ssd_ftl_write(d->ftl, (uint32_t)l, t);
		} else {
			c = ssd_ftl_zone_hole(d->ftl, (uint32_t)l, t);
		}
		if (c < 0)
			return c;
		done = ssd_max64(done, c);
	}
	return done;
}

/* A write into a zone with an area: its data stays in DRAM (an LBA
 * written again replaces it there: no flash work), and what its
 * implicit flush commits goes to the FTL.  It completes when its data
 * has crossed the link (with FUA, when what it committed is programmed
 * too).  The timing checks' floor of a write (a register load) does not
 * apply: they are not run on it. */
__attribute__((cold, noinline)) static int64_t zrwa_write(struct ssd_drive *d,
							  int ddir, uint64_t lba,
							  uint64_t n, int64_t t)
{
	uint64_t from, c;
	uint32_t zone = (uint32_t)(lba / d->zsize_lp);
	int rc = ssd_zns_write_commit(d->zns, lba, n, &from, &c);
	if (rc)
		return rc;
	if ((rc = idle_gap(d, t)))
		return rc;
	d->clk.now = t;
	d->clk.host_ios++;
	int64_t overhead = cmd_time(d);
	t = ssd_max64(t, d->ctl_busy);
	uint32_t len = (uint32_t)(n * SSD_LPAGE);
	ra_drop(d, (uint32_t)lba, (uint32_t)n);
	int64_t ready = ssd_max64(t, d->link_busy) + link_ns(d, len);
	d->link_busy = ready;
	uint32_t s = d->zslot[zone];
	for (uint64_t l = lba; s != NO_SLOT && l < lba + n; l++)
		*zrwa_at(d, s, l) = 1;
	int64_t done = ready, e = zrwa_commit(d, zone, from, c, ready);
	if (e < 0)
		return e;
	if ((ddir & SSD_BLK_FUA) && c) {
		int64_t p = ssd_ftl_flush(d->ftl, e);
		if (p < 0)
			return p;
		done = ssd_max64(done, p);
	}
	zrwa_release(d, zone);
	d->ctr->host_write_bytes += len;
	done += overhead;
	if (done > d->clk.busy_until)
		d->clk.busy_until = done;
	return done;
}

/* A command to a zoned drive, checked against its zones (zns.h) before
 * it goes on as any other: a write (or a Zone Append, which it turns
 * into a write at the zone's write pointer) moves the write pointer;
 * reads are allowed up to the zone size (what was never written reads as
 * zeros: unmapped); TRIM is not offered (a zone's reset is its
 * deallocation).  Commands are whole 4 KiB logical blocks.  0 (go on),
 * 1 with *done (a write into a random write area, done here), or the
 * error the command fails with. */
__attribute__((cold, noinline)) static int zoned_cmd(struct ssd_drive *d,
						     int *ddir, uint64_t *offset,
						     uint32_t len, int64_t t,
						     int64_t *done)
{
	uint64_t end = *offset + len;
	if (!len || end > d->b.capacity || end < *offset)
		return SSD_EINVAL;
	if (*offset % SSD_LPAGE || len % SSD_LPAGE)
		return SSD_ZNS_EFIELD;
	uint64_t lba = *offset / SSD_LPAGE, n = len / SSD_LPAGE;
	uint32_t zone = (uint32_t)(lba / d->zsize_lp);
	int dir = *ddir & 0xff, rc;
	if (dir == SSD_DDIR_TRIM)
		return SSD_EUNSUP;
	if (dir == SSD_DDIR_READ) {
		rc = ssd_zns_read(d->zns, lba, n, NULL);
		/* pages of an area are read from DRAM: what the read path
		 * counts as unmapped (no flash read) is host data */
		for (uint64_t l = lba; !rc && d->zslot && l < lba + n; l++)
			d->ctr->host_unmapped_read_lp -=
				(uint64_t)ssd_drive_zrwa_holds(d, (uint32_t)l);
		return rc;
	}
	if (dir != SSD_DDIR_WRITE)
		return SSD_EINVAL;
	if (!(*ddir & SSD_BLK_APPEND)) {
		if (d->zslot && d->zslot[zone] != NO_SLOT) {
			*done = zrwa_write(d, *ddir, lba, n, t);
			return *done < 0 ? (int)*done : 1;
		}
		return ssd_zns_write(d->zns, lba, n);
	}
	uint64_t at;
	rc = ssd_zns_append(d->zns, lba, n, &at);
	if (rc)
		return rc;
	d->append_lba = at;
	*offset = at * SSD_LPAGE;
	*ddir &= ~SSD_BLK_APPEND;
	return 0;
}

/* A command's placement bits (blk.h: placement identifier + 1, 0 for
 * none: the default stream) differ from the last: the FTL's stream
 * follows, on a drive with FDP (another ignores them).  0, or SSD_FDP_EPID for an identifier
 * naming a reclaim group or handle the drive does not have (the command
 * fails, counted and logged as an event, with the command's first 4 KiB
 * page at offset and time t). */
static int placement(struct ssd_drive *d, uint32_t bits, uint64_t offset,
		     int64_t t)
{
	if (bits == d->pid_cur)
		return 0;
	uint32_t s = SSD_FDP_DEFAULT; /* none named */
	if (bits && ssd_ftl_handles(d->ftl)) {
		int32_t named = ssd_ftl_fdp_stream(d->ftl, bits - 1);
		if (named < 0) {
			d->ctr->fdp_bad_pid++;
			ssd_ftl_fdp_event(d->ftl, SSD_FDP_EV_BAD_PID, bits - 1, t,
					  offset / SSD_LPAGE);
			return SSD_FDP_EPID;
		}
		s = (uint32_t)named;
	}
	d->pid_cur = bits;
	ssd_ftl_set_placement(d->ftl, s);
	return 0;
}

int64_t ssd_drive_submit(struct ssd_drive *d, int ddir, uint64_t offset,
			 uint32_t len, int64_t t)
{
	/* one test for a plain drive: placement bits, FDP or zones */
	if (__builtin_expect(((uint32_t)ddir >> 16 | d->special) != 0, 0)) {
		int prc = placement(d, (uint32_t)ddir >> 16, offset, t);
		if (prc)
			return prc;
		ddir &= 0xffff;
		int64_t zdone = 0;
		int zrc = d->zns ? zoned_cmd(d, &ddir, &offset, len, t, &zdone) : 0;
		if (zrc)
			return zrc > 0 ? zdone : zrc;
	}
	uint64_t end = offset + len;
	if (!len || end > d->b.capacity || end < offset)
		return SSD_EINVAL;
	if ((ddir & ~SSD_BLK_FUA) == SSD_DDIR_TRIM && !d->cfg.trim) {
		/* no Data Set Management: aborted before it costs anything,
		 * as a hard disk aborts it (hdd.h) */
		return SSD_EUNSUP;
	}
	int rc = idle_gap(d, t);
	if (rc)
		return rc;
	trim_background(d, t);
	d->clk.now = t;
	d->clk.host_ios++;
	int64_t overhead = cmd_time(d); /* the backlog as of t */
	t = ssd_max64(t, d->ctl_busy); /* a TRIM stall holds every command */
	uint32_t lpn = (uint32_t)(offset / SSD_LPAGE);
	uint32_t n = (uint32_t)((end + SSD_LPAGE - 1) / SSD_LPAGE) - lpn;
	int64_t done;
	int fua = ddir & SSD_BLK_FUA;
	switch (ddir & ~SSD_BLK_FUA) {
	case SSD_DDIR_WRITE: {
		ra_drop(d, lpn, n);
		int64_t ls = ssd_max64(t, d->link_busy);
		int64_t ready = ls + link_ns(d, len);
		d->link_busy = ready;
		done = ready;
		/* partial 4 KiB pages at either end: read-modify-write, now
		 * or (with the write buffer) when the held page drains */
		int64_t head = ready, tail = ready;
		if (!d->wb_n && (offset % SSD_LPAGE || (n == 1 && end % SSD_LPAGE)))
			head = ssd_ftl_merge_read(d->ftl, lpn, ready);
		if (!d->wb_n && n > 1 && end % SSD_LPAGE)
			tail = ssd_ftl_merge_read(d->ftl, lpn + n - 1, ready);
		for (uint32_t i = 0; i < n; i++) {
			int64_t at = i == 0 ? head : i == n - 1 ? tail : ready;
			int64_t c = d->wb_n ? write_page(d, lpn + i, at, offset, end)
				  : ssd_ftl_write(d->ftl, lpn + i, at);
			if (c < 0) {
				/* the pages before i were written: their bytes */
				uint64_t upto = (uint64_t)(lpn + i) * SSD_LPAGE;
				if (upto > offset)
					d->ctr->host_write_bytes += upto - offset;
				return c;
			}
			if (c > done)
				done = c;
		}
		d->ctr->host_write_bytes += len;
		if (fua) {
			/* durable: drained, and its page programmed */
			for (uint32_t i = 0; d->wb_held && i < n; i++) {
				int64_t e = wb_find_held(d, lpn + i);
				int64_t r = e < 0 ? 0 : wb_drain(d, (uint32_t)e, done);
				if (r < 0)
					return r;
			}
			for (uint32_t i = 0; d->wb_hashed && i < n; i++) {
				int64_t e = wb_find(d, lpn + i);
				if (e >= 0) /* programmed as it is */
					wb_release(d, (uint32_t)e);
			}
			int64_t p = ssd_ftl_flush(d->ftl, ssd_max64(done, d->wb_last));
			if (p < 0)
				return p;
			done = ssd_max64(done, p);
		}
		break;
	}
	case SSD_DDIR_READ:
		done = read_cmd(d, offset, len, lpn, n, t);
		if (done < 0)
			return done;
		break;
	case SSD_DDIR_TRIM:
		/* only the pages wholly inside: a page it covers in part keeps
		 * its data (device.h) */
		ssd_blk_trim_pages(offset, len, &lpn, &n);
		if (n)
			ra_drop(d, lpn, n);
		if (n && d->wb_hashed)
			wb_trim(d, lpn, n, t);
		done = ssd_ftl_trim(d->ftl, lpn, n, t);
		if (done < 0)
			return done;
		if (d->cfg.trim_mode == SSD_TRIM_IMMEDIATE) {
			done += (int64_t)n * d->cfg.trim_cost;
			d->ctl_busy = done;
		}
		break;
	default:
		return SSD_EINVAL;
	}
	done += overhead;
	if (done > d->clk.busy_until)
		d->clk.busy_until = done;
	if (__builtin_expect(d->tc.on, 0))
		return dev_check(d, ddir, offset, len, d->clk.now, done);
	return done;
}

void ssd_drive_prefetch(const struct ssd_drive *d, uint64_t offset,
			uint32_t len, int stage)
{
	uint64_t end = offset + len;
	if (!len || end > d->b.capacity || end < offset)
		return;
	uint32_t lpn = (uint32_t)(offset / SSD_LPAGE);
	uint32_t n = (uint32_t)((end + SSD_LPAGE - 1) / SSD_LPAGE) - lpn;
	ssd_ftl_prefetch(d->ftl, lpn, n < 4 ? n : 4, stage);
}

int64_t ssd_drive_flush(struct ssd_drive *d, int64_t t)
{
	int rc = idle_gap(d, t);
	if (rc)
		return rc;
	trim_background(d, t);
	d->clk.now = t;
	int64_t overhead = cmd_time(d);
	if (d->wb_held && (rc = wb_drain_all(d, t)))
		return rc;
	wb_commit(d);
	int64_t done = ssd_ftl_flush(d->ftl, ssd_max64(t, d->wb_last));
	if (done < 0)
		return done;
	done += overhead;
	if (done > d->clk.busy_until)
		d->clk.busy_until = done;
	return d->tc.on ? dev_check(d, SSD_DDIR_SYNC, 0, 0, t, done) : done;
}


/* ---- timing checks (device.h) ---- */

/* The least latency of a command of kind ddir (SSD_DDIR_SYNC: a flush)
 * on this drive, ns, by part: cmd_overhead, the host link, a register
 * load, a program, TRIM work. */
static void dev_floor(const struct ssd_drive *d, int ddir, uint64_t offset,
		      uint32_t len, int64_t part[SSD_TC_N])
{
	const struct ssd_config *c = &d->cfg;
	int fua = ddir & SSD_BLK_FUA;
	for (int i = 0; i < SSD_TC_N; i++)
		part[i] = 0;
	part[SSD_TC_CMD] = c->cmd_overhead;
	switch (ddir & ~SSD_BLK_FUA) {
	case SSD_DDIR_WRITE:
		part[SSD_TC_LINK] = link_ns(d, len);
		part[SSD_TC_LOAD] = !d->wb_n || fua ? d->floor.xfer : 0;
		part[SSD_TC_PROG] = fua ? d->floor.prog : 0;
		break;
	case SSD_DDIR_READ:
		part[SSD_TC_LINK] = link_ns(d, len);
		break;
	case SSD_DDIR_TRIM:
		if (c->trim_mode == SSD_TRIM_IMMEDIATE) {
			uint32_t lpn, n;
			ssd_blk_trim_pages(offset, len, &lpn, &n);
			part[SSD_TC_TRIM] = (int64_t)n * c->trim_cost;
		}
		break;
	}
}

/* A command of kind ddir submitted at t got the completion `done`
 * (>= 0): the rules of device.h's "Timing checks".  Returns done, as the
 * caller should see it. */
__attribute__((cold, noinline)) static int64_t
dev_check(struct ssd_drive *d, int ddir, uint64_t offset, uint32_t len,
	  int64_t t, int64_t done)
{
	int64_t part[SSD_TC_N];
	dev_floor(d, ddir, offset, len, part);
	return ssd_tcheck(&d->tc, d->ftl, d->clk.host_ios, ddir, offset, len,
			  t, done, part);
}

int ssd_drive_idle(struct ssd_drive *d, int64_t until)
{
	int rc = idle_gap(d, until);
	if (until > d->clk.busy_until)
		d->clk.busy_until = until;
	if (until > d->clk.now)
		d->clk.now = until;
	return rc;
}

void ssd_drive_set_check_every(struct ssd_drive *d, uint32_t victims)
{
	ssd_ftl_set_check_every(d->ftl, victims);
	d->tc.on = victims != 0;
	ssd_ftl_floor(d->ftl, &d->floor);
}

/* ---- flexible data placement (docs/fdp.md) ---- */

uint32_t ssd_drive_placement_ids(const struct ssd_drive *d, uint32_t *pids,
				 uint32_t max)
{
	/* as the reclaim unit handle status lists them: each handle in
	 * turn, in every reclaim group */
	uint32_t nh = ssd_ftl_handles(d->ftl), ng = ssd_ftl_fdp_groups(d->ftl);
	for (uint32_t i = 0; i < nh * ng && i < max; i++)
		pids[i] = ssd_ftl_fdp_pid(d->ftl, i % ng * nh + i / ng);
	return nh * ng;
}

int64_t ssd_drive_fdp_update(struct ssd_drive *d, const uint32_t *pids,
			     uint32_t n, int64_t t)
{
	if (!ssd_ftl_handles(d->ftl))
		return SSD_EUNSUP;
	for (uint32_t i = 0; i < n; i++)
		if (ssd_ftl_fdp_stream(d->ftl, pids[i]) < 0)
			return SSD_FDP_EPID;
	int rc = idle_gap(d, t);
	if (rc)
		return rc;
	d->clk.now = t;
	d->clk.host_ios++;
	int64_t overhead = cmd_time(d);
	int64_t done = ssd_ftl_fdp_update(d->ftl, pids, n, t);
	if (done < 0)
		return done;
	done += overhead;
	if (done > d->clk.busy_until)
		d->clk.busy_until = done;
	return done;
}

/* ---- a zoned drive's zone management (docs/zoned.md) ---- */

int ssd_drive_zoned(const struct ssd_drive *d, struct ssd_zoned_info *zi)
{
	if (!d->zns)
		return 0;
	const struct ssd_zns_params *p = ssd_zns_params(d->zns);
	*zi = (struct ssd_zoned_info){
		.zone_size = p->zone_size * SSD_LPAGE,
		.zone_cap = p->zone_cap * SSD_LPAGE, .nzones = p->nzones,
		.max_open = p->max_open, .max_active = p->max_active,
		.lba = SSD_LPAGE, .max_append = p->max_append * SSD_LPAGE};
	return 1;
}

int64_t ssd_drive_zone_send(struct ssd_drive *d, uint32_t *vrec, int action,
			    uint64_t offset, int flags, int64_t t)
{
	if (!d->zns)
		return SSD_EUNSUP;
	if (offset % SSD_LPAGE)
		return SSD_ZNS_EFIELD;
	int rc = idle_gap(d, t);
	if (rc)
		return rc;
	d->clk.now = t;
	d->clk.host_ios++;
	int64_t done = t, overhead = cmd_time(d);
	/* the areas as they are: a finish commits what the host wrote in
	 * one, a reset drops it */
	d->zpre_n = 0;
	for (uint32_t s = 0; s < d->nzrwa; s++) {
		uint32_t z = d->zowner[s];
		uint64_t hi;
		if (z == NO_SLOT || !ssd_zns_zrwa(d->zns, z, &hi))
			continue;
		struct ssd_zone_desc zd;
		ssd_drive_zone_report(d, z, &zd);
		d->zpre[d->zpre_n++] = (struct zrwa_pre){z, zd.wp / SSD_LPAGE, hi};
	}
	d->zev_n = 0;
	struct ssd_zns_done dn;
	rc = ssd_zns_send_flags(d->zns, (enum ssd_zns_action)action,
				offset / SSD_LPAGE, (unsigned)flags, &dn);
	if (rc)
		return rc;
	if (action == SSD_ZNS_ACT_ZRWA_FLUSH) {
		uint32_t zone = (uint32_t)(dn.from / d->zsize_lp);
		int64_t e = zrwa_commit(d, zone, dn.from, dn.lbas, t);
		if (e < 0)
			return e;
		done = ssd_max64(done, e);
	}
	for (uint32_t i = 0; i < d->zev_n; i++) {
		uint32_t zone = d->zev[i] >> 1;
		uint64_t base = zone * d->zsize_lp, hi = 0;
		for (uint32_t k = 0; k < d->zpre_n; k++)
			if (d->zpre[k].zone == zone) {
				if (d->zev[i] & 1) { /* the area's data first */
					int64_t e = zrwa_commit(d, zone, d->zpre[k].wp,
								d->zpre[k].hi -
								d->zpre[k].wp, t);
					if (e < 0)
						return e;
				}
				hi = d->zpre[k].hi - base;
			}
		int64_t e;
		if (d->zev[i] & 1) {
			e = ssd_ftl_zone_finish(d->ftl, zone,
						d->cfg.zone_finish == SSD_ZFINISH_PAD, t);
		} else {
			/* what the zone held reads as zeros from now on */
			uint32_t held = ssd_ftl_zone_written(d->ftl, zone);
			if (hi > held)
				held = (uint32_t)hi; /* its area's data too */
			ra_drop(d, (uint32_t)base, (uint32_t)d->zsize_lp);
			if (d->wb_hashed)
				wb_trim(d, (uint32_t)base, (uint32_t)d->zsize_lp, t);
			if (vrec)
				ssd_vrec_trim(vrec, (uint32_t)base, held);
			e = ssd_ftl_zone_reset(d->ftl, zone, t);
		}
		if (e < 0)
			return e;
		done = ssd_max64(done, e);
	}
	for (uint32_t k = 0; k < d->zpre_n; k++)
		zrwa_release(d, d->zpre[k].zone);
	if (action == SSD_ZNS_ACT_OPEN && !(flags & SSD_ZNS_ALL))
		zrwa_take(d, (uint32_t)(offset / SSD_LPAGE / d->zsize_lp));
	done += overhead;
	if (done > d->clk.busy_until)
		d->clk.busy_until = done;
	if (action == SSD_ZNS_ACT_RESET)
		d->ctr->zone_reset_ns += (uint64_t)(done - t);
	else if (action == SSD_ZNS_ACT_FINISH)
		d->ctr->zone_finish_ns += (uint64_t)(done - t);
	return done;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* A power cut on a zoned drive, after the FTL's (docs/zoned.md): every
 * zone's write pointer where its durable data ends, open zones closed;
 * the random write areas' data, in DRAM, gone (its pages added to
 * pc->touched, for the host's record) unless power-loss protection saved
 * it.  Then each zone's state is held to the FTL's: SSD_ESTATE if they
 * disagree. */
static int zoned_power_cut(struct ssd_drive *d, struct ssd_power_cut *pc)
{
	uint32_t nz = ssd_zns_params(d->zns)->nzones;
	uint64_t extra = 0;
	for (uint32_t z = 0; z < nz; z++) {
		uint64_t hi, base = z * d->zsize_lp;
		uint32_t s = d->zslot ? d->zslot[z] : NO_SLOT;
		if (!pc->save_all && s != NO_SLOT && ssd_zns_zrwa(d->zns, z, &hi))
			for (uint64_t l = base + ssd_ftl_zone_written(d->ftl, z); l < hi; l++)
				extra += *zrwa_at(d, s, l) != 0;
	}
	uint32_t *t = pc->touched;
	if (extra) {
		t = realloc(pc->touched, (pc->ntouched + extra) * sizeof *t);
		if (!t)
			return SSD_ENOMEM;
		pc->touched = t;
	}
	uint64_t n0 = pc->ntouched;
	for (uint32_t z = 0; z < nz; z++) {
		uint64_t hi, base = z * d->zsize_lp;
		uint32_t s = d->zslot ? d->zslot[z] : NO_SLOT;
		uint32_t keep = ssd_ftl_zone_written(d->ftl, z);
		if (!pc->save_all && s != NO_SLOT && ssd_zns_zrwa(d->zns, z, &hi))
			for (uint64_t l = base + keep; l < hi; l++)
				if (*zrwa_at(d, s, l)) {
					t[pc->ntouched++] = (uint32_t)l;
					pc->lost_lp++;
					if (pc->lost && pc->nlost < pc->lost_cap)
						pc->lost[pc->nlost++] = (uint32_t)l;
				}
		ssd_zns_power_cut(d->zns, z, keep, pc->save_all);
		zrwa_release(d, z);
	}
	if (pc->ntouched > n0) /* ascending again */
		qsort(t, pc->ntouched, sizeof *t, cmp_u32);
	return ssd_drive_zones_check(d, NULL, 0);
}

int ssd_drive_zones_check(const struct ssd_drive *d, char *err, size_t n)
{
	char dummy[1];
	if (!n) {
		err = dummy;
		n = sizeof dummy;
	}
	uint32_t nz = ssd_zns_params(d->zns)->nzones;
	for (uint32_t z = 0; z < nz; z++) {
		struct ssd_zns_desc zd;
		ssd_zns_describe(d->zns, z, &zd);
		uint64_t ftl = ssd_ftl_zone_written(d->ftl, z);
		uint64_t want = zd.state == SSD_ZNS_ZSF ? zd.written
			      : zd.state == SSD_ZNS_ZSE ? 0 : zd.wp - zd.zslba;
		if (zd.state != SSD_ZNS_ZSRO && zd.state != SSD_ZNS_ZSO &&
		    ftl != want) {
			snprintf(err, n, "zone %u (%s) has its write pointer at "
				 "%llu, its data ends at %llu", z,
				 ssd_zns_state_name(zd.state),
				 (unsigned long long)want, (unsigned long long)ftl);
			return SSD_ESTATE;
		}
	}
	return ssd_zns_check(d->zns, err, n);
}

int ssd_drive_zone_report(const struct ssd_drive *d, uint32_t zone,
			  struct ssd_zone_desc *out)
{
	if (!d->zns || zone >= ssd_zns_params(d->zns)->nzones)
		return SSD_EINVAL;
	struct ssd_zns_desc z;
	ssd_zns_describe(d->zns, zone, &z);
	*out = (struct ssd_zone_desc){
		.start = z.zslba * SSD_LPAGE, .cap = z.cap * SSD_LPAGE,
		.wp = z.wp == UINT64_MAX ? UINT64_MAX : z.wp * SSD_LPAGE,
		.written = z.written * SSD_LPAGE, .state = z.state,
		.attr = z.attr};
	return 0;
}

uint64_t ssd_drive_append_offset(const struct ssd_drive *d)
{
	return d->append_lba * SSD_LPAGE;
}

/* ---- the drive as a node of the machine (blk.h) ---- */

static int64_t node_submit(struct ssd_blk *b, int ddir, uint64_t offset,
			   uint32_t len, int64_t t)
{
	return ssd_drive_submit(b->ssd, ddir & ~SSD_BLK_DIRECT, offset, len, t);
}

static int64_t node_flush(struct ssd_blk *b, int64_t t)
{
	return ssd_drive_flush(b->ssd, t);
}

static int node_idle(struct ssd_blk *b, int64_t until)
{
	return ssd_drive_idle(b->ssd, until);
}

static int node_stat(const struct ssd_blk *b, int i, struct ssd_blk_stat *s)
{
	const struct ssd_counters *c = b->ssd->ctr;
	switch (i) {
	case 0:
		*s = (struct ssd_blk_stat){"nand_write_bytes",
			(double)c->nand_prog_lp * SSD_LPAGE, "bytes"};
		return 1;
	case 1:
		*s = (struct ssd_blk_stat){"gc_copy_bytes",
			(double)c->gc_copy_lp * SSD_LPAGE, "bytes"};
		return 1;
	case 2:
		*s = (struct ssd_blk_stat){"waf", ssd_counters_waf(c), "ratio"};
		return 1;
	case 3:
		*s = (struct ssd_blk_stat){"erases", (double)c->nand_erase,
			"blocks"};
		return 1;
	case 4:
		*s = (struct ssd_blk_stat){"free_blocks",
			(double)ssd_ftl_free_blocks(b->ssd->ftl), "blocks"};
		return 1;
	}
	return 0;
}

static void node_prefetch(const struct ssd_blk *b, uint64_t offset,
			  uint32_t len, int stage)
{
	ssd_drive_prefetch(b->ssd, offset, len, stage);
}

static int64_t node_zone(struct ssd_blk *b, int action, uint64_t offset,
			 int flags, int64_t t)
{
	return ssd_drive_zone_send(b->ssd, NULL, action, offset, flags, t);
}

static void node_destroy(struct ssd_blk *b)
{
	ssd_drive_destroy(b->ssd);
}

static void node_counters(const struct ssd_blk *b, struct ssd_counters *sum)
{
	const uint64_t *a = (const uint64_t *)b->ssd->ctr;
	uint64_t *z = (uint64_t *)sum;
	for (size_t k = 0; k < sizeof *sum / sizeof *z; k++)
		z[k] += a[k];
}

static void node_health(const struct ssd_blk *b, struct ssd_health *h)
{
	ssd_ftl_health(b->ssd->ftl, h);
}

static const struct ssd_blk_ops ssd_drive_ops = {
	.kind = "ssd",
	.submit = node_submit,
	.flush = node_flush,
	.idle = node_idle,
	.stat = node_stat,
	.prefetch = node_prefetch,
	.destroy = node_destroy,
	.counters = node_counters,
	.health = node_health,
	.zone = node_zone,
};


/* ---- power loss (device.h, docs/power-loss.md) ---- */

int ssd_drive_power_track(struct ssd_drive *d)
{
	int rc = ssd_ftl_power_track(d->ftl, &d->clk.now); /* no cut before it */
	if (!rc)
		d->ptrack = 1;
	return rc;
}

int ssd_drive_power_durable(const struct ssd_drive *d, const uint32_t *lpn,
			    uint32_t n, uint8_t *out)
{
	if (!d->ptrack)
		return SSD_EINVAL;
	return ssd_ftl_power_durable(d->ftl, lpn, n, out);
}

/* What saving n_lp pages of volatile data into SLC-mode pages takes,
 * the dies working in parallel, after the programs already running. */
static int64_t save_time(const struct ssd_drive *d, uint64_t n_lp)
{
	struct ssd_geometry g;
	ssd_config_geometry(&d->cfg, &g);
	uint64_t per_page = g.lp_per_page ? g.lp_per_page : 1;
	uint64_t dies = (uint64_t)d->cfg.channels * d->cfg.dies_per_channel;
	if (!dies)
		dies = 1;
	uint64_t pages = (n_lp + per_page - 1) / per_page;
	uint64_t rounds = (pages + dies - 1) / dies;
	return d->cfg.t_prog + (int64_t)rounds * d->cfg.slc_t_prog;
}

int ssd_drive_power_cut(struct ssd_drive *d, uint32_t *vrec,
			struct ssd_power_cut *pc)
{
	if (!d->ptrack || pc->t < d->clk.now || pc->on < pc->t)
		return SSD_EINVAL;
	int rc;
	/* what DRAM and the registers hold at the cut */
	uint64_t buffered = 0;
	for (uint32_t i = 0; i < d->wb_n; i++)
		buffered += (d->wb_lpn[i] != SSD_UNMAPPED && d->wb_mask[i] != 0xff) ||
			    d->wb[i] > pc->t; /* held in part, or not drained */
	for (size_t i = 0; d->zbuf && i < (size_t)d->nzrwa * d->zrwa_win; i++)
		buffered += d->zbuf[i] != 0; /* the random write areas' data */
	pc->buffered_lp = buffered;
	pc->open_lp = ssd_ftl_open_lp(d->ftl);
	pc->save_ns = save_time(d, buffered + pc->open_lp);
	if (d->cfg.plp) {
		struct ssd_geometry g;
		ssd_config_geometry(&d->cfg, &g);
		/* the write buffer, a page per unit, the random write areas */
		int64_t need = save_time(d, d->wb_n + (uint64_t)g.units * g.lp_per_page +
					 (uint64_t)d->nzrwa * d->zrwa_win);
		pc->hold_ns = d->cfg.plp_hold_up ? d->cfg.plp_hold_up
			    : ssd_max64(2 * need, SSD_MS);
	} else {
		pc->hold_ns = 0;
	}
	pc->save_all = d->cfg.plp && pc->save_ns <= pc->hold_ns;
	/* pages held in part go to the FTL at the cut, as pages it accepted
	 * and had not programmed: saved with the rest, or lost (and counted)
	 * with the registers */
	if (d->wb_held && (rc = wb_drain_all(d, pc->t)))
		return rc;
	rc = ssd_ftl_power_cut(d->ftl, pc);
	if (!rc && d->zns)
		rc = zoned_power_cut(d, pc);
	if (rc) {
		free(pc->unplaced);
		pc->unplaced = NULL;
		return rc;
	}
	/* the controller starts over: nothing in flight, buffers empty */
	int64_t r = pc->ready;
	for (uint32_t i = 0; i < d->wb_n; i++) {
		d->wb[i] = r;
		d->wb_lpn[i] = SSD_UNMAPPED;
		d->wb_mask[i] = 0;
	}
	if (d->wb_n)
		memset(d->wb_hash, 0, ((size_t)d->wb_hmask + 1) * sizeof *d->wb_hash);
	d->wb_held = d->wb_hashed = 0;
	d->wb_last = d->link_busy = d->clk.busy_until = d->clk.now = r;
	d->ctl_busy = d->trim_clock = r;
	d->ra_lo = d->ra_hi = 0;
	d->seq_next = UINT32_MAX;
	d->rd_lpn = SSD_UNMAPPED;
	/* the host's record follows what survived: the pages the cut may
	 * have changed (pc->touched), or every page (pc->full) */
	uint32_t nlp = (uint32_t)(d->b.capacity / SSD_LPAGE);
	uint64_t n = pc->full ? nlp : pc->ntouched;
	for (uint64_t i = 0; i < n; i++) {
		uint32_t l = pc->full ? (uint32_t)i : pc->touched[i];
		uint32_t lp, tag, rec = vrec[l];
		uint32_t st = rec >> 30, cnt = rec & 0x3fffffffu;
		if (ssd_ftl_verify_get(d->ftl, l, &lp, &tag)) {
			if (st != 0 || cnt != (tag & 0x3fffffffu))
				vrec[l] = tag & 0x3fffffffu;
		} else if (st == 0 || st == 3) {
			vrec[l] = cnt | 1u << 30; /* reads as zeros */
		}
	}
	/* what a worn-out drive found no room to place: undefined, as after
	 * a failed write */
	for (uint64_t i = 0; i < pc->unrelocated_lp; i++)
		ssd_vrec_lost(vrec, pc->unplaced[i], 1);
	free(pc->unplaced);
	pc->unplaced = NULL;
	return 0;
}
