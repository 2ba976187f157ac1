/* streams.c: write streams on placement handles.  The shares are of the
 * pages written whatever the pieces; beside a random stream, a log
 * trimmed a reclaim unit at a time on a handle of its own costs fewer
 * copies than one rewritten in place, whose oldest block GC takes before
 * it empties (docs/accuracy.md checks the first against the oracle);
 * streams that cannot be run are refused. */
#include <math.h>
#include <string.h>

#include "machine/device.h"
#include "methods/streams.h"
#include "t.h"
#include "t_sim.h"

static char err[512];

/* tiny with room for three persistently isolated handles */
static struct ssd_dev *drive(void)
{
	const char *set[] = {"fdp=yes", "fdp_handles=3", "op=0.3",
			     "fdp_isolation=persistent"};
	struct ssd_dev *d = t_sim_drive("tiny", set, 4, err, sizeof err);
	if (d)
		ssd_dev_set_check_every(d, 1);
	return d;
}

/* stripe and reclaim unit of tiny: 4 units of 64-page blocks */
#define STRIPE 4
#define RU (4 * 64)

TEST(streams_shares_are_of_pages_whatever_the_pieces)
{
	struct ssd_dev *d = drive();
	CHECKF(d, "%s", err);
	uint64_t pages = ssd_dev_capacity(d) / 4096;
	struct ssd_streams m;
	ssd_streams_init(&m, d, 5);
	m.n = 2;
	m.s[0] = (struct ssd_stream){.start = 0, .len = pages / 2 / RU * RU,
		.kind = SSD_STREAM_LOG_TRIM, .handle = 1, .share = 0.25,
		.piece = RU, .trim = RU};
	m.s[1] = (struct ssd_stream){.start = m.s[0].len,
		.len = pages - m.s[0].len, .kind = SSD_STREAM_RANDOM,
		.handle = 2, .share = 0.75, .piece = STRIPE};
	CHECK(ssd_streams_fill(&m) == 0);
	/* a turn of the log writes 64 times a turn of the random stream's
	 * pages: some 256 log turns in all, their count within a few
	 * standard deviations (6%) */
	CHECK(ssd_streams_run(&m, 16 * pages) == 0);
	double f = (double)m.s[0].written / (double)(m.s[0].written + m.s[1].written);
	CHECKF(fabs(f - 0.25) < 0.04, "the log's share %.3f", f);
	CHECKF(!ssd_dev_check_failure(d), "%s", ssd_dev_check_failure(d));
	ssd_dev_destroy(d);
}

/* A log on its handle beside the random stream on another, half the
 * writes each: the WA of the second half and its GC copies. */
static double waf_with_log(int kind, uint64_t *copies)
{
	struct ssd_dev *d = drive();
	if (!d)
		return -1;
	uint64_t pages = ssd_dev_capacity(d) / 4096;
	struct ssd_streams m;
	ssd_streams_init(&m, d, 9);
	m.n = 2;
	m.s[0] = (struct ssd_stream){.start = 0, .len = pages / 2 / RU * RU,
		.kind = kind, .handle = 1, .share = 0.5, .piece = STRIPE,
		.trim = RU};
	m.s[1] = (struct ssd_stream){.start = m.s[0].len,
		.len = pages - m.s[0].len, .kind = SSD_STREAM_RANDOM,
		.handle = 2, .share = 0.5, .piece = STRIPE};
	if (ssd_streams_fill(&m) || ssd_streams_run(&m, 3 * pages))
		return -1;
	struct ssd_counters c0 = *ssd_dev_counters(d);
	if (ssd_streams_run(&m, 3 * pages))
		return -1;
	const struct ssd_counters *c = ssd_dev_counters(d);
	*copies = c->gc_copy_lp - c0.gc_copy_lp;
	double w = ssd_counters_waf_since(c, &c0);
	if (ssd_dev_check_failure(d))
		w = -2;
	ssd_dev_destroy(d);
	return w;
}

TEST(streams_a_log_dying_whole_costs_less_than_one_dying_a_page_at_a_time)
{
	uint64_t whole = 0, paged = 0;
	double w1 = waf_with_log(SSD_STREAM_LOG_TRIM, &whole);
	double w2 = waf_with_log(SSD_STREAM_LOG, &paged);
	CHECKF(w1 > 1 && w2 > 1, "%s: %g %g", err, w1, w2);
	/* the random half costs copies either way; the log dying a page at
	 * a time costs more: greedy takes its oldest block before it empties */
	CHECKF(paged > whole * 11 / 10, "copies: trimmed whole %llu, in place %llu",
	       (unsigned long long)whole, (unsigned long long)paged);
}

TEST(streams_refuse_what_cannot_run)
{
	struct ssd_dev *d = drive();
	CHECKF(d, "%s", err);
	struct ssd_streams m;
	ssd_streams_init(&m, d, 1);
	m.n = 1;
	m.s[0] = (struct ssd_stream){.len = 1000, .kind = SSD_STREAM_LOG_TRIM,
		.share = 1, .piece = 4, .trim = 6};
	CHECK(ssd_streams_run(&m, 10) == SSD_EINVAL);    /* trim % piece */
	m.s[0].trim = 8;
	m.s[0].len = 1004;
	CHECK(ssd_streams_run(&m, 10) == SSD_EINVAL);    /* len % trim */
	m.s[0] = (struct ssd_stream){.len = 1000, .share = 0, .piece = 4};
	CHECK(ssd_streams_run(&m, 10) == SSD_EINVAL);    /* no weight */
	m.s[0].share = 1;
	m.s[0].piece = 0;
	CHECK(ssd_streams_run(&m, 10) == SSD_EINVAL);
	ssd_dev_destroy(d);
}
