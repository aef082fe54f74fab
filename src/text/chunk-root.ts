/**
 * The root of a repeated chunk: the shortest chunk that, said over and over, makes it. Chanting judges a
 * chunk of 60 characters or more by the long-chunk rule (3 repetitions), but a 100-character chunk that is
 * a 50-character one said twice is the short chunk repeated, and must reach the short rule's repetitions
 * (10): else eight repetitions of a 50-character chunk pass for four of a 100-character one.
 *
 * The smallest period `p` of a string of length `n` is `n - border(n)` (Knuth-Morris-Pratt's failure
 * function); the string is a power of its first `p` characters when `p` divides `n`.
 */

/** The length of the shortest chunk whose repetitions make up `chunk` exactly (`chunk.length` when none). */
export function rootLength(chunk: string): number {
  const n = chunk.length;
  if (n < 2) return n;
  const border = new Int32Array(n);
  let k = 0;
  for (let i = 1; i < n; i++) {
    while (k > 0 && chunk.charCodeAt(i) !== chunk.charCodeAt(k)) k = border[k - 1] as number;
    if (chunk.charCodeAt(i) === chunk.charCodeAt(k)) k++;
    border[i] = k;
  }
  const p = n - (border[n - 1] as number);
  return n % p === 0 ? p : n;
}
