/* cmd_cache.c — `harness cache show|clear|verify`: the workload cache
 * (harness/run/wcache.h) listed, emptied or checked; and the cache options
 * of `harness run` (--cache, --no-cache, --cache-limit). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../run/wcache.h"
#include "../support/texttable.h"
#include "cli.h"
#include "../../backends/cache.h"

static void cache_usage(FILE *f)
{
    fprintf(f,
        "usage: harness cache [show|clear|verify] [--cache DIR] [--cache-limit SIZE]\n"
        "  show    every entry (benchmark, size, workload, what it holds, bytes, last\n"
        "          use), the total and the limit (the default)\n"
        "  clear   remove every entry\n"
        "  verify  read every entry and check its checksum; a bad one is named and\n"
        "          removed (exit 3 when one was found)\n"
        "  --cache DIR         the cache folder (default $DH_CACHE, else\n"
        "                      ${XDG_CACHE_HOME:-~/.cache}/divharness/workloads)\n"
        "  --cache-limit SIZE  the limit shown (default $DH_CACHE_LIMIT, else 8G)\n");
}

static void human(uint64_t b, char *out, size_t len)
{
    if (b >= (1ULL << 30))
        snprintf(out, len, "%.2f GiB", (double)b / (1ULL << 30));
    else if (b >= (1ULL << 20))
        snprintf(out, len, "%.1f MiB", (double)b / (1ULL << 20));
    else if (b >= 1024)
        snprintf(out, len, "%.1f KiB", (double)b / 1024);
    else
        snprintf(out, len, "%llu B", (unsigned long long)b);
}

struct listing {
    struct dh_texttable t;
    uint64_t total;
    int n, bad;
    int verify;
    const char *dir;
};

static void one(void *ctx, const struct dh_store_info *in)
{
    struct listing *l = ctx;
    l->n++;
    l->total += in->file_bytes;
    char bench[128] = "?", size[16] = "?", wl[400] = "?", what[300] = "?", bytes[32], when[32];
    if (in->ok) {
        int off = 0;
        if (sscanf(in->label, "%127s %15s %399s %n", bench, size, wl, &off) == 3 && off > 0)
            snprintf(what, sizeof what, "%s", in->label + off);
    } else {
        snprintf(what, sizeof what, "bad: %s", in->why);
    }
    human(in->file_bytes, bytes, sizeof bytes);
    struct tm tm;
    localtime_r(&in->last_use, &tm);
    strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
    const char *cells[] = {bench, size, wl, what, bytes, when};
    dh_tt_row(&l->t, cells, NULL);
    if (!in->ok) {
        l->bad++;
        if (l->verify)
            dh_store_remove(l->dir, in->name);
    }
}

/* the folder and limit of --cache / --cache-limit or their defaults; 0,
 * or a usage exit code */
static int where(const char *cmd, const char *dir_opt, const char *limit_opt, char *dir,
                 size_t len, uint64_t *limit)
{
    char why[256];
    if (dir_opt)
        snprintf(dir, len, "%s", dir_opt);
    else
        dh_wcache_default_dir(dir, len);
    if (limit_opt ? dh_wcache_parse_limit(limit_opt, limit, why, sizeof why)
                  : dh_wcache_default_limit(limit, why, sizeof why)) {
        fprintf(stderr, "harness %s: %s\n", cmd, why);
        return DH_EXIT_USAGE;
    }
    return 0;
}

int dh_cmd_cache(int argc, char **argv)
{
    const char *action = "show", *dir_opt = NULL, *limit_opt = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            cache_usage(stdout);
            return 0;
        } else if ((!strcmp(a, "--cache") || !strcmp(a, "--cache-limit")) && i + 1 < argc) {
            *(!strcmp(a, "--cache") ? &dir_opt : &limit_opt) = argv[++i];
        } else if (!strncmp(a, "--cache=", 8)) {
            dir_opt = a + 8;
        } else if (!strncmp(a, "--cache-limit=", 14)) {
            limit_opt = a + 14;
        } else if (a[0] != '-' && (!strcmp(a, "show") || !strcmp(a, "clear")
                                   || !strcmp(a, "verify"))) {
            action = a;
        } else {
            fprintf(stderr, "harness cache: unknown %s '%s': choose show, clear or verify, "
                    "with --cache DIR and --cache-limit SIZE\n",
                    a[0] == '-' ? "option (or missing value)" : "action", a);
            return DH_EXIT_USAGE;
        }
    }
    char dir[4096];
    uint64_t limit;
    int rc = where("cache", dir_opt, limit_opt, dir, sizeof dir, &limit);
    if (rc)
        return rc;
    struct dh_err e = {0};
    char tot[32], lim[32];
    if (!strcmp(action, "clear")) {
        uint64_t bytes;
        int n = dh_store_clear(dir, &bytes, &e);
        if (n < 0) {
            fprintf(stderr, "harness cache: %s\n", e.msg);
            return DH_EXIT_INFRA;
        }
        human(bytes, tot, sizeof tot);
        printf("removed %d entr%s (%s) from %s\n", n, n == 1 ? "y" : "ies", tot, dir);
        return 0;
    }
    static const char *const heads[] = {"benchmark", "size", "workload", "holds", ">bytes",
                                        "last use"};
    struct listing l = {.verify = !strcmp(action, "verify"), .dir = dir};
    dh_tt_init(&l.t, 6, heads);
    int n = dh_store_list(dir, l.verify, one, &l, &e);
    if (n < 0) {
        dh_tt_free(&l.t);
        fprintf(stderr, "harness cache: %s\n", e.msg);
        return DH_EXIT_INFRA;
    }
    if (n)
        dh_tt_print(&l.t, stdout);
    dh_tt_free(&l.t);
    human(l.total, tot, sizeof tot);
    human(limit, lim, sizeof lim);
    if (limit)
        printf("%d entr%s, %s of a %s limit, in %s\n", n, n == 1 ? "y" : "ies", tot, lim, dir);
    else                                /* --cache-limit 0: no limit (as the cache reads it) */
        printf("%d entr%s, %s (no limit), in %s\n", n, n == 1 ? "y" : "ies", tot, dir);
    if (l.verify) {
        printf("verified: %d good, %d bad%s\n", n - l.bad, l.bad, l.bad ? " (removed)" : "");
        /* the compiled programs too: a bad entry is removed and rebuilt by
         * the next run that needs it */
        int pg = 0, pb = 0;
        char first[4400];
        if (dh_cache_verify(1, &pg, &pb, first, sizeof first))
            fprintf(stderr, "harness cache: cannot read the program cache %s: %s\n",
                    dh_cache_dir(), strerror(errno));
        printf("programs in %s: %d good, %d bad", dh_cache_dir(), pg, pb);
        if (pb)
            printf(" (removed, rebuilt when next needed; the first: %s)", first);
        printf("\n");
        return l.bad || pb ? DH_EXIT_INFRA : 0;
    }
    return 0;
}

struct dh_wcache *dh_cli_wcache(const char *cmd, int off, const char *dir_opt,
                                const char *limit_opt, int *usage_rc)
{
    static struct dh_wcache wc;
    char dir[4096];
    uint64_t limit;
    *usage_rc = 0;
    if ((*usage_rc = where(cmd, dir_opt, limit_opt, dir, sizeof dir, &limit)))
        return NULL;
    if (off)
        return NULL;
    struct dh_err e = {0};
    if (dh_wcache_open(&wc, dir, limit, &e)) {
        fprintf(stderr, "harness %s: workload cache off: %s\n", cmd, e.msg);
        return NULL;
    }
    return &wc;
}
