/*
 * raid0.c -- RAID 0 as a node of the machine (raid0.h).
 */
#include "machine/raid0.h"

#include <stdio.h>
#include <stdlib.h>

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


uint64_t ssd_raid0_mem(uint32_t n)
{
	return sizeof(struct raid0) + n * sizeof(struct ssd_blk *);
}
