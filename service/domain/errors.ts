// One error type for every refusal of the domain; the app's error handler
// turns it into the contract's envelope.
import type { Strict } from "../../contract/views";

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: {
      errors?: Strict<"FieldError">[];
      response?: { srcConnections: number; destConnections: number };
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const badRequest = (message: string, errors?: Strict<"FieldError">[]) => new ApiError(400, message, { errors });
export const notFound = (message: string) => new ApiError(404, message);
