/*
 * streams.c -- host write streams on placement handles (streams.h).
 */
#include "methods/streams.h"

#include <string.h>

#include "machine/blk.h"

void ssd_streams_init(struct ssd_streams *m, struct ssd_dev *dev,
		      uint64_t seed)
{
	memset(m, 0, sizeof *m);
	m->dev = dev;
	ssd_rng_seed(&m->rng, seed);
	m->t = ssd_dev_time(dev);
}

/* One page write of stream s at its region's page p. */
static int put(struct ssd_streams *m, const struct ssd_stream *s, uint64_t p)
{
	int64_t c = ssd_dev_submit(m->dev, SSD_DDIR_WRITE |
				   SSD_BLK_PLACEMENT(s->handle),
				   (s->start + p) * SSD_LPAGE, SSD_LPAGE, m->t);
	if (c < 0)
		return (int)c;
	m->t = c;
	return 0;
}

int ssd_streams_fill(struct ssd_streams *m)
{
	uint64_t at[SSD_STREAMS_MAX] = {0};
	for (int busy = 1; busy;) {
		busy = 0;
		for (int i = 0; i < m->n; i++) {
			struct ssd_stream *s = &m->s[i];
			for (uint32_t k = 0; k < s->piece && at[i] < s->len; k++) {
				int rc = put(m, s, at[i]++);
				if (rc)
					return rc;
			}
			busy |= at[i] < s->len;
		}
	}
	return 0;
}

/* A turn of stream s: a piece of its pattern. */
static int turn(struct ssd_streams *m, struct ssd_stream *s)
{
	if (s->kind == SSD_STREAM_RANDOM) {
		for (uint32_t k = 0; k < s->piece; k++) {
			int rc = put(m, s, ssd_rng_below(&m->rng, s->len));
			if (rc)
				return rc;
		}
		s->written += s->piece;
		return 0;
	}
	if (s->kind == SSD_STREAM_LOG_TRIM && s->pos % s->trim == 0) {
		int64_t c = ssd_dev_submit(m->dev, SSD_DDIR_TRIM,
					   (s->start + s->pos) * SSD_LPAGE,
					   s->trim * SSD_LPAGE, m->t);
		if (c < 0)
			return (int)c;
		m->t = c;
	}
	for (uint32_t k = 0; k < s->piece; k++) {
		int rc = put(m, s, s->pos);
		if (rc)
			return rc;
		s->pos = s->pos + 1 == s->len ? 0 : s->pos + 1;
	}
	s->written += s->piece;
	return 0;
}

int ssd_streams_run(struct ssd_streams *m, uint64_t pages)
{
	/* a turn writes a piece: stream i takes turns in proportion to
	 * share_i / piece_i, so its share of the pages is share_i */
	double w[SSD_STREAMS_MAX], total = 0;
	for (int i = 0; i < m->n; i++) {
		const struct ssd_stream *s = &m->s[i];
		if (!s->piece || !s->len || s->share < 0 ||
		    (s->kind == SSD_STREAM_LOG_TRIM &&
		     (!s->trim || s->trim % s->piece || s->len % s->trim)))
			return SSD_EINVAL;
		w[i] = s->share / s->piece;
		total += w[i];
	}
	if (!(total > 0))
		return SSD_EINVAL;
	for (uint64_t done = 0; done < pages;) {
		double x = ssd_rng_unit(&m->rng) * total;
		int i = 0;
		while (i + 1 < m->n && (x -= w[i]) >= 0)
			i++;
		if (!(w[i] > 0)) /* a rounding edge: the last weight */
			continue;
		int rc = turn(m, &m->s[i]);
		if (rc)
			return rc;
		done += m->s[i].piece;
	}
	return 0;
}
