/*
 * engine.h -- the event queue of the simulation: a binary min-heap of
 * events ordered by (time, sequence), so events at the same simulated
 * nanosecond run in the order they were scheduled and runs are
 * deterministic.  It holds only what must be ordered -- host command
 * completions and deferred submissions; NAND operations are scheduled by
 * busy-until stamps and never become events.  Events are 24 bytes and
 * carry an index into the caller's own tables, so the heap moves little
 * memory.
 */
#ifndef SSD_ENGINE_H
#define SSD_ENGINE_H

#include <stdint.h>

#include "base/util.h"

struct ssd_event {
	int64_t time;       /* simulated ns */
	uint64_t seq;       /* tie-break: scheduling order */
	uint32_t id;        /* what the event is about (the caller's index) */
	uint32_t kind;      /* what happens (the caller's enum) */
};

struct ssd_engine {
	struct ssd_event *heap;
	uint32_t n, cap;    /* events in heap[] (a taken top included) */
	uint64_t seq;
	int top_taken;      /* heap[0] was popped, its slot awaits the next
	                       push (below) */
};

/* 0 or SSD_ENOMEM.  `cap` is the most events ever queued at once. */
int ssd_engine_init(struct ssd_engine *e, uint32_t cap);
void ssd_engine_free(struct ssd_engine *e);
/* Queue a copy of *ev (its seq is assigned here).  0 or SSD_ENOMEM. */
static inline int ssd_engine_push(struct ssd_engine *e,
				  const struct ssd_event *ev);
/* The same for the event (time, id, kind), passed in registers. */
static inline int ssd_engine_schedule(struct ssd_engine *e, int64_t time,
				      uint32_t id, uint32_t kind);
/* Remove the earliest event into *ev; 0 if the queue was empty. */
static inline int ssd_engine_pop(struct ssd_engine *e, struct ssd_event *ev);

/* ---- the implementation, inline: both run once per host command ----
 *
 * Cost.  The runner pops a completion and, handling it, usually pushes
 * the next command's completion: a pop that removes the top at once and
 * a push that sifts up would walk the heap twice.  So a pop only copies
 * the top out and marks it taken (top_taken); the next push puts its
 * event into the taken slot and sifts it down (see replace_root), and
 * the next pop with the mark still set removes it first.  The order of
 * events is (time, seq), a total order, so every valid heap pops the
 * same sequence: the heap's layout is no part of the result.  Inline,
 * so the caller's event can stay in registers. */

/* Doubles the heap's room: 0 or SSD_ENOMEM (engine.c). */
int ssd_engine_grow(struct ssd_engine *e);

/* (time, seq) as one unsigned 128-bit number (time's sign bit flipped):
 * one compare, no branch -- which child is smaller is a coin toss that a
 * branch predictor loses half the time. */
static inline unsigned __int128 ssd_engine_key_(const struct ssd_event *x)
{
	return (unsigned __int128)((uint64_t)x->time ^ (1ULL << 63)) << 64 |
	       x->seq;
}

static inline int ssd_engine_before_(const struct ssd_event *a,
				     const struct ssd_event *b)
{
	return ssd_engine_key_(a) < ssd_engine_key_(b);
}

/* Always inline: out of line, x would be passed in memory, stored field
 * by field and read back wide -- a store-forwarding stall per event. */
#define SSD_ENGINE_INLINE_ static inline __attribute__((always_inline))

/* Event x rises from slot i towards the root to its place. */
SSD_ENGINE_INLINE_ void ssd_engine_sift_up_(struct ssd_event *h, uint32_t i,
				       const struct ssd_event *x)
{
	while (i > 0) {
		uint32_t p = (i - 1) / 2;
		if (!ssd_engine_before_(x, &h[p]))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = *x;
}

/* The root's slot gets x, in a heap of n events (the root included).
 * The next command's completion is mostly either before nearly every
 * other (while GC holds those) or after every other: the walk goes down
 * top-down for two levels, which places the first kind at once, then
 * bottom-up (Floyd's: the hole to a leaf along the smaller children, one
 * compare a level, then x rises), which suits the second. */
SSD_ENGINE_INLINE_ void ssd_engine_replace_root_(struct ssd_event *h, uint32_t n,
					    const struct ssd_event *x)
{
	uint32_t i = 0;
	for (int level = 0; level < 2; level++) {
		uint32_t c = 2 * i + 1;
		if (c + 1 < n)
			c += (uint32_t)ssd_engine_before_(&h[c + 1], &h[c]);
		if (c >= n || ssd_engine_before_(x, &h[c])) {
			h[i] = *x;
			return;
		}
		h[i] = h[c];
		i = c;
	}
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c + 1 < n)
			c += (uint32_t)ssd_engine_before_(&h[c + 1], &h[c]);
		else if (c >= n)
			break;
		h[i] = h[c];
		i = c;
	}
	ssd_engine_sift_up_(h, i, x);
}

static inline int ssd_engine_schedule(struct ssd_engine *e, int64_t time,
				      uint32_t id, uint32_t kind)
{
	if (!e->top_taken && e->n == e->cap && ssd_engine_grow(e))
		return SSD_ENOMEM;
	struct ssd_event x = {.time = time, .seq = e->seq++, .id = id,
			      .kind = kind};
	if (e->top_taken) {
		e->top_taken = 0;
		ssd_engine_replace_root_(e->heap, e->n, &x);
	} else {
		ssd_engine_sift_up_(e->heap, e->n++, &x);
	}
	return 0;
}

/* Field by field: a caller's event is often just stored, and one wide
 * load of fields stored apart would wait for the stores to retire. */
static inline int ssd_engine_push(struct ssd_engine *e,
				  const struct ssd_event *ev)
{
	return ssd_engine_schedule(e, ev->time, ev->id, ev->kind);
}

static inline int ssd_engine_pop(struct ssd_engine *e, struct ssd_event *ev)
{
	if (e->top_taken) {
		/* remove the taken top */
		e->top_taken = 0;
		uint32_t n = --e->n;
		if (n)
			ssd_engine_replace_root_(e->heap, n, &e->heap[n]);
	}
	if (!e->n)
		return 0;
	*ev = e->heap[0];
	e->top_taken = 1;
	return 1;
}

#endif
