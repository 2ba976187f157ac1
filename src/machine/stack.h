/*
 * stack.h -- the machine around the drive: the builder of its tree of
 * nodes (blk.h) from one drive file.
 *
 * A drive file describes a drive (an SSD, or a hard disk with type =
 * hdd) and, with the machine keys, what the host puts over it:
 *
 *     workload -> [page cache] -> [MFT] -> [RAID 0] -> drive x raid_members
 *
 * each bracketed layer present when its keys ask for it (page_cache > 0,
 * mft = yes, raid = 0).  The order is fixed, as on a real host: the page
 * cache sits over the volume the file system sees, MFT is a block driver
 * that formats that volume, RAID stripes below it over identical drives.
 * Jobs stay plain fio job files: the layers belong to the machine.  The
 * drives at the bottom are built from the same file without the machine
 * keys, member i with seed + i.  A bare SSD is a tree of one node.
 *
 * The machine's entry (device.h) holds the tree, counts the host's
 * commands as they enter it and folds the drives' counters and health
 * over it; each node's own figures come out in the report's machine
 * section.
 */
#ifndef SSD_STACK_H
#define SSD_STACK_H

#include <stddef.h>
#include <stdint.h>

#include "base/config.h"
#include "base/sysmem.h"
#include "machine/blk.h"

/* What the layers need of the drives under them, checked before a
 * machine is built (the drive file's own rules are ssd_config_finish's):
 * 0, or SSD_ERANGE with a one-line message naming the keys.  A bare SSD
 * always passes. */
int ssd_stack_check(const struct ssd_config *c, char *err, size_t errlen);

/* Build the tree c describes (finished): its top node in *out.  0,
 * SSD_ENOMEM or SSD_EINVAL. */
int ssd_stack_build(const struct ssd_config *c, uint64_t seed,
		    struct ssd_blk **out);

/* Add what ssd_stack_build(c) allocates to m (base/sysmem.h): the SSDs'
 * parts to m->ftl and m->dram (with what `uses` adds to each:
 * ssd_drive_mem_add), the other nodes' to m->host. */
void ssd_stack_mem_add(const struct ssd_config *c, unsigned uses,
		       struct ssd_mem *m);

/* Depth-first walk of the tree under top: the i-th node and its depth
 * (0 = top), or NULL past the last. */
const struct ssd_blk *ssd_stack_walk(const struct ssd_blk *top, int i,
				     int *depth);

#endif
