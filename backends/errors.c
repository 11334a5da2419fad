/* errors.c — messages and names for the codes of errors.h. */
#include "errors.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int dh_err_set(struct dh_err *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        /* keep it one line: vendor logs go elsewhere */
        for (char *p = err->msg; *p; p++)
            if (*p == '\n' || *p == '\r')
                *p = ' ';
    }
    return -code;
}

const char *dh_err_name(int code)
{
    if (code < 0)
        code = -code;
    switch (code) {
    case DH_OK: return "ok";
#define DH__E(n, w, m) case DH_E_##n: return w;
    DH_ERRNO_MAP(DH__E)
#undef DH__E
    }
    return "unknown";
}

const char *dh_strerror(int code)
{
    if (code < 0)
        code = -code;
    switch (code) {
    case DH_OK: return "success";
#define DH__E(n, w, m) case DH_E_##n: return m;
    DH_ERRNO_MAP(DH__E)
#undef DH__E
    }
    return "unknown error";
}

int dh_err_from_name(const char *word)
{
    if (!strcmp(word, "ok"))
        return DH_OK;
    for (int c = 1; c < DH_E__COUNT; c++)
        if (!strcmp(word, dh_err_name(c)))
            return c;
    return -1;
}
