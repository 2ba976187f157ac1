/* The zone state machine of a zoned namespace (src/ftl/zns.c) against
 * the NVMe Zoned Namespace Command Set Specification, rev. 1.1: every
 * state crossed with every operation (a table written from the
 * specification), every error code, the open and active resources and
 * the implicit close, Zone Append, Finish's padding, Reset, Select All,
 * Report Zones, and the capacity and boundary cases. */
#include <stdint.h>
#include <string.h>

#include "ftl/zns.h"
#include "t.h"

/* 8 zones of 16 LBAs, 12 writable. */
#define ZSZ 16
#define ZCAP 12

static struct ssd_zns *mk(uint32_t max_open, uint32_t max_active)
{
	struct ssd_zns_params p = {
		.zone_size = ZSZ, .zone_cap = ZCAP, .nzones = 8,
		.max_open = max_open, .max_active = max_active,
	};
	struct ssd_zns *z = NULL;
	char err[128];
	if (ssd_zns_create(&p, &z, err, sizeof err))
		return NULL;
	return z;
}

static int state(const struct ssd_zns *z, uint32_t zone)
{
	struct ssd_zns_desc d;
	ssd_zns_describe(z, zone, &d);
	return d.state;
}

static uint64_t wp(const struct ssd_zns *z, uint32_t zone)
{
	struct ssd_zns_desc d;
	ssd_zns_describe(z, zone, &d);
	return d.wp;
}

static int checked(const struct ssd_zns *z)
{
	char err[160];
	int rc = ssd_zns_check(z, err, sizeof err);
	if (rc)
		fprintf(stderr, "    zns check: %s\n", err);
	return rc == 0;
}

static int send(struct ssd_zns *z, int action, uint32_t zone)
{
	return ssd_zns_send(z, (enum ssd_zns_action)action,
			    (uint64_t)zone * ZSZ, 0, NULL);
}

/* Takes zone (empty) to state s the way a host or a fault would: 0 or
 * an error. */
static int bring(struct ssd_zns *z, uint32_t zone, int s)
{
	uint64_t at = (uint64_t)zone * ZSZ;
	switch (s) {
	case SSD_ZNS_ZSE:
		return 0;
	case SSD_ZNS_ZSIO:
		return ssd_zns_write(z, at, 1);
	case SSD_ZNS_ZSEO:
		return send(z, SSD_ZNS_ACT_OPEN, zone);
	case SSD_ZNS_ZSC:
		return ssd_zns_write(z, at, 1) ||
		       send(z, SSD_ZNS_ACT_CLOSE, zone);
	case SSD_ZNS_ZSF:
		return ssd_zns_write(z, at, ZCAP);
	case SSD_ZNS_ZSRO:
		return ssd_zns_write(z, at, 1) ||
		       ssd_zns_fault(z, zone, SSD_ZNS_ZSRO);
	case SSD_ZNS_ZSO:
		return ssd_zns_fault(z, zone, SSD_ZNS_ZSRO) ||
		       send(z, SSD_ZNS_ACT_OFFLINE, zone);
	}
	return -1;
}

/* The operations of the table's columns. */
enum op {
	OP_WRITE,      /* 1 LBA at the write pointer */
	OP_FILL,       /* the rest of the capacity at the write pointer */
	OP_APPEND,     /* Zone Append of 1 LBA */
	OP_READ,       /* the whole zone, up to its size */
	OP_OPEN, OP_CLOSE, OP_FINISH, OP_RESET, OP_OFFLINE, /* Zone Send */
	OP_FAULT_RO, OP_FAULT_OFFLINE, /* faults */
	OP_CTRL_FINISH, /* a zone active excursion */
	NOPS
};
static const char *const op_name[NOPS] = {
	"write", "fill", "append", "read", "open", "close", "finish",
	"reset", "offline", "fault-ro", "fault-offline", "ctrl-finish",
};

static int run_op(struct ssd_zns *z, uint32_t zone, int op)
{
	uint64_t at = (uint64_t)zone * ZSZ, w = wp(z, zone), lba, unw;
	if (w == UINT64_MAX) /* none valid: the state check comes first */
		w = at;
	switch (op) {
	case OP_WRITE: return ssd_zns_write(z, w, 1);
	case OP_FILL: return ssd_zns_write(z, w, at + ZCAP > w ?
					   at + ZCAP - w : 1);
	case OP_APPEND: return ssd_zns_append(z, at, 1, &lba);
	case OP_READ: return ssd_zns_read(z, at, ZSZ, &unw);
	case OP_OPEN: return send(z, SSD_ZNS_ACT_OPEN, zone);
	case OP_CLOSE: return send(z, SSD_ZNS_ACT_CLOSE, zone);
	case OP_FINISH: return send(z, SSD_ZNS_ACT_FINISH, zone);
	case OP_RESET: return send(z, SSD_ZNS_ACT_RESET, zone);
	case OP_OFFLINE: return send(z, SSD_ZNS_ACT_OFFLINE, zone);
	case OP_FAULT_RO: return ssd_zns_fault(z, zone, SSD_ZNS_ZSRO);
	case OP_FAULT_OFFLINE: return ssd_zns_fault(z, zone, SSD_ZNS_ZSO);
	case OP_CTRL_FINISH: return ssd_zns_controller_finish(z, zone, NULL);
	}
	return -1;
}

/* The expected outcome: the state after, or the error (the state then
 * stays).  Written from the specification, rev. 1.1:
 *   writes and appends: §2.1.1 (the zone state diagram: a write to an
 *     empty or closed zone opens it implicitly, a write reaching the
 *     capacity fills it) and the write checks of §3.3.7 and §3.4.1
 *     (Zone Is Full, Zone Is Read Only, Zone Is Offline);
 *   reads: §3.3.5 (every state but offline is readable);
 *   Open, Close, Finish, Reset, Offline: §3.4.3, each action's list of
 *     the states it applies to, Invalid Zone State Transition for the
 *     others, and no change for the state it already leads to;
 *   faults: §2.1.1 (the controller may make a zone read only, or
 *     offline); the controller's finish: §5.6 (active zones only). */
