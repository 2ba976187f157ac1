/*
 * zns.h -- the zones of an NVMe Zoned Namespace: their states, write
 * pointers and the namespace's open and active resources.
 *
 * What it models (NVMe Zoned Namespace Command Set Specification, rev.
 * 1.1; section numbers are that revision's):
 *   - §2.1.1, the zoned namespace: zones of a power-of-two size (ZSZE),
 *     each writable up to its capacity (ZCAP <= ZSZE) at its write pointer
 *     only; the zone state machine (the "Zone State Diagram" figure) and
 *     the open and active resources that bound how many zones may be
 *     opened (ZSIO, ZSEO) or active (ZSIO, ZSEO, ZSC) at once;
 *   - §3.1.2, the command specific status values a zoned command fails
 *     with (Zone Boundary Error ... Invalid Zone State Transition);
 *   - §3.3.5 and §3.3.7, what a Read and a Write check against the zones;
 *   - §3.4.1, Zone Append; §3.4.2, Zone Management Receive (Report
 *     Zones, its state filter and partial reports); §3.4.3, Zone
 *     Management Send (Open, Close, Finish, Reset, Offline, and their
 *     Select All forms);
 *   - §5.6, zone active excursions: a zone finished by the controller
 *     (the ZFC attribute).
 *   - the zone random write area (ZRWA; NVMe ZNS 1.1's optional feature):
 *     allocated to an empty zone by an Open with its ZRWAA flag, from
 *     nr_zrwa resources (ZRWA Resources Unavailable when none is left);
 *     a zone with one takes writes anywhere in [wp, wp + 2 x zrwa_size)
 *     (Zone Invalid Write outside), overwrites included, and moves its
 *     write pointer only by flushes: implicitly, when a write ends past
 *     wp + zrwa_size, by whole zrwa_fg units until it no longer does; or
 *     explicitly, by the ZRWA flush action up to an LBA (a multiple of
 *     zrwa_fg from the write pointer, within zrwa_size).  Zone Append to
 *     it is an Invalid Zone Operation Request.  A finish first flushes
 *     what the host wrote in the area; a finish or a reset frees it.  (The
 *     limits and status values as QEMU's emulated controller has them.)
 * Not modelled (yet): zone descriptor extensions, the reset/finish
 * recommended attributes and limits, the Changed Zone List log.
 *
 * The state machine (§2.1.1's zone state diagram; §3.4.3 for the
 * actions), a row a state, a column what is done to it:
 *
 *   state      write, append  Open      Close   Finish  Reset  Offline
 *   Empty      ZSIO (r)       ZSEO (r)  -       Full    Empty  -
 *   ZSIO       ZSIO or Full   ZSEO      Closed  Full    Empty  -
 *   ZSEO       ZSEO or Full   ZSEO      Closed  Full    Empty  -
 *   Closed     ZSIO (r)       ZSEO (r)  Closed  Full    Empty  -
 *   Full       Zone Is Full   -         -       Full    Empty  -
 *   Read Only  Is Read Only   -         -       -       -      Offline
 *   Offline    Is Offline     -         -       -       -      Offline
 *
 * (r): takes resources, see below; "-": Invalid Zone State Transition;
 * "or Full": Full when the write pointer reaches the capacity.  Reads
 * are allowed in every state but Offline (Zone Is Offline).  Finishing
 * an empty zone takes no resource; closing an opened zone that holds no
 * data leaves it Closed (as QEMU's emulated ZNS controller does; SCSI
 * ZBC would make it empty).  Faults (the controller's, not a command):
 * any state but Offline may become Read Only, any may become Offline;
 * the controller may also finish an active zone (§5.6), which then
 * carries the ZFC attribute.
 *
 * Resources (§2.1.1): a zone holds an active resource while it is ZSIO,
 * ZSEO or ZSC, and an open resource while it is ZSIO or ZSEO.  Taking an
 * empty or closed zone to an opened state (a write, an append or an
 * Open) checks, in the specification's order: the active limit (an empty
 * zone only; Too Many Active Zones), then, if every open resource is
 * taken, closes an implicitly opened zone to free one, then the open
 * limit (Too Many Open Zones, when every opened zone was opened
 * explicitly).  Which implicitly opened zone to close the specification
 * leaves to the controller: this model closes the least recently opened
 * or written one (a scan of the zones: it runs only when a new zone is
 * opened at the limit).
 *
 * Units: LBAs (logical blocks) throughout; zone numbers from 0; the
 * zone start LBA (ZSLBA) of zone i is i * zone_size.
 *
 * How a drive uses it: before its FTL, on every command.  A write or an
 * append is checked and committed here first (the write pointer moves,
 * the zone opens or fills), and only then given to the FTL; a read is
 * checked and told how many of its LBAs were never written (what those
 * return -- zeros, or an error -- is the drive's business, not this
 * module's); a Zone Send returns the LBAs a Finish padded (device-level
 * write amplification, for the FTL to write or mark) and the LBAs a
 * Reset discarded (the erase it costs).  Every state change, including
 * the implicit close a write can cause, is also told to an optional hook,
 * so that the FTL that maps zones onto erase blocks can follow along.
 *
 * Errors: 0, or an SSD_ZNS_E* code named after the status the
 * specification returns (ssd_zns_strerror gives a one-line message,
 * ssd_zns_status the NVMe status value); set-up failures are SSD_EINVAL
 * with a message.  A command that fails changes nothing.
 */
