/*
 * sweep.c -- a sweep file read, its points expanded and named, the
 * manifest written (sweep.h, docs/sweeps.md).
 *
 * The file:
 *
 *     [sweep]
 *     name = spare-and-gc          # optional: the file's base name
 *     combine = grid               # grid (default) or list
 *     drive = tiny, default        # presets or drive files
 *     set.op = 0.07, 0.15, 0.28    # any drive key or scenario parameter
 *     job = random.fio             # job files ... or:
 *     scenario = steady-state      # ... scenarios (not both)
 *     precondition = sequential    # ssdlab run --precondition
 *     seed = 1..4                  # integers, or A..B
 *     measure = measure            # the job whose figures rows take
 *     share = yes                  # points of one preconditioned drive
 *                                  # start from its snapshot (default)
 *
 * Values are separated by commas and trimmed.  Axes combine in the
 * order they are written, the last varying fastest.  A relative file
 * name starts at the sweep file's folder.
 */
#include "sweep/sweep.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

/* ---- reading ---- */

struct rd {
	struct ssd_sweep *s;
	const char *file;
	int line;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 3, 4)))
static int rerr(struct rd *r, int code, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (r->line)
		ssd_seterr(r->err, r->errlen, "%s:%d: %s", r->file, r->line, msg);
	else
		ssd_seterr(r->err, r->errlen, "%s: %s", r->file, msg);
	return code;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' ||
		     s[n - 1] == '\n'))
		s[--n] = 0;
	return s;
}

static int is_axis(const char *k)
{
	return !strcmp(k, "drive") || !strcmp(k, "job") ||
	       !strcmp(k, "scenario") || !strcmp(k, "precondition") ||
	       !strcmp(k, "seed") || !strncmp(k, "set.", 4);
}

static int add_value(struct rd *r, struct ssd_sweep_axis *a, const char *v)
{
	if (a->n == SSD_SWEEP_MAX_POINTS)
		return rerr(r, SSD_ERANGE, "axis '%s' has more than %d values",
			    a->name, SSD_SWEEP_MAX_POINTS);
	if ((a->n & (a->n - 1)) == 0) {
		char **nv = realloc(a->val, (a->n ? 2 * a->n : 1) * sizeof *nv);
		if (!nv)
			return rerr(r, SSD_ENOMEM, "out of memory");
		a->val = nv;
	}
	if (!(a->val[a->n] = strdup(v)))
		return rerr(r, SSD_ENOMEM, "out of memory");
	a->n++;
	return 0;
}

