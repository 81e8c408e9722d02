/* SPDX-License-Identifier: ISC */
/*
 * sup_int.h: the supervisor's own workings (supervisor.h says what it is
 * for).  It runs in a process of its own, forked from the one it serves:
 * everything here reads the caller's memory and descriptors from the
 * outside, through /proc/TID, and trusts none of it.
 */
#ifndef TAME_SUP_INT_H
#define TAME_SUP_INT_H

#include <stddef.h>
#include <stdint.h>

#include "policy.h"
#include "supervisor.h"

/* One notification being answered. */
struct sup_req {
	int		 listener;
	uint64_t	 id;		/* the kernel's, for the answer */
	int		 tid;		/* the calling thread, as seen here */
	int		 tgid;		/* its process, once looked up */
	int		 mem;		/* /proc/TID/mem, or -1 until used */
	int		 nr;		/* the call that was notified */
	uint64_t	 args[6];
	tame_atoms	 held;		/* what the caller holds, for its
					   request (the filters' check of
					   its claim, and what this process
					   knows of it) */
	uint32_t	 uvid;		/* its unveil rules (sup_unveil.c), or 0 */
	int		 answered;	/* an ADDFD answered it already */
	int		 cont;		/* let the call itself go on */
	int		 wait;		/* it would block: answer it later */
	struct sup_proc	*forked;	/* a fork let go on: record its child */
};

/*
 * The caller's memory: copy len bytes in or out, or a string (its length
 * or -errno); 0 or -EFAULT.  Each byte is read once; the answer is made
 * from the copy.
 */
int	sup_read(struct sup_req *, void *dst, uint64_t src, size_t len);
long	sup_read_str(struct sup_req *, char *dst, size_t len, uint64_t src);
int	sup_write(struct sup_req *, uint64_t dst, const void *src, size_t len);

/* Answer r as decided: its result, or let the call go on (r->cont). */
void	sup_answer(struct sup_req *, long ret);

/* Is the caller still waiting for this answer (its tid not reused)? */
int	sup_valid(struct sup_req *);

/*
 * Hand descriptor fd (the supervisor's) to the caller as the call's
 * result, close-on-exec or not; the answer is given.  The new number,
 * or -errno.
 */
long	sup_addfd(struct sup_req *, int fd, int cloexec);

/*
 * Does the caller act with the supervisor's credentials (ids, groups,
 * capabilities)?  A call made here for a caller that changed its ids
 * since would be made with other rights: it is refused (EPERM) instead.
 */
int	sup_same_creds(struct sup_req *);

/*
 * Open path as the caller would find it: relative to its directory
 * descriptor dirfd (AT_FDCWD: its working directory), absolute from its
 * root; with oflags (O_PATH, O_NOFOLLOW, ...), no magic link on the way.
 * The descriptor, or -errno.
 */
long	sup_open_at(struct sup_req *, int dirfd, const char *path,
	    int oflags, long mode);

/*
 * Make nr with arguments a (the caller's registers, its mode's set-ID
 * and sticky bits cleared) in the caller's place: a chmod, or a call
 * that creates a name; its result (an open's descriptor handed in).
 */
long	sup_make_stripped(struct sup_req *, int nr, const uint64_t a[6]);

/*
 * Is fd (this process's) a /proc file of the supervisor or of a helper
 * process of its: -1 (refuse it: a path of the caller's reached it, by
 * /proc/self, /dev/fd or a link), else 0.
 */
int	sup_proc_guard(long fd);

/*
 * path with the caller's numbers for /proc/self and /proc/thread-self,
 * which this process would read as its own; into buf, or NULL.
 */
const char *sup_callers_proc(struct sup_req *, const char *path, char *buf,
	    size_t len);

/* The caller's descriptor fd, opened again here as O_PATH; or -errno. */
long	sup_caller_fd(struct sup_req *, int fd);

/* The caller's descriptor fd itself (pidfd_getfd: one open file). */
long	sup_caller_file(struct sup_req *, int fd);

struct sup_proc;

/*
 * What one process of an exec tree runs (sup_procs.c): the atoms of its
 * image, and what an image it execs will get.
 */
