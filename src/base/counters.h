/*
 * counters.h -- what the drive counts: the counters the FTL, the flash
 * and the device keep as they work, and the drive's health at a moment.
 *
 * Counters only grow; a job's (or a phase's) figures are the difference
 * of two snapshots (ssd_counters_sub).  Write amplification has one
 * definition, ssd_counters_waf: NAND bytes programmed per host byte
 * written.
 *
 * Units: "lp" = a 4 KiB logical page (SSD_LPAGE bytes); bytes are bytes.
 */
#ifndef SSD_COUNTERS_H
#define SSD_COUNTERS_H

#include <stdint.h>

/* The most reclaim unit handles a drive with FDP has (fdp_handles). */
#define SSD_FDP_MAX_HANDLES 128

/* Drive-wide counters, kept by the FTL and device; a job's figures are
 * the difference of two snapshots.  "lp" = 4 KiB logical page. */
struct ssd_counters {
	uint64_t host_read_lp;     /* host 4 KiB pages read */
	uint64_t host_write_lp;    /* host 4 KiB pages written */
	uint64_t host_trim_lp;     /* host 4 KiB pages trimmed */
	uint64_t host_unmapped_read_lp; /* reads of unmapped pages (no NAND) */
	uint64_t nand_read;        /* NAND pages read (a multi-plane read
	                              counts a page per plane) */
	uint64_t nand_prog;        /* NAND pages programmed (a multi-plane
	                              program counts a page per plane) */
	uint64_t nand_prog_lp;     /* 4 KiB units programmed (incl. padding) */
	uint64_t nand_erase;       /* blocks erased (per plane, likewise) */
	uint64_t gc_copy_lp;       /* 4 KiB units moved by GC */
	uint64_t gc_victims;       /* blocks cleaned by GC */
	uint64_t gc_bg_copy_lp;    /* of which in idle-time background GC */
	uint64_t pad_lp;           /* 4 KiB units of padding (flush) */
	uint64_t flushes;          /* host flush commands */
	uint64_t fold_copy_lp;     /* of gc_copy_lp: SLC cache folding */
	uint64_t wl_copy_lp;       /* of gc_copy_lp: static wear leveling */
	uint64_t slc_write_lp;     /* host 4 KiB pages written in SLC mode */
	uint64_t map_read;         /* map pages read on map-cache misses */
	uint64_t map_write;        /* dirty map pages written back */
	uint64_t erase_fail;       /* erases that failed (block retired) */
	uint64_t prog_fail;        /* programs that failed (block retired) */
	uint64_t ro_reject;        /* host writes refused: drive read-only */
	uint64_t buffer_hits;      /* host writes absorbed by the DRAM buffer */
	uint64_t host_write_bytes; /* bytes the host wrote (a write of part of
	                              a 4 KiB page counts its own bytes) */
	uint64_t rmw_read_lp;      /* 4 KiB pages read to merge a partial write */
	uint64_t read_retry;       /* read retries: extra array reads of a
	                              page that failed ECC (not in nand_read) */
	uint64_t read_ahead_lp;    /* 4 KiB pages read ahead into DRAM (their
	                              NAND reads are in nand_read) */
	uint64_t read_ahead_hit_lp;/* host 4 KiB pages read from the
	                              read-ahead buffer (in host_read_lp) */
	uint64_t power_cuts;       /* power cuts survived (ssd_dev_power_cut) */
	uint64_t power_lost_lp;    /* 4 KiB pages whose latest write or TRIM
	                              a power cut lost */
	/* block and log-block mapping (docs/mapping.md); their copies are
	 * in gc_copy_lp */
	uint64_t merge_switch;     /* merges that copied nothing */
	uint64_t merge_partial;    /* merges that copied only past the
	                              host's data */
	uint64_t merge_full;       /* merges that copied around it */
	/* a zoned drive (docs/zoned.md) */
	uint64_t zone_reset;       /* zones reset that held data */
	uint64_t zone_reset_lp;    /* 4 KiB pages of host data they held */
	uint64_t zone_finish;      /* zones finished (by the host or the
	                              controller) */
	uint64_t zone_finish_pad_lp; /* 4 KiB units a Finish padded (also in
	                              pad_lp) */
	uint64_t zone_reset_ns;    /* Zone Sends that reset: their latency, */
	uint64_t zone_finish_ns;   /* ... that finished: theirs, ns in all */
	uint64_t fdp_bad_pid;      /* writes refused: their placement
	                              identifier names no handle (events) */
	/* flexible data placement's events and handle usage (docs/fdp.md) */
	uint64_t fdp_ru_unfilled;  /* events: reclaim units a handle update
	                              left not written to capacity */
	uint64_t fdp_media_realloc;/* events: programs that failed in a
	                              reclaim unit, its data moved */
	uint64_t fdp_gc_shared_lp; /* GC copies into blocks the handles share
	                              (initial isolation's GC write points) */
	uint64_t fdp_host_lp[SSD_FDP_MAX_HANDLES];  /* [handle] host 4 KiB
	                              pages written */
	uint64_t fdp_media_lp[SSD_FDP_MAX_HANDLES]; /* [handle] 4 KiB pages
	                              programmed into its blocks: its host
	                              pages and the GC copies put there */
};


/* The drive's health, SMART-like, at one moment. */
#define SSD_WEAR_BINS 16
struct ssd_health {
	double percentage_used;    /* mean wear / rated P/E cycles, % (passes
	                              100 when the drive is used up) */
	double max_wear_pct;       /* the most-worn block, % of its rating */
	double available_spare;    /* % of the initial spare blocks left */
	uint64_t spare_blocks;     /* spare blocks left (can be negative: 0) */
	uint64_t bad_blocks;       /* retired blocks */
	uint64_t erase_failures, program_failures;
	int read_only;             /* 1: spares exhausted, writes refused */
	uint64_t host_bytes_written, host_bytes_read, nand_bytes_written;
	uint32_t erase_min, erase_max; /* erase operations per block */
	double erase_mean;
	/* erase-count histogram: bin i counts blocks with
	 * erase_hist_lo + i*erase_hist_width <= erases < ... + width */
	uint32_t erase_hist_lo, erase_hist_width;
	uint64_t erase_hist[SSD_WEAR_BINS];
	uint64_t slc_cache_bytes;  /* data in SLC-mode blocks now */
};

/* c = a - b, field by field. */
void ssd_counters_sub(struct ssd_counters *c, const struct ssd_counters *a,
		      const struct ssd_counters *b);

/* Write amplification: bytes programmed into NAND (padding included) per
 * byte the host wrote; when only whole pages were counted (FTL-level
 * use, no host bytes), per 4 KiB page written.  NAN before any write. */
double ssd_counters_waf(const struct ssd_counters *c);

/* Write amplification between two snapshots: ssd_counters_waf of
 * now - then.  NAN if nothing was written in between. */
double ssd_counters_waf_since(const struct ssd_counters *now,
			      const struct ssd_counters *then);

#endif
