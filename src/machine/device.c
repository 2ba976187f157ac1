/*
 * device.c -- the machine's entry (device.h): it builds the tree of nodes
 * a drive file describes (stack.c), sends a bare SSD's commands straight
 * to it (ssd.c) and a machine's to the top of its tree, counts the host's
 * commands as they enter a machine, and folds the drives' counters,
 * health and checks over the tree.
 */
#include "machine/device.h"
#include "machine/pagecache.h"
#include "machine/stack.h"

#include <stdlib.h>
#include <string.h>

int ssd_dev_create(const struct ssd_config *c, uint64_t seed,
		   struct ssd_dev **out)
{
	struct ssd_dev *d = calloc(1, sizeof *d);
	if (!d)
		return SSD_ENOMEM;
	d->cfg = *c;
	int rc = ssd_stack_build(c, seed, &d->top);
	if (rc) {
		free(d);
		return rc;
	}
	d->capacity = d->top->capacity;
	if (!ssd_config_is_machine(c)) {
		/* a bare SSD: its commands go straight to it */
		d->ssd = d->top->ssd;
		d->ftl = d->ssd->ftl;
		d->ctr = d->ssd->ctr;
		d->clk = &d->ssd->clk;
	} else {
		d->ctr = &d->mctr;
		d->clk = &d->mclk;
		d->direct_flag = c->page_cache ? SSD_BLK_DIRECT : 0;
		/* a drive that reorders its queue, talked to directly: the
		 * runner takes its completions as the drive decides them */
		d->can_queue = d->top->ops->decide != NULL;
	}
	/* the SSDs, listed once: the checker's state is read per command */
	const struct ssd_blk *b;
	int n = 0;
	for (int i = 0; (b = ssd_stack_walk(d->top, i, NULL)); i++)
		n += b->ssd != NULL;
	if (n && !(d->ssds = calloc((size_t)n, sizeof *d->ssds))) {
		ssd_blk_destroy(d->top);
		free(d);
		return SSD_ENOMEM;
	}
	for (int i = 0; (b = ssd_stack_walk(d->top, i, NULL)); i++)
		if (b->ssd)
			d->ssds[d->nssd++] = b->ssd;
	*out = d;
	return 0;
}

uint64_t ssd_dev_mem(const struct ssd_config *c, unsigned uses,
		     struct ssd_mem *m)
{
	*m = (struct ssd_mem){.program = SSD_MEM_PROGRAM};
	const struct ssd_dev *d = NULL; /* for sizeof only */
	if (ssd_config_is_machine(c)) {
		uint32_t n = c->raid == SSD_RAID_0 ? c->raid_members : 1;
		ssd_stack_mem_add(c, 0, m); /* no verification on a machine */
		m->host += sizeof *d + n * sizeof *d->ssds;
	} else {
		ssd_stack_mem_add(c, uses, m);
		m->dram += sizeof *d + sizeof *d->ssds;
	}
	ssd_mem_sum(m);
	return m->total;
}

int ssd_dev_mem_check(const struct ssd_config *c, unsigned uses, uint64_t run,
		      char *err, size_t errlen)
{
	uint64_t avail;
	const char *what;
	if (!c->mem_check || ssd_mem_available(&avail, &what))
		return 0;
	struct ssd_mem mem, *m = &mem;
	ssd_dev_mem(c, uses, m);
	m->run = run;
	ssd_mem_sum(m);
	if (m->total <= avail)
		return 0;
	/* what to change: the key behind the largest part */
	const char *key = "a smaller capacity";
	if (c->page_cache && ssd_pcache_mem(c) > m->total / 2)
		key = "a smaller page_cache";
	else if (m->verify + m->power > m->ftl)
		key = "a smaller capacity or no verification";
	else if (c->raid != SSD_RAID_NONE)
		key = "a smaller capacity or fewer raid_members";
	char need[32], have[32];
	ssd_seterr(err, errlen, "drive '%s' needs about %s of memory, %s is %s "
		   "(use %s, or --set mem_check=no)", c->name,
		   ssd_fmt_bytes(m->total, need, sizeof need),
		   ssd_fmt_bytes(avail, have, sizeof have), what, key);
	return SSD_ENOMEM;
}

