/*
 * powercheck.c -- a client's check of `ssdlab serve --power-cuts`, from
 * the client's side of the wire, as fio's verify_state_save and crash
 * tests check a real drive.
 *
 * It writes random pages of a region at a queue depth, with a flush now
 * and then and some writes FUA, cutting the server's power (SIGUSR2)
 * while the writes are in flight; after each cut it waits for the drive
 * to come back, drains, reads the region back and checks each page
 * against what it was promised:
 *
 *   - a page holds one of the contents written to it (or zeros before
 *     the first), whole: never a mix;
 *   - never one older than the newest write a successful flush covered
 *     (acknowledged before the flush was sent) or a successful FUA
 *     write made durable: that would be a flushed loss;
 *   - older than its newest acknowledged write only where the server's
 *     power log lists the page for this cut (the cut lost the write);
 *   - a cut that lost pages is reported to the connection it caught:
 *     every flush of it fails with EIO from then on (and the client
 *     counts on no write acknowledged before such an answer); a new
 *     connection reads the pages back and flushes.
 *
 * Each page's content names it and its version (a 16-byte header
 * repeated through the 4 KiB), so a read says exactly which write it
 * holds.  Two writes to one page are never in flight together, so a
 * page's versions are ordered.  Written with libnbd's asynchronous calls
 * (a hand-written loop: the check needs to know exactly what was in
 * flight, acknowledged and flushed, which no load tool reports).
 *
 *   powercheck URI --pid PID --err FILE --power-log FILE [--qd N]
 *              [--cuts N] [--region BYTES] [--flush-every N]
 *              [--fua-pct N] [--seed N] [--allow-flushed-loss]
 *
 * PID is the server's (nbdkit's) process, FILE its standard error
 * (where it says "power cut: N pages lost") and the power log its
 * --power-log CSV.  Prints one line of figures; exits 0 when every
 * check held, 1 when one did not (each named on standard error), 2 on
 * a usage or connection error.  --allow-flushed-loss: a drive whose
 * paired pages are unprotected loses flushed data by design; count it,
 * do not fail on it.
 */
#include <errno.h>
#include <inttypes.h>
#include <libnbd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define PG 4096u
#define MAGIC 0x50445353u /* "SSDP" */
#define MAX_RUN 4         /* pages a write may span */

struct page {
	uint32_t issued;   /* newest version sent */
	uint32_t ok;       /* newest version acknowledged */
	uint32_t promised; /* newest version a flush or FUA made durable */
	uint8_t busy;      /* a write of it is in flight */
};

/* A command in flight: a write of n pages from p, versions v.., or a
 * flush that covers the writes acknowledged before it was sent. */
struct cmd {
	int flush, fua;
	uint32_t p, n;
	uint32_t v[MAX_RUN];
	uint64_t covers;   /* a flush: acknowledgements before it */
	uint8_t *buf;
};

/* Acknowledged writes not yet covered by a flush, in order. */
struct acked {
	uint64_t seq;
	uint32_t p, v;
};

