# ssdlab -- plain Makefile with dependency tracking.
#   make            build ./ssdlab (and the library build/libssdlab.a)
#   make demo       build, install gnuplot if possible, run the demo
#   make test       unit + CLI tests, then the same under ASan+UBSan; closes
#                   with "N passed, N failed, N skipped" (a test skips when a
#                   tool it uses is missing; SSDLAB_TEST_NO_SKIP=1 makes a
#                   skip a failure, as .ci/run does; tests/run.sh)
#   make bench      speed and memory benchmark (see BENCHMARKS.md)
#   make proptest   thousands of random drives and workloads, checker on
#   make soak       10^9 host commands on random drives, power cuts, checker
#                   on, every page verified (SOAK_OPS, SOAK_SEED)
#   make powercheck 1,040 power cuts over NBD, checked from the client's side
#   make fuzz       each fuzz target for FUZZ_SECONDS under libFuzzer (clang;
#                   docs/reliability.md)
#   make docs       regenerate docs/options.md, docs/jobfiles.md and the job
#                   files' fuzz dictionaries (tools/fuzz-dicts.sh)
#   make man        the manual page build/ssdlab.1 (tools/man.py)
#   make install    ssdlab, libssdlab.a/.so, ssdlab.h, ssdlab.pc, the man
#                   page, the presets, the nbdkit plugin and the Python
#                   package under PREFIX (/usr/local), DESTDIR
#   make python-test  the Python package's tests (tests/python) alone
#   make uninstall  remove what install installed
#   make check-layers  includes and calls against the layer order, and the
#                   files' and folders' sizes (tools/check-layers.sh)
#   make doc-check  re-run the docs' commands: the outputs they show compared
#                   (tools/doc-check.sh), every command shown run as written
#                   (tools/doc-commands.sh)
#   make fio-examples  count fio's example job files that run unchanged
#                   (FIO_SRC=path of a `git clone https://github.com/axboe/fio`)
#   make clean

CC      ?= cc
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wpointer-arith -Wformat=2 -Wundef -Wvla -Wno-unused-parameter
ifeq ($(WERROR),1)
WARN    += -Werror
endif
BUILD   ?= build
SAN     ?= 0
ifeq ($(SAN),1)
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
            -fno-omit-frame-pointer
endif
PRESETS := $(abspath presets)
ALLCFLAGS = -std=c11 -D_GNU_SOURCE -Iinclude -Isrc $(WARN) $(CFLAGS) $(SANFLAGS) \
            -DSSDLAB_PRESET_DIR='"$(PRESETS)"' -MMD -MP
LDLIBS  := -lm -pthread -lz
# nbdkit's plugin header (Debian: nbdkit-plugin-dev): the NBD server's plugin
HAVE_NBDKIT := $(shell pkg-config --exists nbdkit 2>/dev/null && echo 1)
# libnbd (Debian: libnbd-dev): the client-side power-cut check
# (tests/nbd/powercheck.c) that tests/cli/serve_power_client.sh runs
HAVE_LIBNBD := $(shell pkg-config --exists libnbd 2>/dev/null && echo 1)

LIB_SRC  := $(wildcard src/*/*.c)
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_SRC  := $(wildcard cli/*.c)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
# a sanitized ssdlab serve preloads the runtime its sanitized plugin needs
ifeq ($(SAN),1)
$(CLI_OBJ): ALLCFLAGS += -DSSDLAB_ASAN_RUNTIME='"$(shell $(CC) -print-file-name=libasan.so)"'
endif
UT_SRC   := $(wildcard tests/unit/*.c tests/unit/*/*.c)
UT_OBJ   := $(UT_SRC:%.c=$(BUILD)/%.o)
# the unit tests alone see their harness (tests/unit/t.h)
$(UT_OBJ): ALLCFLAGS += -Itests/unit
LIB      := $(BUILD)/libssdlab.a
# the shared library, defined before the rules that name it as a
# prerequisite (test, python-test, install): a prerequisite is read when
# its rule is
# The version's one definition is the public header's SSDLAB_VERSION_*.
version_part = $(shell sed -n 's/^\#define SSDLAB_VERSION_$(1)  *\([0-9][0-9]*\).*/\1/p' include/ssdlab.h)
VERSION := $(call version_part,MAJOR).$(call version_part,MINOR).$(call version_part,PATCH)
SONAME  := libssdlab.so.$(call version_part,MAJOR)
SHLIB   := $(BUILD)/libssdlab.so.$(VERSION)
# the NBD server's nbdkit plugin (below), defined before the rules that
# name it as a prerequisite (install)
PLUGIN   := $(BUILD)/nbdkit-ssdlab-plugin.so

