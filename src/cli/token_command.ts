/**
 * `slicer-auth token [--scope slicer|predict] [--json]`: prints a token.
 */
import { parseArgs } from 'node:util';
import { createAuthClient } from '../client.ts';
import { MinValidityUnreachableError } from '../errors.ts';
import { clientContext, type Io, numberFlag, scopeFlag, UsageError } from './usage.ts';

/** Help text of the command. */
export const TOKEN_HELP = `Usage: slicer-auth token [--scope slicer|predict|service_id=<id>] [--json] [--min-validity SECONDS]

Prints an access token on standard output, e.g.
  curl -H "Authorization: Bearer $(npx slicer-auth token)" "$SLICER_BASE_URL/..."

  --scope S            which service (default slicer)
  --json               print what is known of it as JSON: token, scope, expiresAt,
                       obtainedAt, source (memory, file, redis, request or permanent)
  --min-validity N     the token must be valid at least N more seconds

Each run is a process of its own: without a shared store each requests a token. In a loop, set
SLICER_CACHE_FILE (e.g. ~/.cache/slicer-auth/tokens.json) so that the runs share one.`;

/** The command's options (for parseArgs and shell completion). */
export const TOKEN_OPTIONS = {
  scope: { type: 'string', default: 'slicer' },
  json: { type: 'boolean' },
  'min-validity': { type: 'string' },
} as const;

/**
 * Prints a token for a scope.
 *
 * @param args the arguments after `token`
 * @param io output streams
 * @returns the exit code
 */
export async function tokenCommand(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: TOKEN_OPTIONS,
    strict: true,
  });
  const given = values['min-validity'];
  const minValidity = given === undefined ? undefined : numberFlag(given, true);
  if (minValidity !== undefined && !(minValidity >= 0)) {
    throw new UsageError(`--min-validity takes a number of seconds, 0 or more, such as 300; got "${given}"`);
  }
  const info = await createAuthClient(clientContext(io)).getTokenInfo(scopeFlag(values.scope), { minValidity }).catch(
    (error: unknown) => {
      // The library's error names its option; here the flag is what was given.
      if (!(error instanceof MinValidityUnreachableError)) throw error;
      throw new UsageError(
        `--min-validity ${given} cannot be met: the service issues tokens valid ${error.lifetime} s; give at most ${error.lifetime}`,
      );
    },
  );
  io.out(values.json ? JSON.stringify({ ...info }) : info.token); // the spread copy prints its token, as asked
  return 0;
}
