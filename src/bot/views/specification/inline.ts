import type { Formatter } from '../../../format.ts';
import type { Translate } from '../../../i18n.ts';
import type { Specification } from '../../../portal/schemas.ts';
import { MAX_DESCRIPTION_LENGTH, MAX_TITLE_LENGTH, SUMMARY_OPTIONS, fittingCard, plainLine, positionCount, resultId, type InlineItem } from '../common/inline-item.ts';
import { renderSpecCard, specFields } from './card.ts';

/** A specification as an inline result: its number and status over its contract and validity. */
export const renderSpecInline = (spec: Specification, t: Translate, fmt: Formatter): InlineItem => {
  const fields = specFields(spec, t, fmt, SUMMARY_OPTIONS);
  return {
    id: resultId('s', spec.SAP_ID.trim() || JSON.stringify(spec)),
    title: plainLine([fields.title, fields.status], MAX_TITLE_LENGTH),
    description: plainLine([fields.contract, fields.validity, positionCount(spec.POSITION.length, t)], MAX_DESCRIPTION_LENGTH),
    text: fittingCard((cardOptions) => renderSpecCard(spec, t, fmt, cardOptions)),
  };
};
