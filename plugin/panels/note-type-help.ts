import type { NoteType } from '../../shared/model/types';

/** One line per note type, shown in the note-type picker. */
export const NOTE_TYPE_HELP: Record<NoteType, string> = {
  observation: 'Something seen or measured (the default)',
  agent_finding: 'What an agent found while working on a task',
  summary: 'A digest of other notes',
  concept: 'An idea several notes are examples of',
  task_record: 'A task: what was asked and what was done',
  hypothesis: 'A claim not yet confirmed',
  decision: 'What was decided about a target, and why',
  claim: 'A statement with the evidence for or against it',
  workflow: 'How something is done: context, trigger, method',
  construct: 'A construct of the code (module, API…), alive, dead or evolved',
};
