/*
 * zns.c -- the zone state machine of an NVMe Zoned Namespace (zns.h says
 * what it models, with the specification's sections: rev. 1.1, §2.1.1
 * for the states and the resources, §3.1.2 for the status values,
 * §3.3.5/§3.3.7 for Read and Write, §3.4.1-§3.4.3 for Zone Append and
 * Zone Management Receive and Send, §5.6 for controller finishes).
 *
 * One array of zones indexed by zone number; every transition goes
 * through set_state(), which keeps the open and active counters and tells
 * the hook, so that no path can forget one.  Each command checks all it
 * can fail on before it changes anything: a command that fails leaves
 * the zones as they were.
 *
 * Costs: O(1) per write, append and single-zone Send; a read is O(zones
 * it covers); the implicit close scans the zones for the least recently
 * used implicitly opened one (it happens only when a zone opens at the
 * open limit); Select All and Report Zones walk the zones.
 */
#include "ftl/zns.h"
#include "base/snapfile.h"

#include <stdio.h>
#include <stdlib.h>

/* One zone: 48 bytes. */
struct zone {
	uint64_t wp;      /* next LBA to write; zslba + cap when full */
	uint64_t cap;     /* writable LBAs */
	uint64_t written; /* LBAs the host wrote (wp - zslba but for the
	                     padding of a Finish) */
	uint64_t used;    /* the namespace's clock at the zone's last open
	                     or write: the implicit close takes the least */
	uint64_t hi;      /* with a ZRWA: one past the last LBA the host
	                     wrote in it (>= wp) */
	uint8_t state;    /* enum ssd_zns_state */
	uint8_t attr;     /* SSD_ZNS_ATTR_* */
};
_Static_assert(sizeof(struct zone) == 48, "struct zone grew");

struct ssd_zns {
	struct ssd_zns_params p;
	unsigned shift;          /* log2(zone_size) */
	uint64_t nlbas;          /* nzones * zone_size */
	uint32_t nr_open;        /* ZSIO + ZSEO zones */
	uint32_t nr_active;      /* ZSIO + ZSEO + ZSC zones */
	uint64_t clock;          /* ticks at each open or write */
	uint64_t implicit_closes;
	uint32_t nr_zrwa;        /* random write areas in all */
	uint32_t zrwa_used;      /* held by zones */
	ssd_zns_hook *hook;
	void *hook_ctx;
	struct zone *zone;       /* [nzones] */
};

#define NO_ZONE 0xffffffffu

static int is_open(int s)
{
	return s == SSD_ZNS_ZSIO || s == SSD_ZNS_ZSEO;
}

static int is_active(int s)
{
	return is_open(s) || s == SSD_ZNS_ZSC;
}

static uint64_t zslba(const struct ssd_zns *z, uint32_t i)
{
	return (uint64_t)i << z->shift;
}

/* ---- errors ---- */

const char *ssd_zns_strerror(int code)
{
	return ssd_strerror(code);
}

int ssd_zns_status(int code)
{
	if (code == 0)
		return 0;
	switch (code) {
	case SSD_ZNS_EFIELD: case SSD_ZNS_ERANGE: case SSD_ZNS_EBOUNDARY:
	case SSD_ZNS_EFULL: case SSD_ZNS_EREADONLY: case SSD_ZNS_EOFFLINE:
	case SSD_ZNS_EWRITE: case SSD_ZNS_EMAXACTIVE: case SSD_ZNS_EMAXOPEN:
	case SSD_ZNS_ETRANSITION:
		return -code & 0xfff;
	}
	return -1;
}

const char *ssd_zns_state_name(int state)
{
	switch (state) {
	case SSD_ZNS_ZSE: return "empty";
	case SSD_ZNS_ZSIO: return "implicitly opened";
	case SSD_ZNS_ZSEO: return "explicitly opened";
	case SSD_ZNS_ZSC: return "closed";
	case SSD_ZNS_ZSRO: return "read only";
	case SSD_ZNS_ZSF: return "full";
	case SSD_ZNS_ZSO: return "offline";
	}
	return "?";
}

/* ---- set-up ---- */

uint64_t ssd_zns_mem(uint32_t nzones)
{
	const struct ssd_zns *z = NULL;
	return sizeof *z + (uint64_t)nzones * sizeof *z->zone;
}

