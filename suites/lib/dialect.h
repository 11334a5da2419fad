/* dialect.h — one kernel text for OpenCL C, CUDA (NVRTC) and HIP (hipRTC).
 *
 * Prepended by the harness to every kernel source (hashcat's inc_vendor.h
 * and CLBlast's opencl_to_cuda.h are the models). HIP is checked before
 * CUDA, since hipcc on NVIDIA defines both. Tunables arrive as -D defines;
 * the harness always defines DH_WG (work-group size) and DH_WAVE (the
 * device's warp/wavefront width), and DH_MINB (launch bounds, CUDA) where
 * the case sets the knob. Never hard-code 32.
 *
 * Conventions for kernel authors:
 *   DH_KERNEL void name(DH_GLOBAL float *x, ...)   a kernel entry point
 *   DH_LOCAL int buf[DH_WG];                       local/shared array, only
 *                                                  at kernel scope
 *   DH_LOCAL_PTR int *p                            a pointer to local memory,
 *                                                  for helper functions
 *   DH_DEVICE                                      helper functions
 *   dh_gid() dh_lid() dh_grp() dh_barrier()        ids and the work-group
 *                                                  barrier (local fence)
 *   dh_atomic_add_local(p, v)                      returns the old value
 *   dh_atomic_add_global(p, v)                     the same on global memory
 *                                                  (int or unsigned)
 *   dh_fma dh_fabs dh_fmin dh_fmax                 float maths (exact ops)
 */
#ifndef DH_DIALECT_H
#define DH_DIALECT_H

#if !defined(DH_WG) || !defined(DH_WAVE)
#error "the harness must define DH_WG and DH_WAVE"
#endif

#if defined(__HIPCC__) || defined(__HIPCC_RTC__)
#define DH_LANG_HIP 1
#elif defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define DH_LANG_CUDA 1
#elif defined(__OPENCL_VERSION__)
#define DH_LANG_OPENCL 1
#elif defined(DH_HOST_C)
#define DH_LANG_HOST 1
#else
#error "unknown kernel language"
#endif

#if defined(DH_LANG_OPENCL)
#define DH_KERNEL __kernel __attribute__((reqd_work_group_size(DH_WG, 1, 1)))
#define DH_DEVICE static inline
#define DH_GLOBAL __global
#define DH_CONST __global const
#define DH_LOCAL __local
#define DH_LOCAL_PTR __local
#define dh_gid() ((int)get_global_id(0))
#define dh_lid() ((int)get_local_id(0))
#define dh_grp() ((int)get_group_id(0))
#define dh_barrier() barrier(CLK_LOCAL_MEM_FENCE)
#define dh_atomic_add_local(p, v) atomic_add((p), (v))
#define dh_atomic_add_global(p, v) atomic_add((p), (v))
#define dh_fma(a, b, c) fma((a), (b), (c))
#define dh_fabs(a) fabs(a)
#define dh_fmin(a, b) fmin((a), (b))
#define dh_fmax(a, b) fmax((a), (b))
#elif defined(DH_LANG_HOST)
/* Plain C on the host, for a descriptor's reference entry (suites/lib/
 * hostref.c): the harness calls the entry once per item, in order, with
 * the ids set. Work-group memory and barriers have no meaning there: a
 * reference that uses them fails to link, naming them. */
#include <math.h>
static long dh__host_gid, dh__host_lid, dh__host_grp;
void dh__a_host_reference_cannot_use_barriers(void);
int dh__a_host_reference_cannot_use_local_atomics(void);
#define DH_KERNEL
#define DH_DEVICE static inline
#define DH_GLOBAL
#define DH_CONST const
#define DH_LOCAL static
#define DH_LOCAL_PTR
#define dh_gid() ((int)dh__host_gid)
#define dh_lid() ((int)dh__host_lid)
#define dh_grp() ((int)dh__host_grp)
#define dh_barrier() dh__a_host_reference_cannot_use_barriers()
#define dh_atomic_add_local(p, v) dh__a_host_reference_cannot_use_local_atomics()
/* items run one after another: a global atomic is a plain add */
#define dh_atomic_add_global(p, v) __extension__({ __typeof__(*(p)) dh__o = *(p); *(p) += (v); dh__o; })
#define dh_fma(a, b, c) fmaf((a), (b), (c))
#define dh_fabs(a) fabsf(a)
#define dh_fmin(a, b) fminf((a), (b))
#define dh_fmax(a, b) fmaxf((a), (b))
#else /* CUDA and HIP share one spelling */
/* the code-generation knob minb (suites/suite.h, DH_CODEGEN_KNOBS): CUDA
 * launch bounds asking for DH_MINB work-groups per multiprocessor, so the
 * compiler keeps registers under 65536 / (DH_MINB * DH_WG); HIP's second
 * bound means something else (waves per execution unit), so HIP keeps
 * the first alone, as OpenCL does */
