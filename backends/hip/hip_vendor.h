/* hip_vendor.h — the vocabulary of backends/gpu/gpu.h for HIP: each name
 * mapped to the HIP runtime API, so that gpu.c compiles (as C++) into the
 * HIP plugin. Included only by gpu.h; the CUDA side is
 * backends/cuda/cuda_vendor.h. The platform (NVIDIA or AMD) is the one the
 * plugin is built for: hip.mk passes -D__HIP_PLATFORM_NVIDIA__ or
 * -D__HIP_PLATFORM_AMD__.
 */
#ifndef DH_HIP_VENDOR_H
#define DH_HIP_VENDOR_H

#include <hip/hip_runtime_api.h>

#if defined(__HIP_PLATFORM_NVIDIA__) || defined(__HIP_PLATFORM_NVCC__)
#define DH_HIP_NVIDIA 1
#define DH_HIP_PLATFORM "nvidia"
#else
#define DH_HIP_PLATFORM "amd"
#endif

typedef hipError_t dh_gpu_result;
typedef int dh_gpu_device;
typedef hipDeviceAttribute_t dh_gpu_attr;
typedef hipStream_t dh_gpu_stream;
typedef hipEvent_t dh_gpu_event;
typedef hipModule_t dh_gpu_module;
typedef hipFunction_t dh_gpu_function;
typedef void *dh_gpu_ptr;

/* a device's HIP part; the context is the device's primary one, which
 * belongs to the HIP runtime */
struct dh__gpu_vdev {
    int is_amd;
    int warp_votes;              /* 0: builds get -D DH_NO_WARP_VOTES */
    char rtc_arch[64];           /* e.g. "--gpu-architecture=compute_90" */
};

#define DH_GPU_BACKEND "hip"
#define DH_GPU_LABEL "HIP"
#define DH_GPU_NO_DEVICE                                                     \
    "HIP runtime loaded (" DH_HIP_PLATFORM " platform) but reports no device"
#define DH_GPU_OPS dh__hip_ops
#define DH_GPU_COUNTERS NULL     /* no counters on HIP: CFE from the model */
#define DH_GPU_PC_BEGIN NULL     /* nor per-instruction counts */
#define DH_GPU_PC_END NULL

#define DH_GPU_SUCCESS hipSuccess
#define DH_GPU_ERROR_NOT_FOUND hipErrorNotFound
#define DH_GPU_ERROR_OUT_OF_MEMORY hipErrorOutOfMemory
#define DH_GPU_ATTR_WARP_SIZE hipDeviceAttributeWarpSize
#define DH_GPU_ATTR_MULTIPROCESSOR_COUNT hipDeviceAttributeMultiprocessorCount
#define DH_GPU_ATTR_MAX_THREADS_PER_BLOCK hipDeviceAttributeMaxThreadsPerBlock
#define DH_GPU_ATTR_MAX_SHARED_MEMORY_PER_BLOCK                              \
    hipDeviceAttributeMaxSharedMemoryPerBlock
#define DH_GPU_ATTR_CC_MAJOR hipDeviceAttributeComputeCapabilityMajor
#define DH_GPU_ATTR_CC_MINOR hipDeviceAttributeComputeCapabilityMinor
#define DH_GPU_ATTR_CLOCK_RATE hipDeviceAttributeClockRate

#define DH_GPU_RESULT_TYPE "hipError_t"
#define dh_gpu_ErrorText(r, name, text)                                      \
    (*(name) = hipGetErrorName(r), *(text) = hipGetErrorString(r))
/* a fault that leaves the context unusable, as in CUDA */
#define dh_gpu_IsSticky(r)                                                   \
    ((r) == hipErrorIllegalAddress || (r) == hipErrorLaunchFailure ||        \
     (r) == hipErrorAssert || (r) == hipErrorIllegalState)
#define dh_gpu_Load(err) ((void)(err), 0)        /* linked, not loaded */
#define dh_gpu_DeviceGetCount hipGetDeviceCount
#define dh_gpu_DeviceGet(d, index) (*(d) = (index), hipSuccess)
#define dh_gpu_DeviceGetAttribute hipDeviceGetAttribute
#define dh_gpu_SetCurrent(dev) hipSetDevice((dev)->index)
#define dh_gpu_Synchronize hipDeviceSynchronize
#define dh_gpu_StreamCreate hipStreamCreate
#define dh_gpu_StreamDestroy hipStreamDestroy
#define dh_gpu_StreamSynchronize hipStreamSynchronize
#define dh_gpu_EventCreate hipEventCreate
#define dh_gpu_EventDestroy hipEventDestroy
#define dh_gpu_EventRecord hipEventRecord
#define dh_gpu_EventSynchronize hipEventSynchronize
#define dh_gpu_EventElapsedTime hipEventElapsedTime
#define dh_gpu_ModuleLoadData hipModuleLoadData
#define dh_gpu_ModuleUnload hipModuleUnload
#define dh_gpu_ModuleGetFunction hipModuleGetFunction
#define dh_gpu_FuncPreload(fn) ((void)(fn))
#define dh_gpu_MemAlloc hipMalloc
#define dh_gpu_MemFree hipFree
#define dh_gpu_MemcpyHtoD(dst, src, n)                                       \
    hipMemcpy((dst), (src), (n), hipMemcpyHostToDevice)
#define dh_gpu_MemcpyDtoH(dst, src, n)                                       \
    hipMemcpy((dst), (src), (n), hipMemcpyDeviceToHost)
#define dh_gpu_LaunchKernel hipModuleLaunchKernel

/* the calls as messages name them */
#define DH_GPU_NAME_DeviceGetCount "hipGetDeviceCount"
#define DH_GPU_NAME_DeviceGet "hipDeviceGet"
#define DH_GPU_NAME_DeviceGetAttribute "hipDeviceGetAttribute"
#define DH_GPU_NAME_SetCurrent "hipSetDevice"
#define DH_GPU_NAME_StreamCreate "hipStreamCreate"
#define DH_GPU_NAME_EventCreate "hipEventCreate"
#define DH_GPU_NAME_EventRecord "hipEventRecord"
#define DH_GPU_NAME_EventElapsedTime "hipEventElapsedTime"
#define DH_GPU_NAME_ModuleGetFunction "hipModuleGetFunction"
#define DH_GPU_NAME_MemAlloc "hipMalloc"
#define DH_GPU_NAME_LaunchKernel "hipModuleLaunchKernel"
#define DH_GPU_FMT_HTOD "hipMemcpy(HtoD, %zu bytes)"
#define DH_GPU_FMT_DTOH "hipMemcpy(DtoH, %zu bytes)"

#endif
