/*
 * dircopy.h -- filling a drive the way the reviewers did: directories of
 * real files copied onto a fresh file system until the volume is full
 * (seed 003: THG filled the Crucial M4 and the Intel 510 "by copying
 * directories"; seed 004 copied ~1 M files to 80% of the Samsung 470).
 * What reaches the drive is not one sequential write but a copy's LBA
 * stream: a sequential run per file, small metadata writes interleaved,
 * files not always contiguous.  docs/fill.md says the same with the
 * figures.
 *
 * The files.  A named set (ssd_dircopy_set_find):
 *   impressions  sizes drawn one by one until the target, from the
 *                defaults Impressions (Agrawal, Arpaci-Dusseau and
 *                Arpaci-Dusseau, FAST 2009) fitted to the five-year
 *                study of Windows file systems (Agrawal, Bolosky,
 *                Douceur and Lorch, FAST 2007): with weight 0.99994 a
 *                lognormal of mu 9.48, sigma 2.457 (ln bytes; median
 *                13 KB, mean 268 KB), else a Pareto tail from x_m =
 *                2^29 bytes with alpha 0.91 -- its few files hold half
 *                the bytes;
 *   win7, game,  the sets NextHardware copied again and again in its
 *   media        Kingston SSDNow V review: a Windows 7 folder (20,490
 *                items, 6.25 GB), a game (2,037, 12.4 GB), media
 *                (1,071, 24.6 GB);
 *   usb          seed 004's: ~1 M files in 37 copies of a flash-drive
 *                test set to 80% of 250 GB (27,027 files, 5.41 GB).
 * A fixed set draws its sizes once from the same lognormal shape (sigma
 * 2.457), scaled to hold exactly its bytes, and is copied whole, again
 * and again, each copy into a directory of its own.  Directories hold
 * 10.2 files on average (Impressions' default; the count per directory
 * is geometric, our choice), and a new directory's parent is an earlier
 * one of its copy with probability in proportion to its subdirectories
 * + 2 (the generative model of Agrawal et al. 2007).
 *
 * The file system: NTFS as Windows 7 formats a volume, 4 KiB clusters,
 * reduced to what makes the LBA stream.  The clusters:
 *   - the first 64 KiB (boot sector, $MFTMirr), not written by the copy;
 *   - $MFT: 1 KiB records, four to a cluster, from cluster 786,432 (3
 *     GiB in, where Windows' format puts it; a smaller volume: 1/8 of
 *     the way), inside an MFT zone of 200 MB that data avoid until the
 *     rest of the volume is full; the MFT grows by 256 KiB at a time,
 *     and when it outgrows its zone a new 200 MB zone is reserved where
 *     the allocator stands (Vista and later: KB 961095);
 *   - $LogFile, 64 MiB (a large volume's default) after the first zone,
 *     written round and round, 1 KiB of log per file or directory made;
 *   - $Bitmap after it, a bit per cluster: every allocation writes the
 *     4 KiB pages holding its bits (one covers 128 MiB);
 *   - directory indexes: a directory's first 3 entries live in its MFT
 *     record, then INDX blocks of 4 KiB (32 entries each) taken from the
 *     data space where the allocator stands, between the files;
 *   - files: data of at most 700 bytes is resident in the MFT record (no
 *     cluster); larger files are allocated whole when created, by
 *     next-fit: from where the last allocation ended, the free extents
 *     in address order, a file cut where an extent ends (at a zone, the
 *     log, the end of the volume).  Once the space outside the MFT
 *     zones is used up, the zones' free clusters are, as NTFS uses its
 *     zone last.
 * The copy writes each file front to back in 1 MiB writes (whole
 * clusters: the tail of the last is zeros), and per file its MFT record
 * when it creates it and again when it closes it, the directory's index
 * page, a log record and the bitmap pages of its clusters.  Every write
 * -- data and metadata, each a whole 4 KiB page or more -- goes through
 * a host page cache (pagecache.h: the drive file's page_cache, else
 * 1 GiB, or 1/128 of a smaller volume -- a 2011 desktop's 4-8 GB of RAM
 * against its 128-256 GB drive; with pagecache.h's write-back policy),
 * so the drive sees what write-back
 * makes of it: the oldest dirty pages in offset order, contiguous ones
 * merged into commands of up to 1 MiB, metadata pages written again when
 * dirtied again.  The source the files come from is not modelled: the
 * copy goes as fast as the cache lets it (the drive's pace, once the
 * dirty limit is reached), so the drive sees no idle time; at the end
 * the cache is flushed.
 *
 * The target.  The copy goes on while the clusters in use (data,
 * indexes, MFT, log, bitmap, the system area; not a zone's free part)
 * are under fill x the volume; a file that does not fit in the free
 * clusters left is skipped (Explorer's "skip"), and 64 skips in a row
 * end the copy: that is "full".
 *
 * Not modelled: the format's own writes, the log's write-ahead order
 * (log pages go through the cache like the rest), security descriptors,
 * $UsnJrnl, short names, the parent directory's timestamps, Windows'
 * lazy writer (the page cache is Linux's).  Deterministic: everything
 * comes from opts->seed.
 *
 * Cost: per file O(extents + its clusters' bitmap pages) host work, the
 * page cache's per-page cost, a bit per cluster to tell metadata pages
 * at the drive, 16 bytes per extent kept for the delete.
 */
#ifndef SSD_DIRCOPY_H
#define SSD_DIRCOPY_H

#include <stdint.h>

