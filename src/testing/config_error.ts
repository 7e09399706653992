/** Test helper: the configuration error a call throws, or a failed assertion when it throws none or another. */
import assert from 'node:assert/strict';
import { ConfigError, ErrorCode } from '../errors.ts';

/**
 * Runs a call that must throw a configuration error.
 *
 * @param fn the call
 * @returns the error it threw, code `CONFIG_INVALID`
 */
export function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    assert.equal(error.code, ErrorCode.CONFIG_INVALID);
    return error;
  }
  assert.fail('expected a ConfigError');
}
