/*
 * ftl_power.c -- power loss: what the flash holds when the power goes at
 * time T, and the map rebuilt from it (docs/power-loss.md).
 *
 * The FTL decides where every page goes when the host submits it and the
 * flash backend schedules the work from there, so at any moment part of
 * what the FTL's state says is still in the future: pages whose program
 * has not ended, blocks whose erase has not begun.  A cut at T must see
 * the flash as it is at T.  While tracking is on (ssd_ftl_power_track)
 * two lists keep exactly the events that may still be in the future of
 * a cut: every page program with its end, and every erase with its start
 * and what the block held before (the out-of-band records of its pages:
 * logical page and tag).  A cut is never earlier than the latest
 * submission (the horizon the device passes in), so events that end (a
 * program) or begin (an erase) before the horizon are dropped from the
 * lists when they fill; they stay as long as the work in flight, which
 * is what their size follows.
 *
 * At a cut the flash at T is: for each block, what it held before the
 * first erase that had not begun by T (or what it holds now), restricted
 * to the pages whose program had ended by T.  A program still running
 * leaves its page unreadable and one not begun leaves it erased: either
 * way its data is not there.  Data in the write buffer or in an open page
 * (a cache register) was never programmed: lost, unless the drive has
 * power-loss protection and its stored energy is enough to save it
 * (save_all; the device decides), in which case nothing is lost.
 *
 * Recovery reads the out-of-band records and keeps, for every logical
 * page, the newest copy it finds (the host's tags count writes, so
 * newest is the highest count).  TRIMs are journaled: one is durable once
 * a flush submitted after it has completed by T (or with save_all), and
 * then a page trimmed after its newest surviving copy reads as zeros.
 * The pages whose content changes are the lost ones; the map is set
 * right and a surviving older copy is written again (the model cannot
 * point the map back at a block its future has already erased), the
 * drive's timing starts over at power-on, and the rebuild costs the
 * reads the recovery model needs: every programmed page's out-of-band
 * area (scan), or a summary page per full block and the open blocks page
 * by page (summary), the dies reading in parallel.
 *
 * Flexible data placement: the handles' write points are more write
 * points of their units (wp_at, sup_of), a victim whose copies wait in
 * its handle's own GC write point is erased once they are programmed,
 * and a surviving copy goes back into a block of its page's handle.
 * Zoned drives (zone_cut): a zone keeps the prefix of its data that was
 * programmed by the cut, its write pointer where that ends (ftl_zone.c
 * does the zones' part, machine/ssd.c the zone state machine's).
 */
#include "ftl/ftl.h"
#include "ftl/ftl_int.h"

#include <stdlib.h>
#include <string.h>

#define TAG_COUNT 0x3fffffffu
#define TRIM_HAS 0x80000000u

/* Entries of a unit's wsup: the slots of the lower pages of a wordline
 * (at least one page's, so that an SLC drive's array is not empty). */
static inline uint32_t wsup_cap(const struct ssd_ftl *f)
{
	return (f->bits > 1 ? f->bits - 1 : 1) * f->spp;
}

/* Host write points per unit whose superseded blocks are tracked (sup):
 * the unit's host and host_slc, and with FDP every other handle's host
 * write point (ftl_fdp.c). */
static inline uint32_t nsup(const struct ssd_ftl *f)
{
	return 2 + (f->cfg.fdp ? f->cfg.fdp_handles - 1 : 0);
}

/* The sup entries of w, a host write point of unit ui; NULL for another
 * (a GC write point). */
static uint32_t *sup_of(struct ssd_ftl *f, uint32_t ui, const struct ssd_wp *w)
{
	const struct ssd_unit *u = &f->unit[ui];
	uint32_t k = w == &u->host ? 0 : w == &u->host_slc ? 1
		   : f->fdp ? 1 + ftl_fdp_host_handle(f, ui, w) : 1;
	if (k == 1 && w != &u->host_slc)
		return NULL;
	return f->sup + ((size_t)ui * nsup(f) + k) * f->spp;
}

/* Write point k of unit ui: its host, host_slc and GC write points, then
 * with FDP the other handles' (ftl_fdp_wp); NULL past the last. */
static struct ssd_wp *wp_at(struct ssd_ftl *f, uint32_t ui, uint32_t k)
{
	struct ssd_unit *u = &f->unit[ui];
	if (k < 3)
		return k == 0 ? &u->host : k == 1 ? &u->host_slc : &u->gc;
	return f->fdp ? ftl_fdp_wp(f, ui, k - 3) : NULL;
}

void ftl_power_sup(struct ssd_ftl *f, uint32_t ui, const struct ssd_wp *w,
		   uint32_t old)
{
	uint32_t *sup = sup_of(f, ui, w);
	if (sup)
		sup[w->fill] = old == SSD_UNMAPPED ? SSD_NO_BLOCK
			     : ssd_udiv(old, f->div_spb);
}

static uint64_t cut_mem(const struct ssd_ftl *f);

uint64_t ftl_power_mem(const struct ssd_ftl *f)
{
	uint64_t nlp = f->nlp ? f->nlp : 1, units = f->units;
	uint64_t track = nlp * (sizeof *f->trim_cnt + sizeof *f->trim_ep +
				sizeof *f->trim_floor + sizeof *f->dslot) +
			 units * nsup(f) * f->spp * sizeof *f->sup +
			 (uint64_t)f->nblocks * (sizeof *f->inv_end + sizeof *f->tinv) +
			 units * wsup_cap(f) * sizeof *f->wsup +
			 units * (sizeof *f->wsup_n + sizeof *f->wsup_blk +
				  2 * sizeof *f->vmark);
	return track + cut_mem(f);
}

int ssd_ftl_power_track(struct ssd_ftl *f, const int64_t *horizon)
{
	if (f->ptrack)
		return 0;
	/* the model tracks page-mapped write points, host data apart from
	 * GC copies (a zoned drive copies nothing); the guard of paired
	 * pages covers the unit's own host write point only: the rule is
	 * the config's, so that a tool can refuse the drive before it is
	 * built (ssd_config_power_refusal) */
	char why[200];
	if (ssd_config_power_refusal(&f->cfg, why, sizeof why))
		return SSD_EUNSUP;
	if (!f->vgen || !f->vsrc)
		return SSD_EINVAL; /* the out-of-band records need the tags */
	f->trim_cnt = calloc(f->nlp ? f->nlp : 1, sizeof *f->trim_cnt);
	f->trim_ep = calloc(f->nlp ? f->nlp : 1, sizeof *f->trim_ep);
	f->trim_floor = calloc(f->nlp ? f->nlp : 1, sizeof *f->trim_floor);
	f->sup = malloc((size_t)f->units * nsup(f) * f->spp * sizeof *f->sup);
	f->inv_end = calloc(f->nblocks, sizeof *f->inv_end);
	f->tinv = calloc(f->nblocks, sizeof *f->tinv);
	f->wsup = malloc((size_t)f->units * wsup_cap(f) * sizeof *f->wsup);
	f->wsup_n = calloc(f->units, sizeof *f->wsup_n);
	f->wsup_blk = malloc(f->units * sizeof *f->wsup_blk);
	f->vmark = malloc(2 * (size_t)f->units * sizeof *f->vmark);
	f->dslot = malloc((f->nlp ? f->nlp : 1) * sizeof *f->dslot);
	if (!f->dslot || !f->trim_cnt || !f->trim_ep || !f->trim_floor || !f->sup || !f->inv_end ||
	    !f->tinv || !f->wsup || !f->wsup_n || !f->wsup_blk || !f->vmark) {
		free(f->vmark);
		f->vmark = NULL;
		free(f->dslot);
		f->dslot = NULL;
		free(f->tinv);
		f->tinv = NULL;
		free(f->wsup);
		free(f->wsup_n);
		free(f->wsup_blk);
		f->wsup = f->wsup_n = f->wsup_blk = NULL;
		free(f->trim_cnt);
		free(f->trim_ep);
		free(f->trim_floor);
		free(f->sup);
		free(f->inv_end);
		f->trim_cnt = f->trim_ep = f->trim_floor = f->sup = NULL;
		f->inv_end = NULL;
		return SSD_ENOMEM;
	}
	memset(f->sup, 0xff, (size_t)f->units * nsup(f) * f->spp * sizeof *f->sup);
	memset(f->wsup_blk, 0xff, f->units * sizeof *f->wsup_blk);
	memset(f->vmark, 0xff, 2 * (size_t)f->units * sizeof *f->vmark);
	/* what the drive holds now is durable: no cut comes before */
	memcpy(f->dslot, f->l2p, f->nlp * sizeof *f->dslot);
	f->horizon = horizon;
	f->ptrack = 1;
	for (uint32_t ui = 0; ui < f->units; ui++) {
		struct ssd_wp *w;
		for (uint32_t k = 0; (w = wp_at(f, ui, k)); k++) {
			w->track = 1;
			w->slow = 1;
		}
	}
	return 0;
}

