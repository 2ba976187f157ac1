/* The checker's timing invariants (flash.h "Timing accounting",
 * ftl_check.c): each is broken on purpose and caught with a message that
 * names the resource or call, the times and the count so far; and the
 * checker runs after every program failure, retirement and the turn to
 * read-only. */
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "ftl/ftl.h"
#include "ftl/ftl_int.h"
#include "nand/flash.h"
#include "t.h"
#include "t_sim.h"

/* The tiny preset (4 KiB pages, 4 dies on 2 channels, a unit per die:
 * unit u on die u and channel u % 2) with the "key=value" settings of
 * `set` (NULL-terminated, or NULL), the checker on. */
static struct ssd_ftl *tiny_ftl(const char *const *set)
{
	struct ssd_config c;
	char err[256];
	struct ssd_ftl *f = NULL;
	int n = 0;
	while (set && set[n])
		n++;
	if (t_sim_config(&c, "tiny", set, n, err, sizeof err) ||
	    ssd_ftl_create(&c, 1, &f))
		goto fail;
	ssd_ftl_set_check_every(f, 1);
	return f;
fail:
	fprintf(stderr, "tiny_ftl: %s\n", err);
	return NULL;
}

/* 16 KiB pages: four 4 KiB slots a page. */
static const char *const big_pages[] = {"page_size=16k", "pages_per_block=16",
					NULL};

/* The checker's message, "" while none. */
static const char *failure(const struct ssd_ftl *f)
{
	const char *m = ssd_ftl_check_failure(f);
	return m ? m : "";
}

/* Write lpn 0 .. n-1 in turn; returns the last completion. */
static int64_t fill(struct ssd_ftl *f, uint32_t n)
{
	int64_t t = 0;
	for (uint32_t l = 0; l < n && !ssd_ftl_check_failure(f); l++)
		t = ssd_ftl_write(f, l, t);
	return t;
}

TEST(timing_holds_on_a_drive_that_is_written_read_and_flushed)
{
	struct ssd_ftl *f = tiny_ftl(NULL);
	CHECK(f);
	int64_t t = fill(f, 4096);
	for (uint32_t l = 0; l < 4096; l += 7)
		CHECK(ssd_ftl_read(f, l, 1 + l % 3, t) >= t);
	CHECK(ssd_ftl_flush(f, t) >= t);
	CHECK(ssd_ftl_audit(f) == 0);
	CHECKF(!ssd_ftl_check_failure(f), "%s", failure(f));
	CHECK(f->flash.acct && f->flash.acct->ops > 8000);
	ssd_ftl_destroy(f);
}

/* A die's busy-until stamp moved back: the next program on it starts
 * while the previous one still runs. */
TEST(timing_two_operations_at_once_on_a_die_are_caught)
{
	struct ssd_ftl *f = tiny_ftl(NULL);
	CHECK(f);
	int64_t t = fill(f, 64); /* 16 programs queued on every die */
	CHECK(!ssd_ftl_check_failure(f));
	ssd_ftl_fault_timing(f, SSD_FLASH_FAULT_DIE_BACK, 0, SSD_MS);
	for (uint32_t l = 64; l < 128 && !ssd_ftl_check_failure(f); l++)
		t = ssd_ftl_write(f, l, t);
	const char *m = failure(f);
	CHECKF(strstr(m, "(program on unit 0, block ") &&
	       strstr(m, "before the previous operation on die 0 ends at"), "%s", m);
	CHECKF(strstr(m, "flash operation ") && strstr(m, " flash operations]"), "%s", m);
	CHECK(ssd_ftl_audit(f) == SSD_ESTATE); /* and it stays failed */
	ssd_ftl_destroy(f);
}

/* Two reads of the same page type on dies 0 and 2, which share channel
 * 0: with the channel's stamp moved back, the second transfer overlaps
 * the first. */
TEST(timing_two_transfers_at_once_on_a_channel_are_caught)
{
	struct ssd_ftl *f = tiny_ftl(NULL);
	CHECK(f);
	fill(f, 4); /* lpn u: page 0 of a block of unit u */
	int64_t t = SSD_S;
	CHECK(ssd_ftl_read(f, 0, 1, t) > t);
	CHECK(!ssd_ftl_check_failure(f));
	ssd_ftl_fault_timing(f, SSD_FLASH_FAULT_CHAN_BACK, 0, SSD_MS);
	CHECK(ssd_ftl_read(f, 2, 1, t) > t);
	const char *m = failure(f);
	CHECKF(strstr(m, "(transfer out on unit 2, block ") &&
	       strstr(m, "before the previous operation on channel 0 ends at"), "%s", m);
	ssd_ftl_destroy(f);
}

