import type { Formatter } from '../../../format.ts';
import type { Translate } from '../../../i18n.ts';
import { visibleLength } from './html.ts';

/** A card's HTML and the length Telegram counts for it. */
export type MeasuredCard = { html: string; length: number };

type Rendered = { t: Translate; fmt: Formatter; steps: Array<MeasuredCard | undefined> };

// A card is a pure function of its record, the language (translator and formatter) and the degrade
// step; records are the portal cache's shared, never-mutated objects, the same object on every hit.
// So each card is rendered and measured once per record, language and step, and kept exactly as
// long as its record: while the portal cache holds the page (a WeakMap holds no record alive).
// A page re-shown (◀ ▶, another user's same lookup) renders nothing.
const rendered = new WeakMap<object, Rendered[]>();

/** The card of `record` at degrade step `step`, rendered by `render` only the first time. */
export const cachedCard = (record: object, t: Translate, fmt: Formatter, step: number, render: () => string): MeasuredCard => {
  let languages = rendered.get(record);
  if (languages === undefined) {
    languages = [];
    rendered.set(record, languages);
  }
  // One entry per language the record was shown in: two at most in practice, found by a scan.
  let entry = languages.find((candidate) => candidate.t === t && candidate.fmt === fmt);
  if (entry === undefined) {
    entry = { t, fmt, steps: [] };
    languages.push(entry);
  }
  let card = entry.steps[step];
  if (card === undefined) {
    const html = render();
    card = { html, length: visibleLength(html) };
    entry.steps[step] = card;
  }
  return card;
};
