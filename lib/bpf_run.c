/* SPDX-License-Identifier: ISC */
/*
 * bpf_run.c: a small classic-BPF interpreter over struct seccomp_data.
 *
 * The tests run the compiled program, and libseccomp's program for the
 * same policy, through it over many (arch, nr, args) tuples; tame-exec
 * --dump-bpf does not need it.  It implements the subset seccomp accepts
 * and returns SECCOMP_RET_KILL_PROCESS for anything malformed.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "compile.h"

static uint32_t
run(const struct sock_filter *f, int len, const struct seccomp_data *d)
{
	uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = { 0 }, w;
	const unsigned char *base = (const unsigned char *)d;
	int pc;

	for (pc = 0; pc >= 0 && pc < len; pc++) {
		const struct sock_filter *i = &f[pc];
		uint32_t src = BPF_SRC(i->code) == BPF_X ? x : i->k;

		switch (BPF_CLASS(i->code)) {
		case BPF_LD:
			if (i->code == (BPF_LD | BPF_W | BPF_ABS)) {
				if (i->k > sizeof(*d) - 4 || i->k % 4)
					return SECCOMP_RET_KILL_PROCESS;
				memcpy(&w, base + i->k, 4);
				a = w;
			} else if (i->code == (BPF_LD | BPF_IMM))
				a = i->k;
			else if (i->code == (BPF_LD | BPF_MEM))
				a = mem[i->k % BPF_MEMWORDS];
			else if (i->code == (BPF_LD | BPF_W | BPF_LEN))
				a = sizeof(*d);
			else
				return SECCOMP_RET_KILL_PROCESS;
			break;
		case BPF_LDX:
			if (i->code == (BPF_LDX | BPF_IMM))
				x = i->k;
			else if (i->code == (BPF_LDX | BPF_MEM))
				x = mem[i->k % BPF_MEMWORDS];
			else if (i->code == (BPF_LDX | BPF_W | BPF_LEN))
				x = sizeof(*d);
			else
				return SECCOMP_RET_KILL_PROCESS;
			break;
		case BPF_ST:
			mem[i->k % BPF_MEMWORDS] = a;
			break;
		case BPF_STX:
			mem[i->k % BPF_MEMWORDS] = x;
			break;
		case BPF_ALU:
			switch (BPF_OP(i->code)) {
			case BPF_ADD: a += src; break;
			case BPF_SUB: a -= src; break;
			case BPF_MUL: a *= src; break;
			case BPF_DIV: a = src ? a / src : 0; break;
			case BPF_MOD: a = src ? a % src : 0; break;
			case BPF_AND: a &= src; break;
			case BPF_OR: a |= src; break;
			case BPF_XOR: a ^= src; break;
			case BPF_LSH: a = src < 32 ? a << src : 0; break;
			case BPF_RSH: a = src < 32 ? a >> src : 0; break;
			case BPF_NEG: a = -a; break;
			default: return SECCOMP_RET_KILL_PROCESS;
			}
			break;
		case BPF_JMP:
			switch (BPF_OP(i->code)) {
			case BPF_JA: pc += (int)i->k; break;
			case BPF_JEQ: pc += a == src ? i->jt : i->jf; break;
			case BPF_JGT: pc += a > src ? i->jt : i->jf; break;
			case BPF_JGE: pc += a >= src ? i->jt : i->jf; break;
			case BPF_JSET: pc += (a & src) ? i->jt : i->jf; break;
			default: return SECCOMP_RET_KILL_PROCESS;
			}
			break;
		case BPF_RET:
			return BPF_RVAL(i->code) == BPF_A ? a : i->k;
		case BPF_MISC:
			if (BPF_MISCOP(i->code) == BPF_TAX)
				x = a;
			else
				a = x;
			break;
		}
	}
	return SECCOMP_RET_KILL_PROCESS;	/* fell off the end */
}

uint32_t
tame_bpf_run_raw(const struct sock_filter *f, int len, uint32_t arch, int nr,
    const uint64_t args[6], uint64_t ip)
{
	struct seccomp_data d;
	int i;

	memset(&d, 0, sizeof(d));
	d.nr = nr;
	d.arch = arch;
	d.instruction_pointer = ip;
	for (i = 0; i < 6; i++)
		d.args[i] = args[i];
	return run(f, len, &d);
}

uint32_t
tame_bpf_run(const struct tame_prog *p, uint32_t arch, int nr,
    const uint64_t args[6], uint64_t ip)
{
	return tame_bpf_run_raw(p->insn, p->len, arch, nr, args, ip);
}
