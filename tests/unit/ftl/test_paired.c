/* Paired pages (paired_pages): a power cut during the program of a
 * wordline's upper page takes its lower pages with it -- and the flushed
 * data they hold unless the controller guards them.  Through the device,
 * with the FTL's private state to find the program to cut into. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/device.h"
#include "machine/verify.h"
#include "ftl/ftl.h"
#include "ftl/ftl_int.h"
#include "t.h"
#include "t_power.h"

static char err[512];

/* tiny is TLC: three pages to a wordline, LSB first.  A NAND page of
 * four 4 KiB pages is written and flushed into page 0 of a block; the
 * writes after it go on into that block until a program of its next page
 * is under way, and the power goes halfway through that program.  Returns
 * how many of the four flushed pages survive, the lower pages the cut
 * destroyed and the padding written before it. */
static int paired_cut(const char *mode, uint64_t *paired, uint64_t *pad)
{
	char set[64];
	snprintf(set, sizeof set, "paired_pages=%s", mode);
	const char *sets[] = {set};
	struct ssd_dev *d = t_power_drive(sets, 1, err, sizeof err);
	if (!d)
		return -1;
	struct ssd_ftl *f = d->ftl;
	int64_t t = 0;
	for (uint32_t l = 0; l < 4; l++)
		t = t_power_put(d, l, 0, t);
	t = ssd_dev_flush(d, t);
	uint32_t blk = f->l2p[0] / f->spb;
	uint32_t np = ssd_flash_next_page(&f->flash, blk);
	uint32_t l = 4;
	while (ssd_flash_next_page(&f->flash, blk) == np && l < 4096)
		t = t_power_put(d, l++, 0, t);
	const struct ftl_prog_rec *r = NULL;
	for (uint32_t i = 0; i < f->pr_n; i++)
		if (f->pr[i].blk == blk && f->pr[i].page == np)
			r = &f->pr[i];
	if (!r || t < 0)
		return -1;
	*pad = ssd_dev_counters(d)->pad_lp; /* before the recovery's own */
	struct ssd_power_cut pc;
	if (t_power_cut(d, ssd_max64(t, (r->start + r->end) / 2), &pc))
		return -1;
	int kept = 0;
	for (uint32_t k = 0; k < 4; k++)
		kept += t_power_holds(d, k, 1);
	*paired = pc.paired_lp;
	if (ssd_dev_check_failure(d))
		kept = -1;
	ssd_dev_destroy(d);
	return kept;
}

/* Paired pages: a cut during an upper page's program takes the lower
 * pages of its wordline -- flushed data among them unless the controller
 * completes a wordline before it calls a flush done. */
TEST(power_cut_paired_pages_take_the_lower_page_unless_guarded)
{
	uint64_t paired, pad;
	CHECK(paired_cut("independent", &paired, &pad) == 4);
	CHECK(paired == 0 && pad == 0);
	CHECK(paired_cut("unprotected", &paired, &pad) == 0);
	CHECK(paired == 4 && pad == 0);
	/* the flush padded pages 1 and 2: the next program starts a new
	 * wordline, and takes nothing with it */
	CHECK(paired_cut("protected", &paired, &pad) == 4);
	CHECKF(paired == 0 && pad == 8, "paired %llu pad %llu", (unsigned long long)paired, (unsigned long long)pad);
}

/* 1 if slot s lies in a programmed page of a wordline whose upper pages
 * are still to be programmed (a cut during one of those programs takes
 * it). */
static int in_open_wordline(const struct ssd_ftl *f, uint32_t s)
{
	uint32_t blk = s / f->spb, pg = (s % f->spb) / f->spp;
	uint32_t np = ssd_flash_next_page(&f->flash, blk);
	return pg < np && ftl_wl_open(f, blk) && pg >= np - ftl_wl_lower(f, blk, np);
}

/* A page whose GC copy lies in a programmed page of its unit's GC
 * wordline not yet complete (its source, the victim's, not yet erased),
 * or nlp if there is none. */
static uint32_t gc_copy_in_open_wordline(const struct ssd_ftl *f, uint32_t nlp)
{
	for (uint32_t ui = 0; ui < f->units; ui++) {
		uint32_t g = f->unit[ui].gc.blk;
		if (g == SSD_NO_BLOCK || !ftl_wl_open(f, g))
			continue;
		for (uint32_t s = g * f->spb; s < g * f->spb + f->unit[ui].gc.next; s++)
			if (f->p2l[s] < nlp && f->l2p[f->p2l[s]] == s && in_open_wordline(f, s))
				return f->p2l[s];
	}
	return nlp;
}

