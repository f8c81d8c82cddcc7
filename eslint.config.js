import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// node:http's values come from src/http/node-http.ts, which says why (types may be imported).
const nodeHttp = { name: 'node:http', message: "Take node:http's values from src/http/node-http.ts.", allowTypeImports: true };
// Telegraf, values and types, only in its adapter (docs/architecture.md, "Telegraf, fenced").
const telegraf = {
  regex: '^telegraf(/.*)?$',
  message: 'Telegraf is touched only in src/telegram/telegraf/: import its values and types from src/telegram/telegraf/core.ts (the bot: bot.ts).',
};

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'coverage/', 'dist/', 'dist.*.tmp/', 'bench/.built/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      'no-empty': ['error', { allowEmptyCatch: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // The date-fns index modules load every function and every locale: hundreds of MB and a
      // second of start-up. Import each function and locale by its subpath.
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'date-fns', message: "Import by subpath: 'date-fns/format'." }, { name: 'date-fns/locale', message: "Import by subpath: 'date-fns/locale/ru'." }] },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            nodeHttp,
            // undici's index loads fetch, WebSocket and the rest: src/http/undici.ts loads its client alone.
            { name: 'undici', message: "Take undici's client from src/http/undici.ts.", allowTypeImports: true },
          ],
          patterns: [telegraf],
        },
      ],
    },
  },
  {
    // The emulator (test/support/) is Telegram's side, checked against Telegraf itself; the bench's bare bot is Telegraf alone.
    files: ['test/**/*.ts'],
    ignores: ['test/support/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [telegraf] }] },
  },
  {
    files: ['src/http/undici.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [nodeHttp], patterns: [telegraf] },
      ],
    },
  },
  {
    files: ['src/telegram/telegraf/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [nodeHttp, { name: 'undici', message: "Take undici's client from src/http/undici.ts.", allowTypeImports: true }] }],
    },
  },
);
