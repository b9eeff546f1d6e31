import { readFileSync } from 'fs';
import path from 'path';
import ts from 'typescript';
import { PERSON } from '../../shared/session/caller';
import { openHarness } from './harness';

/**
 * MemoryEngine is a small facade: it opens, watches, flushes and closes the vault, reports on itself and
 * opens sessions; the work is its services' (`engine.services`). A new capability goes on a service (and
 * on the session's rooms for front doors), not on the engine. Read from the source, so `private` members
 * (which exist at run time too) are told apart from public ones.
 */
const MAX_PUBLIC = 15;
const ENGINE_FILE = path.resolve(__dirname, '../../shared/engine.ts');

function isPrivate(m: ts.ClassElement): boolean {
  if (m.name && ts.isPrivateIdentifier(m.name)) return true;
  const mods = ts.canHaveModifiers(m) ? (ts.getModifiers(m) ?? []) : [];
  return mods.some((x) => x.kind === ts.SyntaxKind.PrivateKeyword || x.kind === ts.SyntaxKind.ProtectedKeyword);
}

/** MemoryEngine's public members, static ones included (a getter/setter pair counts once). */
function publicMembers(): string[] {
  const source = ts.createSourceFile(ENGINE_FILE, readFileSync(ENGINE_FILE, 'utf8'), ts.ScriptTarget.Latest, true);
  const cls = source.statements.find((s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === 'MemoryEngine');
  if (!cls) throw new Error('class MemoryEngine not found in shared/engine.ts');
  const names = new Set<string>();
  for (const m of cls.members) {
    if (ts.isConstructorDeclaration(m) || ts.isClassStaticBlockDeclaration(m) || ts.isIndexSignatureDeclaration(m) || isPrivate(m)) continue;
    names.add(m.name ? m.name.getText(source) : '(unnamed)');
  }
  return [...names];
}

describe('MemoryEngine, the facade', () => {
  test(`has at most ${MAX_PUBLIC} public members`, () => {
    const members = publicMembers();
    expect(members.length <= MAX_PUBLIC ? 'small enough' : `${members.length} public members (at most ${MAX_PUBLIC}): ${members.join(', ')}`).toBe('small enough');
  });

  test('the members counted are the ones an opened engine has: lifecycle, reports, services and sessions', async () => {
    const members = publicMembers();
    expect(members).toEqual(expect.arrayContaining(['open', 'as', 'services', 'reconcile', 'flush', 'close']));
    const h = await openHarness({ 'a.md': '# A\nalpha\n' });
    try {
      const engine = h.engine as unknown as Record<string, unknown>;
      const statics = h.engine.constructor as unknown as Record<string, unknown>;
      for (const name of members) expect([name, engine[name] !== undefined || statics[name] !== undefined]).toEqual([name, true]);
      await h.engine.reconcile();
      const memory = await h.engine.as(PERSON);
      expect(memory.notes.get('a.md')?.path).toBe('a.md');
      expect(h.engine.services.notes.note('a.md')?.path).toBe('a.md');
    } finally {
      await h.engine.close();
    }
  });
});
