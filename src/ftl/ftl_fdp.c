/*
 * ftl_fdp.c -- flexible data placement (fdp = yes; NVMe TP4146 FDP,
 * docs/fdp.md): host writes carry a reclaim unit handle, and each
 * handle's data goes into blocks of its own.
 *
 * The page-mapped FTL as it is, with more write points.  Handle h has a
 * host write point in every allocation unit (handle 0's is the unit's
 * own `host`, so a drive whose host never names a handle runs exactly as
 * without FDP); each handle's stream goes round the units on its own
 * (the FTL's rotation, f->cur_unit, is swapped when the handle changes),
 * so a handle's reclaim unit is one block on each unit, filled a page per
 * unit in turn, however the host interleaves the handles.  Each block records its owner: the handle whose host data
 * opened it, or FDP_MIXED.  Garbage collection is the FTL's, victims
 * picked per unit by the policy over every full block; where a victim's
 * valid data moves is the handle type's:
 *
 *   initial     initially isolated: into the unit's one GC write point,
 *               whichever handle wrote it (its blocks are FDP_MIXED): the
 *               handles' data mix as GC moves it (what published
 *               measurements of FDP drives show as one handle's traffic
 *               raising another's write amplification);
 *   persistent  persistently isolated: into the GC write point of the
 *               victim's owner, one per handle and unit, so no block ever
 *               holds two handles' data.
 *
 * Each handle's write points keep blocks open: the config asks op for
 * them (config_finish.c), and the FTL's reserve counts them.  The host
 * writes of one command name one handle (ssd_ftl_set_placement, set by
 * the drive per command).  Not modelled: reclaim groups (one, the whole
 * drive), the handle update command, events other than an invalid
 * placement identifier.  Snapshots save the handles' write points, the
 * owners and rotations (ftl_fdp_snap_*); power-loss tracking treats the
 * handles' write points as the unit's own (ftl_power.c).
 */
#include "ftl/ftl.h"
#include "ftl/ftl_int.h"
#include "base/snapfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ftl_fdp {
	uint32_t nh;            /* handles */
	int persistent;
	struct ssd_wp *host;    /* [unit * nh + h] handle h's host write
	                           point (h >= 1; h = 0 is the unit's own) */
	struct ssd_wp *gc;      /* [unit * nh + h] persistent: handle h's GC
	                           write point (h >= 1; h = 0 is the unit's) */
	uint8_t *owner;         /* [blk] the handle of its data, FDP_MIXED */
	uint8_t *lhandle;       /* [lpn] the handle of its last host write */
	uint32_t *cur;          /* [h] the unit each handle's stream is at
	                           (the current handle's is f->cur_unit) */
	uint32_t wlpn;          /* the page of the host write under way: its
	                           handle is set before the cleaning the write
	                           may run, its old copy still mapped */
};

static void wp_init(struct ssd_wp *w)
{
	memset(w, 0, sizeof *w);
	w->blk = SSD_NO_BLOCK;
}

uint64_t ftl_fdp_mem(const struct ssd_ftl *f)
{
	const struct ftl_fdp *m = NULL;
	uint64_t nw = (uint64_t)f->units * f->cfg.fdp_handles;
	return sizeof *m + 2 * nw * sizeof *m->host + f->nblocks + f->nlp +
	       f->cfg.fdp_handles * sizeof *m->cur;
}

int ftl_fdp_init(struct ssd_ftl *f)
{
	struct ftl_fdp *m = calloc(1, sizeof *m);
	if (!m)
		return SSD_ENOMEM;
	f->fdp = m;
	m->nh = f->cfg.fdp_handles;
	m->persistent = f->cfg.fdp_isolation == SSD_FDP_PERSISTENT;
	size_t nw = (size_t)f->units * m->nh;
	m->host = malloc(nw * sizeof *m->host);
	m->gc = malloc(nw * sizeof *m->gc);
	m->owner = calloc(f->nblocks, 1);
	m->lhandle = calloc(f->nlp ? f->nlp : 1, 1);
	m->cur = calloc(m->nh, sizeof *m->cur);
	if (!m->host || !m->gc || !m->owner || !m->lhandle || !m->cur)
		return SSD_ENOMEM;
	m->wlpn = UINT32_MAX;
	for (size_t i = 0; i < nw; i++) {
		wp_init(&m->host[i]);
		wp_init(&m->gc[i]);
	}
	/* every handle's open blocks come out of the spare, as the reserve
	 * (the config checked that op has room) */
	uint32_t extra = (m->nh - 1) * (m->persistent ? 2 : 1);
	f->reserve += extra;
	f->need_blocks += (uint64_t)f->units * extra;
	return 0;
}

