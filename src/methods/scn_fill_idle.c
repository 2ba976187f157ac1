/*
 * scn_fill_idle.c -- seed 003's method (Crucial M4 vs Intel 510: what the
 * spare area buys): HD Tach read and write speed over the whole span
 *   1. clean (fresh from the factory: Secure Erase);
 *   2. full: after filling the drive by copying directories, no TRIM;
 *   3. after 30 minutes idle (time for background GC);
 * then a sequential write after Secure Erase against one after filling the
 * drive and deleting everything with TRIM.  Every step runs for several
 * over-provisioning values side by side (the review compared 0% and 3.4%).
 *
 * HD Tach.  The span is cut into `zones` equal zones.  A read pass visits
 * them in order and reads `sample` of each zone, from its start,
 * sequentially in `bs` requests at queue depth `iodepth` (HD Tach issues
 * one at a time); then a write pass writes the same places (HD Tach's
 * write test overwrites the drive).  A zone's speed is its bytes over its
 * time (MB/s = 10^6 B/s); the average is the mean over the zones, as
 * HD Tach's.  Measuring a share of each zone instead of all of it keeps
 * the run short; the curve's shape is the same.
 *
 * Reads of the clean drive.  The clean drive's read pass reads LBAs never
 * written: the drive answers with zeros without touching the flash, so
 * the read runs at the host link's speed.  The real tool saw the same on
 * a fresh drive -- the M4's 391 MB/s clean against 177 MB/s full is
 * mostly this -- so the clean read is a measure of the link, not of the
 * NAND, and "full" and "after idle" are the reads of real data.
 *
 * The fill, one of two (`fill`), without TRIM:
 *   files    files of realistic sizes (fileset.h: lognormal, mean
 *            `file_mean`, sigma 2) laid contiguously over the whole span
 *            -- 100% of it, no gaps -- and copied in a random order, each
 *            file front to back in 1 MiB requests with 4 in flight (a
 *            copy tool's overlapped I/O), straight to the drive;
 *   dircopy  the reviewer's procedure as dircopy.h models it: directories
 *            of the file set `file_set` copied onto a fresh NTFS-like
 *            volume through the host page cache until it is full -- a
 *            next-fit allocator, files in allocation order, the MFT,
 *            index, bitmap and log writes between them.  The delete then
 *            trims the files' extents and the directories' index blocks;
 *            the MFT, the log and the bitmap stay on the drive, as on a
 *            volume emptied of its files.
 * The clean state's write pass wrote into every zone first, so the fill
 * also overwrites, as the reviewer's copy overwrote HD Tach's test data.
 *
 * Sequential write: `seq_size` from the start of the span, 128 KiB
 * requests at QD32 (a file-copy benchmark's shape):
 *   after Secure Erase   on a fresh drive of the same OP;
 *   after fill + TRIM    on the drive of states 1-3, once every file has
 *                        been deleted with TRIM (one TRIM per file).
 * The difference is the price of erasing the dead blocks on the way
 * (seed 003: 3% for the Intel, 1.3% for the Crucial).
 *
 * Over-provisioning.  `ops` lists drive key op values: physical spare as
 * a fraction of the user capacity.  The review's "0%" M4 physically has
 * 7.37% spare and its "3.4%" Intel 510 9.95% (GB vs GiB; see
 * presets/crucial-m4-256g.ini).  ssdlab's FTL cannot run with no spare at
 * all: it keeps gc_fg_blocks + 2 blocks of every plane out of the user's
 * reach, so an op below that least spare (0, say) runs at the least and
 * says so in the summary and result.json (op_asked, op).  The drive's
 * own op plays no part: every drive is built with one of `ops`.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "job/dircopy.h"
#include "job/fileset.h"
#include "methods/scenario.h"
#include "run/sim.h"

static const struct ssd_scn_param params[] = {
	{.name = "ops", .def = "0,0.034,0.07,0.28", .unit = "text",
	 .help = "Over-provisioning values compared (drive key op, comma-separated, up "
		 "to 8); one below the least spare the FTL runs with runs at that least."},
	{.name = "zones", .def = "64", .unit = "number",
	 .help = "HD Tach zones over the span.",
	 .whole = 1, .lo = 1, .hi = 4096},
	{.name = "sample", .def = "0.25", .unit = "number",
	 .help = "Share of each zone HD Tach reads and writes.",
	 .lo = 0, .hi = 1, .open = SSD_SCN_ABOVE_LO},
	{.name = "bs", .def = "64k", .unit = "size",
	 .help = "HD Tach request size."},
	{.name = "iodepth", .def = "1", .unit = "number",
	 .help = "HD Tach queue depth (the tool issues one request at a time).",
	 .whole = 1, .lo = 1, .hi = 65536},
	{.name = "idle", .def = "1800", .unit = "time",
	 .help = "Idle time before the third state."},
	{.name = "fill", .def = "files", .unit = "text",
	 .help = "The fill: files (a random-order copy of contiguous files "
		 "straight to the drive) or dircopy (directories copied through "
		 "a file system and the page cache until full; docs/fill.md)."},
	{.name = "file_mean", .def = "1m", .unit = "size",
	 .help = "Mean size of the copied files (fill=files)."},
	{.name = "file_set", .def = "impressions", .unit = "text",
	 .help = "The files of fill=dircopy: impressions, win7, game, media or "
		 "usb (docs/fill.md)."},
	{.name = "seq_size", .def = "100%", .unit = "size or % of capacity",
	 .help = "Data of the sequential write after Secure Erase and after fill + TRIM."},
	{.name = NULL},
};

#define MAX_OPS 8
#define NSTATES 3
#define COPY_BS (1u << 20)
#define COPY_QD 4
#define FILE_SIGMA 2.0

static const char *state_name[NSTATES] = {"clean", "full", "after idle"};
static const char *state_key[NSTATES] = {"clean", "full", "after_idle"};

struct op_res {
	double asked, op;            /* op asked for, op of the drive built */
	double *rd[NSTATES], *wr[NSTATES]; /* MB/s per zone */
	double rd_avg[NSTATES], wr_avg[NSTATES];
	double se_mbps, trim_mbps;   /* sequential write after SE, fill+TRIM */
	double fill_mbps;            /* the copy's speed */
	double fill_waf;             /* flash pages programmed per host page,
	                                over the copy */
	struct ssd_dircopy_run dc;   /* fill=dircopy: what the copy did */
	double full_write_waf;       /* the same over the full state's write
	                                pass */
};

