/*
 * calibrate.c -- measuring the presets of real drives the way the seed
 * reviews measured the drives (see calibrate.h and docs/calibration.md).
 *
 * Every measurement is an fio job text run on a drive built from the
 * config; nothing here knows the seed values.  The procedures:
 *
 *   fresh   a fresh drive: 128 KiB sequential writes at QD32 to a slice,
 *           reads of that slice, reads of a never-written slice.
 *   rfresh  a fresh drive: 4 KiB random writes at QD32 for 2 s.
 *   fill    a fresh drive written sequentially end to end (128 KiB,
 *           QD32) as 124 consecutive stonewalled chunks, 1/1024 of the
 *           capacity each for the first 1/16, then 1/64: the chunk rates
 *           are the write_bw_log of the fill, where the SLC-cache cliff
 *           shows.  Then, on the full drive: a slice written and one read;
 *           30 min idle; a slice read and one written; 32 GiB trimmed;
 *           the rest trimmed; a slice written.
 *   steady  4 KiB random writes at QD32: one pass over the span (each
 *           page once, fio's random map: the drive until its free space
 *           is used up), a second pass, then a measured quarter of the
 *           capacity.  Then a slice read and one written (the "after
 *           IOmeter" h2benchw of seed 002), 60 s idle, and IOmeter's
 *           latency test of seed 000: 4 KiB random 70% read / 30% write
 *           at QD1 in 2 s windows for 60 s.
 *
 * The steady procedure writes the capacity three times over; it runs on
 * a copy of the drive scaled down to at most 32 GiB (ssd_cal_scale),
 * with the same parallelism, page and block sizes, OP and timings and at
 * least 256 blocks per plane, so the GC reserve stays a small share.
 * The fill runs at full size: an SLC cache is a share of the drive and
 * its cliff must sit where it sits.  --quick scales everything to
 * 256 MiB (rough figures, for tests).
 */
#include "methods/calibrate.h"
#include "methods/cliff.h"
#include "methods/preset.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/device.h"
#include "job/dircopy.h"
#include "job/job.h"
#include "report/report.h"
#include "run/sim.h"

/* ---- the figure table ---- */

enum fig {
	F_SEQ_READ,
	F_SEQ_READ_UNMAPPED,
	F_SEQ_WRITE,
	F_RAND_WRITE_FRESH,
	F_SLC_CACHE,
	F_POST_CACHE,
	F_SEQ_READ_FULL,
	F_SEQ_WRITE_FULL,
	F_SEQ_READ_IDLE,
	F_SEQ_WRITE_IDLE,
	F_SEQ_WRITE_TRIM,
	F_TRIM_32G,
	F_RAND_WRITE_SPAN,
	F_RAND_WRITE_STEADY,
	F_SEQ_READ_USED,
	F_SEQ_WRITE_USED,
	F_MEAN_LAT,
	F_MAX_LAT,
	F_SPIKE_ONSET,
	F_SPIKES_PER_MIN,
	F_MEAN_LAT_LARGE,
	F_OSCACHE,
	F_MFT_SEQ_WRITE,
	F_MFT_RAND_WRITE,
	F_MFT_SEQ_READ,
	F_MEASURED,         /* rows below are not modelled */
};

static const char app_trace[] =
	"PCMark Vantage replays recorded desktop traces through a file system "
	"and the OS cache; ssdlab has the drive, not the trace";
static const char thg_iometer[] =
	"the seed does not give the queue depth or the test span of THG's "
	"IOmeter patterns, and a guessed queue depth would be one more knob "
	"to fit";

static const struct ssd_cal_figure figures[] = {
	[F_SEQ_READ] = {"seq_read_mbps", "MB/s",
		"128 KiB sequential reads, QD32, of a slice written just before", NULL},
	[F_SEQ_READ_UNMAPPED] = {"seq_read_unmapped_mbps", "MB/s",
		"128 KiB sequential reads, QD32, of a never-written slice of a "
		"fresh drive (no NAND is read)", NULL},
	[F_SEQ_WRITE] = {"seq_write_mbps", "MB/s",
		"128 KiB sequential writes, QD32, to a slice of a fresh drive", NULL},
	[F_RAND_WRITE_FRESH] = {"rand_write_iops_fresh", "IOPS",
		"4 KiB random writes, QD32, over the span, first 2 s of a fresh drive",
		NULL},
	[F_SLC_CACHE] = {"slc_cache_mb", "MB",
		"where a whole-capacity sequential fill drops below 70% of its "
		"first rate (interpolated inside the chunk); 0 if it never does",
		NULL},
	[F_POST_CACHE] = {"post_cache_write_mbps", "MB/s",
		"median chunk rate of the fill after the cliff (of the whole fill "
		"without one)", NULL},
	[F_SEQ_READ_FULL] = {"seq_read_full_mbps", "MB/s",
		"128 KiB sequential reads, QD32, of a slice of the filled drive", NULL},
	[F_SEQ_WRITE_FULL] = {"seq_write_full_mbps", "MB/s",
		"128 KiB sequential writes, QD32, to a slice of the filled drive", NULL},
	[F_SEQ_READ_IDLE] = {"seq_read_idle_mbps", "MB/s",
		"as seq_read_full_mbps, after 30 min idle", NULL},
	[F_SEQ_WRITE_IDLE] = {"seq_write_idle_mbps", "MB/s",
		"as seq_write_full_mbps, after 30 min idle", NULL},
	[F_SEQ_WRITE_TRIM] = {"seq_write_trim_mbps", "MB/s",
		"128 KiB sequential writes, QD32, after the filled drive is "
		"trimmed end to end", NULL},
	[F_TRIM_32G] = {"trim_32g_s", "s",
		"time to trim 32 GiB of the filled drive in 128 MiB commands, QD1",
		NULL},
	[F_RAND_WRITE_SPAN] = {"rand_write_iops_span", "IOPS",
		"4 KiB random writes, QD32, one pass over the span of a fresh "
		"drive (each page once): the drive until its free space is used up",
		NULL},
	[F_RAND_WRITE_STEADY] = {"rand_write_iops_steady", "IOPS",
		"4 KiB random writes, QD32, over the span after two passes of them",
		NULL},
	[F_SEQ_READ_USED] = {"seq_read_used_mbps", "MB/s",
		"128 KiB sequential reads, QD32, right after the random-write "
		"preconditioning", NULL},
	[F_SEQ_WRITE_USED] = {"seq_write_used_mbps", "MB/s",
		"128 KiB sequential writes, QD32, right after the random-write "
		"preconditioning", NULL},
	[F_MEAN_LAT] = {"mean_latency_ms", "ms",
		"mean latency of 4 KiB random 70% read / 30% write at QD1, 60 s "
		"after 60 s idle, on the preconditioned drive", NULL},
	[F_MAX_LAT] = {"max_latency_ms", "ms",
		"maximum latency in the same test", NULL},
	[F_SPIKE_ONSET] = {"spike_onset_s", "s",
		"start of the first 2 s window of the same test with a request "
		"of 100 ms or more", NULL},
	[F_SPIKES_PER_MIN] = {"spikes_per_min", "1/min",
		"requests of 100 ms or more per minute in the same test, from the "
		"first such window on", NULL},
	[F_MEAN_LAT_LARGE] = {"mean_latency_large_ms", "ms",
		"after another 60 s idle, the same test with 1 MiB requests, 20 s "
		"(the seed does not say how large its \"large\" requests were: "
		"1 MiB, the largest size of its IOmeter charts, is taken)", NULL},
	[F_OSCACHE] = {"rand_write_iops_oscache", "IOPS",
		"4 KiB random buffered writes at QD1 for 10 s over a 4 GiB test "
		"file (the drive, if smaller) written just before, through a "
		"256 MiB host page cache (page_cache = 256m unless the drive "
		"file sets one): IOPS as the application sees them", NULL},
	[F_MFT_SEQ_WRITE] = {"mft_seq_write_mbps", "MB/s",
		"the drive with mft = yes: the 4 GiB test file written with "
		"1 MiB requests at QD1 and fsynced (the MFT benchmark's first "
		"step)", NULL},
	[F_MFT_RAND_WRITE] = {"mft_rand_write_iops", "IOPS",
		"the drive with mft = yes: 4 KiB random writes at QD1 for 10 s "
		"over the test file, no page cache", NULL},
	[F_MFT_SEQ_READ] = {"mft_seq_read_mbps", "MB/s",
		"the drive with mft = yes: 4 MiB random reads at QD1 for 10 s "
		"over the test file (the MFT benchmark's largest read)", NULL},
	[F_MEASURED] = {"iometer_database_iops", "IOPS", NULL, thg_iometer},
	{"iometer_fileserver_iops", "IOPS", NULL, thg_iometer},
	{"iometer_webserver_iops", "IOPS", NULL, thg_iometer},
	{"app_load_mbps", "MB/s", NULL, app_trace},
	{"app_load_tortured_mbps", "MB/s", NULL, app_trace},
	{"media_import_mbps", "MB/s", NULL, app_trace},
};