int ssd_zns_create(const struct ssd_zns_params *p, struct ssd_zns **out,
		   char *err, size_t errlen)
{
	const char *why = NULL;
	char buf[160];
	if (!p->zone_size || (p->zone_size & (p->zone_size - 1))) {
		snprintf(buf, sizeof buf, "zone size %llu LBAs is not a power "
			 "of two", (unsigned long long)p->zone_size);
		why = buf;
	} else if (!p->zone_cap || p->zone_cap > p->zone_size) {
		snprintf(buf, sizeof buf, "zone capacity %llu LBAs is not "
			 "within 1..%llu (the zone size)",
			 (unsigned long long)p->zone_cap,
			 (unsigned long long)p->zone_size);
		why = buf;
	} else if (!p->nzones) {
		why = "a zoned namespace needs at least one zone";
	} else if (p->zone_size > UINT64_MAX / p->nzones) {
		why = "the zones hold more than 2^64 LBAs";
	} else if (p->zrwa_size && (!p->zrwa_fg || p->zrwa_size % p->zrwa_fg ||
				    p->zrwa_size > p->zone_cap)) {
		snprintf(buf, sizeof buf, "ZRWA size %llu LBAs is not a multiple "
			 "of its flush granularity %llu within the capacity",
			 (unsigned long long)p->zrwa_size,
			 (unsigned long long)p->zrwa_fg);
		why = buf;
	} else if (p->max_open && p->max_active &&
		   p->max_open > p->max_active) {
		snprintf(buf, sizeof buf, "max open zones %u is above max "
			 "active zones %u", p->max_open, p->max_active);
		why = buf;
	}
	if (why) {
		if (errlen)
			snprintf(err, errlen, "%s", why);
		return SSD_EINVAL;
	}
	struct ssd_zns *z = calloc(1, sizeof *z);
	struct zone *zv = calloc(p->nzones, sizeof *zv);
	if (!z || !zv) {
		free(z);
		free(zv);
		return SSD_ENOMEM;
	}
	z->p = *p;
	while ((1ull << z->shift) < p->zone_size)
		z->shift++;
	z->nlbas = p->zone_size * p->nzones;
	z->zone = zv;
	z->nr_zrwa = !p->zrwa_size ? 0 : p->nr_zrwa ? p->nr_zrwa
		   : p->max_active ? p->max_active : p->nzones;
	for (uint32_t i = 0; i < p->nzones; i++) {
		zv[i].wp = zv[i].hi = zslba(z, i);
		zv[i].cap = p->zone_cap;
		zv[i].state = SSD_ZNS_ZSE;
	}
	*out = z;
	return 0;
}

void ssd_zns_destroy(struct ssd_zns *z)
{
	if (z) {
		free(z->zone);
		free(z);
	}
}

void ssd_zns_set_hook(struct ssd_zns *z, ssd_zns_hook *hook, void *ctx)
{
	z->hook = hook;
	z->hook_ctx = ctx;
}

const struct ssd_zns_params *ssd_zns_params(const struct ssd_zns *z)
{
	return &z->p;
}

uint32_t ssd_zns_zone_of(const struct ssd_zns *z, uint64_t lba)
{
	return (uint32_t)(lba >> z->shift);
}

uint32_t ssd_zns_nr_open(const struct ssd_zns *z)
{
	return z->nr_open;
}

uint32_t ssd_zns_nr_active(const struct ssd_zns *z)
{
	return z->nr_active;
}

uint64_t ssd_zns_implicit_closes(const struct ssd_zns *z)
{
	return z->implicit_closes;
}

/* ---- transitions ---- */

/* Zone i goes to state to: the counters follow, the hook is told. */
static void set_state(struct ssd_zns *z, uint32_t i, int to, int cause,
		      int action, uint64_t lbas)
{
	struct zone *zn = &z->zone[i];
	int from = zn->state;
	z->nr_open += (uint32_t)is_open(to) - (uint32_t)is_open(from);
	z->nr_active += (uint32_t)is_active(to) - (uint32_t)is_active(from);
	zn->state = (uint8_t)to;
	if ((zn->attr & SSD_ZNS_ATTR_ZRWAV) && !is_active(to)) {
		/* full, empty, read only or offline: the area goes back */
		zn->attr &= (uint8_t)~SSD_ZNS_ATTR_ZRWAV;
		z->zrwa_used--;
	}
	if (z->hook) {
		struct ssd_zns_event e = {
			.zone = i, .from = (uint8_t)from, .to = (uint8_t)to,
			.cause = (uint8_t)cause, .action = (uint8_t)action,
			.lbas = lbas,
		};
		z->hook(z->hook_ctx, &e);
	}
}