.PHONY: all plugin fuzz-regress demo plots test unit-test python-test cli-test san-test bench docs doc-check clean proptest soak powercheck fio-examples \
        man shared install install-python uninstall check-layers

all: ssdlab plugin

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/ssdlab: $(CLI_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $(CLI_OBJ) $(LIB) $(LDLIBS)

ssdlab: $(BUILD)/ssdlab
	cp $< $@.tmp && mv -f $@.tmp $@

# the unit tests' allocators can be made to fail (tests/unit/t_alloc.h)
UT_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=mmap,--wrap=munmap
$(BUILD)/unit_tests: $(UT_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(SANFLAGS) $(UT_WRAP) -o $@ $(UT_OBJ) $(LIB) $(LDLIBS)

$(BUILD)/powercheck: tests/nbd/powercheck.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(SANFLAGS) -o $@ $< \
		$(shell pkg-config --cflags --libs libnbd 2>/dev/null)

$(BUILD)/bareftl: bench/bareftl.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE -O2 -g $(WARN) -o $@ $< $(LDLIBS)

# The demo: gnuplot for its chart (installed if this machine can), then
# the steady-state scenario on the default drive.
demo: ssdlab plots
	./ssdlab

plots:
	@tools/install-gnuplot.sh

# The whole suite: normal build, then ASan+UBSan build of the same tests
# (tests/run.sh: "ok", "FAIL" or "skip NAME: reason" a test, then the
# three counts).
test: ssdlab plugin $(BUILD)/unit_tests $(SHLIB) fuzz-regress $(if $(HAVE_LIBNBD),$(BUILD)/powercheck)
	@$(MAKE) --no-print-directory SAN=1 BUILD=build/san build/san/ssdlab build/san/unit_tests fuzz-regress \
		$(if $(HAVE_NBDKIT),build/san/nbdkit-ssdlab-plugin.so) $(if $(HAVE_LIBNBD),build/san/powercheck)
	@tests/run.sh $(BUILD) build/san

unit-test: $(BUILD)/unit_tests
	$(BUILD)/unit_tests

# the Python package over this build's shared library (docs/python.md)
python-test: $(SHLIB)
	$(PYTHON) tests/python/run.py $(BUILD)

# Thousands of random drives and workloads with the invariant checker on
# (tests/cli/property.sh runs a few hundred of them in `make test`).
PROPTEST_CASES ?= 5000
PROPTEST_SEED ?= 1
proptest: ssdlab
	python3 tools/proptest.py ./ssdlab --cases $(PROPTEST_CASES) --seed $(PROPTEST_SEED)
# a billion host commands on random drives with power cuts, the checker
# and every page verified (docs/power-loss.md); not part of `make test`
SOAK_OPS ?= 1e9
SOAK_SEED ?= 1
soak: ssdlab
	python3 tools/soak.py ./ssdlab --ops $(SOAK_OPS) --seed $(SOAK_SEED)

# power cuts over NBD checked from the client's side, at length
# (docs/power-loss.md; tests/cli/serve_power_client.sh runs 39 cuts of it)
POWERCHECK_CUTS ?= 10
POWERCHECK_ROUNDS ?= 8
POWERCHECK_SEED ?= 1
powercheck: ssdlab plugin $(BUILD)/powercheck
	tools/powercheck.sh -n $(POWERCHECK_CUTS) -r $(POWERCHECK_ROUNDS) -s $(POWERCHECK_SEED) \
		./ssdlab $(BUILD)/powercheck

bench: ssdlab $(BUILD)/bareftl $(BUILD)/simbench
	bench/run.sh

docs: ssdlab
	./ssdlab drive doc > docs/options.md
	./ssdlab job doc > docs/jobfiles.md
	tools/fuzz-dicts.sh ./ssdlab

# The outputs the docs show (docs/scenarios.md, lifetime.md,
# calibration.md, accuracy.md, fill.md) against what their commands print now
# (tools/doc-check.sh --update rewrites them), then every command README.md
# and docs/*.md show, run as written, the slow ones too (tools/doc-commands.sh:
# its skip list says what cannot run here, and why).  Some minutes: `make
# test` runs only the fast commands (tests/cli/doc_commands.sh).
doc-check: ssdlab plugin
	tools/doc-check.sh --check
	tools/doc-commands.sh
# fio's examples/ run unchanged: docs/fio-examples.md
FIO_SRC ?= fio
fio-examples: ssdlab
	tools/fio-examples.sh --markdown docs/fio-examples.md $(FIO_SRC)/examples

clean:
	rm -rf build ssdlab

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(UT_OBJ:.o=.d) $(wildcard $(BUILD)/fuzz_regress_*.d)
-include $(patsubst %.o,build/san/%.d,$(LIB_SRC:.c=.o) $(CLI_SRC:.c=.o) $(UT_SRC:.c=.o))

$(BUILD)/simbench: bench/simbench.c $(LIB)
	$(CC) $(ALLCFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# ---- the library as others use it: shared library, man page, install ----
# The shared library's objects are position-independent and built apart,
# in $(BUILD)/pic/: libssdlab.a and ./ssdlab keep the faster non-PIC ones.
PIC_OBJ := $(LIB_SRC:%.c=$(BUILD)/pic/%.o)
-include $(PIC_OBJ:.o=.d)

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

$(SHLIB): $(PIC_OBJ)
	$(CC) $(CFLAGS) $(SANFLAGS) -shared -Wl,-soname,$(SONAME) -o $@ $^ $(LDLIBS)

shared: $(SHLIB)

# ssdlab(1), from the commands' --help texts and the option tables.
$(BUILD)/ssdlab.1: $(BUILD)/ssdlab tools/man.py
	python3 tools/man.py $(BUILD)/ssdlab > $@.tmp && mv -f $@.tmp $@

man: $(BUILD)/ssdlab.1

PREFIX      ?= /usr/local
DESTDIR     ?=
bindir      := $(PREFIX)/bin
libdir      := $(PREFIX)/lib
includedir  := $(PREFIX)/include
pkgconfigdir := $(libdir)/pkgconfig
man1dir     := $(PREFIX)/share/man/man1
# where the installed ssdlab looks for its presets: ../share/ssdlab/presets
# from its own directory (cli/common.c, cli_preset_dir)
presetdir   := $(PREFIX)/share/ssdlab/presets
# the Python package: where $(PYTHON) imports packages from under PREFIX
# (python/site_dir.py; Debian's python3 and PREFIX /usr/local:
# /usr/local/lib/python3.X/dist-packages), found when installing
# (the python3 Debian's python3-* packages serve when there is one: a
# pyenv python3 first on the PATH would not find pandas or matplotlib)
PYTHON      ?= $(if $(wildcard /usr/bin/python3),/usr/bin/python3,python3)
pythondir    = $(shell $(PYTHON) python/site_dir.py $(PREFIX) 2>/dev/null)
PY_SRC      := $(wildcard python/ssdlab/*.py)

# Only the public header is installed: the headers under src/ are the
# library's own.
install: $(BUILD)/ssdlab $(LIB) $(SHLIB) $(BUILD)/ssdlab.1 ssdlab.pc.in $(if $(HAVE_NBDKIT),$(PLUGIN))
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(libdir) $(DESTDIR)$(pkgconfigdir) \
	        $(DESTDIR)$(includedir) $(DESTDIR)$(man1dir) $(DESTDIR)$(presetdir)
	install -m 755 $(BUILD)/ssdlab $(DESTDIR)$(bindir)/ssdlab
	install -m 644 $(LIB) $(DESTDIR)$(libdir)/libssdlab.a
	install -m 755 $(SHLIB) $(DESTDIR)$(libdir)/libssdlab.so.$(VERSION)
	ln -sf libssdlab.so.$(VERSION) $(DESTDIR)$(libdir)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(libdir)/libssdlab.so
	install -m 644 include/ssdlab.h $(DESTDIR)$(includedir)/ssdlab.h
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' ssdlab.pc.in \
	        > $(DESTDIR)$(pkgconfigdir)/ssdlab.pc
	install -m 644 $(BUILD)/ssdlab.1 $(DESTDIR)$(man1dir)/ssdlab.1
	install -m 644 presets/*.ini $(DESTDIR)$(presetdir)
	$(if $(HAVE_NBDKIT),install -d $(DESTDIR)$(libdir)/ssdlab && \
	        install -m 755 $(PLUGIN) $(DESTDIR)$(libdir)/ssdlab/nbdkit-ssdlab-plugin.so)
	@$(MAKE) --no-print-directory install-python pydir="$(pythondir)"

# The package, with _config.py naming the library and presets installed
# beside it (python/ssdlab/_lib.py looks there first).
install-python:
	@if [ -z "$(pydir)" ]; then echo "$(PYTHON) not found: the Python package is not installed"; else \
	echo "the Python package: $(DESTDIR)$(pydir)/ssdlab"; \
	install -d $(DESTDIR)$(pydir)/ssdlab && \
	install -m 644 $(PY_SRC) $(DESTDIR)$(pydir)/ssdlab/ && \
	printf '# written by make install: the library and presets installed with this module\nLIBRARY = "%s"\nPRESETS = "%s"\n' \
	        "$(libdir)/$(SONAME)" "$(presetdir)" > $(DESTDIR)$(pydir)/ssdlab/_config.py; fi

uninstall:
	rm -f $(DESTDIR)$(bindir)/ssdlab $(DESTDIR)$(libdir)/libssdlab.a \
	      $(DESTDIR)$(libdir)/libssdlab.so.$(VERSION) $(DESTDIR)$(libdir)/$(SONAME) \
	      $(DESTDIR)$(libdir)/libssdlab.so $(DESTDIR)$(includedir)/ssdlab.h \
	      $(DESTDIR)$(pkgconfigdir)/ssdlab.pc $(DESTDIR)$(man1dir)/ssdlab.1
	rm -f $(addprefix $(DESTDIR)$(presetdir)/,$(notdir $(wildcard presets/*.ini)))
	rm -f $(DESTDIR)$(libdir)/ssdlab/nbdkit-ssdlab-plugin.so
	-rmdir $(DESTDIR)$(libdir)/ssdlab 2>/dev/null
	-rmdir $(DESTDIR)$(presetdir) $(DESTDIR)$(PREFIX)/share/ssdlab 2>/dev/null
	$(if $(pythondir),rm -rf $(DESTDIR)$(pythondir)/ssdlab)

# Includes against the layer order, private headers, examples' includes;
# the calls between src/'s modules, read from the library's objects (no
# circle, none upward); the violations of tools/layers.allow are reported
# as known.
check-layers: $(LIB_OBJ)
	tools/check-layers.sh --allow tools/layers.allow --objects $(BUILD) --sizes

# ---- the NBD server: an nbdkit plugin (nbdkit/ssdlab.c, docs/serve.md) ----
# Built when nbdkit's plugin header is installed (Debian: nbdkit-plugin-dev);
# `ssdlab serve` finds it beside its binary.  It holds the library's
# position-independent objects, so it needs nothing but nbdkit to load.
$(BUILD)/pic/nbdkit/%.o: ALLCFLAGS += $(shell pkg-config --cflags nbdkit 2>/dev/null)
# -z nodelete: the plugin's exit handler runs at the process's exit, not
# when nbdkit unloads it (nbdkit/ssdlab.c, exit_status)
$(PLUGIN): $(BUILD)/pic/nbdkit/ssdlab.o $(PIC_OBJ)
	$(CC) $(CFLAGS) $(SANFLAGS) -shared -Wl,-z,nodelete -o $@ $^ $(LDLIBS)
# A sanitized plugin runs in nbdkit (not instrumented) with the sanitizer
# runtime preloaded, and with this library beside it: without it the
# runtime's late start breaks glibc's locale lock, and nbdkit's exit
# after an error hangs (nbdkit/san_preload.c).
ifeq ($(SAN),1)
SAN_PRELOAD := $(BUILD)/nbdkit-ssdlab-san-preload.so
$(SAN_PRELOAD): nbdkit/san_preload.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) $(CFLAGS) -fPIC -shared -o $@ $<
$(PLUGIN): | $(SAN_PRELOAD)
endif
ifeq ($(HAVE_NBDKIT),1)
plugin: $(PLUGIN)
else
plugin:
	@echo "nbdkit-plugin.h not found: 'ssdlab serve' needs the plugin (apt-get install nbdkit nbdkit-plugin-dev)"
endif
-include $(BUILD)/pic/nbdkit/ssdlab.d

# ---- fuzzing (docs/reliability.md) ----
# `make fuzz`: each target under clang's libFuzzer for FUZZ_SECONDS, its
# corpus growing in build/fuzz/corpus/TARGET from the committed seeds in
# fuzz/corpus/TARGET.  `make test` runs every committed input (seeds and
# the crashes kept in fuzz/regress/TARGET) through each target built with
# fuzz/driver.c instead, with any compiler, normal and sanitized.
FUZZ_TARGETS := jobfile drive trace serve sim snapshot sweep
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_DIR := build/fuzz
FUZZ_CFLAGS = -std=c11 -D_GNU_SOURCE -Iinclude -Isrc -Ifuzz -O1 -g \
              -fno-omit-frame-pointer -DSSDLAB_PRESET_DIR='"$(PRESETS)"'
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ_DIR)/%.o) $(FUZZ_DIR)/fuzz/fuzz_util.o
FUZZ_OBJ_SAN = -fsanitize=fuzzer-no-link,address,undefined
# the invariant checker's loops are the same for every input: no coverage
# feedback from them, and their compares untraced (most of the time of a
# run with the checker on would go there)
$(FUZZ_DIR)/src/ftl/ftl_check.o: FUZZ_OBJ_SAN = -fsanitize=address,undefined
$(FUZZ_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_OBJ_SAN) -MMD -MP -c -o $@ $<
# kept between runs (not intermediate files of the pattern rule below)
.SECONDARY: $(FUZZ_LIB_OBJ)
-include $(FUZZ_LIB_OBJ:.o=.d)
$(FUZZ_DIR)/fuzz_%: fuzz/fuzz_%.c $(FUZZ_LIB_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined -o $@ $^ $(LDLIBS)
fuzz: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_DIR)/corpus/$$t fuzz/regress/$$t; \
		echo "== fuzz_$$t for $(FUZZ_SECONDS) s"; \
		$(FUZZ_DIR)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=20 \
			-artifact_prefix=fuzz/regress/$$t/ \
			$$( [ -f fuzz/$$t.dict ] && echo -dict=fuzz/$$t.dict ) \
			$(FUZZ_DIR)/corpus/$$t fuzz/corpus/$$t </dev/null || exit 1; \
	done
# the targets over the committed inputs, in make test
fuzz-regress: $(FUZZ_TARGETS:%=$(BUILD)/fuzz_regress_%)
$(BUILD)/fuzz_regress_%: fuzz/fuzz_%.c fuzz/fuzz_util.c fuzz/driver.c $(LIB)
	$(CC) $(ALLCFLAGS) -Ifuzz -o $@ fuzz/fuzz_$*.c fuzz/fuzz_util.c fuzz/driver.c $(LIB) $(LDLIBS)
.PHONY: fuzz
