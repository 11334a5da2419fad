# backends/hip/hip.mk — the HIP backend's make rules (included by the
# Makefile; see backends/hip/README.md).
#
#   (always)        backends/hip/hip_loader.c goes into build/harness: the
#                   backend "hip", which dlopens the plugin below at run time
#                   (NO_HIP=1 leaves it out)
#   make hip-nvidia the plugin for NVIDIA GPUs: HIP 5.2's NVIDIA headers,
#                   CUDA 11.8's nvcc (Debian, /usr/bin/nvcc) for the host
#                   code, CUDA 13's NVRTC and the driver at run time
#                   (packages: ci/hip-nvidia-deps.sh)
#   make hip-amd    the plugin for AMD GPUs: libamdhip64 (hipRTC inside)
#   make hip-check  every kernel build compiled by hipcc for AMD
#                   (HIP_ARCHS, default gfx90a = wave64 and gfx1030 = wave32)
#
# Both plugins are $(BUILD)/lib/libdh-hip.so, the place the loader looks.
# CUDA 11.8 must never shadow CUDA 13 ($(CUDA_HOME)): it is reached only
# through HIP_NVCC and its own headers in /usr/include, here; the harness
# keeps -I$(CUDA_HOME)/include and loads $(CUDA_HOME)'s NVRTC by path, and
# the plugin links NVRTC from $(CUDA_HOME)/lib64 (soname libnvrtc.so.13)
# with that folder as its run path.

ifeq ($(NO_HIP),)
SRC        += backends/hip/hip_loader.c
ALL_CFLAGS += -DDH_HAVE_HIP
endif

HIP_PLUGIN   := $(BUILD)/lib/libdh-hip.so
HIP_NVCC     ?= /usr/bin/nvcc
HIP_CCBIN    ?= clang-14
HIP_NV_ARCH  ?= sm_90
HIP_INC      ?= /usr/include
# CUDA 11.8's own tools first: $(CUDA_HOME)/bin (often first in PATH) has
# CUDA 13's nvlink/ptxas, which nvcc 11.8 would otherwise pick up
HIP_NV_PATH  ?= /usr/lib/nvidia-cuda-toolkit/bin:/usr/bin:$(PATH)
HIP_CUDART   ?= /usr/lib/x86_64-linux-gnu/libcudart_static.a
HIPCC        ?= hipcc
HIP_ARCHS    ?= gfx90a gfx1030
HIP_DEPS_H   := backends/hip/hip_plugin.h backends/hip/hip_vendor.h backends/gpu/gpu.h \
                backends/backend.h backends/errors.h backends/cache.h backends/rtc_options.h

.PHONY: hip-nvidia hip-amd hip-check

# the harness's own C helpers, position-independent, once per platform
$(BUILD)/hip-%/errors.o: backends/errors.c backends/errors.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) -std=gnu11 -O2 -fPIC -fvisibility=hidden $(WARN) -c $< -o $@
$(BUILD)/hip-%/rtc_options.o: backends/rtc_options.c backends/rtc_options.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) -std=gnu11 -O2 -fPIC -fvisibility=hidden $(WARN) -c $< -o $@
$(BUILD)/hip-%/cache.o: backends/cache.c backends/cache.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) -std=gnu11 -O2 -fPIC -fvisibility=hidden $(WARN) -c $< -o $@

# Each plugin is backends/gpu/gpu.c (the ops, shared with the CUDA backend)
# and backends/hip/hip_plugin.cpp (HIP's own part), both compiled as C++
# with HIP's headers for one platform.
HIP_NV_OBJ  := $(BUILD)/hip-nvidia/gpu.o $(BUILD)/hip-nvidia/hip_plugin.o
HIP_AMD_OBJ := $(BUILD)/hip-amd/gpu.o $(BUILD)/hip-amd/hip_plugin.o

