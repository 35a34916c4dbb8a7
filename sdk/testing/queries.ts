// Queries (a small subset of what @testing-library offers, with no dependency).

export type TextMatch = string | RegExp;

export const normalize = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

export function matches(text: string, match: TextMatch): boolean {
  return typeof match === 'string' ? text === match : match.test(text);
}

/** Elements whose whole text is `match`, deepest first (an ancestor with the same text is skipped). */
export function allByText(root: ParentNode, match: TextMatch): HTMLElement[] {
  const hits = [...root.querySelectorAll<HTMLElement>('*')].filter((el) => el.tagName !== 'SCRIPT' && el.tagName !== 'STYLE' && matches(normalize(el.textContent), match));
  return hits.filter((el) => !hits.some((other) => other !== el && el.contains(other)));
}

export const IMPLICIT_ROLES: Record<string, string> = {
  button: 'button, input[type="submit"], input[type="button"], input[type="reset"], [role="button"]',
  link: 'a[href], [role="link"]',
  textbox:
    'input:not([type]), input[type="text"], input[type="email"], input[type="url"], input[type="search"], input[type="tel"], input[type="password"], textarea, [role="textbox"]',
  checkbox: 'input[type="checkbox"], [role="checkbox"]',
  combobox: 'select, [role="combobox"]',
  heading: 'h1, h2, h3, h4, h5, h6, [role="heading"]',
  alert: '[role="alert"]',
  status: '[role="status"]',
  dialog: 'dialog, [role="dialog"]',
  img: 'img[alt]:not([alt=""]), [role="img"]',
  navigation: 'nav, [role="navigation"]',
  main: 'main, [role="main"]',
  // a section is a region once it has a name
  region: 'section[aria-label], section[aria-labelledby], [role="region"]',
  list: 'ul, ol, [role="list"]',
  listitem: 'li, [role="listitem"]',
};

/** The accessible name: aria-label, aria-labelledby, a label element, else the text. */
export function accessibleName(el: HTMLElement): string {
  const label = el.getAttribute('aria-label');
  if (label) return normalize(label);
  const labelledBy = el.getAttribute('aria-labelledby');
  if (labelledBy) {
    return normalize(
      labelledBy
        .split(/\s+/)
        .map((id) => el.ownerDocument.getElementById(id)?.textContent ?? '')
        .join(' '),
    );
  }
  if ('labels' in el) {
    const labels = (el as HTMLInputElement).labels;
    if (labels && labels.length) return normalize([...labels].map((l) => l.textContent).join(' '));
  }
  if (el instanceof HTMLInputElement && (el.type === 'submit' || el.type === 'button')) return normalize(el.value);
  if (el instanceof HTMLImageElement) return normalize(el.alt);
  return normalize(el.textContent);
}
