// docs/sdk-reference.md is generated from the committed API report (scripts/sdk-reference.mjs): a change
// to the sdk's API that updates the report and not the reference fails here, naming the command to run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE_FILE, REPO_ROOT, renderReference } from '../../scripts/sdk-reference.mjs';

describe('docs/sdk-reference.md', () => {
  it('is generated from the committed API report (npm run sdk:reference)', () => {
    expect(readFileSync(join(REPO_ROOT, REFERENCE_FILE), 'utf8') === renderReference(), `${REFERENCE_FILE} is stale: run npm run sdk:reference`).toBe(true);
  });

  it('lists every component with its props, the hooks and the icons plugins use', () => {
    const text = renderReference();
    expect(text).toContain('#### Button\n\nProps (`ButtonProps`):');
    expect(text).toMatch(/#### TextField\n\nProps \(`TextFieldProps`, besides `Omit<InputHTMLAttributes<HTMLInputElement>/);
    expect(text).toContain('export function useApi<T>(url: string | null');
    expect(text).toContain('`ticket`');
    expect(text).toContain('## @orepanel/sdk/testing/server');
  });
});
