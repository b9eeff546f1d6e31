import { checksum } from '../../shared/stores/checksum';

const sample = (len: number) => new Uint8Array(len).map((_, i) => (i * 37 + len) & 255);

describe('checksum', () => {
  it('is deterministic and ignores bytes before `start`', () => {
    const b = sample(100);
    const c = b.slice();
    c[3] ^= 0xff;
    expect(checksum(b, 8)).toBe(checksum(b.slice(), 8));
    expect(checksum(c, 8)).toBe(checksum(b, 8));
  });

  it.each([24, 25, 27, 31, 203, 1024, 4099])('catches every single flipped bit, paired top bits and a cut tail (%i bytes)', (len) => {
    const b = sample(len);
    const sum = checksum(b, 24);
    for (let i = 24; i < len; i++) {
      for (let m = 1; m < 256; m <<= 1) {
        const x = b.slice();
        x[i] ^= m;
        expect(checksum(x, 24)).not.toBe(sum);
      }
    }
    for (let i = 24; i + 4 < len; i += 3) {
      const x = b.slice();
      x[i] ^= 0x80;
      x[i + 4] ^= 0x80; // the same bit of two words in a row: plain running sums can cancel it
      expect(checksum(x, 24)).not.toBe(sum);
    }
    if (len > 28) expect(checksum(b.slice(0, len - 4), 24)).not.toBe(sum);
  });

  it('reads an unaligned view the same as an aligned copy', () => {
    const b = sample(301);
    const shifted = new Uint8Array(b.length + 1);
    shifted.set(b, 1);
    expect(checksum(shifted.subarray(1), 0)).toBe(checksum(b, 0));
  });
});
