# divharness — build, run, test.  `make` builds build/harness; `make run`
# and `make test` also install missing Debian packages (ci/deps.sh).
# Options: V=1 verbose, WERROR=1 warnings are errors (CI), NO_CUDA=1.

CC      ?= gcc
CXX     ?= g++
BUILD   ?= build
Q       := $(if $(V),,@)

XML_CFLAGS := $(shell pkg-config --cflags libxml-2.0 2>/dev/null || echo -I/usr/include/libxml2)
XML_LIBS   := $(shell pkg-config --libs libxml-2.0 2>/dev/null || echo -lxml2)
GIT_REV    := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
VERSION    := $(shell cat VERSION 2>/dev/null || echo 0)

WARN     := -Wall -Wextra -Wno-format-truncation -Wno-missing-field-initializers $(if $(WERROR),-Werror,)
# -ffp-contract=off: CPU references round every operation, like the kernels
CFLAGS   ?= -O2 -g
ALL_CFLAGS := -std=gnu11 $(CFLAGS) $(WARN) -ffp-contract=off -fopenmp -MMD -MP \
              -I. $(XML_CFLAGS) $(EXTRA_CFLAGS)
LDLIBS   := $(XML_LIBS) -lxxhash -ljansson -lcmark-gfm-extensions -lcmark-gfm -lsqlite3 -ldl -lm -fopenmp $(LDFLAGS_EXTRA)

