import { describe, expect, it } from 'vitest';
import { changedFields } from './changed-fields';

describe('changedFields', () => {
  it('gives every field for a new row', () => {
    expect(changedFields(null, { a: 1, b: 'x' })).toEqual({ a: 1, b: 'x' });
  });
  it('gives only the fields that differ, null and false included', () => {
    expect(changedFields({ a: 1, b: 'x', c: true as boolean, d: 'y' as string | null }, { a: 1, b: 'z', c: false, d: null })).toEqual({ b: 'z', c: false, d: null });
  });
  it('gives nothing when nothing changed', () => {
    expect(changedFields({ a: 1 }, { a: 1 })).toEqual({});
  });
});
