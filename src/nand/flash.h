/*
 * flash.h -- the flash backend: channels, dies and their timing, in front
 * of the NAND state.
 *
 * Time model.  Every resource keeps a busy-until stamp in simulated ns, so
 * scheduling an operation is O(1): it starts when both its inputs are
 * ready and its resource is free, and pushes the stamp forward.
 *   die      runs one array operation at a time: read (tR), program
 *            (tPROG), erase (tBERS).  Dies work in parallel.
 *   channel  a bus shared by its dies; moving n bytes costs
 *            n / channel_mbps.  Reads move data out after tR, writes move
 *            it in before tPROG.
 *   register each allocation unit has a cache register (NAND cache
 *            program): data for the next page can be moved in while the
 *            previous page programs, and the register frees when that
 *            program starts.  This is what lets a write complete before
 *            its page is programmed -- and what throttles writes to the
 *            rate the dies can program once the pipeline is full.
 *
 * Page types.  The cells of a wordline store bits-per-cell pages, and
 * they are not alike: the LSB page is read by sensing one or two
 * reference voltages and programmed in a coarse step, the MSB page needs
 * the most sensing levels and the finest program.  Page p of a block is
 * of type p % bits (0 = LSB, bits - 1 = MSB; the pages of a wordline are
 * taken as consecutive, a documented simplification of the staggered
 * pairings real parts use).  Type i of b reads in
 *     t_read * (1 + t_read_spread * (2i / (b - 1) - 1)) / m
 * and programs likewise with t_prog_spread, where m is the mean of the
 * factor over the block's pages, so the mean tR and tPROG over a block
 * are t_read and t_prog (to within a nanosecond) and the drive's
 * throughput and calibration stay where they were; only the spread is
 * new.  The times sit in a 4-entry table per type, a byte per page index
 * gives the type, and for the hot path both are folded into one table of
 * times per page index: one load and no division.  SLC, and blocks in
 * SLC mode, have one type (t_read_slc, t_prog_slc).
 *
 * Read retry.  A read may fail ECC and be retried with shifted reference
 * voltages: another tR of the page's type per retry.  The chance per
 * attempt is read_retry_rate on a fresh block, rising linearly by
 * read_retry_wear per rated life (erases / pe_cycles, capped at 0.99);
 * attempts repeat until one succeeds, at most SSD_FLASH_RETRY_MAX times.
 * Draws come from the backend's own generator, seeded from the run's
 * seed, and only while retries are configured: with both keys 0 no
 * number is drawn and the timing is what it was without the model.  GC
 * reads and map reads retry like host reads; retries are counted in
 * read_retry, not in nand_read (they read no new page).
 *
 * Units.  The FTL allocates per "unit": a plane of a die, or a whole die
 * when planes work in lockstep (multiplane).  Units are numbered so that
 * consecutive units sit on different channels, then different dies, then
 * different planes: striping pages over consecutive units spreads them
 * over the hardware.
 *
 * Timing accounting.  While the invariant checker is on
 * (ssd_flash_account), every operation is also entered in a record of
 * its resources: the die and the unit (plane) for an array operation,
 * the channel for a transfer.  Each record keeps the start of its first
 * operation, the end of its latest and the sum of their durations, and
 * each new operation is held to three rules at once: it starts no
 * earlier than its input is ready (the data in the controller or the
 * register, the register free), no earlier than the previous operation
 * on the same resource ends (a die, a plane and a channel do one thing
 * at a time), and it does not end before it starts.  The first broken
 * rule is kept, with the operation, its times and how many operations
 * came before (ssd_flash_check_timing reports it); the check also asks
 * that no resource was busy longer than the time that passed between
 * its first operation's start and its last one's end, and that no
 * busy-until stamp is behind the end of the latest operation entered.
 * Off, it costs the hot path almost nothing: array reads and programs
 * take their accounting road out of tests they make anyway (a read's
 * retry test: read_slow; a program's page-order test: prog_lim), and
 * register loads, register hits and map-table traffic test a pointer.
 */
#ifndef SSD_FLASH_H
#define SSD_FLASH_H

#include <stddef.h>
#include <stdint.h>

#include "base/config.h"
#include "nand/nand.h"
#include "base/counters.h"

/* The backend's state.  Its definition is here, not in a private header,
 * because the per-page operations below are static inline on the FTL's
 * hot path; its fields belong to src/nand, and other layers read the
 * array's state through the functions below. */
