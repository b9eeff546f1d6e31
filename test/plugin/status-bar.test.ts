import { bridgeStatusText, StatusBar, statusText, type StatusElement } from '../../plugin/status-bar';

/** Just the standard DOM surface StatusBar touches. */
class FakeElement implements StatusElement {
  textContent: string | null = null;
  readonly classes = new Set<string>();
  readonly attrs = new Map<string, string>();
  readonly classList = {
    add: (...tokens: string[]): void => tokens.forEach((t) => this.classes.add(t)),
    toggle: (token: string, force?: boolean): boolean => {
      const on = force ?? !this.classes.has(token);
      if (on) this.classes.add(token);
      else this.classes.delete(token);
      return on;
    },
  };
  setAttribute(name: string, value: string): void {
    this.attrs.set(name, value);
  }
  removeAttribute(name: string): void {
    this.attrs.delete(name);
  }
}

describe('status bar', () => {
  test('wording for each state', () => {
    expect(statusText({ state: 'starting' })).toBe('Lithos: starting…');
    expect(statusText({ state: 'progress', phase: 'index', done: 3, total: 120 })).toBe('Lithos: indexing 3/120');
    expect(statusText({ state: 'progress', phase: 'scan', done: 0, total: 7 })).toBe('Lithos: scanning 0/7');
    expect(statusText({ state: 'progress', phase: 'load', done: 5, total: 5 })).toBe('Lithos: loading 5/5');
    expect(statusText({ state: 'ready', notes: 1 })).toBe('Lithos: ready · 1 note');
    expect(statusText({ state: 'ready', notes: 1342 })).toBe('Lithos: ready · 1342 notes');
    expect(statusText({ state: 'error', message: 'disk full' })).toBe('Lithos: error');
    expect(statusText({ state: 'stale', notes: 12 })).toBe('Lithos: updating · 12 notes');
    expect(statusText({ state: 'safe' })).toBe('Lithos: safe mode');
  });

  test('bridge wording', () => {
    expect(bridgeStatusText({ kind: 'off' })).toBe('Bridge: off');
    expect(bridgeStatusText({ kind: 'unsupported', reason: 'mobile' })).toBe('Bridge: desktop only');
    expect(bridgeStatusText({ kind: 'listening', port: 27183, agents: [] })).toBe('Bridge: :27183 · 0 agents');
    expect(bridgeStatusText({ kind: 'listening', port: 27183, agents: ['coder'] })).toBe('Bridge: :27183 · 1 agent');
    expect(bridgeStatusText({ kind: 'error', message: 'EADDRINUSE' })).toBe('Bridge: error');
  });

  test('an error shows its message on hover and styles the item; recovering clears both', () => {
    const el = new FakeElement();
    const bar = new StatusBar(el);
    expect(el.classes.has('lithos-status')).toBe(true);

    bar.show({ state: 'progress', phase: 'index', done: 1, total: 2 });
    expect(el.classes.has('is-indexing')).toBe(true);

    bar.show({ state: 'error', message: 'Lithos could not open its memory: store_corrupt' });
    expect(el.textContent).toBe('Lithos: error');
    expect(el.attrs.get('aria-label')).toBe('Lithos could not open its memory: store_corrupt');
    expect(el.classes.has('is-error')).toBe(true);
    expect(el.classes.has('is-indexing')).toBe(false);

    bar.show({ state: 'ready', notes: 2 });
    expect(el.textContent).toBe('Lithos: ready · 2 notes');
    expect(el.attrs.has('aria-label')).toBe(false);
    expect(el.classes.has('is-error')).toBe(false);
  });

  test("while the memory is ready, hovering says whose learning was merged last; an error's reason comes first", () => {
    const el = new FakeElement();
    const bar = new StatusBar(el);
    bar.showDevices('Learning from Obsidian on iPhone merged 2 min ago'); // before any status: kept for later
    bar.show({ state: 'progress', phase: 'scan', done: 1, total: 2 });
    expect(el.attrs.has('aria-label')).toBe(false);
    bar.show({ state: 'ready', notes: 2 });
    expect(el.attrs.get('aria-label')).toBe('Learning from Obsidian on iPhone merged 2 min ago');
    bar.showDevices('Learning from Obsidian on iPhone merged 3 min ago');
    expect(el.attrs.get('aria-label')).toBe('Learning from Obsidian on iPhone merged 3 min ago');
    expect(el.textContent).toBe('Lithos: ready · 2 notes');
    bar.show({ state: 'stale', notes: 3 });
    expect(el.attrs.get('aria-label')).toBe('Learning from Obsidian on iPhone merged 3 min ago');
    bar.show({ state: 'error', message: 'disk full' });
    expect(el.attrs.get('aria-label')).toBe('disk full');
    bar.show({ state: 'ready', notes: 3 });
    bar.showDevices(null);
    expect(el.attrs.has('aria-label')).toBe(false);
  });
});
