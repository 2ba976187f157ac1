/*
 * dircopy.c -- a directory copy onto a fresh NTFS-like volume, through
 * the host page cache (the model: dircopy.h).
 *
 * State.  Free space is a short array of free extents in address order
 * (clusters), each flagged as MFT zone or not; an allocation takes from
 * an extent's front only, so the array changes shape only when a new
 * zone is cut from the front of the extent the allocator stands in.  The
 * MFT is an array of extents in record order.  A bit per cluster marks
 * the metadata clusters, so that write-back's commands can be told
 * apart at the drive: a page with its bit clear is data; a set bit is
 * the log or the bitmap by address, the MFT when in one of its extents,
 * else a directory index.
 *
 * The drive is reached through a page cache node (pagecache.h) over a
 * node of our own that submits to the device and counts, but does not
 * own it: destroying the cache leaves the device as it was.
 */
#include "job/dircopy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "machine/pagecache.h"

#define CL 4096u                    /* a cluster, bytes */
#define REC_PER_CL 4u               /* 1 KiB MFT records */
#define SYS_CL 16u                  /* boot sector and $MFTMirr: 64 KiB */
#define MFT_LCN 786432ull           /* $MFT's first cluster: 3 GiB in */
#define ZONE_CL (200ull * 256)      /* an MFT zone: 200 MiB */
#define MFT_INIT_CL 16u             /* the MFT as formatted: 64 records */
#define MFT_GROW_CL 64u             /* the MFT grows by 256 KiB */
#define FIRST_REC 24u               /* records 0..23: the system files */
#define LOG_CL (64ull * 256)        /* $LogFile: 64 MiB */
#define LOG_ENTRY 1024u             /* log bytes per file or directory */
#define BITMAP_SPAN (CL * 8ull)     /* clusters one bitmap page covers */
#define ROOT_ENTRIES 3u             /* index entries in the MFT record */
#define INDX_ENTRIES 32u            /* entries per 4 KiB index block */
#define RESIDENT_MAX 700u           /* data bytes an MFT record holds */
#define COPY_BS (1u << 20)          /* the copy's writes */
#define FILES_PER_DIR 10.2          /* Impressions' default */
#define SKIP_MAX 64                 /* files skipped in a row: full */
#define DEF_CACHE (1ull << 30)      /* page cache without page_cache, */
#define DEF_CACHE_SHARE 128u        /* ... at most 1/128 of the volume */

/* Impressions' defaults (its inputfile), fitted to Agrawal et al. 2007 */
#define BODY_WEIGHT 0.99994
#define BODY_MU 9.48
#define BODY_SIGMA 2.457
#define TAIL_XM 536870912.0         /* 2^29 bytes */
#define TAIL_ALPHA 0.91

#define NONE UINT64_MAX

static const struct {
	const char *name;
	uint64_t files, bytes;
	const char *source;
} sets[SSD_DC_NSETS] = {
	[SSD_DC_IMPRESSIONS] = {"impressions", 0, 0,
		"Impressions (FAST 2009) defaults fitted to Windows file systems "
		"(FAST 2007): lognormal mu 9.48 sigma 2.457, Pareto tail 2^29 B "
		"alpha 0.91"},
	[SSD_DC_WIN7] = {"win7", 20490, 6250000000ull,
		"NextHardware's Windows 7 folder: 20,490 items, 6.25 GB"},
	[SSD_DC_GAME] = {"game", 2037, 12400000000ull,
		"NextHardware's game folder: 2,037 items, 12.4 GB"},
	[SSD_DC_MEDIA] = {"media", 1071, 24600000000ull,
		"NextHardware's media folder: 1,071 items, 24.6 GB"},
	[SSD_DC_USB] = {"usb", 27027, 5405405405ull,
		"seed 004's flash-drive test set: ~1 M files in 37 copies to "
		"80% of 250 GB"},
};

static const char *const kind_names[SSD_DC_NKINDS] = {
	"data", "mft", "index", "bitmap", "log"};