/* The implicitly opened zone used least recently, or NO_ZONE. */
static uint32_t lru_iopen(const struct ssd_zns *z)
{
	uint32_t best = NO_ZONE;
	for (uint32_t i = 0; i < z->p.nzones; i++)
		if (z->zone[i].state == SSD_ZNS_ZSIO &&
		    (best == NO_ZONE || z->zone[i].used < z->zone[best].used))
			best = i;
	return best;
}

/* Frees what zone i (empty or closed) needs to open, in the order of
 * §2.1.1's resource management: the active limit (an empty zone takes
 * an active resource), then the implicit close of an implicitly opened
 * zone if no open resource is free, then the open limit.  Changes
 * nothing when it fails. */
static int make_room(struct ssd_zns *z, uint32_t i)
{
	if (z->zone[i].state == SSD_ZNS_ZSE && z->p.max_active &&
	    z->nr_active >= z->p.max_active)
		return SSD_ZNS_EMAXACTIVE;
	if (z->p.max_open && z->nr_open >= z->p.max_open) {
		uint32_t v = lru_iopen(z);
		if (v == NO_ZONE)
			return SSD_ZNS_EMAXOPEN;
		set_state(z, v, SSD_ZNS_ZSC, SSD_ZNS_BY_IMPLICIT_CLOSE, 0, 0);
		z->implicit_closes++;
	}
	return 0;
}

/* The state checks of a write or an append to zone i (§3.3.7, §3.4.1). */
static int writable(const struct zone *zn)
{
	switch (zn->state) {
	case SSD_ZNS_ZSF: return SSD_ZNS_EFULL;
	case SSD_ZNS_ZSRO: return SSD_ZNS_EREADONLY;
	case SSD_ZNS_ZSO: return SSD_ZNS_EOFFLINE;
	}
	return 0;
}

/* Writes n LBAs at zone i's write pointer, the checks done but the
 * resources: opens the zone if it must, fills it if it reaches the
 * capacity. */
static int commit_write(struct ssd_zns *z, uint32_t i, uint64_t n)
{
	struct zone *zn = &z->zone[i];
	if (zn->state == SSD_ZNS_ZSE || zn->state == SSD_ZNS_ZSC) {
		int rc = make_room(z, i);
		if (rc)
			return rc;
		set_state(z, i, SSD_ZNS_ZSIO, SSD_ZNS_BY_WRITE, 0, 0);
	}
	zn->wp += n;
	zn->written += n;
	zn->used = ++z->clock;
	if (zn->wp == zslba(z, i) + zn->cap)
		set_state(z, i, SSD_ZNS_ZSF, SSD_ZNS_BY_WRITE, 0, 0);
	return 0;
}

/* A write of [lba, lba + n) into zone i's random write area, checked
 * but for the resources: the zone opens if closed; the write pointer
 * moves by the implicit flush, whole flush units until the write ends
 * within wp + zrwa_size (at most to the capacity).  *c receives what it
 * committed. */
static int zrwa_write(struct ssd_zns *z, uint32_t i, uint64_t lba, uint64_t n,
		      uint64_t *c)
{
	struct zone *zn = &z->zone[i];
	if (zn->state == SSD_ZNS_ZSC) {
		int rc = make_room(z, i);
		if (rc)
			return rc;
		set_state(z, i, SSD_ZNS_ZSIO, SSD_ZNS_BY_WRITE, 0, 0);
	}
	uint64_t end = lba + n, cap_end = zslba(z, i) + zn->cap, adv = 0;
	if (end > zn->hi)
		zn->hi = end;
	if (end > zn->wp + z->p.zrwa_size) {
		uint64_t over = end - zn->wp - z->p.zrwa_size, fg = z->p.zrwa_fg;
		adv = (over + fg - 1) / fg * fg;
		if (adv > cap_end - zn->wp)
			adv = cap_end - zn->wp;
	}
	*c = adv;
	zn->wp += adv;
	zn->written += adv;
	zn->used = ++z->clock;
	if (zn->wp == cap_end)
		set_state(z, i, SSD_ZNS_ZSF, SSD_ZNS_BY_WRITE, 0, 0);
	return 0;
}