#ifndef SSD_ZNS_H
#define SSD_ZNS_H

#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

/* Zone states, valued as a zone descriptor's Zone State field (§3.4.2). */
enum ssd_zns_state {
	SSD_ZNS_ZSE = 0x1,  /* empty: write pointer at the zone start */
	SSD_ZNS_ZSIO = 0x2, /* implicitly opened, by a write or append */
	SSD_ZNS_ZSEO = 0x3, /* explicitly opened, by Open */
	SSD_ZNS_ZSC = 0x4,  /* closed: active, not open */
	SSD_ZNS_ZSRO = 0xd, /* read only: a fault; readable only */
	SSD_ZNS_ZSF = 0xe,  /* full: written or finished to capacity */
	SSD_ZNS_ZSO = 0xf   /* offline: neither readable nor writable */
};

/* Zone attributes (a descriptor's Zone Attributes field, §3.4.2). */
#define SSD_ZNS_ATTR_ZFC 0x01 /* Zone Finished by Controller (§5.6) */
#define SSD_ZNS_ATTR_ZRWAV 0x08 /* Zone Random Write Area Valid */

/* Errors: the SSD_ZNS_E* codes of base/util.h, named after the NVMe
 * status they stand for. */

/* A one-line message for code ("Zone Is Full: reset the zone to write
 * it again"); an SSD_E* code gets ssd_strerror's.  Static
 * string, never NULL. */
const char *ssd_zns_strerror(int code);
/* The NVMe status of code: status code type << 8 | status code (0x1b9
 * for SSD_ZNS_EFULL); 0 for 0; -1 for a code that is not an SSD_ZNS_E*. */
int ssd_zns_status(int code);
/* "empty", "implicitly opened", ... ; "?" for a value that is no state. */
const char *ssd_zns_state_name(int state);

/* A namespace's zones.  The limits are counts of zones, 0 for none: the
 * identify data's MOR and MAR are 0-based with FFFFFFFFh for none, and
 * ssd_zns_limit() converts them. */
struct ssd_zns_params {
	uint64_t zone_size;  /* LBAs per zone (ZSZE): a power of two */
	uint64_t zone_cap;   /* writable LBAs per zone (ZCAP): 1..zone_size */
	uint32_t nzones;     /* zones in the namespace (>= 1) */
	uint32_t max_open;   /* zones opened at once at most; 0: no limit */
	uint32_t max_active; /* zones active at once at most; 0: no limit;
	                        when both are set, max_open <= max_active */
	uint64_t max_append; /* Zone Append size limit in LBAs; 0: none */
	int read_across;     /* 1: reads may cross zone boundaries (the
	                        RAZB bit); 0: Zone Boundary Error */
	uint64_t zrwa_size;  /* random write area, LBAs; 0: no ZRWA */
	uint64_t zrwa_fg;    /* its flush granularity, LBAs (divides
	                        zrwa_size) */
	uint32_t nr_zrwa;    /* areas to allocate (0: max_active, or every
	                        zone without an active limit) */
};