uint64_t ssd_ftl_open_lp(const struct ssd_ftl *f)
{
	uint64_t n = 0;
	struct ssd_ftl *m = (struct ssd_ftl *)f; /* wp_at's, read only here */
	for (uint32_t ui = 0; ui < f->units; ui++) {
		const struct ssd_wp *w;
		for (uint32_t k = 0; (w = wp_at(m, ui, k)); k++)
			n += w->blk != SSD_NO_BLOCK ? w->fill : 0;
	}
	return n + ftl_zone_open_lp(f);
}

int ssd_ftl_power_durable(const struct ssd_ftl *f, const uint32_t *lpn,
			  uint32_t n, uint8_t *out)
{
	if (!f->ptrack || f->ptrack_err)
		return SSD_EINVAL;
	/* the programs of current generations that may end after a cut:
	 * as many as the work in flight, sorted for the lookups */
	uint64_t *pend = malloc((f->pr_n ? f->pr_n : 1) * sizeof *pend);
	if (!pend)
		return SSD_ENOMEM;
	uint32_t np = 0;
	for (uint32_t i = 0; i < f->pr_n; i++) {
		const struct ftl_prog_rec *r = &f->pr[i];
		if (r->end > *f->horizon && r->gen == ssd_flash_erases(&f->flash, r->blk))
			pend[np++] = (uint64_t)r->blk * f->ppb + r->page;
	}
	if (np)
		qsort(pend, np, sizeof *pend, ssd_cmp_u64);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t l = lpn[i], s = l < f->nlp ? f->l2p[l] : SSD_UNMAPPED;
		out[i] = 0;
		if (s == SSD_UNMAPPED || (f->tbits && ssd_bit_test(f->tbits, l)) ||
		    f->vgen[s] != f->vsrc[l])
			continue;
		uint32_t blk = ssd_udiv(s, f->div_spb);
		uint32_t pi = ssd_udiv(s - blk * f->spb, f->div_spp);
		if (pi >= ssd_flash_next_page(&f->flash, blk))
			continue; /* in an open page */
		/* the page, and with paired pages the pages above it in its
		 * wordline (a cut during one of their programs would take
		 * it too): each programmed, and not still programming */
		uint32_t last = pi + 1;
		if (f->cfg.paired_pages != SSD_PAIRED_INDEPENDENT) {
			uint32_t bp = ssd_flash_block_pages(&f->flash, blk);
			while (last < bp && ftl_wl_lower(f, blk, last) != 0)
				last++;
			if (last > ssd_flash_next_page(&f->flash, blk))
				continue; /* its wordline is not complete */
		}
		out[i] = 1;
		for (uint32_t q = pi; q < last && np && out[i]; q++) {
			uint64_t key = (uint64_t)blk * f->ppb + q;
			out[i] = !bsearch(&key, pend, np, sizeof *pend, ssd_cmp_u64);
		}
	}
	free(pend);
	return 0;
}

void ftl_power_free(struct ssd_ftl *f)
{
	free(f->pr);
	free(f->er);
	free(f->er_save);
	free(f->fr);
	free(f->trim_cnt);
	free(f->trim_ep);
	free(f->trim_floor);
	free(f->tlog);
	free(f->sup);
	free(f->inv_end);
	free(f->tinv);
	free(f->wsup);
	free(f->wsup_n);
	free(f->wsup_blk);
	free(f->vmark);
	free(f->dslot);
	free(f->tl);
}


/* How far a tag's count is behind the host's latest write of the page:
 * smaller is newer (counts wrap at 2^30). */
static inline uint32_t tag_age(const struct ssd_ftl *f, uint32_t lpn,
			       uint32_t tag)
{
	return ((f->vsrc[lpn] & TAG_COUNT) - (tag & TAG_COUNT)) & TAG_COUNT;
}

/* Program p can no longer be interrupted by a cut: the copies it wrote
 * become their pages' newest known durable ones (dslot), unless a newer
 * one is; of two copies of one write (a GC copy and its source) the later
 * program's, as a controller's sequence numbers rank them. */
static void fold(struct ssd_ftl *f, const struct ftl_prog_rec *p)
{
	if (p->gen != ssd_flash_erases(&f->flash, p->blk))
		return; /* erased since: what it wrote is gone */
	uint32_t s0 = p->blk * f->spb + p->page * f->spp;
	for (uint32_t s = s0; s < s0 + f->spp && s < (p->blk + 1) * f->spb; s++) {
		uint32_t lpn = f->p2l[s];
		if (lpn >= f->nlp)
			continue;
		uint32_t d = f->dslot[lpn];
		if (d == SSD_UNMAPPED || f->p2l[d] != lpn ||
		    tag_age(f, lpn, f->vgen[s]) <= tag_age(f, lpn, f->vgen[d]))
			f->dslot[lpn] = s;
	}
}

/* Keep the entries of a list that a cut from the horizon on may still
 * see (keep()), in order; grow it when they fill more than half.  Returns
 * 0 or SSD_ENOMEM (tracking then stops being exact: recorded as an error
 * by the caller). */
static int pr_room(struct ssd_ftl *f)
{
	if (f->pr_n < f->pr_cap)
		return 0;
	uint32_t k = 0;
	for (uint32_t i = 0; i < f->pr_n; i++) {
		if (f->pr[i].end > *f->horizon)
			f->pr[k++] = f->pr[i];
		else
			fold(f, &f->pr[i]);
	}
	f->pr_n = k;
	if (k < f->pr_cap / 2 && f->pr_cap)
		return 0;
	struct ftl_prog_rec *p = ssd_grow(f->pr, &f->pr_cap, sizeof *p, 1024);
	if (!p)
		return SSD_ENOMEM;
	f->pr = p;
	return 0;
}

/* The blocks superseded by the writes of unit ui's host wordline that
 * waited for it to complete may be erased from `end` on. */
static void wsup_release(struct ssd_ftl *f, uint32_t ui, int64_t end)
{
	uint32_t *ws = f->wsup + (size_t)ui * wsup_cap(f);
	for (uint32_t i = 0; i < f->wsup_n[ui]; i++)
		if (f->inv_end[ws[i]] < end)
			f->inv_end[ws[i]] = end;
	f->wsup_n[ui] = 0;
	f->wsup_blk[ui] = SSD_NO_BLOCK;
}

void ftl_power_prog(struct ssd_ftl *f, uint32_t ui, const struct ssd_wp *w,
		    int64_t end)
{
	struct ssd_unit *u = &f->unit[ui];
	uint32_t blk = w->blk;
	uint32_t *sup = sup_of(f, ui, w);
	if (sup) {
		/* the blocks this page's writes superseded may be erased
		 * once it is programmed -- and, where the controller guards
		 * paired pages, once its wordline is complete: the entries
		 * wait in wsup until then */
		int hold = w == &u->host && ftl_wl_guard(f) && ftl_wl_open(f, blk);
		uint32_t *ws = f->wsup + (size_t)ui * wsup_cap(f);
		for (uint32_t i = 0; i < f->spp; i++) {
			uint32_t b = sup[i];
			sup[i] = SSD_NO_BLOCK;
			if (b == SSD_NO_BLOCK)
				continue;
			if (hold && f->wsup_n[ui] < wsup_cap(f)) {
				ws[f->wsup_n[ui]++] = b;
				f->wsup_blk[ui] = blk;
			} else if (f->inv_end[b] < end) {
				f->inv_end[b] = end;
			}
		}
		if (w == &u->host && !hold && f->wsup_n[ui])
			wsup_release(f, ui, end);
	}
	ftl_power_page(f, blk, end);
}

