/*
 * serve.c -- the drive that real programs use (serve.h): the data store,
 * the two clocks, and the statistics and report of what the clients did.
 */
#include "serve/serve.h"
#include "machine/snapshot.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/ofile.h"
#include "base/util.h"
#include "machine/device.h"
#include "job/job.h"
#include "result/result.h"
#include "run/sim.h"
#include "machine/verify.h"
#include "report/report.h"

/* ---- the data store ---- */

/* A memory store is a two-level table of 4 KiB pages: leaves of LEAF_N
 * page pointers (4 MiB of the drive each) are made when a page in them
 * is first written and freed with their last page, so a drive of any
 * size costs its written pages, a pointer per page of written leaves and
 * a pointer per 4 MiB.  Hand-written rather than a general map: it is
 * the whole data path and two array lookups are all it needs. */
#define PG 4096u
#define LEAF_BITS 10
#define LEAF_N (1u << LEAF_BITS)

struct leaf {
	uint32_t used;             /* pages allocated in it */
	uint8_t *pg[LEAF_N];
};

struct store {
	int fd;                    /* a file store, or -1 */
	uint64_t size;
	uint64_t nleaf;            /* entries of top */
	struct leaf **top;
	uint64_t pages, leaves;    /* allocated */
};

static uint8_t *page_get(struct store *st, uint64_t pn, int make)
{
	struct leaf **lp = &st->top[pn >> LEAF_BITS];
	if (!*lp) {
		if (!make)
			return NULL;
		*lp = calloc(1, sizeof **lp);
		if (!*lp)
			return NULL;
		st->leaves++;
	}
	uint8_t **p = &(*lp)->pg[pn & (LEAF_N - 1)];
	if (!*p && make) {
		*p = calloc(1, PG);
		if (!*p)
			return NULL;
		(*lp)->used++;
		st->pages++;
	}
	return *p;
}

static void page_free(struct store *st, uint64_t pn)
{
	struct leaf **lp = &st->top[pn >> LEAF_BITS];
	if (!*lp)
		return;
	uint8_t **p = &(*lp)->pg[pn & (LEAF_N - 1)];
	if (!*p)
		return;
	free(*p);
	*p = NULL;
	st->pages--;
	if (!--(*lp)->used) {
		free(*lp);
		*lp = NULL;
		st->leaves--;
	}
}

/* A file store's read or write; its writes go through base/ofile.h,
 * which can fail them as a full disk would (SSDLAB_FAULT). */
static int full_io(int fd, void *buf, size_t len, uint64_t off, int wr)
{
	if (wr)
		return ssd_ofile_pwrite(fd, buf, len, off);
	uint8_t *b = buf;
	while (len) {
		ssize_t n = pread(fd, b, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0) { /* past the end of the file: reads as zeros */
			memset(b, 0, len);
			return 0;
		}
		b += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

static int store_read(struct store *st, uint8_t *buf, uint32_t len, uint64_t off)
{
	if (st->fd >= 0)
		return full_io(st->fd, buf, len, off, 0);
	while (len) {
		uint32_t in = (uint32_t)(off % PG), n = PG - in < len ? PG - in : len;
		const uint8_t *p = page_get(st, off / PG, 0);
		if (p)
			memcpy(buf, p + in, n);
		else
			memset(buf, 0, n);
		buf += n;
		off += n;
		len -= n;
	}
	return 0;
}

static int store_write(struct store *st, const uint8_t *buf, uint32_t len,
		       uint64_t off)
{
	if (st->fd >= 0)
		return full_io(st->fd, (void *)buf, len, off, 1);
	while (len) {
		uint32_t in = (uint32_t)(off % PG), n = PG - in < len ? PG - in : len;
		uint8_t *p = page_get(st, off / PG, 1);
		if (!p)
			return -ENOMEM;
		memcpy(p + in, buf, n);
		buf += n;
		off += n;
		len -= n;
	}
	return 0;
}

/* [off, off + len) reads as zeros afterwards.  dealloc: whole pages are
 * freed (a file: hole punched), parts of pages cleared; otherwise the
 * range stays allocated, as NBD's write zeroes with NO_HOLE asks (memory:
 * pages of zeros; a file: zeroed in place). */
static int store_zero(struct store *st, uint64_t len, uint64_t off, int dealloc)
{
	if (st->fd >= 0) {
		int mode = dealloc ? FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE
				   : FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE;
		if (!fallocate(st->fd, mode, (off_t)off, (off_t)len))
			return 0;
		if (errno != EOPNOTSUPP)
			return -errno;
		static const uint8_t zeros[PG];
		while (len) {
			uint32_t n = len < PG ? (uint32_t)len : PG;
			int rc = full_io(st->fd, (void *)zeros, n, off, 1);
			if (rc)
				return rc;
			off += n;
			len -= n;
		}
		return 0;
	}
	while (len) {
		uint32_t in = (uint32_t)(off % PG);
		uint64_t n = PG - in < len ? PG - in : len;
		if (n == PG && dealloc) {
			page_free(st, off / PG);
		} else {
			uint8_t *p = page_get(st, off / PG, !dealloc);
			if (!p && !dealloc)
				return -ENOMEM;
			if (p)
				memset(p + in, 0, (size_t)n);
		}
		off += n;
		len -= n;
	}
	return 0;
}

static void store_free(struct store *st)
{
	if (st->fd >= 0)
		close(st->fd);
	for (uint64_t i = 0; st->top && i < st->nleaf; i++) {
		if (!st->top[i])
			continue;
		for (uint32_t k = 0; k < LEAF_N; k++)
			free(st->top[i]->pg[k]);
		free(st->top[i]);
	}
	free(st->top);
}

/* ---- the server ---- */

/* The completion times of the commands in flight in simulated time, a
 * binary min-heap. */
struct heap {
	int64_t *v;
	uint32_t n, cap;
};

static int heap_push(struct heap *h, int64_t x)
{
	if (h->n == h->cap) {
		int64_t *v = ssd_grow(h->v, &h->cap, sizeof *v, 64);
		if (!v)
			return -ENOMEM;
		h->v = v;
	}
	uint32_t i = h->n++;
	while (i && h->v[(i - 1) / 2] > x) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = x;
	return 0;
}

static int64_t heap_pop(struct heap *h)
{
	int64_t top = h->v[0], x = h->v[--h->n];
	uint32_t i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->v[c + 1] < h->v[c])
			c++;
		if (h->v[c] >= x)
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n)
		h->v[i] = x;
	return top;
}

struct ssd_srv {
	pthread_mutex_t lock;
	struct ssd_config cfg;
	struct ssd_dev *dev;
	struct store st;
	int clock;
	int64_t overhead;          /* taken off each real-clock wait */
	_Atomic int64_t last_arrive; /* the real clock: the latest arrival */
	uint32_t fast_qd;
	int64_t vnow;              /* the fast clock */
	struct timespec t0;        /* the real clock's start */
	struct heap inflight;
	int can_trim;
	uint64_t seed;
	char name[64];
	char *output;
	unsigned formats;
	/* what the clients did, as the report counts it */
	struct ssd_dstat dir[SSD_DDIR_N];
	struct ssd_dstat sync;
	int64_t last_done[SSD_DDIR_N + 1];
	uint64_t depth[SSD_DEPTH_N];
	uint32_t max_depth;
	uint32_t depth_now;        /* the depth the request entering met */
	uint32_t bs_min[SSD_DDIR_N], bs_max[SSD_DDIR_N]; /* sizes seen */
	uint64_t lat_over_1s, requests;
	uint64_t zero_trim_bytes, zero_write_bytes;
	unsigned dirs_seen;        /* 1 << ddir */
	/* the series */
	struct ssd_ofile *log_of;  /* the stats log (base/ofile.h, written as
	                              it grows) ... */
	FILE *log;                 /* ... and its stream */
	int64_t interval, next_row;
	uint64_t row_ios[SSD_DDIR_N], row_bytes[SSD_DDIR_N], row_flushes;
	struct ssd_counters row_ctr;
	uint64_t flushes;
	FILE *out;                 /* the report without an output file */
	int created;               /* the data file was made here */
	char *data;                /* the data file's name; NULL in memory */
	char file_err[400];        /* the first file the server could not
	                              write, and why; "" */
	int64_t end_rows;          /* the series: rows written up to */
	/* power cuts (opts.power_cuts; the section below) */
	int ptrack;
	int64_t power_off;
	struct ssd_ofile *plog_of; /* the power log, as the stats log */
	FILE *plog;
	struct hist *hist;         /* contents a cut may bring back */
	uint32_t hist_n, hist_cap;
	uint32_t hist_settle_at;   /* entries at which to drop the settled */
	struct fq { uint32_t k; int64_t c; } *fq; /* host flushes in flight */
	uint32_t fq_n, fq_cap;
	uint32_t flushes_sub;      /* host flushes submitted */
	_Atomic uint64_t cut_gen;  /* cuts so far */
	_Atomic int64_t cut_at;    /* the latest cut */
	_Atomic uint64_t lossy_cuts; /* cuts that lost pages */
	int64_t base;              /* the drive's time when served: 0 fresh,
	                              a snapshot's saved time; the server's
	                              own clock starts at 0 (see dev_*) */
	struct ssd_counters ctr0;  /* the drive's counters when served (a
	                              snapshot's; zeros fresh): the report
	                              and the series count from them */
	int64_t acked;             /* the latest completion answered (under
	                              the lock): no cut comes before it */
	uint64_t cuts, cut_lost;
	_Atomic uint64_t last_cut_lost; /* pages the latest lossy cut lost */
};