const char *ssd_dircopy_set_name(int set)
{
	return set >= 0 && set < SSD_DC_NSETS ? sets[set].name : NULL;
}

void ssd_dircopy_set_size(int set, uint64_t *files, uint64_t *bytes)
{
	int ok = set >= 0 && set < SSD_DC_NSETS;
	*files = ok ? sets[set].files : 0;
	*bytes = ok ? sets[set].bytes : 0;
}

const char *ssd_dircopy_set_source(int set)
{
	return set >= 0 && set < SSD_DC_NSETS ? sets[set].source : NULL;
}

int ssd_dircopy_set_find(const char *name)
{
	for (int i = 0; i < SSD_DC_NSETS; i++)
		if (!strcmp(sets[i].name, name))
			return i;
	return -1;
}

const char *ssd_dircopy_kind_name(int kind)
{
	return kind >= 0 && kind < SSD_DC_NKINDS ? kind_names[kind] : "?";
}

int ssd_precondition_parse(const char *val, int *dircopy,
			   struct ssd_dircopy_opts *o, char *err,
			   size_t errlen)
{
	char buf[128];
	ssd_dircopy_defaults(o);
	*dircopy = 0;
	char *save = NULL, *name = NULL, *set = NULL, *share = NULL;
	if (snprintf(buf, sizeof buf, "%s", val) < (int)sizeof buf) {
		name = strtok_r(buf, ":", &save);
		set = strtok_r(NULL, ":", &save);
		share = strtok_r(NULL, ":", &save);
	}
	if (name && !strcmp(name, "sequential") && !set)
		return 0;
	if (!name || strcmp(name, "dircopy") || strtok_r(NULL, ":", &save)) {
		ssd_seterr(err, errlen, "must be sequential or "
			   "dircopy[:SET[:SHARE]], got '%s'", val);
		return SSD_EPARSE;
	}
	*dircopy = 1;
	if (set && (o->set = ssd_dircopy_set_find(set)) < 0) {
		char list[128] = "";
		for (int i = 0; i < SSD_DC_NSETS; i++)
			snprintf(list + strlen(list), sizeof list - strlen(list),
				 "%s%s", i ? ", " : "", sets[i].name);
		ssd_seterr(err, errlen, "unknown file set '%s' (accepted: %s)",
			   set, list);
		return SSD_EPARSE;
	}
	if (share && (ssd_parse_double(share, &o->fill) || !(o->fill > 0) ||
		      o->fill > 1)) {
		ssd_seterr(err, errlen, "the share of the volume must be above "
			   "0 and at most 1, got '%s'", share);
		return SSD_EPARSE;
	}
	return 0;
}

void ssd_dircopy_defaults(struct ssd_dircopy_opts *o)
{
	memset(o, 0, sizeof *o);
	o->set = SSD_DC_IMPRESSIONS;
	o->fill = 1;
	o->seed = 1;
}

/* ---- sizes ---- */

