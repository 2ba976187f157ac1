/*
 * stack.h -- the machine around the drive: host layers and drives built
 * from one drive file, behind the device's entry points (device.h).
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
 * Jobs stay plain fio job files: the layers belong to the machine.
 *
 * The device (struct ssd_dev) is the machine's entry: ssd_dev_submit and
 * the rest dispatch here when the drive file asks for more than a bare
 * SSD (ssd_config_is_machine); a bare SSD keeps its own path, untouched.
 * Each node is a struct ssd_blk (blk.h); the SSDs at the bottom are
 * devices of their own, created from the same file without the machine
 * keys, member i with seed + i.
 *
 * Counters.  The machine's struct ssd_counters counts the host's
 * commands as they entered the machine (host_read_lp, host_write_lp,
 * host_trim_lp, host_write_bytes, flushes) and sums every other field
 * (NAND programs, erases, GC copies...) over its SSDs: its WAF is NAND
 * bytes per byte the application wrote, end to end.  Each node's own
 * figures come out in the report's machine section (ssd_stack_report).
 */
#ifndef SSD_STACK_H
#define SSD_STACK_H

#include <stdint.h>

#include "base/config.h"
#include "machine/blk.h"
#include "machine/device.h"

/* What the layers need of the drives under them, checked before a
 * machine is built (the drive file's own rules are ssd_config_finish's):
 * 0, or SSD_ERANGE with a one-line message naming the keys.  A bare SSD
 * always passes. */
int ssd_stack_check(const struct ssd_config *c, char *err, size_t errlen);

/* Build the machine c describes (finished), as a device.  0, SSD_ENOMEM
 * or SSD_EINVAL. */
int ssd_stack_create(const struct ssd_config *c, uint64_t seed,
		     struct ssd_dev **out);

/* Add what ssd_stack_create(c) allocates to m (base/sysmem.h): the
 * drives' parts to m->ftl and m->dram, the host layers' to m->host. */
void ssd_stack_mem_add(const struct ssd_config *c, struct ssd_mem *m);

/* The device's entry points on a machine (device.c calls them; the range
 * is checked there). */
int64_t ssd_stack_submit(struct ssd_dev *d, int ddir, uint64_t offset,
			 uint32_t len, int64_t t);
int64_t ssd_stack_flush(struct ssd_dev *d, int64_t t);
int64_t ssd_stack_next_decision(const struct ssd_dev *d);
void ssd_stack_tag_waiting(struct ssd_dev *d, uint32_t tag);
int ssd_stack_decide(struct ssd_dev *d, int64_t t, uint32_t *tag, int64_t *done);
int ssd_stack_idle(struct ssd_dev *d, int64_t until);
void ssd_stack_health(const struct ssd_dev *d, struct ssd_health *h);

/* RAID 0 (stripe units of raid_stripe round-robin) over the n nodes of
 * `members`, an array from malloc: both are taken, freed with the node
 * (and on failure).  Its capacity: n x the members' whole stripes
 * (ssd_config_raid_capacity of c, whose capacity is a member's). */
int ssd_raid0_create(const struct ssd_config *c, struct ssd_blk **members,
		     uint32_t n, struct ssd_blk **out);

/* The i-th SSD of the machine (depth first), or NULL past the last. */
struct ssd_dev *ssd_stack_ssd(const struct ssd_dev *d, int i);

/* The machine's nodes for a report, top down: the i-th node and its
 * depth (0 = the top), or NULL past the last. */
const struct ssd_blk *ssd_stack_node(const struct ssd_dev *d, int i,
				     int *depth);

#endif
