/*
 * cmd_serve.c -- ssdlab serve: a simulated drive served over NBD.  The
 * options are parsed here and checked (serve_check.c) before anything
 * listens; then nbdkit runs in this process's place (exec) with ssdlab's
 * plugin (nbdkit/ssdlab.c), which loads the drive again from the same
 * words, given to it as key=value.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "cli.h"
#include "report/report.h"
#include "serve.h"

static const char serve_help[] =
	"usage: ssdlab serve [options] [-- NBDKIT-OPTION...]\n"
	"Serve a simulated drive as a network block device (NBD), so that real\n"
	"programs use it: fio's nbd engine, qemu-io, qemu-img, nbdcopy, nbdfuse\n"
	"with a file system on it, a virtual machine, the kernel's nbd-client.\n"
	"The data is real (what is written reads back; trimmed and never-written\n"
	"ranges read as zeros); the latencies, GC and wear are the model's.\n"
	"Starts nbdkit (in the foreground) with ssdlab's plugin; docs/serve.md.\n"
	"\n"
	"  --drive NAME|FILE.ini   drive preset or file (default: default)\n"
	"  --set KEY=VALUE         override a drive key (repeatable)\n"
	"  --seed N                seed of the drive (default 1)\n"
	"  --socket PATH           listen on a Unix socket\n"
	"  --port N                listen on TCP port N (default 10809)\n"
	"  --ip ADDR               the TCP address, IPv4 or IPv6 (default\n"
	"                          127.0.0.1); one that other hosts reach (not\n"
	"                          127.0.0.0/8 or ::1) needs --tls=require and a\n"
	"                          key (below), or --insecure\n"
	"  --tls off|on|require    nbdkit's TLS: refused, offered, or required of\n"
	"                          every client (with a credential below)\n"
	"  --tls-psk FILE          pre-shared keys, USERNAME:HEXKEY lines (made\n"
	"                          by 'psktool -u NAME -p FILE'): a client needs\n"
	"                          one (nbds://NAME@HOST/?tls-psk-file=FILE)\n"
	"  --tls-certificates DIR  X.509: ca-cert.pem, server-cert.pem and\n"
	"                          server-key.pem in DIR (nbdkit-tls(1)); this\n"
	"                          encrypts, but admits any client ...\n"
	"  --tls-verify-peer       ... unless it also checks the clients'\n"
	"                          certificates against ca-cert.pem\n"
	"  --insecure              serve an --ip that other hosts reach without\n"
	"                          client authentication: anyone who reaches it\n"
	"                          reads and writes the drive\n"
	"  --readonly              a read-only export (nbdkit's -r): writes,\n"
	"                          trims and zeroing fail with EPERM before they\n"
	"                          reach the drive\n"
	"  --clock real|fast       real (default): simulated time is wall time,\n"
	"                          each reply waits for its simulated completion\n"
	"                          and idle time on the wire is idle time for\n"
	"                          background GC; fast: no waiting, simulated\n"
	"                          time runs as fast as the requests come\n"
	"  --fast-qd N             the fast clock serves the requests as a closed\n"
	"                          loop of N commands (default 1)\n"
	"  --client-overhead TIME  the real clock replies this much before each\n"
	"                          simulated completion: the client stack's own\n"
	"                          round trip (its latency at --clock fast), so\n"
	"                          that what the client measures is the drive's\n"
	"                          (default 0; a bare number is microseconds)\n"
	"  --data memory|FILE      where the data lives: memory (default; pages\n"
	"                          allocated as written, freed on TRIM) or a\n"
	"                          new or empty sparse file (holes punched)\n"
	"  --output FILE           the report (as 'ssdlab run' writes it) on\n"
	"                          SIGUSR1 and at exit, to FILE (rewritten\n"
	"                          each time) instead of standard output\n"
	"  --output-format FMT     normal (default), json, json+, terse or a list\n"
	"  --stats-interval TIME   a row of counters every TIME of simulated time\n"
	"                          (WAF, GC copies, free blocks, IOPS; at least\n"
	"                          10ms; a bare number is seconds) ...\n"
	"  --stats-log FILE        ... into FILE (CSV; default serve-stats.csv)\n"
	"  --threads N             nbdkit's threads per connection, the deepest\n"
	"                          queue one client gets (default 64)\n"
	"  --run CMD               run CMD with the drive served (nbdkit's\n"
	"                          captive mode: $uri, $unixsocket in CMD), stop\n"
	"                          when it exits and exit with its status\n"
	"  --check N               run the FTL invariant checker after every\n"
	"                          N garbage-collected blocks, every program\n"
	"                          failure, retirement and turn to read-only,\n"
	"                          and check the timing of every flash\n"
	"                          operation and command (slow; for tests)\n"
	"  --power-cuts            allow power cuts: SIGUSR2 cuts the power,\n"
	"                          the drive recovers, and the data the cut\n"
	"                          lost reads as it does after the cut (older\n"
	"                          content or zeros); requests in flight fail\n"
	"                          with EIO (docs/power-loss.md)\n"
	"  --power-log FILE        ... each cut's lost pages, as CSV\n"
	"  --power-off TIME        ... the time the power stays off (default 0;\n"
	"                          a bare number is seconds)\n"
	"  --snapshot FILE         serve the drive saved in FILE (ssdlab run\n"
	"                          --save-snapshot) instead of a fresh one: its\n"
	"                          state, not its data (the store starts empty:\n"
	"                          zeros until written; docs/snapshots.md)\n"
	CLI_ETA_HELP
	"  --verbose               nbdkit's debug messages\n"
	"  --help                  this text\n"
	"\n"
	"Stop it with SIGTERM or Ctrl-C: the report is written as it exits.\n"
	"SIGUSR1 writes the report; with --power-cuts, SIGUSR2 cuts the power.\n"
	"Environment: SSDLAB_NBDKIT (the nbdkit program), SSDLAB_NBDKIT_PLUGIN\n"
	"(the plugin, found beside this binary otherwise).\n"
	"\n"
	"Options after '--' go to nbdkit unchecked, except where it listens and\n"
	"TLS, which are refused there.\n"
	"\n"
	"Exit status: nbdkit's (with --run, the command's); 2 for a usage or\n"
	"input error (bad options, drive or files, an address this host does\n"
	"not have, a port in use, TLS credentials missing), found before\n"
	"nbdkit starts.\n";

static int serve_format(struct cli *o, const char *val)
{
	(void)o;
	unsigned f;
	if (ssd_output_formats(val, &f))
		return cli_usage("--output-format needs normal, json, json+, terse or "
				 "a comma list of them, got '%s'", val);
	return 0;
}

/* The plugin: $SSDLAB_NBDKIT_PLUGIN, else beside the binary (build/),
 * in build/ beside it (the checkout's ./ssdlab), or installed in
 * ../lib/ssdlab/.  NULL if none is readable. */
