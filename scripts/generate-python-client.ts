// Generates the Python client's types and operations (clients/python/src/formsign/_generated.py) from
// the document as served, so the client never drifts from the contract: one TypedDict per schema, one
// Literal per enum, one method per operation. `npm run generate` writes it beside src/generated/api.d.ts;
// test/api/python-client-fresh.test.ts fails when the committed file is stale.
import type { OpenApiDocument } from '../src/http/openapi.js';

type Schema = Record<string, unknown>;
interface Param { name: string; in: string; required?: boolean; schema?: Schema; description?: string }

export const PYTHON_GENERATED_PATH = new URL('../clients/python/src/formsign/_generated.py', import.meta.url);

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const PY_KEYWORDS = new Set(['False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield', 'format', 'type', 'id']);

const pascal = (s: string): string => s.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_m, _s, c: string) => c.toUpperCase());
const snake = (s: string): string => s.replace(/\[([a-z]+)\]/g, '_$1').replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[^A-Za-z0-9]+/g, '_').toLowerCase();
/** A Python identifier for a parameter name (`created[gte]` → `created_gte`, `format` → `format_`). */
const ident = (s: string): string => {
  const n = snake(s);
  return PY_KEYWORDS.has(n) ? `${n}_` : n;
};
const pyStr = (s: string): string => JSON.stringify(s);
/** A type annotation as a Python string literal (single-quoted when it holds double quotes: easier to read). */
const pyType = (t: string): string => (t.includes('"') && !t.includes("'") && !t.includes('\\') ? `'${t}'` : pyStr(t));

class Generator {
  /** Named TypedDicts and aliases, in the order they are defined. */
  private readonly defs: string[] = [];
  private readonly named = new Set<string>();
  /** Aliases are evaluated when the module loads: they come after every TypedDict, dependencies first. */
  private readonly aliases = new Map<string, string>();

  constructor(private readonly doc: OpenApiDocument) {}