#define ST(s) {SSD_ZNS_##s, 0}
#define ER(s, e) {SSD_ZNS_##s, SSD_ZNS_##e}
static const struct {
	int from;
	struct { int to, rc; } r[NOPS];
} table[] = {
	/* write  fill  append  read  open  close  finish  reset  offline
	 * fault-ro  fault-offline  ctrl-finish */
	{SSD_ZNS_ZSE, {ST(ZSIO), ST(ZSF), ST(ZSIO), ST(ZSE), ST(ZSEO),
		       ER(ZSE, ETRANSITION), ST(ZSF), ST(ZSE),
		       ER(ZSE, ETRANSITION), ST(ZSRO), ST(ZSO),
		       ER(ZSE, ETRANSITION)}},
	{SSD_ZNS_ZSIO, {ST(ZSIO), ST(ZSF), ST(ZSIO), ST(ZSIO), ST(ZSEO),
			ST(ZSC), ST(ZSF), ST(ZSE), ER(ZSIO, ETRANSITION),
			ST(ZSRO), ST(ZSO), ST(ZSF)}},
	{SSD_ZNS_ZSEO, {ST(ZSEO), ST(ZSF), ST(ZSEO), ST(ZSEO), ST(ZSEO),
			ST(ZSC), ST(ZSF), ST(ZSE), ER(ZSEO, ETRANSITION),
			ST(ZSRO), ST(ZSO), ST(ZSF)}},
	{SSD_ZNS_ZSC, {ST(ZSIO), ST(ZSF), ST(ZSIO), ST(ZSC), ST(ZSEO),
		       ST(ZSC), ST(ZSF), ST(ZSE), ER(ZSC, ETRANSITION),
		       ST(ZSRO), ST(ZSO), ST(ZSF)}},
	{SSD_ZNS_ZSF, {ER(ZSF, EFULL), ER(ZSF, EFULL), ER(ZSF, EFULL),
		       ST(ZSF), ER(ZSF, ETRANSITION), ER(ZSF, ETRANSITION),
		       ST(ZSF), ST(ZSE), ER(ZSF, ETRANSITION), ST(ZSRO),
		       ST(ZSO), ER(ZSF, ETRANSITION)}},
	{SSD_ZNS_ZSRO, {ER(ZSRO, EREADONLY), ER(ZSRO, EREADONLY),
			ER(ZSRO, EREADONLY), ST(ZSRO), ER(ZSRO, ETRANSITION),
			ER(ZSRO, ETRANSITION), ER(ZSRO, ETRANSITION),
			ER(ZSRO, ETRANSITION), ST(ZSO), ST(ZSRO), ST(ZSO),
			ER(ZSRO, ETRANSITION)}},
	{SSD_ZNS_ZSO, {ER(ZSO, EOFFLINE), ER(ZSO, EOFFLINE),
		       ER(ZSO, EOFFLINE), ER(ZSO, EOFFLINE),
		       ER(ZSO, ETRANSITION), ER(ZSO, ETRANSITION),
		       ER(ZSO, ETRANSITION), ER(ZSO, ETRANSITION), ST(ZSO),
		       ER(ZSO, ETRANSITION), ST(ZSO), ER(ZSO, ETRANSITION)}},
};

/* Every state crossed with every operation, on zone 3 of a namespace
 * without limits, the invariants checked after each. */
TEST(zns_transition_table)
{
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		for (int op = 0; op < NOPS; op++) {
			struct ssd_zns *z = mk(0, 0);
			CHECK(z);
			CHECKF(bring(z, 3, table[i].from) == 0, "to %s",
			       ssd_zns_state_name(table[i].from));
			CHECK(state(z, 3) == table[i].from);
			int rc = run_op(z, 3, op);
			int to = state(z, 3);
			CHECKF(rc == table[i].r[op].rc &&
				       to == table[i].r[op].to,
			       "%s, %s: got %s (%s), want %s (%s)",
			       ssd_zns_state_name(table[i].from), op_name[op],
			       ssd_zns_state_name(to), ssd_zns_strerror(rc),
			       ssd_zns_state_name(table[i].r[op].to),
			       ssd_zns_strerror(table[i].r[op].rc));
			CHECK(checked(z));
			for (uint32_t other = 0; other < 8; other++)
				CHECK(other == 3 ||
				      state(z, other) == SSD_ZNS_ZSE);
			ssd_zns_destroy(z);
		}
}

/* The hook sees each change once, with its cause; a failed command
 * changes nothing and tells nothing. */
struct log {
	int n;
	struct ssd_zns_event e[16];
};

static void note(void *ctx, const struct ssd_zns_event *e)
{
	struct log *l = ctx;
	if (l->n < 16)
		l->e[l->n] = *e;
	l->n++;
}

TEST(zns_resources_implicit_close_least_recent)
{
	struct ssd_zns *z = mk(2, 3);
	struct log l = {0};
	CHECK(z);
	ssd_zns_set_hook(z, note, &l);
	CHECK(ssd_zns_write(z, 0 * ZSZ, 1) == 0);
	CHECK(ssd_zns_write(z, 1 * ZSZ, 1) == 0);
	CHECK(ssd_zns_write(z, 0 * ZSZ + 1, 1) == 0); /* zone 0 used last */
	CHECK(ssd_zns_nr_open(z) == 2 && ssd_zns_nr_active(z) == 2);
	l.n = 0;
	/* Zone 2 opens: the open limit is reached, zone 1 (the least
	 * recently written implicitly opened zone) is closed for it. */
	CHECK(ssd_zns_write(z, 2 * ZSZ, 1) == 0);
	CHECK(state(z, 1) == SSD_ZNS_ZSC && state(z, 0) == SSD_ZNS_ZSIO);
	CHECK(state(z, 2) == SSD_ZNS_ZSIO);
	CHECK(ssd_zns_implicit_closes(z) == 1);
	CHECK(l.n == 2);
	CHECK(l.e[0].zone == 1 && l.e[0].to == SSD_ZNS_ZSC &&
	      l.e[0].cause == SSD_ZNS_BY_IMPLICIT_CLOSE);
	CHECK(l.e[1].zone == 2 && l.e[1].from == SSD_ZNS_ZSE &&
	      l.e[1].to == SSD_ZNS_ZSIO && l.e[1].cause == SSD_ZNS_BY_WRITE);
	CHECK(ssd_zns_nr_open(z) == 2 && ssd_zns_nr_active(z) == 3);
	/* A closed zone reopens within the active resources it holds:
	 * zone 0 is now the least recent and is closed for it. */
	CHECK(ssd_zns_write(z, 1 * ZSZ + 1, 1) == 0);
	CHECK(state(z, 0) == SSD_ZNS_ZSC && state(z, 1) == SSD_ZNS_ZSIO);
	CHECK(ssd_zns_implicit_closes(z) == 2);
	/* Three zones active: an empty zone is refused, nothing closed. */
	l.n = 0;
	CHECK(ssd_zns_write(z, 3 * ZSZ, 1) == SSD_ZNS_EMAXACTIVE);
	CHECK(l.n == 0 && state(z, 3) == SSD_ZNS_ZSE);
	CHECK(ssd_zns_implicit_closes(z) == 2);
	CHECK(send(z, SSD_ZNS_ACT_OPEN, 3) == SSD_ZNS_EMAXACTIVE);
	/* Finishing one gives back its resources. */
	CHECK(send(z, SSD_ZNS_ACT_FINISH, 0) == 0);
	CHECK(ssd_zns_nr_active(z) == 2);
	CHECK(ssd_zns_write(z, 3 * ZSZ, 1) == 0);
	CHECK(checked(z));
	ssd_zns_destroy(z);
}

