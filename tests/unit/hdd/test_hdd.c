/* The hard disk model (src/hdd/hdd.h): the seek curve through its three
 * points, the rotational wait, zones and the LBA mapping, read-ahead,
 * the write cache, flush, TRIM, determinism, allocation failure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/config.h"
#include "base/io.h"
#include "base/util.h"
#include "hdd/hdd.h"
#include "t.h"
#include "t_alloc.h"

#ifndef SSDLAB_PRESET_DIR
#define SSDLAB_PRESET_DIR "presets"
#endif

static char err[256];

/* The defaults as a hard disk, with KEY=VALUE pairs over them (NULL
 * ends); 0 or the error. */
static int hdd_config(struct ssd_config *c, const char *const *kv)
{
	ssd_config_defaults(c);
	int rc = ssd_config_set(c, "type", "hdd", NULL, err, sizeof err);
	for (int i = 0; !rc && kv && kv[i]; i += 2)
		rc = ssd_config_set(c, kv[i], kv[i + 1], NULL, err, sizeof err);
	return rc ? rc : ssd_config_finish(c, err, sizeof err);
}

static struct ssd_hdd *make(const char *const *kv)
{
	struct ssd_config c;
	struct ssd_hdd *h = NULL;
	if (hdd_config(&c, kv)) {
		fprintf(stderr, "    config: %s\n", err);
		return NULL;
	}
	if (ssd_hdd_create(&c, &h))
		return NULL;
	return h;
}