/* The least op the FTL builds this drive with (config.c's rule). */
static double least_op(const struct ssd_config *c)
{
	return ssd_config_min_op(c);
}

static struct ssd_dev *op_drive(struct ssd_scn *s, double op)
{
	char kv[64];
	snprintf(kv, sizeof kv, "op=%.9g", op);
	const char *set[1] = {kv};
	return ssd_scn_drive(s, set, 1);
}

static double mbps(const struct ssd_job_result *j, int ddir)
{
	return j->runtime_ns > 0
		? (double)j->dir[ddir].bytes * 1e3 / (double)j->runtime_ns : 0;
}

struct hdtach {
	int zones, qd;
	uint64_t zone, sample; /* bytes */
	uint32_t bs;
};

/* One HD Tach run: the read pass, then the write pass.  *w gets the
 * write amplification of the write pass. */
static int hdtach(struct ssd_scn *s, struct ssd_dev *dev, const struct hdtach *h,
		  double *rd, double *wr, double *ravg, double *wavg, double *w)
{
	struct ssd_counters c0 = *ssd_dev_counters(dev);
	*ravg = *wavg = 0;
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			c0 = *ssd_dev_counters(dev);
		for (int z = 0; z < h->zones; z++) {
			struct ssd_run_result res;
			struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
			if (b) {
				struct ssd_job *j = ssd_scn_job(b,
					pass ? "hdtach-write" : "hdtach-read",
					pass ? SSD_RW_WRITE : SSD_RW_READ,
					h->bs, (uint32_t)h->qd);
				j->offset = (uint64_t)z * h->zone;
				j->size = h->sample;
			}
			int rc = ssd_scn_run(s, dev, b, NULL, &res);
			if (rc)
				return rc;
			if (pass) {
				wr[z] = mbps(&res.jobs[0], SSD_DDIR_WRITE);
				*wavg += wr[z] / h->zones;
			} else {
				rd[z] = mbps(&res.jobs[0], SSD_DDIR_READ);
				*ravg += rd[z] / h->zones;
			}
			ssd_run_result_free(&res);
		}
	}
	*w = ssd_counters_waf_since(ssd_dev_counters(dev), &c0);
	return 0;
}

static int seq_write(struct ssd_scn *s, struct ssd_dev *dev, uint64_t size,
		     double *out)
{
	struct ssd_run_result res;
	struct ssd_jobs *b = ssd_scn_jobs_new(s, dev);
	if (b)
		ssd_scn_job(b, "seq-write", SSD_RW_WRITE, 128 << 10, 32)->size =
			size;
	int rc = ssd_scn_run(s, dev, b, NULL, &res);
	if (rc)
		return rc;
	*out = mbps(&res.jobs[0], SSD_DDIR_WRITE);
	ssd_run_result_free(&res);
	return 0;
}

