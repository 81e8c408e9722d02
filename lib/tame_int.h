/*
 * tame_int.h: state and helpers shared inside libtame, never exported.
 */
#ifndef TAME_INT_H
#define TAME_INT_H

#include <stdint.h>

#define TAME_EXPORT	__attribute__((visibility("default")))

struct tame_state {
	int	held;		/* expanded flags (tame_expand) */
	int	tamed;		/* a filter is in place (or permissive) */
	int	permissive;	/* TAME_AUDIT=permissive under a tracer */
	int	landlock_ok;	/* what the newest filter was compiled with */
	char	progname[64];
};

extern struct tame_state tame__state;

struct sigaction;
int	tame__install_handler(struct sigaction *);

/*
 * The ways held could be widened to allow one call: each entry is a set of
 * public flags that together would do.  Returns how many were stored.
 */
int	tame__missing(int held, int nr, const uint64_t args[6], int *alts,
	    int max);

/* Load NSS modules the flags will use, while that is still allowed. */
void	tame__warm(int held);

/* Landlock (landlock.c). */
int	tame__landlock_needed(int held);
int	tame__landlock_prepare(int held, int *ruleset_fd);
int	tame__landlock_enforce(int ruleset_fd);

#endif /* TAME_INT_H */
