// The plugin archive reader's rules one by one (the API test sends whole archives through the route):
// which paths are refused and why, that the packer's archives read back exactly, and that links
// inside a folder to pack are refused rather than followed.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { entryPathProblem, packPluginFolder, PluginArchiveError, unpackPluginArchive } from './plugin-archive';

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'op-archive-'));
  folders.push(dir);
  return dir;
}

describe('entryPathProblem', () => {
  it('takes plain relative paths, with or without a leading ./', () => {
    for (const path of ['plugin.json', './plugin.json', 'client/entry-abc12345.js', 'locales/en-1a2b3c4d.json', 'mail/note_shared.html', 'client/']) {
      expect(entryPathProblem(path), path).toBeNull();
    }
  });

  it('refuses what could land outside the folder or be read as something else', () => {
    expect(entryPathProblem('../x')).toMatch(/points outside/);
    expect(entryPathProblem('client/../../x')).toMatch(/points outside/);
    expect(entryPathProblem('/etc/passwd')).toMatch(/absolute path/);
    expect(entryPathProblem('C:/Windows/x')).toMatch(/absolute path/);
    expect(entryPathProblem('client\\..\\x')).toMatch(/character a path may not hold/);
    expect(entryPathProblem('a\0b')).toMatch(/character a path may not hold/);
    expect(entryPathProblem('client/a b.js')).toMatch(/not allowed/);
    expect(entryPathProblem('client//x.js')).toMatch(/not allowed/);
    expect(entryPathProblem(`${'a/'.repeat(13)}x`)).toMatch(/deeper than/);
  });
});

describe('packPluginFolder and unpackPluginArchive', () => {
  it('read back every file of a packed folder, byte for byte', () => {
    const dir = folder();
    writeFileSync(join(dir, 'plugin.json'), '{"id":"notes"}');
    mkdirSync(join(dir, 'client', 'deep', 'er'), { recursive: true });
    const long = `${'n'.repeat(90)}-abcdefgh.js`;
    writeFileSync(join(dir, 'client', 'deep', 'er', long), 'x'.repeat(1500));
    writeFileSync(join(dir, 'client', 'empty.txt'), '');
    const unpacked = unpackPluginArchive(packPluginFolder(dir));
    expect([...unpacked.files.keys()].sort()).toEqual(['client/deep/er/' + long, 'client/empty.txt', 'plugin.json'].sort());
    expect(unpacked.files.get(`client/deep/er/${long}`)?.toString()).toBe('x'.repeat(1500));
    expect(unpacked.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses to pack a link instead of following it', () => {
    const dir = folder();
    writeFileSync(join(dir, 'plugin.json'), '{}');
    symlinkSync('/etc', join(dir, 'client'));
    expect(() => packPluginFolder(dir)).toThrow(PluginArchiveError);
  });

  it('refuses an archive whose plugin.json is not at its root', () => {
    const dir = folder();
    mkdirSync(join(dir, 'notes'));
    writeFileSync(join(dir, 'notes', 'plugin.json'), '{}');
    expect(() => unpackPluginArchive(packPluginFolder(dir))).toThrow(/no plugin.json at its root/);
  });
});
