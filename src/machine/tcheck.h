/*
 * tcheck.h -- the timing checks of commands (device.h, "Timing checks"),
 * kept by a node that answers the host: an SSD for its own commands, and
 * the machine's entry for the commands that enter a machine of host
 * layers.  Rules: a command is submitted no earlier than the one before,
 * completes no earlier than it was submitted, and (where the node knows
 * its work: an SSD) takes at least the work its road cannot skip.  The
 * first broken rule goes, in words, to an FTL's checker
 * (ssd_ftl_check_report); fault injection for the checker's own tests
 * hands completions out early, before or after the checks.
 */
#ifndef SSD_TCHECK_H
#define SSD_TCHECK_H

#include <stdint.h>

#include "ftl/ftl.h"

/* The parts of a command's least latency (ssd_tcheck's `part`). */
enum { SSD_TC_CMD, SSD_TC_LINK, SSD_TC_LOAD, SSD_TC_PROG, SSD_TC_TRIM,
       SSD_TC_N };

struct ssd_tcheck {
	int on;                 /* the checks run (the checker is on) */
	int64_t prev;           /* the latest submission checked, ns */
	int64_t fault_early;    /* completions handed out this much earlier, */
	int fault_hidden;       /* after the checks (1) or before them (0) */
};

/* A command of kind ddir (SSD_DDIR_SYNC: a flush; SSD_DEV_FUA may be
 * OR'd in), number `cmd`, submitted at t, completed at done (>= 0).
 * part[SSD_TC_N] is its least latency by part, or NULL when the node
 * does not know it.  A broken rule goes to `report` (may be NULL).
 * Returns done as the caller should see it. */
int64_t ssd_tcheck(struct ssd_tcheck *k, struct ssd_ftl *report, uint64_t cmd,
		   int ddir, uint64_t offset, uint32_t len, int64_t t,
		   int64_t done, const int64_t *part);

#endif
