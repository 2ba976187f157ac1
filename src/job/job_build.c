/*
 * job_build.c -- a fio job as a whole, the file as a whole, and jobs
 * built in code.
 *
 * When a section ends (job_finish_job), its options are checked together
 * and what follows from them is derived: percentages are resolved against
 * the drive's capacity, block sizes per direction settled, the region
 * [offset, offset+size) must lie on the drive and hold at least one
 * block, and the file so far must stay within what the runner holds
 * (JOB_MAX_*: clones, I/Os in flight, simulated time that int64_t ns can
 * count).  When the file ends (job_finish_file), the files of every job
 * (filename lists, nrfiles, filesize) are laid out together as regions
 * of the drive (layout.h).
 *
 * The builder (ssd_jobs_*) is the parser without the text:
 * ssd_jobs_global and ssd_jobs_add begin sections as a header line does,
 * ssd_jobs_set goes through job_set_option as an option line does, and
 * sections and the file end here as when a file is read.
 *
 * Units: sizes in bytes, times in nanoseconds of simulated time.
 */
#include "job/job_int.h"
#include "job/layout.h"
#include "job/steadystate.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- a job as a whole ---- */

/* The line option `name` was set on (else the section header's), for a
 * message about the job as a whole; its file, when an include set it,
 * is left in *js->blame for that message. */
static int opt_line(const struct jstate *js, const char *name)
{
	int i = job_find_opt(name);
	if (i < 0 || !js->line_of[i])
		return js->j.line;
	if (js->blame)
		*js->blame = js->file_of[i];
	return js->line_of[i];
}

static int was_set(const struct jstate *js, const char *name)
{
	int i = job_find_opt(name);
	return i >= 0 && js->line_of[i];
}

int job_opt_line(const struct jstate *js, const char *name)
{
	return opt_line(js, name);
}

int job_was_set(const struct jstate *js, const char *name)
{
	return was_set(js, name);
}

/* The terms of the longest simulated time a job can take, in ns
 * (doubles: they may be absurd), each with the option it comes from. */
enum { SPAN_START, SPAN_RAMP, SPAN_RUN, SPAN_THINK, SPAN_FLOW, SPAN_RATE,
       SPAN_N };

/* A job with a runtime stops at startdelay + ramp_time + runtime (a
 * latency_target search runs its last window for a runtime anew; a think
 * time or flow_sleep in progress then ends once more); one without stops
 * after io_size bytes, so at most io_size / smallest block I/Os (plus one
 * shortened I/O per pass over a sequential region), each followed by a
 * share of think time and, in a flow, a flow_sleep, and no sooner than
 * io_size at its rate.  The I/O itself takes microseconds to
 * milliseconds of drive time and is left out.  Returns the sum. */
static double job_span(const struct ssd_job *j, uint64_t io_size,
		       uint32_t minbs, uint64_t size, double term[SPAN_N])
{
	double sleep = j->flow ? (double)j->flow_sleep : 0;
	memset(term, 0, SPAN_N * sizeof term[0]);
	term[SPAN_START] = (double)j->startdelay_hi;
	term[SPAN_RAMP] = (double)j->ramp_time;
	if (j->runtime) {
		term[SPAN_RUN] = (double)j->runtime *
				 (j->latency_target ? 2 : 1);
		term[SPAN_THINK] = (double)j->thinktime;
		term[SPAN_FLOW] = sleep;
	} else {
		if (j->thinktime || sleep) {
			double ios = ceil((double)io_size / minbs) +
				     ceil((double)io_size / (double)size);
			if (j->number_ios && (double)j->number_ios < ios)
				ios = (double)j->number_ios;
			if (j->rw == SSD_RW_TRIMWRITE ||
			    j->rw == SSD_RW_RANDTRIMWRITE)
				ios *= 2;
			ios *= j->loops;
			term[SPAN_THINK] = ceil(ios / j->thinktime_blocks) *
					   (double)j->thinktime;
			term[SPAN_FLOW] = ios * sleep;
		}
		/* a rate: io_size (every loop) at the slowest direction's
		 * rate */
		double slowest = 0;
		for (int d = 0; d < SSD_DDIR_N; d++) {
			double bps = j->rate[d] ? (double)j->rate[d]
				   : (double)j->rate_iops[d] * minbs;
			if (bps > 0 && (slowest == 0 || bps < slowest))
				slowest = bps;
		}
		if (slowest > 0)
			term[SPAN_RATE] = (double)io_size *
					  (j->loops ? j->loops : 1) / slowest *
					  (double)SSD_S;
	}
	double t = 0;
	for (int i = 0; i < SPAN_N; i++)
		t += term[i];
	return t;
}

/* The file so far, with this job, within what the runner can hold:
 * clones, I/Os in flight, simulated time (JOB_MAX_*). */
static int check_limits(struct parser *p, const struct jstate *js,
			uint64_t io_size, uint64_t size)
{
	const struct ssd_job *j = &js->j;
	p->clones += j->numjobs;
	if (p->clones > JOB_MAX_CLONES)
		return perr(p, opt_line(js, "numjobs"), SSD_ERANGE,
			    "option 'numjobs': the jobs up to '%s' have %llu "
			    "clones (numjobs summed over the file; accepted: "
			    "at most %d in all)", j->name,
			    (unsigned long long)p->clones, JOB_MAX_CLONES);
	p->inflight += (uint64_t)j->numjobs * j->iodepth;
	if (p->inflight > JOB_MAX_INFLIGHT) {
		const char *key = j->numjobs > 1 && !was_set(js, "iodepth")
					  ? "numjobs" : "iodepth";
		return perr(p, opt_line(js, key), SSD_ERANGE,
			    "option '%s': the jobs up to '%s' keep %llu I/Os "
			    "in flight (numjobs x iodepth summed over the "
			    "file; accepted: at most %u in all)", key, j->name,
			    (unsigned long long)p->inflight, JOB_MAX_INFLIGHT);
	}
	double term[SPAN_N];
	double span = job_span(j, io_size, ssd_job_min_bs(j), size, term);
	if (p->njobs > 0 && (j->stonewall || j->wait_for[0])) {
		p->span_done += p->span_group;
		p->span_group = 0;
	}
	if (span > p->span_group)
		p->span_group = span;
	double total = p->span_done + p->span_group;
	if (total > (double)JOB_MAX_SPAN) {
		/* name the largest term (the runtime when none is) */
		int big = SPAN_RUN;
		for (int i = 0; i < SPAN_N; i++)
			if (term[i] > term[big])
				big = i;
		const char *key = big == SPAN_START ? "startdelay"
				: big == SPAN_RAMP  ? "ramp_time"
				: big == SPAN_THINK ? "thinktime"
				: big == SPAN_FLOW  ? "flow_sleep"
				: big != SPAN_RATE  ? "runtime"
				: j->rate[0] || j->rate[1] || j->rate[2]
					? "rate" : "rate_iops";
		return perr(p, opt_line(js, key), SSD_ERANGE,
			    "option '%s': the jobs up to '%s' could span %.3g "
			    "years of simulated time (startdelay + ramp_time + "
			    "runtime, else thinktime and flow_sleep over every "
			    "I/O and io_size at its rate, summed over the "
			    "stonewalled groups; accepted: at most %.0f years "
			    "in all)", key, j->name, job_years(total),
			    floor(job_years((double)JOB_MAX_SPAN)));
	}
	return 0;
}

/* ---- files and regions: a job's part ---- */

static uint64_t align_up(uint64_t v, uint64_t a)
{
	uint64_t r = v % a;
	return r ? v + (a - r) : v;
}

static uint32_t max_bs(const struct ssd_job *j)
{
	return ssd_job_max_bs(j);
}

