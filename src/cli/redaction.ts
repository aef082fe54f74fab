/**
 * What the CLI prints of the traces it reads is redacted (`redactSecrets`): verdicts (by the detector),
 * tool names, call and outcome previews, and the messages of skipped lines and refused calls, which quote
 * what they received. `--no-redact`, or `"redactSecrets": false` in the config, shows them as they are, for
 * people reading their own runs.
 */
import type { LoopDetectorOptions } from '../options/options.js';
import { SHOWN_TOOL_LENGTH } from '../text/call-preview.js';
import { redactSecrets } from '../text/redact.js';
import { cutText } from '../text/shown-text.js';

/** How a command shows text from its inputs. */
export interface Shown {
  /** The detection options, with redaction off when the command's output is not redacted. */
  readonly options: LoopDetectorOptions;
  /** Text from the inputs as printed (redacted unless `--no-redact`). */
  readonly text: (text: string) => string;
  /** A tool name as printed: cut to `SHOWN_TOOL_LENGTH` characters, redacted unless `--no-redact`. */
  readonly tool: (tool: string) => string;
}

const asIs = (text: string): string => text;

/** How output is shown given the detection options and whether `--no-redact` was given. */
export function shownOutput(options: LoopDetectorOptions, noRedact: boolean): Shown {
  const redact = !noRedact && options.redactSecrets !== false;
  const text = redact ? redactSecrets : asIs;
  return {
    options: redact || options.redactSecrets === false ? options : { ...options, redactSecrets: false },
    text,
    tool: (tool) => text(cutText(tool, SHOWN_TOOL_LENGTH)),
  };
}
