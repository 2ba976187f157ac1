/*
 * placement.c -- the identifier each write of a job with data placement
 * carries (fio's dataplacement.c: dp_init and dp_fill_dspec_data;
 * docs/fdp.md, "fio's options").
 *
 * At the start of the run each such instance gets its list of
 * identifiers, as fio's dp_init builds it per file: for dataplacement=fdp
 * the drive's placement identifier list (its reclaim unit handle status,
 * ssd_dev_placement_ids), every one of it (at most 128) or the entries
 * plids names by index; for streams, plids' stream identifiers
 * themselves.  Each write then takes the next one in turn (roundrobin),
 * one at random, or the one dp_scheme's ranges give its offset -- fio
 * sends a range's value as written, not as an index, and so does this.
 * Only writes carry one, and only writes move the turn, as in fio.
 *
 * What fio leaves to the drive is checked here, before the first
 * command, in one line naming the job: a drive that places nothing, an
 * index past its list, a stream or a range's identifier it does not
 * have.  ssdlab's random choice is its own generator's, seeded from the
 * job's stream, so a run repeats exactly (fio's sequence is not
 * reproduced).  The state is per instance (numjobs clones each keep
 * their own), as fio keeps it per file of each thread.
 */
#include "run/run_int.h"

#include <stdio.h>
#include <stdlib.h>

/* The identifiers the drive lists, read once per run into *out (freed by
 * the caller): how many, or UINT32_MAX out of memory. */
static uint32_t drive_ids(struct run *r, uint32_t **out)
{
	uint32_t n = ssd_dev_placement_ids(r->dev, NULL, 0);
	*out = NULL;
	if (!n)
		return 0;
	*out = malloc((size_t)n * sizeof **out);
	if (!*out)
		return UINT32_MAX;
	return ssd_dev_placement_ids(r->dev, *out, n);
}

static int has_id(const uint32_t *ids, uint32_t n, uint32_t pid)
{
	for (uint32_t i = 0; i < n; i++)
		if (ids[i] == pid)
			return 1;
	return 0;
}

/* One instance's list, or the job's error in r->err. */
static int inst_ids(struct run *r, struct inst *in, struct run_dp *dp,
		    const uint32_t *ids, uint32_t n)
{
	const struct ssd_job *j = in->job;
	const char *what = j->dp_type == SSD_DP_STREAMS ? "streams" : "fdp";
	if (!n) {
		snprintf(r->err, r->errlen, "job '%s': dataplacement=%s: the "
			 "drive does not place data (fio: fdp fetch ruhs "
			 "failed; accepted: a drive with fdp=yes)", j->name,
			 what);
		return SSD_EINVAL;
	}
	if (j->dp_select == SSD_DP_SCHEME) {
		for (uint32_t k = 0; k < j->dp_nscheme; k++)
			if (!has_id(ids, n, j->dp_scheme[k].pid)) {
				snprintf(r->err, r->errlen, "job '%s': option "
					 "'dp_scheme': entry %u's placement "
					 "identifier %u is not one the drive "
					 "has (it lists %u)", j->name, k + 1,
					 j->dp_scheme[k].pid, n);
				return SSD_EINVAL;
			}
		return 0;
	}
	if (j->dp_type == SSD_DP_STREAMS) {
		for (uint32_t k = 0; k < j->dp_nids; k++) {
			if (!has_id(ids, n, j->dp_ids[k])) {
				/* one reclaim group: the identifiers are
				 * 0 .. n - 1 (docs/fdp.md) */
				if (ids[n - 1] == n - 1)
					snprintf(r->err, r->errlen, "job '%s': "
						 "option 'plids': stream %u is "
						 "not one the drive has (its "
						 "handles take streams 0..%u)",
						 j->name, j->dp_ids[k], n - 1);
				else
					snprintf(r->err, r->errlen, "job '%s': "
						 "option 'plids': stream %u is "
						 "not one of the drive's %u "
						 "placement identifiers (reclaim "
						 "group in the high bits)",
						 j->name, j->dp_ids[k], n);
				return SSD_EINVAL;
			}
			dp->pid[k] = j->dp_ids[k];
		}
		dp->n = j->dp_nids;
		return 0;
	}
	if (!j->dp_nids) {
		dp->n = n < SSD_DP_MAX_IDS ? n : SSD_DP_MAX_IDS;
		for (uint32_t k = 0; k < dp->n; k++)
			dp->pid[k] = ids[k];
		return 0;
	}
	for (uint32_t k = 0; k < j->dp_nids; k++) {
		if (j->dp_ids[k] >= n) {
			snprintf(r->err, r->errlen, "job '%s': option 'plids': "
				 "fio: for %s PID index %u must be smaller "
				 "than %u", j->name, run_zbd_file(j),
				 j->dp_ids[k], n);
			return SSD_EINVAL;
		}
		dp->pid[k] = ids[j->dp_ids[k]];
	}
	dp->n = j->dp_nids;
	return 0;
}

int run_dp_setup(struct run *r)
{
	int any = 0;
	for (int i = 0; i < r->ninst && !any; i++)
		any = r->in[i].job->dp_type != SSD_DP_NONE;
	if (!any)
		return 0;
	uint32_t *ids;
	uint32_t n = drive_ids(r, &ids);
	r->dps = calloc((size_t)r->ninst, sizeof *r->dps);
	if (n == UINT32_MAX || !r->dps) {
		free(ids);
		snprintf(r->err, r->errlen, "out of memory");
		return SSD_ENOMEM;
	}
	int rc = 0;
	for (int i = 0; i < r->ninst && !rc; i++) {
		struct inst *in = &r->in[i];
		if (in->job->dp_type == SSD_DP_NONE)
			continue;
		struct run_dp *dp = &r->dps[i];
		rc = inst_ids(r, in, dp, ids, n);
		ssd_rng_seed(&dp->rng, ssd_mix64(in->seed ^
						 0x706c6163656d656eull));
		in->dp = dp;
	}
	free(ids);
	return rc;
}

void run_dp_free(struct run *r)
{
	free(r->dps);
	r->dps = NULL;
}

uint32_t run_dp_next(struct inst *in, uint64_t offset)
{
	const struct ssd_job *j = in->job;
	struct run_dp *dp = in->dp;
	if (j->dp_select == SSD_DP_SCHEME) {
		for (uint32_t k = 0; k < j->dp_nscheme; k++)
			if (offset >= j->dp_scheme[k].start &&
			    offset < j->dp_scheme[k].end)
				return j->dp_scheme[k].pid;
		return 0; /* the default handle */
	}
	if (j->dp_select == SSD_DP_RR) {
		if (dp->next >= dp->n)
			dp->next = 0;
		return dp->pid[dp->next++];
	}
	dp->next = (uint32_t)ssd_rng_below(&dp->rng, dp->n);
	return dp->pid[dp->next];
}
