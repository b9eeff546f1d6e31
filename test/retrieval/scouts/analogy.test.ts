import { agentViewer } from '../../../shared/governance/gate';
import { analogyScout } from '../../../shared/retrieval/scouts/analogy';
import { buildSignature, describeSignature, signatureOf, stem } from '../../../shared/retrieval/scouts/analogy-signature';
import type { ScoutHit, ScoutInput } from '../../../shared/retrieval/types';
import { MemoryCorpus, twinScoutInput, type TwinNote, type TwinScoutInputOptions } from '../../twins/memory-corpus';

function md(lines: string[]): string {
  return lines.join('\n');
}

function postmortem(problem: string, action: string, outcome: string, lesson: string): string {
  return md(['## Problem', `- ${problem}`, '## Actions', `- ${action}`, '## Outcome', `- ${outcome}`, '## Lessons', `- ${lesson}`]);
}

/** The seed: a database postmortem about a race fixed with a lock. */
const DB_POSTMORTEM: TwinNote = {
  id: 'db-race',
  title: 'Orders DB race on totals',
  namespace: 'project/db',
  entities: ['postgres', 'orders-db'],
  tags: ['db', 'postmortem'],
  body: postmortem(
    'Race condition between two writers corrupted the order total',
    'Fixed the race by adding a lock around the read-modify-write',
    'No corrupted totals since the lock shipped',
    'Shared state updated by concurrent writers needs a lock',
  ),
};

/** Same structure and pattern, other subject: the analogy we want first. */
const UI_POSTMORTEM: TwinNote = {
  id: 'ui-race',
  title: 'Cart badge flicker',
  namespace: 'project/ui',
  entities: ['react', 'cart-badge'],
  tags: ['ui', 'postmortem'],
  body: postmortem(
    'Race condition between two renders corrupted the badge count',
    'Fixed the race by adding a mutex around the state update',
    'No corrupted counts since the mutex shipped',
    'Shared state updated by concurrent renders needs a mutex',
  ),
};

/** Same subject as the seed, partly the same words, but the shape of a runbook, not a postmortem. */
const DB_RUNBOOK: TwinNote = {
  id: 'db-runbook',
  title: 'Orders DB vacuum runbook',
  namespace: 'project/db',
  entities: ['postgres'],
  tags: ['db'],
  body: md(['## Context', '- Autovacuum falls behind on the order tables', '## Steps', '- Take an advisory lock, then run vacuum on the order total table']),
};

/** A near-duplicate of the seed on the same subject: not an analogy. */
const DB_DUPLICATE: TwinNote = {
  id: 'db-race-copy',
  title: 'Race on order totals (draft)',
  namespace: 'project/db',
  entities: ['postgres', 'orders-db'],
  tags: ['db', 'postmortem'],
  body: DB_POSTMORTEM.body,
};

/** Structured, other subject, nothing in common. */
const PLANNING: TwinNote = {
  id: 'q3-plan',
  title: 'Q3 planning',
  namespace: 'team/planning',
  entities: ['roadmap'],
  tags: ['planning'],
  body: md(['## Goal', '- Agree the quarterly priorities with the product team', '## Steps', '- Collect proposals', '- Vote on themes']),
};

/** Lexically close to the seed but without any structure: no frame, never an analogy. */
const DB_PROSE: TwinNote = {
  id: 'db-prose',
  title: 'Thoughts on locking',
  namespace: 'project/db',
  entities: ['postgres'],
  body: 'A race condition between writers can corrupt totals; a lock around the read-modify-write fixes the race.',
};

/** Would be a fine analogy, but private to the person: an agent must never see it. */
const PRIVATE_ANALOGY: TwinNote = {
  ...UI_POSTMORTEM,
  id: 'private-race',
  title: 'Home router race',
  namespace: 'personal/home',
  entities: ['router'],
  tags: ['home', 'postmortem'],
  access_scope: 'user_private',
};

const ALL = [DB_POSTMORTEM, UI_POSTMORTEM, DB_RUNBOOK, DB_DUPLICATE, PLANNING, DB_PROSE, PRIVATE_ANALOGY];

function seed(id: string, score = 1): ScoutHit {
  return { id, score, reasons: ['wave 1'] };
}

