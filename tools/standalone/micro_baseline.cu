// micro_baseline.cu — a standalone CUDA program around the micro/branch
// baseline kernel, with its own event loop: the reference against which
// the harness's launch path and timing are checked (it must agree within
// 2%), and a plain target for ncu.
//
// It compiles the very kernel text the harness builds (dialect + kernel,
// same -D options), so only the launch path differs. Build on the GPU
// machine (ci/gpu-check.sh step "standalone" does it):
//   nvcc -O3 -arch=sm_90 $(cat OPTIONS) -o micro_baseline micro_baseline.cu
// where OPTIONS is a `harness run --dump-source` .options file with
// "-D X" written "-DX". The input is the harness's own generator for
// divfrac=1 (splitmix64, seed 1), so ncu sees the same divergence.
//   usage: micro_baseline N_ITEMS [REPS]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "../../suites/lib/dialect.h"
#include "../../suites/micro/branch/branch.k"

#define CHECK(x)                                                                   \
    do {                                                                           \
        cudaError_t e_ = (x);                                                      \
        if (e_ != cudaSuccess) {                                                   \
            fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));               \
            return 3;                                                              \
        }                                                                          \
    } while (0)

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : (1L << 22);
    int reps = argc > 2 ? atoi(argv[2]) : 50;
    const int nkeys = MB_LAYERS == 2 ? MB_P * MB_P : MB_P;
    std::vector<float> x(n);
    std::vector<int> key(n);
    uint64_t st = 0x5eedULL ^ (1ULL << 20);           // seed 1, as the harness
    for (long i = 0; i < n; i++) {
        x[i] = (float)((double)(mix(&st) >> 40) / (double)(1u << 24) * 16.0 - 8.0);
        uint64_t r = mix(&st);
        key[i] = (int)((r >> 32) % (uint64_t)nkeys);
    }
    float *dx, *dy;
    int *dk;
    CHECK(cudaMalloc(&dx, n * 4));
    CHECK(cudaMalloc(&dy, n * 4));
    CHECK(cudaMalloc(&dk, n * 4));
    CHECK(cudaMemcpy(dx, x.data(), n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dk, key.data(), n * 4, cudaMemcpyHostToDevice));
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    for (int w = 0; w < 3; w++)
        mb_baseline<<<n / DH_WG, DH_WG>>>(dx, dk, dy);
    CHECK(cudaDeviceSynchronize());
    std::vector<float> ms(reps);
    for (int r = 0; r < reps; r++) {
        CHECK(cudaEventRecord(a));
        mb_baseline<<<n / DH_WG, DH_WG>>>(dx, dk, dy);
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        CHECK(cudaEventElapsedTime(&ms[r], a, b));
    }
    std::vector<float> s = ms;
    std::sort(s.begin(), s.end());
    double med = reps % 2 ? s[reps / 2] : 0.5 * (s[reps / 2 - 1] + s[reps / 2]);
    printf("standalone mb_baseline: n=%ld wg=%d reps=%d median %.4f ms (min %.4f, max %.4f)\n",
           n, DH_WG, reps, med, s[0], s[reps - 1]);
    return 0;
}
