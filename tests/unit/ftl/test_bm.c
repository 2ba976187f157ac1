/* Block mapping and the log-block hybrids (ftl_bm.c): what each write
 * pattern costs against the schemes' cost models, the merge kinds, and
 * that the data each page last received is where the map says, with the
 * invariant checker running throughout. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "ftl/ftl.h"
#include "ftl/ftl_int.h"
#include "t.h"

static char err[256];

/* tiny's shape (4 units of 64-page blocks, 4 KiB pages: a row of 256
 * slots) with 16 MiB of data: 16 logical blocks. */
static struct ssd_ftl *bm_drive_pe(const char *mapping, const char *logs,
				   const char *page_size, const char *pe)
{
	const char *op = strcmp(page_size, "4k") ? "2" : "0.5";
	struct ssd_config c;
	ssd_config_defaults(&c);
	const char *kv[][2] = {
		{"capacity", "16m"}, {"op", op}, {"page_size", page_size},
		{"pages_per_block", "64"}, {"channels", "2"},
		{"dies_per_channel", "2"}, {"planes_per_die", "1"},
		{"cell", "slc"}, {"mapping", mapping}, {"log_blocks", logs},
		{"pe_cycles", pe},
	};
	for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
		if (ssd_config_set(&c, kv[i][0], kv[i][1], "test", err, sizeof err))
			return NULL;
	if (ssd_config_finish(&c, err, sizeof err))
		return NULL;
	struct ssd_ftl *f = NULL;
	if (ssd_ftl_create(&c, 7, &f))
		return NULL;
	ssd_ftl_set_check_every(f, 1);
	return f;
}

static struct ssd_ftl *bm_drive(const char *mapping, const char *logs,
				const char *page_size)
{
	return bm_drive_pe(mapping, logs, page_size, "100000");
}

struct run {
	uint32_t *tag;          /* the host's tag of each page */
	int64_t t;
};

static int put(struct ssd_ftl *f, struct run *r, uint32_t lpn)
{
	r->tag[lpn]++;
	int64_t d = ssd_ftl_write(f, lpn, r->t);
	if (d < 0)
		return (int)d;
	r->t = d;
	return 0;
}

/* Every page written holds its newest tag; no check failed. */
static int all_current(struct ssd_ftl *f, const struct run *r)
{
	for (uint32_t l = 0; l < ssd_ftl_pages(f); l++) {
		uint32_t lp, tag;
		int has = ssd_ftl_verify_get(f, l, &lp, &tag);
		if (r->tag[l] ? !has || lp != l || tag != r->tag[l] : has)
			return 0;
	}
	return ssd_ftl_check_failure(f) == NULL &&
	       ssd_ftl_check(f, err, sizeof err) == 0;
}

static struct run run_new(struct ssd_ftl *f)
{
	struct run r = {calloc(ssd_ftl_pages(f), sizeof(uint32_t)), 0};
	ssd_ftl_verify_on(f, r.tag);
	return r;
}

/* Sequential fill, then uniform random single-page writes: the measured
 * copies per host write against the model, and the data all there. */
static double random_waf(const char *mapping, const char *logs, uint64_t n,
			 struct ssd_counters *out)
{
	struct ssd_ftl *f = bm_drive(mapping, logs, "4k");
	if (!f)
		return -1;
	struct run r = run_new(f);
	uint32_t pages = ssd_ftl_pages(f);
	for (uint32_t l = 0; l < pages; l++)
		if (put(f, &r, l))
			return -2;
	struct ssd_counters before = *ssd_ftl_counters(f);
	struct ssd_rng rng;
	ssd_rng_seed(&rng, 11);
	for (uint64_t i = 0; i < n; i++)
		if (put(f, &r, (uint32_t)(ssd_rng_next(&rng) % pages)))
			return -3;
	ssd_counters_sub(out, ssd_ftl_counters(f), &before);
	double waf = all_current(f, &r) ? ssd_counters_waf(out) : -4;
	free(r.tag);
	ssd_ftl_destroy(f);
	return waf;
}

/* Block mapping: a random page write merges its block, Np = 256 slots
 * (Kim et al. 2002: WA = Np/s), less the writes a still-open merge
 * takes forward in the same block (1 in 2U of them). */
TEST(bm_block_mapping_random_writes_cost_a_merge_of_the_block)
{
	struct ssd_counters c;
	double waf = random_waf("block", "0", 4000, &c);
	double model = 256.0 / (1 + 1.0 / 32);
	CHECKF(fabs(waf / model - 1) < 0.03, "waf %.2f model %.2f", waf, model);
	CHECK(c.merge_full > 3800 && c.merge_switch == 0);
	CHECK(c.gc_copy_lp > 0 && c.nand_erase >= 4 * c.merge_full);
}

