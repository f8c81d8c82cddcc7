import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../src/config.ts';
import { ROOT } from './support/start-command.ts';

it('the README’s configuration table lists exactly the variables the bot reads', () => {
  const readme = readFileSync(`${ROOT}README.md`, 'utf8');
  const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
  const documented = [...table.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((match) => match[1]);
  expect([...documented].sort()).toEqual([...CONFIG_VARIABLES].sort());
});

it('the README stays within 250 lines: what operators and users need, the rest in docs/', () => {
  const lines = readFileSync(`${ROOT}README.md`, 'utf8').trimEnd().split('\n');
  expect(lines.length).toBeLessThanOrEqual(250);
});
