/*
 * ftl_wear.c -- endurance, bad blocks, read-only, wear leveling and the
 * drive's health.
 *
 * Wear.  Each block has an endurance drawn around pe_cycles (pe_spread);
 * an erase wears it one cycle (an SLC-mode erase pe_cycles/slc_pe_cycles
 * of one).  An erase past the endurance fails and retires the block; a
 * program of a block within 5% of it may fail, and then the page's data is
 * written again elsewhere and the block is retired once its data has moved.
 * When the good blocks can no longer hold the user capacity plus the GC
 * reserve, the drive turns read-only: writes and trims fail with
 * SSD_EROFS, reads still work, nothing written is lost.  Dynamic wear
 * leveling opens the least-worn free block; static wear leveling moves
 * the data of the least-worn full block when the unit's erase-count spread
 * passes wl_threshold.
 *
 * Spares.  A block is retired (BAD) for good.  Good native blocks beyond
 * what the user data and the GC reserve need are the spares
 * (ftl_spare_left); with none left the drive is read-only.  Retiring a
 * block spreads the units' data limits again (ftl_unit_limits), so worn
 * units take less new data.
 *
 * Wear is counted in 1/1000 of a rated cycle per block (wear[]), the
 * endurance in the same unit (limit[]).
 */
#include "ftl/ftl.h"
#include "ftl/ftl_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- wear and read-only ---- */

/* Spare native blocks left: good ones beyond what the data and the GC
 * reserve need.  The drive is read-only when none is left. */
int64_t ftl_spare_left(const struct ssd_ftl *f)
{
	uint64_t good = (uint64_t)f->nblocks - f->bad -
			(uint64_t)f->units * f->slc_static;
	return (int64_t)good - (int64_t)f->need_blocks;
}

/* Slots unit ui can hold with its GC reserve kept free: its good native
 * blocks less the reserve (gc_fg_blocks + 2). */
uint64_t ftl_unit_cap(const struct ssd_ftl *f, uint32_t ui)
{
	uint64_t good = f->unit[ui].good_native, reserve = f->reserve;
	return good > reserve ? (good - reserve) * f->spb : 0;
}

/* Spread the user capacity over the units (see "Unit balance" in ftl.h):
 * limit = min(cap, L), with L the smallest level at which the limits add
 * up to the user capacity plus, per unit, half of the mean headroom
 * (cap - fair share) and at least two pages.  Water-filling by
 * bisection: O(units * 32). */
void ftl_unit_limits(struct ssd_ftl *f)
{
	uint64_t sum = 0, hi = 0;
	for (uint32_t ui = 0; ui < f->units; ui++) {
		uint64_t cap = ftl_unit_cap(f, ui);
		sum += cap;
		if (cap > hi)
			hi = cap;
	}
	uint64_t head = sum > f->nlp ? (sum - f->nlp) / f->units : 0;
	uint64_t slack = head / 2 > 2 * f->spp ? head / 2 : 2 * f->spp;
	uint64_t target = f->nlp + slack * f->units, lo = 0, top = hi;
	while (lo < top) { /* the smallest L with sum(min(cap, L)) >= target */
		uint64_t mid = lo + (top - lo) / 2, t = 0;
		for (uint32_t ui = 0; ui < f->units; ui++)
			t += min_u64(ftl_unit_cap(f, ui), mid);
		if (t >= target)
			top = mid;
		else
			lo = mid + 1;
	}
	for (uint32_t ui = 0; ui < f->units; ui++)
		f->ulimit[ui] = (uint32_t)min_u64(ftl_unit_cap(f, ui), lo);
}

/* The drive cannot take more host data: read-only when blocks have worn
 * out (the end of life the spare exists for); with every block good it
 * is a defect of the FTL, reported as such.  Returns the code to pass
 * up. */
int ftl_no_room(struct ssd_ftl *f, uint32_t ui, const char *what)
{
	if (f->bad || f->ctr.prog_fail || f->ctr.erase_fail) {
		f->readonly = 1;
		f->check_due = 1;
		f->ctr.ro_reject++;
		return SSD_EROFS;
	}
	if (!f->err_msg[0])
		snprintf(f->err_msg, sizeof f->err_msg,
			 "%s in unit %u (%u of %u slots valid, %u free blocks)",
			 what, ui, f->uvalid[ui], f->ulimit[ui],
			 f->unit[ui].nfree);
	if (!f->check_failed) {
		snprintf(f->check_msg, sizeof f->check_msg, "%s", f->err_msg);
		ftl_set_check_failed(f, f->check_every != 0);
	}
	return SSD_ESTATE;
}

void ftl_retire(struct ssd_ftl *f, struct ssd_unit *u, uint32_t blk)
{
	struct ftl_wl_bound *wb = &f->wlb[ssd_udiv(blk, f->div_bpu)];
	if (wb->ok && f->wear[blk] == wb->lo && !--wb->lo_n)
		wb->ok = 0;
	f->state[blk] = SSD_BLK_BAD;
	f->bad++;
	if (!is_static_slc(f, blk))
		u->good_native--;
	/* New data goes less to the worn unit; what it holds beyond its new
	 * limit leaves it as the host overwrites it.  If its GC stops making
	 * progress first, that unit has worn out: ftl_no_room() turns the drive
	 * read-only. */
	ftl_unit_limits(f);
	if (ftl_spare_left(f) < 0)
		f->readonly = 1;
	f->check_due = 1;
}

