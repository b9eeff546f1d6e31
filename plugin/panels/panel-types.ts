/** View type ids of the side panels (stable: Obsidian stores them in the workspace layout). */
export const PANEL_TYPES = {
  noteMemory: 'lithos-note-memory',
  retrieve: 'lithos-retrieve',
  conflicts: 'lithos-conflicts',
  receipts: 'lithos-receipts',
  agents: 'lithos-agents',
  proposals: 'lithos-proposals',
} as const;

export type PanelType = (typeof PANEL_TYPES)[keyof typeof PANEL_TYPES];
