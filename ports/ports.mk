# SPDX-License-Identifier: ISC
# The ports: small real utilities that tame themselves, one directory
# each (ports/NAME/NAME.c).  Each is built three times from its source:
#
#	tame-NAME	linked with libtame: the port, installed
#	NAME-untamed	-DNO_TAME: the baseline the benchmarks compare with
#	NAME-hook	-DTAME_TEST_HOOK: with TAME_TEST_HOOK=1 in its
#			environment it tries one thing its flags forbid after
#			its last tame(); for the tests, never installed
#
# All three link the archive, so they differ only in what the source
# says (the untamed one pulls nothing from it).  Included by the
# top-level Makefile.

# ports/upstream/ and ports/pledged/ are no ports: their programs come
# from Debian's sources (upstream.mk, pledged.mk there).
PORT_NAMES	:= $(filter-out upstream pledged,\
		   $(sort $(patsubst ports/%/,%,$(wildcard ports/*/))))
PORTS		= $(PORT_NAMES:%=$(B)/ports/tame-%)
PORTS_UNTAMED	= $(PORT_NAMES:%=$(B)/ports/%-untamed)
PORTS_HOOK	= $(PORT_NAMES:%=$(B)/ports/%-hook)

all: $(PORTS) $(PORTS_UNTAMED) $(PORTS_HOOK)

.PHONY: install-ports
install: install-ports

# The tamed object comes from the top-level $(B)/%.o rule.
$(B)/ports/%.untamed.o: ports/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -DNO_TAME $(CFLAGS) -c $< -o $@

$(B)/ports/%.hook.o: ports/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -DTAME_TEST_HOOK $(CFLAGS) -c $< -o $@

define port_rules
$(B)/ports/tame-$(1): $(B)/ports/$(1)/$(1).o $(B)/libtame.a
	$$(CC) $$(LDFLAGS) -o $$@ $(B)/ports/$(1)/$(1).o $(B)/libtame.a

$(B)/ports/$(1)-untamed: $(B)/ports/$(1)/$(1).untamed.o $(B)/libtame.a
	$$(CC) $$(LDFLAGS) -o $$@ $(B)/ports/$(1)/$(1).untamed.o \
	    $(B)/libtame.a

$(B)/ports/$(1)-hook: $(B)/ports/$(1)/$(1).hook.o $(B)/libtame.a
	$$(CC) $$(LDFLAGS) -o $$@ $(B)/ports/$(1)/$(1).hook.o $(B)/libtame.a
endef
$(foreach p,$(PORT_NAMES),$(eval $(call port_rules,$(p))))

install-ports: $(PORTS)
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 $(PORTS) $(DESTDIR)$(BINDIR)/
