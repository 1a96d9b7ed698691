# telenorid — build, test, benchmark. `make demo` and `make test` are the README's two commands.
SHELL := /bin/bash
PREFIX ?= /usr/local
OUT := out
LIB := $(OUT)/lib
# The Python the tests and scripts run: the repository's .venv (made by `make setup`) when it exists, else
# python3. Recursively expanded (?=), so a .venv that `make setup demo` creates is seen by the targets after setup;
# exported, so the scripts take it (they make the same choice when run by hand).
PYTHON ?= $(shell [ -x .venv/bin/python ] && echo $(CURDIR)/.venv/bin/python || echo python3)
export PYTHON
# Every recipe, and every program it starts (a JVM test starting a provider, a script running `python3`),
# finds the venv's interpreter first: a bare python3 means the project's, never one that happens to hold
# a package on this machine. Harmless before `make setup` creates the venv.
export PATH := $(CURDIR)/.venv/bin:$(PATH)
# The arm64 JVM of the aarch64 JNI smoke run and the linux-aarch64 natives jar's load (under qemu-aarch64):
# an installed openjdk-17-jre-headless:arm64, else the one scripts/setup.sh unpacks into .jvm-arm64. The scripts
# that use it skip that step, saying so, when neither exists.
ARM64_JAVA_HOME ?= $(firstword $(wildcard /usr/lib/jvm/java-17-openjdk-arm64/bin/java $(CURDIR)/.jvm-arm64/usr/lib/jvm/java-17-openjdk-arm64/bin/java))
ifneq ($(ARM64_JAVA_HOME),)
export ARM64_JAVA_HOME := $(patsubst %/bin/java,%,$(ARM64_JAVA_HOME))
endif
VERSION := $(shell sed -n 's/^\#define TELENORID_VERSION_STRING "\(.*\)"$$/\1/p' include/telenorid.h)

.PHONY: all setup build build-arm64 install demo check-facts check-tree check-format format generate check-generated check-docs docs release test-release test test-swift test-c test-arm64 test-python test-wheel test-jni test-jar jni jar dist wheel \
	fuzz bench clean

all: build

setup:
	bash scripts/setup.sh

# The stripped library's budget in bytes; it moves only with a measurement of what each part costs (README,
# "Size": 7,040,000 until 0.6.0 built the library in Embedded Swift, measured at 1,282,336 bytes).
SIZE_BUDGET := 1500000

# The shipped library, built in Embedded Swift (scripts/embedded.sh: the one home of that build; it goes first
# in `make test`, so code Embedded Swift forbids fails there before any suite runs). Shipped stripped (`strip`
# keeps the dynamic symbol table), with its SONAME links.
EMBEDDED := $(OUT)/embedded
build:
	bash scripts/embedded.sh x86_64 $(EMBEDDED)/x86_64
	mkdir -p $(LIB)
	strip -o $(LIB)/libtelenorid.so.$(VERSION) $(EMBEDDED)/x86_64/libtelenorid.so
	ln -sf libtelenorid.so.$(VERSION) $(LIB)/libtelenorid.so.0
	ln -sf libtelenorid.so.0 $(LIB)/libtelenorid.so
	@echo "libtelenorid.so stripped: $$(stat -c %s $(LIB)/libtelenorid.so.$(VERSION)) bytes (budget $(SIZE_BUDGET))"
	@test $$(stat -c %s $(LIB)/libtelenorid.so.$(VERSION)) -le $(SIZE_BUDGET) || \
	    { echo "libtelenorid.so is over its budget of $(SIZE_BUDGET) bytes: see README, Size" >&2; exit 1; }

# The same library for aarch64 Linux, cross-compiled (Debian's arm64 libraries: scripts/setup.sh), in
# out/lib-arm64; `make test-arm64` runs its C suite under qemu-aarch64.
LIB_ARM64 := $(OUT)/lib-arm64
build-arm64:
	bash scripts/embedded.sh aarch64 $(EMBEDDED)/aarch64
	mkdir -p $(LIB_ARM64)
	aarch64-linux-gnu-strip -o $(LIB_ARM64)/libtelenorid.so.$(VERSION) $(EMBEDDED)/aarch64/libtelenorid.so
	ln -sf libtelenorid.so.$(VERSION) $(LIB_ARM64)/libtelenorid.so.0
	ln -sf libtelenorid.so.0 $(LIB_ARM64)/libtelenorid.so

# `make install PREFIX=/usr/local [DESTDIR=...]`: the header, the .so with its SONAME links and a pkg-config
# file (why it has no Requires.private: see bindings/c/telenorid.pc.in), then ldconfig when LIBDIR is one of the
# dynamic loader's directories, or one line saying what a program needs (scripts/install_loader.sh).
# Tests/c/test_install.sh checks it.
INCLUDEDIR ?= $(PREFIX)/include
LIBDIR ?= $(PREFIX)/lib
LDCONFIG ?= $(shell command -v ldconfig || echo /sbin/ldconfig)
install: build
	install -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR)/pkgconfig
	install -m 644 include/telenorid.h $(DESTDIR)$(INCLUDEDIR)/telenorid.h
	install -m 755 $(LIB)/libtelenorid.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libtelenorid.so.$(VERSION)
	ln -sf libtelenorid.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libtelenorid.so.0
	ln -sf libtelenorid.so.0 $(DESTDIR)$(LIBDIR)/libtelenorid.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@VERSION@|$(VERSION)|' bindings/c/telenorid.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/telenorid.pc
	bash scripts/install_loader.sh "$(LIBDIR)" "$(DESTDIR)" "$(LDCONFIG)"

