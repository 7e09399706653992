/**
 * `slicer-auth doctor`: every check of a set-up, in order, each with a status,
 * a reason and, for a failure or a warning, the exact fix. Built from the
 * client's own pieces — the settings table, `readEnv`/`parseConfig`, the
 * token source and its schemas — plus a few probes of its own.
 *
 * Never harmful: at most one token request per scope (no retries, so an
 * account is never locked by the doctor), no permanent token created or
 * revoked, nothing written, no secret shown (only "set, N characters").
 */
import process from 'node:process';
import { type Config, parseConfig, requireSettings } from '../config.ts';
import { type ScopeInput, serviceIdOf } from '../scope.ts';
import { isLoopbackHost } from '../url_policy.ts';
import { describeSource, readEnv, type ReadEnvOptions } from '../env.ts';
import { ErrorCode, isAuthError } from '../errors.ts';
import { distrust } from '../stores/file.ts';
import { SETTINGS } from '../settings.ts';
import { systemClock } from '../clock.ts';
import { describeRedisUrl } from '../stores/redis_url.ts';
import type { Grant } from '../grant.ts';
import { networkCause, processGrantResponse, sendGrantRequest, tokenEndpoint } from '../token_source.ts';
import { certificate, endpointOf, resolve, tcp } from './doctor_probes.ts';

/** How a check ended: ✔ ok, ✖ fail, ! warn, – skip. */
export type Status = 'ok' | 'fail' | 'warn' | 'skip';

/** One line of the doctor's report. */
export interface CheckResult {
  readonly name: string;
  readonly status: Status;
  readonly reason: string;
  /** What to do, for a failure or a warning. */
  readonly fix?: string | undefined;
  readonly durationMs: number;
}

/** Options of {@link runDoctor}. */
export interface DoctorOptions extends ReadEnvOptions {
  /** Limit the scope checks to these. @default every configured scope */
  scopes?: readonly ('slicer' | 'predict')[] | undefined;
}

type Outcome = { status: Status; reason: string; fix?: string | undefined };
const ok = (reason: string): Outcome => ({ status: 'ok', reason });
const fail = (reason: string, fix: string): Outcome => ({ status: 'fail', reason, fix });
const warn = (reason: string, fix: string): Outcome => ({ status: 'warn', reason, fix });

/** A clock difference above this is worth a warning: expiry is judged on the server's clock. */
const MAX_SKEW_MS = 60_000;

/**
 * Runs every check.
 *
 * @param options where the configuration comes from, and which scopes to check
 * @returns one result per check, in order
 */