void ssd_dev_destroy(struct ssd_dev *d)
{
	if (!d)
		return;
	ssd_blk_destroy(d->top);
	free(d->ssds);
	free(d->vrec);
	free(d);
}

/* ---- a machine's commands: to the top of its tree ---- */

/* The timing checks of a command that entered a machine: the order of
 * time (the drives below check their own work). */
__attribute__((cold, noinline)) static int64_t
dev_check(struct ssd_dev *d, int ddir, uint64_t offset, uint32_t len,
	  int64_t t, int64_t done)
{
	struct ssd_drive *s = ssd_dev_ssd(d, 0);
	return ssd_tcheck(&d->tc, s ? s->ftl : NULL, d->mclk.host_ios, ddir,
			  offset, len, t, done, NULL);
}

int64_t ssd_dev_machine_submit(struct ssd_dev *d, int ddir, uint64_t offset,
			       uint32_t len, int64_t t)
{
	uint64_t end = offset + len;
	if (!len || end > d->capacity || end < offset)
		return SSD_EINVAL;
	if (d->err)
		return d->err;
	d->mclk.now = t;
	d->mclk.host_ios++;
	int64_t c = d->queues ? d->top->ops->submit_q(d->top, ddir, offset, len, t)
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
		ssd_blk_trim_pages(offset, len, &first, &n);
		d->mctr.host_trim_lp += n;
		break;
	}
	}
	if (c > d->mclk.busy_until)
		d->mclk.busy_until = c;
	return d->check && c >= 0 ? dev_check(d, ddir, offset, len, t, c) : c;
}

int64_t ssd_dev_flush(struct ssd_dev *d, int64_t t)
{
	if (d->ssd)
		return ssd_drive_flush(d->ssd, t);
	if (d->err)
		return d->err;
	d->mclk.now = t;
	int64_t c = ssd_blk_flush(d->top, t);
	if (c < 0)
		return c;
	d->mctr.flushes++;
	if (c > d->mclk.busy_until)
		d->mclk.busy_until = c;
	return d->check ? dev_check(d, SSD_DDIR_SYNC, 0, 0, t, c) : c;
}

int ssd_dev_idle(struct ssd_dev *d, int64_t until)
{
	if (d->ssd)
		return ssd_drive_idle(d->ssd, until);
	int rc = d->err;
	if (!rc && until > ssd_dev_time(d))
		rc = d->err = ssd_blk_idle(d->top, until);
	if (until > d->mclk.busy_until)
		d->mclk.busy_until = until;
	if (until > d->mclk.now)
		d->mclk.now = until;
	return rc;
}

int ssd_dev_prefetch_deep(const struct ssd_dev *d)
{
	return d->ssd == NULL || ssd_ftl_prefetch_deep(d->ftl);
}

/* ---- queueing: the top's, when it reorders ---- */

int64_t ssd_dev_next_decision(const struct ssd_dev *d)
{
	return d->can_queue ? d->top->ops->next_decision(d->top) : INT64_MAX;
}

void ssd_dev_set_queueing(struct ssd_dev *d, int on)
{
	if (!on) {
		uint32_t tag;
		int64_t done;
		while (ssd_dev_decide(d, INT64_MAX, &tag, &done))
			;
	}
	d->queues = on && d->can_queue;
}

void ssd_dev_tag_waiting(struct ssd_dev *d, uint32_t tag)
{
	if (d->can_queue)
		d->top->ops->tag_waiting(d->top, tag);
}

int ssd_dev_decide(struct ssd_dev *d, int64_t t, uint32_t *tag, int64_t *done)
{
	if (!d->can_queue || !d->top->ops->decide(d->top, t, tag, done))
		return 0;
	if (*done > d->mclk.busy_until)
		d->mclk.busy_until = *done;
	return 1;
}

