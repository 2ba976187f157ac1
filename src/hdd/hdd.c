/*
 * hdd.c -- the hard disk of hdd.h: geometry, seek curve, rotation, and
 * the buffer's read-ahead and write cache.
 *
 * Angles are integers: a turn is ANG_TURN units and the platter turns
 * rpm units per nanosecond (ANG_TURN = 60 s in ns, the time in which
 * the spindle makes exactly rpm turns), so angle(t) = (t mod 60 s) * rpm
 * mod ANG_TURN with no rounding, and u units take u / rpm ns.
 *
 * The head's timeline.  bg_t is when the head is next free: the end of
 * the last media access, foreground or background.  Background work is
 * done lazily, when a call comes with a later time (run_bg): the
 * running read-ahead (a "stream": it passed byte s_off at time s_t and
 * reads on, continuously, to s_lim) and then destage operations, each
 * started if it starts before that time.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/io.h"
#include "base/util.h"
#include "hdd/hdd.h"

#define ANG_TURN 60000000000ULL     /* angle units per turn */
#define ROT_TOL_NS 1000             /* a target this close behind is "now" */

struct zone {
	uint64_t start, bytes, first_track;
	uint32_t track_bytes;
	double mbps;
};

struct ext {                    /* a write-cache extent [start, end) */
	uint64_t start, end;
	int64_t ready;          /* its data is all in the buffer */
};

struct seg {                    /* a read segment [start, end) */
	uint64_t start, end;
	uint64_t used;          /* LRU clock */
};

struct qcmd {                   /* a command waiting for the head */
	uint64_t a, b;
	int64_t t;              /* its arrival */
	uint32_t tag;
	int write;              /* a write through to the platters */
};

struct ssd_hdd {
	uint64_t capacity;
	uint32_t nzones;
	struct zone *zone;
	uint64_t tracks_per_zone, ntracks;
	uint32_t rpm;
	int64_t sw_ns;              /* track switch = track-to-track seek */
	uint64_t skew_u;            /* angle units from track to track */
	/* seek curve */
	int64_t t1, ta, tf;
	double da, df;
	int exact;
	double s, a, b;
	/* the rest of the drive */
	int64_t overhead;
	uint32_t link_mbps;
	uint64_t cache, ra;
	int wce;
	/* state */
	int64_t now;                /* latest submission */
	int64_t bg_t;               /* the head is free from */
	uint64_t head_track, head_off;
	int64_t link_free;
	int s_on;                   /* read-ahead running */
	uint64_t s_seg;             /* its data in the buffer from here */
	uint64_t s_begin;           /* where the read-ahead proper began */
	uint64_t s_off;             /* a checkpoint: at s_off at time s_t */
	int64_t s_t;
	uint64_t s_lim;             /* it stops here */
	int64_t s_tend;             /* ... at this time */
	struct seg seg[SSD_HDD_SEGMENTS];
	int nseg;
	uint64_t seg_bytes, clock;
	struct ext *wc;             /* SSD_HDD_WC_EXTENTS, sorted by start */
	uint32_t nwc;
	uint64_t dirty;
	int64_t destaged_t;         /* the last destage operation ends */
	uint64_t destaged_n;        /* ... and holds this much until then */
	struct ssd_hdd_stats st;
	/* the command queue (ssd_hdd_submit_q): head commands waiting, in
	 * arrival order; sptf picks among the first SSD_HDD_NCQ */
	int sptf;
	struct qcmd *q;
	uint32_t nq, qcap;
	int64_t wt_done;            /* the latest write to the platters ends */
};

/* ---- integer helpers ---- */

static uint64_t muldiv(uint64_t a, uint64_t b, uint64_t c)
{
	return (uint64_t)((unsigned __int128)a * b / c);
}

static uint64_t muldiv_up(uint64_t a, uint64_t b, uint64_t c)
{
	unsigned __int128 p = (unsigned __int128)a * b;
	return (uint64_t)((p + c - 1) / c);
}

