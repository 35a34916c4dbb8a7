// The six resource inputs of a server (memory, disk, CPU, ports, databases, backups): each a slider
// and a number field kept within its bounds, with a line under it saying what is free (or what the
// change takes from it). The number field carries the resource's name, so a server error about a
// field (`{ field: 'ram' }`) lands next to it in the enclosing Form.
import { Icon, TextField, theme, useTranslation } from '@orepanel/sdk';
import type { ReactNode } from 'react';
import type { ServerResourceKey, ServerResources } from '../shared/api';
import { RESOURCE_ICONS, RESOURCE_STEPS, resourceProblem, resourceText, SERVER_RESOURCE_KEYS, type Bounds } from './resources';

const c = theme.colors;

export interface ResourceFieldsProps {
  values: ServerResources;
  bounds: Record<ServerResourceKey, Bounds>;
  onChange(key: ServerResourceKey, value: number): void;
  /** the line under each field (what is free, what the change takes) */
  hint(key: ServerResourceKey): ReactNode;
  disabled?: boolean;
  /** administrators' form: no slider (there is no "free" to slide up to) */
  numbersOnly?: boolean;
}

function parse(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

export function ResourceFields({ values, bounds, onChange, hint, disabled, numbersOnly }: ResourceFieldsProps) {
  const { t } = useTranslation('servers');
  return (
    <div css={{ display: 'grid', gap: 18, gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 280px), 1fr))' }}>
      {SERVER_RESOURCE_KEYS.map((key) => {
        const range = bounds[key];
        const value = values[key];
        const problem = resourceProblem(value, range);
        const name = t(`resources.names.${key}`);
        const short = range.max < range.min;
        const error = problem ? t(`resources.problems.${problem}`, { min: resourceText(t, key, range.min), max: resourceText(t, key, Math.max(range.min, range.max)) }) : null;
        return (
          <div key={key} css={{ display: 'grid', gap: 8, alignContent: 'start', minWidth: 0 }}>
            <TextField
              name={key}
              type="number"
              inputMode="numeric"
              min={range.min}
              max={Math.max(range.min, range.max)}
              step={1}
              label={
                <span css={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
                  <Icon name={RESOURCE_ICONS[key]} size={16} />
                  {t(`resources.labels.${key}`)}
                </span>
              }
              value={Number.isNaN(value) ? '' : String(value)}
              onChange={(text) => onChange(key, parse(text))}
              disabled={disabled}
              error={error}
              hint={hint(key)}
            />
            {!numbersOnly && (
              <input
                type="range"
                aria-label={t('resources.slider', { resource: name })}
                min={range.min}
                max={Math.max(range.min, range.max)}
                step={RESOURCE_STEPS[key]}
                value={Number.isNaN(value) ? range.min : Math.min(Math.max(value, range.min), Math.max(range.min, range.max))}
                disabled={disabled || short || range.max === range.min}
                onChange={(event) => onChange(key, Number(event.target.value))}
                css={{ width: '100%', accentColor: c.primary, cursor: 'pointer', '&:disabled': { cursor: 'not-allowed', opacity: 0.5 } }}
              />
            )}
          </div>
        );
      })}
    </div>
  );
}
