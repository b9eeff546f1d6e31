import { createRequire } from 'node:module';
const require = createRequire('/work/main/package.json');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const t = new StdioClientTransport({ command: 'node', args: ['/work/main/dist/bridge/cli.js','mcp','--vault',process.argv[2],'--agent','p'], stderr: 'inherit' });
const c = new Client({ name: 'probe', version: '0' }, { capabilities: {} });
await c.connect(t);
const t0=Date.now();
try { const r = await c.callTool({ name: 'lithos_stats', arguments: {} }, undefined, {timeout: 70000}); console.log('stats', r.isError, r.content[0].text.slice(0,160)); } catch(e) { console.log('threw', e.message); }
console.log('ms', Date.now()-t0);
await c.close();
