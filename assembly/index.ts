export function add(a: u32, b: u32): u32 {
  return a + b;
}
