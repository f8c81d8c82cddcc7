import { describe, expect, it } from 'vitest';
import { renderError } from '../../../src/bot/views/notices.ts';
import { createTranslator } from '../../../src/i18n.ts';
import { StoreUnavailableError } from '../../../src/store/errors.ts';

describe('renderError for the store', () => {
  const full = new StoreUnavailableError('data/bot.sqlite', 'database or disk is full');

  it('says the bot cannot save right now, in either language, and names no file', () => {
    expect(renderError(full, createTranslator('ru'))).toBe('Бот сейчас не может сохранить данные. Попробуйте позже.');
    expect(renderError(full, createTranslator('en'))).toBe('The bot cannot save right now. Please try again later.');
  });

  it('keeps the generic text for a failure it does not know', () => {
    expect(renderError(new Error('database or disk is full'), createTranslator('en'))).toMatch(/^Something went wrong/);
  });
});
