// group_clocks.cu — where a gpu_tdr kernel's work-groups run and when: each
// group's SM (%smid) and start and end (%globaltimer), recorded by a kernel
// that wraps the harness's own kernel body. A probe, not a benchmark: the
// input is random and the outputs are not verified.
//
// kern.cu is `harness emit --out DIR --suite micro --backend cuda --wave 32
// --local 49152 --size medium --param alg=scan_multi --param ipl=I --param
// wg=512 --param paths=P --param layers=1 --ext cu`'s gpu_tdr file with
// `DH_KERNEL void mb_gpu_tdr(` made `__device__ void mb_gpu_tdr(`. Build:
//   nvcc -O3 -arch=sm_90 $(sed 's/-D /-D/g' DIR/NNNN.options) -o group_clocks group_clocks.cu
//   usage: group_clocks N_ITEMS [all]
// Three launches; a summary line each, then for the third every 37th group
// ("  g ID sm SM start US end US"), or with `all` every group ("G ID SM
// START END"). results/reference/h100/micro-gap-2026-11-26/probe/ and
// placement-2026-11-26/ were made with it (README "Where the rest of the
// gap is", docs/model.md "Placement").
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include "kern.cu"

__device__ unsigned long long gtime() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__device__ unsigned smid() { unsigned s; asm volatile("mov.u32 %0, %%smid;" : "=r"(s)); return s; }

extern "C" __global__ void __launch_bounds__(DH_WG) probe(const float *x, const int *key, float *y, unsigned long long *t0, unsigned long long *t1, unsigned *sm)
{
    if (threadIdx.x == 0) { t0[blockIdx.x] = gtime(); sm[blockIdx.x] = smid(); }
    mb_gpu_tdr(x, key, y);
    __syncthreads();
    if (threadIdx.x == 0) t1[blockIdx.x] = gtime();
}

static uint64_t mix(uint64_t *s) { uint64_t z = (*s += 0x9e3779b97f4a7c15ULL); z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL; z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL; return z ^ (z >> 31); }

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : (1L << 22);
    int every = argc > 2 && !strcmp(argv[2], "all");
    std::vector<float> x(n); std::vector<int> key(n);
    uint64_t st = 0x5eedULL;
    for (long i = 0; i < n; i++) { x[i] = (float)((mix(&st) >> 40) & 0xffff) / 65536.0f; key[i] = (int)(mix(&st) % MB_P); }
    float *dx, *dy; int *dk; unsigned long long *t0, *t1; unsigned *sm;
    long groups = n / ((long)DH_WG * TDR_IPL);
    cudaMalloc(&dx, n * 4); cudaMalloc(&dy, n * 4); cudaMalloc(&dk, n * 4);
    cudaMalloc(&t0, groups * 8); cudaMalloc(&t1, groups * 8); cudaMalloc(&sm, groups * 4);
    cudaMemcpy(dx, x.data(), n * 4, cudaMemcpyHostToDevice); cudaMemcpy(dk, key.data(), n * 4, cudaMemcpyHostToDevice);
    std::vector<unsigned long long> a(groups), b(groups); std::vector<unsigned> s(groups);
    for (int rep = 0; rep < 3; rep++) {
        cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
        cudaEventRecord(e0);
        probe<<<groups, DH_WG>>>(dx, dk, dy, t0, t1, sm);
        cudaEventRecord(e1); cudaEventSynchronize(e1);
        float ms; cudaEventElapsedTime(&ms, e0, e1);
        cudaError_t err = cudaGetLastError(); if (err) { printf("error %s\n", cudaGetErrorString(err)); return 3; }
        cudaMemcpy(a.data(), t0, groups * 8, cudaMemcpyDeviceToHost); cudaMemcpy(b.data(), t1, groups * 8, cudaMemcpyDeviceToHost);
        cudaMemcpy(s.data(), sm, groups * 4, cudaMemcpyDeviceToHost);
        unsigned long long mn = *std::min_element(a.begin(), a.end()), mx = *std::max_element(b.begin(), b.end());
        std::vector<int> per(256, 0); std::vector<double> dur;
        double smax = 0; for (long g = 0; g < groups; g++) { per[s[g]]++; dur.push_back((b[g] - a[g]) / 1e3); smax = std::max(smax, (a[g] - mn) / 1e3); }
        std::sort(dur.begin(), dur.end());
        int hist[8] = {0}; for (int k = 0; k < 256; k++) if (per[k] < 8) hist[per[k]]++;
        printf("rep %d: event %.1f us, span %.1f us; group time min %.1f med %.1f max %.1f us; last start %.1f us; SMs with 0..5 groups: %d %d %d %d %d %d\n",
               rep, ms * 1e3, (mx - mn) / 1e3, dur[0], dur[groups / 2], dur[groups - 1], smax, hist[0] - (256 - 132), hist[1], hist[2], hist[3], hist[4], hist[5]);
        if (rep == 2 && every)
            for (long g = 0; g < groups; g++)
                printf("G %ld %u %.2f %.2f\n", g, s[g], (a[g] - mn) / 1e3, (b[g] - mn) / 1e3);
        else if (rep == 2)
            for (long g = 0; g < groups; g += 37)
                printf("  g %ld sm %u start %.1f end %.1f\n", g, s[g], (a[g] - mn) / 1e3, (b[g] - mn) / 1e3);
    }
    return 0;
}
