/*
 * engine.c -- binary heap of events (see engine.h).
 *
 * Cost.  The runner pops a completion and, handling it, usually pushes
 * the next command's completion: a pop that removes the top at once and
 * a push that sifts up would walk the heap twice.  So a pop only copies
 * the top out and marks it taken (top_taken); the next push puts its
 * event into the taken slot and sifts it down, and the next pop with the
 * mark still set removes it first.  Sifting down is bottom-up (Floyd's):
 * the hole goes down along the smaller child to a leaf, one compare per
 * level, and the event then rises from there -- little, since a new
 * completion is among the latest events.  The order of events is
 * (time, seq), a total order, so every valid heap pops the same sequence:
 * the heap's layout is no part of the result.
 */
#include "host/engine.h"

#include <stdlib.h>

#include "base/util.h"

/* (time, seq) as one unsigned 128-bit number (time's sign bit flipped):
 * one compare, no branch -- which child is smaller is a coin toss that a
 * branch predictor loses half the time. */
static inline unsigned __int128 key(const struct ssd_event *e)
{
	return (unsigned __int128)((uint64_t)e->time ^ (1ULL << 63)) << 64 |
	       e->seq;
}

static inline int before(const struct ssd_event *a, const struct ssd_event *b)
{
	return key(a) < key(b);
}

int ssd_engine_init(struct ssd_engine *e, uint32_t cap)
{
	e->n = 0;
	e->seq = 0;
	e->top_taken = 0;
	e->cap = cap ? cap : 16;
	e->heap = malloc(e->cap * sizeof *e->heap);
	return e->heap ? 0 : SSD_ENOMEM;
}

void ssd_engine_free(struct ssd_engine *e)
{
	free(e->heap);
	e->heap = NULL;
	e->n = e->cap = 0;
	e->top_taken = 0;
}

/* Event x rises from slot i towards the root to its place. */
static inline void sift_up(struct ssd_event *h, uint32_t i,
			   const struct ssd_event *x)
{
	while (i > 0) {
		uint32_t p = (i - 1) / 2;
		if (!before(x, &h[p]))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = *x;
}

/* The root's slot gets x, in a heap of n events (the root included). */
static inline void replace_root(struct ssd_event *h, uint32_t n,
				const struct ssd_event *x)
{
	uint32_t i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c + 1 < n)
			c += (uint32_t)before(&h[c + 1], &h[c]);
		else if (c >= n)
			break;
		h[i] = h[c];
		i = c;
	}
	sift_up(h, i, x);
}

/* Remove the taken top, if any. */
static inline void drop_taken(struct ssd_engine *e)
{
	if (!e->top_taken)
		return;
	e->top_taken = 0;
	uint32_t n = --e->n;
	if (n)
		replace_root(e->heap, n, &e->heap[n]);
}

int ssd_engine_push(struct ssd_engine *e, const struct ssd_event *ev)
{
	if (!e->top_taken && e->n == e->cap) {
		struct ssd_event *h = realloc(e->heap, 2 * e->cap * sizeof *h);
		if (!h)
			return SSD_ENOMEM;
		e->heap = h;
		e->cap *= 2;
	}
	struct ssd_event x = *ev;
	x.seq = e->seq++;
	if (e->top_taken) {
		e->top_taken = 0;
		replace_root(e->heap, e->n, &x);
	} else {
		sift_up(e->heap, e->n++, &x);
	}
	return 0;
}

int ssd_engine_pop(struct ssd_engine *e, struct ssd_event *ev)
{
	drop_taken(e);
	if (!e->n)
		return 0;
	*ev = e->heap[0];
	e->top_taken = 1;
	return 1;
}
