/*
 * cmd_trace.c -- ssdlab trace convert and trace stat: block traces in the
 * formats they are published in, read as a stream (methods/trace_tools.h),
 * written as fio's iolog or summed up.
 */
#include <stdio.h>
#include <string.h>

#include "base/ofile.h"
#include "cli.h"
#include "methods/trace_tools.h"

#define TRACE_FROM_OPT \
	"  --from FORMAT           the trace's format: auto (default: an iolog\n" \
	"                          or a blktrace file, by its first bytes),\n" \
	"                          iolog, blktrace, blkparse, msr, spc, disksim,\n" \
	"                          mqsim, alibaba, tencent\n"
#define TRACE_DEVICE_OPT \
	"  --device N              only the requests of device N: MSR's\n" \
	"                          DiskNumber, SPC's ASU, Alibaba's device_id,\n" \
	"                          Tencent's VolumeID, DiskSim's and MQSim's\n" \
	"                          device; blktrace's and blkparse's as MAJ,MIN\n" \
	"                          (or MAJ << 20 | MIN); a trace of several\n" \
	"                          devices is converted one at a time (without\n" \
	"                          --device, a second device is an error), and\n" \
	"                          trace stat without it lists them\n"
#define TRACE_CONVERT_OPTS \
	TRACE_FROM_OPT TRACE_DEVICE_OPT \
	"  --capacity SIZE         the drive's size (64m, 2t): a request past it\n" \
	"                          is an error naming its line, unless --fold\n" \
	"  --fold modulo|scale     bring the requests past --capacity inside it:\n" \
	"                          modulo, offset % capacity, keeps the\n" \
	"                          locality; scale, offset x capacity / the\n" \
	"                          trace's address range, keeps the layout (IN\n" \
	"                          is read twice); the new offset is aligned\n" \
	"                          down to 4 KiB, and a request that then\n" \
	"                          crosses the end is moved to end at it\n" \
	"  --align-warn 512|4k     warn of the first request not aligned to this\n" \
	"                          (default 512), and count them at the end\n" \
	"  --file NAME             the file name in the iolog (default trace)\n"
#define TRACE_STAT_OPTS \
	TRACE_FROM_OPT TRACE_DEVICE_OPT \
	"  --interval TIME         the write working set's interval (default:\n" \
	"                          the duration / 20, which reads FILE twice; a\n" \
	"                          bare number is seconds)\n" \
	"  --output-format FMT     normal (default) or json\n" \
	"  --output FILE           write the report to FILE instead of stdout\n"
#define TRACE_CONVERT_TEXT \
	"Read the trace IN and write it as an fio iolog version 3, which\n" \
	"read_iolog= replays here and fio replays on a real drive: one file\n" \
	"(trace), times in microseconds since the first request, the syncs as\n" \
	"'sync 0 0'.  OUT '-' is standard output, OUT ending in .gz is\n" \
	"gzip-compressed.  A summary of what was converted goes to standard\n" \
	"error.\n"
#define TRACE_STAT_TEXT \
	"What the trace FILE holds, read as a stream (once with --interval,\n" \
	"else twice): requests; reads, writes, trims and syncs (count, bytes,\n" \
	"sizes by powers of two); the footprint (distinct 4 KiB pages touched,\n" \
	"written, read); the address range; the sequential share (requests\n" \
	"starting where the previous one of their direction ended);\n" \
	"inter-arrival times (mean, p50, p99, max); the duration; the\n" \
	"read/write ratio; and the write working set, the distinct pages\n" \
	"written in each interval and up to its end.  Memory: 4 bits per 4 KiB\n" \
	"page of each GiB of address range touched (touched, written, read,\n" \
	"written in the interval: 128 KiB per GiB, at most 1 GiB), whatever\n" \
	"the trace's length.  docs/traces.md has the JSON keys.\n"

static const char trace_help[] =
	"usage: ssdlab trace convert IN OUT [--from FORMAT] [options]\n"
	"       ssdlab trace stat FILE [--from FORMAT] [options]\n"
	"Block traces in the formats they are published in -- fio's iolog,\n"
	"blktrace, blkparse, MSR Cambridge, SPC (UMass), DiskSim, MQSim,\n"
	"Alibaba, Tencent; plain or gzip-compressed -- read as a stream, in\n"
	"bounded memory.  docs/traces.md: the formats, the public collections\n"
	"and how to replay them.\n"
	"\n"
	"convert:  write a trace as an fio iolog version 3 for read_iolog=\n"
	"stat:     what a trace holds: requests, sizes, footprint, sequential\n"
	"          share, inter-arrival times, write working set\n"
	"\n"
	"Options of convert:\n"
	TRACE_CONVERT_OPTS
	"\n"
	"Options of stat:\n"
	TRACE_STAT_OPTS
	"\n"
	"'ssdlab trace convert --help' and 'ssdlab trace stat --help' say more.\n"
	"An input error (a malformed line: the message names FILE:LINE) exits\n"
	"with 2, like a usage error.\n";

