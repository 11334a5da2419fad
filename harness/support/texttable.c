/* texttable.c — see texttable.h */
#include "texttable.h"

#include <stdlib.h>
#include <string.h>

void dh_tt_init(struct dh_texttable *t, int ncol, const char *const *heads)
{
    memset(t, 0, sizeof *t);
    t->ncol = ncol > DH_TT_MAXCOL ? DH_TT_MAXCOL : ncol;
    for (int c = 0; c < t->ncol; c++) {
        t->right[c] = heads[c][0] == '>';
        t->head[c] = heads[c] + t->right[c];
    }
}

int dh_tt_row(struct dh_texttable *t, const char *const *cells, const char *note)
{
    if (t->nrow == t->cap) {
        int cap = t->cap ? 2 * t->cap : 32;
        char **cell = realloc(t->cell, (size_t)cap * (size_t)t->ncol * sizeof *cell);
        if (!cell)
            return -1;
        t->cell = cell;
        char **nt = realloc(t->note, (size_t)cap * sizeof *nt);
        if (!nt)
            return -1;
        t->note = nt;
        t->cap = cap;
    }
    char **row = t->cell + (size_t)t->nrow * (size_t)t->ncol;
    for (int c = 0; c < t->ncol; c++) {
        row[c] = strdup(cells[c] ? cells[c] : "-");
        if (!row[c]) {
            while (c--)
                free(row[c]);
            return -1;
        }
    }
    t->note[t->nrow] = note && *note ? strdup(note) : NULL;
    t->nrow++;
    return 0;
}

void dh_tt_print(const struct dh_texttable *t, FILE *f)
{
    int w[DH_TT_MAXCOL];
    for (int c = 0; c < t->ncol; c++) {
        w[c] = (int)strlen(t->head[c]);
        for (int r = 0; r < t->nrow; r++) {
            int l = (int)strlen(t->cell[(size_t)r * (size_t)t->ncol + (size_t)c]);
            w[c] = l > w[c] ? l : w[c];
        }
    }
    for (int r = -1; r < t->nrow; r++) {
        for (int c = 0; c < t->ncol; c++) {
            const char *s = r < 0 ? t->head[c] : t->cell[(size_t)r * (size_t)t->ncol + (size_t)c];
            int last = c == t->ncol - 1;
            if (t->right[c])
                fprintf(f, "%s%*s", c ? "  " : "", w[c], s);
            else
                fprintf(f, "%s%-*s", c ? "  " : "", last ? 0 : w[c], s);
        }
        fputc('\n', f);
        if (r >= 0 && t->note[r])
            fprintf(f, "    %s\n", t->note[r]);
    }
}

void dh_tt_free(struct dh_texttable *t)
{
    for (size_t k = 0; k < (size_t)t->nrow * (size_t)t->ncol; k++)
        free(t->cell[k]);
    for (int r = 0; r < t->nrow; r++)
        free(t->note[r]);
    free(t->cell);
    free(t->note);
    memset(t, 0, sizeof *t);
}
