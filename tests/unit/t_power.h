/*
 * t_power.h -- the power-loss tests' drive and its host record
 * (tests/unit/machine/test_power.c, tests/unit/ftl/test_paired.c).
 */
#ifndef T_POWER_H
#define T_POWER_H

#include <stddef.h>
#include <stdint.h>

#include "machine/device.h"

/* tiny with 16 KiB pages (four 4 KiB pages to a NAND page, so a lone
 * write waits in an open page) and 256 MiB, plus overrides "key=value";
 * the checker after every GC victim, the host record and power-loss
 * tracking on.  NULL with err set if it cannot be made. */
struct ssd_dev *t_power_drive(const char *const *sets, int n, char *err,
			      size_t errlen);
/* Write 4 KiB page lpn at t (with FUA if fua), its host record counted:
 * the completion, or a negative SSD_E*. */
int64_t t_power_put(struct ssd_dev *d, uint32_t lpn, int fua, int64_t t);
/* 1 if lpn reads back the host's write number cnt of it. */
int t_power_holds(const struct ssd_dev *d, uint32_t lpn, uint32_t cnt);
/* Cut the power at t, back 1 ms later; pc filled. */
int t_power_cut(struct ssd_dev *d, int64_t t, struct ssd_power_cut *pc);

#endif
