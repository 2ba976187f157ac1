/*
 * flash.c -- setup of the flash backend; the per-operation timing is
 * inline in flash.h because it is on the hot path.
 */
#include "nand/flash.h"

#include <math.h>
#include <stdlib.h>

/* The page types' times of one operation: factor 1 + s (2i/(b-1) - 1)
 * for type i of b, divided by the factor's mean over the ppb pages of a
 * block (ppb need not be a multiple of b), so the block's mean is t. */
static void page_type_times(int64_t *out, int64_t t, double s, uint32_t bits,
			    uint32_t ppb)
{
	double fac[4], mean = 0;
	for (uint32_t i = 0; i < 4; i++)
		fac[i] = bits > 1 && i < bits ? 1 + s * (2.0 * i / (bits - 1) - 1) : 1;
	for (uint32_t i = 0; i < bits; i++)
		mean += fac[i] * (double)(ppb / bits + (i < ppb % bits));
	mean /= ppb;
	for (uint32_t i = 0; i < 4; i++)
		out[i] = (int64_t)llround((double)t * fac[i] / mean);
}

/* P(retry) 0..1 in 2^-48 units */
static uint64_t prob48(double p)
{
	return (uint64_t)(p * 0x1.0p48);
}

int64_t ssd_flash_xfer_ns(const struct ssd_config *c)
{
	/* ns per 4 KiB at channel_mbps * 10^6 bytes/s, rounded up */
	return ((int64_t)SSD_LPAGE * 1000 + c->channel_mbps - 1) /
	       c->channel_mbps;
}

int ssd_flash_init(struct ssd_flash *f, const struct ssd_config *c,
		   uint32_t nblocks, struct ssd_counters *ctr, uint64_t seed)
{
	struct ssd_geometry g;
	ssd_config_geometry(c, &g);
	f->dies = g.dies;
	f->channels = c->channels;
	f->units = g.units;
	f->lp_per_page = g.lp_per_page;
	f->t_read = c->t_read;
	f->t_prog = c->t_prog;
	f->t_erase = c->t_erase;
	f->t_read_slc = c->slc_t_read;
	f->t_prog_slc = c->slc_t_prog;
	f->xfer_lp = ssd_flash_xfer_ns(c);
	f->ctr = ctr;
	f->erase_blocks = g.planes_per_unit;
	f->die_busy = calloc(f->dies, sizeof *f->die_busy);
	f->chan_busy = calloc(f->channels, sizeof *f->chan_busy);
	f->reg_free = calloc(f->units, sizeof *f->reg_free);
	f->udie = calloc(f->units, sizeof *f->udie);
	f->uchan = calloc(f->units, sizeof *f->uchan);
	f->die_page = malloc(f->dies * sizeof *f->die_page);
	uint32_t bits = g.bits, ppb = g.pages_per_block;
	page_type_times(f->t_read_pt, c->t_read, c->t_read_spread, bits, ppb);
	page_type_times(f->t_prog_pt, c->t_prog, c->t_prog_spread, bits, ppb);
	f->ptype = malloc(ppb);
	f->t_read_pg = malloc(ppb * sizeof *f->t_read_pg);
	f->t_prog_pg = malloc(ppb * sizeof *f->t_prog_pg);
	if (f->ptype && f->t_read_pg && f->t_prog_pg)
		for (uint32_t p = 0; p < ppb; p++) {
			f->ptype[p] = (uint8_t)(p % bits);
			f->t_read_pg[p] = f->t_read_pt[f->ptype[p]];
			f->t_prog_pg[p] = f->t_prog_pt[f->ptype[p]];
		}
	/* P(retry) = rate + wear * erases / pe_cycles, up to 0.99 */
	double cap = 0.99, rate = c->read_retry_rate < cap ? c->read_retry_rate : cap;
	f->retry_on = c->read_retry_rate > 0 || c->read_retry_wear > 0;
	f->retry_base = prob48(rate);
	f->retry_cap = prob48(cap);
	f->retry_slope = prob48(c->read_retry_wear / (c->pe_cycles ? c->pe_cycles : 1));
	f->retry_full = UINT32_MAX;
	if (f->retry_slope) {
		uint64_t e = (f->retry_cap - f->retry_base) / f->retry_slope;
		f->retry_full = e < UINT32_MAX ? (uint32_t)e : UINT32_MAX;
	}
	ssd_rng_seed(&f->rng, seed);
	if (f->die_page)
		for (uint32_t d = 0; d < f->dies; d++)
			f->die_page[d] = UINT32_MAX;
	if (f->udie && f->uchan)
		for (uint32_t u = 0; u < f->units; u++) {
			f->udie[u] = u % f->dies;      /* dies first ... */
			f->uchan[u] = u % f->channels; /* ... over channels */
		}
	if (!f->die_busy || !f->chan_busy || !f->reg_free || !f->udie || !f->uchan || !f->die_page ||
	    !f->ptype || !f->t_read_pg || !f->t_prog_pg ||
	    ssd_nand_init(&f->nand, nblocks, ppb, g.slc_pages_per_block)) {
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
	free(f->ptype);
	free(f->t_read_pg);
	free(f->t_prog_pg);
	f->die_busy = f->chan_busy = f->reg_free = NULL;
	f->udie = f->uchan = f->die_page = NULL;
	f->ptype = NULL;
	f->t_read_pg = f->t_prog_pg = NULL;
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

uint32_t ssd_flash_retries(struct ssd_flash *f, uint32_t erases)
{
	uint64_t p = erases >= f->retry_full
			     ? f->retry_cap
			     : f->retry_base + f->retry_slope * erases;
	uint32_t k = 0;
	while (k < SSD_FLASH_RETRY_MAX && (ssd_rng_next(&f->rng) >> 16) < p)
		k++;
	f->ctr->read_retry += k;
	return k;
}
