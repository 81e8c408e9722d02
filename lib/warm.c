/* SPDX-License-Identifier: ISC */
/*
 * warm.c: load the name service before the filter goes in.
 *
 * glibc reads nsswitch.conf and dlopens NSS modules (libnss_systemd, ...)
 * on first use, which needs path lookups and executable mappings that no
 * flag grants after tame().  So before a filter that grants GETPW or
 * DNSPATH is installed, tame() makes one harmless lookup per database:
 * a name that does not exist walks every source of the passwd and group
 * lines.  The reentrant calls leave the program's static buffers alone.
 * Host lookups are warmed with "localhost" only, which never leaves the
 * machine; a module that only a miss would reach stays unloaded and, if
 * reached later, fails gently (its open or executable mapping is refused
 * with an error).
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <grp.h>
#include <netdb.h>
#include <pwd.h>
#include <string.h>

#include "tame.h"
#include "tame_int.h"

#define NO_SUCH_NAME	"tame-warm-no-such-name"

void
tame__warm(tame_atoms held)
{
	static int warmed;
	struct addrinfo hints, *res;
	struct passwd pw, *pwp;
	struct group gr, *grp;
	char buf[4096];

	if ((held & TAME_GETPW) && !(warmed & TAME_GETPW)) {
		getpwnam_r(NO_SUCH_NAME, &pw, buf, sizeof(buf), &pwp);
		getgrnam_r(NO_SUCH_NAME, &gr, buf, sizeof(buf), &grp);
		warmed |= TAME_GETPW;
	}
	if ((held & TAME_DNSPATH) && !(warmed & TAME_DNSPATH)) {
		memset(&hints, 0, sizeof(hints));
		hints.ai_socktype = SOCK_STREAM;
		if (getaddrinfo("localhost", NULL, &hints, &res) == 0)
			freeaddrinfo(res);
		warmed |= TAME_DNSPATH;
	}
}
