/**
 * The CLI's dispatcher: `slicer-auth <command> [options]`.
 */
import { ErrorCode, isAuthError } from '../errors.ts';
import { CALL_HELP, callCommand } from './call_command.ts';
import { demo } from './demo.ts';
import { DOCTOR_HELP, doctorCommand } from './doctor/command.ts';
import { PERMANENT_HELP, permanentCommand } from './permanent_command.ts';
import { SANDBOX_HELP, sandboxCommand } from './sandbox_command.ts';
import { TOKEN_HELP, tokenCommand } from './token_command.ts';
import { EXIT, type Io, UsageError } from './usage.ts';

/** Top-level help. */
export const HELP = `Usage: slicer-auth <command> [options]

Commands:
  token       print an access token (for curl and shell scripts)
  call        make an authenticated request and print the answer
  permanent   create, list or revoke permanent tokens (drives the web UI in a headless browser)
  sandbox     run the local sandbox services
  doctor      check the set-up end to end and say how to fix what is wrong
  demo        the npm start demo: the module end to end (against the sandbox when nothing is configured)

Run "slicer-auth <command> --help" for a command's options.
Configuration: SLICER_* variables in the environment or .env (see .env.example).

Exit codes: 0 success, 1 refused or failed, 2 usage error, 3 configuration error.`;

const COMMANDS: Record<string, { help: string; run: (args: string[], io: Io) => Promise<number> }> = {
  token: { help: TOKEN_HELP, run: tokenCommand },
  call: { help: CALL_HELP, run: callCommand },
  permanent: { help: PERMANENT_HELP, run: permanentCommand },
  sandbox: { help: SANDBOX_HELP, run: sandboxCommand },
  doctor: { help: DOCTOR_HELP, run: doctorCommand },
  demo: { help: 'Usage: slicer-auth demo\n\nRuns the module end to end and exits.', run: (_args, io) => demo(io) },
};

/**
 * Runs one command line.
 *
 * @param argv the arguments after the program name
 * @param io output streams
 * @returns the exit code
 */
export async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(HELP);
    return name === undefined ? EXIT.USAGE : EXIT.OK;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`Unknown command "${name}".\n\n${HELP}`);
    return EXIT.USAGE;
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.out(command.help);
    return EXIT.OK;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    // node:util parseArgs signals a wrong command line with ERR_PARSE_ARGS_* codes.
    if (error instanceof UsageError || String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')) {
      io.err(`${(error as Error).message}\n\n${command.help}`);
      return EXIT.USAGE;
    }
    if (isAuthError(error)) {
      io.err(`${error.message} [${error.code}]`);
      return error.code === ErrorCode.CONFIG_INVALID || error.code === ErrorCode.INSECURE_AUTH_URL ? EXIT.CONFIG : EXIT.FAILED;
    }
    io.err(`Failed: ${(error as Error).message ?? String(error)}`);
    return EXIT.FAILED;
  }
}
