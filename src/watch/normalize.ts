// The portal sends binary floating point and timestamps with an empty time of day: values are
// reduced to what a person reads, so that an artefact like 1234.5600000001 is never a change.

/**
 * `value` rounded to `digits` decimals; null stays null. The product is first cut to 15
 * significant digits, so 1.005 × 100 = 100.49999999999999 rounds as the 100.5 it stands for.
 */
export const rounded = (value: number | null, digits: number): number | null => {
  if (value === null || !Number.isFinite(value)) return null;
  const scale = 10 ** digits;
  const result = Math.round(Number((value * scale).toPrecision(15))) / scale;
  return result === 0 ? 0 : result; // -0 would survive in memory but not in the stored JSON
};

export const money = (value: number | null): number | null => rounded(value, 2);
export const tonnes = (value: number | null): number | null => rounded(value, 3);
export const metres = (value: number | null): number | null => rounded(value, 2);
/** Pieces and position quantities: three decimals keep any unit's precision. */
export const quantity = (value: number | null): number | null => rounded(value, 3);

/** Portal text trimmed; an empty text is nothing. */
export const text = (value: string | null | undefined): string | null => {
  const trimmed = (value ?? '').trim();
  return trimmed === '' ? null : trimmed;
};

/** "2026-03-15 00:00:00" → "2026-03-15"; a time that is not midnight is kept; empty → null. */
export const day = (timestamp: string | null): string | null => {
  const trimmed = (timestamp ?? '').trim();
  if (trimmed === '') return null;
  const midnight = /^(\d{4}-\d{2}-\d{2})(?:[ T]00:00(?::00)?)?$/.exec(trimmed);
  return midnight?.[1] ?? trimmed.replace('T', ' ');
};