export async function runDoctor(options: DoctorOptions = {}): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const run = async (name: string, check: () => Outcome | Promise<Outcome>): Promise<boolean> => {
    const started = performance.now();
    let outcome: Outcome;
    try {
      outcome = await check();
    } catch (error) {
      outcome = fail(isAuthError(error) ? error.message : `${(error as Error).message}`, 'see the reason above');
    }
    results.push({ name, ...outcome, durationMs: Math.round(performance.now() - started) });
    return outcome.status !== 'fail';
  };
  const skip = (name: string, because: string) => results.push({ name, status: 'skip', reason: because, durationMs: 0 });

  await run('runtime', runtime);

  let config: Config | undefined;
  await run('configuration', () => {
    const values = readEnv(options);
    if (Object.keys(values).length === 0 && !options.env) {
      return fail(
        'nothing is configured (no SLICER_* variable in the environment or .env)',
        'copy .env.example to .env and fill in SLICER_AUTH_URL, SLICER_USERNAME, SLICER_PASSWORD, SLICER_SERVICE_ID and ' +
          'SLICER_BASE_URL (or run "npm start", which uses the embedded sandbox)',
      );
    }
    try {
      config = parseConfig(values, {}, { scope: 'slicer', relative: true });
      requireSettings(config, { scope: 'slicer', relative: true }, 'use the slicing service');
    } catch (error) {
      config = undefined;
      if (!isAuthError(error)) throw error;
      return fail(
        error.message,
        error.code === ErrorCode.INSECURE_AUTH_URL
          ? 'use an https SLICER_AUTH_URL, or set SLICER_ALLOW_INSECURE_HTTP=1 if you accept the risk'
          : 'set or correct the variables listed, in the environment or .env (see .env.example)',
      );
    }
    return ok(describeConfig(config));
  });
  const scopes = (options.scopes ?? ['slicer', 'predict']).filter((scope) => scope === 'slicer' || config?.predictServiceId);
  const service = ['DNS', 'TCP', 'TLS', 'token endpoint'].map((layer) => `authorization service: ${layer}`);
  const skipRest = (names: readonly string[], because: string) => {
    for (const name of names) if (!results.some((r) => r.name === name)) skip(name, because);
  };
  if (!config) {
    skipRest(
      [...service, ...scopes.flatMap((s) => [`token request (${s})`, `service (${s})`]), 'permanent tokens', 'shared token store'],
      'the configuration failed',
    );
    return results;
  }
  const cfg = config;
  /** A probe that passes with its description, or fails with the error's code and this fix. */
  const probe = (name: string, fix: string, check: () => Promise<string>) =>
    run(name, async () => {
      try {
        return ok(await check());
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        return fail(`${typeof code === 'string' ? `${code}: ` : ''}${(error as Error).message}`, fix);
      }
    });

  // The authorization service, layer by layer.
  let reachable = false;
  if (!cfg.authUrl) skipRest(service, 'SLICER_AUTH_URL is not set (permanent tokens only)');
  else {
    const authUrl = cfg.authUrl;
    const { host, port, tls } = endpointOf(authUrl);
    reachable = await probe(service[0] as string, `check the host name in SLICER_AUTH_URL ("${host}")`, async () =>
      `${host} → ${await resolve(host)}`) &&
      await probe(
        service[1] as string,
        `check that the authorization service runs at ${host}:${port} (SLICER_AUTH_URL) and that no firewall blocks it`,
        async () => (await tcp(host, port), `connected to ${host}:${port}`),
      );
    if (!reachable) {
      skipRest(service, 'the service cannot be reached');
    } else {
      if (tls) {
        await run(service[2] as string, async () => {
          const cert = await certificate(host, port);
          if (!cert.valid) {
            return fail(
              `the certificate is not valid (${cert.problem})`,
              'fix the service certificate, or use the host name it is issued for',
            );
          }
          const days = Math.floor((cert.validTo.getTime() - systemClock.wallNow()) / 86_400_000);
          const expiry = `valid until ${cert.validTo.toISOString().slice(0, 10)}`;
          return days < 14 ? warn(`${expiry}, ${days} days left`, 'renew the certificate') : ok(expiry);
        });
      } else if (!isLoopbackHost(host)) {
        await run(service[2] as string, () =>
          warn(
            'plain http to a non-loopback host: the password and tokens cross the network in clear',
            'use an https SLICER_AUTH_URL (SLICER_ALLOW_INSECURE_HTTP=1 allowed this)',
          ));
      } else skip(service[2] as string, 'plain http on loopback');
      await probe(service[3] as string, 'check SLICER_AUTH_URL: the token endpoint is {SLICER_AUTH_URL}/oauth2/token/', async () => {
        const started = performance.now();
        const response = await fetch(tokenEndpoint(authUrl), { redirect: 'manual', signal: AbortSignal.timeout(5_000) });
        await response.body?.cancel();
        return `${tokenEndpoint(authUrl)} answers (GET → ${response.status}), ${Math.round(performance.now() - started)} ms`;
      });
    }
  }

  // Credentials and services, per scope: one token request each.
  const grants = new Map<string, Grant>();
  for (const scope of scopes) {
    const serviceId = serviceIdOf(cfg, scope) as string;
    const permanent = scope === 'predict' ? cfg.predictToken : cfg.token;
    const name = `token request (${scope})`;
    if (!cfg.credentials) {
      skip(name, permanent ? `covered by ${scope === 'predict' ? 'SLICER_PREDICT_TOKEN' : 'SLICER_TOKEN'}` : 'no credentials');
    } else if (!reachable) skip(name, 'the authorization service cannot be reached');
    else await run(name, () => tokenRequest(cfg, `service_id=${serviceId}`, grants));
  }
  // After every token request: a refusal is explained by trying the other scope's token too.
  for (const scope of scopes) await run(`service (${scope})`, () => serviceCheck(cfg, scope, grants));

  await run('permanent tokens', () => permanentCheck(cfg));
  await run('shared token store', async () => {
    const redisUrl = cfg.tokenStore?.reveal();
    if (redisUrl) return await redisCheck(redisUrl, cfg);
    if (!cfg.tokenCacheFile) return ok('none configured (SLICER_TOKEN_CACHE, SLICER_TOKEN_STORE): each process requests its own tokens');
    const why = distrust(cfg.tokenCacheFile);
    if (why) return fail(`${cfg.tokenCacheFile}: ${why}`, `chmod 600 ${cfg.tokenCacheFile} as its owner, or remove it (it is recreated)`);
    return ok(`file ${cfg.tokenCacheFile} (private to this user)`);
  });
  return results;
}

