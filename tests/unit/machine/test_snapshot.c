/* Drive snapshots (machine/snapshot.h): a loaded drive is the saved one --
 * saved again it gives the same file, byte for byte, and the commands
 * that follow complete at the same times with the same counters on both
 * -- and what cannot be saved or loaded is refused by name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "machine/device.h"
#include "machine/snapshot.h"
#include "t.h"
#include "t_power.h"
#include "t_sim.h"

static char err[640];

static const char *tmp(const char *name)
{
	static char p[4][256];
	static int k;
	k = (k + 1) % 4;
	snprintf(p[k], sizeof p[k], "/tmp/ssdlab-snap-%d-%s", (int)getpid(), name);
	return p[k];
}

/* tiny with `sets` ("KEY=VALUE"), finished. */
static int drive_cfg(struct ssd_config *c, const char *const *sets, int n)
{
	return t_sim_config(c, "tiny", sets, n, err, sizeof err);
}

/* n commands from the generator: writes of 4-64 KiB, some sub-page,
 * reads, trims, a flush now and then, idle gaps.  Returns the sum of the
 * completion times (or a negative error), *t the latest submission. */
static int64_t work(struct ssd_dev *d, struct ssd_rng *g, int n, int64_t *t)
{
	int64_t sum = 0;
	uint64_t cap = ssd_dev_capacity(d);
	for (int i = 0; i < n; i++) {
		uint64_t r = ssd_rng_next(g);
		uint32_t len = (uint32_t)(1 + r % 16) * 4096;
		if (r % 11 == 0)
			len = 2048;
		uint64_t off = (r >> 20) % (cap / 4096) * 4096;
		if (off + len > cap)
			off = cap - len;
		int kind = (int)(r >> 60) % 8;
		int64_t c;
		*t += (int64_t)(r >> 40 & 0xff) * 100;
		if (kind == 7 && r % 5 == 0)
			*t += 20000000; /* 20 ms idle: background work */
		if (kind < 4)
			c = ssd_dev_submit(d, SSD_DDIR_WRITE, off, len, *t);
		else if (kind < 6)
			c = ssd_dev_submit(d, SSD_DDIR_READ, off, len, *t);
		else if (kind == 6)
			c = ssd_dev_submit(d, SSD_DDIR_TRIM, off, len, *t);
		else
			c = ssd_dev_flush(d, *t);
		if (c < 0)
			return c;
		sum += c;
	}
	return sum;
}

static int same_file(const char *a, const char *b)
{
	FILE *x = fopen(a, "rb"), *y = fopen(b, "rb");
	int same = x && y;
	while (same) {
		int ca = fgetc(x), cb = fgetc(y);
		same = ca == cb;
		if (ca == EOF)
			break;
	}
	if (x)
		fclose(x);
	if (y)
		fclose(y);
	return same;
}

/* A zoned drive's commands from the generator: writes and Zone Appends
 * at the write pointers of a dozen zones, writes into random write
 * areas, resets of full zones, opens (some with an area), closes,
 * finishes, ZRWA flushes, reads, flushes.  As work(). */