/* The power generation a request of this thread arrived in: a request
 * that arrived before a cut and completes after it was in flight at the
 * cut, whether it waited for the lock, in the drive or for its
 * completion on the real clock. */
static __thread uint64_t req_gen;

/* The last error's message, per thread: the server's threads fail
 * independently, each answering its own client. */
static __thread char err_msg[256];

static int fail(struct ssd_srv *s, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct ssd_srv *s, int rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	(void)s;
	vsnprintf(err_msg, sizeof err_msg, fmt, ap);
	va_end(ap);
	return rc;
}

/* A log that could not be written: the first such failure is kept for
 * ssd_srv_file_error and ssd_srv_close, and the log is dropped (removed:
 * rows missing from it would not show).  Under the lock. */
static void log_failed(struct ssd_srv *s, struct ssd_ofile **of, FILE **f,
		       const char *what, const char *msg)
{
	if (!s->file_err[0])
		snprintf(s->file_err, sizeof s->file_err, "%s: %s", what, msg);
	ssd_ofile_discard(*of);
	*of = NULL;
	*f = NULL;
}

static int64_t wall_rel(const struct ssd_srv *s)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)(ts.tv_sec - s->t0.tv_sec) * 1000000000 +
	       (ts.tv_nsec - s->t0.tv_nsec);
}

/* The real clock: return at simulated time t.  A sleeping thread wakes
 * tens of microseconds late (the kernel's timer slack, then the
 * scheduler), which would add to every latency a client sees.  A thread
 * waiting alone sleeps until SPIN_NS before t with the least slack and
 * spins the rest on the clock.  With others waiting too, or once another
 * request has arrived after it, it sleeps instead: spinning threads would
 * take the cores that the clients and nbdkit's request readers need, and
 * a client with requests in flight together is waiting on more than one
 * of them anyway. */
#define SPIN_NS 60000
static atomic_int waiting;

