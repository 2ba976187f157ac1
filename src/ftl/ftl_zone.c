/*
 * ftl_zone.c -- the flash side of a zoned drive (mapping = zone; NVMe
 * ZNS, docs/zoned.md): each zone's data in blocks of its own, written in
 * order, erased whole by a reset; no garbage collection.
 *
 * What the FTL sees.  The drive (machine/ssd.c) checks every command
 * against the zone state machine (zns.c) first, so the FTL is given
 * only writes at a zone's write pointer: zone z is logical pages [z *
 * size_lp, z * size_lp + cap_lp), the rest of its size never written
 * (it reads as unwritten, unmapped).  A host page goes to the next
 * position of its zone, and the maps (l2p, p2l, the valid bits, the
 * out-of-band tags) are the page-mapped FTL's, so reads, verification
 * and the checker's map checks are shared.
 *
 * Placement.  Zone z lies on the units of group z % groups (ssd_zones in
 * config.h), zone_units of them.  Its positions are striped over them a
 * NAND page (spp slots) at a time: position q is in page group q / spp,
 * on the group's unit (q / spp) % zone_units, page (q / spp) / zone_units
 * of that unit's part of the zone.  A unit's part is a chain of blocks
 * (linked by next[]), taken from the unit's free pool (the least worn
 * first, with dynamic wear leveling) when a page opens one; they are
 * MAPPED until the zone's reset erases them and gives them back.  The
 * zone's open page waits in the controller's DRAM, one per open zone
 * (which is what a drive's open-zone limit bounds), its slots crossing
 * the channel as they arrive; it is programmed when complete.
 *
 * Flush.  A zone's part page is padded to the page's end and programmed
 * (its data durable); the zone's next data goes on at the next page, so
 * padding costs flash, not capacity: the zone takes a further block from
 * the unit's reserve when it needs one, and gives it back when it fills:
 * a full zone past its share of blocks has its data moved to a share of
 * fresh ones (zone_move; copies, counted).
 *
 * Power cuts (ftl_zone_cut, ftl_power.c).  Each zone keeps the prefix of
 * its data programmed by the cut; its write pointer goes back to the
 * first page lost, the pages past it unmapped.  A zone the cut spoiled
 * has its surviving data moved to fresh blocks (the spoiled pages cannot
 * be programmed again), a zone left with nothing is erased.
 *
 * Reset and finish (ssd_ftl_zone_reset, ssd_ftl_zone_finish).  Reset
 * unmaps the zone's pages and erases its blocks, each on its unit, in
 * parallel with the zone's other units: it costs what the zone holds
 * (an empty zone holds no block and costs nothing).  Finish with padding
 * programs filler into the rest of the zone's blocks (counted in pad_lp
 * and zone_finish_pad_lp: the drive's own write amplification); without,
 * the blocks stay part-programmed until the reset.
 *
 * Not modelled: program failures (blocks wear out at erase; a unit with
 * no free block left makes writes fail with the FTL's no-room error),
 * static wear leveling.  Snapshots save the zones (ftl_zone_snap_*).
 */
#include "ftl/ftl.h"
#include "ftl/ftl_int.h"
#include "base/snapfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE SSD_NO_BLOCK

struct ftl_zone {
	struct ssd_zones z;
	uint32_t shift;           /* log2(z.size_lp) */
	struct ssd_udiv div_zu;   /* by z.zone_units */
	uint32_t *pos;            /* [zone] positions filled (data and padding) */
	uint32_t *hw;             /* [zone] host pages written (its write
	                             pointer, in the FTL's view) */
	int64_t *gready;          /* [zone] its open page's data loaded by */
	int64_t *zlast;           /* [zone] its latest program's end */
	uint32_t *cur;            /* [zone * zu + j] its open block on unit j */
	uint32_t *head;           /* [zone * zu + j] its first block there */
	uint32_t *part;           /* zones whose open page is part filled */
	uint32_t *pidx;           /* [zone] its index in part, or NONE */
	uint32_t npart;
	int64_t last_prog;        /* the latest program's end */
	uint64_t share;           /* positions a zone's share of blocks holds */
	int64_t *moved;           /* [zone] its data's latest move to fresh
	                             blocks is programmed by then: its old
	                             blocks are erased from then on */
};