static int64_t zwork(struct ssd_dev *d, struct ssd_rng *g, int n, int64_t *t)
{
	int64_t sum = 0;
	struct ssd_zoned_info zi;
	if (!ssd_dev_zoned(d, &zi))
		return SSD_EINVAL;
	uint32_t nz = zi.nzones < 12 ? (uint32_t)zi.nzones : 12;
	for (int i = 0; i < n; i++) {
		uint64_t r = ssd_rng_next(g);
		uint32_t z = (uint32_t)(r % nz);
		struct ssd_zone_desc zd;
		ssd_dev_zone_report(d, z, &zd);
		uint64_t end = zd.start + zd.cap;
		uint32_t len = (uint32_t)(1 + (r >> 8) % 8) * 4096;
		int kind = (int)((r >> 16) % 16);
		int64_t c;
		*t += (int64_t)(r >> 40 & 0xff) * 100;
		if (zd.state == SSD_ZNS_ZSF || (kind == 15 && zd.wp != zd.start)) {
			c = ssd_dev_zone_send(d, SSD_ZNS_ACT_RESET, zd.start, 0, *t);
		} else if (kind == 14 && zd.state == SSD_ZNS_ZSE) {
			c = ssd_dev_zone_send(d, SSD_ZNS_ACT_OPEN, zd.start,
					      r >> 30 & 1 ? SSD_ZNS_ZRWAA : 0, *t);
		} else if (kind == 13) {
			c = ssd_dev_zone_send(d, SSD_ZNS_ACT_CLOSE, zd.start, 0, *t);
		} else if (kind == 12 && r % 7 == 0) {
			c = ssd_dev_zone_send(d, SSD_ZNS_ACT_FINISH, zd.start, 0, *t);
		} else if (kind == 11 && zd.wp < end) {
			c = ssd_dev_zone_send(d, SSD_ZNS_ACT_ZRWA_FLUSH, zd.wp, 0, *t);
		} else if (kind < 3) {
			uint64_t off = zd.start + (r >> 24) % (zd.cap / 4096) * 4096;
			c = ssd_dev_submit(d, SSD_DDIR_READ, off, 4096, *t);
		} else if (kind == 3) {
			c = ssd_dev_flush(d, *t);
		} else {
			/* at the write pointer (or anywhere in an area's
			 * window), as much as the zone takes */
			uint64_t off = zd.wp + (zd.attr & SSD_ZNS_ATTR_ZRWAV
						? (r >> 33) % 4 * 4096 : 0);
			if (off >= end)
				off = zd.wp;
			if (off + len > end)
				len = (uint32_t)(end - off);
			int app = kind == 4 && !(zd.attr & SSD_ZNS_ATTR_ZRWAV);
			c = ssd_dev_submit(d, SSD_DDIR_WRITE |
					   (app ? SSD_BLK_APPEND : 0),
					   app ? zd.start : off, len, *t);
		}
		/* the zone errors the generator walks into are the drive's
		 * answers too: they must come out the same on both */
		if (c <= -0x1000 && c >= -0x11ff)
			c = -c;
		if (c < 0)
			return c;
		sum += c;
	}
	return sum;
}

/* FDP: work() with a placement handle on each write (0 to 3; the drive
 * has 3, so some name none it has and fail, counted). */
static int64_t fwork(struct ssd_dev *d, struct ssd_rng *g, int n, int64_t *t)
{
	int64_t sum = 0;
	uint64_t cap = ssd_dev_capacity(d);
	for (int i = 0; i < n; i++) {
		uint64_t r = ssd_rng_next(g);
		uint32_t len = (uint32_t)(1 + r % 16) * 4096;
		uint64_t off = (r >> 20) % (cap / 4096) * 4096;
		if (off + len > cap)
			off = cap - len;
		int kind = (int)(r >> 60) % 8, h = (int)(r >> 8) % 4;
		if (r % 97 == 0)
			h = 5;
		*t += (int64_t)(r >> 40 & 0xff) * 100;
		int64_t c;
		if (kind < 5)
			c = ssd_dev_submit(d, SSD_DDIR_WRITE | SSD_BLK_PLACEMENT(h),
					   off, len, *t);
		else if (kind < 7)
			c = ssd_dev_submit(d, SSD_DDIR_READ, off, len, *t);
		else
			c = ssd_dev_flush(d, *t);
		if (c == SSD_FDP_EPID)
			c = 1;
		if (c < 0)
			return c;
		sum += c;
	}
	return sum;
}

/* FDP with two reclaim groups: identifiers naming a group (the group in
 * bit 15), none, or one the drive lacks, and now and then a handle
 * update (a reclaim unit closed before it is full, an event). */
static int64_t gwork(struct ssd_dev *d, struct ssd_rng *g, int n, int64_t *t)
{
	int64_t sum = 0;
	uint64_t cap = ssd_dev_capacity(d);
	for (int i = 0; i < n; i++) {
		uint64_t r = ssd_rng_next(g);
		uint32_t len = (uint32_t)(1 + r % 8) * 4096;
		uint64_t off = (r >> 20) % (cap / 4096) * 4096;
		if (off + len > cap)
			off = cap - len;
		int kind = (int)(r >> 60) % 8;
		uint32_t pid = (uint32_t)(r >> 8 & 1) << 15 | (uint32_t)(r >> 9) % 3;
		*t += (int64_t)(r >> 40 & 0xff) * 100;
		int64_t c;
		if (r % 89 == 0) {
			c = ssd_dev_fdp_update(d, &pid, 1, *t);
		} else if (kind < 5) {
			int bits = r % 7 == 0 ? 0 : SSD_BLK_PLACEMENT(pid);
			c = ssd_dev_submit(d, SSD_DDIR_WRITE | bits, off, len, *t);
		} else if (kind < 7) {
			c = ssd_dev_submit(d, SSD_DDIR_READ, off, len, *t);
		} else {
			c = ssd_dev_flush(d, *t);
		}
		if (c == SSD_FDP_EPID)
			c = 1;
		if (c < 0)
			return c;
		sum += c;
	}
	return sum;
}

