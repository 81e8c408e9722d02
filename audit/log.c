/* SPDX-License-Identifier: ISC */
/*
 * log.c: one strace log to observations.
 *
 * Follows every process of the run: a thread shares its process's
 * state, a forked child starts with its parent's.  A process counts
 * from its tame() marker on (the failing write(-1, "tame:0x...") that
 * libtame makes, under tame-exec's preload or the program's own call);
 * from then, each call is classified (classify.c) and kept with the
 * marker in force.  A later marker narrows that process's flags.  An
 * exec after a marker is a need no flag meets, and what the new image
 * does would never run under tame(), so it is not counted.
 *
 * The log is read twice: strace may print a child's first calls before
 * the parent's clone returns, so the first pass learns who created
 * whom, and whether as a thread.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "parse.h"
#include "policy.h"
#include "tree.h"

#define CALL_TEXT_MAX	200	/* evidence: the first this many bytes */

/* A call before the marker, kept as text (before_marker). */
struct early {
	char		 name[32];
	char		*args;
	size_t		 len;
	long long	 ret;
	char		 err[32];
	int		 returned;
};

/* How many calls of a static program's start are its C library's. */
#define STATIC_START_CALLS	16

struct image {			/* a process image: threads share it */
	int	 tgid;
	int	 decl;		/* the marker in force, or -1 */
	int	 dead;		/* exec'd after its marker, or forked from
				   such an image: its markers are a tree's */
	char	*exe;
	struct early *early;	/* its calls before the marker */
	int	 nearly, ecap;
	/* a tree's reading (tree.c): */
	int	 prog;		/* its program, or -1 before its marker */
	int	 starter;	/* the program that started it, or -1 */
	char	*real;		/* the shim's "tame-exe:" marker */
	int	 calls;		/* calls made before any marker */
	int	 first;		/* the run's first image: the launcher */
	int	 static_start;	/* a static program's calls from its exec
				   on, while its C library starts */
};

/*
 * A task is one life of a pid: from its birth (the clone that returned
 * it, or its first line) to its death ("+++ exited", "+++ killed"); after
 * that the kernel may hand the number out again, to another process.
 * The first pass makes the lives and their parents, the second walks
 * them again in the same order (struct lives).
 */
struct task {
	int	 pid;
	int	 parent;	/* the parent's life, or -1 unknown */
	int	 thread;	/* created with CLONE_THREAD */
	int	 image;		/* index, or -1 before its first line */
	int	 forked_decl;	/* the parent's marker when its clone
				   returned: -2 until then */
	int	 forked_dead;
	int	 forked_image;	/* the parent's image then */
	long	 first_line;	/* the log line where the life began */
	int	 next;		/* the same pid's next life, or -1 */
	int	 over;		/* it has died, in this pass */
};

/* pid -> a life (its index + 1; 0: none), by open addressing. */
struct pidmap {
	int	*pid, *life;
	int	 cap, n;	/* cap a power of two, or 0 */
};

/* A descriptor made by a call that a soft denial could refuse. */
struct fdnote {
	int	 tgid, fd, need;
};

/*
 * A UDP socket connected to a port other than 53.  Connecting a datagram
 * socket sends nothing, and glibc's getaddrinfo() connects one to each of
 * several answers (to the service's port, any) only to learn the source
 * address the kernel would use, sorts the answers by it (RFC 6724) and
 * closes the socket: the resolver's own doing, which dnspath covers, as
 * the filter does.  So such a connect counts as the resolver's until the
 * descriptor carries data: then the program talked to that peer after
 * all, and the connect is observed again as what talking to it needs.
 */
struct peer {
	int		 tgid, fd;
	int		 probe;		/* the connect's need as the resolver's */
	int		 creator;	/* as in its call_text */
	int		 decl, run;
	struct st_event	 ev;		/* the connect; args owned */
};

struct procs {
	struct audit	*whole;		/* the command's audit, or NULL */
	struct tree	*tree;		/* or each program's (tree.h) */
	int		 run;
	struct task	*tasks;
	int		 ntasks, cap;
	struct pidmap	 now, first;	/* each pid's life now, its first */
	int		 pass;		/* 0: making the lives, 1: walking */
	int		 last_pid, last_life;	/* the last life_of()'s */
	struct image	*images;
	int		 nimages, icap;
	struct fdnote	*fds;
	int		 nfds, fcap;
	struct peer	*peers;
	int		 npeers, pcap;
};

/* The note for argument 0 of ev, if it is a noted descriptor. */
static struct fdnote *
fd_note(struct procs *p, int tgid, const struct st_event *ev)
{
	char deco[PATH_MAX];
	long long fd;
	int i;

	if (p->nfds == 0 || ev->nargs < 1 ||
	    st_decoration(ev->argv[0], ev->argl[0], deco, sizeof(deco)) ==
	    -1 || st_number(ev->argv[0], ev->argl[0], &fd) == -1)
		return NULL;
	for (i = 0; i < p->nfds; i++)
		if (p->fds[i].tgid == tgid && p->fds[i].fd == fd)
			return &p->fds[i];
	return NULL;
}

