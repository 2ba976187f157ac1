/*
 * ssdlab.c -- the nbdkit plugin that serves a simulated drive over NBD
 * (build/nbdkit-ssdlab-plugin.so; `ssdlab serve` starts nbdkit with it).
 *
 * nbdkit does the protocol: the handshake, option negotiation, structured
 * replies, TLS, many connections and the checking of every request's
 * range and flags.  This file only maps its callbacks onto the served
 * drive (src/serve/serve.h), which holds the data, the clock and the
 * statistics; all connections share that one drive, as they would share
 * one disk.
 *
 *   nbdkit [-U SOCKET] build/nbdkit-ssdlab-plugin.so [drive=NAME|FILE]
 *          [set=KEY=VALUE]... [seed=N] [clock=real|fast] [fast-qd=N]
 *          [client-overhead=TIME]
 *          [data=memory|FILE] [output=FILE] [format=FMT]
 *          [stats-interval=TIME stats-log=FILE] [check=N] [presets=DIR]
 *          [power-cuts=1 [power-log=FILE] [power-off=TIME]]
 *          [eta=auto|always|never] [eta-interval=TIME] [eta-newline=TIME]
 *
 * A report as `ssdlab run` writes it goes to `output` (standard output
 * by default) on SIGUSR1 and when nbdkit exits.  With power-cuts, SIGUSR2
 * cuts the drive's power (docs/power-loss.md).  On a terminal (eta=auto)
 * the reporter thread keeps a status line on stderr: the requests
 * served and the simulated time (report/eta.h).
 */
#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/config.h"
#include "base/ofile.h"
#include "base/util.h"
#include "machine/snapshot.h"
#include "methods/preset.h"
#include "report/eta.h"
#include "report/report.h"
#include "serve/serve.h"

#define THREAD_MODEL NBDKIT_THREAD_MODEL_PARALLEL

#define MAX_SETS 256

static const char *drive = "default";
static int drive_given;    /* drive= was given (with snapshot=: compared) */
static const char *sets[MAX_SETS];
static int nsets;
static struct ssd_srv_opts opts = {.seed = 1, .clock = SSD_SRV_REAL};
static const char *presets;
static struct ssd_srv *srv;

/* SIGUSR1 (a report), SIGUSR2 (a power cut) and the end wake the
 * reporter thread through this pipe. */
static int wake[2] = {-1, -1};
static pthread_t reporter;
static int reporter_on;
static atomic_int quit;

/* The status line (eta=, eta-interval=, eta-newline=), drawn by the
 * reporter thread. */
static struct ssd_eta eta = {.label = "serve"};
static struct ssd_prog eta_prog = {.fn = ssd_eta_progress, .ctx = &eta};

/* eta-interval= and eta-newline=: a time of at least min seconds (a
 * bare number is seconds); 0 or -1 after the error. */
static int eta_time(const char *key, const char *value, double min,
		    double *out)
{
	if (ssd_eta_time(value, min, out)) {
		nbdkit_error("%s=%s: wanted a time of at least %.0f ms (a bare "
			     "number is seconds)", key, value, min * 1e3);
		return -1;
	}
	return 0;
}

