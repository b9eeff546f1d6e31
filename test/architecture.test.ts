import { builtinModules } from 'module';
import { readdirSync, readFileSync } from 'fs';
import path from 'path';
import ts from 'typescript';

/**
 * The layering rules, checked on the source text:
 * - shared/ is host-free: no obsidian, electron, ws, Node built-ins, and nothing outside shared/;
 * - plugin/ and bridge/ never import each other: each may reach into shared/ and itself only;
 * - bridge/ never imports obsidian (a types-only package: it would fail at run time in Node);
 * - inside shared/, a file imports only its own layer and lower ones (SHARED_LAYERS), and no files import
 *   each other in a cycle. Type-only imports count for both: a type cycle still ties the files together.
 * ESLint's no-restricted-imports repeats the host-free shared/ rule in the editor; the layer order and the
 * cycle check live here only. This test is the gate.
 */

const ROOT = path.resolve(__dirname, '..');
const LAYERS = ['shared', 'plugin', 'bridge'] as const;
type Layer = (typeof LAYERS)[number];

const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const HOST_PACKAGES = new Set(['obsidian', 'electron', 'ws']);

/** Local layers each layer may import from. */
const MAY_IMPORT: Record<Layer, Layer[]> = { shared: ['shared'], plugin: ['plugin', 'shared'], bridge: ['bridge', 'shared'] };

/**
 * The layers inside shared/, lowest first: the one place their order is written (docs/architecture.md
 * describes each). A file may import its own layer and the layers before it. A string is a folder; a list
 * holds root files: first the base every layer may use, last the composition, which may import anything.
 */
const SHARED_LAYERS: readonly (string | readonly string[])[] = [
  ['errors.ts', 'ports.ts'],
  'model',
  'stores',
  'replica',
  'index',
  'coordination',
  'governance',
  'vault',
  'ledger',
  'retrieval',
  'learning',
  'conflicts',
  'session',
  'tools',
  'protocol',
  ['engine.ts', 'engine-config.ts', 'engine-deps.ts', 'engine-services.ts'],
];

interface ImportSite {
  specifier: string;
  line: number;
}

/**
 * Every module specifier in a source file: `import … from`, `import '…'`, `import type`,
 * `export … from`, `import('…')` and `require('…')`. TypeScript's own pre-processor does the
 * scanning, so comments and string contents never count as imports.
 */
function importsOf(source: string): ImportSite[] {
  const { importedFiles } = ts.preProcessFile(source, true, true);
  const lineOf = (pos: number): number => source.slice(0, pos).split('\n').length;
  return importedFiles.map((f) => ({ specifier: f.fileName, line: lineOf(f.pos) }));
}

/** `node:fs/promises` → `node:fs/promises`; `ws/lib/x` → `ws`; `@scope/pkg/x` → `@scope/pkg`. */
function packageOf(specifier: string): string {
  if (specifier.startsWith('node:')) return specifier;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Rule breaches in one file (repo-relative, '/'-separated), each as `file:line: message`. */
function violations(file: string, source: string): string[] {
  const layer = file.split('/')[0] as Layer;
  if (!LAYERS.includes(layer)) return [];
  const out: string[] = [];
  for (const { specifier, line } of importsOf(source)) {
    const where = `${file}:${line}`;
    if (specifier.startsWith('.')) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      const targetLayer = target.split('/')[0];
      if (target.startsWith('..') || !MAY_IMPORT[layer].includes(targetLayer as Layer)) {
        out.push(`${where}: ${layer}/ may not import "${specifier}" (resolves to ${target}; ${layer}/ may import ${MAY_IMPORT[layer].join('/ and ')}/ only)`);
      }
      continue;
    }
    const pkg = packageOf(specifier);
    if (layer === 'shared' && (NODE_BUILTINS.has(pkg) || NODE_BUILTINS.has(specifier) || specifier.startsWith('node:'))) {
      out.push(`${where}: shared/ may not import the Node built-in "${specifier}" (use a port from shared/ports.ts)`);
    } else if (layer === 'shared' && HOST_PACKAGES.has(pkg)) {
      out.push(`${where}: shared/ may not import "${specifier}" (host-specific; use a port from shared/ports.ts)`);
    } else if (layer === 'bridge' && pkg === 'obsidian') {
      out.push(`${where}: bridge/ may not import "obsidian" (types-only package, absent at run time in Node)`);
    }
  }
  return out;
}