/* The fill's options: fs for fill=files, dc (set NULL) for dircopy. */
struct fill {
	const struct ssd_fileset *fs;
	const struct ssd_dircopy_opts *dc;
};

/* Every step for one op. */
static int run_op(struct ssd_scn *s, const struct hdtach *h,
		  const struct fill *fl, int64_t idle, uint64_t seq,
		  struct op_res *o)
{
	struct ssd_dev *dev = op_drive(s, o->op);
	if (!dev)
		return SSD_EINVAL;
	double w;
	struct ssd_fileset del = {0};
	const struct ssd_fileset *fs = fl->fs;
	double op = o->op * 100;
	ssd_prog_phase(s->prog, ssd_dev_time(dev), "op %.0f%%: fresh", op);
	int rc = hdtach(s, dev, h, o->rd[0], o->wr[0], &o->rd_avg[0],
			&o->wr_avg[0], &w);
	if (!rc) {
		struct ssd_fileset_run fr;
		ssd_prog_phase(s->prog, ssd_dev_time(dev), "op %.0f%%: copying "
			       "files", op);
		struct ssd_counters c0 = *ssd_dev_counters(dev);
		if (fl->dc) {
			rc = ssd_dircopy(dev, fl->dc, &o->dc, &del);
			fs = &del;
			uint64_t b = 0;
			for (int k = 0; k < SSD_DC_NKINDS; k++)
				b += o->dc.bytes[k];
			fr = (struct ssd_fileset_run){.bytes = b,
				.start = o->dc.start, .end = o->dc.end};
		} else {
			rc = ssd_fileset_write(dev, fs, COPY_BS, COPY_QD, &fr);
		}
		if (rc)
			snprintf(s->err, sizeof s->err, "fill-idle: the copy failed: %s",
				 ssd_strerror(rc));
		o->fill_waf = ssd_counters_waf_since(ssd_dev_counters(dev), &c0);
		o->fill_mbps = fr.end > fr.start
			? (double)fr.bytes * 1e3 / (double)(fr.end - fr.start) : 0;
	}
	ssd_prog_phase(s->prog, ssd_dev_time(dev), "op %.0f%%: full", op);
	if (!rc)
		rc = hdtach(s, dev, h, o->rd[1], o->wr[1], &o->rd_avg[1],
			    &o->wr_avg[1], &o->full_write_waf);
	if (!rc) {
		int64_t now = ssd_dev_time(dev);
		ssd_prog_phase(s->prog, now, "op %.0f%%: idle, then read and "
			       "write", op);
		ssd_dev_idle(dev, now + idle);
		rc = hdtach(s, dev, h, o->rd[2], o->wr[2], &o->rd_avg[2],
			    &o->wr_avg[2], &w);
	}
	if (!rc) {
		/* delete every file with TRIM, then the sequential write */
		struct ssd_fileset_run fr;
		ssd_prog_phase(s->prog, ssd_dev_time(dev), "op %.0f%%: delete "
			       "and rewrite", op);
		rc = ssd_fileset_trim(dev, fs, COPY_QD, &fr);
		if (rc)
			snprintf(s->err, sizeof s->err, "fill-idle: the delete failed: %s",
				 ssd_strerror(rc));
	}
	if (!rc)
		rc = seq_write(s, dev, seq, &o->trim_mbps);
	ssd_dev_destroy(dev);
	ssd_fileset_free(&del);
	if (rc)
		return rc;
	/* Secure Erase: a fresh drive */
	if (!(dev = op_drive(s, o->op)))
		return SSD_EINVAL;
	rc = seq_write(s, dev, seq, &o->se_mbps);
	ssd_dev_destroy(dev);
	return rc;
}

/* "3.4%", or "0.781% (asked 0%)"; quoted for CSV: "\"OP 3.4%\"" */
static void op_label(const struct op_res *o, char *buf, size_t n, int csv)
{
	const char *q = csv ? "\"" : "", *pre = csv ? "OP " : "";
	if (o->op != o->asked)
		snprintf(buf, n, "%s%s%.3g%% (asked %.3g%%)%s", q, pre, 100 * o->op,
			 100 * o->asked, q);
	else
		snprintf(buf, n, "%s%s%.3g%%%s", q, pre, 100 * o->op, q);
}

