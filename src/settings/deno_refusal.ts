/** Telling Deno's refusal of a permission (`--allow-read`, `--allow-env`, …) from other errors. */

/**
 * Whether an error is Deno's refusal of a permission: `NotCapable` (`PermissionDenied` before Deno 2), an error of no
 * code.
 *
 * @param error the error
 * @returns true for such a refusal
 */
export function isDenoRefusal(error: unknown): boolean {
  const name = (error as { name?: unknown } | undefined)?.name;
  return name === 'NotCapable' || name === 'PermissionDenied';
}