#define NFIGURES ((int)(sizeof figures / sizeof figures[0]))

const struct ssd_cal_figure *ssd_cal_figure_at(int i)
{
	return i >= 0 && i < NFIGURES ? &figures[i] : NULL;
}

static int figure_index(const char *name)
{
	for (int i = 0; i < NFIGURES; i++)
		if (!strcmp(figures[i].name, name))
			return i;
	return -1;
}

const struct ssd_cal_figure *ssd_cal_figure_find(const char *name)
{
	int i = figure_index(name);
	return i < 0 ? NULL : &figures[i];
}

/* ---- what fills a figure's drive ---- */

static const char *const fill_names[] = {
	[SSD_CAL_FILL_NONE] = "-",
	[SSD_CAL_FILL_SEQ] = "sequential",
	[SSD_CAL_FILL_DIRCOPY] = "dircopy",
	[SSD_CAL_FILL_RANDOM] = "random",
};

const char *ssd_cal_fill_name(int fill)
{
	return fill >= 0 && fill <= SSD_CAL_FILL_RANDOM ? fill_names[fill] : "?";
}

int ssd_cal_fill_find(const char *name)
{
	return !strcmp(name, "sequential") ? SSD_CAL_FILL_SEQ
	     : !strcmp(name, "dircopy") ? SSD_CAL_FILL_DIRCOPY : -1;
}

/* 1 for the figures measured on the filled drive (the fill's procedure
 * is the drive file's to name). */
static int on_filled_drive(int f)
{
	return f >= F_SEQ_READ_FULL && f <= F_TRIM_32G;
}

/* The fill figure f's procedure gives its drive, the filled drive's
 * sequential. */
static int figure_fill(int f)
{
	if (f == F_SLC_CACHE || f == F_POST_CACHE || on_filled_drive(f))
		return SSD_CAL_FILL_SEQ; /* the cliff is the sequential fill's */
	if (f >= F_RAND_WRITE_SPAN && f <= F_MEAN_LAT_LARGE)
		return SSD_CAL_FILL_RANDOM;
	return SSD_CAL_FILL_NONE;
}

void ssd_cal_set_fill(struct ssd_cal_ref *refs, int n, int fill)
{
	for (int i = 0; i < n; i++)
		if (on_filled_drive(figure_index(refs[i].figure)))
			refs[i].fill = fill;
}

/* ---- "# ref" lines ---- */

static const char ref_form[] =
	"the form is '# ref FIGURE = VALUE ; SEED: note', VALUE a number, "
	"LO..HI, >N or <N, SEED 000..004";

static int parse_num(const char *s, double *v)
{
	char buf[32];
	size_t n = strlen(s);
	if (!n || n >= sizeof buf)
		return SSD_EPARSE;
	memcpy(buf, s, n + 1);
	return ssd_parse_double(ssd_strtrim(buf), v);
}

static int parse_value(const char *s, struct ssd_cal_ref *r)
{
	const char *dots = strstr(s, "..");
	if (*s == '>' || *s == '<') {
		double v;
		if (parse_num(s + 1, &v) || v < 0)
			return SSD_EPARSE;
		r->kind = *s == '>' ? SSD_CAL_ABOVE : SSD_CAL_BELOW;
		r->lo = r->hi = v;
		return 0;
	}
	if (dots) {
		char lo[32];
		size_t n = (size_t)(dots - s);
		if (n >= sizeof lo)
			return SSD_EPARSE;
		memcpy(lo, s, n);
		lo[n] = 0;
		if (parse_num(lo, &r->lo) || parse_num(dots + 2, &r->hi) ||
		    r->lo < 0 || r->hi <= r->lo)
			return SSD_EPARSE;
		r->kind = SSD_CAL_RANGE;
		return 0;
	}
	if (parse_num(s, &r->lo) || r->lo < 0)
		return SSD_EPARSE;
	r->hi = r->lo;
	r->kind = SSD_CAL_EQ;
	return 0;
}

/* SSD_ENOENT, with the accepted names in err. */
static int unknown_figure(const char *name, char *err, size_t errlen)
{
	char list[1024] = "";
	size_t off = 0;
	for (int i = 0; i < NFIGURES && off < sizeof list; i++)
		off += (size_t)snprintf(list + off, sizeof list - off, "%s%s",
					i ? ", " : "", figures[i].name);
	ssd_seterr(err, errlen, "unknown figure '%s' (accepted: %s)", name, list);
	return SSD_ENOENT;
}

/* The text after "# WORD" (blanks skipped) when line is such a comment,
 * else NULL. */
static const char *tagged(const char *line, const char *word)
{
	const char *p = line;
	size_t n = strlen(word);
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '#')
		return NULL;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, word, n) || (p[n] != ' ' && p[n] != '\t'))
		return NULL;
	return p + n;
}

/* A "# WORD NAME: text" line: 1 with buf holding the line and *name and
 * *text trimmed inside it, 0 if the line is not tagged WORD, or
 * SSD_EPARSE (the form and the hint in err) when it has no colon. */
static int tagged_pair(const char *line, const char *word, const char *form,
		       const char *hint, char *buf, size_t bn, char **name,
		       char **text, char *err, size_t errlen)
{
	const char *p = tagged(line, word);
	if (!p)
		return 0;
	snprintf(buf, bn, "%s", p);
	buf[strcspn(buf, "\r\n")] = 0;
	char *colon = strchr(buf, ':');
	if (!colon) {
		ssd_seterr(err, errlen, "%s line: the form is '%s'%s", word, form,
			   hint);
		return SSD_EPARSE;
	}
	*colon = 0;
	*name = ssd_strtrim(buf);
	*text = ssd_strtrim(colon + 1);
	return 1;
}

int ssd_cal_parse_miss(const char *line, char *figure, size_t fn, char *why,
		       size_t wn, char *err, size_t errlen)
{
	char buf[1024], *name, *text;
	int rc = tagged_pair(line, "miss", "# miss FIGURE: why the drive misses it",
			     "", buf, sizeof buf, &name, &text, err, errlen);
	if (rc <= 0)
		return rc;
	if (!ssd_cal_figure_find(name))
		return unknown_figure(name, err, errlen);
	if (!*text || strlen(text) >= wn) {
		ssd_seterr(err, errlen, "figure '%s': the miss line needs a "
			   "reason (at most %zu characters)", name, wn - 1);
		return SSD_EPARSE;
	}
	snprintf(figure, fn, "%s", name);
	snprintf(why, wn, "%s", text);
	return 1;
}

