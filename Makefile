# The two commands a newcomer needs: `make run` and `make test`. See README.md.
SWIFT ?= swift
BIN_DEBUG := .build/debug/kiosk-carousel
BIN_RELEASE := .build/release/kiosk-carousel
CONFIG ?= config/example.toml

.PHONY: all deps build release run test unit vm-test bench perf-table latency fuzz soak reliability install deb package-test docs clean hostile-sticks

all: build

deps:
	scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

## make run: the example carousel, on the screen when a DRM device is usable, else headless PNGs in out/.
run: build
	scripts/run-example.sh $(BIN_DEBUG) $(CONFIG)

## make test: installs what is missing, checks that every import is a declared dependency
## (scripts/check-imports.py), the update test's own logic (update_test.py --self-test) and the boot
## trace's reading (boot-time.py and trace-child.py --self-test), builds, runs the unit tests, the VM tests and the quick fuzz.
test: deps
	scripts/check-imports.py
	Tests/image/update_test.py --self-test
	scripts/boot-time.py --self-test
	scripts/trace-child.py --self-test
	image/preload-ranges.py --self-test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	scripts/run-vm-tests.sh
	scripts/fuzz.sh --quick

unit: deps
	$(SWIFT) test

vm-test: build
	scripts/run-vm-tests.sh

## make bench: the engine, the card renderer, and the compositor beside Qt 5 and pixman on every
## scene: the four published ones, docs/compositor/extra_scenes.py's and layout_scenes.py's.
BENCH_SCENES ?= .build/bench-scenes
bench: release
	$(BIN_RELEASE) bench engine
	$(BIN_RELEASE) bench cards
	python3 docs/compositor/layout_scenes.py $(BIN_RELEASE) $(BENCH_SCENES) >/dev/null
	../shared/bench/tools/compare.sh --scene-dir $(BENCH_SCENES) -- $(BIN_RELEASE) bench composite

## make perf-table: docs/performance.md, the frame budget of every layout at 800x480 … 3840x2160 on this machine.
perf-table: release
	PERF_TABLE_ARGS="$(PERF_TABLE_ARGS)" scripts/perf-table.sh $(BIN_RELEASE)

## make latency: input-to-photon latency in kiosk-vm (release build), the table of docs/latency.md.
latency: release
	BIN=$(BIN_RELEASE) scripts/measure-latency.sh

## make install: binary, systemd unit, /etc/kiosk-carousel/config.toml if absent (docs/systemd.md).
install: release
	BIN=$(BIN_RELEASE) scripts/install.sh

## make deb: out/kiosk-carousel_<version>_<arch>.deb by `dpkg-buildpackage -b` (debian/: its
## release build is in .build-deb), then lintian, whose errors fail it (docs/packaging.md).
DEB_OUT := $(CURDIR)/out
# This machine's own package, also under `make image-test ARCH=arm64` (which needs it): a
# command-line ARCH reaches every recipe's environment, and build-deb.sh would cross-build (the
# arm64 package is make arm64-deb's).
deb: deps
	ARCH= scripts/build-deb.sh $(DEB_OUT)

## make image: out/kiosk-carousel-<version>-amd64.img, a disk that boots into the carousel (docs/image.md).
## make image ARCH=arm64: out/kiosk-carousel-<version>-arm64.img (Debian 13) from the arm64 .deb in out/.
## (make arm64-deb once first; ARCH=arm64 does not rebuild it.)
## make image BOARD=rpi: out/kiosk-carousel-<version>-rpi-arm64.img, Raspberry Pi 4 (its own firmware, MBR;
## docs/raspberry-pi.md), from the same arm64 .deb.
.PHONY: image image-test rpi-image-test
BOARD ?= uefi
IMAGE_ARCH = $(if $(filter arm64,$(ARCH))$(filter rpi,$(BOARD)),arm64,amd64)
image: $(if $(filter arm64,$(IMAGE_ARCH)),,deb)
	ARCH=$(IMAGE_ARCH) BOARD=$(BOARD) scripts/make-image.sh

