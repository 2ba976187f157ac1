/*
 * serve.h -- what ssdlab serve's two files share: the options as the
 * command line gave them (cmd_serve.c parses them and starts nbdkit),
 * and their check before anything listens (serve_check.c).
 */
#ifndef SSDLAB_CLI_SERVE_H
#define SSDLAB_CLI_SERVE_H

#include <stdint.h>

#include "cli.h"

struct serve_args {
	struct cli c;               /* --drive, --set, --seed, --output... */
	const char *sock;           /* --socket PATH, or NULL */
	const char *port;           /* --port N, or NULL (10809) */
	const char *ip;             /* --ip ADDR (default 127.0.0.1) */
	int ip_set;                 /* --ip was given */
	const char *clock;          /* --clock real|fast */
	uint64_t fast_qd;           /* --fast-qd N */
	const char *overhead;       /* --client-overhead TIME, or NULL */
	const char *data;           /* --data memory|FILE */
	const char *stats_interval; /* --stats-interval TIME, or NULL */
	const char *stats_log;      /* --stats-log FILE, or NULL */
	uint64_t threads;           /* --threads N */
	const char *run;            /* --run CMD, or NULL */
	uint64_t check;             /* --check N (0: off) */
	int power_cuts;             /* --power-cuts */
	const char *power_log;      /* --power-log FILE, or NULL */
	const char *power_off;      /* --power-off TIME, or NULL */
	const char *tls;            /* --tls off|on|require, or NULL */
	const char *tls_certs;      /* --tls-certificates DIR, or NULL */
	const char *tls_psk;        /* --tls-psk FILE, or NULL */
	int tls_verify;             /* --tls-verify-peer */
	int insecure;               /* --insecure */
	int readonly;               /* --readonly, -r */
	const char *snap;           /* --snapshot FILE, or NULL */
	int verbose;                /* --verbose */
};

/* Everything serve can check before nbdkit starts, argv[s->c.rest..argc)
 * being nbdkit's own options: 0, or the exit status after the message
 * (EXIT_USAGE; 1 when the drive needs more memory than there is). */
int serve_check(const struct serve_args *s, int argc, char **argv);

#endif