static inline uint32_t zone_unit(const struct ftl_zone *m, uint32_t zone,
				 uint32_t j)
{
	return (zone % m->z.groups) * m->z.zone_units + j;
}

static void part_add(struct ftl_zone *m, uint32_t zone)
{
	if (m->pidx[zone] != NONE)
		return;
	m->pidx[zone] = m->npart;
	m->part[m->npart++] = zone;
}

static void part_drop(struct ftl_zone *m, uint32_t zone)
{
	uint32_t i = m->pidx[zone];
	if (i == NONE)
		return;
	uint32_t last = m->part[--m->npart];
	m->part[i] = last;
	m->pidx[last] = i;
	m->pidx[zone] = NONE;
}

/* Put the next position of zone: the host's data of lpn (returns when
 * it is in the register), or padding (lpn NONE; returns t).  The page
 * it completes is programmed. */
static int64_t zone_put(struct ssd_ftl *f, uint32_t zone, uint32_t lpn,
			int64_t t)
{
	struct ftl_zone *m = f->zn;
	uint32_t q = m->pos[zone], k = ssd_udiv(q, f->div_spp);
	uint32_t in = q - k * f->spp;          /* slot in its page */
	uint32_t kk = ssd_udiv(k, m->div_zu);  /* page in the unit's part */
	uint32_t j = k - kk * m->z.zone_units;
	uint32_t ui = zone_unit(m, zone, j);
	size_t idx = (size_t)zone * m->z.zone_units + j;
	uint32_t pg = kk % f->ppb;
	if (!in && !pg) { /* a new block on this unit */
		uint32_t b = ftl_free_pop(f, &f->unit[ui]);
		if (b == NONE)
			return ftl_no_room(f, ui, "no free block for a zone");
		f->state[b] = SSD_BLK_MAPPED;
		f->next[b] = NONE;
		if (m->cur[idx] == NONE)
			m->head[idx] = b;
		else
			f->next[m->cur[idx]] = b;
		m->cur[idx] = b;
	}
	uint32_t blk = m->cur[idx];
	uint32_t slot = blk * f->spb + pg * f->spp + in;
	int64_t done = t;
	if (lpn == NONE) {
		f->ctr.pad_lp++;
		f->p2l[slot] = SSD_UNMAPPED;
	} else {
		f->l2p[lpn] = slot;
		f->p2l[slot] = lpn;
		if (f->vgen)
			f->vgen[slot] = f->vsrc[lpn];
		ssd_bit_set(f->vbits, slot);
		f->valid[blk]++;
		f->uvalid[ui]++;
		f->mapped++;
		f->ctr.host_write_lp++;
		m->hw[zone]++;
		done = ssd_flash_load(&f->flash, ui, 1, t);
		if (done > m->gready[zone])
			m->gready[zone] = done;
	}
	m->pos[zone] = q + 1;
	if (in + 1 < f->spp) {
		part_add(m, zone);
		return done;
	}
	part_drop(m, zone);
	int64_t end = ssd_flash_program(&f->flash, ui, blk,
					ssd_max64(m->gready[zone], t));
	m->gready[zone] = 0;
	if (end < 0)
		return end;
	if (f->ptrack) /* power-loss tracking: its end (ftl_power.c) */
		ftl_power_page(f, blk, end);
	if (end > m->last_prog)
		m->last_prog = end;
	if (end > m->zlast[zone])
		m->zlast[zone] = end;
	return done;
}

/* Is lpn its zone's next position?  Else the error, in words. */
static int at_wp(struct ssd_ftl *f, uint32_t lpn, uint32_t *zone)
{
	struct ftl_zone *m = f->zn;
	uint32_t z = *zone = lpn >> m->shift;
	if (z < m->z.zones && f->l2p[lpn] == SSD_UNMAPPED &&
	    lpn - ((uint64_t)z << m->shift) == m->hw[z])
		return 0;
	/* the drive checks writes against the zones first */
	if (!f->err_msg[0])
		snprintf(f->err_msg, sizeof f->err_msg, "page %u is not at "
			 "zone %u's write pointer (%u)", lpn, z,
			 z < m->z.zones ? m->hw[z] : 0);
	return SSD_ESTATE;
}

