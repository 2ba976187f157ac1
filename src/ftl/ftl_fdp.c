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
 * unit in turn, however the host interleaves the handles.
 *
 * Reclaim groups (fdp_groups): the units in that many equal runs, and a
 * placement identifier names a group and a handle as the spec encodes
 * them (the group in its top RGIF bits, RGIF the bits the groups need;
 * the handle below).  Stream (g, h) -- index g * handles + h -- goes
 * round group g's units only (f->ulo .. f->uend), with handle h's write
 * points there: a reclaim unit is a block on each unit of the group.
 * Should every unit of the group be at its limit, the page goes to
 * another group's unit rather than fail.  A write naming no identifier
 * is handle 0 in a group the drive chooses: every unit in turn (stream
 * groups * handles, on a drive of several groups; with one, stream 0).
 *
 * Each block records its owner: the handle whose host data opened it,
 * or FDP_MIXED.  Garbage collection is the FTL's, victims picked per
 * unit by the policy over every full block (so data never moves between
 * groups); where a victim's valid data moves is the handle type's:
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
 * writes of one command name one stream (ssd_ftl_set_placement, set by
 * the drive per command).
 *
 * A reclaim unit handle update (ssd_ftl_fdp_update) pads the open page
 * of each write point the identifier names, as a flush does, and closes
 * its block where it is: the rest of the block is never programmed (a
 * full block to GC, the policy and the checker, marked in `early`), and
 * the update logs "reclaim unit not written to capacity".  The events
 * log keeps the last SSD_FDP_EVENTS events; the counters count them all
 * (fdp_bad_pid, fdp_ru_unfilled, fdp_media_realloc: a failed program
 * moved a reclaim unit's data), and the handle usage -- host pages and
 * the pages programmed into each handle's blocks -- is counted as it
 * happens (ftl_fdp_wrote, ftl_fdp_copied).  Not modelled: events other
 * than these three.  Snapshots save the handles' write points, the
 * owners, streams and marks (ftl_fdp_snap_*); power-loss tracking treats
 * the handles' write points as the unit's own (ftl_power.c).
 */
#include "ftl/ftl.h"
#include "ftl/ftl_int.h"
#include "base/snapfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ftl_fdp {
	uint32_t nh;            /* handles */
	uint32_t ng, upg;       /* reclaim groups, units in each */
	uint32_t rgif;          /* a placement identifier's group bits */
	uint32_t s;             /* the stream of the host writes now: g * nh
	                           + h, or ng * nh for writes naming no
	                           identifier on a drive of several groups
	                           (handle 0 on every unit: the controller
	                           chooses the group) */
	int persistent;
	struct ssd_wp *host;    /* [unit * nh + h] handle h's host write
	                           point (h >= 1; h = 0 is the unit's own) */
	struct ssd_wp *gc;      /* [unit * nh + h] persistent: handle h's GC
	                           write point (h >= 1; h = 0 is the unit's) */
	uint8_t *owner;         /* [blk] the handle of its data, FDP_MIXED */
	uint8_t *lhandle;       /* [lpn] the handle of its last host write */
	uint32_t wlpn;          /* the page of the latest host write, and */
	uint8_t wwas;           /* ... the handle of the write before it: its
	                           old copy is valid until the write maps the
	                           new one, and GC inside the write (the
	                           checker after each victim) still sees it */
	uint32_t *cur;          /* [g * nh + h] the unit each stream is at
	                           (the current one's is f->cur_unit) */
	uint8_t *early;         /* [blk] closed by a handle update before
	                           it was written to capacity */
	struct ssd_fdp_event ev[SSD_FDP_EVENTS]; /* the events log, a ring */
	uint32_t ev_next, ev_n;
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
	return sizeof *m + 2 * nw * sizeof *m->host + 2 * f->nblocks + f->nlp +
	       ((uint64_t)f->cfg.fdp_groups * f->cfg.fdp_handles + 1) * sizeof *m->cur;
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
	m->wlpn = SSD_UNMAPPED;
	m->ng = f->cfg.fdp_groups ? f->cfg.fdp_groups : 1;
	m->upg = f->units / m->ng;
	while (m->ng > 1u << m->rgif)
		m->rgif++;
	m->cur = calloc((size_t)m->ng * m->nh + 1, sizeof *m->cur);
	m->early = calloc(f->nblocks, 1);
	if (!m->host || !m->gc || !m->owner || !m->lhandle || !m->cur ||
	    !m->early)
		return SSD_ENOMEM;
	for (uint32_t i = 0; i < m->ng * m->nh; i++)
		m->cur[i] = i / m->nh * m->upg; /* the group's first unit */
	m->cur[m->ng * m->nh] = 0;
	m->s = m->ng > 1 ? m->ng * m->nh : 0; /* no identifier named yet */
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
	free(m->early);
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
	m->early[blk] = 0;
}