static struct ssd_hdd *make_preset(const char *name)
{
	struct ssd_config c;
	struct ssd_hdd *h = NULL;
	ssd_config_defaults(&c);
	if (ssd_config_open(&c, name, SSDLAB_PRESET_DIR, err, sizeof err) ||
	    ssd_config_finish(&c, err, sizeof err)) {
		fprintf(stderr, "    %s: %s\n", name, err);
		return NULL;
	}
	if (ssd_hdd_create(&c, &h))
		return NULL;
	return h;
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint64_t capacity_of(const struct ssd_hdd *h)
{
	struct ssd_hdd_geom g;
	struct ssd_hdd_zone z;
	uint64_t cap = 0;
	ssd_hdd_geometry(h, &g);
	for (uint32_t i = 0; i < g.zones; i++)
		if (!ssd_hdd_zone_info(h, i, &z))
			cap += z.bytes;
	return cap;
}

/* The three points, the fit's coefficients solved again by Cramer's
 * rule here, and a rising curve. */
static int seek_ok(const struct ssd_hdd *h, int64_t t1, int64_t ta, int64_t tf,
		   int want_exact)
{
	struct ssd_hdd_geom g;
	ssd_hdd_geometry(h, &g);
	double C = (double)g.cylinders;
	if (g.seek_exact != want_exact) {
		fprintf(stderr, "    seek_exact %d, want %d\n", g.seek_exact, want_exact);
		return 0;
	}
	if (ssd_hdd_seek_ns(h, 0) != 0 || ssd_hdd_seek_ns(h, 1) != t1 ||
	    llabs(ssd_hdd_seek_ns(h, g.cylinders - 1) - tf) > 1)
		return 0;
	/* C/3 need not be whole: the curve there is within a cylinder's
	 * slope of tA */
	uint64_t d3 = g.cylinders / 3;
	int64_t slope = ssd_hdd_seek_ns(h, d3 + 1) - ssd_hdd_seek_ns(h, d3);
	if (llabs(ssd_hdd_seek_ns(h, d3) - ta) > slope + 1)
		return 0;
	if (want_exact) {
		double xa = sqrt(C / 3) - 1, ya = C / 3 - 1;
		double xf = sqrt(C - 1) - 1, yf = C - 2;
		double det = xa * yf - xf * ya;
		double a = ((ta - t1) * yf - (double)(tf - t1) * ya) / det;
		double b = (xa * (tf - t1) - xf * (double)(ta - t1)) / det;
		if (fabs(a - g.seek_a) > 1e-6 * a || fabs(b - g.seek_b) > 1e-6 * b ||
		    fabs(t1 - a - b - g.seek_s) > 1)
			return 0;
	}
	int64_t prev = 0;
	for (uint64_t d = 1; d < g.cylinders; d += 1 + d / 7) {
		int64_t s = ssd_hdd_seek_ns(h, d);
		if (s < prev)
			return 0;
		prev = s;
	}
	return 1;
}

TEST(hdd_seek_curve_defaults_and_presets)
{
	struct ssd_hdd *h = make(NULL); /* 1 ms, 8.5 ms, 18 ms */
	CHECK(h);
	int ok = seek_ok(h, SSD_MS, 8500 * SSD_US, 18 * SSD_MS, 1);
	ssd_hdd_destroy(h);
	CHECK(ok);
	h = make_preset("hitachi-hdt725032vla360");
	CHECK(h);
	ok = seek_ok(h, SSD_MS, 9100 * SSD_US, 17 * SSD_MS, 1);
	ssd_hdd_destroy(h);
	CHECK(ok);
	h = make_preset("samsung-sp0802n");
	CHECK(h);
	ok = seek_ok(h, 800 * SSD_US, 9600 * SSD_US, 18 * SSD_MS, 1);
	ssd_hdd_destroy(h);
	CHECK(ok);
}

TEST(hdd_seek_curve_fallback)
{
	/* a full stroke hardly longer than the average: the fit would bend
	 * down (b < 0); the piecewise form goes through the same points */
	static const char *const flat[] = {"hdd_seek_track", "1ms",
		"hdd_seek_avg", "8ms", "hdd_seek_full", "9ms", NULL};
	struct ssd_hdd *h = make(flat);
	CHECK(h);
	int ok = seek_ok(h, SSD_MS, 8 * SSD_MS, 9 * SSD_MS, 0);
	ssd_hdd_destroy(h);
	CHECK(ok);
	/* a full stroke far longer: a < 0 */
	static const char *const steep[] = {"hdd_seek_track", "1ms",
		"hdd_seek_avg", "2ms", "hdd_seek_full", "150ms", NULL};
	h = make(steep);
	CHECK(h);
	ok = seek_ok(h, SSD_MS, 2 * SSD_MS, 150 * SSD_MS, 0);
	ssd_hdd_destroy(h);
	CHECK(ok);
}

TEST(hdd_rotational_wait)
{
	/* 6000 rpm: a turn is exactly 10 ms; a 1 ms track switch skews each
	 * track by a tenth of a turn */
	static const char *const kv[] = {"hdd_rpm", "6000", NULL};
	struct ssd_hdd *h = make(kv);
	CHECK(h);
	struct ssd_hdd_zone z0;
	struct ssd_hdd_pos p;
	CHECK(ssd_hdd_zone_info(h, 0, &z0) == 0);
	/* byte 0 is at angle 0: under the head at t = 0 and every 10 ms */
	CHECK(ssd_hdd_rot_wait_ns(h, 0, 0) == 0);
	CHECK(ssd_hdd_rot_wait_ns(h, 30 * SSD_MS, 0) == 0);
	/* it has just passed: almost a full turn */
	CHECK(ssd_hdd_rot_wait_ns(h, 10 * SSD_US, 0) == 10 * SSD_MS - 10 * SSD_US);
	CHECK(ssd_hdd_rot_wait_ns(h, 2500 * SSD_US, 0) == 7500 * SSD_US);
	/* the middle of track 0 is half a turn on */
	uint64_t mid = z0.track_bytes / 2;
	CHECK(ssd_hdd_locate(h, mid, &p) == 0);
	CHECK(p.track == 0 && fabs(p.angle - 0.5) < 1e-9);
	CHECK(ssd_hdd_rot_wait_ns(h, 0, mid) == 5 * SSD_MS);
	/* track 1 starts a tenth of a turn later: 1 ms */
	CHECK(ssd_hdd_locate(h, z0.track_bytes, &p) == 0);
	CHECK(p.track == 1 && p.in_track == 0 && fabs(p.angle - 0.1) < 1e-9);
	CHECK(ssd_hdd_rot_wait_ns(h, 0, z0.track_bytes) == SSD_MS);
	/* so reading off the end of track 0 goes on at once on track 1 */
	CHECK(ssd_hdd_xfer_ns(h, 0, z0.track_bytes) == 10 * SSD_MS);
	CHECK(ssd_hdd_xfer_ns(h, 0, z0.track_bytes + 512) ==
	      11 * SSD_MS + (10 * SSD_MS * 512 + z0.track_bytes - 1) / z0.track_bytes);
	ssd_hdd_destroy(h);
}

TEST(hdd_zones_and_mapping)
{
	struct ssd_hdd *h = make(NULL); /* 32 GiB, 16 zones, 100..50 MB/s */
	CHECK(h);
	struct ssd_hdd_geom g;
	ssd_hdd_geometry(h, &g);
	CHECK(g.zones == 16 && g.cylinders == 16 * g.tracks_per_zone);
	CHECK(fabs(g.rev_ns - 60e9 / 7200) < 1e-6 && g.switch_ns == SSD_MS);
	CHECK(ssd_hdd_zone_mbps(h, 0) == 100 && ssd_hdd_zone_mbps(h, 15) == 50);
	CHECK(fabs(ssd_hdd_zone_mbps(h, 3) - (100 - 50.0 * 3 / 15)) < 1e-9);
	CHECK(capacity_of(h) == 32ull << 30);
	uint64_t start = 0;
	for (uint32_t z = 0; z < g.zones; z++) {
		struct ssd_hdd_zone zi;
		CHECK(ssd_hdd_zone_info(h, z, &zi) == 0);
		/* a track holds R (T + t_sw), whole sectors */
		double want = zi.mbps * (g.rev_ns + (double)g.switch_ns) / 1000;
		CHECKF(zi.track_bytes % 512 == 0 && zi.track_bytes <= want &&
		       zi.track_bytes > want - 512, "zone %u: %u bytes a track", z,
		       zi.track_bytes);
		CHECK(zi.start == start && zi.first_track == z * g.tracks_per_zone);
		if (z + 1 < g.zones) /* all full but the innermost */
			CHECK(zi.bytes == g.tracks_per_zone * zi.track_bytes);
		start += zi.bytes;
		/* the zone's edges */
		struct ssd_hdd_pos p;
		CHECK(ssd_hdd_locate(h, zi.start, &p) == 0);
		CHECK(p.zone == z && p.track == zi.first_track && p.in_track == 0);
		CHECK(ssd_hdd_locate(h, zi.start + zi.bytes - 1, &p) == 0);
		CHECK(p.zone == z);
		if (z + 1 < g.zones)
			CHECK(p.track == zi.first_track + g.tracks_per_zone - 1 &&
			      p.in_track == zi.track_bytes - 1);
	}
	struct ssd_hdd_zone zi;
	CHECK(ssd_hdd_zone_info(h, 16, &zi) == SSD_EINVAL);
	struct ssd_hdd_pos p;
	CHECK(ssd_hdd_locate(h, 32ull << 30, &p) == SSD_EINVAL);
	ssd_hdd_destroy(h);

	/* one zone: the mean of the two rates; a tiny disk: the inner zones
	 * empty, the mapping still whole */
	static const char *const one[] = {"hdd_zones", "1", NULL};
	h = make(one);
	CHECK(h);
	CHECK(ssd_hdd_zone_mbps(h, 0) == 75);
	ssd_hdd_destroy(h);
	static const char *const tiny[] = {"capacity", "4m", "page_size", "4k",
		"pages_per_block", "16", "channels", "1", "dies_per_channel", "1",
		"planes_per_die", "1", NULL};
	h = make(tiny);
	CHECK(h);
	CHECK(capacity_of(h) == 4u << 20);
	CHECK(ssd_hdd_locate(h, (4u << 20) - 1, &p) == 0);
	for (uint64_t d = 1; d < 40; d++)
		CHECK(ssd_hdd_seek_ns(h, d) >= ssd_hdd_seek_ns(h, d - 1));
	int64_t t = ssd_hdd_submit(h, SSD_DDIR_WRITE, 0, (4u << 20) - 8192, 8192, 0);
	CHECK(t > 0);
	CHECK(ssd_hdd_submit(h, SSD_DDIR_READ, 0, 0, 4u << 20, t) > t);
	CHECK(ssd_hdd_flush(h, t) >= t);
	ssd_hdd_destroy(h);
}

TEST(hdd_sequential_read_ahead)
{
	struct ssd_hdd *h = make(NULL);
	CHECK(h);
	/* 64 MiB in 64 KiB reads at QD1 from LBA 0: one media read, the
	 * rest from the read-ahead, at the outer zone's rate */
	int64_t t = 0;
	uint64_t total = 64u << 20;
	for (uint64_t o = 0; o < total; o += 65536) {
		int64_t c = ssd_hdd_submit(h, SSD_DDIR_READ, 0, o, 65536, t);
		CHECK(c >= t);
		t = c;
	}
	struct ssd_hdd_stats s;
	ssd_hdd_stats(h, &s);
	CHECK(s.media_reads == 1);
	CHECK(s.stream_reads + s.hit_reads == total / 65536 - 1);
	double mbps = (double)total / ((double)t / 1e9) / 1e6;
	CHECKF(mbps > 0.97 * 100 && mbps <= 100.5, "%.2f MB/s", mbps);
	ssd_hdd_destroy(h);

	/* small reads from a host slower than the media (250 us a command):
	 * the read-ahead keeps ahead of them, they are buffer hits (a
	 * restarted read-ahead may cost a turn); a re-read of what was read
	 * is a hit too */
	static const char *const slow[] = {"cmd_overhead", "250us", NULL};
	h = make(slow);
	CHECK(h);
	t = 0;
	for (uint64_t o = 0; o < (4u << 20); o += 4096)
		t = ssd_hdd_submit(h, SSD_DDIR_READ, 0, o, 4096, t);
	ssd_hdd_stats(h, &s);
	CHECKF(s.media_reads == 1 && s.hit_reads > 1000 &&
	       s.hit_bytes > (3u << 20), "media %llu hits %llu",
	       (unsigned long long)s.media_reads, (unsigned long long)s.hit_reads);
	mbps = (double)(4u << 20) / ((double)t / 1e9) / 1e6;
	double host = 4096 / (250e-6 + 4096 / 3500e6) / 1e6;
	CHECKF(mbps > 0.95 * host, "%.2f MB/s, the host's %.2f", mbps, host);
	int64_t c = ssd_hdd_submit(h, SSD_DDIR_READ, 0, (4u << 20) - 8192, 4096,
				   t + SSD_S);
	CHECK(c - (t + SSD_S) < 300 * SSD_US);
	ssd_hdd_destroy(h);
}

TEST(hdd_random_read_latency)
{
	struct ssd_hdd *h = make(NULL);
	CHECK(h);
	uint64_t cap = 32ull << 30, n = 4000;
	struct ssd_hdd_geom g;
	ssd_hdd_geometry(h, &g);
	int64_t t = 0;
	double sum = 0, seeks = 0;
	uint64_t prev = 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t o = next() % (cap / 4096) * 4096;
		struct ssd_hdd_pos a, b;
		ssd_hdd_locate(h, prev, &a);
		ssd_hdd_locate(h, o, &b);
		seeks += (double)ssd_hdd_seek_ns(h, a.track > b.track ? a.track - b.track
							    : b.track - a.track);
		prev = o + 4095;
		int64_t c = ssd_hdd_submit(h, SSD_DDIR_READ, 0, o, 4096, t);
		CHECK(c > t);
		sum += (double)(c - t);
		t = c;
	}
	double mean = sum / n;
	/* the seeks this sequence makes, half a turn, the overhead and a
	 * 4 KiB transfer; the rotational waits vary by T/sqrt(12) each */
	double want = seeks / n + g.rev_ns / 2 + 2 * SSD_US + 4096 * 1e9 / 75e6;
	CHECKF(fabs(mean - want) < 0.3 * SSD_MS, "mean %.3f ms, want %.3f ms",
	       mean / 1e6, want / 1e6);
	/* and about the datasheet's sum: hdd_seek_avg (a third of the
	 * stroke, a little more than the mean seek) + T/2 */
	double sheet = 8.5e6 + g.rev_ns / 2;
	CHECKF(mean < sheet && mean > 0.85 * sheet, "mean %.3f ms", mean / 1e6);
	ssd_hdd_destroy(h);
}