int64_t ssd_ftl_zone_hole(struct ssd_ftl *f, uint32_t lpn, int64_t t)
{
	uint32_t zone;
	if (!f->zn)
		return SSD_EINVAL;
	int rc = at_wp(f, lpn, &zone);
	if (rc)
		return rc;
	f->zn->hw[zone]++;
	int64_t r = zone_put(f, zone, NONE, t);
	ftl_check_run(f);
	return r;
}

static int64_t zone_move(struct ssd_ftl *f, uint32_t z, int64_t t);

int64_t ftl_zone_write(struct ssd_ftl *f, uint32_t lpn, int64_t t)
{
	uint32_t zone;
	int rc = at_wp(f, lpn, &zone);
	if (rc)
		return rc;
	int64_t done = zone_put(f, zone, lpn, t);
	struct ftl_zone *m = f->zn;
	if (done >= 0 && m->hw[zone] == m->z.cap_lp && m->pos[zone] > m->share) {
		/* full, and the padding of flushes took it past its share
		 * of blocks: its data moves to a share of fresh blocks, so
		 * the reserve's blocks come back (copies, counted) */
		int64_t r = zone_move(f, zone, done);
		if (r < 0)
			return r;
	}
	return done;
}

/* Pad zone's open page to its end (programmed by then). */
static int64_t page_pad(struct ssd_ftl *f, uint32_t zone, int64_t t)
{
	struct ftl_zone *m = f->zn;
	int64_t rc = 0;
	while (rc >= 0 && m->pos[zone] % f->spp)
		rc = zone_put(f, zone, NONE, t);
	return rc < 0 ? rc : 0;
}

int64_t ftl_zone_flush(struct ssd_ftl *f, int64_t t)
{
	struct ftl_zone *m = f->zn;
	while (m->npart) {
		int64_t rc = page_pad(f, m->part[m->npart - 1], t);
		if (rc < 0)
			return rc;
	}
	return ssd_max64(t, m->last_prog);
}

int64_t ssd_ftl_zone_reset(struct ssd_ftl *f, uint32_t zone, int64_t t)
{
	struct ftl_zone *m = f->zn;
	if (!m || zone >= m->z.zones)
		return SSD_EINVAL;
	int64_t done = t;
	uint64_t held = 0;
	for (uint32_t j = 0; j < m->z.zone_units; j++) {
		size_t idx = (size_t)zone * m->z.zone_units + j;
		uint32_t ui = zone_unit(m, zone, j);
		for (uint32_t b = m->head[idx]; b != NONE;) {
			uint32_t nb = f->next[b];
			uint64_t first = (uint64_t)b * f->spb;
			for (uint32_t i = 0; f->valid[b] && i < f->spb; i++) {
				uint32_t s = (uint32_t)(first + i);
				if (!ssd_bit_test(f->vbits, s))
					continue;
				f->l2p[f->p2l[s]] = SSD_UNMAPPED;
				invalidate(f, s);
				f->mapped--;
				held++;
			}
			int64_t end = ftl_erase_block(f, ui, b, t);
			if (end < 0)
				return end;
			done = ssd_max64(done, end);
			b = nb;
		}
		m->head[idx] = m->cur[idx] = NONE;
	}
	if (held || m->pos[zone]) {
		f->ctr.zone_reset++;
		f->ctr.zone_reset_lp += held;
	}
	part_drop(m, zone);
	m->pos[zone] = m->hw[zone] = 0;
	m->gready[zone] = 0;
	m->moved[zone] = 0;
	ftl_check_run(f);
	return done;
}

