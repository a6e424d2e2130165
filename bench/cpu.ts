// CPU time of processes, from /proc (Linux), for per-request CPU figures beside throughput:
// a rate moves with the host's speed from run to run, the CPU a request costs much less.
import fs from "node:fs";

/** Seconds in two adjacent time fields of a /proc stat file (ticks of 10 ms), counted from after the command name. */
function statSeconds(file: string, first: number): number {
  const stat = fs.readFileSync(file, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[first]) + Number(fields[first + 1])) / 100;
}

/** CPU seconds a process has used, all its threads (/proc/<pid>/stat: utime and stime). */
export const cpuSeconds = (pid: number): number => statSeconds(`/proc/${pid}/stat`, 11);

/** CPU seconds used by every live process whose command name is `comm` (e.g. postgres: the server and its backends). */
export function cpuSecondsOf(comm: string): number {
  let total = 0;
  for (const pid of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim() === comm) total += cpuSeconds(Number(pid));
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

/**
 * CPU seconds used by this process's children that have ended and been waited for (/proc/self/stat:
 * cutime and cstime): a load generator run per measurement, such as wrk, once it has exited.
 */
export const endedChildrenCpuSeconds = (): number => statSeconds("/proc/self/stat", 13);

/** CPU seconds of each live thread of a process, by thread id (/proc/<pid>/task/<tid>/stat). */
export function threadCpuSeconds(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      out.set(Number(tid), statSeconds(`/proc/${pid}/task/${tid}/stat`, 11));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}
