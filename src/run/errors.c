/*
 * errors.c -- what ends a job or the run, and what a job goes on after.
 *
 * A command the drive refuses ends its job, with the code in the job's
 * result and a message naming the command (run_job_error).  As in fio,
 * whose io_u error ends only the job that got it, a refusal a drive
 * gives a host -- turned read-only (SSD_EROFS), a zone's rule
 * (SSD_ZNS_*), a command it does not have (SSD_EUNSUP: TRIM on a drive
 * without it) -- or a verify failure (SSD_EILSEQ) ends only that job: the
 * other jobs and the later groups go on.  Any other error (no free block
 * where the FTL needed one, an invariant broken) is a failure of the
 * simulation and ends the run: the group's jobs stop submitting, what is
 * in flight completes and counts, the later groups do not run.  rate_min, latency_target at depth 1 and a broken trace end
 * only their job (run_job_fail).  continue_on_error lets a job count an
 * error and go on, as fio's td_non_fatal_error (run_go_on).  And with the
 * checker on, an event due before the last one handled is the runner's
 * own failure (run_clock_back).  All of it off the per-command path.
 */
#include "run/run_int.h"

#include <errno.h>
#include <stdio.h>

void run_job_error(struct run *r, struct inst *in, int rc,
		      const char *what)
{
	char msg[sizeof in->res->errmsg];
	const char *why = ssd_dev_error(r->dev);
	if (rc == SSD_EILSEQ)
		snprintf(msg, sizeof msg, "%s", what); /* fio's verify line */
	else if (rc == SSD_ESTATE && why[0])
		snprintf(msg, sizeof msg, "%s: %s", what, why);
	else if (rc == SSD_ESTATE && ssd_dev_check_failure(r->dev))
		snprintf(msg, sizeof msg, "%s: invariant check failed: %s",
			 what, ssd_dev_check_failure(r->dev));
	else
		snprintf(msg, sizeof msg, "%s: %s", what, ssd_strerror(rc));
	run_job_stop(r, in, rc, msg);
}

/* The instance's result takes error rc, message msg, unless it has one:
 * the first error of the jobs it reports, as fio's.  In an entry of
 * several jobs (group_reporting) the message names the job when it is
 * not the one the entry is named after. */
void run_res_error(struct inst *in, int rc, const char *msg)
{
	struct ssd_job_result *res = in->res;
	if (res->error)
		return;
	res->error = rc;
	if (in->job != res->job)
		snprintf(res->errmsg, sizeof res->errmsg, "job '%s': %s",
			 in->job->name, msg);
	else
		snprintf(res->errmsg, sizeof res->errmsg, "%s", msg);
}

/* The end of run_job_error: the job ends in error rc, message msg. */
void run_job_stop(struct run *r, struct inst *in, int rc, const char *msg)
{
	run_res_error(in, rc, msg);
	in->done = 1;
	/* a drive's refusal is the job's error, as fio's io_u error: a
	 * zoned drive's (fio's EIO), a command it lacks (EOPNOTSUPP) */
	int zns = rc <= SSD_ZNS_EFIELD && rc >= SSD_ZNS_ETRANSITION;
	if (rc == SSD_EROFS || rc == SSD_EILSEQ || rc == SSD_EUNSUP || zns ||
	    r->rc)
		return;
	r->rc = rc;
	snprintf(r->err, r->errlen, "job '%s': %s", in->job->name, msg);
	for (int i = 0; i < r->ninst; i++)
		if (r->in[i].group == in->group)
			run_terminate(r, &r->in[i]);
}

/* The job ends in error rc with message msg (rate_min not met): only
 * this job, as fio's td_verror; the run goes on. */
void run_job_fail(struct run *r, struct inst *in, int rc, const char *msg)
{
	run_res_error(in, rc, msg);
	in->done = 1;
}

/* ---- continue_on_error ---- */

/* The errno fio would see for a drive's refusal rc (those a job can go
 * on after), or 0. */
static int coe_errno(int rc)
{
	return rc == SSD_EROFS ? EROFS : rc == SSD_EILSEQ ? EILSEQ
	     : rc == SSD_EIO ? EIO : 0;
}

/* fio's td_non_fatal_error: an error rc of a command in direction ddir
 * that continue_on_error covers (its kind: verify for a failed check,
 * read for a read, write for a write, trim or flush) and that is in the
 * kind's ignore_error list (by default EIO, EROFS, EILSEQ) does not end
 * the job: it is counted (total_err, the first one's errno) and the job
 * goes on.  Returns 1 then. */
int run_go_on(struct inst *in, int ddir, int rc, const char *what)
{
	const struct ssd_job *j = in->job;
	int no = coe_errno(rc);
	int kind = rc == SSD_EILSEQ ? 2 : ddir == SSD_DDIR_READ ? 0 : 1;
	if (!no || !(j->continue_on_error & (1 << kind)))
		return 0;
	const uint32_t *list = j->ignore_error[kind];
	int hit = 0;
	if (!list[0])
		hit = no == EIO || no == EROFS || no == EILSEQ;
	for (int i = 0; i < SSD_JOB_MAX_IGNORE && list[i] && !hit; i++)
		hit = (int)list[i] == no;
	if (!hit)
		return 0;
	struct ssd_job_result *res = in->res;
	if (!res->total_err++) {
		res->first_error = no;
		if (!res->errmsg[0])
			snprintf(res->errmsg, sizeof res->errmsg, "%s", what);
	}
	return 1;
}

