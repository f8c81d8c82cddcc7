import { describe, expect, it } from 'vitest';
import { MAX_STATUS_CODE_LENGTH, MAX_STATUSES, type StatusPair } from '../../src/store/store.ts';
import { usePlace, type Backend } from './store-backends.ts';

// What every store's learned statuses must do (issue 30): run by statuses.test.ts for each
// backend, on a fresh, empty store per test.

const production: StatusPair = { resource: 'order', field: 'STATUS', code: 'production', text: 'Производство' };
const evaluation: StatusPair = { resource: 'order', field: 'STATUS', code: 'production_evaluation', text: 'Оценка производства' };
const specSixty: StatusPair = { resource: 'specification', field: 'STATUS', code: '60', text: '' };
const dog: StatusPair = { resource: 'specification', field: 'STATUS_TYPE', code: 'ZSD_DOG', text: '' };

export const describeStatusesContract = (backend: Backend): void => {
  describe(`${backend.name}: statuses`, () => {
    const place = usePlace(backend);

    it('knows nothing at first, then every pair seen, the most recently seen first', async () => {
      const { statuses } = await place().open();
      expect(await statuses.all()).toEqual([]);
      await statuses.learn([specSixty], 1_000);
      await statuses.learn([production], 2_000);
      await statuses.learn([evaluation], 3_000);
      await statuses.learn([dog], 4_000);
      expect(await statuses.all()).toEqual([dog, evaluation, production, specSixty]);
    });

    it('keeps one text per code: the latest seen', async () => {
      const { statuses } = await place().open();
      await statuses.learn([production], 1_000);
      await statuses.learn([{ ...production, text: ' В производстве ' }, { ...production, code: '  ' }], 2_000);
      expect(await statuses.all()).toEqual([{ ...production, text: 'В производстве' }]);
    });

    it('keeps a code per resource and field: an order status and a specification status of the same code are two', async () => {
      const { statuses } = await place().open();
      await statuses.learn([{ ...specSixty, resource: 'order', text: 'x' }, specSixty, { ...specSixty, field: 'STATUS_TYPE' }], 1_000);
      expect(await statuses.all()).toHaveLength(3);
    });

    it('leaves out codes and texts too long to be statuses, reads at most MAX_STATUSES, and keeps them across a restart', async () => {
      const before = await place().open();
      await before.statuses.learn([{ ...production, code: 'x'.repeat(MAX_STATUS_CODE_LENGTH + 1) }, { ...production, text: 'y'.repeat(201) }], 1_000);
      expect(await before.statuses.all()).toEqual([]);
      const many = Array.from({ length: MAX_STATUSES + 5 }, (_, index): StatusPair => ({ ...production, code: `code${index}` }));
      await before.statuses.learn(many, 2_000);
      await before.close();
      const after = await place().open();
      expect(await after.statuses.all()).toHaveLength(MAX_STATUSES);
    });

    it('reads rows this version does not know as none', async () => {
      const { statuses } = await place().open();
      await place().sql("INSERT INTO status_names VALUES ('invoice', 'STATUS', 'paid', 'Оплачен', 1), ('order', 'COLOUR', 'red', '', 1)");
      await statuses.learn([production], 2);
      expect(await statuses.all()).toEqual([production]);
    });
  });
};
