/*
 * trace_tools.h -- what `ssdlab trace` does with a block trace of any
 * format src/trace/trace.h reads: convert it into fio's iolog version 3,
 * which read_iolog= replays here and fio replays on a real drive, and
 * say what it holds (docs/traces.md).
 *
 * Both stream: a trace is read a record at a time, never loaded.  convert
 * keeps a few counters; stat keeps its histograms (fixed size) and a
 * bitmap of the 4 KiB pages the trace touches, 4 bits a page (touched,
 * written, read, written in the current interval), in chunks of 1 GiB
 * of address range (128 KiB each) allocated as the trace first touches
 * them: its memory grows with the address range touched, never with the
 * trace's length, and stops at a limit (an error) rather than at the
 * machine's.
 *
 * Folding.  A trace recorded on a larger disk than the drive replaying it
 * is brought inside the capacity in one of two ways:
 *   modulo  offset % capacity: a request below the capacity stays where
 *           it is, one past it lands at the same place in a lower copy of
 *           the range -- runs stay runs, locality is kept, but distinct
 *           regions of the disk may land on each other;
 *   scale   offset x capacity / the trace's address range (its largest
 *           offset + length): the whole layout shrinks evenly, distances
 *           shrink with it (it needs the range first: two passes).
 * A folded offset is aligned down to 4 KiB.  A request that then crosses
 * the end is moved to end at the capacity (its size is part of the
 * workload; its place is already approximate), and one larger than the
 * capacity is cut to it.  A trace that fits is left as it is.
 */
#ifndef SSD_TRACE_TOOLS_H
#define SSD_TRACE_TOOLS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace/trace.h"

#define SSD_TT_PAGE 4096u       /* the footprint's and folding's unit */

enum { SSD_FOLD_NONE = 0, SSD_FOLD_MODULO, SSD_FOLD_SCALE };

/* "modulo" or "scale" into *mode: 0, or -1 for neither. */
int ssd_fold_parse(const char *name, int *mode);

/* Fold the request [*off, *off + *len) into [0, cap) as above (cap a
 * multiple of 4 KiB; max_end the trace's largest offset + length, which
 * scale needs).  1 if the request was changed, 0 if it was left as it
 * is. */
int ssd_trace_fold(int mode, uint64_t cap, uint64_t max_end, uint64_t *off,
		   uint64_t *len);

/* A device number as --device takes it: N, or MAJ,MIN as blkparse prints
 * it (MAJ << 20 | MIN, the kernel's dev_t as blktrace records it).  0,
 * or -1 if it is neither. */
int ssd_trace_dev_parse(const char *s, uint32_t *dev);

/* ---- trace convert ---- */

struct ssd_tconv {
	const char *in;         /* the trace */
	int fmt;                /* its SSD_TRACE_* (AUTO: by its first bytes) */
	const char *out;        /* the iolog: "-" standard output; a name
	                           ending in .gz is gzip-compressed */
	const char *file;       /* the file name in the iolog (NULL: trace) */
	int has_dev;            /* keep only device dev */
	uint32_t dev;
	uint64_t capacity;      /* 0: none; else a request past it is an
	                           error, or folded */
	int fold;               /* SSD_FOLD_* (needs capacity) */
	uint32_t align;         /* warn of requests not aligned to this
	                           (512 or 4096; 0: 512) */
	FILE *msg;              /* warnings (NULL: none) */
	const char *prefix;     /* ... each after "PREFIX: " */
};

struct ssd_tconv_counts {
	uint64_t requests;      /* lines written: all of the below */
	uint64_t reads, writes, trims, syncs; /* syncs: with datasyncs */
	uint64_t unaligned;     /* data requests not aligned to align */
	uint64_t empty;         /* data requests of 0 bytes, left out */
	uint64_t folded;        /* requests moved by --fold */
	uint64_t split;         /* requests of 4 GiB or more, written in
	                           pieces of 2 GiB (an iolog's lengths are
	                           32 bits) */
};

/* Convert c->in into c->out.  0, or a negative SSD_E* code with the
 * one-line message in err ("IN:LINE: what (expected ...)" for a bad
 * record) and *input set when the input or the options are to blame
 * (exit 2) rather than the output (exit 1).  OUT is written under a
 * temporary name and renamed into place (base/ofile.h): a failed
 * conversion leaves OUT as it was, or none.  The warnings of alignment and of left-out requests go
 * to c->msg. */
int ssd_trace_convert(const struct ssd_tconv *c, struct ssd_tconv_counts *n,
		      char *err, size_t errlen, int *input);

/* ---- trace stat ---- */

/* Request sizes, by powers of two: [512 x 2^i, 512 x 2^(i+1)), the first
 * also below 512, the last from 1 MiB up. */
#define SSD_TSTAT_NSIZES 12
extern const char *const ssd_tstat_size_names[SSD_TSTAT_NSIZES];
unsigned ssd_tstat_size_bucket(uint64_t len);

/* Inter-arrival times: a log-linear histogram of ns, 64 buckets a power
 * of two (one a value below 128 ns, 1/64 of the value wide above);
 * ssd_tstat_gap_value: a bucket's middle. */
#define SSD_TSTAT_GAP_N (64 + 58 * 64)
unsigned ssd_tstat_gap_index(uint64_t ns);
uint64_t ssd_tstat_gap_value(unsigned idx);