static int plg_config(const char *key, const char *value)
{
	if (!strcmp(key, "drive")) {
		/* a file, not a preset name: absolute, as nbdkit may change
		 * directory when it forks into the background */
		drive = strchr(value, '/') || strstr(value, ".ini")
			? nbdkit_absolute_path(value) : value;
		if (!drive)
			return -1;
		drive_given = 1;
	} else if (!strcmp(key, "set")) {
		if (!strchr(value, '=') || value[0] == '=') {
			nbdkit_error("set=%s: wanted set=KEY=VALUE", value);
			return -1;
		}
		if (nsets == MAX_SETS) {
			nbdkit_error("set=%s: more than %d set= parameters", value, MAX_SETS);
			return -1;
		}
		sets[nsets++] = value;
	} else if (!strcmp(key, "seed")) {
		if (ssd_parse_u64(value, &opts.seed)) {
			nbdkit_error("seed=%s: wanted a number", value);
			return -1;
		}
	} else if (!strcmp(key, "clock")) {
		if (!strcmp(value, "real")) {
			opts.clock = SSD_SRV_REAL;
		} else if (!strcmp(value, "fast")) {
			opts.clock = SSD_SRV_FAST;
		} else {
			nbdkit_error("clock=%s: wanted real or fast", value);
			return -1;
		}
	} else if (!strcmp(key, "fast-qd")) {
		uint64_t v;
		if (ssd_parse_u64(value, &v) || v < 1 || v > 65536) {
			nbdkit_error("fast-qd=%s: wanted a number from 1 to 65536", value);
			return -1;
		}
		opts.fast_qd = (uint32_t)v;
	} else if (!strcmp(key, "client-overhead")) {
		if (ssd_parse_time(value, 1000, &opts.client_overhead) ||
		    opts.client_overhead < 0 || opts.client_overhead > 1000000000) {
			nbdkit_error("client-overhead=%s: wanted a time up to 1s (a bare "
				     "number is microseconds)", value);
			return -1;
		}
	} else if (!strcmp(key, "data")) {
		opts.data = strcmp(value, "memory") ? nbdkit_absolute_path(value) : value;
		if (!opts.data)
			return -1;
	} else if (!strcmp(key, "output")) {
		if (!(opts.output = nbdkit_absolute_path(value)))
			return -1;
	} else if (!strcmp(key, "format")) {
		if (ssd_output_formats(value, &opts.formats)) {
			nbdkit_error("format=%s: wanted normal, json, json+, terse or a "
				     "comma list of them", value);
			return -1;
		}
	} else if (!strcmp(key, "stats-interval")) {
		if (ssd_parse_time(value, 1000000000, &opts.stats_interval) ||
		    opts.stats_interval < 10000000) {
			nbdkit_error("stats-interval=%s: wanted a time of at least 10ms "
				     "(a bare number is seconds)", value);
			return -1;
		}
	} else if (!strcmp(key, "stats-log")) {
		if (!(opts.stats_log = nbdkit_absolute_path(value)))
			return -1;
	} else if (!strcmp(key, "check")) {
		uint64_t v;
		if (ssd_parse_u64(value, &v) || v > UINT32_MAX) {
			nbdkit_error("check=%s: wanted a number of GC victims", value);
			return -1;
		}
		opts.check_every = (uint32_t)v;
	} else if (!strcmp(key, "power-cuts")) {
		int v = nbdkit_parse_bool(value);
		if (v < 0)
			return -1;
		opts.power_cuts = v;
	} else if (!strcmp(key, "power-log")) {
		if (!(opts.power_log = nbdkit_absolute_path(value)))
			return -1;
	} else if (!strcmp(key, "power-off")) {
		if (ssd_parse_time(value, 1000000000, &opts.power_off) || opts.power_off < 0) {
			nbdkit_error("power-off=%s: wanted a time (a bare number is seconds)",
				     value);
			return -1;
		}
	} else if (!strcmp(key, "snapshot")) {
		if (!(opts.snapshot = nbdkit_absolute_path(value)))
			return -1;
	} else if (!strcmp(key, "eta")) {
		if ((eta.when = ssd_eta_when(value)) == -2) {
			nbdkit_error("eta=%s: wanted auto, always or never", value);
			return -1;
		}
	} else if (!strcmp(key, "eta-interval")) {
		return eta_time(key, value, 0.25, &eta.interval);
	} else if (!strcmp(key, "eta-newline")) {
		return eta_time(key, value, 0.001, &eta.newline);
	} else if (!strcmp(key, "presets")) {
		if (!(presets = nbdkit_absolute_path(value)))
			return -1;
	} else {
		nbdkit_error("unknown parameter '%s' (see nbdkit ssdlab --help)", key);
		return -1;
	}
	return 0;
}

static struct ssd_config cfg;
static struct ssd_ofile *report_of; /* nbdkit's standard output, as it
                                       started (base/ofile.h) ... */
static FILE *report_out;            /* ... and its stream */
static int file_failed;    /* a file could not be written: exit 1 */

/* The drive and its files are made here, before nbdkit listens or runs
 * --run's command, so that anything wrong ends nbdkit at once with its
 * message (after it forks, a failure would leave --run's client waiting
 * on a socket nobody serves).  With --run the drive is thus built before
 * nbdkit forks the server: the parent keeps a copy-on-write image of it. */
static int plg_config_complete(void)
{
	char err[640], buf[4096];
	const char *dir = presets ? presets : ssd_preset_dir(NULL, buf, sizeof buf);
	/* the drive named, or a snapshot's own (which set= may change
	 * only to be refused when it is loaded) */
	int rc = opts.snapshot && !drive_given
		 ? ssd_snapshot_drive(opts.snapshot, &cfg, err, sizeof err) ||
		   ssd_preset_sets(sets, nsets, &cfg, err, sizeof err)
		 : ssd_preset_load(dir, drive, sets, nsets, &cfg, err, sizeof err);
	if (rc) {
		nbdkit_error("%s", err);
		return -1;
	}
	if (opts.stats_interval && !opts.stats_log) {
		nbdkit_error("stats-interval needs stats-log=FILE");
		return -1;
	}
	opts.cfg = &cfg;
	opts.out = report_out;
	if (ssd_srv_open(&opts, &srv, err, sizeof err)) {
		nbdkit_error("%s", err);
		return -1;
	}
	return 0;
}

