/**
 * A SWE-bench batch run's output folder, as mini-swe-agent (`mini-extra swebench`, 1.x and 2.x) and
 * SWE-agent (`sweagent run-batch`) write it: one folder per instance holding its trajectory
 * (`<id>/<id>.traj.json`, `<id>/<id>.traj`), and beside them `preds.json`, the patches submitted
 * (`{"<id>": {"model_name_or_path", "instance_id", "model_patch"}}`), which holds no call. A folder scan
 * passes `preds.json` over, with one note, where the folder is plainly such a run's: it holds `preds.json`
 * beside an instance folder named as its trajectory. Before, the file was an `unknown-format` issue and
 * the scan of a plain batch run exited 2.
 */
import type { Dirent } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';

/** The predictions file of a SWE-bench batch run. */
export const SWE_BENCH_PREDS = 'preds.json';

/** At most this many instance folders are looked into (a run's first folders are its instances). */
const FOLDERS_LOOKED_AT = 8;

/** Whether `dir` (its `entries`) is a SWE-bench batch run's folder: `preds.json` beside a folder `<id>` holding `<id>.traj.json` or `<id>.traj`. */
export async function isSweBenchRunFolder(dir: string, entries: readonly Dirent[]): Promise<boolean> {
  if (!entries.some((e) => e.name === SWE_BENCH_PREDS && e.isFile())) return false;
  const folders = entries.filter((e) => e.isDirectory()).slice(0, FOLDERS_LOOKED_AT);
  for (const f of folders) {
    for (const name of [`${f.name}.traj.json`, `${f.name}.traj`]) {
      const s = await lstat(join(dir, f.name, name)).catch(() => null);
      if (s?.isFile()) return true;
    }
  }
  return false;
}

/** The note of a SWE-bench batch run's folder. */
export const SWE_BENCH_RUN_NOTE = 'a SWE-bench batch run (mini-swe-agent or SWE-agent): its preds.json (the patches submitted, no calls) passed over';
