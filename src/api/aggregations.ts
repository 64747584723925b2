import { amountOf, fieldsOf, isRecord, UnreadableAnswer } from './answerShape';
import type { ParameterNames } from './parameterNames';
import { checkText, REPORT_TEXT } from './textFields';
import { callOptions, type CallOptions, type Transport } from './transport';
import type { AggregationTotal, AggregationTotalParams } from './types';

const PATH = '/aggregations/total';

/**
 * A total in the shape the add-in reads: `total_cents` when the answer has it (and then whole cents), else its
 * only `_cents` field (the spec's rule for money) or a net beside its parts (answerShape.amountOf); any other
 * answer is refused naming what was received.
 */
export function readTotal(body: unknown): AggregationTotal {
  const record = isRecord(body) ? body : {};
  const read = amountOf(record, 'total_cents');
  if ('refused' in read) throw new UnreadableAnswer({ endpoint: PATH, expected: read.refused, found: fieldsOf(body) });
  return checkText({ ...record, total_cents: read.amount } as unknown as AggregationTotal, REPORT_TEXT, 'GET', PATH);
}

export function aggregationsApi(transport: Transport, names: ParameterNames) {
  return {
    /**
     * GET /aggregations/total: one signed total for a category and its descendants. Use start_date and
     * end_date for periodic categories, date for point-in-time ones (Category.point_in_time); the day of
     * the month is ignored by the API. The category goes under the name this API reads (parameterNames.ts).
     */
    total: async (params: AggregationTotalParams, opts?: CallOptions): Promise<AggregationTotal> => {
      const { category_id: category, ...rest } = params;
      const body = await names.send(PATH, 'category_id', Object.keys(rest), async (name) =>
        (await transport.request<unknown>({ method: 'GET', path: PATH, query: { ...rest, [name]: category }, ...callOptions(opts) })).body,
      );
      return readTotal(body);
    },
  };
}
