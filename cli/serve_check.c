/*
 * serve_check.c -- ssdlab serve's options checked before nbdkit starts,
 * so that a mistake is this tool's one-line usage error (exit 2) and not
 * a server that fails later: the options that go together, the TLS
 * credentials, the address (none that other hosts reach without client
 * authentication, unless --insecure), the port bound once, the socket,
 * the folders of the files it will write, the drive and its memory.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli.h"
#include "machine/device.h"
#include "serve/serve.h"
#include "serve.h"

/* A file the server will write: its folder must exist and be writable
 * (checked here, so that the mistake is a usage error before anything
 * listens).  0, or the usage error printed. */
static int serve_path_ok(const char *what, const char *path)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	const char *d = slash ? (*dir ? dir : "/") : ".";
	if (access(d, W_OK)) {
		fprintf(stderr, "%s: %s %s: folder %s: %s\n", cli_prog, what, path, d,
			strerror(errno));
		return EXIT_USAGE;
	}
	return 0;
}

/* --socket PATH: a socket left by a server that is gone is removed (as
 * nbdkit does not); one a server still listens on, or a file that is
 * not a socket, is an error. */
static int serve_socket_ok(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (!*path || strlen(path) >= sizeof sa.sun_path) {
		fprintf(stderr, "%s: socket '%s': a socket's path has 1 to %zu "
			"characters\n", cli_prog, path, sizeof sa.sun_path - 1);
		return EXIT_USAGE;
	}
	struct stat sb;
	if (lstat(path, &sb))
		return serve_path_ok("socket", path);
	if (!S_ISSOCK(sb.st_mode)) {
		fprintf(stderr, "%s: socket %s: exists and is not a socket\n", cli_prog, path);
		return EXIT_USAGE;
	}
	strcpy(sa.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int up = fd >= 0 && !connect(fd, (struct sockaddr *)&sa, sizeof sa);
	int refused = !up && errno == ECONNREFUSED;
	if (fd >= 0)
		close(fd);
	if (up) {
		fprintf(stderr, "%s: socket %s: a server is listening on it\n", cli_prog, path);
		return EXIT_USAGE;
	}
	if (refused && unlink(path)) {
		fprintf(stderr, "%s: socket %s: %s\n", cli_prog, path, strerror(errno));
		return EXIT_USAGE;
	}
	return 0;
}

/* --ip ADDR: a numeric IPv4 or IPv6 address (a name could resolve to
 * anything, so it cannot be told safe); *loopback set when only this
 * host can reach it: 127.0.0.0/8, ::1, ::ffff:127.0.0.0/104.  0, or the
 * usage error printed. */
static int serve_ip_ok(const char *ip, int *loopback)
{
	struct in_addr a4;
	struct in6_addr a6;
	if (inet_pton(AF_INET, ip, &a4) == 1) {
		*loopback = (ntohl(a4.s_addr) >> 24) == 127;
		return 0;
	}
	if (inet_pton(AF_INET6, ip, &a6) == 1) {
		*loopback = IN6_IS_ADDR_LOOPBACK(&a6) ||
			    (IN6_IS_ADDR_V4MAPPED(&a6) && a6.s6_addr[12] == 127);
		return 0;
	}
	return cli_usage("--ip needs an IPv4 or IPv6 address (like 127.0.0.1, "
			 "::1 or 0.0.0.0), got '%s'", ip);
}

/* The TCP address and port, bound and let go again as nbdkit will bind
 * them (SO_REUSEADDR, IPv6 only for an IPv6 address), so that a port in
 * use, a port below 1024 without the privilege or an address this host
 * does not have is this tool's one-line error before nbdkit starts. */
static int serve_tcp_ok(const char *ip, const char *port)
{
	struct addrinfo hints = {.ai_flags = AI_PASSIVE | AI_NUMERICHOST |
					     AI_NUMERICSERV,
				 .ai_socktype = SOCK_STREAM};
	struct addrinfo *ai;
	int rc = getaddrinfo(ip, port, &hints, &ai);
	if (rc)
		return cli_usage("--ip %s --port %s: %s", ip, port, gai_strerror(rc));
	int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
	int one = 1;
	int ok = fd >= 0 &&
		 !setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) &&
		 (ai->ai_family != AF_INET6 ||
		  !setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one)) &&
		 !bind(fd, ai->ai_addr, ai->ai_addrlen);
	int err = errno;
	if (fd >= 0)
		close(fd);
	freeaddrinfo(ai);
	if (ok)
		return 0;
	fprintf(stderr, "%s: cannot listen on %s port %s: %s%s\n", cli_prog, ip, port,
		strerror(err),
		err == EADDRINUSE ? " (another server listens there: choose "
		"another --port)" : err == EACCES ? " (ports below 1024 need "
		"privileges)" : err == EADDRNOTAVAIL ? " (not an address of this "
		"host)" : "");
	return EXIT_USAGE;
}

