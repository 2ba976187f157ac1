/* The machine around the drive: RAID 0's striping, the stack as a
 * device (capacity, counters, report nodes). */
#include <stdlib.h>
#include <string.h>

#include "machine/mft.h"
#include "run/sim.h"
#include "machine/raid0.h"
#include "machine/stack.h"
#include "t.h"
#include "t_node.h"
#include "t_sim.h"

static char err[512];

/* A member: answers 100 us after a command comes, plus its offset % 7
 * ns (so that the pieces of one command end apart); a flush 5 us. */
static const struct t_node_cost member = {
	.cmd_ns = 100 * SSD_US, .trim_ns = 100 * SSD_US, .flush_ns = 5 * SSD_US,
	.spread = 7,
};

/* RAID 0 over n recording members of `cap` bytes, stripe su. */
static struct ssd_blk *raid(uint32_t n, uint64_t cap, uint32_t su,
			    struct t_node **m)
{
	struct ssd_config c;
	ssd_config_defaults(&c);
	c.capacity = cap;
	c.raid = SSD_RAID_0;
	c.raid_members = n;
	c.raid_stripe = su;
	struct ssd_blk **v = calloc(n, sizeof *v);
	for (uint32_t i = 0; i < n; i++) {
		m[i] = t_node_new(cap, member);
		v[i] = &m[i]->blk;
	}
	struct ssd_blk *b = NULL;
	if (ssd_raid0_create(&c, v, n, &b))
		return NULL;
	return b;
}

TEST(raid0_capacity_is_whole_stripes_of_every_member)
{
	struct t_node *m[3];
	/* 1 MiB + 10 KiB members, 64 KiB stripes: 16 whole stripes each */
	struct ssd_blk *b = raid(3, (1 << 20) + 10240, 64 << 10, m);
	CHECK(b);
	CHECK(b->capacity == 3ull * (1 << 20));
	ssd_blk_destroy(b);
}

TEST(raid0_small_command_goes_to_one_member_at_its_place)
{
	struct t_node *m[2];
	struct ssd_blk *b = raid(2, 8 << 20, 64 << 10, m);
	CHECK(b);
	/* unit 3 (192 KiB..256 KiB) is member 1's unit 1 */
	int64_t c = ssd_blk_submit(b, SSD_DDIR_WRITE, (192 << 10) + 4096, 8192,
				   1000);
	CHECK(m[0]->n == 0 && m[1]->n == 1);
	CHECK(m[1]->cmd[0].off == (64 << 10) + 4096);
	CHECK(m[1]->cmd[0].len == 8192 && m[1]->cmd[0].t == 1000);
	CHECK(c == 1000 + 100 * SSD_US + (int64_t)(((64 << 10) + 4096) % 7));
	ssd_blk_destroy(b);
}

TEST(raid0_large_command_splits_into_one_contiguous_piece_per_member)
{
	struct t_node *m[3];
	struct ssd_blk *b = raid(3, 8 << 20, 4096, m);
	CHECK(b);
	/* bytes 2048 .. 2048 + 7 units: units 0..7, the last one partial */
	uint32_t len = 7 * 4096;
	int64_t c = ssd_blk_submit(b, SSD_DDIR_READ | SSD_DEV_FUA, 2048, len, 50);
	/* unit k is member k % 3's unit k / 3 */
	CHECK(m[0]->n == 1 && m[1]->n == 1 && m[2]->n == 1);
	/* member 0: units 0 (from 2048), 3, 6: [2048, 3 * 4096) */
	CHECK(m[0]->cmd[0].off == 2048 && m[0]->cmd[0].len == 3 * 4096 - 2048);
	/* member 1: units 1, 4, 7 (to 2048 into it): [0, 2 * 4096 + 2048) */
	CHECK(m[1]->cmd[0].off == 0 && m[1]->cmd[0].len == 2 * 4096 + 2048);
	/* member 2: units 2, 5 */
	CHECK(m[2]->cmd[0].off == 0 && m[2]->cmd[0].len == 2 * 4096);
	uint32_t sum = 0;
	int64_t last = 0;
	for (int i = 0; i < 3; i++) {
		sum += m[i]->cmd[0].len;
		CHECK(m[i]->cmd[0].ddir == (SSD_DDIR_READ | SSD_DEV_FUA));
		int64_t ci = 50 + 100 * SSD_US + (int64_t)(m[i]->cmd[0].off % 7);
		if (ci > last)
			last = ci;
	}
	CHECK(sum == len);
	CHECK(c == last); /* the last piece completes the command */
	ssd_blk_destroy(b);
}

