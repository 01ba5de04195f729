/**
 * The seccomp filter every bubblewrap sandbox runs under: `socket(AF_UNIX, …)` fails with EPERM,
 * so no command can connect to a host service's Unix socket on a path it can see (bwrap hides
 * /run, /tmp and credentials, but a socket elsewhere on the read-only host would still answer a
 * `connect()`). `socketpair()` stays allowed (pipes between a shell and its children use it).
 *
 * Written as classic BPF (the kernel's `struct sock_filter`, linux/filter.h and linux/seccomp.h),
 * handed to `bwrap --seccomp FD`. On x86_64 the x32 ABI (syscall numbers with bit 30 set) is
 * refused whole, and a process of another architecture than this one gets EPERM for every call,
 * so neither can reach `socket` under another number. The same rule as the sandboxes of Claude
 * Code and Codex on Linux.
 * @module
 */

const bpf = { ldAbsW: 0x20, jeqK: 0x15, jgeK: 0x35, ret: 0x06 } as const;
const seccompRet = { allow: 0x7fff0000, errno: 0x00050000 } as const;
const eperm = 1;
const afUnix = 1;
/** Offsets in `struct seccomp_data`: nr, arch, args[0] (low 32 bits on little-endian). */
const offset = { nr: 0, arch: 4, arg0: 16 } as const;

/** The audit architecture and the `socket` syscall number of each supported machine. */
const machines: Record<string, { arch: number; socket: number; x32: boolean }> = {
  x64: { arch: 0xc000003e, socket: 41, x32: true },
  arm64: { arch: 0xc00000b7, socket: 198, x32: false },
};

type Instruction = [code: number, jt: number, jf: number, k: number];

/**
 * The filter for this machine's architecture (`process.arch`), as the bytes bwrap reads.
 * @returns `undefined` on an architecture without a known `socket` number (no filter: documented).
 */
export function unixSocketFilter(arch: string = process.arch): Uint8Array | undefined {
  const machine = machines[arch];
  if (machine === undefined) return undefined;
  const deny: Instruction = [bpf.ret, 0, 0, seccompRet.errno | eperm];
  const allow: Instruction = [bpf.ret, 0, 0, seccompRet.allow];
  // Jumps are relative to the next instruction; the program ends with [deny, allow].
  const body: Instruction[] = [
    [bpf.ldAbsW, 0, 0, offset.arch],
    [bpf.jeqK, 1, 0, machine.arch],
    [bpf.ret, 0, 0, seccompRet.errno | eperm], // another architecture: nothing
    [bpf.ldAbsW, 0, 0, offset.nr],
  ];
  const tail = 2; // deny, allow
  if (machine.x32) body.push([bpf.jgeK, 0, 0, 0x40000000]); // jt patched below
  body.push([bpf.jeqK, 0, 0, machine.socket]);
  body.push([bpf.ldAbsW, 0, 0, offset.arg0]);
  body.push([bpf.jeqK, 0, 0, afUnix]);
  const program = [...body, deny, allow];
  const denyAt = program.length - tail;
  const allowAt = denyAt + 1;
  const jump = (from: number, to: number): number => to - from - 1;
  for (let at = 3; at < body.length; at++) {
    const instruction = program[at] as Instruction;
    if (instruction[0] === bpf.jgeK) {
      instruction[1] = jump(at, denyAt);
      instruction[2] = 0;
    } else if (instruction[0] === bpf.jeqK && instruction[3] === machine.socket) {
      instruction[1] = 0;
      instruction[2] = jump(at, allowAt);
    } else if (instruction[0] === bpf.jeqK && instruction[3] === afUnix) {
      instruction[1] = jump(at, denyAt);
      instruction[2] = jump(at, allowAt);
    }
  }
  const bytes = new Uint8Array(program.length * 8);
  const view = new DataView(bytes.buffer);
  program.forEach(([code, jt, jf, k], index) => {
    view.setUint16(index * 8, code, true);
    view.setUint8(index * 8 + 2, jt);
    view.setUint8(index * 8 + 3, jf);
    view.setUint32(index * 8 + 4, k, true);
  });
  return bytes;
}
