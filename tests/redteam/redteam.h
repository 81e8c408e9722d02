/* SPDX-License-Identifier: ISC */
/*
 * redteam.h: what the red-team cases share (tests/redteam/, issue 46).
 *
 * Each case is a program that plays the code a pledge exists for: code
 * the author did not write, running inside a pledged (tamed, unveiled)
 * process, that jumps anywhere, forges registers, writes its own memory,
 * execs files it crafts and races its own threads.  The attack runs in
 * a child; the untamed parent checks the EFFECT (a file made, a secret's
 * bytes read, a connection made, memory of another process written, a
 * signal delivered, a program run), never the child's word alone.  The
 * same body run untamed first (a control) must have the effect, so
 * that each check can fail.
 *
 * Only the public API is used (tame.h, pledge.h): the library's insides
 * are what the cases attack, not what they lean on.  "The gate" is found
 * as an attacker finds it, by scanning the executable mappings for a
 * system call instruction followed by a return.
 *
 * A case prints one line per part ("escaped: ...", "held: ...", "n/a:
 * ...", "broken: ...") and exits 1 if anything escaped, 2 if the sandbox
 * refused something it must allow, 0 if it held, 77 if nothing could be
 * tried here.  tests/cli/redteam.sh runs them all, as root and as an
 * unprivileged user.
 */
#ifndef REDTEAM_H
#define REDTEAM_H

#include <sys/types.h>
#include <netinet/in.h>

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "pledge.h"
#include "tame.h"

#define RT_HELD		0
#define RT_ESCAPED	1
#define RT_BROKEN	2
#define RT_NA		77

/* What a child exits with when its own setup failed (not a verdict). */
#define RT_SETUP	90	/* something before the attack */
#define RT_NOPLEDGE	91	/* pledge(), tame() or unveil() refused */

/* Bounds: a hung child is killed, never waited for forever. */
#define RT_WAIT_MS	20000

/* The case's name (argv[0]'s last part), the scratch directory, ... */
void		 rt_init(int argc, char **argv);
int		 rt_finish(void);
/* Verdicts, one line each, printed by rt_finish(). */
void		 rt_escaped(const char *, ...) __attribute__((format(printf, 1, 2)));
void		 rt_held(const char *, ...) __attribute__((format(printf, 1, 2)));
void		 rt_na(const char *, ...) __attribute__((format(printf, 1, 2)));
void		 rt_broken(const char *, ...) __attribute__((format(printf, 1, 2)));
/* A line on stderr when REDTEAM_VERBOSE is set. */
void		 rt_debug(const char *, ...) __attribute__((format(printf, 1, 2)));
/* Give up: setup failed where it never should (exit 3, a crash). */
void		 rt_fatal(const char *, ...)
		    __attribute__((format(printf, 1, 2), noreturn));

/* Paths inside the case's own scratch directory (static buffers: 8). */
const char	*rt_dir(void);
const char	*rt_path(const char *, ...) __attribute__((format(printf, 1, 2)));
int		 rt_exists(const char *);
int		 rt_is_root(void);
/* Another build product, by $B (build/ unless set), made absolute. */
const char	*rt_build(const char *);

/*
 * A file the attacker must not read: as root /etc/shadow, otherwise a
 * 0600 file of random text in the scratch directory (or at path).  The
 * parent keeps its bytes to compare with what the child got out.
 */
struct rt_secret {
	char	 path[PATH_MAX];
	char	 label[32];	/* for the report */
	char	 data[4096];
	size_t	 len;
};
void		 rt_secret(struct rt_secret *, const char *path);
/* Does buf hold the secret's bytes (at least its first 16 or all)? */
int		 rt_secret_in(const struct rt_secret *, const void *, size_t);

/*
 * Memory the parent and all children share, made by rt_init(): where a
 * child leaves details for the report (errno of a refused pledge, the
 * address that worked).  Never a verdict: the parent checks effects.
 */
struct rt_shared {
	int		 err;		/* errno of what refused, in the child */
	long		 ret;		/* the last attack call's result */
	uint64_t	 where;		/* the address that was used */
	char		 note[256];
};
extern struct rt_shared *rt_sh;

/* ------------------------------------------------------------------ */
/* Children: fork, a pipe each way, a bounded wait.                    */
/* ------------------------------------------------------------------ */

struct rt_kid {
	pid_t	 pid;
	int	 up;		/* the child's messages, read here */
	int	 down;		/* to the child */
	int	 status;	/* wait status, once reaped */
};

/* Run fn(arg) in a child, which exits with its return value. */
void		 rt_spawn(struct rt_kid *, int (*)(void *), void *);
/* Wait for it (killing it after RT_WAIT_MS); returns the wait status. */
int		 rt_reap(struct rt_kid *);
/* Wait for it to stop (1) or end (0: then reaped). */
int		 rt_stopped(struct rt_kid *);
/* Kill and reap. */
int		 rt_kill(struct rt_kid *);
/* "exit 3", "SIGSYS", ... for a wait status. */
const char	*rt_how(int status);
/* Did it exit with code? */
int		 rt_exited(int status, int code);

/* In the child: tell the parent it is ready, wait for its go. */
void		 rt_ready(void);
void		 rt_await_go(void);
/* In the child: bytes for the parent. */
void		 rt_tell(const void *, size_t);
/* In the parent: wait for the child's ready (0) or its end (-1). */
int		 rt_heard(struct rt_kid *);
void		 rt_go(struct rt_kid *);
/* In the parent: what the child told, until it closes or n bytes. */
size_t		 rt_listen(struct rt_kid *, void *, size_t);
/*
 * The four in a row: spawn, listen (at most n bytes), reap, and
 * rt_check() the status, which stays in the kid; the bytes heard.
 */
