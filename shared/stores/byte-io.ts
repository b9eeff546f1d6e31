/** Little-endian binary writer and bounds-checked reader for the cache file (cache-codec.ts). */

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
/** Strings shorter than this are decoded in JS when ASCII: cheaper than a call into the native decoder. */
const SHORT = 48;

export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  private pos = 0;

  constructor(initial = 1 << 16) {
    this.buf = new Uint8Array(initial);
    this.view = new DataView(this.buf.buffer);
  }

  get length(): number {
    return this.pos;
  }

  /** Starts over, keeping the buffer (grown to at least `capacity`) for the next encoding. */
  reset(capacity: number): void {
    this.pos = 0;
    if (this.buf.length < capacity) {
      this.buf = new Uint8Array(capacity);
      this.view = new DataView(this.buf.buffer);
    }
  }

  u8(v: number): void {
    this.ensure(1);
    this.buf[this.pos++] = v;
  }

  u32(v: number): void {
    this.ensure(4);
    this.view.setUint32(this.pos, v, true);
    this.pos += 4;
  }

  u32At(offset: number, v: number): void {
    this.view.setUint32(offset, v, true);
  }

  f64(v: number): void {
    this.ensure(8);
    this.view.setFloat64(this.pos, v, true);
    this.pos += 8;
  }

  /** UTF-8 bytes prefixed by their count. */
  str(s: string): void {
    // Room for ASCII first (the common case); only a string that did not fit asks for the UTF-8 worst case.
    this.ensure(4 + s.length);
    let r = utf8Encoder.encodeInto(s, this.buf.subarray(this.pos + 4));
    if (r.read < s.length) {
      this.ensure(4 + s.length * 3);
      r = utf8Encoder.encodeInto(s, this.buf.subarray(this.pos + 4));
    }
    this.view.setUint32(this.pos, r.written, true);
    this.pos += 4 + r.written;
  }

  /** Raw bytes of a typed array (host order, little-endian everywhere Lithos runs), unprefixed. */
  raw(a: ArrayBufferView): void {
    this.ensure(a.byteLength);
    this.buf.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), this.pos);
    this.pos += a.byteLength;
  }

  /** Pads with zeros to a multiple of `k` from the start, so a reader can view the next array in place. */
  align(k: number): void {
    while (this.pos % k !== 0) this.u8(0);
  }

  /** The bytes written so far (a view, not a copy). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = Math.max(64, Math.ceil(this.buf.length * 1.5));
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
}

/** Thrown by ByteReader when the bytes end early or do not decode; the caller names the file damaged. */
export class MalformedBytes extends Error {}

export class ByteReader {
  private readonly view: DataView;
  pos: number;

  constructor(
    private readonly buf: Uint8Array,
    start = 0,
  ) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.pos = start;
  }

  get remaining(): number {
    return this.buf.byteLength - this.pos;
  }

  u8(): number {
    this.need(1);
    return this.buf[this.pos++];
  }

  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  f64(): number {
    this.need(8);
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  str(): string {
    const n = this.u32();
    this.need(n);
    const start = this.pos;
    this.pos += n;
    const b = this.buf;
    if (n < SHORT) {
      let ascii = true;
      for (let i = start; i < start + n; i++) if (b[i] > 0x7f) ascii = false;
      if (ascii) return String.fromCharCode.apply(null, b.subarray(start, start + n) as unknown as number[]);
    }
    try {
      return utf8Decoder.decode(b.subarray(start, start + n));
    } catch {
      throw new MalformedBytes('a string is not valid UTF-8');
    }
  }

  /** Skips the padding ByteWriter.align wrote. */
  align(k: number): void {
    while (this.pos % k !== 0) this.u8();
  }

  /**
   * The next `count` elements as a typed array: a view of the read bytes when aligned (no copy; the
   * bytes then live as long as the view), else a copy.
   */
  array<T extends Uint8Array | Int8Array | Uint16Array | Uint32Array | Float32Array>(
    Kind: { new (buffer: ArrayBuffer, byteOffset: number, length: number): T; BYTES_PER_ELEMENT: number },
    count: number,
  ): T {
    const n = count * Kind.BYTES_PER_ELEMENT;
    this.need(n);
    const at = this.buf.byteOffset + this.pos;
    this.pos += n;
    if (at % Kind.BYTES_PER_ELEMENT === 0) return new Kind(this.buf.buffer as ArrayBuffer, at, count);
    return new Kind(this.buf.buffer.slice(at, at + n) as ArrayBuffer, 0, count);
  }

  private need(n: number): void {
    if (!(n >= 0) || this.pos + n > this.buf.byteLength) throw new MalformedBytes('the file ends in the middle of a record');
  }
}