/* After the call: forget a closed descriptor, note a new one. */
static void
fd_track(struct audit *a, struct procs *p, int tgid,
    const struct st_event *ev, int need)
{
	struct fdnote *f;

	if (strcmp(ev->name, "close") == 0 &&
	    (f = fd_note(p, tgid, ev)) != NULL) {
		*f = p->fds[--p->nfds];
		return;
	}
	if (a->needs[need].ndenied == 0 || !ev->returned || ev->ret < 0 ||
	    (strcmp(ev->name, "socket") != 0 &&
	    strcmp(ev->name, "openat") != 0 && strcmp(ev->name, "open") != 0))
		return;
	if (p->nfds == p->fcap) {
		p->fcap = p->fcap == 0 ? 16 : p->fcap * 2;
		p->fds = xrealloc(p->fds, (size_t)p->fcap * sizeof(*p->fds));
	}
	p->fds[p->nfds++] = (struct fdnote){ .tgid = tgid,
	    .fd = (int)ev->ret, .need = need };
	a->needs[need].makes_fd = 1;	/* its uses are followed now */
}

/* Does a call on a descriptor move data through it? */
static int
carries_data(const char *name)
{
	static const char *const verbs[] = { "read", "write", "pread",
	    "pwrite", "send", "recv", "splice", "vmsplice" };
	size_t i;

	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (strncmp(name, verbs[i], strlen(verbs[i])) == 0)
			return 1;
	return 0;
}

/* A connect of a UDP socket, as strace -yy names it: "3<UDP:[1]>". */
static int
udp_connect(const struct st_event *ev)
{
	return strcmp(ev->name, "connect") == 0 && ev->nargs >= 1 &&
	    memmem(ev->argv[0], ev->argl[0], "<UDP", 4) != NULL;
}

static void
peer_add(struct procs *p, const struct call_text *t, const struct st_event *ev,
    int probe, int decl, int run)
{
	struct peer *pr;
	long long fd;

	if (st_number(ev->argv[0], ev->argl[0], &fd) == -1)
		return;
	if (p->npeers == p->pcap) {
		p->pcap = p->pcap == 0 ? 8 : p->pcap * 2;
		p->peers = xrealloc(p->peers, (size_t)p->pcap *
		    sizeof(*p->peers));
	}
	pr = &p->peers[p->npeers++];
	*pr = (struct peer){ .tgid = t->tgid, .fd = (int)fd, .probe = probe,
	    .creator = t->creator, .decl = decl, .run = run, .ev = *ev };
	pr->ev.args = memcpy(xcalloc(1, ev->args_len + 1), ev->args,
	    ev->args_len);
	pr->ev.nargs = 0;		/* argv[] pointed into the parser */
}

static void
peer_drop(struct procs *p, struct peer *pr)
{
	free((char *)pr->ev.args);
	*pr = p->peers[--p->npeers];
}

static void observe(struct audit *, int, int, int, const struct st_event *,
    struct evidence **);

/*
 * A call on a pending peer's descriptor: data through it makes its
 * connect a peer's, observed now as what that needs (where it differs);
 * a close or another connect ends the wait.
 */
static void
peer_use(struct audit *a, struct procs *p, int tgid,
    const struct st_event *ev)
{
	struct evidence *none[2];
	struct call_text t;
	struct peer *pr;
	long long fd;
	int i, need;

	if (p->npeers == 0 || ev->nargs < 1 ||
	    st_number(ev->argv[0], ev->argl[0], &fd) == -1)
		return;
	for (i = 0; i < p->npeers; i++) {
		pr = &p->peers[i];
		if (pr->tgid != tgid || pr->fd != fd)
			continue;
		if (carries_data(ev->name)) {
			t = (struct call_text){ .name = pr->ev.name,
			    .args = pr->ev.args, .len = pr->ev.args_len,
			    .ret = pr->ev.ret, .err = pr->ev.err,
			    .returned = pr->ev.returned, .tgid = pr->tgid,
			    .creator = pr->creator };
			if ((need = classify(a, &t)) != pr->probe)
				observe(a, need, pr->decl, pr->run, &pr->ev,
				    none);
		} else if (strcmp(ev->name, "close") != 0 &&
		    strcmp(ev->name, "connect") != 0)
			return;
		peer_drop(p, pr);
		return;
	}
}

/* The slot of pid in m (added if absent). */
static int *
pidmap_slot(struct pidmap *m, int pid)
{
	unsigned i, mask;
	int *opid, *olife, ocap, k;

	if (2 * (m->n + 1) > m->cap) {
		opid = m->pid;
		olife = m->life;
		ocap = m->cap;
		m->cap = m->cap == 0 ? 64 : 2 * m->cap;
		m->pid = xcalloc((size_t)m->cap, sizeof(*m->pid));
		m->life = xcalloc((size_t)m->cap, sizeof(*m->life));
		m->n = 0;
		for (k = 0; k < ocap; k++)
			if (olife[k] != 0)
				*pidmap_slot(m, opid[k]) = olife[k];
		free(opid);
		free(olife);
	}
	mask = (unsigned)m->cap - 1;
	for (i = ((unsigned)pid * 2654435761u) & mask; m->life[i] != 0;
	    i = (i + 1) & mask)
		if (m->pid[i] == pid)
			return &m->life[i];
	m->pid[i] = pid;
	m->n++;
	return &m->life[i];	/* 0 until the caller sets it */
}