  private deref<T>(o: T): T {
    let cur = o as unknown as { $ref?: string };
    while (cur && typeof cur.$ref === 'string') {
      const parts = cur.$ref.replace(/^#\//, '').split('/');
      let v: unknown = this.doc;
      for (const p of parts) v = (v as Record<string, unknown>)[p];
      cur = v as { $ref?: string };
    }
    return cur as unknown as T;
  }

  /** The Python type of a schema; inline objects become TypedDicts named from `hint`. */
  typeOf(s: Schema | undefined, hint: string): string {
    if (!s) return 'Any';
    if (typeof s['$ref'] === 'string') {
      const ref = s['$ref'];
      if (ref.startsWith('#/components/schemas/') && ref.split('/').length === 4) return ref.split('/').pop()!;
      return this.typeOf(this.deref(s), hint);
    }
    if ('const' in s) return `Literal[${JSON.stringify(s['const'])}]`;
    if (Array.isArray(s['enum'])) return `Literal[${(s['enum'] as unknown[]).map((v) => (v === null ? 'None' : JSON.stringify(v))).join(', ')}]`;
    for (const k of ['oneOf', 'anyOf'] as const) {
      if (Array.isArray(s[k])) {
        const parts = [...new Set((s[k] as Schema[]).map((x, i) => this.typeOf(x, `${hint}${i + 1}`)))];
        return parts.length === 1 ? parts[0]! : `Union[${parts.join(', ')}]`;
      }
    }
    if (Array.isArray(s['allOf'])) return this.typeOf((s['allOf'] as Schema[])[0], hint);
    const t = s['type'];
    if (Array.isArray(t)) {
      const parts = [...new Set(t.map((x) => this.typeOf({ ...s, type: x }, hint)))];
      return parts.length === 1 ? parts[0]! : `Union[${parts.join(', ')}]`;
    }
    switch (t) {
      case 'string':
        return s['contentMediaType'] || s['format'] === 'binary' ? 'bytes' : 'str';
      case 'integer':
        return 'int';
      case 'number':
        return 'float';
      case 'boolean':
        return 'bool';
      case 'null':
        return 'None';
      case 'array':
        return `List[${this.typeOf(s['items'] as Schema | undefined, `${hint}Item`)}]`;
      case 'object':
      case undefined: {
        const props = s['properties'] as Record<string, Schema> | undefined;
        if (props && Object.keys(props).length > 0) return this.typedDict(hint, s);
        const extra = s['additionalProperties'];
        if (extra && typeof extra === 'object') return `Dict[str, ${this.typeOf(extra as Schema, `${hint}Value`)}]`;
        return 'Dict[str, Any]';
      }
      default:
        return 'Any';
    }
  }

  /** A TypedDict in the functional form (keys may be Python keywords); optional keys are NotRequired. */
  typedDict(name: string, s: Schema): string {
    if (this.named.has(name)) return name;
    this.named.add(name);
    const required = new Set((s['required'] as string[] | undefined) ?? []);
    const lines: string[] = [];
    for (const [key, prop] of Object.entries(s['properties'] as Record<string, Schema>)) {
      const t = this.typeOf(prop, `${name}${pascal(key)}`);
      lines.push(`    ${pyStr(key)}: ${pyType(required.has(key) ? t : `NotRequired[${t}]`)},`);
    }
    const doc = typeof s['description'] === 'string' ? `# ${(s['description'] as string).trim().split('\n')[0]}\n` : '';
    this.defs.push(`${doc}${name} = TypedDict(${pyStr(name)}, {\n${lines.join('\n')}\n})\n`);
    return name;
  }

  alias(name: string, s: Schema): void {
    const props = s['properties'] as Record<string, Schema> | undefined;
    if (props && Object.keys(props).length > 0) return void this.typedDict(name, s);
    if (this.named.has(name)) return;
    this.named.add(name);
    this.aliases.set(name, this.typeOf(s, name));
  }

  private orderedAliases(): string[] {
    const out: string[] = [];
    const done = new Set<string>();
    const visit = (name: string, seen: Set<string>): void => {
      if (done.has(name) || seen.has(name)) return;
      seen.add(name);
      const body = this.aliases.get(name)!;
      for (const other of this.aliases.keys()) if (other !== name && new RegExp(`\\b${other}\\b`).test(body.replace(/Literal\[[^\]]*\]/g, ''))) visit(other, seen);
      done.add(name);
      out.push(`${name} = ${body}\n`);
    };
    for (const name of this.aliases.keys()) visit(name, new Set());
    return out;
  }

  operations(): string[] {
    const out: string[] = [];
    for (const [path, item] of Object.entries(this.doc.paths)) {
      for (const method of HTTP_METHODS) {
        const op = item[method] as (Record<string, unknown> & { operationId: string }) | undefined;
        if (!op) continue;
        out.push(this.operation(method, path, (item['parameters'] as Param[] | undefined) ?? [], op));
      }
    }
    return out;
  }

