import { describe, expect, test } from 'vitest';
import { createFormatter } from '../../../../src/format.ts';
import { createTranslator } from '../../../../src/i18n.ts';
import { renderSpecRich } from '../../../../src/bot/views/specification/rich.ts';
import { makeSpecification } from '../../../fixtures/portal-records.ts';
import { readRichMessage } from '../../../support/bot-api/rich-message.ts';

const ru = { t: createTranslator('ru'), fmt: createFormatter('ru') };
const en = { t: createTranslator('en'), fmt: createFormatter('en') };
const fetchedAt = new Date('2026-11-23T11:05:00Z');

describe('a specification as a rich message', () => {
  test('Russian: the key fields, positions with planned production, consignees, documents and requests as details blocks', () => {
    const { html } = renderSpecRich(makeSpecification(), 0, ru.t, ru.fmt, fetchedAt);
    expect(html).toBe(
      [
        '<h3><b>Спецификация № 12</b></h3>',
        '<p>Договор № ДП-77/2026 от 01.02.2026<br/>Номер SAP: 0040001234<br/>Статус: 20, тип ZSD_DOG<br/>Действует с 01.03.2026 по 31.12.2026<br/>Плановый вес: 120,5\u00a0т<br/>Предоплата: 1\u00a0000\u00a0000,00</p>',
        '<table bordered striped><tr><th>№</th><th>Код</th><th>Материал</th><th>Производство</th></tr>',
        '<tr><td>10</td><td>10012345</td><td>Труба 530х8 К52 ГОСТ 20295-85</td><td>15.04.2026</td></tr>',
        '<tr><td>20</td><td>10012346</td><td>Труба э/с 133х4,5</td><td>не запланировано</td></tr></table>',
        '<details><summary>Грузополучатели (1)</summary><ul><li>ООО Ромашка</li></ul></details>',
        '<details><summary>Документы (1)</summary><ul><li>№ 123 от 01.02.2026</li></ul></details>',
        '<details><summary>Заявки на производство (1)</summary><ul><li>0007300100 от 15.03.2026</li></ul></details>',
        '<footer><i>обновлено <tg-time unix="1795431900" format="t">14:05</tg-time></i></footer>',
      ].join(''),
    );
  });

  test('English, as a reader gets it; empty lists are left out', () => {
    const spec = makeSpecification({ DELIVERY: [], DOCUMENT: [] });
    const { html } = renderSpecRich(spec, 0, en.t, en.fmt);
    const read = readRichMessage({ html });
    expect(read.blocks.map((block) => block.type)).toEqual(['heading', 'paragraph', 'table', 'details']);
    expect(read.text.split('\n').slice(-3)).toEqual(['20 | 10012346 | Труба э/с 133х4,5 | not planned', 'Production requests (1)', '• 0007300100 dated 15 Mar 2026']);
  });
});
