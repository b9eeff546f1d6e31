/**
 * The MCP client configuration the "Copy MCP config" commands put on the clipboard: README's snippets
 * with this vault's path filled in. `cliPath` is the built bridge (`dist/bridge/cli.js`, run with node);
 * empty means `lithos` on the PATH (after `npm link`).
 */
export type McpClient = 'claude-desktop' | 'claude-code';

export function launch(cliPath: string): { command: string; prefix: string[] } {
  return cliPath ? { command: 'node', prefix: [cliPath] } : { command: 'lithos', prefix: [] };
}

/** POSIX shell quoting: bare when safe, else single quotes. */
export function sh(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function mcpClientConfig(client: McpClient, vaultPath: string, cliPath: string): string {
  const { command, prefix } = launch(cliPath.trim());
  const args = [...prefix, 'mcp', '--vault', vaultPath, '--agent', client];
  if (client === 'claude-code') return `claude mcp add lithos -- ${[command, ...args].map(sh).join(' ')}`;
  return JSON.stringify({ mcpServers: { lithos: { command, args } } }, null, 2);
}
