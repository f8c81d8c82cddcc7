// Russian → Latin by the passport scheme (ГОСТ 7.79-2000 B / ICAO-like, as Russian names are
// written in passports): Ж → Zh, Х → Kh, Ц → Ts, Щ → Shch, Ь and Ъ dropped. Other letters with
// diacritics lose them (é → e); what is left stays as it is.

const LETTERS: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k',
  л: 'l', м: 'm', н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts',
  ч: 'ch', ш: 'sh', щ: 'shch', ъ: '', ы: 'y', ь: '', э: 'e', ю: 'yu', я: 'ya',
};

/** "Ж" → "Zh": an upper-case letter gives a capital first letter. */
const latin = (char: string): string => {
  const lower = char.toLowerCase();
  const mapped = LETTERS[lower];
  if (mapped === undefined) return char;
  return char === lower ? mapped : mapped.charAt(0).toUpperCase() + mapped.slice(1);
};

export const transliterate = (text: string): string =>
  Array.from(text, latin)
    .join('')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '');