static void exit_status(void)
{
	if (file_failed)
		_exit(EXIT_FAILURE);
}

/* nbdkit points standard output at /dev/null once it has loaded the
 * plugin; the report without an output file goes to the standard output
 * nbdkit was started with, kept here. */
static void plg_load(void)
{
	int fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (fd >= 0 && ssd_ofile_fdopen(fd, "standard output", 0, &report_of))
		close(fd);
	report_out = report_of ? ssd_ofile_stream(report_of) : NULL;
	/* nbdkit has no way for a plugin to set its exit status: a file
	 * that could not be written ends the process with status 1 once
	 * nbdkit is done (the plugin is linked with -z nodelete, so that
	 * this runs at the process's exit, not when nbdkit unloads it) */
	atexit(exit_status);
}

static void on_signal(int sig)
{
	char c = sig == SIGUSR2 ? 'p' : 'r';
	if (write(wake[1], &c, 1) < 0) {
		/* the pipe is full: reports are already on their way */
	}
}

/* Every 100 ms: bring the drive up to now (idle time is background
 * work) and write the series; on SIGUSR1: the report. */
static void *reporter_main(void *arg)
{
	(void)arg;
	for (;;) {
		struct pollfd p = {.fd = wake[0], .events = POLLIN};
		int n = poll(&p, 1, 100);
		if (atomic_load(&quit)) {
			ssd_eta_end(&eta);
			return NULL;
		}
		char buf[64];
		ssize_t got = n > 0 ? read(wake[0], buf, sizeof buf) : 0;
		/* each SIGUSR2 since the last look: a power cut; any number of
		 * SIGUSR1: one report */
		int report = 0;
		for (ssize_t i = 0; i < got; i++) {
			if (buf[i] == 'p') {
				uint64_t lost = 0;
				int64_t rec = 0;
				int rc = ssd_srv_power_cut(srv, &lost, &rec);
				ssd_prog_clear(&eta_prog); /* a message follows */
				if (rc)
					nbdkit_error("%s", ssd_srv_error(srv));
				else
					fprintf(stderr, "ssdlab: power cut: %llu pages lost, "
						"recovered in %.3f ms\n",
						(unsigned long long)lost, (double)rec / 1e6);
			} else if (buf[i] == 'r') {
				report = 1;
			}
		}
		if (report) {
			ssd_prog_clear(&eta_prog); /* the report may follow */
			if (ssd_srv_report(srv))
				nbdkit_error("%s", ssd_srv_error(srv));
		}
		if (ssd_srv_tick(srv))
			nbdkit_debug("%s", ssd_srv_error(srv));
		if (eta.f) {
			uint64_t nreq;
			int64_t sim;
			char what[48];
			ssd_srv_progress(srv, &nreq, &sim);
			snprintf(what, sizeof what, "%llu requests",
				 (unsigned long long)nreq);
			ssd_prog_at(&eta_prog, -1.0, sim, what);
		}
		/* a log that could not be written: said once, as it happens */
		char ferr[400];
		if (!file_failed && ssd_srv_file_error(srv, ferr, sizeof ferr)) {
			nbdkit_error("%s", ferr);
			file_failed = 1;
		}
	}
}

/* In the process that serves (nbdkit forks into the background, or with
 * --run into a child, after get_ready): the reporter thread. */
/* Before nbdkit forks: a SIGUSR1 to a process that does not serve (the
 * parent of --run's server) is ignored rather than fatal. */
static int plg_get_ready(void)
{
	signal(SIGUSR1, SIG_IGN);
	signal(SIGUSR2, SIG_IGN);
	return 0;
}

static int plg_after_fork(void)
{
	ssd_srv_start_clock(srv); /* the real clock starts as it serves */
	if (ssd_eta_start(&eta, stderr))
		ssd_prog_phase(&eta_prog, 0, "serving");
	if (pipe2(wake, O_NONBLOCK | O_CLOEXEC)) {
		nbdkit_error("pipe: %m");
		return -1;
	}
	struct sigaction sa = {.sa_handler = on_signal, .sa_flags = SA_RESTART};
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) ||
	    (opts.power_cuts && sigaction(SIGUSR2, &sa, NULL))) {
		nbdkit_error("sigaction: %m");
		return -1;
	}
	int rc = pthread_create(&reporter, NULL, reporter_main, NULL);
	if (rc) {
		nbdkit_error("pthread_create: %s", strerror(rc));
		return -1;
	}
	reporter_on = 1;
	return 0;
}

