/* throwaway test driver for backends/cuda */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "backend.h"

extern const struct dh_backend_ops dh_backend_cuda;
static const struct dh_backend_ops *B = &dh_backend_cuda;
static int fails;
#define CHECK(c, ...) do { if (!(c)) { fails++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return NULL; }
    fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
    char *s = malloc(n + 1); if (fread(s, 1, n, f) != (size_t)n) n = 0; s[n] = 0; fclose(f);
    return s;
}

static const char *KERNELS =
"DH_KERNEL void scale(DH_GLOBAL float *x, int n) { int i = dh_gid(); if (i < n) x[i] = dh_fma(x[i], 2.0f, 1.0f); }\n"
"DH_KERNEL void dv(DH_GLOBAL float *a, int it) { int i = dh_gid(); float x = a[i];\n"
"  if (dh_lid() & 1) { for (int k = 0; k < it; k++) x = x * 1.0001f + 0.5f; } else { for (int k = 0; k < it; k++) x = x * 0.9999f - 0.25f; } a[i] = x; }\n"
"DH_KERNEL void un(DH_GLOBAL float *a, int it) { int i = dh_gid(); float x = a[i];\n"
"  if ((dh_lid() / DH_WAVE) & 1) { for (int k = 0; k < it; k++) x = x * 1.0001f + 0.5f; } else { for (int k = 0; k < it; k++) x = x * 0.9999f - 0.25f; } a[i] = x; }\n"
"DH_KERNEL void bad(DH_GLOBAL float *a, unsigned off) { a[dh_gid() + off] = 1.0f; }\n"
"DH_KERNEL void args(DH_GLOBAL int *o, int a, unsigned b, float c) { if (dh_gid() == 0) { o[0] = a; o[1] = (int)b; o[2] = (int)(c * 4.0f); o[3] = DH_WG; o[4] = FOO; } }\n";