static struct {
	struct nbd_handle *h;
	pid_t pid;
	const char *errf, *plog;
	uint32_t qd, cuts, flush_every, fua_pct, npages;
	int allow_flushed_loss;
	uint64_t rng;
	struct page *pg;
	struct acked *aq;
	size_t aq_head, aq_n, aq_cap;
	uint64_t acks;
	uint32_t in_flight;
	uint64_t writes, writes_ok, writes_eio, fua_ok, flushes_ok, flushes_eio;
	uint64_t cut_flush_eio;   /* flushes failed since the latest cut */
	uint64_t listed, lost_reported, flushed_lost, unlisted, torn, never_told;
	uint64_t other_errors;
	int bad;
} S;

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("powercheck: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

static void violation(const char *fmt, ...)
{
	va_list ap;
	S.bad++;
	if (S.bad > 20)
		return;
	va_start(ap, fmt);
	fputs("powercheck: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static uint64_t rnd(void)
{
	S.rng ^= S.rng << 13;
	S.rng ^= S.rng >> 7;
	S.rng ^= S.rng << 17;
	return S.rng;
}

static void fill(uint8_t *b, uint32_t p, uint32_t v)
{
	uint8_t h[16];
	uint32_t m = MAGIC;
	uint64_t v64 = v;
	memcpy(h, &m, 4);
	memcpy(h + 4, &p, 4);
	memcpy(h + 8, &v64, 8);
	for (unsigned i = 0; i < PG; i += 16)
		memcpy(b + i, h, 16);
}

/* The version a page read back holds: 0 for zeros, -1 for anything
 * that is not one whole content of this page. */
static int64_t version_of(const uint8_t *b, uint32_t p)
{
	static const uint8_t zero[PG];
	if (!memcmp(b, zero, PG))
		return 0;
	uint32_t m, q;
	uint64_t v;
	memcpy(&m, b, 4);
	memcpy(&q, b + 4, 4);
	memcpy(&v, b + 8, 8);
	if (m != MAGIC || q != p || !v || v > UINT32_MAX)
		return -1;
	for (unsigned i = 16; i < PG; i += 16)
		if (memcmp(b + i, b, 16))
			return -1;
	return (int64_t)v;
}

static void acked_push(uint32_t p, uint32_t v)
{
	if (S.aq_head + S.aq_n == S.aq_cap) {
		if (S.aq_head) {
			memmove(S.aq, S.aq + S.aq_head, S.aq_n * sizeof *S.aq);
			S.aq_head = 0;
		} else {
			S.aq_cap = S.aq_cap ? 2 * S.aq_cap : 1024;
			S.aq = realloc(S.aq, S.aq_cap * sizeof *S.aq);
			if (!S.aq)
				die("out of memory");
		}
	}
	S.aq[S.aq_head + S.aq_n++] = (struct acked){S.acks, p, v};
}

static int done_cb(void *user, int *error)
{
	struct cmd *c = user;
	S.in_flight--;
	if (c->flush) {
		if (!*error) {
			S.flushes_ok++;
			/* what was acknowledged before it was sent is durable */
			while (S.aq_n && S.aq[S.aq_head].seq <= c->covers) {
				struct acked *a = &S.aq[S.aq_head];
				if (S.pg[a->p].promised < a->v)
					S.pg[a->p].promised = a->v;
				S.aq_head++;
				S.aq_n--;
			}
		} else if (*error == EIO) {
			/* told that a cut may have taken what was not yet
			 * durable: as a careful client treats an fsync error,
			 * nothing acknowledged so far is promised by a later
			 * flush (the cut came at some time before this answer) */
			S.flushes_eio++;
			S.cut_flush_eio++;
			S.aq_head = S.aq_n = 0;
		} else {
			S.other_errors++;
			violation("flush failed: %s", strerror(*error));
		}
	} else {
		for (uint32_t i = 0; i < c->n; i++) {
			struct page *g = &S.pg[c->p + i];
			g->busy = 0;
			if (*error)
				continue;
			g->ok = c->v[i];
			S.acks++;
			if (c->fua) {
				if (g->promised < c->v[i])
					g->promised = c->v[i];
			} else {
				acked_push(c->p + i, c->v[i]);
			}
		}
		if (!*error) {
			S.writes_ok++;
			S.fua_ok += c->fua;
		} else if (*error == EIO) {
			S.writes_eio++;
		} else {
			S.other_errors++;
			violation("write at page %u failed: %s", c->p, strerror(*error));
		}
	}
	*error = 0;
	free(c->buf);
	free(c);
	return 1;
}

/* One command: a flush every flush_every writes, else a write of 1 to
 * MAX_RUN free pages (FUA for fua_pct of them).  0 when every page tried
 * was busy. */
static int issue(void)
{
	struct cmd *c = calloc(1, sizeof *c);
	if (!c)
		die("out of memory");
	nbd_completion_callback cb = {.callback = done_cb, .user_data = c};
	if (S.flush_every && rnd() % S.flush_every == 0) {
		c->flush = 1;
		c->covers = S.acks;
		S.in_flight++;
		if (nbd_aio_flush(S.h, cb, 0) < 0)
			die("flush: %s", nbd_get_error());
		return 1;
	}
	uint32_t n = rnd() % 4 ? 1 : 1 + (uint32_t)(rnd() % MAX_RUN);
	uint32_t p = (uint32_t)(rnd() % S.npages);
	if (p + n > S.npages)
		n = S.npages - p;
	for (uint32_t i = 0; i < n; i++) {
		if (S.pg[p + i].busy) {
			free(c);
			return 0;
		}
	}
	c->p = p;
	c->n = n;
	c->fua = rnd() % 100 < S.fua_pct;
	c->buf = malloc((size_t)n * PG);
	if (!c->buf)
		die("out of memory");
	for (uint32_t i = 0; i < n; i++) {
		struct page *g = &S.pg[p + i];
		g->busy = 1;
		c->v[i] = ++g->issued;
		fill(c->buf + (size_t)i * PG, p + i, c->v[i]);
	}
	S.in_flight++;
	S.writes++;
	if (nbd_aio_pwrite(S.h, c->buf, (size_t)n * PG, (uint64_t)p * PG, cb,
			   c->fua ? LIBNBD_CMD_FLAG_FUA : 0) < 0)
		die("write: %s", nbd_get_error());
	return 1;
}

/* The cuts the server has made, and the pages the latest lost, from its
 * standard error. */
static uint32_t cuts_seen(uint64_t *lost)
{
	FILE *f = fopen(S.errf, "r");
	if (!f)
		die("%s: %s", S.errf, strerror(errno));
	char line[512];
	uint32_t n = 0;
	while (fgets(line, sizeof line, f)) {
		const char *m = strstr(line, "ssdlab: power cut: ");
		if (m) {
			n++;
			*lost = strtoull(m + 19, NULL, 10);
		}
	}
	fclose(f);
	return n;
}

static void run_until_cut(uint32_t cut)
{
	/* a random amount of traffic, the signal, traffic until the server
	 * has cut and come back, then a little more */
	uint64_t before = 50 + rnd() % 1500, extra = rnd() % (2 * S.qd + 1);
	uint64_t issued = 0, after = 0, next_look = 0;
	int signalled = 0, seen = 0;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	S.cut_flush_eio = 0;
	while (!seen || after < extra) {
		while (S.in_flight < S.qd && (!seen || after < extra)) {
			int tries = 0;
			while (!issue() && ++tries < 64)
				;
			issued++;
			if (seen)
				after++;
			if (!signalled && issued >= before) {
				if (kill(S.pid, SIGUSR2))
					die("kill %d: %s", (int)S.pid, strerror(errno));
				signalled = 1;
			}
		}
		if (nbd_poll(S.h, -1) < 0)
			die("poll: %s", nbd_get_error());
		/* look at the server's words every 8 commands (not when the
		 * count is a multiple of 8: commands go out in bursts) */
		if (signalled && !seen && issued >= next_look) {
			next_look = issued + 8;
			uint64_t lost;
			seen = cuts_seen(&lost) >= cut;
			struct timespec t;
			clock_gettime(CLOCK_MONOTONIC, &t);
			if (t.tv_sec - t0.tv_sec > 60)
				die("cut %u: the server did not cut within 60 s", cut);
		}
	}
	while (S.in_flight)
		if (nbd_poll(S.h, -1) < 0)
			die("poll: %s", nbd_get_error());
}

/* The pages the power log lists for this cut. */
static void listed_pages(uint32_t cut, uint8_t *listed)
{
	FILE *f = fopen(S.plog, "r");
	if (!f)
		die("%s: %s", S.plog, strerror(errno));
	char line[256];
	while (fgets(line, sizeof line, f)) {
		unsigned long long k, off;
		double t;
		if (sscanf(line, "%llu,%lf,%llu,", &k, &t, &off) != 3 || k != cut)
			continue;
		if (off / PG < S.npages) {
			listed[off / PG] = 1;
			S.listed++;
		}
	}
	fclose(f);
}

static void connect_to(const char *uri)
{
	S.h = nbd_create();
	if (!S.h || nbd_connect_uri(S.h, uri) < 0)
		die("%s: %s", uri, nbd_get_error());
}

static void check_after(const char *uri, uint32_t cut)
{
	uint64_t lost = 0;
	cuts_seen(&lost);
	S.lost_reported += lost;
	/* the connection the cut caught can no longer flush */
	if (lost) {
		if (!nbd_flush(S.h, 0)) {
			S.never_told++;
			violation("cut %u lost %" PRIu64 " pages and a flush of the "
				  "connection it caught succeeded", cut, lost);
		} else if (nbd_get_errno() != EIO) {
			violation("cut %u: the flush after it: %s", cut, nbd_get_error());
		} else {
			S.flushes_eio++;
		}
	}
	/* a new connection, as a host re-attaches the drive */
	nbd_shutdown(S.h, 0);
	nbd_close(S.h);
	connect_to(uri);
	uint8_t *listed = calloc(S.npages, 1);
	uint8_t *buf = malloc(256 * PG);
	if (!listed || !buf)
		die("out of memory");
	listed_pages(cut, listed);
	for (uint32_t p0 = 0; p0 < S.npages; p0 += 256) {
		uint32_t n = S.npages - p0 < 256 ? S.npages - p0 : 256;
		if (nbd_pread(S.h, buf, (size_t)n * PG, (uint64_t)p0 * PG, 0) < 0)
			die("read back at page %u: %s", p0, nbd_get_error());
		for (uint32_t i = 0; i < n; i++) {
			uint32_t p = p0 + i;
			struct page *g = &S.pg[p];
			int64_t u = version_of(buf + (size_t)i * PG, p);
			if (u < 0 || u > g->issued) {
				S.torn++;
				violation("cut %u: page %u holds no content written to it",
					  cut, p);
				u = g->ok;
			} else if (u < g->promised) {
				S.flushed_lost++;
				if (!S.allow_flushed_loss)
					violation("cut %u: page %u holds version %" PRId64 ", "
						  "older than version %u a flush or FUA "
						  "write made durable (acknowledged %u)%s",
						  cut, p, u, g->promised, g->ok,
						  listed[p] ? "" : "; not in the power log");
			} else if (u < g->ok && !listed[p]) {
				S.unlisted++;
				violation("cut %u: page %u holds version %" PRId64 ", older "
					  "than its acknowledged %u, and the power log does "
					  "not list it", cut, p, u, g->ok);
			}
			/* later versions stay above every one issued */
			g->ok = g->promised = (uint32_t)u;
		}
	}
	free(listed);
	free(buf);
	/* what it holds now is the start of the next round, once flushed */
	if (nbd_flush(S.h, 0) < 0)
		violation("cut %u: a new connection's flush failed: %s", cut,
			  nbd_get_error());
	S.aq_head = S.aq_n = 0;
}

static uint64_t num(const char *opt, const char *v)
{
	char *end;
	errno = 0;
	unsigned long long x = strtoull(v, &end, 0);
	if (errno || end == v || *v == '-')
		die("%s %s: wanted a number", opt, v);
	if (*end == 'k' || *end == 'K')
		x <<= 10, end++;
	else if (*end == 'm' || *end == 'M')
		x <<= 20, end++;
	if (*end)
		die("%s %s: wanted a number", opt, v);
	return x;
}

int main(int argc, char **argv)
{
	const char *uri = NULL;
	uint64_t region = 16 << 20, seed = 1;
	S.qd = 16;
	S.cuts = 3;
	S.flush_every = 8;
	S.fua_pct = 5;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--allow-flushed-loss")) {
			S.allow_flushed_loss = 1;
			continue;
		}
		if (a[0] != '-') {
			uri = a;
			continue;
		}
		if (i + 1 >= argc)
			die("%s needs a value", a);
		const char *v = argv[++i];
		if (!strcmp(a, "--pid"))
			S.pid = (pid_t)num(a, v);
		else if (!strcmp(a, "--err"))
			S.errf = v;
		else if (!strcmp(a, "--power-log"))
			S.plog = v;
		else if (!strcmp(a, "--qd"))
			S.qd = (uint32_t)num(a, v);
		else if (!strcmp(a, "--cuts"))
			S.cuts = (uint32_t)num(a, v);
		else if (!strcmp(a, "--region"))
			region = num(a, v);
		else if (!strcmp(a, "--flush-every"))
			S.flush_every = (uint32_t)num(a, v);
		else if (!strcmp(a, "--fua-pct"))
			S.fua_pct = (uint32_t)num(a, v);
		else if (!strcmp(a, "--seed"))
			seed = num(a, v);
		else
			die("unknown option %s", a);
	}
	if (!uri || !S.pid || !S.errf || !S.plog)
		die("usage: powercheck URI --pid PID --err FILE --power-log FILE "
		    "[--qd N] [--cuts N] [--region BYTES] [--flush-every N] "
		    "[--fua-pct N] [--seed N] [--allow-flushed-loss]");
	if (!S.qd || S.qd > 1024 || region < PG * MAX_RUN * 2 * (uint64_t)S.qd ||
	    region / PG > UINT32_MAX)
		die("--qd 1 to 1024, and a region of at least 8 pages per command in flight");
	S.npages = (uint32_t)(region / PG);
	S.rng = seed * 0x9e3779b97f4a7c15ull + 1;
	S.pg = calloc(S.npages, sizeof *S.pg);
	if (!S.pg)
		die("out of memory");
	connect_to(uri);
	if ((uint64_t)nbd_get_size(S.h) < region)
		die("the export is smaller than --region");
	uint32_t start;
	{
		uint64_t lost;
		start = cuts_seen(&lost);
	}
	for (uint32_t k = 1; k <= S.cuts; k++) {
		run_until_cut(start + k);
		check_after(uri, start + k);
	}
	nbd_shutdown(S.h, 0);
	nbd_close(S.h);
	printf("cuts=%u writes=%" PRIu64 " acked=%" PRIu64 " eio=%" PRIu64
	       " fua_acked=%" PRIu64 " flushes_ok=%" PRIu64 " flushes_eio=%" PRIu64
	       " lost=%" PRIu64 " listed=%" PRIu64 " flushed_lost=%" PRIu64
	       " unlisted=%" PRIu64 " torn=%" PRIu64 " untold=%" PRIu64 "\n",
	       S.cuts, S.writes, S.writes_ok, S.writes_eio, S.fua_ok, S.flushes_ok,
	       S.flushes_eio, S.lost_reported, S.listed, S.flushed_lost, S.unlisted,
	       S.torn, S.never_told);
	return S.bad ? 1 : 0;
}