static const char trace_convert_help[] =
	"usage: ssdlab trace convert IN OUT [--from FORMAT] [options]\n"
	TRACE_CONVERT_TEXT
	"\n"
	TRACE_CONVERT_OPTS
	"  --help                  this text\n"
	"\n"
	"Exit status: 0; 2 for a usage error or a malformed input line (the\n"
	"message names IN:LINE); 1 if OUT cannot be written.  A failed\n"
	"conversion leaves OUT as it was, or none.\n";

static const char trace_stat_help[] =
	"usage: ssdlab trace stat FILE [--from FORMAT] [options]\n"
	TRACE_STAT_TEXT
	"\n"
	TRACE_STAT_OPTS
	"  --help                  this text\n"
	"\n"
	"Exit status: 0; 2 for a usage error or a malformed input line (the\n"
	"message names FILE:LINE); 1 if the report cannot be written.\n";

/* The options trace convert and trace stat share; ids below the
 * commands' own. */
enum { T_FROM, T_DEVICE, T_CAPACITY, T_FOLD, T_ALIGN_WARN, T_FILE,
       T_INTERVAL };

/* --from FORMAT, --device N: 0 or a usage error */
static int trace_common_arg(int id, const char *val, int *fmt, int *has_dev,
			    uint32_t *dev)
{
	if (id == T_FROM && ssd_trace_fmt_parse(val, fmt))
		return cli_usage("--from must be one of %s, got '%s'",
				 ssd_trace_fmt_list(), val);
	if (id == T_DEVICE && ssd_trace_dev_parse(val, dev))
		return cli_usage("--device needs a device number N or MAJ,MIN, "
				 "got '%s'", val);
	if (id == T_DEVICE)
		*has_dev = 1;
	return 0;
}

/* trace convert's command line: the conversion, and IN and OUT */
struct convert_args {
	struct ssd_tconv c;
	const char *pos[2];
	int npos;
};

static const struct cli_opt convert_opts[] = {
	{"--from", NULL, 1, T_FROM},
	{"--device", NULL, 1, T_DEVICE},
	{"--capacity", NULL, 1, T_CAPACITY},
	{"--fold", NULL, 1, T_FOLD},
	{"--align-warn", NULL, 1, T_ALIGN_WARN},
	{"--file", NULL, 1, T_FILE},
	{NULL, NULL, 0, 0}};

static int convert_opt(void *ctx, int id, const char *val)
{
	struct convert_args *a = ctx;
	struct ssd_tconv *c = &a->c;
	switch (id) {
	case T_FROM:
	case T_DEVICE:
		return trace_common_arg(id, val, &c->fmt, &c->has_dev, &c->dev)
		       ? EXIT_USAGE : CLI_GO;
	case T_CAPACITY:
		if (ssd_parse_size(val, &c->capacity) || !c->capacity)
			return cli_usage("--capacity needs a size above 0 "
					 "(like 64m or 2t), got '%s'", val);
		return CLI_GO;
	case T_FOLD:
		if (ssd_fold_parse(val, &c->fold))
			return cli_usage("--fold must be modulo or scale, "
					 "got '%s'", val);
		return CLI_GO;
	case T_ALIGN_WARN:
		if (!strcmp(val, "512"))
			c->align = 512;
		else if (!strcmp(val, "4k") || !strcmp(val, "4096"))
			c->align = 4096;
		else
			return cli_usage("--align-warn must be 512 or 4k, "
					 "got '%s'", val);
		return CLI_GO;
	case T_FILE:
		c->file = val;
		return CLI_GO;
	}
	if (a->npos == 2)
		return cli_usage("more than IN and OUT: '%s'", val);
	a->pos[a->npos++] = val;
	return CLI_GO;
}

static const struct cli_cmd convert_cmd = {
	.opts = convert_opts, .flags = CLI_DASH_ARG,
	.help = trace_convert_help, .fn = convert_opt};