/** Where a shared/ path sits in SHARED_LAYERS (its index), or -1. `shared/vault/x` → vault; `shared/engine` → engine.ts. */
function sharedLayerOf(target: string): number {
  const [, first, ...rest] = target.split('/');
  if (rest.length > 0 || SHARED_LAYERS.includes(first)) return SHARED_LAYERS.indexOf(first);
  const name = /\.ts$/.test(first) ? first : `${first}.ts`;
  return SHARED_LAYERS.findIndex((l) => typeof l !== 'string' && l.includes(name));
}

const layerName = (i: number): string => {
  const l = SHARED_LAYERS[i];
  return typeof l === 'string' ? `${l}/` : l.join(', ');
};

/** Imports in a shared/ file of a layer above its own, each as `file:line: message` (composition files exempt). */
function sharedLayerViolations(file: string, source: string): string[] {
  const own = sharedLayerOf(file);
  if (own === -1) return [`${file}: ${file.split('/')[1]} has no place in SHARED_LAYERS (test/architecture.test.ts): add it`];
  if (own === SHARED_LAYERS.length - 1) return [];
  const out: string[] = [];
  for (const { specifier, line } of importsOf(source)) {
    if (!specifier.startsWith('.')) continue;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
    if (!target.startsWith('shared/')) continue; // leaving shared/ is the top-level rule's to report
    const layer = sharedLayerOf(target);
    if (layer === -1) out.push(`${file}:${line}: "${specifier}" resolves to ${target}, which has no place in SHARED_LAYERS`);
    else if (layer > own) {
      out.push(`${file}:${line}: ${layerName(own)} may not import "${specifier}" (resolves to ${target}, whose layer (${layerName(layer)}) is above ${layerName(own)} in SHARED_LAYERS)`);
    }
  }
  return out;
}

/** Each file's imports among `files` (relative specifiers resolved as TypeScript does: x.ts, then x/index.ts). */
function importGraph(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, source] of files) {
    const targets = importsOf(source)
      .filter((i) => i.specifier.startsWith('.'))
      .map((i) => path.posix.normalize(path.posix.join(path.posix.dirname(file), i.specifier)))
      .flatMap((t) => [`${t}.ts`, `${t}/index.ts`, t].find((c) => files.has(c)) ?? []);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * Every import cycle, as the sorted list of the files tied together (a strongly connected component of
 * more than one file, or a file importing itself), found with Tarjan's algorithm.
 */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(entry.name)) out.push(rel);
  }
  return out;
}