demo: build
	bash scripts/demo.sh

# Every hand-kept copy of a header fact (status codes, keys, version...) agrees with include/telenorid.h.
check-facts:
	$(PYTHON) scripts/check_facts.py

# The tree's own rules: the C library imported by one Swift file, no build machine's paths in what is committed.
check-tree:
	$(PYTHON) scripts/check_tree.py

# Every mirror of include/telenorid.h (Python's declarations and constants, Java's natives and constants, the
# C NULL-contract test) written by scripts/gen; `make check-generated` regenerates them into a temporary tree
# and fails on any difference, then proves it would catch a hand edit and a header change not regenerated
# (Tests/gen/test_check_generated.sh).
generate:
	$(PYTHON) scripts/gen

check-generated:
	$(PYTHON) scripts/gen --check
	bash Tests/gen/test_check_generated.sh

# Every declaration of include/telenorid.h has its comment, and every telenorid_* name the comments give is declared
# (scripts/gen/emit_c_reference.py, the emitter of scripts/gen that `make docs` runs to write the reference).
check-docs:
	$(PYTHON) scripts/gen --check-docs

# out/docs/c/index.html: the C API reference, made from the header's own comments; and
# out/docs/man/man1/telenorid.1, the command's man page, made from its parser (scripts/gen_man.py; read it with
# `man -M out/docs/man telenorid`).
docs:
	$(PYTHON) scripts/gen --docs $(OUT)/docs/c
	mkdir -p $(OUT)/docs/man/man1
	$(PYTHON) scripts/gen_man.py --output $(OUT)/docs/man/man1/telenorid.1

# The Swift sources as swift-format (in the toolchain) writes them with .swift-format: `make format` rewrites them.
check-format:
	swift format lint --strict --recursive --configuration .swift-format Sources Tests fuzz/targets Package.swift

format:
	swift format --in-place --recursive --configuration .swift-format Sources Tests fuzz/targets Package.swift

test: build check-facts check-tree check-format check-generated check-docs test-swift test-c test-arm64 test-python test-wheel test-jni test-jar test-release fuzz

# The suites start providers and listeners on fixed loopback ports and must not overlap, even under -j.
.NOTPARALLEL:

# The whole suite runs again under ThreadSanitizer: the core's one lock type (`Locked`, a pthread mutex)
# is one TSan sees.
test-swift:
	swift test
	swift test --sanitize=thread --scratch-path .build-tsan

test-c: build
	bash Tests/c/run.sh

# The aarch64 library's C suite under qemu-aarch64 (Tests/c/run_arm64.sh).
test-arm64: build-arm64
	bash Tests/c/run_arm64.sh

test-python: build
	bash Tests/python/run.sh

# The wheel of bindings/python with the library inside (the script builds it), installed and used in a
# fresh virtual environment.
test-wheel: build
	bash Tests/python/test_wheel.sh

# The JNI bridge and its Java API on the host JDK (the Android build itself is not run here).
test-jni: build
	bash bindings/jni/build.sh

# check-docs refuses what it must (Tests/release/test_check_docs.py); `make release`, then each artifact in dist/
# installed and used from a clean directory (Tests/release/test_release.py).
test-release: release
	$(PYTHON) Tests/release/test_check_docs.py
	$(PYTHON) Tests/release/test_release.py dist

# The API jar and this platform's natives jar alone on a class path, outside the repository, signing a user in;
# the Maven repository's layout, POM and jars, resolved by Maven's own resolver (Tests/java/test_maven_release.py).
test-jar: jar
	$(PYTHON) Tests/java/test_jar_alone.py
	$(PYTHON) Tests/java/test_maven_release.py

# out/jni/libtelenorid_jni.so: the JNI bridge for this machine's JDK.
jni: build
	bash bindings/jni/build_bridge.sh

# out/jar: the Java release as a Maven repository (no/telenor/id/telenorid/<version>/): the API jar (no native
# code), -sources and -javadoc jars, the .pom, and the natives as classifier jars (-linux-x86_64, and
# -linux-aarch64 when out/lib-arm64 exists) holding only the bridge and libtelenorid (scripts/jar.sh).
jar: jni
	bash scripts/jar.sh

# The Python binding as a wheel carrying libtelenorid.so.
wheel: build
	bash scripts/wheel.sh

# dist/telenorid-<version>.tar.gz: `git archive` of HEAD under telenorid-<version>/.
dist:
	bash scripts/dist.sh

# dist/: everything a release publishes, from the one version in include/telenorid.h (scripts/release.sh): the
# wheels and sdist (dist/python), the Maven artifacts (dist/maven), the C tarballs, the source tarball, an SBOM
# and SHA256SUMS. Builds only what is out of date; the aarch64 artifacts when `make build-arm64` has been run.
release: jar docs $(if $(wildcard $(LIB_ARM64)),build-arm64)
	bash scripts/release.sh

fuzz:
	bash fuzz/run.sh

bench: build
	bash bench/run.sh

clean:
	rm -rf .build $(OUT) dist
