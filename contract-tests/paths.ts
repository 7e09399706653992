/**
 * Where the suite keeps its files (all git-ignored) and how long a saved
 * browser login is trusted.
 */
import { readToolSettings } from '../src/tool_settings.ts';

const settings = readToolSettings();

/** The browser's saved login, unless `SLICER_UI_STORAGE_STATE` names one. */
export const STORAGE_STATE = settings.uiStorageState ?? '.auth/ui-state.json';

/** A saved login older than a token's lifetime is redone. */
export const STORAGE_STATE_MAX_AGE_MS = 3600_000;

/** Reports folder: HTML report, JUnit file, failure artifacts. */
export const REPORTS = settings.contractReports;
