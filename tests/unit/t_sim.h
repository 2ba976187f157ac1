/*
 * t_sim.h -- a drive made from a preset and settings, and job file text
 * run on it, for the unit tests that do it again and again
 * (tests/unit/run/, tests/unit/machine/, tests/unit/ftl/).
 */
#ifndef T_SIM_H
#define T_SIM_H

#include <stddef.h>

#include "base/config.h"
#include "machine/device.h"
#include "run/sim.h"

/* Set each of sets[0..n) ("KEY=VALUE") in c, in order: 0, or an SSD_E*
 * code with err set. */
int t_sim_set(struct ssd_config *c, const char *const *sets, int n,
	      char *err, size_t errlen);

/* The drive file `preset` (from SSDLAB_PRESET_DIR; NULL: the defaults)
 * with sets[0..n) set over it, finished: 0, or an SSD_E* code with err
 * set. */
int t_sim_config(struct ssd_config *c, const char *preset,
		 const char *const *sets, int n, char *err, size_t errlen);

/* The same as a fresh device (one thread): NULL with err set if it
 * cannot be made. */
struct ssd_dev *t_sim_drive(const char *preset, const char *const *sets,
			    int n, char *err, size_t errlen);

/* Parse job text (as "t.fio") and run it on d.  Returns ssd_sim_run's
 * code, or the parser's; *res is filled either way (free it), or zeroed
 * if the text does not parse; err gets the message. */
int t_sim_run(struct ssd_dev *d, const char *text, struct ssd_run_result *res,
	      char *err, size_t errlen);

#endif
