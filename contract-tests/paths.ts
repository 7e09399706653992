/** Where the suite keeps its files (all git-ignored). */
import { join } from 'node:path';
import { readToolSettings } from '../src/settings/tool_settings.ts';

const settings = readToolSettings();

/**
 * The browser login the `setup` project saves for a run, sealed (`saved_login.ts`) and removed at the run's end; one
 * file per run, so that runs side by side keep their own.
 *
 * @param runId the run (`SLICER_CONTRACT_RUN_ID`)
 * @returns the file
 */
export const savedLoginPath = (runId: string): string => join('.auth', `ui-state-${runId}.json`);

/** Where an earlier version kept its saved login, in clear, its owner noted beside it (`.meta.json`). */
export const EARLIER_LOGIN = join('.auth', 'ui-state.json');

/** Reports folder: HTML report, JUnit file, failure artifacts. */
export const REPORTS = settings.contractReports;
