/*
 * layout.c -- files placed on the drive as a fresh file system would
 * (see layout.h).  An array of files in order of first use, and an
 * open-addressing hash of their names (FNV-1a, linear probing, at most
 * half full).
 */
#include "job/layout.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct lfile {
	char *name;
	uint64_t need;   /* the largest length asked for */
	uint64_t base;   /* after placement */
	int tag;
};

struct ssd_layout {
	struct lfile *f;
	uint32_t n, cap;
	uint32_t *slot;  /* index + 1, 0 = empty */
	uint32_t nslot;  /* a power of two */
	uint64_t end;
};

static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

struct ssd_layout *ssd_layout_new(void)
{
	struct ssd_layout *l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	l->nslot = 64;
	l->slot = calloc(l->nslot, sizeof *l->slot);
	if (!l->slot) {
		free(l);
		return NULL;
	}
	return l;
}

void ssd_layout_free(struct ssd_layout *l)
{
	if (!l)
		return;
	for (uint32_t i = 0; i < l->n; i++)
		free(l->f[i].name);
	free(l->f);
	free(l->slot);
	free(l);
}

/* The slot of `name`: its file, or the empty slot where it would go. */
static uint32_t find_slot(const struct ssd_layout *l, const char *name)
{
	uint32_t m = l->nslot - 1, s = (uint32_t)name_hash(name) & m;
	while (l->slot[s] && strcmp(l->f[l->slot[s] - 1].name, name))
		s = (s + 1) & m;
	return s;
}

/* Twice the slots; SSD_ENOMEM leaves the table as it was. */
static int grow_slots(struct ssd_layout *l)
{
	uint32_t *slot = calloc((size_t)l->nslot * 2, sizeof *slot);
	if (!slot)
		return SSD_ENOMEM;
	free(l->slot);
	l->slot = slot;
	l->nslot *= 2;
	for (uint32_t i = 0; i < l->n; i++)
		l->slot[find_slot(l, l->f[i].name)] = i + 1;
	return 0;
}

uint32_t ssd_layout_use(struct ssd_layout *l, const char *name,
			uint64_t need, int tag)
{
	uint32_t s = find_slot(l, name);
	if (l->slot[s]) {
		struct lfile *f = &l->f[l->slot[s] - 1];
		if (need > f->need)
			f->need = need;
		return l->slot[s] - 1;
	}
	if (l->n == l->cap) {
		struct lfile *nf = ssd_grow(l->f, &l->cap, sizeof *nf, 16);
		if (!nf)
			return UINT32_MAX;
		l->f = nf;
	}
	/* at most half full: grow before the new name goes in */
	if (2 * (l->n + 1) > l->nslot) {
		if (grow_slots(l))
			return UINT32_MAX;
		s = find_slot(l, name);
	}
	size_t len = strlen(name) + 1;
	struct lfile *f = &l->f[l->n];
	f->name = malloc(len);
	if (!f->name)
		return UINT32_MAX;
	memcpy(f->name, name, len);
	f->need = need;
	f->base = 0;
	f->tag = tag;
	l->slot[s] = ++l->n;
	return l->n - 1;
}

uint32_t ssd_layout_find(const struct ssd_layout *l, const char *name)
{
	uint32_t s = find_slot(l, name);
	return l->slot[s] ? l->slot[s] - 1 : UINT32_MAX;
}

uint32_t ssd_layout_count(const struct ssd_layout *l)
{
	return l->n;
}

int ssd_layout_place(struct ssd_layout *l, uint64_t capacity,
		     uint32_t *first_out)
{
	uint64_t at = 0;
	for (uint32_t i = 0; i < l->n; i++) {
		struct lfile *f = &l->f[i];
		uint64_t len = f->need + (SSD_LAYOUT_ALIGN - 1);
		if (len < f->need || at > capacity ||
		    len / SSD_LAYOUT_ALIGN > (capacity - at) / SSD_LAYOUT_ALIGN) {
			if (first_out)
				*first_out = i;
			return SSD_ERANGE;
		}
		f->base = at;
		at += len - len % SSD_LAYOUT_ALIGN;
	}
	l->end = at;
	return 0;
}

uint64_t ssd_layout_base(const struct ssd_layout *l, uint32_t i)
{
	return l->f[i].base;
}

uint64_t ssd_layout_len(const struct ssd_layout *l, uint32_t i)
{
	return l->f[i].need;
}

const char *ssd_layout_name(const struct ssd_layout *l, uint32_t i)
{
	return l->f[i].name;
}

int ssd_layout_tag(const struct ssd_layout *l, uint32_t i)
{
	return l->f[i].tag;
}

uint64_t ssd_layout_end(const struct ssd_layout *l)
{
	return l->end;
}
