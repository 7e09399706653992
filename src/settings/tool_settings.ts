/**
 * The second half of the settings table: the variables of the tools around
 * the client — the contract suite, the sandbox, the browser of the
 * permanent-token commands. Same shape as `SETTINGS` (variable, schema with
 * default, doc), read the same way (environment, then `.env`), documented by
 * the same generator; they are not client options.
 */
import { accessSync, constants, statSync } from 'node:fs';
import * as v from 'valibot';
import { describeSource, readEnv, type ReadEnvOptions } from './env.ts';
import { ConfigError, type ConfigIssue } from '../errors.ts';
import { nearestThere } from '../folders.ts';
import { flag, message, path, text } from './setting_schemas.ts';
import { setting } from './settings.ts';

/** Every tool setting, keyed by name. */
export const TOOL_SETTINGS = {
  contractTarget: setting({
    env: 'SLICER_CONTRACT_TARGET',
    defaults: '`sandbox`',
    schema: v.optional(v.picklist(['sandbox', 'live'] as const, message('expected "sandbox" or "live"')), 'sandbox'),
    doc: 'What the contract suite checks: sandbox (embedded, ignores live URLs) or live (the configured service; never falls back).',
  }),
  contractRunId: setting({
    env: 'SLICER_CONTRACT_RUN_ID',
    defaults: 'start time and a random suffix',
    schema: v.optional(v.pipe(text, v.regex(/^[\w.-]{1,64}$/, message('expected 1-64 letters, digits, ".", "_" or "-"')))),
    doc:
      'Id of a contract run, carried by the name of every permanent token it creates (only that run, or a sweep of old runs, revokes them).',
  }),
  contractSeed: setting({
    env: 'SLICER_CONTRACT_SEED',
    defaults: 'drawn at random, printed in the report',
    schema: v.optional(v.pipe(text, v.transform(Number), v.safeInteger(message('expected a whole number')))),
    doc: "Seed of the contract suite's generated values (token names): the compliance report prints it, and setting it replays a run.",
  }),
  contractStrict: setting({
    env: 'SLICER_CONTRACT_STRICT',
    defaults: 'off',
    schema: v.optional(flag, 'false'),
    doc: 'Set to 1 to fail the contract suite on strictness probes (behaviour the contract does not state), not only warn.',
  }),
  contractSlow: setting({
    env: 'SLICER_CONTRACT_SLOW',
    defaults: 'off',
    schema: v.optional(flag, 'false'),
    doc: 'Set to 1 to run the 3600 s clauses against a live service in real time (over an hour).',
  }),
  contractTrace: setting({
    env: 'SLICER_CONTRACT_TRACE',
    defaults: '`off`',
    schema: v.optional(v.picklist(['off', 'retain-on-failure'] as const, message('expected "off" or "retain-on-failure"')), 'off'),
    doc: 'Playwright traces of the contract suite: off, or retain-on-failure (they record secrets: disposable accounts only).',
  }),
  contractReports: setting({
    env: 'SLICER_CONTRACT_REPORTS',
    defaults: '`reports/contract`',
    schema: v.optional(
      v.pipe(
        path,
        v.rawCheck(({ dataset, addIssue }) => {
          const file = dataset.typed ? fileInTheWay(dataset.value) : undefined;
          if (file) addIssue({ message: `${file} is a file, where the reports need a folder: name a folder (made when missing)` });
        }),
      ),
      'reports/contract',
    ),
    doc: "Folder of the contract suite's reports (HTML, JUnit, compliance, blobs, artifacts).",
  }),
  contractProbePath: setting({
    env: 'SLICER_CONTRACT_PROBE_PATH',
    defaults: 'the base URL itself',
    schema: v.optional(v.pipe(text, v.transform((value) => value.replace(/^\/+/, ''))), ''),
    doc: 'Path under each service base URL that the contract suite calls with tokens.',
  }),
  uiStorageState: setting({
    env: 'SLICER_UI_STORAGE_STATE',
    defaults: 'a login by the suite',
    schema: v.optional(v.pipe(
      path,
      v.rawCheck(({ dataset, addIssue }) => {
        const why = dataset.typed ? unreadable(dataset.value) : undefined;
        if (why) {
          addIssue({
            message: `cannot read ${dataset.value} (${why}): save the browser's logged-in state there (Playwright's storageState), ` +
              'or unset it to log in with the password',
          });
        }
      }),
    )),
    doc: 'A saved browser login (Playwright storage state) for the UI, e.g. after single sign-on; used as it is.',
  }),
  chromiumPath: setting({
    env: 'SLICER_CHROMIUM_PATH',
    defaults: '`chromium` on PATH',
    schema: v.optional(path),
    doc: 'The Chromium executable the UI tests and the permanent-token commands launch.',
  }),
  sandboxUiVariant: setting({
    env: 'SLICER_SANDBOX_UI_VARIANT',
    defaults: '`0`',
    schema: v.optional(
      v.pipe(v.picklist(['0', '1', '2', '3', '4', '5', '6'], message('expected 0, 1, 2, 3, 4, 5 or 6')), v.transform(Number)),
      '0',
    ),
    doc: "Serve one of the sandbox's alternative UIs (1-6, test mode), to check that the suite relies only on the contract.",
  }),
  sandboxViolations: setting({
    env: 'SLICER_SANDBOX_VIOLATIONS',
    defaults: 'none',
    schema: v.optional(v.pipe(v.string(), v.transform((value) => value.split(',').map((s) => s.trim()).filter(Boolean))), ''),
    doc: "Comma-separated contract violations the suite's own tests turn on in the sandbox.",
  }),
} as const;

