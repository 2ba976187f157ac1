/*
 * flash.c -- setup of the flash backend, and its timing accounting for
 * the checker; the per-operation timing is inline in flash.h because it
 * is on the hot path.
 */
#include "nand/flash.h"
#include "base/snapfile.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The page types' times of one operation: factor 1 + s (2i/(b-1) - 1)
 * for type i of b, divided by the factor's mean over the ppb pages of a
 * block (ppb need not be a multiple of b), so the block's mean is t. */
static void page_type_times(int64_t *out, int64_t t, double s, uint32_t bits,
			    uint32_t ppb)
{
	double fac[4], mean = 0;
	for (uint32_t i = 0; i < 4; i++)
		fac[i] = bits > 1 && i < bits ? 1 + s * (2.0 * i / (bits - 1) - 1) : 1;
	for (uint32_t i = 0; i < bits; i++)
		mean += fac[i] * (double)(ppb / bits + (i < ppb % bits));
	mean /= ppb;
	for (uint32_t i = 0; i < 4; i++)
		out[i] = (int64_t)llround((double)t * fac[i] / mean);
}

/* P(retry) 0..1 in 2^-48 units */
static uint64_t prob48(double p)
{
	return (uint64_t)(p * 0x1.0p48);
}

int64_t ssd_flash_xfer_ns(const struct ssd_config *c)
{
	/* ns per 4 KiB at channel_mbps * 10^6 bytes/s, rounded up */
	return ((int64_t)SSD_LPAGE * 1000 + c->channel_mbps - 1) /
	       c->channel_mbps;
}

int ssd_flash_init(struct ssd_flash *f, const struct ssd_config *c,
		   uint32_t nblocks, struct ssd_counters *ctr, uint64_t seed)
{
	struct ssd_geometry g;
	ssd_config_geometry(c, &g);
	f->dies = g.dies;
	f->channels = c->channels;
	f->units = g.units;
	f->lp_per_page = g.lp_per_page;
	f->t_read = c->t_read;
	f->t_prog = c->t_prog;
	f->t_erase = c->t_erase;
	f->t_read_slc = c->slc_t_read;
	f->t_prog_slc = c->slc_t_prog;
	f->xfer_lp = ssd_flash_xfer_ns(c);
	f->ctr = ctr;
	f->erase_blocks = g.planes_per_unit;
	f->die_busy = calloc(f->dies, sizeof *f->die_busy);
	f->chan_busy = calloc(f->channels, sizeof *f->chan_busy);
	f->reg_free = calloc(f->units, sizeof *f->reg_free);
	f->udie = calloc(f->units, sizeof *f->udie);
	f->uchan = calloc(f->units, sizeof *f->uchan);
	f->die_page = malloc(f->dies * sizeof *f->die_page);
	f->acct = NULL;
	f->acct_store = calloc(1, sizeof *f->acct_store);
	if (f->acct_store)
		f->acct_store->res = calloc((size_t)f->dies + f->channels + f->units,
					    sizeof *f->acct_store->res);
	uint32_t bits = g.bits, ppb = g.pages_per_block;
	page_type_times(f->t_read_pt, c->t_read, c->t_read_spread, bits, ppb);
	page_type_times(f->t_prog_pt, c->t_prog, c->t_prog_spread, bits, ppb);
	f->ptype = malloc(ppb);
	f->t_read_pg = malloc(ppb * sizeof *f->t_read_pg);
	f->t_prog_pg = malloc(ppb * sizeof *f->t_prog_pg);
	if (f->ptype && f->t_read_pg && f->t_prog_pg)
		for (uint32_t p = 0; p < ppb; p++) {
			f->ptype[p] = (uint8_t)(p % bits);
			f->t_read_pg[p] = f->t_read_pt[f->ptype[p]];
			f->t_prog_pg[p] = f->t_prog_pt[f->ptype[p]];
		}
	/* P(retry) = rate + wear * erases / pe_cycles, up to 0.99 */
	double cap = 0.99, rate = c->read_retry_rate < cap ? c->read_retry_rate : cap;
	f->retry_on = c->read_retry_rate > 0 || c->read_retry_wear > 0;
	f->read_slow = f->retry_on;
	f->retry_base = prob48(rate);
	f->retry_cap = prob48(cap);
	f->retry_slope = prob48(c->read_retry_wear / (c->pe_cycles ? c->pe_cycles : 1));
	f->retry_full = UINT32_MAX;
	if (f->retry_slope) {
		uint64_t e = (f->retry_cap - f->retry_base) / f->retry_slope;
		f->retry_full = e < UINT32_MAX ? (uint32_t)e : UINT32_MAX;
	}
	ssd_rng_seed(&f->rng, seed);
	if (f->die_page)
		for (uint32_t d = 0; d < f->dies; d++)
			f->die_page[d] = UINT32_MAX;
	if (f->udie && f->uchan)
		for (uint32_t u = 0; u < f->units; u++) {
			f->udie[u] = u % f->dies;      /* dies first ... */
			f->uchan[u] = u % f->channels; /* ... over channels */
		}
	if (!f->die_busy || !f->chan_busy || !f->reg_free || !f->udie || !f->uchan || !f->die_page ||
	    !f->ptype || !f->t_read_pg || !f->t_prog_pg ||
	    !f->acct_store || !f->acct_store->res ||
	    ssd_nand_init(&f->nand, nblocks, ppb, g.slc_pages_per_block)) {
		ssd_flash_free(f);
		return SSD_ENOMEM;
	}
	f->prog_lim[0] = f->nand.pages_per_block;
	f->prog_lim[1] = f->nand.slc_pages;
	return 0;
}

