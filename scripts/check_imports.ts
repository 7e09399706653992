/**
 * Checks the import graph of the production sources (`mod.ts`, `src/`,
 * `contract-tests/`; tests left out): no import circle, and no arrow up the
 * layers of `LAYERS` (`layers.ts`). Imports are read with the TypeScript compiler's own
 * pre-processor (TypeScript 5: TypeScript 7 has no JavaScript API), so
 * `import type`, `export … from` and dynamic `import()` all count as arrows.
 * Exit 1 with every offending arrow listed. Usage: `tsx scripts/check_imports.ts [file or folder …]`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import process from 'node:process';
import ts from 'typescript5';
import { LAYERS } from './layers.ts';

/** Imports the sandbox may not make although they point down: it never uses the client. */
const SANDBOX_MAY_NOT = /^src\/(settings\/(config|scope_target)|stores|token_source|token_cache|request|telemetry|client|default_client)/;

/** What is read, relative to the working directory: the arguments, else the whole product. */
const ROOTS = process.argv.length > 2 ? process.argv.slice(2) : ['mod.ts', 'src', 'contract-tests'];
const TEST = /(_test|\.spec|\.test)\.ts$/;

function sources(root: string): string[] {
  const path = resolve(root);
  if (path.endsWith('.ts')) return [path];
  return (readdirSync(path, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !TEST.test(file) && !file.endsWith('.d.ts'))
    .map((file) => join(path, file));
}

/** The project files a file imports (relative specifiers only). */
function importsOf(file: string, known: Set<string>): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles
    .map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => resolve(dirname(file), specifier))
    .filter((target) => known.has(target));
}

function layerOf(file: string): number {
  return LAYERS.findIndex((layer) => layer.files.test(file));
}

/** Strongly connected components with more than one file (or a self-import): Tarjan's algorithm. */
function circles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.includes(v)) found.push(component);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const files = ROOTS.flatMap(sources);
const known = new Set(files);
const show = (file: string) => relative(process.cwd(), file);
const graph = new Map(files.map((file) => [file, importsOf(file, known)]));
const problems: string[] = [];
for (const component of circles(graph)) problems.push(`import circle: ${component.map(show).join(' ↔ ')}`);
for (const [file, targets] of graph) {
  const from = layerOf(show(file));
  if (from < 0) {
    problems.push(`${show(file)} is in no layer: add it to LAYERS in scripts/check_imports.ts`);
    continue;
  }
  for (const target of targets) {
    const to = layerOf(show(target));
    if (to > from) problems.push(`upward arrow: ${show(file)} (${LAYERS[from]?.name}) imports ${show(target)} (${LAYERS[to]?.name})`);
    if (LAYERS[from]?.name === 'sandbox' && SANDBOX_MAY_NOT.test(show(target))) {
      problems.push(`the sandbox never uses the client: ${show(file)} imports ${show(target)}`);
    }
  }
}
const arrows = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
if (arrows === 0) problems.push('no import found at all: the check read nothing');
for (const problem of problems) console.error(problem);
console.log(`imports: ${files.length} files, ${arrows} arrows, ${problems.length} problems`);
process.exit(problems.length > 0 ? 1 : 0);