/* After the last connection: the final report. */
static void plg_cleanup(void)
{
	if (reporter_on) {
		atomic_store(&quit, 1);
		char c = 'q';
		if (write(wake[1], &c, 1) < 0) {
			/* full: the reporter wakes within 100 ms anyway */
		}
		pthread_join(reporter, NULL);
		reporter_on = 0;
	}
	if (srv) {
		/* what the data took: the figure users size a server by */
		uint64_t pages, bytes;
		ssd_srv_store_usage(srv, &pages, &bytes);
		if (opts.data && strcmp(opts.data, "memory"))
			fprintf(stderr, "ssdlab: data store: %llu bytes allocated in %s\n",
				(unsigned long long)bytes, opts.data);
		else
			fprintf(stderr, "ssdlab: data store: %llu pages of 4 KiB held, "
				"%llu bytes of memory\n", (unsigned long long)pages,
				(unsigned long long)bytes);
		char ferr[400];
		int told = file_failed && ssd_srv_file_error(srv, ferr, sizeof ferr);
		if (ssd_srv_close(srv)) {
			/* a file already said is not said again */
			if (!told || strcmp(ferr, ssd_srv_error(srv)))
				nbdkit_error("%s", ssd_srv_error(srv));
			file_failed = 1;
		}
	}
	srv = NULL;
	char err[300];
	if (report_of && ssd_ofile_commit(report_of, err, sizeof err) &&
	    !file_failed) { /* (a report that failed has said it) */
		nbdkit_error("%s", err);
		file_failed = 1;
	}
	report_of = NULL;
}

/* Every connection is a client of the one drive, with its own news of
 * power cuts (ssd_srv_conn: its next flush after a lossy cut fails). */
static void *plg_open(int readonly)
{
	(void)readonly;
	struct ssd_srv_conn *cn = malloc(sizeof *cn);
	if (!cn) {
		nbdkit_error("out of memory");
		return NULL;
	}
	ssd_srv_conn_init(srv, cn);
	return cn;
}

static void plg_close(void *h)
{
	free(h);
}

static int64_t plg_get_size(void *h)
{
	return (int64_t)ssd_srv_size(srv);
}

static int plg_is_rotational(void *h)
{
	return cfg.type == SSD_TYPE_HDD;
}

static int plg_can_trim(void *h)
{
	return ssd_srv_can_trim(srv);
}

static int plg_yes(void *h)
{
	return 1;
}

static int plg_can_fua(void *h)
{
	return NBDKIT_FUA_NATIVE;
}

/* A fast zero must not be slower than writing: it is, when it becomes a
 * TRIM of whole units (ssd_srv_trim_unit). */
static int plg_can_fast_zero(void *h)
{
	return ssd_srv_can_trim(srv);
}

static int plg_block_size(void *h, uint32_t *min, uint32_t *pref, uint32_t *max)
{
	*min = 1;
	*pref = 4096;
	*max = 64 << 20; /* nbdkit's largest data request */
	return 0;
}

/* nbdkit sends the errno set here to the client (EROFS as NBD's EPERM,
 * ENOSPC, EIO...), and logs the message. */
static int answer(int rc)
{
	if (!rc)
		return 0;
	nbdkit_error("%s", ssd_srv_error(srv));
	nbdkit_set_error(-rc);
	return -1;
}

static int plg_pread(void *h, void *buf, uint32_t count, uint64_t off,
			uint32_t flags)
{
	return answer(ssd_srv_read(srv, buf, count, off));
}

static int plg_pwrite(void *h, const void *buf, uint32_t count, uint64_t off,
			 uint32_t flags)
{
	return answer(ssd_srv_write(srv, buf, count, off,
				    flags & NBDKIT_FLAG_FUA ? SSD_SRV_FUA : 0));
}

static int plg_flush(void *h, uint32_t flags)
{
	return answer(ssd_srv_flush(srv, h));
}

static int plg_trim(void *h, uint32_t count, uint64_t off, uint32_t flags)
{
	return answer(ssd_srv_trim(srv, count, off,
				   flags & NBDKIT_FLAG_FUA ? SSD_SRV_FUA : 0));
}