static const char *serve_plugin(void)
{
	static char path[PATH_MAX + 64];
	const char *env = getenv("SSDLAB_NBDKIT_PLUGIN");
	if (env && *env) {
		if (access(env, R_OK)) {
			fprintf(stderr, "%s: SSDLAB_NBDKIT_PLUGIN=%s: %s\n", cli_prog, env,
				strerror(errno));
			exit(EXIT_USAGE);
		}
		return env;
	}
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return NULL;
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = 0;
	static const char *const rel[] = {"", "/build", "/../lib/ssdlab"};
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof path, "%s%s/nbdkit-ssdlab-plugin.so", exe, rel[i]);
		if (!access(path, R_OK))
			return path;
	}
	return NULL;
}

enum { S_VERBOSE, S_POWER_CUTS, S_READONLY, S_TLS_VERIFY, S_INSECURE,
       S_SOCKET, S_PORT, S_IP, S_CLOCK, S_FAST_QD, S_DATA, S_STATS_INTERVAL,
       S_STATS_LOG, S_THREADS, S_RUN, S_CHECK, S_OVERHEAD, S_POWER_LOG,
       S_POWER_OFF, S_TLS, S_TLS_CERTS, S_TLS_PSK, S_SNAPSHOT };

static const struct cli_opt serve_opts[] = {
	{"--verbose", NULL, 0, S_VERBOSE},
	{"--power-cuts", NULL, 0, S_POWER_CUTS},
	{"--readonly", "-r", 0, S_READONLY},
	{"--tls-verify-peer", NULL, 0, S_TLS_VERIFY},
	{"--insecure", NULL, 0, S_INSECURE},
	{"--socket", NULL, 1, S_SOCKET},
	{"--port", NULL, 1, S_PORT},
	{"--ip", NULL, 1, S_IP},
	{"--clock", NULL, 1, S_CLOCK},
	{"--fast-qd", NULL, 1, S_FAST_QD},
	{"--data", NULL, 1, S_DATA},
	{"--stats-interval", NULL, 1, S_STATS_INTERVAL},
	{"--stats-log", NULL, 1, S_STATS_LOG},
	{"--threads", NULL, 1, S_THREADS},
	{"--run", NULL, 1, S_RUN},
	{"--check", NULL, 1, S_CHECK},
	{"--client-overhead", NULL, 1, S_OVERHEAD},
	{"--power-log", NULL, 1, S_POWER_LOG},
	{"--power-off", NULL, 1, S_POWER_OFF},
	{"--tls", NULL, 1, S_TLS},
	{"--tls-certificates", NULL, 1, S_TLS_CERTS},
	{"--tls-psk", NULL, 1, S_TLS_PSK},
	{"--snapshot", NULL, 1, S_SNAPSHOT},
	{NULL, NULL, 0, 0}};