static int write_csvs(struct ssd_scn *s, const struct hdtach *h,
		      const struct op_res *o, int nops)
{
	char name[64], label[64];
	for (int k = 0; k < nops; k++) {
		snprintf(name, sizeof name, "hdtach-op%g.csv", o[k].asked);
		FILE *f = ssd_scn_file(s, name);
		if (!f)
			return SSD_EIO;
		fprintf(f, "zone,position_gb,read_clean,write_clean,read_full,"
			   "write_full,read_idle,write_idle\n");
		for (int z = 0; z < h->zones; z++) {
			fprintf(f, "%d,%.4f", z,
				((double)z * h->zone + h->zone / 2.0) / 1e9);
			for (int st = 0; st < NSTATES; st++)
				fprintf(f, ",%.2f,%.2f", o[k].rd[st][z], o[k].wr[st][z]);
			fputc('\n', f);
		}
		if (ssd_scn_close(s, f))
			return SSD_EIO;
	}
	FILE *f = ssd_scn_file(s, "fill-idle.csv");
	if (!f)
		return SSD_EIO;
	fprintf(f, "op,op_used,read_clean,read_full,read_idle,write_clean,"
		   "write_full,write_idle,seq_write_after_se,seq_write_after_trim\n");
	for (int k = 0; k < nops; k++) {
		op_label(&o[k], label, sizeof label, 1);
		fprintf(f, "%s,%.6g", label, o[k].op);
		for (int st = 0; st < NSTATES; st++)
			fprintf(f, ",%.2f", o[k].rd_avg[st]);
		for (int st = 0; st < NSTATES; st++)
			fprintf(f, ",%.2f", o[k].wr_avg[st]);
		fprintf(f, ",%.2f,%.2f\n", o[k].se_mbps, o[k].trim_mbps);
	}
	return ssd_scn_close(s, f);
}

