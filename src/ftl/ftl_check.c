/*
 * ftl_check.c -- the invariant checker.
 *
 * ssd_ftl_check verifies, in O(physical slots), everything the FTL's
 * books promise: l2p and p2l are inverses over the valid slots, every
 * valid page is mapped once, per-block and per-unit valid counts add up,
 * block states agree with the NAND's programmed pages and modes, the
 * free lists, fold queues and pending-erase lists hold exactly the
 * blocks they should, the spares and unit limits are consistent, and
 * the GC policy's index matches the candidates.
 *
 * Time.  With the checker on, the flash backend accounts every
 * operation (flash.h, "Timing accounting"): no die, unit or channel runs
 * two operations at once or starts one before its input is ready, and
 * none was busy longer than the time that passed.  ssd_ftl_check reports
 * the first rule the backend saw broken, before anything else.  The
 * FTL's reads, merge reads and flushes are held to the flash work of
 * the road they took (ftl_check_floor): a read that did an array read
 * returns no sooner than the shortest tR and a transfer after its input,
 * a flush that programmed a padded page no sooner than the shortest
 * tPROG, and nothing returns before its input.  The host interface adds
 * the commands' own bounds (device.h) and reports what it finds through
 * ssd_ftl_check_report.
 *
 * When.  With check_every set the full check runs after every
 * check_every GC victims, at the end of any call in which a program
 * failed, a block was retired or the drive turned read-only, or the
 * flash saw a timing rule broken (check_due), and at every
 * ssd_ftl_audit (the job runner's end of every job).  The first failure
 * is kept in check_msg, with the count of checks, GC victims, host pages
 * and flash operations so far, and makes the drive's calls fail with
 * SSD_ESTATE.
 */
#include "ftl/ftl.h"
#include "ftl/ftl_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the drive had done when a check failed, appended to check_msg:
 * with the seed and the workload it finds the moment again. */
static void check_context(struct ssd_ftl *f)
{
	size_t n = strlen(f->check_msg);
	const struct ssd_flash_acct *a = f->flash.acct;
	if (n + 1 < sizeof f->check_msg)
		snprintf(f->check_msg + n, sizeof f->check_msg - n,
			 " [check %" PRIu64 ", %" PRIu64 " GC victims, %" PRIu64
			 " host pages written, %" PRIu64 " read, %" PRIu64
			 " flash operations]", f->check_runs, f->ctr.gc_victims,
			 f->ctr.host_write_lp, f->ctr.host_read_lp,
			 a ? a->ops : 0);
}

void ftl_check_run(struct ssd_ftl *f)
{
	if (!f->check_every || f->check_failed)
		return;
	f->check_runs++;
	if (ssd_ftl_check(f, f->check_msg, sizeof f->check_msg)) {
		check_context(f);
		ftl_set_check_failed(f, 1);
	}
}

int ssd_ftl_audit(struct ssd_ftl *f)
{
	ftl_check_run(f);
	return f->check_failed ? SSD_ESTATE : 0;
}

void ssd_ftl_check_report(struct ssd_ftl *f, const char *msg)
{
	if (!f->check_every || f->check_failed)
		return;
	snprintf(f->check_msg, sizeof f->check_msg, "%s", msg);
	check_context(f);
	ftl_set_check_failed(f, 1);
}

void ftl_check_floor(struct ssd_ftl *f, const char *what, uint32_t lpn,
		     uint32_t n, int64_t t, int64_t done, int64_t floor,
		     const char *why)
{
	if (done < 0 || f->check_failed)
		return;
	char msg[sizeof f->check_msg], pages[48] = "";
	if (n)
		snprintf(pages, sizeof pages, " of lpn %u (%u page%s)", lpn, n,
			 ssd_plural(n));
	if (done < t)
		snprintf(msg, sizeof msg, "%s%s with its input at %" PRId64
			 " ns returns at %" PRId64 " ns, before it", what, pages,
			 t, done);
	else if (done - t < floor)
		snprintf(msg, sizeof msg, "%s%s with its input at %" PRId64
			 " ns returns at %" PRId64 " ns, %" PRId64 " ns later: less "
			 "than the %" PRId64 " ns of %s", what, pages, t, done,
			 done - t, floor, why);
	else
		return;
	ssd_ftl_check_report(f, msg);
}

