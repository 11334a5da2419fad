/* cuda_vendor.h — the vocabulary of backends/gpu/gpu.h for CUDA: each name
 * mapped to the driver API's entry point as loaded by cuda_load.c (the
 * dh__cuda_cu* pointers), so that gpu.c compiles as the CUDA backend.
 * Included only by gpu.h; the HIP side is backends/hip/hip_vendor.h.
 */
#ifndef DH_CUDA_VENDOR_H
#define DH_CUDA_VENDOR_H

#include "cuda_load.h"
#include "cuda_rtc.h"

typedef CUresult dh_gpu_result;
typedef CUdevice dh_gpu_device;
typedef CUdevice_attribute dh_gpu_attr;
typedef CUstream dh_gpu_stream;
typedef CUevent dh_gpu_event;
typedef CUmodule dh_gpu_module;
typedef CUfunction dh_gpu_function;
typedef CUdeviceptr dh_gpu_ptr;

/* a device's CUDA part */
struct dh__gpu_vdev {
    CUdevice cu;
    CUcontext ctx;               /* primary context, retained */
    struct dh__cuda_target target;   /* what NVRTC compiles for */
};

#define DH_GPU_BACKEND "cuda"
#define DH_GPU_LABEL "CUDA"
#define DH_GPU_NO_DEVICE "CUDA driver loaded but reports no device"
#define DH_GPU_OPS dh_backend_cuda
#define DH_GPU_COUNTERS dh__cuda_counters
#define DH_GPU_PC_BEGIN dh__cuda_pc_begin
#define DH_GPU_PC_END dh__cuda_pc_end

#define DH_GPU_SUCCESS CUDA_SUCCESS
#define DH_GPU_ERROR_NOT_FOUND CUDA_ERROR_NOT_FOUND
#define DH_GPU_ERROR_OUT_OF_MEMORY CUDA_ERROR_OUT_OF_MEMORY
#define DH_GPU_ATTR_WARP_SIZE CU_DEVICE_ATTRIBUTE_WARP_SIZE
#define DH_GPU_ATTR_MULTIPROCESSOR_COUNT                                     \
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
#define DH_GPU_ATTR_MAX_THREADS_PER_BLOCK                                    \
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK
#define DH_GPU_ATTR_MAX_SHARED_MEMORY_PER_BLOCK                              \
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK
#define DH_GPU_ATTR_CC_MAJOR CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
#define DH_GPU_ATTR_CC_MINOR CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR
/* Deprecated in newer CUDA: describe treats it as optional. */
#define DH_GPU_ATTR_CLOCK_RATE CU_DEVICE_ATTRIBUTE_CLOCK_RATE

#define DH_GPU_RESULT_TYPE "CUresult"
#define dh_gpu_ErrorText dh__cuda_error_text
#define dh_gpu_IsSticky dh__cuda_sticky
#define dh_gpu_Load(err) dh__cuda_load(err)
#define dh_gpu_DeviceGetCount dh__cuda_cuDeviceGetCount
#define dh_gpu_DeviceGet dh__cuda_cuDeviceGet
#define dh_gpu_DeviceGetAttribute dh__cuda_cuDeviceGetAttribute
#define dh_gpu_SetCurrent(dev)                                               \
    ((dev)->v.ctx ? dh__cuda_cuCtxSetCurrent((dev)->v.ctx) : CUDA_SUCCESS)
#define dh_gpu_Synchronize dh__cuda_cuCtxSynchronize
#define dh_gpu_StreamCreate(s) dh__cuda_cuStreamCreate((s), CU_STREAM_DEFAULT)
#define dh_gpu_StreamDestroy dh__cuda_cuStreamDestroy_v2
#define dh_gpu_StreamSynchronize dh__cuda_cuStreamSynchronize
#define dh_gpu_EventCreate(e) dh__cuda_cuEventCreate((e), CU_EVENT_DEFAULT)
#define dh_gpu_EventDestroy dh__cuda_cuEventDestroy_v2
#define dh_gpu_EventRecord dh__cuda_cuEventRecord
#define dh_gpu_EventSynchronize dh__cuda_cuEventSynchronize
#define dh_gpu_EventElapsedTime dh__cuda_cuEventElapsedTime
#define dh_gpu_ModuleLoadData dh__cuda_cuModuleLoadData
#define dh_gpu_ModuleUnload dh__cuda_cuModuleUnload
#define dh_gpu_ModuleGetFunction dh__cuda_cuModuleGetFunction
/* Loads a kernel eagerly, so that the first timed launch does not pay for
 * lazy loading between its events; optional (CUDA >= 12.4), and a failure
 * shows again at launch. */
#define dh_gpu_FuncPreload(fn)                                               \
    (dh__cuda_cuFuncLoad ? (void)dh__cuda_cuFuncLoad(fn) : (void)0)
#define dh_gpu_MemAlloc dh__cuda_cuMemAlloc_v2
#define dh_gpu_MemFree dh__cuda_cuMemFree_v2
#define dh_gpu_MemcpyHtoD dh__cuda_cuMemcpyHtoD_v2
#define dh_gpu_MemcpyDtoH dh__cuda_cuMemcpyDtoH_v2
#define dh_gpu_LaunchKernel dh__cuda_cuLaunchKernel

/* the calls as messages name them */
#define DH_GPU_NAME_DeviceGetCount "cuDeviceGetCount"
#define DH_GPU_NAME_DeviceGet "cuDeviceGet"
#define DH_GPU_NAME_DeviceGetAttribute "cuDeviceGetAttribute"
#define DH_GPU_NAME_SetCurrent "cuCtxSetCurrent"
#define DH_GPU_NAME_StreamCreate "cuStreamCreate"
#define DH_GPU_NAME_EventCreate "cuEventCreate"
#define DH_GPU_NAME_EventRecord "cuEventRecord"
#define DH_GPU_NAME_EventElapsedTime "cuEventElapsedTime"
#define DH_GPU_NAME_ModuleGetFunction "cuModuleGetFunction"
#define DH_GPU_NAME_MemAlloc "cuMemAlloc"
#define DH_GPU_NAME_LaunchKernel "cuLaunchKernel"
#define DH_GPU_FMT_HTOD "cuMemcpyHtoD(%zu bytes)"
#define DH_GPU_FMT_DTOH "cuMemcpyDtoH(%zu bytes)"

/* cuda.c: the counters op (CUPTI range profiler) */
struct dh_program;
struct dh_launch;
struct dh_counters;
int dh__cuda_counters(struct dh_program *p, const struct dh_launch *l,
                      struct dh_counters *out, struct dh_err *err);
/* cuda.c: per-instruction counts (CUPTI SASS metrics) */
struct dh_device;
struct dh_pc_count;
int dh__cuda_pc_begin(struct dh_device *dev, struct dh_err *err);
int dh__cuda_pc_end(struct dh_device *dev, struct dh_pc_count **out, long *n,
                    struct dh_err *err);

#endif