/* The params' limit for a 0-based MOR or MAR value. */
static inline uint32_t ssd_zns_limit(uint32_t zero_based)
{
	return zero_based == 0xffffffffu ? 0 : zero_based + 1;
}

/* What a Zone Management Send does (the Zone Send Action values). */
enum ssd_zns_action {
	SSD_ZNS_ACT_CLOSE = 0x1,
	SSD_ZNS_ACT_FINISH = 0x2,
	SSD_ZNS_ACT_OPEN = 0x3,
	SSD_ZNS_ACT_RESET = 0x4,
	SSD_ZNS_ACT_OFFLINE = 0x5,
	SSD_ZNS_ACT_ZRWA_FLUSH = 0x11 /* flush the ZRWA up to an LBA */
};

/* Zone Management Send's flags (its Select All bit, and the ZRWA
 * Allocation bit of an Open). */
#define SSD_ZNS_ALL 0x1
#define SSD_ZNS_ZRWAA 0x2

/* What caused a state change, for the hook. */
enum ssd_zns_cause {
	SSD_ZNS_BY_WRITE,       /* a write or an append */
	SSD_ZNS_BY_SEND,        /* a Zone Management Send (its action in
	                           the event) */
	SSD_ZNS_BY_IMPLICIT_CLOSE, /* closed to free an open resource */
	SSD_ZNS_BY_CONTROLLER,  /* ssd_zns_controller_finish */
	SSD_ZNS_BY_FAULT        /* ssd_zns_fault */
};

/* One state change. */
struct ssd_zns_event {
	uint32_t zone;
	uint8_t from, to;   /* enum ssd_zns_state */
	uint8_t cause;      /* enum ssd_zns_cause */
	uint8_t action;     /* enum ssd_zns_action, for SSD_ZNS_BY_SEND */
	uint64_t lbas;      /* to Full by Finish or the controller: LBAs
	                       padded; to Empty by Reset: LBAs the zone held
	                       (written or padded); else 0 */
};

/* Called after each state change, within the call that made it; it must
 * not call back into the zones.  ctx is the hook's own. */
typedef void ssd_zns_hook(void *ctx, const struct ssd_zns_event *e);

/* A zone descriptor (§3.4.2). */
struct ssd_zns_desc {
	uint64_t zslba;     /* zone start LBA */
	uint64_t cap;       /* zone capacity, LBAs */
	uint64_t wp;        /* write pointer; UINT64_MAX where the
	                       specification says it is not valid (full,
	                       read-only, offline) */
	uint64_t written;   /* LBAs the host wrote (from zslba; not the
	                       padding of a Finish) */
	uint8_t state;      /* enum ssd_zns_state */
	uint8_t attr;       /* SSD_ZNS_ATTR_* */
};

/* Report Zones' filter (the Zone Receive Action Specific Field). */
enum ssd_zns_filter {
	SSD_ZNS_LIST_ALL = 0,
	SSD_ZNS_LIST_ZSE = 1,
	SSD_ZNS_LIST_ZSIO = 2,
	SSD_ZNS_LIST_ZSEO = 3,
	SSD_ZNS_LIST_ZSC = 4,
	SSD_ZNS_LIST_ZSF = 5,
	SSD_ZNS_LIST_ZSRO = 6,
	SSD_ZNS_LIST_ZSO = 7
};

/* What a Zone Management Send did. */
struct ssd_zns_done {
	uint64_t from;      /* a ZRWA flush: the first LBA it committed */
	uint32_t zones;     /* zones whose state changed */
	uint64_t lbas;      /* Finish: LBAs padded; Reset: LBAs the zones
	                       held (so a single Reset "had data" if > 0);
	                       else 0 */
};

struct ssd_zns;

/* Makes a namespace of p->nzones empty zones in *out.  SSD_EINVAL with a
 * one-line message in err (errlen bytes, may be 0) for a zone size that
 * is no power of two, a capacity of 0 or above the size, no zones, more
 * LBAs than 2^64, or max_open above max_active; SSD_ENOMEM. */
int ssd_zns_create(const struct ssd_zns_params *p, struct ssd_zns **out,
		   char *err, size_t errlen);
void ssd_zns_destroy(struct ssd_zns *z);
/* Bytes ssd_zns_create allocates for nzones zones. */
uint64_t ssd_zns_mem(uint32_t nzones);
/* Sets (or, with NULL, removes) the hook told of every state change. */
void ssd_zns_set_hook(struct ssd_zns *z, ssd_zns_hook *hook, void *ctx);