/** The runtime and, on Deno, the permissions the module needs. */
function runtime(): Outcome {
  const deno =
    (globalThis as { Deno?: { version: { deno: string }; permissions: { querySync(p: { name: string }): { state: string } } } }).Deno;
  const bun = (globalThis as { Bun?: { version: string } }).Bun;
  if (deno) {
    // A grant narrowed to some hosts, variables or paths reads as not granted for all: said as such.
    const flags: Record<string, string> = { env: '--allow-env', net: '--allow-net=<auth and service hosts>', read: '--allow-read=.env' };
    const missing = Object.keys(flags).filter((name) => deno.permissions.querySync({ name }).state !== 'granted');
    const name = `Deno ${deno.version.deno}`;
    if (missing.length === 0) return ok(name);
    return warn(
      `${name}; not granted for everything: ${missing.join(', ')}`,
      `if a check below fails for lack of it, add ${missing.map((m) => flags[m]).join(' ')}`,
    );
  }
  return ok(bun ? `Bun ${bun.version}` : `Node ${process.version}`);
}

/** Each setting with its source; secrets only by length. */
function describeConfig(config: Config): string {
  return Object.entries(SETTINGS)
    .filter(([name]) => config.sources[name as keyof typeof SETTINGS])
    .map(([name, setting]) => {
      const value = config[name as keyof typeof SETTINGS];
      const shown = 'secret' in setting ? `set, ${(value as { reveal(): string }).reveal().length} characters` : String(value);
      return `${setting.env}=${shown} (${describeSource(config.sources[name as keyof typeof SETTINGS] as never)})`;
    })
    .join('\n');
}

/** One password grant, checked against the contract (4.1), plus the clock skew. */
async function tokenRequest(config: Config, scope: string, grants: Map<string, Grant>): Promise<Outcome> {
  const credentials = config.credentials as NonNullable<Config['credentials']>;
  const started = performance.now();
  try {
    const response = await sendGrantRequest({
      ...credentials,
      fetch: (i, init) => fetch(i, init),
      clock: systemClock,
      retries: 0,
    }, scope);
    const raw = await response.clone().text();
    const date = Date.parse(response.headers.get('date') ?? '');
    const grant = await processGrantResponse(response, scope, started, [credentials.password]);
    grants.set(scope, grant);
    const ms = Math.round(performance.now() - started);
    const reason = `Bearer token for ${scope}, valid ${Math.round(grant.lifetime / 1000)} s, ${ms} ms`;
    if (typeof (JSON.parse(raw) as { expires_in?: unknown }).expires_in !== 'string') {
      return warn(
        `${reason}; expires_in is a JSON number, documented as a string`,
        'nothing to do here: the client accepts both; tell the service owners',
      );
    }
    const skew = Number.isNaN(date) ? 0 : systemClock.wallNow() - date;
    if (Math.abs(skew) > MAX_SKEW_MS) {
      return warn(`${reason}; this machine's clock is ${Math.round(skew / 1000)} s off the server's`, 'synchronise the clock (NTP)');
    }
    return ok(reason);
  } catch (error) {
    if (!isAuthError(error)) throw error;
    const oauth = (error as { error?: string }).error;
    const fixes: Partial<Record<string, string>> = {
      [ErrorCode.TOKEN_REQUEST_REJECTED]: oauth === 'invalid_scope'
        ? `${
          scope.endsWith(config.predictServiceId ?? '\0') ? 'SLICER_PREDICT_SERVICE_ID' : 'SLICER_SERVICE_ID'
        } is not a service this authorization service knows: correct it`
        : 'check SLICER_USERNAME and SLICER_PASSWORD; after several failures the account may be locked for a while (the doctor tries once)',
      [ErrorCode.TOKEN_RESPONSE_INVALID]:
        "SLICER_AUTH_URL must be the authorization service's base address: its /oauth2/token/ answered something else",
      [ErrorCode.TOKEN_ENDPOINT_REDIRECT]: 'use the exact https address of the authorization service in SLICER_AUTH_URL',
      [ErrorCode.TOKEN_ENDPOINT_UNAVAILABLE]: 'check that the authorization service is up and reachable, then run again',
    };
    return fail(error.message, fixes[error.code] ?? 'see the reason above');
  }
}

/** Sends a token to a service the configured way; true when refused (401/403). */
async function refuses(url: string, token: string, transport: Config['transport']): Promise<{ refused: boolean; status: number }> {
  const init: RequestInit = transport === 'post'
    ? { method: 'POST', body: new URLSearchParams({ token }) }
    : { headers: { authorization: `Bearer ${token}` } };
  const response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(5_000) });
  await response.body?.cancel();
  return { refused: response.status === 401 || response.status === 403, status: response.status };
}

