/**
 * What the outcome facts read of a shell command's text, remembered by the text: whether it writes
 * (workspace-changes.ts's shellCommandWrites), only prints files (windows-file-read.ts's printsFilesAnyShell),
 * asks for the workspace's state (status-query.ts's queriesStatus), waits before it looks (waits-first.ts),
 * and the key of the program it runs (command-program.ts's commandProgramKey). Each is a function of the text
 * alone, so a command read before answers as it did: 47% of the traces' 23,175 shell calls run a command one of
 * the 255 distinct commands before it ran (in any session), most of them `git status`, `ls`, a test run.
 *
 * Each reading is made when first asked (a session's verdicts read only some: facts-read.ts) and kept with the
 * text. At most {@link COMMAND_READINGS} commands are kept (a table of slots: a command takes its slot from the
 * one there), each of at most {@link READINGS_LOOK} characters (a longer one is read each time): at most ~0.5 MB
 * whatever the input.
 */
import { printsFilesAnyShell } from '../text/windows-file-read.js';
import { queriesStatus } from '../text/status-query.js';
import { commandProgramKey } from '../text/command-program.js';
import { commandWaitsFirst } from '../text/waits-first.js';
import { shellCommandWrites } from './workspace-changes.js';

/** Longest command remembered, in characters (98% of the traces' shell commands are shorter). */
export const READINGS_LOOK = 1024;
/** Commands remembered at most (a power of two: the table's slots). */
export const COMMAND_READINGS = 256;

/** The yes-or-no readings of a command's text, as bits. */
export const CommandReading = {
  /** shellCommandWrites: it writes files or the environment. */
  WRITES: 1,
  /** printsFilesAnyShell: it only prints files. */
  PRINTS_FILES: 2,
  /** queriesStatus: it asks for the workspace's state. */
  QUERIES_STATUS: 4,
  /** commandWaitsFirst: it waits before it looks, or only waits. */
  WAITS_FIRST: 8,
} as const;

/** One of {@link CommandReading}'s bits. */
export type CommandReading = (typeof CommandReading)[keyof typeof CommandReading];

/** Bit of {@link CommandReadings}' `known` saying the program's key is read. */
const PROGRAM = 16;

/** The readings of one command's text, each made on first use. */
export class CommandReadings {
  /** Readings made (CommandReading bits, and PROGRAM). */
  private known = 0;
  /** Of those, the ones that said yes. */
  private yes = 0;
  private key = 0;

  constructor(
    /** The command's text. */
    readonly command: string,
  ) {}

  /** Whether `reading` says yes of the command. */
  says(reading: CommandReading): boolean {
    if ((this.known & reading) === 0) {
      if (read(reading, this.command)) this.yes |= reading;
      this.known |= reading;
    }
    return (this.yes & reading) !== 0;
  }

  /** The key of the program the command runs (commandProgramKey; 0: it names none). */
  program(): number {
    if ((this.known & PROGRAM) === 0) {
      this.key = commandProgramKey(this.command);
      this.known |= PROGRAM;
    }
    return this.key;
  }
}

/** What `reading` says of `command`, read now. */
function read(reading: CommandReading, command: string): boolean {
  switch (reading) {
    case CommandReading.WRITES:
      return shellCommandWrites(command);
    case CommandReading.PRINTS_FILES:
      return printsFilesAnyShell(command);
    case CommandReading.QUERIES_STATUS:
      return queriesStatus(command);
    case CommandReading.WAITS_FIRST:
      return commandWaitsFirst(command);
  }
}

/** Slots of the table of commands kept (a power of two). */
const SLOTS = COMMAND_READINGS;

/** The commands kept, each in the slot its {@link slotOf} names (a newer command in the same slot replaces it). */
const kept = new Array<CommandReadings | undefined>(SLOTS).fill(undefined);
let keptCount = 0;

/** Characters of a longer command read for its slot, spread over it (a short one is read whole). */
const SAMPLES = 32;

/**
 * The slot of a command: a hash of its length and of at most {@link SAMPLES} characters spread over it, so a
 * command costs no hash of all its characters (a Map's key would: as much as the readings it saves, on the
 * fresh strings a call's args give). Two commands in the same slot only take turns in it.
 */
function slotOf(c: string): number {
  const n = c.length;
  let h = Math.imul(n, 0x9e3779b1);
  if (n <= SAMPLES) for (let i = 0; i < n; i++) h = Math.imul(h ^ c.charCodeAt(i), 0x01000193);
  else for (let k = 0; k < SAMPLES; k++) h = Math.imul(h ^ c.charCodeAt(Math.floor((k * (n - 1)) / (SAMPLES - 1))), 0x01000193);
  return (h ^ (h >>> 15)) & (SLOTS - 1);
}

/** The readings of `command`: the ones kept for the same text (compared whole), else new ones (kept if short). */
export function commandReadings(command: string): CommandReadings {
  if (command.length > READINGS_LOOK) return new CommandReadings(command);
  const slot = slotOf(command);
  const was = kept[slot];
  if (was !== undefined && was.command === command) return was;
  // a command cut from a longer text may be a view of all of it: kept as a copy, made flat then cut
  const r = new CommandReadings(`${command} `.slice(0, -1));
  if (was === undefined) keptCount++;
  kept[slot] = r;
  return r;
}

/** Commands remembered now (at most COMMAND_READINGS). */
export function commandReadingsKept(): number {
  return keptCount;
}
