/**
 * `slicer-auth store-key`: a new random full-strength key for
 * `SLICER_STORE_KEY`, printed and nowhere stored.
 */
import { newStoreKey } from '../stores/seal.ts';
import { EXIT, type Io, UsageError } from './usage.ts';

/** Help text of the command. */
export const STORE_KEY_HELP = `Usage: slicer-auth store-key

Prints a new random key (32 bytes, base64url) for SLICER_STORE_KEY. Give the same key to every
process that shares the Redis store (a CI secret, say): entries sealed with it open only with it.
The key is printed once and written nowhere.`;

/**
 * Prints the key.
 *
 * @param args nothing
 * @param io output streams
 * @returns the exit code
 */
export async function storeKeyCommand(args: string[], io: Io): Promise<number> {
  if (args.length > 0) throw new UsageError(`store-key takes no arguments, got "${args.join(' ')}"`);
  io.out(newStoreKey());
  return EXIT.OK;
}
