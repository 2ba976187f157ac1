/*
 * ftl_slc.c -- the SLC cache: room for host data, reclaiming empty
 * cached blocks, and the fold queue.
 *
 * SLC cache.  Static: the first blocks of every unit live in SLC mode for
 * good and hold the cache.  Dynamic: free blocks are opened in SLC mode
 * while the unit keeps enough free blocks to fold everything cached, so
 * the cache shrinks as the drive fills.  Host writes go to an SLC-mode
 * block while the cache has room, else straight to native mode.  Folding
 * copies cached data to native blocks: in idle time, and in the
 * foreground when a unit runs short of free blocks.  A cached block whose
 * data has all been overwritten or trimmed needs no folding: when the
 * cache is out of room it is erased and reused at once.
 *
 * The folding itself is GC work (ftl_gc.c: an SLC block is a victim whose
 * copies go to native blocks); the test for room (slc_room) is static
 * inline in ftl_int.h because the host path asks it while the cache is
 * out of room.
 */
#include "ftl/ftl.h"
#include "ftl/ftl_int.h"

/* The fold queue: full SLC-mode blocks of a unit, oldest first. */
void ftl_fold_push(struct ssd_ftl *f, struct ssd_unit *u, uint32_t blk)
{
	f->next[blk] = SSD_NO_BLOCK;
	f->prev[blk] = u->fold_tail;
	if (u->fold_tail == SSD_NO_BLOCK)
		u->fold_head = blk;
	else
		f->next[u->fold_tail] = blk;
	u->fold_tail = blk;
}

static void fold_unlink(struct ssd_ftl *f, struct ssd_unit *u, uint32_t b)
{
	uint32_t n = f->next[b], p = f->prev[b];
	if (p == SSD_NO_BLOCK)
		u->fold_head = n;
	else
		f->next[p] = n;
	if (n == SSD_NO_BLOCK)
		u->fold_tail = p;
	else
		f->prev[n] = p;
	if (!f->valid[b])
		u->slc_empty--;
}

uint32_t ftl_fold_pop(struct ssd_ftl *f, struct ssd_unit *u)
{
	uint32_t b = u->fold_head;
	if (b != SSD_NO_BLOCK)
		fold_unlink(f, u, b);
	return b;
}

/* A cached block whose data has all been overwritten or trimmed needs no
 * folding: when the cache is out of room, erase such a block (the die
 * pays tBERS) and give its space back to the cache.  Returns 1 if the
 * cache has room afterwards. */
int ftl_slc_reclaim(struct ssd_ftl *f, uint32_t ui, int64_t t)
{
	struct ssd_unit *u = &f->unit[ui];
	while (u->slc_empty && !slc_room(f, u)) {
		uint32_t b = u->fold_head;
		while (b != SSD_NO_BLOCK && f->valid[b])
			b = f->next[b];
		if (b == SSD_NO_BLOCK)
			break; /* the count is checked by ssd_ftl_check */
		fold_unlink(f, u, b);
		f->state[b] = SSD_BLK_VICTIM;
		f->ctr.gc_victims++;
		ftl_erase_block(f, ui, b, t);
	}
	return slc_room(f, u);
}