static void
pidmap_free(struct pidmap *m)
{
	free(m->pid);
	free(m->life);
	*m = (struct pidmap){ 0 };
}

/* A life of pid after life prev (-1: its first), begun at line. */
static int
life_new(struct procs *p, int pid, int prev, long line)
{
	int i;

	if (p->pass == 1) {	/* the first pass made it */
		i = prev >= 0 ? p->tasks[prev].next : *pidmap_slot(&p->first,
		    pid) - 1;
		if (i >= 0)
			return i;
	}
	if (p->ntasks == p->cap) {
		p->cap = p->cap == 0 ? 16 : p->cap * 2;
		p->tasks = xrealloc(p->tasks, (size_t)p->cap *
		    sizeof(*p->tasks));
	}
	i = p->ntasks++;
	p->tasks[i] = (struct task){ .pid = pid, .parent = -1, .image = -1,
	    .forked_decl = -2, .first_line = line, .next = -1 };
	if (prev >= 0)
		p->tasks[prev].next = i;
	else
		*pidmap_slot(&p->first, pid) = i + 1;
	return i;
}

/*
 * The life of pid a line of it belongs to: the one now, or, after a
 * death, the next.  Returns its index (tasks may have moved).
 */
static int
life_of(struct procs *p, int pid, long line)
{
	int *now, i;

	/* a log's lines come in runs of one pid's */
	if (p->last_life > 0 && pid == p->last_pid &&
	    !p->tasks[p->last_life - 1].over)
		return p->last_life - 1;
	now = pidmap_slot(&p->now, pid);
	if ((i = *now - 1) < 0 || p->tasks[i].over) {
		i = life_new(p, pid, i, line);
		*pidmap_slot(&p->now, pid) = i + 1;
	}
	p->last_pid = pid;
	p->last_life = i + 1;
	return i;
}

/*
 * The life a clone, fork or vfork begun at line begun made, returning
 * pid: the one now if it began after the call did (a vfork child runs,
 * and may die, before its parent's call returns) or still lives; else
 * a new one.
 */
static int
life_born(struct procs *p, int pid, long begun, long line)
{
	int i = *pidmap_slot(&p->now, pid) - 1;

	if (i >= 0 && (p->tasks[i].first_line > begun || !p->tasks[i].over))
		return i;
	return life_of(p, pid, line);
}

static void
life_end(struct procs *p, int pid)
{
	int i = *pidmap_slot(&p->now, pid) - 1;

	if (i >= 0)
		p->tasks[i].over = 1;
}

/*
 * Does the body of a line end a life, and whose (*pid)?  "exited" and
 * "killed" end the pid's own; "superseded by execve in pid N" ends N's,
 * the thread whose execve took over the pid, which goes on.
 */
static int
ends_life(const char *body, int *pid)
{
	const char *s;

	if (strncmp(body, "+++ exited", 10) == 0 ||
	    strncmp(body, "+++ killed", 10) == 0)
		return 1;
	if (strncmp(body, "+++ superseded by execve in pid ", 32) == 0) {
		s = body + 32;
		*pid = (int)strtol(s, NULL, 10);
		return *pid > 0;
	}
	return 0;
}

/* The second pass walks the lives again, from each pid's first. */
static void
lives_rewind(struct procs *p)
{
	int i;

	for (i = 0; i < p->ntasks; i++)
		p->tasks[i].over = 0;
	pidmap_free(&p->now);
	p->pass = 1;
	p->last_life = 0;
}

/* The life of pid now (a line of it is being read). */
static struct task *
task(struct procs *p, int pid)
{
	int i = *pidmap_slot(&p->now, pid) - 1;

	if (i < 0)
		i = life_of(p, pid, 0);
	return &p->tasks[i];
}

static int
new_image(struct procs *p, int tgid, int decl, const char *exe)
{
	if (p->nimages == p->icap) {
		p->icap = p->icap == 0 ? 16 : p->icap * 2;
		p->images = xrealloc(p->images, (size_t)p->icap *
		    sizeof(*p->images));
	}
	p->images[p->nimages] = (struct image){ .tgid = tgid, .decl = decl,
	    .exe = exe != NULL ? xstrdup(exe) : NULL, .prog = -1,
	    .starter = -1, .first = p->nimages == 0 };
	return p->nimages++;
}

/*
 * A forked child's image: its parent's (by index: new_image may move the
 * array) as it was when the clone returned, the same program and the
 * same marker in force.
 */
static int
fork_image(struct procs *p, int tgid, int parent, int decl, int dead)
{
	int im = new_image(p, tgid, dead ? -1 : decl, p->images[parent].exe);
	struct image *c = &p->images[im];

	c->dead = dead;
	c->prog = decl >= 0 ? p->images[parent].prog : -1;
	c->starter = p->images[parent].starter;
	if (c->prog >= 0 && p->tree != NULL)
		tree_process(p->tree, c->prog);
	return im;
}