/* An option of serve's own (its value checked as far as it goes alone;
 * serve_check looks at them together), or an argument: it takes none. */
static int serve_opt(void *ctx, int id, const char *val)
{
	struct serve_args *s = ctx;
	uint64_t v;
	int64_t ns;
	switch (id) {
	case S_VERBOSE: s->verbose = 1; return CLI_GO;
	case S_POWER_CUTS: s->power_cuts = 1; return CLI_GO;
	case S_READONLY: s->readonly = 1; return CLI_GO;
	case S_TLS_VERIFY: s->tls_verify = 1; return CLI_GO;
	case S_INSECURE: s->insecure = 1; return CLI_GO;
	case S_SOCKET: s->sock = val; return CLI_GO;
	case S_PORT:
		if (ssd_parse_u64(val, &v) || v < 1 || v > 65535)
			return cli_usage("--port needs a port number from 1 to 65535, got '%s'", val);
		s->port = val;
		return CLI_GO;
	case S_IP: s->ip = val; s->ip_set = 1; return CLI_GO;
	case S_CLOCK:
		if (strcmp(val, "real") && strcmp(val, "fast"))
			return cli_usage("--clock needs real or fast, got '%s'", val);
		s->clock = val;
		return CLI_GO;
	case S_FAST_QD:
		if (ssd_parse_u64(val, &s->fast_qd) || s->fast_qd < 1 || s->fast_qd > 65536)
			return cli_usage("--fast-qd needs a number from 1 to 65536, got '%s'", val);
		return CLI_GO;
	case S_DATA:
		if (!*val)
			return cli_usage("--data needs memory or a file name");
		s->data = val;
		return CLI_GO;
	case S_STATS_INTERVAL:
		if (ssd_parse_time(val, 1000000000, &ns) || ns < 10000000)
			return cli_usage("--stats-interval needs a time of at least 10ms (like 1s or 500ms), got '%s'", val);
		s->stats_interval = val;
		return CLI_GO;
	case S_STATS_LOG: s->stats_log = val; return CLI_GO;
	case S_THREADS:
		if (ssd_parse_u64(val, &s->threads) || s->threads < 1 || s->threads > 1024)
			return cli_usage("--threads needs a number from 1 to 1024, got '%s'", val);
		return CLI_GO;
	case S_RUN: s->run = val; return CLI_GO;
	case S_CHECK:
		if (cli_u64("--check", val, &s->check))
			return EXIT_USAGE;
		if (s->check > UINT32_MAX)
			return cli_usage("--check needs a number of GC victims, got '%s'", val);
		return CLI_GO;
	case S_OVERHEAD:
		if (ssd_parse_time(val, 1000, &ns) || ns < 0 || ns > 1000000000)
			return cli_usage("--client-overhead needs a time up to 1s (like 45us), got '%s'", val);
		s->overhead = val;
		return CLI_GO;
	case S_POWER_LOG: s->power_log = val; return CLI_GO;
	case S_POWER_OFF:
		if (ssd_parse_time(val, 1000000000, &ns) || ns < 0 ||
		    ns > 3600 * (int64_t)1000000000)
			return cli_usage("--power-off needs a time up to 1h (like 2s), got '%s'", val);
		s->power_off = val;
		return CLI_GO;
	case S_TLS:
		if (strcmp(val, "off") && strcmp(val, "on") && strcmp(val, "require"))
			return cli_usage("--tls needs off, on or require, got '%s'", val);
		s->tls = val;
		return CLI_GO;
	case S_TLS_CERTS: s->tls_certs = val; return CLI_GO;
	case S_TLS_PSK: s->tls_psk = val; return CLI_GO;
	case S_SNAPSHOT: s->snap = val; return CLI_GO;
	}
	return cli_usage("serve takes no arguments, got '%s'", val);
}

