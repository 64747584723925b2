import { checkText, REPORT_TEXT } from './textFields';
import { callOptions, type CallOptions, type Transport } from './transport';
import type { AggregationTotal, AggregationTotalParams } from './types';

export function aggregationsApi(transport: Transport) {
  return {
    /**
     * GET /aggregations/total: one signed total for a category and its descendants. Use start_date and
     * end_date for periodic categories, date for point-in-time ones (Category.point_in_time); the day of
     * the month is ignored by the API.
     */
    total: async (params: AggregationTotalParams, opts?: CallOptions): Promise<AggregationTotal> =>
      checkText((await transport.request<AggregationTotal>({ method: 'GET', path: '/aggregations/total', query: { ...params }, ...callOptions(opts) })).body, REPORT_TEXT, 'GET', '/aggregations/total'),
  };
}

export type AggregationsApi = ReturnType<typeof aggregationsApi>;
