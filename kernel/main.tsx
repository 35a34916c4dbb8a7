// The browser entry of the panel (dist/public/assets/kernel-<hash>.js). It holds the kernel, the sdk and
// the shared modules — never a plugin: plugins arrive at run time as System.register bundles.
import { createKernel } from './kernel';

void createKernel(document, window, { recordDiagnostics: true }).start();