/* What a percentage offset or offset_increment is aligned up to: fio's
 * offset_align, else the smallest block size (here at least a page). */
static uint64_t pct_align(const struct ssd_job *j)
{
	if (j->offset_align)
		return j->offset_align;
	return align_up(ssd_job_min_bs(j), JOB_PAGE);
}

/* fio's rules for strided zones: zonesize alone implies zonemode=strided,
 * zonemode=none refuses zonesize, zonerange defaults to zonesize. */
static int check_zones(struct parser *p, struct jstate *js)
{
	struct ssd_job *j = &js->j;
	char b1[32], b2[32];
	if (j->zonemode == SSD_ZONEMODE_ZBD)
		return 0; /* job_zbd.c */
	if (!j->zonesize) {
		const char *key = j->zonemode == SSD_ZONEMODE_STRIDED
					  ? "zonemode"
				  : was_set(js, "zonerange") ? "zonerange"
				  : was_set(js, "zoneskip")  ? "zoneskip" : NULL;
		if (key)
			return perr(p, opt_line(js, key), SSD_EINVAL,
				    "option '%s': job '%s' has no zonesize "
				    "(accepted: zonemode=strided with "
				    "zonesize)", key, j->name);
		return 0;
	}
	if (was_set(js, "zonemode") && j->zonemode == SSD_ZONEMODE_NONE)
		return perr(p, opt_line(js, "zonesize"), SSD_EINVAL,
			    "option 'zonesize': job '%s' has zonemode=none "
			    "(accepted: zonesize with zonemode=strided)",
			    j->name);
	j->zonemode = SSD_ZONEMODE_STRIDED;
	if (!j->zonerange)
		j->zonerange = align_up(j->zonesize, JOB_PAGE);
	if (j->zonerange < max_bs(j)) {
		const char *key = was_set(js, "zonerange") ? "zonerange"
							   : "zonesize";
		return perr(p, opt_line(js, key), SSD_ERANGE,
			    "option '%s': the zones of job '%s' (%s) are "
			    "smaller than its block size %s (accepted: "
			    "zonerange >= block size)", key, j->name,
			    ssd_fmt_bytes(j->zonerange, b1, sizeof b1),
			    ssd_fmt_bytes(max_bs(j), b2, sizeof b2));
	}
	return 0;
}

/* *out = a malloc'd copy of s, or NULL for ""; SSD_ENOMEM. */
static int dup_or_null(const char *s, char **out)
{
	*out = NULL;
	if (!*s)
		return 0;
	size_t n = strlen(s) + 1;
	*out = malloc(n);
	if (!*out)
		return SSD_ENOMEM;
	memcpy(*out, s, n);
	return 0;
}

/* Keep what resolve_files needs of the job being appended; resolve its
 * offset_increment (a percentage is of the drive). */
static int keep_files(struct parser *p, struct jstate *js)
{
	struct ssd_job *j = &js->j;
	uint64_t inc = js->incr.bytes, last;
	if (js->incr.is_pct)
		inc = align_up((uint64_t)((double)p->capacity * js->incr.pct /
					  100.0), pct_align(j));
	/* the last clone's offset, and without a filesize the end of its
	 * region, which the regions and files are checked against */
	if (__builtin_mul_overflow((uint64_t)(j->numjobs - 1), inc, &last) ||
	    __builtin_add_overflow(last, j->offset, &last) ||
	    __builtin_add_overflow(last, js->filesize_lo ? 0 : j->size,
				   &last)) {
		char b1[32];
		return perr(p, opt_line(js, "offset_increment"), SSD_ERANGE,
			    "option 'offset_increment': clone %u of job '%s' "
			    "at offset + %u x %s reaches past 2^64 bytes "
			    "(accepted: offset + (numjobs-1) x "
			    "offset_increment inside the drive or file)",
			    j->numjobs - 1, j->name, j->numjobs - 1,
			    ssd_fmt_bytes(inc, b1, sizeof b1));
	}
	if (p->njobs == p->jfcap) {
		int cap = p->jfcap ? 2 * p->jfcap : 8;
		struct jfiles *jf = realloc(p->jf, (size_t)cap * sizeof *jf);
		if (!jf)
			return nomem(p);
		p->jf = jf;
		p->jfcap = cap;
	}
	struct jfiles *f = &p->jf[p->njobs];
	memset(f, 0, sizeof *f);
	if (dup_or_null(js->filename, &f->filename) ||
	    dup_or_null(js->filename_format, &f->format)) {
		free(f->filename);
		f->filename = NULL;
		return nomem(p);
	}
	f->fs_lo = js->filesize_lo;
	f->fs_hi = js->filesize_hi;
	f->size_given = js->rv[RV_SIZE].given && !js->j.fill_device;
	f->size_pct = js->rv[RV_SIZE].is_pct;
	f->off_pct = js->rv[RV_OFFSET].is_pct;
	f->incr_pct = js->incr.is_pct;
	f->io = js->rv[RV_IO_SIZE];
	f->ln_filename = opt_line(js, "filename");
	f->ln_nrfiles = opt_line(js, "nrfiles");
	f->ln_size = opt_line(js, "size");
	f->ln_filesize = opt_line(js, "filesize");
	f->ln_incr = opt_line(js, "offset_increment");
	f->ln_offset = opt_line(js, "offset");
	f->ln_zone = opt_line(js, "zonesize");
	f->ln_fill = opt_line(js, "fill_device");
	j->offset_increment = inc;
	return 0;
}

static void free_files(struct parser *p)
{
	for (int i = 0; i < p->njobs && p->jf; i++) {
		free(p->jf[i].filename);
		free(p->jf[i].format);
	}
	free(p->jf);
	p->jf = NULL;
}

/* The I/O stream as fio resolves it once the job's region is known:
 * per direction, the range of I/O sizes (bssplit, else bsrange, else
 * bs) and the alignment of random offsets; zoned_abs sizes; and checks
 * that the region holds what the stream asks of it. */
/* Per direction, the range of I/O sizes (bssplit, else bsrange, else bs)
 * and the alignment of random offsets.  Idempotent: the region checks
 * and the file layout need the sizes before finish_stream runs. */
static void resolve_bs(struct ssd_job *j)
{
	unsigned used = ssd_rw_ddirs(j->rw);

	j->blockalign_set = 0;
	for (int d = 0; d < SSD_DDIR_N; d++) {
		if (j->nbssplit[d]) {
			j->min_bs[d] = UINT32_MAX;
			j->max_bs[d] = 0;
			for (int i = 0; i < j->nbssplit[d]; i++) {
				uint32_t b = j->bssplit[d][i].bs;
				if (b < j->min_bs[d])
					j->min_bs[d] = b;
				if (b > j->max_bs[d])
					j->max_bs[d] = b;
			}
		} else if (!j->min_bs[d]) {
			j->min_bs[d] = j->max_bs[d] = j->bs[d];
		}
		if (!j->blockalign[d])
			j->blockalign[d] = j->min_bs[d];
		else if (j->blockalign[d] != j->min_bs[d] && (used >> d & 1) &&
			 ssd_rw_is_random(j->rw))
			j->blockalign_set = 1;
	}
}

/* size: the region's bytes; written: as written (more when the region
 * was cut to whole blocks). */