int64_t ssd_ftl_zone_finish(struct ssd_ftl *f, uint32_t zone, int pad,
			    int64_t t)
{
	struct ftl_zone *m = f->zn;
	if (!m || zone >= m->z.zones)
		return SSD_EINVAL;
	f->ctr.zone_finish++;
	if (!pad || !m->pos[zone])
		return t; /* an empty zone has no block to fill */
	/* to the end of the zone's blocks: its share of them, or the
	 * stripe of blocks the flush padding has taken it into */
	uint64_t stripe = (uint64_t)m->z.zone_units * f->spb;
	uint64_t end = (uint64_t)m->z.blocks_per_unit * stripe;
	if (m->pos[zone] > end)
		end = (m->pos[zone] + stripe - 1) / stripe * stripe;
	uint64_t pads = f->ctr.pad_lp;
	while (m->pos[zone] < end) {
		int64_t rc = zone_put(f, zone, NONE, t);
		if (rc < 0)
			return rc;
	}
	f->ctr.zone_finish_pad_lp += f->ctr.pad_lp - pads;
	ftl_check_run(f);
	return ssd_max64(t, m->zlast[zone]); /* its own programs, not others' */
}

uint32_t ssd_ftl_zone_written(const struct ssd_ftl *f, uint32_t zone)
{
	const struct ftl_zone *m = f->zn;
	return m && zone < m->z.zones ? m->hw[zone] : 0;
}

uint64_t ftl_zone_mem(const struct ssd_ftl *f)
{
	struct ssd_zones z;
	if (ssd_config_zones(&f->cfg, &z, NULL, 0))
		return 0;
	const struct ftl_zone *m = NULL;
	uint64_t n = z.zones, nu = n * z.zone_units;
	return sizeof *m + n * (sizeof *m->pos + sizeof *m->hw +
				sizeof *m->gready + sizeof *m->zlast +
				sizeof *m->moved +
				sizeof *m->part +
				sizeof *m->pidx) +
	       nu * (sizeof *m->cur + sizeof *m->head);
}

int ftl_zone_init(struct ssd_ftl *f)
{
	struct ftl_zone *m = calloc(1, sizeof *m);
	if (!m)
		return SSD_ENOMEM;
	f->zn = m;
	if (ssd_config_zones(&f->cfg, &m->z, NULL, 0) || !m->z.zones)
		return SSD_EINVAL;
	size_t n = m->z.zones, nu = n * m->z.zone_units;
	while ((1ull << m->shift) < m->z.size_lp)
		m->shift++;
	m->div_zu = ssd_udiv_init(m->z.zone_units);
	m->share = (uint64_t)m->z.blocks_per_unit * m->z.zone_units * f->spb;
	m->pos = calloc(n, sizeof *m->pos);
	m->hw = calloc(n, sizeof *m->hw);
	m->gready = calloc(n, sizeof *m->gready);
	m->zlast = calloc(n, sizeof *m->zlast);
	m->moved = calloc(n, sizeof *m->moved);
	m->part = malloc(n * sizeof *m->part);
	m->pidx = malloc(n * sizeof *m->pidx);
	m->cur = malloc(nu * sizeof *m->cur);
	m->head = malloc(nu * sizeof *m->head);
	if (!m->pos || !m->hw || !m->gready || !m->zlast || !m->moved ||
	    !m->part || !m->pidx ||
	    !m->cur || !m->head)
		return SSD_ENOMEM;
	memset(m->pidx, 0xff, n * sizeof *m->pidx);
	memset(m->cur, 0xff, nu * sizeof *m->cur);
	memset(m->head, 0xff, nu * sizeof *m->head);
	/* static wear leveling would move zone data: not modelled */
	f->cfg.wl_static = 0;
	/* the drive is read-only once a unit cannot give its zones their
	 * blocks */
	f->need_blocks = (uint64_t)m->z.per_group * m->z.blocks_per_unit *
			 f->units;
	return 0;
}

void ftl_zone_free(struct ssd_ftl *f)
{
	struct ftl_zone *m = f->zn;
	if (!m)
		return;
	free(m->pos);
	free(m->hw);
	free(m->gready);
	free(m->zlast);
	free(m->moved);
	free(m->part);
	free(m->pidx);
	free(m->cur);
	free(m->head);
	free(m);
	f->zn = NULL;
}

