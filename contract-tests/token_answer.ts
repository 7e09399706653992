/**
 * Reading a token endpoint's answer (contract 4.1): the token it carries, and
 * how its fields differ from the documented ones, each difference worded with
 * what the answer has.
 */
import { DOCUMENTED_EXPIRES_IN } from '../src/schemas.ts';

/**
 * The `access_token` of an answer's JSON body, whatever its status and content type.
 *
 * @param text the answer's body
 * @returns the field as the body has it, of any type; undefined when the body is no JSON object or has no such field
 */
export function accessTokenIn(text: string): unknown {
  try {
    return (JSON.parse(text) as { access_token?: unknown } | null)?.access_token;
  } catch {
    return undefined;
  }
}

/** A field's value as a report shows it: JSON, at most 80 characters; "left out" when the answer has none. */
function shown(value: unknown): string {
  if (value === undefined) return 'left out';
  const json = JSON.stringify(value);
  return json.length > 80 ? `${json.slice(0, 79)}…` : json;
}

/** How `expires_in` differs from the documented string `"3600"`: nothing, or one sentence naming what it is. */
function expiresInDrift(value: unknown): string[] {
  if (value === DOCUMENTED_EXPIRES_IN) return [];
  const documented = `documented as a string holding seconds ("${DOCUMENTED_EXPIRES_IN}")`;
  if (value === undefined) return [`expires_in is left out, ${documented}`];
  if (typeof value !== 'string') {
    const got = value === null ? 'null' : `a JSON ${typeof value} (${shown(value)})`;
    return [`expires_in drifted from the documented type: ${documented}, got ${got}`];
  }
  return [`expires_in is ${shown(value)}, ${documented}`];
}

/**
 * How a token answer's documented fields differ from 4.1 rule 1: `token_type` `Bearer`, the requested `scope`, and
 * `expires_in` the string `"3600"`. Every difference is listed, so that one run names all the drift at once.
 *
 * @param body the answer's JSON object
 * @param scope the scope requested
 * @returns one sentence per field that differs, naming what the answer has; empty when none differs
 */
export function documentedDrift(body: Record<string, unknown>, scope: string): string[] {
  return [
    ...(body.token_type === 'Bearer' ? [] : [`token_type is ${shown(body.token_type)}, documented "Bearer"`]),
    ...(body.scope === scope ? [] : [`scope is ${shown(body.scope)}, documented as the requested scope "${scope}"`]),
    ...expiresInDrift(body.expires_in),
  ];
}