static const struct cli_cmd serve_cmd = {
	.shared = CLI_DRIVE | CLI_SET | CLI_SEED | CLI_FORMAT | CLI_OUTPUT |
		  CLI_ETA,
	.opts = serve_opts, .flags = CLI_DASH_ARG | CLI_DASHDASH,
	.help = serve_help, .check_format = serve_format, .fn = serve_opt};

/* Run nbdkit with the plugin and the drive's words: returns only if it
 * could not (EXIT_USAGE, 1), after the message. */
static int serve_exec(const struct serve_args *s, int argc, char **argv)
{
	const char *plugin = serve_plugin();
	if (!plugin) {
		fprintf(stderr, "%s: serve needs the nbdkit plugin nbdkit-ssdlab-plugin.so, "
			"not found beside this binary (build it with 'make' after "
			"'apt-get install nbdkit nbdkit-plugin-dev')\n", cli_prog);
		return EXIT_USAGE;
	}
	const char *nbdkit = getenv("SSDLAB_NBDKIT");
	if (!nbdkit || !*nbdkit)
		nbdkit = "nbdkit";
	/* nbdkit's argv: its options, the plugin, the plugin's key=value */
	int max = 48 + 2 * s->c.nsets + (argc - s->c.rest);
	char **av = calloc((size_t)max, sizeof *av);
	char (*kv)[PATH_MAX + 32] = calloc((size_t)(24 + s->c.nsets), sizeof *kv);
	if (!av || !kv) {
		fprintf(stderr, "%s: out of memory\n", cli_prog);
		return 1;
	}
	int n = 0, k = 0;
	char tbuf[32];
	av[n++] = (char *)nbdkit;
	av[n++] = "-f";
	if (s->verbose)
		av[n++] = "-v";
	snprintf(tbuf, sizeof tbuf, "%llu", (unsigned long long)s->threads);
	av[n++] = "-t";
	av[n++] = tbuf;
	if (s->sock) {
		av[n++] = "-U";
		av[n++] = (char *)s->sock;
	} else if (s->run && !s->port) {
		av[n++] = "-U";
		av[n++] = "-";
	} else {
		av[n++] = "-i";
		av[n++] = (char *)s->ip;
		av[n++] = "-p";
		av[n++] = (char *)(s->port ? s->port : "10809");
	}
	if (s->run) {
		av[n++] = "--run";
		av[n++] = (char *)s->run;
	}
#define KV(...) (snprintf(kv[k], sizeof kv[k], __VA_ARGS__), av[n++] = kv[k++])
	/* TLS and read-only: nbdkit's own options (the credentials made
	 * absolute: GnuTLS reads the key file at every handshake) */
	char full[PATH_MAX];
	if (s->tls)
		KV("--tls=%s", s->tls);
	if (s->tls_certs)
		KV("--tls-certificates=%s", realpath(s->tls_certs, full) ? full : s->tls_certs);
	if (s->tls_psk)
		KV("--tls-psk=%s", realpath(s->tls_psk, full) ? full : s->tls_psk);
	if (s->tls_verify)
		av[n++] = "--tls-verify-peer";
	if (s->readonly)
		av[n++] = "--readonly";
	for (int i = s->c.rest; i < argc; i++)
		av[n++] = argv[i];
	av[n++] = (char *)plugin;
	if (!s->snap || s->c.drive)
		KV("drive=%s", s->c.drive ? s->c.drive : "default");
	if (s->snap)
		KV("snapshot=%s", realpath(s->snap, full) ? full : s->snap);
	for (int i = 0; i < s->c.nsets; i++)
		KV("set=%s", s->c.sets[i]);
	KV("presets=%s", cli_preset_dir());
	KV("seed=%llu", (unsigned long long)s->c.seed);
	KV("clock=%s", s->clock);
	KV("fast-qd=%llu", (unsigned long long)s->fast_qd);
	KV("data=%s", s->data);
	if (s->overhead)
		KV("client-overhead=%s", s->overhead);
	if (s->c.output)
		KV("output=%s", s->c.output);
	if (s->c.format)
		KV("format=%s", s->c.format);
	if (s->stats_interval) {
		KV("stats-interval=%s", s->stats_interval);
		KV("stats-log=%s", s->stats_log ? s->stats_log : "serve-stats.csv");
	}
	if (s->check)
		KV("check=%llu", (unsigned long long)s->check);
	if (s->power_cuts)
		KV("power-cuts=1");
	if (s->power_log)
		KV("power-log=%s", s->power_log);
	if (s->power_off)
		KV("power-off=%s", s->power_off);
	/* the status line: the reporter thread draws it (report/eta.h) */
	KV("eta=%s", s->c.eta.when == SSD_ETA_ALWAYS ? "always"
		     : s->c.eta.when == SSD_ETA_NEVER ? "never" : "auto");
	if (s->c.eta.interval > 0)
		KV("eta-interval=%lldus", (long long)llround(s->c.eta.interval * 1e6));
	if (s->c.eta.newline > 0)
		KV("eta-newline=%lldus", (long long)llround(s->c.eta.newline * 1e6));
#undef KV
	av[n] = NULL;
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: write error on standard output: %s\n", cli_prog,
			strerror(errno));
		return 1;
	}
