/*
 * hdd_node.c -- a hard disk (hdd/hdd.h) as a node of the machine
 * (hdd_node.h): commands, flush and idle time go to the disk; its own
 * figures (media traffic, seeks, rotation, the buffer) come out as the
 * node's rows; a disk that reorders its queue offers the queue's
 * operations.
 */
#include "machine/hdd_node.h"

#include <stdlib.h>

#include "hdd/hdd.h"

struct hdd_node {
	struct ssd_blk b;
	struct ssd_hdd *h;
};

static int64_t hdd_node_submit(struct ssd_blk *b, int ddir, uint64_t offset,
			       uint32_t len, int64_t t)
{
	return ssd_hdd_submit(((struct hdd_node *)b)->h, ddir & 0xff,
			      (ddir & SSD_BLK_FUA) != 0, offset, len, t);
}

static int64_t hdd_node_flush(struct ssd_blk *b, int64_t t)
{
	return ssd_hdd_flush(((struct hdd_node *)b)->h, t);
}

static int hdd_node_idle(struct ssd_blk *b, int64_t until)
{
	return ssd_hdd_idle(((struct hdd_node *)b)->h, until);
}

static int hdd_node_stat(const struct ssd_blk *b, int i, struct ssd_blk_stat *s)
{
	struct ssd_hdd_stats x;
	ssd_hdd_stats(((const struct hdd_node *)b)->h, &x);
	uint64_t acc = x.media_reads + x.media_writes;
	const struct ssd_blk_stat rows[] = {
		{"media_read_bytes", (double)x.media_read_bytes, "bytes"},
		{"media_write_bytes", (double)x.media_write_bytes, "bytes"},
		{"seeks", (double)x.seeks, "accesses"},
		{"mean_seek_ns", acc ? (double)x.seek_ns / (double)acc : 0, "ns"},
		{"mean_rotation_ns", acc ? (double)x.rot_ns / (double)acc : 0, "ns"},
		{"buffer_hit_bytes", (double)(x.hit_bytes + x.stream_bytes), "bytes"},
		{"read_ahead_bytes", (double)x.readahead_bytes, "bytes"},
		{"write_cache_bytes", (double)x.wc_bytes, "bytes"},
		{"write_cache_waits", (double)x.wc_waits, "writes"},
		{"destages", (double)x.destages, "operations"},
		{"trims_refused", (double)x.trims, "commands"},
	};
	if (i < 0 || i >= (int)(sizeof rows / sizeof rows[0]))
		return 0;
	*s = rows[i];
	return 1;
}

static void hdd_node_destroy(struct ssd_blk *b)
{
	ssd_hdd_destroy(((struct hdd_node *)b)->h);
	free(b);
}

/* The disk's queue, when the disk is the machine's drive itself (counted
 * here: the caller does not go through ssd_blk_submit). */
static int64_t hdd_node_submit_q(struct ssd_blk *b, int ddir, uint64_t offset,
				 uint32_t len, int64_t t)
{
	int d = ddir & 0xff;
	ssd_blk_count(b, ddir, len, t);
	return ssd_hdd_submit_q(((struct hdd_node *)b)->h, d,
				(ddir & SSD_BLK_FUA) != 0, offset, len, t);
}

static void hdd_node_tag_waiting(struct ssd_blk *b, uint32_t tag)
{
	ssd_hdd_tag_waiting(((struct hdd_node *)b)->h, tag);
}

static int64_t hdd_node_next_decision(const struct ssd_blk *b)
{
	return ssd_hdd_next_decision(((const struct hdd_node *)b)->h);
}

static int hdd_node_decide(struct ssd_blk *b, int64_t t, uint32_t *tag,
			   int64_t *done)
{
	return ssd_hdd_decide(((struct hdd_node *)b)->h, t, tag, done);
}

static const struct ssd_blk_ops hdd_node_ops = {
	.kind = "hdd",
	.submit = hdd_node_submit,
	.flush = hdd_node_flush,
	.idle = hdd_node_idle,
	.stat = hdd_node_stat,
	.destroy = hdd_node_destroy,
};

/* A disk that reorders its queue (hdd_queue = sptf): the same, and a
 * caller that takes decisions may hand it the choice (blk.h). */
static const struct ssd_blk_ops hdd_node_ops_q = {
	.kind = "hdd",
	.submit = hdd_node_submit,
	.flush = hdd_node_flush,
	.idle = hdd_node_idle,
	.stat = hdd_node_stat,
	.destroy = hdd_node_destroy,
	.submit_q = hdd_node_submit_q,
	.tag_waiting = hdd_node_tag_waiting,
	.next_decision = hdd_node_next_decision,
	.decide = hdd_node_decide,
};

int ssd_hdd_node_create(const struct ssd_config *c, struct ssd_blk **out)
{
	struct hdd_node *n = calloc(1, sizeof *n);
	if (!n)
		return SSD_ENOMEM;
	int rc = ssd_hdd_create(c, &n->h);
	if (rc) {
		free(n);
		return rc;
	}
	n->b.ops = c->hdd_queue == SSD_HDD_SPTF ? &hdd_node_ops_q : &hdd_node_ops;
	n->b.capacity = c->capacity;
	*out = &n->b;
	return 0;
}


uint64_t ssd_hdd_node_mem(const struct ssd_config *c)
{
	return sizeof(struct hdd_node) + ssd_hdd_mem(c);
}
