/*
 * config_parse.c -- a drive's keys as people write them: drive files
 * (presets and the user's own), --set on the command line, and the
 * built-in defaults, each value parsed by its row of the option table
 * (config.c, through config_int.h), so that a message names the file and
 * line, the key, the value and the accepted values, and an unknown key
 * gets a "did you mean".
 *
 * Drive files.  An INI file of `key = value` lines, optionally under a
 * [drive] section, '#' and ';' starting comments.  `preset = NAME` as the
 * first key loads preset NAME first (presets stack, at most
 * CONFIG_PRESET_DEPTH deep), and a name that is no preset nor file gets
 * the closest preset suggested.
 *
 * Overrides.  ssd_config_set() marks what it sets in c->overridden; a
 * drive file's own keys are not marked.  What is marked is what
 * ssd_config_fit() may not adapt and ssd_config_description() notes
 * (config_finish.c).
 *
 * Quoting.  Values may be written in double quotes (with \" and \\), so
 * that a description holding '#' or ';' survives `drive show` and
 * reloading; ssd_cfg_needs_quotes() says which text needs them, for
 * ssd_config_print().
 */
#include "base/config_int.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#ifndef SSDLAB_PRESET_DIR
#define SSDLAB_PRESET_DIR "presets"
#endif

/* A user's text made safe to quote in a one-line message: at most 40
 * characters, control characters shown as '?'. */
static const char *quote(const char *s, char *buf, size_t n)
{
	size_t i = 0, len = strlen(s);
	for (; i < len && i + 4 < n && i < 40; i++)
		buf[i] = iscntrl((unsigned char)s[i]) ? '?' : s[i];
	if (i < len && i + 4 <= n) {
		memcpy(buf + i, "...", 3);
		i += 3;
	}
	buf[i] = 0;
	return buf;
}

/* Parse `s` (trimmed) into option o of *c.  Messages as ssd_config_set. */
static int set_value(struct ssd_config *c, const struct opt *o, const char *s,
		     const char *where, char *err, size_t errlen)
{
	char acc[256], q[48];
	const char *what = NULL;
	int rc = 0;
	uint64_t u = 0;
	char *p = (char *)c + o->off;

	switch (o->type) {
	case T_STRING: {
		size_t len = strlen(s);
		for (size_t i = 0; i < len; i++)
			if (iscntrl((unsigned char)s[i])) {
				what = "contains a control character";
				rc = SSD_EPARSE;
				goto fail;
			}
		if (len >= o->size) {
			what = "is too long";
			rc = SSD_ERANGE;
			goto fail;
		}
		memcpy(p, s, len + 1);
		return 0;
	}
	case T_SIZE:
		rc = ssd_parse_size(s, &u);
		what = "is not a size";
		break;
	case T_U32:
		rc = ssd_parse_u64(s, &u);
		what = "is not a whole number";
		break;
	case T_TIME: {
		int64_t t = 0;
		rc = ssd_parse_time(s, SSD_US, &t);
		u = (uint64_t)t;
		what = "is not a time";
		break;
	}
	case T_FRACTION: {
		double d = 0;
		size_t len = strlen(s);
		if ((o->flags & F_CELLDEF) && !strcasecmp(s, "cell")) {
			d = -1; /* resolved by ssd_config_finish() */
			memcpy(p, &d, sizeof d);
			return 0;
		}
		if (len > 1 && s[len - 1] == '%' && len < 64) {
			char num[64];
			memcpy(num, s, len - 1);
			num[len - 1] = 0;
			rc = ssd_parse_double(ssd_strtrim(num), &d);
			d /= 100;
		} else {
			rc = ssd_parse_double(s, &d);
		}
		if (rc == SSD_EPARSE) {
			what = "is not a number";
			goto fail;
		}
		if (rc || !(d >= o->fmin && d <= o->fmax)) {
			what = "is out of range";
			rc = SSD_ERANGE;
			goto fail;
		}
		memcpy(p, &d, sizeof d);
		return 0;
	}
	case T_ENUM:
		for (int i = 0; o->values[i]; i++) {
			if (!strcasecmp(s, o->values[i])) {
				memcpy(p, &i, sizeof i);
				return 0;
			}
		}
		ssd_seterr(err, errlen, "%s: key '%s': unknown value '%s' (accepted: %s)",
		       where, o->name, quote(s, q, sizeof q),
		       ssd_cfg_accepted(o, 1, acc, sizeof acc));
		return SSD_EPARSE;
	case T_BOOL: {
		int b;
		if (ssd_parse_bool(s, &b)) {
			what = "is not a yes/no value";
			rc = SSD_EPARSE;
			goto fail;
		}
		memcpy(p, &b, sizeof b);
		return 0;
	}
	}
	/* numeric: size, integer, time */
	if (rc == SSD_EPARSE)
		goto fail;
	if (rc)
		what = "is out of range";
	else
		what = ssd_cfg_check_uint(o, u);
	if (what) {
		rc = SSD_ERANGE;
		goto fail;
	}
	ssd_cfg_put_uint(c, o, u);
	return 0;
fail:
	ssd_seterr(err, errlen, "%s: key '%s': '%s' %s (accepted: %s)", where,
	       o->name, quote(s, q, sizeof q), what,
	       ssd_cfg_accepted(o, rc == SSD_EPARSE, acc, sizeof acc));
	return rc;
}