/* The active limit is checked before the open one: with one of each
 * held, a write to an empty zone fails on the active limit and does not
 * close the opened zone first. */
TEST(zns_resources_active_checked_before_close)
{
	struct ssd_zns *z = mk(1, 1);
	CHECK(z);
	CHECK(ssd_zns_write(z, 0, 1) == 0);
	CHECK(ssd_zns_write(z, ZSZ, 1) == SSD_ZNS_EMAXACTIVE);
	CHECK(state(z, 0) == SSD_ZNS_ZSIO && ssd_zns_implicit_closes(z) == 0);
	ssd_zns_destroy(z);
}

/* Explicitly opened zones hold open resources and are never closed
 * implicitly; an explicit Open may close an implicitly opened zone. */
TEST(zns_resources_explicit_opens_counted)
{
	struct ssd_zns *z = mk(2, 4);
	CHECK(z);
	CHECK(send(z, SSD_ZNS_ACT_OPEN, 0) == 0);
	CHECK(ssd_zns_write(z, 1 * ZSZ, 1) == 0);
	CHECK(ssd_zns_nr_open(z) == 2);
	CHECK(send(z, SSD_ZNS_ACT_OPEN, 2) == 0); /* closes zone 1 */
	CHECK(state(z, 1) == SSD_ZNS_ZSC && state(z, 2) == SSD_ZNS_ZSEO);
	CHECK(ssd_zns_write(z, 3 * ZSZ, 1) == SSD_ZNS_EMAXOPEN);
	CHECK(send(z, SSD_ZNS_ACT_OPEN, 3) == SSD_ZNS_EMAXOPEN);
	CHECK(ssd_zns_write(z, 1 * ZSZ + 1, 1) == SSD_ZNS_EMAXOPEN);
	CHECK(state(z, 3) == SSD_ZNS_ZSE && state(z, 1) == SSD_ZNS_ZSC);
	/* Writes to the explicitly opened zones need nothing more. */
	CHECK(ssd_zns_write(z, 0, 2) == 0 && state(z, 0) == SSD_ZNS_ZSEO);
	CHECK(send(z, SSD_ZNS_ACT_CLOSE, 0) == 0);
	CHECK(ssd_zns_write(z, 3 * ZSZ, 1) == 0);
	CHECK(ssd_zns_nr_open(z) == 2 && ssd_zns_nr_active(z) == 4);
	CHECK(checked(z));
	ssd_zns_destroy(z);
}

TEST(zns_limits_from_identify)
{
	CHECK(ssd_zns_limit(0xffffffffu) == 0); /* no limit */
	CHECK(ssd_zns_limit(0) == 1);
	CHECK(ssd_zns_limit(13) == 14);
}

TEST(zns_append)
{
	struct ssd_zns_params p = {
		.zone_size = ZSZ, .zone_cap = ZCAP, .nzones = 4,
		.max_append = 4,
	};
	struct ssd_zns *z = NULL;
	CHECK(ssd_zns_create(&p, &z, NULL, 0) == 0);
	uint64_t lba = 99;
	CHECK(ssd_zns_append(z, ZSZ, 3, &lba) == 0 && lba == ZSZ);
	CHECK(ssd_zns_append(z, ZSZ, 4, &lba) == 0 && lba == ZSZ + 3);
	CHECK(state(z, 1) == SSD_ZNS_ZSIO && wp(z, 1) == ZSZ + 7);
	lba = 99;
	CHECK(ssd_zns_append(z, ZSZ + 7, 1, &lba) == SSD_ZNS_EFIELD);
	CHECK(ssd_zns_append(z, ZSZ, 5, &lba) == SSD_ZNS_EFIELD);
	CHECK(ssd_zns_append(z, ZSZ, 0, &lba) == SSD_ZNS_EFIELD);
	CHECK(ssd_zns_append(z, 4 * ZSZ, 1, &lba) == SSD_ZNS_ERANGE);
	CHECK(lba == 99);
	CHECK(ssd_zns_append(z, ZSZ, 4, &lba) == 0 && lba == ZSZ + 7);
	/* One LBA left below the capacity. */
	CHECK(ssd_zns_append(z, ZSZ, 2, &lba) == SSD_ZNS_EBOUNDARY);
	CHECK(ssd_zns_append(z, ZSZ, 1, &lba) == 0 && lba == ZSZ + 11);
	CHECK(state(z, 1) == SSD_ZNS_ZSF);
	CHECK(ssd_zns_append(z, ZSZ, 1, &lba) == SSD_ZNS_EFULL);
	CHECK(checked(z));
	ssd_zns_destroy(z);
}

/* Finish moves the write pointer to the capacity: what it skipped is
 * the padding a drive writes or marks.  Reads count it as unwritten. */
TEST(zns_finish_padding)
{
	struct ssd_zns *z = mk(0, 0);
	struct ssd_zns_done d;
	uint64_t unw = 0;
	CHECK(z);
	CHECK(ssd_zns_write(z, 0, 5) == 0);
	CHECK(ssd_zns_send(z, SSD_ZNS_ACT_FINISH, 0, 0, &d) == 0);
	CHECK(d.zones == 1 && d.lbas == ZCAP - 5);
	CHECK(state(z, 0) == SSD_ZNS_ZSF && wp(z, 0) == UINT64_MAX);
	CHECK(ssd_zns_read(z, 0, ZSZ, &unw) == 0 && unw == ZSZ - 5);
	/* Finishing a full zone changes nothing. */
	CHECK(ssd_zns_send(z, SSD_ZNS_ACT_FINISH, 0, 0, &d) == 0);
	CHECK(d.zones == 0 && d.lbas == 0);
	/* An empty zone pads its whole capacity. */
	CHECK(ssd_zns_send(z, SSD_ZNS_ACT_FINISH, ZSZ, 0, &d) == 0);
	CHECK(d.zones == 1 && d.lbas == ZCAP);
	/* A zone written to its capacity pads nothing (it is full). */
	CHECK(ssd_zns_write(z, 2 * ZSZ, ZCAP) == 0);
	CHECK(ssd_zns_send(z, SSD_ZNS_ACT_FINISH, 2 * ZSZ, 0, &d) == 0);
	CHECK(d.lbas == 0);
	/* The controller's finish pads too, and marks the zone. */
	uint64_t pad = 0;
	struct ssd_zns_desc desc;
	CHECK(ssd_zns_write(z, 3 * ZSZ, 2) == 0);
	CHECK(ssd_zns_controller_finish(z, 3, &pad) == 0 && pad == ZCAP - 2);
	ssd_zns_describe(z, 3, &desc);
	CHECK(desc.state == SSD_ZNS_ZSF && desc.attr == SSD_ZNS_ATTR_ZFC);
	CHECK(desc.written == 2);
	CHECK(checked(z));
	ssd_zns_destroy(z);
}

