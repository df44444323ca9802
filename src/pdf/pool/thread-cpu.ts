// CPU time of one thread, so a job's limit is the work it did and not how long it waited for a core:
// the same file gets the same verdict on an idle server and on a loaded one. Linux exposes each
// thread's user and system time in /proc/self/task/<tid>/stat; a worker learns its tid from
// /proc/thread-self. Elsewhere callers fall back to the wall clock from the moment the job started.
import { readFileSync, readlinkSync } from 'node:fs';

// The kernel reports these fields in USER_HZ, which is 100 on every Linux ABI.
const TICK_MS = 10;

/** The calling thread's kernel thread id, or undefined where /proc is not available. */
export function currentThreadId(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/** User + system CPU milliseconds of thread `tid` of this process, or undefined if unreadable. */
export function threadCpuMs(tid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'latin1');
    // Fields after the command name (which may hold spaces and parentheses): state is field 3,
    // utime field 14 and stime field 15.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(rest[11]);
    const stime = Number(rest[12]);
    return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) * TICK_MS : undefined;
  } catch {
    return undefined;
  }
}