void ftl_power_page(struct ssd_ftl *f, uint32_t blk, int64_t end)
{
	uint32_t page = ssd_flash_next_page(&f->flash, blk) - 1;
	if (pr_room(f)) {
		f->ptrack_err = 1;
		return;
	}
	int slc = ssd_flash_slc(&f->flash, blk);
	f->pr[f->pr_n++] = (struct ftl_prog_rec){
		.blk = blk,
		.page = page,
		.gen = ssd_flash_erases(&f->flash, blk),
		.lower = f->cfg.paired_pages != SSD_PAIRED_INDEPENDENT
			 ? ftl_wl_lower(f, blk, page) : 0,
		.start = end - (slc ? f->flash.t_prog_slc : f->flash.t_prog_pg[page]),
		.end = end,
	};
}

static int er_room(struct ssd_ftl *f)
{
	if (f->er_n < f->er_cap)
		return 0;
	size_t per = 2 * (size_t)f->spb;
	uint32_t k = 0;
	for (uint32_t i = 0; i < f->er_n; i++) {
		if (f->er[i].start < *f->horizon)
			continue; /* begun before any cut to come */
		if (k != i) {
			f->er[k] = f->er[i];
			memmove(f->er_save + k * per, f->er_save + i * per,
				per * sizeof *f->er_save);
		}
		k++;
	}
	f->er_n = k;
	if (k < f->er_cap / 2 && f->er_cap)
		return 0;
	/* the records and their saved out-of-band areas, one capacity */
	uint32_t cap = f->er_cap;
	struct ftl_erase_rec *e = ssd_grow(f->er, &cap, sizeof *e, 16);
	if (!e)
		return SSD_ENOMEM;
	f->er = e;
	cap = f->er_cap;
	uint32_t *s = ssd_grow(f->er_save, &cap, per * sizeof *s, 16);
	if (!s)
		return SSD_ENOMEM;
	f->er_save = s;
	f->er_cap = cap;
	return 0;
}

/* A block is erased only once the host writes that superseded its data
 * are programmed: until then it holds the only durable copy of that data
 * (a power-safe controller's ordering; without it a cut loses synced
 * data whose overwrite was in flight).  A superseding write still in an
 * open page has its page programmed now, padded. */
static int64_t erase_after_supersedes(struct ssd_ftl *f, uint32_t blk, int64_t t)
{
	for (uint32_t ui = 0; ui < f->units; ui++) {
		struct ssd_unit *u = &f->unit[ui];
		struct ssd_wp *w;
		for (uint32_t k = 0; (w = wp_at(f, ui, k)); k++) {
			const uint32_t *sup = sup_of(f, ui, w);
			if (!sup || w->blk == SSD_NO_BLOCK || !w->fill)
				continue;
			uint32_t i = 0;
			while (i < w->fill && sup[i] != blk)
				i++;
			if (i == w->fill)
				continue;
			/* the stream of the drive's current handle */
			uint32_t h = k < 2 ? 0 : ftl_fdp_host_handle(f, ui, w);
			int cur = ui == f->cur_unit && h == f->pid;
			if (ftl_wl_pad(f, ui, w, t) >= 0 && cur)
				/* as after a flush: the stream moves on */
				f->cur_unit = ui + 1 >= f->uend ? f->ulo : ui + 1;
		}
		/* a superseding write in a programmed page of an incomplete
		 * wordline (paired pages guarded): the wordline completes
		 * first, padded */
		const uint32_t *ws = f->wsup + (size_t)ui * wsup_cap(f);
		uint32_t i = 0;
		while (i < f->wsup_n[ui] && ws[i] != blk)
			i++;
		if (i < f->wsup_n[ui] && u->host.blk == f->wsup_blk[ui]) {
			int cur = ui == f->cur_unit && f->pid == 0 &&
				  u->host.fill;
			if (ftl_wl_pad(f, ui, &u->host, t) >= 0 && cur)
				f->cur_unit = ui + 1 >= f->uend ? f->ulo : ui + 1;
		}
	}
	return t > f->inv_end[blk] ? t : f->inv_end[blk];
}

/* A TRIM unmapped data of blk and no flush since has completed by t:
 * the controller commits its TRIM journal (a page program on the block's
 * die) before the erase, so that the data cannot come back older than
 * the TRIM.  Returns when the erase may start. */
static int64_t erase_after_trims(struct ssd_ftl *f, uint32_t ui, uint32_t blk, int64_t t)
{
	uint32_t need = f->tinv[blk];
	f->tinv[blk] = 0;
	if (!need || f->fr_base >= need)
		return t;
	for (uint32_t i = 0; i < f->fr_n; i++)
		if (f->fr[i].seq >= need && f->fr[i].done <= t)
			return t;
	int64_t end = ssd_flash_program_raw(&f->flash, ui, t);
	ftl_power_flush(f, end);
	return end;
}

/* FDP, persistent isolation: a cleaned victim's last copies may wait in
 * the open page of its handle's GC write point (ftl_fdp_gc_dest), which
 * the unit's pending list does not follow: that page is programmed
 * (padded) first, on the victim's die, so the erase comes after it. */
static int64_t erase_after_copies(struct ssd_ftl *f, uint32_t ui, uint32_t blk,
				  int64_t t)
{
	struct ssd_wp *w = ftl_fdp_gc_dest(f, ui, blk);
	if (w == &f->unit[ui].gc || w->blk == SSD_NO_BLOCK || !w->fill)
		return t;
	int64_t end = ftl_wp_pad(f, ui, w, t);
	return end > t ? end : t;
}

int64_t ftl_power_erase(struct ssd_ftl *f, uint32_t ui, uint32_t blk, int64_t t)
{
	if (f->fdp && f->state[blk] != SSD_BLK_RETIRE)
		t = erase_after_copies(f, ui, blk, t);
	t = erase_after_supersedes(f, blk, t);
	t = erase_after_trims(f, ui, blk, t);
	if (er_room(f)) {
		f->ptrack_err = 1;
		return t;
	}
	int64_t busy = f->flash.die_busy[ssd_flash_die(&f->flash, ui)];
	uint32_t np = ssd_flash_next_page(&f->flash, blk);
	size_t per = 2 * (size_t)f->spb;
	uint32_t *save = f->er_save + f->er_n * per;
	size_t used = (size_t)np * f->spp;
	if (used > f->spb)
		used = f->spb;
	memcpy(save, f->p2l + (size_t)blk * f->spb, used * sizeof *save);
	memcpy(save + f->spb, f->vgen + (size_t)blk * f->spb, used * sizeof *save);
	f->er[f->er_n++] = (struct ftl_erase_rec){
		.blk = blk,
		.gen = ssd_flash_erases(&f->flash, blk),
		.pages = np,
		.full = np == ssd_flash_block_pages(&f->flash, blk),
		.start = t > busy ? t : busy,
	};
	return t;
}

/* A TRIM of lpn's write `cnt` is durable: the newest such is the floor
 * below which no copy of the page comes back. */
static void floor_raise(struct ssd_ftl *f, uint32_t lpn, uint32_t cnt)
{
	uint32_t fl = f->trim_floor[lpn];
	if (!(fl & TRIM_HAS) || tag_age(f, lpn, cnt) < tag_age(f, lpn, fl))
		f->trim_floor[lpn] = TRIM_HAS | (cnt & TAG_COUNT);
}

/* The TRIM journal.  A page's latest TRIM is kept in trim_cnt/trim_ep;
 * one it replaces goes to the floor when a flush has made it durable
 * before the horizon, else to the log until one does (TRIMs of a page
 * between two flushes). */