/* Reset tells what the zone held (its erase cost), clears it and its
 * attributes. */
TEST(zns_reset)
{
	struct ssd_zns *z = mk(0, 0);
	struct ssd_zns_done d;
	struct log l = {0};
	struct ssd_zns_desc desc;
	CHECK(z);
	ssd_zns_set_hook(z, note, &l);
	CHECK(ssd_zns_send(z, SSD_ZNS_ACT_RESET, 0, 0, &d) == 0);
	CHECK(d.zones == 0 && d.lbas == 0 && l.n == 0); /* empty: no data */
	CHECK(ssd_zns_write(z, 0, 7) == 0);
	CHECK(ssd_zns_send(z, SSD_ZNS_ACT_RESET, 0, 0, &d) == 0);
	CHECK(d.zones == 1 && d.lbas == 7);
	CHECK(l.e[l.n - 1].to == SSD_ZNS_ZSE && l.e[l.n - 1].lbas == 7 &&
	      l.e[l.n - 1].action == SSD_ZNS_ACT_RESET);
	CHECK(state(z, 0) == SSD_ZNS_ZSE && wp(z, 0) == 0);
	CHECK(ssd_zns_nr_open(z) == 0 && ssd_zns_nr_active(z) == 0);
	/* A finished zone held its padding too. */
	CHECK(ssd_zns_write(z, 0, 3) == 0);
	CHECK(ssd_zns_controller_finish(z, 0, NULL) == 0);
	CHECK(ssd_zns_send(z, SSD_ZNS_ACT_RESET, 0, 0, &d) == 0);
	CHECK(d.lbas == ZCAP);
	ssd_zns_describe(z, 0, &desc);
	CHECK(desc.attr == 0 && desc.written == 0 && desc.wp == 0);
	/* Written from the start again. */
	CHECK(ssd_zns_write(z, 0, 1) == 0);
	CHECK(checked(z));
	ssd_zns_destroy(z);
}

/* Zones 0..6 in every state: each Select All acts on the states
 * §3.4.3 lists for it and leaves the others alone. */
static struct ssd_zns *every_state(void)
{
	static const int s[7] = {
		SSD_ZNS_ZSE, SSD_ZNS_ZSIO, SSD_ZNS_ZSEO, SSD_ZNS_ZSC,
		SSD_ZNS_ZSF, SSD_ZNS_ZSRO, SSD_ZNS_ZSO,
	};
	struct ssd_zns *z = mk(0, 0);
	if (!z)
		return NULL;
	for (uint32_t i = 0; i < 7; i++)
		if (bring(z, i, s[i])) {
			ssd_zns_destroy(z);
			return NULL;
		}
	return z;
}

TEST(zns_select_all)
{
	static const struct {
		int action;
		int after[7];   /* zones 0..6 */
		uint32_t zones; /* changed */
		uint64_t lbas;
	} t[] = {
		{SSD_ZNS_ACT_OPEN, {SSD_ZNS_ZSE, SSD_ZNS_ZSIO, SSD_ZNS_ZSEO,
			SSD_ZNS_ZSEO, SSD_ZNS_ZSF, SSD_ZNS_ZSRO, SSD_ZNS_ZSO},
		 1, 0},
		{SSD_ZNS_ACT_CLOSE, {SSD_ZNS_ZSE, SSD_ZNS_ZSC, SSD_ZNS_ZSC,
			SSD_ZNS_ZSC, SSD_ZNS_ZSF, SSD_ZNS_ZSRO, SSD_ZNS_ZSO},
		 2, 0},
		/* padding: zone 1 and 3 hold 1 LBA, zone 2 none */
		{SSD_ZNS_ACT_FINISH, {SSD_ZNS_ZSE, SSD_ZNS_ZSF, SSD_ZNS_ZSF,
			SSD_ZNS_ZSF, SSD_ZNS_ZSF, SSD_ZNS_ZSRO, SSD_ZNS_ZSO},
		 3, 3 * ZCAP - 2},
		/* held: 1 + 0 + 1 + ZCAP */
		{SSD_ZNS_ACT_RESET, {SSD_ZNS_ZSE, SSD_ZNS_ZSE, SSD_ZNS_ZSE,
			SSD_ZNS_ZSE, SSD_ZNS_ZSE, SSD_ZNS_ZSRO, SSD_ZNS_ZSO},
		 4, ZCAP + 2},
		{SSD_ZNS_ACT_OFFLINE, {SSD_ZNS_ZSE, SSD_ZNS_ZSIO, SSD_ZNS_ZSEO,
			SSD_ZNS_ZSC, SSD_ZNS_ZSF, SSD_ZNS_ZSO, SSD_ZNS_ZSO},
		 1, 0},
	};
	for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
		struct ssd_zns *z = every_state();
		struct ssd_zns_done d;
		CHECK(z);
		/* zslba is ignored with Select All */
		CHECK(ssd_zns_send(z, (enum ssd_zns_action)t[k].action,
				   12345, 1, &d) == 0);
		for (uint32_t i = 0; i < 7; i++)
			CHECKF(state(z, i) == t[k].after[i],
			       "action %d, zone %u: %s", t[k].action, i,
			       ssd_zns_state_name(state(z, i)));
		CHECKF(d.zones == t[k].zones && d.lbas == t[k].lbas,
		       "action %d: %u zones, %llu lbas", t[k].action, d.zones,
		       (unsigned long long)d.lbas);
		CHECK(checked(z));
		ssd_zns_destroy(z);
	}
	struct ssd_zns_done d;
	struct ssd_zns *z = mk(0, 0);
	CHECK(z);
	CHECK(ssd_zns_send(z, (enum ssd_zns_action)9, 0, 1, &d) ==
	      SSD_ZNS_EFIELD);
	ssd_zns_destroy(z);
}