async function run(corpus: MemoryCorpus, o: TwinScoutInputOptions = {}): Promise<ScoutHit[]> {
  return analogyScout.run(twinScoutInput(corpus, { seeds: [seed('db-race')], viewer: agentViewer('agent-1'), ...o }));
}

describe('analogy scout', () => {
  test('is a wave-2 scout named analogy', () => {
    expect(analogyScout.name).toBe('analogy');
    expect(analogyScout.wave).toBe(2);
  });

  test('ranks the same pattern on another subject first, the same subject far below, and leaves out near-duplicates, unstructured and unrelated notes', async () => {
    const hits = await run(new MemoryCorpus(ALL));
    expect(hits.map((h) => h.id)).toEqual(['ui-race', 'db-runbook']);
    expect(hits[0].score).toBe(1);
    expect(hits[1].score).toBeLessThan(0.5);
    expect(hits[0].reasons).toEqual([
      'analogy to "Orders DB race on totals": problem+actions+outcome+lessons match ("corrupted", "race", "condition"), both #postmortem, different subject (project/db vs project/ui)',
    ]);
    expect(hits[1].reasons[0]).toMatch(/^analogy to "Orders DB race on totals": .*related subject \(shares "db", "postgres"\)$/);
  });

  test('a gated note never appears, and its frame is not even read: the gate is asked first', async () => {
    const corpus = new RecordingCorpus(ALL);
    const input = twinScoutInput(corpus, { seeds: [seed('db-race')], viewer: agentViewer('agent-1') });
    const asked: string[] = [];
    const gated: ScoutInput = {
      ...input,
      visible: (id) => {
        asked.push(id);
        return input.visible(id);
      },
    };
    corpus.beforeFrame = (id) => expect(asked).toContain(id);
    const hits = await analogyScout.run(gated);
    expect(hits.map((h) => h.id)).not.toContain('private-race');
    expect(corpus.framesRead).not.toContain('private-race');

    // The person sees it, and it is as good an analogy as the UI note.
    const human = await analogyScout.run(twinScoutInput(new MemoryCorpus(ALL), { seeds: [seed('db-race')] }));
    expect(human.map((h) => h.id)).toContain('private-race');
  });

  test('a note hidden by the namespace filter never appears', async () => {
    const hits = await run(new MemoryCorpus(ALL), { namespaces: ['project/db'] });
    expect(hits.map((h) => h.id)).toEqual(['db-runbook']);
  });

  test('the seeds themselves are never returned', async () => {
    const hits = await run(new MemoryCorpus(ALL), { seeds: [seed('db-race'), seed('ui-race', 0.9)] });
    const ids = hits.map((h) => h.id);
    expect(ids).not.toContain('db-race');
    expect(ids).not.toContain('ui-race');
  });

  test('a candidate keeps the seed it resembles most, and the reason names that seed', async () => {
    const hits = await run(new MemoryCorpus(ALL), { seeds: [seed('q3-plan'), seed('db-race', 0.5)], viewer: undefined });
    const ui = hits.find((h) => h.id === 'ui-race');
    expect(ui?.reasons[0]).toContain('analogy to "Orders DB race on totals"');
  });

  test('nothing to compare: empty corpus, no seeds, seeds without frames, gated seeds, limit 0', async () => {
    expect(await run(new MemoryCorpus([]))).toEqual([]);
    expect(await run(new MemoryCorpus(ALL), { seeds: [] })).toEqual([]);
    expect(await run(new MemoryCorpus(ALL), { seeds: [seed('db-prose')] })).toEqual([]);
    expect(await run(new MemoryCorpus(ALL), { seeds: [seed('missing')] })).toEqual([]);
    expect(await run(new MemoryCorpus(ALL), { hidden: ['db-race'] })).toEqual([]);
    expect(await run(new MemoryCorpus(ALL), { limit: 0 })).toEqual([]);
    expect(await run(new MemoryCorpus([DB_POSTMORTEM]))).toEqual([]);
  });

  test('scores are in [0,1], best first, at most limit hits', async () => {
    const many: TwinNote[] = [DB_POSTMORTEM];
    for (let i = 0; i < 30; i++) {
      many.push({
        id: `n${String(i).padStart(2, '0')}`,
        title: `Incident ${i}`,
        namespace: `project/p${i}`,
        entities: [`service-${i}`],
        tags: i % 2 === 0 ? ['postmortem'] : [],
        body: postmortem(
          i % 3 === 0 ? 'Race condition between two jobs' : 'Disk filled up overnight',
          i % 5 === 0 ? 'Added a lock' : 'Rotated the logs',
          'Stable since',
          'Watch shared state',
        ),
      });
    }
    const hits = await run(new MemoryCorpus(many), { limit: 7 });
    expect(hits).toHaveLength(7);
    expect(hits[0].score).toBe(1);
    for (let i = 0; i < hits.length; i++) {
      expect(hits[i].score).toBeGreaterThan(0);
      expect(hits[i].score).toBeLessThanOrEqual(1);
      if (i > 0) expect(hits[i].score).toBeLessThanOrEqual(hits[i - 1].score);
    }
    // Lock and race together beat either alone.
    expect(hits[0].id).toBe('n00');
  });

  test('deterministic: the same corpus in any order gives the same hits', async () => {
    const a = await run(new MemoryCorpus(ALL));
    const b = await run(new MemoryCorpus([...ALL].reverse()));
    expect(b).toEqual(a);
    expect(await run(new MemoryCorpus(ALL))).toEqual(a);
  });

  test('frames are extracted once per note version; an edited note is seen as edited', async () => {
    const corpus = new MemoryCorpus(ALL);
    await run(corpus);
    const first = corpus.extractions;
    await run(corpus);
    expect(corpus.extractions).toBe(first);

    corpus.update({ ...UI_POSTMORTEM, body: md(['## Problem', '- The printer jammed', '## Fix', '- Cleared the tray']) });
    const hits = await run(corpus);
    expect(hits.map((h) => h.id)).not.toContain('ui-race');
  });
});