void ftl_fdp_wrote(struct ssd_ftl *f, uint32_t lpn)
{
	struct ftl_fdp *m = f->fdp;
	m->wlpn = lpn;
	m->wwas = m->lhandle[lpn];
	m->lhandle[lpn] = (uint8_t)f->pid;
	f->ctr.fdp_host_lp[f->pid]++;
	f->ctr.fdp_media_lp[f->pid]++;
}

void ftl_fdp_copied(struct ssd_ftl *f, uint32_t ui, const struct ssd_wp *w,
		    uint32_t moved)
{
	const struct ftl_fdp *m = f->fdp;
	size_t base = (size_t)ui * m->nh;
	if (w >= &m->gc[base] && w < &m->gc[base + m->nh])
		f->ctr.fdp_media_lp[w - &m->gc[base]] += moved;
	else if (m->persistent) /* the unit's own: handle 0's */
		f->ctr.fdp_media_lp[0] += moved;
	else
		f->ctr.fdp_gc_shared_lp += moved;
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
			uint32_t l = f->p2l[s];
			if (ssd_bit_test(f->vbits, s) && m->lhandle[l] != o &&
			    !(l == m->wlpn && m->wwas == o)) {
				snprintf(err, errlen, "fdp: block %u of handle %u "
					 "holds logical page %u of handle %u", b,
					 o, f->p2l[s], m->lhandle[f->p2l[s]]);
				return SSD_ESTATE;
			}
		}
	}
	return 0;
}

int ftl_fdp_early(const struct ssd_ftl *f, uint32_t b)
{
	return f->fdp->early[b];
}

/* ---- the events log, handle updates ---- */

static void log_event(struct ftl_fdp *m, const struct ssd_fdp_event *e)
{
	m->ev[m->ev_next] = *e;
	m->ev_next = (m->ev_next + 1) % SSD_FDP_EVENTS;
	if (m->ev_n < SSD_FDP_EVENTS)
		m->ev_n++;
}

void ssd_ftl_fdp_event(struct ssd_ftl *f, int type, uint32_t pid, int64_t t,
		       uint64_t lba)
{
	struct ftl_fdp *m = f->fdp;
	if (!m)
		return;
	int32_t s = ssd_ftl_fdp_stream(f, pid);
	log_event(m, &(struct ssd_fdp_event){
		.type = type, .pid = pid, .t = t, .lba = lba,
		.group = s < 0 ? 0 : (uint32_t)s / m->nh,
		.handle = s < 0 ? 0 : (uint32_t)s % m->nh});
}

void ftl_fdp_realloc(struct ssd_ftl *f, uint32_t ui, uint32_t blk, int64_t t)
{
	struct ftl_fdp *m = f->fdp;
	uint32_t g = ui / m->upg, h = m->owner[blk];
	f->ctr.fdp_media_realloc++;
	log_event(m, &(struct ssd_fdp_event){
		.type = SSD_FDP_EV_MEDIA_REALLOC, .t = t, .group = g,
		.pid = h == FDP_MIXED ? SSD_FDP_NO_PID
				      : ssd_ftl_fdp_pid(f, g * m->nh + h),
		.handle = h == FDP_MIXED ? SSD_FDP_NO_PID : h});
}

uint32_t ssd_ftl_fdp_events(const struct ssd_ftl *f, struct ssd_fdp_event *out,
			    uint32_t max)
{
	const struct ftl_fdp *m = f->fdp;
	if (!m)
		return 0;
	uint32_t first = (m->ev_next + SSD_FDP_EVENTS - m->ev_n) % SSD_FDP_EVENTS;
	for (uint32_t i = 0; i < m->ev_n && i < max; i++)
		out[i] = m->ev[(first + i) % SSD_FDP_EVENTS];
	return m->ev_n;
}

