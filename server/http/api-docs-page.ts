// The API document as a page (GET /api/docs): rendered on the server from the OpenAPI document, one
// collapsible entry per operation, grouped by the core's areas and the plugins. No script at all —
// <details> does the folding — so the panel's CSP (scripts from self only) needs no exception, and
// nothing is fetched from elsewhere.
import type { OpenApiDocument, OpenApiOperation } from './openapi';

type Json = Record<string, unknown>;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** `code` spans of the document's prose (the only markup its descriptions use). */
function prose(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A one-line reading of a parameter's schema: `integer 1…100, default 20`. */
export function schemaSummary(schema: unknown): string {
  if (!isObject(schema)) return 'any';
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : typeof schema.type === 'string' ? schema.type : 'any';
  const parts: string[] = [];
  if (Array.isArray(schema.enum)) parts.push(`one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  if (typeof schema.minimum === 'number' || typeof schema.maximum === 'number') parts.push(`${schema.minimum ?? '…'}…${schema.maximum ?? '…'}`);
  if (typeof schema.minLength === 'number' || typeof schema.maxLength === 'number') parts.push(`length ${schema.minLength ?? 0}…${schema.maxLength ?? '∞'}`);
  if (typeof schema.pattern === 'string') parts.push(`pattern ${schema.pattern}`);
  if (typeof schema.format === 'string') parts.push(schema.format);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.length > 0 ? `${type} · ${parts.join(', ')}` : type;
}

function requiredOf(schema: Json): Set<string> {
  return new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
}

/**
 * A schema as a tree of its fields, each with its one-line reading: shorter to read than the JSON
 * (which openapi.json has for tools), and a tenth of its size on a page of 150 operations.
 */
export function schemaTree(schema: unknown): string {
  if (!isObject(schema)) return '<code>any</code>';
  const note = typeof schema.description === 'string' ? ` <span class="muted">${prose(schema.description)}</span>` : '';
  let out = `<code>${escapeHtml(schemaSummary(schema))}</code>${note}`;
  const variants = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null;
  if (variants) out += `<ul class="tree">${variants.map((v) => `<li><span class="muted">or</span> ${schemaTree(v)}</li>`).join('')}</ul>`;
  if (isObject(schema.properties)) {
    const required = requiredOf(schema);
    const fields = Object.entries(schema.properties).map(
      ([name, field]) => `<li><code class="k">${escapeHtml(name)}</code>${required.has(name) ? '<span class="req" title="required">*</span>' : ''} ${schemaTree(field)}</li>`,
    );
    out += `<ul class="tree">${fields.join('')}</ul>`;
  }
  if (isObject(schema.additionalProperties)) out += `<ul class="tree"><li><span class="muted">any other key:</span> ${schemaTree(schema.additionalProperties)}</li></ul>`;
  if (isObject(schema.items)) out += `<ul class="tree"><li><span class="muted">items:</span> ${schemaTree(schema.items)}</li></ul>`;
  return out;
}

function schemaBlock(label: string, schema: unknown): string {
  return `<details class="schema"><summary>${escapeHtml(label)}</summary><div class="schema-body">${schemaTree(schema)}</div></details>`;
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function chips(op: OpenApiOperation): string {
  const out: string[] = [];
  if (op['x-permission']) out.push(`<span class="chip perm" title="Permission">${escapeHtml(op['x-permission'])}</span>`);
  else if (op['x-auth']) out.push('<span class="chip auth">signed in</span>');
  else out.push('<span class="chip public">public</span>');
  if (op['x-feature-flag']) out.push(`<span class="chip flag" title="Feature flag: must be on">⚑ ${escapeHtml(op['x-feature-flag'])}</span>`);
  return out.join('');
}

function parametersTable(op: OpenApiOperation): string {
  const params = op.parameters ?? [];
  if (params.length === 0) return '';
  const rows = params
    .map((p) => {
      const required = p.required === true ? '<span class="req">required</span>' : '<span class="opt">optional</span>';
      const description = typeof p.description === 'string' ? `<div class="muted">${prose(p.description)}</div>` : '';
      return `<tr><td><code>${escapeHtml(String(p.name))}</code></td><td>${escapeHtml(String(p.in))}</td><td>${required}</td><td><code>${escapeHtml(schemaSummary(p.schema))}</code>${description}</td></tr>`;
    })
    .join('');
  return `<h4>Parameters</h4><table class="params"><thead><tr><th>Name</th><th>In</th><th></th><th>Schema</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function contentSchemas(content: unknown): [string, unknown][] {
  if (!isObject(content)) return [];
  return Object.entries(content).map(([type, media]) => [type, isObject(media) ? media.schema : undefined]);
}

function requestBody(op: OpenApiOperation): string {
  if (!op.requestBody) return '';
  const blocks = contentSchemas(op.requestBody.content).map(([type, schema]) => schemaBlock(type, schema));
  return `<h4>Request body</h4>${blocks.join('')}`;
}

function statusClass(status: string): string {
  return status.startsWith('2') || status.startsWith('1') ? 'ok' : status.startsWith('3') ? 'redirect' : 'err';
}

function responsesList(op: OpenApiOperation): string {
  const items = Object.entries(op.responses).map(([status, response]) => {
    const description = typeof response.description === 'string' ? prose(response.description) : '';
    // the one error shape is shown once, at the top, rather than under every refusal
    const blocks = contentSchemas(response.content).map(([type, schema]) =>
      isObject(schema) && schema.$ref === '#/components/schemas/Error' ? ' <a class="shape" href="#error-shape">error shape</a>' : schemaBlock(type, schema),
    );
    return `<li><span class="status ${statusClass(status)}">${escapeHtml(status)}</span><span class="desc">${description}</span>${blocks.join('')}</li>`;
  });
  return `<h4>Responses</h4><ul class="responses">${items.join('')}</ul>`;
}

function operationEntry(path: string, method: string, op: OpenApiOperation): string {
  const verb = op['x-websocket'] ? 'WS' : method.toUpperCase();
  const meta = [
    ['Permission', op['x-permission'] ? `<code>${escapeHtml(op['x-permission'])}</code> (or <code>admin.root</code>)` : '—'],
    ['Sign-in', op['x-auth'] ? 'required (the <code>op_session</code> cookie)' : 'not required'],
    ['Feature flag', op['x-feature-flag'] ? `<code>${escapeHtml(op['x-feature-flag'])}</code> must be on, else 403 <code>FEATURE_DISABLED</code>` : '—'],
    ['Served by', op['x-plugin'] ? `plugin <code>${escapeHtml(op['x-plugin'])}</code>` : 'the core'],
  ]
    .map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`)
    .join('');
  const websocket = op['x-websocket'] ? '<p class="muted">A WebSocket: open it with a GET upgrade from the panel’s own origin; messages are JSON.</p>' : '';
  return `<details class="op" id="${escapeHtml(op.operationId)}"><summary><span class="method m-${verb.toLowerCase()}">${verb}</span><code class="path">${escapeHtml(path)}</code><span class="chips">${chips(op)}</span></summary><div class="op-body">${websocket}<dl class="meta">${meta}</dl>${parametersTable(op)}${requestBody(op)}${responsesList(op)}</div></details>`;
}

const STYLE = `
:root{color-scheme:dark;--bg:#0f1115;--panel:#171a21;--line:#262b36;--text:#d8dde7;--muted:#8a93a6;--accent:#7aa2f7;--chip:#222734}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
header{position:sticky;top:0;z-index:2;display:flex;gap:16px;align-items:baseline;padding:14px 24px;background:rgba(15,17,21,.96);border-bottom:1px solid var(--line)}
header h1{margin:0;font-size:18px}header .muted{flex:1}
.layout{display:grid;grid-template-columns:250px 1fr;gap:0}
nav{position:sticky;top:53px;align-self:start;height:calc(100vh - 53px);overflow:auto;padding:16px 12px;border-right:1px solid var(--line)}
nav h3{margin:12px 8px 4px;font-size:11px;text-transform:uppercase;letter-spacing:.08em;color:var(--muted)}
nav a{display:flex;justify-content:space-between;padding:3px 8px;border-radius:6px;color:var(--text)}nav a:hover{background:var(--chip);text-decoration:none}
nav a span{color:var(--muted)}
main{padding:20px 32px 80px;max-width:1150px}
.intro p{color:var(--muted);max-width:80ch}
.intro code,.op code{background:var(--chip);padding:1px 5px;border-radius:4px}
section,.op,#error-shape{scroll-margin-top:64px}section{margin-top:28px}section h2{margin:0 0 2px;font-size:17px}section>p{margin:0 0 10px;color:var(--muted)}
.op{margin:6px 0;background:var(--panel);border:1px solid var(--line);border-radius:8px}
.op>summary{display:flex;gap:10px;align-items:center;padding:8px 12px;cursor:pointer;list-style:none}
.op>summary::-webkit-details-marker{display:none}
.op[open]>summary{border-bottom:1px solid var(--line)}
.op code.path{background:none;padding:0;font-size:13px;flex:1;word-break:break-all}
.method{min-width:58px;text-align:center;font-weight:700;font-size:11px;padding:3px 0;border-radius:5px;color:#0f1115}
.m-get{background:#7aa2f7}.m-post{background:#9ece6a}.m-put{background:#bb9af7}.m-patch{background:#e0af68}.m-delete{background:#f7768e}.m-ws{background:#2ac3de}
.chips{display:flex;gap:6px;flex-wrap:wrap;justify-content:flex-end}
.chip{font-size:11.5px;padding:2px 8px;border-radius:999px;background:var(--chip);border:1px solid var(--line);white-space:nowrap}
.chip.perm{color:#e0af68}.chip.auth{color:#7aa2f7}.chip.public{color:#9ece6a}.chip.flag{color:#bb9af7}
.op-body{padding:8px 16px 14px}
.op-body h4{margin:14px 0 6px;font-size:12px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
dl.meta{display:grid;grid-template-columns:130px 1fr;gap:2px 12px;margin:6px 0}dl.meta dt{color:var(--muted)}dl.meta dd{margin:0}
table.params{border-collapse:collapse;width:100%}table.params th,table.params td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);vertical-align:top}
table.params th{color:var(--muted);font-weight:500;font-size:12px}
.req{color:#e0af68;font-size:12px}.opt{color:var(--muted);font-size:12px}.muted{color:var(--muted)}
ul.responses{list-style:none;margin:0;padding:0}ul.responses>li{padding:5px 0;border-bottom:1px solid var(--line)}
.status{display:inline-block;min-width:44px;font-weight:700;font-family:ui-monospace,monospace}.status.ok{color:#9ece6a}.status.redirect{color:#7aa2f7}.status.err{color:#f7768e}
a.shape{font-size:12.5px}details.schema{margin:4px 0 2px}details.schema>summary{cursor:pointer;color:var(--accent);font-size:12.5px}
details.schema .schema-body{margin:6px 0 0;padding:8px 12px;background:#0b0d11;border:1px solid var(--line);border-radius:6px;overflow:auto;max-height:480px}
ul.tree{list-style:none;margin:2px 0 2px 6px;padding-left:14px;border-left:1px solid var(--line)}ul.tree li{padding:1px 0}
.schema-body code{background:none;padding:0}.schema-body code.k{color:#c0caf5;font-weight:600}.schema-body .req{color:#e0af68;margin-left:1px}
@media (max-width:800px){.layout{grid-template-columns:1fr}nav{position:static;height:auto;border-right:0;border-bottom:1px solid var(--line)}}
`;

export function renderApiDocsPage(doc: OpenApiDocument): string {
  const byTag = new Map<string, string[]>(doc.tags.map((t) => [t.name, []]));
  let count = 0;
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      byTag.get(op.tags[0])?.push(operationEntry(path, method, op));
      count++;
    }
  }
  const navGroup = (title: string, plugin: boolean) =>
    `<h3>${title}</h3>` +
    doc.tags
      .filter((t) => (t['x-plugin'] !== null) === plugin)
      .map((t) => `<a href="#tag-${slug(t.name)}">${escapeHtml(t.name.replace(/^core: /, ''))}<span>${byTag.get(t.name)?.length ?? 0}</span></a>`)
      .join('');
  const sections = doc.tags
    .map((t) => `<section id="tag-${slug(t.name)}"><h2>${escapeHtml(t.name)}</h2><p>${prose(t.description)}</p>${(byTag.get(t.name) ?? []).join('')}</section>`)
    .join('');
  const intro = doc.info.description
    .split('\n\n')
    .map((p) => `<p>${prose(p)}</p>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">
<title>${escapeHtml(doc.info.title)}</title><style>${STYLE}</style></head>
<body><header><h1>${escapeHtml(doc.info.title)}</h1><span class="muted">version ${escapeHtml(doc.info.version)} · ${count} operations · OpenAPI ${doc.openapi}</span><a href="/api/docs/openapi.json" download="orepanel-openapi.json">openapi.json</a><a href="/mc-admin">Back to the admin area</a></header>
<div class="layout"><nav>${navGroup('Core', false)}${navGroup('Plugins', true)}</nav>
<main><div class="intro">${intro}<div id="error-shape">${schemaBlock('The error shape of every 4xx and 5xx answer', doc.components.schemas.Error)}</div></div>${sections}</main></div></body></html>`;
}