/* ---- the drives of the tree: counters, health, checks ---- */

const struct ssd_blk *ssd_dev_node(const struct ssd_dev *d, int i, int *depth)
{
	if (d->ssd) {
		if (depth)
			*depth = 0;
		return NULL;
	}
	return ssd_stack_walk(d->top, i, depth);
}

void ssd_dev_sum_counters(const struct ssd_dev *d)
{
	struct ssd_counters *m = d->ctr, sum;
	memset(&sum, 0, sizeof sum);
	const struct ssd_blk *b;
	for (int i = 0; (b = ssd_stack_walk(d->top, i, NULL)); i++)
		if (b->ops->counters)
			b->ops->counters(b, &sum);
	/* the host's side: as the commands entered the machine */
	sum.host_read_lp = m->host_read_lp;
	sum.host_write_lp = m->host_write_lp;
	sum.host_trim_lp = m->host_trim_lp;
	sum.host_write_bytes = m->host_write_bytes;
	sum.flushes = m->flushes;
	*m = sum;
}

void ssd_dev_health(const struct ssd_dev *d, struct ssd_health *h)
{
	if (d->ssd) {
		ssd_ftl_health(d->ftl, h);
		return;
	}
	memset(h, 0, sizeof *h);
	const struct ssd_blk *b;
	int n = 0;
	double erase_sum = 0;
	for (int i = 0; (b = ssd_stack_walk(d->top, i, NULL)); i++) {
		if (!b->ops->health)
			continue;
		struct ssd_health x;
		b->ops->health(b, &x);
		if (!n || x.percentage_used > h->percentage_used) {
			/* the most worn drive speaks for the machine's wear */
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
		n++;
	}
	if (n)
		h->erase_mean = erase_sum / n;
	/* what the host wrote and read: the machine's own counts */
	const struct ssd_counters *c = ssd_dev_counters(d);
	h->host_bytes_written = c->host_write_bytes;
	h->host_bytes_read = c->host_read_lp * SSD_LPAGE;
}

const char *ssd_dev_machine_check_failure(const struct ssd_dev *d)
{
	struct ssd_drive *s;
	const char *why;
	for (int i = 0; (s = ssd_dev_ssd(d, i)); i++)
		if ((why = ssd_ftl_check_failure(s->ftl)))
			return why;
	return NULL;
}

void ssd_dev_check_report(struct ssd_dev *d, const char *msg)
{
	struct ssd_drive *s = ssd_dev_ssd(d, 0);
	if (s)
		ssd_ftl_check_report(s->ftl, msg);
}

void ssd_dev_fault_early(struct ssd_dev *d, int64_t ns, int hidden)
{
	struct ssd_tcheck *k = d->ssd ? &d->ssd->tc : &d->tc;
	k->fault_early = ns;
	k->fault_hidden = hidden;
}

void ssd_dev_set_check_every(struct ssd_dev *d, uint32_t victims)
{
	struct ssd_drive *s;
	d->check = victims != 0;
	d->tc.on = victims != 0;
	for (int i = 0; (s = ssd_dev_ssd(d, i)); i++)
		ssd_drive_set_check_every(s, victims);
}

uint32_t ssd_dev_trim_unit(const struct ssd_dev *d)
{
	return !d->ssd && d->cfg.mft ? d->cfg.mft_block : SSD_LPAGE;
}

const struct ssd_config *ssd_dev_config(const struct ssd_dev *d)
{
	return &d->cfg;
}

uint64_t ssd_dev_free_blocks(const struct ssd_dev *d)
{
	uint64_t n = 0;
	struct ssd_drive *s;
	for (int i = 0; (s = ssd_dev_ssd(d, i)); i++)
		n += ssd_ftl_free_blocks(s->ftl);
	return n;
}

double ssd_dev_frag_run(const struct ssd_dev *d)
{
	uint64_t pages = 0, pieces = 0;
	struct ssd_drive *s;
	for (int i = 0; (s = ssd_dev_ssd(d, i)); i++) {
		uint64_t p, n;
		ssd_ftl_frag(s->ftl, &p, &n);
		pages += p;
		pieces += n;
	}
	return pieces ? (double)pages / (double)pieces : 0;
}

uint64_t ssd_dev_trim_queued(const struct ssd_dev *d)
{
	uint64_t n = 0;
	struct ssd_drive *s;
	for (int i = 0; (s = ssd_dev_ssd(d, i)); i++)
		n += ssd_ftl_trim_queued(s->ftl);
	return n;
}

int ssd_dev_audit(struct ssd_dev *d)
{
	struct ssd_drive *s;
	for (int i = 0; (s = ssd_dev_ssd(d, i)); i++) {
		int rc = ssd_ftl_audit(s->ftl);
		if (rc)
			return rc;
	}
	return 0;
}

const char *ssd_dev_error(const struct ssd_dev *d)
{
	struct ssd_drive *s;
	const char *why;
	for (int i = 0; (s = ssd_dev_ssd(d, i)); i++)
		if ((why = ssd_ftl_error(s->ftl))[0])
			return why;
	return "";
}

/* ---- power loss: a bare SSD's (ssd.c) ---- */

int ssd_dev_power_track(struct ssd_dev *d)
{
	if (!d->ssd)
		return SSD_EUNSUP;
	if (!d->vrec)
		return SSD_EINVAL;
	return ssd_drive_power_track(d->ssd);
}

int ssd_dev_power_durable(const struct ssd_dev *d, const uint32_t *lpn,
			  uint32_t n, uint8_t *out)
{
	if (!d->ssd)
		return SSD_EINVAL;
	return ssd_drive_power_durable(d->ssd, lpn, n, out);
}

int ssd_dev_power_cut(struct ssd_dev *d, struct ssd_power_cut *pc)
{
	if (!d->ssd)
		return SSD_EUNSUP;
	return ssd_drive_power_cut(d->ssd, d->vrec, pc);
}

/* ---- zones (device.h) ---- */

uint32_t ssd_dev_placement_ids(const struct ssd_dev *d, uint32_t *pids,
			       uint32_t max)
{
	return d->ssd ? ssd_drive_placement_ids(d->ssd, pids, max) : 0;
}

int64_t ssd_dev_fdp_update(struct ssd_dev *d, const uint32_t *pids, uint32_t n,
			   int64_t t)
{
	if (!d->ssd)
		return SSD_EUNSUP;
	if (t < d->clk->now)
		return SSD_EINVAL;
	return ssd_drive_fdp_update(d->ssd, pids, n, t);
}

uint32_t ssd_dev_fdp_events(const struct ssd_dev *d, struct ssd_fdp_event *out,
			    uint32_t max)
{
	return d->ssd ? ssd_ftl_fdp_events(d->ftl, out, max) : 0;
}

int ssd_dev_zoned(const struct ssd_dev *d, struct ssd_zoned_info *zi)
{
	return d->ssd ? ssd_drive_zoned(d->ssd, zi) : 0;
}

int64_t ssd_dev_zone_send(struct ssd_dev *d, int action, uint64_t offset,
			  int flags, int64_t t)
{
	if (!d->ssd)
		return SSD_EUNSUP;
	if (t < d->clk->now)
		return SSD_EINVAL;
	return ssd_drive_zone_send(d->ssd, d->vrec, action, offset,
				   flags, t);
}

int ssd_dev_zone_report(const struct ssd_dev *d, uint32_t zone,
			struct ssd_zone_desc *out)
{
	return d->ssd ? ssd_drive_zone_report(d->ssd, zone, out) : SSD_EINVAL;
}

uint64_t ssd_dev_append_offset(const struct ssd_dev *d)
{
	return d->ssd ? ssd_drive_append_offset(d->ssd) : 0;
}