int ssd_cal_parse_fill(const char *line, int *fill, char *err, size_t errlen)
{
	char buf[1024], *name, *text;
	int rc = tagged_pair(line, "fill", "# fill PROCEDURE: why",
			     " (PROCEDURE sequential or dircopy)", buf, sizeof buf,
			     &name, &text, err, errlen);
	if (rc <= 0)
		return rc;
	int f = ssd_cal_fill_find(name);
	if (f < 0) {
		ssd_seterr(err, errlen, "fill line: unknown procedure '%s' "
			   "(accepted: sequential, dircopy)", name);
		return SSD_EPARSE;
	}
	if (!*text) {
		ssd_seterr(err, errlen, "fill line: '%s' needs a reason (why the "
			   "review's drive was filled that way)", name);
		return SSD_EPARSE;
	}
	*fill = f;
	return 1;
}

int ssd_cal_parse_ref(const char *line, struct ssd_cal_ref *ref, char *err,
		      size_t errlen)
{
	const char *p = tagged(line, "ref");
	if (!p)
		return 0;
	memset(ref, 0, sizeof *ref);
	char buf[512];
	snprintf(buf, sizeof buf, "%s", p);
	buf[strcspn(buf, "\r\n")] = 0;
	char *eq = strchr(buf, '='), *semi = strchr(buf, ';');
	if (!eq || !semi || semi < eq) {
		ssd_seterr(err, errlen, "reference line: %s", ref_form);
		return SSD_EPARSE;
	}
	*eq = 0;
	*semi = 0;
	char *name = ssd_strtrim(buf), *value = ssd_strtrim(eq + 1),
	     *cite = ssd_strtrim(semi + 1);
	if (!*name || strlen(name) >= sizeof ref->figure) {
		ssd_seterr(err, errlen, "reference line: no figure name; %s", ref_form);
		return SSD_EPARSE;
	}
	if (!ssd_cal_figure_find(name))
		return unknown_figure(name, err, errlen);
	snprintf(ref->figure, sizeof ref->figure, "%s", name);
	ref->fill = figure_fill(figure_index(name));
	if (strlen(value) >= sizeof ref->value || parse_value(value, ref)) {
		ssd_seterr(err, errlen, "figure '%s': bad value '%s' (accepted: a "
		       "number, LO..HI, >N or <N)", name, value);
		return SSD_EPARSE;
	}
	snprintf(ref->value, sizeof ref->value, "%s", value);
	if (!(cite[0] >= '0' && cite[0] <= '9' && cite[1] >= '0' &&
	      cite[1] <= '9' && cite[2] >= '0' && cite[2] <= '9' &&
	      cite[3] == ':')) {
		ssd_seterr(err, errlen, "figure '%s': the note must start with the "
		       "seed it comes from, 'NNN:' (000..004)", name);
		return SSD_EPARSE;
	}
	memcpy(ref->seed, cite, 3);
	ref->seed[3] = 0;
	char *note = ssd_strtrim(cite + 4);
	snprintf(ref->note, sizeof ref->note, "%s", note);
	return 1;
}

int ssd_cal_load_refs(const char *path, struct ssd_cal_ref *refs, int max,
		      int *n, char *err, size_t errlen)
{
	*n = 0;
	FILE *f = fopen(path, "r");
	if (!f) {
		ssd_seterr(err, errlen, "%s: cannot read the drive file", path);
		return SSD_EIO;
	}
	char line[1024], msg[1024];
	/* the "# miss" lines, by figure: attached to the refs at the end
	   (a miss line may come before its figure's ref lines) */
	int miss_line[NFIGURES] = {0};
	char miss[NFIGURES][sizeof refs[0].miss];
	int lineno = 0, rc = 0, fill = SSD_CAL_FILL_SEQ, fill_line = 0;
	while (fgets(line, sizeof line, f)) {
		lineno++;
		struct ssd_cal_ref r;
		char name[sizeof r.figure], why[sizeof r.miss];
		int fl, k = ssd_cal_parse_fill(line, &fl, msg, sizeof msg);
		if (k == 1 && fill_line) {
			ssd_seterr(err, errlen, "%s:%d: a second fill line (the "
				   "first is line %d)", path, lineno, fill_line);
			rc = SSD_EPARSE;
			break;
		}
		if (k == 1) {
			fill = fl;
			fill_line = lineno;
			continue;
		}
		if (k == 0)
			k = ssd_cal_parse_miss(line, name, sizeof name, why,
					       sizeof why, msg, sizeof msg);
		if (k == 1) {
			int fi = figure_index(name);
			if (miss_line[fi]) {
				ssd_seterr(err, errlen, "%s:%d: a second miss "
					   "line for '%s' (the first is line %d)",
					   path, lineno, name, miss_line[fi]);
				rc = SSD_EPARSE;
				break;
			}
			miss_line[fi] = lineno;
			memcpy(miss[fi], why, sizeof why);
			continue;
		}
		if (k == 0)
			k = ssd_cal_parse_ref(line, &r, msg, sizeof msg);
		if (k < 0) {
			ssd_seterr(err, errlen, "%s:%d: %s", path, lineno, msg);
			rc = k;
			break;
		}
		if (!k)
			continue;
		if (*n == max) {
			ssd_seterr(err, errlen, "%s:%d: more than %d reference lines",
			       path, lineno, max);
			rc = SSD_ERANGE;
			break;
		}
		r.line = lineno;
		refs[(*n)++] = r;
	}
	fclose(f);
	for (int fi = 0; fi < NFIGURES && !rc; fi++) {
		if (!miss_line[fi])
			continue;
		int found = 0;
		for (int i = 0; i < *n; i++)
			if (!strcmp(refs[i].figure, figures[fi].name)) {
				memcpy(refs[i].miss, miss[fi], sizeof refs[i].miss);
				found = 1;
			}
		if (!found) {
			ssd_seterr(err, errlen, "%s:%d: a miss line for '%s', "
				   "which no '# ref' line of the file names",
				   path, miss_line[fi], figures[fi].name);
			rc = SSD_EPARSE;
		}
	}
	if (!rc)
		ssd_cal_set_fill(refs, *n, fill);
	return rc;
}

double ssd_cal_deviation(const struct ssd_cal_ref *r, double v)
{
	if (isnan(v))
		return NAN;
	double target;
	switch (r->kind) {
	case SSD_CAL_RANGE:
		if (v >= r->lo && v <= r->hi)
			return 0;
		target = v < r->lo ? r->lo : r->hi;
		break;
	case SSD_CAL_ABOVE:
		if (v >= r->lo)
			return 0;
		target = r->lo;
		break;
	case SSD_CAL_BELOW:
		if (v <= r->hi)
			return 0;
		target = r->hi;
		break;
	default:
		target = r->lo;
		break;
	}
	if (target == 0)
		return NAN;
	if (isinf(v))
		return v > 0 ? INFINITY : -INFINITY;
	return 100 * (v - target) / target;
}

/* ---- scaling ---- */

uint32_t ssd_cal_scale(const struct ssd_config *c, uint64_t target,
		       uint32_t min_blocks, struct ssd_config *out)
{
	uint32_t k = 1;
	while (c->capacity / k > target &&
	       c->blocks_per_plane / (2 * k) >= min_blocks && k < (1u << 20))
		k *= 2;
	*out = *c;
	if (k == 1)
		return 1;
	for (;;) {
		struct ssd_config s = *c;
		s.capacity = c->capacity / k / SSD_LPAGE * SSD_LPAGE;
		s.slc_cache_size = c->slc_cache_size / k / SSD_LPAGE * SSD_LPAGE;
		s.map_cache = c->map_cache / k;
		s.blocks_per_plane = 0;
		if (!ssd_config_finish(&s, NULL, 0)) {
			*out = s;
			return k;
		}
		/* a scaled drive the config rules refuse: scale less */
		k /= 2;
		if (k == 1)
			return 1;
	}
}

