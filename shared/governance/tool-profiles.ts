/**
 * Tool profiles: which tools one MCP bridge offers its agent. Every tool definition an MCP client lists sits
 * in the agent's context before its first call (the whole catalog weighs ~15k tokens), so a bridge offers
 * the everyday tools unless told otherwise. A profile is a convenience, not a permission: the vault
 * policy's read_only and disabled (tool-access.ts) still apply on top of it.
 *
 * Chosen per bridge with `lithos mcp --tools core|full|<name,name,…>`, else by the vault policy's
 * agent_tools.profile (the plugin's settings), else DEFAULT_PROFILE.
 */
import { LithosError } from '../errors';

/**
 * What a typical agent uses every day: gather memory for a task and report on it (retrieve, feedback), look
 * up and open notes (search, list, read), record what it learns (write), look around a note (related, links)
 * and see the contradictions it should settle (conflict_list). Task coordination, edges, proposals, stats,
 * episodic events (event_record, events: an agent's tool calls are recorded without them) and maintenance are for
 * agents set up for them (`full`, or a list). lithos_semantic stays out: with only the
 * default hashing space it matches word pieces, not meaning (space-capabilities.ts), and lithos_retrieve
 * already fuses whatever vectors there are.
 */
export const CORE_TOOLS: readonly string[] = Object.freeze([
  'lithos_retrieve',
  'lithos_feedback',
  'lithos_search',
  'lithos_read',
  'lithos_write',
  'lithos_list',
  'lithos_related',
  'lithos_links',
  'lithos_conflict_list',
]);

export const PROFILE_NAMES = ['core', 'full'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

/** A profile as written: a name, or the tools themselves. */
export type ToolProfileSpec = ProfileName | readonly string[];

/** core: the context a typical agent can spare for tool definitions is small; `full` is one flag away. */
export const DEFAULT_PROFILE: ProfileName = 'core';

/** A resolved profile: its label (`core`, `full`, or the names joined) and the tools it offers. */
export interface ToolProfile {
  label: string;
  tools: ReadonlySet<string>;
}

/** `core`, `full`, or a comma-separated list of tool names (the form of `--tools`). */
export function parseProfileSpec(text: string): ToolProfileSpec {
  const t = text.trim();
  if ((PROFILE_NAMES as readonly string[]).includes(t)) return t as ProfileName;
  const names = [...new Set(t.split(',').map((s) => s.trim()).filter((s) => s !== ''))];
  if (names.length === 0) throw new LithosError('invalid_argument', `--tools needs core, full, or a comma-separated list of lithos_* tool names.`, { tools: text });
  return names;
}

/**
 * The tools a profile offers out of `catalog` (the names agents may have). A name the catalog does not have
 * is an invalid_argument listing the valid ones: a typo must not silently leave an agent without a tool.
 */
export function resolveProfile(spec: ToolProfileSpec, catalog: readonly string[]): ToolProfile {
  if (spec === 'full') return { label: 'full', tools: new Set(catalog) };
  // core is what of CORE_TOOLS the catalog has (a host may serve fewer tools); a list must name real tools.
  const names = spec === 'core' ? CORE_TOOLS.filter((n) => catalog.includes(n)) : spec;
  const unknown = names.filter((n) => !catalog.includes(n));
  if (unknown.length > 0) {
    throw new LithosError(
      'invalid_argument',
      `Unknown tool${unknown.length > 1 ? 's' : ''} in the tool profile: ${unknown.join(', ')}. Use core, full, or names among: ${catalog.join(', ')}.`,
      { unknown, valid: [...catalog] },
    );
  }
  return { label: typeof spec === 'string' ? spec : names.join(','), tools: new Set(names) };
}
