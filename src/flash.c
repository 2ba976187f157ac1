/*
 * flash.c -- setup of the flash backend; the per-operation timing is
 * inline in flash.h because it is on the hot path.
 */
#include "flash.h"

#include <stdlib.h>

int ssd_flash_init(struct ssd_flash *f, const struct ssd_config *c,
		   uint32_t nblocks, struct ssd_counters *ctr)
{
	uint32_t planes = c->planes_per_die;
	f->dies = c->channels * c->dies_per_channel;
	f->channels = c->channels;
	f->units = c->multiplane ? f->dies : f->dies * planes;
	f->lp_per_page = (c->page_size / SSD_LPAGE) * (c->multiplane ? planes : 1);
	f->t_read = c->t_read;
	f->t_prog = c->t_prog;
	f->t_erase = c->t_erase;
	f->t_read_slc = c->slc_t_read;
	f->t_prog_slc = c->slc_t_prog;
	/* ns per 4 KiB at channel_mbps * 10^6 bytes/s, rounded up */
	f->xfer_lp = ((int64_t)SSD_LPAGE * 1000 + c->channel_mbps - 1) /
		     c->channel_mbps;
	f->ctr = ctr;
	f->erase_blocks = c->multiplane ? planes : 1;
	f->die_busy = calloc(f->dies, sizeof *f->die_busy);
	f->chan_busy = calloc(f->channels, sizeof *f->chan_busy);
	f->reg_free = calloc(f->units, sizeof *f->reg_free);
	f->udie = calloc(f->units, sizeof *f->udie);
	f->uchan = calloc(f->units, sizeof *f->uchan);
	f->die_page = malloc(f->dies * sizeof *f->die_page);
	if (f->die_page)
		for (uint32_t d = 0; d < f->dies; d++)
			f->die_page[d] = UINT32_MAX;
	if (f->udie && f->uchan)
		for (uint32_t u = 0; u < f->units; u++) {
			f->udie[u] = u % f->dies;      /* dies first ... */
			f->uchan[u] = u % f->channels; /* ... over channels */
		}
	if (!f->die_busy || !f->chan_busy || !f->reg_free || !f->udie || !f->uchan || !f->die_page ||
	    ssd_nand_init(&f->nand, nblocks, c->pages_per_block,
			  c->pages_per_block / ssd_cell_bits(c->cell))) {
		ssd_flash_free(f);
		return SSD_ENOMEM;
	}
	return 0;
}

void ssd_flash_free(struct ssd_flash *f)
{
	free(f->die_busy);
	free(f->chan_busy);
	free(f->reg_free);
	free(f->udie);
	free(f->uchan);
	free(f->die_page);
	f->die_busy = f->chan_busy = f->reg_free = NULL;
	f->udie = f->uchan = f->die_page = NULL;
	ssd_nand_free(&f->nand);
}

int64_t ssd_flash_erase(struct ssd_flash *f, uint32_t unit, uint32_t blk,
			int64_t t)
{
	uint32_t d = ssd_flash_die(f, unit);
	int64_t s = ssd_max64(t, f->die_busy[d]);
	f->die_page[d] = UINT32_MAX;
	f->die_busy[d] = s + f->t_erase;
	ssd_nand_erase(&f->nand, blk);
	f->ctr->nand_erase += f->erase_blocks;
	return s + f->t_erase;
}