/* seed values: integers, or A..B (inclusive, at most a million). */
static int add_seed(struct rd *r, struct ssd_sweep_axis *a, const char *v)
{
	const char *dots = strstr(v, "..");
	uint64_t lo, hi;
	char buf[64];
	if (!dots)
		return ssd_parse_u64(v, &lo)
			? rerr(r, SSD_EPARSE, "seed '%s' is not an integer "
			       "(accepted: N, or A..B)", v)
			: add_value(r, a, v);
	snprintf(buf, sizeof buf, "%.*s", (int)(dots - v), v);
	if (ssd_parse_u64(trim(buf), &lo) || ssd_parse_u64(dots + 2, &hi) ||
	    hi < lo || hi - lo >= SSD_SWEEP_MAX_POINTS)
		return rerr(r, SSD_EPARSE, "seed range '%s' is not A..B with "
			    "A <= B, at most %d seeds", v, SSD_SWEEP_MAX_POINTS);
	for (uint64_t x = lo; x <= hi; x++) {
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)x);
		int rc = add_value(r, a, buf);
		if (rc)
			return rc;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Each value of axis a once: two points of the same values would have
 * the same id (and run into each other's folder). */
static int no_twice(struct rd *r, const struct ssd_sweep_axis *a)
{
	if (a->n < 2)
		return 0;
	char **v = malloc(a->n * sizeof *v);
	if (!v)
		return rerr(r, SSD_ENOMEM, "out of memory");
	memcpy(v, a->val, a->n * sizeof *v);
	qsort(v, a->n, sizeof *v, cmp_str);
	int rc = 0;
	for (uint32_t i = 1; i < a->n && !rc; i++)
		if (!strcmp(v[i - 1], v[i]))
			rc = rerr(r, SSD_EINVAL, "axis '%s' has the value '%s' "
				  "twice (accepted: each value once)", a->name,
				  v[i]);
	free(v);
	return rc;
}

static int set_axis(struct rd *r, const char *key, char *val)
{
	struct ssd_sweep *s = r->s;
	for (uint32_t i = 0; i < s->naxes; i++)
		if (!strcmp(s->ax[i].name, key))
			return rerr(r, SSD_EINVAL, "axis '%s' is already set "
				    "on line %d (accepted: each axis once, its "
				    "values separated by commas)", key,
				    s->ax[i].line);
	if (s->naxes == SSD_SWEEP_MAX_AXES)
		return rerr(r, SSD_ERANGE, "more than %d axes",
			    SSD_SWEEP_MAX_AXES);
	if (!strncmp(key, "set.", 4) && !key[4])
		return rerr(r, SSD_EPARSE, "'set.' names no key (accepted: "
			    "set.KEY, a drive key or a scenario parameter)");
	struct ssd_sweep_axis *a = &s->ax[s->naxes++];
	a->line = r->line;
	if (!(a->name = strdup(key)))
		return rerr(r, SSD_ENOMEM, "out of memory");
	for (char *p = val;;) {
		char *comma = strchr(p, ',');
		if (comma)
			*comma = 0;
		char *v = trim(p);
		if (!*v)
			return rerr(r, SSD_EPARSE, "axis '%s' has an empty value "
				    "(accepted: values separated by commas)",
				    key);
		int rc = !strcmp(key, "seed") ? add_seed(r, a, v)
					       : add_value(r, a, v);
		if (rc)
			return rc;
		if (!comma)
			break;
		p = comma + 1;
	}
	return no_twice(r, a);
}

static int setting(struct rd *r, const char *key, char *val, char **field)
{
	if (*field)
		return rerr(r, SSD_EINVAL, "'%s' is already set", key);
	if (!*val)
		return rerr(r, SSD_EPARSE, "'%s' has no value", key);
	if (!(*field = strdup(val)))
		return rerr(r, SSD_ENOMEM, "out of memory");
	return 0;
}

/* One line "KEY = VALUES" of the [sweep] section; *combine takes the
 * combine key's value. */
static int line(struct rd *r, char *l, char **combine)
{
	struct ssd_sweep *s = r->s;
	char *eq = strchr(l, '=');
	if (!eq)
		return rerr(r, SSD_EPARSE, "'%s' is not KEY = VALUES", l);
	*eq = 0;
	char *key = trim(l), *val = trim(eq + 1);
	if (!strcmp(key, "name")) {
		if (strchr(val, '/') || !strcmp(val, ".") || !strcmp(val, ".."))
			return rerr(r, SSD_EINVAL, "name '%s' is not a plain name "
				    "(it names the folder ssdlab-out/sweep-NAME; "
				    "accepted: no '/', not . or ..)", val);
		return setting(r, key, val, &s->name);
	}
	if (!strcmp(key, "measure")) {
		s->measure_line = r->line;
		return setting(r, key, val, &s->measure);
	}
	if (!strcmp(key, "share")) {
		if (strcmp(val, "yes") && strcmp(val, "no"))
			return rerr(r, SSD_EINVAL, "share '%s' (accepted: yes, "
				    "no)", val);
		s->share = !strcmp(val, "yes");
		return 0;
	}
	if (is_axis(key))
		return set_axis(r, key, val);
	if (strcmp(key, "combine"))
		return rerr(r, SSD_EINVAL, "unknown key '%s' (accepted: name, "
			    "combine, measure, share, drive, set.KEY, job, "
			    "scenario, precondition, seed)", key);
	int rc = setting(r, key, val, combine);
	if (!rc && strcmp(*combine, "grid") && strcmp(*combine, "list"))
		rc = rerr(r, SSD_EINVAL, "combine '%s' (accepted: grid, list)",
			  *combine);
	return rc;
}

static int read_file(struct rd *r, FILE *f)
{
	char buf[65536];
	int section = 0, rc = 0;
	char *combine = NULL;
	while (!rc && fgets(buf, sizeof buf, f)) {
		r->line++;
		size_t len = strlen(buf);
		if (len == sizeof buf - 1 && buf[len - 1] != '\n') {
			rc = rerr(r, SSD_EPARSE, "line longer than %zu characters",
				  sizeof buf - 2);
			break;
		}
		/* '#' starts a comment anywhere; ';' at the start of a line
		 * or after white space, as in job and drive files */
		char *hash = strchr(buf, '#');
		if (hash)
			*hash = 0;
		for (char *c = buf; *c; c++)
			if (*c == ';' && (c == buf || c[-1] == ' ' ||
					  c[-1] == '\t')) {
				*c = 0;
				break;
			}
		char *l = trim(buf);
		if (!*l)
			continue;
		if (*l == '[') {
			if (strcmp(l, "[sweep]"))
				rc = rerr(r, SSD_EPARSE, "unknown section '%s' "
					  "(accepted: [sweep])", l);
			else if (section)
				rc = rerr(r, SSD_EPARSE, "a second [sweep]");
			section = 1;
		} else if (!section) {
			rc = rerr(r, SSD_EPARSE, "'%s' before [sweep] (accepted: "
				  "the file starts with [sweep])", l);
		} else {
			rc = line(r, l, &combine);
		}
	}
	if (!rc && ferror(f))
		rc = rerr(r, SSD_EIO, "read error");
	r->s->list = combine && !strcmp(combine, "list");
	free(combine);
	return rc;
}

/* ---- checking and expanding ---- */

static int axis_index(const struct ssd_sweep *s, const char *name)
{
	for (uint32_t i = 0; i < s->naxes; i++)
		if (!strcmp(s->ax[i].name, name))
			return (int)i;
	return -1;
}

int ssd_sweep_is_file_drive(const char *v)
{
	size_t n = strlen(v);
	return strchr(v, '/') || (n > 4 && !strcmp(v + n - 4, ".ini"));
}

char *ssd_sweep_path(const struct ssd_sweep *s, const char *name)
{
	if (name[0] == '/')
		return strdup(name);
	size_t n = strlen(s->base) + strlen(name) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", s->base, name);
	return p;
}

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* Hash the bytes of file path into h; -1 if it cannot be read (errno),
 * -2 if it is not a regular file (a device such as /dev/zero would be
 * read for ever, a FIFO would be consumed). */
static int hash_file(const char *path, uint64_t *h)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	struct stat st;
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		fclose(f);
		return -2;
	}
	char buf[65536];
	size_t k;
	while ((k = fread(buf, 1, sizeof buf, f)) > 0)
		*h = fnv(*h, buf, k);
	int bad = ferror(f);
	fclose(f);
	return bad ? -1 : 0;
}

