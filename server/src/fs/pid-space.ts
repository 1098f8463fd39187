import { readFile, readlink } from 'node:fs/promises';

/**
 * Where this process's pid means something: the kernel's boot id and the PID namespace
 * (`<boot id>/pid:[<inode>]`), or null where Linux's /proc does not tell. Two processes with the
 * same value see the same pids, so one can tell by `kill(pid, 0)` that the other is gone; a
 * container in its own PID namespace, or another machine, has another value even with the same
 * host name and pid.
 */
export async function pidSpace(): Promise<string | null> {
  try {
    const boot = (await readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
    const namespace = await readlink('/proc/self/ns/pid');
    return boot && namespace ? `${boot}/${namespace}` : null;
  } catch {
    return null;
  }
}
