/* Unit tests for ofile.c: a file is whole in place or not there, after a
 * fault injected into any of its writes, syncs, closes or renames (as
 * SQLite's test VFS fails the n-th one), and the message names it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/ofile.h"
#include "base/util.h"
#include "t.h"

/* a fresh folder for one test */
static void tdir(char *dir, size_t n)
{
	snprintf(dir, n, "%s/ofile.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		dir[0] = 0;
}

static void rmtree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[600];
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
			unlink(p);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* how many names dir holds */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

/* the file's content into buf ("" if none); its length, -1 if missing */
static long slurp(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	buf[0] = 0;
	if (!f)
		return -1;
	size_t got = fread(buf, 1, n - 1, f);
	buf[got] = 0;
	fclose(f);
	return (long)got;
}

static int put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* write `lines` lines of 100 bytes through an ofile; commit's code */
static int write_lines(const char *path, int mode, int lines, char *err,
		       size_t errlen)
{
	struct ssd_ofile *o;
	int rc = ssd_ofile_open(path, mode, &o, err, errlen);
	if (rc)
		return rc;
	for (int i = 0; i < lines; i++)
		fprintf(ssd_ofile_stream(o), "%099d\n", i);
	return ssd_ofile_commit(o, err, errlen);
}

TEST(ofile_replace_is_renamed_into_place_at_commit)
{
	char dir[512], path[600], buf[256], err[256];
	tdir(dir, sizeof dir);
	CHECK(dir[0]);
	snprintf(path, sizeof path, "%s/report.txt", dir);
	CHECK(!put(path, "old\n"));
	CHECK(!chmod(path, 0640));
	struct ssd_ofile *o;
	CHECK(!ssd_ofile_open(path, SSD_OFILE_REPLACE, &o, err, sizeof err));
	fputs("new\n", ssd_ofile_stream(o));
	CHECK(!ssd_ofile_flush(o, err, sizeof err));
	/* until the commit a reader sees the old file, and the temporary */
	CHECK(slurp(path, buf, sizeof buf) == 4 && !strcmp(buf, "old\n"));
	CHECK(entries(dir) == 2);
	CHECK(!ssd_ofile_commit(o, err, sizeof err));
	CHECK(slurp(path, buf, sizeof buf) == 4 && !strcmp(buf, "new\n"));
	CHECK(entries(dir) == 1);
	struct stat sb;
	CHECK(!stat(path, &sb) && (sb.st_mode & 0777) == 0640);
	rmtree(dir);
}

TEST(ofile_each_fault_leaves_the_old_file_and_names_the_new)
{
	static const char *const spec[] = {"write:1", "write:2", "fsync:1",
					   "close:1", "rename:1", "open:1"};
	static const char *const why[] = {"No space left", "No space left",
					  "Input/output error", "Input/output error",
					  "Input/output error", "Input/output error"};
	for (size_t i = 0; i < sizeof spec / sizeof spec[0]; i++) {
		char dir[512], path[600], buf[256], err[256] = "";
		tdir(dir, sizeof dir);
		CHECK(dir[0]);
		snprintf(path, sizeof path, "%s/data.csv", dir);
		CHECK(!put(path, "old\n"));
		CHECK(!ssd_ofile_faults(spec[i]));
		/* 2000 lines of 100 bytes: four writes of the 64 KiB buffer */
		int rc = write_lines(path, SSD_OFILE_REPLACE, 2000, err, sizeof err);
		ssd_ofile_faults("");
		CHECKF(rc == SSD_EIO, "%s: rc %d", spec[i], rc);
		CHECKF(strstr(err, "cannot write '") && strstr(err, "data.csv'") &&
		       strstr(err, why[i]), "%s: %s", spec[i], err);
		CHECKF(slurp(path, buf, sizeof buf) == 4 && !strcmp(buf, "old\n"),
		       "%s: the old file changed", spec[i]);
		CHECKF(entries(dir) == 1, "%s: a temporary is left", spec[i]);
		rmtree(dir);
	}
}

TEST(ofile_a_fault_past_the_last_operation_changes_nothing)
{
	char dir[512], path[600], buf[256], err[256];
	tdir(dir, sizeof dir);
	CHECK(dir[0]);
	snprintf(path, sizeof path, "%s/r.json", dir);
	CHECK(!ssd_ofile_faults("write:2,fsync:2,rename:2,close:2"));
	CHECK(!write_lines(path, SSD_OFILE_REPLACE, 1, err, sizeof err));
	ssd_ofile_faults("");
	CHECK(slurp(path, buf, sizeof buf) == 100);
	rmtree(dir);
}

TEST(ofile_append_adds_a_whole_block_or_nothing)
{
	char dir[512], path[600], buf[300000], err[256];
	tdir(dir, sizeof dir);
	CHECK(dir[0]);
	snprintf(path, sizeof path, "%s/j_bw.log", dir);
	CHECK(!write_lines(path, SSD_OFILE_APPEND, 2, err, sizeof err));
	CHECK(!write_lines(path, SSD_OFILE_APPEND, 1, err, sizeof err));
	CHECK(slurp(path, buf, sizeof buf) == 300);
	/* 200,000 bytes: four writes into the temporary, then four of the
	 * block into the log; the sixth fails with part of it there */
	CHECK(!ssd_ofile_faults("write:6"));
	int rc = write_lines(path, SSD_OFILE_APPEND, 2000, err, sizeof err);
	ssd_ofile_faults("");
	CHECK(rc == SSD_EIO && strstr(err, "j_bw.log"));
	CHECK(slurp(path, buf, sizeof buf) == 300);
	CHECK(entries(dir) == 1);
	/* its close failing (NFS says so there): the same */
	CHECK(!ssd_ofile_faults("close:1"));
	rc = write_lines(path, SSD_OFILE_APPEND, 2, err, sizeof err);
	ssd_ofile_faults("");
	CHECK(rc == SSD_EIO && slurp(path, buf, sizeof buf) == 300);
	/* a log made by the failing block goes away */
	snprintf(path, sizeof path, "%s/new.log", dir);
	CHECK(!ssd_ofile_faults("fsync:1"));
	rc = write_lines(path, SSD_OFILE_APPEND, 3, err, sizeof err);
	ssd_ofile_faults("");
	CHECK(rc == SSD_EIO && strstr(err, "new.log"));
	CHECK(slurp(path, buf, sizeof buf) == -1);
	CHECK(entries(dir) == 1);
	rmtree(dir);
}

TEST(ofile_live_is_written_as_it_goes_and_removed_when_it_fails)
{
	char dir[512], path[600], buf[256], err[256];
	tdir(dir, sizeof dir);
	CHECK(dir[0]);
	snprintf(path, sizeof path, "%s/stats.csv", dir);
	struct ssd_ofile *o;
	CHECK(!ssd_ofile_open(path, SSD_OFILE_LIVE, &o, err, sizeof err));
	fputs("a,b\n", ssd_ofile_stream(o));
	CHECK(!ssd_ofile_flush(o, err, sizeof err));
	CHECK(slurp(path, buf, sizeof buf) == 4);
	CHECK(!ssd_ofile_faults("write:1"));
	fputs("1,2\n", ssd_ofile_stream(o));
	int rc = ssd_ofile_flush(o, err, sizeof err);
	ssd_ofile_faults("");
	CHECK(rc == SSD_EIO && strstr(err, "stats.csv': No space left"));
	CHECK(ssd_ofile_commit(o, err, sizeof err) == SSD_EIO);
	CHECK(entries(dir) == 0);
	rmtree(dir);
}

TEST(ofile_discard_leaves_nothing)
{
	char dir[512], path[600], buf[256], err[256];
	tdir(dir, sizeof dir);
	CHECK(dir[0]);
	snprintf(path, sizeof path, "%s/a.csv", dir);
	CHECK(!put(path, "old\n"));
	struct ssd_ofile *o;
	CHECK(!ssd_ofile_open(path, SSD_OFILE_REPLACE, &o, err, sizeof err));
	fputs("half", ssd_ofile_stream(o));
	ssd_ofile_discard(o);
	CHECK(slurp(path, buf, sizeof buf) == 4);
	CHECK(entries(dir) == 1);
	snprintf(path, sizeof path, "%s/b.csv", dir);
	CHECK(!ssd_ofile_open(path, SSD_OFILE_LIVE, &o, err, sizeof err));
	ssd_ofile_discard(o);
	CHECK(entries(dir) == 1);
	ssd_ofile_discard(NULL);
	CHECK(!ssd_ofile_commit(NULL, err, sizeof err));
	rmtree(dir);
}

TEST(ofile_follows_a_link_and_writes_devices_in_place)
{
	char dir[512], path[600], link[600], buf[256], err[256];
	tdir(dir, sizeof dir);
	CHECK(dir[0]);
	snprintf(path, sizeof path, "%s/real.txt", dir);
	snprintf(link, sizeof link, "%s/link.txt", dir);
	CHECK(!put(path, "old\n"));
	CHECK(!symlink("real.txt", link));
	CHECK(!write_lines(link, SSD_OFILE_REPLACE, 1, err, sizeof err));
	struct stat sb;
	CHECK(!lstat(link, &sb) && S_ISLNK(sb.st_mode));
	CHECK(slurp(path, buf, sizeof buf) == 100);
	CHECK(!write_lines("/dev/null", SSD_OFILE_REPLACE, 1, err, sizeof err));
	/* a full device: the message names it */
	int rc = write_lines("/dev/full", SSD_OFILE_REPLACE, 1, err, sizeof err);
	CHECK(rc == SSD_EIO && !strcmp(err, "cannot write '/dev/full': No space "
				       "left on device"));
	/* a folder that does not exist: nothing made, the file named */
	snprintf(path, sizeof path, "%s/no/such.txt", dir);
	rc = write_lines(path, SSD_OFILE_REPLACE, 1, err, sizeof err);
	CHECK(rc == SSD_EIO && strstr(err, "such.txt': No such file"));
	rmtree(dir);
}

TEST(ofile_fault_specs)
{
	CHECK(!ssd_ofile_faults(""));
	CHECK(!ssd_ofile_faults("write:1"));
	CHECK(!ssd_ofile_faults("write:3+,fsync:1,rename:2,close:9,open:1"));
	static const char *const bad[] = {"write", "write:", "write:0", "sync:1",
					  "write:1x", "write:-1", "write:1,",
					  "write:+", ":1"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECKF(ssd_ofile_faults(bad[i]) == SSD_EPARSE, "'%s' accepted", bad[i]);
	/* the persistent form fails every write from the N-th on */
	int fd = open("/dev/null", O_WRONLY);
	CHECK(fd >= 0);
	CHECK(!ssd_ofile_faults("write:2+"));
	CHECK(!ssd_ofile_pwrite(fd, "x", 1, 0));
	CHECK(ssd_ofile_pwrite(fd, "x", 1, 0) == -ENOSPC);
	CHECK(ssd_ofile_pwrite(fd, "x", 1, 0) == -ENOSPC);
	CHECK(!ssd_ofile_faults("fsync:1"));
	CHECK(ssd_ofile_datasync(fd) == -EIO);
	CHECK(!ssd_ofile_faults(""));
	CHECK(!ssd_ofile_pwrite(fd, "x", 1, 0));
	close(fd);
}
