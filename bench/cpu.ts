// CPU time of processes, from /proc (Linux), for per-request CPU figures beside throughput:
// a rate moves with the host's speed from run to run, the CPU a request costs much less.
import fs from "node:fs";

/** CPU seconds a process has used, all its threads (/proc/<pid>/stat: user and system time, in ticks of 10 ms). */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

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
export function endedChildrenCpuSeconds(): number {
  const stat = fs.readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[13]) + Number(fields[14])) / 100;
}
