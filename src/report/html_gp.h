/*
 * html_gp.h -- what the gnuplot reader of the HTML page (html_gp.c)
 * shares with html_gpdata.c, which reads its data: the CSV files a
 * chart plots and the expressions of its `using` columns.
 */
#ifndef SSD_HTML_GP_H
#define SSD_HTML_GP_H

#include <stddef.h>

/* A CSV file as rows of cells ("..." quoting, "" a quote; blank lines
 * and # comments left out). */
struct ssd_gp_table {
	char path[1024];
	size_t nrows;
	char ***cell;           /* [row][col] */
	int *ncol;              /* [row] */
};

/* Read path into *t: 0, or SSD_EIO / SSD_ENOMEM with a message in err
 * (t empty). */
int ssd_gp_table_read(struct ssd_gp_table *t, const char *path, char *err,
		      size_t errlen);
void ssd_gp_table_free(struct ssd_gp_table *t);

/* A value: a number, or a string (s != NULL, n bytes). */
struct ssd_gp_val {
	double v;
	const char *s;
	size_t n;
};

/* An expression evaluated on one row: $N, column(N), strcol(N), $0 (the
 * row's index), numbers, 'text', NaN, + - * / (x/0 is NaN, gnuplot's
 * undefined point), comparisons, eq and ne of strings, and ?:. */
struct ssd_gp_ev {
	const char *p;          /* where the reading is */
	char **cells;           /* the row */
	int ncol;
	double row;             /* $0 */
	int bad;                /* not an expression this reader knows */
};

/* expr on the row of e; *ok 0 when it is not one the reader knows (or
 * text follows it). */
double ssd_gp_eval(struct ssd_gp_ev *e, const char *expr, int *ok);
/* Column c of e's row (1-based; 0 the row's index) as a number: NaN if
 * empty or not a number. */
double ssd_gp_col(const struct ssd_gp_ev *e, long c);
/* A constant expression of n bytes ("512/1.3"): NaN if it is not one. */
double ssd_gp_const(const char *s, size_t n);

#endif
