/** The bot stopped while an export was running: the user is told so, with "Try again". */
export class ExportStoppedError extends Error {
  constructor() {
    super('the bot stopped before the export was done');
    this.name = 'ExportStoppedError';
  }
}
