/*
 * t_sim.h -- running a job file's text on a drive, for the unit tests
 * that do it again and again (tests/unit/run/, tests/unit/machine/).
 */
#ifndef T_SIM_H
#define T_SIM_H

#include <stddef.h>

#include "machine/device.h"
#include "run/sim.h"

/* Parse job text (as "t.fio") and run it on d.  Returns ssd_sim_run's
 * code, or the parser's; *res is filled either way (free it), or zeroed
 * if the text does not parse; err gets the message. */
int t_sim_run(struct ssd_dev *d, const char *text, struct ssd_run_result *res,
	      char *err, size_t errlen);

#endif
