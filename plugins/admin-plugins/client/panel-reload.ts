// The browser read the plugins' manifests when the panel started: after a switch, reloading is how
// this tab shows the panel as the server now has it (a disabled plugin's menu items and pages gone,
// an enabled one's there). Its own module, so a test can watch it instead of leaving the page.
export function reloadPanel(): void {
  window.location.reload();
}
