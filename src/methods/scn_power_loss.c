/*
 * scn_power_loss.c -- the power-loss scenario: cut the power at many
 * random moments of a mixed workload with flushes, recover, and check
 * every logical page against what the host was promised
 * (docs/power-loss.md).
 *
 * The drive is filled sequentially, then a closed loop of `qd` commands
 * runs: random writes (a share with FUA), reads and TRIMs of `bs`, and a
 * flush after every `flush_every` writes, as a file system's fsync.
 * After a random stretch of up to `interval` the power goes; it returns
 * `off` later and the drive recovers.  The host's side of the promise is
 * kept page by page:
 *   acknowledged  the latest write or TRIM that completed before the cut;
 *   synced        the latest one a completed flush covered (acknowledged
 *                 before the flush was submitted), or a FUA write;
 *   in flight     a command submitted and not completed: either outcome
 *                 is allowed.
 * After recovery every page is read (its out-of-band record): one that
 * holds its acknowledged content (or an in-flight one) is whole; one that
 * holds an older content no older than the synced one is an unflushed
 * loss, allowed only without power-loss protection; anything older than
 * the synced content, or content the host never wrote, is a flushed loss
 * -- a broken promise, which must never happen.
 *
 * A drive without TRIM (trim = no) is sent none: trim_pct's share goes
 * to reads, and the summary and result.json say so.
 *
 * A zoned drive (mapping = zone) is written as a log-structured host
 * writes it: the fill writes whole zones, and each write goes to the
 * write pointer of one of a few zones (half the active limit, or 4); a
 * zone that fills is replaced by another, a full one reset first (the
 * reset a TRIM of its pages to the host's record).  After a cut the host
 * writes on at the write pointers the drive reports.  An FDP drive's
 * writes name the handle of their stretch of the drive, one in eight
 * another handle.
 */
#include <stdlib.h>
#include <string.h>

#include "methods/scenario.h"
#include "ftl/ftl.h"
#include "machine/verify.h"

static const struct ssd_scn_param params[] = {
	{.name = "cuts", .def = "1000", .unit = "number",
	 .help = "Power cuts.",
	 .whole = 1, .lo = 1, .hi = 10000000},
	{.name = "interval", .def = "0.02", .unit = "time",
	 .help = "The workload between two cuts runs a random time up to this."},
	{.name = "off", .def = "1", .unit = "time",
	 .help = "How long the power stays off."},
	{.name = "qd", .def = "8", .unit = "number",
	 .help = "Commands in flight.",
	 .whole = 1, .lo = 1, .hi = 256},
	{.name = "bs", .def = "4k", .unit = "size",
	 .help = "Bytes per read, write and TRIM (a multiple of 4 KiB, at most 64 KiB)."},
	{.name = "write_pct", .def = "70", .unit = "percent",
	 .help = "Writes among the commands (the rest reads and TRIMs).",
	 .whole = 1, .lo = 0, .hi = 100},
	{.name = "trim_pct", .def = "5", .unit = "percent",
	 .help = "TRIMs among the commands.",
	 .whole = 1, .lo = 0, .hi = 100},
	{.name = "fua_pct", .def = "5", .unit = "percent",
	 .help = "Writes with FUA.",
	 .whole = 1, .lo = 0, .hi = 100},
	{.name = "flush_every", .def = "64", .unit = "number",
	 .help = "Writes between two flushes (0: no flushes).",
	 .whole = 1, .lo = 0, .hi = UINT32_MAX},
	{.name = "fill", .def = "100%", .unit = "size or % of capacity",
	 .help = "Written sequentially before the first cut."},
	{.name = "full", .def = "0", .unit = "number",
	 .help = "1: at every cut rebuild from every block and check every page (the whole drive; slow on large drives); 0: only what the cut can have touched, the same result.",
	 .whole = 1, .lo = 0, .hi = 1},
	{.name = "check", .def = "0", .unit = "number",
	 .help = "Run the FTL's invariant checker after every N GC victims and at every cut (0: never; slow).",
	 .whole = 1, .lo = 0, .hi = UINT32_MAX},
	{.name = NULL},
};

#define MAXP 16 /* pages of a command at most (64 KiB) */

enum { C_NONE, C_READ, C_WRITE, C_TRIM, C_FLUSH };

/* A page's content as the host knows it: 2 * write count, + 1 for
 * zeros (a TRIM of that write, or never written). */
static inline uint32_t ver_of(uint32_t rec)
{
	uint32_t st = rec >> 30, cnt = rec & SSD_VREC_COUNT;
	return 2 * cnt + (st == SSD_VREC_ZERO || st == SSD_VREC_NEVER);
}

struct cmd {
	int kind, fua;
	uint32_t lpn, n;
	uint32_t ver[MAXP];
	uint32_t *zver;          /* a zone reset: the versions of its n pages */
	uint32_t zone;           /* zoned: the zone it writes or resets */
	int64_t done;
	uint32_t *cover, ncover; /* a flush: (lpn, version) pairs it makes durable */
};

/* The version c leaves page i of its range at. */
static inline uint32_t cver(const struct cmd *c, uint32_t i)
{
	return c->zver ? c->zver[i] : c->ver[i];
}