struct ssd_flash {
	struct ssd_nand nand;
	uint32_t units;          /* allocation units (see above) */
	uint32_t dies;
	uint32_t channels;
	uint32_t lp_per_page;    /* 4 KiB units per (multi-plane) page */
	int64_t t_read, t_prog, t_erase; /* ns */
	int64_t t_read_slc, t_prog_slc;  /* ns, blocks in SLC mode */
	int64_t xfer_lp;         /* ns to move 4 KiB over a channel */
	int64_t *die_busy;       /* [die] busy until, ns */
	int64_t *chan_busy;      /* [channel] busy until, ns */
	int64_t *reg_free;       /* [unit] cache register free at, ns */
	uint32_t erase_blocks;   /* planes per unit: the physical blocks of
	                            an FTL block erase, the pages of a
	                            (multi-plane) page read or program, as
	                            the counters count them */
	uint32_t *udie, *uchan;  /* [unit] its die and channel (no division
	                            on the hot path) */
	uint32_t *die_page;      /* [die] page in its data register, or
	                            UINT32_MAX */
	struct ssd_counters *ctr;
	struct ssd_flash_acct *acct; /* timing accounting (see above); NULL
	                                while off */
	struct ssd_flash_acct *acct_store; /* its records, allocated with
	                                      the backend */
	/* page types (see above) */
	uint8_t *ptype;          /* [page in block] its type, 0 = LSB */
	int64_t t_read_pt[4];    /* ns, tR by page type (native mode) */
	int64_t t_prog_pt[4];    /* ns, tPROG by page type (native mode) */
	int64_t *t_read_pg;      /* [page in block] its type's tR, ns (the
	                            hot path's one load) */
	int64_t *t_prog_pg;      /* [page in block] its type's tPROG, ns */
	/* read retry (see above) */
	int retry_on;            /* 1: retries configured, draws are made */
	int read_slow;           /* 1: array reads go the slow road
	                            (ssd_flash_read_slow): retries or the
	                            accounting are on */
	uint32_t prog_lim[2];    /* programs go the fast road below page
	                            [slc] of a block: its pages in that mode,
	                            0 while accounting (see ssd_flash_program) */
	uint64_t retry_base;     /* P(retry) of a fresh block, 2^-48 units */
	uint64_t retry_slope;    /* added per erase of the block, 2^-48 */
	uint64_t retry_cap;      /* the highest P(retry), 2^-48 units */
	uint32_t retry_full;     /* erases from which P(retry) is retry_cap */
	struct ssd_rng rng;      /* retry draws, from the run's seed */
};

/* The timing accounting's record of one resource (a die, a channel or a
 * unit), over the operations entered since accounting was turned on. */
struct ssd_flash_res {
	int64_t first;           /* start of its first operation, ns */
	int64_t end;             /* end of its latest operation, ns */
	int64_t busy;            /* sum of its operations' durations, ns */
	uint64_t ops;            /* operations entered */
};

struct ssd_flash_acct {
	struct ssd_flash_res *res; /* [dies] dies, then [channels] channels,
	                              then [units] units */
	uint64_t ops;            /* operations entered in all */
	int *due;                /* set to 1 when a rule breaks (the FTL's
	                            "check at the end of this call") */
	char msg[208];           /* the first broken rule, "" while none */
};

/* What an entered operation did, for the messages: array operations on
 * a die and its unit, then transfers over a channel. */
enum ssd_flash_op {
	SSD_FLASH_OP_READ,       /* array read (tR) */
	SSD_FLASH_OP_PROG,       /* program (tPROG) */
	SSD_FLASH_OP_ERASE,      /* erase (tBERS) */
	SSD_FLASH_OP_MAP_READ,   /* map-table page read */
	SSD_FLASH_OP_MAP_PROG,   /* map-table page program */
	SSD_FLASH_OP_OUT,        /* data out of a die's register */
	SSD_FLASH_OP_LOAD,       /* data into a unit's cache register */
	SSD_FLASH_OP_MAP_OUT,    /* map page out */
	SSD_FLASH_OP_MAP_LOAD    /* map page in */
};

/* Enter operation `op` on `unit` (block blk, page `page` of the block,
 * or UINT32_MAX where none applies): input ready at `in`, running from
 * `start` to `end`, ns.  Called by the operations below while acct is
 * set. */
void ssd_flash_account_op(struct ssd_flash *f, int op, uint32_t unit,
			  uint32_t blk, uint32_t page, int64_t in,
			  int64_t start, int64_t end);

/* The slow roads of ssd_flash_read and ssd_flash_program (flash.c):
 * the same operation, with read retries and the accounting. */
int64_t ssd_flash_read_slow(struct ssd_flash *f, uint32_t unit, uint32_t blk,
			    uint32_t page, uint32_t nlp, int64_t t);
