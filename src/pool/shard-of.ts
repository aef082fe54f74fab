/** A session's shard in a pool, from its id alone: the pool routes by it, and a scan's reader asks it which lines go to a worker. */

/**
 * Which shard holds a session: FNV-1a over the id's UTF-16 code units, then MurmurHash3's 32-bit finaliser
 * (fmix32). FNV-1a alone keeps its low bit the parity of the code units' low bits (its prime is odd), so with
 * 2 shards a session's shard was only whether its id held an odd number of odd characters (every anagram of
 * an id on one shard); the finaliser makes each bit of the result depend on every bit of the hash.
 */
export function shardOf(sessionId: string, shards: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < sessionId.length; i++) h = Math.imul(h ^ sessionId.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) % shards;
}
