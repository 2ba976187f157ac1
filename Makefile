# ssdlab -- plain Makefile with dependency tracking.
#   make            build ./ssdlab (and the library build/libssdlab.a)
#   make demo       build, install gnuplot if possible, run the demo
#   make test       unit + CLI tests, then the same under ASan+UBSan
#   make bench      speed and memory benchmark (see BENCHMARKS.md)
#   make proptest   thousands of random drives and workloads, checker on
#   make docs       regenerate docs/options.md and docs/jobfiles.md
#   make doc-check  re-run the commands of docs/scenarios.md, compare outputs
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
ALLCFLAGS = -std=c11 -D_GNU_SOURCE -Iinclude -Isrc -Itests/unit $(WARN) $(CFLAGS) $(SANFLAGS) \
            -DSSDLAB_PRESET_DIR='"$(PRESETS)"' -MMD -MP
LDLIBS  := -lm

LIB_SRC  := $(wildcard src/*/*.c)
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_SRC  := $(wildcard cli/*.c)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
UT_SRC   := $(wildcard tests/unit/*.c tests/unit/*/*.c)
UT_OBJ   := $(UT_SRC:%.c=$(BUILD)/%.o)
LIB      := $(BUILD)/libssdlab.a

.PHONY: all demo plots test unit-test cli-test san-test bench docs doc-check clean proptest fio-examples

all: ssdlab

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

$(BUILD)/unit_tests: $(UT_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $(UT_OBJ) $(LIB) $(LDLIBS)

$(BUILD)/bareftl: bench/bareftl.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE -O2 -g $(WARN) -o $@ $< $(LDLIBS)

# The demo: gnuplot for its chart (installed if this machine can), then
# the steady-state scenario on the default drive.
demo: ssdlab plots
	./ssdlab

plots:
	@tools/install-gnuplot.sh

# The whole suite: normal build, then ASan+UBSan build of the same tests.
test: ssdlab $(BUILD)/unit_tests
	@$(MAKE) --no-print-directory SAN=1 BUILD=build/san build/san/ssdlab build/san/unit_tests
	@tests/run.sh $(BUILD) build/san

unit-test: $(BUILD)/unit_tests
	$(BUILD)/unit_tests

# Thousands of random drives and workloads with the invariant checker on
# (tests/cli/property.sh runs a few hundred of them in `make test`).
PROPTEST_CASES ?= 5000
PROPTEST_SEED ?= 1
proptest: ssdlab
	python3 tools/proptest.py ./ssdlab --cases $(PROPTEST_CASES) --seed $(PROPTEST_SEED)

bench: ssdlab $(BUILD)/bareftl $(BUILD)/simbench
	bench/run.sh

docs: ssdlab
	./ssdlab drive doc > docs/options.md
	./ssdlab job doc > docs/jobfiles.md

# The outputs shown in docs/scenarios.md against what the commands print
# now (about half a minute; not part of `make test`).  tools/scenario-doc.sh
# --update rewrites them.
doc-check: ssdlab
	tools/scenario-doc.sh --check
# fio's examples/ run unchanged: docs/fio-examples.md
FIO_SRC ?= fio
fio-examples: ssdlab
	tools/fio-examples.sh --markdown docs/fio-examples.md $(FIO_SRC)/examples

clean:
	rm -rf build ssdlab

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(UT_OBJ:.o=.d)
-include $(patsubst %.o,build/san/%.d,$(LIB_SRC:.c=.o) $(CLI_SRC:.c=.o) $(UT_SRC:.c=.o))

$(BUILD)/simbench: bench/simbench.c $(LIB)
	$(CC) $(ALLCFLAGS) -o $@ $< $(LIB) $(LDLIBS)