int64_t ssd_flash_program_slow(struct ssd_flash *f, uint32_t unit,
			       uint32_t blk, int64_t t);

/* Retries of one read at most (a read-retry table's length). */
#define SSD_FLASH_RETRY_MAX 8

/* Build the backend for a finished config; `nblocks` FTL blocks in all.
 * Counters are updated through `ctr` (owned by the caller); `seed` seeds
 * the read-retry draws.  Returns 0 or SSD_ENOMEM. */
int ssd_flash_init(struct ssd_flash *f, const struct ssd_config *c,
		   uint32_t nblocks, struct ssd_counters *ctr, uint64_t seed);
void ssd_flash_free(struct ssd_flash *f);

/* Bytes ssd_flash_init allocates for that config and block count, the
 * NAND state's per-block arrays included. */
uint64_t ssd_flash_mem(const struct ssd_config *c, uint32_t nblocks);

/* Timing accounting on (from now on, records emptied) or off; `due`,
 * if not NULL, is set to 1 whenever a rule breaks.  Costs nothing to
 * turn on: the records were allocated with the backend. */
void ssd_flash_account(struct ssd_flash *f, int on, int *due);

/* The timing invariants (see "Timing accounting" above): 0, or
 * SSD_ESTATE with one line in err naming the resource, the operation,
 * the times and the count of operations so far.  O(dies + channels +
 * units).  With accounting off it checks nothing and returns 0. */
int ssd_flash_check_timing(const struct ssd_flash *f, char *err,
			   size_t errlen);

/* The shortest array read and program any page of this backend takes,
 * ns (retries not counted: they only add): over the page types of a
 * native block, and SLC mode's too if `slc` (the FTL may put blocks in
 * SLC mode).  Map-table pages take the mean native times, never below
 * these.  The bounds the checker holds commands to. */
void ssd_flash_min_times(const struct ssd_flash *f, int slc,
			 int64_t *t_read, int64_t *t_prog);

/* Fault injection, for the checker's tests: each breaks the timing
 * model on purpose.  DIE_BACK and CHAN_BACK move the busy-until stamp of
 * die or channel `index` back by ns (as an operation that forgot to push
 * it), so the next operation there overlaps the previous one; BUSY adds
 * ns to die `index`'s accounted busy time (an operation counted twice);
 * T_READ and T_PROG make every array read or program take ns from now
 * on (a broken timing table). */
enum {
	SSD_FLASH_FAULT_DIE_BACK,
	SSD_FLASH_FAULT_CHAN_BACK,
	SSD_FLASH_FAULT_BUSY,
	SSD_FLASH_FAULT_T_READ,
	SSD_FLASH_FAULT_T_PROG
};
void ssd_flash_fault(struct ssd_flash *f, int what, uint32_t index,
		     int64_t ns);

/* Time to move 4 KiB over a channel of config c, ns (channel_mbps,
 * rounded up). */
int64_t ssd_flash_xfer_ns(const struct ssd_config *c);

/* Draw the read retries of one read of a block erased `erases` times (a
 * geometric count, at most SSD_FLASH_RETRY_MAX), count them and return
 * how many.  Only called while retry_on. */
uint32_t ssd_flash_retries(struct ssd_flash *f, uint32_t erases);

/* The array's state of one block, for the FTL (it never reads the
 * fields itself): its mode, pages programmed since its erase, pages it
 * holds in its mode, erases so far. */
static inline int ssd_flash_slc(const struct ssd_flash *f, uint32_t blk)
{
	return f->nand.slc[blk];
}

static inline uint32_t ssd_flash_next_page(const struct ssd_flash *f,
					   uint32_t blk)
{
	return f->nand.next_page[blk];
}

static inline uint32_t ssd_flash_block_pages(const struct ssd_flash *f,
					     uint32_t blk)
{
	return ssd_nand_pages(&f->nand, blk);
}

static inline uint32_t ssd_flash_erases(const struct ssd_flash *f,
					uint32_t blk)
{
	return f->nand.erases[blk];
}

/* 1 if page `page` (index in the block) of blk holds programmed data. */
static inline int ssd_flash_programmed(const struct ssd_flash *f,
				       uint32_t blk, uint32_t page)
{
	return ssd_nand_programmed(&f->nand, blk, page);
}

/* Choose the mode of an erased block (ssd_nand_set_slc): 0, or
 * SSD_ESTATE if it holds programmed pages. */
static inline int ssd_flash_set_slc(struct ssd_flash *f, uint32_t blk,
				    int slc)
{
	return ssd_nand_set_slc(&f->nand, blk, slc);
}

