# SPDX-License-Identifier: ISC
# Packages and the release (doc/packaging.md).  Included by the Makefile.
#
#	make deb	the Debian packages libtame0, libtame-dev and
#			tame-tools, and the source package, built by
#			dpkg-buildpackage from git archive HEAD into
#			build/deb/, then checked by lintian (errors and
#			warnings fail it)
#	make check-deb	their autopkgtests (debian/tests/) on this machine,
#			as root: they install the packages, which are removed
#			again unless they were installed before
#	make dist	build/tame-VERSION.tar.gz, git archive HEAD
#
# The version is lib/tame.h's; debian/changelog's and NEWS's first
# entries must say the same.  DEB_JOBS=N builds with N jobs (2).

DEB_DIR		= $(B)/deb
DEB_SRC		= $(DEB_DIR)/src/tame-$(VERSION)
DEB_PKGS	= libtame0 libtame-dev tame-tools
DEB_JOBS	?= 2
DIST		= $(B)/tame-$(VERSION).tar.gz

.PHONY: deb check-deb dist

# What make deb and make dist refuse, each in one line, before they
# start: a tree with uncommitted changes (git archive would leave them
# out), versions that disagree, and for make deb missing build
# dependencies.
RELEASE_GOAL	:= $(firstword $(filter deb dist,$(MAKECMDGOALS)))
ifneq ($(RELEASE_GOAL),)
IN_GIT		:= $(shell git rev-parse --git-dir >/dev/null 2>&1 && echo yes)
ifeq ($(IN_GIT),yes)
ifneq ($(shell git status --porcelain --untracked-files=no),)
$(error make $(RELEASE_GOAL): the tree has uncommitted changes (git status), and it takes git archive HEAD: commit or stash them first)
endif
else ifeq ($(RELEASE_GOAL),dist)
$(error make dist: not a git checkout: the tarball is git archive HEAD)
endif
CHANGELOG_VERSION := $(shell head -n 1 debian/changelog | tr -d '()' | cut -d ' ' -f 2)
NEWS_VERSION	:= $(shell sed -n 's/^\#\# \([0-9][^ ]*\).*/\1/p' NEWS | head -n 1)
ifneq ($(CHANGELOG_VERSION) $(NEWS_VERSION),$(VERSION) $(VERSION))
$(error make $(RELEASE_GOAL): versions disagree: lib/tame.h $(VERSION), debian/changelog $(or $(CHANGELOG_VERSION),none), NEWS $(or $(NEWS_VERSION),none))
endif
endif
ifneq ($(filter deb,$(MAKECMDGOALS)),)
ifeq ($(shell command -v dpkg-checkbuilddeps),)
$(error make deb: dpkg-dev is not installed (make deps installs it and the rest))
endif
DEB_UNMET	:= $(shell dpkg-checkbuilddeps 2>&1 | sed -n 's/.*Unmet build dependencies: *//p') $(if $(shell command -v lintian),,lintian)
ifneq ($(strip $(DEB_UNMET)),)
$(error make deb: missing build dependencies: $(strip $(DEB_UNMET)) (make deps installs them))
endif
endif

deb:
	@rm -rf $(DEB_DIR) && mkdir -p $(DEB_SRC)
ifeq ($(IN_GIT),yes)
	@git archive HEAD | tar -x -C $(DEB_SRC)
else
	@echo "make deb: not a git checkout: packaging the files as they are"
	@tar -c --exclude=./build --exclude='./build-*' . | tar -x -C $(DEB_SRC)
endif
	@echo "make deb: dpkg-buildpackage -us -uc in $(DEB_SRC)" \
	    "(log: $(DEB_DIR)/build.log)"
	@cd $(DEB_SRC) && \
	DEB_BUILD_OPTIONS="noautodbgsym parallel=$(DEB_JOBS) $$DEB_BUILD_OPTIONS" \
	    dpkg-buildpackage -us -uc > ../../build.log 2>&1 || { \
		tail -n 30 ../../build.log; \
		echo "make deb: dpkg-buildpackage failed (the end of" \
		    "$(DEB_DIR)/build.log above)"; exit 1; }
	@cd $(DEB_DIR)/src && mv *.deb *.changes *.buildinfo *.dsc *.tar.* ..
	@lintian --display-info --pedantic --fail-on error,warning \
	    $(DEB_DIR)/tame_$(VERSION)_$$(dpkg --print-architecture).changes \
	    > $(DEB_DIR)/lintian.txt 2>&1; status=$$?; \
	grep -v '^running with root privileges' $(DEB_DIR)/lintian.txt; \
	[ $$status -eq 0 ] || { echo "make deb: lintian reports errors or" \
	    "warnings (above; debian/*.lintian-overrides holds the accepted" \
	    "ones)"; exit 1; }
	@echo "make deb: $(DEB_DIR)/:" $$(cd $(DEB_DIR) && ls *.deb *.dsc)

# autopkgtest's null server runs the tests on this machine: it installs
# the packages with apt, so it must run as root.
ifneq ($(filter check-deb,$(MAKECMDGOALS)),)
ifeq ($(shell command -v autopkgtest),)
$(error make check-deb: autopkgtest is not installed (make deps installs it))
endif
ifneq ($(shell id -u),0)
$(error make check-deb: the tests install the packages on this machine: run it as root)
endif
endif

check-deb:
	@[ -f $(DEB_DIR)/tame_$(VERSION).dsc ] || { echo "make check-deb: no" \
	    "packages of $(VERSION) in $(DEB_DIR)/: run make deb first"; exit 1; }
	@before=$$(dpkg-query -W -f '$${Package} $${Status}\n' $(DEB_PKGS) \
	    2>/dev/null | awk '$$NF == "installed" { print $$1 }'); \
	rm -rf $(DEB_DIR)/autopkgtest; \
	autopkgtest -o $(DEB_DIR)/autopkgtest $(DEB_DIR)/*.deb \
	    $(DEB_DIR)/tame_$(VERSION).dsc -- null; status=$$?; \
	remove=; for p in $(DEB_PKGS); do \
		echo " $$before " | grep -q " $$p " || remove="$$remove $$p"; \
	done; \
	[ -z "$$remove" ] || dpkg --purge $$remove > /dev/null; \
	echo "make check-deb: autopkgtest exit status $$status" \
	    "(0: every test passed; log in $(DEB_DIR)/autopkgtest/)"; \
	exit $$status

dist:
	@mkdir -p $(B)
	@git archive --format=tar.gz --prefix=tame-$(VERSION)/ -o $(DIST) HEAD
	@echo "make dist: $(DIST) ($$(du -k $(DIST) | cut -f 1) KiB)"