struct pl {
	struct ssd_dev *dev;
	uint32_t nlp;
	uint32_t *ack, *sync;  /* [lpn] versions */
	uint8_t *busy;         /* [lpn] commands in flight on it */
	uint32_t *tver;        /* [lpn] version of its latest TRIM acknowledged
	                          (0: none) */
	uint32_t *dirty, ndirty, cap_dirty; /* acknowledged since the last
	                                       flush was submitted: pairs */
	struct cmd *q;
	uint32_t qd;
	uint32_t *touch, ntouch, cap_touch; /* pages written or trimmed
	                                       since the last cut */
	uint64_t writes;
	uint64_t commands;     /* host commands submitted */
	uint32_t handles;      /* fdp: the drive's reclaim unit handles */
	/* a zoned drive: writes go to the write pointers of `nset` zones
	 * (set[]), a zone that fills replaced by another, reset first if
	 * full; zbusy counts each zone's commands in flight */
	uint32_t nzones, nset;
	uint64_t zsize, zcap;  /* pages */
	uint32_t *set, *zbusy;
	uint64_t *zwp;         /* each zone's write pointer before a cut */
	uint64_t resets, rewound; /* zone resets sent; zones a cut rewound */
	struct ssd_rng rng;
};

/* Each zone's write pointer (its written end: a full zone's capacity),
 * into zwp[], or, with `after`, the zones whose write pointer went back
 * counted. */
static void zone_wps(struct pl *p, int after)
{
	for (uint32_t z = 0; z < p->nzones; z++) {
		struct ssd_zone_desc zd;
		if (ssd_dev_zone_report(p->dev, z, &zd))
			continue;
		uint64_t w = zd.start + zd.written;
		if (after)
			p->rewound += w < p->zwp[z];
		else
			p->zwp[z] = w;
	}
}

/* An FDP drive's writes name a handle: each handle a stretch of the
 * drive of its own, and one write in eight another handle at random (a
 * page going over to another stream).  0 (no placement) otherwise. */
static int placement(struct pl *p, uint32_t lpn)
{
	if (!p->handles)
		return 0;
	uint32_t h = (uint32_t)((uint64_t)lpn * p->handles / p->nlp);
	if (ssd_rng_below(&p->rng, 8) == 0)
		h = (uint32_t)ssd_rng_below(&p->rng, p->handles);
	return SSD_BLK_PLACEMENT(h);
}

static int push_dirty(struct pl *p, uint32_t lpn, uint32_t v)
{
	if (p->ndirty == p->cap_dirty) {
		uint32_t cap = p->cap_dirty ? 2 * p->cap_dirty : 1024;
		uint32_t *d = realloc(p->dirty, 2 * (size_t)cap * sizeof *d);
		if (!d)
			return SSD_ENOMEM;
		p->dirty = d;
		p->cap_dirty = cap;
	}
	p->dirty[2 * p->ndirty] = lpn;
	p->dirty[2 * p->ndirty + 1] = v;
	p->ndirty++;
	return 0;
}

/* Command c completed before the cut: the host takes its acknowledgement. */
static int complete(struct pl *p, struct cmd *c)
{
	switch (c->kind) {
	case C_WRITE:
	case C_TRIM:
		if (p->zbusy)
			p->zbusy[c->zone]--;
		for (uint32_t i = 0; i < c->n; i++) {
			uint32_t l = c->lpn + i, v = cver(c, i);
			p->busy[l]--;
			p->ack[l] = v;
			if (c->kind == C_TRIM)
				p->tver[l] = v;
			if (c->fua) {
				p->sync[l] = v;
			} else if (push_dirty(p, l, v)) {
				return SSD_ENOMEM;
			}
		}
		free(c->zver);
		c->zver = NULL;
		break;
	case C_FLUSH:
		for (uint32_t i = 0; i < c->ncover; i++) {
			uint32_t l = c->cover[2 * i], v = c->cover[2 * i + 1];
			if (v > p->sync[l])
				p->sync[l] = v;
		}
		free(c->cover);
		c->cover = NULL;
		break;
	}
	c->kind = C_NONE;
	return 0;
}

/* A random run of pages no command in flight writes or trims. */
static int pick(struct pl *p, uint32_t n, uint32_t *lpn)
{
	for (int k = 0; k < 8; k++) {
		uint32_t l = (uint32_t)ssd_rng_below(&p->rng, p->nlp - n + 1);
		int ok = 1;
		for (uint32_t i = 0; i < n && ok; i++)
			ok = !p->busy[l + i];
		if (ok) {
			*lpn = l;
			return 1;
		}
	}
	return 0;
}

/* The fill's writes: each in the handle of its stretch. */
static int fill_placement(const struct pl *p, uint64_t offset)
{
	uint64_t lpn = offset / SSD_LPAGE;
	return p->handles ? SSD_BLK_PLACEMENT(lpn * p->handles / p->nlp) : 0;
}

/* The pages of a command in flight: busy, and touched since the cut. */
static int hold(struct pl *p, struct cmd *c)
{
	for (uint32_t i = 0; i < c->n; i++) {
		p->busy[c->lpn + i]++;
		if (p->ntouch == p->cap_touch) {
			uint32_t *t2 = ssd_grow(p->touch, &p->cap_touch, sizeof *t2, 1024);
			if (!t2)
				return SSD_ENOMEM;
			p->touch = t2;
		}
		p->touch[p->ntouch++] = c->lpn + i;
	}
	return 0;
}

/* A zone to write in place of a full one: one active (its write pointer
 * inside it) that no slot of the set holds, else an empty one, else a
 * full one with no command in flight (reset first); from a random
 * zone on.  *state receives its state. */
static uint32_t zone_pick(struct pl *p, int *state)
{
	uint32_t from = (uint32_t)ssd_rng_below(&p->rng, p->nzones);
	uint32_t best = UINT32_MAX, rank = 3;
	for (uint32_t k = 0; k < p->nzones && rank; k++) {
		uint32_t z = (from + k) % p->nzones, taken = 0;
		for (uint32_t i = 0; i < p->nset && !taken; i++)
			taken = p->set[i] == z;
		struct ssd_zone_desc zd;
		if (taken || ssd_dev_zone_report(p->dev, z, &zd))
			continue;
		uint32_t r = zd.state == SSD_ZNS_ZSF ? (p->zbusy[z] ? 3 : 2)
			   : zd.state == SSD_ZNS_ZSE ? 1
			   : zd.state == SSD_ZNS_ZSRO || zd.state == SSD_ZNS_ZSO ? 3 : 0;
		if (r < rank) {
			rank = r;
			best = z;
			*state = zd.state;
		}
	}
	return best;
}

