/**
 * `slicer-auth permanent create|list|revoke`: not yet available.
 */
import { type Io, UsageError } from './usage.ts';

/** Help text of the command. */
export const PERMANENT_HELP = 'Usage: slicer-auth permanent create --name N --scope S | list | revoke (--name N | --prefix P)';

/**
 * Manages permanent tokens through the web UI.
 *
 * @param _args the arguments after `permanent`
 * @param _io output streams
 * @returns the exit code
 */
export async function permanentCommand(_args: string[], _io: Io): Promise<number> {
  throw new UsageError('permanent is not available yet');
}
