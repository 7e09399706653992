/**
 * Docs that follow the code: every file or folder of the repository that the
 * README, SECURITY.md, the benchmark's notes and `docs/` name in code spans
 * (`src/request/request_engine.ts`, `src/settings/{config,scope_target}.ts`,
 * `.github/workflows/*.yml`) is there, so that moving a file leaves no doc
 * pointing at where it was.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { test } from 'node:test';

const DOCS = [
  'README.md',
  'SECURITY.md',
  'bench/README.md',
  ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
];

/** A repository path at the start of a code span. */
const PATH = /`((?:src|contract-tests|scripts|bench|type-tests|docs|\.github)\/[^`\s]*)/g;

/**
 * The paths a written path stands for: `a/{b,c}.ts` is `a/b.ts` and `a/c.ts`.
 *
 * @param written the path as the doc writes it
 * @returns each path it names
 */
export function expand(written: string): string[] {
  const brace = /\{([^{}]*)\}/.exec(written);
  if (!brace) return [written];
  return brace[1]!.split(',').flatMap((part) => expand(written.replace(brace[0], part)));
}

/** Whether a path is there: a glob's folder holds a file it matches. */
function present(path: string): boolean {
  if (!path.includes('*')) return existsSync(path);
  const pattern = new RegExp(`^${path.split('/').pop()!.replace(/\./g, '\\.').replace(/\*/g, '[^/]*')}$`);
  return existsSync(dirname(path)) && readdirSync(dirname(path)).some((file) => pattern.test(file));
}

test('a path in braces stands for each of its parts', () => {
  assert.deepEqual(expand('src/{a,b_c}.ts'), ['src/a.ts', 'src/b_c.ts']);
  assert.deepEqual(expand('src/x/'), ['src/x/']);
});

test('every repository path the docs name is there', () => {
  const named = DOCS.flatMap((doc) =>
    [...readFileSync(doc, 'utf8').matchAll(PATH)].flatMap((match) =>
      expand(match[1]!.replace(/[.,:;)]+$/, '')).map((path) => ({ doc, path }))
    )
  );
  assert.ok(new Set(named.map((n) => n.path)).size >= 30, `${named.length} paths read: the pattern finds them`);
  assert.deepEqual(named.filter((n) => !present(n.path)).map((n) => `${n.doc}: ${n.path}`), []);
});