int main(int argc, char **argv)
{
    const char *dialect_path = argc > 1 ? argv[1] : "suites/lib/dialect.h";
    int fault_test = argc > 2 && !strcmp(argv[2], "fault");
    char *dialect = slurp(dialect_path);
    if (!dialect) return 2;
    char *src = malloc(strlen(dialect) + strlen(KERNELS) + 2);
    sprintf(src, "%s\n%s", dialect, KERNELS);

    struct dh_err err = {0};
    char why[512] = "";
    int n = -1;
    int rc = B->probe(&n, why, sizeof why, &err);
    printf("probe: rc=%d n=%d why=\"%s\"\n", rc, n, why);
    CHECK(rc == 0, "probe rc");
    if (n <= 0) {
        CHECK(why[0], "no reason");
        struct dh_device *d = NULL;
        rc = B->open(0, &d, &err);
        printf("open without device: rc=%d (%s) %s\n", rc, dh_err_name(rc), err.msg);
        CHECK(rc == -DH_E_UNAVAILABLE, "open should be unavailable");
        printf(fails ? "SOME FAILED (%d)\n" : "ALL OK\n", fails);
        return fails != 0;
    }
    for (int i = 0; i < n; i++) {
        struct dh_device_info in;
        rc = B->describe(i, &in, &err);
        CHECK(rc == 0, "describe: %s", err.msg);
        printf("device %d: name=\"%s\" vendor=%s platform=%s driver=\"%s\" runtime=\"%s\" arch=%s kind=%s warp=%d(src %d) cus=%d max_wg=%d clock=%d MHz global=%llu max_alloc=%llu local=%llu counters=%d\n",
               i, in.name, in.vendor, in.platform, in.driver, in.runtime, in.arch, in.kind, in.warp_width, (int)in.warp_source,
               in.compute_units, in.max_wg, in.clock_mhz, (unsigned long long)in.global_mem_bytes,
               (unsigned long long)in.max_alloc_bytes, (unsigned long long)in.local_mem_bytes, in.has_counters);
    }
    struct dh_device_info info;
    B->describe(0, &info, &err);
    rc = B->describe(n, &info, &err);
    printf("describe(out of range): %d %s\n", rc, err.msg);
    CHECK(rc == -DH_E_USAGE, "describe oob");
    B->describe(0, &info, &err);

    struct dh_device *dev = NULL;
    rc = B->open(0, &dev, &err);
    CHECK(rc == 0, "open: %s", err.msg);
    if (rc) return 1;

    char opts[256];
    snprintf(opts, sizeof opts, "-D DH_WG=256 -D DH_WAVE=%d -DFOO=7 -D BAR=0x1.8p-1f", info.warp_width);
    struct dh_program *prog = NULL, *prog2 = NULL;
    char *log = NULL;
    int cached = -1;
    rc = B->build(dev, src, opts, &prog, &log, &cached, &err);
    printf("build: rc=%d cached=%d %s\n", rc, cached, rc ? err.msg : "");
    if (rc && log) printf("log:\n%s\n", log);
    CHECK(rc == 0, "build");
    free(log); log = NULL;
    if (rc) return 1;
    rc = B->build(dev, src, opts, &prog2, &log, &cached, &err);
    printf("rebuild: rc=%d cached=%d\n", rc, cached);
    CHECK(rc == 0 && cached == 1, "rebuild should hit the cache");
    B->free_program(prog2);

    /* compile error */
    char *badsrc = malloc(strlen(src) + 100);
    sprintf(badsrc, "%s\nDH_KERNEL void broken(DH_GLOBAL float *x) { x[0] = undefined_thing; }\n", src);
    struct dh_program *bp = NULL;
    rc = B->build(dev, badsrc, opts, &bp, &log, &cached, &err);
    printf("broken build: rc=%d (%s) msg=\"%s\" log=%zu bytes\n", rc, dh_err_name(rc), err.msg, log ? strlen(log) : 0);
    CHECK(rc == -DH_E_BUILD && log && strstr(log, "undefined_thing"), "broken build");
    free(log); log = NULL;
    /* missing DH_WG: the dialect's #error */
    rc = B->build(dev, src, "-D DH_WAVE=32", &bp, &log, &cached, &err);
    printf("no DH_WG: rc=%d msg=\"%s\"\n", rc, err.msg);
    CHECK(rc == -DH_E_BUILD, "no DH_WG");
    free(log); log = NULL;

    /* scale */
    const int N = 1000;
    float *h = malloc(N * sizeof *h), *o = malloc(N * sizeof *o);
    for (int i = 0; i < N; i++) h[i] = (float)i * 0.5f;
    struct dh_buffer *buf = NULL;
    rc = B->alloc(dev, N * sizeof(float), &buf, &err);
    CHECK(rc == 0, "alloc: %s", err.msg);
    rc = B->copy(buf, h, N * sizeof(float), DH_TO_DEVICE, &err);
    CHECK(rc == 0, "copy to: %s", err.msg);
    struct dh_arg a[4];
    a[0].kind = DH_ARG_BUFFER; a[0].v.buf = buf;
    a[1].kind = DH_ARG_I32; a[1].v.i32 = N;
    struct dh_launch l = {"scale", 1024, 256, 2, a};
    double ms = -1;
    rc = B->launch(prog, &l, &ms, &err);
    CHECK(rc == 0, "launch: %s", err.msg);
    rc = B->copy(buf, o, N * sizeof(float), DH_TO_HOST, &err);
    CHECK(rc == 0, "copy from: %s", err.msg);
    int bad = 0;
    for (int i = 0; i < N; i++) if (o[i] != fmaf(h[i], 2.0f, 1.0f)) bad++;
    printf("scale: %d wrong of %d, %.4f ms\n", bad, N, ms);
    CHECK(bad == 0, "scale results");

    /* args of every kind + defines */
    struct dh_buffer *ob = NULL;
    B->alloc(dev, 5 * sizeof(int), &ob, &err);
    a[0].v.buf = ob;
    a[1].kind = DH_ARG_I32; a[1].v.i32 = -5;
    a[2].kind = DH_ARG_U32; a[2].v.u32 = 77;
    a[3].kind = DH_ARG_F32; a[3].v.f32 = 2.25f;
    struct dh_launch la = {"args", 256, 256, 4, a};
    rc = B->launch(prog, &la, NULL, &err);
    CHECK(rc == 0, "args launch: %s", err.msg);
    int oi[5] = {0};
    B->copy(ob, oi, sizeof oi, DH_TO_HOST, &err);
    printf("args: %d %d %d %d %d\n", oi[0], oi[1], oi[2], oi[3], oi[4]);
    CHECK(oi[0] == -5 && oi[1] == 77 && oi[2] == 9 && oi[3] == 256 && oi[4] == 7, "args values");

    /* usage errors */
    struct dh_launch lu = {"scale", 1000, 256, 2, a};
    a[0].v.buf = buf; a[1].kind = DH_ARG_I32; a[1].v.i32 = N;
    rc = B->launch(prog, &lu, &ms, &err);
    printf("global%%local: rc=%d (%s) %s\n", rc, dh_err_name(rc), err.msg);
    CHECK(rc == -DH_E_USAGE, "global %% local");
    struct dh_launch ln = {"nosuch", 256, 256, 2, a};
    rc = B->launch(prog, &ln, &ms, &err);
    printf("no such kernel: rc=%d (%s) %s\n", rc, dh_err_name(rc), err.msg);
    CHECK(rc == -DH_E_USAGE, "no such kernel");
    struct dh_launch lb = {"scale", 2048, 2048, 2, a};
    rc = B->launch(prog, &lb, &ms, &err);
    printf("block 2048: rc=%d (%s) %s\n", rc, dh_err_name(rc), err.msg);
    CHECK(rc == -DH_E_LAUNCH, "block too big");
    struct dh_buffer *huge = NULL;
    rc = B->alloc(dev, (size_t)1 << 50, &huge, &err);
    printf("huge alloc: rc=%d (%s) %s\n", rc, dh_err_name(rc), err.msg);
    CHECK(rc == -DH_E_RESOURCES, "huge alloc");

    /* timing + CFE: divergent vs uniform */
    const int M = 1 << 22;
    struct dh_buffer *big = NULL;
    rc = B->alloc(dev, (size_t)M * 4, &big, &err);
    CHECK(rc == 0, "alloc big: %s", err.msg);
    float *zero = calloc(M, 4);
    B->copy(big, zero, (size_t)M * 4, DH_TO_DEVICE, &err);
    a[0].v.buf = big; a[1].kind = DH_ARG_I32; a[1].v.i32 = 256;
    const char *ks[2] = {"dv", "un"};
    for (int k = 0; k < 2; k++) {
        struct dh_launch lk = {ks[k], (size_t)M, 256, 2, a};
        double t[5];
        for (int r = 0; r < 5; r++) {
            rc = B->launch(prog, &lk, &t[r], &err);
            CHECK(rc == 0, "launch %s: %s", ks[k], err.msg);
        }
        printf("%s: times ms %.4f %.4f %.4f %.4f %.4f\n", ks[k], t[0], t[1], t[2], t[3], t[4]);
        if (B->counters) {
            struct dh_counters c;
            memset(&c, 0, sizeof c);
            rc = B->counters(prog, &lk, &c, &err);
            if (rc)
                printf("%s: counters rc=%d (%s) %s\n", ks[k], rc, dh_err_name(rc), err.msg);
            else
                printf("%s: counters thread_inst=%.0f warp_inst=%.0f warp=%d cfe=%.4f source=%s\n",
                       ks[k], c.thread_inst_pred_on, c.warp_inst_executed, c.warp_width, c.cfe, c.source);
            if (info.has_counters) {
                CHECK(rc == 0, "counters %s", ks[k]);
                if (!rc && k == 0) CHECK(c.cfe > 0.45 && c.cfe < 0.6, "dv cfe");
                if (!rc && k == 1) CHECK(c.cfe > 0.95 && c.cfe <= 1.0001, "un cfe");
            }
        }
    }
    /* counters twice in a row works */
    if (info.has_counters) {
        struct dh_launch lk = {"scale", 1024, 256, 2, a};
        a[1].v.i32 = N;
        struct dh_counters c;
        rc = B->counters(prog, &lk, &c, &err);
        printf("scale counters: rc=%d cfe=%.4f %s\n", rc, c.cfe, rc ? err.msg : "");
        CHECK(rc == 0, "scale counters");
        ms = -1;
        rc = B->launch(prog, &lk, &ms, &err);
        printf("launch after counters: rc=%d %.4f ms\n", rc, ms);
        CHECK(rc == 0, "launch after counters");
    }

    if (fault_test) {
        a[0].v.buf = buf; a[1].kind = DH_ARG_U32; a[1].v.u32 = 1u << 30;
        struct dh_launch lf = {"bad", 256, 256, 2, a};
        rc = B->launch(prog, &lf, &ms, &err);
        printf("fault: rc=%d (%s) %s\n", rc, dh_err_name(rc), err.msg);
        CHECK(rc == -DH_E_LAUNCH, "fault is launch error");
    }

    /* close with live objects, then free orphans */
    B->free_buffer(ob);
    B->close(dev);
    B->free_program(prog);
    B->free_buffer(buf);
    B->free_buffer(big);
    rc = B->launch(prog2 = NULL, &l, &ms, &err);
    CHECK(rc == -DH_E_USAGE, "launch on NULL program");

    /* reopen works after close */
    rc = B->open(0, &dev, &err);
    if (fault_test) {
        printf("reopen after fault: rc=%d %s\n", rc, rc ? err.msg : "");
        printf(fails ? "SOME FAILED (%d)\n" : "ALL OK\n", fails);
        return fails != 0;
    }
    CHECK(rc == 0, "reopen: %s", err.msg);
    if (!rc) {
        rc = B->build(dev, src, opts, &prog, &log, &cached, &err);
        printf("build after reopen: rc=%d cached=%d\n", rc, cached);
        CHECK(rc == 0, "build after reopen: %s", err.msg);
        B->free_program(prog);
        B->close(dev);
    }
    printf(fails ? "SOME FAILED (%d)\n" : "ALL OK\n", fails);
    return fails != 0;
}
