/*
 * t_power.c -- t_power.h.
 */
#include "t_power.h"

#include <stdlib.h>
#include <string.h>

#include "ftl/ftl.h"
#include "machine/verify.h"
#include "t_sim.h"

struct ssd_dev *t_power_drive(const char *const *sets, int n, char *err,
			      size_t errlen)
{
	static const char *const shape[] = {"page_size=16k", "capacity=256m"};
	struct ssd_config c;
	struct ssd_dev *d = NULL;
	if (ssd_config_open(&c, "tiny", SSDLAB_PRESET_DIR, err, errlen) ||
	    t_sim_set(&c, shape, 2, err, errlen) ||
	    t_sim_set(&c, sets, n, err, errlen) ||
	    ssd_config_finish(&c, err, errlen) || ssd_dev_create(&c, 1, &d))
		return NULL;
	ssd_dev_set_check_every(d, 1);
	if (ssd_verify_attach(d) || ssd_dev_power_track(d)) {
		ssd_dev_destroy(d);
		return NULL;
	}
	return d;
}

int64_t t_power_put(struct ssd_dev *d, uint32_t lpn, int fua, int64_t t)
{
	ssd_vrec_write(d->vrec, lpn, 1);
	return ssd_dev_submit(d, SSD_DDIR_WRITE | (fua ? SSD_DEV_FUA : 0),
			      (uint64_t)lpn * 4096, 4096, t);
}

int t_power_holds(const struct ssd_dev *d, uint32_t lpn, uint32_t cnt)
{
	uint32_t lp, tag;
	return ssd_ftl_verify_get(d->ftl, lpn, &lp, &tag) && lp == lpn &&
	       (tag & SSD_VREC_COUNT) == cnt;
}

int t_power_cut(struct ssd_dev *d, int64_t t, struct ssd_power_cut *pc)
{
	memset(pc, 0, sizeof *pc);
	pc->t = t;
	pc->on = t + 1000000;
	int rc = ssd_dev_power_cut(d, pc);
	free(pc->touched); /* the count stays */
	pc->touched = NULL;
	return rc;
}
