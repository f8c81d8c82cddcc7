import { describe, expect, it } from 'vitest';
import { renderCompare } from '../../bench/compare.ts';

describe('npm run bench -- --compare', () => {
  it('tells the medians and the ratio within each round, with its range', () => {
    const rounds = [
      { before: 0.4, after: 0.3 },
      { before: 0.5, after: 0.4 },
      { before: 0.3, after: 0.24 },
    ];
    expect(renderCompare({ ref: 'abc1234', rounds })).toBe(
      "Saturated lookup mix, CPU ms per update (median of 3 rounds): abc1234 0.400, the working tree 0.300; the working tree's over abc1234's within a round: 0.80× (0.75–0.80)",
    );
  });
});
