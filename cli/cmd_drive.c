/*
 * cmd_drive.c -- the references: ssdlab drives (the presets listed),
 * drive show (every key of a drive with its value, unit and meaning),
 * drive doc and job doc (the drive key and job-file option references as
 * Markdown).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "job/job.h"
#include "machine/device.h"
#include "methods/preset.h"

int cmd_drives(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		puts("usage: ssdlab drives\nList the drive presets with their capacity, OP and cell type.");
		return 0;
	}
	if (argc > 1)
		return cli_usage("drives takes no arguments, got '%s'", argv[1]);
	const char *dir = cli_preset_dir();
	char **names, err[512];
	int n;
	if (ssd_preset_list(dir, &names, &n, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		return 1;
	}
	printf("%-20s %10s %6s %4s  %s\n", "NAME", "CAPACITY", "OP", "CELL",
	       "DESCRIPTION");
	int rc = 0;
	for (int i = 0; i < n; i++) {
		struct ssd_config c;
		char cap[32];
		if (ssd_config_open(&c, names[i], dir, err, sizeof err) ||
		    ssd_config_finish(&c, err, sizeof err)) {
			fprintf(stderr, "%s: %s\n", cli_prog, err);
			rc = 1;
		} else if (c.type == SSD_TYPE_HDD) {
			/* a hard disk: no spare, no cells */
			printf("%-20s %10s %6s %4s  %s\n", names[i],
			       ssd_fmt_bytes(c.capacity, cap, sizeof cap), "-",
			       "hdd", c.description);
		} else {
			printf("%-20s %10s %5.1f%% %4s  %s\n", names[i],
			       ssd_fmt_bytes(c.capacity, cap, sizeof cap),
			       c.op * 100, ssd_cell_name(c.cell), c.description);
		}
	}
	ssd_preset_list_free(names, n);
	return rc;
}

/* A zoned drive's namespace, as the drive derives it (a comment). */
static void print_zones(const struct ssd_config *c)
{
	struct ssd_zones z;
	char a[32], b[32], t[32];
	if (c->mapping != SSD_MAP_ZONE || ssd_config_zones(c, &z, NULL, 0))
		return;
	printf("# zones: %u of %s, %s writable, each on %u allocation units "
	       "(%u group%s, zone z on group z %% %u), %u block%s on each; "
	       "the host addresses %s\n", z.zones,
	       ssd_fmt_bytes(z.size_lp * SSD_LPAGE, a, sizeof a),
	       ssd_fmt_bytes(z.cap_lp * SSD_LPAGE, b, sizeof b), z.zone_units,
	       z.groups, z.groups == 1 ? "" : "s", z.groups, z.blocks_per_unit,
	       z.blocks_per_unit == 1 ? "" : "s",
	       ssd_fmt_bytes((uint64_t)z.zones * z.size_lp * SSD_LPAGE, t, sizeof t));
}

/* drive show's last line: what simulating the drive takes (a comment,
 * so that the output still loads as a drive file). */
static void print_memory(const struct ssd_config *c)
{
	struct ssd_mem m, v;
	char b[6][32];
	ssd_dev_mem(c, 0, &m);
	printf("# memory: about %s to simulate (the FTL %s, controller DRAM %s, "
	       "host layers %s, the program %s)",
	       ssd_fmt_bytes(m.total, b[0], sizeof b[0]),
	       ssd_fmt_bytes(m.ftl, b[1], sizeof b[1]),
	       ssd_fmt_bytes(m.dram, b[2], sizeof b[2]),
	       ssd_fmt_bytes(m.host, b[3], sizeof b[3]),
	       ssd_fmt_bytes(m.program, b[4], sizeof b[4]));
	if (!ssd_config_is_machine(c))
		printf("; %s more for jobs that verify data",
		       ssd_fmt_bytes(ssd_dev_mem(c, SSD_MEM_VERIFY, &v) - m.total,
				     b[5], sizeof b[5]));
	printf("\n");
}

/* drive show's argument: the drive, as --drive is (CLI_ONE_DRIVE) */
static int drive_show_arg(void *ctx, int id, const char *val)
{
	struct cli *d = ctx;
	if (d->drive)
		return cli_usage("more than one drive ('%s')", val);
	d->drive = val;
	return CLI_GO;
}

static const struct cli_cmd drive_show_cmd = {
	.shared = CLI_ONE_DRIVE | CLI_SET,
	.help = "usage: ssdlab drive show NAME|FILE.ini [--set KEY=VALUE]...\n"
		"Print every key of the drive -- preset NAME or an INI file, with the\n"
		"overrides applied and the geometry derived -- with its value, unit and\n"
		"meaning.  The output is itself a valid drive file.\n",
	.fn = drive_show_arg};

int cmd_drive(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage("drive needs a command (accepted: show, doc)");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		puts("usage: ssdlab drive show NAME|FILE.ini [--set KEY=VALUE]...\n"
		     "       ssdlab drive doc\n"
		     "show: print every key of the drive with its value, unit and meaning\n"
		     "doc:  print the option reference as Markdown (docs/options.md)");
		return 0;
	}
	if (!strcmp(argv[1], "doc")) {
		if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
			puts("usage: ssdlab drive doc\nPrint the drive key reference as Markdown (docs/options.md).");
			return 0;
		}
		if (argc > 2)
			return cli_usage("drive doc takes no arguments, got '%s'", argv[2]);
		ssd_config_print_doc(stdout);
		return 0;
	}
	if (strcmp(argv[1], "show"))
		return cli_usage("unknown drive command '%s' (accepted: show, doc)", argv[1]);
	struct cli d = {0};
	int rc = cli_parse(&drive_show_cmd, &d, argc, argv, 2, &d);
	if (rc != CLI_GO)
		return rc;
	if (!d.drive)
		return cli_usage("drive show needs a preset name or file");
	struct ssd_config c;
	rc = cli_load_drive(&d, &c);
	if (rc)
		return rc;
	ssd_config_print(&c, stdout);
	print_zones(&c);
	print_memory(&c);
	return 0;
}

int cmd_job(int argc, char **argv)
{
	static const char help[] =
		"usage: ssdlab job doc [--format=md|dict]\n"
		"Print the job-file option reference as Markdown (docs/jobfiles.md),\n"
		"or with --format=dict the fuzz dictionary of job files\n"
		"(fuzz/jobfile.dict), both from the option table.";
	if (argc == 3 && !strcmp(argv[1], "doc") &&
	    (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
		puts(help);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "doc")) {
		ssd_job_print_doc(stdout);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "doc") &&
	    !strncmp(argv[2], "--format=", 9)) {
		if (!strcmp(argv[2] + 9, "md"))
			ssd_job_print_doc(stdout);
		else if (!strcmp(argv[2] + 9, "dict"))
			ssd_job_print_dict(stdout);
		else
			return cli_usage("job doc: unknown format '%s' (accepted: md, dict)",
					 argv[2] + 9);
		return 0;
	}
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		puts(help);
		return 0;
	}
	return cli_usage("usage: ssdlab job doc [--format=md|dict]");
}
