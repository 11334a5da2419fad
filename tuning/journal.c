/* journal.c — the tuning journal: one line per finished evaluation.
 *
 * File: $DH_JOURNAL, else ${XDG_CACHE_HOME:-~/.cache}/divharness/journal.tsv.
 * Line: "dh1 <eval key> <case key> <tunables> <status> <ms>" (tabs).
 * Each line is written with one write() on an O_APPEND descriptor and
 * flushed with fdatasync, so a killed run loses at most the evaluation in
 * flight and never corrupts earlier lines; a torn or foreign line is
 * skipped on load with a warning and the rest kept.
 *
 * A tuned-configurations file (`harness run --save-tuned FILE`, read by
 * --tuned FILE) is a journal of one line per case, its best evaluation,
 * each after a "# <case id>" line that names it (lines beginning with #
 * are comments); written whole to a temporary and renamed over FILE. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../backends/cache.h"
#include "../harness/run/source.h"
#include "../harness/support/fs.h"
#include "../suites/suite.h"
#include "tuning.h"

const char *dh_journal_default_path(void)
{
    static char p[4096];
    const char *env = getenv("DH_JOURNAL");
    if (env && *env)
        return env;
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg)
        snprintf(p, sizeof p, "%s/divharness/journal.tsv", xdg);
    else
        snprintf(p, sizeof p, "%s/.cache/divharness/journal.tsv", home && *home ? home : "/tmp");
    return p;
}

static int push(struct dh_journal *j, const struct dh_journal_entry *e)
{
    if (j->n == j->cap) {
        int cap = j->cap ? 2 * j->cap : 256;
        struct dh_journal_entry *v = realloc(j->e, (size_t)cap * sizeof *v);
        if (!v)
            return -1;
        j->e = v;
        j->cap = cap;
    }
    j->e[j->n++] = *e;
    return 0;
}

int dh_journal_load(struct dh_journal *j, const char *path, struct dh_err *err)
{
    memset(j, 0, sizeof *j);
    snprintf(j->path, sizeof j->path, "%s", path);
    struct stat sb;
    if (stat(path, &sb))
        return errno == ENOENT ? 0
               : dh_err_set(err, DH_E_IO, "cannot read the tuning journal %s: %s",
                            path, strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return dh_err_set(err, DH_E_IO, "the tuning journal %s is not a regular file: set "
                          "DH_JOURNAL to a file (it is made when missing)", path);
    FILE *f = fopen(path, "r");
    if (!f)
        return dh_err_set(err, DH_E_IO, "cannot read the tuning journal %s: %s",
                          path, strerror(errno));
    char line[512];
    while (fgets(line, sizeof line, f)) {
        struct dh_journal_entry e;
        memset(&e, 0, sizeof e);
        char status[24];
        size_t len = strlen(line);
        int used = -1;
        if (line[0] == '#')
            continue;
        /* the whole line or nothing: a torn line (a killed writer's) never
         * counts, even once a later append ends it */
        if (!len || line[len - 1] != '\n' ||
            sscanf(line, "dh1\t%16s\t%16s\t%95s\t%23s\t%lf%n", e.eval_key, e.case_key,
                   e.tunables, status, &e.ms, &used) != 5 ||
            used != (int)len - 1 || strlen(e.eval_key) != 16 || strlen(e.case_key) != 16 ||
            (e.status = dh_err_from_name(status)) < 0) {
            j->skipped++;
            continue;
        }
        if (push(j, &e)) {
            fclose(f);
            return dh_err_set(err, DH_E_RESOURCES, "out of memory reading %s", path);
        }
    }
    fclose(f);
    if (j->skipped)
        fprintf(stderr, "harness: warning: skipped %d corrupt line%s of the tuning journal %s\n",
                j->skipped, j->skipped == 1 ? "" : "s", path);
    return 0;
}

