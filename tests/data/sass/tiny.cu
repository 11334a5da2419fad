/* tiny.cu — a kernel for test_sass.c: its nvdisasm listing (tiny.sass,
 * sm_90, NVRTC 13.0 -lineinfo, nvdisasm 13.5 -c -gi) is committed beside
 * it. Markers as a timed build has them: no code. */
#define DH_BB(id) do { } while (0)
#define DH_BB_N(id, n) do { } while (0)
#define T_ENTRY 0
#define T_SIDE (T_ENTRY + 1)
#define T_LOOP 2
#define T_HELP 3
#define T_PAIR 4
#define T_TWO(k) DH_BB(T_PAIR + (k)); DH_BB(T_PAIR + (k) + 1)

__device__ float helper(float v)
{
    return v * v + 1.0f;
}

__device__ float marked(float v)
{
    DH_BB(T_HELP);
    return v * 3.0f - 2.0f;
}

extern "C" __global__ void tiny_baseline(const float *x, const int *k, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    DH_BB(T_ENTRY);
    float v = x[i];
    if (k[i] > 0) {
        DH_BB(T_SIDE);
        y[i + n] = v;
    }
    v = helper(v);
    {
        DH_BB_N(T_LOOP, n);
        for (int j = 0; j < n; j++)
            v = v * x[j] + 0.5f;
    }
    if (k[i] == 7)
        v = marked(v);
    if (k[i] == 9) {
        T_TWO(0); v = v * 0.25f;
    }
    y[i] = v;
}
