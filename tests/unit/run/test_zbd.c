/* The zone logic of zonemode=zbd (src/run/zbd.c) against fio HEAD's
 * zbd.c as docs/fio-zoned.md §2 describes it: writes at the write
 * pointers, the choice of a zone under max_open_zones and
 * job_max_open_zones, a full zone reset when chosen, a remainder smaller
 * than the block finished (or written short with write_zone_remainder),
 * zone_reset_threshold and _frequency, reads kept below the write
 * pointers, trims as zone resets, the job's end when no zone can be
 * written, and the drive commands each step sends. */
#include <stdint.h>
#include <string.h>

#include "job/job.h"
#include "run/zbd.h"
#include "t.h"

#define MB (1ull << 20)
#define KB 1024u

/* What the drive was sent, in order. */
static struct sent {
	int n;
	int action[64];
	uint32_t zone[64];
} sent;

static int64_t rec_send(void *ctx, int action, uint32_t zone, int64_t t)
{
	(void)ctx;
	if (sent.n < 64) {
		sent.action[sent.n] = action;
		sent.zone[sent.n] = zone;
	}
	sent.n++;
	return t + 1000; /* a zoned drive's command takes 1 us */
}

/* 8 zones of 1 MiB on an 8 MiB drive, max_write targets, capacity cap. */
static struct ssd_zbd *mk(uint32_t max_write, uint64_t cap)
{
	memset(&sent, 0, sizeof sent);
	struct ssd_zbd_ops ops = {.send = rec_send};
	return ssd_zbd_create(8 * MB, MB, cap, max_write, &ops);
}

static struct ssd_job job_of(int rw, uint32_t bs)
{
	struct ssd_job j;
	ssd_job_defaults(&j, "t");
	j.rw = rw;
	ssd_job_set_bs(&j, bs);
	for (int d = 0; d < SSD_DDIR_N; d++)
		j.min_bs[d] = j.max_bs[d] = bs;
	j.zonemode = SSD_ZONEMODE_ZBD;
	j.zonesize = MB;
	return j;
}

/* Adjust one I/O of direction ddir drawn at offset off, len bytes; a
 * write that is accepted is issued. */
static int go(struct ssd_zbd *d, struct ssd_zbd_job *j, int ddir,
	      uint64_t off, uint32_t len, struct ssd_io *io)
{
	*io = (struct ssd_io){.ddir = ddir, .offset = off, .len = len};
	int k = ssd_zbd_adjust(d, j, io, 0);
	if (k == SSD_ZBD_ACCEPT && io->ddir == SSD_DDIR_WRITE)
		ssd_zbd_issued(d, j, io);
	return k;
}

TEST(zbd_writes_go_to_the_write_pointer)
{
	struct ssd_zbd *d = mk(0, 0);
	CHECK(d && d->nzones == 8);
	struct ssd_job job = job_of(SSD_RW_WRITE, 256 * KB);
	struct ssd_zbd_job j;
	CHECK(ssd_zbd_job_start(d, &j, &job, 0, 8 * MB, 0) == 0);
	struct ssd_io io;
	CHECK(go(d, &j, SSD_DDIR_WRITE, 0, 256 * KB, &io) == SSD_ZBD_ACCEPT);
	CHECK(io.offset == 0 && io.len == 256 * KB);
	/* drawn further into the zone: it goes to the write pointer */
	CHECK(go(d, &j, SSD_DDIR_WRITE, 768 * KB, 256 * KB, &io) == SSD_ZBD_ACCEPT);
	CHECK(io.offset == 256 * KB);
	CHECK(d->z[0].wp == 512 * KB);
	/* another zone: its own write pointer, no reset of an empty one */
	CHECK(go(d, &j, SSD_DDIR_WRITE, 5 * MB + 4096, 256 * KB, &io) == SSD_ZBD_ACCEPT);
	CHECK(io.offset == 5 * MB && j.resets == 0 && sent.n == 0);
	/* a write larger than a zone */
	CHECK(go(d, &j, SSD_DDIR_WRITE, 0, 2 * MB, &io) == SSD_ZBD_ERROR);
	CHECK(!strcmp(j.msg, "I/O buflen exceeds zone size"));
	ssd_zbd_destroy(d);
}

