/*
 * ftl_bm.c -- block mapping and the log-block hybrids (mapping = block,
 * bast, fast; docs/mapping.md).
 *
 * Rows.  The scheme's block is a row: one block on every allocation
 * unit, so that a sequential stream keeps every die busy as the
 * page-mapped write points do (a "superblock": Kang et al., EMSOFT
 * 2006; the striped multi-block unit the JMF602's latencies point to).
 * A row holds lb = units x lp_per_block positions; position p lies in
 * group g = p / lp_per_page (a NAND page, or a multi-plane page), on
 * unit g % units, page g / units of that unit's block.  A logical block
 * lbn covers logical pages [lbn * lb, (lbn + 1) * lb), and in its data
 * row offset o sits at position o.
 *
 * Rows are filled in position order, as NAND programs a block's pages
 * in order (MLC datasheets forbid skipping pages: "random page address
 * programming is prohibited"), so a gap is filled with the newest copy
 * of the offsets it skips, or with padding where they hold no data.  A
 * group's data waits in its unit's cache register until the group is
 * complete; a unit's register holds one group, so putting data on a
 * unit whose register holds another row's group completes that group
 * first (with copies or padding), as a flush does.
 *
 * The maps are the page-mapped FTL's own (l2p, p2l, the valid bits and
 * counts, the out-of-band tags): a logical page's newest copy is where
 * l2p says, in its data row, a log, or a merge under way.  So reads,
 * TRIM, verification and the checker's map checks are shared, and every
 * merge reduces to one rule: fill a row's positions with the newest copy
 * of each offset.
 *
 * block    A write at or past the data row's filled positions goes in
 *          place; one before them opens a merge into a new row: the
 *          offsets before it are copied, then the write, and the merge
 *          stays open while writes to the same block keep going forward
 *          (the controller's small buffer coalescing them).  A write to
 *          another block, or backwards, closes it: the rest of the old
 *          row is copied and the old row erased.  Cost of an s-page
 *          write into a full block: (lb - s) reads and copies and lb/spp
 *          programs, and an erase per unit (Kim et al. 2002, the BAST
 *          paper's baseline).
 * bast     A logical block whose data row cannot take a write in place
 *          gets a log row of its own (Kim et al. 2002); writes append to
 *          it in any order.  A full log, or the oldest one when a block
 *          without one needs it and all log_blocks are taken, is merged:
 *          switch (the log holds every offset in order: it becomes the
 *          data row, the old one is erased), partial (in order up to k:
 *          the rest is copied into it), or full (every offset's newest
 *          copy into a new row; data row and log erased).
 * fast     Writes that cannot go in place go to log rows shared by every
 *          block (Lee et al. 2007): a write at offset 0 starts the one
 *          sequential log (merging the previous: switch or partial), a
 *          write continuing it appends to it, any other appends to the
 *          newest of log_blocks random logs.  When they are all full the
 *          oldest is reclaimed: one full merge for every logical block
 *          it holds a valid page of, then its erase.
 *
 * Merges count as switch, partial or full (counters merge_*); their
 * copies are gc_copy_lp.  Idle time closes the open merge (block) or
 * merges the oldest logs until gc_bg_blocks logs are free (bast, fast).
 * A flush programs every open group.  Not modelled: program failures
 * (blocks wear out at erase, and the drive turns read-only when a unit
 * has no free block left for a row), static wear leveling (dynamic:
 * the least-worn free block opens), power-loss tracking (refused).
 */
#include "ftl/ftl.h"
#include "ftl/ftl_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE SSD_NO_BLOCK

enum { ROW_DATA, ROW_LOG, ROW_SW, ROW_RW };

struct bm_row {
	uint32_t lbn;           /* its logical block (NONE: a fast random log) */
	uint32_t pos;           /* positions filled */
	uint32_t gcount;        /* copies in the open group, to load */
	uint32_t qnext;         /* log queue / free list link */
	uint32_t copies;        /* positions filled with copies */
	uint8_t kind;
	uint8_t inorder;        /* position i holds offset i, for every i < pos */
	uint8_t copy_first;     /* a copy came before a host write */
	int64_t gready;         /* the open group's data in the controller */
};

