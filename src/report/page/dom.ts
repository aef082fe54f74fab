/**
 * The page's DOM helpers. Every string from the report's data goes into the page as text (a text node or
 * `textContent`), never as markup, so ids and previews that hold HTML or `</script>` show as written.
 */

/** Attributes of {@link el}: plain attribute values, or `class`. */
export type Attrs = Readonly<Record<string, string | number | boolean | null | undefined>>;

/** A child of {@link el}: an element, or text. */
export type Child = Node | string | number | null | undefined | false;

/** An element `tag` with `attrs` (false/null/undefined ones left out) and `children` (strings as text). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    e.setAttribute(name, value === true ? '' : String(value));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    e.append(typeof c === 'number' ? String(c) : c);
  }
  return e;
}

/** `n` with thousands separators. */
export const fmt = (n: number): string => n.toLocaleString('en-US');

/** `x` of `of` as a percentage with one decimal (0% when `of` is 0). */
export const pct = (x: number, of: number): string => (of === 0 ? '0%' : `${((100 * x) / of).toFixed(1)}%`);

/** `1 session`, `2 sessions`. */
export const count = (n: number, one: string, many = `${one}s`): string => `${fmt(n)} ${n === 1 ? one : many}`;

/** Replaces the children of `parent` with `children`. */
export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  for (const c of children) if (c !== null && c !== undefined && c !== false) parent.append(typeof c === 'number' ? String(c) : c);
}
