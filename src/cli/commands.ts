/**
 * The CLI's commands: each with its help, its runner, and the options and
 * actions it takes (read from the command's own parseArgs table, for shell
 * completion).
 */
import { CALL_HELP, CALL_OPTIONS, callCommand } from './call_command.ts';
import { CONTRACT_HELP, CONTRACT_OPTIONS, contractCommand } from './contract_command.ts';
import { demo } from './demo.ts';
import { DOCTOR_HELP, DOCTOR_OPTIONS, doctorCommand } from './doctor/command.ts';
import { INIT_HELP, INIT_OPTIONS, initCommand } from './init_command.ts';
import { PERMANENT_ACTIONS, PERMANENT_HELP, PERMANENT_OPTIONS, permanentCommand } from './permanent_command.ts';
import { SANDBOX_HELP, SANDBOX_OPTIONS, sandboxCommand } from './sandbox_command.ts';
import { STORE_KEY_HELP, storeKeyCommand } from './store_key_command.ts';
import { TOKEN_HELP, TOKEN_OPTIONS, tokenCommand } from './token_command.ts';
import type { Io } from './usage.ts';

/** One command of the CLI. */
export interface Command {
  readonly help: string;
  readonly run: (args: string[], io: Io) => Promise<number>;
  /** Its long options, without the dashes. */
  readonly options: readonly string[];
  /** Its first-argument actions, if any (e.g. `create`). */
  readonly actions?: readonly string[];
}

/** The commands, by name. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  init: { help: INIT_HELP, run: initCommand, options: Object.keys(INIT_OPTIONS) },
  token: { help: TOKEN_HELP, run: tokenCommand, options: Object.keys(TOKEN_OPTIONS) },
  call: { help: CALL_HELP, run: callCommand, options: Object.keys(CALL_OPTIONS) },
  permanent: { help: PERMANENT_HELP, run: permanentCommand, options: Object.keys(PERMANENT_OPTIONS), actions: PERMANENT_ACTIONS },
  sandbox: { help: SANDBOX_HELP, run: sandboxCommand, options: Object.keys(SANDBOX_OPTIONS) },
  doctor: { help: DOCTOR_HELP, run: doctorCommand, options: Object.keys(DOCTOR_OPTIONS) },
  contract: { help: CONTRACT_HELP, run: contractCommand, options: CONTRACT_OPTIONS },
  'store-key': { help: STORE_KEY_HELP, run: storeKeyCommand, options: [] },
  demo: { help: 'Usage: slicer-auth demo\n\nRuns the module end to end and exits.', run: (_args, io) => demo(io), options: [] },
};