static int finish_stream(struct parser *p, struct jstate *js, uint64_t size,
			 uint64_t written)
{
	struct ssd_job *j = &js->j;
	char b1[32], b2[32], b3[48];

	resolve_bs(j);

	/* the region must hold the largest block */
	uint32_t maxbs = ssd_job_max_bs(j);
	if (size < maxbs) {
		const char *key = "bs";
		if (was_set(js, "bssplit"))
			key = "bssplit";
		else if (was_set(js, "bsrange"))
			key = "bsrange";
		key = was_set(js, "size") || !was_set(js, key) ? "size" : key;
		char b4[32];
		b3[0] = 0;
		if (written != size && size)
			snprintf(b3, sizeof b3, ", %s in whole %s blocks",
				 ssd_fmt_bytes(size, b1, sizeof b1),
				 ssd_fmt_bytes(ssd_job_min_bs(j), b4,
					       sizeof b4));
		return perr(p, opt_line(js, key), SSD_ERANGE,
			    "option '%s': the region of job '%s' (%s%s) is "
			    "smaller than its block size %s (accepted: size "
			    ">= block size)", key, j->name,
			    ssd_fmt_bytes(written, b1, sizeof b1), b3,
			    ssd_fmt_bytes(maxbs, b2, sizeof b2));
	}

	uint64_t add = j->seq_add < 0 ? (uint64_t)-j->seq_add
				      : (uint64_t)j->seq_add;
	if (add >= size)
		return perr(p, opt_line(js, "rw"), SSD_ERANGE,
			    "option 'rw': the offset modifier %s%s is not "
			    "smaller than the region of job '%s' (%s; "
			    "accepted: |N| < size)", j->seq_add < 0 ? "-" : "",
			    ssd_fmt_bytes(add, b1, sizeof b1), j->name,
			    ssd_fmt_bytes(size, b2, sizeof b2));

	if (j->dist == SSD_DIST_ZONED_ABS) {
		for (int d = 0; d < SSD_DDIR_N; d++) {
			uint64_t sum = 0;
			int n = j->nzones[d], wrap = 0;
			for (int i = 0; i < n; i++)
				wrap |= __builtin_add_overflow(
					sum, j->zones[d][i].size_bytes, &sum);
			if (wrap || sum > size ||
			    (!j->zones[d][n - 1].size_bytes && sum >= size))
				return perr(p, opt_line(js,
							"random_distribution"),
					    SSD_ERANGE,
					    "option 'random_distribution': "
					    "the zones cover %s%s, more than the "
					    "region of job '%s' (%s; accepted: "
					    "zone sizes within size)",
					    wrap ? "over " : "",
					    ssd_fmt_bytes(wrap ? UINT64_MAX : sum,
							  b1, sizeof b1),
					    j->name,
					    ssd_fmt_bytes(size, b2, sizeof b2));
			if (!j->zones[d][n - 1].size_bytes)
				j->zones[d][n - 1].size_bytes = size - sum;
			for (int i = 0; i < n; i++)
				j->zones[d][i].size_pct =
					100.0 *
					(double)j->zones[d][i].size_bytes /
					(double)size;
		}
	}
	j->io_size_set = js->rv[RV_IO_SIZE].given;
	return 0;
}

/* ---- a job as a whole: errors, exits and command modes ---- */

/* num_range goes with trim-only jobs (fio refuses it with reads or
 * writes). */
static int finish_cmd_modes(struct parser *p, struct jstate *js)
{
	struct ssd_job *j = &js->j;
	int trim_only = j->rw == SSD_RW_TRIM || j->rw == SSD_RW_RANDTRIM;
	if (j->dist == SSD_DIST_SEQUENCE && !j->nfiles) {
		/* fio fails the job at the first such block */
		for (int d = 0; d < SSD_DDIR_N; d++) {
			uint32_t bs = j->min_bs[d] ? j->min_bs[d] : j->bs[d];
			if (!(ssd_rw_ddirs(j->rw) >> d & 1) || !bs)
				continue;
			uint64_t blocks = j->size / bs;
			for (uint32_t i = 0; i < j->nsequence; i++)
				if (j->sequence[i] >= blocks)
					return perr(p, opt_line(js,
						"random_distribution"),
						SSD_ERANGE, "option "
						"'random_distribution': block "
						"%u of the sequence is past "
						"the end of job '%s' (%llu "
						"blocks of %u B; accepted: "
						"block indices 0..%llu)",
						j->sequence[i], j->name,
						(unsigned long long)blocks, bs,
						(unsigned long long)(blocks ?
						blocks - 1 : 0));
		}
	}
	if (j->num_range > 1 && !trim_only)
		return perr(p, opt_line(js, "num_range"), SSD_EINVAL,
			    "option 'num_range': job '%s' has rw=%s (accepted: "
			    "num_range > 1 with rw=trim or randtrim only, as "
			    "in fio)", j->name, ssd_rw_name(j->rw));
	return 0;
}

/* ---- a job as a whole: pacing and the order of jobs ---- */

/* Defaults that depend on other options, fio's clamps, and the checks
 * between options of this group. */
static int finish_pacing(struct parser *p, struct jstate *js)
{
	struct ssd_job *j = &js->j;
	if (!j->iodepth_low || j->iodepth_low > j->iodepth)
		j->iodepth_low = j->iodepth;
	if (!j->iodepth_batch || j->iodepth_batch > j->iodepth)
		j->iodepth_batch = j->iodepth;
	if (j->iodepth_batch_complete_max < j->iodepth_batch_complete_min)
		j->iodepth_batch_complete_max = j->iodepth_batch_complete_min;
	if (j->thinktime_spin > j->thinktime)
		j->thinktime_spin = j->thinktime;
	j->thinktime_blocks_set = was_set(js, "thinktime_blocks");

	int bytes = 0, iops = 0, bmin = 0, imin = 0;
	for (int d = 0; d < SSD_DDIR_N; d++) {
		bytes |= j->rate[d] != 0;
		iops |= j->rate_iops[d] != 0;
		bmin |= j->rate_min[d] != 0;
		imin |= j->rate_iops_min[d] != 0;
	}
	if ((bytes && iops) || (bmin && imin)) {
		const char *key = bytes && iops ? "rate_iops" : "rate_iops_min";
		return perr(p, opt_line(js, key), SSD_EINVAL,
			    "option '%s': job '%s' sets both a bandwidth and an "
			    "IOPS %s (accepted: one of rate%s and rate_iops%s, "
			    "as in fio)", key, j->name,
			    bytes && iops ? "rate" : "minimum",
			    bytes && iops ? "" : "_min",
			    bytes && iops ? "" : "_min");
	}
	for (int d = 0; d < SSD_DDIR_N; d++)
		if ((j->rate[d] && j->rate[d] < j->rate_min[d]) ||
		    (j->rate_iops[d] && j->rate_iops[d] < j->rate_iops_min[d]))
			return perr(p, opt_line(js, bmin ? "rate_min"
							 : "rate_iops_min"),
				    SSD_EINVAL,
				    "option '%s': job '%s' asks a minimum above "
				    "its rate (accepted: minimum <= rate)",
				    bmin ? "rate_min" : "rate_iops_min", j->name);

	if (j->wait_for[0]) {
		int n = 0;
		for (int i = 0; i < p->njobs; i++)
			n += !strcmp(p->jobs[i].name, j->wait_for);
		const char *why = !strcmp(j->wait_for, j->name)
			? "a job cannot wait for itself"
			: !n ? "no job of that name comes before it"
			: n > 1 ? "more than one job above has that name" : NULL;
		if (why)
			return perr(p, opt_line(js, "wait_for"), SSD_EINVAL,
				    "option 'wait_for': '%s' in job '%s': %s "
				    "(accepted: the unique name of a job above)",
				    j->wait_for, j->name, why);
	}

	if (j->ss_dur) {
		int64_t iv = j->ss_interval;
		if (iv < SSD_S || iv % SSD_S)
			return perr(p, opt_line(js, "ss_interval"), SSD_ERANGE,
				    "option 'ss_interval': job '%s': %lld ns "
				    "(accepted: whole seconds, at least 1 s)",
				    j->name, (long long)iv);
		if (j->ss_dur % iv || j->ss_dur <= iv)
			return perr(p, opt_line(js, "ss_dur"), SSD_ERANGE,
				    "option 'ss_dur': job '%s': %g s is not a "
				    "multiple of ss_interval %g s above it "
				    "(accepted: 2, 3, ... intervals)", j->name,
				    (double)j->ss_dur / SSD_S,
				    (double)iv / SSD_S);
		if (j->ss_dur / iv > (1 << 20))
			return perr(p, opt_line(js, "ss_dur"), SSD_ERANGE,
				    "option 'ss_dur': job '%s': more than %d "
				    "intervals (accepted: fewer)", j->name,
				    1 << 20);
		for (int i = 0; i < p->njobs; i++)
			if (p->jobs[i].ss_dur && p->jobs[i].ss_interval != iv)
				return perr(p, opt_line(js, "ss_interval"),
					    SSD_EINVAL,
					    "option 'ss_interval': job '%s' "
					    "differs from job '%s' (accepted: "
					    "the same interval in every job, as "
					    "in fio)", j->name, p->jobs[i].name);
	}
	return 0;
}

