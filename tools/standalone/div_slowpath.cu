// div_slowpath.cu — which float divisions take the slow path of CUDA's
// IEEE division (div.rn.f32: FCHK, then a called subroutine) on this GPU.
// A probe for bbv/mc's model (docs/model.md "MC's divisions"): its kernel
// divides (iso - fa) / (fb - fa) for all twelve edges of a voxel, and the
// byte samples make both the denominator (fa == fb) and the numerator
// (fa == iso) zero for some lanes. Each case times 4096 divisions a lane
// with clock64 (one warp, every lane the same operands, so no divergence
// of its own) and prints cycles a division; a case that takes the slow
// path costs several times the others.
//   nvcc -O3 -arch=sm_90 -o div_slowpath tools/standalone/div_slowpath.cu
#include <cstdio>
#include <cuda_runtime.h>

__global__ void probe(const float *num, const float *den, float *out, long long *cyc)
{
    float a = num[blockIdx.x], b = den[blockIdx.x], acc = 0.0f;
    long long t0 = clock64();
    for (int i = 0; i < 4096; i++) {
        asm volatile("" : "+f"(a), "+f"(b));   // the division is redone every time
        acc += a / b;
    }
    long long t1 = clock64();
    if (threadIdx.x == 0)
        cyc[blockIdx.x] = t1 - t0;
    out[blockIdx.x * 32 + threadIdx.x] = acc;
}

int main()
{
    const char *name[] = {"3 / 5 (normal)", "0 / 5 (numerator zero: fa == iso)",
                          "5 / 0 (denominator zero: fa == fb)", "0 / 0", "-128 / 255",
                          "1 / 3e-39 (denormal)"};
    float hn[] = {3.0f, 0.0f, 5.0f, 0.0f, -128.0f, 1.0f};
    float hd[] = {5.0f, 5.0f, 0.0f, 0.0f, 255.0f, 3e-39f};
    const int n = sizeof hn / sizeof *hn;
    float *num, *den, *out;
    long long *cyc, hc[n];
    cudaMalloc(&num, sizeof hn);
    cudaMalloc(&den, sizeof hd);
    cudaMalloc(&out, n * 32 * sizeof(float));
    cudaMalloc(&cyc, sizeof hc);
    cudaMemcpy(num, hn, sizeof hn, cudaMemcpyHostToDevice);
    cudaMemcpy(den, hd, sizeof hd, cudaMemcpyHostToDevice);
    for (int rep = 0; rep < 3; rep++)
        probe<<<n, 32>>>(num, den, out, cyc);
    if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("div_slowpath: %s\n", cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    cudaMemcpy(hc, cyc, sizeof hc, cudaMemcpyDeviceToHost);
    for (int k = 0; k < n; k++)
        printf("%-36s %6.1f cycles a division\n", name[k], hc[k] / 4096.0);
    return 0;
}