/* BAST with L logs over U = 16 blocks: a write finds its block's log
 * with chance L/U (FIFO among uniform accesses), else a log is evicted
 * with a full merge of Np: WA = 1 + (1 - L/U) Np. */
TEST(bm_bast_random_writes_thrash_the_logs_as_the_model_says)
{
	struct ssd_counters c;
	double waf = random_waf("bast", "4", 8000, &c);
	double model = 1 + (1 - 4.0 / 16) * 256;
	CHECKF(fabs(waf / model - 1) < 0.05, "waf %.2f model %.2f", waf, model);
	CHECK(c.merge_full > 0);
}

/* FAST with L random logs of Np: a block with a valid page in the
 * oldest log is merged once, and then not for the next L - 1 reclaims
 * (its pages in the younger logs went with it); it is written within a
 * log's Np writes with chance q = 1 - (1 - 1/U)^Np.  Merges per reclaim
 * U / (L - 1 + 1/q): WA = 1 + U / (L - 1 + 1/q). */
TEST(bm_fast_random_writes_merge_every_block_of_the_oldest_log)
{
	struct ssd_counters c;
	double waf = random_waf("fast", "4", 12000, &c);
	double q = 1 - pow(1 - 1.0 / 16, 256);
	double model = 1 + 16 / (4 - 1 + 1 / q);
	CHECKF(fabs(waf / model - 1) < 0.08, "waf %.2f model %.2f", waf, model);
	CHECK(c.merge_full > 0);
}

/* A sequential rewrite costs no copy: a whole block in order makes a
 * switch (bast, fast) or a merge that copied nothing (block). */
TEST(bm_sequential_rewrite_switches_blocks_without_copies)
{
	const char *m[] = {"block", "bast", "fast"};
	for (int k = 0; k < 3; k++) {
		struct ssd_ftl *f = bm_drive(m[k], "2", "4k");
		CHECKF(f != NULL, "%s: %s", m[k], err);
		struct run r = run_new(f);
		uint32_t pages = ssd_ftl_pages(f);
		for (int pass = 0; pass < 3; pass++)
			for (uint32_t l = 0; l < pages; l++)
				CHECK(put(f, &r, l) == 0);
		CHECK(ssd_ftl_idle(f, r.t, r.t + SSD_S) == 0); /* block: closes */
		const struct ssd_counters *c = ssd_ftl_counters(f);
		CHECKF(c->gc_copy_lp == 0 && c->merge_full == 0,
		       "%s: %llu copies, %llu full merges", m[k],
		       (unsigned long long)c->gc_copy_lp,
		       (unsigned long long)c->merge_full);
		CHECKF(c->merge_switch == 2 * 16, "%s: %llu switches", m[k],
		       (unsigned long long)c->merge_switch);
		CHECK(ssd_counters_waf(c) == 1.0);
		CHECK(all_current(f, &r));
		free(r.tag);
		ssd_ftl_destroy(f);
	}
}

/* Rewriting the first k pages of a block in order, then moving on: a
 * partial merge copies the block's other Np - k pages. */
TEST(bm_partial_rewrite_copies_the_rest_of_the_block)
{
	const char *m[] = {"block", "bast", "fast"};
	for (int k = 0; k < 3; k++) {
		struct ssd_ftl *f = bm_drive(m[k], "2", "4k");
		CHECK(f != NULL);
		struct run r = run_new(f);
		uint32_t pages = ssd_ftl_pages(f);
		for (uint32_t l = 0; l < pages; l++)
			CHECK(put(f, &r, l) == 0);
		for (uint32_t l = 0; l < 100; l++) /* block 0, pages 0..99 */
			CHECK(put(f, &r, l) == 0);
		CHECK(ssd_ftl_idle(f, r.t, r.t + 10 * SSD_S) == 0);
		/* block closes it now; bast keeps its log until it is full or
		 * the oldest (two more logs evict it), fast its sequential log
		 * until another run starts at an offset 0 */
		if (k == 1)
			for (uint32_t b = 1; b < 3; b++)
				CHECK(put(f, &r, b * 256 + 5) == 0);
		if (k == 2)
			CHECK(put(f, &r, 256) == 0);
		const struct ssd_counters *c = ssd_ftl_counters(f);
		CHECKF(c->merge_partial == 1 && c->gc_copy_lp >= 156,
		       "%s: partial %llu, copies %llu", m[k],
		       (unsigned long long)c->merge_partial,
		       (unsigned long long)c->gc_copy_lp);
		CHECK(all_current(f, &r));
		free(r.tag);
		ssd_ftl_destroy(f);
	}
}

/* Pages larger than 4 KiB: a group waits in its unit's register until
 * full, a flush programs it (padding, or copies into a merge), and a
 * read of data still there needs no array read. */