TEST(raid0_every_byte_lands_once_on_a_brute_force_map)
{
	/* random ranges against a byte-by-byte map of the striping */
	struct t_node *m[4];
	const uint32_t su = 8192, n = 4;
	struct ssd_blk *b = raid(n, 1 << 20, su, m);
	CHECK(b);
	uint64_t seed = 7;
	for (int k = 0; k < 300; k++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t off = (seed >> 20) % (b->capacity - 1);
		uint32_t len = (uint32_t)((seed >> 8) % (5 * su)) + 1;
		if (off + len > b->capacity)
			len = (uint32_t)(b->capacity - off);
		for (uint32_t i = 0; i < n; i++)
			m[i]->n = 0;
		ssd_blk_submit(b, SSD_DDIR_WRITE, off, len, k);
		uint32_t got = 0;
		for (uint32_t i = 0; i < n; i++) {
			CHECK(m[i]->n <= 1);
			if (!m[i]->n)
				continue;
			got += m[i]->cmd[0].len;
			/* its first and last byte map back into the range */
			for (int e = 0; e < 2; e++) {
				uint64_t mo = m[i]->cmd[0].off +
					      (e ? m[i]->cmd[0].len - 1 : 0);
				uint64_t unit = mo / su * n + i;
				uint64_t vo = unit * su + mo % su;
				CHECKF(vo >= off && vo < off + len,
				       "member %u byte %llu -> %llu outside "
				       "[%llu, +%u)", i, (unsigned long long)mo,
				       (unsigned long long)vo,
				       (unsigned long long)off, len);
			}
		}
		CHECK(got == len);
	}
	ssd_blk_destroy(b);
}

TEST(raid0_flush_reaches_every_member)
{
	struct t_node *m[2];
	struct ssd_blk *b = raid(2, 1 << 20, 4096, m);
	CHECK(b);
	CHECK(ssd_blk_flush(b, 10) == 10 + 5 * SSD_US);
	ssd_blk_destroy(b);
}

/* The tiny drive with sets[0..n) ("KEY=VALUE") set, as a device. */
static struct ssd_dev *machine(const char *const *sets, int n)
{
	return t_sim_drive("tiny", sets, n, err, sizeof err);
}

static int run(struct ssd_dev *d, const char *text, struct ssd_run_result *res)
{
	return t_sim_run(d, text, res, err, sizeof err);
}

TEST(raid0_machine_is_twice_the_drive_and_sums_its_ssds)
{
	static const char *const raid[] = {"raid=0"};
	struct ssd_dev *d = machine(raid, 1), *one = machine(NULL, 0);
	CHECKF(d && one, "%s", err);
	CHECK(ssd_dev_is_machine(d) && !ssd_dev_is_machine(one));
	CHECK(ssd_dev_capacity(d) == 2 * ssd_dev_capacity(one));
	CHECK(ssd_dev_capacity(d) == ssd_config_volume(ssd_dev_config(d)));
	struct ssd_run_result r1, r2;
	const char *job = "[w]\nrw=randwrite\nbs=4k\niodepth=16\ndirect=1\n"
			  "size=100%\nio_size=32m\n";
	CHECKF(run(d, job, &r2) == 0, "%s", err);
	CHECKF(run(one, job, &r1) == 0, "%s", err);
	/* the same host writes; two drives take them in half the time */
	CHECK(r2.jobs[0].ctr.host_write_lp == r1.jobs[0].ctr.host_write_lp);
	double ratio = (double)r1.jobs[0].runtime_ns / (double)r2.jobs[0].runtime_ns;
	CHECKF(ratio > 1.8 && ratio < 2.2, "speed-up %.3f", ratio);
	/* NAND programs: the machine's are its two SSDs' */
	const struct ssd_counters *c = ssd_dev_counters(d);
	uint64_t prog = ssd_dev_ssd(d, 0)->ctr->nand_prog_lp +
			ssd_dev_ssd(d, 1)->ctr->nand_prog_lp;
	CHECK(c->nand_prog_lp == prog && prog > 0);
	CHECK(!ssd_dev_ssd(d, 2));
	/* the report's nodes: raid0 over ssd0 and ssd1 */
	CHECK(r2.nnodes == 3);
	CHECK(!strcmp(r2.nodes[0].name, "raid0") && r2.nodes[0].depth == 0);
	CHECK(!strcmp(r2.nodes[1].name, "ssd0") && r2.nodes[1].depth == 1);
	CHECK(!strcmp(r2.nodes[2].kind, "ssd"));
	CHECK(r2.nodes[1].io.bytes[SSD_DDIR_WRITE] +
	      r2.nodes[2].io.bytes[SSD_DDIR_WRITE] == 32u << 20);
	CHECK(r1.nnodes == 0);
	ssd_run_result_free(&r1);
	ssd_run_result_free(&r2);
	ssd_dev_destroy(d);
	ssd_dev_destroy(one);
}

