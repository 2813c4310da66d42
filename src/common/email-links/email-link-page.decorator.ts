import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { ErrorCode } from '../errors/error-catalog';
import { ApiErrors } from '../http/api-docs';
import { Auth } from '../http/route-policy';

const HTML = { 'text/html': { schema: { type: 'string' } } };

interface EmailLinkPageDocs {
  summary: string;
  /** What the 200 page is. */
  page: string;
  /** When the token gives the 404 page. */
  invalid: string;
  errors?: ErrorCode[];
}

/**
 * A route behind a link in an email, opened by a person in a browser (or a mail scanner): no key,
 * a public browser route, an HTML page as the answer, a 404 page for a token that does not work
 * here. The GET of such a link only shows a page; its button POSTs, and only the POST acts.
 */
export function EmailLinkPage(docs: EmailLinkPageDocs): MethodDecorator {
  return applyDecorators(
    Auth('none', { browser: true }),
    ApiOperation({ summary: docs.summary }),
    ApiProduces('text/html'),
    ApiResponse({ status: 200, description: docs.page, content: HTML }),
    ApiResponse({ status: 404, description: docs.invalid, content: HTML }),
    ApiErrors('VALIDATION_ERROR', ...(docs.errors ?? [])),
  );
}