#include "base/util.h"
#include "machine/device.h"
#include "job/fileset.h"

/* The smallest volume a directory copy takes, bytes. */
#define SSD_DIRCOPY_MIN_VOLUME (16ull << 20)

/* The file sets. */
enum ssd_dircopy_set {
	SSD_DC_IMPRESSIONS,
	SSD_DC_WIN7,
	SSD_DC_GAME,
	SSD_DC_MEDIA,
	SSD_DC_USB,
	SSD_DC_NSETS
};

/* What a page the copy writes holds. */
enum ssd_dircopy_kind {
	SSD_DC_DATA,   /* file data */
	SSD_DC_MFT,    /* MFT records */
	SSD_DC_INDEX,  /* directory index blocks (INDX) */
	SSD_DC_BITMAP, /* the cluster bitmap */
	SSD_DC_LOG,    /* $LogFile */
	SSD_DC_NKINDS
};

/* Set number `set`'s name ("impressions"...), its files and bytes per
 * copy (0, 0 for impressions: drawn until the target) and where it comes
 * from; NULL past the last. */
const char *ssd_dircopy_set_name(int set);
void ssd_dircopy_set_size(int set, uint64_t *files, uint64_t *bytes);
const char *ssd_dircopy_set_source(int set);
/* The set called `name`, or -1. */
int ssd_dircopy_set_find(const char *name);
/* A kind's name: "data", "mft", "index", "bitmap", "log". */
const char *ssd_dircopy_kind_name(int kind);

/* One file size of the Impressions distribution, bytes (>= 1), from r. */
uint64_t ssd_dircopy_draw_size(struct ssd_rng *r);
/* The sizes of one copy of fixed set `set` (not impressions) drawn from
 * `seed`: *n sizes in bytes (>= 1) summing exactly to the set's bytes,
 * into *sizes (malloc'ed: the caller frees).  0, SSD_EINVAL, SSD_ENOMEM. */
int ssd_dircopy_set_sizes(int set, uint64_t seed, uint64_t **sizes,
			  uint64_t *n);

struct ssd_dircopy_opts {
	int set;            /* enum ssd_dircopy_set */
	double fill;        /* (0, 1]: share of the volume in use at which
	                       the copy stops (1: until full) */
	uint64_t seed;
	uint64_t cache;     /* page cache bytes (a multiple of 4 KiB); 0:
	                       the drive file's page_cache, else 1 GiB (at
	                       most 1/128 of the volume) */
	/* Called for every write the drive gets (after the page cache),
	 * with the kind of most of its bytes; may be NULL. */
	void (*trace)(void *ctx, int kind, uint64_t offset, uint32_t len,
		      int64_t t);
	void *trace_ctx;
};

/* The defaults: impressions, fill 1, seed 1, cache 0, no trace. */
void ssd_dircopy_defaults(struct ssd_dircopy_opts *o);

/* A preconditioning as `ssdlab run --precondition` and a sweep's
 * `precondition` name it: "sequential" (a fill: *dircopy 0), or
 * "dircopy[:SET[:SHARE]]" (*dircopy 1, o from the defaults with SET and
 * SHARE).  0, or SSD_EPARSE with what is wrong in err ("must be
 * sequential or ...", "unknown file set ...", "the share ..."). */
int ssd_precondition_parse(const char *val, int *dircopy,
			   struct ssd_dircopy_opts *o, char *err,
			   size_t errlen);

/* What a copy did. */
struct ssd_dircopy_run {
	/* the file system's side */
	uint64_t files;        /* files copied */
	uint64_t dirs;         /* directories made (each copy's own too) */
	uint64_t copies;       /* copies of the set begun (impressions: 1) */
	uint64_t resident;     /* files whose data lives in the MFT record */
	uint64_t fragmented;   /* files in more than one extent */
	uint64_t extents;      /* data extents of the non-resident files */
	uint64_t skipped;      /* files that did not fit */
	uint64_t file_bytes;   /* the copied files' sizes, summed */
	uint64_t largest;      /* the largest file copied, bytes */
	uint64_t used;         /* bytes of the volume in use at the end */
	uint64_t volume;       /* bytes of the volume (whole clusters) */
	uint64_t fs_writes[SSD_DC_NKINDS]; /* writes into the cache, by kind
	                          (data: the copy's, up to 1 MiB each;
	                          metadata: a 4 KiB page each) */
	/* the drive's side: what write-back sent */
	uint64_t cmds[SSD_DC_NKINDS];  /* writes, by the kind of most of
	                          their bytes (data on a tie) */
	uint64_t bytes[SSD_DC_NKINDS]; /* bytes, by each page's kind */
	uint64_t data_seq_cmds; /* data writes that began where the data
	                          write before ended: the rest begin runs */
	int64_t start, end;    /* ns: the first write into the cache, the
	                          final flush's completion */
};

/*
 * Copy files onto dev from its current time, as above, and flush.
 * Fills *r.  With del not NULL, *del receives what deleting everything
 * would TRIM: every data extent and index block, in the order they were
 * allocated (ssd_fileset_trim; free with ssd_fileset_free).  Returns 0,
 * SSD_EINVAL (bad options, a volume under 16 MiB), SSD_ENOMEM, or the
 * drive's error (SSD_EROFS...).
 */
int ssd_dircopy(struct ssd_dev *dev, const struct ssd_dircopy_opts *o,
		struct ssd_dircopy_run *r, struct ssd_fileset *del);

#endif