/* The image a pid's calls belong to, made on its first line. */
static struct image *
image_of(struct procs *p, int pid)
{
	struct task *t = task(p, pid), *parent;
	struct image *pi;
	int im;

	if (t->image >= 0)
		return &p->images[t->image];
	if (t->parent >= 0 && (parent = &p->tasks[t->parent])->image >= 0) {
		if (t->thread)
			t->image = parent->image;
		else {
			/*
			 * The parent's state when its clone returned, or now
			 * if it has not yet: a child's first lines can come
			 * before the parent's clone returns, and the parent
			 * cannot tame itself again in between.
			 */
			pi = &p->images[parent->image];
			if (t->forked_decl != -2)
				im = fork_image(p, pid, t->forked_image,
				    t->forked_decl, t->forked_dead);
			else
				im = fork_image(p, pid, parent->image,
				    pi->decl, pi->dead);
			t->image = im;
		}
	} else {
		im = new_image(p, pid, -1, NULL);
		t->image = im;
	}
	return &p->images[t->image];
}

/* Could the line be (part of) a clone, clone3, fork or vfork? */
static int
creates_task(const char *line, size_t n)
{
	size_t k = 0;

	while (k < n && ((line[k] >= '0' && line[k] <= '9') || line[k] == ' '))
		k++;			/* the pid */
	if (n - k > 5 && memcmp(line + k, "<... ", 5) == 0)
		k += 5;			/* a resumed call: its name follows */
	if (k < n && line[k] == 'v')
		k++;			/* vfork */
	return (n - k >= 5 && memcmp(line + k, "clone", 5) == 0) ||
	    (n - k >= 4 && memcmp(line + k, "fork", 4) == 0);
}

/* First pass: who created whom. */
static void
learn_parents(struct procs *p, const struct st_event *ev)
{
	struct task *t;
	long long flags = 0;
	int parent, child;

	if (ev->kind != ST_CALL || !ev->returned || ev->ret <= 0)
		return;
	if (strcmp(ev->name, "clone") != 0 && strcmp(ev->name, "clone3") != 0 &&
	    strcmp(ev->name, "fork") != 0 && strcmp(ev->name, "vfork") != 0)
		return;
	st_field(ev->args, ev->args_len, "flags=", &flags);
	parent = life_of(p, ev->pid, ev->lineno);
	/* the index first: life_born() may move the tasks */
	child = life_born(p, (int)ev->ret, ev->begun, ev->lineno);
	t = &p->tasks[child];
	t->parent = parent;
	t->thread = (flags & CLONE_THREAD) != 0;
}

/*
 * A marker: tame()'s write(-1, "tame:0x<flags>", n), or pledge()'s
 * write(-1, "pledge:0x<atoms>", n).  1 with its declaration in *d, or 0.
 */
static int
marker(const struct st_event *ev, struct decl *d)
{
	char s[40], *end;
	long long fd;
	unsigned long long v;
	int trunc, i, pledged;

	if (strcmp(ev->name, "write") != 0 || ev->nargs < 2 ||
	    st_number(ev->argv[0], ev->argl[0], &fd) == -1 || fd != -1 ||
	    st_string(ev->argv[1], ev->argl[1], s, sizeof(s), &trunc) < 0 ||
	    trunc)
		return 0;
	if (strncmp(s, "tame:0x", 7) == 0)
		pledged = 0;
	else if (strncmp(s, "pledge:0x", 9) == 0)
		pledged = 1;
	else
		return 0;
	errno = 0;
	v = strtoull(s + (pledged ? 9 : 7), &end, 16);
	if (*end != '\0' || errno != 0 || end == s + (pledged ? 9 : 7) ||
	    (!pledged && v > TAME_ALL) || (pledged && (v & ~TAME__ATOMS)))
		return 0;
	memset(d, 0, sizeof(*d));
	d->pledged = pledged;
	if (!pledged)
		d->flags = (int)v;
	/* the promises whose atoms it holds (pledge's own words) */
	for (i = 0; pledged && i < tame_npromises; i++)
		if ((tame_promises[i].atoms & ~(tame_atoms)v) == 0)
			d->promises |= (uint64_t)1 << i;
	return 1;
}

/*
 * The shim's marker of the program's real path, under TAME_EXEC_TREE:
 * write(-1, "tame-exe:/usr/bin/sort", n).  Copies the path into buf.
 */
static int
exe_marker(const struct st_event *ev, char *buf, size_t len)
{
	char s[PATH_MAX + 16];
	long long fd;
	int trunc;

	if (strcmp(ev->name, "write") != 0 || ev->nargs < 2 ||
	    st_number(ev->argv[0], ev->argl[0], &fd) == -1 || fd != -1 ||
	    st_string(ev->argv[1], ev->argl[1], s, sizeof(s), &trunc) < 0 ||
	    trunc || strncmp(s, "tame-exe:/", 10) != 0 || strlen(s + 9) >= len)
		return 0;
	memcpy(buf, s + 9, strlen(s + 9) + 1);
	return 1;
}

/* The call as evidence: "openat(...) = 3", its arguments shortened. */
static char *
call_text(const struct st_event *ev)
{
	char buf[CALL_TEXT_MAX + 128];
	int n = (int)(ev->args_len < CALL_TEXT_MAX ? ev->args_len :
	    CALL_TEXT_MAX);

	if (!ev->returned)
		snprintf(buf, sizeof(buf), "%s(%.*s%s) = ?", ev->name, n,
		    ev->args, (size_t)n < ev->args_len ? "..." : "");
	else if (ev->err[0] != '\0')
		snprintf(buf, sizeof(buf), "%s(%.*s%s) = %lld %s", ev->name, n,
		    ev->args, (size_t)n < ev->args_len ? "..." : "", ev->ret,
		    ev->err);
	else
		snprintf(buf, sizeof(buf), "%s(%.*s%s) = %lld", ev->name, n,
		    ev->args, (size_t)n < ev->args_len ? "..." : "", ev->ret);
	return xstrdup(buf);
}