int ssd_zns_write_commit(struct ssd_zns *z, uint64_t lba, uint64_t n,
			 uint64_t *from, uint64_t *committed)
{
	if (!n)
		return SSD_ZNS_EFIELD;
	if (lba >= z->nlbas || n > z->nlbas - lba)
		return SSD_ZNS_ERANGE;
	uint32_t i = ssd_zns_zone_of(z, lba);
	const struct zone *zn = &z->zone[i];
	int rc = writable(zn);
	if (rc)
		return rc;
	uint64_t wp = zn->wp, c = n;
	if (zn->attr & SSD_ZNS_ATTR_ZRWAV) {
		if (lba < wp || n > wp + 2 * z->p.zrwa_size - lba)
			return SSD_ZNS_EWRITE;
	} else if (lba != wp) {
		return SSD_ZNS_EWRITE;
	}
	if (n > zslba(z, i) + zn->cap - lba)
		return SSD_ZNS_EBOUNDARY;
	rc = zn->attr & SSD_ZNS_ATTR_ZRWAV ? zrwa_write(z, i, lba, n, &c)
					   : commit_write(z, i, n);
	if (rc)
		return rc;
	if (from)
		*from = wp;
	if (committed)
		*committed = c;
	return 0;
}

int ssd_zns_write(struct ssd_zns *z, uint64_t lba, uint64_t n)
{
	return ssd_zns_write_commit(z, lba, n, NULL, NULL);
}

int ssd_zns_zrwa(const struct ssd_zns *z, uint32_t zone, uint64_t *hi)
{
	const struct zone *zn = &z->zone[zone];
	if (!(zn->attr & SSD_ZNS_ATTR_ZRWAV))
		return 0;
	if (hi)
		*hi = zn->hi;
	return 1;
}

int ssd_zns_append(struct ssd_zns *z, uint64_t start, uint64_t n,
		   uint64_t *lba)
{
	if (start >= z->nlbas)
		return SSD_ZNS_ERANGE;
	if (start & (z->p.zone_size - 1) || !n ||
	    (z->p.max_append && n > z->p.max_append))
		return SSD_ZNS_EFIELD;
	uint32_t i = ssd_zns_zone_of(z, start);
	const struct zone *zn = &z->zone[i];
	int rc = writable(zn);
	if (rc)
		return rc;
	if (zn->attr & SSD_ZNS_ATTR_ZRWAV)
		return SSD_ZNS_EZONEOP; /* its write pointer is not the host's */
	uint64_t at = zn->wp;
	if (n > start + zn->cap - at)
		return SSD_ZNS_EBOUNDARY;
	rc = commit_write(z, i, n);
	if (!rc && lba)
		*lba = at;
	return rc;
}

int ssd_zns_read(const struct ssd_zns *z, uint64_t lba, uint64_t n,
		 uint64_t *unwritten)
{
	if (!n)
		return SSD_ZNS_EFIELD;
	if (lba >= z->nlbas || n > z->nlbas - lba)
		return SSD_ZNS_ERANGE;
	uint64_t end = lba + n, blank = 0;
	uint32_t first = ssd_zns_zone_of(z, lba);
	uint32_t last = ssd_zns_zone_of(z, end - 1);
	if (first != last && !z->p.read_across)
		return SSD_ZNS_EBOUNDARY;
	for (uint32_t i = first; i <= last; i++) {
		const struct zone *zn = &z->zone[i];
		if (zn->state == SSD_ZNS_ZSO)
			return SSD_ZNS_EOFFLINE;
		uint64_t lo = zslba(z, i), hi = lo + z->p.zone_size;
		uint64_t from = lba > lo ? lba : lo, to = end < hi ? end : hi;
		uint64_t data_end = lo + zn->written;
		if (data_end < from)
			data_end = from;
		if (data_end < to)
			blank += to - data_end;
	}
	if (unwritten)
		*unwritten = blank;
	return 0;
}

/* ---- Zone Management Send ---- */

/* Moves zone i to Full, the write pointer to the capacity; the LBAs it
 * skipped. */
static uint64_t finish(struct ssd_zns *z, uint32_t i, int cause)
{
	struct zone *zn = &z->zone[i];
	if (zn->attr & SSD_ZNS_ATTR_ZRWAV) {
		/* what the host wrote in its random write area is flushed */
		zn->written += zn->hi - zn->wp;
		zn->wp = zn->hi;
	}
	uint64_t end = zslba(z, i) + zn->cap, pad = end - zn->wp;
	zn->wp = end;
	if (cause == SSD_ZNS_BY_CONTROLLER)
		zn->attr |= SSD_ZNS_ATTR_ZFC;
	set_state(z, i, SSD_ZNS_ZSF, cause,
		  cause == SSD_ZNS_BY_SEND ? SSD_ZNS_ACT_FINISH : 0, pad);
	return pad;
}

