/**
 * Setup file of every test file: removes the temp folders the file made with test/helpers/temp-folder.ts
 * when it ends. A setup file runs for each test file, also in a worker that runs several files with its
 * modules loaded once (the shared project), where an afterAll registered when a helper is first loaded
 * would run for the first file only. Registered before the file's own hooks, so it runs after them.
 */
import { afterAll } from 'vitest';
import { removeTempFolders } from '../helpers/temp-folder.js';

afterAll(removeTempFolders);
