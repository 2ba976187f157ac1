/* The progress reporter (base/progress.h) and the status line that draws
 * its reports (report/eta.h). */
#include <stdlib.h>
#include <string.h>

#include "base/progress.h"
#include "run/sim.h"
#include "report/eta.h"
#include "t.h"

/* The reports a reporter hands on, kept. */
struct seen {
	int n, clears;
	char phase[8][176];
	double done[8];
	int64_t sim[8];
	unsigned seq[8];
};

static void keep(void *ctx, const struct ssd_progress *p)
{
	struct seen *s = ctx;
	if (p->clear) {
		s->clears++;
		return;
	}
	if (s->n == 8)
		return;
	snprintf(s->phase[s->n], sizeof s->phase[0], "%s", p->phase);
	s->done[s->n] = p->done;
	s->sim[s->n] = p->sim_ns;
	s->seq[s->n++] = p->seq;
}

TEST(prog_phases_spans_and_jobs)
{
	/* nobody listens: every call is a no-op */
	ssd_prog_phase(NULL, 0, "x");
	struct ssd_prog quiet = {0};
	ssd_prog_phase(&quiet, 0, "x");
	ssd_prog_span(&quiet, 0.5, 1);
	ssd_prog_clear(&quiet);
	CHECK(!quiet.seq && !quiet.phase[0]);

	struct seen s = {0};
	struct ssd_prog pg = {.fn = keep, .ctx = &s};
	/* no phase named: the running job names it */
	ssd_prog_at(&pg, 0.25, 7, "fill");
	CHECK(s.n == 1 && !strcmp(s.phase[0], "fill") && s.done[0] == 0.25);
	ssd_prog_phase(&pg, 100, "round %d of %d", 3, 5);
	CHECK(s.n == 2 && !strcmp(s.phase[1], "round 3 of 5"));
	CHECK(s.done[1] < 0 && s.sim[1] == 100 && s.seq[1] != s.seq[0]);
	/* a run's share maps into the span of the phase it covers */
	ssd_prog_span(&pg, 0.5, 0.75);
	CHECK(s.n == 3 && s.done[2] == 0.5 && s.seq[2] == s.seq[1]);
	struct ssd_sim_progress sp = {.job = "randwrite", .done = 0.5,
				      .sim_ns = 20};
	pg.run_t0 = 1000;
	ssd_sim_prog_report(&pg, &sp);
	CHECK(s.n == 4 && s.done[3] == 0.625 && s.sim[3] == 1020);
	CHECKF(!strcmp(s.phase[3], "round 3 of 5: randwrite"), "%s", s.phase[3]);
	/* a new phase: the span is gone, the run's share is the phase's */
	ssd_prog_phase(&pg, 0, "measure");
	ssd_sim_prog_report(&pg, &sp);
	CHECK(s.n == 6 && s.done[5] == 0.5);
	ssd_prog_clear(&pg);
	CHECK(s.clears == 1 && s.n == 6);
}

/* Everything a line drew into a temporary file. */
static char *drawn(FILE *f)
{
	long n = ftell(f);
	char *buf = calloc(1, (size_t)n + 1);
	rewind(f);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n)
		buf[0] = 0;
	return buf;
}

TEST(eta_line_draws_phases_and_ends)
{
	CHECK(ssd_eta_when("auto") == SSD_ETA_AUTO);
	CHECK(ssd_eta_when("always") == SSD_ETA_ALWAYS);
	CHECK(ssd_eta_when("never") == SSD_ETA_NEVER);
	CHECK(ssd_eta_when("sometimes") == -2);
	double t = 0;
	CHECK(ssd_eta_time("500ms", 0.25, &t) == 0 && t == 0.5);
	CHECK(ssd_eta_time("100ms", 0.25, &t) == -1);
	CHECK(ssd_eta_time("soon", 0.001, &t) == -1);

	/* auto on a file that is not a terminal, and never: nothing */
	FILE *f = tmpfile();
	CHECK(f);
	struct ssd_eta e = {.when = SSD_ETA_AUTO, .label = "x"};
	CHECK(!ssd_eta_start(&e, f));
	struct ssd_prog pg = {.fn = ssd_eta_progress, .ctx = &e};
	ssd_prog_phase(&pg, 0, "fill");
	e = (struct ssd_eta){.when = SSD_ETA_NEVER};
	CHECK(!ssd_eta_start(&e, f));
	ssd_prog_phase(&pg, 0, "fill");
	ssd_eta_end(&e);
	CHECK(ftell(f) == 0);

	/* always: each new phase at once (the interval holds back the
	 * rest), erased before output, a line left open ends the output */
	e = (struct ssd_eta){.when = SSD_ETA_ALWAYS, .label = "life"};
	CHECK(ssd_eta_start(&e, f));
	ssd_prog_phase(&pg, 0, "precondition");
	ssd_prog_at(&pg, 0.5, 3 * SSD_S, NULL); /* within the interval */
	ssd_prog_phase(&pg, 90 * SSD_S, "measure");
	ssd_prog_span(&pg, 0.25, 1);
	ssd_prog_clear(&pg);
	ssd_prog_phase(&pg, 3725 * SSD_S, "endurance run");
	ssd_eta_end(&e);
	char *out = drawn(f);
	fclose(f);
	CHECK(out);
	const char *want =
		"life: [precondition][-][sim 0.00s][eta -]\033[K"
		"\rlife: [measure][-][sim 01m:30s][eta -]\033[K"
		"\r\033[K"
		"life: [endurance run][-][sim 1h:02m:05s][eta -]\033[K\n";
	CHECKF(!strcmp(out, want), "drew '%s'", out);
	free(out);
}