struct ftl_bm {
	int scheme;             /* enum ssd_mapping */
	uint32_t lb;            /* positions per row: units x lp_per_block */
	uint32_t nlbn;          /* logical blocks */
	uint32_t nrows;         /* row records */
	struct bm_row *row;
	uint32_t *rblk;         /* [row * units + unit] its block */
	uint32_t *data;         /* [lbn] data row */
	uint32_t *log;          /* [lbn] bast: its log row */
	uint32_t *uopen;        /* [unit] the row whose group its register holds */
	uint32_t free_head;     /* unused records */
	uint32_t lq_head, lq_tail; /* logs (bast) / random logs (fast), oldest first */
	uint32_t nlogs, max_logs, bg_logs;
	uint32_t sw;            /* fast: the sequential log */
	uint32_t mrow;          /* block: the open merge (its source is the
	                           block's data row until it closes) */
	int64_t last_prog;      /* the latest program's end */
	struct ssd_udiv div_lb;
};

static inline uint32_t *row_blocks(struct ftl_bm *m, uint32_t r, uint32_t units)
{
	return &m->rblk[(size_t)r * units];
}

/* The slot of position p of row r, and its unit. */
static inline uint32_t pos_slot(const struct ssd_ftl *f, uint32_t r,
				uint32_t p, uint32_t *ui)
{
	const struct ftl_bm *m = f->bm;
	uint32_t g = ssd_udiv(p, f->div_spp);
	uint32_t u = g % f->units, pg = g / f->units;
	*ui = u;
	return m->rblk[(size_t)r * f->units + u] * f->spb + pg * f->spp +
	       (p - g * f->spp);
}

static uint32_t row_valid(const struct ssd_ftl *f, uint32_t r)
{
	uint32_t v = 0;
	for (uint32_t ui = 0; ui < f->units; ui++)
		v += f->valid[f->bm->rblk[(size_t)r * f->units + ui]];
	return v;
}

/* A new row: a free block from every unit (the least worn with dynamic
 * wear leveling).  Returns the record, or NONE when some unit has none
 * left (blocks have worn out). */
static uint32_t row_alloc(struct ssd_ftl *f, int kind, uint32_t lbn)
{
	struct ftl_bm *m = f->bm;
	uint32_t r = m->free_head;
	if (r == NONE)
		return NONE;
	uint32_t *b = row_blocks(m, r, f->units);
	for (uint32_t ui = 0; ui < f->units; ui++) {
		b[ui] = ftl_free_pop(f, &f->unit[ui]);
		if (b[ui] == NONE) {
			while (ui--)
				ftl_free_push(f, b[ui]);
			return NONE;
		}
		f->state[b[ui]] = SSD_BLK_MAPPED;
	}
	m->free_head = m->row[r].qnext;
	m->row[r] = (struct bm_row){.lbn = lbn, .kind = (uint8_t)kind,
				    .inorder = 1, .qnext = NONE};
	return r;
}

/* Erase row r (it holds no valid data) and free its record. */
static void row_erase(struct ssd_ftl *f, uint32_t r, int64_t t)
{
	struct ftl_bm *m = f->bm;
	uint32_t *b = row_blocks(m, r, f->units);
	for (uint32_t ui = 0; ui < f->units; ui++) {
		if (m->uopen[ui] == r)
			m->uopen[ui] = NONE; /* its open group is dropped */
		ftl_erase_block(f, ui, b[ui], t);
	}
	m->row[r].qnext = m->free_head;
	m->free_head = r;
}

static int64_t row_fill(struct ssd_ftl *f, uint32_t r, uint32_t upto, int64_t t);

/* Program the group just completed on unit ui of row r. */
static int64_t group_program(struct ssd_ftl *f, struct bm_row *rw, uint32_t ui,
			     uint32_t blk, int64_t t)
{
	int64_t in = rw->gcount ? ssd_flash_load(&f->flash, ui, rw->gcount,
						 ssd_max64(rw->gready, t))
				: ssd_max64(rw->gready, t);
	int64_t end = ssd_flash_program(&f->flash, ui, blk, in);
	rw->gcount = 0;
	rw->gready = 0;
	if (end > f->bm->last_prog)
		f->bm->last_prog = end;
	return end;
}