#define T SSD_SNAP_TAG

void ssd_flash_snap_save(const struct ssd_flash *f, struct ssd_snapw *w)
{
	const struct ssd_nand *n = &f->nand;
	ssd_snapw_array(w, T('F','R','N','G'), &f->rng, sizeof f->rng);
	ssd_snapw_array(w, T('D','B','S','Y'), f->die_busy,
			f->dies * sizeof *f->die_busy);
	ssd_snapw_array(w, T('C','B','S','Y'), f->chan_busy,
			f->channels * sizeof *f->chan_busy);
	ssd_snapw_array(w, T('R','E','G','F'), f->reg_free,
			f->units * sizeof *f->reg_free);
	ssd_snapw_array(w, T('D','P','A','G'), f->die_page,
			f->dies * sizeof *f->die_page);
	ssd_snapw_array(w, T('N','P','A','G'), n->next_page,
			(size_t)n->nblocks * sizeof *n->next_page);
	ssd_snapw_array(w, T('N','E','R','S'), n->erases,
			(size_t)n->nblocks * sizeof *n->erases);
	ssd_snapw_array(w, T('N','S','L','C'), n->slc, n->nblocks);
}

int ssd_flash_snap_load(struct ssd_flash *f, struct ssd_snapr *r)
{
	struct ssd_nand *n = &f->nand;
	int rc;
	if ((rc = ssd_snapr_array(r, T('F','R','N','G'), &f->rng, sizeof f->rng)) ||
	    (rc = ssd_snapr_array(r, T('D','B','S','Y'), f->die_busy,
				  f->dies * sizeof *f->die_busy)) ||
	    (rc = ssd_snapr_array(r, T('C','B','S','Y'), f->chan_busy,
				  f->channels * sizeof *f->chan_busy)) ||
	    (rc = ssd_snapr_array(r, T('R','E','G','F'), f->reg_free,
				  f->units * sizeof *f->reg_free)) ||
	    (rc = ssd_snapr_array(r, T('D','P','A','G'), f->die_page,
				  f->dies * sizeof *f->die_page)) ||
	    (rc = ssd_snapr_array(r, T('N','P','A','G'), n->next_page,
				  (size_t)n->nblocks * sizeof *n->next_page)) ||
	    (rc = ssd_snapr_array(r, T('N','E','R','S'), n->erases,
				  (size_t)n->nblocks * sizeof *n->erases)) ||
	    (rc = ssd_snapr_array(r, T('N','S','L','C'), n->slc, n->nblocks)))
		return rc;
	for (uint32_t b = 0; b < n->nblocks; b++)
		if (n->slc[b] > 1 || n->next_page[b] > ssd_nand_pages(n, b)) {
			ssd_snapr_fail(r, "block %u has %u pages programmed of %u",
				       b, n->next_page[b], ssd_nand_pages(n, b));
			return SSD_EPARSE;
		}
	return 0;
}

#undef T