static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m)
{
	return (uint64_t)((unsigned __int128)a * b % m);
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* ---- geometry ---- */

static uint32_t zone_of(const struct ssd_hdd *h, uint64_t off)
{
	uint32_t lo = 0, hi = h->nzones - 1;
	while (lo < hi) { /* the last zone starting at or before off */
		uint32_t mid = (lo + hi + 1) / 2;
		if (h->zone[mid].start <= off && h->zone[mid].bytes)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

struct loc {
	const struct zone *z;
	uint64_t track;
	uint64_t in;        /* byte in the track */
};

static struct loc locate(const struct ssd_hdd *h, uint64_t off)
{
	struct loc l;
	l.z = &h->zone[zone_of(h, off)];
	uint64_t rel = off - l.z->start;
	l.track = l.z->first_track + rel / l.z->track_bytes;
	l.in = rel % l.z->track_bytes;
	return l;
}

/* Time to pass n bytes of a track of B bytes. */
static int64_t bytes_ns(const struct ssd_hdd *h, uint64_t n, uint32_t B)
{
	return (int64_t)muldiv_up(n, ANG_TURN, (uint64_t)B * h->rpm);
}

static uint64_t angle_at(const struct ssd_hdd *h, int64_t t)
{
	int64_t m = t % (int64_t)ANG_TURN;
	if (m < 0)
		m += (int64_t)ANG_TURN;
	return mulmod((uint64_t)m, h->rpm, ANG_TURN);
}

static uint64_t angle_of(const struct ssd_hdd *h, struct loc l)
{
	uint64_t phi = mulmod(l.track % ANG_TURN, h->skew_u, ANG_TURN);
	return (phi + muldiv(l.in, ANG_TURN, l.z->track_bytes)) % ANG_TURN;
}

static int64_t rot_wait(const struct ssd_hdd *h, int64_t t, struct loc l)
{
	uint64_t w = (angle_of(h, l) + ANG_TURN - angle_at(h, t)) % ANG_TURN;
	if (ANG_TURN - w <= (uint64_t)ROT_TOL_NS * h->rpm)
		return 0;
	return (int64_t)((w + h->rpm - 1) / h->rpm);
}

/* Transfer of n bytes from off, continuous, a switch per track
 * boundary crossed. */
static int64_t xfer_ns(const struct ssd_hdd *h, uint64_t off, uint64_t n)
{
	int64_t ns = 0;
	while (n) {
		struct loc l = locate(h, off);
		uint64_t chunk = l.z->track_bytes - l.in;
		if (chunk > n)
			chunk = n;
		ns += bytes_ns(h, chunk, l.z->track_bytes);
		n -= chunk;
		off += chunk;
		if (n)
			ns += h->sw_ns;
	}
	return ns;
}

/* Bytes a continuous transfer from off passes in dt, at most max. */
static uint64_t xfer_bytes(const struct ssd_hdd *h, uint64_t off, int64_t dt,
			   uint64_t max)
{
	uint64_t done = 0;
	while (dt > 0 && done < max) {
		struct loc l = locate(h, off);
		uint64_t chunk = l.z->track_bytes - l.in;
		if (chunk > max - done)
			chunk = max - done;
		int64_t need = bytes_ns(h, chunk, l.z->track_bytes);
		if (need > dt) {
			uint64_t part = muldiv((uint64_t)dt,
					       (uint64_t)l.z->track_bytes * h->rpm,
					       ANG_TURN);
			done += part < chunk ? part : chunk;
			break;
		}
		done += chunk;
		off += chunk;
		dt -= need + h->sw_ns;
	}
	return done;
}

static double seek_fit(const struct ssd_hdd *h, double d)
{
	if (h->exact)
		return h->s + h->a * sqrt(d) + h->b * d;
	if (h->da <= 1 || h->df <= h->da) { /* tiny disks */
		if (h->df <= 1)
			return (double)h->t1;
		return h->t1 + (double)(h->tf - h->t1) * (d - 1) / (h->df - 1);
	}
	if (d <= h->da)
		return h->t1 + (double)(h->ta - h->t1) * (sqrt(d) - 1) /
		       (sqrt(h->da) - 1);
	return h->ta + (double)(h->tf - h->ta) * (d - h->da) / (h->df - h->da);
}

int64_t ssd_hdd_seek_ns(const struct ssd_hdd *h, uint64_t d)
{
	if (d == 0)
		return 0;
	if (d == 1)
		return h->t1;
	return (int64_t)llround(seek_fit(h, (double)d));
}

static void fit_seek(struct ssd_hdd *h)
{
	double C = (double)h->ntracks;
	h->da = C / 3;
	h->df = C - 1;
	h->exact = 0;
	if (h->da <= 1 || h->df <= h->da)
		return;
	double t1 = (double)h->t1, ta = (double)h->ta, tf = (double)h->tf;
	double xa = sqrt(h->da) - 1, ya = h->da - 1;
	double xf = sqrt(h->df) - 1, yf = h->df - 1;
	double det = xa * yf - xf * ya;
	if (det == 0)
		return;
	double a = ((ta - t1) * yf - (tf - t1) * ya) / det;
	double b = (xa * (tf - t1) - xf * (ta - t1)) / det;
	if (a < 0 || b < 0)
		return; /* not monotone: the piecewise form */
	h->a = a;
	h->b = b;
	h->s = t1 - a - b;
	h->exact = 1;
}

static double zone_rate(const struct ssd_config *c, uint32_t z)
{
	double o = c->hdd_mbps_outer, i = c->hdd_mbps_inner;
	if (c->hdd_zones <= 1)
		return (o + i) / 2;
	return o - (o - i) * z / (c->hdd_zones - 1);
}

uint64_t ssd_hdd_mem(const struct ssd_config *c)
{
	const struct ssd_hdd *h = NULL;
	return sizeof *h + (uint64_t)c->hdd_zones * sizeof *h->zone +
	       SSD_HDD_WC_EXTENTS * sizeof *h->wc;
}

int ssd_hdd_create(const struct ssd_config *c, struct ssd_hdd **out)
{
	*out = NULL;
	if (c->type != SSD_TYPE_HDD || !c->capacity || !c->hdd_rpm ||
	    !c->hdd_zones || !c->hdd_mbps_inner || !c->hdd_mbps_outer ||
	    c->hdd_seek_track <= 0 || c->hdd_seek_track > c->hdd_seek_avg ||
	    c->hdd_seek_avg > c->hdd_seek_full ||
	    c->hdd_mbps_inner > c->hdd_mbps_outer ||
	    c->hdd_read_ahead > c->hdd_cache)
		return SSD_EINVAL;
	struct ssd_hdd *h = calloc(1, sizeof *h);
	if (!h)
		return SSD_ENOMEM;
	h->zone = calloc(c->hdd_zones, sizeof *h->zone);
	h->wc = calloc(SSD_HDD_WC_EXTENTS, sizeof *h->wc);
	if (!h->zone || !h->wc) {
		ssd_hdd_destroy(h);
		return SSD_ENOMEM;
	}
	h->capacity = c->capacity;
	h->nzones = c->hdd_zones;
	h->rpm = c->hdd_rpm;
	h->sw_ns = c->hdd_seek_track;
	h->skew_u = mulmod((uint64_t)h->sw_ns, h->rpm, ANG_TURN);
	h->t1 = c->hdd_seek_track;
	h->ta = c->hdd_seek_avg;
	h->tf = c->hdd_seek_full;
	h->overhead = c->cmd_overhead;
	h->link_mbps = c->host_mbps;
	h->cache = c->hdd_cache;
	h->ra = c->hdd_read_ahead;
	h->wce = c->hdd_write_cache;
	h->sptf = c->hdd_queue == SSD_HDD_SPTF;

	double rev = 60e9 / h->rpm;
	uint64_t sum = 0;
	for (uint32_t z = 0; z < h->nzones; z++) {
		double r = zone_rate(c, z);
		double b = r * (rev + (double)h->sw_ns) / 1000; /* MB/s x ns */
		uint64_t B = (uint64_t)(b / 512) * 512;
		if (B < 512)
			B = 512;
		if (B > UINT32_MAX / 2)
			B = (UINT32_MAX / 2) / 512 * 512;
		h->zone[z].track_bytes = (uint32_t)B;
		h->zone[z].mbps = r;
		sum += B;
	}
	h->tracks_per_zone = (h->capacity + sum - 1) / sum;
	h->ntracks = h->tracks_per_zone * h->nzones;
	uint64_t start = 0;
	for (uint32_t z = 0; z < h->nzones; z++) {
		struct zone *zn = &h->zone[z];
		uint64_t full = h->tracks_per_zone * zn->track_bytes;
		zn->start = start;
		zn->first_track = z * h->tracks_per_zone;
		zn->bytes = h->capacity - start < full ? h->capacity - start : full;
		start += zn->bytes;
	}
	fit_seek(h);
	*out = h;
	return 0;
}

void ssd_hdd_destroy(struct ssd_hdd *h)
{
	if (h)
		free(h->q);
	if (!h)
		return;
	free(h->zone);
	free(h->wc);
	free(h);
}

/* ---- media access ---- */

/* Seek to off, wait for it, transfer len bytes, from t0; the head
 * stays at the end.  *xs is when the transfer began.  The end time. */
static int64_t media(struct ssd_hdd *h, int64_t t0, uint64_t off, uint64_t len,
		     int64_t *xs)
{
	struct loc l = locate(h, off);
	uint64_t d = l.track > h->head_track ? l.track - h->head_track
					     : h->head_track - l.track;
	int64_t sk = ssd_hdd_seek_ns(h, d);
	int64_t rw = rot_wait(h, t0 + sk, l);
	int64_t xf = xfer_ns(h, off, len);
	if (d)
		h->st.seeks++;
	h->st.seek_ns += sk;
	h->st.rot_ns += rw;
	h->st.xfer_ns += xf;
	if (xs)
		*xs = t0 + sk + rw;
	h->head_track = locate(h, off + len - 1).track;
	h->head_off = off + len;
	return t0 + sk + rw + xf;
}

static int64_t link_ns(const struct ssd_hdd *h, uint64_t len)
{
	if (!h->link_mbps)
		return 0;
	return (int64_t)muldiv_up(len, 1000, h->link_mbps);
}

/* ---- read segments ---- */

static void seg_drop(struct ssd_hdd *h, int i)
{
	h->seg_bytes -= h->seg[i].end - h->seg[i].start;
	h->seg[i] = h->seg[--h->nseg];
}

static int seg_lru(const struct ssd_hdd *h)
{
	int v = 0;
	for (int i = 1; i < h->nseg; i++)
		if (h->seg[i].used < h->seg[v].used)
			v = i;
	return v;
}

/* Keep read segments and dirty data within the buffer: the least
 * recently used segment loses its front first. */
static void buf_trim(struct ssd_hdd *h)
{
	uint64_t room = h->cache > h->dirty ? h->cache - h->dirty : 0;
	while (h->nseg && h->seg_bytes > room) {
		int v = seg_lru(h);
		uint64_t over = h->seg_bytes - room;
		uint64_t n = h->seg[v].end - h->seg[v].start;
		if (n > over) {
			h->seg[v].start += over;
			h->seg_bytes -= over;
		} else {
			seg_drop(h, v);
		}
	}
}

static void seg_add(struct ssd_hdd *h, uint64_t a, uint64_t b)
{
	if (!h->cache || a >= b)
		return;
	for (int i = 0; i < h->nseg;) { /* merge what it touches */
		if (h->seg[i].start <= b && h->seg[i].end >= a) {
			if (h->seg[i].start < a)
				a = h->seg[i].start;
			if (h->seg[i].end > b)
				b = h->seg[i].end;
			seg_drop(h, i);
		} else {
			i++;
		}
	}
	if (b - a > h->cache)
		a = b - h->cache;
	if (h->nseg == SSD_HDD_SEGMENTS)
		seg_drop(h, seg_lru(h));
	h->seg[h->nseg++] = (struct seg){a, b, ++h->clock};
	h->seg_bytes += b - a;
	buf_trim(h);
}

/* The segment holding [a, b) whole, or -1. */
static int seg_hit(struct ssd_hdd *h, uint64_t a, uint64_t b)
{
	for (int i = 0; i < h->nseg; i++)
		if (h->seg[i].start <= a && h->seg[i].end >= b) {
			h->seg[i].used = ++h->clock;
			return i;
		}
	return -1;
}

/* ---- the write cache ---- */

/* The first extent with end >= a (that a range from a could touch). */
static uint32_t wc_find(const struct ssd_hdd *h, uint64_t a)
{
	uint32_t lo = 0, hi = h->nwc;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (h->wc[mid].end < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int wc_hit(const struct ssd_hdd *h, uint64_t a, uint64_t b)
{
	uint32_t i = wc_find(h, a);
	return i < h->nwc && h->wc[i].start <= a && h->wc[i].end >= b;
}

/* Insert [a, b), merging; the caller has made sure there is a slot. */
static void wc_add(struct ssd_hdd *h, uint64_t a, uint64_t b, int64_t ready)
{
	uint32_t i = wc_find(h, a), j = i;
	uint64_t old = 0;
	uint64_t na = a, nb = b;
	int64_t r = ready;
	while (j < h->nwc && h->wc[j].start <= b) {
		struct ext *e = &h->wc[j];
		old += e->end - e->start;
		if (e->start < na)
			na = e->start;
		if (e->end > nb)
			nb = e->end;
		if (e->ready < r)
			r = e->ready; /* ready when its front is */
		j++;
	}
	/* wc[i..j) merge into one at i */
	if (j == i) {
		memmove(&h->wc[i + 1], &h->wc[i], (h->nwc - i) * sizeof *h->wc);
		h->nwc++;
	} else if (j > i + 1) {
		memmove(&h->wc[i + 1], &h->wc[j], (h->nwc - j) * sizeof *h->wc);
		h->nwc -= j - i - 1;
	}
	h->wc[i] = (struct ext){na, nb, r};
	h->dirty += (nb - na) - old;
	buf_trim(h);
}

/* C-LOOK: the first extent at or after the head, else the lowest. */
static uint32_t wc_next(const struct ssd_hdd *h)
{
	uint32_t lo = 0, hi = h->nwc;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (h->wc[mid].start < h->head_off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < h->nwc ? lo : 0;
}

/* The start time of the next destage operation, not before `from`. */
static int64_t destage_start(const struct ssd_hdd *h, int64_t from)
{
	return max64(max64(h->bg_t, from), h->wc[wc_next(h)].ready);
}

/* One destage operation at its start time: the next extent up to the
 * end of its first track. */
static void destage_one(struct ssd_hdd *h, int64_t from)
{
	uint32_t i = wc_next(h);
	struct ext *e = &h->wc[i];
	int64_t t0 = destage_start(h, from);
	struct loc l = locate(h, e->start);
	uint64_t n = l.z->track_bytes - l.in;
	if (n > e->end - e->start)
		n = e->end - e->start;
	uint64_t a = e->start;
	e->start += n;
	h->dirty -= n;
	if (e->start == e->end) {
		memmove(&h->wc[i], &h->wc[i + 1], (h->nwc - i - 1) * sizeof *h->wc);
		h->nwc--;
	}
	h->bg_t = media(h, t0, a, n, NULL);
	h->destaged_t = h->bg_t;
	h->destaged_n = n;
	h->st.destages++;
	h->st.destage_bytes += n;
	h->st.media_writes++;
	h->st.media_write_bytes += n;
}

/* ---- the read-ahead stream ---- */

/* The stream has read up to s_off at s_t; if s_off is the start of a
 * track it has just finished the one before and switches first. */
static int64_t stream_switch(const struct ssd_hdd *h)
{
	return locate(h, h->s_off).in == 0 ? h->sw_ns : 0;
}

/* When the stream has read up to byte x. */
static int64_t stream_time(const struct ssd_hdd *h, uint64_t x)
{
	if (x <= h->s_off)
		return h->s_t;
	return h->s_t + stream_switch(h) + xfer_ns(h, h->s_off, x - h->s_off);
}

/* Where the stream is at time t. */
static uint64_t stream_pos(const struct ssd_hdd *h, int64_t t)
{
	int64_t dt = t - h->s_t - stream_switch(h);
	if (dt <= 0 || h->s_off >= h->s_lim)
		return h->s_off;
	return h->s_off + xfer_bytes(h, h->s_off, dt, h->s_lim - h->s_off);
}

static void stream_set_lim(struct ssd_hdd *h, uint64_t lim)
{
	h->s_lim = lim > h->capacity ? h->capacity : lim;
	if (h->s_lim < h->s_off)
		h->s_lim = h->s_off;
	h->s_tend = stream_time(h, h->s_lim);
	if (h->s_lim - h->s_seg > h->cache)
		h->s_seg = h->s_lim - h->cache;
}

/* The stream stops at byte pos at time t: its data becomes a segment. */
static void stream_stop(struct ssd_hdd *h, uint64_t pos, int64_t t)
{
	h->s_on = 0;
	if (pos > h->s_begin)
		h->st.readahead_bytes += pos - h->s_begin;
	h->head_track = locate(h, pos - 1).track; /* pos > s_begin > 0 */
	h->head_off = pos;
	h->bg_t = max64(t, h->s_t);
	seg_add(h, h->s_seg, pos);
}

/* A command needs the head at t: the stream stops where it is. */
static void stream_preempt(struct ssd_hdd *h, int64_t t)
{
	if (h->s_on)
		stream_stop(h, stream_pos(h, t), t);
}

/* A read at t hit segment i, which ends where the head stopped reading
 * ahead: the reader is sequential, so read ahead again from there (the
 * head is on that track: a rotational wait, a switch if the segment
 * ended a track).  The segment becomes the stream's. */
static void stream_restart(struct ssd_hdd *h, int i, uint64_t b, int64_t t)
{
	uint64_t a = h->seg[i].start, e = h->seg[i].end;
	seg_drop(h, i);
	struct loc l = locate(h, e);
	uint64_t d = l.track > h->head_track ? l.track - h->head_track
					     : h->head_track - l.track;
	int64_t t0 = max64(t, h->bg_t);
	int64_t sk = ssd_hdd_seek_ns(h, d);
	int64_t rw = rot_wait(h, t0 + sk, l);
	h->st.seek_ns += sk;
	h->st.rot_ns += rw;
	if (d)
		h->st.seeks++;
	h->s_on = 1;
	h->s_seg = a;
	h->s_begin = e;
	h->s_off = e;
	h->s_t = t0 + sk + rw - stream_switch(h); /* stream_time adds it */
	stream_set_lim(h, b + h->ra);
}

/* ---- background work up to t ---- */

static void run_bg(struct ssd_hdd *h, int64_t t)
{
	for (;;) {
		if (h->s_on) {
			if (h->s_tend > t)
				return; /* still reading ahead at t */
			stream_stop(h, h->s_lim, h->s_tend);
			continue;
		}
		if (!h->nwc || destage_start(h, h->bg_t) >= t)
			return;
		destage_one(h, h->bg_t);
	}
}

/* ---- commands ---- */

static int64_t do_read(struct ssd_hdd *h, uint64_t a, uint64_t b, int64_t t)
{
	uint64_t len = b - a;
	int64_t t0 = t + h->overhead;
	int64_t lk = link_ns(h, len);
	int stream_hit = h->s_on && a >= h->s_seg && b <= stream_pos(h, t);
	int si = stream_hit ? -1 : seg_hit(h, a, b);
	if (stream_hit || si >= 0 || wc_hit(h, a, b)) {
		if (stream_hit) /* a sequential reader: read on ahead of it */
			stream_set_lim(h, b + h->ra);
		else if (si >= 0 && h->ra && !h->s_on &&
			 h->seg[si].end == h->head_off && h->head_off < h->capacity)
			stream_restart(h, si, b, t);
		int64_t ls = max64(t0, h->link_free);
		h->link_free = ls + lk;
		h->st.hit_reads++;
		h->st.hit_bytes += len;
		return h->link_free;
	}
	if (h->s_on && a >= h->s_seg && a <= h->s_lim) {
		/* the read-ahead is on its way there */
		int64_t me = stream_time(h, b);
		int64_t ls = max64(t0, h->link_free);
		int64_t done = max64(me, ls + lk);
		if (b > h->s_off) { /* rebase the checkpoint */
			h->s_off = b;
			h->s_t = me;
		}
		stream_set_lim(h, b + h->ra);
		h->link_free = done;
		h->st.stream_reads++;
		h->st.stream_bytes += len;
		return done;
	}
	stream_preempt(h, t0);
	int64_t xs;
	int64_t me = media(h, max64(t0, h->bg_t), a, len, &xs);
	int64_t done = max64(me, max64(xs, h->link_free) + lk);
	h->link_free = done;
	h->bg_t = me;
	h->st.media_reads++;
	h->st.media_read_bytes += len;
	if (h->ra && b < h->capacity) {
		h->s_on = 1;
		h->s_seg = a;
		h->s_begin = b;
		h->s_off = b;
		h->s_t = me;
		stream_set_lim(h, b + h->ra);
	} else {
		seg_add(h, a, b);
	}
	return done;
}

static int64_t write_through(struct ssd_hdd *h, uint64_t a, uint64_t b,
			     int64_t t)
{
	uint64_t len = b - a;
	int64_t t0 = t + h->overhead;
	int64_t le = max64(t0, h->link_free) + link_ns(h, len);
	h->link_free = le;
	stream_preempt(h, t0);
	int64_t me = media(h, max64(t0, h->bg_t), a, len, NULL);
	h->bg_t = me;
	h->wt_done = max64(h->wt_done, me);
	h->st.media_writes++;
	h->st.media_write_bytes += len;
	return max64(me, le);
}

static int64_t do_write(struct ssd_hdd *h, uint64_t a, uint64_t b, int fua,
			int64_t t)
{
	uint64_t len = b - a;
	if (!h->wce || fua || len > h->cache)
		return write_through(h, a, b, t);
	/* the operation being destaged holds its room until it ends */
	uint64_t busy = h->destaged_t > t ? h->destaged_n : 0;
	int64_t room = t;
	if (h->dirty + busy + len > h->cache || h->nwc >= SSD_HDD_WC_EXTENTS) {
		h->st.wc_waits++;
		stream_preempt(h, t);
		while (h->nwc && (h->dirty + len > h->cache ||
				  h->nwc >= SSD_HDD_WC_EXTENTS))
			destage_one(h, t);
		room = max64(t, h->destaged_t);
	}
	int64_t ls = max64(max64(t + h->overhead, room), h->link_free);
	int64_t done = ls + link_ns(h, len);
	h->link_free = done;
	wc_add(h, a, b, done);
	h->st.wc_writes++;
	h->st.wc_bytes += len;
	return done;
}

int64_t ssd_hdd_submit(struct ssd_hdd *h, int ddir, int fua, uint64_t offset,
		       uint32_t len, int64_t t)
{
	int d = ddir & 0xff;
	if (d == SSD_DDIR_TRIM) {
		h->st.trims++;
		return SSD_EUNSUP;
	}
	if ((d != SSD_DDIR_READ && d != SSD_DDIR_WRITE) || !len ||
	    offset > h->capacity || len > h->capacity - offset)
		return SSD_EINVAL;
	if (t < h->now)
		t = h->now;
	h->now = t;
	run_bg(h, t);
	if (d == SSD_DDIR_READ)
		return do_read(h, offset, offset + len, t);
	return do_write(h, offset, offset + len, fua, t);
}

int64_t ssd_hdd_flush(struct ssd_hdd *h, int64_t t)
{
	if (t < h->now)
		t = h->now;
	h->now = t;
	h->st.flushes++;
	run_bg(h, t);
	if (h->nwc) {
		stream_preempt(h, t);
		while (h->nwc)
			destage_one(h, t);
	}
	/* and every write already on its way to the platters */
	return max64(max64(t + h->overhead, h->destaged_t), h->wt_done);
}

int ssd_hdd_idle(struct ssd_hdd *h, int64_t until)
{
	if (until > h->now) {
		h->now = until;
		if (!h->nq) /* queued commands have the head first */
			run_bg(h, until);
	}
	return 0;
}

/* ---- the command queue ---- */

/* 1 if a read or write of [a, b) at t needs the head: not a hit of the
 * buffer, the read-ahead or the write cache, not a cached write.  A pure
 * look (do_read and do_write decide again when they serve it). */
static int needs_head(const struct ssd_hdd *h, int write, int fua,
		      uint64_t a, uint64_t b, int64_t t)
{
	if (write)
		return !h->wce || fua || b - a > h->cache;
	if (h->s_on && a >= h->s_seg && (b <= stream_pos(h, t) || a <= h->s_lim))
		return 0;
	for (int i = 0; i < h->nseg; i++)
		if (h->seg[i].start <= a && h->seg[i].end >= b)
			return 0;
	return !wc_hit(h, a, b);
}

/* Serve queued command k (taken out of the queue) at the head's time:
 * its completion, never before `from` (a command decided now cannot have
 * completed in the past). */
static int64_t serve(struct ssd_hdd *h, uint32_t k, int64_t from,
		     uint32_t *tag)
{
	struct qcmd c = h->q[k];
	memmove(&h->q[k], &h->q[k + 1], (h->nq - k - 1) * sizeof *h->q);
	h->nq--;
	*tag = c.tag;
	int64_t done = c.write ? write_through(h, c.a, c.b, c.t)
			       : do_read(h, c.a, c.b, c.t);
	return max64(done, from);
}

int64_t ssd_hdd_next_decision(const struct ssd_hdd *h)
{
	if (!h->nq)
		return INT64_MAX;
	return max64(h->bg_t, h->q[0].t);
}

int ssd_hdd_decide(struct ssd_hdd *h, int64_t t, uint32_t *tag, int64_t *done)
{
	int64_t at = ssd_hdd_next_decision(h);
	if (!h->nq || at > t)
		return 0;
	/* SPTF: of the first SSD_HDD_NCQ waiting, the least positioning
	 * time from where the head is when it frees (ties: the oldest) */
	uint32_t best = 0, n = h->nq < SSD_HDD_NCQ ? h->nq : SSD_HDD_NCQ;
	int64_t best_ns = INT64_MAX;
	for (uint32_t k = 0; h->sptf && k < n; k++) {
		const struct qcmd *c = &h->q[k];
		int64_t t0 = max64(at, c->t + h->overhead);
		struct loc l = locate(h, c->a);
		uint64_t d = l.track > h->head_track ? l.track - h->head_track
						     : h->head_track - l.track;
		int64_t sk = ssd_hdd_seek_ns(h, d);
		int64_t pos = t0 - at + sk + rot_wait(h, t0 + sk, l);
		if (pos < best_ns) {
			best_ns = pos;
			best = k;
		}
	}
	*done = serve(h, best, at, tag);
	return 1;
}

void ssd_hdd_tag_waiting(struct ssd_hdd *h, uint32_t tag)
{
	if (h->nq)
		h->q[h->nq - 1].tag = tag;
}

int64_t ssd_hdd_submit_q(struct ssd_hdd *h, int ddir, int fua, uint64_t offset,
			 uint32_t len, int64_t t)
{
	int d = ddir & 0xff;
	if (!h->sptf || d == SSD_DDIR_TRIM || (d != SSD_DDIR_READ &&
	    d != SSD_DDIR_WRITE) || !len || offset > h->capacity ||
	    len > h->capacity - offset)
		return ssd_hdd_submit(h, ddir, fua, offset, len, t);
	if (t < h->now)
		t = h->now;
	int write = d == SSD_DDIR_WRITE;
	if (!h->nq) {
		/* nothing waits: the background work up to t first, as an
		 * unqueued command has it (so that at queue depth 1 the two
		 * orders give the same times) */
		h->now = t;
		run_bg(h, t);
		if (!needs_head(h, write, fua, offset, offset + len, t) ||
		    h->bg_t <= t + h->overhead)
			return ssd_hdd_submit(h, ddir, fua, offset, len, t);
	}
	if (!needs_head(h, write, fua, offset, offset + len, t)) {
		/* a hit or a cached write does not wait for the head */
		h->now = t;
		return write ? do_write(h, offset, offset + len, fua, t)
			     : do_read(h, offset, offset + len, t);
	}
	h->now = t;
	if (h->nq == h->qcap) {
		struct qcmd *q = ssd_grow(h->q, &h->qcap, sizeof *q, 64);
		if (!q)
			return SSD_ENOMEM;
		h->q = q;
	}
	h->q[h->nq++] = (struct qcmd){.a = offset, .b = offset + len, .t = t,
				      .write = write};
	return SSD_EPENDING;
}

void ssd_hdd_stats(const struct ssd_hdd *h, struct ssd_hdd_stats *s)
{
	*s = h->st;
}

/* ---- pure functions ---- */

void ssd_hdd_geometry(const struct ssd_hdd *h, struct ssd_hdd_geom *g)
{
	g->zones = h->nzones;
	g->tracks_per_zone = h->tracks_per_zone;
	g->cylinders = h->ntracks;
	g->rev_ns = 60e9 / h->rpm;
	g->switch_ns = h->sw_ns;
	g->seek_exact = h->exact;
	g->seek_s = h->s;
	g->seek_a = h->a;
	g->seek_b = h->b;
}

int ssd_hdd_zone_info(const struct ssd_hdd *h, uint32_t z,
		      struct ssd_hdd_zone *zi)
{
	if (z >= h->nzones)
		return SSD_EINVAL;
	const struct zone *zn = &h->zone[z];
	*zi = (struct ssd_hdd_zone){zn->start, zn->bytes, zn->first_track,
				    zn->track_bytes, zn->mbps};
	return 0;
}

double ssd_hdd_zone_mbps(const struct ssd_hdd *h, uint32_t z)
{
	return z < h->nzones ? h->zone[z].mbps : 0;
}

int ssd_hdd_locate(const struct ssd_hdd *h, uint64_t offset,
		   struct ssd_hdd_pos *p)
{
	if (offset >= h->capacity)
		return SSD_EINVAL;
	struct loc l = locate(h, offset);
	p->zone = (uint32_t)(l.z - h->zone);
	p->track = l.track;
	p->in_track = (uint32_t)l.in;
	p->angle = (double)angle_of(h, l) / (double)ANG_TURN;
	return 0;
}

int64_t ssd_hdd_rot_wait_ns(const struct ssd_hdd *h, int64_t t,
			    uint64_t offset)
{
	if (offset >= h->capacity)
		return SSD_EINVAL;
	return rot_wait(h, t, locate(h, offset));
}

int64_t ssd_hdd_xfer_ns(const struct ssd_hdd *h, uint64_t offset, uint64_t len)
{
	if (offset > h->capacity || len > h->capacity - offset)
		return SSD_EINVAL;
	return xfer_ns(h, offset, len);
}