/* A zoned drive's write (or the reset that makes room for it) into c:
 * at the write pointer of a zone of the set, n pages or what the zone
 * has left.  Returns 0 (c->kind C_NONE: nothing to do now: a read
 * instead) or an error. */
static int zoned_write(struct pl *p, struct cmd *c, int64_t t, uint32_t n,
		       int fua)
{
	struct ssd_dev *d = p->dev;
	uint32_t i = (uint32_t)ssd_rng_below(&p->rng, p->nset);
	struct ssd_zone_desc zd;
	int rc = ssd_dev_zone_report(d, p->set[i], &zd);
	if (rc)
		return rc;
	if (zd.state == SSD_ZNS_ZSF || zd.state == SSD_ZNS_ZSRO ||
	    zd.state == SSD_ZNS_ZSO) {
		int st = 0;
		uint32_t z = zone_pick(p, &st);
		if (z == UINT32_MAX)
			return 0;
		p->set[i] = z;
		if (st == SSD_ZNS_ZSF) { /* reset it: the command */
			c->kind = C_TRIM;
			c->zone = z;
			c->lpn = (uint32_t)(z * p->zsize);
			c->n = (uint32_t)p->zcap;
			c->zver = malloc(c->n * sizeof *c->zver);
			if (!c->zver)
				return SSD_ENOMEM;
			c->done = ssd_dev_zone_send(d, SSD_ZNS_ACT_RESET,
						    (uint64_t)c->lpn * SSD_LPAGE, 0, t);
			p->commands++;
			if (c->done < 0) {
				c->kind = C_NONE;
				return (int)c->done;
			}
			for (uint32_t k = 0; k < c->n; k++)
				c->zver[k] = ver_of(d->vrec[c->lpn + k]);
			p->zbusy[z]++;
			p->resets++;
			return hold(p, c);
		}
		if ((rc = ssd_dev_zone_report(d, z, &zd)))
			return rc;
	}
	uint64_t wp = zd.wp / SSD_LPAGE, end = (zd.start + zd.cap) / SSD_LPAGE;
	if (p->busy[wp])
		return 0; /* its reset is in flight: the host waits for it */
	if (wp + n > end)
		n = (uint32_t)(end - wp);
	c->kind = C_WRITE;
	c->zone = p->set[i];
	c->lpn = (uint32_t)wp;
	c->n = n;
	c->fua = fua;
	ssd_vrec_write(d->vrec, c->lpn, n);
	for (uint32_t k = 0; k < n; k++)
		c->ver[k] = ver_of(d->vrec[c->lpn + k]);
	p->writes++;
	p->zbusy[c->zone]++;
	if ((rc = hold(p, c)))
		return rc;
	c->done = ssd_dev_submit(d, SSD_DDIR_WRITE | (fua ? SSD_DEV_FUA : 0),
				 wp * SSD_LPAGE, n * SSD_LPAGE, t);
	p->commands++;
	if (c->done < 0) {
		c->kind = C_NONE;
		return (int)c->done;
	}
	return 0;
}

/* Submit the next command at t into c.  Returns 0 or an error. */
static int submit(struct pl *p, struct cmd *c, int64_t t, uint32_t n,
		  int write_pct, int trim_pct, int fua_pct, uint64_t flush_every)
{
	struct ssd_dev *d = p->dev;
	uint64_t offset;
	memset(c, 0, sizeof *c);
	if (flush_every && p->writes >= flush_every) {
		p->writes = 0;
		c->kind = C_FLUSH;
		c->cover = p->dirty;
		c->ncover = p->ndirty;
		p->dirty = NULL;
		p->ndirty = p->cap_dirty = 0;
		c->done = ssd_dev_flush(d, t);
		p->commands++;
		return c->done < 0 ? (int)c->done : 0;
	}
	uint64_t r = ssd_rng_below(&p->rng, 100);
	int kind = r < (uint64_t)write_pct ? C_WRITE
		 : r < (uint64_t)(write_pct + trim_pct) ? C_TRIM : C_READ;
	if (p->nset && kind == C_WRITE) {
		int fua = ssd_rng_below(&p->rng, 100) < (uint64_t)fua_pct;
		int rc = zoned_write(p, c, t, n, fua);
		if (rc || c->kind != C_NONE)
			return rc;
		kind = C_READ; /* no zone to write now */
	}
	uint32_t lpn;
	if (kind != C_READ && !pick(p, n, &lpn))
		kind = C_READ;
	if (kind == C_READ)
		lpn = (uint32_t)ssd_rng_below(&p->rng, p->nlp - n + 1);
	offset = (uint64_t)lpn * SSD_LPAGE;
	c->kind = kind;
	c->lpn = lpn;
	c->n = n;
	int ddir = kind == C_READ ? SSD_DDIR_READ : kind == C_WRITE ? SSD_DDIR_WRITE
								  : SSD_DDIR_TRIM;
	if (kind == C_WRITE) {
		c->fua = ssd_rng_below(&p->rng, 100) < (uint64_t)fua_pct;
		ssd_vrec_write(d->vrec, lpn, n);
		p->writes++;
	} else if (kind == C_TRIM) {
		ssd_vrec_trim(d->vrec, lpn, n);
	}
	if (kind != C_READ)
		for (uint32_t i = 0; i < n; i++) {
			c->ver[i] = ver_of(d->vrec[lpn + i]);
			p->busy[lpn + i]++;
			if (p->ntouch == p->cap_touch) {
				uint32_t *t2 = ssd_grow(p->touch, &p->cap_touch,
							sizeof *t2, 1024);
				if (!t2)
					return SSD_ENOMEM;
				p->touch = t2;
			}
			p->touch[p->ntouch++] = lpn + i;
		}
	if (kind == C_WRITE)
		ddir |= placement(p, lpn);
	c->done = ssd_dev_submit(d, ddir | (c->fua ? SSD_DEV_FUA : 0), offset,
				 n * SSD_LPAGE, t);
	p->commands++;
	if (c->done < 0) {
		c->kind = C_NONE;
		return (int)c->done;
	}
	return 0;
}

