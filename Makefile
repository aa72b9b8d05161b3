# MLTCP top-level Makefile.
#
#   make              build the kernel modules (for KVER) and the userspace tools
#   make demo         two training jobs under reno/dctcp and their MLTCP versions, in a
#                     QEMU guest (~4 min): a summary and one figure (= make -C lab demo;
#                     `make -C lab` lists every benchmark)
#   make check        deps, build, unit tests, then every selftest inside the QEMU bench,
#                     on each kernel of KVERS (default: Debian 12's 6.1 and 6.12)
#   make check-debug  every selftest on a debug kernel built once from Debian's source
#                     (KASAN, lockdep, UBSAN, kmemleak, ...; scripts/check-debug.sh);
#                     opt-in, not part of make check
#   make bench        the condition grid, then the DDP scenarios (lab/scripts/bench.sh full)
#   make sim          the cluster simulator's default scenario, a leaf-spine of 16 jobs
#                     in ns-3, stock against MLTCP, each job alone and a centralized
#                     schedule; writes lab/sim/results/ (= make -C lab sim)
#   make unit         userspace unit tests only (cmocka, host)
#   make fuzz         the core under libFuzzer from its corpus for FUZZ_SECONDS (60; the
#                     long run: FUZZ_SECONDS=600), tests/fuzz/README
#   make native       the BPF backend's selftests on the running kernel (root; no guest)
#   make slurm        the Slurm SPANK plugin, build/slurm/spank_mltcp.so (contrib/slurm)
#   make check-slurm  the Slurm integration on a one-node cluster in the QEMU guest
#                     (selftests/test_44), with the modules, then the BPF backend
#   make deps         install build/bench dependencies (Debian, root) and unpack the
#                     kernel headers into the bench cache (never installed)
#   make sparse       build the modules with sparse (C=1)
#   make checkpatch   the kernel's checkpatch.pl --strict over the kernel C (part of make
#                     check; scripts/checkpatch.sh)
#   make install      install modules for KVER, libmltcp, headers and tools (DESTDIR
#                     honoured)
#   make dkms-install copy the module sources to /usr/src/mltcp-VERSION, then dkms add,
#                     build and install them (for KVER if given, else the running kernel)
#   make dkms-remove  dkms remove --all and delete /usr/src/mltcp-VERSION
#
# KVER is the kernel the modules are built for and the bench boots. By default it is
# the ABI that Debian's linux-image-amd64 currently points to. KDIR, its headers, is
# /usr/src/linux-headers-KVER if that package is installed, else the tree `make deps`
# unpacked into the bench's cache (scripts/kheaders KVER prints it); on a real host use
#   make KDIR=/lib/modules/$(uname -r)/build

