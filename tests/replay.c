/* SPDX-License-Identifier: ISC */
/*
 * replay.c: the kernel's constant-action cache check (replay.h).
 */
#include <linux/filter.h>
#include <linux/seccomp.h>

#include <stddef.h>
#include <stdint.h>

#include "replay.h"

int
replay_const_allow(const struct sock_filter *f, int len, uint32_t arch,
    int nr, long *steps)
{
	const struct sock_filter *in;
	uint32_t a = 0;
	int pc, res;

	for (pc = 0; pc < len; pc++) {
		in = &f[pc];
		if (steps != NULL)
			(*steps)++;
		switch (in->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (in->k == offsetof(struct seccomp_data, nr))
				a = (uint32_t)nr;
			else if (in->k == offsetof(struct seccomp_data, arch))
				a = arch;
			else
				return 0;	/* an argument or the ip */
			break;
		case BPF_RET | BPF_K:
			return in->k == SECCOMP_RET_ALLOW;
		case BPF_JMP | BPF_JA:
			pc += in->k;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
		case BPF_JMP | BPF_JGE | BPF_K:
		case BPF_JMP | BPF_JGT | BPF_K:
		case BPF_JMP | BPF_JSET | BPF_K:
			switch (BPF_OP(in->code)) {
			case BPF_JEQ:
				res = a == in->k;
				break;
			case BPF_JGE:
				res = a >= in->k;
				break;
			case BPF_JGT:
				res = a > in->k;
				break;
			default:
				res = (a & in->k) != 0;
				break;
			}
			pc += res ? in->jt : in->jf;
			break;
		case BPF_ALU | BPF_AND | BPF_K:
			a &= in->k;
			break;
		default:
			return 0;
		}
	}
	return 0;			/* ran off the end */
}