/* Command id, sent to the drive at t, was refused (c, a negative SSD_E*):
 * the job ends (run_job_error), unless continue_on_error covers it; then it
 * is counted and answered after the controller's time, returned.  Cold:
 * kept out of the per-command path it branches from. */
__attribute__((cold, noinline)) int64_t
run_refused(struct run *r, struct inst *in, uint32_t id, int64_t t, int64_t c)
{
	struct cmd *cm = &r->cmd[id];
	char what[128];
	if (cm->ddir == SSD_DDIR_SYNC)
		snprintf(what, sizeof what, "flush command");
	else
		snprintf(what, sizeof what,
			 "%s command at offset %llu, %u bytes",
			 ddir_word((int)cm->ddir),
			 (unsigned long long)cm->offset, cm->len);
	if (run_go_on(in, (int)cm->ddir, (int)c, what)) {
		/* refused: answered after the controller's time */
		int64_t o = r->dev->cfg.cmd_overhead;
		cm->flags = (cm->flags | CMD_ERR) & ~(CMD_CHECK | CMD_WAV);
		return t + (o > SSD_US ? o : SSD_US);
	}
	const struct ssd_config *cfg = &r->dev->cfg;
	int no_trim = c == SSD_EUNSUP && cm->ddir == SSD_DDIR_TRIM &&
		      cfg->type != SSD_TYPE_HDD && !cfg->trim;
	int zns = c <= SSD_ZNS_EFIELD && c >= SSD_ZNS_ETRANSITION;
	cmd_free(r, in, id);
	if (zns && !in->zj && cm->ddir == SSD_DDIR_WRITE) {
		/* a job without zonemode=zbd on a zoned drive: fio's io_u
		 * error, and its hint */
		const char *f = run_zbd_file(in->job);
		char msg[sizeof in->res->errmsg];
		snprintf(msg, sizeof msg, "%s: %s (fio: io_u error on file "
			 "%.100s: Input/output error: write offset=%llu, "
			 "buflen=%u; fio: first I/O failed. If %.100s is a "
			 "zoned block device, consider --zonemode=zbd)", what,
			 ssd_strerror((int)c), f,
			 (unsigned long long)cm->offset, cm->len, f);
		run_job_stop(r, in, (int)c, msg);
	} else if (no_trim) {
		/* the drive has no TRIM: say which, and the key */
		char msg[sizeof in->res->errmsg];
		snprintf(msg, sizeof msg, "%s: %s: drive '%s' has no TRIM "
			 "(trim = no)", what, ssd_strerror((int)c), cfg->name);
		run_job_stop(r, in, (int)c, msg);
	} else {
		run_job_error(r, in, (int)c, what);
	}
	return c;
}

/* ---- the runner's own clock ---- */

/* With the checker on: event ev is due before the event handled last,
 * so the runner's clock would go back (a completion the drive handed out
 * before the time its command went, or a timer set in the past).  The
 * drive's checker records it and the event's job (or the group's first)
 * ends with it, which ends the run. */
__attribute__((cold, noinline)) void
run_clock_back(struct run *r, const struct ssd_event *ev)
{
	static const char *const kind[] = {"completion", "wake", "ramp end",
					   "start", "steady-state tick",
					   "drive decision"};
	uint32_t k = EV_KIND(ev->kind), inst = UINT32_MAX;
	char msg[320], what[160] = "";
	if (k == EV_COMPLETE) {
		const struct cmd *cm = &r->cmd[ev->id];
		inst = cm->inst;
		snprintf(what, sizeof what, " of the %s command at offset %llu, "
			 "%u bytes, submitted at %lld ns", ddir_word((int)cm->ddir),
			 (unsigned long long)cm->offset, cm->len,
			 (long long)cm->submitted);
	} else if (k == EV_WAKE || k == EV_RAMP || k == EV_START) {
		inst = ev->id;
	}
	snprintf(msg, sizeof msg, "the job runner's clock goes back from %lld "
		 "to %lld ns: a %s event%s (%llu events scheduled so far)",
		 (long long)r->now, (long long)ev->time,
		 k < sizeof kind / sizeof kind[0] ? kind[k] : "unknown", what,
		 (unsigned long long)r->eng.seq);
	ssd_dev_check_report(r->dev, msg);
	struct inst *in = NULL;
	if (inst < (uint32_t)r->ninst)
		in = &r->in[inst];
	for (int i = 0; !in && i < r->ninst; i++)
		if (r->in[i].group == r->group)
			in = &r->in[i];
	if (in)
		run_job_error(r, in, SSD_ESTATE, ssd_dev_check_failure(r->dev)
			  ? "job runner" : msg);
}
