/**
 * The session table's file cell: the path (below the folder every file shares) on one line, however long,
 * cut in the middle rather than wrapped: the folders keep their start and the file's name its end
 * (`LaEsperan…/…3afb80c.jsonl`). The whole path is the cell's title (seen on hover) and a button copies it; the text in the
 * cell stays whole in the page, so selecting it copies it too.
 */
import { el } from './dom.js';

/** Copies `text` to the clipboard: the Clipboard API, else the older copy command (a page opened from disk may lack the first). */
async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = el('textarea', { readonly: true, class: 'offscreen' });
    area.value = text;
    document.body.append(area);
    area.select();
    const done = document.execCommand('copy');
    area.remove();
    return done;
  }
}

/** The cell for `file`, shown below `folder` (a prefix of it, or empty). */
export function fileCell(file: string, folder: string): HTMLTableCellElement {
  const shown = file.slice(folder.length);
  const cut = shown.lastIndexOf('/') + 1;
  const button = el('button', { type: 'button', class: 'copy', title: 'copy the full path', 'aria-label': `copy the full path: ${file}` });
  button.addEventListener('click', () => {
    void copy(file).then((done) => {
      button.setAttribute('data-copied', done ? 'yes' : 'no');
      button.title = done ? 'copied' : 'could not copy: the full path is in the cell\'s title';
    });
  });
  return el(
    'td',
    { class: 'file', title: file },
    el('div', { class: 'file-line' }, el('span', { class: 'path' }, cut === 0 ? null : el('span', { class: 'head' }, shown.slice(0, cut)), el('span', { class: 'tail' }, el('span', {}, shown.slice(cut)))), button),
  );
}
