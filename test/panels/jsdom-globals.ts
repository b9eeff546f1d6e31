/**
 * jsdom leaves out globals the engine uses (TextEncoder/TextDecoder, crypto.randomUUID); Node's are the
 * same API. Imported first by the panel specs' helpers, before any engine module is evaluated.
 */
import { TextDecoder, TextEncoder } from 'node:util';
import { webcrypto } from 'node:crypto';

Object.assign(globalThis, { TextEncoder: globalThis.TextEncoder ?? TextEncoder, TextDecoder: globalThis.TextDecoder ?? TextDecoder });
if (typeof globalThis.crypto?.randomUUID !== 'function') Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
