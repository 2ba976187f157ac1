/*
 * progress.c -- the reporter of progress.h: phase names, the share a run
 * of jobs covers, and the reports handed to the listener.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/progress.h"

void ssd_prog_phase(struct ssd_prog *pg, int64_t sim_ns, const char *fmt, ...)
{
	if (!ssd_prog_on(pg))
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(pg->phase, sizeof pg->phase, fmt, ap);
	va_end(ap);
	pg->seq++;
	pg->spanned = 0;
	ssd_prog_at(pg, -1.0, sim_ns, NULL);
}

void ssd_prog_span(struct ssd_prog *pg, double lo, double hi)
{
	if (!ssd_prog_on(pg))
		return;
	pg->spanned = 1;
	pg->lo = lo < 0.0 ? 0.0 : lo > 1.0 ? 1.0 : lo;
	pg->hi = hi < pg->lo ? pg->lo : hi > 1.0 ? 1.0 : hi;
	ssd_prog_at(pg, pg->lo, pg->sim_ns, NULL);
}

void ssd_prog_at(struct ssd_prog *pg, double done, int64_t sim_ns,
		 const char *job)
{
	if (!ssd_prog_on(pg))
		return;
	if (pg->phase[0] && job && strcmp(job, pg->phase))
		snprintf(pg->line, sizeof pg->line, "%s: %s", pg->phase, job);
	else
		snprintf(pg->line, sizeof pg->line, "%s",
			 pg->phase[0] ? pg->phase : job ? job : "starting");
	pg->sim_ns = sim_ns;
	struct ssd_progress p = {.phase = pg->line, .done = done,
				 .sim_ns = sim_ns, .seq = pg->seq};
	pg->fn(pg->ctx, &p);
}

void ssd_prog_clear(struct ssd_prog *pg)
{
	if (!ssd_prog_on(pg))
		return;
	struct ssd_progress p = {.phase = pg->line, .done = -1.0,
				 .sim_ns = pg->sim_ns, .seq = pg->seq,
				 .clear = 1};
	pg->fn(pg->ctx, &p);
}