SHELL := /bin/bash
ifneq ($(words $(CURDIR)),1)
$(error the checkout's path "$(CURDIR)" contains white space, which GNU make and Kbuild \
	cannot build in; move or clone it elsewhere (scripts/vm-run itself works there))
endif
KVER ?= $(shell scripts/default-kver 2>/dev/null)
KDIR ?= $(shell scripts/kheaders $(KVER) 2>/dev/null)
# Where the modules are built: by default in the checkout (M=$PWD, so the *.ko files sit
# next to the sources, where scripts/vm-run takes them from). Any other directory gets
# symbolic links to the sources, so that one checkout builds for several kernels side
# by side (scripts/check.sh uses $(BUILD)/kmod/$KVER).
KOBJ ?= $(CURDIR)
PREFIX ?= /usr/local
BUILD := $(CURDIR)/build
# The limit on the guest selftests of one kernel (scripts/check.sh): they took 960-1210 s
# in CI before the trust tests (test_19, test_37-39) added about 500 s.
VM_TIMEOUT ?= 2700
export VM_TIMEOUT

# KVER/KDIR reach scripts and sub-makes only when the user set them (make passes
# command-line and environment variables on): the defaults above may be computed
# before `make deps` could tell the version, and scripts/check.sh works it out again.
export BUILD

.PHONY: all kdir kobj modules userspace unit fuzz check check-debug deps deps-check sparse install clean demo bench sim bpf native
.PHONY: dkms-src dkms-install dkms-remove checkpatch
.PHONY: slurm check-slurm

all: modules userspace

# Only a KVER the user chose is passed on: on a fresh machine the default can only be
# known after deps.sh has run apt-get update. `make check` tests the kernels in KVERS
# (releases or series, e.g. KVERS="6.1 6.12"; default: scripts/default-kver --all,
# Debian 12's 6.1 and 6.12), or only KVER when one is given.
USER_KVER = $(if $(filter command line environment,$(origin KVER)),$(KVER))
USER_KVERS = $(or $(USER_KVER),$(KVERS))

deps:
	scripts/deps.sh --install $(USER_KVERS)

deps-check:
	@scripts/deps.sh --install $(USER_KVERS) >/dev/null

# Sources only: the *.mod.c files Kbuild generates next to them belong to one kernel.
KSRC := Kbuild VERSION $(filter-out %.mod.c,$(wildcard *.c *.h)) include

# Kbuild alone would only say "No such file or directory".
kdir:
	@test -f "$(KDIR)/Makefile" || { echo "no kernel headers for KVER=$(KVER) at KDIR=$(KDIR):" \
		"run 'make deps KVER=$(KVER)' as root, or set KDIR=" >&2; exit 1; }

kobj: kdir
ifneq ($(abspath $(KOBJ)),$(CURDIR))
	@mkdir -p $(KOBJ)
	@for f in $(KSRC); do ln -sfn $(CURDIR)/$$f $(KOBJ)/$$f; done
endif

modules: kobj
	$(MAKE) -C $(KDIR) M=$(abspath $(KOBJ)) W=1 modules

sparse: kobj
	@mkdir -p $(BUILD)
	set -o pipefail; $(MAKE) -C $(KDIR) M=$(abspath $(KOBJ)) W=1 C=2 modules 2>&1 | \
		tee $(BUILD)/sparse-$(KVER).log
	@! grep -E '(warning|error):' $(BUILD)/sparse-$(KVER).log

# What `make checkpatch` checks: the kernel C and the core headers. Not the shims that give
# the core the kernel's types and helpers outside the kernel (BPF, userspace) or across
# kernel versions: they imitate the kernel, they are not kernel code.
CHECKPATCH_SHIMS := include/mltcp_compat.h include/mltcp_bpf_compat.h include/mltcp_user_compat.h
CHECKPATCH_FILES := $(filter-out %.mod.c,$(wildcard mltcp_*.c)) mltcp_trace.h \
	$(filter-out $(CHECKPATCH_SHIMS),$(wildcard include/*.h))

checkpatch:
	scripts/checkpatch.sh $(CHECKPATCH_FILES)

userspace: bpf
	$(MAKE) -C userspace BUILD=$(BUILD)
	$(MAKE) -C lab/emulator BUILD=$(BUILD)

# The BPF backend (bpf/): $(BUILD)/bpf/mltcp.bpf.o and its skeleton, which
# mltcpctl embeds. Needs clang, bpftool and the running kernel's BTF.
bpf:
	$(MAKE) -C bpf BUILD=$(BUILD)

# The native stage of `make check` alone: the BPF backend on the running kernel (root).
native: userspace
	selftests/bpf/run.sh

# The Slurm SPANK plugin (contrib/slurm; docs/USAGE.md, "On a Slurm cluster"). Needs
# Slurm's spank.h (libslurm-dev, from make deps).
slurm:
	$(MAKE) -C contrib/slurm BUILD=$(BUILD)

# selftests/test_44 alone, once with each backend: munged, slurmctld and slurmd in the
# guest, whose cgroup2 hierarchy Slurm's cgroup/v2 plugin takes (this machine's own
# hybrid layout it refuses). make check runs it with the modules, on its first kernel.
check-slurm: deps-check modules userspace slurm
	scripts/vm-run $(if $(USER_KVER),--kver $(KVER)) -- selftests/run.sh test_44
	scripts/vm-run $(if $(USER_KVER),--kver $(KVER)) -- \
		env SLURM_TEST_BACKEND=bpf selftests/run.sh test_44

unit: userspace
	$(MAKE) -C tests/unit BUILD=$(BUILD) run
	$(MAKE) -C userspace BUILD=$(BUILD) test
	$(MAKE) -C lab/emulator BUILD=$(BUILD) test

# libFuzzer over the core (tests/fuzz): fails on any input that breaks the bound on F.
FUZZ_SECONDS ?= 60
fuzz:
	$(MAKE) -C tests/fuzz BUILD=$(BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) run

# The whole test run, scripts/deps.sh first. Each stage prints TAP; scripts/tap-summary
# adds them up and prints the closing "N passed, N failed" line.
check:
	@mkdir -p $(BUILD)
	@scripts/check.sh

# Opt-in, and hours long: the selftests on a kernel with the runtime checkers built in
# (docs/TESTING.md, "The debug kernel").
check-debug:
	@mkdir -p $(BUILD)
	@scripts/check-debug.sh

# The benchmarks live in lab/ (`make -C lab` says which answers which question); these
# three are kept here because they are the ones a newcomer asks for.
demo: deps-check
	$(MAKE) -C lab demo

bench: deps-check
	lab/scripts/bench.sh full

sim: deps-check
	$(MAKE) -C lab sim

install: modules userspace
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=extra $(if $(DESTDIR),INSTALL_MOD_PATH=$(DESTDIR)) \
		modules_install
	$(MAKE) -C userspace BUILD=$(BUILD) PREFIX=$(PREFIX) install

# DKMS (dkms.conf): the module sources, the Kbuild/Makefile pair that builds them and
# VERSION, the one place the release is kept, go to DKMS_SRC (also used by debian/rules).
VERSION := $(strip $(shell cat $(CURDIR)/VERSION))
DKMS_SRC ?= $(DESTDIR)/usr/src/mltcp-$(VERSION)

dkms-src:
	@test -n "$(VERSION)" || { echo "VERSION is missing or empty" >&2; exit 1; }
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)
	cp -R Makefile $(filter-out %.mod.c,$(KSRC)) $(DKMS_SRC)/
	sed 's/#MODULE_VERSION#/$(VERSION)/' dkms.conf >$(DKMS_SRC)/dkms.conf

# Installing the same release again rebuilds it from the checkout's current sources.
dkms-install:
	if dkms status -m mltcp -v $(VERSION) | grep -q .; then \
		dkms remove -m mltcp -v $(VERSION) --all; fi
	$(MAKE) --no-print-directory dkms-src
	dkms add -m mltcp -v $(VERSION)
	dkms install -m mltcp -v $(VERSION) $(if $(USER_KVER),-k $(USER_KVER))

dkms-remove:
	if dkms status -m mltcp -v $(VERSION) | grep -q .; then \
		dkms remove -m mltcp -v $(VERSION) --all; fi
	rm -rf $(DKMS_SRC)

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean || true
	rm -rf $(BUILD)