TEST(zbd_full_zone_chosen_is_reset)
{
	struct ssd_zbd *d = mk(0, 0);
	struct ssd_job job = job_of(SSD_RW_WRITE, MB);
	struct ssd_zbd_job j;
	ssd_zbd_job_start(d, &j, &job, 0, 8 * MB, 0);
	struct ssd_io io;
	CHECK(go(d, &j, SSD_DDIR_WRITE, 2 * MB, MB, &io) == SSD_ZBD_ACCEPT);
	CHECK(d->z[2].wp == 3 * MB && j.resets == 0);
	CHECK(go(d, &j, SSD_DDIR_WRITE, 2 * MB, MB, &io) == SSD_ZBD_ACCEPT);
	CHECK(io.offset == 2 * MB && j.resets == 1);
	CHECK(sent.n == 1 && sent.action[0] == SSD_ZBD_RESET && sent.zone[0] == 2);
	CHECK(j.ready == 1000); /* the write waits for the reset */
	ssd_zbd_destroy(d);
}

TEST(zbd_zone_choice_under_limits)
{
	struct ssd_zbd *d = mk(2, 0);
	struct ssd_job job = job_of(SSD_RW_RANDWRITE, 64 * KB);
	struct ssd_zbd_job j;
	ssd_zbd_job_start(d, &j, &job, 0, 8 * MB, 0);
	struct ssd_io io;
	CHECK(go(d, &j, SSD_DDIR_WRITE, 1 * MB, 64 * KB, &io) == SSD_ZBD_ACCEPT);
	CHECK(go(d, &j, SSD_DDIR_WRITE, 6 * MB, 64 * KB, &io) == SSD_ZBD_ACCEPT);
	CHECK(d->nwrite == 2 && j.num_write == 2);
	/* a third zone: sent to target (offset x 2 / 8 MiB) of the list */
	CHECK(go(d, &j, SSD_DDIR_WRITE, 3 * MB, 64 * KB, &io) == SSD_ZBD_ACCEPT);
	CHECK(io.offset == 1 * MB + 64 * KB);
	CHECK(go(d, &j, SSD_DDIR_WRITE, 7 * MB, 64 * KB, &io) == SSD_ZBD_ACCEPT);
	CHECK(io.offset == 6 * MB + 64 * KB);
	CHECK(d->z[3].wp == 3 * MB && d->z[7].wp == 7 * MB);
	ssd_zbd_destroy(d);

	/* job_max_open_zones 1 under a global 4 */
	d = mk(4, 0);
	job.job_max_open_zones = 1;
	ssd_zbd_job_start(d, &j, &job, 0, 8 * MB, 0);
	CHECK(go(d, &j, SSD_DDIR_WRITE, 5 * MB, 64 * KB, &io) == SSD_ZBD_ACCEPT);
	CHECK(go(d, &j, SSD_DDIR_WRITE, 2 * MB, 64 * KB, &io) == SSD_ZBD_ACCEPT);
	CHECK(io.offset == 5 * MB + 64 * KB && d->nwrite == 1);
	ssd_zbd_destroy(d);
}

TEST(zbd_full_target_leaves_the_list)
{
	struct ssd_zbd *d = mk(1, 0);
	struct ssd_job job = job_of(SSD_RW_RANDWRITE, 512 * KB);
	struct ssd_zbd_job j;
	ssd_zbd_job_start(d, &j, &job, 0, 8 * MB, 0);
	struct ssd_io io;
	CHECK(go(d, &j, SSD_DDIR_WRITE, 4 * MB, 512 * KB, &io) == SSD_ZBD_ACCEPT);
	CHECK(go(d, &j, SSD_DDIR_WRITE, 4 * MB, 512 * KB, &io) == SSD_ZBD_ACCEPT);
	CHECK(d->nwrite == 0 && !d->z[4].write && j.num_write == 0);
	/* the next random write takes its own zone as the new target */
	CHECK(go(d, &j, SSD_DDIR_WRITE, 1 * MB, 512 * KB, &io) == SSD_ZBD_ACCEPT);
	CHECK(io.offset == 1 * MB && d->nwrite == 1 && d->write_zones[0] == 1);
	ssd_zbd_destroy(d);
}

