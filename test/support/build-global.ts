import { buildAsNpmStart } from './start-command.ts';

// vitest's global set-up: src/ built into dist/ by `npm start`'s own prestart command, once per
// run, so the process tests start the bot exactly as production does (start-command.ts).
export default function setup(): void {
  buildAsNpmStart();
}