/* ---- running jobs ---- */

/* One run: the built jobs and their results, freed together. */
struct run {
	struct ssd_job *jobs;
	int njobs;
	struct ssd_run_result res;
	int have_res;
};

static void run_free(struct run *r)
{
	if (r->have_res)
		ssd_run_result_free(&r->res);
	free(r->jobs);
	memset(r, 0, sizeof *r);
}

/* A job file for dev, named for messages; NULL when out of memory (then
 * run_jobs says so). */
static struct ssd_jobs *jobs_new(const struct ssd_dev *dev, const char *name)
{
	struct ssd_jobs *b = NULL;
	ssd_jobs_new(name, ssd_dev_capacity(dev), &b);
	return b;
}

/* A job of `bs`-byte I/Os `iodepth` deep over [off, off + size) (size 0:
 * to the end of the drive), after the jobs before it if stonewall. */
static struct ssd_job *add_job(struct ssd_jobs *b, const char *name, int rw,
			       uint32_t bs, uint32_t iodepth, int stonewall,
			       uint64_t off, uint64_t size)
{
	struct ssd_job *j = ssd_jobs_add(b, name);
	j->rw = rw;
	ssd_job_set_bs(j, bs);
	j->iodepth = iodepth;
	j->stonewall = stonewall;
	j->offset = off;
	j->size = size;
	return j;
}

/* End job file b (from jobs_new) and run it on dev. */
static int run_jobs(struct ssd_dev *dev, struct ssd_jobs *b, const char *name,
		    const struct ssd_cal_opts *o, struct run *r, char *err,
		    size_t errlen)
{
	memset(r, 0, sizeof *r);
	char msg[512] = "out of memory";
	int rc = b ? ssd_jobs_end(b, &r->jobs, &r->njobs, msg, sizeof msg)
		   : SSD_ENOMEM;
	if (!rc)
		rc = ssd_sim_run_prog(dev, r->jobs, r->njobs, o->seed, NULL,
				      o->prog, &r->res, msg, sizeof msg);
	if (rc) {
		ssd_seterr(err, errlen, "%s: %s", ssd_dev_config(dev)->name,
			   msg);
		ssd_run_result_free(&r->res);
		free(r->jobs);
		r->jobs = NULL;
		return rc;
	}
	r->have_res = 1;
	for (int i = 0; i < r->res.njobs; i++)
		if (r->res.jobs[i].error) {
			ssd_seterr(err, errlen, "%s: job '%s' of %s failed: %s",
			       ssd_dev_config(dev)->name, r->res.jobs[i].name,
			       name,
			       ssd_strerror(r->res.jobs[i].error));
			run_free(r);
			return SSD_ESTATE;
		}
	return 0;
}

/* The result of the job named `name`. */
static const struct ssd_job_result *job(const struct run *r, const char *name)
{
	for (int i = 0; i < r->res.njobs; i++)
		if (!strcmp(r->res.jobs[i].name, name))
			return &r->res.jobs[i];
	return NULL;
}

/* MB/s (10^6 bytes per second) of one direction of a job. */
static double mbps(const struct ssd_job_result *j, int ddir)
{
	if (!j || j->runtime_ns <= 0)
		return NAN;
	return (double)j->dir[ddir].bytes * 1e3 / (double)j->runtime_ns;
}

static double iops(const struct ssd_job_result *j, int ddir)
{
	if (!j || j->runtime_ns <= 0)
		return NAN;
	return (double)j->dir[ddir].ios * 1e9 / (double)j->runtime_ns;
}

static int make_dev(const struct ssd_config *c, uint64_t seed,
		    struct ssd_dev **dev, char *err, size_t errlen)
{
	int rc = ssd_dev_mem_check(c, 0, 0, err, errlen);
	if (rc)
		return rc;
	rc = ssd_dev_create(c, seed, dev);
	if (rc)
		ssd_seterr(err, errlen, "%s: cannot build the drive: %s", c->name,
		       ssd_strerror(rc));
	return rc;
}

static void idle(struct ssd_dev *dev, int64_t ns)
{
	int64_t t = ssd_dev_time(dev);
	ssd_dev_idle(dev, t + ns);
}

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)
#define SEQ_BS (128 * KIB)

static uint64_t round_down(uint64_t v, uint64_t unit)
{
	return v / unit * unit;
}

/* The slice sequential tests use on drive c: 1 GiB (64 MiB quick), at
 * most an eighth of the drive, and at most half an SLC cache, so a
 * "fresh" write measures the speed the cache gives. */
static uint64_t slice_of(const struct ssd_config *c, int quick)
{
	uint64_t s = quick ? 64 * MIB : GIB;
	if (s > c->capacity / 8)
		s = c->capacity / 8;
	if (c->slc_cache != SSD_SLC_NONE && c->slc_cache_size &&
	    s > c->slc_cache_size / 2)
		s = c->slc_cache_size / 2;
	s = round_down(s, SEQ_BS);
	return s ? s : SEQ_BS;
}

struct meas {
	double v[F_MEASURED];
	const struct ssd_cal_opts *o;
	const int *want;    /* [NFIGURES]: the refs name the figure */
	int fill;           /* the filled drive's: enum ssd_cal_fill */
	uint32_t k;         /* the scale of the drive measured (on_scaled) */
	char *err;
	size_t errlen;
};

/* ---- a procedure's drive and steps ----
 * Each procedure builds its drive (scaled, on_scaled, or with a key set,
 * with_key below), runs its steps on it and destroys it (on_drive); a
 * step is one job file run on the drive and the figures read from its
 * jobs (step; seq_step for sequential slices).  Figures a step cannot
 * read as a job's rate the procedure reads from the run it keeps. */

/* A procedure's steps on its drive dev, built from config c. */
typedef int steps_fn(struct ssd_dev *dev, const struct ssd_config *c,
		     struct meas *m);

/* Build drive c, run the procedure's steps on it, destroy it. */
static int on_drive(const struct ssd_config *c, struct meas *m,
		    steps_fn *steps)
{
	struct ssd_dev *dev;
	int rc = make_dev(c, m->o->seed, &dev, m->err, m->errlen);
	if (rc)
		return rc;
	rc = steps(dev, c, m);
	ssd_dev_destroy(dev);
	return rc;
}

/* A figure a step reads: the rate of job `job` in direction ddir, MB/s
 * or IOPS. */
enum { MBPS, IOPS };
struct reading {
	int fig;            /* enum fig */
	const char *job;
	int ddir;
	int unit;           /* MBPS, IOPS */
};

#define NREADS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Run job file b (jobs_new(dev, name)) on dev and take the n readings
 * rd into m->v.  The run is freed, or handed to the caller in *keep (to
 * run_free) for readings of its own when keep is not NULL. */
static int step(struct ssd_dev *dev, struct ssd_jobs *b, const char *name,
		const struct reading *rd, int n, struct meas *m,
		struct run *keep)
{
	struct run r;
	int rc = run_jobs(dev, b, name, m->o, &r, m->err, m->errlen);
	if (rc)
		return rc;
	for (int i = 0; i < n; i++) {
		const struct ssd_job_result *j = job(&r, rd[i].job);
		m->v[rd[i].fig] = rd[i].unit == IOPS ? iops(j, rd[i].ddir)
						     : mbps(j, rd[i].ddir);
	}
	if (keep)
		*keep = r;
	else
		run_free(&r);
	return 0;
}

