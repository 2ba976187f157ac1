/*
 * ftl_trim.c -- TRIM: unmapping logical pages, now or queued.
 *
 * trim_mode immediate: ssd_ftl_trim unmaps the pages at once (no NAND
 * work; map-cache traffic only).  background or deferred: the pages are
 * marked trimmed in tbits (reads return zeros at once) and their range
 * goes into a ring of ranges (tq, growing by doubling); they stay valid
 * for GC until ssd_ftl_trim_work takes them off the queue, oldest first,
 * and unmaps those not rewritten since (a write clears the page's bit).
 * The device decides when that work runs (idle time, or controller time
 * charged to TRIM).
 */
#include "ftl/ftl.h"
#include "ftl/ftl_int.h"

#include <stdlib.h>

int64_t ssd_ftl_trim(struct ssd_ftl *f, uint32_t lpn, uint32_t n, int64_t t)
{
	if (f->readonly) {
		f->ctr.ro_reject++;
		return SSD_EROFS;
	}
	if (!n)
		return t;
	int64_t done = t;
	f->ctr.host_trim_lp += n;
	if (f->ptrack)
		ftl_power_trim(f, lpn, n);
	if (f->tbits) {
		/* queued: mark now, unmap later */
		if (f->tq_len == f->tq_cap) {
			uint32_t cap = f->tq_cap ? f->tq_cap * 2 : 64;
			struct ssd_trim_range *q = malloc(cap * sizeof *q);
			if (!q)
				return SSD_ENOMEM;
			for (uint32_t i = 0; i < f->tq_len; i++)
				q[i] = f->tq[(f->tq_head + i) % f->tq_cap];
			free(f->tq);
			f->tq = q;
			f->tq_cap = cap;
			f->tq_head = 0;
		}
		f->tq[(f->tq_head + f->tq_len++) % f->tq_cap] =
			(struct ssd_trim_range){lpn, n};
		f->tq_pages += n;
		for (uint32_t i = 0; i < n; i++)
			if (f->l2p[lpn + i] != SSD_UNMAPPED)
				ssd_bit_set(f->tbits, lpn + i);
		return done;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t slot = f->l2p[lpn + i];
		if (slot == SSD_UNMAPPED)
			continue;
		if (f->mc_cap)
			done = ssd_max64(done, map_touch(f, lpn + i, 1, t));
		if (f->ptrack)
			ftl_power_trim_unmap(f, lpn + i, slot);
		invalidate(f, slot);
		f->l2p[lpn + i] = SSD_UNMAPPED;
		f->mapped--;
	}
	return done;
}

uint64_t ssd_ftl_trim_work(struct ssd_ftl *f, uint64_t max_pages)
{
	uint64_t done = 0;
	while (f->tq_len && done < max_pages) {
		struct ssd_trim_range *r = &f->tq[f->tq_head];
		uint32_t k = r->n;
		if (k > max_pages - done)
			k = (uint32_t)(max_pages - done);
		for (uint32_t i = r->lpn; i < r->lpn + k; i++) {
			if (!ssd_bit_test(f->tbits, i))
				continue; /* rewritten since, or trimmed twice */
			ssd_bit_clear(f->tbits, i);
			uint32_t slot = f->l2p[i];
			if (slot == SSD_UNMAPPED)
				continue;
			if (f->ptrack)
				ftl_power_trim_unmap(f, i, slot);
			invalidate(f, slot);
			f->l2p[i] = SSD_UNMAPPED;
			f->mapped--;
		}
		r->lpn += k;
		r->n -= k;
		done += k;
		f->tq_pages -= k;
		if (!r->n) {
			f->tq_head = (f->tq_head + 1) % f->tq_cap;
			f->tq_len--;
		}
	}
	return done;
}

uint64_t ssd_ftl_trim_queued(const struct ssd_ftl *f)
{
	return f->tq_pages;
}