#if defined(DH_LANG_CUDA) && defined(DH_MINB) && DH_MINB > 0
#define DH_KERNEL extern "C" __global__ __launch_bounds__(DH_WG, DH_MINB)
#else
#define DH_KERNEL extern "C" __global__ __launch_bounds__(DH_WG)
#endif
#define DH_DEVICE static __device__ __forceinline__
#define DH_GLOBAL
#define DH_CONST const
#define DH_LOCAL __shared__
#define DH_LOCAL_PTR
#define dh_gid() ((int)(blockIdx.x * blockDim.x + threadIdx.x))
#define dh_lid() ((int)threadIdx.x)
#define dh_grp() ((int)blockIdx.x)
#define dh_barrier() __syncthreads()
#define dh_atomic_add_local(p, v) atomicAdd((p), (v))
#define dh_atomic_add_global(p, v) atomicAdd((p), (v))
#define dh_fma(a, b, c) fmaf((a), (b), (c))
#define dh_fabs(a) fabsf(a)
#define dh_fmin(a, b) fminf((a), (b))
#define dh_fmax(a, b) fmaxf((a), (b))
#endif

/* Warp votes (CUDA, HIP): for the fast remap forms. Masks are 64-bit so
 * wave64 works; on CUDA the upper half is zero. dh_lane() is the lane in
 * the warp, dh_shfl() reads lane `src`'s value. Only from uniform control
 * flow (all lanes of the warp). */
#if (defined(DH_LANG_CUDA) || defined(DH_LANG_HIP)) && !defined(DH_NO_WARP_VOTES)
#define DH_HAS_BALLOT 1
typedef unsigned long long dh_mask_t;
#if defined(DH_LANG_HIP)
#define dh_ballot(p) ((dh_mask_t)__ballot(p))
#define dh_shfl(v, src) __shfl((v), (src))
#else
#define dh_ballot(p) ((dh_mask_t)__ballot_sync(0xffffffffu, (p)))
#define dh_shfl(v, src) __shfl_sync(0xffffffffu, (v), (src))
#endif
#define dh_popc(m) __popcll(m)
#define dh_lane() (dh_lid() % DH_WAVE)
#define dh_lanemask_lt(lane) ((lane) == 0 ? 0ull : (~0ull >> (64 - (lane))))
#endif
/* DH_NO_WARP_VOTES (set by a backend, e.g. HIP on AMD) leaves the votes
 * and the forms built on them out. AMD device code: DH_WAVE must be the
 * wavefront this code is compiled for (gfx9 runs wave64, gfx10+ wave32
 * unless built with -mwavefrontsize64); lanes and masks depend on it. */
#if defined(__AMDGCN_WAVEFRONT_SIZE) && __AMDGCN_WAVEFRONT_SIZE != DH_WAVE
#error "DH_WAVE differs from the wavefront size this code is compiled for"
#endif

/* ---- basic-block vectors (BBV) -------------------------------------------
 * A profiling build (-D DH_BBV=1 -D DH_BBV_NB=<blocks>, added by the
 * harness) counts how often each work-item executes each marked basic
 * block; a plain build compiles every marker to nothing. Per item the
 * counters are DH_BBV_NB consecutive 32-bit words (item-major), in a
 * buffer the harness appends as the last argument of every launch.
 *
 *   DH_KERNEL void k(DH_GLOBAL float *x DH_BBV_KARGS)   every kernel, last
 *   DH_BBV_ITEM(i);     at the top of a kernel: counters of item i (again
 *                       after a remap: the counters follow the item)
 *   DH_BB(id);          block `id` executed once
 *   DH_BB_N(id, n);     block `id` executed n times (a loop body whose
 *                       trip count is known at its head)
 *   helper functions that mark blocks take DH_BBV_FARGS and are called
 *   with DH_BBV_PASS:  DH_DEVICE int f(int a DH_BBV_FARGS) / f(a DH_BBV_PASS)
 *
 * Counters saturate at 0xffffffff instead of wrapping; the harness treats
 * a saturated counter as an overflow (an error), never as a count. Block
 * ids are the benchmark's own (its block table in the host code lists
 * their names and operation mixes, in id order).
 *
 * Ordered BBVs (docs/model.md "Part 2: ordered BBVs"): a kernel whose items run an outer loop
 * (gdt's days) marks its top with
 *   DH_BBV_STEP();      one iteration of the item's outer loop begins
 * and its host side says how many iterations an item runs (dh_bench
 * bbv_steps). With DH_BBV_WINDOW=K the harness's profiling build adds
 * -D DH_BBV_WIN=K -D DH_BBV_WINS=<windows>: each item then has DH_BBV_WINS
 * rows of DH_BBV_NB counters (item-major, window next), and iterations
 * wK .. wK+K-1 count into row w (what runs before the first step counts
 * into row 0, what runs after the last into the last row). A step past
 * the last row saturates that row's first counter: the harness reports
 * it as an overflow. Without DH_BBV_WIN (timed builds, windows off) the
 * marker is nothing. A helper function that runs the item's outer loop
 * (called once an item, from a kernel that has done DH_BBV_ITEM) counts
 * its steps itself: DH_BBV_LOOP_SCOPE(); at its top.
 * A benchmark whose steps are launches (rodinia/bfs: a launch pair a
 * level) and whose item knows the step it is in, counts from there into
 * that step's row:
 *   DH_BBV_ROW(step);   what follows counts into row step / K (a step
 *                       past the last row saturates it, as above)
 * Blocks every item runs in every step (a kernel's entry) may stay in
 * row 0: the max over a warp's lanes of a count they all share is the
 * same summed by rows or not.
 */