/* A job built in code (ssd_jobs_add) may assign offset, size and io_size
 * in bytes rather than set them as options: a non-zero field counts as
 * written.  (In a job read from a file they are still 0 here: the
 * options fill js->rv.)  A built job's other assigned fields are held
 * to the ranges of their rows in the option table. */
static int take_assigned(struct parser *p, struct jstate *js)
{
	struct ssd_job *j = &js->j;
	uint64_t *field[RV_N] = {&j->size, &j->io_size, &j->offset};
	for (int i = 0; i < RV_N; i++) {
		if (!*field[i])
			continue;
		/* a built job's size is not cut to whole blocks (it gets
		 * the region it asks for): a multiple of 4 KiB, as ever */
		if (i == RV_SIZE && *field[i] % JOB_PAGE)
			return perr(p, j->line, SSD_ERANGE,
				    "option 'size': %llu B in job '%s' is not a "
				    "multiple of 4 KiB (accepted: a multiple of "
				    "4 KiB, in a job built in code)",
				    (unsigned long long)*field[i], j->name);
		if (i == RV_OFFSET && *field[i] % JOB_SECTOR)
			return perr(p, j->line, SSD_ERANGE,
				    "option 'offset': %llu B in job '%s' is not a "
				    "multiple of 512 B (accepted: %s)",
				    (unsigned long long)*field[i], j->name,
				    job_opts[job_find_opt("offset")].value);
		js->rv[i] = (struct region_val){.given = 1,
						.bytes = *field[i]};
		*field[i] = 0;
	}
	if (!p->built)
		return 0;
	struct ssd_job d;
	job_defaults(&d);
	for (int i = 0; i < job_nopts; i++) {
		const struct jopt *o = &job_opts[i];
		const char *f = (const char *)j + o->off;
		const char *df = (const char *)&d + o->off;
		uint64_t v;
		if (o->type == OT_U32)
			v = *(const uint32_t *)f;
		else if (o->type == OT_I64)
			v = (uint64_t)*(const int64_t *)f;
		else
			continue;
		if (!memcmp(f, df, o->type == OT_U32 ? 4 : 8))
			continue;
		if (v < o->min || v > o->max)
			return perr(p, j->line, SSD_ERANGE,
				    "option '%s': %lld in job '%s' is out of "
				    "range (accepted: %s)", o->name,
				    o->type == OT_U32 ? (long long)v
						      : (long long)(int64_t)v,
				    j->name, o->value);
	}
	for (int dd = 0; dd < SSD_DDIR_N; dd++)
		if (j->bs[dd] < JOB_SECTOR || j->bs[dd] > JOB_BS_MAX ||
		    j->bs[dd] % JOB_SECTOR)
			return perr(p, j->line, SSD_ERANGE,
				    "option 'bs': %u B in job '%s' is out of "
				    "range (accepted: %s)", j->bs[dd], j->name,
				    job_opts[job_find_opt("bs")].value);
	if (j->rw < SSD_RW_READ || j->rw > SSD_RW_RANDTRIMWRITE)
		return perr(p, j->line, SSD_ERANGE,
			    "option 'rw': %d in job '%s' is not an enum ssd_rw",
			    j->rw, j->name);
	return 0;
}

/* Resolve percentages and defaults, check the region, append the job. */
int job_finish_job(struct parser *p)
{
	struct jstate *js = &p->cur;
	struct ssd_job *j = &js->j;
	uint64_t cap = p->capacity;
	char b1[32], b2[32], b3[32];
	int rc = take_assigned(p, js);
	if (!rc)
		rc = job_zbd_zones(p, js);
	if (rc)
		return rc;

	resolve_bs(j);

	/* offset */
	const struct region_val *rv = &js->rv[RV_OFFSET];
	uint64_t off = rv->bytes;
	if (rv->is_pct)
		off = align_up((uint64_t)((double)cap * rv->pct / 100.0),
			       pct_align(j));
	if (off >= cap)
		return perr(p, opt_line(js, "offset"), SSD_ERANGE,
			    "option 'offset': %s is not inside the drive "
			    "(job '%s'; accepted: less than the capacity %s)",
			    ssd_fmt_bytes(off, b1, sizeof b1), j->name,
			    ssd_fmt_bytes(cap, b2, sizeof b2));

	/* size */
	rv = &js->rv[RV_SIZE];
	uint64_t size = cap - off;
	if (rv->given && !j->fill_device) {
		size = rv->bytes;
		if (rv->is_pct)
			size = (uint64_t)((double)cap * rv->pct / 100.0) &
			       ~(uint64_t)(JOB_PAGE - 1);
		if (!size)
			return perr(p, opt_line(js, "size"), SSD_ERANGE,
				    "option 'size': %g%% of %s is less than "
				    "4 KiB (accepted: at least 4 KiB)",
				    rv->pct, ssd_fmt_bytes(cap, b1, sizeof b1));
		/* fio's I/O covers whole blocks of the smallest size: a
		 * written size that is not is cut (size=1000000000 of
		 * 4 KiB blocks is 244140 of them), the report notes it.  A
		 * job built in code gets the region it asks for. */
		uint32_t minbs = ssd_job_min_bs(j);
		if (!rv->is_pct && size % minbs && !p->built) {
			j->cut_key = "size";
			j->cut_lo = j->cut_hi = size;
			size -= size % minbs;
		}
		if (size > cap - off && !js->filesize_lo) {
			const char *key = was_set(js, "size") ? "size"
							      : "offset";
			return perr(p, opt_line(js, key), SSD_ERANGE,
				    "option '%s': offset %s + size %s is "
				    "beyond the volume's capacity %s (job '%s'; "
				    "accepted: offset + size <= capacity)",
				    key, ssd_fmt_bytes(off, b1, sizeof b1),
				    ssd_fmt_bytes(size, b2, sizeof b2),
				    ssd_fmt_bytes(cap, b3, sizeof b3),
				    j->name);
		}
	}

	/* io_size */
	rv = &js->rv[RV_IO_SIZE];
	uint64_t io_size = size;
	if (rv->given) {
		io_size = rv->bytes;
		if (rv->is_pct) {
			double v = (double)size * rv->pct / 100.0;
			if (v >= 0x1p63)
				return perr(p, opt_line(js, "io_size"),
					    SSD_ERANGE,
					    "option 'io_size': %g%% of the "
					    "size is too large", rv->pct);
			io_size = (uint64_t)v;
		}
		if (!io_size)
			return perr(p, opt_line(js, "io_size"), SSD_ERANGE,
				    "option 'io_size': %g%% of %s is 0 bytes "
				    "(accepted: more than 0)", rv->pct,
				    ssd_fmt_bytes(size, b1, sizeof b1));
	}

	rc = job_zbd_check(p, js, &off, &size, &io_size);
	if (rc)
		return rc;
	rc = finish_stream(p, js, size, j->cut_key ? j->cut_lo : size);
	if (rc)
		return rc;

	if (j->write_iolog[0] && j->numjobs > 1)
		return perr(p, opt_line(js, "write_iolog"), SSD_EINVAL,
			    "option 'write_iolog': job '%s' has %u clones, which "
			    "would write the one file together (accepted: "
			    "numjobs=1, or a job per log)", j->name, j->numjobs);
	if (j->read_iolog[0] && j->verify != SSD_VERIFY_NONE)
		return perr(p, opt_line(js, "verify"), SSD_EUNSUP,
			    "option 'verify': job '%s' replays a trace "
			    "(read_iolog), whose data is not known (accepted: "
			    "verify=0 with read_iolog)", j->name);
	if (j->write_iolog[0] && j->nfiles > 1)
		return perr(p, opt_line(js, "write_iolog"), SSD_EINVAL,
			    "option 'write_iolog': job '%s' has %u files; its log "
			    "names one (accepted: one file, or none: the drive)",
			    j->name, j->nfiles);
	if (j->read_iolog[0] && j->nfiles > 1)
		return perr(p, opt_line(js, "read_iolog"), SSD_EINVAL,
			    "option 'read_iolog': job '%s' has %u files; a trace "
			    "is replayed onto one (accepted: one file, or none: "
			    "the job's region)", j->name, j->nfiles);

	if (j->verify_only && j->time_based)
		return perr(p, opt_line(js, "verify_only"), SSD_EINVAL,
			    "option 'verify_only': job '%s' is time_based, so "
			    "the writes to replay are not known (accepted: "
			    "verify_only without time_based)", j->name);

	if (j->time_based && j->runtime == 0) {
		/* fio: "time_based requires a runtime/timeout setting", and
		 * it runs the job without it; the report lists it among the
		 * options taken without effect */
		int oi = job_find_opt("time_based");
		j->time_based = 0;
		j->time_based_no_runtime = 1;
		j->noeffect[oi / 64] |= 1ull << (oi % 64);
	}

	rc = check_zones(p, js);
	if (rc)
		return rc;
	rc = check_limits(p, js, io_size, size);
	if (rc)
		return rc;

	j->offset = off;
	j->size = size;
	rc = finish_pacing(p, js);
	if (rc)
		return rc;
	rc = finish_cmd_modes(p, js);
	if (!rc)
		rc = job_dp_finish(p, js);
	if (rc)
		return rc;
	j->io_size = io_size;
	char *logs[LOG_N] = {j->write_iops_log, j->write_bw_log,
			     j->write_lat_log, j->write_hist_log};
	for (int i = 0; i < LOG_N; i++)
		if (js->log_bare[i])
			snprintf(logs[i], sizeof j->write_iops_log, "%s",
				 j->name);

	if (p->njobs == p->cap) {
		int ncap = p->cap ? 2 * p->cap : 8;
		struct ssd_job *jobs = realloc(p->jobs,
					       (size_t)ncap * sizeof *j);
		if (!jobs)
			return nomem(p);
		p->jobs = jobs;
		p->cap = ncap;
	}
	rc = keep_files(p, js);
	if (rc)
		return rc;
	p->jobs[p->njobs++] = *j;
	return 0;
}

