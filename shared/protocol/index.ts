/** The bridge protocol: messages between the lithos bridge (relay client) and the plugin's websocket host. */
export { PROTOCOL_VERSION } from './version';
export { DEFAULT_CALL_DEADLINE_MS, HARD_FRAME_BYTES, INTERPRET_DEADLINE_MS, MAX_MESSAGE_BYTES, utf8ByteLength } from './limits';
export { BRIDGE_FILE, BridgeFileSchema, type BridgeFile } from './bridge-file';
export { CLOSE_CODES, HelloSchema, HelloVersionProbe, WelcomeSchema, protocolMismatch, type Hello, type Welcome, type VersionPair } from './handshake';
export { CallSchema, CallerSchema, CancelSchema, RequestIdSchema, ResultSchema, type Call, type Cancel, type Result } from './call';
export { InterpretRequestSchema, InterpretSchema, InterpretationSchema, InterpretedSchema, type Interpret, type Interpreted } from './interpret';
export { PingSchema, PongSchema, type Ping, type Pong } from './ping';
export { ProtocolErrorSchema, type ProtocolError } from './protocol-error';
export { WireErrorSchema, fromWireError, toWireError, type WireError } from './wire-error';
export { MessageSchema, decodeMessage, encodeMessage, type Decoded, type Message } from './messages';