/* A second read of the page in the die's register may not leave it
 * before the read that put it there has ended. */
TEST(timing_data_leaving_a_register_before_its_read_is_caught)
{
	struct ssd_ftl *f = tiny_ftl(NULL);
	CHECK(f);
	fill(f, 4);
	int64_t t = SSD_S;
	CHECK(ssd_ftl_read(f, 0, 1, t) > t);
	ssd_ftl_fault_timing(f, SSD_FLASH_FAULT_CHAN_BACK, 0, SSD_MS);
	CHECK(ssd_ftl_read(f, 0, 1, t) >= t); /* from the register */
	const char *m = failure(f);
	CHECKF(strstr(m, "(transfer out on unit 0, block ") &&
	       strstr(m, "starts at 1000000000 ns, before its input is ready at "), "%s", m);
	ssd_ftl_destroy(f);
}

/* A die whose accounted work exceeds the time that passed (an operation
 * counted twice) is caught at the next check, here the audit the runner
 * makes at the end of a job. */
TEST(timing_a_die_busy_longer_than_the_time_passed_is_caught)
{
	struct ssd_ftl *f = tiny_ftl(NULL);
	CHECK(f);
	fill(f, 64);
	CHECK(ssd_ftl_audit(f) == 0);
	ssd_ftl_fault_timing(f, SSD_FLASH_FAULT_BUSY, 1, SSD_S);
	CHECK(ssd_ftl_audit(f) == SSD_ESTATE);
	const char *m = failure(f);
	CHECKF(strstr(m, "die 1 was busy ") && strstr(m, " ns that passed"), "%s", m);
	ssd_ftl_destroy(f);
}

/* A stamp behind the end of the latest operation on its die, with no
 * operation after it to overlap: the check itself sees it. */
TEST(timing_a_stamp_behind_its_latest_operation_is_caught)
{
	struct ssd_ftl *f = tiny_ftl(NULL);
	CHECK(f);
	fill(f, 64);
	ssd_ftl_fault_timing(f, SSD_FLASH_FAULT_DIE_BACK, 3, 1);
	CHECK(ssd_ftl_audit(f) == SSD_ESTATE);
	const char *m = failure(f);
	CHECKF(strstr(m, "die 3 is busy until ") &&
	       strstr(m, "but its latest operation ends at "), "%s", m);
	ssd_ftl_destroy(f);
}

/* A read that went to the array returns no sooner than the shortest tR
 * and a 4 KiB transfer: a timing table that reads in 1 ns is caught. */
TEST(timing_a_read_faster_than_its_array_read_is_caught)
{
	struct ssd_ftl *f = tiny_ftl(NULL);
	CHECK(f);
	fill(f, 4);
	ssd_ftl_fault_timing(f, SSD_FLASH_FAULT_T_READ, 0, 1);
	int64_t t = SSD_S;
	CHECK(ssd_ftl_read(f, 1, 1, t) >= t);
	const char *m = failure(f);
	CHECKF(strstr(m, "read of lpn 1 (1 page) with its input at 1000000000 ns") &&
	       strstr(m, " ns of an array read and its transfer"), "%s", m);
	ssd_ftl_destroy(f);
}

/* Unmapped pages and data still in an open page cost no array read, so
 * no bound: they are not failures. */
TEST(timing_reads_without_array_work_have_no_floor)
{
	struct ssd_ftl *f = tiny_ftl(big_pages);
	CHECK(f);
	ssd_ftl_write(f, 0, 0); /* one slot of an open 16 KiB page */
	ssd_ftl_fault_timing(f, SSD_FLASH_FAULT_T_READ, 0, 1);
	CHECK(ssd_ftl_read(f, 0, 2, SSD_S) == SSD_S); /* register, unmapped */
	CHECKF(!ssd_ftl_check_failure(f), "%s", failure(f));
	ssd_ftl_destroy(f);
}

/* A flush that programs a padded page returns no sooner than the
 * shortest tPROG. */