static int plots(struct ssd_scn *s, const struct hdtach *h,
		 const struct op_res *o, int nops)
{
	char body[4096], name[64], title[160], label[64];
	int rc;
	/* 1. HD Tach curves, one chart per op, as the review's screenshots */
	static const char *rcol[NSTATES] = {"#9ecae1", "#1f5fbf", "#08306b"};
	static const char *wcol[NSTATES] = {"#fdae6b", "#e6550d", "#7f2704"};
	for (int k = 0; k < nops; k++) {
		int n = snprintf(body, sizeof body,
				 "set xlabel 'position on the drive, GB'\n"
				 "set ylabel 'MB/s (%u KiB, QD%d, %d zone%s)'\n"
				 "set yrange [0:*]\nset key outside bottom center vertical maxrows 3\n"
				 "plot ", h->bs / 1024, h->qd, h->zones,
				 ssd_plural((uint64_t)h->zones));
		for (int st = 0; st < NSTATES; st++)
			n += snprintf(body + n, sizeof body - (size_t)n,
				      "%s'hdtach-op%g.csv' skip 1 using 2:%d with lines lw 2 "
				      "lc rgb '%s' title 'read, %s: avg %.0f MB/s%s'",
				      st ? ", \\\n     " : "", o[k].asked, 3 + 2 * st, rcol[st],
				      state_name[st], o[k].rd_avg[st],
				      st ? "" : " (unmapped: zeros)");
		for (int st = 0; st < NSTATES; st++)
			n += snprintf(body + n, sizeof body - (size_t)n,
				      ", \\\n     '' skip 1 using 2:%d with lines lw 2 lc rgb '%s' "
				      "title 'write, %s: avg %.0f MB/s'",
				      4 + 2 * st, wcol[st], state_name[st], o[k].wr_avg[st]);
		op_label(&o[k], label, sizeof label, 0);
		snprintf(name, sizeof name, "hdtach-op%g", o[k].asked);
		snprintf(title, sizeof title, "HD Tach: clean, full, after idle -- OP %s", label);
		if ((rc = ssd_scn_plot(s, name, title, body)))
			return rc;
	}
	/* 2. the averages: read and write, three states, every op; each bar
	 * labelled with its value (a clustered histogram of 6 columns with
	 * gap 1 puts bar i at group + (i - 2.5) / 7) */
	int n = snprintf(body, sizeof body,
			 "set style data histograms\nset style histogram clustered gap 1\n"
			 "set style fill solid 0.9 border -1\nset boxwidth 0.9\n"
			 "set yrange [0:*]\nset ylabel 'HD Tach average, MB/s'\n"
			 "set key outside bottom center vertical maxrows 3\n"
			 "plot 'fill-idle.csv' skip 1 using 3:xtic(1) title 'read, clean (unmapped)' lc rgb '%s', \\\n"
			 "     '' skip 1 using 4 title 'read, full' lc rgb '%s', \\\n"
			 "     '' skip 1 using 5 title 'read, after idle' lc rgb '%s', \\\n"
			 "     '' skip 1 using 6 title 'write, clean' lc rgb '%s', \\\n"
			 "     '' skip 1 using 7 title 'write, full' lc rgb '%s', \\\n"
			 "     '' skip 1 using 8 title 'write, after idle' lc rgb '%s'",
			 rcol[0], rcol[1], rcol[2], wcol[0], wcol[1], wcol[2]);
	for (int i = 0; i < 6; i++)
		n += snprintf(body + n, sizeof body - (size_t)n,
			      ", \\\n     '' skip 1 using ($0%+.4f):%d:(sprintf('%%.0f',$%d)) "
			      "with labels rotate by 90 left offset 0,0.3 font ',8' notitle",
			      (i - 2.5) / 7, 3 + i, 3 + i);
	if ((rc = ssd_scn_plot(s, "fill-idle", "HD Tach averages: clean, full, after idle", body)))
		return rc;
	/* 3. the write curves of every op, full and after idle */
	static const char *pal[MAX_OPS] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd",
					   "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
	n = snprintf(body, sizeof body,
			 "set xlabel 'position on the drive, GB'\n"
			 "set ylabel 'write MB/s (%u KiB, QD%d)'\nset yrange [0:*]\n"
			 "set key outside bottom center vertical maxrows 4\nplot ",
			 h->bs / 1024, h->qd);
	for (int k = 0; k < nops; k++) {
		op_label(&o[k], label, sizeof label, 0);
		n += snprintf(body + n, sizeof body - (size_t)n,
			      "%s'hdtach-op%g.csv' skip 1 using 2:6 with lines lw 2 lc rgb '%s' "
			      "title 'OP %s, full', \\\n     '' skip 1 using 2:8 with lines lw 2 dt 2 "
			      "lc rgb '%s' title 'OP %s, after idle'",
			      k ? ", \\\n     " : "", o[k].asked, pal[k], label, pal[k], label);
	}
	if ((rc = ssd_scn_plot(s, "fill-idle-write", "HD Tach write over the span: full and after idle, per OP", body)))
		return rc;
	/* 4. sequential write after Secure Erase and after fill + TRIM */
	snprintf(body, sizeof body,
		 "set style data histograms\nset style histogram clustered gap 1\n"
		 "set style fill solid 0.9 border -1\nset boxwidth 0.9\n"
		 "set yrange [0:*]\nset ylabel 'sequential write, MB/s (128 KiB, QD32)'\n"
		 "plot 'fill-idle.csv' skip 1 using 9:xtic(1) title 'after Secure Erase' lc rgb '#1f5fbf', \\\n"
		 "     '' skip 1 using 10 title 'after fill and delete with TRIM' lc rgb '#d95f02', \\\n"
		 "     '' skip 1 using ($0-1.0/6):9:(sprintf('%%.0f',$9)) with labels offset 0,0.7 notitle, \\\n"
		 "     '' skip 1 using ($0+1.0/6):10:(sprintf('%%.0f',$10)) with labels offset 0,0.7 notitle");
	return ssd_scn_plot(s, "seq-write", "Sequential write: after Secure Erase vs after fill + TRIM", body);
}

/* The summary's lines on a directory copy (the first op's: every op
 * copies the same files to the same places; what write-back sent the
 * drive differs a little with the drive's pace). */
static void report_dircopy(struct ssd_scn *s, const struct ssd_dircopy_opts *dc,
			   const struct ssd_dircopy_run *r)
{
	uint64_t meta = 0, mcmds = 0, all = 0, cmds = 0;
	for (int k = 0; k < SSD_DC_NKINDS; k++) {
		all += r->bytes[k];
		cmds += r->cmds[k];
		if (k != SSD_DC_DATA) {
			meta += r->bytes[k];
			mcmds += r->cmds[k];
		}
	}
	uint64_t runs = r->cmds[SSD_DC_DATA] - r->data_seq_cmds;
	char cs[32];
	fprintf(s->out, "  fill: directory copy of the %s set, %llu files (mean %.0f KiB, "
		"largest %s) in %llu directories, %.1f%% of the span in use, no TRIM\n",
		ssd_dircopy_set_name(dc->set), (unsigned long long)r->files,
		r->files ? (double)r->file_bytes / (double)r->files / 1024 : 0,
		ssd_fmt_bytes(r->largest, cs, sizeof cs), (unsigned long long)r->dirs,
		100.0 * (double)r->used / (double)r->volume);
	fprintf(s->out, "    %llu of the files in more than one extent, %llu resident "
		"in their MFT record; at the drive: %llu writes, %llu of them "
		"metadata (%.2f%% of the bytes), the data in sequential runs of "
		"%s on average\n",
		(unsigned long long)r->fragmented, (unsigned long long)r->resident,
		(unsigned long long)cmds, (unsigned long long)mcmds,
		all ? 100.0 * (double)meta / (double)all : 0,
		ssd_fmt_bytes(runs ? r->bytes[SSD_DC_DATA] / runs : 0, cs, sizeof cs));
}

