import { readdirSync, readFileSync } from "node:fs";

/**
 * Processes read from /proc (Linux), so that tests and benchmarks need no `ps` (procps is not on a machine
 * that has only Node). Each process: its pid, parent, session and command line; a process that ends while
 * it is read is left out.
 */
interface ProcessEntry {
  pid: number;
  ppid: number;
  session: number;
  args: string;
}

function processes(): ProcessEntry[] {
  const out: ProcessEntry[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // After "pid (comm) ": state ppid pgrp session ... (comm may hold spaces and parentheses).
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
      out.push({ pid: Number(entry), ppid: Number(fields[1]), session: Number(fields[3]), args });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The direct children of a process, oldest pid first (`ps -o pid=,args= --ppid <pid>`). */
export function childProcesses(pid: number): { pid: number; args: string }[] {
  return processes()
    .filter((p) => p.ppid === pid)
    .sort((a, b) => a.pid - b.pid)
    .map(({ pid: child, args }) => ({ pid: child, args }));
}

/** The pids of the processes in a session (`ps -o pid= -g <sid>`). */
export function sessionPids(session: number): number[] {
  return processes()
    .filter((p) => p.session === session)
    .map((p) => p.pid);
}