/* A sequential job of a step: 128 KiB requests at QD32 over a slice at
 * off, after the job before it; its MB/s is figure fig. */
struct seq {
	const char *name;
	int rw;             /* SSD_RW_READ, SSD_RW_WRITE */
	uint64_t off;
	int fig;            /* enum fig */
};

/* The step of the n sequential jobs q over slices of s bytes, job file
 * `name`. */
static int seq_step(struct ssd_dev *dev, const char *name, const struct seq *q,
		    int n, uint64_t s, struct meas *m)
{
	struct reading rd[4];
	int nr = 0;
	struct ssd_jobs *b = jobs_new(dev, name);
	for (int i = 0; i < n && nr < NREADS(rd); i++) {
		if (b)
			add_job(b, q[i].name, q[i].rw, SEQ_BS, 32, i > 0, q[i].off,
				s);
		rd[nr++] = (struct reading){q[i].fig, q[i].name,
			q[i].rw == SSD_RW_WRITE ? SSD_DDIR_WRITE : SSD_DDIR_READ,
			MBPS};
	}
	return step(dev, b, name, rd, nr, m, NULL);
}

/* The procedure's steps on drive full scaled to at most `cap` bytes with
 * at least min_blocks blocks per plane (ssd_cal_scale), on full as it is
 * when cap is 0, and on 256 MiB under --quick; m->k is the scale. */
static int on_scaled(const struct ssd_config *full, uint64_t cap,
		     uint32_t min_blocks, struct meas *m, steps_fn *steps)
{
	struct ssd_config c;
	if (m->o->quick) {
		m->k = ssd_cal_scale(full, 256 * MIB, 16, &c);
	} else if (cap) {
		m->k = ssd_cal_scale(full, cap, min_blocks, &c);
	} else {
		c = *full;
		m->k = 1;
	}
	return on_drive(&c, m, steps);
}

/* ---- fresh: sequential write, read, unmapped read ---- */

static int fresh(struct ssd_dev *dev, const struct ssd_config *c,
		 struct meas *m)
{
	uint64_t u = round_down(c->capacity / 2, SEQ_BS);
	const struct seq q[] = {
		{"write", SSD_RW_WRITE, 0, F_SEQ_WRITE},
		{"read", SSD_RW_READ, 0, F_SEQ_READ},
		{"unmapped", SSD_RW_READ, u, F_SEQ_READ_UNMAPPED},
	};
	return seq_step(dev, "calibrate-fresh", q, NREADS(q),
			slice_of(c, m->o->quick), m);
}

static int do_fresh(const struct ssd_config *full, struct meas *m)
{
	return on_scaled(full, 0, 0, m, fresh);
}

/* ---- rfresh: random writes on a fresh drive ---- */

static int rfresh(struct ssd_dev *dev, const struct ssd_config *c,
		  struct meas *m)
{
	static const struct reading rd[] = {
		{F_RAND_WRITE_FRESH, "fresh", SSD_DDIR_WRITE, IOPS},
	};
	struct ssd_jobs *b = jobs_new(dev, "calibrate-rfresh");
	if (b) {
		struct ssd_job *j = add_job(b, "fresh", SSD_RW_RANDWRITE,
					    4096, 32, 0, 0, 0);
		j->runtime = m->o->quick ? 200 * SSD_MS : 2 * SSD_S;
		j->time_based = 1;
	}
	return step(dev, b, "calibrate-rfresh", rd, NREADS(rd), m, NULL);
}

static int do_rfresh(const struct ssd_config *full, struct meas *m)
{
	return on_scaled(full, 0, 0, m, rfresh);
}

/* ---- fill: the SLC cliff, then the full drive ---- */

/* The sequential fill of dev (its drive c) in chunks, and the SLC cliff
 * its chunk rates show (m->k: the scale of c). */
static int seq_fill(struct ssd_dev *dev, const struct ssd_config *c_,
		    struct meas *m)
{
	const int quick = m->o->quick;
	const struct ssd_config c = *c_;
	/* chunks: the first 1/16 of the drive in 64 (16 quick), the rest in
	 * 1/64ths; sizes in whole 128 KiB requests */
	int nfine = quick ? 16 : 64, ncoarse = quick ? 15 : 60;
	uint64_t fine = round_down(c.capacity / 16 / (uint64_t)nfine, SEQ_BS);
	uint64_t coarse = round_down(c.capacity / 64, SEQ_BS);
	if (!fine)
		fine = SEQ_BS;
	if (!coarse)
		coarse = SEQ_BS;
	int n = nfine + ncoarse;
	double *b = calloc((size_t)n, sizeof *b);
	double *r = calloc((size_t)n, sizeof *r);
	if (!b || !r) {
		free(b);
		free(r);
		ssd_seterr(m->err, m->errlen, "out of memory");
		return SSD_ENOMEM;
	}
	struct ssd_jobs *jb = jobs_new(dev, "calibrate-fill");
	uint64_t off = 0;
	int nc = 0;
	for (int i = 0; jb && i < n && off < c.capacity; i++) {
		uint64_t len = i < nfine ? fine : coarse;
		if (i == n - 1 || off + len > c.capacity)
			len = c.capacity - off;
		char name[16];
		snprintf(name, sizeof name, "c%d", i);
		add_job(jb, name, SSD_RW_WRITE, SEQ_BS, 32, 1, off, len);
		b[i] = (double)len;
		off += len;
		nc++;
	}
	struct run run;
	int rc = step(dev, jb, "calibrate-fill", NULL, 0, m, &run);
	if (!rc) {
		for (int i = 0; i < nc; i++)
			r[i] = mbps(&run.res.jobs[i], SSD_DDIR_WRITE);
		/* the chunks are coarse: the reference is the first, the
		 * cliff is placed inside its chunk (cliff.h) */
		static const struct ssd_cliff_rule rule = {
			.drop = 0.7, .hold = 1, .head = 1, .split = 1};
		struct ssd_cliff cl;
		rc = ssd_cliff_find(b, r, nc, &rule, &cl);
		m->v[F_SLC_CACHE] = cl.cache * m->k / 1e6;
		m->v[F_POST_CACHE] = cl.post;
		run_free(&run);
	}
	free(b);
	free(r);
	return rc;
}

/* The review's directory copy onto dev (job/dircopy.h): directories of
 * files of the Impressions sizes copied through the host page cache
 * until the volume is full. */
static int dir_fill(struct ssd_dev *dev, struct meas *m)
{
	struct ssd_dircopy_opts o;
	ssd_dircopy_defaults(&o);
	o.seed = m->o->seed;
	struct ssd_dircopy_run r;
	int rc = ssd_dircopy(dev, &o, &r, NULL);
	if (rc)
		ssd_seterr(m->err, m->errlen, "%s: the directory copy failed: %s",
			   ssd_dev_config(dev)->name, ssd_strerror(rc));
	return rc;
}

/* The drive filled (sequentially, with the cliff, or by the directory
 * copy), then measured full: slices at 0 (written), 1/2 (read), 1/4
 * (read after idle), s (written after idle); then trimmed. */
