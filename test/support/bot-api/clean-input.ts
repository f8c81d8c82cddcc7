// What Telegram does to a text a bot sends before it keeps it: TDLib's clean_input_string
// (tdutils/td/utils/misc.cpp) after the entities are parsed. "\r" is dropped; every other control
// character 0x00–0x1F but "\n" (the tab too) becomes a space; U+2028–U+202E and the combining
// vertical lines U+030A, U+0333, U+033F are dropped. Entities move with the characters dropped.
import type { ParsedText } from './html.ts';

const dropped = (code: number): boolean => code === 0x0d || (code >= 0x2028 && code <= 0x202e) || code === 0x030a || code === 0x0333 || code === 0x033f;
const spaced = (code: number): boolean => code < 0x20 && code !== 0x0a;

export function cleanInputText({ text, entities }: ParsedText): ParsedText {
  // where each UTF-16 position of the text lands once characters are dropped
  const at: number[] = [];
  let cleaned = '';
  for (let i = 0; i < text.length; i++) {
    at.push(cleaned.length);
    const code = text.charCodeAt(i);
    if (dropped(code)) continue;
    cleaned += spaced(code) ? ' ' : text[i];
  }
  at.push(cleaned.length);
  const moved = entities
    .map((entity) => {
      const offset = at[entity.offset]!;
      return { ...entity, offset, length: at[entity.offset + entity.length]! - offset };
    })
    .filter((entity) => entity.length > 0);
  return { text: cleaned, entities: moved };
}
