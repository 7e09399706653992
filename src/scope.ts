/**
 * Scopes (contract 4.1): the short names `slicer` and `predict`, or a full
 * `service_id=<id>`, and how they map to the configured services.
 */
import { ConfigError } from './errors.ts';

/** A scope: a short name, or a full `service_id=<id>` string (contract 4.1). */
export type ScopeInput = 'slicer' | 'predict' | `service_id=${string}`;

/** A full scope: `service_id=` and an id without spaces, `=` or `&` (they would break the form body). */
const SERVICE_ID = /^service_id=([^\s=&]+)$/;

/**
 * Which configured service a scope names; `other` for a `service_id=` of neither.
 *
 * @param present the service ids set (raw strings or a parsed config)
 * @param scope the scope, as given
 * @returns the kind of scope
 */
export function scopeKind(
  present: { readonly serviceId?: unknown; readonly predictServiceId?: unknown },
  scope: string,
): 'slicer' | 'predict' | 'other' | 'invalid' {
  if (scope === 'slicer' || scope === 'predict') return scope;
  const id = SERVICE_ID.exec(scope)?.[1];
  if (id === undefined) return 'invalid';
  if (present.serviceId !== undefined && id === String(present.serviceId).trim()) return 'slicer';
  if (present.predictServiceId !== undefined && id === String(present.predictServiceId).trim()) return 'predict';
  return 'other';
}

/**
 * Checks a scope typed by a user (CLI argument, worker variable).
 *
 * @param value the text given
 * @returns the value as a {@link ScopeInput}
 * @throws {ConfigError} `CONFIG_INVALID` for anything but `slicer`, `predict` or `service_id=<id>`
 */
export function parseScope(value: string): ScopeInput {
  if (value === 'slicer' || value === 'predict' || SERVICE_ID.test(value)) return value as ScopeInput;
  throw new ConfigError([{ key: 'scope', message: `expected "slicer", "predict" or "service_id=<id>", got "${value}"` }]);
}

/**
 * The service id a scope names: `slicer` and `predict` map to the configured
 * ids, `service_id=<id>` to its id. The one place scopes are mapped.
 *
 * @param config the client's configuration
 * @param scope the scope, as given
 * @returns the id, or undefined when it is not configured or the scope is malformed
 */
export function serviceIdOf(
  config: { readonly serviceId?: string | undefined; readonly predictServiceId?: string | undefined },
  scope: string,
): string | undefined {
  if (scope === 'slicer') return config.serviceId;
  if (scope === 'predict') return config.predictServiceId;
  return SERVICE_ID.exec(scope)?.[1];
}
