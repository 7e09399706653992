/** The sandbox's test controls, as the suite drives them (absent on live targets). */
import type { APIRequestContext } from '@playwright/test';

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