void ftl_fdp_free(struct ssd_ftl *f)
{
	struct ftl_fdp *m = f->fdp;
	if (!m)
		return;
	free(m->host);
	free(m->gc);
	free(m->owner);
	free(m->lhandle);
	free(m->cur);
	free(m);
	f->fdp = NULL;
}

struct ssd_wp *ftl_fdp_host(struct ssd_ftl *f, uint32_t ui)
{
	return &f->fdp->host[(size_t)ui * f->fdp->nh + f->pid];
}

void ftl_fdp_opened(struct ssd_ftl *f, uint32_t ui, const struct ssd_wp *w,
		    uint32_t blk)
{
	struct ftl_fdp *m = f->fdp;
	const struct ssd_unit *u = &f->unit[ui];
	size_t base = (size_t)ui * m->nh;
	uint32_t h = 0;
	if (w == &u->gc)
		h = m->persistent ? 0 : FDP_MIXED;
	else if (w >= &m->host[base] && w < &m->host[base + m->nh])
		h = (uint32_t)(w - &m->host[base]);
	else if (w >= &m->gc[base] && w < &m->gc[base + m->nh])
		h = (uint32_t)(w - &m->gc[base]);
	m->owner[blk] = (uint8_t)h;
}

void ftl_fdp_wrote(struct ssd_ftl *f, uint32_t lpn)
{
	f->fdp->lhandle[lpn] = (uint8_t)f->pid;
	f->fdp->wlpn = lpn;
}

struct ssd_wp *ftl_fdp_gc_dest(struct ssd_ftl *f, uint32_t ui, uint32_t victim)
{
	struct ftl_fdp *m = f->fdp;
	uint32_t h = m->owner[victim];
	if (!m->persistent || h == 0 || h == FDP_MIXED)
		return &f->unit[ui].gc;
	return &m->gc[(size_t)ui * m->nh + h];
}

int64_t ftl_fdp_pad(struct ssd_ftl *f, int64_t t)
{
	struct ftl_fdp *m = f->fdp;
	int64_t done = t;
	for (uint32_t ui = 0; ui < f->units; ui++)
		for (uint32_t h = 1; h < m->nh; h++) {
			struct ssd_wp *w = &m->host[(size_t)ui * m->nh + h];
			int64_t e = ftl_wl_pad(f, ui, w, t);
			if (e < 0)
				return e;
			done = ssd_max64(done, ssd_max64(e, w->durable));
		}
	return done;
}

const struct ssd_wp *ftl_fdp_wp_of(const struct ssd_ftl *f, uint32_t b)
{
	const struct ftl_fdp *m = f->fdp;
	uint32_t ui = ssd_ftl_unit_of(f, b);
	for (uint32_t h = 1; h < m->nh; h++) {
		const struct ssd_wp *w = &m->host[(size_t)ui * m->nh + h];
		if (w->blk == b)
			return w;
		w = &m->gc[(size_t)ui * m->nh + h];
		if (w->blk == b)
			return w;
	}
	return NULL;
}

/* Each write point's block is owned by its handle (a GC write point of
 * initially isolated handles: mixed); with persistent isolation no
 * block holds data of a handle other than its owner (lhandle, the
 * handle of each logical page's last host write). */