SRC := $(filter-out $(EXCLUDE),$(wildcard harness/*/*.c) $(wildcard backends/*.c) \
       backends/opencl/opencl.c $(wildcard tuning/*.c) $(wildcard results/*.c) \
       $(wildcard suites/*.c) $(wildcard suites/lib/*.c) $(wildcard suites/*/*/*.c))

# CUDA backend: needs only the toolkit's headers to build
CUDA_HOME ?= /usr/local/cuda
ifeq ($(NO_CUDA),)
ifneq ($(wildcard $(CUDA_HOME)/include/cuda.h),)
ifneq ($(wildcard backends/cuda/cuda.c),)
CUPTI_INC := $(firstword $(wildcard $(CUDA_HOME)/extras/CUPTI/include) $(CUDA_HOME)/include)
SRC       += $(wildcard backends/cuda/*.c) backends/gpu/gpu.c
CXXSRC    += $(wildcard backends/cuda/*.cpp)
ALL_CFLAGS += -DDH_HAVE_CUDA
CUDA_FLAGS := -Ibackends -I$(CUDA_HOME)/include -I$(CUPTI_INC)
LDLIBS    += -lstdc++
# backends/gpu/gpu.c, the ops shared with the HIP plugin, is CUDA code here
$(BUILD)/obj/backends/gpu/%.o: ALL_CFLAGS += $(CUDA_FLAGS)
endif
endif
endif

-include backends/hip/hip.mk

KERNELS := $(wildcard suites/*/*/*.k)
EMBED_ARGS := dh_src_lib_dialect=suites/lib/dialect.h dh_src_lib_tdr=suites/lib/tdr.h \
              dh_xsd_results=results/divharness-1.xsd dh_xsd_descriptor1=suites/lib/descriptor-1.xsd \
              dh_xsd_descriptor2=suites/lib/descriptor-2.xsd \
              $(foreach k,$(KERNELS),dh_src_$(word 2,$(subst /, ,$(k)))_$(word 3,$(subst /, ,$(k)))=$(k))

OBJDIR := $(BUILD)/obj
OBJ := $(SRC:%.c=$(OBJDIR)/%.o) $(CXXSRC:%.cpp=$(OBJDIR)/%.o) $(OBJDIR)/embed.o \
       $(OBJDIR)/codehash.o $(OBJDIR)/version.o

.DEFAULT_GOAL := all
.PHONY: all run test test-quick unit-tests deps clean FORCE

# objects depend on the flags: switching NO_CUDA or sanitizers rebuilds
FLAGS_TEXT := $(ALL_CFLAGS) $(CUDA_FLAGS) $(CXXSRC)
$(BUILD)/.flags: FORCE
	@mkdir -p $(BUILD)
	@echo '$(FLAGS_TEXT)' | cmp -s - $@ || echo '$(FLAGS_TEXT)' > $@
all: $(BUILD)/harness $(BUILD)/tools/hostbench

$(BUILD)/harness: $(OBJ)
	@echo "  LD    $@"
	$(Q)$(CC) -o $@ $(OBJ) $(LDLIBS)

$(OBJDIR)/%.o: %.c $(BUILD)/.flags
	@mkdir -p $(dir $@)
	@echo "  CC    $<"
	$(Q)$(CC) $(ALL_CFLAGS) $(if $(findstring backends/cuda,$<),$(CUDA_FLAGS)) -c $< -o $@

$(OBJDIR)/%.o: %.cpp $(BUILD)/.flags
	@mkdir -p $(dir $@)
	@echo "  CXX   $<"
	$(Q)$(CXX) -std=c++17 $(CFLAGS) $(WARN) -MMD -MP -I. $(CUDA_FLAGS) -c $< -o $@

$(BUILD)/tools/embed: tools/embed.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) -O1 -o $@ $<

$(BUILD)/embed.c: $(BUILD)/tools/embed suites/lib/dialect.h suites/lib/tdr.h \
                  results/divharness-1.xsd suites/lib/descriptor-1.xsd suites/lib/descriptor-2.xsd $(KERNELS) Makefile
	@echo "  EMBED $@"
	$(Q)$(BUILD)/tools/embed $@ $(EMBED_ARGS)

$(OBJDIR)/embed.o: $(BUILD)/embed.c
	$(Q)$(CC) -c $< -o $@

# the workload cache's key of each built-in benchmark: a hash of its
# folder's files and of the code every generator and reference shares
# (suites/lib, suite.h, the expressions of sizes and counts)
BENCH_DIRS  := $(patsubst %/,%,$(sort $(dir $(KERNELS))))
SHARED_CODE := $(sort $(wildcard suites/lib/*)) suites/suite.h harness/support/expr.c \
               harness/support/params.c
# (made on every build, replaced only when a hash moved: a removed file
# counts too)
$(BUILD)/codehash.c: FORCE
	@mkdir -p $(dir $@)
	$(Q)bash tools/codehash.sh $@ "$(SHARED_CODE)" $(BENCH_DIRS)

$(OBJDIR)/codehash.o: $(BUILD)/codehash.c
	$(Q)$(CC) -c $< -o $@

# the version and the revision of this build (`harness --version`, every
# results file): made on every build, replaced only when either moved
$(BUILD)/version.c: FORCE
	@mkdir -p $(dir $@)
	$(Q)printf 'const char dh_version[] = "%s";\nconst char dh_git_rev[] = "%s";\n' \
	    '$(VERSION)' '$(GIT_REV)' > $@.new; cmp -s $@.new $@ && rm -f $@.new || mv $@.new $@

$(OBJDIR)/version.o: $(BUILD)/version.c
	$(Q)$(CC) -c $< -o $@

deps:
	$(Q)bash ci/deps.sh run
deps-test:
	$(Q)bash ci/deps.sh test

# ---- the documentation site, man pages, install ----
# `make docs`: docs/ as a static site in build/site (mkdocs --strict: a
# broken link, or a page missing from mkdocs.yml's nav, fails the build);
# docs/reference/options.md is made first from the built harness, and
# docs/changelog.md is CHANGELOG.md (neither is kept in git)
.PHONY: docs man install uninstall
docs: $(BUILD)/harness
	$(Q)bash tools/options-md.sh $(BUILD)/harness > docs/reference/options.md.new && \
	    mv docs/reference/options.md.new docs/reference/options.md
	$(Q)cp CHANGELOG.md docs/changelog.md
	$(Q)mkdocs build --strict --quiet --site-dir $(abspath $(BUILD))/site
	@echo "docs: $(BUILD)/site/index.html"

# man pages: harness(1) and harness-CMD(1), from each command's --help
MAN_DIR ?= $(BUILD)/man
man: $(BUILD)/harness
	$(Q)rm -rf $(MAN_DIR) && bash tools/man.sh $(BUILD)/harness $(MAN_DIR)

# `make install PREFIX=/usr/local DESTDIR=`: the binary, the HIP plugin
# when built, the man pages, bash completion, the schemas and the example
# kernel; `make uninstall` removes exactly those. install-files copies
# what is built, building nothing (tests/test_install.c runs it).
PREFIX  ?= /usr/local
BINDIR  := $(PREFIX)/bin
PKGLIB  := $(PREFIX)/lib/divharness
MANDIR  := $(PREFIX)/share/man/man1
COMPDIR := $(PREFIX)/share/bash-completion/completions
DOCDIR  := $(PREFIX)/share/doc/divharness
DOC_FILES := README.md CHANGELOG.md LICENSE results/divharness-1.xsd suites/lib/descriptor-1.xsd \
             suites/lib/descriptor-2.xsd tuning/examples/branch_sum.xml tuning/examples/branch_sum.k
.PHONY: install-files
install: all man
	$(Q)$(MAKE) --no-print-directory install-files
install-files:
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(COMPDIR) $(DESTDIR)$(DOCDIR)
	install -m 755 $(BUILD)/harness $(DESTDIR)$(BINDIR)/harness
	if [ -f $(BUILD)/lib/libdh-hip.so ]; then install -d $(DESTDIR)$(PKGLIB) && \
	    install -m 644 $(BUILD)/lib/libdh-hip.so $(DESTDIR)$(PKGLIB)/; fi
	install -m 644 $(MAN_DIR)/*.1 $(DESTDIR)$(MANDIR)/
	install -m 644 completions/harness.bash $(DESTDIR)$(COMPDIR)/harness
	install -m 644 $(wildcard $(DOC_FILES)) $(DESTDIR)$(DOCDIR)/
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/harness $(DESTDIR)$(MANDIR)/harness.1 \
	    $(DESTDIR)$(MANDIR)/harness-*.1 $(DESTDIR)$(COMPDIR)/harness
	rm -f $(DESTDIR)$(PKGLIB)/libdh-hip.so $(addprefix $(DESTDIR)$(DOCDIR)/,$(notdir $(DOC_FILES)))
	-rmdir $(DESTDIR)$(PKGLIB) $(DESTDIR)$(DOCDIR) 2>/dev/null

RUN_OUT ?= results/runs/$(shell date +%Y%m%d-%H%M%S)
run: deps all
	$(Q)$(BUILD)/harness run --suite $(or $(SUITE),frontier) --size $(or $(SIZE),small) \
	    --out $(RUN_OUT) $(RUN_ARGS); rc=$$?; \
	 $(BUILD)/harness report $(RUN_OUT)/results.xml --out $(RUN_OUT)/report && \
	 echo "report: $(RUN_OUT)/report/index.md"; exit $$rc

# ---- tests (cmocka) ----
TEST_SRC  := $(filter-out $(EXCLUDE),$(wildcard tests/test_*.c))
LIB_OBJ   := $(filter-out $(OBJDIR)/harness/cli/main.o,$(OBJ))
TESTS     := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)

$(BUILD)/tests/%: tests/%.c $(wildcard tests/*.h) $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@echo "  TEST  $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS) -lcmocka

unit-tests: $(TESTS)

# docs/model.md: the modeled CFE of a BBV sort on a prefix of the blocks
$(BUILD)/tools/model_prefix: tools/model_prefix.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@echo "  CC    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS)

# cpu_tdr's host work timed without a device (docs/guide/measurement.md)
$(BUILD)/tools/hostbench: tools/hostbench.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@echo "  LD    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS)

# the packages first, then the build on every core, then the tests side by
# side (ci/test.sh: JOBS programs at a time)
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
test: deps-test
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) all unit-tests
	$(Q)JOBS=$(JOBS) bash ci/test.sh $(BUILD) full

# the edit loop: every test program, no device run, no run of the built
# harness or a ci/ script (those tests report SKIPPED); no package install
test-quick:
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) all unit-tests
	$(Q)JOBS=$(JOBS) bash ci/test.sh $(BUILD) quick

# ---- fuzzing (libFuzzer, ASan + UBSan; clang) ----
# `make fuzz` builds every target in build-fuzz/ and runs each for
# FUZZ_SECONDS (default 60) from its committed seeds in fuzz/corpus/;
# a finding fails the run and is saved under build-fuzz/findings/.
FUZZ_BUILD   ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined
.PHONY: fuzz fuzz-build fuzz-targets
fuzz: deps-test fuzz-build
	$(Q)JOBS=$(JOBS) bash ci/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)
fuzz-build:
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) BUILD=$(FUZZ_BUILD) CC=clang NO_CUDA=1 \
	    EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN) -Wno-unknown-warning-option" \
	    LDFLAGS_EXTRA="$(FUZZ_SAN)" fuzz-targets
fuzz-targets: $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%)
$(BUILD)/fuzz/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz.h $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@echo "  FUZZ  $@"
	$(Q)$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< $(LIB_OBJ) $(LDLIBS)

clean:
	rm -rf $(BUILD) build-san $(FUZZ_BUILD)

-include $(OBJ:.o=.d)
