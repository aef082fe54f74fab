// The reference twin of reportScan (assembly/report-scan.ts): the same SCAN_ bits from a loop that looks at
// every byte, as the scan was before it looked sixteen bytes at a time. Kept for the differential tests
// (test/wasm-report-scan-differential.test.ts), not called by the host.
import { ASK_ACK, ASK_WAIT, SCAN_MAY_WAIT, waitAt, SKIP_PASS, FIRST, NOTE, SCAN_FAILURE, SCAN_MAY_ACK, SCAN_MAY_NOTE, SCAN_MAY_STATUS, SCAN_PASS, SCAN_PASS_UNKNOWN, STEM, UNIT, WORD, acknowledgementWord, failureBits, init, lower, noteAt, passAt, ready, statusAt, stemAt } from './report-scan';

/** What UTF-8 text [ptr, ptr + len) holds, as SCAN_ bits (see the module comment); ANY's words looked for when `ask` has ASK_ACK, the pass's not when it has SKIP_PASS. */
export function reportScanBytewise(ptr: usize, len: u32, ask: u32): u32 {
  if (!ready) init();
  const end = ptr + <usize>len;
  const pass = (ask & SKIP_PASS) == 0;
  let prev: u32 = 0;
  let out: u32 = 0;
  for (let p = ptr; p < end; p++) {
    const c = <u32>load<u8>(p);
    const u = <u32>load<u8>(UNIT + <usize>c);
    if (u > WORD) {
      if (pass && (u & FIRST) != 0 && (prev & WORD) == 0 && (out & SCAN_PASS) == 0) {
        const r = passAt(ptr, p, end, c);
        if (r == 1) out = (out & ~SCAN_PASS_UNKNOWN) | SCAN_PASS;
        else if (r == 2) out |= SCAN_PASS_UNKNOWN;
      }
      if ((u & STEM) != 0 && (out & SCAN_FAILURE) == 0 && p + 1 < end) {
        // a stem's second byte (er, ex, fa, pa, tr, and a cross mark's 9C or 9D) before the call
        const n = lower(<u32>load<u8>(p + 1));
        if ((n == 0x72 || n == 0x78 || n == 0x61 || n == 0x9c || n == 0x9d) && stemAt(p, end, c)) out = failureBits(out, ptr, p, end);
      }
      if ((u & NOTE) != 0 && (out & SCAN_MAY_NOTE) == 0 && noteAt(p, end, c)) out |= SCAN_MAY_NOTE;
    }
    if ((out & SCAN_MAY_STATUS) == 0 && statusAt(ptr, p, end)) out |= SCAN_MAY_STATUS;
    if ((ask & ASK_WAIT) != 0 && (out & SCAN_MAY_WAIT) == 0 && waitAt(p, end, c)) out |= SCAN_MAY_WAIT;
    prev = u;
  }
  return (ask & ASK_ACK) != 0 && acknowledgementWord(ptr, end) ? out | SCAN_MAY_ACK : out;
}