void ssd_ftl_floor(const struct ssd_ftl *f, struct ssd_ftl_floor *out)
{
	ssd_flash_min_times(&f->flash, f->slc_static || f->slc_max, &out->read,
			    &out->prog);
	out->xfer = f->flash.xfer_lp;
}

void ssd_ftl_fault_timing(struct ssd_ftl *f, int what, uint32_t index,
			  int64_t ns)
{
	ssd_flash_fault(&f->flash, what, index, ns);
}

/* ---- invariant checker ---- */

#define FAIL(...)                                                          \
	do {                                                               \
		snprintf(err, errlen, __VA_ARGS__);                        \
		free(count);                                               \
		return SSD_ESTATE;                                         \
	} while (0)

static const struct ssd_wp *wp_of(const struct ssd_ftl *f, uint32_t b)
{
	const struct ssd_unit *u = &f->unit[ssd_ftl_unit_of(f, b)];
	return u->host.blk == b ? &u->host : u->host_slc.blk == b ? &u->host_slc
		: u->gc.blk == b ? &u->gc : f->fdp ? ftl_fdp_wp_of(f, b) : NULL;
}

static int pending(const struct ssd_ftl *f, const struct ssd_unit *u,
		   uint32_t blk)
{
	uint32_t k = 0;
	for (uint32_t b = u->pend_head; b != SSD_NO_BLOCK && k++ <= f->bpu;
	     b = f->next[b])
		if (b == blk)
			return 1;
	return 0;
}