/* One zone's action (the table of ssd_zns_send's comment, §3.4.3): adds
 * what it did to *d. */
static int act(struct ssd_zns *z, uint32_t i, int action, unsigned flags,
	       struct ssd_zns_done *d)
{
	struct zone *zn = &z->zone[i];
	int s = zn->state, rc;
	switch (action) {
	case SSD_ZNS_ACT_OPEN: {
		/* an area for an empty zone; one that has it keeps it */
		int alloc = (flags & SSD_ZNS_ZRWAA) &&
			    !(zn->attr & SSD_ZNS_ATTR_ZRWAV);
		if (alloc && !z->p.zrwa_size)
			return SSD_ZNS_EFIELD;
		if (alloc && s != SSD_ZNS_ZSE)
			return SSD_ZNS_ETRANSITION;
		if (alloc && z->zrwa_used >= z->nr_zrwa)
			return SSD_ZNS_ENOZRWA;
		if (s == SSD_ZNS_ZSEO)
			return 0;
		if (s == SSD_ZNS_ZSE || s == SSD_ZNS_ZSC) {
			if ((rc = make_room(z, i)))
				return rc;
		} else if (s != SSD_ZNS_ZSIO) {
			return SSD_ZNS_ETRANSITION;
		}
		zn->used = ++z->clock;
		set_state(z, i, SSD_ZNS_ZSEO, SSD_ZNS_BY_SEND, action, 0);
		if (alloc) {
			zn->attr |= SSD_ZNS_ATTR_ZRWAV;
			zn->hi = zn->wp;
			z->zrwa_used++;
		}
		break;
	}
	case SSD_ZNS_ACT_CLOSE:
		if (s == SSD_ZNS_ZSC)
			return 0;
		if (!is_open(s))
			return SSD_ZNS_ETRANSITION;
		set_state(z, i, SSD_ZNS_ZSC, SSD_ZNS_BY_SEND, action, 0);
		break;
	case SSD_ZNS_ACT_FINISH:
		if (s == SSD_ZNS_ZSF)
			return 0;
		if (s != SSD_ZNS_ZSE && !is_active(s))
			return SSD_ZNS_ETRANSITION;
		d->lbas += finish(z, i, SSD_ZNS_BY_SEND);
		break;
	case SSD_ZNS_ACT_RESET: {
		if (s == SSD_ZNS_ZSE)
			return 0;
		if (!is_active(s) && s != SSD_ZNS_ZSF)
			return SSD_ZNS_ETRANSITION;
		uint64_t held = zn->wp - zslba(z, i);
		zn->wp = zn->hi = zslba(z, i);
		zn->written = 0;
		zn->attr &= SSD_ZNS_ATTR_ZRWAV; /* set_state frees the area */
		d->lbas += held;
		set_state(z, i, SSD_ZNS_ZSE, SSD_ZNS_BY_SEND, action, held);
		break;
	}
	case SSD_ZNS_ACT_OFFLINE:
		if (s == SSD_ZNS_ZSO)
			return 0;
		if (s != SSD_ZNS_ZSRO)
			return SSD_ZNS_ETRANSITION;
		set_state(z, i, SSD_ZNS_ZSO, SSD_ZNS_BY_SEND, action, 0);
		break;
	default:
		return SSD_ZNS_EFIELD;
	}
	d->zones++;
	return 0;
}

/* Whether Select All picks a zone in state s for action (§3.4.3). */
static int selected(int action, int s)
{
	switch (action) {
	case SSD_ZNS_ACT_OPEN: return s == SSD_ZNS_ZSC;
	case SSD_ZNS_ACT_CLOSE: return is_open(s);
	case SSD_ZNS_ACT_FINISH: return is_active(s);
	case SSD_ZNS_ACT_RESET: return is_active(s) || s == SSD_ZNS_ZSF;
	case SSD_ZNS_ACT_OFFLINE: return s == SSD_ZNS_ZSRO;
	}
	return 0;
}

static int send_all(struct ssd_zns *z, int action, struct ssd_zns_done *d)
{
	if (action < SSD_ZNS_ACT_CLOSE || action > SSD_ZNS_ACT_OFFLINE)
		return SSD_ZNS_EFIELD;
	if (action == SSD_ZNS_ACT_OPEN && z->p.max_open) {
		/* All closed zones or none: closed zones hold their active
		 * resources already, only open ones are needed. */
		uint32_t closed = z->nr_active - z->nr_open;
		if (z->nr_open + closed > z->p.max_open)
			return SSD_ZNS_EMAXOPEN;
	}
	for (uint32_t i = 0; i < z->p.nzones; i++)
		if (selected(action, z->zone[i].state)) {
			int rc = act(z, i, action, 0, d);
			if (rc) /* cannot happen: the states were selected */
				return rc;
		}
	return 0;
}

