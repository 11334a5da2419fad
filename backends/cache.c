/* cache.c — the compiled-program cache (see cache.h). */
#include "cache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

uint64_t dh_fnv1a64(const void *data, size_t len, uint64_t h)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static uint64_t field(uint64_t h, const char *s)
{
    s = s ? s : "";
    h = dh_fnv1a64(s, strlen(s), h);
    return dh_fnv1a64("\x1f", 1, h);     /* separator: "ab"+"c" != "a"+"bc" */
}

void dh_cache_key(char key[33], const char *backend, const char *device,
                  const char *driver, const char *source, const char *options)
{
    uint64_t a = DH_FNV_OFFSET, b = 0x6c62272e07bb0142ULL;
    const char *parts[] = {backend, device, driver, source, options};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        a = field(a, parts[i]);
        b = field(b ^ (a >> 7), parts[i]);
    }
    snprintf(key, 33, "%016llx%016llx", (unsigned long long)a,
             (unsigned long long)b);
}

const char *dh_cache_dir(void)
{
    static char dir[4096];
    const char *env = getenv("DH_CACHE_DIR");
    if (env && *env) {
        snprintf(dir, sizeof dir, "%s/programs", env);
        return dir;
    }
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (xdg && *xdg)
        snprintf(dir, sizeof dir, "%s/divharness/programs", xdg);
    else
        snprintf(dir, sizeof dir, "%s/.cache/divharness/programs",
                 home && *home ? home : "/tmp");
    return dir;
}

static int disabled(void)
{
    const char *e = getenv("DH_NO_CACHE");
    return e && *e && strcmp(e, "0") != 0;
}

static int mkdirs(const char *path)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            if (mkdir(tmp, 0755) && errno != EEXIST)
                return -1;
            *p = '/';
        }
    }
    if (mkdir(tmp, 0755) && errno != EEXIST)
        return -1;
    return 0;
}

int dh_cache_load(const char *key, void **data, size_t *len)
{
    if (disabled())
        return -1;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.bin", dh_cache_dir(), key);
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    int rc = -1;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n > 0 && fseek(f, 0, SEEK_SET) == 0) {
            void *buf = malloc((size_t)n);
            if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n) {
                *data = buf;
                *len = (size_t)n;
                rc = 0;
            } else {
                free(buf);
            }
        }
    }
    fclose(f);
    return rc;
}

void dh_cache_store(const char *key, const void *data, size_t len)
{
    if (disabled() || !data || !len)
        return;
    const char *dir = dh_cache_dir();
    if (mkdirs(dir))
        return;
    char path[4200], tmp[4300];
    snprintf(path, sizeof path, "%s/%s.bin", dir, key);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return;
    int ok = fwrite(data, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path))
        unlink(tmp);
}