TEST(hdd_write_cache)
{
	/* a 1 MiB buffer: sixteen 64 KiB writes fit, the 17th waits */
	static const char *const kv[] = {"hdd_cache", "1m", "hdd_read_ahead",
					 "64k", NULL};
	struct ssd_hdd *h = make(kv);
	CHECK(h);
	int64_t t = 0;
	for (int i = 0; i < 17; i++) {
		uint64_t o = (next() % 30000) * (1u << 20);
		int64_t c = ssd_hdd_submit(h, SSD_DDIR_WRITE, 0, o, 65536, t);
		if (i < 16)
			CHECKF(c - t < 100 * SSD_US, "write %d: %lld ns", i,
			       (long long)(c - t));
		else
			CHECKF(c - t > SSD_MS, "write %d: %lld ns", i,
			       (long long)(c - t));
		t = c;
	}
	struct ssd_hdd_stats s;
	ssd_hdd_stats(h, &s);
	CHECK(s.wc_writes == 17 && s.wc_waits == 1 && s.destages >= 1);
	/* FUA waits for the platters */
	int64_t c = ssd_hdd_submit(h, SSD_DDIR_WRITE, 1, 5u << 20, 4096, t);
	CHECK(c - t > SSD_MS);
	ssd_hdd_stats(h, &s);
	CHECK(s.wc_writes == 17);
	ssd_hdd_destroy(h);

	/* without the write cache every write waits for its media write */
	static const char *const off[] = {"hdd_write_cache", "no", NULL};
	h = make(off);
	CHECK(h);
	t = 0;
	for (int i = 0; i < 20; i++) {
		uint64_t o = (next() % 1000) * (1u << 20);
		c = ssd_hdd_submit(h, SSD_DDIR_WRITE, 0, o, 4096, t);
		CHECK(c - t >= ssd_hdd_xfer_ns(h, o, 4096));
		t = c;
	}
	ssd_hdd_stats(h, &s);
	CHECK(s.wc_writes == 0 && s.media_writes == 20);
	ssd_hdd_destroy(h);
}