int ftl_fdp_check(const struct ssd_ftl *f, char *err, size_t errlen)
{
	const struct ftl_fdp *m = f->fdp;
	for (uint32_t ui = 0; ui < f->units; ui++)
		for (uint32_t h = 1; h < m->nh; h++) {
			const struct ssd_wp *w = &m->host[(size_t)ui * m->nh + h];
			if (w->blk != SSD_NO_BLOCK && m->owner[w->blk] != h) {
				snprintf(err, errlen, "fdp: handle %u's write point "
					 "on unit %u has block %u of owner %u", h,
					 ui, w->blk, m->owner[w->blk]);
				return SSD_ESTATE;
			}
			w = &m->gc[(size_t)ui * m->nh + h];
			if (w->blk != SSD_NO_BLOCK && m->owner[w->blk] != h) {
				snprintf(err, errlen, "fdp: handle %u's GC write "
					 "point on unit %u has block %u of owner %u",
					 h, ui, w->blk, m->owner[w->blk]);
				return SSD_ESTATE;
			}
		}
	for (uint32_t b = 0; b < f->nblocks; b++) {
		uint32_t o = m->owner[b];
		if (o == FDP_MIXED || !f->valid[b])
			continue;
		for (uint32_t i = 0; i < f->spb; i++) {
			uint32_t s = b * f->spb + i;
			if (!ssd_bit_test(f->vbits, s))
				continue;
			uint32_t l = f->p2l[s];
			if (l == m->wlpn && f->l2p[l] == s)
				continue; /* being overwritten by another handle */
			if (m->lhandle[l] != o) {
				snprintf(err, errlen, "fdp: block %u of handle %u "
					 "holds logical page %u of handle %u", b,
					 o, f->p2l[s], m->lhandle[f->p2l[s]]);
				return SSD_ESTATE;
			}
		}
	}
	return 0;
}

uint32_t ssd_ftl_handles(const struct ssd_ftl *f)
{
	return f->fdp ? f->fdp->nh : 0;
}

void ssd_ftl_set_placement(struct ssd_ftl *f, uint32_t handle)
{
	struct ftl_fdp *m = f->fdp;
	uint32_t h = m && handle < m->nh ? handle : 0;
	if (!m || h == f->pid)
		return;
	/* each handle's stream goes round the units on its own, a page on
	 * each in turn: its reclaim unit is a block on every unit however
	 * the host interleaves the handles */
	m->cur[f->pid] = f->cur_unit;
	f->cur_unit = m->cur[h];
	f->pid = h;
}

int ftl_fdp_page_open(const struct ssd_ftl *f, uint32_t ui)
{
	const struct ftl_fdp *m = f->fdp;
	return m->host[(size_t)ui * m->nh + f->pid].fill != 0;
}

uint32_t ssd_ftl_placement(const struct ssd_ftl *f)
{
	return f->pid;
}

/* ---- snapshots and power-loss tracking (ftl_snap.c, ftl_power.c) ---- */

/* Write point k of unit ui beyond the unit's own (host, host_slc, gc):
 * handle h's host write point for k = 2 (h - 1), its GC write point for
 * k = 2 (h - 1) + 1; NULL past the last.  A persistently isolated
 * handle's GC write point is listed even while it holds no block. */
struct ssd_wp *ftl_fdp_wp(struct ssd_ftl *f, uint32_t ui, uint32_t k)
{
	struct ftl_fdp *m = f->fdp;
	uint32_t h = 1 + k / 2;
	if (!m || h >= m->nh)
		return NULL;
	size_t i = (size_t)ui * m->nh + h;
	return k % 2 ? &m->gc[i] : &m->host[i];
}

/* Handle h >= 1's host write point of unit ui is w: h; else 0. */
uint32_t ftl_fdp_host_handle(const struct ssd_ftl *f, uint32_t ui,
			     const struct ssd_wp *w)
{
	const struct ftl_fdp *m = f->fdp;
	size_t base = (size_t)ui * m->nh;
	if (w > &m->host[base] && w < &m->host[base + m->nh])
		return (uint32_t)(w - &m->host[base]);
	return 0;
}

/* The handle of lpn's latest host write. */
uint32_t ftl_fdp_handle_of(const struct ssd_ftl *f, uint32_t lpn)
{
	return f->fdp->lhandle[lpn];
}

/* May block b hold lpn's data as the isolation has it: a block of the
 * handle of its latest write, or a mixed one. */