/* The ZRWA flush of zone i up to LBA last: the write pointer moves to
 * last + 1, a whole number of flush units within the area. */
static int zrwa_flush(struct ssd_zns *z, uint64_t last, struct ssd_zns_done *d)
{
	uint32_t i = ssd_zns_zone_of(z, last);
	struct zone *zn = &z->zone[i];
	if (!(zn->attr & SSD_ZNS_ATTR_ZRWAV))
		return SSD_ZNS_EZONEOP;
	uint64_t n = last + 1 - zn->wp;
	if (last < zn->wp || n > z->p.zrwa_size || n % z->p.zrwa_fg)
		return SSD_ZNS_EFIELD;
	d->from = zn->wp;
	d->lbas = n;
	zn->wp += n;
	zn->written += n;
	if (zn->hi < zn->wp)
		zn->hi = zn->wp;
	if (zn->wp == zslba(z, i) + zn->cap)
		set_state(z, i, SSD_ZNS_ZSF, SSD_ZNS_BY_SEND,
			  SSD_ZNS_ACT_ZRWA_FLUSH, 0);
	return 0;
}

int ssd_zns_send_flags(struct ssd_zns *z, enum ssd_zns_action action,
		       uint64_t start, unsigned flags, struct ssd_zns_done *done)
{
	struct ssd_zns_done d = {0, 0, 0};
	int rc;
	if (action == SSD_ZNS_ACT_ZRWA_FLUSH) {
		rc = flags & SSD_ZNS_ALL ? SSD_ZNS_EFIELD
		   : start >= z->nlbas ? SSD_ZNS_ERANGE : zrwa_flush(z, start, &d);
	} else if ((flags & SSD_ZNS_ZRWAA) && action != SSD_ZNS_ACT_OPEN) {
		rc = SSD_ZNS_EFIELD;
	} else if (flags & SSD_ZNS_ALL) {
		rc = flags & SSD_ZNS_ZRWAA ? SSD_ZNS_EFIELD
					  : send_all(z, (int)action, &d);
	} else if (start >= z->nlbas) {
		rc = SSD_ZNS_ERANGE;
	} else if (start & (z->p.zone_size - 1)) {
		rc = SSD_ZNS_EFIELD;
	} else {
		rc = act(z, ssd_zns_zone_of(z, start), (int)action, flags, &d);
	}
	if (done)
		*done = d;
	return rc;
}

int ssd_zns_send(struct ssd_zns *z, enum ssd_zns_action action,
		 uint64_t start, int select_all, struct ssd_zns_done *done)
{
	return ssd_zns_send_flags(z, action, start,
				  select_all ? SSD_ZNS_ALL : 0, done);
}

/* ---- faults and the controller ---- */

int ssd_zns_fault(struct ssd_zns *z, uint32_t zone, int to)
{
	if (zone >= z->p.nzones ||
	    (to != SSD_ZNS_ZSRO && to != SSD_ZNS_ZSO))
		return SSD_ZNS_EFIELD;
	int s = z->zone[zone].state;
	if (s == to)
		return 0;
	if (s == SSD_ZNS_ZSO)
		return SSD_ZNS_ETRANSITION;
	set_state(z, zone, to, SSD_ZNS_BY_FAULT, 0, 0);
	return 0;
}

int ssd_zns_controller_finish(struct ssd_zns *z, uint32_t zone,
			      uint64_t *padded)
{
	if (zone >= z->p.nzones)
		return SSD_ZNS_EFIELD;
	if (!is_active(z->zone[zone].state))
		return SSD_ZNS_ETRANSITION;
	uint64_t pad = finish(z, zone, SSD_ZNS_BY_CONTROLLER);
	if (padded)
		*padded = pad;
	return 0;
}

/* ---- Zone Management Receive ---- */

void ssd_zns_describe(const struct ssd_zns *z, uint32_t zone,
		      struct ssd_zns_desc *d)
{
	const struct zone *zn = &z->zone[zone];
	int s = zn->state;
	d->zslba = zslba(z, zone);
	d->cap = zn->cap;
	d->wp = s == SSD_ZNS_ZSF || s == SSD_ZNS_ZSRO ||
			s == SSD_ZNS_ZSO ? UINT64_MAX : zn->wp;
	d->written = zn->written;
	d->state = zn->state;
	d->attr = zn->attr;
}

