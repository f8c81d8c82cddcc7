/** The console chat's one user: the bot's admin there (main.ts adds it to ADMIN_USER_IDS). */
export const CONSOLE_USER_ID = 100_001;
