/**
 * Text made safe for the two places the report puts it: JSON inside a `<script type="application/json">`
 * element, and text in the HTML template. In a script element the HTML parser looks only for `</script`
 * (and `<!--` changes how it looks), so every `<` in the JSON becomes `\u003c` (and `>`, `&` too, and the
 * line separators JavaScript once refused); `JSON.parse` reads them back as the same characters. Nothing
 * from the input is ever put into markup by the page script: it sets text, not HTML.
 */

const SCRIPT_UNSAFE = /[<>&\u2028\u2029]/g;
const HTML_UNSAFE = /[<>&"']/g;
const HTML_ENTITY: Readonly<Record<string, string>> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' };

const unicodeEscape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `value` as JSON that can stand inside a `<script>` element whatever its strings hold. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(SCRIPT_UNSAFE, unicodeEscape);
}

/** `text` escaped for HTML text and attribute values (quoted). */
export function escapeHtml(text: string): string {
  return text.replace(HTML_UNSAFE, (c) => HTML_ENTITY[c] as string);
}
