/*
 * job_dp.c -- fio's data placement options: plids and dp_scheme read,
 * and the job's placement checked as a whole when its section ends
 * (docs/fdp.md, "fio's options").
 *
 * fio reads these in three places (options.c: str_fdp_pli_cb and
 * str_dp_scheme_cb; init.c: fixup_options; dataplacement.c: dp_init, at
 * file set-up).  What depends only on the job is checked here, with
 * fio's words where fio has them; what depends on the drive (does it
 * place data, how long is its identifier list) when the run starts
 * (run/placement.c).  One difference, on purpose: fio stops reading a
 * scheme file at its first line that is not three integers and uses what
 * came before; here such a line is an error naming it, since a range
 * silently dropped would send its writes to the default handle.
 */
#include "job/job_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A whole integer in [lo, hi] from s (fio's str_to_decimal: decimal,
 * or hex after 0x), spaces around it allowed.  0 or -1. */
static int dp_int(const char *s, const char *e, uint64_t hi, uint64_t *out)
{
	char buf[32];
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	if (e == s || (size_t)(e - s) >= sizeof buf)
		return -1;
	memcpy(buf, s, (size_t)(e - s));
	buf[e - s] = 0;
	return ssd_parse_u64(buf, out) || *out > hi ? -1 : 0;
}

static int cmp_u16(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* plids=1,2-4,5: fio's list of values and ranges, at most 128, each at
 * most 0xFFFF, kept sorted (str_fdp_pli_cb). */
int job_fn_plids(struct parser *p, struct jstate *js, const struct jopt *o,
		 char *val)
{
	struct ssd_job *j = &js->j;
	uint32_t n = 0;
	const char *s = val;
	while (*s) {
		const char *comma = strchr(s, ',');
		const char *e = comma ? comma : s + strlen(s);
		const char *dash = memchr(s, '-', (size_t)(e - s));
		uint64_t lo, hi;
		if (dp_int(s, dash ? dash : e, UINT64_MAX, &lo) ||
		    (dash && dp_int(dash + 1, e, UINT64_MAX, &hi)))
			return opt_err(p, o, SSD_EPARSE, "'%.*s' is not an "
				       "identifier or a range of them",
				       (int)(e - s), s);
		if (!dash)
			hi = lo;
		if (lo > hi)
			return opt_err(p, o, SSD_ERANGE, "range '%.*s' ends "
				       "before it starts", (int)(e - s), s);
		if (hi > 0xFFFF)
			return opt_err(p, o, SSD_ERANGE, "Placement IDs cannot "
				       "exceed 0xFFFF");
		if (hi - lo + 1 > SSD_DP_MAX_IDS - n)
			return opt_err(p, o, SSD_ERANGE, "only %d IDs supported",
				       SSD_DP_MAX_IDS);
		for (uint64_t v = lo; v <= hi; v++)
			j->dp_ids[n++] = (uint16_t)v;
		s = comma ? comma + 1 : e;
		if (comma && !*s)
			break; /* fio: an empty item ends the list */
	}
	if (!n)
		return opt_err(p, o, SSD_EPARSE, "no identifier given");
	qsort(j->dp_ids, n, sizeof *j->dp_ids, cmp_u16);
	j->dp_nids = n;
	return 0;
}

/* dp_scheme=FILE: its lines START,END,PLID read now, so a missing or
 * malformed file fails as the job is read; at most 32 (fio takes the
 * first 32 and says so; so does the report, through the note below). */
int job_fn_dp_scheme(struct parser *p, struct jstate *js,
		     const struct jopt *o, char *val)
{
	struct ssd_job *j = &js->j;
	if (!*val)
		return opt_err(p, o, SSD_EPARSE, "no file named");
	FILE *f = fopen(val, "r");
	if (!f)
		return opt_err(p, o, SSD_EIO, "fio: ruh scheme failed to open "
			       "scheme file %.200s: %s", val, strerror(errno));
	char line[256];
	int ln = 0, rc = 0;
	uint32_t n = 0;
	while (fgets(line, sizeof line, f)) {
		ln++;
		size_t len = strlen(line);
		if (len == sizeof line - 1 && line[len - 1] != '\n') {
			rc = opt_err(p, o, SSD_EPARSE, "%.200s:%d: line too "
				     "long", val, ln);
			break;
		}
		line[strcspn(line, "\r\n")] = 0;
		if (!line[strspn(line, " \t")])
			continue; /* blank */
		char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
		uint64_t st, en, pid;
		if (!c2 || dp_int(line, c1, UINT64_MAX, &st) ||
		    dp_int(c1 + 1, c2, UINT64_MAX, &en) ||
		    dp_int(c2 + 1, line + strlen(line), 0xFFFF, &pid)) {
			rc = opt_err(p, o, SSD_EPARSE, "%.200s:%d: '%.60s' is "
				     "not START,END,PLID (integers; PLID at "
				     "most 65535)", val, ln, line);
			break;
		}
		if (n == SSD_DP_MAX_SCHEME) {
			rc = opt_err(p, o, SSD_ERANGE, "%.200s:%d: more than "
				     "%d scheme entries (fio applies only the "
				     "first %d)", val, ln, SSD_DP_MAX_SCHEME,
				     SSD_DP_MAX_SCHEME);
			break;
		}
		j->dp_scheme[n++] = (struct ssd_dp_range){st, en, (uint32_t)pid};
	}
	if (!rc && ferror(f))
		rc = opt_err(p, o, SSD_EIO, "%.200s: %s", val, strerror(errno));
	fclose(f);
	if (!rc)
		j->dp_nscheme = n;
	return rc;
}

/* The job's placement as a whole (fio's fixup_options and dp_init, the
 * parts that need no drive): fdp=1 is dataplacement=fdp and clashes with
 * another one written; streams need their identifiers; a scheme needs
 * its file. */
int job_dp_finish(struct parser *p, struct jstate *js)
{
	struct ssd_job *j = &js->j;
	if (j->fdp) {
		if (job_was_set(js, "dataplacement") &&
		    j->dp_type != SSD_DP_FDP)
			return perr(p, job_opt_line(js, "fdp"), SSD_EINVAL,
				    "option 'fdp': fio: fdp=1 is not "
				    "compatible with dataplacement={streams, "
				    "none} (accepted: fdp=1 alone, or with "
				    "dataplacement=fdp)");
		j->dp_type = SSD_DP_FDP;
	}
	if (j->dp_type == SSD_DP_NONE)
		return 0;
	if (j->dp_type == SSD_DP_STREAMS && !j->dp_nids)
		return perr(p, job_opt_line(js, "dataplacement"), SSD_EINVAL,
			    "option 'dataplacement': fio: stream IDs must be "
			    "provided for dataplacement=streams (accepted: "
			    "plids=ID,...)");
	if (j->dp_select == SSD_DP_SCHEME && !job_was_set(js, "dp_scheme"))
		return perr(p, job_opt_line(js, "plid_select"), SSD_EINVAL,
			    "option 'plid_select': scheme needs a scheme file "
			    "(accepted: dp_scheme=FILE, or another "
			    "plid_select)");
	return 0;
}