struct tally {
	uint64_t flushed_lost, unflushed_lost, at_risk;
	uint64_t unplaced; /* pages a worn-out drive had no room to place */
};

static const char *paired_name(int m)
{
	return m == SSD_PAIRED_PROTECTED ? "protected"
		: m == SSD_PAIRED_UNPROTECTED ? "unprotected" : "independent";
}

/* After recovery: the pages in list[0..n) (every page if list is NULL)
 * against the promise. */
static void check_pages(struct pl *p, struct tally *t, char *first, size_t firstlen,
			const uint32_t *list, uint64_t n)
{
	const uint32_t *rec = p->dev->vrec;
	if (!list)
		n = p->nlp;
	for (uint64_t i = 0; i < n; i++) {
		uint32_t l = list ? list[i] : (uint32_t)i;
		if (ssd_vrec_state(rec[l]) == SSD_VREC_UNKNOWN)
			continue; /* a worn-out drive had no room for it: undefined */
		uint32_t have = ver_of(rec[l]); /* set to what the drive holds */
		uint32_t a = p->ack[l], s = p->sync[l];
		int pending = 0;
		if (p->busy[l])
			for (uint32_t k = 0; k < p->qd; k++) {
				const struct cmd *c = &p->q[k];
				if (l >= c->lpn && l < c->lpn + c->n &&
				    ((c->kind == C_WRITE && cver(c, l - c->lpn) == have) ||
				     (c->kind == C_TRIM && (have & 1))))
					pending = 1;
			}
		if (a != s)
			t->at_risk++;
		int zero = have & 1;
		int same = have == a || (zero && (a & 1)); /* zeros are zeros */
		if (same || pending)
			continue;
		/* content older than acknowledged: how old */
		int ok_unflushed;
		if (zero) /* zeros synced, or a TRIM since */
			ok_unflushed = (s & 1) || p->tver[l] > s;
		else
			ok_unflushed = have >= s && have < a;
		if (ok_unflushed) {
			t->unflushed_lost++;
		} else {
			if (!t->flushed_lost && first)
				snprintf(first, firstlen,
					 "page %u holds version %u, synced %u, acknowledged %u",
					 l, have, s, a);
			t->flushed_lost++;
		}
	}
}

/* A duration for the summary: ms with three decimals down to 0.1 ms;
 * shorter ones in us or ns, which show their digits (a hold-up of 1 ns
 * would read 0.000 ms). */