TEST(zbd_remainder_is_finished)
{
	/* 384 KiB blocks in 1 MiB zones leave 256 KiB: HEAD finishes the
	 * zone and goes on in the next one (3.33 reset it instead) */
	struct ssd_zbd *d = mk(0, 0);
	struct ssd_job job = job_of(SSD_RW_WRITE, 384 * KB);
	struct ssd_zbd_job j;
	ssd_zbd_job_start(d, &j, &job, 0, 4 * MB, 0);
	struct ssd_io io;
	go(d, &j, SSD_DDIR_WRITE, 0, 384 * KB, &io);
	go(d, &j, SSD_DDIR_WRITE, 384 * KB, 384 * KB, &io);
	CHECK(go(d, &j, SSD_DDIR_WRITE, 768 * KB, 384 * KB, &io) == SSD_ZBD_ACCEPT);
	CHECK(io.offset == MB && io.len == 384 * KB);
	CHECK(sent.n == 1 && sent.action[0] == SSD_ZBD_FINISH && sent.zone[0] == 0);
	CHECK(d->z[0].wp == MB && j.resets == 0);
	/* the last zone of a sequential job: nothing left, eof */
	d->z[3].wp = 3 * MB + 768 * KB;
	CHECK(go(d, &j, SSD_DDIR_WRITE, 3 * MB + 768 * KB, 384 * KB, &io) ==
	      SSD_ZBD_EOF);
	ssd_zbd_destroy(d);

	/* write_zone_remainder: the 256 KiB left are written short */
	d = mk(0, 0);
	job.write_zone_remainder = 1;
	ssd_zbd_job_start(d, &j, &job, 0, 4 * MB, 0);
	go(d, &j, SSD_DDIR_WRITE, 0, 384 * KB, &io);
	go(d, &j, SSD_DDIR_WRITE, 384 * KB, 384 * KB, &io);
	CHECK(go(d, &j, SSD_DDIR_WRITE, 768 * KB, 384 * KB, &io) == SSD_ZBD_ACCEPT);
	CHECK(io.offset == 768 * KB && io.len == 256 * KB && sent.n == 0);
	ssd_zbd_destroy(d);
}

TEST(zbd_capacity_cuts_writes)
{
	struct ssd_zbd *d = mk(0, 768 * KB);
	struct ssd_job job = job_of(SSD_RW_WRITE, 512 * KB);
	struct ssd_zbd_job j;
	ssd_zbd_job_start(d, &j, &job, 0, 8 * MB, 0);
	struct ssd_io io;
	go(d, &j, SSD_DDIR_WRITE, 0, 512 * KB, &io);
	CHECK(go(d, &j, SSD_DDIR_WRITE, 512 * KB, 512 * KB, &io) == SSD_ZBD_ACCEPT);
	/* 256 KiB of room: less than a block, the zone is finished */
	CHECK(io.offset == MB && sent.n == 1 && sent.action[0] == SSD_ZBD_FINISH);
	CHECK(d->z[0].wp == 768 * KB);
	ssd_zbd_destroy(d);
}

