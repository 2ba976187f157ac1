/*
 * tcheck.c -- the timing checks of commands (tcheck.h).
 */
#include "machine/tcheck.h"

#include <inttypes.h>
#include <stdio.h>

#include "base/io.h"
#include "machine/blk.h"

/* The first broken rule of a command, in words, to the checker: `rule`
 * 0 submitted before `prev`, 1 completes before it was submitted, 2
 * faster than its work. */
__attribute__((cold, noinline)) static void
broken(struct ssd_ftl *report, uint64_t cmdno, int rule, int ddir,
       uint64_t offset, uint32_t len, int64_t t, int64_t prev, int64_t done,
       const int64_t *part)
{
	static const char *const word[] = {"read", "write", "trim", "flush"};
	static const char *const name[SSD_TC_N] = {"cmd_overhead", "link",
						   "load", "program", "trim"};
	int k = ddir & ~SSD_BLK_FUA;
	char cmd[128], msg[384], why[128];
	snprintf(cmd, sizeof cmd, "%s%s command %" PRIu64 " at offset %" PRIu64
		 ", %u bytes, submitted at %" PRId64 " ns", word[k & 3],
		 ddir & SSD_BLK_FUA ? " (FUA)" : "", cmdno, offset, len, t);
	if (rule == 0) {
		snprintf(msg, sizeof msg, "%s: before the previous submission at "
			 "%" PRId64 " ns", cmd, prev);
	} else if (rule == 1) {
		snprintf(msg, sizeof msg, "%s: completes at %" PRId64 " ns, before "
			 "it was submitted", cmd, done);
	} else {
		int64_t floor = 0;
		int n = 0;
		why[0] = 0;
		for (int i = 0; i < SSD_TC_N; i++) {
			floor += part[i];
			if ((part[i] || i == SSD_TC_CMD) && n >= 0 &&
			    (size_t)n < sizeof why)
				n += snprintf(why + n, sizeof why - (size_t)n, "%s%s %"
					      PRId64, n ? ", " : "", name[i], part[i]);
		}
		snprintf(msg, sizeof msg, "%s: completes at %" PRId64 " ns, %" PRId64
			 " ns later, less than its work (%" PRId64 " ns: %s)", cmd,
			 done, done - t, floor, why);
	}
	if (report)
		ssd_ftl_check_report(report, msg);
}

int64_t ssd_tcheck(struct ssd_tcheck *k, struct ssd_ftl *report, uint64_t cmd,
		   int ddir, uint64_t offset, uint32_t len, int64_t t,
		   int64_t done, const int64_t *part)
{
	int64_t prev = k->prev;
	if (t > prev)
		k->prev = t;
	if (k->fault_early && !k->fault_hidden)
		done -= k->fault_early;
	int64_t floor = 0;
	for (int i = 0; part && i < SSD_TC_N; i++)
		floor += part[i];
	if (t < prev)
		broken(report, cmd, 0, ddir, offset, len, t, prev, done, part);
	else if (done < t)
		broken(report, cmd, 1, ddir, offset, len, t, prev, done, part);
	else if (part && done - t < floor)
		broken(report, cmd, 2, ddir, offset, len, t, prev, done, part);
	if (k->fault_early && k->fault_hidden)
		done -= k->fault_early;
	return done;
}
