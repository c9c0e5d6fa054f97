/**
 * Whether a process with this pid exists (signal 0 probes without touching it; EPERM means it exists
 * but belongs to another user).
 * @example
 * processAlive(process.pid); // true
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
