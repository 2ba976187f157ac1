/*
 * fileset.c -- files laid on a drive, copied and deleted (see fileset.h).
 *
 * The copy and the delete drive the device directly, as a closed loop of
 * `qd` slots: each command is submitted when the earliest slot frees (and
 * never before the previous submission, which the device requires), the
 * same schedule the job runner gives a job with that iodepth, without its
 * per-job bookkeeping -- a million files are a million short streams.
 */
#include "job/fileset.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define QD_MAX 256
#define TRIM_MAX (1u << 30) /* the longest TRIM command: 1 GiB */

void ssd_fileset_free(struct ssd_fileset *fs)
{
	free(fs->f);
	memset(fs, 0, sizeof *fs);
}

/* A standard normal deviate (Box-Muller; one of the pair is dropped). */
static double normal(struct ssd_rng *r)
{
	double u1 = 1 - ssd_rng_unit(r); /* (0, 1] */
	double u2 = ssd_rng_unit(r);
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

int ssd_fileset_make(struct ssd_fileset *fs, uint64_t start, uint64_t region,
		     uint64_t bytes, uint64_t files, double sigma, uint64_t seed)
{
	memset(fs, 0, sizeof *fs);
	bytes -= bytes % SSD_LPAGE;
	const uint64_t units = bytes / SSD_LPAGE; /* 4 KiB clusters */
	if (start % SSD_LPAGE || region % SSD_LPAGE || bytes > region ||
	    files < 1 || files > units || !(sigma >= 0))
		return SSD_EINVAL;
	struct ssd_fileset_file *f = malloc(files * sizeof *f);
	double *x = malloc((files + 1) * sizeof *x); /* draws, then gaps */
	if (!f || !x) {
		free(f);
		free(x);
		return SSD_ENOMEM;
	}
	struct ssd_rng rng;
	ssd_rng_seed(&rng, seed);

	/* sizes, in creation order: lognormal draws scaled so that every
	 * file has one cluster plus its share of the other units - n,
	 * rounded down; the clusters the rounding leaves over (fewer than
	 * n) go one each to the first files */
	double sum = 0;
	for (uint64_t i = 0; i < files; i++) {
		x[i] = exp(sigma * normal(&rng));
		sum += x[i];
	}
	const double share = (double)(units - files) / sum;
	uint64_t given = 0;
	for (uint64_t i = 0; i < files; i++) {
		uint64_t u = 1 + (uint64_t)(x[i] * share);
		uint64_t room = units - (files - 1 - i) - given; /* >= 1 */
		f[i].len = u < room ? u : room; /* room: float rounding */
		given += f[i].len;
	}
	for (uint64_t i = 0; given < units; i++, given++)
		f[i].len++;
	for (uint64_t i = 0; i < files; i++)
		f[i].len *= SSD_LPAGE;

	/* layout: the free space as n + 1 random gaps (uniform spacings are
	 * normalised exponentials), in whole clusters */
	const uint64_t free_lp = (region - bytes) / SSD_LPAGE;
	double wsum = 0, wcum = 0;
	for (uint64_t i = 0; free_lp && i <= files; i++) {
		x[i] = -log(1 - ssd_rng_unit(&rng));
		wsum += x[i];
	}
	uint64_t used = 0;
	for (uint64_t i = 0; i < files; i++) {
		uint64_t gap = 0;
		if (free_lp) {
			wcum += x[i];
			gap = (uint64_t)((double)free_lp * (wcum / wsum));
			if (gap > free_lp)
				gap = free_lp;
		}
		f[i].offset = start + gap * SSD_LPAGE + used;
		used += f[i].len;
	}
	free(x);

	/* copy order: a random permutation (Fisher-Yates) */
	for (uint64_t i = files; i > 1; i--) {
		uint64_t j = ssd_rng_below(&rng, i);
		struct ssd_fileset_file t = f[i - 1];
		f[i - 1] = f[j];
		f[j] = t;
	}
	fs->f = f;
	fs->n = files;
	fs->bytes = bytes;
	return 0;
}

/* Every file in copy order, in commands of at most `bs` bytes, `qd` in
 * flight. */
static int play(struct ssd_dev *dev, const struct ssd_fileset *fs, int ddir,
		uint32_t bs, uint32_t qd, struct ssd_fileset_run *r)
{
	int64_t slot[QD_MAX];
	memset(r, 0, sizeof *r);
	if (qd < 1)
		qd = 1;
	if (qd > QD_MAX)
		qd = QD_MAX;
	int64_t t = ssd_dev_time(dev);
	for (uint32_t k = 0; k < qd; k++)
		slot[k] = t;
	r->start = t;
	for (uint64_t i = 0; i < fs->n; i++) {
		const struct ssd_fileset_file *f = &fs->f[i];
		for (uint64_t done = 0; done < f->len;) {
			uint32_t len = f->len - done > bs ? bs : (uint32_t)(f->len - done);
			uint32_t k = 0;
			for (uint32_t j = 1; j < qd; j++)
				if (slot[j] < slot[k])
					k = j;
			if (slot[k] > t)
				t = slot[k];
			int64_t c = ssd_dev_submit(dev, ddir, f->offset + done, len, t);
			if (c < 0)
				return (int)c;
			slot[k] = c;
			r->cmds++;
			r->bytes += len;
			done += len;
		}
	}
	r->end = r->start;
	for (uint32_t k = 0; k < qd; k++)
		if (slot[k] > r->end)
			r->end = slot[k];
	return 0;
}

int ssd_fileset_write(struct ssd_dev *dev, const struct ssd_fileset *fs,
		      uint32_t bs, uint32_t qd, struct ssd_fileset_run *r)
{
	if (bs < SSD_LPAGE)
		bs = SSD_LPAGE;
	return play(dev, fs, SSD_DDIR_WRITE, bs - bs % SSD_LPAGE, qd, r);
}

int ssd_fileset_trim(struct ssd_dev *dev, const struct ssd_fileset *fs,
		     uint32_t qd, struct ssd_fileset_run *r)
{
	return play(dev, fs, SSD_DDIR_TRIM, TRIM_MAX, qd, r);
}
