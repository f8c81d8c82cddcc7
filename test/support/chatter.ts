// A sales group's ordinary day, for what /autolookup costs the portal (issue 30): Russian and
// English chatter, numbers that are no identifiers (times, sums, phones, tax ids, quantities,
// dates, short order numbers), and now and then a real identifier, often asked about and then
// answered about within a minute. The same messages on every run: a fixed, well-mixed sequence.

/** A fixed, well-mixed integer in [0, range) for a seed: variety without randomness. */
const spread = (seed: number, range: number) => (Math.imul(seed + 1, 2654435761) >>> 0) % range;
const pick = <T>(items: readonly T[], seed: number): T => items[spread(seed, items.length)]!;

const PLAIN = [
  'Коллеги, добрый день!',
  'Спасибо, принято.',
  'Созвонимся после обеда?',
  'Клиент просит ускорить отгрузку.',
  'Кто сегодня дежурит по заявкам?',
  'Ок, посмотрю.',
  'Отправил КП на почту.',
  'Good morning, team!',
  'Thanks, got it.',
  'Can someone check with production?',
  'The customer is asking about delivery terms.',
  'Meeting moved to Thursday.',
  'Понял, сейчас уточню у производства.',
  'Договор подписан, ждём предоплату.',
  'Нужна справка по остаткам на складе.',
  'Let me know when the specs are ready.',
  '👍',
  'Да',
  'Нет, пока не пришло.',
  'Перезвоню через 10 минут.',
] as const;

const NUMBERS_THAT_ARE_NOT = [
  'Созвон в 15:30, ссылка в календаре.',
  'Сумма по счёту 1 250 000 руб, оплата до пятницы.',
  'Итого 1250000,00 с НДС.',
  'Телефон клиента +7 (912) 345-67-89.',
  'Реквизиты: ИНН 7701234567, КПП 770101001, БИК 044525225.',
  'Отгрузка 15.03.2026, машина к 9:00.',
  'Нужно 120 т трубы 530х8, срок — 2 недели.',
  'Счёт № 4512 от 12.03.2026.',
  'Call me at 8 800 555 35 35.',
  'Invoice 2026-118 is paid.',
  'Order 7300100 — is it shipped?',
  'Заказ 7300321 уже в работе?',
  'Вес 79,473 т, 834 м.',
  'Price went up 3.5% since 01.03.2026.',
  'Партия 12 из 60, остальное в апреле.',
] as const;

/** Identifiers of the demo portal's shapes: most exist, some do not. */
const IDENTIFIERS = [
  '0007300100',
  '0007300321',
  '0007300202',
  '0007300440',
  '0007399999',
  'CRM-2026-004512',
  'crm-2025-004290',
  'ДП-77/2026',
  'ПС-15/2026',
  'ДП-9/2026',
  '000000000010012345',
  '000000000010013020',
] as const;

const ASKING = [
  (id: string) => `Где сейчас ${id}?`,
  (id: string) => `По ${id} есть новости?`,
  (id: string) => `Any news on ${id}?`,
  (id: string) => `${id} — клиент ждёт ответа.`,
] as const;
const ANSWERING = [(id: string) => `${id} в производстве, на следующей неделе.`, (id: string) => `${id}: waiting for the prepayment.`] as const;

export type ChatterLine = { text: string; kind: 'plain' | 'numbers' | 'identifier' };

/**
 * `count` messages: about 70 % plain words, 20 % numbers that are no identifiers, 10 % naming an
 * identifier (a third of these answered by the next message, naming it again).
 */
export const chatterOfADay = (count = 1000): ChatterLine[] => {
  const lines: ChatterLine[] = [];
  for (let seed = 0; lines.length < count; seed += 1) {
    const roll = spread(seed * 7 + 3, 100);
    if (roll < 70) lines.push({ text: pick(PLAIN, seed), kind: 'plain' });
    else if (roll < 90) lines.push({ text: pick(NUMBERS_THAT_ARE_NOT, seed), kind: 'numbers' });
    else {
      const id = pick(IDENTIFIERS, seed * 13);
      lines.push({ text: pick(ASKING, seed)(id), kind: 'identifier' });
      if (spread(seed, 3) === 0 && lines.length < count) lines.push({ text: pick(ANSWERING, seed)(id), kind: 'identifier' });
    }
  }
  return lines;
};