void ftl_power_trim(struct ssd_ftl *f, uint32_t lpn, uint32_t n)
{
	for (uint32_t i = lpn; i < lpn + n; i++) {
		uint32_t old = f->trim_cnt[i];
		if (old & TRIM_HAS) {
			if (f->trim_ep[i] < f->fr_base) {
				floor_raise(f, i, old);
			} else {
				if (f->tlog_n == f->tlog_cap) {
					struct ftl_trim_rec *r = ssd_grow(f->tlog, &f->tlog_cap,
									  sizeof *r, 256);
					if (!r) {
						f->ptrack_err = 1;
						return;
					}
					f->tlog = r;
				}
				f->tlog[f->tlog_n++] = (struct ftl_trim_rec){i, old, f->trim_ep[i]};
			}
		}
		if (!(old & TRIM_HAS)) {
			if (f->tl_n == f->tl_cap) {
				uint32_t *t = ssd_grow(f->tl, &f->tl_cap, sizeof *t, 256);
				if (!t) {
					f->ptrack_err = 1;
					return;
				}
				f->tl = t;
			}
			f->tl[f->tl_n++] = i;
		}
		f->trim_cnt[i] = TRIM_HAS | (f->vsrc[i] & TAG_COUNT);
		f->trim_ep[i] = f->flush_seq;
	}
}

/* A TRIM of lpn unmaps its data in slot: the block holding it must not
 * be erased before the TRIM is durable (ftl_power_erase). */
void ftl_power_trim_unmap(struct ssd_ftl *f, uint32_t lpn, uint32_t slot)
{
	uint32_t b = ssd_udiv(slot, f->div_spb), need = f->trim_ep[lpn] + 1;
	if (f->tinv[b] < need)
		f->tinv[b] = need;
}

/* Log entries a flush before the horizon made durable go to the floor. */
static void tlog_fold(struct ssd_ftl *f)
{
	uint32_t k = 0;
	for (uint32_t i = 0; i < f->tlog_n; i++) {
		if (f->tlog[i].ep < f->fr_base)
			floor_raise(f, f->tlog[i].lpn, f->tlog[i].cnt);
		else
			f->tlog[k++] = f->tlog[i];
	}
	f->tlog_n = k;
}

void ftl_power_flush(struct ssd_ftl *f, int64_t done)
{
	f->flush_seq++;
	/* flushes done before the horizon are done before any cut: fold
	 * them into fr_base, keep the rest */
	uint32_t k = 0;
	for (uint32_t i = 0; i < f->fr_n; i++) {
		if (f->fr[i].done <= *f->horizon) {
			if (f->fr[i].seq > f->fr_base)
				f->fr_base = f->fr[i].seq;
		} else {
			f->fr[k++] = f->fr[i];
		}
	}
	f->fr_n = k;
	if (f->tlog_n)
		tlog_fold(f);
	if (f->fr_n == f->fr_cap) {
		struct ftl_flush_rec *r = ssd_grow(f->fr, &f->fr_cap, sizeof *r, 16);
		if (!r) {
			f->ptrack_err = 1;
			return;
		}
		f->fr = r;
	}
	f->fr[f->fr_n++] = (struct ftl_flush_rec){f->flush_seq, done};
}

/* ---- the cut ---- */

/* The state of the whole cut: which pages of the current generation did
 * not finish programming by T (a bitmap over global pages), which of
 * older generations (a short list), the logical pages whose content may
 * change (the need set: a bitmap and the sorted list) and, for each of
 * those, the newest surviving copy (arrays along the list: the memory of
 * a cut follows what it can touch, bitmaps apart). */
struct cut {
	uint64_t *nd;        /* [global page] not durable at T */
	struct ftl_prog_rec *old; /* not durable, of an erased generation */
	uint32_t nold;
	uint64_t *need;      /* [lpn] the current content may not survive */
	uint32_t *list;      /* the need set's pages */
	uint32_t nlist, cap_list;
	uint8_t *found;      /* [list index] a surviving copy was found */
	uint32_t *best;      /* [list index] its tag */
	uint32_t *best_pos;  /* [list index] where it was at T (block * spb + i) */
	uint32_t *best_slot; /* [list index] where it lies now, or
	                        SSD_UNMAPPED: in a block the model has erased
	                        since */
	uint32_t *er_of;     /* [blk] the erase record of its state at T, or
	                        SSD_NO_BLOCK */
	uint8_t *hot;        /* [blk] read already (bounded rebuild) */
	int full_read;       /* every block was read */
	uint64_t *reads;     /* [die] out-of-band reads of the rebuild */
};

/* What ssd_ftl_power_cut's rebuild allocates: its bitmaps and per-block
 * arrays; the records of programs in flight (c.old) and the need set's
 * list and arrays are as long as the work in flight: not counted. */
static uint64_t cut_mem(const struct ssd_ftl *f)
{
	const struct cut *c = NULL;
	uint64_t lw = (f->nlp + 63) / 64 + 1;
	uint64_t pw = ((uint64_t)f->nblocks * f->ppb + 63) / 64 + 1;
	return pw * sizeof *c->nd + lw * sizeof *c->need +
	       (uint64_t)f->nblocks * (sizeof *c->er_of + sizeof *c->hot);
}

static void cut_free(struct cut *c)
{
	free(c->nd);
	free(c->old);
	free(c->need);
	free(c->list);
	free(c->found);
	free(c->best);
	free(c->best_pos);
	free(c->best_slot);
	free(c->er_of);
	free(c->hot);
	free(c->reads);
}

/* 1 if slot s lies in a programmed page of its block (not in an open
 * page, a register's). */
static int slot_programmed(const struct ssd_ftl *f, uint32_t s)
{
	uint32_t blk = ssd_udiv(s, f->div_spb);
	return ssd_udiv(s - blk * f->spb, f->div_spp) <
	       ssd_flash_next_page(&f->flash, blk);
}

/* 1 if the copy in slot s may supersede the other copies of its write
 * (supersede): it lies in a programmed page and, where the controller
 * guards paired pages, not in a wordline whose upper pages are still to
 * be programmed -- a cut during one of those programs would destroy it,
 * and the older copy, in a victim whose erase waits for that wordline
 * (ftl_erase_pending), is what the next recovery finds.  Unguarded, a
 * victim is erased without waiting and flushed data in a lower page may
 * be lost by design: the copy supersedes the others once programmed. */
static int slot_settled(const struct ssd_ftl *f, uint32_t s)
{
	uint32_t blk = ssd_udiv(s, f->div_spb);
	uint32_t pi = ssd_udiv(s - blk * f->spb, f->div_spp);
	uint32_t np = ssd_flash_next_page(&f->flash, blk);
	if (pi >= np)
		return 0; /* in an open page */
	return !ftl_wl_guard(f) || !ftl_wl_open(f, blk) ||
	       pi < np - ftl_wl_lower(f, blk, np);
}

/* The blocks where the recent work lies, read whole by a bounded
 * rebuild: those the program list names, and those being cleaned, open,
 * retired or bad (c->hot). */
static void mark_hot(const struct ssd_ftl *f, struct cut *c)
{
	for (uint32_t i = 0; i < f->pr_n; i++)
		c->hot[f->pr[i].blk] = 1;
	for (uint32_t b = 0; b < f->nblocks; b++) {
		int st = f->state[b];
		if (st == SSD_BLK_VICTIM || st == SSD_BLK_RETIRE ||
		    st == SSD_BLK_BAD || st == SSD_BLK_OPEN)
			c->hot[b] = 1;
	}
}

/* 1 if slot s (of the block's current generation) holds data that was
 * programmed by T. */
static int slot_durable(const struct ssd_ftl *f, const struct cut *c,
			uint32_t s)
{
	uint32_t blk = ssd_udiv(s, f->div_spb);
	uint32_t pi = ssd_udiv(s - blk * f->spb, f->div_spp);
	if (pi >= ssd_flash_next_page(&f->flash, blk))
		return 0; /* in an open page: never programmed */
	if (c->er_of[blk] != SSD_NO_BLOCK)
		return 0; /* its block is erased after T: this is later data */
	return !ssd_bit_test(c->nd, blk * f->ppb + pi);
}

/* 1 if lpn's content may change at the cut: its copy where the map
 * points was not programmed by T, or a TRIM of it is not durable. */
static int needs(const struct ssd_ftl *f, const struct cut *c, uint32_t lpn,
		 int save_all, uint32_t dseq)
{
	uint32_t s = f->l2p[lpn];
	if (s != SSD_UNMAPPED)
		return (f->tbits && ssd_bit_test(f->tbits, lpn)) ||
		       (!save_all && !slot_durable(f, c, s));
	return (f->trim_cnt[lpn] & TRIM_HAS) && f->trim_ep[lpn] >= dseq;
}

