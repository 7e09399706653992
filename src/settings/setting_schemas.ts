/**
 * The valibot schemas of the settings tables (`settings.ts`, `tool_settings.ts`):
 * each takes a value's string form (environment, `.env`, or an option
 * converted with `String()`) and normalises it. Messages are fixed text: a
 * value may be a secret.
 */
import { homedir } from 'node:os';
import * as v from 'valibot';
import { Secret } from '../redact.ts';
import { HEADER_SAFE } from '../schemas.ts';

/** A fixed message: valibot's own would quote the value, which may be a secret. */
export const message = (text: string) => () => text;

/**
 * An http(s) base address. Credentials, a query or a fragment are refused: fetch cannot send a URL with
 * `user:password@`, a path is appended after the base, and whatever they hold would show wherever the URL does.
 */
export const httpUrl = v.pipe(
  v.string(),
  v.trim(),
  v.url(message('expected an http(s) URL such as https://auth.example.com')),
  v.check((value) => /^https?:\/\//i.test(value), message('expected an http(s) URL such as https://auth.example.com')),
  v.check(
    (value) => !/^[a-z]+:\/\/[^/?#]*@/i.test(value),
    message('expected a URL without "user:password@" (credentials in a URL are refused: give them as their own settings)'),
  ),
  v.check((value) => !/[?#]/.test(value), message('expected a base address without "?" query or "#" fragment')),
  v.transform((value) => value.replace(/\/+$/, '')),
);

/**
 * The authorization service's base address: an {@link httpUrl} that is not
 * already its token endpoint, to which the client appends `/oauth2/token/`.
 */
export const authUrl = v.pipe(
  httpUrl,
  v.check(
    (value) => !/\/oauth2\/token$/i.test(value),
    message('expected the base address of the authorization service, without /oauth2/token/ (the client appends it)'),
  ),
);

/** A Redis URL that parses as the URL standard reads it, so the password never lands in a host or path. */
export const redisUrl = v.pipe(
  v.string(),
  v.trim(),
  v.check(
    (value) => /^rediss?:\/\//i.test(value) && URL.canParse(value) && new URL(value).hostname !== '',
    message(
      'expected redis://[user:pass@]host:port/db or rediss://…, with "/", "#", "?" and "@" in the password percent-encoded (%2F, %23, %3F, %40)',
    ),
  ),
  v.transform((value) => new Secret(value)),
);

/** A service identifier as it appears in `service_id=<id>` (contract 4.1). */
export const ServiceIdSchema = v.pipe(
  v.string(),
  v.trim(),
  // The scope value pasted whole: the client writes `service_id=` itself.
  v.check(
    (value) => !/^service_id=/i.test(value),
    message('expected the service identifier alone, without "service_id=" (the client writes the scope)'),
  ),
  v.regex(/^[^\s=&]+$/, message('expected a service identifier without spaces, "=" or "&"')),
);

/** A secret, kept exactly as given, boxed so that it never prints. */
export const secret = v.pipe(v.string(), v.transform((value) => new Secret(value)));

/**
 * A permanent token as pasted from the authorization service's page: trimmed (a line break or space copied with it
 * is no part of it), then one an HTTP header can carry ({@link HEADER_SAFE}), boxed so that it never prints.
 */
export const permanentToken = v.pipe(
  v.string(),
  v.trim(),
  v.regex(
    HEADER_SAFE,
    message('expected a token as the authorization service shows it: no line break or other control character, no character past U+00FF'),
  ),
  v.transform((value) => new Secret(value)),
);

/** Text, trimmed. */
export const text = v.pipe(v.string(), v.trim());

/** Why a path under `~` is refused where the runtime does not tell the home folder. */
// Stryker disable next-line StringLiteral: only Deno refuses the home folder; npm run test:runtimes checks that case
const NO_HOME = 'a path under "~" needs the home folder: run Deno with --allow-sys=homedir, or write the full path';

/**
 * A file or folder path, trimmed, with a leading `~` (alone or before `/`) read as the home folder, as a shell reads
 * it: no shell reads `.env`, where `~/.cache/tokens.json` would otherwise name a folder "~" in the working folder.
 */
export const path = v.pipe(
  text,
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const value = dataset.value;
    if (!value.startsWith('~')) return value;
    if (!/^~(\/|$)/.test(value)) {
      addIssue({ message: 'expected a path; "~name/" is not expanded here: write the full path' });
      return NEVER;
    }
    let home: string | undefined;
    try {
      home = homedir();
    } catch {
      // Deno tells it only with --allow-sys=homedir.
    }
    // Stryker disable next-line all: only under Deno, as above
    if (home === undefined) addIssue({ message: NO_HOME });
    // Stryker disable next-line ConditionalExpression: as above
    return home === undefined ? NEVER : `${home}${value.slice(1)}`;
  }),
);

/** 1/true/yes or 0/false/no, as a boolean. */
export const flag = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.picklist(['1', 'true', 'yes', '0', 'false', 'no'], message('expected 1/true/yes or 0/false/no')),
  v.transform((value) => ['1', 'true', 'yes'].includes(value)),
);

/** A number of seconds, 0 or more. */
export const seconds = v.pipe(
  v.string(),
  v.trim(),
  v.transform(Number),
  v.number(message('expected a number of seconds')),
  v.minValue(0, message('expected a number of seconds, 0 or more')),
);

/** One origin: an http(s) URL with nothing after the host and port but a final slash. */
export const origin = v.pipe(
  v.string(),
  v.url(message('expected origins such as https://storage.example.com, separated by commas')),
  v.check(
    (value) => /^https?:\/\/[^/?#]+\/?$/i.test(value),
    message('expected origins such as https://storage.example.com, without a path'),
  ),
  v.transform((value) => new URL(value).origin),
);

/** Origins separated by commas or spaces, normalised as the URL standard writes them (`https://host[:port]`). */
export const origins = v.pipe(
  v.string(),
  // Stryker disable next-line Regex: splitting at each separator alone leaves empty strings, which the filter drops
  v.transform((value) => value.split(/[\s,]+/).filter(Boolean)),
  v.array(origin),
);

/** How a token travels: `header` or `post` (contract 5.1). */
export const transport = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.picklist(['header', 'post'] as const, message('expected "header" or "post"')),
);
