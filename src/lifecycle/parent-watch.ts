/**
 * Calls `onGone` once when the process that started us exits without passing a signal on (a launcher
 * killed with SIGKILL, a shell that dies on SIGTERM): we are re-parented, and a service nobody can stop
 * any more should stop itself, with its embedded Chroma. A process started by init (ppid 1, as in a
 * container without --init) has no launcher to lose and is not watched.
 */
export function watchParent(onGone: () => void, intervalMs = 1000): () => void {
  const parent = process.ppid;
  if (parent <= 1) return () => undefined;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      onGone();
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
