/* The write buffer merges (device.h "Write buffer"): writes to a page it
 * holds cost no program, a page written in part waits to be filled and
 * drains once, and a flush, a FUA write, a read, a TRIM and a power cut
 * each see the merged page as the host wrote it. */
#include <string.h>

#include "ftl/ftl.h"
#include "machine/device.h"
#include "machine/verify.h"
#include "t.h"
#include "t_power.h"

static char err[512];

/* t_power_drive (tiny, 16 KiB pages, the checker, the host record and
 * power-loss tracking) with a 1 MiB write buffer and `more`. */
static struct ssd_dev *drive(const char *more)
{
	const char *sets[] = {"write_buffer=1m", more};
	return t_power_drive(sets, more ? 2 : 1, err, sizeof err);
}

/* Write len bytes at off at t, counted in the host record: the
 * completion. */
static int64_t put(struct ssd_dev *d, uint64_t off, uint32_t len, int fua,
		   int64_t t)
{
	uint32_t lpn = (uint32_t)(off / 4096);
	uint32_t n = (uint32_t)((off + len + 4095) / 4096) - lpn;
	ssd_vrec_write(d->vrec, lpn, n);
	return ssd_dev_submit(d, SSD_DDIR_WRITE | (fua ? SSD_DEV_FUA : 0), off,
			      len, t);
}

/* 4 KiB pages handed to the FTL (each one a slot programmed). */
static uint64_t drained(const struct ssd_dev *d)
{
	return ssd_dev_counters(d)->host_write_lp;
}

TEST(wbuf_sequential_512_byte_writes_program_each_page_once)
{
	struct ssd_dev *d = drive(NULL);
	CHECKF(d, "%s", err);
	int64_t t = 0;
	for (uint64_t off = 0; off < 64 * 4096; off += 512) {
		t = put(d, off, 512, 0, t);
		CHECK(t >= 0);
	}
	CHECK(drained(d) == 64);
	CHECK(ssd_dev_counters(d)->rmw_read_lp == 0);
	CHECK(ssd_dev_flush(d, t) >= t);
	CHECK(drained(d) == 64);
	for (uint32_t l = 0; l < 64; l++)
		CHECK(t_power_holds(d, l, 8));
	CHECK(!ssd_dev_check_failure(d));
	ssd_dev_destroy(d);
}

TEST(wbuf_overwrite_of_a_held_page_costs_no_program)
{
	struct ssd_dev *d = drive(NULL);
	CHECKF(d, "%s", err);
	int64_t t = put(d, 8192, 2048, 0, 0); /* held: half a page */
	CHECK(t >= 0 && drained(d) == 0);
	t = put(d, 8192 + 512, 1024, 0, t);   /* merged */
	CHECK(t >= 0 && drained(d) == 0);
	t = put(d, 8192, 4096, 0, t);         /* the whole page: drains */
	CHECK(t >= 0 && drained(d) == 1);
	CHECK(ssd_dev_flush(d, t) >= t);
	CHECK(drained(d) == 1 && t_power_holds(d, 2, 3));
	CHECK(ssd_dev_counters(d)->rmw_read_lp == 0);
	CHECK(!ssd_dev_check_failure(d));
	ssd_dev_destroy(d);
}

TEST(wbuf_flush_and_fua_drain_a_page_written_in_part)
{
	struct ssd_dev *d = drive(NULL);
	CHECKF(d, "%s", err);
	int64_t t = put(d, 0, 4096, 0, 0);
	CHECK(ssd_dev_flush(d, t) >= t);
	t = put(d, 1024, 1024, 0, t); /* held, over data on NAND */
	CHECK(drained(d) == 1 && !t_power_holds(d, 0, 2));
	int64_t f = ssd_dev_flush(d, t);
	CHECK(f >= t);
	/* merged with the old page (a read-modify-write) and programmed */
	CHECK(drained(d) == 2 && t_power_holds(d, 0, 2));
	CHECK(ssd_dev_counters(d)->rmw_read_lp == 1);
	int64_t p = put(d, 4096 + 512, 512, 1, f); /* FUA: durable at once */
	CHECK(p > f && drained(d) == 3 && t_power_holds(d, 1, 1));
	/* a cut as it completes keeps it */
	struct ssd_power_cut pc;
	CHECK(!t_power_cut(d, p, &pc));
	CHECK(pc.lost_lp == 0 && t_power_holds(d, 1, 1) && t_power_holds(d, 0, 2));
	CHECK(!ssd_dev_check_failure(d));
	ssd_dev_destroy(d);
}

TEST(wbuf_read_and_trim_of_a_held_page)
{
	struct ssd_dev *d = drive(NULL);
	CHECKF(d, "%s", err);
	int64_t t = put(d, 0, 8192, 0, 0);
	t = ssd_dev_flush(d, t);
	t = put(d, 512, 512, 0, t);
	t = put(d, 4096 + 512, 512, 0, t);
	CHECK(t >= 0 && drained(d) == 2);
	/* a read takes the page merged: drained first, the newest data */
	int64_t r = ssd_dev_submit(d, SSD_DDIR_READ, 0, 4096, t);
	CHECK(r > t && drained(d) == 3 && t_power_holds(d, 0, 2));
	/* a TRIM of the whole page drops what the buffer holds of it */
	ssd_vrec_trim(d->vrec, 1, 1);
	CHECK(ssd_dev_submit(d, SSD_DDIR_TRIM, 4096, 4096, r) >= r);
	CHECK(drained(d) == 3);
	uint32_t lp, tag;
	CHECK(!ssd_ftl_verify_get(d->ftl, 1, &lp, &tag));
	CHECK(ssd_dev_flush(d, r) >= r && drained(d) == 3);
	CHECK(!ssd_dev_check_failure(d));
	ssd_dev_destroy(d);
}

