/*
 * ssd.h -- the SSD as a node of the machine: its host interface (host
 * link, write buffer, read-ahead, TRIM, idle detection, controller
 * overhead) over its FTL.  What it models, command by command, is
 * described in device.h; this header is the node's own interface, which
 * the machine's entry (device.c) and its builder (stack.c) use.  The
 * node knows nothing above it: it does not know whether it is the whole
 * drive the host sees or one member of a RAID 0 under a page cache.
 *
 * struct ssd_drive begins with its struct ssd_blk, so a drive is a node
 * (blk.h) and the builder hangs it into a tree as it is; the machine's
 * entry, when the drive is all there is (a bare SSD), calls the
 * functions below directly, with no table in between, on the hot path.
 */
#ifndef SSD_SSD_H
#define SSD_SSD_H

#include <stdint.h>

#include "base/config.h"
#include "base/io.h"
#include "base/sysmem.h"
#include "ftl/ftl.h"
#include "ftl/zns.h"
#include "machine/blk.h"
#include "machine/tcheck.h"

struct ssd_drive {
	struct ssd_blk b;       /* the node: b.ssd points back here */
	struct ssd_ftl *ftl;
	struct ssd_counters *ctr; /* the FTL's counters (ssd_ftl_counters_mut):
	                             the drive adds the host's side */
	uint32_t special;       /* zones or FDP: commands take the cold road
	                           (ssd_drive_submit's one test) */
	struct ssd_config cfg;
	struct ssd_clock clk;   /* latest submission, latest completion,
	                           commands */
	int64_t link_busy;      /* host link busy until, ns */
	int64_t *wb;            /* write buffer: [entry] free at, ns */
	uint32_t wb_n, wb_head; /* entries, and the oldest */
	int64_t wb_last;        /* the newest entry drains at, ns */
	uint32_t *wb_lpn;       /* [entry] the logical page it holds (in part,
	                           or whole until its register takes it),
	                           else SSD_UNMAPPED */
	uint8_t *wb_mask;       /* [entry] its 512-byte sectors written (0xff:
	                           whole, given to the FTL) */
	int64_t *wb_in;         /* [entry] a whole page: in a register at, ns */
	uint32_t *wb_hash;      /* pages by lpn: entry + 1, or 0 (linear
	                           probing, wb_hmask + 1 slots) */
	uint32_t wb_hmask;
	uint32_t wb_held, wb_hashed; /* entries held in part; in wb_hash */
	int64_t ctl_busy;       /* controller busy with TRIM work until, ns */
	int64_t trim_clock;     /* background TRIM: processed up to, ns */
	int err;                /* an error of background work: every later
	                           command fails with it */
	/* read-ahead (device.h) */
	int64_t *ra_ready;      /* [lpn % ra_n] buffered page in DRAM at, ns,
	                           or -1: not buffered */
	uint32_t ra_n;          /* buffer size in 4 KiB pages; 0 = off */
	uint32_t ra_lo, ra_hi;  /* the buffer holds lpns [ra_lo, ra_hi) */
	uint32_t seq_next;      /* lpn after the last read's end */
	/* read pieces (read_piece_overhead; device.h) */
	uint32_t pc_lpn;        /* the last page a flash read was set up for */
	int64_t pc_busy;        /* the controller has set up pieces until, ns */
	/* the page kept after a read of part of it (device.h) */
	uint32_t rd_lpn;        /* its lpn, or SSD_UNMAPPED */
	int64_t rd_ready;       /* in the controller at, ns */
	int ptrack;             /* power-loss tracking on */
	struct ssd_tcheck tc;   /* timing checks (device.h) */
	struct ssd_ftl_floor floor; /* the shortest flash work, for them */
	/* a zoned drive (mapping = zone; docs/zoned.md), else zns NULL */
	struct ssd_zns *zns;    /* its zones' states and write pointers */
	uint64_t zsize_lp;      /* zone size, 4 KiB pages (its LBAs) */
	uint32_t *zev;          /* zones a Zone Send reset or finished:
	                           zone << 1 | finished */
	uint32_t zev_n;
	uint64_t append_lba;    /* where the latest Zone Append wrote */
	/* zone random write areas (zrwa_size; docs/zoned.md): the host's
	 * data of each in DRAM, until a flush commits it to the FTL */
	uint64_t zrwa_win;      /* LBAs an area's window spans: 2 x size */
	uint32_t *zslot;        /* [zone] its area's buffer, or UINT32_MAX */
	uint8_t *zbuf;          /* [slot * zrwa_win + lba % zrwa_win] 1: the
	                           host's data of that LBA is in DRAM */
	uint32_t *zfree, zfree_n; /* buffers free */
	uint32_t *zowner;       /* [slot] the zone holding it, or UINT32_MAX */
	uint32_t nzrwa;         /* buffers: the areas there are */
	uint32_t pid_cur;       /* the placement bits (ddir >> 16) of the
	                           latest command (blk.h) */
	uint16_t *wb_pid;       /* fdp with the write buffer: [entry] the
	                           stream (group x handles + handle) of the
	                           page it holds in part */
	struct zrwa_pre { uint32_t zone; uint64_t wp, hi; } *zpre;
	uint32_t zpre_n;        /* before a Zone Send: the areas' state */
};