int dh_journal_append(struct dh_journal *j, const struct dh_journal_entry *e, struct dh_err *err)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", j->path);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = 0;
        for (char *p = dir + 1; *p; p++)
            if (*p == '/') {
                *p = 0;
                mkdir(dir, 0755);
                *p = '/';
            }
        mkdir(dir, 0755);
    }
    char line[512];
    int fd = open(j->path, O_RDWR | O_APPEND | O_CREAT, 0644);
    if (fd < 0)
        return dh_err_set(err, DH_E_IO, "cannot write the tuning journal %s: %s (set "
                          "DH_JOURNAL to a writable file)", j->path, strerror(errno));
    /* a torn last line (a killed writer) must neither swallow this one nor
     * become whole: it is closed with a mark that keeps it unreadable */
    struct stat sb;
    char last = '\n';
    if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
        close(fd);
        return dh_err_set(err, DH_E_IO, "the tuning journal %s is not a regular file: set "
                          "DH_JOURNAL to a file", j->path);
    }
    if (sb.st_size > 0 && pread(fd, &last, 1, sb.st_size - 1) != 1)
        last = '\n';
    int n = snprintf(line, sizeof line, "%sdh1\t%s\t%s\t%s\t%s\t%.9g\n",
                     last == '\n' ? "" : "\t(torn)\n",
                     e->eval_key, e->case_key, e->tunables, dh_err_name(e->status), e->ms);
    int ok = write(fd, line, (size_t)n) == n && fdatasync(fd) == 0;
    int saved = errno;
    close(fd);
    if (!ok)
        return dh_err_set(err, DH_E_IO, "cannot append to the tuning journal %s: %s (is the "
                          "disk full? set DH_JOURNAL to a file elsewhere)", j->path,
                          strerror(saved));
    push(j, e);
    return 0;
}

int dh_tuned_save(const char *path, const struct dh_journal_entry *e, const char *const *ids,
                  int n, const char *header, int *kept, struct dh_err *err)
{
    char why[4400], tmp[4200];
    *kept = 0;
    if (dh_replace_ok(path, why, sizeof why))
        return dh_err_set(err, DH_E_IO, "--save-tuned: %s", why);
    struct dh_journal old;
    int rc = dh_journal_load(&old, path, err);
    if (rc)
        return rc;
    FILE *f = dh_tmp_fopen(path, tmp, sizeof tmp);
    if (!f) {
        dh_journal_free(&old);
        return dh_err_set(err, DH_E_IO, "cannot write %s.tmp.*: %s (choose a writable "
                          "--save-tuned file)", path, strerror(errno));
    }
    fprintf(f, "# divharness tuned configurations: each case's best evaluation, used by\n"
               "# harness run --tuned FILE; %s\n", header);
    /* the file's other cases stay; a case tuned again is replaced */
    for (int i = 0; i < old.n; i++) {
        int again = 0;
        for (int k = 0; k < n && !again; k++)
            again = !strcmp(old.e[i].case_key, e[k].case_key);
        if (again)
            continue;
        fprintf(f, "dh1\t%s\t%s\t%s\t%s\t%.9g\n", old.e[i].eval_key, old.e[i].case_key,
                old.e[i].tunables, dh_err_name(old.e[i].status), old.e[i].ms);
        (*kept)++;
    }
    for (int k = 0; k < n; k++)
        fprintf(f, "# %s\ndh1\t%s\t%s\t%s\t%s\t%.9g\n", ids[k], e[k].eval_key,
                e[k].case_key, e[k].tunables, dh_err_name(e[k].status), e[k].ms);
    dh_journal_free(&old);
    int bad = fflush(f) != 0 || fsync(fileno(f)) != 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path)) {
        int saved = errno;
        unlink(tmp);
        return dh_err_set(err, DH_E_IO, "cannot write %s: %s", path, strerror(saved));
    }
    return 0;
}

const struct dh_journal_entry *dh_journal_find(const struct dh_journal *j, const char *key)
{
    for (int i = j->n - 1; i >= 0; i--)          /* latest wins */
        if (!strcmp(j->e[i].eval_key, key))
            return &j->e[i];
    return NULL;
}

void dh_journal_free(struct dh_journal *j)
{
    free(j->e);
    j->e = NULL;
    j->n = j->cap = 0;
}

void dh_tune_eval_key(const struct dh_case *c, const struct dh_device_info *dev, char key[17])
{
    char *src = dh_source_assemble(c);
    char tun[200], label[300];
    dh_pset_format(&c->params, DH_P_TUNABLE, tun, sizeof tun);
    uint64_t h = DH_FNV_OFFSET;
    const char *fp = c->bench && c->bench->fingerprint ? c->bench->fingerprint : "";
    const char *parts[] = {src ? src : "", c->id, tun, dev ? dev->name : "",
                           dev ? dev->driver : "", dev ? dev->runtime : "", __VERSION__, fp};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        h = dh_fnv1a64(parts[i], strlen(parts[i]), h);
        h = dh_fnv1a64("\x1f", 1, h);
    }
    (void)label;
    free(src);
    snprintf(key, 17, "%016llx", (unsigned long long)h);
}
