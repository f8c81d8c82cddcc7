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
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [nodeHttp],
          patterns: [
            telegraf,
            // Packages through their public entry points: what lies under a package's lib/ is its internals.
            { regex: '^(@[^/]+/)?[^./@][^/]*/lib(/|$)', message: "Import the package's public entry point, not a file of its own." },
          ],
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
    files: ['src/telegram/telegraf/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [nodeHttp] }],
    },
  },
);
