/*
 * layout.h -- the files of a job file as a fresh file system places them
 * on the drive.
 *
 * A job file names files (fio's filename, nrfiles, filename_format); the
 * drive has no file system, so ssdlab lays the files out the way a fresh
 * one would: each file one contiguous extent, the files one after another
 * from the start of the drive, each starting on a 4 KiB boundary, in the
 * order the job file first names them (first come, first placed).  A
 * name is one file wherever it appears: two jobs naming the same file
 * work on the same region of the drive, as two fio jobs naming the same
 * file work on the same data; different names get disjoint regions.  A
 * file is as long as the most any of its users needs of it (the file
 * system allocates it its final size); a set that does not fit on the
 * drive is refused.
 *
 * Names are kept in a hash table; use and placement are O(1) per name.
 */
#ifndef SSD_LAYOUT_H
#define SSD_LAYOUT_H

#include <stdint.h>

#define SSD_LAYOUT_ALIGN 4096u /* every file starts on this boundary */

struct ssd_layout;

/* An empty layout, or NULL when out of memory. */
struct ssd_layout *ssd_layout_new(void);
void ssd_layout_free(struct ssd_layout *l);

/* The file called `name` is used by someone who needs `need` bytes of it
 * (0: any length).  The first use of a name creates the file, recording
 * `tag` (the caller's note of who named it first).  Returns the file's
 * index: files are numbered in order of first use; UINT32_MAX when out of
 * memory (the layout is left as it was). */
uint32_t ssd_layout_use(struct ssd_layout *l, const char *name,
			uint64_t need, int tag);

/* The index of the file called `name`, or UINT32_MAX if none is. */
uint32_t ssd_layout_find(const struct ssd_layout *l, const char *name);

/* Files so far. */
uint32_t ssd_layout_count(const struct ssd_layout *l);

/* Place every file, in order of first use, from byte 0 of a drive of
 * `capacity` bytes.  Returns 0, or SSD_ERANGE when the files do not fit:
 * then *first_out is the first file that does not. */
int ssd_layout_place(struct ssd_layout *l, uint64_t capacity,
		     uint32_t *first_out);

/* After ssd_layout_place: where file i starts (bytes from the start of
 * the drive) and how long it is; its name, its first user's tag, and
 * the bytes the whole set occupies with the alignment gaps. */
uint64_t ssd_layout_base(const struct ssd_layout *l, uint32_t i);
uint64_t ssd_layout_len(const struct ssd_layout *l, uint32_t i);
const char *ssd_layout_name(const struct ssd_layout *l, uint32_t i);
int ssd_layout_tag(const struct ssd_layout *l, uint32_t i);
uint64_t ssd_layout_end(const struct ssd_layout *l);

#endif
