/*
 * hdd_node.h -- a hard disk as a node of the machine (blk.h).
 */
#ifndef SSD_HDD_NODE_H
#define SSD_HDD_NODE_H

#include <stdint.h>

#include "base/config.h"
#include "machine/blk.h"

/* A disk of c (type = hdd) as a node: 0, SSD_ENOMEM or the disk's
 * error.  With hdd_queue = sptf the node offers blk.h's queue
 * operations. */
int ssd_hdd_node_create(const struct ssd_config *c, struct ssd_blk **out);

/* What ssd_hdd_node_create(c) allocates, bytes. */
uint64_t ssd_hdd_node_mem(const struct ssd_config *c);

#endif
