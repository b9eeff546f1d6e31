import { runMcp } from '../mcp/run-mcp';
import { BRIDGE_VERSION } from '../version';
import { defineCommand } from './command';
import { AGENT_KEY_ENV } from '../../shared/governance/agent-keys';

export const mcpCmd = defineCommand({
  name: 'mcp',
  summary: 'stdio MCP server: through Obsidian when it has the vault open, headless on the folder otherwise',
  positionals: [{ name: 'vault', help: 'the vault folder (or give --vault)', optional: true }],
  options: {
    vault: { type: 'string', help: 'the vault folder', value: 'path' },
    agent: { type: 'string', help: 'the agent this session acts for (default LITHOS_AGENT_ID; else the first call that names one)', value: 'id' },
    tools: { type: 'string', help: 'the tools offered: core, full, or a comma list of tool names (default: the vault policy\'s, else core)', value: 'core|full|list' },
  },
  json: false,
  notes: ['stdout carries only the MCP protocol; logs go to stderr.', `Where the vault issues agent keys (lithos agents key), give the agent's key in ${AGENT_KEY_ENV}.`],
  examples: ['lithos mcp --vault ~/vault --agent claude-code', 'lithos mcp ~/vault --tools full'],
  run: ({ args, values, logger, usage }) => {
    if (values.vault !== undefined && args.length > 0) throw usage(`give the vault once, as --vault or as an argument (got --vault and "${args[0]}").`);
    const vault = values.vault ?? args[0];
    if (vault === undefined) throw usage('missing the vault: --vault <path>.');
    return runMcp({ vault, agent: values.agent ?? (process.env.LITHOS_AGENT_ID || null), agentKey: process.env[AGENT_KEY_ENV] || null, tools: values.tools, version: BRIDGE_VERSION, logger });
  },
});