typedef int64_t work_fn(struct ssd_dev *, struct ssd_rng *, int, int64_t *);

/* Save after `pre` commands, load, save again: the same bytes; then the
 * same commands on both drives: the same completions and counters. */
static void round_trip_with(const char *const *sets, int n, work_fn *wk)
{
	struct ssd_config c;
	CHECKF(!drive_cfg(&c, sets, n), "%s", err);
	struct ssd_dev *a = NULL, *b = NULL;
	CHECK(!ssd_dev_create(&c, 7, &a));
	struct ssd_rng g;
	ssd_rng_seed(&g, 99);
	int64_t t = 0;
	CHECK(wk(a, &g, 40000, &t) >= 0);
	const char *p1 = tmp("a"), *p2 = tmp("b");
	CHECKF(!ssd_snapshot_save(a, p1, err, sizeof err), "%s", err);
	CHECKF(!ssd_snapshot_load(p1, &c, &b, err, sizeof err), "%s", err);
	CHECKF(!ssd_snapshot_save(b, p2, err, sizeof err), "%s", err);
	CHECK(same_file(p1, p2));
	CHECK(ssd_dev_time(a) == ssd_dev_time(b));
	struct ssd_rng g2 = g;
	int64_t ta = t, tb = t;
	int64_t sa = wk(a, &g, 30000, &ta), sb = wk(b, &g2, 30000, &tb);
	CHECK(sa > 0 && sa == sb);
	CHECK(!memcmp(ssd_dev_counters(a), ssd_dev_counters(b),
		      sizeof(struct ssd_counters)));
	char why[384];
	CHECKF(!ssd_ftl_check(b->ftl, why, sizeof why), "%s", why);
	unlink(p1);
	unlink(p2);
	ssd_dev_destroy(a);
	ssd_dev_destroy(b);
}

static void round_trip(const char *const *sets, int n)
{
	round_trip_with(sets, n, work);
}

TEST(snapshot_round_trip_zoned)
{
	/* zones on two units, open and active limits, random write areas;
	 * with the write buffer and a finish that marks */
	const char *s[] = {"mapping=zone", "zone_units=2", "max_open_zones=3",
			   "max_active_zones=5", "zrwa_size=64k",
			   "zone_finish=mark"};
	round_trip_with(s, 6, zwork);
	const char *s2[] = {"mapping=zone", "write_buffer=256k"};
	round_trip_with(s2, 2, zwork);
}

TEST(snapshot_round_trip_fdp)
{
	const char *s[] = {"fdp=yes", "fdp_handles=3", "op=0.15",
			   "write_buffer=256k"};
	round_trip_with(s, 4, fwork);
	const char *s2[] = {"fdp=yes", "fdp_handles=3", "op=0.15",
			    "fdp_isolation=persistent"};
	round_trip_with(s2, 4, fwork);
	/* reclaim groups, updates and the events log, with the write
	 * buffer holding pages of every stream */
	const char *s3[] = {"fdp=yes", "fdp_handles=2", "fdp_groups=2",
			    "op=0.3", "write_buffer=256k"};
	round_trip_with(s3, 5, gwork);
	const char *s4[] = {"fdp=yes", "fdp_handles=2", "fdp_groups=2",
			    "op=0.4", "fdp_isolation=persistent"};
	round_trip_with(s4, 5, gwork);
}

TEST(snapshot_round_trip_tiny)
{
	round_trip(NULL, 0);
}

TEST(snapshot_round_trip_buffer_cache_queue_readahead)
{
	const char *s[] = {"write_buffer=256k", "map_cache=16k",
			   "trim_mode=background", "read_ahead=64k",
			   "gc_policy=cost-benefit"};
	round_trip(s, 5);
}

TEST(snapshot_round_trip_slc_cache_and_policies)
{
	const char *s[] = {"slc_cache=dynamic", "slc_cache_size=4m",
			   "gc_policy=fifo", "trim_mode=deferred"};
	round_trip(s, 4);
	const char *s2[] = {"slc_cache=static", "slc_cache_size=2m", "op=0.25",
			    "gc_policy=random"};
	round_trip(s2, 4);
}

