/**
 * Resolves a caller's scope against a client's configuration into a
 * {@link ScopeTarget}: the scope string, base URL and token source to use;
 * and tells the scope of an absolute URL called without one. A client
 * resolves each scope once ({@link scopeTargets}): its configuration does
 * not change.
 */
import { type Config, type Credentials, requireSettings } from './config.ts';
import type { Secret } from '../redact.ts';
import { DEFAULT_SERVICE, type ScopeInput, scopeKind, serviceIdOf, SERVICES } from './services.ts';
import type { EnvKey } from './settings.ts';
import { tokenOrigins } from './url_policy.ts';

/** What a scope resolves to for one client. */
export interface ScopeTarget {
  /** The scope string sent to the token endpoint, `service_id=<id>`. */
  readonly scope: string;
  /** Base URL for relative request paths, if configured. */
  readonly baseUrl: string | undefined;
  /** The permanent token covering this scope, if configured. */
  readonly permanentToken: Secret | undefined;
  /** Credentials for the password grant, when no permanent token covers the scope. */
  readonly credentials: Credentials | undefined;
  /** The variable holding that permanent token, for messages. */
  readonly permanentTokenKey: EnvKey;
  /** The variable naming this scope's base URL, for messages. */
  readonly baseUrlKey: EnvKey;
  /** The origins that may receive this scope's token: its service's, and those listed in `allowedOrigins`. */
  readonly origins: ReadonlySet<string>;
}

/**
 * Resolves a scope for a client, checking that what it needs is configured.
 *
 * @param config the client's configuration
 * @param given `'slicer'`, `'predict'`, or `service_id=<id>`
 * @param relative whether the call uses a relative URL (then the base URL is needed too)
 * @returns the scope string, base URL and permanent token that apply
 * @throws {ConfigError} `CONFIG_INVALID` listing everything the scope needs that is missing
 */
function resolveScope(config: Config, given: ScopeInput | string, relative: boolean): ScopeTarget {
  // As text: a null from JavaScript is then refused as "null" is, where requireSettings would read it as no scope.
  const input = String(given);
  const kind = scopeKind(config, input);
  requireSettings(config, { scope: input, relative }, kind === 'invalid' ? 'use this scope' : `use scope "${input}"`);
  const serviceId = serviceIdOf(config, input) as string; // present: requireSettings checked it
  // A service_id of no configured service is sent under the default service's base URL, with no permanent token.
  const service = typeof kind === 'object' ? kind : DEFAULT_SERVICE;
  const permanentToken = typeof kind === 'object' ? config[kind.staticToken.option] : undefined;
  const baseUrl = config[service.baseUrl.option];
  return {
    scope: `service_id=${serviceId}`,
    baseUrl,
    permanentToken,
    credentials: permanentToken ? undefined : config.credentials,
    permanentTokenKey: service.staticToken.env,
    baseUrlKey: service.baseUrl.env,
    origins: tokenOrigins(baseUrl, config.allowedOrigins),
  };
}

/**
 * How a client tells the scope of an absolute URL: the service whose base URL it is under (the longest), else the first
 * of the table (the default first) whose origin it has, else the default service. Dot segments and backslashes are
 * resolved first, as fetch resolves them, so that the scope is the one of the URL sent (`/api/predict/../jobs` is
 * `/api/jobs`).
 *
 * @param config the client's configuration
 * @returns the scope of a URL
 */
function scopeByUrl(config: Config): (url: string) => ScopeInput {
  const configured = SERVICES.flatMap((service) => {
    const base = config[service.baseUrl.option];
    return base ? [{ name: service.name, base, under: `${base}/`, origin: new URL(base).origin }] : [];
  });
  const longestFirst = [...configured].sort((a, b) => b.base.length - a.base.length);
  return (given) => {
    const url = /\/\.|%2e|\\/i.test(given) && URL.canParse(given) ? new URL(given).href : given;
    for (const service of longestFirst) if (url.startsWith(service.under) || url === service.base) return service.name;
    const origin = URL.canParse(url) ? new URL(url).origin : undefined;
    return configured.find((service) => service.origin === origin)?.name ?? DEFAULT_SERVICE.name;
  };
}

/** A client's scopes, each resolved against its configuration once. */
export interface ScopeTargets {
  /**
   * The target of a scope, resolved on its first use and kept (a scope that cannot be used is refused each time).
   * @param scope `'slicer'` (default), `'predict'`, or `service_id=<id>`
   * @param relative whether the call uses a relative URL (then the base URL is needed too)
   * @throws {ConfigError} `CONFIG_INVALID` listing everything the scope needs that is missing
   */
  resolve(scope?: ScopeInput | string, relative?: boolean): ScopeTarget;
  /** The scope of an absolute URL called without one ({@link scopeByUrl}). */
  readonly scopeOf: (url: string) => ScopeInput;
  /**
   * The base URL a scope's relative paths resolve against, as configured: a `service_id=` of no configured service
   * goes under the default service's. Nothing else the scope needs is checked.
   * @param scope `'slicer'` (default), `'predict'`, or `service_id=<id>`
   * @throws {ConfigError} `CONFIG_INVALID` for a scope of none of these forms
   */
  baseUrl(scope?: ScopeInput | string): string | undefined;
}

/**
 * The scopes of a client.
 *
 * @param config the client's configuration
 * @returns its scope resolution, kept per scope and URL kind
 */
export function scopeTargets(config: Config): ScopeTargets {
  const scopeOf = scopeByUrl(config);
  const resolved = { absolute: new Map<string, ScopeTarget>(), relative: new Map<string, ScopeTarget>() };
  const targets: ScopeTargets = {
    resolve(scope = DEFAULT_SERVICE.name, relative = false) {
      const kept = relative ? resolved.relative : resolved.absolute;
      // As text, as resolveScope reads it: a null is then refused as "null" is.
      const key = String(scope);
      let target = kept.get(key);
      if (!target) kept.set(key, target = resolveScope(config, scope, relative));
      return target;
    },
    scopeOf,
    baseUrl(scope = DEFAULT_SERVICE.name) {
      const kind = scopeKind(config, String(scope));
      if (kind === 'invalid') targets.resolve(scope); // throws, naming the malformed scope as every call does
      return config[(typeof kind === 'object' ? kind : DEFAULT_SERVICE).baseUrl.option];
    },
  };
  return targets;
}
