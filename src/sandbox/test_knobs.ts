/**
 * The sandbox's test-mode knobs: faults the token endpoint plays, the
 * lifetime of new tokens, and deliberate contract violations, so the
 * contract suite can show that it catches each one.
 */

/** Lifetime of a temporary token, contract 5.2 / 8. */
export const TOKEN_LIFETIME_SECONDS = 3600;

/** Deliberate contract violations, settable only in test mode. */
export const VIOLATIONS = [
  /** expires_in sent as a JSON number instead of the documented string. */
  'numeric-expires-in',
  /** token_type other than Bearer. */
  'wrong-token-type',
  /** The response names another scope than the one requested. */
  'wrong-scope-echo',
  /** The same access token is returned on every call. */
  'reused-token',
  /** Tokens work for both services whatever their scope. */
  'scope-ignored',
  /** The `token` post argument is not accepted. */
  'post-token-ignored',
  /** Temporary tokens never expire. */
  'no-expiry',
  /** Revoking a permanent token does not stop it working. */
  'revoke-noop',
  /** A JSON body is accepted by the token endpoint (a probe finding, not a rule violation). */
  'json-accepted',
  /** A request without scope gets a slicing-service token (a probe finding, as some real servers do). */
  'default-scope',
  /** The token endpoint sends its JSON answers as `text/plain` (a probe finding: the contract documents the body only). */
  'answer-typed-text',
  /** A wrong password is answered with a token (4.1: a token comes from a user's password). */
  'token-for-wrong-password',
  /** "Copy token value" copies the value the page shows without its last character (5.3 creating step 8). */
  'copy-mismatch',
  /** The token endpoint refuses the form content type with a charset parameter (4.1 rule 2: a form real clients send). */
  'form-charset-refused',
  /** The token endpoint needs grant_type as the first field (4.1 rule 2: form fields have no order). */
  'form-order-sensitive',
  /** The token endpoint does not decode percent-encoded letters and digits (4.1 rule 2: a valid form encoding). */
  'form-percent-undecoded',
  /** An empty password is accepted for an existing user (4.1 request fields: a degenerate credential). */
  'empty-password-accepted',
  /** A password with one character too many is accepted (4.1 request fields: a near-miss of the password). */
  'password-extension-accepted',
  /** A token that differs from a valid one only at its end, or by one character more or less, is accepted (5.1 rule 2). */
  'token-end-ignored',
  /** A very long token makes the service fail with a 500 instead of refusing it (5.1 rule 2). */
  'long-token-500',
  /** The token post argument is read only when it is the body's only field (5.1 rule 2: a form real clients send). */
  'post-token-alone-only',
  /** The UI takes a scope that differs from a service id in its last character (5.3 creating step 7: a near-miss). */
  'scope-near-miss-accepted',
  /** A permanent token created with several scopes is valid for the first only (5.3 creating step 6). */
  'multi-scope-first-only',
  /** Revoke revokes the user's newest active permanent token, whichever was chosen (5.3 revoking steps 1-3). */
  'revoke-newest',
  /** The list shows names with every non-ASCII character replaced by "?" (5.3 creating step 5). */
  'name-mangled',
] as const;

/** One of {@link VIOLATIONS}. */
export type Violation = (typeof VIOLATIONS)[number];

/** Where a fault plays: the token endpoint, or the web UI's Revoke (the request that revokes a permanent token). */
export const FAULT_PLACES = ['token', 'revoke'] as const;

/** One of {@link FAULT_PLACES}. */
export type FaultPlace = (typeof FAULT_PLACES)[number];

/** A fault the token endpoint (or the UI's Revoke) plays instead of (or before) its normal answer. */
export interface Fault {
  /** Where it plays: the token endpoint unless given. */
  at?: FaultPlace | undefined;
  /** Status to answer with; without it the normal answer follows the delay (at the Revoke, 503). */
  status?: number | undefined;
  /** Delay before answering, ms. */
  delayMs?: number | undefined;
  /** Raw body to answer with. */
  body?: string | undefined;
  /** Content type of that body. */
  contentType?: string | undefined;
  /** Extra headers, e.g. `Retry-After`. */
  headers?: Record<string, string> | undefined;
  /** How many requests it applies to. */
  times: number;
}

/** The knobs. */
export interface TestKnobs {
  /** Takes the next fault queued for a place (the token endpoint unless given), if any. */
  takeFault(at?: FaultPlace): Fault | undefined;
  /** Queues a fault for its place. */
  addFault(fault: Fault): void;
  /** The lifetime of tokens issued from now on, seconds. */
  lifetimeSeconds(): number;
  /** Sets that lifetime. */
  setLifetime(seconds: number): void;
  /** Switches on exactly these contract violations. */
  setViolations(names: readonly Violation[]): void;
  /** Whether a violation is on. */
  violates(name: Violation): boolean;
  /** No fault, the documented lifetime, no violation. */
  reset(): void;
}

/** @returns knobs at their defaults */
export function createTestKnobs(): TestKnobs {
  const faults: Fault[] = [];
  const violations = new Set<Violation>();
  let lifetime = TOKEN_LIFETIME_SECONDS;
  return {
    takeFault(at = 'token') {
      const index = faults.findIndex((fault) => (fault.at ?? 'token') === at);
      const fault = faults[index];
      if (!fault) return undefined;
      if (--fault.times <= 0) faults.splice(index, 1);
      return fault;
    },
    addFault: (fault) => void faults.push(fault),
    lifetimeSeconds: () => lifetime,
    setLifetime(seconds) {
      lifetime = seconds;
    },
    setViolations(names) {
      violations.clear();
      for (const name of names) violations.add(name);
    },
    violates: (name) => violations.has(name),
    reset() {
      faults.length = 0;
      violations.clear();
      lifetime = TOKEN_LIFETIME_SECONDS;
    },
  };
}