/* A standard normal deviate (Box-Muller, as fileset.c). */
static double normal(struct ssd_rng *r)
{
	double u1 = 1 - ssd_rng_unit(r); /* (0, 1] */
	double u2 = ssd_rng_unit(r);
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

uint64_t ssd_dircopy_draw_size(struct ssd_rng *r)
{
	double x;
	if (ssd_rng_unit(r) < BODY_WEIGHT)
		x = exp(BODY_MU + BODY_SIGMA * normal(r));
	else /* Pareto: x_m / U^(1/alpha), U in (0, 1] */
		x = TAIL_XM / pow(1 - ssd_rng_unit(r), 1 / TAIL_ALPHA);
	if (!(x < 9e18)) /* 2^63 bytes: larger than any volume */
		x = 9e18;
	return x < 1 ? 1 : (uint64_t)x;
}

int ssd_dircopy_set_sizes(int set, uint64_t seed, uint64_t **sizes,
			  uint64_t *n)
{
	*sizes = NULL;
	*n = 0;
	if (set <= SSD_DC_IMPRESSIONS || set >= SSD_DC_NSETS)
		return SSD_EINVAL;
	const uint64_t files = sets[set].files, bytes = sets[set].bytes;
	uint64_t *s = malloc(files * sizeof *s);
	double *x = malloc(files * sizeof *x);
	if (!s || !x) {
		free(s);
		free(x);
		return SSD_ENOMEM;
	}
	struct ssd_rng rng;
	ssd_rng_seed(&rng, seed);
	/* every file one byte plus its share of the rest, rounded down;
	 * the bytes the rounding leaves (fewer than files) one each to the
	 * first files, as fileset.c shares clusters */
	double sum = 0;
	for (uint64_t i = 0; i < files; i++)
		sum += x[i] = exp(BODY_SIGMA * normal(&rng));
	const double share = (double)(bytes - files) / sum;
	uint64_t given = 0;
	for (uint64_t i = 0; i < files; i++) {
		uint64_t b = 1 + (uint64_t)(x[i] * share);
		uint64_t room = bytes - (files - 1 - i) - given;
		s[i] = b < room ? b : room;
		given += s[i];
	}
	for (uint64_t i = 0; given < bytes; i++, given++)
		s[i]++;
	free(x);
	*sizes = s;
	*n = files;
	return 0;
}

/* ---- the volume ---- */

struct fext {
	uint64_t start, len;  /* clusters; len shrinks from the front */
	int zone;             /* an MFT zone: data only when all else is full */
};

struct mext {
	uint64_t rec;         /* its first record */
	uint64_t start, len;  /* clusters */
};

struct dir {
	uint64_t indx;        /* its current index block, or NONE */
	uint64_t rec;         /* its MFT record */
	uint32_t entries;     /* in the current block (or the record) */
};

struct dc {
	struct ssd_dev *dev;
	const struct ssd_dircopy_opts *o;
	struct ssd_dircopy_run *r;
	struct ssd_blk *pc;       /* the page cache over `node` */
	int64_t t;                /* the copy's time, ns */
	int err;
	/* the volume, in clusters */
	uint64_t nclusters;
	uint64_t log_start, log_len, bmp_start, bmp_len;
	uint64_t log_pos;         /* bytes written round the log */
	struct fext *fx;
	uint32_t nfx, capfx;
	uint32_t cur;             /* next-fit: the extent data last came from */
	uint32_t zcur;            /* the MFT's zone, or UINT32_MAX */
	uint64_t free_main, free_zone;
	struct mext *mft;
	uint32_t nmft, capmft;
	uint64_t mft_recs;        /* records the MFT holds */
	uint64_t next_rec;
	uint8_t *meta;            /* a bit per cluster */
	/* directories */
	struct dir *dirs;
	uint32_t ndirs, capdirs;
	uint32_t *pick;           /* the copy's directories, each subdirs + 2
	                             times (preferential attachment) */
	uint32_t npick, cappick;
	uint32_t dir_now;         /* the directory files go into */
	uint64_t dir_left;        /* files it still takes */
	/* what deleting everything trims */
	struct ssd_fileset_file *del;
	uint64_t ndel, capdel;
	/* the drive's side */
	uint64_t data_end;        /* where the drive's last data write ended */
};

static void meta_mark(struct dc *d, uint64_t c, uint64_t n)
{
	for (uint64_t i = c; i < c + n; i++)
		d->meta[i >> 3] |= (uint8_t)(1u << (i & 7));
}

static int meta_is(const struct dc *d, uint64_t c)
{
	return d->meta[c >> 3] >> (c & 7) & 1;
}

/* The kind of cluster c's page. */
static int kind_of(const struct dc *d, uint64_t c)
{
	if (c >= d->nclusters || !meta_is(d, c))
		return SSD_DC_DATA;
	if (c >= d->log_start && c < d->log_start + d->log_len)
		return SSD_DC_LOG;
	if (c >= d->bmp_start && c < d->bmp_start + d->bmp_len)
		return SSD_DC_BITMAP;
	for (uint32_t i = d->nmft; i-- > 0;)
		if (c >= d->mft[i].start && c < d->mft[i].start + d->mft[i].len)
			return SSD_DC_MFT;
	return SSD_DC_INDEX;
}

static int del_add(struct dc *d, uint64_t c, uint64_t n)
{
	if (d->ndel == d->capdel) {
		uint64_t cap = d->capdel ? 2 * d->capdel : 1024;
		struct ssd_fileset_file *p = realloc(d->del, cap * sizeof *p);
		if (!p)
			return SSD_ENOMEM;
		d->del = p;
		d->capdel = cap;
	}
	d->del[d->ndel++] = (struct ssd_fileset_file){c * CL, n * CL};
	return 0;
}

/* Insert a free extent at index i. */
static int fx_insert(struct dc *d, uint32_t i, struct fext e)
{
	if (d->nfx == d->capfx) {
		struct fext *p = ssd_grow(d->fx, &d->capfx, sizeof *p, 16);
		if (!p)
			return SSD_ENOMEM;
		d->fx = p;
	}
	memmove(&d->fx[i + 1], &d->fx[i], (d->nfx - i) * sizeof *d->fx);
	d->fx[i] = e;
	d->nfx++;
	if (d->cur >= i && d->cur < d->nfx - 1)
		d->cur++;
	if (d->zcur != UINT32_MAX && d->zcur >= i)
		d->zcur++;
	return 0;
}

/* Take up to n clusters from the front of extent i: the count taken,
 * first cluster in *c. */
static uint64_t fx_take(struct dc *d, uint32_t i, uint64_t n, uint64_t *c)
{
	struct fext *e = &d->fx[i];
	uint64_t k = e->len < n ? e->len : n;
	*c = e->start;
	e->start += k;
	e->len -= k;
	if (e->zone)
		d->free_zone -= k;
	else
		d->free_main -= k;
	return k;
}

/* Next-fit: n clusters from the extents after the cursor, outside the
 * zones while any space is left there, else in them; each piece is
 * handed to put(d, ctx, first, count).  The caller checked that n
 * clusters are free. */
static int alloc(struct dc *d, uint64_t n, int (*put)(struct dc *, void *,
		 uint64_t, uint64_t), void *ctx)
{
	while (n) {
		int zones = d->free_main == 0;
		uint32_t i = d->cur, tried = 0;
		for (; tried < d->nfx; tried++, i = (i + 1) % d->nfx)
			if (d->fx[i].len && d->fx[i].zone == zones)
				break;
		if (tried == d->nfx)
			return SSD_ENOSPC; /* not reached: the caller checked */
		uint64_t c, k = fx_take(d, i, n, &c);
		d->cur = i;
		n -= k;
		int rc = put(d, ctx, c, k);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- the drive below the page cache ---- */

struct dc_node {
	struct ssd_blk b;
	struct dc *d;
};

static int64_t node_submit(struct ssd_blk *b, int ddir, uint64_t offset,
			   uint32_t len, int64_t t)
{
	struct dc *d = ((struct dc_node *)b)->d;
	if ((ddir & 0xff) == SSD_DDIR_WRITE) {
		struct ssd_dircopy_run *r = d->r;
		uint64_t c0 = offset / CL, c1 = (offset + len + CL - 1) / CL;
		uint64_t by[SSD_DC_NKINDS] = {0};
		for (uint64_t c = c0; c < c1; c++) {
			uint64_t lo = c * CL > offset ? c * CL : offset;
			uint64_t hi = (c + 1) * CL < offset + len
				? (c + 1) * CL : offset + len;
			by[kind_of(d, c)] += hi - lo;
		}
		int kind = SSD_DC_DATA;
		for (int k = 0; k < SSD_DC_NKINDS; k++) {
			r->bytes[k] += by[k];
			if (by[k] > by[kind])
				kind = k;
		}
		r->cmds[kind]++;
		if (kind == SSD_DC_DATA) {
			r->data_seq_cmds += offset == d->data_end;
			d->data_end = offset + len;
		}
		if (d->o->trace)
			d->o->trace(d->o->trace_ctx, kind, offset, len, t);
	}
	if (t < ssd_dev_last_submit(d->dev))
		t = ssd_dev_last_submit(d->dev);
	return ssd_dev_submit(d->dev, (ddir & ~SSD_BLK_DIRECT) |
			      d->dev->direct_flag, offset, len, t);
}

static int64_t node_flush(struct ssd_blk *b, int64_t t)
{
	struct dc *d = ((struct dc_node *)b)->d;
	if (t < ssd_dev_last_submit(d->dev))
		t = ssd_dev_last_submit(d->dev);
	return ssd_dev_flush(d->dev, t);
}

static int node_idle(struct ssd_blk *b, int64_t until)
{
	return ssd_dev_idle(((struct dc_node *)b)->d->dev, until);
}

static void node_destroy(struct ssd_blk *b)
{
	free(b); /* the device is the caller's */
}

static const struct ssd_blk_ops node_ops = {
	.kind = "dircopy",
	.submit = node_submit,
	.flush = node_flush,
	.idle = node_idle,
	.destroy = node_destroy,
};

/* ---- the file system's writes ---- */

/* A write of [c, c + n) clusters into the cache, waited for. */
static int fs_write(struct dc *d, int kind, uint64_t c, uint64_t n)
{
	while (n && !d->err) {
		uint64_t k = n > COPY_BS / CL ? COPY_BS / CL : n;
		int64_t done = ssd_blk_submit(d->pc, SSD_DDIR_WRITE, c * CL,
					      (uint32_t)(k * CL), d->t);
		if (done < 0)
			d->err = (int)done;
		else
			d->t = done;
		d->r->fs_writes[kind]++;
		c += k;
		n -= k;
	}
	return d->err;
}

/* The bitmap pages of clusters [c, c + n). */
static int bitmap_write(struct dc *d, uint64_t c, uint64_t n)
{
	uint64_t p0 = c / BITMAP_SPAN, p1 = (c + n - 1) / BITMAP_SPAN;
	for (uint64_t p = p0; p <= p1 && p < d->bmp_len; p++)
		fs_write(d, SSD_DC_BITMAP, d->bmp_start + p, 1);
	return d->err;
}

static int log_write(struct dc *d)
{
	uint64_t page = d->log_pos / CL % d->log_len;
	d->log_pos += LOG_ENTRY;
	return fs_write(d, SSD_DC_LOG, d->log_start + page, 1);
}

static int mft_put(struct dc *d, void *ctx, uint64_t c, uint64_t n)
{
	(void)ctx;
	meta_mark(d, c, n);
	struct mext *m = d->nmft ? &d->mft[d->nmft - 1] : NULL;
	if (m && m->start + m->len == c) {
		m->len += n;
	} else {
		if (d->nmft == d->capmft) {
			struct mext *p = ssd_grow(d->mft, &d->capmft, sizeof *p, 8);
			if (!p)
				return SSD_ENOMEM;
			d->mft = p;
		}
		d->mft[d->nmft++] = (struct mext){d->mft_recs, c, n};
	}
	d->mft_recs += n * REC_PER_CL;
	return bitmap_write(d, c, n);
}

/* The MFT grows by MFT_GROW_CL clusters: from its zone, or a new zone
 * cut where the allocator stands, or (the volume full of data) wherever
 * next-fit finds them. */
static int mft_grow(struct dc *d)
{
	if (d->zcur == UINT32_MAX || d->fx[d->zcur].len < MFT_GROW_CL) {
		/* a new zone where data stands, if room is left there */
		uint32_t i = d->cur;
		if (d->free_main >= MFT_GROW_CL) {
			for (uint32_t k = 0; k < d->nfx; k++, i = (i + 1) % d->nfx)
				if (!d->fx[i].zone && d->fx[i].len >= MFT_GROW_CL)
					break;
		}
		if (d->free_main >= MFT_GROW_CL && !d->fx[i].zone &&
		    d->fx[i].len >= MFT_GROW_CL) {
			struct fext *e = &d->fx[i];
			uint64_t z = e->len < ZONE_CL ? e->len : ZONE_CL;
			if (z == e->len) {
				e->zone = 1;
				d->zcur = i;
			} else {
				struct fext zn = {e->start, z, 1};
				e->start += z;
				e->len -= z;
				int rc = fx_insert(d, i, zn);
				if (rc)
					return rc;
				d->zcur = i;
			}
			d->free_main -= z;
			d->free_zone += z;
		} else {
			d->zcur = UINT32_MAX;
		}
	}
	if (d->zcur != UINT32_MAX) {
		uint64_t c;
		fx_take(d, d->zcur, MFT_GROW_CL, &c);
		return mft_put(d, NULL, c, MFT_GROW_CL);
	}
	return alloc(d, MFT_GROW_CL, mft_put, NULL);
}

/* A new MFT record, written; its number in *rec. */
static int mft_record(struct dc *d, uint64_t *rec)
{
	if (d->next_rec >= d->mft_recs) {
		int rc = mft_grow(d);
		if (rc)
			return rc;
	}
	*rec = d->next_rec++;
	return 0;
}

/* The cluster holding record `rec`. */
static uint64_t mft_cluster(const struct dc *d, uint64_t rec)
{
	uint32_t i = d->nmft;
	while (i > 1 && d->mft[i - 1].rec > rec)
		i--;
	const struct mext *m = &d->mft[i - 1];
	return m->start + (rec - m->rec) / REC_PER_CL;
}

static int mft_write(struct dc *d, uint64_t rec)
{
	return fs_write(d, SSD_DC_MFT, mft_cluster(d, rec), 1);
}

static int indx_put(struct dc *d, void *ctx, uint64_t c, uint64_t n)
{
	*(uint64_t *)ctx = c;
	meta_mark(d, c, n);
	int rc = del_add(d, c, n);
	return rc ? rc : bitmap_write(d, c, n);
}

/* An entry added to directory k's index. */
static int index_add(struct dc *d, uint32_t k)
{
	struct dir *x = &d->dirs[k];
	x->entries++;
	if (x->indx == NONE && x->entries <= ROOT_ENTRIES)
		return mft_write(d, x->rec); /* the index root, in the record */
	if (x->indx == NONE || x->entries > INDX_ENTRIES) {
		uint64_t c = 0;
		int rc = alloc(d, 1, indx_put, &c);
		if (rc)
			return rc;
		x->indx = c;
		x->entries = 1;
	}
	return fs_write(d, SSD_DC_INDEX, x->indx, 1);
}

/* A new directory under `parent` (UINT32_MAX: the volume's root, whose
 * record is 5). */
static int dir_make(struct dc *d, uint32_t parent, uint32_t *out)
{
	if (d->ndirs == d->capdirs) {
		struct dir *p = ssd_grow(d->dirs, &d->capdirs, sizeof *p, 256);
		if (!p)
			return SSD_ENOMEM;
		d->dirs = p;
	}
	uint64_t rec;
	int rc = mft_record(d, &rec);
	if (rc)
		return rc;
	uint32_t k = d->ndirs++;
	d->dirs[k] = (struct dir){NONE, rec, 0};
	d->r->dirs++;
	mft_write(d, rec);
	log_write(d);
	if (parent == UINT32_MAX)
		mft_write(d, 5);
	else if ((rc = index_add(d, parent)))
		return rc;
	/* k enters the pick list twice, its parent once more */
	for (int j = 0; j < 3; j++) {
		if (d->npick == d->cappick) {
			uint32_t *p = ssd_grow(d->pick, &d->cappick, sizeof *p, 256);
			if (!p)
				return SSD_ENOMEM;
			d->pick = p;
		}
		if (j == 2 && parent == UINT32_MAX)
			break;
		d->pick[d->npick++] = j < 2 ? k : parent;
	}
	*out = k;
	return d->err;
}

struct file_alloc {
	uint64_t pieces;
};

static int data_put(struct dc *d, void *ctx, uint64_t c, uint64_t n)
{
	((struct file_alloc *)ctx)->pieces++;
	int rc = del_add(d, c, n);
	if (!rc)
		rc = bitmap_write(d, c, n);
	if (!rc)
		rc = fs_write(d, SSD_DC_DATA, c, n);
	return rc;
}

/* Files per directory: geometric on 1, 2, ... with mean FILES_PER_DIR. */
static uint64_t dir_files(struct ssd_rng *r)
{
	double u = 1 - ssd_rng_unit(r); /* (0, 1] */
	return 1 + (uint64_t)(log(u) / log(1 - 1 / FILES_PER_DIR));
}

/* Copy one file of `size` bytes into the current directory (a new one
 * first when it is full).  *fit is 0 when it was skipped. */
static int copy_file(struct dc *d, struct ssd_rng *tree, uint64_t size,
		     int *fit)
{
	uint64_t ncl = size <= RESIDENT_MAX ? 0 : (size + CL - 1) / CL;
	/* room for its data, an index block, the MFT's growth (twice: a
	 * new directory's record too) */
	uint64_t need = ncl + 1 + 2 * MFT_GROW_CL;
	*fit = need <= d->free_main + d->free_zone;
	if (!*fit) {
		d->r->skipped++;
		return 0;
	}
	int rc;
	if (!d->dir_left) {
		uint32_t parent = d->pick[ssd_rng_below(tree, d->npick)];
		if ((rc = dir_make(d, parent, &d->dir_now)))
			return rc;
		d->dir_left = dir_files(tree);
	}
	d->dir_left--;
	uint64_t rec;
	if ((rc = mft_record(d, &rec)))
		return rc;
	mft_write(d, rec);
	if ((rc = index_add(d, d->dir_now)))
		return rc;
	log_write(d);
	if (ncl) {
		struct file_alloc fa = {0};
		if ((rc = alloc(d, ncl, data_put, &fa)))
			return rc;
		d->r->extents += fa.pieces;
		d->r->fragmented += fa.pieces > 1;
	} else {
		d->r->resident++;
	}
	mft_write(d, rec); /* closed: sizes and times */
	d->r->files++;
	d->r->file_bytes += size;
	if (size > d->r->largest)
		d->r->largest = size;
	return d->err;
}

/* ---- setting up the volume ---- */

static int volume_init(struct dc *d, uint64_t bytes)
{
	uint64_t n = bytes / CL;
	d->nclusters = n;
	uint64_t mft = MFT_LCN < n / 8 ? MFT_LCN : n / 8;
	uint64_t zone = ZONE_CL < n / 8 ? ZONE_CL : n / 8;
	d->log_len = LOG_CL < n / 64 ? LOG_CL : n / 64;
	d->log_start = mft + zone;
	d->bmp_start = d->log_start + d->log_len;
	d->bmp_len = (n + BITMAP_SPAN - 1) / BITMAP_SPAN;
	uint64_t data2 = d->bmp_start + d->bmp_len;
	d->meta = calloc((n + 7) / 8, 1);
	d->capfx = 8;
	d->fx = malloc(d->capfx * sizeof *d->fx);
	if (!d->meta || !d->fx)
		return SSD_ENOMEM;
	d->fx[0] = (struct fext){SYS_CL, mft - SYS_CL, 0};
	d->fx[1] = (struct fext){mft, zone, 1};
	d->fx[2] = (struct fext){data2, n - data2, 0};
	d->nfx = 3;
	d->free_main = d->fx[0].len + d->fx[2].len;
	d->free_zone = zone;
	d->zcur = 1;
	meta_mark(d, d->log_start, d->log_len + d->bmp_len);
	/* the MFT as formatted, at the zone's front */
	uint64_t c;
	fx_take(d, 1, MFT_INIT_CL, &c);
	meta_mark(d, c, MFT_INIT_CL);
	d->capmft = 8;
	d->mft = malloc(d->capmft * sizeof *d->mft);
	if (!d->mft)
		return SSD_ENOMEM;
	d->mft[0] = (struct mext){0, c, MFT_INIT_CL};
	d->nmft = 1;
	d->mft_recs = MFT_INIT_CL * REC_PER_CL;
	d->next_rec = FIRST_REC;
	d->cur = 0;
	return 0;
}

int ssd_dircopy(struct ssd_dev *dev, const struct ssd_dircopy_opts *o,
		struct ssd_dircopy_run *r, struct ssd_fileset *del)
{
	memset(r, 0, sizeof *r);
	if (del)
		memset(del, 0, sizeof *del);
	uint64_t vol = ssd_dev_capacity(dev) / CL * CL;
	if (o->set < 0 || o->set >= SSD_DC_NSETS || !(o->fill > 0) ||
	    o->fill > 1 || vol < SSD_DIRCOPY_MIN_VOLUME || o->cache % CL)
		return SSD_EINVAL;
	struct dc d = {.dev = dev, .o = o, .r = r, .zcur = UINT32_MAX,
		       .data_end = NONE};
	uint64_t *sizes = NULL, nsizes = 0;
	struct ssd_rng srng, tree;
	ssd_rng_seed(&srng, ssd_mix64(o->seed ^ 0x73697a6573)); /* "sizes" */
	int rc = volume_init(&d, vol);
	if (!rc && o->set != SSD_DC_IMPRESSIONS)
		rc = ssd_dircopy_set_sizes(o->set, ssd_mix64(o->seed), &sizes,
					   &nsizes);
	/* the page cache over our node on the device */
	struct ssd_config pcfg = *ssd_dev_config(dev);
	uint64_t def = vol / DEF_CACHE_SHARE / CL * CL;
	pcfg.page_cache = o->cache ? o->cache
			: pcfg.page_cache ? pcfg.page_cache
			: def < DEF_CACHE ? def : DEF_CACHE;
	struct dc_node *node = NULL;
	if (!rc && !(node = calloc(1, sizeof *node)))
		rc = SSD_ENOMEM;
	if (!rc) {
		node->b.ops = &node_ops;
		node->b.capacity = ssd_dev_capacity(dev);
		node->d = &d;
		rc = ssd_pcache_create(&pcfg, &node->b, &d.pc);
		if (rc)
			free(node);
	}
	r->volume = vol;
	d.t = r->start = ssd_dev_time(dev);
	const uint64_t target = (uint64_t)ceil(o->fill * (double)d.nclusters);
	int skips = 0;
	uint64_t k = 0; /* file of the current copy */
	while (!rc && skips < SKIP_MAX &&
	       d.nclusters - d.free_main - d.free_zone < target) {
		if (!k || (nsizes && k == nsizes)) { /* a new copy */
			k = 0;
			ssd_rng_seed(&tree, ssd_mix64(o->seed ^ 0x74726565)); /* "tree" */
			d.npick = 0;
			d.dir_left = 0;
			r->copies++;
			if (d.free_main + d.free_zone < 2 * MFT_GROW_CL + 1)
				break;
			if ((rc = dir_make(&d, UINT32_MAX, &d.dir_now)))
				break;
			d.dir_left = dir_files(&tree);
		}
		uint64_t size = nsizes ? sizes[k] : ssd_dircopy_draw_size(&srng);
		k++;
		int fit;
		rc = copy_file(&d, &tree, size, &fit);
		skips = fit ? 0 : skips + 1;
	}
	if (!rc && d.err)
		rc = d.err;
	if (d.pc) {
		int64_t done = rc ? 0 : ssd_blk_flush(d.pc, d.t);
		if (done < 0)
			rc = (int)done;
		else if (!rc)
			r->end = done;
		ssd_blk_destroy(d.pc);
	}
	r->used = (d.nclusters - d.free_main - d.free_zone) * CL;
	if (!rc && del) {
		del->f = d.del;
		del->n = d.ndel;
		for (uint64_t i = 0; i < d.ndel; i++)
			del->bytes += d.del[i].len;
		d.del = NULL;
	}
	free(d.del);
	free(sizes);
	free(d.meta);
	free(d.fx);
	free(d.mft);
	free(d.dirs);
	free(d.pick);
	return rc;
}
