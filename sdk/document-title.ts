// The browser tab's title of a page, `<title> · <app name>`: set by the sdk's useDocumentTitle once a
// page mounts, and written by the server into a pre-rendered page's <title> (issue 15), so the tab
// reads the same from the first response on.
export function documentTitle(title: string, appName: unknown): string {
  const name = typeof appName === 'string' && appName.trim() ? appName.trim() : null;
  return name && name !== title ? `${title} · ${name}` : title;
}