/* The checker's part: a valid slot past its block's programmed pages
 * must be in the part-filled open page of a zone. */
int ftl_zone_open_slot(const struct ssd_ftl *f, uint32_t blk, uint32_t i)
{
	const struct ftl_zone *m = f->zn;
	for (uint32_t p = 0; p < m->npart; p++) {
		uint32_t zone = m->part[p], q = m->pos[zone];
		uint32_t k = q / f->spp, kk = k / m->z.zone_units;
		uint32_t j = k - kk * m->z.zone_units;
		if (m->cur[(size_t)zone * m->z.zone_units + j] == blk &&
		    i / f->spp == kk % f->ppb && i % f->spp < q % f->spp)
			return 1;
	}
	return 0;
}

/* Every zone's books: its blocks MAPPED, on its own units, each in one
 * chain, as many as its positions need; its host pages mapped in order
 * below its write pointer and nothing above; the part list right. */
int ftl_zone_check(const struct ssd_ftl *f, char *err, size_t errlen)
{
	const struct ftl_zone *m = f->zn;
	uint8_t *seen = calloc(f->nblocks, 1);
	if (!seen) {
		snprintf(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	int rc = 0;
#define ZFAIL(...) do { snprintf(err, errlen, __VA_ARGS__); rc = SSD_ESTATE; goto out; } while (0)
	uint32_t zu = m->z.zone_units, npart = 0;
	for (uint32_t zone = 0; zone < m->z.zones; zone++) {
		uint32_t q = m->pos[zone];
		if (m->hw[zone] > m->z.cap_lp || m->hw[zone] > q)
			ZFAIL("zone %u: %u host pages written, %u positions, "
			      "capacity %llu", zone, m->hw[zone], q,
			      (unsigned long long)m->z.cap_lp);
		uint64_t pages = (q + f->spp - 1) / f->spp;
		for (uint32_t j = 0; j < zu; j++) {
			uint64_t unit_pages = pages / zu + (j < pages % zu);
			uint64_t want = (unit_pages + f->ppb - 1) / f->ppb;
			uint64_t have = 0;
			uint32_t ui = zone_unit(m, zone, j), last = NONE;
			size_t idx = (size_t)zone * zu + j;
			for (uint32_t b = m->head[idx]; b != NONE; b = f->next[b]) {
				if (b >= f->nblocks || seen[b]++ ||
				    f->state[b] != SSD_BLK_MAPPED ||
				    ssd_ftl_unit_of(f, b) != ui || ++have > want)
					ZFAIL("zone %u, unit %u: block %u does not "
					      "belong in its chain", zone, ui, b);
				last = b;
			}
			if (have != want || last != m->cur[idx])
				ZFAIL("zone %u, unit %u: %llu blocks for %llu "
				      "pages (%llu wanted), open block %u", zone,
				      ui, (unsigned long long)have,
				      (unsigned long long)unit_pages,
				      (unsigned long long)want, m->cur[idx]);
		}
		uint64_t base = (uint64_t)zone << m->shift;
		for (uint64_t o = 0; o < m->z.size_lp; o++) {
			uint32_t s = f->l2p[base + o];
			/* above the write pointer nothing; below it data,
			 * or a hole of a random write area's flush */
			if (s != SSD_UNMAPPED && o >= m->hw[zone])
				ZFAIL("zone %u: page %llu is %smapped with the "
				      "write pointer at %u", zone,
				      (unsigned long long)o,
				      s == SSD_UNMAPPED ? "un" : "", m->hw[zone]);
		}
		if (q % f->spp) {
			npart++;
			if (m->pidx[zone] == NONE || m->part[m->pidx[zone]] != zone)
				ZFAIL("zone %u: its part page is not listed", zone);
		} else if (m->pidx[zone] != NONE) {
			ZFAIL("zone %u: listed with no part page", zone);
		}
	}
	if (npart != m->npart)
		ZFAIL("%u zones have part pages, %u listed", npart, m->npart);
	for (uint32_t b = 0; b < f->nblocks; b++)
		if (f->state[b] == SSD_BLK_MAPPED ? !seen[b]
		    : f->state[b] != SSD_BLK_FREE && f->state[b] != SSD_BLK_BAD)
			ZFAIL("block %u has state %u and %s in a zone", b,
			      f->state[b], seen[b] ? "is" : "is not");
out:
	free(seen);
	return rc;
#undef ZFAIL
}

uint64_t ftl_zone_open_lp(const struct ssd_ftl *f)
{
	const struct ftl_zone *m = f->zn;
	uint64_t n = 0;
	for (uint32_t i = 0; m && i < m->npart; i++)
		n += m->pos[m->part[i]] % f->spp;
	return n;
}

/* ---- power cuts (ftl_power.c) ---- */

/* Slot s was programmed by the cut: its page below the block's next and
 * not among the programs that had not ended (pend, sorted). */
static int slot_kept(const struct ssd_ftl *f, uint32_t s, const uint64_t *pend,
		     uint32_t np)
{
	uint32_t blk = ssd_udiv(s, f->div_spb);
	uint32_t pi = ssd_udiv(s - blk * f->spb, f->div_spp);
	if (pi >= ssd_flash_next_page(&f->flash, blk))
		return 0; /* in its zone's part page: DRAM */
	uint64_t key = (uint64_t)blk * f->ppb + pi;
	return !np || !bsearch(&key, pend, np, sizeof *pend, ssd_cmp_u64);
}

/* Did the cut spoil a page of zone z's blocks below its positions (a
 * program that had not ended)? */
static int lost_before(const struct ssd_ftl *f, uint32_t z, const uint64_t *pend,
		       uint32_t np)
{
	const struct ftl_zone *m = f->zn;
	for (uint32_t j = 0; j < m->z.zone_units && np; j++)
		for (uint32_t b = m->head[(size_t)z * m->z.zone_units + j]; b != NONE;
		     b = f->next[b]) {
			uint64_t lo = (uint64_t)b * f->ppb, hi = lo + f->ppb;
			uint32_t a = 0, e = np; /* the first pend >= lo */
			while (a < e) {
				uint32_t mid = a + (e - a) / 2;
				if (pend[mid] < lo)
					a = mid + 1;
				else
					e = mid;
			}
			if (a < np && pend[a] < hi)
				return 1;
		}
	return 0;
}

/* Zone z's data below its write pointer moved to fresh blocks, in order
 * (holes stay holes), its old blocks erased: a recovery's copies (counted
 * as GC copies), at t. */
static int64_t zone_move(struct ssd_ftl *f, uint32_t z, int64_t t)
{
	struct ftl_zone *m = f->zn;
	uint32_t zu = m->z.zone_units, k = m->hw[z], base = z << m->shift;
	uint32_t *old = malloc(zu * sizeof *old);
	if (!old)
		return SSD_ENOMEM;
	for (uint32_t j = 0; j < zu; j++) {
		size_t idx = (size_t)z * zu + j;
		old[j] = m->head[idx];
		m->head[idx] = m->cur[idx] = NONE;
	}
	part_drop(m, z);
	m->pos[z] = m->hw[z] = 0;
	m->gready[z] = 0;
	int64_t r = 0;
	for (uint32_t o = 0; o < k && r >= 0; o++) {
		uint32_t lpn = base + o, s = f->l2p[lpn];
		m->hw[z]++;
		if (s == SSD_UNMAPPED) {
			r = zone_put(f, z, NONE, t); /* a hole */
			f->ctr.pad_lp--;
			continue;
		}
		uint32_t tag = f->vgen ? f->vgen[s] : 0;
		invalidate(f, s);
		f->p2l[s] = SSD_UNMAPPED;
		f->l2p[lpn] = SSD_UNMAPPED;
		f->mapped--;
		m->hw[z]--; /* zone_put counts it */
		r = zone_put(f, z, lpn, t);
		if (f->vgen && f->l2p[lpn] != SSD_UNMAPPED)
			f->vgen[f->l2p[lpn]] = tag;
		f->ctr.host_write_lp--; /* not the host's: a copy */
		f->ctr.gc_copy_lp++;
	}
	if (r >= 0)
		r = page_pad(f, z, t);
	/* the old blocks hold the only durable copy until every copy is
	 * programmed: erased from then on (a cut before finds them whole:
	 * ftl_zone_cut) */
	int64_t safe = ssd_max64(t, m->zlast[z]);
	m->moved[z] = safe;
	for (uint32_t j = 0; j < zu && r >= 0; j++) {
		uint32_t ui = zone_unit(m, z, j);
		for (uint32_t b = old[j]; b != NONE && r >= 0;) {
			uint32_t nb = f->next[b];
			r = ftl_erase_block(f, ui, b, safe);
			b = nb;
		}
	}
	free(old);
	return r;
}

int ftl_zone_cut(struct ssd_ftl *f, const uint64_t *pend, uint32_t np,
		 struct ssd_power_cut *pc, int64_t t)
{
	struct ftl_zone *m = f->zn;
	uint32_t *touched = NULL, cap = 0;
	uint64_t n = 0, resets = f->ctr.zone_reset, held = f->ctr.zone_reset_lp;
	int rc = 0;
	uint64_t share = m->share;
	for (uint32_t z = 0; z < m->z.zones && !rc; z++) {
		if (!m->hw[z])
			continue;
		uint32_t base = z << m->shift, k = m->hw[z];
		/* its data was being moved at the cut: the old blocks are
		 * whole, the move is done again from them */
		int whole = pc->save_all || m->moved[z] > pc->t;
		for (uint32_t o = 0; o < m->hw[z] && !whole; o++) {
			uint32_t s = f->l2p[base + o];
			if (s != SSD_UNMAPPED && !slot_kept(f, s, pend, np)) {
				k = o;
				break;
			}
		}
		/* past the first page lost: unmapped, never to be found */
		for (uint32_t o = k; o < m->hw[z]; o++) {
			uint32_t lpn = base + o, s = f->l2p[lpn];
			if (s == SSD_UNMAPPED)
				continue; /* a hole of a random write area */
			invalidate(f, s);
			f->p2l[s] = SSD_UNMAPPED;
			f->l2p[lpn] = SSD_UNMAPPED;
			f->mapped--;
			if (n == cap) {
				uint32_t *g = ssd_grow(touched, &cap, sizeof *g, 256);
				if (!g) {
					free(touched);
					return SSD_ENOMEM;
				}
				touched = g;
			}
			touched[n++] = lpn;
			if (pc->lost && pc->nlost < pc->lost_cap)
				pc->lost[pc->nlost++] = lpn;
		}
		int hit = m->pos[z] > share ||
			  (!whole && (k < m->hw[z] || m->pos[z] % f->spp ||
				      lost_before(f, z, pend, np)));
		m->hw[z] = k;
		if (!hit)
			continue;
		/* the zone's blocks hold pages the cut spoiled (a program
		 * under way, its part page in DRAM), or padding has taken it
		 * past its share of blocks (flushes pad): left there, they
		 * would take the reserve, cut after cut.  The controller
		 * moves what survived to fresh blocks and erases the old; a
		 * zone left holding nothing is reset */
		int64_t r = k ? zone_move(f, z, t) : ssd_ftl_zone_reset(f, z, t);
		if (r < 0)
			rc = (int)r;
	}
	/* what recovery moved is durable: the lists start over */
	memset(m->moved, 0, m->z.zones * sizeof *m->moved);
	f->ctr.zone_reset = resets; /* the recovery's, not the host's */
	f->ctr.zone_reset_lp = held;
	pc->lost_lp = n;
	pc->touched = touched;
	pc->ntouched = n;
	return rc;
}

/* ---- snapshots (ftl_snap.c) ---- */

#define T SSD_SNAP_TAG

void ftl_zone_snap_save(const struct ssd_ftl *f, struct ssd_snapw *w)
{
	const struct ftl_zone *m = f->zn;
	size_t n = m->z.zones, nu = n * m->z.zone_units;
	uint32_t s[2] = {m->npart, 0};
	ssd_snapw_array(w, T('Z','F','T','S'), s, sizeof s);
	ssd_snapw_array(w, T('Z','L','P','R'), &m->last_prog, sizeof m->last_prog);
	ssd_snapw_array(w, T('Z','P','O','S'), m->pos, n * sizeof *m->pos);
	ssd_snapw_array(w, T('Z','H','W','P'), m->hw, n * sizeof *m->hw);
	ssd_snapw_array(w, T('Z','R','D','Y'), m->gready, n * sizeof *m->gready);
	ssd_snapw_array(w, T('Z','L','S','T'), m->zlast, n * sizeof *m->zlast);
	ssd_snapw_array(w, T('Z','C','U','R'), m->cur, nu * sizeof *m->cur);
	ssd_snapw_array(w, T('Z','H','E','D'), m->head, nu * sizeof *m->head);
	ssd_snapw_array(w, T('Z','P','R','T'), m->part, m->npart * sizeof *m->part);
}

int ftl_zone_snap_load(struct ssd_ftl *f, struct ssd_snapr *r)
{
	struct ftl_zone *m = f->zn;
	size_t n = m->z.zones, nu = n * m->z.zone_units;
	uint32_t s[2];
	int rc;
	if ((rc = ssd_snapr_array(r, T('Z','F','T','S'), s, sizeof s)))
		return rc;
	if (s[0] > n) {
		ssd_snapr_fail(r, "zones: %u part-filled pages in %zu zones",
			       s[0], n);
		return SSD_EPARSE;
	}
	m->npart = s[0];
	if ((rc = ssd_snapr_array(r, T('Z','L','P','R'), &m->last_prog,
				  sizeof m->last_prog)) ||
	    (rc = ssd_snapr_array(r, T('Z','P','O','S'), m->pos, n * sizeof *m->pos)) ||
	    (rc = ssd_snapr_array(r, T('Z','H','W','P'), m->hw, n * sizeof *m->hw)) ||
	    (rc = ssd_snapr_array(r, T('Z','R','D','Y'), m->gready,
				  n * sizeof *m->gready)) ||
	    (rc = ssd_snapr_array(r, T('Z','L','S','T'), m->zlast,
				  n * sizeof *m->zlast)) ||
	    (rc = ssd_snapr_array(r, T('Z','C','U','R'), m->cur, nu * sizeof *m->cur)) ||
	    (rc = ssd_snapr_array(r, T('Z','H','E','D'), m->head,
				  nu * sizeof *m->head)) ||
	    (rc = ssd_snapr_array(r, T('Z','P','R','T'), m->part,
				  m->npart * sizeof *m->part)))
		return rc;
	/* every number a command follows, within the drive; the chains and
	 * positions themselves are the checker's (ftl_zone_check) */
	for (size_t i = 0; i < nu; i++)
		if ((m->cur[i] >= f->nblocks && m->cur[i] != NONE) ||
		    (m->head[i] >= f->nblocks && m->head[i] != NONE)) {
			ssd_snapr_fail(r, "zone %zu's blocks are out of range",
				       i / m->z.zone_units);
			return SSD_EPARSE;
		}
	uint64_t most = (uint64_t)f->nblocks * f->spb;
	for (size_t z = 0; z < n; z++)
		if (m->hw[z] > m->z.cap_lp || m->pos[z] > most) {
			ssd_snapr_fail(r, "zone %zu's write pointer %u or position "
				       "%u is out of range", z, m->hw[z], m->pos[z]);
			return SSD_EPARSE;
		}
	memset(m->pidx, 0xff, n * sizeof *m->pidx);
	for (uint32_t i = 0; i < m->npart; i++) {
		uint32_t z = m->part[i];
		if (z >= n || m->pidx[z] != NONE) {
			ssd_snapr_fail(r, "zones: part-filled page %u names zone %u",
				       i, z);
			return SSD_EPARSE;
		}
		m->pidx[z] = i;
	}
	return 0;
}
#undef T