/* ---- defaults ---- */

/* fio's defaults for every option, before [global]. */
void job_defaults(struct ssd_job *j)
{
	memset(j, 0, sizeof *j);
	j->rw = SSD_RW_READ;
	j->dp_select = SSD_DP_RR;
	j->replay_time_scale = 100;
	j->replay_scale = 1;
	j->rwmixread = 50;
	for (int d = 0; d < SSD_DDIR_N; d++) {
		j->bs[d] = 4096;
		j->perc_random[d] = 100;
	}
	j->seq_nr = 1;
	j->dist_center = -1;
	j->loops = 1;
	j->iodepth = 1;
	j->dist = SSD_DIST_RANDOM;
	j->thinktime_blocks = 1;
	j->numjobs = 1;
	j->do_verify = 1;
	j->trim_verify_zero = 1;
	j->nrfiles = 1;
	j->file_service = SSD_FSRV_ROUNDROBIN;
	j->file_service_nr = 1;
	j->per_job_logs = 1;
	j->error_dump = 1;
	j->num_range = 1;
	j->wmode_pct[SSD_WMODE_WRITE] = 100;
	j->verify_write_sequence = 1;
	/* pacing and the order of jobs */
	j->ratecycle = 1000 * SSD_MS;
	j->iodepth_batch = 1;
	j->iodepth_batch_complete_min = 1;
	j->ss_state = SSD_SS_IOPS | SSD_SS_SLOPE | SSD_SS_PCT;
	j->ss_limit = 0.01;
	j->ss_interval = SSD_S;
	j->latency_percentile = 100.0;
}


/* ---- files and regions: the whole file ---- */

/* The names of a job's files for one clone: the filename list (split at
 * ':' not escaped as '\:'), or nrfiles names made from filename_format.
 * Returns how many; each names[i] is malloc'd.  Out of memory: *oom is
 * set and the count returned is of the names made before (free_names
 * frees them). */
static uint32_t file_names(const struct jfiles *f, const struct ssd_job *j,
			   uint32_t clone, char **names, int *oom)
{
	if (f->filename) {
		uint32_t n = 0;
		const char *c = f->filename;
		while (*c) {
			char *name = calloc(1, strlen(c) + 1), *d = name;
			if (!name) {
				*oom = 1;
				return n;
			}
			for (; *c && *c != ':'; c++) {
				if (*c == '\\' && c[1] == ':')
					c++;
				*d++ = *c;
			}
			if (*c == ':')
				c++;
			names[n++] = name;
		}
		return n;
	}
	const char *fmt = f->format ? f->format : "$jobname.$jobnum.$filenum";
	for (uint32_t i = 0; i < j->nrfiles; i++) {
		char buf[JOB_LINE_MAX + 64];
		size_t len = 0;
		for (const char *c = fmt; *c && len < JOB_LINE_MAX;) {
			static const char *const kw[] = {
				"$jobname", "$jobnum", "$filenum", "$clientuid"};
			int k = 0;
			for (; k < 4; k++)
				if (!strncasecmp(c, kw[k], strlen(kw[k])))
					break;
			if (k == 4) {
				buf[len++] = *c++;
				continue;
			}
			c += strlen(kw[k]);
			if (k == 0)
				len += (size_t)snprintf(buf + len, 64, "%.63s",
							j->name);
			else if (k == 1 || k == 2)
				len += (size_t)snprintf(buf + len, 64, "%u",
							k == 1 ? clone : i);
			else
				len += (size_t)snprintf(buf + len, 64, "local");
		}
		buf[len] = 0;
		names[i] = malloc(len + 1);
		if (!names[i]) {
			*oom = 1;
			return i;
		}
		memcpy(names[i], buf, len + 1);
	}
	return j->nrfiles;
}

/* Whether clones get files of their own (names made with $jobnum). */
static int names_per_clone(const struct jfiles *f)
{
	if (f->filename)
		return 0;
	const char *fmt = f->format ? f->format : "$jobnum";
	for (const char *c = fmt; *c; c++)
		if (!strncasecmp(c, "$jobnum", 7))
			return 1;
	return 0;
}

static void free_names(char **names, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		free(names[i]);
}

/* A file's size drawn in [lo, hi] from its name, 4 KiB aligned: the same
 * name has the same size in every job. */