/* --tls-certificates DIR: the files nbdkit loads from it (nbdkit-tls(1);
 * ca-crl.pem is optional) are there and readable. */
static int serve_certs_ok(const char *dir)
{
	static const char *const need[] = {"ca-cert.pem", "server-cert.pem",
					    "server-key.pem"};
	struct stat sb;
	int gone = stat(dir, &sb);
	if (gone || !S_ISDIR(sb.st_mode)) {
		fprintf(stderr, "%s: --tls-certificates %s: %s\n", cli_prog, dir,
			gone ? strerror(errno) : "not a folder");
		return EXIT_USAGE;
	}
	for (int k = 0; k < 3; k++) {
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s/%s", dir, need[k]);
		if (access(path, R_OK)) {
			fprintf(stderr, "%s: --tls-certificates %s: %s: %s (the folder "
				"holds ca-cert.pem, server-cert.pem and server-key.pem, "
				"nbdkit-tls(1))\n", cli_prog, dir, need[k], strerror(errno));
			return EXIT_USAGE;
		}
	}
	return 0;
}

/* --tls-psk FILE: readable, and every line USERNAME:HEXKEY as psktool(1)
 * writes them (GnuTLS reads the file at each handshake and would only
 * refuse the clients). */
static int serve_psk_ok(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "%s: --tls-psk %s: %s\n", cli_prog, path, strerror(errno));
		return EXIT_USAGE;
	}
	char line[1024];
	int n = 0, keys = 0, bad = 0;
	while (!bad && fgets(line, sizeof line, f)) {
		n++;
		line[strcspn(line, "\r\n")] = 0;
		if (!*line)
			continue;
		char *colon = strchr(line, ':');
		size_t hex = colon ? strspn(colon + 1, "0123456789abcdefABCDEF") : 0;
		bad = !colon || colon == line || !hex || hex % 2 || colon[1 + hex];
		keys++;
	}
	int rerr = ferror(f);
	fclose(f);
	if (rerr || bad || !keys) {
		if (rerr)
			fprintf(stderr, "%s: --tls-psk %s: cannot read it\n", cli_prog, path);
		else if (bad)
			fprintf(stderr, "%s: --tls-psk %s:%d: wanted USERNAME:HEXKEY (make "
				"the file with 'psktool -u USERNAME -p %s')\n", cli_prog, path,
				n, path);
		else
			fprintf(stderr, "%s: --tls-psk %s: no keys in it (make them with "
				"'psktool -u USERNAME -p %s')\n", cli_prog, path, path);
		return EXIT_USAGE;
	}
	return 0;
}

/* After '--' go nbdkit's own options, unchecked; where it listens and
 * its TLS are serve's options, checked here, and may not be set there. */
static int serve_tail_ok(int argc, char **argv, int rest)
{
	static const char *const own[][2] = {
		{"-i", "--ipaddr"}, {"-p", "--port"}, {"-U", "--unix"},
		{NULL, "--tls"}, {NULL, "--vsock"}};
	for (int i = rest; i < argc; i++) {
		const char *a = argv[i];
		for (size_t k = 0; k < sizeof own / sizeof own[0]; k++) {
			size_t n = strlen(own[k][1]);
			if ((own[k][0] && !strncmp(a, own[k][0], 2)) ||
			    !strncmp(a, own[k][1], n))
				return cli_usage("'%s' after '--': where serve listens and "
						 "its TLS are set by its own options (--ip, "
						 "--port, --socket, --tls...), which are "
						 "checked", a);
		}
	}
	return 0;
}