  private operation(method: string, path: string, shared: Param[], op: Record<string, unknown> & { operationId: string }): string {
    const params = [...shared, ...((op['parameters'] as Param[] | undefined) ?? [])].map((p) => this.deref(p));
    const pathParams = params.filter((p) => p.in === 'path');
    const query = params.filter((p) => p.in === 'query');
    const idem = params.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
    const name = pascal(op.operationId);
    const content = (this.deref(op['requestBody'] as Schema | undefined) as { content?: Record<string, { schema?: Schema }>; required?: boolean } | undefined)?.content;
    const args: string[] = ['self', ...pathParams.map((p) => `${ident(p.name)}: str`)];
    let bodyKind: 'json' | 'file' | undefined;
    if (content?.['application/json']) {
      bodyKind = 'json';
      const bodyType = this.typeOf(content['application/json'].schema, `${name}Body`);
      args.push(`body: ${pyType(bodyType)}`);
    } else if (content?.['multipart/form-data'] || content?.['application/pdf']) {
      bodyKind = 'file';
      args.push('file: bytes', 'filename: str = "document.pdf"');
    }
    const kw: string[] = [];
    for (const q of query) kw.push(`${ident(q.name)}: ${pyType(`Optional[${this.typeOf(q.schema, `${name}${pascal(q.name)}`)}]`)} = None`);
    if (bodyKind === 'file') kw.push('fields: Optional[Dict[str, str]] = None');
    if (idem) kw.push('idempotency_key: Optional[str] = None');
    if (kw.length) args.push('*', ...kw);
    const ok = Object.entries(op['responses'] as Record<string, unknown>).find(([c]) => c.startsWith('2'));
    const okContent = ok ? (this.deref(ok[1] as Schema) as { content?: Record<string, { schema?: Schema }> }).content : undefined;
    const json = okContent?.['application/json'];
    const ret = json ? this.typeOf(json.schema, `${name}Response`) : okContent ? 'bytes' : 'None';
    const pyPath = path.replace(/\{([^}]+)\}/g, (_m, p: string) => `{_q(${ident(p)})}`);
    const queryDict = query.length ? `{${query.map((q) => `${pyStr(q.name)}: ${ident(q.name)}`).join(', ')}}` : 'None';
    const summary = typeof op['summary'] === 'string' ? op['summary'] : op.operationId;
    const call = [
      pyStr(method.toUpperCase()),
      pyPath === path ? pyStr(path) : `f${pyStr(pyPath)}`,
      `query=${queryDict}`,
      ...(bodyKind === 'json' ? ['json=body'] : bodyKind === 'file' ? [`file=(filename, file)`, 'fields=fields', `multipart=${content?.['multipart/form-data'] ? 'True' : 'False'}`] : []),
      ...(idem ? ['idempotency_key=idempotency_key'] : []),
      `expect=${pyStr(json ? 'json' : okContent ? 'bytes' : 'none')}`,
    ];
    return `    def ${snake(op.operationId)}(${args.join(', ')}) -> ${pyType(ret)}:\n        """${summary.replace(/"""/g, "'''")} (${method.toUpperCase()} ${path}, operation ${op.operationId})."""\n        return self._request(${call.join(', ')})  # type: ignore[no-any-return]\n`;
  }

  render(): string {
    const schemas = ((this.doc['components'] as Record<string, unknown> | undefined)?.['schemas'] ?? {}) as Record<string, Schema>;
    for (const [name, s] of Object.entries(schemas)) this.alias(name, s);
    const ops = this.operations();
    return `# Generated from openapi/openapi.yaml by scripts/generate-python-client.ts (npm run generate).
# Do not edit by hand: a test fails when this file is not what the script makes of the document.
# flake8: noqa
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Literal, Optional, TypedDict, Union
from urllib.parse import quote

if TYPE_CHECKING:  # the annotations are strings: NotRequired is only read by type checkers
    from typing_extensions import NotRequired


def _q(value: str) -> str:
    return quote(str(value), safe="")


API_VERSION = ${pyStr(String((this.doc['info'] as Record<string, unknown> | undefined)?.['version'] ?? ''))}

${this.defs.join('\n')}
${this.orderedAliases().join('\n')}

class Operations:
    """One method per operation of the API; \`Client\` supplies \`_request\`."""

    def _request(self, method: str, path: str, *, query: Optional[Dict[str, Any]] = None, json: Any = None, file: Any = None, fields: Optional[Dict[str, str]] = None, multipart: bool = False, idempotency_key: Optional[str] = None, expect: str = "json") -> Any:
        raise NotImplementedError

${ops.join('\n')}`;
  }
}

export function generatePythonClient(doc: OpenApiDocument): string {
  return new Generator(doc).render();
}