TEST(zbd_reset_threshold_and_frequency)
{
	/* frequency 0.5, no threshold: every second write resets its zone */
	struct ssd_zbd *d = mk(0, 0);
	struct ssd_job job = job_of(SSD_RW_RANDWRITE, 256 * KB);
	job.zone_reset_frequency = 0.5;
	struct ssd_zbd_job j;
	ssd_zbd_job_start(d, &j, &job, 0, 8 * MB, 0);
	struct ssd_io io;
	go(d, &j, SSD_DDIR_WRITE, 0, 256 * KB, &io);          /* 1 */
	go(d, &j, SSD_DDIR_WRITE, 0, 256 * KB, &io);          /* 2: reset */
	CHECK(io.offset == 0 && j.resets == 1);
	go(d, &j, SSD_DDIR_WRITE, 0, 256 * KB, &io);          /* 3 */
	CHECK(io.offset == 256 * KB);
	go(d, &j, SSD_DDIR_WRITE, MB, 256 * KB, &io);         /* 4: empty zone */
	CHECK(j.resets == 1); /* a due reset of an empty zone is not counted */
	ssd_zbd_destroy(d);

	/* a threshold of 0.25 of 8 MiB: nothing until 2 MiB hold data */
	d = mk(0, 0);
	job.zone_reset_threshold = 0.25;
	ssd_zbd_job_start(d, &j, &job, 0, 8 * MB, 0);
	for (int i = 0; i < 8; i++)
		go(d, &j, SSD_DDIR_WRITE, (uint64_t)(i % 2) * MB, 256 * KB, &io);
	CHECK(j.resets == 0 && d->vdb == 2 * MB);
	go(d, &j, SSD_DDIR_WRITE, 2 * MB, 256 * KB, &io);     /* due: 1 of 2 */
	CHECK(j.resets == 0 && io.offset == 2 * MB);
	go(d, &j, SSD_DDIR_WRITE, 2 * MB, 256 * KB, &io);     /* reset zone 2 */
	CHECK(j.resets == 1 && io.offset == 2 * MB);
	CHECK(d->vdb == 2 * MB + 256 * KB);
	ssd_zbd_destroy(d);
}

TEST(zbd_reads_stay_below_the_write_pointer)
{
	struct ssd_zbd *d = mk(0, 0);
	struct ssd_job job = job_of(SSD_RW_RANDREAD, 128 * KB);
	struct ssd_zbd_job j;
	ssd_zbd_job_start(d, &j, &job, 0, 8 * MB, 0);
	struct ssd_io io;
	/* nothing written: nothing to read */
	CHECK(go(d, &j, SSD_DDIR_READ, 3 * MB, 128 * KB, &io) == SSD_ZBD_EOF);
	d->z[2].wp = 2 * MB + 512 * KB;
	d->z[5].wp = 5 * MB + 128 * KB;
	/* random, in zone 2 past its write pointer: moved below it */
	CHECK(go(d, &j, SSD_DDIR_READ, 2 * MB + 768 * KB, 128 * KB, &io) ==
	      SSD_ZBD_ACCEPT);
	CHECK(io.offset >= 2 * MB && io.offset + io.len <= 2 * MB + 512 * KB);
	/* random in empty zone 4: the nearest with data, forward first */
	CHECK(go(d, &j, SSD_DDIR_READ, 4 * MB, 128 * KB, &io) == SSD_ZBD_ACCEPT);
	CHECK(io.offset == 5 * MB && io.len == 128 * KB);
	ssd_zbd_destroy(d);

	d = mk(0, 0);
	job = job_of(SSD_RW_READ, 256 * KB);
	ssd_zbd_job_start(d, &j, &job, 0, 8 * MB, 0);
	d->z[0].wp = 384 * KB;
	d->z[6].wp = 6 * MB + MB;
	CHECK(go(d, &j, SSD_DDIR_READ, 256 * KB, 256 * KB, &io) == SSD_ZBD_ACCEPT);
	/* cut at the write pointer, whole blocks: nothing fits, so at the
	 * write pointer the sequential read jumps to the next zone with
	 * data */
	CHECK(io.offset == 6 * MB && io.len == 256 * KB);
	CHECK(go(d, &j, SSD_DDIR_READ, 7 * MB, 256 * KB, &io) == SSD_ZBD_EOF);
	/* read_beyond_wp: as drawn */
	job.read_beyond_wp = 1;
	ssd_zbd_job_start(d, &j, &job, 0, 8 * MB, 0);
	CHECK(go(d, &j, SSD_DDIR_READ, 3 * MB, 256 * KB, &io) == SSD_ZBD_ACCEPT);
	CHECK(io.offset == 3 * MB);
	ssd_zbd_destroy(d);
}