static void report(struct ssd_scn *s, const struct hdtach *h,
		   const struct fill *fl, int64_t idle, uint64_t seq,
		   const struct op_res *o, int nops)
{
	char label[64];
	fprintf(s->out, "fill-idle on %s: HD Tach (%d zone%s, %.0f%% of each, %u KiB "
		"QD%d) clean, full, after %.0f s idle\n", s->cfg.name, h->zones,
		ssd_plural((uint64_t)h->zones),
		100.0 * (double)h->sample / (double)h->zone, h->bs / 1024, h->qd,
		idle / 1e9);
	if (fl->dc)
		report_dircopy(s, fl->dc, &o[0].dc);
	else
		fprintf(s->out, "  fill: %llu files (mean %.0f KiB) over 100%% of the "
			"span, random order, no TRIM\n", (unsigned long long)fl->fs->n,
			(double)fl->fs->bytes / (double)fl->fs->n / 1024);
	fprintf(s->out, "  %-20s %26s   %26s\n", "HD Tach avg, MB/s",
		"read: clean   full   idle", "write: clean   full   idle");
	for (int k = 0; k < nops; k++) {
		op_label(&o[k], label, sizeof label, 0);
		fprintf(s->out, "  OP %-17s %12.0f %6.0f %6.0f   %13.0f %6.0f %6.0f\n",
			label, o[k].rd_avg[0], o[k].rd_avg[1], o[k].rd_avg[2],
			o[k].wr_avg[0], o[k].wr_avg[1], o[k].wr_avg[2]);
	}
	fprintf(s->out, "  (clean reads are of unmapped LBAs: zeros, no NAND -- what "
		"HD Tach saw on a fresh drive too)\n");
	fprintf(s->out, "  %-20s %13s %18s %7s  %s\n", "seq write, MB/s", "after SE",
		"after fill+TRIM", "diff", "(write WAF: copy, full pass)");
	for (int k = 0; k < nops; k++) {
		op_label(&o[k], label, sizeof label, 0);
		double d = o[k].se_mbps > 0
			? 100 * (o[k].trim_mbps - o[k].se_mbps) / o[k].se_mbps : 0;
		fprintf(s->out, "  OP %-17s %13.1f %18.1f %+6.1f%%  (%.2f, %.2f)\n", label,
			o[k].se_mbps, o[k].trim_mbps, d, o[k].fill_waf, o[k].full_write_waf);
	}
	char ss[32];
	fprintf(s->out, "  (%s written sequentially, 128 KiB QD32)\n",
		ssd_fmt_bytes(seq, ss, sizeof ss));
	fprintf(s->out, "  seed 003: Intel 510 (3.4%%) write 300 -> 221 -> 274 MB/s; "
		"Crucial M4 (0%%) read 391 -> 177 -> 156 MB/s\n");
	fprintf(s->out, "  data and plots    %s/{fill-idle,fill-idle-write,seq-write,"
		"hdtach-op*}.{csv,png,svg}\n", s->outdir);
}