/* The filter's state (ZRASF values 1..7), 0 for all. */
static const uint8_t filter_state[8] = {
	0, SSD_ZNS_ZSE, SSD_ZNS_ZSIO, SSD_ZNS_ZSEO, SSD_ZNS_ZSC,
	SSD_ZNS_ZSF, SSD_ZNS_ZSRO, SSD_ZNS_ZSO,
};

int ssd_zns_report(const struct ssd_zns *z, uint64_t slba, int filter,
		   int partial, struct ssd_zns_desc *out, uint32_t max,
		   uint32_t *returned, uint64_t *nr_zones)
{
	if (slba >= z->nlbas)
		return SSD_ZNS_ERANGE;
	if (filter < 0 || filter > SSD_ZNS_LIST_ZSO)
		return SSD_ZNS_EFIELD;
	uint32_t got = 0;
	uint64_t matched = 0;
	for (uint32_t i = ssd_zns_zone_of(z, slba); i < z->p.nzones; i++) {
		if (filter && z->zone[i].state != filter_state[filter])
			continue;
		if (got < max)
			ssd_zns_describe(z, i, &out[got++]);
		else if (partial)
			break;
		matched++;
	}
	if (returned)
		*returned = got;
	if (nr_zones)
		*nr_zones = partial ? got : matched;
	return 0;
}

/* ---- invariants ---- */

int ssd_zns_check(const struct ssd_zns *z, char *err, size_t errlen)
{
	uint32_t open = 0, active = 0, zrwa = 0;
	char dummy[1];
	if (!errlen) {
		err = dummy;
		errlen = sizeof dummy;
	}
	for (uint32_t i = 0; i < z->p.nzones; i++) {
		const struct zone *zn = &z->zone[i];
		uint64_t lo = zslba(z, i);
		const char *name = ssd_zns_state_name(zn->state);
		if (name[0] == '?') {
			snprintf(err, errlen, "zone %u: state %u is no state",
				 i, zn->state);
			return SSD_ESTATE;
		}
		if (zn->cap == 0 || zn->cap > z->p.zone_size ||
		    zn->wp < lo || zn->wp > lo + zn->cap ||
		    zn->written > zn->wp - lo) {
			snprintf(err, errlen, "zone %u: write pointer %llu, "
				 "written %llu, capacity %llu out of order", i,
				 (unsigned long long)zn->wp,
				 (unsigned long long)zn->written,
				 (unsigned long long)zn->cap);
			return SSD_ESTATE;
		}
		if ((zn->state == SSD_ZNS_ZSE && zn->wp != lo) ||
		    (zn->state == SSD_ZNS_ZSF && zn->wp != lo + zn->cap) ||
		    (is_active(zn->state) && zn->wp == lo + zn->cap)) {
			snprintf(err, errlen, "zone %u: %s with its write "
				 "pointer at %llu", i, name,
				 (unsigned long long)(zn->wp - lo));
			return SSD_ESTATE;
		}
		if (zn->attr & SSD_ZNS_ATTR_ZRWAV) {
			zrwa++;
			if (!is_active(zn->state) || zn->hi < zn->wp ||
			    zn->hi > zn->wp + 2 * z->p.zrwa_size ||
			    zn->hi > lo + zn->cap) {
				snprintf(err, errlen, "zone %u: %s with a random "
					 "write area written to %llu, the write "
					 "pointer at %llu", i, name,
					 (unsigned long long)(zn->hi - lo),
					 (unsigned long long)(zn->wp - lo));
				return SSD_ESTATE;
			}
		}
		open += (uint32_t)is_open(zn->state);
		active += (uint32_t)is_active(zn->state);
	}
	if (zrwa != z->zrwa_used || zrwa > z->nr_zrwa) {
		snprintf(err, errlen, "%u zones hold a random write area, the "
			 "counter says %u of %u", zrwa, z->zrwa_used, z->nr_zrwa);
		return SSD_ESTATE;
	}
	if (open != z->nr_open || active != z->nr_active) {
		snprintf(err, errlen, "counted %u open and %u active zones, "
			 "the counters say %u and %u", open, active, z->nr_open,
			 z->nr_active);
		return SSD_ESTATE;
	}
	if ((z->p.max_open && open > z->p.max_open) ||
	    (z->p.max_active && active > z->p.max_active)) {
		snprintf(err, errlen, "%u open and %u active zones exceed the "
			 "limits %u and %u", open, active, z->p.max_open,
			 z->p.max_active);
		return SSD_ESTATE;
	}
	return 0;
}

