/**
 * A request `loopwatch serve` refuses, as data the routes throw and http-io.ts sends (its own file, without
 * Node's types, as the public BearerToken's declarations name it: the published types need no @types/node).
 */

/** A request the service refuses: the HTTP status, a stable code, the field at fault (if any), a message. */
export class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'HttpRefusal';
  }
}