TEST(hdd_flush_waits_for_cached_writes)
{
	struct ssd_hdd *h = make(NULL);
	CHECK(h);
	int64_t t = 0;
	for (int i = 0; i < 8; i++) {
		uint64_t o = (next() % 30000) * (1u << 20);
		int64_t c = ssd_hdd_submit(h, SSD_DDIR_WRITE, 0, o, 4096, t);
		CHECK(c - t < 100 * SSD_US);
		t = c;
	}
	/* eight scattered writes: at least eight track-to-track seeks */
	int64_t f = ssd_hdd_flush(h, t);
	CHECKF(f - t > 8 * SSD_MS, "flush took %lld ns", (long long)(f - t));
	struct ssd_hdd_stats s;
	ssd_hdd_stats(h, &s);
	CHECK(s.destages == 8 && s.destage_bytes == 8 * 4096 && s.flushes == 1);
	/* nothing left: the next flush is only the command */
	int64_t f2 = ssd_hdd_flush(h, f);
	CHECK(f2 == f + 2 * SSD_US);
	/* idle time destages too: a write, then idle, then a quick flush */
	t = ssd_hdd_submit(h, SSD_DDIR_WRITE, 0, 123u << 20, 4096, f2);
	CHECK(ssd_hdd_idle(h, t + SSD_S) == 0);
	ssd_hdd_stats(h, &s);
	CHECK(s.destages == 9);
	CHECK(ssd_hdd_flush(h, t + SSD_S) == t + SSD_S + 2 * SSD_US);
	ssd_hdd_destroy(h);
}

