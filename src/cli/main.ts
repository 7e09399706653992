/**
 * The CLI's dispatcher: `slicer-auth <command> [options]`.
 */
import { closest } from '../closest.ts';
import { type Command, COMMANDS as BASE } from './commands.ts';
import { COMPLETION_HELP, completionCommand } from './completion_command.ts';
import { ErrorCode, isAuthError } from '../errors.ts';
import { nothingConfigured } from './first_run.ts';
import { envExampleFile, packageVersion } from '../package_info.ts';
import { FIRST_RUN_FIX } from '../settings/config.ts';
import { scopeKind } from '../settings/services.ts';
import { refusesCredentials } from '../token_source/refusal.ts';
import { EXIT, type Io, UsageError } from './usage.ts';

/** Top-level help, naming `.env.example` as this user finds it (in the installed package). */
const help = () =>
  `Usage: slicer-auth <command> [options]

Commands:
  init        write .env (your settings, or the sandbox's) and a first script, first-call.mts
  token       print an access token (for curl and shell scripts)
  call        make an authenticated request and print the answer
  permanent   create, list or revoke permanent tokens (drives the web UI in a headless browser)
  sandbox     run the local sandbox services
  doctor      check the set-up end to end and say how to fix what is wrong
  contract    check an authorization service against the documented contract (Playwright)
  store-key   print a new random key for SLICER_STORE_KEY (seals tokens in a shared Redis store)
  completion  print a shell completion script (bash, zsh, fish)
  demo        the npm start demo: the module end to end (against the sandbox when nothing is configured)

Run "slicer-auth <command> --help" for a command's options, "slicer-auth --version" for the version.
Configuration: SLICER_* variables in the environment or .env (${envExampleFile()} describes each).

Exit codes: 0 success, 1 refused or failed, 2 usage error, 3 configuration error.`;

/** Every command, completion included (it completes them all). */
const COMMANDS: Readonly<Record<string, Command>> = {
  ...BASE,
  completion: {
    help: COMPLETION_HELP,
    run: (args, io) => completionCommand(args, io, COMMANDS),
    options: [],
    actions: ['bash', 'zsh', 'fish'],
  },
};

/**
 * For an unknown option, the command's option it was probably meant to be; for an argument that is a scope, given to a
 * command that takes none, its `--scope` (`slicer-auth token predict`).
 */
function optionHint(error: Error, command: Command): string {
  const code = (error as { code?: unknown }).code;
  const unknown = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'--?([\w-]+)'/.exec(error.message)?.[1] : undefined;
  const suggestion = unknown === undefined ? undefined : closest(unknown, [...command.options]);
  if (suggestion) return ` (did you mean "--${suggestion}"?)`;
  const argument = code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' ? /'([^']*)'/.exec(error.message)?.[1] : undefined;
  return argument !== undefined && command.options.includes('scope') && scopeKind({}, argument) !== 'invalid'
    ? ` (did you mean "--scope ${argument}"?)`
    : '';
}

/**
 * Runs one command line.
 *
 * @param argv the arguments after the program name
 * @param io output streams
 * @returns the exit code
 */
export async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...args] = argv;
  if (name === '--version' || name === '-V' || name === '-v') {
    io.out(packageVersion());
    return EXIT.OK;
  }
  // "help <command>" is "<command> --help", as git and npm read it.
  if (name === 'help' && args[0] !== undefined) return main([args[0], '--help'], io);
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(help());
    return name === undefined ? EXIT.USAGE : EXIT.OK;
  }
  const command = COMMANDS[name];
  if (!command) {
    const suggestion = closest(name, Object.keys(COMMANDS));
    io.err(`Unknown command "${name}"${suggestion ? `: did you mean "${suggestion}"?` : '.'}\n\n${help()}`);
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
      io.err(`${(error as Error).message}${optionHint(error as Error, command)}\n\n${command.help}`);
      return EXIT.USAGE;
    }
    if (isAuthError(error)) {
      io.err(`${error.message} [${error.code}]`);
      if (refusesCredentials(error)) {
        io.err(
          'After several failures the account may be locked for a while ("npx slicer-auth doctor" checks the whole ' +
            'set-up and sends the credentials once).',
        );
      }
      // The client's own error gives the first run's fix when no setting reached it; a command's option may have.
      if (error.code === ErrorCode.CONFIG_INVALID && nothingConfigured(io.env) && !error.message.includes(FIRST_RUN_FIX)) {
        io.err(`Nothing is configured: ${FIRST_RUN_FIX}.`);
      }
      return error.code === ErrorCode.CONFIG_INVALID || error.code === ErrorCode.INSECURE_AUTH_URL ? EXIT.CONFIG : EXIT.FAILED;
    }
    io.err(`Failed: ${(error as Error).message ?? String(error)}`);
    return EXIT.FAILED;
  }
}
