/*
 * stack.c -- the machine around the drive: the drives as nodes, RAID 0,
 * the builder, and the device's entry points on a machine (stack.h).
 */
#include "machine/stack.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "hdd/hdd.h"
#include "machine/mft.h"
#include "machine/pagecache.h"

/* ---- an SSD as a node: its own device (device.c) ---- */

static int64_t ssd_node_submit(struct ssd_blk *b, int ddir, uint64_t offset,
			       uint32_t len, int64_t t)
{
	return ssd_dev_submit(b->ssd, ddir & ~SSD_BLK_DIRECT, offset, len, t);
}

static int64_t ssd_node_flush(struct ssd_blk *b, int64_t t)
{
	return ssd_dev_flush(b->ssd, t);
}

static int ssd_node_idle(struct ssd_blk *b, int64_t until)
{
	return ssd_dev_idle(b->ssd, until);
}

static int ssd_node_stat(const struct ssd_blk *b, int i, struct ssd_blk_stat *s)
{
	const struct ssd_counters *c = ssd_dev_counters(b->ssd);
	switch (i) {
	case 0:
		*s = (struct ssd_blk_stat){"nand_write_bytes",
			(double)c->nand_prog_lp * SSD_LPAGE, "bytes"};
		return 1;
	case 1:
		*s = (struct ssd_blk_stat){"gc_copy_bytes",
			(double)c->gc_copy_lp * SSD_LPAGE, "bytes"};
		return 1;
	case 2:
		*s = (struct ssd_blk_stat){"waf", ssd_counters_waf(c), "ratio"};
		return 1;
	case 3:
		*s = (struct ssd_blk_stat){"erases", (double)c->nand_erase,
			"blocks"};
		return 1;
	case 4:
		*s = (struct ssd_blk_stat){"free_blocks",
			(double)ssd_dev_free_blocks(b->ssd), "blocks"};
		return 1;
	}
	return 0;
}

static void ssd_node_prefetch(const struct ssd_blk *b, uint64_t offset,
			      uint32_t len, int stage)
{
	ssd_dev_prefetch(b->ssd, offset, len, stage);
}

static void ssd_node_destroy(struct ssd_blk *b)
{
	ssd_dev_destroy(b->ssd);
	free(b);
}

static const struct ssd_blk_ops ssd_node_ops = {
	.kind = "ssd",
	.submit = ssd_node_submit,
	.flush = ssd_node_flush,
	.idle = ssd_node_idle,
	.stat = ssd_node_stat,
	.prefetch = ssd_node_prefetch,
	.destroy = ssd_node_destroy,
};

static int ssd_node_create(const struct ssd_config *c, uint64_t seed,
			   struct ssd_blk **out)
{
	struct ssd_blk *b = calloc(1, sizeof *b);
	if (!b)
		return SSD_ENOMEM;
	int rc = ssd_dev_create(c, seed, &b->ssd);
	if (rc) {
		free(b);
		return rc;
	}
	b->ops = &ssd_node_ops;
	b->capacity = c->capacity;
	*out = b;
	return 0;
}

/* ---- a hard disk as a node (hdd/hdd.h) ---- */

struct hdd_node {
	struct ssd_blk b;
	struct ssd_hdd *h;
};

