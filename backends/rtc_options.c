/* rtc_options.c — see rtc_options.h. */
#include "rtc_options.h"

#include <stdlib.h>
#include <string.h>

static int space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int dh_rtc_split_options(const char *options, const char *const *extra, int n_extra,
                         char ***argv_out, int *argc_out, char **store)
{
    size_t len = options ? strlen(options) : 0;
    char *s = malloc(len + 1);
    char **argv = malloc((len / 2 + 2 + (size_t)(n_extra > 0 ? n_extra : 0)) * sizeof *argv);
    if (!s || !argv) {
        free(s);
        free(argv);
        return -1;
    }
    memcpy(s, options ? options : "", len + 1);
    int argc = 0;
    char *w = s;                          /* compacting write position */
    for (char *p = s; *p;) {
        while (space(*p))
            p++;
        if (!*p)
            break;
        char *tok = w;
        while (*p && !space(*p))
            *w++ = *p++;
        int joins = (w - tok == 2) && tok[0] == '-' &&
                    (tok[1] == 'D' || tok[1] == 'U' || tok[1] == 'I');
        if (joins) {                      /* glue the next word on */
            while (space(*p))
                p++;
            while (*p && !space(*p))
                *w++ = *p++;
        }
        if (*p)
            p++;                          /* past one separator */
        *w++ = 0;
        argv[argc++] = tok;
    }
    for (int i = 0; i < n_extra; i++)
        if (extra[i] && extra[i][0])
            argv[argc++] = (char *)extra[i];
    argv[argc] = NULL;
    *argv_out = argv;
    *argc_out = argc;
    *store = s;
    return 0;
}
