// A plugin author's project outside the repository, for the tests that play the author: the sdk
// packed as it is published (scripts/sdk-package.mjs), a project scaffolded by the package's own
// `init`, and the package installed into it.
//
// The install does what `npm install` lays out — the tarball unpacked at node_modules/@orepanel/sdk,
// its dependencies and peers beside it, its bin in node_modules/.bin — but takes the packages from
// the panel's node_modules (linked) instead of the registry: the machine may have no network, and a
// real install compiles better-sqlite3 for minutes. The versions are the ones the package names (it
// takes them from the panel's package.json), and the package's code finds them exactly as it would
// after `npm install`: by walking up from node_modules/@orepanel/sdk.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, realpathSync, symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { REPO } from './fixtures';

const PANEL_MODULES = join(REPO, 'node_modules');

export interface CommandResult {
  code: number;
  /** stdout and stderr, interleaved as written */
  output: string;
}

/**
 * Runs a command in `cwd` with the project's node_modules/.bin first on PATH, in an environment of
 * its own (no vitest variables leak from the test running it).
 */
export function runIn(cwd: string, command: string, args: string[], timeoutMs = 240_000): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = {
      PATH: [join(cwd, 'node_modules', '.bin'), process.env.PATH ?? ''].join(delimiter),
      HOME: process.env.HOME,
      TMPDIR: process.env.TMPDIR,
      LANG: 'C.UTF-8',
      CI: '1',
      NO_COLOR: '1',
    };
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, output });
    });
  });
}

/** Unpacks the sdk tarball into `<projectDir>/node_modules/@orepanel/sdk` and links what it needs beside it. */
export async function installSdk(projectDir: string, tarball: string): Promise<void> {
  const modules = join(projectDir, 'node_modules');
  const sdkDir = join(modules, '@orepanel', 'sdk');
  mkdirSync(sdkDir, { recursive: true });
  const untar = await runIn(projectDir, 'tar', ['-xzf', tarball, '-C', sdkDir, '--strip-components=1']);
  if (untar.code !== 0) throw new Error(`tar could not unpack ${tarball}: ${untar.output}`);
  for (const name of readdirSync(PANEL_MODULES)) {
    if (name === '.bin' || name.startsWith('.') || name === '@orepanel') continue;
    if (!existsSync(join(modules, name))) symlinkSync(join(PANEL_MODULES, name), join(modules, name), 'dir');
  }
  const bin = join(modules, '.bin');
  mkdirSync(bin, { recursive: true });
  // what npm does for the package's "bin": a link, executable
  chmodSync(join(sdkDir, 'bin', 'orepanel-sdk.mjs'), 0o755);
  symlinkSync(join('..', '@orepanel', 'sdk', 'bin', 'orepanel-sdk.mjs'), join(bin, 'orepanel-sdk'));
  for (const tool of ['tsc', 'vitest']) {
    symlinkSync(realpathSync(join(PANEL_MODULES, '.bin', tool)), join(bin, tool));
  }
}