/* Create an SSD from c (a finished drive without machine keys), fresh
 * from the factory.  0, SSD_ENOMEM or SSD_EINVAL (the FTL's). */
int ssd_drive_create(const struct ssd_config *c, uint64_t seed,
		     struct ssd_drive **out);
void ssd_drive_destroy(struct ssd_drive *s);

/* Add what ssd_drive_create(c) allocates to m: the FTL's part to m->ftl,
 * the controller's DRAM to m->dram, and with `uses` (SSD_MEM_VERIFY,
 * SSD_MEM_POWER) the out-of-band tags, the host's record (4 bytes per
 * logical page: verify.h, kept by the machine's entry) and power
 * tracking. */
void ssd_drive_mem_add(const struct ssd_config *c, unsigned uses,
		       struct ssd_mem *m);

/* The command interface (device.h's ssd_dev_submit, flush, idle,
 * prefetch, for this drive alone). */
int64_t ssd_drive_submit(struct ssd_drive *s, int ddir, uint64_t offset,
			 uint32_t len, int64_t t);
int64_t ssd_drive_flush(struct ssd_drive *s, int64_t t);
int ssd_drive_idle(struct ssd_drive *s, int64_t until);
void ssd_drive_prefetch(const struct ssd_drive *s, uint64_t offset,
			uint32_t len, int stage);

/* A zoned drive (docs/zoned.md; device.h's ssd_dev_zone_*): 1 and *zi
 * filled if it is one; Zone Management Send at t (vrec, the host's
 * record, may be NULL: a reset's pages read as zeros afterwards); a
 * zone's descriptor; the byte offset of the latest Zone Append. */
int ssd_drive_zoned(const struct ssd_drive *s, struct ssd_zoned_info *zi);
int64_t ssd_drive_zone_send(struct ssd_drive *s, uint32_t *vrec, int action,
			    uint64_t offset, int flags, int64_t t);
/* A zoned drive's zones against its FTL: each zone's write pointer (a
 * full zone's written end) where the FTL's data of it ends, and the zone
 * state machine's own invariants.  0, or SSD_ESTATE with a line in err
 * (n bytes, may be 0). */
int ssd_drive_zones_check(const struct ssd_drive *d, char *err, size_t n);
int ssd_drive_zone_report(const struct ssd_drive *s, uint32_t zone,
			  struct ssd_zone_desc *out);
uint64_t ssd_drive_append_offset(const struct ssd_drive *s);
/* Flexible data placement (docs/fdp.md): the placement identifiers a
 * write may name (its reclaim unit handle status list, in order); writes
 * up to max of them to pids and returns how many there are (0: no FDP). */
uint32_t ssd_drive_placement_ids(const struct ssd_drive *s, uint32_t *pids,
				 uint32_t max);
/* Reclaim Unit Handle Update of the n placement identifiers pids at t
 * (ssd_ftl_fdp_update).  Returns the completion time, SSD_FDP_EPID for
 * an identifier the drive does not have (nothing done), SSD_EUNSUP
 * without FDP. */
int64_t ssd_drive_fdp_update(struct ssd_drive *s, const uint32_t *pids,
			     uint32_t n, int64_t t);
/* 1 if page lpn's latest data is the host's, in a zone random write
 * area (DRAM), not yet on flash. */
int ssd_drive_zrwa_holds(const struct ssd_drive *s, uint32_t lpn);

/* The timing checks of every command (device.h), with the FTL's
 * invariant checker every `victims` GC victims (0: off). */
void ssd_drive_set_check_every(struct ssd_drive *s, uint32_t victims);

/* Power loss (device.h's ssd_dev_power_*): vrec is the host's record of
 * what it wrote (verify.h), which the cut brings in line with what
 * survived. */
int ssd_drive_power_track(struct ssd_drive *s);
int ssd_drive_power_durable(const struct ssd_drive *s, const uint32_t *lpn,
			    uint32_t n, uint8_t *out);
int ssd_drive_power_cut(struct ssd_drive *s, uint32_t *vrec,
			struct ssd_power_cut *pc);

#endif
