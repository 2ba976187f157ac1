/*
 * stack.c -- the machine's builder (stack.h): the tree of nodes a drive
 * file describes, its memory, and a walk over it.  It creates nodes of
 * every type (ssd.c, hdd_node.c, raid0.c, mft.c, pagecache.c) and hangs
 * them together; no node calls back into it.
 */
#include "machine/stack.h"

#include <stdio.h>
#include <stdlib.h>

#include "machine/hdd_node.h"
#include "machine/mft.h"
#include "machine/pagecache.h"
#include "machine/raid0.h"
#include "machine/ssd.h"

/* ---- the builder ---- */

/* The drive at the bottom, number i of the array: an SSD or a hard
 * disk, from the file without its machine keys. */
static int drive_create(const struct ssd_config *c, uint64_t seed, uint32_t i,
			struct ssd_blk **out)
{
	struct ssd_config dc = *c;
	dc.page_cache = 0;
	dc.mft = 0;
	dc.raid = SSD_RAID_NONE;
	int rc;
	if (dc.type == SSD_TYPE_HDD) {
		rc = ssd_hdd_node_create(&dc, out);
	} else {
		struct ssd_drive *s;
		rc = ssd_drive_create(&dc, seed + i, &s);
		if (!rc)
			*out = &s->b;
	}
	if (!rc)
		snprintf((*out)->name, sizeof (*out)->name, "%s%u",
			 c->type == SSD_TYPE_HDD ? "hdd" : "ssd", i);
	return rc;
}

int ssd_stack_build(const struct ssd_config *c, uint64_t seed,
		    struct ssd_blk **out)
{
	struct ssd_blk *top;
	int rc;
	if (c->raid == SSD_RAID_0) {
		uint32_t n = c->raid_members;
		struct ssd_blk **m = calloc(n, sizeof *m);
		if (!m)
			return SSD_ENOMEM;
		for (uint32_t i = 0; i < n; i++) {
			if ((rc = drive_create(c, seed, i, &m[i]))) {
				while (i--)
					ssd_blk_destroy(m[i]);
				free(m);
				return rc;
			}
		}
		if ((rc = ssd_raid0_create(c, m, n, &top)))
			return rc;
	} else if ((rc = drive_create(c, seed, 0, &top))) {
		return rc;
	}
	if (c->mft) {
		struct ssd_blk *mft;
		if ((rc = ssd_mft_create(c, top, &mft))) {
			ssd_blk_destroy(top);
			return rc;
		}
		snprintf(mft->name, sizeof mft->name, "mft");
		top = mft;
	}
	if (c->page_cache) {
		struct ssd_blk *pc;
		if ((rc = ssd_pcache_create(c, top, &pc))) {
			ssd_blk_destroy(top);
			return rc;
		}
		snprintf(pc->name, sizeof pc->name, "page_cache");
		top = pc;
	}
	*out = top;
	return 0;
}

int ssd_stack_check(const struct ssd_config *c, char *err, size_t errlen)
{
	if (c->mft)
		return ssd_mft_fits(c, ssd_config_raid_capacity(c), err, errlen);
	return 0;
}

void ssd_stack_mem_add(const struct ssd_config *c, unsigned uses,
		       struct ssd_mem *m)
{
	uint32_t n = c->raid == SSD_RAID_0 ? c->raid_members : 1;
	struct ssd_config dc = *c; /* a member, as drive_create makes it */
	dc.page_cache = 0;
	dc.mft = 0;
	dc.raid = SSD_RAID_NONE;
	for (uint32_t i = 0; i < n; i++) {
		if (dc.type == SSD_TYPE_HDD)
			m->host += ssd_hdd_node_mem(&dc);
		else
			ssd_drive_mem_add(&dc, uses, m);
	}
	if (c->raid == SSD_RAID_0)
		m->host += ssd_raid0_mem(n);
	if (c->mft)
		m->host += ssd_mft_mem(c, ssd_config_raid_capacity(c));
	if (c->page_cache)
		m->host += ssd_pcache_mem(c);
}


/* Depth-first walk: the i-th node and its depth, or NULL. */
static const struct ssd_blk *walk(const struct ssd_blk *b, int depth, int *i,
				  int *at)
{
	if (!(*i)--) {
		*at = depth;
		return b;
	}
	for (uint32_t k = 0; k < b->nlower; k++) {
		const struct ssd_blk *x = walk(b->lower[k], depth + 1, i, at);
		if (x)
			return x;
	}
	return NULL;
}

const struct ssd_blk *ssd_stack_walk(const struct ssd_blk *top, int i,
				     int *depth)
{
	int at = 0;
	const struct ssd_blk *b = top && i >= 0 ? walk(top, 0, &i, &at) : NULL;
	if (depth)
		*depth = at;
	return b;
}
