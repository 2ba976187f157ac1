/*
 * t_node.c -- t_node.h.
 */
#include "t_node.h"

#include <stdlib.h>
#include <string.h>

static void seen(struct t_node *f, int64_t t)
{
	if (t < f->last)
		f->bad_order++;
	f->last = t;
}

static void record(struct t_node *f, int ddir, uint64_t off, uint32_t len,
		   int64_t t, int64_t done)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 1024;
		struct t_cmd *c = realloc(f->cmd, cap * sizeof *c);
		if (!c) {
			f->nomem = 1;
			return;
		}
		f->cmd = c;
		f->cap = cap;
	}
	f->cmd[f->n++] = (struct t_cmd){ddir, off, len, t, done};
}

static int64_t fake_submit(struct ssd_blk *b, int ddir, uint64_t off,
			   uint32_t len, int64_t t)
{
	struct t_node *f = (struct t_node *)b;
	const struct t_node_cost *k = &f->cost;
	seen(f, t);
	if (len == 0 || off + len > b->capacity)
		f->bad_range++;
	int64_t start = k->serial && f->busy > t ? f->busy : t;
	int64_t done = start + ((ddir & 0xff) == SSD_DDIR_TRIM ? k->trim_ns
				: k->cmd_ns + k->byte_ns * (int64_t)len);
	if (k->spread)
		done += (int64_t)(off % k->spread);
	if (done > f->busy)
		f->busy = done;
	record(f, ddir, off, len, t, done);
	return done;
}

static int64_t fake_flush(struct ssd_blk *b, int64_t t)
{
	struct t_node *f = (struct t_node *)b;
	seen(f, t);
	int64_t done = (f->busy > t ? f->busy : t) + f->cost.flush_ns;
	record(f, SSD_DDIR_SYNC, 0, 0, t, done);
	return done;
}

static int fake_idle(struct ssd_blk *b, int64_t until)
{
	struct t_node *f = (struct t_node *)b;
	seen(f, until);
	f->idles++;
	return 0;
}

static void fake_destroy(struct ssd_blk *b)
{
	struct t_node *f = (struct t_node *)b;
	free(f->cmd);
	free(f);
}

static const struct ssd_blk_ops fake_ops = {
	.kind = "fake", .submit = fake_submit, .flush = fake_flush,
	.idle = fake_idle, .destroy = fake_destroy,
};

struct t_node *t_node_new(uint64_t capacity, struct t_node_cost cost)
{
	struct t_node *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	f->blk.ops = &fake_ops;
	strcpy(f->blk.name, "fake");
	f->blk.capacity = capacity;
	f->cost = cost;
	return f;
}

size_t t_node_count(const struct t_node *f, size_t from, int ddir)
{
	size_t n = 0;
	for (size_t i = from; i < f->n; i++)
		n += (f->cmd[i].ddir & 0xff) == ddir;
	return n;
}

double t_node_stat(const struct ssd_blk *b, const char *key, double missing)
{
	struct ssd_blk_stat s;
	for (int i = 0; b->ops->stat(b, i, &s); i++)
		if (!strcmp(s.key, key))
			return s.value;
	return missing;
}
