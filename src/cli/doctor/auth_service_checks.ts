/**
 * The doctor's checks of the authorization service, layer by layer: DNS, TCP,
 * TLS and the token endpoint. Each layer is skipped when one below failed.
 */
import { type Check, type DoctorContext, fail, ok, type Outcome, skip, warn } from './check.ts';
import { certificate, endpointOf, PROBE_TIMEOUT_MS, resolve, tcp, withinProbeTime } from './probes.ts';
import type { Config } from '../../settings/config.ts';
import { isLoopbackHost } from '../../settings/url_policy.ts';
import { networkCause, networkFix, shortMessage } from '../../token_source/network_cause.ts';
import { tokenEndpoint } from '../../token_source/token_source.ts';

/** A certificate closer than this to its expiry is worth a warning. */
const CERT_WARN_DAYS = 14;

/** The configured auth URL, or why the check is skipped. */
function authUrlOf(ctx: DoctorContext): Config['authUrl'] | Outcome {
  if (!ctx.config) return skip('the configuration failed');
  if (!ctx.config.authUrl) return skip('SLICER_AUTH_URL is not set (permanent tokens only)');
  if (ctx.failed.has('auth-dns') || ctx.failed.has('auth-tcp')) return skip('the service cannot be reached');
  return ctx.config.authUrl;
}

/**
 * Runs a probe: its outcome, or a failure with the error's low-level reason and this fix (or the reason's own fix,
 * such as trusting the CA for a certificate of an untrusted issuer, or starting the sandbox at its address).
 */
async function probe(authUrl: string, fix: string, check: () => Promise<Outcome>): Promise<Outcome> {
  try {
    return await check();
  } catch (error) {
    const cause = networkCause(error);
    return fail(`${cause ? `${cause}: ` : ''}${shortMessage(error)}`, networkFix(cause, fix, authUrl));
  }
}

/** A check that runs with the auth URL, or skips. */
function authCheck(
  id: string,
  layer: string,
  run: (authUrl: string, ctx: DoctorContext) => Promise<Outcome> | Outcome,
): Check {
  return {
    id,
    name: `authorization service: ${layer}`,
    run(ctx) {
      const authUrl = authUrlOf(ctx);
      return typeof authUrl === 'string' ? run(authUrl, ctx) : authUrl;
    },
  };
}

/** DNS, TCP, TLS and the token endpoint, in that order. */
export const authServiceChecks: readonly Check[] = [
  authCheck('auth-dns', 'DNS', (authUrl) => {
    const { host } = endpointOf(authUrl);
    return probe(authUrl, `check the host name in SLICER_AUTH_URL ("${host}")`, async () => ok(`${host} → ${await resolve(host)}`));
  }),
  authCheck('auth-tcp', 'TCP', (authUrl, ctx) => {
    const { host, port } = endpointOf(authUrl);
    return probe(
      authUrl,
      `check that the authorization service runs at ${host}:${port} (SLICER_AUTH_URL) and that no firewall blocks it`,
      async () => (await tcp(host, port, ctx.clock), ok(`connected to ${host}:${port}`)),
    );
  }),
  authCheck('auth-tls', 'TLS', async (authUrl, ctx) => {
    const { host, port, tls } = endpointOf(authUrl);
    if (!tls) {
      return isLoopbackHost(host) ? skip('plain http on loopback') : warn(
        'plain http to a non-loopback host: the password and tokens cross the network in clear',
        'use an https SLICER_AUTH_URL (SLICER_ALLOW_INSECURE_HTTP=1 allowed this)',
      );
    }
    return probe(authUrl, `check that the authorization service serves https at ${host}:${port} (SLICER_AUTH_URL)`, async () => {
      const cert = await certificate(host, port, ctx.clock);
      if (!cert.valid) {
        const fix = networkFix(cert.problem, 'fix the service certificate, or use the host name it is issued for');
        return fail(`the certificate is not valid (${cert.problem})`, fix);
      }
      const days = Math.floor((cert.validTo.getTime() - ctx.clock.wallNow()) / 86_400_000);
      const expiry = `valid until ${cert.validTo.toISOString().slice(0, 10)}`;
      return days < CERT_WARN_DAYS ? warn(`${expiry}, ${days} days left`, 'renew the certificate') : ok(expiry);
    });
  }),
  authCheck(
    'auth-token-endpoint',
    'token endpoint',
    (authUrl, ctx) =>
      probe(authUrl, 'check SLICER_AUTH_URL: the token endpoint is {SLICER_AUTH_URL}/oauth2/token/', async () => {
        const endpoint = tokenEndpoint(authUrl);
        const started = ctx.clock.now();
        // A GET sends nothing secret: it only shows that something answers at the documented path.
        const response = await withinProbeTime(ctx.clock, (signal) => fetch(endpoint, { redirect: 'manual', signal }));
        if (!response) {
          ctx.unanswered.add('auth-token-endpoint');
          return fail(
            `${endpoint} took the connection but sent no answer within ${PROBE_TIMEOUT_MS / 1000} s`,
            'the authorization service at SLICER_AUTH_URL does not answer: check that it is up and not stuck (nor a proxy ' +
              'in front of it), then run again',
          );
        }
        await response.body?.cancel();
        return ok(`${endpoint} answers (GET → ${response.status}), ${Math.round(ctx.clock.now() - started)} ms`);
      }),
  ),
];
