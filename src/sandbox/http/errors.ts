// The one error envelope of the API. Every failure, including unknown paths and framework errors,
// leaves the server as {error: {type, code, message, param?, doc_url}}.

export type ErrorType =
  | 'authentication_error'
  | 'permission_error'
  | 'invalid_request_error'
  | 'rate_limit_error'
  | 'limit_error'
  | 'api_error';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: string,
    message: string,
    readonly param?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toBody(): { error: Record<string, string> } {
    const error: Record<string, string> = { type: this.type, code: this.code, message: this.message };
    if (this.param !== undefined) error.param = this.param;
    error.doc_url = `https://docs.company-financial-data.example/errors#${this.code}`;
    return { error };
  }
}

export const invalidRequest = (message: string, param?: string) =>
  new ApiError(400, 'invalid_request_error', 'invalid_request', message, param);

export const parameterMissing = (param: string, message = `Missing required parameter: ${param}.`) =>
  new ApiError(400, 'invalid_request_error', 'parameter_missing', message, param);

export const invalidDate = (param: string, value: string) =>
  new ApiError(400, 'invalid_request_error', 'invalid_date', `Invalid date for ${param}: '${value}'. Use a strict ISO 8601 date (YYYY-MM-DD).`, param);

export const invalidDateRange = () =>
  new ApiError(400, 'invalid_request_error', 'invalid_date_range', 'start_date must be on or before end_date.', 'start_date');

export const resourceMissing = (message: string, param?: string) =>
  new ApiError(404, 'invalid_request_error', 'resource_missing', message, param);

export const insufficientPermission = (message: string, param?: string) =>
  new ApiError(403, 'permission_error', 'insufficient_permission', message, param);

export const permissionError = (code: string, message: string, param?: string) =>
  new ApiError(403, 'permission_error', code, message, param);

export const conflict = (code: string, message: string, param?: string) =>
  new ApiError(409, 'invalid_request_error', code, message, param);

export const unprocessable = (code: string, message: string, param?: string) =>
  new ApiError(422, 'invalid_request_error', code, message, param);

export const serverError = (status: number, code: string, message: string) =>
  new ApiError(status, 'api_error', code, message);