/* A good block's wear rises from old to its current value (an erase). */
void ftl_wl_erased(struct ssd_ftl *f, uint32_t ui, uint32_t blk, uint32_t old)
{
	struct ftl_wl_bound *wb = &f->wlb[ui];
	if (!wb->ok)
		return;
	if (old == wb->lo && !--wb->lo_n)
		wb->ok = 0;
	if (f->wear[blk] > wb->hi)
		wb->hi = f->wear[blk];
}

/* Static wear leveling: every WL_CHECK_EVERY erases of a unit, find its
 * least- and most-worn good blocks; if the spread passes wl_threshold
 * cycles, the least-worn full native block (cold data) is the next
 * victim, so its block re-enters circulation.  The scan visits every
 * block of the unit, so it runs only when the unit's wear bounds (kept up
 * by each erase) leave a spread above the threshold possible: on a drive
 * worn evenly the check costs O(1), whatever its size. */
void ftl_wl_check(struct ssd_ftl *f, uint32_t ui)
{
	struct ssd_unit *u = &f->unit[ui];
	if (!f->cfg.wl_static || ++u->erases % WL_CHECK_EVERY ||
	    u->wl_victim != SSD_NO_BLOCK)
		return;
	uint64_t thr = 1000ull * f->cfg.wl_threshold;
	struct ftl_wl_bound *wb = &f->wlb[ui];
	if (wb->ok && wb->hi - wb->lo <= thr)
		return; /* no full block can be thr below the most worn */
	uint32_t lo = SSD_NO_BLOCK, hi = 0, min = UINT32_MAX, min_n = 0;
	for (uint32_t b = ui * f->bpu; b < (ui + 1) * f->bpu; b++) {
		if (f->state[b] == SSD_BLK_BAD)
			continue;
		uint32_t w = f->wear[b];
		if (w > hi)
			hi = w;
		if (w < min) {
			min = w;
			min_n = 0;
		}
		min_n += w == min;
		if (f->state[b] == SSD_BLK_FULL && !ssd_flash_slc(&f->flash, b) &&
		    (lo == SSD_NO_BLOCK || w < f->wear[lo]))
			lo = b;
	}
	*wb = (struct ftl_wl_bound){.lo = min, .lo_n = min_n, .hi = hi,
				    .ok = min_n > 0};
	if (lo != SSD_NO_BLOCK && hi - f->wear[lo] > thr)
		u->wl_victim = lo;
}

/* Each block's endurance, in 1/1000 cycles: pe_cycles times 1 + spread *
 * z, z standard normal (Box-Muller) clipped to +-3, from the run's seed. */
void ftl_draw_limits(struct ssd_ftl *f)
{
	double pe = f->cfg.pe_cycles, sd = f->cfg.pe_spread;
	for (uint32_t b = 0; b < f->nblocks; b++) {
		double u1 = ssd_rng_unit(&f->rng), u2 = ssd_rng_unit(&f->rng);
		double z = sqrt(-2 * log(1 - u1)) * cos(6.283185307179586 * u2);
		if (z > 3)
			z = 3;
		if (z < -3)
			z = -3;
		double l = 1000 * pe * (1 + sd * z);
		f->limit[b] = l < 1000 ? 1000 : l > 4e9 ? 4000000000u : (uint32_t)l;
	}
}

void ssd_ftl_health(const struct ssd_ftl *f, struct ssd_health *h)
{
	memset(h, 0, sizeof *h);
	const struct ssd_flash *fl = &f->flash;
	ssd_flash_erase_stats(fl, &h->erase_min, &h->erase_mean, &h->erase_max);
	uint32_t span = h->erase_max - h->erase_min + 1;
	h->erase_hist_lo = h->erase_min;
	h->erase_hist_width = (span + SSD_WEAR_BINS - 1) / SSD_WEAR_BINS;
	uint64_t wear_sum = 0, wear_max = 0;
	for (uint32_t b = 0; b < f->nblocks; b++) {
		h->erase_hist[(ssd_flash_erases(fl, b) - h->erase_min) / h->erase_hist_width]++;
		wear_sum += f->wear[b];
		if (f->wear[b] > wear_max)
			wear_max = f->wear[b];
		if (f->state[b] == SSD_BLK_FULL || f->state[b] == SSD_BLK_OPEN ||
		    f->state[b] == SSD_BLK_VICTIM)
			if (ssd_flash_slc(fl, b))
				h->slc_cache_bytes += (uint64_t)f->valid[b] * SSD_LPAGE;
	}
	double rated = 1000.0 * f->cfg.pe_cycles;
	h->percentage_used = 100.0 * ((double)wear_sum / f->nblocks) / rated;
	h->max_wear_pct = 100.0 * (double)wear_max / rated;
	int64_t spare = ftl_spare_left(f);
	h->spare_blocks = spare > 0 ? (uint64_t)spare : 0;
	h->available_spare = f->spare_initial
		? 100.0 * (double)h->spare_blocks / (double)f->spare_initial : 0;
	h->bad_blocks = f->bad;
	h->erase_failures = f->ctr.erase_fail;
	h->program_failures = f->ctr.prog_fail;
	h->read_only = f->readonly;
	h->host_bytes_written = f->ctr.host_write_bytes ? f->ctr.host_write_bytes
		: f->ctr.host_write_lp * SSD_LPAGE;
	h->host_bytes_read = f->ctr.host_read_lp * SSD_LPAGE;
	h->nand_bytes_written = f->ctr.nand_prog_lp * SSD_LPAGE;
}

void ssd_ftl_erase_stats(const struct ssd_ftl *f, uint32_t *min,
			 double *mean, uint32_t *max)
{
	ssd_flash_erase_stats(&f->flash, min, mean, max);
}
