/**
 * Recognises a failure that is a server saying the port (or address) it was asked to listen on is taken: the
 * program never got to its work. An agent starting a development server tries another port when one is in
 * use (`streamlit run app.py --server.port 8501`, then 8504, then 8505, ...); each try is a probe of a
 * different port that found it taken, as a probe for a program finds it not there (missing-program.ts), not
 * one wall hit again (the evidence screen treats both as it treats searches that found nothing: see
 * failure-kinds.ts and outcome-facts.ts). The same port tried again and again is still a loop: the detectors
 * of repeated calls see it.
 *
 * What servers say, whole lines, a log line's time stamp and level before them read past:
 *
 * ```
 *   Streamlit       2025-07-25 21:18:48.692 Port 8501 is already in use
 *   Flask           Port 5000 is in use by another program. Either identify and stop that program, or ...
 *   Python          OSError: [Errno 98] Address already in use          ([Errno 48] on macOS)
 *   uvicorn         ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 8000): address already in use
 *   Node            Error: listen EADDRINUSE: address already in use :::3000
 *   Go              listen tcp :8080: bind: address already in use
 *   Puma            Address already in use - bind(2) for "127.0.0.1" port 3000 (Errno::EADDRINUSE)
 *   Windows         ... Only one usage of each socket address (protocol/network address/port) is normally permitted.
 * ```
 *
 * Gemini CLI labels a shell's output `Output: ` on its first line: the label is the CLI's and is read past, as
 * missing-program.ts reads it. Any other line (a stack trace, another error) makes the failure a real one: only
 * a short failure that says nothing else is a probe. Reads the first {@link PORT_LOOK} characters only.
 */
import { type OnlyLinesReading, saysOnly } from './only-lines.js';

/** Characters of an error text read. */
export const PORT_LOOK = 1024;

/** A line saying the port or address a server was to listen on is taken. */
export const PORT_TAKEN_LINES: readonly RegExp[] = Object.freeze([
  // Streamlit, Flask, Vite run with --strictPort: "Port 8501 is already in use", "Port 5000 is in use by another program. ..."
  /^(?:error:?\s*)?port \d{1,5} is (?:already )?in use\b.*$/i,
  // Python, uvicorn, Node, Go, Puma, Rails: "address already in use", errno's name
  /\baddress already in use\b.*$/i,
  /\bEADDRINUSE\b.*$/,
  // Windows' socket error 10048
  /\bonly one usage of each socket address\b.*$/i,
]);

/** Lines that go with a taken port's message: an exit status alone, and Flask's hint about macOS' AirPlay receiver. */
const COMPANION_LINES: readonly RegExp[] = Object.freeze([
  /^(?:error:?\s*)?\[?(?:exit(?: code| status)?|exited with(?: code)?|process exited with code):?\s*\d+\]?\.?$/i,
  /^On macOS, try disabling the 'AirPlay Receiver' service\b.*$/,
]);

/**
 * A log line's time stamp and level, read past (`2025-07-25 21:18:48.692 `, `[2026-01-02T03:04:05Z] `,
 * `ERROR:    `): the line after them is the server's message.
 */
const LOG_PREFIX = /^(?:\[?\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\]?\s+)?(?:\[?(?:ERROR|FATAL|CRITICAL|WARN(?:ING)?|INFO)\]?:?\s+)?/;

/**
 * What every line of PORT_TAKEN_LINES holds, in any ASCII case: an error without one of these says no port
 * is taken, and is not split into lines at all.
 */
const MAY_SAY = /in use|eaddrinuse|socket address/i;

/** The port-taken lines as a reading of only-lines.ts. */
const PORT_TAKEN: OnlyLinesReading = { look: PORT_LOOK, screen: MAY_SAY, says: PORT_TAKEN_LINES, companions: COMPANION_LINES, linePrefix: LOG_PREFIX };

/** Whether an error says only that the port or address its server was to listen on is taken (see the module's notes). */
export function saysPortTaken(error: string): boolean {
  return saysOnly(error, PORT_TAKEN);
}
