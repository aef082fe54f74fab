/**
 * Setup file of every test file: removes from this worker's environment the variables Node acts on as it
 * starts (src/hooks/start-environment.ts: NODE_OPTIONS, NODE_EXTRA_CA_CERTS, ...), as the line `hook install`
 * writes removes them before the hook's Node. A hook process a test starts with this environment then stands
 * for a hook started by that line: a runner's own NODE_EXTRA_CA_CERTS (a CI's certificate bundle) is not
 * told to the person on each session's first call (src/hooks/start-environment-notice.ts). A test of that
 * notice sets them in the environment it gives the hook.
 */
import { START_VARIABLES } from '../../src/hooks/start-environment.js';

for (const v of START_VARIABLES) delete process.env[v.name];