/* ---- snapshots ---- */

#define T SSD_SNAP_TAG

struct snap_zns {
	uint64_t clock, implicit_closes;
	uint32_t nr_open, nr_active, zrwa_used, nzones;
};

void ssd_zns_snap_save(const struct ssd_zns *z, struct ssd_snapw *w)
{
	struct snap_zns s = {z->clock, z->implicit_closes, z->nr_open,
			     z->nr_active, z->zrwa_used, z->p.nzones};
	ssd_snapw_array(w, T('Z','N','S','S'), &s, sizeof s);
	ssd_snapw_array(w, T('Z','N','S','Z'), z->zone,
			(size_t)z->p.nzones * sizeof *z->zone);
}

int ssd_zns_snap_load(struct ssd_zns *z, struct ssd_snapr *r)
{
	struct snap_zns s;
	int rc = ssd_snapr_array(r, T('Z','N','S','S'), &s, sizeof s);
	if (rc)
		return rc;
	if (s.nzones != z->p.nzones) {
		ssd_snapr_fail(r, "zones: %u in the file, %u in the drive",
			       s.nzones, z->p.nzones);
		return SSD_EPARSE;
	}
	if ((rc = ssd_snapr_array(r, T('Z','N','S','Z'), z->zone,
				  (size_t)z->p.nzones * sizeof *z->zone)))
		return rc;
	z->clock = s.clock;
	z->implicit_closes = s.implicit_closes;
	z->nr_open = s.nr_open;
	z->nr_active = s.nr_active;
	z->zrwa_used = s.zrwa_used;
	char why[200];
	for (uint32_t i = 0; i < z->p.nzones; i++)
		if (z->zone[i].cap != z->p.zone_cap) {
			ssd_snapr_fail(r, "zone %u: capacity %llu, the drive's "
				       "is %llu", i,
				       (unsigned long long)z->zone[i].cap,
				       (unsigned long long)z->p.zone_cap);
			return SSD_EPARSE;
		}
	if (ssd_zns_check(z, why, sizeof why)) {
		ssd_snapr_fail(r, "zones: %s", why);
		return SSD_EPARSE;
	}
	return 0;
}
#undef T

/* ---- power cuts ---- */

void ssd_zns_power_cut(struct ssd_zns *z, uint32_t zone, uint64_t keep,
		       int saved)
{
	struct zone *zn = &z->zone[zone];
	uint64_t lo = zslba(z, zone);
	int s = zn->state;
	if (s == SSD_ZNS_ZSRO || s == SSD_ZNS_ZSO || s == SSD_ZNS_ZSE)
		return;
	if (saved) { /* nothing lost: an open zone is closed */
		if (is_open(s))
			set_state(z, zone, SSD_ZNS_ZSC, SSD_ZNS_BY_CONTROLLER, 0, 0);
		return;
	}
	if (zn->attr & SSD_ZNS_ATTR_ZRWAV) { /* the area was DRAM */
		zn->attr &= (uint8_t)~SSD_ZNS_ATTR_ZRWAV;
		z->zrwa_used--;
	}
	if (s == SSD_ZNS_ZSF) {
		/* full by writes or a Finish: whole, or the written part of it
		 * lost at its end */
		if (keep >= zn->written)
			return;
	} else if (keep > zn->wp - lo) {
		keep = zn->wp - lo;
	}
	zn->wp = lo + keep;
	zn->hi = zn->wp;
	zn->attr &= (uint8_t)~SSD_ZNS_ATTR_ZFC; /* no longer full */
	if (zn->written > keep)
		zn->written = keep;
	int to = keep ? SSD_ZNS_ZSC : SSD_ZNS_ZSE;
	if (to == SSD_ZNS_ZSC && !is_active(s) && z->p.max_active &&
	    z->nr_active >= z->p.max_active) {
		/* no active resource for it: the controller finishes it
		 * (§5.6), its lost end reading as never written */
		zn->wp = lo + zn->cap;
		zn->hi = zn->wp;
		zn->attr |= SSD_ZNS_ATTR_ZFC;
		return;
	}
	if (s != to)
		set_state(z, zone, to, SSD_ZNS_BY_CONTROLLER, 0, 0);
}
