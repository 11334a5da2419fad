/* suggest.c — "did you mean" (suggest.h). */
#include "suggest.h"

#include <string.h>

int dh_edit_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > 64 || m > 64)
        return 1000;
    int d[65][65];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int cost = a[i - 1] != b[j - 1];
            int v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < v)
                v = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[n][m];
}

static int close_enough(const char *word, int dist)
{
    int len = (int)strlen(word);
    int max = len <= 4 ? 1 : len / 3;
    if (max < 1)
        max = 1;
    return dist <= max;
}

const char *dh_suggest(const char *word, const char *const *cands, int n)
{
    const char *best = NULL;
    int best_d = 1000, ties = 0;
    for (int i = 0; n < 0 ? cands[i] != NULL : i < n; i++) {
        if (!cands[i] || !*cands[i])
            continue;
        int d = dh_edit_distance(word, cands[i]);
        /* a prefix of a longer name ("--var" for "--variant") counts too */
        if (d > 1 && strlen(word) >= 3 && !strncmp(cands[i], word, strlen(word)))
            d = 1;
        if (d < best_d) {
            best_d = d;
            best = cands[i];
            ties = 0;
        } else if (best && d == best_d && strcmp(best, cands[i])) {
            ties++;
        }
    }
    return best && best_d > 0 && !ties && close_enough(word, best_d) ? best : NULL;
}

int dh_suggest_list(const char *word, const char *list, char *out, size_t len)
{
    char buf[2048];
    const char *names[256];
    int n = 0;
    size_t l = strlen(list);
    if (l >= sizeof buf)
        l = sizeof buf - 1;
    memcpy(buf, list, l);
    buf[l] = 0;
    for (char *p = buf; *p && n < 256;) {
        while (*p == ',' || *p == ' ')
            *p++ = 0;
        if (!*p)
            break;
        names[n++] = p;
        while (*p && *p != ',' && *p != ' ')
            p++;
    }
    const char *s = dh_suggest(word, names, n);
    if (!s || !len)
        return -1;
    size_t k = strlen(s) < len - 1 ? strlen(s) : len - 1;
    memcpy(out, s, k);
    out[k] = 0;
    return 0;
}