/* Open with Select All takes every closed zone or none. */
TEST(zns_select_all_open_all_or_none)
{
	struct ssd_zns *z = mk(2, 0);
	CHECK(z);
	for (uint32_t i = 0; i < 3; i++)
		CHECK(bring(z, i, SSD_ZNS_ZSC) == 0);
	CHECK(ssd_zns_nr_open(z) == 0 && ssd_zns_nr_active(z) == 3);
	CHECK(ssd_zns_send(z, SSD_ZNS_ACT_OPEN, 0, 1, NULL) ==
	      SSD_ZNS_EMAXOPEN);
	for (uint32_t i = 0; i < 3; i++)
		CHECK(state(z, i) == SSD_ZNS_ZSC);
	CHECK(send(z, SSD_ZNS_ACT_FINISH, 2) == 0);
	CHECK(ssd_zns_send(z, SSD_ZNS_ACT_OPEN, 0, 1, NULL) == 0);
	CHECK(state(z, 0) == SSD_ZNS_ZSEO && state(z, 1) == SSD_ZNS_ZSEO);
	CHECK(checked(z));
	ssd_zns_destroy(z);
}

/* Capacity below the size: writes stop at the capacity, reads go to the
 * size; zone ends and the namespace's end. */
TEST(zns_capacity_and_boundaries)
{
	struct ssd_zns *z = mk(0, 0);
	uint64_t unw = 0;
	CHECK(z);
	CHECK(ssd_zns_write(z, ZSZ, ZCAP - 1) == 0);
	CHECK(ssd_zns_write(z, ZSZ + ZCAP - 1, 2) == SSD_ZNS_EBOUNDARY);
	CHECK(ssd_zns_write(z, ZSZ + ZCAP, 1) == SSD_ZNS_EWRITE);
	CHECK(ssd_zns_write(z, ZSZ + ZCAP - 1, 1) == 0);
	CHECK(state(z, 1) == SSD_ZNS_ZSF);
	/* Reads: up to the size; [cap, size) never written. */
	CHECK(ssd_zns_read(z, ZSZ, ZSZ, &unw) == 0 && unw == ZSZ - ZCAP);
	CHECK(ssd_zns_read(z, ZSZ + ZCAP, ZSZ - ZCAP, &unw) == 0 &&
	      unw == ZSZ - ZCAP);
	CHECK(ssd_zns_read(z, ZSZ + 4, ZSZ, NULL) == SSD_ZNS_EBOUNDARY);
	CHECK(ssd_zns_read(z, 8 * ZSZ - 1, 2, NULL) == SSD_ZNS_ERANGE);
	CHECK(ssd_zns_read(z, 0, 0, NULL) == SSD_ZNS_EFIELD);
	/* An empty zone reads as unwritten; a partly written one past its
	 * write pointer. */
	CHECK(ssd_zns_read(z, 0, 4, &unw) == 0 && unw == 4);
	CHECK(ssd_zns_write(z, 2 * ZSZ, 3) == 0);
	CHECK(ssd_zns_read(z, 2 * ZSZ + 1, 4, &unw) == 0 && unw == 2);
	/* Writes: crossing into the next zone is crossing the capacity. */
	CHECK(ssd_zns_write(z, 2 * ZSZ + 3, ZSZ) == SSD_ZNS_EBOUNDARY);
	CHECK(ssd_zns_write(z, 2 * ZSZ + 4, 1) == SSD_ZNS_EWRITE);
	CHECK(ssd_zns_write(z, 2 * ZSZ + 2, 1) == SSD_ZNS_EWRITE);
	CHECK(ssd_zns_write(z, 8 * ZSZ, 1) == SSD_ZNS_ERANGE);
	CHECK(ssd_zns_write(z, 7 * ZSZ, ZSZ + 1) == SSD_ZNS_ERANGE);
	CHECK(ssd_zns_write(z, 0, 0) == SSD_ZNS_EFIELD);
	/* Zone Send names zone starts inside the namespace. */
	CHECK(send(z, SSD_ZNS_ACT_OPEN, 8) == SSD_ZNS_ERANGE);
	CHECK(ssd_zns_send(z, SSD_ZNS_ACT_OPEN, 1, 0, NULL) ==
	      SSD_ZNS_EFIELD);
	CHECK(ssd_zns_send(z, (enum ssd_zns_action)7, 0, 0, NULL) ==
	      SSD_ZNS_EFIELD);
	CHECK(checked(z));
	ssd_zns_destroy(z);

	/* With read_across, a read may span zones, but no offline one. */
	struct ssd_zns_params p = {
		.zone_size = ZSZ, .zone_cap = ZSZ, .nzones = 4,
		.read_across = 1,
	};
	CHECK(ssd_zns_create(&p, &z, NULL, 0) == 0);
	CHECK(ssd_zns_write(z, 0, ZSZ) == 0 && state(z, 0) == SSD_ZNS_ZSF);
	CHECK(ssd_zns_read(z, 4, 2 * ZSZ, &unw) == 0 && unw == ZSZ + 4);
	CHECK(ssd_zns_fault(z, 2, SSD_ZNS_ZSO) == 0);
	CHECK(ssd_zns_read(z, 4, 2 * ZSZ, NULL) == SSD_ZNS_EOFFLINE);
	ssd_zns_destroy(z);
}

