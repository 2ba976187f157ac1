/* zonemode=zbd jobs as the parser takes them (src/job/job_zbd.c): fio's
 * checks with fio's words, each naming the file, line and option; the
 * Nz zone counts; the region aligned to whole zones; the drive's zone
 * size and write target count shared by every zbd job; a zoned drive's
 * zone size, open limit and direct=1. */
#include <stdlib.h>
#include <string.h>

#include "job/job.h"
#include "t.h"

#define MiB (1ull << 20)

static struct ssd_job *jobs;
static int njobs;
static char err[512];

static int parse_z(const char *text, const struct ssd_job_zoned *zi)
{
	free(jobs);
	jobs = NULL;
	return ssd_jobfile_parse_string_zoned(text, "z.fio", 64 * MiB, zi,
					      &jobs, &njobs, err, sizeof err);
}

static int says(int line, const char *key, const char *text)
{
	char where[64];
	snprintf(where, sizeof where, "z.fio:%d: option '%s': ", line, key);
	return !strncmp(err, where, strlen(where)) && strstr(err, text) &&
	       !strchr(err, '\n');
}

TEST(jobzbd_emulated_zones)
{
	CHECK(parse_z("[a]\nzonemode=zbd\nzonesize=1m\nsize=4z\n"
		      "io_size=8z\noffset=2z\nrw=randwrite\n", NULL) == 0);
	CHECK(jobs[0].zonemode == SSD_ZONEMODE_ZBD);
	CHECK(jobs[0].size == 4 * MiB && jobs[0].io_size == 8 * MiB &&
	      jobs[0].offset == 2 * MiB && jobs[0].zonecapacity == MiB);
	/* a write job's region: start rounded up, end down, to zones */
	CHECK(parse_z("[a]\nzonemode=zbd\nzonesize=1m\noffset=512k\n"
		      "size=3m\nrw=write\n", NULL) == 0);
	CHECK(jobs[0].offset == MiB && jobs[0].size == 2 * MiB);
	/* a read job's: only the end */
	CHECK(parse_z("[a]\nzonemode=zbd\nzonesize=1m\noffset=512k\n"
		      "size=3m\nrw=read\n", NULL) == 0);
	CHECK(jobs[0].offset == 512 * 1024 &&
	      jobs[0].size == 3 * MiB - 512 * 1024);
	CHECK(parse_z("[a]\nzonemode=zbd\nzonesize=1m\noffset=512k\n"
		      "size=768k\nrw=write\n", NULL) == SSD_ERANGE);
	CHECK(strstr(err, "io_size must be at least one zone"));
	/* write_zone_remainder sets norandommap */
	CHECK(parse_z("[a]\nzonemode=zbd\nzonesize=1m\nwrite_zone_remainder\n"
		      "rw=randwrite\n", NULL) == 0 && jobs[0].norandommap);
	/* zone_append alone, with zbd */
	CHECK(parse_z("[a]\nzonemode=zbd\nzonesize=1m\nrw=write\n"
		      "write_mode=zone_append\n", NULL) == 0 &&
	      jobs[0].zone_append);
	CHECK(parse_z("[a]\nwrite_mode=zone_append:write\n", NULL) == SSD_EINVAL);
}