#ifdef DH_BBV
#ifndef DH_BBV_NB
#error "a profiling build (DH_BBV) needs DH_BBV_NB, the number of blocks"
#endif
#define DH_BBV_KARGS , DH_GLOBAL unsigned *dh__bbv_base
#define DH_BBV_FARGS , DH_GLOBAL unsigned *dh__bbv
#define DH_BBV_PASS , dh__bbv
#ifdef DH_BBV_WIN
#ifndef DH_BBV_WINS
#error "a windowed profiling build (DH_BBV_WIN) needs DH_BBV_WINS, the windows per item"
#endif
/* dh__bbv_k: the item's steps so far; its row: window (k - 1) / K */
#define DH_BBV_ITEM(i)                                                           \
    unsigned dh__bbv_k = 0;                                                      \
    size_t dh__bbv_i = (size_t)(i);                                              \
    DH_GLOBAL unsigned *dh__bbv = dh__bbv_base + dh__bbv_i * DH_BBV_NB * DH_BBV_WINS; \
    (void)dh__bbv_k, (void)dh__bbv_i   /* a kernel may use neither STEP nor ROW */
#define DH_BBV_REITEM(i)                                                         \
    (dh__bbv_i = (size_t)(i),                                                    \
     dh__bbv = dh__bbv_base + (dh__bbv_i * DH_BBV_WINS                           \
                               + (dh__bbv_k ? (dh__bbv_k - 1u) / DH_BBV_WIN : 0u)) * DH_BBV_NB)
#define DH_BBV_LOOP_SCOPE() unsigned dh__bbv_k = 0
#define DH_BBV_ROW(step)                                                         \
    do {                                                                         \
        unsigned dh__bbv_r = (unsigned)(step) / DH_BBV_WIN;                      \
        dh__bbv = dh__bbv_base + (dh__bbv_i * DH_BBV_WINS                        \
                                  + (dh__bbv_r < DH_BBV_WINS ? dh__bbv_r         \
                                                             : DH_BBV_WINS - 1)) \
                                 * DH_BBV_NB;                                    \
        if (dh__bbv_r >= DH_BBV_WINS)                                            \
            dh__bbv[0] = 0xffffffffu;   /* more steps than declared */           \
    } while (0)
#define DH_BBV_STEP()                                                            \
    do {                                                                         \
        if (dh__bbv_k && dh__bbv_k % DH_BBV_WIN == 0) {                          \
            if ((dh__bbv_k - 1u) / DH_BBV_WIN + 1u < DH_BBV_WINS)                 \
                dh__bbv += DH_BBV_NB;                                            \
            else                                                                 \
                dh__bbv[0] = 0xffffffffu;   /* more steps than declared */       \
        }                                                                        \
        dh__bbv_k++;                                                             \
    } while (0)
#else
#define DH_BBV_ITEM(i) DH_GLOBAL unsigned *dh__bbv = dh__bbv_base + (size_t)(i) * DH_BBV_NB
#define DH_BBV_REITEM(i) (dh__bbv = dh__bbv_base + (size_t)(i) * DH_BBV_NB)
#define DH_BBV_STEP() do { } while (0)
#define DH_BBV_LOOP_SCOPE() do { } while (0)
#define DH_BBV_ROW(step) do { } while (0)
#endif
DH_DEVICE void dh__bbv_add(DH_GLOBAL unsigned *p, unsigned n)
{
    unsigned c = *p, s = c + n;
    *p = s < c ? 0xffffffffu : s;      /* saturate: overflow is detected */
}
#define DH_BB(id) dh__bbv_add(dh__bbv + (id), 1u)
#define DH_BB_N(id, n) dh__bbv_add(dh__bbv + (id), (unsigned)(n))
#else
#define DH_BBV_KARGS
#define DH_BBV_FARGS
#define DH_BBV_PASS
#define DH_BBV_ITEM(i) do { } while (0)
#define DH_BBV_REITEM(i) ((void)0)
#define DH_BB(id) do { } while (0)
#define DH_BB_N(id, n) do { } while (0)
#define DH_BBV_STEP() do { } while (0)
#define DH_BBV_LOOP_SCOPE() do { } while (0)
#define DH_BBV_ROW(step) do { } while (0)
#endif

#endif