TEST(zns_setup_refused)
{
	static const struct {
		struct ssd_zns_params p;
		const char *msg;
	} bad[] = {
		{{.zone_size = 1000, .zone_cap = 1000, .nzones = 4},
		 "zone size 1000 LBAs is not a power of two"},
		{{.zone_size = 0, .zone_cap = 0, .nzones = 4},
		 "zone size 0 LBAs is not a power of two"},
		{{.zone_size = 16, .zone_cap = 17, .nzones = 4},
		 "zone capacity 17 LBAs is not within 1..16 (the zone size)"},
		{{.zone_size = 16, .zone_cap = 0, .nzones = 4},
		 "zone capacity 0 LBAs is not within 1..16 (the zone size)"},
		{{.zone_size = 16, .zone_cap = 16, .nzones = 0},
		 "a zoned namespace needs at least one zone"},
		{{.zone_size = 1ull << 40, .zone_cap = 1, .nzones = 1u << 30},
		 "the zones hold more than 2^64 LBAs"},
		{{.zone_size = 16, .zone_cap = 16, .nzones = 4, .max_open = 3,
		  .max_active = 2},
		 "max open zones 3 is above max active zones 2"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct ssd_zns *z = NULL;
		char err[128] = "";
		CHECK(ssd_zns_create(&bad[i].p, &z, err, sizeof err) ==
		      SSD_EINVAL);
		CHECKF(!strcmp(err, bad[i].msg), "got \"%s\"", err);
		CHECK(!strchr(err, '\n') && z == NULL);
	}
	/* A limit on open zones alone is fine, and a capacity equal to
	 * the size. */
	struct ssd_zns_params p = {
		.zone_size = 16, .zone_cap = 16, .nzones = 4, .max_open = 3,
	};
	struct ssd_zns *z = NULL;
	CHECK(ssd_zns_create(&p, &z, NULL, 0) == 0);
	CHECK(ssd_zns_params(z)->max_open == 3);
	CHECK(ssd_zns_zone_of(z, 35) == 2);
	ssd_zns_destroy(z);
}

/* Each error, produced once, with its own message and NVMe status. */
TEST(zns_every_error)
{
	struct ssd_zns *z = mk(1, 2);
	uint64_t lba;
	CHECK(z);
	CHECK(ssd_zns_write(z, 0, 0) == SSD_ZNS_EFIELD);
	CHECK(ssd_zns_write(z, 8 * ZSZ, 1) == SSD_ZNS_ERANGE);
	CHECK(ssd_zns_write(z, 0, ZCAP + 1) == SSD_ZNS_EBOUNDARY);
	CHECK(ssd_zns_write(z, 1, 1) == SSD_ZNS_EWRITE);
	CHECK(send(z, SSD_ZNS_ACT_OPEN, 0) == 0);
	CHECK(ssd_zns_write(z, ZSZ, 1) == SSD_ZNS_EMAXOPEN);
	CHECK(send(z, SSD_ZNS_ACT_CLOSE, 0) == 0);
	CHECK(ssd_zns_write(z, ZSZ, 1) == 0);         /* 0 closed, 1 open */
	CHECK(ssd_zns_write(z, 2 * ZSZ, 1) == SSD_ZNS_EMAXACTIVE);
	CHECK(ssd_zns_write(z, ZSZ + 1, ZCAP - 1) == 0); /* zone 1 full */
	CHECK(ssd_zns_append(z, ZSZ, 1, &lba) == SSD_ZNS_EFULL);
	CHECK(ssd_zns_fault(z, 4, SSD_ZNS_ZSRO) == 0);
	CHECK(ssd_zns_write(z, 4 * ZSZ, 1) == SSD_ZNS_EREADONLY);
	CHECK(ssd_zns_fault(z, 5, SSD_ZNS_ZSO) == 0);
	CHECK(ssd_zns_read(z, 5 * ZSZ, 1, NULL) == SSD_ZNS_EOFFLINE);
	CHECK(send(z, SSD_ZNS_ACT_OFFLINE, 6) == SSD_ZNS_ETRANSITION);
	CHECK(checked(z));
	ssd_zns_destroy(z);

	static const int codes[] = {
		SSD_ZNS_EFIELD, SSD_ZNS_ERANGE, SSD_ZNS_EBOUNDARY,
		SSD_ZNS_EFULL, SSD_ZNS_EREADONLY, SSD_ZNS_EOFFLINE,
		SSD_ZNS_EWRITE, SSD_ZNS_EMAXACTIVE, SSD_ZNS_EMAXOPEN,
		SSD_ZNS_ETRANSITION,
	};
	static const int status[] = {
		0x002, 0x080, 0x1b8, 0x1b9, 0x1ba, 0x1bb, 0x1bc, 0x1bd, 0x1be,
		0x1bf,
	};
	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
		const char *m = ssd_zns_strerror(codes[i]);
		CHECK(ssd_zns_status(codes[i]) == status[i]);
		CHECK(m && *m && !strchr(m, '\n'));
		CHECK(!strcmp(m, ssd_strerror(codes[i])) &&
		      strcmp(m, ssd_strerror(SSD_EINVAL - 1000)) != 0);
		for (size_t j = 0; j < i; j++)
			CHECK(strcmp(m, ssd_zns_strerror(codes[j])) != 0);
		CHECK(codes[i] < SSD_EPENDING);
	}
	CHECK(ssd_zns_status(0) == 0 && ssd_zns_status(SSD_EINVAL) == -1);
	CHECK(!strcmp(ssd_zns_strerror(SSD_ENOMEM), ssd_strerror(SSD_ENOMEM)));
}

/* Report Zones: the filter by state, the descriptors' write pointers,
 * and the Number of Zones of a full and of a partial report. */
TEST(zns_report)
{
	struct ssd_zns *z = every_state();
	struct ssd_zns_desc d[8];
	uint32_t got = 0;
	uint64_t nr = 0;
	CHECK(z);
	CHECK(ssd_zns_report(z, 0, SSD_ZNS_LIST_ALL, 0, d, 8, &got, &nr) == 0);
	CHECK(got == 8 && nr == 8);
	CHECK(d[0].state == SSD_ZNS_ZSE && d[0].wp == 0 && d[0].cap == ZCAP);
	CHECK(d[1].state == SSD_ZNS_ZSIO && d[1].wp == ZSZ + 1);
	CHECK(d[3].zslba == 3 * ZSZ && d[3].wp == 3 * ZSZ + 1);
	CHECK(d[4].state == SSD_ZNS_ZSF && d[4].wp == UINT64_MAX);
	CHECK(d[5].state == SSD_ZNS_ZSRO && d[5].wp == UINT64_MAX);
	CHECK(d[6].state == SSD_ZNS_ZSO && d[6].wp == UINT64_MAX);
	static const int want[8] = {
		0, SSD_ZNS_ZSE, SSD_ZNS_ZSIO, SSD_ZNS_ZSEO, SSD_ZNS_ZSC,
		SSD_ZNS_ZSF, SSD_ZNS_ZSRO, SSD_ZNS_ZSO,
	};
	for (int f = 1; f <= 7; f++) {
		CHECK(ssd_zns_report(z, 0, f, 0, d, 8, &got, &nr) == 0);
		/* zones 0 and 7 are empty */
		CHECKF(got == (f == 1 ? 2u : 1u) && nr == got, "filter %d", f);
		for (uint32_t i = 0; i < got; i++)
			CHECK(d[i].state == want[f]);
	}
	/* From zone 2 on, room for 2: the full report counts all 6. */
	CHECK(ssd_zns_report(z, 2 * ZSZ + 5, 0, 0, d, 2, &got, &nr) == 0);
	CHECK(got == 2 && nr == 6 && d[0].zslba == 2 * ZSZ);
	CHECK(ssd_zns_report(z, 2 * ZSZ, 0, 1, d, 2, &got, &nr) == 0);
	CHECK(got == 2 && nr == 2);
	CHECK(ssd_zns_report(z, 2 * ZSZ, 0, 0, d, 0, &got, &nr) == 0);
	CHECK(got == 0 && nr == 6);
	CHECK(ssd_zns_report(z, 8 * ZSZ, 0, 0, d, 8, &got, &nr) ==
	      SSD_ZNS_ERANGE);
	CHECK(ssd_zns_report(z, 0, 8, 0, d, 8, &got, &nr) == SSD_ZNS_EFIELD);
	ssd_zns_destroy(z);
}