static void sleep_until(const struct ssd_srv *s, int64_t t)
{
	struct timespec ts = s->t0;
	ts.tv_sec += t / 1000000000;
	ts.tv_nsec += t % 1000000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void wait_until(struct ssd_srv *s, int64_t t, int64_t arrive)
{
	static __thread int slack_set;
	if (!slack_set) {
		prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
		slack_set = 1;
	}
	if (wall_rel(s) >= t)
		return;
	if (atomic_fetch_add(&waiting, 1) > 0) {
		sleep_until(s, t); /* not alone: one sleep, no spin */
		atomic_fetch_sub(&waiting, 1);
		return;
	}
	if (t - wall_rel(s) > SPIN_NS)
		sleep_until(s, t - SPIN_NS);
	while (wall_rel(s) < t) {
		if (atomic_load(&waiting) > 1 || atomic_load(&s->last_arrive) != arrive) {
			sleep_until(s, t);
			break;
		}
	}
	atomic_fetch_sub(&waiting, 1);
}

/* A request arrives: its time on the real clock, noted as the latest. */
static int64_t arrival(struct ssd_srv *s)
{
	req_gen = atomic_load(&s->cut_gen);
	int64_t t = wall_rel(s);
	atomic_store(&s->last_arrive, t);
	return t;
}

static const char *series_header =
	"time_s,read_iops,write_iops,trim_iops,read_mbps,write_mbps,flushes,"
	"host_pages_written,nand_lpages_programmed,gc_copied_pages,gc_bg_copied_pages,"
	"waf_interval,waf,"
	"free_blocks,percentage_used,read_only\n";

/* What the options and the drive alone tell (ssd_srv_check): checked
 * again by ssd_srv_open, so that a server started without the check
 * still refuses. */
int ssd_srv_check(const struct ssd_srv_opts *o, char *err, size_t errlen)
{
	const struct ssd_config *c = o->cfg;
	/* the saved drive; power cuts keep the server's time as the drive's,
	 * so they start from a fresh drive */
	if (o->snapshot && o->power_cuts) {
		snprintf(err, errlen, "power cuts start from a fresh drive; "
			 "--snapshot '%s' and --power-cuts exclude each other",
			 o->snapshot);
		return -EINVAL;
	}
	if (c->type == SSD_TYPE_SSD && c->mapping == SSD_MAP_ZONE) {
		/* NBD (and nbdkit's block device) has no zones: a client would
		 * write anywhere, and a zoned drive takes writes only at a
		 * zone's write pointer */
		struct ssd_zones z;
		char why[200];
		if (ssd_config_zones(c, &z, why, sizeof why))
			z.zones = 0;
		snprintf(err, errlen, "the drive is zoned (mapping = zone, %u "
			 "zones) and NBD has no zone commands: a client's file "
			 "system would write off the write pointers (accepted: "
			 "mapping = page, block, bast or fast; run zoned jobs with "
			 "ssdlab run, docs/fio-zoned.md)", z.zones);
		return -EINVAL;
	}
	if (o->power_cuts) {
		char why[200];
		if (ssd_config_is_machine(c)) {
			snprintf(err, errlen, "power cuts need a bare SSD (no host "
				 "layers, not a disk)");
			return -EINVAL;
		}
		if (ssd_config_power_refusal(c, why, sizeof why)) {
			snprintf(err, errlen, "%s", why);
			return -EINVAL;
		}
	}
	/* the drive starts fresh: a file holding data would read back what
	 * this drive never wrote, and emptying it would lose it */
	struct stat sb;
	if (o->data && strcmp(o->data, "memory") && !stat(o->data, &sb) &&
	    (!S_ISREG(sb.st_mode) || sb.st_size)) {
		snprintf(err, errlen, "data file %s: %s", o->data,
			 S_ISREG(sb.st_mode) ? "exists and is not empty (the drive "
			 "starts fresh; remove it or name another)"
			 : "not a regular file");
		return -EEXIST;
	}
	return 0;
}

int ssd_srv_open(const struct ssd_srv_opts *o, struct ssd_srv **out,
		 char *err, size_t errlen)
{
	*out = NULL;
	struct ssd_srv *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	s->st.fd = -1;
	s->cfg = *o->cfg;
	s->clock = o->clock;
	s->fast_qd = o->fast_qd ? o->fast_qd : 1;
	s->overhead = o->client_overhead > 0 ? o->client_overhead : 0;
	s->seed = o->seed;
	s->formats = o->formats ? o->formats : SSD_OUT_NORMAL;
	snprintf(s->name, sizeof s->name, "%s", o->name ? o->name : "nbd");
	int rc = ssd_srv_check(o, err, errlen);
	if (rc)
		goto bad;
	if (o->output && !(s->output = strdup(o->output))) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto bad;
	}
	/* the model, and a memory store's table of leaves; its pages are the
	 * client's data, taken as written (docs/serve.md) */
	uint64_t leaves = (ssd_config_volume(&s->cfg) + (uint64_t)PG * LEAF_N - 1) /
			  ((uint64_t)PG * LEAF_N) * sizeof *s->st.top;
	int drc = ssd_dev_mem_check(&s->cfg, o->power_cuts ? SSD_MEM_POWER : 0,
				    sizeof *s + (o->data && strcmp(o->data, "memory") ? 0 : leaves),
				    err, errlen);
	if (drc) {
		rc = -ENOMEM;
		goto bad;
	}
	if (o->snapshot) {
		/* the saved drive; power cuts keep the server's time as the
		 * drive's, so they start from a fresh drive */
		char why[640];
		drc = ssd_snapshot_load(o->snapshot, &s->cfg, &s->dev, why,
					sizeof why);
		if (drc) {
			rc = drc == SSD_ENOMEM ? -ENOMEM : -EINVAL;
			snprintf(err, errlen, "%s", why);
			goto bad;
		}
		s->base = ssd_dev_time(s->dev);
		s->ctr0 = *ssd_dev_counters(s->dev);
		s->row_ctr = s->ctr0;
	} else if ((drc = ssd_dev_create(&s->cfg, o->seed, &s->dev))) {
		rc = drc == SSD_ENOMEM ? -ENOMEM : -EINVAL;
		snprintf(err, errlen, "%s", drc == SSD_ENOMEM ? "out of memory"
			 : "the drive's geometry is too large for the model");
		goto bad;
	}
	if (o->check_every)
		ssd_dev_set_check_every(s->dev, o->check_every);
	if (o->power_cuts) {
		drc = ssd_verify_attach(s->dev);
		if (!drc)
			drc = ssd_dev_power_track(s->dev);
		if (drc) {
			rc = drc == SSD_ENOMEM ? -ENOMEM : -EINVAL;
			char why[200];
			if (drc == SSD_EUNSUP && ssd_config_power_refusal(
				    ssd_dev_config(s->dev), why, sizeof why))
				snprintf(err, errlen, "%s", why);
			else
				snprintf(err, errlen, "%s", drc == SSD_ENOMEM ? "out of memory"
					 : drc == SSD_EUNSUP ? "power cuts need a bare SSD (no host "
					 "layers, not a disk)" : "the drive cannot track power cuts");
			goto bad;
		}
		s->ptrack = 1;
		s->power_off = o->power_off > 0 ? o->power_off : 0;
		if (o->power_log) {
			char msg[300];
			if (ssd_ofile_open(o->power_log, SSD_OFILE_LIVE, &s->plog_of,
					   msg, sizeof msg)) {
				rc = -EIO;
				snprintf(err, errlen, "power log: %s", msg);
				goto bad;
			}
			s->plog = ssd_ofile_stream(s->plog_of);
			fputs("cut,time_s,offset,holds\n", s->plog);
			if (ssd_ofile_flush(s->plog_of, msg, sizeof msg)) {
				rc = -EIO;
				snprintf(err, errlen, "power log: %s", msg);
				goto bad;
			}
		}
	}
	s->st.size = ssd_dev_capacity(s->dev);
	if (o->data && strcmp(o->data, "memory")) {
		int fd = open(o->data, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		struct stat sb;
		if (fd < 0 || fstat(fd, &sb)) {
			rc = -errno;
			snprintf(err, errlen, "data file %s: %s", o->data, ssd_errno_text(errno));
			if (fd >= 0)
				close(fd);
			goto bad;
		}
		s->st.fd = fd;
		s->created = S_ISREG(sb.st_mode) && !sb.st_size;
		if (!(s->data = strdup(o->data))) {
			rc = -ENOMEM;
			snprintf(err, errlen, "out of memory");
			goto bad;
		}
		/* the drive starts fresh: a file holding data would read back
		 * what this drive never wrote, and emptying it would lose it */
		if (!S_ISREG(sb.st_mode) || sb.st_size) {
			s->created = 0;
			rc = -EEXIST;
			snprintf(err, errlen, "data file %s: %s", o->data,
				 S_ISREG(sb.st_mode) ? "exists and is not empty (the drive starts "
				 "fresh; remove it or name another)" : "not a regular file");
			goto bad;
		}
		if (ftruncate(fd, (off_t)s->st.size)) {
			rc = -errno;
			snprintf(err, errlen, "data file %s: %s", o->data, ssd_errno_text(errno));
			goto bad;
		}
	} else {
		s->st.nleaf = (s->st.size + (uint64_t)PG * LEAF_N - 1) / ((uint64_t)PG * LEAF_N);
		s->st.top = calloc(s->st.nleaf, sizeof *s->st.top);
		if (!s->st.top) {
			rc = -ENOMEM;
			snprintf(err, errlen, "out of memory");
			goto bad;
		}
	}
	/* a hard disk or an SSD with trim = no refuses TRIM, and so do the
	 * page cache and RAID 0 over them; MFT takes it (it unmaps its
	 * blocks) over anything */
	s->can_trim = ssd_config_has_trim(&s->cfg) || s->cfg.mft;
	/* the report's file must be writable now, not found wanting at the
	 * end of a session */
	if (s->output) {
		struct ssd_ofile *probe;
		char msg[300];
		if (ssd_ofile_open(s->output, SSD_OFILE_REPLACE, &probe, msg,
				   sizeof msg)) {
			rc = -EIO;
			snprintf(err, errlen, "report: %s", msg);
			goto bad;
		}
		ssd_ofile_discard(probe);
	}
	s->out = o->out ? o->out : stdout;
	if (o->stats_interval > 0) {
		char msg[300];
		if (ssd_ofile_open(o->stats_log, SSD_OFILE_LIVE, &s->log_of, msg,
				   sizeof msg)) {
			rc = -EIO;
			snprintf(err, errlen, "stats log: %s", msg);
			goto bad;
		}
		s->log = ssd_ofile_stream(s->log_of);
		fputs(series_header, s->log);
		if (ssd_ofile_flush(s->log_of, msg, sizeof msg)) {
			rc = -EIO;
			snprintf(err, errlen, "stats log: %s", msg);
			goto bad;
		}
		s->interval = o->stats_interval;
		s->next_row = o->stats_interval;
	}
	pthread_mutex_init(&s->lock, NULL);
	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	*out = s;
	return 0;
bad:
	ssd_ofile_discard(s->plog_of);
	ssd_ofile_discard(s->log_of);
	if (s->dev)
		ssd_dev_destroy(s->dev);
	if (s->created)
		unlink(o->data); /* made here for nothing */
	store_free(&s->st);
	free(s->output);
	free(s->data);
	free(s);
	return rc;
}

uint64_t ssd_srv_size(const struct ssd_srv *s)
{
	return s->st.size;
}

int ssd_srv_can_trim(const struct ssd_srv *s)
{
	return s->can_trim;
}

const char *ssd_srv_error(const struct ssd_srv *s)
{
	(void)s;
	return err_msg;
}

void ssd_srv_store_usage(const struct ssd_srv *s, uint64_t *pages, uint64_t *bytes)
{
	struct stat sb;
	*pages = s->st.pages;
	if (s->st.fd >= 0)
		*bytes = fstat(s->st.fd, &sb) ? 0 : (uint64_t)sb.st_blocks * 512;
	else
		*bytes = s->st.pages * PG + s->st.leaves * sizeof(struct leaf) +
			 s->st.nleaf * sizeof *s->st.top;
}

void ssd_srv_start_clock(struct ssd_srv *s)
{
	pthread_mutex_lock(&s->lock);
	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	pthread_mutex_unlock(&s->lock);
}

/* Simulated time now, under the lock. */
static int64_t now_locked(const struct ssd_srv *s)
{
	return s->clock == SSD_SRV_REAL ? wall_rel(s) : s->vnow;
}

int64_t ssd_srv_now(struct ssd_srv *s)
{
	pthread_mutex_lock(&s->lock);
	int64_t t = now_locked(s);
	pthread_mutex_unlock(&s->lock);
	return t;
}

void ssd_srv_progress(struct ssd_srv *s, uint64_t *requests,
		      int64_t *sim_ns)
{
	pthread_mutex_lock(&s->lock);
	*requests = s->requests;
	*sim_ns = now_locked(s);
	pthread_mutex_unlock(&s->lock);
}

struct ssd_dev *ssd_srv_dev(struct ssd_srv *s)
{
	return s->dev;
}

static void hist_prune(struct ssd_srv *s, int64_t t);
static int hist_record(struct ssd_srv *s, int ddir, uint32_t len, uint64_t off);
static int flush_noted(struct ssd_srv *s, int64_t c);
static void hist_clear(struct ssd_srv *s);

/* The drive, in the server's time: its own less `base` (a drive loaded
 * from a snapshot goes on from the time it was saved at, while the
 * server's clock, series and report count from 0). */
static int64_t dev_submit(struct ssd_srv *s, int ddir, uint64_t off,
			  uint32_t len, int64_t t)
{
	int64_t c = ssd_dev_submit(s->dev, ddir, off, len, t + s->base);
	return c < 0 ? c : c - s->base;
}

static int64_t dev_flush(struct ssd_srv *s, int64_t t)
{
	int64_t c = ssd_dev_flush(s->dev, t + s->base);
	return c < 0 ? c : c - s->base;
}

static int64_t dev_time(const struct ssd_srv *s)
{
	return ssd_dev_time(s->dev) - s->base;
}

/* When a request that arrived at `arrive` (the real clock's time, taken
 * before the lock, so that waiting for it counts in its latency) enters
 * the drive, under the lock: not before the drive's last submission; the
 * fast clock's closed loop waits for a slot.  Notes the depth it meets. */
static int64_t enter(struct ssd_srv *s, int64_t arrive)
{
	int64_t t = s->clock == SSD_SRV_REAL ? arrive : s->vnow;
	t = ssd_max64(t, ssd_dev_last_submit(s->dev) - s->base);
	struct heap *h = &s->inflight;
	while (h->n && h->v[0] <= t)
		heap_pop(h);
	if (s->clock == SSD_SRV_FAST && h->n >= s->fast_qd)
		t = ssd_max64(t, heap_pop(h));
	s->depth_now = h->n + 1;
	if (s->fq_n && s->fq[0].c <= t)
		hist_prune(s, t);
	return t;
}

static void stats_rows(struct ssd_srv *s, int64_t now, int last);

/* A command done in simulated time [t, c] (under the lock): counted in
 * its direction, kept in flight until c. */
static void leave(struct ssd_srv *s, int ddir, int64_t t, int64_t c,
		  uint64_t bytes)
{
	int k = ddir == SSD_DDIR_SYNC ? SSD_DDIR_N : ddir;
	struct ssd_dstat *d = ddir == SSD_DDIR_SYNC ? &s->sync : &s->dir[ddir];
	/* the window sampler wants completions in order: a command that
	 * completes before one submitted earlier counts at the later time */
	int64_t at = ssd_max64(c, s->last_done[k]);
	s->last_done[k] = at;
	ssd_dstat_add(d, at, bytes, c - t);
	if (c - t > 1000000000)
		s->lat_over_1s++;
	s->requests++;
	if (ddir == SSD_DDIR_SYNC) {
		s->flushes++;
	} else {
		/* fio's depths count the reads, writes and trims */
		s->depth[ssd_depth_index(s->depth_now)]++;
		if (s->depth_now > s->max_depth)
			s->max_depth = s->depth_now;
		s->dirs_seen |= 1u << ddir;
		uint32_t b = bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)bytes;
		if (b < s->bs_min[ddir] || !s->bs_max[ddir])
			s->bs_min[ddir] = b;
		if (b > s->bs_max[ddir])
			s->bs_max[ddir] = b;
	}
	if (c > t)
		heap_push(&s->inflight, c); /* out of memory: counted shallower */
	if (s->clock == SSD_SRV_FAST)
		s->vnow = t;
	if (s->log)
		stats_rows(s, now_locked(s), 0);
}

