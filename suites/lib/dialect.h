/* dialect.h — one kernel text for OpenCL C, CUDA (NVRTC) and HIP (hipRTC).
 *
 * Prepended by the harness to every kernel source (hashcat's inc_vendor.h
 * and CLBlast's opencl_to_cuda.h are the models). HIP is checked before
 * CUDA, since hipcc on NVIDIA defines both. Tunables arrive as -D defines;
 * the harness always defines DH_WG (work-group size) and DH_WAVE (the
 * device's warp/wavefront width). Never hard-code 32.
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
#define dh_fma(a, b, c) fma((a), (b), (c))
#define dh_fabs(a) fabs(a)
#define dh_fmin(a, b) fmin((a), (b))
#define dh_fmax(a, b) fmax((a), (b))
#else /* CUDA and HIP share one spelling */
#define DH_KERNEL extern "C" __global__ __launch_bounds__(DH_WG)
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
#define dh_fma(a, b, c) fmaf((a), (b), (c))
#define dh_fabs(a) fabsf(a)
#define dh_fmin(a, b) fminf((a), (b))
#define dh_fmax(a, b) fmaxf((a), (b))
#endif

/* Warp votes (CUDA, HIP): for the fast remap forms. Masks are 64-bit so
 * wave64 works; on CUDA the upper half is zero. dh_lane() is the lane in
 * the warp, dh_shfl() reads lane `src`'s value. Only from uniform control
 * flow (all lanes of the warp). */
#if defined(DH_LANG_CUDA) || defined(DH_LANG_HIP)
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

#endif