/* Stream s's write points move to new reclaim units: each open block
 * of them, its open page padded, is closed where it is.  Returns the
 * end of the padding, or a negative error; *unfilled: a block was
 * closed before it was written to capacity. */
static int64_t update_one(struct ssd_ftl *f, uint32_t s, int64_t t,
			  int *unfilled)
{
	struct ftl_fdp *m = f->fdp;
	uint32_t g = s / m->nh, h = s % m->nh;
	int64_t done = t;
	for (uint32_t ui = g * m->upg; ui < (g + 1) * m->upg; ui++) {
		struct ssd_wp *w = h ? &m->host[(size_t)ui * m->nh + h]
				     : &f->unit[ui].host;
		if (w->blk == SSD_NO_BLOCK || !w->next)
			continue;
		int64_t e = ftl_wl_pad(f, ui, w, t);
		if (e < 0)
			return e;
		done = ssd_max64(done, e);
		if (w->blk == SSD_NO_BLOCK)
			continue; /* the padding filled it */
		uint32_t b = w->blk;
		w->blk = SSD_NO_BLOCK;
		w->fill = 0;
		ftl_block_full(f, ui, b);
		m->early[b] = 1;
		*unfilled = 1;
	}
	return done;
}

int64_t ssd_ftl_fdp_update(struct ssd_ftl *f, const uint32_t *pids, uint32_t n,
			   int64_t t)
{
	if (!f->fdp)
		return SSD_EUNSUP;
	for (uint32_t i = 0; i < n; i++)
		if (ssd_ftl_fdp_stream(f, pids[i]) < 0)
			return SSD_FDP_EPID; /* nothing done */
	int64_t done = t;
	for (uint32_t i = 0; i < n; i++) {
		int unfilled = 0;
		int64_t e = update_one(f, (uint32_t)ssd_ftl_fdp_stream(f, pids[i]),
				       t, &unfilled);
		if (e < 0)
			return e;
		done = ssd_max64(done, e);
		if (unfilled) {
			f->ctr.fdp_ru_unfilled++;
			ssd_ftl_fdp_event(f, SSD_FDP_EV_RU_UNFILLED, pids[i], t, 0);
		}
	}
	ftl_check_run(f);
	return done;
}

/* ---- placement identifiers ---- */

uint32_t ssd_ftl_handles(const struct ssd_ftl *f)
{
	return f->fdp ? f->fdp->nh : 0;
}

uint32_t ssd_ftl_fdp_groups(const struct ssd_ftl *f)
{
	return f->fdp ? f->fdp->ng : 0;
}

int32_t ssd_ftl_fdp_stream(const struct ssd_ftl *f, uint32_t pid)
{
	const struct ftl_fdp *m = f->fdp;
	if (!m || pid > 0xffff)
		return -1;
	uint32_t hb = 16 - m->rgif;
	uint32_t g = m->rgif ? pid >> hb : 0, h = m->rgif ? pid & ((1u << hb) - 1) : pid;
	if (g >= m->ng || h >= m->nh)
		return -1;
	return (int32_t)(g * m->nh + h);
}

uint32_t ssd_ftl_fdp_pid(const struct ssd_ftl *f, uint32_t stream)
{
	const struct ftl_fdp *m = f->fdp;
	uint32_t g = stream / m->nh, h = stream % m->nh;
	return m->rgif ? g << (16 - m->rgif) | h : h;
}

/* Stream s's host writes: its handle and its group's units (the
 * drive's choice, every unit, for the stream of no identifier). */
static void stream_of(struct ssd_ftl *f, uint32_t s)
{
	const struct ftl_fdp *m = f->fdp;
	uint32_t ns = m->ng * m->nh;
	f->pid = s == ns ? 0 : s % m->nh;
	f->ulo = s == ns ? 0 : s / m->nh * m->upg;
	f->uend = s == ns ? f->units : f->ulo + m->upg;
}

void ssd_ftl_set_placement(struct ssd_ftl *f, uint32_t stream)
{
	struct ftl_fdp *m = f->fdp;
	if (!m)
		return;
	uint32_t ns = m->ng * m->nh;
	uint32_t s = stream < ns ? stream : m->ng > 1 ? ns : 0;
	if (s == m->s)
		return;
	/* each stream goes round its group's units on its own, a page on
	 * each in turn: its reclaim unit is a block on every unit of the
	 * group however the host interleaves the handles */
	m->cur[m->s] = f->cur_unit;
	f->cur_unit = m->cur[s];
	m->s = s;
	stream_of(f, s);
}