/* A zone that was explicitly opened and never written closes to
 * closed (not back to empty, as SCSI ZBC would have it) and keeps its
 * active resource; a write pointer at the zone start in ZSC is
 * allowed. */
TEST(zns_close_unwritten_zone)
{
	struct ssd_zns *z = mk(0, 0);
	CHECK(z);
	CHECK(send(z, SSD_ZNS_ACT_OPEN, 0) == 0);
	CHECK(send(z, SSD_ZNS_ACT_CLOSE, 0) == 0);
	CHECK(state(z, 0) == SSD_ZNS_ZSC && wp(z, 0) == 0);
	CHECK(ssd_zns_nr_active(z) == 1 && ssd_zns_nr_open(z) == 0);
	CHECK(checked(z));
	ssd_zns_destroy(z);
}

static int same(const struct ssd_zns_desc *a, const struct ssd_zns_desc *b)
{
	for (int i = 0; i < 8; i++)
		if (a[i].zslba != b[i].zslba || a[i].cap != b[i].cap ||
		    a[i].wp != b[i].wp || a[i].written != b[i].written ||
		    a[i].state != b[i].state || a[i].attr != b[i].attr)
			return 0;
	return 1;
}

/* mk's namespace, with random write areas of 4 LBAs (flushed 2 at a
 * time, 3 of them) if zrwa. */
static struct ssd_zns *mk_r(int zrwa)
{
	struct ssd_zns_params p = {
		.zone_size = ZSZ, .zone_cap = ZCAP, .nzones = 8,
		.max_open = 3, .max_active = 5,
		.zrwa_size = zrwa ? 4 : 0, .zrwa_fg = 2, .nr_zrwa = 3,
	};
	struct ssd_zns *z = NULL;
	return ssd_zns_create(&p, &z, NULL, 0) ? NULL : z;
}

/* Random commands on a namespace with limits: the invariants hold after
 * each, and a command that fails leaves every zone as it was. */
static void random_run(int zrwa)
{
	struct ssd_zns *z = mk_r(zrwa);
	struct ssd_rng r;
	struct ssd_zns_desc before[8], after[8];
	uint32_t got;
	int failed = 0, ok = 0;
	uint64_t zrwa_seen = 0;
	CHECK(z);
	ssd_rng_seed(&r, 25);
	for (int step = 0; step < 20000; step++) {
		uint32_t zone = (uint32_t)ssd_rng_below(&r, 8);
		uint64_t at = (uint64_t)zone * ZSZ, w = wp(z, zone), lba;
		uint64_t n = 1 + ssd_rng_below(&r, 4);
		if (w == UINT64_MAX)
			w = at;
		CHECK(ssd_zns_report(z, 0, 0, 0, before, 8, &got, NULL) == 0);
		int rc, k = (int)ssd_rng_below(&r, 10);
		switch (k) {
		case 0: case 1: case 2: rc = ssd_zns_write(z, w, n); break;
		case 3: rc = ssd_zns_write(z, at + ssd_rng_below(&r, ZSZ), n);
			break;
		case 4: rc = ssd_zns_append(z, at, n, &lba); break;
		case 5: case 6: case 7: case 8:
			if (zrwa && ssd_rng_below(&r, 3) == 0) {
				/* an Open with an area, or a ZRWA flush */
				rc = ssd_rng_below(&r, 2)
				     ? ssd_zns_send_flags(z, SSD_ZNS_ACT_OPEN, at,
							  SSD_ZNS_ZRWAA, NULL)
				     : ssd_zns_send_flags(z, SSD_ZNS_ACT_ZRWA_FLUSH,
							  w + ssd_rng_below(&r, 6), 0,
							  NULL);
				break;
			}
			rc = ssd_zns_send(z, (enum ssd_zns_action)(1 + (k - 5 +
					  (int)ssd_rng_below(&r, 2) * 4) % 5),
					  at, ssd_rng_below(&r, 16) == 0, NULL);
			break;
		default:
			if (ssd_rng_below(&r, 50))
				rc = ssd_zns_read(z, at, ZSZ, NULL);
			else
				rc = ssd_zns_fault(z, zone,
						   ssd_rng_below(&r, 2) ?
						   SSD_ZNS_ZSRO : SSD_ZNS_ZSO);
		}
		CHECKF(checked(z), "step %d", step);
		CHECK(ssd_zns_report(z, 0, 0, 0, after, 8, &got, NULL) == 0);
		if (rc) {
			failed++;
			CHECKF(same(before, after),
			       "step %d: %s changed a zone", step,
			       ssd_zns_strerror(rc));
		} else {
			ok++;
		}
		/* Start over when most zones are lost to faults. */
		uint32_t lost = 0;
		for (uint32_t i = 0; i < 8; i++)
			lost += after[i].state == SSD_ZNS_ZSRO ||
				after[i].state == SSD_ZNS_ZSO;
		if (lost > 4) {
			ssd_zns_destroy(z);
			z = mk_r(zrwa);
			CHECK(z);
		}
		uint32_t areas = 0;
		for (uint32_t i = 0; i < 8; i++)
			areas += ssd_zns_zrwa(z, i, NULL);
		zrwa_seen += areas;
	}
	CHECKF(failed > 1000 && ok > 1000, "%d failed, %d ok", failed, ok);
	CHECK(zrwa ? zrwa_seen > 1000 : zrwa_seen == 0);
	ssd_zns_destroy(z);
}

TEST(zns_random_commands_keep_invariants)
{
	random_run(0);
	random_run(1); /* and with random write areas */
}

/* The zone random write area: allocated by an Open of an empty zone from
 * a limited pool; writes anywhere in [wp, wp + 2 x size), overwrites
 * included; the write pointer moves by implicit flushes (whole flush
 * units until the write ends within wp + size) and explicit ones; no
 * Zone Append; a finish commits what the host wrote there; a reset or a
 * finish frees the area. */
