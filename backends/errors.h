/* errors.h — the project's error codes and the caller-owned error buffer.
 *
 * One X-macro list generates the enum, dh_err_name() and dh_strerror()
 * (libuv's way). Functions return 0 or a negative code. A failed compile,
 * launch, timeout or wrong result is data for the harness: it is recorded
 * as a run status and the run goes on. Nothing in harness/ or backends/
 * calls exit() or abort().
 */
#ifndef DH_ERRORS_H
#define DH_ERRORS_H

#include <stddef.h>

/*  name          status word     message */
#define DH_ERRNO_MAP(X)                                                      \
    X(USAGE,       "usage",       "invalid usage or parameter")             \
    X(UNAVAILABLE, "unavailable", "runtime or device not available")        \
    X(UNSUPPORTED, "unsupported", "not implemented for this case")          \
    X(CONSTRAINT,  "constraint",  "parameters violate a constraint")        \
    X(BUILD,       "build",       "kernel build failed")                    \
    X(RESOURCES,   "resources",   "device resources exhausted")             \
    X(LAUNCH,      "launch",      "kernel launch failed")                   \
    X(TIMEOUT,     "timeout",     "watchdog timeout")                       \
    X(CRASH,       "crash",       "worker process crashed")                 \
    X(WRONG,       "wrong",       "result differs from the CPU reference")  \
    X(IO,          "io",          "file input/output error")                \
    X(DATA,        "data",        "corrupt or incompatible data")           \
    X(INTERRUPTED, "interrupted", "interrupted")                            \
    X(INTERNAL,    "internal",    "internal error")                         \
    X(OVERFLOW,    "overflow",    "a counter overflowed")

enum dh_code {
    DH_OK = 0,
#define DH__E(n, w, m) DH_E_##n,
    DH_ERRNO_MAP(DH__E)
#undef DH__E
    DH_E__COUNT
};

struct dh_err {
    int code;            /* positive dh_code */
    char msg[2048];      /* one line (plus vendor text), no trailing newline */
};

/* Fill err (if non-NULL) and return -code. printf-style. */
int dh_err_set(struct dh_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *dh_err_name(int code);   /* "build", "timeout", ... (code >= 0) */
const char *dh_strerror(int code);
/* Parse a status word back to a code (0 for "ok"); -1 when unknown. */
int dh_err_from_name(const char *word);

#endif