static int full_drive(struct ssd_dev *dev, const struct ssd_config *c_,
		      struct meas *m)
{
	static const struct reading rd_trimmed[] = {
		{F_SEQ_WRITE_TRIM, "trim_write", SSD_DDIR_WRITE, MBPS},
	};
	const int quick = m->o->quick;
	const struct ssd_config c = *c_;
	const uint32_t k = m->k;
	int rc = m->fill == SSD_CAL_FILL_DIRCOPY ? dir_fill(dev, m)
						 : seq_fill(dev, &c, m);
	struct ssd_config nocache = c; /* the cache is not the point here */
	nocache.slc_cache = SSD_SLC_NONE;
	uint64_t s = slice_of(&nocache, quick);
	uint64_t half = round_down(c.capacity / 2, SEQ_BS);
	uint64_t quarter = round_down(c.capacity / 4, SEQ_BS);
	const struct seq q_full[] = {
		{"full_write", SSD_RW_WRITE, 0, F_SEQ_WRITE_FULL},
		{"full_read", SSD_RW_READ, half, F_SEQ_READ_FULL},
	};
	const struct seq q_idle[] = {
		{"idle_read", SSD_RW_READ, quarter, F_SEQ_READ_IDLE},
		{"idle_write", SSD_RW_WRITE, s, F_SEQ_WRITE_IDLE},
	};
	if (!rc)
		rc = seq_step(dev, "calibrate-full", q_full, NREADS(q_full), s,
			      m);
	if (!rc) {
		idle(dev, 30 * 60 * SSD_S);
		rc = seq_step(dev, "calibrate-idle", q_idle, NREADS(q_idle), s,
			      m);
	}
	if (!rc) {
		/* 32 GiB of the full-size drive; on a scaled one its share */
		uint64_t want = 32 * GIB / k;
		uint64_t tb = 128 * MIB;
		if (want > c.capacity)
			want = c.capacity;
		if (tb > want)
			tb = round_down(want, SSD_LPAGE);
		want = round_down(want, tb);
		struct ssd_jobs *jb = jobs_new(dev, "calibrate-trim");
		if (jb) {
			add_job(jb, "trim32", SSD_RW_TRIM, (uint32_t)tb, 1, 0,
				0, want);
			if (want < c.capacity) /* else trim_rest is empty */
				add_job(jb, "trim_rest", SSD_RW_TRIM,
					(uint32_t)tb, 1, 1, want, 0);
			add_job(jb, "trim_write", SSD_RW_WRITE, SEQ_BS, 32, 1,
				0, s);
		}
		struct run run;
		rc = step(dev, jb, "calibrate-trim", rd_trimmed,
			  NREADS(rd_trimmed), m, &run);
		if (!rc) {
			const struct ssd_job_result *j = job(&run, "trim32");
			m->v[F_TRIM_32G] = j ? (double)j->runtime_ns / 1e9 *
				((double)(32 * GIB) / ((double)want * k)) : NAN;
			run_free(&run);
		}
	}
	return rc;
}

static int do_fill(const struct ssd_config *full, struct meas *m)
{
	/* the sequential fill shows the cliff; with a directory copy for
	 * the full drive, the cliff (if wanted) is a drive of its own */
	if (m->fill == SSD_CAL_FILL_DIRCOPY &&
	    (m->want[F_SLC_CACHE] || m->want[F_POST_CACHE])) {
		int rc = on_scaled(full, 0, 0, m, seq_fill);
		if (rc)
			return rc;
	}
	return on_scaled(full, 0, 0, m, full_drive);
}

/* ---- steady: random-write preconditioning, then what it leaves ---- */

/* The most simulated time a random-write pass of the preconditioning
 * runs: a reviewer's working day.  Every page-mapped preset finishes its
 * passes well inside it (the slowest, silicon-power-32g's steady state at
 * ~500 IOPS, takes ~4 h for a pass of 32 GiB); a block-mapped drive at a
 * few IOPS would need weeks, and its steady state starts with its first
 * merges anyway. */
#define PASS_CAP (12 * 3600 * SSD_S)

#define LAT_WINDOWS 30
#define LAT_WINDOW_S 2
/* lat_dist[26..31] count completions of 100 ms and more (stats.h) */
#define SPIKE_BUCKET 26

/* The random-write preconditioning of dev (its drive c): a pass over the
 * span, two more passes' worth with the last quarter measured, then a
 * slice read and one written. */
static int precondition(struct ssd_dev *dev, const struct ssd_config *c,
			struct meas *m)
{
	static const struct reading rd_span[] = {
		{F_RAND_WRITE_SPAN, "fill", SSD_DDIR_WRITE, IOPS},
	};
	static const struct reading rd_steady[] = {
		{F_RAND_WRITE_STEADY, "steady", SSD_DDIR_WRITE, IOPS},
	};
	uint64_t cap = c->capacity;
	struct ssd_jobs *jb = jobs_new(dev, "calibrate-span");
	if (jb)
		add_job(jb, "fill", SSD_RW_RANDWRITE, 4096, 32, 0, 0, 0)->runtime =
			PASS_CAP;
	int rc = step(dev, jb, "calibrate-span", rd_span, NREADS(rd_span), m,
		      NULL);
	if (!rc) {
		jb = jobs_new(dev, "calibrate-steady");
		if (jb) {
			struct ssd_job *j = add_job(jb, "precondition",
						    SSD_RW_RANDWRITE, 4096, 32, 0, 0, 0);
			j->io_size = cap;
			j->runtime = PASS_CAP;
			j = add_job(jb, "steady", SSD_RW_RANDWRITE, 4096, 32, 1, 0, 0);
			j->io_size = round_down(cap / 4, SSD_LPAGE);
			j->runtime = PASS_CAP / 4;
		}
		rc = step(dev, jb, "calibrate-steady", rd_steady,
			  NREADS(rd_steady), m, NULL);
	}
	if (!rc) {
		uint64_t s = slice_of(c, m->o->quick);
		if (s > cap / 16)
			s = round_down(cap / 16, SEQ_BS);
		if (!s)
			s = SEQ_BS;
		const struct seq q[] = {
			{"used_read", SSD_RW_READ, 0, F_SEQ_READ_USED},
			{"used_write", SSD_RW_WRITE, s, F_SEQ_WRITE_USED},
		};
		rc = seq_step(dev, "calibrate-used", q, NREADS(q), s, m);
	}
	return rc;
}

static int steady(struct ssd_dev *dev, const struct ssd_config *c,
		  struct meas *m)
{
	const int quick = m->o->quick;
	/* a hard disk has no state for random writes to age: the latency
	 * test runs on it as it is */
	int rc = c->type == SSD_TYPE_HDD ? 0 : precondition(dev, c, m);
	struct run run;
	struct ssd_jobs *jb;
	if (!rc) {
		idle(dev, 60 * SSD_S);
		int nw = quick ? 10 : LAT_WINDOWS;
		jb = jobs_new(dev, "calibrate-latency");
		for (int i = 0; jb && i < nw; i++) {
			char name[16];
			snprintf(name, sizeof name, "w%d", i);
			struct ssd_job *j = add_job(jb, name, SSD_RW_RANDRW,
						    4096, 1, 1, 0, 0);
			j->rwmixread = 70;
			j->time_based = 1;
			j->runtime = LAT_WINDOW_S * SSD_S;
		}
		rc = step(dev, jb, "calibrate-latency", NULL, 0, m, &run);
	}
	if (!rc) {
		double sum = 0, n = 0, max = 0, onset = INFINITY, spikes = 0;
		int64_t t0 = run.res.jobs[0].start_ns, t_end = t0;
		for (int i = 0; i < run.res.njobs; i++) {
			const struct ssd_job_result *j = &run.res.jobs[i];
			double wspikes = 0;
			for (int d = 0; d < 2; d++) {
				const struct ssd_dstat *ds = &j->dir[d];
				if (!ds->lat.n)
					continue;
				sum += ds->lat.sum;
				n += (double)ds->lat.n;
				if (ds->lat.max > max)
					max = ds->lat.max;
				for (int b = SPIKE_BUCKET; b < SSD_LATDIST_N; b++)
					wspikes += (double)ds->lat_dist[b];
			}
			if (wspikes && isinf(onset))
				onset = (double)(j->start_ns - t0) / 1e9;
			if (!isinf(onset))
				spikes += wspikes;
			t_end = j->start_ns + j->runtime_ns;
		}
		m->v[F_MEAN_LAT] = n ? sum / n / 1e6 : NAN;
		m->v[F_MAX_LAT] = max / 1e6;
		m->v[F_SPIKE_ONSET] = onset;
		m->v[F_SPIKES_PER_MIN] = isinf(onset) ? 0
			: spikes * 60 / ((double)(t_end - t0) / 1e9 - onset);
		run_free(&run);
		/* "large" requests (1 MiB), from the same state: 60 s idle */
		idle(dev, 60 * SSD_S);
		jb = jobs_new(dev, "calibrate-large");
		struct ssd_job *j = jb ? add_job(jb, "large", SSD_RW_RANDRW,
						 1 << 20, 1, 0, 0, 0) : NULL;
		if (j) {
			j->rwmixread = 70;
			j->time_based = 1;
			j->runtime = (quick ? 2 : 20) * SSD_S;
		}
		rc = step(dev, jb, "calibrate-large", NULL, 0, m, &run);
	}
	if (!rc) {
		const struct ssd_job_result *lj = job(&run, "large");
		struct ssd_moments lat = lj->dir[SSD_DDIR_READ].lat;
		ssd_moments_merge(&lat, &lj->dir[SSD_DDIR_WRITE].lat);
		m->v[F_MEAN_LAT_LARGE] = lat.n ? ssd_moments_mean(&lat) / 1e6 : NAN;
		run_free(&run);
	}
	return rc;
}

