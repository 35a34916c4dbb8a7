// The host writes its legal documents as plain text in the admin settings. We turn that text into
// headings, paragraphs and bullet lists — and nothing else: no HTML is ever interpreted, so whatever
// the text contains (even "<script>") reaches the page as text through React's escaping.

export type LegalBlock = { kind: 'heading'; level: 1 | 2 | 3; text: string } | { kind: 'paragraph'; text: string } | { kind: 'list'; items: string[] };

const HEADING = /^(#{1,6})\s*(.*)$/;
const BULLET = /^[-*•]\s+(.*)$/;

function headingLevel(hashes: number): 1 | 2 | 3 {
  return hashes <= 1 ? 1 : hashes === 2 ? 2 : 3;
}

/**
 * Blank lines separate paragraphs; a line starting with '#' is a heading (one '#' per level, deeper
 * than three stays at three); consecutive lines starting with '-', '*' or '•' form a list. Other
 * single line breaks inside a paragraph are kept (rendered with `white-space: pre-line`).
 */
export function parseLegalText(source: string): LegalBlock[] {
  const blocks: LegalBlock[] = [];
  let paragraph: string[] = [];
  let list: string[] = [];

  const flushParagraph = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', text: paragraph.join('\n') });
    paragraph = [];
  };
  const flushList = () => {
    if (list.length > 0) blocks.push({ kind: 'list', items: list });
    list = [];
  };

  for (const rawLine of source.replace(/\r\n?/g, '\n').split('\n')) {
    const line = rawLine.trim();
    if (line === '') {
      flushParagraph();
      flushList();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flushParagraph();
      flushList();
      const text = heading[2].trim();
      if (text !== '') blocks.push({ kind: 'heading', level: headingLevel(heading[1].length), text });
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      flushParagraph();
      list.push(bullet[1].trim());
      continue;
    }
    flushList();
    paragraph.push(line);
  }
  flushParagraph();
  flushList();
  return blocks;
}