/* ---- the files a job file names ----
 *
 * A job file's point reads more than the job file: its includes and the
 * files its options name.  The options that name a file ssdlab reads
 * (rows of job_opts.c); fio's other input files -- verify_pattern and
 * buffer_pattern from a file, ioengine=external:LIB, replay_redirect --
 * ssdlab takes without effect or refuses, so they read nothing. */
static const char *const job_input_opts[] = {"read_iolog", "dp_scheme", NULL};

/* The nesting of includes followed (the parser's own limit is lower). */
#define INCLUDE_DEPTH 16

struct jscan {
	const char *top;        /* the job file (its folder: the run's) */
	int (*fn)(void *ctx, const char *file, int line, const char *name,
		  const char *path, int include);
	void *ctx;
};

/* dir of path (its folder, "." without one) + "/" + name into buf. */
static void beside(const char *path, const char *name, char *buf, size_t n)
{
	const char *slash = strrchr(path, '/');
	if (name[0] == '/' || !slash)
		snprintf(buf, n, "%s", name);
	else
		snprintf(buf, n, "%.*s/%s", (int)(slash - path), path, name);
}

static int scan_job(struct jscan *js, const char *file, int depth)
{
	FILE *f = fopen(file, "r");
	struct stat st;
	if (f && (fstat(fileno(f), &st) || !S_ISREG(st.st_mode))) {
		fclose(f); /* a device would be read for ever */
		f = NULL;
	}
	if (!f)
		return SSD_EIO;
	char buf[4096 + 2];
	int ln = 0, rc = 0;
	while (!rc && fgets(buf, sizeof buf, f)) {
		ln++;
		char *l = trim(buf);
		if (!*l || *l == '#' || *l == ';' || *l == '[')
			continue;
		/* a comment after white space, as the parser cuts it */
		for (char *c = l + 1; *c; c++)
			if ((*c == '#' || *c == ';') &&
			    (c[-1] == ' ' || c[-1] == '\t')) {
				*c = 0;
				break;
			}
		l = trim(l);
		char path[PATH_MAX];
		if (!strncmp(l, "include", 7) && (l[7] == ' ' || l[7] == '\t')) {
			const char *name = trim(l + 8);
			/* as the parser: from the run's folder when it is
			 * there, else beside the including file */
			beside(js->top, name, path, sizeof path);
			if (access(path, F_OK))
				beside(file, name, path, sizeof path);
			rc = js->fn(js->ctx, file, ln, name, path, 1);
			if (!rc && depth < INCLUDE_DEPTH)
				rc = scan_job(js, path, depth + 1);
			if (rc == SSD_EIO)
				rc = 0; /* the run says what is wrong with it */
			continue;
		}
		char *eq = strchr(l, '=');
		if (!eq)
			continue;
		*eq = 0;
		const char *key = trim(l), *val = trim(eq + 1);
		int k = 0;
		while (job_input_opts[k] && strcmp(job_input_opts[k], key))
			k++;
		if (!job_input_opts[k] || !*val || strchr(val, '$'))
			continue; /* ${VAR}: known only to the run */
		beside(js->top, val, path, sizeof path);
		rc = js->fn(js->ctx, file, ln, val, path, 0);
	}
	fclose(f);
	return rc;
}

