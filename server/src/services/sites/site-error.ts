import { AppError } from '../../errors.ts';

/** A refusal the Sites screen tells apart by its code (`{ message, code }` replies). */
export class SiteError extends AppError {
  constructor(
    code: 'conflict' | 'badRequest',
    readonly siteCode: string,
    message: string,
  ) {
    super(code, message);
  }
}
