// XXH64 of bytes given in pieces (xxHash's streaming form): the same hash as xxh64() of the pieces laid end
// to end, for a JSON string too long to be decoded whole into the scratch (json.ts streams it through a
// fixed window). One stream at a time: begin, whole stripes, then the rest.
//
//   begin(seed) -> stripes(p, 32k) -> stripes(p, 32k) ... -> end(p, n)    =  xxh64(all bytes, seed)
import { P1, P2, P5, converge, finish, round } from './xxh64';

let v1: u64 = 0;
let v2: u64 = 0;
let v3: u64 = 0;
let v4: u64 = 0;
let seed0: u64 = 0;
/** Bytes taken so far (whole stripes only). */
let taken: u64 = 0;

/** Starts a stream with `seed`. */
export function streamBegin(seed: u64): void {
  v1 = seed + P1 + P2;
  v2 = seed + P2;
  v3 = seed;
  v4 = seed - P1;
  seed0 = seed;
  taken = 0;
}

/** Takes [ptr, ptr + len), whole 32-byte stripes (`len` a multiple of 32). */
export function streamStripes(ptr: usize, len: usize): void {
  let p = ptr;
  const end = ptr + len;
  let a = v1;
  let b = v2;
  let c = v3;
  let d = v4;
  while (p < end) {
    a = round(a, load<u64>(p));
    b = round(b, load<u64>(p, 8));
    c = round(c, load<u64>(p, 16));
    d = round(d, load<u64>(p, 24));
    p += 32;
  }
  v1 = a;
  v2 = b;
  v3 = c;
  v4 = d;
  taken += <u64>len;
}

/** Ends the stream with its last `len` bytes at `ptr` (any length); returns the hash of all it took. */
export function streamEnd(ptr: usize, len: usize): u64 {
  const whole = len & ~(<usize>31);
  const total = taken + <u64>len;
  streamStripes(ptr, whole);
  const h = total >= 32 ? converge(v1, v2, v3, v4) : seed0 + P5;
  return finish(h + total, ptr + whole, ptr + len);
}
