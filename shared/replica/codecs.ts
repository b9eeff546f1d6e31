import type { Codec } from './codec';
import { coactCodec, edgesCodec, editorsCodec, expansionCodec, ignoredTermsCodec, phasesCodec, statsCodec } from './node-codecs';
import { affinityCodec, aliasesCodec, assocCodec, eventsCodec, marksCodec, precedentsCodec } from './learned-codecs';

/**
 * Every memory.sqlite table that travels between devices. What does not: the node registry (derived from the
 * notes and each device's own), and the receipts and caches (docs/devices.md#what-travels).
 */
export const CODECS: readonly Codec[] = [statsCodec, edgesCodec, coactCodec, expansionCodec, ignoredTermsCodec, phasesCodec, editorsCodec, affinityCodec, assocCodec, precedentsCodec, marksCodec, aliasesCodec, eventsCodec];

export const CODEC_BY_TABLE: ReadonlyMap<string, Codec> = new Map(CODECS.map((c) => [c.t, c]));