/* The working set's series is at most this long. */
#define SSD_TSTAT_MAX_INTERVALS 1000000u
/* The default limit of the footprint's bitmaps, bytes: 8 TiB of address
 * range touched. */
#define SSD_TSTAT_MAP_LIMIT (1ULL << 30)

struct ssd_tstat_dir {
	uint64_t requests, bytes;
	uint64_t sequential;    /* starting where the previous request of
	                           this direction ended */
	uint64_t sizes[SSD_TSTAT_NSIZES];
};

struct tt_chunk;

/* A device's share of a trace (trace stat without --device). */
struct ssd_tstat_devc {
	uint32_t dev;
	uint64_t requests, bytes; /* as ssd_tstat's requests and the
	                             directions' bytes */
};

struct ssd_tstat {
	/* what the trace holds */
	uint64_t requests;      /* reads, writes, trims and syncs */
	struct ssd_tstat_dir dir[3]; /* by SSD_TOP_READ, WRITE, TRIM */
	uint64_t syncs;         /* with datasyncs */
	uint64_t empty;         /* reads, writes, trims of 0 bytes: not
	                           requests (convert leaves them out) */
	uint64_t first_empty;   /* the line of the first of them */
	uint64_t pages, written_pages, read_pages; /* distinct 4 KiB */
	int have_data;          /* a read, write or trim was seen */
	uint64_t max_offset;    /* the largest offset of a request */
	uint64_t max_end;       /* the largest offset + length */
	int timed;              /* a record had a time */
	int64_t first_ts, last_ts; /* ns: the first record's, the latest */
	uint64_t gaps, gap_min, gap_max;
	double gap_sum;
	uint64_t gap_bucket[SSD_TSTAT_GAP_N];
	double gap_bsum[SSD_TSTAT_GAP_N]; /* the sum of each bucket's gaps */
	/* the write working set: distinct pages written in each interval,
	 * and in all intervals up to each */
	int64_t interval;       /* ns; 0 until known */
	int fixed;              /* the interval was given (else duration/20) */
	uint64_t nint;          /* intervals in the series */
	uint64_t *int_pages, *int_total;
	/* the devices seen, by number (trace stat without --device) */
	struct ssd_tstat_devc *devs;
	size_t ndevs, capdevs;
	/* inside */
	int series_pass;        /* the second pass: the series alone */
	int over;               /* SSD_ERANGE: 1 the bitmaps' limit, 2 the
	                           series' length */
	uint64_t cap_int;
	int64_t prev_ts;
	uint64_t last_end[3];
	int have_last[3];
	uint64_t cur_int, run_written;
	struct tt_chunk ***top; /* top[i][j]: chunk (i << 12 | j) */
	size_t ntop;
	uint64_t map_bytes, map_limit;
};

/* A new, empty statistic: interval_ns > 0 the working set's interval,
 * 0 for duration/20 (which needs a second pass, below); map_limit the
 * bytes the bitmaps may take (0: SSD_TSTAT_MAP_LIMIT).  NULL without
 * memory. */
struct ssd_tstat *ssd_tstat_new(int64_t interval_ns, uint64_t map_limit);
void ssd_tstat_free(struct ssd_tstat *s);
/* One record (a file action or a version 2 wait is no request and is
 * left out).  0, SSD_ENOMEM, or SSD_ERANGE past the bitmaps' limit or
 * the series' length. */
int ssd_tstat_add(struct ssd_tstat *s, const struct ssd_trace_rec *r);
/* The series with the default interval: 1 if it needs the records again
 * (a timed trace without an interval given) -- then each of them goes to
 * ssd_tstat_add_series in the same order -- or 0. */
int ssd_tstat_begin_series(struct ssd_tstat *s);
int ssd_tstat_add_series(struct ssd_tstat *s, const struct ssd_trace_rec *r);
/* After the last record: the series' last interval closed. */
void ssd_tstat_end(struct ssd_tstat *s);

/* The inter-arrival times: mean, and the p-th percentile (0 < p <= 100)
 * in ns: the mean of the gaps in the bucket where p% of them are reached
 * (exact when they are equal, within 1/64 otherwise); 0 without gaps. */
double ssd_tstat_gap_mean(const struct ssd_tstat *s);
uint64_t ssd_tstat_gap_percentile(const struct ssd_tstat *s, double p);
/* The share of the data requests that are sequential (0 without any). */
double ssd_tstat_sequential(const struct ssd_tstat *s);

struct ssd_tstat_opts {
	const char *path;
	int fmt;                /* SSD_TRACE_* */
	int has_dev;
	uint32_t dev;
	int64_t interval;       /* ns, 0: duration / 20 */
	uint64_t map_limit;     /* 0: SSD_TSTAT_MAP_LIMIT */
};

/* Read the trace and fill *out (freed with ssd_tstat_free).  0, or a
 * negative SSD_E* code with the one-line message in err and *input set
 * when the input is to blame. */
int ssd_trace_stat(const struct ssd_tstat_opts *o, struct ssd_tstat **out,
		   int *fmt, char *err, size_t errlen, int *input);

/* The report: a readable block (fio's style) or one JSON object
 * (docs/traces.md lists its keys). */
void ssd_tstat_print(const struct ssd_tstat *s, const struct ssd_tstat_opts *o,
		     int fmt, FILE *out);
void ssd_tstat_json(const struct ssd_tstat *s, const struct ssd_tstat_opts *o,
		    int fmt, FILE *out);

#endif