static void
set_evidence(struct evidence *e, int run, const struct st_event *ev)
{
	free(e->call);
	free(e->frames);
	e->run = run;
	e->pid = ev->pid;
	e->line = ev->lineno;
	e->call = call_text(ev);
	e->frames = NULL;
}

static void
add_frame(struct evidence *e, const struct st_event *ev)
{
	size_t old = e->frames != NULL ? strlen(e->frames) : 0;

	if (old > 8192)
		return;		/* deep enough to find main */
	e->frames = xrealloc(e->frames, old + ev->args_len + 2);
	memcpy(e->frames + old, ev->args, ev->args_len);
	e->frames[old + ev->args_len] = '\n';
	e->frames[old + ev->args_len + 1] = '\0';
}

static int
add_decl(struct audit *a, const struct decl *m, int prev, int run,
    const struct st_event *ev)
{
	if (a->ndecls == a->decls_cap) {
		a->decls_cap = a->decls_cap == 0 ? 8 : a->decls_cap * 2;
		a->decls = xrealloc(a->decls, (size_t)a->decls_cap *
		    sizeof(*a->decls));
	}
	a->decls[a->ndecls] = *m;
	a->decls[a->ndecls].prev = prev;
	a->decls[a->ndecls].run = run;
	a->decls[a->ndecls].pid = ev->pid;
	a->decls[a->ndecls].line = ev->lineno;
	return a->ndecls++;
}

static void
observe(struct audit *a, int need, int decl, int run,
    const struct st_event *ev, struct evidence **frames_to)
{
	struct need *nd = &a->needs[need];

	frames_to[0] = frames_to[1] = NULL;
	if (nd->count++ == 0) {
		set_evidence(&nd->first, run, ev);
		frames_to[0] = &nd->first;
		nd->first_obs = a->nobs;
	}
	nd->runs |= 1ULL << run;
	/* a call every set of flags allows decides nothing: not kept */
	if (nd->nalts > 0 && nd->alts[0] == 0 && nd->nexact > 0 &&
	    nd->exact[0] == 0)
		return;
	if (a->keep_frames) {
		set_evidence(&nd->last, run, ev);
		frames_to[1] = &nd->last;
	} else {
		/* where only: the text is the first's (and costs a copy) */
		nd->last.run = run;
		nd->last.pid = ev->pid;
		nd->last.line = ev->lineno;
	}
	if (a->nobs == a->obs_cap) {
		a->obs_cap = a->obs_cap == 0 ? 1024 : a->obs_cap * 2;
		a->obs = xrealloc(a->obs, (size_t)a->obs_cap *
		    sizeof(*a->obs));
	}
	a->obs[a->nobs++] = (struct obs){ .need = need, .decl = decl,
	    .run = run, .pid = ev->pid, .line = ev->lineno };
}

static int
is_exec(const char *name)
{
	return strcmp(name, "execve") == 0 || strcmp(name, "execveat") == 0;
}

/* The program an execve started, from its path argument. */
static void
note_exe(struct image *im, const struct st_event *ev)
{
	const char *arg;
	char path[4096];
	size_t n;
	int trunc, i = strcmp(ev->name, "execveat") == 0;

	if (st_arg(ev->args, ev->args_len, i, &arg, &n) == -1 ||
	    st_string(arg, n, path, sizeof(path), &trunc) < 0)
		return;
	free(im->exe);
	im->exe = xstrdup(path);
}

/*
 * The calls an image made before its marker, where the audit keeps
 * those (a run whose tame() warmed the name service: main.c asks which
 * of the first run's needs moved before the filter).  Kept as text
 * until the marker, and only then classified, into an audit of their
 * own so that they are no needs of the program's: an image that execs
 * first (tame-exec's launcher) never had its calls classified.
 */
static void
early_add(struct image *im, const struct st_event *ev)
{
	struct early *e;

	if (im->nearly == im->ecap) {
		im->ecap = im->ecap ? 2 * im->ecap : 64;
		im->early = xrealloc(im->early, (size_t)im->ecap *
		    sizeof(*im->early));
	}
	e = &im->early[im->nearly++];
	memcpy(e->name, ev->name, sizeof(e->name));
	e->args = xcalloc(1, ev->args_len + 1);
	memcpy(e->args, ev->args, ev->args_len);
	e->len = ev->args_len;
	e->ret = ev->ret;
	memcpy(e->err, ev->err, sizeof(e->err));
	e->returned = ev->returned;
}

static void
early_drop(struct image *im)
{
	while (im->nearly > 0)
		free(im->early[--im->nearly].args);
}

