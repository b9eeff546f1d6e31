import { LithosError } from '../../shared/errors';
import { protocolMismatch } from '../../shared/protocol/handshake';
import { MAX_MESSAGE_BYTES, utf8ByteLength } from '../../shared/protocol/limits';
import { decodeMessage, encodeMessage, type Message } from '../../shared/protocol/messages';
import { fromWireError, toWireError } from '../../shared/protocol/wire-error';
import { failure } from '../twins/error-code';

const caller = { kind: 'agent' as const, agent_id: 'a1' };

describe('bridge protocol messages', () => {
  const samples: Message[] = [
    { type: 'hello', protocol_version: 1, bridge_version: '0.1.0', agent_id: 'a1' },
    { type: 'hello', protocol_version: 1, bridge_version: '0.1.0', agent_id: null },
    { type: 'welcome', protocol_version: 1, plugin_version: '0.1.0', vault: 'Work' },
    { type: 'call', id: '1', tool: 'lithos_read', args: { path: 'a.md' }, caller, deadline_ms: 45_000 },
    { type: 'result', id: '1', ok: true, result: { text: 'héllo ✓' } },
    { type: 'result', id: '1', ok: false, error: { code: 'not_found', message: 'No note "a.md".', data: { path: 'a.md' } } },
    { type: 'cancel', id: '1' },
    { type: 'ping', nonce: 'n1' },
    { type: 'pong', nonce: 'n1' },
    { type: 'error', id: null, error: { code: 'protocol_error', message: 'bad', data: {} } },
  ];

  it.each(samples.map((m) => [`${m.type}${'ok' in m ? ` ok=${m.ok}` : ''}`, m]))('a %s message survives encode and decode unchanged', (_name, msg) => {
    expect(decodeMessage(encodeMessage(msg))).toEqual({ ok: true, message: msg });
  });

  it.each([
    ['not JSON', '{"type":"call",', /not valid JSON/],
    ['a JSON array', '[1,2]', /JSON object with a "type"/],
    ['no type', '{"id":"7"}', /no "type"/],
    ['an unknown type', '{"type":"explode","id":"7"}', /Unknown message type "explode"/],
    ['a call without a tool', JSON.stringify({ type: 'call', id: '7', args: {}, caller, deadline_ms: 10 }), /Malformed "call" message: tool/],
    ['a call with a negative deadline', JSON.stringify({ type: 'call', id: '7', tool: 't', args: {}, caller, deadline_ms: -1 }), /deadline_ms/],
    ['a caller of an unknown kind', JSON.stringify({ type: 'call', id: '7', tool: 't', args: {}, caller: { kind: 'robot', agent_id: null }, deadline_ms: 10 }), /caller\.kind/],
  ])('%s decodes to a protocol_error, never a throw', (_name, text, message) => {
    const d = decodeMessage(text);
    expect(d.ok).toBe(false);
    if (d.ok) return;
    expect(d.error).toBeInstanceOf(LithosError);
    expect(d.error.code).toBe('protocol_error');
    expect(d.error.message).toMatch(message);
  });

  it('a garbled call still names its id, so the reply can fail that call at once', () => {
    const d = decodeMessage(JSON.stringify({ type: 'call', id: '42', tool: '' }));
    expect(d).toMatchObject({ ok: false, type: 'call', id: '42' });
  });

  it('refuses to encode a message over 1 MB with payload_too_large naming the message', async () => {
    const big = 'x'.repeat(MAX_MESSAGE_BYTES);
    const err = await failure(Promise.resolve().then(() => encodeMessage({ type: 'call', id: '1', tool: 't', args: { big }, caller, deadline_ms: 10 }, 'The call to "t"')));
    expect(err.code).toBe('payload_too_large');
    expect(err.message).toMatch(/^The call to "t" is \d+ bytes, over the bridge's limit of 1048576 bytes/);
    expect(err.data).toMatchObject({ limit: MAX_MESSAGE_BYTES, retryable: false });
  });

  it('counts UTF-8 bytes, not characters, against the limit', () => {
    // 400k three-byte characters: 1.2 MB of UTF-8 in a 400k-character string.
    const text = JSON.stringify({ type: 'call', id: '9', tool: 't', args: { s: '€'.repeat(400_000) }, caller, deadline_ms: 10 });
    expect(text.length).toBeLessThan(MAX_MESSAGE_BYTES);
    expect(decodeMessage(text)).toMatchObject({ ok: false, id: '9', type: 'call', error: { code: 'payload_too_large' } });
  });

  it('utf8ByteLength agrees with TextEncoder, surrogate pairs and lone surrogates included', () => {
    for (const s of ['', 'abc', 'é', '€', '𝄞', 'a𝄞b€é', '\ud800', 'x\udc00y', '\ud83d\ude00\ud83d']) {
      expect(utf8ByteLength(s)).toBe(new TextEncoder().encode(s).length);
    }
  });

  it('a value JSON cannot carry is refused with invalid_argument', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const err = await failure(Promise.resolve().then(() => encodeMessage({ type: 'result', id: '1', ok: true, result: cyclic })));
    expect(err.code).toBe('invalid_argument');
  });

  it('errors cross the wire as {code, message, data} and come back as the same LithosError', () => {
    const original = new LithosError('conflict', 'Version mismatch', { current_version: 3 });
    const back = fromWireError(toWireError(original));
    expect(back).toBeInstanceOf(LithosError);
    expect(back.toJSON()).toEqual(original.toJSON());
    expect(toWireError(new Error('boom'))).toEqual({ code: 'internal', message: 'boom', data: {} });
  });

  it('a protocol mismatch names both protocol versions and both software versions', () => {
    const e = protocolMismatch({ bridge_protocol: 2, plugin_protocol: 1, bridge_version: '0.3.0', plugin_version: '0.2.0' });
    expect(e.code).toBe('protocol_mismatch');
    expect(e.message).toBe(
      'Bridge protocol mismatch: the lithos bridge 0.3.0 speaks protocol version 2, the Lithos Memory plugin 0.2.0 speaks version 1. ' +
        'Update the older of the two so both speak the same version.',
    );
    expect(e.data).toMatchObject({ bridge_protocol: 2, plugin_protocol: 1, retryable: false });
  });
});
