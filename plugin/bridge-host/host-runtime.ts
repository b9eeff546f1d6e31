/* eslint-disable @typescript-eslint/no-require-imports -- loaded on demand, see below */
import type * as Crypto from 'node:crypto';
import type * as Fs from 'node:fs/promises';
import type * as Http from 'node:http';
import type * as Path from 'node:path';
import type * as Ws from 'ws';

/** The Node modules the bridge host needs, handed to its helpers instead of being imported at the top. */
export interface HostRuntime {
  crypto: typeof Crypto;
  fs: typeof Fs;
  http: typeof Http;
  path: typeof Path;
  ws: typeof Ws;
}

/**
 * Loads them when the host starts, never when the plugin bundle is evaluated: the same main.js runs on
 * mobile, where these modules do not exist. (Type-only imports above vanish from the bundle.)
 */
export function loadHostRuntime(): HostRuntime {
  return {
    crypto: require('node:crypto') as typeof Crypto,
    fs: require('node:fs/promises') as typeof Fs,
    http: require('node:http') as typeof Http,
    path: require('node:path') as typeof Path,
    ws: require('ws') as typeof Ws,
  };
}