TEST(machine_refuses_verify_with_the_reason)
{
	static const char *const raid[] = {"raid=0"};
	struct ssd_dev *d = machine(raid, 1);
	CHECKF(d, "%s", err);
	struct ssd_run_result r;
	int rc = run(d, "[w]\nrw=write\nbs=4k\nsize=1m\nverify=crc32c\n", &r);
	CHECK(rc == SSD_EUNSUP);
	CHECKF(strstr(err, "verify"), "%s", err);
	ssd_run_result_free(&r);
	ssd_dev_destroy(d);
}

TEST(stack_volume_is_what_the_config_says)
{
	static const char *const cases[][4] = {
		{"mft=yes"},
		{"raid=0", "raid_members=3"},
		{"raid=0", "mft=yes", "mft_reserve=0.25"},
		{"page_cache=8m", "mft=yes", "raid=0"},
		{"type=hdd", "raid=0", "mft=yes"},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		int n = 0;
		while (n < 4 && cases[k][n])
			n++;
		struct ssd_dev *d = machine(cases[k], n);
		CHECKF(d, "case %zu: %s", k, err);
		CHECKF(ssd_dev_capacity(d) == ssd_config_volume(ssd_dev_config(d)),
		       "case %zu: %llu != %llu", k,
		       (unsigned long long)ssd_dev_capacity(d),
		       (unsigned long long)ssd_config_volume(ssd_dev_config(d)));
		ssd_dev_destroy(d);
	}
}

TEST(stack_page_cache_over_mft_over_raid0_of_two_ssds)
{
	static const char *const kv[] = {"page_cache=8m", "mft=yes", "raid=0",
					 "mft_buffer=1m"};
	struct ssd_dev *d = machine(kv, 4);
	CHECKF(d, "%s", err);
	struct ssd_run_result r;
	CHECKF(run(d, "[w]\nrw=randwrite\nbs=4k\nsize=100%\nio_size=64m\n"
		      "end_fsync=1\n[r]\nstonewall\nrw=randread\nbs=16k\n"
		      "size=100%\nio_size=16m\n", &r) == 0, "%s", err);
	static const char *const order[] = {"page_cache", "mft", "raid0",
					    "ssd0", "ssd1"};
	CHECK(r.nnodes == 5);
	for (int i = 0; i < 5; i++)
		CHECKF(!strcmp(r.nodes[i].name, order[i]) &&
		       r.nodes[i].depth == (i < 3 ? i : 3), "node %d: %s", i,
		       r.nodes[i].name);
	/* everything the application wrote went down, through MFT's log */
	CHECK(r.nodes[0].io.bytes[SSD_DDIR_WRITE] == 64u << 20);
	CHECK(r.nodes[1].io.bytes[SSD_DDIR_WRITE] == 64u << 20);
	CHECK(r.nodes[2].io.bytes[SSD_DDIR_WRITE] >= 64u << 20);
	CHECK(r.nodes[3].io.bytes[SSD_DDIR_WRITE] > 0 &&
	      r.nodes[4].io.bytes[SSD_DDIR_WRITE] > 0);
	/* MFT's maps hold after it all */
	const struct ssd_blk *mft = ssd_dev_node(d, 1, NULL);
	char why[256];
	CHECKF(ssd_mft_check(mft, why, sizeof why) == 0, "%s", why);
	/* the machine's WAF is end to end: MFT's log and cleaning included */
	const struct ssd_counters *c = ssd_dev_counters(d);
	CHECK(c->host_write_bytes == 64u << 20);
	CHECK(ssd_counters_waf(c) > 1);
	ssd_run_result_free(&r);
	ssd_dev_destroy(d);
}

