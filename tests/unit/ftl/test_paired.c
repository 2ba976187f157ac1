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
