/**
 * Errors across the thread boundary: a worker sends the name, message and fields of a call's error, and
 * the pool rebuilds the same loopwatch error class, so callers can switch on `instanceof` and `code`
 * whichever thread checked the call.
 */
import { CapacityError, ChecksOnlyError, DetectorError, DisposedError, InvalidEventError, SnapshotError, WasmTrapError } from '../errors.js';

/** An error as plain data. */
export interface WireError {
  readonly name: string;
  readonly message: string;
  readonly field?: string;
  readonly detector?: string;
}

/** The plain-data form of an error. */
export function toWire(err: unknown): WireError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  const e = err as Error & { field?: unknown; detector?: unknown };
  return {
    name: e.name,
    message: e.message,
    ...(typeof e.field === 'string' ? { field: e.field } : {}),
    ...(typeof e.detector === 'string' ? { detector: e.detector } : {}),
  };
}

/** The error a WireError describes, of its loopwatch class where it has one. */
export function fromWire(w: WireError): Error {
  switch (w.name) {
    case 'InvalidEventError':
      return new InvalidEventError(w.field ?? 'event', w.message);
    case 'DetectorError':
      return new DetectorError(w.detector ?? 'unknown', w.message);
    case 'WasmTrapError':
      return new WasmTrapError(w.message);
    case 'DisposedError':
      return new DisposedError(w.message);
    case 'SnapshotError':
      return new SnapshotError(w.message);
    case 'CapacityError':
      return new CapacityError(w.message);
    case 'ChecksOnlyError':
      return new ChecksOnlyError(w.message);
    default: {
      const e = new Error(w.message);
      e.name = w.name;
      return e;
    }
  }
}
