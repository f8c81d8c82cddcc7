// Numbers written as Intl.NumberFormat writes them for ru and en, without Intl (see zone.ts: the
// first Intl format costs about 7 MB). Intl's rule, kept here: the number's shortest round-trip
// decimal form (what String(value) gives), rounded half away from zero on those digits — so
// 1.005 to two places is 1.01, where toFixed reads the binary value and gives 1.00.

/** A finite number rounded to at most `maxFraction` decimals, as digit strings. */
export type Decimal = { negative: boolean; integer: string; fraction: string };

/** The shortest round-trip form of |value| written out in full: no exponent. */
const expand = (value: number): { integer: string; fraction: string } => {
  const text = Math.abs(value).toString();
  const e = text.indexOf('e');
  if (e < 0) {
    const dot = text.indexOf('.');
    return dot < 0 ? { integer: text, fraction: '' } : { integer: text.slice(0, dot), fraction: text.slice(dot + 1) };
  }
  // "1.5e-7", "1e+21": one digit before the point.
  const digits = text.slice(0, e).replace('.', '');
  const point = 1 + Number(text.slice(e + 1));
  if (point <= 0) return { integer: '0', fraction: '0'.repeat(-point) + digits };
  if (point >= digits.length) return { integer: digits + '0'.repeat(point - digits.length), fraction: '' };
  return { integer: digits.slice(0, point), fraction: digits.slice(point) };
};

/** A digit string plus one in its last place: "0199" → "0200", "99" → "100". */
const increment = (digits: string): string => {
  let k = digits.length - 1;
  while (k >= 0 && digits[k] === '9') k -= 1;
  if (k < 0) return `1${'0'.repeat(digits.length)}`;
  return digits.slice(0, k) + String(Number(digits[k]) + 1) + '0'.repeat(digits.length - k - 1);
};

/**
 * `value` (finite) rounded half away from zero to at most `maxFraction` decimals, trailing zeros
 * dropped down to `minFraction`. A value that rounds to zero is not negative: never "-0".
 */
export const toDecimal = (value: number, minFraction: number, maxFraction: number): Decimal => {
  let { integer, fraction } = expand(value);
  if (fraction.length > maxFraction) {
    const roundUp = fraction.charCodeAt(maxFraction) >= 0x35; // '5'
    const kept = integer + fraction.slice(0, maxFraction);
    const rounded = roundUp ? increment(kept) : kept;
    const split = rounded.length - maxFraction;
    integer = rounded.slice(0, split);
    fraction = rounded.slice(split);
  }
  let end = fraction.length;
  while (end > minFraction && fraction[end - 1] === '0') end -= 1;
  fraction = fraction.slice(0, end).padEnd(minFraction, '0');
  integer = integer.replace(/^0+(?=\d)/, '');
  const zero = /^0*$/.test(integer) && /^0*$/.test(fraction);
  return { negative: value < 0 && !zero, integer, fraction };
};

/** The number a decimal reads as: `value` rounded as the cards round it. */
export const roundDecimal = (value: number, maxFraction: number): number => {
  const { negative, integer, fraction } = toDecimal(value, 0, maxFraction);
  return Number(`${negative ? '-' : ''}${integer}${fraction === '' ? '' : `.${fraction}`}`);
};

/** Groups of three digits from the right, joined by `separator`. */
const group = (integer: string, separator: string): string => {
  let text = integer.slice(0, ((integer.length - 1) % 3) + 1);
  for (let k = text.length; k < integer.length; k += 3) text += separator + integer.slice(k, k + 3);
  return text;
};

/** How each locale writes a number (CLDR, as Intl has it): ru "-1 234,5" with no-break spaces, en "-1,234.5". */
const SYMBOLS = { ru: { group: '\u00a0', decimal: ',' }, en: { group: ',', decimal: '.' } } as const;

/** A formatter like `new Intl.NumberFormat(locale, { minimumFractionDigits, maximumFractionDigits, signDisplay: 'negative' })`. */
export const numberFormat = (locale: keyof typeof SYMBOLS, minFraction: number, maxFraction: number) => {
  const symbols = SYMBOLS[locale];
  return (value: number): string => {
    const { negative, integer, fraction } = toDecimal(value, minFraction, maxFraction);
    return `${negative ? '-' : ''}${group(integer, symbols.group)}${fraction === '' ? '' : symbols.decimal + fraction}`;
  };
};