/* Erase-count distribution over all blocks (ssd_nand_erase_stats). */
static inline void ssd_flash_erase_stats(const struct ssd_flash *f,
					 uint32_t *min, double *mean,
					 uint32_t *max)
{
	ssd_nand_erase_stats(&f->nand, min, mean, max);
}

static inline uint32_t ssd_flash_die(const struct ssd_flash *f, uint32_t unit)
{
	return f->udie[unit];
}

static inline uint32_t ssd_flash_chan(const struct ssd_flash *f, uint32_t unit)
{
	return f->uchan[unit];
}

/* The per-page operations are always inlined: their accounting calls,
 * never made while the checker is off, would otherwise tip the
 * compiler's size estimate and leave them out of line in the GC copy
 * loop. */
#define SSD_FLASH_HOT_ static inline __attribute__((always_inline))

/* Array time of reading page `page` (global page number) of blk: the
 * page type's tR (or t_read_slc), times 1 + its retries. */
static inline int64_t ssd_flash_t_read(struct ssd_flash *f, uint32_t blk,
				       uint32_t page)
{
	const struct ssd_nand *n = &f->nand;
	int64_t tr = n->slc[blk] ? f->t_read_slc
				 : f->t_read_pg[page - blk * n->pages_per_block];
	if (f->retry_on)
		tr += tr * ssd_flash_retries(f, n->erases[blk]);
	return tr;
}

/* Read page `page` (a global page number) of blk on `unit` and move `nlp`
 * 4 KiB units of it to the controller, starting no earlier than t.
 * Returns the time the data is in the controller.  The array read takes
 * the page type's tR (SLC-mode blocks t_read_slc) and its read retries'
 * (ssd_flash_t_read).  The die keeps the page in its data register until
 * its next operation: reading more of the same page meanwhile costs only
 * the transfer (a sequential stream of reads smaller than a page). */
SSD_FLASH_HOT_ int64_t ssd_flash_read(struct ssd_flash *f, uint32_t unit,
				     uint32_t blk, uint32_t page, uint32_t nlp,
				     int64_t t)
{
	uint32_t d = ssd_flash_die(f, unit), c = ssd_flash_chan(f, unit);
	int64_t ready;
	if (f->die_page[d] == page) {
		if (__builtin_expect(f->acct != NULL, 0))
			return ssd_flash_read_slow(f, unit, blk, page, nlp, t);
		ready = t;
	} else {
		/* read retries and the accounting take the same road out */
		if (__builtin_expect(f->read_slow, 0))
			return ssd_flash_read_slow(f, unit, blk, page, nlp, t);
		const struct ssd_nand *n = &f->nand;
		int64_t s = ssd_max64(t, f->die_busy[d]);
		ready = s + (n->slc[blk] ? f->t_read_slc
					 : f->t_read_pg[page - blk * n->pages_per_block]);
		f->die_busy[d] = ready;
		f->die_page[d] = page;
		f->ctr->nand_read += f->erase_blocks;
	}
	int64_t xs = ssd_max64(ready, f->chan_busy[c]);
	int64_t done = xs + (int64_t)nlp * f->xfer_lp;
	f->chan_busy[c] = done;
	return done;
}

/* Move `nlp` 4 KiB units from the controller into the unit's cache
 * register, no earlier than t.  Returns the time the data is there. */
SSD_FLASH_HOT_ int64_t ssd_flash_load(struct ssd_flash *f, uint32_t unit,
				     uint32_t nlp, int64_t t)
{
	uint32_t c = ssd_flash_chan(f, unit);
	int64_t s = ssd_max64(ssd_max64(t, f->chan_busy[c]), f->reg_free[unit]);
	int64_t done = s + (int64_t)nlp * f->xfer_lp;
	f->chan_busy[c] = done;
	if (__builtin_expect(f->acct != NULL, 0))
		ssd_flash_account_op(f, SSD_FLASH_OP_LOAD, unit, UINT32_MAX,
				     UINT32_MAX, ssd_max64(t, f->reg_free[unit]),
				     s, done);
	return done;
}

/* Program the next page of blk on `unit` with the register's data, ready
 * at t, in its page type's tPROG (SLC-mode blocks t_prog_slc).  Enforces
 * NAND order.  Returns the program's end time, or SSD_ESTATE (negative)
 * if the flash rules forbid it. */
