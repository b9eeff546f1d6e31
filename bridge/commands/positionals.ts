import type { PositionalSpec } from './command';

/** The positional most commands start with. */
export const VAULT: PositionalSpec = { name: 'vault', help: 'the vault folder (the one Obsidian opens)' };