TEST(hdd_trim_refused)
{
	struct ssd_hdd *h = make(NULL);
	CHECK(h);
	CHECK(ssd_hdd_submit(h, SSD_DDIR_TRIM, 0, 0, 1u << 20, 0) == SSD_EUNSUP);
	CHECK(ssd_hdd_submit(h, SSD_DDIR_READ, 0, 32ull << 30, 4096, 0) == SSD_EINVAL);
	CHECK(ssd_hdd_submit(h, SSD_DDIR_READ, 0, 0, 0, 0) == SSD_EINVAL);
	struct ssd_hdd_stats s;
	ssd_hdd_stats(h, &s);
	CHECK(s.trims == 1 && s.media_reads == 0);
	ssd_hdd_destroy(h);
}

/* A mixed run: reads and writes, sequential and random, FUA, flushes and
 * idle time, at times that do not wait for completions; its completions
 * into out[]. */
static int mixed_run(struct ssd_hdd *h, int64_t *out, int n)
{
	uint64_t r = 12345;
	int64_t t = 0;
	uint64_t seq = 0;
	for (int i = 0; i < n; i++) {
		r = r * 6364136223846793005ULL + 1442695040888963407ULL;
		uint64_t x = r >> 33;
		int dir = x % 3 == 0 ? SSD_DDIR_WRITE : SSD_DDIR_READ;
		uint32_t len = 4096u << (x % 6);
		uint64_t o = x % 4 == 0 ? seq : (x % 800000) * 4096;
		seq = o + len;
		if (seq >= (32ull << 30) - (1u << 20))
			seq = 0;
		int64_t c;
		if (x % 97 == 0)
			c = ssd_hdd_flush(h, t);
		else
			c = ssd_hdd_submit(h, dir, x % 50 == 0, o, len, t);
		if (c < t)
			return 0;
		out[i] = c;
		if (x % 61 == 0)
			ssd_hdd_idle(h, t + 50 * SSD_MS);
		t += x % 61 == 0 ? 50 * SSD_MS : (int64_t)(x % 7) * SSD_MS;
	}
	return 1;
}