int serve_check(const struct serve_args *s, int argc, char **argv)
{
	if (s->sock && s->port)
		return cli_usage("--socket and --port exclude each other");
	if (s->sock && s->ip_set)
		return cli_usage("--ip goes with --port, not --socket");
	if (s->run && s->ip_set && !s->port)
		return cli_usage("--ip goes with --port (--run alone serves on a private socket)");
	if (s->stats_log && !s->stats_interval)
		return cli_usage("--stats-log needs --stats-interval");
	if ((s->power_log || s->power_off) && !s->power_cuts)
		return cli_usage("--power-log and --power-off need --power-cuts");
	if (s->snap && s->power_cuts)
		return cli_usage("--power-cuts starts from a fresh drive; it "
				 "excludes --snapshot");
	int rc = serve_tail_ok(argc, argv, s->c.rest);
	if (rc)
		return rc;
	/* TLS: nbdkit's options and meanings, but the credentials named
	 * (nbdkit would look in its default folders), so that they are
	 * checked here */
	if (s->tls && strcmp(s->tls, "off") && !s->tls_certs && !s->tls_psk)
		return cli_usage("--tls=%s needs --tls-psk FILE or --tls-certificates DIR", s->tls);
	if (s->tls_verify && !s->tls_certs)
		return cli_usage("--tls-verify-peer checks client certificates: it goes with --tls-certificates DIR");
	if ((s->tls_certs && (rc = serve_certs_ok(s->tls_certs))) ||
	    (s->tls_psk && (rc = serve_psk_ok(s->tls_psk))))
		return rc;
	/* Where it listens: TCP beyond this host only with the clients
	 * authenticated, or when the user says so */
	int tcp = !s->sock && (s->port || !s->run), loopback = 1;
	if (tcp && (rc = serve_ip_ok(s->ip, &loopback)))
		return rc;
	int authenticated = s->tls && !strcmp(s->tls, "require") &&
			    (s->tls_psk || (s->tls_certs && s->tls_verify));
	if (tcp && !loopback && !authenticated && !s->insecure)
		return cli_usage("--ip %s lets any host that reaches it %s the "
				 "drive: add --tls=require with --tls-psk FILE (or "
				 "--tls-certificates DIR --tls-verify-peer) to admit "
				 "only clients with the key, or --insecure to serve "
				 "it to anyone", s->ip, s->readonly ? "read" : "read and write");

	/* the drive is checked here, so that its errors read as this
	 * tool's; the plugin loads it again from the same words */
	struct ssd_config cfg;
	if ((rc = s->snap ? cli_snapshot_drive(&s->c, s->snap, &cfg)
			  : cli_load_drive(&s->c, &cfg)))
		/* a snapshot that cannot be read is an input error here
		 * (docs/serve.md), as everything serve checks first */
		return s->snap && rc == 1 ? EXIT_USAGE : rc;
	/* what the plugin would refuse in the drive and the options, with
	 * its own check, so that it is this tool's usage error before
	 * nbdkit starts */
	struct ssd_srv_opts so = {.cfg = &cfg, .data = s->data,
				  .power_cuts = s->power_cuts, .snapshot = s->snap};
	char serr[640];
	if (ssd_srv_check(&so, serr, sizeof serr)) {
		fprintf(stderr, "%s: %s\n", cli_prog, serr);
		return EXIT_USAGE;
	}
	if ((s->sock && (rc = serve_socket_ok(s->sock))) ||
	    (s->c.output && (rc = serve_path_ok("report", s->c.output))) ||
	    (strcmp(s->data, "memory") && (rc = serve_path_ok("data file", s->data))) ||
	    (s->stats_interval &&
	     (rc = serve_path_ok("stats log", s->stats_log ? s->stats_log : "serve-stats.csv"))) ||
	    (s->power_log && (rc = serve_path_ok("power log", s->power_log))) ||
	    (tcp && (rc = serve_tcp_ok(s->ip, s->port ? s->port : "10809"))))
		return rc;
	char merr[512];
	if (ssd_dev_mem_check(&cfg, s->power_cuts ? SSD_MEM_POWER : 0, 0, merr, sizeof merr)) {
		fprintf(stderr, "%s: %s\n", cli_prog, merr);
		return 1;
	}
	return 0;
}
