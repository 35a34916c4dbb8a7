// The one way a PanelError is made: from the panel's answer (its `errors[]` shape), from a failed
// connection, or from a timeout. `uncertain` says whether the request may have taken effect
// although no success came back, so a caller creating something reconciles before trying again.
import { PANEL_ERROR_BRAND, type PanelError, type PanelErrorCode } from '../../sdk/pterodactyl';

interface PanelErrorInit {
  code: PanelErrorCode;
  status?: number | null;
  detail: string;
  field?: string | null;
  uncertain?: boolean;
  transient?: boolean;
}

class PanelFailure extends Error implements PanelError {
  readonly $$type = PANEL_ERROR_BRAND;
  readonly code: PanelErrorCode;
  readonly status: number | null;
  readonly detail: string;
  readonly field: string | null;
  readonly uncertain: boolean;
  readonly transient: boolean;

  constructor(init: PanelErrorInit) {
    super(`${init.code}: ${init.detail}`);
    this.name = 'PanelError';
    this.code = init.code;
    this.status = init.status ?? null;
    this.detail = init.detail;
    this.field = init.field ?? null;
    this.uncertain = init.uncertain ?? false;
    this.transient = init.transient ?? false;
  }
}

export function panelError(init: PanelErrorInit): PanelError {
  return new PanelFailure(init);
}

interface PanelErrorBody {
  errors?: Array<{ code?: unknown; status?: unknown; detail?: unknown; meta?: { source_field?: unknown; rule?: unknown } }>;
}

/** The first entry of the panel's `errors[]`, when the body has that shape. */
function firstEntry(body: unknown): { code: string; detail: string; field: string | null } | null {
  const entry = (body as PanelErrorBody | null)?.errors?.[0];
  if (!entry || typeof entry !== 'object') return null;
  return {
    code: typeof entry.code === 'string' ? entry.code : '',
    detail: typeof entry.detail === 'string' ? entry.detail : '',
    field: typeof entry.meta?.source_field === 'string' ? entry.meta.source_field : null,
  };
}

/**
 * The error for an HTTP answer that is not a success. `mayHaveActed`: the request changes something
 * (a 5xx then leaves it unknown whether it did).
 */
export function errorFromAnswer(status: number, body: unknown, mayHaveActed: boolean): PanelError {
  const entry = firstEntry(body);
  const detail = entry?.detail || `The panel answered HTTP ${status}.`;
  if (status === 401 || status === 403) return panelError({ code: 'PANEL_AUTH', status, detail });
  if (status === 404) return panelError({ code: 'PANEL_NOT_FOUND', status, detail });
  if (status === 422) return panelError({ code: 'PANEL_VALIDATION', status, detail, field: entry?.field ?? null });
  if (status === 409) return panelError({ code: 'PANEL_CONFLICT', status, detail });
  if (status === 429) return panelError({ code: 'PANEL_RATE_LIMITED', status, detail, transient: true });
  if (status >= 500) return panelError({ code: 'PANEL_ERROR', status, detail, uncertain: mayHaveActed, transient: true });
  if (status === 400 && entry) return panelError({ code: 'PANEL_REJECTED', status, detail });
  return panelError({ code: 'PANEL_ERROR', status, detail });
}

/** Connection-level codes (Node/undici) meaning the request never reached the panel. */
const NEVER_ARRIVED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ERR_INVALID_URL', 'UND_ERR_CONNECT_TIMEOUT']);

function causeCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return '';
}

/** The error for a request that got no answer: refused (never arrived) or dropped (may have acted). */
export function errorFromConnection(error: unknown, mayHaveActed: boolean): PanelError {
  const code = causeCode(error);
  const neverArrived = NEVER_ARRIVED.has(code);
  return panelError({
    code: 'PANEL_UNREACHABLE',
    detail: neverArrived ? `The panel could not be reached (${code}).` : `The connection to the panel was lost${code ? ` (${code})` : ''}.`,
    uncertain: mayHaveActed && !neverArrived,
    transient: true,
  });
}

export function timeoutError(ms: number, mayHaveActed: boolean): PanelError {
  return panelError({ code: 'PANEL_TIMEOUT', detail: `The panel did not answer within ${ms} ms.`, uncertain: mayHaveActed, transient: true });
}