static uint64_t drawn_size(const struct jfiles *f, const char *name)
{
	if (f->fs_lo == f->fs_hi)
		return f->fs_lo;
	uint64_t h = 0xcbf29ce484222325ULL;
	for (const char *c = name; *c; c++)
		h = (h ^ (unsigned char)*c) * 0x100000001b3ULL;
	uint64_t steps = (f->fs_hi - f->fs_lo) / JOB_PAGE + 1;
	return f->fs_lo + ssd_mix64(h) % steps * JOB_PAGE;
}

/* Bytes of file i of n when job j's size is split over its files: units
 * of whole blocks that keep the files 4 KiB aligned shared out, the first
 * files one unit more (fio gives them a block more). */
static uint64_t share_of(const struct ssd_job *j, uint32_t i, uint32_t n)
{
	uint64_t unit = ssd_job_min_bs(j), a = unit, b = JOB_PAGE;
	while (b) { /* unit = lcm(min_bs, 4 KiB) */
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	unit = unit / a * JOB_PAGE;
	uint64_t units = j->size / unit;
	return (units / n + (i < units % n ? 1 : 0)) * unit;
}

enum { JT_PLAIN, JT_DRIVE, JT_FILES }; /* what a job works on */

/* What a job's files need of each file: the clone's offset plus what it
 * does in it (0: any length, decided by the others). */
static uint64_t file_need(const struct jfiles *f, const struct ssd_job *j,
			  uint64_t off, const char *name, uint32_t i,
			  uint32_t n)
{
	if (f->fs_lo)
		return drawn_size(f, name);
	if (f->size_given)
		return off + share_of(j, i, n);
	return 0;
}

/* One clone's region in one file (or the drive); checks that it holds
 * the job's largest block.  In a file, or with a filesize, the region is
 * whole blocks, as fio's I/O is (a filesize that is not is noted in the
 * job's cut_*). */
static int clone_region(struct parser *p, int ji, int kind, uint64_t base,
			uint64_t len, uint64_t off, const char *name,
			uint32_t i, uint32_t n, struct ssd_job_region *r)
{
	const struct jfiles *f = &p->jf[ji];
	struct ssd_job *j = &p->jobs[ji];
	char b1[32], b2[32], b3[32];
	uint64_t end = len, io;
	if (f->fs_lo) {
		end = drawn_size(f, name);
		if (kind == JT_DRIVE && end > len)
			return perr(p, f->ln_filesize, SSD_ERANGE,
				    "option 'filesize': %s is larger than the "
				    "drive (%s; job '%s'; accepted: at most "
				    "the capacity)",
				    ssd_fmt_bytes(end, b1, sizeof b1),
				    ssd_fmt_bytes(len, b2, sizeof b2), j->name);
		if (off >= end)
			return perr(p, f->ln_incr > f->ln_offset ? f->ln_incr
								 : f->ln_offset,
				    SSD_ERANGE,
				    "option 'offset': %s is not inside file "
				    "'%.64s' of %s (job '%s'; accepted: offset "
				    "+ clone x offset_increment < filesize)",
				    ssd_fmt_bytes(off, b1, sizeof b1), name,
				    ssd_fmt_bytes(end, b2, sizeof b2), j->name);
		io = end - off;
	} else if (f->size_given) {
		io = kind == JT_FILES ? share_of(j, i, n) : j->size;
	} else {
		if (kind == JT_FILES && !len)
			return perr(p, j->line, SSD_EINVAL,
				    "file '%.64s' of job '%s' has no size "
				    "(accepted: size or filesize in a job "
				    "naming it)", name, j->name);
		if (off >= len)
			return perr(p, f->ln_incr, SSD_ERANGE,
				    "option 'offset_increment': a clone of "
				    "job '%s' starts at %s, past the end of "
				    "%s%.64s%s (%s; accepted: offset + "
				    "(numjobs-1) x offset_increment inside it)",
				    j->name, ssd_fmt_bytes(off, b1, sizeof b1),
				    kind == JT_FILES ? "file '" : "the drive",
				    kind == JT_FILES ? name : "",
				    kind == JT_FILES ? "'" : "",
				    ssd_fmt_bytes(len, b2, sizeof b2));
		io = len - off;
	}
	uint32_t minbs = ssd_job_min_bs(j);
	if ((f->fs_lo || kind == JT_FILES) && io % minbs && io > minbs) {
		if (f->fs_lo && end % minbs && !j->cut_key) {
			j->cut_key = "filesize";
			j->cut_lo = f->fs_lo;
			j->cut_hi = f->fs_hi;
		}
		io -= io % minbs;
	}
	if (kind == JT_DRIVE && (off > len || io > len - off))
		return perr(p, f->ln_incr, SSD_ERANGE,
			    "option 'offset_increment': a clone of job '%s' "
			    "works in [%s, +%s), beyond the volume's capacity %s "
			    "(accepted: offset + (numjobs-1) x "
			    "offset_increment + size <= capacity)", j->name,
			    ssd_fmt_bytes(off, b1, sizeof b1),
			    ssd_fmt_bytes(io, b2, sizeof b2),
			    ssd_fmt_bytes(len, b3, sizeof b3));
	if (io < max_bs(j))
		return perr(p, f->fs_lo ? f->ln_filesize : f->ln_size,
			    SSD_ERANGE,
			    "option '%s': job '%s' has %s of %s%.64s%s, less "
			    "than its block size %s (accepted: at least one "
			    "block per file)", f->fs_lo ? "filesize" : "size",
			    j->name, ssd_fmt_bytes(io, b1, sizeof b1),
			    kind == JT_FILES ? "file '" : "the drive",
			    kind == JT_FILES ? name : "",
			    kind == JT_FILES ? "'" : "",
			    ssd_fmt_bytes(max_bs(j), b2, sizeof b2));
	r->start = base + off;
	r->size = io;
	r->end = base + end;
	if (j->zonemode == SSD_ZONEMODE_STRIDED &&
	    r->end - r->start < max_bs(j))
		return perr(p, f->ln_zone, SSD_ERANGE,
			    "option 'zonesize': the first zone of job '%s' "
			    "holds no block (accepted: a region of at least "
			    "one block)", j->name);
	return 0;
}

/* Classify the jobs (plain region, the drive with per-clone regions,
 * files), lay out every file in order of first use, and give each job
 * that needs them its regions and per-clone byte counts.  On success
 * p->jobs is the block the caller returns: jobs, regions, clone_io. */
static int resolve_files(struct parser *p)
{
	int rc = 0, oom = 0;
	int *kind = calloc((size_t)p->njobs, sizeof *kind);
	uint32_t **idx = calloc((size_t)p->njobs, sizeof *idx);
	char **names = calloc(SSD_JOB_MAX_FILES + 1, sizeof *names);
	struct ssd_layout *files = ssd_layout_new();
	struct ssd_layout *marked = ssd_layout_new(); /* names that are files */
	uint64_t nreg = 0, nclone = 0;
	char b1[32], b2[32], b3[32];
	if (!kind || !idx || !names || !files || !marked)
		rc = nomem(p);

	/* 1: the names; those of a job with several files, or a filesize,
	 * are files everywhere */
	for (int ji = 0; ji < p->njobs && !rc; ji++) {
		struct ssd_job *j = &p->jobs[ji];
		const struct jfiles *f = &p->jf[ji];
		uint32_t n = file_names(f, j, 0, names, &oom);
		if (oom) {
			free_names(names, n);
			rc = nomem(p);
			break;
		}
		int dev = 0;
		for (uint32_t i = 0; i < n; i++)
			dev |= !strncmp(names[i], "/dev/", 5);
		if (dev && n > 1)
			rc = perr(p, f->ln_filename, SSD_EUNSUP,
				  "option 'filename': job '%s' names %u block "
				  "devices (accepted: one drive, or files)",
				  j->name, n);
		kind[ji] = dev ? (f->fs_lo ? JT_DRIVE : JT_PLAIN)
			       : (n > 1 || f->fs_lo) ? JT_FILES : JT_PLAIN;
		if (kind[ji] == JT_FILES) {
			uint32_t per = names_per_clone(f) ? j->numjobs : 1;
			for (uint32_t c = 0; c < per && !oom; c++) {
				if (c) {
					free_names(names, n);
					n = file_names(f, j, c, names, &oom);
				}
				for (uint32_t i = 0; i < n && !oom; i++)
					if (ssd_layout_use(marked, names[i], 0,
							   ji) == UINT32_MAX)
						oom = 1;
			}
		}
		j->nfiles = n;
		free_names(names, n);
		if (oom)
			rc = nomem(p);
	}

	/* 2: what each job works on, and what it needs of each file, in
	 * job-file order (so files are placed in order of first use) */
	for (int ji = 0; ji < p->njobs && !rc; ji++) {
		struct ssd_job *j = &p->jobs[ji];
		const struct jfiles *f = &p->jf[ji];
		uint32_t n = file_names(f, j, 0, names, &oom);
		if (oom) {
			free_names(names, n);
			rc = nomem(p);
			break;
		}
		if (kind[ji] == JT_PLAIN && n == 1 &&
		    strncmp(names[0], "/dev/", 5)) {
			if (ssd_layout_find(marked, names[0]) != UINT32_MAX)
				kind[ji] = JT_FILES;
		}
		if (kind[ji] == JT_PLAIN &&
		    (j->offset_increment ||
		     j->zonemode == SSD_ZONEMODE_STRIDED))
			kind[ji] = JT_DRIVE;
		if (kind[ji] == JT_PLAIN) {
			j->nfiles = 0;
			free_names(names, n);
			continue;
		}
		const char *why = NULL;
		int line = j->line;
		if (kind[ji] == JT_FILES && (f->size_pct || f->off_pct ||
					     f->incr_pct)) {
			why = "a percentage of a set of files";
			line = f->size_pct ? f->ln_size
			       : f->off_pct ? f->ln_offset : f->ln_incr;
		} else if (kind[ji] == JT_FILES && j->fill_device) {
			why = "fill_device with files (it fills the drive)";
			line = f->ln_fill;
		} else if (j->zonemode == SSD_ZONEMODE_STRIDED && n > 1) {
			why = "zonemode=strided with several files (fio "
			      "drops the zones then)";
			line = f->ln_zone;
		} else if (j->zonemode == SSD_ZONEMODE_ZBD) {
			why = kind[ji] == JT_FILES
			      ? "zonemode=zbd on files (the zones are the "
				"drive's)"
			      : "zonemode=zbd with offset_increment (each "
				"clone's region)";
			line = kind[ji] == JT_FILES ? f->ln_filename
						    : f->ln_incr;
		}
		if (why) {
			free_names(names, n);
			rc = perr(p, line, SSD_EUNSUP,
				  "job '%s': %s is not supported by ssdlab "
				  "(accepted: a job on the drive, or one "
				  "without it)", j->name, why);
			break;
		}
		j->nfiles = n;
		nreg += (uint64_t)j->numjobs * n;
		nclone += j->numjobs;
		if (nreg > SSD_JOB_MAX_FILES) {
			free_names(names, n);
			rc = perr(p, kind[ji] == JT_FILES ? f->ln_nrfiles
							  : j->line,
				  SSD_ERANGE,
				  "option 'nrfiles': the jobs up to '%s' have "
				  "%llu files and clone regions (files x "
				  "numjobs summed over the file; accepted: at "
				  "most %d)", j->name,
				  (unsigned long long)nreg, SSD_JOB_MAX_FILES);
			break;
		}
		if (kind[ji] == JT_DRIVE) {
			free_names(names, n);
			continue;
		}
		idx[ji] = calloc((size_t)j->numjobs * n + 1, sizeof **idx);
		uint32_t held = n; /* names to free */
		oom = !idx[ji];
		int per = names_per_clone(f);
		for (uint32_t c = 0; c < j->numjobs && !oom; c++) {
			if (c && per) {
				free_names(names, held);
				held = file_names(f, j, c, names, &oom);
				if (oom)
					break;
			}
			uint64_t off = j->offset + c * j->offset_increment;
			for (uint32_t i = 0; i < n && !oom; i++) {
				uint32_t x = ssd_layout_use(
					files, names[i],
					file_need(f, j, off, names[i], i, n),
					ji);
				oom = x == UINT32_MAX;
				idx[ji][c * n + i] = x;
			}
		}
		free_names(names, held);
		if (oom) {
			rc = nomem(p);
			break;
		}
	}

	/* 3: place the files */
	uint32_t bad;
	if (!rc && ssd_layout_place(files, p->capacity, &bad)) {
		const struct ssd_job *j = &p->jobs[ssd_layout_tag(files, bad)];
		rc = perr(p, j->line, SSD_ERANGE,
			  "the files do not fit on the drive: file '%.64s' "
			  "(%s, first named by job '%s') would start at %s "
			  "(accepted: files adding up to at most the capacity "
			  "%s, each 4 KiB aligned)", ssd_layout_name(files, bad),
			  ssd_fmt_bytes(ssd_layout_len(files, bad), b1,
					sizeof b1), j->name,
			  ssd_fmt_bytes(bad ? ssd_layout_base(files, bad - 1) +
						      align_up(ssd_layout_len(
							  files, bad - 1),
							  JOB_PAGE)
					    : 0, b2, sizeof b2),
			  ssd_fmt_bytes(p->capacity, b3, sizeof b3));
	}

	/* 4: the block: jobs, then regions, then per-clone byte counts */
	if (!rc && nreg) {
		size_t jb = (size_t)p->njobs * sizeof *p->jobs;
		size_t rb = (size_t)nreg * sizeof(struct ssd_job_region);
		char *blk = calloc(1, jb + rb + (size_t)nclone * 8);
		if (!blk) {
			rc = nomem(p);
			goto out;
		}
		memcpy(blk, p->jobs, jb);
		free(p->jobs);
		p->jobs = (struct ssd_job *)blk;
		p->cap = p->njobs;
		struct ssd_job_region *reg = (struct ssd_job_region *)(blk + jb);
		uint64_t *cio = (uint64_t *)(blk + jb + rb);
		for (int ji = 0; ji < p->njobs && !rc; ji++) {
			struct ssd_job *j = &p->jobs[ji];
			const struct jfiles *f = &p->jf[ji];
			if (kind[ji] == JT_PLAIN)
				continue;
			uint32_t n = j->nfiles;
			j->regions = reg;
			j->clone_io = cio;
			uint32_t nn = kind[ji] == JT_FILES
					? file_names(f, j, 0, names, &oom) : 0;
			if (oom)
				rc = nomem(p);
			uint64_t total0 = 0;
			for (uint32_t c = 0; c < j->numjobs && !rc; c++) {
				if (c && kind[ji] == JT_FILES &&
				    names_per_clone(f)) {
					free_names(names, nn);
					nn = file_names(f, j, c, names, &oom);
					if (oom) {
						rc = nomem(p);
						break;
					}
				}
				uint64_t off = j->offset +
					       c * j->offset_increment;
				uint64_t total = 0;
				for (uint32_t i = 0; i < n && !rc; i++) {
					uint64_t base = 0, len = p->capacity;
					if (kind[ji] == JT_FILES) {
						uint32_t x = idx[ji][c * n + i];
						base = ssd_layout_base(files, x);
						len = ssd_layout_len(files, x);
					}
					rc = clone_region(
						p, ji, kind[ji], base, len, off,
						kind[ji] == JT_FILES
							? names[i] : "",
						i, n, &reg[c * n + i]);
					total += reg[c * n + i].size;
				}
				uint64_t io = total;
				if (f->io.given)
					io = f->io.is_pct
						     ? (uint64_t)((double)total *
								  f->io.pct /
								  100.0)
						     : f->io.bytes;
				else if (f->fs_lo && f->size_given &&
					 j->size < total)
					io = j->size;
				if (!io)
					io = 1;
				cio[c] = io;
				if (c == 0)
					total0 = total;
			}
			j->size = total0;
			j->io_size = cio[0];
			free_names(names, nn);
			reg += (size_t)j->numjobs * n;
			cio += j->numjobs;
		}
	}
out:
	for (int ji = 0; idx && ji < p->njobs; ji++)
		free(idx[ji]);
	free(idx);
	free(kind);
	free(names);
	ssd_layout_free(files);
	ssd_layout_free(marked);
	return rc;
}

/* ---- the parser from the first section to the last ---- */

/* The state before the first section, shared by the file parser and the
 * builder (ssd_jobs_new). */
int job_parser_init(struct parser *p, uint64_t capacity, char *err,
		    size_t errlen)
{
	p->capacity = capacity;
	p->err = err;
	p->errlen = errlen;
	job_defaults(&p->global.j);
	p->global.kb_base = 1024;
	p->global.blame = &p->blame;
	p->kb_base = 1024;
	if (err && errlen)
		err[0] = 0;
	if (capacity < JOB_PAGE)
		return perr(p, 0, SSD_EINVAL, "drive capacity %llu B is too "
			    "small for any job", (unsigned long long)capacity);
	return 0;
}

/* The end of the file: the last section ends, the files are laid out.
 * Shared by the file parser and the builder (ssd_jobs_end). */
int job_finish_file(struct parser *p)
{
	if (p->section == SEC_JOB) {
		int rc = job_finish_job(p);
		if (rc)
			return rc;
		p->section = SEC_NONE;
	}
	if (!p->njobs)
		return perr(p, p->line ? p->line : 1, SSD_EPARSE,
			    "no job section in the file (accepted: at least "
			    "one [jobname] section besides [global])");
	return resolve_files(p);
}

/* Hand the jobs over (rc == 0) or free them, and free the parser. */
void job_parser_done(struct parser *p, int rc, struct ssd_job **jobs,
		     int *njobs)
{
	free_files(p);
	if (rc) {
		free(p->jobs);
		*jobs = NULL;
		*njobs = 0;
	} else {
		*jobs = p->jobs;
		*njobs = p->njobs;
	}
	for (int i = 0; i < p->nents; i++)
		free(p->ents[i].text);
	free(p->ents);
	for (int i = 0; i < p->nfiles; i++)
		free(p->files[i]);
	free(p->files);
	free(p);
}

/* ---- building a job file in code ----
 * The builder is the parser without the text: ssd_jobs_global and
 * ssd_jobs_add begin sections as a header line does, ssd_jobs_set goes
 * through job_set_option as an option line does, and a section ends in
 * job_finish_job and the file in job_finish_file, as when a file is read. */

struct ssd_jobs {
	struct parser *p;
	char name[256];               /* the "file" name, for messages */
	int rc;                       /* the first error; later calls keep it */
	char msg[512];                /* its message */
	struct ssd_job scratch;       /* what ssd_jobs_add returns after an
	                                 error, so callers may assign freely */
};

void ssd_job_defaults(struct ssd_job *j, const char *name)
{
	job_defaults(j);
	snprintf(j->name, sizeof j->name, "%s", name ? name : "");
}

void ssd_job_set_bs(struct ssd_job *j, uint32_t bs)
{
	for (int d = 0; d < SSD_DDIR_N; d++)
		j->bs[d] = bs;
}

int ssd_jobs_new(const char *name, uint64_t capacity, struct ssd_jobs **out)
{
	*out = NULL;
	struct ssd_jobs *b = calloc(1, sizeof *b);
	struct parser *p = calloc(1, sizeof *p);
	if (!b || !p) {
		free(b);
		free(p);
		return SSD_ENOMEM;
	}
	snprintf(b->name, sizeof b->name, "%s", name);
	b->p = p;
	p->built = 1;
	p->file = b->name;
	b->rc = job_parser_init(p, capacity, b->msg, sizeof b->msg);
	*out = b;
	return 0;
}

/* End the job section in progress, if any. */
static int end_section(struct ssd_jobs *b)
{
	if (!b->rc && b->p->section == SEC_JOB)
		b->rc = job_finish_job(b->p);
	return b->rc;
}

struct ssd_job *ssd_jobs_global(struct ssd_jobs *b)
{
	if (end_section(b))
		return &b->scratch;
	b->p->section = SEC_GLOBAL;
	return &b->p->global.j;
}

struct ssd_job *ssd_jobs_add(struct ssd_jobs *b, const char *name)
{
	struct parser *p = b->p;
	if (!b->rc && strlen(name) >= sizeof p->cur.j.name)
		b->rc = perr(p, 0, SSD_ERANGE, "job name '%.32s...' is too "
			     "long (accepted: up to %zu characters)", name,
			     sizeof p->cur.j.name - 1);
	if (end_section(b))
		return &b->scratch;
	p->section = SEC_JOB;
	p->cur = p->global;
	p->cur.j.raw_global = p->cur.j.raw_len;
	snprintf(p->cur.j.name, sizeof p->cur.j.name, "%s", name);
	snprintf(p->cur.j.file, sizeof p->cur.j.file, "%s", p->file);
	p->cur.j.line = 0;
	return &p->cur.j;
}

int ssd_jobs_set(struct ssd_jobs *b, const char *key, const char *val)
{
	struct parser *p = b->p;
	if (b->rc)
		return b->rc;
	p->key = key;
	int oi = job_find_opt(key);
	if (oi < 0)
		return b->rc = job_unknown_option(p, key);
	if (p->section == SEC_NONE)
		return b->rc = perr(p, 0, SSD_EPARSE, "option '%.64s' is "
				    "outside of any section (accepted: after "
				    "ssd_jobs_global or ssd_jobs_add)", key);
	char buf[JOB_LINE_MAX + 1];
	if (val && strlen(val) >= sizeof buf)
		return b->rc = perr(p, 0, SSD_ERANGE, "option '%.64s': value "
				    "is longer than %d characters", key,
				    JOB_LINE_MAX);
	if (val)
		snprintf(buf, sizeof buf, "%s", val);
	p->line = 1; /* marks the option as given (was_set) */
	struct jstate *js = p->section == SEC_GLOBAL ? &p->global : &p->cur;
	b->rc = job_set_option(p, js, oi, val ? buf : NULL);
	p->line = 0;
	return b->rc;
}

int ssd_jobs_setf(struct ssd_jobs *b, const char *key, const char *fmt, ...)
{
	char val[JOB_LINE_MAX + 1];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(val, sizeof val, fmt, ap);
	va_end(ap);
	if (!b->rc && (n < 0 || (size_t)n >= sizeof val))
		b->rc = perr(b->p, 0, SSD_ERANGE, "option '%.64s': value is "
			     "longer than %d characters", key, JOB_LINE_MAX);
	return b->rc ? b->rc : ssd_jobs_set(b, key, val);
}

int ssd_jobs_end(struct ssd_jobs *b, struct ssd_job **jobs, int *njobs,
		 char *err, size_t errlen)
{
	int rc = b->rc;
	if (!rc)
		rc = job_finish_file(b->p);
	job_parser_done(b->p, rc, jobs, njobs);
	if (rc && err && errlen)
		snprintf(err, errlen, "%s", b->msg);
	free(b);
	return rc;
}

void ssd_jobs_free(struct ssd_jobs *b)
{
	struct ssd_job *jobs;
	int n;
	if (!b)
		return;
	job_parser_done(b->p, SSD_EINVAL, &jobs, &n);
	free(b);
}