/* A drive's error as an errno, with its message. */
static int drive_error(struct ssd_srv *s, int64_t rc, const char *what,
		       uint64_t off, uint64_t len)
{
	switch (rc) {
	case SSD_EROFS:
		return fail(s, -EROFS, "%s at offset %llu, %llu byte%s: the drive is "
			    "read-only (worn out); reads still work", what,
			    (unsigned long long)off, (unsigned long long)len,
			    ssd_plural(len));
	case SSD_EUNSUP:
		return fail(s, -EOPNOTSUPP, "%s: the drive does not support it", what);
	case SSD_EINVAL:
		return fail(s, -EINVAL, "%s at offset %llu, %llu byte%s: outside the "
			    "drive", what, (unsigned long long)off,
			    (unsigned long long)len, ssd_plural(len));
	case SSD_ENOMEM:
		return fail(s, -ENOMEM, "%s: out of memory", what);
	case SSD_ENOSPC:
		return fail(s, -ENOSPC, "%s at offset %llu: the model ran out of free "
			    "blocks: %s", what, (unsigned long long)off,
			    ssd_dev_error(s->dev));
	default:
		return fail(s, -EIO, "%s at offset %llu: the drive failed: %s", what,
			    (unsigned long long)off, ssd_dev_error(s->dev));
	}
}

static int range_ok(struct ssd_srv *s, const char *what, uint64_t len, uint64_t off)
{
	if (off > s->st.size || len > s->st.size - off)
		return fail(s, -EINVAL, "%s at offset %llu, %llu byte%s: outside the "
			    "drive (%llu bytes)", what, (unsigned long long)off,
			    (unsigned long long)len, ssd_plural(len),
			    (unsigned long long)s->st.size);
	return 0;
}

/* The data store failed with rc where the drive did not. */
static int store_error(struct ssd_srv *s, int rc, const char *what, uint64_t off)
{
	if (s->data)
		return fail(s, rc, "%s at offset %llu: the data file %s: %s", what,
			    (unsigned long long)off, s->data, ssd_errno_text(-rc));
	return fail(s, rc, "%s at offset %llu: the data store: %s", what,
		    (unsigned long long)off, ssd_errno_text(-rc));
}

/* The end of a request, outside the lock: a FUA command or a flush on a
 * file store makes the file durable too; a real clock waits for the
 * completion.  With power cuts, a request in flight at a cut fails with
 * EIO (it was never acknowledged: the drive it entered is gone), and an
 * answered one moves the earliest time a cut may come to its completion
 * (the real clock answers client_overhead early, and the answer is a
 * promise: what it acknowledged is done when the power goes).  Both
 * under the lock, so that no cut falls between the look and the note. */
static int finish(struct ssd_srv *s, int rc, int64_t arrive, int64_t c,
		  int durable)
{
	int e;
	if (!rc && durable && s->st.fd >= 0 && (e = ssd_ofile_datasync(s->st.fd)))
		rc = fail(s, e, "the data file %s: %s", s->data, ssd_errno_text(-e));
	if (!rc && s->clock == SSD_SRV_REAL)
		wait_until(s, c - s->overhead, arrive);
	if (!rc && s->ptrack) {
		pthread_mutex_lock(&s->lock);
		int64_t cut = atomic_load(&s->cut_at);
		if (atomic_load(&s->cut_gen) != req_gen && c > cut)
			rc = fail(s, -EIO, "the power was cut at %.6f s, before the "
				  "request completed", (double)cut / 1e9);
		else if (c > s->acked)
			s->acked = c;
		pthread_mutex_unlock(&s->lock);
	}
	return rc;
}

/* ---- the data commands ----
 * A read, a write, a TRIM and a write zeroes are one shape to the server
 * (request()): the range checked against the store; under the lock, the
 * command entered into the drive as the parts the drive is given (each
 * write and TRIM noted first in the power-cut history; the command
 * completes when its last part does), a FUA TRIM or write zeroes
 * followed by a flush, the store's work once the drive took it, the
 * command counted; its end outside the lock (finish()).  A command says
 * only its parts and its store work (struct cmd). */

