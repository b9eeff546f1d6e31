/**
 * A text setting whose change has side effects (a restarted bridge, an audited policy write) is saved when
 * the edit is committed, not at every keystroke: Obsidian's onChange fires on each `input`, so typing port
 * 8080 would first try 8, 80 and 808, and a folder list would be written and audited once per letter. The
 * DOM's `change` event fires on Enter (inputs) or when the field loses focus after an edit.
 */
export function onCommit(field: { inputEl: HTMLInputElement | HTMLTextAreaElement }, save: (value: string) => unknown): void {
  // The DOM drops the listener's result; returned anyway so a test double of the field can await the save.
  field.inputEl.addEventListener('change', () => save(field.inputEl.value));
}

/** Shows `problem` on the field as it is typed (or clears it), so a bad value is flagged before it is committed. */
export function flag(field: { inputEl: HTMLInputElement | HTMLTextAreaElement }, problem: string | null): void {
  field.inputEl.setCustomValidity(problem ?? '');
  if (problem) field.inputEl.reportValidity();
}