uint64_t ssd_flash_mem(const struct ssd_config *c, uint32_t nblocks)
{
	const struct ssd_flash *f = NULL;
	struct ssd_geometry g;
	ssd_config_geometry(c, &g);
	uint64_t dies = g.dies, units = g.units, ppb = g.pages_per_block;
	return dies * (sizeof *f->die_busy + sizeof *f->die_page) +
	       c->channels * sizeof *f->chan_busy +
	       units * (sizeof *f->reg_free + sizeof *f->udie + sizeof *f->uchan) +
	       sizeof *f->acct_store +
	       (dies + c->channels + units) * sizeof *f->acct_store->res +
	       ppb * (sizeof *f->ptype + sizeof *f->t_read_pg + sizeof *f->t_prog_pg) +
	       ssd_nand_mem(nblocks);
}

void ssd_flash_free(struct ssd_flash *f)
{
	free(f->die_busy);
	free(f->chan_busy);
	free(f->reg_free);
	free(f->udie);
	free(f->uchan);
	free(f->die_page);
	free(f->ptype);
	free(f->t_read_pg);
	free(f->t_prog_pg);
	if (f->acct_store)
		free(f->acct_store->res);
	free(f->acct_store);
	f->acct = f->acct_store = NULL;
	f->die_busy = f->chan_busy = f->reg_free = NULL;
	f->udie = f->uchan = f->die_page = NULL;
	f->ptype = NULL;
	f->t_read_pg = f->t_prog_pg = NULL;
	ssd_nand_free(&f->nand);
}

int64_t ssd_flash_erase(struct ssd_flash *f, uint32_t unit, uint32_t blk,
			int64_t t)
{
	uint32_t d = ssd_flash_die(f, unit);
	int64_t s = ssd_max64(t, f->die_busy[d]);
	f->die_page[d] = UINT32_MAX;
	f->die_busy[d] = s + f->t_erase;
	ssd_nand_erase(&f->nand, blk);
	f->ctr->nand_erase += f->erase_blocks;
	if (f->acct)
		ssd_flash_account_op(f, SSD_FLASH_OP_ERASE, unit, blk, UINT32_MAX,
				     t, s, s + f->t_erase);
	return s + f->t_erase;
}

uint32_t ssd_flash_retries(struct ssd_flash *f, uint32_t erases)
{
	uint64_t p = erases >= f->retry_full
			     ? f->retry_cap
			     : f->retry_base + f->retry_slope * erases;
	uint32_t k = 0;
	while (k < SSD_FLASH_RETRY_MAX && (ssd_rng_next(&f->rng) >> 16) < p)
		k++;
	f->ctr->read_retry += k;
	return k;
}

/* ---- timing accounting (flash.h, "Timing accounting") ---- */

void ssd_flash_account(struct ssd_flash *f, int on, int *due)
{
	struct ssd_flash_acct *a = f->acct_store;
	memset(a->res, 0, ((size_t)f->dies + f->channels + f->units) * sizeof *a->res);
	a->ops = 0;
	a->msg[0] = 0;
	a->due = due;
	f->acct = on ? a : NULL;
	f->read_slow = f->retry_on || on;
	f->prog_lim[0] = on ? 0 : f->nand.pages_per_block;
	f->prog_lim[1] = on ? 0 : f->nand.slc_pages;
}

int64_t ssd_flash_read_slow(struct ssd_flash *f, uint32_t unit, uint32_t blk,
			    uint32_t page, uint32_t nlp, int64_t t)
{
	uint32_t d = ssd_flash_die(f, unit), c = ssd_flash_chan(f, unit);
	uint32_t pg = page - blk * f->nand.pages_per_block;
	int64_t ready, in;
	if (f->die_page[d] == page) {
		/* the data leaves the register once the read that put it
		 * there has ended: the die's stamp */
		ready = t;
		in = ssd_max64(t, f->die_busy[d]);
	} else {
		int64_t s = ssd_max64(t, f->die_busy[d]);
		ready = s + ssd_flash_t_read(f, blk, page);
		f->die_busy[d] = ready;
		f->die_page[d] = page;
		f->ctr->nand_read += f->erase_blocks;
		if (f->acct)
			ssd_flash_account_op(f, SSD_FLASH_OP_READ, unit, blk, pg, t,
					     s, ready);
		in = ready;
	}
	int64_t xs = ssd_max64(ready, f->chan_busy[c]);
	int64_t done = xs + (int64_t)nlp * f->xfer_lp;
	f->chan_busy[c] = done;
	if (f->acct)
		ssd_flash_account_op(f, SSD_FLASH_OP_OUT, unit, blk, pg, in, xs, done);
	return done;
}