/** A service accepts this scope's token; a refusal explained. */
async function serviceCheck(config: Config, scope: ScopeInput, grants: Map<string, Grant>): Promise<Outcome> {
  const base = scope === 'predict' ? config.predictBaseUrl : config.baseUrl;
  const baseKey = scope === 'predict' ? 'SLICER_PREDICT_BASE_URL' : 'SLICER_BASE_URL';
  if (!base) return { status: 'skip', reason: `${baseKey} is not set` };
  const scopeString = `service_id=${serviceIdOf(config, scope)}`;
  const token = grants.get(scopeString)?.token ?? (scope === 'predict' ? config.predictToken : config.token)?.reveal();
  if (!token) return { status: 'skip', reason: 'no token to try' };
  const started = performance.now();
  let answer: { refused: boolean; status: number };
  try {
    answer = await refuses(base, token, config.transport);
  } catch (error) {
    const cause = networkCause(error) ?? (error as Error).message;
    return fail(`cannot reach ${base} (${cause})`, `check ${baseKey} and that the service is up`);
  }
  const ms = Math.round(performance.now() - started);
  if (!answer.refused) return ok(`${base} accepts the token (${config.transport} transport, answered ${answer.status}), ${ms} ms`);
  if (config.transport === 'post' && !(await refuses(base, token, 'header')).refused) {
    return fail(`${base} refuses the token as a post argument but accepts the header`, 'set SLICER_TOKEN_TRANSPORT=header');
  }
  const other = [...grants].find(([key]) => key !== scopeString)?.[1];
  if (other && !(await refuses(base, other.token, config.transport)).refused) {
    return fail(
      `${base} refuses the ${scope} token (${answer.status}) but accepts the other scope's`,
      `the service ids or base URLs are swapped: ${baseKey} must be the service that ${
        scope === 'predict' ? 'SLICER_PREDICT_SERVICE_ID' : 'SLICER_SERVICE_ID'
      } names`,
    );
  }
  return fail(
    `${base} refuses a freshly issued token for ${scopeString} (${answer.status})`,
    `${
      scope === 'predict' ? 'SLICER_PREDICT_SERVICE_ID' : 'SLICER_SERVICE_ID'
    } does not name the service at ${baseKey}: correct one of them`,
  );
}

/** The Redis store answers and takes a write (a lock on a doctor key, released at once); says whether tokens are encrypted. */
async function redisCheck(url: string, config: Config): Promise<Outcome> {
  const { createRedisStore } = await import('../stores/redis.ts');
  const where = describeRedisUrl(url);
  let store: Awaited<ReturnType<typeof createRedisStore>> | undefined;
  try {
    store = await createRedisStore({ url, key: config.tokenStoreKey });
    const release = await store.lock({ authUrl: 'slicer-auth doctor', username: '', scope: 'probe' }, 1_000);
    await release?.();
  } catch (error) {
    return fail(
      `${where}: ${(error as Error).message}`,
      'check SLICER_TOKEN_STORE and that Redis runs and accepts this client (tokens are fetched directly meanwhile)',
    );
  } finally {
    await store?.close?.();
  }
  return config.tokenStoreKey ? ok(`${where} reachable and writable; tokens encrypted at rest (SLICER_TOKEN_STORE_KEY)`) : warn(
    `${where} reachable and writable; tokens are stored in clear`,
    'set SLICER_TOKEN_STORE_KEY so that whoever reads the database cannot read the tokens',
  );
}

/** Configured permanent tokens are accepted by their services. */
async function permanentCheck(config: Config): Promise<Outcome> {
  const configured = [
    ['SLICER_TOKEN', config.token, config.baseUrl, 'slicer'],
    ['SLICER_PREDICT_TOKEN', config.predictToken, config.predictBaseUrl, 'predict'],
  ] as const;
  const present = configured.filter(([, token]) => token);
  if (present.length === 0) return ok('none configured (SLICER_TOKEN, SLICER_PREDICT_TOKEN)');
  const accepted: string[] = [];
  for (const [key, token, base, scope] of present) {
    if (!base) {
      return warn(`${key} is set but its base URL is not`, `set ${scope === 'slicer' ? 'SLICER_BASE_URL' : 'SLICER_PREDICT_BASE_URL'}`);
    }
    if ((await refuses(base, (token as { reveal(): string }).reveal(), config.transport)).refused) {
      return fail(
        `${key} is refused by ${base}: the token is revoked or invalid`,
        `create a new one: slicer-auth permanent create --name "<name>" --scope ${scope}, then set ${key}, or unset it to use the password grant`,
      );
    }
    accepted.push(key);
  }
  return ok(`${accepted.join(', ')} accepted`);
}