struct sup_proc {
	int		 tgid;		/* 0: a free slot */
	int		 pidfd;		/* to see it go */
	tame_atoms	 held;		/* its image's atoms */
	tame_atoms	 exec_held;	/* an exec'd image's, unless NULL */
	int		 exec_null;
	int		 pin;		/* an exec let go on: its old memory */
	uint64_t	 pin_at;	/* an address mapped there */
	int		 vm_peer;	/* or the process whose memory it used
					   (vfork, posix_spawn) at the exec */
	uint32_t	 uvid;		/* its unveil rules, or 0 */
	int		 fresh;		/* runs an image not looked at yet */
	int		 loader;	/* runs a shared object as a program
					   (sup_loader.c), under unveil */
};

void	sup_procs_init(int pledger, tame_atoms held, tame_atoms exec_held,
	    int exec_null, uint32_t uvid);
/* The caller's record (sets r->tgid); NULL where none can be made. */
struct sup_proc *sup_proc_of(struct sup_req *r);
/*
 * Is the file a shared object run as a program, the dynamic loader's
 * way to run a file unveiled without x ("ld.so PROGRAM")?  fd is this
 * process's descriptor of it (sup_loader.c).
 */
int	sup_is_loader(int fd);

/* An exec about to go on; mapped: an address of its old image. */
void	sup_proc_exec(struct sup_proc *, struct sup_req *r, uint64_t mapped);
/* A fork let go on from thread tid: record the child. */
void	sup_proc_fork(struct sup_proc *, int tid);
/* The process narrowed itself (TAME_ASK_NARROW). */
void	sup_proc_narrow(struct sup_proc *, tame_atoms held, int exec_given,
	    tame_atoms exec_held);

/*
 * /proc/N/tail into buf (64 bytes), and the number after key in
 * /proc/TID/status: decimal, or in base (at most 10).
 */
const char *sup_proc_path(char *buf, int n, const char *tail);
long	sup_status_num(int tid, const char *key);
long	sup_status_field(int tid, const char *key, int base);

/*
 * A call of an exec tree's process the filter sent here (sup_exec.c):
 * judged by the image the caller runs.  Returns the result for the
 * answer, or sets r->answered / r->cont.
 */
long	sup_direct(struct sup_req *r);

/* A process found running a loader (p->loader): its line, SIGKILL. */
long	sup_loader_refused(struct sup_req *r, struct sup_proc *p);

/*
 * unveil's rules (sup_unveil.c).  Keep a copy of the caller's rules
 * (TAME_ASK_UNVEIL), or those the supervisor was forked with: their
 * number, or -errno.
 */
long	sup_unveil_keep(struct sup_req *, uint64_t rules, uint64_t len);
long	sup_unveil_keep_own(void);

/*
 * Is the call one of unveil's (policy.c, the UNVEILED rows), under
 * rules r->uvid?  Then sup_unveil_call() checks and makes it.
 */
int	sup_unveil_routed(struct sup_req *, int nr, const uint64_t a[6]);
long	sup_unveil_call(struct sup_req *, struct tame_ask *q);

/*
 * Do r->uvid's rules give the object fd (this process's descriptor of
 * what the caller's path led to) every permission of need (TAME_UV_*)?
 * 1 where nothing is unveiled (uvid 0); 0 where a rule is missing.
 */
int	sup_unveil_allows(struct sup_req *, int fd, uint32_t need);
int	sup_unveil_allows_uvid(uint32_t uvid, int fd, uint32_t need);

/*
 * A unix socket address the caller gave, len bytes, resolved as it would
 * be and checked under unveil (w; no abstract name): rewritten to name
 * this process's descriptor of the socket's file (*file, to close after
 * the call; -1 where the address names none).  0, or -errno.
 */
long	sup_unix_address(struct sup_req *, void *name, size_t *len,
	    long *file);

/*
 * Make the trapped call q describes for the caller (sup_calls.c).
 * Returns its result or -errno; q->verdict, q->detail and q->need say
 * how it was judged.
 */
long	sup_call(struct sup_req *, struct tame_ask *q);

#endif /* TAME_SUP_INT_H */
