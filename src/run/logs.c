/*
 * logs.c -- the files a job writes as it runs: its logs
 * (write_iops_log, write_bw_log, write_lat_log, write_hist_log; stats'
 * ssd_log does the writing) and write_iolog, the job's I/O as fio logs it.
 *
 * The logs are created when the run is set up, fed by each completion in
 * the measured window (loop.c) and closed at the end of the run; the
 * iolog is opened when the job starts (a later job of the file may
 * replay it), a line per issue, and renamed into place when the job ends.
 * A log that cannot be written is that job's error.
 */
#include "run/run_int.h"

#include <stdio.h>

#include "base/ofile.h"

/* The log files a job writes, in the order open_logs opens them: their
 * kinds and file prefixes. */
static int log_kinds(const struct ssd_job *j, int kind[6],
		     const char *prefix[6])
{
	const struct {
		const char *prefix;
		int kind;
	} want[] = {
		{j->write_iops_log, SSD_LOG_IOPS},
		{j->write_bw_log, SSD_LOG_BW},
		{j->write_lat_log, SSD_LOG_LAT},
		{j->write_lat_log, SSD_LOG_CLAT},
		{j->write_lat_log, SSD_LOG_SLAT},
		{j->write_hist_log, SSD_LOG_HIST},
	};
	int n = 0;
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		if (!want[i].prefix[0])
			continue;
		kind[n] = want[i].kind;
		prefix[n++] = want[i].prefix;
	}
	return n;
}

/* Path of the instance's log number l: with per_job_logs=0 without the
 * job number (fio). */
static void log_path(const struct inst *in, int l, char *path, size_t len)
{
	int kind[6];
	const char *prefix[6];
	log_kinds(in->job, kind, prefix);
	ssd_log_name(path, len, prefix[l], kind[l],
		     in->job->per_job_logs ? in->index : 0);
}

int run_open_logs(struct inst *in, char *err, size_t errlen)
{
	int kind[6];
	const char *prefix[6];
	const struct ssd_job *j = in->job;
	int n = log_kinds(j, kind, prefix);
	struct ssd_log_opts o = {
		.avg_ns = j->log_avg_msec * SSD_MS,
		.offset = j->log_offset,
		.prio_hex = j->log_prio,
		.append = !j->per_job_logs,
		.hist_ms = j->log_hist_msec,
		.hist_coarseness = j->log_hist_coarseness,
	};
	for (int i = 0; i < n; i++) {
		char path[600];
		log_path(in, i, path, sizeof path);
		struct ssd_log *l;
		int rc = ssd_log_create(path, kind[i], &o, &l, err, errlen);
		if (rc)
			return rc;
		in->log[in->nlogs++] = l;
	}
	return 0;
}

/* The instance's logs closed at the end of the run, each its length
 * from the end of the ramp to the end of the job (discarded if it never
 * ran).  A log that cannot be written is the job's error and, the first
 * one, the run's: the return, rc until then, with the message in err. */
int run_close_logs(struct inst *in, int rc, char *err, size_t errlen)
{
	char msg[sizeof in->res->errmsg];
	for (int l = 0; l < in->nlogs; l++) {
		if (!in->started && !in->finished) { /* it never ran: no log */
			ssd_log_discard(in->log[l]);
			continue;
		}
		int64_t len = in->end > in->ramp_end ? in->end - in->ramp_end : 0;
		if (!ssd_log_close(in->log[l], len, msg, sizeof msg))
			continue;
		run_res_error(in, SSD_EIO, msg);
		if (!rc) {
			snprintf(err, errlen, "job '%s': %s", in->job->name, msg);
			rc = SSD_EIO;
		}
	}
	return rc;
}

/* ---- write_iolog ---- */

/* write_iolog: the job's I/O as fio logs it (iolog.c's log_io_u), a
 * version 3 iolog: issue time in microseconds since the job started, the
 * file, the action, the offset in the file and the length.  The file is
 * named as fio names a job's file (NAME.CLONE.0); offsets are in the
 * job's file (its region), or the drive's when it names none, as fio's
 * are in the file or device (offset= included). */
int run_open_iolog(struct inst *in, uint32_t clone, char *err, size_t errlen)
{
	const struct ssd_job *j = in->job;
	if (!j->write_iolog[0])
		return 0;
	int rc = ssd_ofile_open(j->write_iolog, SSD_OFILE_REPLACE, &in->iolog_of,
				err, errlen);
	if (rc)
		return rc;
	in->iolog = ssd_ofile_stream(in->iolog_of);
	if (j->nfiles && j->regions)
		in->iolog_base = j->regions[(size_t)clone * j->nfiles].start;
	snprintf(in->iolog_file, sizeof in->iolog_file, "%.60s.%u.0", j->name, clone);
	fprintf(in->iolog, "fio version 3 iolog\n0 %s add\n0 %s open\n",
		in->iolog_file, in->iolog_file);
	return 0;
}

void run_log_iolog(struct inst *in, const struct ssd_io *io, int64_t t)
{
	static const char *const act[] = {"read", "write", "trim", "sync"};
	unsigned long long us = (unsigned long long)((t - in->start) / 1000);
	if (io->ddir == SSD_DDIR_SYNC)
		fprintf(in->iolog, "%llu %s sync 0 0\n", us, in->iolog_file);
	else
		fprintf(in->iolog, "%llu %s %s %llu %u\n", us, in->iolog_file,
			act[io->ddir], (unsigned long long)(io->offset - in->iolog_base),
			io->len);
}

/* The log's last line, and the file renamed into place; 0, or SSD_EIO
 * when it could not be written whole (then it is not there), with the
 * message in err. */
int run_close_iolog(struct inst *in, char *err, size_t errlen)
{
	if (!in->iolog)
		return 0;
	unsigned long long us = (unsigned long long)
		((in->end > in->start ? in->end - in->start : 0) / 1000);
	fprintf(in->iolog, "%llu %s close\n", us, in->iolog_file);
	in->iolog = NULL;
	int rc = ssd_ofile_commit(in->iolog_of, err, errlen);
	in->iolog_of = NULL;
	return rc;
}
