import { describe, expect, it } from 'vitest';
import { describeAnswerModesContract } from './answer-modes-contract.ts';
import { postgresBackend, sqliteBackend, usePlace } from './store-backends.ts';

describeAnswerModesContract(sqliteBackend());
const postgres = postgresBackend();
describeAnswerModesContract(postgres);

describe('postgres: answer modes shared by replicas', () => {
  const place = usePlace(postgres);

  it('made private through one replica, private for the next lookup another answers', async () => {
    const one = await place().open();
    const two = await place().open();
    await one.answerModes.set(-100, 'private', 42, 1_000);
    expect(await two.answerModes.mode(-100)).toBe('private');
    await two.answerModes.set(-100, 'public', 42, 2_000);
    expect(await one.answerModes.mode(-100)).toBe('public');
  });
});
