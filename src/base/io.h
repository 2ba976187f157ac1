/*
 * io.h -- the directions of a host command, shared by the layers that
 * issue commands (host jobs, the device) and those that count them.
 *
 * SSD_DDIR_READ, _WRITE and _TRIM carry data and have statistics, in
 * arrays indexed by the direction (SSD_DDIR_N of them); SSD_DDIR_SYNC is
 * a flush: no data, not in the statistics.
 */
#ifndef SSD_IO_H
#define SSD_IO_H

enum ssd_ddir { SSD_DDIR_READ = 0, SSD_DDIR_WRITE = 1, SSD_DDIR_TRIM = 2,
	        SSD_DDIR_SYNC = 3 /* a flush: no data, not in the stats */ };
#define SSD_DDIR_N 3 /* directions with statistics */

#endif
