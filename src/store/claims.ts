// What every claim with a lease refuses, in both backends: a caller's bug, not a race.

export const checkClaim = (owner: string, leaseMs: number, max: number): void => {
  if (owner === '') throw new RangeError('a lease owner must be named');
  if (!(leaseMs > 0)) throw new RangeError('a lease must last some time');
  if (!Number.isSafeInteger(max) || max < 0) throw new RangeError('max must be a whole number ≥ 0');
};