/* Make unit ui's register free for row r: complete another row's open
 * group there first. */
static int64_t reg_take(struct ssd_ftl *f, uint32_t r, uint32_t ui, int64_t t)
{
	struct ftl_bm *m = f->bm;
	uint32_t o = m->uopen[ui];
	if (o == NONE || o == r)
		return 0;
	uint32_t end = (ssd_udiv(m->row[o].pos, f->div_spp) + 1) * f->spp;
	return row_fill(f, o, end, t);
}

/* Put the next position of row r: the host's data of lpn (src NONE;
 * returns when it is in the register), a copy of the newest copy of lpn
 * from slot src (returns 0), or padding (lpn NONE). */
static int64_t row_put(struct ssd_ftl *f, uint32_t r, uint32_t lpn,
		       uint32_t src, int host, int64_t t)
{
	struct ftl_bm *m = f->bm;
	struct bm_row *rw = &m->row[r];
	uint32_t ui, p = rw->pos;
	uint32_t slot = pos_slot(f, r, p, &ui);
	if (p % f->spp == 0) {
		int64_t rc = reg_take(f, r, ui, t);
		if (rc < 0)
			return rc;
	}
	uint32_t blk = ssd_udiv(slot, f->div_spb);
	int64_t done = 0;
	if (lpn == NONE) {
		f->ctr.pad_lp++;
		f->p2l[slot] = SSD_UNMAPPED;
	} else {
		uint32_t off = lpn - ssd_udiv(lpn, m->div_lb) * m->lb;
		if (off != p)
			rw->inorder = 0;
		uint32_t old = f->l2p[lpn];
		if (host) {
			done = ssd_flash_load(&f->flash, ui, 1, t);
			if (done > rw->gready)
				rw->gready = done;
			f->ctr.host_write_lp++;
			if (rw->copies)
				rw->copy_first = 1;
		} else {
			uint32_t sb = ssd_udiv(old, f->div_spb);
			uint32_t sp = ssd_udiv(old, f->div_spp);
			int64_t rd = t; /* from the register if still open */
			if (ssd_flash_programmed(&f->flash, sb, sp - sb * f->ppb))
				rd = ssd_flash_read(&f->flash, ssd_ftl_unit_of(f, sb),
						    sb, sp, 1, t);
			if (rd > rw->gready)
				rw->gready = rd;
			rw->gcount++;
			rw->copies++;
			f->ctr.gc_copy_lp++;
		}
		if (old != SSD_UNMAPPED)
			invalidate(f, old);
		else
			f->mapped++;
		f->l2p[lpn] = slot;
		f->p2l[slot] = lpn;
		if (f->vgen)
			f->vgen[slot] = host ? f->vsrc[lpn] : f->vgen[old];
		ssd_bit_set(f->vbits, slot);
		f->valid[blk]++;
		f->uvalid[ui]++;
	}
	rw->pos = p + 1;
	if (rw->pos % f->spp == 0) {
		if (m->uopen[ui] == r)
			m->uopen[ui] = NONE;
		int64_t end = group_program(f, rw, ui, blk, t);
		if (end < 0)
			return end;
	} else {
		m->uopen[ui] = r;
	}
	return done;
}

/* Fill row r up to position `upto` with the newest copy of each offset
 * of its logical block (padding where it holds none, and in a log that
 * is out of order, whose positions are not offsets). */
