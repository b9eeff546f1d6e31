/**
 * Reflection's sampling (shared/learning/reflection-wording.ts) over MCP: the connected client's own model,
 * asked with `sampling/createMessage` to word a repeated procedure. Wired beside terrace 2's interpreter when
 * the client declared `sampling` (sampling-interpreter.ts: wireSampling). Whatever goes wrong throws, and the
 * reflection pass keeps the rule-based text.
 */
import type { CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Sampler } from '../../shared/learning/reflection-wording';

type CreateMessage = (params: CreateMessageRequest['params'], options?: { timeout?: number }) => Promise<unknown>;

export function mcpSampler(createMessage: CreateMessage): Sampler {
  return {
    async sample({ system, prompt, maxTokens, timeoutMs }) {
      const result = await createMessage(
        {
          messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
          systemPrompt: system,
          includeContext: 'none',
          temperature: 0,
          maxTokens,
          modelPreferences: { intelligencePriority: 0.5, speedPriority: 0.5, costPriority: 0.5 },
        },
        { timeout: timeoutMs },
      );
      const content = (result as { content?: unknown } | null)?.content;
      const blocks = (Array.isArray(content) ? content : [content]) as ({ type?: unknown; text?: unknown } | null | undefined)[];
      const texts = blocks.filter((b) => b?.type === 'text' && typeof b.text === 'string').map((b) => b!.text as string);
      if (texts.length === 0) throw new Error('the sampling answer has no text content');
      return texts.join('\n');
    },
  };
}
