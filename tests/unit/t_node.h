/*
 * t_node.h -- a fake lower node for the host layers' unit tests
 * (tests/unit/machine/test_mft.c, test_pagecache.c, test_stack.c): a
 * struct ssd_blk (machine/blk.h) that answers with a simple cost model
 * and records every command it gets, with its times, so that a test can
 * see what the layer above sent down and when; and the layer's own
 * figures read by name.
 */
#ifndef T_NODE_H
#define T_NODE_H

#include <stddef.h>
#include <stdint.h>

#include "machine/blk.h"

/* What a command costs the fake, ns.  A read or a write: cmd_ns plus
 * byte_ns a byte; a TRIM: trim_ns whatever its length; either plus
 * off % spread when spread is not 0 (so that pieces of one command end
 * apart).  serial: one command at a time, each starting when the one
 * before is done; else each starts when it comes.  A flush is done
 * flush_ns after the latest completion handed out (or after it comes,
 * if later). */
struct t_node_cost {
	int64_t cmd_ns, byte_ns, trim_ns, flush_ns;
	uint64_t spread;
	int serial;
};

/* One command as the fake got it: ddir with its flags (SSD_DDIR_SYNC
 * for a flush), the range, when it came and when it was done. */
struct t_cmd {
	int ddir;
	uint64_t off;
	uint32_t len;
	int64_t t, done;
};

struct t_node {
	struct ssd_blk blk;         /* first: the node is a struct ssd_blk */
	struct t_node_cost cost;
	struct t_cmd *cmd;          /* every command, in arrival order */
	size_t n, cap;
	int64_t busy;               /* the latest completion handed out */
	int64_t last;               /* the latest time seen */
	int bad_order;              /* commands earlier than one before */
	int bad_range;              /* empty, or past the capacity */
	int nomem;                  /* a command not recorded: no memory */
	int idles;                  /* idle calls */
};

/* A fake of `capacity` bytes (kind and name "fake"), or NULL.  It goes
 * with ssd_blk_destroy, by itself or with the node above that owns it. */
struct t_node *t_node_new(uint64_t capacity, struct t_node_cost cost);

/* The commands from index `from` on whose direction (flags aside) is
 * ddir. */
size_t t_node_count(const struct t_node *f, size_t from, int ddir);

/* The row `key` of any node's own figures (ops->stat: the layer under
 * test's, above the fake), or `missing` if it has none such. */
double t_node_stat(const struct ssd_blk *b, const char *key, double missing);

#endif