static int do_steady(const struct ssd_config *full, struct meas *m)
{
	return on_scaled(full, 32 * GIB, 256, m, steady);
}

/* ---- through the host's layers: the page cache, MFT ---- */

#define TEST_FILE (4 * GIB)

/* c with a drive key set (a machine key: no adaptation needed), finished;
 * 0 or the config's error in m->err. */
static int with_key(const struct ssd_config *full, const char *key,
		    const char *value, struct ssd_config *c, struct meas *m)
{
	*c = *full;
	int rc = ssd_config_set(c, key, value, "calibrate", m->err, m->errlen);
	if (!rc) {
		c->blocks_per_plane = 0;
		rc = ssd_config_finish(c, m->err, m->errlen);
	}
	return rc;
}

/* The test file: the first 4 GiB of the volume (all of a smaller one). */
static uint64_t test_file(const struct ssd_dev *dev)
{
	uint64_t v = ssd_dev_capacity(dev);
	return round_down(v < TEST_FILE ? v : TEST_FILE, 1 << 20);
}

/* The seed's "with the OS cache": buffered 4 KiB random writes. */
static int oscache(struct ssd_dev *dev, const struct ssd_config *c,
		   struct meas *m)
{
	static const struct reading rd[] = {
		{F_OSCACHE, "oscache", SSD_DDIR_WRITE, IOPS},
	};
	uint64_t file = test_file(dev);
	struct ssd_jobs *jb = jobs_new(dev, "calibrate-oscache");
	struct ssd_job *j;
	if (jb) {
		j = add_job(jb, "file", SSD_RW_WRITE, 1 << 20, 1, 0, 0, file);
		j->direct = 1;
		j = add_job(jb, "oscache", SSD_RW_RANDWRITE, 4096, 1, 1, 0, file);
		j->buffered = 1;
		j->norandommap = 1;
		j->time_based = 1;
		j->runtime = (m->o->quick ? 2 : 10) * SSD_S;
	}
	return step(dev, jb, "calibrate-oscache", rd, NREADS(rd), m, NULL);
}

static int do_oscache(const struct ssd_config *full, struct meas *m)
{
	struct ssd_config c;
	int rc = full->page_cache ? (c = *full, 0)
		 : with_key(full, "page_cache", "256m", &c, m);
	return rc ? rc : on_drive(&c, m, oscache);
}

/* The MFT benchmark's steps on the drive formatted by MFT. */
static int mft(struct ssd_dev *dev, const struct ssd_config *c,
	       struct meas *m)
{
	static const struct reading rd[] = {
		{F_MFT_SEQ_WRITE, "file", SSD_DDIR_WRITE, MBPS},
		{F_MFT_SEQ_READ, "read", SSD_DDIR_READ, MBPS},
		{F_MFT_RAND_WRITE, "write", SSD_DDIR_WRITE, IOPS},
	};
	uint64_t file = test_file(dev);
	int64_t point = (m->o->quick ? 2 : 10) * SSD_S;
	struct ssd_jobs *jb = jobs_new(dev, "calibrate-mft");
	struct ssd_job *j;
	if (jb) {
		/* fsynced: the write's rate includes MFT's last flush, and
		 * the reads after it do not meet that flush */
		j = add_job(jb, "file", SSD_RW_WRITE, 1 << 20, 1, 0, 0, file);
		j->direct = 1;
		j->end_fsync = 1;
		j = add_job(jb, "read", SSD_RW_RANDREAD, 4 << 20, 1, 1, 0, file);
		j->direct = 1;
		j->norandommap = 1;
		j->time_based = 1;
		j->runtime = point;
		j = add_job(jb, "write", SSD_RW_RANDWRITE, 4096, 1, 1, 0, file);
		j->direct = 1;
		j->norandommap = 1;
		j->time_based = 1;
		j->runtime = point;
	}
	return step(dev, jb, "calibrate-mft", rd, NREADS(rd), m, NULL);
}

static int do_mft(const struct ssd_config *full, struct meas *m)
{
	struct ssd_config c;
	int rc = with_key(full, "mft", "yes", &c, m);
	return rc ? rc : on_drive(&c, m, mft);
}

/* ---- the driver ---- */

int ssd_cal_measure(const struct ssd_config *c,
		    const struct ssd_cal_ref *refs, int nrefs,
		    const struct ssd_cal_opts *o, struct ssd_cal_value *out,
		    char *err, size_t errlen)
{
	int want[NFIGURES] = {0}, fill = SSD_CAL_FILL_SEQ;
	for (int i = 0; i < nrefs; i++) {
		int f = figure_index(refs[i].figure);
		if (f < 0) {
			ssd_seterr(err, errlen, "unknown figure '%s'", refs[i].figure);
			return SSD_ENOENT;
		}
		want[f] = 1;
		if (on_filled_drive(f) && refs[i].fill == SSD_CAL_FILL_DIRCOPY)
			fill = SSD_CAL_FILL_DIRCOPY;
	}
	char msg[512];
	struct meas m = {.o = o, .want = want, .fill = fill, .err = msg,
			 .errlen = sizeof msg};
	char failed[F_MEASURED][160];
	for (int i = 0; i < F_MEASURED; i++) {
		m.v[i] = NAN;
		failed[i][0] = 0;
	}
	static const struct {
		int from, to;
		int (*fn)(const struct ssd_config *, struct meas *);
		const char *name;   /* the phase, for the status line */
	} phases[] = {
		{F_SEQ_READ, F_SEQ_WRITE, do_fresh, "fresh drive"},
		{F_RAND_WRITE_FRESH, F_RAND_WRITE_FRESH, do_rfresh,
		 "random writes, fresh"},
		{F_SLC_CACHE, F_TRIM_32G, do_fill, "filled drive"},
		{F_RAND_WRITE_SPAN, F_MEAN_LAT_LARGE, do_steady, "steady state"},
		{F_OSCACHE, F_OSCACHE, do_oscache, "OS cache"},
		{F_MFT_SEQ_WRITE, F_MFT_SEQ_READ, do_mft, "MFT"},
	};
	for (size_t p = 0; p < sizeof phases / sizeof phases[0]; p++) {
		int need = 0;
		for (int f = phases[p].from; f <= phases[p].to; f++)
			need |= want[f];
		if (!need)
			continue;
		msg[0] = 0;
		ssd_prog_phase(o->prog, 0, "%s: %s", c->name, phases[p].name);
		int rc = phases[p].fn(c, &m);
		if (rc == SSD_ENOMEM) {
			ssd_seterr(err, errlen, "%s", msg);
			return rc;
		}
		if (rc) /* figures measured before the failure stand */
			for (int f = phases[p].from; f <= phases[p].to; f++)
				if (isnan(m.v[f]))
					snprintf(failed[f], sizeof failed[f], "%s",
						 msg);
	}
	for (int i = 0; i < nrefs; i++) {
		int f = figure_index(refs[i].figure);
		out[i].value = f < F_MEASURED ? m.v[f] : NAN;
		snprintf(out[i].error, sizeof out[i].error, "%s",
			 f < F_MEASURED ? failed[f] : "");
	}
	return 0;
}