/* The params it was made with; its zone of lba (lba < nzones *
 * zone_size); opened (ZSIO + ZSEO) and active (+ ZSC) zones now; zones
 * closed implicitly so far. */
const struct ssd_zns_params *ssd_zns_params(const struct ssd_zns *z);
uint32_t ssd_zns_zone_of(const struct ssd_zns *z, uint64_t lba);
uint32_t ssd_zns_nr_open(const struct ssd_zns *z);
uint32_t ssd_zns_nr_active(const struct ssd_zns *z);
uint64_t ssd_zns_implicit_closes(const struct ssd_zns *z);

/* Checks and commits a write of [lba, lba + n): it must start at its
 * zone's write pointer and end at or below the zone's capacity.  An
 * empty or closed zone opens implicitly (resources as above); the zone
 * is full when its write pointer reaches the capacity.
 * SSD_ZNS_EFIELD (n is 0), SSD_ZNS_ERANGE, SSD_ZNS_EFULL,
 * SSD_ZNS_EREADONLY, SSD_ZNS_EOFFLINE, SSD_ZNS_EWRITE (not at the write
 * pointer), SSD_ZNS_EBOUNDARY (past the capacity), SSD_ZNS_EMAXACTIVE,
 * SSD_ZNS_EMAXOPEN, checked in that order. */
int ssd_zns_write(struct ssd_zns *z, uint64_t lba, uint64_t n);

/* The same, for a zone with a random write area too: *from and *n
 * (may be NULL) receive the LBAs whose write pointer the write moved
 * over -- for an ordinary zone the write itself, for one with a ZRWA what
 * its implicit flush committed (maybe none). */
int ssd_zns_write_commit(struct ssd_zns *z, uint64_t lba, uint64_t n,
			 uint64_t *from, uint64_t *committed);

/* Zone Append of n LBAs to the zone starting at zslba: written at the
 * write pointer, which *lba receives.  SSD_ZNS_ERANGE, SSD_ZNS_EFIELD
 * (zslba is no zone start, n is 0 or above max_append), then as a write
 * (without SSD_ZNS_EWRITE). */
int ssd_zns_append(struct ssd_zns *z, uint64_t zslba, uint64_t n,
		   uint64_t *lba);

/* Checks a read of [lba, lba + n): any LBA below the zone size may be
 * read (up to the zone size, past the capacity), except in an offline
 * zone.  *unwritten (may be NULL) receives how many of the n LBAs the
 * host never wrote (at or past the written end of their zone: the
 * padding of a Finish, the LBAs past the capacity); what they read as is
 * the caller's business.  SSD_ZNS_EFIELD (n is 0), SSD_ZNS_ERANGE,
 * SSD_ZNS_EBOUNDARY (crosses a zone end and read_across is 0),
 * SSD_ZNS_EOFFLINE. */
int ssd_zns_read(const struct ssd_zns *z, uint64_t lba, uint64_t n,
		 uint64_t *unwritten);

/* Zone Management Send (§3.4.3): action on the zone starting at zslba,
 * or, with select_all, on every zone the specification selects for it
 * (zslba ignored):
 *   Open     Closed -> ZSEO; Empty, ZSIO -> ZSEO; ZSEO stays.
 *            All: every closed zone, or none if the open resources
 *            cannot take them all (SSD_ZNS_EMAXOPEN; no implicit close).
 *   Close    ZSIO, ZSEO -> Closed; Closed stays.  All: ZSIO and ZSEO.
 *   Finish   Empty, ZSIO, ZSEO, Closed -> Full, the write pointer moved
 *            to the capacity: done->lbas is what it skipped (padding);
 *            Full stays.  All: ZSIO, ZSEO and Closed.
 *   Reset    ZSIO, ZSEO, Closed, Full -> Empty: done->lbas is what the
 *            zone held; Empty stays.  All: ZSIO, ZSEO, Closed, Full.
 *   Offline  Read Only -> Offline; Offline stays.  All: Read Only.
 * Any other state: SSD_ZNS_ETRANSITION.  Also SSD_ZNS_ERANGE, and
 * SSD_ZNS_EFIELD (zslba is no zone start, or no such action); Open as a
 * write for resources.  done (may be NULL) receives what it did. */
