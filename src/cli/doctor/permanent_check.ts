/** The doctor's permanent-token check: configured permanent tokens are accepted by their services. */
import { type Check, type DoctorContext, fail, ok, type Outcome, serviceSettings, skip, warn } from './check.ts';
import { deliver, noAnswerFrom, saysNothing, undelivered } from './deliver.ts';
import type { Config } from '../../settings/config.ts';
import { type Service, SERVICES } from '../../settings/services.ts';

/** Each configured permanent token, sent to its own service; every token is judged, whatever the one before it got. */
export const permanentCheck: Check = {
  id: 'permanent-tokens',
  name: 'permanent tokens',
  async run(ctx) {
    const config = ctx.config;
    if (!config) return skip('the configuration failed');
    const present = SERVICES.filter((service) => serviceSettings(config, service).token);
    if (present.length === 0) return ok(`none configured (${SERVICES.map((s) => s.staticToken.env).join(', ')})`);
    const outcomes: Outcome[] = [];
    for (const service of present) outcomes.push(await judge(ctx, config, service));
    return combined(outcomes);
  },
};

/** What one service says of its permanent token. */
async function judge(ctx: DoctorContext, config: Config, service: Service): Promise<Outcome> {
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
  return ok(`${keys.token} accepted`);
}

/** The tokens' outcomes as one: the worst status, every reason, and the fixes of the findings. */
function combined(outcomes: readonly Outcome[]): Outcome {
  const findings = outcomes.filter((outcome) => outcome.status !== 'ok');
  if (findings.length === 0) return ok(outcomes.map((outcome) => outcome.reason).join(', '));
  return {
    status: findings.some((outcome) => outcome.status === 'fail') ? 'fail' : 'warn',
    reason: outcomes.map((outcome) => outcome.reason).join('; '),
    fix: [...new Set(findings.map((outcome) => outcome.fix))].join('; '),
  };
}
