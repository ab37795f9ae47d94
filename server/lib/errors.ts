// The API's one error shape (decisions §4): {"detail", "code"} and, for bad fields, "errors".

export interface FieldError {
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly extra: { errors?: FieldError[]; retryAfterSeconds?: number; body?: Record<string, unknown> } = {},
  ) {
    super(detail);
  }
}

/** A business-rule refusal (400), as the spec's flows expect. */
export const refuse = (code: string, detail: string, body?: Record<string, unknown>) =>
  new ApiError(400, code, detail, { body });
export const invalidField = (field: string, message: string, code = 'invalid') =>
  new ApiError(400, code, message, { errors: [{ field, message }] });
export const notAuthenticated = (detail = 'Given token not valid for any token type') =>
  new ApiError(401, 'token_not_valid', detail);
export const forbidden = (detail = 'You do not have permission to perform this action.', code = 'forbidden') =>
  new ApiError(403, code, detail);
export const notFound = (detail = 'Not found.', code = 'not_found') => new ApiError(404, code, detail);
export const conflict = (detail: string, code = 'conflict') => new ApiError(409, code, detail);
export const tooManyAttempts = (retryAfterSeconds: number) =>
  new ApiError(429, 'throttled', `Too many attempts. Try again in ${retryAfterSeconds} seconds.`, {
    retryAfterSeconds,
  });
/** Too many requests from one address or player (plugins/rate-limits.ts), whatever they asked. */
export const rateLimited = (retryAfterSeconds: number) =>
  new ApiError(429, 'rate_limited', `Too many requests. Try again in ${retryAfterSeconds} seconds.`, {
    retryAfterSeconds,
  });
/** Too much work queued (password hashing): nothing was checked, so retrying later is right. */
export const serverBusy = (retryAfterSeconds: number) =>
  new ApiError(503, 'busy', `The server is busy. Try again in ${retryAfterSeconds} seconds.`, { retryAfterSeconds });
