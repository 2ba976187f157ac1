/*
 * raid0.h -- RAID 0 as a node of the machine (blk.h): stripe units of
 * raid_stripe bytes round-robin over identical members.
 */
#ifndef SSD_RAID0_H
#define SSD_RAID0_H

#include <stdint.h>

#include "base/config.h"
#include "machine/blk.h"

/* RAID 0 over the n nodes of `members`, an array from malloc: both are
 * taken, freed with the node (and on failure).  Its capacity: n x the
 * members' whole stripes (ssd_config_raid_capacity of c, whose capacity
 * is a member's). */
int ssd_raid0_create(const struct ssd_config *c, struct ssd_blk **members,
		     uint32_t n, struct ssd_blk **out);

/* What ssd_raid0_create allocates for n members, bytes. */
uint64_t ssd_raid0_mem(uint32_t n);

#endif