describe('architecture', () => {
  const files = LAYERS.flatMap((l) => sourceFiles(l));

  test('the scan sees the source tree', () => {
    expect(files).toContain('shared/ports.ts');
    expect(files.filter((f) => f.startsWith('shared/')).length).toBeGreaterThan(5);
  });

  test.each(LAYERS)('%s/ imports only what its layer allows', (layer) => {
    const found = files.filter((f) => f.startsWith(`${layer}/`)).flatMap((f) => violations(f, readFileSync(path.join(ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });

  describe('inside shared/, the layers of SHARED_LAYERS', () => {
    const shared = new Map(files.filter((f) => f.startsWith('shared/') && f.endsWith('.ts')).map((f) => [f, readFileSync(path.join(ROOT, f), 'utf8')]));
    test('each file imports only its own layer and lower ones', () => {
      expect([...shared].flatMap(([f, src]) => sharedLayerViolations(f, src))).toEqual([]);
    });

    test('no files import each other in a cycle (type-only imports included)', () => {
      expect(importCycles(importGraph(shared))).toEqual([]);
    });

    test('every folder and root file of shared/ has its place', () => {
      const places = [...new Set([...shared.keys()].map((f) => f.split('/')[1]))];
      expect(places.filter((p) => sharedLayerOf(`shared/${p}`) === -1)).toEqual([]);
    });
  });

  describe('the checker itself catches violations', () => {
    const synthetic = [
      "import { Plugin } from 'obsidian';", // 1
      "import type { WebSocket } from 'ws';", // 2
      "import { readFile } from 'fs/promises';", // 3
      "const crypto = require('node:crypto');", // 4
      "export { x } from '../../plugin/main';", // 5
      "const m = await import('../../bridge/cli');", // 6
      "import { ipcRenderer } from 'electron';", // 7
      "import os from 'os';", // 8
      "// import path from 'path'  <- a comment, not an import", // 9
      "const s = \"require('child_process')\"; // a string, not an import", // 10
      "import { fine } from '../model/types';", // 11 (shared/model/types)
      "import { alsoFine } from 'yaml';", // 12
    ].join('\n');

    test('in shared/, with file:line for each', () => {
      const found = violations('shared/index/x.ts', synthetic);
      expect(found.map((v) => v.split(':')[1])).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
      expect(found[0]).toMatch(/^shared\/index\/x\.ts:1: .*"obsidian"/);
      expect(found[4]).toContain('resolves to plugin/main');
      expect(found[5]).toContain('resolves to bridge/cli');
    });

    test('an import climbing out of shared/ into plugin/', () => {
      expect(violations('shared/engine.ts', "import x from '../plugin/main';")).toEqual([
        'shared/engine.ts:1: shared/ may not import "../plugin/main" (resolves to plugin/main; shared/ may import shared/ only)',
      ]);
    });

    test('plugin/ and bridge/ may not import each other, but both may use shared/', () => {
      expect(violations('plugin/main.ts', "import { cli } from '../bridge/cli';\nimport { e } from '../shared/engine';")).toHaveLength(1);
      expect(violations('bridge/cli.ts', "import p from '../plugin/main';\nimport { e } from '../shared/engine';\nimport fs from 'node:fs';")).toHaveLength(1);
      expect(violations('bridge/commands/x.ts', "import { App } from 'obsidian';")).toEqual([
        'bridge/commands/x.ts:1: bridge/ may not import "obsidian" (types-only package, absent at run time in Node)',
      ]);
    });

    test('inside shared/, an import of a higher layer, type-only too, with file:line', () => {
      const source = [
        "import { LithosError } from '../errors';", // 1 base
        "import { parseNote } from '../model/note';", // 2 lower
        "import type { LiveNote } from './note-indexer';", // 3 own folder
        "import type { Viewer } from '../governance/gate';", // 4 lower
        "import type { Scout } from '../retrieval/scout-contract';", // 5 higher, type-only
        "export { x } from '../tools/catalog';", // 6 higher
        "import type { MemoryEngine } from '../engine';", // 7 composition
      ].join('\n');
      expect(sharedLayerViolations('shared/vault/x.ts', source)).toEqual([
        'shared/vault/x.ts:5: vault/ may not import "../retrieval/scout-contract" (resolves to shared/retrieval/scout-contract, whose layer (retrieval/) is above vault/ in SHARED_LAYERS)',
        'shared/vault/x.ts:6: vault/ may not import "../tools/catalog" (resolves to shared/tools/catalog, whose layer (tools/) is above vault/ in SHARED_LAYERS)',
        'shared/vault/x.ts:7: vault/ may not import "../engine" (resolves to shared/engine, whose layer (engine.ts, engine-config.ts, engine-deps.ts, engine-services.ts) is above vault/ in SHARED_LAYERS)',
      ]);
    });

    test('the base imports nothing above it; the composition may import anything; an unplaced folder is named', () => {
      expect(sharedLayerViolations('shared/ports.ts', "import type { NoteMeta } from './model/types';")).toHaveLength(1);
      expect(sharedLayerViolations('shared/engine.ts', "import { x } from './tools/catalog';\nimport { y } from './protocol';")).toEqual([]);
      expect(sharedLayerViolations('shared/widgets/w.ts', "import { x } from '../model/ids';")).toEqual([
        'shared/widgets/w.ts: widgets has no place in SHARED_LAYERS (test/architecture.test.ts): add it',
      ]);
      expect(sharedLayerViolations('shared/tools/t.ts', "import { w } from '../widgets/w';")[0]).toContain('resolves to shared/widgets/w, which has no place');
    });

    test('an import cycle, type-only included, as its files; a diamond is no cycle', () => {
      const graphOf = (files: Record<string, string>) => importGraph(new Map(Object.entries(files)));
      expect(
        importCycles(graphOf({ 'shared/model/a.ts': "import type { B } from './b';", 'shared/model/b.ts': "import { a } from './a';" })),
      ).toEqual([['shared/model/a.ts', 'shared/model/b.ts']]);
      expect(
        importCycles(
          graphOf({
            'shared/retrieval/types.ts': "import type { ScoutName } from './scouts';",
            'shared/retrieval/scouts/index.ts': "import { lexical } from './lexical';",
            'shared/retrieval/scouts/lexical.ts': "import type { Scout } from '../types';",
            'shared/retrieval/constants.ts': "import type { Intent } from './types';",
          }),
        ),
      ).toEqual([['shared/retrieval/scouts/index.ts', 'shared/retrieval/scouts/lexical.ts', 'shared/retrieval/types.ts']]);
      const diamond = { 'shared/a.ts': "import './b';\nimport './c';", 'shared/b.ts': "import './d';", 'shared/c.ts': "import './d';", 'shared/d.ts': '' };
      expect(importCycles(graphOf(diamond))).toEqual([]);
      expect(importCycles(graphOf({ 'shared/self.ts': "export * from './self';" }))).toEqual([['shared/self.ts']]);
    });
  });
});
