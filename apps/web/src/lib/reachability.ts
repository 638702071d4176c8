/**
 * Whether the server answered the last write (any answer, even a refusal) or health check, and no
 * request since went without an answer (reads may be answered offline by the service worker, so
 * only writes and the health check, which it never keeps, count as reaching it; lib/http.ts asks
 * the health check every PROBE_MS while the server is not reached). `navigator.onLine` alone says
 * only that a network is there, not that the server is reached: the till's online/offline shows
 * both together (pages/till/OfflineBar.tsx).
 */
let reached = true;

/** How soon a server not reached is asked again (the health check, and the till's queue). */
export const PROBE_MS = 5_000;
const listeners = new Set<() => void>();

export function serverReached(): boolean {
  return reached;
}

/** Set by the HTTP client after every request. */
export function noteReached(value: boolean): void {
  if (value === reached) return;
  reached = value;
  for (const listener of listeners) listener();
}

export function onReachability(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
