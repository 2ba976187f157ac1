/* The memory estimate against the bytes a build allocates: drives of
 * several shapes (mappings, GC policies, caches, TRIM modes, write
 * buffers, host layers, a hard disk), each built while the heap and the
 * anonymous mappings are counted (t_alloc_live), must come within 5% of
 * ssd_dev_mem's figure less the program's fixed SSD_MEM_PROGRAM; so must
 * verification's tables once attached, and power-loss tracking's with a
 * cut's rebuild, its peak noted.  A table that changes without its
 * estimate fails here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "base/sysmem.h"
#include "machine/device.h"
#include "machine/verify.h"
#include "methods/preset.h"
#include "t.h"
#include "t_alloc.h"
#include "t_power.h"

static char err[512];

/* preset with "key=value" overrides, as --set gives them (the shape
 * adapting to the capacity); 0 or -1 (err set) */
static int config(struct ssd_config *c, const char *preset, const char *sets)
{
	char buf[512];
	const char *kv[16];
	int n = 0;
	snprintf(buf, sizeof buf, "%s", sets);
	for (char *s = strtok(buf, " "); s && n < 16; s = strtok(NULL, " "))
		kv[n++] = s;
	return ssd_preset_load("presets", preset, kv, n, c, err, sizeof err) ? -1 : 0;
}

/* Within 5% of what was counted (the estimate counts the same arrays,
 * so the slack is malloc's headers and page rounding; BENCHMARKS.md
 * holds the whole process's peak to 20%).  T_MEM_SHOW=1 prints both. */
static int close_to(unsigned long long est, unsigned long long got)
{
	if (getenv("T_MEM_SHOW"))
		fprintf(stderr, "    estimated %llu, allocated %llu (%.3f)\n", est,
			got, (double)est / (double)got);
	return est <= got * 1.05 && est >= got * 0.95;
}

static const struct {
	const char *preset, *sets;
} shapes[] = {
	{"tiny", ""},
	{"default", "capacity=1g"},
	{"default", "capacity=4g"},
	{"default", "capacity=2g write_buffer=64m read_ahead=1m"},
	{"default", "capacity=2g map_cache=64k trim_mode=deferred"},
	{"default", "capacity=2g gc_policy=cost-benefit"},
	{"default", "capacity=2g gc_policy=fifo slc_cache=dynamic slc_cache_size=64m"},
	{"mlc", "capacity=1g gc_policy=random"},
	{"tiny", "capacity=512m mapping=bast"},
	{"tiny", "capacity=512m mapping=fast"},
	{"tiny", "capacity=512m mapping=block"},
	{"default", "capacity=1g page_cache=256m"},
	{"default", "capacity=1g mft=yes"},
	{"default", "capacity=1g raid=0 raid_members=3"},
	{"default", "capacity=1g raid=0 mft=yes page_cache=64m"},
	{"hitachi-hdt725032vla360", "page_cache=64m"},
};

TEST(mem_estimate_matches_what_a_build_allocates)
{
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
		struct ssd_config c;
		CHECKF(!config(&c, shapes[i].preset, shapes[i].sets), "%s %s: %s",
		       shapes[i].preset, shapes[i].sets, err);
		struct ssd_mem m;
		uint64_t est = ssd_dev_mem(&c, 0, &m) - m.program;
		CHECK(m.program == SSD_MEM_PROGRAM && !m.verify && !m.power && !m.run);
		unsigned long long before = t_alloc_live();
		struct ssd_dev *d = NULL;
		CHECK(!ssd_dev_create(&c, 1, &d));
		unsigned long long got = t_alloc_live() - before;
		ssd_dev_destroy(d);
		CHECKF(close_to(est, got), "%s %s: estimated %llu bytes, allocated %llu",
		       shapes[i].preset, shapes[i].sets, (unsigned long long)est, got);
	}
}

TEST(mem_estimate_counts_verification)
{
	const char *caps[] = {"64m", "1g", "4g"};
	for (int i = 0; i < 3; i++) {
		char sets[64];
		snprintf(sets, sizeof sets, "capacity=%s", caps[i]);
		struct ssd_config c;
		CHECKF(!config(&c, "default", sets), "%s", err);
		struct ssd_mem m0, m;
		ssd_dev_mem(&c, 0, &m0);
		ssd_dev_mem(&c, SSD_MEM_VERIFY, &m);
		CHECK(m.ftl == m0.ftl && m.verify > 0 && !m.power);
		struct ssd_dev *d = NULL;
		CHECK(!ssd_dev_create(&c, 1, &d));
		unsigned long long before = t_alloc_live();
		CHECK(!ssd_verify_attach(d));
		unsigned long long got = t_alloc_live() - before;
		ssd_dev_destroy(d);
		CHECKF(close_to(m.verify, got), "%s: estimated %llu bytes, allocated %llu",
		       caps[i], (unsigned long long)m.verify, got);
	}
}

TEST(mem_estimate_counts_power_tracking_and_a_cut)
{
	struct ssd_config c;
	CHECKF(!config(&c, "tiny", "capacity=1g page_size=16k"), "%s", err);
	struct ssd_mem m;
	ssd_dev_mem(&c, SSD_MEM_POWER, &m);
	CHECK(m.verify > 0 && m.power > 0);
	struct ssd_dev *d = NULL;
	CHECK(!ssd_dev_create(&c, 1, &d));
	unsigned long long before = t_alloc_live();
	t_alloc_peak_start();
	CHECK(!ssd_verify_attach(d) && !ssd_dev_power_track(d));
	int64_t t = 0;
	for (uint32_t lpn = 0; lpn < 4096; lpn++) {
		t = t_power_put(d, lpn, 0, t);
		CHECK(t >= 0);
	}
	struct ssd_power_cut pc;
	int rc = t_power_cut(d, t, &pc);
	unsigned long long got = t_alloc_peak() - before;
	free(pc.unplaced);
	ssd_dev_destroy(d);
	CHECK(!rc);
	CHECKF(close_to(m.verify + m.power, got), "estimated %llu bytes, peak %llu",
	       (unsigned long long)(m.verify + m.power), got);
}

TEST(mem_check_refuses_what_does_not_fit)
{
	struct ssd_config c;
	CHECKF(!config(&c, "default", "capacity=1t"), "%s", err);
	uint64_t avail;
	const char *what;
	if (ssd_mem_available(&avail, &what))
		SKIP("nothing here says how much memory is available");
	/* a run that asks for more than there is: refused, named */
	CHECK(ssd_dev_mem_check(&c, 0, avail, err, sizeof err) == SSD_ENOMEM);
	CHECKF(strstr(err, "drive 'default' needs about ") && strstr(err, what) &&
	       strstr(err, "--set mem_check=no"), "%s", err);
	c.mem_check = 0;
	CHECK(!ssd_dev_mem_check(&c, 0, avail, err, sizeof err));
	CHECKF(!config(&c, "tiny", ""), "%s", err);
	CHECK(!ssd_dev_mem_check(&c, 0, 0, err, sizeof err));
}
