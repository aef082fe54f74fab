/**
 * Recognises a shell command that asks something outside the agent's workspace for its state and changes
 * nothing: a CI run or a pull request's checks (`gh run list`, `gh run view 123`, `gh pr checks`), the
 * forge's records (`gh pr view 12`, `gh issue list`, `gh issue view 4`), the machine's processes and GPUs
 * (`ps -eo pid,etime,cmd`, `nvidia-smi --query-gpu=...`), containers and a cluster (`docker ps`, `docker
 * compose ps`, `kubectl get pods`), a local server the agent started (`curl -s http://localhost:3000/`).
 * A running job's output is such a look too: a container's or a pod's logs (`docker logs api`, `docker compose
 * logs --tail 50`, `kubectl logs job/train`), a CI run watched (`gh run watch 123`), the system's journal
 * (`journalctl -u app -n 50`), the end of a log file a job is writing (`tail -n 40 logs/train.log`: a file
 * named `*.log`, or in a `log`/`logs` folder, or `nohup.out`). So is where the shell finds a program (`which -a
 * opencode`): the environment's answer, asked again after an install or a removal (workspace-changes.ts), a look
 * at the changed environment.
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
const GH_LOOK = /^(?:run\s+(?:list|view|ls|watch)|pr\s+(?:checks|view|status|list|ls|diff)|issue\s+(?:list|view|status|ls)|workflow\s+(?:list|view)|release\s+(?:list|view))(?=\s|$)/;

/** `docker`'s looks at its containers (the words after `docker`). */
const DOCKER_LOOK = /^(?:ps|logs|compose\s+(?:(?:-f|--file|-p|--project-name)\s+\S+\s+)*(?:ps|logs)|container\s+(?:ls|list|ps|logs))(?=\s|$)/;

/** `kubectl`'s looks at a cluster's objects (the words after `kubectl`, its namespace flag allowed first). */
const KUBECTL_LOOK = /^(?:(?:-n|--namespace|--context)\s+\S+\s+)*(?:get|describe|top|logs)(?=\s|$)/;

/** `journalctl`'s flags that change the journal (its files vacuumed, rotated, flushed, synced, keys made). */
const JOURNAL_SETS = /(?:^|\s)(?:--vacuum-\w+|--rotate|--flush|--sync|--relinquish-var|--smart-relinquish-var|--setup-keys|--update-catalog)(?=[\s=]|$)/;

/** A log file's name: ending `.log` (or a rotated `.log.1`), or `nohup.out`. */
const LOG_NAME = /(?:\.log(?:\.\d+)?|^nohup\.out)$/;

/** A `log` or `logs` folder in a path. */
const LOG_FOLDER = /(?:^|\/)logs?\//;

/**
 * Whether some operand of `tail` is a log file a running job writes: its name ({@link LOG_NAME}) or a folder of
 * logs ({@link LOG_FOLDER}) says so. Not any file: `tail -n 40 src/app.ts` reads the agent's own code.
 */
function tailsALog(args: string): boolean {
  for (const word of args.split(/\s+/)) {
    const path = word.replace(/^['"]|['"]$/g, '');
    if (path.startsWith('-')) continue;
    if (LOG_NAME.test(path.slice(path.lastIndexOf('/') + 1)) || LOG_FOLDER.test(path)) return true;
  }
  return false;
}

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
    case 'which':
      return args.trim() !== '';
    case 'nvidia-smi':
      return !NVIDIA_SETS.test(args);
    case 'docker':
      return DOCKER_LOOK.test(args);
    case 'kubectl':
      return KUBECTL_LOOK.test(args);
    case 'journalctl':
      return !JOURNAL_SETS.test(args);
    case 'tail':
      return tailsALog(args);
    case 'curl':
      return LOCAL_URL.test(args) && !CURL_ACTS.test(args);
    case 'wget':
      return LOCAL_URL.test(args) && WGET_PRINTS.test(args);
    default:
      return false;
  }
}

/** A cheap look first: a command naming none of these programs is no look at the world. */
export const MAY_LOOK = /(?:^|[\s;&|(/'"])(?:gh|ps|nvidia-smi|docker|kubectl|curl|wget|journalctl|tail|which)\s|nvidia-smi$|journalctl$|(?:^|[\s;&|(/'"])ps$/;
