// An announcement's body as the server rendered it. The HTML is safe by construction (the server's
// markdown.ts: source HTML escaped, only http(s)/mailto/own links, only the panel's own images), so it
// is set as HTML here and only styled.
import { theme } from '@orepanel/sdk';

export function AnnouncementBody({ html }: { html: string }) {
  return (
    <div
      className="announcement-body"
      css={{
        overflowWrap: 'anywhere',
        lineHeight: 1.6,
        '& img': { maxWidth: '100%', height: 'auto', borderRadius: theme.radii.md },
        '& a': { color: theme.colors.primary },
        '& pre': { overflowX: 'auto', padding: 12, borderRadius: theme.radii.md, background: theme.colors.surfaceRaised },
        '& code': { fontFamily: 'ui-monospace, monospace' },
        '& blockquote': { margin: 0, paddingLeft: 12, borderLeft: `3px solid ${theme.colors.border}`, opacity: 0.85 },
        '& > :first-of-type': { marginTop: 0 },
        '& > :last-child': { marginBottom: 0 },
      }}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: rendered safely on the server (markdown.ts)
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
