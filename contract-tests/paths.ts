/** Where the suite keeps its files (all git-ignored). */
import { readToolSettings } from '../src/tool_settings.ts';

const settings = readToolSettings();

/** The browser's saved login, sealed (`saved_login.ts`), unless `SLICER_UI_STORAGE_STATE` names one of the user's own. */
export const STORAGE_STATE = settings.uiStorageState ?? '.auth/ui-state.json';

/** Reports folder: HTML report, JUnit file, failure artifacts. */
export const REPORTS = settings.contractReports;