static void json(struct ssd_scn *s, const struct fill *fl,
		 const struct op_res *o, int nops)
{
	ssd_scn_json_str(s, "fill", fl->dc ? "dircopy" : "files");
	if (fl->dc) {
		const struct ssd_dircopy_run *r = &o[0].dc;
		ssd_scn_json_str(s, "file_set", ssd_dircopy_set_name(fl->dc->set));
		ssd_scn_json_int(s, "files", (int64_t)r->files);
		ssd_scn_json_num(s, "file_mean_bytes", r->files
				 ? (double)r->file_bytes / (double)r->files : 0);
		ssd_scn_json_int(s, "largest_file_bytes", (int64_t)r->largest);
		ssd_scn_json_int(s, "dirs", (int64_t)r->dirs);
		ssd_scn_json_int(s, "copies", (int64_t)r->copies);
		ssd_scn_json_int(s, "fragmented_files", (int64_t)r->fragmented);
		ssd_scn_json_int(s, "resident_files", (int64_t)r->resident);
		ssd_scn_json_int(s, "skipped_files", (int64_t)r->skipped);
		ssd_scn_json_num(s, "used_share", (double)r->used / (double)r->volume);
	} else {
		ssd_scn_json_int(s, "files", (int64_t)fl->fs->n);
		ssd_scn_json_num(s, "file_mean_bytes",
				 (double)fl->fs->bytes / (double)fl->fs->n);
	}
	ssd_scn_json_open(s, "ops", 1);
	for (int k = 0; k < nops; k++) {
		ssd_scn_json_open(s, NULL, 0);
		ssd_scn_json_num(s, "op_asked", o[k].asked);
		ssd_scn_json_num(s, "op", o[k].op);
		ssd_scn_json_open(s, "read_mbps", 0);
		for (int st = 0; st < NSTATES; st++)
			ssd_scn_json_num(s, state_key[st], o[k].rd_avg[st]);
		ssd_scn_json_close(s, 0);
		ssd_scn_json_open(s, "write_mbps", 0);
		for (int st = 0; st < NSTATES; st++)
			ssd_scn_json_num(s, state_key[st], o[k].wr_avg[st]);
		ssd_scn_json_close(s, 0);
		ssd_scn_json_num(s, "fill_mbps", o[k].fill_mbps);
		ssd_scn_json_num(s, "fill_waf", o[k].fill_waf);
		if (fl->dc) { /* what write-back sent the drive, by kind */
			ssd_scn_json_open(s, "fill_writes", 0);
			for (int d = 0; d < SSD_DC_NKINDS; d++) {
				ssd_scn_json_open(s, ssd_dircopy_kind_name(d), 0);
				ssd_scn_json_int(s, "cmds", (int64_t)o[k].dc.cmds[d]);
				ssd_scn_json_int(s, "bytes", (int64_t)o[k].dc.bytes[d]);
				ssd_scn_json_close(s, 0);
			}
			ssd_scn_json_int(s, "data_sequential_cmds",
					 (int64_t)o[k].dc.data_seq_cmds);
			ssd_scn_json_close(s, 0);
		}
		ssd_scn_json_num(s, "full_write_waf", o[k].full_write_waf);
		ssd_scn_json_num(s, "seq_write_after_se_mbps", o[k].se_mbps);
		ssd_scn_json_num(s, "seq_write_after_trim_mbps", o[k].trim_mbps);
		ssd_scn_json_num(s, "seq_write_trim_vs_se_pct", o[k].se_mbps > 0
				 ? 100 * (o[k].trim_mbps - o[k].se_mbps) / o[k].se_mbps : 0);
		ssd_scn_json_close(s, 0);
	}
	ssd_scn_json_close(s, 1);
}

/* Parse "0,0.034,..." into asked[]; the count, or -1. */
static int parse_ops(const char *text, double *asked)
{
	char buf[128];
	snprintf(buf, sizeof buf, "%s", text);
	int n = 0;
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		double v;
		if (n == MAX_OPS || ssd_parse_double(ssd_strtrim(t), &v) || v < 0)
			return -1;
		asked[n++] = v;
	}
	return n ? n : -1;
}

