/**
 * The boundary table of the contract suite: for each documented input, the
 * values the suite tries — the documented one, the forms real clients send,
 * degenerate and hostile values, and near-misses of every secret — with what
 * each must give. One row is one test; a row that cannot be checked on a
 * live service says why, and the compliance report shows that reason.
 * `docs/contract.md` lists the rows (`npm run docs:boundaries`).
 */
import type { Boundary } from './boundary.ts';
import { CREDENTIALS, REQUEST_FORMS } from './boundaries_request.ts';
import { TOKEN_WAYS } from './boundaries_token.ts';
import { UI_ROWS } from './boundaries_ui.ts';

/** Every row, for the documents and the report. */
export const BOUNDARIES: readonly Boundary[] = [...REQUEST_FORMS, ...CREDENTIALS, ...TOKEN_WAYS, ...UI_ROWS];
