import { decodeEntities } from '../bot/views/common/html.ts';

// A rich message (the html of an InputRichMessage, as the bot sends it) as a terminal shows it:
// a heading in bold, paragraphs line by line, a table as aligned columns (numbers to the right),
// a details block as its summary over its entries, indented; bold and italic as ANSI styles (or
// nothing when the output is not a terminal), entities decoded, other tags left out.

type Cell = { text: string; right: boolean };

const BOLD = '\x1b[1m';
const ITALIC = '\x1b[3m';
const RESET = '\x1b[0m';

const TOKENS = /<(\/?)([a-zA-Z][\w-]*)([^>]*)>|([^<]+)/g;

/** Characters a terminal gives a column to (a combining mark none): close enough for the bot's tables. */
const width = (text: string): number => [...text.normalize('NFC')].length;

const pad = (cell: Cell, size: number): string => {
  const room = ' '.repeat(Math.max(0, size - width(cell.text)));
  return cell.right ? room + cell.text : cell.text + room;
};

/** Rows of cells as columns, each as wide as its widest cell, two spaces apart; the header row underlined by dashes. */
const renderTable = (rows: Cell[][], header: boolean): string[] => {
  const columns = Math.max(0, ...rows.map((row) => row.length));
  const sizes = Array.from({ length: columns }, (_, column) => Math.max(0, ...rows.map((row) => width(row[column]?.text ?? ''))));
  const lines = rows.map((row) => sizes.map((size, column) => pad(row[column] ?? { text: '', right: false }, size)).join('  ').trimEnd());
  if (header && lines.length > 0) lines.splice(1, 0, sizes.map((size) => '─'.repeat(size)).join('  '));
  return lines;
};

export const richToTerminal = (html: string, color: boolean): string => {
  const out: string[] = [];
  let line = '';
  let indent = '';
  let rows: Cell[][] | undefined;
  let cell: Cell | undefined;
  let headerRow = false;
  const style = (code: string) => (color ? code : '');
  const flush = () => {
    if (line.trim() !== '') out.push(indent + line.trim());
    line = '';
  };
  for (const match of html.matchAll(TOKENS)) {
    const [, closing, rawTag, attributes = '', text] = match;
    if (text !== undefined) {
      const decoded = decodeEntities(text);
      if (cell) cell.text += decoded;
      else line += decoded;
      continue;
    }
    const tag = rawTag?.toLowerCase() ?? '';
    const open = closing !== '/';
    switch (tag) {
      case 'br':
        flush();
        break;
      case 'b':
      case 'strong':
        if (!cell) line += style(open ? BOLD : RESET);
        break;
      case 'i':
      case 'em':
        if (!cell) line += style(open ? ITALIC : RESET);
        break;
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
        if (open) {
          flush();
          line = style(BOLD);
        } else {
          line += style(RESET);
          flush();
        }
        break;
      case 'table':
        flush();
        if (open) {
          rows = [];
          headerRow = false;
        } else if (rows) {
          out.push(...renderTable(rows, headerRow).map((row) => indent + row));
          rows = undefined;
        }
        break;
      case 'tr':
        if (open) rows?.push([]);
        break;
      case 'td':
      case 'th':
        if (open) {
          cell = { text: '', right: /align\s*=\s*["']?right/.test(attributes) };
          if (tag === 'th' && rows?.length === 1) headerRow = true;
        } else if (cell) {
          rows?.at(-1)?.push({ ...cell, text: cell.text.trim() });
          cell = undefined;
        }
        break;
      case 'summary':
        // The summary at the block's own place, its entries indented under it.
        if (open) {
          flush();
          line = '▸ ';
        } else {
          flush();
          indent = `${indent}  `;
        }
        break;
      case 'details':
        flush();
        if (!open) indent = indent.slice(2);
        break;
      case 'li':
        flush();
        if (open) line = '• ';
        break;
      default:
        // p, footer, ul, ol, blockquote…: a block ends the line before it and after it.
        if (['p', 'footer', 'ul', 'ol', 'blockquote', 'pre', 'hr', 'aside'].includes(tag)) flush();
    }
  }
  flush();
  return out.join('\n');
};