/* The program of an upper page of the wordline holding slot s that a cut
 * from `from` on can interrupt, or NULL. */
static const struct ftl_prog_rec *upper_prog(const struct ssd_ftl *f,
					     uint32_t s, int64_t from)
{
	uint32_t blk = s / f->spb, pg = (s % f->spb) / f->spp;
	for (uint32_t i = 0; i < f->pr_n; i++) {
		const struct ftl_prog_rec *r = &f->pr[i];
		if (r->blk == blk && r->gen == ssd_flash_erases(&f->flash, blk) &&
		    r->page > pg && r->page - r->lower <= pg && r->end > from)
			return r;
	}
	return NULL;
}

/* A recovery maps a page back to a copy in a lower page of a wordline
 * not yet complete -- a GC copy in its open block, the page's overwrite
 * lost at the cut -- while the copy GC made it from still lies in the
 * victim, whose erase waits for that wordline.  The victim's copy must
 * stay findable: a cut during the program of the wordline's upper pages
 * destroys the copy the map names, and the controller guards paired
 * pages, so what the recovery kept (and its flush made durable) must
 * survive the next cut.  Overwrites of a full drive with flushes; a page
 * with such a GC copy is overwritten and the power cut at once, and once
 * the recovery has mapped it to that copy, other pages are written until
 * an upper page of its wordline is programming, and the power goes again
 * halfway through that program. */
TEST(power_cut_paired_pages_keep_a_recovered_copy_until_its_wordline_completes)
{
	const char *sets[] = {"paired_pages=protected", "page_size=4k", "capacity=64m"};
	struct ssd_dev *d = t_power_drive(sets, 3, err, sizeof err);
	CHECKF(d, "%s", err);
	struct ssd_ftl *f = d->ftl;
	uint32_t nlp = (uint32_t)(ssd_dev_capacity(d) / 4096), tried = 0;
	int64_t t = 0;
	for (uint32_t l = 0; l < nlp; l++)
		CHECK((t = t_power_put(d, l, 0, t)) > 0);
	CHECK((t = ssd_dev_flush(d, t)) > 0);
	struct ssd_rng r;
	ssd_rng_seed(&r, 5);
	for (int round = 0; round < 400 && tried < 8; round++) {
		uint32_t l = nlp;
		for (int i = 0; i < 20000 && l == nlp; i++) {
			int64_t at = ssd_max64(t, ssd_dev_last_submit(d));
			uint32_t o = (uint32_t)ssd_rng_below(&r, nlp);
			CHECK((t = ssd_rng_below(&r, 32) ? t_power_put(d, o, 0, at)
							  : ssd_dev_flush(d, at)) > 0);
			l = gc_copy_in_open_wordline(f, nlp);
		}
		CHECK(l < nlp);
		struct ssd_power_cut pc;
		CHECK(t_power_put(d, l, 0, ssd_max64(t, ssd_dev_last_submit(d))) > 0);
		CHECK(!t_power_cut(d, ssd_dev_last_submit(d), &pc));
		CHECKF(ssd_dev_check_failure(d) == NULL, "%s", ssd_dev_check_failure(d));
		t = pc.ready;
		uint32_t cnt = d->vrec[l] & SSD_VREC_COUNT;
		if (f->l2p[l] == SSD_UNMAPPED || !in_open_wordline(f, f->l2p[l]))
			continue; /* written again elsewhere: nothing to test */
		CHECK(t_power_holds(d, l, cnt));
		const struct ftl_prog_rec *up = NULL;
		for (int i = 0; i < 20000 && !up; i++) {
			uint32_t o = (uint32_t)ssd_rng_below(&r, nlp);
			if (o == l)
				continue;
			CHECK((t = t_power_put(d, o, 0, ssd_max64(t, ssd_dev_last_submit(d)))) > 0);
			up = upper_prog(f, f->l2p[l], ssd_dev_last_submit(d));
		}
		CHECK(up);
		int64_t at = ssd_max64(ssd_dev_last_submit(d),
				       up->start + (up->end - up->start) / 2);
		if (at >= up->end)
			continue;
		CHECK(!t_power_cut(d, at, &pc));
		CHECK(pc.paired_lp > 0);
		CHECKF(t_power_holds(d, l, cnt), "round %d: page %u lost its write %u",
		       round, l, cnt);
		CHECKF(ssd_dev_check_failure(d) == NULL, "%s", ssd_dev_check_failure(d));
		tried++;
		t = pc.ready;
	}
	CHECKF(tried >= 8, "%u cuts into a recovered wordline", tried);
	ssd_dev_destroy(d);
}