# A machine may link CUDA 13's headers into /usr/local/include, which every
# compiler searches before /usr/include (and -I/usr/include is ignored, it
# being a system folder). The shim folder, searched first, points each such
# name back at CUDA 11.8's header in $(HIP_INC). It is made afresh once per
# make run, before either object.
HIP_NV_SHIM := $(BUILD)/hip-nvidia/include
.PHONY: hip-nvidia-shim
hip-nvidia-shim:
	@test -x $(HIP_NVCC) || { echo "hip-nvidia: $(HIP_NVCC) (CUDA 11.8) missing: run ci/hip-nvidia-deps.sh as root"; exit 1; }
	@test -d $(HIP_INC)/hip/nvidia_detail || { echo "hip-nvidia: $(HIP_INC)/hip/nvidia_detail missing: run ci/hip-nvidia-deps.sh as root"; exit 1; }
	@rm -rf $(HIP_NV_SHIM) && mkdir -p $(HIP_NV_SHIM)
	$(Q)for f in /usr/local/include/*; do n=$${f##*/}; \
	    [ -e "$(HIP_INC)/$$n" ] && ln -s "$(HIP_INC)/$$n" "$(HIP_NV_SHIM)/$$n"; done; true
$(BUILD)/hip-nvidia/gpu.o: backends/gpu/gpu.c
$(BUILD)/hip-nvidia/hip_plugin.o: backends/hip/hip_plugin.cpp
$(HIP_NV_OBJ): $(HIP_DEPS_H) | hip-nvidia-shim
	@echo "  NVCC  $(filter %.c %.cpp,$^) (HIP, NVIDIA platform)"
	$(Q)PATH=$(HIP_NV_PATH) $(HIP_NVCC) -ccbin $(HIP_CCBIN) -arch=$(HIP_NV_ARCH) -x cu -std=c++14 -O2 \
	    -Xcompiler -fPIC,-fvisibility=hidden -D__HIP_PLATFORM_NVIDIA__ -I$(HIP_NV_SHIM) \
	    -I$(HIP_INC) -c $(filter %.c %.cpp,$^) -o $@

hip-nvidia: $(HIP_NV_OBJ) $(BUILD)/hip-nvidia/errors.o $(BUILD)/hip-nvidia/cache.o \
            $(BUILD)/hip-nvidia/rtc_options.o
	@mkdir -p $(BUILD)/lib
	@echo "  LD    $(HIP_PLUGIN) (NVIDIA: CUDA 11.8 runtime static, NVRTC from $(CUDA_HOME))"
	$(Q)$(CXX) -shared -o $(HIP_PLUGIN) $^ $(HIP_CUDART) -L$(CUDA_HOME)/lib64 -lnvrtc \
	    -L$(CUDA_HOME)/lib64/stubs -lcuda -Wl,-rpath,$(CUDA_HOME)/lib64 -lpthread -ldl -lrt
	@readelf -d $(HIP_PLUGIN) | grep -q 'libnvrtc.so.13' || \
	    { echo "hip-nvidia: linked an NVRTC other than $(CUDA_HOME)'s"; readelf -d $(HIP_PLUGIN) | grep NEEDED; exit 1; }

$(BUILD)/hip-amd/gpu.o: backends/gpu/gpu.c
$(BUILD)/hip-amd/hip_plugin.o: backends/hip/hip_plugin.cpp
$(HIP_AMD_OBJ): $(HIP_DEPS_H)
	@test -f $(HIP_INC)/hip/hip_runtime_api.h || { echo "hip-amd: HIP headers missing: apt-get install libamdhip64-dev"; exit 1; }
	@mkdir -p $(dir $@)
	@echo "  CXX   $(filter %.c %.cpp,$^) (HIP, AMD platform)"
	$(Q)$(CXX) -x c++ -std=c++17 -O2 -fPIC -fvisibility=hidden $(WARN) -D__HIP_PLATFORM_AMD__ \
	    -I$(HIP_INC) -c $(filter %.c %.cpp,$^) -o $@

hip-amd: $(HIP_AMD_OBJ) $(BUILD)/hip-amd/errors.o $(BUILD)/hip-amd/cache.o \
         $(BUILD)/hip-amd/rtc_options.o
	@mkdir -p $(BUILD)/lib
	@echo "  LD    $(HIP_PLUGIN) (AMD)"
	$(Q)$(CXX) -shared -o $(HIP_PLUGIN) $^ -lamdhip64

hip-check: all
	$(Q)HIPCC=$(HIPCC) HIP_ARCHS="$(HIP_ARCHS)" bash ci/hip-amd-check.sh $(BUILD)