/* One command as the drive is given it. */
struct part {
	uint64_t off, len;
	int ddir;           /* enum ssd_ddir, as the power-cut history notes it */
	int fua;            /* SSD_DEV_FUA on the drive's command, or 0 */
};

struct req;

/* A data command: its name in messages; its parts (under the lock: they
 * may depend on the drive), the direction it counts in and whether a
 * FUA flush follows; its work on the store once the drive took it, 0
 * or a negative errno and *at the offset a message names. */
struct cmd {
	const char *what;
	void (*plan)(const struct ssd_srv *s, struct req *r);
	int (*store)(struct ssd_srv *s, const struct req *r, uint64_t *at);
};

/* One data command of a client. */
struct req {
	const struct cmd *cmd;
	uint64_t off;
	uint32_t len;
	unsigned flags;     /* SSD_SRV_FUA, SSD_SRV_MAY_TRIM */
	void *buf;          /* read: where the data goes */
	const void *data;   /* write: the data */
	/* set by cmd->plan */
	struct part part[3];
	int np;
	int ddir;           /* what leave() counts it as */
	int flush;          /* FUA by a flush after the parts (fua_flush) */
};

/* A flush at t after a FUA trim or zero: its completion, or an error. */
static int64_t fua_flush(struct ssd_srv *s, int64_t t, int64_t c, unsigned flags)
{
	if (!(flags & SSD_SRV_FUA))
		return c;
	int64_t f = dev_flush(s, t);
	return f < 0 ? f : ssd_max64(c, f);
}

/* Data command r: 0 or a negative errno with its message (fail()). */
static int request(struct ssd_srv *s, struct req *r)
{
	if (!r->len)
		return 0; /* nothing to make durable: FUA vouches for its own data only */
	int64_t arrive = arrival(s);
	pthread_mutex_lock(&s->lock);
	const char *what = r->cmd->what;
	int rc = range_ok(s, what, r->len, r->off);
	int64_t t = 0, c = 0;
	if (!rc) {
		t = enter(s, arrive);
		r->cmd->plan(s, r);
		c = t;
		for (int i = 0; i < r->np && c >= 0 && !rc; i++) {
			const struct part *p = &r->part[i];
			if (s->ptrack && p->ddir != SSD_DDIR_READ)
				rc = hist_record(s, p->ddir, (uint32_t)p->len, p->off);
			if (!rc) {
				int64_t ci = dev_submit(s, p->ddir | p->fua, p->off,
							(uint32_t)p->len, t);
				c = ci < 0 ? ci : ssd_max64(c, ci);
			}
		}
	}
	if (!rc) {
		uint64_t at = r->off;
		if (c >= 0 && r->flush)
			c = fua_flush(s, t, c, r->flags);
		if (c < 0)
			rc = drive_error(s, c, what, r->off, r->len);
		else if ((rc = r->cmd->store(s, r, &at)))
			store_error(s, rc, what, at);
		else
			leave(s, r->ddir, t, c, r->len);
	}
	pthread_mutex_unlock(&s->lock);
	return finish(s, rc, arrive, c, r->flags & SSD_SRV_FUA);
}

/* The command as one part of direction ddir, counted so. */
static void one_part(struct req *r, int ddir, int fua)
{
	r->part[0] = (struct part){r->off, r->len, ddir, fua};
	r->np = 1;
	r->ddir = ddir;
}

static void read_plan(const struct ssd_srv *s, struct req *r)
{
	one_part(r, SSD_DDIR_READ, 0);
}

static int read_store(struct ssd_srv *s, const struct req *r, uint64_t *at)
{
	return store_read(&s->st, r->buf, r->len, r->off);
}

static const struct cmd cmd_read = {"read", read_plan, read_store};

int ssd_srv_read(struct ssd_srv *s, void *buf, uint32_t len, uint64_t off)
{
	struct req r = {.cmd = &cmd_read, .off = off, .len = len, .buf = buf};
	return request(s, &r);
}

/* A FUA write is the drive's FUA write. */
static void write_plan(const struct ssd_srv *s, struct req *r)
{
	one_part(r, SSD_DDIR_WRITE, r->flags & SSD_SRV_FUA ? SSD_DEV_FUA : 0);
}

/* the data is kept only once the drive took the write */
static int write_store(struct ssd_srv *s, const struct req *r, uint64_t *at)
{
	return store_write(&s->st, r->data, r->len, r->off);
}

static const struct cmd cmd_write = {"write", write_plan, write_store};

int ssd_srv_write(struct ssd_srv *s, const void *buf, uint32_t len,
		  uint64_t off, unsigned flags)
{
	struct req r = {.cmd = &cmd_write, .off = off, .len = len,
			.flags = flags, .data = buf};
	return request(s, &r);
}

uint32_t ssd_srv_trim_unit(const struct ssd_srv *s)
{
	return ssd_dev_trim_unit(s->dev);
}

/* The whole trim units of [off, off + len): [*a, *b), empty (*a >= *b)
 * when it holds none. */
static void trim_span(const struct ssd_srv *s, uint64_t off, uint64_t len,
		      uint64_t *a, uint64_t *b)
{
	uint64_t u = ssd_dev_trim_unit(s->dev);
	*a = (off + u - 1) / u * u;
	*b = (off + len) / u * u;
}

/* TRIM.  The drive deallocates the whole units inside the range and
 * keeps a unit it covers in part as it was (device.h); the store does
 * the same, so that what the client reads back is what the drive
 * keeps, and a power cut that brings back a unit's older content finds
 * the bytes the TRIM left. */
static void trim_plan(const struct ssd_srv *s, struct req *r)
{
	one_part(r, SSD_DDIR_TRIM, 0);
	r->flush = 1;
}

static int trim_store(struct ssd_srv *s, const struct req *r, uint64_t *at)
{
	uint64_t a, b;
	trim_span(s, r->off, r->len, &a, &b);
	*at = a;
	return a < b ? store_zero(&s->st, b - a, a, 1) : 0;
}

static const struct cmd cmd_trim = {"trim", trim_plan, trim_store};

int ssd_srv_trim(struct ssd_srv *s, uint32_t len, uint64_t off, unsigned flags)
{
	if (!s->can_trim)
		return fail(s, -EOPNOTSUPP, "trim: the drive does not support it");
	struct req r = {.cmd = &cmd_trim, .off = off, .len = len,
			.flags = flags};
	return request(s, &r);
}

/* Write zeroes.  Where it may deallocate and the drive has TRIM, the
 * whole trim units of the range (4 KiB pages; MFT blocks) are trimmed
 * (the drive then reads them as zeros) and the parts of units at its
 * ends written; otherwise the drive writes every byte.  Counted as the
 * TRIM or the writes it became. */
static void zero_plan(const struct ssd_srv *s, struct req *r)
{
	uint64_t off = r->off, len = r->len, end = off + len, a, b;
	trim_span(s, off, len, &a, &b);
	int trim = (r->flags & SSD_SRV_MAY_TRIM) && s->can_trim && a < b;
	int np = 0;
	if (trim) {
		if (off < a)
			r->part[np++] = (struct part){off, a - off, SSD_DDIR_WRITE, 0};
		r->part[np++] = (struct part){a, b - a, SSD_DDIR_TRIM, 0};
		if (b < end)
			r->part[np++] = (struct part){b, end - b, SSD_DDIR_WRITE, 0};
	} else {
		r->part[np++] = (struct part){off, len, SSD_DDIR_WRITE, 0};
	}
	r->np = np;
	r->ddir = trim ? SSD_DDIR_TRIM : SSD_DDIR_WRITE;
	r->flush = 1;
}

static int zero_store(struct ssd_srv *s, const struct req *r, uint64_t *at)
{
	int rc = store_zero(&s->st, r->len, r->off,
			    !!(r->flags & SSD_SRV_MAY_TRIM));
	if (rc)
		return rc;
	for (int i = 0; i < r->np; i++) {
		if (r->part[i].ddir == SSD_DDIR_TRIM)
			s->zero_trim_bytes += r->part[i].len;
		else
			s->zero_write_bytes += r->part[i].len;
	}
	return 0;
}