SSD_FLASH_HOT_ int64_t ssd_flash_program(struct ssd_flash *f, uint32_t unit,
					uint32_t blk, int64_t t)
{
	/* the NAND rule (ssd_nand_program) with the block's mode read once;
	 * while accounting, prog_lim is 0 and every program goes the slow
	 * road, which checks the rule itself */
	struct ssd_nand *n = &f->nand;
	int slc = n->slc[blk];
	uint32_t p = n->next_page[blk];
	if (p >= f->prog_lim[slc])
		return ssd_flash_program_slow(f, unit, blk, t);
	n->next_page[blk] = p + 1;
	uint32_t d = ssd_flash_die(f, unit);
	int64_t s = ssd_max64(t, f->die_busy[d]);
	int64_t tp = slc ? f->t_prog_slc : f->t_prog_pg[p];
	f->die_page[d] = UINT32_MAX;
	f->reg_free[unit] = s;
	f->die_busy[d] = s + tp;
	f->ctr->nand_prog += f->erase_blocks;
	f->ctr->nand_prog_lp += f->lp_per_page;
	return s + tp;
}

/* Map-table traffic of a DRAM-less controller: read or program a page of
 * the translation area on `unit` (native timing: the mean t_read and
 * t_prog, read retries at the fresh-block rate), outside the NAND state
 * the FTL manages.  Counted like any NAND read or program. */
static inline int64_t ssd_flash_read_raw(struct ssd_flash *f, uint32_t unit,
					 uint32_t nlp, int64_t t)
{
	uint32_t d = ssd_flash_die(f, unit), c = ssd_flash_chan(f, unit);
	f->die_page[d] = UINT32_MAX;
	int64_t tr = f->t_read;
	if (f->retry_on)
		tr += tr * ssd_flash_retries(f, 0);
	int64_t s = ssd_max64(t, f->die_busy[d]);
	int64_t ready = s + tr;
	f->die_busy[d] = ready;
	int64_t xs = ssd_max64(ready, f->chan_busy[c]);
	int64_t done = xs + (int64_t)nlp * f->xfer_lp;
	f->chan_busy[c] = done;
	f->ctr->nand_read += f->erase_blocks;
	if (__builtin_expect(f->acct != NULL, 0)) {
		ssd_flash_account_op(f, SSD_FLASH_OP_MAP_READ, unit, UINT32_MAX,
				     UINT32_MAX, t, s, ready);
		ssd_flash_account_op(f, SSD_FLASH_OP_MAP_OUT, unit, UINT32_MAX,
				     UINT32_MAX, ready, xs, done);
	}
	return done;
}

static inline int64_t ssd_flash_program_raw(struct ssd_flash *f,
					    uint32_t unit, int64_t t)
{
	uint32_t d = ssd_flash_die(f, unit), c = ssd_flash_chan(f, unit);
	f->die_page[d] = UINT32_MAX;
	int64_t xs = ssd_max64(t, f->chan_busy[c]);
	int64_t in = xs + (int64_t)f->lp_per_page * f->xfer_lp;
	f->chan_busy[c] = in;
	int64_t s = ssd_max64(in, f->die_busy[d]);
	int64_t end = s + f->t_prog;
	f->die_busy[d] = end;
	f->ctr->nand_prog += f->erase_blocks;
	f->ctr->nand_prog_lp += f->lp_per_page;
	if (__builtin_expect(f->acct != NULL, 0)) {
		ssd_flash_account_op(f, SSD_FLASH_OP_MAP_LOAD, unit, UINT32_MAX,
				     UINT32_MAX, t, xs, in);
		ssd_flash_account_op(f, SSD_FLASH_OP_MAP_PROG, unit, UINT32_MAX,
				     UINT32_MAX, in, s, end);
	}
	return end;
}

/* Erase blk on `unit` no earlier than t.  Returns the end time. */
int64_t ssd_flash_erase(struct ssd_flash *f, uint32_t unit, uint32_t blk,
			int64_t t);

/* Latest busy-until stamp of the die under `unit`. */
static inline int64_t ssd_flash_unit_busy(const struct ssd_flash *f,
					  uint32_t unit)
{
	return f->die_busy[ssd_flash_die(f, unit)];
}

/* Snapshots (base/snapfile.h, docs/snapshots.md): the flash's state --
 * the dies', channels' and registers' busy-until stamps, the pages in
 * the dies' data registers, the read-retry generator, and the array's
 * page counts, erase counts and modes -- written as sections, and read
 * back into a backend built for the same configuration (0 or a negative
 * SSD_E*, the reason kept in r).  The timing accounting is the
 * checker's, not the drive's: it is not saved. */
struct ssd_snapw;
struct ssd_snapr;
void ssd_flash_snap_save(const struct ssd_flash *f, struct ssd_snapw *w);
int ssd_flash_snap_load(struct ssd_flash *f, struct ssd_snapr *r);

#endif