int64_t ssd_flash_program_slow(struct ssd_flash *f, uint32_t unit,
			       uint32_t blk, int64_t t)
{
	struct ssd_nand *n = &f->nand;
	int slc = n->slc[blk];
	uint32_t p = n->next_page[blk];
	if (p >= (slc ? n->slc_pages : n->pages_per_block))
		return SSD_ESTATE;
	n->next_page[blk] = p + 1;
	uint32_t d = ssd_flash_die(f, unit);
	int64_t s = ssd_max64(t, f->die_busy[d]);
	int64_t tp = slc ? f->t_prog_slc : f->t_prog_pg[p];
	f->die_page[d] = UINT32_MAX;
	f->reg_free[unit] = s;
	f->die_busy[d] = s + tp;
	f->ctr->nand_prog += f->erase_blocks;
	f->ctr->nand_prog_lp += f->lp_per_page;
	if (f->acct)
		ssd_flash_account_op(f, SSD_FLASH_OP_PROG, unit, blk, p, t, s, s + tp);
	return s + tp;
}

static const char *const op_name[] = {
	[SSD_FLASH_OP_READ] = "read",
	[SSD_FLASH_OP_PROG] = "program",
	[SSD_FLASH_OP_ERASE] = "erase",
	[SSD_FLASH_OP_MAP_READ] = "map-page read",
	[SSD_FLASH_OP_MAP_PROG] = "map-page program",
	[SSD_FLASH_OP_OUT] = "transfer out",
	[SSD_FLASH_OP_LOAD] = "register load",
	[SSD_FLASH_OP_MAP_OUT] = "map-page transfer out",
	[SSD_FLASH_OP_MAP_LOAD] = "map-page load",
};

/* "die 3", "channel 1" or "unit 5" for record i */
static void res_name(const struct ssd_flash *f, size_t i, char *buf,
		     size_t len)
{
	if (i < f->dies)
		snprintf(buf, len, "die %zu", i);
	else if (i < (size_t)f->dies + f->channels)
		snprintf(buf, len, "channel %zu", i - f->dies);
	else
		snprintf(buf, len, "unit %zu", i - f->dies - f->channels);
}

/* The first broken rule, in words, with the operation and its place. */
__attribute__((cold, noinline, format(printf, 6, 7)))
static void broken(struct ssd_flash *f, int op, uint32_t unit, uint32_t blk,
		   uint32_t page, const char *fmt, ...)
{
	struct ssd_flash_acct *a = f->acct;
	if (a->msg[0])
		return;
	char what[96], rule[104];
	int n = snprintf(what, sizeof what, "flash operation %" PRIu64 " (%s on unit %u",
			 a->ops, op_name[op], unit);
	if (blk != UINT32_MAX && n > 0 && (size_t)n < sizeof what)
		n += snprintf(what + n, sizeof what - (size_t)n, ", block %u", blk);
	if (page != UINT32_MAX && n > 0 && (size_t)n < sizeof what)
		snprintf(what + n, sizeof what - (size_t)n, " page %u", page);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(rule, sizeof rule, fmt, ap);
	va_end(ap);
	snprintf(a->msg, sizeof a->msg, "%s) %s", what, rule);
	if (a->due)
		*a->due = 1;
}

/* Operation op overlaps the previous one on record i, which ended at
 * `prev`. */
__attribute__((cold, noinline))
static void overlap(struct ssd_flash *f, size_t i, int op, uint32_t unit,
		    uint32_t blk, uint32_t page, int64_t start, int64_t prev)
{
	char name[32];
	res_name(f, i, name, sizeof name);
	broken(f, op, unit, blk, page, "starts at %" PRId64 " ns, before the "
	       "previous operation on %s ends at %" PRId64 " ns", start, name, prev);
}

/* Enter the operation in record i: no overlap with the one before. */
static inline __attribute__((always_inline)) void
res_add(struct ssd_flash *f, size_t i, int op, uint32_t unit, uint32_t blk,
	uint32_t page, int64_t start, int64_t end)
{
	struct ssd_flash_res *r = &f->acct->res[i];
	if (__builtin_expect(r->ops && start < r->end, 0))
		overlap(f, i, op, unit, blk, page, start, r->end);
	if (!r->ops++)
		r->first = start;
	r->busy += end - start;
	if (end > r->end)
		r->end = end;
}