## make boot-time BOOTS=10: the newest amd64 image booted BOOTS times in QEMU as image-test boots it, one at a
## time; firmware, loader, kernel, initrd, userspace before our exec, exec -> first frame: medians with the host
## load, and the kiosk unit's critical chain (scripts/boot-time.py; out/boot-time/LABEL/; docs/start-up.md).
## DISK=ssd: the disk as a SCSI disk that does not rotate (a kiosk's SD card or SSD) instead of virtio-blk.
## TRACE=1: the kernel traces every exec, mount(2) and module load of each boot; the summary splits systemd's set-up.
## TRACE_EVENTS=system:event,…: other trace events as well (with TRACE=1; each boot's serial log holds the trace).
## SANDBOX=1: after each boot, what the kiosk unit's sandbox costs at start, setting by setting (docs/systemd.md).
## FLOOR=1: after each boot, the program's own start without and with that sandbox, the kiosk stopped (docs/start-up.md).
## DROPIN="a.conf b.conf": the image boots in turn as it is and with each drop-in for the kiosk's unit written into its copy.
## CMDLINE="words": the image boots in turn as it is and with those words added to its kernel's command line.
.PHONY: boot-time
BOOTS ?= 10
boot-time:
	scripts/boot-time.py --boots $(BOOTS) $(if $(IMG),--img $(IMG)) $(if $(LABEL),--label $(LABEL)) $(if $(DISK),--disk-kind $(DISK)) $(if $(TRACE),--trace-pid1) $(if $(TRACE_EVENTS),--trace-events $(TRACE_EVENTS)) $(if $(SANDBOX),--sandbox-cost) $(if $(FLOOR),--start-floor) $(foreach d,$(DROPIN),--dropin $(d)) $(if $(CMDLINE),--cmdline "$(CMDLINE)")

## make update-bundle: out/kiosk-carousel-<version>-<arch>.raucb, a signed RAUC bundle of the image's root
## filesystem (from make image; UPDATE_KEY= UPDATE_CERT=, else a development key in out/update-keys/). docs/updates.md.
.PHONY: update-bundle
update-bundle:
	ARCH=$(IMAGE_ARCH) scripts/make-update-bundle.sh

## make content-bundle CONTENT=folder: out/kiosk-carousel-content-<name>-<version>.kcb, a signed content bundle
## of a folder (what a stick's kiosk-carousel/ holds) for [content] url, refused when the program's own check
## (usb-import) refuses the folder; signed like update-bundle (NAME= VERSION= UPDATE_KEY= UPDATE_CERT=
## UPDATE_KEYRING= MAX_MB= ALLOW_EXEC=1; scripts/make-content-bundle.sh). docs/updates.md.
.PHONY: content-bundle
content-bundle: build
	CONTENT=$(CONTENT) KIOSK_BIN=$(BIN_DEBUG) scripts/make-content-bundle.sh

## make update-test: N from the image's own disk updated to N+1 from a USB stick and N+2 from a URL,
## a broken N+1 rolled back by itself, bad bundles refused, power cuts during an update
## (Tests/image/update-test.sh, docs/updates.md; QUICK=1: 2 power cuts instead of 20; the steps in
## guests side by side, LANES=1 one after the other). Builds the image first when out/ has none.
.PHONY: update-test
update-test: $(if $(wildcard out/kiosk-carousel-*-amd64.img),,image)
	QUICK=$(QUICK) Tests/image/update-test.sh

## make image-test: boots the image in QEMU, turns the carousel, pulls the power, boots again (docs/image.md).
## ARCH=arm64: the arm64 image in qemu-system-aarch64 -M virt; simulate from the x86-64 .deb (make deb).
image-test: image $(if $(filter arm64,$(IMAGE_ARCH)),deb,)
	ARCH=$(IMAGE_ARCH) Tests/image/boot-test.sh