int ssd_sweep_job_inputs(const char *job,
			 int (*fn)(void *ctx, const char *file, int line,
				   const char *name, const char *path,
				   int include),
			 void *ctx)
{
	struct jscan js = {.top = job, .fn = fn, .ctx = ctx};
	return scan_job(&js, job, 0);
}

int ssd_sweep_climbs(const char *name)
{
	if (name[0] == '/')
		return 0;
	int depth = 0;
	for (const char *p = name; *p;) {
		size_t n = strcspn(p, "/");
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0)
				return 1;
		} else if (n && !(n == 1 && p[0] == '.')) {
			depth++;
		}
		p += n;
		p += *p == '/';
	}
	return 0;
}

struct inputs_hash {
	struct rd *r;
	const char *job;        /* as the sweep names it */
	uint64_t *h;
};

/* One file a job file names: its name and bytes into the job's hash. */
static int hash_input(void *ctx, const char *file, int line, const char *name,
		      const char *path, int include)
{
	struct inputs_hash *ih = ctx;
	const char *fb = strrchr(file, '/');
	fb = fb ? fb + 1 : file;
	if (!include && ssd_sweep_climbs(name))
		return rerr(ih->r, SSD_EINVAL, "job '%s': %s:%d: '%s' is above "
			    "the job file's folder (a point runs in a folder of "
			    "its own, where the job file's folder is seen; "
			    "accepted: a file in or below that folder, or an "
			    "absolute path)", ih->job, fb, line, name);
	*ih->h = fnv(*ih->h, name, strlen(name) + 1);
	int hr = hash_file(path, ih->h);
	if (hr)
		return rerr(ih->r, SSD_ENOENT, "job '%s': %s:%d: '%s': %s (%s)",
			    ih->job, fb, line, name, hr == -2 ? "not a regular "
			    "file" : strerror(errno), path);
	return 0;
}

/* Whether axis value v of axis a names a file whose bytes the point's
 * id takes: job files, drive files, and a set.KEY value naming a file
 * that exists beside the sweep (a scenario's trace). */
static char *file_of(const struct ssd_sweep *s, const struct ssd_sweep_axis *a,
		     const char *v, int *must)
{
	*must = !strcmp(a->name, "job") ||
		(!strcmp(a->name, "drive") && ssd_sweep_is_file_drive(v));
	if (*must)
		return ssd_sweep_path(s, v);
	if (strncmp(a->name, "set.", 4))
		return NULL;
	char *p = ssd_sweep_path(s, v);
	struct stat st;
	if (p && (stat(p, &st) || !S_ISREG(st.st_mode))) {
		free(p);
		return NULL;
	}
	return p;
}

