/**
 * The events a LoopPool emits, and the EventEmitter methods it offers for them, declared here so the
 * published types need no Node types (`@types/node`): at run time the pool is Node's EventEmitter.
 */
import { EventEmitter } from 'node:events';

/** A session whose state its dead worker took with it (restored to an earlier snapshot, or empty). */
export interface LostSession {
  readonly sessionId: string;
  /** Calls checked in the snapshot it was restored to; null when it starts again empty. */
  readonly restoredFrom: number | null;
  readonly shard: number;
}

/** A worker the pool started again, and why. */
export interface WorkerRestart {
  readonly shard: number;
  readonly reason: string;
}

/** The pool's events and their arguments: 'sessionLost' for each session a dead worker took, 'workerRestart' for each worker started again. */
export interface LoopPoolEvents {
  sessionLost: [session: LostSession];
  workerRestart: [restart: WorkerRestart];
}

type Listener<E extends keyof LoopPoolEvents> = (...args: LoopPoolEvents[E]) => void;

/** Node's EventEmitter methods, typed by the pool's events. */
export interface LoopPoolEmitter {
  on<E extends keyof LoopPoolEvents>(event: E, listener: Listener<E>): this;
  once<E extends keyof LoopPoolEvents>(event: E, listener: Listener<E>): this;
  off<E extends keyof LoopPoolEvents>(event: E, listener: Listener<E>): this;
  addListener<E extends keyof LoopPoolEvents>(event: E, listener: Listener<E>): this;
  prependListener<E extends keyof LoopPoolEvents>(event: E, listener: Listener<E>): this;
  prependOnceListener<E extends keyof LoopPoolEvents>(event: E, listener: Listener<E>): this;
  removeListener<E extends keyof LoopPoolEvents>(event: E, listener: Listener<E>): this;
  removeAllListeners(event?: keyof LoopPoolEvents): this;
  emit<E extends keyof LoopPoolEvents>(event: E, ...args: LoopPoolEvents[E]): boolean;
  listenerCount(event: keyof LoopPoolEvents): number;
  listeners<E extends keyof LoopPoolEvents>(event: E): Listener<E>[];
  rawListeners<E extends keyof LoopPoolEvents>(event: E): Listener<E>[];
  eventNames(): (string | symbol)[];
  setMaxListeners(n: number): this;
  getMaxListeners(): number;
}

/** Node's EventEmitter, as the base class of LoopPool (typed as LoopPoolEmitter). */
export const LoopPoolEmitterBase = EventEmitter as unknown as new () => LoopPoolEmitter;