static int cmd_trace_convert(int argc, char **argv)
{
	struct cli none = {0};
	struct convert_args a = {.c = {.fmt = SSD_TRACE_AUTO, .msg = stderr,
				       .prefix = cli_prog}};
	int rc = cli_parse(&convert_cmd, &none, argc, argv, 1, &a);
	if (rc != CLI_GO)
		return rc;
	struct ssd_tconv c = a.c;
	if (a.npos < 2)
		return cli_usage("trace convert needs IN and OUT (OUT - for "
				 "standard output)");
	if (c.fold && !c.capacity)
		return cli_usage("--fold needs --capacity");
	if (c.fold && c.capacity % 4096)
		return cli_usage("--capacity with --fold must be a multiple of "
				 "4 KiB, got %llu bytes",
				 (unsigned long long)c.capacity);
	c.in = a.pos[0];
	c.out = a.pos[1];
	struct ssd_tconv_counts n;
	char err[1024];
	int input = 0;
	rc = ssd_trace_convert(&c, &n, err, sizeof err, &input);
	if (rc) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		/* standard output's failure is said once, here */
		cli_stdout_reported = !strcmp(c.out, "-") && !input;
		return input ? EXIT_USAGE : 1;
	}
	fprintf(stderr, "%s: converted %llu request%s (%llu read%s, %llu write%s, "
		"%llu trim%s, %llu sync%s) of %s into %s\n", cli_prog,
		(unsigned long long)n.requests, ssd_plural(n.requests),
		(unsigned long long)n.reads, ssd_plural(n.reads),
		(unsigned long long)n.writes, ssd_plural(n.writes),
		(unsigned long long)n.trims, ssd_plural(n.trims),
		(unsigned long long)n.syncs, ssd_plural(n.syncs), c.in,
		strcmp(c.out, "-") ? c.out : "standard output");
	return 0;
}

static const struct cli_opt stat_opts[] = {
	{"--from", NULL, 1, T_FROM},
	{"--device", NULL, 1, T_DEVICE},
	{"--interval", NULL, 1, T_INTERVAL},
	{NULL, NULL, 0, 0}};

static int stat_opt(void *ctx, int id, const char *val)
{
	struct ssd_tstat_opts *o = ctx;
	switch (id) {
	case T_FROM:
	case T_DEVICE:
		return trace_common_arg(id, val, &o->fmt, &o->has_dev, &o->dev)
		       ? EXIT_USAGE : CLI_GO;
	case T_INTERVAL:
		if (ssd_parse_time(val, SSD_S, &o->interval) || o->interval <= 0)
			return cli_usage("--interval needs a time above 0 "
					 "(like 1s or 100ms; a bare number "
					 "is seconds), got '%s'", val);
		return CLI_GO;
	}
	if (o->path)
		return cli_usage("more than one trace: '%s'", val);
	o->path = val;
	return CLI_GO;
}

static const struct cli_cmd stat_cmd = {
	.shared = CLI_FORMAT | CLI_OUTPUT, .opts = stat_opts,
	.flags = CLI_DASH_ARG, .help = trace_stat_help,
	.check_format = cli_format_normal_json, .fn = stat_opt};

static int cmd_trace_stat(int argc, char **argv)
{
	struct cli d = {0};
	struct ssd_tstat_opts o = {.fmt = SSD_TRACE_AUTO};
	int rc = cli_parse(&stat_cmd, &d, argc, argv, 1, &o);
	if (rc != CLI_GO)
		return rc;
	if (!o.path)
		return cli_usage("trace stat needs a trace file");
	struct ssd_tstat *s;
	char err[1024];
	int input = 0, fmt = o.fmt;
	rc = ssd_trace_stat(&o, &s, &fmt, err, sizeof err, &input);
	if (rc) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		return input ? EXIT_USAGE : 1;
	}
	FILE *out = stdout;
	struct ssd_ofile *of = NULL;
	if (d.output && ssd_ofile_open(d.output, SSD_OFILE_REPLACE, &of, err,
				       sizeof err)) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		ssd_tstat_free(s);
		return EXIT_USAGE;
	}
	if (of)
		out = ssd_ofile_stream(of);
	if (d.format && !strcmp(d.format, "json"))
		ssd_tstat_json(s, &o, fmt, out);
	else
		ssd_tstat_print(s, &o, fmt, out);
	ssd_tstat_free(s);
	if (ssd_ofile_commit(of, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		return 1;
	}
	return 0; /* standard output: checked at the end (close_stdout) */
}

int cmd_trace(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage("trace needs a command (accepted: convert, stat)");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(trace_help, stdout);
		return 0;
	}
	/* from here a usage error points to the subcommand's help */
	if (!strcmp(argv[1], "convert")) {
		cli_help_for("trace convert");
		return cmd_trace_convert(argc - 1, argv + 1);
	}
	if (!strcmp(argv[1], "stat")) {
		cli_help_for("trace stat");
		return cmd_trace_stat(argc - 1, argv + 1);
	}
	return cli_usage("unknown trace command '%s' (accepted: convert, stat)",
			 argv[1]);
}