TEST(jobzbd_fio_messages)
{
	CHECK(parse_z("[a]\nzonemode=zbd\n", NULL) == SSD_EINVAL);
	CHECK(says(2, "zonemode", "a: Specifying the zone size is mandatory "
		   "for regular file/block device with --zonemode=zbd"));
	CHECK(parse_z("[a]\nzonemode=zbd\nzonesize=1m\nzonecapacity=2m\n",
		      NULL) == SSD_EINVAL);
	CHECK(says(4, "zonecapacity", "job parameter zonecapacity 2097152 is "
		   "larger than zone size 1048576"));
	CHECK(parse_z("[a]\nzonemode=zbd\nzonesize=128m\n", NULL) == SSD_EINVAL);
	CHECK(says(3, "zonesize", "file/device size 67108864 is smaller than "
		   "zone size 134217728"));
	CHECK(parse_z("[a]\nmax_open_zones=5000\n", NULL) == SSD_ERANGE);
	CHECK(says(2, "max_open_zones", "max value out of range: 5000 (4096 "
		   "max)"));
	CHECK(parse_z("[a]\nzone_reset_frequency=2\n", NULL) == SSD_ERANGE);
	CHECK(says(2, "zone_reset_frequency", "value out of range: 2.000000 "
		   "(range max: 1.000000)"));
	CHECK(parse_z("[a]\nzonemode=zbd\nzonesize=1m\njob_max_open_zones=2\n",
		      NULL) == SSD_EINVAL);
	CHECK(says(4, "job_max_open_zones", "'job_max_open_zones' cannot be "
		   "used without a global open zones limit"));
	CHECK(parse_z("[a]\nzonemode=zbd\nzonesize=1m\nrw=trim\nbs=64k\n",
		      NULL) == SSD_EINVAL);
	CHECK(says(5, "bs", "trim block size 65536 is not the zone size "
		   "1048576"));
	CHECK(parse_z("[a]\nzonemode=zbd\nzonesize=1m\ncreate_serialize=0\n",
		      NULL) == SSD_EINVAL);
	CHECK(says(4, "create_serialize", "--zonemode=zbd and "
		   "--create_serialize=0 are not compatible."));
	CHECK(parse_z("[a]\nzonemode=zbd\nzonesize=1m\nnorandommap=0\n"
		      "write_zone_remainder=1\n", NULL) == SSD_EINVAL);
	CHECK(says(4, "norandommap", "write_zone_remainder=1 requires "
		   "norandommap=1"));
	CHECK(parse_z("[a]\nzonemode=zbd\nzonesize=1m\nexperimental_verify=1\n"
		      "verify=md5\n", NULL) == SSD_EUNSUP);
	CHECK(says(4, "experimental_verify", "zonemode=zbd does not support "
		   "experimental verify"));
	CHECK(parse_z("[a]\nzonemode=zbd\nzonesize=1m\n"
		      "recover_zbd_write_error=1\n", NULL) == SSD_EINVAL);
	CHECK(says(4, "recover_zbd_write_error", "recover_zbd_write_error "
		   "works only when continue_on_error is set"));
	CHECK(parse_z("[a]\nwrite_mode=zone_append\n", NULL) == SSD_EINVAL);
	CHECK(says(2, "write_mode", "io_uring_cmd with write_mode=zone_append "
		   "requires zonemode=zbd"));
	CHECK(parse_z("[a]\nsize=2z\n", NULL) == SSD_EINVAL);
	CHECK(says(2, "size", "which has no zone size"));
	CHECK(parse_z("[a]\nzonemode=zbd\nzonesize=1m\nsize=1.5z\n", NULL) ==
	      SSD_EPARSE);
	CHECK(says(4, "size", "unexpected zone value '1.5z'"));
	CHECK(parse_z("[a]\nzonesize=1z\n", NULL) == SSD_EPARSE);
	CHECK(says(2, "zonesize", "'z' suffix isn't applicable"));
	/* the drive's zones are the first zbd job's */
	CHECK(parse_z("[a]\nzonemode=zbd\nzonesize=1m\nmax_open_zones=4\n"
		      "[b]\nzonemode=zbd\nzonesize=2m\n", NULL) == SSD_EINVAL);
	CHECK(says(7, "zonesize", "zonesize 2097152 does not match the "
		   "device zone size 1048576."));
	CHECK(parse_z("[a]\nzonemode=zbd\nzonesize=1m\nmax_open_zones=4\n"
		      "[b]\nzonemode=zbd\nzonesize=1m\nmax_open_zones=2\n",
		      NULL) == SSD_EINVAL);
	CHECK(says(8, "max_open_zones", "Different 'max_open_zones' values"));
	CHECK(parse_z("[a]\nzonemode=zbd\nzonesize=1m\nmax_open_zones=4\n"
		      "[b]\nzonemode=zbd\nzonesize=1m\n", NULL) == 0);
	CHECK(jobs[1].max_open_zones == 4);
}

TEST(jobzbd_zoned_drive)
{
	struct ssd_job_zoned zi = {.zoned = 1, .zone_size = 2 * MiB,
				   .zone_cap = 1536 * 1024, .max_open = 4};
	CHECK(parse_z("[a]\nzonemode=zbd\nsize=3z\nrw=randwrite\ndirect=1\n",
		      &zi) == 0);
	CHECK(jobs[0].zonesize == 2 * MiB && jobs[0].size == 6 * MiB &&
	      jobs[0].max_open_zones == 4 &&
	      jobs[0].zonecapacity == 1536 * 1024);
	CHECK(parse_z("[a]\nzonemode=zbd\nzonesize=1m\n", &zi) == SSD_EINVAL);
	CHECK(says(3, "zonesize", "a job parameter zonesize 1048576 does not "
		   "match disk zone size 2097152."));
	CHECK(parse_z("[a]\nzonemode=zbd\nmax_open_zones=8\n", &zi) ==
	      SSD_EINVAL);
	CHECK(says(3, "max_open_zones", "Specified --max_open_zones (8) is "
		   "larger than max (4)"));
	CHECK(parse_z("[a]\nzonemode=zbd\nmax_open_zones=8\n"
		      "ignore_zone_limits=1\n", &zi) == 0);
	CHECK(parse_z("[a]\nzonemode=zbd\nrw=write\n", &zi) == SSD_EINVAL);
	CHECK(says(1, "direct", "Using direct I/O is mandatory for writing "
		   "to ZBD drives"));
}