void ssd_flash_account_op(struct ssd_flash *f, int op, uint32_t unit,
			  uint32_t blk, uint32_t page, int64_t in,
			  int64_t start, int64_t end)
{
	struct ssd_flash_acct *a = f->acct;
	a->ops++;
	if (__builtin_expect(start < in, 0))
		broken(f, op, unit, blk, page, "starts at %" PRId64 " ns, before "
		       "its input is ready at %" PRId64 " ns", start, in);
	if (__builtin_expect(end < start, 0))
		broken(f, op, unit, blk, page, "ends at %" PRId64 " ns, before it "
		       "starts at %" PRId64 " ns", end, start);
	if (op < SSD_FLASH_OP_OUT) {
		res_add(f, f->udie[unit], op, unit, blk, page, start, end);
		res_add(f, (size_t)f->dies + f->channels + unit, op, unit, blk,
			page, start, end);
	} else {
		res_add(f, (size_t)f->dies + f->uchan[unit], op, unit, blk, page,
			start, end);
	}
}

int ssd_flash_check_timing(const struct ssd_flash *f, char *err,
			   size_t errlen)
{
	const struct ssd_flash_acct *a = f->acct;
	if (!a)
		return 0;
	if (a->msg[0]) {
		snprintf(err, errlen, "%s", a->msg);
		return SSD_ESTATE;
	}
	size_t n = (size_t)f->dies + f->channels + f->units;
	for (size_t i = 0; i < n; i++) {
		const struct ssd_flash_res *r = &a->res[i];
		char name[32];
		if (!r->ops)
			continue;
		res_name(f, i, name, sizeof name);
		if (r->busy > r->end - r->first) {
			snprintf(err, errlen, "%s was busy %" PRId64 " ns in %" PRIu64
				 " operations between %" PRId64 " and %" PRId64
				 " ns, more than the %" PRId64 " ns that passed", name,
				 r->busy, r->ops, r->first, r->end, r->end - r->first);
			return SSD_ESTATE;
		}
		int64_t stamp = i < f->dies ? f->die_busy[i]
			: i < (size_t)f->dies + f->channels ? f->chan_busy[i - f->dies]
			: r->end;
		if (stamp < r->end) {
			snprintf(err, errlen, "%s is busy until %" PRId64 " ns by its "
				 "stamp, but its latest operation ends at %" PRId64
				 " ns", name, stamp, r->end);
			return SSD_ESTATE;
		}
	}
	return 0;
}

void ssd_flash_min_times(const struct ssd_flash *f, int slc, int64_t *t_read,
			 int64_t *t_prog)
{
	int64_t r = INT64_MAX, p = INT64_MAX;
	for (uint32_t i = 0; i < f->nand.pages_per_block; i++) {
		if (f->t_read_pg[i] < r)
			r = f->t_read_pg[i];
		if (f->t_prog_pg[i] < p)
			p = f->t_prog_pg[i];
	}
	if (slc) {
		r = f->t_read_slc < r ? f->t_read_slc : r;
		p = f->t_prog_slc < p ? f->t_prog_slc : p;
	}
	*t_read = r;
	*t_prog = p;
}

void ssd_flash_fault(struct ssd_flash *f, int what, uint32_t index, int64_t ns)
{
	switch (what) {
	case SSD_FLASH_FAULT_DIE_BACK:
		f->die_busy[index] -= ns;
		break;
	case SSD_FLASH_FAULT_CHAN_BACK:
		f->chan_busy[index] -= ns;
		break;
	case SSD_FLASH_FAULT_BUSY:
		if (f->acct)
			f->acct->res[index].busy += ns;
		break;
	case SSD_FLASH_FAULT_T_READ:
		f->t_read = f->t_read_slc = ns;
		for (uint32_t i = 0; i < f->nand.pages_per_block; i++)
			f->t_read_pg[i] = ns;
		break;
	case SSD_FLASH_FAULT_T_PROG:
		f->t_prog = f->t_prog_slc = ns;
		for (uint32_t i = 0; i < f->nand.pages_per_block; i++)
			f->t_prog_pg[i] = ns;
		break;
	}
}