static int64_t hdd_node_submit(struct ssd_blk *b, int ddir, uint64_t offset,
			       uint32_t len, int64_t t)
{
	return ssd_hdd_submit(((struct hdd_node *)b)->h, ddir & 0xff,
			      (ddir & SSD_DEV_FUA) != 0, offset, len, t);
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

/* The disk's queue, when the disk is the machine's drive itself. */
static int64_t hdd_node_submit_q(struct ssd_blk *b, int ddir, uint64_t offset,
				 uint32_t len, int64_t t)
{
	int d = ddir & 0xff;
	ssd_blk_count(b, ddir, len, t);
	return ssd_hdd_submit_q(((struct hdd_node *)b)->h, d,
				(ddir & SSD_DEV_FUA) != 0, offset, len, t);
}

static const struct ssd_blk_ops hdd_node_ops = {
	.kind = "hdd",
	.submit = hdd_node_submit,
	.flush = hdd_node_flush,
	.idle = hdd_node_idle,
	.stat = hdd_node_stat,
	.destroy = hdd_node_destroy,
};

static int hdd_node_create(const struct ssd_config *c, struct ssd_blk **out)
{
	struct hdd_node *n = calloc(1, sizeof *n);
	if (!n)
		return SSD_ENOMEM;
	int rc = ssd_hdd_create(c, &n->h);
	if (rc) {
		free(n);
		return rc;
	}
	n->b.ops = &hdd_node_ops;
	n->b.capacity = c->capacity;
	*out = &n->b;
	return 0;
}

/* ---- RAID 0: stripe units round-robin over the members ---- */

/*
 * Stripe unit k (of raid_stripe bytes) of the volume is unit k / n of
 * member k % n.  A command is cut at stripe boundaries; the pieces that
 * go to one member are contiguous on it (units k and k + n are
 * neighbours there), so each member gets one command for its share, all
 * at the command's time, and the command completes with the last of
 * them (the block layer merges the pieces of one bio per member the same
 * way).  A flush goes to every member.
 */
struct raid0 {
	struct ssd_blk b;
	uint64_t stripe;
};

static int64_t raid0_submit(struct ssd_blk *b, int ddir, uint64_t offset,
			    uint32_t len, int64_t t)
{
	const struct raid0 *r = (const struct raid0 *)b;
	uint64_t n = b->nlower, su = r->stripe;
	uint64_t k0 = offset / su, k1 = (offset + len - 1) / su;
	int64_t done = t;
	for (uint64_t m = 0; m < n && k0 + m <= k1; m++) {
		/* member of unit k0 + m: its first and last unit of the range */
		uint64_t kf = k0 + m, kl = k1 - (k1 - kf) % n;
		uint64_t from = kf == k0 ? offset : kf * su;
		uint64_t to = kl == k1 ? offset + len : (kl + 1) * su;
		uint64_t moff = kf / n * su + from % su;
		uint64_t mlen = (kl / n - kf / n) * su + (to - kl * su) -
				from % su;
		int64_t c = ssd_blk_submit(b->lower[kf % n], ddir, moff,
					   (uint32_t)mlen, t);
		if (c < 0)
			return c;
		if (c > done)
			done = c;
	}
	return done;
}

/* The hint goes to the member of the command's first stripe unit (the
 * FTL warms at most a few pages of it anyway). */
static void raid0_prefetch(const struct ssd_blk *b, uint64_t offset,
			   uint32_t len, int stage)
{
	const struct raid0 *r = (const struct raid0 *)b;
	uint64_t n = b->nlower, su = r->stripe, k = offset / su;
	uint64_t in = su - offset % su;
	ssd_blk_prefetch(b->lower[k % n], k / n * su + offset % su,
			 (uint32_t)(len < in ? len : in), stage);
}

static int64_t raid0_flush(struct ssd_blk *b, int64_t t)
{
	int64_t done = t;
	for (uint32_t i = 0; i < b->nlower; i++) {
		int64_t c = ssd_blk_flush(b->lower[i], t);
		if (c < 0)
			return c;
		if (c > done)
			done = c;
	}
	return done;
}

static int raid0_idle(struct ssd_blk *b, int64_t until)
{
	for (uint32_t i = 0; i < b->nlower; i++) {
		int rc = ssd_blk_idle(b->lower[i], until);
		if (rc)
			return rc;
	}
	return 0;
}

static int raid0_stat(const struct ssd_blk *b, int i, struct ssd_blk_stat *s)
{
	const struct raid0 *r = (const struct raid0 *)b;
	switch (i) {
	case 0:
		*s = (struct ssd_blk_stat){"members", (double)b->nlower,
			"drives"};
		return 1;
	case 1:
		*s = (struct ssd_blk_stat){"stripe", (double)r->stripe,
			"bytes"};
		return 1;
	}
	return 0;
}

static void free_lower(struct ssd_blk *b)
{
	for (uint32_t i = 0; i < b->nlower; i++)
		ssd_blk_destroy(b->lower[i]);
	free(b->lower);
}

static void raid0_destroy(struct ssd_blk *b)
{
	free_lower(b);
	free(b);
}

static const struct ssd_blk_ops raid0_ops = {
	.kind = "raid0",
	.submit = raid0_submit,
	.flush = raid0_flush,
	.idle = raid0_idle,
	.stat = raid0_stat,
	.prefetch = raid0_prefetch,
	.destroy = raid0_destroy,
};

int ssd_raid0_create(const struct ssd_config *c, struct ssd_blk **members,
			uint32_t n, struct ssd_blk **out)
{
	struct raid0 *r = calloc(1, sizeof *r);
	if (!r) {
		for (uint32_t i = 0; i < n; i++)
			ssd_blk_destroy(members[i]);
		free(members);
		return SSD_ENOMEM;
	}
	r->b.ops = &raid0_ops;
	snprintf(r->b.name, sizeof r->b.name, "raid0");
	r->b.lower = members;
	r->b.nlower = n;
	r->stripe = c->raid_stripe;
	r->b.capacity = ssd_config_raid_capacity(c);
	*out = &r->b;
	return 0;
}

/* ---- the builder ---- */

/* The drive at the bottom, number i of the array: an SSD or a hard
 * disk, from the file without its machine keys. */
static int drive_create(const struct ssd_config *c, uint64_t seed, uint32_t i,
			struct ssd_blk **out)
{
	struct ssd_config dc = *c;
	dc.page_cache = 0;
	dc.mft = 0;
	dc.raid = SSD_RAID_NONE;
	int rc = dc.type == SSD_TYPE_HDD ? hdd_node_create(&dc, out)
					 : ssd_node_create(&dc, seed + i, out);
	if (!rc)
		snprintf((*out)->name, sizeof (*out)->name, "%s%u",
			 c->type == SSD_TYPE_HDD ? "hdd" : "ssd", i);
	return rc;
}

static int build(const struct ssd_config *c, uint64_t seed,
		 struct ssd_blk **out)
{
	struct ssd_blk *top;
	int rc;
	if (c->raid == SSD_RAID_0) {
		uint32_t n = c->raid_members;
		struct ssd_blk **m = calloc(n, sizeof *m);
		if (!m)
			return SSD_ENOMEM;
		for (uint32_t i = 0; i < n; i++) {
			if ((rc = drive_create(c, seed, i, &m[i]))) {
				while (i--)
					ssd_blk_destroy(m[i]);
				free(m);
				return rc;
			}
		}
		if ((rc = ssd_raid0_create(c, m, n, &top)))
			return rc;
	} else if ((rc = drive_create(c, seed, 0, &top))) {
		return rc;
	}
	if (c->mft) {
		struct ssd_blk *mft;
		if ((rc = ssd_mft_create(c, top, &mft))) {
			ssd_blk_destroy(top);
			return rc;
		}
		snprintf(mft->name, sizeof mft->name, "mft");
		top = mft;
	}
	if (c->page_cache) {
		struct ssd_blk *pc;
		if ((rc = ssd_pcache_create(c, top, &pc))) {
			ssd_blk_destroy(top);
			return rc;
		}
		snprintf(pc->name, sizeof pc->name, "page_cache");
		top = pc;
	}
	*out = top;
	return 0;
}

int ssd_stack_check(const struct ssd_config *c, char *err, size_t errlen)
{
	if (c->mft)
		return ssd_mft_fits(c, ssd_config_raid_capacity(c), err, errlen);
	return 0;
}

void ssd_stack_mem_add(const struct ssd_config *c, struct ssd_mem *m)
{
	const struct ssd_dev *d = NULL; /* for sizeof only */
	uint32_t n = c->raid == SSD_RAID_0 ? c->raid_members : 1;
	struct ssd_config dc = *c; /* a member, as drive_create makes it */
	dc.page_cache = 0;
	dc.mft = 0;
	dc.raid = SSD_RAID_NONE;
	m->host += sizeof *d + n * sizeof *d->ssds;
	for (uint32_t i = 0; i < n; i++) {
		if (dc.type == SSD_TYPE_HDD) {
			m->host += sizeof(struct hdd_node) + ssd_hdd_mem(&dc);
		} else {
			m->host += sizeof(struct ssd_blk);
			ssd_dev_mem_add(&dc, 0, m);
		}
	}
	if (c->raid == SSD_RAID_0)
		m->host += sizeof(struct raid0) + n * sizeof(struct ssd_blk *);
	if (c->mft)
		m->host += ssd_mft_mem(c, ssd_config_raid_capacity(c));
	if (c->page_cache)
		m->host += ssd_pcache_mem(c);
}

int ssd_stack_create(const struct ssd_config *c, uint64_t seed,
		     struct ssd_dev **out)
{
	struct ssd_dev *d = calloc(1, sizeof *d);
	if (!d)
		return SSD_ENOMEM;
	d->cfg = *c;
	d->ctr = &d->mctr;
	int rc = build(c, seed, &d->top);
	if (rc) {
		free(d);
		return rc;
	}
	d->capacity = d->top->capacity;
	d->direct_flag = c->page_cache ? SSD_BLK_DIRECT : 0;
	/* a disk that reorders its queue, talked to directly: the runner
	 * takes its completions as the disk decides them */
	d->can_queue = d->top->ops == &hdd_node_ops &&
		       c->hdd_queue == SSD_HDD_SPTF;
	/* the SSDs, listed once: the checker's state is read per command */
	const struct ssd_blk *b;
	int n = 0;
	for (int i = 0; (b = ssd_stack_node(d, i, NULL)); i++)
		n += b->ssd != NULL;
	if (n && !(d->ssds = calloc((size_t)n, sizeof *d->ssds))) {
		ssd_blk_destroy(d->top);
		free(d);
		return SSD_ENOMEM;
	}
	for (int i = 0; (b = ssd_stack_node(d, i, NULL)); i++)
		if (b->ssd)
			d->ssds[d->nssd++] = b->ssd;
	*out = d;
	return 0;
}

/* ---- the device's entry points on a machine ---- */

int64_t ssd_stack_submit(struct ssd_dev *d, int ddir, uint64_t offset,
			 uint32_t len, int64_t t)
{
	if (d->err)
		return d->err;
	d->now = t;
	d->host_ios++;
	int64_t c = d->queues ? hdd_node_submit_q(d->top, ddir, offset, len, t)
			      : ssd_blk_submit(d->top, ddir, offset, len, t);
	if (c < 0 && c != SSD_EPENDING)
		return c;
	uint64_t lp = (offset + len + SSD_LPAGE - 1) / SSD_LPAGE -
		      offset / SSD_LPAGE;
	switch (ddir & 0xff) {
	case SSD_DDIR_READ:
		d->mctr.host_read_lp += lp;
		break;
	case SSD_DDIR_WRITE:
		d->mctr.host_write_lp += lp;
		d->mctr.host_write_bytes += len;
		break;
	case SSD_DDIR_TRIM: {
		/* the pages wholly inside, as a bare SSD counts them */
		uint32_t first, n;
		ssd_dev_trim_pages(offset, len, &first, &n);
		d->mctr.host_trim_lp += n;
		break;
	}
	}
	if (c > d->busy_until)
		d->busy_until = c;
	return c;
}

int64_t ssd_stack_next_decision(const struct ssd_dev *d)
{
	return d->can_queue ? ssd_hdd_next_decision(((const struct hdd_node *)d->top)->h)
			 : INT64_MAX;
}

void ssd_stack_tag_waiting(struct ssd_dev *d, uint32_t tag)
{
	if (d->can_queue)
		ssd_hdd_tag_waiting(((struct hdd_node *)d->top)->h, tag);
}

int ssd_stack_decide(struct ssd_dev *d, int64_t t, uint32_t *tag, int64_t *done)
{
	if (!d->can_queue ||
	    !ssd_hdd_decide(((struct hdd_node *)d->top)->h, t, tag, done))
		return 0;
	if (*done > d->busy_until)
		d->busy_until = *done;
	return 1;
}

int64_t ssd_stack_flush(struct ssd_dev *d, int64_t t)
{
	if (d->err)
		return d->err;
	d->now = t;
	int64_t c = ssd_blk_flush(d->top, t);
	if (c < 0)
		return c;
	d->mctr.flushes++;
	if (c > d->busy_until)
		d->busy_until = c;
	return c;
}

int ssd_stack_idle(struct ssd_dev *d, int64_t until)
{
	if (d->err)
		return d->err;
	int64_t from = ssd_dev_time(d);
	if (until <= from)
		return 0;
	d->err = ssd_blk_idle(d->top, until);
	return d->err;
}

/* Depth-first walk: the i-th node and its depth, or NULL. */
static const struct ssd_blk *walk(const struct ssd_blk *b, int depth, int *i,
				  int *at)
{
	if (!(*i)--) {
		*at = depth;
		return b;
	}
	for (uint32_t k = 0; k < b->nlower; k++) {
		const struct ssd_blk *x = walk(b->lower[k], depth + 1, i, at);
		if (x)
			return x;
	}
	return NULL;
}

const struct ssd_blk *ssd_stack_node(const struct ssd_dev *d, int i,
				     int *depth)
{
	int at = 0;
	const struct ssd_blk *b = d->top && i >= 0 ? walk(d->top, 0, &i, &at)
						   : NULL;
	if (depth)
		*depth = at;
	return b;
}

struct ssd_dev *ssd_stack_ssd(const struct ssd_dev *d, int i)
{
	return i >= 0 && i < d->nssd ? d->ssds[i] : NULL;
}

const char *ssd_stack_check_failure(const struct ssd_dev *d)
{
	struct ssd_dev *s;
	const char *why;
	for (int i = 0; (s = ssd_stack_ssd(d, i)); i++)
		if ((why = ssd_ftl_check_failure(s->ftl)))
			return why;
	return NULL;
}

void ssd_stack_counters(const struct ssd_dev *d)
{
	struct ssd_counters *m = d->ctr, sum;
	memset(&sum, 0, sizeof sum);
	struct ssd_dev *s;
	for (int i = 0; (s = ssd_stack_ssd(d, i)); i++) {
		const uint64_t *a = (const uint64_t *)s->ctr;
		uint64_t *z = (uint64_t *)&sum;
		for (size_t k = 0; k < sizeof sum / sizeof *z; k++)
			z[k] += a[k];
	}
	/* the host's side: as the commands entered the machine */
	sum.host_read_lp = m->host_read_lp;
	sum.host_write_lp = m->host_write_lp;
	sum.host_trim_lp = m->host_trim_lp;
	sum.host_write_bytes = m->host_write_bytes;
	sum.flushes = m->flushes;
	*m = sum;
}

void ssd_stack_health(const struct ssd_dev *d, struct ssd_health *h)
{
	memset(h, 0, sizeof *h);
	struct ssd_dev *s;
	int n = 0;
	double erase_sum = 0;
	for (int i = 0; (s = ssd_stack_ssd(d, i)); i++, n++) {
		struct ssd_health x;
		ssd_ftl_health(s->ftl, &x);
		if (!n || x.percentage_used > h->percentage_used) {
			/* the most worn SSD speaks for the machine's wear */
			uint64_t hw = h->host_bytes_written, hr = h->host_bytes_read,
				 nw = h->nand_bytes_written, bad = h->bad_blocks,
				 ef = h->erase_failures, pf = h->program_failures;
			int ro = h->read_only;
			*h = x;
			h->host_bytes_written = hw + x.host_bytes_written;
			h->host_bytes_read = hr + x.host_bytes_read;
			h->nand_bytes_written = nw + x.nand_bytes_written;
			h->bad_blocks = bad + x.bad_blocks;
			h->erase_failures = ef + x.erase_failures;
			h->program_failures = pf + x.program_failures;
			h->read_only = ro || x.read_only;
		} else {
			h->host_bytes_written += x.host_bytes_written;
			h->host_bytes_read += x.host_bytes_read;
			h->nand_bytes_written += x.nand_bytes_written;
			h->bad_blocks += x.bad_blocks;
			h->erase_failures += x.erase_failures;
			h->program_failures += x.program_failures;
			h->read_only |= x.read_only;
			if (x.erase_min < h->erase_min)
				h->erase_min = x.erase_min;
			if (x.erase_max > h->erase_max)
				h->erase_max = x.erase_max;
		}
		erase_sum += x.erase_mean;
	}
	if (n)
		h->erase_mean = erase_sum / n;
	/* what the host wrote and read: the machine's own counts */
	const struct ssd_counters *c = ssd_dev_counters(d);
	h->host_bytes_written = c->host_write_bytes;
	h->host_bytes_read = c->host_read_lp * SSD_LPAGE;
}