int ftl_fdp_page_open(const struct ssd_ftl *f, uint32_t ui)
{
	const struct ftl_fdp *m = f->fdp;
	return m->host[(size_t)ui * m->nh + f->pid].fill != 0;
}

uint32_t ssd_ftl_placement(const struct ssd_ftl *f)
{
	return f->fdp ? f->fdp->s : 0;
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
	uint32_t s[5] = {m->s, m->nh, m->ng, m->ev_next, m->ev_n};
	ssd_snapw_array(w, T('F','D','P','S'), s, sizeof s);
	ssd_snapw_array(w, T('F','D','P','H'), m->host, nw * sizeof *m->host);
	ssd_snapw_array(w, T('F','D','P','G'), m->gc, nw * sizeof *m->gc);
	ssd_snapw_array(w, T('F','D','P','O'), m->owner, f->nblocks);
	ssd_snapw_array(w, T('F','D','P','L'), m->lhandle, f->nlp ? f->nlp : 1);
	ssd_snapw_array(w, T('F','D','P','C'), m->cur,
			((size_t)m->ng * m->nh + 1) * sizeof *m->cur);
	ssd_snapw_array(w, T('F','D','P','E'), m->early, f->nblocks);
	ssd_snapw_array(w, T('F','D','P','V'), m->ev, sizeof m->ev);
}

int ftl_fdp_snap_load(struct ssd_ftl *f, struct ssd_snapr *r)
{
	struct ftl_fdp *m = f->fdp;
	size_t nw = (size_t)f->units * m->nh;
	uint32_t ns = m->ng * m->nh;
	uint32_t s[5];
	int rc;
	if ((rc = ssd_snapr_array(r, T('F','D','P','S'), s, sizeof s)))
		return rc;
	if (s[1] != m->nh || s[2] != m->ng || s[0] > ns ||
	    (s[0] == ns && m->ng == 1)) {
		ssd_snapr_fail(r, "fdp: stream %u of %u handles in %u groups, "
			       "the drive has %u in %u", s[0], s[1], s[2],
			       m->nh, m->ng);
		return SSD_EPARSE;
	}
	if (s[3] >= SSD_FDP_EVENTS || s[4] > SSD_FDP_EVENTS) {
		ssd_snapr_fail(r, "fdp: an events log of %u from %u, at most %d",
			       s[4], s[3], SSD_FDP_EVENTS);
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
				  ((size_t)ns + 1) * sizeof *m->cur)) ||
	    (rc = ssd_snapr_array(r, T('F','D','P','E'), m->early, f->nblocks)) ||
	    (rc = ssd_snapr_array(r, T('F','D','P','V'), m->ev, sizeof m->ev)))
		return rc;
	m->s = s[0];
	m->ev_next = s[3];
	m->ev_n = s[4];
	m->wlpn = SSD_UNMAPPED;
	stream_of(f, m->s);
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
		if ((m->owner[b] >= m->nh && m->owner[b] != FDP_MIXED) ||
		    m->early[b] > 1) {
			ssd_snapr_fail(r, "fdp: block %u's owner %u or mark %u "
				       "is not one", b, m->owner[b], m->early[b]);
			return SSD_EPARSE;
		}
	for (uint32_t l = 0; l < f->nlp; l++)
		if (m->lhandle[l] >= m->nh) {
			ssd_snapr_fail(r, "fdp: page %u's handle %u is no handle",
				       l, m->lhandle[l]);
			return SSD_EPARSE;
		}
	for (uint32_t i = 0; i <= ns; i++) {
		/* a stream stays on its group's units */
		uint32_t lo = i == ns ? 0 : i / m->nh * m->upg;
		uint32_t end = i == ns ? f->units : lo + m->upg;
		if (m->cur[i] < lo || m->cur[i] >= end) {
			ssd_snapr_fail(r, "fdp: stream %u's unit %u is outside "
				       "its group", i, m->cur[i]);
			return SSD_EPARSE;
		}
	}
	if (f->cur_unit < f->ulo || f->cur_unit >= f->uend) {
		ssd_snapr_fail(r, "fdp: the current unit %u is outside stream "
			       "%u's group", f->cur_unit, m->s);
		return SSD_EPARSE;
	}
	return 0;
}
#undef T
