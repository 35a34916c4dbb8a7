// The script terminal (spec §2: "a terminal that runs typed script"). What is typed runs in the page,
// as the signed-in user — which is why the panel warns first, as browsers' own consoles do (people
// are talked into pasting code that steals their account). An expression's value is shown; a
// statement runs for its effects; a promise is awaited. Shown values go through the same redaction as
// everything else the panel shows.
import { redactText, redactValue } from '@orepanel/sdk';

export interface TerminalOutcome {
  ok: boolean;
  /** the value or the error, as text */
  text: string;
}

/** Compiles `code` as an expression when it is one, else as statements. */
function compile(code: string): () => unknown {
  try {
    // the Function constructor (the panel's CSP allows it): a scope of its own, the page's globals visible
    return new Function(`return (${code}\n);`) as () => unknown;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return new Function(code) as () => unknown;
  }
}

/** A value as the terminal shows it: strings quoted, objects as indented JSON, credentials redacted. */
export function showValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return redactText(JSON.stringify(value));
  if (typeof value === 'function') return `ƒ ${value.name || 'anonymous'}()`;
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol') return value.toString();
  if (value instanceof Error) return redactText(`${value.name}: ${value.message}`);
  if (typeof Node !== 'undefined' && value instanceof Node) return `<${value.nodeName.toLowerCase()}>`;
  if (typeof value !== 'object' || value === null) return String(value);
  try {
    return JSON.stringify(redactValue(value), null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Runs `code` and says what came of it. */
export async function runScript(code: string): Promise<TerminalOutcome> {
  try {
    const result = compile(code)();
    const value = result instanceof Promise ? await result : result;
    return { ok: true, text: showValue(value) };
  } catch (error) {
    return { ok: false, text: error instanceof Error ? redactText(`${error.name}: ${error.message}`) : `Uncaught ${showValue(error)}` };
  }
}
