/* sasscost.c — see sasscost.h: the compile (backends/offline.h), the
 * disassembler run as a child process, the mapping (sass.c). */
#include "sasscost.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../backends/cache.h"
#include "../../backends/offline.h"

void dh_sass_costs_free(struct dh_sass_costs *c)
{
    free(c->b);
    memset(c, 0, sizeof *c);
}

int dh_sass_costs_listing(const char *listing, const char *source, const char *options,
                          const char *kernel, int n_blocks, struct dh_sass_costs *out,
                          struct dh_err *err)
{
    memset(out, 0, sizeof *out);
    struct dh_sass s;
    struct dh_bb_markers m;
    int rc = dh_sass_load(listing, source, options, &s, &m, err);
    if (rc)
        return rc;
    int f = -1;
    if (kernel) {
        f = dh_sass_func(&s, kernel);
    } else {
        for (int i = 0; i < s.n_funcs; i++) {
            size_t n = strlen(s.funcs[i]);
            if (n >= 9 && !strcmp(s.funcs[i] + n - 9, "_baseline")) {
                if (f >= 0) {
                    f = -2;
                    break;
                }
                f = i;
            }
        }
        /* a baseline build holds the one kernel, whatever its name
         * (darm's bt_base, pc_base, nq_base) */
        if (f == -1 && s.n_funcs == 1)
            f = 0;
    }
    if (f < 0) {
        char names[512] = "";
        for (int i = 0; i < s.n_funcs; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                     i ? ", " : "", s.funcs[i]);
        rc = dh_err_set(err, DH_E_USAGE, "%s in the compiled code: choose --kernel from %s",
                        kernel ? "no such kernel" : f == -2 ? "several *_baseline kernels"
                                                            : "no *_baseline kernel", names);
    } else if (!(out->b = calloc((size_t)(n_blocks > 0 ? n_blocks : 1), sizeof *out->b))) {
        rc = dh_err_set(err, DH_E_RESOURCES, "out of host memory");
    } else {
        out->n_blocks = n_blocks;
        snprintf(out->kernel, sizeof out->kernel, "%s", s.funcs[f]);
        dh_sass_blocks(&s, f, &m, n_blocks, out->b, &out->unmarked, &out->shared);
        for (int i = 0; i < s.n; i++)
            out->total += s.v[i].func == f;
        /* a listing of another source maps nothing: say so, not zeros */
        int mapped = out->shared;
        for (int b = 0; b < n_blocks; b++)
            mapped += out->b[b].insts;
        if (!mapped && out->total > 0)
            rc = dh_err_set(err, DH_E_DATA, "none of kernel %s's %d instructions lies in a "
                            "marked region of this source: is the listing of this benchmark "
                            "and build?", out->kernel, out->total);
        out->unresolved = m.unresolved;
        snprintf(out->first_unresolved, sizeof out->first_unresolved, "%s", m.first_unresolved);
    }
    dh_sass_free(&s);
    dh_bb_markers_free(&m);
    if (rc)
        dh_sass_costs_free(out);        /* an error leaves nothing to free */
    return rc;
}

/* Run argv with stdout into *text (malloc'd) and stderr's first line into
 * why. The exit status, or -1 when it could not start. */
