// The browser entry of the panel (dist/public/assets/kernel-<hash>.js): a few lines that start the
// kernel (assets/kernel-app-<hash>.js, hinted by index.html so it downloads alongside — except on a page
// the server sent already rendered, where it is fetched after the first frame). The kernel holds
// the sdk and the shared modules — never a plugin: plugins arrive at run time as System.register
// bundles. On a page the server sent already rendered, the kernel runs after that page's first frame
// (startup/first-paint.ts); the base stylesheet came inline and the preloaded file takes its place
// (startup/main-stylesheet.ts).
import { afterNextPaint, isPrerendered } from './startup/first-paint';
import { attachMainStylesheet } from './startup/main-stylesheet';

async function start(): Promise<void> {
  attachMainStylesheet(document);
  if (isPrerendered(document)) await afterNextPaint(window, document);
  const { createKernel } = await import('./kernel');
  await createKernel(document, window, { recordDiagnostics: true }).start();
}

start().catch((error: unknown) => console.error('The panel could not start', error));
