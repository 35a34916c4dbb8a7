// A tiny node:http server for the contract tests: the BUILT kernel from dist/public, the fixture
// plugins from their temporary build folder, and the few system API answers the kernel asks for at
// start-up (the plugin list is whatever the test wants served).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import type { ServedPluginManifest } from '../../../sdk/types';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface TestPanel {
  url: string;
  close(): Promise<void>;
}

export function requireBuiltKernel(distPublic: string): void {
  if (!existsSync(join(distPublic, 'index.html'))) {
    throw new Error(`${distPublic}/index.html is missing: run \`npm run build\` first (npm test does it before vitest).`);
  }
}

/** Serves `roots` (first match wins) with an index.html fallback for the app's routes. */
export async function startTestPanel(options: { roots: string[]; plugins: ServedPluginManifest[] }): Promise<TestPanel> {
  const [distPublic] = options.roots.slice(-1);
  requireBuiltKernel(distPublic);
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    switch (url.pathname) {
      case '/api/system/plugins':
        return send(200, TYPES['.json'], JSON.stringify(options.plugins));
      case '/api/system/custom.css':
        return send(200, TYPES['.css'], '');
      case '/api/system/custom.js':
        return send(200, TYPES['.js'], '');
      case '/api/system/settings':
        return send(200, TYPES['.json'], JSON.stringify({ app_name: 'Contract panel' }));
      case '/api/system/ga-ads':
        return send(404, TYPES['.json'], JSON.stringify({ error: { code: 'NOT_FOUND', message: 'Ads are not configured.' } }));
      case '/api/user/session':
        return send(
          401,
          TYPES['.json'],
          JSON.stringify({ success: false, error_code: 'INVALID_SESSION', message: 'No session.', user_info: null, billing: null, stats: null, permissions: [] }),
        );
    }
    if (url.pathname.startsWith('/api/')) return send(404, TYPES['.json'], JSON.stringify({ error: { code: 'NOT_FOUND', message: 'Not found.' } }));
    const relative = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '');
    for (const root of options.roots) {
      const file = join(root, relative);
      if (file.startsWith(root) && existsSync(file) && statSync(file).isFile()) {
        return send(200, TYPES[extname(file)] ?? 'application/octet-stream', readFileSync(file));
      }
    }
    if (extname(url.pathname)) return send(404, 'text/plain', 'not found');
    return send(200, TYPES['.html'], readFileSync(join(distPublic, 'index.html')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
