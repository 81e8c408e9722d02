/* SPDX-License-Identifier: ISC */
/*
 * sibling.h: an untamed process that a tamed test child must not reach.
 *
 * The untamed test process forks it beside the grandchild that h_run()
 * tames, so the two are siblings: neither is the other's ancestor, as an
 * unrelated process of the same user would be.  t_bypass and t_proc_net
 * signal it, trace it and read its memory, and look here for what got
 * through.
 */
#ifndef TAME_SIBLING_H
#define TAME_SIBLING_H

#include <stdint.h>
#include <sys/types.h>

/*
 * Fork the sibling and wait until it is ready.  It blocks SIGUSR1,
 * SIGUSR2 and SIGURG (a signal that arrives stays pending, where /proc
 * shows it), keeps SIGTERM's default action (Check's handler, which fork
 * would copy, kills the whole test), leads a process group of its own,
 * dies with the test process, and with file not NULL holds that file
 * open for writing: its descriptor number in *fd.  Aborts the test if
 * it cannot start.
 */
pid_t		sibling_start(const char *file, int *fd);

/* The signals pending for it, for its thread or its process. */
uint64_t	sibling_pending(pid_t pid);
int		sibling_got(pid_t pid, int sig);

/*
 * Kill it with SIGKILL and reap it; returns the signal it died of.  A
 * fatal signal with the default action fixes the exit status the moment
 * it is sent (the kernel starts the group exit at once), so a signal the
 * test sent earlier is still the one returned: no waiting, no race.
 */
int		sibling_end(pid_t pid);

#endif