static int check(struct rd *r)
{
	struct ssd_sweep *s = r->s;
	r->line = 0;
	int job = axis_index(s, "job"), scn = axis_index(s, "scenario");
	if (job < 0 && scn < 0)
		return rerr(r, SSD_EINVAL, "no workload (accepted: job = FILES "
			    "or scenario = NAMES)");
	if (job >= 0 && scn >= 0) {
		r->line = s->ax[scn].line;
		return rerr(r, SSD_EINVAL, "job files and scenarios in one "
			    "sweep (accepted: one of them; make two sweeps)");
	}
	int pre = axis_index(s, "precondition");
	if (pre >= 0 && scn >= 0) {
		r->line = s->ax[pre].line;
		return rerr(r, SSD_EINVAL, "precondition goes with job files "
			    "(a scenario prepares its own drive)");
	}
	if (s->measure && scn >= 0)
		return rerr(r, SSD_EINVAL, "measure names a job, and this sweep "
			    "runs scenarios");
	/* list: the axes of more than one value have the same count */
	uint64_t n = 1;
	int first = -1;
	for (uint32_t i = 0; i < s->naxes; i++) {
		const struct ssd_sweep_axis *a = &s->ax[i];
		if (s->list) {
			if (a->n == 1)
				continue;
			if (first < 0) {
				first = (int)i;
				n = a->n;
			} else if (a->n != n) {
				r->line = a->line;
				return rerr(r, SSD_EINVAL, "combine = list, and "
					    "axis '%s' has %u values where '%s' "
					    "has %llu (accepted: one value, or as "
					    "many as the others)", a->name, a->n,
					    s->ax[first].name,
					    (unsigned long long)n);
			}
		} else {
			n *= a->n;
			if (n > SSD_SWEEP_MAX_POINTS) {
				r->line = a->line;
				return rerr(r, SSD_ERANGE, "the grid has more than "
					    "%d points", SSD_SWEEP_MAX_POINTS);
			}
		}
	}
	s->npoints = (uint32_t)n;
	return 0;
}

