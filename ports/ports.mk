# The ports: small real utilities that tame themselves.  Each is built
# twice from the same source: tame-NAME, linked with libtame, and
# NAME-untamed (-DNO_TAME), the baseline the benchmarks compare it with.
# Included by the top-level Makefile.

PORTS		= $(B)/ports/tame-cat
PORTS_UNTAMED	= $(B)/ports/cat-untamed

all: $(PORTS) $(PORTS_UNTAMED)

.PHONY: install-ports
install: install-ports

# The tamed object comes from the top-level $(B)/%.o rule.
$(B)/ports/%.untamed.o: ports/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -DNO_TAME $(CFLAGS) -c $< -o $@

# Both link the archive, so the two binaries differ only in the tame()
# call (the untamed one pulls nothing from it).
$(B)/ports/tame-cat: $(B)/ports/cat/cat.o $(B)/libtame.a
	$(CC) $(LDFLAGS) -o $@ $(B)/ports/cat/cat.o $(B)/libtame.a

$(B)/ports/cat-untamed: $(B)/ports/cat/cat.untamed.o $(B)/libtame.a
	$(CC) $(LDFLAGS) -o $@ $(B)/ports/cat/cat.untamed.o $(B)/libtame.a

install-ports: $(PORTS)
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 $(PORTS) $(DESTDIR)$(BINDIR)/