static int run(struct ssd_scn *s)
{
	struct hdtach h;
	double asked[MAX_OPS];
	int nops = parse_ops(ssd_scn_str(s, "ops"), asked);
	double sample = ssd_scn_num(s, "sample");
	h.zones = (int)ssd_scn_int(s, "zones");
	h.qd = (int)ssd_scn_int(s, "iodepth");
	uint64_t bs = ssd_scn_size(s, "bs", 4096);
	uint64_t mean = ssd_scn_size(s, "file_mean", 4096);
	uint64_t seq = ssd_scn_size(s, "seq_size", 128 * 1024);
	int64_t idle = ssd_scn_time(s, "idle");
	const char *fill = ssd_scn_str(s, "fill");
	int dircopy = !strcmp(fill, "dircopy") ? 1 : !strcmp(fill, "files") ? 0 : -1;
	int set = ssd_dircopy_set_find(ssd_scn_str(s, "file_set"));
	h.bs = (uint32_t)bs;
	h.zone = h.zones > 0 ? ssd_config_volume(&s->cfg) / (uint64_t)h.zones : 0;
	h.zone -= bs ? h.zone % bs : 0;
	h.sample = (uint64_t)((double)h.zone * sample);
	h.sample -= bs ? h.sample % bs : 0;
	char bad[160] = "";
	if (nops < 0)
		snprintf(bad, sizeof bad, "ops '%s' is not a list of up to %d values "
			 ">= 0", ssd_scn_str(s, "ops"), MAX_OPS);
	else if (!bs || bs > (64u << 20))
		snprintf(bad, sizeof bad, "bs %s is not 4k to 64m", ssd_scn_str(s, "bs"));
	else if (h.zone < bs)
		snprintf(bad, sizeof bad, "a zone (the capacity / zones %d) is smaller "
			 "than bs %s", h.zones, ssd_scn_str(s, "bs"));
	else if (!mean)
		snprintf(bad, sizeof bad, "file_mean must be at least 4k");
	else if (!seq || seq > ssd_config_volume(&s->cfg))
		snprintf(bad, sizeof bad, "seq_size %s is not 128k up to the capacity",
			 ssd_scn_str(s, "seq_size"));
	else if (idle < 0)
		snprintf(bad, sizeof bad, "idle must not be negative");
	else if (dircopy < 0)
		snprintf(bad, sizeof bad, "fill '%s' is not files or dircopy",
			 ssd_scn_str(s, "fill"));
	else if (set < 0)
		snprintf(bad, sizeof bad, "file_set '%s' is not impressions, win7, "
			 "game, media or usb", ssd_scn_str(s, "file_set"));
	else if (dircopy && ssd_config_volume(&s->cfg) < SSD_DIRCOPY_MIN_VOLUME)
		snprintf(bad, sizeof bad, "fill=dircopy needs a volume of 16 MiB "
			 "or more");
	if (bad[0]) {
		snprintf(s->err, sizeof s->err, "fill-idle: %s", bad);
		return SSD_ERANGE;
	}
	if (h.sample < bs)
		h.sample = bs;
	struct ssd_fileset fs = {0};
	struct ssd_dircopy_opts dco;
	ssd_dircopy_defaults(&dco);
	dco.set = set;
	dco.seed = ssd_mix64(s->seed ^ 0x66696c6c);
	struct fill fl = {&fs, dircopy ? &dco : NULL};
	uint64_t nfiles = ssd_config_volume(&s->cfg) / mean;
	int rc = dircopy ? 0
		: ssd_fileset_make(&fs, 0, ssd_config_volume(&s->cfg),
				   ssd_config_volume(&s->cfg), nfiles ? nfiles : 1,
				   FILE_SIGMA, ssd_mix64(s->seed ^ 0x66696c6c));
	if (rc) {
		snprintf(s->err, sizeof s->err, "fill-idle: cannot make the files: %s",
			 ssd_strerror(rc));
		return rc;
	}
	struct op_res o[MAX_OPS];
	memset(o, 0, sizeof o);
	double least = least_op(&s->cfg);
	for (int k = 0; k < nops && !rc; k++) {
		o[k].asked = asked[k];
		o[k].op = asked[k] < least ? least : asked[k];
		for (int st = 0; st < NSTATES && !rc; st++) {
			o[k].rd[st] = calloc((size_t)h.zones, sizeof(double));
			o[k].wr[st] = calloc((size_t)h.zones, sizeof(double));
			if (!o[k].rd[st] || !o[k].wr[st])
				rc = SSD_ENOMEM;
		}
		if (!rc)
			rc = run_op(s, &h, &fl, idle, seq, &o[k]);
	}
	if (!rc)
		rc = write_csvs(s, &h, o, nops);
	if (rc == SSD_EIO && !s->err[0])
		snprintf(s->err, sizeof s->err, "cannot write into %s", s->outdir);
	if (!rc)
		rc = plots(s, &h, o, nops);
	if (!rc) {
		json(s, &fl, o, nops);
		report(s, &h, &fl, idle, seq, o, nops);
	}
	for (int k = 0; k < nops; k++)
		for (int st = 0; st < NSTATES; st++) {
			free(o[k].rd[st]);
			free(o[k].wr[st]);
		}
	ssd_fileset_free(&fs);
	return rc;
}

const struct ssd_scenario ssd_scn_fill_idle = {
	.name = "fill-idle",
	.summary = "HD Tach read/write over the span clean, full of copied files, "
		   "after 30 min idle; sequential write after Secure Erase vs "
		   "fill + TRIM; for several OP values",
	.params = params,
	.run = run,
	.needs_trim = 1,
};
