/** What a folder walk gives, as the folder-cap tests read it. */
import { listInputs } from '../../src/formats/list-inputs.js';

/** What listInputs gives for `path` with the cap `max`: the names of the files, and the issues as `file: message`. */
export async function listed(path: string, max: number): Promise<{ files: string[]; issues: string[] }> {
  const files: string[] = [];
  const issues: string[] = [];
  for await (const x of listInputs(path, new Set(), { maxFolderEntries: max })) {
    if (x.kind === 'file') files.push(x.name);
    else if (x.kind === 'issue') issues.push(`${x.file}: ${x.message}`);
  }
  return { files, issues };
}
