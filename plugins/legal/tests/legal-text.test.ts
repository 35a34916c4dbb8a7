import { describe, expect, it } from 'vitest';
import { parseLegalText } from '../client/legal-text';

describe('parseLegalText', () => {
  it('turns blank-line separated text into paragraphs and # lines into headings', () => {
    expect(parseLegalText('# Title\nIntro line one\nline two\n\n## Part\n\nBody')).toEqual([
      { kind: 'heading', level: 1, text: 'Title' },
      { kind: 'paragraph', text: 'Intro line one\nline two' },
      { kind: 'heading', level: 2, text: 'Part' },
      { kind: 'paragraph', text: 'Body' },
    ]);
  });

  it('caps heading depth at three and ignores empty headings', () => {
    expect(parseLegalText('#### Deep\n#\n###Tight')).toEqual([
      { kind: 'heading', level: 3, text: 'Deep' },
      { kind: 'heading', level: 3, text: 'Tight' },
    ]);
  });

  it('groups consecutive "-", "*" or "•" lines into one list', () => {
    expect(parseLegalText('We collect:\n- name\n* email\n• IP\nThat is all.')).toEqual([
      { kind: 'paragraph', text: 'We collect:' },
      { kind: 'list', items: ['name', 'email', 'IP'] },
      { kind: 'paragraph', text: 'That is all.' },
    ]);
  });

  it('keeps markup as plain text and handles Windows line endings', () => {
    expect(parseLegalText('<b>bold</b>\r\n\r\n<script>alert(1)</script>')).toEqual([
      { kind: 'paragraph', text: '<b>bold</b>' },
      { kind: 'paragraph', text: '<script>alert(1)</script>' },
    ]);
  });

  it('gives nothing for empty or blank text', () => {
    expect(parseLegalText('')).toEqual([]);
    expect(parseLegalText('  \n\n \n')).toEqual([]);
  });
});
