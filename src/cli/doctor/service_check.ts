/**
 * The doctor's service check: a scope's service accepts that scope's token; a
 * refusal is explained (transport, swapped ids or base URLs, wrong id).
 */
import { type Check, type DoctorContext, fail, ok, serviceSettings, skip } from './check.ts';
import { deliver, noAnswerFrom, saysNothing, undelivered } from './deliver.ts';
import type { Config } from '../../settings/config.ts';
import { DEFAULT_SERVICE, type Service, SERVICES } from '../../settings/services.ts';
import { mayReceiveToken, tokenOrigins } from '../../settings/url_policy.ts';

/**
 * The service check of one scope.
 *
 * @param service the scope's service
 * @returns the check (after the token requests: it uses their tokens)
 */
export function serviceCheck(service: Service): Check {
  const scope = service.name;
  const keys = { serviceId: service.id.env, baseUrl: service.baseUrl.env };
  return {
    id: `service-${scope}`,
    name: `service (${scope})`,
    async run(ctx) {
      const config = ctx.config;
      if (!config) return service === DEFAULT_SERVICE ? skip('the configuration failed') : undefined;
      const { serviceId, baseUrl, token: permanent } = serviceSettings(config, service);
      if (!serviceId) return undefined;
      if (!baseUrl) return skip(`${keys.baseUrl} is not set`);
      const scopeString = `service_id=${serviceId}`;
      const token = ctx.grants.get(scopeString)?.token ?? permanent?.reveal();
      if (!token) return skip('no token to try');
      const started = ctx.clock.now();
      let answer;
      try {
        answer = await deliver(ctx, service, baseUrl, token);
      } catch (error) {
        return undelivered(error, baseUrl, keys.baseUrl);
      }
      if (!answer) return noAnswerFrom(baseUrl, keys.baseUrl);
      const ms = Math.round(ctx.clock.now() - started);
      const unclear = saysNothing(answer, baseUrl, service, config.transport, ms);
      if (unclear) return unclear;
      // What is left is a success or a refusal (401, 403), which the rest explains.
      if (!answer.refused) {
        return ok(`${baseUrl} accepts the token (${config.transport} transport, answered ${answer.status}), ${ms} ms`);
      }
      if (config.transport === 'post' && (await deliver(ctx, service, baseUrl, token, 'header'))?.refused === false) {
        return fail(`${baseUrl} refuses the token as a post argument but accepts the header`, 'set SLICER_TOKEN_TRANSPORT=header');
      }
      if (await acceptsOtherToken(ctx, config, service, baseUrl)) {
        return fail(
          `${baseUrl} refuses the ${scope} token (${answer.status}) but accepts the other scope's`,
          `the service ids or base URLs are swapped: ${keys.baseUrl} must be the service that ${keys.serviceId} names`,
        );
      }
      return fail(
        `${baseUrl} refuses a freshly issued token for ${scopeString} (${answer.status})`,
        `${keys.serviceId} does not name the service at ${keys.baseUrl}: correct one of them (or they are swapped)`,
      );
    },
  };
}

/**
 * Whether the service takes another scope's token instead: tried only where
 * that token may go (its own service's origin, or an allowed one).
 */
async function acceptsOtherToken(ctx: DoctorContext, config: Config, service: Service, baseUrl: string): Promise<boolean> {
  for (const other of SERVICES.filter((s) => s !== service)) {
    const { serviceId, baseUrl: otherBase } = serviceSettings(config, other);
    const token = serviceId === undefined ? undefined : ctx.grants.get(`service_id=${serviceId}`)?.token;
    if (!token || !mayReceiveToken(baseUrl, tokenOrigins(otherBase, config.allowedOrigins))) continue;
    if ((await deliver(ctx, service, baseUrl, token))?.refused === false) return true;
  }
  return false;
}
