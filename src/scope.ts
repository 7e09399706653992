/**
 * Scopes (contract 4.1): a service's short name (`slicer`, `predict`: the
 * services table) or a full `service_id=<id>`, and which configured service
 * a scope names.
 */
import { ConfigError } from './errors.ts';
import { type Service, type ServiceName, serviceNamed, SERVICES, serviceWithId } from './services.ts';
import type { SettingName } from './settings.ts';

/** A scope: a service's short name, or a full `service_id=<id>` string (contract 4.1). */
export type ScopeInput = ServiceName | `service_id=${string}`;

/** A full scope: `service_id=` and an id without spaces, `=` or `&` (they would break the form body). */
const SERVICE_ID = /^service_id=([^\s=&]+)$/;

/** What a scope may be, for messages: `"slicer", "predict" or "service_id=<id>"`. */
export const SCOPE_FORMS = `${SERVICES.map((service) => `"${service.name}"`).join(', ')} or "service_id=<id>"`;

/**
 * Which configured service a scope names.
 *
 * @param present the configured values (raw strings or a parsed config)
 * @param scope the scope, as given
 * @returns the service; `other` for a `service_id=` of no configured service; `invalid` for anything else
 */
export function scopeKind(present: Partial<Record<SettingName, unknown>>, scope: string): Service | 'other' | 'invalid' {
  const named = serviceNamed(scope);
  if (named) return named;
  const id = SERVICE_ID.exec(scope)?.[1];
  if (id === undefined) return 'invalid';
  return serviceWithId(present, id) ?? 'other';
}

/**
 * Checks a scope typed by a user (CLI argument, worker variable).
 *
 * @param value the text given
 * @returns the value as a {@link ScopeInput}
 * @throws {ConfigError} `CONFIG_INVALID` for anything but a service's name or `service_id=<id>`
 */
export function parseScope(value: string): ScopeInput {
  if (serviceNamed(value) || SERVICE_ID.test(value)) return value as ScopeInput;
  throw new ConfigError([{ key: 'scope', message: `expected ${SCOPE_FORMS}, got "${value}"` }]);
}

/**
 * The service id a scope names: a service's name maps to its configured id,
 * `service_id=<id>` to its id. The one place scopes are mapped.
 *
 * @param config the client's configuration
 * @param scope the scope, as given
 * @returns the id, or undefined when it is not configured or the scope is malformed
 */
export function serviceIdOf(config: Partial<Record<SettingName, unknown>>, scope: string): string | undefined {
  const named = serviceNamed(scope);
  if (named) return config[named.id.option] as string | undefined;
  return SERVICE_ID.exec(scope)?.[1];
}