/* ---- the calibration table ---- */

void ssd_cal_format(double v, char *buf, size_t n)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (isinf(v))
		snprintf(buf, n, "none");
	else if (fabs(v) >= 100)
		snprintf(buf, n, "%.0f", v);
	else if (fabs(v) >= 10)
		snprintf(buf, n, "%.1f", v);
	else if (fabs(v) >= 1)
		snprintf(buf, n, "%.2f", v);
	else
		snprintf(buf, n, "%.3g", v);
}

/* Why a figure out of tolerance is, when the drive file does not say. */
static const char quick_why[] =
	"--quick: a rough figure of the drive scaled down to 256 MiB";
static const char no_why[] =
	"no reason on record (a '# miss FIGURE: why' line of the drive file "
	"gives one)";

/* The rows of one drive's figures, each not "ok" with why. */
static void table_rows(const struct ssd_cal_table *t, const char *drive,
		       const struct ssd_cal_ref *refs,
		       const struct ssd_cal_value *vals, int nrefs,
		       struct ssd_cal_verdict *v)
{
	FILE *out = t->out;
	for (int i = 0; i < nrefs; i++) {
		const struct ssd_cal_figure *f =
			ssd_cal_figure_find(refs[i].figure);
		double x = vals[i].value;
		double dev = ssd_cal_deviation(&refs[i], x);
		char val[32], devs[32];
		const char *status, *why = "";
		ssd_cal_format(x, val, sizeof val);
		if (vals[i].error[0]) {
			snprintf(devs, sizeof devs, "-");
			status = "FAILED";
			why = vals[i].error;
			v->failed++;
			fprintf(t->msg, "%s: %s: %s\n", t->prefix,
				refs[i].figure, vals[i].error);
		} else if (isnan(x)) {
			snprintf(devs, sizeof devs, "-");
			status = "not modelled";
			why = f->why_not ? f->why_not : "";
			v->not_modelled++;
		} else {
			v->measured++;
			if (isnan(dev) || isinf(dev))
				snprintf(devs, sizeof devs, "-");
			else
				snprintf(devs, sizeof devs, "%+.1f%%", dev);
			status = !isnan(dev) && fabs(dev) <= SSD_CAL_TOLERANCE
					 ? "ok" : "OUT";
			v->within += !strcmp(status, "ok");
			if (strcmp(status, "ok"))
				why = refs[i].miss[0] ? refs[i].miss
				    : t->opts.quick ? quick_why : no_why;
		}
		if (t->markdown) {
			char cell[48];
			if (vals[i].error[0])
				snprintf(cell, sizeof cell, "**failed**");
			else if (isnan(x))
				snprintf(cell, sizeof cell, "not modelled");
			else if (!strcmp(status, "OUT"))
				snprintf(cell, sizeof cell, "**%s**", devs);
			else
				snprintf(cell, sizeof cell, "%s", devs);
			fprintf(out, "| %s | `%s` | %s | %s | %s %s | %s | %s | %s | %s |\n",
				drive, refs[i].figure, refs[i].seed,
				ssd_cal_fill_name(refs[i].fill), refs[i].value,
				f->unit, val, cell, refs[i].note, why);
		} else {
			fprintf(out, "%-20s %-24s %4s %-10s %10s %10s %10s  %s%s%s\n",
				drive, refs[i].figure, refs[i].seed,
				ssd_cal_fill_name(refs[i].fill), refs[i].value,
				val, devs, status, *why ? "  " : "", why);
		}
	}
}

int ssd_cal_table_run(const struct ssd_cal_table *t,
		      struct ssd_cal_verdict *v, int *input, char *err,
		      size_t errlen)
{
	memset(v, 0, sizeof *v);
	*input = 0;
	char **listed = NULL;
	int nlisted = 0, rc = 0;
	if (!t->ndrives) { /* every preset, in name order; those without refs
	                      are skipped */
		rc = ssd_preset_list(t->preset_dir, &listed, &nlisted, err,
				     errlen);
		if (rc)
			return rc;
	}
	int total = t->ndrives ? t->ndrives : nlisted, header = 0;
	for (int k = 0; k < total && !rc; k++) {
		const char *name = t->ndrives ? t->drives[k] : listed[k];
		char path[4096];
		ssd_preset_path(t->preset_dir, name, path, sizeof path);
		struct ssd_config cfg;
		rc = ssd_preset_load(t->preset_dir, name, t->sets, t->nsets,
				     &cfg, err, errlen);
		struct ssd_cal_ref refs[SSD_CAL_MAX_REFS];
		int nrefs = 0;
		if (!rc)
			rc = ssd_cal_load_refs(path, refs, SSD_CAL_MAX_REFS,
					       &nrefs, err, errlen);
		if (rc) {
			*input = 1;
			break;
		}
		if (!nrefs) {
			if (t->ndrives) {
				ssd_seterr(err, errlen, "drive '%s' has no "
					   "'# ref' lines to calibrate against",
					   name);
				rc = SSD_ENOENT;
				*input = 1;
			}
			continue;
		}
		if (t->opts.fill)
			ssd_cal_set_fill(refs, nrefs, t->opts.fill);
		/* a hard disk's latency test runs on the disk as it is: no
		 * random writes precondition it (do_steady) */
		for (int i = 0; cfg.type == SSD_TYPE_HDD && i < nrefs; i++)
			if (refs[i].fill == SSD_CAL_FILL_RANDOM)
				refs[i].fill = SSD_CAL_FILL_NONE;
		struct ssd_cal_value vals[SSD_CAL_MAX_REFS];
		rc = ssd_cal_measure(&cfg, refs, nrefs, &t->opts, vals, err,
				     errlen);
		if (rc)
			break;
		ssd_prog_clear(t->opts.prog); /* the rows follow */
		if (!header++ && t->markdown)
			fprintf(t->out, "| drive | figure | seed | fill | seed "
				"value | ssdlab | deviation | what the seed says "
				"| why not ok |\n"
				"|---|---|---|---|---|---|---|---|---|\n");
		else if (header == 1)
			fprintf(t->out, "%-20s %-24s %4s %-10s %10s %10s %10s  %s\n",
				"drive", "figure", "seed", "fill", "seed value",
				"ssdlab", "deviation", "status  why");
		table_rows(t, cfg.name, refs, vals, nrefs, v);
		fflush(t->out);
	}
	ssd_preset_list_free(listed, nlisted);
	if (rc)
		return rc;
	ssd_prog_clear(t->opts.prog);
	if (t->markdown)
		fprintf(t->out, "\n");
	fprintf(t->out, "%d of %d measured figures within 15%%; %d not "
		"modelled", v->within, v->measured, v->not_modelled);
	fprintf(t->out, v->failed ? "; %d failed\n" : "\n", v->failed);
	return 0;
}
