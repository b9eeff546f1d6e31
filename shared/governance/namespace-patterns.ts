/**
 * Namespace patterns of the access policy (.lithos/policy.json): allowlists, shared patterns, proposal
 * namespaces. A pattern is a namespace prefix compared by whole segments, so `project/a` covers
 * `project/a` and `project/a/x` but never `project/ab`. A segment `*` matches any one segment and `**` any
 * number of segments (none included); `*` alone therefore covers every namespace.
 */

const SEGMENT = /^[\p{L}\p{N}_\-.]+$/u;

/** Why a pattern is unusable, or null when it is fine. */
export function patternProblem(pattern: string): string | null {
  if (pattern.trim() !== pattern || pattern === '') return 'must be a non-empty namespace pattern without surrounding spaces';
  for (const seg of pattern.split('/')) {
    if (seg === '*' || seg === '**') continue;
    if (seg === '' || seg === '.' || seg === '..') return 'has an empty, "." or ".." segment';
    if (!SEGMENT.test(seg)) return `segment "${seg}" may hold letters, digits, "_", "-", "." only, or be "*" / "**" as a whole (no partial globs like "proj*")`;
  }
  return null;
}

/** Whether the pattern's segments match a leading run of the namespace's segments. */
export function covers(pattern: string, namespace: string): boolean {
  return matchFrom(pattern.split('/'), 0, namespace.split('/'), 0);
}

function matchFrom(p: string[], i: number, ns: string[], j: number): boolean {
  if (i === p.length) return true; // the pattern is used up: the rest of the namespace lies below it
  if (p[i] === '**') {
    for (let k = j; k <= ns.length; k++) if (matchFrom(p, i + 1, ns, k)) return true;
    return false;
  }
  if (j === ns.length) return false;
  return (p[i] === '*' || p[i] === ns[j]) && matchFrom(p, i + 1, ns, j + 1);
}

export function coveredBy(patterns: readonly string[] | undefined, namespace: string): boolean {
  return !!patterns && patterns.some((p) => covers(p, namespace));
}

/** Whole-segment prefix test without globs (namespace filters, `agent/<id>`, `task/<id>`). */
export function under(namespace: string, prefix: string): boolean {
  return prefix === '' || namespace === prefix || namespace.startsWith(prefix + '/');
}

/** The task a namespace belongs to: `task/<id>` and below name task `<id>`; null otherwise. */
export function taskOfNamespace(namespace: string): string | null {
  const m = /^task\/([^/]+)/.exec(namespace);
  return m ? m[1] : null;
}

/** The agent a namespace belongs to: `agent/<id>` and below; null otherwise. */
export function agentOfNamespace(namespace: string): string | null {
  const m = /^agent\/([^/]+)/.exec(namespace);
  return m ? m[1] : null;
}
