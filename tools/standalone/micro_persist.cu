// micro_persist.cu — micro's scan_multi kernel body launched two ways in one
// program: one group a chunk, as the harness does ("plain"), and persistent
// groups (as many as the occupancy calculator allows on every SM) claiming
// chunks from a global counter; y compared between the two, medians of 40
// launches. kern.cu as for group_clocks.cu, with also `int base =
// dh_grp() * MB_S;` made `int base = probe_chunk * MB_S;`. Build:
//   nvcc -O3 -arch=sm_90 $(sed 's/-D /-D/g' DIR/NNNN.options) -o micro_persist micro_persist.cu
//   usage: micro_persist N_ITEMS [GROUPS_PER_SM]
// results/reference/h100/micro-gap-2026-11-26/persist/ was made with it.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
__shared__ int probe_chunk;
#include "kern.cu"

extern "C" __global__ void __launch_bounds__(DH_WG) plain(const float *x, const int *key, float *y)
{
    if (threadIdx.x == 0) probe_chunk = blockIdx.x;
    __syncthreads();
    mb_gpu_tdr(x, key, y);
}

extern "C" __global__ void __launch_bounds__(DH_WG) persist(const float *x, const int *key, float *y, int *counter, int nchunks)
{
    for (;;) {
        __syncthreads();
        if (threadIdx.x == 0) probe_chunk = atomicAdd(counter, 1);
        __syncthreads();
        if (probe_chunk >= nchunks) break;
        mb_gpu_tdr(x, key, y);
    }
}

static uint64_t mix(uint64_t *s) { uint64_t z = (*s += 0x9e3779b97f4a7c15ULL); z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL; z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL; return z ^ (z >> 31); }

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : (1L << 22);
    int per_sm = argc > 2 ? atoi(argv[2]) : 0;
    std::vector<float> x(n); std::vector<int> key(n);
    uint64_t st = 0x5eedULL;
    for (long i = 0; i < n; i++) { x[i] = (float)((mix(&st) >> 40) & 0xffff) / 65536.0f; key[i] = (int)(mix(&st) % MB_P); }
    float *dx, *dy, *dz; int *dk, *cnt;
    int nchunks = (int)(n / ((long)DH_WG * TDR_IPL));
    cudaMalloc(&dx, n * 4); cudaMalloc(&dy, n * 4); cudaMalloc(&dz, n * 4); cudaMalloc(&dk, n * 4); cudaMalloc(&cnt, 4);
    cudaMemcpy(dx, x.data(), n * 4, cudaMemcpyHostToDevice); cudaMemcpy(dk, key.data(), n * 4, cudaMemcpyHostToDevice);
    int sms, occ; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, persist, DH_WG, 0);
    int grid = sms * (per_sm ? per_sm : occ);
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    std::vector<float> tp, tq;
    for (int rep = 0; rep < 41; rep++) {
        float ms;
        cudaEventRecord(e0); plain<<<nchunks, DH_WG>>>(dx, dk, dy); cudaEventRecord(e1); cudaEventSynchronize(e1);
        cudaEventElapsedTime(&ms, e0, e1); if (rep) tp.push_back(ms);
        cudaMemset(cnt, 0, 4);
        cudaEventRecord(e0); persist<<<grid, DH_WG>>>(dx, dk, dz, cnt, nchunks); cudaEventRecord(e1); cudaEventSynchronize(e1);
        cudaEventElapsedTime(&ms, e0, e1); if (rep) tq.push_back(ms);
    }
    cudaError_t err = cudaGetLastError(); if (err) { printf("error %s\n", cudaGetErrorString(err)); return 3; }
    std::vector<float> y(n), z(n);
    cudaMemcpy(y.data(), dy, n * 4, cudaMemcpyDeviceToHost); cudaMemcpy(z.data(), dz, n * 4, cudaMemcpyDeviceToHost);
    long diff = 0; for (long i = 0; i < n; i++) diff += y[i] != z[i];
    std::sort(tp.begin(), tp.end()); std::sort(tq.begin(), tq.end());
    printf("P=%d wg=%d ipl=%d chunks=%d: plain %.4f ms (min %.4f), persistent grid %d (%d a SM) %.4f ms (min %.4f); y differs at %ld of %ld\n",
           MB_P, DH_WG, TDR_IPL, nchunks, tp[20], tp[0], grid, grid / sms, tq[20], tq[0], diff, n);
    return diff != 0;
}