/* ---- public: defaults and setting ---- */

void ssd_config_defaults(struct ssd_config *c)
{
	char err[256];
	memset(c, 0, sizeof *c);
	const struct opt *o;
	for (int i = 0; (o = ssd_cfg_row(i)); i++) {
		if (o->flags & F_DERIVED)
			continue;
		if (set_value(c, o, o->def, "built-in default", err, sizeof err)) {
			fprintf(stderr, "ssdlab: bug: %s\n", err);
			abort();
		}
	}
	c->file_capacity = c->capacity;
}

/* Set one key: an override of what was loaded (override = 1, --set) or a
 * value of the drive file itself.  `trim`: trim the value first (a quoted
 * value from a drive file is taken as it is). */
static int set_key(struct ssd_config *c, const char *key, const char *value,
		   int trim, int override, const char *where, char *err,
		   size_t errlen)
{
	char kbuf[64], q[48];
	if (!where)
		where = "--set";
	snprintf(kbuf, sizeof kbuf, "%s", key);
	char *k = ssd_strtrim(kbuf);
	const struct opt *o = strlen(key) < sizeof kbuf ? ssd_cfg_find(k) : NULL;
	if (!o) {
		const char *best = NULL;
		int bestd = 99;
		const struct opt *r;
		for (int i = 0; (r = ssd_cfg_row(i)); i++) {
			int d = ssd_edit_distance(k, r->name);
			if (d < bestd) {
				bestd = d;
				best = r->name;
			}
		}
		if (best && ssd_plausible_typo(k, bestd))
			ssd_seterr(err, errlen, "%s: unknown key '%s' (did you mean '%s'? "
			       "see `ssdlab drive show default` for the keys)",
			       where, quote(k, q, sizeof q), best);
		else
			ssd_seterr(err, errlen, "%s: unknown key '%s' (see `ssdlab drive "
			       "show default` for the keys)",
			       where, quote(k, q, sizeof q));
		return SSD_ENOENT;
	}
	if (o->flags & F_DERIVED) {
		ssd_seterr(err, errlen, "%s: key '%s': is derived from capacity and op "
		       "and cannot be set (set capacity, op, page_size or "
		       "pages_per_block instead)", where, o->name);
		return SSD_EINVAL;
	}
	char *v = strdup(value);
	if (!v) {
		ssd_seterr(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	int rc = set_value(c, o, trim ? ssd_strtrim(v) : v, where, err, errlen);
	free(v);
	if (!rc && override)
		c->overridden |= ssd_cfg_bit(o);
	else if (!rc)
		c->overridden &= ~ssd_cfg_bit(o);
	return rc;
}

int ssd_config_set(struct ssd_config *c, const char *key, const char *value,
		   const char *where, char *err, size_t errlen)
{
	return set_key(c, key, value, 1, 1, where, err, errlen);
}

/* ---- drive files ---- */

/* The start of a comment in s: '#' or ';' at the start or after white
 * space; NULL if there is none. */
static char *comment_start(const char *s)
{
	for (const char *p = s; *p; p++)
		if ((*p == '#' || *p == ';') &&
		    (p == s || *(p - 1) == ' ' || *(p - 1) == '\t'))
			return (char *)p;
	return NULL;
}

/* Cut a comment: '#' or ';' at the start or after white space. */
static void strip_comment(char *s)
{
	char *p = comment_start(s);
	if (p)
		*p = 0;
}

/* A value in double quotes, s at the opening quote: unescape \" and \\ in
 * place (any other backslash is kept) and check that only white space or
 * a comment follows the closing quote.  Returns the value, or NULL with
 * *why saying what is wrong. */
static char *unquote(char *s, const char **why)
{
	char *r = s + 1, *w = s;
	for (; *r && *r != '"'; r++) {
		if (*r == '\\' && (r[1] == '"' || r[1] == '\\'))
			r++;
		*w++ = *r;
	}
	if (*r != '"') {
		*why = "has no closing quote";
		return NULL;
	}
	*w = 0;
	char *rest = r + 1;
	if (*rest && *rest != ' ' && *rest != '\t' && !comment_start(rest)) {
		*why = "has text after the closing quote";
		return NULL;
	}
	strip_comment(rest);
	if (*ssd_strtrim(rest)) {
		*why = "has text after the closing quote";
		return NULL;
	}
	return s;
}

/* Text that a drive file would not read back as it is, unquoted: a
 * comment character, an opening quote, white space at either end. */
int ssd_cfg_needs_quotes(const char *s)
{
	size_t n = strlen(s);
	return n && (comment_start(s) || s[0] == '"' ||
		     isspace((unsigned char)s[0]) || isspace((unsigned char)s[n - 1]));
}

/* File name without directory and ".ini", into buf. */
static void file_stem(const char *path, char *buf, size_t n)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t len = strlen(b);
	if (len > 4 && !strcmp(b + len - 4, ".ini"))
		len -= 4;
	if (len >= n)
		len = n - 1;
	memcpy(buf, b, len);
	buf[len] = 0;
}

#define CONFIG_PRESET_DEPTH 8 /* presets a drive file may stack */

static int load_file(struct ssd_config *c, const char *path, const char *dir,
		     int depth, char *err, size_t errlen);
static int open_named(struct ssd_config *c, const char *name, const char *dir,
		      int depth, const char *where, char *err, size_t errlen);

int ssd_config_load(struct ssd_config *c, const char *path, char *err,
		    size_t errlen)
{
	return load_file(c, path, NULL, 0, err, errlen);
}

/* Load the drive file at path over *c; `preset = NAME` (the first key)
 * loads preset NAME from dir (NULL: the compiled-in one) first, depth
 * the presets already stacked. */
static int load_stream(struct ssd_config *c, FILE *f, const char *path,
		       const char *dir, int depth, char *err, size_t errlen);

static int load_file(struct ssd_config *c, const char *path, const char *dir,
		     int depth, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		ssd_seterr(err, errlen, "cannot open drive file '%s': %s", path,
		       strerror(errno));
		return SSD_EIO;
	}
	return load_stream(c, f, path, dir, depth, err, errlen);
}