static void
early_classify(struct audit *a, struct image *im)
{
	struct call_text t;
	int i;

	if (a->before == NULL)
		a->before = audit_new();
	for (i = 0; i < im->nearly; i++) {
		t = (struct call_text){ .name = im->early[i].name,
		    .args = im->early[i].args, .len = im->early[i].len,
		    .ret = im->early[i].ret, .err = im->early[i].err,
		    .returned = im->early[i].returned, .tgid = im->tgid,
		    .creator = -1 };
		(void)classify(a->before, &t);
	}
	early_drop(im);
}

/* A clone that returned: the child's state as its parent's now. */
static void
note_clone(struct procs *p, struct image *im, const struct st_event *ev)
{
	struct task *child;
	int index = (int)(im - p->images), i;

	if (!ev->returned || ev->ret <= 0 || !creates_task(ev->name,
	    strlen(ev->name)))
		return;
	/* the index first: it may move the tasks (not the images) */
	i = life_born(p, (int)ev->ret, ev->begun, ev->lineno);
	child = &p->tasks[i];
	if (child->image < 0) {
		child->forked_decl = im->decl;
		child->forked_dead = im->dead;
		child->forked_image = index;
	}
}

/* The run's first process: its status is the command's. */
static void
note_end(struct run *r, const struct st_event *ev)
{
	if (r->pid == 0)
		r->pid = ev->pid;
	if (ev->pid == r->pid && ev->kind == ST_EXITED) {
		r->exited = 1;
		r->status = ev->status;
	} else if (ev->pid == r->pid && ev->kind == ST_KILLED) {
		r->exited = 2;
		snprintf(r->signame, sizeof(r->signame), "%s", ev->name);
	}
}

/* One call of a marked image, classified into its audit a. */
static void
count_call(struct audit *a, struct procs *p, struct run *r, int run,
    struct image *im, const struct st_event *ev, struct evidence **frames_to)
{
	struct call_text t;
	struct fdnote *note;
	int need;

	peer_use(a, p, im->tgid, ev);
	note = fd_note(p, im->tgid, ev);
	t = (struct call_text){ .name = ev->name, .args = ev->args,
	    .len = ev->args_len, .nargs = ev->nargs, .argv = ev->argv,
	    .argl = ev->argl, .ret = ev->ret, .err = ev->err,
	    .returned = ev->returned, .tgid = im->tgid,
	    .creator = note != NULL ? note->need : -1 };
	/* a UDP connect: the resolver's, until data moves (struct peer) */
	if ((t.udp_probe = udp_connect(ev)))
		peer_add(p, &t, ev, need = classify(a, &t), im->decl, run);
	else
		need = classify(a, &t);
	fd_track(a, p, im->tgid, ev, need);
	repeats_note(a, ev);
	r->calls++;
	observe(a, need, im->decl, run, ev, frames_to);
}

static void
event(struct audit *a, struct procs *p, struct run *r, int run,
    const struct st_event *ev, int from_exec, struct evidence **frames_to)
{
	struct image *im;
	struct decl m;

	if (ev->kind == ST_FRAME) {
		if (a->keep_frames && frames_to[0] != NULL)
			add_frame(frames_to[0], ev);
		if (a->keep_frames && frames_to[1] != NULL)
			add_frame(frames_to[1], ev);
		return;
	}
	frames_to[0] = frames_to[1] = NULL;
	note_end(r, ev);
	if (ev->kind != ST_CALL)
		return;
	im = image_of(p, ev->pid);
	note_clone(p, im, ev);
	if (marker(ev, &m)) {
		if (im->dead)
			return;
		if (a->keep_before && im->decl < 0)
			early_classify(a, im);
		im->decl = add_decl(a, &m, im->decl, run, ev);
		if (r->markers++ == 0 && im->exe != NULL)
			r->exe = xstrdup(im->exe);
		return;
	}
	if (im->dead)
		return;
	if (is_exec(ev->name) && im->decl < 0) {
		if (ev->returned && ev->ret == 0) {
			early_drop(im);		/* a launcher's */
			note_exe(im, ev);
			if (from_exec && r->markers++ == 0) {
				/* a static program: all of it is its own */
				m = (struct decl){ .flags = TAME_ALL };
				im->decl = add_decl(a, &m, -1, run, ev);
				im->static_start = 1;
				r->exe = xstrdup(im->exe != NULL ? im->exe :
				    "");
			}
		}
		return;
	}
	if (im->decl < 0) {
		if (a->keep_before)
			early_add(im, ev);
		return;
	}
	/*
	 * A static C library sets its thread pointer (arch_prctl) among
	 * its first calls, before main(), where the program would call
	 * tame(): not the program's to answer for.
	 */
	if (im->static_start > 0 && im->static_start++ <= STATIC_START_CALLS &&
	    strcmp(ev->name, "arch_prctl") == 0)
		return;
	count_call(a, p, r, run, im, ev, frames_to);
	if (is_exec(ev->name) && ev->returned && ev->ret == 0)
		im->dead = 1;
}

/* The real path of an image's program: the shim's word, or the exec's. */
static void
image_path(const struct image *im, char *buf, size_t len)
{
	char real[PATH_MAX];

	if (im->real != NULL)
		snprintf(buf, len, "%s", im->real);
	else if (im->exe != NULL && realpath(im->exe, real) != NULL)
		snprintf(buf, len, "%s", real);
	else
		snprintf(buf, len, "%s", im->exe != NULL ? im->exe : "?");
}

