/**
 * Loads the real @huggingface/transformers for tests, as the bridge does.
 *
 * Jest runs each test file in its own VM context, so its Float32Array is not the one that
 * onnxruntime-node's native binding builds outputs with, and onnxruntime-common's
 * `data instanceof Float32Array` check rejects every model output. Plain Node has a single
 * realm and never hits this. We make the context's typed-array constructors recognise arrays
 * from any realm by their internal type tag (ArrayBuffer.isView + toStringTag read internal slots,
 * so this is exact, not a duck-typing guess).
 */
import type { TransformersLike } from '../../../shared/index/embedders/transformers-embedder';

const TYPED_ARRAYS = [
  'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array',
  'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array',
] as const;

function acceptTypedArraysFromAnyRealm(): void {
  const toTag = Object.prototype.toString;
  for (const name of TYPED_ARRAYS) {
    const ctor = globalThis[name];
    // Jest hands some constructors (Uint8Array) from the outer realm to every test file; patch each once.
    if (Object.getOwnPropertyDescriptor(ctor, Symbol.hasInstance)) continue;
    const tag = `[object ${name}]`;
    Object.defineProperty(ctor, Symbol.hasInstance, {
      value: (v: unknown) => ArrayBuffer.isView(v) && toTag.call(v) === tag,
      configurable: true,
    });
  }
}

export async function loadTransformers(): Promise<TransformersLike> {
  acceptTypedArraysFromAnyRealm();
  const lib = await import('@huggingface/transformers');
  // The library warns on stderr about best-effort steps (e.g. progress totals offline); tests check outcomes instead.
  lib.env.logLevel = lib.LogLevel.ERROR;
  return lib;
}