static const char *duration(int64_t ns, char *buf, size_t len)
{
	if (ns >= 100000)
		snprintf(buf, len, "%.3f ms", (double)ns / 1e6);
	else if (ns >= 1000)
		snprintf(buf, len, "%.3f us", (double)ns / 1e3);
	else
		snprintf(buf, len, "%lld ns", (long long)ns);
	return buf;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* The pages a cut can have changed as the host sees them: those it
 * wrote or trimmed since the last cut and those the drive says the cut
 * touched, ascending, once each (into p->touch).  Every other page
 * holds what it held after the last recovery, acknowledged and synced.
 * 0 or SSD_ENOMEM. */
static int cut_pages(struct pl *p, const struct ssd_power_cut *pc)
{
	uint64_t n = (uint64_t)p->ntouch + pc->ntouched;
	if (n > p->cap_touch) {
		uint32_t *t = realloc(p->touch, n * sizeof *t);
		if (!t)
			return SSD_ENOMEM;
		p->touch = t;
		p->cap_touch = (uint32_t)n;
	}
	if (pc->ntouched)
		memcpy(p->touch + p->ntouch, pc->touched, pc->ntouched * sizeof *pc->touched);
	qsort(p->touch, n, sizeof *p->touch, cmp_u32);
	uint32_t k = 0;
	for (uint64_t i = 0; i < n; i++)
		if (!k || p->touch[k - 1] != p->touch[i])
			p->touch[k++] = p->touch[i];
	p->ntouch = k;
	return 0;
}

static int run(struct ssd_scn *s)
{
	/* each number's range is the table's, checked before the run */
	uint64_t cuts = (uint64_t)ssd_scn_int(s, "cuts");
	int64_t interval = ssd_scn_time(s, "interval"), off = ssd_scn_time(s, "off");
	uint32_t qd = (uint32_t)ssd_scn_int(s, "qd");
	uint64_t bs = ssd_scn_size(s, "bs", 1);
	int write_pct = (int)ssd_scn_int(s, "write_pct");
	int trim_pct = (int)ssd_scn_int(s, "trim_pct");
	int fua_pct = (int)ssd_scn_int(s, "fua_pct");
	uint64_t flush_every = (uint64_t)ssd_scn_int(s, "flush_every");
	uint64_t fill = ssd_scn_size(s, "fill", SSD_LPAGE);
	uint32_t check = (uint32_t)ssd_scn_int(s, "check");
	int full = (int)ssd_scn_int(s, "full");
	char bad[160] = "";
	if (interval <= 0)
		snprintf(bad, sizeof bad, "interval must be more than 0");
	else if (off < 0)
		snprintf(bad, sizeof bad, "off must not be negative");
	else if (!bs)
		snprintf(bad, sizeof bad, "bs must be more than 0");
	else if (bs % SSD_LPAGE)
		snprintf(bad, sizeof bad, "bs %s is not a multiple of 4 KiB",
			 ssd_scn_str(s, "bs"));
	else if (bs > MAXP * SSD_LPAGE)
		snprintf(bad, sizeof bad, "bs %s is more than %u KiB",
			 ssd_scn_str(s, "bs"), MAXP * SSD_LPAGE / 1024);
	else if (write_pct + trim_pct > 100)
		snprintf(bad, sizeof bad, "write_pct %d + trim_pct %d > 100 (the rest "
			 "of the commands are reads)", write_pct, trim_pct);
	else if (fill > s->cfg.capacity)
		snprintf(bad, sizeof bad, "fill %s is more than the capacity",
			 ssd_scn_str(s, "fill"));
	if (bad[0]) {
		snprintf(s->err, sizeof s->err, "power-loss: %s", bad);
		return SSD_ERANGE;
	}
	if (ssd_config_is_machine(&s->cfg)) {
		snprintf(s->err, sizeof s->err, "power-loss: the drive must be a bare SSD "
			 "(no host layers, not a disk)");
		return SSD_EUNSUP;
	}
	/* a drive without TRIM gets none: the share goes to reads */
	int no_trim = trim_pct && !ssd_config_has_trim(&s->cfg);
	if (no_trim)
		trim_pct = 0;
	struct ssd_dev *dev = ssd_scn_drive(s, NULL, 0);
	if (!dev)
		return SSD_EINVAL;
	struct pl p = {.dev = dev, .qd = qd};
	p.nlp = (uint32_t)(ssd_dev_capacity(dev) / SSD_LPAGE);
	uint32_t n = (uint32_t)(bs / SSD_LPAGE);
	int rc = SSD_ENOMEM;
	int64_t *rec_ns = malloc(cuts * sizeof *rec_ns);
	p.ack = malloc(p.nlp * sizeof *p.ack);
	p.sync = malloc(p.nlp * sizeof *p.sync);
	p.busy = calloc(p.nlp, 1);
	p.tver = calloc(p.nlp, sizeof *p.tver);
	p.q = calloc(qd, sizeof *p.q);
	FILE *csv = NULL;
	if (!rec_ns || !p.ack || !p.sync || !p.busy || !p.tver || !p.q ||
	    ssd_verify_attach(dev) || (rc = ssd_dev_power_track(dev))) {
		char why[200];
		const struct ssd_config *dc = ssd_dev_config(dev);
		if (rc == SSD_EUNSUP && (dc->mapping == SSD_MAP_ZONE || dc->fdp) &&
		    dc->paired_pages != SSD_PAIRED_INDEPENDENT)
			snprintf(s->err, sizeof s->err, "power-loss: paired_pages = %s is "
				 "modelled on drives without zones or FDP only (the "
				 "guard covers the unit's own write point), and the "
				 "drive has %s", paired_name(dc->paired_pages),
				 dc->fdp ? "fdp = yes" : "mapping = zone");
		else if (rc == SSD_EUNSUP && ssd_config_power_refusal(dc, why, sizeof why))
			snprintf(s->err, sizeof s->err, "power-loss: %s", why);
		else
			snprintf(s->err, sizeof s->err, "power-loss: %s", rc == SSD_ENOMEM || !rc
				 ? "out of memory" : "the drive cannot track power cuts");
		rc = rc ? rc : SSD_ENOMEM;
		goto out;
	}
	ssd_rng_seed(&p.rng, s->seed ^ 0x706c6f73u);
	p.handles = ssd_ftl_handles(dev->ftl);
	struct ssd_zoned_info zi;
	uint64_t fill_zones = 0;
	if (ssd_dev_zoned(dev, &zi)) {
		/* writes at the write pointers of a few zones at a time (half
		 * the active limit), resets in place of TRIMs */
		p.nzones = (uint32_t)zi.nzones;
		p.zsize = zi.zone_size / SSD_LPAGE;
		p.zcap = zi.zone_cap / SSD_LPAGE;
		p.nset = zi.max_active ? (zi.max_active + 1) / 2 : 4;
		if (p.nset > p.nzones)
			p.nset = p.nzones;
		p.set = malloc(p.nset * sizeof *p.set);
		p.zbusy = calloc(p.nzones, sizeof *p.zbusy);
		p.zwp = calloc(p.nzones, sizeof *p.zwp);
		if (!p.set || !p.zbusy || !p.zwp) {
			rc = SSD_ENOMEM;
			snprintf(s->err, sizeof s->err, "power-loss: out of memory");
			goto out;
		}
		/* the fill: whole zones, all but the set's */
		fill_zones = (uint64_t)((double)fill / (double)s->cfg.capacity * p.nzones);
		if (fill_zones > p.nzones - p.nset)
			fill_zones = p.nzones - p.nset;
		for (uint32_t i = 0; i < p.nset; i++)
			p.set[i] = (uint32_t)fill_zones + i;
		fill = 0;
		trim_pct = 0;
	}
	if (check)
		ssd_dev_set_check_every(dev, check);
	/* the fill, 128 KiB at a time at QD1, then a flush: all synced */
	int64_t t = ssd_dev_time(dev);
	ssd_prog_phase(s->prog, t, "fill");
	for (uint64_t o = 0; o < fill; o += 128 << 10) {
		if (!(o / (128 << 10) % 4096) && o)
			ssd_prog_at(s->prog, (double)o / (double)fill, t, NULL);
		uint32_t len = (uint32_t)(fill - o < (128 << 10) ? fill - o : 128 << 10);
		ssd_vrec_write(dev->vrec, (uint32_t)(o / SSD_LPAGE), len / SSD_LPAGE);
		int64_t c = ssd_dev_submit(dev, SSD_DDIR_WRITE | fill_placement(&p, o),
					   o, len, t);
		if (c < 0) {
			rc = (int)c;
			snprintf(s->err, sizeof s->err, "power-loss: the fill failed: %s",
				 ssd_strerror(rc));
			goto out;
		}
		t = c;
	}
	for (uint64_t z = 0; z < fill_zones; z++) {
		uint64_t base = z * p.zsize * SSD_LPAGE, zend = base + p.zcap * SSD_LPAGE;
		struct ssd_zone_desc zd;
		if (!ssd_dev_zone_report(dev, (uint32_t)z, &zd) && zd.state != SSD_ZNS_ZSE) {
			/* a drive from a snapshot: the zone written again */
			int64_t c = ssd_dev_zone_send(dev, SSD_ZNS_ACT_RESET, base, 0, t);
			if (c < 0) {
				rc = (int)c;
				snprintf(s->err, sizeof s->err, "power-loss: the fill "
					 "failed to reset zone %llu: %s",
					 (unsigned long long)z, ssd_strerror(rc));
				goto out;
			}
			t = c;
		}
		for (uint64_t o = base; o < zend; o += 128 << 10) {
			uint32_t len = (uint32_t)(zend - o < (128 << 10) ? zend - o : 128 << 10);
			ssd_vrec_write(dev->vrec, (uint32_t)(o / SSD_LPAGE), len / SSD_LPAGE);
			int64_t c = ssd_dev_submit(dev, SSD_DDIR_WRITE, o, len, t);
			if (c < 0) {
				rc = (int)c;
				snprintf(s->err, sizeof s->err, "power-loss: the fill "
					 "failed: %s", ssd_strerror(rc));
				goto out;
			}
			t = c;
		}
	}
	t = ssd_dev_flush(dev, t);
	if (t < 0) {
		rc = (int)t;
		snprintf(s->err, sizeof s->err, "power-loss: flush failed");
		goto out;
	}
	for (uint32_t l = 0; l < p.nlp; l++)
		p.ack[l] = p.sync[l] = ver_of(dev->vrec[l]);
	csv = ssd_scn_file(s, "power-loss.csv");
	if (!csv) {
		rc = SSD_EIO;
		goto out;
	}
	fprintf(csv, "cut,time_s,in_flight,buffered_lp,open_lp,at_risk_lp,lost_lp,"
		"unflushed_lost,flushed_lost,scan_reads,recovery_ms\n");
	struct tally all = {0};
	uint64_t lost_total = 0, buffered_total = 0, open_total = 0, cuts_with_loss = 0;
	uint64_t paired_total = 0;
	uint64_t saved_cuts = 0, rewritten = 0;
	int64_t save_max = 0, hold = 0;
	char first[160] = "";
	int wore_out = 0;
	ssd_prog_phase(s->prog, t, "power cuts");
	for (uint64_t k = 0; k < cuts; k++) {
		ssd_prog_at(s->prog, (double)k / (double)cuts, ssd_dev_time(dev),
			    NULL);
		int64_t T = t + 1 + (int64_t)ssd_rng_below(&p.rng, (uint64_t)interval);
		for (uint32_t i = 0; i < qd; i++)
			p.q[i].done = t;
		/* the closed loop up to the cut */
		for (;;) {
			uint32_t best = 0;
			for (uint32_t i = 1; i < qd; i++)
				if (p.q[i].done < p.q[best].done)
					best = i;
			struct cmd *c = &p.q[best];
			if (c->done > T)
				break;
			if (c->kind != C_NONE && (rc = complete(&p, c)))
				goto out;
			/* every submission so far was at or before T */
			int64_t at = ssd_max64(c->done, ssd_dev_last_submit(dev));
			rc = submit(&p, c, at, n, write_pct, trim_pct, fua_pct, flush_every);
			if (rc == SSD_EROFS) {
				/* worn out: its last cut is the one before */
				wore_out = 1;
				rc = 0;
				break;
			}
			if (rc) {
				const char *why = ssd_dev_check_failure(dev);
				if (!why && ssd_dev_error(dev)[0])
					why = ssd_dev_error(dev);
				snprintf(s->err, sizeof s->err, "power-loss: cut %llu: a "
					 "command failed: %s", (unsigned long long)k + 1,
					 why ? why : ssd_strerror(rc));
				goto out;
			}
		}
		if (wore_out) {
			cuts = k;
			break;
		}
		uint32_t inflight = 0;
		for (uint32_t i = 0; i < qd; i++)
			inflight += p.q[i].kind != C_NONE;
		struct ssd_power_cut pc = {.t = T, .on = T + off, .full = full};
		if (p.nset)
			zone_wps(&p, 0);
		if ((rc = ssd_dev_power_cut(dev, &pc))) {
			const char *why = ssd_dev_check_failure(dev);
			snprintf(s->err, sizeof s->err, "power-loss: cut %llu failed: %s",
				 (unsigned long long)k + 1, why ? why : ssd_strerror(rc));
			goto out;
		}
		if (check >= 1 && ssd_dev_audit(dev)) {
			rc = SSD_ESTATE;
			snprintf(s->err, sizeof s->err, "power-loss: cut %llu: the invariant "
				 "checker failed: %s", (unsigned long long)k + 1,
				 ssd_dev_check_failure(dev) ? ssd_dev_check_failure(dev) : "?");
			goto out;
		}
		if (p.nset)
			zone_wps(&p, 1);
		rc = full ? 0 : cut_pages(&p, &pc);
		free(pc.touched);
		if (rc) {
			snprintf(s->err, sizeof s->err, "power-loss: out of memory");
			goto out;
		}
		struct tally one = {0};
		check_pages(&p, &one, first, sizeof first, full ? NULL : p.touch, p.ntouch);
		rec_ns[k] = pc.ready - pc.on;
		fprintf(csv, "%llu,%.6f,%u,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%.3f\n",
			(unsigned long long)k + 1, (double)T / 1e9, inflight,
			(unsigned long long)pc.buffered_lp, (unsigned long long)pc.open_lp,
			(unsigned long long)one.at_risk, (unsigned long long)pc.lost_lp,
			(unsigned long long)one.unflushed_lost,
			(unsigned long long)one.flushed_lost,
			(unsigned long long)pc.scan_reads, (double)rec_ns[k] / 1e6);
		all.flushed_lost += one.flushed_lost;
		all.unflushed_lost += one.unflushed_lost;
		all.at_risk += one.at_risk;
		all.unplaced += pc.unrelocated_lp;
		lost_total += pc.lost_lp;
		buffered_total += pc.buffered_lp;
		open_total += pc.open_lp;
		paired_total += pc.paired_lp;
		cuts_with_loss += one.unflushed_lost + one.flushed_lost > 0;
		saved_cuts += pc.save_all;
		rewritten += pc.rewritten_lp;
		if (pc.save_ns > save_max)
			save_max = pc.save_ns;
		hold = pc.hold_ns;
		/* after recovery everything the drive holds is durable: the
		 * host starts over from it */
		for (uint32_t i = 0; i < qd; i++) {
			free(p.q[i].cover);
			free(p.q[i].zver);
			memset(&p.q[i], 0, sizeof p.q[i]);
		}
		if (p.zbusy)
			memset(p.zbusy, 0, p.nzones * sizeof *p.zbusy);
		for (uint64_t i = 0, nr = full ? p.nlp : p.ntouch; i < nr; i++) {
			uint32_t l = full ? (uint32_t)i : p.touch[i];
			p.ack[l] = p.sync[l] = ver_of(dev->vrec[l]);
			p.busy[l] = 0;
			p.tver[l] = 0;
		}
		p.ntouch = 0;
		p.ndirty = 0;
		p.writes = 0;
		t = pc.ready;
	}
	rc = ssd_scn_close(s, csv);
	csv = NULL;
	if (rc)
		goto out;
	if (!cuts) {
		rc = SSD_EROFS;
		snprintf(s->err, sizeof s->err, "power-loss: the drive wore out before "
			 "the first cut");
		goto out;
	}
	qsort(rec_ns, cuts, sizeof *rec_ns, cmp_i64);
	double r_min = rec_ns[0] / 1e6, r_p50 = rec_ns[cuts / 2] / 1e6;
	double r_p99 = rec_ns[(cuts * 99) / 100 < cuts ? (cuts * 99) / 100 : cuts - 1] / 1e6;
	double r_max = rec_ns[cuts - 1] / 1e6;
	const char *body =
		"set xlabel 'power cut'\nset ylabel 'logical pages'\nset y2label 'recovery, ms'\n"
		"set ytics nomirror\nset y2tics\nset yrange [0:*]\nset y2range [0:*]\n"
		"set datafile separator ','\n"
		"plot 'power-loss.csv' using 1:6 skip 1 with impulses lc rgb '#bbbbbb' title 'at risk (acknowledged, not flushed)', \\\n"
		"     'power-loss.csv' using 1:8 skip 1 with points pt 7 ps 0.5 lc rgb '#d95f02' title 'unflushed lost', \\\n"
		"     'power-loss.csv' using 1:9 skip 1 with points pt 7 ps 0.8 lc rgb '#cc0000' title 'flushed lost (must be 0)', \\\n"
		"     'power-loss.csv' using 1:11 skip 1 axes x1y2 with lines lc rgb '#1f5fbf' title 'recovery time'";
	if ((rc = ssd_scn_plot(s, "power-loss", "Power cuts: what was lost, and recovery", body)))
		goto out;
	ssd_scn_json_str(s, "plp", s->cfg.plp ? "yes" : "no");
	ssd_scn_json_str(s, "power_recovery",
			 s->cfg.power_recovery == SSD_RECOVER_SCAN ? "scan" : "summary");
	ssd_scn_json_str(s, "paired_pages", paired_name(s->cfg.paired_pages));
	ssd_scn_json_int(s, "paired_lp", (int64_t)paired_total);
	ssd_scn_json_int(s, "pad_lp", (int64_t)dev->ctr->pad_lp);
	ssd_scn_json_int(s, "cuts", (int64_t)cuts);
	ssd_scn_json_int(s, "commands", (int64_t)p.commands);
	ssd_scn_json_int(s, "checks", (int64_t)ssd_ftl_check_runs(dev->ftl));
	ssd_scn_json_int(s, "wore_out", wore_out);
	ssd_scn_json_int(s, "flushed_lost", (int64_t)all.flushed_lost);
	ssd_scn_json_int(s, "unflushed_lost", (int64_t)all.unflushed_lost);
	ssd_scn_json_int(s, "at_risk_lp", (int64_t)all.at_risk);
	ssd_scn_json_int(s, "lost_lp", (int64_t)lost_total);
	ssd_scn_json_int(s, "cuts_with_loss", (int64_t)cuts_with_loss);
	ssd_scn_json_int(s, "cuts_saved_by_plp", (int64_t)saved_cuts);
	ssd_scn_json_int(s, "buffered_lp", (int64_t)buffered_total);
	ssd_scn_json_int(s, "open_lp", (int64_t)open_total);
	ssd_scn_json_int(s, "rewritten_lp", (int64_t)rewritten);
	ssd_scn_json_int(s, "unplaced_lp", (int64_t)all.unplaced);
	ssd_scn_json_num(s, "save_ms_max", (double)save_max / 1e6);
	ssd_scn_json_num(s, "plp_hold_up_ms", (double)hold / 1e6);
	ssd_scn_json_open(s, "recovery_ms", 0);
	ssd_scn_json_num(s, "min", r_min);
	ssd_scn_json_num(s, "p50", r_p50);
	ssd_scn_json_num(s, "p99", r_p99);
	ssd_scn_json_num(s, "max", r_max);
	ssd_scn_json_close(s, 0);
	if (first[0])
		ssd_scn_json_str(s, "first_flushed_loss", first);
	if (p.nset) {
		ssd_scn_json_open(s, "zoned", 0);
		ssd_scn_json_int(s, "zones", p.nzones);
		ssd_scn_json_int(s, "zones_written_at_once", p.nset);
		ssd_scn_json_int(s, "zone_resets", (int64_t)p.resets);
		ssd_scn_json_int(s, "zones_rewound", (int64_t)p.rewound);
		ssd_scn_json_close(s, 0);
	}
	if (p.handles)
		ssd_scn_json_int(s, "fdp_handles", p.handles);
	if (no_trim)
		ssd_scn_json_str(s, "trims", "none: the drive has no TRIM (trim = "
				 "no); trim_pct's share were reads");
	fprintf(s->out, "power-loss on %s (plp %s, recovery %s%s%s): %llu cut%s%s\n", s->cfg.name,
		s->cfg.plp ? "yes" : "no",
		s->cfg.power_recovery == SSD_RECOVER_SCAN ? "scan" : "summary",
		s->cfg.paired_pages ? ", paired pages " : "",
		s->cfg.paired_pages ? paired_name(s->cfg.paired_pages) : "",
		(unsigned long long)cuts, ssd_plural(cuts),
		wore_out ? " (then the drive wore out: read-only)" : "");
	fprintf(s->out, "  flushed_lost      %llu page%s (the promise: 0)%s%s\n",
		(unsigned long long)all.flushed_lost, ssd_plural(all.flushed_lost),
		first[0] ? "; first: " : "", first);
	fprintf(s->out, "  unflushed_lost    %llu page%s of %llu at risk (acknowledged, "
		"not flushed), in %llu cut%s\n", (unsigned long long)all.unflushed_lost,
		ssd_plural(all.unflushed_lost), (unsigned long long)all.at_risk,
		(unsigned long long)cuts_with_loss, ssd_plural(cuts_with_loss));
	if (all.unplaced)
		fprintf(s->out, "  worn out          %llu page%s whose surviving copy the drive had "
			"no room to place (undefined, not counted above)\n",
			(unsigned long long)all.unplaced, ssd_plural(all.unplaced));
	fprintf(s->out, "  at the cuts       %llu page%s in the write buffer, %llu in open "
		"pages\n", (unsigned long long)buffered_total, ssd_plural(buffered_total),
		(unsigned long long)open_total);
	if (s->cfg.paired_pages)
		fprintf(s->out, "  paired pages      %llu 4 KiB page%s of lower pages destroyed by "
			"programs under way at the cuts; %llu of padding written\n",
			(unsigned long long)paired_total, ssd_plural(paired_total),
			(unsigned long long)dev->ctr->pad_lp);
	if (s->cfg.plp) {
		char took[32], gives[32];
		fprintf(s->out, "  plp               saved them at %llu of %llu cuts (saving took up to "
			"%s of the %s the energy gives)\n", (unsigned long long)saved_cuts,
			(unsigned long long)cuts, duration(save_max, took, sizeof took),
			duration(hold, gives, sizeof gives));
	}
	if (p.nset)
		fprintf(s->out, "  zones             writes at the write pointers of %u of %u "
			"zones, %llu reset%s; %llu write pointer%s rewound by the cuts\n",
			p.nset, p.nzones, (unsigned long long)p.resets, ssd_plural(p.resets),
			(unsigned long long)p.rewound, ssd_plural(p.rewound));
	if (p.handles)
		fprintf(s->out, "  fdp               writes on %u handle%s (a stretch of the "
			"drive each, one in eight another)\n", p.handles,
			ssd_plural(p.handles));
	fprintf(s->out, "  recovery          %.2f ms median, %.2f ms p99, %.2f-%.2f ms\n",
		r_p50, r_p99, r_min, r_max);
	if (no_trim)
		fprintf(s->out, "  trims             none: drive '%s' has no TRIM (trim = no); "
			"trim_pct's share were reads\n", s->cfg.name);
	fprintf(s->out, "  data and plots    %s/power-loss.{csv,png,svg}\n", s->outdir);
	rc = 0;
out:
	ssd_scn_discard(s, csv); /* a run that failed: no CSV */
	for (uint32_t i = 0; p.q && i < qd; i++) {
		free(p.q[i].cover);
		free(p.q[i].zver);
	}
	free(p.set);
	free(p.zbusy);
	free(p.zwp);
	free(p.q);
	free(p.dirty);
	free(p.touch);
	free(p.ack);
	free(p.sync);
	free(p.busy);
	free(p.tver);
	free(rec_ns);
	ssd_dev_destroy(dev);
	return rc;
}

const struct ssd_scenario ssd_scn_power_loss = {
	.name = "power-loss",
	.summary = "power cuts at random moments of a mixed workload with "
		   "flushes: what survives (flushed_lost must be 0), what is lost, "
		   "recovery time",
	.params = params,
	.run = run,
	.drive = "tiny",
};
