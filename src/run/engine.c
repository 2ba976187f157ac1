/*
 * engine.c -- binary heap of events (see engine.h, which holds the push
 * and the pop, inline).
 */
#include "run/engine.h"

#include <stdlib.h>

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

int ssd_engine_grow(struct ssd_engine *e)
{
	struct ssd_event *h = realloc(e->heap, 2 * e->cap * sizeof *h);
	if (!h)
		return SSD_ENOMEM;
	e->heap = h;
	e->cap *= 2;
	return 0;
}
