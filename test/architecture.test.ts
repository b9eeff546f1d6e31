import { builtinModules } from 'module';
import { readdirSync, readFileSync } from 'fs';
import path from 'path';
import ts from 'typescript';

/**
 * The layering rules, checked on the source text:
 * - shared/ is host-free: no obsidian, electron, ws, Node built-ins, and nothing outside shared/;
 * - plugin/ and bridge/ never import each other: each may reach into shared/ and itself only;
 * - bridge/ never imports obsidian (a types-only package: it would fail at run time in Node).
 * ESLint's no-restricted-imports repeats the shared/ rule in the editor; this test is the gate.
 */

const ROOT = path.resolve(__dirname, '..');
const LAYERS = ['shared', 'plugin', 'bridge'] as const;
type Layer = (typeof LAYERS)[number];

const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const HOST_PACKAGES = new Set(['obsidian', 'electron', 'ws']);

/** Local layers each layer may import from. */
const MAY_IMPORT: Record<Layer, Layer[]> = { shared: ['shared'], plugin: ['plugin', 'shared'], bridge: ['bridge', 'shared'] };

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
  });
});
