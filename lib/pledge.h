/* SPDX-License-Identifier: ISC */
/*
 * pledge.h: OpenBSD's pledge(2) for Linux, from libtame.
 *
 * Installed as <tame/pledge.h>.  Code written for OpenBSD declares
 * pledge() and unveil() through <unistd.h>; built with
 * `pkg-config --cflags libtame-pledge`, this header comes in ahead of
 * every source file (-include), so such code compiles unchanged and
 * HAVE_PLEDGE can be defined for it.  See pledge(3).
 */
#ifndef TAME_PLEDGE_H
#define TAME_PLEDGE_H

/*
 * Each is declared under a name of its own bound to the real symbol, and
 * called through a macro: so configure's own test for the function
 * (AC_CHECK_FUNCS: "#undef pledge" then "char pledge ();"), built with
 * these flags, meets no conflicting declaration, while a call gets the
 * prototype's checks, and a program's own prototype of pledge() (a
 * compat.h for systems without it) declares the same function again.
 */
#ifdef __cplusplus
extern "C" {
#endif

/*
 * Restrict the process to promises (a space-separated list of
 * pledge(2)'s words), and what it may run after exec to execpromises.
 * NULL leaves either as it is; "" leaves only _exit(2).  Returns 0, or
 * -1 with errno: EINVAL for an unknown word, EPERM for a promise not
 * held (promises only narrow), ENOSYS where the kernel has no seccomp
 * filters.
 */
int	tame_pledge_(const char *promises, const char *execpromises)
	    __asm__("pledge");
#define pledge(promises, execpromises) tame_pledge_(promises, execpromises)

/*
 * Limit the file system to the paths unveiled, each with permissions
 * ("r", "w", "x", "c" or a mix; "" none), from the lock on:
 * unveil(NULL, NULL), or a pledge() without the unveil promise.
 * Returns 0, or -1 with errno: EINVAL for another letter or one NULL,
 * EPERM once locked, ENOENT for a path that does not exist, ENOSYS
 * without Landlock.  See unveil(3).
 */
int	tame_unveil_(const char *path, const char *permissions)
	    __asm__("unveil");
#define unveil(path, permissions) tame_unveil_(path, permissions)

#ifdef __cplusplus
}
#endif

#endif /* TAME_PLEDGE_H */