int ftl_fdp_may_hold(const struct ssd_ftl *f, uint32_t b, uint32_t lpn)
{
	const struct ftl_fdp *m = f->fdp;
	return m->owner[b] == FDP_MIXED || m->owner[b] == m->lhandle[lpn];
}

#define T SSD_SNAP_TAG

void ftl_fdp_snap_save(const struct ssd_ftl *f, struct ssd_snapw *w)
{
	const struct ftl_fdp *m = f->fdp;
	size_t nw = (size_t)f->units * m->nh;
	uint32_t s[2] = {f->pid, m->nh};
	ssd_snapw_array(w, T('F','D','P','S'), s, sizeof s);
	ssd_snapw_array(w, T('F','D','P','H'), m->host, nw * sizeof *m->host);
	ssd_snapw_array(w, T('F','D','P','G'), m->gc, nw * sizeof *m->gc);
	ssd_snapw_array(w, T('F','D','P','O'), m->owner, f->nblocks);
	ssd_snapw_array(w, T('F','D','P','L'), m->lhandle, f->nlp ? f->nlp : 1);
	ssd_snapw_array(w, T('F','D','P','C'), m->cur, m->nh * sizeof *m->cur);
}

int ftl_fdp_snap_load(struct ssd_ftl *f, struct ssd_snapr *r)
{
	struct ftl_fdp *m = f->fdp;
	size_t nw = (size_t)f->units * m->nh;
	uint32_t s[2];
	int rc;
	if ((rc = ssd_snapr_array(r, T('F','D','P','S'), s, sizeof s)))
		return rc;
	if (s[1] != m->nh || s[0] >= m->nh) {
		ssd_snapr_fail(r, "fdp: handle %u of %u handles, the drive has "
			       "%u", s[0], s[1], m->nh);
		return SSD_EPARSE;
	}
	if ((rc = ssd_snapr_array(r, T('F','D','P','H'), m->host,
				  nw * sizeof *m->host)) ||
	    (rc = ssd_snapr_array(r, T('F','D','P','G'), m->gc,
				  nw * sizeof *m->gc)) ||
	    (rc = ssd_snapr_array(r, T('F','D','P','O'), m->owner, f->nblocks)) ||
	    (rc = ssd_snapr_array(r, T('F','D','P','L'), m->lhandle,
				  f->nlp ? f->nlp : 1)) ||
	    (rc = ssd_snapr_array(r, T('F','D','P','C'), m->cur,
				  m->nh * sizeof *m->cur)))
		return rc;
	f->pid = s[0];
	for (size_t i = 0; i < nw; i++) {
		uint32_t ui = (uint32_t)(i / m->nh), lo = ui * f->bpu;
		const struct ssd_wp *wp[2] = {&m->host[i], &m->gc[i]};
		for (int k = 0; k < 2; k++)
			if (wp[k]->blk != SSD_NO_BLOCK &&
			    (wp[k]->blk - lo >= f->bpu || wp[k]->next > f->spb ||
			     wp[k]->fill > f->spp)) {
				ssd_snapr_fail(r, "fdp: a write point of unit %u "
					       "is outside it", ui);
				return SSD_EPARSE;
			}
	}
	for (uint32_t b = 0; b < f->nblocks; b++)
		if (m->owner[b] >= m->nh && m->owner[b] != FDP_MIXED) {
			ssd_snapr_fail(r, "fdp: block %u's owner %u is no handle",
				       b, m->owner[b]);
			return SSD_EPARSE;
		}
	for (uint32_t l = 0; l < f->nlp; l++)
		if (m->lhandle[l] >= m->nh) {
			ssd_snapr_fail(r, "fdp: page %u's handle %u is no handle",
				       l, m->lhandle[l]);
			return SSD_EPARSE;
		}
	for (uint32_t h = 0; h < m->nh; h++)
		if (m->cur[h] >= f->units) {
			ssd_snapr_fail(r, "fdp: handle %u's unit %u is out of "
				       "range", h, m->cur[h]);
			return SSD_EPARSE;
		}
	return 0;
}
#undef T