TEST(hdd_time_order_and_determinism)
{
	enum { N = 3000 };
	static int64_t a[N], b[N];
	struct ssd_hdd *h1 = make(NULL), *h2 = make(NULL);
	CHECK(h1 && h2);
	int ok = mixed_run(h1, a, N) && mixed_run(h2, b, N);
	struct ssd_hdd_stats s1, s2;
	ssd_hdd_stats(h1, &s1);
	ssd_hdd_stats(h2, &s2);
	ssd_hdd_destroy(h1);
	ssd_hdd_destroy(h2);
	CHECK(ok);
	CHECK(memcmp(a, b, sizeof a) == 0);
	CHECK(memcmp(&s1, &s2, sizeof s1) == 0);
	CHECK(s1.media_reads && s1.wc_writes && s1.destages && s1.hit_reads);
}

TEST(hdd_create_errors)
{
	struct ssd_config c;
	CHECK(hdd_config(&c, NULL) == 0);
	struct ssd_hdd *h = (struct ssd_hdd *)&c;
	for (long n = 1; n <= 3; n++) {
		t_alloc_fail_at(n);
		int rc = ssd_hdd_create(&c, &h);
		int failed = t_alloc_failed();
		t_alloc_fail_at(0);
		if (!failed) {
			CHECK(rc == 0);
			ssd_hdd_destroy(h);
			break;
		}
		CHECK(rc == SSD_ENOMEM && h == NULL);
	}
	ssd_config_defaults(&c); /* an SSD */
	CHECK(ssd_config_finish(&c, err, sizeof err) == 0);
	CHECK(ssd_hdd_create(&c, &h) == SSD_EINVAL && h == NULL);
	ssd_hdd_destroy(NULL);
}
