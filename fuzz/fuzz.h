/* fuzz.h — what the fuzz targets share: a private folder in memory-backed
 * storage and writing an input there. Each target is a libFuzzer entry
 * point built with ASan + UBSan (`make fuzz`, docs/development/reliability.md). */
#ifndef DH_FUZZ_H
#define DH_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* a folder of this process's own, made once */
static inline const char *fuzz_dir(void)
{
    static char dir[64];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s/dh-fuzz-XXXXXX",
                 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
        if (!mkdtemp(dir))
            abort();
    }
    return dir;
}

/* dir/name holding data; the path (static) */
static inline const char *fuzz_file(const char *name, const void *data, size_t len)
{
    static char path[2][128];
    static int k;
    k ^= 1;
    snprintf(path[k], sizeof path[k], "%s/%s", fuzz_dir(), name);
    FILE *f = fopen(path[k], "wb");
    if (!f || (len && fwrite(data, 1, len, f) != len))
        abort();
    fclose(f);
    return path[k];
}

/* the input as a NUL-terminated string (malloc'd; NULL out of memory) */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text) {
        memcpy(text, data, size);
        text[size] = 0;
    }
    return text;
}

/* a file's whole text, NUL-terminated (malloc'd; its length in *len), or
 * NULL */
static inline char *fuzz_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, r;
    char *b = malloc(cap);
    while (b && (r = fread(b + n, 1, cap - n - 1, f)) > 0)
        if ((n += r) + 1 == cap) {
            char *g = realloc(b, cap *= 2);
            if (!g)
                free(b);
            b = g;
        }
    fclose(f);
    if (b)
        b[n] = 0;
    *len = n;
    return b;
}

/* a finding: print why and stop (libFuzzer saves the input) */
#define FUZZ_CHECK(cond, ...)                       \
    do {                                            \
        if (!(cond)) {                              \
            fprintf(stderr, "oracle: " __VA_ARGS__); \
            fprintf(stderr, "\n");                  \
            abort();                                \
        }                                           \
    } while (0)

#endif
