import { PanelChanges, panelContext, panelSettings } from '../../plugin/panel-context';
import type { PanelChange } from '../../plugin/panels';
import { HumanTools } from '../../plugin/panels/human-tools';
import { defaultSettings } from '../../plugin/settings';
import type { Logger } from '../../shared/ports';

function recordingLogger(): Logger & { errors: string[] } {
  const errors: string[] = [];
  return { errors, debug: () => undefined, info: () => undefined, warn: () => undefined, error: (m) => void errors.push(m) };
}

describe('how the panels reach the plugin', () => {
  test('a panel that throws on a change is logged; the other panels still hear of it', () => {
    const logger = recordingLogger();
    const changes = new PanelChanges(logger);
    const heard: PanelChange[] = [];
    changes.subscribe(() => {
      throw new Error('view detached');
    });
    changes.subscribe((what) => void heard.push(what));
    changes.emit('index');
    expect(heard).toEqual(['index']);
    expect(logger.errors).toEqual(['a panel failed to follow a change']);
  });

  test('a closed panel hears nothing more, even when it closes while hearing of a change', () => {
    const changes = new PanelChanges(recordingLogger());
    const heard: string[] = [];
    const stopA = changes.subscribe((what) => {
      heard.push(`a:${what}`);
      stopA();
    });
    changes.subscribe((what) => void heard.push(`b:${what}`));
    changes.emit('engine');
    changes.emit('settings');
    expect(heard).toEqual(['a:engine', 'b:engine', 'b:settings']);
    changes.clear();
    changes.emit('index');
    expect(heard).toHaveLength(3);
  });

  test('the Retrieve panel\'s defaults come from Settings → Retrieval, in the engine\'s terms', () => {
    const s = defaultSettings();
    s.retrieval = { maxNodes: 25, defaultIntent: 'explore', defaultClass: null };
    expect(panelSettings(s)).toEqual({ retrieval: { max_nodes: 25, default_query_class: undefined, default_intent: 'explore' } });
  });

  test('in safe mode the panels say how to leave it; otherwise why the engine failed to open, or nothing while it opens', () => {
    let safe = true;
    const session = { memory: null, error: 'the index is damaged' as string | null, now: () => 0 };
    const tools = new HumanTools({ call: () => Promise.reject(new Error('no tools in this spec')) });
    const ctx = panelContext({ session: () => session, tools, settings: defaultSettings, changes: new PanelChanges(recordingLogger()), safeMode: () => safe });
    expect(ctx.engineError?.()).toBe('Lithos is in safe mode: run "Leave safe mode" to open the memory.');
    safe = false;
    expect(ctx.engineError?.()).toBe('the index is damaged');
    session.error = null;
    expect(ctx.engineError?.()).toBeNull();
  });
});
