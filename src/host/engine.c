/*
 * engine.c -- binary heap of events (see engine.h).
 */
#include "host/engine.h"

#include <stdlib.h>

#include "base/util.h"

static inline int before(const struct ssd_event *a, const struct ssd_event *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

int ssd_engine_init(struct ssd_engine *e, uint32_t cap)
{
	e->n = 0;
	e->seq = 0;
	e->cap = cap ? cap : 16;
	e->heap = malloc(e->cap * sizeof *e->heap);
	return e->heap ? 0 : SSD_ENOMEM;
}

void ssd_engine_free(struct ssd_engine *e)
{
	free(e->heap);
	e->heap = NULL;
	e->n = e->cap = 0;
}

int ssd_engine_push(struct ssd_engine *e, const struct ssd_event *ev)
{
	if (e->n == e->cap) {
		struct ssd_event *h = realloc(e->heap, 2 * e->cap * sizeof *h);
		if (!h)
			return SSD_ENOMEM;
		e->heap = h;
		e->cap *= 2;
	}
	struct ssd_event x = *ev;
	x.seq = e->seq++;
	uint32_t i = e->n++;
	while (i > 0) {
		uint32_t p = (i - 1) / 2;
		if (!before(&x, &e->heap[p]))
			break;
		e->heap[i] = e->heap[p];
		i = p;
	}
	e->heap[i] = x;
	return 0;
}

int ssd_engine_pop(struct ssd_engine *e, struct ssd_event *ev)
{
	if (!e->n)
		return 0;
	*ev = e->heap[0];
	struct ssd_event last = e->heap[--e->n];
	uint32_t i = 0, n = e->n;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && before(&e->heap[c + 1], &e->heap[c]))
			c++;
		if (!before(&e->heap[c], &last))
			break;
		e->heap[i] = e->heap[c];
		i = c;
	}
	if (n)
		e->heap[i] = last;
	return 1;
}
