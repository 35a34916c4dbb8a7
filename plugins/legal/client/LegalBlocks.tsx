// Renders parsed legal text. Everything goes through React as text: the host's document can never
// inject markup (no dangerouslySetInnerHTML anywhere in this plugin).
import { theme } from '@orepanel/sdk';
import type { LegalBlock } from './legal-text';

const c = theme.colors;

const headingStyles = {
  1: { fontSize: theme.font.size.xl, margin: '28px 0 10px' },
  2: { fontSize: theme.font.size.lg, margin: '22px 0 8px' },
  3: { fontSize: theme.font.size.md, margin: '18px 0 6px' },
} as const;

export function LegalBlocks({ blocks }: { blocks: LegalBlock[] }) {
  return (
    <div
      css={{
        color: c.text,
        fontSize: theme.font.size.lg,
        lineHeight: 1.7,
        overflowWrap: 'anywhere',
      }}
    >
      {blocks.map((block, index) => {
        // no outer margins; by index, not :first-child — a page rendered on the server has emotion's
        // <style> elements between the blocks
        const edges = { ...(index === 0 && { marginTop: 0 }), ...(index === blocks.length - 1 && { marginBottom: 0 }) };
        if (block.kind === 'heading') {
          // the page's h1 is the document title, so the text's headings start at h2
          const Tag = (['h2', 'h3', 'h4'] as const)[block.level - 1];
          return (
            <Tag key={index} css={{ ...headingStyles[block.level], ...edges, fontWeight: theme.font.weight.semibold, lineHeight: 1.3, color: c.text }}>
              {block.text}
            </Tag>
          );
        }
        if (block.kind === 'list') {
          return (
            <ul key={index} css={{ margin: '0 0 14px', ...edges, paddingLeft: 22, color: c.text, '& li': { marginBottom: 6 }, '& li::marker': { color: c.primaryHover } }}>
              {block.items.map((item, i) => (
                <li key={i}>{item}</li>
              ))}
            </ul>
          );
        }
        return (
          <p key={index} css={{ margin: '0 0 14px', ...edges, whiteSpace: 'pre-line', color: c.text }}>
            {block.text}
          </p>
        );
      })}
    </div>
  );
}