int ssd_ftl_check(const struct ssd_ftl *f, char *err, size_t errlen)
{
	uint32_t *count = calloc(f->nblocks, sizeof *count);
	if (!count) {
		snprintf(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	const struct ssd_flash *fl = &f->flash;
	/* time first: the first broken timing rule is what to report */
	int rc = ssd_flash_check_timing(fl, err, errlen);
	if (rc) {
		free(count);
		return rc;
	}
	uint64_t mapped = 0;
	for (uint32_t lpn = 0; lpn < f->nlp; lpn++) {
		uint32_t s = f->l2p[lpn];
		if (s == SSD_UNMAPPED)
			continue;
		mapped++;
		if (s >= f->nblocks * f->spb || f->p2l[s] != lpn ||
		    !ssd_bit_test(f->vbits, s))
			FAIL("l2p[%u]=%u but p2l does not point back", lpn, s);
	}
	if (mapped != f->mapped)
		FAIL("%llu pages mapped, counter says %llu",
		     (unsigned long long)mapped, (unsigned long long)f->mapped);
	uint64_t valid_sum = 0, bad = 0;
	for (uint32_t b = 0; b < f->nblocks; b++) {
		uint32_t programmed = ssd_flash_next_page(fl, b) * f->spp;
		const struct ssd_wp *w = wp_of(f, b);
		for (uint32_t i = 0; i < f->spb; i++) {
			uint32_t s = b * f->spb + i, l = f->p2l[s];
			if (!ssd_bit_test(f->vbits, s))
				continue;
			if (l >= f->nlp || f->l2p[l] != s)
				FAIL("p2l[%u]=%u but l2p does not point back", s, l);
			if (i >= blk_slots(f, b))
				FAIL("slot %u of block %u is beyond its mode's pages", i, b);
			if (i >= programmed && (f->bm ? !ftl_bm_open_slot(f, b, i) :
					     f->zn ? !ftl_zone_open_slot(f, b, i) :
			    (!w || i >= w->next || i / f->spp != programmed / f->spp)))
				FAIL("slot %u of block %u holds data but its page is not programmed", i, b);
			count[b]++;
		}
		if (count[b] != f->valid[b])
			FAIL("block %u: valid=%u but %u slots are mapped", b,
			     f->valid[b], count[b]);
		valid_sum += count[b];
		if (is_static_slc(f, b) && !ssd_flash_slc(fl, b))
			FAIL("static SLC block %u is not in SLC mode", b);
		const struct ssd_unit *u = &f->unit[ssd_ftl_unit_of(f, b)];
		switch (f->state[b]) {
		case SSD_BLK_FREE:
			if (count[b] || ssd_flash_next_page(fl, b))
				FAIL("free block %u is not erased", b);
			if (ssd_flash_slc(fl, b) && !is_static_slc(f, b))
				FAIL("free block %u is left in SLC mode", b);
			break;
		case SSD_BLK_FULL:
			/* (or closed by an FDP handle update) */
			if (ssd_flash_next_page(fl, b) != ssd_flash_block_pages(fl, b) &&
			    !(f->fdp && ftl_fdp_early(f, b) && ssd_flash_next_page(fl, b)))
				FAIL("full block %u has %u pages programmed", b,
				     ssd_flash_next_page(fl, b));
			break;
		case SSD_BLK_OPEN:
			if (!w || w->next / f->spp != ssd_flash_next_page(fl, b) ||
			    (w == &u->host_slc) != (ssd_flash_slc(fl, b) != 0))
				FAIL("open block %u does not match its write point", b);
			break;
		case SSD_BLK_VICTIM:
			if (u->victim != b && !pending(f, u, b))
				FAIL("block %u is a victim of no unit", b);
			if (u->victim != b && count[b])
				FAIL("victim %u waits for its erase but holds data", b);
			break;
		case SSD_BLK_RETIRE:
		case SSD_BLK_MAPPED:
			break;
		case SSD_BLK_BAD:
			bad++;
			if (count[b])
				FAIL("bad block %u holds data", b);
			break;
		default:
			FAIL("block %u has bad state %u", b, f->state[b]);
		}
	}
	if (valid_sum != mapped)
		FAIL("%llu valid slots for %llu mapped pages",
		     (unsigned long long)valid_sum, (unsigned long long)mapped);
	if (bad != f->bad)
		FAIL("%llu bad blocks, counter says %llu", (unsigned long long)bad,
		     (unsigned long long)f->bad);
	/* pools and queues: each block at most once, in its own unit, in
	 * the right state */
	memset(count, 0, f->nblocks * sizeof *count);
	for (uint32_t ui = 0; ui < f->units; ui++) {
		const struct ssd_unit *u = &f->unit[ui];
		uint32_t nf = 0, ns = 0, nslc = 0, k = 0, empty = 0;
		for (uint32_t b = u->free_head; b != SSD_NO_BLOCK; b = f->next[b]) {
			if (ssd_ftl_unit_of(f, b) != ui || f->state[b] != SSD_BLK_FREE ||
			    is_static_slc(f, b) || count[b]++ || ++nf > f->bpu)
				FAIL("free list of unit %u is corrupt at block %u", ui, b);
			size_t at = (size_t)ui * f->bpu + (f->fr_head[ui] + nf - 1) % f->bpu;
			if (f->fr_ok && (f->fr_blk[at] != b || f->fr_wear[at] != f->wear[b]))
				FAIL("free ring of unit %u differs from its list at block %u",
				     ui, b);
		}
		const struct ftl_wl_bound *wb = &f->wlb[ui];
		if (wb->ok) { /* the wear bounds hold */
			uint32_t at_lo = 0;
			for (uint32_t b = ui * f->bpu; b < (ui + 1) * f->bpu; b++) {
				if (f->state[b] == SSD_BLK_BAD)
					continue;
				if (f->wear[b] < wb->lo || f->wear[b] > wb->hi)
					FAIL("block %u's wear %u is outside unit %u's "
					     "bounds %u..%u", b, f->wear[b], ui, wb->lo,
					     wb->hi);
				at_lo += f->wear[b] == wb->lo;
			}
			if (at_lo != wb->lo_n)
				FAIL("unit %u has %u blocks at its least wear, its "
				     "bounds say %u", ui, at_lo, wb->lo_n);
		}
		if (nf != u->nfree)
			FAIL("unit %u has %u free blocks listed, counter says %u", ui,
			     nf, u->nfree);
		for (uint32_t b = u->slc_free_head; b != SSD_NO_BLOCK; b = f->next[b]) {
			if (ssd_ftl_unit_of(f, b) != ui || f->state[b] != SSD_BLK_FREE ||
			    !is_static_slc(f, b) || count[b]++ || ++ns > f->bpu)
				FAIL("SLC free list of unit %u is corrupt at block %u", ui, b);
		}
		for (uint32_t b = u->fold_head, p = SSD_NO_BLOCK; b != SSD_NO_BLOCK;
		     p = b, b = f->next[b]) {
			if (ssd_ftl_unit_of(f, b) != ui || f->state[b] != SSD_BLK_FULL ||
			    !ssd_flash_slc(fl, b) || f->prev[b] != p || count[b]++ || ++k > f->bpu)
				FAIL("fold queue of unit %u is corrupt at block %u", ui, b);
			empty += !f->valid[b];
		}
		if (empty != u->slc_empty)
			FAIL("unit %u: %u empty blocks in the fold queue, counter says %u",
			     ui, empty, u->slc_empty);
		for (uint32_t b = u->retire_head; b != SSD_NO_BLOCK; b = f->next[b]) {
			if (ssd_ftl_unit_of(f, b) != ui || f->state[b] != SSD_BLK_RETIRE ||
			    count[b]++)
				FAIL("retire list of unit %u is corrupt at block %u", ui, b);
		}
		if (nf != u->nfree || ns != u->nslc_free)
			FAIL("unit %u: %u+%u blocks in free lists, counters say %u+%u",
			     ui, nf, ns, u->nfree, u->nslc_free);
		for (uint32_t b = ui * f->bpu; b < (ui + 1) * f->bpu; b++)
			if (ssd_flash_slc(fl, b) && f->state[b] != SSD_BLK_FREE &&
			    f->state[b] != SSD_BLK_BAD)
				nslc++;
		if (nslc != u->nslc)
			FAIL("unit %u: %u SLC blocks hold data, counter says %u", ui,
			     nslc, u->nslc);
		uint64_t uv = 0;
		uint32_t gn = 0;
		for (uint32_t b = ui * f->bpu; b < (ui + 1) * f->bpu; b++) {
			uv += f->valid[b];
			gn += f->state[b] != SSD_BLK_BAD && !is_static_slc(f, b);
		}
		if (gn != u->good_native)
			FAIL("unit %u: %u good native blocks, counter says %u", ui,
			     gn, u->good_native);
		if (uv != f->uvalid[ui])
			FAIL("unit %u: %llu valid slots, counter says %u", ui,
			     (unsigned long long)uv, f->uvalid[ui]);
		/* GC can free a block only while the unit's data leaves it
		 * the reserve: past that it would clean without progress */
		if (!f->bad && !f->bm && !f->zn &&
		    uv > ftl_unit_cap(f, ui) + f->spp - 1)
			FAIL("unit %u holds %llu valid slots, more than its good "
			     "blocks hold with the GC reserve (%llu): GC cannot "
			     "make progress", ui, (unsigned long long)uv,
			     (unsigned long long)ftl_unit_cap(f, ui));
	}
	for (uint32_t b = 0; b < f->nblocks; b++) {
		if (f->state[b] == SSD_BLK_FREE && !count[b])
			FAIL("free block %u is in no free list", b);
		if (f->state[b] == SSD_BLK_RETIRE && !count[b] &&
		    f->unit[ssd_ftl_unit_of(f, b)].victim != b)
			FAIL("retiring block %u is in no list", b);
	}
	if (f->gc->check && f->gc->check(&f->gcv, f->gc_state))
		FAIL("the %s policy's index disagrees with the blocks", f->gc->name);
	free(count);
	return f->bm ? ftl_bm_check(f, err, errlen)
	       : f->zn ? ftl_zone_check(f, err, errlen)
	       : f->fdp ? ftl_fdp_check(f, err, errlen) : 0;
}
