/** The doctor's permanent-token check: configured permanent tokens are accepted by their services. */
import { SERVICES } from '../../services.ts';
import { type Check, fail, ok, serviceSettings, skip, warn } from './check.ts';
import { deliver, noAnswerFrom, saysNothing, undelivered } from './deliver.ts';

/** Each configured permanent token, sent to its own service. */
export const permanentCheck: Check = {
  id: 'permanent-tokens',
  name: 'permanent tokens',
  async run(ctx) {
    const config = ctx.config;
    if (!config) return skip('the configuration failed');
    const present = SERVICES.filter((service) => serviceSettings(config, service).token);
    if (present.length === 0) return ok(`none configured (${SERVICES.map((s) => s.staticToken.env).join(', ')})`);
    const accepted: string[] = [];
    for (const service of present) {
      const keys = { token: service.staticToken.env, baseUrl: service.baseUrl.env };
      const { baseUrl, token } = serviceSettings(config, service);
      if (!baseUrl) return warn(`${keys.token} is set but its base URL is not`, `set ${keys.baseUrl}`);
      const started = ctx.clock.now();
      let answer;
      try {
        answer = await deliver(ctx, service, baseUrl, (token as { reveal(): string }).reveal());
      } catch (error) {
        return undelivered(error, baseUrl, keys.baseUrl);
      }
      if (!answer) return noAnswerFrom(baseUrl, keys.baseUrl);
      const unclear = saysNothing(answer, baseUrl, service, config.transport, Math.round(ctx.clock.now() - started));
      if (unclear) return { ...unclear, reason: `${keys.token}: ${unclear.reason}` };
      if (answer.refused) {
        return fail(
          `${keys.token} is refused by ${baseUrl}: the token is revoked or invalid`,
          `create a new one: slicer-auth permanent create --name "<name>" --scope ${service.name}, then set ${keys.token}, or unset it to use the password grant`,
        );
      }
      accepted.push(keys.token);
    }
    return ok(`${accepted.join(', ')} accepted`);
  },
};