static int run_capture(char *const argv[], char **text, char *why, size_t why_len)
{
    int out[2], errp[2];
    *text = NULL;
    if (pipe(out))
        return -1;
    if (pipe(errp)) {
        close(out[0]);
        close(out[1]);
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(out[1], 1);
        dup2(errp[1], 2);
        close(out[0]);
        close(errp[0]);
        execvp(argv[0], argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(out[1]);
    close(errp[1]);
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (buf && n + 4096 > cap) {
            char *v = realloc(buf, cap * 2);
            if (!v) {
                free(buf);
                buf = NULL;
            } else {
                buf = v;
                cap *= 2;
            }
        }
        char sink[4096];
        ssize_t r = buf ? read(out[0], buf + n, cap - n - 1) : read(out[0], sink, sizeof sink);
        if (r <= 0)
            break;
        if (buf)
            n += (size_t)r;
    }
    char eb[1024];
    ssize_t en = read(errp[0], eb, sizeof eb - 1);
    eb[en > 0 ? en : 0] = 0;
    char sink[4096];
    while (read(errp[0], sink, sizeof sink) > 0) {
    }
    close(out[0]);
    close(errp[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    snprintf(why, why_len, "%.*s", (int)strcspn(eb, "\n"), eb);
    if (buf)
        buf[n] = 0;
    *text = buf;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The disassembler's identity for a cache key: the file it resolves to,
 * its size and modification time. 0, or -1 where it is not found. */
static int disasm_ident(const char *nd, char *buf, size_t len)
{
    char path[4096] = "";
    struct stat st;
    if (strchr(nd, '/')) {
        snprintf(path, sizeof path, "%s", nd);
    } else {
        const char *p = getenv("PATH");
        for (; p;) {                            /* as execvp: an empty entry is "." */
            const char *e = strchr(p, ':');
            size_t l = e ? (size_t)(e - p) : strlen(p);
            snprintf(path, sizeof path, "%.*s/%s", l ? (int)l : 1, l ? p : ".", nd);
            if (!stat(path, &st) && S_ISREG(st.st_mode))
                break;
            path[0] = 0;
            p = e ? e + 1 : NULL;
        }
    }
    if (!path[0] || stat(path, &st) || !S_ISREG(st.st_mode))
        return -1;
    snprintf(buf, len, "%s %lld %lld.%09ld", path, (long long)st.st_size,
             (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    return 0;
}

/* Listings are cached with the programs (backends/cache.h): a header
 * line with the body's hash and length, then the body. An entry whose
 * header or hash does not match is not used (and is overwritten). */
#define LISTING_MAGIC "divharness sass listing 1"

static char *listing_load(const char *key)
{
    void *data = NULL;
    size_t len = 0;
    if (dh_cache_load(key, &data, &len))
        return NULL;
    char *t = data, *nl = memchr(t, '\n', len);
    unsigned long long h = 0;
    size_t n = 0;
    char magic[64], head[201];
    if (nl && nl - t <= 200) {                  /* the header, terminated (the data are not) */
        memcpy(head, t, (size_t)(nl - t));
        head[nl - t] = 0;
    }
    if (!nl || nl - t > 200 || sscanf(head, "%63[^:]: %llx %zu", magic, &h, &n) != 3 ||
        strcmp(magic, LISTING_MAGIC) || n != len - (size_t)(nl + 1 - t) ||
        dh_fnv1a64(nl + 1, n, DH_FNV_OFFSET) != h) {
        free(data);
        return NULL;
    }
    char *body = malloc(n + 1);
    if (body) {
        memcpy(body, nl + 1, n);
        body[n] = 0;
    }
    free(data);
    return body;
}

static void listing_store(const char *key, const char *listing)
{
    size_t n = strlen(listing);
    char head[128];
    int h = snprintf(head, sizeof head, "%s: %016llx %zu\n", LISTING_MAGIC,
                     (unsigned long long)dh_fnv1a64(listing, n, DH_FNV_OFFSET), n);
    char *buf = malloc((size_t)h + n);
    if (!buf)
        return;
    memcpy(buf, head, (size_t)h);
    memcpy(buf + h, listing, n);
    dh_cache_store(key, buf, (size_t)h + n);
    free(buf);
}

/* The listing of a fresh compile and disassembly: *listing malloc'd. */
static int listing_fresh(int cc, const char *source, const char *options, const char *nd,
                         char **listing, char *compiler, size_t compiler_len,
                         struct dh_err *err)
{
    *listing = NULL;
    void *img = NULL;
    size_t size = 0;
    int rc = dh_offline_cubin(cc, source, options, &img, &size, compiler, compiler_len, err);
    if (rc)
        return rc;
    const char *tmp = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/dh-sass-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) {
        free(img);
        return dh_err_set(err, DH_E_IO, "cannot create a temporary file in %s: %s",
                          tmp && *tmp ? tmp : "/tmp", strerror(errno));
    }
    int wrote = write(fd, img, size) == (ssize_t)size;
    close(fd);
    free(img);
    if (!wrote) {
        unlink(path);
        return dh_err_set(err, DH_E_IO, "cannot write the CUBIN to %s", path);
    }
    char *argv[] = {(char *)nd, "-c", "-gi", path, NULL};
    char why[512] = "";
    int st = run_capture(argv, listing, why, sizeof why);
    unlink(path);
    if (st != 0) {
        free(*listing);
        *listing = NULL;
        return dh_err_set(err, DH_E_UNAVAILABLE,
                          "%s could not read the %s CUBIN (%s): it must be at least as new as "
                          "NVRTC; install one (python3 -m pip install --target DIR "
                          "nvidia-cuda-nvdisasm) and set DH_NVDISASM=DIR/nvidia/cu13/bin/nvdisasm",
                          nd, compiler, why[0] ? why : st == 127 ? "not found" : "failed");
    }
    return 0;
}

static const char *nvdisasm_path(void)
{
    const char *nd = getenv("DH_NVDISASM");
    return nd && *nd ? nd : "nvdisasm";
}

/* The program-cache key of a listing ("" when the compiler or the
 * disassembler cannot be identified: no caching then), and the
 * compiler's identity in comp. */
static void listing_key(int cc, const char *source, const char *options, const char *nd,
                        char key[33], char *comp, size_t comp_len)
{
    char dis[4200], arch[32];
    struct dh_err e0 = {0};
    key[0] = 0;
    if (!dh_offline_compiler(comp, comp_len, &e0) && !disasm_ident(nd, dis, sizeof dis)) {
        char ident[4800];
        snprintf(ident, sizeof ident, "%s | %s", comp, dis);
        snprintf(arch, sizeof arch, "sm_%d", cc);
        dh_cache_key(key, "sass-listing", arch, ident, source, options ? options : "");
    }
}

int dh_sass_listing(int cc, const char *source, const char *options, char **listing,
                    struct dh_err *err)
{
    const char *nd = nvdisasm_path();
    char comp[512], key[33], compiler[64] = "";
    listing_key(cc, source, options, nd, key, comp, sizeof comp);
    if (key[0] && (*listing = listing_load(key)))
        return 0;
    int rc = listing_fresh(cc, source, options, nd, listing, compiler, sizeof compiler, err);
    if (!rc && key[0])
        listing_store(key, *listing);
    return rc;
}

int dh_sass_costs_build(int cc, const char *source, const char *options, const char *kernel,
                        int n_blocks, struct dh_sass_costs *out, struct dh_err *err)
{
    memset(out, 0, sizeof *out);
    const char *nd = nvdisasm_path();
    /* the listing of the same source, options, arch, compiler and
     * disassembler, when the cache has it */
    char comp[512], key[33];
    listing_key(cc, source, options, nd, key, comp, sizeof comp);
    if (key[0]) {
        char *cached = listing_load(key);
        if (cached) {
            struct dh_err e1 = {0};
            int rc = dh_sass_costs_listing(cached, source, options, kernel, n_blocks, out, &e1);
            free(cached);
            if (!rc) {
                /* "NVRTC 13.0 /path": the version, as a fresh build says it */
                char *sp = strchr(comp + 6, ' ');
                snprintf(out->compiler, sizeof out->compiler, "%.*s",
                         sp ? (int)(sp - comp) : (int)strlen(comp), comp);
                snprintf(out->disasm, sizeof out->disasm, "%s", nd);
                out->cached = 1;
                return 0;
            }
            memset(out, 0, sizeof *out);
        }
    }
    char *listing = NULL, compiler[64] = "";
    int rc = listing_fresh(cc, source, options, nd, &listing, compiler, sizeof compiler, err);
    if (rc)
        return rc;
    rc = dh_sass_costs_listing(listing, source, options, kernel, n_blocks, out, err);
    if (!rc && key[0])
        listing_store(key, listing);
    free(listing);
    if (!rc) {
        snprintf(out->compiler, sizeof out->compiler, "%s", compiler);
        snprintf(out->disasm, sizeof out->disasm, "%s", nd);
    }
    return rc;
}