/**
 * Why a file cannot be read, asked without opening it: its error code (ENOENT, EACCES), or that it is not a file.
 *
 * @param path the file
 * @returns the reason, or undefined when it is a file this process may read
 */
function unreadable(path: string): string | undefined {
  try {
    const stats = statSync(path);
    if (!stats.isFile()) return 'not a file';
    accessSync(path, constants.R_OK);
    return undefined;
  } catch (error) {
    // Stryker disable next-line StringLiteral: fs errors carry a code; the words are for one that would not
    return (error as { code?: string }).code ?? 'unreadable';
  }
}

/**
 * The file that keeps a folder from being made at `path`: the path itself, or the first of its parents that is there.
 *
 * @param path the folder
 * @returns that file, or undefined when the folder is there or its nearest parent there is a folder
 */
function fileInTheWay(path: string): string | undefined {
  const at = nearestThere(path);
  return statSync(at).isDirectory() ? undefined : at;
}

/** A name of {@link TOOL_SETTINGS}. */
export type ToolSettingName = keyof typeof TOOL_SETTINGS;

/** Every tool variable. */
const TOOL_ENV_KEYS = Object.values(TOOL_SETTINGS).map((s) => s.env);

const ToolSettingsSchema = v.object(
  Object.fromEntries(Object.entries(TOOL_SETTINGS).map(([name, s]) => [name, s.schema])) as unknown as {
    readonly [K in ToolSettingName]: (typeof TOOL_SETTINGS)[K]['schema'];
  },
);

/** Validated tool settings (inferred from the table). */
export type ToolSettings = v.InferOutput<typeof ToolSettingsSchema>;

/**
 * Reads and validates the tool settings.
 *
 * @param options where to read from (environment, `.env`), as for the client
 * @returns every tool setting, defaults filled in
 * @throws {ConfigError} `CONFIG_INVALID` naming each malformed variable and its source
 */
export function readToolSettings(options: ReadEnvOptions = {}): ToolSettings {
  const found = readEnv(options, TOOL_ENV_KEYS);
  const names = Object.keys(TOOL_SETTINGS) as ToolSettingName[];
  const raw = Object.fromEntries(names.flatMap((name) => {
    const value = found[TOOL_SETTINGS[name].env]?.value;
    return value === undefined ? [] : [[name, value]];
  }));
  const result = v.safeParse(ToolSettingsSchema, raw);
  if (result.success) return result.output;
  const issues: ConfigIssue[] = result.issues.map((issue) => {
    const name = issue.path?.[0]?.key as ToolSettingName;
    const source = found[TOOL_SETTINGS[name].env]?.source;
    return { key: TOOL_SETTINGS[name].env, message: issue.message, source: source && describeSource(source) };
  });
  throw new ConfigError(issues, 'read the tool settings');
}