TEST(bm_open_groups_and_flush_on_large_pages)
{
	const char *m[] = {"block", "bast", "fast"};
	for (int k = 0; k < 3; k++) {
		struct ssd_ftl *f = bm_drive(m[k], "2", "16k");
		CHECK(f != NULL);
		struct run r = run_new(f);
		struct ssd_rng rng;
		ssd_rng_seed(&rng, 5);
		uint32_t pages = ssd_ftl_pages(f);
		for (int i = 0; i < 6000; i++) {
			uint32_t l = (uint32_t)(ssd_rng_next(&rng) % pages);
			CHECK(put(f, &r, l) == 0);
			if (i % 97 == 0) {
				/* a page still in its open group is read from the
				 * register: no array read */
				uint32_t s = f->l2p[l], b = s / f->spb;
				int open = !ssd_flash_programmed(&f->flash, b,
								 s / f->spp - b * f->ppb);
				uint64_t reads = ssd_ftl_counters(f)->nand_read;
				int64_t d = ssd_ftl_read(f, l, 1, r.t);
				CHECK(d >= r.t);
				if (open)
					CHECK(ssd_ftl_counters(f)->nand_read == reads);
			}
			if (i % 500 == 0) {
				int64_t d = ssd_ftl_flush(f, r.t);
				CHECK(d >= r.t);
				r.t = d;
			}
			if (i % 1500 == 0) {
				CHECK(ssd_ftl_trim(f, l, 1, r.t) >= 0);
				r.tag[l] = 0; /* reads as zeros */
			}
		}
		CHECKF(all_current(f, &r), "%s: %s", m[k], err);
		CHECK(ssd_ftl_counters(f)->pad_lp > 0);
		free(r.tag);
		ssd_ftl_destroy(f);
	}
}

/* What the schemes cannot do is refused with the key that conflicts. */
TEST(bm_refuses_what_it_does_not_model)
{
	struct ssd_config c;
	ssd_config_defaults(&c);
	CHECK(ssd_config_set(&c, "mapping", "bast", "t", err, sizeof err) == 0);
	CHECK(ssd_config_set(&c, "slc_cache", "dynamic", "t", err, sizeof err) == 0);
	CHECK(ssd_config_set(&c, "slc_cache_size", "64m", "t", err, sizeof err) == 0);
	CHECK(ssd_config_finish(&c, err, sizeof err) == SSD_EINVAL);
	CHECKF(strstr(err, "slc_cache") && strstr(err, "mapping = bast"), "%s", err);
	ssd_config_defaults(&c);
	CHECK(ssd_config_set(&c, "mapping", "fast", "t", err, sizeof err) == 0);
	CHECK(ssd_config_set(&c, "log_blocks", "100000", "t", err, sizeof err) == 0);
	CHECK(ssd_config_finish(&c, err, sizeof err) == SSD_EINVAL);
	CHECKF(strstr(err, "log_blocks") && strstr(err, "spare rows"), "%s", err);
	struct ssd_ftl *f = bm_drive("block", "0", "4k");
	CHECK(f != NULL);
	int64_t horizon = 0;
	CHECK(ssd_ftl_power_track(f, &horizon) == SSD_EUNSUP);
	ssd_ftl_destroy(f);
}

/* End of life: blocks retire at erase until a unit has no block left for
 * a row; the drive turns read-only, refuses writes, and keeps every page
 * it took -- also when the write refused was a log's merge that found no
 * row (bast lost the log from its books: "row 12 is neither free nor in
 * use"). */
TEST(bm_wears_out_to_read_only_without_losing_data)
{
	const char *m[][2] = {{"block", "0"}, {"bast", "2"}, {"fast", "2"},
			      {"bast", "4"}, {"fast", "4"}, {"bast", "1"}};
	for (int k = 0; k < 6; k++) {
		struct ssd_ftl *f = bm_drive_pe(m[k][0], m[k][1], "4k", "60");
		CHECK(f != NULL);
		struct run r = run_new(f);
		struct ssd_rng rng;
		ssd_rng_seed(&rng, 3);
		uint32_t pages = ssd_ftl_pages(f);
		int rc = 0;
		for (uint64_t i = 0; i < 2000000 && !rc; i++) {
			uint32_t l = (uint32_t)(ssd_rng_next(&rng) % pages);
			rc = put(f, &r, l);
			if (rc)
				r.tag[l]--; /* refused: the page keeps its data */
		}
		CHECKF(rc == SSD_EROFS, "%s: %d", m[k][0], rc);
		struct ssd_health h;
		ssd_ftl_health(f, &h);
		CHECK(h.read_only && h.bad_blocks > 0);
		CHECKF(all_current(f, &r), "%s: %s", m[k][0], err);
		free(r.tag);
		ssd_ftl_destroy(f);
	}
}