size_t		 rt_run(struct rt_kid *, int (*)(void *), void *, void *,
		    size_t);

/* pledge()/tame()/unveil() in a child: exit RT_NOPLEDGE if refused. */
void		 rt_pledge(const char *, const char *);
void		 rt_tame(int);
void		 rt_unveil(const char *, const char *);
/* scratch/visible and scratch/hidden (the parent makes them). */
void		 rt_two_dirs(void);
/*
 * In the child: unveil visible/ alone ("rwc"), and lock: by
 * pledge(promises, NULL), or unveil(NULL, NULL) where promises is NULL.
 */
void		 rt_hide(const char *promises);
/* "unveil(\"visible\", \"rwc\"), pledge(\"...\")", for the report. */
const char	*rt_hide_label(const char *promises);
/* In the child: its standard output into what the parent hears. */
void		 rt_stdout_up(void);
/*
 * In the parent, after a child ended: if its pledge(), tame() or unveil()
 * was refused, ENOSYS ends the case as n/a (no seccomp or Landlock
 * here), EBUSY (refused, as documented, before anything ran under it)
 * holds, anything else is a crash of the case.
 */
void		 rt_check(int status);
/* The Landlock ABI, or 0 after an n/a line. */
int		 rt_need_landlock(void);
/* A thread that waits forever, so the process has two at its pledge. */
void		 rt_second_thread(void);

/* ------------------------------------------------------------------ */
/* Effects the parent can check.                                       */
/* ------------------------------------------------------------------ */

/* A TCP listener on 127.0.0.1: did anything connect? */
struct rt_listener {
	int			fd;
	struct sockaddr_in	addr;
};
void		 rt_listen_inet(struct rt_listener *);
int		 rt_connected(struct rt_listener *);
/* SIGUSR1 blocked here, so a delivery stays pending: was one sent? */
void		 rt_block_usr1(void);
int		 rt_got_usr1(void);

/* Run a command (no shell), stdin /dev/null, stdout into out. */
int		 rt_cmd(char *const argv[], char *const env[], char *out,
		    size_t outlen);

/* ------------------------------------------------------------------ */
/* Code: the attacker's tools.                                         */
/* ------------------------------------------------------------------ */

/* A system call's number and its six arguments. */
struct rt_regs {
	long	 nr;
	long	 a[6];
};

/*
 * Jump to addr with the registers set as a system call instruction
 * expects them and a return address pushed (x86-64) or in x30
 * (aarch64): for a "syscall; ret" found anywhere.  Returns what the
 * call left in the result register.
 */
long		 rt_jump(uint64_t addr, const struct rt_regs *);

/* Every "syscall; ret" in the process's executable mappings. */
#define RT_MAXGADGETS	256
struct rt_gadget {
	uint64_t	 addr;
	char		 where[80];	/* the mapping's file, or [vdso] */
};
int		 rt_gadgets(struct rt_gadget *, int max);
/* Every system call instruction of the main program, whatever follows. */
int		 rt_svcs(struct rt_gadget *, int max);

/*
 * An executable page made before any pledge, holding code at its start
 * (at_end 0) or ending at its last byte (at_end 1); the page after it is
 * mapped PROT_NONE, so that running past the end faults.
 */
void		*rt_code_page(const void *code, size_t len, int at_end);
/* The bytes of one system call instruction, and its length. */
extern const unsigned char rt_svc[];
extern const size_t rt_svc_len;
/* "syscall; ret" (aarch64: svc #0; ret). */
extern const unsigned char rt_svc_ret[];
extern const size_t rt_svc_ret_len;
/*
 * A system call instruction at the very end of a code page returns to
 * an address past it: with rt_fault_returns() on (before pledge), the
 * SIGSEGV that follows is turned into the "ret" that could not be
 * there, so rt_jump(end - rt_svc_len) comes back with the result.
 */
void		 rt_fault_returns(void);

/* An executable mapping of this process (first of the main program). */
int		 rt_own_code(uint64_t *lo, uint64_t *hi);

/*
 * A static ELF64 image of one PT_LOAD and no library, assembled from
 * system calls with constant arguments: the attacker's own program.
 * Its first byte is at base; data comes first, code after it.
 */
struct rt_image {
	uint64_t	 base;
	size_t		 data;		/* next free data offset */
	size_t		 len;		/* next code offset */
	unsigned char	 buf[3 * 4096];
};
#define RT_PREV		(~0ULL)		/* argument 0: the last result */
void		 rt_img_init(struct rt_image *, uint64_t base);
uint64_t	 rt_img_data(struct rt_image *, const void *, size_t);
uint64_t	 rt_img_str(struct rt_image *, const char *);
/* Load the registers for a call (no instruction yet). */
void		 rt_img_load(struct rt_image *, long nr, int n, const uint64_t *);
/* Continue at addr (a jump, then padding). */
void		 rt_img_goto(struct rt_image *, uint64_t addr);
uint64_t	 rt_img_here(const struct rt_image *);
/* The system call instruction itself. */
void		 rt_img_svc(struct rt_image *);
/* load + svc */
void		 rt_img_call(struct rt_image *, long nr, int n, ...);
/* exit_group(last result): the status says what the last call did. */
void		 rt_img_exit(struct rt_image *);
/* Into a memfd (or, with path, a file 0755): a descriptor, or -1. */
int		 rt_img_write(const struct rt_image *, const char *path);

/* The C library's loader (PT_INTERP), for "ld.so PROGRAM". */
const char	*rt_loader(void);

#endif /* REDTEAM_H */