TEST(zns_zrwa)
{
	/* 16-LBA zones of capacity 12, areas of 4 LBAs flushed 2 at a time,
	 * two of them */
	struct ssd_zns_params p = {
		.zone_size = ZSZ, .zone_cap = ZCAP, .nzones = 8,
		.zrwa_size = 4, .zrwa_fg = 2, .nr_zrwa = 2,
	};
	struct ssd_zns *z = NULL;
	char err[128];
	CHECK(ssd_zns_create(&p, &z, err, sizeof err) == 0);
	uint64_t from, c, hi;
	/* an open without the flag: an ordinary zone */
	CHECK(ssd_zns_write(z, 0, 1) == 0 && !ssd_zns_zrwa(z, 0, NULL));
	/* allocation: empty zones only, two in all */
	CHECK(ssd_zns_send_flags(z, SSD_ZNS_ACT_OPEN, 0, SSD_ZNS_ZRWAA, NULL) ==
	      SSD_ZNS_ETRANSITION);
	CHECK(ssd_zns_send_flags(z, SSD_ZNS_ACT_OPEN, ZSZ, SSD_ZNS_ZRWAA, NULL) == 0);
	CHECK(ssd_zns_send_flags(z, SSD_ZNS_ACT_OPEN, 2 * ZSZ, SSD_ZNS_ZRWAA, NULL) == 0);
	CHECK(ssd_zns_send_flags(z, SSD_ZNS_ACT_OPEN, 3 * ZSZ, SSD_ZNS_ZRWAA, NULL) ==
	      SSD_ZNS_ENOZRWA && state(z, 3) == SSD_ZNS_ZSE);
	CHECK(ssd_zns_zrwa(z, 1, &hi) == 1 && hi == ZSZ);
	/* random writes within [wp, wp + 8): nothing committed */
	CHECK(ssd_zns_write_commit(z, ZSZ + 2, 1, &from, &c) == 0 && c == 0);
	CHECK(ssd_zns_write_commit(z, ZSZ + 2, 1, &from, &c) == 0 && c == 0);
	CHECK(ssd_zns_write_commit(z, ZSZ + 0, 2, &from, &c) == 0 && c == 0);
	CHECK(wp(z, 1) == ZSZ && ssd_zns_zrwa(z, 1, &hi) && hi == ZSZ + 3);
	/* outside the window: below the write pointer, or past wp + 8 */
	CHECK(ssd_zns_write(z, ZSZ + 7, 2) == SSD_ZNS_EWRITE);
	/* a write ending at wp + 5 flushes one unit of 2 (ends within
	 * wp' + 4 then) */
	CHECK(ssd_zns_write_commit(z, ZSZ + 4, 1, &from, &c) == 0 &&
	      from == ZSZ && c == 2 && wp(z, 1) == ZSZ + 2);
	/* ending at wp + 8: two units */
	CHECK(ssd_zns_write_commit(z, ZSZ + 6, 4, &from, &c) == 0 &&
	      from == ZSZ + 2 && c == 4 && wp(z, 1) == ZSZ + 6);
	CHECK(ssd_zns_write(z, ZSZ + 5, 1) == SSD_ZNS_EWRITE);
	/* no Zone Append; explicit flushes in whole units within the area */
	CHECK(ssd_zns_append(z, ZSZ, 1, NULL) == SSD_ZNS_EZONEOP);
	struct ssd_zns_done d;
	CHECK(ssd_zns_send_flags(z, SSD_ZNS_ACT_ZRWA_FLUSH, ZSZ + 6, 0, &d) ==
	      SSD_ZNS_EFIELD); /* one LBA: not a whole unit */
	CHECK(ssd_zns_send_flags(z, SSD_ZNS_ACT_ZRWA_FLUSH, ZSZ + 11, 0, &d) ==
	      SSD_ZNS_EFIELD); /* six: past the area */
	CHECK(ssd_zns_send_flags(z, SSD_ZNS_ACT_ZRWA_FLUSH, ZSZ + 7, 0, &d) == 0 &&
	      d.from == ZSZ + 6 && d.lbas == 2 && wp(z, 1) == ZSZ + 8);
	CHECK(ssd_zns_send_flags(z, SSD_ZNS_ACT_ZRWA_FLUSH, 7, 0, &d) ==
	      SSD_ZNS_EZONEOP); /* zone 0 has none */
	/* close keeps the area; a write reopens the zone */
	CHECK(send(z, SSD_ZNS_ACT_CLOSE, 1) == 0 && ssd_zns_zrwa(z, 1, NULL));
	CHECK(ssd_zns_write(z, ZSZ + 9, 1) == 0 && state(z, 1) == SSD_ZNS_ZSIO);
	/* a finish commits what was written (to 10), then pads 2 */
	struct ssd_zns_desc zd;
	CHECK(ssd_zns_send(z, SSD_ZNS_ACT_FINISH, ZSZ, 0, &d) == 0 && d.lbas == 2);
	ssd_zns_describe(z, 1, &zd);
	CHECK(zd.state == SSD_ZNS_ZSF && zd.written == 10 && !ssd_zns_zrwa(z, 1, NULL));
	/* the area went back */
	CHECK(ssd_zns_send_flags(z, SSD_ZNS_ACT_OPEN, 3 * ZSZ, SSD_ZNS_ZRWAA, NULL) == 0);
	/* writing to the capacity by flushes fills the zone and frees it */
	CHECK(ssd_zns_write(z, 3 * ZSZ, 8) == 0 && wp(z, 3) == 3 * ZSZ + 4);
	CHECK(ssd_zns_write(z, 3 * ZSZ + 8, 4) == 0 && wp(z, 3) == 3 * ZSZ + 8);
	/* the last area's worth needs a flush: then the zone is full */
	CHECK(ssd_zns_send_flags(z, SSD_ZNS_ACT_ZRWA_FLUSH, 3 * ZSZ + 11, 0, &d) == 0 &&
	      state(z, 3) == SSD_ZNS_ZSF && !ssd_zns_zrwa(z, 3, NULL));
	/* a reset frees one too; ZRWAA on anything but Open is a bad field */
	CHECK(send(z, SSD_ZNS_ACT_RESET, 2) == 0 && !ssd_zns_zrwa(z, 2, NULL));
	CHECK(ssd_zns_send_flags(z, SSD_ZNS_ACT_CLOSE, 0, SSD_ZNS_ZRWAA, NULL) ==
	      SSD_ZNS_EFIELD);
	CHECK(checked(z));
	ssd_zns_destroy(z);
	/* a namespace without the feature refuses the flag */
	z = mk(0, 0);
	CHECK(ssd_zns_send_flags(z, SSD_ZNS_ACT_OPEN, 0, SSD_ZNS_ZRWAA, NULL) ==
	      SSD_ZNS_EFIELD);
	ssd_zns_destroy(z);
	/* bad geometry */
	p.zrwa_fg = 3;
	CHECK(ssd_zns_create(&p, &z, err, sizeof err) == SSD_EINVAL &&
	      strstr(err, "flush granularity"));
}
