/* baseline.c — device/driver fingerprints and the baseline store
 * (baseline.h). */
#include "baseline.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../backends/cache.h"
#include "load.h"
#include "../support/fs.h"

const char *dh_baseline_dir(const char *dir)
{
    if (dir && dir[0])
        return dir;
    const char *e = getenv("DH_BASELINE_DIR");
    return e && e[0] ? e : DH_BASELINE_DIR_DEFAULT;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int fingerprint(const struct dh_resultfile *f, int with_driver, char fp[17], char *desc,
                       size_t desc_len, struct dh_err *err);

int dh_baseline_fingerprint(const struct dh_resultfile *f, char fp[17], char *desc,
                            size_t desc_len, struct dh_err *err)
{
    return fingerprint(f, 1, fp, desc, desc_len, err);
}

/* with_driver = 0: the same devices under any driver (for dh_baseline_find). */
static int fingerprint(const struct dh_resultfile *f, int with_driver, char fp[17], char *desc,
                       size_t desc_len, struct dh_err *err)
{
    char line[DH_MAX_DEVICES][520];
    char *v[DH_MAX_DEVICES];
    int k = 0;
    for (int i = 0; i < f->devs.n && k < DH_MAX_DEVICES; i++) {
        snprintf(line[k], sizeof line[k], "%s\t%s\t%s", f->devs.d[i].backend,
                 f->devs.d[i].info.name, with_driver ? f->devs.d[i].info.driver : "");
        int dup = 0;     /* a merged file may list one device twice */
        for (int j = 0; j < k && !dup; j++)
            dup = !strcmp(v[j], line[k]);
        if (!dup) {
            v[k] = line[k];
            k++;
        }
    }
    if (!k)
        return dh_err_set(err, DH_E_DATA, "the results file names no device: nothing to "
                          "key a baseline on");
    qsort(v, (size_t)k, sizeof *v, cmp_str);
    uint64_t h = DH_FNV_OFFSET;
    size_t o = 0;
    if (desc && desc_len)
        desc[0] = 0;
    for (int i = 0; i < k; i++) {
        h = dh_fnv1a64(v[i], strlen(v[i]), h);
        h = dh_fnv1a64("\n", 1, h);
        if (desc && o < desc_len) {
            char b[520];
            snprintf(b, sizeof b, "%s", v[i]);
            char *t1 = strchr(b, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
            if (t1 && t2) {
                *t1 = *t2 = 0;
                o += (size_t)snprintf(desc + o, desc_len - o, "%s%s: %s (driver %s)",
                                      i ? "; " : "", b, t1 + 1, t2[1] ? t2 + 1 : "unknown");
            }
        }
    }
    snprintf(fp, 17, "%016llx", (unsigned long long)h);
    return 0;
}

void dh_baseline_path(const char *dir, const char *fp, char *out, size_t len)
{
    snprintf(out, len, "%s/%s.xml", dir, fp);
}

int dh_baseline_save(const char *dir, const char *results_path,
                     const struct dh_resultfile *f, char *saved, size_t saved_len,
                     struct dh_err *err)
{
    char fp[17];
    int rc = dh_baseline_fingerprint(f, fp, NULL, 0, err);
    if (rc)
        return rc;
    if (dh_mkdir_p(dir))
        return dh_err_set(err, DH_E_IO, "cannot create the baseline folder %s: %s (choose "
                          "another with --dir)", dir, strerror(errno));
    char path[4200], tmp[4300];
    dh_baseline_path(dir, fp, path, sizeof path);
    char why[4400];
    if (dh_replace_ok(path, why, sizeof why))
        return dh_err_set(err, DH_E_IO, "cannot save the baseline: %s", why);
    FILE *in = fopen(results_path, "rb");
    if (!in)
        return dh_err_set(err, DH_E_IO, "cannot read %s: %s", results_path, strerror(errno));
    FILE *out = dh_tmp_fopen(path, tmp, sizeof tmp);
    if (!out) {
        fclose(in);
        return dh_err_set(err, DH_E_IO, "cannot write %s.tmp.*: %s", path, strerror(errno));
    }
    char buf[65536];
    size_t n;
    int bad = 0;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            bad = 1;
    bad |= ferror(in);
    fclose(in);
    bad |= fflush(out) != 0 || fsync(fileno(out)) != 0;
    bad |= fclose(out) != 0;
    if (bad || rename(tmp, path)) {
        int e = errno;
        unlink(tmp);
        return dh_err_set(err, DH_E_IO, "cannot write the baseline %s: %s", path, strerror(e));
    }
    snprintf(saved, saved_len, "%s", path);
    return 0;
}

int dh_baseline_find(const char *dir, const struct dh_resultfile *f, char *path, size_t len,
                     int *exact, struct dh_err *err)
{
    char fp[17], want[17];
    int rc = dh_baseline_fingerprint(f, fp, NULL, 0, err);
    if (rc || (rc = fingerprint(f, 0, want, NULL, 0, err)))
        return rc;
    dh_baseline_path(dir, fp, path, len);
    *exact = 1;
    if (!access(path, R_OK))
        return 0;
    /* the same devices under another driver: the most recent such baseline */
    *exact = 0;
    DIR *d = opendir(dir);
    if (!d)
        return 1;
    static struct dh_resultfile b;
    char best_when[40] = "";
    int found = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l != 20 || strcmp(de->d_name + 16, ".xml"))
            continue;
        char p[4200], other[17];
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        struct dh_err e = {0};
        if (dh_results_load(p, &b, &e))
            continue;      /* a broken file here is not this comparison's problem */
        const char *when = b.env.updated[0] ? b.env.updated : b.env.started;
        if (!fingerprint(&b, 0, other, NULL, 0, &e) && !strcmp(other, want)
                && strcmp(when, best_when) >= 0) {
            snprintf(best_when, sizeof best_when, "%s", when);
            snprintf(path, len, "%s", p);
            found = 1;
        }
        dh_resultfile_free(&b);
    }
    closedir(d);
    return found ? 0 : 1;
}
