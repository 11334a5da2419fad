/* hostref.c — see hostref.h. */
#include "hostref.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern const char dh_src_lib_dialect[];

static int write_file(const char *path, const char *a, const char *b)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int bad = fputs(a, f) < 0 || (b && fputs(b, f) < 0);
    return fclose(f) || bad ? -1 : 0;
}

/* the first lines of the compiler's complaint */
static void first_lines(const char *path, char *out, size_t len)
{
    out[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    size_t n = fread(out, 1, len - 1, f);
    out[n] = 0;
    fclose(f);
    char *p = out;
    for (int k = 0; k < 3 && p; k++)
        p = strchr(p + (k > 0), '\n');
    if (p)
        *p = 0;
    for (char *q = out; *q; q++)
        if (*q == '\n')
            *q = ' ';
}

/* Run the compiler: argv fixed, stderr to dir/cc.log. */
static int compile(const char *dir, char *const *argv, struct dh_err *err)
{
    char log[4096];
    snprintf(log, sizeof log, "%s/cc.log", dir);
    pid_t pid = fork();
    if (pid < 0)
        return dh_err_set(err, DH_E_RESOURCES, "cannot start the host compiler: %s",
                          strerror(errno));
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) {
            dup2(fd, 2);
            dup2(fd, 1);
        }
        execvp(argv[0], argv);
        fprintf(stderr, "cannot run %s: %s", argv[0], strerror(errno));
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0;
    char first[1024];
    first_lines(log, first, sizeof first);
    return dh_err_set(err, DH_E_BUILD, "the host reference did not compile (%s): %s", argv[0],
                      first[0] ? first : "no message");
}

static void cleanup(const char *dir)
{
    static const char *const files[] = {"dialect.h", "ref.c", "ref.so", "cc.log"};
    char p[4200];
    for (int i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, files[i]);
        unlink(p);
    }
    rmdir(dir);
}

static const char *cc_name(void)
{
    const char *cc = getenv("CC");
    return cc && *cc && !strchr(cc, ' ') ? cc : "cc";
}

/* build dir/ref.so from the given sources and load `sym` */
static int build_and_load(char *dir, char **extra, int n_extra, const char *src_path,
                          const char *sym, void **handle, void **fn, struct dh_err *err)
{
    char so[4200];
    snprintf(so, sizeof so, "%s/ref.so", dir);
    char *argv[96];
    int n = 0;
    argv[n++] = (char *)cc_name();
    argv[n++] = "-std=gnu11";
    argv[n++] = "-O2";
    argv[n++] = "-shared";
    argv[n++] = "-fPIC";
    argv[n++] = "-w";
    argv[n++] = "-Wl,-z,defs";          /* a barrier or local atomic: a link error */
    for (int i = 0; i < n_extra && n < 88; i++)
        argv[n++] = extra[i];
    argv[n++] = (char *)src_path;
    argv[n++] = "-o";
    argv[n++] = so;
    argv[n++] = "-lm";
    argv[n] = NULL;
    int rc = compile(dir, argv, err);
    if (rc) {
        if (strstr(err->msg, "dh__a_host_reference_cannot_use"))
            dh_err_set(err, DH_E_BUILD, "the reference entry uses work-group barriers or local "
                       "atomics, which have no meaning in a host reference: write a plain "
                       "per-item reference entry, or use <reference on=\"device\"> (the OpenCL "
                       "CPU device) or <reference c=\"file.c\">");
        return rc;
    }
    *handle = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!*handle)
        return dh_err_set(err, DH_E_BUILD, "the host reference does not load: %s", dlerror());
    *fn = dlsym(*handle, sym);
    if (!*fn) {
        dlclose(*handle);
        return dh_err_set(err, DH_E_BUILD, "the host reference has no function %s", sym);
    }
    return 0;
}

static const char *ctype(enum dh_ktype t)
{
    switch (t) {
    case DH_T_U8: return "unsigned char";
    case DH_T_U16: return "unsigned short";
    case DH_T_I32: return "int";
    case DH_T_U32: return "unsigned";
    case DH_T_F32: return "float";
    case DH_T_I64: return "long";
    case DH_T_F64: return "double";
    }
    return "void";
}