/* Put lpn into the need set if it belongs there.  0 or SSD_ENOMEM. */
static int need_try(const struct ssd_ftl *f, struct cut *c, uint32_t lpn,
		    int save_all, uint32_t dseq)
{
	if (lpn >= f->nlp || ssd_bit_test(c->need, lpn) ||
	    !needs(f, c, lpn, save_all, dseq))
		return 0;
	if (c->nlist == c->cap_list) {
		uint32_t *l = ssd_grow(c->list, &c->cap_list, sizeof *l, 256);
		if (!l)
			return SSD_ENOMEM;
		c->list = l;
	}
	ssd_bit_set(c->need, lpn);
	c->list[c->nlist++] = lpn;
	return 0;
}

/* The same for the pages whose data lies in slots [s0, s1). */
static int need_slots(const struct ssd_ftl *f, struct cut *c, uint32_t s0,
		      uint32_t s1, int save_all, uint32_t dseq)
{
	for (uint32_t s = s0; s < s1; s++) {
		int rc = need_try(f, c, f->p2l[s], save_all, dseq);
		if (rc)
			return rc;
	}
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* The need set from what a cut can touch, without visiting every page:
 * a page's mapped copy is not durable only in a page programming at T
 * (and the lower pages it takes), in an open page, or in a block erased
 * after T; a TRIM is not durable only if it is queued or was made since
 * the last cut (tl).  Sorted as the full pass makes it. */
static int need_bounded(const struct ssd_ftl *f, struct cut *c, int save_all,
			uint32_t dseq)
{
	int rc = 0;
	for (uint32_t i = 0; i < f->pr_n && !rc; i++) {
		const struct ftl_prog_rec *p = &f->pr[i];
		if (p->gen != ssd_flash_erases(&f->flash, p->blk))
			continue;
		for (uint32_t k = 0; k <= p->lower && k <= p->page && !rc; k++) {
			uint32_t pg = p->page - k;
			if (!ssd_bit_test(c->nd, p->blk * f->ppb + pg))
				continue;
			uint32_t s0 = p->blk * f->spb + pg * f->spp;
			rc = need_slots(f, c, s0, s0 + f->spp, save_all, dseq);
		}
	}
	for (uint32_t b = 0; b < f->nblocks && !rc; b++) {
		uint32_t np = ssd_flash_next_page(&f->flash, b);
		uint32_t bp = ssd_flash_block_pages(&f->flash, b);
		uint32_t s0 = b * f->spb;
		if (c->er_of[b] != SSD_NO_BLOCK)
			rc = need_slots(f, c, s0, s0 + blk_slots(f, b), save_all, dseq);
		else if (np < bp && f->state[b] != SSD_BLK_FREE)
			rc = need_slots(f, c, s0 + np * f->spp, s0 + blk_slots(f, b),
					save_all, dseq);
	}
	for (uint32_t i = 0; i < f->tq_len && !rc; i++) {
		const struct ssd_trim_range *r = &f->tq[(f->tq_head + i) % f->tq_cap];
		for (uint32_t l = r->lpn; l < r->lpn + r->n && !rc; l++)
			rc = need_try(f, c, l, save_all, dseq);
	}
	for (uint32_t i = 0; i < f->tl_n && !rc; i++)
		rc = need_try(f, c, f->tl[i], save_all, dseq);
	if (!rc && c->nlist > 1)
		qsort(c->list, c->nlist, sizeof *c->list, cmp_u32);
	return rc;
}

/* The index in the need set's list of lpn, which is in the set. */
static uint32_t entry(const struct cut *c, uint32_t lpn)
{
	uint32_t lo = 0, hi = c->nlist;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (c->list[mid] <= lpn)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* A copy of lpn (entry i of the need set) with tag `tag` at position pos
 * (block * spb + i) at T, lying in `slot` now (or SSD_UNMAPPED): the
 * newest copy is kept, and of copies of one write the first in the
 * flash's order. */
static void offer(const struct ssd_ftl *f, struct cut *c, uint32_t i, uint32_t lpn,
		  uint32_t tag, uint32_t pos, uint32_t slot)
{
	if (c->found[i]) {
		uint32_t a = tag_age(f, lpn, tag), b = tag_age(f, lpn, c->best[i]);
		if (a > b || (a == b && pos >= c->best_pos[i]))
			return;
	}
	c->found[i] = 1;
	c->best[i] = tag;
	c->best_pos[i] = pos;
	c->best_slot[i] = slot;
}

/* The out-of-band reads the rebuild costs for one block as it was at T
 * (or as it is, when at_t is 0), on its die. */
static void count_reads(struct ssd_ftl *f, struct cut *c, uint32_t blk, int at_t)
{
	uint32_t pages, full;
	uint32_t e = at_t ? c->er_of[blk] : SSD_NO_BLOCK;
	if (e != SSD_NO_BLOCK) {
		pages = f->er[e].pages;
		full = (uint32_t)f->er[e].full;
	} else {
		pages = ssd_flash_next_page(&f->flash, blk);
		full = pages == ssd_flash_block_pages(&f->flash, blk);
	}
	if (!pages)
		return;
	uint32_t die = ssd_flash_die(&f->flash, ssd_ftl_unit_of(f, blk));
	c->reads[die] += f->cfg.power_recovery == SSD_RECOVER_SUMMARY && full ? 1 : pages;
}

/* Read the out-of-band records of one block as it was at T: its pages
 * programmed by T, the newest copy of every page in the need set kept. */
static void scan_block(struct ssd_ftl *f, struct cut *c, uint32_t blk)
{
	const uint32_t *p2l, *tags;
	uint32_t pages, gen;
	int cur = 1;
	uint32_t e = c->er_of[blk];
	if (e != SSD_NO_BLOCK) {
		const struct ftl_erase_rec *r = &f->er[e];
		size_t per = 2 * (size_t)f->spb;
		p2l = f->er_save + e * per;
		tags = p2l + f->spb;
		pages = r->pages;
		gen = r->gen;
		cur = 0;
	} else {
		p2l = f->p2l + (size_t)blk * f->spb;
		tags = f->vgen + (size_t)blk * f->spb;
		pages = ssd_flash_next_page(&f->flash, blk);
		gen = ssd_flash_erases(&f->flash, blk);
	}
	for (uint32_t pi = 0; pi < pages; pi++) {
		if (cur) {
			if (ssd_bit_test(c->nd, blk * f->ppb + pi))
				continue;
		} else {
			int gone = 0;
			for (uint32_t k = 0; k < c->nold && !gone; k++)
				gone = c->old[k].blk == blk && c->old[k].gen == gen &&
				       c->old[k].page == pi;
			if (gone)
				continue;
		}
		for (uint32_t i = pi * f->spp; i < (pi + 1) * f->spp && i < f->spb; i++) {
			uint32_t lpn = p2l[i];
			if (lpn >= f->nlp || !ssd_bit_test(c->need, lpn))
				continue;
			uint32_t pos = blk * f->spb + i;
			offer(f, c, entry(c, lpn), lpn, tags[i], pos, cur ? pos : SSD_UNMAPPED);
		}
	}
}

/* The rebuild bounded by what the cut can touch: the blocks where the
 * recent work lies (the programs and erases still listed, victims being
 * cleaned, blocks open, retired or bad) are read whole, and every other
 * copy is the page's newest known durable one (dslot).  Returns 1 if
 * such a copy has gone from where it was recorded: only reading every
 * block can then find what survived. */
static int scan_bounded(struct ssd_ftl *f, struct cut *c)
{
	mark_hot(f, c);
	for (uint32_t b = 0; b < f->nblocks; b++) {
		if (c->er_of[b] != SSD_NO_BLOCK) /* and those erased after T */
			c->hot[b] = 1;
		if (c->hot[b])
			scan_block(f, c, b);
	}
	for (uint32_t i = 0; i < c->nlist; i++) {
		uint32_t lpn = c->list[i], d = f->dslot[lpn];
		if (d == SSD_UNMAPPED)
			continue;
		/* the copy as it was at T: in a block erased since, its
		 * saved records; it may be gone (a program under way took its
		 * lower page, paired_pages) even where it lies in a block
		 * read above */
		uint32_t b = ssd_udiv(d, f->div_spb), e = c->er_of[b];
		if (e != SSD_NO_BLOCK) {
			const struct ftl_erase_rec *r = &f->er[e];
			const uint32_t *sp = f->er_save + e * 2 * (size_t)f->spb;
			uint32_t k = d - b * f->spb, pg = ssd_udiv(k, f->div_spp);
			int gone = pg >= r->pages || sp[k] != lpn;
			for (uint32_t q = 0; q < c->nold && !gone; q++)
				gone = c->old[q].blk == b && c->old[q].gen == r->gen &&
				       c->old[q].page == pg;
			if (gone)
				return 1;
			offer(f, c, i, lpn, sp[f->spb + k], d, SSD_UNMAPPED);
		} else {
			if (f->p2l[d] != lpn || !slot_durable(f, c, d))
				return 1;
			offer(f, c, i, lpn, f->vgen[d], d, d);
		}
	}
	return 0;
}

/* Unmap lpn (its content did not survive or a durable TRIM removed it). */
static void unmap(struct ssd_ftl *f, uint32_t lpn)
{
	uint32_t s = f->l2p[lpn];
	if (s == SSD_UNMAPPED)
		return;
	invalidate(f, s);
	f->l2p[lpn] = SSD_UNMAPPED;
	f->mapped--;
}

/* Forget the data of the slots that did not survive and hold nothing
 * valid now, so that no later cut finds them: the pages still
 * programming at T and the open pages. */
static void wipe_ghosts(struct ssd_ftl *f, const struct cut *c)
{
	for (uint32_t i = 0; i < f->pr_n; i++) {
		const struct ftl_prog_rec *p = &f->pr[i];
		if (p->gen != ssd_flash_erases(&f->flash, p->blk) ||
		    !ssd_bit_test(c->nd, p->blk * f->ppb + p->page))
			continue;
		uint32_t s0 = p->blk * f->spb + p->page * f->spp;
		for (uint32_t s = s0; s < s0 + f->spp; s++)
			if (!ssd_bit_test(f->vbits, s))
				f->p2l[s] = SSD_UNMAPPED;
	}
	for (uint32_t ui = 0; ui < f->units; ui++) {
		struct ssd_wp *w;
		for (uint32_t k = 0; (w = wp_at(f, ui, k)); k++) {
			if (w->blk == SSD_NO_BLOCK)
				continue;
			uint32_t s0 = w->blk * f->spb + w->next - w->fill;
			for (uint32_t s = s0; s < s0 + w->fill; s++)
				if (!ssd_bit_test(f->vbits, s))
					f->p2l[s] = SSD_UNMAPPED;
		}
	}
}

/* Power returns at `on`: nothing the flash was doing goes on; the map
 * cache is cold. */
static void timing_restart(struct ssd_ftl *f, int64_t on)
{
	struct ssd_flash *fl = &f->flash;
	for (uint32_t d = 0; d < fl->dies; d++) {
		fl->die_busy[d] = on;
		fl->die_page[d] = UINT32_MAX;
	}
	for (uint32_t ch = 0; ch < fl->channels; ch++)
		fl->chan_busy[ch] = on;
	for (uint32_t ui = 0; ui < fl->units; ui++)
		fl->reg_free[ui] = on;
	for (uint32_t ui = 0; ui < f->units; ui++) {
		struct ssd_wp *w;
		for (uint32_t k = 0; (w = wp_at(f, ui, k)); k++) {
			w->ready = on;
			w->durable = on;
		}
	}
	if (f->mc_cap) {
		memset(f->mc_state, 0, f->mc_pages);
		f->mc_n = 0;
		f->mc_head = f->mc_tail = SSD_NO_BLOCK;
	}
	/* the checker's record of the flash's work starts over with it:
	 * the work cancelled at the cut was never done */
	if (f->check_every)
		ssd_flash_account(fl, 1, &f->check_due);
}

/* Map lpn to its surviving copy where it lies, slot s of a block the
 * model still holds as it was at the cut (its data invalid since): as a
 * controller's rebuilt map points at it.  Only in a full or open block --
 * a victim's list of slots to copy was fixed when it was picked.
 * Returns 1 if done (lpn was unmapped). */
static int remap(struct ssd_ftl *f, uint32_t lpn, uint32_t s)
{
	if (s == SSD_UNMAPPED || ssd_bit_test(f->vbits, s) || f->p2l[s] != lpn)
		return 0;
	uint32_t b = ssd_udiv(s, f->div_spb), ui = ssd_ftl_unit_of(f, b);
	int full = f->state[b] == SSD_BLK_FULL, slc = ssd_flash_slc(&f->flash, b);
	if ((!full && f->state[b] != SSD_BLK_OPEN) || f->uvalid[ui] >= f->ulimit[ui])
		return 0; /* nor beyond what its unit may hold (ftl.h) */
	if (f->fdp && !ftl_fdp_may_hold(f, b, lpn))
		return 0; /* another handle's block: written again, to the
		             handle of the page's latest write */
	if (full && !slc)
		f->gc->remove(&f->gcv, f->gc_state, b);
	if (full && slc && !f->valid[b])
		f->unit[ui].slc_empty--;
	ssd_bit_set(f->vbits, s);
	f->valid[b]++;
	f->uvalid[ui]++;
	f->l2p[lpn] = s;
	f->mapped++;
	if (full && !slc)
		f->gc->full(&f->gcv, f->gc_state, b); /* back, with its count */
	return 1;
}

/* After the recovery the map names one copy of each page of the need
 * set; where no later cut can take that copy (c->found set, its tag in
 * c->best: slot_settled), every other copy of the same write is
 * superseded by it, as a controller's sequence numbers rank them, so
 * that no later cut takes one for another (the source of a GC the cut
 * interrupted, of a rewrite, of a GC the rewrites made room with).  A
 * copy still in an open page, or with paired pages guarded in a lower
 * page of a wordline not yet complete, supersedes nothing: the older
 * ones are what survives a cut that destroys it (they lie in victims not
 * yet erased, which a bounded rebuild reads).  Visits every block
 * (c->full_read), or those the rebuild read, those now being cleaned,
 * open, retired or bad, the pages the recovery programmed, and the known
 * durable copies. */
static void supersede_slot(struct ssd_ftl *f, const struct cut *c, uint32_t s)
{
	uint32_t lpn = f->p2l[s];
	if (lpn >= f->nlp || !ssd_bit_test(c->need, lpn) || ssd_bit_test(f->vbits, s))
		return;
	uint32_t i = entry(c, lpn), m = f->l2p[lpn];
	if (c->found[i] && m != s && f->vgen[s] == c->best[i])
		f->p2l[s] = SSD_UNMAPPED;
}

static void supersede(struct ssd_ftl *f, struct cut *c)
{
	for (uint32_t li = 0; li < c->nlist; li++) {
		uint32_t m = f->l2p[c->list[li]];
		c->found[li] = m != SSD_UNMAPPED && slot_settled(f, m);
		if (c->found[li])
			c->best[li] = f->vgen[m];
	}
	if (!c->full_read)
		mark_hot(f, c); /* as the recovery left them */
	for (uint32_t b = 0; b < f->nblocks; b++) {
		if (!c->full_read && !c->hot[b])
			continue;
		uint32_t np = ssd_flash_next_page(&f->flash, b);
		uint32_t s0 = b * f->spb, s1 = s0 + np * f->spp;
		if (s1 > s0 + blk_slots(f, b))
			s1 = s0 + blk_slots(f, b);
		for (uint32_t s = s0; s < s1; s++)
			supersede_slot(f, c, s);
	}
	if (!c->full_read)
		for (uint32_t i = 0; i < c->nlist; i++) {
			uint32_t d = f->dslot[c->list[i]];
			if (d != SSD_UNMAPPED && !c->hot[ssd_udiv(d, f->div_spb)] &&
			    slot_programmed(f, d))
				supersede_slot(f, c, d); /* not read above */
		}
}

/* A zoned drive's cut (docs/zoned.md): each zone keeps the prefix of its
 * data that was programmed by T -- its write pointer goes back to where
 * that ends (ftl_zone_cut), what lies past it is unmapped -- and the
 * rebuild reads the zones' blocks (a full block's summary page, a zone's
 * open block page by page).  A zone reset is the controller's journaled
 * metadata from its submission: the data of a zone reset before T does
 * not come back, even where its erase had not begun. */
static int zone_cut(struct ssd_ftl *f, struct ssd_power_cut *pc)
{
	int64_t T = pc->t;
	pc->lost_lp = pc->trims_lost = pc->rewritten_lp = pc->scan_reads = 0;
	pc->remapped_lp = pc->unrelocated_lp = pc->paired_lp = 0;
	pc->unplaced = NULL;
	pc->touched = NULL;
	pc->nlost = pc->ntouched = 0;
	pc->full_scan = 0;
	uint64_t *pend = malloc((f->pr_n ? f->pr_n : 1) * sizeof *pend);
	uint32_t *reads = calloc(f->flash.dies, sizeof *reads);
	if (!pend || !reads) {
		free(pend);
		free(reads);
		return SSD_ENOMEM;
	}
	/* the pages whose program had not ended by T */
	uint32_t np = 0;
	for (uint32_t i = 0; i < f->pr_n && !pc->save_all; i++) {
		const struct ftl_prog_rec *r = &f->pr[i];
		if (r->end > T && r->gen == ssd_flash_erases(&f->flash, r->blk))
			pend[np++] = (uint64_t)r->blk * f->ppb + r->page;
	}
	if (np)
		qsort(pend, np, sizeof *pend, ssd_cmp_u64);
	for (uint32_t b = 0; b < f->nblocks; b++) {
		if (f->state[b] != SSD_BLK_MAPPED)
			continue;
		uint32_t pages = ssd_flash_next_page(&f->flash, b);
		int full = pages == ssd_flash_block_pages(&f->flash, b);
		reads[ssd_flash_die(&f->flash, ssd_ftl_unit_of(f, b))] +=
			f->cfg.power_recovery == SSD_RECOVER_SUMMARY && full ? 1 : pages;
	}
	f->pr_n = f->er_n = f->fr_n = f->tlog_n = f->tl_n = 0;
	f->fr_base = f->flush_seq;
	timing_restart(f, pc->on);
	int64_t scan_end = pc->on;
	for (uint32_t d = 0; d < f->flash.dies; d++) {
		int64_t e = pc->on + (int64_t)reads[d] * f->flash.t_read;
		f->flash.die_busy[d] = e;
		if (e > scan_end)
			scan_end = e;
		pc->scan_reads += reads[d];
	}
	free(reads);
	pc->scan_end = scan_end;
	/* the zones rewound (their lost part pages padded, the zones left
	 * empty erased: the model's bookkeeping, costing no time) */
	int rc = ftl_zone_cut(f, pend, np, pc, scan_end);
	free(pend);
	if (rc)
		return rc;
	f->pr_n = f->er_n = f->fr_n = 0;
	f->fr_base = f->flush_seq;
	timing_restart(f, scan_end);
	pc->ready = scan_end;
	f->ctr.power_cuts++;
	f->ctr.power_lost_lp += pc->lost_lp;
	ftl_check_run(f);
	return f->check_failed ? SSD_ESTATE : 0;
}

int ssd_ftl_power_cut(struct ssd_ftl *f, struct ssd_power_cut *pc)
{
	if (!f->ptrack)
		return SSD_EINVAL;
	if (f->ptrack_err)
		return SSD_ENOMEM;
	if (f->zn)
		return zone_cut(f, pc);
	int64_t T = pc->t;
	struct cut c = {0};
	size_t lw = (f->nlp + 63) / 64 + 1;
	size_t pw = ((size_t)f->nblocks * f->ppb + 63) / 64 + 1;
	c.nd = calloc(pw, sizeof *c.nd);
	c.need = calloc(lw, sizeof *c.need);
	c.er_of = malloc(f->nblocks * sizeof *c.er_of);
	c.hot = calloc(f->nblocks ? f->nblocks : 1, 1);
	c.reads = calloc(f->flash.dies, sizeof *c.reads);
	/* a program under way takes at most bits - 1 lower pages with it */
	c.old = malloc((f->pr_n ? (size_t)f->bits * f->pr_n : 1) * sizeof *c.old);
	if (!c.nd || !c.need || !c.er_of || !c.hot || !c.reads || !c.old) {
		cut_free(&c);
		return SSD_ENOMEM;
	}
	memset(c.er_of, 0xff, f->nblocks * sizeof *c.er_of);
	pc->lost_lp = pc->trims_lost = pc->rewritten_lp = pc->scan_reads = 0;
	pc->remapped_lp = pc->unrelocated_lp = pc->paired_lp = 0;
	pc->unplaced = NULL;
	pc->touched = NULL;
	pc->nlost = pc->ntouched = 0;
	pc->full_scan = 0;

	/* the flash at T */
	if (!pc->save_all) {
		for (uint32_t i = 0; i < f->er_n; i++)
			if (f->er[i].start >= T && c.er_of[f->er[i].blk] == SSD_NO_BLOCK)
				c.er_of[f->er[i].blk] = i;
		for (uint32_t i = 0; i < f->pr_n; i++) {
			const struct ftl_prog_rec *p = &f->pr[i];
			if (p->end <= T)
				continue;
			/* a program under way at T takes the lower pages of
			 * its wordline with it (paired_pages) */
			uint32_t low = p->start <= T ? p->lower : 0;
			int cur = p->gen == ssd_flash_erases(&f->flash, p->blk);
			pc->paired_lp += (uint64_t)low * f->spp;
			for (uint32_t k = 0; k <= low; k++) {
				struct ftl_prog_rec r = *p;
				r.page -= k;
				if (cur)
					ssd_bit_set(c.nd, r.blk * f->ppb + r.page);
				else
					c.old[c.nold++] = r;
			}
		}
	}
	/* durable TRIMs: those a completed flush followed */
	uint32_t dseq = f->fr_base;
	for (uint32_t i = 0; i < f->fr_n; i++)
		if ((pc->save_all || f->fr[i].done <= T) && f->fr[i].seq > dseq)
			dseq = f->fr[i].seq;
	if (pc->save_all)
		dseq = f->flush_seq + 1;

	/* the pages whose content may change: found from what the cut can
	 * have touched, or (full) by visiting every page */
	int rc = 0;
	if (pc->full) {
		for (uint32_t lpn = 0; lpn < f->nlp && !rc; lpn++)
			rc = need_try(f, &c, lpn, pc->save_all, dseq);
	} else {
		rc = need_bounded(f, &c, pc->save_all, dseq);
	}
	if (!rc) {
		size_t n = c.nlist ? c.nlist : 1;
		c.found = calloc(n, sizeof *c.found);
		c.best = calloc(n, sizeof *c.best);
		c.best_pos = malloc(n * sizeof *c.best_pos);
		c.best_slot = malloc(n * sizeof *c.best_slot);
		if (!c.found || !c.best || !c.best_pos || !c.best_slot)
			rc = SSD_ENOMEM;
	}
	if (rc) {
		cut_free(&c);
		return rc;
	}
	int at_t = c.nlist && !pc->save_all;
	if (at_t) {
		/* a block's current content, or its content before its
		 * first erase after T */
		if (!pc->full && scan_bounded(f, &c)) {
			pc->full_scan = 1;
			memset(c.found, 0, c.nlist * sizeof *c.found);
		}
		c.full_read = pc->full || pc->full_scan;
		if (c.full_read)
			for (uint32_t b = 0; b < f->nblocks; b++)
				scan_block(f, &c, b);
	} else if (pc->save_all) { /* everything there: the current copy */
		for (uint32_t i = 0; i < c.nlist; i++) {
			uint32_t lpn = c.list[i];
			if (f->l2p[lpn] != SSD_UNMAPPED) {
				c.found[i] = 1;
				c.best[i] = f->vgen[f->l2p[lpn]];
			}
		}
	}
	for (uint32_t b = 0; b < f->nblocks; b++)
		count_reads(f, &c, b, at_t);

	/* the TRIM journal at T: every TRIM a completed flush followed is
	 * durable (the floor), the others are lost */
	for (uint32_t i = 0; i < f->tlog_n; i++)
		if (f->tlog[i].ep < dseq)
			floor_raise(f, f->tlog[i].lpn, f->tlog[i].cnt);
	f->tlog_n = 0;
	if (pc->full) {
		for (uint32_t lpn = 0; lpn < f->nlp; lpn++)
			if ((f->trim_cnt[lpn] & TRIM_HAS) && f->trim_ep[lpn] < dseq)
				floor_raise(f, lpn, f->trim_cnt[lpn]);
	} else {
		for (uint32_t i = 0; i < f->tl_n; i++) {
			uint32_t lpn = f->tl[i];
			if ((f->trim_cnt[lpn] & TRIM_HAS) && f->trim_ep[lpn] < dseq)
				floor_raise(f, lpn, f->trim_cnt[lpn]);
		}
	}

	/* what each page of the need set holds after the rebuild */
	uint32_t ucap = 0; /* of pc->unplaced */
	uint32_t *rewrite = NULL, nrw = 0, cap_rw = 0;
	for (uint32_t li = 0; li < c.nlist; li++) {
		uint32_t lpn = c.list[li];
		int found = c.found[li];
		uint32_t best = c.best[li];
		uint32_t fl = f->trim_floor[lpn];
		int zero = !found || ((fl & TRIM_HAS) && tag_age(f, lpn, best) >= tag_age(f, lpn, fl));
		uint32_t s = f->l2p[lpn];
		int tb = f->tbits && ssd_bit_test(f->tbits, lpn);
		int cur_zero = s == SSD_UNMAPPED || tb;
		int changed;
		/* the surviving content where the map points, on flash: kept */
		int same = s != SSD_UNMAPPED && f->vgen[s] == best;
		if (zero) {
			changed = !cur_zero;
			unmap(f, lpn);
		} else if (same && (pc->save_all || slot_durable(f, &c, s))) {
			changed = tb; /* the TRIM is lost: the data is back */
			pc->trims_lost += tb;
		} else {
			/* an older copy survives, or the same content survives
			 * elsewhere than where the map points (a copy in an open
			 * page or a program the cut interrupted, whose source the
			 * model may erase): written again */
			changed = !same || tb;
			pc->trims_lost += cur_zero;
			uint32_t bs = c.best_slot[li];
			if (!same || (bs != SSD_UNMAPPED && bs != s))
				unmap(f, lpn); /* the newer content is gone, or
				                  the same lies elsewhere */
			if (f->l2p[lpn] == SSD_UNMAPPED && remap(f, lpn, bs)) {
				pc->remapped_lp++;
				goto next;
			}
			if (nrw == cap_rw) {
				cap_rw = cap_rw ? 2 * cap_rw : 256;
				uint32_t *r = realloc(rewrite, 2 * (size_t)cap_rw * sizeof *r);
				if (!r) {
					free(rewrite);
					cut_free(&c);
					return SSD_ENOMEM;
				}
				rewrite = r;
			}
			rewrite[2 * nrw] = lpn;
			rewrite[2 * nrw + 1] = best;
			nrw++;
		}
next:
		if (changed) {
			pc->lost_lp++;
			if (pc->lost && pc->nlost < pc->lost_cap)
				pc->lost[pc->nlost++] = lpn;
		}
	}
	wipe_ghosts(f, &c);
	/* the DRAM state is gone: the TRIM queue (what survived of it is
	 * applied above), the lists of events in flight */
	if (f->tbits) {
		memset(f->tbits, 0, ((f->nlp + 63) / 64) * sizeof *f->tbits);
		f->tq_len = f->tq_head = 0;
		f->tq_pages = 0;
	}
	if (pc->full)
		memset(f->trim_cnt, 0, f->nlp * sizeof *f->trim_cnt);
	else
		for (uint32_t i = 0; i < f->tl_n; i++)
			f->trim_cnt[f->tl[i]] = 0;
	f->tl_n = 0;
	/* what was programmed by T is durable from now on */
	for (uint32_t i = 0; i < f->pr_n; i++) {
		const struct ftl_prog_rec *p = &f->pr[i];
		if (pc->save_all || !ssd_bit_test(c.nd, p->blk * f->ppb + p->page))
			fold(f, p);
	}
	f->pr_n = f->er_n = f->fr_n = 0;
	f->fr_base = f->flush_seq;

	/* the rebuild: the dies read the out-of-band areas in parallel */
	timing_restart(f, pc->on);
	int64_t scan_end = pc->on;
	for (uint32_t d = 0; d < f->flash.dies; d++) {
		int64_t e = pc->on + (int64_t)c.reads[d] * f->flash.t_read;
		f->flash.die_busy[d] = e;
		if (e > scan_end)
			scan_end = e;
		pc->scan_reads += c.reads[d];
	}
	pc->scan_end = scan_end;
	/* Surviving older copies written again, then made durable: the
	 * model's bookkeeping (a real drive maps the copy where it lies, in
	 * a block the model's future has erased), so it costs no time --
	 * the timing starts over at the end of the scan -- though its
	 * programs count as copies. */
	int64_t t = scan_end;
	uint32_t pid = f->pid;
	f->recovering = 1;
	for (uint32_t i = 0; i < nrw; i++) {
		uint32_t lpn = rewrite[2 * i], old = f->l2p[lpn];
		if (f->fdp) /* into the handle of its latest write (ftl_fdp.c) */
			ssd_ftl_set_placement(f, ftl_fdp_handle_of(f, lpn));
		int64_t wr = ssd_ftl_write(f, lpn, t);
		if (wr < 0) {
			/* no room left (a worn-out drive): the same content
			 * stays where the map points; an older one is lost */
			if (wr == SSD_ENOMEM || wr == SSD_ESTATE) {
				f->recovering = 0;
				free(rewrite);
				cut_free(&c);
				return (int)wr;
			}
			if (old == SSD_UNMAPPED) {
				if (pc->unrelocated_lp == ucap) {
					uint32_t *u = ssd_grow(pc->unplaced, &ucap, sizeof *u, 64);
					if (!u) {
						f->recovering = 0;
						free(rewrite);
						cut_free(&c);
						return SSD_ENOMEM;
					}
					pc->unplaced = u;
				}
				pc->unplaced[pc->unrelocated_lp++] = lpn;
			}
			continue;
		}
		f->vgen[f->l2p[lpn]] = rewrite[2 * i + 1];
		if (old != SSD_UNMAPPED && !ssd_bit_test(f->vbits, old))
			f->p2l[old] = SSD_UNMAPPED; /* never to be found again */
		f->ctr.host_write_lp--; /* not the host's: a copy */
		f->ctr.gc_copy_lp++;
		pc->rewritten_lp++;
	}
	f->recovering = 0;
	ssd_ftl_set_placement(f, pid);
	free(rewrite);
	int64_t done = ssd_ftl_flush(f, t);
	if (done < 0) {
		cut_free(&c);
		return (int)done;
	}
	f->ctr.flushes--; /* not the host's */
	supersede(f, &c);
	uint32_t *touched = c.list;
	uint32_t ntouched = c.nlist;
	c.list = NULL;
	cut_free(&c);
	for (uint32_t i = 0; i < f->pr_n; i++)
		fold(f, &f->pr[i]);
	for (uint32_t i = 0; i < ntouched; i++) {
		uint32_t lpn = touched[i];
		if (f->l2p[lpn] != SSD_UNMAPPED)
			f->dslot[lpn] = f->l2p[lpn];
	}
	pc->touched = touched;
	pc->ntouched = ntouched;
	f->pr_n = f->er_n = f->fr_n = 0;
	f->fr_base = f->flush_seq;
	timing_restart(f, scan_end);
	pc->ready = scan_end;
	f->ctr.power_cuts++;
	f->ctr.power_lost_lp += pc->lost_lp;
	ftl_check_run(f); /* the maps rebuilt: checked (with check_every) */
	return f->check_failed ? SSD_ESTATE : 0;
}