/*
 * An image without a marker is over (it exec'd, or the log ended): if a
 * program of the tree started it and it did something, the shim was not
 * in it.  The run's first image is the launcher (tame-exec) itself.
 */
static void
image_over(struct procs *p, struct image *im)
{
	char path[PATH_MAX];

	if (im->decl >= 0 || im->first || im->exe == NULL || im->calls == 0 ||
	    im->dead)
		return;
	image_path(im, path, sizeof(path));
	tree_unreached(p->tree, path, im->starter);
	im->calls = 0;
}

/*
 * A process killed by a signal: where its image had exec'd and not yet
 * marked itself, the loader was still at work, and nothing of the
 * program ran: no unreached program, a killed one.
 */
static void
killed_early(struct procs *p, const struct st_event *ev)
{
	struct image *im = image_of(p, ev->pid);
	char path[PATH_MAX];

	if (im->decl >= 0 || im->first || im->exe == NULL || im->dead)
		return;
	image_path(im, path, sizeof(path));
	tree_killed(p->tree, path, im->starter, ev->name);
	im->calls = 0;
	im->dead = 1;
}

/* Forget what is known of tgid's descriptors: a new image's calls. */
static void
forget_fds(struct procs *p, int tgid)
{
	int i;

	for (i = p->nfds - 1; i >= 0; i--)
		if (p->fds[i].tgid == tgid)
			p->fds[i] = p->fds[--p->nfds];
	for (i = p->npeers - 1; i >= 0; i--)
		if (p->peers[i].tgid == tgid)
			peer_drop(p, &p->peers[i]);
}

/*
 * A tree's reading (tree.h): an image's calls from its marker on go to
 * its program's audit; an exec after the marker is its program's (a
 * launcher's) and starts a new image in the same process, which its own
 * marker assigns to its program.
 */
static void
event_tree(struct procs *p, struct run *r, int run, const struct st_event *ev)
{
	struct evidence *none[2] = { NULL, NULL };
	struct program *pr;
	struct image *im;
	char path[PATH_MAX];
	struct decl m;
	int starter;

	note_end(r, ev);
	if (ev->kind == ST_KILLED)
		killed_early(p, ev);
	if (ev->kind != ST_CALL)
		return;
	im = image_of(p, ev->pid);
	note_clone(p, im, ev);
	if (exe_marker(ev, path, sizeof(path))) {
		free(im->real);
		im->real = xstrdup(path);
		return;
	}
	if (marker(ev, &m)) {
		if (im->prog < 0) {
			image_path(im, path, sizeof(path));
			im->prog = tree_program(p->tree, path, im->starter);
			tree_process(p->tree, im->prog);
		}
		pr = &p->tree->p[im->prog];
		if (p->tree->keep_before && im->decl < 0)
			early_classify(pr->a, im);
		im->decl = add_decl(pr->a, &m, im->decl, run, ev);
		r->markers++;
		return;
	}
	if (im->decl < 0) {
		if (is_exec(ev->name) && ev->returned && ev->ret == 0) {
			early_drop(im);		/* a launcher's */
			image_over(p, im);
			note_exe(im, ev);
			free(im->real);
			im->real = NULL;
		} else {
			im->calls++;
			if (p->tree->keep_before)
				early_add(im, ev);
		}
		return;
	}
	count_call(p->tree->p[im->prog].a, p, r, run, im, ev, none);
	if (!is_exec(ev->name) || !ev->returned || ev->ret != 0)
		return;
	/* a new image in this process, started by this program */
	starter = im->prog;
	task(p, ev->pid)->image = new_image(p, ev->pid, -1, NULL);
	im = &p->images[task(p, ev->pid)->image];
	im->starter = starter;
	note_exe(im, ev);
	forget_fds(p, ev->pid);
}

/*
 * The log is read twice, so it must be a regular file: a pipe would be
 * empty the second time, a FIFO with no writer would block the open
 * forever, and /dev/zero never ends.  O_NONBLOCK only keeps the open of
 * a FIFO from waiting; reads of a regular file never block anyway.
 */