TEST(stack_mft_over_a_disk_cleans_without_trim)
{
	/* MFT frees segments by TRIM where the drive below has it; a hard
	 * disk has none, and the cleaner must go on without */
	static const char *const kv[] = {"type=hdd", "mft=yes", "mft_buffer=1m"};
	struct ssd_dev *d = machine(kv, 3);
	CHECKF(d, "%s", err);
	struct ssd_run_result r;
	CHECKF(run(d, "[w]\nrw=randwrite\nbs=16k\ndirect=1\nsize=100%\n"
		      "io_size=300%\n", &r) == 0, "%s", err);
	CHECK(r.jobs[0].error == 0);
	const struct ssd_blk *mft = ssd_dev_node(d, 0, NULL);
	char why[256];
	CHECKF(ssd_mft_check(mft, why, sizeof why) == 0, "%s", why);
	CHECK(r.nodes[1].io.cmds[SSD_DDIR_TRIM] == 1); /* tried once */
	ssd_run_result_free(&r);
	ssd_dev_destroy(d);
}

TEST(stack_host_memory_copies_share_one_rate)
{
	/* commands in flight together share the host's memory: hits and
	 * buffered writes never beat page_cache_mbps (4000 MB/s), however
	 * deep the queue */
	static const char *const cases[][1] = {{"mft=yes"}, {"page_cache=64m"}};
	for (int k = 0; k < 2; k++) {
		struct ssd_dev *d = machine(cases[k], 1);
		CHECKF(d, "%s", err);
		struct ssd_run_result r;
		CHECKF(run(d, "[w]\nrw=write\nbs=128k\niodepth=32\nsize=32m\n"
			      "[r]\nstonewall\nrw=read\nbs=128k\niodepth=32\n"
			      "size=32m\n", &r) == 0, "%s", err);
		for (int j = 0; j < 2; j++) {
			const struct ssd_dstat *ds = &r.jobs[j].dir[j ? SSD_DDIR_READ
								     : SSD_DDIR_WRITE];
			double mbps = (double)ds->bytes * 1e3 /
				      (double)r.jobs[j].runtime_ns;
			CHECKF(mbps <= 4000 * 1.001, "case %d job %d: %.0f MB/s",
			       k, j, mbps);
		}
		ssd_run_result_free(&r);
		ssd_dev_destroy(d);
	}
}

/* random 4 KiB reads at queue depth qd over the whole disk for 10 s:
 * IOPS; order fcfs or sptf */
static double disk_iops(const char *order, int qd, const char *extra)
{
	char queue[32];
	snprintf(queue, sizeof queue, "hdd_queue=%s", order);
	const char *const kv[] = {"type=hdd", "capacity=32g", queue};
	struct ssd_dev *d = machine(kv, 3);
	if (!d)
		return -1;
	char job[256];
	snprintf(job, sizeof job, "[r]\nrw=randread\nbs=4k\ndirect=1\n"
		 "iodepth=%d\nruntime=10s\ntime_based\n%s", qd, extra);
	struct ssd_run_result r;
	double iops = -1;
	if (run(d, job, &r) == 0 && r.jobs[0].error == 0)
		iops = (double)r.jobs[0].dir[SSD_DDIR_READ].ios * 1e9 /
		       (double)r.jobs[0].runtime_ns;
	ssd_run_result_free(&r);
	ssd_dev_destroy(d);
	return iops;
}

TEST(stack_disk_queue_reorders_at_depth_and_not_at_one)
{
	/* at QD1 nothing waits: both orders give the same run */
	double f1 = disk_iops("fcfs", 1, ""), s1 = disk_iops("sptf", 1, "");
	CHECKF(f1 > 0 && f1 == s1, "QD1: fcfs %.1f, sptf %.1f", f1, s1);
	/* FCFS gains nothing from depth; SPTF picks the nearest of 32 */
	double f32 = disk_iops("fcfs", 32, ""), s32 = disk_iops("sptf", 32, "");
	CHECKF(f32 > 0 && f32 < 1.1 * f1, "fcfs QD32 %.1f vs QD1 %.1f", f32, f1);
	CHECKF(s32 > 2 * f32, "sptf QD32 %.1f vs fcfs %.1f", s32, f32);
	/* fsync with commands queued: they are served first, the run ends */
	double fs = disk_iops("sptf", 32, "rw=randrw\nfsync=8\n");
	CHECKF(fs > 0, "sptf with fsync: %s", err);
}