static int plg_zero(void *h, uint32_t count, uint64_t off, uint32_t flags)
{
	int trim = (flags & NBDKIT_FLAG_MAY_TRIM) && ssd_srv_can_trim(srv);
	/* fast only as a TRIM of whole units (4 KiB pages; an MFT machine's
	 * blocks): parts of them are written */
	uint32_t u = ssd_srv_trim_unit(srv);
	if ((flags & NBDKIT_FLAG_FAST_ZERO) && (!trim || off % u || count % u)) {
		nbdkit_set_error(ENOTSUP);
		return -1;
	}
	return answer(ssd_srv_zero(srv, count, off,
				   (flags & NBDKIT_FLAG_FUA ? SSD_SRV_FUA : 0) |
				   (trim ? SSD_SRV_MAY_TRIM : 0)));
}

/* 1 when nbdkit refuses the extent (it has set the error itself). */
static int add_extent(void *ctx, uint64_t off, uint64_t len, int zero)
{
	return nbdkit_add_extent(ctx, off, len,
				 zero ? NBDKIT_EXTENT_HOLE | NBDKIT_EXTENT_ZERO : 0)
		? 1 : 0;
}

static int plg_extents(void *h, uint32_t count, uint64_t off, uint32_t flags,
			  struct nbdkit_extents *e)
{
	int rc = ssd_srv_extents(srv, off, count, add_extent, e);
	if (rc > 0)
		return -1;
	return answer(rc);
}

static void plg_dump_plugin(void)
{
	printf("ssdlab_version=%s\n", SSDLAB_VERSION);
}

static struct nbdkit_plugin plugin = {
	.name = "ssdlab",
	.longname = "ssdlab: a simulated flash SSD (or hard disk) over NBD",
	.version = SSDLAB_VERSION,
	.description =
		"Serves a simulated drive: its data is real, its latencies, GC and wear\n"
		"are the model's.  drive=NAME|FILE set=KEY=VALUE... seed=N\n"
		"clock=real|fast fast-qd=N client-overhead=TIME data=memory|FILE output=FILE format=FMT\n"
		"stats-interval=TIME stats-log=FILE check=N presets=DIR\n"
		"power-cuts=1 power-log=FILE power-off=TIME snapshot=FILE\n"
		"eta=auto|always|never eta-interval=TIME eta-newline=TIME\n"
		"(see docs/serve.md; `ssdlab serve` starts nbdkit with this plugin)",
	.config = plg_config,
	.config_help =
		"drive=NAME|FILE        drive preset or file (default: default)\n"
		"set=KEY=VALUE          override a drive key (repeatable)\n"
		"seed=N                 seed of the drive (default 1)\n"
		"clock=real|fast        simulated time is wall time, or runs free\n"
		"fast-qd=N              the fast clock's closed-loop depth (1)\n"
		"client-overhead=TIME   real clock: replies this much early (the\n"
		"                       client stack's round trip; bare number: us)\n"
		"data=memory|FILE       where the data lives (default memory)\n"
		"output=FILE            report file (default standard output)\n"
		"format=FMT             normal, json, json+, terse, or a list\n"
		"stats-interval=TIME    a row of the series every TIME\n"
		"stats-log=FILE         the series (CSV)\n"
		"check=N                FTL invariant checker every N GC victims\n"
		"presets=DIR            the preset directory\n"
		"power-cuts=1           SIGUSR2 cuts the power (the drive recovers)\n"
		"power-log=FILE         each cut's lost pages (CSV)\n"
		"power-off=TIME         how long the power stays off (default 0)\n"
		"snapshot=FILE          serve the drive saved in FILE (ssdlab run\n"
		"                       --save-snapshot) instead of a fresh one\n"
		"eta=auto|always|never  a status line on stderr (auto: on a terminal)\n"
		"eta-interval=TIME      how often it is updated (default 1s)\n"
		"eta-newline=TIME       a new line every TIME instead of in place",
	.load = plg_load,
	.config_complete = plg_config_complete,
	.magic_config_key = "drive",
	.get_ready = plg_get_ready,
	.after_fork = plg_after_fork,
	.cleanup = plg_cleanup,
	.open = plg_open,
	.close = plg_close,
	.get_size = plg_get_size,
	.block_size = plg_block_size,
	.can_write = plg_yes,
	.can_flush = plg_yes,
	.is_rotational = plg_is_rotational,
	.can_trim = plg_can_trim,
	.can_zero = plg_yes,
	.can_fast_zero = plg_can_fast_zero,
	.can_fua = plg_can_fua,
	.can_multi_conn = plg_yes,
	.can_extents = plg_yes,
	.pread = plg_pread,
	.pwrite = plg_pwrite,
	.flush = plg_flush,
	.trim = plg_trim,
	.zero = plg_zero,
	.extents = plg_extents,
	.dump_plugin = plg_dump_plugin,
	.errno_is_preserved = 0,
};

NBDKIT_REGISTER_PLUGIN(plugin)