TEST(timing_a_flush_faster_than_its_program_is_caught)
{
	struct ssd_ftl *f = tiny_ftl(big_pages);
	CHECK(f);
	ssd_ftl_write(f, 0, 0);
	ssd_ftl_fault_timing(f, SSD_FLASH_FAULT_T_PROG, 0, 1);
	CHECK(ssd_ftl_flush(f, SSD_S) >= SSD_S);
	const char *m = failure(f);
	CHECKF(strstr(m, "flush with its input at 1000000000 ns") &&
	       strstr(m, " ns of the program of a padded page"), "%s", m);
	ssd_ftl_destroy(f);
}

/* Off, the accounting sees nothing and a fault breaks no check. */
TEST(timing_checks_are_off_without_the_checker)
{
	struct ssd_ftl *f = tiny_ftl(NULL);
	CHECK(f);
	ssd_ftl_set_check_every(f, 0);
	CHECK(f->flash.acct == NULL);
	fill(f, 64);
	ssd_ftl_fault_timing(f, SSD_FLASH_FAULT_DIE_BACK, 0, SSD_MS);
	fill(f, 64);
	CHECK(ssd_ftl_audit(f) == 0 && !ssd_ftl_check_failure(f));
	ssd_ftl_destroy(f);
}

/* The full check runs at the end of every call in which a program
 * failed, a block was retired or the drive turned read-only -- and only
 * then, GC victims never triggering it here: on small drives worn out
 * by random writes, with flushes. */
TEST(checker_runs_after_every_program_failure_retirement_and_read_only)
{
	uint64_t fails = 0, retired = 0, readonly = 0;
	for (uint64_t seed = 1; seed <= 6; seed++) {
		int big = seed % 3 == 0;
		const char *set[] = {big ? "capacity=12m" : "capacity=4m",
				     big ? "op=0.5" : "op=0.25",
				     seed % 2 ? "pe_cycles=20" : "pe_cycles=30",
				     big ? "page_size=16k" : "page_size=4k",
				     "pages_per_block=16", NULL};
		struct ssd_ftl *f = tiny_ftl(set);
		CHECK(f);
		ssd_ftl_set_check_every(f, UINT32_MAX);
		struct ssd_rng r;
		ssd_rng_seed(&r, seed);
		int64_t t = 0;
		for (int i = 0; i < 3000000 && !f->readonly; i++) {
			uint64_t pf = f->ctr.prog_fail, bad = f->bad;
			uint64_t runs = f->check_runs;
			int64_t d = i % 50 == 49 ? ssd_ftl_flush(f, t)
				: ssd_ftl_write(f, (uint32_t)ssd_rng_below(&r, f->nlp), t);
			int event = f->ctr.prog_fail != pf || f->bad != bad || f->readonly;
			fails += f->ctr.prog_fail != pf;
			retired += f->bad != bad;
			readonly += f->readonly;
			CHECKF(f->check_runs == runs + (uint64_t)event,
			       "seed %llu call %d: event %d, checks %llu -> %llu",
			       (unsigned long long)seed, i, event,
			       (unsigned long long)runs,
			       (unsigned long long)f->check_runs);
			if (d >= 0)
				t = d;
			else
				CHECKF(d == SSD_EROFS, "seed %llu: %s", (unsigned long long)seed,
				       ssd_strerror((int)d));
		}
		CHECKF(!ssd_ftl_check_failure(f), "%s", failure(f));
		CHECKF(f->readonly, "seed %llu never wore out", (unsigned long long)seed);
		ssd_ftl_destroy(f);
	}
	CHECKF(fails && retired && readonly == 6, "%llu %llu %llu",
	       (unsigned long long)fails, (unsigned long long)retired,
	       (unsigned long long)readonly);
}

/* A drive turned read-only outside any call (the fault) is checked at
 * the next one. */
TEST(checker_runs_at_the_call_after_a_turn_to_read_only)
{
	struct ssd_ftl *f = tiny_ftl(NULL);
	CHECK(f);
	ssd_ftl_set_check_every(f, UINT32_MAX);
	fill(f, 8);
	uint64_t runs = f->check_runs;
	ssd_ftl_fault_readonly(f);
	CHECK(ssd_ftl_write(f, 9, SSD_S) == SSD_EROFS);
	CHECK(f->check_runs == runs + 1);
	ssd_ftl_destroy(f);
}
