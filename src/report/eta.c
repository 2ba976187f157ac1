/*
 * eta.c -- the status line of eta.h: when to draw (the wall clock
 * against the interval), fio's line for a run of jobs, the methods'
 * line for a phase, and the in-place or new-line drawing both share.
 */
#include "report/eta.h"

#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "run/sim.h"

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int ssd_eta_when(const char *when)
{
	if (!strcmp(when, "auto"))
		return SSD_ETA_AUTO;
	if (!strcmp(when, "always"))
		return SSD_ETA_ALWAYS;
	if (!strcmp(when, "never"))
		return SSD_ETA_NEVER;
	return -2;
}

int ssd_eta_time(const char *val, double min, double *out)
{
	int64_t ns;
	if (ssd_parse_time(val, SSD_S, &ns) || ns <= 0 ||
	    (double)ns / 1e9 < min)
		return -1;
	*out = (double)ns / 1e9;
	return 0;
}

int ssd_eta_start(struct ssd_eta *e, FILE *f)
{
	int on = e->when == SSD_ETA_ALWAYS ||
		 (e->when == SSD_ETA_AUTO && isatty(fileno(f)));
	e->f = on ? f : NULL;
	if (!(e->interval > 0))
		e->interval = 1.0;
	e->w0 = e->last = e->last_nl = e->phase_w0 = wall_now();
	e->seq = ~0u; /* the first report draws */
	e->shown = 0;
	return on;
}

/* 3 significant figures and k/M/G (pow2: Ki/Mi/Gi), as fio's ETA line. */
static const char *eta_num(char *buf, size_t n, double v, int pow2)
{
	static const char *const si[] = {"", "k", "M", "G", "T", "P"};
	static const char *const iec[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};
	double base = pow2 ? 1024.0 : 1000.0;
	int u = 0;
	while (v >= 1000.0 && u < 5) {
		v /= base;
		u++;
	}
	const char *pre = pow2 ? iec[u] : si[u];
	if (!u || v >= 100.0)
		snprintf(buf, n, "%.0f%s", v, pre);
	else if (v >= 10.0)
		snprintf(buf, n, "%.1f%s", v, pre);
	else
		snprintf(buf, n, "%.2f%s", v, pre);
	return buf;
}

/* Seconds as fio's ETA writes them: 05m:07s, 3h:02m:07s. */
static const char *eta_hms(char *buf, size_t n, long s)
{
	if (s >= 3600)
		snprintf(buf, n, "%ldh:%02ldm:%02lds", s / 3600, s / 60 % 60,
			 s % 60);
	else
		snprintf(buf, n, "%02ldm:%02lds", s / 60, s % 60);
	return buf;
}

/* The time left when share `done` took `el` wall seconds (none done:
 * 0, as fio's). */
static const char *eta_left(char *buf, size_t n, double done, double el)
{
	if (!(done > 0))
		return eta_hms(buf, n, 0);
	return eta_hms(buf, n, lround(el * (1.0 - done) / done));
}

/* Draw text as the line, over the one on the screen; it ends with a new
 * line when one is due (--eta-newline) or it is the last, else it is
 * erased to its end and stays to be drawn over. */
static void eta_draw(struct ssd_eta *e, double now, int final,
		     const char *text)
{
	int nl = e->newline > 0 && now - e->last_nl >= e->newline;
	if (nl)
		e->last_nl = now;
	fprintf(e->f, "%s%s%s", e->shown ? "\r" : "", text,
		nl || final ? "\n" : "\033[K");
	fflush(e->f);
	e->shown = !(nl || final);
	e->last = now;
}

void ssd_eta_run(void *ctx, const struct ssd_sim_progress *p)
{
	struct ssd_eta *e = ctx;
	if (!e->f)
		return;
	double now = wall_now();
	int final = p->done >= 1.0 && !p->running;
	if (!final && now - e->last < e->interval)
		return;
	double dt = (double)(p->sim_ns - e->sim_last) / 1e9;
	char rate[2][SSD_DDIR_N][32];
	const char *tag[SSD_DDIR_N] = {"r", "w", "t"};
	char bw[128] = "", iops[128] = "";
	for (int d = 0; d < SSD_DDIR_N; d++) {
		double io = dt > 0 ? (double)(p->ios[d] - e->ios_last[d]) / dt : 0;
		double by = dt > 0 ? (double)(p->bytes[d] - e->bytes_last[d]) / dt : 0;
		if (!p->ios[d])
			continue;
		size_t lb = strlen(bw), li = strlen(iops);
		snprintf(bw + lb, sizeof bw - lb, "%s%s=%sB/s", lb ? "," : "",
			 tag[d], eta_num(rate[0][d], sizeof rate[0][d], by, 1));
		snprintf(iops + li, sizeof iops - li, "%s%s=%s", li ? "," : "",
			 tag[d], eta_num(rate[1][d], sizeof rate[1][d], io, 0));
		e->ios_last[d] = p->ios[d];
		e->bytes_last[d] = p->bytes[d];
	}
	e->sim_last = p->sim_ns;
	char left[32], text[512];
	snprintf(text, sizeof text, "Jobs: %d (f=%d): [%s][%.1f%%][%s][%s IOPS][eta %s]",
		 p->running, p->running, p->job ? p->job : "-",
		 p->done * 100.0, bw[0] ? bw : "-", iops[0] ? iops : "-",
		 eta_left(left, sizeof left, p->done, now - e->w0));
	eta_draw(e, now, final, text);
}

void ssd_eta_progress(void *ctx, const struct ssd_progress *p)
{
	struct ssd_eta *e = ctx;
	if (!e->f)
		return;
	if (p->clear) {
		if (e->shown)
			fputs("\r\033[K", e->f);
		fflush(e->f);
		e->shown = 0;
		return;
	}
	double now = wall_now();
	int fresh = p->seq != e->seq;
	if (fresh) {
		e->seq = p->seq;
		e->phase_w0 = now;
	} else if (now - e->last < e->interval) {
		return;
	}
	char share[16] = "-", sim[32], left[32] = "-", text[512];
	if (p->done >= 0)
		snprintf(share, sizeof share, "%.1f%%", p->done * 100.0);
	double s = (double)p->sim_ns / 1e9;
	if (s < 60.0)
		snprintf(sim, sizeof sim, "%.2fs", s);
	else
		eta_hms(sim, sizeof sim, (long)s);
	snprintf(text, sizeof text, "%s%s[%s][%s][sim %s][eta %s]",
		 e->label ? e->label : "", e->label ? ": " : "", p->phase,
		 share, sim, p->done > 0 ? eta_left(left, sizeof left, p->done,
						    now - e->phase_w0) : left);
	eta_draw(e, now, 0, text);
}

void ssd_eta_end(struct ssd_eta *e)
{
	if (e->f && e->shown) {
		fputc('\n', e->f);
		fflush(e->f);
	}
	e->shown = 0;
}