static const struct cmd cmd_zero = {"write zeroes", zero_plan, zero_store};

int ssd_srv_zero(struct ssd_srv *s, uint32_t len, uint64_t off, unsigned flags)
{
	struct req r = {.cmd = &cmd_zero, .off = off, .len = len,
			.flags = flags};
	return request(s, &r);
}

void ssd_srv_conn_init(struct ssd_srv *s, struct ssd_srv_conn *cn)
{
	cn->lossy_seen = atomic_load(&s->lossy_cuts);
}

int ssd_srv_flush(struct ssd_srv *s, struct ssd_srv_conn *cn)
{
	int64_t arrive = arrival(s);
	pthread_mutex_lock(&s->lock);
	int rc = 0;
	int64_t t = enter(s, arrive);
	int64_t c = dev_flush(s, t);
	if (c < 0)
		rc = drive_error(s, c, "flush", 0, 0);
	else
		leave(s, SSD_DDIR_SYNC, t, c, 0);
	if (c >= 0 && s->ptrack)
		rc = flush_noted(s, c);
	pthread_mutex_unlock(&s->lock);
	rc = finish(s, rc, arrive, c, 1);
	/* a cut that lost pages while this client was connected may have
	 * taken writes it was answered before the cut: no flush of it can
	 * vouch for them from then on.  Not once, as fsync(2) reports a lost
	 * write-back: a client keeps flushes in flight, and one sent before
	 * it had the error could be answered after it, so the error would
	 * race the promise.  A client that reconnects starts afresh, as a
	 * host re-attaches a drive that lost power. */
	if (!rc && cn && cn->lossy_seen != atomic_load(&s->lossy_cuts))
		rc = fail(s, -EIO, "flush: the power was cut while this client was "
			  "connected and %llu pages were lost: its writes before the "
			  "cut may be gone, and no flush on this connection can vouch "
			  "for them; reconnect", (unsigned long long)atomic_load(&s->last_cut_lost));
	return rc;
}

