/**
 * Fixtures of the contract suite: the target, a secret-redacting API helper,
 * the sandbox's test controls, the TOKENS page, and a tracker that revokes
 * every permanent token a test created, in teardown, even when the test fails.
 */
import { readToolSettings } from '../src/tool_settings.ts';
import { type APIRequestContext, type APIResponse, test as base, type TestDetails } from '@playwright/test';
import { SECRET_ATTRIBUTE, TokensPage } from '../src/auth_ui/tokens_page.ts';
import { redact } from '../src/redact.ts';
import { loadTarget, type Target } from './target.ts';

export { expect } from '@playwright/test';

/** Prefix of every permanent token the suite creates, so leftovers can be found (`permanent revoke --prefix`). */
export const TOKEN_NAME_PREFIX = 'contract-test';

/**
 * Test details of a *contract rule*: behaviour `docs/contract.md` states. Its
 * failure fails the run. Titles start with the clause id too.
 *
 * @param id the clause, a heading of `docs/contract.md`, e.g. `4.1 rule 1`
 * @param tags extra tags, e.g. `@sandbox`
 * @returns details for `test(title, details, body)`
 */
export function clause(id: string, ...tags: string[]): TestDetails {
  return {
    annotation: [{ type: 'clause', description: `auth-contract ${id}` }, { type: 'kind', description: 'rule' }],
    tag: tags,
  };
}

/**
 * Test details of a *strictness probe*: behaviour the contract implies but
 * does not state (a missing field refused, duplicates, error codes). Its
 * findings are warnings (see {@link finding}); the run fails on them only
 * with `SLICER_CONTRACT_STRICT=1`.
 *
 * @param id the clause it relates to
 * @param why what the contract leaves open, for the annotation
 * @returns details for `test(title, details, body)`
 */
export function probe(id: string, why: string): TestDetails {
  return {
    annotation: [
      { type: 'clause', description: `auth-contract ${id}` },
      { type: 'kind', description: 'probe' },
      { type: 'probe', description: why },
    ],
  };
}

/** Whether probe findings fail the run (`SLICER_CONTRACT_STRICT=1`). */
export const STRICT = readToolSettings().contractStrict;

/**
 * Records what a probe found: nothing when the service behaves as expected,
 * else a `warning` annotation (and a console line); with STRICT, a failure.
 *
 * @param expected whether the service did what the probe expects
 * @param what the finding, e.g. `a request without scope was answered with a token`
 */
export function finding(expected: boolean, what: string): void {
  if (expected) return;
  test.info().annotations.push({ type: 'warning', description: what });
  console.warn(`[contract probe] ${test.info().title}: ${what}`);
  if (STRICT) throw new Error(`Strictness probe (SLICER_CONTRACT_STRICT=1): ${what}`);
}

/**
 * Names what a rule's test covers, for the compliance report (contract
 * rules hold for a class of requests: every member is checked).
 *
 * @param members e.g. `slicer service`, `header`, `multipart body`
 */
export function covers(...members: string[]): void {
  for (const member of members) test.info().annotations.push({ type: 'covers', description: member });
}

/** The two services of the contract. */
export type Service = 'slicer' | 'predict';

/** How a call presents its token: header, post argument (form or multipart body), a raw Authorization value, or nothing. */
export type Presentation =
  | { header: string }
  | { post: string; encoding?: 'form' | 'multipart' }
  | { rawAuthorization: string }
  | undefined;

/** What a call answered. */
export interface Answer {
  readonly status: number;
  readonly text: string;
  readonly contentType: string;
}

/**
 * Calls the services and the token endpoint, keeping every password and token
 * out of error messages and annotations (Playwright's call logs list request
 * headers and bodies).
 */
export class ContractApi {
  readonly #request: APIRequestContext;
  readonly #secrets = new Set<string>();
  readonly target: Target;

  /**
   * @param request Playwright's request context
   * @param target the service under test
   */
  constructor(request: APIRequestContext, target: Target) {
    this.#request = request;
    this.target = target;
    this.#secrets.add(target.password);
  }

  /** Replaces every known secret in a text. */
  redact(text: string): string {
    return redact(text, this.#secrets);
  }

  /** Registers a value to redact from now on. */
  secret(value: string): string {
    this.#secrets.add(value);
    return value;
  }

  async #answer(send: () => Promise<APIResponse>): Promise<Answer> {
    let response: APIResponse;
    try {
      response = await send();
    } catch (error) {
      throw new Error(this.redact((error as Error).message));
    }
    return { status: response.status(), text: await response.text(), contentType: response.headers()['content-type'] ?? '' };
  }

  /** The scope value of a service (contract 4.1). */
  scope(service: Service): string {
    const id = service === 'slicer' ? this.target.serviceId : this.target.predictServiceId;
    if (!id) throw new Error('SLICER_PREDICT_SERVICE_ID is not set');
    return `service_id=${id}`;
  }

  /** The documented request fields for a valid grant. */
  goodGrant(service: Service = 'slicer'): Record<string, string> {
    return { grant_type: 'password', username: this.target.username, password: this.target.password, scope: this.scope(service) };
  }

