/**
 * A line holding only a command's exit status, as harnesses add it after the output ("Exit code 1", "exit
 * status 2", "Process exited with code 1", "error: exit code 1"): no word of the command's own.
 */

/** An exit status alone on its line ("Exit code 1", "exit status 2", "Process exited with code 1"). */
export const EXIT_STATUS_LINE = /^\s*(?:error:\s*)?(?:process\s+)?(?:exit(?: code| status)?|exited with(?: code)?)\s*:?\s*\d+\s*$/i;
