/*
 * report_text.c -- a finished run as fio's normal text output
 * (ssd_report_normal, through report.c).
 *
 * It follows fio's show_thread_status_normal and show_group_stats line
 * for line where the figure exists in a simulation: the "IOPS=, BW="
 * line, clat/lat lines in fio's unit choice, the percentile block, bw
 * and iops sample lines, the "lat (usec)   :" distribution and the "Run
 * status group" lines, with fio's number formatting (num2str: 4
 * significant figures, KiB/MiB and kB/MB), the flush block and the I/O
 * depth lines.  Lines about the host machine (pid, wall-clock date, cpu,
 * context switches, disk stats) are left out: they would describe the
 * simulator, not the drive.  ssdlab adds lines per job (write
 * amplification, NAND work, GC, wear; a SMART-like health line), the
 * machine around the drive, and a closing drive block.  A job that ended
 * in error prints "err=N (kind)" and an "ssdlab: error:" line.
 */
#include "report/report_int.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- numbers: fio's num2str ---- */

static int ndigits(uint64_t v)
{
	int n = 1;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

enum { N2S_NONE, N2S_BYTE, N2S_BYTEPERSEC };

/*
 * fio's num2str (lib/num2str.c) for base 1: at most `maxlen` digits (the
 * "." counts), dividing by 1000 or 1024 and adding k/M/G or Ki/Mi/Gi, with
 * fio's own rounding: "4801", "18.8MiB/s", "22.0MiB", "12.3k".
 */
static const char *num2str(char *buf, size_t n, uint64_t num, int maxlen,
			   int pow2, int units)
{
	static const char *const sistr[] = {"", "k", "M", "G", "T", "P", "E"};
	static const char *const iecstr[] = {"",   "Ki", "Mi", "Gi",
					     "Ti", "Pi", "Ei"};
	static const char *const unitstr[] = {"", "B", "B/s"};
	const char *const *prefix = pow2 ? iecstr : sistr;
	const unsigned thousand = pow2 ? 1024 : 1000;
	unsigned modulo = UINT_MAX;
	int post = 0, carry = 0;

	while (post < 7) {
		if (ndigits(num) <= maxlen)
			break;
		modulo = (unsigned)(num % thousand);
		num /= thousand;
		carry = modulo >= thousand / 2;
		post++;
	}
	if (post >= 7)
		post = 0;

	int len = ndigits(num);
	if (modulo != UINT_MAX && maxlen - len > 1) {
		char tmp[32];
		ssd_rep_fmt_f(tmp, sizeof tmp, 0, maxlen - len - 1,
		      (double)modulo / (double)thousand);
		if (tmp[0] == '1')
			num++;
		snprintf(buf, n, "%" PRIu64 ".%s%s%s", num, tmp + 2,
			 prefix[post], unitstr[units]);
		return buf;
	}
	if (modulo != UINT_MAX && carry)
		num++;
	snprintf(buf, n, "%" PRIu64 "%s%s", num, prefix[post], unitstr[units]);
	return buf;
}

/* ---- the machine around the drive (machine/stack.h) ---- */

/* A figure of a node's row as text: bytes in binary units, times in
 * ms, ratios with three decimals, counts whole. */
static const char *row_text(const struct ssd_blk_stat *st, char *buf, size_t n)
{
	double v = st->value;
	if (v != v) {
		snprintf(buf, n, "-");
	} else if (!strcmp(st->unit, "bytes") && v >= 0 && v < 1.8e19) {
		ssd_fmt_bytes((uint64_t)v, buf, n);
	} else if (!strcmp(st->unit, "ns")) {
		snprintf(buf, n, "%.3fms", v / 1e6);
	} else if (!strcmp(st->unit, "ratio") || !strcmp(st->unit, "fraction") ||
		   v != floor(v)) {
		snprintf(buf, n, "%.3f", v);
	} else {
		snprintf(buf, n, "%.0f", v);
	}
	return buf;
}

static void text_machine(FILE *out, const struct ssd_run_result *r)
{
	if (!r->nnodes)
		return;
	char a[32], b[32], c[32];
	fprintf(out, "Machine (figures since the drive was created):\n");
	for (int i = 0; i < r->nnodes; i++) {
		const struct ssd_node_result *x = &r->nodes[i];
		fprintf(out, "  %*s%s (%s, %s): read %" PRIu64 " cmds %s, "
			"write %" PRIu64 " cmds %s, trim %" PRIu64 ", flush %"
			PRIu64 "\n", 2 * x->depth, "", x->name, x->kind,
			ssd_fmt_bytes(x->capacity, a, sizeof a), x->io.cmds[0],
			ssd_fmt_bytes(x->io.bytes[0], b, sizeof b), x->io.cmds[1],
			ssd_fmt_bytes(x->io.bytes[1], c, sizeof c), x->io.cmds[2],
			x->io.flushes);
		if (!x->nrows)
			continue;
		fprintf(out, "  %*s  ", 2 * x->depth, "");
		for (int k = 0; k < x->nrows; k++) {
			/* times print in ms: "mean_seek=0.997ms", not
			 * "mean_seek_ns=..." (JSON keeps the key and ns) */
			const char *key = x->rows[k].key;
			size_t kl = strlen(key);
			int ns = !strcmp(x->rows[k].unit, "ns") && kl > 3 &&
				 !strcmp(key + kl - 3, "_ns");
			fprintf(out, "%s%.*s=%s", k ? ", " : "",
				(int)(ns ? kl - 3 : kl), key,
				row_text(&x->rows[k], a, sizeof a));
		}
		putc('\n', out);
	}
}

/* ---- ssdlab's notes on a job (report_int.h) ---- */

static void text_noeffect(FILE *out, const struct ssd_job_result *j,
			  const struct ssd_config *c)
{
	char note[256];
	uint32_t ns = j->nsections ? j->nsections : 1;
	for (uint32_t s = 0; j->job && s < ns; s++)
		if (j->job[s].cut_key)
			fprintf(out, "  ssdlab: %s\n",
				ssd_rep_cut_note(&j->job[s], note, sizeof note));
	const char *names[NOEFFECT_MAX];
	int n = ssd_rep_noeffect(j, c, names);
	if (n) {
		fputs("  ssdlab: options taken without effect: ", out);
		for (int i = 0; i < n; i++)
			fprintf(out, "%s%s", i ? ", " : "", names[i]);
		putc('\n', out);
	}
	if (ssd_rep_no_cache(j, c))
		fprintf(out, "  ssdlab: %s\n", ssd_rep_page_cache_note);
	if (ssd_rep_time_based_dropped(j))
		fprintf(out, "  ssdlab: %s\n", ssd_rep_time_based_note);
}

/* ---- text ---- */

/* fio's nsec_to_msec / nsec_to_usec unit choice for a latency line. */
static const char *lat_unit(uint64_t *min, uint64_t *max, double *mean,
			    double *dev)
{
	if (*min > 2000000 && *max > 99999999ULL && *dev > 1000000.0) {
		*min /= 1000000;
		*max /= 1000000;
		*mean /= 1000000.0;
		*dev /= 1000000.0;
		return "(msec)";
	}
	if (*min > 2000 && *max > 99999 && *dev > 1000.0) {
		*min /= 1000;
		*max /= 1000;
		*mean /= 1000.0;
		*dev /= 1000.0;
		return "(usec)";
	}
	return "(nsec)";
}

/* fio's display_lat: "    clat (usec): min=…, max=…, avg=…, stdev=…" */
static void text_lat(FILE *out, const char *name, const struct ssd_moments *m)
{
	uint64_t min = ssd_rep_u64_of(m->min), max = ssd_rep_u64_of(m->max);
	double mean = ssd_moments_mean(m), dev = ssd_moments_stddev(m);
	const char *base = lat_unit(&min, &max, &mean, &dev);
	char a[40], b[40], c[64], d[64];
	fprintf(out, "    %s %s: min=%s, max=%s, avg=%s, stdev=%s\n", name,
		base, num2str(a, sizeof a, min, 6, 0, N2S_NONE),
		num2str(b, sizeof b, max, 6, 0, N2S_NONE),
		ssd_rep_fmt_f(c, sizeof c, 5, 2, mean), ssd_rep_fmt_f(d, sizeof d, 5, 2, dev));
}

/* fio's show_clat_percentiles: the percentiles of pl (h NULL: every
 * sample is 0), with pl's precision. */
static void text_percentiles(FILE *out, const char *pre,
			     const struct ssd_hist *h, const struct plist *pl)
{
	const int PREC = pl->prec;
	uint64_t v[32];
	uint64_t minv = UINT64_MAX, maxv = 0, divisor;
	int n = pl->n < 32 ? pl->n : 32, scale;
	if (!n)
		return;

	for (int i = 0; i < n; i++) {
		v[i] = h ? ssd_hist_percentile(h, pl->v[i]) : 0;
		if (v[i] < minv)
			minv = v[i];
		if (v[i] > maxv)
			maxv = v[i];
	}
	const char *unit;
	if (minv > 2000000 && maxv > 99999999ULL) {
		scale = 2;
		divisor = 1000000;
		unit = "msec";
	} else if (minv > 2000 && maxv > 99999) {
		scale = 1;
		divisor = 1000;
		unit = "usec";
	} else {
		scale = 0;
		divisor = 1;
		unit = "nsec";
	}
	fprintf(out, "    %s percentiles (%s):\n     |", pre, unit);

	uint64_t q = maxv / divisor;
	int width = q ? ndigits(q) : 0; /* fio: log10(q) + 1 */
	if (width < 5)
		width = 5;
	int per_line = (80 - 7) / (PREC + 10 + width);
	for (int j = 0; j < n; j++) {
		if (j && j % per_line == 0)
			fputs("     |", out);
		int last = j == n - 1;
		uint64_t x = v[j];
		for (int s = 0; s < scale; s++)
			x = (x + 999) / 1000;
		char p[32];
		fprintf(out, " %sth=[%*" PRIu64 "]%c",
			ssd_rep_fmt_f(p, sizeof p, PREC + 3, PREC, pl->v[j]),
			width, x, last ? '\n' : ',');
		if (last)
			break;
		if (j % per_line == per_line - 1)
			putc('\n', out);
	}
}

/* fio's show_ddir_status. */
static void text_ddir(FILE *out, const struct ssd_job_result *j, int d,
		      const struct group *rs)
{
	const struct ssd_dstat *s = &j->dir[d];
	int64_t rt = ssd_rep_dir_runtime(j, d);
	if (!rt)
		return;
	uint64_t bw = ssd_rep_per_sec(s->bytes, rt), iops = ssd_rep_per_sec(s->ios, rt);
	char a[40], b[40], c[40], e[40];
	fprintf(out, "  %s: IOPS=%s, BW=%s (%s)(%s/%" PRIu64 "msec)",
		ssd_rep_ddir_name[d], num2str(a, sizeof a, iops, 4, 0, N2S_NONE),
		num2str(b, sizeof b, bw, 4, 1, N2S_BYTEPERSEC),
		num2str(c, sizeof c, bw, 4, 0, N2S_BYTEPERSEC),
		num2str(e, sizeof e, s->bytes, 4, 1, N2S_BYTE), ssd_rep_ms_of(rt));
	/* fio HEAD's zbd_write_status: on every line of a zbd job that
	 * writes or trims (3.33 put it on every write line of every job) */
	if (j->zbd)
		fprintf(out, "; %" PRIu64 " zone resets", j->zone_resets);
	putc('\n', out);

	if (s->lat.n) {
		struct plist pl = ssd_rep_plist_of(j);
		text_lat(out, "clat", &s->lat);
		text_lat(out, " lat", &s->lat);
		if (pl.slat)
			text_percentiles(out, "slat", NULL, &pl);
		if (pl.clat)
			text_percentiles(out, "clat", &s->hist, &pl);
		if (pl.lat)
			text_percentiles(out, "lat", &s->hist, &pl);
	}
	if (s->bw.n) {
		uint64_t min = ssd_rep_u64_of(s->bw.min), max = ssd_rep_u64_of(s->bw.max);
		double mean = ssd_moments_mean(&s->bw);
		double dev = ssd_moments_stddev(&s->bw);
		double per = ssd_rep_agg_percent(rs->agg[d], mean);
		const char *unit = "KiB";
		if (mean > 1024.0 * 1024.0) {
			min /= 1024;
			max /= 1024;
			mean /= 1024.0;
			dev /= 1024.0;
			unit = "MiB";
		}
		char p[40], m[64], v[64];
		fprintf(out,
			"   bw (%5s/s): min=%5" PRIu64 ", max=%5" PRIu64
			", per=%s%%, avg=%s, stdev=%s, samples=%" PRIu64 "\n",
			unit, min, max, ssd_rep_fmt_f(p, sizeof p, 3, 2, per),
			ssd_rep_fmt_f(m, sizeof m, 5, 2, mean),
			ssd_rep_fmt_f(v, sizeof v, 5, 2, dev), s->bw.n);
	}
	if (s->iops.n) {
		char m[64], v[64];
		fprintf(out,
			"   iops        : min=%5" PRIu64 ", max=%5" PRIu64
			", avg=%s, stdev=%s, samples=%" PRIu64 "\n",
			ssd_rep_u64_of(s->iops.min), ssd_rep_u64_of(s->iops.max),
			ssd_rep_fmt_f(m, sizeof m, 5, 2, ssd_moments_mean(&s->iops)),
			ssd_rep_fmt_f(v, sizeof v, 5, 2, ssd_moments_stddev(&s->iops)),
			s->iops.n);
	}
}

/* fio's show_lat: "  lat (usec)   : 250=1.23%, 500=98.77%", 5 a line. */
static void text_latdist(FILE *out, const double *pct, int lo, int hi,
			 const char *unit)
{
	int new_line = 1, line = 0, shown = 0;
	for (int i = lo; i < hi; i++) {
		if (pct[i] <= 0.0)
			continue;
		shown = 1;
		if (new_line) {
			if (line)
				putc('\n', out);
			fprintf(out, "  lat (%s)   : ", unit);
			new_line = 0;
			line = 0;
		}
		if (line)
			fputs(", ", out);
		char p[64];
		fprintf(out, "%s=%s%%", ssd_rep_latdist_key[i],
			ssd_rep_fmt_f(p, sizeof p, 3, 2, pct[i]));
		if (++line == 5)
			new_line = 1;
	}
	if (shown)
		putc('\n', out);
}

/* A SMART-like line: the drive at the job's end. */
static void text_health(FILE *out, const struct ssd_health *h)
{
	char u[64], m[64], s[64], hw[40], nw[40];
	fprintf(out,
		"  health: used=%s%%, max wear=%s%%, spare=%s%%, bad blocks=%"
		PRIu64 ", read-only=%s, host written=%s, nand written=%s\n",
		ssd_rep_fmt_f(u, sizeof u, 0, 1, h->percentage_used),
		ssd_rep_fmt_f(m, sizeof m, 0, 1, h->max_wear_pct),
		ssd_rep_fmt_f(s, sizeof s, 0, 0, h->available_spare), h->bad_blocks,
		h->read_only ? "yes" : "no",
		num2str(hw, sizeof hw, h->host_bytes_written, 4, 1, N2S_BYTE),
		num2str(nw, sizeof nw, h->nand_bytes_written, 4, 1, N2S_BYTE));
}

/* docs/fdp.md: the events by type, and each handle's usage -- its host
 * pages and the pages programmed into its blocks, and their ratio (GC
 * copies of initially isolated handles go to blocks they share: a line
 * of their own). */
static void text_fdp_usage(FILE *out, const struct ssd_config *cfg,
			   const struct ssd_counters *c)
{
	fprintf(out, "  ssdlab: fdp: reclaim groups=%u, events: invalid placement "
		"identifier=%" PRIu64 ", reclaim unit not written to capacity=%"
		PRIu64 ", media reallocated=%" PRIu64 "\n", cfg->fdp_groups,
		c->fdp_bad_pid, c->fdp_ru_unfilled, c->fdp_media_realloc);
	for (uint32_t h = 0; h < cfg->fdp_handles && h < SSD_FDP_MAX_HANDLES; h++) {
		char w[32];
		double waf = ssd_rep_fdp_handle_waf(c, h);
		if (isfinite(waf))
			ssd_rep_fmt_f(w, sizeof w, 0, 3, waf);
		else
			snprintf(w, sizeof w, "n/a");
		fprintf(out, "  ssdlab: fdp handle %u: host 4KiB pages written=%"
			PRIu64 ", media 4KiB pages written=%" PRIu64 ", waf=%s\n",
			h, c->fdp_host_lp[h], c->fdp_media_lp[h], w);
	}
	if (cfg->fdp_isolation == SSD_FDP_INITIAL)
		fprintf(out, "  ssdlab: fdp: GC copies into blocks the handles "
			"share=%" PRIu64 " 4KiB pages\n", c->fdp_gc_shared_lp);
}

static void text_ssdlab_job(FILE *out, const struct ssd_job_result *j,
			    const struct ssd_config *cfg)
{
	const struct ssd_counters *c = &j->ctr;
	if (cfg && cfg->type == SSD_TYPE_HDD && cfg->raid == SSD_RAID_NONE) {
		/* a hard disk: no flash to count (the Machine section has
		 * its seeks and buffer) */
		fprintf(out,
			"  ssdlab: host 4KiB pages: read=%" PRIu64 " written=%"
			PRIu64 " trimmed=%" PRIu64 ", completions over 1s=%"
			PRIu64 "\n", c->host_read_lp, c->host_write_lp,
			c->host_trim_lp, j->lat_over_1s);
		text_noeffect(out, j, cfg);
		return;
	}
	double waf = ssd_counters_waf(c);
	char w[64], m[64];
	if (isfinite(waf))
		ssd_rep_fmt_f(w, sizeof w, 0, 3, waf);
	else
		snprintf(w, sizeof w, "n/a");
	fprintf(out,
		"  ssdlab: waf=%s, nand: read=%" PRIu64 " prog=%" PRIu64
		" erase=%" PRIu64 ", gc: copied=%" PRIu64 " victims=%" PRIu64
		", erase count min/mean/max=%" PRIu32 "/%s/%" PRIu32
		", free blocks=%" PRIu64 "\n",
		w, c->nand_read, c->nand_prog, c->nand_erase, c->gc_copy_lp,
		c->gc_victims, j->erase_min,
		ssd_rep_fmt_f(m, sizeof m, 0, 2, j->erase_mean), j->erase_max,
		j->free_blocks);
	fprintf(out,
		"  ssdlab: host 4KiB pages: read=%" PRIu64 " written=%" PRIu64
		" trimmed=%" PRIu64 ", read unmapped=%" PRIu64
		", gc bg copied=%" PRIu64 ", completions over 1s=%" PRIu64 "\n",
		c->host_read_lp, c->host_write_lp, c->host_trim_lp,
		c->host_unmapped_read_lp, c->gc_bg_copy_lp, j->lat_over_1s);
	char note[400];
	if (ssd_rep_unmapped_note(c, note, sizeof note))
		fprintf(out, "  ssdlab: %s\n", note);
	const struct ssd_job *vj = ssd_rep_verify_job(j);
	if (vj)
		fprintf(out, "  ssdlab: verify (%s): 4KiB pages checked=%" PRIu64
			", of them zeros as trimmed=%" PRIu64 "\n",
			vj->verify_name, j->verify_pages + j->verify_zero_pages,
			j->verify_zero_pages);
	if (c->power_cuts) /* a served drive's (docs/power-loss.md) */
		fprintf(out, "  ssdlab: power cuts=%" PRIu64 ", 4KiB pages lost=%" PRIu64 "\n",
			c->power_cuts, c->power_lost_lp);
	if (cfg && cfg->fdp) /* docs/fdp.md: the FDP statistics log */
		fprintf(out, "  ssdlab: fdp: handles=%u (%s isolation), host bytes "
			"written=%" PRIu64 ", media bytes written=%" PRIu64
			", media bytes erased=%" PRIu64 ", invalid placement "
			"identifiers=%" PRIu64 "\n", cfg->fdp_handles,
			ssd_rep_fdp_isolation(cfg), c->host_write_bytes,
			c->nand_prog_lp * SSD_LPAGE, ssd_rep_fdp_mbe(cfg, c),
			c->fdp_bad_pid);
	if (cfg && cfg->fdp)
		text_fdp_usage(out, cfg, c);
	if (cfg && cfg->mapping == SSD_MAP_ZONE) /* docs/zoned.md */
		fprintf(out, "  ssdlab: mapping=zone, zones reset=%" PRIu64
			" (4KiB pages they held=%" PRIu64 ", %.3f ms in all), "
			"finished=%" PRIu64 " (4KiB pages padded=%" PRIu64
			", %.3f ms in all)\n", c->zone_reset, c->zone_reset_lp,
			(double)c->zone_reset_ns / 1e6, c->zone_finish,
			c->zone_finish_pad_lp, (double)c->zone_finish_ns / 1e6);
	else if (cfg && cfg->mapping != SSD_MAP_PAGE) /* docs/mapping.md */
		fprintf(out, "  ssdlab: mapping=%s, merges: switch=%" PRIu64
			" partial=%" PRIu64 " full=%" PRIu64 " (copies are gc copied)\n",
			ssd_mapping_name(cfg->mapping), c->merge_switch,
			c->merge_partial, c->merge_full);
	text_health(out, &j->health);
	text_noeffect(out, j, cfg);
}

/* fio's flush block ("fsync/fdatasync/sync_file_range:" with the sync
 * latency and its percentiles, when the job flushed) and its I/O depth
 * lines.  fio's "cpu" line is left out: it would describe the host. */
static void text_sync_and_depths(FILE *out, const struct ssd_job_result *j)
{
	const struct ssd_dstat *s = &j->sync;
	if (s->lat.n) {
		fputs("  fsync/fdatasync/sync_file_range:\n", out);
		struct plist pl = ssd_rep_plist_of(j);
		text_lat(out, "sync", &s->lat);
		text_percentiles(out, "sync", &s->hist, &pl);
	}
	double pct[SSD_DEPTH_N];
	char b[40];
	ssd_rep_depth_pct(j, pct);
	fputs("  IO depths    :", out);
	for (int i = 0; i < SSD_DEPTH_N; i++)
		fprintf(out, "%s %s=%s%%", i ? "," : "", ssd_rep_depth_key[i],
			ssd_rep_fmt_f(b, sizeof b, 3, 1, pct[i]));
	ssd_rep_batch_pct(j, pct);
	static const char *const what[] = {"     submit    :",
					   "     complete  :"};
	for (int k = 0; k < 2; k++) {
		fprintf(out, "\n%s", what[k]);
		for (int i = 0; i < SSD_DEPTH_N; i++)
			fprintf(out, "%s %s=%s%%", i ? "," : "", ssd_rep_batch_key[i],
				ssd_rep_fmt_f(b, sizeof b, 3, 1, pct[i]));
	}
	fprintf(out,
		"\n     issued rwts: total=%" PRIu64 ",%" PRIu64 ",%" PRIu64
		",%" PRIu64 " short=0,0,0,0 dropped=0,0,0,0\n",
		j->dir[0].ios, j->dir[1].ios, j->dir[2].ios, s->ios);
	if (ssd_rep_continues(j))
		fprintf(out, "     errors    : total=%" PRIu64
			", first_error=%d/<%s>\n", j->total_err, j->first_error,
			strerror(j->first_error));
	/* fio 3.33's line: the target in ns, the window in us (the last
	 * job's of a group reported together, as fio) */
	const struct ssd_job *job = ssd_job_result_last(j);
	fprintf(out,
		"     latency   : target=%" PRIu64 ", window=%" PRIu64
		", percentile=%s%%, depth=%" PRIu64 "\n",
		job ? (uint64_t)job->latency_target : 0,
		job ? (uint64_t)(job->latency_window / SSD_US) : 0,
		ssd_rep_fmt_f(b, sizeof b, 0, 2, job ? job->latency_percentile : 100.0),
		ssd_rep_latency_depth(j));
}

/* fio's show_ss_normal: "  steadystate  : attained=yes, bw=..., iops=...,
 * iops mean dev=1.431%". */
static void text_steadystate(FILE *out, const struct ssd_ss *ss)
{
	char a[40], b[40], c[40], d[64];
	uint64_t bw = ssd_ss_mean(ss, ss->bw);
	fprintf(out, "  steadystate  : attained=%s, bw=%s (%s), iops=%s, "
		"%s%s=%s%s\n", ss->state & SSD_SS_ATTAINED ? "yes" : "no",
		num2str(a, sizeof a, bw, 4, 1, N2S_BYTEPERSEC),
		num2str(b, sizeof b, bw, 4, 0, N2S_BYTEPERSEC),
		num2str(c, sizeof c, ssd_ss_mean(ss, ss->iops), 4, 0, N2S_NONE),
		ss->state & SSD_SS_IOPS ? "iops"
			: ss->state & SSD_SS_LAT ? "lat" : "bw",
		ss->state & SSD_SS_SLOPE ? " slope" : " mean dev",
		ssd_rep_fmt_f(d, sizeof d, 0, 3, ss->criterion),
		ss->state & SSD_SS_PCT ? "%" : "");
}

static void text_job(FILE *out, const struct ssd_job_result *j,
		     const struct group *rs, const struct ssd_config *c)
{
	fprintf(out, "%s: (groupid=%d, jobs=%" PRIu32 "): err=%2d", j->name,
		j->groupid, j->clones ? j->clones : 1, ssd_rep_job_errno(j));
	if (j->error)
		fprintf(out, " (%s)", ssd_strerror(j->error));
	putc('\n', out);
	if (j->error && j->errmsg[0])
		fprintf(out, "  ssdlab: error: %s\n", j->errmsg);
	for (int d = 0; d < SSD_DDIR_N; d++)
		if (j->dir[d].bytes || j->dir[d].ios)
			text_ddir(out, j, d, rs);

	double pct[SSD_LATDIST_N];
	ssd_rep_lat_dist_pct(j, pct);
	text_latdist(out, pct, 0, 10, "nsec");
	text_latdist(out, pct, 10, 20, "usec");
	text_latdist(out, pct, 20, SSD_LATDIST_N, "msec");
	if (j->ss.n)
		text_steadystate(out, &j->ss);
	text_sync_and_depths(out, j);
	text_ssdlab_job(out, j, c);
}

/* fio's show_group_stats. */
static void text_group(FILE *out, int id, const struct group *rs)
{
	static const char *const str[SSD_DDIR_N] = {"   READ", "  WRITE",
						    "   TRIM"};
	fprintf(out, "\nRun status group %d (all jobs):\n", id);
	for (int d = 0; d < SSD_DDIR_N; d++) {
		if (!rs->max_run[d])
			continue;
		char io[40], ioalt[40], agg[40], aggalt[40];
		char mn[40], mnalt[40], mx[40], mxalt[40];
		fprintf(out,
			"%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), "
			"run=%" PRIu64 "-%" PRIu64 "msec\n",
			str[d],
			num2str(agg, sizeof agg, rs->agg[d], 4, 1,
				N2S_BYTEPERSEC),
			num2str(aggalt, sizeof aggalt, rs->agg[d], 4, 0,
				N2S_BYTEPERSEC),
			num2str(mn, sizeof mn, rs->min_bw[d], 4, 1,
				N2S_BYTEPERSEC),
			num2str(mx, sizeof mx, rs->max_bw[d], 4, 1,
				N2S_BYTEPERSEC),
			num2str(mnalt, sizeof mnalt, rs->min_bw[d], 4, 0,
				N2S_BYTEPERSEC),
			num2str(mxalt, sizeof mxalt, rs->max_bw[d], 4, 0,
				N2S_BYTEPERSEC),
			num2str(io, sizeof io, rs->iobytes[d], 4, 1, N2S_BYTE),
			num2str(ioalt, sizeof ioalt, rs->iobytes[d], 4, 0,
				N2S_BYTE),
			ssd_rep_ms_of(rs->min_run[d]), ssd_rep_ms_of(rs->max_run[d]));
	}
}

/* fio's job description line: "name: (g=0): rw=randwrite, bs=(R) ...",
 * for job section job in reporting group groupid. */
static void text_job_line(FILE *out, const struct ssd_job *job, int groupid)
{
	char r[SSD_DDIR_N][2][40];
	for (int d = 0; d < SSD_DDIR_N; d++) {
		num2str(r[d][0], sizeof r[d][0], job->min_bs[d], 4, 1, N2S_BYTE);
		num2str(r[d][1], sizeof r[d][1], job->max_bs[d], 4, 1, N2S_BYTE);
	}
	if (job->read_iolog[0]) { /* the trace's directions and sizes */
		fprintf(out, "%s: (g=%d): read_iolog=%s, ioengine=ssdlab, iodepth=%"
			PRIu32 "\n", job->name, groupid, job->read_iolog, job->iodepth);
		return;
	}
	const char *rw = ssd_rw_name(job->rw);
	fprintf(out,
		"%s: (g=%d): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, "
		"ioengine=ssdlab, iodepth=%" PRIu32 "\n",
		job->name, groupid, rw ? rw : "unknown", r[0][0], r[0][1],
		r[1][0], r[1][1], r[2][0], r[2][1], job->iodepth);
}

static void text_drive(FILE *out, const struct ssd_run_result *r)
{
	const struct ssd_config *c = r->cfg;
	char a[64], b[64], s[64];
	putc('\n', out);
	if (c && c->type == SSD_TYPE_HDD) {
		char desc[sizeof c->description], c2[32];
		ssd_config_description(c, desc, sizeof desc);
		fprintf(out, "Drive %s%s%s:\n", c->name, desc[0] ? " -- " : "",
			desc);
		fprintf(out,
			"  hard disk: capacity=%s (%" PRIu64 " bytes), %" PRIu32
			" rpm, seek %s/%s/%s ms (track/avg/full), media %" PRIu32
			"..%" PRIu32 " MB/s in %" PRIu32 " zone%s, buffer %s%s\n",
			ssd_fmt_bytes(c->capacity, a, sizeof a), c->capacity,
			c->hdd_rpm, ssd_rep_fmt_f(s, sizeof s, 0, 2, c->hdd_seek_track / 1e6),
			ssd_rep_fmt_f(b, sizeof b, 0, 2, c->hdd_seek_avg / 1e6),
			ssd_rep_fmt_f(c2, sizeof c2, 0, 2, c->hdd_seek_full / 1e6),
			c->hdd_mbps_inner, c->hdd_mbps_outer, c->hdd_zones,
			ssd_plural(c->hdd_zones),
			ssd_fmt_bytes(c->hdd_cache, desc, sizeof desc),
			c->hdd_write_cache ? " (write cache on)" : "");
	} else if (c) {
		const char *cell = ssd_cell_name(c->cell);
		const char *gc = ssd_gc_policy_name(c->gc_policy);
		char desc[sizeof c->description];
		ssd_config_description(c, desc, sizeof desc);
		fprintf(out, "Drive %s%s%s:\n", c->name, desc[0] ? " -- " : "",
			desc);
		fprintf(out,
			"  capacity=%s (%" PRIu64 " bytes), op=%s%%, cell=%s, "
			"page=%s, block=%" PRIu32 " pages\n",
			ssd_fmt_bytes(c->capacity, a, sizeof a), c->capacity,
			ssd_rep_fmt_f(s, sizeof s, 0, 2, c->op * 100.0),
			cell ? cell : "unknown",
			ssd_fmt_bytes(c->page_size, b, sizeof b),
			c->pages_per_block);
		fprintf(out,
			"  channels=%" PRIu32 ", dies/channel=%" PRIu32
			", planes/die=%" PRIu32 ", blocks/plane=%" PRIu32
			", gc=%s\n",
			c->channels, c->dies_per_channel, c->planes_per_die,
			c->blocks_per_plane, gc ? gc : "unknown");
	}
	int64_t ns = r->sim_ns > 0 ? r->sim_ns : 0;
	fprintf(out,
		"Run: seed=%" PRIu64 ", simulated time=%" PRId64 ".%09" PRId64
		" s, host I/Os=%" PRIu64 "%s%s\n",
		r->seed, (int64_t)(ns / SSD_S), (int64_t)(ns % SSD_S),
		r->host_ios,
		r->jobfile ? ", jobs=" : "", r->jobfile ? r->jobfile : "");
	fprintf(out, "Wall: %s s, %s simulated host I/Os per wall second\n",
		ssd_rep_fmt_f(a, sizeof a, 0, 3, r->wall_s),
		ssd_rep_fmt_f(b, sizeof b, 0, 0,
		      r->wall_s > 0 ? (double)r->host_ios / r->wall_s : 0.0));
}

/* The lines fio prints when it starts: one per job section (its clones
 * one "..." line), and the version.  A job's clones may be results of
 * their own, and a result may report several jobs (group_reporting). */
void ssd_rep_text_header(const struct ssd_run_result *r, FILE *out)
{
	const struct ssd_job *prev = NULL;
	for (int i = 0; i < r->njobs; i++) {
		const struct ssd_job_result *j = &r->jobs[i];
		uint32_t n = j->nsections ? j->nsections : 1;
		for (uint32_t s = 0; j->job && s < n; s++) {
			const struct ssd_job *job = j->job + s;
			if (job == prev)
				continue;
			text_job_line(out, job, j->groupid);
			if (job->numjobs > 1)
				fputs("...\n", out);
			prev = job;
		}
	}
	fprintf(out, "ssdlab-%s\n\n", SSDLAB_VERSION);
}

void ssd_rep_text_body(const struct ssd_run_result *r, FILE *out,
		      const struct group *g, int ng)
{
	for (int i = 0; i < r->njobs; i++)
		text_job(out, &r->jobs[i], &g[ssd_rep_group_of(&r->jobs[i])], r->cfg);
	for (int k = 0; k < ng; k++)
		if (g[k].njobs)
			text_group(out, k, &g[k]);
	text_drive(out, r);
	text_machine(out, r);
}

