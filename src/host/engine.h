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
	                       push (engine.c) */
};

/* 0 or SSD_ENOMEM.  `cap` is the most events ever queued at once. */
int ssd_engine_init(struct ssd_engine *e, uint32_t cap);
void ssd_engine_free(struct ssd_engine *e);
/* Queue a copy of *ev (its seq is assigned here).  0 or SSD_ENOMEM. */
int ssd_engine_push(struct ssd_engine *e, const struct ssd_event *ev);
/* Remove the earliest event into *ev; 0 if the queue was empty. */
int ssd_engine_pop(struct ssd_engine *e, struct ssd_event *ev);

#endif
