/*
 * config_int.h -- what the drive configuration's files share: config.c
 * (the option table as data, and one row's field read, written and
 * written out as text), config_parse.c (drive files and --set),
 * config_finish.c (deriving a finished drive: the checks between keys,
 * the geometry, adaptation) and config_print.c (`drive show`, `drive
 * doc` and the JSON form).  The table and the cell types' defaults stay
 * static in config.c; the others read them row by row through the
 * functions below.  Only src/base/config*.c include
 * this header.
 */
#ifndef SSD_CONFIG_INT_H
#define SSD_CONFIG_INT_H

#include <stddef.h>
#include <stdint.h>

#include "base/config.h"

/* Typical datasheet-class figures of one cell type (config.c). */
struct cell_info {
	const char *name;
	int64_t t_read, t_prog, t_erase; /* ns */
	uint32_t pe_cycles;
	double read_spread, prog_spread; /* LSB..MSB, fraction of the mean */
};

/* ---- the option table's rows ---- */

enum opt_type { T_STRING, T_SIZE, T_U32, T_FRACTION, T_TIME, T_ENUM, T_BOOL };

#define F_DERIVED 1u /* computed by ssd_config_finish(); cannot be set */
#define F_MUL4K 2u   /* a multiple of SSD_LPAGE */
#define F_POW2 4u    /* a power of two */
#define F_CELLDEF 8u /* 0 (a fraction: "cell", stored as -1) means the
                        cell type's default */
#define F_DESCR 16u  /* what a description speaks of: an override is
                        noted in ssd_config_description() */
#define F_HDD 32u    /* a hard disk's key: printed for type = hdd only */
#define F_STACK 64u  /* a key of the machine around the drive (a host
                        layer), not of the drive itself */
#define F_ANY 128u   /* a key of every drive type (the others but F_HDD
                        and F_STACK ones are the flash's) */
#define F_FLASHFIT 256u /* a size the flash bounds further (capacity): its
                        accepted range says so (ssd_cfg_accepted) */

struct opt {
	const char *name;
	enum opt_type type;
	size_t off, size;          /* field in struct ssd_config */
	const char *def;           /* default, in drive-file syntax */
	uint64_t min, max;         /* size: bytes; time: ns; integer */
	double fmin, fmax;         /* fraction */
	const char *const *values; /* enum: names, NULL-terminated */
	unsigned flags;
	const char *unit;          /* unit, for the comment and the doc */
	const char *help;          /* what it means, one sentence */
};

/* Row i of the option table, in table order; NULL past the last.  The
 * row named `name`; NULL if none. */
const struct opt *ssd_cfg_row(int i);
const struct opt *ssd_cfg_find(const char *name);

/* The bit of row o, or of the row named `name` (0 if none), in struct
 * ssd_config's overridden and adapted masks. */
ssd_keymask ssd_cfg_bit(const struct opt *o);
ssd_keymask ssd_cfg_key_bit(const char *name);

/* The defaults of cell type `cell`; NULL if it is not one. */
const struct cell_info *ssd_cfg_cell(int cell);

/* The value of row o in *c: integer (size, integer, time), int (enum,
 * bool), double (fraction); and setting an integer one. */
uint64_t ssd_cfg_uint(const struct ssd_config *c, const struct opt *o);
void ssd_cfg_put_uint(struct ssd_config *c, const struct opt *o, uint64_t v);
int ssd_cfg_int(const struct ssd_config *c, const struct opt *o);
double ssd_cfg_double(const struct ssd_config *c, const struct opt *o);

/* What is wrong with integer u for numeric row o ("is out of range", "is
 * not a multiple of 4k", "is not a power of two"); NULL if nothing. */
const char *ssd_cfg_check_uint(const struct opt *o, uint64_t u);

/* Drive-file syntax, into buf (returned): the value of row o in *c; the
 * accepted values of row o, for messages (with a hint on the syntax when
 * `hint`) and the doc's range column (hint 0); a size ("32g", or plain
 * bytes when no suffix is exact); a time ("700us"); a fraction (the
 * shortest %g that reads back). */
char *ssd_cfg_text(const struct ssd_config *c, const struct opt *o,
		   char *buf, size_t n);
char *ssd_cfg_accepted(const struct opt *o, int hint, char *buf, size_t n);
char *ssd_cfg_fmt_size(uint64_t v, char *buf, size_t n);
char *ssd_cfg_fmt_time(int64_t ns, char *buf, size_t n);
char *ssd_cfg_fmt_double(double v, char *buf, size_t n);

/* 1 if a drive file would not read text s back as it is unquoted (a
 * comment character, an opening quote, white space at either end);
 * config_parse.c. */
int ssd_cfg_needs_quotes(const char *s);

#endif
