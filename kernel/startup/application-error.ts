// spec §4: when mounting fails, the page shows the heading 'Application Error' and the text 'Sorry,
// something went wrong. Please try refreshing the page.' Plain DOM: React itself may be what failed.
export const APPLICATION_ERROR_TITLE = 'Application Error';
export const APPLICATION_ERROR_TEXT = 'Sorry, something went wrong. Please try refreshing the page.';

export function renderApplicationError(doc: Document = document, texts: { title: string; text: string } = { title: APPLICATION_ERROR_TITLE, text: APPLICATION_ERROR_TEXT }): void {
  const host = doc.getElementById('app') ?? doc.body;
  const box = doc.createElement('div');
  box.setAttribute('role', 'alert');
  box.setAttribute('data-testid', 'application-error');
  box.style.cssText = 'min-height:100vh;display:grid;place-items:center;padding:24px;text-align:center;background:#0b0f17;color:#e6eaf2;font-family:system-ui,sans-serif';
  const inner = doc.createElement('div');
  const heading = doc.createElement('h1');
  heading.textContent = texts.title;
  heading.style.cssText = 'margin:0 0 8px;font-size:28px';
  const text = doc.createElement('p');
  text.textContent = texts.text;
  text.style.cssText = 'margin:0;color:#94a0b8';
  inner.append(heading, text);
  box.append(inner);
  host.replaceChildren(box);
}