static FILE *
open_log(const char *path, char *err, size_t errlen)
{
	struct stat st;
	const char *what;
	FILE *f;
	int fd;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1 ||
	    fstat(fd, &st) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd != -1)
			close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		what = S_ISDIR(st.st_mode) ? "a directory" :
		    S_ISFIFO(st.st_mode) ? "a pipe or FIFO" :
		    S_ISCHR(st.st_mode) ? "a character device" :
		    S_ISBLK(st.st_mode) ? "a block device" : "a socket";
		snprintf(err, errlen, "%s: not an strace log file but %s%s",
		    path, what, S_ISDIR(st.st_mode) ? "" : " (the log is read "
		    "twice: save it to a regular file first)");
		close(fd);
		return NULL;
	}
	if ((f = fdopen(fd, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

static void
procs_free(struct procs *p)
{
	int i;

	for (i = 0; i < p->nimages; i++) {
		free(p->images[i].exe);
		free(p->images[i].real);
		early_drop(&p->images[i]);
		free(p->images[i].early);
	}
	free(p->images);
	free(p->tasks);
	pidmap_free(&p->now);
	pidmap_free(&p->first);
	free(p->fds);
	while (p->npeers > 0)
		peer_drop(p, &p->peers[0]);
	free(p->peers);
}

/*
 * Read the log at path as run number run into r: into p->whole, or, for
 * a tree, into each program's audit.  Returns 0, or -1 with a message.
 */
static int
read_log(struct procs *p, struct run *r, int run, const char *path,
    int from_exec, char *err, size_t errlen)
{
	struct st_parser *sp;
	struct st_event ev;
	struct evidence *frames_to[2] = { NULL, NULL };
	FILE *f;
	char *line = NULL, bad[256] = "";
	size_t cap = 0;
	ssize_t n;
	long nbad = 0, good = 0, lineno;
	size_t body;
	int pass, k, i, pid, dies;

	if ((f = open_log(path, err, errlen)) == NULL)
		return -1;
	memset(r, 0, sizeof(*r));
	for (pass = 0; pass < 2; pass++) {
		rewind(f);
		sp = st_new();
		nbad = good = lineno = 0;
		if (pass == 1)
			lives_rewind(p);
		while ((n = getline(&line, &cap, f)) != -1) {
			if (n > 0 && line[n - 1] == '\n')
				line[--n] = '\0';
			lineno++;
			/*
			 * Each line of a pid is its life's (a frame, " > ",
			 * its event's); "+++ " ends the life after it.
			 */
			pid = -1;
			if (line[0] != ' ' || strncmp(line, " > ", 3) != 0) {
				pid = st_pid(line, (size_t)n, &body);
				(void)life_of(p, pid, lineno);
			}
			dies = pid >= 0 && line[body] == '+' &&
			    ends_life(line + body, &pid);
			if (pass == 1)
				r->lines++;
			else if (!creates_task(line, (size_t)n)) {
				st_skip_line(sp);	/* the first pass wants
							   only these */
				if (dies)
					life_end(p, pid);
				continue;
			}
			if ((k = st_line(sp, line, (size_t)n, &ev)) == -1) {
				if (nbad++ == 0)
					snprintf(bad, sizeof(bad), "%s",
					    st_error(sp));
			} else if (k == 1) {
				good++;
				if (pass == 0)
					learn_parents(p, &ev);
				else if (p->tree != NULL)
					event_tree(p, r, run, &ev);
				else
					event(p->whole, p, r, run, &ev,
					    from_exec, frames_to);
			}
			if (dies)
				life_end(p, pid);
			/* its descriptors are gone with it, whoever gets
			   the number next */
			if (dies && pass == 1)
				forget_fds(p, pid);
		}
		if (pass == 1)
			r->cut = st_pending(sp) > 0;
		st_free(sp);
		if (pass == 1 && good == 0) {
			snprintf(err, errlen, "%s: not an strace log%s%s", path,
			    nbad > 0 ? ": " : " (it is empty)", bad);
			free(line);
			fclose(f);
			return -1;
		}
	}
	free(line);
	fclose(f);
	if (p->tree != NULL)
		for (i = 0; i < p->nimages; i++)
			image_over(p, &p->images[i]);
	r->name = xstrdup(path);
	r->malformed = nbad;
	if (nbad > 0)
		snprintf(r->first_bad, sizeof(r->first_bad), "%s", bad);
	return 0;
}

int
audit_read_log(struct audit *a, const char *path, int from_exec, char *err,
    size_t errlen)
{
	struct procs p = { .whole = a };
	int r;

	if (a->nruns == AUDIT_MAXRUNS) {
		snprintf(err, errlen, "at most %d logs at once", AUDIT_MAXRUNS);
		return -1;
	}
	r = read_log(&p, &a->runs[a->nruns], a->nruns, path, from_exec, err,
	    errlen);
	procs_free(&p);
	if (r == 0)
		a->nruns++;
	return r;
}

int
tree_read_log(struct tree *t, const char *path, char *err, size_t errlen)
{
	struct procs p = { .tree = t };
	struct run r;
	int k;

	if (t->nruns == AUDIT_MAXRUNS) {
		snprintf(err, errlen, "at most %d logs at once", AUDIT_MAXRUNS);
		return -1;
	}
	k = read_log(&p, &r, t->nruns, path, 0, err, errlen);
	procs_free(&p);
	if (k == -1)
		return -1;
	free(r.name);
	t->logs = xrealloc(t->logs, (size_t)(t->nruns + 1) * sizeof(*t->logs));
	t->logs[t->nruns++] = xstrdup(path);
	return 0;
}

struct audit *
audit_new(void)
{
	return xcalloc(1, sizeof(struct audit));
}

static void
free_evidence(struct evidence *e)
{
	free(e->call);
	free(e->frames);
}

void
audit_free(struct audit *a)
{
	int i;

	if (a == NULL)
		return;
	audit_free(a->before);
	classify_free(a);
	repeats_free(a);
	for (i = 0; i < a->nneeds; i++) {
		free(a->needs[i].what);
		free(a->needs[i].reason);
		free(a->needs[i].module);
		free_evidence(&a->needs[i].first);
		free_evidence(&a->needs[i].last);
	}
	for (i = 0; i < a->nruns; i++) {
		free(a->runs[i].name);
		free(a->runs[i].exe);
	}
	free(a->needs);
	free(a->obs);
	free(a->decls);
	free(a);
}