describe('frame signatures', () => {
  const note = new MemoryCorpus([UI_POSTMORTEM]);
  const ui = note.note('ui-race');
  const frame = note.frame('ui-race');
  if (!ui || !frame) throw new Error('fixture has no frame');

  test('subject words (title, entities, namespace, subject tags) are taken out; pattern words stay even in the title', () => {
    const sig = describeSignature(buildSignature({ ...ui, title: 'Race in the cart badge', entities: ['state'] }, frame));
    expect(sig.terms.problem).toEqual(['race', 'condition', 'render', 'corrupt', 'count']);
    expect(sig.terms.actions).toContain('mutex');
    expect(Object.values(sig.terms).flat()).not.toContain(stem('badge'));
    expect(Object.values(sig.terms).flat()).not.toContain('state');
    expect(sig.tags).toEqual(['#postmortem']);
    expect(sig.subject).toEqual(['state', 'ui']);
  });

  test('slot shape: which slots have phrases', () => {
    expect(describeSignature(buildSignature(ui, frame)).filled).toEqual(['problem', 'actions', 'outcome', 'lessons']);
  });

  test('cached per frame object, rebuilt when the note\'s subject fields change', () => {
    const a = signatureOf(ui, frame);
    expect(signatureOf({ ...ui }, frame)).toBe(a);
    expect(signatureOf({ ...ui, tags: ['ui', 'postmortem', 'mobile'] }, frame)).not.toBe(a);
  });

  test('stem folds common suffixes so wordings meet', () => {
    expect(['fixed', 'fixes', 'fixing', 'fix'].map(stem)).toEqual(['fix', 'fix', 'fix', 'fix']);
    expect(['locks', 'locked', 'locking'].map(stem)).toEqual(['lock', 'lock', 'lock']);
    expect(['cache', 'cached', 'caching'].map(stem)).toEqual(['cach', 'cach', 'cach']);
    expect(['retries', 'retry'].map(stem)).toEqual(['retry', 'retry']);
    expect(stem('über')).toBe('über');
  });
});

/** The twin, recording which frames a scout reads (a test hook, not a mock: every answer is the twin's own). */
class RecordingCorpus extends MemoryCorpus {
  framesRead: string[] = [];
  beforeFrame: (id: string) => void = () => undefined;

  override frame(id: string): ReturnType<MemoryCorpus['frame']> {
    this.beforeFrame(id);
    this.framesRead.push(id);
    return super.frame(id);
  }
}