#ifdef SSDLAB_ASAN_RUNTIME
	/* a sanitized build's plugin needs its runtime loaded first, with
	 * the library built beside it that keeps the runtime's late start
	 * from breaking glibc's locale lock (nbdkit/san_preload.c) */
	char preload[sizeof SSDLAB_ASAN_RUNTIME + PATH_MAX + 64];
	const char *slash = strrchr(plugin, '/');
	int dir = slash ? (int)(slash - plugin) + 1 : 0;
	snprintf(preload, sizeof preload, "%s:%s%.*snbdkit-ssdlab-san-preload.so",
		 SSDLAB_ASAN_RUNTIME, slash ? "" : "./", dir, plugin);
	if (access(preload + sizeof SSDLAB_ASAN_RUNTIME, R_OK))
		preload[sizeof SSDLAB_ASAN_RUNTIME - 1] = 0;
	setenv("LD_PRELOAD", preload, 1);
	setenv("ASAN_OPTIONS", "detect_leaks=0", 0);
#endif
	execvp(nbdkit, av);
	fprintf(stderr, "%s: cannot run %s: %s (apt-get install nbdkit)\n", cli_prog,
		nbdkit, strerror(errno));
	return EXIT_USAGE;
}

int cmd_serve(int argc, char **argv)
{
	struct serve_args s = {.c = {.seed = 1}, .ip = "127.0.0.1",
			       .clock = "real", .data = "memory", .threads = 64,
			       .fast_qd = 1};
	int rc = cli_parse(&serve_cmd, &s.c, argc, argv, 1, &s);
	if (rc != CLI_GO)
		return rc;
	if ((rc = serve_check(&s, argc, argv)))
		return rc;
	return serve_exec(&s, argc, argv);
}
