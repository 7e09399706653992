/**
 * The suite's HTTP helper: calls the token endpoint and the services with a
 * token presented each documented way, keeping every password and token out
 * of error messages (Playwright's call logs list headers and bodies), and
 * waiting out a rate limit (`rate_limit.ts`).
 */
import type { APIRequestContext, APIResponse } from '@playwright/test';
import { RATE_LIMIT_MS, rateLimitWait } from './rate_limit.ts';
import { accessTokenIn } from './token_answer.ts';
import { type Clock, systemClock } from '../src/clock.ts';
import { redact } from '../src/redact.ts';
import { DEFAULT_SERVICE, type Service as ServiceRow, type ServiceName, serviceNamed } from '../src/settings/services.ts';
import type { Target } from './target.ts';

/** A service of the contract, by its name in the services table. */
export type Service = ServiceName;

/**
 * The services table's row of a service.
 *
 * @param service its name
 * @returns the row: its identifier's and base URL's settings
 */
function rowOf(service: Service): ServiceRow {
  const row = serviceNamed(service);
  if (!row) throw new Error(`No service is named "${service}" in the services table`);
  return row;
}

/**
 * How a call presents its token: header, post argument (form or multipart body), a raw Authorization value, a raw
 * posted body with its content type, or nothing.
 */
export type Presentation =
  | { header: string }
  | { post: string; encoding?: 'form' | 'multipart' }
  | { rawAuthorization: string }
  | { postBody: string; contentType: string }
  | undefined;

/** What a call answered. */
export interface Answer {
  readonly status: number;
  readonly text: string;
  readonly contentType: string;
}

/** How the API helper waits out a rate limit. */
export interface Pacing {
  /** The clock it waits on. */
  readonly clock: Clock;
  /** Told of each wait before it starts (the fixture extends the test's time limit by it and notes it). */
  readonly onWait?: (ms: number, status: number) => void;
}

/**
 * Calls the services and the token endpoint, keeping every password and token
 * out of error messages and annotations (Playwright's call logs list request
 * headers and bodies).
 */
export class ContractApi {
  readonly #request: APIRequestContext;
  readonly #secrets = new Set<string>();
  readonly #pacing: Pacing;
  readonly target: Target;

  /**
   * @param request Playwright's request context
   * @param target the service under test
   * @param pacing the clock a rate limit is waited out on
   */
  constructor(request: APIRequestContext, target: Target, pacing: Pacing = { clock: systemClock }) {
    this.#request = request;
    this.target = target;
    this.#pacing = pacing;
    this.#secrets.add(target.password);
  }

  /** Replaces every known secret in a text. */
  redact(text: string): string {
    return redact(text, this.#secrets);
  }

  /** @returns every value registered so far (the password, tokens received or read) */
  secrets(): readonly string[] {
    return [...this.#secrets];
  }

  /** Registers a value to redact from now on. */
  secret(value: string): string {
    this.#secrets.add(value);
    return value;
  }

  /**
   * Sends, again after the wait a rate limit asks for, and registers any token the answer carries before anyone can
   * report it: a probe answered with a token (a wrong password that got one) must not put that token into an
   * annotation, a message or a report.
   * @param where what is called, for the error when the rate limit does not pass
   * @param send sends the request
   * @throws Error when the answers still say to wait after {@link RATE_LIMIT_MS}
   */
  async #answer(where: string, send: () => Promise<APIResponse>): Promise<Answer> {
    const { clock, onWait } = this.#pacing;
    let response: APIResponse;
    for (let attempt = 0, waited = 0;; attempt++) {
      try {
        response = await send();
      } catch (error) {
        throw new Error(this.redact((error as Error).message));
      }
      const wait = rateLimitWait(response.status(), response.headers()['retry-after'], attempt, clock.wallNow());
      if (wait === undefined) break;
      if (waited + wait > RATE_LIMIT_MS) {
        const asked = `and asks for ${Math.ceil(wait / 1000)} s more`;
        throw new Error(
          `${where} still answers ${response.status()} (rate limited) after ${waited / 1000} s of waiting, ${asked}: the check ` +
            'was not made. Raise the rate limit for the test account, or run fewer workers or shards at once',
        );
      }
      onWait?.(wait, response.status());
      await clock.sleep(wait);
      waited += wait;
    }
    const text = await response.text();
    this.#registerTokens(text);
    return { status: response.status(), text, contentType: response.headers()['content-type'] ?? '' };
  }

  /** Registers the `access_token` of a JSON answer (contract 4.1), whatever the status. */
  #registerTokens(text: string): void {
    const token = accessTokenIn(text);
    if (typeof token === 'string' && token !== '') this.secret(token);
  }

  /** The scope value of a service (contract 4.1). */
  scope(service: Service): string {
    const { id } = rowOf(service);
    const value = this.target[id.option];
    if (!value) throw new Error(`${id.env} is not set`);
    return `service_id=${value}`;
  }

  /** The documented request fields for a valid grant. */
  goodGrant(service: Service = DEFAULT_SERVICE.name): Record<string, string> {
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
    return this.#answer('The token endpoint', () =>
      this.#request.post(`${this.target.authUrl}/oauth2/token/`, {
        data: body,
        headers: { 'content-type': contentType },
        failOnStatusCode: false,
      }));
  }

  /**
   * Gets a temporary token for a service (registered as a secret on arrival).
   * @throws Error (redacted) when no token is issued
   */
  async issue(service: Service = DEFAULT_SERVICE.name): Promise<string> {
    const answer = await this.grant(this.goodGrant(service));
    const token = answer.status === 200 ? accessTokenIn(answer.text) : undefined;
    if (typeof token !== 'string' || !token) {
      throw new Error(`No token issued for ${service}: ${answer.status} ${this.redact(answer.text).slice(0, 200)}`);
    }
    return token;
  }

  /** Base URL of a service, if configured. */
  baseUrl(service: Service): string | undefined {
    return this.target[rowOf(service).baseUrl.option];
  }

  /**
   * Calls a service at the probe path with a token presented one way.
   * @param service which service
   * @param presentation header, post argument, a raw Authorization value, or nothing
   */
  call(service: Service, presentation: Presentation): Promise<Answer> {
    const url = `${this.baseUrl(service)}/${this.target.probePath}`;
    const where = `The ${service} service`;
    if (presentation && 'postBody' in presentation) {
      const { postBody, contentType } = presentation;
      return this.#answer(
        where,
        () => this.#request.post(url, { data: postBody, headers: { 'content-type': contentType }, failOnStatusCode: false }),
      );
    }
    if (presentation && 'post' in presentation) {
      const body = presentation.encoding === 'multipart'
        ? { multipart: { token: presentation.post } }
        : { form: { token: presentation.post } };
      return this.#answer(where, () => this.#request.post(url, { ...body, failOnStatusCode: false }));
    }
    const headers: Record<string, string> = {};
    if (presentation && 'header' in presentation) headers.authorization = `Bearer ${presentation.header}`;
    if (presentation && 'rawAuthorization' in presentation) headers.authorization = presentation.rawAuthorization;
    return this.#answer(where, () => this.#request.get(url, { headers, failOnStatusCode: false }));
  }
}

/** True for an answer that refuses access (contract 5.1 gives no status; 401 and 403 are the HTTP ways). */
export function refused(answer: Answer): boolean {
  return answer.status === 401 || answer.status === 403;
}
