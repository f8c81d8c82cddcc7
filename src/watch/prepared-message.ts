import { z } from 'zod';
import type { View } from '../telegram/view.ts';

// A message prepared ahead of sending (a digest's part), stored as JSON with the notifications:
// the text (HTML) and its buttons, which carry callback data only.

const preparedSchema = z.object({
  text: z.string().min(1),
  keyboard: z.array(z.array(z.object({ text: z.string(), callback_data: z.string() }))),
});

export const storeMessage = (view: View): string =>
  JSON.stringify(preparedSchema.parse({ text: view.text, keyboard: view.keyboard.map((row) => row.map((button) => ({ text: button.text, callback_data: 'callback_data' in button ? button.callback_data : '' }))) }));

/** The message back, or undefined when this version cannot read it. */
export const readMessage = (json: string): View | undefined => {
  try {
    const parsed = preparedSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : undefined;
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
};
