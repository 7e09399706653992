/**
 * The one services table: each service a scope can name (contract 1: the
 * slicing service and its companion prediction service), with the settings
 * that describe it — its identifier (`service_id=<id>`, contract 4.1), its
 * base URL and its permanent token — by option and variable, from the
 * settings table; and the scopes that name them (contract 4.1): a service's
 * short name or a full `service_id=<id>`. Scope resolution, configuration
 * checks, the client and the doctor read this; a third service would be one
 * row here and its settings.
 */
import { ConfigError } from '../errors.ts';
import { type SettingName, SETTINGS } from './settings.ts';

/** A setting of a service: its client option and its variable. */
export interface ServiceSetting<K extends SettingName = SettingName> {
  readonly option: K;
  readonly env: (typeof SETTINGS)[K]['env'];
}

/** What a row of the table holds. */
interface ServiceRow {
  readonly name: ServiceName;
  /** How messages name it. */
  readonly title: string;
  readonly id: ServiceSetting;
  readonly baseUrl: ServiceSetting;
  readonly staticToken: ServiceSetting;
}

const setting = <K extends SettingName>(option: K): ServiceSetting<K> => ({ option, env: SETTINGS[option].env });

/** The services, in the order scopes are listed and checked. */
export const SERVICES = [
  {
    name: 'slicer',
    title: 'slicing service',
    id: setting('serviceId'),
    baseUrl: setting('baseUrl'),
    staticToken: setting('staticToken'),
  },
  {
    name: 'predict',
    title: 'prediction service',
    id: setting('predictServiceId'),
    baseUrl: setting('predictBaseUrl'),
    staticToken: setting('predictStaticToken'),
  },
] as const satisfies readonly ServiceRow[];

/** One row of {@link SERVICES}. */
export type Service = (typeof SERVICES)[number];

/**
 * A service's short name, usable as a scope: `slicer` or `predict`. Written out (a scope is part of the public
 * API, and JSR wants its types explicit); `type-tests/` checks that it names exactly the table's services.
 */
export type ServiceName = 'slicer' | 'predict';

/** The service every call uses unless told otherwise: the first. */
export const DEFAULT_SERVICE: Service = SERVICES[0];

/**
 * The service of a short name.
 *
 * @param name `slicer` or `predict`
 * @returns its row, or undefined for another text
 */
export function serviceNamed(name: string): Service | undefined {
  return SERVICES.find((service) => service.name === name);
}

/**
 * The service whose identifier a `service_id=<id>` names, as configured.
 *
 * @param present the configured values (raw strings or a parsed configuration)
 * @param id the identifier
 * @returns its row, or undefined when no configured service has it
 */
function serviceWithId(present: Partial<Record<SettingName, unknown>>, id: string): Service | undefined {
  return SERVICES.find((service) => present[service.id.option] !== undefined && String(present[service.id.option]).trim() === id);
}

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
