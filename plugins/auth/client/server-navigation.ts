// Leaves the single-page app for a server path (a full page load): the 2FA kill route answers with
// redirects the browser must follow itself. A module of its own so tests can observe it (jsdom
// cannot navigate).
export function goToServerPath(path: string): void {
  window.location.assign(path);
}
