/**
 * A terminal's colour and style codes (SGR: `\x1b[1;33m` ... `\x1b[0m`) in a program's output: PowerShell 7
 * prints its errors in red, a test watcher its status in yellow. A reading of the words takes them off first,
 * since a code's last letter glued to a word hides it (`\x1b[33mWaiting` reads `mWaiting`).
 */

/** A colour or style code (SGR). */
const SGR = /\u001b\[[0-9;]*m/g;

/** `text` without its colour and style codes; `text` itself when it holds no ESC. */
export function withoutColour(text: string): string {
  return text.includes('\u001b') ? text.replace(SGR, '') : text;
}