TEST(zbd_trims_are_zone_resets)
{
	struct ssd_zbd *d = mk(2, 0);
	struct ssd_job job = job_of(SSD_RW_RANDTRIM, MB);
	struct ssd_zbd_job j, w;
	struct ssd_job wjob = job_of(SSD_RW_RANDWRITE, 256 * KB);
	ssd_zbd_job_start(d, &w, &wjob, 0, 8 * MB, 0);
	ssd_zbd_job_start(d, &j, &job, 0, 8 * MB, 0);
	struct ssd_io io;
	go(d, &w, SSD_DDIR_WRITE, 3 * MB, 256 * KB, &io);
	CHECK(d->nwrite == 1);
	/* a random trim of an empty zone moves to the nearest with data */
	CHECK(go(d, &j, SSD_DDIR_TRIM, 2 * MB, MB, &io) == SSD_ZBD_ACCEPT);
	CHECK(io.offset == 3 * MB);
	CHECK(ssd_zbd_trim(d, &j, &io, 0) == 1000);
	CHECK(j.resets == 1 && d->z[3].wp == 3 * MB && d->nwrite == 0);
	/* an empty zone is not reset, not counted */
	io = (struct ssd_io){.ddir = SSD_DDIR_TRIM, .offset = 5 * MB, .len = MB};
	CHECK(ssd_zbd_trim(d, &j, &io, 7) == 7 && j.resets == 1 && sent.n == 1);
	/* nothing left to trim: eof */
	CHECK(go(d, &j, SSD_DDIR_TRIM, 2 * MB, MB, &io) == SSD_ZBD_EOF);
	io = (struct ssd_io){.ddir = SSD_DDIR_TRIM, .offset = 5 * MB + 4096,
			     .len = MB};
	CHECK(ssd_zbd_trim(d, &j, &io, 0) < 0);
	CHECK(strstr(j.msg, "Trim offset not at zone start") != NULL);
	ssd_zbd_destroy(d);
}

TEST(zbd_verify_resets_at_start_and_refuses_full_zones)
{
	struct ssd_zbd *d = mk(0, 0);
	struct ssd_job job = job_of(SSD_RW_WRITE, MB);
	job.verify = SSD_VERIFY_DATA;
	d->z[1].wp = 1 * MB + 4096;
	d->z[6].wp = 7 * MB;
	struct ssd_zbd_job j;
	CHECK(ssd_zbd_job_start(d, &j, &job, 0, 4 * MB, 0) == 0);
	/* the zones of its region holding data are reset, zone 6 is not */
	CHECK(j.resets == 1 && d->z[1].wp == MB && d->z[6].wp == 7 * MB);
	struct ssd_io io;
	for (int i = 0; i < 4; i++)
		CHECK(go(d, &j, SSD_DDIR_WRITE, (uint64_t)i * MB, MB, &io) ==
		      SSD_ZBD_ACCEPT);
	/* every zone full, with data to verify: no zone can be written */
	CHECK(go(d, &j, SSD_DDIR_WRITE, 0, MB, &io) == SSD_ZBD_EOF);
	CHECK(j.resets == 1);
	ssd_zbd_destroy(d);
}

TEST(zbd_mixed_job_writes_first)
{
	struct ssd_zbd *d = mk(0, 0);
	struct ssd_job job = job_of(SSD_RW_RANDRW, 64 * KB);
	struct ssd_zbd_job j;
	ssd_zbd_job_start(d, &j, &job, 0, 8 * MB, 0);
	struct ssd_io io;
	/* nothing written yet: the read becomes a write (zbd_adjust_ddir) */
	CHECK(go(d, &j, SSD_DDIR_READ, MB, 64 * KB, &io) == SSD_ZBD_ACCEPT);
	CHECK(io.ddir == SSD_DDIR_WRITE && io.offset == MB);
	CHECK(go(d, &j, SSD_DDIR_READ, MB + 4096, 64 * KB, &io) == SSD_ZBD_ACCEPT);
	CHECK(io.ddir == SSD_DDIR_READ && io.offset == MB);
	ssd_zbd_destroy(d);
}
