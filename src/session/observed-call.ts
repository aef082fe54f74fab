/**
 * The call detectors see: a view over the session's call log, so its args are normalised (JSON parsed,
 * identity applied) and its signature formatted only when a detector asks.
 */
import type { ObservedCall } from '../detectors/detector.js';
import type { CallLog } from '../state/call-log.js';
import type { ToolEvent } from '../types.js';

/** An {@link ObservedCall} backed by the call log. */
export class LoggedCall implements ObservedCall {
  constructor(
    private readonly log: CallLog,
    readonly index: number,
    readonly event: ToolEvent,
    readonly isError: boolean,
    readonly isInfraFailure: boolean,
    readonly errorText: string | undefined,
    /** State key for the state-repeat detector (reference pipeline only). */
    readonly stateKey: number = 0,
  ) {}

  get tool(): string {
    return this.event.tool;
  }

  get args(): unknown {
    return this.log.argsOf(this.index);
  }

  get signature(): string {
    return this.log.ref(this.index)?.signature ?? '';
  }
}
