/*
 * cmd_demo.c -- ssdlab with no command: the demo, the steady-state
 * scenario on the default drive with its chart.
 */
#include <stdio.h>

#include "cli.h"
#include "ssdlab.h"        /* SSDLAB_VERSION */
#include "methods/scenario.h"

/* The steady-state scenario on the default drive: a fresh drive driven
 * into steady state by 4 KiB random writes, with its chart. */
int cmd_demo(void)
{
	struct cli d = {.drive = "default"};
	struct ssd_config cfg;
	int rc = cli_load_drive(&d, &cfg);
	if (rc)
		return rc;
	char cap[32], err[512];
	printf("ssdlab %s -- a simulated SSD you can open\n\n", SSDLAB_VERSION);
	printf("Drive '%s': %s user capacity, %.0f%% over-provisioning, %s, "
	       "%u KiB pages, %u pages per block, %u channels x %u dies, GC %s\n",
	       cfg.name, ssd_fmt_bytes(cfg.capacity, cap, sizeof cap), cfg.op * 100,
	       ssd_cell_name(cfg.cell), cfg.page_size / 1024, cfg.pages_per_block,
	       cfg.channels, cfg.dies_per_channel, ssd_gc_policy_name(cfg.gc_policy));
	printf("The reviewers' steady-state test: 4 KiB random writes at queue depth 32\n"
	       "over the whole span, no TRIM, from a fresh drive until well past the\n"
	       "point where its free space is exhausted.\n\n");
	fflush(stdout);
	double w0 = cli_wall_now();
	struct ssd_prog pg;
	struct ssd_prog *line = cli_eta_begin(&d, ssd_scn_steady_state.name, &pg);
	rc = ssd_scenario_run(&ssd_scn_steady_state, &cfg, "ssdlab-demo", cli_preset_dir(), NULL, 0,
			      1, stdout, line, err, sizeof err);
	ssd_eta_end(&d.eta);
	if (rc) {
		fprintf(stderr, "%s: %s\n", cli_prog, err);
		return 1;
	}
	printf("\nThe chart: ssdlab-demo/steady-state.png (IOPS every second, 30 s "
	       "average).\nSimulated in %.1f s of wall time.  Next: ssdlab scenario "
	       "list, ssdlab run JOB.fio, ssdlab --help\n", cli_wall_now() - w0);
	return 0;
}
