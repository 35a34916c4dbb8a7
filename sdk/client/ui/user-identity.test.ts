// How people are shown: initials when there is no avatar, and a role colour that is only ever a
// colour (an administrator's text never lands in CSS as-is).
import { describe, expect, it } from 'vitest';
import { DEFAULT_ROLE_COLOR, initialsOf, roleColor } from './user-identity';

describe('initialsOf', () => {
  it('takes first and last name, else the start of the username, upper-cased', () => {
    expect(initialsOf('ada', 'lovelace', 'x')).toBe('AL');
    expect(initialsOf(' ', null, 'steve')).toBe('ST');
    expect(initialsOf(undefined, undefined, '')).toBe('?');
  });
});

describe('roleColor', () => {
  it('keeps #rgb and #rrggbb colours', () => {
    expect(roleColor('#ffaa00')).toBe('#ffaa00');
    expect(roleColor('#FA0')).toBe('#FA0');
  });

  it('falls back to the reference default (#808080) for anything else', () => {
    for (const bad of [null, undefined, '', 'red', '#12345', 'url(x)', '#fff;background:url(https://evil.example/x)']) {
      expect(roleColor(bad)).toBe(DEFAULT_ROLE_COLOR);
    }
    expect(DEFAULT_ROLE_COLOR).toBe('#808080');
  });
});