## make rpi-image-test: the Raspberry Pi image (make image BOARD=rpi first; not rebuilt here): the Pi's RAUC
## backend (Tests/image/rauc-bootloader-rpi-test.sh), the touch display examples of docs/raspberry-pi.md
## (check-config and simulate: Tests/image/rpi_touch_examples.py), its boot partition checked file by
## file with mtools (Tests/image/rpi_boot_files.py), then booted in qemu-system-aarch64 -M raspi4b from
## a Debian 13 root (trixie's QEMU) as far as the emulator goes (Tests/image/rpi-boot-test.sh).
## Not part of make test. docs/raspberry-pi.md.
rpi-image-test: build
	Tests/image/rauc-bootloader-rpi-test.sh
	Tests/image/rpi_touch_examples.py $(BIN_DEBUG)
	Tests/image/rpi_boot_files.py --self-test "$$(ls -t out/kiosk-carousel-*-rpi-arm64.img | head -1)"
	Tests/image/rpi-boot-test.sh

## make package-test: the .deb installed by apt into a clean Debian 12 (scripts/check-deb.sh), its
## maintainer scripts under a running systemd in the VM (Tests/package/lifecycle.sh), and the disk
## image built and booted from its own disk (make image, make image-test). CI runs it after make test.
package-test: deb
	scripts/run-package-tests.sh

## make docs: regenerate the pictures, the configuration reference and the command list from the program itself.
docs: build
	scripts/make-doc-images.sh $(BIN_DEBUG)
	scripts/update-readme-reference.sh $(BIN_DEBUG)

## make fuzz: libFuzzer, 1,000,000 runs per harness (docs/reliability.md).
fuzz: deps
	scripts/fuzz.sh

## make hostile-sticks: hostile USB sticks (FAT32, exFAT, ext4: bad names, links and devices, huge sizes,
## forbidden tables, damaged file systems, pulled at 10 moments) through `usb-import --folder` on this machine
## and plugged into kiosk-vm; prints the figures of docs/usb.md, "Hostile sticks" (Tests/usb-hostile/run.sh;
## QUICK=1 the smaller set). Not part of make test (its VM time).
hostile-sticks: build
	QUICK=$(QUICK) Tests/usb-hostile/run.sh

## make soak: 10^6 random events over hours of virtual time, then 6,000 reloads of a live kiosk.
soak: deps
	scripts/soak.sh

## make endurance HOURS=4 (or MINUTES=10, the CI form): the shipped unit under real systemd in kiosk-vm with
## synthetic use (drags, knob turns, program selects, unplugs, input hotplug, reloads, USB imports, the clip, a
## schedule, blanking, pixel shift), sampled every minute (20 s under an hour); fails on growth of memory,
## descriptors, threads, frame times, flips missed or the card cache (a fitted slope over a threshold per series).
## Data, verdict and plots in ENDURANCE_OUT (out/endurance). Installs python3-matplotlib for the plots.
## docs/reliability.md, "Endurance".
ENDURANCE_OUT ?= out/endurance
endurance: build
	@[ -n "$(HOURS)$(MINUTES)" ] || { echo "make endurance HOURS=N or MINUTES=N"; exit 2; }
	/usr/bin/python3 -c 'import matplotlib' 2>/dev/null || { apt-get update -q >/dev/null && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3-matplotlib >/dev/null; }
	scripts/endurance.sh $(if $(MINUTES),$(MINUTES),$$(( $(HOURS) * 60 ))) $(ENDURANCE_OUT)

## make reliability: the long fuzz, soak and fault runs.
reliability: deps
	$(SWIFT) build --build-tests
	scripts/reliability.sh

## make arm64-check: cross-builds for aarch64, runs the XCTests and `simulate` under qemu-user and
## compares the PNG with x86-64's (docs/arm64.md; ARM64_TESTS=quick for the faster subset).
## make arm64-release: the shippable aarch64 binary (static Swift runtime, Debian 13 sysroot).
## make arm64-deb: out/kiosk-carousel_<version>_arm64.deb (dpkg-buildpackage -aarm64 with the cross-built binary), apt-installed in a clean trixie arm64 root.
.PHONY: arm64-check arm64-release arm64-deb
arm64-check:
	scripts/arm64/check.sh

arm64-release:
	scripts/arm64/release.sh

arm64-deb: arm64-release
	scripts/arm64/deb.sh

clean:
	rm -rf .build .build-deb .build-manual .build-arm64 .build-arm64-release .build-x86-sid out
