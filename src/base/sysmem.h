/*
 * sysmem.h -- what the simulator's memory is measured against: how much
 * this process may still take from the machine, and the vocabulary of
 * the estimates every module gives of its own tables.
 *
 * The estimates (ssd_ftl_mem, ssd_dev_mem, ssd_sim_mem...) live next to
 * the create functions whose allocations they mirror, so that a change
 * to a table changes its figure in the same place; a unit test
 * (tests/unit/machine/test_mem.c) builds drives and compares each estimate
 * with the bytes the build allocated.  Units: bytes.
 */
#ifndef SSD_SYSMEM_H
#define SSD_SYSMEM_H

#include <stddef.h>
#include <stdint.h>

/* What a drive is used for beyond its map, each adding tables of its own:
 * a job that checks data (the out-of-band write tags, 4 bytes per
 * physical 4 KiB slot, and the host's record, 4 bytes per logical page),
 * and power-loss tracking (the tags, the record and the journal of TRIMs
 * and superseded writes, about 12 bytes more per logical page). */
enum {
	SSD_MEM_VERIFY = 1,
	SSD_MEM_POWER = 2
};

/* Where a drive's estimate goes, bytes; total is the sum of the others. */
struct ssd_mem {
	uint64_t total;
	uint64_t program;  /* the program itself, its libraries and the
	                      fixed tables of a run (SSD_MEM_PROGRAM) */
	uint64_t ftl;      /* the FTLs: maps, per-block and per-unit arrays,
	                      the flash's state, the GC policy's index */
	uint64_t verify;   /* out-of-band tags and the host's record */
	uint64_t power;    /* power-loss tracking's journal */
	uint64_t dram;     /* the controllers' write buffer and read-ahead */
	uint64_t host;     /* host layers: page cache, MFT, RAID 0, disks */
	uint64_t run;      /* the job runner: per-job tables, verify marks */
};

/* The resident memory of the program before it builds anything: its
 * code, the C library and a run's fixed tables (measured: 3.2 MiB for a
 * one-job run on the 64 MiB drive, whose own tables are 0.2 MiB). */
#define SSD_MEM_PROGRAM (3ull << 20)

/* Add up m's parts into m->total. */
void ssd_mem_sum(struct ssd_mem *m);

/* How much memory this process may still take, bytes: the least of the
 * machine's MemAvailable (/proc/meminfo), its cgroup's limit less what
 * the cgroup uses (v2's memory.max, v1's memory.limit_in_bytes) and the
 * address-space limit (RLIMIT_AS, `ulimit -v`) less the address space
 * already mapped.  *what says which one gave the figure, to follow "N GiB
 * is": "available", "left under the cgroup's memory limit" or "left
 * under the address-space limit (ulimit -v)", a static string.  Returns 0, or
 * SSD_ENOENT when none of them can be read (nothing to compare with). */
int ssd_mem_available(uint64_t *bytes, const char **what);

#endif
