/**
 * Type-level tests of the public API, checked by `npm run typecheck` (tsc):
 * each `@ts-expect-error` line must fail to compile, or tsc reports an unused
 * directive. Never run.
 */
import { type AuthClientOptions, authedFetch, createAuthClient, getToken, type SettingOptions, type TokenTransport } from '../mod.ts';
import type { ServiceName, SERVICES } from '../src/settings/services.ts';
import type { OptionType, SettingName, Settings } from '../src/settings/settings.ts';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;

/** The transport type is the schema's. */
export const transportMatchesSchema: Equal<TokenTransport, Settings['transport']> = true;

/** A scope's short names are exactly the services of the table. */
export const serviceNamesMatchTable: Equal<ServiceName, (typeof SERVICES)[number]['name']> = true;

/** The options interface names exactly the settings of the table. */
export const optionsMatchTable: Equal<keyof SettingOptions, SettingName> = true;

/** Each option has the type its table entry declares. */
export const optionTypesMatchTable: Equal<
  { [K in SettingName]-?: Exclude<SettingOptions[K], undefined> },
  { [K in SettingName]: OptionType<K> }
> = true;

/** Wrong options and misspelt scopes do not compile. */
export function misuse(): void {
  // @ts-expect-error transport is 'header' | 'post'
  createAuthClient({ transport: 'smoke' });
  // @ts-expect-error a URL is a string or a URL
  createAuthClient({ authUrl: 42 });
  // @ts-expect-error seconds are a number
  createAuthClient({ refreshMarginSeconds: '300' });
  // @ts-expect-error the opt-in is a boolean
  createAuthClient({ allowInsecureHttp: 'yes' });
  // @ts-expect-error unknown option
  createAuthClient({ serviceID: 'x' });
  // @ts-expect-error misspelt scope
  void getToken('slicr');
  // @ts-expect-error a scope must be service_id=<id>
  void getToken('service-id=abc');
  // @ts-expect-error misspelt scope in a request
  void authedFetch('jobs', { scope: 'predictor' });
}

/** Right options compile. */
export function use(): AuthClientOptions {
  void getToken('service_id=abc');
  void getToken('predict', { minValidity: 900 });
  void authedFetch.post('jobs', { scope: 'predict', json: {} });
  return { authUrl: new URL('https://auth.example'), transport: 'post', refreshMarginSeconds: 60, allowInsecureHttp: false };
}
