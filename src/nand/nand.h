/*
 * nand.h -- the state of the flash array and the rules of NAND.
 *
 * What it models: erase blocks made of pages.  A page is programmed at
 * most once between erases, the pages of a block are programmed in order
 * (page 0, 1, 2, ...), and erase works on a whole block and costs it one
 * program/erase cycle.  ssd_nand refuses any operation that breaks these
 * rules with SSD_ESTATE, so an FTL bug shows up as an error, not as
 * silently impossible flash.
 *
 * Modes: a block of a multi-level cell type can be erased into SLC mode,
 * one bit per cell, and then holds 1/bits of its pages (slc_pages); the
 * mode is chosen while the block is erased and holds until the next
 * erase.
 *
 * Granularity: a "block" here is the FTL's erase unit.  Without
 * multi-plane operation it is one physical block; with it, the blocks of
 * the same index on every plane of a die, erased and programmed in
 * lockstep (a multi-plane page is planes * page_size bytes).
 *
 * Cost: every operation is O(1) on flat per-block arrays.
 */
#ifndef SSD_NAND_H
#define SSD_NAND_H

#include <stdint.h>

#include "base/util.h"

struct ssd_nand {
	uint32_t nblocks;        /* FTL blocks in the array */
	uint32_t pages_per_block;
	uint32_t slc_pages;      /* pages of a block in SLC mode */
	uint32_t *next_page;     /* [blk] pages programmed since the erase */
	uint32_t *erases;        /* [blk] program/erase cycles so far */
	uint8_t *slc;            /* [blk] 1: erased into SLC mode (one bit
	                            per cell, slc_pages pages) */
};

int ssd_nand_init(struct ssd_nand *n, uint32_t nblocks,
		  uint32_t pages_per_block, uint32_t slc_pages);

/* Bytes ssd_nand_init allocates for nblocks blocks. */
uint64_t ssd_nand_mem(uint32_t nblocks);

/* Pages a block holds in its current mode. */
static inline uint32_t ssd_nand_pages(const struct ssd_nand *n, uint32_t blk)
{
	return n->slc[blk] ? n->slc_pages : n->pages_per_block;
}

/* Choose the mode of an erased block (before its first program).
 * Returns 0, or SSD_ESTATE if the block holds programmed pages. */
static inline int ssd_nand_set_slc(struct ssd_nand *n, uint32_t blk, int slc)
{
	if (n->next_page[blk])
		return SSD_ESTATE;
	n->slc[blk] = (uint8_t)(slc != 0);
	return 0;
}
void ssd_nand_free(struct ssd_nand *n);

/* Program the next page of blk.  Returns the page index programmed, or
 * SSD_ESTATE if the block is full (a page would be programmed twice). */
static inline int64_t ssd_nand_program(struct ssd_nand *n, uint32_t blk)
{
	uint32_t p = n->next_page[blk];
	if (p >= ssd_nand_pages(n, blk))
		return SSD_ESTATE;
	n->next_page[blk] = p + 1;
	return p;
}

/* Program page `page` of blk: allowed only if it is the next one in
 * order.  Returns 0 or SSD_ESTATE. */
static inline int ssd_nand_program_at(struct ssd_nand *n, uint32_t blk,
				      uint32_t page)
{
	if (page != n->next_page[blk] || page >= ssd_nand_pages(n, blk))
		return SSD_ESTATE;
	n->next_page[blk] = page + 1;
	return 0;
}

/* 1 if the page holds programmed data (it can be read from the array). */
static inline int ssd_nand_programmed(const struct ssd_nand *n, uint32_t blk,
				      uint32_t page)
{
	return page < n->next_page[blk];
}

/* Erase a block: all its pages become programmable again, one P/E cycle
 * is spent. */
static inline void ssd_nand_erase(struct ssd_nand *n, uint32_t blk)
{
	n->next_page[blk] = 0;
	n->erases[blk]++;
}

/* Erase-count distribution over all blocks. */
void ssd_nand_erase_stats(const struct ssd_nand *n, uint32_t *min,
			  double *mean, uint32_t *max);

#endif
