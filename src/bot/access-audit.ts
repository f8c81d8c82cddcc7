import type { Logger } from 'pino';

// One audit line per grant or refusal of access: who acted, on whom, what came of it (the log
// line's time says when).

export type AccessAudit = {
  /** The admin (or whoever tried). */
  by: number;
  action: 'allow' | 'deny';
  kind: 'user' | 'chat';
  /** The user or group acted on, when known. */
  id: number | undefined;
  /** granted: now allowed; removed: no longer allowed; refused: nothing changed, and why. */
  outcome: 'granted' | 'removed' | 'refused';
  reason?: string;
  requestId?: number;
};

export const auditAccess = (logger: Pick<Logger, 'info'>, { by, action, kind, id, outcome, reason, requestId }: AccessAudit): void => {
  logger.info(
    {
      audit: true,
      by,
      action,
      ...(kind === 'user' ? { userId: id } : { chatId: id }),
      outcome,
      ...(reason === undefined ? {} : { reason }),
      ...(requestId === undefined ? {} : { requestId }),
    },
    `access ${outcome}`,
  );
};