int ssd_zns_send(struct ssd_zns *z, enum ssd_zns_action action,
		 uint64_t zslba, int select_all, struct ssd_zns_done *done);
/* The same with flags (SSD_ZNS_ALL, SSD_ZNS_ZRWAA for an Open), and the
 * ZRWA flush (SSD_ZNS_ACT_ZRWA_FLUSH, zslba the last LBA to flush: done
 * says from where and how many LBAs it committed).  A Finish of a zone
 * with a ZRWA commits what the host wrote in it first (the LBAs it
 * committed in done->from and the event's lbas count only padding). */
int ssd_zns_send_flags(struct ssd_zns *z, enum ssd_zns_action action,
		       uint64_t zslba, unsigned flags, struct ssd_zns_done *done);
/* A zone's random write area: 1 if it has one, with the LBA one past
 * the last the host wrote in it (its write pointer when none). */
int ssd_zns_zrwa(const struct ssd_zns *z, uint32_t zone, uint64_t *hi);

/* A fault: zone becomes to (SSD_ZNS_ZSRO or SSD_ZNS_ZSO),
 * giving back its resources; the write pointer stays where it was (not
 * reported).  Read Only from any state but Offline; Offline from any.
 * SSD_ZNS_ETRANSITION otherwise, SSD_ZNS_EFIELD for another to or zone. */
int ssd_zns_fault(struct ssd_zns *z, uint32_t zone, int to);

/* The controller finishes an active zone itself (a zone active
 * excursion, §5.6): Full with SSD_ZNS_ATTR_ZFC set (until a Reset);
 * *padded (may be NULL) as for Finish.  SSD_ZNS_ETRANSITION unless the
 * zone is ZSIO, ZSEO or Closed; SSD_ZNS_EFIELD for no such zone. */
int ssd_zns_controller_finish(struct ssd_zns *z, uint32_t zone,
			      uint64_t *padded);

/* The descriptor of zone (< nzones). */
void ssd_zns_describe(const struct ssd_zns *z, uint32_t zone,
		      struct ssd_zns_desc *d);

/* Report Zones (§3.4.2): the descriptors of the zones from the one
 * holding slba to the last that match filter, at most max of them into
 * out; *returned (may be NULL) receives how many it wrote, and
 * *nr_zones (may be NULL) the report header's Number of Zones: with
 * partial, the descriptors returned; without, every matching zone from
 * slba on, returned or not.  SSD_ZNS_ERANGE, SSD_ZNS_EFIELD (a filter
 * above 7). */
int ssd_zns_report(const struct ssd_zns *z, uint64_t slba, int filter,
		   int partial, struct ssd_zns_desc *out, uint32_t max,
		   uint32_t *returned, uint64_t *nr_zones);

/* The invariants: each zone's write pointer within [zslba, zslba + cap],
 * at zslba when empty and at the capacity when full, written <= what the
 * write pointer covers, the open and active counters equal to a recount
 * and within the limits.  0, or SSD_ESTATE with a one-line message in
 * err (errlen bytes, may be 0). */
int ssd_zns_check(const struct ssd_zns *z, char *err, size_t errlen);

/* The zones in a snapshot (docs/snapshots.md): every zone's state, write
 * pointer, written count, random write area and place in the implicit
 * close's order, and the counters; loaded into a namespace made with
 * the same params, then held to ssd_zns_check (SSD_EPARSE with the
 * reader's message if it fails). */
struct ssd_snapw;
struct ssd_snapr;
void ssd_zns_snap_save(const struct ssd_zns *z, struct ssd_snapw *w);
int ssd_zns_snap_load(struct ssd_zns *z, struct ssd_snapr *r);

/* A power cut (docs/zoned.md): zone's write pointer goes back to `keep`
 * LBAs from its start, where its durable data ends (never forward); an
 * open zone is closed, one left holding nothing is Empty; a Full zone
 * whose written data all survived stays Full.  Its random write area
 * (DRAM) is gone, unless `saved` (power-loss protection saved DRAM: the
 * zone keeps it, closed).  Read-only, offline and empty zones stay. */
void ssd_zns_power_cut(struct ssd_zns *z, uint32_t zone, uint64_t keep,
		       int saved);

#endif
