// An OpenAI-compatible chat-completions client that asks for one JSON object shaped by a JSON
// schema (`response_format: {type: "json_schema"}`), as OpenAI, Azure OpenAI, vLLM, Ollama and
// llama.cpp servers accept. It returns the parsed object unchecked: the caller validates it. Any
// failure (timeout, HTTP status, unparsable body or content) is thrown as a ModelError.

export interface ChatModelConfig {
  /** e.g. https://api.openai.com/v1 (the path /chat/completions is appended). */
  baseUrl: string;
  apiKey?: string | undefined;
  model: string;
  /** Default 10 s. */
  timeoutMs?: number;
}

export interface StructuredRequest {
  system: string;
  user: string;
  schemaName: string;
  schema: Record<string, unknown>;
  signal?: AbortSignal | undefined;
}

export interface ChatModel {
  readonly model: string;
  complete(req: StructuredRequest): Promise<unknown>;
}

export class ModelError extends Error {
  constructor(readonly reason: 'timeout' | 'http' | 'invalid', message: string) {
    super(message);
    this.name = 'ModelError';
  }
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** An answer larger than this is not a form description: stop reading. */
const MAX_BODY_BYTES = 1024 * 1024;

export function createChatModel(cfg: ChatModelConfig): ChatModel {
  const url = `${cfg.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const timeoutMs = cfg.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    model: cfg.model,
    async complete(req) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = req.signal ? AbortSignal.any([timeout, req.signal]) : timeout;
      let text: string;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(cfg.apiKey ? { authorization: `Bearer ${cfg.apiKey}` } : {}),
          },
          body: JSON.stringify({
            model: cfg.model,
            temperature: 0,
            messages: [{ role: 'system', content: req.system }, { role: 'user', content: req.user }],
            response_format: { type: 'json_schema', json_schema: { name: req.schemaName, strict: true, schema: req.schema } },
          }),
          signal,
          redirect: 'error',
        });
        text = await readCapped(res);
        if (!res.ok) throw new ModelError('http', `The model endpoint answered HTTP ${res.status}.`);
      } catch (err) {
        if (err instanceof ModelError) throw err;
        if (timeout.aborted) throw new ModelError('timeout', `The model endpoint did not answer within ${timeoutMs} ms.`);
        throw new ModelError('http', `The model endpoint could not be reached: ${err instanceof Error ? err.message : String(err)}`);
      }
      let content: unknown;
      try {
        const body = JSON.parse(text) as { choices?: Array<{ message?: { content?: unknown; refusal?: unknown } }> };
        content = body.choices?.[0]?.message?.content;
      } catch {
        throw new ModelError('invalid', 'The model endpoint answered with something other than JSON.');
      }
      if (typeof content !== 'string') throw new ModelError('invalid', 'The model answer has no message content.');
      try {
        return JSON.parse(content) as unknown;
      } catch {
        throw new ModelError('invalid', 'The model answer is not a JSON object.');
      }
    },
  };
}

async function readCapped(res: Response): Promise<string> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) throw new ModelError('invalid', 'The model answer is too large.');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