TEST(stack_disk_queue_serves_every_command_once)
{
	static const char *const kv[] = {"type=hdd", "capacity=8g"};
	struct ssd_dev *d = machine(kv, 2);
	CHECKF(d, "%s", err);
	/* off until a caller that takes decisions asks (the runner does) */
	CHECK(d->can_queue && !d->queues);
	CHECK(ssd_dev_submit(d, SSD_DDIR_READ, 0, 4096, 0) > 0);
	CHECK(ssd_dev_submit(d, SSD_DDIR_READ, 7ull << 30, 4096, 0) > 0);
	ssd_dev_destroy(d);
	d = machine(kv, 2);
	CHECKF(d, "%s", err);
	ssd_dev_set_queueing(d, 1);
	CHECK(d->queues);
	/* a busy head: the first read takes it, the rest wait */
	uint64_t off[6] = {0, 7ull << 30, 1ull << 20, 4ull << 30, 2ull << 20,
			   6ull << 30};
	int64_t first = -1;
	int pending = 0;
	for (int i = 0; i < 6; i++) {
		int64_t c = ssd_dev_submit(d, SSD_DDIR_READ, off[i], 4096, 1000);
		if (i == 0) {
			CHECK(c > 1000);
			first = c;
		} else {
			CHECK(c == SSD_EPENDING);
			ssd_dev_tag_waiting(d, (uint32_t)i);
			pending++;
		}
	}
	int seen[6] = {1, 0, 0, 0, 0, 0};
	int64_t last = first;
	uint32_t order[6], n = 0;
	for (int64_t at; (at = ssd_dev_next_decision(d)) != INT64_MAX;) {
		uint32_t tag;
		int64_t done;
		CHECK(at >= last - 1);
		CHECK(ssd_dev_decide(d, at, &tag, &done) == 1);
		CHECK(tag < 6 && !seen[tag]);
		seen[tag] = 1;
		CHECK(done >= at);
		last = done;
		order[n++] = tag;
	}
	CHECK((int)n == pending);
	/* from offset 0 the head takes the near ones (1 MiB, 2 MiB) before
	 * the far ones, which FCFS would have served in between */
	CHECKF(order[0] == 2 && order[1] == 4, "order %u %u %u %u %u", order[0],
	       order[1], order[2], order[3], order[4]);
	ssd_dev_destroy(d);
}

TEST(stack_disk_queue_is_off_after_a_run_and_for_direct_callers)
{
	/* after a run the queue is off again: plain submissions answer
	 * with completions, also while the head is busy */
	static const char *const kv[] = {"type=hdd", "capacity=8g"};
	struct ssd_dev *d = machine(kv, 2);
	CHECKF(d, "%s", err);
	struct ssd_run_result r;
	CHECKF(run(d, "[r]\nrw=randread\nbs=4k\ndirect=1\niodepth=16\n"
		      "io_size=1m\n", &r) == 0, "%s", err);
	ssd_run_result_free(&r);
	CHECK(!d->queues && ssd_dev_next_decision(d) == INT64_MAX);
	int64_t t = ssd_dev_time(d);
	int64_t a = ssd_dev_submit(d, SSD_DDIR_READ, 0, 4096, t);
	int64_t b = ssd_dev_submit(d, SSD_DDIR_READ, 6ull << 30, 4096, t);
	CHECK(a > t && b > a);
	/* write and verify at depth: the read back may wait in the queue */
	CHECKF(run(d, "[wav]\nioengine=sg\nsg_write_mode=write_and_verify\n"
		      "rw=randwrite\nbs=4k\niodepth=4\nio_size=1m\n", &r) == 0,
	       "%s", err);
	CHECK(r.jobs[0].error == 0);
	CHECK(r.jobs[0].dir[SSD_DDIR_WRITE].ios == 256);
	ssd_run_result_free(&r);
	/* a flush waits for FUA writes still on their way, in either order */
	for (int o = 0; o < 2; o++) {
		static const char *const kq[][3] = {
			{"type=hdd", "capacity=1g", "hdd_queue=fcfs"},
			{"type=hdd", "capacity=1g", "hdd_queue=sptf"},
		};
		struct ssd_dev *q = machine(kq[o], 3);
		CHECKF(q, "%s", err);
		CHECKF(run(q, "[fl]\nrw=randwrite\nwritefua=1\nbs=4k\n"
			      "iodepth=16\nfsync=8\nio_size=2m\n", &r) == 0,
		       "%s", err);
		const struct ssd_dstat *sy = &r.jobs[0].sync;
		CHECKF(sy->lat.n > 0 && sy->lat.min > 1000000, "order %d: the "
		       "fastest flush %.0f ns", o, sy->lat.min);
		ssd_run_result_free(&r);
		ssd_dev_destroy(q);
	}
	ssd_dev_destroy(d);
}
