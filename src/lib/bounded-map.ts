/**
 * Sets `key` in a Map used as a bounded cache: at `maxEntries`, the entry inserted longest ago
 * (a Map iterates in insertion order) makes room. Callers that delete before setting get
 * least-recently-used order.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, maxEntries: number): void {
  if (!map.has(key) && map.size >= maxEntries) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
}
