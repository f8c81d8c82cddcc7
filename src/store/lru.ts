// A bounded map for what a process keeps in memory per user or chat (id-records.ts: the records
// the caches share) and per key (sqlite/limits.ts: quiet periods).

/**
 * A map that forgets its least recently used entry past `capacity`; O(1) per call. Recency is
 * kept to a quarter of the capacity: a `get` of an entry placed fewer than a quarter of the
 * capacity placements ago leaves it where it is (a `set` always moves it to the newest end), so
 * an entry is forgotten only after at least three quarters of the capacity in entries placed
 * after its last use — unless it went unmoved for 2^30 placements, when a `get` may take it for
 * recent (the count wraps): then it is forgotten sooner, which costs a read from the store.
 */
export type Lru<K, V> = {
  get(key: K): V | undefined;
  /** The value without making it recently used. */
  peek(key: K): V | undefined;
  set(key: K, value: V): void;
  delete(key: K): void;
  /** Deletes every entry `expired` says so of: a walk over all of them, for a sweep on a timer. */
  deleteWhere(expired: (value: V, key: K) => boolean): void;
  clear(): void;
  readonly size: number;
};

type Node<K, V> = { key: K; value: V; newer: Node<K, V> | null; older: Node<K, V> | null; placed: number };

/** Placements are counted modulo 2^30 (this mask), so the count stays a small integer (no heap number). */
const MODULO = 0x3fff_ffff;

export type LruOptions<K, V> = {
  /** Told of each entry forgotten past the capacity (not of those deleted). */
  onEvict?: (value: V, key: K) => void;
};

export const createLru = <K, V>(capacity: number, { onEvict }: LruOptions<K, V> = {}): Lru<K, V> => {
  // Entries in a list from the oldest to the newest, found through a Map: a use moves a node and
  // allocates nothing. (A Map re-inserted on use and read through a long-lived iterator keeps every
  // table V8 rehashed alive: docs/performance.md.) A use of an entry placed within the last quarter
  // of the capacity moves nothing: a move writes three nodes scattered through the heap.
  const nodes = new Map<K, Node<K, V>>();
  let oldest: Node<K, V> | null = null;
  let newest: Node<K, V> | null = null;
  /** Placements at the newest end so far (modulo 2^30); a node records the count at its own. */
  let placements = 0;
  const recentSpan = Math.max(1, Math.floor(capacity / 4));

  const unlink = (node: Node<K, V>) => {
    if (node.older === null) oldest = node.newer;
    else node.older.newer = node.newer;
    if (node.newer === null) newest = node.older;
    else node.newer.older = node.older;
    node.older = node.newer = null;
  };
  const append = (node: Node<K, V>) => {
    placements = (placements + 1) & MODULO;
    node.placed = placements;
    node.older = newest;
    if (newest === null) oldest = node;
    else newest.newer = node;
    newest = node;
  };
  /** Makes the node the most recently used. */
  const touch = (node: Node<K, V>) => {
    if (node === newest) return;
    unlink(node);
    append(node);
  };
  const remove = (node: Node<K, V>) => {
    // A node already removed (a sweep's callback that deleted it itself) is left alone.
    if (nodes.get(node.key) !== node) return;
    unlink(node);
    nodes.delete(node.key);
  };

  return {
    get(key) {
      const node = nodes.get(key);
      if (node === undefined) return undefined;
      // Fewer than recentSpan placements since its own: fewer than that many entries are newer.
      if (((placements - node.placed) & MODULO) >= recentSpan) touch(node);
      return node.value;
    },
    peek: (key) => nodes.get(key)?.value,
    set(key, value) {
      const node = nodes.get(key);
      if (node !== undefined) {
        node.value = value;
        touch(node);
        return;
      }
      const added: Node<K, V> = { key, value, newer: null, older: null, placed: 0 };
      nodes.set(key, added);
      append(added);
      if (nodes.size > capacity && oldest !== null) {
        const evicted = oldest;
        remove(evicted);
        onEvict?.(evicted.value, evicted.key);
      }
    },
    delete(key) {
      const node = nodes.get(key);
      if (node !== undefined) remove(node);
    },
    deleteWhere(expired) {
      for (let node = oldest; node !== null; ) {
        const next: Node<K, V> | null = node.newer;
        if (expired(node.value, node.key)) remove(node);
        node = next;
      }
    },
    clear() {
      nodes.clear();
      oldest = newest = null;
    },
    get size() {
      return nodes.size;
    },
  };
};
