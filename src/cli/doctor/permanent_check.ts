/** The doctor's permanent-token check: configured permanent tokens are accepted by their services. */
import { type Check, type DoctorScope, fail, ok, SCOPE_KEYS, scopeSettings, skip, warn } from './check.ts';
import { deliver, undelivered } from './deliver.ts';

/** Each configured permanent token, sent to its own service. */
export const permanentCheck: Check = {
  id: 'permanent-tokens',
  name: 'permanent tokens',
  async run(ctx) {
    const config = ctx.config;
    if (!config) return skip('the configuration failed');
    const present = (Object.keys(SCOPE_KEYS) as DoctorScope[]).filter((scope) => scopeSettings(config, scope).token);
    if (present.length === 0) return ok('none configured (SLICER_STATIC_TOKEN, SLICER_PREDICT_STATIC_TOKEN)');
    const accepted: string[] = [];
    for (const scope of present) {
      const keys = SCOPE_KEYS[scope];
      const { baseUrl, token } = scopeSettings(config, scope);
      if (!baseUrl) return warn(`${keys.token} is set but its base URL is not`, `set ${keys.baseUrl}`);
      let answer;
      try {
        answer = await deliver(ctx.options, scope, baseUrl, (token as { reveal(): string }).reveal());
      } catch (error) {
        return undelivered(error, baseUrl, keys.baseUrl);
      }
      if (answer.refused) {
        return fail(
          `${keys.token} is refused by ${baseUrl}: the token is revoked or invalid`,
          `create a new one: slicer-auth permanent create --name "<name>" --scope ${scope}, then set ${keys.token}, or unset it to use the password grant`,
        );
      }
      accepted.push(keys.token);
    }
    return ok(`${accepted.join(', ')} accepted`);
  },
};