static int expand(struct rd *r)
{
	struct ssd_sweep *s = r->s;
	uint32_t na = s->naxes ? s->naxes : 1;
	s->pick = calloc((size_t)s->npoints * na, sizeof *s->pick);
	s->id = calloc(s->npoints, sizeof *s->id);
	s->did = calloc(s->npoints, sizeof *s->did);
	if (!s->pick || !s->id || !s->did)
		return rerr(r, SSD_ENOMEM, "out of memory");
	for (uint32_t p = 0; p < s->npoints; p++) {
		uint32_t rest = p;
		for (int i = (int)s->naxes - 1; i >= 0; i--) {
			uint32_t n = s->ax[i].n;
			uint32_t k = s->list ? (n == 1 ? 0 : p) : rest % n;
			if (!s->list)
				rest /= n;
			s->pick[(size_t)p * na + (uint32_t)i] = k;
		}
	}
	/* the ids: the axes in name order, each file's bytes; a file's
	 * hash is computed once per value */
	uint64_t *fh[SSD_SWEEP_MAX_AXES] = {0};
	int rc = 0;
	for (uint32_t i = 0; i < s->naxes && !rc; i++) {
		struct ssd_sweep_axis *a = &s->ax[i];
		if (!(fh[i] = calloc(a->n, sizeof *fh[i]))) {
			rc = rerr(r, SSD_ENOMEM, "out of memory");
			break;
		}
		for (uint32_t k = 0; k < a->n && !rc; k++) {
			int must;
			char *path = file_of(s, a, a->val[k], &must);
			if (!path && must) {
				rc = rerr(r, SSD_ENOMEM, "out of memory");
				break;
			}
			uint64_t h = 0xcbf29ce484222325ull;
			int hr = path ? hash_file(path, &h) : 0;
			if (hr) {
				r->line = a->line;
				rc = rerr(r, SSD_ENOENT, "%s '%s': %s (%s)", a->name,
					  a->val[k], hr == -2 ? "not a regular "
					  "file" : strerror(errno), path);
			}
			/* and the files the job file names */
			if (!rc && !strcmp(a->name, "job")) {
				struct inputs_hash ih = {r, a->val[k], &h};
				r->line = a->line;
				rc = ssd_sweep_job_inputs(path, hash_input, &ih);
			}
			fh[i][k] = path ? h : 0;
			free(path);
		}
	}
	int pre = axis_index(s, "precondition");
	uint32_t order[SSD_SWEEP_MAX_AXES];
	for (uint32_t i = 0; i < s->naxes; i++) {
		uint32_t j = i;
		while (j && strcmp(s->ax[order[j - 1]].name, s->ax[i].name) > 0) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	for (uint32_t p = 0; p < s->npoints && !rc; p++) {
		uint64_t h = 0xcbf29ce484222325ull;
		for (uint32_t o = 0; o < s->naxes; o++) {
			uint32_t i = order[o];
			uint32_t k = s->pick[(size_t)p * na + i];
			h = fnv(h, s->ax[i].name, strlen(s->ax[i].name) + 1);
			h = fnv(h, s->ax[i].val[k], strlen(s->ax[i].val[k]) + 1);
			h = fnv(h, &fh[i][k], sizeof fh[i][k]);
		}
		if (s->measure)
			h = fnv(h, s->measure, strlen(s->measure) + 1);
		snprintf(s->id[p], sizeof s->id[p], "%016llx",
			 (unsigned long long)h);
		/* the preconditioned drive: the same hash over what makes
		 * it -- not the job */
		if (!s->share || pre < 0)
			continue;
		uint64_t d = 0xcbf29ce484222325ull;
		for (uint32_t o = 0; o < s->naxes; o++) {
			uint32_t i = order[o];
			if (!strcmp(s->ax[i].name, "job"))
				continue;
			uint32_t k = s->pick[(size_t)p * na + i];
			d = fnv(d, s->ax[i].name, strlen(s->ax[i].name) + 1);
			d = fnv(d, s->ax[i].val[k], strlen(s->ax[i].val[k]) + 1);
			d = fnv(d, &fh[i][k], sizeof fh[i][k]);
		}
		snprintf(s->did[p], sizeof s->did[p], "%016llx",
			 (unsigned long long)d);
	}
	for (uint32_t i = 0; i < s->naxes; i++)
		free(fh[i]);
	return rc;
}

int ssd_sweep_load(const char *file, struct ssd_sweep **out, char *err,
		   size_t errlen)
{
	*out = NULL;
	struct ssd_sweep *s = calloc(1, sizeof *s);
	struct rd r = {.s = s, .file = file, .err = err, .errlen = errlen};
	if (!s)
		return rerr(&r, SSD_ENOMEM, "out of memory");
	s->share = 1;
	s->file = strdup(file);
	const char *slash = strrchr(file, '/');
	s->base = slash ? strndup(file, (size_t)(slash - file ? slash - file : 1))
			: strdup(".");
	if (!s->file || !s->base) {
		ssd_sweep_free(s);
		return rerr(&r, SSD_ENOMEM, "out of memory");
	}
	FILE *f = fopen(file, "r");
	if (!f) {
		int rc = rerr(&r, errno == ENOENT ? SSD_ENOENT : SSD_EIO, "%s",
			      strerror(errno));
		ssd_sweep_free(s);
		return rc;
	}
	int rc = read_file(&r, f);
	fclose(f);
	if (!rc && !s->name) {
		const char *b = slash ? slash + 1 : file;
		const char *dot = strrchr(b, '.');
		s->name = strndup(b, dot && dot != b ? (size_t)(dot - b)
						      : strlen(b));
		if (!s->name)
			rc = rerr(&r, SSD_ENOMEM, "out of memory");
	}
	if (!rc)
		rc = check(&r);
	if (!rc)
		rc = expand(&r);
	if (rc) {
		ssd_sweep_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

void ssd_sweep_free(struct ssd_sweep *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->naxes; i++) {
		for (uint32_t k = 0; k < s->ax[i].n; k++)
			free(s->ax[i].val[k]);
		free(s->ax[i].val);
		free(s->ax[i].name);
	}
	free(s->file);
	free(s->base);
	free(s->name);
	free(s->measure);
	free(s->pick);
	free(s->id);
	free(s->did);
	free(s);
}

const char *ssd_sweep_value(const struct ssd_sweep *s, uint32_t p,
			    const char *name)
{
	int i = axis_index(s, name);
	if (i < 0 || p >= s->npoints)
		return NULL;
	uint32_t na = s->naxes ? s->naxes : 1;
	return s->ax[i].val[s->pick[(size_t)p * na + (uint32_t)i]];
}

/* ---- a point's command ---- */

static int push_arg(char ***argv, size_t *n, const char *a)
{
	char **nv = realloc(*argv, (*n + 2) * sizeof *nv);
	if (!nv)
		return -1;
	*argv = nv;
	if (!(nv[*n] = strdup(a)))
		return -1;
	nv[++*n] = NULL;
	return 0;
}

/* An absolute name for a file the child opens from its own folder. */
static char *absolute(const struct ssd_sweep *s, const char *v)
{
	char *p = ssd_sweep_path(s, v), *abs = p ? realpath(p, NULL) : NULL;
	if (abs) {
		free(p);
		return abs;
	}
	return p; /* the child says what is wrong with it */
}

char **ssd_sweep_argv(const struct ssd_sweep *s, uint32_t p, const char *exe,
		      const char *snap, int prepare)
{
	char **argv = NULL;
	size_t n = 0;
	if (!snap)
		prepare = 0; /* nothing to save the drive to */
	int bad = push_arg(&argv, &n, exe);
	const char *job = ssd_sweep_value(s, p, "job");
	const char *scn = ssd_sweep_value(s, p, "scenario");
	if (prepare) {
		bad |= push_arg(&argv, &n, "run");
	} else if (job) {
		char *abs = absolute(s, job);
		bad |= !abs || push_arg(&argv, &n, "run") ||
		       push_arg(&argv, &n, abs);
		free(abs);
	} else {
		bad |= push_arg(&argv, &n, "scenario") ||
		       push_arg(&argv, &n, "run") || push_arg(&argv, &n, scn);
	}
	const char *drive = ssd_sweep_value(s, p, "drive");
	if (drive) {
		char *d = ssd_sweep_is_file_drive(drive) ? absolute(s, drive) : strdup(drive);
		bad |= !d || push_arg(&argv, &n, "--drive") ||
		       push_arg(&argv, &n, d);
		free(d);
	}
	for (uint32_t i = 0; i < s->naxes; i++) {
		const struct ssd_sweep_axis *a = &s->ax[i];
		if (strncmp(a->name, "set.", 4))
			continue;
		const char *v = ssd_sweep_value(s, p, a->name);
		int must;
		char *path = file_of(s, a, v, &must), *abs = NULL;
		if (path)
			abs = realpath(path, NULL);
		free(path);
		size_t len = strlen(a->name) + strlen(abs ? abs : v) + 2;
		char *kv = malloc(len);
		if (kv)
			snprintf(kv, len, "%s=%s", a->name + 4, abs ? abs : v);
		bad |= !kv || push_arg(&argv, &n, "--set") ||
		       push_arg(&argv, &n, kv);
		free(kv);
		free(abs);
	}
	const char *pre = ssd_sweep_value(s, p, "precondition");
	if (pre && snap && !prepare)
		bad |= push_arg(&argv, &n, "--snapshot") ||
		       push_arg(&argv, &n, snap);
	else if (pre)
		bad |= push_arg(&argv, &n, "--precondition") ||
		       push_arg(&argv, &n, pre);
	const char *seed = ssd_sweep_value(s, p, "seed");
	bad |= push_arg(&argv, &n, "--seed") ||
	       push_arg(&argv, &n, seed ? seed : "1");
	if (prepare)
		bad |= push_arg(&argv, &n, "--save-snapshot") ||
		       push_arg(&argv, &n, snap);
	else if (job)
		bad |= push_arg(&argv, &n, "--output-format=json") ||
		       push_arg(&argv, &n, "--output") ||
		       push_arg(&argv, &n, "result.json");
	else
		bad |= push_arg(&argv, &n, "--out") || push_arg(&argv, &n, ".");
	bad |= push_arg(&argv, &n, "--eta") || push_arg(&argv, &n, "never");
	if (bad) {
		ssd_sweep_argv_free(argv);
		return NULL;
	}
	return argv;
}

void ssd_sweep_argv_free(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* ---- the manifest and selections ---- */

/* mkdir -p */
int ssd_sweep_mkdirs(const char *dir, char *err, size_t errlen)
{
	char p[PATH_MAX];
	if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p) {
		ssd_seterr(err, errlen, "%s: name too long", dir);
		return SSD_EINVAL;
	}
	for (char *q = p + 1;; q++) {
		if (*q && *q != '/')
			continue;
		char c = *q;
		*q = 0;
		if (mkdir(p, 0777) && errno != EEXIST) {
			ssd_seterr(err, errlen, "%s: %s", p, strerror(errno));
			return SSD_EIO;
		}
		if (!c)
			break;
		*q = c;
	}
	return 0;
}

int ssd_sweep_plan(const struct ssd_sweep *s, const char *dir, char *err,
		   size_t errlen)
{
	int rc = ssd_sweep_mkdirs(dir, err, errlen);
	if (rc)
		return rc;
	char path[PATH_MAX], tmp[PATH_MAX];
	snprintf(path, sizeof path, "%s/manifest.tsv", dir);
	snprintf(tmp, sizeof tmp, "%s/.manifest.tsv.%ld", dir, (long)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f) {
		ssd_seterr(err, errlen, "%s: %s", tmp, strerror(errno));
		return SSD_EIO;
	}
	uint32_t na = s->naxes ? s->naxes : 1;
	fprintf(f, "index\tid");
	for (uint32_t i = 0; i < s->naxes; i++)
		fprintf(f, "\t%s", s->ax[i].name);
	fputc('\n', f);
	for (uint32_t p = 0; p < s->npoints; p++) {
		fprintf(f, "%u\t%s", p, s->id[p]);
		for (uint32_t i = 0; i < s->naxes; i++)
			fprintf(f, "\t%s",
				s->ax[i].val[s->pick[(size_t)p * na + i]]);
		fputc('\n', f);
	}
	if (ferror(f) | fclose(f) || rename(tmp, path)) {
		ssd_seterr(err, errlen, "%s: %s", path, strerror(errno));
		remove(tmp);
		return SSD_EIO;
	}
	return 0;
}

int ssd_sweep_select(const struct ssd_sweep *s, const char *text,
		     uint8_t *sel, char *err, size_t errlen)
{
	memset(sel, 0, s->npoints);
	const char *p = text;
	if (!*p)
		goto bad;
	while (*p) {
		char *e;
		unsigned long lo, hi;
		/* digits only: strtoul would take "-1" as ULONG_MAX */
		if (*p < '0' || *p > '9')
			goto bad;
		errno = 0;
		lo = hi = strtoul(p, &e, 10);
		if (errno)
			goto bad;
		if (*e == '-') {
			const char *q = e + 1;
			if (*q < '0' || *q > '9')
				goto bad;
			hi = strtoul(q, &e, 10);
			if (errno)
				goto bad;
		}
		if (*e && (*e != ',' || !e[1]))
			goto bad;
		if (hi < lo) {
			ssd_seterr(err, errlen, "points '%s': the range %lu-%lu is "
				   "reversed (accepted: A-B with A <= B, as "
				   "%lu-%lu)", text, lo, hi, hi, lo);
			return SSD_ERANGE;
		}
		if (hi >= s->npoints) {
			ssd_seterr(err, errlen, "points '%s': %lu is not a point "
				   "(the sweep has %u: 0..%u)", text, hi,
				   s->npoints, s->npoints - 1);
			return SSD_ERANGE;
		}
		for (unsigned long i = lo; i <= hi; i++)
			sel[i] = 1;
		p = *e ? e + 1 : e;
	}
	return 0;
bad:
	ssd_seterr(err, errlen, "points '%s' is not a list of indices and "
		   "ranges (accepted: 3,5-9)", text);
	return SSD_EPARSE;
}
