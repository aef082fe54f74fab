/**
 * Recognises a shell command that asks something outside the agent's workspace for its state and changes
 * nothing: a CI run or a pull request's checks (`gh run list`, `gh run view 123`, `gh pr checks`), the
 * forge's records (`gh pr view 12`, `gh issue list`, `gh issue view 4`), the machine's processes and GPUs
 * (`ps -eo pid,etime,cmd`, `nvidia-smi --query-gpu=...`), containers and a cluster (`docker ps`, `docker
 * compose ps`, `kubectl get pods`), a local server the agent started (`curl -s http://localhost:3000/`).
 * Its answer is what the world is doing now, as `git status`'s is the workspace's: asked again after the
 * agent changed something, or after it waited, it looks at a new state (status-query.ts reads it as a status
 * query; src/policy/evidence-screen.ts weighs the gaps between its runs).
 *
 * `args` is the command from just after its program's name (status-query.ts has found the program and
 * passed over the wrappers before it; nothing but a pipe follows). A program's commands that change things
 * are not looks: `gh run rerun`, `gh pr merge`, `docker rm`, `kubectl apply`, `nvidia-smi -r` (a GPU reset),
 * `curl -X POST` or `curl -d ...` (a request that sends data), `curl -o file` (a download).
 */

/** `gh`'s read-only looks at CI runs, checks and the forge's records (the words after `gh`). */
const GH_LOOK = /^(?:run\s+(?:list|view|ls)|pr\s+(?:checks|view|status|list|ls|diff)|issue\s+(?:list|view|status|ls)|workflow\s+(?:list|view)|release\s+(?:list|view))(?=\s|$)/;

/** `docker`'s looks at its containers (the words after `docker`). */
const DOCKER_LOOK = /^(?:ps|compose\s+(?:(?:-f|--file|-p|--project-name)\s+\S+\s+)*ps|container\s+(?:ls|list|ps))(?=\s|$)/;

/** `kubectl`'s looks at a cluster's objects (the words after `kubectl`, its namespace flag allowed first). */
const KUBECTL_LOOK = /^(?:(?:-n|--namespace|--context)\s+\S+\s+)*(?:get|describe|top)(?=\s|$)/;

/** `nvidia-smi`'s flags that change the GPUs (a reset, persistence, power, clocks, compute mode, ECC). */
const NVIDIA_SETS = /(?:^|\s)(?:-r|--gpu-reset|-pm|--persistence-mode|-pl|--power-limit|-c|--compute-mode|-e|--ecc-config|-ac|-rac|-lgc|-rgc|-lmc|-rmc|-am|-caa)(?=[\s=]|$)/;

/** A URL of this machine: a server the agent started (localhost, 127.0.0.1, 0.0.0.0, [::1]). */
const LOCAL_URL = /(?:^|[\s'"])(?:https?:\/\/)?(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?::\d+)?(?:[/?#'"\s]|$)/;

/** A request that sends or saves something: a method other than GET or HEAD, data, a form, an upload, an output file. */
const CURL_ACTS = /(?:^|\s)(?:(?:-[a-zA-Z]*X\s*['"]?(?!GET\b|HEAD\b)[A-Za-z]+|--request[\s=]*['"]?(?!GET\b|HEAD\b)[A-Za-z]+|-[a-zA-Z]*[dFTO]|--data(?:-\w+)?|--form|--upload-file|--remote-name)(?=[\s'"=]|$)|(?:-[a-zA-Z]*o|--output)(?![\s=]*['"]?\/dev\/null)[\s=]*['"]?[^\s'"-])/;

/** `wget`'s flags that keep what it fetched out of a file (`-qO-`, `-O -`, `--spider`): else it saves one. */
const WGET_PRINTS = /(?:^|\s)(?:-q?O\s*-|--output-document[= ]-|--spider)(?=\s|$)/;

/** Whether `program`, run with `args` (the command after the program's name), asks the world for its state. */
export function looksAtTheWorld(program: string, args: string): boolean {
  switch (program) {
    case 'gh':
      return GH_LOOK.test(args);
    case 'ps':
      return true;
    case 'nvidia-smi':
      return !NVIDIA_SETS.test(args);
    case 'docker':
      return DOCKER_LOOK.test(args);
    case 'kubectl':
      return KUBECTL_LOOK.test(args);
    case 'curl':
      return LOCAL_URL.test(args) && !CURL_ACTS.test(args);
    case 'wget':
      return LOCAL_URL.test(args) && WGET_PRINTS.test(args);
    default:
      return false;
  }
}

/** A cheap look first: a command naming none of these programs is no look at the world. */
export const MAY_LOOK = /(?:^|[\s;&|(/'"])(?:gh|ps|nvidia-smi|docker|kubectl|curl|wget)\s|nvidia-smi$|(?:^|[\s;&|(/'"])ps$/;