TEST(wbuf_power_cut_loses_a_held_page_without_plp_and_saves_it_with)
{
	for (int plp = 0; plp < 2; plp++) {
		struct ssd_dev *d = drive(plp ? "plp=yes" : NULL);
		CHECKF(d, "%s", err);
		int64_t t = put(d, 0, 4096, 0, 0);
		t = ssd_dev_flush(d, t);
		t = put(d, 2048, 2048, 0, t);
		CHECK(t >= 0);
		struct ssd_power_cut pc;
		CHECK(!t_power_cut(d, t, &pc));
		CHECK(pc.buffered_lp == 1);
		CHECK(pc.lost_lp == (plp ? 0u : 1u));
		/* the flushed page, or the merged one */
		CHECK(t_power_holds(d, 0, plp ? 2 : 1));
		CHECK(!ssd_dev_check_failure(d));
		ssd_dev_destroy(d);
	}
}

/* A burst of 64 whole pages at 0 (lpn 100 on): the pages after it wait in
 * DRAM while the burst's loads hold the channels.  Returns the pages
 * drained, or UINT64_MAX if a write failed. */
static uint64_t burst(struct ssd_dev *d)
{
	for (uint32_t l = 100; l < 164; l++)
		if (put(d, (uint64_t)l * 4096, 4096, 0, 0) < 0)
			return UINT64_MAX;
	return drained(d);
}

TEST(wbuf_whole_page_overwrite_still_in_dram_costs_no_program)
{
	struct ssd_dev *d = drive(NULL);
	CHECKF(d, "%s", err);
	/* the first copy waits in DRAM behind the burst's loads */
	uint64_t b = burst(d);
	CHECK(b == 64);
	int64_t t = put(d, 5 * 4096, 4096, 0, 0);
	CHECK(t >= 0 && drained(d) == b + 1);
	int64_t u = put(d, 5 * 4096, 4096, 0, t); /* replaces it there */
	CHECK(u >= t && drained(d) == b + 1 && t_power_holds(d, 5, 2));
	/* once in the register, a write is a new copy */
	u = put(d, 5 * 4096, 4096, 0, t + SSD_S);
	CHECK(u >= 0 && drained(d) == b + 2 && t_power_holds(d, 5, 3));
	/* a flush commits the copy: the write after it is another one */
	u = put(d, 6 * 4096, 4096, 0, u);
	CHECK(drained(d) == b + 3);
	CHECK(ssd_dev_flush(d, u) >= u);
	u = put(d, 6 * 4096, 4096, 0, u);
	CHECK(drained(d) == b + 4 && t_power_holds(d, 6, 2));
	/* a cut keeps what the flush programmed and loses the write after
	 * it, in an open page */
	struct ssd_power_cut pc;
	CHECK(!t_power_cut(d, u + SSD_S, &pc));
	CHECK(t_power_holds(d, 5, 3) && t_power_holds(d, 6, 1) && pc.lost_lp == 1);
	CHECK(!ssd_dev_check_failure(d));
	ssd_dev_destroy(d);
	/* the copy replaced in DRAM is what its program stores */
	d = drive(NULL);
	CHECKF(d, "%s", err);
	b = burst(d);
	CHECK(b == 64);
	t = put(d, 5 * 4096, 4096, 0, 0);
	u = put(d, 5 * 4096, 4096, 0, t);
	CHECK(drained(d) == b + 1);
	u = ssd_dev_flush(d, u);
	CHECK(u > 0 && !t_power_cut(d, u, &pc));
	CHECK(pc.lost_lp == 0 && t_power_holds(d, 5, 2));
	ssd_dev_destroy(d);
	/* a write that arrives once the load into the register has begun is
	 * a new copy: the load carries the data it began with */
	d = drive(NULL);
	CHECKF(d, "%s", err);
	t = put(d, 5 * 4096, 4096, 0, 0);
	u = put(d, 5 * 4096, 4096, 0, t);
	CHECK(u >= t && drained(d) == 2 && t_power_holds(d, 5, 2));
	CHECK(!ssd_dev_check_failure(d));
	ssd_dev_destroy(d);
	/* a page in a register is no longer in the buffer at a cut */
	d = drive(NULL);
	CHECKF(d, "%s", err);
	t = put(d, 5 * 4096, 4096, 0, 0);
	u = put(d, 5 * 4096, 4096, 0, t);
	CHECK(!t_power_cut(d, u + SSD_MS, &pc));
	CHECK(pc.buffered_lp == 0 && pc.open_lp == 2 && pc.lost_lp == 1);
	CHECK(!ssd_dev_check_failure(d));
	ssd_dev_destroy(d);
}