int ssd_srv_extents(struct ssd_srv *s, uint64_t off, uint64_t len,
		    int (*fn)(void *ctx, uint64_t off, uint64_t len, int zero),
		    void *ctx)
{
	pthread_mutex_lock(&s->lock);
	uint64_t end = off + len > s->st.size ? s->st.size : off + len;
	int rc = 0;
	while (off < end && !rc) {
		uint64_t next;
		int zero;
		if (s->st.fd >= 0) {
			off_t d = lseek(s->st.fd, (off_t)off, SEEK_DATA);
			if (d < 0 && errno != ENXIO) {
				rc = fail(s, -errno, "extents: the data file: %s",
					  ssd_errno_text(errno));
				break;
			}
			if (d < 0 || (uint64_t)d >= end) {
				next = end;
				zero = 1;
			} else if ((uint64_t)d > off) {
				next = (uint64_t)d;
				zero = 1;
			} else {
				off_t h = lseek(s->st.fd, (off_t)off, SEEK_HOLE);
				next = h < 0 || (uint64_t)h > end ? end : (uint64_t)h;
				zero = 0;
			}
		} else {
			zero = !page_get(&s->st, off / PG, 0);
			next = (off / PG + 1) * PG;
			while (next < end && (page_get(&s->st, next / PG, 0) == NULL) == zero) {
				/* a missing leaf is 4 MiB of zeros at once */
				if (zero && !s->st.top[next / PG >> LEAF_BITS])
					next = ((next / PG >> LEAF_BITS) + 1) * LEAF_N * (uint64_t)PG;
				else
					next += PG;
			}
			if (next > end)
				next = end;
		}
		rc = fn(ctx, off, next - off, zero);
		off = next;
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

/* ---- the series and the report ---- */

static double per_s(uint64_t n, int64_t ns)
{
	return ns > 0 ? (double)n * 1e9 / (double)ns : 0;
}

/* One row of the series: the interval of `span` ns that ends at `at`. */
static void emit_row(struct ssd_srv *s, int64_t at, int64_t span,
		     const struct ssd_health *h)
{
	const struct ssd_counters *now = ssd_dev_counters(s->dev);
	struct ssd_counters d, since;
	ssd_counters_sub(&d, now, &s->row_ctr);
	ssd_counters_sub(&since, now, &s->ctr0);
	const struct ssd_counters *c = &since;
	uint64_t ios[SSD_DDIR_N], bytes[SSD_DDIR_N];
	for (int i = 0; i < SSD_DDIR_N; i++) {
		ios[i] = s->dir[i].ios - s->row_ios[i];
		bytes[i] = s->dir[i].bytes - s->row_bytes[i];
		s->row_ios[i] = s->dir[i].ios;
		s->row_bytes[i] = s->dir[i].bytes;
	}
	double wi = ssd_counters_waf(&d), wt = ssd_counters_waf(c);
	fprintf(s->log, "%.3f,%.0f,%.0f,%.0f,%.3f,%.3f,%llu,%llu,%llu,%llu,%llu,",
		(double)at / 1e9, per_s(ios[0], span), per_s(ios[1], span),
		per_s(ios[2], span), per_s(bytes[0], span) / 1e6,
		per_s(bytes[1], span) / 1e6,
		(unsigned long long)(s->flushes - s->row_flushes),
		(unsigned long long)c->host_write_lp,
		(unsigned long long)c->nand_prog_lp,
		(unsigned long long)c->gc_copy_lp,
		(unsigned long long)c->gc_bg_copy_lp);
	if (wi == wi)
		fprintf(s->log, "%.4f,", wi);
	else
		fputs(",", s->log);
	if (wt == wt)
		fprintf(s->log, "%.4f,", wt);
	else
		fputs(",", s->log);
	fprintf(s->log, "%llu,%.3f,%d\n",
		(unsigned long long)ssd_dev_free_blocks(s->dev),
		h->percentage_used, h->read_only);
	char msg[300];
	if (ssd_ofile_flush(s->log_of, msg, sizeof msg))
		log_failed(s, &s->log_of, &s->log, "stats log", msg);
	s->row_ctr = *now;
	s->row_flushes = s->flushes;
}

/* The rows of the series due by `now` (under the lock); `last`: and the
 * partial interval up to now, at the end. */
static void stats_rows(struct ssd_srv *s, int64_t now, int last)
{
	if (!s->log)
		return;
	struct ssd_health h;
	int have_h = 0;
	int64_t I = s->interval;
	/* (a row that fails drops the log: s->log NULL) */
	while (s->log && (now >= s->next_row || (last && now > s->next_row - I))) {
		if (!have_h) { /* O(blocks): once for the rows due together */
			ssd_dev_health(s->dev, &h);
			have_h = 1;
		}
		if (now < s->next_row) { /* the last, partial interval */
			emit_row(s, now, now - (s->next_row - I), &h);
			break;
		}
		emit_row(s, s->next_row, I, &h);
		s->next_row += I;
		/* a long silence in a fast run is one row, not millions */
		if (now - s->next_row > 1000 * I)
			s->next_row += (now - s->next_row) / I * I;
	}
}

/* ---- power cuts (docs/power-loss.md) ----
 *
 * The drive model says which pages a cut loses and which of their
 * earlier contents survive (tags: the host record of ssd_verify_attach,
 * kept here as the clients write); the store must then hold that
 * content again.  So before a page is overwritten or trimmed its content
 * goes into a history, with the tag it had; an entry can never come back
 * once a host flush submitted after it has completed (the page's newer
 * content was durable by then), so a completed flush drops the entries
 * older than it (unless paired pages are unprotected: a cut may then
 * take flushed content too); nor once the drive holds the page's latest write where
 * no cut can lose it (ssd_dev_power_durable), which hist_settle asks
 * each time the history has doubled.  So a client that never flushes
 * keeps a history about as large as the drive's work in flight (its
 * write buffer and open pages), not as large as what it rewrote. */
struct hist {
	uint32_t lpn, tag;
	uint32_t ep;               /* host flushes submitted before it */
	uint8_t *data;             /* the 4 KiB it held */
};

static void hist_clear(struct ssd_srv *s)
{
	for (uint32_t i = 0; i < s->hist_n; i++)
		free(s->hist[i].data);
	s->hist_n = 0;
}

/* Drop the entries whose page's latest write the drive holds durably.
 * Run when the history has doubled since, so that its cost (a pass over
 * the entries and a sort of the programs in flight) is amortized over
 * the entries added.  Failing, it keeps them all: safe, only larger. */
static void hist_settle(struct ssd_srv *s)
{
	uint32_t n = s->hist_n, k = 0;
	uint32_t *lpn = n ? malloc(n * sizeof *lpn) : NULL;
	uint8_t *ok = n ? malloc(n) : NULL;
	if (lpn && ok) {
		for (uint32_t i = 0; i < n; i++)
			lpn[i] = s->hist[i].lpn;
		if (!ssd_dev_power_durable(s->dev, lpn, n, ok)) {
			for (uint32_t i = 0; i < n; i++) {
				if (ok[i])
					free(s->hist[i].data);
				else
					s->hist[k++] = s->hist[i];
			}
			s->hist_n = k;
		}
	}
	free(lpn);
	free(ok);
	s->hist_settle_at = s->hist_n > 2048 ? 2 * s->hist_n : 4096;
}

/* Pages [off, off + len) are about to be written (or trimmed: the pages
 * wholly inside, all the drive deallocates): keep what they hold, and
 * give them their next tag.  Under the lock. */
static int hist_record(struct ssd_srv *s, int ddir, uint32_t len, uint64_t off)
{
	uint32_t *rec = ssd_srv_dev(s)->vrec;
	uint32_t lpn, n;
	ssd_verify_pages(ddir, off, len, &lpn, &n); /* a TRIM: whole pages */
	if (s->hist_n >= s->hist_settle_at)
		hist_settle(s);
	for (uint32_t i = lpn; i < lpn + n; i++) {
		if (ssd_vrec_state(rec[i]) != SSD_VREC_DATA)
			continue; /* zeros come back as zeros */
		if (s->hist_n == s->hist_cap) {
			struct hist *h = ssd_grow(s->hist, &s->hist_cap, sizeof *h, 1024);
			if (!h)
				return fail(s, -ENOMEM, "power-cut history: out of memory");
			s->hist = h;
		}
		uint8_t *d = malloc(PG);
		if (!d)
			return fail(s, -ENOMEM, "power-cut history: out of memory");
		int rc = store_read(&s->st, d, PG, (uint64_t)i * PG);
		if (rc) {
			free(d);
			return store_error(s, rc, "power-cut history", (uint64_t)i * PG);
		}
		s->hist[s->hist_n++] = (struct hist){i, rec[i], s->flushes_sub, d};
	}
	if (ddir == SSD_DDIR_WRITE)
		ssd_vrec_write(rec, lpn, n);
	else
		ssd_vrec_trim(rec, lpn, n);
	return 0;
}

/* A host flush was submitted; it completes at c. */
static int flush_noted(struct ssd_srv *s, int64_t c)
{
	if (s->fq_n == s->fq_cap) {
		struct fq *q = ssd_grow(s->fq, &s->fq_cap, sizeof *q, 16);
		if (!q)
			return fail(s, -ENOMEM, "power-cut history: out of memory");
		s->fq = q;
	}
	s->fq[s->fq_n++] = (struct fq){++s->flushes_sub, c};
	return 0;
}

/* The host flushes completed by t: the history older than the latest of
 * them can no longer come back. */
static void hist_prune(struct ssd_srv *s, int64_t t)
{
	uint32_t k = 0, done = 0;
	for (uint32_t i = 0; i < s->fq_n; i++) {
		if (s->fq[i].c <= t)
			done = s->fq[i].k > done ? s->fq[i].k : done;
		else
			s->fq[k++] = s->fq[i];
	}
	s->fq_n = k;
	/* a controller that leaves paired pages unprotected may lose
	 * flushed content too: then only the drive's own word settles an
	 * entry (hist_settle) */
	if (!done || ssd_srv_dev(s)->cfg.paired_pages == SSD_PAIRED_UNPROTECTED)
		return;
	k = 0;
	for (uint32_t i = 0; i < s->hist_n; i++) {
		if (s->hist[i].ep < done)
			free(s->hist[i].data);
		else
			s->hist[k++] = s->hist[i];
	}
	s->hist_n = k;
}

static int hist_cmp(const void *a, const void *b)
{
	const struct hist *x = a, *y = b;
	if (x->lpn != y->lpn)
		return x->lpn < y->lpn ? -1 : 1;
	return (x->tag & SSD_VREC_COUNT) < (y->tag & SSD_VREC_COUNT) ? -1
		: (x->tag & SSD_VREC_COUNT) > (y->tag & SSD_VREC_COUNT);
}

uint64_t ssd_srv_power_history(struct ssd_srv *s)
{
	pthread_mutex_lock(&s->lock);
	uint64_t n = s->hist_n;
	pthread_mutex_unlock(&s->lock);
	return n;
}

int ssd_srv_power_cut(struct ssd_srv *s, uint64_t *lost, int64_t *recovery_ns)
{
	if (!s->ptrack)
		return fail(s, -EINVAL, "power cut: the server was not started for "
			    "power cuts");
	pthread_mutex_lock(&s->lock);
	struct ssd_dev *d = s->dev;
	/* the real clock cuts now; the fast clock once everything it has
	 * acknowledged is complete in simulated time */
	int64_t T = s->clock == SSD_SRV_REAL ? wall_rel(s) : ssd_dev_time(d);
	T = ssd_max64(ssd_max64(T, ssd_dev_last_submit(d)), s->acked);
	uint32_t nlp = (uint32_t)(s->st.size / PG);
	struct ssd_power_cut pc = {.t = T, .on = T + s->power_off, .lost_cap = nlp};
	pc.lost = malloc((nlp ? nlp : 1) * sizeof *pc.lost);
	int rc = 0;
	if (!pc.lost) {
		rc = fail(s, -ENOMEM, "power cut: out of memory");
		goto out;
	}
	int drc = ssd_dev_power_cut(d, &pc);
	if (drc) {
		rc = drive_error(s, drc, "power cut", 0, 0);
		goto out;
	}
	atomic_store(&s->cut_at, T);
	atomic_fetch_add(&s->cut_gen, 1);
	/* the store follows the drive: each lost page gets the content its
	 * tag now names */
	if (s->hist_n)
		qsort(s->hist, s->hist_n, sizeof *s->hist, hist_cmp);
	uint64_t missing = 0;
	for (uint64_t i = 0; i < pc.nlost && !rc; i++) {
		uint32_t l = pc.lost[i], tag = d->vrec[l];
		const char *holds = "zeros";
		if (ssd_vrec_state(tag) == SSD_VREC_DATA) {
			struct hist key = {.lpn = l, .tag = tag};
			const struct hist *h = !s->hist_n ? NULL
				: bsearch(&key, s->hist, s->hist_n, sizeof *s->hist, hist_cmp);
			if (h) {
				rc = store_write(&s->st, h->data, PG, (uint64_t)l * PG);
				holds = "older";
			} else {
				missing++; /* not kept: zeros rather than a guess */
				rc = store_zero(&s->st, PG, (uint64_t)l * PG, 1);
				holds = "unknown";
			}
		} else {
			rc = store_zero(&s->st, PG, (uint64_t)l * PG, 1);
		}
		if (rc)
			rc = store_error(s, rc, "power cut", (uint64_t)l * PG);
		else if (s->plog)
			fprintf(s->plog, "%llu,%.6f,%llu,%s\n",
				(unsigned long long)s->cuts + 1, (double)T / 1e9,
				(unsigned long long)l * PG, holds);
	}
	int e;
	if (!rc && s->st.fd >= 0 && (e = ssd_ofile_datasync(s->st.fd)))
		rc = fail(s, e, "the data file %s: %s", s->data, ssd_errno_text(-e));
	char msg[300];
	if (s->plog && ssd_ofile_flush(s->plog_of, msg, sizeof msg))
		log_failed(s, &s->plog_of, &s->plog, "power log", msg);
	hist_clear(s);
	s->fq_n = 0;
	s->inflight.n = 0;
	if (s->clock == SSD_SRV_FAST)
		s->vnow = pc.ready;
	s->cuts++;
	s->cut_lost += pc.lost_lp;
	if (pc.lost_lp) {
		atomic_store(&s->last_cut_lost, pc.lost_lp);
		atomic_fetch_add(&s->lossy_cuts, 1);
	}
	if (lost)
		*lost = pc.lost_lp;
	if (recovery_ns)
		*recovery_ns = pc.ready - pc.on;
	if (!rc && missing)
		rc = fail(s, -EIO, "power cut: %llu pages' surviving content was not "
			  "kept (written as zeros)", (unsigned long long)missing);
out:
	free(pc.lost);
	free(pc.touched);
	pthread_mutex_unlock(&s->lock);
	return rc;
}

/* Idle time up to now runs the drive's background work (the real clock;
 * the fast one has no time between requests).  Under the lock. */
static int catch_up(struct ssd_srv *s)
{
	if (s->clock != SSD_SRV_REAL)
		return 0;
	int64_t t = wall_rel(s);
	int rc = 0;
	if (t > dev_time(s)) {
		int e = ssd_dev_idle(s->dev, t + s->base);
		if (e)
			rc = drive_error(s, e, "background work", 0, 0);
	}
	stats_rows(s, t, 0);
	return rc;
}

int ssd_srv_tick(struct ssd_srv *s)
{
	pthread_mutex_lock(&s->lock);
	int rc = catch_up(s);
	pthread_mutex_unlock(&s->lock);
	return rc;
}

int ssd_srv_file_error(struct ssd_srv *s, char *buf, size_t n)
{
	pthread_mutex_lock(&s->lock);
	snprintf(buf, n, "%s", s->file_err);
	pthread_mutex_unlock(&s->lock);
	return buf[0] != 0;
}

/* The clients' requests as one job, named after the server: the report
 * of `ssdlab run` over the server's life so far.  Under the lock. */
static int report_locked(struct ssd_srv *s, FILE *out)
{
	struct ssd_jobs *b;
	if (ssd_jobs_new(s->name, s->st.size, &b))
		return -ENOMEM;
	ssd_jobs_add(b, s->name);
	/* the header's rw= names the directions the clients used */
	unsigned rw = s->dirs_seen;
	ssd_jobs_set(b, "rw", rw == 1 ? "randread" : rw == 2 ? "randwrite"
		     : rw == 4 ? "randtrim" : "randrw");
	ssd_jobs_setf(b, "iodepth", "%u", s->max_depth ? s->max_depth : 1);
	struct ssd_job *jobs = NULL;
	int njobs = 0;
	char err[256];
	if (ssd_jobs_end(b, &jobs, &njobs, err, sizeof err) || njobs != 1) {
		free(jobs);
		return fail(s, -EINVAL, "report: %s", err);
	}
	/* the sizes the clients sent, which no bs= need describe (NBD's
	 * requests are bytes) */
	for (int d = 0; d < SSD_DDIR_N; d++)
		if (s->bs_max[d]) {
			jobs[0].min_bs[d] = s->bs_min[d];
			jobs[0].max_bs[d] = s->bs_max[d];
		}
	struct ssd_job_result *j = calloc(1, sizeof *j);
	if (!j) {
		free(jobs);
		return -ENOMEM;
	}
	int64_t now = now_locked(s);
	int64_t end = ssd_max64(now, dev_time(s));
	snprintf(j->name, sizeof j->name, "%s", s->name);
	j->clones = 1;
	j->job = &jobs[0];
	for (int i = 0; i < SSD_DDIR_N; i++) {
		j->dir[i] = s->dir[i];
		ssd_dstat_finish(&j->dir[i], end);
	}
	j->sync = s->sync;
	j->runtime_ns = end;
	j->end_ns = end;
	ssd_counters_sub(&j->ctr, ssd_dev_counters(s->dev), &s->ctr0);
	ssd_dev_health(s->dev, &j->health);
	j->erase_min = j->health.erase_min;
	j->erase_mean = j->health.erase_mean;
	j->erase_max = j->health.erase_max;
	j->free_blocks = ssd_dev_free_blocks(s->dev);
	j->lat_over_1s = s->lat_over_1s;
	j->latency_depth = s->max_depth ? s->max_depth : 1;
	memcpy(j->depth, s->depth, sizeof j->depth);
	struct ssd_run_result r = {
		.cfg = ssd_dev_config(s->dev), .jobfile = "ssdlab serve",
		.seed = s->seed, .sim_ns = end,
		.wall_s = (double)wall_rel(s) / 1e9, .host_ios = s->requests,
		.njobs = 1, .jobs = j,
	};
	int rc = ssd_run_snapshot_nodes(s->dev, &r) ? -ENOMEM : 0;
	if (!rc && ssd_report(&r, s->formats, out))
		rc = -ENOMEM;
	ssd_run_result_free(&r);
	free(jobs);
	return rc;
}

/* The report into `path` through base/ofile.h: a regular file (or a new
 * one) is replaced whole, through a temporary beside it, so that a
 * reader never sees half a report; anything else (/dev/stderr, a pipe)
 * is written in place.  A report that cannot be written is also kept for
 * ssd_srv_file_error. */
static int report_file(struct ssd_srv *s, const char *path)
{
	struct ssd_ofile *of;
	char msg[300];
	int rc = ssd_ofile_open(path, SSD_OFILE_REPLACE, &of, msg, sizeof msg);
	if (!rc) {
		rc = report_locked(s, ssd_ofile_stream(of));
		if (rc)
			ssd_ofile_discard(of);
		else
			rc = ssd_ofile_commit(of, msg, sizeof msg);
		if (rc && rc != SSD_EIO)
			return rc; /* report_locked's, with its message */
	}
	if (!rc)
		return 0;
	if (!s->file_err[0])
		snprintf(s->file_err, sizeof s->file_err, "report: %s", msg);
	return fail(s, -EIO, "report: %s", msg);
}

int ssd_srv_report(struct ssd_srv *s)
{
	pthread_mutex_lock(&s->lock);
	(void)catch_up(s); /* a drive that failed still reports what it did */
	int rc;
	if (s->output) {
		rc = report_file(s, s->output);
	} else {
		rc = report_locked(s, s->out);
		errno = 0;
		if (!rc && (fflush(s->out) || ferror(s->out))) {
			rc = fail(s, -EIO, "report: write error on standard output: %s",
				  ssd_errno_text(errno ? errno : EIO));
			if (!s->file_err[0])
				snprintf(s->file_err, sizeof s->file_err, "%s", err_msg);
		}
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

int ssd_srv_close(struct ssd_srv *s)
{
	if (!s)
		return 0;
	int rc = ssd_srv_report(s);
	char msg[300];
	if (s->log) {
		pthread_mutex_lock(&s->lock);
		stats_rows(s, ssd_max64(now_locked(s), dev_time(s)), 1);
		pthread_mutex_unlock(&s->lock);
	}
	/* the logs' last rows, synced; one that fails is removed */
	if (s->log_of && ssd_ofile_commit(s->log_of, msg, sizeof msg) &&
	    !s->file_err[0])
		snprintf(s->file_err, sizeof s->file_err, "stats log: %s", msg);
	if (s->plog_of && ssd_ofile_commit(s->plog_of, msg, sizeof msg) &&
	    !s->file_err[0])
		snprintf(s->file_err, sizeof s->file_err, "power log: %s", msg);
	pthread_mutex_destroy(&s->lock);
	/* a file that could not be written is the session's error, as
	 * `ssdlab run`'s report or log would be */
	if (!rc && s->file_err[0])
		rc = fail(s, -EIO, "%s", s->file_err);
	hist_clear(s);
	free(s->hist);
	free(s->fq);
	ssd_dev_destroy(s->dev);
	store_free(&s->st);
	free(s->inflight.v);
	free(s->output);
	free(s->data);
	free(s);
	return rc;
}