TEST(snapshot_refuses_what_it_does_not_hold)
{
	struct ssd_config c;
	char buf[256];
	const char *pc[] = {"page_cache=8m"};
	CHECKF(!drive_cfg(&c, pc, 1), "%s", err);
	const char *why = ssd_snapshot_refusal(&c, buf, sizeof buf);
	CHECK(why && strstr(why, "page cache"));
	struct ssd_dev *d = NULL;
	CHECK(!ssd_dev_create(&c, 1, &d));
	const char *p = tmp("x");
	unlink(p);
	CHECK(ssd_snapshot_save(d, p, err, sizeof err) == SSD_EUNSUP);
	CHECK(strstr(err, "page cache") && access(p, F_OK) != 0);
	ssd_dev_destroy(d);
	/* power-loss tracking */
	d = t_power_drive(NULL, 0, err, sizeof err);
	CHECKF(d, "%s", err);
	CHECK(ssd_snapshot_save(d, p, err, sizeof err) == SSD_EUNSUP);
	CHECKF(strstr(err, "power-loss tracking"), "%s", err);
	CHECK(access(p, F_OK) != 0);
	ssd_dev_destroy(d);
	/* block mapping */
	const char *bm[] = {"mapping=block"};
	CHECKF(!drive_cfg(&c, bm, 1), "%s", err);
	CHECK(!ssd_dev_create(&c, 1, &d));
	CHECK(ssd_snapshot_save(d, p, err, sizeof err) == SSD_EUNSUP);
	CHECKF(strstr(err, "mapping = block"), "%s", err);
	ssd_dev_destroy(d);
}

TEST(snapshot_load_names_the_key_that_differs)
{
	struct ssd_config c, o;
	CHECK(!drive_cfg(&c, NULL, 0));
	const char *op[] = {"op=0.2"};
	CHECK(!drive_cfg(&o, op, 1));
	struct ssd_dev *d = NULL;
	CHECK(!ssd_dev_create(&c, 1, &d));
	const char *p = tmp("k");
	CHECKF(!ssd_snapshot_save(d, p, err, sizeof err), "%s", err);
	ssd_dev_destroy(d);
	d = NULL;
	CHECK(ssd_snapshot_load(p, &o, &d, err, sizeof err) == SSD_EPARSE);
	CHECKF(strstr(err, "op is 0.07 in it, 0.2 here"), "%s", err);
	CHECK(!d);
	/* the drive's own text reads back as the same drive */
	CHECK(!ssd_snapshot_drive(p, &o, err, sizeof err));
	CHECKF(!ssd_snapshot_load(p, &o, &d, err, sizeof err), "%s", err);
	ssd_dev_destroy(d);
	unlink(p);
}

TEST(snapshot_config_text_diff)
{
	char k[64], a[64], b[64];
	CHECK(!ssd_config_text_diff("name = x\ncapacity = 1g  # bytes\n"
				    "mem_check = no\n",
				    "name = y  # text\ncapacity = 1g\n"
				    "mem_check = yes\n", k, sizeof k, a, b,
				    sizeof a));
	CHECK(ssd_config_text_diff("capacity = 1g\nop = 0.1 # x\n",
				   "capacity = 1g\nop = 0.2\n", k, sizeof k, a,
				   b, sizeof a));
	CHECK(!strcmp(k, "op") && !strcmp(a, "0.1") && !strcmp(b, "0.2"));
	/* derived keys, printed as comments, count; quoted values keep '#' */
	CHECK(ssd_config_text_diff("# blocks_per_plane = 4 # derived\n",
				   "# blocks_per_plane = 8\n", k, sizeof k, a,
				   b, sizeof a));
	CHECK(!strcmp(k, "blocks_per_plane"));
	CHECK(ssd_config_text_diff("d2 = \"a # b\" # c\n", "d2 = \"a # c\"\n",
				   k, sizeof k, a, b, sizeof a));
	CHECK(!strcmp(a, "\"a # b\""));
	/* a key only one side has */
	CHECK(ssd_config_text_diff("a = 1\n", "a = 1\nb = 2\n", k, sizeof k, a,
				   b, sizeof a));
	CHECK(!strcmp(k, "b") && !strcmp(a, "(not set)"));
}
