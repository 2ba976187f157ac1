/*
 * nand.c -- allocation and statistics of the NAND state arrays; the rules
 * themselves are the inline functions of nand.h, on the hot path.
 */
#include "nand/nand.h"

#include <stdlib.h>

int ssd_nand_init(struct ssd_nand *n, uint32_t nblocks,
		  uint32_t pages_per_block, uint32_t slc_pages)
{
	n->nblocks = nblocks;
	n->pages_per_block = pages_per_block;
	n->slc_pages = slc_pages;
	n->next_page = calloc(nblocks, sizeof *n->next_page);
	n->erases = calloc(nblocks, sizeof *n->erases);
	n->slc = calloc(nblocks, sizeof *n->slc);
	if (!n->next_page || !n->erases || !n->slc) {
		ssd_nand_free(n);
		return SSD_ENOMEM;
	}
	return 0;
}

uint64_t ssd_nand_mem(uint32_t nblocks)
{
	const struct ssd_nand *n = NULL;
	return (uint64_t)nblocks * (sizeof *n->next_page + sizeof *n->erases +
				    sizeof *n->slc);
}

void ssd_nand_free(struct ssd_nand *n)
{
	free(n->next_page);
	free(n->erases);
	free(n->slc);
	n->next_page = NULL;
	n->erases = NULL;
	n->slc = NULL;
}

void ssd_nand_erase_stats(const struct ssd_nand *n, uint32_t *min,
			  double *mean, uint32_t *max)
{
	uint32_t lo = UINT32_MAX, hi = 0;
	uint64_t sum = 0;
	for (uint32_t b = 0; b < n->nblocks; b++) {
		uint32_t e = n->erases[b];
		if (e < lo)
			lo = e;
		if (e > hi)
			hi = e;
		sum += e;
	}
	*min = n->nblocks ? lo : 0;
	*max = hi;
	*mean = n->nblocks ? (double)sum / n->nblocks : 0;
}