static int64_t row_fill(struct ssd_ftl *f, uint32_t r, uint32_t upto, int64_t t)
{
	struct ftl_bm *m = f->bm;
	while (m->row[r].pos < upto) {
		struct bm_row *rw = &m->row[r];
		uint32_t lpn = NONE, src = NONE;
		if (rw->lbn != NONE && rw->inorder) {
			uint64_t l = (uint64_t)rw->lbn * m->lb + rw->pos;
			if (l < f->nlp && f->l2p[l] != SSD_UNMAPPED) {
				lpn = (uint32_t)l;
				src = f->l2p[l];
			}
		}
		int64_t rc = row_put(f, r, lpn, src, 0, t);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* One past the highest offset of lbn that holds data. */
static uint32_t frontier(const struct ssd_ftl *f, uint32_t lbn)
{
	const struct ftl_bm *m = f->bm;
	uint64_t base = (uint64_t)lbn * m->lb;
	uint32_t n = m->lb;
	if (base + n > f->nlp)
		n = (uint32_t)(f->nlp - base);
	while (n && f->l2p[base + n - 1] == SSD_UNMAPPED)
		n--;
	return n;
}

/* Can row r (in order) become lbn's data row as it is: every position
 * holds the newest copy of its offset, or an offset that holds nothing? */
static int row_current(const struct ssd_ftl *f, uint32_t r)
{
	const struct ftl_bm *m = f->bm;
	const struct bm_row *rw = &m->row[r];
	if (!rw->inorder || rw->lbn == NONE)
		return 0;
	uint64_t base = (uint64_t)rw->lbn * m->lb;
	for (uint32_t p = 0; p < rw->pos; p++) {
		uint32_t ui, slot = pos_slot(f, r, p, &ui);
		if (base + p < f->nlp && f->l2p[base + p] != SSD_UNMAPPED &&
		    f->l2p[base + p] != slot)
			return 0;
	}
	return 1;
}

/* A row left without valid data is erased, and taken off what names it. */
static void row_release(struct ssd_ftl *f, uint32_t r, int64_t t)
{
	struct ftl_bm *m = f->bm;
	if (r == NONE || row_valid(f, r))
		return;
	struct bm_row *rw = &m->row[r];
	if (rw->kind == ROW_RW)
		return; /* erased when the queue reaches it */
	if (rw->lbn != NONE) {
		if (m->data[rw->lbn] == r)
			m->data[rw->lbn] = NONE;
		if (m->log && m->log[rw->lbn] == r) {
			m->log[rw->lbn] = NONE;
			m->nlogs--;
		}
	}
	if (m->sw == r)
		m->sw = NONE;
	if (m->mrow == r)
		m->mrow = NONE;
	row_erase(f, r, t);
}

static void count_merge(struct ssd_ftl *f, const struct bm_row *rw)
{
	if (!rw->copies)
		f->ctr.merge_switch++;
	else if (!rw->copy_first)
		f->ctr.merge_partial++;
	else
		f->ctr.merge_full++;
}

/* Row r, in order, becomes lbn's data row: the rest of the block's data
 * is copied into it (switch when there is none, else partial), and the
 * old data row is erased. */
static int64_t adopt(struct ssd_ftl *f, uint32_t r, int64_t t)
{
	struct ftl_bm *m = f->bm;
	uint32_t lbn = m->row[r].lbn, old = m->data[lbn];
	int64_t rc = row_fill(f, r, frontier(f, lbn), t);
	if (rc < 0)
		return rc;
	count_merge(f, &m->row[r]);
	m->row[r].kind = ROW_DATA;
	m->data[lbn] = r;
	if (old != NONE && old != r)
		row_release(f, old, t);
	return 0;
}

/* Full merge of lbn: every offset's newest copy into a new row. */
static int64_t full_merge(struct ssd_ftl *f, uint32_t lbn, int64_t t)
{
	struct ftl_bm *m = f->bm;
	uint32_t n = row_alloc(f, ROW_DATA, lbn);
	if (n == NONE)
		return ftl_no_room(f, 0, "no free row for a merge");
	m->row[n].copy_first = 1;
	int64_t rc = row_fill(f, n, frontier(f, lbn), t);
	if (rc < 0)
		return rc;
	f->ctr.merge_full++;
	uint32_t old = m->data[lbn];
	m->data[lbn] = n;
	row_release(f, old, t);
	if (m->log && m->log[lbn] != NONE)
		row_release(f, m->log[lbn], t);
	if (m->sw != NONE && m->row[m->sw].lbn == lbn)
		row_release(f, m->sw, t);
	return 0;
}

static void lq_push(struct ftl_bm *m, uint32_t r)
{
	m->row[r].qnext = NONE;
	if (m->lq_tail == NONE)
		m->lq_head = r;
	else
		m->row[m->lq_tail].qnext = r;
	m->lq_tail = r;
	m->nlogs++;
}

/* Merge log row r of its logical block (bast's log, fast's sequential
 * log): switch or partial when it holds the newest copies in order,
 * else full. */
static int64_t log_merge(struct ssd_ftl *f, uint32_t r, int64_t t)
{
	struct ftl_bm *m = f->bm;
	uint32_t lbn = m->row[r].lbn;
	int kind = m->row[r].kind;
	if (m->sw == r)
		m->sw = NONE;
	if (m->log && m->log[lbn] == r) {
		m->log[lbn] = NONE;
		m->nlogs--;
		/* off the queue (bast merges the oldest or a full one) */
		for (uint32_t *q = &m->lq_head, prev = NONE; *q != NONE;
		     prev = *q, q = &m->row[*q].qnext)
			if (*q == r) {
				*q = m->row[r].qnext;
				if (m->lq_tail == r)
					m->lq_tail = prev;
				break;
			}
	}
	int64_t rc = row_current(f, r) ? adopt(f, r, t) : full_merge(f, lbn, t);
	if (rc < 0) {
		/* no row to merge into (the drive is wearing out): the log
		 * stays what it was, for the merge the next call tries */
		m->row[r].kind = (uint8_t)kind;
		if (kind == ROW_LOG) {
			m->log[lbn] = r;
			lq_push(m, r);
		} else {
			m->sw = r;
		}
		return rc;
	}
	if (m->row[r].kind != ROW_DATA)
		row_release(f, r, t); /* its data all moved */
	return 0;
}

/* block: close the open merge: the rest of the source (still the
 * block's data row) is copied, the source erased. */
static int64_t merge_close(struct ssd_ftl *f, int64_t t)
{
	struct ftl_bm *m = f->bm;
	uint32_t r = m->mrow;
	if (r == NONE)
		return 0;
	m->mrow = NONE;
	return adopt(f, r, t);
}


/* fast: reclaim the oldest random log: a full merge of every logical
 * block it holds a valid page of, then its erase. */
static int64_t rw_reclaim(struct ssd_ftl *f, int64_t t)
{
	struct ftl_bm *m = f->bm;
	uint32_t r = m->lq_head;
	if (r == NONE)
		return 0;
	for (uint32_t p = 0; p < m->row[r].pos; p++) {
		uint32_t ui, slot = pos_slot(f, r, p, &ui);
		if (!ssd_bit_test(f->vbits, slot))
			continue;
		int64_t rc = full_merge(f, ssd_udiv(f->p2l[slot], m->div_lb), t);
		if (rc < 0)
			return rc;
	}
	m->lq_head = m->row[r].qnext;
	if (m->lq_tail == r)
		m->lq_tail = NONE;
	m->nlogs--;
	row_erase(f, r, t);
	return 0;
}

/* Put the host's write of lpn at the end of row r (gaps filled). */
static int64_t host_put(struct ssd_ftl *f, uint32_t r, uint32_t off,
			uint32_t lpn, int64_t t)
{
	int64_t rc = row_fill(f, r, off, t);
	if (rc < 0)
		return rc;
	return row_put(f, r, lpn, NONE, 1, t);
}

/* A new data row for a block that has none: written in place. */
static int64_t fresh(struct ssd_ftl *f, uint32_t lbn, uint32_t off,
		     uint32_t lpn, int64_t t)
{
	uint32_t r = row_alloc(f, ROW_DATA, lbn);
	if (r == NONE)
		return ftl_no_room(f, 0, "no free row for a logical block");
	f->bm->data[lbn] = r;
	return host_put(f, r, off, lpn, t);
}

static int64_t write_block(struct ssd_ftl *f, uint32_t lbn, uint32_t off,
			   uint32_t lpn, int64_t t)
{
	struct ftl_bm *m = f->bm;
	int64_t rc;
	if (m->mrow != NONE && m->row[m->mrow].lbn == lbn) {
		if (off >= m->row[m->mrow].pos)
			return host_put(f, m->mrow, off, lpn, t);
		if ((rc = merge_close(f, t)) < 0)
			return rc;
	}
	uint32_t d = m->data[lbn];
	if (d == NONE)
		return fresh(f, lbn, off, lpn, t);
	if (off >= m->row[d].pos)
		return host_put(f, d, off, lpn, t);
	if ((rc = merge_close(f, t)) < 0)
		return rc;
	uint32_t r = row_alloc(f, ROW_DATA, lbn);
	if (r == NONE)
		return ftl_no_room(f, 0, "no free row for a merge");
	m->mrow = r;
	return host_put(f, r, off, lpn, t);
}

static int64_t write_bast(struct ssd_ftl *f, uint32_t lbn, uint32_t off,
			  uint32_t lpn, int64_t t)
{
	struct ftl_bm *m = f->bm;
	uint32_t d = m->data[lbn], l = m->log[lbn];
	int64_t rc;
	if (l != NONE && m->row[l].pos == m->lb) {
		/* filled by a flush or a register's completion: merge first */
		if ((rc = log_merge(f, l, t)) < 0)
			return rc;
		d = m->data[lbn];
		l = NONE;
	}
	if (l == NONE) {
		if (d == NONE)
			return fresh(f, lbn, off, lpn, t);
		if (off >= m->row[d].pos)
			return host_put(f, d, off, lpn, t);
		if (m->nlogs == m->max_logs && (rc = log_merge(f, m->lq_head, t)) < 0)
			return rc;
		l = row_alloc(f, ROW_LOG, lbn);
		if (l == NONE)
			return ftl_no_room(f, 0, "no free row for a log block");
		m->log[lbn] = l;
		lq_push(m, l);
	}
	int64_t done = row_put(f, l, lpn, NONE, 1, t);
	if (done >= 0 && m->row[l].pos == m->lb && (rc = log_merge(f, l, t)) < 0)
		return rc;
	return done;
}

static int64_t write_fast(struct ssd_ftl *f, uint32_t lbn, uint32_t off,
			  uint32_t lpn, int64_t t)
{
	struct ftl_bm *m = f->bm;
	uint32_t d = m->data[lbn];
	int64_t rc, done;
	if (d == NONE && (m->sw == NONE || m->row[m->sw].lbn != lbn))
		return fresh(f, lbn, off, lpn, t);
	if (d != NONE && off >= m->row[d].pos &&
	    (m->sw == NONE || m->row[m->sw].lbn != lbn))
		return host_put(f, d, off, lpn, t);
	if (off == 0 || (m->sw != NONE && m->row[m->sw].lbn == lbn &&
			 off == m->row[m->sw].pos)) {
		if (off == 0 && m->sw != NONE && (rc = log_merge(f, m->sw, t)) < 0)
			return rc;
		if (m->sw == NONE) {
			m->sw = row_alloc(f, ROW_SW, lbn);
			if (m->sw == NONE)
				return ftl_no_room(f, 0, "no free row for the sequential log");
		}
		uint32_t s = m->sw;
		done = row_put(f, s, lpn, NONE, 1, t);
		if (done >= 0 && m->row[s].pos == m->lb && (rc = log_merge(f, s, t)) < 0)
			return rc;
		return done;
	}
	uint32_t r = m->lq_tail;
	if (r == NONE || m->row[r].pos == m->lb) {
		if (m->nlogs == m->max_logs && (rc = rw_reclaim(f, t)) < 0)
			return rc;
		r = row_alloc(f, ROW_RW, NONE);
		if (r == NONE)
			return ftl_no_room(f, 0, "no free row for a log block");
		lq_push(m, r);
	}
	return row_put(f, r, lpn, NONE, 1, t);
}

int64_t ftl_bm_write(struct ssd_ftl *f, uint32_t lpn, int64_t t)
{
	struct ftl_bm *m = f->bm;
	uint32_t lbn = ssd_udiv(lpn, m->div_lb), off = lpn - lbn * m->lb;
	switch (m->scheme) {
	case SSD_MAP_BLOCK:
		return write_block(f, lbn, off, lpn, t);
	case SSD_MAP_BAST:
		return write_bast(f, lbn, off, lpn, t);
	default:
		return write_fast(f, lbn, off, lpn, t);
	}
}

int64_t ftl_bm_flush(struct ssd_ftl *f, int64_t t)
{
	struct ftl_bm *m = f->bm;
	for (uint32_t ui = 0; ui < f->units; ui++) {
		uint32_t r = m->uopen[ui];
		if (r == NONE)
			continue;
		uint32_t end = (ssd_udiv(m->row[r].pos, f->div_spp) + 1) * f->spp;
		int64_t rc = row_fill(f, r, end, t);
		if (rc < 0)
			return rc;
	}
	return ssd_max64(t, m->last_prog);
}

int ftl_bm_idle(struct ssd_ftl *f, int64_t from, int64_t until)
{
	struct ftl_bm *m = f->bm;
	int64_t rc = 0;
	if (m->scheme == SSD_MAP_BLOCK)
		return (int)merge_close(f, from);
	while (m->nlogs + m->bg_logs > m->max_logs && rc >= 0 &&
	       ssd_flash_unit_busy(&f->flash, 0) < until) {
		int64_t t = ssd_max64(from, ssd_flash_unit_busy(&f->flash, 0));
		if (m->scheme == SSD_MAP_BAST)
			rc = log_merge(f, m->lq_head, t);
		else
			rc = rw_reclaim(f, t);
	}
	return rc < 0 ? (int)rc : 0;
}

uint64_t ftl_bm_mem(const struct ssd_ftl *f)
{
	const struct ftl_bm *m = NULL;
	uint64_t lb = (uint64_t)f->units * f->spb;
	uint64_t nlbn = (f->nlp + lb - 1) / lb, nrows = f->bpu;
	return sizeof *m + nrows * sizeof *m->row +
	       nrows * f->units * sizeof *m->rblk + nlbn * sizeof *m->data +
	       f->units * sizeof *m->uopen +
	       (f->cfg.mapping == SSD_MAP_BAST ? nlbn * sizeof *m->log : 0);
}

int ftl_bm_init(struct ssd_ftl *f)
{
	struct ftl_bm *m = calloc(1, sizeof *m);
	if (!m)
		return SSD_ENOMEM;
	f->bm = m;
	m->scheme = f->cfg.mapping;
	m->lb = f->units * f->spb;
	m->div_lb = ssd_udiv_init(m->lb);
	m->nlbn = (uint32_t)((f->nlp + m->lb - 1) / m->lb);
	m->nrows = f->bpu;
	uint64_t spare = f->bpu > m->nlbn ? f->bpu - m->nlbn : 0;
	uint64_t fixed = m->scheme == SSD_MAP_FAST ? 3 : 2;
	if (m->scheme != SSD_MAP_BLOCK)
		m->max_logs = f->cfg.log_blocks ? f->cfg.log_blocks
			    : (uint32_t)(spare > fixed ? spare - fixed : 1);
	m->bg_logs = f->cfg.gc_bg_blocks < m->max_logs ? f->cfg.gc_bg_blocks
						       : m->max_logs;
	m->row = calloc(m->nrows, sizeof *m->row);
	m->rblk = malloc((size_t)m->nrows * f->units * sizeof *m->rblk);
	m->data = malloc((size_t)m->nlbn * sizeof *m->data);
	m->uopen = malloc((size_t)f->units * sizeof *m->uopen);
	if (m->scheme == SSD_MAP_BAST)
		m->log = malloc((size_t)m->nlbn * sizeof *m->log);
	if (!m->row || !m->rblk || !m->data || !m->uopen ||
	    (m->scheme == SSD_MAP_BAST && !m->log))
		return SSD_ENOMEM;
	memset(m->data, 0xff, (size_t)m->nlbn * sizeof *m->data);
	memset(m->uopen, 0xff, (size_t)f->units * sizeof *m->uopen);
	if (m->log)
		memset(m->log, 0xff, (size_t)m->nlbn * sizeof *m->log);
	for (uint32_t r = 0; r < m->nrows; r++)
		m->row[r].qnext = r + 1 < m->nrows ? r + 1 : NONE;
	m->free_head = 0;
	m->lq_head = m->lq_tail = m->sw = m->mrow = NONE;
	/* the drive is read-only once a unit cannot give the data, the logs
	 * and the merges their rows */
	f->need_blocks = (uint64_t)(m->nlbn + fixed + m->max_logs) * f->units;
	return 0;
}

void ftl_bm_free(struct ssd_ftl *f)
{
	struct ftl_bm *m = f->bm;
	if (!m)
		return;
	free(m->row);
	free(m->rblk);
	free(m->data);
	free(m->log);
	free(m->uopen);
	free(m);
	f->bm = NULL;
}

/* The checker's part: a valid slot past its block's programmed pages
 * must be in the open group its unit's register holds. */
int ftl_bm_open_slot(const struct ssd_ftl *f, uint32_t blk, uint32_t i)
{
	const struct ftl_bm *m = f->bm;
	uint32_t ui = ssd_ftl_unit_of(f, blk), r = m->uopen[ui];
	if (r == NONE || m->rblk[(size_t)r * f->units + ui] != blk)
		return 0;
	uint32_t pu, open = pos_slot(f, r, m->row[r].pos, &pu);
	return pu == ui && i / f->spp == (open - blk * f->spb) / f->spp &&
	       i < open - blk * f->spb;
}

/* Every row's books: data rows hold their own block's offsets at their
 * positions, logs of one block only that block's pages, each record is
 * in use once, and the rows' blocks are MAPPED. */
int ftl_bm_check(const struct ssd_ftl *f, char *err, size_t errlen)
{
	const struct ftl_bm *m = f->bm;
	uint8_t *use = calloc(m->nrows, 1);
	if (!use) {
		snprintf(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	int rc = 0;
#define BMFAIL(...) do { snprintf(err, errlen, __VA_ARGS__); rc = SSD_ESTATE; goto out; } while (0)
	for (uint32_t r = m->free_head, k = 0; r != NONE; r = m->row[r].qnext)
		if (r >= m->nrows || use[r]++ || ++k > m->nrows)
			BMFAIL("free row list is corrupt at %u", r);
	for (uint32_t lbn = 0; lbn < m->nlbn; lbn++) {
		uint32_t rs[2] = {m->data[lbn], m->log ? m->log[lbn] : NONE};
		for (int k = 0; k < 2; k++) {
			uint32_t r = rs[k];
			if (r == NONE)
				continue;
			if (r >= m->nrows || use[r] || m->row[r].lbn != lbn)
				BMFAIL("logical block %u: its %s row %u is not its own",
				       lbn, k ? "log" : "data", r);
			use[r] = 1;
			for (uint32_t p = 0; p < m->row[r].pos; p++) {
				uint32_t ui, s = pos_slot(f, r, p, &ui);
				if (!ssd_bit_test(f->vbits, s))
					continue;
				uint32_t l = f->p2l[s];
				if (ssd_udiv(l, m->div_lb) != lbn ||
				    (!k && l - lbn * m->lb != p))
					BMFAIL("logical block %u: %s row %u holds lpn %u at "
					       "position %u", lbn, k ? "log" : "data", r, l, p);
			}
		}
	}
	uint32_t others[2] = {m->sw, m->mrow};
	for (int k = 0; k < 2; k++)
		if (others[k] != NONE && use[others[k]]++)
			BMFAIL("row %u is in use twice", others[k]);
	for (uint32_t r = m->lq_head, k = 0; r != NONE; r = m->row[r].qnext)
		if (m->scheme == SSD_MAP_FAST && (use[r]++ || ++k > m->nrows))
			BMFAIL("log queue is corrupt at row %u", r);
	for (uint32_t r = 0; r < m->nrows; r++)
		if (!use[r])
			BMFAIL("row %u is neither free nor in use", r);
	for (uint32_t b = 0; b < f->nblocks; b++)
		if (f->state[b] != SSD_BLK_MAPPED && f->state[b] != SSD_BLK_FREE &&
		    f->state[b] != SSD_BLK_BAD)
			BMFAIL("block %u has state %u under mapping = %s", b,
			       f->state[b], ssd_mapping_name(m->scheme));
out:
	free(use);
	return rc;
#undef BMFAIL
}
