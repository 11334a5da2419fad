/* texttable.h — a terminal table whose columns fit their widest cell, so a
 * long variant label or workload never pushes its row out of line. Cells
 * are copied; rows may carry a note printed indented under them. */
#ifndef DH_TEXTTABLE_H
#define DH_TEXTTABLE_H

#include <stdio.h>

#define DH_TT_MAXCOL 16

struct dh_texttable {
    int ncol;
    const char *head[DH_TT_MAXCOL];
    int right[DH_TT_MAXCOL];        /* 1: right-aligned (numbers) */
    int nrow, cap;
    char **cell;                    /* nrow * ncol, owned */
    char **note;                    /* nrow, owned, NULL where none */
};

/* columns: heads, each prefixed with '>' where right-aligned */
void dh_tt_init(struct dh_texttable *t, int ncol, const char *const *heads);
/* a row of ncol cells (NULL prints "-"); note NULL or a line under it.
 * 0, or -1 when out of memory (the row is left out) */
int dh_tt_row(struct dh_texttable *t, const char *const *cells, const char *note);
void dh_tt_print(const struct dh_texttable *t, FILE *f);
void dh_tt_free(struct dh_texttable *t);

#endif