int dh_hostref_entry(const char *source, const char *defines, const char *entry,
                     const struct dh_hostref_arg *args, int n_args, long items, int wg,
                     void *const *bufs, struct dh_err *err)
{
    char dir[] = "/tmp/dh-hostref-XXXXXX";
    if (!mkdtemp(dir))
        return dh_err_set(err, DH_E_IO, "cannot make a temporary folder: %s", strerror(errno));
    /* the wrapper: every item in order, its ids set, the entry called */
    size_t cap = 4096 + (size_t)n_args * 64;
    char *wrap = malloc(cap);
    if (!wrap) {
        cleanup(dir);
        return dh_err_set(err, DH_E_RESOURCES, "out of memory");
    }
    size_t o = (size_t)snprintf(wrap, cap,
        "\nvoid dh__host_call(void *const *b, long items)\n{\n"
        "    for (long i = 0; i < items; i++) {\n"
        "        dh__host_gid = i;\n        dh__host_lid = i %% DH_WG;\n"
        "        dh__host_grp = i / DH_WG;\n        %s(", entry);
    for (int k = 0; k < n_args; k++) {
        const struct dh_hostref_arg *a = &args[k];
        if (a->is_buf)
            o += (size_t)snprintf(wrap + o, cap - o, "%s(%s *)b[%d]", k ? ", " : "",
                                  ctype(a->type), a->buf);
        else if (a->is_float)
            o += (size_t)snprintf(wrap + o, cap - o, "%s%.9gf", k ? ", " : "", a->value);
        else
            o += (size_t)snprintf(wrap + o, cap - o, "%s%.0f", k ? ", " : "", a->value);
    }
    snprintf(wrap + o, cap - o, ");\n    }\n}\n");
    char hdr[4200], src[4200], wgdef[64];
    snprintf(hdr, sizeof hdr, "%s/dialect.h", dir);
    snprintf(src, sizeof src, "%s/ref.c", dir);
    snprintf(wgdef, sizeof wgdef, "-DDH_WG=%d", wg);
    int rc = 0;
    if (write_file(hdr, dh_src_lib_dialect, NULL) || write_file(src, source, wrap))
        rc = dh_err_set(err, DH_E_IO, "cannot write the host reference into %s", dir);
    free(wrap);
    /* -D words of the tunables, split on spaces (no shell) */
    char defs[2048], *extra[80];
    int ne = 0;
    extra[ne++] = "-DDH_HOST_C=1";
    extra[ne++] = wgdef;
    extra[ne++] = "-DDH_WAVE=32";
    extra[ne++] = "-include";
    extra[ne++] = hdr;
    snprintf(defs, sizeof defs, "%s", defines ? defines : "");
    for (char *t = strtok(defs, " "); t && ne < 78; t = strtok(NULL, " "))
        extra[ne++] = t;
    void *h = NULL, *fn = NULL;
    if (!rc)
        rc = build_and_load(dir, extra, ne, src, "dh__host_call", &h, &fn, err);
    if (!rc) {
        ((void (*)(void *const *, long))fn)(bufs, items);
        dlclose(h);
    }
    cleanup(dir);
    return rc;
}

int dh_hostref_cfile(const char *path, const char *function, void *const *bufs,
                     const long *counts, long items, struct dh_err *err)
{
    if (access(path, R_OK))
        return dh_err_set(err, DH_E_IO, "cannot read the reference C file %s: %s", path,
                          strerror(errno));
    char dir[] = "/tmp/dh-hostref-XXXXXX";
    if (!mkdtemp(dir))
        return dh_err_set(err, DH_E_IO, "cannot make a temporary folder: %s", strerror(errno));
    void *h = NULL, *fn = NULL;
    int rc = build_and_load(dir, NULL, 0, path, function, &h, &fn, err);
    if (!rc) {
        ((void (*)(void *const *, const long *, long))fn)(bufs, counts, items);
        dlclose(h);
    }
    cleanup(dir);
    return rc;
}
