import { LithosError } from '../errors';
import { VectorSpace, type PackedVectors } from './vector-space';

export { VectorSpace, type PackedVectors } from './vector-space';

/** All embedding spaces of the index; a space is created by the first vectors stored in it. */
export class VectorStore {
  private spaces = new Map<string, VectorSpace>();

  /**
   * Throws before changing anything when a vector does not fit its space or the chunk count. `seen` carries
   * the sizes of spaces a not-yet-stored batch will create, so one batch cannot mix sizes either.
   */
  validate(
    id: string,
    chunkCount: number,
    vectors: ReadonlyMap<string, readonly Float32Array[]>,
    seen = new Map<string, number>(),
    packed?: ReadonlyMap<string, PackedVectors>,
  ): void {
    for (const [spaceId, p] of packed ?? []) {
      const dims = this.spaces.get(spaceId)?.dims ?? seen.get(spaceId) ?? p.dims;
      if (vectors.has(spaceId) || p.count !== chunkCount || p.dims !== dims || !(dims > 0) || p.steps.length !== p.count || p.values.length !== p.count * dims) {
        throw new LithosError('invalid_argument', `Packed vectors of note ${id} in space ${spaceId} do not fit its ${chunkCount} chunks.`, { id, spaceId });
      }
      if (p.count > 0 && !this.spaces.has(spaceId)) seen.set(spaceId, dims);
    }
    for (const [spaceId, list] of vectors) {
      if (list.length !== chunkCount) {
        throw new LithosError('invalid_argument', `Note ${id} has ${chunkCount} chunks but ${list.length} vectors in space ${spaceId}.`, {
          id,
          spaceId,
        });
      }
      const dims = this.spaces.get(spaceId)?.dims ?? seen.get(spaceId) ?? list[0]?.length;
      for (const v of list) {
        if (!(v instanceof Float32Array) || v.length !== dims || dims === 0) {
          throw new LithosError('invalid_argument', `Vector for note ${id} in space ${spaceId} must be a Float32Array of ${dims} values.`, {
            id,
            spaceId,
          });
        }
      }
      if (list.length > 0 && !this.spaces.has(spaceId)) seen.set(spaceId, dims);
    }
  }

  set(slot: number, vectors: ReadonlyMap<string, readonly Float32Array[]>, packed?: ReadonlyMap<string, PackedVectors>): void {
    this.remove(slot);
    for (const [spaceId, list] of vectors) if (list.length > 0) this.spaceFor(spaceId, list[0].length).add(slot, list);
    for (const [spaceId, p] of packed ?? []) if (p.count > 0) this.spaceFor(spaceId, p.dims).addPacked(slot, p);
  }

  private spaceFor(spaceId: string, dims: number): VectorSpace {
    let space = this.spaces.get(spaceId);
    if (!space) {
      space = new VectorSpace(dims);
      this.spaces.set(spaceId, space);
    }
    return space;
  }

  remove(slot: number): void {
    for (const space of this.spaces.values()) space.remove(slot);
  }

  spaceIds(): string[] {
    return [...this.spaces.keys()].sort();
  }

  space(spaceId: string): VectorSpace | undefined {
    return this.spaces.get(spaceId);
  }
}