  /**
   * POSTs form fields to `{auth_url}/oauth2/token/` with the content type set explicitly (4.1).
   * @param fields the form fields; undefined ones are left out
   */
  grant(fields: Record<string, string | undefined>): Promise<Answer> {
    const form = new URLSearchParams(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined));
    return this.grantBody(form.toString(), 'application/x-www-form-urlencoded');
  }

  /**
   * POSTs a raw body to the token endpoint (probes: duplicates, JSON).
   * @param body the body as sent
   * @param contentType its content type
   */
  grantBody(body: string, contentType: string): Promise<Answer> {
    return this.#answer(() =>
      this.#request.post(`${this.target.authUrl}/oauth2/token/`, {
        data: body,
        headers: { 'content-type': contentType },
        failOnStatusCode: false,
      })
    );
  }

  /**
   * Gets a temporary token for a service, registered as a secret.
   * @throws Error (redacted) when no token is issued
   */
  async issue(service: Service = 'slicer'): Promise<string> {
    const answer = await this.grant(this.goodGrant(service));
    const token = answer.status === 200 ? (JSON.parse(answer.text) as { access_token?: unknown }).access_token : undefined;
    if (typeof token !== 'string' || !token) {
      throw new Error(`No token issued for ${service}: ${answer.status} ${this.redact(answer.text).slice(0, 200)}`);
    }
    return this.secret(token);
  }

  /** Base URL of a service, if configured. */
  baseUrl(service: Service): string | undefined {
    return service === 'slicer' ? this.target.baseUrl : this.target.predictBaseUrl;
  }

  /**
   * Calls a service at the probe path with a token presented one way.
   * @param service which service
   * @param presentation header, post argument, a raw Authorization value, or nothing
   */
  call(service: Service, presentation: Presentation): Promise<Answer> {
    const url = `${this.baseUrl(service)}/${this.target.probePath}`;
    if (presentation && 'post' in presentation) {
      const body = presentation.encoding === 'multipart'
        ? { multipart: { token: presentation.post } }
        : { form: { token: presentation.post } };
      return this.#answer(() => this.#request.post(url, { ...body, failOnStatusCode: false }));
    }
    const headers: Record<string, string> = {};
    if (presentation && 'header' in presentation) headers.authorization = `Bearer ${presentation.header}`;
    if (presentation && 'rawAuthorization' in presentation) headers.authorization = presentation.rawAuthorization;
    return this.#answer(() => this.#request.get(url, { headers, failOnStatusCode: false }));
  }
}

/** True for an answer that refuses access (contract 5.1 gives no status; 401 and 403 are the HTTP ways). */
export function refused(answer: Answer): boolean {
  return answer.status === 401 || answer.status === 403;
}

/** The sandbox's test controls. */
export class SandboxControls {
  readonly #url: string;
  readonly #request: APIRequestContext;

  /**
   * @param request Playwright's request context
   * @param url base URL of the controls
   */
  constructor(request: APIRequestContext, url: string) {
    this.#request = request;
    this.#url = url;
  }

  async #post(path: string, data: unknown): Promise<unknown> {
    const response = await this.#request.post(`${this.#url}/${path}`, { data });
    if (!response.ok()) throw new Error(`Test control ${path} failed: ${response.status()} ${await response.text()}`);
    return response.json();
  }

  /** Moves the sandbox clock forward. */
  async advance(seconds: number): Promise<void> {
    await this.#post('clock', { advanceSeconds: seconds });
  }

  /** Creates a fresh user. */
  async newUser(): Promise<{ username: string; password: string }> {
    return (await this.#post('users', {})) as { username: string; password: string };
  }
}

/** Tracks the permanent tokens a test creates. */
export interface PermanentTokens {
  /** A unique, recognisable token name for this test. */
  name(label: string): string;
}

interface Fixtures {
  api: ContractApi;
  controls: SandboxControls | undefined;
  tokensPage: TokensPage;
  permanentTokens: PermanentTokens;
}

/** The suite's `test`, with its fixtures. */
export const test = base.extend<Fixtures, { target: Target }>({
  target: [
    // deno-lint-ignore no-empty-pattern
    async ({}, use) => {
      await use(loadTarget());
    },
    { scope: 'worker' },
  ],
  api: async ({ request, target }, use) => {
    await use(new ContractApi(request, target));
  },
  controls: async ({ request, target }, use) => {
    await use(target.controlsUrl ? new SandboxControls(request, target.controlsUrl) : undefined);
  },
  page: async ({ page }, use, testInfo) => {
    await use(page);
    // Playwright's own failure screenshot cannot mask; this one covers token values and password fields.
    if (testInfo.status !== testInfo.expectedStatus && !page.isClosed()) {
      const mask = [page.locator(`[${SECRET_ATTRIBUTE}]`), page.locator('input[type=password]')];
      const shot = await page.screenshot({ fullPage: true, mask }).catch(() => undefined);
      if (shot) await testInfo.attach('screenshot on failure (secrets masked)', { body: shot, contentType: 'image/png' });
    }
  },
  tokensPage: async ({ page, target }, use) => {
    await use(new TokensPage(page, target.authUrl, { username: target.username, password: target.password }));
  },
  permanentTokens: async ({ context, target }, use, testInfo) => {
    const created: string[] = [];
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    await use({
      name(label) {
        // Unique across shards (each machine of a sharded run creates its own tokens) and tests.
        const shard = testInfo.config.shard ? `s${testInfo.config.shard.current}of${testInfo.config.shard.total} ` : '';
        const name = `${TOKEN_NAME_PREFIX} ${stamp} ${shard}${testInfo.testId.slice(0, 6)} ${label}`;
        created.push(name);
        return name;
      },
    });
    if (created.length === 0) return;
    // Teardown runs when the test failed too: revoke whatever it left active.
    const page = await context.newPage();
    const tokens = new TokensPage(page, target.authUrl, { username: target.username, password: target.password });
    await tokens.open();
    for (const entry of await tokens.list()) {
      if (created.includes(entry.name) && !entry.revoked) await tokens.revoke(entry.name, true);
    }
    await page.close();
  },
});