int ssd_config_load_text(struct ssd_config *c, const char *text,
			 const char *name, char *err, size_t errlen)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	if (!f) {
		ssd_seterr(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	return load_stream(c, f, name, NULL, 0, err, errlen);
}

/* load_file's work on the open stream f (closed here); path names it in
 * messages. */
static int load_stream(struct ssd_config *c, FILE *f, const char *path,
		       const char *dir, int depth, char *err, size_t errlen)
{
	size_t wlen = strlen(path) + 24;
	char *where = calloc(1, wlen);
	if (!where) {
		fclose(f);
		ssd_seterr(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int lineno = 0, rc = 0, named = 0, described = 0, keys = 0;
	while ((n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		snprintf(where, wlen, "%s:%d", path, lineno);
		char *s = line;
		if (lineno == 1 && !strncmp(s, "\xef\xbb\xbf", 3))
			s += 3; /* UTF-8 byte order mark */
		if (strlen(line) != (size_t)n) {
			ssd_seterr(err, errlen, "%s: expected 'key = value' (found a NUL "
			       "byte)", where);
			rc = SSD_EPARSE;
			break;
		}
		s = ssd_strtrim(s);
		if (!*s || *s == '#' || *s == ';')
			continue;
		char *eq = strchr(s, '='), *cmt = comment_start(s);
		if (!eq || (cmt && cmt < eq)) {
			if (cmt)
				*cmt = 0;
			s = ssd_strtrim(s);
			eq = NULL;
		}
		if (*s == '[') {
			char *e = strchr(s, ']');
			if (e && !e[1]) {
				*e = 0;
				if (!strcmp(ssd_strtrim(s + 1), "drive"))
					continue;
				*e = ']';
			}
			char q[48];
			ssd_seterr(err, errlen, "%s: unknown section '%s' (accepted: "
			       "[drive], or none)", where, quote(s, q, sizeof q));
			rc = SSD_EPARSE;
			break;
		}
		if (eq)
			*eq = 0;
		char *key = ssd_strtrim(s);
		if (!eq || !*key) {
			ssd_seterr(err, errlen, "%s: expected 'key = value'", where);
			rc = SSD_EPARSE;
			break;
		}
		char *val = eq + 1;
		while (*val == ' ' || *val == '\t')
			val++;
		int quoted = *val == '"';
		if (quoted) {
			const char *why = NULL;
			val = unquote(val, &why);
			if (!val) {
				char q[48];
				ssd_seterr(err, errlen, "%s: key '%s': the quoted value %s "
				       "(accepted: \"text\", with \\\" for a quote and "
				       "\\\\ for a backslash)", where, quote(key, q, sizeof q),
				       why);
				rc = SSD_EPARSE;
				break;
			}
		} else {
			strip_comment(val);
		}
		if (!strcmp(key, "preset")) {
			/* the preset first, then this file's keys change it */
			if (keys) {
				ssd_seterr(err, errlen, "%s: key 'preset': comes after "
				       "other keys, which it would undo (accepted: "
				       "`preset = NAME` as the file's first key)",
				       where);
				rc = SSD_EINVAL;
				break;
			}
			if (!quoted)
				val = ssd_strtrim(val);
			rc = open_named(c, val, dir, depth + 1, where, err, errlen);
			if (rc)
				break;
			keys++;
			continue;
		}
		rc = set_key(c, key, val, !quoted, 0, where, err, errlen);
		if (rc)
			break;
		keys++;
		named |= !strcmp(key, "name");
		described |= !strcmp(key, "description");
	}
	if (!rc && ferror(f)) {
		ssd_seterr(err, errlen, "cannot read drive file '%s': %s", path,
		       strerror(errno));
		rc = SSD_EIO;
	} else if (!rc && n < 0 && !feof(f)) {
		/* getline stopped short of the end: no memory for the line */
		ssd_seterr(err, errlen, "out of memory");
		rc = SSD_ENOMEM;
	}
	free(line);
	free(where);
	fclose(f);
	if (!rc && !keys) {
		/* it would be the default drive, whatever the file meant */
		ssd_seterr(err, errlen, "drive file '%s' sets no keys (accepted: "
		       "`preset = NAME` to start from a preset `ssdlab drives` "
		       "lists, and `key = value` lines; docs/options.md)", path);
		rc = SSD_EINVAL;
	}
	if (!rc && !named)
		file_stem(path, c->name, sizeof c->name);
	if (!rc && !described)
		c->description[0] = 0; /* the defaults' text is not about this file */
	if (!rc)
		c->file_capacity = c->capacity;
	return rc;
}

/* The preset of dir closest to name, into best[n], if one is a plausible
 * typo of it (as keys and options are suggested); else "". */
static void closest_preset(const char *dir, const char *name, char *best,
			   size_t n)
{
	int bestd = 99;
	best[0] = 0;
	DIR *dp = opendir(dir);
	if (!dp)
		return;
	struct dirent *e;
	while ((e = readdir(dp))) {
		char stem[64];
		size_t len = strlen(e->d_name);
		if (len <= 4 || len - 4 >= sizeof stem ||
		    strcmp(e->d_name + len - 4, ".ini"))
			continue;
		memcpy(stem, e->d_name, len - 4);
		stem[len - 4] = 0;
		int d = ssd_edit_distance(name, stem);
		/* ties go to the first name in order: the same answer
		 * whatever order the directory lists them in */
		if (d < bestd || (d == bestd && strcmp(stem, best) < 0)) {
			bestd = d;
			snprintf(best, n, "%s", stem);
		}
	}
	closedir(dp);
	if (!ssd_plausible_typo(name, bestd))
		best[0] = 0;
}

/* Load the drive `name` (a preset of dir, or a path) over *c, depth the
 * presets stacked so far; where: the drive file's "file:line" naming it,
 * or NULL for the command line. */
static int open_named(struct ssd_config *c, const char *name, const char *dir,
		      int depth, const char *where, char *err, size_t errlen)
{
	size_t len = strlen(name);
	char q[48], pre[300] = "";
	if (where)
		snprintf(pre, sizeof pre, "%s: key 'preset': ", where);
	if (depth > CONFIG_PRESET_DEPTH) {
		ssd_seterr(err, errlen, "%spresets stacked more than %d deep (a "
		       "preset naming itself?)", pre, CONFIG_PRESET_DEPTH);
		return SSD_EINVAL;
	}
	if (!dir || !*dir)
		dir = SSDLAB_PRESET_DIR;
	if (strchr(name, '/') || (len >= 4 && !strcmp(name + len - 4, ".ini")))
		return load_file(c, name, dir, depth, err, errlen);
	size_t plen = strlen(dir) + len + 8;
	char *path = calloc(1, plen);
	if (!path) {
		ssd_seterr(err, errlen, "out of memory");
		return SSD_ENOMEM;
	}
	snprintf(path, plen, "%s/%s.ini", dir, name);
	int rc;
	if (!*name || access(path, F_OK)) {
		char best[64], mean[96] = "";
		closest_preset(dir, name, best, sizeof best);
		if (best[0])
			snprintf(mean, sizeof mean, "did you mean '%s'? ", best);
		ssd_seterr(err, errlen, "%sunknown drive '%s' (%ssee `ssdlab drives` "
		       "for the presets, or give a path to a .ini file)", pre,
		       quote(name, q, sizeof q), mean);
		rc = SSD_ENOENT;
	} else {
		rc = load_file(c, path, dir, depth, err, errlen);
	}
	free(path);
	return rc;
}

int ssd_config_open(struct ssd_config *c, const char *name_or_path,
		    const char *preset_dir, char *err, size_t errlen)
{
	ssd_config_defaults(c);
	return open_named(c, name_or_path, preset_dir, 0, NULL, err, errlen);
}
