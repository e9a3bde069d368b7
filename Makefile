# Builds and installs `gutenberg`: `make install PREFIX=~/.local` (PREFIX defaults to /usr/local).
#
# The binary goes to PREFIX/bin and the catalogue it reads offline to PREFIX/share/gutenberg,
# where the binary looks for it (beside itself, then ../share/gutenberg, the XDG data dirs, or
# GUTENBERG_INDEX). The Swift runtime is linked statically, so the installed program needs no
# toolchain and nothing of this folder: the build folder may be deleted afterwards.

PREFIX ?= /usr/local
SWIFT ?= swift
# The executable is linked at a fixed address (not position-independent): the dynamic loader
# then has none of the static runtime's 88,000 relocations to apply, nor the 180 pages of
# metadata they write to copy, at every start (a third of `gutenberg --version`'s time; see
# BENCHMARKS.md, "A cold start that is mostly the query"). The libraries it loads keep their
# randomised addresses. `make install PIE=yes` links a position-independent executable.
PIE ?= no
BUILD_FLAGS ?= -c release --static-swift-stdlib $(if $(filter no,$(PIE)),-Xswiftc -Xclang-linker -Xswiftc -no-pie)
CATALOGUE := Sources/GutendexEngine/Resources/catalogue-2025-08.gdxindex

.PHONY: all build install install-files uninstall

all: build

build:
	$(SWIFT) build $(BUILD_FLAGS) --product gutenberg

install: build
	$(MAKE) install-files FROM="$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)"

# The copy alone, from the products folder FROM (what `install` runs once the build is done).
install-files:
	test -n "$(FROM)" && test -x "$(FROM)/gutenberg"
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/gutenberg"
	install -m 755 "$(FROM)/gutenberg" "$(DESTDIR)$(PREFIX)/bin/gutenberg"
	install -m 644 "$(CATALOGUE)" "$(DESTDIR)$(PREFIX)/share/gutenberg/"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/gutenberg"
	rm -f "$(DESTDIR)$(PREFIX)/share/gutenberg/catalogue-2025-08.gdxindex"
	-rmdir "$(DESTDIR)$(PREFIX)/share/gutenberg"
